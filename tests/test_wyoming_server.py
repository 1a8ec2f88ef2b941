"""Parley's Wyoming server driven by the wyoming package's own client, as Home Assistant drives it."""
import asyncio
import json

import numpy as np
import pytest
from wyoming.asr import Transcribe, Transcript, TranscriptChunk
from wyoming.audio import AudioChunk, AudioStart, AudioStop
from wyoming.client import AsyncTcpClient
from wyoming.error import Error
from wyoming.event import Event, async_read_event, async_write_event
from wyoming.handle import Handled, HandledChunk
from wyoming.info import Describe, Info
from wyoming.tts import Synthesize, SynthesizeChunk, SynthesizeStart, SynthesizeStop

from assistant.tools import ToolRunner
from streaming.transports.wyoming import MAX_TEXT_CHARS, WyomingService
from voice.audio import float_to_pcm16, pcm16_to_float, resample


@pytest.fixture
async def server(engines):
    service = WyomingService(engines, ToolRunner, host="127.0.0.1", port=0)
    await service.start()
    yield service
    await service.close()


async def read_until(client, last_type: str, limit: int = 2000) -> list:
    events = []
    for _ in range(limit):
        event = await asyncio.wait_for(client.read_event(), 30)
        assert event is not None, "server closed the connection"
        events.append(event)
        if event.type == last_type:
            return events
    raise AssertionError(f"no {last_type} in {limit} events")


def speech_16k(engines, text: str) -> bytes:
    audio = engines.tts.synthesize(text)
    return float_to_pcm16(resample(audio, engines.tts.sample_rate, 16000))


async def test_describe_lists_asr_tts_and_handle_with_streaming(server):
    async with AsyncTcpClient("127.0.0.1", server.port) as client:
        await client.write_event(Describe().event())
        info = Info.from_event((await read_until(client, "info"))[-1])
    assert info.asr[0].supports_transcript_streaming and info.asr[0].models[0].languages == ["en"]
    assert info.tts[0].supports_synthesize_streaming and info.tts[0].voices[0].name == "en_US-joe-medium"
    assert info.handle[0].supports_handled_streaming and info.handle[0].supports_home_control
    assert all(p.installed for p in info.asr + info.tts + info.handle)


async def test_transcribe_streams_chunks_then_the_transcript(server, engines):
    pcm = speech_16k(engines, "Please turn on the kitchen light.")
    async with AsyncTcpClient("127.0.0.1", server.port) as client:
        await client.write_event(Transcribe(language="en").event())
        await client.write_event(AudioStart(rate=16000, width=2, channels=1).event())
        for offset in range(0, len(pcm), 2048):
            await client.write_event(AudioChunk(rate=16000, width=2, channels=1, audio=pcm[offset:offset + 2048]).event())
        await client.write_event(AudioStop().event())
        events = await read_until(client, "transcript-stop")
    types = [e.type for e in events]
    assert types[0] == "transcript-start" and types[-2:] == ["transcript", "transcript-stop"]
    text = Transcript.from_event(events[-2]).text
    assert "kitchen" in text.lower() and "turn on" in text.lower()
    chunks = " ".join(TranscriptChunk.from_event(e).text for e in events if e.type == "transcript-chunk")
    assert chunks                                   # words streamed before the final transcript


def collect_audio(events) -> tuple[np.ndarray, int]:
    chunks = [AudioChunk.from_event(e) for e in events if AudioChunk.is_type(e.type)]
    assert chunks and all(c.width == 2 and c.channels == 1 for c in chunks)
    return pcm16_to_float(b"".join(c.audio for c in chunks)), chunks[0].rate


async def test_synthesize_speaks_the_text(server, engines):
    async with AsyncTcpClient("127.0.0.1", server.port) as client:
        await client.write_event(Synthesize(text="The kitchen light is on. Good night.").event())
        events = await read_until(client, "audio-stop")     # as Home Assistant reads it: up to the first stop
    assert events[0].type == "audio-start" and [e.type for e in events].count("audio-start") == 1
    audio, rate = collect_audio(events)
    heard = engines.stt.transcribe(resample(audio, rate, 16000)).lower()
    assert "kitchen" in heard and "on" in heard and "good night" in heard   # Piper varies: key words only


async def test_streaming_synthesis_ends_with_synthesize_stopped(server, engines):
    async with AsyncTcpClient("127.0.0.1", server.port) as client:
        await client.write_event(SynthesizeStart().event())
        for piece in ["The bed", "room lamp ", "is now off. Good", " night."]:
            await client.write_event(SynthesizeChunk(text=piece).event())
        await client.write_event(Synthesize(text="The bedroom lamp is now off. Good night.").event())  # compat copy
        await client.write_event(SynthesizeStop().event())
        events = await read_until(client, "synthesize-stopped")
    assert [e.type for e in events].count("audio-start") == 2           # the compat copy is not spoken again
    audio, rate = collect_audio(events)
    heard = engines.stt.transcribe(resample(audio, rate, 16000)).lower()
    assert "bedroom lamp" in heard and "off" in heard and "good night" in heard


async def test_streamed_text_without_a_clause_end_is_refused_past_the_bound(server):
    """Each synthesize-chunk re-split the whole waiting text on the event loop, and text without a clause end
    waited for ever: at deb3ced 400 chunks of 16,000 characters held 6.4 MB and each further chunk held the loop
    for 0.65 s. Past MAX_TEXT_CHARS the stream gets an error, the rest of it is not spoken, and the next
    stream is."""
    async with AsyncTcpClient("127.0.0.1", server.port) as client:
        await client.write_event(SynthesizeStart().event())
        endless = "and on " * (MAX_TEXT_CHARS // 14 + 1)          # over half the bound: two run past it
        for _ in range(3):
            await client.write_event(SynthesizeChunk(text=endless).event())
        await client.write_event(Describe().event())
        events = await read_until(client, "info")
        assert [e.type for e in events] == ["error", "info"]
        assert Error.from_event(events[0]).code == "text_too_long"
        await client.write_event(SynthesizeChunk(text=" and then it stops.").event())
        await client.write_event(Synthesize(text="Endless text.").event())          # the compat copy
        await client.write_event(SynthesizeStop().event())
        assert [e.type for e in await read_until(client, "synthesize-stopped")] == ["synthesize-stopped"]
        await client.write_event(SynthesizeStart().event())
        await client.write_event(SynthesizeChunk(text="Good night.").event())
        await client.write_event(SynthesizeStop().event())
        kinds = [e.type for e in await read_until(client, "synthesize-stopped")]
    assert kinds[0] == "audio-start" and "audio-chunk" in kinds and "error" not in kinds


async def test_nothing_to_say_is_still_an_answer(server):
    async with AsyncTcpClient("127.0.0.1", server.port) as client:
        await client.write_event(Synthesize(text="  ").event())
        assert [e.type for e in await read_until(client, "audio-stop")] == ["audio-start", "audio-stop"]


async def test_bad_audio_is_an_error_and_the_connection_goes_on(server):
    async with AsyncTcpClient("127.0.0.1", server.port) as client:
        await client.write_event(AudioStart(rate=16000, width=1, channels=1).event())
        await client.write_event(AudioChunk(rate=16000, width=1, channels=1, audio=b"\x80" * 160).event())
        error = Error.from_event((await read_until(client, "error"))[-1])
        assert "width" in error.text and error.code == "bad_audio"
        await client.write_event(Describe().event())
        assert (await read_until(client, "info"))[-1].type == "info"


async def test_a_malformed_event_line_gets_an_error_and_others_are_served(server):
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(b"{this is not json\n")
    await writer.drain()
    error = Error.from_event(await asyncio.wait_for(async_read_event(reader), 10))
    assert "malformed" in error.text and error.code == "bad_event"
    assert await reader.read() == b""                       # then it hangs up: the framing is lost
    writer.close()
    async with AsyncTcpClient("127.0.0.1", server.port) as client:
        await client.write_event(Event(type="synthesize", data={"voice": {}}))     # no text
        assert "synthesize" in Error.from_event((await read_until(client, "error"))[-1]).text
        await client.write_event(Describe().event())
        assert (await read_until(client, "info"))[-1].type == "info"


async def test_handle_answers_a_transcript_with_parleys_reply(server, needs_assistant):
    async with AsyncTcpClient("127.0.0.1", server.port) as client:
        await client.write_event(Transcript(text="Turn on the kitchen light.").event())
        events = await read_until(client, "handled-stop")
    types = [e.type for e in events]
    assert types[0] == "handled-start" and types[-2:] == ["handled", "handled-stop"]
    reply = Handled.from_event(events[-2]).text
    assert "kitchen light" in reply.lower() and "on" in reply.lower()
    streamed = "".join(HandledChunk.from_event(e).text for e in events if e.type == "handled-chunk")
    assert streamed.split() == reply.split()


async def test_handle_follow_ups_on_one_connection_keep_the_context(server, needs_assistant):
    async with AsyncTcpClient("127.0.0.1", server.port) as client:
        await client.write_event(Transcript(text="Turn on the kitchen light.").event())
        await read_until(client, "handled-stop")
        await client.write_event(Transcript(text="and in the bedroom").event())
        events = await read_until(client, "handled-stop")
    reply = Handled.from_event(events[-2]).text.lower()
    assert "bedroom light" in reply and "on" in reply


async def stream_audio(client, pcm: bytes, paced: bool, **transcribe) -> None:
    """A satellite's microphone: 64 ms chunks, at real-time pace when paced."""
    await client.write_event(Transcribe(language="en", **transcribe).event())
    await client.write_event(AudioStart(rate=16000, width=2, channels=1).event())
    for offset in range(0, len(pcm), 2048):
        await client.write_event(AudioChunk(rate=16000, width=2, channels=1, audio=pcm[offset:offset + 2048]).event())
        if paced:
            await asyncio.sleep(0.064)


async def test_transcript_chunks_arrive_while_the_audio_still_streams(server, engines):
    pcm = speech_16k(engines, "Turn on the kitchen light and the hallway light.") + bytes(32000)
    async with AsyncTcpClient("127.0.0.1", server.port) as client:
        events = []

        async def read():
            while (event := await client.read_event()) is not None:
                events.append(event)
                if event.type == "transcript-stop":
                    return
        reader = asyncio.create_task(read())
        await stream_audio(client, pcm, paced=True)
        for _ in range(1500):                           # the stream is still open: no audio-stop yet
            if any(e.type == "transcript-chunk" for e in events):
                break
            await asyncio.sleep(0.02)
        streamed_before_stop = [TranscriptChunk.from_event(e).text for e in events if e.type == "transcript-chunk"]
        await client.write_event(AudioStop().event())
        await asyncio.wait_for(reader, 30)
    plain = lambda words: [w.strip(",.?!").lower() for w in words.split()]          # noqa: E731
    assert events[0].type == "transcript-start"
    assert set(plain(" ".join(streamed_before_stop))) & {"turn", "on", "kitchen", "light"}, streamed_before_stop
    assert [e.type for e in events][-2:] == ["transcript", "transcript-stop"]
    assert "kitchen light" in Transcript.from_event(events[-2]).text.lower()


async def transcribe_once(client, pcm: bytes, **transcribe) -> str:
    await stream_audio(client, pcm, paced=False, **transcribe)
    await client.write_event(AudioStop().event())
    events = await read_until(client, "transcript-stop")
    return Transcript.from_event(events[-2]).text


async def test_transcript_names_and_terms_bias_the_recogniser(server, engines):
    gate = bytes(8000) + speech_16k(engines, "Open the wicket gate.") + bytes(8000)
    lamp = bytes(8000) + speech_16k(engines, "Turn on the Zorblatt lamp.") + bytes(8000)
    async with AsyncTcpClient("127.0.0.1", server.port) as client:
        unbiased = (await transcribe_once(client, gate) + " " + await transcribe_once(client, lamp)).lower()
        gate_heard = await transcribe_once(client, gate, transcript_terms=["wicket gate"])
        lamp_heard = await transcribe_once(client, lamp, transcript_names=["Zorblatt lamp"],
                                           transcript_terms=["wicket gate"])
    assert "zorblatt" not in unbiased                   # Whisper alone: 'zord-blatt' ('wicked' or 'wicket')
    assert "wicket gate" in gate_heard.lower() and "zorblatt lamp" in lamp_heard.lower()


async def test_audio_without_speech_is_an_empty_transcript_and_bad_hints_an_error(server):
    hum = float_to_pcm16(0.01 * np.sin(2 * np.pi * 50 * np.arange(32000) / 16000).astype(np.float32))
    async with AsyncTcpClient("127.0.0.1", server.port) as client:
        for sensitivity in ("relaxed", "default", "aggressive"):
            assert await transcribe_once(client, hum, vad_sensitivity=sensitivity) == ""
        await client.write_event(Transcribe(vad_sensitivity="sleepy").event())
        error = Error.from_event((await read_until(client, "error"))[-1])
        assert "vad_sensitivity" in error.text and error.code == "bad_event"
        await client.write_event(Event(type="transcribe", data={"transcript_names": ["lamp", 7]}))
        error = Error.from_event((await read_until(client, "error"))[-1])
        assert "transcript_names" in error.text and error.code == "bad_event"
        assert await transcribe_once(client, hum) == ""                 # the connection goes on


async def handle(port: int, text: str, conversation: str | None = None) -> list:
    """One request on its own connection, as Home Assistant's conversation agent sends it."""
    context = {"conversation_id": conversation} if conversation else None
    async with AsyncTcpClient("127.0.0.1", port) as client:
        await client.write_event(Transcript(text=text, context=context).event())
        return await read_until(client, "handled-stop")


async def test_a_conversation_id_keeps_the_conversation_across_connections(server, needs_assistant):
    first = await handle(server.port, "Turn on the kitchen light.", "01JCONVERSATION")
    assert Handled.from_event(first[-2]).context == {"conversation_id": "01JCONVERSATION"}
    follow_up = Handled.from_event((await handle(server.port, "and in the bedroom", "01JCONVERSATION"))[-2])
    assert "bedroom light" in follow_up.text.lower() and "on" in follow_up.text.lower()
    assert follow_up.context == {"conversation_id": "01JCONVERSATION"}


def test_conversations_are_bounded_and_expire():
    from streaming.transports.wyoming import Conversations
    conversations = Conversations(ToolRunner, limit=2)
    a = conversations.get("a")
    assert conversations.get("a") is a
    conversations.get("b"), conversations.get("c")           # a is the least recently used: forgotten
    assert conversations.get("a") is not a
    conversations.idle_s = 0.0
    c = conversations.get("c")
    assert conversations.get("c") is not c                    # untouched too long: a fresh one


async def timer_started(client, text: str, context: dict | None = None):
    """Says text and returns the reply's timer-started event (a TimerStarted)."""
    from wyoming.timer import TimerStarted
    await client.write_event(Transcript(text=text, context=context).event())
    return TimerStarted.from_event(next(e for e in await read_until(client, "handled-stop")
                                        if e.type == "timer-started"))


async def test_timers_set_by_voice_are_announced_as_timer_events(server, needs_assistant):
    from wyoming.timer import TimerCancelled, TimerFinished
    async with AsyncTcpClient("127.0.0.1", server.port) as client:
        context = {"conversation_id": "kitchen-satellite"}
        started = await timer_started(client, "Set a timer for 3 seconds.", context)
        assert started.total_seconds == 3 and (started.start_minutes, started.start_seconds) == (0, 3)
        assert TimerFinished.from_event((await read_until(client, "timer-finished"))[-1]).id == started.id

        long = await timer_started(client, "Set a timer for 10 minutes.", context)
        assert long.total_seconds == 600 and long.id != started.id
        await client.write_event(Transcript(text="Cancel my timer.", context=context).event())
        events = await read_until(client, "handled-stop")
    assert [TimerCancelled.from_event(e).id for e in events if e.type == "timer-cancelled"] == [long.id]


async def test_a_finished_timer_is_stopped_by_stop_and_nothing_rings_after(server, needs_assistant):
    async with AsyncTcpClient("127.0.0.1", server.port) as client:
        context = {"conversation_id": "bedside-satellite"}
        started = await timer_started(client, "Set a timer for 1 second.", context)
        await read_until(client, "timer-finished")
        await client.write_event(Transcript(text="Stop.", context=context).event())
        stopped = Handled.from_event((await read_until(client, "handled-stop"))[-2]).text
        await client.write_event(Transcript(text="Stop.", context=context).event())
        again = Handled.from_event((await read_until(client, "handled-stop"))[-2]).text
    assert started.total_seconds == 1 and stopped == "Okay, the timer is off." and again == "Okay."


async def test_a_named_timer_is_announced_with_its_name(server, needs_assistant):
    from wyoming.timer import TimerCancelled
    async with AsyncTcpClient("127.0.0.1", server.port) as client:
        started = await timer_started(client, "Set a pasta timer for 12 minutes.")
        assert (started.name, started.total_seconds, started.start_minutes) == ("pasta", 720, 12)
        await client.write_event(Transcript(text="Stop the pasta timer.").event())
        events = await read_until(client, "handled-stop")
    assert [TimerCancelled.from_event(e).id for e in events if e.type == "timer-cancelled"] == [started.id]


async def test_a_change_scheduled_then_cancelled_sends_no_timer_event(server, needs_assistant):
    """A change scheduled for later is no timer: no timer-started when scheduled, so no timer-cancelled of an id never
    announced when it is cancelled (c189862 sent one); a timer's own events go on as before."""
    async with AsyncTcpClient("127.0.0.1", server.port) as client:
        context = {"conversation_id": "hall-satellite"}
        events = []
        for said in ("Turn off the kitchen light in 10 minutes.", "Cancel that."):
            await client.write_event(Transcript(text=said, context=context).event())
            events += await read_until(client, "handled-stop")
        assert Handled.from_event(events[-2]).text == "Okay, I won't turn off the kitchen light."
        for said in ("Set a timer for 10 minutes.", "Cancel my timer."):
            await client.write_event(Transcript(text=said, context=context).event())
            events += await read_until(client, "handled-stop")
        if not any(e.type == "timer-cancelled" for e in events):     # the events of one connection come in order
            events += await read_until(client, "timer-cancelled")
    timer_events = [(e.type, e.data["id"]) for e in events if e.type.startswith("timer-")]
    assert [kind for kind, _ in timer_events] == ["timer-started", "timer-cancelled"], timer_events
    assert timer_events[0][1] == timer_events[1][1]


async def test_a_timer_lengthened_paused_and_resumed_is_announced_as_timer_updated(server, needs_assistant):
    from wyoming.timer import TimerUpdated
    async with AsyncTcpClient("127.0.0.1", server.port) as client:
        context = {"conversation_id": "hob-satellite"}
        started = await timer_started(client, "Set a pasta timer for 12 minutes.", context)
        updated = []
        for said in ("Add 5 minutes to the pasta timer.", "Pause it.", "Resume the pasta timer."):
            await client.write_event(Transcript(text=said, context=context).event())
            # (the event is sent as the timer changes, by a task of its own: before or after the reply's end)
            updated.append(TimerUpdated.from_event((await read_until(client, "timer-updated"))[-1]))
    assert [(u.id, u.is_active) for u in updated] == [(started.id, True), (started.id, False), (started.id, True)]
    assert all(1015 <= u.total_seconds <= 1020 for u in updated)


async def test_a_lone_surrogate_in_a_transcript_is_an_error_and_the_next_request_is_answered(server, needs_assistant):
    """JSON can spell half a UTF-16 pair (\\ud800); such text cannot be tokenised, spoken or sent back. (The
    wyoming client cannot send it, so these events are written by hand, as \\u escapes.)"""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    read = lambda: asyncio.wait_for(async_read_event(reader), 30)      # noqa: E731
    for kind, data in (("transcript", {"text": "Turn on the \ud800 light."}),
                       ("transcript", {"text": "Hello.", "context": {"conversation_id": "\udfff"}}),
                       ("synthesize", {"text": "\udc80"})):
        writer.write(json.dumps({"type": kind, "data": data}).encode() + b"\n")
        error = Error.from_event(await read())
        assert error.code == "invalid_text" and "surrogate" in error.text, error
    await async_write_event(Transcript(text="Turn on the kitchen light.").event(), writer)   # the connection goes on
    while (event := await read()).type != "handled":
        assert event.type in ("handled-start", "handled-chunk"), event
    reply = Handled.from_event(event).text.lower()
    assert "kitchen light" in reply and "on" in reply
    writer.close()


async def test_invalid_utf8_in_an_event_is_an_error_and_the_next_connection_is_served(server, needs_assistant):
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(b'{"type": "transcript", "data": {"text": "Turn on the \xff\xfe light."}}\n')
    await writer.drain()
    error = Error.from_event(await asyncio.wait_for(async_read_event(reader), 30))
    assert error.code == "bad_event" and "UnicodeDecodeError" in error.text, error
    writer.close()
    async with AsyncTcpClient("127.0.0.1", server.port) as client:
        await client.write_event(Transcript(text="Turn on the kitchen light.").event())
        events = await read_until(client, "handled-stop")
    assert "kitchen light" in Handled.from_event(events[-2]).text.lower()


async def test_a_stop_hangs_up_the_connected_clients_without_a_traceback(engines):
    """A server stopped (SIGTERM's close) while Home Assistant holds a connection open: the client reads the end of
    the stream, and nothing reaches the event loop's error handler. At fb6c30e the cancelled connection task was
    logged by Python 3.11's stream server as "Exception in callback ... CancelledError", a traceback on every stop."""
    loop = asyncio.get_running_loop()
    errors = []
    loop.set_exception_handler(lambda loop, context: errors.append(context))
    service = WyomingService(engines, ToolRunner, host="127.0.0.1", port=0)
    await service.start()
    try:
        async with AsyncTcpClient("127.0.0.1", service.port) as client:
            await client.write_event(Describe().event())
            assert (await asyncio.wait_for(client.read_event(), 30)).type == "info"   # its handler runs
            await service.close()
            assert await asyncio.wait_for(client.read_event(), 30) is None
            await asyncio.sleep(0.1)                          # the stream server's done-callbacks have run
        assert [context.get("message") for context in errors] == []
    finally:
        loop.set_exception_handler(None)
        await service.close()
