"""The Session's input side with the real models: VAD turns, transcripts, manual commit, limits, cleanup."""
import asyncio

import pytest

from streaming.events import (AudioCleared, AudioCommitted, EndCall, Error, SpeechStarted, SpeechStopped,
                              TranscriptCompleted, TranscriptDelta)
from streaming.session import Session, SessionConfig, SessionLimits
from streaming.turns import TurnDetection
from transcripts import spelled_like_start


class Recorder:
    """Collects a session's events in the background."""

    def __init__(self, session: Session):
        self.session, self.events = session, []
        self.task = asyncio.create_task(self._run())

    async def _run(self):
        async for event in self.session.events():
            self.events.append(event)

    def of(self, kind):
        return [e for e in self.events if isinstance(e, kind)]

    async def wait(self, kind, timeout=30):
        async def poll():
            while not self.of(kind):
                await asyncio.sleep(0.01)
            return self.of(kind)[0]
        return await asyncio.wait_for(poll(), timeout)


async def push_realtime(session: Session, pcm16: bytes, rate: int, chunk_ms: int = 20, keep_up_with=None):
    """Push pcm16 at the pace of speech; with keep_up_with (a recogniser), each chunk also waits until it is idle."""
    step = rate * 2 * chunk_ms // 1000
    loop = asyncio.get_running_loop()
    start = loop.time()
    for n, offset in enumerate(range(0, len(pcm16), step)):
        while keep_up_with is not None and keep_up_with.busy:
            await asyncio.sleep(0.01)
            start += 0.01
        session.push_audio(pcm16[offset:offset + step])
        await asyncio.sleep(max(0.0, start + (n + 1) * chunk_ms / 1000 - loop.time()))


def words(text):
    return [w.strip(".,?!").lower() for w in text.split()]


@pytest.mark.parametrize("rate", [24000, 8000])
async def test_server_vad_turn_from_piper_speech(engines, speech, rate):
    session = Session(engines, SessionConfig(input_rate=rate, turn_detection=TurnDetection(create_response=False)))
    await session.start()
    recorder = Recorder(session)
    pcm = speech.piper("Turn on the kitchen light.", rate=rate, lead_ms=500)
    await push_realtime(session, pcm, rate)
    done = await recorder.wait(TranscriptCompleted)
    started, stopped, committed = recorder.of(SpeechStarted)[0], recorder.of(SpeechStopped)[0], recorder.of(AudioCommitted)[0]
    assert started.item_id == stopped.item_id == committed.item_id == done.item_id
    assert 0 <= started.audio_start_ms <= 500                     # speech begins at 500 ms, minus prefix padding
    end_ms = speech.speech_end_ms(pcm, rate)
    assert abs(stopped.audio_end_ms - end_ms) < 250
    assert words(done.transcript) == ["turn", "on", "the", "kitchen", "light"]
    order = [type(e) for e in recorder.events if type(e) in (SpeechStarted, SpeechStopped, AudioCommitted,
                                                              TranscriptCompleted)]
    assert order == [SpeechStarted, SpeechStopped, AudioCommitted, TranscriptCompleted]
    await session.close()
    await recorder.task
    assert session.active_tasks == 0


async def test_partial_transcripts_while_speaking(engines, speech):
    session = Session(engines, SessionConfig(turn_detection=TurnDetection(create_response=False)))
    await session.start()
    recorder = Recorder(session)
    spoken = "Please set the living room thermostat to twenty one degrees and turn off the hallway lights."
    pcm = speech.piper(spoken)
    # paced as speech, but held while the recogniser is busy: a machine that keeps up, however loaded this one is
    await push_realtime(session, pcm, 24000, keep_up_with=engines.transcription)
    done = await recorder.wait(TranscriptCompleted)
    deltas = recorder.of(TranscriptDelta)
    assert deltas, "no partial transcript while the user was talking"
    stopped_at = recorder.events.index(recorder.of(SpeechStopped)[0])
    assert recorder.events.index(deltas[0]) < stopped_at            # partials came before the turn ended
    partial = "".join(d.delta for d in deltas)
    # the partials spell the start of what was said; whisper tiny may hear "please set" as "place at",
    # so compare letters, not words, and against the spoken text rather than the other transcription
    assert spelled_like_start(partial, spoken) >= 0.7, (partial, done.transcript)
    assert "thermostat" in words(done.transcript) and "hallway" in words(done.transcript)
    await session.close()


async def test_manual_commit_and_clear(engines, speech):
    session = Session(engines, SessionConfig(turn_detection=None))
    await session.start()
    recorder = Recorder(session)
    session.commit_audio()                                        # nothing buffered yet
    error = await recorder.wait(Error)
    assert error.code == "input_audio_buffer_commit_empty"
    session.push_audio(speech.piper("Good morning."))
    session.clear_audio()
    await recorder.wait(AudioCleared)
    session.push_audio(speech.piper("What time is it?"))             # no pacing needed: nothing listens for pauses
    session.commit_audio()
    done = await recorder.wait(TranscriptCompleted)
    assert words(done.transcript) == ["what", "time", "is", "it"]
    assert not recorder.of(SpeechStarted)                            # no server VAD in manual mode
    assert [i.text for i in session.items] == [done.transcript]
    await session.close()


async def test_input_buffer_limit_is_an_error_once(engines):
    session = Session(engines, SessionConfig(turn_detection=None), limits=SessionLimits(max_buffer_ms=500))
    await session.start()
    recorder = Recorder(session)
    for _ in range(10):
        session.push_audio(b"\x00\x00" * 2400)                       # 10 x 100 ms
    await recorder.wait(Error)
    assert [e.code for e in recorder.of(Error)] == ["input_audio_buffer_full"]
    await session.close()


async def test_session_expires_with_error_and_end_call(engines):
    session = Session(engines, SessionConfig(), limits=SessionLimits(max_duration_s=0.2))
    await session.start()
    recorder = Recorder(session)
    await asyncio.wait_for(recorder.task, 10)                        # events() ends by itself
    assert [e.code for e in recorder.of(Error)] == ["session_expired"]
    assert recorder.of(EndCall)[0].reason == "max_duration"
    assert session.active_tasks == 0


async def test_two_sessions_at_once_keep_their_own_words(engines, speech):
    config = SessionConfig(turn_detection=TurnDetection(create_response=False))
    first, second = Session(engines, config), Session(engines, config)
    await first.start()
    await second.start()
    one, two = Recorder(first), Recorder(second)
    await asyncio.gather(push_realtime(first, speech.piper("Turn off the bedroom fan."), 24000),
                         push_realtime(second, speech.espeak("What is the temperature in the garage?"), 24000))
    a, b = await one.wait(TranscriptCompleted), await two.wait(TranscriptCompleted)
    assert "fan" in words(a.transcript) and "garage" not in words(a.transcript)
    assert "garage" in words(b.transcript) and "fan" not in words(b.transcript)
    assert len(one.of(TranscriptCompleted)) == len(two.of(TranscriptCompleted)) == 1
    await first.close()
    await second.close()


async def test_chunks_may_split_samples(engines, speech):
    session = Session(engines, SessionConfig(turn_detection=None))
    await session.start()
    recorder = Recorder(session)
    pcm = speech.piper("Open the garage door.", lead_ms=300, tail_ms=300)
    for offset in range(0, len(pcm), 333):                            # odd sizes: samples split across chunks
        session.push_audio(pcm[offset:offset + 333])
    session.commit_audio()
    done = await recorder.wait(TranscriptCompleted)
    assert words(done.transcript) == ["open", "the", "garage", "door"]
    await session.close()
