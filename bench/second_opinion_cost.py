"""What the second opinion from Home Assistant's phrasings (assistant.second_opinion) costs.

    python bench/second_opinion_cost.py [--requests tests/data/paraphrases_sixth.jsonl ...]

Start-up: the seconds and the resident memory that importing hassil and home-assistant-intents and compiling the
English intents (with the warm-up match) add to a process. Per request: the milliseconds one second opinion
takes (the request read three ways, as EmbeddedGenerator._second_opinion reads it) on every request of the
files, in its home, with the home's slot lists already built (they are built once per version of a home: that
cost is given apart, per home). Every request is timed, not only the ones the model refuses: the matching
does not depend on what the model wrote.
"""
import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", nargs="+", default=sorted(str(p) for p in (ROOT / "tests" / "data").glob("paraphrases*.jsonl")))
    args = parser.parse_args(argv)

    from assistant.conversation import resolve
    from assistant.inventory import vocabulary_inventory
    from assistant.spoken_numbers import normalize_request
    assert "hassil" not in sys.modules, "imported before it is measured"

    before_mb, started = rss_mb(), time.perf_counter()
    from assistant.second_opinion import SecondOpinion
    opinion = SecondOpinion.shared()
    load_s, load_mb = time.perf_counter() - started, rss_mb() - before_mb
    from bench.assistant_eval import discovered_inventory, made_up_inventory

    homes = {"default": vocabulary_inventory(), "made_up": made_up_inventory(), "discovered": discovered_inventory()}
    lists_ms = {}
    for kind, inventory in homes.items():
        started = time.perf_counter()
        opinion.slot_lists(inventory)
        lists_ms[kind] = (time.perf_counter() - started) * 1000
    lexicons = {kind: inventory.lexicon() if inventory.custom else None for kind, inventory in homes.items()}

    timings, served = [], 0
    for path in args.requests:
        for line in Path(path).read_text().splitlines():
            row = json.loads(line)
            kind = row.get("home", "default")
            history = row["history"]
            said = history[-1]["content"]
            started = time.perf_counter()
            readings = [said, normalize_request(said), resolve(history, lexicons[kind])[-1]["content"]]
            served += opinion.call(readings, homes[kind]) is not None
            timings.append((time.perf_counter() - started) * 1000)
    timings.sort()
    p99 = timings[min(len(timings) - 1, int(0.99 * len(timings)))]
    print(f"start-up: {load_s:.2f} s, {load_mb:.0f} MB resident (import, compile, warm-up match)")
    print("slot lists, once per version of a home: " + ", ".join(f"{k} {v:.1f} ms" for k, v in lists_ms.items()))
    print(f"per request ({len(timings)} requests of {len(args.requests)} files; {served} matched): "
          f"median {statistics.median(timings):.1f} ms, p99 {p99:.1f} ms, max {timings[-1]:.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
