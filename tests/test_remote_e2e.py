"""End to end over /v1/realtime with `--generator`: the gateway's generator is `parley generator serve` (the
embedded checkpoint) in another process; every other model is real too."""
import contextlib
import re
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest

from test_realtime_e2e import MATH, ask, connect, hear, says_42

pytestmark = pytest.mark.usefixtures("needs_assistant")

ROOT = Path(__file__).resolve().parent.parent
CALCULATE = {"type": "function", "name": "calculate", "description": "Evaluate arithmetic",
             "parameters": {"type": "object", "properties": {"expression": {"type": "string"}}}}


@contextlib.contextmanager
def generator_process():
    """`parley generator serve --port 0` in its own process; yields (url, process)."""
    process = subprocess.Popen([sys.executable, "-m", "streaming.cli", "generator", "serve", "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT)
    try:
        for line in process.stdout:
            found = re.search(r"listening on (http://[\d.]+:\d+)", line)
            if found:
                yield found.group(1), process
                return
        pytest.fail("parley generator serve did not start")
    finally:
        process.kill()
        process.wait(10)


@contextlib.contextmanager
def gateway(url: str, stt, tts, vad_model, assistant):
    """`parley serve --generator URL`: the embedded generator is the fallback."""
    from assistant.remote import RemoteGenerator
    from conftest import LiveServer
    from streaming.config import ServerConfig
    from streaming.engines import Engines

    engines = Engines(stt=stt, tts=tts, vad_model=vad_model,
                      generator=RemoteGenerator(url, model="parley-home", fallback=assistant))
    server = LiveServer(ServerConfig(port=0), engines)
    try:
        yield server
    finally:
        server.stop()


def transcript(done: dict) -> str:
    return done["response"]["output"][-1]["content"][0]["transcript"]


async def test_spoken_request_answered_by_the_remote_generator(speech, stt, tts, vad_model, assistant):
    with generator_process() as (url, _), gateway(url, stt, tts, vad_model, assistant) as server:
        client = await connect(server)
        await client.stream_audio(speech.piper(MATH), 24000)
        done = await client.wait_for("response.done", timeout=60)
        assert done["response"]["status"] == "completed"
        assert done["response"]["metadata"]["generator"] == "remote"
        assert "generator_fallback" not in done["response"]["metadata"]
        assert says_42(transcript(done))                                  # one-pass words, slot filled here
        calls = [e["item"] for e in client.of_type("conversation.item.added") if e["item"]["type"] == "function_call"]
        assert [c["name"] for c in calls] == ["calculate"]
        assert says_42(hear(stt, client.audio_of(done["response"]["id"]), 24000))
        await client.close()


async def test_client_declared_tool_through_the_remote_generator(stt, tts, vad_model, assistant):
    with generator_process() as (url, _), gateway(url, stt, tts, vad_model, assistant) as server:
        client = await connect(server)
        await client.send({"type": "session.update", "session": {"type": "realtime", "tools": [CALCULATE]}})
        await client.wait_for("session.updated")
        await ask(client, "what is seven times six")
        call = await client.wait_for("response.function_call_arguments.done", timeout=60)
        first = await client.wait_for("response.done")
        assert call["name"] == "calculate" and first["response"]["output"][0]["type"] == "function_call"
        assert first["response"]["metadata"]["generator"] == "remote"
        assert not [e for e in client.of_type("conversation.item.added")       # the client runs it, not Parley
                    if e["item"]["type"] == "function_call_output"]
        await client.send({"type": "conversation.item.create", "item": {
            "type": "function_call_output", "call_id": call["call_id"], "output": "42"}})
        start = len(client.events)
        await client.send({"type": "response.create"})
        done = await client.wait_for("response.done", start=start, timeout=60)
        assert done["response"]["metadata"]["generator"] == "remote"
        assert says_42(transcript(done))                                  # the client's output filled the reply
        assert says_42(hear(stt, client.audio_of(done["response"]["id"]), 24000))
        await client.close()


async def test_generator_killed_mid_session_the_fallback_answers_and_the_session_goes_on(
        speech, stt, tts, vad_model, assistant):
    with generator_process() as (url, process), gateway(url, stt, tts, vad_model, assistant) as server:
        client = await connect(server)
        await ask(client, "turn off the bedroom fan")
        done = await client.wait_for("response.done", timeout=60)
        assert done["response"]["metadata"]["generator"] == "remote" and "fan" in transcript(done).lower()
        process.kill()
        process.wait(10)
        start = len(client.events)
        await client.stream_audio(speech.piper(MATH), 24000)
        done = await client.wait_for("response.done", start=start, timeout=60)
        assert done["response"]["status"] == "completed"
        metadata = done["response"]["metadata"]
        assert metadata["generator"] == "embedded" and metadata["generator_fallback"]
        heard = client.of_type("conversation.item.input_audio_transcription.completed")[-1]["transcript"]
        assert says_42(transcript(done)), (heard, transcript(done))
        assert says_42(hear(stt, client.audio_of(done["response"]["id"]), 24000))
        start = len(client.events)
        await ask(client, "turn on the kitchen light")                  # and the session goes on
        done = await client.wait_for("response.done", start=start, timeout=60)
        assert done["response"]["status"] == "completed" and "kitchen" in transcript(done).lower()
        async with aiohttp.ClientSession() as http:
            async with http.get(f"{server.url}/metrics") as response:
                metrics = await response.text()
            async with http.get(f"{server.url}/healthz") as response:
                health = await response.json()
        assert re.search(r'parley_generator_replies_total\{fallback="true",generator="embedded"\} 2\.0', metrics)
        assert re.search(r'parley_generator_replies_total\{fallback="false",generator="remote"\} 1\.0', metrics)
        assert "parley_generator_remote_up 0.0" in metrics
        assert health["status"] == "ok" and health["remote_generator"] == "down"
        await client.close()
