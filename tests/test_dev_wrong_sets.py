"""The development set of requests that tempt a wrong call, in two halves: follow-ups whose referent must be the
right thing among interleaved skills, names near the home's, numbers in units the skill lacks, questions and
remarks, beside clear requests. Each row is well-formed, so a score on it measures the assistant."""

import pytest

from test_dev_nocall_sets import check_row, halves

HALVES = halves("paraphrases_dev_wrong_a.jsonl", "paraphrases_dev_wrong_b.jsonl")


@pytest.mark.parametrize("name", HALVES)
def test_half_mixes_follow_ups_no_call_and_requests(name):
    """Each half: 20 follow-ups, 25 rows that must make no call and 25 requests, in all four homes, so neither a
    blanket refusal nor a blanket call passes."""
    rows = HALVES[name]
    assert [row["id"] for row in rows] == list(range(1, len(rows) + 1))
    assert sum(len(row["history"]) > 1 for row in rows) >= 20
    assert sum(row["expected"] is None for row in rows) >= 25
    assert sum(row["expected"] is not None for row in rows) >= 25
    assert {row["home"] for row in rows} == {"default", "discovered", "made_up", "third"}


@pytest.mark.parametrize("name,row", [(name, row) for name, rows in HALVES.items() for row in rows],
                         ids=lambda value: value if isinstance(value, str) else str(value["id"]))
def test_wrong_row(name, row):
    check_row(row)
