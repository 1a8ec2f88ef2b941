"""Calls from Telnyx, Vonage and Plivo, each placed by a caller written from the carrier's documentation against
the live server: a spoken question answered with audio Whisper hears, a barge-in that clears, and each door's
check of the carrier's signature or token."""

import argparse
import asyncio
import base64
import hashlib
import hmac
import json
import re
import time

import aiohttp
import numpy as np
import pytest

from phone_callers import (GREETING, LONG_GREETING, PlivoCaller, TelnyxCaller, VonageCaller, finished_calls,
                           live_tasks, transcribe, until)
from streaming.transports.phone.plivo import signature_v3
from transcripts import spelled_like_start
from voice.audio import resample

CARRIERS = {"telnyx": TelnyxCaller, "vonage": VonageCaller, "plivo": PlivoCaller}
TELNYX_TOKEN = "telnyx-stream-token"
VONAGE_SECRET = "vonage-signature-secret"
PLIVO_TOKEN = "plivo-auth-token"


@pytest.fixture(scope="module")
def server(server_factory):
    return server_factory(options=argparse.Namespace(phone_greeting=GREETING))


@pytest.fixture
async def http():
    async with aiohttp.ClientSession() as session:
        yield session


def url(server, carrier: str) -> str:
    return f"ws://127.0.0.1:{server.port}/{carrier}/stream"


def say(caller, tts, text: str) -> None:
    caller.say(resample(tts.synthesize(text), tts.sample_rate, caller.rate))


async def wait_for_call(server, caller, timeout: float = 25):
    """The server's record of this caller's call (Vonage's call id is the server's own: the only one)."""
    for _ in range(int(timeout / 0.05)):
        records = [r for r in finished_calls(server) if r.transport == caller_transport(caller)
                   and (not hasattr(caller, "call_id") or r.call_id == caller.call_id)]
        if records:
            return records[-1]
        await asyncio.sleep(0.05)
    raise AssertionError("the call never finished on the server")


def caller_transport(caller) -> str:
    return next(name for name, kind in CARRIERS.items() if isinstance(caller, kind))


@pytest.mark.parametrize("carrier", CARRIERS)
async def test_spoken_question_gets_a_spoken_answer(server, http, stt, tts, carrier, needs_assistant):
    caller = await CARRIERS[carrier].dial(http, url(server, carrier))
    await until(lambda: caller.marks_echoed, what="greeting played")
    heard_before = len(caller.heard)
    say(caller, tts, "What is seven times six?")
    await caller.finish_speaking()
    await until(lambda: len(caller.marks_echoed) >= 2, timeout=30, what="reply played and its mark echoed")
    await caller.hang_up()

    record = await wait_for_call(server, caller)
    assert re.search(r"seven times six|7 times 6|7 x 6", record.transcripts[0].lower()), record.transcripts
    answer = transcribe(stt, np.concatenate(caller.heard[heard_before:]), caller.rate).lower()
    assert re.search(r"\b42\b|forty[- ]two", answer), answer
    assert caller.marks_echoed == record.marks_sent == record.marks_played
    if carrier == "vonage":
        assert caller.frame_sizes == {640}                  # 20 ms of 16 kHz L16, as Vonage requires
        assert record.rate == 16000
    await until(lambda: not live_tasks(server), timeout=25, what="no session or call task left")


@pytest.mark.parametrize("carrier", CARRIERS)
async def test_talking_over_the_reply_clears_it(server_factory, http, stt, tts, carrier):
    server = server_factory(options=argparse.Namespace(phone_greeting=LONG_GREETING))
    caller = await CARRIERS[carrier].dial(http, url(server, carrier))
    await until(lambda: caller.frames_received >= 25, what="greeting under way")
    say(caller, tts, "Please turn on the kitchen light.")
    await until(lambda: caller.clears, timeout=10, what="clear")
    heard_at_clear = len(caller.heard)
    await caller.finish_speaking()
    await asyncio.sleep(1.5)
    await caller.hang_up()

    record = await wait_for_call(server, caller)
    assert record.clears >= 1 and record.marks_sent == []   # the interrupted greeting never completed
    assert heard_at_clear * 0.02 < 6                        # far less than the whole greeting was heard
    assert "kitchen light" in " ".join(record.transcripts).lower(), record.transcripts


def vonage_jwt(secret: str, issued_at: float) -> str:
    def part(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()
    head = part(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    claims = part(json.dumps({"iat": int(issued_at), "jti": "b4a1", "application_id": "aaaa-bbbb"}).encode())
    signature = hmac.new(secret.encode(), f"{head}.{claims}".encode(), hashlib.sha256).digest()
    return f"{head}.{claims}.{part(signature)}"


def plivo_headers(token: str, stream_url: str, nonce: str = "05429567804466091622") -> dict:
    return {"X-Plivo-Signature-V3": signature_v3(token, stream_url, nonce), "X-Plivo-Signature-V3-Nonce": nonce}


async def test_each_door_checks_its_carriers_signature_or_token(server_factory, http, stt):
    server = server_factory(options=argparse.Namespace(
        phone_greeting=GREETING, telnyx_stream_token=TELNYX_TOKEN, vonage_signature_secret=VONAGE_SECRET,
        plivo_auth_token=PLIVO_TOKEN))
    refused = {
        "telnyx": {"Authorization": "Bearer not-the-token"},
        "vonage": {"Authorization": "Bearer " + vonage_jwt("another-secret", time.time())},
        "plivo": plivo_headers("another-token", url(server, "plivo")),
    }
    stale = {"vonage": {"Authorization": "Bearer " + vonage_jwt(VONAGE_SECRET, time.time() - 3600)},
             "plivo": plivo_headers(PLIVO_TOKEN, url(server, "plivo") + "?other=1")}   # signed for another URL
    for carrier, headers in [*refused.items(), *stale.items(), ("telnyx", {})]:
        with pytest.raises(aiohttp.WSServerHandshakeError) as refusal:
            await http.ws_connect(url(server, carrier), headers=headers)
        assert refusal.value.status == 403, carrier
    accepted = [await TelnyxCaller.dial(http, url(server, "telnyx") + "?token=" + TELNYX_TOKEN),
                await VonageCaller.dial(http, url(server, "vonage"),
                                        {"Authorization": "Bearer " + vonage_jwt(VONAGE_SECRET, time.time())}),
                await PlivoCaller.dial(http, url(server, "plivo"), plivo_headers(PLIVO_TOKEN, url(server, "plivo")))]
    for caller in accepted:
        await until(lambda: caller.marks_echoed, what="greeting played")
        await caller.hang_up()
        assert spelled_like_start(transcribe(stt, caller.heard_audio(), caller.rate), GREETING) >= 0.75


async def test_with_an_api_key_each_door_wants_it_or_a_client_secret(server_factory, http):
    server = server_factory(api_key="sk-carrier-test", options=argparse.Namespace(phone_greeting=""))
    async with http.post(server.url + "/v1/realtime/client_secrets",
                         headers={"Authorization": "Bearer sk-carrier-test"}, json={}) as response:
        secret = (await response.json())["value"]
    for carrier in CARRIERS:
        with pytest.raises(aiohttp.WSServerHandshakeError) as refusal:
            await http.ws_connect(url(server, carrier))
        assert refusal.value.status == 401
    caller = await PlivoCaller.dial(http, url(server, "plivo") + "?client_secret=" + secret)
    await until(lambda: any(r.call_id == caller.call_id for r in server.call(_active(server))), what="answered")
    await caller.hang_up()
    with pytest.raises(aiohttp.WSServerHandshakeError):      # a client secret is spent by its use
        await http.ws_connect(url(server, "vonage") + "?client_secret=" + secret)


async def _active(server):
    from streaming.transports.phone.calls import PHONE_CALLS
    return list(server.app[PHONE_CALLS].active.values())


async def test_a_malformed_start_closes_with_a_reason_and_the_door_goes_on(server, http):
    ws = await http.ws_connect(url(server, "telnyx"))
    await ws.send_str(json.dumps({"event": "start", "stream_id": "s1", "start": {
        "call_control_id": "v3:x", "media_format": {"encoding": "OPUS", "sample_rate": 16000, "channels": 1}}}))
    message = await ws.receive(timeout=10)
    assert message.type == aiohttp.WSMsgType.CLOSE and ws.close_code == 1003
    assert "unsupported media format" in message.extra
    ws = await http.ws_connect(url(server, "vonage"))
    await ws.send_bytes(b"\x00" * 640)                      # audio before the first JSON message
    message = await ws.receive(timeout=10)
    assert message.type == aiohttp.WSMsgType.CLOSE and ws.close_code == 1002
    caller = await PlivoCaller.dial(http, url(server, "plivo"))
    await until(lambda: caller.marks_echoed, what="greeting played")
    await caller.hang_up()


async def test_a_signed_texml_webhook_connects_the_call_to_a_locked_stream(server_factory, http, stt):
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
    key = Ed25519PrivateKey.generate()
    public = base64.b64encode(key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)).decode()
    server = server_factory(options=argparse.Namespace(phone_greeting=GREETING, telnyx_public_key=public,
                                                       telnyx_stream_token=TELNYX_TOKEN))
    body = b"CallSid=v3%3Aabc&From=%2B15551230000&To=%2B15559870000&CallStatus=ringing"

    def signed(timestamp: int, signer=key) -> dict:
        signature = signer.sign(str(timestamp).encode() + b"|" + body)
        return {"telnyx-signature-ed25519": base64.b64encode(signature).decode(), "telnyx-timestamp": str(timestamp),
                "Content-Type": "application/x-www-form-urlencoded"}
    for headers in (signed(int(time.time()), Ed25519PrivateKey.generate()), signed(int(time.time()) - 3600), {}):
        async with http.post(server.url + "/telnyx/texml", data=body, headers=headers) as response:
            assert response.status == 403
    async with http.post(server.url + "/telnyx/texml", data=body, headers=signed(int(time.time()))) as response:
        assert response.status == 200
        texml = await response.text()
    stream = re.search(r'<Stream url="([^"]+)" bidirectionalMode="rtp" bidirectionalCodec="PCMU"/>', texml).group(1)
    assert stream == url(server, "telnyx") + "?token=" + TELNYX_TOKEN
    caller = await TelnyxCaller.dial(http, stream)
    await until(lambda: caller.marks_echoed, what="greeting played")
    await caller.hang_up()
    assert spelled_like_start(transcribe(stt, caller.heard_audio()), GREETING) >= 0.75
