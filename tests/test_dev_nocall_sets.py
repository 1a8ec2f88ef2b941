"""The development set of requests that must make no call, in two halves: each row is well-formed, so a score on it
measures the assistant and not a slip in a row. A call the home can run, or none; a row of a name the home lacks
says no whole name of the home's, or says it in a place the home does not put it."""
import json
from pathlib import Path

import pytest

from test_fresh_sets import HOMES, check_call

DATA = Path(__file__).parent / "data"


def halves(*names: str) -> dict[str, list[dict]]:
    """{file name: its rows} of a development set's halves (the dev set tests share it)."""
    return {name: [json.loads(line) for line in (DATA / name).read_text(encoding="utf-8").splitlines()]
            for name in names}


HALVES = halves("paraphrases_dev_nocall_a.jsonl", "paraphrases_dev_nocall_b.jsonl")


@pytest.mark.parametrize("name", HALVES)
def test_half_mixes_no_call_with_requests_near_it(name):
    """At least 40 rows that must make no call and 20 clear requests, so a blanket refusal cannot pass."""
    rows = HALVES[name]
    assert [row["id"] for row in rows] == list(range(1, len(rows) + 1))
    assert sum(row["expected"] is None for row in rows) >= 40
    assert sum(row["expected"] is not None for row in rows) >= 20
    assert {row["home"] for row in rows} >= {"default", "discovered"}


@pytest.mark.parametrize("name,row", [(name, row) for name, rows in HALVES.items() for row in rows],
                         ids=lambda value: value if isinstance(value, str) else str(value["id"]))
def test_nocall_row(name, row):
    check_row(row)


def check_row(row: dict) -> None:
    """A well-formed row of a set of no-call rows beside requests (also the wrong-call set's)."""
    assert set(row) - {"category"} == {"id", "home", "history", "expected"} and row["home"] in HOMES
    history = row["history"]
    assert [m["role"] for m in history] == ["user", "assistant"] * (len(history) // 2) + ["user"]
    assert all(m["content"] == m["content"].strip().lower() for m in history if m["role"] == "user")
    if row["expected"] is not None:
        assert "category" not in row
        check_call(row, whole_names=False)
    elif row.get("category") == "unknown_name":
        said = history[-1]["content"]
        named = [e for e in HOMES[row["home"]].entities() if e.name in said]
        assert all(" in the " in said and e.area not in said or len(history) > 1 for e in named), named
    else:
        assert "category" not in row
