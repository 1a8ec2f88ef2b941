"""The WebRTC door's pure parts without sockets: what an offer request must carry, and the Realtime protocol
when the audio rides a media track (OpenAI's WebRTC event set)."""
import json

import numpy as np
import pytest

from streaming.events import AudioDelta, AudioDone, Interrupted, ResponseCreated
from streaming.session import SessionConfig
from streaming.transports.realtime import RealtimeProtocol
from streaming.transports.webrtc import (FRAME_BYTES, OfferError, RATE, check_sdp, ice_servers, live_offer,
                                         mono_pcm16, session_field)

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
