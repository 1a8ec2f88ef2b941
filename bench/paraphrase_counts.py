"""Counts only, for paraphrase sets kept blind: right / refused / wrong overall, for follow-ups and self-contained
requests, per home and for rows that must make no call, plus a line of each row's outcome (R, F, W) so that two runs
can be compared row by row without any row being printed.

    PYTHONPATH=$PWD .venv/bin/python bench/paraphrase_counts.py tests/data/paraphrases_fifteenth.jsonl > NEW.txt
    PYTHONPATH=$PWD .venv/bin/python bench/paraphrase_counts.py --against OLD.txt NEW.txt     # rows that moved

--against reads `bench/assistant_eval.py --client-tools` outputs alike (their OUTCOMES line, the first budget's).

The assistant, its budget (4 passes) and the scoring are `bench/assistant_eval.py`'s.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import assistant_eval  # noqa: E402


def outcome(row: dict, assistant) -> str:
    """R when the reply is right, F when it makes no call and is wrong (a refusal), W when it makes a wrong call."""
    from assistant.tools import ToolRunner
    tools = ToolRunner(assistant_eval.new_home(row.get("home", "default")))
    reply, acted, results = assistant_eval.ask(assistant, row["history"], tools)
    if assistant_eval.score(row, reply, acted, tools.home.inventory, results):
        return "R"
    return "W" if reply.tool_calls else "F"


def groups(row: dict) -> list[str]:
    kinds = ["all", "follow-ups" if len(row["history"]) > 1 else "self-contained", f"home:{row.get('home', 'default')}"]
    return kinds + (["no-call rows"] if row["expected"] is None else [])


def counts_table(rows: list[dict], outcomes: str) -> list[str]:
    by_group: dict[str, list[str]] = {}
    for row, kind in zip(rows, outcomes):
        for group in groups(row):
            by_group.setdefault(group, []).append(kind)
    lines = []
    for group, kinds in by_group.items():
        n, right, refused, wrong = len(kinds), kinds.count("R"), kinds.count("F"), kinds.count("W")
        lines.append(f"{group:<20} n={n:<4} right {100 * right / n:5.1f}%  refused {100 * refused / n:5.1f}%  "
                     f"wrong {100 * wrong / n:5.1f}%  ({right}/{refused}/{wrong})")
    return lines


def outcomes_of(output: Path) -> str:
    return next(line.split()[1] for line in output.read_text().splitlines()
                if line.startswith(assistant_eval.OUTCOMES_LINE))


def moves(old: str, new: str) -> Counter:
    """How many rows went from one outcome to another ("W->F": a wrong call became a refusal)."""
    if len(old) != len(new):
        raise SystemExit(f"the two runs have {len(old)} and {len(new)} rows: not the same set")
    return Counter(f"{a}->{b}" for a, b in zip(old, new) if a != b)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path, help="a paraphrase set (.jsonl), or with --against this script's output")
    parser.add_argument("--against", type=Path, help="an earlier output of this script: print the rows' moves only")
    args = parser.parse_args()
    if args.against:
        print(dict(moves(outcomes_of(args.against), outcomes_of(args.path))) or "no row moved")
        return
    from assistant.embedded import EmbeddedGenerator
    rows = [json.loads(line) for line in args.path.read_text().splitlines() if line.strip()]
    base = EmbeddedGenerator.load(None)
    assistant = EmbeddedGenerator(base.model, base.config, base.tokenizer, dict(assistant_eval.BUDGETS)["4 passes"],
                                  base.max_prompt)
    outcomes = "".join(outcome(row, assistant) for row in rows)
    print(args.path.name)
    print("\n".join(counts_table(rows, outcomes)))
    print(assistant_eval.OUTCOMES_LINE, outcomes)


if __name__ == "__main__":
    main()
