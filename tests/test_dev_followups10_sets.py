"""The tenth development set of follow-ups, in two halves: corrections ("no, the other one", "i meant the bedroom"),
follow-ups after a question was answered ("is the jukebox on" then "turn it off"), follow-ups naming only a number
or a unit ("make it 20", "in fahrenheit?"), and answers after a refusal or a question asked back ("the salt lamp
then", "the bathroom"), in the five homes, beside follow-ups that must make no call. Each row is well-formed, so a
score on it measures the assistant."""

import pytest

from test_dev_nocall_sets import check_row, halves

HALVES = halves("paraphrases_dev_followups10a.jsonl", "paraphrases_dev_followups10b.jsonl")


@pytest.mark.parametrize("name", HALVES)
def test_half_is_follow_ups_after_three_exchanges_in_all_homes(name):
    """Each half: 50 follow-ups after three exchanges, 7 asking for no call, in all five homes; at least 5 after a
    turn the assistant answered with no call (a refusal or a question asked back) that want a call."""
    rows = HALVES[name]
    assert [row["id"] for row in rows] == list(range(1, 51))
    assert all(len(row["history"]) == 7 for row in rows)
    assert sum(row["expected"] is None for row in rows) == 7
    assert {row["home"] for row in rows} == {"default", "discovered", "made_up", "third", "fourth"}
    assert sum("tool_calls" not in row["history"][-2] and row["expected"] is not None for row in rows) >= 5


@pytest.mark.parametrize("name,row", [(name, row) for name, rows in HALVES.items() for row in rows],
                         ids=lambda value: value if isinstance(value, str) else str(value["id"]))
def test_follow_up_row(name, row):
    check_row(row)
