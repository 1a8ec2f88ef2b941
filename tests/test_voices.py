"""The spoken benches' voices render a text to the same samples every time (bench/voices.py), so a spoken set's
figures come again from an empty cache: a sampled Piper made a different recording on every run and machine."""
import hashlib
import shutil

import pytest

from bench.spoken_requests import recording
from bench.voices import VOICES, speak

TEXT = "dim the porch light to thirty percent"
PROGRAMS = {"espeak-ng": "espeak-ng", "festival": "text2wave", "flite": "flite"}   # Piper ships with the server


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("voice", list(VOICES))
def test_a_text_is_recorded_to_the_same_bytes_in_two_empty_caches(voice, tmp_path):
    program = PROGRAMS.get(voice.split()[0])
    if program and shutil.which(program) is None:
        pytest.skip(f"{program} is not installed")
    first, second = recording(voice, TEXT, tmp_path / "one"), recording(voice, TEXT, tmp_path / "two")
    files = [sorted((tmp_path / cache).rglob("*.npy")) for cache in ("one", "two")]
    assert [len(f) for f in files] == [1, 1] and first.size > 16000 // 2
    assert digest(files[0][0]) == digest(files[1][0]) and first.tobytes() == second.tobytes()
    assert recording(voice, TEXT, tmp_path / "one").tobytes() == first.tobytes()     # read back: what was heard


def test_piper_sampled_would_differ():
    """What the unsampled rendering guards against: Piper's own sampling makes another recording each time."""
    from bench.voices import _piper

    tts = _piper()
    assert tts.synthesize(TEXT).tobytes() != tts.synthesize(TEXT).tobytes()
    assert speak("piper", TEXT).tobytes() == speak("piper", TEXT).tobytes()
