"""Humidifiers and water heaters, each as its publisher announces it over Home Assistant MQTT discovery: a
Zigbee2MQTT humidifier (its state, target humidity and mode in the device's JSON state, commanded through templates;
sleep, auto and normal modes; 30 to 80 percent), a second one in the nursery, a Tasmota dehumidifier (POWER and a
humidity command of its own, no modes, no limits: 0 to 100), an ESPHome water heater (target and mode under its `~`
base, a power topic, 40 to 65 °C) and a boiler of Home Assistant's default modes and limits, all under the topic
prefixes the shipped ACL allows."""
Z2M_ORIGIN = {"name": "Zigbee2MQTT", "sw": "1.40.2", "url": "https://www.zigbee2mqtt.io"}


def _z2m_humidifier(ieee: str, name: str, area: str, **config) -> tuple[str, str, dict]:
    base = f"zigbee2mqtt/{name}"
    return ("humidifier", f"{ieee}/humidifier", {
        "name": None, "object_id": name.lower().replace(" ", "_"), "origin": Z2M_ORIGIN,
        "unique_id": f"{ieee}_humidifier_zigbee2mqtt", "device_class": "humidifier",
        "command_topic": f"{base}/set", "command_template": '{"state": "{{ value }}"}',
        "state_topic": base, "state_value_template": "{{ value_json.state }}",
        "target_humidity_command_topic": f"{base}/set",
        "target_humidity_command_template": '{"target_humidity": {{ value }}}',
        "target_humidity_state_topic": base, "target_humidity_state_template": "{{ value_json.target_humidity }}",
        "current_humidity_topic": base, "current_humidity_template": "{{ value_json.humidity }}",
        "mode_command_topic": f"{base}/set", "mode_command_template": '{"mode": "{{ value }}"}',
        "mode_state_topic": base, "mode_state_template": "{{ value_json.mode }}",
        "modes": ["normal", "sleep", "auto"], "min_humidity": 30, "max_humidity": 80,
        "device": {"identifiers": [f"zigbee2mqtt_{ieee}"], "manufacturer": "Tuya", "model": "Smart humidifier",
                   "name": name, "suggested_area": area}, **config})


BEDROOM_HUMIDIFIER = _z2m_humidifier("0xa4c138f1e2d3c401", "Bedroom Humidifier", "Bedroom")
NURSERY_HUMIDIFIER = _z2m_humidifier("0xa4c138f1e2d3c402", "Nursery Humidifier", "Nursery")
BASEMENT_DEHUMIDIFIER = ("humidifier", "tasmota_5C3A1F/dehumidifier", {
    "name": "Basement Dehumidifier", "uniq_id": "5C3A1F_dehumidifier", "dev_cla": "dehumidifier",
    "cmd_t": "tasmota/dehumidifier/cmnd/POWER", "stat_t": "tasmota/dehumidifier/stat/POWER",
    "pl_on": "ON", "pl_off": "OFF", "hum_cmd_t": "tasmota/dehumidifier/cmnd/Humidity",
    "hum_stat_t": "tasmota/dehumidifier/stat/Humidity",
    "dev": {"ids": ["5C3A1F"], "name": "Basement Dehumidifier", "sa": "Basement", "mf": "Tasmota",
            "mdl": "ESP8266 relay"}})
WATER_HEATER = ("water_heater", "utility-node/water_heater", {
    "~": "esphome/utility-node/water_heater/water_heater", "name": "Water Heater", "uniq_id": "ESPwaterheater",
    "temp_cmd_t": "~/target_temperature/command", "temp_stat_t": "~/target_temperature/state",
    "curr_temp_t": "~/current_temperature/state", "mode_cmd_t": "~/mode/command", "mode_stat_t": "~/mode/state",
    "modes": ["off", "eco", "electric", "performance"], "min_temp": 40, "max_temp": 65, "temp_unit": "C",
    "pow_cmd_t": "~/power/command",
    "dev": {"ids": "a4cf12heat00", "name": "Water Heater", "sa": "Utility Room", "mf": "espressif",
            "mdl": "esp32dev"}})
BOILER = ("water_heater", "garage-node/boiler", {
    "~": "esphome/garage-node/water_heater/boiler", "name": "Boiler", "uniq_id": "ESPboiler",
    "temp_cmd_t": "~/target_temperature/command", "temp_stat_t": "~/target_temperature/state",
    "mode_cmd_t": "~/mode/command", "mode_stat_t": "~/mode/state", "temp_unit": "C",
    "pow_cmd_t": "~/power/command", "pl_on": "ON", "pl_off": "OFF",
    "dev": {"ids": "a4cf12boil00", "name": "Boiler", "sa": "Garage", "mf": "espressif", "mdl": "esp32dev"}})
HUMID = [BEDROOM_HUMIDIFIER, NURSERY_HUMIDIFIER, BASEMENT_DEHUMIDIFIER, WATER_HEATER, BOILER]
