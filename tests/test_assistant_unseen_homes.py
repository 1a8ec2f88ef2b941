"""A user's own names said in part, spelt the other way, or beside a word that makes them another thing; a cover's
move read from the request's verb; one named thing and one move read by code when the model refuses (phrasings
written for these mechanisms, not rows of a development set)."""
import pytest

from assistant.chat_template import model_prompt, named_move
from assistant.generator import respond_sync
from assistant.inventory import spelling_key
from assistant.spoken_numbers import normalize_request
from assistant.tools import ToolRunner
from test_assistant_names import made_up_home


def slots_in(home, said: str):
    slots = model_prompt([{"role": "user", "content": said}], home.inventory.lexicon())[1]
    slots.request = normalize_request(said)          # as EmbeddedGenerator.prompt_ids sets it
    return slots


@pytest.mark.parametrize("said, names", [
    ("open the strongroom safe", ["strongroom safe"]),          # part of a name, then a word no entity has
    ("turn on the kiln fan", ["kiln fan"]),
    ("the crystal one, switch it off", ["crystal"]),           # a word of a closed class is no more of it
    ("whirlwind off please", ["whirlwind"]),
    ("the salt lamp tonight please", ["salt lamp"]),           # after a whole name, nothing is more of it
    ("start a kiln timer for an hour", ["kiln"]),              # a timer's word is no more of a name
])
def test_a_word_after_part_of_a_name_is_more_of_that_name(said, names):
    assert slots_in(made_up_home(), said).names == names


def test_a_name_is_found_in_either_spelling_and_one_or_many():
    assert spelling_key("louvres") == spelling_key("louvre") == spelling_key("louvers")
    assert spelling_key("parlour") == spelling_key("parlor")
    home = made_up_home()
    assert slots_in(home, "shut the louver in the orangery").names == ["louvres"]
    assert home.inventory.resolve(slots_in(home, "close the louvers").names[0])[0].name == "louvres"


def test_switching_a_cover_takes_the_move_its_verb_says():
    home = made_up_home()
    off = {"name": "switch_device", "arguments": {"name": "pergola roof", "state": "off"}}
    assert slots_in(home, "please close the pergola roof").placed(off) == \
        {"name": "set_cover", "arguments": {"name": "pergola roof", "action": "close"}}
    assert slots_in(home, "pergola roof off").placed(off) == off                    # no move said: the home asks
    lamp = {"name": "switch_device", "arguments": {"name": "arc lamp", "state": "off"}}
    assert slots_in(home, "close the arc lamp").placed(lamp) == lamp                # no cover: as the model wrote


@pytest.mark.parametrize("said, call", [
    ("the roman, in the snug, pull it down", {"name": "set_cover", "arguments": {"name": "roman blind", "action": "close"}}),
    ("kiln off, the firing's done", {"name": "switch_device", "arguments": {"name": "kiln", "state": "off"}}),
    ("unlock the wicket gate, the vet's here", {"name": "set_lock", "arguments": {"name": "wicket gate", "action": "unlock"}}),
    ("i switched the kiln off earlier", None),                  # a report of what was done
    ("i closed the velux", None),
    ("i need the velux closed, it's raining", {"name": "set_cover", "arguments": {"name": "velux window",
                                                                                  "action": "close"}}),
    ("is the kiln off", {"name": "get_state", "arguments": {"name": "kiln"}}),              # a question: its state
    ("what's the temperature like in the gallery", {"name": "get_state", "arguments": {"name": "gallery temperature"}}),
    ("isn't the gramophone a beauty", None),                    # a question that asks no state
    ("the jukebox on a saturday is the best", None),            # "on" before a time, no state
    ("turn the pond heater on", None),                          # no thing of the home
    ("open the blind in the attic", None),                      # a place the blind is not in
    ("arc lamp to 40 percent", {"name": "set_level", "arguments": {"name": "arc lamp", "percent": 40}}),
    ("we're cold, the snug stove up to twenty two", {"name": "set_thermostat", "arguments": {"name": "snug stove",
                                                                                            "degrees": 22}}),
    ("snug stove at 40 percent", None),                         # a level in a unit the thing does not take
    ("arc lamp to 20 degrees", None),
    ("the arc lamp to 40 or 50 percent", None),                 # two levels
    ("the pots are in, could you start the kiln", {"name": "switch_device", "arguments": {"name": "kiln", "state": "on"}}),
    ("kill the jukebox, it's too loud", {"name": "switch_device", "arguments": {"name": "jukebox", "state": "off"}}),
    ("get the bilge pump going", {"name": "switch_device", "arguments": {"name": "bilge pump", "state": "on"}}),
    ("start the kiln then stop the pond pump", None),           # two things
    ("give it ten minutes then turn the kiln off", None),        # later: no call can do it now
    ("the arc lamp and the salt lamp, both off", {"name": "switch_all", "arguments": {"name": "lights", "area": "snug",
                                                                                      "state": "off"}}),
    ("switch on the kiln and the workbench light", {"name": "switch_all", "arguments": {"name": "everything",
                                                                                       "area": "tack room", "state": "on"}}),
    ("the arc lamp and the jukebox off", None),                 # not all the snug's lights, nor everything in it
    ("turn off the kiln and the pond pump", None),              # two areas
    ("can't see a thing, it's so dark in the gallery", {"name": "switch_all", "arguments": {"name": "lights",
                                                                                           "area": "gallery", "state": "on"}}),
    ("it's dark in the scullery", None),                        # no light there
    ("let's do regatta mode", {"name": "activate_scene", "arguments": {"name": "regatta"}}),   # a scene asked for
    ("actually switch to siesta instead", {"name": "activate_scene", "arguments": {"name": "siesta"}}),
    ("we did the regatta yesterday", None),                     # a scene named, not asked for
    ("is the leak sensor dry", {"name": "get_state", "arguments": {"name": "pond leak"}}),   # a sensor by its kind
])
def test_one_named_thing_and_one_move_are_read_by_code(said, call):
    home = made_up_home()
    assert named_move(slots_in(home, said), home.inventory) == call


@pytest.mark.parametrize("request_, changed", [
    ("put the pond heater on, the fish are cold", {}),          # part of a name beside another thing: nothing acts
    ("switch the salt shaker off", {}),
    ("please shut the pergola roof, it's raining", {"cover/pergola_roof": "closed"}),
])
def test_a_name_said_otherwise_acts_on_that_thing_only(assistant, request_, changed):
    home = made_up_home()
    reply = respond_sync(assistant, [{"role": "user", "content": request_}], ToolRunner(home))
    assert home.states == changed, reply
