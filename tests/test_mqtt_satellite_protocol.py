"""The satellite topic contract without a broker: topics and payloads → requests, session events → messages."""
import json

from streaming import events as ev
from streaming.transports.mqtt.satellite import (SATELLITE_RATE, SERVER_STATUS, Audio, Cancel, Invalid, Presence, ReplyStream,
                                      StartTurn, StopTurn, Text, decode, parse_topic)


def test_topics_name_the_device_and_channel():
    assert parse_topic("parley/kitchen/audio/in") == ("kitchen", "audio/in")
    assert parse_topic("parley/kitchen/control") == ("kitchen", "control")
    assert parse_topic("parley/kitchen/status") == ("kitchen", "status")
    assert parse_topic(SERVER_STATUS) is None                 # Parley's own presence is not a device
    assert parse_topic("parley/kitchen/events") is None       # our own output
    assert parse_topic("home/kitchen/light/set") is None


def test_control_messages_and_their_errors():
    assert decode("control", b'{"type": "start"}') == StartTurn()
    assert decode("control", b'{"type": "stop"}') == StopTurn()
    assert decode("control", b'{"type": "cancel"}') == Cancel()
    assert decode("control", b"{not json").code == "invalid_json"
    assert decode("control", b'["start"]').code == "unknown_control"
    assert decode("control", b'{"type": "explode"}').code == "unknown_control"


def test_audio_must_be_whole_pcm16_samples_of_sane_size():
    assert decode("audio/in", b"\x01\x00\x02\x00") == Audio(b"\x01\x00\x02\x00")
    odd = decode("audio/in", b"\x01\x00\x02")
    assert isinstance(odd, Invalid) and odd.code == "invalid_audio"
    assert decode("audio/in", bytes(200_000)).code == "audio_too_large"


def test_text_and_presence():
    assert decode("text/in", " turn on the kitchen light \n".encode()) == Text("turn on the kitchen light")
    assert decode("text/in", b"\xff\xfe").code == "invalid_text"
    assert decode("text/in", b"turn on the \xed\xa0\x80 light").code == "invalid_text"   # a surrogate, UTF-8 style
    assert decode("text/in", b"   ").code == "invalid_text"
    assert decode("status", b"offline") == Presence(False)
    assert decode("status", b"online") == Presence(True)
    assert decode("status", b"sleepy") is None


def payloads(messages):
    return [(m.topic.rsplit("/", 1)[-1] if m.topic.endswith("events") else "audio/out",
             json.loads(m.payload) if m.topic.endswith("events") else m.payload, m.qos) for m in messages]


def test_a_spoken_turn_becomes_transcript_reply_and_framed_audio():
    stream = ReplyStream("kitchen")
    out = []
    for event in [ev.SpeechStarted(0, "i1"), ev.SpeechStopped(900, "i1"), ev.TranscriptCompleted("i1", "Turn on the light."),
                  ev.ResponseCreated("r1"),
                  ev.ToolCallExecuted("r1", "c1", "set_device", {"device": "light", "room": "kitchen", "state": "on"}, "on",
                                      "item_c", "item_o", None),
                  ev.TextDelta("r1", "a1", "The kitchen light is on."),
                  ev.AudioDelta("r1", "a1", b"\x00\x00" * 10), ev.AudioDelta("r1", "a1", b"\x01\x00" * 10),
                  ev.AudioDone("r1", "a1"), ev.TextDone("r1", "a1", "The kitchen light is on."),
                  ev.ResponseDone("r1", "completed", {"voice_to_voice": 612.0}, "The kitchen light is on.")]:
        out += stream.encode(event)
    kinds = [p[1]["type"] if p[0] == "events" else "chunk" for p in payloads(out)]
    assert kinds == ["speech.started", "speech.stopped", "transcript", "reply.delta", "audio.start", "chunk", "chunk",
                     "audio.stop", "reply"]
    decoded = payloads(out)
    assert decoded[2][1]["text"] == "Turn on the light."
    assert decoded[4][1] == {"type": "audio.start", "response_id": "r1", "rate": SATELLITE_RATE, "channels": 1,
                             "format": "s16le"}
    assert decoded[5][2] == 0 and decoded[4][2] == 1            # audio QoS 0, events QoS 1
    reply = decoded[-1][1]
    assert reply["text"] == "The kitchen light is on." and reply["timing"] == {"voice_to_voice": 612.0}
    assert reply["tool_calls"] == [{"name": "set_device", "arguments": {"device": "light", "room": "kitchen", "state": "on"},
                                    "result": "on"}]
    assert out[5].topic == "parley/kitchen/audio/out"


def test_barge_in_and_cancel_close_the_audio_and_failures_are_errors():
    stream = ReplyStream("bedroom")
    stream.encode(ev.ResponseCreated("r1"))
    stream.encode(ev.AudioDelta("r1", "a1", b"\x00\x00"))
    stop = payloads(stream.encode(ev.Interrupted("r1")))
    assert stop == [("events", {"type": "audio.stop", "response_id": "r1", "reason": "interrupted"}, 1)]
    assert payloads(stream.encode(ev.ResponseDone("r1", "cancelled", {}, ""))) == []   # already closed
    assert stream.responding is None
    stream.encode(ev.ResponseCreated("r2"))
    failed = payloads(stream.encode(ev.ResponseDone("r2", "failed", {}, "", reason="boom")))
    assert failed[0][1]["type"] == "error" and failed[0][1]["code"] == "response_failed"
    error = payloads(stream.encode(ev.Error("input_audio_buffer_full", "too long")))
    assert error[0][1] == {"type": "error", "code": "input_audio_buffer_full", "message": "too long"}
