"""A fan's speed said the way people say it: by the names its own discovery gives its speeds ("on high", "to
medium"), and as a step ("speed it up", "slow down the punkah", "faster"), through the whole assistant (normaliser,
rephrasings, model, checks, tools) in the in-memory home."""
import json

import pytest

from assistant.generator import respond_sync
from assistant.home import InMemoryHome
from assistant.inventory import Inventory
from assistant.tools import ToolRunner
from made_up_home import ENTITIES
from test_mqtt_discovery import TEMPLATED_FANS

STUDY_FAN = "fan/0x00124b0024c1f0a1/fan"       # the keys of the in-memory home's states
PUNKAH = "fan/punkah"


def fans_home() -> InMemoryHome:
    """The made-up home (its fans switch only, over MQTT; in memory they take a speed) and Zigbee2MQTT's study fan."""
    inventory = Inventory()
    for component, object_id, config in ENTITIES:
        inventory.receive_discovery(f"homeassistant/{component}/{object_id}/config", json.dumps(config))
    inventory.receive_discovery(f"homeassistant/{STUDY_FAN}/config", json.dumps(TEMPLATED_FANS[0][1]))
    return InMemoryHome(inventory=inventory)


def turn_replies(assistant, tools: ToolRunner, *said: str) -> list:
    """Each turn's reply, said after the ones before in one conversation whose history keeps the calls."""
    history, made = [], []
    for text in said:
        history.append({"role": "user", "content": text})
        reply = respond_sync(assistant, history, tools)
        message = {"role": "assistant", "content": reply.text}
        if reply.tool_calls:
            message["tool_calls"] = [{"name": c.name, "arguments": c.arguments} for c in reply.tool_calls]
        history.append(message)
        made.append(reply)
    return made


def replies(assistant, home, *said: str) -> list[tuple[list[tuple[str, dict]], str]]:
    """Each turn's calls and reply, each said after the ones before in one conversation."""
    return [([(c.name, c.arguments) for c in reply.tool_calls], reply.text)
            for reply in turn_replies(assistant, ToolRunner(home), *said)]


def said(assistant, home: InMemoryHome, *turns: str) -> str:
    """The reply to the last of turns, each said after the ones before in one conversation."""
    return replies(assistant, home, *turns)[-1][1]


@pytest.mark.parametrize("request_, speed, reply", [
    ("put the study fan on high", "100", "Okay, the study fan is on high."),        # was switched on only
    ("set the study fan to low", "33", "Okay, the study fan is on low."),           # was "Sorry, I didn't catch that."
    ("turn the study fan to medium", "66", "Okay, the study fan is on medium."),
    ("the study fan on low please", "33", "Okay, the study fan is on low."),
    ("set the study fan to half speed", "50", "Okay, the study fan is on medium."),  # 50 % of 1..3 is speed 2
])
def test_a_fans_speed_is_said_by_the_name_its_discovery_gives_it(assistant, request_, speed, reply):
    home = fans_home()
    assert said(assistant, home, request_) == reply
    assert home.states.get(f"{STUDY_FAN}#speed") == speed


def test_only_a_name_the_fan_gives_a_speed_sets_one(assistant):
    """"auto" is one of the study fan's preset modes, not a speed, and "high" names no speed of a fan whose
    discovery names none (the punkah): after low was set, neither sets a speed."""
    home = fans_home()
    assert said(assistant, home, "set the study fan to low") == "Okay, the study fan is on low."
    said(assistant, home, "set the study fan to auto")
    said(assistant, home, "set the punkah to high")
    assert home.states.get(f"{STUDY_FAN}#speed") == "33" and f"{PUNKAH}#speed" not in home.states


@pytest.mark.parametrize("turns, speed", [
    (("speed up the punkah",), "25"),                           # was "Sorry, I didn't catch that."
    (("set the punkah to 50 percent", "slow down the punkah"), "25"),   # was closed as a cover: switched off
    (("set the punkah to 50 percent", "speed it up"), "75"),
    (("set the punkah to 50 percent", "faster please"), "75"),  # was "Sorry, I can't do that yet."
    (("set the punkah to 50 percent", "a bit slower"), "25"),
    (("make the punkah go faster",), "25"),
    (("set the study fan to low", "faster"), "58"),             # a step of 25 from low (33): medium, on its speeds
])
def test_a_fan_is_stepped_by_its_speed(assistant, turns, speed):
    home = fans_home()
    said(assistant, home, *turns)
    fan = STUDY_FAN if "study" in turns[0] else PUNKAH
    assert home.states.get(f"{fan}#speed") == speed
