"""The sentence embedding proposes a declared tool where the code's words find none; the call is made only when
the request supports it by the code's tests (assistant.tool_similarity.similar_reading). Phrasings of their own,
run through the real encoder."""
import pytest

from assistant.client_tools import read_declared
from assistant.tool_similarity import similar_reading


def declared(name, description, properties=None, required=()):
    return {"type": "function", "name": name, "description": description,
            "parameters": {"type": "object", "properties": properties or {}, "required": list(required)}}


TOOLS = [
    declared("heatPaddlingPool", "Start warming the paddling pool to a temperature.",
             {"celsius": {"type": "integer", "description": "Water temperature in Celsius."}}, ["celsius"]),
    declared("lock_bike_shed", "Lock the bike shed's smart lock."),
    declared("find-ev-charger", "Find a public charger for the electric car near a town.",
             {"town": {"type": "string", "description": "Town to search near."}}, ["town"]),
]


@pytest.mark.parametrize("request_, call", [
    ("the grandchildren are coming so get the kiddie pool toasty, twenty eight degrees",
     {"name": "heatPaddlingPool", "arguments": {"celsius": 28}}),
    ("secure the bike shed before we go out", {"name": "lock_bike_shed", "arguments": {}}),
])
def test_a_request_the_words_miss_is_called_by_its_meaning(request_, call):
    assert read_declared(TOOLS, request_) is None
    reading = similar_reading(TOOLS, request_)
    assert reading is not None and reading.call == call and not reading.owned


@pytest.mark.parametrize("request_", [
    "how warm was the paddling pool yesterday afternoon",        # the past, to a tool that does not record it
    "is the paddling pool warm enough for the kids",             # a question, to a tool that acts
    "reopen the bike shed for the gardener",                     # a prefixed verb of another action
    "pay for the charger in didcot",                             # a verb of doing, to a tool that tells
])
def test_near_misses_of_a_proposed_tool_are_not_called(request_):
    assert read_declared(TOOLS, request_) is None
    assert similar_reading(TOOLS, request_) is None
