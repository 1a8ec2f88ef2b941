"""Replies that agree in number with the thing's name as the home names it ("the fairy lights are at 75 percent",
"the arc lamp is"), the plural read from the name's last word with English's singulars in "s" as data
(vocabulary.SINGULAR_IN_S); and "them" after the default home's lights said in the plural ("turn on the kitchen
lights"), read from the words that made the call in the conversation's history."""
import pytest

from assistant.home import InMemoryHome
from assistant.vocabulary import says_many
from plural_home import PLURALS
from test_assistant_fans import said
from test_assistant_modes import home_with


def plural_home():
    """The made-up home (its arc lamp and dock lights among its 40 entities) and plural_home's things."""
    return home_with(*PLURALS)


@pytest.mark.parametrize("name, many", [
    ("fairy lights", True), ("study blinds", True), ("radiators", True), ("louvres", True),
    ("arc lamp", False), ("hall glass", False), ("school bus", False), ("tv series", False),
    ("guest mattress", False), ("camera lens", False), ("lamp 2", False), ("", False),
])
def test_a_name_is_plural_by_its_last_word(name, many):
    assert says_many(name) is many


# on main ca753ef each reply said "is", "hasn't" or "its" of the plural name, or "as it is"
@pytest.mark.parametrize("turns, reply", [
    (("set the fairy lights to 75",), "Okay, the fairy lights are at 75 percent."),
    (("turn on the fairy lights", "dim them to 75"), "Okay, the fairy lights are at 75 percent."),
    (("set the ceiling fans to 50",), "Okay, the ceiling fans are at 50 percent."),
    (("set the radiators to 20",), "Okay, the radiators are set to 20 degrees."),
    (("set the radiators to 40",), "The radiators are at their highest, 30 degrees."),
    (("what are the radiators set to",), "The radiators haven't reported their target temperature yet."),
    (("unlock the french doors", "no"), "Okay, I'll leave the french doors as they are."),
])
def test_a_reply_agrees_with_a_plural_name(assistant, turns, reply):
    assert said(assistant, plural_home(), *turns) == reply


def test_a_singular_name_keeps_is_beside_a_plural_one(assistant):
    """The made-up home's dock lights are at a level (on main ca753ef "is"), its arc lamp still "is"."""
    home = plural_home()
    assert said(assistant, home, "set the dock lights to 40") == "Okay, the dock lights are at 40 percent."
    assert said(assistant, home, "set the arc lamp to 40") == "Okay, the arc lamp is at 40 percent."


def test_them_after_lights_said_in_the_plural_in_the_default_home(assistant):
    """ "turn them off" after the kitchen lights and the bedroom fan: the kitchen lights (on main ca753ef "Sorry, I can
    only do one at a time"), the fan left on; said in the singular, the two are still asked about."""
    home = InMemoryHome()
    assert said(assistant, home, "turn on the kitchen lights", "turn on the bedroom fan", "turn them off") == \
        "Okay, the kitchen light is off."
    assert (home.devices[("light", "kitchen")], home.devices[("fan", "bedroom")]) == ("off", "on")
    assert said(assistant, InMemoryHome(), "turn on the kitchen light", "turn on the bedroom fan", "turn them off") == \
        "Sorry, I can only do one at a time: the bedroom fan or the kitchen light?"
