"""Covers that take a position and water valves, each as its publisher announces it over Home Assistant MQTT
discovery: a Zigbee2MQTT roller blind (IKEA FYRTUR: its position on the device's JSON state, set through
`set_position_template`), an ESPHome time-based cover (`pos_t` / `set_pos_t` under its `~` base), Zigbee2MQTT
curtains with no position (open, close and stop only), an ESPHome valve that reports no position and a valve whose
`reports_position` state is its position, 0 to 255 (`position_closed` / `position_open`), all under the topic
prefixes the shipped ACL allows."""
Z2M_ORIGIN = {"name": "Zigbee2MQTT", "sw": "1.40.2", "url": "https://www.zigbee2mqtt.io"}


def _z2m_cover(ieee: str, name: str, model: str, area: str, **config) -> tuple[str, str, dict]:
    return ("cover", f"{ieee}/cover", {
        "name": None, "object_id": name.lower().replace(" ", "_"), "origin": Z2M_ORIGIN,
        "unique_id": f"{ieee}_cover_zigbee2mqtt", "command_topic": f"zigbee2mqtt/{name}/set",
        "state_topic": f"zigbee2mqtt/{name}", "value_template": "{{ value_json.state }}",
        "state_open": "OPEN", "state_closed": "CLOSE", "state_stopped": "STOP",
        "device": {"identifiers": [f"zigbee2mqtt_{ieee}"], "manufacturer": "IKEA", "model": model, "name": name,
                   "suggested_area": area}, **config})


BEDROOM_BLINDS = _z2m_cover(
    "0x000d6ffffe3c4d01", "Bedroom Blinds", "FYRTUR block-out roller blind", "Bedroom", device_class="blind",
    position_topic="zigbee2mqtt/Bedroom Blinds", position_template="{{ value_json.position }}",
    set_position_topic="zigbee2mqtt/Bedroom Blinds/set", set_position_template='{ "position": {{ position }} }')
LOUNGE_CURTAINS = _z2m_cover("0x000d6ffffe3c4d02", "Lounge Curtains", "Curtain motor", "Lounge",
                             device_class="curtain")
KITCHEN_BLINDS = ("cover", "kitchen-node/blinds", {
    "~": "esphome/kitchen-node/cover/blinds", "name": "Kitchen Blinds", "uniq_id": "ESPcoverblinds",
    "stat_t": "~/state", "cmd_t": "~/command", "pos_t": "~/position/state", "set_pos_t": "~/position/command",
    "dev_cla": "blind",
    "dev": {"ids": "a4cf12kitc00", "name": "Kitchen Blinds", "sa": "Kitchen", "mf": "espressif", "mdl": "esp32dev"}})
MAIN_WATER_VALVE = ("valve", "utility-node/main_water_valve", {
    "~": "esphome/utility-node/valve/main_water_valve", "name": "Main Water Valve", "uniq_id": "ESPvalvemain",
    "stat_t": "~/state", "cmd_t": "~/command", "dev_cla": "water",
    "dev": {"ids": "a4cf12util00", "name": "Main Water Valve", "sa": "Utility Room", "mf": "espressif",
            "mdl": "esp32dev"}})
GARDEN_VALVE = ("valve", "garden-node/garden_valve", {
    "~": "esphome/garden-node/valve/garden_valve", "name": "Garden Valve", "uniq_id": "ESPvalvegarden",
    "stat_t": "~/state", "cmd_t": "~/command", "dev_cla": "water", "reports_position": True,
    "position_open": 255, "position_closed": 0,
    "dev": {"ids": "a4cf12gard00", "name": "Garden Valve", "sa": "Garden", "mf": "espressif", "mdl": "esp32dev"}})
COVERED = [BEDROOM_BLINDS, LOUNGE_CURTAINS, KITCHEN_BLINDS, MAIN_WATER_VALVE, GARDEN_VALVE]
