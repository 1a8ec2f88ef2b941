"""Asterisk AudioSocket: a pure frame codec and call state machine, plus the asyncio TCP server.

Asterisk dials us (dialplan ``AudioSocket(uuid,host:port)``) and both sides exchange frames of
``type (1 byte) | payload length (2 bytes, big-endian) | payload``:

    0x00 hang-up (empty)      0x01 UUID (16 raw bytes, always first)    0x03 DTMF (one ASCII digit)
    0x10 audio: signed 16-bit little-endian PCM, 8 kHz mono, 320 bytes per 20 ms
    0xff error (optional one-byte code, from Asterisk)

Audio to Asterisk must be paced in real time (one 20 ms frame every 20 ms); a hang-up frame from us
hangs the channel up. ``AudioSocketCall`` knows nothing of sockets; ``serve`` is the I/O layer.
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

from streaming import phone
from streaming.phone import (PHONE_SETTINGS, CallEnded, CallerAudio, CallerDigit, CallStarted, Outbound,
                             OutboundFrames, StreamError, run_call)

log = logging.getLogger(__name__)

HANGUP, UUID, DTMF, AUDIO, ERROR = 0x00, 0x01, 0x03, 0x10, 0xFF
HEADER = struct.Struct(">BH")
FRAME_BYTES = 320                  # 20 ms of 8 kHz PCM16
MAX_PAYLOAD = 8192                 # 256 ms of audio; Asterisk sends 320 bytes, anything this big is not Asterisk
ASTERISK_ERRORS = {0x01: "calling party hung up", 0x02: "frame forwarding error", 0x04: "memory error"}
DTMF_DIGITS = frozenset(b"0123456789*#ABCD")


class FrameError(Exception):
    """The byte stream is not AudioSocket; the connection cannot be trusted past this point."""


@dataclass(frozen=True)
class Frame:
    kind: int
    payload: bytes = b""


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
            if kind not in (HANGUP, UUID, DTMF, AUDIO, ERROR):
                raise FrameError(f"unknown frame type 0x{kind:02x}"
                                 + (" (a higher-rate audio type: send 8 kHz slin, type 0x10)"
                                    if 0x11 <= kind <= 0x18 else ""))
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
        self.state = "connecting"          # connecting -> streaming -> ended | failed
        self.call_id: str | None = None
        self.pending_marks: deque[str] = deque()   # always empty: Asterisk plays frames as they arrive
        self._parser = FrameParser()
        self._frames = OutboundFrames(FRAME_BYTES, lambda pcm16: encode_frame(AUDIO, pcm16), silence=b"\0")

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
            self.state, self.call_id = "streaming", str(uuid.UUID(bytes=frame.payload))
            return [CallStarted(self.call_id)]
        if frame.kind == ERROR:
            code = frame.payload[0] if frame.payload else 0
            log.warning("AudioSocket %s: Asterisk reports error 0x%02x (%s)", self.call_id, code,
                        ASTERISK_ERRORS.get(code, "unknown"))
            return []
        if frame.kind == HANGUP:
            self.state = "ended"
            return [CallEnded("caller hung up")]
        if self.state != "streaming":
            raise FrameError(f"frame type 0x{frame.kind:02x} before the UUID frame")
        if frame.kind == DTMF:
            if len(frame.payload) != 1 or frame.payload[0] not in DTMF_DIGITS:
                raise FrameError(f"bad DTMF frame {frame.payload!r}")
            return [CallerDigit(frame.payload.decode())]
        if len(frame.payload) % 2:
            raise FrameError(f"audio frame of {len(frame.payload)} bytes: not whole 16-bit samples")
        return [CallerAudio(frame.payload)] if frame.payload else []

    # --- us -> Asterisk ------------------------------------------------------------------------

    def play(self, pcm16: bytes) -> None:
        """Queue reply audio (PCM16, 8 kHz) as 20 ms audio frames."""
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
            try:
                data = await reader.read(4096)
            except ConnectionError:
                data = b""
            for event in call.receive(data) if data else call.eof():
                yield event
            if not data or call.state in ("ended", "failed"):
                return

    async def send(frame: Outbound) -> None:
        writer.write(frame.data)
        await writer.drain()

    async def close(error: StreamError | None) -> None:
        """Hang the channel up: Asterisk ends AudioSocket() on a hang-up frame (the socket closes after)."""
        try:
            writer.write(encode_frame(HANGUP))
            await writer.drain()
        except ConnectionError:
            pass

    try:
        await run_call(app, "audiosocket", call, inbound(), send, close)
    finally:
        writer.close()


@dataclass
class Listener:
    """The AudioSocket TCP server and the calls it is carrying."""
    server: asyncio.Server | None = None
    calls: set[asyncio.Task] = field(default_factory=set)

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
    phone.install(app, ctx.config.options)
    if app[PHONE_SETTINGS].audiosocket_port is not None:
        app[AUDIOSOCKET] = Listener()
        app.cleanup_ctx.append(lambda app: _serve(app, ctx.config.host))


async def _serve(app: web.Application, host: str):
    """Listen for Asterisk while the web app runs; on shutdown stop listening and end the calls in progress."""
    listener = app[AUDIOSOCKET]

    async def connected(reader, writer):
        task = asyncio.current_task()
        listener.calls.add(task)
        try:
            await handle_connection(app, reader, writer)
        finally:
            listener.calls.discard(task)

    listener.server = await asyncio.start_server(connected, host, app[PHONE_SETTINGS].audiosocket_port)
    print(f"AudioSocket (Asterisk) is listening on {host}:{listener.port}", flush=True)
    yield
    listener.server.close()
    for task in list(listener.calls):
        task.cancel()
    await asyncio.gather(*listener.calls, return_exceptions=True)
    await listener.server.wait_closed()
