"""What the second reading of a clause beside a request costs a reply: CPU and wall time per reply (medians)
and network rows (the rows of its forward passes summed: its work, whatever the load), for requests without
a clause a second reading may take, with clauses whose whole request gets a call (the clause decodes are
wasted), and with clauses whose whole request gets none (the reply is read again).

    PYTHONPATH=$PWD .venv/bin/python bench/clause_cost.py [--repeats 5] [--rows 40]

The code measured is the one PYTHONPATH names first (this file adds nothing to the path), so the same command
with PYTHONPATH at a checkout of other code measures that code on the same rows: run both, alternately, for a
ratio measured under the same load. The rows are the default home's requests of the fourth and fifth paraphrase
sets, each asked in a fresh conversation; a row's figure is the median of its repeats.
"""
import argparse
import asyncio
import json
import os
import statistics
import time
from pathlib import Path

import assistant.embedded
from assistant.chat_template import content_text
from assistant.clauses import takeable
from assistant.conversation import Vocabulary
from assistant.embedded import EmbeddedGenerator
from assistant.generator import respond_sync
from assistant.tools import ToolRunner
from dllm_core.decoding import generate

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
SETS = ("paraphrases_fourth.jsonl", "paraphrases_fifth.jsonl")


def default_home_requests() -> list[list[dict]]:
    rows = [json.loads(line) for name in SETS for line in (DATA / name).read_text().splitlines() if line.strip()]
    return [row["history"] for row in rows if row["home"] == "default"]


def whole_calls(generator: EmbeddedGenerator, history: list[dict]) -> bool:
    """The whole request, decoded alone, makes a call."""
    prompt, slots = generator.prompt_ids(history, None)
    reader = generator.reader(slots)
    reader.add(generate(generator.model, [prompt], generator.decode, mask_id=generator.config.mask_token_id,
                        eos_id=generator.config.eos_token_id).tokens[0])
    return reader.call is not None


def cost(generator: EmbeddedGenerator, history: list[dict], repeats: int) -> tuple[float, float, int, int]:
    """Median CPU ms and wall ms of one reply, its network rows and its passes."""
    cpu, wall, rows = [], [], []
    hook = generator.model.register_forward_pre_hook(lambda module, args: rows.append(args[0].shape[0]))
    try:
        for _ in range(repeats):
            rows.clear()
            cpu_start, wall_start = time.process_time(), time.perf_counter()
            reply = respond_sync(generator, history, ToolRunner())
            cpu.append((time.process_time() - cpu_start) * 1000)
            wall.append((time.perf_counter() - wall_start) * 1000)
    finally:
        hook.remove()
    return statistics.median(cpu), statistics.median(wall), sum(rows), reply.forward_passes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--rows", type=int, default=40, help="requests without clauses measured (the first N)")
    args = parser.parse_args()
    generator = EmbeddedGenerator.load()
    groups: dict[str, list[list[dict]]] = {"no clause": [], "clauses, whole request calls": [],
                                           "clauses, read again": []}
    for history in default_home_requests():
        if not takeable(content_text(history[-1]), Vocabulary(None)):
            groups["no clause"].append(history)
        else:
            groups["clauses, whole request calls" if whole_calls(generator, history) else "clauses, read again"].append(history)
    groups["no clause"] = groups["no clause"][:args.rows]
    respond_sync(generator, groups["no clause"][0], ToolRunner())          # warm-up
    print(f"code: {Path(assistant.embedded.__file__).parent.parent}; load {os.getloadavg()[0]:.1f}; "
          f"{args.repeats} repeats a row")
    print("| requests | rows | median CPU ms | median wall ms | mean network rows | max passes |")
    print("|---|---|---|---|---|---|")
    for name, histories in groups.items():
        costs = [cost(generator, history, args.repeats) for history in histories]
        print(f"| {name} | {len(costs)} | {statistics.median(c[0] for c in costs):.1f} | "
              f"{statistics.median(c[1] for c in costs):.1f} | {statistics.mean(c[2] for c in costs):.2f} | "
              f"{max(c[3] for c in costs)} |", flush=True)
    print(f"load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
