"""The seventh development set of follow-ups, in two halves: conversations of interleaved skills in the four homes
whose last turn leans on what came before (elliptical, corrections, undo, pronouns further back, questions after
changes), beside follow-ups that must make no call. Each row is well-formed, so a score on it measures the
assistant."""

import pytest

from test_dev_nocall_sets import check_row, halves

HALVES = halves("paraphrases_dev_followups7a.jsonl", "paraphrases_dev_followups7b.jsonl")


@pytest.mark.parametrize("name", HALVES)
def test_half_is_follow_ups_in_all_homes(name):
    """Each half: every row a follow-up, at least 5 of them asking for no call, in all four homes."""
    rows = HALVES[name]
    assert [row["id"] for row in rows] == list(range(1, len(rows) + 1))
    assert all(len(row["history"]) >= 3 for row in rows)
    assert sum(row["expected"] is None for row in rows) >= 5
    assert {row["home"] for row in rows} == {"default", "discovered", "made_up", "third"}


@pytest.mark.parametrize("name,row", [(name, row) for name, rows in HALVES.items() for row in rows],
                         ids=lambda value: value if isinstance(value, str) else str(value["id"]))
def test_follow_up_row(name, row):
    check_row(row)
