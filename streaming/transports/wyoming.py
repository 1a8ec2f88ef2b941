"""Wyoming server: Home Assistant adds Parley as its speech-to-text, text-to-speech and conversation agent.

One TCP port (default 10600; Piper, Whisper, openWakeWord and satellites usually hold 10200, 10300, 10400
and 10700 on the same host) answers `describe` with three programs:
- asr: `transcribe` + audio-start/chunk/stop → `transcript`; streamed as transcript-start/chunk/stop, the
  chunks being words two successive partial transcriptions agree on while audio still arrives (the session
  core's StableWords). `transcribe`'s transcript_names and transcript_terms join the home's names in
  Whisper's prompt; vad_sensitivity sets the Silero threshold that trims the audio to its speech;
- tts: `synthesize` → audio-start/chunk/stop, clause by clause; synthesize-start/chunk/stop streams text
  in and audio out per finished clause, then `synthesize-stopped`;
- handle: `transcript` → `handled` with Parley's reply (tools act on the home), streamed as
  handled-start/chunk/stop around it. A conversation is kept by `context.conversation_id` (else by
  connection), so follow-ups work; its timers are announced as timer-started/updated/cancelled/finished to the
  connections that spoke in it.
Wyoming exposes the engines themselves, so this transport uses the shared Engines bundle directly
(speech-to-text through its priority queue, TTS on its threads, the assistant) rather than a Session.
"""
from __future__ import annotations

import argparse
import asyncio
import logging
import os
import time
from collections import OrderedDict
from importlib.metadata import PackageNotFoundError, version

import numpy as np
from aiohttp import web
from wyoming.asr import Transcribe, Transcript, TranscriptChunk, TranscriptStart, TranscriptStop
from wyoming.audio import AudioChunk, AudioStart, AudioStop
from wyoming.error import Error
from wyoming.event import Event, async_write_event
from wyoming.handle import Handled, HandledChunk, HandledStart, HandledStop, NotHandled
from wyoming.info import (AsrModel, AsrProgram, Attribution, Describe, HandleModel, HandleProgram, Info,
                          TtsProgram, TtsVoice)
from wyoming.server import AsyncEventHandler
from wyoming.timer import TimerCancelled, TimerFinished, TimerStarted, TimerUpdated
from wyoming.tts import Synthesize, SynthesizeChunk, SynthesizeStart, SynthesizeStop, SynthesizeStopped

from assistant.tools import LocalTimers
from streaming import client_json
from streaming.client_text import holds_lone_surrogate
from streaming.engines import BACKGROUND, URGENT
from streaming.logsafe import printable
from streaming.supervisor import Supervisor
from voice.audio import float_to_pcm16, pcm16_to_float, resample
from voice.stt import StableWords
from voice.vad import SileroVAD
from voice.tts import ClauseBuffer, split_clauses

log = logging.getLogger("parley.wyoming")
TASK = "wyoming"

DEFAULT_PORT = 10600
STT_RATE = 16000
SAMPLES_PER_CHUNK = 1024            # TTS audio-chunk size, as wyoming-piper sends
MAX_AUDIO_SECONDS = 60              # longer requests are refused: a voice command is seconds long
PARTIAL_EVERY_SECONDS = 1.0         # streaming ASR: re-transcribe after this much new audio
MAX_EVENT_BYTES = 1 << 20            # data or payload of one event: audio chunks are a few KiB
MAX_HEADER_BYTES = 1 << 16          # a header line: the stream reader's limit (an inline synthesize text fits)
# Commas and brackets an event's header line or data may hold: each JSON value past a container's first follows a
# comma, so this bounds what its parse builds on the event loop (1 MiB of `[],` held it 0.22 s). A synthesize event's
# 16,000 characters of text, every one a comma, hold 16,000 (inline in the header line too, as older clients send).
MAX_EVENT_VALUES = 20_000
AUDIO_RATES = range(8000, 96001)     # what an audio stream may announce; 1e9 would lift the 60 s cap
MAX_CHANNELS = 2
MAX_TEXT_CHARS = 16_000              # a transcript to handle, text to synthesise in one event or in one clause
                                     # of a synthesize-chunk stream
MAX_HISTORY_MESSAGES = 40            # per conversation: the assistant only reads the last turns anyway
MAX_CONVERSATIONS = 64               # kept by context.conversation_id; the least recently used goes first
CONVERSATION_IDLE_S = 600.0          # a conversation untouched this long is forgotten (its timers stop)
MAX_CONVERSATION_ID_CHARS = 200
MAX_BIAS_PHRASES = 200               # transcript_names + transcript_terms; Whisper's prompt holds far fewer
MAX_BIAS_PHRASE_CHARS = 100
# vad_sensitivity -> Silero speech threshold. "How quickly the end of a voice command is detected": a higher
# threshold ends the speech at the first quieter frame, a lower one keeps soft trailing words.
VAD_THRESHOLDS = {"relaxed": 0.35, "default": 0.5, "aggressive": 0.65}
SPEECH_PAD_S = 0.3                   # audio kept either side of the detected speech
MAX_CONNECTIONS = 32                 # Home Assistant opens one per request
IDLE_TIMEOUT_S = 60.0                # a connection that sends nothing for this long is closed
WRITE_TIMEOUT_S = 10.0               # a peer that stops reading is dropped


def _version() -> str:
    try:
        return version("parley-voice")
    except PackageNotFoundError:
        return "0"


def build_info() -> Info:
    """What Home Assistant sees: one ASR, one TTS and one intent-handling program."""
    parley = Attribution(name="Parley", url="")
    whisper = Attribution(name="faster-whisper (Systran), OpenAI Whisper", url="https://github.com/SYSTRAN/faster-whisper")
    piper = Attribution(name="Piper (Rhasspy)", url="https://github.com/rhasspy/piper")
    return Info(
        asr=[AsrProgram(name="parley-stt", description="Parley speech-to-text (Whisper tiny.en)", attribution=parley,
                        installed=True, version=_version(), supports_transcript_streaming=True,
                        models=[AsrModel(name="tiny.en", description="Whisper tiny.en (CTranslate2 int8)",
                                         attribution=whisper, installed=True, version=None, languages=["en"])])],
        tts=[TtsProgram(name="parley-tts", description="Parley text-to-speech (Piper)", attribution=parley,
                        installed=True, version=_version(), supports_synthesize_streaming=True,
                        voices=[TtsVoice(name="en_US-joe-medium", description="Piper joe (medium)",
                                         attribution=piper, installed=True, version=None, languages=["en_US"])])],
        handle=[HandleProgram(name="parley", description="Parley voice assistant (diffusion language model)",
                              attribution=parley, installed=True, version=_version(),
                              supports_handled_streaming=True, supports_home_control=True,
                              models=[HandleModel(name="parley-home", description="Parley's home assistant model",
                                                  attribution=parley, installed=True, version=_version(),
                                                  languages=["en"])])],
    )


# ---- pure helpers ------------------------------------------------------------------------------------

class AudioIn:
    """One audio-start..audio-stop stream, kept as float mono at its own rate."""

    def __init__(self, rate):
        if isinstance(rate, float) and rate.is_integer():
            rate = int(rate)
        if isinstance(rate, bool) or not isinstance(rate, int) or rate not in AUDIO_RATES:
            raise ValueError(f"audio rate must be an integer from {AUDIO_RATES.start} to {AUDIO_RATES.stop - 1} Hz")
        self.rate = rate
        self.parts: list[np.ndarray] = []
        self.samples = 0
        self.partial_at = 0             # samples when the last partial transcription started

    def add(self, chunk: AudioChunk) -> str | None:
        """Returns an error text for audio this server cannot take."""
        if chunk.width != 2:
            return f"audio must be 16-bit PCM (width 2); got width {chunk.width}"
        if chunk.rate != self.rate:
            return f"audio-chunk rate {chunk.rate} differs from the stream's {self.rate}"
        if not isinstance(chunk.channels, int) or not 1 <= chunk.channels <= MAX_CHANNELS \
                or len(chunk.audio) % (2 * chunk.channels):
            return "audio-chunk length is not a whole number of frames"
        if self.samples > MAX_AUDIO_SECONDS * self.rate:
            return f"audio longer than {MAX_AUDIO_SECONDS} s"
        samples = pcm16_to_float(chunk.audio)
        if chunk.channels > 1:                    # down-mix; mono (what HA sends) is kept as decoded
            samples = samples.reshape(-1, chunk.channels).mean(axis=1, dtype=np.float32)
        self.parts.append(samples)
        self.samples += len(samples)
        return None

    def at_stt_rate(self) -> np.ndarray:
        """The audio so far at STT_RATE; run in a worker (a minute at 96 kHz takes tens of ms to resample, which
        numpy and soxr do with the interpreter's lock released), the parts taken as they are when it starts."""
        parts = tuple(self.parts)
        audio = np.concatenate(parts) if parts else np.zeros(0, dtype=np.float32)
        return audio if self.rate == STT_RATE else resample(audio, self.rate, STT_RATE)


def speech_only(audio: np.ndarray, vad: SileroVAD, threshold: float) -> np.ndarray:
    """16 kHz audio cut to its first..last frame Silero hears speech in at `threshold` (padded by
    SPEECH_PAD_S); empty when it hears none, so noise never reaches Whisper, which would make words of it."""
    step = vad.frame_samples
    speech = [i for i in range(len(audio) // step) if vad.probability(audio[i * step:(i + 1) * step]) >= threshold]
    if not speech:
        return audio[:0]
    pad = int(SPEECH_PAD_S * STT_RATE)
    return audio[max(0, speech[0] * step - pad):(speech[-1] + 1) * step + pad]


def vad_threshold(sensitivity) -> float:
    if sensitivity is None:
        return VAD_THRESHOLDS["default"]
    value = getattr(sensitivity, "value", sensitivity)
    if value not in VAD_THRESHOLDS:
        raise ValueError(f"vad_sensitivity must be one of {', '.join(VAD_THRESHOLDS)}")
    return VAD_THRESHOLDS[value]


def bias_phrases(transcribe: Transcribe, home_names: tuple[str, ...]) -> tuple[str, ...]:
    """Whisper's prompt list, most important first (the prompt keeps what fits): the request's names, the
    home's own names, then the request's terms; each phrase once."""
    given = []
    for field in (transcribe.transcript_names, transcribe.transcript_terms):
        if field is None:
            given.append([])
        elif not isinstance(field, list) or len(field) > MAX_BIAS_PHRASES or not all(
                isinstance(p, str) and len(p) <= MAX_BIAS_PHRASE_CHARS for p in field):
            raise ValueError(f"transcript_names and transcript_terms must be lists of at most {MAX_BIAS_PHRASES} "
                             f"strings of at most {MAX_BIAS_PHRASE_CHARS} characters")
        else:
            given.append(field)
    names, terms = given
    seen, phrases = set(), []
    for phrase in (*names, *home_names, *terms):
        phrase = " ".join(phrase.split())
        if phrase and phrase.lower() not in seen:
            seen.add(phrase.lower())
            phrases.append(phrase)
    return tuple(phrases)


class AnnouncedTimers:
    """A conversation's timers (in this process), each start, change (time added or taken off, paused, resumed),
    cancel and finish announced as the wyoming package's timer events; rang(timer) hears each finish too ("stop" and
    "snooze" are about it a while)."""

    def __init__(self, announce, rang):
        self.announce = announce             # Event -> None
        self.rang = rang
        self.book = LocalTimers(self._finished)

    async def add(self, seconds: int, name: str | None = None, alarm: str | None = None,
                  call: str | None = None) -> None:
        """A change scheduled (call) is kept here too, and never announced as a timer."""
        before = {timer.id for timer in await self.book.pending()}
        await self.book.add(seconds, name, alarm, call)
        for timer in await self.book.pending():
            if timer.id not in before and call is None:
                hours, rest = divmod(timer.seconds, 3600)
                self.announce(TimerStarted(id=timer.id, total_seconds=timer.seconds, name=timer.name or alarm,
                                           start_hours=hours, start_minutes=rest // 60,
                                           start_seconds=rest % 60).event())

    async def pending(self) -> list:
        return await self.book.pending()

    async def cancel(self, timer_id: str) -> bool:
        """A timer cancelled is announced; a change scheduled is no timer (never announced as started), so its
        cancel sends nothing."""
        timer = next((timer for timer in await self.book.pending() if timer.id == timer_id), None)
        cancelled = await self.book.cancel(timer_id)
        if cancelled and timer.call is None:
            self.announce(TimerCancelled(id=timer_id).event())
        return cancelled

    async def retime(self, timer, left: float, paused: bool, seconds: int) -> bool:
        retimed = await self.book.retime(timer, left, paused, seconds)
        if retimed:
            self.announce(TimerUpdated(id=timer.id, is_active=not paused, total_seconds=round(left)).event())
        return retimed

    async def cancel_all(self) -> int:
        timers = await self.book.pending()
        for timer in timers:
            await self.cancel(timer.id)
        return len(timers)

    async def add_change(self, seconds: int, call: str, bound: int) -> bool:
        """A change scheduled is no timer: never announced."""
        return await self.book.add_change(seconds, call, bound)

    def stop(self) -> None:
        self.book.stop()

    @property
    def running(self) -> int:
        return self.book.running

    def _finished(self, timer) -> None:
        self.rang(timer)
        if timer.call is None:
            self.announce(TimerFinished(id=timer.id).event())


class Conversation:
    """One conversation's history, tools (home, timers, the action awaiting a yes) and the connections
    that take its timer events."""

    def __init__(self, tools_factory):
        self.history: list[dict] = []
        self.listeners: set = set()           # handlers of open connections that spoke in it
        self.tools = tools_factory(timer_book=AnnouncedTimers(self._announce, self._rang))
        self.used_at = time.monotonic()

    def _rang(self, timer) -> None:
        if timer.call is not None:           # a change scheduled for now: made, not rung
            self.tools.start_scheduled(timer)
        else:
            self.tools.rang_now(timer)

    def _announce(self, event: Event) -> None:
        for handler in list(self.listeners):
            handler.send_later(event)


class Conversations:
    """Conversations by context.conversation_id: at most MAX_CONVERSATIONS, each forgotten after
    CONVERSATION_IDLE_S untouched."""

    def __init__(self, tools_factory, limit: int = MAX_CONVERSATIONS, idle_s: float = CONVERSATION_IDLE_S):
        self.tools_factory, self.limit, self.idle_s = tools_factory, limit, idle_s
        self.home_names = tools_factory().spoken_names      # the home's names for Whisper's prompt
        self._by_id: OrderedDict[str, Conversation] = OrderedDict()

    def get(self, conversation_id: str) -> Conversation:
        now = time.monotonic()
        for stale in [key for key, c in self._by_id.items() if now - c.used_at > self.idle_s]:
            self._by_id.pop(stale).tools.stop_timers()
        conversation = self._by_id.pop(conversation_id, None) or Conversation(self.tools_factory)
        conversation.used_at = now
        self._by_id[conversation_id] = conversation
        while len(self._by_id) > self.limit:
            self._by_id.popitem(last=False)[1].tools.stop_timers()
        return conversation

    def close(self) -> None:
        for conversation in self._by_id.values():
            conversation.tools.stop_timers()
        self._by_id.clear()


def conversation_id(context) -> str | None:
    if not isinstance(context, dict) or context.get("conversation_id") is None:
        return None
    value = context["conversation_id"]
    if not isinstance(value, str) or not 0 < len(value) <= MAX_CONVERSATION_ID_CHARS:
        raise ValueError(f"context.conversation_id must be a string of 1 to {MAX_CONVERSATION_ID_CHARS} characters")
    return value


class BadEvent(Exception):
    pass


async def read_event(reader: asyncio.StreamReader) -> Event | None:
    """One Wyoming event (JSON header line, optional data JSON, optional payload); None at end of stream.

    Our own reader rather than wyoming.event.async_read_event, which hangs up silently on bad input and
    reads whatever lengths the header claims."""
    try:
        line = await reader.readline()
    except ValueError as error:                 # longer than the reader's limit (64 KiB)
        raise BadEvent("header line too long") from error
    if not line:
        return None
    try:
        header = client_json.loads(line, MAX_HEADER_BYTES, MAX_EVENT_VALUES, "a header line")
    except client_json.JsonRefused as refused:
        raise BadEvent(str(refused)) from None
    except (ValueError, RecursionError) as error:     # also deep nesting and 5,000-digit numbers
        raise BadEvent(f"header is not JSON ({type(error).__name__}: {error})") from error
    if not isinstance(header, dict) or not isinstance(header.get("type"), str):
        raise BadEvent("header must be a JSON object with a string \"type\"")
    data = header.get("data") or {}
    data_length, payload_length = header.get("data_length") or 0, header.get("payload_length") or 0
    if not isinstance(data, dict) or not all(isinstance(n, int) and 0 <= n <= MAX_EVENT_BYTES
                                             for n in (data_length, payload_length)):
        raise BadEvent(f"data must be an object and lengths at most {MAX_EVENT_BYTES} bytes")
    try:
        if data_length:
            raw = await reader.readexactly(data_length)
            try:
                extra = client_json.loads(raw, MAX_EVENT_BYTES, MAX_EVENT_VALUES, "data")
            except client_json.JsonRefused as refused:
                raise BadEvent(str(refused)) from None
            if not isinstance(extra, dict):
                raise BadEvent("data must be a JSON object")
            data = {**data, **extra}
        payload = await reader.readexactly(payload_length) if payload_length else None
    except asyncio.IncompleteReadError:
        return None
    except (ValueError, RecursionError) as error:
        raise BadEvent(f"data is not JSON ({type(error).__name__})") from error
    return Event(type=header["type"], data=data, payload=payload)


# ---- the connection handler --------------------------------------------------------------------------

class ParleyWyomingHandler(AsyncEventHandler):
    """One Home Assistant connection; HA opens one per request, but several requests may share one."""

    def __init__(self, reader, writer, engines, info: Info, conversations: Conversations,
                 idle_timeout_s: float = IDLE_TIMEOUT_S):
        super().__init__(reader, writer)
        self.idle_timeout_s = idle_timeout_s
        self.engines = engines
        self.info = info
        self.conversations = conversations
        self.own: Conversation | None = None     # the conversation of requests without a conversation_id
        self.joined: set[Conversation] = set()   # conversations whose timer events this connection takes
        self.audio: AudioIn | None = None
        self.request = Transcribe()              # the latest `transcribe`: biasing and VAD sensitivity
        self.stable: StableWords | None = None
        self.partial: asyncio.Task | None = None
        self.synthesis: ClauseBuffer | None = None     # set between synthesize-start and synthesize-stop
        self.synthesis_refused = False                 # its text ran past MAX_TEXT_CHARS: the rest is not read
        self.announcements: set[asyncio.Task] = set()  # timer events on their way out

    async def write_event(self, event: Event) -> None:
        """A peer that stops reading would hold its buffers for ever: it gets WRITE_TIMEOUT_S, then is dropped."""
        try:
            async with asyncio.timeout(WRITE_TIMEOUT_S):        # wait_for would make a task per audio chunk
                await super().write_event(event)
        except TimeoutError:
            raise ConnectionResetError("the peer stopped reading") from None

    def send_later(self, event: Event) -> None:
        """A timer event, from a timer's callback on the event loop (at most one per running timer)."""
        task = asyncio.create_task(self._announce(event))
        self.announcements.add(task)
        task.add_done_callback(self.announcements.discard)

    async def _announce(self, event: Event) -> None:
        try:
            await self.write_event(event)
        except (ConnectionError, RuntimeError):
            pass                                 # the connection is going: its run() ends it

    async def run(self) -> None:
        """Like AsyncEventHandler.run, but a bad event gets an `error` event instead of a silent hang-up."""
        try:
            while True:
                try:
                    async with asyncio.timeout(self.idle_timeout_s):
                        event = await read_event(self.reader)
                except BadEvent as error:       # the framing is lost: say why, then hang up
                    await self.write_event(Error(text=f"malformed event: {error}", code="bad_event").event())
                    return
                except TimeoutError:
                    await self.write_event(Error(text=f"nothing received for {self.idle_timeout_s:g} s",
                                                 code="idle_timeout").event())
                    return
                if event is None:
                    return
                if holds_lone_surrogate(event.data):        # well framed, but not text: refused, the rest goes on
                    await self.write_event(Error(text=f"the {printable(event.type)} event holds a lone UTF-16 "
                                                 "surrogate (an unpaired \\ud800-\\udfff escape), which is not text",
                                                 code="invalid_text").event())
                    continue
                try:
                    await self.handle_event(event)
                except (KeyError, TypeError, AttributeError, ValueError) as error:   # well framed, wrong fields
                    await self.write_event(Error(text=f"bad {event.type} event: {error!r}", code="bad_event").event())
                except Exception as error:  # noqa: BLE001 - an engine failure ends this request, not the connection
                    log.exception("wyoming: %s failed", printable(event.type))
                    await self.write_event(Error(text=f"{event.type} failed: {error!r}", code="server_error").event())
        except ConnectionError:
            pass
        finally:
            await self.disconnect()
            self.writer.close()

    async def disconnect(self) -> None:
        if self.partial is not None:
            self.partial.cancel()
        for conversation in self.joined:
            conversation.listeners.discard(self)
        if self.own is not None:
            self.own.tools.stop_timers()
        for task in list(self.announcements):
            task.cancel()

    async def handle_event(self, event: Event) -> bool:
        if Describe.is_type(event.type):
            await self.write_event(self.info.event())
        elif Transcribe.is_type(event.type):
            request = Transcribe.from_event(event)
            bias_phrases(request, ())                 # a bad list is refused here, not after the audio
            vad_threshold(request.vad_sensitivity)
            self.request, self.audio = request, None
            if self.partial is not None:
                self.partial.cancel()
        elif AudioStart.is_type(event.type):
            start = AudioStart.from_event(event)
            self.audio, self.stable = AudioIn(start.rate), StableWords()
        elif AudioChunk.is_type(event.type):
            await self._audio_chunk(AudioChunk.from_event(event))
        elif AudioStop.is_type(event.type):
            await self._transcribe()
        elif SynthesizeStart.is_type(event.type):
            self.synthesis, self.synthesis_refused = ClauseBuffer(), False
        elif SynthesizeChunk.is_type(event.type):
            if self.synthesis is not None and not self.synthesis_refused:
                piece = _text(SynthesizeChunk.from_event(event).text)
                if len(self.synthesis.text) + len(piece) > MAX_TEXT_CHARS:
                    # each chunk re-splits the waiting text on the event loop, and it waits for a clause end
                    self.synthesis_refused = True
                    await self.write_event(Error(text=f"streamed text ran past {MAX_TEXT_CHARS} characters without a "
                                                 "clause end; the rest of this stream is not spoken",
                                                 code="text_too_long").event())
                elif ready := self.synthesis.add(piece):    # in a stream, a run per batch of finished clauses
                    await self._speak(ready)
        elif SynthesizeStop.is_type(event.type):
            if self.synthesis is not None and not self.synthesis_refused:
                rest = self.synthesis.flush()
                if rest:
                    await self._speak(rest)
            self.synthesis = None
            await self.write_event(SynthesizeStopped().event())
        elif Synthesize.is_type(event.type):
            if self.synthesis is None:   # inside a stream it only repeats the text, for old servers
                await self._speak(split_clauses(_text(Synthesize.from_event(event).text)))   # nothing: an empty run
        elif Transcript.is_type(event.type):
            transcript = Transcript.from_event(event)
            await self._handle(_text(transcript.text), transcript.context)
        return True

    # ---- ASR

    def _names(self) -> tuple[str, ...]:
        return bias_phrases(self.request, self.conversations.home_names())

    async def _audio_chunk(self, chunk: AudioChunk) -> None:
        if self.audio is None:   # audio-start is optional in practice: take the format from the chunk
            self.audio, self.stable = AudioIn(chunk.rate), StableWords()
        problem = self.audio.add(chunk)
        if problem is not None:
            await self.write_event(Error(text=problem, code="bad_audio").event())
            return
        due = self.audio.samples - self.audio.partial_at >= PARTIAL_EVERY_SECONDS * self.audio.rate
        if due and (self.partial is None or self.partial.done()):
            self.partial = asyncio.create_task(self._partials(self.audio, self.stable))

    async def _partials(self, audio: AudioIn, stable: StableWords) -> None:
        """While the audio grows by PARTIAL_EVERY_SECONDS, transcribe it again and send the words that this
        hypothesis and the previous one agree on; audio that arrived during a transcription is not skipped."""
        while audio is self.audio and audio.samples - audio.partial_at >= PARTIAL_EVERY_SECONDS * audio.rate:
            audio.partial_at = audio.samples
            text = await self.engines.transcription.transcribe(await asyncio.to_thread(audio.at_stt_rate), BACKGROUND,
                                                               self._names())
            if audio is not self.audio:      # the stream ended meanwhile; the final transcript rules
                return
            first = not stable.emitted
            new = stable.update(text)
            if new:
                if first:
                    await self.write_event(TranscriptStart(language="en").event())
                await self.write_event(TranscriptChunk(text=new).event())

    async def _transcribe(self) -> None:
        audio, stable, self.audio = self.audio, self.stable, None
        if self.partial is not None:
            self.partial.cancel()
            self.partial = None
        if audio is None:
            await self.write_event(Transcript(text="", language="en").event())
            return
        threshold = vad_threshold(self.request.vad_sensitivity)
        vad = SileroVAD(self.engines.vad_model)
        speech = await asyncio.to_thread(lambda: speech_only(audio.at_stt_rate(), vad, threshold))
        text = (await self.engines.transcription.transcribe(speech, URGENT, self._names())).strip() if len(speech) else ""
        if not stable.emitted:
            await self.write_event(TranscriptStart(language="en").event())
        rest = stable.finish(text)
        if rest:
            await self.write_event(TranscriptChunk(text=rest).event())
        await self.write_event(Transcript(text=text, language="en").event())
        await self.write_event(TranscriptStop().event())

    # ---- TTS

    async def _speak(self, texts: list[str]) -> None:
        """One audio-start/chunk.../audio-stop run, each clause's chunks sent as soon as it is synthesised.

        One run per answer: Home Assistant reads a `synthesize` answer only up to the first audio-stop.
        """
        tts = self.engines.tts
        fmt = dict(rate=tts.sample_rate, width=2, channels=1)
        step = SAMPLES_PER_CHUNK * 2
        await self.write_event(AudioStart(**fmt).event())
        for text in texts:
            pcm = float_to_pcm16(await self.engines.run(tts.synthesize, text))
            for offset in range(0, len(pcm), step):
                await self.write_event(AudioChunk(audio=pcm[offset:offset + step], **fmt).event())
        await self.write_event(AudioStop().event())

    # ---- intent handling

    def _conversation(self, context) -> Conversation:
        key = conversation_id(context)
        if key is not None:
            conversation = self.conversations.get(key)
        else:
            if self.own is None:
                self.own = Conversation(self.conversations.tools_factory)
            conversation = self.own
        conversation.listeners.add(self)
        self.joined.add(conversation)
        return conversation

    async def _handle(self, text: str, context) -> None:
        from assistant.generator import DoneEvent, TextEvent  # the assistant is optional in Engines
        conversation = self._conversation(context)
        assistant = self.engines.generator
        if assistant is None or not text.strip():
            await self.write_event(NotHandled(text="Parley's assistant is not loaded." if assistant is None
                                              else "I didn't hear a request.", context=context).event())
            return
        history = conversation.history
        history.append({"role": "user", "content": text})
        del history[:-MAX_HISTORY_MESSAGES]
        await self.write_event(HandledStart(context=context).event())
        reply = None
        async for item in assistant.respond(history, conversation.tools):
            if isinstance(item, TextEvent) and item.text:
                await self.write_event(HandledChunk(text=item.text).event())
            elif isinstance(item, DoneEvent):
                reply = item.reply
        # the template shows a previous turn by its tool calls: follow-ups ("and in the bedroom") need them
        history.append({"role": "assistant", "content": reply.text,
                        "tool_calls": [{"name": c.name, "arguments": c.arguments} for c in reply.tool_calls]})
        await self.write_event(Handled(text=reply.text, context=context).event())
        await self.write_event(HandledStop().event())


def _text(text) -> str:
    if not isinstance(text, str) or len(text) > MAX_TEXT_CHARS:
        raise ValueError(f"text must be a string of at most {MAX_TEXT_CHARS} characters")
    return text


class WyomingService:
    """The TCP listener; each connection gets its own handler, all share the engines and the home."""

    def __init__(self, engines, tools_factory, host: str = "0.0.0.0", port: int = DEFAULT_PORT,
                 supervisor: Supervisor | None = None, max_connections: int = MAX_CONNECTIONS):
        self.engines = engines
        self.conversations = Conversations(tools_factory)   # tools_factory(timer_book=) -> a ToolRunner on the home
        self.host = host
        self.port = port
        self.max_connections = max_connections
        self.idle_timeout_s = IDLE_TIMEOUT_S
        self.info = build_info()
        self.supervisor = supervisor or Supervisor()   # the server's, so /healthz sees the listener
        self._server: asyncio.Server | None = None
        self._handlers: set[asyncio.Task] = set()
        self._closing = False

    async def start(self) -> None:
        await self._listen()                   # a port in use fails here, at startup
        self.supervisor.start(TASK, self._serve)

    async def _listen(self) -> None:
        self._server = await asyncio.start_server(self._connection, self.host, self.port,
                                                  limit=MAX_HEADER_BYTES)
        self.port = self._server.sockets[0].getsockname()[1]
        log.info("wyoming: listening on %s:%d", self.host, self.port)

    async def _serve(self) -> None:
        if not self._server.is_serving():      # restarted after the listener died
            await self._listen()
        await self._server.serve_forever()

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if len(self._handlers) >= self.max_connections:
            refusal = Error(text=f"this server takes at most {self.max_connections} connections",
                            code="too_many_connections")
            try:
                await asyncio.wait_for(async_write_event(refusal.event(), writer), WRITE_TIMEOUT_S)
            except (asyncio.TimeoutError, ConnectionError):
                pass
            writer.close()
            return
        handler = ParleyWyomingHandler(reader, writer, self.engines, self.info, self.conversations,
                                       self.idle_timeout_s)
        task = asyncio.current_task()
        self._handlers.add(task)
        try:
            await handler.run()
        except asyncio.CancelledError:
            if not self._closing:
                raise
            # hung up by close() (run() has closed the socket): ended, not cancelled, since Python 3.11's stream
            # server logs a cancelled connection task as "Exception in callback" with a traceback
        finally:
            self._handlers.discard(task)

    async def close(self) -> None:
        self._closing = True
        if self._server is not None:        # first: Server.wait_closed (under serve_forever) waits for handlers
            self._server.close()
        for task in list(self._handlers):
            task.cancel()
        await asyncio.gather(*self._handlers, return_exceptions=True)
        self.conversations.close()
        await self.supervisor.stop(TASK)


# ---- the server hook (streaming/server.py) -------------------------------------------------------------

def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--wyoming-port", type=int, default=os.environ.get("PARLEY_WYOMING_PORT"),
                        help=f"serve Wyoming (Home Assistant speech-to-text, text-to-speech, conversation) on this "
                             f"port of --host; {DEFAULT_PORT} is the usual choice; off when not given")


WYOMING = web.AppKey("wyoming", WyomingService)


def setup(app, ctx) -> None:
    port = getattr(ctx.config.options, "wyoming_port", None)
    if port is None:
        return
    from assistant.tools import ToolRunner

    service = WyomingService(ctx.engines,
                             lambda timer_book=None: ToolRunner(home=ctx.home, timer_book=timer_book,
                                                                lists=ctx.gateway and ctx.gateway.store),
                             host=ctx.config.host, port=int(port),
                             supervisor=ctx.supervisor)
    app[WYOMING] = service

    async def run(app):
        await service.start()
        yield
        await service.close()

    app.cleanup_ctx.append(run)
