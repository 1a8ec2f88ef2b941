"""The third to seventh development sets of clear self-contained requests, each in two halves: polite forms, word
orders, British spellings (third), wishes, hedges, passives and typing slips (fourth), everyday requests of every
skill (fifth), roundabout asking, terse and slangy forms (sixth), clipped, texted and punctuated forms (seventh), everyday words the corpus never uses (eighth), across every skill and the homes, beside a few rows that must make no call. The ninth (round 26, 40 rows a half): a part of today said after a question, things warmed or
heated, a speed said alone, timers asked by their name alone or named by "call a timer", sums shared by what each
gets, beside everyday requests and six rows a half that must make no call. Each row is
well-formed, so a refusal on it measures the assistant and not a slip in a row."""

import pytest

from test_dev_nocall_sets import check_row, halves

HALVES = halves("paraphrases_dev_clear3_a.jsonl", "paraphrases_dev_clear3_b.jsonl",
                "paraphrases_dev_clear4_a.jsonl", "paraphrases_dev_clear4_b.jsonl",
                "paraphrases_dev_clear5a.jsonl", "paraphrases_dev_clear5b.jsonl",
                "paraphrases_dev_clear6a.jsonl", "paraphrases_dev_clear6b.jsonl",
                "paraphrases_dev_clear7a.jsonl", "paraphrases_dev_clear7b.jsonl",
                "paraphrases_dev_clear8a.jsonl", "paraphrases_dev_clear8b.jsonl")
NINTH = halves("paraphrases_dev_clear9a.jsonl", "paraphrases_dev_clear9b.jsonl")


@pytest.mark.parametrize("name", HALVES)
def test_half_is_single_turn_requests_in_every_home(name):
    """Each half: about 80 single-turn rows, at least 70 of them clear requests, in the four homes (the fifth to
    eighth sets' in the fourth home too)."""
    rows = HALVES[name]
    assert [row["id"] for row in rows] == list(range(1, len(rows) + 1))
    assert all(len(row["history"]) == 1 for row in rows)
    assert sum(row["expected"] is not None for row in rows) >= 70
    assert 3 <= sum(row["expected"] is None for row in rows) <= 10
    assert {row["home"] for row in rows} - {"fourth"} == {"default", "discovered", "made_up", "third"}


@pytest.mark.parametrize("name", NINTH)
def test_ninth_half_is_40_single_turn_rows_with_six_that_make_no_call(name):
    rows = NINTH[name]
    assert [row["id"] for row in rows] == list(range(1, 41))
    assert all(len(row["history"]) == 1 for row in rows)
    assert sum(row["expected"] is None for row in rows) == 6
    assert {row["home"] for row in rows} == {"default", "discovered", "made_up", "third"}


@pytest.mark.parametrize("name,row", [(name, row) for name, rows in {**HALVES, **NINTH}.items() for row in rows],
                         ids=lambda value: value if isinstance(value, str) else str(value["id"]))
def test_clear_row(name, row):
    check_row(row)
