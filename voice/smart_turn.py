"""End of turn from the sound of speech: Smart Turn v3.2 (Daily, BSD-2-Clause) on ONNX Runtime.

The model is a Whisper-tiny encoder with a small head, trained on people finishing or pausing mid
sentence; it hears what a transcript cannot (a trailing "to..." in a level voice, a falling final
pitch). Input: Whisper's log-mel features of the last 8 s of the turn at 16 kHz, zeros in front when
shorter. Output: the probability that the speaker has finished.

The ONNX file is copied from the `pipecat-ai` wheel (pipecat/audio/turn/smart_turn/data/) with its
license beside it (voice/data/smart-turn-v3.2-LICENSE): that wheel pulls in numba, openai, resampy and
pins soxr, too much for one 8 MB file. The features below are written here from Whisper's definition
(the same as transformers' WhisperFeatureExtractor with an 8 s chunk).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import onnxruntime as ort

from voice.weights import verified

RATE = 16000
WINDOW_S = 8
N_FFT, HOP, N_MELS = 400, 160, 80


def _slaney_mel(hz: np.ndarray) -> np.ndarray:
    """Slaney's mel scale: linear below 1 kHz, logarithmic above."""
    hz = np.asarray(hz, dtype=np.float64)
    log_step = np.log(6.4) / 27.0
    return np.where(hz < 1000.0, 3.0 * hz / 200.0, 15.0 + np.log(np.maximum(hz, 1e-9) / 1000.0) / log_step)


def _slaney_hz(mel: np.ndarray) -> np.ndarray:
    mel = np.asarray(mel, dtype=np.float64)
    log_step = np.log(6.4) / 27.0
    return np.where(mel < 15.0, 200.0 * mel / 3.0, 1000.0 * np.exp(log_step * (mel - 15.0)))


def mel_filters() -> np.ndarray:
    """[N_MELS, N_FFT/2+1] triangular filters, equal area per filter (librosa's norm="slaney")."""
    edges = _slaney_hz(np.linspace(_slaney_mel(0.0), _slaney_mel(RATE / 2), N_MELS + 2))
    bins = np.linspace(0, RATE / 2, N_FFT // 2 + 1)
    lower, centre, upper = edges[:-2, None], edges[1:-1, None], edges[2:, None]
    rising = (bins[None, :] - lower) / (centre - lower)
    falling = (upper - bins[None, :]) / (upper - centre)
    triangles = np.maximum(0.0, np.minimum(rising, falling))
    return triangles * (2.0 / (upper - lower))


_FILTERS = mel_filters()
_WINDOW = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(N_FFT) / N_FFT)     # periodic Hann


def log_mel(audio: np.ndarray) -> np.ndarray:
    """Whisper's features of exactly WINDOW_S seconds: [N_MELS, 100 * WINDOW_S] float32, about [-1, 1]."""
    x = np.asarray(audio, dtype=np.float32)
    if x.size != RATE * WINDOW_S:
        raise ValueError(f"log_mel needs {WINDOW_S} s at {RATE} Hz, got {x.size} samples")
    x = (x - x.mean()) / np.sqrt(x.var() + 1e-7)                  # zero mean, unit variance first
    padded = np.pad(x.astype(np.float64), N_FFT // 2, mode="reflect")  # centred frames
    frames = np.lib.stride_tricks.sliding_window_view(padded, N_FFT)[::HOP]
    power = np.abs(np.fft.rfft(frames * _WINDOW, axis=-1)) ** 2     # [frames, bins]
    mel = np.log10(np.maximum(_FILTERS @ power.T, 1e-10))[:, :-1]   # Whisper drops the last frame
    mel = np.maximum(mel, mel.max() - 8.0)
    return ((mel + 4.0) / 4.0).astype(np.float32)


def last_window(audio: np.ndarray) -> np.ndarray:
    """The last WINDOW_S seconds, zeros in front when the turn is shorter (how the model was trained)."""
    n = RATE * WINDOW_S
    audio = np.asarray(audio, dtype=np.float32)[-n:]
    return audio if audio.size == n else np.concatenate([np.zeros(n - audio.size, np.float32), audio])


class SmartTurnModel:
    """Loaded once and shared by every session; ~10-40 ms a call on one core, so it runs on a worker thread."""

    def __init__(self, path: str | Path | None = None):
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        model = path or verified("voice", "data/smart-turn-v3.2-cpu.onnx")
        self.session = ort.InferenceSession(str(model), sess_options=options,
                                            providers=["CPUExecutionProvider"])

    def finished(self, audio: np.ndarray) -> float:
        """16 kHz float32 turn audio up to now -> probability that the speaker has finished."""
        features = log_mel(last_window(audio))[None]
        (probability,) = self.session.run(None, {"input_features": features})
        return float(probability.reshape(-1)[0])
