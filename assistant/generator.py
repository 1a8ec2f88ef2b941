"""The Generator interface: what sessions, Wyoming and `parley chat` call for a reply, and the events a reply
is made of. Importable without torch: a gateway that talks to a remote generator never loads the engine.

Backends: assistant.embedded.EmbeddedGenerator (Parley's checkpoint in this process) and the remote ones
that speak OpenAI `/v1/chat/completions` (Parley's own generator server, SGLang, vLLM, Mercury).
"""
import asyncio
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from assistant.tools import ToolRunner


MAX_ID_CHARS = 256       # an item's id, a call's call_id and name (OpenAI's take under 40), from a client or a remote
                         # model: each is stored at every save (100 items of 3 MB ids took 190 s of the store's thread)


@dataclass
class ToolCall:
    name: str
    arguments: dict
    call_id: str


@dataclass
class AssistantReply:
    text: str
    tool_calls: list[ToolCall]
    forward_passes: int
    tokens: int
    latency_ms: float
    prompt_tokens: int
    generator: str = ""              # the backend that wrote it ("" : the one asked)
    fallback: str | None = None      # why the remote generator was not used for this reply


@dataclass
class ToolCallEvent:
    call: ToolCall
    local: bool
    result: str | None = None      # what filled the slot; None for a client tool


@dataclass
class TextEvent:
    text: str


@dataclass
class DoneEvent:
    reply: AssistantReply


ReplyEvent = ToolCallEvent | TextEvent | DoneEvent


class Generator(Protocol):
    """Writes one reply to a conversation.

    history: chat messages ({"role", "content"}; assistant messages may carry "tool_calls", tool messages
    the output of a client's tool). tools runs Parley's own skills and fills the reply's result slot; a
    generator calls tools.begin_reply(history) first, so a yes is only ever the user's next turn.
    client_tools: the tools the client declared (name -> OpenAI function declaration); a call to one is
    yielded with local=False and ends the reply, as an OpenAI Realtime response does.
    session_id: the conversation's id; a remote backend sends it so a router can keep a session on one engine.
    """

    name: str

    def respond(self, history: list[dict], tools: "ToolRunner", *,
                client_tools: Mapping[str, dict] = MappingProxyType({}),
                session_id: str | None = None) -> AsyncIterator[ReplyEvent]: ...


def respond_sync(generator: Generator, history: list[dict], tools: "ToolRunner", *,
                 client_tools: Mapping[str, dict] = MappingProxyType({})) -> AssistantReply:
    """The finished reply, for callers without an event loop (the text chat, warm-up, benchmarks)."""
    async def collect():
        async for event in generator.respond(history, tools, client_tools=client_tools):
            if isinstance(event, DoneEvent):
                return event.reply
    return asyncio.run(collect())
