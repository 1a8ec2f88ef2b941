"""Discovery configs and state payloads in the shapes Zigbee2MQTT, Tasmota and ESPHome publish them (issue 23 item 4):
JSON booleans as payloads, the common value templates, brightness_scale, `~` base topics and abbreviations, and
areas that do not depend on the order configs arrive in."""
import itertools
import json

import pytest

from assistant.inventory import Inventory, entity_command
from streaming.transports.mqtt.home import _confirmed, _level, entity_state, render_template

Z2M_AVAILABILITY = [{"topic": "zigbee2mqtt/bridge/state", "value_template": "{{ value_json.state }}"}]
CONFIGS = {
    # Zigbee2MQTT: the device's name stands for the entity (name null), one JSON state object per device
    "homeassistant/binary_sensor/0x00158d0004a1b2c3/contact/config": {
        "availability": Z2M_AVAILABILITY, "device_class": "door", "name": None, "payload_on": False,
        "payload_off": True, "state_topic": "zigbee2mqtt/Cat Flap", "unique_id": "0x00158d0004a1b2c3_contact_zigbee2mqtt",
        "value_template": "{{ value_json.contact }}", "object_id": "cat_flap",
        "device": {"identifiers": ["zigbee2mqtt_0x00158d0004a1b2c3"], "manufacturer": "Aqara",
                   "model": "Door and window sensor (MCCGQ11LM)", "name": "Cat Flap", "suggested_area": "Scullery"}},
    "homeassistant/light/0x680ae2fffe4b1c2d/light/config": {
        "availability": Z2M_AVAILABILITY, "brightness": True, "brightness_scale": 254,
        "command_topic": "zigbee2mqtt/Lava Lamp/set", "name": None, "schema": "json", "state_topic": "zigbee2mqtt/Lava Lamp",
        "supported_color_modes": ["color_temp"], "unique_id": "0x680ae2fffe4b1c2d_light_zigbee2mqtt",
        "device": {"identifiers": ["zigbee2mqtt_0x680ae2fffe4b1c2d"], "manufacturer": "IKEA", "name": "Lava Lamp"}},
    "homeassistant/climate/0x842e14fffe8a7b6c/climate/config": {
        "availability": Z2M_AVAILABILITY, "name": None, "max_temp": "30", "min_temp": "5", "modes": ["off", "heat"],
        "mode_command_topic": "zigbee2mqtt/Vestry Radiator/set/system_mode", "mode_state_topic": "zigbee2mqtt/Vestry Radiator",
        "mode_state_template": "{{ value_json.system_mode }}",
        "temperature_command_topic": "zigbee2mqtt/Vestry Radiator/set/occupied_heating_setpoint",
        "temperature_state_topic": "zigbee2mqtt/Vestry Radiator",
        "temperature_state_template": "{{ value_json.occupied_heating_setpoint }}",
        "current_temperature_topic": "zigbee2mqtt/Vestry Radiator",
        "current_temperature_template": "{{ value_json.local_temperature }}",
        "unique_id": "0x842e14fffe8a7b6c_climate_zigbee2mqtt",
        "device": {"identifiers": ["zigbee2mqtt_0x842e14fffe8a7b6c"], "name": "Vestry Radiator"}},
    # Tasmota (SetOption19 1): abbreviated keys, `~` base topics, one telemetry JSON per device
    "homeassistant/light/A1B2C3_LI_1/config": {
        "name": "Samovar", "cmd_t": "~cmnd/POWER", "stat_t": "~tele/STATE", "stat_val_tpl": "{{value_json.POWER}}",
        "pl_off": "OFF", "pl_on": "ON", "avty_t": "~tele/LWT", "pl_avail": "Online", "pl_not_avail": "Offline",
        "uniq_id": "A1B2C3_LI_1", "dev": {"ids": ["A1B2C3"]}, "bri_cmd_t": "~cmnd/Dimmer", "bri_stat_t": "~tele/STATE",
        "bri_scl": 100, "on_cmd_type": "brightness", "bri_val_tpl": "{{value_json.Dimmer}}", "~": "tasmota_A1B2C3/"},
    "homeassistant/sensor/D4E5F6_DS18B20_Temperature/config": {
        "name": "Cellar DS18B20 Temperature", "stat_t": "~SENSOR", "avty_t": "~LWT", "pl_avail": "Online",
        "pl_not_avail": "Offline", "uniq_id": "D4E5F6_DS18B20_Temperature", "dev": {"ids": ["D4E5F6"]},
        "unit_of_meas": "°C", "dev_cla": "temperature", "frc_upd": True,
        "val_tpl": "{{value_json['DS18B20'].Temperature}}", "~": "tasmota_D4E5F6/tele/"},
    # ESPHome: abbreviated keys, plain state payloads, the node's friendly name before the entity's
    "homeassistant/sensor/vestry-node/humidity/config": {
        "dev_cla": "humidity", "unit_of_meas": "%", "stat_cla": "measurement", "name": "Humidity",
        "stat_t": "vestry-node/sensor/humidity/state", "avty_t": "vestry-node/status", "uniq_id": "ESPsensorhumidity",
        "dev": {"ids": "a4cf12b3c4d5", "name": "Vestry", "sw": "esphome v2024.6.0", "mdl": "esp32dev",
                "mf": "espressif", "sa": "Vestry"}},
    "homeassistant/lock/gate-node/gate_lock/config": {
        "name": "Lych Gate", "cmd_t": "gate-node/lock/lych_gate/command", "stat_t": "gate-node/lock/lych_gate/state",
        "avty_t": "gate-node/status", "uniq_id": "ESPlocklych_gate",
        "dev": {"ids": "a4cf12b3ffee", "name": "Lych Gate", "sw": "esphome v2024.6.0", "mf": "espressif"}},
}


@pytest.fixture
def home() -> dict:
    inventory = Inventory()
    for topic, config in CONFIGS.items():
        assert inventory.receive_discovery(topic, json.dumps(config)) is not None, topic
    return {e.name: e for e in inventory.entities()}


def test_zigbee2mqtt_json_booleans_templates_and_brightness_scale(home):
    flap = home["cat flap"]
    assert (flap.area, flap.device_class) == ("scullery", "door")
    assert entity_state(flap, b'{"battery":100,"contact":false,"linkquality":120,"voltage":3005}') == "on"   # open
    assert entity_state(flap, b'{"battery":100,"contact":true,"linkquality":120,"voltage":3005}') == "off"
    assert entity_state(flap, b'{"battery":100,"linkquality":120}') is None      # no contact in this report
    lamp = home["lava lamp"]
    assert entity_command(lamp, "brightness", 40) == (
        "zigbee2mqtt/Lava Lamp/set", '{"state": "ON", "brightness": 102}', "zigbee2mqtt/Lava Lamp")
    assert _confirmed(lamp, "brightness", b'{"brightness":102,"color_mode":"color_temp","state":"ON"}') == "40"
    assert _level(lamp, b'{"brightness":254,"state":"ON"}') == "100"
    radiator = home["vestry radiator"]
    report = b'{"local_temperature":18.2,"occupied_heating_setpoint":19.5,"system_mode":"heat","battery":87}'
    assert entity_command(radiator, "temperature", 21)[:2] == ("zigbee2mqtt/Vestry Radiator/set/occupied_heating_setpoint", "21")
    assert _confirmed(radiator, "temperature", report) == "19.5"
    assert _confirmed(radiator, "off", report) == "on" and _confirmed(radiator, "off", report.replace(b"heat", b"off")) == "off"


def test_tasmota_base_topics_abbreviations_and_telemetry_templates(home):
    samovar = home["samovar"]
    assert entity_command(samovar, "on")[:2] == ("tasmota_A1B2C3/cmnd/POWER", "ON")
    assert entity_command(samovar, "brightness", 40)[:2] == ("tasmota_A1B2C3/cmnd/Dimmer", "40")   # bri_scl 100
    telemetry = b'{"Time":"2026-12-02T03:00:00","Uptime":"0T01:00:00","POWER":"ON","Dimmer":40,"Wifi":{"RSSI":60}}'
    assert entity_state(samovar, telemetry) == "on" and _level(samovar, telemetry) == "40"
    assert entity_state(samovar, telemetry.replace(b'"ON"', b'"OFF"')) == "off"
    cellar = home["cellar ds18b20 temperature"]
    assert cellar.state_topic == "tasmota_D4E5F6/tele/SENSOR" and cellar.area == "cellar"
    assert entity_state(cellar, b'{"Time":"2026-12-02T03:00:00","DS18B20":{"Id":"01144A0CB2AA","Temperature":12.3},'
                                b'"TempUnit":"C"}') == "12.3"
    assert entity_state(cellar, b'{"Time":"2026-12-02T03:00:00","TempUnit":"C"}') is None


def test_esphome_plain_payloads(home):
    humidity = home["vestry humidity"]
    assert (humidity.area, humidity.state_topic) == ("vestry", "vestry-node/sensor/humidity/state")
    assert entity_state(humidity, b"48.2") == "48.2"
    gate = home["lych gate"]
    assert entity_command(gate, "unlock")[:2] == ("gate-node/lock/lych_gate/command", "UNLOCK")
    assert entity_state(gate, b"LOCKED") == "locked"


@pytest.mark.parametrize("template, payload, value", [
    ("{{ value_json.contact }}", b'{"contact": true}', "True"),
    ("{{value_json['ENERGY']['Power']}}", b'{"ENERGY": {"Power": 12}}', "12"),
    ('{{ value_json["state"] }}', b'{"state": "ON"}', "ON"),
    ("{{ value_json.values[1] }}", b'{"values": [1, 2]}', "2"),
    ("{{ value }}", b"21.5", "21.5"),
    ("{{ value_json.contact | lower }}", b'{"contact": true}', None),                  # a filter: not read
    ("{{ 'ON' if value_json.power > 5 else 'OFF' }}", b'{"power": 9}', None),           # a condition: not read
    ("{{ value_json.missing }}", b'{"contact": true}', None),
    ("{{ value_json.contact }}", b"not json", None),
])
def test_templates_read_keys_and_fail_closed_otherwise(template, payload, value):
    assert render_template(template, payload) == value


def test_a_template_that_cannot_be_read_leaves_the_state_unknown():
    inventory = Inventory()
    entity = inventory.receive_discovery("homeassistant/binary_sensor/x/config", json.dumps({
        "name": "Dovecote Door", "state_topic": "z2m/dovecote", "payload_on": "true", "payload_off": "false",
        "value_template": "{{ value_json.contact | string | lower }}"}))
    assert entity_state(entity, b'{"contact": true, "state": "ON"}') is None


CHAPEL = [("homeassistant/light/chapel_lamp/config", {"name": "Chapel Lamp", "command_topic": "c/lamp"}),
          ("homeassistant/fan/chapel_fan/config", {"name": None, "command_topic": "c/fan",
                                                   "device": {"name": "Chapel Fan", "suggested_area": "Chapel"}}),
          ("homeassistant/switch/porch_heater/config", {"name": "Porch Heater", "command_topic": "p/heater"})]


@pytest.mark.parametrize("order", list(itertools.permutations(range(len(CHAPEL)))))
def test_areas_do_not_depend_on_the_order_configs_arrive_in(order):
    inventory = Inventory()
    for i in order:
        inventory.receive_discovery(CHAPEL[i][0], json.dumps(CHAPEL[i][1]))
    assert {e.name: e.area for e in inventory.entities()} == {
        "chapel lamp": "chapel", "chapel fan": "chapel", "porch heater": "porch"}
    inventory.receive_discovery(CHAPEL[1][0], b"")                     # the area's only suggestion leaves
    assert inventory.get("light/chapel_lamp").area is None and inventory.areas() == {"porch"}
