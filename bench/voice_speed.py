"""Speed of the speech engines on this machine: load times, STT, TTS, VAD, codecs; and STT accuracy.

    .venv/bin/python bench/voice_speed.py [--repeats 7]

Prints a table of medians. Baselines: STT against faster-whisper's stock transcribe() (30 s window,
beam 5, temperature fallback); first audio of a reply against synthesising the whole reply at once.
Then the word error rate of WhisperSTT on spoken commands (Piper and espeak-ng voices), with and
without its vocabulary prompt.
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import tempfile
import time
import wave

import numpy as np

from voice.audio import StreamResampler, mulaw_decode, mulaw_encode, pcm16_to_float, resample
from voice.stt import WhisperSTT
from voice.text_turn import TextTurnModel
from voice.tts import PiperTTS, split_clauses
from voice.vad import SileroModel, SileroVAD

REPLY = "Okay, I turned on the kitchen light and set the thermostat to 21 degrees. Anything else?"
REQUEST = "Set the thermostat in the bedroom to twenty one degrees please."
COMMANDS = ["what is seven times six", "turn on the kitchen light", "set the thermostat to twenty one degrees",
            "what's the temperature in the bedroom", "turn off all the lights in the living room please",
            "dim the bedroom lights to thirty percent", "what time is it", "stop", "is the garage door open",
            "set a timer for five minutes", "switch off the heater in the office", "how warm is it in the kitchen",
            "open the blinds in the study", "lock the front door", "play some music in the lounge",
            "how much is twelve plus nine"]
_ONES = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen " \
        "seventeen eighteen nineteen".split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def timed_together(first, second, repeats: int) -> tuple[tuple[float, object], tuple[float, object]]:
    """timed() for two calls taking turns, so that a load that changes during the run weighs on both alike."""
    results = [first(), second()]
    times: tuple[list, list] = ([], [])
    for _ in range(repeats):
        for n, fn in enumerate((first, second)):
            start = time.perf_counter()
            results[n] = fn()
            times[n].append((time.perf_counter() - start) * 1000)
    return (statistics.median(times[0]), results[0]), (statistics.median(times[1]), results[1])


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


def spoken(number: int) -> list[str]:
    if number < 20:
        return [_ONES[number]]
    tens, ones = divmod(number, 10)
    return [_TENS[tens]] + ([_ONES[ones]] if ones else [])


def normalised_words(text: str) -> list[str]:
    """Lower-case words with digits spelled out, so "21 degrees" and "twenty one degrees" compare equal."""
    text = re.sub(r"(\d+)%", r"\1 percent", text.lower())
    out = []
    for word in re.sub(r"[^\w\s']", " ", text).split():
        out += spoken(int(word)) if word.isdigit() and int(word) < 100 else [word]
    return out


def word_errors(reference: list[str], hypothesis: list[str]) -> int:
    """Levenshtein distance over words."""
    row = list(range(len(hypothesis) + 1))
    for i, ref in enumerate(reference, 1):
        prev, row[0] = row[0], i
        for j, hyp in enumerate(hypothesis, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ref != hyp))
    return row[-1]


def command_audio(tts: PiperTTS) -> list[tuple[str, str, np.ndarray]]:
    """(voice, text, 16 kHz audio with 0.3 s before and 0.5 s after) for every command and voice."""
    clips = []
    lead, tail = np.zeros(4800, np.float32), np.zeros(8000, np.float32)
    with tempfile.TemporaryDirectory() as tmp:
        for text in COMMANDS:
            clips.append(("piper", text, np.concatenate([lead, resample(tts.synthesize(text), tts.sample_rate, 16000), tail])))
            if shutil.which("espeak-ng"):
                subprocess.run(["espeak-ng", "-w", f"{tmp}/e.wav", text], check=True)
                with wave.open(f"{tmp}/e.wav") as w:
                    rate, audio = w.getframerate(), pcm16_to_float(w.readframes(w.getnframes()))
                clips.append(("espeak-ng", text, np.concatenate([lead, resample(audio, rate, 16000), tail])))
    return clips


def accuracy_table(stt: WhisperSTT, tts: PiperTTS) -> None:
    clips = command_audio(tts)
    unprompted = WhisperSTT(prompt=None)
    print(f"\nSTT word error rate on {len(COMMANDS)} spoken commands (digits spelled out before comparing)")
    print(f"{'voice':<10}  {'with prompt':>11}  {'no prompt':>9}")
    for voice in sorted({v for v, _, _ in clips}):
        rates = []
        for model in (stt, unprompted):
            errors = words = 0
            for v, text, audio in clips:
                if v == voice:
                    reference = normalised_words(text)
                    errors += word_errors(reference, normalised_words(model.transcribe(audio)))
                    words += len(reference)
            rates.append(errors / words)
        print(f"{voice:<10}  {rates[0]:>11.1%}  {rates[1]:>9.1%}")


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
    (final_ms, final_text), (hear_ms, heard) = timed_together(lambda: stt.transcribe(audio), lambda: stt.hear(audio),
                                                             2 * args.repeats + 1)
    partial_ms, _ = timed(lambda: stt.transcribe(audio, partial=True), args.repeats)
    judge = TextTurnModel()
    rows += [(f"STT stock faster-whisper, {seconds:.1f} s speech", base_ms, "1.00x", repr(base_text)),
             (f"STT final (10 s window), {seconds:.1f} s", final_ms, f"{base_ms / final_ms:.2f}x", repr(final_text)),
             (f"STT final + word probabilities (a pause's), {seconds:.1f} s", hear_ms, f"{base_ms / hear_ms:.2f}x",
              f"{hear_ms / final_ms:.2f}x the final's cost"),
             (f"STT partial, {seconds:.1f} s", partial_ms, f"{base_ms / partial_ms:.2f}x", ""),
             ("text turn judge, one pause", timed(lambda: judge.judge(heard), 200)[0], "", "")]

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
    accuracy_table(stt, tts)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
