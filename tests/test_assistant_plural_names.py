""" "they", "them", "those", "these" for one thing whose name is plural (tests/plural_home.py: the fairy lights, the
study blinds, the radiators, ...), through the whole assistant in the in-memory home: after a change, after a
question and after an answer to "Which one ...?", for every kind of thing; two such things a "they" could stand
for are asked about, and the answer is read against the question."""
import pytest

from plural_home import PLURALS
from test_assistant_fans import said
from test_assistant_modes import home_with

FAIRY_LIGHTS, LAVA_LAMPS = "light/plural-node/fairy_lights", "light/plural-node/lava_lamps"
STUDY_BLINDS, CEILING_FANS = "cover/plural-node/study_blinds", "fan/plural-node/ceiling_fans"


def plural_home():
    """The made-up home (40 entities, its dock lights and louvres among them) and plural_home's things."""
    return home_with(*PLURALS)


# on main 8586cdc each last turn got "Sorry, I can't do that yet.", "I'm Parley, your home assistant." or a blind
# moved the other way
@pytest.mark.parametrize("turns, reply", [
    (("turn on the patio heaters", "are these on"), "The patio heaters are on."),
    (("open the study blinds", "what position are they at"), "The study blinds are 100 percent open."),
    (("open the study blinds halfway", "what position are they in"), "The study blinds are 50 percent open."),
    (("unlock the french doors", "yes", "are these locked"), "The french doors are unlocked."),
    (("unlock the french doors", "yes", "what state are they in"), "The french doors are unlocked."),
    (("set the radiators to 20", "what are they set to"), "The radiators are set to 20 degrees."),
    (("set the radiators to 20", "what temperature are they set to"), "The radiators are set to 20 degrees."),
    (("open the sprinklers", "what position are they at"), "The sprinklers are open."),
    (("are the study blinds open", "what position are they at"), "The study blinds are closed."),   # none reported
    (("open the blinds", "the study blinds", "what position are they at"), "The study blinds are 100 percent open."),
])
def test_a_plural_pronoun_asks_about_the_thing_of_a_plural_name(assistant, turns, reply):
    assert said(assistant, plural_home(), *turns) == reply


@pytest.mark.parametrize("turns, key, state", [
    (("turn on the fairy lights", "dim these"), f"{FAIRY_LIGHTS}#brightness", "75"),
    (("turn on the ceiling fans", "speed these up"), f"{CEILING_FANS}#speed", "100"),
    (("unlock the french doors", "yes", "lock these up again"), "lock/plural-node/french_doors", "locked"),
    (("open the study blinds", "close them a bit more"), f"{STUDY_BLINDS}#position", "75"),
    (("open the study blinds halfway", "close them a bit more"), f"{STUDY_BLINDS}#position", "25"),
])
def test_a_plural_pronoun_changes_the_thing_of_a_plural_name(assistant, turns, key, state):
    home = plural_home()
    said(assistant, home, *turns)
    assert home.states[key] == state


def test_the_newest_thing_of_a_plural_name_and_two_that_a_they_could_be(assistant):
    """ "them" is the newest thing of a plural name, past a thing of a singular name acted on since; two of a kind,
    neither the newest call's, are asked about, and "the first one" is the first the question said."""
    home = plural_home()
    assert said(assistant, home, "turn on the fairy lights", "turn on the arc lamp", "turn them off") == \
        "Okay, the fairy lights are off."
    assert said(assistant, home, "turn on the fairy lights", "turn on the lava lamps", "turn them off") == \
        "Okay, the lava lamps are off."
    asked = ("turn on the fairy lights", "turn on the lava lamps", "what time is it")
    assert said(assistant, home, *asked, "turn them off") == \
        "Which one do you mean, the lava lamps or the fairy lights?"
    assert said(assistant, home, *asked, "are they on") == "Which one do you mean, the lava lamps or the fairy lights?"
    assert said(assistant, home, *asked, "are they on", "the lava lamps") == "The lava lamps are on."
    home = plural_home()
    assert said(assistant, home, *asked, "turn them off", "the first one") == "Okay, the lava lamps are off."
    assert (home.states[FAIRY_LIGHTS], home.states[LAVA_LAMPS]) == ("on", "off")


def test_an_answer_to_which_one_of_it_is_read_against_the_question(assistant):
    """ "turn it off" asked about ("Which one do you mean, ...?"): "the first one" turns the first choice off (on main
    8586cdc the answer was read alone, and the fairy lights were turned on)."""
    home = plural_home()
    assert said(assistant, home, "turn on the fairy lights", "turn on the lava lamps", "what time is it", "turn it off",
                "the first one") == "Okay, the lava lamps are off."
    assert (home.states[FAIRY_LIGHTS], home.states[LAVA_LAMPS]) == ("on", "off")


def test_a_plural_pronoun_of_people_or_before_a_name_is_no_reference(assistant):
    """ "those lights" are the lights said before; "what did they say" asks about no thing; "those fairy lights"
    after the lava lamps and "those blinds" after the fairy lights are the things named."""
    home = plural_home()
    assert said(assistant, home, "turn on the fairy lights", "turn those lights off") == \
        "Okay, the fairy lights are off."
    assert said(assistant, home, "turn on the fairy lights", "what did they say") == "Sorry, I can't do that yet."
    assert said(assistant, home, "turn on the lava lamps", "turn those fairy lights off") == \
        "Okay, the fairy lights are off."
    assert said(assistant, home, "turn on the fairy lights", "close those blinds") == \
        "Okay, the study blinds are closed."
    assert home.states[FAIRY_LIGHTS] == "on"
