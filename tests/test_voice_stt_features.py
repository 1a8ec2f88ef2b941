"""The recogniser's log-mel features (voice.stt.log_mel) computed over the audio alone are the features of the
whole window it is padded to, to the bit: the encoder reads the same input, so every transcript is the same. They
are faster-whisper's features but for the float32 product's last bit."""

import numpy as np
import pytest
from faster_whisper.feature_extractor import FeatureExtractor

from paused_speech import flite
from voice.stt import FINAL_WINDOW_S, log_mel, whisper_log_mel

RATE = 16000
EXTRACTOR = FeatureExtractor()


def whole_window(audio: np.ndarray, samples: int) -> np.ndarray:
    """The features of every frame of the audio padded with silence to `samples`, as whisper pads it."""
    padded = np.zeros(samples, np.float32)
    padded[:audio.size] = audio
    return whisper_log_mel(EXTRACTOR, padded)[:, :samples // EXTRACTOR.hop_length]


def test_the_features_are_faster_whispers_but_for_the_last_bit():
    audio = flite("is the drinks trolley plugged in", "slt")
    assert np.allclose(whisper_log_mel(EXTRACTOR, audio), EXTRACTOR(audio, padding=0), rtol=0, atol=1e-5)


@pytest.mark.parametrize("voice, said", [("rms", "dim the reading nook to forty percent"), ("slt", "stop"),
                                         ("slt", "is the drinks trolley plugged in, and what time is it in Lima")])
def test_the_features_of_speech_are_the_whole_windows(voice, said):
    speech = flite(said, voice)
    for audio in (speech, speech[:speech.size // 3], speech / 50):     # as said, a pause's partial, said far off
        for seconds in (FINAL_WINDOW_S, int(np.ceil(audio.size / RATE)) + 2):   # a final's window, a partial's
            samples = max(seconds, int(np.ceil(audio.size / RATE))) * RATE
            features = log_mel(EXTRACTOR, audio, samples)
            assert features.shape == (80, samples // EXTRACTOR.hop_length)
            assert np.array_equal(features, whole_window(audio, samples))


def test_the_features_of_silence_and_of_audio_filling_its_window_are_the_whole_windows():
    for audio in (np.zeros(RATE // 5, np.float32), 0.3 * np.sin(np.arange(3 * RATE, dtype=np.float32) / 7)):
        samples = FINAL_WINDOW_S * RATE
        assert np.array_equal(log_mel(EXTRACTOR, audio, samples), whole_window(audio, samples))
    filling = np.random.default_rng(0).normal(0, 0.1, FINAL_WINDOW_S * RATE).astype(np.float32)
    assert np.array_equal(log_mel(EXTRACTOR, filling, filling.size), whole_window(filling, filling.size))
