"""A generator on another machine: Parley's generator server, SGLang, vLLM, Mercury 2 or any other server of
OpenAI `/v1/chat/completions`, streamed. Sessions cannot tell it from the embedded one: it yields the same
ToolCallEvent / TextEvent / DoneEvent.

One reply is an agent loop. Each step streams the history, the instructions and the tools (the client's own,
then Parley's home skills) and speaks text as it arrives. A call to a client tool ends the reply (the client
runs it). A home skill runs here; with Parley's one-pass reply (`parley.reply`, the spoken reply with a
{result} slot) the slot is filled and the reply is done, otherwise the results go back in the next step, as
OpenAI clients do. The loop is bounded by MAX_STEPS, the reply deadline (the whole reply, however it streams)
and MAX_SPOKEN_CHARS; when nothing has been said after FILLER_AFTER_S, a short filler is spoken first. Closing
the reply (barge-in) cancels the loop at once, so no later tool runs.

What the remote says is untrusted: each request is cut to MAX_REQUEST_BYTES (the oldest history first), a
redirect is a failure rather than a new address, and a yes to a question it asked is never its own
(ToolRunner.begin_reply).

A remote failure never reaches the session: a reply that has said nothing yet is written by the fallback
generator (the embedded one) instead, or is a short apology; one that already spoke ends with an apology.
Failures in a row open a circuit breaker, and while it is open replies go straight to the fallback. A request
refused as too large (413) is that request's failure, not the remote's: it never counts against the breaker.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TYPE_CHECKING

import aiohttp

from assistant.chat_completions import (DIALECTS, ChatCompletionStream, ContentDelta, ReplyDelta, SlotFiller,
                                        StreamError, ToolCallReady, Usage, chat_messages, chat_tool, request_body)
from assistant.chat_template import NoAction, fill_result
from assistant.generator import AssistantReply, DoneEvent, Generator, ReplyEvent, TextEvent, ToolCall, ToolCallEvent
from assistant.openai_chat import tool_call_json
from assistant.reply import CALL_ONLY_REPLY, NOT_UNDERSTOOD
from assistant.skills import SKILLS
from assistant.tools import NOT_POSSIBLE

if TYPE_CHECKING:
    from assistant.tools import ToolRunner

FILLER = "One moment. "
APOLOGY = "Sorry, I can't think right now. Please try again in a moment."
CUT_OFF = " Sorry, I lost my train of thought."
MAX_STEPS = 4                        # requests per reply: call -> result -> next call ...
ROUTING_HEADER = "X-SMG-Routing-Key"  # SGLang's model gateway pins a key to one engine (sticky sessions)
MAX_ERROR_BYTES = 64 * 1024
MAX_REQUEST_BYTES = 256 * 1024      # a request's JSON: hours of conversation, a quarter of common 1 MiB body limits
MAX_SPOKEN_CHARS = 2048             # the 512 tokens a reply may ask for (MAX_REPLY_TOKENS), ~2.5 minutes of speech


@dataclass(frozen=True)
class Timeouts:
    connect_s: float = 2.0           # TCP (and TLS) connect
    read_s: float = 5.0              # waiting for the response headers, and between two chunks
    reply_s: float = 20.0            # the whole reply, every step of the loop


class RemoteFailure(Exception):
    """The remote generator could not give this reply (connection, HTTP error, timeout, broken stream).
    counts: whether it says anything about the remote (a request too large says something about the request)."""

    def __init__(self, message: str, retry_after_s: float | None = None, counts: bool = True):
        super().__init__(message)
        self.retry_after_s, self.counts = retry_after_s, counts


class CircuitBreaker:
    """closed: use the remote. FAILURES_TO_OPEN failures in a row (or a 429's Retry-After) open it: for
    cooldown_s every reply goes to the fallback; then one trial reply goes to the remote (half_open) and its
    outcome closes or reopens the breaker."""

    FAILURES_TO_OPEN = 2

    def __init__(self, cooldown_s: float = 5.0, clock=time.monotonic):
        self.cooldown_s, self.clock = cooldown_s, clock
        self.failures = 0
        self.opened_until: float | None = None
        self.trial = False               # the half-open trial reply is in flight

    @property
    def state(self) -> str:
        if self.opened_until is None:
            return "closed"
        return "half_open" if self.trial or self.clock() >= self.opened_until else "open"

    def allow(self) -> bool:
        """May this reply use the remote? (In half_open, only the one trial may.)"""
        if self.opened_until is None:
            return True
        if self.trial or self.clock() < self.opened_until:
            return False
        self.trial = True
        return True

    def succeeded(self) -> None:
        self.failures, self.opened_until, self.trial = 0, None, False

    def failed(self, retry_after_s: float | None = None) -> None:
        self.failures += 1
        self.trial = False
        if retry_after_s is not None or self.failures >= self.FAILURES_TO_OPEN or self.opened_until is not None:
            self.opened_until = self.clock() + (retry_after_s if retry_after_s is not None else self.cooldown_s)

    def abandoned(self) -> None:
        """The trial reply was cancelled (barge-in) before it showed anything: the next reply tries again."""
        self.trial = False


@dataclass
class _Progress:
    """What one reply has done so far, shared by the loop and respond()."""
    text: str = ""
    calls: list[ToolCall] = field(default_factory=list)
    prompt_tokens: int = 0
    tokens: int = 0
    committed: bool = False          # the remote's words or tool calls reached the session: no fallback now


class RemoteGenerator:
    """A remote `/v1/chat/completions` server behind the Generator interface; `fallback` writes the replies
    it cannot."""

    name = "remote"

    def __init__(self, url: str, *, model: str, dialect: str = "parley", api_key: str | None = None,
                 fallback: Generator | None = None, timeouts: Timeouts = Timeouts(),
                 filler_after_s: float = 1.0, breaker: CircuitBreaker | None = None):
        if dialect not in DIALECTS:
            raise ValueError(f"unknown dialect {dialect!r}; one of {', '.join(DIALECTS)}")
        self.endpoint = completions_url(url)
        self.model, self.dialect, self.api_key = model, DIALECTS[dialect], api_key
        self.fallback, self.timeouts, self.filler_after_s = fallback, timeouts, filler_after_s
        self.breaker = breaker or CircuitBreaker()
        self._client: aiohttp.ClientSession | None = None
        self._client_loop: asyncio.AbstractEventLoop | None = None

    @property
    def remote_up(self) -> bool:
        return self.breaker.state == "closed"

    async def aclose(self) -> None:
        if self._client is not None and not self._client.closed:
            await self._client.close()

    async def respond(self, history: list[dict], tools: "ToolRunner", *,
                      client_tools: Mapping[str, dict] = MappingProxyType({}),
                      session_id: str | None = None) -> AsyncIterator[ReplyEvent]:
        started = time.perf_counter()
        tools.begin_reply(history)
        if not self.breaker.allow():
            async for event in self._instead(history, tools, client_tools, session_id, "remote generator down",
                                             started):
                yield event
            return
        progress = _Progress()
        loop = self._loop(history, tools, client_tools, session_id, progress)
        step: asyncio.Task | None = None
        outcome = None
        clock = asyncio.get_running_loop().time
        try:
            filler_due, deadline = clock() + self.filler_after_s, clock() + self.timeouts.reply_s
            while True:
                # Each step is a task of its own, so the deadline is checked here, around every step: a timeout
                # entered inside the loop would be bound to the first step's task and never fire after it.
                step = asyncio.ensure_future(anext(loop))
                if not progress.text and filler_due < deadline:
                    if not (await asyncio.wait({step}, timeout=max(0.0, filler_due - clock())))[0]:
                        progress.text += FILLER     # the first words would wait too long: say something now
                        yield TextEvent(FILLER)
                if not (await asyncio.wait({step}, timeout=max(0.0, deadline - clock())))[0]:
                    raise RemoteFailure(f"the remote generator's reply took longer than {self.timeouts.reply_s:g} s")
                try:
                    event = step.result()
                except StopAsyncIteration:
                    break
                full = isinstance(event, TextEvent) and len(progress.text) + len(event.text) > MAX_SPOKEN_CHARS
                if full:                            # the rest is never said: the reply ends at the last whole word
                    room = event.text[:MAX_SPOKEN_CHARS - len(progress.text)]
                    event = TextEvent(room[:room.rfind(" ") + 1])
                if isinstance(event, TextEvent):
                    progress.text += event.text
                progress.committed = True
                yield event
                if full:
                    break
            outcome = "succeeded"
        except RemoteFailure as failure:
            outcome = "failed"
            if failure.counts:
                self.breaker.failed(failure.retry_after_s)
            else:
                self.breaker.abandoned()
            if progress.committed:
                progress.text += CUT_OFF
                yield TextEvent(CUT_OFF)
            else:
                async for event in self._instead(history, tools, client_tools, session_id, str(failure), started,
                                                 said=progress.text):
                    yield event
                return
        finally:
            if step is not None and not step.done():
                step.cancel()
                with contextlib.suppress(asyncio.CancelledError, StopAsyncIteration, RemoteFailure):
                    await step
            await loop.aclose()
            if outcome == "succeeded":
                self.breaker.succeeded()
            elif outcome is None:
                self.breaker.abandoned()
        yield DoneEvent(AssistantReply(progress.text, progress.calls, 0, progress.tokens,
                                       (time.perf_counter() - started) * 1000, progress.prompt_tokens, self.name))

    async def _instead(self, history, tools, client_tools, session_id, reason: str, started: float,
                       said: str = "") -> AsyncIterator[ReplyEvent]:
        """The reply the remote could not give: the fallback's, or an apology."""
        if self.fallback is None:
            yield TextEvent(APOLOGY)
            yield DoneEvent(AssistantReply(said + APOLOGY, [], 0, 0, (time.perf_counter() - started) * 1000, 0,
                                           "none", reason))
            return
        replies = self.fallback.respond(history, tools, client_tools=client_tools, session_id=session_id)
        async with contextlib.aclosing(replies):
            async for event in replies:
                if isinstance(event, DoneEvent):
                    event = DoneEvent(replace(event.reply, text=said + event.reply.text,
                                              generator=event.reply.generator or self.fallback.name, fallback=reason))
                yield event

    async def _loop(self, history, tools: "ToolRunner", client_tools: Mapping[str, dict], session_id: str | None,
                    progress: _Progress) -> AsyncIterator[ReplyEvent]:
        """The agent loop; raises RemoteFailure."""
        messages = chat_messages(history, self.dialect)
        offered = [chat_tool(d) for d in client_tools.values()] + \
                  [chat_tool(s.schema()) for name, s in SKILLS.items() if name not in client_tools]
        home = await tools.lexicon()
        results: list[str] = []
        for _ in range(MAX_STEPS):
            messages, payload = _bounded(self.dialect, self.model, messages, offered, session_id, home)
            step_calls: list[tuple[ToolCall, str]] = []
            step_text, one_pass = "", None
            stream = self._stream(payload, session_id)
            async with contextlib.aclosing(stream):
                async for event in stream:
                    if isinstance(event, ContentDelta):
                        text = event.text
                        if not step_text and progress.text and not progress.text[-1].isspace():
                            text = " " + text.lstrip()
                        step_text += text
                        yield TextEvent(text)
                    elif isinstance(event, ToolCallReady):
                        if event.name in client_tools and event.arguments is None:   # never sent on as {}
                            raise RemoteFailure(f"a call to {event.name} whose arguments are not a JSON object")
                        call = ToolCall(event.name, event.arguments or {}, event.call_id)
                        progress.calls.append(call)
                        if event.name in client_tools:
                            yield ToolCallEvent(call, local=False)
                            return                  # the client runs it; the reply ends at the call
                        result = await tools.run(call.name, call.arguments) if event.arguments is not None \
                            else NOT_POSSIBLE
                        step_calls.append((call, result))
                        results.append(result)
                        yield ToolCallEvent(call, local=True, result=result)
                    elif isinstance(event, ReplyDelta):
                        if one_pass is None:
                            refused = [r for _, r in step_calls if isinstance(r, NoAction)]
                            results_said = [r for _, r in step_calls]   # one call's Done stays the whole reply
                            one_pass = SlotFiller(refused[0] if refused else results_said[0] if len(results_said) == 1
                                                  else " and ".join(results_said))
                        text = one_pass.add(event.text)
                        if text:
                            step_text += text
                            yield TextEvent(text)
                    elif isinstance(event, Usage):
                        progress.prompt_tokens += event.prompt_tokens
                        progress.tokens += event.completion_tokens
            if one_pass is not None:
                if rest := one_pass.flush():
                    yield TextEvent(rest)
                return
            if not step_calls:
                if not progress.text.strip() and not step_text.strip():
                    yield TextEvent(NOT_UNDERSTOOD)
                return
            # tool results go back to the model, which may answer or call again
            messages.append({"role": "assistant", "content": step_text or None, "tool_calls": [
                tool_call_json(call.call_id, call.name, call.arguments) for call, _ in step_calls]})
            messages += [{"role": "tool", "tool_call_id": call.call_id, "content": result}
                         for call, result in step_calls]
        if not progress.text.strip():
            yield TextEvent(fill_result(CALL_ONLY_REPLY, results[-1]) if results else NOT_UNDERSTOOD)

    async def _stream(self, payload: bytes, session_id: str | None):
        """One streamed request: the state machine's events, as the bytes arrive. A redirect is not followed:
        the generator is the configured URL and no other (the key is sent nowhere else)."""
        headers = {"Accept": "text/event-stream", "Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        if session_id:
            headers[ROUTING_HEADER] = session_id
        parser = ChatCompletionStream()
        try:
            async with self._http().post(self.endpoint, data=payload, headers=headers,
                                         allow_redirects=False) as response:
                if response.status != 200:
                    raise await _http_failure(response)
                async for data in response.content.iter_any():
                    for event in parser.receive_data(data):
                        yield event
                parser.receive_eof()
        except TimeoutError:
            raise RemoteFailure("the remote generator timed out") from None
        except aiohttp.ClientError as exc:
            raise RemoteFailure(f"{type(exc).__name__}: {exc}") from None
        except StreamError as exc:
            raise RemoteFailure(str(exc)) from None

    def _http(self) -> aiohttp.ClientSession:
        """One client (and its pool of kept-alive connections) per event loop."""
        loop = asyncio.get_running_loop()
        if self._client is None or self._client.closed or self._client_loop is not loop:
            timeout = aiohttp.ClientTimeout(total=None, sock_connect=self.timeouts.connect_s,
                                            sock_read=self.timeouts.read_s)
            self._client = aiohttp.ClientSession(timeout=timeout, connector=aiohttp.TCPConnector(limit=64))
            self._client_loop = loop
        return self._client


async def _http_failure(response: aiohttp.ClientResponse) -> RemoteFailure:
    """An OpenAI-shaped error response as a RemoteFailure (with Retry-After, for a 429)."""
    raw = await response.content.read(MAX_ERROR_BYTES)
    try:
        message = json.loads(raw)["error"]["message"]
    except (ValueError, KeyError, TypeError):
        message = raw[:200].decode("utf-8", errors="replace")
    retry_after = None
    if response.status == 429:
        try:
            retry_after = min(max(float(response.headers.get("Retry-After", "1")), 0.0), 60.0)
        except ValueError:
            retry_after = 1.0
    return RemoteFailure(f"HTTP {response.status}: {message}", retry_after, counts=response.status != 413)


def _bounded(dialect, model: str, messages: list[dict], tools: list[dict], session_id: str | None,
             home) -> tuple[list[dict], bytes]:
    """The messages that fit in MAX_REQUEST_BYTES and the request's JSON: the oldest turns after the
    instructions go first (with tool results whose call went), the newest message always stays."""
    payload = json.dumps(request_body(dialect, model, messages, tools, session_id=session_id, home=home))
    excess = len(payload) - MAX_REQUEST_BYTES
    if excess <= 0:
        return messages, payload.encode()
    first = next((i for i, m in enumerate(messages) if m["role"] not in ("system", "developer")), len(messages))
    cut = first
    while excess > 0 and cut < len(messages) - 1:
        excess -= len(json.dumps(messages[cut])) + 2         # the message and its ", "
        cut += 1
    while cut < len(messages) - 1 and messages[cut]["role"] == "tool":
        cut += 1
    kept = messages[:first] + messages[cut:]
    payload = json.dumps(request_body(dialect, model, kept, tools, session_id=session_id, home=home))
    if len(payload) > MAX_REQUEST_BYTES:
        raise RemoteFailure(f"the request would be {len(payload)} bytes, more than {MAX_REQUEST_BYTES}", counts=False)
    return kept, payload.encode()


def completions_url(url: str) -> str:
    """http://host:port, http://host:port/v1 or the full endpoint -> the chat-completions endpoint."""
    url = url.rstrip("/")
    if url.endswith("/chat/completions"):
        return url
    return url + ("/chat/completions" if url.endswith("/v1") else "/v1/chat/completions")
