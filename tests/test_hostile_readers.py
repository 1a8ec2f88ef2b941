"""The code that reads requests before the model (joined requests, summaries, timers, alarms, changes for later)
against hostile requests, over real sockets on loopback with the official openai SDK (the Realtime door)."""
import json

import openai
import pytest

from assistant import compound
from assistant.compound import joined_parts
from assistant.conversation import Vocabulary
from assistant.tools import ToolRunner

MATH = "what is seven times six"
DIGITS = "9" * 4_400          # past the 4,300 digits Python's int() reads from text


async def until_answer(connection, *types: str):
    """The next server event of one of these types (an error included)."""
    async for event in connection:
        if event.type in types or event.type == "error":
            return event
    raise AssertionError("the connection closed")


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
    request of 4,000 "and"s (16,000 characters, the most a Realtime item takes) held a worker 8 s, quadratic in its
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
