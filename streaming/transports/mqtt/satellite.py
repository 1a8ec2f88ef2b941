"""MQTT voice satellites: a device with a microphone and a speaker uses Parley as its whole voice brain.

Topic contract (README, "MQTT satellites"); <id> is the device id, which is also its MQTT username:
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
"""
from __future__ import annotations

import asyncio
import json
import logging
import os
import time
from dataclasses import dataclass, replace
from typing import Awaitable, Callable

import aiomqtt
from aiohttp import web

from streaming import events as ev
from streaming.transports.mqtt.connection import Backoff, MqttSettings, stay_connected
from streaming.logsafe import printable
from streaming.session import Session, SessionConfig, SessionLimitReached, TurnDetection
from streaming.supervisor import Supervisor

log = logging.getLogger("parley.mqtt_satellite")

PREFIX = "parley"
SERVER_STATUS = f"{PREFIX}/server/status"
SATELLITE_RATE = 16000               # both directions; ESP32-class satellites record and play 16 kHz
MAX_AUDIO_BYTES = 64 * 1024          # 2 s of audio in one message; larger is a broken device
MAX_TEXT_BYTES = 4096
MAX_CONTROL_BYTES = 1024
MAX_BACKLOG = 1000                   # events kept for the devices while the broker is away
CHANNELS = ("audio/in", "control", "text/in", "status")
TASK, IDLE_TASK = "mqtt-satellites", "mqtt-satellites-idle"


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

    def apply(self, request: Request) -> None:
        self.last_seen = time.monotonic()
        session = self.session
        match request:
            case Audio(pcm16=pcm16) if pcm16:
                session.push_audio(pcm16)
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


# ---- the aiomqtt loop --------------------------------------------------------------------------------

class SatelliteService:
    """Serves every satellite on one broker connection; reconnects and resubscribes after broker restarts."""

    def __init__(self, open_session: Callable[[SessionConfig], Session],
                 close_session: Callable[[Session], Awaitable[None]], settings: MqttSettings, *,
                 turn_detection: TurnDetection | None = TurnDetection(), idle_timeout: float = 300.0,
                 backoff: Backoff | None = None, supervisor: Supervisor | None = None):
        self.open_session = open_session    # the server's factory: engines, tools (the MQTT home), metrics
        self.close_session = close_session
        self.turn_detection = turn_detection
        self.settings = settings
        self.idle_timeout = idle_timeout
        self.backoff = backoff
        self.satellites: dict[str, Satellite] = {}
        self.connected = asyncio.Event()
        self._client: aiomqtt.Client | None = None
        self._outbox: asyncio.Queue[Publish] = asyncio.Queue()
        self.supervisor = supervisor or Supervisor()   # the server's, so /healthz sees these loops

    async def start(self) -> None:
        will = aiomqtt.Will(SERVER_STATUS, "offline", qos=1, retain=True)
        self.supervisor.start(TASK, lambda: stay_connected(self.settings, "satellites", self._serve, will=will,
                                                           backoff=self.backoff))
        self.supervisor.start(IDLE_TASK, self._free_idle)

    async def close(self) -> None:
        client = self._client
        if client is not None:   # a clean goodbye: the broker does not send our will then
            try:
                await client.publish(SERVER_STATUS, "offline", qos=1, retain=True)
            except aiomqtt.MqttError:
                pass
        await self.supervisor.stop(TASK)
        await self.supervisor.stop(IDLE_TASK)
        for device_id in list(self.satellites):
            await self.free(device_id)

    async def _serve(self, client: aiomqtt.Client) -> None:
        await client.subscribe(f"{PREFIX}/+/audio/in", qos=0)
        for channel in ("control", "text/in", "status"):
            await client.subscribe(f"{PREFIX}/+/{channel}", qos=1)
        await client.publish(SERVER_STATUS, "online", qos=1, retain=True)
        self._client = client
        self.connected.set()
        publisher = asyncio.create_task(self._publish_outbox(client), name="mqtt-satellites-out")
        try:
            async for message in client.messages:
                try:
                    await self._receive(str(message.topic), bytes(message.payload))
                except Exception:  # noqa: BLE001 - one message must not end every device's service
                    self.supervisor.contain(TASK, f"a message on {message.topic}")
        finally:
            self._client = None
            self.connected.clear()
            publisher.cancel()

    async def _publish_outbox(self, client: aiomqtt.Client) -> None:
        while True:
            message = await self._outbox.get()
            try:
                await client.publish(message.topic, message.payload, qos=message.qos, retain=message.retain)
            except aiomqtt.MqttError:
                return   # the connection is going; _serve's message loop notices and reconnects

    def send(self, message: Publish) -> None:
        """Queue for the broker; while disconnected, audio (QoS 0) is dropped and events wait (up to a limit)."""
        if self._client is not None or (message.qos > 0 and self._outbox.qsize() < MAX_BACKLOG):
            self._outbox.put_nowait(message)

    async def _receive(self, topic: str, payload: bytes) -> None:
        parsed = parse_topic(topic)
        if parsed is None:
            return
        device_id, channel = parsed
        request = decode(channel, payload)
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
        if isinstance(request, Invalid):
            satellite.last_seen = time.monotonic()
            self.send(event_message(device_id, "error", code=request.code, message=request.message))
            return
        satellite.apply(request)

    async def _open(self, device_id: str) -> Satellite:
        session = self.open_session(satellite_config(self.turn_detection))
        await session.start()
        satellite = Satellite(device_id, session, self.turn_detection)
        satellite.pump = asyncio.create_task(self._pump(satellite), name=f"satellite-{device_id}")
        self.satellites[device_id] = satellite
        log.info("satellite %s: session opened", printable(device_id))
        return satellite

    async def _pump(self, satellite: Satellite) -> None:
        async for event in satellite.session.events():
            for message in satellite.observe(event):
                satellite.last_seen = time.monotonic()
                self.send(message)
        if self.satellites.get(satellite.device_id) is satellite:   # the session ended itself (time limit)
            del self.satellites[satellite.device_id]

    async def free(self, device_id: str) -> None:
        satellite = self.satellites.pop(device_id, None)
        if satellite is None:
            return
        if satellite.pump is not None:
            satellite.pump.cancel()
        await self.close_session(satellite.session)
        log.info("satellite %s: session freed", printable(device_id))

    async def _free_idle(self) -> None:
        """A device that vanished without a last will (or mid-turn) stops holding a session; one that is only
        quiet keeps it while a timer it set has yet to ring."""
        while True:
            await asyncio.sleep(max(self.idle_timeout / 4, 0.05))
            now = time.monotonic()
            for device_id, satellite in list(self.satellites.items()):
                if now - satellite.last_seen > self.idle_timeout and not satellite.session.timers_running:
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
    satellites = SatelliteService(lambda config: ctx.new_session(config, transport="mqtt"), ctx.end_session, settings,
                                  turn_detection=ctx.config.session_defaults().turn_detection,
                                  supervisor=ctx.supervisor)
    app[SATELLITES] = satellites

    async def run(app):
        await home.start()
        await satellites.start()
        yield
        await satellites.close()
        await home.close()

    app.cleanup_ctx.append(run)
