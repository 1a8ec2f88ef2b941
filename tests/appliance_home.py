"""Robot vacuums and buttons, each as its publisher announces it over Home Assistant MQTT discovery: Valetudo's
robot (the vacuum "state" schema: its JSON state with `state`, `battery_level` and `fan_speed`, its fan speed
presets, its basic control commands), a vacuum that lists fewer features (no pause, no fan speed), ESPHome's
restart button of the router's relay board and doorbell button of the porch node (`~` base topics, abbreviated keys,
`payload_press` left to its default "PRESS", under the topic prefix the shipped ACL allows), and Zigbee2MQTT's
identify button of a bulb (its JSON payload)."""
ROCKY = ("vacuum", "valetudo_shinybiggoose/vacuum", {
    "name": None, "uniq_id": "ShinyBigGoose_vacuum", "schema": "state",
    "avty_t": "valetudo/ShinyBigGoose/$state", "pl_avail": "ready", "pl_not_avail": "lost",
    "cmd_t": "valetudo/ShinyBigGoose/BasicControlCapability/operation/set",
    "pl_strt": "START", "pl_paus": "PAUSE", "pl_stop": "STOP", "pl_ret": "HOME", "pl_loc": "PERFORM",
    "stat_t": "valetudo/ShinyBigGoose/hass/ShinyBigGoose_vacuum/state",
    "json_attr_t": "valetudo/ShinyBigGoose/hass/ShinyBigGoose_vacuum/attributes",
    "sup_feat": ["battery", "status", "start", "stop", "pause", "return_home", "locate", "fan_speed"],
    "fanspd_lst": ["low", "medium", "high", "max", "turbo"],
    "set_fan_spd_t": "valetudo/ShinyBigGoose/FanSpeedControlCapability/preset/set",
    "dev": {"ids": ["ShinyBigGoose"], "name": "Rocky", "mf": "Roborock", "mdl": "S5",
            "sw": "Valetudo 2024.06.0", "sa": "Hall"}})
# a plainer robot: start, stop and home only, no fan speeds
DUSTY = ("vacuum", "dusty", {
    "name": "Dusty", "schema": "state", "command_topic": "dusty/command", "state_topic": "dusty/state",
    "supported_features": ["start", "stop", "return_home", "status"]})
ROUTER_RESTART = ("button", "router-relay/restart", {
    "~": "esphome/router-relay/button/restart", "name": "Restart", "uniq_id": "routerrelaybuttonrestart",
    "dev_cla": "restart", "cmd_t": "~/command", "avty_t": "esphome/router-relay/status", "ent_cat": "config",
    "dev": {"ids": "a4cf12r0u7e5", "name": "Router", "sw": "esphome v2024.6.1", "mdl": "esp01_1m",
            "mf": "espressif", "sa": "Study"}})
DOORBELL = ("button", "porch-node/doorbell", {
    "~": "esphome/porch-node/button/doorbell", "name": "Doorbell", "uniq_id": "porchnodebuttondoorbell",
    "cmd_t": "~/command", "avty_t": "esphome/porch-node/status",
    "dev": {"ids": "a4cf12p0r4c8", "name": "Porch", "sw": "esphome v2024.6.1", "mdl": "esp32dev",
            "mf": "espressif", "sa": "Porch"}})
BULB_IDENTIFY = ("button", "0x0017880104a1b2c3/identify", {
    "name": "Identify", "object_id": "larder_bulb_identify", "device_class": "identify", "entity_category": "config",
    "command_topic": "zigbee2mqtt/Larder bulb/set", "payload_press": '{"identify": "identify"}',
    "availability_topic": "zigbee2mqtt/bridge/state", "unique_id": "0x0017880104a1b2c3_identify_zigbee2mqtt",
    "device": {"identifiers": ["zigbee2mqtt_0x0017880104a1b2c3"], "name": "Larder bulb", "model": "Hue White A60",
               "manufacturer": "Philips"}})
APPLIANCES = [ROCKY, ROUTER_RESTART, DOORBELL, BULB_IDENTIFY]

ROCKY_STATE = "valetudo/ShinyBigGoose/hass/ShinyBigGoose_vacuum/state"
# The activity each of Valetudo's basic control commands leaves the robot in
VALETUDO_ACTIVITIES = {"START": "cleaning", "PAUSE": "paused", "STOP": "idle", "HOME": "returning"}


async def play_appliances(broker, commands: list) -> None:
    """Valetudo's robot and the buttons: every command is noted; the robot answers a basic control command or a fan
    speed with its whole JSON state (its activity, its battery, its fan speed), retained, as Valetudo does."""
    import json

    from mqtt_devices import login

    state = {"state": "docked", "battery_level": 87, "fan_speed": "max"}
    async with login(broker, "home").client() as client:
        await client.publish(ROCKY_STATE, json.dumps(state), qos=1, retain=True)
        for prefix in ("valetudo/ShinyBigGoose/+/+/set", "esphome/+/button/+/command", "zigbee2mqtt/+/set"):
            await client.subscribe(prefix, qos=1)
        async for message in client.messages:
            topic, payload = str(message.topic), bytes(message.payload)
            commands.append((topic, payload))
            if topic.endswith("/operation/set") and payload.decode() in VALETUDO_ACTIVITIES:
                state["state"] = VALETUDO_ACTIVITIES[payload.decode()]
            elif topic.endswith("/preset/set"):
                state["fan_speed"] = payload.decode()
            else:
                continue
            await client.publish(ROCKY_STATE, json.dumps(state), qos=1, retain=True)
