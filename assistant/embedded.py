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
"""
import contextlib
import itertools
import threading
import time
import uuid
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from types import MappingProxyType

import torch

from assistant.chat_template import CALL, RESULT_SLOT, SAY, content_text, model_prompt, parse_call, show_numbers
from dllm_core.checkpoint import load_model
from dllm_core.decoding import DecodeParams, stream_generate
from assistant.tokenizer import Tokenizer
from assistant.generator import AssistantReply, DoneEvent, ReplyEvent, TextEvent, ToolCall, ToolCallEvent
from assistant.skills import valid_call
from assistant.tools import ToolRunner

EMBEDDED_CHECKPOINT = Path(__file__).resolve().parent / "checkpoints" / "parley-home"
NOT_UNDERSTOOD = "Sorry, I didn't catch that."
# Few-step threshold decoding: reveal what the model is sure of, finish whatever is left by the 4th pass.
DEFAULT_DECODE = DecodeParams(algorithm="threshold", gen_length=32, block_length=32, steps=32, threshold=0.9,
                              max_forward_passes=4)


class EmbeddedGenerator:
    """Parley's own diffusion checkpoint, in this process."""

    name = "embedded"

    def __init__(self, model, config, tokenizer: Tokenizer, decode: DecodeParams, max_prompt: int):
        self.model, self.config, self.tokenizer, self.decode = model, config, tokenizer, decode
        self.max_prompt = max_prompt
        self.call_id, self.say_id = tokenizer.token_id(CALL), tokenizer.token_id(SAY)
        self._ids = itertools.count(1)
        self._ids_lock = threading.Lock()

    @classmethod
    def load(cls, checkpoint_dir=None, *, decode: DecodeParams | None = None) -> "EmbeddedGenerator":
        path = Path(checkpoint_dir) if checkpoint_dir is not None else EMBEDDED_CHECKPOINT
        # One torch thread: on the shared 2-core machine a reply took a median 10 ms with one thread and
        # 125 ms with two (the second thread spin-waits while STT/TTS hold the other core).
        torch.set_num_threads(1)
        model, config = load_model(path)
        decode = decode or DEFAULT_DECODE
        return cls(model, config, Tokenizer.load(path), decode, config.max_sequence_length - decode.gen_length)

    def prompt_ids(self, history: list[dict]) -> tuple[list[int], list[str]]:
        """Token ids of the prompt (its end, if too long) and the numbers its <nK> slots stand for."""
        text, numbers = model_prompt(history)
        return self.tokenizer.encode(text)[-self.max_prompt:], numbers

    def _new_call_id(self) -> str:
        with self._ids_lock:
            return f"call_{next(self._ids)}_{uuid.uuid4().hex[:8]}"

    async def respond(self, history: list[dict], tools: ToolRunner, *,
                      client_tools: Mapping[str, dict] = MappingProxyType({}),
                      session_id: str | None = None) -> AsyncIterator[ReplyEvent]:
        started = time.perf_counter()
        history, client_result = _split_client_result(history)
        tokens: list[int] = []
        passes = 0
        calls: list[ToolCall] = []
        result: str | None = client_result
        spoken: list[int] | None = None      # token ids after <|say|>, once it has been written
        said, broken = "", False
        prompt, numbers = self.prompt_ids(history)
        blocks = stream_generate(self.model, prompt, self.decode,
                                 mask_id=self.config.mask_token_id, eos_id=self.config.eos_token_id)
        async with contextlib.aclosing(blocks):
            async for block in blocks:
                tokens.extend(block.tokens)
                passes = block.forward_passes
                if spoken is not None:
                    spoken.extend(block.tokens)
                elif self.say_id in tokens:
                    split = tokens.index(self.say_id)
                    spoken = tokens[split + 1:]
                    call, broken = self._read_call(tokens[:split], numbers)
                    if call is not None and client_result is None:
                        calls.append(call)
                        if call.name in client_tools:
                            yield ToolCallEvent(call, local=False)
                            break
                        result = await tools.run(call.name, call.arguments)
                        yield ToolCallEvent(call, local=True, result=result)
                if spoken is not None and not broken:
                    text = self._spoken(spoken, result, numbers)
                    if "=" in text or "_" in text:      # call syntax in the speech: a muddled, unsure reply
                        broken = True
                        continue
                    if len(text) > len(said):
                        yield TextEvent(text[len(said):])
                        said = text
        if (spoken is None or broken) and not said and not (calls and result is None):
            said = f"Okay, {result}." if calls else NOT_UNDERSTOOD
            yield TextEvent(said)
        yield DoneEvent(AssistantReply(said, calls, passes, len(tokens), (time.perf_counter() - started) * 1000,
                                       len(prompt), self.name))

    def _read_call(self, head: list[int], numbers: list[str]) -> tuple[ToolCall | None, bool]:
        """(call, broken): the tool call written before <|say|>, if any and well formed."""
        head = [t for t in head if t != self.config.eos_token_id]
        if not head:
            return None, False
        if head[0] != self.call_id:
            return None, True
        parsed = parse_call(show_numbers(self.tokenizer.decode(head[1:]), numbers))
        if parsed is None or not valid_call(parsed):
            return None, True
        return ToolCall(parsed["name"], parsed["arguments"], self._new_call_id()), False

    def _spoken(self, ids: list[int], result: str | None, numbers: list[str]) -> str:
        text = show_numbers(self.tokenizer.decode([t for t in ids if t != self.config.eos_token_id]), numbers)
        return text.replace(RESULT_SLOT, result if result is not None else "").strip()



def _split_client_result(history: list[dict]) -> tuple[list[dict], str | None]:
    """A history ending in a client tool's output: the history before that call, and the output."""
    if not history or history[-1].get("role") != "tool":
        return history, None
    output = content_text(history[-1])
    end = len(history) - 1
    while end > 0 and history[end - 1].get("role") in ("tool", "assistant"):
        end -= 1
    return history[:end], output
