"""A cover's position and water valves (tests/covered_home.py): blinds set to a position in percent or in words,
stepped a little where they take a position, their position read; valves discovered, opened, closed and read, a
valve's reported position on its own scale; through the whole assistant in the in-memory home, on the real Mosquitto,
and end to end through /v1/realtime. The configs' odd numbers are refused as the other components' are."""
import asyncio
import json

import pytest

from assistant.inventory import DiscoveryError, Inventory, entity_command, parse_discovery
from assistant.tools import ToolRunner
from covered_home import BEDROOM_BLINDS, COVERED, GARDEN_VALVE, KITCHEN_BLINDS, MAIN_WATER_VALVE
from made_up_home import discovered_server, wait_for
from mqtt_devices import login, playing
from test_assistant_fans import said
from test_assistant_modes import home_with
from test_home_voice import calls, spoken, typed
from test_mqtt_discovery import fans_home, replied
from realtime_client import RealtimeClient

KEYS = {"bedroom blinds": "cover/0x000d6ffffe3c4d01/cover", "lounge curtains": "cover/0x000d6ffffe3c4d02/cover",
        "kitchen blinds": "cover/kitchen-node/blinds", "main water valve": "valve/utility-node/main_water_valve",
        "garden valve": "valve/garden-node/garden_valve"}


def covered_home():
    """The made-up home (40 entities, its roman blind, louvres and boathouse door among them) and covered_home's
    blinds, curtains and valves."""
    return home_with(*COVERED)


def states(home) -> dict[str, str]:
    """Each cover's and valve's state and position, as the in-memory home holds them."""
    return {f"{name}{part}": home.states[key + part] for name, key in KEYS.items() for part in ("", "#position")
            if key + part in home.states}


def positioned(home, **positions: int) -> None:
    """Covers set to a position before the conversation, through the tool, as an earlier request would."""
    tools = ToolRunner(home)
    for name, percent in positions.items():
        asyncio.run(tools.run("set_level", {"name": name.replace("_", " "), "percent": percent}))


# ---------------------------------------------------------------- discovery and the tools

def test_a_position_is_sent_on_the_things_own_scale_and_topic():
    inventory = Inventory()
    for component, object_id, config in COVERED:
        inventory.receive_discovery(f"homeassistant/{component}/{object_id}/config", json.dumps(config))
    thing = {name: inventory.get(key) for name, key in KEYS.items()}
    assert entity_command(thing["bedroom blinds"], "position", 30) == \
        ("zigbee2mqtt/Bedroom Blinds/set", '{ "position": 30 }', "zigbee2mqtt/Bedroom Blinds")
    assert entity_command(thing["kitchen blinds"], "position", 30) == \
        ("esphome/kitchen-node/cover/blinds/position/command", "30", "esphome/kitchen-node/cover/blinds/position/state")
    assert entity_command(thing["lounge curtains"], "position", 30) is None
    # a valve that reports its position is sent one (0 to 255 here), open and closed its ends; stop only with a payload
    garden = "esphome/garden-node/valve/garden_valve"
    assert [entity_command(thing["garden valve"], action, value)[:2] for action, value in
            (("position", 40), ("open", None), ("close", None))] == \
        [(f"{garden}/command", "102"), (f"{garden}/command", "255"), (f"{garden}/command", "0")]
    assert entity_command(thing["main water valve"], "open")[1:] == \
        ("OPEN", "esphome/utility-node/valve/main_water_valve/state")
    assert entity_command(thing["main water valve"], "stop") is None
    # opening a valve, or setting a blind's position, waits for no yes
    assert not any(inventory.needs_yes(thing[name], action, 50) for name, action in
                   (("main water valve", "open"), ("garden valve", "open"), ("bedroom blinds", "position")))


@pytest.mark.parametrize("change, reason", [
    ({"position_open": 10 ** 400}, "position_closed and position_open"),
    ({"position_open": True}, "position_closed and position_open"),
    ({"position_open": 0}, "position_closed and position_open"),
    ({"position_closed": -5}, "position_closed and position_open"),
    ({"position_open": 1e308}, "position_closed and position_open"),
])
def test_a_valves_odd_position_scale_refuses_its_config(change, reason):
    _, object_id, config = GARDEN_VALVE
    with pytest.raises(DiscoveryError, match=reason):
        parse_discovery(f"homeassistant/valve/{object_id}/config", json.dumps({**config, **change}))


def test_a_set_position_template_that_renders_too_much_refuses_its_config():
    _, object_id, config = BEDROOM_BLINDS
    template = '{"position": {{ position }}, "pad": "' + "{{ position }}" * 300 + '"}'
    with pytest.raises(DiscoveryError, match="set_position_template renders over"):
        parse_discovery(f"homeassistant/cover/{object_id}/config",
                        json.dumps({**config, "set_position_template": template}))


async def test_the_skills_set_step_and_read_a_position_and_a_valve():
    home = covered_home()
    tools = ToolRunner(home)
    assert await tools.run("set_level", {"name": "bedroom blinds", "percent": 30}) == \
        "Okay, the bedroom blinds are 30 percent open."
    assert await tools.run("change_level", {"name": "bedroom blinds", "direction": "up"}) == \
        "Okay, the bedroom blinds are 55 percent open."
    assert await tools.run("get_cover_position", {"name": "bedroom blinds"}) == \
        "The bedroom blinds are 55 percent open."
    assert await tools.run("set_level", {"name": "lounge curtains", "percent": 30}) == \
        "The lounge curtains can only be opened, closed or stopped."
    assert await tools.run("change_level", {"name": "lounge curtains", "direction": "down"}) == \
        "Okay, the lounge curtains are closed."          # a cover of no position: the move it can make
    assert await tools.run("set_cover", {"name": "main water valve", "action": "open"}) == \
        "Okay, the main water valve is open."            # no yes asked
    assert await tools.run("set_cover", {"name": "main water valve", "action": "stop"}) == \
        "The main water valve can only be opened or closed."
    assert await tools.run("get_cover_position", {"name": "main water valve"}) == "The main water valve is open."
    assert await tools.run("switch_device", {"name": "main water valve", "state": "off"}) == \
        "Okay, the main water valve is closed."
    assert await tools.run("set_level", {"name": "garden valve", "percent": 40}) == \
        "Okay, the garden valve is 40 percent open."
    assert states(home) == {"bedroom blinds": "open", "bedroom blinds#position": "55", "lounge curtains": "closed",
                            "main water valve": "closed", "garden valve": "open", "garden valve#position": "40"}


# ---------------------------------------------------------------- through the whole assistant

@pytest.mark.parametrize("positions, turns, reply, state", [
    # on main 2a69232: "Okay, the bedroom blinds are open.", "... can only be opened, closed or stopped.",
    # "The bedroom blinds are closed.", "Sorry, I don't know a device by that name." (valves unknown)
    ({}, ("open the bedroom blinds halfway",), "Okay, the bedroom blinds are 50 percent open.",
     {"bedroom blinds": "open", "bedroom blinds#position": "50"}),
    ({}, ("set the bedroom blinds to 30 percent",), "Okay, the bedroom blinds are 30 percent open.",
     {"bedroom blinds": "open", "bedroom blinds#position": "30"}),
    ({}, ("set the blinds in the bedroom to 20 percent",), "Okay, the bedroom blinds are 20 percent open.",
     {"bedroom blinds": "open", "bedroom blinds#position": "20"}),
    ({"kitchen_blinds": 50}, ("close the kitchen blinds a bit more",), "Okay, the kitchen blinds are 25 percent open.",
     {"kitchen blinds": "open", "kitchen blinds#position": "25"}),
    ({"kitchen_blinds": 50}, ("open the kitchen blinds a little",), "Okay, the kitchen blinds are 75 percent open.",
     {"kitchen blinds": "open", "kitchen blinds#position": "75"}),
    ({"bedroom_blinds": 40}, ("what position are the bedroom blinds at",), "The bedroom blinds are 40 percent open.",
     {"bedroom blinds": "open", "bedroom blinds#position": "40"}),
    ({}, ("close the main water valve",), "Okay, the main water valve is closed.", {"main water valve": "closed"}),
    ({}, ("open the main water valve",), "Okay, the main water valve is open.", {"main water valve": "open"}),
    ({}, ("open the garden valve",), "Okay, the garden valve is open.",
     {"garden valve": "open", "garden valve#position": "100"}),
    ({}, ("set the garden valve to 40 percent",), "Okay, the garden valve is 40 percent open.",
     {"garden valve": "open", "garden valve#position": "40"}),
    ({}, ("is the main water valve open",), "The main water valve is closed.", {}),
])
def test_a_covers_position_and_a_valve_are_read_from_the_words(assistant, positions, turns, reply, state):
    home = covered_home()
    positioned(home, **positions)
    assert said(assistant, home, *turns) == reply
    assert states(home) == state


@pytest.mark.parametrize("turns, reply, state", [
    # on main 2a69232: "... can only be opened, closed or stopped.", "Okay, the kitchen blinds are open.",
    # "Sorry, I can't do that yet." or "Sorry, I didn't catch that."
    (("set the bedroom blinds to 40 percent", "set it to 50"), "Okay, the bedroom blinds are 50 percent open.",
     {"bedroom blinds": "open", "bedroom blinds#position": "50"}),
    (("open the bedroom blinds halfway", "and the kitchen blinds"), "Okay, the kitchen blinds are 50 percent open.",
     {"bedroom blinds": "open", "bedroom blinds#position": "50", "kitchen blinds": "open",
      "kitchen blinds#position": "50"}),
    (("open the bedroom blinds", "set them to 30 percent"), "Okay, the bedroom blinds are 30 percent open.",
     {"bedroom blinds": "open", "bedroom blinds#position": "30"}),
    (("set the kitchen blinds to 30 percent", "open them a little more"),
     "Okay, the kitchen blinds are 55 percent open.", {"kitchen blinds": "open", "kitchen blinds#position": "55"}),
    (("open the bedroom blinds halfway", "close it a bit more"), "Okay, the bedroom blinds are 25 percent open.",
     {"bedroom blinds": "open", "bedroom blinds#position": "25"}),
    (("open the bedroom blinds halfway", "what position is it in"), "The bedroom blinds are 50 percent open.",
     {"bedroom blinds": "open", "bedroom blinds#position": "50"}),
])
def test_a_covers_position_follows_the_conversation(assistant, turns, reply, state):
    home = covered_home()
    assert said(assistant, home, *turns) == reply
    assert states(home) == state


def test_a_plain_move_is_as_it_was_and_a_garage_door_opened_to_a_position_waits_for_a_yes(assistant):
    """ "open the bedroom blinds" opens them (all the way); a garage door of no position says what it can do, and one
    that takes a position waits for a yes before it opens to one (not before it closes)."""
    home = covered_home()
    assert said(assistant, home, "open the bedroom blinds") == "Okay, the bedroom blinds are open."
    assert said(assistant, home, "close the roman blind") == "Okay, the roman blind is closed."
    assert said(assistant, home, "open the boathouse door halfway") == \
        "The boathouse door can only be opened, closed or stopped."
    assert states(home) == {"bedroom blinds": "open", "bedroom blinds#position": "100"}
    component, object_id, config = KITCHEN_BLINDS
    inventory = Inventory()
    door = inventory.receive_discovery(f"homeassistant/{component}/{object_id}/config",
                                       json.dumps({**config, "name": "Garage Door", "dev_cla": "garage"}))
    assert inventory.needs_yes(door, "position", 50) and not inventory.needs_yes(door, "position", 0)


# ---------------------------------------------------------------- on the real Mosquitto

async def play_covered(broker, commands: list) -> None:
    """The covers and valves as their publishers answer: Zigbee2MQTT's blinds and curtains their JSON state (the
    blind's position in it), ESPHome's kitchen blinds their state and position topics, the main water valve its
    state word, the garden valve its position on its own scale; each retained."""
    z2m, kitchen = "zigbee2mqtt/Bedroom Blinds", "esphome/kitchen-node/cover/blinds"
    main, garden = "esphome/utility-node/valve/main_water_valve", "esphome/garden-node/valve/garden_valve"
    async with login(broker, "home").client() as client:
        await client.subscribe([("zigbee2mqtt/+/set", 1), (f"{kitchen}/command", 1), (f"{kitchen}/position/command", 1),
                                (f"{main}/command", 1), (f"{garden}/command", 1)])
        async for message in client.messages:
            topic, payload = str(message.topic), bytes(message.payload).decode()
            commands.append((topic, payload))
            if topic == f"{z2m}/set":
                position = json.loads(payload)["position"] if payload.startswith("{") else \
                    {"OPEN": 100, "CLOSE": 0}.get(payload, 50)
                state = {"state": "OPEN" if position else "CLOSE", "position": position}
                await client.publish(z2m, json.dumps(state), qos=1, retain=True)
            elif topic.startswith("zigbee2mqtt/"):
                await client.publish(topic.removesuffix("/set"), json.dumps({"state": payload}), qos=1, retain=True)
            elif topic == f"{kitchen}/position/command":
                await client.publish(f"{kitchen}/position/state", payload, qos=1, retain=True)
                await client.publish(f"{kitchen}/state", "open" if payload != "0" else "closed", qos=1, retain=True)
            elif topic == f"{kitchen}/command":
                await client.publish(f"{kitchen}/state", {"OPEN": "open", "CLOSE": "closed"}.get(payload, "stopped"),
                                     qos=1, retain=True)
            elif topic == f"{main}/command":
                await client.publish(f"{main}/state", {"OPEN": "open", "CLOSE": "closed"}[payload], qos=1, retain=True)
            else:
                await client.publish(f"{garden}/state", payload, qos=1, retain=True)


RETAINED = ("zigbee2mqtt/Bedroom Blinds", "zigbee2mqtt/Lounge Curtains", "esphome/kitchen-node/cover/blinds/state",
            "esphome/kitchen-node/cover/blinds/position/state", "esphome/utility-node/valve/main_water_valve/state",
            "esphome/garden-node/valve/garden_valve/state")


async def test_positions_and_valves_are_sent_and_read_on_their_own_topics(broker, assistant):
    """Through the whole assistant on the MQTT home: each position on the thing's own topic and scale, confirmed by
    what it reports; a position read from the position it reports, sending nothing."""
    async with fans_home(broker, COVERED, play_covered, RETAINED, component=None) as (home, tools, commands):
        assert await replied(assistant, tools, "open the bedroom blinds halfway") == \
            "Okay, the bedroom blinds are 50 percent open."
        assert commands[-1] == ("zigbee2mqtt/Bedroom Blinds/set", '{ "position": 50 }')
        assert await replied(assistant, tools, "set the kitchen blinds to 40 percent") == \
            "Okay, the kitchen blinds are 40 percent open."
        assert await replied(assistant, tools, "close the kitchen blinds a bit more") == \
            "Okay, the kitchen blinds are 15 percent open."
        assert commands[-1] == ("esphome/kitchen-node/cover/blinds/position/command", "15")
        assert await replied(assistant, tools, "set the garden valve to 40 percent") == \
            "Okay, the garden valve is 40 percent open."
        assert commands[-1] == ("esphome/garden-node/valve/garden_valve/command", "102")
        assert await replied(assistant, tools, "close the main water valve") == "Okay, the main water valve is closed."
        assert commands[-1] == ("esphome/utility-node/valve/main_water_valve/command", "CLOSE")
        sent = len(commands)
        assert await replied(assistant, tools, "what position are the bedroom blinds at") == \
            "The bedroom blinds are 50 percent open."
        assert await replied(assistant, tools, "how far open is the garden valve") == \
            "The garden valve is 40 percent open."
        assert await replied(assistant, tools, "is the main water valve open") == "The main water valve is closed."
        assert len(commands) == sent


async def test_a_hostile_position_reported_is_no_position(broker):
    """A position past the valve's own scale is kept to 0 to 100 percent; a 400-digit one, NaN or text reads as none."""
    garden = "esphome/garden-node/valve/garden_valve/state"
    async with fans_home(broker, [GARDEN_VALVE], play_covered, (garden,), component=None) as (home, tools, _):
        valve = home.inventory.get("valve/garden-node/garden_valve")
        async with login(broker, "home").client() as client:
            for payload, position in ((b"9999", 100), (b"1" + b"0" * 400, None), (b"NaN", None), (b"ajar", None),
                                      (b"51", 20)):
                await client.publish(garden, payload, qos=1, retain=True)
                await asyncio.sleep(0.3)
                assert await home.read_position(valve) == position


# ---------------------------------------------------------------- end to end through /v1/realtime

@pytest.fixture(scope="module")
def covered_server(broker, server_factory):
    """A server whose sessions act on covered_home's things, discovered from the real Mosquitto."""
    yield from discovered_server(broker, server_factory, COVERED, RETAINED, at_least=3)     # the covers; the valves are asserted by the test


@pytest.mark.usefixtures("needs_assistant")
async def test_a_position_and_a_valve_through_the_realtime_endpoint(covered_server, broker):
    assert sorted(e.component for e in covered_server.ctx.home.inventory.entities()) == \
        ["cover", "cover", "cover", "valve", "valve"]
    async with playing(play_covered, broker) as commands:
        client = await RealtimeClient.connect(covered_server.ws_url)
        await client.wait_for("session.created")
        assert spoken(await typed(client, "set the bedroom blinds to 30 percent")) == \
            "Okay, the bedroom blinds are 30 percent open."
        assert spoken(await typed(client, "and the kitchen blinds")) == "Okay, the kitchen blinds are 30 percent open."
        assert spoken(await typed(client, "open the main water valve")) == "Okay, the main water valve is open."
        assert spoken(await typed(client, "what position are the bedroom blinds at")) == \
            "The bedroom blinds are 30 percent open."
        await client.close()
        assert calls(client) == [
            ("set_level", {"name": "bedroom_blinds", "percent": 30}),
            ("set_level", {"name": "kitchen_blinds", "percent": 30}),
            ("set_cover", {"name": "main_water_valve", "action": "open"}),
            ("get_cover_position", {"name": "bedroom blinds"})]      # read by code, its name as said
        assert commands == [("zigbee2mqtt/Bedroom Blinds/set", '{ "position": 30 }'),
                            ("esphome/kitchen-node/cover/blinds/position/command", "30"),
                            ("esphome/utility-node/valve/main_water_valve/command", "OPEN")]
