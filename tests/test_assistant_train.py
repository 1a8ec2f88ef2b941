"""Training runs end to end on a tiny config, writes a loadable checkpoint, and resumes where it stopped."""
import json

import torch

from dllm_core.checkpoint import load_model
from assistant.tokenizer import Tokenizer
from assistant.train import TrainConfig, sft_loss, train

TINY = dict(d_model=32, n_layers=1, n_heads=2, n_kv_heads=2, mlp_ratio=2, vocab_size=300, corpus_size=400,
            tokenizer_examples=400, batch_size=8, warmup=2, save_every=3)


def test_train_writes_checkpoint_plot_and_resumes(tmp_path):
    first = train(TrainConfig(steps=3, **TINY), tmp_path, progress=False)
    assert first["steps"] == 3
    for name in ("config.json", "model.safetensors", "tokenizer.json", "loss.png", "train_state.pt"):
        assert (tmp_path / name).exists()
    resumed = train(TrainConfig(steps=6, **TINY), tmp_path, resume=True, progress=False)
    assert resumed["steps"] == 6 and len(json.loads((tmp_path / "losses.json").read_text())) == 6
    model, config = load_model(tmp_path)
    tokenizer = Tokenizer.load(tmp_path)
    assert config.mask_token_id == tokenizer.mask_id and config.vocab_size == len(tokenizer)


def test_resumed_run_equals_uninterrupted_run(tmp_path):
    train(TrainConfig(steps=3, **TINY), tmp_path / "a", progress=False)
    train(TrainConfig(steps=6, **TINY), tmp_path / "a", resume=True, progress=False)
    train(TrainConfig(steps=6, **TINY), tmp_path / "b", progress=False)
    a = json.loads((tmp_path / "a" / "losses.json").read_text())
    b = json.loads((tmp_path / "b" / "losses.json").read_text())
    assert a == b


def test_sft_loss_only_counts_masked_reply_tokens():
    from dllm_core.model import LLaDAConfig, LLaDAModel
    torch.manual_seed(0)
    config = LLaDAConfig(d_model=16, n_heads=2, n_kv_heads=2, n_layers=1, mlp_hidden_size=32, vocab_size=20,
                         embedding_size=20, mask_token_id=1, eos_token_id=2, pad_token_id=0)
    model = LLaDAModel(config)
    ids = torch.randint(3, 20, (4, 10))
    mask = torch.ones(4, 10, dtype=torch.bool)
    loss = sft_loss(model, ids, mask, 6, 1, torch.Generator().manual_seed(0), full_mask_share=1.0)
    # t = 1 for every row: plain mean cross-entropy over the 4 reply tokens.
    with torch.no_grad():
        noisy = ids.clone()
        noisy[:, 6:] = 1
        want = torch.nn.functional.cross_entropy(model(noisy, mask)[:, 6:].reshape(-1, 20), ids[:, 6:].reshape(-1))
    assert torch.allclose(loss, want, atol=1e-5)
