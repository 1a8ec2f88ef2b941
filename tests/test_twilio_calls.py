"""Calls placed against the live server by a Twilio-faithful Media Streams client on loopback.

The server's call registry (app[PHONE_CALLS]) is the server-side observable: what it heard, replied,
which digits and marks it saw, and how each call ended.
"""

import argparse
import asyncio
import json
import re

import aiohttp
import numpy as np
import pytest

from phone_callers import (GREETING, LONG_GREETING, TwilioCaller, finished_calls, live_tasks, phone_audio,
                           transcribe, until, until_transcribed, wait_for_record)
from streaming.transports.phone.calls import GOODBYE
from streaming.transports.phone.twilio import twilio_signature
from transcripts import spelled_like_start



@pytest.fixture(scope="module")
def server(server_factory):
    return server_factory(options=argparse.Namespace(phone_greeting=GREETING))


@pytest.fixture
async def http():
    async with aiohttp.ClientSession() as session:
        yield session


def stream_url(server) -> str:
    return f"ws://127.0.0.1:{server.port}/twilio/stream"


@pytest.mark.parametrize("frames, code, reason", [
    (["{not json"], 1002, "malformed JSON"),
    ([json.dumps({"event": "media", "media": {"payload": ""}})], 1002, "'media' before 'start'"),
    ([json.dumps({"event": "connected"}), json.dumps({
        "event": "start", "streamSid": "MZ1", "start": {"streamSid": "MZ1", "callSid": "CA1", "mediaFormat": {
            "encoding": "audio/x-alaw", "sampleRate": 8000, "channels": 1}}})], 1003, "unsupported media format"),
])
async def test_bad_stream_is_closed_with_a_reason_and_the_server_keeps_serving(server, http, stt, frames, code, reason):
    ws = await http.ws_connect(stream_url(server))
    for frame in frames:
        await ws.send_str(frame)
    message = await ws.receive(timeout=10)
    assert message.type == aiohttp.WSMsgType.CLOSE
    assert ws.close_code == code and reason in (message.extra or "")
    await until(lambda: any(r.error and reason in r.error for r in finished_calls(server)), what="error recorded")

    caller = await TwilioCaller.dial(http, stream_url(server))   # the next call is answered as usual
    await until(lambda: caller.marks_echoed, what="greeting played")
    await caller.hang_up()
    assert spelled_like_start(transcribe(stt, caller.heard_audio()), GREETING) >= 0.75


async def test_stream_handshake_must_be_signed_when_an_auth_token_is_configured(server_factory, http, stt):
    signed_server = server_factory(options=argparse.Namespace(phone_greeting=GREETING, twilio_auth_token="s3cret"))
    url = stream_url(signed_server)
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await http.ws_connect(url, headers={"X-Twilio-Signature": twilio_signature("wrong", url, {})})
    assert refused.value.status == 403
    webhook, form = signed_server.url + "/twilio/voice", {"CallSid": "CA-signed"}   # Twilio asks first, then streams
    async with http.post(webhook, data=form,
                         headers={"X-Twilio-Signature": twilio_signature("s3cret", webhook, form)}) as answered:
        assert answered.status == 200
    caller = await TwilioCaller.dial(http, url, headers={"X-Twilio-Signature": twilio_signature("s3cret", url, {})},
                                     call_sid="CA-signed")
    await until(lambda: caller.marks_echoed, what="greeting played")
    await caller.hang_up()
    assert spelled_like_start(transcribe(stt, caller.heard_audio()), GREETING) >= 0.75


async def test_greeting_marks_digits_and_hang_up(server, http, stt):
    caller = await TwilioCaller.dial(http, stream_url(server), {"From": "+15551230000"})
    await until(lambda: caller.marks_echoed, what="greeting mark echoed")
    await caller.press("5")
    await caller.press("#")
    await asyncio.sleep(0.2)
    await caller.hang_up()

    record = await wait_for_record(server, caller.call_sid)
    assert record.parameters == {"From": "+15551230000"}
    assert record.digits == ["5", "#"]
    assert record.marks_sent == caller.marks_received == caller.marks_echoed == record.marks_played
    assert record.ended == "caller hung up" and record.error is None
    heard = transcribe(stt, caller.heard_audio()).lower()
    assert spelled_like_start(heard, GREETING) >= 0.75 and "help" in heard, heard
    await until(lambda: not live_tasks(server), timeout=25, what="no session or call task left")


async def test_caller_vanishing_mid_reply_frees_the_call(server, http):
    caller = await TwilioCaller.dial(http, stream_url(server), {"greeting": LONG_GREETING})
    await until(lambda: caller.frames_received >= 10, what="greeting under way")
    await caller.ws.close()                             # no `stop`: the connection just goes away
    await caller.hang_up()
    record = await wait_for_record(server, caller.call_sid)
    assert record.ended == "connection closed" and record.error is None
    await until(lambda: not live_tasks(server), timeout=25, what="no session or call task left")


async def test_caller_talking_over_the_reply_gets_clear_and_is_transcribed(server, http, speech, tts):
    caller = await TwilioCaller.dial(http, stream_url(server), {"greeting": LONG_GREETING})
    await until(lambda: caller.frames_received >= 25, what="greeting under way")   # 0.5 s into the greeting
    caller.say(phone_audio(tts.synthesize("Please turn on the kitchen light."), tts.sample_rate))
    await until(lambda: caller.clears, timeout=10, what="clear")
    heard_at_clear = len(caller.heard)
    await caller.finish_speaking()
    await until_transcribed(server, caller.call_sid)
    await caller.hang_up()

    record = await wait_for_record(server, caller.call_sid)
    assert record.clears >= 1
    assert record.marks_sent == []                 # the interrupted greeting never completed
    assert heard_at_clear * 0.02 < 6               # far less than the whole greeting was heard
    transcript = " ".join(record.transcripts).lower()
    assert "kitchen light" in transcript, record.transcripts


async def test_pressing_zero_says_goodbye_and_hangs_up(server, http, stt):
    caller = await TwilioCaller.dial(http, stream_url(server))
    await until(lambda: caller.marks_echoed, what="greeting played")
    heard_before = len(caller.heard)
    await caller.press("0")
    await asyncio.wait_for(caller.closed.wait(), 20)
    assert caller.close_code == 1000
    record = await wait_for_record(server, caller.call_sid)
    assert record.ended == "caller pressed 0" and record.digits == ["0"]
    assert GOODBYE in record.replies
    assert caller.marks_echoed == record.marks_sent           # the goodbye played out before the hang-up
    heard = transcribe(stt, np.concatenate(caller.heard[heard_before:])).lower()
    assert "thank you for calling" in heard                   # narrow-band Whisper hears "goodbye" as "to buy"
    await caller.hang_up()
    await until(lambda: not live_tasks(server), timeout=25, what="no session or call task left")


async def test_spoken_question_gets_a_spoken_answer(server, http, stt, tts, needs_assistant):
    caller = await TwilioCaller.dial(http, stream_url(server))
    await until(lambda: caller.marks_echoed, what="greeting played")
    heard_before = len(caller.heard)
    caller.say(phone_audio(tts.synthesize("What is seven times six?"), tts.sample_rate))
    await caller.finish_speaking()
    await until(lambda: len(caller.marks_echoed) >= 2, timeout=30, what="reply played and its mark echoed")
    await caller.hang_up()

    record = await wait_for_record(server, caller.call_sid)
    assert re.search(r"seven times six|7 times 6|7 x 6", record.transcripts[0].lower()), record.transcripts
    answer = transcribe(stt, np.concatenate(caller.heard[heard_before:])).lower()
    assert re.search(r"\b42\b|forty[- ]two", answer), answer
    assert caller.marks_echoed == record.marks_sent[:len(caller.marks_echoed)] == record.marks_played
    assert caller.first_frame_after_speech is not None
    assert record.timings[-1].get("voice_to_voice", 0) > 0
