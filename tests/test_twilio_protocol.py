"""Twilio Media Streams state machine and webhook signature, without sockets."""

import base64
import json

import numpy as np

from streaming.transports.phone.calls import CallEnded, CallerAudio, CallerDigit, CallStarted, MarkPlayed, StreamError
from streaming.transports.phone.twilio import FRAME_BYTES, MediaStream, _url_variants, twilio_signature
from voice.audio import float_to_pcm16, mulaw_encode

START = {"event": "start", "sequenceNumber": "1", "streamSid": "MZ123",
         "start": {"streamSid": "MZ123", "accountSid": "AC1", "callSid": "CA9", "tracks": ["inbound"],
                   "customParameters": {"From": "+15551230000", "lang": "en"},
                   "mediaFormat": {"encoding": "audio/x-mulaw", "sampleRate": 8000, "channels": 1}}}


def started() -> MediaStream:
    stream = MediaStream()
    assert stream.receive(json.dumps({"event": "connected", "protocol": "Call", "version": "1.0.0"})) == []
    assert stream.receive(json.dumps(START)) == [CallStarted("CA9", {"From": "+15551230000", "lang": "en"})]
    return stream


def media(payload: bytes, chunk: int = 1, track: str = "inbound") -> str:
    return json.dumps({"event": "media", "sequenceNumber": str(chunk + 1), "streamSid": "MZ123",
                       "media": {"track": track, "chunk": str(chunk), "timestamp": str(20 * chunk),
                                 "payload": base64.b64encode(payload).decode()}})


def test_call_flow_decodes_audio_digits_marks_and_stop():
    stream = started()
    tone = 0.3 * np.sin(2 * np.pi * 440 * np.arange(160) / 8000)
    [audio] = stream.receive(media(mulaw_encode(tone)))
    assert isinstance(audio, CallerAudio) and len(audio.pcm16) == 320
    decoded = np.frombuffer(audio.pcm16, "<i2") / 32768
    assert np.max(np.abs(decoded - tone)) < 0.02          # μ-law round trip is close
    assert stream.receive(media(b"\xff" * 160, track="outbound")) == []
    assert stream.receive(json.dumps({"event": "dtmf", "streamSid": "MZ123",
                                      "dtmf": {"track": "inbound_track", "digit": "5"}})) == [CallerDigit("5")]
    stream.mark("reply-1")
    assert stream.receive(json.dumps({"event": "mark", "streamSid": "MZ123", "mark": {"name": "reply-1"}})) \
        == [MarkPlayed("reply-1")]
    assert not stream.pending_marks
    assert stream.receive(json.dumps({"event": "stop", "stop": {"accountSid": "AC1", "callSid": "CA9"}})) \
        == [CallEnded("caller hung up")]
    assert stream.receive(media(b"\xff" * 160)) == []       # nothing after stop


def test_the_stream_key_is_handed_to_the_io_side_to_spend_and_never_shown():
    stream = MediaStream(authorize=lambda key: key == "ek_secret")
    start = json.loads(json.dumps(START))
    start["start"]["customParameters"]["api_key"] = "ek_secret"
    [event] = stream.receive(json.dumps(start))
    assert event.parameters == {"From": "+15551230000", "lang": "en"} and event.credential == "ek_secret"
    assert "ek_secret" not in repr(event)
    assert MediaStream().receive(json.dumps(start))[0].credential is None


def test_reply_is_cut_into_20ms_media_frames_with_mark_after_segment():
    stream = started()
    stream.play(float_to_pcm16(np.zeros(400)))             # 50 ms: two whole frames and 80 samples left over
    stream.mark("seg-1")
    frames = []
    while (frame := stream.pop_outbound()) is not None:
        frames.append(frame)
    assert [f.audio for f in frames] == [True, True, True, False]
    messages = [json.loads(f.data) for f in frames]
    for message in messages[:3]:
        assert message["event"] == "media" and message["streamSid"] == "MZ123"
        assert len(base64.b64decode(message["media"]["payload"])) == FRAME_BYTES
    assert messages[3] == {"event": "mark", "streamSid": "MZ123", "mark": {"name": "seg-1"}}


def test_clear_drops_queued_audio_and_tells_twilio():
    stream = started()
    stream.play(float_to_pcm16(np.zeros(1600)))
    [clear] = stream.clear()
    assert json.loads(clear.data) == {"event": "clear", "streamSid": "MZ123"} and not clear.audio
    assert stream.pop_outbound() is None


def test_malformed_json_is_a_protocol_error():
    stream = MediaStream()
    [error] = stream.receive("{not json")
    assert isinstance(error, StreamError) and "malformed JSON" in error.message and error.code == 1002
    assert stream.receive(json.dumps(START)) == []          # failed streams stay failed


def test_events_before_start_are_rejected():
    for event in ("media", "dtmf", "mark", "stop"):
        [error] = MediaStream().receive(json.dumps({"event": event, event: {}}))
        assert isinstance(error, StreamError) and f"'{event}' before 'start'" in error.message


def test_wrong_media_format_is_rejected_as_unsupported_data():
    for fmt in ({"encoding": "audio/x-alaw", "sampleRate": 8000, "channels": 1},
                {"encoding": "audio/x-mulaw", "sampleRate": 16000, "channels": 1}):
        start = json.loads(json.dumps(START))
        start["start"]["mediaFormat"] = fmt
        [error] = MediaStream().receive(json.dumps(start))
        assert isinstance(error, StreamError) and error.code == 1003 and "unsupported media format" in error.message


def test_bad_payload_and_bad_digit_are_errors_unknown_events_are_not():
    assert started().receive(json.dumps({"event": "future-thing"})) == []
    [error] = started().receive(json.dumps({"event": "media", "media": {"payload": "***"}}))
    assert "not base64" in error.message
    [error] = started().receive(json.dumps({"event": "dtmf", "dtmf": {"digit": "x"}}))
    assert "bad DTMF digit" in error.message


def test_signature_matches_twilio_reference_example():
    # The worked example from Twilio's webhook security documentation.
    url = "https://mycompany.com/myapp.php?foo=1&bar=2"
    params = {"CallSid": "CA1234567890ABCDE", "Caller": "+14158675309", "Digits": "1234",
              "From": "+14158675309", "To": "+18005551212"}
    assert twilio_signature("12345", url, params) == "RSOYDt4T1cUTdK1PDd93/VVr8B8="


def test_url_variants_cover_default_port_spellings():
    assert _url_variants("https://a.example/twilio/voice") == {
        "https://a.example/twilio/voice", "https://a.example:443/twilio/voice"}
    assert _url_variants("http://127.0.0.1:8080/twilio/voice") == {"http://127.0.0.1:8080/twilio/voice"}
