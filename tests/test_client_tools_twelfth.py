"""The decoder's mechanisms of round 20's second tools branch (the twelfth client-tools set's part A is a
development set), each on declarations and phrasings of its own: a long request said after a remark, as a
recogniser writes it, is read from its words of asking on."""
import pytest

from assistant.client_tools import asked_part
from declared_tools import reading, tool

KILN = tool("fire_kiln", "Called when the user wants the pottery kiln fired.", ["temperature"],
            temperature=("integer", "The peak temperature in degrees."))
SKIP = tool("order-skip", "Called when the user wants a skip delivered to the drive.", ["size"],
            size=("integer", "The skip's size in cubic yards."))
LAMP = tool("report_lamp", "Called when the user wants to report a broken lamp post.", ["road"],
            road=("string", "The road where the lamp post is."))


@pytest.mark.parametrize("text, part", [
    ("the pots have dried for a week so could you fire the kiln at 1200", "could you fire the kiln at 1200"),
    ("the garden is a mess and i think we should get a 6 yard skip", "get a 6 yard skip"),
    ("we are clearing the loft, so please order a skip", "order a skip"),
    # the request says the remark's thing by a pronoun: it is read with its remark
    ("the lamp on elm road is out so could you report it", None),
    ("the meter says 4821 so would you send that in", None),
    # a question after a remark is read alone
    ("the kiln is hot so what should i do now", "what should i do now"),
    # "and" before a question joins it to the words before it
    ("do me a favour and is the kiln hot enough", None),
    # a question by a modal asks for something done: read as a request, with its remark when a pronoun stands for
    # the remark's thing
    ("the lawn looks shaggy so can the mower cut it shorter", None),
    # no word joining a remark
    ("could you fire the kiln at 1200", None),
])
def test_the_part_asked_after_a_remark(text, part):
    assert asked_part(text) == part


@pytest.mark.parametrize("text, tools, expected", [
    ("the glaze needs a hot firing this time so could you fire the kiln at 1250 degrees", [KILN, SKIP],
     ("fire_kiln", {"temperature": 1250})),
    # the remark says how things are ("we are out of room"): no state the request asks about
    ("the builders are almost done and we are out of room in the bins so i think we should get a 6 yard skip",
     [SKIP, KILN], ("order-skip", {"size": 6})),
    ("the lamp on station street is out so could you report it", [LAMP, SKIP],
     ("report_lamp", {"road": "station street"})),
])
def test_a_request_after_a_remark_is_read_past_it(text, tools, expected):
    assert reading(tools, text) == expected



@pytest.mark.parametrize("text", [
    "the kiln cracked two bowls last time so how hot should it go",
    "we filled 3 skips last year and one is full again so what do people do with old bricks",
])
def test_a_question_after_a_remark_is_read_alone(text):
    """The remark says a tool's thing and a number, the question asks what no tool does: no call."""
    assert reading([KILN, SKIP], text) is None


BADGE = tool("RequestGuestBadge", "Called when the user wants a guest badge for a visitor to the office.", ["visitor"],
             visitor=("string", "The visitor's name."))


@pytest.mark.parametrize("text, tools, expected", [
    ("would you rustle up a 6 yard skip", [SKIP, KILN], ("order-skip", {"size": 6})),
    ("my cousin is visiting the office tomorrow so could you arrange a guest badge for Priya", [BADGE, KILN],
     ("RequestGuestBadge", {"visitor": "Priya"})),
    # to be told something is no action, though the tool's thing is named; a verb the corpus knows is another action
    ("would you explain how big a 6 yard skip is", [SKIP, KILN], None),
    ("could you hold a guest badge for Priya", [BADGE, KILN], None),
    # no words of asking: a verb of no table alone asks nothing
    ("arrange a guest badge for Priya", [BADGE, KILN], None),
])
def test_a_verb_of_no_table_in_words_of_asking_with_the_tools_thing(text, tools, expected):
    assert reading(tools, text) == expected
