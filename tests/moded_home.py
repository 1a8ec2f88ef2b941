"""Things that take a mode, each as its publisher announces it over Home Assistant MQTT discovery: an ESPHome fan
with preset modes, an ESPHome thermostat (climate modes, its mode state topic; both under the topic prefix the
shipped ACL allows) and a Tasmota IR air conditioner whose mode is sent through a `mode_command_template` inside the
JSON of its IRHVAC command; the thermostat's and the air conditioner's fan and swing modes (the thermostat lists
ESPHome's, the air conditioner none, so Home Assistant's default lists: fan auto, low, medium, high; swing on, off)
(Zigbee2MQTT's study fan, with preset modes on, auto and smart on its fan_mode topic, is
test_mqtt_discovery.TEMPLATED_FANS)."""
BEDROOM_FAN = ("fan", "bedroomnode/bedroom_fan", {
    "~": "esphome/bedroomnode/fan/bedroom_fan", "name": "Bedroom Fan", "uniq_id": "ESPfanbedroom_fan",
    "stat_t": "~/state", "cmd_t": "~/command",
    "pr_mode_stat_t": "~/preset_mode/state", "pr_mode_cmd_t": "~/preset_mode/command",
    "pr_modes": ["auto", "sleep", "nature"],
    "dev": {"ids": "a4cf12bedf00", "name": "Bedroom Fan", "sa": "Bedroom", "mf": "espressif", "mdl": "esp32dev"}})
THERMOSTAT = ("climate", "hallnode/thermostat", {
    "~": "esphome/hallnode/climate/thermostat", "name": "Thermostat", "uniq_id": "ESPclimatethermostat",
    "mode_cmd_t": "~/mode/command", "mode_stat_t": "~/mode/state",
    "modes": ["off", "heat_cool", "cool", "heat", "dry", "fan_only"],
    "temp_cmd_t": "~/target_temperature/command", "temp_stat_t": "~/target_temperature/state",
    "curr_temp_t": "~/current_temperature/state", "min_temp": 10, "max_temp": 30, "temp_step": 0.5,
    "fan_mode_cmd_t": "~/fan_mode/command", "fan_mode_stat_t": "~/fan_mode/state",
    "fan_modes": ["auto", "low", "medium", "high"],
    "swing_mode_cmd_t": "~/swing_mode/command", "swing_mode_stat_t": "~/swing_mode/state",
    "swing_modes": ["off", "both", "vertical", "horizontal"],
    "dev": {"ids": "a4cf12hall00", "name": "Thermostat", "sa": "Hall", "mf": "espressif", "mdl": "esp32dev"}})
AIR_CONDITIONER = ("climate", "tasmota_ir_ac", {
    "name": "Air Conditioner", "uniq_id": "tasmota_ir_ac_climate",
    "mode_command_topic": "tasmota/tasmota_ir/cmnd/IRHVAC",
    "mode_command_template": '{"Vendor": "DAIKIN", "Power": "On", "Mode": "{{ value }}"}',
    "mode_state_topic": "tasmota/tasmota_ir/tele/RESULT",
    "mode_state_template": "{{ value_json.IrReceived.IRHVAC.Mode }}",
    "modes": ["off", "auto", "cool", "heat", "dry", "fan_only"],
    "temperature_command_topic": "tasmota/tasmota_ir/cmnd/IRHVAC_TEMP",
    "fan_mode_command_topic": "tasmota/tasmota_ir/cmnd/IRHVAC",
    "fan_mode_command_template": '{"Vendor": "DAIKIN", "Power": "On", "FanSpeed": "{{ value }}"}',
    "fan_mode_state_topic": "tasmota/tasmota_ir/tele/RESULT",
    "fan_mode_state_template": "{{ value_json.IrReceived.IRHVAC.FanSpeed }}",
    "swing_mode_command_topic": "tasmota/tasmota_ir/cmnd/IRHVAC",
    "swing_mode_command_template": '{"Vendor": "DAIKIN", "Power": "On", "SwingV": "{{ value }}"}',
    "swing_mode_state_topic": "tasmota/tasmota_ir/tele/RESULT",
    "swing_mode_state_template": "{{ value_json.IrReceived.IRHVAC.SwingV }}",
    "device": {"identifiers": ["tasmota_ir"], "name": "Air Conditioner", "suggested_area": "Loft"}})
MODED = [BEDROOM_FAN, THERMOSTAT, AIR_CONDITIONER]
