"""The OpenAI Realtime protocol (GA event names) as a pure state machine: no sockets, no session.

    protocol = RealtimeProtocol(session_id=..., model=..., defaults=SessionConfig())
    protocol.receive(text)      -> list of commands for the Session (Configure, AppendAudio, ...)
    protocol.receiving(text)    -> the same in steps: None between slices of a large message, then the commands
    parsing(text)               -> json.loads in the same steps (a large message's long strings found in slices)
    protocol.handle(event)      -> turns a Session event into server events
    protocol.data_to_send()     -> JSON text frames to write, in order

Every client mistake (bad JSON, unknown type, bad base64, wrong format, oversized message) becomes an
`error` event; nothing here raises on client input. A client that speaks the beta names (OpenAI-Beta:
realtime=v1, or beta session fields) gets the beta server event names.

Parley runs its own tools (lights, thermostat, ...) inside the response; those calls are shown as
conversation items (function_call + function_call_output) but never as response output, so SDK
clients do not try to execute them. Tools the client declares in session.update come back as
response.function_call_arguments.done for the client to run.

Over WebRTC (`media_rate` set) the audio rides the call's media tracks, as with OpenAI: no audio deltas on the
event channel and no input_audio_buffer.append; output_audio_buffer.started/stopped/cleared say what the
track plays instead, and both directions stay at the track's rate whatever format session.update names. A
GPT-Live call (`live`) opens with session.started.
"""
from __future__ import annotations

import base64
import binascii
import json
import logging
import re
from dataclasses import dataclass, field, replace
from collections.abc import Callable, Generator, Iterator

from assistant.generator import MAX_ID_CHARS
from assistant.tool_declarations import DeclarationError, check_count, check_declarations
from streaming.client_json import json_values
from streaming.client_text import holds_lone_surrogate
from streaming.events import (AudioCleared, AudioCommitted, AudioDelta, AudioDone, EndCall, Error, Interrupted,
                              ItemAdded, ItemDeleted, ItemTruncated, ResponseCreated, ResponseDone, SessionEvent,
                              SpeechStarted, SpeechStopped, TextDelta, TextDone, ToolCallExecuted,
                              ToolCallRequested, TranscriptCompleted, TranscriptDelta)
from streaming.session import SessionConfig, new_id
from streaming.turns import SEMANTIC_WAITS, TurnDetection
from voice.audio import alaw_decode, alaw_encode, float_to_pcm16, mulaw_decode, mulaw_encode, pcm16_to_float

log = logging.getLogger("parley.realtime")

PCM_RATES = (8000, 16000, 24000, 48000)   # the GA API allows 24000 only; other rates help devices
G711_RATE = 8000
VOICE = "joe"                             # the embedded Piper voice; any requested voice name maps to it
TRANSCRIPTION_MODEL = "whisper-tiny.en"
MAX_TEXT_CHARS = 16_000                   # one item's text, instructions: far beyond any spoken turn
MAX_METADATA_KEYS, MAX_METADATA_KEY, MAX_METADATA_VALUE = 16, 64, 512   # OpenAI's limits on metadata
MAX_PENDING_RESPONSES = 16                # response.create requests whose response has not started yet
# Commas and brackets a message may hold: each JSON value past a container's first follows a comma, so this bounds
# the values its parse builds on the event loop (the C parser keeps the interpreter's lock: no thread would help).
# A 4 MiB message of `[],` held the loop 0.3 s; at this bound 14 ms. An audio append's bulk is one base64 string; a
# declaration within assistant.tool_declarations' bounds with 16,000 characters of instructions, all commas, 80,000.
MAX_MESSAGE_VALUES = 100_000
# A large message is counted and an append's audio decoded this many characters at a time, the caller free to let
# other sessions run between the slices (`receiving`): base64 decoding keeps the interpreter's lock, so a worker
# thread would not free the loop. A slice holds 48 KiB of audio (1 s at 24 kHz); a multiple of 4, so each slice but
# the last is whole base64 quanta.
SLICE_CHARS = 64 * 1024
# A message longer than one slice is parsed in steps (`parsing`): its strings are found SLICE_CHARS at a time, and
# each one of at least CUT_CHARS without escapes (an append's audio) is copied out and parsed as a placeholder, so the
# one C call that holds the loop parses only the rest. At load 7 the JSON parse of a 3.8 MB append took 5.6 ms, of a
# 64 KiB one 0.04 ms. A message of more than MAX_SLICED_STRINGS strings (keys count) is parsed whole, and strings with
# escapes stay in the rest: what is left on the loop there is what was before (many values: MAX_MESSAGE_VALUES).
CUT_CHARS = 256
MAX_SLICED_STRINGS = 256
VALUE_AFTER = ':[, \t\n\r'                # what a JSON value may follow, where a cut string may stand
PLACEHOLDER = "NaN"                       # a JSON constant: the parser hands it to parse_constant, in text order
# A string's characters up to its end, escapes skipped: where a string with escapes ends.
ESCAPED_RUN = re.compile(r'[^"\\]*(?:\\.[^"\\]*)*', re.DOTALL)

# GA name -> beta name, for clients that speak the beta protocol
BETA_NAMES = {
    "conversation.item.added": "conversation.item.created",
    "response.output_audio.delta": "response.audio.delta",
    "response.output_audio.done": "response.audio.done",
    "response.output_audio_transcript.delta": "response.audio_transcript.delta",
    "response.output_audio_transcript.done": "response.audio_transcript.done",
    "response.output_text.delta": "response.text.delta",
    "response.output_text.done": "response.text.done",
}
# GA name -> GPT-Live name, for calls made through /v1/live/sessions
LIVE_NAMES = {"session.created": "session.started"}
BETA_FORMATS = {"pcm16": {"type": "audio/pcm", "rate": 24000}, "g711_ulaw": {"type": "audio/pcmu"},
                "g711_alaw": {"type": "audio/pcma"}}


# ---- commands for the Session (applied by the I/O layer, see `apply`) ------------------------------

@dataclass(frozen=True, kw_only=True)
class _Command:
    event_id: str | None = None      # the client event it came from: errors it causes echo this id


@dataclass(frozen=True)
class Configure(_Command):
    config: SessionConfig


@dataclass(frozen=True)
class AppendAudio(_Command):
    pcm16: bytes = field(repr=False)


@dataclass(frozen=True)
class CommitAudio(_Command):
    pass


@dataclass(frozen=True)
class ClearAudio(_Command):
    pass


@dataclass(frozen=True)
class AddMessage(_Command):
    item_id: str
    role: str
    text: str
    previous_item_id: str | None = None     # None: append; "root": first; an id: after that item


@dataclass(frozen=True)
class AddFunctionOutput(_Command):
    item_id: str
    call_id: str
    output: str
    previous_item_id: str | None = None


@dataclass(frozen=True)
class AddFunctionCall(_Command):
    item_id: str
    call_id: str
    name: str
    arguments: str
    previous_item_id: str | None = None


@dataclass(frozen=True)
class DeleteItem(_Command):
    item_id: str


@dataclass(frozen=True)
class Truncate(_Command):
    item_id: str
    audio_end_ms: int


@dataclass(frozen=True)
class CreateResponse(_Command):
    response_id: str
    instructions: str | None
    audio: bool | None


@dataclass(frozen=True)
class CancelResponse(_Command):
    pass


Command = (Configure | AppendAudio | CommitAudio | ClearAudio | AddMessage | AddFunctionCall | AddFunctionOutput
           | DeleteItem | Truncate | CreateResponse | CancelResponse)


def apply(session, command: Command) -> None:
    """Carry out one command on a streaming.session.Session; errors it causes name its client event. An append's
    audio goes in whole here; RealtimeLink takes it in slices instead (Session.take_audio)."""
    with session.caused_by(command.event_id):
        _apply(session, command)


def _apply(session, command: Command) -> None:
    match command:
        case Configure(config):
            session.update(config)
        case AppendAudio(pcm16):
            session.push_audio(pcm16)
        case CommitAudio():
            session.commit_audio()
        case ClearAudio():
            session.clear_audio()
        case AddMessage(item_id, role, text, previous_item_id):
            session.add_message(role, text, item_id, previous_item_id=previous_item_id)
        case AddFunctionCall(item_id, call_id, name, arguments, previous_item_id):
            session.add_function_call(call_id, name, arguments, item_id, previous_item_id=previous_item_id)
        case AddFunctionOutput(item_id, call_id, output, previous_item_id):
            session.add_function_output(call_id, output, item_id, previous_item_id=previous_item_id)
        case DeleteItem(item_id):
            session.delete_item(item_id)
        case Truncate(item_id, audio_end_ms):
            session.truncate(item_id, audio_end_ms)
        case CreateResponse(response_id, instructions, audio):
            session.create_response(instructions, audio, response_id=response_id)
        case CancelResponse():
            session.cancel_response()


class ClientError(Exception):
    """A client event the protocol rejects; becomes an `error` server event."""

    def __init__(self, code: str, message: str, param: str | None = None):
        super().__init__(message)
        self.code, self.message, self.param = code, message, param


@dataclass
class _Output:
    """What the protocol tracks of one response, to build output items and response.done."""
    id: str
    audio: bool
    metadata: dict
    items: list[dict] = field(default_factory=list)
    message: dict | None = None
    playing: bool = False       # over WebRTC: output_audio_buffer.started was sent


class RealtimeProtocol:
    def __init__(self, *, session_id: str, model: str, defaults: SessionConfig,
                 max_message_bytes: int = 4 * 1024 * 1024, beta: bool = False,
                 on_client_error: Callable[[str], None] | None = None, media_rate: int | None = None,
                 live: bool = False):
        self.session_id = session_id
        self.media_rate = media_rate            # set: audio rides a WebRTC track at this rate (see module doc)
        self.live = live                        # a GPT-Live call: its names (LIVE_NAMES)
        self.model = model
        self.config = replace(defaults)
        self.max_message_bytes = max_message_bytes
        self.beta = beta
        self.on_client_error = on_client_error     # told the code of every rejected client event (metrics)
        self.input_format: dict = self._format_for(defaults.input_rate)
        self.output_format: dict = self._format_for(defaults.output_rate)
        self.tools: list[dict] = []
        self.tool_choice: str = "auto"
        self.items: dict[str, dict] = {}           # conversation items, for retrieve
        self._outbox: list[str] = []               # serialised when sent: items change after their events
        self._responses: dict[str, _Output] = {}
        self._active: str | None = None
        self._requested: dict[str, tuple[dict, bool | None]] = {}   # response.create: id -> (metadata, audio)
        self._handlers = {     # client event type -> handler(event) -> commands
            "session.update": self._session_update,
            "input_audio_buffer.append": self._append,
            "input_audio_buffer.commit": lambda e: [CommitAudio()],
            "input_audio_buffer.clear": lambda e: [ClearAudio()],
            "conversation.item.create": self._item_create,
            "conversation.item.delete": lambda e: [DeleteItem(_string(e, "item_id"))],
            "conversation.item.retrieve": self._item_retrieve,
            "conversation.item.truncate": self._truncate,
            "response.create": self._response_create,
            "response.cancel": lambda e: [CancelResponse()],
            "output_audio_buffer.clear": self._output_clear,
        }

    # ---- public API ------------------------------------------------------------------------------

    def start(self) -> None:
        self._send("session.created", session=self.session_object())

    def restore(self, items: list[dict]) -> None:
        """A resumed session's history (Session.history()): its items can be retrieved, and new items follow them."""
        for item in items:
            text = item["arguments"] if item["type"] == "function_call" else item["text"]
            self.items[item["id"]] = _item_object(item["id"], item["type"], item["role"], text or "", item["call_id"],
                                                  item["name"])

    def data_to_send(self) -> list[str]:
        frames, self._outbox = self._outbox, []
        return frames

    def receive(self, text: str | bytes) -> list[Command]:
        """One client frame -> commands; any problem becomes an error event instead."""
        *_, commands = self.receiving(text)
        return commands

    def receiving(self, text: str | bytes) -> Iterator[list[Command] | None]:
        """`receive` in steps: None after each SLICE_CHARS of counting a large message, of finding its strings
        (`parsing`) or of decoding an append's audio (where the caller may let other sessions run), then, last, the
        commands."""
        event_id = None
        try:
            if len(text) > self.max_message_bytes:
                raise ClientError("message_too_large", f"messages may be at most {self.max_message_bytes} bytes, "
                                  f"this one has {len(text)}")
            if isinstance(text, bytes):
                raise ClientError("invalid_event", "send JSON text frames, not binary frames")
            if len(text) > MAX_MESSAGE_VALUES:
                values = 0
                for start in range(0, len(text), SLICE_CHARS):
                    if start:
                        yield None
                    values += json_values(text, start, start + SLICE_CHARS)
                if values > MAX_MESSAGE_VALUES:
                    raise ClientError("message_too_large", f"messages may hold at most {MAX_MESSAGE_VALUES} commas "
                                      f"and brackets (JSON values), this one has {values}")
            try:
                event, rest = yield from parsing(text)
            except RecursionError:
                raise ClientError("invalid_json", "the message nests too deeply") from None
            except ValueError as exc:             # also a number past Python's 4,300-digit limit
                raise ClientError("invalid_json", f"the message is not valid JSON: {exc}") from None
            if not isinstance(event, dict):
                raise ClientError("invalid_event", "each message must be a JSON object with a 'type'")
            if "\\u" in rest and holds_lone_surrogate(event):
                raise ClientError("invalid_text", "the event holds a lone UTF-16 surrogate (an unpaired "
                                  "\\ud800-\\udfff escape), which is not text")
            event_id = event.get("event_id") if isinstance(event.get("event_id"), str) else None
            kind = event.get("type")
            if not isinstance(kind, str):
                raise ClientError("missing_type", "the event has no 'type'", "type")
            handler = self._handlers.get(kind)
            if handler is None:
                raise ClientError("unknown_event", f"unsupported event type {kind!r}", "type")
            commands = handler(event)
            if isinstance(commands, Generator):           # an append, decoded in slices
                commands = yield from commands
            yield [replace(command, event_id=event_id) for command in commands] if event_id else commands
        except ClientError as err:
            self._error(err.code, err.message, err.param, event_id)
            if self.on_client_error:
                self.on_client_error(err.code)
            yield []
        except Exception:  # noqa: BLE001 - a bug must cost this event, not the connection
            log.exception("realtime: could not process a client event")
            self._error("server_error", "the server could not process this event", None, event_id)
            yield []

    def handle(self, event: SessionEvent) -> None:
        """Translate one Session event into server events."""
        match event:
            case SpeechStarted(audio_start_ms, item_id):
                self._send("input_audio_buffer.speech_started", audio_start_ms=audio_start_ms, item_id=item_id)
            case SpeechStopped(audio_end_ms, item_id):
                self._send("input_audio_buffer.speech_stopped", audio_end_ms=audio_end_ms, item_id=item_id)
            case AudioCommitted(item_id, previous_item_id):
                self._send("input_audio_buffer.committed", previous_item_id=previous_item_id, item_id=item_id)
                item = {"id": item_id, "object": "realtime.item", "type": "message", "status": "completed",
                        "role": "user", "content": [{"type": "input_audio", "transcript": None}]}
                self.items[item_id] = item
                self._send("conversation.item.added", previous_item_id=previous_item_id, item=item)
            case AudioCleared():
                self._send("input_audio_buffer.cleared")
            case ItemAdded():
                self._item_added(event)
            case ItemDeleted(item_id):
                self.items.pop(item_id, None)
                self._send("conversation.item.deleted", item_id=item_id)
            case ItemTruncated(item_id, audio_end_ms, text):
                item = self.items.get(item_id)
                if item and item.get("content"):
                    item["content"][0]["transcript"] = text
                self._send("conversation.item.truncated", item_id=item_id, content_index=0, audio_end_ms=audio_end_ms)
            case TranscriptDelta(item_id, delta):
                self._send("conversation.item.input_audio_transcription.delta", item_id=item_id, content_index=0,
                           delta=delta)
            case TranscriptCompleted(item_id, transcript):
                item = self.items.get(item_id)
                if item:
                    item["content"][0]["transcript"] = transcript
                self._send("conversation.item.input_audio_transcription.completed", item_id=item_id,
                           content_index=0, transcript=transcript)
                if item:
                    self._send("conversation.item.done", item=item)
            case ResponseCreated(response_id):
                self._response_created(response_id)
            case ToolCallRequested():
                self._tool_requested(event)
            case ToolCallExecuted():
                self._tool_executed(event)
            case TextDelta(response_id, item_id, delta):
                out = self._message(response_id, item_id)
                if out.audio:
                    self._send("response.output_audio_transcript.delta", **self._where(out, item_id), delta=delta)
                else:
                    self._send("response.output_text.delta", **self._where(out, item_id), delta=delta)
            case AudioDelta(response_id, item_id, pcm16):
                out = self._message(response_id, item_id)
                if self.media_rate is not None:
                    if not out.playing:
                        out.playing = True
                        self._send("output_audio_buffer.started", response_id=response_id)
                    return
                self._send("response.output_audio.delta", **self._where(out, item_id),
                           delta=base64.b64encode(self._encode_output(pcm16)).decode())
            case AudioDone(response_id, item_id):
                out = self._responses.get(response_id)
                if out and out.message:
                    self._send("response.output_audio.done", **self._where(out, item_id))
                    if out.playing:
                        out.playing = False
                        self._send("output_audio_buffer.stopped", response_id=response_id)
            case TextDone(response_id, item_id, text):
                out = self._responses.get(response_id)
                if out and out.message:
                    if out.audio:
                        self._send("response.output_audio_transcript.done", **self._where(out, item_id), transcript=text)
                    else:
                        self._send("response.output_text.done", **self._where(out, item_id), text=text)
            case ResponseDone():
                self._response_done(event)
            case Interrupted(response_id):
                # speech_started already tells a WebSocket client to stop playback; over WebRTC the server did
                out = self._responses.get(response_id)
                if out and out.playing:
                    out.playing = False
                    self._send("output_audio_buffer.cleared", response_id=response_id)
            case Error(code, message, param, event_id):
                self._error(code, message, param, event_id)
            case EndCall():
                pass   # the I/O layer closes the socket

    def session_object(self) -> dict:
        td = self.config.turn_detection
        if td is None:
            turn_detection = None
        elif td.type == "semantic_vad":
            turn_detection = {"type": td.type, "eagerness": td.eagerness, "create_response": td.create_response,
                              "interrupt_response": td.interrupt_response}
        else:
            turn_detection = {"type": td.type, "threshold": td.threshold, "prefix_padding_ms": td.prefix_padding_ms,
                              "silence_duration_ms": td.silence_duration_ms, "create_response": td.create_response,
                              "interrupt_response": td.interrupt_response, "idle_timeout_ms": None}
        if self.beta:
            return {"id": self.session_id, "object": "realtime.session", "model": self.model,
                    "modalities": ["audio", "text"] if self.config.audio_output else ["text"],
                    "instructions": self.config.instructions or "", "voice": VOICE,
                    "input_audio_format": self._beta_format(self.input_format),
                    "output_audio_format": self._beta_format(self.output_format),
                    "input_audio_transcription": {"model": TRANSCRIPTION_MODEL},
                    "turn_detection": turn_detection, "tools": self.tools, "tool_choice": self.tool_choice}
        return {"type": "realtime", "object": "realtime.session", "id": self.session_id, "model": self.model,
                "output_modalities": ["audio"] if self.config.audio_output else ["text"],
                "instructions": self.config.instructions or "",
                "tools": self.tools, "tool_choice": self.tool_choice, "max_output_tokens": "inf",
                "audio": {"input": {"format": self.input_format,
                                    "transcription": {"model": TRANSCRIPTION_MODEL, "language": "en"},
                                    "noise_reduction": None, "turn_detection": turn_detection},
                          "output": {"format": self.output_format, "voice": VOICE, "speed": 1.0}}}

    # ---- client events ---------------------------------------------------------------------------

    def _session_update(self, event: dict) -> list[Command]:
        session = event.get("session")
        if not isinstance(session, dict):
            raise ClientError("invalid_value", "session.update needs a 'session' object", "session")
        if any(key in session for key in ("modalities", "input_audio_format", "output_audio_format",
                                          "input_audio_transcription")) or "turn_detection" in session:
            self.beta = True
            session = _beta_to_ga(session)
        config = replace(self.config)
        input_format, output_format = self.input_format, self.output_format
        if "instructions" in session:
            config.instructions = _text(session["instructions"], "session.instructions")
        if "output_modalities" in session:
            modalities = session["output_modalities"]
            if modalities not in (["audio"], ["text"], ["audio", "text"], ["text", "audio"]):
                raise ClientError("invalid_value", "output_modalities must be ['audio'] or ['text']",
                                  "session.output_modalities")
            config.audio_output = "audio" in modalities
        tools = self.tools
        if "tools" in session:
            tools = _tools(session["tools"])
            config.client_tools = {tool["name"]: tool for tool in tools}
        tool_choice = _tool_choice(session["tool_choice"], tools) if "tool_choice" in session else self.tool_choice
        audio = session.get("audio", {})
        if not isinstance(audio, dict):
            raise ClientError("invalid_value", "session.audio must be an object", "session.audio")
        audio_in, audio_out = audio.get("input", {}), audio.get("output", {})
        if not isinstance(audio_in, dict) or not isinstance(audio_out, dict):
            raise ClientError("invalid_value", "session.audio.input/output must be objects", "session.audio")
        if "format" in audio_in:
            input_format = _format(audio_in["format"], "session.audio.input.format")
            config.input_rate = self.media_rate or input_format.get("rate", G711_RATE)
        if "turn_detection" in audio_in:
            config.turn_detection = _turn_detection(audio_in["turn_detection"], config.turn_detection)
        if "format" in audio_out:
            output_format = _format(audio_out["format"], "session.audio.output.format")
            config.output_rate = self.media_rate or output_format.get("rate", G711_RATE)
        # everything validated: apply
        self.config, self.input_format, self.output_format = config, input_format, output_format
        self.tools, self.tool_choice = tools, tool_choice
        self._send("session.updated", session=self.session_object())
        return [Configure(replace(config))]

    def _append(self, event: dict) -> Generator[None, None, list[Command]]:
        """The audio decoded SLICE_CHARS of base64 at a time (None between slices); nothing is appended unless all of
        it is valid."""
        if self.media_rate is not None:
            raise ClientError("invalid_event", "over WebRTC the microphone's audio rides the call's audio track; "
                              "input_audio_buffer.append is for WebSocket clients", "type")
        audio = event.get("audio")
        if not isinstance(audio, str):
            raise ClientError("invalid_value", "input_audio_buffer.append needs 'audio' as a base64 string", "audio")
        kind = self.input_format["type"]            # the format when the append came, whatever comes meanwhile
        decode = {"audio/pcmu": mulaw_decode, "audio/pcma": alaw_decode}.get(kind)
        slices = []
        for start in range(0, len(audio), SLICE_CHARS):
            if start:
                yield None
            piece = audio[start:start + SLICE_CHARS]
            try:
                if "=" in piece and start + SLICE_CHARS < len(audio):   # padding before the end
                    raise ValueError
                data = base64.b64decode(piece, validate=True)
            except (binascii.Error, ValueError):
                raise ClientError("invalid_base64", "'audio' is not valid base64", "audio") from None
            slices.append(data if decode is None else float_to_pcm16(decode(data)))
        data = b"".join(slices)
        if decode is None and len(data) % 2:
            raise ClientError("invalid_audio", "audio/pcm is 16-bit: the byte count must be even", "audio")
        return [AppendAudio(data)] if data else []

    def _item_create(self, event: dict) -> list[Command]:
        item = event.get("item")
        if not isinstance(item, dict):
            raise ClientError("invalid_value", "conversation.item.create needs an 'item' object", "item")
        item_id = item.get("id") or new_id("item")
        if not isinstance(item_id, str):           # a duplicate id: the session says so (it may be being deleted)
            raise ClientError("invalid_value", f"item id {item_id!r} is not a string", "item.id")
        _short(item_id, "item.id")
        previous = _optional_string(event.get("previous_item_id"), "previous_item_id")
        kind = item.get("type", "message")
        if kind == "function_call_output":
            call_id, output = item.get("call_id"), item.get("output")
            if not isinstance(call_id, str) or not isinstance(output, str):
                raise ClientError("invalid_value", "function_call_output needs string 'call_id' and 'output'", "item")
            return [AddFunctionOutput(item_id, _short(call_id, "item.call_id"), _text(output, "item.output"), previous)]
        if kind == "function_call":         # a client replaying its history (LiveKit after a reconnect)
            call_id, name, arguments = item.get("call_id"), item.get("name"), item.get("arguments", "")
            if not all(isinstance(value, str) for value in (call_id, name, arguments)) or not call_id or not name:
                raise ClientError("invalid_value", "function_call needs string 'call_id', 'name' and 'arguments'",
                                  "item")
            return [AddFunctionCall(item_id, _short(call_id, "item.call_id"), _short(name, "item.name"),
                                    _text(arguments, "item.arguments"), previous)]
        if kind != "message":
            raise ClientError("invalid_value", f"item type {kind!r} is not supported; use 'message', "
                              "'function_call' or 'function_call_output'", "item.type")
        role = item.get("role")
        if role == "developer":             # the Responses API name for a system message
            role = "system"
        if role not in ("user", "system", "assistant"):
            raise ClientError("invalid_value", "message role must be user, system or assistant", "item.role")
        content = item.get("content")
        if not isinstance(content, list) or not content:
            raise ClientError("invalid_value", "message content must be a non-empty list", "item.content")
        texts = []
        for part in content:
            if not isinstance(part, dict):
                raise ClientError("invalid_value", "each content part must be an object", "item.content")
            if part.get("type") in ("input_text", "text", "output_text") and isinstance(part.get("text"), str):
                texts.append(part["text"])
            else:
                raise ClientError("invalid_value", f"content part type {part.get('type')!r} is not supported; "
                                  "send text, or stream audio with input_audio_buffer.append", "item.content")
        return [AddMessage(item_id, role, _text(" ".join(texts), "item.content"), previous)]

    def _item_retrieve(self, event: dict) -> list[Command]:
        item_id = _string(event, "item_id")
        if item_id not in self.items:
            raise ClientError("item_not_found", f"no conversation item with id {item_id!r}", "item_id")
        self._send("conversation.item.retrieved", item=self.items[item_id])
        return []

    def _truncate(self, event: dict) -> list[Command]:
        audio_end_ms = event.get("audio_end_ms")
        if not isinstance(audio_end_ms, int) or isinstance(audio_end_ms, bool) or audio_end_ms < 0:
            raise ClientError("invalid_value", "audio_end_ms must be a non-negative integer", "audio_end_ms")
        return [Truncate(_string(event, "item_id"), audio_end_ms)]

    def _response_create(self, event: dict) -> list[Command]:
        response = event.get("response") or {}
        if not isinstance(response, dict):
            raise ClientError("invalid_value", "'response' must be an object", "response")
        instructions = _text(response.get("instructions"), "response.instructions")
        modalities = response.get("output_modalities", response.get("modalities"))
        if modalities is not None and (not isinstance(modalities, list) or not modalities
                                       or not set(map(str, modalities)) <= {"audio", "text"}):
            raise ClientError("invalid_value", "output_modalities must be ['audio'] or ['text']",
                              "response.output_modalities")
        audio = None if modalities is None else "audio" in modalities
        metadata = _metadata(response.get("metadata"))
        response_id = new_id("resp")
        self._requested[response_id] = (metadata, audio)
        while len(self._requested) > MAX_PENDING_RESPONSES:    # requests the session refused never start
            del self._requested[next(iter(self._requested))]
        return [CreateResponse(response_id, instructions, audio)]

    def _output_clear(self, event: dict) -> list[Command]:
        if self._active is None:
            return []       # nothing is playing: nothing to clear (the event needs a response_id)
        self._responses[self._active].playing = False
        self._send("output_audio_buffer.cleared", response_id=self._active)
        return [CancelResponse()]

    # ---- server events ---------------------------------------------------------------------------

    def _send(self, kind: str, **fields) -> None:
        if self.beta:
            kind = BETA_NAMES.get(kind, kind)
        elif self.live:
            kind = LIVE_NAMES.get(kind, kind)
        self._outbox.append(json.dumps({"type": kind, "event_id": new_id("event"), **fields}, separators=(",", ":")))

    def _error(self, code: str, message: str, param: str | None = None, event_id: str | None = None) -> None:
        self._send("error", error={"type": "invalid_request_error" if code != "server_error" else "server_error",
                                   "code": code, "message": message, "param": param, "event_id": event_id})

    def _item_added(self, event: ItemAdded) -> None:
        item = _item_object(event.item_id, event.type, event.role, event.text, event.call_id, event.name)
        if event.previous_item_id == next(reversed(self.items), None):
            self.items[event.item_id] = item
        else:                                   # inserted before the end: keep the session's order
            ordered = list(self.items.items())
            at = next((n + 1 for n, (key, _) in enumerate(ordered) if key == event.previous_item_id), 0)
            self.items = dict(ordered[:at] + [(event.item_id, item)] + ordered[at:])
        self._send("conversation.item.added", previous_item_id=event.previous_item_id, item=item)
        self._send("conversation.item.done", item=item)

    def _response_created(self, response_id: str) -> None:
        metadata, audio = self._requested.pop(response_id, ({}, None))
        audio = self.config.audio_output if audio is None else audio
        out = self._responses[response_id] = _Output(response_id, audio, metadata)
        self._active = response_id
        self._send("response.created", response=self._response_object(out, "in_progress"))

    def _response_object(self, out: _Output, status: str, details: dict | None = None) -> dict:
        return {"id": out.id, "object": "realtime.response", "status": status, "status_details": details,
                "output": out.items, "conversation_id": "conv_" + self.session_id,
                "output_modalities": ["audio"] if out.audio else ["text"],
                "audio": {"output": {"format": self.output_format, "voice": VOICE}},
                "max_output_tokens": "inf", "usage": None, "metadata": out.metadata or None}

    @staticmethod
    def _where(out: _Output, item_id: str) -> dict:
        index = next((i for i, item in enumerate(out.items) if item["id"] == item_id), 0)
        return {"response_id": out.id, "item_id": item_id, "output_index": index, "content_index": 0}

    def _message(self, response_id: str, item_id: str) -> _Output:
        """The response's assistant message; announced on its first text or audio."""
        out = self._responses[response_id]
        if out.message is None:
            # the item's content is typed output_audio/output_text; content_part events say audio/text
            part = {"type": "audio", "transcript": ""} if out.audio else {"type": "text", "text": ""}
            out.message = {"id": item_id, "object": "realtime.item", "type": "message", "status": "in_progress",
                           "role": "assistant", "content": []}
            out.items.append(out.message)
            previous = next(reversed(self.items), None)
            self.items[item_id] = out.message
            self._send("response.output_item.added", response_id=response_id, output_index=len(out.items) - 1,
                       item=out.message)
            self._send("conversation.item.added", previous_item_id=previous, item=out.message)
            self._send("response.content_part.added", **self._where(out, item_id), part=part)
            out.message["content"].append({**part, "type": "output_" + part["type"]})
        return out

    def _tool_requested(self, event: ToolCallRequested) -> None:
        out = self._responses[event.response_id]
        item = {"id": event.item_id, "object": "realtime.item", "type": "function_call", "status": "in_progress",
                "call_id": event.call_id, "name": event.name, "arguments": ""}
        out.items.append(item)
        self.items[event.item_id] = item
        where = self._where(out, event.item_id)
        where.pop("content_index")
        self._send("response.output_item.added", response_id=out.id, output_index=where["output_index"], item=item)
        self._send("conversation.item.added", previous_item_id=event.previous_item_id, item=item)
        self._send("response.function_call_arguments.delta", **where, call_id=event.call_id, delta=event.arguments_json)
        item.update(arguments=event.arguments_json, status="completed")
        self._send("response.function_call_arguments.done", **where, call_id=event.call_id, name=event.name,
                   arguments=event.arguments_json)
        self._send("response.output_item.done", response_id=out.id, output_index=where["output_index"], item=item)
        self._send("conversation.item.done", item=item)

    def _tool_executed(self, event: ToolCallExecuted) -> None:
        call = _item_object(event.item_id, "function_call", None, json.dumps(event.arguments), event.call_id,
                            event.name)
        result = _item_object(event.output_item_id, "function_call_output", None, event.result or "",
                              event.call_id, None)
        for previous, item in ((event.previous_item_id, call), (event.item_id, result)):
            self.items[item["id"]] = item
            self._send("conversation.item.added", previous_item_id=previous, item=item)
            self._send("conversation.item.done", item=item)

    def _response_done(self, event: ResponseDone) -> None:
        out = self._responses.pop(event.response_id, None)
        if out is None:
            return
        if self._active == event.response_id:
            self._active = None
        if out.message is not None:
            out.message["status"] = "completed" if event.status == "completed" else "incomplete"
            text = event.output_text
            out.message["content"][0]["transcript" if out.audio else "text"] = text
            where = self._where(out, out.message["id"])
            part = {"type": "audio", "transcript": text} if out.audio else {"type": "text", "text": text}
            self._send("response.content_part.done", **where, part=part)
            self._send("response.output_item.done", response_id=out.id, output_index=where["output_index"],
                       item=out.message)
            self._send("conversation.item.done", item=out.message)
        details = None
        if event.status == "cancelled":
            details = {"type": "cancelled", "reason": event.reason}
        elif event.status == "failed":
            details = {"type": "failed", "error": {"type": "server_error", "code": "response_failed",
                                                  "message": event.reason}}
        metadata = {**out.metadata, **{f"{stage}_ms": f"{ms:.1f}" for stage, ms in event.timing.items()}}
        if event.generator is not None:
            metadata["generator"] = event.generator
        if event.fallback is not None:
            metadata["generator_fallback"] = event.fallback[:512]   # metadata values are strings of <= 512
        out.metadata = metadata
        done = self._response_object(out, event.status, details)
        done["usage"] = usage(event.input_tokens, event.output_tokens)   # clients (Pipecat) read it unguarded
        self._send("response.done", response=done)

    # ---- audio formats ---------------------------------------------------------------------------

    def _encode_output(self, pcm16: bytes) -> bytes:
        kind = self.output_format["type"]
        if kind == "audio/pcm":
            return pcm16
        samples = pcm16_to_float(pcm16)
        return mulaw_encode(samples) if kind == "audio/pcmu" else alaw_encode(samples)

    @staticmethod
    def _format_for(rate: int) -> dict:
        return {"type": "audio/pcm", "rate": rate}

    @staticmethod
    def _beta_format(fmt: dict) -> str:
        return {"audio/pcm": "pcm16", "audio/pcmu": "g711_ulaw", "audio/pcma": "g711_alaw"}[fmt["type"]]


def _item_object(item_id: str, kind: str, role: str | None, text: str, call_id: str | None,
                 name: str | None) -> dict:
    """A completed conversation item in the GA shape; text is a function call's arguments or its output."""
    if kind == "function_call_output":
        return {"id": item_id, "object": "realtime.item", "type": kind, "status": "completed", "call_id": call_id,
                "output": text}
    if kind == "function_call":
        return {"id": item_id, "object": "realtime.item", "type": kind, "status": "completed", "call_id": call_id,
                "name": name, "arguments": text}
    part = "output_text" if role == "assistant" else "input_text"
    return {"id": item_id, "object": "realtime.item", "type": "message", "status": "completed", "role": role,
            "content": [{"type": part, "text": text}]}


def usage(input_tokens: int, output_tokens: int) -> dict:
    """response.usage in OpenAI's shape: the generator's tokens are all text; nothing is cached."""
    return {"total_tokens": input_tokens + output_tokens, "input_tokens": input_tokens,
            "output_tokens": output_tokens,
            "input_token_details": {"cached_tokens": 0, "text_tokens": input_tokens, "audio_tokens": 0},
            "output_token_details": {"text_tokens": output_tokens, "audio_tokens": 0}}


# ---- parsing a client message ---------------------------------------------------------------------

class _Unplaced(Exception):
    """The rest's placeholders did not line up with the strings cut out: the message is parsed whole instead."""


def parsing(text: str) -> Generator[None, None, tuple[object, str]]:
    """json.loads(text) in steps, with its result or its error: None after each SLICE_CHARS of finding the strings of
    a message longer than SLICE_CHARS (where the caller may let other sessions run), then the value and the text that
    was parsed in one call (the message less its cut strings, which hold no escapes). Strings of CUT_CHARS or more
    without escapes, each where a value may follow (after `:`, `[`, `,` or white space), are cut; the rest is parsed
    with a PLACEHOLDER for each, and an error in the rest is the message's error at the same place. What would not
    line up (a cut string as a key, a PLACEHOLDER of the client's) is parsed whole, as is a message of too many
    strings: the C parser keeps the interpreter's lock, so a worker thread would hold the loop as long."""
    if len(text) <= SLICE_CHARS or text.startswith("\ufeff"):    # json.loads' own error for a byte order mark
        return json.loads(text), text
    cuts = yield from _long_strings(text)
    if not cuts:                                  # none, or the message is not one to cut
        return json.loads(text), text
    pieces, starts, length, last = [], [], 0, 0      # starts: where each placeholder stands in the rest
    for start, end in cuts:
        pieces += (text[last:start], PLACEHOLDER)
        length += start - last
        starts.append(length)
        length += len(PLACEHOLDER)
        last = end
    pieces.append(text[last:])
    rest = "".join(pieces)
    if rest.count(PLACEHOLDER) != len(cuts):
        return json.loads(text), text
    values = [text[start + 1:end - 1] for start, end in cuts]
    placed = 0

    def constant(name: str):
        nonlocal placed
        if name != PLACEHOLDER:
            return float(name)                    # Infinity, -Infinity
        if placed == len(values):
            raise _Unplaced
        placed += 1
        return values[placed - 1]

    try:
        event = json.JSONDecoder(parse_constant=constant).decode(rest)
    except _Unplaced:
        return json.loads(text), text
    except json.JSONDecodeError as error:
        shift = 0
        for (start, end), at in zip(cuts, starts):
            if error.pos < at:
                break
            if error.pos < at + len(PLACEHOLDER):       # where a cut string could not stand: the message's own error
                return json.loads(text), text
            shift += end - start - len(PLACEHOLDER)
        raise json.JSONDecodeError(error.msg, text, error.pos + shift) from None
    if placed != len(values):
        return json.loads(text), text
    return event, rest


def _long_strings(text: str) -> Generator[None, None, list[tuple[int, int]] | None]:
    """The spans (from the opening quote to past the closing one) of the strings to cut out of the message, found
    SLICE_CHARS at a time; None where the message holds more than MAX_SLICED_STRINGS strings or one that does not end
    (json.loads then finds what it finds)."""
    cuts, strings, at, mark = [], 0, 0, SLICE_CHARS
    while at < len(text):
        if at >= mark:
            yield None
            mark = at + SLICE_CHARS
        quote = text.find('"', at, at + SLICE_CHARS)
        if quote < 0:
            at += SLICE_CHARS
            continue
        strings += 1
        if strings > MAX_SLICED_STRINGS:
            return None
        end, plain = quote + 1, True
        while True:
            if end >= mark:
                yield None
                mark = end + SLICE_CHARS
            window = min(end + SLICE_CHARS, len(text))
            if plain:
                stop = text.find('"', end, window)
                stop = window if stop < 0 else stop
                if not _plain(text, end, stop):
                    plain = False                 # the rest parses this string
                    continue
            else:
                stop = ESCAPED_RUN.match(text, end, window).end()
            if stop == len(text):
                return None
            if text[stop] == '"':
                break
            if stop == end:
                return None                       # a backslash as the last character
            end = stop
        end = stop + 1
        if plain and end - quote >= CUT_CHARS and (quote == 0 or text[quote - 1] in VALUE_AFTER):
            cuts.append((quote, end))
        at = end
    return cuts


def _plain(text: str, start: int, stop: int) -> bool:
    """Whether text[start:stop], inside a JSON string and free of quotes, is its own value: no backslash, and no
    control character (json.loads refuses those; parsing the run as a string checks that in one C call)."""
    if text.find("\\", start, stop) >= 0:
        return False
    try:
        json.loads(f'"{text[start:stop]}"')
    except ValueError:
        return False
    return True


# ---- validation helpers ----------------------------------------------------------------------------

def _string(event: dict, key: str) -> str:
    value = event.get(key)
    if not isinstance(value, str) or not value:
        raise ClientError("invalid_value", f"'{key}' must be a non-empty string", key)
    return value


def _optional_string(value, param: str) -> str | None:
    if value is not None and not isinstance(value, str):
        raise ClientError("invalid_value", f"{param} must be a string", param)
    return value


def _short(value: str, param: str) -> str:
    """An id or a name of at most MAX_ID_CHARS."""
    if len(value) > MAX_ID_CHARS:
        raise ClientError("invalid_value", f"{param} may be at most {MAX_ID_CHARS} characters, this one has "
                          f"{len(value)}", param)
    return value


def _text(value, param: str) -> str | None:
    """An optional string of at most MAX_TEXT_CHARS: a 4 MB message would only stall every session's prompt."""
    value = _optional_string(value, param)
    if value is not None and len(value) > MAX_TEXT_CHARS:
        raise ClientError("text_too_long", f"{param} may be at most {MAX_TEXT_CHARS} characters, "
                          f"this one has {len(value)}", param)
    return value


def _metadata(value) -> dict:
    """response.metadata as OpenAI takes it: up to 16 string pairs (echoed back on response.done)."""
    if value is None:
        return {}
    if not isinstance(value, dict) or len(value) > MAX_METADATA_KEYS or not all(
            isinstance(k, str) and isinstance(v, str) and len(k) <= MAX_METADATA_KEY and len(v) <= MAX_METADATA_VALUE
            for k, v in value.items()):
        raise ClientError("invalid_value", f"response.metadata must be an object of at most {MAX_METADATA_KEYS} "
                          f"string values ({MAX_METADATA_KEY}-character keys, {MAX_METADATA_VALUE}-character values)",
                          "response.metadata")
    return value


def _format(value, param: str) -> dict:
    if isinstance(value, str) and value in BETA_FORMATS:
        value = BETA_FORMATS[value]
    if not isinstance(value, dict):
        raise ClientError("invalid_value", f"{param} must be an object like {{'type': 'audio/pcm', 'rate': 24000}}",
                          param)
    kind = value.get("type")
    if kind == "audio/pcm":
        rate = value.get("rate", 24000)
        if isinstance(rate, float) and rate.is_integer():     # JSON has one number type: 48000.0 is 48000
            rate = int(rate)
        if isinstance(rate, bool) or not isinstance(rate, int) or rate not in PCM_RATES:
            raise ClientError("invalid_value", f"audio/pcm rate must be one of {list(PCM_RATES)}, got {rate!r}",
                              param + ".rate")
        return {"type": "audio/pcm", "rate": rate}
    if kind in ("audio/pcmu", "audio/pcma"):
        return {"type": kind}
    raise ClientError("invalid_value", f"unsupported audio format {kind!r}; use audio/pcm, audio/pcmu or audio/pcma",
                      param + ".type")


def _turn_detection(value, current: TurnDetection | None) -> TurnDetection | None:
    param = "session.audio.input.turn_detection"
    if value is None:
        return None
    if not isinstance(value, dict):
        raise ClientError("invalid_value", f"{param} must be an object or null", param)
    kind = value.get("type", "server_vad")
    if kind not in ("server_vad", "semantic_vad"):
        raise ClientError("invalid_value", f"turn_detection type must be server_vad or semantic_vad, got {kind!r}",
                          param + ".type")
    td = replace(current) if current is not None else TurnDetection()
    td.type = kind
    numbers = {"threshold": (0.0, 1.0), "prefix_padding_ms": (0, 5000), "silence_duration_ms": (0, 10000)}
    for key, (low, high) in numbers.items():
        if key in value and value[key] is not None:
            number = value[key]
            if isinstance(number, bool) or not isinstance(number, (int, float)) or not low <= number <= high:
                raise ClientError("invalid_value", f"{key} must be a number in [{low}, {high}]", f"{param}.{key}")
            setattr(td, key, type(getattr(td, key))(number))
    for key in ("create_response", "interrupt_response"):
        if key in value and value[key] is not None:
            if not isinstance(value[key], bool):
                raise ClientError("invalid_value", f"{key} must be true or false", f"{param}.{key}")
            setattr(td, key, value[key])
    if "eagerness" in value:
        if not isinstance(value["eagerness"], str) or value["eagerness"] not in SEMANTIC_WAITS:
            raise ClientError("invalid_value", "eagerness must be low, medium, high or auto", f"{param}.eagerness")
        td.eagerness = value["eagerness"]
    return td


def _tools(value) -> list[dict]:
    if not isinstance(value, list):
        raise ClientError("invalid_value", "session.tools must be a list", "session.tools")
    try:
        check_count(len(value), "session.tools")
    except DeclarationError as error:
        raise ClientError("invalid_value", error.message, error.param) from None
    tools = []
    for tool in value:
        if not isinstance(tool, dict) or tool.get("type", "function") != "function" or \
                not isinstance(tool.get("name"), str) or not tool["name"]:
            raise ClientError("invalid_value", "each tool must be {type: 'function', name, description, parameters}",
                              "session.tools")
        tools.append({"type": "function", "name": tool["name"], "description": tool.get("description", ""),
                      "parameters": tool.get("parameters", {"type": "object", "properties": {}})})
    try:
        check_declarations([(f"session.tools[{i}]", tool) for i, tool in enumerate(tools)], "session.tools")
    except DeclarationError as error:
        raise ClientError("invalid_value", error.message, error.param) from None
    return tools


def _tool_choice(value, tools: list[dict]) -> str:
    """The choice as OpenAI takes it: auto, none, required, or {type: "function", name} naming a declared tool. The
    embedded model reads requests the same way whatever it is; it is echoed as given ("auto" for a named tool)."""
    if value in ("auto", "none", "required"):
        return value
    if isinstance(value, dict) and value.get("type") == "function" and isinstance(value.get("name"), str) and \
            any(tool["name"] == value["name"] for tool in tools):
        return "auto"
    raise ClientError("invalid_value", "tool_choice must be 'auto', 'none', 'required' or {type: 'function', name} "
                      "naming one of session.tools", "session.tool_choice")


def _beta_to_ga(session: dict) -> dict:
    """Beta session fields (input_audio_format, modalities, top-level turn_detection) -> GA shape."""
    ga = {k: v for k, v in session.items() if k in ("instructions", "tools", "tool_choice")}
    audio_in, audio_out = {}, {}
    if "input_audio_format" in session:
        audio_in["format"] = session["input_audio_format"]
    if "turn_detection" in session:
        audio_in["turn_detection"] = session["turn_detection"]
    if "output_audio_format" in session:
        audio_out["format"] = session["output_audio_format"]
    if "modalities" in session:
        modalities = session["modalities"]
        ga["output_modalities"] = ["audio"] if isinstance(modalities, list) and "audio" in modalities else ["text"]
    ga["audio"] = {"input": audio_in, "output": audio_out}
    return ga
