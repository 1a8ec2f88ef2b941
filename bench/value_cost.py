"""What weighing a doubted number, action, question word or spelling of a name (voice/heard_values.py) adds to
the server's final, paired.

Each recording of the spoken bench's requests (its renderings, the same samples as `bench/spoken_requests.py`
hears, wideband and phone band) is heard by `WhisperSTT.hear` (the server's 3-best final) and then weighed, each
timed in the process's CPU (Whisper's threads included) and the wall clock, numpy's products on one thread as the
server runs them. Reported: the finals with something doubted to weigh and what weighing cost them (median, and
the paired ratio of the final with its weighing to the final alone), and over all finals the weighing's CPU against
the finals' (a final with nothing to weigh, voice.heard_values.to_weigh, pays a regular expression).

    PYTHONPATH=$PWD nice -n 5 .venv/bin/python bench/value_cost.py --requests FILE --sample 15 --cache DIR
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

from spoken_requests import CACHE, FILES, new_home, phone_band, recording, requests, typed_only  # noqa: E402
from voices import VOICES  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=Path, action="append", help="a paraphrase or held-out jsonl (default: "
                        "the held-out files)")
    parser.add_argument("--sample", type=int, help="requests per home, as bench/spoken_requests.py samples them")
    parser.add_argument("--voices", default=",".join(VOICES), help="comma-separated, from: " + ", ".join(VOICES))
    parser.add_argument("--cache", type=Path, default=CACHE, help="the spoken bench's recordings")
    args = parser.parse_args(argv)

    from assistant.tools import ToolRunner
    from streaming.engines import one_blas_thread
    from voice.heard_values import to_weigh, weighed
    from voice.stt import WhisperSTT

    one_blas_thread()
    stt = WhisperSTT()
    rows = [r for r in requests(args.sample, [], args.requests or FILES) if not typed_only(r)]
    hear_cpu, weigh_cpu, doubted = [], [], []          # doubted: (final's CPU, weighing's CPU, wall of each)
    started = time.perf_counter()
    for row in rows:
        said, names = row["history"][0]["content"], ToolRunner(new_home(row["home"])).spoken_names()
        for voice in args.voices.split(","):
            wide = recording(voice, said, args.cache)
            for audio in (wide, phone_band(wide)):
                cpu, wall = time.process_time(), time.perf_counter()
                heard = stt.hear(audio, names)
                heard_cpu, heard_wall = time.process_time() - cpu, time.perf_counter() - wall
                cpu, wall = time.process_time(), time.perf_counter()
                weighed(stt, audio, heard, names)
                extra_cpu, extra_wall = time.process_time() - cpu, time.perf_counter() - wall
                hear_cpu.append(heard_cpu)
                weigh_cpu.append(extra_cpu)
                if to_weigh(heard, names):
                    doubted.append((heard_cpu, extra_cpu, heard_wall, extra_wall))
        print(f"\r{len(hear_cpu)} finals, {len(doubted)} with something doubted to weigh, "
              f"{time.perf_counter() - started:.0f} s", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    median = statistics.median
    print(f"{len(hear_cpu)} finals (server's 3-best final, then weighed), {len(doubted)} with a doubted number, "
          f"action, question word or spelling of a name ({100 * len(doubted) / len(hear_cpu):.1f}%).")
    print(f"The final: median {1000 * median(hear_cpu):.0f} ms CPU over all finals.")
    if doubted:
        print(f"Finals weighed: the final median {1000 * median(d[0] for d in doubted):.0f} "
              f"ms CPU ({1000 * median(d[2] for d in doubted):.0f} ms wall); the weighing median "
              f"{1000 * median(d[1] for d in doubted):.0f} ms CPU ({1000 * median(d[3] for d in doubted):.0f} ms "
              f"wall); paired, the final with its weighing {median((d[0] + d[1]) / d[0] for d in doubted):.2f}x "
              f"the final alone (CPU), {median((d[2] + d[3]) / d[2] for d in doubted):.2f}x (wall).")
    print(f"Over all finals: {1 + sum(weigh_cpu) / sum(hear_cpu):.3f}x the finals' CPU "
          f"({1000 * sum(weigh_cpu):.0f} ms of weighing against {1000 * sum(hear_cpu):.0f} ms of finals).")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
