"""Robot vacuums and buttons of a user's own home ("send the hoover home", "is the vacuum docked", "restart the
router", "press the doorbell button"): read from their own discovery (Home Assistant's MQTT vacuum, state schema, and
button), asked through the whole assistant (normaliser, model, checks, code's reading, tools) in the in-memory home
and, end to end, through /v1/realtime on a real Mosquitto home whose robot and buttons a player plays."""
import asyncio
import json

import pytest

from assistant.home import InMemoryHome
from assistant.inventory import MAX_MODES, Inventory, entity_command
from assistant.tools import ToolRunner
from appliance_home import (APPLIANCES, BULB_IDENTIFY, DOORBELL, DUSTY, ROCKY, ROCKY_STATE, ROUTER_RESTART,
                            play_appliances)
from made_up_home import ENTITIES, clear_home, publish_home, wait_for
from mqtt_devices import login, playing
from realtime_client import RealtimeClient
from streaming.transports.mqtt.connection import Backoff
from streaming.transports.mqtt.home import MqttHome
from test_assistant_fans import said

ROCKY_KEY = "vacuum/valetudo_shinybiggoose/vacuum"      # the keys of the in-memory home's states
DUSTY_KEY = "vacuum/dusty"
PRESSED = {"router restart": "button/router-relay/restart", "porch doorbell": "button/porch-node/doorbell",
           "larder bulb identify": "button/0x0017880104a1b2c3/identify"}


def home_with(*things, rocky: str | None = None, battery: int | None = None) -> InMemoryHome:
    """The made-up home (40 entities, none a vacuum or a button) and things as discovery announces them; Rocky's
    activity and battery as it last reported them."""
    inventory = Inventory()
    for component, object_id, config in [*ENTITIES, *things]:
        inventory.receive_discovery(f"homeassistant/{component}/{object_id}/config", json.dumps(config))
    home = InMemoryHome(inventory=inventory)
    if rocky is not None:
        home.states[ROCKY_KEY] = rocky
    if battery is not None:
        home.states[ROCKY_KEY + "#battery"] = str(battery)
    return home


def appliances_home(**reported) -> InMemoryHome:
    return home_with(*APPLIANCES, **reported)


def pressed(home: InMemoryHome) -> set[str]:
    return {name for name, key in PRESSED.items() if home.states.get(key) == "pressed"}


def entity(home: InMemoryHome, name: str):
    return next(e for e in home.inventory.entities() if e.name == name)


def test_vacuums_and_buttons_are_read_from_their_own_discovery():
    """Each command on the robot's own command topic with its own payload, only where its supported_features offer it;
    its fan speeds its own list; a button's press its payload_press, Home Assistant's "PRESS" where it names none."""
    home = home_with(*APPLIANCES, DUSTY)
    rocky, dusty = entity(home, "rocky"), entity(home, "dusty")
    operation = "valetudo/ShinyBigGoose/BasicControlCapability/operation/set"
    assert (rocky.area, rocky.modes) == ("hall", {"fan_speed": ("low", "medium", "high", "max", "turbo")})
    assert entity_command(rocky, "start") == (operation, "START", ROCKY_STATE)
    assert entity_command(rocky, "return_to_base") == (operation, "HOME", ROCKY_STATE)
    assert entity_command(rocky, "locate") == (operation, "PERFORM", None)         # a beep changes no state
    assert entity_command(rocky, "clean_spot") is None                              # not among its features
    assert entity_command(rocky, "mode", "turbo") == \
        ("valetudo/ShinyBigGoose/FanSpeedControlCapability/preset/set", "turbo", ROCKY_STATE)
    assert entity_command(dusty, "start") == ("dusty/command", "start", "dusty/state")
    assert entity_command(dusty, "pause") is None and dusty.modes == {}
    assert entity_command(rocky, "on") is None and entity_command(entity(home, "router restart"), "on") is None
    assert entity_command(entity(home, "router restart"), "press") == \
        ("esphome/router-relay/button/restart/command", "PRESS", None)
    assert entity_command(entity(home, "larder bulb identify"), "press") == \
        ("zigbee2mqtt/Larder bulb/set", '{"identify": "identify"}', None)
    assert entity(home, "porch doorbell").area == "porch"


def test_hostile_vacuum_and_button_configs_are_bounded():
    """A vacuum or a button with no command topic is ignored; features that are no list offer nothing; a fan speed
    list is cut to MAX_MODES; a state that is none of a vacuum's activities, or a battery that is no number, reads
    as unknown; a button on a lock's command topic waits for a yes."""
    from streaming.transports.mqtt.home import entity_state, vacuum_battery

    inventory = Inventory()
    for key, config in [("vacuum/nocommand", {"name": "Bare Robot", "state_topic": "x/state"}),
                        ("button/nocommand", {"name": "Bare Button"})]:
        assert inventory.receive_discovery(f"homeassistant/{key}/config", json.dumps(config)) is None
    odd = inventory.receive_discovery("homeassistant/vacuum/odd/config", json.dumps({
        "name": "Odd Robot", "command_topic": "odd/cmd", "state_topic": "odd/state", "supported_features": "start",
        "fan_speed_list": [f"speed{i}" for i in range(500)], "set_fan_speed_topic": "odd/speed"}))
    assert odd.features == () and entity_command(odd, "start") is None and odd.modes == {}
    many = inventory.receive_discovery("homeassistant/vacuum/many/config", json.dumps({
        "name": "Many Robot", "command_topic": "many/cmd", "supported_features": ["start", 7, None, "fan_speed"],
        "fan_speed_list": [f"speed{i}" for i in range(500)] + ["x" * 500], "set_fan_speed_topic": "many/speed"}))
    assert many.features == ("start", "fan_speed") and len(many.modes["fan_speed"]) == MAX_MODES
    assert entity_state(many, b'{"state": "' + b"a" * 3000 + b'"}') is None
    assert entity_state(many, b'{"state": "Docked", "battery_level": 50}') == "docked"
    assert [vacuum_battery(p) for p in (b'{"battery_level": 1e308}', b'{"battery_level": "x"}', b'{"state": 1}',
                                        b"[1]", b'{"battery_level": NaN}', b'{"battery_level": 61.6}')] == \
        [100, None, None, None, None, 62]
    inventory.receive_discovery("homeassistant/lock/door/config", json.dumps(
        {"name": "Front Door", "command_topic": "door/set", "state_topic": "door/state"}))
    sneaky = inventory.receive_discovery("homeassistant/button/sneaky/config", json.dumps(
        {"name": "Sneaky Button", "command_topic": "door/set", "payload_press": "UNLOCK"}))
    assert inventory.needs_yes(sneaky, "press")


async def test_the_skills_command_a_vacuum_read_it_and_press_a_button():
    home = home_with(*APPLIANCES, DUSTY, rocky="docked", battery=87)
    tools = ToolRunner(home)
    assert await tools.run("get_state", {"name": "rocky"}) == \
        "The rocky is docked and charging, with its battery at 87 percent."
    assert await tools.run("command_vacuum", {"name": "rocky", "command": "start"}) == "Okay, the rocky is cleaning."
    assert await tools.run("command_vacuum", {"name": "dusty", "command": "pause"}) == \
        "The dusty can't pause; it can start, stop and return to its dock."
    assert await tools.run("get_state", {"name": "dusty"}) == "The dusty hasn't reported yet."
    assert await tools.run("press_button", {"name": "doorbell"}) == "Okay, the porch doorbell is pressed."
    assert await tools.run("command_vacuum", {"name": "doorbell", "command": "start"}) == \
        "The porch doorbell can only be pressed."
    assert await tools.run("switch_device", {"name": "router restart", "state": "on"}) == \
        "The router restart can only be pressed."
    assert home.states[ROCKY_KEY] == "cleaning" and DUSTY_KEY not in home.states and pressed(home) == {"porch doorbell"}


@pytest.mark.parametrize("request_, reply, rocky", [
    # on main 2a69232 each of these got "Sorry, I can't do that yet.", "Sorry, I didn't catch that." or a state
    ("start the vacuum", "Okay, the rocky is cleaning.", "cleaning"),
    ("send the robot vacuum home", "Okay, the rocky is returning to its dock.", "returning"),
    ("dock the vacuum", "Okay, the rocky is returning to its dock.", "returning"),
    ("pause the hoover", "Okay, the rocky is paused.", "paused"),
    ("stop rocky", "Okay, the rocky is stopped.", "idle"),
    ("find the vacuum", "Okay, the rocky is beeping so you can find it.", "idle"),
    ("where is the vacuum", "The rocky is docked and charging, with its battery at 87 percent.", "docked"),
    ("is the vacuum docked", "The rocky is docked and charging, with its battery at 87 percent.", "docked"),
    ("is the vacuum charging", "The rocky is docked and charging, with its battery at 87 percent.", "docked"),
    ("how much battery does the vacuum have", "The rocky is docked and charging, with its battery at 87 percent.",
     "docked"),
    ("set the vacuum to turbo", "Okay, the rocky is in turbo mode.", "docked"),
    ("set the hoover to max", "Okay, the rocky is in max mode.", "docked"),
])
def test_a_vacuum_is_commanded_and_read_by_what_is_said(assistant, request_, reply, rocky):
    home = appliances_home(rocky="docked", battery=87)
    assert said(assistant, home, request_) == reply
    assert home.states[ROCKY_KEY] == rocky and not pressed(home)


@pytest.mark.parametrize("request_, reply, button", [
    ("press the doorbell button", "Okay, the porch doorbell is pressed.", "porch doorbell"),
    ("ring the doorbell", "Okay, the porch doorbell is pressed.", "porch doorbell"),
    ("restart the router", "Okay, the router restart is pressed.", "router restart"),
    ("reboot the router", "Okay, the router restart is pressed.", "router restart"),
    ("identify the larder bulb", "Okay, the larder bulb identify is pressed.", "larder bulb identify"),
])
def test_a_button_is_pressed_by_its_name_or_the_job_its_name_says(assistant, request_, reply, button):
    home = appliances_home()
    assert said(assistant, home, request_) == reply
    assert pressed(home) == {button} and ROCKY_KEY not in home.states


@pytest.mark.parametrize("request_", ["turn on the router restart", "switch off the doorbell",
                                      "turn the porch doorbell on"])
def test_a_button_is_never_switched(assistant, request_):
    """Switching a button on or off presses nothing; asked to, in the same home, it is pressed."""
    home = appliances_home()
    said(assistant, home, request_)
    assert not pressed(home) and ROCKY_KEY not in home.states
    assert said(assistant, home, "ring the doorbell") == "Okay, the porch doorbell is pressed."
    assert pressed(home) == {"porch doorbell"}


@pytest.mark.parametrize("turns, reply, rocky", [
    (("start the vacuum", "pause it"), "Okay, the rocky is paused.", "paused"),
    (("start the vacuum", "send it home"), "Okay, the rocky is returning to its dock.", "returning"),
    (("is the vacuum charging", "send it home"), "Okay, the rocky is returning to its dock.", "returning"),
    (("start the vacuum", "is it docked"), "The rocky is cleaning, with its battery at 87 percent.", "cleaning"),
])
def test_a_vacuum_follows_the_conversation(assistant, turns, reply, rocky):
    home = appliances_home(rocky="docked", battery=87)
    assert said(assistant, home, *turns) == reply
    assert home.states[ROCKY_KEY] == rocky


def test_a_vacuums_own_features_and_a_home_without_one(assistant):
    """A command its discovery does not offer is said with those it does; a home without a vacuum or a button
    answers as before, and the default home too."""
    home = home_with(DUSTY)
    assert said(assistant, home, "pause dusty") == "The dusty can't pause; it can start, stop and return to its dock."
    assert said(assistant, home, "start the vacuum") == "Okay, the dusty is cleaning."
    assert home.states[DUSTY_KEY] == "cleaning"
    for request_ in ("vacuum the floor", "start the vacuum", "press the doorbell button"):
        assert said(assistant, home_with(), request_) == "Sorry, I can't do that yet."
    assert said(assistant, InMemoryHome(), "vacuum the floor") == "Sorry, I can't do that yet."


@pytest.fixture(scope="module")
def appliance_server(broker, server_factory):
    """A server whose sessions act on the made-up home with Valetudo's robot and the buttons, over Mosquitto."""
    asyncio.run(publish_home(broker, [*ENTITIES, *APPLIANCES]))
    server = server_factory()
    home = MqttHome(login(broker, "parley"), confirm_timeout=3.0, backoff=Backoff(initial=0.1, maximum=0.5))
    server.call(home.start())
    server.call(home.wait_connected(10))
    server.call(wait_for(lambda: len(home.inventory) == len(ENTITIES) + len(APPLIANCES)))
    server.ctx.home = home
    yield server
    server.call(home.close())
    asyncio.run(clear_home(broker, [*ENTITIES, *APPLIANCES]))


async def _replies(server, *texts: str) -> list[str]:
    """One session's spoken replies to typed requests, each after the ones before."""
    client = await RealtimeClient.connect(server.ws_url)
    await client.wait_for("session.created")
    replies = []
    for text in texts:
        start = len(client.events)
        await client.send({"type": "conversation.item.create", "item": {
            "type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}})
        await client.send({"type": "response.create"})
        done = await client.wait_for("response.done", timeout=60, start=start)
        replies.append(done["response"]["output"][-1]["content"][0]["transcript"])
    await client.close()
    return replies


@pytest.mark.usefixtures("needs_assistant")
async def test_a_valetudo_robot_and_esphome_buttons_through_the_realtime_endpoint(broker, appliance_server):
    """Typed requests through /v1/realtime reach Valetudo's robot on its own command topics, confirmed by its JSON
    state, which is read back with its battery, and a follow-up pauses it; the router's ESPHome restart button gets
    "PRESS", and switching it on sends nothing."""
    async with playing(play_appliances, broker) as commands:
        operation = "valetudo/ShinyBigGoose/BasicControlCapability/operation/set"
        assert await _replies(appliance_server, "start the vacuum", "pause it") == \
            ["Okay, the rocky is cleaning.", "Okay, the rocky is paused."]
        assert [c for c in commands if c[0] == operation] == [(operation, b"START"), (operation, b"PAUSE")]
        assert await _replies(appliance_server, "send the hoover home", "how much battery does the vacuum have") == \
            ["Okay, the rocky is returning to its dock.",
             "The rocky is returning to its dock, with its battery at 87 percent."]
        assert await _replies(appliance_server, "set the robot vacuum to turbo") == \
            ["Okay, the rocky is in turbo mode."]
        assert commands[-1] == ("valetudo/ShinyBigGoose/FanSpeedControlCapability/preset/set", b"turbo")
        assert await _replies(appliance_server, "restart the router") == ["Okay, the router restart is pressed."]
        await wait_for(lambda: ("esphome/router-relay/button/restart/command", b"PRESS") in commands)
        before = len(commands)
        await _replies(appliance_server, "turn on the router restart")
        await asyncio.sleep(0.5)
        assert len(commands) == before
