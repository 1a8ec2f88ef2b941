"""The autoregressive yardstick: the same network run left to right with a causal mask and a KV cache.

Every speed claim of the diffusion decoders is measured against this greedy decoder on the same weights.
"""
import torch

from .decoding import Generation


def ar_generate(model, prompt: list[int], max_new_tokens: int, *, eos_id: int | None = None) -> Generation:
    """Greedy decoding, one network pass per token; stops after EOS (which is not returned)."""
    if not prompt or max_new_tokens < 1:
        raise ValueError("need a non-empty prompt and max_new_tokens >= 1")
    device = model.transformer.wte.weight.device
    with torch.inference_mode():
        logits, cache = model(torch.tensor([prompt], device=device), causal=True, return_key_values=True)
        passes, tokens = 1, []
        while True:
            token = int(logits[0, -1].argmax())
            if token == eos_id:
                break
            tokens.append(token)
            if len(tokens) == max_new_tokens:
                break
            logits, cache = model(torch.tensor([[token]], device=device), past_key_values=cache, return_key_values=True)
            passes += 1
    return Generation([tokens], passes)
