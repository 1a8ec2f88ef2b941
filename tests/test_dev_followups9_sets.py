"""The ninth development set of follow-ups, in two halves: short elliptical turns after three earlier exchanges of
interleaved skills in the five homes ("and the kitchen?", "make it warmer", "the same for the globe lamp", "now the
landing", "how about in metres"), turns that change one argument of an earlier call, and questions about what was
just done ("is it on now?"), beside follow-ups of requests no skill serves that must make no call. Each row is
well-formed, so a score on it measures the assistant."""

import pytest

from test_dev_nocall_sets import check_row, halves

HALVES = halves("paraphrases_dev_followups9a.jsonl", "paraphrases_dev_followups9b.jsonl")


@pytest.mark.parametrize("name", HALVES)
def test_half_is_elliptical_follow_ups_in_all_homes(name):
    """Each half: every row a follow-up after at least three exchanges, at least 5 asking for no call, in all five
    homes."""
    rows = HALVES[name]
    assert [row["id"] for row in rows] == list(range(1, len(rows) + 1))
    assert all(len(row["history"]) >= 7 for row in rows)
    assert sum(row["expected"] is None for row in rows) >= 5
    assert {row["home"] for row in rows} == {"default", "discovered", "made_up", "third", "fourth"}


@pytest.mark.parametrize("name,row", [(name, row) for name, rows in HALVES.items() for row in rows],
                         ids=lambda value: value if isinstance(value, str) else str(value["id"]))
def test_follow_up_row(name, row):
    check_row(row)
