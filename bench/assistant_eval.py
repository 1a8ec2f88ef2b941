"""Held-out evaluation of the embedded assistant, one column set per decoding budget, side by side.

    python bench/assistant_eval.py [--checkpoint DIR] [--heldout tests/data/heldout.jsonl] [--errors]

The held-out requests (tests/data/heldout.jsonl) were written by hand, separately from the corpus
generator's templates, and are never trained on. Every request goes through the real path
(EmbeddedGenerator.respond: normaliser, chat template, diffusion decode, call parsing, tool run), one at a time,
so latency is what a user would wait for one reply on this machine.

Tool-call exact match: same name and arguments; numbers compared by value, `calculate` by the value of
the expression. No-tool accuracy: chit-chat and out-of-domain replies that call no tool.
"""
import argparse
import dataclasses
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dllm_core.decoding import DecodeParams  # noqa: E402
from assistant.embedded import DEFAULT_DECODE, EmbeddedGenerator  # noqa: E402
from assistant.generator import respond_sync  # noqa: E402
from assistant.tools import CalculationError, ToolRunner, calculate  # noqa: E402

BUDGETS = [
    ("1 pass", dataclasses.replace(DEFAULT_DECODE, max_forward_passes=1)),
    ("2 passes", dataclasses.replace(DEFAULT_DECODE, max_forward_passes=2)),
    ("4 passes", dataclasses.replace(DEFAULT_DECODE, max_forward_passes=4)),
    ("8 passes", dataclasses.replace(DEFAULT_DECODE, max_forward_passes=8)),
    ("full schedule", DecodeParams(algorithm="llada", gen_length=32, block_length=32, steps=32, threshold=None)),
]


def same_call(expected: dict, got: dict) -> bool:
    if expected["name"] != got["name"] or set(expected["arguments"]) != set(got["arguments"]):
        return False
    for key, want in expected["arguments"].items():
        have = got["arguments"][key]
        if key == "expression":
            try:
                if abs(calculate(str(want)) - calculate(str(have))) > 1e-9:
                    return False
            except CalculationError:
                return False
        elif isinstance(want, (int, float)):
            if isinstance(have, bool) or not isinstance(have, (int, float)) or abs(want - have) > 1e-9:
                return False
        elif want != have:
            return False
    return True


def evaluate(assistant: EmbeddedGenerator, rows: list[dict]) -> tuple[dict, list[str]]:
    correct = {"tool": 0, "followup": 0, "chitchat": 0, "ood": 0, "clarify": 0}
    total = dict.fromkeys(correct, 0)
    latencies, passes, errors = [], [], []
    for row in rows:
        reply = respond_sync(assistant, row["history"], ToolRunner())
        latencies.append(reply.latency_ms)
        passes.append(reply.forward_passes)
        got = [{"name": c.name, "arguments": c.arguments} for c in reply.tool_calls]
        expected = row["expected"]
        ok = (len(got) == 1 and same_call(expected, got[0])) if expected else not got
        keys = [row["category"]] + (["followup"] if row["followup"] and expected else [])
        for key in keys:
            total[key] += 1
            correct[key] += ok
        if not ok:
            errors.append(f"{row['id']:>4} {row['category']:<8} {row['history'][-1]['content']!r}: "
                          f"want {expected}, got {got} / {reply.text!r}")
    result = {k: correct[k] / total[k] if total[k] else float("nan") for k in correct}
    result["counts"] = total
    result["mean_passes"] = statistics.mean(passes)
    result["median_ms"] = statistics.median(latencies)
    result["p90_ms"] = sorted(latencies)[int(0.9 * (len(latencies) - 1))]
    return result, errors


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checkpoint", default=None)
    parser.add_argument("--heldout", default=str(ROOT / "tests" / "data" / "heldout.jsonl"))
    parser.add_argument("--errors", action="store_true", help="list the failures of the 4-pass column")
    parser.add_argument("--budgets", default=None, help="comma-separated subset, e.g. '1 pass,4 passes'")
    parser.add_argument("--json", default=None, help="also write the results to this file")
    args = parser.parse_args(argv)
    import torch
    torch.set_num_threads(1)
    rows = [json.loads(line) for line in Path(args.heldout).read_text().splitlines() if line.strip()]
    base = EmbeddedGenerator.load(args.checkpoint)
    chosen = [b for b in BUDGETS if args.budgets is None or b[0] in args.budgets.split(",")]
    results, failures = {}, {}
    for name, params in chosen:
        assistant = EmbeddedGenerator(base.model, base.config, base.tokenizer, params, base.max_prompt)
        respond_sync(assistant, [{"role": "user", "content": "hello"}], ToolRunner())     # warm-up
        results[name], failures[name] = evaluate(assistant, rows)
    counts = next(iter(results.values()))["counts"]
    print(f"held-out: {len(rows)} requests ({counts['tool']} tool calls, {counts['followup']} of them follow-ups; "
          f"{counts['chitchat']} chit-chat, {counts['ood']} out-of-domain, {counts['clarify']} need a room)")
    print(f"checkpoint: {args.checkpoint or 'embedded'}; threshold decoding at {DEFAULT_DECODE.threshold} "
          f"capped at N passes; full schedule = LLaDA low-confidence remasking, 32 steps")
    reference = results.get("full schedule", next(iter(results.values())))["median_ms"]
    header = ["decoding", "mean passes", "tool-call acc", "follow-up acc", "no-tool chit-chat", "no-tool OOD",
              "asks room", "median ms", "p90 ms", "speed vs full"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for name, r in results.items():
        cells = [name, f"{r['mean_passes']:.2f}", f"{100 * r['tool']:.1f}%", f"{100 * r['followup']:.1f}%",
                 f"{100 * r['chitchat']:.1f}%", f"{100 * r['ood']:.1f}%", f"{100 * r['clarify']:.0f}%",
                 f"{r['median_ms']:.1f}", f"{r['p90_ms']:.1f}", f"{reference / r['median_ms']:.1f}x"]
        print("| " + " | ".join(cells) + " |")
    if args.errors:
        name = "4 passes" if "4 passes" in failures else next(iter(failures))
        print(f"\nfailures with {name}:")
        print("\n".join(failures[name]))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
