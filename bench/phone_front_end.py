"""What the phone band costs Whisper, and what each front end for it wins back: word errors of greedy finals.

The same requests as bench/spoken_requests.py (the same sample, its cached recordings), each recording heard
wideband and through the phone band (bench/voices.phone_band), greedy, with the home's names in the prompt and
put in after (voice.heard_names), by front ends for the phone band:
- as heard: the 16 kHz log-mel of the 8 kHz audio, its top octave empty (voice.stt._Band off);
- top octave filled: the server's (voice.stt._Band), at each `--drops` below the octave under it;
- pre-emphasis 0.7, noise above 4.2 kHz at -40 dB, the 8 kHz samples' mirror image above 4 kHz at -6 dB: sound
  put into the waveform instead (the top octave not filled).
Word errors against the words said (voice_speed.word_errors), and the share heard word for word, per voice.

    PYTHONPATH=$PWD nice -n 5 .venv/bin/python bench/phone_front_end.py --requests tests/data/paraphrases_tenth.jsonl --sample 15
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "bench"), str(ROOT / "tests"), str(ROOT)]

import voice.stt  # noqa: E402
from assistant.tools import ToolRunner  # noqa: E402
from spoken_requests import HOMES, new_home, recording, requests, typed_only  # noqa: E402
from voice.audio import resample  # noqa: E402
from voice.heard_names import hear_names  # noqa: E402
from voice_speed import normalised_words, word_errors  # noqa: E402
from voices import RATE, VOICES, phone_band  # noqa: E402


def _above(audio: np.ndarray, hz: float) -> np.ndarray:
    spectrum = np.fft.rfft(audio)
    spectrum[np.fft.rfftfreq(audio.size, 1 / RATE) < hz] = 0
    return np.fft.irfft(spectrum, audio.size).astype(np.float32)


def pre_emphasis(audio: np.ndarray) -> np.ndarray:
    return np.append(audio[:1], audio[1:] - 0.7 * audio[:-1]).astype(np.float32)


def noise_above(audio: np.ndarray) -> np.ndarray:
    noise = _above(np.random.default_rng(0).standard_normal(audio.size).astype(np.float32), 4200)
    return audio + noise * np.abs(audio).max() * 10 ** (-40 / 20)


def mirror_image(audio: np.ndarray) -> np.ndarray:
    """The 8 kHz samples stuffed with zeros: their spectrum mirrored about 4 kHz, kept above it, 6 dB down."""
    stuffed = np.zeros(audio.size, np.float32)
    eight = resample(audio, RATE, 8000)[:audio.size // 2]
    stuffed[:2 * eight.size:2] = 2 * eight
    return audio + _above(stuffed, 4000) * 10 ** (-6 / 20)


WAVEFORM = {"pre-emphasis 0.7": pre_emphasis, "noise above 4.2 kHz, -40 dB": noise_above,
            "mirror image, -6 dB": mirror_image}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=Path, action="append", required=True, help="a paraphrase or held-out "
                        "jsonl file (may be given again)")
    parser.add_argument("--sample", type=int, help="requests per home, seeded as bench/spoken_requests.py's")
    parser.add_argument("--drops", default=str(voice.stt.PHONE_OCTAVE_DROP),
                        help="comma-separated drops (log10 / 4) of the filled octave below the one under it")
    parser.add_argument("--waveform", action="store_true", help="also the front ends that put sound in the waveform")
    args = parser.parse_args(argv)
    rows = [r for r in requests(args.sample, [], args.requests) if not typed_only(r)]
    stt = voice.stt.WhisperSTT(final_hypotheses=1)
    names = {kind: ToolRunner(new_home(kind)).spoken_names() for kind in HOMES}
    narrow = stt._band.narrow
    ends = {"wideband": (None, None), "phone, as heard": (lambda a: a, None),
            **{f"phone, top octave filled, {drop}": (lambda a: a, float(drop)) for drop in args.drops.split(",")},
            **({f"phone, {name}": (change, None) for name, change in WAVEFORM.items()} if args.waveform else {})}
    totals: dict[tuple[str, str], list[int]] = {}
    started = time.perf_counter()
    for done, row in enumerate(rows, 1):
        said = row["history"][0]["content"]
        reference = normalised_words(said)
        for voice_name in VOICES:
            wide = recording(voice_name, said)
            phone = phone_band(wide)
            for end, (change, drop) in ends.items():
                stt._band.narrow = narrow if drop is not None else (lambda audio: False)
                if drop is not None:
                    voice.stt.PHONE_OCTAVE_DROP = drop
                heard = stt.hypotheses(wide if change is None else change(phone), names[row["home"]], 1)
                text = hear_names(heard[0][0] if heard else "", names[row["home"]]).text
                errors = word_errors(reference, normalised_words(text))
                for group in ("all", voice_name):
                    totals[group, end] = [t + new for t, new in zip(totals.get((group, end), [0] * 4),
                                                                    (errors, len(reference), errors == 0, 1))]
        print(f"\r{done}/{len(rows)} requests, {time.perf_counter() - started:.0f} s", end="", file=sys.stderr,
              flush=True)
    print(file=sys.stderr)
    print(f"{len(rows)} requests, {len(VOICES)} voices; greedy finals, names heard.\n")
    print("| voice | front end | recordings | word errors | heard word for word |\n|---|---|---|---|---|")
    for group in ("all", *VOICES):
        for end in ends:
            errors, words, exact, n = totals[group, end]
            print(f"| {group} | {end} | {n} | {100 * errors / words:.1f}% | {100 * exact / n:.1f}% |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
