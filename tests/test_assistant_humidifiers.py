"""Humidifiers and water heaters (tests/humid_home.py): a humidifier switched, its target humidity set within its
min_humidity and max_humidity and said back, stepped and read, its mode set from its own modes; a water heater's
target temperature set, stepped and read within its limits, its mode set from its own (or Home Assistant's default)
modes, switched by its power topic; follow-ups as for climates; through the whole assistant in the in-memory home, on
the real Mosquitto, and end to end through /v1/realtime. The configs' odd numbers fall back to the defaults."""
import asyncio
import json

import pytest

from assistant.inventory import MAX_MODES, DiscoveryError, Inventory, entity_command, parse_discovery
from assistant.tools import ToolRunner
from humid_home import BASEMENT_DEHUMIDIFIER, BEDROOM_HUMIDIFIER, BOILER, HUMID, WATER_HEATER
from made_up_home import discovered_server, wait_for
from mqtt_devices import login, playing
from test_assistant_fans import said
from test_assistant_modes import home_with
from test_home_voice import calls, spoken, typed
from test_mqtt_discovery import fans_home, replied
from realtime_client import RealtimeClient

KEYS = {"bedroom humidifier": "humidifier/0xa4c138f1e2d3c401/humidifier",
        "nursery humidifier": "humidifier/0xa4c138f1e2d3c402/humidifier",
        "basement dehumidifier": "humidifier/tasmota_5C3A1F/dehumidifier",
        "water heater": "water_heater/utility-node/water_heater", "boiler": "water_heater/garage-node/boiler"}


def humid_home():
    """The made-up home (40 entities, its two heaters and humidity sensors among them) and humid_home's things."""
    return home_with(*HUMID)


def states(home) -> dict[str, str]:
    """Each humidifier's and water heater's state, target and mode, as the in-memory home holds them."""
    return {f"{name}{part}": home.states[key + part] for name, key in KEYS.items()
            for part in ("", "#target", "#mode") if key + part in home.states}


def set_before(home, *calls_made: tuple[str, dict]) -> None:
    """Things set before the conversation, through the tools, as earlier requests would."""
    tools = ToolRunner(home)
    for skill, arguments in calls_made:
        asyncio.run(tools.run(skill, arguments))


def discovered(*things) -> dict:
    inventory = Inventory()
    for component, object_id, config in things:
        inventory.receive_discovery(f"homeassistant/{component}/{object_id}/config", json.dumps(config))
    return {name: inventory.get(key) for name, key in KEYS.items() if inventory.get(key) is not None}


# ---------------------------------------------------------------- discovery and the tools

def test_each_command_goes_on_the_things_own_topic_and_template():
    thing = discovered(*HUMID)
    z2m = "zigbee2mqtt/Bedroom Humidifier/set"
    assert [entity_command(thing["bedroom humidifier"], action, value)[:2] for action, value in
            (("on", None), ("humidity", 45), ("mode", "sleep"))] == \
        [(z2m, '{"state": "ON"}'), (z2m, '{"target_humidity": 45}'), (z2m, '{"mode": "sleep"}')]
    assert entity_command(thing["basement dehumidifier"], "humidity", 40) == \
        ("tasmota/dehumidifier/cmnd/Humidity", "40", "tasmota/dehumidifier/stat/Humidity")
    heater = "esphome/utility-node/water_heater/water_heater"
    assert entity_command(thing["water heater"], "temperature", 50) == \
        (f"{heater}/target_temperature/command", "50", f"{heater}/target_temperature/state")
    assert entity_command(thing["water heater"], "off") == (f"{heater}/power/command", "OFF", None)
    assert entity_command(thing["water heater"], "mode", "eco")[:2] == (f"{heater}/mode/command", "eco")
    # limits: its own, else Home Assistant's defaults; the boiler's modes are Home Assistant's default list
    assert thing["bedroom humidifier"].humidity_limits == (30.0, 80.0)
    assert thing["basement dehumidifier"].humidity_limits == (0.0, 100.0)
    assert thing["water heater"].temperature_limits == (40.0, 65.0)
    assert thing["boiler"].modes == {"mode": ("off", "eco", "electric", "gas", "heat_pump", "high_demand",
                                              "performance")}


@pytest.mark.parametrize("change, limits", [
    ({"min_humidity": float("nan"), "max_humidity": 1e308}, (0.0, 100.0)),
    ({"min_humidity": 10 ** 400, "max_humidity": 70}, (0.0, 70.0)),
    ({"min_humidity": 90, "max_humidity": 20}, (0.0, 100.0)),
    ({"min_humidity": True, "max_humidity": "60"}, (0.0, 100.0)),
])
def test_a_humidifiers_odd_limits_are_home_assistants_defaults(change, limits):
    _, object_id, config = BEDROOM_HUMIDIFIER
    _, entity = parse_discovery(f"homeassistant/humidifier/{object_id}/config", json.dumps({**config, **change}))
    assert entity.humidity_limits == limits


def test_hostile_water_heater_and_humidifier_configs_are_bounded():
    _, object_id, config = WATER_HEATER
    _, heater = parse_discovery(f"homeassistant/water_heater/{object_id}/config", json.dumps(
        {**config, "min_temp": float("nan"), "max_temp": 1e308, "modes": [f"mode {n}" for n in range(500)]}))
    assert heater.temperature_limits == (None, None) and len(heater.modes["mode"]) == MAX_MODES
    _, object_id, config = BEDROOM_HUMIDIFIER
    with pytest.raises(DiscoveryError, match="target_humidity_command_template renders over"):
        parse_discovery(f"homeassistant/humidifier/{object_id}/config", json.dumps(
            {**config, "target_humidity_command_template": "{{ value }}" * 400}))
    with pytest.raises(DiscoveryError, match="humidifier needs command_topic"):
        parse_discovery(f"homeassistant/humidifier/{object_id}/config",
                        json.dumps({k: v for k, v in config.items() if k != "command_topic"}))
    with pytest.raises(DiscoveryError, match="water_heater entity needs temperature_command_topic"):
        parse_discovery("homeassistant/water_heater/x/config", json.dumps({"name": "Tank", "pow_cmd_t": "home/tank"}))


async def test_the_skills_set_step_and_read_humidity_and_water_temperature():
    home = humid_home()
    tools = ToolRunner(home)
    assert await tools.run("set_level", {"name": "bedroom humidifier", "percent": 95}) == \
        "Okay, the bedroom humidifier is at its highest, 80 percent humidity."
    assert await tools.run("change_level", {"name": "bedroom humidifier", "direction": "down"}) == \
        "Okay, the bedroom humidifier is set to 75 percent humidity."
    assert await tools.run("get_target_humidity", {"name": "bedroom humidifier"}) == \
        "The bedroom humidifier is set to 75 percent humidity."
    assert await tools.run("set_level", {"name": "basement dehumidifier", "percent": 5}) == \
        "Okay, the basement dehumidifier is set to 5 percent humidity."        # no limits: 0 to 100
    assert await tools.run("set_thermostat", {"name": "water heater", "degrees": 80}) == \
        "The water heater is at its highest, 65 degrees."
    assert await tools.run("set_thermostat", {"name": "boiler", "degrees": 120}) == \
        "The boiler is at its highest, 60 degrees."          # Home Assistant's default 140 °F in °C
    assert await tools.run("set_device_mode", {"name": "boiler", "mode": "heat pump"}) == \
        "Okay, the boiler is in heat pump mode."
    assert await tools.run("set_device_mode", {"name": "water heater", "mode": "gas"}) == \
        "The water heater has no gas mode; it has eco, electric and performance."
    assert states(home) == {"bedroom humidifier#target": "75", "basement dehumidifier#target": "5",
                            "water heater#target": "65", "boiler#target": "60", "boiler#mode": "heat_pump"}


async def test_a_water_heater_of_no_power_topic_says_what_it_can_do():
    component, object_id, config = BOILER
    home = home_with((component, object_id, {k: v for k, v in config.items() if k != "pow_cmd_t"}))
    tools = ToolRunner(home)
    assert await tools.run("switch_device", {"name": "boiler", "state": "off"}) == \
        "The boiler can only be set to a temperature."
    assert states(home) == {}


# ---------------------------------------------------------------- through the whole assistant

@pytest.mark.parametrize("before, turns, reply, state", [
    # on main 6ece790: "Sorry, I don't know a device by that name." (neither component is discovered)
    ((), ("set the bedroom humidifier to 45 percent",), "Okay, the bedroom humidifier is set to 45 percent humidity.",
     {"bedroom humidifier#target": "45"}),
    ((), ("set the bedroom humidifier to 90 percent",),
     "Okay, the bedroom humidifier is at its highest, 80 percent humidity.", {"bedroom humidifier#target": "80"}),
    ((), ("turn on the dehumidifier",), "Okay, the basement dehumidifier is on.", {"basement dehumidifier": "on"}),
    ((), ("put the bedroom humidifier in sleep mode",), "Okay, the bedroom humidifier is in sleep mode.",
     {"bedroom humidifier#mode": "sleep"}),
    ((("set_level", {"name": "bedroom humidifier", "percent": 50}),), ("make the bedroom humidifier more humid",),
     "Okay, the bedroom humidifier is set to 55 percent humidity.", {"bedroom humidifier#target": "55"}),
    ((("set_level", {"name": "basement dehumidifier", "percent": 50}),), ("turn the dehumidifier down",),
     "Okay, the basement dehumidifier is set to 45 percent humidity.", {"basement dehumidifier#target": "45"}),
    ((("set_level", {"name": "bedroom humidifier", "percent": 40}),), ("what is the bedroom humidifier set to",),
     "The bedroom humidifier is set to 40 percent humidity.", {"bedroom humidifier#target": "40"}),
    ((("set_level", {"name": "bedroom humidifier", "percent": 40}),),
     ("what humidity is the bedroom humidifier set to",),
     "The bedroom humidifier is set to 40 percent humidity.", {"bedroom humidifier#target": "40"}),
    ((), ("set the water heater to 50 degrees",), "Okay, the water heater is set to 50 degrees.",
     {"water heater#target": "50"}),
    ((), ("put the water heater in eco mode",), "Okay, the water heater is in eco mode.", {"water heater#mode": "eco"}),
    ((), ("turn the boiler off",), "Okay, the boiler is off.", {"boiler": "off"}),
    ((("set_thermostat", {"name": "water heater", "degrees": 50}),), ("what is the water heater set to",),
     "The water heater is set to 50 degrees.", {"water heater#target": "50"}),
    ((("set_thermostat", {"name": "water heater", "degrees": 50}),), ("turn the water heater down",),
     "Okay, the water heater is set to 49 degrees.", {"water heater#target": "49"}),
])
def test_humidifiers_and_water_heaters_are_read_from_the_words(assistant, before, turns, reply, state):
    home = humid_home()
    set_before(home, *before)
    assert said(assistant, home, *turns) == reply
    assert states(home) == state


@pytest.mark.parametrize("turns, reply, state", [
    # on main 6ece790: "Sorry, I don't know a device by that name."
    (("set the bedroom humidifier to 45 percent", "set it to 50"),
     "Okay, the bedroom humidifier is set to 50 percent humidity.", {"bedroom humidifier#target": "50"}),
    (("set the bedroom humidifier to 45 percent", "and the one in the nursery"),
     "Okay, the nursery humidifier is set to 45 percent humidity.",
     {"bedroom humidifier#target": "45", "nursery humidifier#target": "45"}),
    (("set the bedroom humidifier to 50", "make it more humid"),
     "Okay, the bedroom humidifier is set to 55 percent humidity.", {"bedroom humidifier#target": "55"}),
    (("set the bedroom humidifier to 40 percent", "what is it set to"),
     "The bedroom humidifier is set to 40 percent humidity.", {"bedroom humidifier#target": "40"}),
    (("set the water heater to 50", "set it to 55"), "Okay, the water heater is set to 55 degrees.",
     {"water heater#target": "55"}),
    (("set the water heater to 50", "turn it up"), "Okay, the water heater is set to 51 degrees.",
     {"water heater#target": "51"}),
])
def test_humidifiers_and_water_heaters_follow_the_conversation(assistant, turns, reply, state):
    home = humid_home()
    assert said(assistant, home, *turns) == reply
    assert states(home) == state


def test_the_homes_heating_is_no_water_heater_and_a_thermostats_odd_target_is_refused(assistant):
    """A water heater is set by its name alone: a target of no name is the home's climates' ("Which one" names no
    water heater), and a hundred degrees or more is still refused for them, while a water heater takes its °F."""
    home = humid_home()
    assert said(assistant, home, "set the thermostat to 150 degrees") == \
        "Sorry, that isn't possible with those details."
    assert said(assistant, home, "set the boiler to 120 degrees") == "The boiler is at its highest, 60 degrees."
    assert states(home) == {"boiler#target": "60"}


# ---------------------------------------------------------------- on the real Mosquitto

async def play_humid(broker, commands: list) -> None:
    """The things as their publishers answer: Zigbee2MQTT's humidifiers their whole JSON state (state, target
    humidity and mode in it), Tasmota's dehumidifier its POWER and Humidity stat topics, ESPHome's water heaters their
    target and mode state topics (their power topic reports nothing); each retained."""
    z2m_state: dict[str, dict] = {}
    dehumidifier = "tasmota/dehumidifier"
    async with login(broker, "home").client() as client:
        await client.subscribe([("zigbee2mqtt/+/set", 1), (f"{dehumidifier}/cmnd/+", 1),
                                ("esphome/+/water_heater/+/+/command", 1)])
        async for message in client.messages:
            topic, payload = str(message.topic), bytes(message.payload).decode()
            commands.append((topic, payload))
            if topic.startswith("zigbee2mqtt/"):
                device = topic.removesuffix("/set")
                state = z2m_state.setdefault(device, {"state": "OFF", "target_humidity": 50, "mode": "normal"})
                state.update(json.loads(payload))
                await client.publish(device, json.dumps(state), qos=1, retain=True)
            elif topic.startswith(dehumidifier):
                await client.publish(topic.replace("/cmnd/", "/stat/"), payload, qos=1, retain=True)
            elif not topic.endswith("/power/command"):
                await client.publish(topic.removesuffix("/command") + "/state", payload, qos=1, retain=True)


RETAINED = ("zigbee2mqtt/Bedroom Humidifier", "zigbee2mqtt/Nursery Humidifier", "tasmota/dehumidifier/stat/POWER",
            "tasmota/dehumidifier/stat/Humidity",
            *(f"esphome/{node}/water_heater/{name}/{part}/state" for node, name in
              (("utility-node", "water_heater"), ("garage-node", "boiler")) for part in ("target_temperature", "mode")))


async def test_humidity_and_water_temperature_are_sent_and_read_on_their_own_topics(broker, assistant):
    """Through the whole assistant on the MQTT home: each command on the thing's own topic and template, confirmed by
    what it reports; a target read from what it reports, sending nothing."""
    async with fans_home(broker, HUMID, play_humid, RETAINED, component=None) as (home, tools, commands):
        assert await replied(assistant, tools, "set the bedroom humidifier to 45 percent") == \
            "Okay, the bedroom humidifier is set to 45 percent humidity."
        assert commands[-1] == ("zigbee2mqtt/Bedroom Humidifier/set", '{"target_humidity": 45}')
        assert await replied(assistant, tools, "make the bedroom humidifier more humid") == \
            "Okay, the bedroom humidifier is set to 50 percent humidity."
        assert await replied(assistant, tools, "put the bedroom humidifier in sleep mode") == \
            "Okay, the bedroom humidifier is in sleep mode."
        assert commands[-1] == ("zigbee2mqtt/Bedroom Humidifier/set", '{"mode": "sleep"}')
        assert await replied(assistant, tools, "turn on the dehumidifier") == "Okay, the basement dehumidifier is on."
        assert commands[-1] == ("tasmota/dehumidifier/cmnd/POWER", "ON")
        assert await replied(assistant, tools, "set the water heater to 70 degrees") == \
            "The water heater is at its highest, 65 degrees."
        assert commands[-1] == ("esphome/utility-node/water_heater/water_heater/target_temperature/command", "65")
        assert await replied(assistant, tools, "put the water heater in eco mode") == \
            "Okay, the water heater is in eco mode."
        assert await replied(assistant, tools, "turn the boiler off") == "Okay, the boiler is off."
        assert commands[-1] == ("esphome/garage-node/water_heater/boiler/power/command", "OFF")
        sent = len(commands)
        assert await replied(assistant, tools, "what is the bedroom humidifier set to") == \
            "The bedroom humidifier is set to 50 percent humidity."
        assert await replied(assistant, tools, "what is the water heater set to") == \
            "The water heater is set to 65 degrees."
        assert await replied(assistant, tools, "what mode is the bedroom humidifier in") == \
            "The bedroom humidifier is in sleep mode."
        assert len(commands) == sent


async def test_a_hostile_target_reported_is_no_target(broker):
    """A reported target humidity of 400 digits, NaN or text reads as none."""
    state = "tasmota/dehumidifier/stat/Humidity"
    async with fans_home(broker, [BASEMENT_DEHUMIDIFIER], play_humid, (state,), component=None) as (home, _, __):
        dehumidifier = home.inventory.get("humidifier/tasmota_5C3A1F/dehumidifier")
        async with login(broker, "home").client() as client:
            for payload, target in ((b"1" + b"0" * 400, None), (b"NaN", None), (b"damp", None), (b"55", 55.0)):
                await client.publish(state, payload, qos=1, retain=True)
                await asyncio.sleep(0.3)
                assert await home.read_target(dehumidifier) == target


async def test_a_target_humidity_of_no_state_topic_is_taken_as_sent(broker):
    """A humidifier that reports no target humidity (no target_humidity_state_topic) is optimistic, as Home
    Assistant calls it: the target is said as sent."""
    component, object_id, config = BASEMENT_DEHUMIDIFIER
    optimistic = (component, object_id, {k: v for k, v in config.items() if k != "hum_stat_t"})
    reported = ("tasmota/dehumidifier/stat/Humidity",)         # the device reports it all the same: cleared after
    async with fans_home(broker, [optimistic], play_humid, reported, component=None) as (_, tools, commands):
        assert await tools.run("set_level", {"name": "basement dehumidifier", "percent": 40}) == \
            "Okay, the basement dehumidifier is set to 40 percent humidity."
        await wait_for(lambda: commands)
        assert commands == [("tasmota/dehumidifier/cmnd/Humidity", "40")]


# ---------------------------------------------------------------- end to end through /v1/realtime

@pytest.fixture(scope="module")
def humid_server(broker, server_factory):
    """A server whose sessions act on humid_home's things, discovered from the real Mosquitto."""
    yield from discovered_server(broker, server_factory, HUMID, RETAINED)


@pytest.mark.usefixtures("needs_assistant")
async def test_a_humidifier_and_a_water_heater_through_the_realtime_endpoint(humid_server, broker):
    assert sorted(e.component for e in humid_server.ctx.home.inventory.entities()) == \
        ["humidifier", "humidifier", "humidifier", "water_heater", "water_heater"]
    async with playing(play_humid, broker) as commands:
        client = await RealtimeClient.connect(humid_server.ws_url)
        await client.wait_for("session.created")
        assert spoken(await typed(client, "set the bedroom humidifier to 45 percent")) == \
            "Okay, the bedroom humidifier is set to 45 percent humidity."
        assert spoken(await typed(client, "and the one in the nursery")) == \
            "Okay, the nursery humidifier is set to 45 percent humidity."
        assert spoken(await typed(client, "set the water heater to 50 degrees")) == \
            "Okay, the water heater is set to 50 degrees."
        assert spoken(await typed(client, "what is the bedroom humidifier set to")) == \
            "The bedroom humidifier is set to 45 percent humidity."
        await client.close()
        assert [name for name, _ in calls(client)] == \
            ["set_level", "set_level", "set_level", "get_target_humidity"]       # the heater's degrees as its level
        assert commands == [("zigbee2mqtt/Bedroom Humidifier/set", '{"target_humidity": 45}'),
                            ("zigbee2mqtt/Nursery Humidifier/set", '{"target_humidity": 45}'),
                            ("esphome/utility-node/water_heater/water_heater/target_temperature/command", "50")]
