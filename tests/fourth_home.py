"""A fourth unseen home, a converted watermill, described only by discovery in the shapes Zigbee2MQTT, Tasmota and
ESPHome publish (the builders of tests/discovered_home.py and tests/third_home.py), written for the fifth
development set of unseen homes. What the other homes lack: Zigbee2MQTT sensors whose payloads are JSON booleans
the other way round from a contact's (occupancy and water leak, `payload_on: true`); Tasmota relays whose area is
only at the front of their name and is an area another entity suggests ("Pantry Chiller", "Mezzanine Fan");
names that share a kind word across areas ("reading lamp", "globe lamp", "porthole light"); a name that is its
area and a kind ("granary shutters"); words a speaker may say otherwise ("skylight blind", "espresso machine",
"radiogram"); and two Zigbee2MQTT group scenes.
"""
from assistant.inventory import Inventory
from discovered_home import _esphome, _tasmota, _z2m, _z2m_light, _z2m_plug, inventory_of, messages_of
from third_home import _z2m_cover, _z2m_scene


def _z2m_occupancy(ieee: str, name: str, area: str, device_class: str, field: str) -> tuple[str, dict]:
    """A Zigbee2MQTT boolean sensor as it publishes it: `true` is on (occupied, wet)."""
    return _z2m("binary_sensor", ieee, name, "SNZB-03" if device_class == "occupancy" else "SNZB-05", area,
                device_class=device_class, payload_on=True, payload_off=False,
                value_template=f"{{{{ value_json.{field} }}}}")


DISCOVERY = [
    _z2m_light("0x54ef44100061a401", "Rafter Lights", "Granary"),
    _z2m_light("0x54ef44100061a402", "Reading Lamp", "Granary"),
    _z2m_light("0x54ef44100061a403", "Globe Lamp", "Study"),
    _z2m_light("0x54ef44100061a404", "Mezzanine Spotlights", "Mezzanine"),
    _z2m_light("0x54ef44100061a405", "Porthole Light", "Wheelhouse"),
    _z2m_plug("0x54ef44100061a406", "Dough Prover", "Pantry"),
    _z2m_plug("0x54ef44100061a407", "Espresso Machine", "Granary"),
    _z2m_cover("0x54ef44100061a408", "Skylight Blind", "Mezzanine"),
    _z2m_cover("0x54ef44100061a409", "Granary Shutters", "Granary"),
    _z2m("lock", "0x54ef44100061a40a", "Annexe Door", "Aqara U200", "Annexe",
         command_topic="zigbee2mqtt/Annexe Door/set", payload_lock="LOCK", payload_unlock="UNLOCK",
         state_locked="LOCK", state_unlocked="UNLOCK", value_template="{{ value_json.state }}"),
    _z2m("climate", "0x54ef44100061a40b", "Study Radiator", "Aqara E1 TRV", "Study",
         current_temperature_topic="zigbee2mqtt/Study Radiator",
         current_temperature_template="{{ value_json.local_temperature }}",
         temperature_command_topic="zigbee2mqtt/Study Radiator/set/occupied_heating_setpoint",
         temperature_state_topic="zigbee2mqtt/Study Radiator",
         temperature_state_template="{{ value_json.occupied_heating_setpoint }}", min_temp="5", max_temp="30"),
    _z2m("sensor", "0x54ef44100061a40c", "Wheelhouse Sensor", "TH01", "Wheelhouse", name="Temperature",
         device_class="temperature", state_class="measurement", unit_of_measurement="°C",
         value_template="{{ value_json.temperature }}", enabled_by_default=True),
    _z2m_occupancy("0x54ef44100061a40d", "Granary Motion", "Granary", "occupancy", "occupancy"),
    _z2m_occupancy("0x54ef44100061a40e", "Sump Leak", "Wheelhouse", "moisture", "water_leak"),
    _z2m_scene("Granary", 1, "Harvest Moon"),
    _z2m_scene("Study", 2, "Quiet Hours"),
    _tasmota("switch", "C8C9A3F21B01", "Sluice Pump"),
    _tasmota("switch", "C8C9A3F21B02", "Towel Rail"),
    _tasmota("switch", "C8C9A3F21B03", "Pantry Chiller"),
    _tasmota("fan", "C8C9A3F21B04", "Mezzanine Fan"),
    _tasmota("light", "C8C9A3F21B05", "Neon Sign", bri_cmd_t="cmnd/tasmota_F21B05/Dimmer",
             bri_stat_t="tele/tasmota_F21B05/STATE", bri_scl=100, bri_val_tpl="{{value_json.Dimmer}}"),
    _tasmota("media_player", "C8C9A3F21B06", "Radiogram"),
    _esphome("light", "wheel-node", "floodlight", "Waterwheel Floodlight", "Wheelhouse", cmd_t="~/command",
             schema="json", brightness=True),
    _esphome("switch", "granary-node", "grain_mill", "Grain Mill", "Granary", cmd_t="~/command"),
    _esphome("cover", "undercroft-node", "door", "Undercroft Door", "Undercroft", cmd_t="~/command",
             dev_cla="garage", pos_t="~/position", set_pos_t="~/position/command"),
    _esphome("climate", "sauna-node", "stove", "Sauna Stove", "Sauna", temp_cmd_t="~/target_temperature/set",
             temp_stat_t="~/target_temperature/state", curr_temp_t="~/current_temperature/state",
             mode_cmd_t="~/mode/set", modes=["off", "heat"]),
    _esphome("sensor", "sauna-node", "humidity", "Sauna Humidity", "Sauna", dev_cla="humidity", unit_of_meas="%",
             stat_cla="measurement"),
    _esphome("sensor", "pantry-node", "temperature", "Pantry Temperature", "Pantry", dev_cla="temperature",
             unit_of_meas="°C", stat_cla="measurement"),
    _esphome("lock", "gatehouse-node", "gate", "Gatehouse Gate", "Gatehouse", cmd_t="~/command", pl_lock="LOCK",
             pl_unlk="UNLOCK"),
]


def discovery_messages() -> list[tuple[str, str]]:
    return messages_of(DISCOVERY)


def fourth_inventory() -> Inventory:
    return inventory_of(DISCOVERY)
