"""Voice satellites over a real Mosquitto: the shipped ACL, bad input, presence, and broker restarts.

The spoken end-to-end turns with the assistant and MQTT home control are in test_mqtt_voice.py.
"""
import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest

from mqtt_broker import HalfStalledPath, Mosquitto
from mqtt_devices import SatelliteDevice, login, wait_until
from streaming.transports.mqtt.connection import Backoff
from streaming.metrics import Metrics
from streaming.transports.mqtt.satellite import SATELLITE_RATE, SERVER_STATUS, SatelliteService, audio_message
from streaming.session import Session


async def start_service(broker, engines, **options) -> SatelliteService:
    service = SatelliteService(lambda config, device_id: Session(engines, config), Session.close, login(broker, "parley"),
                               backoff=Backoff(initial=0.1, maximum=0.5), **options)
    await service.start()
    await asyncio.wait_for(service.connected.wait(), 10)
    return service


@pytest.fixture
async def service(broker, engines):
    service = await start_service(broker, engines)
    yield service
    await service.close()


async def retained(broker, topic: str, user: str = "parley") -> bytes | None:
    """The retained message on topic as `user` may see it; None if there is none (or it is not allowed)."""
    async with login(broker, user).client() as client:
        await client.subscribe(topic, qos=1)
        try:
            async with asyncio.timeout(1):
                async for message in client.messages:
                    return bytes(message.payload)
        except TimeoutError:
            return None


async def push_to_talk(device: SatelliteDevice, speech, text: str) -> dict:
    await device.control("start")
    await device.speak(speech.piper(text, rate=16000, tail_ms=300))
    await device.control("stop")
    return await device.next_event("transcript", 30)


async def test_bad_messages_get_error_events_and_the_device_goes_on(broker, service, speech):
    async with SatelliteDevice(broker, "kitchen") as device:
        await device.publish("control", b"{not json")
        assert (await device.next_event("error", 10))["code"] == "invalid_json"
        await device.publish("control", json.dumps({"type": "dance"}))
        assert (await device.next_event("error", 10))["code"] == "unknown_control"
        await device.publish("audio/in", b"\x00\x01\x02", qos=0)
        error = await device.next_event("error", 10)
        assert error["code"] == "invalid_audio" and "2 bytes" in error["message"]
        await device.publish("text/in", b"\xff\xfe")
        assert (await device.next_event("error", 10))["code"] == "invalid_text"
        transcript = await push_to_talk(device, speech, "What time is it?")   # still served
        assert "time" in transcript["text"].lower()
        assert list(service.satellites) == ["kitchen"]


async def test_parley_announces_itself_and_devices_may_read_that(broker, service):
    assert await retained(broker, SERVER_STATUS, user="kitchen") == b"online"


async def test_a_device_cannot_read_or_drive_another_devices_topics(broker, service, speech):
    async with (SatelliteDevice(broker, "kitchen") as kitchen, login(broker, "bedroom").client() as intruder,
                login(broker, "parley").client() as parley_side):
        await intruder.subscribe("parley/kitchen/#", qos=1)
        await intruder.subscribe("home/#", qos=1)
        await parley_side.subscribe("parley/kitchen/text/in", qos=1)
        stolen, delivered = [], []

        async def listen(client, seen):
            async for message in client.messages:
                seen.append(str(message.topic))
        listeners = [asyncio.create_task(listen(intruder, stolen)), asyncio.create_task(listen(parley_side, delivered))]
        await intruder.publish("parley/kitchen/text/in", "unlock the front door", qos=1)      # denied by the ACL
        await kitchen.publish("control", b"{oops")
        assert (await kitchen.next_event("error", 10))["code"] == "invalid_json"    # kitchen gets its events ...
        transcript = await push_to_talk(kitchen, speech, "Good morning.")
        assert "morning" in transcript["text"].lower()
        await asyncio.sleep(0.5)
        for listener in listeners:
            listener.cancel()
        assert stolen == []                                       # ... the bedroom reads none of them
        assert delivered == []                                    # and its forged request never reached Parley
        assert "bedroom" not in service.satellites


VANISHING_DEVICE = textwrap.dedent("""
    import asyncio, json, sys
    import aiomqtt
    async def main(port, password):
        will = aiomqtt.Will("parley/bedroom/status", "offline", qos=1, retain=True)
        async with aiomqtt.Client("127.0.0.1", port, username="bedroom", password=password, will=will) as client:
            await client.publish("parley/bedroom/status", "online", qos=1, retain=True)
            await client.publish("parley/bedroom/control", json.dumps({"type": "start"}), qos=1)
            await client.publish("parley/bedroom/audio/in", bytes(3200), qos=1)
            print("mid-turn", flush=True)
            await asyncio.sleep(120)
    asyncio.run(main(int(sys.argv[1]), sys.argv[2]))
""")


async def test_a_device_that_vanishes_mid_turn_frees_its_session(broker, service, tmp_path):
    script = tmp_path / "device.py"
    script.write_text(VANISHING_DEVICE)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    device = subprocess.Popen([sys.executable, str(script), str(broker.port), "bedroom-pw"], stdout=subprocess.PIPE,
                              text=True, env=env)
    try:
        assert await asyncio.wait_for(asyncio.to_thread(device.stdout.readline), 30) == "mid-turn\n"
        await wait_until(lambda: "bedroom" in service.satellites)
        session = service.satellites["bedroom"].session
        device.send_signal(signal.SIGKILL)          # no DISCONNECT: the broker publishes the last will
        await wait_until(lambda: "bedroom" not in service.satellites)
        assert session.active_tasks == 0
    finally:
        device.kill()
        device.wait()


async def test_an_idle_device_is_freed(broker, engines):
    service = await start_service(broker, engines, idle_timeout=0.5)
    try:
        async with SatelliteDevice(broker, "kitchen") as device:
            await device.control("cancel")
            await wait_until(lambda: "kitchen" in service.satellites)
            await wait_until(lambda: "kitchen" not in service.satellites, timeout=5)
    finally:
        await service.close()


async def test_a_quiet_device_keeps_its_session_until_its_timer_rings(broker, engines, needs_assistant):
    service = await start_service(broker, engines, idle_timeout=0.5)
    try:
        async with SatelliteDevice(broker, "kitchen") as device:
            await device.publish("text/in", "set a timer for 5 seconds")
            assert "5 seconds" in (await device.next_event("reply", 30))["text"]
            ring = await device.next_event("reply", 30)              # quiet for seconds, far past idle_timeout
            assert ring["text"] == "Time is up: your timer for 5 seconds is done."
            await wait_until(lambda: "kitchen" not in service.satellites, timeout=5)   # then it is idle
    finally:
        await service.close()


async def test_parley_recovers_after_a_broker_restart(tmp_path, engines, speech):
    broker = Mosquitto(tmp_path)
    broker.start()
    service = await start_service(broker, engines)
    try:
        async with SatelliteDevice(broker, "kitchen") as device:
            assert "turn" in (await push_to_talk(device, speech, "Turn it up."))["text"].lower()
            while (await device.events.get())["type"] not in ("reply", "error"):   # the turn is over
                pass
            broker.stop()                                      # mid-session: the device is still there
            await wait_until(lambda: not service.connected.is_set())
            broker.start()
            await asyncio.wait_for(service.connected.wait(), 10)   # reconnected and resubscribed
        assert await retained(broker, SERVER_STATUS) == b"online"   # announced again on the fresh broker
        async with SatelliteDevice(broker, "kitchen") as device:   # the device reconnects too and is served
            transcript = await push_to_talk(device, speech, "Good night.")
            assert "night" in transcript["text"].lower()
    finally:
        await service.close()
        broker.stop()


async def test_a_clean_shutdown_says_offline(broker, engines):
    service = await start_service(broker, engines)
    await service.close()
    assert await retained(broker, SERVER_STATUS) == b"offline"


@contextlib.asynccontextmanager
async def worker_died(broker, open_session, device_id: str):
    """A service whose sessions open_session makes, and the device whose worker died of it on its first message:
    yields both once /healthz shows it down; the service is closed after."""
    service = SatelliteService(open_session, Session.close, login(broker, "parley"),
                               backoff=Backoff(initial=0.1, maximum=0.5))
    await service.start()
    try:
        await asyncio.wait_for(service.connected.wait(), 10)
        async with SatelliteDevice(broker, device_id) as device:
            await device.control("cancel")
            await wait_until(lambda: not service.supervisor.healthy)
            yield service, device
    finally:
        await service.close()


async def test_a_devices_worker_that_dies_turns_health_red_and_its_next_message_starts_a_new_one(broker, engines,
                                                                                                   caplog):
    """Round 38: each device's messages are handled by a worker of its own. One that dies (here the session
    factory fails once, as a bug would) is logged and shown down, as the supervisor shows its dead tasks on
    /healthz; the device's next message starts a new worker, which serves it. At 240c6b8 the failure was only
    counted as a failed message and the service looked healthy."""
    opened = []

    def open_session(config, device_id):
        opened.append(device_id)
        if len(opened) == 1:
            raise RuntimeError("the factory broke")
        return Session(engines, config)

    async with worker_died(broker, open_session, "kitchen") as (service, device):
        assert service.supervisor.status()["mqtt-satellites/kitchen"] == {
            "running": False, "crashes": 1, "last_error": "RuntimeError: the factory broke", "failed_messages": 0}
        assert "worker mqtt-satellites/kitchen died" in caplog.text
        await device.publish("control", b"{oops")
        assert (await device.next_event("error", 10))["code"] == "invalid_json"   # served by a new worker
        assert service.supervisor.healthy and "mqtt-satellites/kitchen" not in service.supervisor.status()
        assert list(service.satellites) == ["kitchen"]


async def test_a_worker_that_died_before_its_devices_session_recovers_though_the_device_never_sends_again(broker,
                                                                                                        engines):
    """A device whose worker died before its session opened, and that sends nothing more, left nothing to free:
    at 2a69232 /healthz stayed red for ever. The dead worker is started again as the supervisor restarts its tasks;
    with nothing queued it ends, and /healthz forgets it."""
    def open_session(config, device_id):
        raise RuntimeError("the factory broke")

    async with worker_died(broker, open_session, "porch") as (service, _):
        assert service.supervisor.status()["mqtt-satellites/porch"]["crashes"] == 1
        await wait_until(lambda: service.supervisor.healthy, timeout=30)
        assert "mqtt-satellites/porch" not in service.supervisor.status()
        assert not service.inboxes and not service.satellites


async def test_a_broker_that_stops_reading_holds_a_bounded_backlog_and_the_satellites_come_back(tmp_path, engines,
                                                                                              caplog):
    """A broker that stops reading (here stopped with SIGSTOP) while a satellite's reply plays: at 2a69232 every
    message after a full TCP window waited in an unbounded outbox, and the publisher gave up after aiomqtt's own
    wait (10 s) while the connection stayed up, so no satellite heard anything more once the broker read again.
    Now the reply audio waiting is bounded (the excess dropped, counted, logged) and the device is told; every
    device is answered again once the broker reads."""
    from streaming.transports.mqtt.satellite import MAX_UNSENT_AUDIO

    broker = Mosquitto(tmp_path)
    broker.start()
    metrics = Metrics()
    service = await start_service(broker, engines, metrics=metrics)
    try:
        async with SatelliteDevice(broker, "kitchen") as kitchen, SatelliteDevice(broker, "bedroom") as bedroom:
            await kitchen.control("cancel")
            await wait_until(lambda: "kitchen" in service.satellites)
            client = service._client
            # the kernel's send buffer would hold 4 MiB (two minutes of reply audio) before anything waited in
            # Parley; a small one fills at once
            client._client.socket().setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
            broker.process.send_signal(signal.SIGSTOP)
            try:
                chunk = bytes(3200)                                  # 100 ms of 16 kHz audio, as a reply streams it
                for _ in range(3 * MAX_UNSENT_AUDIO // len(chunk)):
                    service.send(audio_message("kitchen", chunk))
                    await asyncio.sleep(0)
                await asyncio.sleep(client.timeout + 1)              # past aiomqtt's own wait for one publish
                dropped = metrics.registry.get_sample_value("parley_satellite_replies_dropped_total",
                                                            {"kind": "audio"})
                assert dropped and dropped >= MAX_UNSENT_AUDIO // len(chunk)   # past the bound and the kernel's bit
                assert service.unsent_audio <= MAX_UNSENT_AUDIO
                assert "satellite kitchen: the broker is not taking messages" in caplog.text
            finally:
                broker.process.send_signal(signal.SIGCONT)
            error = await kitchen.next_event("error", 30)
            assert error["code"] == "audio_dropped"
            await bedroom.publish("control", b"{oops")
            assert (await bedroom.next_event("error", 30))["code"] == "invalid_json"
            await kitchen.publish("control", json.dumps({"type": "dance"}))
            assert (await kitchen.next_event("error", 30))["code"] == "unknown_control"
            await wait_until(lambda: service.unsent_audio == 0)
    finally:
        await service.close()
        broker.stop()



def dropped_audio(metrics: Metrics) -> float:
    return metrics.registry.get_sample_value("parley_satellite_replies_dropped_total", {"kind": "audio"}) or 0


async def events_until_answered(device: SatelliteDevice) -> list[dict]:
    """Every event the device gets until the answer to a bad control message it sends now: by then whatever
    Parley had queued for the device before has been sent."""
    await device.publish("control", b"{oops")
    events = []
    while not (events and events[-1].get("code") == "invalid_json"):
        events.append(await asyncio.wait_for(device.events.get(), 30))
    return events


async def test_reply_audio_waiting_when_the_broker_connection_drops_is_not_played_after_the_reconnect(broker, engines,
                                                                                                     caplog):
    """A broker blip while reply audio waits to be sent: at 8586cdc the waiting audio was sent after the reconnect,
    a stale reply playing on the device. Now it is dropped with the connection, counted, and the device is told once;
    the device's events still arrive."""
    metrics = Metrics()
    service = await start_service(broker, engines, metrics=metrics)
    try:
        async with SatelliteDevice(broker, "kitchen") as kitchen:
            chunks = 50
            for _ in range(chunks):                     # queued in one go: none leaves before the connection drops
                service.send(audio_message("kitchen", bytes(3200)))
            service._client._client.socket().shutdown(socket.SHUT_RDWR)     # the connection drops
            await wait_until(lambda: not service.connected.is_set())
            await asyncio.wait_for(service.connected.wait(), 10)
            events = await events_until_answered(kitchen)
            assert len(kitchen.audio) == 0
            assert [e["code"] for e in events if e["type"] == "error"].count("audio_dropped") == 1
            assert dropped_audio(metrics) >= chunks - 1      # the one being published when it dropped went with it
            assert "satellite kitchen: the broker connection was lost; its reply audio is dropped" in caplog.text
            assert service.unsent_audio == 0
    finally:
        await service.close()


async def test_reply_audio_that_waited_past_its_age_bound_is_dropped_not_played_late(tmp_path, engines):
    """A broker that stops reading for longer than MAX_AUDIO_WAIT_S and then reads again: at 8586cdc every waiting
    chunk was then played, seconds late. Now what waited past the bound is dropped, counted and told once; only
    what the kernel had already taken arrives."""
    from streaming.transports.mqtt.satellite import MAX_AUDIO_WAIT_S

    broker = Mosquitto(tmp_path)
    broker.start()
    metrics = Metrics()
    service = await start_service(broker, engines, metrics=metrics)
    try:
        async with SatelliteDevice(broker, "kitchen") as kitchen:
            service._client._client.socket().setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
            broker.process.send_signal(signal.SIGSTOP)
            chunks, chunk = 200, bytes(3200)           # 640 KiB: within MAX_UNSENT_AUDIO, far past what the kernel takes
            try:
                for _ in range(chunks):
                    service.send(audio_message("kitchen", chunk))
                    await asyncio.sleep(0)
                await asyncio.sleep(MAX_AUDIO_WAIT_S + 1)
            finally:
                broker.process.send_signal(signal.SIGCONT)
            events = await events_until_answered(kitchen)
            dropped = dropped_audio(metrics)
            assert dropped >= chunks // 2
            assert len(kitchen.audio) == (chunks - dropped) * len(chunk)    # each chunk either played or dropped
            assert [e["code"] for e in events if e["type"] == "error"].count("audio_dropped") == 1
            assert service.unsent_audio == 0
    finally:
        await service.close()
        broker.stop()


@contextlib.asynccontextmanager
async def satellites_through_half_stalled_path(broker, engines):
    """The satellite service connected to the broker through a path that can stop carrying Parley's side only."""
    path = HalfStalledPath(broker)
    await path.start()
    service = SatelliteService(lambda config, device_id: Session(engines, config), Session.close,
                               replace(login(broker, "parley"), host=path.host, port=path.port),
                               backoff=Backoff(initial=0.1, maximum=0.5))
    await service.start()
    try:
        await asyncio.wait_for(service.connected.wait(), 10)
        yield path, service
    finally:
        await service.close()
        await path.close()


async def test_a_cancelled_reply_never_reaches_a_broker_slow_to_read_after_the_cancel(broker, engines,
                                                                                      needs_assistant):
    """The path to the broker stops carrying Parley's messages (a half-stalled path: what the devices send still
    arrives) while a reply plays; the device stops the reply. At 8586cdc the reply's audio already waiting was
    still sent once the path carried again; now it is taken out at the cancel (a barge-in's Interrupted likewise),
    and the device still gets the reply's audio.stop."""
    async with satellites_through_half_stalled_path(broker, engines) as (path, service):
        service._client._client.socket().setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        async with SatelliteDevice(broker, "kitchen") as kitchen:
            await kitchen.publish("text/in", "what can you do")      # six seconds of speech, paced as it plays
            await kitchen.next_event("audio.start", 30)
            path.stall()
            try:
                await wait_until(lambda: service.unsent_audio >= 32000)   # a second of it waits, past the kernel's bit
                await kitchen.control("cancel")                        # arrives: the broker still sends to Parley
                await wait_until(lambda: service.satellites["kitchen"].stream.responding is None)
                # nothing of the reply waits any more, but the one chunk (100 ms) paho was given before the cancel
                assert service.unsent_audio <= SATELLITE_RATE * 2 // 10
            finally:
                path.resume()
            assert (await kitchen.next_event("audio.stop", 30))["reason"] == "cancelled"


async def test_an_answer_in_flight_when_a_half_stalled_connection_drops_is_sent_on_the_next_one(broker, engines):
    """Found measuring a half-stalled path (bench/satellite_half_stall.py): the broker still sends to Parley but does
    not read, so the event being published waits for a confirmation that never comes; the connection then drops.
    At 8586cdc that event was lost with the connection (one of ten answers never arrived). Now it is sent again on
    the next connection."""
    async with satellites_through_half_stalled_path(broker, engines) as (path, service):
        async with SatelliteDevice(broker, "bedroom") as bedroom:
            path.stall()
            await bedroom.publish("control", b"{oops")                 # arrives: the broker still sends to Parley
            await wait_until(lambda: service.unsent_events == 1)      # the answer, queued ...
            await asyncio.sleep(0.5)                                   # ... and given to paho, which waits for its ack
            service._client._client.socket().shutdown(socket.SHUT_RDWR)    # the stalled connection drops
            await wait_until(lambda: not service.connected.is_set())
            await asyncio.wait_for(service.connected.wait(), 10)       # a new connection, carried both ways
            assert (await bedroom.next_event("error", 30))["code"] == "invalid_json"
            await wait_until(lambda: service.unsent_events == 0)


async def test_a_close_over_a_stalled_broker_gives_up_on_its_goodbye_and_ends(tmp_path, engines, caplog):
    """A broker that stopped reading (SIGSTOP, its TCP window full of reply audio) confirms neither Parley's
    `offline` status nor its DISCONNECT: at 8586cdc close() waited aiomqtt's 10 s for each, so the satellites' loop
    outlived the supervisor's stop bound (logged, left running), and its cancel, swallowed by the failed goodbye,
    let it reconnect. Now both waits are bounded by STATUS_WAIT_S, the give-up is logged, and the loop ends."""
    broker = Mosquitto(tmp_path)
    broker.start()
    service = await start_service(broker, engines)
    loop_task = service.supervisor.jobs["mqtt-satellites"].task
    service._client._client.socket().setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    broker.process.send_signal(signal.SIGSTOP)
    try:
        for _ in range(100):
            service.send(audio_message("kitchen", bytes(3200)))
            await asyncio.sleep(0)
        await service.close()
        assert "the broker did not confirm parley/server/status offline" in caplog.text
        assert "did not end within" not in caplog.text
        assert loop_task.done()
    finally:
        broker.process.send_signal(signal.SIGCONT)
        broker.stop()
