"""The assistant's home tools acting through MQTT, in Home Assistant's style, so they really switch lights.

The user's own devices: MqttHome subscribes to Home Assistant MQTT discovery (`homeassistant/#`, retained
configs) and keeps an inventory (assistant.inventory) that changes as configs come and go. Each discovered
entity is commanded on its own command topic with its own payloads (`entity_command`) and read from its own
state topic (`entity_state`); both are pure functions, tested without a broker. An inventory file does the
same for homes without Home Assistant. With neither, the default inventory below stays: the vocabulary's
rooms and devices on `home/<room>/<device>`.

Commands go to `home/<room>/<device>/set` (`ON`/`OFF`, or JSON `{"state": "ON", "brightness": 0-255}`;
the thermostat takes its target degrees on `home/thermostat/set`). Devices answer on the retained
`home/<room>/<device>/state` (`home/thermostat/state`); sensors publish retained `home/<room>/sensor/<kind>`.
A command's answer is the state the device reports within `confirm_timeout`, or None: the assistant must
not claim a light is on when nothing confirmed it. Room and device names become topic levels as lower-case
words joined by `_` ("living room" → `living_room`); assistant.inventory spells these topics.
"""
import ast
import asyncio
import collections
import colorsys
import contextlib
import itertools
import json
import logging
import math
import re
from typing import Callable, TypeVar

import aiomqtt

from assistant.inventory import (CHOSEN, DISCOVERY_PREFIX, IGNORED_REPORT_S, LEVEL_ACTIONS, MAX_PAYLOAD_BYTES,
                                 MAX_TITLE_CHARS, MEDIA_STATE,
                                 THERMOSTAT_SET, THERMOSTAT_STATE, MODE_ACTIONS, MODE_KINDS, Entity, Inventory,
                                 THERMOSTATS, position_percent,
                                 command_topic, entity_command, load_inventory_file, mode_kinds, sensor_topic,
                                 speed_percent, state_topic, template_table, vocabulary_inventory)
from assistant.inventory import DEFAULT_HUMIDITY_RANGE, TEMPERATURE_LIMITS, VACUUM_BATTERY_STATE, VACUUM_STATES
from assistant.home import ACTION_STATE, APPLIANCE_STATE, default_key
from assistant.inventory import COLOUR_ACTIONS, tilt_percent, xy_colour
from streaming.supervisor import Supervisor
from streaming.transports.mqtt.connection import GOODBYE_WAIT_S, Backoff, MqttSettings, stay_connected

log = logging.getLogger("parley.mqtt_home")
T = TypeVar("T")
TASK = "mqtt-home"

MAX_CACHED_TOPICS = 10_000        # latest payloads kept of topics no entity reads; a flood of new topics is not kept
                                  # (an entity's own state topics are always kept: at most 5 x MAX_ENTITIES)
SUBSCRIBE_BATCH = 64              # state topics per SUBSCRIBE


def parse_state(payload: bytes) -> dict | None:
    """`ON`/`OFF` or a JSON object with "state" (and maybe "brightness") → {"state": "ON"|"OFF", ...}."""
    text = payload.decode("utf-8", "replace").strip()
    if text.upper() in ("ON", "OFF"):
        return {"state": text.upper()}
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):     # also deep nesting and 5,000-digit numbers
        return None
    if not isinstance(data, dict) or str(data.get("state", "")).upper() not in ("ON", "OFF"):
        return None
    return {**data, "state": str(data["state"]).upper()}


def parse_number(payload: bytes, keys: tuple[str, ...] = ("value",)) -> float | None:
    """A plain number (`21.5`) or a JSON object carrying it under one of `keys`."""
    try:
        data = json.loads(payload.decode("utf-8", "replace"))
    except (ValueError, RecursionError):
        return None
    if isinstance(data, dict):
        data = next((data[k] for k in keys if k in data), None)
    return _finite(data)


def _finite(value) -> float | None:
    """A JSON number as a float; None for anything else, and for one no float holds (1e400, a 400-digit int) or
    NaN: a state of "inf" degrees is no reading."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        value = float(value)
    except OverflowError:
        return None
    return value if math.isfinite(value) else None


def on_off(payload: bytes) -> str | None:
    state = parse_state(payload)
    return state["state"].lower() if state else None


def brightness_percent(payload: bytes) -> int | None:
    state = parse_state(payload)
    if state is None:
        return None
    if state["state"] == "OFF":
        return 0
    brightness = _finite(state.get("brightness"))
    return None if brightness is None else round(max(0.0, min(brightness, 255.0)) * 100 / 255)


def thermostat_degrees(payload: bytes) -> float | None:
    return parse_number(payload, keys=("target", "temperature", "value"))


# ---------------------------------------------------------------- a discovered entity's own topics

# The templates read here, as Zigbee2MQTT, Tasmota and ESPHome write them: `{{ value }}`, or `{{ value_json }}` followed
# by keys (`.contact`, `['ENERGY']`, `["x"]`, `[0]`), or either looked up in a literal table (assistant.inventory's
# lookup form, as Zigbee2MQTT reads a fan's speed). Anything else (filters, conditions) is no Jinja Parley renders:
# such an entity's state reads as unknown, never as a guess.
_TEMPLATE = re.compile(r"\{\{\s*(value|value_json((?:\s*\.\s*\w+|\s*\[\s*(?:'[^']*'|\"[^\"]*\"|\d+)\s*\])+))\s*\}\}")
_TEMPLATE_KEY = re.compile(r"\.\s*(\w+)|\[\s*(?:'([^']*)'|\"([^\"]*)\"|(\d+))\s*\]")
# Which template reads which state topic of an entity, by component (Home Assistant's keys).
STATE_TEMPLATE = {"light": "state_value_template", "fan": "state_value_template"}
# A media player's states as Home Assistant names them, which the community MQTT media player bridge publishes
MEDIA_STATES = ("playing", "paused", "idle", "stopped", "standby", "buffering", "on", "off")


def _literals(listed: str) -> list[str]:
    """A template's list of literal strings and numbers, as text; [] for anything else."""
    try:
        values = ast.literal_eval(listed)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return []
    return [str(v) for v in values if isinstance(v, (str, int, float))] if isinstance(values, list) else []


def render_template(template: str, payload: bytes) -> str | None:
    """A state template applied to a payload, as Home Assistant renders it (JSON true -> "True"), or None when
    the template is not one read here or the payload lacks its key."""
    chosen = CHOSEN.fullmatch(template.strip())
    if chosen is not None:              # Zigbee2MQTT's preset mode: the value read, when it is one of the list
        read, listed, otherwise = chosen.groups()
        found = render_template(f"{{{{ {read} }}}}", payload)
        return found if found in _literals(listed) else str(ast.literal_eval(otherwise))
    lookup = template_table(template)
    if lookup is not None:              # Zigbee2MQTT's table: the value read, then looked up in it
        table, read = lookup
        found = render_template(f"{{{{ {read} }}}}", payload)
        found = table.get(found) if found is not None else None
        return None if isinstance(found, (dict, list, tuple, set)) or found is None else str(found)
    match = _TEMPLATE.fullmatch(template.strip())
    if match is None:
        return None
    text = payload.decode("utf-8", "replace")
    if match.group(1) == "value":
        return text
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    for name, single, double, index in _TEMPLATE_KEY.findall(match.group(2)):
        if index and isinstance(data, list) and int(index) < len(data):
            data = data[int(index)]
        elif not index and isinstance(data, dict) and (name or single or double) in data:
            data = data[name or single or double]
        else:
            return None
    if isinstance(data, (dict, list)):
        return None
    return str(data)


def _mode(entity: Entity, kind: str, payload: bytes) -> str | None:
    """A mode state payload as the mode of the thing's own list it says (any case), or None."""
    said = _value(entity, payload, MODE_KINDS[kind])
    said = said.strip().lower() if said is not None else None
    return next((mode for mode in entity.modes.get(kind, ()) if mode.lower() == said), None)


def _value(entity: Entity, payload: bytes, template_key: str = "value_template") -> str | None:
    """The state text of a payload: its template's value (None when it can't be read), else a JSON object's
    usual key ("state", the device class, "value"), else the payload."""
    template = entity.payloads.get(template_key)
    if template is not None:
        return render_template(template, payload)
    text = payload.decode("utf-8", "replace").strip()
    if text.startswith("{"):
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            return text
        if isinstance(data, dict):
            for key in ("state", entity.device_class or "", "value"):
                if key in data and not isinstance(data[key], (dict, list)):
                    return str(data[key])
    return text


def _number(text: str | None, limits: tuple[float, float] = (-math.inf, math.inf)) -> str | None:
    """A number said in a state payload, as text; None for none, for inf or nan, and for one outside limits (a
    target of 1e308 degrees, said back in 309 digits)."""
    try:
        number = float(text)
    except (TypeError, ValueError):
        return None
    return f"{number:g}" if math.isfinite(number) and limits[0] <= number <= limits[1] else None


def entity_state(entity: Entity, payload: bytes) -> str | None:
    """A state payload as a word ("on", "open", "locked", "21.5"), or None if it is not one of its states."""
    if entity.component == "light" and entity.json_schema:
        state = parse_state(payload)
        return state["state"].lower() if state else None
    read_as = "fan" if entity.component == "humidifier" else entity.component     # Home Assistant's keys are a fan's
    text = _value(entity, payload, STATE_TEMPLATE.get(read_as, "value_template"))
    if text is None:
        return None
    text = text.strip()
    p = entity.payload
    if read_as in ("light", "switch", "fan", "media_player", "binary_sensor"):
        on, off = p("state_on", p("payload_on", "ON")), p("state_off", p("payload_off", "OFF"))
        if text == on or text.upper() == on.upper():
            return "on"
        if text == off or text.upper() == off.upper():
            return "off"
        if entity.component == "media_player" and text.lower() in MEDIA_STATES:
            return text.lower()
        return None
    if entity.component == "valve" and (percent := _position(entity, payload)) is not None:
        return "open" if int(percent) else "closed"        # a valve's reported position is its state
    if entity.component in ("cover", "valve"):
        words = {p("state_open", "open"): "open", p("state_closed", "closed"): "closed",
                 p("state_opening", "opening"): "opening", p("state_closing", "closing"): "closing",
                 p("state_stopped", "stopped"): "stopped"}
        return words.get(text) or {w.lower(): v for w, v in words.items()}.get(text.lower())
    if entity.component == "lock":
        words = {p("state_locked", "LOCKED"): "locked", p("state_unlocked", "UNLOCKED"): "unlocked",
                 p("state_locking", "LOCKING"): "locking", p("state_unlocking", "UNLOCKING"): "unlocking",
                 p("state_jammed", "JAMMED"): "jammed"}
        return words.get(text) or {w.lower(): v for w, v in words.items()}.get(text.lower())
    if entity.component in THERMOSTATS:
        return _number(text, TEMPERATURE_LIMITS)
    if entity.component == "sensor":
        return _number(text) or (text or None)
    if entity.component == "vacuum":
        return text.lower() if text.lower() in VACUUM_STATES else None
    return None


def vacuum_battery(payload: bytes) -> int | None:
    """A vacuum's battery in percent from its JSON state's `battery_level`, or None."""
    level = _number(render_template(VACUUM_BATTERY_STATE, payload))
    return None if level is None else max(0, min(100, round(float(level))))


def _percent(entity: Entity, level) -> str | None:
    """A light's brightness on its own scale (brightness_scale) as a percent."""
    if isinstance(level, bool):
        return None
    try:
        return str(max(0, min(100, round(float(level) * 100 / entity.brightness_scale))))
    except (TypeError, ValueError, OverflowError):      # no number, or inf / nan
        return None


def _level(entity: Entity, payload: bytes) -> str | None:
    """A light's brightness in percent from a state payload (its JSON object, or brightness_value_template)."""
    if entity.json_schema:
        state = parse_state(payload)
        if state is None:
            return None
        return "0" if state["state"] == "OFF" else _percent(entity, state.get("brightness"))
    return _percent(entity, _value(entity, payload, "brightness_value_template"))


def _speed(entity: Entity, payload: bytes) -> str | None:
    """A fan's speed in percent from its percentage state payload (percentage_value_template, or the payload)."""
    speed = _number(_value(entity, payload, "percentage_value_template"))
    return None if speed is None else str(speed_percent(entity, float(speed)))


def _tilt(entity: Entity, payload: bytes) -> str | None:
    """A cover's tilt in percent (0 closed, 100 open) from a payload of its tilt_status_topic (through its
    tilt_status_template); None for no number."""
    tilt = _number(_value(entity, payload, "tilt_status_template")) if entity.tilts is not None else None
    return None if tilt is None else str(round(tilt_percent(entity, float(tilt))))


def _position(entity: Entity, payload: bytes) -> str | None:
    """A cover's or valve's position in percent (0 closed, 100 open) from a payload of its position topic (a cover's
    position_template) or, for a valve that reports one, of its state topic; None for no number."""
    if entity.positions is None:
        return None
    template = "position_template" if entity.component == "cover" else "value_template"
    position = _number(_value(entity, payload, template))
    return None if position is None else str(position_percent(entity, float(position)))


def _volume(payload: bytes) -> str | None:
    """A media player's volume in percent from its volume topic's 0 to 1 (Home Assistant's volume_level)."""
    volume = _number(payload.decode("utf-8", "replace").strip())
    return None if volume is None else str(round(max(0.0, min(float(volume), 1.0)) * 100))


def _title(payload: bytes) -> str | None:
    """A media player's title or artist as said back: its text on one line, without control characters (an escape
    sequence, a bidi override), shortened to MAX_TITLE_CHARS; None for none."""
    text = "".join(c if c.isprintable() else " " for c in payload.decode("utf-8", "replace"))
    text = " ".join(text.split())[:MAX_TITLE_CHARS]
    return text or None


def _colour_numbers(payload: bytes) -> list[float] | None:
    """A default-schema light's colour state ("255,0,0", "240,100"), or None."""
    try:
        numbers = [float(part) for part in payload.decode("utf-8", "replace").split(",")]
    except ValueError:
        return None
    return numbers if all(map(math.isfinite, numbers)) else None


def colour_reading(entity: Entity, payload: bytes, mode: str) -> tuple[str, object] | None:
    """A light's colour as it reported it: ("rgb", (red, green, blue)) or ("kelvin", its white's temperature), from its
    JSON state (its `color_mode`, `color`, `color_temp`) or, where mode names its state topic's colour mode, a default
    light's rgb, hs, xy or color_temp state; None for none."""
    if entity.json_schema:
        state = parse_state(payload)
        if state is None:
            return None
        colour, temperature = state.get("color"), _finite(state.get("color_temp"))
        if state.get("color_mode") != "color_temp" and isinstance(colour, dict):
            return _rgb_of({k: _finite(v) for k, v in colour.items() if k in ("r", "g", "b", "h", "s", "x", "y")})
        if temperature:
            return "kelvin", _kelvin(entity, temperature)
        return None
    numbers = _colour_numbers(payload)
    if not numbers:
        return None
    if mode == "color_temp":
        return ("kelvin", _kelvin(entity, numbers[0])) if numbers[0] > 0 else None
    return _rgb_of(dict(zip(mode, numbers)))


def _kelvin(entity: Entity, temperature: float) -> int:
    """A white's reported temperature in kelvin, from mireds to the nearest 10 kelvin (370 mireds: 2700)."""
    return round(temperature) if entity.kelvin_sent else int(round(1_000_000 / temperature, -1))


def _rgb_of(colour: dict) -> tuple[str, tuple[int, int, int]] | None:
    """("rgb", its red, green and blue) of a colour given by r, g and b, by x and y, or by h and s; None for none."""
    if all(colour.get(k) is not None for k in "rgb"):
        return "rgb", tuple(max(0, min(255, round(colour[k]))) for k in "rgb")
    if colour.get("x") is not None and colour.get("y") is not None:
        return "rgb", xy_colour(colour["x"], colour["y"])
    if colour.get("h") is not None and colour.get("s") is not None:
        red, green, blue = colorsys.hsv_to_rgb(colour["h"] % 360 / 360, max(0.0, min(colour["s"], 100.0)) / 100, 1.0)
        return "rgb", (round(red * 255), round(green * 255), round(blue * 255))
    return None


def _confirmed(entity: Entity, action: str, payload: bytes) -> str | None:
    """What a state payload says after an action: the entity's state, its brightness level, speed, degrees, volume,
    or the title a new track reports."""
    if action == "volume":
        return _volume(payload)
    if action in COLOUR_ACTIONS and not entity.json_schema:         # its rgb, hs, xy or color_temp state
        return payload.decode("utf-8", "replace").strip() or None
    if action in ("next", "previous"):
        return _title(payload)
    if action == "brightness":
        return _level(entity, payload)
    if action == "speed":
        return _speed(entity, payload)
    if action == "tilt":
        return _tilt(entity, payload)
    if action == "temperature":
        return _number(_value(entity, payload, "temperature_state_template"), TEMPERATURE_LIMITS)
    if action == "position":
        return _position(entity, payload)
    if action == "humidity":
        return _number(_value(entity, payload, "target_humidity_state_template"), DEFAULT_HUMIDITY_RANGE)
    if action in MODE_ACTIONS:         # "mode": any kind said without a word of its own; else the action's kind
        return next((mode for kind in mode_kinds(entity, action)
                     if (mode := _mode(entity, kind, payload)) is not None), None)
    if entity.component == "climate" and action in ("on", "off"):
        mode = _value(entity, payload, "mode_state_template")
        return None if mode is None else "off" if mode.strip() == "off" else "on"
    return entity_state(entity, payload)


def _state_topics(entity: Entity) -> list[str]:
    return [t for t in (entity.state_topic, entity.topics.get("brightness_state_topic"),
                        entity.topics.get("position_topic"), entity.topics.get("target_humidity_state_topic"),
                        entity.topics.get("percentage_state_topic"),
                        entity.topics.get("temperature_state_topic"), entity.topics.get("mode_state_topic"),
                        entity.topics.get("tilt_status_topic"),
                        entity.topics.get("preset_mode_state_topic"), entity.topics.get("fan_mode_state_topic"),
                        entity.topics.get("swing_mode_state_topic"), entity.topics.get("volume_topic"),
                        entity.topics.get("title_topic"), entity.topics.get("artist_topic"),
                        *(entity.topics.get(f"{mode}_state_topic") for mode in entity.colour_modes)) if t]


class MqttHome:
    """Implements assistant.home.Home over one broker connection, shared by every session of a server.

    Its inventory is the file's (inventory_file), grown by discovery; else the default vocabulary home until
    the first discovery config arrives, which starts the user's own inventory.
    """

    def __init__(self, settings: MqttSettings, confirm_timeout: float = 1.5, backoff: Backoff | None = None,
                 inventory_file=None, discovery_prefix: str = DISCOVERY_PREFIX, supervisor: Supervisor | None = None):
        self.settings = settings
        self.confirm_timeout = confirm_timeout
        self._backoff = backoff
        self.supervisor = supervisor or Supervisor()   # the server's, so /healthz sees this loop
        self.discovery_prefix = discovery_prefix
        self.inventory: Inventory = load_inventory_file(inventory_file) if inventory_file else vocabulary_inventory()
        self._client: aiomqtt.Client | None = None
        self._connected = asyncio.Event()
        self._retained: dict[str, bytes] = {}     # latest payload per state topic
        self._waiters: dict[str, list[tuple[asyncio.Future, Callable[[bytes], object], bool]]] = {}
        self._subscribed: set[str] = set()
        self._followers: collections.Counter[str] = collections.Counter()   # entities reading each state topic
        self._to_follow: set[str] = set()          # state topics to subscribe to (at most MAX_ENTITIES' worth)
        self._to_unfollow: set[str] = set()        # and to unsubscribe from: no entity reads them any more
        self._follow_wanted = asyncio.Event()
        self._report: asyncio.TimerHandle | None = None      # the summary line of ignored discovery configs

    async def start(self) -> None:
        self.supervisor.start(TASK, lambda: stay_connected(self.settings, "home", self._serve, backoff=self._backoff))

    async def close(self, goodbye_wait: Callable[[float], float] = lambda bound: bound) -> None:
        """goodbye_wait(bound): how long the DISCONNECT may wait for the broker (the server's: cut to a SIGTERM's
        deadline), so a stalled broker does not hold up the stop."""
        client = self._client
        if client is not None:
            client.timeout = goodbye_wait(GOODBYE_WAIT_S)
        await self.supervisor.stop(TASK)
        if self._report is not None:
            self._report.cancel()
            self._report_ignored()

    async def wait_connected(self, timeout: float) -> None:
        await asyncio.wait_for(self._connected.wait(), timeout)

    async def _serve(self, client: aiomqtt.Client) -> None:
        self._subscribed, self._to_follow, self._to_unfollow = set(), set(), set()
        self._followers = collections.Counter()
        await client.subscribe("home/#", qos=1)
        await client.subscribe(f"{self.discovery_prefix}/#", qos=1)
        self._follow(self.inventory.entities())
        follower = asyncio.create_task(self._subscribe_followed(client))
        self._client = client
        self._connected.set()
        try:
            async for message in client.messages:
                topic = str(message.topic)
                try:
                    if topic.startswith(self.discovery_prefix + "/"):
                        await self._discover(client, topic, bytes(message.payload))
                    else:
                        self._receive(topic, bytes(message.payload), message.retain)
                except Exception:  # noqa: BLE001 - one message must not end home control
                    self.supervisor.contain(TASK, f"a message on {topic}")
        finally:
            self._client = None
            self._connected.clear()
            follower.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await follower

    def _follow(self, entities: list[Entity]) -> None:
        """Have the state topics of these entities subscribed (their retained state arrives at once; `home/#` is
        subscribed whole) and their states always cached."""
        for topic in {topic for entity in entities for topic in _state_topics(entity)}:
            self._followers[topic] += 1
            self._to_unfollow.discard(topic)
            if topic not in self._subscribed and not topic.startswith("home/"):
                self._to_follow.add(topic)
        if self._to_follow:
            self._follow_wanted.set()

    def _unfollow(self, entity: Entity) -> None:
        """A replaced or removed entity's state topics that no entity reads now are unsubscribed and forgotten: a
        config re-sent with new state topics each time must not grow the subscriptions (at 07e6cce, 1,000 re-sends of a
        fan held 2,000)."""
        for topic in set(_state_topics(entity)):
            self._followers[topic] -= 1
            if self._followers[topic] <= 0:
                del self._followers[topic]
                if topic.startswith("home/"):      # under `home/#`, subscribed whole: its state is not sent again
                    continue
                self._retained.pop(topic, None)
                self._to_follow.discard(topic)
                if topic in self._subscribed:
                    self._subscribed.discard(topic)
                    self._to_unfollow.add(topic)
        if self._to_unfollow:
            self._follow_wanted.set()

    async def _subscribe_followed(self, client: aiomqtt.Client) -> None:
        """Subscribe to the topics _follow wants and unsubscribe from those _unfollow gave up, in batches, beside
        the message loop: a SUBACK comes behind whatever the broker queued first (100,000 retained configs took
        longer than the client's timeout), and the loop must go on reading meanwhile. A subscription that times out
        is asked for again; one no entity reads by the time it is made is undone."""
        while True:
            await self._follow_wanted.wait()
            self._follow_wanted.clear()
            while self._to_follow or self._to_unfollow:
                unfollow = bool(self._to_unfollow)
                batch = list(itertools.islice(self._to_unfollow or self._to_follow, SUBSCRIBE_BATCH))
                try:
                    if unfollow:
                        await client.unsubscribe(batch)
                    else:
                        await client.subscribe([(topic, 1) for topic in batch])
                except aiomqtt.MqttError:
                    await asyncio.sleep(1.0)
                    continue
                if unfollow:
                    self._to_unfollow.difference_update(batch)
                    continue
                self._to_follow.difference_update(batch)
                for topic in batch:
                    (self._subscribed if self._followers[topic] else self._to_unfollow).add(topic)

    async def _discover(self, client: aiomqtt.Client, topic: str, payload: bytes) -> None:
        """A discovery config: the first one replaces the default vocabulary home with the user's own."""
        if not topic.endswith("/config"):
            return
        if not self.inventory.custom and payload.strip():
            self.inventory = Inventory()
        before = self.inventory.get("/".join(topic.split("/")[1:-1]))
        entity = self.inventory.receive_discovery(topic, payload)
        if entity is not None:
            log.debug("discovered %s %r in %s", entity.component, entity.name, entity.area or "no area")
            self._follow([entity])
        if before is not None and self.inventory.get(before.key) is not before:     # replaced or removed
            self._unfollow(before)
        if self.inventory.ignored.count and self._report is None:
            self._report = asyncio.get_running_loop().call_later(IGNORED_REPORT_S, self._report_ignored)

    def _report_ignored(self) -> None:
        self._report = None
        self.inventory.ignored.report()

    def _receive(self, topic: str, payload: bytes, retained: bool) -> None:
        """retained=True marks a stored message replayed on (re)subscribing: it is no confirmation."""
        if len(payload) > MAX_PAYLOAD_BYTES:
            return
        if topic in self._followers or len(self._retained) < MAX_CACHED_TOPICS or topic in self._retained:
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

    async def command(self, entity: Entity, action: str, value: float | None = None) -> str | None:
        where = default_key(entity)
        if where is not None:          # the default home keeps its original topics and payloads
            room, device = where
            if action == "brightness":
                level = await self.set_brightness(room, int(value))
                return None if level is None else str(level)
            return await self.set_device(device, room, action)
        if entity.key == "default:thermostat":
            degrees = await self.set_thermostat(float(value)) if action == "temperature" else None
            return None if degrees is None else f"{degrees:g}"
        command = entity_command(entity, action, value)
        if command is None:
            return None
        topic, payload, state_topic = command
        if state_topic is None:        # no state topic: Home Assistant calls such an entity optimistic
            client = self._client
            if client is None:
                return None
            try:
                await client.publish(topic, payload, qos=1)
                if action == "humidity":            # a humidifier's target humidity, as sent
                    return f"{float(value or 0):g}"
            except aiomqtt.MqttError:
                return None
            if entity.component == "media_player" and action in MEDIA_STATE:
                return MEDIA_STATE[action]
            if action in ("position", "volume"):
                return str(int(value or 0))
            if action in COLOUR_ACTIONS:          # a colour's red, green and blue, or a white's kelvin, as sent
                return "on"
            return {"brightness": str(int(value or 0)), "speed": str(int(value or 0)),
                    "temperature": f"{float(value or 0):g}"}.get(action, str(value) if action in MODE_ACTIONS else
                                                                 ACTION_STATE.get(action) or
                                                                 APPLIANCE_STATE.get(action, action))
        return await self._wait_for(state_topic, lambda state: _confirmed(entity, action, state), (topic, payload))

    async def read_tilt(self, entity: Entity) -> int | None:
        """A cover's tilt_status_topic, as it last reported it."""
        payload = self._retained.get(entity.topics.get("tilt_status_topic", "")) if entity.tilts is not None else None
        tilt = None if payload is None else _tilt(entity, payload)
        return None if tilt is None else int(tilt)

    async def read_mode(self, entity: Entity, action: str = "mode") -> str | None:
        reported = None
        for kind in mode_kinds(entity, action):
            payload = self._retained.get(entity.topics.get(f"{kind}_state_topic", ""))
            if payload is None:
                continue
            mode = _mode(entity, kind, payload)
            if mode is not None:
                return mode
            if _value(entity, payload, MODE_KINDS[kind]) is not None:      # read, but none of its modes
                reported = ""
        return reported

    async def read_target(self, entity: Entity) -> float | None:
        """A climate's or water heater's state is its target temperature: read_state reads its temperature state topic,
        as a number; a humidifier's target humidity is its target humidity state topic's."""
        if entity.component == "humidifier":
            payload = self._retained.get(entity.topics.get("target_humidity_state_topic", ""))
            humidity = None if payload is None else _confirmed(entity, "humidity", payload)
            return None if humidity is None else float(humidity)
        state = await self.read_state(entity) if entity.component in THERMOSTATS else None
        return None if state is None else float(state)

    async def read_position(self, entity: Entity) -> int | None:
        """A cover's position topic, or a valve's state topic where it reports its position."""
        topic = entity.topics.get("position_topic") if entity.component == "cover" else entity.state_topic
        payload = self._retained.get(topic) if topic and entity.positions is not None else None
        position = None if payload is None else _position(entity, payload)
        return None if position is None else int(position)

    async def read_media(self, entity: Entity, part: str) -> str | None:
        """A media player's volume (in percent), title or artist, from its own topic's retained payload."""
        payload = self._retained.get(entity.topics.get(f"{part}_topic", ""))
        return None if payload is None else _volume(payload) if part == "volume" else _title(payload)

    async def read_level(self, entity: Entity) -> int | None:
        if default_key(entity) is not None:
            payload = self._retained.get(entity.state_topic)
            return None if payload is None else brightness_percent(payload)
        if entity.component not in LEVEL_ACTIONS:
            return None
        if await self.read_state(entity) == "off":
            return 0
        if entity.component == "fan":
            payload = self._retained.get(entity.topics.get("percentage_state_topic", ""))
            speed = None if payload is None else _speed(entity, payload)
            return None if speed is None else int(speed)
        topic = entity.state_topic if entity.json_schema else entity.topics.get("brightness_state_topic")
        payload = self._retained.get(topic) if topic else None
        level = None if payload is None else _level(entity, payload)
        return None if level is None else int(level)

    async def read_colour(self, entity: Entity) -> tuple[str, object] | None:
        """A light's colour or white as it last reported it (colour_reading): its JSON state, else its colour modes'
        state topics, a color_temp state read only where it reports no colour."""
        if entity.json_schema:
            payload = self._retained.get(entity.state_topic or "")
            return None if payload is None else colour_reading(entity, payload, "")
        for mode in sorted(entity.colour_modes, key=lambda m: m == "color_temp"):
            payload = self._retained.get(entity.topics.get(f"{mode}_state_topic", ""))
            reading = None if payload is None or mode not in ("rgb", "hs", "xy", "color_temp") else \
                colour_reading(entity, payload, mode)
            if reading is not None:
                return reading
        return None

    def takes_level(self, entity: Entity) -> bool:
        if default_key(entity) is not None:         # the default home's fans take ON and OFF only
            return entity.component == "light"
        level = LEVEL_ACTIONS.get(entity.component)
        return level is not None and entity_command(entity, level, 50) is not None

    async def read_battery(self, entity: Entity) -> int | None:
        topic = entity.state_topic if entity.component == "vacuum" else None
        payload = self._retained.get(topic) if topic else None
        return None if payload is None else vacuum_battery(payload)

    async def read_state(self, entity: Entity) -> str | None:
        if default_key(entity) is not None:
            payload = self._retained.get(entity.state_topic)
            return None if payload is None else on_off(payload)
        if entity.component == "sensor" and entity.key.startswith("default:"):
            value = await self.read_sensor(entity.area, entity.device_class)
            return None if value is None else f"{value:g}"
        if entity.key == "default:thermostat":
            payload = self._retained.get(THERMOSTAT_STATE)
            degrees = None if payload is None else thermostat_degrees(payload)
            return None if degrees is None else f"{degrees:g}"
        thermostat = entity.component in THERMOSTATS
        topic = entity.topics.get("temperature_state_topic") if thermostat else entity.state_topic
        payload = self._retained.get(topic) if topic else None
        if payload is None:
            return None
        return _confirmed(entity, "temperature", payload) if thermostat else entity_state(entity, payload)
