"""The LLaDA model and checkpoint loader against the golden tiny model, plus broken checkpoints."""
import json
import shutil
from pathlib import Path

import pytest
import torch
from safetensors.torch import load_file, save_file

from dllm_core.checkpoint import CheckpointError, load_model, save_model
from dllm_core.model import LLaDAConfig, LLaDAModel

GOLDEN = Path(__file__).parent / "data" / "llada-tiny"


pytestmark = pytest.mark.usefixtures("one_torch_thread")


def test_forward_logits_match_reference(golden_model):
    ref = load_file(GOLDEN / "forward_logits.safetensors")
    with torch.no_grad():
        logits = golden_model(ref["input_ids"])[0]
    assert logits.shape == ref["logits"].shape
    assert (logits - ref["logits"]).abs().max().item() < 1e-4


def test_config_keeps_llada_field_names():
    config = LLaDAConfig.from_dict(json.loads((GOLDEN / "config.json").read_text()))
    assert (config.d_model, config.n_heads, config.mask_token_id, config.eos_token_id) == (64, 4, 300, 301)
    assert LLaDAConfig.from_dict(config.to_dict()) == config


def test_save_then_load_round_trip(golden_model, tmp_path):
    config = golden_model.config
    save_model(golden_model, config, tmp_path)
    keys = set(load_file(tmp_path / "model.safetensors"))
    assert keys == set(load_file(GOLDEN / "model.safetensors"))
    assert json.loads((tmp_path / "config.json").read_text())["n_kv_heads"] == 4
    reloaded, reloaded_config = load_model(tmp_path)
    assert reloaded_config == config
    ids = torch.tensor([[1, 2, 3, 300, 300]])
    with torch.no_grad():
        assert torch.equal(reloaded(ids), golden_model(ids))


def test_sharded_load_equals_single_file(golden_model, tmp_path):
    weights = load_file(GOLDEN / "model.safetensors")
    keys = sorted(weights)
    shards = {"model-00001-of-00002.safetensors": keys[: len(keys) // 2],
              "model-00002-of-00002.safetensors": keys[len(keys) // 2:]}
    for name, shard_keys in shards.items():
        save_file({k: weights[k] for k in shard_keys}, str(tmp_path / name))
    index = {"metadata": {}, "weight_map": {k: name for name, ks in shards.items() for k in ks}}
    (tmp_path / "model.safetensors.index.json").write_text(json.dumps(index))
    shutil.copy(GOLDEN / "config.json", tmp_path)
    sharded = load_model(tmp_path)[0]
    ids = torch.tensor([[5, 6, 300, 300, 7]])
    with torch.no_grad():
        assert torch.equal(sharded(ids), golden_model(ids))


def test_dtype_selection():
    model = load_model(GOLDEN, dtype="bfloat16")[0]
    assert model.transformer.wte.weight.dtype == torch.bfloat16
    with torch.no_grad():
        assert model(torch.tensor([[1, 300]])).dtype == torch.bfloat16


def copy_golden(tmp_path) -> Path:
    for name in ("config.json", "model.safetensors"):
        shutil.copy(GOLDEN / name, tmp_path)
    return tmp_path


def test_missing_config_is_named(tmp_path):
    shutil.copy(GOLDEN / "model.safetensors", tmp_path)
    with pytest.raises(CheckpointError, match="config.json"):
        load_model(tmp_path)


def test_missing_weights_file_is_named(tmp_path):
    shutil.copy(GOLDEN / "config.json", tmp_path)
    with pytest.raises(CheckpointError, match="no model.safetensors"):
        load_model(tmp_path)


def test_missing_key_is_named(tmp_path):
    path = copy_golden(tmp_path)
    weights = load_file(path / "model.safetensors")
    del weights["model.transformer.blocks.1.up_proj.weight"]
    save_file(weights, str(path / "model.safetensors"))
    with pytest.raises(CheckpointError, match=r"missing key model\.transformer\.blocks\.1\.up_proj\.weight"):
        load_model(path)


def test_wrong_shape_is_named(tmp_path):
    path = copy_golden(tmp_path)
    config = json.loads((path / "config.json").read_text())
    config["mlp_hidden_size"] = 96
    (path / "config.json").write_text(json.dumps(config))
    with pytest.raises(CheckpointError, match=r"ff_out\.weight has shape \[64, 128\], config.json implies \[64, 96\]"):
        load_model(path)


def test_index_naming_a_missing_shard_is_named(tmp_path):
    path = copy_golden(tmp_path)
    keys = load_file(path / "model.safetensors")
    index = {"weight_map": {k: "model-00001-of-00002.safetensors" for k in keys}}
    index["weight_map"]["model.transformer.ff_out.weight"] = "model-00002-of-00002.safetensors"
    (path / "model.safetensors").rename(path / "model-00001-of-00002.safetensors")
    (path / "model.safetensors.index.json").write_text(json.dumps(index))
    with pytest.raises(CheckpointError, match="model-00002-of-00002.safetensors, which is missing"):
        load_model(path)


def test_grouped_query_attention_runs_and_saves(tmp_path):
    config = LLaDAConfig(d_model=32, n_heads=4, n_kv_heads=2, n_layers=2, mlp_hidden_size=64,
                         vocab_size=50, embedding_size=64, mask_token_id=49, eos_token_id=48, pad_token_id=48)
    torch.manual_seed(0)
    model = LLaDAModel(config)
    assert model.transformer.blocks[0].k_proj.weight.shape == (16, 32)
    ids = torch.randint(0, 49, (2, 7))
    with torch.no_grad():
        logits = model(ids)
        assert logits.shape == (2, 7, 64) and torch.isfinite(logits).all()
        save_model(model, config, tmp_path)
        assert torch.equal(load_model(tmp_path)[0](ids), logits)


def test_padded_rows_match_rows_alone(golden_model):
    """A left-padded, masked row gets the logits it has alone: bitwise when decoding, closely when training."""
    cases = json.loads((GOLDEN / "generate_cases.json").read_text())["cases"]
    rows = [cases[j]["prompt_ids"] + [300] * 16 for j in (0, 12, 24)]
    width = max(map(len, rows))
    ids = torch.tensor([[301] * (width - len(r)) + r for r in rows])
    mask = torch.tensor([[False] * (width - len(r)) + [True] * len(r) for r in rows])
    with torch.no_grad():
        batched = golden_model(ids, mask)
        alone = [golden_model(torch.tensor([r]))[0] for r in rows]
    for row, logits in enumerate(alone):
        assert torch.equal(batched[row, width - len(rows[row]):], logits)
    trained = golden_model(ids, mask)
    for row, logits in enumerate(alone):
        assert (trained[row, width - len(rows[row]):] - logits).abs().max().item() < 1e-3
