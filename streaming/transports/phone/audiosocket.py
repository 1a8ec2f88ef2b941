"""Asterisk AudioSocket: a pure frame codec and call state machine, plus the asyncio TCP server.

Asterisk dials us (dialplan ``AudioSocket(uuid,host:port)``) and both sides exchange frames of
``type (1 byte) | payload length (2 bytes, big-endian) | payload``:

    0x00 hang-up (empty)      0x01 UUID (16 raw bytes, always first)    0x03 DTMF (one ASCII digit)
    0x10 audio: signed 16-bit little-endian PCM, 8 kHz mono, 320 bytes per 20 ms
    0x11-0x18 the same at 12, 16, 24, 32, 44.1, 48, 96 or 192 kHz (newer Asterisk, e.g. slin16 for HD calls)
    0xff error (optional one-byte code, from Asterisk)

The call starts at its first audio frame, whose type fixes the rate both ways; we answer with frames of
that type. Audio to Asterisk must be paced in real time (one 20 ms frame every 20 ms); a hang-up frame
from us hangs the channel up. ``AudioSocketCall`` knows nothing of sockets; ``serve`` is the I/O layer.
"""

from __future__ import annotations

import asyncio
import logging
import struct
import uuid
from collections import deque
import os
from dataclasses import dataclass, field

from aiohttp import web

from streaming.transports.phone import calls
from streaming.transports.phone.calls import (PHONE_SETTINGS, CallEnded, CallerAudio, CallerDigit, CallStarted, Outbound,
                             OutboundFrames, StreamError, run_call)

log = logging.getLogger(__name__)

HANGUP, UUID, DTMF, AUDIO, ERROR = 0x00, 0x01, 0x03, 0x10, 0xFF
AUDIO_RATES = {AUDIO: 8000, 0x11: 12000, 0x12: 16000, 0x13: 24000, 0x14: 32000, 0x15: 44100, 0x16: 48000,
               0x17: 96000, 0x18: 192000}
HEADER = struct.Struct(">BH")
MAX_PAYLOAD = 8192                 # Asterisk sends 20 ms frames: 7,680 bytes at 192 kHz, 320 at 8 kHz
ASTERISK_ERRORS = {0x01: "calling party hung up", 0x02: "frame forwarding error", 0x04: "memory error"}
DTMF_DIGITS = frozenset(b"0123456789*#ABCD")
MAX_CALLS = 64                     # connections this door holds at once; more are hung up at once
HANDSHAKE_TIMEOUT_S = 5.0          # Asterisk sends the UUID and the first audio frame right away
IDLE_TIMEOUT_S = 10.0              # ... and then a frame every 20 ms for the whole call
WRITE_TIMEOUT_S = 5.0              # a peer that stops reading is dropped
TASK = "audiosocket"


class FrameError(Exception):
    """The byte stream is not AudioSocket; the connection cannot be trusted past this point."""


@dataclass(frozen=True)
class Frame:
    kind: int
    payload: bytes = b""


def frame_bytes(rate: int) -> int:
    """Bytes of one 20 ms audio frame (PCM16 mono)."""
    return rate // 50 * 2


def encode_frame(kind: int, payload: bytes = b"") -> bytes:
    return HEADER.pack(kind, len(payload)) + payload


class FrameParser:
    """Bytes in, whole frames out; raises FrameError on what Asterisk never sends."""

    def __init__(self, max_payload: int = MAX_PAYLOAD):
        self.max_payload = max_payload
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[Frame]:
        self._buffer += data
        frames = []
        while len(self._buffer) >= HEADER.size:
            kind, length = HEADER.unpack_from(self._buffer)
            if kind not in (HANGUP, UUID, DTMF, ERROR) and kind not in AUDIO_RATES:
                raise FrameError(f"unknown frame type 0x{kind:02x}")
            if length > self.max_payload:
                raise FrameError(f"oversized frame: type 0x{kind:02x} announces {length} bytes "
                                 f"(limit {self.max_payload})")
            if len(self._buffer) < HEADER.size + length:
                break
            frames.append(Frame(kind, bytes(self._buffer[HEADER.size:HEADER.size + length])))
            del self._buffer[:HEADER.size + length]
        return frames

    def eof(self) -> None:
        if self._buffer:
            raise FrameError(f"truncated frame: connection closed with {len(self._buffer)} bytes of a "
                             "frame unread")


class AudioSocketCall:
    """One AudioSocket connection, without I/O: bytes in -> call events; reply audio in -> frames out."""

    def __init__(self) -> None:
        self.state = "connecting"          # connecting -> answered (UUID) -> streaming (audio) -> ended | failed
        self.call_id: str | None = None
        self.audio_kind: int | None = None         # the first audio frame's type: the call's rate
        self.pending_marks: deque[str] = deque()   # always empty: Asterisk plays frames as they arrive
        self._parser = FrameParser()
        self._frames: OutboundFrames | None = None
        self._early_digits: list[CallerDigit] = []  # pressed before the first audio frame

    def receive(self, data: bytes) -> list:
        if self.state in ("ended", "failed"):
            return []
        try:
            return [event for frame in self._parser.feed(data) for event in self._handle(frame)]
        except FrameError as exc:
            self.state = "failed"
            return [StreamError(0, str(exc))]

    def eof(self) -> list:
        if self.state in ("ended", "failed"):
            return []
        try:
            self._parser.eof()
        except FrameError as exc:
            self.state = "failed"
            return [StreamError(0, str(exc))]
        self.state = "ended"
        return [CallEnded("connection closed")]

    def _handle(self, frame: Frame) -> list:
        if self.state == "ended":
            return []
        if frame.kind == UUID:
            if self.state != "connecting":
                raise FrameError("second UUID frame on one connection")
            if len(frame.payload) != 16:
                raise FrameError(f"UUID frame of {len(frame.payload)} bytes, expected 16")
            self.state, self.call_id = "answered", str(uuid.UUID(bytes=frame.payload))
            return []                      # the call starts at the first audio frame, which tells the rate
        if frame.kind == ERROR:
            code = frame.payload[0] if frame.payload else 0
            log.warning("AudioSocket %s: Asterisk reports error 0x%02x (%s)", self.call_id, code,
                        ASTERISK_ERRORS.get(code, "unknown"))
            return []
        if frame.kind == HANGUP:
            self.state = "ended"
            return [CallEnded("caller hung up")]
        if self.state == "connecting":
            raise FrameError(f"frame type 0x{frame.kind:02x} before the UUID frame")
        if frame.kind == DTMF:
            if len(frame.payload) != 1 or frame.payload[0] not in DTMF_DIGITS:
                raise FrameError(f"bad DTMF frame {frame.payload!r}")
            digit = CallerDigit(frame.payload.decode())
            if self.state == "answered":
                self._early_digits.append(digit)
                return []
            return [digit]
        if len(frame.payload) % 2:
            raise FrameError(f"audio frame of {len(frame.payload)} bytes: not whole 16-bit samples")
        audio = [CallerAudio(frame.payload)] if frame.payload else []
        if self.state == "answered":
            return [self._start(frame.kind), *self._early_digits, *audio]
        if frame.kind != self.audio_kind:
            raise FrameError(f"audio type changed mid-call from 0x{self.audio_kind:02x} to 0x{frame.kind:02x}")
        return audio

    def _start(self, kind: int) -> CallStarted:
        rate = AUDIO_RATES[kind]
        self.state, self.audio_kind = "streaming", kind
        self._frames = OutboundFrames(frame_bytes(rate), lambda pcm16: encode_frame(kind, pcm16), silence=b"\0")
        return CallStarted(self.call_id, rate=rate)

    # --- us -> Asterisk ------------------------------------------------------------------------

    def play(self, pcm16: bytes) -> None:
        """Queue reply audio (PCM16 at the call's rate) as 20 ms audio frames."""
        self._frames.audio(pcm16)

    def mark(self, name: str) -> None:
        """End of a reply segment: pad its tail to a whole frame (AudioSocket has no marks)."""
        self._frames.pad()

    def clear(self) -> list[Outbound]:
        """Barge-in: drop unsent audio. Asterisk holds at most the frame in flight, so nothing to send."""
        self._frames.clear()
        return []

    def pop_outbound(self) -> Outbound | None:
        return self._frames.pop()


async def handle_connection(app: web.Application, reader: asyncio.StreamReader,
                            writer: asyncio.StreamWriter) -> None:
    """One Asterisk channel: frames from the socket into the call loop, paced frames back out."""
    call = AudioSocketCall()

    async def inbound():
        while True:
            waiting = HANDSHAKE_TIMEOUT_S if call.state in ("connecting", "answered") else IDLE_TIMEOUT_S
            try:
                async with asyncio.timeout(waiting):
                    data = await reader.read(4096)
            except ConnectionError:
                data = b""
            except TimeoutError:
                call.state = "failed"
                yield StreamError(0, f"nothing received for {waiting:g} s"
                                  + (" after connecting" if waiting == HANDSHAKE_TIMEOUT_S else " mid-call"))
                return
            for event in call.receive(data) if data else call.eof():
                yield event
            if not data or call.state in ("ended", "failed"):
                return

    async def send(frame: Outbound) -> None:
        writer.write(frame.data)
        try:
            async with asyncio.timeout(WRITE_TIMEOUT_S):    # per 20 ms frame: no task per write, as wait_for makes
                await writer.drain()
        except TimeoutError:
            raise ConnectionResetError("Asterisk stopped reading") from None

    async def close(error: StreamError | None) -> None:
        """Hang the channel up: Asterisk ends AudioSocket() on a hang-up frame (the socket closes after)."""
        try:
            writer.write(encode_frame(HANGUP))
            async with asyncio.timeout(WRITE_TIMEOUT_S):
                await writer.drain()
        except (ConnectionError, TimeoutError):
            pass

    try:
        await run_call(app, "audiosocket", call, inbound(), send, close, open_door=True)   # no credentials
    finally:
        writer.close()


@dataclass
class Listener:
    """The AudioSocket TCP server and the calls it is carrying."""
    server: asyncio.Server | None = None
    calls: set[asyncio.Task] = field(default_factory=set)
    max_calls: int = MAX_CALLS

    @property
    def port(self) -> int:
        return self.server.sockets[0].getsockname()[1]


AUDIOSOCKET = web.AppKey("audiosocket", Listener)


def add_arguments(parser) -> None:
    parser.add_argument("--audiosocket-port", type=_port_or_off,
                        default=os.environ.get("PARLEY_AUDIOSOCKET_PORT", "9092"),
                        help="TCP port for Asterisk AudioSocket() on the --host address; 0 picks a free port, "
                             "'off' disables it")


def _port_or_off(value: str) -> int | None:
    return None if value == "off" else int(value)


def setup(app: web.Application, ctx) -> None:
    calls.install(app, ctx)
    if app[PHONE_SETTINGS].audiosocket_port is not None:
        app[AUDIOSOCKET] = Listener()
        app.cleanup_ctx.append(lambda app: _serve(app, ctx.config.host, ctx.supervisor))


async def _serve(app: web.Application, host: str, supervisor):
    """Listen for Asterisk while the web app runs (supervised: a listener that dies is restarted); on
    shutdown stop listening and end the calls in progress."""
    listener = app[AUDIOSOCKET]
    port = app[PHONE_SETTINGS].audiosocket_port

    async def connected(reader, writer):
        if len(listener.calls) >= listener.max_calls:
            log.warning("AudioSocket: %d calls in progress, the most this door takes; hanging up a new one",
                        len(listener.calls))
            writer.write(encode_frame(HANGUP))
            writer.close()
            return
        task = asyncio.current_task()
        listener.calls.add(task)
        try:
            await handle_connection(app, reader, writer)
        finally:
            listener.calls.discard(task)

    async def listen() -> None:
        nonlocal port
        listener.server = await asyncio.start_server(connected, host, port)
        port = listener.port                       # a restart keeps the port --audiosocket-port 0 picked

    async def serve() -> None:
        if not listener.server.is_serving():
            await listen()
        await listener.server.serve_forever()

    await listen()
    print(f"AudioSocket (Asterisk) is listening on {host}:{listener.port}", flush=True)
    supervisor.start(TASK, serve)
    yield
    listener.server.close()         # first: Server.wait_closed (under serve_forever) waits for the calls
    for task in list(listener.calls):
        task.cancel()
    await asyncio.gather(*listener.calls, return_exceptions=True)
    await supervisor.stop(TASK)
    await listener.server.wait_closed()
