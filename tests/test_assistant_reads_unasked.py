"""A reading of a thing of the home (get_state) is made only where some clause of the words asks about it
(embedded.reads_unasked): the model reads a thing it could not place, for a command it did not understand or a
statement that asks nothing, and that reading is a guess. Phrasings written for the mechanism, none from a set."""
import pytest

from assistant.embedded import reads_unasked
from assistant.generator import ToolCall, respond_sync
from assistant.tools import ToolRunner
from test_assistant_names import made_up_home

READING = {"name": "get_state", "arguments": {"name": "kiln"}}

NOTHING_ASKED = [
    "winch the roman blind",                      # a command whose verb no skill's words hold ("hoist" opens, round 42)
    "winch up the boathouse door",
    "the kiln is full of pots",                   # statements about the thing
    "my uncle built the sewing machine",
    "the trouser press was a wedding present",
]
ASKED = [
    "is the kiln on",
    "has anyone locked the strongroom door",
    "what's the jukebox doing",
    "the gramophone, is it playing",              # the question after its topic
    "before we go out, is the wicket gate locked",  # the question in a clause after another
    "and the pond pump?",                         # a follow-up carrying the question before it
    "kiln on?",                                   # a state with a question mark
]


@pytest.mark.parametrize("said", NOTHING_ASKED)
def test_a_reading_for_words_that_ask_nothing_is_a_guess(said):
    assert reads_unasked(READING, said)
    assert reads_unasked(ToolCall(READING["name"], READING["arguments"], "call_1"), said)


@pytest.mark.parametrize("said", ASKED)
def test_a_reading_asked_for_in_any_clause_stands(said):
    assert not reads_unasked(READING, said)


@pytest.mark.parametrize("call", [
    {"name": "switch_device", "arguments": {"name": "kiln", "state": "on"}},
    {"name": "get_time", "arguments": {}},        # "i've lost track of the hours" asks the time without a question
    {"name": "read_sensor", "arguments": {"room": "kitchen", "kind": "temperature"}},
])
def test_only_a_reading_of_a_named_thing_is_checked(call):
    assert not reads_unasked(call, "the kiln is full of pots")


@pytest.mark.parametrize("said", ["winch the roman blind", "the kiln is full of pots", "jiggle the velux window"])
def test_the_model_reads_nothing_it_was_not_asked_about(assistant, said):
    """The shipped model read each of these things' state before; now no call is made and nothing is read."""
    reply = respond_sync(assistant, [{"role": "user", "content": said}], ToolRunner(made_up_home()))
    assert reply.tool_calls == [] and reply.text == "Sorry, I didn't catch that.", reply


@pytest.mark.parametrize("said, thing", [("is the kiln on", "kiln"), ("before we go out, is the wicket gate locked",
                                                                        "wicket_gate")])
def test_the_model_still_reads_what_it_was_asked_about(assistant, said, thing):
    reply = respond_sync(assistant, [{"role": "user", "content": said}], ToolRunner(made_up_home()))
    assert [(call.name, call.arguments) for call in reply.tool_calls] == [("get_state", {"name": thing})], reply
