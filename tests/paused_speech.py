"""Spoken sentences with a pause inside, the way people hesitate: "dim the lights to ... thirty percent".

The sentence is synthesised whole, so the words before the pause keep the intonation of a sentence that
goes on, and silence is inserted after a word (pause_point): at Whisper's timestamp of that word's end, moved
to the quietest 10 ms nearby, so no sound is cut in two. Voices: Piper (joe, `length_scale` sets the
rate), espeak-ng (words per minute) and flite.
"""
from __future__ import annotations

import shutil
import subprocess

import numpy as np

RATE = 16000


def piper(tts, text: str, length_scale: float = 1.0, sampled: bool = True, rate: int = RATE) -> np.ndarray:
    """Float32 speech from Piper at `rate` (16 kHz); length_scale > 1 speaks slower. sampled=False: without Piper's
    sampling noise (in sound and in durations), the same rendering every run, for a test whose words must be heard
    every time (Whisper wrote "bedroom van", "tan" or "sand" for 5 of 79 sampled "Turn off the bedroom fan.")."""
    from piper.config import SynthesisConfig

    from voice.audio import resample
    from voice.tts import normalize_for_speech

    config = SynthesisConfig(normalize_audio=False, length_scale=length_scale,
                             **({} if sampled else {"noise_scale": 0.0, "noise_w_scale": 0.0}))
    chunks = [c.audio_float_array for c in tts.voice.synthesize(normalize_for_speech(text), config)]
    return resample(np.concatenate(chunks).astype(np.float32), tts.sample_rate, rate)


def espeak(text: str, words_per_minute: int = 160, rate: int = RATE, voice: str = "en-us") -> np.ndarray:
    """Float32 speech at `rate` from espeak-ng's formant synthesiser."""
    from voice.audio import pcm16_to_float, resample

    if shutil.which("espeak-ng") is None:
        raise RuntimeError("espeak-ng is not installed (make system-deps)")
    wav = subprocess.run(["espeak-ng", "-v", voice, "-s", str(words_per_minute), "--stdout", text], check=True,
                         capture_output=True, timeout=30).stdout
    return resample(pcm16_to_float(wav[44:]), 22050, rate)    # espeak-ng: 44-byte header, 22050 Hz


def flite(text: str, voice: str = "rms") -> np.ndarray:
    """16 kHz float32 speech from flite's built-in voices (deterministic, unlike Piper, which samples)."""
    import tempfile
    import wave

    from voice.audio import pcm16_to_float, resample

    if shutil.which("flite") is None:
        raise RuntimeError("flite is not installed (make system-deps)")
    with tempfile.NamedTemporaryFile(suffix=".wav") as out:
        subprocess.run(["flite", "-voice", voice, "-t", text, "-o", out.name], check=True, capture_output=True,
                       timeout=30)
        with wave.open(out.name) as wav:
            rate, frames = wav.getframerate(), wav.readframes(wav.getnframes())
    return resample(pcm16_to_float(frames), rate, RATE)


def word_ends(whisper_model, audio: np.ndarray) -> list[tuple[str, float]]:
    """(word, end time in s) of each word Whisper hears in the audio."""
    segments, _ = whisper_model.transcribe(audio, language="en", word_timestamps=True, beam_size=1,
                                           condition_on_previous_text=False, vad_filter=False)
    return [(_plain(word.word), word.end) for segment in segments for word in (segment.words or [])]


def _plain(word: str) -> str:
    return "".join(c for c in word.lower() if c.isalnum())


def pause_point(whisper_model, audio: np.ndarray, text: str, after_words: int) -> int:
    """Sample where the `after_words`-th word of `text` ends in the audio.

    Whisper's time for that word when it heard it (the nearest occurrence to its place in the sentence),
    else the same share of the speech as the words' share of the letters; then the quietest 10 ms nearby."""
    words = text.split()
    target = _plain(words[after_words - 1])
    heard = word_ends(whisper_model, audio)
    matches = [i for i, (word, _) in enumerate(heard) if word == target]
    if matches:
        guess, reach = int(heard[min(matches, key=lambda i: abs(i - (after_words - 1)))][1] * RATE), 6
    else:
        share = len(" ".join(words[:after_words])) / len(text)
        start = int(np.argmax(np.abs(audio) > 0.01))
        guess, reach = start + int(share * (speech_end(audio) - start)), 12
    hop = RATE // 100
    lo, hi = max(0, guess - reach * hop), min(audio.size - hop, guess + reach * hop)
    starts = np.arange(lo, hi, hop // 2)
    energy = [float(np.mean(audio[s:s + hop] ** 2)) for s in starts]
    return int(starts[int(np.argmin(energy))]) + hop // 2


def insert_pause(audio: np.ndarray, cut: int, pause_ms: int) -> np.ndarray:
    """The audio with pause_ms of silence at sample `cut`."""
    return np.concatenate([audio[:cut], np.zeros(RATE * pause_ms // 1000, dtype=np.float32), audio[cut:]])


def speech_end(audio: np.ndarray, threshold: float = 0.01) -> int:
    """Sample index just after the last sound above threshold."""
    loud = np.nonzero(np.abs(audio) > threshold)[0]
    return int(loud[-1]) + 1 if loud.size else 0
