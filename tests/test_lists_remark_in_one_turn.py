"""Round 44's lists: a remark that things ran out said with its request in one turn ("we're out of milk, add it to the
shopping list") makes the request once, with no offer; "we need milk" is a remark like "we need more milk", offered
for the shopping list, and words of a plan, a time or a change of the home after "we need" are no items. The reading
alone and through the assistant."""
import asyncio

import pytest

from assistant.conversation import Vocabulary
from assistant.lists import needed, ran_out, remark_then_request
from assistant.tools import ToolRunner
from test_lists_ran_out_and_undo import knows_nothing, shopping, texts


def remark(words: str) -> list[str] | None:
    return ran_out(words, knows_nothing) or needed(words, Vocabulary(None).names_a_thing)


@pytest.mark.parametrize("said, asked", [
    ("we're out of milk, add it to the shopping list", "add milk to the shopping list"),
    ("We've run out of milk. Put it on the list.", "Put milk on the list"),
    ("we're out of milk and eggs, add them to the shopping list", "add milk and eggs to the shopping list"),
    ("we've run out of eggs so put them on the list", "put eggs on the list"),
    ("we need milk, could you put it on my shopping list", "could you put milk on my shopping list"),
    ("we're out of milk, add bread to the shopping list", "add bread to the shopping list"),
])
def test_a_remark_and_its_list_request_in_one_turn_are_the_request_with_the_remarks_items(said, asked):
    assert remark_then_request(said, remark) == asked


def test_a_remark_alone_or_a_request_after_other_words_is_no_such_turn():
    assert remark_then_request("we're out of milk; add it to the list", remark) == "add milk to the list"
    assert [remark_then_request(said, remark) for said in (
        "we're out of milk", "we're out of milk, turn on the kitchen light", "we're out of milk, add it",
        "add it to the shopping list", "i'm tired, add it to the shopping list",
        "we're out of tea and sugar, add it to the list")] == [None] * 6       # "it" for two things


@pytest.mark.parametrize("said, items", [
    ("we need milk", ["milk"]),
    ("We need eggs and bread.", ["eggs", "bread"]),
    ("we still need some bin bags", ["bin bags"]),
])
def test_we_need_a_thing_names_it(said, items):
    assert needed(said, Vocabulary(None).names_a_thing) == items


def test_a_plan_a_time_a_change_or_a_thing_of_the_home_after_we_need_is_no_item():
    assert needed("we really need bin bags", Vocabulary(None).names_a_thing) == ["bin bags"]
    assert [needed(said, Vocabulary(None).names_a_thing) for said in (
        "we need to leave at 7", "we need a timer for 10 minutes", "we need the living room warmer",
        "we need the kitchen light on", "we need it brighter in here", "we need help", "we need coffee",
        "we need more time")] == [None] * 8


@pytest.mark.usefixtures("needs_assistant")
def test_a_remark_with_its_request_in_one_turn_adds_once_with_no_offer(assistant):
    tools = ToolRunner()        # on a784a67 each was "Sorry, I can't do that yet."
    assert texts(assistant, tools, "we're out of milk, add it to the shopping list",
                 "We've run out of eggs. Put them on the list.",
                 "we're out of rice and pasta, add them to my shopping list") == [
        "Added milk to your shopping list.", "Added eggs to your shopping list.",
        "Added rice and pasta to your shopping list."]
    assert asyncio.run(shopping(tools)) == ["milk", "eggs", "rice", "pasta"]


@pytest.mark.usefixtures("needs_assistant")
def test_we_need_a_thing_is_offered_and_a_remark_alone_still_is(assistant):
    tools = ToolRunner()        # on a784a67 "we need milk" was "Sorry, I can't do that yet."
    assert texts(assistant, tools, "we need milk", "yes", "we need eggs and bread", "add them to the list",
                 "we're out of jam") == [
        "Shall I add milk to your shopping list?", "Added milk to your shopping list.",
        "Shall I add eggs and bread to your shopping list?", "Added eggs and bread to your shopping list.",
        "Shall I add jam to your shopping list?"]
    assert asyncio.run(shopping(tools)) == ["milk", "eggs", "bread"]


@pytest.mark.usefixtures("needs_assistant")
def test_we_need_to_leave_at_7_adds_nothing_to_a_list(assistant):
    tools = ToolRunner()
    assert texts(assistant, tools, "we need to leave at 7", "yes", "we need milk")[2] == \
        "Shall I add milk to your shopping list?"
    assert asyncio.run(shopping(tools)) == []
