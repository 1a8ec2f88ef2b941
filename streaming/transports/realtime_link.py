"""One Realtime session driven through RealtimeProtocol, whatever carries its events: the WebSocket door, or a
WebRTC call's `oai-events` data channel plus the sideband WebSockets that watch the call. Both doors go
through this, so the Realtime protocol has one implementation.

    link = RealtimeLink(session, protocol, carrier)
    await link.open()                 # session started, session.created sent
    await link.receive(text); await link.flush()      # a client frame, from any carrier
    await link.forward()              # session events -> server events, until the session ends
"""
from __future__ import annotations

import asyncio
import logging
from typing import Callable, Protocol

from streaming.events import EndCall, SessionEvent
from streaming.transports.realtime import AppendAudio, RealtimeProtocol, apply

log = logging.getLogger("parley.realtime")

MAX_BACKLOG_EVENTS = 1000       # session events waiting for a slow client (~100 s of audio); more: dropped
MAX_WATCHERS = 4                # sideband sockets on one call
GOING_AWAY = ("server_draining",)     # EndCall reasons after which the client should come back elsewhere


class Carrier(Protocol):
    """Where server events go: a WebSocket, a data channel."""

    async def send(self, frame: str) -> bool:
        """Send one JSON text frame; False once the carrier is gone (or was dropped for not reading)."""

    def drop(self, reason: str) -> None:
        """Cut a client that stopped reading."""

    async def close(self, reason: str, going_away: bool) -> None:
        """The session ended: close, saying why."""


class RealtimeLink:
    def __init__(self, session, protocol: RealtimeProtocol, carrier: Carrier,
                 on_event: Callable[[SessionEvent], None] | None = None):
        self.session, self.protocol, self.carrier = session, protocol, carrier
        self.on_event = on_event          # the door's own use of an event (a WebRTC call plays AudioDelta)
        self.watchers: list[Carrier] = []

    async def open(self) -> None:
        await self.session.start()
        self.protocol.start()
        await self.flush()

    def watch(self, carrier: Carrier) -> bool:
        """A sideband socket: it gets every server event from now on and may send client events. False: full."""
        if len(self.watchers) >= MAX_WATCHERS:
            return False
        self.watchers.append(carrier)
        return True

    def unwatch(self, carrier: Carrier) -> None:
        if carrier in self.watchers:
            self.watchers.remove(carrier)

    async def receive(self, text: str | bytes) -> None:
        """One client frame (from the client or a watcher) through the protocol into the session; a large message is
        counted and an append's audio decoded in slices (RealtimeProtocol.receiving) and the audio goes in slices
        (Session.take_audio), other sessions running between them. The doors await this before reading the next
        frame, so a session's appends reach it in order."""
        for commands in self.protocol.receiving(text):
            if commands is None:
                await asyncio.sleep(0)
        for command in commands:
            if isinstance(command, AppendAudio):
                await self.session.take_audio(command.pcm16, command.event_id)
            else:
                apply(self.session, command)

    async def flush(self) -> bool:
        """Send what the protocol has queued; False when the client's carrier is gone."""
        frames = self.protocol.data_to_send()
        alive = True
        for frame in frames:
            if alive and not await self.carrier.send(frame):
                alive = False
            for watcher in list(self.watchers):
                if not await watcher.send(frame):
                    self.unwatch(watcher)
        return alive

    async def forward(self) -> None:
        """Session events to the carriers until the session ends (then the carriers are closed) or the client's
        carrier is gone."""
        async for event in self.session.events():
            if self.on_event is not None:
                self.on_event(event)
            self.protocol.handle(event)
            if not await self.flush():
                return
            if self.session.backlog > MAX_BACKLOG_EVENTS:
                self.carrier.drop(f"{self.session.backlog} events wait to be sent")
                return
            if isinstance(event, EndCall):
                going_away = event.reason in GOING_AWAY
                for carrier in [self.carrier, *self.watchers]:
                    await carrier.close(event.reason, going_away)
                return
