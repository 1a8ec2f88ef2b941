"""Re-measure every figure the README relies on and write them, with the commit, the date and the load
average, into docs/figures.md. Run it before a release and whenever a change touches a measured path.

    make figures                                  # = .venv/bin/python bench/figures.py
    .venv/bin/python bench/figures.py --turns 12  # spoken turns per turn-detection mode

The figures: voice-to-voice latency over /v1/realtime at 1 session, semantic_vad against server_vad
(bench/latency.py), and the embedded assistant's held-out accuracy at its default decoding
(bench/assistant_eval.py). Both scripts are run as they are; this one only gathers their results.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import assistant_eval
import latency

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "figures.md"
DEFAULT_BUDGET = f"{assistant_eval.DEFAULT_DECODE.max_forward_passes} passes"   # the embedded default decoding


def commit() -> str:
    """The short commit, marked when the tree differs from it (this page itself aside)."""
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout.strip()
    changed = subprocess.run(["git", "status", "--porcelain", "--", ".", f":!{PAGE.relative_to(ROOT)}"],
                             cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
    return f"{head} with uncommitted changes" if changed else head


def load() -> float:
    return os.getloadavg()[0]


def step(number: int, text: str) -> None:
    print(f"[{number}/2] {text}", file=sys.stderr, flush=True)


def measure_latency(turns: int, out: Path) -> str:
    """bench/latency.py at 1 session for both turn detections; its own table of the result."""
    if latency.main(["--turns", str(turns), "--concurrency", "1", "--out", str(out)]) != 0:
        raise SystemExit("bench/latency.py failed: no figures written")
    return (out / "latency.md").read_text().split("\n\n")[1].strip()     # the first table, under its load line


def measure_assistant(out: Path) -> str:
    """bench/assistant_eval.py at the default decoding; the held-out accuracy as a table."""
    path = out / "assistant_eval.json"
    with contextlib.redirect_stdout(io.StringIO()):      # its full tables are for bench/assistant_eval.py
        assistant_eval.main(["--budgets", DEFAULT_BUDGET, "--json", str(path)])
    result = json.loads(path.read_text())
    buckets, (fresh, long, requests, _) = result["all"][DEFAULT_BUDGET], result["long"][DEFAULT_BUDGET]
    difference = f"{100 * (long - fresh):+.1f}".replace("-", "−")
    cell = lambda key: f"{100 * buckets[key][0]:.1f}% ({buckets[key][1]})"  # noqa: E731
    return "\n".join([
        "| decoding | overall | first file | home file | unseen names | hand-written ASR slips | "
        f"one conversation of {requests} − each alone |",
        "|---|---|---|---|---|---|---|",
        f"| ≤ {DEFAULT_BUDGET} (default) | {cell('overall')} | {cell('file:original')} | {cell('file:home')} | "
        f"{cell('tag:unseen_name')} | {cell('tag:slip')} | {difference} points |"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=12, help="spoken turns per turn-detection mode")
    parser.add_argument("--out", default=str(ROOT / "bench" / "out" / "figures"), help="the scripts' own outputs")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    started, loads, measured = time.monotonic(), [load()], commit()   # the tree as it was when measured

    step(1, f"voice-to-voice latency, 1 session, {args.turns} spoken turns per mode (bench/latency.py)")
    latency_table = measure_latency(args.turns, out)
    loads.append(load())
    step(2, "the embedded assistant on the held-out files (bench/assistant_eval.py)")
    assistant_table = measure_assistant(out)
    loads.append(load())

    minutes = (time.monotonic() - started) / 60
    PAGE.write_text(f"""# Figures

Written by `make figures` (`bench/figures.py`); do not edit by hand. Measured at `{measured}` on
{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} CPU cores, embedded models and checkpoint,
1-minute load average {loads[0]:.2f} at the start, {loads[1]:.2f} after the latency run, {loads[2]:.2f} at the end
({minutes:.1f} minutes in all). Other work on the machine shows up in the latency figures, not in the accuracy.

## Voice-to-voice latency

From the end of the words in the audio to the first reply audio, over `/v1/realtime`, one session talking,
{args.turns} spoken requests per mode (`bench/latency.py --turns {args.turns} --concurrency 1`; the stages are
explained in [latency](latency.md)). `server_vad` (500 ms of silence) is the baseline of the same run.

{latency_table}

## The embedded assistant

The held-out files of [the embedded assistant](assistant.md), typed, each request in a fresh conversation
(`bench/assistant_eval.py --budgets '{DEFAULT_BUDGET}'`); the last column asks every self-contained request in one
conversation per home instead.

{assistant_table}
""")
    print(f"wrote {PAGE.relative_to(ROOT)} in {minutes:.1f} minutes", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
