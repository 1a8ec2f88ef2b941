"""Test-side MQTT actors: a voice satellite that speaks the topic contract, and a home device that answers
commands with retained state as Zigbee2MQTT does. Both are plain aiomqtt clients with their own logins."""
import asyncio
import contextlib
import json
import time

import aiomqtt

from mqtt_broker import USERS
from streaming.transports.mqtt.connection import MqttSettings


def login(broker, user: str) -> MqttSettings:
    return MqttSettings(host=broker.host, port=broker.port, username=user, password=USERS[user])


class SatelliteDevice:
    """parley/<id>/...: publishes audio/control/text, collects events and the reply audio."""

    def __init__(self, broker, device_id: str):
        self.id = device_id
        self.settings = login(broker, device_id)
        self.events: asyncio.Queue = asyncio.Queue()
        self.audio = bytearray()
        self.audio_arrived: float | None = None     # monotonic time the first chunk came into an empty buffer
        self.client: aiomqtt.Client | None = None
        self._stack = contextlib.AsyncExitStack()
        self._reader: asyncio.Task | None = None

    async def __aenter__(self):
        will = aiomqtt.Will(f"parley/{self.id}/status", "offline", qos=1, retain=True)
        self.client = await self._stack.enter_async_context(self.settings.client(will))
        await self.client.subscribe(f"parley/{self.id}/events", qos=1)
        await self.client.subscribe(f"parley/{self.id}/audio/out", qos=0)
        await self.client.publish(f"parley/{self.id}/status", "online", qos=1, retain=True)
        self._reader = asyncio.create_task(self._read())
        return self

    async def __aexit__(self, *exc):
        self._reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, aiomqtt.MqttError):
            await self._reader
        with contextlib.suppress(aiomqtt.MqttError):
            await self._stack.aclose()

    async def _read(self):
        async for message in self.client.messages:
            if str(message.topic).endswith("/audio/out"):
                if not self.audio:
                    self.audio_arrived = time.monotonic()
                self.audio += bytes(message.payload)
            else:
                self.events.put_nowait(json.loads(message.payload))

    async def publish(self, channel: str, payload, qos: int = 1) -> None:
        await self.client.publish(f"parley/{self.id}/{channel}", payload, qos=qos)

    async def control(self, kind: str) -> None:
        await self.publish("control", json.dumps({"type": kind}))

    async def speak(self, pcm16: bytes, chunk: int = 1234 * 2) -> None:
        """Stream audio as a microphone would, in odd-sized (but whole-sample) chunks."""
        for offset in range(0, len(pcm16), chunk):
            await self.publish("audio/in", pcm16[offset:offset + chunk], qos=0)
            await asyncio.sleep(0.002)

    async def next_event(self, kind: str, timeout: float = 60) -> dict:
        """The next event of this type; events of other types before it are dropped."""
        async with asyncio.timeout(timeout):
            while True:
                event = await self.events.get()
                if event["type"] == kind:
                    return event

    async def events_until(self, kind: str, timeout: float = 60) -> list[dict]:
        seen = []
        async with asyncio.timeout(timeout):
            while not seen or seen[-1]["type"] != kind:
                seen.append(await self.events.get())
        return seen


@contextlib.asynccontextmanager
async def playing(device, broker):
    """A device player (home_device, made_up_home.play_devices) running beside the test: yields the list of
    commands it was told, once it has had time to subscribe."""
    commands: list = []
    task = asyncio.create_task(device(broker, commands))
    await asyncio.sleep(0.3)
    try:
        yield commands
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def home_device(broker, commands: list, silent_rooms=()) -> None:
    """Applies every home/<room>/<device>/set command and publishes the state, retained."""
    async with login(broker, "home").client() as client:
        await client.subscribe("home/+/+/set", qos=1)
        await client.subscribe("home/thermostat/set", qos=1)
        async for message in client.messages:
            topic, payload = str(message.topic), bytes(message.payload)
            commands.append((topic, payload))
            if any(f"home/{room}/" in topic for room in silent_rooms):
                continue
            if topic == "home/thermostat/set":
                await client.publish("home/thermostat/state", json.dumps({"target": float(payload)}), qos=1, retain=True)
            else:
                await client.publish(topic.removesuffix("/set") + "/state", payload, qos=1, retain=True)


async def wait_until(predicate, timeout: float = 10, step: float = 0.05) -> None:
    async with asyncio.timeout(timeout):
        while not predicate():
            await asyncio.sleep(step)
