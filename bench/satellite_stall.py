"""What a broker that stops reading costs the gateway, and what the other satellites see when it reads again.

One satellite service on a real Mosquitto (its own process), two devices. The kitchen is served; the broker is
stopped (SIGSTOP: its socket is no longer read, the TCP window fills) and the kitchen's replies stream 16 MiB of
audio into the service (100 ms chunks, as a session's pump sends them: half a minute of speech for each of 17
devices). The broker stays stopped 15 s (past aiomqtt's 10 s wait for one publish), then reads again, and the
bedroom asks a question. Printed per round: the gateway's resident memory grown over the stall, the messages and
bytes waiting in the service's outbox at its end, and how long the bedroom waited for its reply once the broker
read again ("none" if not within 60 s).

    PYTHONPATH=$PWD:$PWD/tests .venv/bin/python -m pytest -p conftest -q -s bench/satellite_stall.py
"""
import asyncio
import gc
import signal
import time

import pytest

from mqtt_broker import Mosquitto
from mqtt_devices import SatelliteDevice, login, wait_until
from streaming.session import Session
from streaming.transports.mqtt.connection import Backoff
from streaming.transports.mqtt.satellite import SatelliteService, audio_message

ROUNDS = 2
FLOOD = 16 * 1024 * 1024
CHUNK = 3200          # 100 ms of 16 kHz PCM16
STALL_S = 15


def resident_kib() -> int:
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


@pytest.mark.usefixtures("needs_assistant")
async def test_measure_a_broker_that_stops_reading(tmp_path, engines):
    for n in range(ROUNDS):
        (tmp_path / f"round{n}").mkdir()
        broker = Mosquitto(tmp_path / f"round{n}")
        broker.start()
        service = SatelliteService(lambda config, device_id: Session(engines, config), Session.close,
                                   login(broker, "parley"), backoff=Backoff(initial=0.1, maximum=0.5))
        await service.start()
        try:
            await asyncio.wait_for(service.connected.wait(), 10)
            async with SatelliteDevice(broker, "kitchen") as kitchen, SatelliteDevice(broker, "bedroom") as bedroom:
                await kitchen.control("cancel")
                await bedroom.control("cancel")
                await wait_until(lambda: len(service.satellites) == 2)
                gc.collect()
                before = resident_kib()
                broker.process.send_signal(signal.SIGSTOP)
                try:
                    for _ in range(FLOOD // CHUNK):
                        service.send(audio_message("kitchen", bytes(CHUNK)))
                        await asyncio.sleep(0)
                    await asyncio.sleep(STALL_S)
                    gc.collect()
                    grown = resident_kib() - before
                    waiting = [message for _, message in service._outbox]
                finally:
                    broker.process.send_signal(signal.SIGCONT)
                start = time.monotonic()
                await bedroom.publish("text/in", "what is seven times six")
                try:
                    await bedroom.next_event("reply", 60)
                    answered = f"{(time.monotonic() - start) * 1000:.0f} ms"
                except TimeoutError:
                    answered = "none"
                print(f"\nround {n}: memory grown {grown / 1024:.1f} MiB; outbox {len(waiting)} messages, "
                      f"{sum(len(m.payload) for m in waiting) / 1024:.0f} KiB; bedroom's reply after the broker "
                      f"read again: {answered}")
        finally:
            await service.close()
            broker.stop()
