"""What hostile Home Assistant discovery configs cost (issue 25 N1, N8), as medians of --runs:

    PYTHONPATH=$PWD .venv/bin/python bench/discovery_cost.py [--runs 3] [--flood 100000]

- a 700-word name: refused at discovery (its lexicon was cubic in its words);
- the largest home accepted: MAX_ENTITIES entities of MAX_NAME_WORDS-word names, its lexicon built once;
- 100,000 retained configs through Inventory.receive_discovery (MAX_ENTITIES kept, the rest dropped);
- with --flood N: N retained configs and a Tasmota plug on a real Mosquitto, then MqttHome starts as a
  gateway does: the configs handled (Mosquitto drops what overflows its queue to one client, 1,000 messages
  by default) and when the last one was, the event loop's longest stall meanwhile, the log lines written, and
  then switching the plug: its answer and how long it took.
"""
import argparse
import asyncio
import contextlib
import json
import logging
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))   # the test broker and device player

from assistant.inventory import MAX_ENTITIES, MAX_NAME_WORDS, Inventory  # noqa: E402
from assistant.tools import ToolRunner  # noqa: E402
from made_up_home import play_devices, publish_home, wait_for  # noqa: E402
from mqtt_broker import Mosquitto  # noqa: E402
from mqtt_devices import login  # noqa: E402
from streaming.transports.mqtt.connection import Backoff  # noqa: E402
from streaming.transports.mqtt.home import MqttHome  # noqa: E402

KILN = ("switch", "kiln", {"name": "Kiln", "cmd_t": "tasmota/kiln/cmnd/POWER", "stat_t": "tasmota/kiln/stat/POWER",
                           "pl_on": "1", "pl_off": "0"})


def timed(work) -> tuple[object, float]:
    start = time.perf_counter()
    result = work()
    return result, time.perf_counter() - start


def long_name() -> tuple[int, int]:
    inventory = Inventory()
    name = " ".join(f"word{i}" for i in range(700))
    inventory.receive_discovery("homeassistant/light/long/config", json.dumps({"name": name, "command_topic": "a/set"}))
    return len(inventory), len(inventory.lexicon()[0])


def largest_home() -> Inventory:
    inventory = Inventory()
    for i in range(MAX_ENTITIES):
        name = " ".join(f"w{i}x{j}" for j in range(MAX_NAME_WORDS))
        inventory.receive_discovery(f"homeassistant/light/e{i}/config", json.dumps({"name": name, "command_topic": f"t/{i}"}))
    return inventory


def flood() -> int:
    inventory = Inventory()
    for i in range(100_000):
        inventory.receive_discovery(f"homeassistant/switch/f{i}/config",
                                    json.dumps({"name": f"Flood Plug {i}", "command_topic": f"flood/{i}/set"}))
    return len(inventory)


async def flood_over_mqtt(count: int, log_file: Path) -> dict:
    """Configs handled, seconds until the last, the loop's longest stall, log lines; switching the plug after."""
    with tempfile.TemporaryDirectory() as workdir:
        broker = Mosquitto(Path(workdir))
        broker.start()
        try:
            await publish_home(broker, [KILN])
            async with login(broker, "home").client() as client:
                for i in range(count):
                    config = {"name": f"Flood Plug {i}", "command_topic": f"flood/{i}/set"}
                    await client.publish(f"homeassistant/switch/flood_{i}/config", json.dumps(config), qos=0, retain=True)
            devices = asyncio.create_task(play_devices(broker, []))
            home = MqttHome(login(broker, "parley"), confirm_timeout=60, backoff=Backoff(initial=0.1, maximum=0.5))
            handled, last = 0, 0.0
            discover = home._discover

            async def counted(*args):
                nonlocal handled, last
                await discover(*args)
                handled, last = handled + 1, time.perf_counter()
            home._discover = counted
            stall = 0.0

            async def probe():
                nonlocal stall
                while True:
                    before = time.perf_counter()
                    await asyncio.sleep(0.01)
                    stall = max(stall, time.perf_counter() - before - 0.01)
            prober = asyncio.create_task(probe())
            handler = logging.FileHandler(log_file)
            logging.getLogger("parley").addHandler(handler)
            start = time.perf_counter()
            await home.start()
            seen = -1
            while seen != handled:                  # until no config arrived for 5 s
                seen = handled
                await asyncio.sleep(5)
            done = last - start
            switching = time.perf_counter()
            answer = await ToolRunner(home).run("switch_device", {"name": "kiln", "state": "on"})
            switched = time.perf_counter() - switching
            prober.cancel()
            await home.close()
            logging.getLogger("parley").removeHandler(handler)
            devices.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await devices
            return {"handled": handled, "switched": switched, "answer": answer, "stall": stall, "done": done,
                    "lines": len(log_file.read_text().splitlines())}
        finally:
            broker.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--flood", type=int, default=0, help="also this many retained configs over a real Mosquitto")
    args = parser.parse_args()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    load = os.getloadavg()[0]
    rows = []
    logging.disable(logging.CRITICAL)
    (kept, phrases), seconds = timed(long_name)
    rows.append(("a 700-word name", f"{kept} entities, {phrases} phrases", seconds))
    lexicons = []
    for _ in range(args.runs):
        inventory = largest_home()
        lexicon, seconds = timed(inventory.lexicon)
        lexicons.append(seconds)
    rows.append((f"lexicon of {MAX_ENTITIES} {MAX_NAME_WORDS}-word names", f"{len(lexicon[0])} phrases",
                 statistics.median(lexicons)))
    floods = [timed(flood) for _ in range(args.runs)]
    rows.append(("100,000 configs", f"{floods[0][0]} entities kept", statistics.median(s for _, s in floods)))
    print(f"commit {commit}, load {load:.1f} at start, {os.getloadavg()[0]:.1f} at end, median of {args.runs} runs")
    print("| input | result | median s |\n|---|---|---|")
    for what, result, seconds in rows:
        print(f"| {what} | {result} | {seconds:.2f} |")
    if args.flood:
        logging.disable(logging.NOTSET)
        logging.getLogger("parley").setLevel(logging.INFO)
        logging.getLogger("parley").propagate = False
        with tempfile.TemporaryDirectory() as workdir:
            got = asyncio.run(flood_over_mqtt(args.flood, Path(workdir) / "parley.log"))
        print(f"\n{args.flood:,} retained configs over Mosquitto, load {os.getloadavg()[0]:.1f} after:")
        print("| configs handled | the last after s | longest loop stall s | log lines | switching the plug after | s |")
        print("|---|---|---|---|---|---|")
        print(f"| {got['handled']:,} | {got['done']:.1f} | {got['stall']:.2f} | {got['lines']} | {got['answer']} "
              f"| {got['switched']:.2f} |")


if __name__ == "__main__":
    main()
