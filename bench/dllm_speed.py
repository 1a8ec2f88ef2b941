"""Diffusion decoding speed against the autoregressive baseline, measured side by side in one run.

For each model size and reply length: tokens per second and network passes per reply (medians over
repeats) for the AR baseline (greedy, KV cache), `llada` with steps = reply length, `threshold`, and
`threshold` + dual cache, with the ratio of each to the AR baseline. Weights are random, with the
output head scaled as in the golden model so that confidence is peaked like a trained model's.

    .venv/bin/python bench/dllm_speed.py            # ~5M / 30M / 120M parameters, replies of 32 / 64 / 128
    .venv/bin/python bench/dllm_speed.py --quick    # ~5M / 30M, replies of 32 / 64
    .venv/bin/python bench/dllm_speed.py --device cuda --dtype bfloat16 --llada8b-shape   # on a GPU
"""
import argparse
import statistics
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from dllm_core.ar_baseline import ar_generate  # noqa: E402
from dllm_core.decoding import DecodeParams, generate  # noqa: E402
from dllm_core.shapes import random_model  # noqa: E402

BLOCK_LENGTH = 32
THRESHOLD = 0.9
PROMPT_LENGTH = 48


def methods(length: int) -> dict[str, DecodeParams | None]:
    common = dict(gen_length=length, block_length=min(BLOCK_LENGTH, length), stop_at_eos=False)
    return {
        "AR baseline (greedy, KV cache)": None,
        "llada, steps = length": DecodeParams(algorithm="llada", steps=length, **common),
        f"threshold {THRESHOLD}": DecodeParams(algorithm="threshold", threshold=THRESHOLD, **common),
        f"threshold {THRESHOLD} + dual cache": DecodeParams(algorithm="dual_cache_threshold", threshold=THRESHOLD, **common),
    }


def run_once(model, config, prompts, length, params) -> tuple[float, int]:
    device = model.transformer.wte.weight.device
    if device.type == "cuda":
        torch.cuda.synchronize()
    start = time.perf_counter()
    if params is None:
        out = ar_generate(model, prompts, length)
    else:
        out = generate(model, prompts, params, mask_id=config.mask_token_id)
    if device.type == "cuda":
        torch.cuda.synchronize()
    return time.perf_counter() - start, out.forward_passes


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="two smaller sizes, replies of 32 and 64")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--dtype", default="float32", choices=["float32", "bfloat16", "float16"])
    parser.add_argument("--llada8b-shape", action="store_true", help="LLaDA-8B's shape (random weights), batch 1 and 16")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per cell (1 for the largest CPU size)")
    parser.add_argument("--threads", type=int, default=1,
                        help="CPU threads (1: on a shared 2-core machine a second thread mostly waits)")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    dtype = getattr(torch, args.dtype)
    if args.llada8b_shape:
        plan, lengths, batches = ["LLaDA-8B"], [32, 64, 128, 256], [1, 16]
    elif args.quick:
        plan, lengths, batches = ["5M", "30M"], [32, 64], [1]
    else:
        plan, lengths, batches = ["5M", "30M", "120M"], [32, 64, 128], [1]

    cells = len(plan) * len(lengths) * len(batches) * 4
    done = 0
    rows = []
    print(f"device {args.device}, {args.dtype}, {torch.get_num_threads()} threads, prompt {PROMPT_LENGTH} tokens, "
          f"block {BLOCK_LENGTH}", file=sys.stderr)
    for size in plan:
        model, config = random_model(size, dtype, args.device)
        params_m = model.num_parameters() / 1e6
        repeats = 1 if size == "120M" and args.device == "cpu" else args.repeats
        generator = torch.Generator().manual_seed(1)
        for batch in batches:
            prompts = torch.randint(0, config.vocab_size - 2, (batch, PROMPT_LENGTH), generator=generator).tolist()
            for name, params in methods(lengths[0]).items():  # warm-up: first calls allocate and tune
                run_once(model, config, prompts, lengths[0], params)
            for length in lengths:
                baseline = None
                for name, params in methods(length).items():
                    times, passes = [], []
                    for _ in range(repeats):
                        seconds, n = run_once(model, config, prompts, length, params)
                        times.append(seconds)
                        passes.append(n)
                    tokens_per_s = batch * length / statistics.median(times)
                    baseline = baseline or tokens_per_s
                    rows.append((size, params_m, batch, length, name, tokens_per_s, statistics.median(passes),
                                 tokens_per_s / baseline, repeats))
                    done += 1
                    print(f"[{done}/{cells}] {size} batch {batch} length {length} {name}: "
                          f"{tokens_per_s:.0f} tok/s, {statistics.median(passes):g} passes", file=sys.stderr, flush=True)
        del model

    header = "| model | params | batch | reply | decoder | tokens/s | passes/reply | vs AR | repeats |"
    print(header)
    print("|" + "---|" * 9)
    for size, params_m, batch, length, name, tps, passes, ratio, repeats in rows:
        print(f"| {size} | {params_m:.1f}M | {batch} | {length} | {name} | {tps:,.0f} | {passes:g} | {ratio:.2f}x | {repeats} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
