"""The WebRTC door's pure parts without sockets: what an offer request must carry, and the Realtime protocol
when the audio rides a media track (OpenAI's WebRTC event set)."""
import json

import numpy as np
import pytest

from streaming.events import AudioDelta, AudioDone, Interrupted, ResponseCreated
from streaming.session import SessionConfig
from streaming.transports.realtime import RealtimeProtocol
from streaming.transports.webrtc import (CONSENT_TIMEOUT_S, FRAME_BYTES, ArrivalBuffer, Consent, OfferError, RATE,
                                         check_sdp, ice_servers, live_offer, low_delay_opus, mono_pcm16,
                                         session_field)

OFFER = "v=0\r\no=- 1 1 IN IP4 0.0.0.0\r\ns=-\r\nt=0 0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\n"


def sent(p):
    return [json.loads(frame) for frame in p.data_to_send()]


@pytest.fixture
def media():
    p = RealtimeProtocol(session_id="sess_1", model="parley-home",
                         defaults=SessionConfig(input_rate=RATE, output_rate=RATE), media_rate=RATE)
    p.start()
    p.data_to_send()
    return p


def test_offers_are_checked():
    assert check_sdp(OFFER) == OFFER
    for bad in (None, "", "hello", "v=0\r\nm=application 9 UDP/DTLS/SCTP webrtc-datachannel\r\n",
                "v=0\r\nm=audio " + "x" * 70_000):
        with pytest.raises(OfferError) as error:
            check_sdp(bad)
        assert error.value.code == "invalid_sdp"
    assert live_offer({"session": {"instructions": "hi"}, "transport": {"type": "webrtc", "sdp": OFFER}}).session \
        == {"instructions": "hi"}
    assert live_offer({"transport": {"type": "webrtc", "sdp": OFFER}}).session is None
    for body, code in (([], "invalid_request"), ({"transport": {"type": "websocket", "sdp": OFFER}},
                                                 "invalid_transport"),
                       ({"session": 3, "transport": {"type": "webrtc", "sdp": OFFER}}, "invalid_session")):
        with pytest.raises(OfferError) as error:
            live_offer(body)
        assert error.value.code == code
    assert session_field('{"instructions": "x"}') == {"instructions": "x"}
    for bad in ("{nope", "[1]", "[" * 100_000):
        with pytest.raises(OfferError):
            session_field(bad)


def test_ice_servers_from_the_options():
    class Options:
        ice_servers = "stun:stun.example:3478, turn:turn.example:3478?transport=udp"
        ice_username, ice_credential = "parley", "s3cret"

    stun, turn = ice_servers(Options())
    assert stun.urls == "stun:stun.example:3478" and stun.username is None
    assert turn.urls == "turn:turn.example:3478?transport=udp" and (turn.username, turn.credential) == \
        ("parley", "s3cret")
    assert ice_servers(object()) == []          # host candidates only


def test_audio_rides_the_track_not_the_channel(media):
    media.handle(ResponseCreated("resp_1"))
    media.handle(AudioDelta("resp_1", "item_1", b"\x01\x00" * 960))
    media.handle(AudioDelta("resp_1", "item_1", b"\x01\x00" * 960))
    kinds = [e["type"] for e in sent(media)]
    assert "response.output_audio.delta" not in kinds
    assert kinds.count("output_audio_buffer.started") == 1
    media.handle(AudioDone("resp_1", "item_1"))
    assert [e["type"] for e in sent(media)] == ["response.output_audio.done", "output_audio_buffer.stopped"]


def test_barge_in_clears_the_output_buffer(media):
    media.handle(ResponseCreated("resp_1"))
    media.handle(AudioDelta("resp_1", "item_1", b"\x00\x00" * 960))
    sent(media)
    media.handle(Interrupted("resp_1"))
    [cleared] = sent(media)
    assert cleared["type"] == "output_audio_buffer.cleared" and cleared["response_id"] == "resp_1"
    media.handle(Interrupted("resp_1"))          # once cleared, nothing more to clear
    assert sent(media) == []


def test_formats_do_not_move_the_track_rate_and_append_is_refused(media):
    [command] = media.receive(json.dumps({"type": "session.update", "session": {"audio": {
        "input": {"format": {"type": "audio/pcm", "rate": 24000}},
        "output": {"format": {"type": "audio/pcmu"}}}}}))
    assert (command.config.input_rate, command.config.output_rate) == (RATE, RATE)
    sent(media)
    assert media.receive(json.dumps({"type": "input_audio_buffer.append", "audio": "AAAA"})) == []
    [error] = sent(media)
    assert error["type"] == "error" and error["error"]["code"] == "invalid_event"


def test_live_sessions_open_with_session_started():
    p = RealtimeProtocol(session_id="sess_1", model="parley-home", defaults=SessionConfig(), media_rate=RATE,
                         live=True)
    p.start()
    [first] = sent(p)
    assert first["type"] == "session.started" and first["session"]["id"] == "sess_1"


def test_decoded_opus_frames_become_mono():
    import av

    stereo = av.AudioFrame.from_ndarray(np.array([[100, 300] * 960], dtype=np.int16), format="s16",
                                        layout="stereo")
    mono = np.frombuffer(mono_pcm16(stereo), dtype="<i2")
    assert len(mono) * 2 == FRAME_BYTES and set(mono) == {200}


def opus_packet(sequence_number: int, payload: bytes):
    from aiortc.rtp import RtpPacket

    packet = RtpPacket(payload_type=111, sequence_number=sequence_number, timestamp=sequence_number * 960)
    packet._data = payload              # what aiortc's depayloader leaves for the buffer
    return packet


def test_the_microphone_buffer_hands_each_packet_on_as_it_arrives():
    """An Opus packet is a whole frame: the decoder gets it at once, not when the next one comes; a packet
    older than the last one handed on (late, or a duplicate) is dropped, across the sequence number's wrap."""
    from aiortc.jitterbuffer import JitterBuffer

    buffer, out = ArrivalBuffer(), []
    for number in (65534, 65535, 0, 65535, 2, 1, 2, 3):
        _, frame = buffer.add(opus_packet(number, bytes([number % 256])))
        out.append(None if frame is None else (frame.timestamp, frame.data))
    assert out == [(65534 * 960, b"\xfe"), (65535 * 960, b"\xff"), (0, b"\x00"), None, (2 * 960, b"\x02"),
                   None, None, (3 * 960, b"\x03")]
    aiortc_default = JitterBuffer(capacity=16, prefetch=4)      # what it replaces: a frame goes 4 packets late
    assert [aiortc_default.add(opus_packet(n, b"x"))[1] is not None for n in range(6)] == [False] * 4 + [True] * 2


def opus_delay_ms(encoder) -> float:
    """How late a tone that starts on a frame boundary comes out of encoder and aiortc's decoder."""
    import av
    from aiortc.codecs.opus import OpusDecoder
    from aiortc.jitterbuffer import JitterFrame

    decoder, out = OpusDecoder(), []
    for n in range(10):
        tone = (8000 * np.sin(np.arange(960) * 2 * np.pi * 440 / RATE)) if n >= 5 else np.zeros(960)
        frame = av.AudioFrame.from_ndarray(tone.astype(np.int16).reshape(1, -1), format="s16", layout="mono")
        frame.sample_rate, frame.pts = RATE, n * 960
        payloads, timestamp = encoder.encode(frame)
        for payload in payloads:
            decoded = decoder.decode(JitterFrame(payload, timestamp))
            out += [pcm.to_ndarray().reshape(-1, 2)[:, 0] for pcm in decoded]
    first = np.nonzero(np.abs(np.concatenate(out)) > 300)[0][0]
    return (first - 5 * 960) / RATE * 1000


def test_the_reply_is_encoded_for_low_delay():
    from aiortc.codecs.opus import OpusEncoder

    assert opus_delay_ms(low_delay_opus()) < 3 < opus_delay_ms(OpusEncoder())      # 2.5 ms against aiortc's 6.5


def test_consent_lasts_30_s_from_the_last_answer_however_late_it_was_read():
    """aioice counts a check unanswered after 0.5 s and hangs up after 6 in a row; a server whose loop reads
    the answers late hung up on clients that answered every check."""
    consent = Consent(now=100.0)
    assert not consent.expired(100.0 + CONSENT_TIMEOUT_S - 0.1)
    consent.receive_answer(112.0)         # a check sent at 105.0 whose answer was read 7 s later
    assert not consent.expired(100.0 + CONSENT_TIMEOUT_S + 5)
    assert consent.expired(112.0 + CONSENT_TIMEOUT_S)
