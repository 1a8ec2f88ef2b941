"""A thing's setting asked or changed right after the newest call set or read it ("set the water heater to 50", "what
is it set to"; "set the soundbar volume to 30", "make it 40"; "what's playing in the kitchen", "and on the tv"): the
follow-up resolves in the conversation state to the thing's own read or setting, and the answer is what the thing
reports, through the whole assistant in the in-memory homes of humid_home, covered_home and media_home."""
import pytest

from assistant.generator import respond_sync
from assistant.tools import ToolRunner
from test_assistant_covers import covered_home
from test_assistant_covers import states as cover_states
from test_assistant_fans import replies, said
from test_assistant_humidifiers import humid_home, states
from test_assistant_media import media_home, players
from test_assistant_modes import moded_home


@pytest.mark.parametrize("turns, reply, state", [
    # on main f9f11bd: "Sorry, I didn't catch that."
    (("set the water heater to 50", "what is it set to"), "The water heater is set to 50 degrees.",
     {"water heater#target": "50"}),
    (("set the water heater to 50", "what temperature is it at"), "The water heater is set to 50 degrees.",
     {"water heater#target": "50"}),
    (("set the snug stove to 20", "what's it at"), "The snug stove is set to 20 degrees.", {}),
    # on main f9f11bd: "Which one: the scullery humidity or the boathouse humidity?"
    (("set the bedroom humidifier to 45", "what humidity is it set to"),
     "The bedroom humidifier is set to 45 percent humidity.", {"bedroom humidifier#target": "45"}),
    (("set the bedroom humidifier to 45", "what's the humidity set to"),
     "The bedroom humidifier is set to 45 percent humidity.", {"bedroom humidifier#target": "45"}),
])
def test_a_heaters_and_a_humidifiers_setting_is_asked_of_it(assistant, turns, reply, state):
    home = humid_home()
    assert said(assistant, home, *turns) == reply
    assert states(home) == state


def test_the_setting_read_is_the_one_the_thing_reports(assistant):
    """The water heater reports a target of its own after it was set (48, not the 50 asked): the follow-up reads
    that, not the number the conversation said."""
    home = humid_home()
    history, tools, said_back = [], ToolRunner(home), []
    for turn in ("set the water heater to 50", "what is it set to"):
        history.append({"role": "user", "content": turn})
        reply = respond_sync(assistant, history, tools)
        history.append({"role": "assistant", "content": reply.text,
                        "tool_calls": [{"name": c.name, "arguments": c.arguments} for c in reply.tool_calls]})
        home.states["water_heater/utility-node/water_heater#target"] = "48"
        said_back.append(([(c.name, c.arguments) for c in reply.tool_calls], reply.text))
    assert said_back[1] == ([("get_target_temperature", {"name": "water heater"})],
                            "The water heater is set to 48 degrees.")


def test_a_setting_is_read_only_when_the_words_ask_its_own(assistant):
    """ "what temperature is it set to" after a water heater was set reads its target (on main f9f11bd: "Sorry, I
    didn't catch that."); "what humidity is it set to" asks no setting of the water heater, and "what is it" asks no
    setting at all."""
    asked = {then: replies(assistant, humid_home(), "set the water heater to 50", then)[1][0]
             for then in ("what temperature is it set to", "what humidity is it set to", "what is it")}
    assert asked["what temperature is it set to"] == [("get_target_temperature", {"name": "water heater"})]
    assert all(name != "get_target_temperature" for name, _ in asked["what humidity is it set to"] + asked["what is it"])


@pytest.mark.parametrize("turns, reply, state", [
    # on main f9f11bd: "Sorry, I didn't catch that."
    (("set the bedroom blinds to 40 percent", "what is it set to"), "The bedroom blinds are 40 percent open.",
     {"bedroom blinds": "open", "bedroom blinds#position": "40"}),
    # on main f9f11bd: "The bedroom blinds are open." (their state, not their position)
    (("set the bedroom blinds to 40 percent", "what are they set to"), "The bedroom blinds are 40 percent open.",
     {"bedroom blinds": "open", "bedroom blinds#position": "40"}),
])
def test_a_covers_position_is_asked_of_it(assistant, turns, reply, state):
    home = covered_home()
    assert said(assistant, home, *turns) == reply
    assert {key: value for key, value in cover_states(home).items() if key.startswith("bedroom")} == state


@pytest.mark.parametrize("turns, reply, changed", [
    # on main f9f11bd: "The soundbar can only be switched on or off."
    (("set the soundbar volume to 30", "make it 40"), "Okay, the soundbar's volume is at 40 percent.",
     {"soundbar#volume": "40"}),
    # on main f9f11bd: "The kitchen speaker's volume is at 30 percent." (another player's)
    (("set the soundbar volume to 50", "what volume is it at"), "The soundbar's volume is at 50 percent.",
     {"soundbar#volume": "50"}),
    (("set the soundbar volume to 50", "what's the volume now"), "The soundbar's volume is at 50 percent.",
     {"soundbar#volume": "50"}),
    # on main f9f11bd: the TV switched on
    (("what's playing in the kitchen", "and on the tv"), "Nothing is playing on the living room tv.", {}),
    (("what's the volume of the kitchen speaker", "and on the tv"), "The living room tv's volume is at 20 percent.",
     {}),
    # on main f9f11bd: "Sorry, I didn't catch that."
    (("what's playing in the kitchen", "and the tv"), "Nothing is playing on the living room tv.", {}),
    (("what's playing in the kitchen", "and in the lounge"), "Nothing is playing on the soundbar.", {}),
])
def test_a_players_volume_and_track_are_asked_and_changed_of_it(assistant, turns, reply, changed):
    home = media_home()
    before = players(home)
    assert said(assistant, home, *turns) == reply
    assert {key: value for key, value in players(home).items() if before.get(key) != value} == changed


def test_a_thermostat_named_alone_is_read_after_it_was_set(assistant):
    # on main f9f11bd: "Sorry, I didn't catch that."
    assert said(assistant, moded_home(), "set the thermostat to 20", "what is it set to") == \
        "The thermostat is set to 20 degrees."
