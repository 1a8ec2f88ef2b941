"""Follow-ups across interleaved skills: "actually cancel it" takes back the newest timer, alarm or list change,
past a light or a sum since, and never an older one; "and a second alarm at ten past six" is one more alarm
(assistant.alarms, assistant.lists); the hand-written conversations of tests/data/conversations_interleaved.jsonl,
judged as bench/assistant_eval.py --conversations judges them; and one over /v1/realtime."""
import json
from pathlib import Path

import pytest

from assistant.alarms import alarm_referred, another_alarm
from assistant.embedded import EmbeddedGenerator
from assistant.skills import valid_call
from bench.assistant_eval import BUDGETS, evaluate_conversations
from realtime_client import RealtimeClient

CONVERSATIONS = [json.loads(line) for line in
                 (Path(__file__).parent / "data" / "conversations_interleaved.jsonl").read_text().splitlines()]
# the turns the assistant still gets wrong, each with why: a first request the model misreads (a timer's name
# dropped, a room's temperature read as a thing's state), and "no, the other one" two turns after a "Which one?"
# that was answered (the seedling warmer switched on, not the bilge pump)
STILL_WRONG = {3: "the other one after an answered question", 15: "the egg timer's name dropped",
               17: "a reading asked as a thing's state"}


def user(text: str) -> dict:
    return {"role": "user", "content": text}


def called(skill: str, /, **arguments) -> dict:
    return {"role": "assistant", "content": "Okay.", "tool_calls": [
        {"type": "function", "function": {"name": skill, "arguments": json.dumps(arguments)}}]}


ALARM = [user("set an alarm for 7 am"), called("set_alarm", hour=7, minute=0, period="am")]
LIGHT = [user("turn off the office light"), called("set_device", device="light", room="office", state="off")]
MILK = [user("add milk to the shopping list"), called("add_to_list", items=["milk"], list_name="shopping")]
TIMER = [user("set a timer for 5 minutes"), called("set_timer", seconds=300)]


@pytest.mark.parametrize("said", ["actually cancel it", "Actually, cancel that.", "oops scrap that",
                                  "cancel it please"])
def test_a_cancel_of_it_takes_the_newest_alarm_past_a_light(said):
    made = alarm_referred([*ALARM, *LIGHT, user(said)])
    assert made == {"name": "cancel_alarm", "arguments": {"which": "one", "hour": 7, "minute": 0, "period": "am"}}
    assert valid_call(made)


@pytest.mark.parametrize("history", [
    [*ALARM, *MILK, user("actually cancel it")],       # the list change is newer: the list's undo takes it
    [*ALARM, *TIMER, user("actually cancel it")],      # the timer is newer: the timers' reading takes it
    [*LIGHT, user("actually cancel it")],              # no alarm was set
    [*ALARM, user("cancel the light")],                # words of another thing
    [*ALARM, called("cancel_alarm", which="one", hour=7, minute=0, period="am"), user("cancel it")],    # gone
])
def test_a_cancel_of_it_never_reaches_past_the_newest_thing_to_an_alarm(history):
    assert alarm_referred(history) is None


@pytest.mark.parametrize("said, arguments", [
    ("and a second alarm at ten past six", {"hour": 6, "minute": 10}),
    ("oh, and another alarm for ten minutes after that one", {"hour": 7, "minute": 10, "period": "am"}),
    ("one more alarm at 7:30 pm please", {"hour": 7, "minute": 30, "period": "pm"}),
    ("and another alarm for an hour after it", {"hour": 8, "minute": 0, "period": "am"}),
])
def test_one_more_alarm_is_at_the_time_said_or_that_long_after_the_newest(said, arguments):
    made = another_alarm([*ALARM, *LIGHT, user(said)])
    assert made == {"name": "set_alarm", "arguments": arguments} and valid_call(made)


@pytest.mark.parametrize("history", [
    [*LIGHT, user("and a second alarm at ten past six")],       # no alarm before: the request's own reading
    [*ALARM, user("another alarm would be nice")],              # no time said
    [*ALARM, user("and another timer for 5 minutes")],
])
def test_one_more_alarm_needs_an_alarm_before_and_a_time(history):
    assert another_alarm(history) is None


@pytest.fixture(scope="module")
def four_passes(assistant):
    if assistant is None:
        pytest.skip("no embedded checkpoint")
    return EmbeddedGenerator(assistant.model, assistant.config, assistant.tokenizer, dict(BUDGETS)["4 passes"],
                             assistant.max_prompt)


@pytest.mark.parametrize("conversation", [
    pytest.param(c, id=str(c["id"]), marks=[pytest.mark.xfail(strict=True, reason=STILL_WRONG[c["id"]])]
                 if c["id"] in STILL_WRONG else []) for c in CONVERSATIONS])
def test_each_turn_of_a_conversation_of_interleaved_skills_is_right(four_passes, conversation):
    result, errors = evaluate_conversations(four_passes, [conversation])
    assert errors == []


async def test_it_and_actually_cancel_it_across_two_skills_over_realtime(live_server, needs_assistant):
    """Over /v1/realtime text: a light switched on, an alarm set, "turn it off" (the light, past the alarm), then
    "actually cancel it" (the alarm, past the light: a cancel takes no light)."""
    client = await RealtimeClient.connect(live_server.ws_url)
    await client.wait_for("session.created")
    made = [await client.calls_of_text_turn(text) for text in ("turn on the kitchen light", "set an alarm for 7 am", "turn it off", "actually cancel it")]
    await client.close()
    assert made == [[("set_device", {"device": "light", "room": "kitchen", "state": "on"})],
                    [("set_alarm", {"hour": 7, "minute": 0, "period": "am"})],
                    [("set_device", {"device": "light", "room": "kitchen", "state": "off"})],
                    [("cancel_alarm", {"which": "one", "hour": 7, "minute": 0, "period": "am"})]]
