"""What the home's names in Whisper's prompt cost: CPU time per final (a beam of 3) by prompt, on the same recordings.

Prompts, each tried on every recording in a shuffled order:
- every name: the server's (ToolRunner.spoken_names, as many as fit);
- the words of the names that are not one token of Whisper's vocabulary ("samovar", not "mushroom lamp");
- whole names holding such a word;
- the fixed prompt alone (the default home's).
Recordings: the made-up home's requests of bench/spoken_requests.py's tuning set (`--requests` of them), in
every voice, wideband and phone band, from its cache (spoken now when missing). One thread, as the server's
Whisper workers run.

    PYTHONPATH=$PWD nice -n 5 .venv/bin/python bench/prompt_cost.py --requests 12
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

from assistant.tools import ToolRunner  # noqa: E402
from spoken_requests import new_home, recording, requests  # noqa: E402
from voices import VOICES, phone_band  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=12, help="made-up home requests of the tuning set")
    args = parser.parse_args(argv)
    from voice.stt import WhisperSTT

    stt = WhisperSTT(cpu_threads=1)
    names = ToolRunner(new_home("made_up")).spoken_names()

    def unusual(word: str) -> bool:
        return len(stt._tokenizer.encode(" " + word)) > 1
    prompts = {"every name (the server's)": names,
               "words not one token": tuple(dict.fromkeys(w for n in names for w in n.split() if unusual(w))),
               "whole names with such a word": tuple(n for n in names if any(unusual(w) for w in n.split())),
               "fixed prompt alone": ()}
    cpu: dict[str, list[float]] = {label: [] for label in prompts}
    order, rng = list(prompts), random.Random(22)
    for row in [r for r in requests(24) if r["home"] == "made_up"][:args.requests]:
        for voice in VOICES:
            wide = recording(voice, row["history"][0]["content"])
            for audio in (wide, phone_band(wide)):
                rng.shuffle(order)
                for label in order:
                    started = time.process_time()
                    stt.hypotheses(audio, prompts[label], 3)
                    cpu[label].append(time.process_time() - started)
    every = statistics.median(cpu[next(iter(prompts))])
    print("| prompt | prompt tokens | finals | median CPU | against every name |\n|---|---|---|---|---|")
    for label, names_in in prompts.items():
        tokens = len(stt._tokenizer.encode(" " + stt.prompt_text(names_in)))
        median = statistics.median(cpu[label])
        print(f"| {label} | {tokens} | {len(cpu[label])} | {1000 * median:.0f} ms | {median / every:.2f}x |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
