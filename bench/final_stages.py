"""Where a final's CPU goes: the stages of `WhisperSTT.hear` timed one by one on the same recordings.

Log-mel features (as the server computes them, and of every frame of the window), the encoder (the finals'
window), the beam the server decodes (FINAL_HYPOTHESES) and narrower ones, the forced pass for word
probabilities, and the decoding without the prompt (run by the server only where the words end in the prompt's
own: its share is given); the whole `hear` and a greedy final
(`hypotheses(..., 1)`, the baseline of the cost target) for comparison, also paired (each recording's ratio);
the beam and the greedy decoding with the fixed prompt alone, without the home's names (the prompt's length: up
to _MAX_PROMPT_TOKENS). Decodings of one recording are timed in turn, the first another for each recording.
Medians of the process's CPU time (Whisper's threads included) and of the wall clock, each recording heard
`--rounds` times, with `--cpu-threads` CTranslate2 threads (default: the server's) and numpy's products on one
thread, as the server runs them (streaming.engines.one_blas_thread). Recordings as
`bench/final_window.py`'s.

    PYTHONPATH=$PWD nice -n 5 .venv/bin/python bench/final_stages.py --requests 3
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

from final_window import load, recordings  # noqa: E402
from voices import VOICES  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=3, help="tuning-set requests per home (default 3)")
    parser.add_argument("--voices", default=",".join(VOICES), help="comma-separated, from: " + ", ".join(VOICES))
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--cpu-threads", type=int, default=0, help="CTranslate2 threads (default: the server's)")
    args = parser.parse_args(argv)
    import ctranslate2

    from streaming.engines import one_blas_thread
    from voice.stt import (_TOKENS_PER_S, FINAL_HYPOTHESES, WhisperSTT, _plain_words, _Window, echoes_prompt,
                           log_mel)

    clips = recordings(args.requests, args.voices.split(","))
    one_blas_thread()               # as the server runs numpy's products (the log-mel's filter bank)
    stt = WhisperSTT(cpu_threads=args.cpu_threads)
    stt.hear(clips[0][2], clips[0][1])                                  # warm, uncounted
    widths = sorted({FINAL_HYPOTHESES, *range(1, FINAL_HYPOTHESES)}, reverse=True)
    cpu: dict[str, list[float]] = {}
    wall: dict[str, list[float]] = {}
    echoes, load_before = 0, load()

    def timed(stage: str, work):
        started, clock = time.process_time(), time.perf_counter()
        result = work()
        cpu.setdefault(stage, []).append(time.process_time() - started)
        wall.setdefault(stage, []).append(time.perf_counter() - clock)
        return result

    def in_turn(index: int, stages: list[tuple[str, object]]) -> dict[str, object]:
        """Each stage timed, the first one another for each recording: the first decoding after the encoder
        took 20 ms more than the same decoding after it (one run, 84 recordings)."""
        turn = index % len(stages)
        return {stage: timed(stage, work) for stage, work in stages[turn:] + stages[:turn]}

    for _ in range(args.rounds):
        for index, (_, names, audio) in enumerate(clips):
            in_turn(index, [("hear (the server's final)", lambda: stt.hear(audio, names)),
                            ("greedy final", lambda: stt.hypotheses(audio, names, 1))])
            prompt = stt._prompt_for(names)[1]
            padded = np.zeros(max(stt.final_window_s * stt.sample_rate, audio.size), np.float32)
            padded[:audio.size] = audio
            extractor = stt.whisper.feature_extractor
            features = timed("log-mel features (voice.stt.log_mel)", lambda: log_mel(extractor, audio, padded.size))
            timed("log-mel features, every frame of the window computed",
                  lambda: extractor(padded, padding=0)[:, :padded.size // extractor.hop_length])
            encoded = timed("encoder", lambda: stt.whisper.model.encode(
                ctranslate2.StorageView.from_array(np.ascontiguousarray(features[None]))))
            window = _Window(encoded, audio.size // extractor.hop_length, int(16 + _TOKENS_PER_S * audio.size / stt.sample_rate))
            decoded = in_turn(index, [
                *((f"beam of {width}" if width > 1 else "greedy decoding",
                   lambda width=width: stt._generate(window, prompt, width)) for width in widths),
                (f"beam of {FINAL_HYPOTHESES}, the fixed prompt alone",
                 lambda: stt._generate(window, stt._prompt_for(())[1], FINAL_HYPOTHESES)),
                ("greedy decoding, the fixed prompt alone", lambda: stt._generate(window, stt._prompt_for(())[1], 1))])
            beams = {FINAL_HYPOTHESES: decoded[f"beam of {FINAL_HYPOTHESES}"]}
            chosen = beams[FINAL_HYPOTHESES][0] if beams[FINAL_HYPOTHESES] else None
            if chosen is None:
                continue
            spoken = f" {' '.join(_plain_words(chosen.text))} "
            forced = stt._prompt_for(tuple(n for n in names if f" {' '.join(_plain_words(n))} " in spoken))[1][:-1]
            timed("forced pass", lambda: stt.whisper.model.align(encoded, forced, [chosen.tokens], window.frames))
            echoes += echoes_prompt(chosen.text, stt.prompt_text(names))
            bare = [*stt._tokenizer.sot_sequence, stt._tokenizer.no_timestamps]
            timed("decoding without the prompt", lambda: stt._generate(window, bare, 1))
    heard = len(cpu["forced pass"])
    print(f"{len(clips)} recordings, {args.rounds} rounds; 1-minute load {load_before} -> {load()}; the server "
          f"decodes without the prompt in {echoes} of {heard} finals.\n")
    greedy = statistics.median(cpu["greedy final"])
    paired = statistics.median(a / b for a, b in zip(cpu["hear (the server's final)"], cpu["greedy final"]))
    print(f"CTranslate2 threads: {args.cpu_threads or 'as the server sets them'}; "
          f"the server's final against a greedy final, paired median: {paired:.2f}x CPU.\n")
    print("| stage | median CPU (ms) | against a greedy final | median wall clock (ms) |\n|---|---|---|---|")
    for stage, seconds in cpu.items():
        print(f"| {stage} | {1000 * statistics.median(seconds):.1f} | {statistics.median(seconds) / greedy:.2f}x | "
              f"{1000 * statistics.median(wall[stage]):.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
