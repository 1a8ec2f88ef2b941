"""The development set of negated requests and remarks beside the positive forms that share their words, in two
halves: "don't turn the samovar off" and "the samovar is on" must make no call, "why don't you turn the samovar
off" must. Each row is well-formed, so a score on it measures the assistant."""

import pytest

from test_dev_nocall_sets import check_row, halves

HALVES = halves("paraphrases_dev_negations_a.jsonl", "paraphrases_dev_negations_b.jsonl")


@pytest.mark.parametrize("name", HALVES)
def test_half_mixes_negations_and_remarks_with_requests(name):
    """Each half: at least 25 rows that must make no call and 12 requests, in all five homes, so neither a
    blanket refusal nor a blanket call passes."""
    rows = HALVES[name]
    assert [row["id"] for row in rows] == list(range(1, len(rows) + 1))
    assert sum(row["expected"] is None for row in rows) >= 25
    assert sum(row["expected"] is not None for row in rows) >= 12
    assert {row["home"] for row in rows} == {"default", "discovered", "made_up", "third", "fourth"}


@pytest.mark.parametrize("name,row", [(name, row) for name, rows in HALVES.items() for row in rows],
                         ids=lambda value: value if isinstance(value, str) else str(value["id"]))
def test_negations_row(name, row):
    check_row(row)
