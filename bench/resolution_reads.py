"""How often a turn reads its history for follow-ups (assistant.conversation._resolution), and the time it takes.

declined, resolve (for the prompt, the second opinion, each clause) and unsupported all ask for the reading of a
turn's history; this runs bench/assistant_eval.py with its arguments and counts the readings made (those a turn
asks for, not those a reading makes of its own clauses) and the time spent in those three, per turn (one
declined() a reply). PYTHONPATH picks the tree, so two trees compare on the same set:

    PYTHONPATH=$PWD:$PWD/bench .venv/bin/python bench/resolution_reads.py --budgets '4 passes' --conversations
"""
import runpy
import sys
import time
from pathlib import Path

import assistant.conversation as conversation
import assistant.embedded as embedded

counts = {"turns": 0, "readings": 0, "ms": 0.0}
under_way = {"reading": 0, "asked": 0}


def outermost(function, kind: str):
    """function, counted (and timed) only where no other call of its kind is under way."""
    def wrapped(*args, **kwargs):
        if under_way[kind]:
            return function(*args, **kwargs)
        under_way[kind] += 1
        started = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            under_way[kind] -= 1
            if kind == "reading":
                counts["readings"] += 1
            else:
                counts["ms"] += (time.perf_counter() - started) * 1000
    return wrapped


def main() -> None:
    conversation._resolution = outermost(conversation._resolution, "reading")
    for name in ("declined", "resolve", "unsupported"):
        wrapped = outermost(getattr(conversation, name), "asked")
        setattr(conversation, name, wrapped)
        setattr(embedded, name, wrapped)
    declined = embedded.declined

    def turn(*args, **kwargs):
        counts["turns"] += 1
        return declined(*args, **kwargs)
    embedded.declined = turn
    sys.argv = ["assistant_eval.py", *sys.argv[1:]]
    try:
        runpy.run_path(str(Path(__file__).parent / "assistant_eval.py"), run_name="__main__")
    except SystemExit:
        pass
    turns = max(1, counts["turns"])
    print(f"turns {counts['turns']}: readings {counts['readings']} ({counts['readings'] / turns:.2f} a turn), "
          f"{counts['ms']:.0f} ms in declined, resolve and unsupported ({counts['ms'] / turns:.3f} ms a turn)")


if __name__ == "__main__":
    main()
