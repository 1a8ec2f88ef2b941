"""A fan's preset mode and a thermostat's mode said by name ("set the thermostat to cool", "put the air conditioner in
dry mode", "set the study fan to auto"): the modes are the device's own discovery lists, read by the skill
set_device_mode, through the whole assistant (normaliser, model, checks, code's reading, tools) in the in-memory
home."""
import asyncio
import json

import pytest

from assistant.generator import ToolCallEvent
from assistant.home import InMemoryHome
from assistant.inventory import Inventory, entity_command
from assistant.remote import RemoteGenerator
from assistant.tools import ToolRunner
from chat_peer import Peer
from made_up_home import ENTITIES
from moded_home import AIR_CONDITIONER, BEDROOM_FAN, MODED, THERMOSTAT
from test_assistant_fans import said
from test_mqtt_discovery import TEMPLATED_FANS
from test_remote_generator import peer_at

STUDY_FAN = ("fan", *TEMPLATED_FANS[0])
# the keys of the in-memory home's states
KEYS = {"study fan": "fan/0x00124b0024c1f0a1/fan", "bedroom fan": "fan/bedroomnode/bedroom_fan",
        "thermostat": "climate/hallnode/thermostat", "air conditioner": "climate/tasmota_ir_ac"}


def home_with(*things) -> InMemoryHome:
    """The made-up home (40 entities, two heaters that take only a temperature) and things ((component, object id,
    config) as discovery announces them)."""
    inventory = Inventory()
    for component, object_id, config in [*ENTITIES, *things]:
        inventory.receive_discovery(f"homeassistant/{component}/{object_id}/config", json.dumps(config))
    return InMemoryHome(inventory=inventory)


def moded_home() -> InMemoryHome:
    """The made-up home, Zigbee2MQTT's study fan, and the bedroom fan, thermostat and air conditioner of
    moded_home."""
    return home_with(STUDY_FAN, *MODED)


def modes(home: InMemoryHome) -> dict[str, str]:
    """Each thing's mode, as the in-memory home holds it."""
    return {name: home.states[f"{key}#mode"] for name, key in KEYS.items() if f"{key}#mode" in home.states}


def test_the_modes_are_the_devices_own_lists():
    """Each mode the discovery lists, in words, and the vocabulary's other ways to say it; not on or off (they switch
    it), and none for a heater whose only mode beside off is heat (switching it on sends that)."""
    from assistant.inventory import mode_words      # here, so that main (which lacks it) fails on the assertions

    home = moded_home()
    thing = {e.name: e for e in home.inventory.entities()}

    def mode_names(entity):     # a thing's own modes (not a fan's or a swing's of a climate)
        return {word: mode for word, (action, mode) in mode_words(entity).items() if action == "mode"}

    assert mode_words(thing["study fan"]) == {"auto": ("mode", "auto"), "automatic": ("mode", "auto"),
                                              "smart": ("mode", "smart")}
    assert set(mode_names(thing["bedroom fan"]).values()) == {"auto", "sleep", "nature"}
    assert mode_names(thing["thermostat"])["cooling"] == "cool" and mode_names(thing["thermostat"])["fan only"] == \
        "fan_only" and "off" not in mode_names(thing["thermostat"])
    assert mode_names(thing["snug stove"]) == {}
    heater = Inventory().receive_discovery("homeassistant/climate/radiator/config", json.dumps(
        {"name": "Vestry Radiator", "mode_command_topic": "z2m/vestry/set/system_mode", "modes": ["off", "heat"],
         "temperature_command_topic": "z2m/vestry/set/current_heating_setpoint"}))
    assert mode_names(heater) == {}
    # each mode on its own kind's topic, through its own template
    assert entity_command(thing["study fan"], "mode", "auto") == \
        ("zigbee2mqtt/Study fan/set/fan_mode", "auto", "zigbee2mqtt/Study fan")
    thermostat = "esphome/hallnode/climate/thermostat/mode"
    assert entity_command(thing["thermostat"], "mode", "cool") == (f"{thermostat}/command", "cool", f"{thermostat}/state")
    assert entity_command(thing["air conditioner"], "mode", "dry") == ("tasmota/tasmota_ir/cmnd/IRHVAC",
        '{"Vendor": "DAIKIN", "Power": "On", "Mode": "dry"}', "tasmota/tasmota_ir/tele/RESULT")
    assert entity_command(thing["bedroom fan"], "mode", "turbo") is None


async def test_the_skill_takes_a_mode_the_thing_has_and_says_those_it_has_otherwise():
    home = moded_home()
    tools = ToolRunner(home)
    assert await tools.run("set_device_mode", {"name": "thermostat", "mode": "cooling"}) == \
        "Okay, the thermostat is in cool mode."
    assert await tools.run("set_device_mode", {"name": "air_conditioner", "mode": "fan_only"}) == \
        "Okay, the air conditioner is in fan only mode."
    assert await tools.run("set_device_mode", {"name": "bedroom fan", "mode": "turbo"}) == \
        "The bedroom fan has no turbo mode; it has auto, sleep and nature."
    assert await tools.run("set_device_mode", {"name": "garden fan", "mode": "auto"}) == \
        "I don't know a device called the garden fan."
    assert await tools.run("set_device_mode", {"name": "punkah", "mode": "auto"}) == \
        "The punkah can only be switched on or off, or set to a speed."
    assert modes(home) == {"thermostat": "cool", "air conditioner": "fan_only"}
    assert await tools.run("get_device_mode", {"name": "thermostat"}) == "The thermostat is in cool mode."
    assert await tools.run("get_device_mode", {"name": "bedroom fan"}) == "The bedroom fan hasn't reported its mode yet."


@pytest.mark.parametrize("request_, reply, mode", [
    # on main 07e6cce each of these got "Sorry, I didn't catch that." or "Sorry, I don't know a device by that name."
    ("set the thermostat to cool", "Okay, the thermostat is in cool mode.", {"thermostat": "cool"}),
    ("put the air conditioner in dry mode", "Okay, the air conditioner is in dry mode.", {"air conditioner": "dry"}),
    ("set the study fan to auto", "Okay, the study fan is in auto mode.", {"study fan": "auto"}),
    ("turn the bedroom fan to sleep mode", "Okay, the bedroom fan is in sleep mode.", {"bedroom fan": "sleep"}),
    ("set the thermostat to cooling", "Okay, the thermostat is in cool mode.", {"thermostat": "cool"}),
    ("set the air conditioner to dehumidify", "Okay, the air conditioner is in dry mode.", {"air conditioner": "dry"}),
    # was "I don't know a device called the fan only."
    ("switch the air conditioner to fan only", "Okay, the air conditioner is in fan only mode.",
     {"air conditioner": "fan_only"}),
    ("put the study fan on smart mode", "Okay, the study fan is in smart mode.", {"study fan": "smart"}),
    ("set the bedroom fan to turbo", "The bedroom fan has no turbo mode; it has auto, sleep and nature.", {}),
    ("set the study fan to nature", "The study fan has no nature mode; it has auto and smart.", {}),
])
def test_a_mode_is_said_by_its_name(assistant, request_, reply, mode):
    home = moded_home()
    assert said(assistant, home, request_) == reply
    assert modes(home) == mode


def test_a_name_the_home_lacks_never_acts(assistant):
    """A mode of a thing the home lacks changes nothing, beside one of a thing it has."""
    home = moded_home()
    said(assistant, home, "set the garden fan to auto")
    said(assistant, home, "put the garden air conditioner in dry mode")
    assert said(assistant, home, "set the bedroom fan to auto") == "Okay, the bedroom fan is in auto mode."
    assert modes(home) == {"bedroom fan": "auto"}


def test_the_mode_is_read_back_from_what_the_thing_reports(assistant):
    """ "what mode is the thermostat in" was read as its state: "The thermostat is on." """
    home = moded_home()
    assert said(assistant, home, "what mode is the thermostat in") == "The thermostat hasn't reported its mode yet."
    assert said(assistant, home, "set the thermostat to cool", "which mode is it in") == \
        "The thermostat is in cool mode."
    assert said(assistant, home, "set the bedroom fan to sleep", "what mode is the bedroom fan in") == \
        "The bedroom fan is in sleep mode."


@pytest.mark.parametrize("turns, reply, mode", [
    (("set the study fan to auto", "and the bedroom one"), "Okay, the bedroom fan is in auto mode.",
     {"study fan": "auto", "bedroom fan": "auto"}),
    (("set the thermostat to heat", "and the air conditioner"), "Okay, the air conditioner is in heat mode.",
     {"thermostat": "heat", "air conditioner": "heat"}),
    (("set the study fan to auto", "set it to smart"), "Okay, the study fan is in smart mode.", {"study fan": "smart"}),
])
def test_a_mode_follows_the_conversation(assistant, turns, reply, mode):
    home = moded_home()
    assert said(assistant, home, *turns) == reply
    assert modes(home) == mode


def test_switching_and_speeds_are_as_they_were(assistant):
    """A state is a switch, a speed name a speed, a number a temperature: modes take none of them, and a mode leaves
    the speed as it was."""
    home = moded_home()
    assert said(assistant, home, "set the study fan to low") == "Okay, the study fan is on low."
    assert said(assistant, home, "turn off the thermostat") == "Okay, the thermostat is off."
    assert said(assistant, home, "set the thermostat to 20") == "Okay, the thermostat is set to 20 degrees."
    assert modes(home) == {"study fan": ""}                 # a speed leaves the fan in none of its presets
    assert said(assistant, home, "put the study fan in auto mode") == "Okay, the study fan is in auto mode."
    assert modes(home) == {"study fan": "auto"} and home.states[f"{KEYS['study fan']}#speed"] == "33"


# Zigbee2MQTT's climate as its Home Assistant extension announces an air conditioner controller's fan and swing
Z2M_CLIMATE = {
    "name": None, "object_id": "office_ac", "unique_id": "0xa4c138f0aa000001_climate_zigbee2mqtt",
    "mode_command_topic": "zigbee2mqtt/Office AC/set/system_mode", "mode_state_topic": "zigbee2mqtt/Office AC",
    "mode_state_template": "{{ value_json.system_mode }}", "modes": ["off", "cool", "heat", "fan_only", "dry"],
    "fan_mode_command_topic": "zigbee2mqtt/Office AC/set/fan_mode", "fan_mode_state_topic": "zigbee2mqtt/Office AC",
    "fan_mode_state_template": "{{ value_json.fan_mode }}", "fan_modes": ["low", "medium", "high", "auto"],
    "swing_mode_command_topic": "zigbee2mqtt/Office AC/set/swing_mode",
    "swing_mode_state_topic": "zigbee2mqtt/Office AC",
    "swing_mode_state_template": "{{ value_json.swing_mode }}", "swing_modes": ["on", "off"],
    "temperature_command_topic": "zigbee2mqtt/Office AC/set/current_heating_setpoint",
    "device": {"identifiers": ["zigbee2mqtt_0xa4c138f0aa000001"], "name": "Office AC", "suggested_area": "Office",
               "manufacturer": "Zigbee2MQTT"}}


def test_a_climates_fan_and_swing_modes_are_its_discoverys_own():
    """A climate's `fan_modes` and `swing_modes`, each with its command topic (Home Assistant's abbreviations from
    ESPHome, the full keys from Tasmota's IR bridge and Zigbee2MQTT; a climate that lists none has Home Assistant's
    default lists), are modes of their own kinds: said with their word, sent on their own topic."""
    from assistant.inventory import mode_words      # here, so that main (which lacks it) fails on the assertions

    home = moded_home()
    thing = {e.name: e for e in home.inventory.entities()}
    assert thing["thermostat"].modes["fan_mode"] == ("auto", "low", "medium", "high")
    assert thing["thermostat"].modes["swing_mode"] == ("off", "both", "vertical", "horizontal")
    assert thing["air conditioner"].modes["fan_mode"] == ("auto", "low", "medium", "high")    # the defaults
    assert thing["air conditioner"].modes["swing_mode"] == ("on", "off")
    words = mode_words(thing["air conditioner"])
    assert words["fan auto"] == ("fan_mode", "auto") and words["auto"] == ("mode", "auto")
    assert words["swing on"] == ("swing_mode", "on") and words["swing off"] == ("swing_mode", "off")
    assert "on" not in words and "high" not in words
    assert entity_command(thing["air conditioner"], "fan_mode", "high") == ("tasmota/tasmota_ir/cmnd/IRHVAC",
        '{"Vendor": "DAIKIN", "Power": "On", "FanSpeed": "high"}', "tasmota/tasmota_ir/tele/RESULT")
    assert entity_command(thing["thermostat"], "swing_mode", "vertical") == (
        "esphome/hallnode/climate/thermostat/swing_mode/command", "vertical",
        "esphome/hallnode/climate/thermostat/swing_mode/state")
    assert entity_command(thing["thermostat"], "swing_mode", "on") is None       # not of its list
    assert entity_command(thing["thermostat"], "mode", "high") is None           # a fan's mode, no mode of its own
    office = Inventory().receive_discovery("homeassistant/climate/0xa4c138f0aa000001/climate/config",
                                           json.dumps(Z2M_CLIMATE))
    assert office.modes == {"mode": ("off", "cool", "heat", "fan_only", "dry"),
                            "fan_mode": ("low", "medium", "high", "auto"), "swing_mode": ("on", "off")}
    assert entity_command(office, "fan_mode", "auto") == \
        ("zigbee2mqtt/Office AC/set/fan_mode", "auto", "zigbee2mqtt/Office AC")
    assert entity_command(office, "swing_mode", "off") == \
        ("zigbee2mqtt/Office AC/set/swing_mode", "off", "zigbee2mqtt/Office AC")
    # without its command topic a list is no mode to set
    bare = Inventory().receive_discovery("homeassistant/climate/bare/config", json.dumps(
        {"name": "Bare AC", "mode_command_topic": "bare/mode/set", "fan_modes": ["low", "high"]}))
    assert set(bare.modes) == {"mode"}


async def test_the_skill_takes_a_fan_or_swing_mode_said_with_its_word():
    home = moded_home()
    tools = ToolRunner(home)
    assert await tools.run("set_device_mode", {"name": "air conditioner", "mode": "fan high"}) == \
        "Okay, the air conditioner's fan mode is high."
    assert await tools.run("set_device_mode", {"name": "thermostat", "mode": "swing vertical"}) == \
        "Okay, the thermostat's swing mode is vertical."
    assert await tools.run("set_device_mode", {"name": "air conditioner", "mode": "auto"}) == \
        "Okay, the air conditioner is in auto mode."
    assert modes(home) == {"air conditioner": "auto"}
    assert home.states[f"{KEYS['air conditioner']}#fan_mode"] == "high"
    assert home.states[f"{KEYS['thermostat']}#swing_mode"] == "vertical"


async def test_a_mode_a_climate_of_fan_modes_alone_lacks_is_refused_without_an_empty_list():
    """A climate whose discovery gives fan modes and no mode of its own ("it has ." was said): the mode it lacks is
    refused, and nothing sent."""
    home = InMemoryHome(inventory=Inventory())
    home.inventory.receive_discovery("homeassistant/climate/fanac/config", json.dumps(
        {"name": "Fan AC", "temperature_command_topic": "fanac/temp/set", "fan_mode_command_topic": "fanac/fan/set",
         "fan_modes": ["low", "high"]}))
    tools = ToolRunner(home)
    assert await tools.run("set_device_mode", {"name": "fan ac", "mode": "turbo"}) == "The fan ac has no turbo mode."
    assert await tools.run("set_device_mode", {"name": "fan ac", "mode": "fan high"}) == \
        "Okay, the fan ac's fan mode is high."


@pytest.mark.parametrize("request_, reply, state", [
    # on main e9b3196 each of these got "Sorry, I didn't catch that." or "Sorry, I don't know a device by that name."
    ("set the air conditioner's fan to high", "Okay, the air conditioner's fan mode is high.",
     {"air conditioner#fan_mode": "high"}),
    ("turn the air conditioner fan to auto", "Okay, the air conditioner's fan mode is auto.",
     {"air conditioner#fan_mode": "auto"}),
    ("set the air conditioner fan mode to medium", "Okay, the air conditioner's fan mode is medium.",
     {"air conditioner#fan_mode": "medium"}),
    ("turn swing on on the air conditioner", "Okay, the air conditioner's swing mode is on.",
     {"air conditioner#swing_mode": "on"}),
    ("stop the air conditioner swinging", "Okay, the air conditioner's swing mode is off.",
     {"air conditioner#swing_mode": "off"}),
    # these two switched the air conditioner on and the thermostat off
    ("turn on the air conditioner's swing", "Okay, the air conditioner's swing mode is on.",
     {"air conditioner#swing_mode": "on"}),
    ("turn off the thermostat swing", "Okay, the thermostat's swing mode is off.", {"thermostat#swing_mode": "off"}),
    ("set the thermostat fan to low", "Okay, the thermostat's fan mode is low.", {"thermostat#fan_mode": "low"}),
    ("set the thermostat swing to vertical", "Okay, the thermostat's swing mode is vertical.",
     {"thermostat#swing_mode": "vertical"}),
    # a mode of two words it has, and one it lacks: were "Sorry, I didn't catch that."
    ("set the thermostat to heat cool", "Okay, the thermostat is in heat cool mode.", {"thermostat#mode": "heat_cool"}),
    ("put the air conditioner in heat cool mode",
     "The air conditioner has no heat cool mode; it has auto, cool, heat, dry and fan only.", {}),
])
def test_a_climates_fan_and_swing_modes_are_said_with_their_word(assistant, request_, reply, state):
    home = moded_home()
    assert said(assistant, home, request_) == reply
    assert {f"{name}#{key.split('#')[1]}": value for name, where in KEYS.items()
            for key, value in home.states.items() if key.startswith(f"{where}#") and "mode" in key} == state


def test_auto_is_the_fans_only_said_with_fan(assistant):
    """ "auto" is both a fan mode and a climate mode of the air conditioner: the word "fan" said picks the fan's,
    else the climate's own."""
    home = moded_home()
    assert said(assistant, home, "set the air conditioner to auto") == "Okay, the air conditioner is in auto mode."
    assert said(assistant, home, "set the air conditioner's fan to auto") == \
        "Okay, the air conditioner's fan mode is auto."
    where = KEYS["air conditioner"]
    assert home.states[f"{where}#mode"] == home.states[f"{where}#fan_mode"] == "auto"


def test_a_mode_asked_in_a_follow_up(assistant):
    """ "what mode is it in" after a mode was set: "what" before the noun opens a question (main: "Sorry, I didn't
    catch that.")."""
    home = moded_home()
    assert said(assistant, home, "set the thermostat to cool", "what mode is it in") == \
        "The thermostat is in cool mode."
    assert said(assistant, home, "set the bedroom fan to sleep", "what preset is it on") == \
        "The bedroom fan is in sleep mode."


# Round 37: a part's mode asked, "AC", a fan's preset at a speed
async def test_the_skill_reads_a_climates_fan_or_swing_mode():
    """get_device_mode of a part (main: the skill took no part, and read the climate's own mode)."""
    home = moded_home()
    tools = ToolRunner(home)
    assert await tools.run("get_device_mode", {"name": "air conditioner", "part": "fan"}) == \
        "The air conditioner hasn't reported its fan mode yet."
    await tools.run("set_device_mode", {"name": "air conditioner", "mode": "fan high"})
    await tools.run("set_device_mode", {"name": "air conditioner", "mode": "cool"})
    assert await tools.run("get_device_mode", {"name": "air conditioner", "part": "fan"}) == \
        "The air conditioner's fan mode is high."
    assert await tools.run("get_device_mode", {"name": "air conditioner"}) == "The air conditioner is in cool mode."
    assert await tools.run("get_device_mode", {"name": "bedroom fan", "part": "swing"}) == \
        "The bedroom fan has no swing mode."


@pytest.mark.parametrize("turns, reply", [
    # on main cfe81dd each of these read the climate's own mode ("... hasn't reported its mode yet."), or its state
    (("what is the air conditioner's fan mode",), "The air conditioner hasn't reported its fan mode yet."),
    (("set the air conditioner's fan to high", "what is the air conditioner's fan mode"),
     "The air conditioner's fan mode is high."),
    (("turn swing on on the air conditioner", "what swing mode is the air conditioner in"),
     "The air conditioner's swing mode is on."),
    (("set the air conditioner's fan to high", "is the air conditioner's fan on auto"),
     "The air conditioner's fan mode is high."),
    (("turn swing on on the air conditioner", "is the air conditioner swinging"), "The air conditioner's swing mode is on."),
    (("set the thermostat fan to low", "what is the thermostat fan mode"), "The thermostat's fan mode is low."),
    (("set the thermostat fan to low", "what fan mode is the thermostat in"), "The thermostat's fan mode is low."),
    (("set the air conditioner's fan to high", "what is the air conditioner's fan mode", "and the thermostat"),
     "The thermostat hasn't reported its fan mode yet."),
])
def test_a_parts_mode_asked_is_the_parts(assistant, turns, reply):
    assert said(assistant, moded_home(), *turns) == reply


def test_the_climates_own_mode_is_asked_without_a_part(assistant):
    home = moded_home()
    said(assistant, home, "set the air conditioner to cool")
    said(assistant, home, "set the air conditioner's fan to high")
    assert said(assistant, home, "what's the air conditioner's fan mode") == "The air conditioner's fan mode is high."
    assert said(assistant, home, "what mode is the air conditioner in") == "The air conditioner is in cool mode."


def climate_states(home: InMemoryHome) -> dict[str, str]:
    """Each climate's state, mode and part modes as the in-memory home holds them, by its key's last part."""
    return {key.split("/")[-1]: value for key, value in home.states.items() if key.startswith("climate/")}


@pytest.mark.parametrize("turns, reply, state", [
    # on main cfe81dd: "Sorry, I can't do that yet." or "Sorry, I don't know a device by that name."
    (("set the AC to cool",), "Okay, the air conditioner is in cool mode.", {"tasmota_ir_ac#mode": "cool"}),
    (("turn off the AC",), "Okay, the air conditioner is off.", {"tasmota_ir_ac": "off"}),
    (("put the A/C in dry mode",), "Okay, the air conditioner is in dry mode.", {"tasmota_ir_ac#mode": "dry"}),
    (("set the aircon fan to high",), "Okay, the air conditioner's fan mode is high.",
     {"tasmota_ir_ac#fan_mode": "high"}),
    (("turn on the air con",), "Okay, the air conditioner is on.", {"tasmota_ir_ac": "on"}),
    (("set the air conditioner to heat", "what mode is the AC in"), "The air conditioner is in heat mode.",
     {"tasmota_ir_ac#mode": "heat"}),
])
def test_the_ac_is_the_air_conditioner(assistant, turns, reply, state):
    """The home has a thing named air conditioner (and a thermostat that can cool: the name is the thing meant)."""
    home = moded_home()
    assert said(assistant, home, *turns) == reply
    assert climate_states(home) == state


# Climates that cool under names of their own, as their firmware announces them: a Daikin's ESP32 controller in the
# loft and a Mitsubishi heat pump's in the bedroom; and a radiator's valve that only heats (no air conditioner)
DAIKIN = ("climate", "faikin", {
    "name": "Daikin", "uniq_id": "faikin_climate", "mode_cmd_t": "Faikin/command/mode", "mode_stat_t": "Faikin/state",
    "mode_stat_tpl": "{{ value_json.mode }}", "modes": ["off", "auto", "heat", "cool", "dry", "fan_only"],
    "temp_cmd_t": "Faikin/command/temp", "dev": {"ids": "faikin1", "name": "Daikin", "sa": "Loft"}})
HEAT_PUMP = ("climate", "mitsubishi2mqtt", {
    "name": "Heat Pump", "uniq_id": "mitsubishi2mqtt_climate", "mode_cmd_t": "mitsubishi2mqtt/mode/set",
    "modes": ["heat_cool", "cool", "dry", "heat", "fan_only", "off"], "temp_cmd_t": "mitsubishi2mqtt/temp/set",
    "dev": {"ids": "mitsubishi1", "name": "Heat Pump", "sa": "Bedroom"}})
VESTRY_RADIATOR = ("climate", "radiator", {
    "name": "Vestry Radiator", "mode_command_topic": "z2m/vestry/set/system_mode", "modes": ["off", "heat"],
    "temperature_command_topic": "z2m/vestry/set/current_heating_setpoint"})


def test_the_ac_is_the_one_climate_that_cools_or_which_one_is_asked(assistant):
    """No thing is named air conditioner: "the AC" is the climate that can be set to cool (not a radiator's valve
    that only heats), in the area said; of several, which one is asked (main: "Sorry, I can't do that yet.")."""
    home = home_with(DAIKIN, VESTRY_RADIATOR)
    assert said(assistant, home, "set the AC to cool") == "Okay, the daikin is in cool mode."
    assert said(assistant, home, "what mode is the AC in") == "The daikin is in cool mode."
    assert said(assistant, home, "set the AC to 20") == "Okay, the daikin is set to 20 degrees."
    assert said(assistant, home, "turn off the air conditioner") == "Okay, the daikin is off."
    assert climate_states(home) == {"faikin#mode": "cool", "faikin#target": "20", "faikin": "off"}
    two = home_with(DAIKIN, HEAT_PUMP)
    assert said(assistant, two, "turn off the AC") == "Which one: the daikin or the heat pump?"
    assert said(assistant, two, "set the AC to cool") == "Which one: the daikin or the heat pump?"
    assert said(assistant, two, "set the bedroom AC to dry") == "Okay, the heat pump is in dry mode."
    assert said(assistant, two, "set the AC to cool", "the daikin") == "Okay, the daikin is in cool mode."
    assert climate_states(two) == {"mitsubishi2mqtt#mode": "dry", "faikin#mode": "cool"}
    # "AC" of a name is that name's own word (Zigbee2MQTT's "Office AC"); a home with no climate that cools has no AC
    office = home_with(("climate", "0xa4c138f0aa000001/climate", Z2M_CLIMATE), DAIKIN)
    assert said(assistant, office, "turn off the AC") == "Okay, the office ac is off."
    none = home_with(VESTRY_RADIATOR)
    said(assistant, none, "turn off the AC")
    said(assistant, none, "set the AC to cool")
    assert climate_states(none) == {}


def test_a_speed_leaves_the_fan_in_none_of_its_presets_and_a_preset_keeps_its_speed(assistant):
    """As Home Assistant's fan: a percentage set clears its preset mode (main kept "auto"), a preset set leaves the
    speed as it is."""
    home = moded_home()
    assert said(assistant, home, "set the study fan to auto", "set the study fan to low", "what mode is the study fan in") \
        == "The study fan is in none of its modes; it has auto and smart."
    assert said(assistant, home, "put the study fan on smart mode") == "Okay, the study fan is in smart mode."
    assert home.states[f"{KEYS['study fan']}#speed"] == "33"
    assert said(assistant, home, "what mode is the study fan in") == "The study fan is in smart mode."


# Round 37, the leftovers: a climate chosen for a switch, a follow-up of the climate's own mode, a remote's "AC"
@pytest.mark.parametrize("turns, reply, state", [
    # on main aa99078: "Sorry, I'm not sure what you'd like there."
    (("turn off the AC", "the heat pump"), "Okay, the heat pump is off.", {"mitsubishi2mqtt": "off"}),
    (("turn on the AC", "the daikin"), "Okay, the daikin is on.", {"faikin": "on"}),
    (("turn off the air conditioner", "the second one"), "Okay, the heat pump is off.", {"mitsubishi2mqtt": "off"}),
])
def test_a_climate_chosen_after_which_one_takes_the_request_asked(assistant, turns, reply, state):
    home = home_with(DAIKIN, HEAT_PUMP)
    assert said(assistant, home, turns[0]) == "Which one: the daikin or the heat pump?"
    assert said(assistant, home, *turns) == reply
    assert climate_states(home) == state


@pytest.mark.parametrize("follow_up", ["and the air conditioner", "and the AC", "what about the air conditioner"])
def test_a_climates_mode_asked_again_of_another_is_its_mode(assistant, follow_up):
    """ "and the air conditioner" after "what mode is the thermostat in" (main aa99078: "The air conditioner is on.",
    its state)."""
    home = moded_home()
    said(assistant, home, "set the air conditioner to dry")
    assert said(assistant, home, "what mode is the thermostat in", follow_up) == "The air conditioner is in dry mode."
    assert said(assistant, home, "what mode is the air conditioner in", "and the thermostat") == \
        "The thermostat hasn't reported its mode yet."


async def test_a_remote_models_ac_is_the_air_conditioner():
    """A remote generator's call on the name "AC" acts on the air conditioner, as the embedded generator reads the
    request (main aa99078: "I don't know a device called the AC.")."""
    home = home_with(DAIKIN, VESTRY_RADIATOR)
    peer = Peer("openai")
    async with peer_at(peer) as url:
        generator = RemoteGenerator(url, model="m", dialect="openai")
        tools = ToolRunner(home)
        events = [e async for e in generator.respond([{"role": "user", "content": "turn off the AC"}], tools)]
        await generator.aclose()
    [call] = [e for e in events if isinstance(e, ToolCallEvent)]
    assert (call.call.arguments, call.result) == ({"name": "AC", "state": "off"}, "Okay, the daikin is off.")
    assert climate_states(home) == {"faikin": "off"}


# Round 37, the AC's other skills: with two climates that cool, a temperature set and a state read ask which one as a
# switch and a mode do, and the answer acts or reads
@pytest.mark.parametrize("turns, reply, state", [
    # on main 7498fe0: "The air conditioner can only be switched on or off, or set to a temperature."
    (("set the AC to 20",), "Which one: the daikin or the heat pump?", {}),
    (("set the AC to 20", "the daikin"), "Okay, the daikin is set to 20 degrees.", {"faikin#target": "20"}),
    (("set the air conditioner to 19", "the second one"), "Okay, the heat pump is set to 19 degrees.",
     {"mitsubishi2mqtt#target": "19"}),
    # on main 7498fe0: "Sorry, I didn't catch that."
    (("turn off the heat pump", "is the AC on", "the heat pump"), "The heat pump is off.", {"mitsubishi2mqtt": "off"}),
    (("turn off the heat pump", "is the AC on", "the daikin"), "The daikin is on.", {"mitsubishi2mqtt": "off"}),
    (("what temperature is the AC set to", "the first one"), "The daikin is on.", {}),
])
def test_the_acs_temperature_and_state_ask_which_one_of_several(assistant, turns, reply, state):
    home = home_with(DAIKIN, HEAT_PUMP)
    assert said(assistant, home, *turns) == reply
    assert climate_states(home) == state


# Round 38, a climate's target temperature: stepped up or down by its discovery's temp_step (else a degree) from where
# it is set, and read as what it is set to, not whether it is on
async def test_the_skills_step_a_climates_target_by_its_own_step_and_read_it():
    home = home_with(*MODED, DAIKIN)
    thing = {e.name: e for e in home.inventory.entities()}
    assert (thing["thermostat"].temperature_step, thing["daikin"].temperature_step) == (0.5, 1.0)
    tools = ToolRunner(home)
    assert await tools.run("change_level", {"name": "thermostat", "direction": "up"}) == \
        "What temperature would you like the thermostat set to?"
    assert await tools.run("get_target_temperature", {"name": "thermostat"}) == \
        "The thermostat hasn't reported its target temperature yet."
    assert climate_states(home) == {}
    await tools.run("set_thermostat", {"name": "thermostat", "degrees": 20})
    assert await tools.run("change_level", {"name": "thermostat", "direction": "up"}) == \
        "Okay, the thermostat is set to 20.5 degrees."
    await tools.run("set_thermostat", {"name": "daikin", "degrees": 22})
    assert await tools.run("change_level", {"name": "daikin", "direction": "down"}) == \
        "Okay, the daikin is set to 21 degrees."
    assert await tools.run("get_target_temperature", {"name": "thermostat"}) == "The thermostat is set to 20.5 degrees."
    assert await tools.run("get_target_temperature", {"name": "bedroom fan"}) == \
        "The bedroom fan can only be switched on or off, or set to a speed."
    assert climate_states(home) == {"thermostat#target": "20.5", "faikin#target": "21"}


def test_an_odd_temp_step_is_a_degree():
    """A config's temp_step that is no step (NaN, nothing, a thousand degrees, true) refuses nothing: a degree."""
    for step in ("NaN", "0", "1000", "true", '"half"'):
        inventory = Inventory()
        inventory.receive_discovery("homeassistant/climate/loft/config", '{"name": "Loft Heater", "temp_cmd_t": '
                                    f'"loft/set", "temp_step": {step}}}')
        assert inventory.get("climate/loft").temperature_step == 1.0


def targets_set(home, targets: dict) -> None:
    """Each climate's target set before the conversation, through the tool, as a user's earlier request would."""
    tools = ToolRunner(home)
    for name, degrees in targets.items():
        asyncio.run(tools.run("set_thermostat", {"name": name, "degrees": degrees}))


@pytest.mark.parametrize("home, targets, turns, reply, state", [
    # on main deb3ced: "Okay, the air conditioner is off." (switched off), "... is on.", "Sorry, I didn't catch that.",
    # "Sorry, I'm not sure what you'd like there."
    ("moded", {"air conditioner": 22}, ("turn the AC down",), "Okay, the air conditioner is set to 21 degrees.",
     {"tasmota_ir_ac#target": "21"}),
    ("moded", {}, ("turn the AC up",), "What temperature would you like the air conditioner set to?", {}),
    ("moded", {}, ("turn up the thermostat",), "What temperature would you like the thermostat set to?", {}),
    ("two", {"heat pump": 19}, ("make the bedroom warmer",), "Okay, the heat pump is set to 20 degrees.",
     {"mitsubishi2mqtt#target": "20"}),
    ("two", {"heat pump": 19}, ("turn the heating up in the bedroom",), "Okay, the heat pump is set to 20 degrees.",
     {"mitsubishi2mqtt#target": "20"}),
    ("loft", {"daikin": 20}, ("turn the heating down in the loft",), "Okay, the daikin is set to 19 degrees.",
     {"faikin#target": "19"}),
    ("two", {}, ("turn the AC down", "the heat pump"), "What temperature would you like the heat pump set to?", {}),
    ("two", {"daikin": 20}, ("turn the AC up", "the daikin"), "Okay, the daikin is set to 21 degrees.",
     {"faikin#target": "21"}),
])
def test_a_climate_asked_up_or_down_steps_its_target(assistant, home, targets, turns, reply, state):
    """From the target the home holds (set before this conversation): "the AC" of two climates asks which one."""
    home = {"moded": moded_home, "two": lambda: home_with(DAIKIN, HEAT_PUMP),
            "loft": lambda: home_with(DAIKIN, VESTRY_RADIATOR)}[home]()
    targets_set(home, targets)
    assert said(assistant, home, *turns) == reply
    assert climate_states(home) == state


def test_a_step_of_the_thermostat_is_its_own_and_warming_it_up_switches_it_on(assistant):
    """The thermostat's discovery steps it by half a degree (main deb3ced switched "turn the thermostat down" off); a
    verb of warmth ("warm up the stove") switches it on, as the corpus teaches; a step with a number is as before."""
    home = moded_home()
    tools = ToolRunner(home)
    asyncio.run(tools.run("set_thermostat", {"name": "thermostat", "degrees": 20}))
    assert said(assistant, home, "turn the thermostat down") == "Okay, the thermostat is set to 19.5 degrees."
    assert said(assistant, home, "warm up the snug stove") == "Okay, the snug stove is on."
    assert said(assistant, home, "turn the snug stove down to 18") == "Okay, the snug stove is set to 18 degrees."
    assert climate_states(home) == {"thermostat#target": "19.5", "snug_stove": "on", "snug_stove#target": "18"}


@pytest.mark.parametrize("home, turns, reply", [
    # on main deb3ced: "The thermostat is on.", "The air conditioner is on.", "I don't know a device called the ..."
    ("moded", ("set the thermostat to 21", "what is the thermostat set to"), "The thermostat is set to 21 degrees."),
    ("moded", ("set the AC to 18", "what temperature is the AC set to"), "The air conditioner is set to 18 degrees."),
    ("moded", ("set the AC to 18", "what's the air conditioner's target temperature"),
     "The air conditioner is set to 18 degrees."),
    ("moded", ("what is the thermostat set to",), "The thermostat hasn't reported its target temperature yet."),
    ("two", ("set the heat pump to 19", "what's the target temperature in the bedroom"),
     "The heat pump is set to 19 degrees."),
])
def test_a_climates_target_is_read_as_what_it_is_set_to(assistant, home, turns, reply):
    home = {"moded": moded_home, "two": lambda: home_with(DAIKIN, HEAT_PUMP)}[home]()
    assert said(assistant, home, *turns) == reply


def test_its_state_mode_and_the_rooms_warmth_are_read_as_before_its_target(assistant):
    home = moded_home()
    assert said(assistant, home, "set the AC to cool", "set the AC to 18", "what mode is the AC set to") == \
        "The air conditioner is in cool mode."
    assert said(assistant, home, "what temperature is the air conditioner set to") == \
        "The air conditioner is set to 18 degrees."      # main deb3ced: "The air conditioner is on."
    assert said(assistant, home, "is the thermostat on") == "The thermostat is on."
    assert said(assistant, home, "how warm is it in the snug") == "The snug temperature is 21 degrees."


@pytest.mark.parametrize("turns, reply, state", [
    # on main deb3ced: "Sorry, I'm not sure what you'd like there." or "Sorry, I didn't catch that."
    (("turn off the cooler", "the air conditioner"), "Okay, the air conditioner is off.", {"tasmota_ir_ac": "off"}),
    (("set the cooler to cool", "the air conditioner"), "Okay, the air conditioner is in cool mode.",
     {"tasmota_ir_ac#mode": "cool"}),
    (("what mode is the cooler in", "the air conditioner"), "The air conditioner hasn't reported its mode yet.", {}),
    (("is the cooler on", "the air conditioner"), "The air conditioner is on.", {}),
])
def test_a_climate_named_after_a_name_refused_takes_the_request_asked(assistant, turns, reply, state):
    home = moded_home()
    assert said(assistant, home, turns[0]) == "Sorry, I don't know a device by that name."
    assert said(assistant, home, *turns) == reply
    assert climate_states(home) == state


def test_only_a_name_refused_is_answered_by_the_climate_named(assistant):
    """After a refusal that is not about a name, the bare name asks nothing (as on main); after one that is, it takes
    the request (main deb3ced: "Sorry, I'm not sure what you'd like there.")."""
    home = moded_home()
    assert said(assistant, home, "turn off the loft unit") == "Sorry, I didn't catch that."
    said(assistant, home, "turn off the loft unit", "the air conditioner")
    assert climate_states(home) == {}
    assert said(assistant, home, "turn off the cooler", "the air conditioner") == "Okay, the air conditioner is off."
    assert climate_states(home) == {"tasmota_ir_ac": "off"}


# Round 38, r38-modes7: a climate's step said after other turns is its own step from the target the home reports; a
# bare temperature answers the question of a climate stepped with no target known; a target set or stepped past the
# climate's min_temp or max_temp (the thermostat's 10 and 30) is set to that limit and said so
@pytest.mark.parametrize("targets, turns, reply, state", [
    # on main e645f83: "... set to 21 degrees." and "... 19 degrees." (a degree from the conversation's setting),
    # "Okay, the seedling warmer is on."
    ({}, ("set the thermostat to 20", "turn it up"), "Okay, the thermostat is set to 20.5 degrees.",
     {"thermostat#target": "20.5"}),
    ({}, ("set the thermostat to 20", "turn the thermostat down"), "Okay, the thermostat is set to 19.5 degrees.",
     {"thermostat#target": "19.5"}),
    ({}, ("set the thermostat to 20", "make it warmer"), "Okay, the thermostat is set to 20.5 degrees.",
     {"thermostat#target": "20.5"}),
    ({}, ("set the thermostat to 20", "turn it up", "a bit more"), "Okay, the thermostat is set to 21 degrees.",
     {"thermostat#target": "21"}),
    ({"air conditioner": 22}, ("what is the AC set to", "make it warmer"),
     "Okay, the air conditioner is set to 23 degrees.", {"tasmota_ir_ac#target": "23"}),
])
def test_a_climates_step_after_other_turns_is_its_own_step(assistant, targets, turns, reply, state):
    home = moded_home()
    targets_set(home, targets)
    assert said(assistant, home, *turns) == reply
    assert climate_states(home) == state


def test_after_other_turns_a_step_is_the_climates_own_and_one_by_an_amount_as_before(assistant):
    """The thermostat's own half degree after a set of it (main e645f83: 19); its step said after a question of the
    time, and one by an amount said, are as on main."""
    home = moded_home()
    assert said(assistant, home, "set the thermostat to 20", "turn the thermostat down") == \
        "Okay, the thermostat is set to 19.5 degrees."
    asyncio.run(ToolRunner(home).run("set_thermostat", {"name": "air conditioner", "degrees": 22}))
    assert said(assistant, home, "what time is it", "turn the AC up") == \
        "Okay, the air conditioner is set to 23 degrees."
    assert said(assistant, home, "set the thermostat to 20", "turn it up 2 degrees") == \
        "Okay, the thermostat is set to 22 degrees."
    assert said(assistant, home, "set the thermostat to 20", "a degree higher than that") == \
        "Okay, the thermostat is set to 21 degrees."
    assert climate_states(home) == {"tasmota_ir_ac#target": "23", "thermostat#target": "21"}


@pytest.mark.parametrize("answer", ["twenty two degrees", "22 degrees please"])
def test_a_bare_temperature_answers_the_question_of_a_climate_stepped(assistant, answer):
    """ "turn the AC up" with no target known asks for one; the answer sets it (main e645f83: "Sorry, I didn't catch
    that."); "22" and "make it 22" set it as on main."""
    home = moded_home()
    assert said(assistant, home, "turn the AC up") == "What temperature would you like the air conditioner set to?"
    assert said(assistant, home, "turn the AC up", answer) == "Okay, the air conditioner is set to 22 degrees."
    assert climate_states(home) == {"tasmota_ir_ac#target": "22"}
    for as_before in ("22", "make it 22"):
        home = moded_home()
        assert said(assistant, home, "turn the AC up", as_before) == "Okay, the air conditioner is set to 22 degrees."
        assert climate_states(home) == {"tasmota_ir_ac#target": "22"}


async def test_a_target_past_a_climates_limits_is_set_to_the_limit():
    """The thermostat's discovery says 10 to 30; the air conditioner's none: Home Assistant's 7 and 35 degrees
    (main e645f83 sent 30.5, 40, 5 and 50)."""
    home = moded_home()
    tools = ToolRunner(home)
    await tools.run("set_thermostat", {"name": "thermostat", "degrees": 30})
    assert await tools.run("change_level", {"name": "thermostat", "direction": "up"}) == \
        "The thermostat is at its highest, 30 degrees."
    assert await tools.run("set_thermostat", {"name": "thermostat", "degrees": 40}) == \
        "The thermostat is at its highest, 30 degrees."
    assert await tools.run("set_thermostat", {"name": "thermostat", "degrees": 5}) == \
        "The thermostat is at its lowest, 10 degrees."
    assert await tools.run("set_level", {"name": "air conditioner", "percent": 50}) == \
        "The air conditioner is at its highest, 35 degrees."
    assert climate_states(home) == {"thermostat#target": "10", "tasmota_ir_ac#target": "35"}
    await tools.run("set_thermostat", {"name": "air conditioner", "degrees": 7})
    assert await tools.run("change_level", {"name": "air conditioner", "direction": "down"}) == \
        "The air conditioner is at its lowest, 7 degrees."
    assert await tools.run("set_thermostat", {"name": "thermostat", "degrees": 29.5}) == \
        "Okay, the thermostat is set to 29.5 degrees."


def test_a_target_past_the_limit_is_said_so_through_the_assistant(assistant):
    home = moded_home()
    assert said(assistant, home, "set the thermostat to 40") == "The thermostat is at its highest, 30 degrees."
    assert said(assistant, home, "turn the thermostat up") == "The thermostat is at its highest, 30 degrees."
    assert climate_states(home) == {"thermostat#target": "30"}


def test_odd_limits_are_home_assistants_defaults_in_the_climates_unit():
    """NaN, 1e308, true, a string or a min over its max refuse nothing: Home Assistant's 7 and 35 °C, or 44.6 and
    95 °F by the config's temperature_unit, else by the unit the home's temperature sensors report."""
    for limits in ('"min_temp": NaN, "max_temp": 1e308', '"min_temp": 25, "max_temp": 15', '"max_temp": true',
                   '"min_temp": "cold", "max_temp": -1e400', '"min_temp": 40'):
        inventory = Inventory()
        inventory.receive_discovery("homeassistant/climate/loft/config", '{"name": "Loft Heater", "temp_cmd_t": '
                                    f'"loft/set", {limits}}}')
        assert inventory.temperature_range(inventory.get("climate/loft")) == (7.0, 35.0), limits
    inventory = Inventory()
    inventory.receive_discovery("homeassistant/climate/den/config", '{"name": "Den Heater", "temp_cmd_t": "den/set", '
                                '"temp_unit": "F", "min_temp": 50}')
    inventory.receive_discovery("homeassistant/climate/loft/config", '{"name": "Loft Heater", "temp_cmd_t": "loft/set"}')
    assert inventory.temperature_range(inventory.get("climate/den")) == (50.0, 95.0)
    assert inventory.temperature_range(inventory.get("climate/loft")) == (7.0, 35.0)
    inventory.receive_discovery("homeassistant/sensor/loft_temp/config", '{"name": "Loft Temperature", '
                                '"stat_t": "loft/temp", "dev_cla": "temperature", "unit_of_meas": "°F"}')
    assert inventory.temperature_range(inventory.get("climate/loft")) == (44.6, 95.0)
