"""Lights that take colour, as Zigbee2MQTT, Tasmota (SetOption19) and ESPHome announce them over Home Assistant MQTT
discovery, beside one that takes none: a Zigbee2MQTT colour bulb (JSON schema, `supported_color_modes` xy and
color_temp, its range in mireds), a Tasmota RGBCCT strip (the default schema: its colour as hex on `Color2` through
its rgb_command_template, its white on `CT`), an ESPHome RGB lamp (JSON schema, rgb only) and an ESPHome white-only
lamp in kelvin, a plain Zigbee2MQTT dimmer, and a fountain (a switch)."""
import json

from assistant.inventory import Inventory

COLOURED = [
    ("light", "0x0017880104c3a1b2/light", {
        "name": None, "schema": "json", "command_topic": "zigbee2mqtt/Lounge Lamp/set",
        "state_topic": "zigbee2mqtt/Lounge Lamp", "brightness": True, "brightness_scale": 254,
        "supported_color_modes": ["xy", "color_temp"], "min_mireds": 153, "max_mireds": 454,
        "object_id": "lounge_lamp", "unique_id": "0x0017880104c3a1b2_light_zigbee2mqtt",
        "device": {"identifiers": ["zigbee2mqtt_0x0017880104c3a1b2"], "manufacturer": "Signify Netherlands B.V.",
                   "model": "Hue White and Color Ambiance E27", "name": "Lounge Lamp", "suggested_area": "Lounge"}}),
    ("light", "C4D5E6F7A8B9_LI_1", {
        "name": "Strip Lights", "cmd_t": "tasmota/tasmota_F7A8B9/cmnd/POWER", "stat_t": "tasmota/tasmota_F7A8B9/tele/STATE",
        "val_tpl": "{{value_json.POWER}}", "pl_off": "OFF", "pl_on": "ON", "avty_t": "tasmota/tasmota_F7A8B9/tele/LWT",
        "pl_avail": "Online", "pl_not_avail": "Offline", "uniq_id": "C4D5E6F7A8B9_LI_1",
        "bri_cmd_t": "tasmota/tasmota_F7A8B9/cmnd/Dimmer", "bri_stat_t": "tasmota/tasmota_F7A8B9/tele/STATE", "bri_scl": 100,
        "bri_val_tpl": "{{value_json.Dimmer}}", "rgb_cmd_t": "tasmota/tasmota_F7A8B9/cmnd/Color2",
        "rgb_stat_t": "tasmota/tasmota_F7A8B9/tele/STATE", "rgb_val_tpl": "{{value_json.Color.split(',')[0:3]|join(',')}}",
        "rgb_cmd_tpl": "{{'%02X%02X%02X' | format(red, green, blue)}}",
        "clr_temp_cmd_t": "tasmota/tasmota_F7A8B9/cmnd/CT", "clr_temp_stat_t": "tasmota/tasmota_F7A8B9/tele/STATE",
        "clr_temp_val_tpl": "{{value_json.CT}}",
        "dev": {"ids": ["C4D5E6F7A8B9"], "name": "Strip Lights", "mdl": "H801", "sw": "14.2.0", "mf": "Tasmota"}}),
    ("light", "desk-node/desk_lamp", {
        "name": "Desk Lamp", "~": "esphome/desknode/light/desk_lamp", "schema": "json", "cmd_t": "~/command",
        "stat_t": "~/state", "brightness": True, "color_mode": True, "supported_color_modes": ["rgb"],
        "uniq_id": "ESPlightdesk_lamp", "avty_t": "esphome/desknode/status",
        "dev": {"ids": "a4cf12b3c4e6", "name": "Desk", "sw": "esphome v2024.6.1", "mdl": "esp32dev",
                "mf": "espressif", "sa": "Study"}}),
    ("light", "hall-node/hall_pendant", {
        "name": "Hall Pendant", "~": "esphome/hallnode/light/hall_pendant", "schema": "json", "cmd_t": "~/command",
        "stat_t": "~/state", "brightness": True, "color_mode": True, "supported_color_modes": ["color_temp"],
        "color_temp_kelvin": True, "min_kelvin": 2700, "max_kelvin": 6500, "uniq_id": "ESPlighthall_pendant",
        "dev": {"ids": "a4cf12b3c4e7", "name": "Hall", "sw": "esphome v2024.6.1", "mdl": "esp32dev",
                "mf": "espressif", "sa": "Hall"}}),
    ("light", "0x000d6ffffe1a2c09/light", {
        "name": None, "schema": "json", "command_topic": "zigbee2mqtt/Bedside Lamp/set",
        "state_topic": "zigbee2mqtt/Bedside Lamp", "brightness": True, "brightness_scale": 254,
        "supported_color_modes": ["brightness"], "object_id": "bedside_lamp",
        "device": {"identifiers": ["zigbee2mqtt_0x000d6ffffe1a2c09"], "manufacturer": "IKEA",
                   "model": "TRADFRI bulb E14 opal", "name": "Bedside Lamp", "suggested_area": "Bedroom"}}),
    ("switch", "lounge-node/fountain", {
        "name": "Lounge Fountain", "~": "esphome/loungenode/switch/fountain", "cmd_t": "~/command", "stat_t": "~/state",
        "uniq_id": "ESPswitchfountain", "dev": {"ids": "a4cf12b3c4e8", "name": "Lounge", "mf": "espressif",
                                               "sa": "Lounge"}}),
]


def coloured_inventory(*more) -> Inventory:
    """COLOURED discovered, and the things more."""
    inventory = Inventory()
    for component, object_id, config in (*COLOURED, *more):
        inventory.receive_discovery(f"homeassistant/{component}/{object_id}/config", json.dumps(config))
    return inventory


# A second light in the lounge that takes no colour (ESPHome, brightness only): "the lounge lights" are two
LOUNGE_FLOOR_LIGHT = ("light", "lounge-node/floor_light", {
    "name": "Floor Light", "~": "esphome/loungenode/light/floor_light", "schema": "json", "cmd_t": "~/command",
    "stat_t": "~/state", "brightness": True, "color_mode": True, "supported_color_modes": ["brightness"],
    "uniq_id": "ESPlightfloor_light", "dev": {"ids": "a4cf12b3c4e8", "name": "Lounge", "mf": "espressif", "sa": "Lounge"}})
