"""The twelfth development set of follow-ups, in two halves: long conversations (five to seven turns) that
interleave skills (a device, a timer, the time, the date, sums, conversions, a state question, chat lines and
refused requests) and whose last request reaches back past the exchange before it ("turn the first one off
again", "undo that", "and the same for the garage", "how long's left on it"), in the five homes. Each row is
well-formed, so a score on it measures the assistant."""

import pytest

from test_dev_nocall_sets import check_row, halves

HALVES = halves("paraphrases_dev_followups12a.jsonl", "paraphrases_dev_followups12b.jsonl")


@pytest.mark.parametrize("name", HALVES)
def test_half_is_long_interleaved_conversations_in_all_homes(name):
    """Each half: 40 follow-ups after four to six exchanges, 5 asking for no call, in all five homes; in at least 30
    the exchange just before made no call or a call of another skill than the one expected."""
    rows = HALVES[name]
    assert [row["id"] for row in rows] == list(range(1, 41))
    assert all(9 <= len(row["history"]) <= 13 for row in rows)
    assert sum(row["expected"] is None for row in rows) == 5
    assert {row["home"] for row in rows} == {"default", "discovered", "made_up", "third", "fourth"}
    last_skill = [[call["name"] for call in row["history"][-2].get("tool_calls", [])] for row in rows]
    assert sum(row["expected"] is not None and row["expected"]["name"] not in skills
               for row, skills in zip(rows, last_skill)) >= 30


@pytest.mark.parametrize("name,row", [(name, row) for name, rows in HALVES.items() for row in rows],
                         ids=lambda value: value if isinstance(value, str) else str(value["id"]))
def test_follow_up_row(name, row):
    check_row(row)
