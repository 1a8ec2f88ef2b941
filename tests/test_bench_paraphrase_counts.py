"""bench/paraphrase_counts.py: counts and row outcomes of a paraphrase set, and the moves between two runs, without a
row's text in its output (the blind sets are run with it)."""
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import paraphrase_counts  # noqa: E402

SET = ROOT / "tests" / "data" / "paraphrases_dev_followups11a.jsonl"


def test_moves_count_each_change_of_outcome():
    assert paraphrase_counts.moves("RRFW", "RWRW") == Counter({"R->W": 1, "F->R": 1})
    with pytest.raises(SystemExit):
        paraphrase_counts.moves("RR", "RRR")


def test_counts_table_groups_rows_by_kind_and_home():
    rows = [{"history": [{"role": "user", "content": "x"}], "expected": None},
            {"history": [{}, {}, {"role": "user", "content": "y"}], "expected": {"name": "t"}, "home": "made_up"}]
    table = paraphrase_counts.counts_table(rows, "RW")
    assert table[0].startswith("all") and table[0].endswith("(1/0/1)")
    assert any(line.startswith("no-call rows") and line.endswith("(1/0/0)") for line in table)
    assert any(line.startswith("home:made_up") and line.endswith("(0/0/1)") for line in table)


def test_a_run_prints_counts_and_outcomes_but_no_row(tmp_path):
    command = [sys.executable, str(ROOT / "bench" / "paraphrase_counts.py")]
    output = subprocess.run(command + [str(SET)], capture_output=True, text=True, check=True, cwd=ROOT).stdout
    rows = [json.loads(line) for line in SET.read_text().splitlines() if line.strip()]
    outcomes = output.split("OUTCOMES ")[1].strip()
    assert len(outcomes) == len(rows) and set(outcomes) <= set("RFW")
    assert all(row["history"][-1]["content"] not in output for row in rows)
    saved = tmp_path / "run.txt"
    saved.write_text(output)
    again = subprocess.run(command + ["--against", str(saved), str(saved)], capture_output=True, text=True,
                           check=True, cwd=ROOT).stdout
    assert again.strip() == "no row moved"
