"""A generator on another machine: Parley's generator server, SGLang, vLLM, Mercury 2 or any other server of
OpenAI `/v1/chat/completions`, streamed. Sessions cannot tell it from the embedded one: it yields the same
ToolCallEvent / TextEvent / DoneEvent.

One reply is an agent loop. Each step streams the history, the instructions and the tools (the client's own,
then Parley's home skills) and speaks text as it arrives. A call to a client tool ends the reply (the client
runs it). A home skill runs here; with Parley's one-pass reply (`parley.reply`, the spoken reply with a
{result} slot) the slot is filled and the reply is done, otherwise the results go back in the next step, as
OpenAI clients do. The loop is bounded by MAX_STEPS and the reply deadline; when nothing has been said after
FILLER_AFTER_S, a short filler is spoken first. Closing the reply (barge-in) cancels the loop at once, so no
later tool runs.

A remote failure never reaches the session: a reply that has said nothing yet is written by the fallback
generator (the embedded one) instead, or is a short apology; one that already spoke ends with an apology.
Failures in a row open a circuit breaker, and while it is open replies go straight to the fallback.
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


@dataclass(frozen=True)
class Timeouts:
    connect_s: float = 2.0           # TCP (and TLS) connect
    read_s: float = 5.0              # waiting for the response headers, and between two chunks
    reply_s: float = 20.0            # the whole reply, every step of the loop


class RemoteFailure(Exception):
    """The remote generator could not give this reply (connection, HTTP error, timeout, broken stream)."""

    def __init__(self, message: str, retry_after_s: float | None = None):
        super().__init__(message)
        self.retry_after_s = retry_after_s


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
        if not self.breaker.allow():
            async for event in self._instead(history, tools, client_tools, session_id, "remote generator down",
                                             started):
                yield event
            return
        progress = _Progress()
        loop = self._loop(history, tools, client_tools, session_id, progress)
        step: asyncio.Task | None = None
        outcome = None
        try:
            filler_due = asyncio.get_running_loop().time() + self.filler_after_s
            while True:
                # A task, so the filler's wait leaves the step running (a timeout would cancel it).
                step = asyncio.ensure_future(anext(loop))
                if not progress.text:
                    wait_s = max(0.0, filler_due - asyncio.get_running_loop().time())
                    if not (await asyncio.wait({step}, timeout=wait_s))[0]:
                        progress.text += FILLER     # the first words would wait too long: say something now
                        yield TextEvent(FILLER)
                try:
                    event = await step
                except StopAsyncIteration:
                    break
                if isinstance(event, TextEvent):
                    progress.text += event.text
                progress.committed = True
                yield event
            outcome = "succeeded"
        except RemoteFailure as failure:
            outcome = "failed"
            self.breaker.failed(failure.retry_after_s)
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
        home = tools.lexicon()
        deadline = asyncio.get_running_loop().time() + self.timeouts.reply_s
        results: list[str] = []
        for _ in range(MAX_STEPS):
            body = request_body(self.dialect, self.model, messages, offered, session_id=session_id, home=home)
            step_calls: list[tuple[ToolCall, str]] = []
            step_text, one_pass = "", None
            stream = self._stream(body, session_id, deadline)
            async with contextlib.aclosing(stream):
                async for event in stream:
                    if isinstance(event, ContentDelta):
                        text = event.text
                        if not step_text and progress.text and not progress.text[-1].isspace():
                            text = " " + text.lstrip()
                        step_text += text
                        yield TextEvent(text)
                    elif isinstance(event, ToolCallReady):
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
                            one_pass = SlotFiller(refused[0] if refused else " and ".join(r for _, r in step_calls))
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

    async def _stream(self, body: dict, session_id: str | None, deadline: float):
        """One streamed request: the state machine's events, as the bytes arrive."""
        headers = {"Accept": "text/event-stream"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        if session_id:
            headers[ROUTING_HEADER] = session_id
        parser = ChatCompletionStream()
        try:
            async with asyncio.timeout_at(deadline):
                async with self._http().post(self.endpoint, json=body, headers=headers) as response:
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
    return RemoteFailure(f"HTTP {response.status}: {message}", retry_after)


def completions_url(url: str) -> str:
    """http://host:port, http://host:port/v1 or the full endpoint -> the chat-completions endpoint."""
    url = url.rstrip("/")
    if url.endswith("/chat/completions"):
        return url
    return url + ("/chat/completions" if url.endswith("/v1") else "/v1/chat/completions")
