"""MQTT voice satellites: a device with a microphone and a speaker uses Parley as its whole voice brain.

Topic contract (docs/home-assistant.md); <id> is the device id, which is also its MQTT username:
  device → Parley  parley/<id>/audio/in   PCM16 LE mono 16 kHz, chunks of whole samples QoS 0
                   parley/<id>/control    JSON {"type": "start" | "stop" | "cancel"}     QoS 1
                   parley/<id>/text/in    UTF-8 text request                             QoS 1
                   parley/<id>/status     online / offline, retained, the device's last will
  Parley → device  parley/<id>/events     JSON: transcript, reply.delta, reply, audio.start,
                                          audio.stop, error, speech.started, speech.stopped   QoS 1
                   parley/<id>/audio/out  PCM16 LE mono chunks at audio.start's rate      QoS 0
                   parley/server/status   online / offline, retained, Parley's last will

The pure part (parse_topic, decode, ReplyStream) turns messages into requests and session events into
messages without touching a socket; SatelliteService is the aiomqtt loop around it, one Session per device.

Several gateways share one fleet (with `claims`): each subscribes to the inbound topics through the MQTT v5
shared subscription `$share/parley/...`, so each message reaches one gateway of the group. The first gateway
that gets a message of an unserved device claims the device in the state store and subscribes to that
device's topics directly, so every chunk of its turns arrives there; the shared copies are then dropped by
everyone. A claim is renewed every DEVICE_RENEW_S; the devices of a gateway that died are free
DEVICE_CLAIM_TTL_S later, and their next message is claimed by a survivor.
"""
from __future__ import annotations

import asyncio
import collections
import inspect
import json
import logging
import math
import os
import time
from dataclasses import dataclass, replace
from typing import Awaitable, Callable, Protocol

import aiomqtt
from aiohttp import web
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from streaming import events as ev
from streaming.audio_pace import MAX_AUDIO_SPEED, AudioPace
from streaming.config import ServerConfig
from streaming.transports.mqtt.connection import GOODBYE_WAIT_S, Backoff, MqttSettings, stay_connected
from streaming.logsafe import printable
from streaming.metrics import Metrics
from streaming.session import Session, SessionConfig, SessionLimitReached, TurnDetection
from streaming.store import StoreUnavailable
from streaming.supervisor import RESTART_INITIAL_S, STOP_S, Supervisor

log = logging.getLogger("parley.mqtt_satellite")

PREFIX = "parley"
SERVER_STATUS = f"{PREFIX}/server/status"
SATELLITE_RATE = 16000               # both directions; ESP32-class satellites record and play 16 kHz
MAX_AUDIO_BYTES = 64 * 1024          # 2 s of audio in one message; larger is a broken device
MAX_TEXT_BYTES = 4096
MAX_CONTROL_BYTES = 1024
MAX_BACKLOG = 1000                   # events waiting for the broker: while it is away, or connected and not reading
MAX_UNSENT_AUDIO = 1024 * 1024      # bytes of reply audio waiting for a connected broker that does not read (32 s)
MAX_AUDIO_WAIT_S = 3.0               # reply audio that waited longer is stale: the device has been silent mid-reply
STATUS_WAIT_S = 2.0                  # the broker's confirmation of parley/server/status; less than the supervisor's
                                     # STOP_S, so a stalled broker never holds up a stop
CHANNELS = ("audio/in", "control", "text/in", "status")
TASK, IDLE_TASK, CLAIMS_TASK = "mqtt-satellites", "mqtt-satellites-idle", "mqtt-satellites-claims"
SHARE_GROUP = "$share/parley/"
SHARED, DIRECT = 1, 2                # MQTT v5 subscription identifiers: which subscription delivered a message
MAX_QUEUED = 256                     # a device's messages waiting for its worker: 5 s of 20 ms audio chunks
DEVICE_CLAIM_TTL_S = 5.0             # a dead gateway's devices are free this long after its last renewal
DEVICE_RENEW_S = 1.5
SHARED_KEEPALIVE_S = 5
ELSEWHERE_RECHECK_S = 1.0            # a device another gateway serves: ask the store again after this long
MAX_ELSEWHERE = 10_000


class DeviceClaims(Protocol):
    """Which gateway serves a device (streaming.gateway.DeviceClaims: the claim `device:<id>` in the store)."""

    async def take(self, device_id: str) -> bool: ...

    async def release(self, device_id: str) -> None: ...


# ---- device → Parley: topics and payloads become requests ------------------------------------------

@dataclass(frozen=True)
class Audio:
    pcm16: bytes


@dataclass(frozen=True)
class StartTurn:
    """The device delimits the turn itself (push-to-talk, wake word): buffer until StopTurn."""


@dataclass(frozen=True)
class StopTurn:
    """End of the device-delimited turn (or, under server VAD, "answer what you have now")."""


@dataclass(frozen=True)
class Cancel:
    """Stop the reply and drop the audio heard so far."""


@dataclass(frozen=True)
class Text:
    text: str


@dataclass(frozen=True)
class Presence:
    online: bool


@dataclass(frozen=True)
class Invalid:
    """A message the device got wrong; answered with an `error` event, nothing else changes."""
    code: str
    message: str


Request = Audio | StartTurn | StopTurn | Cancel | Text | Presence | Invalid
CONTROL_TYPES = {"start": StartTurn(), "stop": StopTurn(), "cancel": Cancel()}


def parse_topic(topic: str) -> tuple[str, str] | None:
    """`parley/<id>/<channel>` → (id, channel) for the inbound channels; None for anything else."""
    parts = topic.split("/", 2)
    if len(parts) != 3 or parts[0] != PREFIX or parts[1] in ("", "server") or parts[2] not in CHANNELS:
        return None
    return parts[1], parts[2]


def decode(channel: str, payload: bytes) -> Request | None:
    """One inbound message → a request; None for messages that need no action (unknown presence words)."""
    if channel == "audio/in":
        if len(payload) % 2:
            return Invalid("invalid_audio", f"audio/in takes PCM16 samples (2 bytes each); got {len(payload)} bytes")
        if len(payload) > MAX_AUDIO_BYTES:
            return Invalid("audio_too_large", f"audio/in chunks are limited to {MAX_AUDIO_BYTES} bytes")
        return Audio(payload)
    if channel == "status":
        word = payload.decode("utf-8", "replace").strip().lower()
        return Presence(word == "online") if word in ("online", "offline") else None
    if channel == "text/in":
        if len(payload) > MAX_TEXT_BYTES:
            return Invalid("text_too_large", f"text/in is limited to {MAX_TEXT_BYTES} bytes")
        try:
            text = payload.decode("utf-8").strip()
        except UnicodeDecodeError:
            return Invalid("invalid_text", "text/in must be UTF-8")
        return Text(text) if text else Invalid("invalid_text", "text/in is empty")
    if len(payload) > MAX_CONTROL_BYTES:
        return Invalid("invalid_json", f"control messages are at most {MAX_CONTROL_BYTES} bytes")
    try:
        message = json.loads(payload)
    except (ValueError, RecursionError):     # also deep nesting and 5,000-digit numbers
        return Invalid("invalid_json", "control messages are JSON objects like {\"type\": \"start\"}")
    kind = message.get("type") if isinstance(message, dict) else None
    if kind not in CONTROL_TYPES:
        return Invalid("unknown_control", f"control type must be one of start, stop, cancel; got {kind!r}")
    return CONTROL_TYPES[kind]


def satellite_config(turn_detection: TurnDetection | None) -> SessionConfig:
    """16 kHz both ways; turn_detection=None while the device delimits a turn with start/stop."""
    return SessionConfig(input_rate=SATELLITE_RATE, output_rate=SATELLITE_RATE, turn_detection=turn_detection)


# ---- Parley → device: session events become messages -----------------------------------------------

@dataclass(frozen=True)
class Publish:
    topic: str
    payload: bytes
    qos: int
    retain: bool = False


def device_of(message: Publish) -> str:
    return message.topic.split("/")[1]


def event_message(device_id: str, kind: str, **fields) -> Publish:
    return Publish(f"{PREFIX}/{device_id}/events", json.dumps({"type": kind, **fields}).encode(), qos=1)


def audio_message(device_id: str, pcm16: bytes) -> Publish:
    return Publish(f"{PREFIX}/{device_id}/audio/out", pcm16, qos=0)


class ReplyStream:
    """One device's view of its session: which reply is playing, and which tools it called."""

    def __init__(self, device_id: str, rate: int = SATELLITE_RATE):
        self.device_id = device_id
        self.rate = rate
        self.responding: str | None = None     # response in flight
        self.audio_open: str | None = None     # response whose audio.start was sent without audio.stop
        self.tool_calls: list[dict] = []

    def encode(self, event) -> list[Publish]:
        out: list[Publish] = []
        emit = lambda kind, **fields: out.append(event_message(self.device_id, kind, **fields))  # noqa: E731
        match event:
            case ev.SpeechStarted():
                emit("speech.started")
            case ev.SpeechStopped():
                emit("speech.stopped")
            case ev.TranscriptCompleted(transcript=text):
                emit("transcript", text=text)
            case ev.ResponseCreated(response_id=rid):
                self.responding, self.tool_calls = rid, []
            case ev.ToolCallExecuted(name=name, arguments=arguments, result=result):
                self.tool_calls.append({"name": name, "arguments": arguments, "result": result})
            case ev.TextDelta(response_id=rid, delta=delta):
                emit("reply.delta", response_id=rid, text=delta)
            case ev.AudioDelta(response_id=rid, pcm16=pcm16):
                if self.audio_open != rid:
                    self._close_audio(emit, "replaced")
                    emit("audio.start", response_id=rid, rate=self.rate, channels=1, format="s16le")
                    self.audio_open = rid
                out.append(audio_message(self.device_id, pcm16))
            case ev.AudioDone():
                self._close_audio(emit, "done")
            case ev.Interrupted():
                self._close_audio(emit, "interrupted")
            case ev.ResponseDone(status=status, reason=reason, response_id=rid, output_text=text, timing=timing):
                self._close_audio(emit, status)
                if status == "completed":
                    emit("reply", response_id=rid, text=text, tool_calls=self.tool_calls, timing=timing)
                elif status == "failed":
                    emit("error", code="response_failed", message=reason or "the reply failed", response_id=rid)
                self.responding = None
            case ev.Error(code=code, message=message):
                emit("error", code=code, message=message)
        return out

    def _close_audio(self, emit, reason: str) -> None:
        if self.audio_open is not None:
            emit("audio.stop", response_id=self.audio_open, reason=reason)
            self.audio_open = None


@dataclass(frozen=True)
class DropReason:
    """Why reply audio was not sent: the log line's words and the `audio_dropped` event's message."""
    log: str
    told: str


FULL = DropReason(f"the broker is not taking messages ({MAX_UNSENT_AUDIO // 1024} KiB of reply audio wait to be sent)",
                  f"the broker did not take Parley's messages; reply audio past {MAX_UNSENT_AUDIO // 1024} KiB "
                  "waiting to be sent was dropped")
STALE = DropReason(f"reply audio waited more than {MAX_AUDIO_WAIT_S:g} s for the broker",
                   f"the broker did not take Parley's messages; reply audio that waited more than "
                   f"{MAX_AUDIO_WAIT_S:g} s was dropped")
AWAY = DropReason("the broker connection was lost",
                  "Parley's connection to the broker was lost; reply audio waiting or made before it came back was "
                  "dropped")


# ---- one device: requests → session calls ----------------------------------------------------------

class Satellite:
    """A device's Session plus its ReplyStream; freed when the device leaves or goes quiet."""

    def __init__(self, device_id: str, session: Session, turn_detection: TurnDetection | None):
        self.device_id = device_id
        self.session = session
        self.turn_detection = turn_detection     # what ends turns when the device does not
        self.stream = ReplyStream(device_id)
        self.last_seen = time.monotonic()
        self.pump: asyncio.Task | None = None
        self.awaiting_transcript = False     # a device-delimited turn ended: reply once it is transcribed
        self.direct = False                  # shared fleet: this device's own topics are subscribed here
        self.direct_arriving = False         # ... and their copies arrive: the shared copies are twins now
        self.last_shared: Request | None = None    # the shared copy served last, before direct_arriving
        self.audio_pace = AudioPace()        # audio/in past this pace is dropped...
        self.too_fast_said = False           # ...and said once per overrun, in an audio_too_fast error

    async def apply(self, request: Request) -> None:
        self.last_seen = time.monotonic()
        session = self.session
        match request:
            case Audio(pcm16=pcm16) if pcm16:
                await session.take_audio(pcm16)
            case StartTurn():
                self._cancel_reply()
                session.clear_audio()
                session.update(replace(session.config, turn_detection=None))
            case StopTurn():
                self.awaiting_transcript = True
                session.commit_audio()
            case Cancel():
                self._cancel_reply()
                session.clear_audio()
            case Text(text=text):
                self._cancel_reply()
                session.add_user_text(text)
                session.create_response()

    def observe(self, event) -> list[Publish]:
        """The messages for one session event, and the reply a device-delimited turn is waiting for."""
        messages = self.stream.encode(event)
        if self.awaiting_transcript and isinstance(event, (ev.TranscriptCompleted, ev.Error)):
            self.awaiting_transcript = False
            if isinstance(event, ev.TranscriptCompleted) and event.transcript.strip():
                self.session.create_response()
            elif isinstance(event, ev.TranscriptCompleted):
                messages.append(event_message(self.device_id, "error", code="no_speech",
                                              message="no words were recognised in that turn"))
            self.session.update(replace(self.session.config, turn_detection=self.turn_detection))
        return messages

    def _cancel_reply(self) -> None:
        if self.stream.responding is not None:
            self.session.cancel_response()


class Inbox:
    """One device's messages, in arrival order, waiting for the device's own worker: a device whose request waits
    (a resume on a slow store) holds up only itself."""

    def __init__(self):
        self.messages: collections.deque[tuple[aiomqtt.Client, Request, bool]] = collections.deque()
        self.worker: asyncio.Task | None = None
        self.overflowing = False          # the device was told its excess is dropped (once, until its backlog clears)


def worker_name(device_id: str) -> str:
    return f"{TASK}/{device_id}"


# ---- the aiomqtt loop --------------------------------------------------------------------------------

def _subscription(identifier: int) -> Properties:
    properties = Properties(PacketTypes.SUBSCRIBE)
    properties.SubscriptionIdentifier = identifier
    return properties


class SatelliteService:
    """Serves every satellite on one broker connection; reconnects and resubscribes after broker restarts.

    open_session(config, device_id) gives the device's Session (or an awaitable of it). With claims, the
    fleet is shared with other gateways (see the module docstring). Each device's messages are handled in order
    by a worker of its own (at most max_devices devices waiting to be served at once, MAX_QUEUED messages each)."""

    def __init__(self, open_session: Callable[[SessionConfig, str], Session | Awaitable[Session]],
                 close_session: Callable[[Session], Awaitable[None]], settings: MqttSettings, *,
                 turn_detection: TurnDetection | None = TurnDetection(), idle_timeout: float = 300.0,
                 backoff: Backoff | None = None, supervisor: Supervisor | None = None,
                 claims: DeviceClaims | None = None, max_devices: int = ServerConfig.max_sessions,
                 metrics: Metrics | None = None):
        self.open_session = open_session    # the server's factory: engines, tools (the MQTT home), metrics
        self.close_session = close_session
        self.claims = claims
        self.draining = False
        self._elsewhere: dict[str, float] = {}     # device id -> when to ask the store again
        self.turn_detection = turn_detection
        self.settings = settings
        self.idle_timeout = idle_timeout
        self.backoff = backoff
        self.satellites: dict[str, Satellite] = {}
        self.inboxes: dict[str, Inbox] = {}
        self.max_devices = max_devices     # devices not served yet that may wait for a session at once
        self.metrics = metrics
        self.connected = asyncio.Event()
        self._client: aiomqtt.Client | None = None
        # (queued at, message), bounded by send(): the two counts below
        self._outbox: collections.deque[tuple[float, Publish]] = collections.deque()
        self._outbox_filled = asyncio.Event()
        self.unsent_events = 0
        self.unsent_audio = 0                      # bytes
        self._audio_dropped: set[str] = set()     # devices told their reply audio was dropped, until none waits or
                                                  # the broker is back
        self.supervisor = supervisor or Supervisor()   # the server's, so /healthz sees these loops

    async def start(self) -> None:
        will = aiomqtt.Will(SERVER_STATUS, "offline", qos=1, retain=True)
        self.supervisor.start(TASK, lambda: stay_connected(self.settings, "satellites", self._serve, will=will,
                                                           backoff=self.backoff, v5=self.claims is not None))
        self.supervisor.start(IDLE_TASK, self._free_idle)
        if self.claims is not None:
            self.supervisor.start(CLAIMS_TASK, self._renew_claims)

    async def drain(self) -> None:
        """SIGTERM: take no new devices, and hand each served one back as soon as no turn is in flight."""
        self.draining = True
        client = self._client
        if client is not None:
            try:
                await self._unsubscribe_all(client)
            except aiomqtt.MqttError as error:
                log.warning("SIGTERM: the broker did not confirm the satellites' unsubscribe within %g s (%s); their "
                            "devices are handed back all the same and no new one is served", GOODBYE_WAIT_S, error)
        while self.satellites:
            idle = [device_id for device_id, satellite in self.satellites.items()
                    if satellite.session.idle and not satellite.awaiting_transcript]
            await asyncio.gather(*(self.free(device_id) for device_id in idle))   # a stalled broker's wait once, not per device
            await asyncio.sleep(0.1)

    async def close(self, goodbye_wait: Callable[[float], float] = lambda bound: bound) -> None:
        """goodbye_wait(bound): how long the `offline` status and the DISCONNECT may wait for the broker (the
        server's: cut to a SIGTERM's deadline)."""
        client = self._client
        if client is not None:   # a clean goodbye: the broker does not send our will then
            await self._announce(client, "offline", goodbye_wait(STATUS_WAIT_S))
            client.timeout = goodbye_wait(GOODBYE_WAIT_S)    # the DISCONNECT's wait, when the loop below is stopped
        for task in (TASK, IDLE_TASK, CLAIMS_TASK):
            await self.supervisor.stop(task)
        workers = {inbox.worker for inbox in self.inboxes.values() if inbox.worker is not None}
        for worker in workers:
            worker.cancel()
        if workers and (await asyncio.wait(workers, timeout=STOP_S))[1]:
            log.error("satellite workers did not end within %g s of their cancel; left running", STOP_S)
        self.inboxes.clear()
        for device_id in list(self.satellites):
            await self.free(device_id)

    async def _subscribe(self, client: aiomqtt.Client, device: str, identifier: int | None) -> None:
        """The inbound topics of one device (or `+`, every device); shared among gateways when identifier is SHARED."""
        prefix = SHARE_GROUP if identifier == SHARED else ""
        options = {"properties": _subscription(identifier)} if identifier is not None else {}
        await client.subscribe([(f"{prefix}{PREFIX}/{device}/{channel}", 0 if channel == "audio/in" else 1)
                                for channel in CHANNELS], **options)   # one SUBSCRIBE: one round trip

    async def _unsubscribe_all(self, client: aiomqtt.Client) -> None:
        prefix = "" if self.claims is None else SHARE_GROUP
        await client.unsubscribe([f"{prefix}{PREFIX}/+/{channel}" for channel in CHANNELS], timeout=GOODBYE_WAIT_S)

    async def _serve(self, client: aiomqtt.Client) -> None:
        if self.claims is None:
            await self._subscribe(client, "+", None)
        elif not self.draining:
            await self._subscribe(client, "+", SHARED)
            for device_id, satellite in list(self.satellites.items()):   # after a broker restart: the devices
                satellite.direct_arriving = False                          # served here
                await self._subscribe(client, device_id, DIRECT)
        await self._announce(client, "online", STATUS_WAIT_S)
        self._audio_dropped.clear()     # a device told during the outage is told again if its audio is dropped now
        self._client = client
        self.connected.set()
        publisher = asyncio.create_task(self._publish_outbox(client), name="mqtt-satellites-out")
        try:
            async for message in client.messages:
                try:
                    parsed = parse_topic(str(message.topic))
                    if parsed is None:
                        continue
                    device_id, channel = parsed
                    request = decode(channel, bytes(message.payload))
                    identifiers = getattr(message.properties, "SubscriptionIdentifier", None) or []
                    self._dispatch(client, device_id, request, DIRECT in identifiers)
                except Exception:  # noqa: BLE001 - one message must not end every device's service
                    self.supervisor.contain(TASK, f"a message on {message.topic}")
        finally:
            self._client = None
            self.connected.clear()
            publisher.cancel()
            self._withdraw_audio(lambda device_id: True, AWAY)

    @staticmethod
    async def _announce(client: aiomqtt.Client, status: str, wait_s: float) -> None:
        """Retain Parley's status, waiting at most wait_s for the broker to confirm it; a broker that does not is
        logged and the connection goes on (it is still sent if the broker reads again)."""
        try:
            await client.publish(SERVER_STATUS, status, qos=1, retain=True, timeout=wait_s)
        except aiomqtt.MqttError as error:
            log.warning("satellites: the broker did not confirm %s %s within %.1f s (%s); going on without it",
                        SERVER_STATUS, status, wait_s, error)

    def _dispatch(self, client: aiomqtt.Client, device_id: str, request: Request | None, direct: bool) -> None:
        """Queue the message for its device's worker (started if none runs); never waits."""
        inbox = self.inboxes.get(device_id)
        if inbox is None:
            if device_id not in self.satellites:
                if not self._may_serve(device_id, request, direct):
                    return
                if len(self.inboxes) >= self.max_devices + len(self.satellites):
                    self.send(event_message(device_id, "error", code="session_limit", message=(
                        f"this server takes at most {self.max_devices} new devices at once; try again shortly")))
                    return
            inbox = self.inboxes[device_id] = Inbox()
        if len(inbox.messages) >= MAX_QUEUED:
            if self.metrics is not None:
                self.metrics.satellite_message_dropped()
            if not inbox.overflowing:
                inbox.overflowing = True
                self.send(event_message(device_id, "error", code="too_many_messages", message=(
                    f"more than {MAX_QUEUED} messages wait to be handled; the excess is dropped")))
            return
        inbox.messages.append((client, request, direct))
        if inbox.worker is None or inbox.worker.done():
            self._start_worker(device_id, inbox)

    def _start_worker(self, device_id: str, inbox: Inbox) -> None:
        inbox.worker = asyncio.create_task(self._work(device_id, inbox), name=f"satellite-worker-{device_id}")

    def _restart(self, device_id: str, inbox: Inbox) -> None:
        """A dead worker starts again, as the supervisor restarts its tasks: it handles what is still queued, and
        with nothing queued it ends at once, so /healthz forgets it even if the device never sends again."""
        if self.inboxes.get(device_id) is inbox and inbox.worker is not None and inbox.worker.done():
            self._start_worker(device_id, inbox)

    def _may_serve(self, device_id: str, request: Request | None, direct: bool) -> bool:
        """Whether a message of a device not served here may open its session (with claims: may claim it)."""
        if request is None or isinstance(request, Presence) or self.draining:
            return False                          # draining: whatever the broker still delivers, no new device
        if self.claims is None:
            return True
        if direct:
            return False                          # a device just handed on: its messages are someone else's now
        return self._elsewhere.get(device_id, 0.0) <= time.monotonic()

    async def _work(self, device_id: str, inbox: Inbox) -> None:
        """Handle the device's messages in order until none waits. A failure other than a store's or the broker's
        outage (a bug) ends the worker, shown on /healthz; it starts again RESTART_INITIAL_S later, or at the
        device's next message if that comes first."""
        self.supervisor.revived(worker_name(device_id))
        while inbox.messages:
            client, request, direct = inbox.messages.popleft()
            try:
                if self.claims is None:
                    await self._receive(device_id, request)
                else:
                    await self._receive_shared(client, device_id, request, direct)
            except (StoreUnavailable, aiomqtt.MqttError):   # an outage: the device's next message tries again
                self.supervisor.contain(TASK, f"a message of {device_id}")
            except Exception as error:  # noqa: BLE001 - shown on /healthz; the other devices go on
                self.supervisor.died(worker_name(device_id), error)
                asyncio.get_running_loop().call_later(RESTART_INITIAL_S, self._restart, device_id, inbox)
                return
        if self.inboxes.get(device_id) is inbox:
            del self.inboxes[device_id]

    async def _publish_outbox(self, client: aiomqtt.Client) -> None:
        """One message at a time, each waited for without a time limit: a broker that stops reading (its TCP window
        full) holds one message in paho's own queue, and the rest wait in the outbox, bounded by send(). Reply audio
        that waited past MAX_AUDIO_WAIT_S is dropped here rather than played late. An event the broker had not
        confirmed when the connection went is sent again on the next one (QoS 1: at least once)."""
        while True:
            while not self._outbox:
                self._outbox_filled.clear()
                await self._outbox_filled.wait()
            queued_at, message = self._outbox.popleft()
            if message.qos == 0 and time.monotonic() - queued_at > MAX_AUDIO_WAIT_S:
                self._drop_audio(message, STALE)
                self._sent(message)
                continue
            try:
                await client.publish(message.topic, message.payload, qos=message.qos, retain=message.retain,
                                     timeout=math.inf)
            except (aiomqtt.MqttError, asyncio.CancelledError) as going:   # the connection is going
                if message.qos > 0:
                    self._outbox.appendleft((queued_at, message))      # still counted in unsent_events
                else:
                    self._sent(message)
                if isinstance(going, asyncio.CancelledError):
                    raise
                return   # _serve's message loop notices and reconnects
            self._sent(message)

    def _sent(self, message: Publish) -> None:
        if message.qos > 0:
            self.unsent_events -= 1
            return
        self.unsent_audio -= len(message.payload)
        if self.unsent_audio == 0:
            self._audio_dropped.clear()

    def send(self, message: Publish) -> None:
        """Queue for the broker. Events wait up to MAX_BACKLOG; reply audio (QoS 0) waits up to MAX_UNSENT_AUDIO bytes
        and MAX_AUDIO_WAIT_S while connected (a broker that stops reading), and none of it outlives the connection.
        Past a bound the message is dropped and counted; a device whose reply audio was dropped gets an `error`
        event once the broker reads."""
        if message.qos > 0:
            if self.unsent_events >= MAX_BACKLOG:
                self._count_dropped("event")
                return
            self.unsent_events += 1
        elif self._client is None:
            self._drop_audio(message, AWAY)
            return
        elif self.unsent_audio + len(message.payload) > MAX_UNSENT_AUDIO:
            self._drop_audio(message, FULL)
            return
        else:
            self.unsent_audio += len(message.payload)
        self._outbox.append((time.monotonic(), message))
        self._outbox_filled.set()

    def _withdraw_audio(self, whose: Callable[[str], bool], reason: DropReason | None) -> None:
        """Take the reply audio of the devices `whose` accepts out of the outbox: stale once the connection it was
        meant for is gone (dropped for `reason`), or a reply interrupted (reason None: nothing to tell)."""
        kept: collections.deque[tuple[float, Publish]] = collections.deque()
        withdrawn: list[Publish] = []
        for queued_at, message in self._outbox:
            if message.qos == 0 and whose(device_of(message)):
                withdrawn.append(message)
            else:
                kept.append((queued_at, message))
        self._outbox = kept
        for message in withdrawn:
            self.unsent_audio -= len(message.payload)
            if reason is not None:
                self._drop_audio(message, reason)

    def _drop_audio(self, message: Publish, reason: DropReason) -> None:
        """Reply audio not sent: counted; logged and told once per device until the audio waiting is sent (or, after
        an outage, until the broker is back)."""
        self._count_dropped("audio")
        device_id = device_of(message)
        if device_id in self._audio_dropped:
            return
        self._audio_dropped.add(device_id)
        log.warning("satellite %s: %s; its reply audio is dropped", printable(device_id), reason.log)
        self.send(event_message(device_id, "error", code="audio_dropped", message=reason.told))

    def _count_dropped(self, kind: str) -> None:
        if self.metrics is not None:
            self.metrics.satellite_reply_dropped(kind)

    async def _receive_shared(self, client: aiomqtt.Client, device_id: str, request: Request | None,
                              direct: bool) -> None:
        """A message from the shared subscription or a device's own one: serve it here, once, or leave it."""
        satellite = self.satellites.get(device_id)
        if satellite is not None:
            if satellite.direct_arriving:
                if direct:
                    await self._receive(device_id, request)
            elif not direct:                     # no direct copy has come yet: this one is the only copy
                satellite.last_shared = request
                await self._receive(device_id, request)
            else:
                # The first direct copy: from here each message comes twice, and the broker sends a message's
                # two copies one after the other. Its twin is the shared copy just served, or the next one
                # (dropped from now on). Equal payloads count as twins: at worst one repeated chunk is lost.
                satellite.direct_arriving = True
                if request != satellite.last_shared:
                    await self._receive(device_id, request)
                satellite.last_shared = None
            return
        if not self._may_serve(device_id, request, direct):
            return
        if not await self.claims.take(device_id):
            now = time.monotonic()
            if len(self._elsewhere) >= MAX_ELSEWHERE:
                self._elsewhere = {d: t for d, t in self._elsewhere.items() if t > now}
            self._elsewhere[device_id] = now + ELSEWHERE_RECHECK_S
            return
        self._elsewhere.pop(device_id, None)
        # subscribe before opening the session: until the broker has the direct subscription, the device's
        # messages reach the group (the others drop them; the copies that come here are served), so this
        # window is kept to one round trip
        await self._subscribe(client, device_id, DIRECT)
        await self._receive(device_id, request)       # opens the satellite
        satellite = self.satellites.get(device_id)
        if satellite is None:                         # refused (session limit)
            await self._unsubscribe_device(client, device_id)
            await self.claims.release(device_id)
            return
        satellite.direct, satellite.last_shared = True, request

    @staticmethod
    async def _unsubscribe_device(client: aiomqtt.Client, device_id: str) -> None:
        await client.unsubscribe([f"{PREFIX}/{device_id}/{channel}" for channel in CHANNELS], timeout=GOODBYE_WAIT_S)

    async def _renew_claims(self) -> None:
        """Keep the claims of the devices served here; a device whose claim went elsewhere is let go."""
        while True:
            await asyncio.sleep(DEVICE_RENEW_S)
            for device_id in list(self.satellites):
                try:
                    kept = await self.claims.take(device_id)
                except Exception as error:  # noqa: BLE001 - the store may answer at the next renewal
                    log.warning("renewing device %s failed: %s", printable(device_id), error)
                    continue
                if not kept:
                    log.info("satellite %s: served by another gateway now", printable(device_id))
                    await self.free(device_id, release=False)

    async def _receive(self, device_id: str, request: Request | None) -> None:
        if isinstance(request, Presence):
            if not request.online:
                await self.free(device_id)
            return
        if request is None:
            return
        satellite = self.satellites.get(device_id)
        if satellite is None:
            try:
                satellite = await self._open(device_id)
            except SessionLimitReached as full:
                self.send(event_message(device_id, "error", code="session_limit", message=str(full)))
                return
            except StoreUnavailable as outage:   # its conversation cannot be read yet (session_saving): come back
                log.warning("satellite %s: not served for now: %s", printable(device_id), outage)
                self.send(event_message(device_id, "error", code=outage.code, message=str(outage)))
                return
        if isinstance(request, Invalid):
            satellite.last_seen = time.monotonic()
            self.send(event_message(device_id, "error", code=request.code, message=request.message))
            return
        if isinstance(request, Audio):
            if not satellite.audio_pace.admit(len(request.pcm16) / 2 / SATELLITE_RATE):
                satellite.last_seen = time.monotonic()
                if not satellite.too_fast_said:
                    satellite.too_fast_said = True
                    self.send(event_message(device_id, "error", code="audio_too_fast", message=(
                        f"audio/in came faster than {MAX_AUDIO_SPEED:g}x real time; the excess is dropped")))
                return
            satellite.too_fast_said = False
        await satellite.apply(request)

    async def _open(self, device_id: str) -> Satellite:
        session = self.open_session(satellite_config(self.turn_detection), device_id)
        if inspect.isawaitable(session):
            session = await session
        await session.start()
        satellite = Satellite(device_id, session, self.turn_detection)
        satellite.pump = asyncio.create_task(self._pump(satellite), name=f"satellite-{device_id}")
        self.satellites[device_id] = satellite
        log.info("satellite %s: session opened", printable(device_id))
        return satellite

    async def _pump(self, satellite: Satellite) -> None:
        async for event in satellite.session.events():
            if isinstance(event, ev.Interrupted) or (isinstance(event, ev.ResponseDone) and event.status == "cancelled"):
                # a reply stopped (barge-in, a new request) must not reach the device from a broker slow to read
                self._withdraw_audio(lambda device_id: device_id == satellite.device_id, None)
            for message in satellite.observe(event):
                satellite.last_seen = time.monotonic()
                self.send(message)
        if self.satellites.get(satellite.device_id) is satellite:   # the session ended itself (time limit)
            del self.satellites[satellite.device_id]

    async def free(self, device_id: str, *, release: bool = True) -> None:
        satellite = self.satellites.pop(device_id, None)
        if satellite is None:
            return
        if satellite.pump is not None:
            satellite.pump.cancel()
        inbox = self.inboxes.get(device_id)
        if inbox is not None and inbox.worker is not None and inbox.worker.done():   # it died: let go with the device
            del self.inboxes[device_id]
            self.supervisor.revived(worker_name(device_id))
        await self.close_session(satellite.session)
        if self.claims is not None:
            client = self._client
            if client is not None and satellite.direct:
                try:
                    await self._unsubscribe_device(client, device_id)
                except aiomqtt.MqttError:
                    pass
            if release:
                await self.claims.release(device_id)
        log.info("satellite %s: session freed", printable(device_id))

    async def _free_idle(self) -> None:
        """A device that vanished without a last will (or mid-turn) stops holding a session; one that is only
        quiet keeps it while a timer it set has yet to ring or be said."""
        while True:
            await asyncio.sleep(max(self.idle_timeout / 4, 0.05))
            now = time.monotonic()
            for device_id, satellite in list(self.satellites.items()):
                if now - satellite.last_seen > self.idle_timeout and not satellite.session.has_something_to_say:
                    await self.free(device_id)


# ---- the server hook (streaming/server.py) -------------------------------------------------------------

SATELLITES = web.AppKey("mqtt_satellites", SatelliteService)

def add_arguments(parser) -> None:
    MqttSettings.add_arguments(parser)
    parser.add_argument("--mqtt-confirm-timeout", type=float, default=float(os.environ.get("PARLEY_MQTT_CONFIRM_TIMEOUT", 1.5)),
                        help="seconds a home device has to confirm a command before the reply calls it unconfirmed")
    parser.add_argument("--home-inventory", default=os.environ.get("PARLEY_HOME_INVENTORY"), metavar="FILE",
                        help="YAML or JSON list of your devices and their MQTT topics, for homes without Home Assistant")
    parser.add_argument("--mqtt-discovery-prefix", default=os.environ.get("PARLEY_MQTT_DISCOVERY_PREFIX", "homeassistant"),
                        help="Home Assistant MQTT discovery prefix to learn your devices from")
    parser.add_argument("--mqtt-shared", action="store_true", default=bool(os.environ.get("PARLEY_MQTT_SHARED")),
                        help="share the satellites with the other gateways on the same broker and --store "
                             "($share/parley/ subscriptions, MQTT v5; one gateway serves a device at a time)")


def setup(app, ctx) -> None:
    """With --mqtt-host: the assistant's home tools act over MQTT for every session, and satellites are served."""
    from streaming.transports.mqtt.home import MqttHome

    settings = MqttSettings.from_args(ctx.config.options)
    if settings is None:
        return
    options = ctx.config.options
    home = MqttHome(settings, confirm_timeout=getattr(options, "mqtt_confirm_timeout", 1.5),
                    inventory_file=getattr(options, "home_inventory", None),
                    discovery_prefix=getattr(options, "mqtt_discovery_prefix", "homeassistant"),
                    supervisor=ctx.supervisor)
    ctx.home = home
    async def open_session(config: SessionConfig, device_id: str) -> Session:
        """A device keeps one conversation (and its timers) whichever gateway serves it."""
        return await ctx.resume_session(config, transport="mqtt", session_id=f"dev_{device_id}",
                                        principal=f"device:{device_id}")

    shared = getattr(ctx.config.options, "mqtt_shared", False)
    # shared: a gateway that vanished without a TCP close leaves the $share group after 1.5 keepalives
    satellites = SatelliteService(open_session, ctx.end_session,
                                  replace(settings, keepalive=SHARED_KEEPALIVE_S) if shared else settings,
                                  turn_detection=ctx.config.session_defaults().turn_detection,
                                  supervisor=ctx.supervisor,
                                  claims=ctx.gateway.device_claims(DEVICE_CLAIM_TTL_S) if shared else None,
                                  max_devices=ctx.config.max_sessions, metrics=ctx.metrics)
    app[SATELLITES] = satellites
    ctx.drain_hooks.append(satellites.drain)

    async def run(app):
        await home.start()
        await satellites.start()
        yield
        await satellites.close(ctx.goodbye_wait)
        await home.close(ctx.goodbye_wait)

    app.cleanup_ctx.append(run)
