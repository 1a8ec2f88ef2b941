"""Hostile input against the protocol machines and the session, without sockets (issue 11, findings F3-F11).

Each test is a finding's regression test: it failed on the code the finding was reported against.
"""
import asyncio
import json
import time

import pytest

from assistant.chat_template import model_prompt
from assistant.spoken_numbers import normalize_request
from assistant.tools import NOT_CALCULABLE, NOT_POSSIBLE, ToolRunner
from streaming.events import AudioDelta, Error, ItemAdded, ItemDeleted, ResponseDone
from streaming.logsafe import printable
from streaming.session import Session, SessionConfig, SessionLimits
from streaming.transports import realtime
from streaming.transports.phone.calls import CallStarted, StreamError
from streaming.transports.phone.twilio import MediaStream
from streaming.transports.wyoming import BadEvent, read_event

HUGE = "9" * 309          # float("9" * 309) is inf


@pytest.fixture
def protocol():
    p = realtime.RealtimeProtocol(session_id="sess_1", model="parley-home", defaults=SessionConfig())
    p.start()
    p.data_to_send()
    return p


def errors(p) -> list[dict]:
    return [e["error"] for e in map(json.loads, p.data_to_send()) if e["type"] == "error"]


# ---- F11: one input must not poison a conversation ----------------------------------------------------

def test_f11_a_309_digit_number_is_normalised_and_prompted():
    for text in (f"set a timer for {HUGE} minutes", f"{HUGE} dozen eggs", f"{HUGE} and a half"):
        assert HUGE in normalize_request(text)
    prompt, slots = model_prompt([{"role": "user", "content": f"set a timer for {HUGE} minutes"},
                                    {"role": "assistant", "content": "Okay."},
                                    {"role": "user", "content": "what time is it"}])
    assert HUGE in slots.numbers and prompt.endswith("<|assistant|>")


async def test_f11_overflowing_numbers_get_the_tools_refusal():
    tools = ToolRunner()
    assert await tools.run("set_timer", {"seconds": float(HUGE)}) == NOT_POSSIBLE
    assert await tools.run("set_brightness", {"room": "kitchen", "percent": float(HUGE)}) == \
        NOT_POSSIBLE
    assert await tools.run("calculate", {"expression": f"{HUGE} * 10"}) == NOT_CALCULABLE
    assert await tools.run("convert", {"value": 1e308, "from": "mile", "to": "kilometer"}) == \
        NOT_POSSIBLE
    assert tools.timers_running == 0


def test_f11_an_integral_float_rate_is_normalised(protocol):
    [command] = protocol.receive(json.dumps({"type": "session.update", "session": {"audio": {
        "input": {"format": {"type": "audio/pcm", "rate": 48000.0}}}}}))
    assert command.config.input_rate == 48000 and type(command.config.input_rate) is int
    protocol.receive(json.dumps({"type": "session.update", "session": {"audio": {
        "output": {"format": {"type": "audio/pcm", "rate": 24000.5}}}}}))
    assert [e["code"] for e in errors(protocol)] == ["invalid_value"]


# ---- F9: clear errors, never an exception ---------------------------------------------------------------

@pytest.mark.parametrize("frame, code", [
    ('{"type": "response.create", "response": ' + "[" * 50_000 + "]" * 50_000 + "}", "invalid_json"),
    ('{"type": "conversation.item.truncate", "item_id": "x", "audio_end_ms": ' + "7" * 5000 + "}", "invalid_json"),
    (json.dumps({"type": "response.create", "response": {"output_modalities": 5}}), "invalid_value"),
    (json.dumps({"type": "response.create", "response": {"metadata": {"a": {"b": 1}}}}), "invalid_value"),
    (json.dumps({"type": "session.update", "session": {"audio": {"input": {
        "turn_detection": {"type": "semantic_vad", "eagerness": []}}}}}), "invalid_value"),
])
def test_f9_realtime_errors_instead_of_exceptions(protocol, frame, code):
    assert protocol.receive(frame) == []
    [error] = errors(protocol)
    assert error["code"] == code


def test_f9_twilio_deep_nesting_is_a_protocol_error():
    stream = MediaStream()
    [error] = stream.receive('{"event": "start", "start": ' + "[" * 100_000 + "]" * 100_000 + "}")
    assert isinstance(error, StreamError) and "nested" in error.message


def test_f9_twilio_custom_parameters_must_be_strings():
    start = {"event": "start", "streamSid": "MZ1", "start": {
        "streamSid": "MZ1", "callSid": "CA1", "customParameters": {"greeting": [[["hi"]]]},
        "mediaFormat": {"encoding": "audio/x-mulaw", "sampleRate": 8000, "channels": 1}}}
    [error] = MediaStream().receive(json.dumps(start))
    assert isinstance(error, StreamError)
    start["start"]["customParameters"] = {"greeting": "Hi."}
    assert MediaStream().receive(json.dumps(start)) == [CallStarted("CA1", {"greeting": "Hi."})]


@pytest.mark.parametrize("wire", [
    b'{"type": "transcript", "data": ' + b"[" * 100_000 + b"]" * 100_000 + b"}\n",
    b'{"type": "transcript", "data_length": ' + b"7" * 5000 + b"}\n",
])
async def test_f9_wyoming_deep_nesting_is_a_bad_event(wire):
    reader = asyncio.StreamReader(limit=1 << 20)
    reader.feed_data(wire)
    reader.feed_eof()
    with pytest.raises(BadEvent):
        await read_event(reader)


# ---- F10: what is logged is escaped ------------------------------------------------------------------

def test_f10_printable_escapes_line_breaks_and_control_characters():
    forged = "CA1\n2026-01-01 INFO parley: admin logged in\r\x1b[2J\u2028"
    text = printable(forged)
    assert "\n" not in text and "\r" not in text and "\x1b" not in text and "\u2028" not in text
    assert text.startswith("CA1\\n") and len(printable("x" * 10_000)) < 300


# ---- F3 / F8: text caps ----------------------------------------------------------------------------------

def test_f3_item_text_and_instructions_are_capped(protocol):
    big = "turn on the light " * 1000
    protocol.receive(json.dumps({"type": "conversation.item.create", "event_id": "ev1", "item": {
        "type": "message", "role": "user", "content": [{"type": "input_text", "text": big}]}}))
    protocol.receive(json.dumps({"type": "session.update", "session": {"instructions": big}}))
    protocol.receive(json.dumps({"type": "response.create", "response": {"instructions": big}}))
    assert [e["code"] for e in errors(protocol)] == ["text_too_long"] * 3


def test_ids_and_names_a_conversation_stores_are_capped(protocol):
    """Round 36: at 07e6cce an item's id, call_id and name (and a tool's name, which the model's calls carry) had
    no bound below the 4 MiB message; 100 items with 3 MB of them each took 190 s of the store's one thread to save
    after each (every other session's saves and resumes queued behind), 1.2 GB, and 3.6 s each save after."""
    long = "x" * (realtime.MAX_ID_CHARS + 1)
    call = {"type": "function_call", "call_id": "call_1", "name": "lamp", "arguments": "{}"}
    for item in ({"id": long, **call}, {**call, "call_id": long}, {**call, "name": long},
                 {"type": "function_call_output", "call_id": long, "output": "done"}):
        protocol.receive(json.dumps({"type": "conversation.item.create", "item": item}))
    protocol.receive(json.dumps({"type": "session.update", "session": {"tools": [{"type": "function", "name": long}]}}))
    assert [(e["code"], e["param"]) for e in errors(protocol)] == [
        ("invalid_value", "item.id"), ("invalid_value", "item.call_id"), ("invalid_value", "item.name"),
        ("invalid_value", "item.call_id"), ("invalid_value", "session.tools[0].name")]
    short = "x" * realtime.MAX_ID_CHARS
    protocol.receive(json.dumps({"type": "conversation.item.create", "item": {**call, "id": short, "call_id": short,
                                                                                 "name": short}}))
    assert errors(protocol) == []


# ---- F5: bounded memory ----------------------------------------------------------------------------------

def test_f5_rejected_response_requests_are_not_kept(protocol):
    for n in range(1000):
        protocol.receive(json.dumps({"type": "response.create", "response": {"metadata": {"n": str(n)}}}))
    assert len(protocol._requested) <= realtime.MAX_PENDING_RESPONSES


class Recorder:
    def __init__(self, session):
        self.events = []
        self.task = asyncio.create_task(self._run(session))

    async def _run(self, session):
        async for event in session.events():
            self.events.append(event)

    def of(self, kind):
        return [e for e in self.events if isinstance(e, kind)]


async def test_f5_history_is_a_window_and_clients_hear_of_what_left(engines):
    session = Session(engines, SessionConfig(turn_detection=None),
                      limits=SessionLimits(max_history_items=10, max_text_chars=100))
    await session.start()
    recorder = Recorder(session)
    first = [session.add_message("user", f"message {n}") for n in range(25)]
    assert session.add_message("user", "x" * 101) is None
    await asyncio.sleep(0.05)
    assert [item.id for item in session.items] == first[-10:]
    assert [e.item_id for e in recorder.of(ItemDeleted)] == first[:15]
    assert [e.code for e in recorder.of(Error)] == ["text_too_long"]
    await session.close()


# ---- F8: synthesis follows playback ------------------------------------------------------------------

class CountingTTS:
    """The real Piper voice, counting the clauses it was asked to synthesise."""

    def __init__(self, tts):
        self.tts, self.sample_rate, self.clauses = tts, tts.sample_rate, 0

    def synthesize(self, text):
        self.clauses += 1
        return self.tts.synthesize(text)


async def test_f8_a_long_greeting_is_synthesised_as_it_is_played(engines):
    from streaming.engines import Engines

    counting = CountingTTS(engines.tts)
    paced = Engines(stt=engines.stt, tts=counting, vad_model=engines.vad_model, generator=None)
    greeting = " ".join(f"This is sentence number {n} of a very long greeting." for n in range(40))
    session = Session(paced, SessionConfig(turn_detection=None, greeting=greeting))
    recorder = Recorder(session)
    await session.start()
    deadline = time.monotonic() + 60
    while not recorder.of(AudioDelta) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    await asyncio.sleep(1.0)               # about a second of the greeting has been played
    assert recorder.of(AudioDelta) and counting.clauses <= 4, counting.clauses
    await session.close()
    assert recorder.of(ResponseDone)[-1].status == "cancelled"
