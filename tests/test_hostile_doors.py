"""Every door of a live server against hostile clients on loopback (issue 11: F1, F7, F9, F12, session limit).

Each test is a finding's regression test: it failed on the code the finding was reported against.
"""
import argparse
import asyncio
import base64
import json
import logging
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

import aiohttp
import pytest

from phone_callers import finished_calls, until
from realtime_client import RealtimeClient, sessions_ended
from streaming.server import MAX_SPENT_SECRETS, check_doors, parse_config
from streaming.transports.phone.calls import PHONE_CALLS

KEY = "sk-hostile-test"
FORM = {"CallSid": "CA42", "From": "+15551230000", "To": "+15559870000"}
START = {"event": "start", "streamSid": "MZ1", "start": {
    "streamSid": "MZ1", "callSid": "CA1", "customParameters": {},
    "mediaFormat": {"encoding": "audio/x-mulaw", "sampleRate": 8000, "channels": 1}}}


@pytest.fixture(scope="module")
def keyed(server_factory):
    """A server with an API key and no Twilio token: every door must still want a credential."""
    return server_factory(api_key=KEY, options=argparse.Namespace(phone_greeting=""))


@pytest.fixture
async def http():
    async with aiohttp.ClientSession() as session:
        yield session


async def raw_request(port: int, head: bytes) -> int:
    """Send raw header bytes (invalid UTF-8 included) and return the HTTP status."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(head)
    await writer.drain()
    status = int((await reader.readline()).split()[1])
    writer.close()
    return status


# ---- F1: every door is locked when a credential is configured ------------------------------------------

async def test_f1_twilio_webhook_needs_the_api_key(keyed, http):
    async with http.post(keyed.url + "/twilio/voice", data=FORM) as response:
        assert response.status == 403
    basic = base64.b64encode(f"parley:{KEY}".encode()).decode()   # https://parley:KEY@host/twilio/voice
    async with http.post(keyed.url + "/twilio/voice", data=FORM, headers={"Authorization": "Basic " + basic}) as r:
        assert r.status == 200
        parameters = {p.get("name"): p.get("value") for p in ET.fromstring(await r.text()).iter("Parameter")}
    assert parameters["From"] == FORM["From"] and parameters["api_key"].startswith("ek_")


async def test_f1_twilio_stream_without_the_key_gets_no_session(keyed, http):
    ws = await http.ws_connect(f"ws://127.0.0.1:{keyed.port}/twilio/stream")
    await ws.send_str(json.dumps(START))
    message = await ws.receive(timeout=10)
    assert message.type == aiohttp.WSMsgType.CLOSE and ws.close_code == 1008
    await until(lambda: any(r.error and "api_key" in r.error for r in finished_calls(keyed)), what="refusal")
    assert not keyed.ctx.sessions


async def test_f1_twilio_stream_with_the_twiml_secret_is_answered(keyed, http):
    basic = base64.b64encode(f"x:{KEY}".encode()).decode()
    async with http.post(keyed.url + "/twilio/voice", data=FORM, headers={"Authorization": "Basic " + basic}) as r:
        secret = {p.get("name"): p.get("value") for p in ET.fromstring(await r.text()).iter("Parameter")}["api_key"]
    for attempt in range(2):                                  # the secret opens one call only
        ws = await http.ws_connect(f"ws://127.0.0.1:{keyed.port}/twilio/stream")
        start = json.loads(json.dumps(START))
        start["start"]["callSid"] = f"CA-secret-{attempt}"
        start["start"]["customParameters"] = {"api_key": secret, "From": "+1555"}
        await ws.send_str(json.dumps(start))
        if attempt == 0:
            await until(lambda: any(r.call_id == "CA-secret-0" for r in keyed.app[PHONE_CALLS].active.values()),
                        what="call answered")
            record = next(r for r in keyed.app[PHONE_CALLS].active.values() if r.call_id == "CA-secret-0")
            assert record.parameters == {"From": "+1555"}          # the credential is not kept or logged
            await ws.close()
        else:
            message = await ws.receive(timeout=10)
            assert message.type == aiohttp.WSMsgType.CLOSE and ws.close_code == 1008


async def test_f1_a_twiml_secret_opens_one_call_on_any_gateway(server_factory, http, tmp_path):
    """Behind a load balancer the webhook and the stream may reach different gateways: the stream's secret is
    spent in the shared store, so it cannot open a second call anywhere."""
    store = f"sqlite://{tmp_path / 'state.db'}"
    minting, other = (server_factory(api_key=KEY, store=store, options=argparse.Namespace(phone_greeting=""))
                      for _ in range(2))
    basic = base64.b64encode(f"x:{KEY}".encode()).decode()
    async with http.post(minting.url + "/twilio/voice", data=FORM, headers={"Authorization": "Basic " + basic}) as r:
        secret = {p.get("name"): p.get("value") for p in ET.fromstring(await r.text()).iter("Parameter")}["api_key"]
    for attempt, gateway in enumerate((other, minting, other)):
        ws = await http.ws_connect(f"ws://127.0.0.1:{gateway.port}/twilio/stream")
        start = json.loads(json.dumps(START))
        start["start"]["callSid"] = f"CA-shared-{attempt}"
        start["start"]["customParameters"] = {"api_key": secret}
        await ws.send_str(json.dumps(start))
        if attempt == 0:
            await until(lambda: any(r.call_id == "CA-shared-0" for r in other.app[PHONE_CALLS].active.values()),
                        what="call answered")
            await ws.close()
        else:
            message = await ws.receive(timeout=10)
            assert message.type == aiohttp.WSMsgType.CLOSE and ws.close_code == 1008
    assert any(r.error and "already used" in r.error for r in finished_calls(minting))


def test_f1_refuses_open_doors_on_a_reachable_address():
    with pytest.raises(SystemExit, match="open doors"):
        check_doors(parse_config(["--host", "0.0.0.0"]))
    with pytest.raises(SystemExit, match="AudioSocket"):
        check_doors(parse_config(["--host", "0.0.0.0", "--api-key", KEY]))      # AudioSocket has no credential
    check_doors(parse_config(["--host", "0.0.0.0", "--api-key", KEY, "--audiosocket-port", "off"]))
    check_doors(parse_config(["--host", "0.0.0.0", "--insecure"]))
    check_doors(parse_config(["--host", "127.0.0.1"]))
    serve = subprocess.run([sys.executable, "-m", "streaming.server", "--host", "0.0.0.0", "--port", "0"],
                           capture_output=True, text=True, timeout=120)
    assert serve.returncode != 0 and "refusing to listen on 0.0.0.0" in serve.stderr


# ---- F7: cross-site WebSocket hijacking and DNS rebinding --------------------------------------------------

async def test_f7_foreign_origins_and_hosts_are_refused(live_server, http):
    for headers in ({"Origin": "http://evil.example"}, {"Origin": "null"},
                    {"Host": "rebound.evil.example:8080"}):
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await http.ws_connect(live_server.ws_url, headers=headers)
        assert refused.value.status == 403
    for origin in (live_server.url, f"http://localhost:{live_server.port}"):   # the page, under either name
        ws = await http.ws_connect(live_server.ws_url, headers={"Origin": origin})
        assert json.loads((await ws.receive(timeout=10)).data)["type"] == "session.created"
        await ws.close()
    async with http.get(live_server.url + "/healthz", headers={"Host": "rebound.evil.example"}) as response:
        assert response.status == 403
    await sessions_ended(live_server)


# ---- F9: odd credentials get 401/403, not 500 --------------------------------------------------------------

async def test_f9_invalid_utf8_bearer_and_non_ascii_signature(keyed, server_factory):
    head = (b"GET /v1/realtime HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
            b"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            b"Authorization: Bearer \xff\xfe\xc3\x28\r\n\r\n")
    assert await raw_request(keyed.port, head) == 401
    signed = server_factory(options=argparse.Namespace(twilio_auth_token="twilio-token", phone_greeting=""))
    body = b"CallSid=CA1"
    head = (b"POST /twilio/voice HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
            b"X-Twilio-Signature: \xc3\xa9t\xc3\xa9\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
    assert await raw_request(signed.port, head) == 403


# ---- F12: client secrets are single-use and short-lived; the key stays out of URLs ------------------------

async def test_f12_client_secrets_are_single_use_and_short_lived(keyed, http):
    async with http.post(keyed.url + "/v1/realtime/client_secrets", headers={"Authorization": "Bearer " + KEY},
                         json={"expires_after": {"anchor": "created_at", "seconds": 7200}}) as response:
        secret = await response.json()
    assert secret["expires_at"] <= __import__("time").time() + 600
    client = await RealtimeClient.connect(keyed.ws_url, protocols=("realtime", "openai-insecure-api-key." + secret["value"]))
    await client.wait_for("session.created")
    with pytest.raises(aiohttp.WSServerHandshakeError) as again:
        await RealtimeClient.connect(keyed.ws_url, protocols=("realtime", "openai-insecure-api-key." + secret["value"]))
    assert again.value.status == 401
    await client.close()
    with pytest.raises(aiohttp.WSServerHandshakeError) as in_url:       # the API key itself is not taken from URLs
        await RealtimeClient.connect(keyed.ws_url + "?api_key=" + KEY)
    assert in_url.value.status == 401


async def test_f12_a_client_secret_works_on_any_gateway_once(server_factory, http, tmp_path):
    """Behind a load balancer the secret is minted on one gateway and used on another: both share the key and
    the store, so the other one accepts it, and a second use fails on every gateway."""
    store = f"sqlite://{tmp_path / 'state.db'}"
    minting, other = (server_factory(api_key=KEY, store=store, options=argparse.Namespace(phone_greeting=""))
                      for _ in range(2))
    async with http.post(minting.url + "/v1/realtime/client_secrets", headers={"Authorization": "Bearer " + KEY},
                         json={}) as response:
        secret = (await response.json())["value"]
    client = await RealtimeClient.connect(other.ws_url + "?client_secret=" + secret)
    await client.wait_for("session.created")
    for gateway in (minting, other):
        with pytest.raises(aiohttp.WSServerHandshakeError) as again:
            await RealtimeClient.connect(gateway.ws_url + "?client_secret=" + secret)
        assert again.value.status == 401
    forged = secret[:-1] + ("0" if secret[-1] != "0" else "1")
    with pytest.raises(aiohttp.WSServerHandshakeError) as bad:
        await RealtimeClient.connect(minting.ws_url + "?client_secret=" + forged)
    assert bad.value.status == 401
    await client.close()


async def test_f12_a_gateway_that_only_verifies_secrets_forgets_the_expired_ones(server_factory, http, tmp_path):
    """Its record of spent secrets fills with expired ones that nothing on this gateway mints to prune: once full,
    they are dropped, and a fresh secret from another gateway still gets in."""
    store = f"sqlite://{tmp_path / 'state.db'}"
    minting, other = (server_factory(api_key=KEY, store=store, options=argparse.Namespace(phone_greeting=""))
                      for _ in range(2))
    other.ctx.spent_secrets = {f"spent-{n}": 1.0 for n in range(MAX_SPENT_SECRETS)}     # all expired in 1970
    async with http.post(minting.url + "/v1/realtime/client_secrets", headers={"Authorization": "Bearer " + KEY},
                         json={}) as response:
        secret = (await response.json())["value"]
    client = await RealtimeClient.connect(other.ws_url + "?client_secret=" + secret)
    await client.wait_for("session.created")
    assert len(other.ctx.spent_secrets) == 1
    await client.close()


# ---- session limit -------------------------------------------------------------------------------------------

async def test_beyond_capacity_new_sessions_are_refused_with_503(server_factory, http):
    server = server_factory(max_sessions=2)
    first = [await RealtimeClient.connect(server.ws_url) for _ in range(2)]
    for client in first:
        await client.wait_for("session.created")
    async with http.get(server.ws_url.replace("ws://", "http://"), headers={
            "Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}) as response:
        assert response.status == 503 and int(response.headers["Retry-After"]) > 0
        assert (await response.json())["error"]["code"] == "session_limit"
    async with http.get(f"http://127.0.0.1:{server.port}/twilio/stream", headers={
            "Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}) as response:
        assert response.status == 503
    for client in first:                                  # the sessions already held go on undisturbed
        await client.send({"type": "conversation.item.retrieve", "item_id": "none"})
        await client.wait_for("error", where=lambda e: e["error"]["code"] == "item_not_found")
    await first[0].close()
    await until(lambda: len(server.ctx.sessions) == 1, what="a place freed")
    again = await RealtimeClient.connect(server.ws_url)
    await again.wait_for("session.created")
    for client in (first[1], again):
        await client.close()


# ---- F3: a flood of text on one session does not stall the others -----------------------------------------

async def _loop_work(stop: asyncio.Event, work: list[float]) -> None:
    """On the server's loop: the CPU time its thread spends between two wake-ups of a 10 ms sleep, that is in the
    callbacks run in between; one that computes that long holds up every session on the loop. Wall-clock lag
    measured this too much: on a loaded machine (the suite shares two cores with other jobs) the loop thread waits
    for a core or the GIL for 60-500 ms while computing nothing (1 ms or less), and a reference thread did not
    always wait at the same moments."""
    while not stop.is_set():
        started = time.thread_time()
        await asyncio.sleep(0.01)
        work.append(time.thread_time() - started)


async def test_f3_a_text_flood_leaves_the_event_loop_responsive(live_server, needs_assistant):
    words = "twenty five thousand three hundred and forty two point five minutes and a half dozen, "
    text = (words * 200)[:16_000]                      # the most one item may hold, all number words
    flooder = await RealtimeClient.connect(live_server.ws_url)
    other = await RealtimeClient.connect(live_server.ws_url)
    for client in (flooder, other):
        await client.wait_for("session.created")
    stop, work = asyncio.Event(), []
    probe = asyncio.run_coroutine_threadsafe(_loop_work(stop, work), live_server.loop)
    try:
        for _ in range(4):
            for _ in range(10):
                await flooder.send({"type": "conversation.item.create", "item": {
                    "type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}})
            await flooder.send({"type": "response.create", "response": {"output_modalities": ["text"]}})
            await flooder.wait_for("response.done", timeout=120)
            flooder.events = [e for e in flooder.events if e["type"] != "response.done"]
        await other.send({"type": "conversation.item.create", "item": {"type": "message", "role": "user",
                          "content": [{"type": "input_text", "text": "what is seven times six"}]}})
        await other.send({"type": "response.create", "response": {"output_modalities": ["text"]}})
        done = await other.wait_for("response.done", timeout=120)
    finally:
        live_server.loop.call_soon_threadsafe(stop.set)
        await asyncio.wrap_future(probe)
    assert done["response"]["status"] == "completed"
    assert len(work) >= 5                               # the probe ran while the flood was handled
    assert max(work) < 0.050, f"the loop computed {max(work) * 1000:.0f} ms without a break"
    assert [e for e in flooder.events if e["type"] == "error"] == []
    for client in (flooder, other):
        await client.close()


# ---- F10: what a caller sent cannot forge log lines ---------------------------------------------------------

async def test_f10_a_newline_in_a_call_sid_stays_on_its_log_line(live_server, http, caplog):
    caplog.set_level(logging.INFO)
    start = json.loads(json.dumps(START))
    start["start"]["callSid"] = "CA1\n2026-12-01 INFO parley.server: admin logged in"
    start["start"]["customParameters"] = {"From": "+1\r\nforged"}
    ws = await http.ws_connect(f"ws://127.0.0.1:{live_server.port}/twilio/stream")
    await ws.send_str(json.dumps(start))
    await until(lambda: any("admin logged in" in r.getMessage() for r in caplog.records), what="call logged")
    await ws.close()
    await until(lambda: any("ended" in r.getMessage() and "admin" in r.getMessage() for r in caplog.records),
                what="call end logged")
    logged = [r.getMessage() for r in caplog.records if "admin logged in" in r.getMessage() or "forged" in r.getMessage()]
    assert logged and all("\n" not in line and "\r" not in line for line in logged)
