"""The development set of names a home lacks beside names it has, in two halves: "close the chapel blinds" where
the nursery has a pleated blind must make no call, "turn on the big arc lamp" and "open the louvers" must act.
The second set's names the home lacks are made of its own words ("the snug fan" where the snug has no fan).
Each row is well-formed, so a score on it measures the assistant."""

import pytest

from test_dev_nocall_sets import check_row, halves

HALVES = halves("paraphrases_dev_unknown_a.jsonl", "paraphrases_dev_unknown_b.jsonl",
                "paraphrases_dev_unknown2_a.jsonl", "paraphrases_dev_unknown2_b.jsonl")


@pytest.mark.parametrize("name", HALVES)
def test_half_mixes_unknown_names_with_known_ones(name):
    """Each half: at least 15 names the home lacks and 15 requests that act, in the five user homes, so neither a
    blanket refusal nor a blanket call passes; every no-call row is an unknown name."""
    rows = HALVES[name]
    assert [row["id"] for row in rows] == list(range(1, len(rows) + 1))
    assert sum(row["expected"] is None for row in rows) >= 15
    assert sum(row["expected"] is not None for row in rows) >= 15
    assert all(row.get("category") == "unknown_name" for row in rows if row["expected"] is None)
    assert {row["home"] for row in rows} == {"discovered", "made_up", "third", "fourth", "fifth"}


@pytest.mark.parametrize("name,row", [(name, row) for name, rows in HALVES.items() for row in rows],
                         ids=lambda value: value if isinstance(value, str) else str(value["id"]))
def test_unknown_row(name, row):
    check_row(row)
