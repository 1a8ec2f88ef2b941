"""The assistant's home tools acting through MQTT, in Home Assistant's style, so they really switch lights.

Commands go to `home/<room>/<device>/set` (`ON`/`OFF`, or JSON `{"state": "ON", "brightness": 0-255}`;
the thermostat takes its target degrees on `home/thermostat/set`). Devices answer on the retained
`home/<room>/<device>/state` (`home/thermostat/state`); sensors publish retained `home/<room>/sensor/<kind>`.
A command's answer is the state the device reports within `confirm_timeout`, or None: the assistant must
not claim a light is on when nothing confirmed it. Room and device names become topic levels as lower-case
words joined by `_` ("living room" → `living_room`).
"""
import asyncio
import json
import logging
import re
from typing import Callable, TypeVar

import aiomqtt

from streaming.transports.mqtt.connection import Backoff, MqttSettings, stay_connected

log = logging.getLogger("parley.mqtt_home")
T = TypeVar("T")

THERMOSTAT_SET = "home/thermostat/set"
THERMOSTAT_STATE = "home/thermostat/state"


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.strip().lower()).strip("_")


def command_topic(room: str, device: str) -> str:
    return f"home/{slug(room)}/{slug(device)}/set"


def state_topic(room: str, device: str) -> str:
    return f"home/{slug(room)}/{slug(device)}/state"


def sensor_topic(room: str, kind: str) -> str:
    return f"home/{slug(room)}/sensor/{slug(kind)}"


def parse_state(payload: bytes) -> dict | None:
    """`ON`/`OFF` or a JSON object with "state" (and maybe "brightness") → {"state": "ON"|"OFF", ...}."""
    text = payload.decode("utf-8", "replace").strip()
    if text.upper() in ("ON", "OFF"):
        return {"state": text.upper()}
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict) or str(data.get("state", "")).upper() not in ("ON", "OFF"):
        return None
    return {**data, "state": str(data["state"]).upper()}


def parse_number(payload: bytes, keys: tuple[str, ...] = ("value",)) -> float | None:
    """A plain number (`21.5`) or a JSON object carrying it under one of `keys`."""
    try:
        data = json.loads(payload.decode("utf-8", "replace"))
    except ValueError:
        return None
    if isinstance(data, dict):
        data = next((data[k] for k in keys if k in data), None)
    if isinstance(data, bool) or not isinstance(data, (int, float)):
        return None
    return float(data)


def on_off(payload: bytes) -> str | None:
    state = parse_state(payload)
    return state["state"].lower() if state else None


def brightness_percent(payload: bytes) -> int | None:
    state = parse_state(payload)
    if state is None:
        return None
    if state["state"] == "OFF":
        return 0
    brightness = state.get("brightness")
    if isinstance(brightness, bool) or not isinstance(brightness, (int, float)):
        return None
    return round(float(brightness) * 100 / 255)


def thermostat_degrees(payload: bytes) -> float | None:
    return parse_number(payload, keys=("target", "temperature", "value"))


class MqttHome:
    """Implements assistant.tools.Home over one broker connection, shared by every session of a server."""

    def __init__(self, settings: MqttSettings, confirm_timeout: float = 1.5, backoff: Backoff | None = None):
        self.settings = settings
        self.confirm_timeout = confirm_timeout
        self._backoff = backoff
        self._client: aiomqtt.Client | None = None
        self._connected = asyncio.Event()
        self._retained: dict[str, bytes] = {}     # latest payload per home/ topic
        self._waiters: dict[str, list[tuple[asyncio.Future, Callable[[bytes], object], bool]]] = {}
        self._task: asyncio.Task | None = None

    async def start(self) -> None:
        self._task = asyncio.create_task(
            stay_connected(self.settings, "home", self._serve, backoff=self._backoff), name="mqtt-home")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    async def wait_connected(self, timeout: float) -> None:
        await asyncio.wait_for(self._connected.wait(), timeout)

    async def _serve(self, client: aiomqtt.Client) -> None:
        await client.subscribe("home/#", qos=1)
        self._client = client
        self._connected.set()
        try:
            async for message in client.messages:
                self._receive(str(message.topic), bytes(message.payload), message.retain)
        finally:
            self._client = None
            self._connected.clear()

    def _receive(self, topic: str, payload: bytes, retained: bool) -> None:
        """retained=True marks a stored message replayed on (re)subscribing: it is no confirmation."""
        self._retained[topic] = payload
        for future, parse, fresh_only in self._waiters.get(topic, []):
            value = parse(payload)
            if value is not None and not future.done() and not (fresh_only and retained):
                future.set_result(value)

    async def _wait_for(self, topic: str, parse: Callable[[bytes], T | None],
                        publish: tuple[str, str] | None = None) -> T | None:
        """Publish a command (if any), then wait for the next message on `topic` that `parse` accepts."""
        future = asyncio.get_running_loop().create_future()
        entry = (future, parse, publish is not None)
        self._waiters.setdefault(topic, []).append(entry)
        try:
            if publish is not None:
                client = self._client
                if client is None:
                    return None
                await client.publish(publish[0], publish[1], qos=1)
            return await asyncio.wait_for(future, self.confirm_timeout)
        except (asyncio.TimeoutError, aiomqtt.MqttError):
            return None
        finally:
            self._waiters[topic].remove(entry)

    async def set_device(self, device: str, room: str, state: str) -> str | None:
        command = "ON" if state.strip().lower() == "on" else "OFF"
        return await self._wait_for(state_topic(room, device), on_off, (command_topic(room, device), command))

    async def set_brightness(self, room: str, percent: int) -> int | None:
        percent = max(0, min(100, int(percent)))
        command = json.dumps({"state": "ON" if percent else "OFF", "brightness": round(percent * 255 / 100)})
        return await self._wait_for(state_topic(room, "light"), brightness_percent, (command_topic(room, "light"), command))

    async def set_thermostat(self, degrees: float) -> float | None:
        return await self._wait_for(THERMOSTAT_STATE, thermostat_degrees, (THERMOSTAT_SET, f"{float(degrees):g}"))

    async def read_sensor(self, room: str, kind: str) -> float | None:
        """The retained reading; right after connecting it may still be on its way, so wait briefly."""
        topic = sensor_topic(room, kind)
        if topic in self._retained:
            return parse_number(self._retained[topic])
        return await self._wait_for(topic, parse_number)
