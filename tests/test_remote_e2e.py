"""End to end over /v1/realtime with `--generator`: the gateway's generator is a chat-completions server in
another process (tests/chat_peer.py, speaking Parley's one-pass contract), every other model real."""
import contextlib
import os
import re
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest

from realtime_client import RealtimeClient
from test_realtime_e2e import MATH, ask, connect, hear, says_42

pytestmark = pytest.mark.usefixtures("needs_assistant")

PEER = Path(__file__).parent / "chat_peer.py"
WEATHER = {"type": "function", "name": "get_weather", "description": "The weather in a city",
           "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}


@contextlib.contextmanager
def generator_process(dialect: str = "parley"):
    """The peer in its own process; yields (url, process)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(PEER.parent), os.environ.get("PYTHONPATH")]))}
    process = subprocess.Popen([sys.executable, str(PEER), "--dialect", dialect], stdout=subprocess.PIPE, env=env,
                               text=True)
    try:
        line = process.stdout.readline()
        assert line.startswith("port "), line
        yield f"http://127.0.0.1:{int(line.split()[1])}", process
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
        assert transcript(done) == "Seven times six is 42."            # the peer's one-pass words, slot filled here
        calls = [e["item"] for e in client.of_type("conversation.item.added") if e["item"]["type"] == "function_call"]
        assert [c["name"] for c in calls] == ["calculate"]
        assert says_42(hear(stt, client.audio_of(done["response"]["id"]), 24000))
        await client.close()


async def test_client_declared_tool_through_the_remote_generator(stt, tts, vad_model, assistant):
    with generator_process() as (url, _), gateway(url, stt, tts, vad_model, assistant) as server:
        client = await connect(server)
        await client.send({"type": "session.update", "session": {"type": "realtime", "tools": [WEATHER]}})
        await client.wait_for("session.updated")
        await ask(client, "what's the weather in Paris")
        call = await client.wait_for("response.function_call_arguments.done", timeout=60)
        first = await client.wait_for("response.done")
        assert call["name"] == "get_weather" and call["arguments"] == '{"city": "Paris"}'
        assert first["response"]["metadata"]["generator"] == "remote"
        await client.send({"type": "conversation.item.create", "item": {
            "type": "function_call_output", "call_id": call["call_id"], "output": "sunny and 24 degrees"}})
        start = len(client.events)
        await client.send({"type": "response.create"})
        done = await client.wait_for("response.done", start=start, timeout=60)
        assert transcript(done) == "Done: sunny and 24 degrees."        # the remote read the client's output
        assert "sunny" in hear(stt, client.audio_of(done["response"]["id"]), 24000).lower()
        await client.close()


async def test_generator_killed_mid_session_the_fallback_answers_and_the_session_goes_on(
        speech, stt, tts, vad_model, assistant):
    with generator_process() as (url, process), gateway(url, stt, tts, vad_model, assistant) as server:
        client = await connect(server)
        await ask(client, "hello there")
        done = await client.wait_for("response.done", timeout=60)
        assert transcript(done) == "Hello from the remote generator."
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
