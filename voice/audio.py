"""Audio plumbing: PCM16 <-> float32, G.711 μ-law / A-law, anti-aliased resampling.

Everything is vectorised numpy (``audioop`` is gone in Python 3.13). The G.711 codecs follow
ITU-T G.711 (the segment/quantisation rules of the classic reference implementation): decoding is
a 256-entry table and encoding a 65,536-entry table over every int16 value, both built once at
import, so a 20 ms telephone frame costs one fancy-index.
"""

from __future__ import annotations

import functools
import math

import numpy as np
import soxr

_PCM_SCALE = 32768.0


def pcm16_to_float(data: bytes | np.ndarray) -> np.ndarray:
    """Little-endian signed 16-bit PCM (bytes or int16 array) -> float32 in [-1, 1)."""
    if isinstance(data, (bytes, bytearray, memoryview)):
        if len(data) % 2:
            raise ValueError(f"PCM16 needs an even number of bytes, got {len(data)}")
        data = np.frombuffer(data, dtype="<i2")
    pcm = np.asarray(data)
    if pcm.dtype != np.int16 and pcm.dtype != np.dtype("<i2"):
        raise TypeError(f"expected PCM16 bytes or int16 samples, got {pcm.dtype}")
    return _scaled(pcm)


def _scaled(samples: np.ndarray) -> np.ndarray:
    """Integer samples -> float32 in [-1, 1) (one new array)."""
    out = samples.astype(np.float32)
    out /= _PCM_SCALE
    return out


def _to_int16(x: np.ndarray) -> np.ndarray:
    """Float samples in [-1, 1] -> int16, rounded and clipped (int16 input passes through)."""
    x = np.asarray(x)
    if x.dtype == np.int16:
        return x
    y = x.astype(np.float32) * np.float32(_PCM_SCALE)   # one float temporary, rounded and clipped in place
    np.rint(y, out=y)
    np.clip(y, -32768, 32767, out=y)
    return y.astype(np.int16)


def float_to_pcm16(x: np.ndarray) -> bytes:
    """Float samples in [-1, 1] -> little-endian PCM16 bytes (clipped, not wrapped)."""
    return _to_int16(x).astype("<i2", copy=False).tobytes()


# --- G.711 -------------------------------------------------------------------------------------

def _mulaw_decode_table() -> np.ndarray:
    u = ~np.arange(256, dtype=np.int32) & 0xFF
    t = (((u & 0x0F) << 3) + 0x84) << ((u & 0x70) >> 4)
    return np.where(u & 0x80, 0x84 - t, t - 0x84).astype(np.int16)


def _mulaw_encode_table() -> np.ndarray:
    """μ-law code for every int16 value: 14-bit magnitude + bias 33, 8 segments of 16 steps."""
    pcm = np.arange(-32768, 32768, dtype=np.int32) >> 2
    negative = pcm < 0
    magnitude = np.minimum(np.where(negative, -pcm, pcm), 8159) + 33
    segment = np.searchsorted(np.array([0x3F, 0x7F, 0xFF, 0x1FF, 0x3FF, 0x7FF, 0xFFF, 0x1FFF]), magnitude)
    code = np.where(segment >= 8, 0x7F, (segment << 4) | ((magnitude >> (segment + 1)) & 0x0F))
    return (code ^ np.where(negative, 0x7F, 0xFF)).astype(np.uint8)


def _alaw_decode_table() -> np.ndarray:
    a = np.arange(256, dtype=np.int32) ^ 0x55
    segment = (a & 0x70) >> 4
    t = ((a & 0x0F) << 4) + np.where(segment == 0, 8, 0x108)
    t = np.where(segment > 1, t << np.maximum(segment - 1, 0), t)
    return np.where(a & 0x80, t, -t).astype(np.int16)


def _alaw_encode_table() -> np.ndarray:
    """A-law code for every int16 value: 13-bit magnitude, segment 0 and 1 share a step size."""
    pcm = np.arange(-32768, 32768, dtype=np.int32) >> 3
    negative = pcm < 0
    magnitude = np.where(negative, -pcm - 1, pcm)
    segment = np.searchsorted(np.array([0x1F, 0x3F, 0x7F, 0xFF, 0x1FF, 0x3FF, 0x7FF, 0xFFF]), magnitude)
    mantissa = np.where(segment < 2, magnitude >> 1, magnitude >> np.maximum(segment, 1)) & 0x0F
    return (((segment << 4) | mantissa) ^ np.where(negative, 0x55, 0xD5)).astype(np.uint8)


_MULAW_DECODE = _mulaw_decode_table()
_MULAW_ENCODE = _mulaw_encode_table()
_ALAW_DECODE = _alaw_decode_table()
_ALAW_ENCODE = _alaw_encode_table()


def mulaw_encode(x: np.ndarray) -> bytes:
    """Float samples in [-1, 1] (or int16 samples) -> G.711 μ-law bytes."""
    return _MULAW_ENCODE[_to_int16(x).astype(np.int32) + 32768].tobytes()


def mulaw_decode(b: bytes) -> np.ndarray:
    """G.711 μ-law bytes -> float32 samples."""
    return _scaled(_MULAW_DECODE[np.frombuffer(b, dtype=np.uint8)])


def alaw_encode(x: np.ndarray) -> bytes:
    """Float samples in [-1, 1] (or int16 samples) -> G.711 A-law bytes."""
    return _ALAW_ENCODE[_to_int16(x).astype(np.int32) + 32768].tobytes()


def alaw_decode(b: bytes) -> np.ndarray:
    """G.711 A-law bytes -> float32 samples."""
    return _scaled(_ALAW_DECODE[np.frombuffer(b, dtype=np.uint8)])


# --- resampling --------------------------------------------------------------------------------

# soxr high quality: steep anti-aliasing (its filter reads about 5 ms of input either side at 24 -> 16 kHz,
# about 10 ms at 8 -> 16 kHz)
_QUALITY = "HQ"


def resample(x: np.ndarray, from_rate: int, to_rate: int) -> np.ndarray:
    """Resample a whole mono signal; frequencies above the new Nyquist are filtered out, not folded."""
    x = np.asarray(x, dtype=np.float32)
    if from_rate == to_rate or x.size == 0:
        return x.copy()
    return soxr.resample(x, from_rate, to_rate, quality=_QUALITY).astype(np.float32, copy=False)


@functools.cache
def _reach(from_rate: int, to_rate: int) -> int:
    """Input samples the resampling filter reads on either side of an output sample: where its impulse response
    falls below a PCM16 step of its peak."""
    impulse = np.zeros(from_rate, np.float32)
    impulse[from_rate // 2] = 1.0
    response = np.abs(resample(impulse, from_rate, to_rate))
    heard = np.nonzero(response >= response.max() / 32768)[0]
    centre = from_rate // 2 * to_rate / from_rate
    return math.ceil(max(heard[-1] - centre, centre - heard[0]) * from_rate / to_rate) + 1


class StreamResampler:
    """Resample a real-time stream chunk by chunk, each output sample as the whole signal's resampling gives it.

    An output sample is given as soon as the input its filter reads has arrived (about 5 ms at 24 -> 16 kHz, 10 ms
    at 8 -> 16 kHz): soxr's own stream holds back 7-37 ms (24 kHz) and 10-115 ms (8 kHz) in blocks, which the
    listener's turn end waited for. Each chunk resamples the input still needed (the filter's reach before the
    next output, and what has not been given) with the whole-signal resampler. ``flush`` returns the tail at end
    of stream.
    """

    def __init__(self, from_rate: int, to_rate: int):
        self.from_rate = from_rate
        self.to_rate = to_rate
        self._grid = from_rate // math.gcd(from_rate, to_rate)  # input samples spanning whole output samples
        self._reach = 0 if from_rate == to_rate else _reach(from_rate, to_rate)
        self._clear()

    def _clear(self) -> None:
        self._held = np.zeros(0, np.float32)       # input from sample self._start on
        self._start = 0                             # a multiple of self._grid: it falls on an output sample
        self._given = 0                             # output samples given so far

    def process(self, x: np.ndarray) -> np.ndarray:
        x = np.asarray(x, dtype=np.float32)
        if self.from_rate == self.to_rate:
            return x.copy()
        self._held = np.concatenate([self._held, x])
        arrived = self._start + self._held.size
        return self._give(max(0, (arrived - self._reach) * self.to_rate // self.from_rate))

    def flush(self) -> np.ndarray:
        if self.from_rate == self.to_rate:
            return np.zeros(0, dtype=np.float32)
        tail = self._give(None)
        self._clear()
        return tail

    def _give(self, ready: int | None) -> np.ndarray:
        """The output samples after those given, up to `ready` (None: all that the input makes)."""
        if (ready is not None and ready <= self._given) or self._held.size == 0:
            return np.zeros(0, dtype=np.float32)
        first = self._start * self.to_rate // self.from_rate
        out = resample(self._held, self.from_rate, self.to_rate)[
            self._given - first:None if ready is None else ready - first]
        self._given += out.size
        keep = (self._given * self.from_rate // self.to_rate - self._reach) // self._grid * self._grid
        if keep > self._start:
            self._held, self._start = self._held[keep - self._start:], keep
        return out
