"""Timers listed ("what timers do I have"), lengthened and shortened ("add 5 minutes to the pasta timer", "take a minute
off the timer"), paused and resumed ("pause the timer", "resume the pasta timer", "pause it" right after a timer's
call): read by code from the words (assistant.timer_changes), run on the session's timer book; a paused timer never
rings; several timers and none named are asked about. Through the whole assistant, on the timer book of this process
and on the store (SQLite and the real Redis), where a paused timer is resumed from another gateway."""
import asyncio
import time

import pytest

from assistant.home import InMemoryHome
from assistant.skills import ACTIONS, MODEL_SKILLS, NOT_CHANGES, SKILLS, SWITCHING, TIMER_QUESTIONS, TIMER_STARTS
from assistant.spoken_numbers import normalize_request
from assistant.timer_changes import timer_change_asked
from assistant.tools import ToolRunner
from streaming.gateway import DurableTimers
from streaming.store import StoredTimer, open_store
from test_assistant_fans import replies

NEW = ("list_timers", "change_timer", "pause_timer")
PASTA = [{"name": "start_timer", "arguments": {"name": "pasta", "seconds": 600}}]
PAUSED_MUSIC = [{"name": "control_media", "arguments": {"action": "pause"}}]


@pytest.mark.parametrize("said, made, call", [
    ("what timers do I have?", [], ("list_timers", {})),
    ("how many timers are running", [], ("list_timers", {})),
    ("add five minutes to the pasta timer", [], ("change_timer", {"change": "add", "seconds": 300, "name": "pasta"})),
    ("take a minute off the timer", [], ("change_timer", {"change": "take off", "seconds": 60})),
    ("put 2 more minutes on the timer for the eggs", [], ("change_timer", {"change": "add", "seconds": 120,
                                                                           "name": "eggs"})),
    ("add another minute", PASTA, ("change_timer", {"change": "add", "seconds": 60, "name": "pasta"})),
    ("pause the timer", [], ("pause_timer", {"action": "pause"})),
    ("resume the pasta timer please", [], ("pause_timer", {"action": "resume", "name": "pasta"})),
    ("pause it", PASTA, ("pause_timer", {"action": "pause", "name": "pasta"})),
    ("pause it", PAUSED_MUSIC, None),              # a media player's: left to its own reading
    ("pause it", [], None),
    ("add another minute", [], None),
    ("what's the weather", PASTA, None),
])
def test_the_words_read_as_a_timer_call(said, made, call):
    read = timer_change_asked(normalize_request(said), made)
    assert (read and (read["name"], read["arguments"])) == call or read is None and call is None


def test_the_new_skills_leak_into_no_map_of_other_skills():
    before = {word for word in ACTIONS}
    assert not set(NEW) & (MODEL_SKILLS | SWITCHING | TIMER_STARTS | TIMER_QUESTIONS)
    assert NOT_CHANGES & set(NEW) == {"list_timers"} and all(SKILLS[name].read_by_code for name in NEW)
    assert before == {"on", "off", "open", "close", "stop", "lock", "unlock", "up", "down"}


async def test_timers_listed_changed_and_asked_which_one():
    tools = ToolRunner()
    assert await tools.run("list_timers", {}) == "You have no timers."
    assert await tools.run("pause_timer", {"action": "pause"}) == "There is no timer running."
    await tools.run("start_timer", {"name": "pasta", "seconds": 600})
    assert await tools.run("change_timer", {"change": "add", "seconds": 300}) == \
        "Okay, the pasta timer has 15 minutes left."
    await tools.run("set_timer", {"seconds": 120})
    assert await tools.run("pause_timer", {"action": "pause"}) == \
        "Which one do you mean, the timer for 2 minutes or the pasta timer?"
    assert await tools.run("change_timer", {"change": "take off", "seconds": 600, "name": "pasta"}) == \
        "Okay, the pasta timer has 5 minutes left."
    assert await tools.run("change_timer", {"change": "take off", "seconds": 3600, "name": "pasta"}) == \
        "The pasta timer has only 5 minutes left."
    assert await tools.run("change_timer", {"change": "add", "seconds": 60, "name": "rice"}) == \
        "There is no rice timer."
    assert await tools.run("list_timers", {}) == \
        "You have 2 timers: the timer for 2 minutes, 2 minutes left; the pasta timer, 5 minutes left."
    for seconds in range(60, 420, 60):
        await tools.run("set_timer", {"seconds": seconds * 10})
    listed = await tools.run("list_timers", {})
    assert listed.startswith("You have 8 timers: ") and listed.endswith("; and 3 more.")


async def test_a_paused_timer_never_rings_and_rings_once_resumed():
    tools, rang = ToolRunner(), []
    tools.on_ring = lambda seconds, text: rang.append(text)
    await tools.run("start_timer", {"name": "tea", "seconds": 1})
    assert (await tools.run("pause_timer", {"action": "pause"})).startswith("Okay, the tea timer is paused, with ")
    assert await tools.run("pause_timer", {"action": "pause"}) == "The tea timer is already paused."
    await asyncio.sleep(1.5)
    assert rang == [] and await tools.run("timer_left", {"name": "tea"}) == "There's 1 second on the tea timer, paused."
    assert await tools.run("list_timers", {}) == "You have one timer: the tea timer, 1 second left, paused."
    assert (await tools.run("pause_timer", {"action": "resume", "name": "tea"})).startswith(
        "Okay, the tea timer is running again")
    await asyncio.sleep(1.5)
    assert rang == ["Time is up: your tea timer is done."] and tools.timers_running == 0


async def test_a_stored_timer_paused_on_one_gateway_is_resumed_on_another_and_never_due_while_paused(store_url):
    first, second = open_store(store_url), open_store(store_url)
    try:
        here = ToolRunner(timer_book=DurableTimers(first, "sess_t"))
        await here.run("start_timer", {"name": "pasta", "seconds": 2})
        assert (await here.run("pause_timer", {"action": "pause"})).startswith("Okay, the pasta timer is paused")
        await here.run("set_timer", {"seconds": 600})
        await asyncio.sleep(2.2)
        assert await first.due_timers(time.time()) == [] and await first.pending_timers("sess_t") == 2
        there = ToolRunner(timer_book=DurableTimers(second, "sess_t"))
        assert (await there.run("change_timer", {"change": "add", "seconds": 60, "name": "pasta"})).endswith(
            "left, paused.")
        assert (await there.run("pause_timer", {"action": "resume", "name": "pasta"})).startswith(
            "Okay, the pasta timer is running again, with 1 minute")
        assert [t.name for t in await first.due_timers(time.time() + 70)] == ["pasta"]
        assert await first.cancel_timers("sess_t") == 2
    finally:
        await first.close()
        await second.close()


async def test_a_paused_stored_timer_is_no_due_one_and_cancelled_with_the_others(store_url):
    store = open_store(store_url)
    try:
        now = time.time()
        await store.add_timer(StoredTimer("tmr_1", "sess_a", 60, now - 1, name="eggs"))
        assert await store.retime_timer("tmr_1", "pending", "paused", 30.0, 60)
        assert not await store.retime_timer("tmr_1", "pending", "paused", 30.0, 60)       # moved on already
        assert await store.due_timers(now + 10) == []
        assert await store.session_timers("sess_a") == [StoredTimer("tmr_1", "sess_a", 60, 30.0, "paused", "eggs")]
        assert await store.cancel_timers("sess_a") == 1 and await store.session_timers("sess_a") == []
    finally:
        await store.close()


# on main 4e6c9eb: "what timers do I have" answered with the list of what Parley can do
@pytest.mark.parametrize("turns, call, reply", [
    (("what timers do I have",), ("list_timers", {}), "You have no timers."),
    (("set a pasta timer for 10 minutes", "add 5 minutes to the pasta timer"),
     ("change_timer", {"change": "add", "seconds": 300, "name": "pasta"}), "Okay, the pasta timer has 15 minutes left."),
    (("set a pasta timer for 10 minutes", "pause it"), ("pause_timer", {"action": "pause", "name": "pasta"}),
     "Okay, the pasta timer is paused, with 10 minutes left."),
    (("set a pasta timer for 10 minutes", "set a rice timer for 20 minutes", "take a minute off the timer"),
     ("change_timer", {"change": "take off", "seconds": 60}),
     "Which one do you mean, the pasta timer or the rice timer?"),
    (("set a pasta timer for 10 minutes", "how many timers are running"), ("list_timers", {}),
     "You have one timer: the pasta timer, 10 minutes left."),
])
def test_through_the_assistant(assistant, turns, call, reply):
    made = replies(assistant, InMemoryHome(), *turns)
    assert made[-1][0] == [call]
    assert made[-1][1] == reply
