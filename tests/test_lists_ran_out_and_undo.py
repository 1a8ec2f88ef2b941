"""Round 43's lists: a remark that things ran out ("we're out of milk") offers them for the shopping list, and a yes
or "add it to the shopping list" right after adds them; "it" that names nothing adds nothing; the newest list change
of a conversation taken back ("undo that", "put it back", "oops, I still need that"), what it changed kept with the
conversation's state. The reading alone, through the assistant, the state's shape, through /v1/realtime, and an undo
after a resume on a second gateway (one real Redis)."""
import asyncio
import json

import pytest

from assistant.chat_cli import Conversation
from assistant.lists import list_undone, ran_out
from assistant.tools import ToolRunner
from assistant.vocabulary import (LIST_ITEM_UNSAID, LIST_OFFER_DECLINED, MAX_LIST_ITEM_CHARS, MAX_LIST_ITEMS)
from streaming.session import SessionLimits
from test_assistant_modes import home_with
from test_conversation_state import resumed_on
from test_lists import ask
from test_resume import ask as ask_in, reply_text


def knows_nothing(words: str) -> bool:
    return False


@pytest.mark.parametrize("said, items", [
    ("we're out of milk", ["milk"]),
    ("We've run out of eggs.", ["eggs"]),
    ("we need more bread", ["bread"]),
    ("we're out of milk and eggs", ["milk", "eggs"]),
    ("the milk has run out", ["milk"]),
    ("we are running low on toilet paper and bin bags", ["toilet paper", "bin bags"]),
    ("I'm out of kitchen roll", ["kitchen roll"]),
])
def test_a_remark_that_things_ran_out_names_them(said, items):
    assert ran_out(said, knows_nothing) == items


def test_a_request_a_place_a_thing_no_shop_sells_or_a_thing_of_the_home_is_no_item_that_ran_out():
    assert ran_out("we need more fans", lambda words: words == "fan") == ["fans"]
    assert ran_out("we need more fan", lambda words: words == "fan") is None
    assert [ran_out(said, knows_nothing) for said in (
        "we're out of ice, could the ice maker go on", "we need more light in here", "we need more light",
        "we're out of time", "we're out of it", "add milk to the shopping list", "turn on the kitchen light")] == \
        [None] * 7


REMOVED = {"name": "remove_from_list", "arguments": {"list_name": "shopping", "items": ["milk", "jam"]}}
ADDED = {"name": "add_to_list", "arguments": {"list_name": "shopping", "items": ["milk", "eggs"]}}


TOOK_MILK = {"list_name": "shopping", "added": [], "removed": ["milk"]}
ADDED_EGGS = {"list_name": "shopping", "added": ["eggs"], "removed": []}
NOTHING_UNDONE = "Sorry, that didn't change your shopping list, so there's nothing to undo."


@pytest.mark.parametrize("said, call, change, undone", [
    ("put it back", REMOVED, TOOK_MILK, {"name": "add_to_list", "arguments": {"list_name": "shopping", "items": ["milk"]}}),
    ("Oops, I still need that.", REMOVED, TOOK_MILK,
     {"name": "add_to_list", "arguments": {"list_name": "shopping", "items": ["milk"]}}),
    ("no wait, put it back on the list", REMOVED, TOOK_MILK,
     {"name": "add_to_list", "arguments": {"list_name": "shopping", "items": ["milk"]}}),
    ("undo that", ADDED, ADDED_EGGS, {"name": "remove_from_list", "arguments": {"list_name": "shopping", "items": ["eggs"]}}),
    ("undo that", ADDED, {"list_name": "shopping", "added": [], "removed": []}, NOTHING_UNDONE),
    ("put it back", REMOVED, None, NOTHING_UNDONE),
])
def test_the_newest_list_change_is_taken_back_only_as_far_as_it_changed_the_list(said, call, change, undone):
    assert list_undone(said, call, change) == undone


def test_words_that_take_nothing_back_and_put_it_back_after_an_add_are_no_undo():
    assert list_undone("undo it", ADDED, ADDED_EGGS) is not None
    assert list_undone("put it back", ADDED, ADDED_EGGS) is None
    assert list_undone("what time is it", REMOVED, TOOK_MILK) is None


def texts(assistant, tools: ToolRunner, *said: str) -> list[str]:
    conversation = Conversation(assistant, tools)
    return [conversation.ask(words).text for words in said]


async def shopping(tools: ToolRunner) -> list[str]:
    return (await tools.lists.rewrite_lists(lambda lists: (lists, lists))).get("shopping", [])


@pytest.mark.usefixtures("needs_assistant")
def test_a_remark_that_things_ran_out_is_offered_and_a_yes_or_it_right_after_adds_them(assistant):
    tools = ToolRunner()
    assert texts(assistant, tools, "we're out of milk") == ["Shall I add milk to your shopping list?"]
    assert asyncio.run(shopping(tools)) == []                        # offered, not added
    assert texts(assistant, tools, "we're out of milk", "add it to the shopping list", "we've run out of eggs",
                 "put that on the list", "we need more bread", "yes", "we're out of jam", "no") == [
        "Shall I add milk to your shopping list?", "Added milk to your shopping list.",
        "Shall I add eggs to your shopping list?", "Added eggs to your shopping list.",
        "Shall I add bread to your shopping list?", "Added bread to your shopping list.",
        "Shall I add jam to your shopping list?", LIST_OFFER_DECLINED]
    assert texts(assistant, tools, "we're out of rice and pasta", "add them to my shopping list") == [
        "Shall I add rice and pasta to your shopping list?", "Added rice and pasta to your shopping list."]
    assert asyncio.run(shopping(tools)) == ["milk", "eggs", "bread", "rice", "pasta"]


@pytest.mark.usefixtures("needs_assistant")
def test_it_that_names_nothing_clear_adds_nothing(assistant):
    tools = ToolRunner()
    assert texts(assistant, tools, "add it to the shopping list") == [LIST_ITEM_UNSAID]
    assert texts(assistant, tools, "we're out of tea and sugar", "add it to the shopping list") == [
        "Shall I add tea and sugar to your shopping list?", LIST_ITEM_UNSAID]          # "it" for two things
    assert texts(assistant, tools, "we're out of flour", "what time is it", "add it to the shopping list")[2] == \
        LIST_ITEM_UNSAID                                                                 # only right after
    assert asyncio.run(shopping(tools)) == []


@pytest.mark.usefixtures("needs_assistant")
def test_a_yes_after_the_offer_answers_the_offer_not_a_question_asked_before_it(assistant):
    home = home_with()
    tools = ToolRunner(home)
    assert texts(assistant, tools, "unlock the wicket gate", "we're out of milk", "yes")[1:] == [
        "Shall I add milk to your shopping list?", "Added milk to your shopping list."]
    assert home.states.get(home.inventory.resolve("wicket gate")[0].key) != "unlocked"


@pytest.mark.usefixtures("needs_assistant")
def test_the_newest_list_change_is_undone(assistant):
    tools = ToolRunner()
    assert texts(assistant, tools, "add milk, eggs and bread to the shopping list", "remove milk from the shopping list",
                 "put it back", "take the eggs off my shopping list", "oops, I still need that",
                 "add jam to the shopping list", "undo that", "add milk to the shopping list", "undo that") == [
        "Added milk, eggs and bread to your shopping list.", "Removed milk from your shopping list.",
        "Added milk to your shopping list.", "Removed eggs from your shopping list.",
        "Added eggs to your shopping list.", "Added jam to your shopping list.", "Removed jam from your shopping list.",
        "Milk is already on your shopping list.",
        "Sorry, that didn't change your shopping list, so there's nothing to undo."]
    assert sorted(asyncio.run(shopping(tools))) == ["bread", "eggs", "milk"]      # milk was on it before: it stays
    assert texts(assistant, tools, "clear the shopping list", "what time is it", "undo that")[::2] == [
        "Cleared your shopping list.", "Added bread, milk and eggs to your shopping list."]
    assert texts(assistant, tools, "remove jam from the shopping list", "put it back") == [
        "Jam isn't on your shopping list.", "Sorry, that didn't change your shopping list, so there's nothing to undo."]
    assert "jam" not in asyncio.run(shopping(tools))


@pytest.mark.usefixtures("needs_assistant")
def test_undo_takes_back_the_newest_change_a_lists_or_the_homes(assistant):
    tools = ToolRunner()
    assert texts(assistant, tools, "add milk and eggs to the shopping list", "remove milk from the shopping list",
                 "turn on the kitchen light", "undo that", "take the eggs off the shopping list", "put it back")[3:] == [
        "Okay, the kitchen light is off.", "Removed eggs from your shopping list.", "Added eggs to your shopping list."]
    assert asyncio.run(shopping(tools)) == ["eggs"]                  # the change of the home was the newest: milk stays off


async def test_the_list_change_is_kept_with_the_conversations_state_within_its_bounds():
    tools = ToolRunner()
    await tools.run("add_to_list", {"list_name": "shopping", "items": ["milk", "eggs"]})
    await tools.run("remove_from_list", {"list_name": "shopping", "items": ["eggs", "jam"]})
    state = json.loads(json.dumps(tools.conversation_state(SessionLimits().max_text_chars)))
    assert state["list_change"] == {"list_name": "shopping", "added": [], "removed": ["eggs"]}
    resumed = ToolRunner()
    resumed.restore_state(state)
    assert resumed.list_change == tools.list_change
    for wrong in ({"list_name": "shopping", "added": "eggs", "removed": []},
                  {"list_name": "shopping", "added": [], "removed": ["x"] * (MAX_LIST_ITEMS + 1)},
                  {"list_name": "shopping", "added": [], "removed": ["x" * (MAX_LIST_ITEM_CHARS + 1)]},
                  {"added": [], "removed": []}):
        resumed.restore_state({**state, "list_change": wrong})
        assert resumed.list_change is None
    assert await tools.run("remove_from_list", {"list_name": "shopping", "items": ["jam"]}) == \
        "Jam isn't on your shopping list."
    assert tools.list_change is None                    # a change that changed nothing leaves nothing to undo


@pytest.mark.usefixtures("needs_assistant")
async def test_a_remark_and_an_undo_through_the_realtime_api(server_factory):
    server = server_factory()
    assert await ask(server, "we're out of milk", "add it to the shopping list", "we've run out of eggs", "yes",
                     "take milk off my shopping list", "oops, I still need that", "what's on my shopping list") == [
        "Shall I add milk to your shopping list?", "Added milk to your shopping list.",
        "Shall I add eggs to your shopping list?", "Added eggs to your shopping list.",
        "Removed milk from your shopping list.", "Added milk to your shopping list.",
        "Your shopping list has eggs and milk."]
    server.stop()


@pytest.mark.usefixtures("needs_assistant")
async def test_an_undo_after_a_resume_on_another_gateway_takes_back_the_list_change(server_factory, redis_server):
    client, resume = await resumed_on(server_factory(store=redis_server.url), server_factory(store=redis_server.url),
                                      None)
    assert [reply_text(await ask_in(client, said)) for said in (
        "clear the shopping list", "add milk and eggs to the shopping list", "take the eggs off my shopping list")][1:] \
        == ["Added milk and eggs to your shopping list.", "Removed eggs from your shopping list."]
    client = await resume()
    assert reply_text(await ask_in(client, "put it back")) == "Added eggs to your shopping list."
    await client.close()
