"""What the phone transports share: call events, settings, the call registry, and the call loop.

Twilio Media Streams, Telnyx, Vonage and Plivo media streams and Asterisk AudioSocket differ only on the
wire. Each has a pure protocol state machine (``twilio.MediaStream``, ``telnyx.TelnyxStream``,
``vonage.VonageStream``, ``plivo.PlivoStream``, ``audiosocket.AudioSocketCall``) that turns wire frames into
the call events below and queues reply audio as 20 ms outbound frames. ``run_call`` bridges one such machine
onto a ``Session`` at the call's rate (8 kHz, or the 16 kHz some carriers and a newer Asterisk send): caller
audio in, reply audio out paced in real time, a mark after each reply segment, a flush at barge-in, DTMF
digits to ``Session.dtmf``, hang-up when the session ends the call.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from dataclasses import dataclass, field
from typing import AsyncIterator, Awaitable, Callable, Protocol

from aiohttp import WSCloseCode, web

from streaming import events as ev
from streaming.audio_pace import MAX_AUDIO_SPEED, AudioPace
from streaming.logsafe import printable
from streaming.session import SessionLimitReached

log = logging.getLogger(__name__)

PHONE_RATE = 8000        # narrow-band telephone audio (Twilio; AudioSocket type 0x10); the Session resamples
FRAME_SECONDS = 0.020    # one outbound frame of audio
LATE_RESET = 0.100       # how far behind schedule the pacer catches up before it restarts the schedule
PLAYOUT_TIMEOUT = 10.0   # longest wait for the far end to confirm our last words played before hanging up
MAX_GREETING_CHARS = 500         # a caller-chosen greeting (Twilio custom parameter) is spoken only up to this
MAX_INSTRUCTIONS_CHARS = 4000


# --- call events (protocol machine -> call loop) ------------------------------------------------

@dataclass(frozen=True)
class CallStarted:
    call_id: str                          # Twilio callSid / Asterisk channel UUID
    parameters: dict[str, str] = field(default_factory=dict)   # Twilio customParameters
    rate: int = PHONE_RATE                # of the audio both ways
    # the credential the stream proved itself with, for the I/O side to spend on every gateway; never kept
    credential: str | None = field(default=None, repr=False)


@dataclass(frozen=True)
class CallerAudio:
    pcm16: bytes                          # PCM16 LE mono at the call's rate


@dataclass(frozen=True)
class CallerDigit:
    digit: str


@dataclass(frozen=True)
class MarkPlayed:
    name: str                             # Twilio played everything queued before this mark


def mark_played(pending_marks: deque[str], name: str) -> MarkPlayed:
    """The far end played up to mark `name`: it and every mark sent before it are done."""
    if name in pending_marks:
        while pending_marks.popleft() != name:
            pass
    return MarkPlayed(name)


SEND_TIMEOUT_S = 10.0                  # a stream that takes no more bytes for this long is hung up


def websocket_outbound(ws: web.WebSocketResponse) -> tuple[Callable[[Outbound], Awaitable[None]],
                                                            Callable[[StreamError | None], Awaitable[None]]]:
    """send and close for a carrier's WebSocket media stream (Twilio, Telnyx, Vonage, Plivo)."""
    async def send(frame: Outbound) -> None:
        try:
            async with asyncio.timeout(SEND_TIMEOUT_S):     # per 20 ms frame: no task per send, as wait_for makes
                if isinstance(frame.data, bytes):
                    await ws.send_bytes(frame.data)
                else:
                    await ws.send_str(frame.data)
        except TimeoutError:
            raise ConnectionResetError("the stream stopped reading") from None

    async def close(error: StreamError | None) -> None:
        if error is None:
            await ws.close()
        else:
            await ws.close(code=error.code, message=error.message.encode()[:120])

    return send, close


@dataclass(frozen=True)
class CallEnded:
    reason: str


@dataclass(frozen=True)
class StreamError:
    code: int                             # WebSocket close code (Twilio); 0 for AudioSocket
    message: str                          # the connection is closed after this


@dataclass(frozen=True)
class Outbound:
    data: str | bytes                     # one wire frame
    audio: bool                           # audio frames take 20 ms of the real-time schedule


class OutboundFrames:
    """Reply audio cut into whole 20 ms wire frames, queued in send order with the protocol's control frames."""

    def __init__(self, frame_bytes: int, audio_frame: Callable[[bytes], str | bytes], silence: bytes):
        self.frame_bytes = frame_bytes        # wire bytes of 20 ms of audio
        self.audio_frame = audio_frame        # 20 ms of wire audio -> one wire frame
        self.silence = silence                # the wire byte that pads a segment's tail (silence)
        self._queue: deque[Outbound] = deque()
        self._partial = b""                   # wire audio short of a whole frame

    def audio(self, data: bytes) -> None:
        data = self._partial + data
        whole = len(data) - len(data) % self.frame_bytes
        for start in range(0, whole, self.frame_bytes):
            self._queue.append(Outbound(self.audio_frame(data[start:start + self.frame_bytes]), audio=True))
        self._partial = data[whole:]

    def pad(self) -> None:
        """End of a reply segment: pad its tail with silence to a whole frame."""
        if self._partial:
            self.audio(self.silence * (self.frame_bytes - len(self._partial)))

    def control(self, data: str | bytes) -> None:
        self._queue.append(Outbound(data, audio=False))

    def clear(self) -> None:
        self._queue.clear()
        self._partial = b""

    def pop(self) -> Outbound | None:
        return self._queue.popleft() if self._queue else None


class PhoneProtocol(Protocol):
    pending_marks: deque[str]         # marks sent whose audio the far end has not confirmed as played
    def play(self, pcm16: bytes) -> None: ...
    def mark(self, name: str) -> None: ...
    def clear(self) -> list[Outbound]: ...
    def pop_outbound(self) -> Outbound | None: ...


# --- settings and registry ------------------------------------------------------------------------

DEFAULT_GREETING = "Hello, this is Parley. How can I help?"
HANG_UP_DIGIT = "0"                    # the caller presses 0: Parley says GOODBYE and hangs up
GOODBYE = "Goodbye, and thank you for calling."


CARRIER_SECRETS = ("telnyx_public_key", "telnyx_stream_token", "vonage_signature_secret", "plivo_auth_token")


@dataclass
class PhoneSettings:
    greeting: str | None = DEFAULT_GREETING
    twilio_auth_token: str | None = None  # when set, /twilio/voice rejects unsigned or badly signed webhooks
    public_url: str | None = None         # e.g. https://parley.example.com behind a proxy or tunnel
    audiosocket_port: int | None = None   # None: no AudioSocket listener; 0: any free port
    telnyx_public_key: str | None = None        # when set, /telnyx/texml requires Telnyx's Ed25519 signature
    telnyx_stream_token: str | None = None      # when set, /telnyx/stream requires it
    vonage_signature_secret: str | None = None  # when set, /vonage/stream requires a JWT signed with it
    plivo_auth_token: str | None = None         # when set, /plivo/stream requires X-Plivo-Signature-V3

    @classmethod
    def from_options(cls, options) -> "PhoneSettings":
        """From `parley serve` flags; a server configured in code (no flags) gets no AudioSocket listener."""
        greeting = getattr(options, "phone_greeting", DEFAULT_GREETING)
        return cls(greeting=greeting or None, twilio_auth_token=getattr(options, "twilio_auth_token", None) or None,
                   public_url=getattr(options, "public_url", None) or None,
                   audiosocket_port=getattr(options, "audiosocket_port", None),
                   **{name: getattr(options, name, None) or None for name in CARRIER_SECRETS})


@dataclass
class CallRecord:
    """What happened on one call; the operator's (and the tests') view of the phone lines."""
    transport: str
    call_id: str = ""
    session_id: str | None = None                           # the call's conversation (in the state store)
    parameters: dict[str, str] = field(default_factory=dict)
    rate: int = PHONE_RATE                                  # audio sample rate, both ways
    transcripts: list[str] = field(default_factory=list)    # what the caller said, per turn
    replies: list[str] = field(default_factory=list)        # what Parley said, per response
    timings: list[dict] = field(default_factory=list)       # the session's per-turn timing
    digits: list[str] = field(default_factory=list)
    marks_sent: list[str] = field(default_factory=list)
    marks_played: list[str] = field(default_factory=list)
    clears: int = 0
    error: str | None = None
    ended: str | None = None
    tasks: list[asyncio.Task] = field(default_factory=list)
    hang_up: Callable[[str], None] | None = field(default=None, repr=False)   # end the call from our side


class CallRegistry:
    """Calls in progress, and the most recent finished ones."""

    def __init__(self, keep: int = 100):
        self.active: dict[int, CallRecord] = {}
        self.finished: deque[CallRecord] = deque(maxlen=keep)

    def open(self, transport: str) -> CallRecord:
        record = CallRecord(transport)
        self.active[id(record)] = record
        return record

    def close(self, record: CallRecord) -> None:
        self.active.pop(id(record), None)
        self.finished.append(record)


PHONE_SETTINGS = web.AppKey("phone_settings", PhoneSettings)
PHONE_CALLS = web.AppKey("phone_calls", CallRegistry)
PHONE_SERVER = web.AppKey("phone_server", object)   # the ServerContext: opens and ends call sessions


def install(app: web.Application, ctx) -> None:
    """Settings, call registry and the server context (what opens sessions) shared by both phone transports;
    whichever sets up first creates them."""
    if PHONE_SETTINGS not in app:
        app[PHONE_SERVER] = ctx
        app[PHONE_SETTINGS] = PhoneSettings.from_options(ctx.config.options)
        app[PHONE_CALLS] = CallRegistry()
        app.on_shutdown.append(_hang_up_all)


async def _hang_up_all(app: web.Application) -> None:
    """Server shutdown: hang up every call (callers hear the line close, not a stall) and let them finish."""
    registry = app[PHONE_CALLS]
    for record in list(registry.active.values()):
        if record.hang_up is not None:
            record.hang_up("server shutting down")
    for _ in range(100):
        if not registry.active:
            return
        await asyncio.sleep(0.05)


# --- the call loop -------------------------------------------------------------------------------

async def run_call(app: web.Application, transport: str, protocol: PhoneProtocol,
                   inbound: AsyncIterator, send: Callable[[Outbound], Awaitable[None]],
                   close: Callable[[StreamError | None], Awaitable[None]], *, open_door: bool) -> CallRecord:
    """Run one call from the first wire frame to hang-up, and always leave nothing running behind it.
    open_door: the call proved no credential, so it counts against the server's quota for such doors."""
    ctx, settings = app[PHONE_SERVER], app[PHONE_SETTINGS]
    record = app[PHONE_CALLS].open(transport)
    session = None
    try:
        first = await anext(inbound, CallEnded("closed before the call started"))
        if not isinstance(first, CallStarted):
            return await _finish(record, close, first)
        record.call_id, record.parameters, record.rate = first.call_id, dict(first.parameters), first.rate
        log.info("%s call %s started at %d Hz %s", transport, printable(record.call_id), record.rate,
                 printable(str(record.parameters)))
        greeting = first.parameters.get("greeting", settings.greeting) or None
        instructions = first.parameters.get("instructions")
        if greeting is not None and len(greeting) > MAX_GREETING_CHARS:
            log.warning("%s call %s: a %d-character greeting is too long; using the default", transport,
                        printable(record.call_id), len(greeting))
            greeting = settings.greeting
        if instructions is not None and len(instructions) > MAX_INSTRUCTIONS_CHARS:
            log.warning("%s call %s: %d characters of instructions are too many; ignored", transport,
                        printable(record.call_id), len(instructions))
            instructions = None
        config = ctx.config.session_defaults(input_rate=first.rate, output_rate=first.rate,
                                             greeting=greeting, instructions=instructions)
        try:
            session = ctx.new_session(config, transport=transport, open_door=open_door)
        except SessionLimitReached as full:
            return await _finish(record, close, StreamError(1013, f"session_limit: {full}"))
        record.session_id = session.id
        call = _Call(session, protocol, send, record)
        record.hang_up = call.hang_up_now
        await session.start()
        listener = call.spawn(call.listen(inbound), "listen")
        hung_up = call.spawn(call.hung_up.wait(), "hang-up")
        call.spawn(call.pace(), "pace")
        call.spawn(call.play_replies(), "replies")
        await asyncio.wait([listener, hung_up], return_when=asyncio.FIRST_COMPLETED)
        return await _finish(record, close, listener.result() if listener.done() else CallEnded(call.end_reason))
    finally:
        for task in record.tasks:
            task.cancel()
        await asyncio.gather(*record.tasks, return_exceptions=True)
        if session is not None:
            await ctx.end_session(session)
        app[PHONE_CALLS].close(record)
        log.info("%s call %s ended: %s", transport, printable(record.call_id), printable(record.error or record.ended))


async def _finish(record: CallRecord, close, outcome: CallEnded | StreamError) -> CallRecord:
    if isinstance(outcome, StreamError):
        record.error = outcome.message
        log.warning("%s call %s: %s", record.transport, printable(record.call_id or "?"), printable(outcome.message))
        await close(outcome)
    else:
        record.ended = outcome.reason
        await close(None)
    return record


class _Call:
    """The concurrent halves of a call: listen to the caller, turn session events into frames, pace them out."""

    def __init__(self, session, protocol: PhoneProtocol, send, record: CallRecord):
        self.session, self.protocol, self.send, self.record = session, protocol, send, record
        self.wake = asyncio.Event()       # new outbound frames were queued
        self.hung_up = asyncio.Event()    # Parley ended the call and its last words have been sent
        self.end_reason = ""
        self.ending = False               # hang up once the queued audio is out
        self.goodbye_id: str | None = None
        self.generation = 0               # bumped at each barge-in: frames popped before it are stale
        self.caller_pace = AudioPace()    # a line faster than real time is not a phone line: it is hung up

    def spawn(self, coro, name: str) -> asyncio.Task:
        task = asyncio.create_task(coro, name=f"phone-{name}:{self.record.call_id}")
        self.record.tasks.append(task)
        return task

    async def listen(self, inbound: AsyncIterator) -> CallEnded | StreamError:
        async for event in inbound:
            if isinstance(event, CallerAudio):
                if not self.caller_pace.admit(len(event.pcm16) / 2 / self.record.rate):
                    return StreamError(int(WSCloseCode.POLICY_VIOLATION), "audio_too_fast: caller audio came "
                                       f"faster than {MAX_AUDIO_SPEED:g}x real time")
                await self.session.take_audio(event.pcm16)
            elif isinstance(event, CallerDigit):
                self.record.digits.append(event.digit)
                self.session.dtmf(event.digit)
                if event.digit == HANG_UP_DIGIT and self.goodbye_id is None:
                    self.goodbye_id = self.session.say(GOODBYE)
            elif isinstance(event, MarkPlayed):
                self.record.marks_played.append(event.name)
                self.wake.set()
            elif isinstance(event, (CallEnded, StreamError)):
                return event
        return CallEnded("connection closed")

    async def play_replies(self) -> None:
        async for event in self.session.events():
            if isinstance(event, ev.AudioDelta):
                self.protocol.play(event.pcm16)
                self.wake.set()
            elif isinstance(event, ev.AudioDone):
                name = f"{event.response_id}:{event.item_id}"
                self.protocol.mark(name)
                self.record.marks_sent.append(name)
                self.wake.set()
            elif isinstance(event, ev.Interrupted):
                self.record.clears += 1
                self.generation += 1
                for frame in self.protocol.clear():
                    await self._send(frame)
            elif isinstance(event, ev.TranscriptCompleted):
                self.record.transcripts.append(event.transcript)
            elif isinstance(event, ev.ResponseDone):
                self.record.replies.append(event.output_text)
                self.record.timings.append(dict(event.timing))
                if event.response_id == self.goodbye_id:
                    self._end(f"caller pressed {HANG_UP_DIGIT}")
            elif isinstance(event, ev.EndCall):
                self._end(event.reason)
            elif isinstance(event, ev.Error):
                log.warning("call %s session error %s: %s", printable(self.record.call_id), event.code,
                            printable(event.message))

    async def _until_played(self) -> None:
        """Twilio still holds audio until it echoes our last mark; hanging up earlier would cut the goodbye."""
        deadline = time.monotonic() + PLAYOUT_TIMEOUT
        while self.protocol.pending_marks and time.monotonic() < deadline:
            self.wake.clear()
            try:
                await asyncio.wait_for(self.wake.wait(), deadline - time.monotonic())
            except asyncio.TimeoutError:
                break

    def hang_up_now(self, reason: str) -> None:
        self.end_reason = reason
        self.hung_up.set()

    def _end(self, reason: str) -> None:
        self.end_reason, self.ending = reason, True
        self.wake.set()

    async def pace(self) -> None:
        """Send queued frames, audio at one frame per 20 ms on a monotonic schedule (no drift).

        A frame more than LATE_RESET behind schedule means the reply paused (synthesis, a new turn):
        the schedule restarts rather than bursting out the gap.
        """
        deadline = None
        while True:
            frame = self.protocol.pop_outbound()
            if frame is None:
                if self.ending:
                    await self._until_played()
                    self.hung_up.set()
                    return
                self.wake.clear()
                await self.wake.wait()
                continue
            if frame.audio:
                now = time.monotonic()
                if deadline is None or now - deadline > LATE_RESET:
                    deadline = now
                if deadline > now:
                    generation = self.generation
                    await asyncio.sleep(deadline - now)
                    if generation != self.generation:
                        continue
                deadline += FRAME_SECONDS
            await self._send(frame)

    async def _send(self, frame: Outbound) -> None:
        try:
            await self.send(frame)
        except ConnectionError:               # the far end vanished mid-reply: the call is over
            self.hang_up_now("connection lost")
