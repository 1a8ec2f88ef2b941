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
from watched_discovery import watched_home  # noqa: E402


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
    configs = ((f"homeassistant/switch/flood_{i}/config",
                {"name": f"Flood Plug {i}", "command_topic": f"flood/{i}/set"}) for i in range(count))
    async with watched_home(configs, 0, log_file) as watched:
        start = time.perf_counter()
        await watched.home.start()
        await watched.settled(5)
        done = watched.last - start
        switching = time.perf_counter()
        answer = await ToolRunner(watched.home).run("switch_device", {"name": "kiln", "state": "on"})
        switched = time.perf_counter() - switching
    return {"handled": watched.handled, "switched": switched, "answer": answer, "stall": watched.stall,
            "done": done, "lines": len(log_file.read_text().splitlines())}


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
