"""WebRTC calls against the live server with a real aiortc caller on loopback: Opus both ways, the Realtime
events on the `oai-events` data channel, barge-in, GPT-Live's shape, the sideband socket, and the same doors'
locks (credentials, Origin, session limit) as the WebSocket."""
import asyncio
import json
import re
import socket
import time

import aiohttp
import pytest

from realtime_client import RealtimeClient
from webrtc_client import CallRefused, WebRTCClient
from streaming.transports.webrtc import MAX_OFFER_CANDIDATES
from voice.audio import pcm16_to_float, resample

MATH = "What is seven times six?"


def says_42(text: str) -> bool:
    return bool(re.search(r"\b42\b|forty[\s-]two", text.lower()))


def hear(stt, pcm16: bytes) -> str:
    return stt.transcribe(resample(pcm16_to_float(pcm16), 48000, 16000))


def calls_url(server) -> str:
    return server.url + "/v1/realtime/calls"


async def calls_ended(server, timeout: float = 15) -> None:
    for _ in range(int(timeout / 0.05)):
        if not server.ctx.calls and not server.ctx.sessions:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"calls still open: {list(server.ctx.calls)}")


@pytest.mark.usefixtures("needs_assistant")
async def test_spoken_question_gets_a_spoken_answer(live_server, speech, stt):
    client = await WebRTCClient.call(calls_url(live_server))
    created = await client.wait_for("session.created", timeout=30)
    assert client.call_id == created["session"]["id"]          # Location, sideband and session: one id
    started = time.monotonic()
    client.microphone.say(speech.piper(MATH, rate=48000))
    done = await client.wait_for("response.done", timeout=90)
    transcript = client.of_type("conversation.item.input_audio_transcription.completed")[0]["transcript"]
    assert re.search(r"\b(7|seven)\b", transcript.lower()) and re.search(r"\b(6|six)\b", transcript.lower())
    response = done["response"]
    assert response["status"] == "completed"
    assert says_42(response["output"][0]["content"][0]["transcript"])
    await client.wait_for("output_audio_buffer.stopped", timeout=30)
    await asyncio.sleep(0.3)                                   # the last frames through the jitter buffer
    audio = client.audio_between(started)
    assert len(audio) > 48000                                  # more than half a second of speech, as Opus
    assert says_42(hear(stt, audio))
    kinds = [e["type"] for e in client.events]
    assert "response.output_audio.delta" not in kinds          # the audio rode the track, not the channel
    assert kinds.index("response.created") < kinds.index("output_audio_buffer.started") \
        < kinds.index("response.done")
    await client.close()
    await calls_ended(live_server)


@pytest.mark.usefixtures("needs_assistant")
async def test_barge_in_stops_the_reply_at_once(live_server, speech):
    client = await WebRTCClient.call(calls_url(live_server))
    await client.wait_for("session.created", timeout=30)
    await client.send({"type": "session.update", "session": {"type": "realtime", "audio": {"input": {
        "turn_detection": {"type": "server_vad", "threshold": 0.5, "create_response": False}}}}})
    await client.wait_for("session.updated")              # no reply to "Wait, stop.": only the cut is heard
    await client.send({"type": "conversation.item.create", "item": {
        "type": "message", "role": "user", "content": [{"type": "input_text", "text": "what's the date today"}]}})
    await client.send({"type": "response.create"})
    playing = await client.wait_for("output_audio_buffer.started", timeout=60)
    client.microphone.say(speech.piper("Wait, stop.", rate=48000, lead_ms=0, tail_ms=600))
    await client.wait_for("input_audio_buffer.speech_started", timeout=15)
    done = await client.wait_for("response.done", timeout=15)
    assert done["response"]["id"] == playing["response_id"]
    assert done["response"]["status"] == "cancelled"
    cleared = await client.wait_for("output_audio_buffer.cleared", timeout=5)
    assert cleared["response_id"] == playing["response_id"]
    # what reached the ear afterwards: the jitter buffer's last frames, then silence
    settled = time.monotonic() + 0.5
    await asyncio.sleep(1.5)
    after = client.audio_between(settled)
    assert after == b""
    await client.close()
    await calls_ended(live_server)


async def test_form_offer_and_gpt_live_session(live_server):
    form = await WebRTCClient.call(calls_url(live_server), form_session={
        "type": "realtime", "instructions": "Answer in one word.",
        "tools": [{"type": "function", "name": "ring_bell", "description": "Ring the bell.",
                   "parameters": {"type": "object", "properties": {}}}]})
    assert (await form.wait_for("session.created", timeout=30))
    updated = await form.wait_for("session.updated")
    assert updated["session"]["instructions"] == "Answer in one word."
    assert [tool["name"] for tool in updated["session"]["tools"]] == ["ring_bell"]

    live = await WebRTCClient.call(live_server.url + "/v1/live/sessions",
                                   live_session={"instructions": "Be brief."})
    assert live.answer["session"]["id"] == live.call_id
    first = await live.wait_for("session.started", timeout=30)
    assert live.events[0] is first
    assert (await live.wait_for("session.updated"))["session"]["instructions"] == "Be brief."
    # the channel takes client events as the WebSocket does, errors included
    await live.send({"type": "conversation.launch_rockets"})
    error = await live.wait_for("error")
    assert error["error"]["code"] == "unknown_event"
    await live.send({"type": "input_audio_buffer.append", "audio": "AAAA"})
    error = await live.wait_for("error", where=lambda e: e["error"]["code"] == "invalid_event")
    assert "audio track" in error["error"]["message"]
    await form.close()
    await live.close()
    await calls_ended(live_server)


async def test_the_microphone_is_not_held_back_for_playout(live_server):
    """The server's receive buffer hands each Opus packet to the decoder as it arrives: the session is no
    loudspeaker (tests/test_webrtc_protocol.py checks the buffer itself); the reply is encoded for low delay; the
    call's ICE consent is checked by Parley."""
    from streaming.transports.webrtc import CALLS, ArrivalBuffer

    client = await WebRTCClient.call(calls_url(live_server))
    await client.wait_for("session.created", timeout=30)
    [(call, _)] = live_server.app[CALLS]
    [receiver] = call.pc.getReceivers()
    assert isinstance(receiver._RTCRtpReceiver__jitter_buffer, ArrivalBuffer)
    encoder = call.pc.getSenders()[0]._RTCRtpSender__encoder      # the reply's: 2.5 ms of look-ahead, not 6.5
    for _ in range(200):                                       # its first frame (silence) is encoded at once
        if encoder.first_packet_pts is not None:
            break
        await asyncio.sleep(0.05)
    assert encoder.first_packet_pts == -120
    # consent: Parley's checks (an answer counts however late it is read), not aioice's 0.5 s ones
    [consent] = call.consent
    assert not consent.done()
    connection = call.pc.getTransceivers()[0].receiver.transport.transport._connection
    assert connection._query_consent_task.cancelled()
    await client.close()
    await calls_ended(live_server)


async def test_bad_offers_are_refused_and_the_server_goes_on(live_server):
    async with aiohttp.ClientSession() as http:
        async with http.post(calls_url(live_server), data="hello", headers={"Content-Type": "application/sdp"}) as r:
            assert r.status == 400 and (await r.json())["error"]["code"] == "invalid_sdp"
        sdp_without_audio = "v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n"
        async with http.post(calls_url(live_server), data=sdp_without_audio,
                             headers={"Content-Type": "application/sdp"}) as r:
            assert r.status == 400 and (await r.json())["error"]["code"] == "invalid_sdp"
        broken = "v=0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\nthis is not sdp\r\n"
        async with http.post(calls_url(live_server), data=broken, headers={"Content-Type": "application/sdp"}) as r:
            assert r.status == 400 and (await r.json())["error"]["code"] == "invalid_sdp"
        async with http.post(live_server.url + "/v1/live/sessions", json={"transport": {"type": "websocket"}}) as r:
            assert r.status == 400 and (await r.json())["error"]["code"] == "invalid_transport"
        async with http.post(live_server.url + "/v1/live/sessions", data="{nope") as r:
            assert r.status == 400 and (await r.json())["error"]["code"] == "invalid_json"
    assert not live_server.ctx.sessions
    client = await WebRTCClient.call(calls_url(live_server))
    await client.wait_for("session.created", timeout=30)
    await client.close()
    await calls_ended(live_server)


async def test_an_offer_naming_more_ice_candidates_than_the_bound_is_refused(live_server):
    """The server sends connectivity checks to every candidate an offer names while the call waits to connect
    (at deb3ced an offer naming 900 loopback addresses drew 1,135 STUN requests in 10 s): past
    MAX_OFFER_CANDIDATES the offer is refused and no session is opened."""
    caller = WebRTCClient()
    await caller.pc.setLocalDescription(await caller.pc.createOffer())
    offer = caller.pc.localDescription.sdp
    await caller.pc.close()
    target = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)     # an address the offer points the checks at
    target.bind(("127.0.0.1", 0))
    port = target.getsockname()[1]
    named = "".join(f"a=candidate:{n} 1 udp {2_000_000_000 - n} 127.0.0.1 {port} typ host\r\n"
                    for n in range(MAX_OFFER_CANDIDATES + 1))
    assert "a=end-of-candidates" in offer
    flood = offer.replace("a=end-of-candidates", named + "a=end-of-candidates", 1)
    try:
        async with aiohttp.ClientSession() as http:
            async with http.post(calls_url(live_server), data=flood,
                                 headers={"Content-Type": "application/sdp"}) as response:
                status, text = response.status, await response.text()
    finally:
        target.close()
    assert status == 400, f"answered with {status}"
    body = json.loads(text)
    assert body["error"]["code"] == "invalid_sdp"
    assert f"at most {MAX_OFFER_CANDIDATES} ICE candidates" in body["error"]["message"]
    assert not live_server.ctx.sessions and not live_server.ctx.calls


async def test_a_caller_that_sends_past_the_data_channels_receive_window_is_hung_up(live_server):
    """aiortc reassembles a message of any size though the answer allows 256 KiB: at deb3ced an 8 MiB message was
    held whole before the protocol refused it (message_too_large), and the call went on. A caller that sends past
    the 1 MiB receive window is now hung up, before the message is whole."""
    client = await WebRTCClient.call(calls_url(live_server))
    await client.wait_for("session.created", timeout=30)
    client.pc.sctp._remote_max_message_size = 0         # the caller ignores the answer's max-message-size
    client.channel.send(json.dumps({"type": "session.update", "session": {"instructions": "x" * (8 << 20)}}))
    for _ in range(2400):
        if not live_server.ctx.calls or client.of_type("error"):
            break
        await asyncio.sleep(0.05)
    assert not client.of_type("error") and not live_server.ctx.calls
    await client.close()
    await calls_ended(live_server)


async def test_same_locks_as_every_door(server_factory):
    server = server_factory(api_key="sk-parley-test", max_sessions=2)
    with pytest.raises(CallRefused) as refused:
        await WebRTCClient.call(calls_url(server))
    assert refused.value.status == 401
    async with aiohttp.ClientSession() as http:
        async with http.post(server.url + "/v1/realtime/client_secrets",
                             headers={"Authorization": "Bearer sk-parley-test"}, json={}) as response:
            secret = (await response.json())["value"]
    bearer = {"Authorization": f"Bearer {secret}"}
    with pytest.raises(CallRefused) as foreign:
        await WebRTCClient.call(calls_url(server), headers={**bearer, "Origin": "https://evil.example"})
    assert foreign.value.status == 403
    client = await WebRTCClient.call(calls_url(server), headers=bearer)
    await client.wait_for("session.created", timeout=30)
    with pytest.raises(CallRefused) as spent:                  # a client secret opens one call
        await WebRTCClient.call(calls_url(server), headers=bearer)
    assert spent.value.status == 401
    key = {"Authorization": "Bearer sk-parley-test"}
    second = await WebRTCClient.call(calls_url(server), headers=key)
    await second.wait_for("session.created", timeout=30)
    with pytest.raises(CallRefused) as full:                   # max_sessions=2: both places are taken
        await WebRTCClient.call(calls_url(server), headers=key)
    assert full.value.status == 503
    await client.close()
    await second.close()
    await calls_ended(server)


@pytest.mark.usefixtures("needs_assistant")
async def test_sideband_socket_watches_and_steers_the_call(server_factory):
    server = server_factory(api_key="sk-parley-test")
    key = {"Authorization": "Bearer sk-parley-test"}
    client = await WebRTCClient.call(calls_url(server), headers=key)
    await client.wait_for("session.created", timeout=30)
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await RealtimeClient.connect(server.ws_url + "?call_id=" + client.call_id)
    assert refused.value.status == 401
    with pytest.raises(aiohttp.WSServerHandshakeError) as unknown:
        await RealtimeClient.connect(server.ws_url + "?call_id=sess_nothing", headers=key)
    assert unknown.value.status == 404
    sideband = await RealtimeClient.connect(server.ws_url + "?call_id=" + client.call_id, headers=key)
    await sideband.send({"type": "conversation.item.create", "item": {
        "type": "message", "role": "user", "content": [{"type": "input_text", "text": "what is seven times six"}]}})
    await sideband.send({"type": "response.create", "response": {"output_modalities": ["text"]}})
    on_channel = await client.wait_for("response.done", timeout=90)
    on_sideband = await sideband.wait_for("response.done", timeout=10)
    assert on_channel == on_sideband
    assert says_42(on_channel["response"]["output"][0]["content"][0]["text"])
    await client.close()
    await asyncio.wait_for(sideband.closed.wait(), 15)         # the call ended: so does its sideband
    await sideband.close()
    await calls_ended(server)
