"""What a half-stalled path does: the broker still sends to Parley but no longer reads what Parley sends.

One satellite service on a real Mosquitto, reached through a test hop (tests/mqtt_broker.py, HalfStalledPath) that
stops carrying Parley's side of the connection it holds; connections made later are carried both ways. The
keepalive is the shipped one (30 s). Two devices are served. While the path is stalled the kitchen's reply
streams audio in real time (100 ms chunks through `send`, as a session's pump sends them) and the bedroom sends
a bad control message every 5 s, which Parley receives and answers. Printed: when and how the connection ended,
what waited and what was dropped by then, Parley's status as the devices saw it (its will `offline`: the broker
ended the connection), and when the bedroom had all its answers and the kitchen its `audio_dropped` once Parley
was connected again.

    PYTHONPATH=$PWD:$PWD/tests .venv/bin/python -m pytest -p conftest -q -s bench/satellite_half_stall.py
"""
import asyncio
import logging
import time
from dataclasses import replace

from mqtt_broker import HalfStalledPath
from mqtt_devices import SatelliteDevice, login, wait_until
from streaming.metrics import Metrics
from streaming.session import Session
from streaming.transports.mqtt.connection import Backoff
from streaming.transports.mqtt.satellite import SERVER_STATUS, SatelliteService, audio_message

CHUNK = 3200          # 100 ms of 16 kHz PCM16
PROBE_EVERY_S = 5
GIVE_UP_S = 120
AFTER_S = 20


async def test_measure_a_half_stalled_path(broker, engines, caplog):
    caplog.set_level(logging.INFO)
    path = HalfStalledPath(broker)
    await path.start()
    metrics = Metrics()
    service = SatelliteService(lambda config, device_id: Session(engines, config), Session.close,
                               replace(login(broker, "parley"), host=path.host, port=path.port),
                               backoff=Backoff(initial=0.1, maximum=0.5), metrics=metrics)
    await service.start()
    statuses: list[tuple[float, str]] = []
    try:
        await asyncio.wait_for(service.connected.wait(), 10)
        async with (SatelliteDevice(broker, "kitchen") as kitchen, SatelliteDevice(broker, "bedroom") as bedroom,
                    login(broker, "bedroom").client() as watcher):
            await kitchen.control("cancel")
            await bedroom.control("cancel")
            await wait_until(lambda: len(service.satellites) == 2)
            await watcher.subscribe(SERVER_STATUS, qos=1)

            async def watch():
                async for message in watcher.messages:
                    statuses.append((time.monotonic(), bytes(message.payload).decode()))
            watching = asyncio.create_task(watch())
            await asyncio.sleep(0.5)
            statuses.clear()                                   # the retained "online" of the start
            heard_before = len(kitchen.audio)
            start = time.monotonic()
            path.stall()
            probes, streamed, most_waiting = 0, 0, (0, 0)
            while service.connected.is_set() and time.monotonic() - start < GIVE_UP_S:
                service.send(audio_message("kitchen", bytes(CHUNK)))
                streamed += 1
                if time.monotonic() - start >= probes * PROBE_EVERY_S:
                    await bedroom.publish("control", b"{oops")
                    probes += 1
                most_waiting = max(most_waiting, (service.unsent_audio, service.unsent_events))
                await asyncio.sleep(CHUNK / 2 / 16000)
            ended = time.monotonic() - start
            dropped_by_then = metrics.registry.get_sample_value("parley_satellite_replies_dropped_total",
                                                                {"kind": "audio"}) or 0
            await asyncio.wait_for(service.connected.wait(), 30)
            back = time.monotonic() - start
            answers, answered = 0, None
            try:
                while answers < probes:
                    event = await asyncio.wait_for(bedroom.events.get(), AFTER_S)
                    answers += event.get("code") == "invalid_json"
                answered = f"{time.monotonic() - start:.1f} s"
            except TimeoutError:
                answered = f"never ({answers} answers, none more within {AFTER_S} s)"
            told = []
            while not kitchen.events.empty():
                event = kitchen.events.get_nowait()
                told.append(event.get("code", event["type"]))
            watching.cancel()
            lost = [line for line in caplog.text.splitlines() if "broker connection lost" in line]
            print(f"\nconnection ended {ended:.1f} s into the stall ({lost[0].split('satellites: ')[-1] if lost else '?'})"
                  f"\nmost waiting in the outbox: {most_waiting[0] // 1024} KiB of reply audio, {most_waiting[1]} events"
                  f"\nreply audio chunks dropped by then: {dropped_by_then:.0f} of {streamed} streamed"
                  f"\nParley's status as devices saw it: {[(round(t - start, 1), s) for t, s in statuses]}"
                  f"\nconnected again at {back:.1f} s; the bedroom's {probes} answers all in at {answered}; "
                  f"the kitchen's events by then: {told}; the kitchen heard {len(kitchen.audio) - heard_before} "
                  f"bytes of reply audio after the stall began")
    finally:
        await service.close()
        await path.close()

