"""Voice activity detection: Silero VAD (the ONNX model the silero-vad package ships) on ONNX Runtime.

One ``SileroModel`` (the loaded network, read-only) is shared by every session; each session owns a
``SileroVAD`` holding its recurrent state and audio context, so sessions never disturb each other.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnxruntime as ort

from voice.weights import verified


def _embedded_model() -> Path:
    return verified("silero_vad", "data/silero_vad.onnx")


class SileroModel:
    """The Silero network, loaded once. One frame is ~0.1 ms of compute, so one intra-op thread:
    spinning up a thread pool per 32 ms frame would cost more than it saves, and sessions run in parallel."""

    sample_rate = 16000

    def __init__(self, path: str | None = None):
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        self.session = ort.InferenceSession(str(path or _embedded_model()), sess_options=options,
                                            providers=["CPUExecutionProvider"])
        self._sr = np.array(self.sample_rate, dtype=np.int64)

    def run(self, x: np.ndarray, state: np.ndarray) -> tuple[float, np.ndarray]:
        """One step: context+frame [1, 64+512] and recurrent state [2, 1, 128] -> (speech prob, new state)."""
        prob, new_state = self.session.run(None, {"input": x, "state": state, "sr": self._sr})
        return float(prob[0, 0]), new_state


class SileroVAD:
    """Per-session speech detector: feed consecutive 512-sample frames of 16 kHz float audio."""

    sample_rate = 16000
    frame_samples = 512
    _context_samples = 64  # Silero v5+ sees the tail of the previous frame in front of each frame

    def __init__(self, model: SileroModel | None = None):
        self.model = model or SileroModel()
        self.reset()

    def reset(self) -> None:
        self._state = np.zeros((2, 1, 128), dtype=np.float32)
        # the model input [1, context + frame], reused every frame: its head holds the previous frame's tail
        self._input = np.zeros((1, self._context_samples + self.frame_samples), dtype=np.float32)

    def probability(self, frame: np.ndarray) -> float:
        """Speech probability of the next 32 ms frame (exactly ``frame_samples`` samples at 16 kHz)."""
        frame = np.asarray(frame, dtype=np.float32).reshape(-1)
        if frame.size != self.frame_samples:
            raise ValueError(f"SileroVAD needs {self.frame_samples}-sample frames at 16 kHz, got {frame.size}")
        x = self._input
        x[0, self._context_samples:] = frame
        prob, self._state = self.model.run(x, self._state)
        x[0, :self._context_samples] = frame[-self._context_samples:]
        return prob
