"""CPU per final by the recogniser's encoder window, paired on the same recordings.

The server's final (`WhisperSTT.hear`: a beam of three and a forced pass) in windows of 10, 8 and 6 s, and a
greedy final in the 10 s window (the baseline of the cost target in docs/speech.md). Every recording is heard
in every setting, in an order that turns by one setting from one recording to the next, for `--rounds` rounds;
medians of the process's CPU time (Whisper's threads included) and of each recording's ratio to a baseline.
Also how many of the server's finals read otherwise than in the 10 s window (text, not answers: right answers
come from `bench/spoken_requests.py --window S`).

Recordings: the requests of the spoken bench's tuning set (`bench/spoken_requests.py --sample 24`), the first
`--requests` of each home, in the voices given, wideband and through the phone band, from its cache (or spoken
now and cached), heard with the home's names in the prompt as the server hears them.

    PYTHONPATH=$PWD nice -n 5 .venv/bin/python bench/final_window.py --requests 8
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

from spoken_requests import HOMES, OUT, new_home, recording, requests, typed_only  # noqa: E402
from voices import VOICES, phone_band  # noqa: E402

GREEDY_10 = "greedy final, 10 s"
SETTINGS = {GREEDY_10: (1, 10), "server's final, 10 s": (0, 10), "server's final, 8 s": (0, 8),
            "server's final, 6 s": (0, 6)}    # (hypotheses: 1 greedy, 0 the server's stt.hear; window in s)
BASELINE = "server's final, 10 s"


def recordings(per_home: int, voices: list[str]) -> list[tuple[str, tuple[str, ...], object]]:
    """(label, home's names, 16 kHz audio) for the first per_home tuning-set requests of each home."""
    from assistant.tools import ToolRunner

    rows = [r for r in requests(24) if not typed_only(r)]
    chosen = [r for home in HOMES for r in [r for r in rows if r["home"] == home][:per_home]]
    names = {home: ToolRunner(new_home(home)).spoken_names() for home in HOMES}
    found = []
    for row in chosen:
        said = row["history"][0]["content"]
        for voice in voices:
            wide = recording(voice, said)
            for band, audio in (("wideband", wide), ("phone", phone_band(wide))):
                found.append((f"{voice} {band} {said!r}", names[row["home"]], audio))
    return found


def hear(stt, setting: str, audio, names) -> tuple[str, float]:
    """(text, CPU seconds) of one final in one setting."""
    count, window = SETTINGS[setting]
    stt.final_window_s = window
    started = time.process_time()
    text = stt.hypotheses(audio, names, 1)[0][0] if count == 1 else stt.hear(audio, names).text
    return text, time.process_time() - started


def load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=8, help="tuning-set requests per home (default 8)")
    parser.add_argument("--voices", default=",".join(VOICES), help="comma-separated, from: " + ", ".join(VOICES))
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args(argv)
    from voice.stt import WhisperSTT

    clips = recordings(args.requests, args.voices.split(","))
    stt = WhisperSTT()
    for setting in SETTINGS:                                  # warm each setting once, uncounted
        hear(stt, setting, clips[0][2], clips[0][1])
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=ROOT).stdout.strip()
    load_before, order = load(), list(SETTINGS)
    cpu = {s: [] for s in SETTINGS}                          # per setting, per (round, recording)
    texts: dict[tuple[str, int], str] = {}
    for round_ in range(args.rounds):
        for i, (label, names, audio) in enumerate(clips):
            turn = (round_ * len(clips) + i) % len(order)
            for setting in order[turn:] + order[:turn]:
                text, seconds = hear(stt, setting, audio, names)
                cpu[setting].append(seconds)
                texts[setting, i] = text
        print(f"round {round_ + 1}/{args.rounds}, load {load()}", file=sys.stderr, flush=True)
    load_after = load()

    def paired(setting: str, baseline: str) -> float:
        return statistics.median(a / b for a, b in zip(cpu[setting], cpu[baseline]))

    lines = [f"{len(clips)} recordings ({args.requests} tuning-set requests per home, {args.voices}, wideband and "
             f"phone band), each heard {args.rounds} times in every setting, settings taking turns; commit {commit}, "
             f"1-minute load {load_before} -> {load_after}.", "",
             "| setting | median CPU per final (ms) | against the server's final at 10 s (paired median) | "
             "against a greedy final at 10 s (paired median) | finals reading otherwise than at 10 s |",
             "|---|---|---|---|---|"]
    for setting in SETTINGS:
        other = "" if SETTINGS[setting][0] == 1 else \
            str(sum(texts[setting, i] != texts[BASELINE, i] for i in range(len(clips))))
        lines.append(f"| {setting} | {1000 * statistics.median(cpu[setting]):.0f} | "
                     f"{paired(setting, BASELINE):.2f}x | {paired(setting, GREEDY_10):.2f}x | {other} |")
    eight = "server's final, 8 s"
    differ = [f"- {label}: {texts[BASELINE, i]!r} -> {texts[eight, i]!r}"
              for i, (label, _, _) in enumerate(clips) if texts[BASELINE, i] != texts[eight, i]]
    table = "\n".join(lines + ([""] + ["Finals reading otherwise at 8 s:"] + differ if differ else []))
    print(table)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "final_window.md").write_text(table + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
