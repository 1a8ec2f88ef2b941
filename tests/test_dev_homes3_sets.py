"""The third to eighth development sets of unseen homes, in two halves: each row is well-formed, so a score on it
measures the assistant and not a slip in a row. A call the home can run (after follow-ups whose earlier calls it can
run too), none for chit-chat, or a name the home lacks that says no whole name of the home's."""
import asyncio

import pytest

from assistant.home import InMemoryHome
from assistant.tools import ToolRunner
from test_dev_nocall_sets import halves
from test_fresh_sets import HOMES, check_call

HALVES = halves("paraphrases_dev_homes3_a.jsonl", "paraphrases_dev_homes3_b.jsonl",
                "paraphrases_dev_homes4_a.jsonl", "paraphrases_dev_homes4_b.jsonl",
                "paraphrases_dev_homes5_a.jsonl", "paraphrases_dev_homes5_b.jsonl",
                "paraphrases_dev_homes6_a.jsonl", "paraphrases_dev_homes6_b.jsonl",
                "paraphrases_dev_homes7_a.jsonl", "paraphrases_dev_homes7_b.jsonl",
                "paraphrases_dev_homes8_a.jsonl", "paraphrases_dev_homes8_b.jsonl")
# the fifth and sixth sets are over the fourth home (tests/fourth_home.py) in place of the third, the seventh over
# the fifth home (tests/fifth_home.py), the eighth over the fifth and fourth
SET_HOMES = {"homes3": {"discovered", "third", "made_up"}, "homes4": {"discovered", "third", "made_up"},
             "homes5": {"discovered", "fourth", "made_up"}, "homes6": {"discovered", "fourth", "made_up"},
             "homes7": {"discovered", "fifth", "made_up"}, "homes8": {"discovered", "fifth", "fourth", "made_up"}}


@pytest.mark.parametrize("name", HALVES)
def test_half_spreads_over_the_unseen_homes(name):
    """Two discovery-built homes and the made-up one; follow-ups, questions and names the home lacks in each half."""
    rows = HALVES[name]
    assert [row["id"] for row in rows] == list(range(1, len(rows) + 1))
    assert 60 <= len(rows) <= 80
    assert {row["home"] for row in rows} == SET_HOMES[name.split("_")[2]]
    assert sum(len(row["history"]) > 1 for row in rows) >= 6
    assert sum(row["expected"] is not None and row["expected"]["name"] == "get_state" for row in rows) >= 8
    assert sum(row.get("category") == "unknown_name" for row in rows) >= 10


@pytest.mark.parametrize("name,row", [(name, row) for name, rows in HALVES.items() for row in rows],
                         ids=lambda value: value if isinstance(value, str) else str(value["id"]))
def test_homes3_row(name, row):
    assert set(row) - {"category"} == {"id", "home", "history", "expected"} and row["home"] in HOMES
    history = row["history"]
    assert [m["role"] for m in history] == ["user", "assistant"] * (len(history) // 2) + ["user"]
    assert all(m["content"] == m["content"].strip().lower() for m in history if m["role"] == "user")
    for index, message in enumerate(history[1::2]):        # an earlier call is one the home runs
        assert set(message) == {"role", "content", "tool_calls"} and len(message["tool_calls"]) == 1
        check_call({"home": row["home"], "history": history[:2 * index + 1], "expected": message["tool_calls"][0]},
                   whole_names=False)
    if row["expected"] is not None:
        assert "category" not in row
        check_call(row, whole_names=False)
        tools = ToolRunner(InMemoryHome(inventory=HOMES[row["home"]]))
        answer = asyncio.run(tools.run(row["expected"]["name"], dict(row["expected"]["arguments"])))
        assert "don't know" not in answer.lower() and "which" not in answer.lower(), answer
    elif row.get("category") == "unknown_name":
        said = history[-1]["content"]
        assert not [e.name for e in HOMES[row["home"]].entities() if e.name in said]
    else:
        assert "category" not in row
