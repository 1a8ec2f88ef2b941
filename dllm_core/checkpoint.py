"""Load and save LLaDA-format checkpoint directories (config.json + safetensors, single file or sharded).

The same directory layout as LLaDA's Hugging Face releases, so LLaDA-8B-Instruct loads as is and
Parley's own checkpoints load in LLaDA's code.
"""
import json
from pathlib import Path

import torch
from safetensors import safe_open
from safetensors.torch import save_file

from .model import LLaDAConfig, LLaDAModel

KEY_PREFIX = "model."
DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}


class CheckpointError(ValueError):
    """A checkpoint directory that does not hold what the model needs; the message says what and where."""


def load_config(path) -> LLaDAConfig:
    config_path = Path(path) / "config.json"
    if not config_path.is_file():
        raise CheckpointError(f"{config_path}: missing (a LLaDA checkpoint directory needs config.json)")
    try:
        data = json.loads(config_path.read_text())
    except json.JSONDecodeError as e:
        raise CheckpointError(f"{config_path}: not valid JSON ({e})") from None
    try:
        return LLaDAConfig.from_dict(data)
    except TypeError as e:
        raise CheckpointError(f"{config_path}: {e}") from None


def weight_files(path) -> dict[str, Path]:
    """Map each LLaDA key to the safetensors file holding it."""
    path = Path(path)
    index_path = path / "model.safetensors.index.json"
    if index_path.is_file():
        weight_map = json.loads(index_path.read_text()).get("weight_map")
        if not isinstance(weight_map, dict):
            raise CheckpointError(f"{index_path}: no 'weight_map' object")
        files = {key: path / name for key, name in weight_map.items()}
        for name in sorted({str(f) for f in files.values()}):
            if not Path(name).is_file():
                raise CheckpointError(f"{index_path}: names shard {Path(name).name}, which is missing")
        return files
    single = path / "model.safetensors"
    if not single.is_file():
        raise CheckpointError(f"{path}: no model.safetensors or model.safetensors.index.json")
    with safe_open(single, framework="pt") as f:
        return {key: single for key in f.keys()}


def load_model(path, dtype="float32", device="cpu") -> tuple[LLaDAModel, LLaDAConfig]:
    """Build the model from a checkpoint directory; weights go straight to `device` in `dtype`."""
    path = Path(path)
    if not path.is_dir():
        raise CheckpointError(f"{path}: not a directory")
    if dtype not in DTYPES:
        raise CheckpointError(f"dtype {dtype!r}: expected one of {', '.join(DTYPES)}")
    config = load_config(path)
    with torch.device("meta"):
        model = LLaDAModel(config)
    expected = {KEY_PREFIX + name: p.shape for name, p in model.state_dict().items()}
    files = weight_files(path)
    missing = sorted(set(expected) - set(files))
    if missing:
        raise CheckpointError(f"{path}: missing key {missing[0]}" + (f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""))
    unexpected = sorted(set(files) - set(expected))
    if unexpected:
        raise CheckpointError(f"{path}: unexpected key {unexpected[0]} (not part of a LLaDA model with this config)")
    state = {}
    for file in sorted(set(files.values())):
        with safe_open(file, framework="pt", device="cpu") as f:
            for key in f.keys():
                if key not in expected:
                    continue
                tensor = f.get_tensor(key)
                if tensor.shape != expected[key]:
                    raise CheckpointError(f"{file.name}: {key} has shape {list(tensor.shape)}, "
                                          f"config.json implies {list(expected[key])}")
                state[key[len(KEY_PREFIX):]] = tensor.to(device=device, dtype=DTYPES[dtype])
    absent = sorted(key for key in expected if key[len(KEY_PREFIX):] not in state)
    if absent:
        raise CheckpointError(f"{files[absent[0]]}: does not hold {absent[0]}, though the index says it does")
    model.load_state_dict(state, assign=True, strict=True)
    return model.eval(), config


def save_model(model: LLaDAModel, config: LLaDAConfig, path) -> None:
    """Write config.json and model.safetensors with LLaDA's key names."""
    path = Path(path)
    path.mkdir(parents=True, exist_ok=True)
    (path / "config.json").write_text(json.dumps(config.to_dict(), indent=1) + "\n")
    state = {KEY_PREFIX + k: v.detach().contiguous().cpu() for k, v in model.state_dict().items()}
    save_file(state, str(path / "model.safetensors"), metadata={"format": "pt"})
