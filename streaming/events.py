"""Typed events a Session emits; every transport maps these onto its own wire protocol.

Times named `*_ms` on the input side are positions in the session's input audio (audio time, not wall
time), so a transport can relate them to what it streamed.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class SpeechStarted:
    """Voice activity began (turn detection on). audio_start_ms includes the prefix padding."""
    audio_start_ms: int
    item_id: str


@dataclass(frozen=True)
class SpeechStopped:
    """Turn detection decided the user finished speaking."""
    audio_end_ms: int
    item_id: str


@dataclass(frozen=True)
class AudioCommitted:
    """The buffered user audio became a conversation item (by turn detection or commit_audio)."""
    item_id: str
    previous_item_id: str | None


@dataclass(frozen=True)
class AudioCleared:
    """clear_audio() dropped the uncommitted input audio."""


@dataclass(frozen=True)
class ItemAdded:
    """A conversation item the client added entered the history: a text message, a function call or its output."""
    item_id: str
    previous_item_id: str | None
    type: str                 # "message" | "function_call" | "function_call_output"
    role: str | None          # "user" | "assistant" | "system" for messages
    text: str = ""            # message text, function output, or a function call's arguments (JSON)
    call_id: str | None = None
    name: str | None = None   # the function a function_call calls


@dataclass(frozen=True)
class ItemDeleted:
    item_id: str


@dataclass(frozen=True)
class ItemTruncated:
    """An assistant item was cut to what the listener actually heard."""
    item_id: str
    audio_end_ms: int
    text: str                 # the text kept in the history


@dataclass(frozen=True)
class TranscriptDelta:
    """New words of the user's speech while they are still talking (append-only)."""
    item_id: str
    delta: str


@dataclass(frozen=True)
class TranscriptCompleted:
    item_id: str
    transcript: str


@dataclass(frozen=True)
class ResponseCreated:
    response_id: str


@dataclass(frozen=True)
class ToolCallRequested:
    """The assistant called a tool the client declared: the client runs it, then sends
    add_function_output + create_response to continue. The call is in the history as item_id."""
    response_id: str
    item_id: str
    call_id: str
    name: str
    arguments_json: str
    previous_item_id: str | None


@dataclass(frozen=True)
class ToolCallExecuted:
    """The assistant called one of Parley's own tools and the runtime ran it: the call (item_id) and its
    result (output_item_id) entered the history in that order, after previous_item_id."""
    response_id: str
    call_id: str
    name: str
    arguments: dict
    result: str | None
    item_id: str
    output_item_id: str
    previous_item_id: str | None


@dataclass(frozen=True)
class TextDelta:
    """Text of the spoken reply, as the generator finalises it (the audio transcript)."""
    response_id: str
    item_id: str
    delta: str


@dataclass(frozen=True)
class AudioDelta:
    """PCM16 LE mono at the session's output_rate."""
    response_id: str
    item_id: str
    pcm16: bytes = field(repr=False)


@dataclass(frozen=True)
class AudioDone:
    response_id: str
    item_id: str


@dataclass(frozen=True)
class TextDone:
    response_id: str
    item_id: str
    text: str


@dataclass(frozen=True)
class ResponseDone:
    """status: completed | cancelled | failed. timing: stage durations in ms (see Session docstring)."""
    response_id: str
    status: str
    timing: dict[str, float]
    output_text: str
    item_id: str | None = None
    reason: str | None = None     # why cancelled/failed: "turn_detected", "client_cancelled", error text
    input_tokens: int = 0         # the generator's prompt, when a generation finished (fixed text: 0)
    output_tokens: int = 0        # tokens it wrote
    generator: str | None = None  # the backend that wrote the reply (remote, embedded, none: an apology)
    fallback: str | None = None   # why the remote generator did not write it


@dataclass(frozen=True)
class Interrupted:
    """Barge-in: the user spoke over the reply. Transports drop any audio they still have queued, now."""
    response_id: str


@dataclass(frozen=True)
class Error:
    """Something the client did or a limit it hit; the session goes on unless EndCall follows.
    event_id: the client event that caused it, when one did (echoed back to the client)."""
    code: str
    message: str
    param: str | None = None
    event_id: str | None = None


@dataclass(frozen=True)
class EndCall:
    """The session is over (duration limit, closed); transports hang up."""
    reason: str


SessionEvent = (SpeechStarted | SpeechStopped | AudioCommitted | AudioCleared | ItemAdded | ItemDeleted
                | ItemTruncated | TranscriptDelta | TranscriptCompleted | ResponseCreated | ToolCallRequested
                | ToolCallExecuted | TextDelta | AudioDelta | AudioDone | TextDone | ResponseDone | Interrupted
                | Error | EndCall)
