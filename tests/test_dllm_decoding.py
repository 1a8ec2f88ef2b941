"""Decoders against the golden cases, and what goes beyond the reference: batching, EOS stop, budget, streaming."""
import asyncio
import copy
import json
import threading
from pathlib import Path

import pytest
import torch

from dllm_core.decoding import DecodeParams, denoise, generate, stream_generate, stream_generate_together
from pass_gate import PassGate

GOLDEN = Path(__file__).parent / "data" / "llada-tiny"
CASES = json.loads((GOLDEN / "generate_cases.json").read_text())["cases"]
MASK, EOS = 300, 301


pytestmark = pytest.mark.usefixtures("one_torch_thread")


@pytest.fixture
def model(golden_model):
    return golden_model


def case_params(case, **overrides) -> DecodeParams:
    return DecodeParams(**{"algorithm": case["algorithm"], "stop_at_eos": False, **case["params"], **overrides})


def case_id(case) -> str:
    return f"{case['algorithm']}-{'-'.join(f'{k}{v}' for k, v in case['params'].items())}-p{len(case['prompt_ids'])}"


@pytest.mark.parametrize("case", CASES, ids=[f"{i}-{case_id(c)}" for i, c in enumerate(CASES)])
def test_golden_case_tokens_and_forward_passes(model, case):
    out = generate(model, [case["prompt_ids"]], case_params(case), mask_id=MASK, eos_id=EOS)
    assert out.tokens[0] == case["expected_ids"]
    assert out.forward_passes == case["forward_passes"]


@pytest.mark.parametrize("first", range(12), ids=[case_id(CASES[i]) for i in range(12)])
def test_batched_rows_equal_rows_alone(model, first):
    # Cases first, first+12, first+24, first+36 share params and have prompts of lengths 16, 17, 4, 16.
    group = [CASES[first + 12 * j] for j in range(4)]
    out = generate(model, [c["prompt_ids"] for c in group], case_params(group[0]), mask_id=MASK, eos_id=EOS, pad_id=EOS)
    assert out.tokens == [c["expected_ids"] for c in group]
    # A batch moves to the next block when its slowest row is done there.
    passes = [c["forward_passes"] for c in group]
    assert max(passes) <= out.forward_passes <= sum(passes)


def swapped(model, a: int, b: int):
    """The same network with tokens a and b renamed: it writes b wherever the original wrote a."""
    twin = copy.deepcopy(model)
    for weight in (twin.transformer.wte.weight, twin.transformer.ff_out.weight):
        weight.data[[a, b]] = weight.data[[b, a]]
    return twin


@pytest.mark.parametrize("index, eos_at, passes", [(1, 11, 8), (5, 8, None), (10, 8, None)])
def test_stop_at_eos_skips_later_blocks_and_trims(model, index, eos_at, passes):
    case = CASES[index]
    token = case["expected_ids"][eos_at]
    assert token not in case["prompt_ids"] and token not in case["expected_ids"][:eos_at]
    twin = swapped(model, token, EOS)
    full = generate(twin, [case["prompt_ids"]], case_params(case), mask_id=MASK, eos_id=EOS)
    assert full.tokens[0] == [EOS if t == token else t for t in case["expected_ids"]]
    stopped = generate(twin, [case["prompt_ids"]], case_params(case, stop_at_eos=True), mask_id=MASK, eos_id=EOS)
    assert stopped.tokens[0] == case["expected_ids"][:eos_at]
    assert stopped.forward_passes < full.forward_passes
    if passes is not None:
        assert stopped.forward_passes == passes


def test_stop_at_eos_in_a_batch_stops_each_row(model):
    group = [CASES[1], CASES[13]]
    token = CASES[1]["expected_ids"][11]
    twin = swapped(model, token, EOS)
    out = generate(twin, [c["prompt_ids"] for c in group], case_params(CASES[1], stop_at_eos=True),
                   mask_id=MASK, eos_id=EOS, pad_id=EOS)
    assert out.tokens[0] == CASES[1]["expected_ids"][:11]
    assert len(out.tokens[1]) == 32 or EOS not in out.tokens[1]
    assert MASK not in out.tokens[1]


@pytest.mark.parametrize("algorithm", ["llada", "threshold", "prefix_cache_threshold", "dual_cache", "dual_cache_threshold"])
@pytest.mark.parametrize("budget", [1, 3, 5])
def test_forward_pass_budget_caps_passes_and_fills_every_mask(model, algorithm, budget):
    params = DecodeParams(algorithm=algorithm, gen_length=32, block_length=8, steps=32, threshold=0.99,
                          max_forward_passes=budget, stop_at_eos=False)
    out = generate(model, [CASES[0]["prompt_ids"]], params, mask_id=MASK, eos_id=EOS)
    assert out.forward_passes <= budget
    assert len(out.tokens[0]) == 32 and MASK not in out.tokens[0]


def test_generous_budget_changes_nothing(model):
    case = CASES[9]
    out = generate(model, [case["prompt_ids"]], case_params(case, max_forward_passes=case["forward_passes"]),
                   mask_id=MASK, eos_id=EOS)
    assert (out.tokens[0], out.forward_passes) == (case["expected_ids"], case["forward_passes"])


@pytest.mark.parametrize("algorithm", ["llada", "threshold", "dual_cache_threshold"])
def test_temperature_sampling_is_seeded(model, algorithm):
    # The golden head is scaled by 40, so only a high temperature makes samples differ.
    params = DecodeParams(algorithm=algorithm, gen_length=16, block_length=8, steps=8, temperature=10.0, stop_at_eos=False)
    prompt = CASES[0]["prompt_ids"]
    first = generate(model, [prompt], params, mask_id=MASK, seed=7).tokens[0]
    assert first == generate(model, [prompt], params, mask_id=MASK, seed=7).tokens[0]
    assert MASK not in first and len(first) == 16
    others = {tuple(generate(model, [prompt], params, mask_id=MASK, seed=s).tokens[0]) for s in range(4)}
    assert len(others) > 1


def test_bad_params_are_refused(model):
    prompt = CASES[0]["prompt_ids"]
    for params in (DecodeParams(algorithm="beam"), DecodeParams(gen_length=30, block_length=8),
                   DecodeParams(algorithm="llada", gen_length=32, block_length=8, steps=6),
                   DecodeParams(max_forward_passes=0)):
        with pytest.raises(ValueError):
            generate(model, [prompt], params, mask_id=MASK)


class WordTokenizer:
    """Test stand-in that spells each id as a word, to check the text the stream carries."""

    def decode(self, ids):
        return " ".join(f"w{i}" for i in ids)


@pytest.mark.parametrize("index", [1, 5, 11])
async def test_stream_yields_final_blocks_in_order(model, index):
    case = CASES[index]
    params = case_params(case)
    blocks = [b async for b in stream_generate(model, case["prompt_ids"], params, mask_id=MASK, eos_id=EOS,
                                               tokenizer=WordTokenizer())]
    assert [b.index for b in blocks] == list(range(params.gen_length // params.block_length))
    assert [b.last for b in blocks] == [False] * (len(blocks) - 1) + [True]
    assert sum((b.tokens for b in blocks), []) == case["expected_ids"]
    assert blocks[-1].forward_passes == case["forward_passes"]
    assert all(a.forward_passes < b.forward_passes for a, b in zip(blocks, blocks[1:]))
    assert "".join(b.text for b in blocks).strip() == WordTokenizer().decode(case["expected_ids"])


async def test_stream_stops_at_eos_like_generate(model):
    case = CASES[1]
    twin = swapped(model, case["expected_ids"][11], EOS)
    params = case_params(case, stop_at_eos=True)
    blocks = [b async for b in stream_generate(twin, case["prompt_ids"], params, mask_id=MASK, eos_id=EOS)]
    assert [b.index for b in blocks] == [0, 1] and blocks[-1].last
    assert blocks[1].tokens == case["expected_ids"][8:11]
    assert blocks[-1].forward_passes == generate(twin, [case["prompt_ids"]], params, mask_id=MASK, eos_id=EOS).forward_passes


async def test_stream_together_gives_each_row_its_blocks_alone_in_the_batchs_passes(model):
    """Several prompts streamed as one batch (a request and its clauses): each row's blocks are those it gets
    alone, and every row has them within the passes of the batch."""
    group = [CASES[1 + 12 * j] for j in range(4)]          # one params, prompts of lengths 16, 17, 4, 16
    params = case_params(group[0])
    items = [rows async for rows in stream_generate_together(model, [c["prompt_ids"] for c in group], params,
                                                             mask_id=MASK, eos_id=EOS)]
    for row, case in enumerate(group):
        assert sum((item[row].tokens for item in items), []) == case["expected_ids"]
        assert [item[row].last for item in items] == [False] * (len(items) - 1) + [True]
    batch = generate(model, [c["prompt_ids"] for c in group], params, mask_id=MASK, eos_id=EOS)
    assert {block.forward_passes for block in items[-1]} == {batch.forward_passes}


def test_a_row_with_nothing_left_to_reveal_skips_the_network(model):
    """In a batch, a row whose block is revealed waits for the others without a network pass: the rows run
    through the network are the passes each row takes alone, and each still gets its tokens."""
    group = [CASES[5 + 12 * j] for j in range(4)]          # threshold, one params, 6, 4, 9 and 8 passes alone
    gate = PassGate(model)
    gate.open()
    try:
        out = generate(model, [c["prompt_ids"] for c in group], case_params(group[0]), mask_id=MASK, eos_id=EOS)
    finally:
        gate.remove()
    assert out.tokens == [c["expected_ids"] for c in group]
    assert sum(gate.rows) == sum(c["forward_passes"] for c in group) < len(group) * out.forward_passes


async def test_stream_together_ends_a_row_at_its_eos_and_goes_on_with_the_others(model):
    case = CASES[1]
    twin = swapped(model, case["expected_ids"][11], EOS)
    params = case_params(case, stop_at_eos=True)
    prompts = [case["prompt_ids"], CASES[13]["prompt_ids"]]
    alone = [[b async for b in stream_generate(twin, prompt, params, mask_id=MASK, eos_id=EOS)] for prompt in prompts]
    items = [rows async for rows in stream_generate_together(twin, prompts, params, mask_id=MASK, eos_id=EOS)]
    assert len(alone[0]) < len(alone[1]) == len(items)
    for row, blocks in enumerate(alone):
        assert [item[row].tokens for item in items[:len(blocks)]] == [b.tokens for b in blocks]
        assert items[len(blocks) - 1][row].last and all(item[row] is None for item in items[len(blocks):])


async def test_stream_keeps_the_event_loop_free_and_stops_when_abandoned(model):
    params = DecodeParams(algorithm="llada", gen_length=64, block_length=8, steps=64, stop_at_eos=False)
    ticks = 0

    async def ticker():
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0)

    tick_task = asyncio.create_task(ticker())
    stream = stream_generate(model, CASES[0]["prompt_ids"], params, mask_id=MASK)
    first = await stream.__anext__()
    await stream.aclose()
    tick_task.cancel()
    assert first.index == 0 and len(first.tokens) == 8
    assert ticks > 1
    for thread in [t for t in threading.enumerate() if t.name == "dllm-denoise"]:
        thread.join(timeout=30)
        assert not thread.is_alive()


def test_denoise_stops_between_passes_when_asked(model):
    params = DecodeParams(algorithm="llada", gen_length=32, block_length=8, steps=16, stop_at_eos=False)
    calls = 0

    def should_stop():
        nonlocal calls
        calls += 1
        return calls > 6

    blocks = list(denoise(model, [CASES[0]["prompt_ids"]], params, mask_id=MASK, should_stop=should_stop))
    assert [b.index for b in blocks] == [0] and blocks[0].forward_passes == 4
    assert torch.all(blocks[0].tokens != MASK)


def test_batch_without_pad_or_eos_id_pads_with_an_ordinary_token(model):
    group = [CASES[5], CASES[29]]
    out = generate(model, [c["prompt_ids"] for c in group], case_params(group[0]), mask_id=MASK)
    assert out.tokens == [c["expected_ids"] for c in group]
