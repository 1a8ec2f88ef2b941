"""The assistant: one diffusion generation writes the tool call and the spoken reply; tools fill its slot.

Loaded once per server and shared by every session: the model is only read (inference mode), and each
reply's denoise loop runs in a worker thread (dllm_core.decoding.stream_generate), so the event loop keeps
moving audio while a reply is written.

For a reply like `<|call|> get_time<|say|> It's {result}.` respond() yields ToolCallEvent (the runtime
has already run the tool and holds its result), then the spoken text with the slot filled as TextEvent
segments, then DoneEvent. A tool the client declared as its own is reported with local=False and not run;
the reply then ends at the call, as an OpenAI Realtime response does. When the client later adds the
tool's output to the history, the same prompt is decoded again (greedy decoding is deterministic) and
the client's output fills the slot.

A request said with a clause beside it ("chandelier on please, we have guests") whose reply makes no call is
read again clause by clause (assistant.clauses); that reply's text is held, not yielded, until then.
"""
import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from types import MappingProxyType

import torch

from assistant.chat_template import NoAction, Slots, content_text, fill_result, model_prompt
from assistant.client_tools import TOOL_SLOTS
from assistant.clauses import takeable
from assistant.conversation import Vocabulary, resolve
from assistant.generator import AssistantReply, DoneEvent, ReplyEvent, TextEvent, ToolCall, ToolCallEvent
from assistant.reply import CALL_ONLY_REPLY, NOT_UNDERSTOOD, ReplyReader, new_call_id, split_client_result
from assistant.skills import SKILLS
from assistant.spoken_numbers import normalize_request
from assistant.tokenizer import Tokenizer
from assistant.tools import ToolRunner
from dllm_core.checkpoint import load_model
from dllm_core.decoding import DecodeParams, stream_generate
from voice.weights import verified

EMBEDDED_CHECKPOINT = Path(__file__).resolve().parent / "checkpoints" / "parley-home"
# Few-step threshold decoding: reveal what the model is sure of, finish whatever is left by the 4th pass.
DEFAULT_DECODE = DecodeParams(algorithm="threshold", gen_length=32, block_length=32, steps=32, threshold=0.9,
                              max_forward_passes=4)


class EmbeddedGenerator:
    """Parley's own diffusion checkpoint, in this process."""

    name = "embedded"

    def __init__(self, model, config, tokenizer: Tokenizer, decode: DecodeParams, max_prompt: int):
        self.model, self.config, self.tokenizer, self.decode = model, config, tokenizer, decode
        self.max_prompt = max_prompt
        # a checkpoint trained before the tool slots existed is not shown declarations it cannot read
        self.reads_tools = all(tokenizer.token_id(slot) is not None for slot in TOOL_SLOTS)

    @classmethod
    def load(cls, checkpoint_dir=None, *, decode: DecodeParams | None = None, device: str = "cpu",
             dtype: str = "float32") -> "EmbeddedGenerator":
        path = Path(checkpoint_dir) if checkpoint_dir is not None else EMBEDDED_CHECKPOINT
        if path.resolve() == EMBEDDED_CHECKPOINT:      # the shipped checkpoint is pinned; a trained one is the user's
            verified("assistant", "checkpoints/parley-home/model.safetensors")
        # One torch thread: on the shared 2-core machine a reply took a median 10 ms with one thread and
        # 125 ms with two (the second thread spin-waits while STT/TTS hold the other core).
        torch.set_num_threads(1)
        model, config = load_model(path, dtype=dtype, device=device)
        decode = decode or DEFAULT_DECODE
        return cls(model, config, Tokenizer.load(path), decode, config.max_sequence_length - decode.gen_length)

    def prompt_ids(self, history: list[dict], lexicon=None, client_tools: Mapping[str, dict] = MappingProxyType({})
                   ) -> tuple[list[int], Slots]:
        """Token ids of the prompt and what its slots stand for (lexicon: the names of the user's own home,
        client_tools: the client's own function tools, see chat_template.model_prompt); a follow-up is first
        resolved against the conversation's state (assistant.conversation). A prompt too long loses its
        earlier turns first, then its start."""
        resolved = resolve(history, lexicon)
        # a declared tool named like a skill is that skill's call, reported to the client instead of run
        declared = [tool for name, tool in client_tools.items() if name not in SKILLS and self.reads_tools]
        while True:
            text, slots = model_prompt(resolved, lexicon, declared)
            ids = self.tokenizer.encode(text)
            first_user = next((i for i, m in enumerate(resolved) if m.get("role") == "user"), len(resolved))
            last_user = max((i for i, m in enumerate(resolved) if m.get("role") == "user"), default=0)
            if len(ids) <= self.max_prompt or first_user >= last_user:
                if history and history[-1].get("role") == "user":
                    slots.request = normalize_request(content_text(history[-1]))     # as said, not as resolved
                    if slots.tools is not None:
                        slots.tools.said = content_text(history[-1])     # as written: resolving lowercases it
                return ids[-self.max_prompt:], slots
            resolved = resolved[first_user + 1:]

    def reader(self, slots: Slots) -> ReplyReader:
        return ReplyReader(self.tokenizer, self.config.eos_token_id, slots)

    def blocks(self, prompt: list[int]):
        """The reply's blocks as the denoise loop commits them (a whole reply and a clause's second reading)."""
        return stream_generate(self.model, prompt, self.decode,
                               mask_id=self.config.mask_token_id, eos_id=self.config.eos_token_id)

    async def respond(self, history: list[dict], tools: ToolRunner, *,
                      client_tools: Mapping[str, dict] = MappingProxyType({}),
                      session_id: str | None = None) -> AsyncIterator[ReplyEvent]:
        started = time.perf_counter()
        tools.begin_reply(history)
        last = history[-1] if history else {}
        answer = tools.waiting_answer(content_text(last)) if last.get("role") == "user" else None
        if answer is not None:                   # a plain yes or no to the question just asked: its confirm call
            call = ToolCall("confirm", {"answer": answer}, new_call_id())
            result = await tools.run(call.name, call.arguments)
            yield ToolCallEvent(call, local=True, result=result)
            yield TextEvent(str(result))
            yield DoneEvent(AssistantReply(str(result), [call], 0, 0, (time.perf_counter() - started) * 1000, 0,
                                           self.name))
            return
        history, client_result = split_client_result(history)
        passes = 0
        calls: list[ToolCall] = []
        result: str | None = client_result
        said = ""
        lexicon = await tools.lexicon()
        # normalising and tokenising a long history is CPU work: off the event loop, which carries every session
        prompt, slots = await asyncio.to_thread(self.prompt_ids, history, lexicon, client_tools)
        # a request said with a clause beside it: a reply without a call is held until its clauses are read
        clauses = [] if client_result is not None else await asyncio.to_thread(self.clauses, history, lexicon)
        reader = self.reader(slots)
        blocks = self.blocks(prompt)
        async with contextlib.aclosing(blocks):
            async for block in blocks:
                passes = block.forward_passes
                head_read, _ = reader.add(block.tokens)
                if head_read and reader.call is not None and client_result is None:
                    call = reader.call
                    calls.append(call)
                    if call.name in client_tools:
                        yield ToolCallEvent(call, local=False)
                        break
                    result = await tools.run(call.name, call.arguments)
                    yield ToolCallEvent(call, local=True, result=result)
                if clauses and not calls:
                    continue
                text = reader.spoken(result)
                if len(text) > len(said):
                    yield TextEvent(text[len(said):])
                    said = text
                if isinstance(result, NoAction):     # the whole reply: the rest of the canvas is not needed
                    break
        if clauses and not calls:
            chosen, clause_passes = await self._clause_reading(history, clauses, lexicon, client_tools)
            passes += clause_passes
            if chosen is not None:
                reader, call = chosen, chosen.call
                calls.append(call)
                if call.name in client_tools:
                    yield ToolCallEvent(call, local=False)
                else:
                    result = await tools.run(call.name, call.arguments)
                    yield ToolCallEvent(call, local=True, result=result)
            said = "" if calls and call.name in client_tools else reader.spoken(result)
            if said:
                yield TextEvent(said)
        if reader.unwritten and not said and not (calls and result is None):
            said = fill_result(CALL_ONLY_REPLY, result) if calls else NOT_UNDERSTOOD
            yield TextEvent(said)
        yield DoneEvent(AssistantReply(said, calls, passes, len(reader.tokens), (time.perf_counter() - started) * 1000,
                                       len(prompt), self.name))

    @staticmethod
    def clauses(history: list[dict], lexicon) -> list[str]:
        """The clauses of the request being answered that a second reading may take (assistant.clauses)."""
        if not history or history[-1].get("role") != "user":
            return []
        return takeable(content_text(history[-1]), Vocabulary(lexicon))

    async def _clause_reading(self, history: list[dict], clauses: list[str], lexicon,
                              client_tools: Mapping[str, dict]) -> tuple[ReplyReader | None, int]:
        """The reply to the one clause (each read alone as the request, with the turns before it) that gives a
        call, every check applied to its own words; None when no clause or more than one does. And the passes."""
        called, passes = [], 0
        for clause in clauses:
            clause_passes = 0
            asked = [*history[:-1], {"role": "user", "content": clause}]
            prompt, slots = await asyncio.to_thread(self.prompt_ids, asked, lexicon, client_tools)
            reader = self.reader(slots)
            blocks = self.blocks(prompt)
            async with contextlib.aclosing(blocks):
                async for block in blocks:
                    reader.add(block.tokens)
                    clause_passes = block.forward_passes
            passes += clause_passes
            if reader.call is not None:
                called.append(reader)
        return (called[0] if len(called) == 1 else None), passes
