"""Speed of the speech engines on this machine: load times, STT, TTS, VAD, codecs.

    .venv/bin/python bench/voice_speed.py [--repeats 7]

Prints a table of medians. Baselines: STT against faster-whisper's stock transcribe() (30 s window,
beam 5, temperature fallback); first audio of a reply against synthesising the whole reply at once.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from voice.audio import StreamResampler, mulaw_decode, mulaw_encode, resample
from voice.stt import WhisperSTT
from voice.tts import PiperTTS, split_clauses
from voice.vad import SileroModel, SileroVAD

REPLY = "Okay, I turned on the kitchen light and set the thermostat to 21 degrees. Anything else?"
REQUEST = "Set the thermostat in the bedroom to twenty one degrees please."


def timed(fn, repeats: int) -> tuple[float, object]:
    """Median wall time in ms of ``fn()`` over ``repeats`` runs (after one warm-up), and its last result."""
    result = fn()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), result


def load_ms(factory) -> tuple[float, object]:
    start = time.perf_counter()
    obj = factory()
    return (time.perf_counter() - start) * 1000, obj


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args(argv)
    rows: list[tuple[str, float, str, str]] = []   # (what, median ms, baseline, note)

    t_stt, stt = load_ms(WhisperSTT)
    t_tts, tts = load_ms(PiperTTS)
    t_vad, vad_model = load_ms(SileroModel)
    rows += [("load WhisperSTT (tiny.en int8)", t_stt, "", ""), ("load PiperTTS (joe-medium)", t_tts, "", ""),
             ("load SileroModel", t_vad, "", "")]

    speech = resample(tts.synthesize(REQUEST), tts.sample_rate, 16000)
    audio = np.concatenate([np.zeros(4800, np.float32), speech, np.zeros(8000, np.float32)])
    seconds = len(audio) / 16000

    def stock():
        segments, _ = stt.whisper.transcribe(audio, language="en")
        return " ".join(s.text.strip() for s in segments)

    base_ms, base_text = timed(stock, args.repeats)
    final_ms, final_text = timed(lambda: stt.transcribe(audio), args.repeats)
    partial_ms, _ = timed(lambda: stt.transcribe(audio, partial=True), args.repeats)
    rows += [(f"STT stock faster-whisper, {seconds:.1f} s speech", base_ms, "1.00x", repr(base_text)),
             (f"STT final (10 s window), {seconds:.1f} s", final_ms, f"{base_ms / final_ms:.2f}x", repr(final_text)),
             (f"STT partial, {seconds:.1f} s", partial_ms, f"{base_ms / partial_ms:.2f}x", "")]

    whole_ms, whole = timed(lambda: tts.synthesize(REPLY), args.repeats)
    first = split_clauses(REPLY)[0]
    first_ms, _ = timed(lambda: tts.synthesize(first), args.repeats)
    reply_s = len(whole) / tts.sample_rate
    rows += [(f"TTS whole reply ({reply_s:.1f} s audio)", whole_ms, "1.00x",
              f"real-time factor {whole_ms / 1000 / reply_s:.3f}"),
             (f"TTS first clause {first!r}", first_ms, f"{whole_ms / first_ms:.2f}x", "first audio of the reply")]

    vad = SileroVAD(vad_model)
    frames = audio[:len(audio) // 512 * 512].reshape(-1, 512)
    vad_ms, _ = timed(lambda: [vad.probability(f) for f in frames], args.repeats)
    rows.append(("VAD per 32 ms frame", vad_ms / len(frames), "", f"{len(frames)} frames"))

    frame_24k = resample(audio, 16000, 24000)[:480]
    stream = StreamResampler(24000, 16000)
    rows += [("resample 20 ms 24k->16k (stream)", timed(lambda: stream.process(frame_24k), 200)[0], "", ""),
             ("mu-law encode+decode 20 ms @8k", timed(lambda: mulaw_decode(mulaw_encode(audio[:160])), 200)[0], "", "")]

    width = max(len(r[0]) for r in rows)
    print(f"{'measure':<{width}}  {'median ms':>10}  {'speed-up':>8}  note")
    for what, ms, ratio, note in rows:
        print(f"{what:<{width}}  {ms:>10.3f}  {ratio:>8}  {note}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
