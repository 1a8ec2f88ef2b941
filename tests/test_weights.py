"""Pinned weights: every model file Parley loads by default has its pinned sha256, and a changed one is refused
with a message naming the file and both hashes."""
import hashlib
import os
import shutil

import pytest

from voice.vad import SileroModel
from voice.weights import PINNED, WeightsChanged, check, package_dir, verified

SILERO = "data/silero_vad.onnx"


@pytest.mark.parametrize("package", sorted(PINNED))
def test_every_pinned_file_as_installed_passes(package):
    for file in PINNED[package]:
        assert verified(package, file) == package_dir(package) / file


def test_a_file_without_a_pin_is_not_loaded():
    with pytest.raises(KeyError, match="silero_vad/data/other.onnx has no pinned sha256"):
        verified("silero_vad", "data/other.onnx")


def test_the_silero_model_loads_from_its_pinned_file():
    model = SileroModel()
    assert model.session.get_inputs()[0].name == "input"


def altered_copy(tmp_path):
    """Silero's file with one byte flipped, under a new name, and its sha256."""
    copy = tmp_path / "silero_vad.onnx"
    shutil.copyfile(package_dir("silero_vad") / SILERO, copy)
    data = bytearray(copy.read_bytes())
    data[len(data) // 2] ^= 0xFF
    copy.write_bytes(bytes(data))
    return copy, hashlib.sha256(data).hexdigest()


def test_an_altered_copy_is_refused_naming_the_file_and_both_hashes(tmp_path):
    copy, actual = altered_copy(tmp_path)
    pinned = PINNED["silero_vad"][SILERO]
    with pytest.raises(WeightsChanged) as refused:
        check(copy, pinned)
    assert str(copy) in str(refused.value)
    assert actual in str(refused.value) and pinned in str(refused.value)
    assert actual != pinned


def test_a_file_changed_after_passing_is_hashed_again(tmp_path):
    copy = tmp_path / "silero_vad.onnx"
    shutil.copyfile(package_dir("silero_vad") / SILERO, copy)
    check(copy, PINNED["silero_vad"][SILERO])
    before = copy.stat()
    altered, actual = altered_copy(tmp_path)                 # the same path and size, new bytes
    os.utime(altered, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000_000))   # a write moves mtime
    with pytest.raises(WeightsChanged, match=actual):
        check(copy, PINNED["silero_vad"][SILERO])


def test_a_missing_pinned_file_is_refused_by_name(tmp_path):
    with pytest.raises(WeightsChanged, match="silero_vad.onnx: the pinned model file is missing"):
        check(tmp_path / "silero_vad.onnx", PINNED["silero_vad"][SILERO])
