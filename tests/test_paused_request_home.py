"""A request with a pause inside, spoken over /v1/realtime to the default home on a real Mosquitto: the default
turn detection (semantic_vad) waits through the pause, and the request is answered once, as a whole.

The voice is flite's rms (the same audio every run). The pause is cut in after "to", where people hesitate
before a number; up to it, Whisper writes "Set the living room lights to 50." with confidence (it hears the
start of "fifty"), a finished request by its words. Smart Turn says outright that the speaker goes on, so the
50 after "to" counts as only begun and the turn holds (docs/history/turn-taking.md, "The opener").
"""
import asyncio
import json

import numpy as np
import pytest

from mqtt_devices import home_device, login, playing, wait_until
from paused_speech import RATE, flite, insert_pause, pause_point
from realtime_client import RealtimeClient
from streaming.transports.mqtt.connection import Backoff
from streaming.transports.mqtt.home import MqttHome
from voice.audio import float_to_pcm16, resample

pytestmark = pytest.mark.usefixtures("needs_assistant")

REQUEST = "Set the living room lights to fifty percent."
PAUSE_MS = 700          # longer than server_vad's 500 ms of silence and than semantic_vad's "unsure" wait


@pytest.fixture(scope="module")
def home_server(broker, server_factory):
    """A server whose sessions act on the default home (home/<room>/<device>) over MQTT."""
    server = server_factory()
    home = MqttHome(login(broker, "parley"), confirm_timeout=3.0, backoff=Backoff(initial=0.1, maximum=0.5))
    server.call(home.start())
    server.call(home.wait_connected(10))
    server.ctx.home = home
    yield server
    server.call(home.close())


@pytest.fixture
async def commands(broker):
    """What the home's devices were told, as (topic, payload); the devices confirm each command."""
    async with playing(home_device, broker) as received:
        yield received


async def test_a_request_paused_after_to_is_answered_once_as_a_whole(home_server, commands, stt):
    whole = flite(REQUEST)
    paused = insert_pause(whole, pause_point(stt.whisper, whole, REQUEST, 6), PAUSE_MS)
    lead, tail = np.zeros(RATE * 4 // 10, np.float32), np.zeros(RATE * 3, np.float32)
    client = await RealtimeClient.connect(home_server.ws_url)
    created = await client.wait_for("session.created")
    assert created["session"]["audio"]["input"]["turn_detection"]["type"] == "semantic_vad"   # the default
    await client.stream_audio(float_to_pcm16(resample(np.concatenate([lead, paused, tail]), RATE, 24000)), 24000)
    done = await client.wait_for("response.done", timeout=60)
    await asyncio.sleep(0.5)                                     # a second turn would have begun by now
    transcripts = [e["transcript"] for e in client.of_type("conversation.item.input_audio_transcription.completed")]
    kinds = [e["type"] for e in client.events]
    assert kinds.count("input_audio_buffer.speech_stopped") == 1, transcripts
    assert kinds.count("response.created") == 1 and done["response"]["status"] == "completed", transcripts
    calls = [(e["item"]["name"], json.loads(e["item"]["arguments"])) for e in client.of_type("conversation.item.added")
             if e["item"]["type"] == "function_call"]
    assert len(calls) == 1 and 50 in calls[0][1].values() and "living" in json.dumps(calls[0][1]), (transcripts, calls)
    await wait_until(lambda: ("home/living_room/light/set", b'{"state": "ON", "brightness": 128}') in commands)
    await client.close()
