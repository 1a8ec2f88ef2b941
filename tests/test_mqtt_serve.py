"""`parley serve --mqtt-host … --wyoming-port …`: the devices plug into the real server through its hook."""
import asyncio

import pytest
from wyoming.asr import Transcript
from wyoming.client import AsyncTcpClient
from wyoming.handle import Handled
from wyoming.info import Describe, Info

from conftest import LiveServer
from mqtt_broker import USERS
from mqtt_devices import home_device
from streaming.config import ServerConfig
from streaming.transports.mqtt.home import MqttHome
from streaming.transports.mqtt.satellite import SATELLITES
from streaming.server import parse_config
from streaming.transports.wyoming import WYOMING


@pytest.fixture(scope="module")
def server(broker, engines):
    options = parse_config(["--mqtt-host", broker.host, "--mqtt-port", str(broker.port), "--mqtt-username", "parley",
                            "--mqtt-password", USERS["parley"], "--wyoming-port", "0", "--audiosocket-port", "off"]).options
    server = LiveServer(ServerConfig(port=0, options=options), engines)
    yield server
    server.stop()


async def wyoming(server, event, last: str) -> list:
    async with AsyncTcpClient("127.0.0.1", server.app[WYOMING].port) as client:
        await client.write_event(event)
        events = []
        while not events or events[-1].type != last:
            events.append(await asyncio.wait_for(client.read_event(), 60))
        return events


async def test_the_server_runs_satellites_home_and_wyoming(server):
    assert isinstance(server.ctx.home, MqttHome)                # every session's tools act over MQTT
    await asyncio.wait_for(asyncio.wrap_future(asyncio.run_coroutine_threadsafe(
        server.app[SATELLITES].connected.wait(), server.loop)), 10)
    info = Info.from_event((await wyoming(server, Describe().event(), "info"))[-1])
    assert [p.name for p in info.asr + info.tts + info.handle] == ["parley-stt", "parley-tts", "parley"]


async def test_home_assistant_conversation_switches_a_light_over_mqtt(broker, server, needs_assistant):
    commands = []
    device = asyncio.create_task(home_device(broker, commands))
    await asyncio.sleep(0.3)
    try:
        events = await wyoming(server, Transcript(text="Turn off the living room light.").event(), "handled-stop")
    finally:
        device.cancel()
    assert ("home/living_room/light/set", b"OFF") in commands
    reply = Handled.from_event(next(e for e in events if e.type == "handled")).text.lower()
    assert "living room light" in reply and "off" in reply
