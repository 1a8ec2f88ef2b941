"""The gateway's doors against the re-probe of issue 25 (N7, N10, N12-N15), on loopback with real sockets.

Each test is a finding's regression test: it failed on the code the finding was reported against (1290023).
"""
import argparse
import asyncio
import json

import aiohttp
import pytest

from phone_callers import AsteriskCaller, TwilioCaller, finished_calls, until
from realtime_client import RealtimeClient
from redis_server import RedisServer
from streaming.transports.phone.audiosocket import AUDIOSOCKET
from streaming.transports.phone.twilio import twilio_signature

KEY = "sk-doors-test"
FORM = {"CallSid": "CA7", "AccountSid": "AC1", "From": "+15551230000", "To": "+15559870000"}


@pytest.fixture
async def http():
    async with aiohttp.ClientSession() as session:
        yield session


async def mint(http, server, **body) -> str:
    async with http.post(server.url + "/v1/realtime/client_secrets", headers={"Authorization": "Bearer " + KEY},
                         json=body) as response:
        assert response.status == 200
        return (await response.json())["value"]


def with_secret(secret: str) -> tuple[str, ...]:
    return ("realtime", "openai-insecure-api-key." + secret)


# ---- N7: half-open connections time out, and their number is bounded ---------------------------------------

async def half_open(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A connection that sends half a request head and then nothing."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    await writer.drain()
    return reader, writer


async def closed_by_server(reader: asyncio.StreamReader) -> bool:
    try:
        return await asyncio.wait_for(reader.read(), 5) == b""
    except ConnectionResetError:          # closed with our unread half request still in its buffer
        return True
    except TimeoutError:
        return False


async def test_n7_a_half_open_connection_is_closed(server_factory):
    server = server_factory(http_idle_timeout_s=1.0)
    reader, writer = await half_open(server.port)
    assert await asyncio.wait_for(reader.read(), 30) == b""       # closed by the server, nothing answered
    writer.close()


async def test_n7_the_generator_server_closes_half_open_connections_too(assistant):
    from aiohttp import web

    from assistant.generator_server import GeneratorConfig, GeneratorService, create_app
    from assistant.http_limits import BoundedRunner

    runner = BoundedRunner(create_app(GeneratorService(assistant, GeneratorConfig(port=0), "parley-home")),
                           max_connections=20, idle_timeout_s=1.0)
    await runner.setup()
    try:
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        port = runner.addresses[0][1]
        reader, writer = await half_open(port)
        assert await asyncio.wait_for(reader.read(), 30) == b""
        writer.close()
        held = [await half_open(port) for _ in range(40)]
        assert sum(await asyncio.gather(*(closed_by_server(r) for r, _ in held))) >= 20
        for _, w in held:
            w.close()
        assert (await trickled_body(port, "/v1/chat/completions")).startswith(b"HTTP/1.1 408")   # a slow body too
    finally:
        await runner.cleanup()


async def test_n7_past_the_connection_bound_health_checks_and_sessions_go_on(server_factory, http):
    server = server_factory(max_connections=20)
    client = await RealtimeClient.connect(server.ws_url)
    await client.wait_for("session.created")
    held = [await half_open(server.port) for _ in range(40)]
    for _ in range(3):                                  # each new request gets a place an idle connection held
        async with http.get(server.url + "/healthz", headers={"Connection": "close"}) as response:
            assert response.status == 200
    await client.send({"type": "conversation.item.retrieve", "item_id": "none"})
    await client.wait_for("error", where=lambda e: e["error"]["code"] == "item_not_found")
    closed = await asyncio.gather(*(closed_by_server(reader) for reader, _ in held))
    assert sum(closed) >= 20                      # the oldest idle ones made room
    for _, writer in held:
        writer.close()
    await client.close()


async def trickled_body(port: int, path: str) -> bytes:
    """A POST whose head arrives whole and whose body then comes a byte every 0.2 s: what the server answers
    before it closes the connection (b"" if it closes without an answer; a 60 s cap, then a failure)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    body = json.dumps({"messages": [{"role": "user", "content": "hi"}]}).encode() * 20
    writer.write(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 f"Content-Length: {len(body)}\r\n\r\n".encode())

    async def trickle():
        for byte in body:
            writer.write(bytes([byte]))
            await writer.drain()
            await asyncio.sleep(0.2)
    sender = asyncio.create_task(trickle())
    try:
        return await asyncio.wait_for(reader.read(), 60)
    finally:
        sender.cancel()
        await asyncio.gather(sender, return_exceptions=True)
        writer.close()


async def test_a_trickled_body_gets_408_and_the_connection_is_closed(server_factory, http):
    server = server_factory(http_idle_timeout_s=1.0)
    answer = await trickled_body(server.port, "/v1/realtime/client_secrets")
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408"), answer[:200]
    assert json.loads(body)["error"]["code"] == "request_timeout"
    async with http.post(server.url + "/v1/realtime/client_secrets", json={}) as response:   # others go on
        assert response.status == 200 and (await response.json())["value"]


# ---- N10: only the credential that created a session resumes it ---------------------------------------------

async def test_n10_a_secret_minted_for_nothing_does_not_take_over_a_session(server_factory, http):
    server = server_factory(api_key=KEY, options=argparse.Namespace(phone_greeting=""))
    owner = await RealtimeClient.connect(server.ws_url, protocols=with_secret(await mint(http, server)))
    session_id = (await owner.wait_for("session.created"))["session"]["id"]
    await owner.send({"type": "conversation.item.create", "item": {
        "type": "message", "role": "user", "content": [{"type": "input_text", "text": "my door code is 4711"}]}})
    await owner.wait_for("conversation.item.added")

    thief = await RealtimeClient.connect(server.ws_url + "?session_id=" + session_id,
                                         protocols=with_secret(await mint(http, server)))
    created = await thief.wait_for("session.created")
    assert created["session"]["id"] != session_id                # a new session, none of the owner's history
    assert not thief.of_type("conversation.item.added") and not owner.closed.is_set()
    await thief.close()

    # the key holder mints a secret for that session: its client gets it back (as after a dropped connection)
    bound = await mint(http, server, session={"type": "realtime", "id": session_id})
    again = await RealtimeClient.connect(server.ws_url + "?session_id=" + session_id, protocols=with_secret(bound))
    assert (await again.wait_for("session.created"))["session"]["id"] == session_id
    await again.close()
    await owner.close()


# ---- N12: a lone surrogate in typed text is refused, and the next turn works ---------------------------------

async def test_n12_a_lone_surrogate_gets_a_clear_error_and_the_next_turn_works(live_server, needs_assistant):
    client = await RealtimeClient.connect(live_server.ws_url)
    await client.wait_for("session.created")
    await client.send_raw('{"type": "conversation.item.create", "item": {"type": "message", "role": "user", '
                          '"content": [{"type": "input_text", "text": "turn on the \\ud800 light"}]}}')
    error = await client.wait_for("error")
    assert error["error"]["type"] == "invalid_request_error" and "surrogate" in error["error"]["message"]
    await client.send({"type": "conversation.item.create", "item": {
        "type": "message", "role": "user", "content": [{"type": "input_text", "text": "what time is it"}]}})
    start = len(client.events)
    await client.send({"type": "response.create", "response": {"output_modalities": ["text"]}})
    done = await client.wait_for("response.done", start=start)
    assert done["response"]["status"] == "completed", done
    assert len(client.of_type("error")) == 1
    await client.close()


# ---- N13: a store outage refuses with 503 and leaves the client secret unspent -------------------------------

async def test_n13_a_store_outage_answers_503_and_keeps_the_secret(server_factory, http, tmp_path):
    redis = RedisServer(tmp_path)
    redis.start()
    server = server_factory(api_key=KEY, store=redis.url, options=argparse.Namespace(phone_greeting=""))
    try:
        secret = await mint(http, server)
        redis.stop()
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await RealtimeClient.connect(server.ws_url, protocols=with_secret(secret))
        assert refused.value.status == 503
        assert int(refused.value.headers["Retry-After"]) > 0
        redis.start()
        client = await RealtimeClient.connect(server.ws_url, protocols=with_secret(secret))
        await client.wait_for("session.created")
        await client.close()
    finally:
        server.stop()           # now, not at the session's end: its gateway would warn of the stopped store
        redis.stop()            # into every later test's log


# ---- N14: open doors have a quota of their own ----------------------------------------------------------------

async def test_n14_open_doors_cannot_take_every_session_place(server_factory):
    server = server_factory(api_key=KEY, max_sessions=4,
                            options=argparse.Namespace(phone_greeting="", audiosocket_port=0))
    callers = [await AsteriskCaller.dial("127.0.0.1", server.app[AUDIOSOCKET].port) for _ in range(4)]

    def refused() -> int:
        return sum(1 for r in finished_calls(server) if r.error and "session_limit" in r.error)
    await until(lambda: len(server.ctx.sessions) + refused() == 4, what="every call answered or refused")
    assert len(server.ctx.sessions) == 2                          # the open doors' quota: half the places
    client = await RealtimeClient.connect(server.ws_url, headers={"Authorization": "Bearer " + KEY})
    await client.wait_for("session.created")
    await client.close()
    for caller in callers:
        await caller.hang_up()


# ---- N15: which pages are trusted, and Twilio signatures are used once ---------------------------------------

async def test_n15_loopback_pages_on_other_ports_are_not_trusted(server_factory, http):
    server = server_factory(allowed_origins=("http://localhost:5173",))
    for origin in ("http://127.0.0.1:1", "http://localhost:9999"):          # any other local program's page
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await http.ws_connect(server.ws_url, headers={"Origin": origin})
        assert refused.value.status == 403
    for origin in (server.url, f"http://localhost:{server.port}", "http://localhost:5173"):   # its own; configured
        ws = await http.ws_connect(server.ws_url, headers={"Origin": origin})
        assert json.loads((await ws.receive(timeout=10)).data)["type"] == "session.created"
        await ws.close()


async def test_n15_a_twilio_signature_answers_one_webhook_and_one_stream(server_factory, http):
    server = server_factory(options=argparse.Namespace(phone_greeting="", twilio_auth_token="s3cret"))
    signed = {"X-Twilio-Signature": twilio_signature("s3cret", server.url + "/twilio/voice", FORM)}
    async with http.post(server.url + "/twilio/voice", data=FORM, headers=signed) as response:
        assert response.status == 200
    async with http.post(server.url + "/twilio/voice", data=FORM, headers=signed) as replayed:
        assert replayed.status == 403

    stream = f"ws://127.0.0.1:{server.port}/twilio/stream"
    handshake = {"X-Twilio-Signature": twilio_signature("s3cret", stream, {})}   # the same for every stream
    unknown = await TwilioCaller.dial(http, stream, headers=handshake, call_sid="CA-never-answered")
    await asyncio.wait_for(unknown.closed.wait(), 20)
    assert unknown.close_code == 1008
    caller = await TwilioCaller.dial(http, stream, headers=handshake, call_sid=FORM["CallSid"])
    await until(lambda: any(s.transport == "twilio" for s in server.ctx.sessions), what="the call answered")
    second = await TwilioCaller.dial(http, stream, headers=handshake, call_sid=FORM["CallSid"])
    await asyncio.wait_for(second.closed.wait(), 20)
    assert second.close_code == 1008
    for c in (unknown, caller, second):
        await c.hang_up()
