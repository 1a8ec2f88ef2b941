"""The OpenAI `/v1/chat/completions` wire, as a remote generator speaks it: request bodies per server dialect,
and a pure state machine that reads the streamed reply (SSE bytes in, reply pieces out; no I/O here).

Streamed replies: `data: {chunk}` events, text in `choices[0].delta.content`, tool calls as `delta.tool_calls`
fragments keyed by `index` (the first names the call, later ones append to its JSON arguments), `usage` near
the end, then `data: [DONE]`. Parley's own generator server adds `delta.parley.reply`: the spoken reply of a
tool call with the literal `{result}` slot, so the gateway runs the tool and speaks without a second request.

Dialects (what each server is sent; their streams share one shape):
- parley: Parley's generator server. Greedy (`temperature: 0`). A user's own home goes along as
  `parley.home = {"names": [...], "areas": [...]}`: the phrases its model reads as name slots.
- sglang: SGLang serving a dLLM (LLaDA2.x, SDAR): one chunk per committed 32-token block. Greedy; tool choice
  stays "auto" (never a grammar-constrained "required" or named tool).
- vllm: vLLM serving DiffusionGemma: 256-token chunks, so a short reply arrives whole in one chunk. No
  temperature, seed or response_format.
- inception: Inception's Mercury 2. `realtime: true`, `reasoning_effort`, `diffusing: false` (its draft
  stream re-sends whole unfinished drafts, which must never be spoken); instructions as `system`, never
  `developer`.
- openai: any other OpenAI-compatible server; instructions as `developer`, `max_completion_tokens`.
"""
from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from assistant.chat_template import RESULT_SLOT, Done, NoAction
from assistant.generator import MAX_ID_CHARS
from assistant.openai_chat import tool_call_json

MAX_REPLY_TOKENS = 512                  # a spoken reply is a few sentences; reasoning models need headroom


@dataclass(frozen=True)
class Dialect:
    name: str
    instructions_role: str = "system"
    greedy: bool = True                  # send temperature 0 (a voice reply should not vary run to run)
    max_tokens_field: str = "max_tokens"
    extra: Mapping = field(default_factory=dict)   # body fields only this server knows (OpenAI clients' extra_body)
    sends_home: bool = False             # the names of the user's own home, as `parley.home`


DIALECTS: dict[str, Dialect] = {d.name: d for d in (
    Dialect("parley", sends_home=True),
    Dialect("sglang"),
    Dialect("vllm", greedy=False),
    Dialect("inception", greedy=False,
            extra={"realtime": True, "reasoning_effort": "low", "diffusing": False}),
    Dialect("openai", instructions_role="developer", greedy=False, max_tokens_field="max_completion_tokens"),
)}


def chat_tool(declaration: dict) -> dict:
    """A Realtime-style flat function declaration ({type, name, description, parameters}) for Chat Completions."""
    if "function" in declaration:
        return declaration
    function = {"name": declaration["name"], "description": declaration.get("description", ""),
                "parameters": declaration.get("parameters") or {"type": "object", "properties": {}}}
    return {"type": "function", "function": function}


def chat_messages(history: list[dict], dialect: Dialect) -> list[dict]:
    """Parley's history (assistant calls as {call_id, name, arguments}, tool outputs with call_id) as Chat
    Completions messages. Consecutive calls become one assistant message, as OpenAI requires before their
    tool messages; a call whose output never arrived, or an output whose call is gone, is dropped (servers refuse
    both)."""
    answered = {m.get("call_id") or m.get("tool_call_id") for m in history if m.get("role") == "tool"}
    called = {c.get("call_id") or c.get("id") for m in history if m.get("role") == "assistant"
              for c in m.get("tool_calls") or []}
    messages: list[dict] = []
    for message in history:
        role = message.get("role")
        if role == "system":
            messages.append({"role": dialect.instructions_role, "content": _text(message)})
        elif role == "assistant" and message.get("tool_calls"):
            calls = [_chat_call(c) for c in message["tool_calls"]]
            calls = [c for c in calls if c["id"] in answered]
            if not calls:
                continue
            if messages and messages[-1]["role"] == "assistant" and messages[-1].get("tool_calls") \
                    and not messages[-1].get("content"):
                messages[-1]["tool_calls"].extend(calls)
            else:
                messages.append({"role": "assistant", "content": _text(message) or None, "tool_calls": calls})
        elif role == "tool":
            if (message.get("call_id") or message.get("tool_call_id")) not in called:
                continue                    # its call fell out of the history window: an orphan servers refuse
            messages.append({"role": "tool", "tool_call_id": message.get("call_id") or message.get("tool_call_id"),
                             "content": _text(message)})
        elif role in ("user", "assistant"):
            messages.append({"role": role, "content": _text(message)})
    return messages


def _chat_call(call: dict) -> dict:
    function = call.get("function", call)
    return tool_call_json(call.get("call_id") or call.get("id"), function["name"], function.get("arguments", {}))


def _text(message: dict) -> str:
    content = message.get("content") or ""
    if isinstance(content, list):       # content parts
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return str(content)


def request_body(dialect: Dialect, model: str, messages: list[dict], tools: list[dict], *,
                 session_id: str | None = None, home: tuple[set, set] | None = None) -> dict:
    """The streamed request. session_id goes in `user`, where a router (SGLang's gateway) can key on it.
    home: (name phrases, area phrases) of the user's own home with its kinds and places (Inventory.lexicon), None for the
    default one."""
    body: dict = {"model": model, "messages": messages, "stream": True,
                  "stream_options": {"include_usage": True}, dialect.max_tokens_field: MAX_REPLY_TOKENS}
    if tools:
        body["tools"] = tools
        body["tool_choice"] = "auto"
    if dialect.greedy:
        body["temperature"] = 0
    if session_id:
        body["user"] = session_id
    if dialect.sends_home and home is not None:
        body["parley"] = {"home": {"names": sorted(home[0]), "areas": sorted(home[1]),
                                   "kinds": getattr(home, "kinds", {}), "places": getattr(home, "places", {})}}
    body.update(dialect.extra)
    return body


# ---- the streamed reply -------------------------------------------------------------------------------

class StreamError(Exception):
    """The server sent an error, something that is not a chat-completion stream, or stopped mid-reply."""


class DraftRefused(StreamError):
    """A diffusion draft frame (Mercury's `diffusing` stream): unfinished text that must never be spoken."""


@dataclass(frozen=True)
class ContentDelta:
    """Reply text, in order, final (never revised)."""
    text: str


@dataclass(frozen=True)
class ReplyDelta:
    """A piece of Parley's one-pass spoken reply for the reply's tool call(s), with the {result} slot."""
    text: str


@dataclass(frozen=True)
class ToolCallReady:
    """A tool call whose fragments are all in. arguments is None when they are not a JSON object."""
    call_id: str
    name: str
    arguments: dict | None


@dataclass(frozen=True)
class Usage:
    prompt_tokens: int
    completion_tokens: int


@dataclass(frozen=True)
class Finished:
    """`data: [DONE]`: the reply is complete."""
    finish_reason: str | None


StreamEvent = ContentDelta | ReplyDelta | ToolCallReady | Usage | Finished


@dataclass
class _PartialCall:
    call_id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)
    size: int = 0


class ChatCompletionStream:
    """One streamed chat completion: feed bytes with receive_data, end with receive_eof.

    Tool calls are assembled from their fragments by index and reported once complete: when a later index
    starts, when reply text follows them, or when the reply finishes. Reasoning text (`reasoning_content`)
    is never reported: it is not meant to be spoken. Every buffer is bounded, and so is the whole stream (a
    512-token reply streamed a token per chunk is ~150 KB); a stream past a bound is an error, not a wait.
    Each byte is scanned once: a run of line ends is one step, however long.
    """

    def __init__(self, *, max_event_bytes: int = 1 << 20, max_reply_chars: int = 1 << 16,
                 max_tool_calls: int = 16, max_stream_bytes: int = 2 << 20):
        self.max_event_bytes, self.max_reply_chars, self.max_tool_calls = max_event_bytes, max_reply_chars, max_tool_calls
        self.max_stream_bytes = max_stream_bytes
        self._received = 0
        self.done = False
        self.finish_reason: str | None = None
        self._buffer = bytearray()
        self._scanned = 0                   # the buffer before this holds no line end
        self._data: list[str] = []          # data lines of the event being read
        self._data_size = 0
        self._event_name = ""
        self._calls: dict[int, _PartialCall] = {}
        self._ready = 0                     # calls with a lower index were reported
        self._last_index: int | None = None
        self._chars = 0

    def receive_data(self, data: bytes) -> list[StreamEvent]:
        if self.done:
            return []
        self._received += len(data)
        if self._received > self.max_stream_bytes:
            raise StreamError(f"a stream longer than {self.max_stream_bytes} bytes")
        buffer = self._buffer
        buffer += data
        events: list[StreamEvent] = []
        start = 0
        while not self.done:
            ends = _LINE_ENDS.search(buffer, max(start, self._scanned))
            if ends is None or (ends.end() == len(buffer) and ends.end() - ends.start() == 1 and buffer[-1] == 0x0D):
                break                       # no whole line yet, or a lone \r that may be half of a \r\n
            events += self._line(bytes(buffer[start:ends.start()]).decode("utf-8", errors="replace"))
            if not self.done and _blank_lines(ends.group()):
                events += self._line("")    # one blank line dispatches; the ones after it change nothing
            start = ends.end()
        del buffer[:start]
        self._scanned = max(len(buffer) - 1, 0)     # what is left holds no line end, but for a last \r
        if len(buffer) > self.max_event_bytes:
            raise StreamError(f"an SSE line longer than {self.max_event_bytes} bytes")
        return events

    def receive_eof(self) -> None:
        """The connection ended. Without `[DONE]` the reply was cut off (an unfinished event is discarded, as
        the SSE rules say): an error."""
        if not self.done:
            raise StreamError("the stream ended before [DONE]")

    # ---- SSE framing (the WHATWG event-stream rules: data lines join with \n, a blank line dispatches)

    def _line(self, line: str) -> list[StreamEvent]:
        if line == "":
            if not self._data:
                self._event_name = ""
                return []
            data, name = "\n".join(self._data), self._event_name
            self._data, self._data_size, self._event_name = [], 0, ""
            return self._event(name, data)
        if line.startswith(":"):            # comment / keep-alive
            return []
        key, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if key == "data":
            self._data_size += len(value)
            if self._data_size > self.max_event_bytes:
                raise StreamError(f"an SSE event larger than {self.max_event_bytes} bytes")
            self._data.append(value)
        elif key == "event":
            self._event_name = value
        return []

    def _event(self, name: str, data: str) -> list[StreamEvent]:
        if data.strip() == "[DONE]":
            events = self._flush_calls()
            self.done = True
            return events + [Finished(self.finish_reason)]
        try:
            chunk = json.loads(data)
        except ValueError:
            raise StreamError(f"an SSE event that is not JSON: {data[:80]!r}") from None
        if not isinstance(chunk, dict):
            raise StreamError("an SSE event that is not a JSON object")
        if name == "error" or "error" in chunk:
            error = chunk.get("error", chunk)
            message = error.get("message") if isinstance(error, dict) else error
            raise StreamError(f"the server reported an error: {message}")
        return self._chunk(chunk)

    # ---- chat.completion.chunk

    def _chunk(self, chunk: dict) -> list[StreamEvent]:
        choices = chunk.get("choices") or []
        if not isinstance(choices, list):
            raise StreamError("choices is not a list")
        choice = next((c for c in choices if isinstance(c, dict) and c.get("index", 0) == 0), None)
        delta = choice.get("delta") if choice else None
        if _is_draft(chunk) or _is_draft(choice) or _is_draft(delta):
            raise DraftRefused("the server streamed diffusion drafts (diffusing); drafts are never spoken")
        events: list[StreamEvent] = []
        if isinstance(delta, dict):
            fragments = delta.get("tool_calls") or []
            if not isinstance(fragments, list):
                raise StreamError("tool_calls is not a list")
            for fragment in fragments:
                events += self._fragment(fragment)
            content = delta.get("content")
            if isinstance(content, str) and content:
                events += self._flush_calls() + [ContentDelta(self._count(content))]
            extension = delta.get("parley")
            reply = extension.get("reply") if isinstance(extension, dict) else None
            if isinstance(reply, str) and reply:
                events += self._flush_calls() + [ReplyDelta(self._count(reply))]
        if choice and choice.get("finish_reason"):
            self.finish_reason = choice["finish_reason"]
            events += self._flush_calls()
        usage = chunk.get("usage")
        if isinstance(usage, dict):
            events.append(Usage(_count(usage.get("prompt_tokens")), _count(usage.get("completion_tokens"))))
        return events

    def _count(self, text: str) -> str:
        self._chars += len(text)
        if self._chars > self.max_reply_chars:
            raise StreamError(f"a reply longer than {self.max_reply_chars} characters")
        return text

    def _fragment(self, fragment) -> list[StreamEvent]:
        if not isinstance(fragment, dict):
            raise StreamError("a tool_calls entry that is not an object")
        index = fragment.get("index")
        if not isinstance(index, int):      # servers that omit it: a new id starts a new call
            last = self._calls.get(self._last_index) if self._last_index is not None else None
            new = last is None or (fragment.get("id") and last.call_id and fragment["id"] != last.call_id)
            index = (self._last_index + 1 if self._last_index is not None else 0) if new else self._last_index
        if index < self._ready:
            raise StreamError(f"a fragment for tool call {index} after it was complete")
        events = self._flush_calls(below=index)
        call = self._calls.get(index)
        if call is None:
            if len(self._calls) >= self.max_tool_calls:
                raise StreamError(f"more than {self.max_tool_calls} tool calls")
            call = self._calls[index] = _PartialCall()
        self._last_index = index
        if fragment.get("id") and not call.call_id:
            call.call_id = _bounded_id(fragment["id"], f"tool call {index}'s id")
        function = fragment.get("function") or {}
        if not isinstance(function, dict):
            raise StreamError(f"tool call {index}'s function is not an object")
        if function.get("name") and not call.name:
            call.name = _bounded_id(function["name"], f"tool call {index}'s name")
        arguments = function.get("arguments")
        if isinstance(arguments, str) and arguments:
            call.size += len(arguments)
            if call.size > self.max_reply_chars:
                raise StreamError(f"tool call arguments longer than {self.max_reply_chars} characters")
            call.arguments.append(arguments)
        return events

    def _flush_calls(self, below: int | None = None) -> list[StreamEvent]:
        """Report the complete calls: those below index `below`, or all of them."""
        events: list[StreamEvent] = []
        for index in sorted(i for i in self._calls if i >= self._ready and (below is None or i < below)):
            call = self._calls[index]
            self._ready = index + 1
            if not call.name:
                raise StreamError(f"tool call {index} has no name")
            text = "".join(call.arguments).strip() or "{}"
            try:
                arguments = json.loads(text)
            except ValueError:
                arguments = None
            events.append(ToolCallReady(call.call_id or f"call_{index}", call.name,
                                        arguments if isinstance(arguments, dict) else None))
        return events


_LINE_ENDS = re.compile(rb"[\r\n]+")


def _bounded_id(value, what: str) -> str:
    """A call's id or name, which the conversation stores: at most MAX_ID_CHARS, as a client's (at cfe81dd a remote's
    name of a megabyte went into the history, and into the store at every save)."""
    text = str(value)
    if len(text) > MAX_ID_CHARS:
        raise StreamError(f"{what} is longer than {MAX_ID_CHARS} characters")
    return text


def _blank_lines(ends: bytes) -> bool:
    """Does a run of \\n, \\r\\n or \\r line ends hold more than the one that ends a line?"""
    return len(ends) > 1 and ends != b"\r\n"


def _count(value) -> int:
    """A token count as usage reports it; anything but a whole number counts 0 (usage is only reported)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _is_draft(part) -> bool:
    return isinstance(part, dict) and bool(part.get("diffusing"))


class SlotFiller:
    """Parley's one-pass reply, piece by piece, with {result} filled in; a slot split across pieces is held
    back until it is whole. A NoAction or Done result is the whole reply instead (assistant.chat_template)."""

    def __init__(self, result: str):
        self.result, self._held = result, ""
        self._refusal_said = False

    def add(self, piece: str) -> str:
        if isinstance(self.result, (NoAction, Done)):
            said, self._refusal_said = self._refusal_said, True
            return "" if said else self.result
        text = (self._held + piece).replace(RESULT_SLOT, self.result)
        keep = next((n for n in range(len(RESULT_SLOT) - 1, 0, -1) if text.endswith(RESULT_SLOT[:n])), 0)
        self._held = text[len(text) - keep:] if keep else ""
        return text[:len(text) - keep] if keep else text

    def flush(self) -> str:
        held, self._held = self._held, ""
        return held
