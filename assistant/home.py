"""The home the tools act on. Home is a protocol so the MQTT-backed home (streaming/transports/mqtt/home.py)
and the in-memory one are interchangeable."""
from dataclasses import dataclass, field
from typing import Protocol

from assistant.vocabulary import ROOMS


class Home(Protocol):
    async def set_device(self, device: str, room: str, state: str) -> str | None: ...
    async def set_brightness(self, room: str, percent: int) -> int | None: ...
    async def set_thermostat(self, degrees: float) -> float | None: ...
    async def read_sensor(self, room: str, kind: str) -> float | None: ...


@dataclass
class InMemoryHome:
    """A home whose devices always confirm; sensors read plausible fixed values per room."""

    devices: dict[tuple[str, str], str] = field(default_factory=dict)
    brightness: dict[str, int] = field(default_factory=dict)
    thermostat: float = 21.0
    sensors: dict[tuple[str, str], float] = field(default_factory=lambda: {
        **{(room, "temperature"): 20.0 + i * 0.5 for i, room in enumerate(ROOMS)},
        **{(room, "humidity"): 40.0 + i * 2 for i, room in enumerate(ROOMS)},
    })

    async def set_device(self, device: str, room: str, state: str) -> str | None:
        self.devices[(device, room)] = state
        return state

    async def set_brightness(self, room: str, percent: int) -> int | None:
        self.brightness[room] = percent
        self.devices[("light", room)] = "on" if percent > 0 else "off"
        return percent

    async def set_thermostat(self, degrees: float) -> float | None:
        self.thermostat = degrees
        return degrees

    async def read_sensor(self, room: str, kind: str) -> float | None:
        return self.sensors.get((room, kind))
