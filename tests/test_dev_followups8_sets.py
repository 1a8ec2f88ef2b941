"""The eighth development set of follow-ups, in two halves: long conversations (three to five earlier exchanges)
of interleaved skills in the four homes, with turns the skills cannot serve (weather, lists, reminders), whose last
turn reaches back past another skill ("the other one", "cancel the first timer", "put it back how it was", "same for
upstairs", "no, i said the den"), beside follow-ups that must make no call. Each row is well-formed, so a score on
it measures the assistant."""

import pytest

from test_dev_nocall_sets import check_row, halves

HALVES = halves("paraphrases_dev_followups8a.jsonl", "paraphrases_dev_followups8b.jsonl")


@pytest.mark.parametrize("name", HALVES)
def test_half_is_long_follow_ups_in_all_homes(name):
    """Each half: every row a follow-up after at least three exchanges, at least 5 asking for no call, in all four
    homes."""
    rows = HALVES[name]
    assert [row["id"] for row in rows] == list(range(1, len(rows) + 1))
    assert all(len(row["history"]) >= 7 for row in rows)
    assert sum(row["expected"] is None for row in rows) >= 5
    assert {row["home"] for row in rows} == {"default", "discovered", "made_up", "third"}


@pytest.mark.parametrize("name,row", [(name, row) for name, rows in HALVES.items() for row in rows],
                         ids=lambda value: value if isinstance(value, str) else str(value["id"]))
def test_follow_up_row(name, row):
    check_row(row)
