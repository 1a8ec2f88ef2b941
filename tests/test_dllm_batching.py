"""Continuous batching: requests that join and leave one shared forward get exactly the tokens of each alone."""
import asyncio
import json
from pathlib import Path

import pytest

from dllm_core.batching import BatcherClosed, ContinuousBatcher, QueueFull
from dllm_core.decoding import DecodeParams, generate
from pass_gate import PassGate

GOLDEN = Path(__file__).parent / "data" / "llada-tiny"
CASES = json.loads((GOLDEN / "generate_cases.json").read_text())["cases"]
MASK, EOS = 300, 301
# The cache-free cases: llada and threshold, with prompts of 16, 17, 4 and 16 tokens, one to six blocks.
BATCHABLE_CASES = [c for c in CASES if c["algorithm"] in ("llada", "threshold")]

pytestmark = pytest.mark.usefixtures("one_torch_thread")


async def collect(job) -> tuple[list[int], int]:
    tokens, passes = [], 0
    async for block in job.blocks():
        tokens.extend(block.tokens)
        passes = block.forward_passes
    return tokens, passes


def case_params(case) -> DecodeParams:
    return DecodeParams(**{"algorithm": case["algorithm"], "stop_at_eos": False, **case["params"]})


async def test_rows_joining_mid_decode_get_the_reference_tokens_and_passes(golden_model):
    """Golden cases of every cache-free decoder, block length and prompt length, joining a running batch a
    few at a time: each ends with the tokens and pass count the reference recorded for it alone."""
    gate = PassGate(golden_model)
    batcher = ContinuousBatcher(golden_model, mask_id=MASK, eos_id=EOS, max_batch=64)
    # One request first (the worker starts its pass at once), then a wave of the others at each pass.
    waves = [BATCHABLE_CASES[:1]] + [BATCHABLE_CASES[1:][i::4] for i in range(4)]

    def submit(wave):
        return [asyncio.create_task(collect(batcher.submit(c["prompt_ids"], case_params(c)))) for c in wave]

    try:
        tasks = submit(waves[0])
        for wave in waves[1:]:
            await gate.arrival()         # a pass is held: the next wave joins the pass after it
            tasks += submit(wave)
            gate.step()
        gate.open()
        results = await asyncio.gather(*tasks)
    finally:
        gate.remove()
        batcher.close()
    cases = [c for wave in waves for c in wave]
    assert [tokens for tokens, _ in results] == [c["expected_ids"] for c in cases]
    assert [passes for _, passes in results] == [c["forward_passes"] for c in cases]
    # Wave k joins at pass k and leaves after its own passes: the rows of every shared forward.
    spans = [(k, k + c["forward_passes"]) for k, wave in enumerate(waves) for c in wave]
    assert gate.rows == [sum(a <= p < b for a, b in spans) for p in range(max(b for _, b in spans))]


async def test_embedded_replies_batched_equal_each_decoded_alone(assistant):
    """The embedded decode (threshold, 4 passes at most, stop at EOS) of requests of different lengths,
    all in flight at once, against dllm_core.decoding alone."""
    from assistant.embedded import DEFAULT_DECODE

    requests = ["turn on the kitchen light", "what is seven times six", "hello", "set a timer for ten minutes",
                "what's the humidity in the bathroom", "convert five miles to kilometers", "what time is it",
                "dim the living room lights to thirty percent please", "thank you", "tell me a joke",
                "turn off the fan in the bedroom and then tell me what the date is today", "cancel the timer"]
    prompts = [assistant.prompt_ids([{"role": "user", "content": text}])[0] for text in requests]
    assert len({len(p) for p in prompts}) > 4
    config = assistant.config
    alone = [generate(assistant.model, [p], DEFAULT_DECODE, mask_id=config.mask_token_id, eos_id=config.eos_token_id)
             for p in prompts]
    gate = PassGate(assistant.model)
    batcher = ContinuousBatcher(assistant.model, mask_id=config.mask_token_id, eos_id=config.eos_token_id,
                                pad_id=config.pad_token_id)
    try:
        first = asyncio.create_task(collect(batcher.submit(prompts[0], DEFAULT_DECODE)))
        await gate.arrival()
        rest = [asyncio.create_task(collect(batcher.submit(p, DEFAULT_DECODE))) for p in prompts[1:]]
        gate.open()
        results = await asyncio.gather(first, *rest)
    finally:
        gate.remove()
        batcher.close()
    assert [tokens for tokens, _ in results] == [out.tokens[0] for out in alone]
    assert [passes for _, passes in results] == [out.forward_passes for out in alone]
    assert gate.rows[:2] == [1, len(prompts) - 1 + (alone[0].forward_passes > 1)]


async def test_sampled_rows_are_seeded_as_alone(golden_model):
    params = DecodeParams(algorithm="threshold", gen_length=16, block_length=8, threshold=0.9, temperature=10.0,
                          stop_at_eos=False)
    prompts = [CASES[0]["prompt_ids"], CASES[2 * 12]["prompt_ids"]]
    alone = [generate(golden_model, [p], params, mask_id=MASK, seed=7).tokens[0] for p in prompts]
    batcher = ContinuousBatcher(golden_model, mask_id=MASK, eos_id=EOS)
    try:
        results = await asyncio.gather(*(collect(batcher.submit(p, params, seed=7)) for p in prompts))
    finally:
        batcher.close()
    assert [tokens for tokens, _ in results] == alone


async def test_a_full_queue_refuses_and_a_cancelled_job_leaves(golden_model):
    gate = PassGate(golden_model)
    batcher = ContinuousBatcher(golden_model, mask_id=MASK, eos_id=EOS, max_batch=1, max_waiting=1)
    params = case_params(CASES[2])      # llada, 32 passes
    try:
        running = batcher.submit(CASES[2]["prompt_ids"], params)
        await gate.arrival()
        waiting = batcher.submit(CASES[2]["prompt_ids"], params)
        with pytest.raises(QueueFull):
            batcher.submit(CASES[2]["prompt_ids"], params)
        assert (batcher.in_flight, batcher.waiting) == (1, 1)
        running.cancel()
        gate.open()
        tokens, passes = await collect(waiting)
        assert tokens == CASES[2]["expected_ids"] and passes == 32
        assert batcher.in_flight == 0 and batcher.waiting == 0
        assert gate.rows.count(1) == len(gate.rows)    # the cancelled job never shared a pass with it
        assert len(gate.rows) == 1 + 32
    finally:
        gate.remove()
        batcher.close()


async def test_rows_submitted_together_join_at_one_pass_and_need_a_place_each(golden_model):
    """A request and its clauses: rows that wait until the batch has a place for every one, then start at the
    same pass, each with the tokens and passes it has alone; they count as that many rows against the limits."""
    gate = PassGate(golden_model)
    batcher = ContinuousBatcher(golden_model, mask_id=MASK, eos_id=EOS, max_batch=3, max_waiting=2)
    group = [CASES[5 + 12 * j] for j in range(3)]     # threshold, one params, 6, 4 and 9 passes alone
    try:
        running = batcher.submit(CASES[2]["prompt_ids"], case_params(CASES[2]))
        await gate.arrival()
        jobs = batcher.submit_together([c["prompt_ids"] for c in group], case_params(group[0]))
        with pytest.raises(QueueFull):          # 3 rows wait and 2 more do not fit 3 - 1 + 2 places
            batcher.submit_together([c["prompt_ids"] for c in group[:2]], case_params(group[0]))
        with pytest.raises(ValueError, match="max_batch"):
            batcher.submit_together([c["prompt_ids"] for c in CASES[5:53:12]], case_params(group[0]))
        assert (batcher.in_flight, batcher.waiting) == (1, 3)
        running.cancel()
        gate.open()
        results = await asyncio.gather(*(collect(job) for job in jobs))
        assert results == [(c["expected_ids"], c["forward_passes"]) for c in group]
        assert gate.rows[1:] == [3] * 4 + [2] * 2 + [1] * 3      # every row from the same pass, each leaving when done
    finally:
        gate.remove()
        batcher.close()


async def test_bad_requests_are_refused_at_submit_and_close_fails_the_rest(golden_model):
    batcher = ContinuousBatcher(golden_model, mask_id=MASK, eos_id=EOS)
    prompt = CASES[0]["prompt_ids"]
    with pytest.raises(ValueError, match="does not batch"):
        batcher.submit(prompt, DecodeParams(algorithm="dual_cache_threshold"))
    with pytest.raises(ValueError, match="max_sequence_length"):
        batcher.submit(prompt * 40, DecodeParams())
    with pytest.raises(ValueError):
        batcher.submit(prompt, DecodeParams(gen_length=30, block_length=8))
    gate = PassGate(golden_model)
    try:
        job = batcher.submit(prompt, case_params(CASES[2]))
        await gate.arrival()
        closing = asyncio.create_task(asyncio.to_thread(batcher.close))
        gate.open()
        await closing
        with pytest.raises(BatcherClosed):
            await collect(job)
        with pytest.raises(BatcherClosed):
            batcher.submit(prompt, DecodeParams())
    finally:
        gate.remove()
