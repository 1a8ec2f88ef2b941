"""Smart Turn v3.2: our Whisper-style features and the model's verdict on real synthesised speech."""
import numpy as np

from voice.audio import resample
from voice.smart_turn import N_MELS, RATE, WINDOW_S, last_window, log_mel, mel_filters


def test_features_have_whispers_shape_and_range():
    rng = np.random.default_rng(0)
    features = log_mel(last_window(rng.normal(0, 0.1, RATE * 3).astype(np.float32)))
    assert features.shape == (N_MELS, 100 * WINDOW_S) and features.dtype == np.float32
    assert features.max() <= 2.0 and features.max() - features.min() <= 2.0 + 1e-6   # an 8-decade floor, /4


def test_short_turns_are_padded_in_front_and_long_ones_keep_their_end():
    audio = np.ones(RATE, np.float32)
    window = last_window(audio)
    assert window.size == RATE * WINDOW_S and not window[:-RATE].any() and window[-RATE:].all()
    long = np.arange(RATE * 10, dtype=np.float32)
    assert last_window(long)[-1] == long[-1] and last_window(long).size == RATE * WINDOW_S


def test_mel_filters_cover_the_spectrum_once():
    filters = mel_filters()
    assert filters.shape == (N_MELS, 201) and (filters >= 0).all()
    assert (filters > 0).sum(axis=0)[1:-1].max() <= 2              # neighbouring triangles overlap pairwise


def test_a_finished_question_sounds_finished(engines, tts):
    speech = resample(tts.synthesize("What is seven times six?"), tts.sample_rate, RATE)
    turn = np.concatenate([np.zeros(RATE // 4, np.float32), speech, np.zeros(RATE // 10, np.float32)])
    assert engines.turn_model.finished(turn) > 0.9
