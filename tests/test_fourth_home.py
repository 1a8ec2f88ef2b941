"""The fourth unseen home (tests/fourth_home.py) as its discovery is read: areas taken from the front of a Tasmota
name whatever order the configs arrive in, and Zigbee2MQTT's JSON boolean payloads kept as Home Assistant reads
them, so the fifth development set of unseen homes measures names and not a misread home; words said before a
whole name of it that say nothing of the home (Inventory.resolve); one thing named in two clauses, and an area's one
heater, read by code (chat_template.named_move)."""
import random

import pytest

from assistant.chat_template import model_prompt, named_move
from assistant.generator import respond_sync
from assistant.home import InMemoryHome
from assistant.spoken_numbers import normalize_request
from assistant.tools import ToolRunner
from discovered_home import inventory_of
from fourth_home import DISCOVERY, fourth_inventory


def test_every_config_of_the_fourth_home_is_an_entity_with_its_area():
    learnt = {(e.name, e.area, e.component) for e in fourth_inventory().entities()}
    assert len(learnt) == len(DISCOVERY)
    assert {("pantry chiller", "pantry", "switch"), ("mezzanine fan", "mezzanine", "fan"),
            ("granary shutters", "granary", "cover"), ("sluice pump", None, "switch"),
            ("wheelhouse sensor temperature", "wheelhouse", "sensor"), ("harvest moon", None, "scene")} <= learnt


def test_areas_from_names_do_not_depend_on_the_order_configs_arrive_in():
    areas = {(e.name, e.area) for e in fourth_inventory().entities()}
    for seed in range(8):
        shuffled = list(DISCOVERY)
        random.Random(seed).shuffle(shuffled)
        assert {(e.name, e.area) for e in inventory_of(shuffled).entities()} == areas


def test_boolean_payloads_read_as_home_assistant_reads_them():
    entities = {e.name: e for e in fourth_inventory().entities()}
    for name in ("granary motion", "sump leak"):
        assert entities[name].payloads["payload_on"] == "True" and entities[name].payloads["payload_off"] == "False"
    assert entities["neon sign"].brightness_scale == 100 and entities["rafter lights"].brightness_scale == 254


@pytest.mark.parametrize("said, found", [
    ("ancient radiogram", ["radiogram"]),              # words the home never uses before a whole name: that thing
    ("new towel rails", ["towel rail"]),
    ("dusty old waterwheel floodlight", ["waterwheel floodlight"]),
    ("kitchen radiogram", []),                         # a room: another thing, in a place the home lacks
    ("dining room radiogram", []),
    ("study towel rail", []),                          # an area of the home the towel rail is not in
    ("mill sluice pump", []),                          # a word of another name ("grain mill")
    ("heater towel rail", []),                         # a kind of device
    ("hen gatehouse", []),                             # the rest is no whole name ("gatehouse gate")
])
def test_words_before_a_whole_name_that_say_nothing_of_the_home(said, found):
    assert [e.name for e in fourth_inventory().resolve(said)] == found


@pytest.mark.parametrize("request_, changed", [
    ("switch the ancient radiogram on", {"media_player/C8C9A3F21B06_RL_1": "on"}),
    ("turn on the kitchen radiogram", {}),
])
def test_a_word_before_a_whole_name_through_the_assistant(assistant, request_, changed):
    home = InMemoryHome(inventory=fourth_inventory())
    reply = respond_sync(assistant, [{"role": "user", "content": request_}], ToolRunner(home))
    assert home.states == changed, reply


def move_read(said: str) -> dict | None:
    inventory = fourth_inventory()
    slots = model_prompt([{"role": "user", "content": said}], inventory.lexicon())[1]
    slots.request = normalize_request(said)
    return named_move(slots, inventory)


@pytest.mark.parametrize("said, read", [
    # a word after part of a name taken for more of it, the whole name said in another clause: that one thing
    ("the sluice looks blocked, put the sluice pump on", {"name": "switch_device",
                                                          "arguments": {"name": "sluice pump", "state": "on"}}),
    ("my towels are damp, switch the towel rail on", {"name": "switch_device",
                                                      "arguments": {"name": "towel rail", "state": "on"}}),
    # another thing the home lacks beside one it has: nothing read by code
    ("switch on the chapel lamp and the grain mill", None),
    # an area with one heater, said with a level and a word of warmth: that heater
    ("warm the sauna up to 80", {"name": "set_thermostat", "arguments": {"degrees": 80, "area": "sauna"}}),
    ("i'd like the study at 21 degrees", {"name": "set_thermostat", "arguments": {"degrees": 21, "area": "study"}}),
    ("wake me in the study at 7", None),               # no warmth: not a temperature
    ("the granary at 20 degrees", None),               # no heater there
    ("the sauna heater to 80 degrees", None),          # a thing the home lacks, not the sauna's stove
])
def test_one_thing_named_in_two_clauses_or_an_areas_one_heater_is_read_by_code(said, read):
    assert move_read(said) == read
