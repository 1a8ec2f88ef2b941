"""Whole voice turns over a real Mosquitto: a satellite speaks, Parley switches the light through MQTT.

Parley here is what `parley serve --mqtt-host` runs: SatelliteService for the devices and MqttHome for the
assistant's tools, against the embedded models. A simulated home device answers commands with retained state.
"""
import asyncio
import contextlib

import pytest

from mqtt_devices import SatelliteDevice, home_device, login
from streaming.transports.mqtt.connection import Backoff
from streaming.transports.mqtt.home import MqttHome
from streaming.transports.mqtt.satellite import SATELLITE_RATE, SatelliteService
from streaming.session import Session
from assistant.tools import ToolRunner
from voice.audio import pcm16_to_float

pytestmark = pytest.mark.usefixtures("needs_assistant")


@pytest.fixture
async def parley(broker, engines):
    """The home device (silent in the garage), Parley's home over MQTT, and the satellite service."""
    commands = []
    device = asyncio.create_task(home_device(broker, commands, silent_rooms=("garage",)))
    home = MqttHome(login(broker, "parley"), confirm_timeout=1.5)
    await home.start()
    await home.wait_connected(10)
    service = SatelliteService(lambda config, device_id: Session(engines, config, ToolRunner(home=home)), Session.close,
                               login(broker, "parley"), backoff=Backoff(initial=0.1, maximum=0.5))
    await service.start()
    await asyncio.wait_for(service.connected.wait(), 10)
    await asyncio.sleep(0.2)                     # the home device subscribes
    yield commands
    await service.close()
    await home.close()
    device.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await device


async def test_a_spoken_request_switches_the_light_and_the_reply_is_heard(broker, parley, engines, speech):
    commands = parley
    async with SatelliteDevice(broker, "kitchen") as device:
        await device.speak(speech.piper("Turn on the kitchen light.", rate=SATELLITE_RATE))   # server VAD ends the turn
        events = await device.events_until("reply", timeout=60)
    kinds = [e["type"] for e in events]
    for kind in ("speech.started", "speech.stopped", "transcript", "audio.start", "audio.stop", "reply"):
        assert kind in kinds
    assert kinds.index("transcript") < kinds.index("audio.start") < kinds.index("audio.stop")
    transcript = next(e for e in events if e["type"] == "transcript")["text"].lower()
    assert "kitchen light" in transcript
    assert ("home/kitchen/light/set", b"ON") in commands                  # the command went out over MQTT
    reply = events[-1]
    assert reply["tool_calls"][0]["name"] == "set_device"
    assert reply["tool_calls"][0]["arguments"] == {"device": "light", "room": "kitchen", "state": "on"}
    assert reply["tool_calls"][0]["result"] == "on"                      # ... and the device's retained state came back
    start = next(e for e in events if e["type"] == "audio.start")
    assert start == {"type": "audio.start", "response_id": reply["response_id"], "rate": SATELLITE_RATE,
                     "channels": 1, "format": "s16le"}
    heard = engines.stt.transcribe(pcm16_to_float(bytes(device.audio))).lower()
    assert "kitchen" in heard and " on" in heard                         # the answer, as the device plays it
    assert "on" in reply["text"].lower()


async def test_a_text_request_to_a_device_that_never_answers_is_not_claimed(broker, parley):
    commands = parley
    async with SatelliteDevice(broker, "kitchen") as device:
        await device.publish("text/in", "turn off the garage light")
        reply = await device.next_event("reply", timeout=60)
    assert ("home/garage/light/set", b"OFF") in commands
    assert reply["tool_calls"][0]["result"] != "off"
    assert " off" not in reply["text"].lower()                          # it must not claim the light is off


async def test_cancel_stops_the_reply_audio(broker, parley):
    async with SatelliteDevice(broker, "kitchen") as device:
        await device.publish("text/in", "set a timer for ten minutes")
        await device.next_event("audio.start", timeout=60)
        await device.control("cancel")
        stop = await device.next_event("audio.stop", timeout=10)
        assert stop["reason"] == "cancelled"
        played = len(device.audio)
        await asyncio.sleep(0.5)
        assert len(device.audio) == played                            # not one more chunk
        await device.publish("text/in", "what time is it")            # and the device is served again
        assert (await device.next_event("reply", timeout=60))["tool_calls"][0]["name"] == "get_time"
