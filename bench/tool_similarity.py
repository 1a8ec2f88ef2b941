"""How well sentence embeddings (assistant/sentence_embedding.py) tell which declared tool a request asks for, beside
the code's reading (client_tools.decode), on read client-tool sets; by name only, no model run.

    python bench/tool_similarity.py tests/data/heldout_client_tools tests/data/dev_client_tools_eighth_a ...

Per set: how often the best-scoring declared tool is the expected one (rows that expect a call); the score of the
best tool on rows that expect a call and on rows that expect none (quartiles); the rules' name-level right count;
and, for each threshold, what dropping the rules' call where the embedding scores its tool below it, and what taking the embedding's best tool where the rules pick none, its arguments read by the
rules' span code (read_arguments), would give.
"""
import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import torch  # noqa: E402

from assistant.client_tools import decode, read_arguments  # noqa: E402
from assistant.tool_similarity import ToolScorer  # noqa: E402
from assistant_eval import client_tool_rows, same_call  # noqa: E402


VETOES = (0.10, 0.15, 0.20, 0.25)


def quartiles(values: list[float]) -> str:
    if len(values) < 4:
        return " ".join(f"{v:.2f}" for v in sorted(values))
    q = statistics.quantiles(values, n=4)
    return f"{min(values):.2f} {q[0]:.2f} {q[1]:.2f} {q[2]:.2f} {max(values):.2f}"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("sets", nargs="+")
    parser.add_argument("--margin", type=float, default=0.0, help="the best tool's lead over the next, at least")
    parser.add_argument("--thresholds", default="0.30,0.35,0.40,0.45,0.50")
    args = parser.parse_args()
    torch.set_num_threads(1)
    scorer = ToolScorer.load()
    thresholds = [float(t) for t in args.thresholds.split(",")]
    rule_ms, embed_ms = [], []
    for path in args.sets:
        rows = client_tool_rows(path)
        top_right = calls = 0
        call_scores, none_scores = [], []
        rules_right = 0
        filled = {t: [0, 0, 0] for t in thresholds}      # gained right calls, wrong calls added, none-serve called
        kinds = {}
        vetoed = {t: [0, 0] for t in VETOES}      # right calls of the rules lost, none-serve calls of the rules kept out
        for row, declared in rows:
            declarations = list(declared.values())
            started = time.perf_counter()
            ruled = decode(declarations, row["request"])
            rule_ms.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            scores = scorer.scores(declarations, row["request"])
            embed_ms.append((time.perf_counter() - started) * 1000)
            best = max(scores, key=scores.get)
            expected = row["expect"]["name"] if row["expect"] and row["kind"] != "home" else None
            rule_name = ruled["name"] if ruled else None
            rules_right += rule_name == expected
            if expected:
                calls += 1
                top_right += best == expected
                call_scores.append(scores[best])
            else:
                none_scores.append(scores[best])
                kinds.setdefault(row["kind"], []).append(scores[best])
            if ruled:
                for t in VETOES:
                    if scores[rule_name] < t:
                        vetoed[t][0] += same_call(row["expect"], ruled) if expected else 0
                        vetoed[t][1] += expected is None
            arguments = read_arguments(declared[best], row["request"]) if rule_name is None else None
            if arguments is not None:
                call = {"name": best, "arguments": arguments}
                margin = scores[best] - max([v for k, v in scores.items() if k != best], default=0.0)
                for t in thresholds:
                    if scores[best] >= t and margin >= args.margin:
                        if expected is None:
                            filled[t][2] += 1
                        elif same_call(row["expect"], call):
                            filled[t][0] += 1
                        else:
                            filled[t][1] += 1
        print(f"{Path(path).name}: {len(rows)} rows, top-1 {top_right}/{calls}; rules by name {rules_right}/{len(rows)}")
        print(f"  best score, call rows  (min q1 med q3 max): {quartiles(call_scores)}")
        print(f"  best score, none rows  (min q1 med q3 max): {quartiles(none_scores)}")
        for kind, values in sorted(kinds.items()):
            print(f"  best score, {kind:10} (min q1 med q3 max): {quartiles(values)}")
        for t in thresholds:
            gained, wrong, none = filled[t]
            print(f"  rules none, embedding >= {t:.2f}: +{gained} right calls, {wrong} wrong calls, {none} none-serve called")
        for t in VETOES:
            print(f"  rules' call, embedding < {t:.2f}: -{vetoed[t][0]} right calls, -{vetoed[t][1]} none-serve calls")
    print(f"per request, median ms: rules {statistics.median(rule_ms):.2f}, embedding {statistics.median(embed_ms):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
