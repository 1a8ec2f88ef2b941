"""Words that name the home's things but ask the assistant for nothing make no call (chat_template.asks_nothing),
while requests said near them, with a condition or a remark beside the verb, still ask."""
import pytest

from assistant.chat_template import Slots, asks_nothing
from assistant.spoken_numbers import normalize_request
from made_up_home import made_up_inventory

NOTHING_ASKED = [
    "if the frost comes tonight we'll want the greenhouse heater on",
    "once the film starts i might want the lounge lamp dimmed",
    "in case the power cuts out the sump pump would need a restart",
    "unless it warms up the study radiator will have to stay on",
    "we'll probably need the attic fan on by august",
    "the shed light might need switching off at some point",
    "dave, pop the kettle on when you get home",
    "kids, the telly goes off at eight",
    "can you work garage doors at all?",
    "are you able to dim lights in general",
]
ASKED = [
    "if it gets dark turn the porch light on",
    "when the film starts, dim the lounge lamp please",
    "i'd quite like the lounge lamp on",
    "i'll have the kitchen light on",
    "the hallway lights should be at ten percent",
    "twenty degrees would be about right for the study",
    "could you switch the shed light off when you get a chance",
    "when's the bedroom heater due to come on",
    "i was wondering if you'd be so kind as to lock the back door",
    "can you open the garage door",
    "would the shed door be locked at the moment",       # a question of how a thing is, with the modal first
]


@pytest.mark.parametrize("said", NOTHING_ASKED)
def test_words_that_ask_nothing(said):
    assert asks_nothing(normalize_request(said))


@pytest.mark.parametrize("said", ASKED)
def test_requests_near_them_ask(said):
    assert not asks_nothing(normalize_request(said))


def test_only_calls_on_the_home_are_held_back():
    """A sum or a conversion said with a condition is still answered ("if i multiply 9 by 8, what do i get")."""
    slots = Slots(request=normalize_request("if the frost comes we'll want the heater on"))
    assert slots.acts_on_words_that_ask_nothing({"name": "switch_device", "arguments": {"name": "heater", "state": "on"}})
    assert not slots.acts_on_words_that_ask_nothing({"name": "calculate", "arguments": {"expression": "9*8"}})


def test_a_thing_the_home_lacks_said_in_an_area():
    """The verb's object in an area has a word of no name of the home's: the area's only thing is not guessed;
    a part of a name, a word for a kind, or a compound said apart still reaches it."""
    lexicon = made_up_inventory().lexicon()
    velux = {"name": "set_cover", "arguments": {"name": "velux window", "action": "open"}}
    jukebox = {"name": "switch_device", "arguments": {"name": "jukebox", "state": "off"}}

    def slots(said):
        request = normalize_request(said)
        return Slots(request=request, spoken=request, lexicon=lexicon)
    assert slots("open the trapdoor in the gallery").names_a_thing_the_home_lacks(velux)
    assert not slots("open the window in the gallery").names_a_thing_the_home_lacks(velux)
    assert not slots("open the velux in the gallery").names_a_thing_the_home_lacks(velux)
    assert not slots("stop the juke box in the snug").names_a_thing_the_home_lacks(jukebox)


def test_a_question_with_the_modal_first_reads_and_never_acts():
    """ "would the shed door be unlocked now" asks how the door is: a reading answers it, a change is refused."""
    slots = Slots(request=normalize_request("would the shed door be unlocked now"))
    assert slots.acts_on_a_question({"name": "set_lock", "arguments": {"name": "shed door", "action": "unlock"}})
    assert not slots.acts_on_a_question({"name": "get_state", "arguments": {"name": "shed door"}})
    assert not slots.acts_on_words_that_ask_nothing({"name": "get_state", "arguments": {"name": "shed door"}})
