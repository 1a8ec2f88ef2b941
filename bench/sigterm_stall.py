"""What a SIGTERM costs a real `parley serve` whose MQTT broker (and/or Redis store) is stopped (SIGSTOP).

One gateway process, its own Mosquitto (and Redis with `shared`: `--mqtt-shared`, the store on Redis; else an
SQLite store), two satellites that each had one answered turn, a home device and a Wyoming client connected. Then
STALL (broker, redis, both, none) is stopped, the gateway gets SIGTERM, and the stall lasts until it has exited.
Printed: seconds from the SIGTERM to the exit and the exit code, each new log line with its second (tracebacks
folded to their last line), what the Wyoming client read, the saves left in the spool, and what the store holds
of each device's conversation once the stall is over.

    STALL=broker PYTHONPATH=$PWD .venv/bin/python bench/sigterm_stall.py plain|shared DRAIN_TIMEOUT_S
"""
import asyncio
import os
import signal
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from wyoming.client import AsyncTcpClient  # noqa: E402

from gateways import GatewayProcess  # noqa: E402
from mqtt_broker import USERS, Mosquitto  # noqa: E402
from mqtt_devices import SatelliteDevice, home_device  # noqa: E402
from redis_server import RedisServer  # noqa: E402
from streaming.store import open_store  # noqa: E402

DEVICES = {"kitchen": "turn on the kitchen light", "bedroom": "what time is it"}


async def log_lines(log: Path, offset: int, start: float, into: list[str]) -> None:
    """Each line the gateway writes after offset, with the second it was seen (polled every 0.1 s)."""
    seen = 0
    while True:
        lines = log.read_bytes()[offset:].decode(errors="replace").splitlines()
        into.extend(f"{time.monotonic() - start:5.1f} {line}" for line in lines[seen:]
                    if line and not line.startswith((" ", "Traceback", "handle:", "During handling")))
        seen = len(lines)
        await asyncio.sleep(0.1)


async def main(shared: bool, drain_timeout: str, stall: str) -> None:
    work = Path(tempfile.mkdtemp(prefix="sigterm_stall"))
    broker = Mosquitto(work)
    broker.start()
    redis = RedisServer(work) if shared else None
    if redis is not None:
        redis.start()
    store = redis.url if redis is not None else f"sqlite://{work}/state.db"
    gateway = GatewayProcess("gw1", work, store, "--mqtt-host", broker.host, "--mqtt-port", str(broker.port),
                             "--mqtt-username", "parley", "--mqtt-password", USERS["parley"],
                             "--drain-timeout", drain_timeout, *(["--mqtt-shared"] if shared else []))
    gateway.start()
    stopped = [server for server, name in ((broker, "broker"), (redis, "redis")) if stall in (name, "both")]
    home = asyncio.create_task(home_device(broker, []))
    try:
        async with SatelliteDevice(broker, "kitchen") as kitchen, SatelliteDevice(broker, "bedroom") as bedroom:
            await asyncio.sleep(1.0)
            for device in (kitchen, bedroom):
                await device.publish("text/in", DEVICES[device.id])
                await device.next_event("reply", 120)
            wyoming = AsyncTcpClient("127.0.0.1", gateway.wyoming)
            await wyoming.connect()
            for server in stopped:
                server.process.send_signal(signal.SIGSTOP)
            try:
                start, lines = time.monotonic(), []
                tail = asyncio.create_task(log_lines(gateway.log, gateway.log.stat().st_size, start, lines))
                gateway.terminate()
                code = await asyncio.to_thread(gateway.process.wait, 120)
                print(f"STALL={stall} {'shared' if shared else 'plain'} --drain-timeout {drain_timeout}: exit "
                      f"{code} after {time.monotonic() - start:.1f} s")
                await asyncio.sleep(0.3)
                tail.cancel()
                print("\n".join(lines))
                print("the Wyoming client read:", await asyncio.wait_for(wyoming.read_event(), 5))
            finally:
                for server in stopped:
                    server.process.send_signal(signal.SIGCONT)
        print("spooled saves:", len(list(gateway.state_dir.rglob("*.json"))))
        store_client = open_store(store)
        try:
            for device_id in DEVICES:
                conversation = await store_client.load_conversation(f"dev_{device_id}")
                print(f"dev_{device_id}:", [item["type"] for item in conversation.items] if conversation else None)
        finally:
            await store_client.close()
    finally:
        home.cancel()
        gateway.stop()
        if redis is not None:
            redis.stop()
        broker.stop()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1] == "shared", sys.argv[2], os.environ.get("STALL", "broker")))
