"""Continuous batching: the denoise passes of every request in flight run as ONE batched forward.

A request joins the batch at the next pass boundary and leaves it as soon as its reply is final, so a
short reply never waits for a long one. Each row keeps the state its decode would have alone (block,
step, pass count, schedule, sampler) and is revealed exactly as `decoding.denoise` reveals a batch of
one: the batch only shares the network pass. Rows are left-padded to the longest canvas; padded keys
are masked, each row keeps its own rotary positions, and model.attend computes each row's attention on
its own tokens with the shapes it has alone, so a greedy reply is the same token for token.

Only the cache-free decoders (llada, threshold) batch this way: a cached pass runs part of one row's
canvas against that row's own cache, which rows at different points of their decode cannot share.

The forward runs on one worker thread; callers submit from any thread and read blocks from an asyncio
iterator (DecodeJob.blocks), so an event loop never waits on the network.
"""
import asyncio
import collections
import threading
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

import torch

from dllm_core.decoding import Block, DecodeParams, pad_token, reveal, sampler, transfer_schedule, trim_at_eos

BATCHABLE = ("llada", "threshold")


class QueueFull(Exception):
    """Every batch place and waiting place is taken; the caller should come back later."""


class BatcherClosed(RuntimeError):
    """The batcher stopped (shutdown) before the job finished."""


@dataclass
class PassReport:
    rows: int            # requests decoded by this pass
    tokens: int          # canvas positions the network ran on, padding included
    seconds: float


class _Row:
    """One request's decode: the state `decoding.denoise` keeps for a batch of one."""

    def __init__(self, prompt: list[int], params: DecodeParams, mask_id: int, eos_id: int | None,
                 seed: int | None, device):
        self.params, self.mask_id, self.eos_id = params, mask_id, eos_id
        self.prompt_length = len(prompt)
        self.length = len(prompt) + params.gen_length
        self.canvas = torch.full((1, self.length), mask_id, dtype=torch.long, device=device)
        self.canvas[0, :len(prompt)] = torch.tensor(prompt, dtype=torch.long)
        self.active = torch.ones((1, 1), dtype=torch.bool, device=device)
        self.generator = sampler(params, seed, device)
        self.num_blocks = params.gen_length // params.block_length
        self.steps_per_block = params.steps // self.num_blocks
        self.block, self.passes, self.done = 0, 0, False
        self._start_block()

    @property
    def span(self) -> tuple[int, int]:
        start = self.prompt_length + self.block * self.params.block_length
        return start, start + self.params.block_length

    def _start_block(self) -> None:
        s, e = self.span
        self.masked = self.canvas[:, s:e] == self.mask_id
        self.schedule = None if self.params.uses_threshold else transfer_schedule(self.masked.sum(-1),
                                                                                 self.steps_per_block)
        self.step = 0

    def apply(self, logits: torch.Tensor) -> None:
        """Reveal from this pass's logits [1, length, vocab] (the row's own columns)."""
        s, e = self.span
        reveal(self.canvas, logits, 0, s, e, self.active, passes=self.passes,
               later_blocks=self.num_blocks - self.block - 1, params=self.params,
               quota=None if self.schedule is None else self.schedule[:, self.step], offsets=[0],
               generator=self.generator, mask_id=self.mask_id)
        self.passes += 1
        self.masked = self.canvas[:, s:e] == self.mask_id
        self.step += 1

    def settle(self) -> list[Block]:
        """The blocks that have no mask left, in order; after the last one the row is done."""
        finished = []
        while not self.done and not bool(self.masked.any()):
            s, e = self.span
            tokens = self.canvas[0, s:e].tolist()
            stopped = self.params.stop_at_eos and self.eos_id is not None and self.eos_id in tokens
            last = stopped or self.block == self.num_blocks - 1
            finished.append(Block(self.block, trim_at_eos(tokens, self.eos_id, self.params.stop_at_eos), None,
                                  self.passes, last))
            if last:
                self.done = True
            else:
                self.block += 1
                self._start_block()
        return finished


class DecodeJob:
    """A submitted request: read its blocks with `async for block in job.blocks()`; cancel() to leave early."""

    def __init__(self, row: _Row, loop: asyncio.AbstractEventLoop):
        self._row = row
        self._loop = loop
        self._queue: asyncio.Queue = asyncio.Queue()
        self.cancelled = False

    def _post(self, item) -> None:
        """From the worker: a Block, or the exception that ends the job."""
        try:
            self._loop.call_soon_threadsafe(self._queue.put_nowait, item)
        except RuntimeError:        # the caller's event loop is gone; nobody is listening
            self.cancelled = True

    def cancel(self) -> None:
        self.cancelled = True

    async def blocks(self) -> AsyncIterator[Block]:
        try:
            while True:
                item = await self._queue.get()
                if isinstance(item, BaseException):
                    raise item
                yield item
                if item.last:
                    return
        finally:
            self.cancel()


class ContinuousBatcher:
    """Decodes every submitted request in one shared forward per pass, on a worker thread.

    max_batch bounds the rows of one forward; max_waiting bounds the rows waiting for a place, and submit()
    raises QueueFull beyond it rather than queueing without end. submit_together() queues rows that join the
    batch at the same pass (a request and its clauses), so together they take the passes one takes alone.
    on_pass (called on the worker thread) receives a PassReport after every forward.
    """

    def __init__(self, model, *, mask_id: int, eos_id: int | None, pad_id: int | None = None,
                 max_batch: int = 64, max_waiting: int = 256, on_pass: Callable[[PassReport], None] | None = None):
        if max_batch < 1 or max_waiting < 0:
            raise ValueError("max_batch must be >= 1 and max_waiting >= 0")
        self.model, self.mask_id, self.eos_id = model, mask_id, eos_id
        self.pad_id = pad_token(pad_id, eos_id, mask_id)
        self.max_batch, self.max_waiting, self.on_pass = max_batch, max_waiting, on_pass
        self.device = model.transformer.wte.weight.device
        self._waiting: collections.deque[list[DecodeJob]] = collections.deque()     # rows that join together
        self._waiting_rows = 0          # their rows, read from other threads without the lock
        self._active: list[DecodeJob] = []
        self._wake = threading.Condition()
        self._closed = False
        self._worker: threading.Thread | None = None
        self.last_error: BaseException | None = None    # what killed the worker, if it died
        self.start()

    # ---- from any thread

    @property
    def waiting(self) -> int:
        return self._waiting_rows

    @property
    def in_flight(self) -> int:
        return len(self._active)

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def alive(self) -> bool:
        return self._worker is not None and self._worker.is_alive()

    def start(self) -> None:
        """Start the worker thread, or a new one if it died."""
        with self._wake:
            if self._closed or self.alive:
                return
            self._worker = threading.Thread(target=self._run, name="dllm-batcher", daemon=True)
            self._worker.start()

    def submit(self, prompt: list[int], params: DecodeParams, *, seed: int | None = None,
               loop: asyncio.AbstractEventLoop | None = None) -> DecodeJob:
        """Queue a request (ValueError if it cannot be decoded, QueueFull if no place is free)."""
        return self.submit_together([prompt], params, seed=seed, loop=loop)[0]

    def submit_together(self, prompts: list[list[int]], params: DecodeParams, *, seed: int | None = None,
                        loop: asyncio.AbstractEventLoop | None = None) -> list[DecodeJob]:
        """Queue rows that join the batch at the same pass (ValueError if one cannot be decoded or they are
        more than max_batch, QueueFull unless there is a place for every one)."""
        params.check()
        if params.algorithm not in BATCHABLE:
            raise ValueError(f"algorithm {params.algorithm!r} does not batch continuously; use one of {', '.join(BATCHABLE)}")
        if not 1 <= len(prompts) <= self.max_batch:
            raise ValueError(f"{len(prompts)} rows together: expected 1 to max_batch ({self.max_batch})")
        for prompt in prompts:
            if not prompt:
                raise ValueError("empty prompt")
            length = len(prompt) + params.gen_length
            if length > self.model.config.max_sequence_length:
                raise ValueError(f"prompt + gen_length = {length} exceeds the model's max_sequence_length "
                                 f"{self.model.config.max_sequence_length}")
        loop = loop or asyncio.get_running_loop()
        group = [DecodeJob(_Row(prompt, params, self.mask_id, self.eos_id, seed, self.device), loop)
                 for prompt in prompts]
        with self._wake:
            if self._closed:
                raise BatcherClosed("the batcher is closed")
            free = self.max_batch - len(self._active) + self.max_waiting
            if self._waiting_rows + len(group) > free:
                raise QueueFull(f"{len(self._active)} requests in flight and {self._waiting_rows} waiting")
            self._waiting.append(group)
            self._waiting_rows += len(group)
            self._wake.notify()
        return group

    def close(self) -> None:
        """Stop after the pass in flight; every unfinished job gets BatcherClosed."""
        with self._wake:
            self._closed = True
            self._wake.notify()
        if self._worker is not None and self._worker is not threading.current_thread():
            self._worker.join()

    # ---- the worker thread

    def _run(self) -> None:
        try:
            with torch.inference_mode():
                while self._pass():
                    pass
        except BaseException as error:      # a bug in the loop itself: fail every job; start() makes a new worker
            self.last_error = error
            self._fail_all(error)
            raise
        self._fail_all(BatcherClosed("the batcher is closed"))

    def _pass(self) -> bool:
        """Admit waiting jobs, run one forward for every row and hand out finished blocks; False once closed."""
        with self._wake:
            while not self._closed and not self._waiting and not self._active:
                self._wake.wait()
            if self._closed:
                return False
            self._active = [job for job in self._active if not job.cancelled]
            while self._waiting and len(self._active) + len(self._waiting[0]) <= self.max_batch:
                group = self._waiting.popleft()
                self._waiting_rows -= len(group)
                self._active += [job for job in group if not job.cancelled]
            rows = list(self._active)
        if not rows:
            return True
        started = time.perf_counter()
        try:
            logits, padding = self._forward([job._row for job in rows])
        except Exception as error:          # e.g. out of memory: these requests fail, the server goes on
            for job in rows:
                job._post(error)
            with self._wake:
                self._active = [job for job in self._active if job not in rows]
            return True
        seconds = time.perf_counter() - started
        finished = []
        for i, job in enumerate(rows):
            job._row.apply(logits[i:i + 1, padding[i]:])
            finished.append((job, job._row.settle()))
        with self._wake:
            self._active = [job for job in self._active if not job._row.done]
        # Handed out after that, so a caller that has its final block sees the batch without it; and before
        # on_pass, so a job that left the batch has its blocks even if the loop dies after this point.
        for job, blocks in finished:
            for block in blocks:
                job._post(block)
        if self.on_pass is not None:
            self.on_pass(PassReport(len(rows), len(rows) * logits.shape[1], seconds))
        return True

    def _forward(self, rows: list[_Row]) -> tuple[torch.Tensor, list[int]]:
        """One network pass over the rows' canvases, left-padded to the longest: logits and each row's padding."""
        if len(rows) == 1:                  # exactly the call a decode alone makes
            return self.model(rows[0].canvas), [0]
        longest = max(row.length for row in rows)
        padding = [longest - row.length for row in rows]
        x = torch.full((len(rows), longest), self.pad_id, dtype=torch.long, device=self.device)
        for i, row in enumerate(rows):
            x[i, padding[i]:] = row.canvas[0]
        # Always a mask with several rows, even of one length: model.attend then computes each row on its
        # own, with the shapes it has alone. The model counts each row's positions from its first real token.
        attention_mask = torch.arange(longest, device=self.device)[None, :] >= torch.tensor(padding, device=self.device)[:, None]
        return self.model(x, attention_mask), padding

    def _fail_all(self, error: BaseException) -> None:
        with self._wake:
            jobs = self._active + [job for group in self._waiting for job in group]
            self._active, self._waiting, self._waiting_rows = [], collections.deque(), 0
        for job in jobs:
            job._post(error)
