"""The Session's output side with fixed text (greeting / say): clause-by-clause synthesis, paced audio,
barge-in and the history keeping only what was heard. Needs no assistant."""
import asyncio
import json

from streaming.events import (AudioDelta, AudioDone, Interrupted, ResponseCreated, ResponseDone, SpeechStarted,
                              TextDone)
from streaming.session import Session, SessionConfig
from streaming.turns import TurnDetection
from voice.audio import pcm16_to_float
from test_session_pipeline import Recorder, push_realtime, words
from transcripts import spelled_like_start

LONG = ("Here is a long story about the little lighthouse keeper. Every night he climbed the stairs, "
        "lit the great lamp, and watched the ships pass by in the dark. He never missed a single night.")


async def wait_done(recorder, timeout=60):
    return await recorder.wait(ResponseDone, timeout)


async def test_greeting_is_spoken_and_heard(engines, stt):
    session = Session(engines, SessionConfig(output_rate=16000, greeting="Hello, this is Parley. How can I help?"))
    await session.start()
    recorder = Recorder(session)
    done = await wait_done(recorder)
    assert done.status == "completed" and done.output_text == "Hello, this is Parley. How can I help?"
    assert "first_block_to_first_audio" in done.timing and "request_to_first_audio" in done.timing
    kinds = [type(e) for e in recorder.events]
    assert kinds[0] is ResponseCreated and kinds.index(AudioDone) < kinds.index(TextDone) < kinds.index(ResponseDone)
    chunks = recorder.of(AudioDelta)
    assert max(len(c.pcm16) for c in chunks) == 16000 * 2 // 10          # chunks of up to 100 ms at the output rate
    heard = stt.transcribe(pcm16_to_float(b"".join(c.pcm16 for c in chunks)))
    assert words(heard)[:3] == ["hello", "this", "is"]
    assert spelled_like_start(heard, done.output_text) >= 0.8, heard     # whisper may hear "Parley" as "partly"
    assert [(i.role, i.text) for i in session.items] == [("assistant", "Hello, this is Parley. How can I help?")]
    await session.close()


async def test_barge_in_cancels_within_100ms_of_audio(engines, speech):
    config = SessionConfig(turn_detection=TurnDetection(create_response=False))
    session = Session(engines, config)
    await session.start()
    recorder = Recorder(session)
    response_id = session.say(LONG)
    while not recorder.of(AudioDelta):
        await asyncio.sleep(0.01)
    await asyncio.sleep(1.0)                                        # the listener hears a second of the story
    interruption = speech.piper("Stop, that's enough.", lead_ms=0, tail_ms=0)
    step, pushed_ms, detected_at_ms, cancelled_at_ms = 480 * 2, 0, None, None
    loop = asyncio.get_running_loop()
    start = loop.time()
    for offset in range(0, len(interruption), step):                 # 20 ms chunks, real-time pace
        session.push_audio(interruption[offset:offset + step])
        pushed_ms += 20
        await asyncio.sleep(max(0.0, start + pushed_ms / 1000 - loop.time()))
        if detected_at_ms is None and recorder.of(SpeechStarted):
            detected_at_ms = pushed_ms
        if cancelled_at_ms is None and recorder.of(ResponseDone):
            cancelled_at_ms = pushed_ms
            break
    assert detected_at_ms is not None and cancelled_at_ms is not None
    assert cancelled_at_ms - detected_at_ms <= 100
    done = recorder.of(ResponseDone)[0]
    assert done.response_id == response_id and done.status == "cancelled" and done.reason == "turn_detected"
    interrupted = recorder.of(Interrupted)[0]
    after = recorder.events[recorder.events.index(interrupted):]
    assert not [e for e in after if isinstance(e, AudioDelta)]      # nothing more was sent
    # the history keeps what was played: the start of the story, not all of it
    [reply] = [i for i in session.items if i.role == "assistant"]
    assert reply.text and LONG.startswith(reply.text.rstrip(".,")) and len(reply.text) < len(LONG) / 2
    assert done.output_text == reply.text
    await session.close()
    assert session.active_tasks == 0


async def test_closing_mid_reply_leaves_no_task(engines):
    session = Session(engines, SessionConfig())
    await session.start()
    recorder = Recorder(session)
    session.say(LONG)
    while not recorder.of(AudioDelta):
        await asyncio.sleep(0.01)
    await session.close()
    await asyncio.wait_for(recorder.task, 5)
    assert session.active_tasks == 0
    assert recorder.of(ResponseDone)[0].status == "cancelled"
    assert not [t for t in asyncio.all_tasks() if t.get_name().startswith(session.id)]


async def test_truncate_keeps_the_heard_words(engines):
    session = Session(engines, SessionConfig(output_rate=8000))
    await session.start()
    recorder = Recorder(session)
    session.say("One two three four. Five six seven eight.")
    done = await wait_done(recorder)
    assert done.status == "completed"
    item_id = done.item_id
    total_ms = sum(len(e.pcm16) for e in recorder.of(AudioDelta)) / 2 / 8000 * 1000
    session.truncate(item_id, int(total_ms / 2))
    await asyncio.sleep(0.05)
    [reply] = [i for i in session.items if i.id == item_id]
    assert 0 < len(reply.text.split()) < 8 and "One two three".startswith(" ".join(reply.text.split()[:3]))
    session.truncate("item_nope", 10)
    await asyncio.sleep(0.05)
    assert recorder.events[-1].code == "item_not_found"
    await session.close()


async def test_user_speech_after_a_reply_is_a_new_turn(engines, speech):
    session = Session(engines, SessionConfig(turn_detection=TurnDetection(create_response=False)))
    await session.start()
    recorder = Recorder(session)
    session.say("Hi.")
    await wait_done(recorder)
    await push_realtime(session, speech.piper("Thanks."), 24000)
    await recorder.wait(SpeechStarted)
    assert not recorder.of(Interrupted) and recorder.of(ResponseDone)[0].status == "completed"
    await session.close()


async def test_a_rung_timer_is_still_owed_until_its_ring_has_been_said(engines):
    """A rung timer leaves the timer book before its ring is spoken (the ring waits for a quiet moment). The
    session must still say it has something to say then, or a quiet MQTT device's session is freed in between
    and the ring is lost."""
    session = Session(engines, SessionConfig(output_rate=16000))
    await session.start()
    Recorder(session)                                   # reads the events, as a transport would
    assert not session.has_something_to_say
    session.say("A reply is playing.")
    session.ring_timer(5, "Time is up: your timer for 5 seconds is done.")     # due now: it waits for the reply
    assert (session.tools is None or session.tools.timers_running == 0) and session.has_something_to_say
    while session.has_something_to_say:
        await asyncio.sleep(0.005)
    # nothing left to say only once the ring too has been said in full (not while it waits for the reply)
    assert [(item.role, item.text) for item in session.items] == [
        ("assistant", "A reply is playing."), ("assistant", "Time is up: your timer for 5 seconds is done.")]
    assert session.idle
    await session.close()


def rings_kept_to_say(session: Session) -> list[str]:
    """The rings the conversation's newest state still has to say: what a resume of it says."""
    return next((item.state for item in reversed(session.items) if item.state), {}).get("to_say", [])


async def test_a_ring_cut_off_by_the_sessions_close_is_kept_to_say_and_a_resume_says_it_once(engines):
    """The client left (or the connection dropped) while a ring was being said: it is kept to say, and the session
    resumed from the history says it once, in full. At 8a517b8 a ring counted as said once it began: the cut-off
    words were all the user got."""
    session = Session(engines, SessionConfig(output_rate=16000))
    await session.start()
    recorder = Recorder(session)
    session.ring_timer(0, LONG)
    while not recorder.of(AudioDelta):
        await asyncio.sleep(0.01)
    assert not session.idle                                 # the ring is still playing: the close cuts it off
    await session.close()
    assert recorder.of(ResponseDone)[0].reason == "session_closed"
    [cut] = [item.text for item in session.items if item.role == "assistant"]
    assert cut != LONG and LONG.startswith(cut)
    assert rings_kept_to_say(session) == [LONG]
    resumed = Session(engines, SessionConfig(output_rate=16000))
    resumed.restore(json.loads(json.dumps(session.history())))        # as stored
    assert resumed.has_something_to_say
    await resumed.start()
    heard = Recorder(resumed)
    done = await wait_done(heard)
    assert done.status == "completed" and done.output_text == LONG
    while resumed.has_something_to_say:
        await asyncio.sleep(0.01)
    assert [done.output_text for done in heard.of(ResponseDone)] == [LONG]
    assert rings_kept_to_say(resumed) == []
    await resumed.close()


async def test_a_ring_the_user_talks_over_counts_as_heard(engines, speech):
    """A barge-in is a hearing of the ring (the user stopped it): it is not kept to say."""
    session = Session(engines, SessionConfig(turn_detection=TurnDetection(create_response=False)))
    await session.start()
    recorder = Recorder(session)
    session.ring_timer(0, LONG)
    while not recorder.of(AudioDelta):
        await asyncio.sleep(0.01)
    talking = asyncio.create_task(push_realtime(session, speech.piper("Stop, that's enough.", lead_ms=0), 24000))
    done = await wait_done(recorder)
    assert done.status == "cancelled" and done.reason == "turn_detected"
    assert rings_kept_to_say(session) == []
    await talking
    await session.close()
    resumed = Session(engines, SessionConfig())
    resumed.restore(json.loads(json.dumps(session.history())))        # as stored
    assert not resumed.has_something_to_say
