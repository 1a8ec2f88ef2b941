"""The decoder's mechanisms of round 20 (the eleventh client-tools set's part A is a development set), each on
declarations of its own: how a description that says when a tool is used is read, and how a request said in
several clauses is read, not the set's phrasings."""
import pytest

from assistant.client_tools import what_it_does
from declared_tools import reading, tool

KAYAK = tool("kayak_hire", "Called when the user wants to rent a kayak at the lake.", ["hours"],
             hours=("integer", "How many hours."))
TRANSFER = tool("pending_transfer", "This function cancels a bank transfer that has not gone out yet.",
                reference=("string", "The transfer's reference, e.g. TR-2231."))
LOCKER = tool("GymLocker", "Use this when the member asks to open their gym locker.", ["locker"],
              locker=("string", "The locker number."))
WIFI = tool("guest_wifi", "Called when the guest asks for the wifi password.")


@pytest.mark.parametrize("description, words", [
    ("Called when the hotel guest would like food brought up.", ["food", "brought", "up"]),
    ("This function books a massage.", ["book", "a", "massage"]),
    ("Records of swims.", ["records", "of", "swims"]),      # a plural noun is no verb
])
def test_a_description_is_read_past_when_the_tool_is_used(description, words):
    assert what_it_does(description) == words


@pytest.mark.parametrize("text, tools, expected", [
    # the verb after "Called when the user wants to" is the tool's: it acts
    ("rent a kayak for 2 hours", [KAYAK], ("kayak_hire", {"hours": 2})),
    ("could you hire us a kayak for three hours", [KAYAK], ("kayak_hire", {"hours": 3})),
    ("cancel transfer TR-5512", [TRANSFER], ("pending_transfer", {"reference": "TR-5512"})),
    ("open locker 42", [LOCKER], ("GymLocker", {"locker": "42"})),
    ("what's the wifi password", [WIFI], ("guest_wifi", {})),
])
def test_a_tool_described_by_when_it_is_used(text, tools, expected):
    assert reading(tools, text) == expected


@pytest.mark.parametrize("text, tools", [
    # "Called", "user", "wants" are no words of the tool's own
    ("could you call my sister", [KAYAK, WIFI]),
    ("the user wants a kayak", [KAYAK]),
    # the action undone is still another action
    ("close locker 42", [LOCKER]),
])
def test_a_tool_described_by_when_it_is_used_is_not_called_where_none_serves(text, tools):
    assert reading(tools, text) is None
