"""The home the tools act on. Home is a protocol so the MQTT-backed home (streaming/transports/mqtt/home.py)
and the in-memory one are interchangeable.

Every home has an inventory (assistant.inventory): the default one is the vocabulary's rooms and devices,
a user's own comes from Home Assistant discovery or a file. The room/device methods serve the original
tools (set_device, ...); `command` and `read_state` serve any entity of the inventory.
"""
import json
from dataclasses import dataclass, field
from typing import Protocol

from assistant.inventory import APPLIANCES, LEVEL_ACTIONS, MODE_ACTIONS, Entity, Inventory, vocabulary_inventory
from assistant.vocabulary import ROOMS
from assistant.inventory import COLOUR_ACTIONS, MEDIA_STATE

# What an entity reads as before anyone has told the in-memory home otherwise.
INITIAL_STATE = {"light": "off", "switch": "off", "fan": "off", "media_player": "off", "climate": "on",
                 "cover": "closed", "lock": "locked", "binary_sensor": "off", "sensor": "21", "valve": "closed",
                 "humidifier": "off", "water_heater": "on"}
# The state an action leaves an entity in.
ACTION_STATE = {"on": "on", "off": "off", "open": "open", "close": "closed", "stop": "stopped", "lock": "locked",
                "unlock": "unlocked", "activate": "activated"}
# and a vacuum's commands (Home Assistant's vacuum activities) and a button's press
APPLIANCE_STATE = {"start": "cleaning", "pause": "paused", "stop": "idle", "return_to_base": "returning",
                   "locate": "idle", "clean_spot": "cleaning", "press": "pressed"}


class Home(Protocol):
    inventory: Inventory

    async def set_device(self, device: str, room: str, state: str) -> str | None: ...
    async def set_brightness(self, room: str, percent: int) -> int | None: ...
    async def set_thermostat(self, degrees: float) -> float | None: ...
    async def read_sensor(self, room: str, kind: str) -> float | None: ...
    async def command(self, entity: Entity, action: str, value: float | None = None) -> str | None:
        """Do action ("on", "off", "open", "close", "stop", "lock", "unlock", "activate", "brightness" or a
        fan's "speed" or a cover's or valve's "position" or a humidifier's "humidity" with a percent, "temperature"
        with degrees, "mode" or a climate's "fan_mode" or "swing_mode"
        with one of its modes, inventory.MODE_ACTIONS); the state the
        device confirms ("on", "closed", "locked", "40", "cool", ...) or None when nothing confirmed it."""
    async def read_state(self, entity: Entity) -> str | None:
        """The entity's last reported state ("on", "open", "locked", "21.5", ...), or None if unknown."""
    async def read_mode(self, entity: Entity, action: str = "mode") -> str | None:
        """The mode a thing last reported (its mode or preset mode state topic; for the action "fan_mode" or
        "swing_mode", inventory.MODE_ACTIONS, a climate's fan or swing mode), "" when what it reported is none of
        its modes (Zigbee2MQTT's preset "None"), or None if unknown."""
    async def read_target(self, entity: Entity) -> float | None:
        """The temperature a climate was last set to (its target, as it reported it), or None if unknown."""
    async def read_tilt(self, entity: Entity) -> int | None:
        """A cover's last reported tilt in percent (0 closed, 100 open), or None if unknown."""
    async def read_battery(self, entity: Entity) -> int | None:
        """A vacuum's last reported battery in percent, or None if unknown."""
    async def read_level(self, entity: Entity) -> int | None:
        """A light's last reported brightness or a fan's speed in percent (0 when off), or None if unknown."""
    async def read_colour(self, entity: Entity) -> tuple[str, object] | None:
        """A light's colour as it last reported it: ("rgb", (red, green, blue)) or ("kelvin", its white's
        temperature); None where it reported none."""
    def takes_level(self, entity: Entity) -> bool:
        """The entity takes a level in percent (LEVEL_ACTIONS): a fan with only on and off does not."""
    async def read_position(self, entity: Entity) -> int | None:
        """A cover's or valve's last reported position in percent (0 closed, 100 open), or None if unknown."""
    async def read_media(self, entity: Entity, part: str) -> str | None:
        """A media player's last reported "volume" (in percent), "title" or "artist", or None if unknown."""


def default_key(entity: Entity) -> tuple[str, str] | None:
    """(room, device) of an entity of the vocabulary inventory."""
    if not entity.key.startswith("default:") or entity.key.count("/") != 1:
        return None
    room, device = entity.key.removeprefix("default:").split("/")
    return room, device


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
    inventory: Inventory = field(default_factory=vocabulary_inventory)
    states: dict[str, str] = field(default_factory=dict)       # entity key -> state, for the user's own entities

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

    async def command(self, entity: Entity, action: str, value: float | None = None) -> str | None:
        where = default_key(entity)
        if where is not None:          # the vocabulary's own devices keep one state, whichever tool set it
            room, device = where
            if action == "brightness":
                return str(await self.set_brightness(room, int(value)))
            if action == "speed":
                self.states[entity.key + "#speed"] = str(int(value))
                state = await self.set_device(device, room, "on" if value else "off")
                return None if state is None else str(int(value))
            return await self.set_device(device, room, action)
        if entity.key == "default:thermostat" and action == "temperature":
            return f"{await self.set_thermostat(float(value)):g}"
        if action in ("brightness", "speed"):
            self.states[entity.key] = "on" if value else "off"
            self.states[f"{entity.key}#{action}"] = str(int(value))
            if action == "speed" and "preset_mode" in entity.modes:    # as Home Assistant's fan.set_percentage
                self.states[entity.key + "#mode"] = ""                 # clears its preset: none of its modes
            return str(int(value))
        if action in ("temperature", "humidity"):
            self.states[entity.key + "#target"] = f"{float(value):g}"
            return f"{float(value):g}"
        if entity.component == "media_player" and action == "volume":
            self.states[entity.key + "#volume"] = str(int(value))
            return str(int(value))
        if entity.component == "media_player" and action in ("next", "previous", *MEDIA_STATE):
            if action in ("next", "previous"):      # the track the player reports next is not known here
                self.states.pop(entity.key + "#title", None)
                self.states.pop(entity.key + "#artist", None)
            self.states[entity.key] = MEDIA_STATE.get(action, "playing")
            return self.states[entity.key]
        if action == "position" or entity.positions is not None and action in ("open", "close"):
            percent = {"open": 100, "close": 0}.get(action, value)
            self.states[entity.key] = "open" if percent else "closed"
            self.states[entity.key + "#position"] = str(int(percent))
            return str(int(percent)) if action == "position" else self.states[entity.key]
        if action in COLOUR_ACTIONS:            # a colour's red, green and blue, or a white's kelvin
            self.states[entity.key] = "on"
            self.states[entity.key + "#colour"] = json.dumps([action, value])
            return "on"
        if action == "tilt":
            self.states[entity.key + "#tilt"] = str(round(value))
            return self.states[entity.key + "#tilt"]
        if action in MODE_ACTIONS:
            self.states[f"{entity.key}#{action}"] = str(value)
            return str(value)
        if entity.component in APPLIANCES:
            self.states[entity.key] = APPLIANCE_STATE[action]
            return APPLIANCE_STATE[action]
        self.states[entity.key] = ACTION_STATE[action]
        return ACTION_STATE[action]

    async def read_state(self, entity: Entity) -> str | None:
        where = default_key(entity)
        if where is not None:
            room, device = where
            return self.devices.get((device, room), "off")
        if entity.key.startswith("default:") and entity.component == "sensor":
            room = next(r for r in ROOMS if entity.key == f"default:{r}/sensor/{entity.device_class}")
            value = await self.read_sensor(room, entity.device_class)
            return None if value is None else f"{value:g}"
        if entity.key == "default:thermostat":
            return f"{self.thermostat:g}"
        return self.states.get(entity.key, INITIAL_STATE.get(entity.component))

    async def read_mode(self, entity: Entity, action: str = "mode") -> str | None:
        return self.states.get(f"{entity.key}#{action}")

    async def read_battery(self, entity: Entity) -> int | None:
        battery = self.states.get(entity.key + "#battery")
        return None if battery is None else int(battery)

    async def read_tilt(self, entity: Entity) -> int | None:
        tilt = self.states.get(entity.key + "#tilt")
        return None if tilt is None else int(tilt)

    async def read_target(self, entity: Entity) -> float | None:
        if entity.key == "default:thermostat":
            return self.thermostat
        target = self.states.get(entity.key + "#target")
        return None if target is None else float(target)

    async def read_level(self, entity: Entity) -> int | None:
        where = default_key(entity)
        if where is not None:
            room, device = where
            if self.devices.get((device, room), "off") == "off":
                return 0
            if device != "fan":
                return self.brightness.get(room)
        elif self.states.get(entity.key, INITIAL_STATE.get(entity.component)) == "off":
            return 0
        level = self.states.get(f"{entity.key}#{LEVEL_ACTIONS.get(entity.component)}")
        return None if level is None else int(level)

    async def read_colour(self, entity: Entity) -> tuple[str, object] | None:
        if entity.key + "#colour" not in self.states:
            return None
        action, value = json.loads(self.states[entity.key + "#colour"])
        return ("rgb", tuple(value)) if action == "colour" else ("kelvin", value)

    def takes_level(self, entity: Entity) -> bool:
        return entity.component in LEVEL_ACTIONS

    async def read_media(self, entity: Entity, part: str) -> str | None:
        return self.states.get(f"{entity.key}#{part}")

    async def read_position(self, entity: Entity) -> int | None:
        position = self.states.get(entity.key + "#position")
        return None if position is None else int(position)
