"""Covers whose slats tilt, as their publishers announce them over Home Assistant MQTT discovery: Zigbee2MQTT's
venetian blinds (`tilt_command_topic` `.../set/tilt`, the tilt on the device's JSON state read through
`tilt_status_template`, Home Assistant's 0 to 100 scale), and shutters of a scale of their own (`tilt_min` /
`tilt_max` 0 to 180, opened at 90: `tilt_opened_value`, `tilt_closed_value`), sent through a `tilt_command_template`
with no tilt status (`tilt_optimistic`); under the topic prefixes the shipped ACL allows."""
from covered_home import Z2M_ORIGIN

OFFICE_BLINDS = ("cover", "0x000d6ffffe3c4d03/cover", {
    "name": None, "object_id": "office_blinds", "origin": Z2M_ORIGIN, "unique_id": "0x000d6ffffe3c4d03_cover_zigbee2mqtt",
    "command_topic": "zigbee2mqtt/Office Blinds/set", "state_topic": "zigbee2mqtt/Office Blinds",
    "value_template": "{{ value_json.state }}", "state_open": "OPEN", "state_closed": "CLOSE",
    "tilt_command_topic": "zigbee2mqtt/Office Blinds/set/tilt", "tilt_status_topic": "zigbee2mqtt/Office Blinds",
    "tilt_status_template": "{{ value_json.tilt }}", "device_class": "blind",
    "device": {"identifiers": ["zigbee2mqtt_0x000d6ffffe3c4d03"], "manufacturer": "Somfy", "model": "Venetian blind",
               "name": "Office Blinds", "suggested_area": "Office"}})
STUDY_SHUTTERS = ("cover", "study-node/shutters", {
    "~": "esphome/study-node/cover/shutters", "name": "Study Shutters", "uniq_id": "ESPcovershutters",
    "stat_t": "~/state", "cmd_t": "~/command", "tilt_cmd_t": "~/tilt/command", "tilt_cmd_tpl": '{"tilt": {{ tilt_position }}}',
    "tilt_min": 0, "tilt_max": 180, "tilt_opnd_val": 90, "tilt_clsd_val": 0, "tilt_opt": True, "dev_cla": "shutter",
    "dev": {"ids": "a4cf12stud00", "name": "Study Shutters", "sa": "Study", "mf": "espressif", "mdl": "esp32dev"}})
TILTED = [OFFICE_BLINDS, STUDY_SHUTTERS]
