"""AudioSocket frame codec and call state machine, without sockets."""

import uuid

import pytest

from streaming.transports.phone.audiosocket import (AUDIO, AUDIO_RATES, DTMF, ERROR, HANGUP, MAX_PAYLOAD, UUID,
                                   AudioSocketCall, Frame, FrameError, FrameParser, encode_frame, frame_bytes)
from streaming.transports.phone.calls import CallEnded, CallerAudio, CallerDigit, CallStarted, StreamError

FRAME_BYTES = frame_bytes(8000)                   # classic slin: 320 bytes per 20 ms
CALL_ID = uuid.UUID("4a1f6b0e-2c3d-4e5f-8a9b-0c1d2e3f4a5b")


def started() -> AudioSocketCall:
    """A call past its UUID and first (8 kHz) audio frame."""
    call = AudioSocketCall()
    assert call.receive(encode_frame(UUID, CALL_ID.bytes)) == []       # the first audio frame tells the rate
    assert call.receive(encode_frame(AUDIO, bytes(FRAME_BYTES))) == [CallStarted(str(CALL_ID), rate=8000),
                                                                      CallerAudio(bytes(FRAME_BYTES))]
    return call


def test_encode_matches_the_wire_format():
    assert encode_frame(HANGUP) == b"\x00\x00\x00"
    assert encode_frame(DTMF, b"7") == b"\x03\x00\x017"
    assert encode_frame(AUDIO, bytes(320))[:3] == b"\x10\x01\x40"


def test_parser_reassembles_frames_split_anywhere():
    stream = encode_frame(UUID, CALL_ID.bytes) + encode_frame(AUDIO, bytes(range(200)) * 2) + encode_frame(HANGUP)
    parser = FrameParser()
    frames = [frame for i in range(0, len(stream), 7) for frame in parser.feed(stream[i:i + 7])]
    assert frames == [Frame(UUID, CALL_ID.bytes), Frame(AUDIO, bytes(range(200)) * 2), Frame(HANGUP)]
    parser.eof()


def test_truncated_oversized_and_unknown_frames_raise():
    parser = FrameParser()
    assert parser.feed(encode_frame(AUDIO, bytes(320))[:100]) == []
    with pytest.raises(FrameError, match="truncated frame"):
        parser.eof()
    with pytest.raises(FrameError, match="oversized frame"):
        FrameParser().feed(bytes([AUDIO]) + (MAX_PAYLOAD + 1).to_bytes(2, "big"))   # no need to wait for the body
    with pytest.raises(FrameError, match="unknown frame type 0x42"):
        FrameParser().feed(b"\x42\x00\x00")
    with pytest.raises(FrameError, match="unknown frame type 0x19"):
        FrameParser().feed(b"\x19\x00\x00")


def test_call_flow():
    call = started()
    assert call.receive(encode_frame(AUDIO, bytes(FRAME_BYTES))) == [CallerAudio(bytes(FRAME_BYTES))]
    assert call.receive(encode_frame(DTMF, b"#")) == [CallerDigit("#")]
    assert call.receive(encode_frame(ERROR, b"\x02")) == []          # logged, not fatal
    assert call.receive(encode_frame(HANGUP)) == [CallEnded("caller hung up")]
    assert call.receive(encode_frame(AUDIO, bytes(FRAME_BYTES))) == []


@pytest.mark.parametrize("kind, rate", sorted(AUDIO_RATES.items()))
def test_the_first_audio_frame_sets_the_rate_both_ways(kind, rate):
    size = frame_bytes(rate)                                           # 20 ms of PCM16
    call = AudioSocketCall()
    call.receive(encode_frame(UUID, CALL_ID.bytes))
    assert call.receive(encode_frame(DTMF, b"5")) == []                # held until the call starts
    assert call.receive(encode_frame(kind, bytes(size))) == [
        CallStarted(str(CALL_ID), rate=rate), CallerDigit("5"), CallerAudio(bytes(size))]
    call.play(bytes(size + 2))
    call.mark("end")
    first, second = call.pop_outbound(), call.pop_outbound()
    assert first.data == encode_frame(kind, bytes(size)) and len(second.data) == 3 + size
    other = next(k for k in AUDIO_RATES if k != kind)
    [error] = call.receive(encode_frame(other, bytes(size)))
    assert isinstance(error, StreamError) and "audio type changed mid-call" in error.message


def test_eof_ends_the_call_cleanly_or_reports_a_truncated_frame():
    assert started().eof() == [CallEnded("connection closed")]
    call = started()
    assert call.receive(encode_frame(AUDIO, bytes(FRAME_BYTES))[:50]) == []
    [error] = call.eof()
    assert isinstance(error, StreamError) and "truncated frame" in error.message


@pytest.mark.parametrize("data, message", [
    (encode_frame(AUDIO, bytes(FRAME_BYTES)), "before the UUID frame"),
    (encode_frame(UUID, b"short"), "expected 16"),
    (b"\x10\xff\xff", "oversized frame"),
])
def test_protocol_violations_fail_the_call(data, message):
    call = AudioSocketCall()
    [error] = call.receive(data)
    assert isinstance(error, StreamError) and message in error.message
    assert call.state == "failed" and call.receive(encode_frame(UUID, CALL_ID.bytes)) == []


def test_bad_frames_after_start():
    for frame, message in ((encode_frame(UUID, CALL_ID.bytes), "second UUID"),
                           (encode_frame(DTMF, b"x"), "bad DTMF"),
                           (encode_frame(AUDIO, bytes(3)), "not whole 16-bit samples")):
        [error] = started().receive(frame)
        assert message in error.message


def test_reply_is_cut_into_20ms_frames_and_clear_drops_them():
    call = started()
    call.play(bytes(FRAME_BYTES * 2 + 100))
    call.mark("end of segment")                      # pads the 100-byte tail to a whole frame
    frames = []
    while (frame := call.pop_outbound()) is not None:
        frames.append(frame)
    assert len(frames) == 3 and all(f.audio for f in frames)
    assert all(f.data[:3] == encode_frame(AUDIO, bytes(FRAME_BYTES))[:3] and len(f.data) == 3 + FRAME_BYTES
               for f in frames)
    call.play(bytes(FRAME_BYTES * 5))
    assert call.clear() == [] and call.pop_outbound() is None
