"""The autoregressive yardstick: the same network run left to right with a causal mask and a KV cache.

Every speed claim of the diffusion decoders is measured against this greedy decoder on the same weights.
"""
import torch

from .decoding import Generation, trim_at_eos


def ar_generate(model, prompts: list[list[int]], max_new_tokens: int, *, eos_id: int | None = None) -> Generation:
    """Greedy decoding of equal-length prompts, one network pass per token; each row is cut before its
    EOS, and decoding ends when every row has produced one."""
    if not prompts or not prompts[0] or len({len(p) for p in prompts}) > 1 or max_new_tokens < 1:
        raise ValueError("need non-empty prompts of equal length and max_new_tokens >= 1")
    device = model.transformer.wte.weight.device
    with torch.inference_mode():
        logits, cache = model(torch.tensor(prompts, device=device), causal=True, return_key_values=True)
        passes, columns = 1, []
        finished = torch.zeros(len(prompts), dtype=torch.bool, device=device)
        while True:
            token = logits[:, -1].argmax(-1)
            columns.append(token)
            if eos_id is not None:
                finished |= token == eos_id
            if len(columns) == max_new_tokens or bool(finished.all()):
                break
            logits, cache = model(token[:, None], past_key_values=cache, return_key_values=True)
            passes += 1
    rows = torch.stack(columns, dim=1).tolist()
    return Generation([trim_at_eos(row, eos_id, True) for row in rows], passes)
