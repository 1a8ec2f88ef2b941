"""A fifth unseen home, a village schoolhouse turned guest house, described only by discovery in the shapes
Zigbee2MQTT, Tasmota and ESPHome publish (the builders of tests/discovered_home.py and tests/third_home.py), written
for the seventh development set of unseen homes. What the other homes lack: possessive names that share the rest
of their words ("Nan's Reading Lamp", "Grandad's Reading Lamp") and a possessive area ("Headmaster's Study");
names with numbers that differ only in the number ("Bunk 1 Light", "Bunk 2 Light"); names that share their area's
words ("Bell Tower Uplighter", "Bell Tower Floodlight"; "Art Room Heater", "Art Room Humidity"); British spellings
("Honeysuckle Arbour Lights", "Colour Wash Light"); a hyphenated name ("Hi-Fi"); Tasmota relays with no area.
"""
from assistant.inventory import Inventory
from discovered_home import _esphome, _tasmota, _z2m, _z2m_light, _z2m_plug, inventory_of, messages_of
from third_home import _z2m_cover, _z2m_scene

DISCOVERY = [
    _z2m_light("0x847127fffe3b5201", "Nan's Reading Lamp", "Sitting Room"),
    _z2m_light("0x847127fffe3b5202", "Grandad's Reading Lamp", "Sitting Room"),
    _z2m_light("0x847127fffe3b5203", "Bunk 1 Light", "Bunk Room"),
    _z2m_light("0x847127fffe3b5204", "Bunk 2 Light", "Bunk Room"),
    _z2m_light("0x847127fffe3b5205", "Classroom Pendants", "Classroom"),
    _z2m_light("0x847127fffe3b5206", "Bell Tower Uplighter", "Bell Tower"),
    _z2m_light("0x847127fffe3b5207", "Honeysuckle Arbour Lights", "Garden"),
    _z2m_plug("0x847127fffe3b5208", "Bread Maker", "Back Kitchen"),
    _z2m_plug("0x847127fffe3b5209", "Electric Blanket", "Headmaster's Study"),
    _z2m_plug("0x847127fffe3b520a", "Tea Urn", "Staff Room"),
    _z2m_cover("0x847127fffe3b520b", "Arched Window Blind", "Classroom"),
    _z2m_cover("0x847127fffe3b520c", "Attic Hatch", "Attic"),
    _z2m("lock", "0x847127fffe3b520d", "Playground Gate", "Yale Conexis L2", "Playground",
         command_topic="zigbee2mqtt/Playground Gate/set", payload_lock="LOCK", payload_unlock="UNLOCK",
         state_locked="LOCK", state_unlocked="UNLOCK", value_template="{{ value_json.state }}"),
    _z2m("climate", "0x847127fffe3b520e", "Staff Room Radiator", "Danfoss Ally", "Staff Room",
         current_temperature_topic="zigbee2mqtt/Staff Room Radiator",
         current_temperature_template="{{ value_json.local_temperature }}",
         temperature_command_topic="zigbee2mqtt/Staff Room Radiator/set/occupied_heating_setpoint",
         temperature_state_topic="zigbee2mqtt/Staff Room Radiator",
         temperature_state_template="{{ value_json.occupied_heating_setpoint }}", min_temp="5", max_temp="32"),
    _z2m("sensor", "0x847127fffe3b520f", "Boiler House Sensor", "WSDCGQ11LM", "Boiler House", name="Temperature",
         device_class="temperature", state_class="measurement", unit_of_measurement="°C",
         value_template="{{ value_json.temperature }}", enabled_by_default=True),
    _z2m("binary_sensor", "0x847127fffe3b5210", "Cloakroom Window", "MCCGQ11LM", "Cloakroom", device_class="window",
         payload_on=False, payload_off=True, value_template="{{ value_json.contact }}"),
    _z2m_scene("Sitting Room", 1, "Fireside"),
    _z2m_scene("Garden", 2, "Prize Day"),
    _tasmota("switch", "D8BFC0A71C01", "Immersion Heater"),
    _tasmota("switch", "D8BFC0A71C02", "Fish Tank Pump"),
    _tasmota("switch", "D8BFC0A71C03", "Dad's Shed Heater"),
    _tasmota("light", "D8BFC0A71C04", "Colour Wash Light", bri_cmd_t="cmnd/tasmota_A71C04/Dimmer",
             bri_stat_t="tele/tasmota_A71C04/STATE", bri_scl=100, bri_val_tpl="{{value_json.Dimmer}}"),
    _tasmota("media_player", "D8BFC0A71C05", "Hi-Fi"),
    _tasmota("fan", "D8BFC0A71C06", "Bunk Room Fan"),
    _esphome("light", "tower-node", "floodlight", "Bell Tower Floodlight", "Bell Tower", cmd_t="~/command",
             schema="json", brightness=True),
    _esphome("switch", "art-node", "wheel", "Pottery Wheel", "Art Room", cmd_t="~/command"),
    _esphome("cover", "shed-node", "door", "Bike Shed Door", "Bike Shed", cmd_t="~/command", dev_cla="garage",
             pos_t="~/position", set_pos_t="~/position/command"),
    _esphome("climate", "art-node", "heater", "Art Room Heater", "Art Room", temp_cmd_t="~/target_temperature/set",
             temp_stat_t="~/target_temperature/state", curr_temp_t="~/current_temperature/state",
             mode_cmd_t="~/mode/set", modes=["off", "heat"]),
    _esphome("sensor", "art-node", "humidity", "Art Room Humidity", "Art Room", dev_cla="humidity",
             unit_of_meas="%", stat_cla="measurement"),
    _esphome("sensor", "bunk-node", "temperature", "Bunk Room Temperature", "Bunk Room", dev_cla="temperature",
             unit_of_meas="°C", stat_cla="measurement"),
    _esphome("lock", "vestry-node", "door", "Vestry Door", "Vestry", cmd_t="~/command", pl_lock="LOCK",
             pl_unlk="UNLOCK"),
]


def discovery_messages() -> list[tuple[str, str]]:
    return messages_of(DISCOVERY)


def fifth_inventory() -> Inventory:
    return inventory_of(DISCOVERY)
