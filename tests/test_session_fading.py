"""The voice's fading tail after the words is silence for turn detection (streaming.turns.Levels): Silero scores
the last 2-3 frames of a synthetic voice's decaying audio as speech, so its pause came 110-120 ms after the words."""
import numpy as np
import pytest

from streaming.turns import Levels, Signal, TurnDetection, TurnDetector
from voice.audio import pcm16_to_float, resample
from voice.vad import SileroVAD

LOUD, QUIET = 0.1, 0.0005      # frame RMS: the words, and a tail 46 dB below them


def steps(frames):
    """[(frame index, signal)] of (probability, rms) frames stepped through a fresh detector and levels."""
    detector, levels = TurnDetector(TurnDetection(type="semantic_vad")), Levels()
    return [(i, s) for i, (p, rms) in enumerate(frames) if (s := levels.step(detector, p, rms)) is not None]


def test_a_quiet_frame_silero_has_dropped_on_is_the_pause():
    assert steps([(0.0, 0.0)] * 3 + [(1.0, LOUD)] * 5 + [(0.8, QUIET), (0.6, QUIET), (0.0, 0.0)]) == [
        (4, Signal.START), (8, Signal.PAUSE)]


def test_the_fading_tail_pauses_but_the_wait_to_end_counts_silero_silence_alone():
    """The waits were chosen on Silero's silence: the tail starts the pause's transcript sooner, ends no turn sooner."""
    detector, levels = TurnDetector(TurnDetection(silence_duration_ms=96)), Levels()
    frames = [(1.0, LOUD)] * 5 + [(0.8, QUIET), (0.6, QUIET)] + [(0.0, 0.0)] * 4
    assert [(i, s) for i, (p, rms) in enumerate(frames) if (s := levels.step(detector, p, rms)) is not None] == [
        (1, Signal.START), (5, Signal.PAUSE), (9, Signal.END)]
    assert detector.speech_end_ms == 5 * 32


def test_silero_sure_of_speech_or_a_loud_frame_stays_speech():
    """A quiet frame Silero is sure of (a closure it hears the words around) and a loud one it doubts go on."""
    assert steps([(1.0, LOUD)] * 5 + [(0.95, QUIET), (0.8, LOUD / 5), (0.0, 0.0)]) == [
        (1, Signal.START), (7, Signal.PAUSE)]


def test_a_frame_near_the_rooms_noise_is_quiet_however_loud_the_words():
    noise = 0.004
    frames = [(0.0, noise)] * 60 + [(1.0, LOUD)] * 5 + [(0.8, 2 * noise), (0.0, noise)]
    assert steps(frames)[1] == (65, Signal.PAUSE)


def test_a_detector_fed_probabilities_alone_reads_silero_only():
    detector = TurnDetector(TurnDetection(type="semantic_vad"))
    assert [detector.process(p) for p in [1.0] * 5 + [0.8, 0.0]][-2:] == [None, Signal.PAUSE]


def pauses(vad_model, audio: np.ndarray, levels: Levels | None) -> list[int]:
    """The frames semantic_vad pauses at in the audio, Silero read alone (levels None) or against the levels."""
    vad, detector = SileroVAD(vad_model), TurnDetector(TurnDetection(type="semantic_vad"))
    found = []
    for i in range(audio.size // SileroVAD.frame_samples):
        frame = audio[i * SileroVAD.frame_samples:(i + 1) * SileroVAD.frame_samples]
        probability = vad.probability(frame)
        signal = detector.process(probability) if levels is None else \
            levels.step(detector, probability, float(np.sqrt(np.mean(frame * frame))))
        if signal is Signal.PAUSE:
            found.append(i)
    return found


@pytest.mark.parametrize("noise_rms", [0.0, 0.003])
def test_piper_pauses_sooner_after_its_words(speech, vad_model, noise_rms):
    """Piper's "Turn on the kitchen light." with digital silence, and with a room's noise under it all. Rendered
    without Piper's sampling noise, the same every run: in 12 of 60 sampled renderings (digital silence) Silero
    scored no frame of the tail as speech and paused on the levels' frame, leaving nothing to pause sooner on."""
    pcm = speech.piper("Turn on the kitchen light.", rate=16000, sampled=False)
    words_end = speech.speech_end_ms(pcm, 16000) * 16
    audio = pcm16_to_float(pcm)
    audio = audio + np.random.default_rng(7).normal(0, noise_rms, audio.size).astype(np.float32)
    silero, read = pauses(vad_model, audio, None), pauses(vad_model, audio, Levels())
    assert words_end <= (read[-1] + 1) * SileroVAD.frame_samples and read[-1] < silero[-1]


def test_audio_resampled_from_24_khz_still_pauses_after_the_words(speech, vad_model):
    """Audio resampled from 24 kHz, as the sessions receive it, still pauses after the words."""
    pcm = speech.piper("Turn on the kitchen light.", rate=24000, sampled=False)
    audio = resample(pcm16_to_float(pcm), 24000, 16000)
    read = pauses(vad_model, audio, Levels())
    assert read and (read[-1] + 1) * SileroVAD.frame_samples >= speech.speech_end_ms(pcm, 24000) * 16


def test_the_onset_of_speech_is_not_the_rooms_noise():
    """Frames Silero scores 0.3-0.5 before a turn starts are speech: counted as the room's noise, they raised the
    quiet level to 4 % of the words and espeak-ng's "pond pump" lost its final /p/."""
    detector, levels = TurnDetector(TurnDetection(type="semantic_vad")), Levels()
    for probability, rms in [(0.0, 0.001)] * 20 + [(0.3, LOUD), (0.45, LOUD)]:
        levels.step(detector, probability, rms)
    assert not detector.speaking and 0.0005 < levels.noise_rms < 0.001
