"""The autoregressive baseline: its KV cache gives exactly what recomputing the causal pass would."""
import pytest
import torch

from dllm_core.ar_baseline import ar_generate

pytestmark = pytest.mark.usefixtures("one_torch_thread")


def greedy_without_cache(model, prompt, n):
    ids = list(prompt)
    with torch.no_grad():
        for _ in range(n):
            ids.append(int(model(torch.tensor([ids]), causal=True)[0, -1].argmax()))
    return ids[len(prompt):]


def test_cached_greedy_equals_recomputed_greedy(golden_model):
    model = golden_model
    prompt = [68, 143, 127, 30, 278, 51, 40]
    out = ar_generate(model, [prompt], 12)
    assert out.tokens[0] == greedy_without_cache(model, prompt, 12)
    assert out.forward_passes == 12


def test_stops_at_eos(golden_model):
    model = golden_model
    prompt = [68, 143, 127, 30, 278, 51, 40]
    expected = greedy_without_cache(model, prompt, 12)
    out = ar_generate(model, [prompt], 12, eos_id=expected[5])
    assert out.tokens[0] == expected[:expected.index(expected[5])]


def test_batch_rows_equal_rows_alone(golden_model):
    model = golden_model
    prompts = [[68, 143, 127, 30], [5, 6, 7, 8]]
    out = ar_generate(model, prompts, 6)
    assert out.tokens == [ar_generate(model, [p], 6).tokens[0] for p in prompts]
