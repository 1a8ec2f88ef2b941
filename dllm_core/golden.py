"""`parley dllm golden CHECKPOINT_DIR CASES_JSON`: check an engine + checkpoint against reference outputs.

Runs every decoding case of a cases file (the format of the LLaDA golden vectors) and, when the
checkpoint directory holds forward_logits.safetensors, the forward pass too. One line per failure,
then `N passed, M failed`; the exit status is non-zero on any failure.
"""
import argparse
import json
import sys
from pathlib import Path

import torch
from safetensors.torch import load_file

from .checkpoint import CheckpointError, load_model
from .decoding import ALGORITHMS, DecodeParams, generate

LOGITS_TOLERANCE = 1e-4


def check_logits(model, path: Path) -> str | None:
    """None when the logits match the stored reference, else what differs."""
    reference = load_file(path)
    device = model.transformer.wte.weight.device
    with torch.inference_mode():
        logits = model(reference["input_ids"].to(device))[0].float().cpu()
    expected = reference["logits"].reshape(logits.shape)
    error = (logits - expected).abs()
    worst = float(error.max())
    if worst <= LOGITS_TOLERANCE:
        return None
    position = int((error > LOGITS_TOLERANCE).any(-1).nonzero()[0])
    return f"first differing position {position}, max abs difference {worst:.3g} > {LOGITS_TOLERANCE:g}"


def check_case(model, case: dict, mask_id: int, temperature: float) -> str | None:
    params = DecodeParams(algorithm=case["algorithm"], temperature=temperature, stop_at_eos=False, **case["params"])
    out = generate(model, [case["prompt_ids"]], params, mask_id=mask_id)
    got, expected = out.tokens[0], case["expected_ids"]
    if got != expected:
        position = next((i for i, (a, b) in enumerate(zip(got, expected)) if a != b), min(len(got), len(expected)))
        at = lambda ids: ids[position] if position < len(ids) else "nothing"
        return f"first differing position {position}: expected {at(expected)}, got {at(got)}"
    if "forward_passes" in case and out.forward_passes != case["forward_passes"]:
        return f"tokens match, forward passes {out.forward_passes}, expected {case['forward_passes']}"
    return None


def describe(index: int, case: dict) -> str:
    params = " ".join(f"{k}={v}" for k, v in case["params"].items())
    return f"case {index} ({case['algorithm']} {params}, prompt of {len(case['prompt_ids'])})"


def run_golden(checkpoint: Path, cases_path: Path, dtype: str, device: str) -> int:
    model, config = load_model(checkpoint, dtype=dtype, device=device)
    spec = json.loads(cases_path.read_text())
    if spec.get("remasking", "low_confidence") != "low_confidence":
        raise ValueError(f"{cases_path}: remasking {spec['remasking']!r} is not supported (only low_confidence)")
    mask_id = spec.get("mask_token_id", config.mask_token_id)
    temperature = spec.get("temperature", 0.0)
    passed = failed = 0
    checks = []
    logits_path = checkpoint / "forward_logits.safetensors"
    if logits_path.is_file():
        checks.append(("forward logits", lambda: check_logits(model, logits_path)))
    for index, case in enumerate(spec["cases"]):
        if case["algorithm"] not in ALGORITHMS:
            raise ValueError(f"{cases_path}: case {index} has unknown algorithm {case['algorithm']!r}")
        checks.append((describe(index, case), lambda case=case: check_case(model, case, mask_id, temperature)))
    for name, check in checks:
        problem = check()
        if problem is None:
            passed += 1
        else:
            failed += 1
            print(f"FAIL {name}: {problem}", flush=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="parley dllm", description="Diffusion engine tools.")
    commands = parser.add_subparsers(dest="command", required=True)
    golden = commands.add_parser("golden", help="check a checkpoint against a golden cases file")
    golden.add_argument("checkpoint", type=Path, help="LLaDA-format checkpoint directory")
    golden.add_argument("cases", type=Path, help="cases JSON (format of generate_cases.json)")
    golden.add_argument("--dtype", default="float32", choices=["float32", "bfloat16", "float16"])
    golden.add_argument("--device", default="cpu")
    args = parser.parse_args(argv)
    try:
        return run_golden(args.checkpoint, args.cases, args.dtype, args.device)
    except (CheckpointError, ValueError, KeyError, OSError) as error:
        message = f"missing field {error}" if isinstance(error, KeyError) else str(error)
        print(f"parley dllm golden: {message}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
