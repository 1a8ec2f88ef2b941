"""The LLaDA architecture in one file: a bidirectional LLaMA-style transformer that predicts masked tokens.

Parameter names follow LLaDA's checkpoints (``model.transformer.blocks.{i}.q_proj.weight`` is this module's
``transformer.blocks.{i}.q_proj.weight``), so real LLaDA weights load without renaming.
"""
from dataclasses import asdict, dataclass, fields

import torch
import torch.nn.functional as F
from torch import nn


@dataclass
class LLaDAConfig:
    """The fields of LLaDA's config.json that determine the network; other fields are ignored."""

    d_model: int
    n_heads: int
    n_kv_heads: int
    n_layers: int
    mlp_hidden_size: int
    vocab_size: int
    embedding_size: int
    rope_theta: float = 500000.0
    rms_norm_eps: float = 1e-5
    mask_token_id: int = 126336
    eos_token_id: int = 126081
    pad_token_id: int = 126081
    max_sequence_length: int = 4096

    @classmethod
    def from_dict(cls, d: dict) -> "LLaDAConfig":
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in names})

    def to_dict(self) -> dict:
        """config.json content that LLaDA's own loader accepts too (it needs the architecture switches)."""
        return {
            "architectures": ["LLaDAModelLM"],
            "model_type": "llada",
            "activation_type": "silu",
            "block_type": "llama",
            "layer_norm_type": "rms",
            "rope": True,
            "rope_full_precision": True,
            "alibi": False,
            "include_bias": False,
            "include_qkv_bias": False,
            "weight_tying": False,
            "scale_logits": False,
            "input_emb_norm": False,
            "mlp_ratio": self.mlp_hidden_size // self.d_model,
            **asdict(self),
        }

    @property
    def head_dim(self) -> int:
        return self.d_model // self.n_heads


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        # Normalise in float32 even for bfloat16 weights, as LLaDA does.
        xf = x.float()
        xf = xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + self.eps)
        return self.weight * xf.to(x.dtype)


def rotary_tables(positions: torch.Tensor, head_dim: int, theta: float):
    """cos/sin [B, 1, T, head_dim] in float32 for integer positions [B, T] ("rotate half" layout)."""
    inv_freq = 1.0 / (theta ** (torch.arange(0, head_dim, 2, device=positions.device, dtype=torch.float) / head_dim))
    angles = positions.float()[..., None] * inv_freq
    angles = torch.cat((angles, angles), dim=-1)[:, None]
    return angles.cos(), angles.sin()


def apply_rotary(t, cos, sin):
    t32 = t.float()
    a, b = t32.chunk(2, dim=-1)
    return (t32 * cos + torch.cat((-b, a), dim=-1) * sin).to(t.dtype)


def key_rows(key_mask: torch.Tensor) -> list:
    """Each row's real keys: a slice when they are one run (left padding), else the row's mask.

    Read once per forward, so the layers select keys by slicing: no boolean indexing, which copies and, on a
    GPU, waits for the device at every row of every layer.
    """
    rows = []
    for row, mask in enumerate(key_mask.cpu()):
        real = mask.nonzero().squeeze(-1).tolist()
        contiguous = bool(real) and real[-1] - real[0] + 1 == len(real)
        rows.append(slice(real[0], real[-1] + 1) if contiguous else key_mask[row])
    return rows


def attend(q, k, v, key_mask, rows, causal):
    """softmax(q·kᵀ/√hd)·v over the keys that key_mask [B, S] marks real (all keys when it is None).

    When decoding, a padded row is computed on its real tokens only, with the same shapes as when it is
    alone: a masked softmax over a longer, shifted row rounds differently, and that flips near-tied
    confidences. Training (gradients on) takes the one batched masked kernel, which is much faster.
    rows: key_rows(key_mask), read once per forward (None when it is not needed).
    """
    if key_mask is None:
        return F.scaled_dot_product_attention(q, k, v, is_causal=causal)
    if torch.is_grad_enabled():
        return F.scaled_dot_product_attention(q, k, v, attn_mask=key_mask[:, None, None, :], is_causal=causal)
    y = torch.zeros_like(q)
    for row in range(q.shape[0]):
        keys = rows[row]
        # Without a cache the queries are the keys, so padded queries are skipped too.
        queries = keys if q.shape[2] == k.shape[2] else slice(None)
        y[row, :, queries] = F.scaled_dot_product_attention(
            q[row:row + 1, :, queries], k[row:row + 1, :, keys], v[row:row + 1, :, keys], is_causal=causal)[0]
    return y


class Block(nn.Module):
    """Pre-norm block: rotary self-attention without a causal mask, then a SwiGLU MLP."""

    def __init__(self, config: LLaDAConfig):
        super().__init__()
        d, hd = config.d_model, config.head_dim
        self.n_heads, self.n_kv_heads, self.head_dim = config.n_heads, config.n_kv_heads, hd
        self.attn_norm = RMSNorm(d, config.rms_norm_eps)
        self.q_proj = nn.Linear(d, config.n_heads * hd, bias=False)
        self.k_proj = nn.Linear(d, config.n_kv_heads * hd, bias=False)
        self.v_proj = nn.Linear(d, config.n_kv_heads * hd, bias=False)
        self.attn_out = nn.Linear(d, d, bias=False)
        self.ff_norm = RMSNorm(d, config.rms_norm_eps)
        self.ff_proj = nn.Linear(d, config.mlp_hidden_size, bias=False)
        self.up_proj = nn.Linear(d, config.mlp_hidden_size, bias=False)
        self.ff_out = nn.Linear(config.mlp_hidden_size, d, bias=False)

    def forward(self, x, cos, sin, key_mask, rows, past, cache_start, causal):
        B, T, _ = x.shape
        n = self.attn_norm(x)
        q = self.q_proj(n).view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(n).view(B, T, self.n_kv_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(n).view(B, T, self.n_kv_heads, self.head_dim).transpose(1, 2)
        q, k = apply_rotary(q, cos, sin), apply_rotary(k, cos, sin)
        if past is not None:
            # New keys/values take the cache's places [cache_start, cache_start+T); the rest is reused.
            pk, pv = past
            k = torch.cat((pk[:, :, :cache_start], k, pk[:, :, cache_start + T:]), dim=2)
            v = torch.cat((pv[:, :, :cache_start], v, pv[:, :, cache_start + T:]), dim=2)
        present = (k, v)
        if self.n_kv_heads != self.n_heads:
            k = k.repeat_interleave(self.n_heads // self.n_kv_heads, dim=1)
            v = v.repeat_interleave(self.n_heads // self.n_kv_heads, dim=1)
        y = attend(q, k, v, key_mask, rows, causal)
        h = x + self.attn_out(y.transpose(1, 2).reshape(B, T, -1))
        n = self.ff_norm(h)
        return h + self.ff_out(F.silu(self.ff_proj(n)) * self.up_proj(n)), present


class LLaDAModel(nn.Module):
    def __init__(self, config: LLaDAConfig):
        super().__init__()
        self.config = config
        self.transformer = nn.ModuleDict(dict(
            wte=nn.Embedding(config.embedding_size, config.d_model),
            blocks=nn.ModuleList(Block(config) for _ in range(config.n_layers)),
            ln_f=RMSNorm(config.d_model, config.rms_norm_eps),
            ff_out=nn.Linear(config.d_model, config.embedding_size, bias=False),
        ))

    def forward(self, input_ids, attention_mask=None, *, position_ids=None, past_key_values=None,
                cache_start=None, causal=False, return_key_values=False):
        """Logits [B, T, embedding_size] for input_ids [B, T].

        attention_mask [B, S] marks the keys that are real tokens (False = padding); S is T, or the
        length of the key sequence after splicing into the cache. Without explicit position_ids the
        new tokens take the positions after the cache, and with a mask each row counts its real tokens
        from 0, so a left-padded row sees the positions it would see alone. past_key_values (one (k, v) per layer, rotary already applied) lets the
        cached decoders run only part of the canvas: the new tokens' keys/values occupy positions
        [cache_start, cache_start + T) of the cache (default: appended at its end). causal=True
        is the autoregressive baseline's prefill.
        """
        B, T = input_ids.shape
        if position_ids is None:
            if attention_mask is None:
                offset = cache_start if cache_start is not None else (0 if past_key_values is None else past_key_values[0][0].shape[2])
                position_ids = torch.arange(offset, offset + T, device=input_ids.device).expand(B, T)
            else:
                position_ids = (attention_mask.long().cumsum(-1) - 1).clamp(min=0)[:, -T:]
        cos, sin = rotary_tables(position_ids, self.config.head_dim, self.config.rope_theta)
        x = self.transformer.wte(input_ids)
        rows = key_rows(attention_mask) if attention_mask is not None and not torch.is_grad_enabled() else None
        presents = []
        for i, block in enumerate(self.transformer.blocks):
            past = None if past_key_values is None else past_key_values[i]
            start = cache_start if cache_start is not None else (0 if past is None else past[0].shape[2])
            x, kv = block(x, cos, sin, attention_mask, rows, past, start, causal)
            presents.append(kv)
        logits = self.transformer.ff_out(self.transformer.ln_f(x))
        return (logits, presents) if return_key_values else logits

    def num_parameters(self) -> int:
        return sum(p.numel() for p in self.parameters())
