"""bench/assistant_eval.py --client-tools: a line of each row's outcome, the same from run to run (keep rules compare
counts one row apart), and read by bench/paraphrase_counts.py --against without any row printed."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SET = ROOT / "tests" / "data" / "dev_client_tools_nineteenth_a"
STRIDE = 3      # every third row of a read half: 18 rows, calls and no-call rows of several declarations


def run(path: Path, hash_seed: str) -> subprocess.Popen:
    """The bench on the set at path, under a hash seed of its own (set and dict orders of strings differ)."""
    command = [sys.executable, str(ROOT / "bench" / "assistant_eval.py"), "--budgets", "4 passes",
               "--client-tools", str(path)]
    return subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=ROOT,
                            env={**os.environ, "PYTHONHASHSEED": hash_seed})


def test_two_runs_give_each_row_the_same_outcome(tmp_path):
    path = tmp_path / SET.name
    shutil.copy(SET.with_suffix(".json"), path.with_suffix(".json"))
    lines = [line for line in SET.with_suffix(".jsonl").read_text().splitlines() if line.strip()][::STRIDE]
    path.with_suffix(".jsonl").write_text("\n".join(lines) + "\n")
    runs = [run(path, seed) for seed in ("1", "2")]
    outputs = [process.communicate(timeout=600)[0] for process in runs]
    assert all(process.returncode == 0 for process in runs)
    outcomes = [next(line for line in out.splitlines() if line.startswith("OUTCOMES ")).split()[1] for out in outputs]
    assert len(outcomes[0]) == len(lines) and set(outcomes[0]) <= set("RFW")
    assert outcomes[0] == outcomes[1]
    assert all(json.loads(line)["request"] not in outputs[0] for line in lines)
    saved = [tmp_path / "first.txt", tmp_path / "second.txt"]
    for file, out in zip(saved, outputs):
        file.write_text(out)
    command = [sys.executable, str(ROOT / "bench" / "paraphrase_counts.py"), "--against", *map(str, saved)]
    moved = subprocess.run(command, capture_output=True, text=True, check=True, cwd=ROOT).stdout
    assert moved.strip() == "no row moved"
