"""A mode said with "on", "in" or "to", or before "mode", of any kind of thing that has modes ("put the humidifier on
auto", "put the water heater on eco", "put the air conditioner on cool", "put it on auto" after the humidifier was
set): the thing's own mode is set, a mode it lacks is answered with the modes it has and nothing is switched on, and
"on" and "off" keep their state meaning. Through the whole assistant in the in-memory home (Zigbee2MQTT's, ESPHome's
and Tasmota's fans, climates, humidifiers, water heaters and Valetudo's vacuum, as their discovery announces them),
and on the real Mosquitto."""
import pytest

from appliance_home import ROCKY
from humid_home import HUMID
from moded_home import MODED
from test_assistant_fans import replies
from test_assistant_humidifiers import RETAINED, play_humid
from test_assistant_modes import STUDY_FAN, home_with
from test_mqtt_discovery import fans_home, replied

KEYS = {"fan/0x00124b0024c1f0a1/fan": "study fan", "fan/bedroomnode/bedroom_fan": "bedroom fan",
        "climate/hallnode/thermostat": "thermostat", "climate/tasmota_ir_ac": "air conditioner",
        "humidifier/0xa4c138f1e2d3c401/humidifier": "bedroom humidifier",
        "water_heater/utility-node/water_heater": "water heater", "water_heater/garage-node/boiler": "boiler",
        "vacuum/valetudo_shinybiggoose/vacuum": "rocky"}


def moded_things():
    """The made-up home and a thing of each kind that has modes."""
    return home_with(STUDY_FAN, *MODED, *HUMID, ROCKY)


def changed(before: dict, home) -> dict:
    """What the conversation changed of the things of KEYS (their state "", their mode "#mode", ...)."""
    return {KEYS[thing] + (f"#{part}" if part else ""): value for key, value in home.states.items()
            if before.get(key) != value and (thing := key.split("#")[0]) in KEYS
            for part in [key.partition("#")[2]]}


@pytest.mark.parametrize("turns, reply, state", [
    # on fb6c30e each of these switched the thing on ("Okay, the bedroom humidifier is on.")
    (("put the bedroom humidifier on auto",), "Okay, the bedroom humidifier is in auto mode.",
     {"bedroom humidifier#mode": "auto"}),
    (("put the water heater on eco",), "Okay, the water heater is in eco mode.", {"water heater#mode": "eco"}),
    (("put the boiler on eco",), "Okay, the boiler is in eco mode.", {"boiler#mode": "eco"}),
    (("put the air conditioner on cool",), "Okay, the air conditioner is in cool mode.",
     {"air conditioner#mode": "cool"}),
    (("put the ac on dry",), "Okay, the air conditioner is in dry mode.", {"air conditioner#mode": "dry"}),
    (("put the thermostat on heat",), "Okay, the thermostat is in heat mode.", {"thermostat#mode": "heat"}),
    (("put the study fan on auto",), "Okay, the study fan is in auto mode.", {"study fan#mode": "auto"}),
    (("put the bedroom fan on auto",), "Okay, the bedroom fan is in auto mode.", {"bedroom fan#mode": "auto"}),
    # a follow-up: on fb6c30e switched on
    (("set the bedroom humidifier to 45 percent", "put it on auto"), "Okay, the bedroom humidifier is in auto mode.",
     {"bedroom humidifier#target": "45", "bedroom humidifier#mode": "auto"}),
    (("put the bedroom fan on sleep", "put it on auto"), "Okay, the bedroom fan is in auto mode.",
     {"bedroom fan#mode": "auto"}),
    # on fb6c30e: "Which one: the pond pump or the bilge pump?"
    (("put the boiler on heat pump",), "Okay, the boiler is in heat pump mode.", {"boiler#mode": "heat_pump"}),
])
def test_a_mode_said_with_on_sets_the_mode(assistant, turns, reply, state):
    home = moded_things()
    before = dict(home.states)
    assert replies(assistant, home, *turns)[-1][1] == reply
    assert changed(before, home) == state


@pytest.mark.parametrize("turns, reply, state", [
    # on fb6c30e each of these switched the thing on
    (("put the bedroom humidifier on turbo",), "The bedroom humidifier has no turbo mode; it has normal, sleep and auto.",
     {}),
    (("put the water heater on gas",), "The water heater has no gas mode; it has eco, electric and performance.", {}),
    (("put the bedroom fan on turbo",), "The bedroom fan has no turbo mode; it has auto, sleep and nature.", {}),
    (("put the air conditioner on turbo",),
     "The air conditioner has no turbo mode; it has auto, cool, heat, dry and fan only.", {}),
    (("put the thermostat on away",),
     "The thermostat has no away mode; it has heat cool, cool, heat, dry and fan only.", {}),
    (("set the air conditioner to cool", "put it on turbo"),
     "The air conditioner has no turbo mode; it has auto, cool, heat, dry and fan only.",
     {"air conditioner#mode": "cool"}),
    # on fb6c30e: "Sorry, I didn't catch that."
    (("put rocky on quiet",), "The rocky has no quiet mode; it has low, medium, high, max and turbo.", {}),
])
def test_a_mode_the_thing_lacks_is_answered_with_its_modes_and_nothing_is_switched(assistant, turns, reply, state):
    home = moded_things()
    before = dict(home.states)
    calls, said = replies(assistant, home, *turns)[-1]
    assert said == reply
    assert [name for name, _ in calls] == ["set_device_mode"]
    assert changed(before, home) == state


@pytest.mark.parametrize("mode, mode_reply, switch, switch_reply, state", [
    ("put the study fan on auto", "Okay, the study fan is in auto mode.",       # its preset "on" is no mode
     "put the study fan on", "Okay, the study fan is on.", {"study fan#mode": "auto", "study fan": "on"}),
    ("put the thermostat on heat", "Okay, the thermostat is in heat mode.",     # its mode "off" is none either
     "put the thermostat off", "Okay, the thermostat is off.", {"thermostat#mode": "heat", "thermostat": "off"}),
    ("put the air conditioner on cool", "Okay, the air conditioner is in cool mode.",
     "set the air conditioner to off", "Okay, the air conditioner is off.",
     {"air conditioner#mode": "cool", "air conditioner": "off"}),
    ("put the water heater on eco", "Okay, the water heater is in eco mode.",
     "put the water heater on", "Okay, the water heater is on.", {"water heater#mode": "eco", "water heater": "on"}),
    ("put the bedroom fan on auto", "Okay, the bedroom fan is in auto mode.",
     "put the bedroom fan on now", "Okay, the bedroom fan is on.", {"bedroom fan#mode": "auto", "bedroom fan": "on"}),
])
def test_on_and_off_keep_their_state_meaning_beside_a_mode_said_with_on(assistant, mode, mode_reply, switch,
                                                                         switch_reply, state):
    """The same thing put in a mode with "on", then switched with "on" or "off" alone (or an adverb after it)."""
    home = moded_things()
    before = dict(home.states)
    assert replies(assistant, home, mode)[-1][1] == mode_reply
    assert replies(assistant, home, switch)[-1][1] == switch_reply
    assert changed(before, home) == state


def test_a_follow_up_on_alone_switches_after_a_mode_said_with_on(assistant):
    home = moded_things()
    before = dict(home.states)
    made = replies(assistant, home, "set the bedroom humidifier to 45 percent", "put it on auto", "put it on")
    assert [said for _, said in made[1:]] == ["Okay, the bedroom humidifier is in auto mode.",
                                              "Okay, the bedroom humidifier is on."]
    assert changed(before, home) == {"bedroom humidifier#target": "45", "bedroom humidifier#mode": "auto",
                                     "bedroom humidifier": "on"}


async def test_a_mode_said_with_on_is_sent_on_the_things_own_mode_topic(broker, assistant):
    """On the real Mosquitto: "on auto" and "on eco" go out on each thing's own mode topic and template, and a mode
    it lacks sends nothing."""
    async with fans_home(broker, HUMID, play_humid, RETAINED, component=None) as (home, tools, commands):
        assert await replied(assistant, tools, "put the bedroom humidifier on auto") == \
            "Okay, the bedroom humidifier is in auto mode."
        assert commands[-1] == ("zigbee2mqtt/Bedroom Humidifier/set", '{"mode": "auto"}')
        assert await replied(assistant, tools, "put the water heater on eco") == "Okay, the water heater is in eco mode."
        assert commands[-1] == ("esphome/utility-node/water_heater/water_heater/mode/command", "eco")
        sent = len(commands)
        assert await replied(assistant, tools, "put the nursery humidifier on turbo") == \
            "The nursery humidifier has no turbo mode; it has normal, sleep and auto."
        assert len(commands) == sent
