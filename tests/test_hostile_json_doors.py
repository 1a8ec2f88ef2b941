"""Every door that parses a client's JSON bounds it before it parses it (streaming.client_json): a body over its
bytes or values gets a clear refusal (HTTP 413, an error event) and the server and another session go on; the
largest body a client legitimately sends is still accepted."""
import asyncio
import json

import aiohttp
import pytest
from wyoming.error import Error
from wyoming.event import async_read_event

from assistant.tool_declarations import MAX_DECLARED_CHARS, MAX_TOOLS, check_declarations
from assistant.tools import ToolRunner
from realtime_client import RealtimeClient
from streaming.server import MAX_CONFIG_BYTES, MAX_CONFIG_VALUES
from streaming.transports.realtime import MAX_MESSAGE_VALUES, MAX_TEXT_CHARS
from streaming.transports.webrtc import MAX_LIVE_BYTES
from streaming.transports.wyoming import MAX_EVENT_VALUES, WyomingService
from test_webrtc_calls import calls_ended
from webrtc_client import CallRefused, WebRTCClient


def largest_config() -> dict:
    """A session config at its own bounds: 16,000 characters of instructions and 128 tools of nearly 64 KiB of
    declared characters (what session.update also takes)."""
    def tools(description: int) -> list[dict]:
        return [{"type": "function", "name": f"tool_{n:03d}",
                 "description": ("Ring a bell, twice. " * 40)[:description],
                 "parameters": {"type": "object", "properties": {"room": {"type": "string"}}}}
                for n in range(MAX_TOOLS)]
    description = MAX_DECLARED_CHARS // MAX_TOOLS
    while True:
        try:
            check_declarations([(f"tools[{n}]", tool) for n, tool in enumerate(tools(description))], "tools")
            break
        except ValueError:
            description -= 1
    return {"type": "realtime", "instructions": ("Answer in one short sentence, and say the room. " * 400)[
        :MAX_TEXT_CHARS], "tools": tools(description)}


def over_values() -> dict:
    """A config within MAX_CONFIG_BYTES that holds more than MAX_CONFIG_VALUES commas and brackets."""
    return {"type": "realtime", "x": [[]] * (MAX_CONFIG_VALUES // 2 + 1)}


@pytest.fixture
async def http():
    async with aiohttp.ClientSession() as session:
        yield session


async def another_session_is_answered(server) -> None:
    client = await RealtimeClient.connect(server.ws_url)
    await client.wait_for("session.created")
    await client.send({"type": "session.update", "session": {"instructions": "Be brief."}})
    assert (await client.wait_for("session.updated"))["session"]["instructions"] == "Be brief."
    await client.close()


def test_the_largest_config_is_within_the_bounds():
    body = json.dumps({"session": largest_config()})
    assert 80_000 < len(body) < MAX_CONFIG_BYTES


# ---- POST /v1/realtime/client_secrets ----------------------------------------------------------------------

@pytest.mark.parametrize("body, status, says", [
    (json.dumps({"session": {"type": "realtime", "instructions": "x" * MAX_CONFIG_BYTES}}), 413, "at most"),
    (json.dumps({"session": over_values()}), 413, "commas and brackets"),
])
async def test_an_over_bound_client_secret_body_is_refused_and_others_go_on(live_server, http, body, status, says):
    async with http.post(live_server.url + "/v1/realtime/client_secrets", data=body,
                         headers={"Content-Type": "application/json"}) as response:
        error = (await response.json())["error"]
        assert response.status == status and error["code"] == "body_too_large" and says in error["message"]
    await another_session_is_answered(live_server)


async def test_the_largest_client_secret_body_is_taken(live_server, http):
    async with http.post(live_server.url + "/v1/realtime/client_secrets",
                         json={"expires_after": {"anchor": "created_at", "seconds": 60},
                               "session": largest_config()}) as response:
        assert response.status == 200 and (await response.json())["value"]


# ---- POST /v1/live/sessions and the session field of POST /v1/realtime/calls -----------------------------

async def test_an_over_bound_live_session_body_is_refused_and_a_call_goes_on(live_server, http):
    sdp = "v=0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\n"
    for session, says in ((over_values(), "commas and brackets"),
                          ({"instructions": "x" * MAX_LIVE_BYTES}, f"at most {MAX_LIVE_BYTES} bytes")):
        async with http.post(live_server.url + "/v1/live/sessions",
                             json={"session": session, "transport": {"type": "webrtc", "sdp": sdp}}) as response:
            error = (await response.json())["error"]
            assert response.status == 413 and error["code"] == "body_too_large" and says in error["message"]
    assert not live_server.ctx.sessions
    live = await WebRTCClient.call(live_server.url + "/v1/live/sessions", live_session={"instructions": "Be brief."})
    assert (await live.wait_for("session.updated", timeout=30))["session"]["instructions"] == "Be brief."
    await live.close()
    await calls_ended(live_server)


async def test_an_over_bound_session_field_of_a_call_is_refused_and_a_call_goes_on(live_server):
    for session in (over_values(), {"instructions": "x" * MAX_CONFIG_BYTES}):
        with pytest.raises(CallRefused) as refused:
            await WebRTCClient.call(live_server.url + "/v1/realtime/calls", form_session=session)
        assert refused.value.status == 413 and "body_too_large" in refused.value.body
    assert not live_server.ctx.sessions
    await another_session_is_answered(live_server)


@pytest.mark.parametrize("door", ["form", "live"])
async def test_the_largest_session_config_starts_a_call(live_server, door):
    config = largest_config()
    if door == "form":
        client = await WebRTCClient.call(live_server.url + "/v1/realtime/calls", form_session=config)
    else:
        client = await WebRTCClient.call(live_server.url + "/v1/live/sessions", live_session=config)
    updated = (await client.wait_for("session.updated", timeout=30))["session"]
    assert updated["instructions"] == config["instructions"] and len(updated["tools"]) == MAX_TOOLS
    await client.close()
    await calls_ended(live_server)


# ---- Realtime messages ---------------------------------------------------------------------------------

async def test_a_realtime_message_over_the_value_bound_is_refused_and_the_largest_config_is_taken(live_server):
    """The Realtime door already held its bound (round 41); its largest legitimate message beside it."""
    client = await RealtimeClient.connect(live_server.ws_url)
    await client.wait_for("session.created")
    await client.send({"type": "session.update", "session": {"x": [[]] * (MAX_MESSAGE_VALUES // 2 + 1)}})
    error = (await client.wait_for("error"))["error"]
    assert error["code"] == "message_too_large" and "commas and brackets" in error["message"]
    await client.send({"type": "session.update", "session": largest_config()})
    updated = (await client.wait_for("session.updated"))["session"]
    assert len(updated["tools"]) == MAX_TOOLS and updated["instructions"].startswith("Answer in one short sentence")
    await client.close()
    await another_session_is_answered(live_server)


# ---- Wyoming header lines --------------------------------------------------------------------------------

@pytest.fixture
async def wyoming(engines):
    service = WyomingService(engines, ToolRunner, host="127.0.0.1", port=0)
    await service.start()
    yield service
    await service.close()


async def info_follows(reader) -> None:
    """Events until `info` (the answer to describe)."""
    while (event := await asyncio.wait_for(async_read_event(reader), 30)) is not None:
        if event.type == "info":
            return
    raise AssertionError("the server hung up before info")


async def test_an_over_bound_wyoming_header_is_a_bad_event_and_others_are_served(wyoming):
    reader, writer = await asyncio.open_connection("127.0.0.1", wyoming.port)
    writer.write(b'{"type": "describe", "x": [' + b"[]," * (MAX_EVENT_VALUES // 2) + b'[]]}\n')
    await writer.drain()
    error = Error.from_event(await asyncio.wait_for(async_read_event(reader), 30))
    assert error.code == "bad_event" and "commas and brackets" in error.text
    writer.close()
    reader, writer = await asyncio.open_connection("127.0.0.1", wyoming.port)
    writer.write(b'{"type": "describe"}\n')
    await writer.drain()
    await info_follows(reader)
    writer.close()


async def test_a_wyoming_header_with_an_inline_text_of_commas_is_served(wyoming):
    """Wyoming's older form carries data in the header line: 16,000 characters of text, all commas, fit."""
    reader, writer = await asyncio.open_connection("127.0.0.1", wyoming.port)
    writer.write(json.dumps({"type": "describe", "data": {"text": "," * 16_000}}).encode() + b"\n")
    await writer.drain()
    await info_follows(reader)
    writer.close()
