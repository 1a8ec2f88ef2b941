"""`parley dllm golden` end to end: passes on the golden model, names the first differing position otherwise."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from safetensors.torch import load_file, save_file

from dllm_core.golden import main

GOLDEN = Path(__file__).parent / "data" / "llada-tiny"
ROOT = Path(__file__).parent.parent


def parley(*args):
    return subprocess.run([sys.executable, "-m", "streaming.cli", *map(str, args)], cwd=ROOT,
                          env={**os.environ, "OMP_NUM_THREADS": "1"}, capture_output=True, text=True, timeout=300)


def test_golden_model_passes_every_case():
    result = parley("dllm", "golden", GOLDEN, GOLDEN / "generate_cases.json")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip().splitlines() == ["49 passed, 0 failed"]  # 48 cases + the forward logits


def test_failures_name_the_first_differing_position(tmp_path):
    for name in ("config.json", "model.safetensors"):
        shutil.copy(GOLDEN / name, tmp_path)
    reference = load_file(GOLDEN / "forward_logits.safetensors")
    reference["logits"][7, 3] += 0.01
    save_file(reference, str(tmp_path / "forward_logits.safetensors"))
    spec = json.loads((GOLDEN / "generate_cases.json").read_text())
    spec["cases"] = spec["cases"][:3]
    spec["cases"][1]["expected_ids"][5] += 1
    spec["cases"][2]["forward_passes"] += 1
    (tmp_path / "cases.json").write_text(json.dumps(spec))
    result = parley("dllm", "golden", tmp_path, tmp_path / "cases.json")
    lines = result.stdout.strip().splitlines()
    assert result.returncode == 1
    assert lines[0].startswith("FAIL forward logits: first differing position 7")
    assert lines[1].startswith("FAIL case 1 (llada steps=16 gen_length=32 block_length=8, prompt of 16): "
                               "first differing position 5")
    assert lines[2] == ("FAIL case 2 (llada steps=32 gen_length=32 block_length=32, prompt of 16): "
                        "tokens match, forward passes 32, expected 33")
    assert lines[3] == "1 passed, 3 failed"


def test_bad_checkpoint_is_a_clear_error(tmp_path, capsys):
    assert main(["golden", str(tmp_path), str(GOLDEN / "generate_cases.json")]) == 2
    assert "config.json" in capsys.readouterr().err
