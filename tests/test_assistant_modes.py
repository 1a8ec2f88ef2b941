"""A fan's preset mode and a thermostat's mode said by name ("set the thermostat to cool", "put the air conditioner in
dry mode", "set the study fan to auto"): the modes are the device's own discovery lists, read by the skill
set_device_mode, through the whole assistant (normaliser, model, checks, code's reading, tools) in the in-memory
home."""
import json

import pytest

from assistant.generator import respond_sync
from assistant.home import InMemoryHome
from assistant.inventory import Inventory, entity_command
from assistant.tools import ToolRunner
from made_up_home import ENTITIES
from moded_home import AIR_CONDITIONER, BEDROOM_FAN, MODED, THERMOSTAT
from test_mqtt_discovery import TEMPLATED_FANS

STUDY_FAN = ("fan", *TEMPLATED_FANS[0])
# the keys of the in-memory home's states
KEYS = {"study fan": "fan/0x00124b0024c1f0a1/fan", "bedroom fan": "fan/bedroomnode/bedroom_fan",
        "thermostat": "climate/hallnode/thermostat", "air conditioner": "climate/tasmota_ir_ac"}


def moded_home() -> InMemoryHome:
    """The made-up home (40 entities, two heaters that take only a temperature), Zigbee2MQTT's study fan, and the
    bedroom fan, thermostat and air conditioner of moded_home."""
    inventory = Inventory()
    for component, object_id, config in [*ENTITIES, STUDY_FAN, *MODED]:
        inventory.receive_discovery(f"homeassistant/{component}/{object_id}/config", json.dumps(config))
    return InMemoryHome(inventory=inventory)


def modes(home: InMemoryHome) -> dict[str, str]:
    """Each thing's mode, as the in-memory home holds it."""
    return {name: home.states[f"{key}#mode"] for name, key in KEYS.items() if f"{key}#mode" in home.states}


def said(assistant, home: InMemoryHome, *turns: str) -> str:
    """The reply to the last of turns, each said after the ones before in one conversation."""
    history, tools = [], ToolRunner(home)
    for turn in turns:
        history.append({"role": "user", "content": turn})
        reply = respond_sync(assistant, history, tools)
        message = {"role": "assistant", "content": reply.text}
        if reply.tool_calls:
            message["tool_calls"] = [{"name": c.name, "arguments": c.arguments} for c in reply.tool_calls]
        history.append(message)
    return reply.text


def test_the_modes_are_the_devices_own_lists():
    """Each mode the discovery lists, in words, and the vocabulary's other ways to say it; not on or off (they switch
    it), and none for a heater whose only mode beside off is heat (switching it on sends that)."""
    from assistant.inventory import mode_names      # here, so that main (which lacks it) fails on the assertions

    home = moded_home()
    thing = {e.name: e for e in home.inventory.entities()}
    assert mode_names(thing["study fan"]) == {"auto": "auto", "automatic": "auto", "smart": "smart"}
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
    assert modes(home) == {}
    assert said(assistant, home, "put the study fan in auto mode") == "Okay, the study fan is in auto mode."
    assert modes(home) == {"study fan": "auto"} and home.states[f"{KEYS['study fan']}#speed"] == "33"
