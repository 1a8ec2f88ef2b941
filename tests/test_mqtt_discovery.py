"""A home described only by Home Assistant MQTT discovery, on a real Mosquitto: the tools command each entity
on its own topics with its own payloads, read its own state topic, and follow configs added or removed live."""
import asyncio
import contextlib
import json

import pytest

from made_up_home import ENTITIES, clear_home, play_devices, publish_home, stopped, wait_for
from mqtt_devices import login
from streaming.transports.mqtt.connection import Backoff
from streaming.transports.mqtt.home import MqttHome, entity_command, entity_state
from assistant.inventory import Inventory, render_command, speed_names
from assistant.generator import DoneEvent
from assistant.tools import NOT_POSSIBLE, ToolRunner


def test_commands_and_states_use_each_entitys_own_topics_and_payloads():
    inventory = Inventory()
    for component, object_id, config in ENTITIES:
        inventory.receive_discovery(f"homeassistant/{component}/{object_id}/config", json.dumps(config))
    assert len(inventory) == 40
    entity = {e.name: e for e in inventory.entities()}
    assert entity_command(entity["arc lamp"], "brightness", 40) == (
        "zigbee2mqtt/arc_lamp/set", '{"state": "ON", "brightness": 102}', "zigbee2mqtt/arc_lamp")
    assert entity_command(entity["kiln"], "on") == ("tasmota/kiln/cmnd/POWER", "1", "tasmota/kiln/stat/POWER")
    assert entity_command(entity["boathouse door"], "open")[:2] == ("zigbee2mqtt/boathouse_door/set", "OPEN")
    assert entity_command(entity["wicket gate"], "unlock")[:2] == ("esphome/wicket_gate/set", "UNLOCK")
    assert entity_command(entity["candlelight"], "activate") == ("esphome/scenes/candlelight", "RUN", None)
    assert entity_command(entity["snug stove"], "temperature", 22)[:2] == ("esphome/snug_stove/target/set", "22")
    assert entity_command(entity["candlelight"], "lock") is None
    assert entity_state(entity["kiln"], b"0") == "off" and entity_state(entity["kiln"], b"maybe") is None
    assert entity_state(entity["snug temperature"], b'{"temperature": 19.5}') == "19.5"
    assert entity_state(entity["letterbox"], b'{"contact": false}') == "on"          # payload_on "false": open
    assert entity_state(entity["wicket gate"], b"UNLOCKED") == "unlocked"
    assert entity_state(entity["roman blind"], b"open") == "open"
    assert entity_state(entity["arc lamp"], b'{"state": "ON", "brightness": 10}') == "on"


@pytest.fixture
async def discovered_home(broker):
    await publish_home(broker)
    commands: list = []
    devices = asyncio.create_task(play_devices(broker, commands))
    home = MqttHome(login(broker, "parley"), confirm_timeout=2.0, backoff=Backoff(initial=0.1, maximum=0.5))
    await home.start()
    await home.wait_connected(5)
    await wait_for(lambda: len(home.inventory) == 40)
    await asyncio.sleep(0.3)          # retained states and the device player's subscriptions
    yield home, commands
    await stopped(home, devices)
    await clear_home(broker)


async def test_a_discovered_home_is_driven_by_its_own_names(discovered_home):
    home, commands = discovered_home
    tools = ToolRunner(home)
    assert home.inventory.custom and await tools.lexicon() is not None
    assert await tools.run("switch_device", {"name": "arc_lamp", "state": "on"}) == "Okay, the arc lamp is on."
    assert ("zigbee2mqtt/arc_lamp/set", b'{"state": "ON"}') in commands
    assert await tools.run("set_level", {"name": "piano_light", "percent": 40}) == "Okay, the piano light is at 40 percent."
    assert await tools.run("change_level", {"name": "piano_light", "direction": "up"}) == \
        "Okay, the piano light is at 65 percent."                  # a step up from the level its state reports
    assert ("zigbee2mqtt/piano_light/set", b'{"state": "ON", "brightness": 166}') in commands
    assert await tools.run("switch_device", {"name": "kiln", "state": "on"}) == "Okay, the kiln is on."
    assert ("tasmota/kiln/cmnd/POWER", b"1") in commands
    assert await tools.run("get_state", {"name": "temperature", "area": "snug"}) == "The snug temperature is 19.5 degrees."
    assert await tools.run("get_state", {"name": "letterbox"}) == "The letterbox is closed."
    assert await tools.run("get_state", {"name": "kiln"}) == "The kiln is on."
    assert await tools.run("set_cover", {"name": "roman_blind", "action": "close"}) == "Okay, the roman blind is closed."
    assert await tools.run("set_cover", {"name": "boathouse_door", "action": "open"}) == \
        "Do you want me to open the boathouse door? Say yes to confirm."
    assert ("zigbee2mqtt/boathouse_door/set", b"OPEN") not in commands
    tools.begin_reply([{"role": "user", "content": "yes"}])
    assert await tools.run("confirm", {"answer": "yes"}) == "Okay, the boathouse door is open."
    assert ("zigbee2mqtt/boathouse_door/set", b"OPEN") in commands
    assert await tools.run("set_lock", {"name": "wicket_gate", "action": "unlock"})
    tools.begin_reply([{"role": "user", "content": "yes please"}])
    assert await tools.run("confirm", {"answer": "yes"}) == "Okay, the wicket gate is unlocked."
    assert await tools.run("activate_scene", {"name": "candlelight"}) == "Okay, candlelight is on."
    await wait_for(lambda: ("esphome/scenes/candlelight", b"RUN") in commands)
    assert await tools.run("switch_all", {"name": "everything", "area": "snug", "state": "off"}) == \
        "Okay, 3 devices in the snug are off."
    assert await tools.run("switch_device", {"name": "dishwasher", "state": "on"}) == \
        "I don't know a device called the dishwasher."
    # a fan the home has, of on and off only (no percentage topic): named, with what it can do
    assert await tools.run("set_level", {"name": "drying_fan", "percent": 50}) == \
        "The drying fan can only be switched on or off."
    assert await tools.run("change_level", {"name": "whirlwind_fan", "direction": "down"}) == \
        "The whirlwind fan can only be switched on or off."
    assert not any("drying_fan" in topic or "whirlwind_fan" in topic for topic, _ in commands)
    assert await tools.run("set_device", {"device": "light", "room": "kitchen", "state": "on"}) == \
        NOT_POSSIBLE
    assert not any(topic.startswith("home/") for topic, _ in commands)


async def test_entities_added_and_removed_while_running(discovered_home, broker):
    home, commands = discovered_home
    tools = ToolRunner(home)
    harp = {"name": "Harp Light", "command_topic": "tasmota/harp/cmnd/POWER", "state_topic": "tasmota/harp/stat/POWER",
            "device": {"suggested_area": "Music Room"}}
    async with login(broker, "home").client() as client:
        await client.publish("homeassistant/light/harp/config", json.dumps(harp), qos=1, retain=True)
    await wait_for(lambda: home.inventory.resolve("harp light"))
    assert "harp light" in (await tools.lexicon())[0]
    assert await tools.run("switch_device", {"name": "harp_light", "state": "off"}) in (
        "Okay, the harp light is off.", "I asked the harp light to switch off, but it didn't confirm.")
    await wait_for(lambda: ("tasmota/harp/cmnd/POWER", b"OFF") in commands)
    async with login(broker, "home").client() as client:
        await client.publish("homeassistant/light/harp/config", b"", qos=1, retain=True)
        await client.publish("homeassistant/light/broken/config", b"{oops", qos=1, retain=True)
    await wait_for(lambda: not home.inventory.resolve("harp light"))
    assert "harp light" not in (await tools.lexicon())[0] and len(home.inventory) == 40
    assert await tools.run("switch_device", {"name": "harp_light", "state": "on"}) == \
        "I don't know a device called the harp light."
    async with login(broker, "home").client() as client:
        await client.publish("homeassistant/light/broken/config", b"", qos=1, retain=True)


# Fans that take a speed, announced as ESPHome does (abbreviated keys, a speed level topic of 1..100) and as
# Zigbee2MQTT does (full keys, the speed inside the device's JSON state, a range of 1..9), and one of on and off only
SPEED_FANS = [
    ("loft_fan", {"name": "Loft Fan", "uniq_id": "loft_fan", "cmd_t": "esphome/loftnode/fan/loft_fan/command",
                  "stat_t": "esphome/loftnode/fan/loft_fan/state", "pct_cmd_t": "esphome/loftnode/fan/loft_fan/speed_level/command",
                  "pct_stat_t": "esphome/loftnode/fan/loft_fan/speed_level/state", "spd_rng_max": 100,
                  "dev": {"ids": ["esphome_loftnode"], "sa": "Loft"}}),
    ("attic_fan", {"name": "Attic Fan", "command_topic": "zigbee2mqtt/attic_fan/set/fan_state",
                   "state_topic": "zigbee2mqtt/attic_fan", "state_value_template": "{{ value_json.fan_state }}",
                   "percentage_command_topic": "zigbee2mqtt/attic_fan/set/fan_speed",
                   "percentage_state_topic": "zigbee2mqtt/attic_fan",
                   "percentage_value_template": "{{ value_json.fan_speed }}", "speed_range_min": 1,
                   "speed_range_max": 9, "device": {"identifiers": ["attic_fan"], "suggested_area": "Attic"}}),
    ("garret_fan", {"name": "Garret Fan", "cmd_t": "tasmota/garret_fan/cmnd/POWER",
                    "stat_t": "tasmota/garret_fan/stat/POWER", "dev": {"sa": "Garret", "ids": ["garret_fan"]}}),
]


async def play_fans(broker, commands: list) -> None:
    """The two speed fans: each command applied and answered with the new state, retained, as the devices do."""
    attic = {"fan_state": "OFF", "fan_speed": 1}
    async with login(broker, "home").client() as client:
        await client.subscribe([("esphome/loftnode/#", 1),
                                ("zigbee2mqtt/attic_fan/set/#", 1), ("tasmota/garret_fan/cmnd/#", 1)])
        async for message in client.messages:
            topic, payload = str(message.topic), bytes(message.payload)
            if topic.endswith("/state"):
                continue
            commands.append((topic, payload))
            if topic.startswith("esphome/loftnode/"):
                await client.publish(topic.removesuffix("/command") + "/state", payload, qos=1, retain=True)
                if topic.endswith("speed_level/command"):
                    await client.publish("esphome/loftnode/fan/loft_fan/state", "ON" if payload != b"0" else "OFF", qos=1,
                                         retain=True)
            elif topic.startswith("zigbee2mqtt/"):
                attic.update({"fan_speed": int(payload), "fan_state": "ON"} if topic.endswith("fan_speed")
                             else {"fan_state": payload.decode()})
                await client.publish("zigbee2mqtt/attic_fan", json.dumps(attic), qos=1, retain=True)


@contextlib.asynccontextmanager
async def fans_home(broker, fans, player, retained, component="fan"):
    """A home that discovered `fans` ((object id, config) pairs; things of another component, or (component, object
    id, config) triples where it is None), their devices played by `player`, with its tools and the commands the
    devices got; the configs and the `retained` state topics cleared after."""
    commands: list = []
    things = [thing if component is None else (component, *thing) for thing in fans]
    async with login(broker, "home").client() as client:
        for kind, object_id, config in things:
            await client.publish(f"homeassistant/{kind}/{object_id}/config", json.dumps(config), qos=1, retain=True)
    devices = asyncio.create_task(player(broker, commands))
    home = MqttHome(login(broker, "parley"), confirm_timeout=2.0, backoff=Backoff(initial=0.1, maximum=0.5))
    await home.start()
    try:
        await home.wait_connected(5)
        await wait_for(lambda: len(home.inventory) == len(fans))
        await asyncio.sleep(0.3)
        yield home, ToolRunner(home), commands
    finally:
        await stopped(home, devices)
        await clear_home(broker, things, retained)


async def test_a_fans_speed_is_commanded_on_its_percentage_topic(broker):
    """ "set the loft fan to half speed", "the attic fan a notch slower": Home Assistant's fan.set_percentage on
    the fan's percentage_command_topic, in its speed range, confirmed by its percentage state; a fan without one
    says what it can do."""
    retained = ("esphome/loftnode/fan/loft_fan/state", "esphome/loftnode/fan/loft_fan/speed_level/state",
                "zigbee2mqtt/attic_fan")
    async with fans_home(broker, SPEED_FANS, play_fans, retained) as (home, tools, commands):
        assert await tools.run("set_level", {"name": "loft_fan", "percent": 50}) == "Okay, the loft fan is at 50 percent."
        assert ("esphome/loftnode/fan/loft_fan/speed_level/command", b"50") in commands
        await wait_for(lambda: home._retained.get("esphome/loftnode/fan/loft_fan/state") == b"ON")
        assert await tools.run("change_level", {"name": "loft_fan", "direction": "up"}) == \
            "Okay, the loft fan is at 75 percent."               # a step up from the speed it reports
        # 50 percent of speeds 1..9 is speed 5, which reads back as 55 percent
        assert await tools.run("set_level", {"name": "attic_fan", "percent": 50}) == "Okay, the attic fan is at 55 percent."
        assert ("zigbee2mqtt/attic_fan/set/fan_speed", b"5") in commands
        assert await tools.run("change_level", {"name": "attic_fan", "direction": "down"}) == \
            "Okay, the attic fan is at 33 percent."
        assert ("zigbee2mqtt/attic_fan/set/fan_speed", b"3") in commands
        assert await tools.run("set_level", {"name": "attic_fan", "percent": 0}) == "Okay, the attic fan is off."
        assert ("zigbee2mqtt/attic_fan/set/fan_state", b"OFF") in commands
        assert await tools.run("set_level", {"name": "garret_fan", "percent": 100}) == \
            "The garret fan can only be switched on or off."
        assert not any(topic.startswith("tasmota/garret_fan") for topic, _ in commands)


# Fans whose commands are templates: Zigbee2MQTT's ZCL fan exactly as its discovery announces one (speeds named in
# a lookup table, its modes on the same fan_mode topic, the state in the device's JSON), and one announced with the
# JSON its /set topic takes, `{{ value }}` inside
Z2M = "zigbee2mqtt/Study fan"
TEMPLATED_FANS = [
    ("0x00124b0024c1f0a1/fan", {
        "name": None, "object_id": "study_fan", "unique_id": "0x00124b0024c1f0a1_fan_zigbee2mqtt",
        "state_topic": Z2M, "state_value_template": "{{ value_json.fan_state }}",
        "command_topic": f"{Z2M}/set/fan_state",
        "percentage_state_topic": Z2M, "percentage_command_topic": f"{Z2M}/set/fan_mode",
        "percentage_value_template": "{{ {'off':0, 'low':1, 'medium':2, 'high':3}[value_json.fan_mode] | default('None') }}",
        "percentage_command_template": "{{ {0:'off', 1:'low', 2:'medium', 3:'high'}[value] | default('') }}",
        "speed_range_min": 1, "speed_range_max": 3,
        "preset_mode_state_topic": Z2M, "preset_mode_command_topic": f"{Z2M}/set/fan_mode",
        "preset_mode_value_template": "{{ value_json.fan_mode if value_json.fan_mode in ['on', 'auto', 'smart'] "
                                      "else 'None' | default('None') }}",
        "preset_modes": ["on", "auto", "smart"],
        "availability": [{"topic": "zigbee2mqtt/bridge/state", "value_template": "{{ value_json.state }}"}],
        "device": {"identifiers": ["zigbee2mqtt_0x00124b0024c1f0a1"], "name": "Study fan", "model": "Fan controller",
                   "manufacturer": "Zigbee2MQTT", "suggested_area": "Study"},
        "origin": {"name": "Zigbee2MQTT", "sw": "1.40.0"}}),
    ("hall_fan", {
        "name": "Hall Fan", "cmd_t": "zigbee2mqtt/Hall fan/set", "cmd_tpl": '{"state": "{{ value }}"}',
        "stat_t": "zigbee2mqtt/Hall fan", "stat_val_tpl": "{{ value_json.state }}",
        "pct_cmd_t": "zigbee2mqtt/Hall fan/set", "pct_cmd_tpl": '{"speed": {{ value }}}', "spd_rng_max": 4,
        "pct_stat_t": "zigbee2mqtt/Hall fan", "pct_val_tpl": "{{ value_json.speed }}",
        "dev": {"ids": ["hall_fan"], "sa": "Hall"}}),
]


async def play_templated_fans(broker, commands: list) -> None:
    """Both fans as the devices answer: Zigbee2MQTT's fan_state and fan_mode topics, the other's JSON /set topic;
    each answered with the whole new state, retained."""
    study, hall = {"fan_state": "OFF", "fan_mode": "off", "linkquality": 87}, {"state": "OFF", "speed": 0}
    async with login(broker, "home").client() as client:
        await client.subscribe([(f"{Z2M}/set/#", 1), ("zigbee2mqtt/Hall fan/set", 1)])
        async for message in client.messages:
            topic, payload = str(message.topic), bytes(message.payload).decode()
            commands.append((topic, payload))
            if topic == f"{Z2M}/set/fan_state":
                study.update(fan_state=payload, fan_mode="off" if payload == "OFF" else study["fan_mode"])
                await client.publish(Z2M, json.dumps(study), qos=1, retain=True)
            elif topic == f"{Z2M}/set/fan_mode":
                study.update(fan_mode=payload, fan_state="OFF" if payload == "off" else "ON")
                await client.publish(Z2M, json.dumps(study), qos=1, retain=True)
            else:
                said = json.loads(payload)
                hall.update(said, **({"state": "ON" if said["speed"] else "OFF"} if "speed" in said else {}))
                await client.publish("zigbee2mqtt/Hall fan", json.dumps(hall), qos=1, retain=True)


async def test_a_fan_commanded_by_templates_takes_its_speeds(broker):
    """Zigbee2MQTT's fan was only switched ("The study fan can only be switched on or off."): its speed goes out
    as the name its lookup template gives the speed ("low", "medium", "high" on set/fan_mode), is read back through
    its state template's table, and is said by that name; a JSON command template is filled with the value."""
    retained = (Z2M, "zigbee2mqtt/Hall fan")
    async with fans_home(broker, TEMPLATED_FANS, play_templated_fans, retained) as (home, tools, commands):
        assert await tools.run("set_level", {"name": "study_fan", "percent": 33}) == "Okay, the study fan is on low."
        assert commands[-1] == (f"{Z2M}/set/fan_mode", "low")
        assert await tools.run("change_level", {"name": "study_fan", "direction": "up"}) == \
            "Okay, the study fan is on medium."                  # a step up from the speed it reports (33 -> 58)
        assert await tools.run("set_level", {"name": "study_fan", "percent": 100}) == "Okay, the study fan is on high."
        assert await home.read_level(home.inventory.resolve("study fan", None)[0]) == 100
        assert await tools.run("set_level", {"name": "study_fan", "percent": 0}) == "Okay, the study fan is off."
        assert commands[-1] == (f"{Z2M}/set/fan_state", "OFF")
        # the JSON templates: speed 2 of 1..4 for half speed, and the switch's payload inside its own template
        assert await tools.run("set_level", {"name": "hall_fan", "percent": 50}) == "Okay, the hall fan is at 50 percent."
        assert commands[-1] == ("zigbee2mqtt/Hall fan/set", '{"speed": 2}')
        assert await tools.run("switch_device", {"name": "hall_fan", "state": "off"}) == "Okay, the hall fan is off."
        assert commands[-1] == ("zigbee2mqtt/Hall fan/set", '{"state": "OFF"}')


def test_command_templates_are_rendered_only_in_the_forms_publishers_use():
    """A value inside the payload, or looked up in Zigbee2MQTT's table; any other template (a condition, a filter)
    makes no payload, so such a fan is not commanded on a guess."""
    table = "{{ {0:'off', 1:'low', 2:'medium', 3:'high'}[value] | default('') }}"
    assert [render_command(table, speed) for speed in (0, 2, 7)] == ["off", "medium", None]
    assert render_command('{"fan_mode": "{{ value }}"}', "low") == '{"fan_mode": "low"}'
    assert render_command("{{value}}", 3) == "3" and render_command(None, 3) == "3"
    assert render_command("{% if value > 50 %}high{% else %}low{% endif %}", 80) is None
    assert render_command("{{ value | int * 3 }}", 2) is None
    assert render_command("{{ {0: __import__('os')}[value] }}", 0) is None          # a table of literals only
    fan = Inventory().receive_discovery("homeassistant/fan/0x00124b0024c1f0a1/fan/config",
                                        json.dumps(TEMPLATED_FANS[0][1]))
    assert speed_names(fan) == {"low": 1, "medium": 2, "high": 3}
    assert entity_command(fan, "speed", 66) == (f"{Z2M}/set/fan_mode", "medium", Z2M)
    assert entity_state(fan, b'{"fan_state": "ON", "fan_mode": "auto"}') == "on"


async def test_without_discovery_the_default_home_keeps_its_topics(broker):
    home = MqttHome(login(broker, "parley"), confirm_timeout=0.5)
    await home.start()
    await home.wait_connected(5)
    await asyncio.sleep(0.3)
    assert not home.inventory.custom and await ToolRunner(home).lexicon() is None
    await home.close()


async def play_moded(broker, commands: list) -> None:
    """The thermostat and the bedroom fan as ESPHome answers (each mode, fan mode, swing mode and target temperature on
    its state topic),
    the air conditioner as Tasmota's IR bridge reports what it sent (its whole IRHVAC state, each value
    capitalised); each retained."""
    thermostat, fan = "esphome/hallnode/climate/thermostat", "esphome/bedroomnode/fan/bedroom_fan/preset_mode"
    sent = {"Vendor": "DAIKIN", "Power": "Off", "Mode": "Off", "FanSpeed": "Auto", "SwingV": "Off"}
    async with login(broker, "home").client() as client:
        await client.subscribe([(f"{thermostat}/{kind}/command", 1)
                                for kind in ("mode", "fan_mode", "swing_mode", "target_temperature")]
                               + [(f"{fan}/command", 1), ("tasmota/tasmota_ir/cmnd/IRHVAC", 1)])
        async for message in client.messages:
            topic, payload = str(message.topic), bytes(message.payload).decode()
            commands.append((topic, payload))
            if topic.endswith("/command"):
                await client.publish(topic.replace("/command", "/state"), payload, qos=1, retain=True)
            else:
                sent |= {key: value.title() for key, value in json.loads(payload).items() if key != "Vendor"}
                report = {"IrReceived": {"Protocol": sent["Vendor"], "IRHVAC": sent}}
                await client.publish("tasmota/tasmota_ir/tele/RESULT", json.dumps(report), qos=1, retain=True)


async def replied(assistant, tools, *turns: str) -> str:
    """The whole assistant's reply to the last of turns, each said after the ones before in one conversation."""
    history = []
    for turn in turns:
        history.append({"role": "user", "content": turn})
        async for event in assistant.respond(history, tools):
            if isinstance(event, DoneEvent):
                history.append({"role": "assistant", "content": event.reply.text, "tool_calls": [
                    {"name": c.name, "arguments": c.arguments} for c in event.reply.tool_calls]})
    return history[-1]["content"]


async def test_a_mode_said_is_published_on_the_things_own_mode_topic(broker, assistant):
    """ "set the thermostat to cool", "put the air conditioner in dry mode": the request, through the whole assistant,
    sends the mode on the thing's own mode command topic (the air conditioner's through its `mode_command_template`),
    confirmed by its mode state; a mode it lacks sends nothing; its mode is read back from its mode state topic."""
    from moded_home import MODED

    def reply(tools, *turns):
        return replied(assistant, tools, *turns)

    retained = ("esphome/hallnode/climate/thermostat/mode/state",
                "esphome/bedroomnode/fan/bedroom_fan/preset_mode/state", "tasmota/tasmota_ir/tele/RESULT")
    async with fans_home(broker, MODED, play_moded, retained, component=None) as (home, tools, commands):
        assert await reply(tools, "set the thermostat to cool") == "Okay, the thermostat is in cool mode."
        assert commands[-1] == ("esphome/hallnode/climate/thermostat/mode/command", "cool")
        assert await reply(tools, "put the air conditioner in dry mode") == "Okay, the air conditioner is in dry mode."
        assert commands[-1] == ("tasmota/tasmota_ir/cmnd/IRHVAC", '{"Vendor": "DAIKIN", "Power": "On", "Mode": "dry"}')
        assert await reply(tools, "turn the bedroom fan to sleep mode") == "Okay, the bedroom fan is in sleep mode."
        assert commands[-1] == ("esphome/bedroomnode/fan/bedroom_fan/preset_mode/command", "sleep")
        sent = len(commands)
        assert await reply(tools, "set the bedroom fan to turbo") == \
            "The bedroom fan has no turbo mode; it has auto, sleep and nature."
        assert await reply(tools, "what mode is the air conditioner in") == "The air conditioner is in dry mode."
        assert len(commands) == sent


async def test_a_climates_fan_and_swing_modes_are_published_on_their_own_topics(broker, assistant):
    """ "set the air conditioner's fan to high", "turn swing on on the air conditioner", "set the thermostat fan to
    low", "stop the thermostat swinging": through the whole assistant, each on its kind's own command topic (the
    air conditioner's through its fan and swing command templates), confirmed by that kind's state; "auto" said with
    "fan" is the fan's, without it the climate's own mode."""
    from moded_home import MODED

    def reply(tools, turn):
        return replied(assistant, tools, turn)

    thermostat, ir = "esphome/hallnode/climate/thermostat", "tasmota/tasmota_ir/cmnd/IRHVAC"
    retained = tuple(f"{thermostat}/{kind}/state" for kind in ("mode", "fan_mode", "swing_mode")) + \
        ("esphome/bedroomnode/fan/bedroom_fan/preset_mode/state", "tasmota/tasmota_ir/tele/RESULT")
    async with fans_home(broker, MODED, play_moded, retained, component=None) as (home, tools, commands):
        assert await reply(tools, "set the air conditioner's fan to high") == \
            "Okay, the air conditioner's fan mode is high."
        assert commands[-1] == (ir, '{"Vendor": "DAIKIN", "Power": "On", "FanSpeed": "high"}')
        assert await reply(tools, "turn swing on on the air conditioner") == \
            "Okay, the air conditioner's swing mode is on."
        assert commands[-1] == (ir, '{"Vendor": "DAIKIN", "Power": "On", "SwingV": "on"}')
        assert await reply(tools, "set the air conditioner fan to auto") == \
            "Okay, the air conditioner's fan mode is auto."
        assert commands[-1] == (ir, '{"Vendor": "DAIKIN", "Power": "On", "FanSpeed": "auto"}')
        assert await reply(tools, "set the air conditioner to auto") == "Okay, the air conditioner is in auto mode."
        assert commands[-1] == (ir, '{"Vendor": "DAIKIN", "Power": "On", "Mode": "auto"}')
        assert await reply(tools, "set the thermostat fan to low") == "Okay, the thermostat's fan mode is low."
        assert commands[-1] == (f"{thermostat}/fan_mode/command", "low")
        assert await reply(tools, "stop the thermostat swinging") == "Okay, the thermostat's swing mode is off."
        assert commands[-1] == (f"{thermostat}/swing_mode/command", "off")
        assert await reply(tools, "set the thermostat swing to vertical") == \
            "Okay, the thermostat's swing mode is vertical."
        assert commands[-1] == (f"{thermostat}/swing_mode/command", "vertical")
        sent = len(commands)
        assert await reply(tools, "put the air conditioner in heat cool mode") == \
            "The air conditioner has no heat cool mode; it has auto, cool, heat, dry and fan only."
        assert len(commands) == sent


async def test_a_climates_part_is_read_from_its_own_state_and_the_ac_is_the_air_conditioner(broker, assistant):
    """ "what is the AC's fan mode": through the whole assistant, "AC" (and "A/C") is the air conditioner, and the
    fan mode asked is read from the fan mode the IR bridge reports (main read the climate's own mode, and knew no
    "AC"); the questions send nothing."""
    from moded_home import MODED

    ir = "tasmota/tasmota_ir/cmnd/IRHVAC"
    async with fans_home(broker, MODED, play_moded, ("tasmota/tasmota_ir/tele/RESULT",), component=None) as (
            home, tools, commands):
        assert await replied(assistant, tools, "set the AC to cool") == "Okay, the air conditioner is in cool mode."
        assert commands[-1] == (ir, '{"Vendor": "DAIKIN", "Power": "On", "Mode": "cool"}')
        assert await replied(assistant, tools, "set the air conditioner's fan to high") == \
            "Okay, the air conditioner's fan mode is high."
        sent = len(commands)
        assert await replied(assistant, tools, "what is the AC's fan mode") == "The air conditioner's fan mode is high."
        assert await replied(assistant, tools, "is the air conditioner swinging") == \
            "The air conditioner's swing mode is off."
        assert await replied(assistant, tools, "what mode is the A/C in") == "The air conditioner is in cool mode."
        assert len(commands) == sent


async def test_a_climates_target_is_stepped_and_read_from_the_temperature_it_reports(broker, assistant):
    """ "turn the thermostat up" through the whole assistant: from the target temperature ESPHome reports, by its
    temp_step of half a degree, on its target temperature topic (main deb3ced switched it on); "what is the thermostat
    set to" reads that target (main: "The thermostat is on.") and sends nothing."""
    from moded_home import MODED

    target = "esphome/hallnode/climate/thermostat/target_temperature"
    async with fans_home(broker, MODED, play_moded, (f"{target}/state",), component=None) as (home, tools, commands):
        assert await replied(assistant, tools, "turn the thermostat up") == \
            "What temperature would you like the thermostat set to?"
        assert await tools.run("set_thermostat", {"name": "thermostat", "degrees": 20}) == \
            "Okay, the thermostat is set to 20 degrees."
        assert await replied(assistant, tools, "turn the thermostat up") == "Okay, the thermostat is set to 20.5 degrees."
        assert commands[-1] == (f"{target}/command", "20.5")
        sent = len(commands)
        assert await replied(assistant, tools, "what is the thermostat set to") == \
            "The thermostat is set to 20.5 degrees."
        assert len(commands) == sent


async def test_a_climates_target_past_its_max_temp_is_its_max_temp_and_said_so(broker, assistant):
    """Round 38: the ESPHome thermostat's max_temp is 30; "turn the thermostat up" from 30 and "set the thermostat to
    40" publish 30 and say so (main e645f83 published 30.5 and 40)."""
    from moded_home import MODED

    target = "esphome/hallnode/climate/thermostat/target_temperature"
    async with fans_home(broker, MODED, play_moded, (f"{target}/state",), component=None) as (home, tools, commands):
        assert await tools.run("set_thermostat", {"name": "thermostat", "degrees": 30}) == \
            "Okay, the thermostat is set to 30 degrees."
        assert await replied(assistant, tools, "turn the thermostat up") == \
            "The thermostat is at its highest, 30 degrees."
        assert commands[-1] == (f"{target}/command", "30")
        assert await replied(assistant, tools, "set the thermostat to 40") == \
            "The thermostat is at its highest, 30 degrees."
        assert commands[-1] == (f"{target}/command", "30")


async def test_a_zigbee2mqtt_fans_preset_mode_is_set_and_confirmed(broker):
    """Zigbee2MQTT's fan takes its preset modes on its fan_mode topic, and tells them in a condition
    (`{{ value_json.fan_mode if value_json.fan_mode in ['on', 'auto', 'smart'] else 'None' }}`), read as it reads."""
    retained = ("zigbee2mqtt/Study fan",)
    async with fans_home(broker, TEMPLATED_FANS[:1], play_templated_fans, retained) as (home, tools, commands):
        assert await tools.run("set_device_mode", {"name": "study_fan", "mode": "automatic"}) == \
            "Okay, the study fan is in auto mode."
        assert commands[-1] == (f"{Z2M}/set/fan_mode", "auto")
        assert await tools.run("get_device_mode", {"name": "study fan"}) == "The study fan is in auto mode."
        assert await tools.run("set_level", {"name": "study_fan", "percent": 33}) == "Okay, the study fan is on low."
        # its preset state reads "None" at a speed: none of its modes (main: "hasn't reported its mode yet")
        assert await tools.run("get_device_mode", {"name": "study fan"}) == \
            "The study fan is in none of its modes; it has auto and smart."
