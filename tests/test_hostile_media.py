"""Callers whose audio comes faster than real time, on every door that takes live audio: the phone lines
(Twilio, Telnyx, Vonage, Plivo media streams and Asterisk AudioSocket), WebRTC calls and MQTT satellites
(Wyoming takes a request's audio at any speed: at most 60 s of it, and its turn detection runs off the loop).

Live audio costs the server's event loop about 15 ms per second of it (turn detection runs frame by frame), so at
e645f83 five minutes of audio sent in a moment held the loop for seconds at a time. Each flood test fails there:
the flood was taken whole. A line that catches up after a stall passes on both."""

import argparse
import asyncio

import aiohttp
import pytest

from mqtt_devices import SatelliteDevice, login
from phone_callers import (AsteriskCaller, PlivoCaller, TelnyxCaller, TwilioCaller, VonageCaller, finished_calls,
                           until)
from streaming.audio_pace import AUDIO_HEAD_START_S
from streaming.session import Session
from streaming.transports.mqtt.satellite import SATELLITE_RATE, SatelliteService
from streaming.transports.phone.audiosocket import AUDIOSOCKET
from webrtc_client import WebRTCClient

FLOOD_S = 120           # two minutes of audio, sent as fast as the socket takes it


@pytest.fixture(scope="module")
def phones(server_factory):
    return server_factory(options=argparse.Namespace(phone_greeting="", audiosocket_port=0))


@pytest.fixture
async def http():
    async with aiohttp.ClientSession() as session:
        yield session


async def dial(server, http, door: str):
    url = f"ws://127.0.0.1:{server.port}/{door}/stream"
    if door == "audiosocket":
        return await AsteriskCaller.dial("127.0.0.1", server.app[AUDIOSOCKET].port)
    return await {"twilio": TwilioCaller, "telnyx": TelnyxCaller, "vonage": VonageCaller,
                  "plivo": PlivoCaller}[door].dial(http, url)


async def finished_record(server, matches):
    """The server's record of the call `matches` picks, once the call has finished."""
    await until(lambda: any(matches(r) for r in finished_calls(server)), 25, "the call's record")
    return [r for r in finished_calls(server) if matches(r)][-1]


@pytest.mark.parametrize("door", ["twilio", "telnyx", "vonage", "plivo", "audiosocket"])
async def test_a_phone_line_that_sends_audio_faster_than_real_time_is_hung_up(phones, http, door):
    caller = await dial(phones, http, door)
    await caller.flood(FLOOD_S)
    await until(caller.closed.is_set, 60, "the server hangs up")
    record = await finished_record(phones, lambda r: r.transport == door)
    assert record.error.startswith("audio_too_fast"), record
    if door == "audiosocket":
        assert caller.hung_up_by_server
    else:
        assert caller.ws.close_code == 1008
    await caller.hang_up()


async def test_a_phone_line_that_catches_up_after_a_stall_goes_on(phones, http):
    """A line that held a few seconds (a network stall) and then delivers them at once is still a phone line."""
    caller = await dial(phones, http, "twilio")
    await caller.flood(AUDIO_HEAD_START_S / 2)
    await asyncio.sleep(1)
    assert not caller.closed.is_set()
    await caller.hang_up()
    record = await finished_record(phones, lambda r: r.call_id == caller.call_sid)
    assert record.error is None and record.ended


async def errors_counted(server, code: str) -> float:
    """The server's count of client errors with this code, from its /metrics."""
    async with aiohttp.ClientSession() as http, http.get(server.url + "/metrics") as response:
        text = await response.text()
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
               if line.startswith(f'parley_errors_total{{code="{code}"}}'))


async def test_a_webrtc_caller_whose_microphone_runs_faster_than_real_time_is_hung_up(live_server):
    before = await errors_counted(live_server, "audio_too_fast")
    client = await WebRTCClient.call(live_server.url + "/v1/realtime/calls")
    await client.wait_for("session.created", timeout=30)
    client.microphone.rush()
    await until(lambda: not live_server.ctx.calls, 60, "the server hangs up")
    assert await errors_counted(live_server, "audio_too_fast") == before + 1
    await client.close()


async def test_a_satellite_that_sends_audio_faster_than_real_time_is_told_and_goes_on(broker, engines):
    service = SatelliteService(lambda config, device_id: Session(engines, config), Session.close,
                               login(broker, "parley"))
    await service.start()
    try:
        await asyncio.wait_for(service.connected.wait(), 10)
        async with SatelliteDevice(broker, "kitchen") as device:
            second = bytes(SATELLITE_RATE * 2)          # one second of silence per message
            for _ in range(FLOOD_S):
                await device.publish("audio/in", second, qos=0)
            error = await device.next_event("error", 60)
            assert error["code"] == "audio_too_fast", error
            assert list(service.satellites) == ["kitchen"]
    finally:
        await service.close()
