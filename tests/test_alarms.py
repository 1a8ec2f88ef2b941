"""Alarms cancelled, listed and snoozed, what rings stopped, and a request dropped: the words read by code
(assistant.alarms), the skills run (assistant.tools), and whole turns on the real checkpoint."""
import asyncio

import pytest

from assistant.alarms import alarm_call, dismissed
from assistant.generator import respond_sync
from assistant.skills import ACTIONS, MODEL_SKILLS, SKILLS, SWITCHING, TIMER_SKILLS, valid_call
from assistant.tools import ToolRunner


@pytest.mark.parametrize("said, ringing, call", [
    ("Cancel my alarm.", False, ("cancel_alarm", {"which": "one"})),
    ("cancel the 7 o'clock alarm", False, ("cancel_alarm", {"which": "one", "hour": 7, "minute": 0})),
    ("cancel the alarm at 6:45 am", False, ("cancel_alarm", {"which": "one", "hour": 6, "minute": 45, "period": "am"})),
    ("delete all my alarms", False, ("cancel_alarm", {"which": "all"})),
    ("what alarms do I have?", False, ("list_alarms", {})),
    ("When is my alarm?", False, ("list_alarms", {})),
    ("snooze", True, ("snooze_alarm", {})),
    ("snooze for 10 minutes", True, ("snooze_alarm", {"minutes": 10})),
    ("Stop!", True, ("stop_ringing", {})),
    ("turn it off", True, ("stop_ringing", {})),
    ("never mind", True, ("stop_ringing", {})),
    ("stop", False, None),                      # nothing rings: dropped (dismissed), no call
    ("turn it off", False, None),               # a follow-up's, when nothing rings
    ("turn off the kitchen light", True, None),
    ("cancel the timer", False, None),
])
def test_requests_about_alarms_are_read_from_the_words(said, ringing, call):
    made = alarm_call(said, ringing)
    assert (made and (made["name"], made["arguments"])) == (call or None)
    assert made is None or valid_call(made)


def test_a_request_dropped_is_one_said_alone():
    assert dismissed("Never mind.", 0) and dismissed("forget it", 0) and dismissed("stop", 0)
    assert dismissed("cancel", 0) and not dismissed("cancel", 1)      # a bare "cancel" with a timer running is its
    assert not dismissed("turn it off", 0) and not dismissed("never mind the kitchen, do the hall", 0)


def test_the_new_skills_join_no_map_of_switches_timers_or_the_model():
    new = {"cancel_alarm", "list_alarms", "snooze_alarm", "stop_ringing"}
    assert new <= set(SKILLS)
    assert not new & (SWITCHING | TIMER_SKILLS | MODEL_SKILLS)
    assert "one" not in ACTIONS and "all" not in ACTIONS


async def test_alarms_are_listed_cancelled_one_by_its_time_or_all():
    tools = ToolRunner()
    assert await tools.run("list_alarms", {}) == "You have no alarms."
    assert await tools.run("cancel_alarm", {"which": "one"}) == "You have no alarms."
    await tools.run("set_alarm", {"hour": 6, "minute": 45, "period": "am"})
    await tools.run("set_alarm", {"hour": 7, "minute": 0, "period": "am"})
    await tools.run("set_timer", {"seconds": 300})          # a timer is no alarm
    assert await tools.run("list_alarms", {}) == "You have 2 alarms: at 6:45 AM and 7:00 AM."
    assert await tools.run("cancel_alarm", {"which": "one"}) == "Which one: the alarm at 6:45 AM or 7:00 AM?"
    assert await tools.run("cancel_alarm", {"which": "one", "hour": 8, "minute": 0}) == "There is no alarm at 8:00."
    assert await tools.run("cancel_alarm", {"which": "one", "hour": 7, "minute": 0}) == \
        "Okay, your alarm for 7:00 AM is cancelled."
    assert await tools.run("list_alarms", {}) == "You have an alarm at 6:45 AM."
    await tools.run("set_alarm", {"hour": 9, "minute": 30, "period": "pm"})
    assert await tools.run("cancel_alarm", {"which": "all"}) == "Okay, your 2 alarms are cancelled."
    assert [t.alarm for t in await tools.timer_book.pending()] == [None]         # the timer runs on
    tools.stop_timers()


async def test_a_long_list_of_alarms_is_bounded():
    tools = ToolRunner()
    for minute in range(7):
        await tools.run("set_alarm", {"hour": 5, "minute": minute, "period": "am"})
    said = await tools.run("list_alarms", {})
    assert said.startswith("You have 7 alarms: at 5:00 AM, ") and said.endswith(", and 2 more.")
    tools.stop_timers()


async def test_what_rang_is_stopped_or_snoozed_and_nothing_rings_after():
    tools, rang = ToolRunner(), []
    tools.on_ring = lambda seconds, text: rang.append(text)
    assert await tools.run("stop_ringing", {}) == "Okay."
    assert await tools.run("snooze_alarm", {}) == "Nothing is ringing to snooze."
    await tools.run("set_timer", {"seconds": 1})
    await asyncio.sleep(1.3)
    assert rang and tools.ringing is not None
    assert await tools.run("snooze_alarm", {"minutes": 10}) == "Okay, snoozed for 10 minutes."
    assert tools.ringing is None and [t.seconds for t in await tools.timer_book.pending()] == [600]
    tools.rang_now((await tools.timer_book.pending())[0])
    assert await tools.run("stop_ringing", {}) == "Okay, the timer is off." and tools.ringing is None
    assert await tools.run("snooze_alarm", {"minutes": 500}) != "Okay, snoozed for 500 minutes."
    tools.stop_timers()


def _reply(assistant, tools, *turns):
    history = []
    for text in turns:
        history.append({"role": "user", "content": text})
        reply = respond_sync(assistant, history, tools)
        history.append({"role": "assistant", "content": reply.text})
    return reply


def test_typed_alarm_requests_are_answered(assistant):
    tools = ToolRunner()
    reply = _reply(assistant, tools, "set an alarm for 6:45 am", "what alarms do I have")
    assert reply.text == "You have an alarm at 6:45 AM." and [c.name for c in reply.tool_calls] == ["list_alarms"]
    reply = _reply(assistant, tools, "cancel my alarm")
    assert reply.text == "Okay, your alarm for 6:45 AM is cancelled."
    assert _reply(assistant, tools, "when is my alarm").text == "You have no alarms."


@pytest.mark.parametrize("said", ["stop", "never mind", "forget it", "cancel"])
def test_a_dropped_request_is_answered_okay_with_no_call(assistant, said):
    reply = _reply(assistant, ToolRunner(), said)
    assert reply.text == "Okay." and reply.tool_calls == []


def test_snooze_and_stop_while_a_timer_rings(assistant):
    tools = ToolRunner()
    async def ring():
        await tools.run("set_timer", {"seconds": 1})
        await asyncio.sleep(1.3)
    asyncio.run(ring())
    reply = _reply(assistant, tools, "snooze for 5 minutes")
    assert [c.name for c in reply.tool_calls] == ["snooze_alarm"] and reply.text == "Okay, snoozed for 5 minutes."
    tools.rang_now(asyncio.run(tools.timer_book.pending())[0])        # the snoozed timer rings again
    reply = _reply(assistant, tools, "stop")
    assert [c.name for c in reply.tool_calls] == ["stop_ringing"] and reply.text == "Okay, the timer is off."
    assert _reply(assistant, tools, "stop").tool_calls == []              # nothing rings now


async def test_a_spoken_question_about_alarms_is_answered():
    """ "when is my alarm" has no word asks() takes for a question of state: heard, it is still answered."""
    tools = ToolRunner()
    tools.spoken, tools.heard = True, "when is my alarm"
    assert await tools.run("list_alarms", {}) == "You have no alarms."
