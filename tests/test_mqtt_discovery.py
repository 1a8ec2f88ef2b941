"""A home described only by Home Assistant MQTT discovery, on a real Mosquitto: the tools command each entity
on its own topics with its own payloads, read its own state topic, and follow configs added or removed live."""
import asyncio
import contextlib
import json

import pytest

from made_up_home import ENTITIES, clear_home, play_devices, publish_home, wait_for
from mqtt_devices import login
from streaming.transports.mqtt.connection import Backoff
from streaming.transports.mqtt.home import MqttHome, entity_command, entity_state
from assistant.inventory import Inventory
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
    await home.close()
    devices.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await devices
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


async def test_without_discovery_the_default_home_keeps_its_topics(broker):
    home = MqttHome(login(broker, "parley"), confirm_timeout=0.5)
    await home.start()
    await home.wait_connected(5)
    await asyncio.sleep(0.3)
    assert not home.inventory.custom and await ToolRunner(home).lexicon() is None
    await home.close()
