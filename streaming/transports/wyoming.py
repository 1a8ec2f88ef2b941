"""Wyoming server: Home Assistant adds Parley as its speech-to-text, text-to-speech and conversation agent.

One TCP port (default 10600; Piper, Whisper, openWakeWord and satellites usually hold 10200, 10300, 10400
and 10700 on the same host) answers `describe` with three programs:
- asr: `transcribe` + audio-start/chunk/stop → `transcript`; streamed as transcript-start/chunk/stop, the
  chunks being words two successive partial transcriptions agree on while audio still arrives;
- tts: `synthesize` → audio-start/chunk/stop, clause by clause; synthesize-start/chunk/stop streams text
  in and audio out per finished clause, then `synthesize-stopped`;
- handle: `transcript` → `handled` with Parley's reply (tools act on the home), streamed as
  handled-start/chunk/stop around it.
Wyoming exposes the engines themselves, so this transport uses the shared Engines bundle directly
(speech-to-text through its priority queue, TTS on its threads, the assistant) rather than a Session.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
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
from wyoming.tts import Synthesize, SynthesizeChunk, SynthesizeStart, SynthesizeStop, SynthesizeStopped

from streaming.engines import BACKGROUND, URGENT
from streaming.logsafe import printable
from streaming.supervisor import Supervisor
from voice.audio import float_to_pcm16, pcm16_to_float, resample
from voice.stt import StableWords
from voice.tts import ClauseBuffer, split_clauses

log = logging.getLogger("parley.wyoming")
TASK = "wyoming"

DEFAULT_PORT = 10600
STT_RATE = 16000
SAMPLES_PER_CHUNK = 1024            # TTS audio-chunk size, as wyoming-piper sends
MAX_AUDIO_SECONDS = 60              # longer requests are refused: a voice command is seconds long
PARTIAL_EVERY_SECONDS = 1.0         # streaming ASR: re-transcribe after this much new audio
MAX_EVENT_BYTES = 1 << 20            # data or payload of one event: audio chunks are a few KiB
AUDIO_RATES = range(8000, 96001)     # what an audio stream may announce; 1e9 would lift the 60 s cap
MAX_CHANNELS = 2
MAX_TEXT_CHARS = 16_000              # a transcript to handle, text to synthesise in one event
MAX_HISTORY_MESSAGES = 40            # per connection: the assistant only reads the last turns anyway
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
        audio = np.concatenate(self.parts) if self.parts else np.zeros(0, dtype=np.float32)
        return audio if self.rate == STT_RATE else resample(audio, self.rate, STT_RATE)


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
        header = json.loads(line)
    except (ValueError, RecursionError) as error:     # also deep nesting and 5,000-digit numbers
        raise BadEvent(f"header is not JSON ({type(error).__name__})") from error
    if not isinstance(header, dict) or not isinstance(header.get("type"), str):
        raise BadEvent("header must be a JSON object with a string \"type\"")
    data = header.get("data") or {}
    data_length, payload_length = header.get("data_length") or 0, header.get("payload_length") or 0
    if not isinstance(data, dict) or not all(isinstance(n, int) and 0 <= n <= MAX_EVENT_BYTES
                                             for n in (data_length, payload_length)):
        raise BadEvent(f"data must be an object and lengths at most {MAX_EVENT_BYTES} bytes")
    try:
        if data_length:
            extra = json.loads(await reader.readexactly(data_length))
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

    def __init__(self, reader, writer, engines, info: Info, tools_factory, idle_timeout_s: float = IDLE_TIMEOUT_S):
        super().__init__(reader, writer)
        self.idle_timeout_s = idle_timeout_s
        self.engines = engines
        self.info = info
        self.tools = tools_factory()      # one per connection: the conversation's home state persists
        self.audio: AudioIn | None = None
        self.stable: StableWords | None = None
        self.partial: asyncio.Task | None = None
        self.synthesis: ClauseBuffer | None = None     # set between synthesize-start and synthesize-stop
        self.history: list[dict] = []

    async def write_event(self, event: Event) -> None:
        """A peer that stops reading would hold its buffers for ever: it gets WRITE_TIMEOUT_S, then is dropped."""
        try:
            async with asyncio.timeout(WRITE_TIMEOUT_S):        # wait_for would make a task per audio chunk
                await super().write_event(event)
        except TimeoutError:
            raise ConnectionResetError("the peer stopped reading") from None

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

    async def handle_event(self, event: Event) -> bool:
        if Describe.is_type(event.type):
            await self.write_event(self.info.event())
        elif Transcribe.is_type(event.type):
            self.audio = None
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
            self.synthesis = ClauseBuffer()
        elif SynthesizeChunk.is_type(event.type):
            if self.synthesis is not None:
                ready = self.synthesis.add(_text(SynthesizeChunk.from_event(event).text))
                if ready:                # in a stream, a run per batch of finished clauses
                    await self._speak(ready)
        elif SynthesizeStop.is_type(event.type):
            if self.synthesis is not None:
                rest = self.synthesis.flush()
                if rest:
                    await self._speak(rest)
                self.synthesis = None
            await self.write_event(SynthesizeStopped().event())
        elif Synthesize.is_type(event.type):
            if self.synthesis is None:   # inside a stream it only repeats the text, for old servers
                await self._speak(split_clauses(_text(Synthesize.from_event(event).text)))   # nothing: an empty run
        elif Transcript.is_type(event.type):
            await self._handle(_text(Transcript.from_event(event).text))
        return True

    # ---- ASR

    async def _audio_chunk(self, chunk: AudioChunk) -> None:
        if self.audio is None:   # audio-start is optional in practice: take the format from the chunk
            self.audio, self.stable = AudioIn(chunk.rate), StableWords()
        problem = self.audio.add(chunk)
        if problem is not None:
            await self.write_event(Error(text=problem, code="bad_audio").event())
            return
        due = self.audio.samples - self.audio.partial_at >= PARTIAL_EVERY_SECONDS * self.audio.rate
        if due and (self.partial is None or self.partial.done()):
            self.audio.partial_at = self.audio.samples
            self.partial = asyncio.create_task(self._partial(self.audio, self.stable))

    async def _partial(self, audio: AudioIn, stable: StableWords) -> None:
        names = self.tools.spoken_names()
        text = await self.engines.transcription.transcribe(audio.at_stt_rate(), BACKGROUND, names)
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
        names = self.tools.spoken_names()
        text = (await self.engines.transcription.transcribe(audio.at_stt_rate(), URGENT, names)).strip()
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

    async def _handle(self, text: str) -> None:
        from assistant.generator import DoneEvent, TextEvent# the assistant is optional in Engines
        assistant = self.engines.generator
        if assistant is None or not text.strip():
            await self.write_event(NotHandled(text="Parley's assistant is not loaded." if assistant is None
                                              else "I didn't hear a request.").event())
            return
        self.history.append({"role": "user", "content": text})
        del self.history[:-MAX_HISTORY_MESSAGES]
        await self.write_event(HandledStart().event())
        reply = None
        async for item in assistant.respond(self.history, self.tools):
            if isinstance(item, TextEvent) and item.text:
                await self.write_event(HandledChunk(text=item.text).event())
            elif isinstance(item, DoneEvent):
                reply = item.reply
        # the template shows a previous turn by its tool calls: follow-ups ("and in the bedroom") need them
        self.history.append({"role": "assistant", "content": reply.text,
                             "tool_calls": [{"name": c.name, "arguments": c.arguments} for c in reply.tool_calls]})
        await self.write_event(Handled(text=reply.text).event())
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
        self.tools_factory = tools_factory     # () -> ToolRunner acting on the server's home
        self.host = host
        self.port = port
        self.max_connections = max_connections
        self.idle_timeout_s = IDLE_TIMEOUT_S
        self.info = build_info()
        self.supervisor = supervisor or Supervisor()   # the server's, so /healthz sees the listener
        self._server: asyncio.Server | None = None
        self._handlers: set[asyncio.Task] = set()

    async def start(self) -> None:
        await self._listen()                   # a port in use fails here, at startup
        self.supervisor.start(TASK, self._serve)

    async def _listen(self) -> None:
        self._server = await asyncio.start_server(self._connection, self.host, self.port)
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
        handler = ParleyWyomingHandler(reader, writer, self.engines, self.info, self.tools_factory,
                                       self.idle_timeout_s)
        task = asyncio.current_task()
        self._handlers.add(task)
        try:
            await handler.run()
        finally:
            self._handlers.discard(task)

    async def close(self) -> None:
        if self._server is not None:        # first: Server.wait_closed (under serve_forever) waits for handlers
            self._server.close()
        for task in list(self._handlers):
            task.cancel()
        await asyncio.gather(*self._handlers, return_exceptions=True)
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

    service = WyomingService(ctx.engines, lambda: ToolRunner(home=ctx.home), host=ctx.config.host, port=int(port),
                             supervisor=ctx.supervisor)
    app[WYOMING] = service

    async def run(app):
        await service.start()
        yield
        await service.close()

    app.cleanup_ctx.append(run)
