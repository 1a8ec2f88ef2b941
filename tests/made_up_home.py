"""A made-up home of 40 entities described only by Home Assistant MQTT discovery, and a fixture that plays its
devices: it applies every command and answers on the entity's state topic, as Zigbee2MQTT or Tasmota do.

None of its rooms or names is one the training corpus uses (assistant/corpus.py HOME_AREAS, HOME_NAMES, the
vocabulary): the assistant can only know them from discovery.
"""
import asyncio
import contextlib
import json

from assistant.inventory import Inventory
from mqtt_devices import login
from streaming.transports.mqtt.connection import Backoff
from streaming.transports.mqtt.home import MqttHome


def _z2m_light(object_id, name, area):
    return ("light", object_id, {"name": name, "schema": "json", "command_topic": f"zigbee2mqtt/{object_id}/set",
                                 "state_topic": f"zigbee2mqtt/{object_id}", "brightness": True,
                                 "device": {"name": name, "suggested_area": area, "identifiers": [object_id]}})


def _tasmota(component, object_id, name, area, **extra):
    config = {"name": name, "cmd_t": f"tasmota/{object_id}/cmnd/POWER", "stat_t": f"tasmota/{object_id}/stat/POWER",
              "pl_on": "1", "pl_off": "0", "dev": {"sa": area, "ids": [object_id]}, **extra}
    return (component, object_id, config)


def _cover(object_id, name, area, device_class=None):
    config = {"name": name, "command_topic": f"zigbee2mqtt/{object_id}/set", "state_topic": f"zigbee2mqtt/{object_id}/state",
              "payload_open": "OPEN", "payload_close": "CLOSE", "payload_stop": "STOP",
              "state_open": "open", "state_closed": "closed", "device": {"suggested_area": area}}
    if device_class:
        config["device_class"] = device_class
    return ("cover", object_id, config)


def _lock(object_id, name, area):
    return ("lock", object_id, {"name": name, "command_topic": f"esphome/{object_id}/set",
                                "state_topic": f"esphome/{object_id}/state", "device": {"suggested_area": area}})


def _scene(object_id, name):
    return ("scene", object_id, {"name": name, "command_topic": f"esphome/scenes/{object_id}", "payload_on": "RUN"})


def _sensor(object_id, name, area, device_class, unit):
    return ("sensor", object_id, {"name": name, "state_topic": f"zigbee2mqtt/{object_id}", "device_class": device_class,
                                  "unit_of_measurement": unit, "value_template": f"{{{{ value_json.{device_class} }}}}",
                                  "device": {"suggested_area": area}})


ENTITIES = [
    _z2m_light("arc_lamp", "Arc Lamp", "Snug"),
    _z2m_light("salt_lamp", "Salt Lamp", "Snug"),
    _z2m_light("piano_light", "Piano Light", "Music Room"),
    _z2m_light("picture_light", "Picture Light", "Gallery"),
    _z2m_light("crystal_pendant", "Crystal Pendant", "Gallery"),
    _z2m_light("cove_lighting", "Cove Lighting", "Conservatory"),
    _z2m_light("tiffany_lamp", "Tiffany Lamp", "Sewing Room"),
    _z2m_light("dock_lights", "Dock Lights", "Boathouse"),
    _z2m_light("workbench_light", "Workbench Light", "Tack Room"),
    _z2m_light("mudroom_light", "Mudroom Light", "Mudroom"),
    _tasmota("switch", "sewing_machine", "Sewing Machine", "Sewing Room"),
    _tasmota("switch", "pond_pump", "Pond Pump", "Orangery"),
    _tasmota("switch", "kiln", "Kiln", "Tack Room"),
    _tasmota("switch", "trouser_press", "Trouser Press", "Boot Room"),
    _tasmota("switch", "bilge_pump", "Bilge Pump", "Boathouse"),
    _tasmota("switch", "grow_light_socket", "Seedling Warmer", "Orangery"),
    _tasmota("fan", "punkah", "Punkah", "Conservatory"),
    _tasmota("fan", "drying_fan", "Drying Fan", "Boot Room"),
    _tasmota("fan", "whirlwind_fan", "Whirlwind Fan", "Music Room"),
    _tasmota("media_player", "jukebox", "Jukebox", "Snug"),
    _tasmota("media_player", "gramophone", "Gramophone", "Music Room"),
    _cover("roman_blind", "Roman Blind", "Snug"),
    _cover("velux_window", "Velux Window", "Gallery", "window"),
    _cover("louvres", "Louvres", "Orangery", "shutter"),
    _cover("boathouse_door", "Boathouse Door", "Boathouse", "garage"),
    _cover("pergola_roof", "Pergola Roof", "Conservatory", "awning"),
    _lock("wicket_gate", "Wicket Gate", "Orangery"),
    _lock("strongroom_door", "Strongroom Door", "Scullery"),
    _lock("tack_room_lock", "Tack Room Lock", "Tack Room"),
    _scene("candlelight", "Candlelight"),
    _scene("regatta", "Regatta"),
    _scene("siesta", "Siesta"),
    _sensor("snug_climate", "Snug Temperature", "Snug", "temperature", "°C"),
    _sensor("scullery_damp", "Scullery Humidity", "Scullery", "humidity", "%"),
    _sensor("gallery_climate", "Gallery Temperature", "Gallery", "temperature", "°C"),
    _sensor("boathouse_damp", "Boathouse Humidity", "Boathouse", "humidity", "%"),
    ("binary_sensor", "letterbox", {"name": "Letterbox", "state_topic": "zigbee2mqtt/letterbox", "device_class": "opening",
                                    "value_template": "{{ value_json.contact }}", "payload_on": "false",
                                    "payload_off": "true", "device": {"suggested_area": "Mudroom"}}),
    ("binary_sensor", "pond_leak", {"name": "Pond Leak", "state_topic": "zigbee2mqtt/pond_leak", "device_class": "moisture",
                                    "payload_on": "ON", "payload_off": "OFF", "device": {"suggested_area": "Orangery"}}),
    ("climate", "snug_stove", {"name": "Snug Stove", "temperature_command_topic": "esphome/snug_stove/target/set",
                               "temperature_state_topic": "esphome/snug_stove/target", "device": {"suggested_area": "Snug"}}),
    ("climate", "kiln_room_heater", {"name": "Radiant Panel", "temperature_command_topic": "esphome/radiant/target/set",
                                     "temperature_state_topic": "esphome/radiant/target",
                                     "device": {"suggested_area": "Sewing Room"}}),
]
# What the devices report before anyone asks (retained, as Zigbee2MQTT publishes them).
INITIAL = {
    "zigbee2mqtt/snug_climate": json.dumps({"temperature": 19.5, "linkquality": 80}),
    "zigbee2mqtt/scullery_damp": json.dumps({"humidity": 71}),
    "zigbee2mqtt/gallery_climate": json.dumps({"temperature": 18}),
    "zigbee2mqtt/boathouse_damp": json.dumps({"humidity": 88}),
    "zigbee2mqtt/letterbox": json.dumps({"contact": True}),
    "zigbee2mqtt/pond_leak": "OFF",
    "zigbee2mqtt/velux_window/state": "closed",
    "zigbee2mqtt/boathouse_door/state": "closed",
    "esphome/wicket_gate/state": "LOCKED",
    "esphome/snug_stove/target": "20",
    "tasmota/kiln/stat/POWER": "0",
}


def discovery_topic(component: str, object_id: str) -> str:
    return f"homeassistant/{component}/{object_id}/config"


def made_up_inventory() -> Inventory:
    """The home as the assistant knows it once its discovery is read, with no broker."""
    inventory = Inventory()
    for component, object_id, config in ENTITIES:
        inventory.receive_discovery(discovery_topic(component, object_id), json.dumps(config))
    return inventory


async def publish_home(broker, entities=ENTITIES) -> None:
    """Retained discovery configs and initial states, as a bridge publishes them when it starts."""
    async with login(broker, "home").client() as client:
        for component, object_id, config in entities:
            await client.publish(discovery_topic(component, object_id), json.dumps(config), qos=1, retain=True)
        for topic, payload in INITIAL.items():
            await client.publish(topic, payload, qos=1, retain=True)


async def clear_home(broker, entities=ENTITIES, retained=()) -> None:
    """The entities' retained configs and the `retained` state topics cleared from the broker."""
    async with login(broker, "home").client() as client:
        for component, object_id, _ in entities:
            await client.publish(discovery_topic(component, object_id), b"", qos=1, retain=True)
        for topic in retained:
            await client.publish(topic, b"", qos=1, retain=True)


def discovered_server(broker, server_factory, entities, retained=(), at_least=None):
    """A module fixture's body, for `yield from`: a server whose sessions act on `entities`, discovered from the
    real Mosquitto once at least `at_least` (all of them unless told) are known; afterwards their configs and the
    `retained` states are cleared, so the next module's home starts from an empty broker."""
    async def publish():
        async with login(broker, "home").client() as client:
            for component, object_id, config in entities:
                await client.publish(discovery_topic(component, object_id), json.dumps(config), qos=1, retain=True)
    asyncio.run(publish())
    server = server_factory()
    home = MqttHome(login(broker, "parley"), confirm_timeout=3.0, backoff=Backoff(initial=0.1, maximum=0.5))
    server.call(home.start())
    server.call(home.wait_connected(10))
    server.call(wait_for(lambda: len(home.inventory) >= (len(entities) if at_least is None else at_least)))
    server.call(asyncio.sleep(0.5))
    server.ctx.home = home
    yield server
    server.call(home.close())

    async def clear():
        async with login(broker, "home").client() as client:
            for component, object_id, _ in entities:
                await client.publish(discovery_topic(component, object_id), b"", qos=1, retain=True)
            for topic in retained:
                await client.publish(topic, b"", qos=1, retain=True)
    asyncio.run(clear())


def _answer(topic: str, payload: bytes) -> tuple[str, bytes] | None:
    """The state a device publishes after a command on `topic`."""
    text = payload.decode()
    for component, object_id, config in ENTITIES:
        command = config.get("command_topic") or config.get("cmd_t")
        if topic == command:
            state = config.get("state_topic") or config.get("stat_t")
            if state is None:
                return None
            if component == "cover":
                return state, {"OPEN": b"open", "CLOSE": b"closed", "STOP": b"stopped"}[text]
            if component == "lock":
                return state, {"LOCK": b"LOCKED", "UNLOCK": b"UNLOCKED"}[text]
            return state, payload
        if topic == config.get("temperature_command_topic"):
            return config["temperature_state_topic"], payload
    return None


async def play_devices(broker, commands: list) -> None:
    """Apply every command on the made-up home's topics; answer with the new state, retained."""
    async with login(broker, "home").client() as client:
        for prefix in ("zigbee2mqtt/#", "tasmota/#", "esphome/#"):
            await client.subscribe(prefix, qos=1)
        async for message in client.messages:
            topic, payload = str(message.topic), bytes(message.payload)
            answer = _answer(topic, payload)
            is_command = answer is not None or topic.endswith(("/set", "/cmnd/POWER")) or topic.startswith("esphome/scenes/")
            if is_command:
                commands.append((topic, payload))
            if answer is not None:
                await client.publish(answer[0], answer[1], qos=1, retain=True)


async def stopped(home, devices: asyncio.Task) -> None:
    """Close the home's connection and stop the device player started beside it."""
    await home.close()
    devices.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await devices


async def wait_for(predicate, timeout: float = 10) -> None:
    async with asyncio.timeout(timeout):
        while not predicate():
            await asyncio.sleep(0.05)

