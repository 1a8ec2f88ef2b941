"""Two real `parley serve --mqtt-shared` gateways serve one fleet of satellites through a real Mosquitto
($share/parley/ subscriptions) and a real Redis (device claims): every spoken turn is answered once and whole,
and when one gateway is killed its devices are served by the other once their claims expire, conversation
included."""
import asyncio
import time

import pytest

from gateways import GatewayProcess
from mqtt_broker import USERS, Mosquitto
from mqtt_devices import SatelliteDevice, home_device, login
from streaming.store import open_store
from streaming.transports.mqtt.satellite import SATELLITE_RATE, SERVER_STATUS

pytestmark = pytest.mark.usefixtures("needs_assistant")

DEVICES = ("kitchen", "bedroom", "hall", "porch")


@pytest.fixture
def fleet(redis_server, tmp_path_factory):
    """Two gateways and a broker for one test: the test kills a gateway, so a rerun needs a fresh fleet."""
    workdir = tmp_path_factory.mktemp("fleet")
    broker = Mosquitto(workdir)
    broker.start()
    gateways = {name: GatewayProcess(name, workdir, redis_server.url, "--mqtt-host", broker.host,
                                     "--mqtt-port", str(broker.port), "--mqtt-username", "parley",
                                     "--mqtt-password", USERS["parley"], "--mqtt-shared")
                for name in ("gw1", "gw2")}
    for gateway in gateways.values():
        gateway.start()
    yield broker, gateways
    for gateway in gateways.values():
        gateway.stop()
    broker.stop()


async def holders(redis_url: str) -> dict[str, str | None]:
    store = open_store(redis_url)
    try:
        return {device: await store.holder(f"device:{device}") for device in DEVICES}
    finally:
        await store.close()


async def speak_in_real_time(device: SatelliteDevice, pcm16: bytes) -> None:
    """20 ms messages at the pace a microphone delivers them."""
    frame, start = SATELLITE_RATE * 2 // 50, time.monotonic()
    for index, offset in enumerate(range(0, len(pcm16), frame)):
        await asyncio.sleep(max(0.0, start + index * 0.02 - time.monotonic()))
        await device.publish("audio/in", pcm16[offset:offset + frame], qos=0)


async def spoken_turn(device: SatelliteDevice, pcm16: bytes) -> list[dict]:
    """Speak, and collect every event up to the reply, then a little longer to catch a second answer."""
    device.audio.clear()
    await speak_in_real_time(device, pcm16)
    events = await device.events_until("reply", timeout=180)
    await asyncio.sleep(1.0)
    while not device.events.empty():
        events.append(device.events.get_nowait())
    return events


def answered_once_and_whole(events: list[dict], device: SatelliteDevice, room: str) -> None:
    kinds = [e["type"] for e in events]
    assert kinds.count("reply") == 1 and kinds.count("audio.start") == 1, kinds
    stop = next(e for e in events if e["type"] == "audio.stop")
    assert stop["reason"] == "done", stop
    reply = next(e for e in events if e["type"] == "reply")
    assert [c["arguments"] for c in reply["tool_calls"]] == [{"device": "light", "room": room, "state": "on"}], reply
    assert room in reply["text"].lower()
    assert len(device.audio) > SATELLITE_RATE * 2 // 2          # at least half a second of answer


async def test_two_gateways_share_the_satellites_and_survive_losing_one(fleet, redis_server, speech):
    broker, gateways = fleet
    commands = []
    home = asyncio.create_task(home_device(broker, commands))
    question = speech.piper("Turn on the kitchen light.", rate=SATELLITE_RATE)
    async with SatelliteDevice(broker, "kitchen") as kitchen, SatelliteDevice(broker, "bedroom") as bedroom, \
            SatelliteDevice(broker, "hall") as hall, SatelliteDevice(broker, "porch") as porch:
        devices = [kitchen, bedroom, hall, porch]
        rounds = await asyncio.gather(*(spoken_turn(d, question) for d in devices))
        for device, events in zip(devices, rounds):
            answered_once_and_whole(events, device, "kitchen")
        served = await holders(redis_server.url)
        assert set(served.values()) <= {"gw1", "gw2"} and None not in served.values(), served

        victim = max(gateways, key=lambda name: list(served.values()).count(name))
        survivor = next(name for name in gateways if name != victim)
        gateways[victim].kill()
        async with asyncio.timeout(60):            # its claims expire (DEVICE_CLAIM_TTL_S after the last renewal)
            while any(h == victim for h in (await holders(redis_server.url)).values()):
                await asyncio.sleep(0.1)

        # espeak-ng: the same audio every run. Each Piper synthesis differs, and Whisper heard some of them as
        # "End in the bedroom, please.", which the assistant does not understand
        follow_up = speech.espeak("And in the bedroom, please.", rate=SATELLITE_RATE)
        rounds = await asyncio.gather(*(spoken_turn(d, follow_up) for d in devices))
        for device, events in zip(devices, rounds):
            answered_once_and_whole(events, device, "bedroom")     # the earlier turn came along to the survivor
        assert set((await holders(redis_server.url)).values()) == {survivor}
    home.cancel()



async def test_a_gateway_that_falls_behind_keeps_the_words_that_came_before_its_own_subscription(
        redis_server, tmp_path, speech):
    """A gateway that takes a device subscribes to the device's own topics; until the broker confirms that, the
    device's messages come only through the shared subscription. A gateway that falls behind (a loaded
    machine, several devices taken at once) finds a whole request queued that way: it is the request, not a
    copy of one. Here the gateway is stopped while the device speaks, and continued once the broker has
    routed every chunk to it."""
    broker = Mosquitto(tmp_path)
    broker.start()
    gateway = GatewayProcess("gw-alone", tmp_path, redis_server.url, "--mqtt-host", broker.host, "--mqtt-port",
                             str(broker.port), "--mqtt-username", "parley", "--mqtt-password", USERS["parley"],
                             "--mqtt-shared")
    try:
        gateway.start()
        question = speech.piper("Turn on the kitchen light.", rate=SATELLITE_RATE)
        frame = SATELLITE_RATE * 2 // 50
        async with login(broker, "kitchen").client() as watcher:   # the gateway says online once subscribed
            await watcher.subscribe(SERVER_STATUS, qos=1)
            async with asyncio.timeout(60):
                async for message in watcher.messages:
                    if bytes(message.payload) == b"online":
                        break
        async with SatelliteDevice(broker, "kitchen") as kitchen:
            gateway.pause()
            chunks = [question[offset:offset + frame] for offset in range(0, len(question), frame)]
            for chunk in chunks[:-1]:
                await kitchen.publish("audio/in", chunk, qos=0)
            await kitchen.publish("audio/in", chunks[-1], qos=1)   # acknowledged: the broker routed every chunk
            gateway.resume()
            transcript = await kitchen.next_event("transcript", timeout=60)
            assert "kitchen light" in transcript["text"].lower(), transcript
            await kitchen.next_event("reply", timeout=120)
            await speak_in_real_time(kitchen, speech.piper("What time is it?", rate=SATELLITE_RATE))
            transcript = await kitchen.next_event("transcript", timeout=60)   # now through its own subscription,
            assert transcript["text"].lower().count("time") == 1, transcript  # each chunk once
    finally:
        gateway.resume()
        gateway.stop()
        broker.stop()
