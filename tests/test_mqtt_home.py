"""MqttHome against a real Mosquitto and a simulated home device that answers like Zigbee2MQTT does."""
import asyncio
import contextlib
import json

import aiomqtt
import pytest

from mqtt_broker import USERS, Mosquitto
from mqtt_devices import home_device
from assistant.inventory import command_topic, sensor_topic, slug
from assistant.tools import ToolRunner
from streaming.transports.mqtt.connection import Backoff, MqttSettings
from streaming.transports.mqtt.home import (MqttHome, brightness_percent, on_off, parse_number, parse_state,
                                            thermostat_degrees)


def test_topics_use_home_assistant_style_slugs():
    assert slug(" Living Room ") == "living_room"
    assert command_topic("living room", "Light") == "home/living_room/light/set"
    assert sensor_topic("kitchen", "temperature") == "home/kitchen/sensor/temperature"


def test_state_payloads_are_parsed_or_refused():
    assert parse_state(b"ON") == {"state": "ON"}
    assert parse_state(b'{"state": "on", "brightness": 128}') == {"state": "ON", "brightness": 128}
    assert parse_state(b"{broken") is None and parse_state(b'{"state": "dim"}') is None
    assert on_off(b"OFF") == "off"
    assert brightness_percent(b'{"state": "ON", "brightness": 255}') == 100
    assert brightness_percent(b'{"state": "OFF"}') == 0
    assert brightness_percent(b"ON") is None   # no level reported: not a confirmation of one
    assert thermostat_degrees(b'{"target": 21.5}') == 21.5 and thermostat_degrees(b"19") == 19.0
    assert parse_number(b"true") is None and parse_number(b"warm") is None


def settings(broker, user="parley") -> MqttSettings:
    return MqttSettings(host=broker.host, port=broker.port, username=user, password=USERS[user])


@pytest.fixture
async def home_and_device(broker):
    async with settings(broker, "home").client() as client:
        await client.publish("home/kitchen/sensor/temperature", "21.5", qos=1, retain=True)
    commands = []
    device = asyncio.create_task(home_device(broker, commands, silent_rooms=("garage",)))
    home = MqttHome(settings(broker), confirm_timeout=1.5, backoff=Backoff(initial=0.1, maximum=0.5))
    await home.start()
    await home.wait_connected(5)
    await asyncio.sleep(0.2)   # let the device subscribe
    yield home, commands
    await home.close()
    device.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await device


async def retained(broker, topic: str) -> bytes:
    async with settings(broker).client() as client:
        await client.subscribe(topic)
        async for message in client.messages:
            return bytes(message.payload)


async def test_switching_publishes_on_and_reports_the_confirmed_state(home_and_device, broker):
    home, commands = home_and_device
    assert await home.set_device("light", "kitchen", "on") == "on"
    assert ("home/kitchen/light/set", b"ON") in commands
    assert await retained(broker, "home/kitchen/light/state") == b"ON"
    assert await home.set_device("fan", "living room", "off") == "off"
    assert ("home/living_room/fan/set", b"OFF") in commands


async def test_brightness_and_thermostat_report_what_the_device_confirms(home_and_device):
    home, commands = home_and_device
    assert await home.set_brightness("bedroom", 50) == 50
    topic, payload = commands[-1]
    assert topic == "home/bedroom/light/set" and json.loads(payload) == {"state": "ON", "brightness": 128}
    assert await home.set_thermostat(21.5) == 21.5
    assert commands[-1] == ("home/thermostat/set", b"21.5")
    tools = ToolRunner(home)                          # "make it brighter": a step up from the reported 50
    assert await tools.run("change_brightness", {"room": "bedroom", "direction": "up"}) == "75 percent"
    assert json.loads(commands[-1][1]) == {"state": "ON", "brightness": 191}


async def test_sensors_come_from_retained_readings(home_and_device):
    home, _ = home_and_device
    assert await home.read_sensor("kitchen", "temperature") == 21.5
    assert await home.read_sensor("attic", "humidity") is None


async def test_a_device_that_never_answers_is_unconfirmed(home_and_device):
    home, commands = home_and_device
    assert await home.set_device("light", "garage", "on") is None
    assert ("home/garage/light/set", b"ON") in commands


async def test_without_a_broker_commands_are_unconfirmed_not_stuck(tmp_path):
    home = MqttHome(MqttSettings(host="127.0.0.1", port=1, username="parley", password="x"), confirm_timeout=0.5,
                    backoff=Backoff(initial=0.1, maximum=0.2))
    await home.start()
    assert await home.set_device("light", "kitchen", "on") is None
    await home.close()


async def test_tls_and_login_come_from_configuration(tmp_path):
    broker = Mosquitto(tmp_path, tls=True)
    broker.start()
    try:
        secure = MqttSettings(host=broker.host, port=broker.port, username="parley", password=USERS["parley"],
                              ca_file=str(broker.ca_file))
        async with secure.client() as client:                   # verified against the CA, logged in
            await client.publish("home/hall/sensor/temperature", "19", qos=1, retain=True)
        home = MqttHome(secure, confirm_timeout=1.0)
        await home.start()
        await home.wait_connected(5)
        assert await home.read_sensor("hall", "temperature") == 19.0
        await home.close()
        for wrong in (MqttSettings(host=broker.host, port=broker.port, username="parley", password=USERS["parley"]),
                      MqttSettings(host=broker.host, port=broker.port, username="parley", password="guess",
                                   ca_file=str(broker.ca_file))):
            with pytest.raises((aiomqtt.MqttError, TimeoutError)):   # plain TCP to a TLS port; a wrong password
                async with asyncio.timeout(2), wrong.client():
                    pass
    finally:
        broker.stop()
