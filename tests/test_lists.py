"""The home's lists: "add milk and eggs to the shopping list", "what's on my to-do list", "take bread off the shopping
list", "I've got the milk", "clear the hardware list", read by code from the words and kept in the state store, so a
restart or another gateway sees the same lists. The reading, the runner's answers and bounds, a heard item said back,
the registry's derived maps, a client's own tools, and end to end through /v1/realtime on SQLite (across a restart)
and on a real Redis (across two gateways)."""
import asyncio

import pytest

from assistant.compound import joined_parts
from assistant.conversation import Vocabulary, standalone
from assistant.generator import respond_sync
from assistant.lists import list_asked, list_follow_up
from assistant.skills import (ACTIONS, CHANGES_THE_HOME, LIST_SKILLS, MODEL_SKILLS, SKILLS, SWITCHING, THING_NAMED,
                              TIMER_SKILLS, valid_call)
from assistant.tools import ITEM_TOO_LONG, TOO_MANY_LISTS, ToolRunner
from assistant.vocabulary import MAX_LIST_ITEM_CHARS, MAX_LIST_ITEMS, MAX_LISTS
from realtime_client import RealtimeClient
from streaming.store import open_store
from test_home_voice import spoken, typed


@pytest.mark.parametrize("said, name, arguments", [
    ("add milk to the shopping list", "add_to_list", {"list_name": "shopping", "items": ["milk"]}),
    ("Put eggs and bread on my shopping list.", "add_to_list", {"list_name": "shopping", "items": ["eggs", "bread"]}),
    ("please add some milk, eggs and the bread to the grocery list", "add_to_list",
     {"list_name": "shopping", "items": ["milk", "eggs", "bread"]}),
    ("add call the plumber to my to-do list", "add_to_list", {"list_name": "to-do", "items": ["call the plumber"]}),
    ("add call mum tomorrow to my to do list", "add_to_list", {"list_name": "to-do", "items": ["call mum tomorrow"]}),
    ("add nails to the hardware list", "add_to_list", {"list_name": "hardware", "items": ["nails"]}),
    ("what's on my shopping list", "get_list", {"list_name": "shopping"}),
    ("What's on my to-do list?", "get_list", {"list_name": "to-do"}),
    ("read me my list", "get_list", {"list_name": "shopping"}),
    ("remove milk from the shopping list", "remove_from_list", {"list_name": "shopping", "items": ["milk"]}),
    ("cross the eggs off my shopping list", "remove_from_list", {"list_name": "shopping", "items": ["eggs"]}),
    ("clear the shopping list", "clear_list", {"list_name": "shopping"}),
])
def test_a_list_request_is_read_from_its_words_its_items_copied_as_said(said, name, arguments):
    call, only_if_listed = list_asked(said)
    assert call == {"name": name, "arguments": arguments} and not only_if_listed
    assert valid_call(call)


def test_bought_names_no_list_and_is_meant_only_where_its_items_are_on_the_shopping_list():
    assert list_asked("I've got the milk") == (
        {"name": "remove_from_list", "arguments": {"list_name": "shopping", "items": ["milk"]}}, True)


@pytest.mark.parametrize("said", ["turn on the kitchen light", "put the lights on", "add 5 minutes to the timer",
                                  "what's on the tv", "take the bins out", "don't add milk to the shopping list",
                                  "clear the table"])
def test_other_requests_are_no_list_requests(said):
    assert list_asked(said) is None


def test_the_list_skills_leak_into_no_map_derived_from_the_registry():
    assert LIST_SKILLS == {"add_to_list", "remove_from_list", "get_list", "clear_list"} <= set(SKILLS)
    assert not LIST_SKILLS & (SWITCHING | CHANGES_THE_HOME | TIMER_SKILLS | MODEL_SKILLS | THING_NAMED)
    assert not {"items", "list_name", "milk"} & set(ACTIONS)
    assert SKILLS["add_to_list"].schema()["parameters"]["properties"]["items"]["type"] == "array"


async def test_an_item_is_added_once_taken_off_and_the_list_cleared():
    tools = ToolRunner()
    assert await tools.run("add_to_list", {"list_name": "shopping", "items": ["milk"]}) == \
        "Added milk to your shopping list."
    assert await tools.run("add_to_list", {"list_name": "grocery", "items": ["eggs", "Milk", "bread"]}) == \
        "Added eggs and bread to your shopping list; Milk was on it already."
    assert await tools.run("add_to_list", {"list_name": "shopping", "items": ["milk"]}) == \
        "Milk is already on your shopping list."
    assert await tools.run("get_list", {"list_name": "shopping"}) == "Your shopping list has milk, eggs and bread."
    assert await tools.run("remove_from_list", {"list_name": "shopping", "items": ["MILK", "jam"]}) == \
        "Removed milk from your shopping list; jam was not on it."
    assert await tools.run("remove_from_list", {"list_name": "shopping", "items": ["jam"]}) == \
        "Jam isn't on your shopping list."
    assert await tools.run("get_list", {"list_name": "to-do"}) == "Your to-do list is empty."
    assert await tools.run("clear_list", {"list_name": "shopping"}) == "Cleared your shopping list."
    assert await tools.run("get_list", {"list_name": "shopping"}) == "Your shopping list is empty."
    assert await tools.run("add_to_list", {"list_name": "shopping", "items": "oat milk"}) == \
        "Added oat milk to your shopping list."          # one item as text, as a remote model may write it


async def test_items_a_list_lists_and_an_items_length_are_bounded_with_a_clear_answer():
    tools = ToolRunner()
    assert await tools.run("add_to_list", {"list_name": "shopping", "items": ["x" * (MAX_LIST_ITEM_CHARS + 1)]}) == \
        ITEM_TOO_LONG
    items = [f"item {n}" for n in range(MAX_LIST_ITEMS)]
    assert (await tools.run("add_to_list", {"list_name": "shopping", "items": items})).startswith("Added item 0, ")
    assert await tools.run("add_to_list", {"list_name": "shopping", "items": ["one more"]}) == \
        f"Sorry, your shopping list is full: it keeps at most {MAX_LIST_ITEMS} items."
    for n in range(MAX_LISTS - 1):
        await tools.run("add_to_list", {"list_name": f"list {n}", "items": ["thing"]})
    assert await tools.run("add_to_list", {"list_name": "hardware", "items": ["nails"]}) == TOO_MANY_LISTS
    assert await tools.run("add_to_list", {"list_name": "list 0", "items": ["screws"]}) == \
        "Added screws to your list 0 list."        # a list the home keeps takes more
    assert await tools.run("clear_list", {"list_name": "list 0"}) == "Cleared your list 0 list."
    assert await tools.run("add_to_list", {"list_name": "hardware", "items": ["nails"]}) == \
        "Added nails to your hardware list."


async def test_a_heard_item_with_a_doubted_word_is_said_back_and_a_yes_adds_it():
    tools = ToolRunner()
    tools.begin_reply([{"role": "user", "content": "Add oat milk to the shopping list."}])
    tools.spoken, tools.doubted_words = True, frozenset({"oat"})
    assert await tools.run("add_to_list", {"list_name": "shopping", "items": ["oat milk"]}) == \
        "Did you mean add oat milk to your shopping list? Say yes to confirm."
    assert await tools.lists.rewrite_lists(lambda lists: (lists, lists)) == {}       # nothing added yet
    tools.begin_reply([{"role": "user", "content": "Yes."}])
    tools.doubted_words = frozenset()
    assert await tools.run("confirm", {"answer": "yes"}) == "Added oat milk to your shopping list."


@pytest.mark.usefixtures("needs_assistant")
def test_through_the_assistant_bought_takes_off_only_what_is_on_the_list(assistant):
    tools = ToolRunner()
    answer = respond_sync(assistant, [{"role": "user", "content": "put eggs and bread on my shopping list"}], tools)
    assert answer.text == "Added eggs and bread to your shopping list.", answer
    answer = respond_sync(assistant, [{"role": "user", "content": "I've got the eggs"}], tools)
    assert answer.text == "Removed eggs from your shopping list.", answer
    answer = respond_sync(assistant, [{"role": "user", "content": "I've got the milk"}], tools)
    assert not [call for call in answer.tool_calls if call.name in LIST_SKILLS], answer


NOTE = {"type": "function", "name": "add_note", "description": "Add a note to the user's notes app.",
        "parameters": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}}


@pytest.mark.usefixtures("needs_assistant")
def test_a_client_with_tools_of_its_own_keeps_its_words(assistant):
    tools = ToolRunner()
    answer = respond_sync(assistant, [{"role": "user", "content": "add milk to the shopping list"}], tools,
                          client_tools={"add_note": NOTE})
    assert not [call for call in answer.tool_calls if call.name in LIST_SKILLS], answer
    assert respond_sync(assistant, [{"role": "user", "content": "what's on my shopping list"}], tools).text == \
        "Your shopping list is empty."


# ---- end to end: the Realtime endpoint, over a store

async def ask(server, *texts: str) -> list[str]:
    """A session of its own: what each request got said."""
    client = await RealtimeClient.connect(server.ws_url)
    await client.wait_for("session.created")
    try:
        return [spoken(await typed(client, text)) for text in texts]
    finally:
        await client.close()


@pytest.mark.usefixtures("needs_assistant")
async def test_the_lists_are_the_homes_and_outlive_a_restart_on_sqlite(server_factory, tmp_path):
    store = f"sqlite://{tmp_path}/state.db"
    first = server_factory(store=store)
    assert await ask(first, "add milk, eggs and bread to the shopping list", "take the bread off my shopping list",
                     "add call the plumber to my to-do list") == [
        "Added milk, eggs and bread to your shopping list.", "Removed bread from your shopping list.",
        "Added call the plumber to your to-do list."]
    assert await ask(first, "what's on my shopping list") == ["Your shopping list has milk and eggs."]   # another
    first.stop()                                                                                   # conversation
    restarted = server_factory(store=store)
    assert await ask(restarted, "what's on my shopping list", "what's on the to-do list", "add milk to my list") == [
        "Your shopping list has milk and eggs.", "Your to-do list has call the plumber.",
        "Milk is already on your shopping list."]
    restarted.stop()


@pytest.mark.usefixtures("needs_assistant")
async def test_two_gateways_on_one_redis_keep_one_list(server_factory, redis_server):
    one, other = server_factory(store=redis_server.url), server_factory(store=redis_server.url)
    assert await ask(one, "clear the hardware list", "add nails and screws to the hardware list") == [
        "Your hardware list is already empty.", "Added nails and screws to your hardware list."]
    assert await ask(other, "add nails to the hardware list", "what's on the hardware list") == [
        "Nails are already on your hardware list.", "Your hardware list has nails and screws."]
    one.stop()
    other.stop()


async def test_concurrent_changes_on_the_store_lose_no_item(store_url):
    """Each change reads and writes the lists in one atomic step: eight added at once from two stores are all kept
    (four a store: a store's changes go one at a time, so the other's can make one retry at most four times, under
    REWRITE_TRIES; with ten a store a retry could lose ten times in a row, and did once under load)."""
    stores = [open_store(store_url) for _ in range(2)]
    try:
        await stores[0].rewrite_lists(lambda lists: ({}, None))

        def adding(item):
            def add(lists):
                lists.setdefault("shopping", []).append(item)
                return lists, None
            return add
        await asyncio.gather(*(stores[n % 2].rewrite_lists(adding(f"item {n}")) for n in range(8)))
        kept = await stores[1].rewrite_lists(lambda lists: (lists, lists["shopping"]))
        assert sorted(kept) == sorted(f"item {n}" for n in range(8))
    finally:
        for store in stores:
            await store.close()


# Round 42's second wave: items said with a quantity or joined, questions about a list, follow-ups, joined requests

@pytest.mark.parametrize("said, items", [
    ("add 2 pints of milk, a dozen eggs, a pint of cream and the bread to my list",
     ["2 pints of milk", "a dozen eggs", "a pint of cream", "bread"]),
    ("add salt and pepper to the shopping list", ["salt and pepper"]),
    ("put fish and chips and some mac and cheese and eggs on my list", ["fish and chips", "mac and cheese", "eggs"]),
])
def test_an_item_keeps_its_quantity_and_one_said_joined_is_one(said, items):
    assert list_asked(said)[0]["arguments"]["items"] == items


def test_an_item_already_on_the_list_whole_is_never_split():
    assert list_asked("take rock and roll off my hardware list")[0]["arguments"]["items"] == ["rock", "roll"]
    assert list_asked("take rock and roll off my hardware list", ["Rock and Roll"])[0]["arguments"]["items"] == \
        ["rock and roll"]


@pytest.mark.parametrize("said, arguments", [
    ("how many things are on my shopping list?", {"list_name": "shopping", "asked": "how many"}),
    ("how many items are there on the to-do list", {"list_name": "to-do", "asked": "how many"}),
    ("is milk on my shopping list", {"list_name": "shopping", "items": ["milk"]}),
    ("is there milk and eggs on my list", {"list_name": "shopping", "items": ["milk", "eggs"]}),
    ("are eggs already on the shopping list?", {"list_name": "shopping", "items": ["eggs"]}),
])
def test_how_many_and_whether_items_are_on_a_list_are_read(said, arguments):
    call, _ = list_asked(said)
    assert call == {"name": "get_list", "arguments": arguments} and valid_call(call)


def test_it_or_them_alone_is_no_item():
    assert [list_asked(said) for said in ("add it to the shopping list", "take them off my list",
                                          "is it on my list")] == [None, None, None]


async def test_a_list_says_how_many_things_it_has_and_whether_items_are_on_it():
    tools = ToolRunner()
    assert await tools.run("get_list", {"list_name": "shopping", "asked": "how many"}) == "Your shopping list is empty."
    await tools.run("add_to_list", {"list_name": "shopping", "items": ["milk", "salt and pepper", "eggs"]})
    assert await tools.run("get_list", {"list_name": "shopping", "asked": "how many"}) == \
        "Your shopping list has 3 things on it."
    assert await tools.run("get_list", {"list_name": "shopping", "items": ["Milk"]}) == \
        "Yes, Milk is on your shopping list."
    assert await tools.run("get_list", {"list_name": "shopping", "items": ["jam"]}) == \
        "No, jam isn't on your shopping list."
    assert await tools.run("get_list", {"list_name": "shopping", "items": ["eggs", "jam", "nails"]}) == \
        "Eggs are on your shopping list; jam and nails aren't."


ADDED = {"name": "add_to_list", "arguments": {"list_name": "shopping", "items": ["milk"]}}
READ = {"name": "get_list", "arguments": {"list_name": "shopping"}}


@pytest.mark.parametrize("call, said, meant", [
    (ADDED, "and eggs", "add eggs to the shopping list"),
    (ADDED, "eggs too", "add eggs to the shopping list"),
    (ADDED, "also bread and butter", "add bread and butter to the shopping list"),
    (ADDED, "take that off", "remove milk from the shopping list"),
    (ADDED, "remove it", "remove milk from the shopping list"),
    (ADDED, "add it to the to-do list", "add milk to the to-do list"),
    (READ, "and the to-do list?", "what's on the to-do list"),
    (READ, "what about my hardware list", "what's on the hardware list"),
    (ADDED, "and the to-do list?", None),
    (ADDED, "and turn off the fan", None),
    (ADDED, "and what time is it", None),
    (ADDED, "what time is it", None),
    (READ, "remove it", None),
])
def test_a_follow_up_right_after_a_list_request_stands_for_one(call, said, meant):
    assert list_follow_up(said, call, lambda words: False) == meant


def test_a_thing_of_the_home_said_after_an_add_is_no_item():
    assert list_follow_up("and the kitchen light", ADDED, lambda words: words == "kitchen light") is None


def test_a_follow_up_is_read_only_right_after_the_list_request():
    history = [{"role": "user", "content": "add milk to the shopping list"},
               {"role": "assistant", "content": "Added milk to your shopping list.", "tool_calls": [ADDED]},
               {"role": "user", "content": "and eggs"}]
    assert standalone(history) == "add eggs to the shopping list"
    later = [*history[:2], {"role": "user", "content": "what time is it"},
             {"role": "assistant", "content": "It's 10:00 AM."}, {"role": "user", "content": "and eggs"}]
    assert standalone(later) != "add eggs to the shopping list"


def test_a_list_request_joined_with_another_is_read_in_parts():
    vocabulary = Vocabulary(None)
    assert joined_parts("add milk to my shopping list and set a timer for 5 minutes", vocabulary) == [
        "add milk to my shopping list", "set a timer for 300 seconds"]
    assert joined_parts("set a timer for 5 minutes and add milk and eggs to the shopping list", vocabulary) == [
        "set a timer for 300 seconds", "add milk and eggs to the shopping list"]
    assert joined_parts("add salt and pepper to the shopping list", vocabulary) == []    # its items' "and"


@pytest.mark.usefixtures("needs_assistant")
def test_through_the_assistant_a_joined_list_request_and_a_heard_follow_up_said_back(assistant):
    tools = ToolRunner()
    answer = respond_sync(assistant, [{"role": "user", "content":
                                       "add milk to my shopping list and set a timer for 5 minutes"}], tools)
    assert [(call.name, call.arguments) for call in answer.tool_calls] == [
        ("add_to_list", {"list_name": "shopping", "items": ["milk"]}), ("set_timer", {"seconds": 300})], answer
    history = [{"role": "user", "content": "add milk to the shopping list"},
               {"role": "assistant", "content": "Added milk to your shopping list.", "tool_calls": [ADDED]},
               {"role": "user", "content": "and oat bran"}]
    tools.begin_reply(history)
    tools.spoken, tools.doubted_words = True, frozenset({"oat"})
    answer = respond_sync(assistant, history, tools)
    assert answer.text == "Did you mean add oat bran to your shopping list? Say yes to confirm.", answer


@pytest.mark.usefixtures("needs_assistant")
async def test_follow_ups_about_the_lists_through_the_realtime_api(server_factory):
    server = server_factory()
    assert await ask(server, "add milk to the shopping list", "and eggs", "salt and pepper too", "take that off",
                     "how many things are on my shopping list", "is milk on my shopping list",
                     "what's on my shopping list", "and the to-do list?") == [
        "Added milk to your shopping list.", "Added eggs to your shopping list.",
        "Added salt and pepper to your shopping list.", "Removed salt and pepper from your shopping list.",
        "Your shopping list has 2 things on it.", "Yes, milk is on your shopping list.",
        "Your shopping list has milk and eggs.", "Your to-do list is empty."]
    server.stop()
