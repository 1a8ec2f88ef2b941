"""Masked-diffusion decoding: the LLaDA and Fast-dLLM decoders, exact to the reference, plus what a voice
assistant needs on top: batches of unequal prompts, stop at EOS, a forward-pass budget and streaming.

The canvas is ``prompt + gen_length x [MASK]``, decoded block by block, left to right. Every decoder
reveals masked tokens of the current block by confidence (the softmax probability of the predicted token);
they differ in how many per pass (a schedule or a threshold) and in how much of the canvas each pass runs
the network on (all of it, or the block onward / the block alone against cached keys and values).
"""
import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass

import torch
import torch.nn.functional as F

ALGORITHMS = ("llada", "threshold", "prefix_cache", "prefix_cache_threshold", "dual_cache", "dual_cache_threshold")


@dataclass
class DecodeParams:
    algorithm: str = "threshold"
    gen_length: int = 32
    block_length: int = 32
    steps: int = 32                        # network passes for the whole reply (schedule decoders only)
    threshold: float | None = 0.9          # confidence to reveal a token (threshold decoders only)
    temperature: float = 0.0               # 0 = argmax; else Gumbel-max sampling in float64
    max_forward_passes: int | None = None  # hard cap on network passes per reply
    stop_at_eos: bool = True

    @property
    def uses_threshold(self) -> bool:
        return self.algorithm.endswith("threshold")

    @property
    def cache(self) -> str | None:
        return self.algorithm.split("_cache")[0] if "_cache" in self.algorithm else None

    def check(self) -> None:
        if self.algorithm not in ALGORITHMS:
            raise ValueError(f"algorithm {self.algorithm!r}: expected one of {', '.join(ALGORITHMS)}")
        if self.gen_length < 1 or self.block_length < 1 or self.gen_length % self.block_length:
            raise ValueError(f"gen_length {self.gen_length} must be a positive multiple of block_length {self.block_length}")
        blocks = self.gen_length // self.block_length
        if not self.uses_threshold and (self.steps < blocks or self.steps % blocks):
            raise ValueError(f"steps {self.steps} must be a positive multiple of the number of blocks ({blocks})")
        if self.uses_threshold and self.threshold is None:
            raise ValueError(f"algorithm {self.algorithm!r} needs a threshold")
        if self.temperature < 0:
            raise ValueError("temperature must be >= 0")
        if self.max_forward_passes is not None and self.max_forward_passes < 1:
            raise ValueError("max_forward_passes must be >= 1")


@dataclass
class Generation:
    tokens: list[list[int]]  # generated ids per prompt row, trimmed at EOS when stop_at_eos
    forward_passes: int


@dataclass
class Block:
    index: int
    tokens: list[int]        # this block's final tokens (trimmed at EOS)
    text: str | None         # their text, when a tokenizer was given
    forward_passes: int      # network passes of the reply so far (the last block carries the total)
    last: bool


@dataclass
class FinishedBlock:
    index: int
    tokens: torch.Tensor     # [B, block_length]
    forward_passes: int
    stopped: torch.Tensor    # [B] rows whose output ended at EOS in this block or before


def transfer_schedule(mask_counts: torch.Tensor, steps: int) -> torch.Tensor:
    """Tokens to reveal per step [B, steps]: an even split, the remainder going to the first steps (LLaDA)."""
    base = mask_counts[:, None] // steps
    extra = torch.arange(steps, device=mask_counts.device)[None, :] < (mask_counts % steps)[:, None]
    return base + extra.long()


def predict(logits: torch.Tensor, temperature: float, generator, float64: bool):
    """Predicted tokens and their confidence. LLaDA's softmax runs in the logits' dtype, Fast-dLLM's in float64."""
    if float64:
        logits = logits.double()    # once: the Gumbel noise and the softmax below both read it
    if temperature > 0:
        # Gumbel-max in float64: argmax(exp(l) / (-log u)^T) == argmax(l - T log(-log u)) samples softmax(l / T).
        u = torch.rand(logits.shape, generator=generator, dtype=torch.float64, device=logits.device)
        x0 = (logits.double() - temperature * torch.log(-torch.log(u))).argmax(-1)
    else:
        x0 = logits.argmax(-1)
    probs = F.softmax(logits, dim=-1)
    return x0, probs.gather(-1, x0[..., None]).squeeze(-1)


def select_top_k(confidence: torch.Tensor, k: torch.Tensor, offsets: list[int]) -> torch.Tensor:
    """The k[row] most confident positions, ranked from column offsets[row] on, where the row's own
    canvas starts: topk breaks exact ties by layout, so a padded row must be ranked as it is alone."""
    transfer = torch.zeros_like(confidence, dtype=torch.bool)
    for row, (offset, count) in enumerate(zip(offsets, k.tolist())):
        _, index = torch.topk(confidence[row, offset:], k=count)
        transfer[row, index + offset] = True
    return transfer


def select_by_threshold(confidence: torch.Tensor, threshold: float) -> torch.Tensor:
    """Every candidate (finite confidence) at or above the threshold, and always the most confident one
    (Fast-dLLM)."""
    candidates = confidence > float("-inf")
    transfer = candidates & (confidence >= threshold)
    rows = candidates.any(-1).nonzero().squeeze(-1)
    best = torch.topk(confidence[rows], k=1, dim=-1).indices.squeeze(-1)
    transfer[rows, best] = True
    return transfer


def pad_token(pad_id: int | None, eos_id: int | None, mask_id: int) -> int:
    """The id that fills left padding (never attended to): the first of pad, EOS, 0, 1 that is not the mask."""
    return next(t for t in (pad_id, eos_id, 0, 1) if t is not None and t != mask_id)


def sampler(params: DecodeParams, seed: int | None, device) -> torch.Generator | None:
    """One reply's random generator (None when greedy), seeded when a seed is given."""
    if params.temperature <= 0:
        return None
    generator = torch.Generator(device=device)
    generator.manual_seed(seed) if seed is not None else generator.seed()
    return generator


def reveal(x: torch.Tensor, logits: torch.Tensor, start: int, s: int, e: int, active: torch.Tensor, *,
           passes: int, later_blocks: int, params: DecodeParams, quota: torch.Tensor | None, offsets: list[int],
           generator, mask_id: int) -> None:
    """One pass's picks, written into x in place: of the masked positions of block [s, e) of the active rows,
    those the decoder reveals. passes: the reply's passes before this one; with a budget, the pass that leaves
    one pass per later block reveals the whole block, and the very last pass every mask left on the canvas.
    logits cover canvas columns from start on; quota is the schedule's count for this step (schedule decoders),
    offsets where each row's canvas starts."""
    budget = params.max_forward_passes
    final = budget is not None and budget - passes - 1 <= later_blocks
    fill_end = x.shape[1] if budget is not None and budget - passes == 1 else e
    lo, hi = s - start, fill_end - start     # the fill region [s, fill_end) within the logits
    candidates = (x[:, s:fill_end] == mask_id) & active
    x0, conf = predict(logits[:, lo:hi], params.temperature, generator, float64=params.algorithm != "llada")
    if final or not bool(candidates.any()):
        transfer = candidates
    else:
        # Ranked over the same window as the reference (−inf off the candidates), so ties break alike.
        confidence = torch.full(logits.shape[:2], float("-inf"), dtype=conf.dtype, device=logits.device)
        confidence[:, lo:hi] = conf.masked_fill(~candidates, float("-inf"))
        if params.uses_threshold:
            transfer = select_by_threshold(confidence, params.threshold)[:, lo:hi]
        else:
            transfer = select_top_k(confidence, quota, offsets)[:, lo:hi]
    x[:, s:fill_end][transfer] = x0[transfer]


def denoise(model, prompts: list[list[int]], params: DecodeParams, *, mask_id: int, eos_id: int | None = None,
            pad_id: int | None = None, seed: int | None = None,
            should_stop: Callable[[], bool] | None = None) -> Iterator[FinishedBlock]:
    """Decode the canvas block by block, yielding each block once it is final.

    Prompts are left-padded so the generated region lines up across rows; padded keys are masked and
    each row keeps its own rotary positions, so a row decodes as it would alone.
    """
    params.check()
    if not prompts:
        raise ValueError("no prompts")
    with torch.inference_mode():
        yield from _denoise(model, prompts, params, mask_id, eos_id, pad_id, seed, should_stop)


def _denoise(model, prompts, params, mask_id, eos_id, pad_id, seed, should_stop):
    device = model.transformer.wte.weight.device
    B, P = len(prompts), max(len(p) for p in prompts)
    L, bl = P + params.gen_length, params.block_length
    if L > model.config.max_sequence_length:
        raise ValueError(f"prompt + gen_length = {L} exceeds the model's max_sequence_length {model.config.max_sequence_length}")
    pad = pad_token(pad_id, eos_id, mask_id)
    x = torch.full((B, L), mask_id, dtype=torch.long, device=device)
    lengths = torch.tensor([len(p) for p in prompts], device=device)
    padding = [P - len(p) for p in prompts]
    for row, prompt in enumerate(prompts):
        x[row, :P - len(prompt)] = pad
        x[row, P - len(prompt):P] = torch.tensor(prompt, dtype=torch.long)
    if bool((lengths == P).all()):
        attention_mask, positions = None, torch.arange(L, device=device).expand(B, L)
    else:
        attention_mask = torch.arange(L, device=device)[None, :] >= (P - lengths)[:, None]
        positions = (attention_mask.long().cumsum(-1) - 1).clamp(min=0)

    generator = sampler(params, seed, device)
    num_blocks = params.gen_length // bl
    steps_per_block = params.steps // num_blocks
    budget = params.max_forward_passes
    stopped = torch.zeros(B, dtype=torch.bool, device=device)
    passes = 0

    for b in range(num_blocks):
        s, e = P + b * bl, P + (b + 1) * bl
        active = ~stopped[:, None]                 # rows still writing
        masked = (x[:, s:e] == mask_id) & active
        schedule = None if params.uses_threshold else transfer_schedule(masked.sum(-1), steps_per_block)
        step, cache = 0, None
        later_blocks = num_blocks - b - 1
        while bool(masked.any()) or (
                # The reference always follows the block-start pass with at least one cached pass.
                params.cache is not None and step == 1 and (budget is None or budget - passes > later_blocks)):
            if should_stop is not None and should_stop():
                return
            writing = masked.any(-1)
            fills_canvas = budget is not None and budget - passes == 1
            if params.cache is None and B > 1 and not bool(writing.all()) and not fills_canvas:
                # Rows with nothing left to reveal in this block skip the network (a reply read beside its
                # clauses: each row costs the passes it takes alone); the mask makes each row's attention its own.
                rows = writing.nonzero()[:, 0]
                keys = torch.ones((B, L), dtype=torch.bool, device=device) if attention_mask is None else attention_mask
                wanted = model(x[rows], keys[rows], position_ids=positions[rows])
                logits = wanted.new_zeros((B, *wanted.shape[1:]))
                logits[rows] = wanted
                start = 0
            elif params.cache is None or step == 0:
                logits, kv = model(x, attention_mask, position_ids=positions, return_key_values=True)
                start = 0
                if params.cache == "prefix":
                    cache = [(k[:, :, :s], v[:, :, :s]) for k, v in kv]
                elif params.cache == "dual":
                    cache = kv
            elif params.cache == "prefix":
                logits = model(x[:, s:], attention_mask, position_ids=positions[:, s:], past_key_values=cache)
                start = s
            else:
                logits = model(x[:, s:e], attention_mask, position_ids=positions[:, s:e],
                               past_key_values=cache, cache_start=s)
                start = s
            reveal(x, logits, start, s, e, active, passes=passes, later_blocks=later_blocks, params=params,
                   quota=None if schedule is None else schedule[:, step],
                   offsets=padding if start == 0 else [0] * B, generator=generator, mask_id=mask_id)
            passes += 1
            masked = (x[:, s:e] == mask_id) & active
            step += 1

        if params.stop_at_eos and eos_id is not None:
            stopped = stopped | (x[:, s:e] == eos_id).any(-1)
        yield FinishedBlock(b, x[:, s:e].clone(), passes, stopped.clone())
        if bool(stopped.all()):
            return


def trim_at_eos(tokens: list[int], eos_id: int | None, stop_at_eos: bool) -> list[int]:
    if stop_at_eos and eos_id is not None and eos_id in tokens:
        return tokens[:tokens.index(eos_id)]
    return tokens


def generate(model, prompts: list[list[int]], params: DecodeParams, *, mask_id: int, eos_id: int | None = None,
             pad_id: int | None = None, seed: int | None = None) -> Generation:
    rows: list[list[int]] = [[] for _ in prompts]
    passes = 0
    for block in denoise(model, prompts, params, mask_id=mask_id, eos_id=eos_id, pad_id=pad_id, seed=seed):
        for row, tokens in enumerate(block.tokens.tolist()):
            rows[row].extend(tokens)
        passes = block.forward_passes
    return Generation([trim_at_eos(r, eos_id, params.stop_at_eos) for r in rows], passes)


async def stream_generate(model, prompt: list[int], params: DecodeParams, *, mask_id: int, eos_id: int | None = None,
                          tokenizer=None, seed: int | None = None) -> AsyncIterator[Block]:
    """Yield each block the moment it is final, so speech can start on the first one.

    The denoise loop runs in a worker thread, keeping the event loop free for audio; leaving the
    iterator early (barge-in) stops the loop before its next network pass.
    """
    rows = stream_generate_together(model, [prompt], params, mask_id=mask_id, eos_id=eos_id, tokenizer=tokenizer,
                                    seed=seed)
    async with contextlib.aclosing(rows):
        async for (block,) in rows:
            yield block


async def stream_generate_together(model, prompts: list[list[int]], params: DecodeParams, *, mask_id: int,
                                   eos_id: int | None = None, tokenizer=None,
                                   seed: int | None = None) -> AsyncIterator[list[Block | None]]:
    """stream_generate for several prompts decoded as one batch, so together they take the passes one takes
    alone: each item holds every prompt's block (None for a prompt whose reply ended in an earlier block)."""
    params.check()
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue = asyncio.Queue()
    cancelled = threading.Event()

    def post(item) -> None:
        try:
            loop.call_soon_threadsafe(queue.put_nowait, item)
        except RuntimeError:  # the event loop is gone; nobody is listening
            cancelled.set()

    def run() -> None:
        try:
            for block in denoise(model, prompts, params, mask_id=mask_id, eos_id=eos_id, seed=seed,
                                 should_stop=cancelled.is_set):
                post(block)
                if cancelled.is_set():
                    return
            post(None)
        except BaseException as error:  # handed to the consumer, raised there
            post(error)

    worker = threading.Thread(target=run, name="dllm-denoise", daemon=True)
    worker.start()
    num_blocks = params.gen_length // params.block_length
    generated: list[list[int]] = [[] for _ in prompts]
    text_so_far = [""] * len(prompts)
    ended = [False] * len(prompts)
    try:
        while True:
            item = await queue.get()
            if item is None:
                return
            if isinstance(item, BaseException):
                raise item
            blocks: list[Block | None] = []
            for row, row_tokens in enumerate(item.tokens.tolist()):
                if ended[row]:
                    blocks.append(None)
                    continue
                tokens = trim_at_eos(row_tokens, eos_id, params.stop_at_eos)
                ended[row] = bool(item.stopped[row]) or item.index == num_blocks - 1
                text = None
                if tokenizer is not None:
                    generated[row].extend(tokens)
                    full = tokenizer.decode(generated[row])
                    before = text_so_far[row]
                    text = full[len(before):] if full.startswith(before) else tokenizer.decode(tokens)
                    text_so_far[row] = full
                blocks.append(Block(item.index, tokens, text, item.forward_passes, ended[row]))
            yield blocks
            if all(ended):
                return
    finally:
        cancelled.set()
        # Wait (off the event loop) for the pass in flight, so no decode thread outlives its stream:
        # torch aborts the process if the interpreter exits under a running pass.
        await asyncio.to_thread(worker.join)
