"""Telnyx, Vonage and Plivo serializers and their signature checks, without sockets."""

import base64
import hashlib
import hmac
import json

import numpy as np

from streaming.transports.phone.calls import CallEnded, CallerAudio, CallerDigit, CallStarted, MarkPlayed, StreamError
from streaming.transports.phone.plivo import PlivoStream, signature_v3
from streaming.transports.phone.telnyx import TelnyxStream
from streaming.transports.phone.vonage import VonageStream, jwt_claims
from voice.audio import float_to_pcm16, mulaw_encode

TONE = 0.3 * np.sin(2 * np.pi * 440 * np.arange(160) / 8000)
TELNYX_START = {"event": "start", "sequence_number": "1", "stream_id": "32de0dea-53cb-4b21-89a4-9610a3e3d3a2",
                "start": {"user_id": "3e6f995f", "call_control_id": "v3:abc", "client_state": None,
                          "from": "+15551230000", "to": "+15559870000",
                          "media_format": {"encoding": "PCMU", "sample_rate": 8000, "channels": 1}}}
PLIVO_START = {"event": "start", "sequenceNumber": 1, "start": {
    "callId": "12345678-1234-1234-1234-123456789abc", "streamId": "87654321-4321-4321-4321-cba987654321",
    "accountId": "MAXXXXXXXXXXXXXXXXXX", "tracks": ["inbound"],
    "mediaFormat": {"encoding": "audio/x-mulaw", "sampleRate": 8000}}, "extra_headers": "userId=12345;lang=en"}


def drain(stream) -> list:
    frames = []
    while (frame := stream.pop_outbound()) is not None:
        frames.append(frame)
    return frames


def test_telnyx_call_flow_and_reply_frames():
    stream = TelnyxStream()
    assert stream.receive_text(json.dumps({"event": "connected", "version": "1.0.0"})) == []
    assert stream.receive_text(json.dumps(TELNYX_START)) == [
        CallStarted("v3:abc", {"from": "+15551230000", "to": "+15559870000"})]
    [audio] = stream.receive_text(json.dumps({"event": "media", "sequence_number": "2", "stream_id": "s", "media": {
        "track": "inbound", "chunk": "1", "timestamp": "5", "payload": base64.b64encode(mulaw_encode(TONE)).decode()}}))
    assert isinstance(audio, CallerAudio) and len(audio.pcm16) == 320
    assert stream.receive_text(json.dumps({"event": "dtmf", "dtmf": {"digit": "7"}})) == [CallerDigit("7")]
    stream.play(float_to_pcm16(np.zeros(400)))             # two whole frames and a padded third
    stream.mark("seg-1")
    messages = [json.loads(f.data) for f in drain(stream)]
    assert [m["event"] for m in messages] == ["media", "media", "media", "mark"]
    assert all(len(base64.b64decode(m["media"]["payload"])) == 160 for m in messages[:3])
    assert stream.receive_text(json.dumps({"event": "mark", "mark": {"name": "seg-1"}})) == [MarkPlayed("seg-1")]
    stream.play(float_to_pcm16(np.zeros(1600)))
    stream.mark("seg-2")
    [clear] = stream.clear()
    assert json.loads(clear.data) == {"event": "clear"} and drain(stream) == [] and not stream.pending_marks
    assert stream.receive_text(json.dumps({"event": "stop", "stop": {}})) == [CallEnded("caller hung up")]


def test_telnyx_refuses_what_it_cannot_play():
    start = json.loads(json.dumps(TELNYX_START))
    start["start"]["media_format"]["encoding"] = "PCMA"
    [error] = TelnyxStream().receive_text(json.dumps(start))
    assert isinstance(error, StreamError) and error.code == 1003
    [error] = TelnyxStream().receive_text(json.dumps({"event": "media", "media": {"payload": ""}}))
    assert "'media' before 'start'" in error.message and error.code == 1002
    [error] = TelnyxStream().receive_bytes(b"\x00" * 160)
    assert error.code == 1003


def test_plivo_call_flow_checkpoints_and_clear():
    stream = PlivoStream()
    assert stream.receive_text(json.dumps(PLIVO_START)) == [
        CallStarted("12345678-1234-1234-1234-123456789abc", {"userId": "12345", "lang": "en"})]
    [audio] = stream.receive_text(json.dumps({"event": "media", "sequenceNumber": 2, "streamId": "s", "media": {
        "track": "inbound", "timestamp": "1705312200000", "chunk": 1,
        "payload": base64.b64encode(mulaw_encode(TONE)).decode()}}))
    assert len(audio.pcm16) == 320
    stream.play(float_to_pcm16(np.zeros(160)))
    stream.mark("greeting")
    play, checkpoint = [json.loads(f.data) for f in drain(stream)]
    assert play["event"] == "playAudio" and play["media"]["contentType"] == "audio/x-mulaw"
    assert play["media"]["sampleRate"] == 8000 and len(base64.b64decode(play["media"]["payload"])) == 160
    assert checkpoint == {"event": "checkpoint", "streamId": "87654321-4321-4321-4321-cba987654321",
                          "name": "greeting"}
    assert stream.receive_text(json.dumps({"event": "playedStream", "streamId": "s", "name": "greeting"})) == [
        MarkPlayed("greeting")]
    stream.mark("reply")
    [clear] = stream.clear()
    assert json.loads(clear.data) == {"event": "clearAudio", "streamId": "87654321-4321-4321-4321-cba987654321"}
    assert not stream.pending_marks                          # Plivo never reaches a cleared checkpoint
    assert stream.receive_text(json.dumps({"event": "clearedAudio", "streamId": "s"})) == []


def test_plivo_l16_at_16khz_is_taken_as_it_comes():
    start = json.loads(json.dumps(PLIVO_START))
    start["start"]["mediaFormat"] = {"encoding": "audio/x-l16", "sampleRate": 16000}
    stream = PlivoStream()
    [started] = stream.receive_text(json.dumps(start))
    assert started.rate == 16000
    pcm = float_to_pcm16(np.zeros(320))
    [audio] = stream.receive_text(json.dumps({"event": "media", "media": {"payload": base64.b64encode(pcm).decode()}}))
    assert audio.pcm16 == pcm
    stream.play(pcm)
    [frame] = drain(stream)
    assert len(base64.b64decode(json.loads(frame.data)["media"]["payload"])) == 640


def test_plivo_signature_v3_covers_url_query_and_nonce():
    url = "wss://parley.example.com/plivo/stream?b=2&a=1"
    expected = base64.b64encode(hmac.new(b"token", b"wss://parley.example.com/plivo/stream?a=1&b=2.12345",
                                         hashlib.sha256).digest()).decode()
    assert signature_v3("token", url, "12345") == expected
    assert signature_v3("token", url, "12346") != expected


def test_vonage_binary_audio_notify_and_clear():
    stream = VonageStream()
    [started] = stream.receive_text(json.dumps({"event": "websocket:connected",
                                                "content-type": "audio/l16;rate=16000", "app": "demo"}))
    assert started.rate == 16000 and started.parameters == {"app": "demo"}
    pcm = float_to_pcm16(np.zeros(320))
    assert stream.receive_bytes(pcm) == [CallerAudio(pcm)]
    assert stream.receive_text(json.dumps({"event": "websocket:dtmf", "digit": "#", "duration": 260})) == [
        CallerDigit("#")]
    stream.play(float_to_pcm16(np.zeros(500)))               # one whole frame and a padded second
    stream.mark("seg-1")
    frames = drain(stream)
    assert [f.data for f in frames[:2]] == [bytes(640), bytes(640)] and [f.audio for f in frames] == [True, True, False]
    assert json.loads(frames[2].data) == {"action": "notify", "payload": {"mark": "seg-1"}}
    assert stream.receive_text(json.dumps({"event": "websocket:notify", "payload": {"mark": "seg-1"}})) == [
        MarkPlayed("seg-1")]
    [clear] = stream.clear()
    assert json.loads(clear.data) == {"action": "clear"}


def test_vonage_refuses_audio_first_and_unknown_formats():
    [error] = VonageStream().receive_bytes(bytes(640))
    assert error.code == 1002
    [error] = VonageStream().receive_text(json.dumps({"event": "websocket:connected", "content-type": "audio/opus"}))
    assert error.code == 1003


def _jwt(secret: str, claims: dict, alg: str = "HS256") -> str:
    def part(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()
    head, body = part(json.dumps({"alg": alg, "typ": "JWT"}).encode()), part(json.dumps(claims).encode())
    return f"{head}.{body}.{part(hmac.new(secret.encode(), f'{head}.{body}'.encode(), hashlib.sha256).digest())}"


def test_vonage_jwt_must_be_signed_recent_and_unexpired():
    now = 1_800_000_000
    assert jwt_claims(_jwt("s", {"iat": now - 10, "jti": "x"}), "s", now) == {"iat": now - 10, "jti": "x"}
    assert jwt_claims(_jwt("other", {"iat": now}), "s", now) is None
    assert jwt_claims(_jwt("s", {"iat": now - 3600}), "s", now) is None              # a replay
    assert jwt_claims(_jwt("s", {"iat": now, "exp": now - 600}), "s", now) is None   # expired
    assert jwt_claims(_jwt("s", {"iat": now}, alg="none"), "s", now) is None
    assert jwt_claims("not.a.jwt", "s", now) is None and jwt_claims("", "s", now) is None


def test_telnyx_webhook_signature_is_ed25519_over_timestamp_and_body():
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    from streaming.transports.phone.telnyx import signed_by_telnyx
    key = Ed25519PrivateKey.generate()
    public = base64.b64encode(key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)).decode()
    body, now = b'{"data":{"event_type":"call.initiated"}}', 1_800_000_000
    signature = base64.b64encode(key.sign(f"{now}|".encode() + body)).decode()
    assert signed_by_telnyx(public, signature, str(now), body, now=now + 5)
    assert not signed_by_telnyx(public, signature, str(now), body + b" ", now=now)      # another body
    assert not signed_by_telnyx(public, signature, str(now), body, now=now + 3600)      # a replay
    assert not signed_by_telnyx(public, "***", str(now), body, now=now)
    assert not signed_by_telnyx(public, signature, "soon", body, now=now)
