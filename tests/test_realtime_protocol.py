"""The Realtime protocol state machine on its own: JSON in -> commands, Session events -> JSON out. No sockets."""
import base64
import json

import numpy as np
import pytest

from streaming.transports import realtime
from streaming.events import (AudioCommitted, AudioDelta, AudioDone, Error, ItemAdded, ResponseCreated, ResponseDone,
                              SpeechStarted, SpeechStopped, TextDelta, TextDone, ToolCallExecuted, ToolCallRequested,
                              TranscriptCompleted, TranscriptDelta)
from streaming.session import SessionConfig
from voice.audio import alaw_encode, float_to_pcm16, mulaw_encode, pcm16_to_float


@pytest.fixture
def protocol():
    p = realtime.RealtimeProtocol(session_id="sess_1", model="parley-home", defaults=SessionConfig(),
                                  max_message_bytes=64 * 1024)
    p.start()
    return p


def sent(p):
    return [json.loads(frame) for frame in p.data_to_send()]


def receive(p, event):
    return p.receive(json.dumps(event))


def test_session_created_has_ga_shape(protocol):
    [created] = sent(protocol)
    assert created["type"] == "session.created"
    session = created["session"]
    assert session["type"] == "realtime" and session["id"] == "sess_1" and session["model"] == "parley-home"
    assert session["audio"]["input"]["format"] == {"type": "audio/pcm", "rate": 24000}
    assert session["audio"]["output"]["format"] == {"type": "audio/pcm", "rate": 24000}
    assert session["audio"]["input"]["turn_detection"]["type"] == "server_vad"
    assert session["audio"]["input"]["turn_detection"]["silence_duration_ms"] == 500


def test_session_update_configures_formats_turn_detection_and_tools(protocol):
    sent(protocol)
    commands = receive(protocol, {"type": "session.update", "event_id": "e1", "session": {
        "type": "realtime", "instructions": "Be brief.",
        "tools": [{"type": "function", "name": "lookup_order", "description": "x", "parameters": {"type": "object"}}],
        "audio": {"input": {"format": {"type": "audio/pcmu"},
                            "turn_detection": {"type": "server_vad", "threshold": 0.6, "silence_duration_ms": 300}},
                  "output": {"format": {"type": "audio/pcma"}, "voice": "alloy"}}}})
    [configure] = commands
    config = configure.config
    assert (config.input_rate, config.output_rate) == (8000, 8000)
    assert config.instructions == "Be brief." and set(config.client_tools) == {"lookup_order"}
    assert config.turn_detection.threshold == 0.6 and config.turn_detection.silence_duration_ms == 300
    [updated] = sent(protocol)
    assert updated["type"] == "session.updated"
    assert updated["session"]["audio"]["input"]["format"] == {"type": "audio/pcmu"}
    assert updated["session"]["tools"][0]["name"] == "lookup_order"


def test_turn_detection_off_and_semantic(protocol):
    [off] = receive(protocol, {"type": "session.update", "session": {"audio": {"input": {"turn_detection": None}}}})
    assert off.config.turn_detection is None
    [semantic] = receive(protocol, {"type": "session.update", "session": {
        "audio": {"input": {"turn_detection": {"type": "semantic_vad", "eagerness": "high"}}}}})
    assert semantic.config.turn_detection.type == "semantic_vad" and semantic.config.turn_detection.eagerness == "high"


@pytest.mark.parametrize("frame, code", [
    ("{not json", "invalid_json"),
    ("[1, 2]", "invalid_event"),
    ('{"event_id": "x"}', "missing_type"),
    ('{"type": "session.explode"}', "unknown_event"),
    ('{"type": "input_audio_buffer.append", "audio": "@@not base64@@"}', "invalid_base64"),
    ('{"type": "input_audio_buffer.append", "audio": "AAEC"}', "invalid_audio"),            # 3 bytes of PCM16
    ('{"type": "input_audio_buffer.append"}', "invalid_value"),
    ('{"type": "session.update", "session": {"audio": {"input": {"format": {"type": "audio/flac"}}}}}', "invalid_value"),
    ('{"type": "session.update", "session": {"audio": {"input": {"format": {"type": "audio/pcm", "rate": 11025}}}}}',
     "invalid_value"),
    ('{"type": "session.update", "session": {"audio": {"input": {"turn_detection": {"threshold": 7}}}}}',
     "invalid_value"),
    ('{"type": "conversation.item.create", "item": {"type": "message", "role": "robot", "content": []}}',
     "invalid_value"),
    ('{"type": "conversation.item.truncate", "item_id": "i", "audio_end_ms": -5}', "invalid_value"),
    ('{"type": "conversation.item.retrieve", "item_id": "nope"}', "item_not_found"),
])
def test_bad_client_events_become_errors_and_the_session_goes_on(protocol, frame, code):
    sent(protocol)
    before = protocol.session_object()
    assert protocol.receive(frame) == []
    [error] = sent(protocol)
    assert error["type"] == "error" and error["error"]["code"] == code and error["error"]["message"]
    assert protocol.session_object() == before                  # a rejected update changes nothing
    assert receive(protocol, {"type": "input_audio_buffer.commit"}) == [realtime.CommitAudio()]


def test_error_echoes_the_client_event_id(protocol):
    sent(protocol)
    protocol.receive('{"type": "nope", "event_id": "evt_42"}')
    [error] = sent(protocol)
    assert error["error"]["event_id"] == "evt_42" and error["error"]["param"] == "type"


def test_oversized_message_is_rejected_without_parsing(protocol):
    sent(protocol)
    big = json.dumps({"type": "input_audio_buffer.append", "audio": "A" * 100_000})
    assert protocol.receive(big) == []
    [error] = sent(protocol)
    assert error["error"]["code"] == "message_too_large"


def test_append_decodes_pcm16_and_g711(protocol):
    pcm = float_to_pcm16(np.sin(np.linspace(0, 50, 480)).astype(np.float32) * 0.3)
    [append] = receive(protocol, {"type": "input_audio_buffer.append", "audio": base64.b64encode(pcm).decode()})
    assert append.pcm16 == pcm
    receive(protocol, {"type": "session.update", "session": {"audio": {"input": {"format": {"type": "audio/pcmu"}}}}})
    ulaw = mulaw_encode(np.sin(np.linspace(0, 50, 160)).astype(np.float32) * 0.3)
    [append] = receive(protocol, {"type": "input_audio_buffer.append", "audio": base64.b64encode(ulaw).decode()})
    assert len(append.pcm16) == 2 * len(ulaw)


def test_items_and_responses_become_commands(protocol):
    [message] = receive(protocol, {"type": "conversation.item.create", "item": {
        "type": "message", "role": "user", "content": [{"type": "input_text", "text": "hello"}]}})
    assert isinstance(message, realtime.AddMessage) and message.role == "user" and message.text == "hello"
    [output] = receive(protocol, {"type": "conversation.item.create", "item": {
        "type": "function_call_output", "call_id": "call_1", "output": "{\"ok\": true}"}})
    assert output.call_id == "call_1" and output.output == "{\"ok\": true}"
    [create] = receive(protocol, {"type": "response.create", "response": {"output_modalities": ["text"],
                                                                        "metadata": {"topic": "math"}}})
    assert create.audio is False and create.response_id.startswith("resp_")
    assert receive(protocol, {"type": "response.cancel"}) == [realtime.CancelResponse()]
    [truncate] = receive(protocol, {"type": "conversation.item.truncate", "item_id": "item_9", "content_index": 0,
                                    "audio_end_ms": 1500})
    assert truncate == realtime.Truncate("item_9", 1500)


def test_input_events_map_to_ga_server_events(protocol):
    sent(protocol)
    protocol.handle(SpeechStarted(120, "item_a"))
    protocol.handle(TranscriptDelta("item_a", "what is"))
    protocol.handle(SpeechStopped(1800, "item_a"))
    protocol.handle(AudioCommitted("item_a", None))
    protocol.handle(TranscriptCompleted("item_a", "What is 7 times 6?"))
    events = sent(protocol)
    assert [e["type"] for e in events] == [
        "input_audio_buffer.speech_started", "conversation.item.input_audio_transcription.delta",
        "input_audio_buffer.speech_stopped", "input_audio_buffer.committed", "conversation.item.added",
        "conversation.item.input_audio_transcription.completed", "conversation.item.done"]
    assert events[0]["audio_start_ms"] == 120 and events[2]["audio_end_ms"] == 1800
    assert events[5]["transcript"] == "What is 7 times 6?"
    assert events[6]["item"]["content"][0]["transcript"] == "What is 7 times 6?"
    assert all(e["event_id"].startswith("event_") for e in events)


def test_a_spoken_response_maps_to_the_full_ga_event_sequence(protocol):
    [create] = receive(protocol, {"type": "response.create", "response": {"metadata": {"topic": "math"}}})
    sent(protocol)
    rid = create.response_id
    pcm = b"\x01\x00" * 2400
    protocol.handle(ResponseCreated(rid))
    protocol.handle(TextDelta(rid, "item_r", "It is 42."))
    protocol.handle(AudioDelta(rid, "item_r", pcm))
    protocol.handle(AudioDone(rid, "item_r"))
    protocol.handle(TextDone(rid, "item_r", "It is 42."))
    protocol.handle(ResponseDone(rid, "completed", {"voice_to_voice": 412.25}, "It is 42.", "item_r",
                                 input_tokens=30, output_tokens=12))
    events = sent(protocol)
    assert [e["type"] for e in events] == [
        "response.created", "response.output_item.added", "conversation.item.added", "response.content_part.added",
        "response.output_audio_transcript.delta", "response.output_audio.delta", "response.output_audio.done",
        "response.output_audio_transcript.done", "response.content_part.done", "response.output_item.done",
        "conversation.item.done", "response.done"]
    assert base64.b64decode(events[5]["delta"]) == pcm and events[5]["response_id"] == rid
    done = events[-1]["response"]
    assert done["status"] == "completed" and done["id"] == rid
    assert done["metadata"] == {"topic": "math", "voice_to_voice_ms": "412.2"}
    assert done["output"][0]["content"][0]["transcript"] == "It is 42."
    assert done["usage"]["total_tokens"] == 42 and done["usage"]["input_token_details"]["cached_tokens"] == 0
    assert events[0]["response"]["usage"] is None                    # as OpenAI: usage comes with response.done


@pytest.mark.parametrize("kind, encode", [("audio/pcmu", mulaw_encode), ("audio/pcma", alaw_encode)])
def test_g711_output_is_encoded(protocol, kind, encode):
    [configure] = receive(protocol, {"type": "session.update", "session": {"audio": {
        "input": {"format": {"type": kind}}, "output": {"format": {"type": kind}}}}})
    assert configure.config.output_rate == configure.config.input_rate == 8000
    sent(protocol)
    protocol.handle(ResponseCreated("resp_x"))
    pcm = float_to_pcm16(np.sin(np.linspace(0, 40, 160)).astype(np.float32) * 0.4)
    protocol.handle(AudioDelta("resp_x", "item_x", pcm))
    delta = next(e for e in sent(protocol) if e["type"] == "response.output_audio.delta")
    assert base64.b64decode(delta["delta"]) == encode(pcm16_to_float(pcm))


def test_client_tool_call_is_announced_for_the_client_to_run(protocol):
    protocol.handle(ResponseCreated("resp_t"))
    protocol.handle(ToolCallRequested("resp_t", "item_fc", "call_7", "lookup_order", '{"id": 12}', None))
    protocol.handle(ResponseDone("resp_t", "completed", {}, ""))
    events = sent(protocol)
    done_args = next(e for e in events if e["type"] == "response.function_call_arguments.done")
    assert (done_args["call_id"], done_args["name"], done_args["arguments"]) == ("call_7", "lookup_order", '{"id": 12}')
    [output] = events[-1]["response"]["output"]
    assert output["type"] == "function_call" and output["call_id"] == "call_7"


def test_local_tool_calls_are_items_not_response_output(protocol):
    protocol.handle(ResponseCreated("resp_l"))
    protocol.handle(ToolCallExecuted("resp_l", "call_1", "set_device", {"device": "light", "room": "kitchen",
                                                                          "state": "on"}, "The kitchen light is on.",
                                      "item_call", "item_out", None))
    protocol.handle(ResponseDone("resp_l", "completed", {}, ""))
    events = sent(protocol)
    items = [e["item"] for e in events if e["type"] == "conversation.item.added"]
    assert [i["type"] for i in items] == ["function_call", "function_call_output"]
    assert items[1]["output"] == "The kitchen light is on."
    assert not any(e["type"].startswith("response.function_call") for e in events)
    assert events[-1]["response"]["output"] == []


def test_cancelled_response_reports_status_and_reason(protocol):
    protocol.handle(ResponseCreated("resp_c"))
    protocol.handle(TextDelta("resp_c", "item_c", "Once upon a time there was"))
    protocol.handle(ResponseDone("resp_c", "cancelled", {}, "Once upon", "item_c", "turn_detected"))
    done = sent(protocol)[-1]["response"]
    assert done["status"] == "cancelled" and done["status_details"]["reason"] == "turn_detected"
    assert done["output"][0]["status"] == "incomplete" and done["output"][0]["content"][0]["transcript"] == "Once upon"


def test_session_errors_and_added_items(protocol):
    sent(protocol)
    protocol.handle(Error("input_audio_buffer_full", "too long"))
    protocol.handle(ItemAdded("item_u", None, "message", "user", "hello"))
    error, added, done = sent(protocol)
    assert error["error"]["code"] == "input_audio_buffer_full"
    assert added["item"]["content"] == [{"type": "input_text", "text": "hello"}] and done["type"] == "conversation.item.done"
    [retrieve] = [receive(protocol, {"type": "conversation.item.retrieve", "item_id": "item_u"})]
    assert retrieve == [] and sent(protocol)[0]["item"]["id"] == "item_u"


def test_beta_clients_get_beta_event_names(protocol):
    sent(protocol)
    [configure] = receive(protocol, {"type": "session.update", "session": {
        "modalities": ["audio", "text"], "input_audio_format": "g711_ulaw", "output_audio_format": "pcm16",
        "turn_detection": {"type": "server_vad"}}})
    assert configure.config.input_rate == 8000 and configure.config.output_rate == 24000
    updated = sent(protocol)[0]
    assert updated["session"]["input_audio_format"] == "g711_ulaw"
    protocol.handle(ResponseCreated("resp_b"))
    protocol.handle(TextDelta("resp_b", "item_b", "Hi."))
    protocol.handle(AudioDelta("resp_b", "item_b", b"\x00\x00" * 10))
    types = [e["type"] for e in sent(protocol)]
    assert "response.audio.delta" in types and "response.audio_transcript.delta" in types
    assert "conversation.item.created" in types and "response.output_audio.delta" not in types
