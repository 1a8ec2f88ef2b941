"""What the phone transports share: call events, settings, the call registry, and the call loop.

Twilio Media Streams and Asterisk AudioSocket differ only on the wire. Each has a pure protocol state
machine (``streaming.twilio.MediaStream``, ``streaming.audiosocket.AudioSocketCall``) that turns wire
frames into the call events below and queues reply audio as 20 ms outbound frames. ``run_call`` bridges
one such machine onto a ``Session`` at 8 kHz: caller audio in, reply audio out paced in real time, a mark
after each reply segment, a flush at barge-in, DTMF digits to ``Session.dtmf``, hang-up when the session
ends the call.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from dataclasses import dataclass, field
from typing import AsyncIterator, Awaitable, Callable, Protocol

from aiohttp import web

log = logging.getLogger(__name__)

PHONE_RATE = 8000        # both transports carry narrow-band 8 kHz audio; the Session resamples
FRAME_SECONDS = 0.020    # one outbound frame of audio
LATE_RESET = 0.100       # how far behind schedule the pacer catches up before it restarts the schedule


# --- call events (protocol machine -> call loop) ------------------------------------------------

@dataclass(frozen=True)
class CallStarted:
    call_id: str                          # Twilio callSid / Asterisk channel UUID
    parameters: dict[str, str] = field(default_factory=dict)   # Twilio customParameters


@dataclass(frozen=True)
class CallerAudio:
    pcm16: bytes                          # PCM16 LE mono at 8 kHz


@dataclass(frozen=True)
class CallerDigit:
    digit: str


@dataclass(frozen=True)
class MarkPlayed:
    name: str                             # Twilio played everything queued before this mark


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


class PhoneProtocol(Protocol):
    def play(self, pcm16: bytes) -> None: ...
    def mark(self, name: str) -> None: ...
    def clear(self) -> list[Outbound]: ...
    def pop_outbound(self) -> Outbound | None: ...


# --- settings and registry ------------------------------------------------------------------------

@dataclass
class PhoneSettings:
    greeting: str | None = "Hello, this is Parley. How can I help?"
    twilio_auth_token: str | None = None  # when set, /twilio/voice rejects unsigned or badly signed webhooks
    public_url: str | None = None         # e.g. https://parley.example.com behind a proxy or tunnel
    audiosocket_host: str = "127.0.0.1"
    audiosocket_port: int | None = 9092   # None: no AudioSocket listener


@dataclass
class CallRecord:
    """What happened on one call; the operator's (and the tests') view of the phone lines."""
    transport: str
    call_id: str = ""
    parameters: dict[str, str] = field(default_factory=dict)
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
    started_at: float = field(default_factory=time.time)


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


# --- the call loop -------------------------------------------------------------------------------

async def run_call(app: web.Application, transport: str, protocol: PhoneProtocol,
                   inbound: AsyncIterator, send: Callable[[Outbound], Awaitable[None]],
                   close: Callable[[StreamError | None], Awaitable[None]]) -> CallRecord:
    """Run one call from the first wire frame to hang-up, and always leave nothing running behind it."""
    record = app[PHONE_CALLS].open(transport)
    session = None
    try:
        first = await anext(inbound, CallEnded("closed before the call started"))
        if not isinstance(first, CallStarted):
            return await _finish(record, close, first)
        record.call_id, record.parameters = first.call_id, dict(first.parameters)
        log.info("%s call %s started %s", transport, record.call_id, record.parameters)
        session = open_session(app, first.parameters)
        await session.start()
        call = _Call(session, protocol, send, record)
        record.tasks = [asyncio.create_task(call.pace(), name=f"phone-pace:{record.call_id}"),
                        asyncio.create_task(call.play_replies(), name=f"phone-replies:{record.call_id}")]
        reader = asyncio.create_task(call.listen(inbound), name=f"phone-listen:{record.call_id}")
        record.tasks.append(reader)
        hung_up = asyncio.create_task(call.hung_up.wait(), name=f"phone-hangup:{record.call_id}")
        record.tasks.append(hung_up)
        await asyncio.wait([reader, hung_up], return_when=asyncio.FIRST_COMPLETED)
        outcome = reader.result() if reader.done() else CallEnded(call.end_reason)
        return await _finish(record, close, outcome)
    finally:
        for task in record.tasks:
            task.cancel()
        await asyncio.gather(*record.tasks, return_exceptions=True)
        if session is not None:
            await session.close()
        app[PHONE_CALLS].close(record)
        log.info("%s call %s ended: %s", transport, record.call_id, record.error or record.ended)


async def _finish(record: CallRecord, close, outcome) -> CallRecord:
    if isinstance(outcome, StreamError):
        record.error = outcome.message
        log.warning("%s call %s: %s", record.transport, record.call_id or "?", outcome.message)
        await close(outcome)
    else:
        record.ended = outcome.reason
        await close(None)
    return record


class _Call:
    """The three concurrent halves of a call: listen to the caller, turn session events into frames, pace them."""

    def __init__(self, session, protocol: PhoneProtocol, send, record: CallRecord):
        self.session, self.protocol, self.send, self.record = session, protocol, send, record
        self.wake = asyncio.Event()       # new outbound frames were queued
        self.hung_up = asyncio.Event()    # the session ended the call and its last words have been sent
        self.end_reason = ""
        self.ending = False
        self.generation = 0               # bumped at each barge-in

    async def listen(self, inbound: AsyncIterator) -> CallEnded | StreamError:
        async for event in inbound:
            if isinstance(event, CallerAudio):
                self.session.push_audio(event.pcm16)
            elif isinstance(event, CallerDigit):
                self.record.digits.append(event.digit)
                self.session.dtmf(event.digit)
            elif isinstance(event, MarkPlayed):
                self.record.marks_played.append(event.name)
            elif isinstance(event, (CallEnded, StreamError)):
                return event
        return CallEnded("connection closed")

    async def play_replies(self) -> None:
        from streaming import events as ev
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
                    await self.send(frame)
            elif isinstance(event, ev.TranscriptCompleted):
                self.record.transcripts.append(event.transcript)
            elif isinstance(event, ev.ResponseDone):
                self.record.replies.append(event.output_text)
                self.record.timings.append(dict(event.timing))
            elif isinstance(event, ev.EndCall):
                self.end_reason, self.ending = event.reason, True
                self.wake.set()
            elif isinstance(event, ev.Error):
                log.warning("call %s session error %s: %s", self.record.call_id, event.code, event.message)

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
                    if generation != self.generation:    # barge-in while we waited: this frame is stale
                        continue
                deadline += FRAME_SECONDS
            await self.send(frame)


def open_session(app: web.Application, parameters: dict[str, str]):
    """A Session for one call: 8 kHz both ways, the configured greeting."""
    raise NotImplementedError("wired to streaming.session once the session core lands")
