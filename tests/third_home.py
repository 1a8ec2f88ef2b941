"""A third unseen home, a farmhouse, described only by discovery in the shapes Zigbee2MQTT, Tasmota and ESPHome
publish (the builders of tests/discovered_home.py). Written as a home neither the corpus nor the other homes
name: names of several words, names that share words ("upper landing light", "lower landing light"; "bay window
lamp", "bay window blind"), names with their area inside them ("hayloft lamp" in the hayloft), British spellings
("centre light", "colour strip"), plural names ("festoon lights", "dormer shutters") and two scenes, so that a
development half judged on it shows whether name matching carries to a home nobody tuned on.
"""
import json

from assistant.inventory import Inventory
from discovered_home import Z2M_ORIGIN, _esphome, _tasmota, _z2m, _z2m_light, _z2m_plug, inventory_of, messages_of


def _z2m_cover(ieee: str, name: str, area: str) -> tuple[str, dict]:
    return _z2m("cover", ieee, name, "KADRILJ roller blind", area, command_topic=f"zigbee2mqtt/{name}/set",
                position_topic=f"zigbee2mqtt/{name}", set_position_topic=f"zigbee2mqtt/{name}/set",
                position_template="{{ value_json.position }}", value_template="{{ value_json.state }}",
                state_open="OPEN", state_closed="CLOSE", payload_open="OPEN", payload_close="CLOSE", payload_stop="STOP")


def _z2m_scene(group: str, number: int, name: str) -> tuple[str, dict]:
    """A Zigbee2MQTT group scene: recalled by number on the group's topic."""
    payload = {"name": name, "command_topic": f"zigbee2mqtt/{group}/set",
               "payload_on": json.dumps({"scene_recall": number}), "object_id": f"{group}_{number}".lower(),
               "origin": Z2M_ORIGIN, "unique_id": f"{group}_scene_{number}_zigbee2mqtt".lower()}
    return f"homeassistant/scene/{group.lower().replace(' ', '_')}/scene_{number}/config", payload


DISCOVERY = [
    _z2m_light("0x00158d0008a1c301", "Hayloft Lamp", "Hayloft"),
    _z2m_light("0x00158d0008a1c302", "Festoon Lights", "Orchard"),
    _z2m_light("0x00158d0008a1c303", "Centre Light", "Games Room"),
    _z2m_light("0x00158d0008a1c304", "Bay Window Lamp", "Morning Room"),
    _z2m_light("0x00158d0008a1c305", "Upper Landing Light", "Landing"),
    _z2m_light("0x00158d0008a1c306", "Lower Landing Light", "Landing"),
    _z2m_light("0x00158d0008a1c307", "Dresser Lamp", "Morning Room"),
    _z2m_light("0x00158d0008a1c308", "Dairy Strip Light", "Dairy"),
    _z2m_plug("0x00158d0008a1c309", "Log Splitter", "Woodshed"),
    _z2m_plug("0x00158d0008a1c30a", "Cider Press", "Dairy"),
    _z2m_plug("0x00158d0008a1c30b", "Egg Incubator", "Dairy"),
    _z2m_cover("0x00158d0008a1c30c", "Bay Window Blind", "Morning Room"),
    _z2m_cover("0x00158d0008a1c30d", "Dormer Shutters", "Garret"),
    _z2m("lock", "0x00158d0008a1c30e", "Stable Door", "Nimly Touch Pro", "Yard",
         command_topic="zigbee2mqtt/Stable Door/set", payload_lock="LOCK", payload_unlock="UNLOCK",
         state_locked="LOCK", state_unlocked="UNLOCK", value_template="{{ value_json.state }}"),
    _z2m("climate", "0x00158d0008a1c30f", "Garret Radiator", "Popp 701721", "Garret",
         current_temperature_topic="zigbee2mqtt/Garret Radiator",
         current_temperature_template="{{ value_json.local_temperature }}",
         temperature_command_topic="zigbee2mqtt/Garret Radiator/set/current_heating_setpoint",
         temperature_state_topic="zigbee2mqtt/Garret Radiator",
         temperature_state_template="{{ value_json.current_heating_setpoint }}", min_temp="5", max_temp="30"),
    _z2m("sensor", "0x00158d0008a1c310", "Dairy Sensor", "SNZB-02", "Dairy", name="Temperature",
         device_class="temperature", state_class="measurement", unit_of_measurement="°C",
         value_template="{{ value_json.temperature }}", enabled_by_default=True),
    _z2m("binary_sensor", "0x00158d0008a1c311", "Hen House Door", "SNZB-04", "Yard", device_class="door",
         payload_on=False, payload_off=True, value_template="{{ value_json.contact }}"),
    _z2m_scene("Morning Room", 1, "Harvest Supper"),
    _z2m_scene("Yard", 2, "Lambing Watch"),
    _tasmota("switch", "B4E62D0A1F01", "Boot Warmer"),
    _tasmota("switch", "B4E62D0A1F02", "Kennel Heater"),
    _tasmota("switch", "B4E62D0A1F03", "Pinball Machine"),
    _tasmota("fan", "B4E62D0A1F04", "Dairy Extractor"),
    _tasmota("light", "B4E62D0A1F05", "Colour Strip", bri_cmd_t="cmnd/tasmota_0A1F05/Dimmer",
             bri_stat_t="tele/tasmota_0A1F05/STATE", bri_scl=100, bri_val_tpl="{{value_json.Dimmer}}"),
    _tasmota("switch", "B4E62D0A1F06", "Water Butt Pump"),
    _tasmota("media_player", "B4E62D0A1F07", "Wireless Set"),
    _esphome("light", "yard-node", "floodlight", "Yard Floodlight", "Yard", cmd_t="~/command", schema="json",
             brightness=True),
    _esphome("switch", "paddock-node", "trough_heater", "Trough Heater", "Paddock", cmd_t="~/command"),
    _esphome("cover", "woodshed-node", "door", "Woodshed Door", "Woodshed", cmd_t="~/command", dev_cla="garage",
             pos_t="~/position", set_pos_t="~/position/command"),
    _esphome("climate", "morning-node", "stove", "Morning Room Stove", "Morning Room",
             temp_cmd_t="~/target_temperature/set", temp_stat_t="~/target_temperature/state",
             curr_temp_t="~/current_temperature/state", mode_cmd_t="~/mode/set", modes=["off", "heat"]),
    _esphome("sensor", "cheese-node", "humidity", "Cheese Room Humidity", "Cheese Room", dev_cla="humidity",
             unit_of_meas="%", stat_cla="measurement"),
    _esphome("sensor", "hayloft-node", "temperature", "Hayloft Temperature", "Hayloft", dev_cla="temperature",
             unit_of_meas="°C", stat_cla="measurement"),
    _esphome("lock", "cartshed-node", "gate", "Cartshed Gate", "Yard", cmd_t="~/command", pl_lock="LOCK",
             pl_unlk="UNLOCK"),
    _esphome("fan", "garret-node", "fan", "Garret Fan", "Garret", cmd_t="~/command"),
]


def discovery_messages() -> list[tuple[str, str]]:
    return messages_of(DISCOVERY)


def third_inventory() -> Inventory:
    return inventory_of(DISCOVERY)
