"""Calls placed against the live server's AudioSocket listener by an Asterisk-faithful client on loopback.

The server's call registry (app[PHONE_CALLS]) is the server-side observable.
"""

import argparse
import asyncio
import re
import uuid

import numpy as np
import pytest

from phone_callers import (GREETING, LONG_GREETING, AsteriskCaller, finished_calls, live_tasks, phone_audio,
                           transcribe, until, until_transcribed, wait_for_record)
from streaming.server import CTX
from streaming.transports.phone.audiosocket import AUDIOSOCKET, encode_frame, frame_bytes
from streaming.transports.phone.calls import GOODBYE, PHONE_CALLS
from transcripts import spelled_like_start
from voice.audio import resample



@pytest.fixture(scope="module")
def server(server_factory):
    return server_factory(options=argparse.Namespace(phone_greeting=GREETING, audiosocket_port=0))


@pytest.fixture
def port(server):
    return server.app[AUDIOSOCKET].port


FRAME_BYTES = frame_bytes(8000)                   # classic slin: 320 bytes per 20 ms
CALL_ID = uuid.uuid4()


@pytest.mark.parametrize("data, error", [
    (encode_frame(0x01, CALL_ID.bytes) + encode_frame(0x10, bytes(FRAME_BYTES))[:100], "truncated frame"),
    (encode_frame(0x01, CALL_ID.bytes) + b"\x10\xff\xff", "oversized frame"),
    (encode_frame(0x01, CALL_ID.bytes) + b"\x42\x00\x00", "unknown frame type 0x42"),
    (encode_frame(0x10, bytes(FRAME_BYTES)), "before the UUID frame"),
])
async def test_bad_frames_end_the_call_with_a_hang_up_and_the_server_keeps_serving(server, port, stt, data, error):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(data)
    writer.write_eof()                                  # Asterisk closed its side: the rest is all we sent
    received = await asyncio.wait_for(reader.read(), 20)   # everything the server sends until it closes
    writer.close()
    assert received.endswith(b"\x00\x00\x00")           # a hang-up frame, then EOF
    await until(lambda: any(r.error and error in r.error for r in finished_calls(server)), what="error recorded")

    caller = await AsteriskCaller.dial("127.0.0.1", port)     # the next call is answered as usual
    await until(lambda: caller.frames_received >= 50, what="greeting audio")
    await caller.hang_up()
    assert caller.frame_sizes == {FRAME_BYTES}


async def test_greeting_digits_and_hang_up_free_the_call(server, port, stt):
    caller = await AsteriskCaller.dial("127.0.0.1", port)
    await until(lambda: caller.frames_received >= 50, what="greeting audio")
    await asyncio.sleep(2.5)                            # let the greeting play out
    await caller.press("7")
    await asyncio.sleep(0.2)
    await caller.hang_up()

    record = await wait_for_record(server, str(caller.call_id))
    assert record.digits == ["7"] and record.ended == "caller hung up" and record.error is None
    assert caller.frame_sizes == {FRAME_BYTES} and not caller.unexpected
    heard = transcribe(stt, caller.heard_audio()).lower()
    assert spelled_like_start(heard, GREETING) >= 0.75, heard
    await until(lambda: not live_tasks(server), timeout=25, what="no session or call task left")


async def test_eof_without_hang_up_frame_ends_the_call_cleanly(server, port):
    caller = await AsteriskCaller.dial("127.0.0.1", port)
    await until(lambda: caller.frames_received >= 5, what="greeting audio")
    caller.writer.close()                               # the TCP connection just goes away
    await caller._stop_clocks()
    record = await wait_for_record(server, str(caller.call_id))
    assert record.ended == "connection closed" and record.error is None
    await until(lambda: not live_tasks(server), timeout=25, what="no session or call task left")


async def test_talking_over_the_greeting_stops_it_and_is_transcribed(server_factory, tts):
    server = server_factory(options=argparse.Namespace(phone_greeting=LONG_GREETING, audiosocket_port=0))
    caller = await AsteriskCaller.dial("127.0.0.1", server.app[AUDIOSOCKET].port)
    await until(lambda: caller.frames_received >= 25, what="greeting under way")
    caller.say(phone_audio(tts.synthesize("Please turn on the kitchen light."), tts.sample_rate))
    await caller.finish_speaking()
    await until_transcribed(server, str(caller.call_id))
    await caller.hang_up()

    record = await wait_for_record(server, str(caller.call_id))
    assert record.clears >= 1
    assert caller.frames_received * 0.02 < 5            # the ~10 s greeting was cut short
    assert "kitchen light" in " ".join(record.transcripts).lower(), record.transcripts


async def test_words_said_before_a_hang_up_mid_turn_are_kept_in_the_conversation(server, port, tts):
    """The caller hangs up as the last word leaves, before the pause that ends a turn: the words are not
    answered, but they are transcribed into the call's conversation."""
    caller = await AsteriskCaller.dial("127.0.0.1", port)
    await until(lambda: caller.frames_received >= 25, what="greeting under way")
    caller.say(phone_audio(tts.synthesize("Please turn on the kitchen light."), tts.sample_rate))
    await caller.finish_speaking()
    await caller.hang_up()
    record = await wait_for_record(server, str(caller.call_id))
    conversation = server.call(server.app[CTX].gateway.store.load_conversation(record.session_id))
    said = [item["text"] for item in conversation.items if item["role"] == "user"]
    assert "kitchen light" in " ".join(said).lower(), conversation.items


async def test_pressing_zero_says_goodbye_and_hangs_up(server, port, stt):
    caller = await AsteriskCaller.dial("127.0.0.1", port)
    await until(lambda: caller.frames_received >= 10, what="greeting audio")
    received_before = len(caller.received)
    await caller.press("0")
    await asyncio.wait_for(caller.closed.wait(), 20)
    assert caller.hung_up_by_server
    record = await wait_for_record(server, str(caller.call_id))
    assert record.ended == "caller pressed 0" and GOODBYE in record.replies
    heard = transcribe(stt, np.concatenate(caller.received[received_before:])).lower()
    assert "thank you for calling" in heard                   # narrow-band Whisper hears "goodbye" as "to buy"
    await caller.hang_up()
    await until(lambda: not live_tasks(server), timeout=25, what="no session or call task left")


async def test_server_shutdown_hangs_up_calls_in_progress(server_factory):
    server = server_factory(options=argparse.Namespace(phone_greeting=GREETING, audiosocket_port=0))
    caller = await AsteriskCaller.dial("127.0.0.1", server.app[AUDIOSOCKET].port)
    await until(lambda: caller.frames_received >= 5, what="greeting audio")
    await asyncio.get_running_loop().run_in_executor(None, server.stop)
    await asyncio.wait_for(caller.closed.wait(), 10)
    assert caller.hung_up_by_server
    assert [r.ended for r in server.app[PHONE_CALLS].finished] == ["server shutting down"]
    await caller.hang_up()


@pytest.mark.parametrize("rate", [8000, 16000])            # slin, and slin16 as newer Asterisk sends for HD calls
async def test_spoken_question_gets_a_spoken_answer(server, port, stt, tts, needs_assistant, rate):
    caller = await AsteriskCaller.dial("127.0.0.1", port, rate=rate)
    await until(lambda: caller.frames_received >= 50, what="greeting audio")
    await asyncio.sleep(2.5)
    heard_before = len(caller.heard)
    received_before = caller.frames_received
    caller.say(resample(tts.synthesize("What is seven times six?"), tts.sample_rate, rate))
    await caller.finish_speaking()
    await until(lambda: caller.frames_received > received_before + 25, timeout=30, what="reply audio")
    await asyncio.sleep(3)
    await caller.hang_up()

    record = await wait_for_record(server, str(caller.call_id))
    assert record.rate == rate and caller.frame_sizes == {frame_bytes(rate)} and not caller.unexpected
    assert re.search(r"seven times six|7 times 6|7 x 6", record.transcripts[0].lower()), record.transcripts
    answer = transcribe(stt, np.concatenate(caller.heard[heard_before:]), rate).lower()
    assert re.search(r"\b42\b|forty[- ]two", answer), answer
