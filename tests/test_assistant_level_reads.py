"""A light's brightness and a fan's speed asked ("how bright is the kitchen light", "what speed is the study fan on"):
read by code as get_level and said from what the thing itself reports, in its own words (a fan's speed by the name its
discovery gives it), agreeing with a plural name, and "hasn't reported" where the home knows no value; a follow-up
("and the salt lamp", "what about the fan") reads the same of the other thing. Through the whole assistant in the
default, made-up and discovered in-memory homes (Zigbee2MQTT's, Tasmota's and ESPHome's lights), and on the real
Mosquitto with Zigbee2MQTT's lamps and fans as it announces and reports them."""
import asyncio
import json

import pytest

from assistant.home import InMemoryHome
from assistant.skills import ACTIONS, LEVEL_SKILLS, MODEL_SKILLS, NOT_CHANGES, SKILLS, STEP_SKILLS, SWITCHING
from discovered_home import DISCOVERY, discovered_inventory
from mqtt_devices import login
from test_assistant_fans import fans_home, replies, said
from test_mqtt_discovery import TEMPLATED_FANS, Z2M, fans_home as mqtt_home, replied


def discovered() -> InMemoryHome:
    """The discovered home (Zigbee2MQTT's, Tasmota's and ESPHome's lights among its things) in memory."""
    return InMemoryHome(inventory=discovered_inventory())


@pytest.mark.parametrize("home, turns, reply", [
    # on main fb6c30e: "Sorry, I didn't catch that."
    (InMemoryHome, ("set the kitchen lights to 40 percent", "how bright is the kitchen light"),
     "The kitchen light is at 40 percent brightness."),
    (InMemoryHome, ("how bright is the kitchen light",), "The kitchen light is off."),
    # on main fb6c30e: "The living room fan is off." (its state, asked its speed)
    (InMemoryHome, ("turn on the living room fan", "what speed is the living room fan on"),
     "The living room fan hasn't reported its speed yet."),
    # on main fb6c30e: "The study fan is on." (the speed not said)
    (fans_home, ("put the study fan on high", "what speed is the study fan on"), "The study fan is on high."),
    (fans_home, ("set the punkah to 40 percent", "how fast is the punkah going"), "The punkah is at 40 percent speed."),
    (fans_home, ("set the arc lamp to 30 percent", "what brightness is the arc lamp at"),
     "The arc lamp is at 30 percent brightness."),
    # on main fb6c30e: "The fairy lights are on." and "The veranda lantern is on."
    (discovered, ("set the fairy lights to 30 percent", "how bright are the fairy lights"),
     "The fairy lights are at 30 percent brightness."),
    (discovered, ("turn on the veranda lantern", "how bright is the veranda lantern"),
     "The veranda lantern hasn't reported its brightness yet."),
])
def test_a_lights_brightness_and_a_fans_speed_are_read(assistant, home, turns, reply):
    made = replies(assistant, home(), *turns)
    assert made[-1][1] == reply
    assert [name for name, _ in made[-1][0]] == ["get_level"]


@pytest.mark.parametrize("home, turns, call, reply", [
    # on main fb6c30e: the bedroom lights were dimmed a step (change_brightness), a change for a question
    (InMemoryHome, ("set the bedroom lights to 40 percent", "set the kitchen lights to 60 percent",
                    "how bright is the kitchen light", "and the bedroom one"),
     ("get_level", {"name": "light", "area": "bedroom"}), "The bedroom light is at 40 percent brightness."),
    # on main fb6c30e: "Sorry, I didn't catch that."
    (InMemoryHome, ("how bright is the kitchen light", "what about the fan"),
     ("get_level", {"name": "fan", "area": "kitchen"}), "The kitchen fan is off."),
    # on main fb6c30e: each one's state ("The salt lamp is on.", "The study fan is on.")
    (fans_home, ("set the salt lamp to 20 percent", "how bright is the arc lamp", "and the salt lamp"),
     ("get_level", {"name": "salt lamp"}), "The salt lamp is at 20 percent brightness."),
    (fans_home, ("put the study fan on low", "what speed is the punkah on", "what about the study fan"),
     ("get_level", {"name": "study fan"}), "The study fan is on low."),
    # on main fb6c30e: "Sorry, I didn't catch that."
    (fans_home, ("set the arc lamp to 40 percent", "what is it set to"),
     ("get_level", {"name": "arc lamp"}), "The arc lamp is at 40 percent brightness."),
])
def test_a_follow_up_reads_the_same_level_of_another_thing(assistant, home, turns, call, reply):
    assert replies(assistant, home(), *turns)[-1] == ([call], reply)


def test_a_level_read_changes_nothing_and_other_questions_read_as_before(assistant):
    """Asking a level sends nothing; a question of the state or of the mode reads those, and a request to dim is a
    change, not a question."""
    home = fans_home()
    replies(assistant, home, "set the arc lamp to 30 percent")
    before = dict(home.states)
    assert said(assistant, home, "how bright is the arc lamp") == "The arc lamp is at 30 percent brightness."
    assert home.states == before
    assert replies(assistant, home, "is the arc lamp on")[-1][0][0][0] == "get_state"
    assert replies(assistant, home, "what mode is the study fan in")[-1][0][0][0] == "get_device_mode"
    assert replies(assistant, InMemoryHome(), "can you dim the kitchen light")[-1][0][0][0] == "change_brightness"


def test_the_read_skill_joins_no_map_of_changes():
    """get_level reads and changes nothing: it is no action the ear weighs, no level set or stepped, no switch, and
    the shipped model never writes it."""
    skill = SKILLS["get_level"]
    assert skill.reads and skill.read_by_code and skill.components == ("light", "fan")
    assert "get_level" in NOT_CHANGES
    assert "get_level" not in LEVEL_SKILLS | STEP_SKILLS | SWITCHING | MODEL_SKILLS
    assert not set(skill.arguments) & set(ACTIONS)


# ---------------------------------------------------------------- on the real Mosquitto

def _triple(topic: str, config: dict) -> tuple[str, str, dict]:
    """(component, object id, config) of a discovery topic."""
    _, component, rest = topic.split("/", 2)
    return component, rest.removesuffix("/config"), config


LAMPS = [_triple(topic, config) for topic, config in DISCOVERY
         if config.get("object_id") in ("mushroom_lamp", "drinks_cabinet")]
LEVELED = [*LAMPS, *(("fan", *fan) for fan in TEMPLATED_FANS)]
REPORTED = {"zigbee2mqtt/Mushroom Lamp": {"state": "ON", "brightness": 127},                 # of 254
            Z2M: {"fan_state": "ON", "fan_mode": "medium"},                                # its speed 2 of 3, by name
            "zigbee2mqtt/Hall fan": {"state": "ON", "speed": 3}}                            # of 4


async def _idle(broker, commands: list) -> None:
    """No device answers: nothing is asked of them."""
    await asyncio.Event().wait()


async def test_levels_are_read_from_what_each_device_reports(broker, assistant):
    """Zigbee2MQTT's lamp its brightness on its scale of 254, its study fan its speed by the name its template gives
    it (or its preset, when it reports one), its hall fan its speed in percent of its range; a lamp that reported
    nothing hasn't reported."""
    async with mqtt_home(broker, LEVELED, _idle, tuple(REPORTED), component=None) as (home, tools, _):
        async with login(broker, "home").client() as client:
            for topic, state in REPORTED.items():
                await client.publish(topic, json.dumps(state), qos=1, retain=True)
        await asyncio.sleep(0.5)
        assert await replied(assistant, tools, "how bright is the mushroom lamp") == \
            "The mushroom lamp is at 50 percent brightness."
        assert await replied(assistant, tools, "what speed is the study fan on") == "The study fan is on medium."
        assert await replied(assistant, tools, "how fast is the hall fan going") == "The hall fan is at 75 percent speed."
        assert await replied(assistant, tools, "how bright is the drinks cabinet") == \
            "The drinks cabinet hasn't reported its brightness yet."
        async with login(broker, "home").client() as client:          # a preset reports no speed of its range
            await client.publish(Z2M, json.dumps({"fan_state": "ON", "fan_mode": "smart"}), qos=1, retain=True)
        await asyncio.sleep(0.5)
        assert await replied(assistant, tools, "what speed is the study fan on") == "The study fan is in smart mode."
