"""The eleventh development set of follow-ups, in two halves: answers to the assistant's own questions ("Which
one: ...?", "Which room?", "Did you mean ...?", "For how long?"): a name, a place, an ordinal ("the second one"),
"the upstairs one", "both", "all of them", "neither", "not that one", answers that change the question's number,
and follow-ups after a refusal, in the five homes. Each row is well-formed, so a score on it measures the
assistant."""

import pytest

from test_dev_nocall_sets import check_row, halves

HALVES = halves("paraphrases_dev_followups11a.jsonl", "paraphrases_dev_followups11b.jsonl")


@pytest.mark.parametrize("name", HALVES)
def test_half_is_answers_to_a_question_after_three_exchanges_in_all_homes(name):
    """Each half: 30 follow-ups after three exchanges, 5 asking for no call, in all five homes; at least 20 answer a
    question the assistant asked ("?" in its last turn)."""
    rows = HALVES[name]
    assert [row["id"] for row in rows] == list(range(1, 31))
    assert all(len(row["history"]) == 7 for row in rows)
    assert sum(row["expected"] is None for row in rows) == 5
    assert {row["home"] for row in rows} == {"default", "discovered", "made_up", "third", "fourth"}
    assert sum("?" in row["history"][-2]["content"] for row in rows) >= 20


@pytest.mark.parametrize("name,row", [(name, row) for name, rows in HALVES.items() for row in rows],
                         ids=lambda value: value if isinstance(value, str) else str(value["id"]))
def test_follow_up_row(name, row):
    check_row(row)
