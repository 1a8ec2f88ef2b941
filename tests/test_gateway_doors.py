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
