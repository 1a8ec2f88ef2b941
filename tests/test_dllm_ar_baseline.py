"""The autoregressive baseline: its KV cache gives exactly what recomputing the causal pass would."""
from pathlib import Path

import pytest
import torch

from dllm_core.ar_baseline import ar_generate
from dllm_core.checkpoint import load_model

GOLDEN = Path(__file__).parent / "data" / "llada-tiny"


@pytest.fixture(autouse=True, scope="module")
def one_thread():
    """The tiny golden model runs fastest on one thread; more only wait on each other on a busy machine."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def greedy_without_cache(model, prompt, n):
    ids = list(prompt)
    with torch.no_grad():
        for _ in range(n):
            ids.append(int(model(torch.tensor([ids]), causal=True)[0, -1].argmax()))
    return ids[len(prompt):]


def test_cached_greedy_equals_recomputed_greedy():
    model = load_model(GOLDEN)[0]
    prompt = [68, 143, 127, 30, 278, 51, 40]
    out = ar_generate(model, [prompt], 12)
    assert out.tokens[0] == greedy_without_cache(model, prompt, 12)
    assert out.forward_passes == 12


def test_stops_at_eos():
    model = load_model(GOLDEN)[0]
    prompt = [68, 143, 127, 30, 278, 51, 40]
    expected = greedy_without_cache(model, prompt, 12)
    out = ar_generate(model, [prompt], 12, eos_id=expected[5])
    assert out.tokens[0] == expected[:expected.index(expected[5])]


def test_batch_rows_equal_rows_alone():
    model = load_model(GOLDEN)[0]
    prompts = [[68, 143, 127, 30], [5, 6, 7, 8]]
    out = ar_generate(model, prompts, 6)
    assert out.tokens == [ar_generate(model, [p], 6).tokens[0] for p in prompts]
