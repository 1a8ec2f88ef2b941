"""Property-based fuzzing of every protocol state machine (issue 11): arbitrary and mutated input never
raises anything but the protocol's own error path (an `error` event, a StreamError, BadEvent, Invalid).

A few hundred cases per machine per run (well under a minute in all); PARLEY_FUZZ=long runs 20x more:

    PARLEY_FUZZ=long .venv/bin/python -m pytest tests/test_protocol_fuzz.py
"""
import asyncio
import base64
import copy
import json
import os
import struct

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from streaming import events as ev
from streaming.session import Session, SessionConfig
from streaming.transports import realtime
from streaming.transports.mqtt import home as mqtt_home
from streaming.transports.mqtt import satellite
from streaming.transports.phone.audiosocket import AUDIO, DTMF, ERROR, HANGUP, UUID, AudioSocketCall, encode_frame
from streaming.transports.phone.calls import (CallEnded, CallerAudio, CallerDigit, CallStarted, MarkPlayed,
                                              StreamError)
from streaming.transports.phone.twilio import MediaStream
from streaming.transports.wyoming import AudioIn, BadEvent, read_event

LONG = os.environ.get("PARLEY_FUZZ") == "long"


def examples(n: int):
    """n cases (20 n with PARLEY_FUZZ=long); the CI run is derandomised so it finds the same cases each time."""
    return settings(max_examples=n * (20 if LONG else 1), deadline=None, derandomize=not LONG, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])


# ---- strategies ---------------------------------------------------------------------------------------------

scalars = (st.none() | st.booleans() | st.integers(min_value=-2**70, max_value=2**70) | st.floats()
           | st.text(max_size=40) | st.sampled_from(["", "audio", "text", "user", "semantic_vad", "audio/pcm"]))
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=12), inner, max_size=4), max_leaves=12)


def _slots(value, slots):
    """(container, key) for every value nested in a JSON document."""
    if isinstance(value, dict):
        for key in list(value):
            slots.append((value, key))
            _slots(value[key], slots)
    elif isinstance(value, list):
        for index in range(len(value)):
            slots.append((value, index))
            _slots(value[index], slots)
    return slots


@st.composite
def mutated(draw, seeds: list):
    """A valid message with one to three of its values replaced by arbitrary JSON, or deleted."""
    message = copy.deepcopy(draw(st.sampled_from(seeds)))
    for _ in range(draw(st.integers(1, 3))):
        slots = _slots(message, [])
        if not slots:
            break
        container, key = draw(st.sampled_from(slots))
        if draw(st.booleans()) or isinstance(container, list):
            container[key] = draw(json_values)
        else:
            del container[key]
    return message


def wire(messages) -> st.SearchStrategy:
    """JSON text of mutated messages, arbitrary JSON, or arbitrary text."""
    return (mutated(messages).map(lambda m: json.dumps(m, allow_nan=True))
            | json_values.map(lambda v: json.dumps(v, allow_nan=True)) | st.text(max_size=200))


# ---- Realtime ---------------------------------------------------------------------------------------------

PCM = base64.b64encode(b"\x00\x01" * 80).decode()
REALTIME = [
    {"type": "session.update", "session": {"type": "realtime", "instructions": "Be brief.", "output_modalities": ["text"],
                                           "tools": [{"type": "function", "name": "f", "parameters": {"type": "object"}}],
                                           "tool_choice": "auto",
                                           "audio": {"input": {"format": {"type": "audio/pcm", "rate": 24000},
                                                               "turn_detection": {"type": "semantic_vad", "eagerness": "low"}},
                                                     "output": {"format": {"type": "audio/pcmu"}, "voice": "alloy"}}}},
    {"type": "session.update", "session": {"input_audio_format": "g711_ulaw", "modalities": ["text", "audio"],
                                           "turn_detection": {"type": "server_vad", "threshold": 0.5,
                                                              "silence_duration_ms": 300}}},
    {"type": "input_audio_buffer.append", "audio": PCM},
    {"type": "input_audio_buffer.commit"}, {"type": "input_audio_buffer.clear"},
    {"type": "conversation.item.create", "event_id": "e1", "previous_item_id": None,
     "item": {"id": "item_1", "type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]}},
    {"type": "conversation.item.create", "item": {"type": "function_call_output", "call_id": "c1", "output": "{}"}},
    {"type": "conversation.item.create", "item": {"type": "function_call", "call_id": "c1", "name": "f",
                                                  "arguments": "{}"}},
    {"type": "conversation.item.delete", "item_id": "item_1"},
    {"type": "conversation.item.retrieve", "item_id": "item_1"},
    {"type": "conversation.item.truncate", "item_id": "item_1", "content_index": 0, "audio_end_ms": 500},
    {"type": "response.create", "response": {"instructions": "x", "output_modalities": ["audio"],
                                             "metadata": {"k": "v"}, "conversation": "auto"}},
    {"type": "response.cancel"}, {"type": "output_audio_buffer.clear"},
]


def _protocol():
    return realtime.RealtimeProtocol(session_id="sess_fuzz", model="parley-home", defaults=SessionConfig(),
                                     max_message_bytes=64 * 1024)


def _no_crash(protocol) -> list[dict]:
    sent = [json.loads(frame) for frame in protocol.data_to_send()]
    crashes = [e for e in sent if e["type"] == "error" and e["error"]["code"] == "server_error"]
    assert not crashes, crashes
    return sent


@examples(300)
@given(st.lists(wire(REALTIME), min_size=1, max_size=6))
def test_realtime_protocol_answers_any_frames_with_commands_or_errors(frames):
    protocol = _protocol()
    protocol.start()
    for frame in frames:
        commands = protocol.receive(frame)
        assert all(isinstance(c, realtime.Command.__args__) for c in commands)
        _no_crash(protocol)


@pytest.fixture(scope="module")
def loop_and_engines(engines):
    """One event loop and engines without an assistant (responses are refused fast) for the session fuzz."""
    from streaming.engines import Engines

    loop = asyncio.new_event_loop()
    yield loop, Engines(stt=engines.stt, tts=engines.tts, vad_model=engines.vad_model, generator=None)
    loop.close()


@examples(60)
@given(frames=st.lists(wire(REALTIME), min_size=1, max_size=6))
def test_realtime_commands_applied_to_a_session_never_crash_it(loop_and_engines, frames):
    loop, engines = loop_and_engines

    async def run():
        protocol = _protocol()
        session = Session(engines, SessionConfig(turn_detection=None))
        await session.start()
        protocol.start()
        events = []

        async def pump():
            async for event in session.events():
                protocol.handle(event)
                events.append(event)
        reader = asyncio.create_task(pump())
        for frame in frames:
            for command in protocol.receive(frame):
                realtime.apply(session, command)
            await asyncio.sleep(0)
        await asyncio.sleep(0.01)
        await session.close()
        await reader
        _no_crash(protocol)
        assert not [e for e in events if isinstance(e, ev.Error) and e.code == "server_error"]
    loop.run_until_complete(run())


# ---- Twilio Media Streams -------------------------------------------------------------------------------------

TWILIO = [
    {"event": "connected", "protocol": "Call", "version": "1.0.0"},
    {"event": "start", "sequenceNumber": "1", "streamSid": "MZ1",
     "start": {"streamSid": "MZ1", "callSid": "CA1", "tracks": ["inbound"], "customParameters": {"From": "+1"},
               "mediaFormat": {"encoding": "audio/x-mulaw", "sampleRate": 8000, "channels": 1}}},
    {"event": "media", "streamSid": "MZ1", "media": {"track": "inbound", "chunk": "1", "timestamp": "20",
                                                     "payload": base64.b64encode(b"\xff" * 160).decode()}},
    {"event": "dtmf", "streamSid": "MZ1", "dtmf": {"track": "inbound_track", "digit": "5"}},
    {"event": "mark", "streamSid": "MZ1", "mark": {"name": "resp_1:item_1"}},
    {"event": "stop", "streamSid": "MZ1", "stop": {"callSid": "CA1"}},
]
CALL_EVENTS = (CallStarted, CallerAudio, CallerDigit, MarkPlayed, CallEnded, StreamError)


@examples(300)
@given(st.lists(wire(TWILIO), min_size=1, max_size=8), st.booleans())
def test_twilio_stream_answers_any_frames_with_call_events_or_one_error(frames, with_key):
    stream = MediaStream(authorize=(lambda key: key == "k") if with_key else None)
    start = json.dumps(TWILIO[1])
    for frame in [start, *frames]:
        failed = stream.state == "failed"
        events = stream.receive(frame)
        assert all(isinstance(e, CALL_EVENTS) for e in events)
        if failed:
            assert events == []
        if any(isinstance(e, StreamError) for e in events):
            assert len(events) == 1 and stream.state == "failed"
    if stream.state == "streaming":                    # the outbound side takes reply audio as well
        stream.play(b"\x00\x01" * 170)
        stream.mark("m")
        while stream.pop_outbound() is not None:
            pass


# ---- AudioSocket ----------------------------------------------------------------------------------------------

AUDIOSOCKET = [encode_frame(UUID, bytes(range(16))), encode_frame(AUDIO, b"\x00\x01" * 160),
               encode_frame(0x12, b"\x00\x01" * 320), encode_frame(DTMF, b"7"), encode_frame(ERROR, b"\x01"),
               encode_frame(HANGUP)]


@st.composite
def audiosocket_bytes(draw):
    """Valid frames, some with a flipped byte, a changed length or type, split at arbitrary points."""
    frames = draw(st.lists(st.sampled_from(AUDIOSOCKET), min_size=1, max_size=6))
    data = bytearray(b"".join(frames))
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(data) - 1))
        data[at] = draw(st.integers(0, 255))
    if draw(st.booleans()):
        data += draw(st.binary(max_size=64))
    cuts = sorted(draw(st.lists(st.integers(0, len(data)), max_size=4)))
    return [bytes(data[a:b]) for a, b in zip([0, *cuts], [*cuts, len(data)])]


@examples(300)
@given(audiosocket_bytes() | st.lists(st.binary(max_size=100), min_size=1, max_size=4), st.booleans())
def test_audiosocket_call_answers_any_bytes_with_call_events_or_one_error(chunks, end_of_stream):
    call = AudioSocketCall()
    for chunk in chunks:
        failed = call.state in ("ended", "failed")
        events = call.receive(chunk)
        assert all(isinstance(e, CALL_EVENTS) for e in events)
        assert not failed or events == []
        if any(isinstance(e, StreamError) for e in events):
            assert len(events) == 1 and call.state == "failed"
        if call.state == "streaming":
            call.play(b"\x00\x01" * 100)
            call.pop_outbound()
    if end_of_stream:
        assert all(isinstance(e, CALL_EVENTS) for e in call.eof())


# ---- Wyoming ---------------------------------------------------------------------------------------------

WYOMING = [
    {"type": "describe"}, {"type": "transcribe", "data": {"language": "en"}},
    {"type": "audio-start", "data": {"rate": 16000, "width": 2, "channels": 1}},
    {"type": "audio-chunk", "data": {"rate": 16000, "width": 2, "channels": 1}, "payload_length": 4},
    {"type": "audio-stop"}, {"type": "synthesize", "data": {"text": "Hello."}},
    {"type": "transcript", "data": {"text": "turn on the light"}},
]


@st.composite
def wyoming_bytes(draw):
    header = draw(mutated(WYOMING) | json_values)
    line = json.dumps(header, allow_nan=True).encode()
    if draw(st.booleans()):
        line = line[:draw(st.integers(0, len(line)))]
    return line + b"\n" + draw(st.binary(max_size=32))


@examples(300)
@given(wyoming_bytes() | st.binary(max_size=300))
def test_wyoming_reader_returns_events_or_bad_event(data):
    async def read_all():
        reader = asyncio.StreamReader(limit=64 * 1024)
        reader.feed_data(data)
        reader.feed_eof()
        for _ in range(20):
            try:
                event = await read_event(reader)
            except BadEvent:
                return
            if event is None:
                return
            assert isinstance(event.type, str) and isinstance(event.data, dict)
    asyncio.run(read_all())


@examples(300)
@given(json_values, json_values, json_values, st.binary(max_size=64))
def test_wyoming_audio_takes_any_chunk_fields_or_says_why_not(rate, width, channels, audio):
    from wyoming.audio import AudioChunk

    try:
        stream = AudioIn(rate)
    except ValueError:
        return
    problem = stream.add(AudioChunk(rate=rate, width=width, channels=channels, audio=audio))
    assert problem is None or isinstance(problem, str)


# ---- MQTT decoders ---------------------------------------------------------------------------------------

SATELLITE_REQUESTS = (satellite.Audio, satellite.StartTurn, satellite.StopTurn, satellite.Cancel, satellite.Text,
                      satellite.Presence, satellite.Invalid, type(None))


@examples(300)
@given(st.text(max_size=60) | st.sampled_from(["parley/kitchen/control", "parley/server/status", "parley//x"]),
       st.sampled_from(satellite.CHANNELS),
       st.binary(max_size=200) | json_values.map(lambda v: json.dumps(v, allow_nan=True).encode()))
def test_mqtt_satellite_decoder_turns_any_message_into_a_request(topic, channel, payload):
    parsed = satellite.parse_topic(topic)
    assert parsed is None or (isinstance(parsed, tuple) and parsed[1] in satellite.CHANNELS)
    assert isinstance(satellite.decode(channel, payload), SATELLITE_REQUESTS)


@examples(300)
@given(st.binary(max_size=200) | json_values.map(lambda v: json.dumps(v, allow_nan=True).encode())
       | st.integers(1000, 5000).map(lambda n: b"[" * n + b"]" * n))
def test_mqtt_home_state_parsers_read_any_payload(payload):
    assert mqtt_home.parse_state(payload) is None or isinstance(mqtt_home.parse_state(payload), dict)
    assert mqtt_home.parse_number(payload) is None or isinstance(mqtt_home.parse_number(payload), float)
    assert mqtt_home.on_off(payload) in (None, "on", "off")
    assert mqtt_home.brightness_percent(payload) is None or isinstance(mqtt_home.brightness_percent(payload), int)
    assert mqtt_home.thermostat_degrees(payload) is None or isinstance(mqtt_home.thermostat_degrees(payload), float)


# ---- the generator server's requests and the gateway's stream of a remote generator ---------------------

CHAT_REQUESTS = [
    {"model": "parley-home", "messages": [{"role": "system", "content": "Be brief."},
                                          {"role": "user", "content": "turn on the kitchen light"}],
     "tools": [{"type": "function", "function": {"name": "set_device", "parameters": {"type": "object"}}}],
     "tool_choice": "auto", "stream": True, "stream_options": {"include_usage": True}, "max_tokens": 64,
     "temperature": 0.5, "seed": 7, "n": 1, "parley": {"home": {"names": ["arc lamp"], "areas": ["snug"]}}},
    {"messages": [{"role": "user", "content": [{"type": "text", "text": "what is 7 times 6"}]},
                  {"role": "assistant", "content": None, "tool_calls": [
                      {"id": "c1", "type": "function", "function": {"name": "calculate",
                                                                    "arguments": "{\"expression\": \"7*6\"}"}}]},
                  {"role": "tool", "tool_call_id": "c1", "content": "42"}],
     "tool_choice": {"type": "function", "function": {"name": "calculate"}},
     "tools": [{"type": "function", "function": {"name": "calculate"}}]},
]
# the shared values, and text no UTF-8 can carry (a lone surrogate)
chat_values = st.recursive(scalars | st.sampled_from(["\ud800", "a\udfffb"]),
                           lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=12), inner, max_size=4), max_leaves=12)


@st.composite
def chat_bodies(draw):
    """A mutated request (its values may be any JSON, a lone surrogate among them), any JSON, deep JSON or bytes."""
    kind = draw(st.integers(0, 3))
    if kind == 0:
        message = copy.deepcopy(draw(st.sampled_from(CHAT_REQUESTS)))
        for _ in range(draw(st.integers(1, 3))):
            container, key = draw(st.sampled_from(_slots(message, [])))
            container[key] = draw(chat_values)
        return json.dumps(message, allow_nan=True).encode()
    if kind == 1:
        return json.dumps(draw(chat_values), allow_nan=True).encode()
    if kind == 2:
        depth = draw(st.integers(900, 3000))
        return b'{"messages": ' + b"[" * depth + b"]" * depth + b"}"
    return draw(st.binary(max_size=200))


@pytest.fixture(scope="module")
def served_generator():
    from assistant.embedded import EmbeddedGenerator
    from assistant.generator_server import GeneratorConfig, GeneratorService

    service = GeneratorService(EmbeddedGenerator.load(), GeneratorConfig(port=0), "parley-home")
    yield service
    service.close()


@examples(300)
@given(body=chat_bodies())
def test_generator_server_requests_are_prepared_or_refused_with_a_4xx(served_generator, body):
    from assistant.generator_server import _prepare
    from assistant.openai_chat import ApiError

    try:
        chat, _, question, readings = _prepare(body, served_generator.generator, served_generator.window_chars)
    except ApiError as error:
        assert 400 <= error.status < 500 and error.body()["error"]["message"]
        return
    # a follow-up singling out nothing is asked about with no prompt; else the whole request's prompt, then a
    # clause's for each second reading: every one fits the window
    assert chat.messages and (question if not readings else question is None)
    assert all(len(prompt) <= served_generator.generator.max_prompt for prompt, _ in readings)


STREAM_CHUNKS = [
    {"choices": [{"index": 0, "delta": {"role": "assistant", "content": "Hello"}}]},
    {"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "c1", "type": "function", "function": {
        "name": "calculate", "arguments": "{\"expression\": "}}]}}]},
    {"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": "\"7*6\"}"}}]}}]},
    {"choices": [{"index": 0, "delta": {"parley": {"reply": "It is {result}."}}, "finish_reason": "tool_calls"}],
     "usage": {"prompt_tokens": 5, "completion_tokens": 3}},
    {"choices": [{"index": 0, "delta": {"content": "draft"}, "diffusing": True}]},
    {"error": {"message": "overloaded"}},
]


@st.composite
def sse_reads(draw):
    """A stream's bytes (mutated chunks framed as SSE with any line ends, comments, [DONE], or any bytes), cut
    into reads anywhere."""
    parts = []
    for _ in range(draw(st.integers(0, 6))):
        frame = draw(mutated(STREAM_CHUNKS).map(lambda m: "data: " + json.dumps(m, allow_nan=True))
                     | st.sampled_from(["data: [DONE]", ": keep-alive", "event: error", "data:", "retry: 5"])
                     | st.text(max_size=40))
        ends = draw(st.sampled_from(["\n", "\r", "\r\n", "\n\n", "\r\r", "\r\n\r\n", ""]))
        parts.append((frame + ends).encode("utf-8", "surrogateescape"))
    data = b"".join(parts) + draw(st.binary(max_size=40) | st.sampled_from([b"\n" * 3000, b"\r" * 3000]))
    cuts = sorted(draw(st.lists(st.integers(0, len(data)), max_size=5)))
    return [data[a:b] for a, b in zip([0] + cuts, cuts + [len(data)])]


@examples(300)
@given(sse_reads())
def test_remote_stream_parser_turns_any_bytes_into_reply_pieces_or_a_stream_error(reads):
    from assistant.chat_completions import ChatCompletionStream, StreamError, StreamEvent

    parser = ChatCompletionStream(max_event_bytes=4096, max_stream_bytes=16 * 1024)
    try:
        for data in reads:
            assert all(isinstance(event, StreamEvent.__args__) for event in parser.receive_data(data))
        parser.receive_eof()
    except StreamError:
        return
    assert parser.done


@examples(100)
@given(st.lists(wire(REALTIME), min_size=1, max_size=6))
def test_realtime_protocol_over_webrtc_answers_any_frames_with_commands_or_errors(frames):
    from streaming.transports.webrtc import RATE

    protocol = realtime.RealtimeProtocol(session_id="sess_fuzz", model="parley-home",
                                         defaults=SessionConfig(input_rate=RATE, output_rate=RATE), media_rate=RATE)
    protocol.start()
    for frame in frames:
        commands = protocol.receive(frame)
        assert all(isinstance(c, realtime.Command.__args__) for c in commands)
        assert all(c.config.input_rate == c.config.output_rate == RATE for c in commands
                   if isinstance(c, realtime.Configure))
        _no_crash(protocol)


@examples(300)
@given(body=json_values | st.fixed_dictionaries({"session": json_values, "transport": st.fixed_dictionaries(
    {"type": st.sampled_from(["webrtc", "websocket"]), "sdp": st.text(max_size=60) | json_values})}),
    sdp=st.text(max_size=200) | st.just("v=0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\n"), session=st.text(max_size=60))
def test_webrtc_offer_readers_take_any_body_or_say_why_not(body, sdp, session):
    from streaming.transports.webrtc import OfferError, check_sdp, live_offer, session_field

    for read, value in ((live_offer, body), (check_sdp, sdp), (session_field, session)):
        try:
            read(value)
        except OfferError as error:
            assert error.code and error.message
