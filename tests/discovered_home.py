"""A second made-up home, described only by discovery messages in the shapes Zigbee2MQTT, Tasmota
(SetOption19) and ESPHome really publish them: Zigbee2MQTT's `name: null` entities named by their device,
`origin` and `availability` blocks, JSON booleans and value templates; Tasmota's abbreviated keys and
`tele/.../STATE` topics with no area; ESPHome's `~` base topics and abbreviated device blocks.

Its names and requests (tests/data/heldout_discovered.jsonl) were written before any result on them was seen,
and include names Whisper is known to mishear ("samovar", "drinks cabinet", "propagator", "parlour") and
names that are not in the home ("open the chapel blinds").
"""
import json

from assistant.inventory import Inventory

Z2M_ORIGIN = {"name": "Zigbee2MQTT", "sw": "1.40.2", "url": "https://www.zigbee2mqtt.io"}
Z2M_AVAILABILITY = [{"topic": "zigbee2mqtt/bridge/state", "value_template": "{{ value_json.state }}"}]


def _z2m_device(ieee: str, name: str, model: str, area: str | None) -> dict:
    device = {"identifiers": [f"zigbee2mqtt_{ieee}"], "manufacturer": "IKEA", "model": model, "name": name,
              "via_device": "zigbee2mqtt_bridge_0x00124b0029f3c0d1"}
    if area:
        device["suggested_area"] = area
    return device


def _z2m(component: str, ieee: str, device: str, model: str, area: str | None, **config) -> tuple[str, dict]:
    """A Zigbee2MQTT entity named by its device (name null, unless config names it), on the device's topics."""
    payload = {"availability": Z2M_AVAILABILITY, "device": _z2m_device(ieee, device, model, area), "name": None,
               "object_id": device.lower().replace(" ", "_"), "origin": Z2M_ORIGIN,
               "state_topic": f"zigbee2mqtt/{device}", "unique_id": f"{ieee}_{component}_zigbee2mqtt", **config}
    return f"homeassistant/{component}/{ieee}/{component}/config", payload


def _z2m_light(ieee, name, area):
    return _z2m("light", ieee, name, "TRADFRI bulb E27 WS opal 1000lm", area, brightness=True, brightness_scale=254,
                command_topic=f"zigbee2mqtt/{name}/set", schema="json", supported_color_modes=["color_temp"])


def _z2m_plug(ieee, name, area):
    return _z2m("switch", ieee, name, "TRETAKT smart plug", area, command_topic=f"zigbee2mqtt/{name}/set",
                payload_off="OFF", payload_on="ON", value_template="{{ value_json.state }}")


def _tasmota(component: str, mac: str, name: str, **config) -> tuple[str, dict]:
    """A Tasmota relay with SetOption19: abbreviated keys, no area, the friendly name as the name."""
    device = f"tasmota_{mac[-6:]}"
    payload = {"name": name, "stat_t": f"tele/{device}/STATE", "avty_t": f"tele/{device}/LWT", "pl_avail": "Online",
               "pl_not_avail": "Offline", "cmd_t": f"cmnd/{device}/POWER", "val_tpl": "{{value_json.POWER}}",
               "pl_off": "OFF", "pl_on": "ON", "uniq_id": f"{mac}_RL_1",
               "dev": {"ids": [mac], "name": name, "mdl": "Sonoff Basic", "sw": "14.2.0", "mf": "Tasmota"}, **config}
    return f"homeassistant/{component}/{mac}_RL_1/config", payload


def _esphome(component: str, node: str, object_id: str, name: str, area: str, **config) -> tuple[str, dict]:
    """An ESPHome entity: `~` base topic, the device's friendly name at the front of the entity's."""
    base = f"{node}/{component}/{object_id}"
    payload = {"name": name, "~": base, "stat_t": "~/state", "uniq_id": f"ESP{component}{object_id}",
               "avty_t": f"{node}/status",
               "dev": {"ids": "a4cf12b3c4d5", "name": name.split()[0], "sw": "esphome v2024.6.1", "mdl": "esp32dev",
                       "mf": "espressif", "sa": area}, **config}
    return f"homeassistant/{component}/{node}/{object_id}/config", payload


DISCOVERY = [
    _z2m_light("0x000d6ffffe1a2b01", "Mushroom Lamp", "Parlour"),
    _z2m_light("0x000d6ffffe1a2b02", "Drinks Cabinet", "Parlour"),
    _z2m_light("0x000d6ffffe1a2b03", "Baize Light", "Billiard Room"),
    _z2m_light("0x000d6ffffe1a2b04", "Chandelier", "Belvedere"),
    _z2m_light("0x000d6ffffe1a2b05", "Bunting Lights", "Veranda"),
    _z2m_plug("0x000d6ffffe1a2b06", "Samovar", "Larder"),
    _z2m_plug("0x000d6ffffe1a2b07", "Dehumidifier", "Cellar"),
    _z2m("cover", "0x000d6ffffe1a2b08", "Pleated Blind", "FYRTUR block-out roller blind", "Nursery",
         command_topic="zigbee2mqtt/Pleated Blind/set", position_topic="zigbee2mqtt/Pleated Blind",
         set_position_topic="zigbee2mqtt/Pleated Blind/set", position_template="{{ value_json.position }}",
         value_template="{{ value_json.state }}", state_open="OPEN", state_closed="CLOSE",
         payload_open="OPEN", payload_close="CLOSE", payload_stop="STOP"),
    _z2m("lock", "0x000d6ffffe1a2b09", "Side Gate", "Yale YRD226", "Veranda",
         command_topic="zigbee2mqtt/Side Gate/set", payload_lock="LOCK", payload_unlock="UNLOCK",
         state_locked="LOCK", state_unlocked="UNLOCK", value_template="{{ value_json.state }}"),
    _z2m("climate", "0x000d6ffffe1a2b0a", "Nursery Radiator", "Danfoss 014G2461", "Nursery",
         current_temperature_topic="zigbee2mqtt/Nursery Radiator",
         current_temperature_template="{{ value_json.local_temperature }}",
         temperature_command_topic="zigbee2mqtt/Nursery Radiator/set/occupied_heating_setpoint",
         temperature_state_topic="zigbee2mqtt/Nursery Radiator",
         temperature_state_template="{{ value_json.occupied_heating_setpoint }}", min_temp="5", max_temp="35"),
    _z2m("sensor", "0x000d6ffffe1a2b0b", "Cellar Sensor", "WSDCGQ11LM", "Cellar", name="Humidity", device_class="humidity",
         state_class="measurement", unit_of_measurement="%", value_template="{{ value_json.humidity }}",
         enabled_by_default=True),
    _z2m("binary_sensor", "0x000d6ffffe1a2b0c", "Coal Hole Door", "MCCGQ11LM", "Cellar", device_class="door",
         payload_on=False, payload_off=True, value_template="{{ value_json.contact }}"),
    _tasmota("switch", "A1B2C3D4E5F1", "Propagator"),
    _tasmota("switch", "A1B2C3D4E5F2", "Heated Airer"),
    _tasmota("switch", "A1B2C3D4E5F3", "Ice Maker"),
    _tasmota("fan", "A1B2C3D4E5F4", "Belvedere Fan"),
    _tasmota("light", "A1B2C3D4E5F5", "Fairy Lights", bri_cmd_t="cmnd/tasmota_D4E5F5/Dimmer",
             bri_stat_t="tele/tasmota_D4E5F5/STATE", bri_scl=100, bri_val_tpl="{{value_json.Dimmer}}"),
    _tasmota("switch", "A1B2C3D4E5F6", "Larder Extractor"),
    _esphome("light", "veranda-node", "lantern", "Veranda Lantern", "Veranda", cmd_t="~/command", schema="json",
             brightness=True),
    _esphome("switch", "lawn-node", "sprinkler", "Lawn Sprinkler", "Garden", cmd_t="~/command"),
    _esphome("cover", "carriage-node", "door", "Carriage House Door", "Carriage House", cmd_t="~/command",
             dev_cla="garage", pos_t="~/position", set_pos_t="~/position/command"),
    _esphome("climate", "stillroom-node", "heater", "Still Room Heater", "Still Room",
             temp_cmd_t="~/target_temperature/set", temp_stat_t="~/target_temperature/state",
             curr_temp_t="~/current_temperature/state", mode_cmd_t="~/mode/set", modes=["off", "heat"]),
    _esphome("sensor", "belvedere-node", "temperature", "Belvedere Temperature", "Belvedere", dev_cla="temperature",
             unit_of_meas="°C", stat_cla="measurement"),
    _esphome("sensor", "larder-node", "humidity", "Larder Humidity", "Larder", dev_cla="humidity",
             unit_of_meas="%", stat_cla="measurement"),
    _esphome("switch", "billiard-node", "score_lamp", "Billiard Score Lamp", "Billiard Room", cmd_t="~/command"),
]


def messages_of(discovery: list[tuple[str, dict]]) -> list[tuple[str, str]]:
    """(topic, JSON payload) as the bridges publish them, retained."""
    return [(topic, json.dumps(payload)) for topic, payload in discovery]


def inventory_of(discovery: list[tuple[str, dict]]) -> Inventory:
    """The home as the assistant knows it once its discovery is read, with no broker."""
    inventory = Inventory()
    for topic, payload in messages_of(discovery):
        inventory.receive_discovery(topic, payload)
    return inventory


def discovery_messages() -> list[tuple[str, str]]:
    return messages_of(DISCOVERY)


def discovered_inventory() -> Inventory:
    return inventory_of(DISCOVERY)
