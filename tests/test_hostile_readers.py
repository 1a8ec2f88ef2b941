"""The code that reads requests before the model (joined requests, summaries, timers, alarms, changes for later)
against hostile requests, over real sockets on loopback with the official openai SDK (the Realtime door)."""
import json

import openai
import pytest

from assistant import compound
from assistant.compound import joined_parts
from assistant.conversation import Vocabulary
from assistant.generator import respond_sync
from assistant.home import InMemoryHome
from assistant.inventory import MAX_ENTITIES, Inventory
from assistant.tools import ToolRunner
from test_hostile_declarations import until_answer

MATH = "what is seven times six"
DIGITS = "9" * 4_400          # past the 4,300 digits Python's int() reads from text


@pytest.fixture
async def connection(live_server):
    sdk = openai.AsyncOpenAI(api_key="sk-unused", websocket_base_url=f"ws://127.0.0.1:{live_server.port}/v1")
    async with sdk.realtime.connect(model="parley-home") as connection:
        assert (await until_answer(connection, "session.created")).type == "session.created"
        await connection.session.update(session={"type": "realtime", "output_modalities": ["text"]})
        assert (await until_answer(connection, "session.updated")).type == "session.updated"
        yield connection


async def answer(connection, text: str):
    """The response.done (or the error) for one typed request."""
    await connection.conversation.item.create(item={"type": "message", "role": "user",
                                                    "content": [{"type": "input_text", "text": text}]})
    await connection.response.create()
    return await until_answer(connection, "response.done")


@pytest.mark.parametrize("text", [f"snooze for {DIGITS} seconds", f"set a timer for {DIGITS} minutes"])
async def test_a_number_of_thousands_of_digits_gets_an_answer_and_the_session_goes_on(connection, text):
    """At 216f494 the clock-time reading (spoken_numbers) and a snooze's seconds (alarms) read such a number with
    int(), which raised: the response failed. Now a run of more digits than a number has is a plain word."""
    done = await answer(connection, text)
    assert done.type == "response.done" and done.response.status == "completed", done
    done = await answer(connection, MATH)
    assert done.type == "response.done" and "42" in json.dumps(done.response.model_dump())


async def test_a_request_of_thousands_of_ands_is_read_whole_without_looking_in_names_for_each(monkeypatch):
    """At 216f494 each "and" of a request was looked for in the names around it, over all the words before it: a
    request of 4,000 "and"s (16,000 characters, the most a Realtime item takes) held a worker 3.5-8 s, square in its
    length. Now a request of more than MAX_JOINERS joining words is read whole, no name looked in."""
    vocabulary = Vocabulary(await ToolRunner().lexicon())
    looked = []
    inside_a_name = compound._inside_a_name
    monkeypatch.setattr(compound, "_inside_a_name", lambda *args: looked.append(args) or inside_a_name(*args))
    assert joined_parts("turn on the kitchen light" + " and" * 4_000, vocabulary) == []
    assert looked == []
    assert joined_parts("turn on the kitchen light and the bedroom light", vocabulary) == \
        ["turn on the kitchen light", "turn on the bedroom light"]
    assert len(looked) == 1
    many = "turn on the kitchen light" + " and the bedroom light" * (compound.MAX_JOINERS + 1)
    assert joined_parts(many, vocabulary) == [] and len(looked) == 1



@pytest.mark.parametrize("text", ["turn on the kitchen\x00 light and the bedroom light",
                                  "turn on the \u202ethgil nehctik\u202c and the bedroom light",
                                  "which lights are on\x00\u202e"])
async def test_nul_and_rtl_overrides_in_a_request_get_an_answer_and_the_session_goes_on(connection, text):
    """Claims no fix: held at 216f494."""
    done = await answer(connection, text)
    assert done.type == "response.done" and done.response.status == "completed", done
    done = await answer(connection, MATH)
    assert done.type == "response.done" and "42" in json.dumps(done.response.model_dump())


@pytest.mark.parametrize("text", ["turn on the \ud800 light and the bedroom light", "which lights are on \udfff"])
async def test_a_lone_surrogate_in_a_request_is_refused_and_the_session_goes_on(connection, text):
    """Claims no fix: held at 216f494 (the door refuses the event before any reader sees it)."""
    await connection.conversation.item.create(item={"type": "message", "role": "user",
                                                    "content": [{"type": "input_text", "text": text}]})
    refused = await until_answer(connection, "conversation.item.added")
    assert refused.type == "error" and refused.error.code == "invalid_text", refused
    done = await answer(connection, MATH)
    assert done.type == "response.done" and "42" in json.dumps(done.response.model_dump())


def conversation(assistant, tools: ToolRunner):
    """turn(text): the assistant's reply to text, said after the turns before in one conversation."""
    history = []

    def turn(text: str):
        history.append({"role": "user", "content": text})
        reply = respond_sync(assistant, history, tools)
        history.append({"role": "assistant", "content": reply.text,
                        "tool_calls": [{"name": c.name, "arguments": c.arguments} for c in reply.tool_calls]})
        return reply
    return turn


def test_absurd_numbers_start_no_timer_and_change_nothing_now(assistant):
    """A timer of an absurd length starts nothing; a change said for an absurd delay is refused as too far ahead
    (99999999999 hours overflowed the scheduled moment's arithmetic once changes for later were scheduled)."""
    home = InMemoryHome()
    tools = ToolRunner(home)
    turn = conversation(assistant, tools)
    turn("turn on the kitchen light")
    for text in ("set the timer for 99999999999 hours", "set a timer for 10^308 minutes",
                 "turn off the kitchen light in 10^308 minutes"):
        reply = turn(text)
        assert reply.text and [c.name for c in reply.tool_calls] in ([], ["set_timer"]), (text, reply)
    assert turn("turn off the kitchen light in 99999999999 hours").text == \
        "Sorry, I can only schedule a change up to 24 hours ahead."
    assert tools.timers_running == 0 and home.devices[("light", "kitchen")] == "on"


def big_home() -> InMemoryHome:
    """5,000 lights announced, each in its own area, every other one with a name of 10 KiB: the inventory takes
    MAX_ENTITIES and refuses the long names."""
    inventory = Inventory()
    for i in range(5_000):
        inventory.receive_discovery(f"homeassistant/light/l{i}/config", json.dumps({
            "name": f"lamp {i} " + "x" * 10_240 if i % 2 else f"lamp {i}", "command_topic": f"l/{i}/set",
            "device": {"suggested_area": f"room {i}"}}))
    return InMemoryHome(inventory=inventory)


def test_a_summary_of_thousands_is_a_count_and_them_switches_only_what_is_still_there(assistant):
    """Claims no fix: held at 216f494. A summary of 1,500 lights on says their count and three of them; between it
    and "turn them off" 700 of them are removed and one renamed: the others are switched, the removed ones are not
    asked for, and the reply is a count."""
    home = big_home()
    assert len(home.inventory) == MAX_ENTITIES and all(len(e.name) < 20 for e in home.inventory.entities())
    lights = home.inventory.entities()[:1_500]
    for light in lights:
        home.states[light.key] = "on"
    turn = conversation(assistant, ToolRunner(home))
    listed = turn("which lights are on")
    assert listed.text == "1500 lights are on, among them the lamp 0, the lamp 2 and the lamp 4."
    for light in lights[:700]:
        home.inventory.remove(light.key)
    renamed = lights[-1]
    home.inventory.receive_discovery(f"homeassistant/light/{renamed.key.split('/')[-1]}/config", json.dumps({
        "name": "porch lamp", "command_topic": "porch/set"}))
    switched = turn("turn them off")
    assert [(c.name, c.arguments) for c in switched.tool_calls] == [("switch_listed", {"state": "off"})]
    assert switched.text == "Okay, 800 things are off."
    assert all(home.states[light.key] == "off" for light in lights[700:])
