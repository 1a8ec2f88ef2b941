"""Audio plumbing: PCM16 conversion, G.711 codecs against the standard's values, anti-aliased resampling."""

import numpy as np
import pytest

from voice.audio import (StreamResampler, alaw_decode, alaw_encode, float_to_pcm16, mulaw_decode, mulaw_encode,
                         pcm16_to_float, resample)

ALL_INT16 = np.arange(-32768, 32768).astype(np.int16)


def tone(freq, rate, seconds=1.0, amplitude=0.5):
    t = np.arange(int(rate * seconds)) / rate
    return (amplitude * np.sin(2 * np.pi * freq * t)).astype(np.float32)


def rms(x):
    return float(np.sqrt(np.mean(np.square(x, dtype=np.float64))))


def test_pcm16_round_trip_is_exact_for_every_sample_value():
    data = ALL_INT16.astype("<i2").tobytes()
    x = pcm16_to_float(data)
    assert x.dtype == np.float32 and x.min() == -1.0 and x.max() < 1.0
    assert float_to_pcm16(x) == data


def test_float_to_pcm16_clips_instead_of_wrapping():
    out = np.frombuffer(float_to_pcm16(np.array([1.5, -1.5, 0.0, 0.5], np.float32)), "<i2")
    assert out.tolist() == [32767, -32768, 0, 16384]


def test_pcm16_rejects_non_int16_arrays_and_odd_byte_counts():
    with pytest.raises(TypeError):
        pcm16_to_float(np.zeros(4, np.float32))
    with pytest.raises(ValueError, match="even number of bytes"):
        pcm16_to_float(b"\x00\x01\x02")


# Values of ITU-T G.711's tables (as 16-bit linear): code -> decoded sample.
MULAW_DECODED = {0xFF: 0, 0x7F: 0, 0x80: 32124, 0x00: -32124, 0xFE: 8, 0x7E: -8, 0x01: -31100, 0xF0: 120,
                 0xEF: 132, 0xDF: 396, 0xCF: 924, 0xBF: 1980, 0xAF: 4092, 0x9F: 8316, 0x8F: 16764}
ALAW_DECODED = {0xD5: 8, 0x55: -8, 0xAA: 32256, 0x2A: -32256, 0xD4: 24, 0xC5: 264, 0xF5: 528, 0xE5: 1056,
                0x95: 2112, 0x85: 4224, 0xB5: 8448, 0xA5: 16896}


@pytest.mark.parametrize("decode, table", [(mulaw_decode, MULAW_DECODED), (alaw_decode, ALAW_DECODED)])
def test_g711_decoding_matches_the_standard_tables(decode, table):
    codes = bytes(table)
    assert (decode(codes) * 32768).astype(int).tolist() == list(table.values())


def test_g711_encoding_of_zero_and_extremes():
    assert mulaw_encode(np.array([0.0, 1.0, -1.0], np.float32)) == bytes([0xFF, 0x80, 0x00])
    assert alaw_encode(np.array([0.0, 1.0, -1.0], np.float32)) == bytes([0xD5, 0xAA, 0x2A])
    assert mulaw_encode(np.array([-1], np.int16)) == bytes([0x7E])     # int16 input is taken as PCM
    assert alaw_encode(np.array([-1], np.int16)) == bytes([0x55])


@pytest.mark.parametrize("encode, decode", [(mulaw_encode, mulaw_decode), (alaw_encode, alaw_decode)])
def test_g711_decode_then_encode_returns_every_code(encode, decode):
    codes = bytes(range(256))
    again = encode(decode(codes))
    mismatches = [c for c, d in zip(codes, again) if c != d]
    assert mismatches in ([], [0x7F])          # μ-law 0x7F is "negative zero", re-encoded as 0xFF


@pytest.mark.parametrize("encode, decode", [(mulaw_encode, mulaw_decode), (alaw_encode, alaw_decode)])
def test_g711_quantisation_error_is_within_half_a_step(encode, decode):
    decoded = (decode(encode(ALL_INT16)) * 32768).astype(np.int64)
    x = ALL_INT16.astype(np.int64)
    error = np.abs(decoded - x)
    in_range = np.abs(x) <= 32000
    assert error[in_range].max() <= 516                     # half of the top segment's 1024 step
    loud = in_range & (np.abs(x) > 512)
    assert (error[loud] / np.abs(x[loud])).max() < 0.04      # logarithmic: ~3% relative error
    signal = tone(440, 8000)
    noise = signal - decode(encode(signal))
    assert 20 * np.log10(rms(signal) / rms(noise)) > 35      # G.711's ~38 dB SNR on a loud tone


def test_resample_keeps_a_tone_in_band_and_removes_one_above_the_new_nyquist():
    passband = resample(tone(1000, 24000), 24000, 8000)
    assert passband.dtype == np.float32 and len(passband) == 8000
    assert rms(passband[400:-400]) == pytest.approx(rms(tone(1000, 8000)), rel=0.02)
    spectrum = np.abs(np.fft.rfft(passband))
    assert np.argmax(spectrum) == 1000                       # 1 Hz bins: still 1 kHz

    # 7 kHz cannot exist at 8 kHz; without a low-pass it would fold onto 1 kHz at full level.
    aliased = resample(tone(7000, 24000), 24000, 8000)
    assert rms(aliased) < 0.01 * rms(tone(7000, 24000))      # below -40 dB
    naive = tone(7000, 24000)[::3]
    assert rms(naive) > 0.3                                  # what the filter prevents


def test_resample_same_rate_is_identity():
    x = tone(440, 16000, 0.1)
    assert np.array_equal(resample(x, 16000, 16000), x)


@pytest.mark.parametrize("from_rate, to_rate", [(24000, 16000), (16000, 24000), (22050, 24000), (8000, 16000),
                                                (24000, 24000)])
def test_stream_resampler_matches_one_shot(from_rate, to_rate):
    rng = np.random.default_rng(0)
    x = (tone(440, from_rate) + 0.05 * rng.standard_normal(from_rate)).astype(np.float32)
    stream = StreamResampler(from_rate, to_rate)
    sizes = rng.integers(1, from_rate // 25, size=200)      # uneven chunks, up to 40 ms
    pieces, start = [], 0
    for size in sizes:
        pieces.append(stream.process(x[start:start + size]))
        start += size
        if start >= len(x):
            break
    pieces.append(stream.process(x[start:]))
    pieces.append(stream.flush())
    streamed = np.concatenate(pieces)
    whole = resample(x, from_rate, to_rate)
    assert len(streamed) == len(whole)
    assert np.max(np.abs(streamed - whole)) < 1 / 32768         # within a PCM16 step: no clicks or gaps at seams


@pytest.mark.parametrize("from_rate, held_ms", [(24000, 5), (48000, 5), (8000, 10)])
def test_stream_resampler_holds_back_only_the_filters_reach(from_rate, held_ms):
    """A microphone's 20 ms chunks reach the listener (Silero, the turn's end) at most the filter's reach late:
    soxr's own stream held back up to 37 ms at 24 kHz and 115 ms at 8 kHz."""
    stream, chunk, given = StreamResampler(from_rate, 16000), from_rate // 50, 0
    for n in range(1, 51):
        given += stream.process(np.zeros(chunk, np.float32)).size
        assert n * 320 - given <= held_ms * 16


def test_stream_resampler_chunks_in_20ms_frames_keep_the_signal_continuous():
    x = tone(300, 24000, 0.5)
    stream = StreamResampler(24000, 16000)
    out = np.concatenate([stream.process(frame) for frame in x.reshape(-1, 480)] + [stream.flush()])
    # A click is a jump far larger than a 300 Hz sine ever moves between two 16 kHz samples.
    max_step = 2 * np.pi * 300 / 16000 * 0.5
    assert np.max(np.abs(np.diff(out))) < 1.2 * max_step
