"""One voice conversation, independent of any wire protocol; every transport maps onto it.

Input:  PCM16 at input_rate → 16 kHz → Silero per 32 ms frame → TurnDetector → transcription
        (partials while the user talks; the final one starts at the first pause, so it is ready
        when the turn ends) → user item → response.
Output: a response runs three small stages joined by queues — generate (Generator.respond, text
        blocks) → speak (Piper, clause by clause, from the first block) → play (AudioDelta chunks
        paced to real time with a short lead). Barge-in cancels all three at once; the history keeps
        only the part of the reply that was played.
Speculation: when the transcript of a pause is in, the reply to it is generated and its first clause
        synthesised while the silence is still being measured. Until the turn is committed it is held:
        nothing reaches the client and only pure skills run (assistant.tools.HeldTools). The turn ends
        as transcribed: it is released and its first audio leaves at once. The user goes on talking, or
        the final transcript differs: it is dropped silently (and the reply generated anew).

Per-turn timing (ResponseDone.timing, ms, wall clock): end_of_speech_to_vad, vad_to_transcript,
transcript_to_first_block, first_block_to_first_audio and voice_to_voice (end of speech → first audio
byte); and from the end of speech, each moment the reply waits for: end_of_speech_to_pause_transcript (the
pause's final-quality transcript), _smart_turn (its verdict), _first_block (the first text, a speculation's
included) and _first_clause (the first clause's audio synthesised). Text turns (no audio in) have request_to_first_block, first_block_to_first_audio and
request_to_first_audio instead.

All methods must be called on the event loop thread that runs the session.
"""
from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import time
import uuid
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING, AsyncIterator, Callable, Iterator

import numpy as np

from streaming.engines import BACKGROUND, URGENT, Engines
from streaming.events import (AudioCleared, AudioCommitted, AudioDelta, AudioDone, EndCall, Error, Interrupted,
                              ItemAdded, ItemDeleted, ItemTruncated, ResponseCreated, ResponseDone, SessionEvent,
                              SpeechStarted, SpeechStopped, TextDelta, TextDone, ToolCallExecuted,
                              ToolCallRequested, TranscriptCompleted, TranscriptDelta)
from assistant.tools import MAX_TIMERS, HeldTools
from streaming.turns import FRAME_MS, MIN_SPEECH_FRAMES, Levels, Signal, TurnDetection, TurnDetector
from voice.audio import StreamResampler, float_to_pcm16, pcm16_to_float, resample
from voice.heard_doubts import names_heard_in
from voice.heard_text import said_words
from voice.stt import StableWords
from voice.tts import ClauseBuffer
from voice.vad import SileroVAD

if TYPE_CHECKING:
    from streaming.metrics import Metrics
    from assistant.tools import ToolRunner

__all__ = ["Session", "SessionConfig", "SessionLimitReached", "SessionLimits", "TurnDetection"]
log = logging.getLogger("parley.session")

RATE = 16000                     # what VAD and STT consume
FRAME = 512                      # samples per VAD frame (32 ms)
# take_audio's slice: a door's message may hold a minute of audio, which resampling and voice detection held the
# event loop for 1.7 s as one piece (3 MB, load 8); 100 ms of it holds the loop a few ms.
AUDIO_SLICE_MS = 100
RING_POLL_S = 0.1                # a due timer waits for a quiet moment, checked this often
PARTIAL_EVERY_MS = 400           # partial transcript cadence while the user talks and the engines are idle
PARTIAL_AT_LEAST_MS = 1200       # ... and when they are busy
CHUNK_MS = 100                   # size of the AudioDelta chunks
# Silero scores a trailing fricative (the /s/ of "six") as silence; a frame this loud relative to the
# turn's loudest, within TAIL_MS of the last voiced frame, still counts as speech for transcription.
TAIL_MS = 320
TAIL_LEVEL = 0.03
LAST_WORDS_S = 10.0              # at close, the words of a turn cut by the hang-up get this long to be transcribed


# events after which the conversation differs from what the store last saw
HISTORY_EVENTS = (ItemAdded, ItemDeleted, ItemTruncated, TranscriptCompleted, ResponseDone)


def new_id(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex[:20]}"


@dataclass
class SessionConfig:
    input_rate: int = 24000                  # PCM16 mono the transport pushes
    output_rate: int = 24000                 # PCM16 mono the session emits
    instructions: str | None = None
    turn_detection: TurnDetection | None = field(default_factory=TurnDetection)   # None: manual commit only
    client_tools: dict[str, dict] = field(default_factory=dict)   # tools the client executes itself, by name
    greeting: str | None = None              # spoken when the session starts (phone)
    audio_output: bool = True                # False: replies are text only
    playback_lead_ms: int = 300              # how far audio may run ahead of real-time playback


class SessionLimitReached(Exception):
    """The server already holds as many sessions as it may: a new one is refused, not everyone slowed down."""


@dataclass
class SessionLimits:
    max_buffer_ms: int = 120_000             # uncommitted input audio
    max_duration_s: float = 3600.0
    max_history_items: int = 100             # the conversation window; older items are deleted
    max_text_chars: int = 16_000             # one item's text (a typed message, a tool output)


@dataclass
class Item:
    """A conversation item as the assistant will see it."""
    id: str
    type: str                                # message | function_call | function_call_output
    role: str | None = None
    text: str = ""
    call_id: str | None = None
    name: str | None = None
    arguments: str | None = None
    segments: list[tuple[float, float, str]] = field(default_factory=list)  # assistant audio: (start_ms, end_ms, clause)
    # a call's output or a ring's message: the conversation state then (ToolRunner.conversation_state), which a resume
    # on another gateway takes up; at most max_text_chars as JSON, as an item's text
    state: dict = field(default_factory=dict)


_ITEM_TYPES = ("message", "function_call", "function_call_output")      # Item.type
_TEXT_FIELDS = ("role", "call_id", "name", "arguments")


def _stored_item(item: dict) -> Item | None:
    """A stored item as an Item, or None when it is not one a session writes: another version or a hand may have
    written the store, and one such item made every resume of the session fail (its connection dropped)."""
    if not isinstance(item, dict) or not item.keys() <= Item.__dataclass_fields__.keys() \
            or item.get("type") not in _ITEM_TYPES or not isinstance(item.get("id"), str) \
            or not isinstance(item.get("text", ""), str) \
            or any(item.get(key) is not None and not isinstance(item[key], str) for key in _TEXT_FIELDS):
        return None
    if not isinstance(item.get("state", {}), dict):
        return None
    segments = item.get("segments", [])
    if not isinstance(segments, list) or not all(
            isinstance(s, list) and len(s) == 3 and isinstance(s[0], (int, float)) and isinstance(s[1], (int, float))
            and isinstance(s[2], str) for s in segments):
        return None
    return Item(**{**item, "segments": [tuple(s) for s in segments]})


@dataclass
class _Turn:
    """The user's current (or just committed) utterance and its transcription jobs."""
    item_id: str
    speech_end_samples: int = 0              # buffer length at the last speech sound
    speech_end_wall: float = 0.0
    vad_wall: float = 0.0
    transcript_wall: float = 0.0
    heard_wall: float | None = None          # the pause's final-quality transcript of the last words was in
    sound_wall: float | None = None          # Smart Turn's verdict on the last pause was in
    job: asyncio.Task | None = None          # transcription in flight
    job_covers: int = 0                      # samples that job transcribes
    job_urgent: bool = False                 # that job is final quality (not a partial)
    latest: tuple[int, str] | None = None    # (samples covered, text) of the newest final-quality job
    partial: StableWords = field(default_factory=StableWords)   # words already sent as transcript deltas
    last_job_done: int = 0                   # buffer length when the last job finished (partial cadence)
    committed: bool = False


@dataclass
class _Response:
    id: str
    item_id: str
    audio: bool
    instructions: str | None
    turn: _Turn | None
    requested_wall: float
    fixed_text: str | None = None            # greeting: speak this, don't generate
    state: dict = field(default_factory=dict)  # a ring's: the conversation state its item keeps (Item.state)
    ring: str | None = None                  # a ring's words: still to say until heard (Session._end_ring)
    task: asyncio.Task | None = None
    text: str = ""
    segments: list[tuple[float, float, str]] = field(default_factory=list)
    sent_ms: float = 0.0
    play_end_wall: float = 0.0               # when everything sent so far will have been played
    first_block_wall: float | None = None
    first_clause_wall: float | None = None   # the first clause's audio was synthesised
    first_audio_wall: float | None = None
    timing: dict[str, float] = field(default_factory=dict)
    tokens: tuple[int, int] = (0, 0)         # (prompt, generated) of a finished generation
    generator: tuple[str, str | None] | None = None   # (backend that wrote it, why not the remote one)
    done: bool = False
    history: list[dict] | None = None        # what the reply answers (set ahead for a speculation)
    released: asyncio.Event = field(default_factory=asyncio.Event)   # unset: a speculation, held back
    held: list = field(default_factory=list)  # session changes (items, events) waiting for the release

    def played_ms(self) -> float:
        return self.sent_ms - max(0.0, self.play_end_wall - time.monotonic()) * 1000


class _InputBuffer:
    """Uncommitted 16 kHz input, appended in place and handed out as views (no copy per transcription).

    Samples once handed out are never overwritten: clearing and trimming only move the start, and a
    full array is replaced by a bigger one, so a transcription job may read its view from any thread.
    """

    def __init__(self) -> None:
        self._data = np.empty(RATE * 10, dtype=np.float32)
        self._start = self._end = 0

    @property
    def size(self) -> int:
        return self._end - self._start

    def append(self, audio: np.ndarray) -> None:
        if self._end + audio.size > self._data.size:
            live = self._data[self._start:self._end]
            data = np.empty(max(RATE * 10, 2 * (live.size + audio.size)), dtype=np.float32)
            data[:live.size] = live
            self._data, self._start, self._end = data, 0, live.size
        self._data[self._end:self._end + audio.size] = audio
        self._end += audio.size

    def view(self) -> np.ndarray:
        return self._data[self._start:self._end]

    def clear(self) -> None:
        self._start = self._end

    def drop(self, samples: int) -> None:
        """Forget the oldest samples."""
        self._start = min(self._start + samples, self._end)


def heard_text(segments: list[tuple[float, float, str]], played_ms: float) -> str:
    """The words of a spoken reply that were played by played_ms (words of a cut clause pro rata)."""
    kept = []
    for start, end, clause in segments:
        if end <= played_ms:
            kept.append(clause)
        elif start < played_ms:
            words = clause.split()
            n = int(len(words) * (played_ms - start) / max(end - start, 1e-6))
            if n:
                kept.append(" ".join(words[:n]))
            break
        else:
            break
    return " ".join(kept)


class Session:
    """A conversation: feed audio/text/commands in, read typed events from events()."""

    _CLOSED = object()

    def __init__(self, engines: Engines, config: SessionConfig, tools: "ToolRunner | None" = None, *,
                 limits: SessionLimits | None = None, metrics: "Metrics | None" = None,
                 transport: str = "realtime", session_id: str | None = None):
        self.id = session_id or new_id("sess")
        self.engines = engines
        self.config = replace(config)
        self.limits = limits or SessionLimits()
        self.metrics = metrics
        self.transport = transport
        if tools is None and engines.generator is not None:
            from assistant.tools import ToolRunner
            tools = ToolRunner()
        self.tools = tools
        if tools is not None:
            tools.on_ring = self.ring_timer
        self.items: list[Item] = []
        self.left_out: list[str] = []            # ids of stored items restore left out: the store need keep none of them
        self._queue: asyncio.Queue = asyncio.Queue()
        self._tasks: set[asyncio.Task] = set()
        self._closed = False
        self._vad = SileroVAD(engines.vad_model)
        self._resampler = StreamResampler(config.input_rate, RATE)
        self._detector = TurnDetector(config.turn_detection) if config.turn_detection else None
        self._pending = np.zeros(0, dtype=np.float32)   # 16 kHz samples not yet in a frame
        self._buffer = _InputBuffer()                   # uncommitted input (VAD idle: only the prefix padding)
        self._buffer_full_reported = False
        self._odd_byte = b""
        self._levels = Levels()                         # the room's noise and the turn's loudest frame
        self._turn: _Turn | None = None
        self._response: _Response | None = None
        self._transcripts: set[asyncio.Task] = set()    # committed turns still being transcribed
        self._missed_timers: list[str] = []             # rang while nobody was connected: told at the next reply
        # what rung timers and changes say, waiting for a quiet moment, oldest first (at most MAX_TIMERS with the one
        # being said): kept with the conversation's state as they ring, so a session resumed before they are heard
        # says them
        self._rings_to_say: list[str] = []
        self.on_history_changed: Callable[[], None] | None = None   # the gateway saves the conversation
        self._cause: str | None = None                  # the client event being applied (see caused_by)
        self._speculation: _Response | None = None      # a reply to the current pause, held back

    # ---- lifecycle -------------------------------------------------------------------------------

    async def start(self) -> None:
        if self.metrics:
            self.metrics.session_opened(self.transport)
        self._spawn(self._expire(), "expire")
        if self.config.greeting:
            self._start_response(turn=None, fixed_text=self.config.greeting)
        for _ in self._rings_to_say:          # rung before a resume and not yet said (restore)
            self._spawn(self._ring_timer(), "timer")

    async def close(self) -> None:
        """Keep the last words said, cancel every task this session owns and end events(). Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        if self.tools is not None:
            self.tools.stop_timers()
        if self._response and not self._response.done:
            self._cancel_response(self._response, "session_closed")
        await self._keep_last_words()
        current = asyncio.current_task()
        tasks = [t for t in self._tasks if t is not current]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self.metrics:
            self.metrics.session_closed(self.transport)
        self._queue.put_nowait(self._CLOSED)

    async def _keep_last_words(self) -> None:
        """A hang-up in the middle of a turn: what was said so far goes into the history as the user's item,
        transcribed (on the engines' threads, with no reply), and turns already committed finish their
        transcripts; together at most LAST_WORDS_S, then they are cancelled with the rest."""
        turn, self._turn = self._turn, None
        if turn is not None and self._buffer_samples:
            self._commit(turn)
        if self._transcripts:
            await asyncio.wait(list(self._transcripts), timeout=LAST_WORDS_S)

    async def events(self) -> AsyncIterator[SessionEvent]:
        while True:
            event = await self._queue.get()
            if event is self._CLOSED:
                return
            yield event

    @property
    def has_something_to_say(self) -> bool:
        """A timer the user set has yet to ring, or a ring or reply is still to be said: a device that went
        quiet still needs this session. (A rung timer leaves the timer book before its ring is spoken.)"""
        return ((self.tools is not None and self.tools.timers_running > 0) or bool(self._rings_to_say)
                or (self._response is not None and not self._response.done))

    @property
    def idle(self) -> bool:
        """Nobody is speaking, no turn is being transcribed and no reply is playing."""
        return self._turn is None and not self._transcripts and (self._response is None or self._response.done)

    def restore(self, items: list[dict]) -> None:
        """A resumed conversation (before start()): the stored items, with their ids. One this session could not
        have made (see _restorable), or whose id an earlier one has, is left out, and the count logged."""
        window, self.items, ids = items[-self.limits.max_history_items:], [], set()
        for item in window:
            restored = self._restorable(item)
            if restored is not None and restored.id not in ids:
                self.items.append(restored)
                ids.add(restored.id)
            elif isinstance(item, dict) and isinstance(item.get("id"), str) and item["id"] not in ids:
                self.left_out.append(item["id"])
        if len(self.items) < len(window):
            log.warning("session %s: %d stored items are not items a session makes; resumed without them", self.id,
                        len(window) - len(self.items))
        state = next((item.state for item in reversed(self.items) if item.state), None)
        if state is not None and self.tools is not None:
            self.tools.restore_state(state)
        to_say = state.get("to_say") if state is not None else None
        if isinstance(to_say, list) and len(to_say) <= MAX_TIMERS and all(isinstance(text, str) for text in to_say):
            self._rings_to_say = list(to_say)

    def adopt(self, lacking: list[tuple[str | None, dict]]) -> None:
        """Stored items this session lacks (a late save by the gateway that held it before), each after the item
        it followed there, or first: the client is told of each (conversation.item.added)."""
        for previous, item in lacking:
            restored = self._restorable(item)
            if restored is not None and self._item(restored.id) is None:
                self._add(restored, previous if previous and self._item(previous) else "root")

    def _restorable(self, item) -> Item | None:
        """A stored item as an Item if a session could have made it: its fields of their types, its text within
        the bound a client's item has."""
        restored = _stored_item(item)
        return restored if restored is not None and len(restored.text) <= self.limits.max_text_chars \
            and self._state_within_bound(restored.state) else None

    def _kept_state(self) -> dict:
        """The conversation state an item keeps (ToolRunner.conversation_state) and the rings still to be said
        ("to_say": the one being said, then those waiting, as many as fit in half an item's text), within the bound
        of an item's text; without tools, or where the runner's state is no JSON, the rings alone."""
        to_say, chars = [], 0
        saying = self._ring_being_said
        for text in ([saying] if saying is not None else []) + self._rings_to_say:
            chars += len(json.dumps(text)) + 2
            if chars > self.limits.max_text_chars // 2:
                break
            to_say.append(text)
        rings = {"to_say": to_say} if to_say else {}
        try:
            state = self.tools.conversation_state(self.limits.max_text_chars - len(json.dumps(rings))) \
                if self.tools is not None else {}
        except (TypeError, ValueError):
            state = {}
        return {**state, **rings}

    def _state_within_bound(self, state: dict) -> bool:
        """A conversation state no longer as JSON than an item's text may be."""
        try:
            return len(json.dumps(state)) <= self.limits.max_text_chars
        except (TypeError, ValueError):
            return False

    def history(self) -> list[dict]:
        """The items as plain data, for the store."""
        return [asdict(item) for item in self.items]

    async def end(self, reason: str) -> None:
        """Close the session and tell the transport why (the Realtime socket closes)."""
        self._emit(EndCall(reason))
        await self.close()

    def ring_timer(self, seconds: int, text: str) -> None:
        """A timer of this session is due (from its ToolRunner, or from the gateway for stored timers); text:
        what to say (assistant.tools.timer_done_text). It is kept with the conversation at once (on its newest item,
        saved), not only once said: a client that leaves before a quiet moment comes finds it said where it resumes."""
        if len(self._rings_to_say) + (self._ring_being_said is not None) >= MAX_TIMERS:
            log.warning("session %s: %d rings wait to be said; the oldest is not said", self.id, MAX_TIMERS)
            self._rings_to_say.pop(0)
        self._rings_to_say.append(text)
        if self.items:
            self.items[-1].state = self._kept_state()
            if self.on_history_changed is not None:
                self.on_history_changed()
        self._spawn(self._ring_timer(), "timer")

    def note_missed_timer(self, text: str) -> None:
        """A timer rang while nobody was connected: the next reply starts by saying so (text:
        assistant.tools.timer_missed_text)."""
        if len(self._missed_timers) < MAX_TIMERS:
            self._missed_timers.append(text)

    @property
    def backlog(self) -> int:
        """Events emitted and not yet read by the transport (a client that reads slowly lets this grow)."""
        return self._queue.qsize()

    @property
    def active_tasks(self) -> int:
        return sum(not t.done() for t in self._tasks)

    def update(self, config: SessionConfig) -> None:
        old, self.config = self.config, replace(config)
        if config.input_rate != old.input_rate:
            self._resampler = StreamResampler(config.input_rate, RATE)
        if config.turn_detection != old.turn_detection:
            self._detector = TurnDetector(config.turn_detection) if config.turn_detection else None
            self._vad.reset()
            self._turn = None
            self._drop_speculation()
            if self._detector:           # server VAD decides again from the next frame on
                self._clear_buffer()

    # ---- input audio ----------------------------------------------------------------------------

    def push_audio(self, pcm16: bytes) -> None:
        """PCM16 LE mono at input_rate, any chunk size."""
        if self._closed or not pcm16:
            return
        if self._odd_byte:                              # a chunk may split a sample; keep the odd byte
            pcm16, self._odd_byte = self._odd_byte + pcm16, b""
        if len(pcm16) % 2:
            pcm16, self._odd_byte = pcm16[:-1], bytes(pcm16[-1:])
        audio = self._resampler.process(pcm16_to_float(pcm16))
        if self._detector is None:
            self._append(audio)
            return
        self._pending = np.concatenate([self._pending, audio])
        while self._pending.size >= FRAME and not self._closed:
            frame, self._pending = self._pending[:FRAME], self._pending[FRAME:]
            self._on_frame(frame)

    async def take_audio(self, pcm16: bytes, event_id: str | None = None) -> None:
        """push_audio AUDIO_SLICE_MS at a time, other sessions running between the slices; errors carry event_id."""
        step = 2 * self.config.input_rate * AUDIO_SLICE_MS // 1000
        for start in range(0, len(pcm16), step):
            if start:
                await asyncio.sleep(0)
            with self.caused_by(event_id):
                self.push_audio(pcm16[start:start + step])

    def commit_audio(self) -> None:
        if self._buffer_samples < RATE // 10:
            self._emit(Error("input_audio_buffer_commit_empty",
                             f"buffer too small: expected at least 100ms of audio, "
                             f"have {self._buffer_samples * 1000 // RATE}ms"))
            return
        turn = self._turn or _Turn(new_id("item"))
        self._turn = None
        turn.speech_end_samples = self._buffer_samples
        turn.speech_end_wall = turn.vad_wall = time.monotonic()
        if self._detector:
            self._detector = TurnDetector(self.config.turn_detection)
        self._commit(turn)

    def clear_audio(self) -> None:
        self._clear_buffer()
        self._turn = None
        self._drop_speculation()
        if self._detector:
            self._detector = TurnDetector(self.config.turn_detection)
        self._emit(AudioCleared())

    @property
    def _buffer_samples(self) -> int:
        return self._buffer.size

    def _clear_buffer(self) -> None:
        self._buffer.clear()
        self._buffer_full_reported = False

    def _append(self, audio: np.ndarray) -> None:
        if self._buffer_samples + audio.size > self.limits.max_buffer_ms * RATE // 1000:
            if not self._buffer_full_reported:
                self._buffer_full_reported = True
                self._emit(Error("input_audio_buffer_full",
                                 f"the input audio buffer holds at most {self.limits.max_buffer_ms} ms; "
                                 "commit or clear it (audio beyond that is dropped)"))
            return
        self._buffer.append(audio)

    def _on_frame(self, frame: np.ndarray) -> None:
        detector, levels = self._detector, self._levels
        rms = float(np.sqrt(np.mean(frame * frame)))
        signal = levels.step(detector, self._vad.probability(frame), rms)
        self._append(frame)
        turn = self._turn
        if turn is None and signal is not Signal.START:     # idle: keep only the prefix padding
            keep = self.config.turn_detection.prefix_padding_ms * RATE // 1000 + FRAME * MIN_SPEECH_FRAMES
            if self._buffer_samples > keep:              # drop whole frames, keeping at least `keep` samples
                self._buffer.drop((self._buffer_samples - keep) // FRAME * FRAME)
            return
        if signal is Signal.START:
            turn = self._turn = _Turn(new_id("item"), last_job_done=self._buffer_samples)
            start_ms = (detector.start_frame * FRAME_MS) - self.config.turn_detection.prefix_padding_ms
            self._emit(SpeechStarted(max(0, start_ms), turn.item_id))
            response = self._response
            if response and not response.done and self.config.turn_detection.interrupt_response:
                self._emit(Interrupted(response.id))
                self._cancel_response(response, "turn_detected")
        quiet_consonant = (0 < detector.silence_ms <= TAIL_MS
                           and rms >= max(TAIL_LEVEL * levels.peak_rms, 3 * levels.noise_rms))
        if detector.silence_ms == 0 or quiet_consonant:
            turn.speech_end_samples = self._buffer_samples
            turn.speech_end_wall = time.monotonic()
        if detector.silence_ms == 0 and self._speculation is not None and self._speculation.turn is turn:
            self._drop_speculation()                    # the user goes on: that reply was premature
        if detector.silence_ms == 0 and turn.job is not None and turn.job_urgent:
            # and that pause's final is moot: the next pause's would wait for it (its text, a partial's, is lost)
            turn.job.cancel()
            turn.job, turn.last_job_done = None, self._buffer_samples
        if signal is Signal.END:
            self._end_turn(turn)
        elif signal is Signal.PAUSE:
            self._transcribe(turn, URGENT)
            if detector.semantic:
                self._spawn(self._judge_sound(turn, detector), "smart_turn")
        elif turn.job is None and detector.silence_ms == 0:
            # partials wait for a quiet moment, but not for ever: the queue still serves turn ends first
            since_ms = (self._buffer_samples - turn.last_job_done) * 1000 // RATE
            if since_ms >= PARTIAL_EVERY_MS and (self.engines.idle or since_ms >= PARTIAL_AT_LEAST_MS):
                self._transcribe(turn, BACKGROUND)

    def _end_turn(self, turn: _Turn) -> None:
        turn.vad_wall = time.monotonic()
        self._turn = None
        self._emit(SpeechStopped(self._detector.speech_end_ms, turn.item_id))
        self._commit(turn)

    def _commit(self, turn: _Turn) -> None:
        audio = self._buffer.view()
        self._clear_buffer()
        turn.committed = True
        previous = self.items[-1].id if self.items else None
        self.items.append(Item(turn.item_id, "message", "user"))
        self._emit(AudioCommitted(turn.item_id, previous))
        self._trim_history()
        self._transcripts.add(self._spawn(self._finish_transcript(turn, audio), "transcript"))

    # ---- transcription --------------------------------------------------------------------------

    def _transcribe(self, turn: _Turn, priority: int) -> None:
        """Transcribe the turn's audio so far: BACKGROUND = a partial, URGENT = final quality."""
        if turn.job is not None:
            if priority == BACKGROUND or turn.job_urgent:
                return                                  # _run_job follows up once this one finishes
            turn.job.cancel()                           # a partial is moot at a pause: the final one goes first
        if priority == URGENT and turn.latest and turn.latest[0] >= turn.speech_end_samples:
            return
        audio = self._buffer.view()
        turn.job_covers, turn.job_urgent = audio.size, priority == URGENT
        turn.job = self._spawn(self._run_job(turn, audio, priority), "stt")

    async def _run_job(self, turn: _Turn, audio: np.ndarray, priority: int) -> str:
        try:
            if priority == URGENT:
                patient = self._detector is not None and self._detector.semantic and \
                    self._detector.settings.eagerness == "low"
                heard, finished, if_going_on, hold_ms, evidence = await self.engines.transcription.hear(
                    audio, self._prompt_names(), patient)
                text = heard.text
            else:
                text = await self.engines.transcription.transcribe(audio, priority, self._prompt_names())
        except Exception:
            turn.job = None         # told as a server_error (_task_done); the committed turn is transcribed anew
            raise
        turn.job, turn.last_job_done = None, self._buffer_samples
        if priority == URGENT:
            text = self._with_home_names(text, heard.unsure_words(), heard.unsure_numbers(), heard.doubted_words(),
                                         heard.doubted_change_words(), dict(heard.guessed))
            turn.latest = (audio.size, text)
            if audio.size >= turn.speech_end_samples:
                turn.heard_wall = time.monotonic()
        if turn.committed or turn is not self._turn:
            return text
        self._partial(turn, text)
        paused = self._detector is not None and self._detector.silence_ms > 0
        if paused and priority == URGENT and audio.size >= turn.speech_end_samples:
            self._speculate(turn, text)
            if self._detector.transcript_ready(finished, if_going_on, hold_ms, evidence):
                self._end_turn(turn)
        elif paused:
            self._transcribe(turn, URGENT)              # the pause came while this job ran
        return text

    async def _judge_sound(self, turn: _Turn, detector: TurnDetector) -> None:
        """Smart Turn on the turn's audio up to this pause: has the speaker finished, by the sound of it?"""
        pause = detector.speech_end_frame
        finished = await self.engines.run(self.engines.turn_model.finished, self._buffer.view())
        if detector.speech_end_frame == pause:
            turn.sound_wall = time.monotonic()
        same_pause = detector.speech_end_frame == pause and detector.silence_ms > 0
        if turn is self._turn and detector is self._detector and same_pause and detector.audio_ready(finished):
            self._end_turn(turn)

    def _prompt_names(self) -> tuple[str, ...]:
        """The names the recogniser is prompted with (none in the default home); those heard against are
        ToolRunner.home_names."""
        return self.tools.spoken_names() if self.tools is not None else ()

    def _with_home_names(self, text: str, unsure: frozenset[str] = frozenset(),
                         unsure_numbers: frozenset[str] = frozenset(), doubted: frozenset[str] = frozenset(),
                         doubted_change: frozenset[str] = frozenset(), guessed: dict[str, str] | None = None) -> str:
        """A final-quality transcript with the home's names put in for words that sound like them; a call to a
        name only guessed (here, or by the recogniser against the audio: guessed, where another of the home's names
        sounds like it, voice.heard_doubts.guesses_standing) asks first ("Did you mean the samovar?"): the tools
        hold the guesses, the words the recogniser was unsure of (a timer is not named with them), the numbers and
        words it doubted (a call made of one, or a timer named with one, is said back first; a change, below its
        own line), and that the words were heard. Words Whisper writes otherwise ("at touch", "Can seal the
        timer") are put back as said (voice.heard_text)."""
        text = said_words(text)
        if self.tools is not None:
            self.tools.unsure_words, self.tools.unsure_numbers, self.tools.spoken = unsure, unsure_numbers, True
            self.tools.doubted_words, self.tools.doubted_change_words = doubted, doubted_change
        names = self.tools.home_names() if self.tools is not None else ()
        if not names:
            return text
        hearing, self.tools.guessed_names, self.tools.doubted_words, self.tools.doubted_change_words = \
            names_heard_in(text, names, doubted, doubted_change, guessed or {})
        return hearing.text

    def _partial(self, turn: _Turn, text: str) -> None:
        """Send the words this hypothesis and the one before agree on, beyond those already sent.

        Whisper on a turn cut off mid-word guesses ("Please settle."); deltas cannot be taken back."""
        first = not turn.partial.emitted
        new = turn.partial.update(text)
        if new:
            self._emit(TranscriptDelta(turn.item_id, new if first else " " + new))

    async def _finish_transcript(self, turn: _Turn, audio: np.ndarray) -> None:
        try:
            await self._transcribe_committed(turn, audio)
        finally:
            self._transcripts.discard(asyncio.current_task())

    async def _transcribe_committed(self, turn: _Turn, audio: np.ndarray) -> None:
        if turn.job is not None and turn.job_urgent and turn.job_covers >= turn.speech_end_samples:
            await asyncio.wait([turn.job])      # its transcript becomes turn.latest; a failure was told (_task_done)
        if turn.latest and turn.latest[0] >= turn.speech_end_samples:
            text = turn.latest[1]
        else:
            heard = await self.engines.transcription.final(audio, self._prompt_names())
            text = self._with_home_names(heard.text, heard.unsure_words(), heard.unsure_numbers(),
                                         heard.doubted_words(), heard.doubted_change_words(), dict(heard.guessed))
        turn.transcript_wall = time.monotonic()
        item = self._item(turn.item_id)
        if item is not None:
            item.text = text
        self._emit(TranscriptCompleted(turn.item_id, text))
        detection = self.config.turn_detection
        wants_reply = detection is not None and detection.create_response and text and not self._closed
        speculation, self._speculation = self._speculation, None
        if wants_reply and self.engines.generator is not None and not (self._response and not self._response.done):
            instructions = self.config.instructions
            if speculation is not None and speculation.history == self._messages(instructions):
                self._release(speculation)
                return
            self._start_response(turn)
        if speculation is not None:
            speculation.task.cancel()
            self._speculated("wasted")

    async def _transcripts_done(self) -> None:
        """A reply must see what the user said: wait for committed turns still being transcribed."""
        pending = [t for t in self._transcripts if t is not asyncio.current_task()]
        if pending:
            await asyncio.gather(*pending, return_exceptions=True)

    def _speculate(self, turn: _Turn, transcript: str) -> None:
        """Write (and start speaking) the reply to what was said up to this pause, held back."""
        detection = self.config.turn_detection
        if (self.engines.generator is None or not detection.create_response or not transcript.strip()
                or self._transcripts or (self._response and not self._response.done)):
            return
        instructions = self.config.instructions
        history = self._messages(instructions) + [{"role": "user", "content": transcript}]
        if self._speculation is not None:
            if self._speculation.history == history:
                return                                  # same words as the last pause: same reply
            self._drop_speculation()
        response = _Response(new_id("resp"), new_id("item"), self.config.audio_output, instructions, turn,
                             time.monotonic(), history=history)
        response.task = self._spawn(self._run_response(response), "speculation")
        self._speculation = response

    def _drop_speculation(self) -> None:
        if self._speculation is not None:
            self._speculation.task.cancel()
            self._speculation = None
            self._speculated("wasted")

    def _release(self, response: _Response) -> None:
        """The turn ended as the speculation assumed: it becomes the response, and what it holds goes out."""
        self._response = response
        self._emit(ResponseCreated(response.id))
        response.released.set()
        for change in response.held:
            change()
        response.held.clear()
        self._speculated("used")

    def _speculated(self, outcome: str) -> None:
        if self.metrics:
            self.metrics.speculation(outcome)

    def _when_released(self, response: _Response, change) -> None:
        """Apply a change to the session now, or at the release for a held speculation."""
        if response.released.is_set():
            change()
        else:
            response.held.append(change)

    # ---- conversation items ---------------------------------------------------------------------

    def add_user_text(self, text: str, item_id: str | None = None) -> str:
        return self.add_message("user", text, item_id)

    # previous_item_id places an added item as OpenAI does: None appends, "root" puts it first, an id after that item

    def add_message(self, role: str, text: str, item_id: str | None = None, *,
                    previous_item_id: str | None = None) -> str | None:
        if role == "user" and self.tools is not None:
            self.tools.guessed_names = {}       # typed words are meant as written: no name in them is a guess
            self.tools.unsure_words = self.tools.unsure_numbers = self.tools.doubted_words = frozenset()
            self.tools.doubted_change_words = frozenset()
            self.tools.spoken = False
        item = Item(item_id or new_id("item"), "message", role, text)
        return item.id if self._add(item, previous_item_id) else None

    def add_function_call(self, call_id: str, name: str, arguments: str, item_id: str | None = None, *,
                          previous_item_id: str | None = None) -> str | None:
        item = Item(item_id or new_id("item"), "function_call", call_id=call_id, name=name, arguments=arguments)
        return item.id if self._add(item, previous_item_id) else None

    def add_function_output(self, call_id: str, output: str, item_id: str | None = None, *,
                            previous_item_id: str | None = None) -> str | None:
        item = Item(item_id or new_id("item"), "function_call_output", text=output, call_id=call_id)
        return item.id if self._add(item, previous_item_id) else None

    def _add(self, item: Item, previous_item_id: str | None = None) -> bool:
        if len(item.text) > self.limits.max_text_chars:
            self._emit(Error("text_too_long", f"an item's text may be at most {self.limits.max_text_chars} "
                             f"characters, this one has {len(item.text)}"))
            return False
        if self._item(item.id) is not None:
            self._emit(Error("item_create_duplicate_item_id", f"an item with id {item.id!r} already exists",
                             "item.id"))
            return False
        if previous_item_id is None:
            position = len(self.items)
        elif previous_item_id == "root":
            position = 0
        else:
            after = self._item(previous_item_id)
            if after is None:
                self._emit(Error("item_not_found", f"no conversation item with id {previous_item_id!r} to add "
                                 "the item after", "previous_item_id"))
                return False
            position = self.items.index(after) + 1
        previous = self.items[position - 1].id if position else None
        self.items.insert(position, item)
        text = item.arguments if item.type == "function_call" else item.text
        self._emit(ItemAdded(item.id, previous, item.type, item.role, text, item.call_id, item.name))
        self._trim_history()
        return True

    def _trim_history(self) -> None:
        """Keep the newest max_history_items items; older ones are deleted (and clients told so)."""
        while len(self.items) > self.limits.max_history_items:
            self._emit(ItemDeleted(self.items.pop(0).id))

    def delete_item(self, item_id: str) -> None:
        item = self._item(item_id)
        if item is None:
            self._emit(Error("item_not_found", f"no conversation item with id {item_id!r}", "item_id"))
            return
        self.items.remove(item)
        self._emit(ItemDeleted(item_id))

    def truncate(self, item_id: str, audio_end_ms: int) -> None:
        """The client played only audio_end_ms of this assistant item: forget the rest."""
        item = self._item(item_id)
        if item is None or item.role != "assistant":
            self._emit(Error("item_not_found", f"no assistant audio item with id {item_id!r}", "item_id"))
            return
        if item.segments and audio_end_ms > item.segments[-1][1] + 1:
            self._emit(Error("invalid_value", f"audio_end_ms {audio_end_ms} is past the item's audio "
                             f"({int(item.segments[-1][1])} ms)", "audio_end_ms"))
            return
        item.text = heard_text(item.segments, audio_end_ms)
        self._emit(ItemTruncated(item_id, audio_end_ms, item.text))

    def dtmf(self, digit: str) -> None:
        """A key press interrupts the reply (as on any phone menu) and is noted in the history."""
        response = self._response
        if response and not response.done:
            self._emit(Interrupted(response.id))
            self._cancel_response(response, "dtmf")
        self.add_message("user", f"(pressed {digit})")

    def _item(self, item_id: str) -> Item | None:
        return next((i for i in self.items if i.id == item_id), None)

    # ---- responses ------------------------------------------------------------------------------

    def create_response(self, instructions: str | None = None, audio: bool | None = None, *,
                        response_id: str | None = None) -> str | None:
        if self._response and not self._response.done:
            self._emit(Error("conversation_already_has_active_response",
                             f"response {self._response.id} is still in progress; cancel it first"))
            return None
        if self.engines.generator is None:
            self._emit(Error("no_assistant", "this server runs transcription only"))
            return None
        return self._start_response(turn=None, instructions=instructions, audio=audio, response_id=response_id).id

    def say(self, text: str) -> str:
        """Speak fixed text as a response (greetings, goodbyes); it enters the history like a reply."""
        if self._response and not self._response.done:
            self._cancel_response(self._response, "replaced")
        return self._start_response(turn=None, fixed_text=text).id

    def cancel_response(self) -> None:
        response = self._response
        if response is None or response.done:
            # OpenAI's wording: LiveKit cancels on every barge-in and treats only this message as benign
            self._emit(Error("response_cancel_not_active", "Cancellation failed: no active response found"))
            return
        self._cancel_response(response, "client_cancelled")

    def _start_response(self, turn: _Turn | None, instructions: str | None = None, audio: bool | None = None,
                        fixed_text: str | None = None, response_id: str | None = None) -> _Response:
        response = _Response(response_id or new_id("resp"), new_id("item"), self.config.audio_output if audio is None else audio,
                             instructions if instructions is not None else self.config.instructions,
                             turn, time.monotonic(), fixed_text)
        response.released.set()
        self._response = response
        self._emit(ResponseCreated(response.id))
        response.task = self._spawn(self._run_response(response), "response")
        return response

    async def _run_response(self, response: _Response) -> None:
        text_queue: asyncio.Queue = asyncio.Queue()
        # synthesis follows playback: at most one clause waits, so a 20 KB greeting is not all synthesised at once
        audio_queue: asyncio.Queue = asyncio.Queue(maxsize=1)
        stages = [self._generate(response, text_queue)]
        if response.audio:
            stages += [self._speak(response, text_queue, audio_queue), self._play(response, audio_queue)]
        tasks = [asyncio.create_task(stage, name=f"{self.id}:{stage.__name__.lstrip('_')}") for stage in stages]
        try:
            try:
                await asyncio.gather(*tasks)
            except Exception as exc:  # noqa: BLE001 - a failed reply must not kill the session
                status, reason = "failed", f"{type(exc).__name__}: {exc}"
            else:
                status, reason = "completed", None
            await response.released.wait()             # a speculation ends only once it is the response
            self._finish_response(response, status, reason)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _generate(self, response: _Response, text_queue: asyncio.Queue) -> None:
        """Stage 1: the assistant's text blocks (tool calls on the way) → text_queue."""
        if response.fixed_text is not None:
            self._text(response, response.fixed_text, text_queue)
            await text_queue.put(None)
            return
        from assistant.generator import DoneEvent, TextEvent, ToolCallEvent
        if response.history is None:
            await self._transcripts_done()
            response.history = self._messages(response.instructions)
        if self._missed_timers and response.released.is_set():    # not into a reply that may be dropped
            missed, self._missed_timers = self._missed_timers, []
            self._text(response, " ".join(missed) + " ", text_queue)
        generator = self.engines.generator
        tools = self.tools if response.released.is_set() else HeldTools(self.tools, response.released)
        replies = generator.respond(response.history, tools, client_tools=self.config.client_tools,
                                    session_id=self.id)
        try:
            async for event in replies:
                if isinstance(event, ToolCallEvent):
                    self._when_released(response, functools.partial(self._tool_call, response, event))
                elif isinstance(event, TextEvent) and event.text:
                    self._text(response, event.text, text_queue)
                elif isinstance(event, DoneEvent):
                    response.tokens = (event.reply.prompt_tokens, event.reply.tokens)
                    response.generator = (event.reply.generator or generator.name, event.reply.fallback)
        finally:
            await replies.aclose()
        await text_queue.put(None)

    def _tool_call(self, response: _Response, event) -> None:
        call = event.call
        arguments = json.dumps(call.arguments)
        previous = self.items[-1].id if self.items else None
        # the call stays in the history, so a follow-up ("and in the bedroom") knows what was done
        item = Item(new_id("item"), "function_call", call_id=call.call_id, name=call.name, arguments=arguments)
        self.items.append(item)
        self._trim_history()
        if event.local:
            # and its result: a remote model that reads the history sees what its call did
            output = Item(new_id("item"), "function_call_output", text=event.result or "", call_id=call.call_id,
                          state=self._kept_state())
            self.items.append(output)
            self._trim_history()
            self._emit(ToolCallExecuted(response.id, call.call_id, call.name, call.arguments, event.result,
                                        item.id, output.id, previous))
        else:
            self._emit(ToolCallRequested(response.id, item.id, call.call_id, call.name, arguments, previous))

    def _text(self, response: _Response, text: str, text_queue: asyncio.Queue) -> None:
        if response.done:               # cancelled: words a generator still yields on its way out are not said
            return
        if response.first_block_wall is None:
            response.first_block_wall = time.monotonic()
            self._when_released(response, functools.partial(self._assistant_item, response))
        response.text += text
        self._when_released(response, functools.partial(self._emit, TextDelta(response.id, response.item_id, text)))
        text_queue.put_nowait(text)

    def _assistant_item(self, response: _Response) -> None:
        self.items.append(Item(response.item_id, "message", "assistant", state=response.state))
        self._trim_history()

    async def _speak(self, response: _Response, text_queue: asyncio.Queue, audio_queue: asyncio.Queue) -> None:
        """Stage 2: synthesise each clause as soon as it is complete → audio_queue (a held speculation:
        only the first clause, the one the user waits for)."""
        clauses, synthesized = ClauseBuffer(), 0
        while True:
            piece = await text_queue.get()
            for clause in clauses.add(piece) if piece is not None else clauses.flush():
                if synthesized:
                    await response.released.wait()
                pcm = await self.engines.run(self._synthesize, clause, self.config.output_rate)
                if response.first_clause_wall is None:
                    response.first_clause_wall = time.monotonic()
                synthesized += 1
                await audio_queue.put((clause, pcm))
            if piece is None:
                break
        await audio_queue.put(None)

    def _synthesize(self, clause: str, rate: int) -> bytes:
        tts = self.engines.tts
        return float_to_pcm16(resample(tts.synthesize(clause), tts.sample_rate, rate))

    async def _play(self, response: _Response, audio_queue: asyncio.Queue) -> None:
        """Stage 3: AudioDelta chunks, paced so at most playback_lead_ms is ahead of the listener."""
        rate = self.config.output_rate
        chunk_bytes = rate * 2 * CHUNK_MS // 1000
        await response.released.wait()
        while (entry := await audio_queue.get()) is not None:
            clause, pcm = entry
            start_ms = response.sent_ms
            response.segments.append((start_ms, start_ms + len(pcm) / 2 / rate * 1000, clause))
            for offset in range(0, len(pcm), chunk_bytes):
                chunk = pcm[offset:offset + chunk_bytes]
                ahead_ms = response.sent_ms - response.played_ms()
                if ahead_ms > self.config.playback_lead_ms:
                    await asyncio.sleep((ahead_ms - self.config.playback_lead_ms) / 1000)
                now = time.monotonic()
                if response.first_audio_wall is None:
                    response.first_audio_wall = now
                    response.timing = self._timing(response)
                duration_ms = len(chunk) / 2 / rate * 1000
                response.play_end_wall = max(response.play_end_wall, now) + duration_ms / 1000
                response.sent_ms += duration_ms
                self._emit(AudioDelta(response.id, response.item_id, chunk))
        # the reply is still being heard until its last chunk has played: a barge-in then still interrupts it
        remaining = response.play_end_wall - time.monotonic()
        if remaining > 0:
            await asyncio.sleep(remaining)

    def _timing(self, response: _Response) -> dict[str, float]:
        """Stage durations known so far (a text-only reply has no audio stages)."""
        def ms(a: float | None, b: float | None) -> float | None:
            # a speculation's first block is ready before its transcript is final: that stage took 0
            return None if a is None or b is None else max(0.0, round((b - a) * 1000, 1))
        block, audio, turn = response.first_block_wall, response.first_audio_wall, response.turn
        if turn is None:
            stages = {"request_to_first_block": ms(response.requested_wall, block),
                      "first_block_to_first_audio": ms(block, audio),
                      "request_to_first_audio": ms(response.requested_wall, audio)}
        else:
            stages = {"end_of_speech_to_vad": ms(turn.speech_end_wall, turn.vad_wall),
                      "vad_to_transcript": ms(turn.vad_wall, turn.transcript_wall),
                      "transcript_to_first_block": ms(turn.transcript_wall, block),
                      "first_block_to_first_audio": ms(block, audio),
                      "voice_to_voice": ms(turn.speech_end_wall, audio),
                      # the moments after the last speech frame, in the order a reply needs them
                      "end_of_speech_to_pause_transcript": ms(turn.speech_end_wall, turn.heard_wall),
                      "end_of_speech_to_smart_turn": ms(turn.speech_end_wall, turn.sound_wall),
                      "end_of_speech_to_first_block": ms(turn.speech_end_wall, block),
                      "end_of_speech_to_first_clause": ms(turn.speech_end_wall, response.first_clause_wall)}
        return {name: value for name, value in stages.items() if value is not None}

    def _finish_response(self, response: _Response, status: str, reason: str | None = None) -> None:
        if response.done:
            return
        response.done = True
        item = self._item(response.item_id)
        if status == "cancelled" and response.audio:
            kept = heard_text(response.segments, response.played_ms())
        else:
            kept = response.text
        if item is not None:
            item.text, item.segments = kept, list(response.segments)
        if response.ring is not None:
            self._end_ring(response, item, reason)
        if status == "completed" and item is not None:
            if response.audio:
                self._emit(AudioDone(response.id, response.item_id))
            self._emit(TextDone(response.id, response.item_id, response.text))
        if not response.timing and response.first_block_wall is not None:
            response.timing = self._timing(response)
        self._emit(ResponseDone(response.id, status, dict(response.timing), kept,
                                response.item_id if item is not None else None, reason, *response.tokens,
                                *(response.generator or (None, None))))

    def _cancel_response(self, response: _Response, reason: str) -> None:
        """Stop generation, synthesis and playback now; the reply ends as `cancelled`."""
        if response.task is not None:
            response.task.cancel()
        self._finish_response(response, "cancelled", reason)

    async def _ring_timer(self) -> None:
        """Say the oldest ring waiting when nobody is talking: a ring never cuts off a reply or swallows a request."""
        while not self.idle:
            await asyncio.sleep(RING_POLL_S)
        if self._rings_to_say:                        # else the oldest gave way to a newer one (MAX_TIMERS)
            ring = self._rings_to_say.pop(0)
            self.say(ring)
            self._response.ring = ring
            # what rang ("stop" on another gateway stops it), and this ring still to say until it is heard
            self._response.state = self._kept_state()

    @property
    def _ring_being_said(self) -> str | None:
        response = self._response
        return response.ring if response is not None and not response.done else None

    def _end_ring(self, response: _Response, item: Item | None, reason: str | None) -> None:
        """A ring's reply ended. It was heard if it played out (a text-only client: its text was sent) or the user
        stopped it (talking over it, a key, the client's cancel), and is then said no more; one that failed is not
        tried again (the client was told). Cut off by the session's close (the client left, the connection
        dropped, the session was ended), it goes back first among the rings to say: a resume says it once more.
        The state kept on the ring's item and on the newest item (the one a resume reads) says which."""
        if reason == "session_closed":
            self._rings_to_say.insert(0, response.ring)
        state = self._kept_state()
        for kept in (item, self.items[-1] if self.items else None):
            if kept is not None:
                kept.state = state

    # ---- plumbing -------------------------------------------------------------------------------

    def _messages(self, instructions: str | None) -> list[dict]:
        """The history as OpenAI-style chat messages for Generator.respond.

        System messages that end the history while no user message waits for a reply are the request
        (Pipecat queues a typed message as a system item), so they are passed on as the user's."""
        messages = [{"role": "system", "content": instructions}] if instructions else []
        asked = self._system_request()
        for item in self.items:
            if item.type == "message" and item.text:
                messages.append({"role": "user" if item.id in asked else item.role, "content": item.text})
            elif item.type == "function_call":
                messages.append({"role": "assistant", "content": "", "tool_calls": [
                    {"call_id": item.call_id, "name": item.name, "arguments": item.arguments}]})
            elif item.type == "function_call_output":
                messages.append({"role": "tool", "content": item.text, "call_id": item.call_id})
        return messages

    def _system_request(self) -> set[str]:
        """Ids of the trailing system messages, unless the item before them is a user message (unanswered)."""
        tail = len(self.items)
        while tail and self.items[tail - 1].type == "message" and self.items[tail - 1].role == "system":
            tail -= 1
        before = self.items[tail - 1] if tail else None
        if before is not None and before.type == "message" and before.role == "user":
            return set()
        return {item.id for item in self.items[tail:]}

    async def _expire(self) -> None:
        await asyncio.sleep(self.limits.max_duration_s)
        self._emit(Error("session_expired", f"sessions last at most {self.limits.max_duration_s:g} s"))
        self._emit(EndCall("max_duration"))
        await self.close()

    def _spawn(self, coro, name: str) -> asyncio.Task:
        task = asyncio.create_task(coro, name=f"{self.id}:{name}")
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None and not self._closed:
            self._emit(Error("server_error", f"{type(task.exception()).__name__}: {task.exception()}"))

    @contextlib.contextmanager
    def caused_by(self, event_id: str | None) -> Iterator[None]:
        """Errors emitted while a client event is applied carry its id, so the client can match them."""
        self._cause = event_id
        try:
            yield
        finally:
            self._cause = None

    def _emit(self, event: SessionEvent) -> None:
        if self._closed and not isinstance(event, ResponseDone):
            return
        if isinstance(event, Error) and event.event_id is None and self._cause is not None:
            event = replace(event, event_id=self._cause)
        if self.metrics:
            self.metrics.observe(event)
        self._queue.put_nowait(event)
        if self.on_history_changed is not None and isinstance(event, HISTORY_EVENTS):
            self.on_history_changed()
