"""How long one MQTT satellite's typed turn waits while another device's resume is held by a stuck store.

Two satellites on a real Mosquitto, one `parley serve` on an SQLite file. The bedroom is served; then the store's
one thread hangs (a stuck disk: held here as tests/test_closing.py holds it), the kitchen (not served yet, so its
first message resumes `dev_kitchen` from the store) sends a request, and the bedroom at once asks a question.
Printed per round: the bedroom's wait from its request to its reply, with the kitchen's resume held and with the
store stuck but no resume in flight, and when the kitchen heard its answer (its resume gives up after 4 s).

    PYTHONPATH=$PWD:$PWD/tests .venv/bin/python -m pytest -p conftest -q -s bench/satellite_wait.py [--rounds N]
"""
import asyncio
import statistics
import threading
import time

import pytest

from mqtt_broker import USERS
from mqtt_devices import SatelliteDevice
from streaming.server import parse_config
from streaming.transports.mqtt.satellite import SATELLITES

ROUNDS = 5


async def timed_reply(device: SatelliteDevice, text: str) -> float:
    start = time.monotonic()
    await device.publish("text/in", text)
    await device.next_event("reply", 60)
    return time.monotonic() - start


@pytest.mark.usefixtures("needs_assistant")
async def test_measure_the_second_devices_wait(server_factory, broker, tmp_path):
    options = parse_config(["--mqtt-host", broker.host, "--mqtt-port", str(broker.port), "--mqtt-username", "parley",
                            "--mqtt-password", USERS["parley"], "--wyoming-port", "0", "--audiosocket-port", "off"]).options
    server = server_factory(store=f"sqlite://{tmp_path}/state.db", options=options)
    service = server.app[SATELLITES]
    await asyncio.wait_for(asyncio.wrap_future(asyncio.run_coroutine_threadsafe(service.connected.wait(),
                                                                                server.loop)), 10)
    held, alone, kitchen_heard = [], [], []
    async with SatelliteDevice(broker, "bedroom") as bedroom:
        await timed_reply(bedroom, "what is seven times six")            # served, its session open
        for n in range(ROUNDS):
            async with SatelliteDevice(broker, f"kitchen") as kitchen:
                unstuck = threading.Event()
                stuck = server.ctx.gateway.store._executor.submit(unstuck.wait, 120)
                try:
                    alone.append(await timed_reply(bedroom, "what is six times seven"))
                    start = time.monotonic()
                    await kitchen.publish("text/in", "what is two times two")    # its resume waits on the store
                    held.append(await timed_reply(bedroom, "what is seven times six"))
                    await kitchen.next_event("error", 60)
                    kitchen_heard.append(time.monotonic() - start)
                finally:
                    unstuck.set()
                await asyncio.wrap_future(stuck)
    ms = lambda values: " ".join(f"{v * 1000:.0f}" for v in values)  # noqa: E731
    print(f"\nbedroom's reply, store stuck, no resume held (ms): {ms(alone)}; median {statistics.median(alone) * 1000:.0f}")
    print(f"bedroom's reply, kitchen's resume held (ms):       {ms(held)}; median {statistics.median(held) * 1000:.0f}")
    print(f"kitchen's error event after its request (ms):      {ms(kitchen_heard)}")
