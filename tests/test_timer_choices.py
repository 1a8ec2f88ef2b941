"""The answer to a timer change's "Which one do you mean, the pasta timer or the rice timer?" ("the pasta one",
"rice", "the second one", "both") runs the change asked on the timers it picks (assistant.timer_changes); "five more
minutes on the pasta" and "stop the timer for now" are read as timer changes; a timer whose length was changed rings
with the length it has now, on the timer book of this process and in the store (SQLite and the real Redis). Through
the whole assistant and through /v1/realtime."""
import asyncio
import json

import pytest

from assistant.home import InMemoryHome
from assistant.timer_changes import timer_choice_answered
from assistant.tools import ToolRunner
from realtime_client import RealtimeClient
from streaming.gateway import DurableTimers
from streaming.store import open_store
from test_assistant_fans import replies

QUESTION = "Which one do you mean, the pasta timer or the rice timer?"
PAUSE = {"name": "pause_timer", "arguments": {"action": "pause"}}
ADD = {"name": "change_timer", "arguments": {"change": "add", "seconds": 120.0}}


def asked(call: dict, question: str, answer: str) -> list[dict]:
    """A conversation that ends with the answer to the question a call got."""
    return [{"role": "user", "content": "set a pasta timer for 10 minutes"},
            {"role": "assistant", "content": "Okay.", "tool_calls": [
                {"name": "start_timer", "arguments": {"name": "pasta", "seconds": 600}}]},
            {"role": "user", "content": "pause the timer"},
            {"role": "assistant", "content": question, "tool_calls": [call]},
            {"role": "user", "content": answer}]


@pytest.mark.parametrize("call, question, answer, names", [
    (PAUSE, QUESTION, "the pasta one", ["pasta"]),
    (PAUSE, QUESTION, "rice", ["rice"]),
    (PAUSE, QUESTION, "the rice timer please", ["rice"]),
    (PAUSE, QUESTION, "the second one", ["rice"]),
    (ADD, QUESTION, "both", ["pasta", "rice"]),
    (ADD, QUESTION, "all of them", ["pasta", "rice"]),
    (PAUSE, "Which one do you mean, the timer for 10 minutes or the rice timer?", "the first one", []),  # no name
    (PAUSE, QUESTION, "the eggs one", []),
    (PAUSE, QUESTION, "what's the time", []),
    ({"name": "set_device", "arguments": {"device": "light", "state": "off"}}, QUESTION, "the pasta one", []),
    ({"name": "pause_timer", "arguments": {"action": "pause", "name": "pasta"}}, QUESTION, "the rice one", []),
])
def test_an_answer_picks_the_timers_the_change_is_made_on(call, question, answer, names):
    made = timer_choice_answered(asked(call, question, answer))
    assert made == [{"name": call["name"], "arguments": {**call["arguments"], "name": name}} for name in names]


async def test_a_changed_timer_rings_with_the_length_it_has_now():
    tools, rang = ToolRunner(), []
    tools.on_ring = lambda seconds, text: rang.append(text)
    await tools.run("set_timer", {"seconds": 1})
    assert await tools.run("change_timer", {"change": "add", "seconds": 1}) == \
        "Okay, the timer for 1 second has 2 seconds left."
    assert await tools.run("list_timers", {}) == "You have one timer: the timer for 2 seconds, 2 seconds left."
    await asyncio.sleep(2.5)
    assert rang == ["Time is up: your timer for 2 seconds is done."]


async def test_a_stored_timer_changed_keeps_its_new_length_and_a_pause_keeps_it(store_url):
    """The gateway rings a stored timer with the length the store holds (timer_done_text of its seconds)."""
    store = open_store(store_url)
    try:
        tools = ToolRunner(timer_book=DurableTimers(store, "sess_c"))
        await tools.run("set_timer", {"seconds": 600})
        await tools.run("change_timer", {"change": "take off", "seconds": 120})
        await tools.run("pause_timer", {"action": "pause"})
        [timer] = await store.session_timers("sess_c")
        assert (timer.seconds, timer.state) == (480, "paused")
        assert await tools.run("list_timers", {}) == \
            "You have one timer: the timer for 8 minutes, 8 minutes left, paused."
    finally:
        await store.close()


# on ddd4d67: "the pasta one" got a 1-minute pasta timer, "pasta" and "both" "Sorry, I didn't catch that.", "five more
# minutes on the pasta" "Sorry, I can't do that yet.", "stop the timer for now" cancelled the timer
TWO = ("set a pasta timer for 10 minutes", "set a rice timer for 20 minutes")


@pytest.mark.parametrize("turns, calls, reply", [
    ((*TWO, "take a minute off the timer", "the pasta one"),
     [("change_timer", {"change": "take off", "seconds": 60, "name": "pasta"})],
     "Okay, the pasta timer has 9 minutes left."),
    ((*TWO, "pause the timer", "rice"), [("pause_timer", {"action": "pause", "name": "rice"})],
     "Okay, the rice timer is paused, with 20 minutes left."),
    ((*TWO, "pause the timer", "both"),
     [("pause_timer", {"action": "pause", "name": "pasta"}), ("pause_timer", {"action": "pause", "name": "rice"})],
     "Okay, the pasta timer is paused, with 10 minutes left, and the rice timer is paused, with 20 minutes left."),
    ((TWO[0], "five more minutes on the pasta"), [("change_timer", {"change": "add", "seconds": 300, "name": "pasta"})],
     "Okay, the pasta timer has 15 minutes left."),
    ((TWO[0], "stop the timer for now"), [("pause_timer", {"action": "pause"})],
     "Okay, the pasta timer is paused, with 10 minutes left."),
])
def test_through_the_assistant(assistant, turns, calls, reply):
    made = replies(assistant, InMemoryHome(), *turns)
    assert made[-1] == (calls, reply)


async def test_both_as_the_answer_pauses_both_timers_over_realtime(live_server, needs_assistant):
    client = await RealtimeClient.connect(live_server.ws_url)
    await client.wait_for("session.created")
    dones = []
    for text in (*TWO, "pause the timer", "both"):
        start = len(client.events)
        await client.send({"type": "conversation.item.create", "item": {
            "type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}})
        await client.send({"type": "response.create", "response": {"output_modalities": ["text"]}})
        dones.append((start, await client.wait_for("response.done", start=start, timeout=60)))
    assert dones[2][1]["response"]["output"][-1]["content"][0]["text"] == QUESTION
    start, done = dones[3]
    calls = [(e["item"]["name"], json.loads(e["item"]["arguments"]))
             for e in client.of_type("conversation.item.added", start) if e["item"]["type"] == "function_call"]
    assert calls == [("pause_timer", {"action": "pause", "name": "pasta"}),
                     ("pause_timer", {"action": "pause", "name": "rice"})]
    assert done["response"]["output"][-1]["content"][0]["text"] == \
        "Okay, the pasta timer is paused, with 10 minutes left, and the rice timer is paused, with 20 minutes left."
    await client.close()
