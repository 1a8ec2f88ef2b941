"""Model shapes with random weights, for speed measurements at sizes no trained checkpoint has.

Weights ~ N(0, 1/fan_in), norms 1, and the output head x40 (as the golden model), so logits spread
~40 and confidence is peaked like a trained model's: threshold decoding then takes a realistic number
of passes instead of revealing one token per pass.
"""
import torch

from dllm_core.model import LLaDAConfig, LLaDAModel

SHAPES = {  # name: (d_model, n_heads, n_layers, mlp_hidden_size, vocab)
    "5M": (256, 4, 4, 688, 4096),
    "30M": (512, 8, 8, 1376, 4096),
    "120M": (768, 12, 12, 2304, 16384),
    "LLaDA-8B": (4096, 32, 32, 12288, 126464),
}


def random_model(shape: str, dtype: torch.dtype = torch.float32, device="cpu", *, mask_id: int | None = None,
                 eos_id: int | None = None, pad_id: int | None = None,
                 max_sequence_length: int = 4096) -> tuple[LLaDAModel, LLaDAConfig]:
    """The shape with random weights (seed 0). Special ids default to the top of the vocabulary; pass a
    tokenizer's ids to decode its prompts (ids above the tokenizer's range then decode to nothing)."""
    d, heads, layers, mlp, vocab = SHAPES[shape]
    config = LLaDAConfig(d_model=d, n_heads=heads, n_kv_heads=heads, n_layers=layers, mlp_hidden_size=mlp,
                         vocab_size=vocab, embedding_size=vocab,
                         mask_token_id=vocab - 1 if mask_id is None else mask_id,
                         eos_token_id=vocab - 2 if eos_id is None else eos_id,
                         pad_token_id=vocab - 2 if pad_id is None else pad_id,
                         max_sequence_length=max_sequence_length)
    torch.manual_seed(0)
    with torch.device("meta"):
        model = LLaDAModel(config)
    model = model.to_empty(device=device).to(dtype)
    with torch.no_grad():
        for p in model.parameters():
            p.fill_(1.0) if p.dim() == 1 else p.normal_(0, p.shape[1] ** -0.5)
        model.transformer.ff_out.weight.mul_(40)
    return model.eval(), config
