"""Follow-ups on round 39's kinds of device (media players, covers with a position, valves, robot vacuums,
humidifiers), through the whole assistant in the in-memory home: after a change, after a question, after a "Which
one ...?" answered, and with another skill in between. Each is read against what the conversation last acted on or
asked about (assistant/conversation.py), and asked about where two things could be meant."""
import pytest

from appliance_home import DUSTY, ROCKY
from test_assistant_appliances import DUSTY_KEY, ROCKY_KEY, home_with as appliances_with
from test_assistant_covers import covered_home, states as cover_states
from test_assistant_fans import replies, said
from test_assistant_humidifiers import humid_home, set_before, states as humid_states
from test_assistant_media import media_home, players

# on main fb6c30e each of these was another player's, "Sorry, I didn't catch that.", "Sorry, I'm not sure what you'd
# like there.", "Sorry, I can't do that yet.", "Goodbye! Talk to you", a read instead of a command, or asked again


@pytest.mark.parametrize("turns, reply, changed", [
    # a step or a control said of no player is the player the conversation last used, not the one playing
    (("pause the living room tv", "louder"), "Okay, the living room tv's volume is at 30 percent.",
     {"living room tv": "paused", "living room tv#volume": "30"}),
    (("pause the living room tv", "what time is it", "quieter"), "Okay, the living room tv's volume is at 10 percent.",
     {"living room tv": "paused", "living room tv#volume": "10"}),
    (("what's playing on the tv", "a bit louder"), "Okay, the living room tv's volume is at 30 percent.",
     {"living room tv#volume": "30"}),
    # "play it" of a player paused resumes it
    (("pause the living room tv", "play it again"), "Okay, the living room tv is playing.",
     {"living room tv": "playing"}),
    (("pause the living room tv", "what's 7 times 6", "play it"), "Okay, the living room tv is playing.",
     {"living room tv": "playing"}),
])
def test_a_players_follow_ups_are_the_player_last_used(assistant, turns, reply, changed):
    home = media_home()
    before = players(home)
    assert said(assistant, home, *turns) == reply
    assert players(home) == {**before, **changed}


def test_a_player_chosen_after_which_one_is_the_one_its_follow_ups_mean(assistant):
    """ "pause" while both play is asked about; "the tv" answers it, and "louder" is then the tv's."""
    home = media_home(living_room_tv="playing")
    made = replies(assistant, home, "pause", "the tv", "louder")
    assert [reply for _, reply in made] == ["Which one: the kitchen speaker or the living room tv?",
                                            "Okay, the living room tv is paused.",
                                            "Okay, the living room tv's volume is at 30 percent."]
    assert players(home) == {"kitchen speaker": "playing", "kitchen speaker#volume": "30",
                             "living room tv": "paused", "living room tv#volume": "30"}


@pytest.mark.parametrize("turns, reply, state", [
    # "the other one" of a valve: the home's one other valve, in another area
    (("close the garden valve", "and the other one"), "Okay, the main water valve is closed.",
     {"garden valve": "closed", "garden valve#position": "0", "main water valve": "closed"}),
    (("close the garden valve", "what time is it", "and the other one"), "Okay, the main water valve is closed.",
     {"garden valve": "closed", "garden valve#position": "0", "main water valve": "closed"}),
    # after "Which one ...?" answered, the other is the other one offered, not the question's again
    (("close the valve", "the garden one", "and the other one"), "Okay, the main water valve is closed.",
     {"garden valve": "closed", "garden valve#position": "0", "main water valve": "closed"}),
    (("open the garden valve", "is it open", "and the other one"), "The main water valve is closed.",
     {"garden valve": "open", "garden valve#position": "100"}),
    # a question's "and the X": the same question of X
    (("what position are the kitchen blinds at", "and the bedroom ones"), "The bedroom blinds are closed.", {}),
    # a step after "Which one ...?" answered with an area: the thing there
    (("set the blinds to 30 percent", "the kitchen ones", "a bit more"), "Okay, the kitchen blinds are 55 percent open.",
     {"kitchen blinds": "open", "kitchen blinds#position": "55"}),
])
def test_valves_and_covers_follow_the_conversation(assistant, turns, reply, state):
    home = covered_home()
    assert said(assistant, home, *turns) == reply
    assert cover_states(home) == state


@pytest.mark.parametrize("turns, reply, rocky", [
    # after a question about the robot, a command by its pronoun
    (("is the vacuum cleaning", "start it"), "Okay, the rocky is cleaning.", "cleaning"),
    (("is the vacuum cleaning", "send it home"), "Okay, the rocky is returning to its dock.", "returning"),
    (("is the vacuum cleaning", "what's 7 times 6", "start it"), "Okay, the rocky is cleaning.", "cleaning"),
])
def test_a_vacuum_asked_about_is_then_commanded(assistant, turns, reply, rocky):
    home = appliances_with(ROCKY, rocky="docked", battery=87)
    assert said(assistant, home, *turns) == reply
    assert home.states[ROCKY_KEY] == rocky


@pytest.mark.parametrize("turns, reply", [
    (("start rocky", "and dusty"), "Okay, the dusty is cleaning."),          # a command, not a read of dusty
    (("start rocky", "and the other one"), "Okay, the dusty is cleaning."),
    (("start the vacuum", "rocky", "and the other one"), "Okay, the dusty is cleaning."),
])
def test_the_other_vacuum_takes_the_same_command(assistant, turns, reply):
    home = appliances_with(ROCKY, DUSTY, rocky="docked", battery=87)
    assert said(assistant, home, *turns) == reply
    assert (home.states[ROCKY_KEY], home.states[DUSTY_KEY]) == ("cleaning", "cleaning")


def test_a_humidifiers_question_and_the_other_one_follow_the_conversation(assistant):
    """A humidifier's target asked, then "and the nursery one" and "turn it up"; "the other one" of three humidifiers
    is asked about, and the answer read against the question."""
    home = humid_home()
    set_before(home, ("set_level", {"name": "bedroom humidifier", "percent": 40}),
               ("set_level", {"name": "nursery humidifier", "percent": 50}))
    assert said(assistant, home, "what is the bedroom humidifier set to", "and the nursery one") == \
        "The nursery humidifier is set to 50 percent humidity."
    assert said(assistant, home, "what is the bedroom humidifier set to", "turn it up") == \
        "Okay, the bedroom humidifier is set to 45 percent humidity."
    made = replies(assistant, home, "set the bedroom humidifier to 60 percent", "and the other one", "the nursery one")
    assert [reply for _, reply in made[1:]] == [
        "Which one do you mean, the nursery humidifier or the basement dehumidifier?",
        "Okay, the nursery humidifier is set to 60 percent humidity."]
    assert humid_states(home) == {"bedroom humidifier#target": "60", "nursery humidifier#target": "60"}
