"""POST /twilio/voice over real HTTP on loopback: TwiML, stream URL, caller parameters, signatures."""

import xml.etree.ElementTree as ET

import aiohttp
import pytest
from aiohttp import web

from streaming.transports.phone import twilio
from streaming.transports.phone.calls import PHONE_SETTINGS, PhoneSettings
from streaming.transports.phone.twilio import twilio_signature

FORM = {"CallSid": "CA42", "AccountSid": "AC1", "From": "+15551230000", "To": "+15559870000",
        "CallStatus": "ringing", "Direction": "inbound"}


@pytest.fixture
async def webhook():
    """Serve the webhook with the given settings; yields (start(settings) -> base URL)."""
    runners = []

    async def start(settings: PhoneSettings) -> str:
        app = web.Application()
        app[PHONE_SETTINGS] = settings
        twilio.add_routes(app)
        runner = web.AppRunner(app)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        runners.append(runner)
        return f"http://127.0.0.1:{runner.addresses[0][1]}"

    yield start
    for runner in runners:
        await runner.cleanup()


def stream_of(twiml: str) -> ET.Element:
    root = ET.fromstring(twiml)
    assert root.tag == "Response" and root[0].tag == "Connect"
    return root.find("./Connect/Stream")


async def test_twiml_connects_the_call_to_the_stream_with_caller_parameters(webhook):
    base = await webhook(PhoneSettings())
    async with aiohttp.ClientSession() as http:
        async with http.post(base + "/twilio/voice", data=FORM) as response:
            assert response.status == 200 and response.content_type == "text/xml"
            stream = stream_of(await response.text())
        assert stream.get("url") == base.replace("http://", "ws://") + "/twilio/stream"
        assert {p.get("name"): p.get("value") for p in stream.findall("Parameter")} == {
            "From": "+15551230000", "To": "+15559870000"}
        # Behind a TLS-terminating proxy (ngrok, a load balancer) the stream must be wss:// on the public host.
        async with http.post(base + "/twilio/voice", data=FORM,
                             headers={"X-Forwarded-Proto": "https", "X-Forwarded-Host": "abc.ngrok.app"}) as response:
            assert stream_of(await response.text()).get("url") == "wss://abc.ngrok.app/twilio/stream"


async def test_signature_is_checked_when_an_auth_token_is_configured(webhook):
    public = "https://example.com/parley"             # behind a proxy that serves Parley under a path
    base = await webhook(PhoneSettings(twilio_auth_token="s3cret", public_url=public))
    good = twilio_signature("s3cret", public + "/twilio/voice", FORM)
    async with aiohttp.ClientSession() as http:
        async with http.post(base + "/twilio/voice", data=FORM, headers={"X-Twilio-Signature": good}) as response:
            assert response.status == 200
            assert stream_of(await response.text()).get("url") == "wss://example.com/parley/twilio/stream"
        for headers in ({"X-Twilio-Signature": twilio_signature("wrong", public + "/twilio/voice", FORM)}, {}):
            async with http.post(base + "/twilio/voice", data=FORM, headers=headers) as response:
                assert response.status == 403
        tampered = dict(FORM, From="+15550000000")
        async with http.post(base + "/twilio/voice", data=tampered, headers={"X-Twilio-Signature": good}) as response:
            assert response.status == 403


async def test_signature_over_the_url_twilio_saw_behind_a_proxy(webhook):
    base = await webhook(PhoneSettings(twilio_auth_token="s3cret"))
    proxy = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "abc.ngrok.app"}
    signed = twilio_signature("s3cret", "https://abc.ngrok.app:443/twilio/voice?tenant=7", FORM)
    async with aiohttp.ClientSession() as http:
        async with http.post(base + "/twilio/voice?tenant=7", data=FORM,
                             headers={**proxy, "X-Twilio-Signature": signed}) as response:
            assert response.status == 200
