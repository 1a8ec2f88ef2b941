"""The home inventory: the user's own devices, learnt from Home Assistant MQTT discovery or an inventory file,
and how a spoken name finds them.

Pure code, no I/O: streaming/transports/mqtt/home.py feeds discovery messages in (`receive_discovery`), the
tools resolve names against it. Each entity knows its own command and state topics and payloads, so a
command goes where Home Assistant would send it.

Discovery follows Home Assistant's MQTT discovery: `homeassistant/<component>/[<node_id>/]<object_id>/config`,
retained JSON; an empty payload removes the entity; `~` stands for the base topic; abbreviated keys
(`cmd_t`, `stat_t`, `pl_on`, `dev`, ...) mean their long names. No Jinja is rendered: a command template only in
the two forms publishers announce (render_command), and state payloads are compared as they come, or read from a
JSON object's usual key (streaming/transports/mqtt/home.py reads the simple value templates).
"""
import ast
import colorsys
import json
import logging
import math
import re
import threading
import time
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from assistant.vocabulary import (COVER_WORD_CLASSES, DEVICE_SPOKEN, DEVICES, MODE_KIND_WORDS, MODE_SYNONYMS,
                                  NAME_ABBREVIATIONS, NAMED_KINDS, OTHER_ROOM_WORDS, RELAYED_KINDS, ROOM_SPOKEN, ROOMS,
                                  SENSOR_KINDS, SPELLING_ENDINGS, SPELLINGS, STATES, VACUUM_COMMANDS,
                                  VACUUM_DEFAULT_FEATURES, VACUUM_WORDS)
from assistant.spoken_numbers import UNITS

log = logging.getLogger("parley.inventory")

COMPONENTS = ("light", "switch", "fan", "climate", "cover", "lock", "scene", "sensor", "binary_sensor",
              "media_player", "valve", "humidifier", "water_heater")
SWITCHABLE = ("light", "switch", "fan", "climate", "media_player", "humidifier", "water_heater")
THERMOSTATS = ("climate", "water_heater")       # the kinds of thing set to a target temperature
SWITCH_ALL_COMPONENTS = ("light", "switch", "fan", "media_player")     # what "everything" in an area switches
SENSORS = ("sensor", "binary_sensor")                                    # what "the ... sensor" may be
# Things that do a job of their own on a command (Home Assistant's MQTT vacuum and button): never switched on or off
APPLIANCES = ("vacuum", "button")
COMPONENTS += APPLIANCES
DISCOVERY_PREFIX = "homeassistant"
# Discovery configs are untrusted input, retained by the broker: each is bounded before it costs anything.
MAX_ENTITIES = 2000             # configs for further entities are ignored (one summary line in the log)
MAX_CONFIG_BYTES = 16_384       # Zigbee2MQTT's largest configs are a few KB
MAX_NAME_WORDS = 10             # a name's parts are phrases the prompt may hide: their count is quadratic in this
MAX_NAME_BYTES = 100
MAX_TOPIC_BYTES = 256
MAX_MODES = 32                  # of each kind: Home Assistant's lists are a handful
MAX_TEMPERATURE_STEP = 10       # degrees a climate's target steps by at most (Home Assistant's are 0.1 to 1)
# Home Assistant's climate's `min_temp` and `max_temp` where a config says none, by its `temperature_unit`
DEFAULT_TEMPERATURE_RANGES = {"C": (7.0, 35.0), "F": (44.6, 95.0)}
TEMPERATURE_LIMITS = (-100.0, 200.0)   # a min_temp, max_temp or reported target outside this (1e308) is no thermostat's
# Home Assistant's water heater's `min_temp` and `max_temp` where a config says none (110 and 140 °F)
DEFAULT_WATER_TEMPERATURE_RANGES = {"C": (43.3, 60.0), "F": (110.0, 140.0)}
DEFAULT_HUMIDITY_RANGE = (0.0, 100.0)  # Home Assistant's humidifier's `min_humidity`, `max_humidity` where none given;
                                       # a reported target outside it is no humidity
IGNORED_REPORT_S = 60.0         # ignored configs: the first is logged, the rest counted into one line per this
MAX_TABLE_CHARS = 256           # a lookup template's table (Zigbee2MQTT's fan modes take 72): it is parsed on every
                                # state read and its names join every lexicon (1,400 names a fan cost 25 s a lexicon)
MAX_SCALE = 65_535              # a brightness scale or a speed range's end (Home Assistant's default 255, a 16-bit
                                # dimmer's 65,535): a 400-digit one made every command and state read raise
# A light's colour modes, as Home Assistant's MQTT light names them (`supported_color_modes`), that Parley sends a
# colour in, in the order it prefers them; "color_temp" takes a white's temperature. Its warmest and coolest white
# where its discovery gives none (Home Assistant's max_mireds 500 and min_mireds 153)
COLOUR_MODES = ("rgb", "hs", "xy", "rgbw", "rgbww")
DEFAULT_KELVIN_RANGE = (2000, 6535)
# The default schema's topic of each colour mode
COLOUR_TOPICS = {"rgb": "rgb_command_topic", "hs": "hs_command_topic", "xy": "xy_command_topic",
                 "rgbw": "rgbw_command_topic", "rgbww": "rgbww_command_topic", "color_temp": "color_temp_command_topic"}
# The actions that set a light's colour and its white's temperature, and colour_command's argument of each
COLOUR_ACTIONS = {"colour": "rgb", "colour_temp": "kelvin"}
# Tasmota's rgb_command_template: the colour as six hex digits ("0000FF")
_HEX_RGB = re.compile(r"\{\{\s*'%02X%02X%02X'\s*\|\s*format\(\s*red\s*,\s*green\s*,\s*blue\s*\)\s*\}\}")
MAX_PAYLOAD_BYTES = 4096        # a command or a state is a few bytes; a command template rendering more is refused
# What a lock or a door takes to unlock or open when its config names nothing else; a command carrying one of
# these (or a discovered lock's or door's own) from any other action waits for the spoken yes.
UNSAFE_PAYLOADS = {"UNLOCK", "OPEN"}
GUARDED_COVERS = ("garage", "gate", "door")     # covers whose opening waits for the spoken yes

# Home Assistant's abbreviations for the keys read here (homeassistant/components/mqtt/abbreviations.py).
ABBREVIATIONS = {
    "cmd_t": "command_topic", "stat_t": "state_topic", "pl_on": "payload_on", "pl_off": "payload_off",
    "stat_on": "state_on", "stat_off": "state_off", "bri_cmd_t": "brightness_command_topic",
    "bri_stat_t": "brightness_state_topic", "bri_scl": "brightness_scale",
    "temp_cmd_t": "temperature_command_topic", "temp_stat_t": "temperature_state_topic",
    "curr_temp_t": "current_temperature_topic", "temp_unit": "temperature_unit", "mode_cmd_t": "mode_command_topic",
    "pl_open": "payload_open", "pl_cls": "payload_close", "pl_stop": "payload_stop", "stat_open": "state_open",
    "stat_clsd": "state_closed", "stat_opening": "state_opening", "stat_closing": "state_closing",
    "pl_lock": "payload_lock", "pl_unlk": "payload_unlock", "stat_locked": "state_locked",
    "stat_unlocked": "state_unlocked", "dev_cla": "device_class", "unit_of_meas": "unit_of_measurement",
    "uniq_id": "unique_id", "obj_id": "object_id", "dev": "device", "sa": "suggested_area",
    "avty_t": "availability_topic", "json_attr_t": "json_attributes_topic", "val_tpl": "value_template",
    "sup_feat": "supported_features", "fanspd_lst": "fan_speed_list", "set_fan_spd_t": "set_fan_speed_topic",
    "pl_strt": "payload_start", "pl_paus": "payload_pause", "pl_ret": "payload_return_to_base",
    "pl_loc": "payload_locate", "pl_cln_sp": "payload_clean_spot", "pl_prs": "payload_press",
    "pct_cmd_t": "percentage_command_topic", "pct_stat_t": "percentage_state_topic",
    "pct_val_tpl": "percentage_value_template", "pct_cmd_tpl": "percentage_command_template",
    "spd_rng_min": "speed_range_min", "spd_rng_max": "speed_range_max", "pos_t": "position_topic",
    "set_pos_t": "set_position_topic",
    "tilt_cmd_t": "tilt_command_topic", "tilt_status_t": "tilt_status_topic", "tilt_status_tpl": "tilt_status_template",
    "tilt_cmd_tpl": "tilt_command_template", "tilt_clsd_val": "tilt_closed_value", "tilt_opnd_val": "tilt_opened_value",
    "tilt_opt": "tilt_optimistic",
    "stat_val_tpl": "state_value_template", "bri_val_tpl": "brightness_value_template",
    "temp_stat_tpl": "temperature_state_template", "mode_stat_t": "mode_state_topic",
    "mode_stat_tpl": "mode_state_template", "curr_temp_tpl": "current_temperature_template",
    "stat_locking": "state_locking", "stat_unlocking": "state_unlocking", "stat_jam": "state_jammed",
    "stat_stopped": "state_stopped", "pl_avail": "payload_available", "pl_not_avail": "payload_not_available",
    "cmd_tpl": "command_template", "mode_cmd_tpl": "mode_command_template",
    "pr_mode_cmd_t": "preset_mode_command_topic", "pr_mode_stat_t": "preset_mode_state_topic",
    "pr_mode_cmd_tpl": "preset_mode_command_template", "pr_mode_val_tpl": "preset_mode_value_template",
    "pr_modes": "preset_modes", "fan_mode_cmd_t": "fan_mode_command_topic", "fan_mode_stat_t": "fan_mode_state_topic",
    "fan_mode_cmd_tpl": "fan_mode_command_template", "fan_mode_stat_tpl": "fan_mode_state_template",
    "swing_mode_cmd_t": "swing_mode_command_topic", "swing_mode_stat_t": "swing_mode_state_topic",
    "swing_mode_cmd_tpl": "swing_mode_command_template", "swing_mode_stat_tpl": "swing_mode_state_template",
    "pos_tpl": "position_template", "set_pos_tpl": "set_position_template", "pos_open": "position_open",
    "pos_clsd": "position_closed",
    "hum_cmd_t": "target_humidity_command_topic", "hum_cmd_tpl": "target_humidity_command_template",
    "hum_stat_t": "target_humidity_state_topic", "hum_state_tpl": "target_humidity_state_template",
    "min_hum": "min_humidity", "max_hum": "max_humidity", "pow_cmd_t": "power_command_topic",
    "curr_hum_t": "current_humidity_topic", "curr_hum_tpl": "current_humidity_template",
    "sup_clrm": "supported_color_modes", "rgb_cmd_t": "rgb_command_topic", "rgb_cmd_tpl": "rgb_command_template",
    "rgb_stat_t": "rgb_state_topic", "rgb_val_tpl": "rgb_value_template", "rgbw_cmd_t": "rgbw_command_topic",
    "rgbww_cmd_t": "rgbww_command_topic", "hs_cmd_t": "hs_command_topic", "hs_stat_t": "hs_state_topic",
    "xy_cmd_t": "xy_command_topic", "xy_stat_t": "xy_state_topic", "clr_temp_cmd_t": "color_temp_command_topic",
    "clr_temp_cmd_tpl": "color_temp_command_template", "clr_temp_stat_t": "color_temp_state_topic",
    "clr_temp_val_tpl": "color_temp_value_template", "min_mirs": "min_mireds", "max_mirs": "max_mireds",
    "min_k": "min_kelvin", "max_k": "max_kelvin",
}
# The templates a state is read by (streaming/transports/mqtt/home.py renders the simple ones).
TEMPLATES = ("tilt_status_template", "tilt_command_template",
             "value_template", "state_value_template", "brightness_value_template", "temperature_state_template",
             "mode_state_template", "percentage_value_template", "percentage_command_template", "command_template",
             "mode_command_template", "preset_mode_command_template", "preset_mode_value_template",
             "fan_mode_command_template", "fan_mode_state_template", "swing_mode_command_template",
             "swing_mode_state_template", "position_template", "set_position_template",
             "target_humidity_command_template", "target_humidity_state_template", "rgb_command_template",
             "rgb_value_template", "color_temp_command_template", "color_temp_value_template")
# The command templates rendered here, in the forms real publishers announce (no Jinja otherwise): `{{ value }}`
# inside the payload (`{"fan_mode": "{{ value }}"}`), and Zigbee2MQTT's lookup of the value in a literal table
# (`{{ {0:'off', 1:'low', 2:'medium', 3:'high'}[value] | default('') }}`), which its state templates use too
# (`{{ {'off':0, 'low':1}[value_json.fan_mode] | default('None') }}`). A template of any other form makes no payload.
_VALUE = re.compile(r"\{\{\s*value\s*\}\}")
_POSITION = re.compile(r"\{\{\s*position\s*\}\}")
_TILT_POSITION = re.compile(r"\{\{\s*tilt_position\s*\}\}")
_LOOKUP = re.compile(r"\{\{\s*(\{[^{}]*\})\s*\[\s*(value(?:_json(?:\s*\.\s*\w+)+)?)\s*\]\s*"
                     r"(?:\|\s*default\(\s*(?:'[^']*'|\"[^\"]*\")\s*\)\s*)?\}\}")
# Zigbee2MQTT's preset mode state, which streaming/transports/mqtt/home.py reads: `{{ value_json.fan_mode if
# value_json.fan_mode in ['on', 'auto'] else 'None' | default('None') }}`, the same key read twice, the list literal
CHOSEN = re.compile(r"\{\{\s*(value_json(?:\.\w+)+)\s+if\s+\1\s+in\s+(\[[^\[\]]*\])\s+else\s+('[^']*'|\"[^\"]*\")\s*"
                    r"(?:\|\s*default\(\s*(?:'[^']*'|\"[^\"]*\")\s*\)\s*)?\}\}")
# The modes a thing may announce, each with its command topic `<kind>_command_topic`, its list `<kind>s`, its
# command template and its state topic and template (Home Assistant's climate `mode`, a fan's or a climate's
# `preset_mode`, a climate's `fan_mode` and `swing_mode`); a mode said is looked for in this order. A climate that
# lists none of a kind has Home Assistant's own list of it. The kinds of vocabulary.MODE_KIND_WORDS are said with
# their word ("the fan to high", "swing on") and each is an action of its own; the others are the action "mode".
MODE_KINDS = {"mode": "mode_state_template", "preset_mode": "preset_mode_value_template",
              "fan_mode": "fan_mode_state_template", "swing_mode": "swing_mode_state_template",
              "fan_speed": "fan_speed_value_template"}
# A vacuum's fan speed is a mode of its own (said as its modes are: "put the hoover on turbo"), announced as Home
# Assistant's vacuum does: its `fan_speed_list`, its `set_fan_speed_topic`, and the `fan_speed` of its JSON state
VACUUM_FAN_SPEED_STATE = "{{ value_json.fan_speed }}"
TEMPLATES += ("fan_speed_value_template",)
# A vacuum's states (Home Assistant's vacuum activities) and its battery, read from its JSON state
VACUUM_STATES = ("cleaning", "docked", "paused", "idle", "returning", "error")
VACUUM_BATTERY_STATE = "{{ value_json.battery_level }}"
CLIMATE_MODES = ("auto", "off", "cool", "heat", "dry", "fan_only")
CLIMATE_DEFAULT_MODES = {"mode": CLIMATE_MODES, "fan_mode": ("auto", "low", "medium", "high"),
                         "swing_mode": ("on", "off")}
# A water heater's where its config lists none (Home Assistant's MQTT water_heater); a humidifier has none unlisted
DEFAULT_MODES = {"climate": CLIMATE_DEFAULT_MODES,
                 "water_heater": {"mode": ("off", "eco", "electric", "gas", "heat_pump", "high_demand", "performance")}}
MODE_ACTIONS = ("mode", *MODE_KIND_WORDS)
# The action that sets each kind's level in percent: a light's brightness, a fan's speed (Home Assistant's
# fan.set_percentage)
LEVEL_ACTIONS = {"light": "brightness", "fan": "speed"}
# A media player's keys as the community MQTT media player bridge announces them (bkbilly's mqtt_media_player:
# `state_state_topic`, `command_play_topic` with `command_play_payload`), read as its older shape names them
# (`state_topic`, `play_topic`, `payload_play`); Home Assistant's own MQTT integration has no media player.
MEDIA_PLAYER_KEYS = {"state_state_topic": "state_topic", "state_title_topic": "title_topic",
                     "state_artist_topic": "artist_topic", "state_volume_topic": "volume_topic",
                     "command_volume_topic": "volumeset_topic",
                     **{f"command_{verb}_topic": f"{verb}_topic" for verb in ("play", "pause", "next", "previous")},
                     **{f"command_{verb}_payload": f"payload_{verb}" for verb in ("play", "pause", "next", "previous")}}
# The topic each of a media player's controls (tools.ToolRunner's actions) is sent on, as `<verb>_topic` with its
# `payload_<verb>` (the bridge's own words where its config names none)
MEDIA_CONTROLS = {"pause": "pause", "resume": "play", "next": "next", "previous": "previous"}
# and the state a pause or a resume leaves a player in (Home Assistant's media player states)
MEDIA_STATE = {"pause": "paused", "resume": "playing"}
MAX_TITLE_CHARS = 200           # of a title or an artist said back: a state topic may carry up to MAX_PAYLOAD_BYTES
DEVICE_ABBREVIATIONS = {"sa": "suggested_area", "ids": "identifiers", "mf": "manufacturer", "mdl": "model"}

# Room words people use; an entity without a suggested area takes one of these (or another entity's
# area) from the front of its name: "Porch Light" -> area "porch".
ROOM_WORDS = {w for words in ROOMS.values() for w in words} | OTHER_ROOM_WORDS
ROOM_PARTS = {w for phrase in ROOM_WORDS for w in phrase.split()}     # "dining" of "dining room"
# Words that name a kind of device: they stay a device's name, never its area.
CLASS_WORDS = {
    "light": "light", "lights": "light", "lamp": "light", "lamps": "light", "bulb": "light", "lighting": "light",
    "fan": "fan", "fans": "fan", "switch": "switch", "switches": "switch", "plug": "switch", "plugs": "switch",
    "outlet": "switch", "socket": "switch", "blind": "cover", "blinds": "cover", "shade": "cover",
    "shades": "cover", "shutter": "cover", "shutters": "cover", "curtain": "cover", "curtains": "cover",
    "lock": "lock", "locks": "lock", "thermostat": "climate", "tv": "media_player", "speaker": "media_player",
}
# Every word that says a kind of device (a class word, a relayed kind, the default home's device words).
KIND_WORDS = set(CLASS_WORDS) | set(RELAYED_KINDS) | \
    {word for said in DEVICES.values() for phrase in said for word in phrase.split()}
# The words that say a vacuum whatever its name, as class words ("the hoover" is the robot vacuum)
CLASS_WORDS |= {word: "vacuum" for word in VACUUM_WORDS if " " not in word}
KIND_WORDS |= set(CLASS_WORDS)
_VACUUM_SAID = {word for phrase in VACUUM_WORDS for word in phrase.split()}
# the class words that name a group of things switch_all can switch ("lamps", "fans")
PLURAL_KINDS = {word for word, component in CLASS_WORDS.items() if word.endswith("s") and component in SWITCH_ALL_COMPONENTS}


@dataclass
class Entity:
    """One controllable or readable thing in the home, with the topics and payloads that drive it."""
    key: str                       # discovery topic (or "file:<id>"), unique in the inventory
    name: str                      # spoken name, lower case: "porch light"
    component: str                 # one of COMPONENTS
    area: str | None = None        # lower case: "porch"
    device_class: str | None = None
    unit: str | None = None
    command_topic: str | None = None
    state_topic: str | None = None
    payloads: dict = field(default_factory=dict)   # payload_on/off, state_on/off, payload_open, value_template...
    topics: dict = field(default_factory=dict)     # brightness_command_topic, temperature_command_topic, ...
    json_schema: bool = False      # light `schema: json`: commands and states are JSON objects
    brightness_scale: int = 255
    speed_range: tuple[int, int] = (1, 100)   # a fan's speed_range_min, speed_range_max: 100 percent is the max
    modes: dict[str, tuple[str, ...]] = field(default_factory=dict)   # MODE_KINDS key -> the modes it announces
    features: tuple[str, ...] = ()  # a vacuum's `supported_features` (vocabulary.VACUUM_COMMANDS): what it is offered
    temperature_step: float = 1.0  # a climate's `temp_step`: how far "turn it up" moves its target temperature
    temperature_limits: tuple[float | None, float | None] = (None, None)   # its `min_temp`, `max_temp` where given
    temperature_unit: str | None = None    # a climate's `temperature_unit`, "C" or "F", where given
    humidity_limits: tuple[float, float] = DEFAULT_HUMIDITY_RANGE   # a humidifier's `min_humidity`, `max_humidity`
    positions: tuple[int, int] | None = None   # a cover's or valve's `position_closed`, `position_open` where it has
                                               # a position (a cover's position topics, a valve's reports_position)
    area_from_name: bool = False   # no area was suggested: the inventory finds one at the front of the name
    tilts: tuple[int, int, int, int] | None = None  # a cover's `tilt_min`, `tilt_max`, `tilt_closed_value`,
                                                    # `tilt_opened_value` where it has a tilt_command_topic
    colour_modes: tuple[str, ...] = ()    # a light's colour modes its discovery announces that Parley sends
                                          # (COLOUR_MODES, "color_temp"); none: it can't change colour
    kelvin_range: tuple[int, int] = DEFAULT_KELVIN_RANGE   # its warmest and coolest white (min_kelvin, max_kelvin, or
                                                           # from max_mireds, min_mireds)
    kelvin_sent: bool = False             # `color_temp_kelvin`: its colour temperature is sent in kelvin, not mireds

    def payload(self, key: str, default: str) -> str:
        return self.payloads.get(key, default)


def _expand(config: dict, table: dict) -> dict:
    return {table.get(k, k): v for k, v in config.items()}


def _clean(text) -> str:
    return re.sub(r"[^a-z0-9' ]+", " ", str(text).lower().replace("_", " ")).strip()


def _norm(text: str) -> str:
    return " ".join(_clean(text).split())


class DiscoveryError(ValueError):
    pass


def parse_discovery(topic: str, payload: bytes | str) -> tuple[str, Entity | None]:
    """(key, entity) for a discovery message; entity None means "remove key". DiscoveryError if malformed."""
    key = _discovery_key(topic)
    component = key.split("/")[0]
    text = payload.decode("utf-8", "replace") if isinstance(payload, bytes) else payload
    if not text.strip():
        return key, None
    if component not in COMPONENTS:
        raise DiscoveryError(f"component {component!r} is not one Parley drives")
    if len(text) > MAX_CONFIG_BYTES:
        raise DiscoveryError(f"{topic}: config over {MAX_CONFIG_BYTES} bytes")
    try:
        config = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise DiscoveryError(f"{topic}: not JSON ({error})") from None
    if not isinstance(config, dict):
        raise DiscoveryError(f"{topic}: config is not a JSON object")
    config = _expand(config, ABBREVIATIONS)
    if component == "media_player":
        config = _expand(config, MEDIA_PLAYER_KEYS)
    base = config.get("~")
    if isinstance(base, str):       # as Home Assistant: `~` at the start or the end of a topic is the base topic
        config = {k: _based(v, base) if isinstance(v, str) and k.endswith("_topic") else v for k, v in config.items()}
    device = config.get("device") if isinstance(config.get("device"), dict) else {}
    device = _expand(device, DEVICE_ABBREVIATIONS)
    name = config.get("name")
    if name is None:
        name = device.get("name")
    elif device.get("name") and not str(name).lower().startswith(str(device["name"]).lower()):
        name = f"{device['name']} {name}"          # HA's friendly name: device name + entity name
    if not isinstance(name, str) or not _norm(name):
        raise DiscoveryError(f"{topic}: no name")
    area = device.get("suggested_area") or config.get("suggested_area")
    return key, _entity(key, _spoken(name, topic), component,
                        _spoken(area, topic) if isinstance(area, str) and _norm(area) else None, config, (), topic)


def _based(topic: str, base: str) -> str:
    if topic.startswith("~"):
        topic = base + topic[1:]
    if topic.endswith("~"):
        topic = topic[:-1] + base
    return topic


def _discovery_key(topic: str) -> str:
    """`<component>/[<node_id>/]<object_id>` of `<prefix>/<component>/[<node_id>/]<object_id>/config`."""
    levels = topic.split("/")
    if len(levels) not in (4, 5) or levels[-1] != "config":
        raise DiscoveryError(f"not a discovery config topic: {topic[:200]}")
    return "/".join(levels[1:-1])


def _spoken(name: str, where) -> str:
    """A name or area as words, refused beyond MAX_NAME_WORDS words or MAX_NAME_BYTES bytes."""
    words = _norm(name)
    if len(words.encode()) > MAX_NAME_BYTES or words.count(" ") >= MAX_NAME_WORDS:
        raise DiscoveryError(f"{where}: name over {MAX_NAME_WORDS} words or {MAX_NAME_BYTES} bytes")
    return words


def _check_topic(topic: str, where) -> None:
    """Refuse a topic no broker takes for a publish or a plain subscription (it would drop the connection on use):
    empty, wildcards, NUL or other control characters, a $ topic, or longer than MAX_TOPIC_BYTES."""
    if not topic or len(topic.encode("utf-8", "replace")) > MAX_TOPIC_BYTES or topic.startswith("$") \
            or any(c in "+#" or ord(c) < 32 or 0x7f <= ord(c) < 0xa0 or c == "\ufffd" for c in topic):
        raise DiscoveryError(f"{where}: not a usable topic {topic[:80]!r}")


def _entity(key, name, component, area, config, known_areas, where) -> Entity:
    needs_command = component in ("light", "switch", "fan", "cover", "lock", "scene", "valve", "humidifier")
    topics = {k: v for k, v in config.items() if k.endswith("_topic") and isinstance(v, str)}
    command, state = topics.pop("command_topic", None), topics.pop("state_topic", None)
    if component in THERMOSTATS:
        if "temperature_command_topic" not in topics and "mode_command_topic" not in topics:
            raise DiscoveryError(f"{where}: a {component} entity needs temperature_command_topic")
    elif needs_command and not command:
        raise DiscoveryError(f"{where}: {component} needs command_topic")
    if component in ("sensor", "binary_sensor") and not state:
        raise DiscoveryError(f"{where}: {component} needs state_topic")
    if component in APPLIANCES and not command:
        raise DiscoveryError(f"{where}: {component} needs command_topic")
    if component == "vacuum":
        config, topics = _vacuum_fan_speed(config, topics, state)
    for topic in [t for t in (command, state) if t is not None] + list(topics.values()):
        _check_topic(topic, where)
    for template in TEMPLATES:
        text = config[template].strip() if isinstance(config.get(template), str) else ""
        lookup, chosen = _LOOKUP.fullmatch(text), CHOSEN.fullmatch(text)
        literal = lookup.group(1) if lookup else chosen.group(2) if chosen else ""
        if len(literal) > MAX_TABLE_CHARS:          # a preset state's list too: 1,800 modes took 14 ms a state read
            raise DiscoveryError(f"{where}: {template}'s {'lookup table' if lookup else 'list'} over "
                                 f"{MAX_TABLE_CHARS} characters")
    # JSON true/false/numbers become text as Home Assistant reads them ("payload_on": false is "False"), and so do
    # the values templates read from state payloads.
    payloads = {k: str(v) for k, v in config.items()
                if (k.startswith("payload_") or k.startswith("state_") or k in TEMPLATES or k == "tilt_optimistic")
                and not k.endswith("_topic")
                and isinstance(v, (str, int, float))}
    scale, low, high = (_scale(config, key, default, where) for key, default in
                        (("brightness_scale", 255), ("speed_range_min", 1), ("speed_range_max", 100)))
    device_class = config.get("device_class")
    speeds = isinstance(config.get("speed_range_min", 1), int) and isinstance(config.get("speed_range_max", 100), int) \
        and low <= high
    speed_range, modes = (low, high) if speeds else (1, 100), _modes(component, config, topics, where)
    _check_renders(payloads, modes, speed_range, where)
    return Entity(
        key=key, name=name, component=component, area=area or area_in_name(name, known_areas), area_from_name=not area,
        device_class=str(device_class).lower() if isinstance(device_class, str) else None,
        unit=config.get("unit_of_measurement") if isinstance(config.get("unit_of_measurement"), str) else None,
        command_topic=command, state_topic=state, payloads=payloads, topics=topics,
        json_schema=config.get("schema") == "json", humidity_limits=_humidity_limits(config),
        positions=_positions(component, config, topics, where),
        brightness_scale=scale, speed_range=speed_range, modes=modes, temperature_step=_temperature_step(config),
        temperature_limits=_temperature_limits(config), tilts=_tilts(component, config, topics, where), features=_features(component, config),
        temperature_unit=config["temperature_unit"] if config.get("temperature_unit") in ("C", "F") else None,
        colour_modes=_colour_modes(component, config, topics), kelvin_range=_kelvin_range(config),
        kelvin_sent=config.get("color_temp_kelvin") is True)


def _colour_modes(component: str, config: dict, topics: dict) -> tuple[str, ...]:
    """A light's colour modes Parley can send: a JSON light's `supported_color_modes` (or its older flags `rgb`, `hs`,
    `xy`, `color_temp`), a default-schema light's colour command topics (an rgb template only in Tasmota's hex form);
    a template-schema light's none."""
    if component != "light":
        return ()
    if config.get("schema") == "json":
        listed = config.get("supported_color_modes")
        said = [m for m in listed if isinstance(m, str)] if isinstance(listed, list) else \
            [m for m in ("rgb", "hs", "xy", "color_temp") if config.get(m) is True]
    elif config.get("schema", "default") == "default":
        template = config.get("rgb_command_template")
        said = [mode for mode, topic in COLOUR_TOPICS.items() if topic in topics
                and not (mode == "rgb" and isinstance(template, str) and not _HEX_RGB.fullmatch(template.strip()))]
    else:
        return ()
    return tuple(mode for mode in (*COLOUR_MODES, "color_temp") if mode in said)


def _kelvin_range(config: dict) -> tuple[int, int]:
    """A light's warmest and coolest white in kelvin: its `min_kelvin` and `max_kelvin`, else from its `max_mireds`
    and `min_mireds`, else Home Assistant's defaults."""
    def number(key):
        value = config.get(key)
        return value if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 < value < 1e6 else None
    low, high = number("min_kelvin"), number("max_kelvin")
    if low is None or high is None:
        most, least = number("max_mireds"), number("min_mireds")
        low, high = (1e6 / most, 1e6 / least) if most and least else DEFAULT_KELVIN_RANGE
    return (round(low), round(high)) if low <= high else DEFAULT_KELVIN_RANGE


def colour_xy(rgb: tuple[int, int, int]) -> tuple[float, float]:
    """A colour's CIE 1931 x and y (sRGB, D65), as a light of colour mode xy takes it."""
    linear = [(c / 255 / 12.92) if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb]
    r, g, b = linear
    x, y, z = (0.4124 * r + 0.3576 * g + 0.1805 * b, 0.2126 * r + 0.7152 * g + 0.0722 * b,
               0.0193 * r + 0.1192 * g + 0.9505 * b)
    total = x + y + z
    return (round(x / total, 4), round(y / total, 4)) if total else (0.3127, 0.329)


def xy_colour(x: float, y: float) -> tuple[int, int, int]:
    """The red, green and blue of a CIE x and y at full brightness (colour_xy's inverse, scaled to its brightest)."""
    if y <= 0:
        return 255, 255, 255
    big_x, big_z = x / y, (1 - x - y) / y
    r = 3.2406 * big_x - 1.5372 - 0.4986 * big_z
    g = -0.9689 * big_x + 1.8758 + 0.0415 * big_z
    b = 0.0557 * big_x - 0.2040 + 1.0570 * big_z
    linear = [max(0.0, c) for c in (r, g, b)]
    top = max(linear) or 1.0
    gamma = [c / top for c in linear]
    return tuple(round(255 * (12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055)) for c in gamma)


def colour_hs(rgb: tuple[int, int, int]) -> tuple[float, float]:
    """A colour's hue (degrees) and saturation (percent), as a light of colour mode hs takes it."""
    hue, saturation, _ = colorsys.rgb_to_hsv(*(c / 255 for c in rgb))
    return round(hue * 360, 1), round(saturation * 100, 1)


def colour_command(entity: Entity, rgb: tuple[int, int, int] | None = None,
                   kelvin: int | None = None) -> tuple[str, str, str | None] | None:
    """(topic, payload, state topic that confirms it) that sets a light's colour (rgb) or its white's temperature
    (kelvin, within its range) in its own schema and first colour mode that takes it; None when it takes neither."""
    modes, topics = entity.colour_modes, entity.topics
    mode = next((m for m in modes if m in COLOUR_MODES), None) if rgb is not None else \
        "color_temp" if "color_temp" in modes and kelvin is not None else None
    if mode is None:
        return None
    if mode == "color_temp":
        low, high = entity.kelvin_range
        kelvin = max(low, min(int(kelvin), high))
        value = kelvin if entity.kelvin_sent else round(1_000_000 / kelvin)
    else:
        value = {"rgb": rgb, "hs": colour_hs(rgb), "xy": colour_xy(rgb), "rgbw": (*rgb, 0), "rgbww": (*rgb, 0, 0)}[mode]
    if entity.json_schema:
        body = {"state": "ON"}
        if mode == "color_temp":
            body["color_temp"] = value
        else:
            keys = {"rgb": "rgb", "hs": ("h", "s"), "xy": ("x", "y"), "rgbw": "rgbw", "rgbww": ("r", "g", "b", "c", "w")}[mode]
            body["color"] = dict(zip(keys, value))
        return entity.command_topic, json.dumps(body), entity.state_topic
    if mode == "color_temp":
        payload = render_command(entity.payloads.get("color_temp_command_template"), value)
        confirms = None if "color_temp_value_template" in entity.payloads else topics.get("color_temp_state_topic")
    elif mode == "rgb" and "rgb_command_template" in entity.payloads:          # Tasmota's hex
        payload, confirms = "%02X%02X%02X" % rgb, None
    else:
        payload = ",".join(f"{v:g}" for v in value)
        confirms = None if f"{mode}_value_template" in entity.payloads else topics.get(f"{mode}_state_topic")
    return None if payload is None else (topics[COLOUR_TOPICS[mode]], payload, confirms)


def _vacuum_fan_speed(config: dict, topics: dict, state: str | None) -> tuple[dict, dict]:
    """A vacuum's config and topics with its fan speeds as the mode kind "fan_speed" (VACUUM_FAN_SPEED_STATE), where
    its supported_features offer them."""
    speeds = config.get("fan_speed_list") if "fan_speed" in _features("vacuum", config) else None
    config = {**config, "fan_speeds": speeds, "fan_speed_value_template": VACUUM_FAN_SPEED_STATE}
    topics = {**topics, **({"fan_speed_command_topic": topics["set_fan_speed_topic"]}
                           if "set_fan_speed_topic" in topics else {}),
              **({"fan_speed_state_topic": state} if state else {})}
    return config, topics


def _features(component: str, config: dict) -> tuple[str, ...]:
    """A vacuum's `supported_features` that Parley knows (vocabulary.VACUUM_COMMANDS, "battery", "status",
    "fan_speed"), Home Assistant's defaults where it lists none; none for any other thing."""
    if component != "vacuum":
        return ()
    listed = config.get("supported_features", VACUUM_DEFAULT_FEATURES)
    known = {feature for _, feature in VACUUM_COMMANDS.values()} | {"battery", "status", "fan_speed"}
    return tuple(dict.fromkeys(f for f in listed if isinstance(f, str) and f in known)) \
        if isinstance(listed, (list, tuple)) else ()


def _temperature_step(config: dict) -> float:
    """A climate's `temp_step` where it is a number from 0 to MAX_TEMPERATURE_STEP degrees (Home Assistant's own are
    0.1, 0.5 and 1), else one degree in the home's unit: a config's odd number (NaN, 1e308) refuses nothing."""
    step = config.get("temp_step")
    if isinstance(step, bool) or not isinstance(step, (int, float)) or not 0 < step <= MAX_TEMPERATURE_STEP:
        return 1.0
    return float(step)


def _temperature_limits(config: dict) -> tuple[float | None, float | None]:
    """A climate's `min_temp` and `max_temp`, each a number within TEMPERATURE_LIMITS, the lower below the higher;
    None for one not given or odd (NaN, 1e308, a min over its max: both), which refuses nothing."""
    low, high = (float(value) if not isinstance(value, bool) and isinstance(value, (int, float))
                 and TEMPERATURE_LIMITS[0] <= value <= TEMPERATURE_LIMITS[1] else None
                 for value in (config.get("min_temp"), config.get("max_temp")))
    return (low, high) if low is None or high is None or low < high else (None, None)


def _humidity_limits(config: dict) -> tuple[float, float]:
    """A humidifier's `min_humidity` and `max_humidity`, each a number from 0 to 100 percent, the lower below the
    higher; Home Assistant's 0 and 100 for one not given or odd (NaN, 1e308, a min over its max: both), which refuses
    nothing."""
    low, high = (float(value) if not isinstance(value, bool) and isinstance(value, (int, float))
                 and 0 <= value <= 100 else default
                 for value, default in zip((config.get("min_humidity"), config.get("max_humidity")),
                                           DEFAULT_HUMIDITY_RANGE))
    return (low, high) if low < high else DEFAULT_HUMIDITY_RANGE


def _positions(component: str, config: dict, topics: dict, where) -> tuple[int, int] | None:
    """A cover's (with a set_position_topic or a position_topic) or a valve's (reports_position) `position_closed` and
    `position_open`, Home Assistant's 0 and 100 where not given; each a whole number up to MAX_SCALE, and not the
    same, or the config is refused (a 400-digit one made every position raise); None for a thing that takes no
    position."""
    takes = bool({"set_position_topic", "position_topic"} & set(topics)) if component == "cover" else \
        component == "valve" and config.get("reports_position") is True
    if not takes:
        return None
    closed, opened = config.get("position_closed", 0), config.get("position_open", 100)
    if any(isinstance(end, bool) or not isinstance(end, int) or not 0 <= end <= MAX_SCALE for end in (closed, opened)) \
            or closed == opened:
        raise DiscoveryError(f"{where}: position_closed and position_open are not two whole numbers from 0 to "
                             f"{MAX_SCALE}")
    return closed, opened


def _tilts(component: str, config: dict, topics: dict, where) -> tuple[int, int, int, int] | None:
    """A cover's tilt scale (`tilt_min`, `tilt_max`: Home Assistant's 0 and 100) and the values its slats are opened
    and closed with (`tilt_closed_value`, `tilt_opened_value`: 0 and 100), where it has a tilt_command_topic; each a
    whole number up to MAX_SCALE and the scale's ends not the same, or the config is refused, as a position's are; and
    a tilt_command_template that would render over MAX_PAYLOAD_BYTES, as the other command templates are."""
    if component != "cover" or "tilt_command_topic" not in topics:
        return None
    values = tuple(config.get(key, default) for key, default in
                   (("tilt_min", 0), ("tilt_max", 100), ("tilt_closed_value", 0), ("tilt_opened_value", 100)))
    if any(isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= MAX_SCALE for v in values) \
            or values[0] == values[1]:
        raise DiscoveryError(f"{where}: tilt_min, tilt_max, tilt_closed_value and tilt_opened_value are not whole "
                             f"numbers from 0 to {MAX_SCALE} (the first two different)")
    template = config.get("tilt_command_template")
    if isinstance(template, str) and \
            len(template) + (len(_TILT_POSITION.split(template)) - 1) * len(str(MAX_SCALE)) > MAX_PAYLOAD_BYTES:
        raise DiscoveryError(f"{where}: tilt_command_template renders over {MAX_PAYLOAD_BYTES} bytes")
    return values


def tilt_percent(entity: Entity, tilt: float) -> float:
    """A tilt on the cover's own scale (reported, or its opened or closed value), in percent (0 closed, 100 open),
    kept within 0 to 100."""
    low, high = entity.tilts[:2]
    return max(0.0, min(100.0, (tilt - low) * 100 / (high - low)))


def position_payload(entity: Entity, percent: float) -> int:
    """A position in percent (0 closed, 100 open) on the thing's own scale, from position_closed to position_open."""
    closed, opened = entity.positions
    return round(closed + (opened - closed) * max(0.0, min(float(percent), 100.0)) / 100)


def position_percent(entity: Entity, position: float) -> int:
    """A position the thing reported on its own scale, in percent (0 closed, 100 open), kept within 0 to 100."""
    closed, opened = entity.positions
    return round(max(0.0, min(100.0, (position - closed) * 100 / (opened - closed))))


def _scale(config: dict, key: str, default: int, where) -> int:
    """A brightness scale or a speed range's end, a number from 1 to MAX_SCALE taken whole (as Home Assistant takes
    it); a number outside that (a 400-digit one, 1e308, NaN, infinity, 0) refuses the config; anything but a number
    is the default."""
    value = config.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return default
    if not (isinstance(value, int) or math.isfinite(value)) or not 1 <= value <= MAX_SCALE:
        raise DiscoveryError(f"{where}: {key} is not a whole number from 1 to {MAX_SCALE}")
    return int(value)


def _check_renders(payloads: dict, modes: dict, speed_range: tuple[int, int], where) -> None:
    """Refuse a command template that would render over MAX_PAYLOAD_BYTES with the longest value it is given (its
    on and off payloads, its kind's modes, the top speed, the largest position): one repeating `{{ value }}` in a
    16 KiB config made each command megabytes."""
    given = {"command_template": (payloads.get("payload_on", "ON"), payloads.get("payload_off", "OFF")),
             "percentage_command_template": (str(speed_range[1]),), "set_position_template": (str(MAX_SCALE),),
             "target_humidity_command_template": ("100",),
             **{f"{kind}_command_template": listed for kind, listed in modes.items()}}
    for template, values in given.items():
        text = payloads.get(template)
        if text is None or not values:
            continue
        pieces = (_POSITION if template == "set_position_template" else _VALUE).split(text)
        if len(text) + (len(pieces) - 1) * max(map(len, values)) > MAX_PAYLOAD_BYTES:
            raise DiscoveryError(f"{where}: {template} renders over {MAX_PAYLOAD_BYTES} bytes")


def _modes(component: str, config: dict, topics: dict, where) -> dict[str, tuple[str, ...]]:
    """The modes of each kind a thing announces with a topic to command them (MODE_KINDS): its list's strings, or
    for a climate's or a water heater's `mode` Home Assistant's default list (DEFAULT_MODES). A mode with a character
    Python does not print (a line break, an escape sequence, a bidi override) refuses the config: modes are said back
    as written ("it has normal, eco and dry")."""
    modes = {}
    for kind in MODE_KINDS:
        listed = config.get(f"{kind}s", DEFAULT_MODES.get(component, {}).get(kind, ()))
        if f"{kind}_command_topic" in topics and isinstance(listed, (list, tuple)):
            if any(isinstance(m, str) and not m.isprintable() for m in listed):
                raise DiscoveryError(f"{where}: {kind}s holds a mode with a control character")
            modes[kind] = tuple(dict.fromkeys(m for m in listed if isinstance(m, str) and _norm(m)
                                                 and len(m) <= MAX_NAME_BYTES))[:MAX_MODES]
    return {kind: listed for kind, listed in modes.items() if listed}


def area_in_name(name: str, known_areas=()) -> str | None:
    """The longest room phrase (a room word or one of known_areas, in words) at the front of a name that leaves
    a device word after it."""
    words = name.split()
    for n in range(len(words) - 1, 0, -1):
        phrase = " ".join(words[:n])
        if (phrase in ROOM_WORDS or phrase in known_areas) and words[n - 1] not in CLASS_WORDS:
            return phrase
    return None


# ---------------------------------------------------------------- the inventory

class Inventory:
    """The entities of one home, keyed by discovery topic (or file id); bounded by MAX_ENTITIES.

    custom: names come from the user's home (discovery or a file), so requests reach the model with the
    names as slots (assistant.chat_template.hide_names); the default inventory is the vocabulary's own
    rooms and devices, which the model knows by word.

    An entity without a suggested area takes one from the front of its name, among the room words and the
    areas other entities suggest, in whatever order they arrive: its area follows when such an area comes or goes.
    """

    def __init__(self, entities=(), custom: bool = True):
        self.custom = custom
        self._entities: dict[str, Entity] = {}
        self._suggested: dict[str, int] = {}                    # suggested area -> entities suggesting it
        self._unplaced: dict[str, set[str]] = {}                # first word of the name -> keys of area_from_name
        self.version = 0
        self._cached: dict[str, tuple[int, object]] = {}        # per version: areas, lexicon, guarded commands
        self._lexicon_lock = threading.Lock()
        self.ignored = IgnoredConfigs()
        for entity in entities:
            self.add(entity)

    def __len__(self) -> int:
        return len(self._entities)

    def entities(self) -> list[Entity]:
        return list(self._entities.values())

    def temperature_range(self, entity: Entity) -> tuple[float, float]:
        """The lowest and highest target a climate takes (a target set or stepped past one is set to it, as Home
        Assistant's climate does): its min_temp and max_temp, else Home Assistant's defaults in its temperature_unit,
        else in the unit the home's temperature sensors report (a home in °F whose climates say no unit)."""
        unit = entity.temperature_unit or ("F" if any(e.unit == "°F" for e in self.entities()
                                                    if e.component == "sensor") else "C")
        defaults = (DEFAULT_WATER_TEMPERATURE_RANGES if entity.component == "water_heater"
                    else DEFAULT_TEMPERATURE_RANGES)[unit]
        low, high = (given if given is not None else default
                     for given, default in zip(entity.temperature_limits, defaults))
        return (low, high) if low < high else defaults

    def get(self, key: str) -> Entity | None:
        return self._entities.get(key)

    def add(self, entity: Entity) -> None:
        if entity.key not in self._entities and len(self._entities) >= MAX_ENTITIES:
            raise DiscoveryError(f"inventory full ({MAX_ENTITIES} entities): {entity.key} ignored")
        self.remove(entity.key)
        self._entities[entity.key] = entity
        if entity.area_from_name:
            self._unplaced.setdefault(entity.name.split()[0], set()).add(entity.key)
            entity.area = area_in_name(entity.name, self._suggested)
        elif entity.area:
            self._suggested[entity.area] = self._suggested.get(entity.area, 0) + 1
            if self._suggested[entity.area] == 1:
                self._place(entity.area)
        self.version += 1

    def remove(self, key: str) -> None:
        entity = self._entities.pop(key, None)
        if entity is None:
            return
        if entity.area_from_name:
            self._unplaced[entity.name.split()[0]].discard(key)
        elif entity.area:
            self._suggested[entity.area] -= 1
            if not self._suggested[entity.area]:
                del self._suggested[entity.area]
                self._place(entity.area)
        self.version += 1

    def _place(self, area: str) -> None:
        """An area came or went: the entities without a suggested area whose name starts like it look again."""
        for key in self._unplaced.get(area.split()[0], ()):
            entity = self._entities[key]
            entity.area = area_in_name(entity.name, self._suggested)

    def _per_version(self, what: str, build):
        version, value = self._cached.get(what, (-1, None))
        if version != self.version:
            version, value = self.version, build()
            self._cached[what] = (version, value)
        return value

    def areas(self) -> set[str]:
        return self._per_version("areas", lambda: {e.area for e in self._entities.values() if e.area})

    def receive_discovery(self, topic: str, payload: bytes | str) -> Entity | None:
        """Apply one discovery message: add, replace or remove. A config that is malformed, or for an entity
        beyond MAX_ENTITIES, is ignored (self.ignored logs it, rate-limited)."""
        try:
            if len(self._entities) >= MAX_ENTITIES and _discovery_key(topic) not in self._entities and payload:
                raise DiscoveryError(f"inventory full ({MAX_ENTITIES} entities)")
            key, entity = parse_discovery(topic, payload)
            if entity is None:
                self.remove(key)
                return None
            self.add(entity)
        except DiscoveryError as error:
            self.ignored.note(str(error))
            return None
        self.custom = True
        return entity

    # ---- names

    def lexicon(self) -> tuple[set[str], set[str]]:
        """(device phrases, area phrases) a request may use: each name, its parts, and each area.

        Built once per version and shared by every session; it costs up to MAX_ENTITIES * MAX_NAME_WORDS**2
        phrases, so a caller on an event loop runs it in a thread (built_lexicon first says if it is ready)."""
        with self._lexicon_lock:
            version = self.version
            cached_version, lexicon = self._cached.get("lexicon", (-1, None))
            if cached_version != version:
                lexicon = _lexicon_of(list(self._entities.values()))
                self._cached["lexicon"] = (version, lexicon)
            return lexicon

    def built_lexicon(self) -> tuple[set[str], set[str]] | None:
        """The lexicon of this version if it is already built, else None (build it with lexicon(), in a thread)."""
        version, lexicon = self._cached.get("lexicon", (-1, None))
        return lexicon if version == self.version else None

    # ---- commands that could unlock or open something

    def needs_yes(self, entity: Entity, action: str, value: float | None = None) -> bool:
        """Whether a command may only go out after the user's spoken yes. It does when:
        1. it unlocks a lock, or opens a cover of class garage, gate or door (or named garage or gate), or sets
           one to a position that is not closed;
        2. its topic is a command topic of another lock or cover;
        3. it is not a cover or a valve opening itself, and its payload (or a string value of its JSON object) is one a
           lock or guarded cover takes to unlock or open: UNLOCK, OPEN (any case), or a discovered one's own."""
        if entity.component == "lock" and action in ("unlock", "open"):
            return True
        if entity.component == "cover" and (action == "open" or action == "position" and value) and (
                (entity.device_class or "") in GUARDED_COVERS or any(w in entity.name for w in ("garage", "gate"))):
            return True
        command = entity_command(entity, action, value)
        if command is None:
            return False
        topics, payloads = self._per_version("guarded", self._guarded)
        if topics.get(command[0], {entity.key}) != {entity.key}:
            return True
        opens_itself = entity.component in ("cover", "valve") and action == "open"      # a valve needs no yes
        return not opens_itself and bool(_payload_words(command[1]) & payloads)

    def _guarded(self) -> tuple[dict[str, set[str]], set[str]]:
        """(command topic -> keys of the locks and covers it commands, payloads that unlock or open)."""
        topics: dict[str, set[str]] = {}
        payloads = set(UNSAFE_PAYLOADS)
        for e in self._entities.values():
            if e.component not in ("lock", "cover"):
                continue
            for topic in [e.command_topic] + [t for k, t in e.topics.items() if k.endswith("command_topic")]:
                if topic:
                    topics.setdefault(topic, set()).add(e.key)
            if e.component == "lock":
                payloads.add(e.payload("payload_unlock", "UNLOCK").strip().upper())
            elif (e.device_class or "") in GUARDED_COVERS:
                payloads.add(e.payload("payload_open", "OPEN").strip().upper())
        return topics, payloads

    def spoken_names(self) -> tuple[str, ...]:
        """Each area, then each entity's name, once, in the order they arrived, sensors last: what the speech
        recogniser should expect to hear. Whisper's prompt holds about 50 names, and a sensor's name is
        mostly its area and a common word ("snug temperature"), so in a big home the cut falls on sensors."""
        areas = [e.area for e in self._entities.values() if e.area]
        entities = sorted(self._entities.values(), key=lambda e: e.component in ("sensor", "binary_sensor"))
        return tuple(dict.fromkeys(areas + [e.name for e in entities]))

    def resolve(self, name: str | None, area: str | None = None, components=COMPONENTS) -> list[Entity]:
        """Entities a spoken name (and area) can mean, best matches only: exact name, else every entity whose
        name, class word or device class has each of the name's words. Plurals are folded, spellings matched
        through vocabulary.SPELLINGS ("parlor" finds the "parlour lamp"), and when nothing has every word, a class
        word may say what the entity is ("the torchiere lamp" finds the light "torchiere"); a word no entity has
        finds nothing, so
        "the chapel blinds" never means the dormer blinds."""
        candidates = [e for e in self._entities.values() if e.component in components]
        if area:
            area = _spelled(_norm(area))
            candidates = [e for e in candidates if e.area and _spelled(e.area) == area or _contains(_spelled(e.name), area)]
        if not name or _norm(name) in ("everything", "all", "all devices", "every device"):
            return candidates
        wanted = self._with_apostrophes(_spelled(_norm(name)))
        if area and not wanted.startswith(area):
            exact = [e for e in candidates if _spelled(e.name) in (wanted, f"{area} {wanted}")]
        else:
            exact = [e for e in candidates if _spelled(e.name) == wanted]
        if exact:
            return exact
        words = [_singular(w) for w in wanted.split() if w not in STOP_WORDS]
        if not words:
            return []
        have = [(e, _entity_words(e)) for e in candidates]
        found = [e for e, its in have if all(w in its for w in words)] or \
            [e for e, its in have if all(w in its or CLASS_WORDS.get(w) in its and _of_its_kind(w, e)
                                         or _relayed(w, e, words) for w in words)] or \
            self._whole_name_after_words_of_none(wanted, candidates) or \
            _whole_name_before_its_kind(wanted, candidates) or _of_a_named_kind(words, have)
        return _told_apart_by_number(wanted, found)

    def _with_apostrophes(self, said: str) -> str:
        """Each word of the home's possessives typed without its apostrophe, with it: "nans" is "nan's"."""
        possessives = self._per_version("possessives", lambda: {
            w.replace("'", ""): w for e in self._entities.values() for w in f"{e.name} {e.area or ''}".split() if "'" in w})
        return " ".join(possessives.get(w, w) for w in said.split())

    def _whole_name_after_words_of_none(self, wanted: str, candidates: list[Entity]) -> list[Entity]:
        """The thing whose whole name ends what was said, after words that say nothing of this home: no word of
        its names or areas, no word of a room and no kind of device ("the little mushroom lamp", "the old
        radiogram"). The rest must be a whole name, so "the hen house door" never finds the "coach house door",
        and more than a kind, so "the chapel blinds" are not the home's "blinds"."""
        home_words = set().union(*(_entity_words(e) for e in self._entities.values()))
        words = wanted.split()
        for n in range(1, len(words)):
            if _singular(words[n - 1]) in home_words or words[n - 1] in ROOM_PARTS or words[n - 1] in KIND_WORDS:
                return []
            if all(w in KIND_WORDS or _singular(w) in KIND_WORDS for w in words[n:]):
                return []
            tail = spelling_key(" ".join(words[n:]))
            found = [e for e in candidates if spelling_key(e.name) == tail]
            if found:
                return found
        return []


class IgnoredConfigs:
    """The log of ignored discovery configs, bounded for a flood of them (a retained flood returns on every
    restart): the first of each IGNORED_REPORT_S is logged with its reason, the rest are counted into one
    summary line, written by the next one after the interval or by report(). A reason quotes the config's topic
    or fields, untrusted text: it is written as ascii() writes it (a newline in a topic must not forge a log line;
    the engine imports nothing of streaming/, whose logsafe.printable does the same for the doors)."""

    def __init__(self):
        self.count = 0             # ignored since the last line
        self.latest = ""
        self._logged_at: float | None = None

    def note(self, reason: str) -> None:
        now = time.monotonic()
        if self._logged_at is not None and now - self._logged_at < IGNORED_REPORT_S:
            self.count, self.latest = self.count + 1, reason
            return
        self.report()
        log.warning("discovery config ignored: %s", ascii(reason))
        self._logged_at = now

    def report(self) -> None:
        if self.count:
            log.warning("%d more discovery configs ignored; the latest: %s", self.count, ascii(self.latest))
            self.count = 0


class Lexicon(tuple):
    """(name phrases, area phrases) of a home, with what finding them in a request needs, computed once per
    lexicon rather than once per prompt (a home of 2,000 long names has 110,000 phrases)."""

    def __new__(cls, names: set[str], areas: set[str], kinds: dict[str, str] | None = None,
                places: dict[str, str] | None = None, speeds: dict[str, dict[str, int]] | None = None,
                modes: dict[str, dict[str, str]] | None = None, named_kinds: dict[str, set[str]] | None = None):
        lexicon = super().__new__(cls, (names, areas))
        lexicon.kinds = kinds or {}       # each name's component: what a follow-up's verb can act on
        lexicon.places = places or {}     # each name's area: "in that room", "both" of one area, a name said with a room
        lexicon.speeds = speeds or {}     # a fan's speed names and the percent each is (speed_names): "on low"
        lexicon.modes = modes or {}       # a thing's mode words and the action and mode each sends (mode_words)
        lexicon.named_kinds = named_kinds or {}     # each kind said by a name of its own (NAMED_KINDS): its things
        return lexicon

    def __getnewargs__(self):
        return (*self, self.kinds, self.places, self.speeds, self.modes, self.named_kinds)

    def may_mean(self, said: set[str], whole: str) -> bool:
        """Whether the words of a name said (spelling keys) may mean a whole name: each a word of it (or of a vacuum,
        VACUUM_WORDS), or a kind it is of (named_kinds: "the air conditioner" of the daikin) with the rest words of it
        or of its area."""
        its = set(spelling_key(whole).split()) | (_VACUUM_SAID if self.kinds.get(whole) == "vacuum" else set())
        if said <= its:
            return True
        kinds = [set(spelling_key(kind).split()) for kind, wholes in self.named_kinds.items() if whole in wholes]
        return any(kind <= said and said - kind <= its | set(spelling_key(self.places.get(whole) or "").split())
                   for kind in kinds)

    def kinds_of(self, name: str, area: str | None = None) -> set[str]:
        """The components of the whole names a spoken name (and area) can mean: each word of it in the name, in
        either spelling, one or many ("door" in the boathouse: the boathouse door, a cover)."""
        said = set(spelling_key(name.replace("_", " ")).split())
        place = area and spelling_key(area.replace("_", " "))
        return {kind for whole, kind in self.kinds.items() if said <= set(spelling_key(whole).split())
                and (not place or place == spelling_key(self.places.get(whole) or "") or place in spelling_key(whole))}

    @cached_property
    def unspaced(self) -> dict[str, str]:
        """Each phrase by its letters without spaces, and without its apostrophes too: speech recognition splits
        and joins compounds, and a possessive may be typed without its apostrophe ("nans" is "nan's"; "nan" is
        not, nor is "lawn's" the plural "lawns")."""
        return {key: p for p in self[0] | self[1] for key in (p.replace(" ", ""), p.replace(" ", "").replace("'", ""))}

    @cached_property
    def folded(self) -> dict[str, str]:
        """Each phrase by its spelling key (spelling_key): "louvre" and "louvers" find the "louvres"; a whole name
        wins over its other forms with that key (the "grandad's reading lamp", not the plural the lexicon also
        holds)."""
        return {spelling_key(p): p for p in sorted(self[0] | self[1], key=lambda p: (p in self.kinds, p))}

    @cached_property
    def whole(self) -> set[str]:
        """The spelling keys of whole names (every phrase's, when the names are not known apart from their parts):
        what is said of a name beyond part of it is heard as more of it."""
        return {spelling_key(name) for name in self.kinds or self[0]}

    def unabbreviated(self, said: str) -> str:
        """A normalised request with each short name of a kind (vocabulary.NAME_ABBREVIATIONS: "the ac") said in
        full where the home has a thing of those words and no name with the short name's own."""
        for short in sorted(NAME_ABBREVIATIONS, key=len, reverse=True):
            if NAME_ABBREVIATIONS[short] in self[0] and short not in self[0]:
                said = re.sub(rf"(?<![a-z']){re.escape(short)}(?![a-z])", NAME_ABBREVIATIONS[short], said)
        return said

    @cached_property
    def longest(self) -> int:
        """The most words of any phrase."""
        return max((p.count(" ") + 1 for p in self[0] | self[1]), default=0)


def _lexicon_of(entities: list[Entity]) -> Lexicon:
    names, areas = set(), set()
    for e in entities:
        words = e.name.split()
        for i in range(len(words)):
            for j in range(i + 1, len(words) + 1):
                phrase = " ".join(words[i:j])
                if phrase not in STOP_WORDS and not (e.area and phrase == e.area):
                    names.add(phrase)
        for word in words:
            if word in CLASS_WORDS:
                names.add(_plural(word))
        if e.device_class and e.component != "button":     # a button's class is a verb: "restart the router"
            names.add(e.device_class.replace("_", " "))
        if e.component == "vacuum":                        # "the hoover" of a robot called Rocky
            names.update(VACUUM_WORDS)
        if words[-1].isalpha() and len(words) > 1:          # "the lava lamps": the name as a plural
            names.add(" ".join(words[:-1] + [_plural(words[-1])]))
        if e.area:
            areas.add(e.area)
    named_kinds = {kind: {e.name for e in entities if is_of_named_kind(e, kind)} for kind in NAMED_KINDS}
    named_kinds = {kind: wholes for kind, wholes in named_kinds.items() if wholes}
    names |= set(named_kinds)                 # "the air conditioner" of a home whose climate that cools is a daikin
    names |= {_plural(n) for n in names if " " not in n and n.isalpha()}
    names |= {_respelled(n) for n in names if any(w in SPELLINGS or w in _BRITISH for w in n.split())}
    areas |= {_respelled(a) for a in areas if any(w in SPELLINGS or w in _BRITISH for w in a.split())}
    return Lexicon(names - areas - STOP_WORDS, areas, {e.name: e.component for e in entities},
                   {e.name: e.area for e in entities if e.area},
                   {e.name: {word: speed_percent(e, speed) for word, speed in speeds.items()}
                    for e in entities if e.component == "fan" and (speeds := speed_names(e))},
                   {e.name: modes for e in entities if (modes := mode_words(e))}, named_kinds)


def _payload_words(payload: str) -> set[str]:
    """A command payload, and each string value of a JSON object payload, stripped and upper-cased."""
    words = {payload.strip().upper()}
    if payload.lstrip().startswith("{"):
        try:
            data = json.loads(payload)
        except (ValueError, RecursionError):
            return words
        if isinstance(data, dict):
            words |= {v.strip().upper() for v in data.values() if isinstance(v, str)}
    return words


def entity_command(entity: Entity, action: str,
                   value: float | str | None = None) -> tuple[str, str, str | None] | None:
    """(topic, payload, state topic that confirms it) for an action, or None if the entity cannot do it."""
    p, topics = entity.payload, entity.topics
    if entity.component == "vacuum" and action in VACUUM_COMMANDS:
        offered = VACUUM_COMMANDS[action][1] in entity.features
        confirms = entity.state_topic if action != "locate" else None       # its beep changes no state
        return (entity.command_topic, p(f"payload_{action}", action), confirms) if offered else None
    if entity.component == "button":
        return (entity.command_topic, p("payload_press", "PRESS"), None) if action == "press" else None
    if entity.component == "light" and action in COLOUR_ACTIONS:        # value: a colour's red, green, blue; kelvin
        return colour_command(entity, **{COLOUR_ACTIONS[action]: value})
    if entity.component == "light" and action in ("on", "off", "brightness"):
        if entity.json_schema:
            body = {"state": "ON" if action == "on" or (action == "brightness" and value) else "OFF"}
            if action == "brightness":
                body["brightness"] = round(float(value) * entity.brightness_scale / 100)
            return entity.command_topic, json.dumps(body), entity.state_topic
        if action == "brightness":
            topic = topics.get("brightness_command_topic")
            level = str(round(float(value) * entity.brightness_scale / 100))
            return (topic, level, topics.get("brightness_state_topic")) if topic else None
        return entity.command_topic, p("payload_on" if action == "on" else "payload_off", action.upper()), entity.state_topic
    if entity.component == "fan" and action == "speed":
        topic = topics.get("percentage_command_topic")
        payload = render_command(entity.payloads.get("percentage_command_template"), speed_of(entity, value))
        return None if topic is None or payload is None else (topic, payload, topics.get("percentage_state_topic"))
    if entity.component == "fan" and action in ("on", "off"):
        payload = render_command(entity.payloads.get("command_template"),
                                 p("payload_on" if action == "on" else "payload_off", action.upper()))
        return None if payload is None else (entity.command_topic, payload, entity.state_topic)
    if entity.component == "media_player" and action in MEDIA_CONTROLS:
        # a new track is confirmed by its title, a pause or play by the player's state
        verb = MEDIA_CONTROLS[action]
        confirm = topics.get("title_topic") if action in ("next", "previous") else entity.state_topic
        return None if f"{verb}_topic" not in topics else \
            (topics[f"{verb}_topic"], p(f"payload_{verb}", verb.capitalize()), confirm)
    if entity.component == "media_player" and action == "volume":
        # Home Assistant's volume_level, 0 to 1, as the bridge sends and reports it
        return None if "volumeset_topic" not in topics else \
            (topics["volumeset_topic"], f"{max(0.0, min(float(value), 100.0)) / 100:g}", topics.get("volume_topic"))
    if entity.component in ("switch", "media_player") and action in ("on", "off"):
        if entity.command_topic is None:          # a bridge's player that announces no power topic
            return None
        return entity.command_topic, p("payload_on" if action == "on" else "payload_off", action.upper()), entity.state_topic
    if entity.component in THERMOSTATS and action not in MODE_ACTIONS:
        if action == "temperature" and topics.get("temperature_command_topic"):
            return topics["temperature_command_topic"], f"{float(value):g}", topics.get("temperature_state_topic")
        if entity.component == "water_heater":      # switched by its power topic alone, which reports no state
            power = topics.get("power_command_topic")
            return (power, p(f"payload_{action}", action.upper()), None) if power and action in ("on", "off") else None
        if action in ("on", "off") and topics.get("mode_command_topic"):
            return topics["mode_command_topic"], "heat" if action == "on" else "off", topics.get("mode_state_topic")
        return None
    if entity.component == "humidifier" and action == "humidity":
        topic = topics.get("target_humidity_command_topic")
        payload = render_command(entity.payloads.get("target_humidity_command_template"), f"{float(value):g}")
        return None if topic is None or payload is None else \
            (topic, payload, topics.get("target_humidity_state_topic"))
    if entity.component == "humidifier" and action in ("on", "off"):    # its command_template as a fan's
        payload = render_command(entity.payloads.get("command_template"),
                                 p("payload_on" if action == "on" else "payload_off", action.upper()))
        return None if payload is None else (entity.command_topic, payload, entity.state_topic)
    if action in MODE_ACTIONS and (kind := mode_kind(entity, str(value), action)) is not None:
        payload = render_command(entity.payloads.get(f"{kind}_command_template"), value)
        return None if payload is None else \
            (topics[f"{kind}_command_topic"], payload, topics.get(f"{kind}_state_topic"))
    if entity.component == "cover" and action in ("open", "close", "stop"):
        default = {"open": "OPEN", "close": "CLOSE", "stop": "STOP"}[action]
        return entity.command_topic, p(f"payload_{action}", default), entity.state_topic
    if entity.component == "cover" and action == "position" and "set_position_topic" in topics:
        payload = render_position(entity.payloads.get("set_position_template"), position_payload(entity, value))
        return None if payload is None else \
            (topics["set_position_topic"], payload, topics.get("position_topic") or entity.state_topic)
    if entity.component == "cover" and action == "tilt" and entity.tilts is not None:
        # Home Assistant's tilt: a percent on the scale from tilt_min to tilt_max
        low, high = entity.tilts[:2]
        tilt = round(low + (high - low) * max(0.0, min(float(value), 100.0)) / 100)
        payload = render_tilt(entity.payloads.get("tilt_command_template"), tilt)
        confirms = None if entity.payloads.get("tilt_optimistic") == "True" else topics.get("tilt_status_topic")
        return None if payload is None else (topics["tilt_command_topic"], payload, confirms)
    if entity.component == "valve" and action in ("open", "close", "stop", "position"):
        # Home Assistant's valve: one that reports a position is sent its position (open and closed its ends), and
        # stops only where its config names a stop payload
        if action == "stop":
            return None if "payload_stop" not in entity.payloads else \
                (entity.command_topic, p("payload_stop", "STOP"), entity.state_topic)
        if entity.positions is not None:
            percent = {"open": 100, "close": 0}.get(action, value)
            return entity.command_topic, str(position_payload(entity, percent)), entity.state_topic
        if action == "position":
            return None
        return entity.command_topic, p(f"payload_{action}", action.upper()), entity.state_topic
    if entity.component == "lock" and action in ("lock", "unlock"):
        return entity.command_topic, p(f"payload_{action}", action.upper()), entity.state_topic
    if entity.component == "scene" and action == "activate":
        return entity.command_topic, p("payload_on", "ON"), None
    return None


def template_table(template: str) -> tuple[dict, str] | None:
    """A lookup template's literal table and what it looks up ("value", "value_json.fan_mode"), or None."""
    match = _LOOKUP.fullmatch(template.strip())
    if match is None:
        return None
    try:
        table = ast.literal_eval(match.group(1))
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    return (table, re.sub(r"\s+", "", match.group(2))) if isinstance(table, dict) else None


def render_command(template: str | None, value) -> str | None:
    """A command's payload for a value, through the entity's command template when it has one (the forms above);
    None when the template is of another form or its table lacks the value (Home Assistant would send '')."""
    if template is None:
        return str(value)
    lookup = template_table(template)
    if lookup is not None:
        found = lookup[0].get(value) if lookup[1] == "value" else None
        return str(found) if isinstance(found, (str, int, float)) and str(found) else None
    return _filled(template, _VALUE, value)


def _filled(template: str, placeholder: re.Pattern, value) -> str | None:
    """The template with the value at each placeholder; None when the placeholder is missing or any other Jinja is
    left, which Parley does not run."""
    parts = placeholder.split(template)
    if len(parts) < 2 or any(mark in part for part in parts for mark in ("{{", "}}", "{%", "%}", "{#")):
        return None
    return str(value).join(parts)


def render_position(template: str | None, position: int) -> str | None:
    """A cover's set_position payload: its `set_position_template` with `{{ position }}` in it (Zigbee2MQTT's
    `{ "position": {{ position }} }`), else the position; None for a template of any other form."""
    if template is None:
        return str(position)
    return _filled(template, _POSITION, position)


def render_tilt(template: str | None, tilt: int) -> str | None:
    """A cover's tilt payload: its `tilt_command_template` with `{{ tilt_position }}` in it, else the tilt; None for a
    template of any other form."""
    if template is None:
        return str(tilt)
    return _filled(template, _TILT_POSITION, tilt)


def speed_names(entity: Entity) -> dict[str, int]:
    """A fan's speeds by the names its command template sends ("low": 1, "medium": 2, "high": 3, as Zigbee2MQTT
    announces a ZCL fan): the words a user can say its speed in."""
    lookup = template_table(entity.payloads.get("percentage_command_template", ""))
    low, high = entity.speed_range
    if lookup is None or lookup[1] != "value":
        return {}
    return {_norm(name): speed for speed, name in lookup[0].items()
            if isinstance(speed, int) and low <= speed <= high and isinstance(name, str) and _norm(name)}


def modes_to_choose(entity: Entity, action: str = "mode") -> tuple[str, ...]:
    """The modes a thing can be put in by name with an action (MODE_ACTIONS). For "mode": those its discovery lists
    of the kinds said without a word of their own, but "on" and "off", which switch it (a Zigbee2MQTT fan's preset
    "on", a climate's mode "off"), and none when only one is left, which is what switching it on does (a radiator's
    modes off and heat). For a kind said with its word (a climate's fan or swing), all its list ("swing off")."""
    if action != "mode":
        return entity.modes.get(action, ())
    modes = tuple(dict.fromkeys(m for kind, listed in entity.modes.items() if kind not in MODE_KIND_WORDS
                                for m in listed if _norm(m) not in STATES))
    return modes if len(modes) > 1 else ()


def mode_words(entity: Entity) -> dict[str, tuple[str, str]]:
    """The words a thing's modes are said in, each to the action (MODE_ACTIONS) and the mode it sends: each of
    modes_to_choose in words ("fan_only": "fan only") and the common other ways to say it (vocabulary.MODE_SYNONYMS);
    a kind said with its word, after its first word ("fan high", "swing on")."""
    words = {}
    for action in MODE_ACTIONS:
        for mode in modes_to_choose(entity, action):
            said = (_norm(mode), *MODE_SYNONYMS.get(mode.lower(), ())) if action == "mode" else \
                (f"{MODE_KIND_WORDS[action][0]} {_norm(mode)}",)
            for word in said:
                words.setdefault(word, (action, mode))
    return words


def mode_kinds(entity: Entity, action: str = "mode") -> list[str]:
    """The kinds of mode (MODE_KINDS) an action (MODE_ACTIONS) sets or reads: for "mode" those of the thing said
    without a word of their own (a climate's mode, a preset), else the action's own kind (a climate's fan mode)."""
    return [kind for kind in entity.modes if kind not in MODE_KIND_WORDS] if action == "mode" else [action]


def mode_kind(entity: Entity, mode: str, action: str = "mode") -> str | None:
    """The kind of mode (MODE_KINDS) a mode of the thing's own lists is for an action: the first of mode_kinds that
    has it."""
    return next((kind for kind in mode_kinds(entity, action) if mode in entity.modes.get(kind, ())), None)


def speed_of(entity: Entity, percent: float) -> int:
    """A fan's speed in its own range for a percent, as Home Assistant's MQTT fan sends it: the range's share,
    rounded up (50 percent of 1..3 is speed 2)."""
    low, high = entity.speed_range
    return math.ceil((high - low + 1) * float(percent) / 100) + low - 1 if percent else 0


def speed_percent(entity: Entity, speed: float) -> int:
    """A fan's reported speed in its range as a percent, as Home Assistant reads it (speed 2 of 1..3 is 66)."""
    low, high = entity.speed_range
    speed = max(low - 1, min(high, speed))       # 1e308 is the top speed, not NaN on the way to a percent
    return max(0, min(100, int((speed - low + 1) * 100 // (high - low + 1))))


STOP_WORDS = {"the", "a", "an", "my", "our", "in", "on", "of", "off", "at", "to", "and", "one", "1", "2", "3", "4",
              "room", "please"}


def _plural(word: str) -> str:
    return word if word.endswith("s") else (word + "es" if word.endswith(("ch", "sh", "x")) else word + "s")


def _singular(word: str) -> str:
    if word.endswith("es") and word[:-2].endswith(("ch", "sh", "x")):
        return word[:-2]
    return word[:-1] if word.endswith("s") and not word.endswith("ss") and len(word) > 3 else word


def spelling_key(phrase: str) -> str:
    """A phrase with each word one or many alike and in one spelling, by the table (SPELLINGS) and by the endings
    British and American English write apart (SPELLING_ENDINGS): "louvres", "louvre" and "louvers" are alike."""
    words = []
    for word in phrase.split():
        word = _singular(SPELLINGS.get(word, word))
        british = next((b for b, _ in SPELLING_ENDINGS if word.endswith(b) and len(word) > len(b) + 2), None)
        words.append(word[:-len(british)] + dict(SPELLING_ENDINGS)[british] if british else word)
    return " ".join(words)


def _contains(name: str, phrase: str) -> bool:
    return f" {phrase} " in f" {name} "


def _spelled(phrase: str) -> str:
    """A phrase in one spelling (vocabulary.SPELLINGS: the American one)."""
    return " ".join(SPELLINGS.get(w, w) for w in phrase.split())


def _respelled(phrase: str) -> str:
    """A phrase in the other spelling of each word the table has (parlour lamp <-> parlor lamp)."""
    return " ".join(SPELLINGS.get(w) or _BRITISH.get(w, w) for w in phrase.split())


_BRITISH = {american: british for british, american in SPELLINGS.items()}


def _of_its_kind(word: str, e: Entity) -> bool:
    """A cover's kind word names only a cover of that kind (COVER_WORD_CLASSES): its device class, else the kind
    its own name says ("dormer shutters" are no blind), else any."""
    if e.component != "cover" or word not in COVER_WORD_CLASSES:
        return True
    kinds = {e.device_class} if e.device_class else \
        {kind for w in e.name.split() for kind in COVER_WORD_CLASSES.get(w, ())}
    return not kinds or bool(kinds & COVER_WORD_CLASSES[word])


def _relayed(word: str, e: Entity, said: list[str]) -> bool:
    """A kind word said of a switch with the last word of its name, when that word is a thing of the kind
    (vocabulary.RELAYED_KINDS): "the extractor fan" is the switch "larder extractor", "the kiln fan" no switch."""
    last = _singular(_spelled(e.name).split()[-1])
    return e.component == "switch" and last in said and last != word \
        and CLASS_WORDS.get(word) is not None and CLASS_WORDS.get(word) == RELAYED_KINDS.get(last)


def _numbers(words: list[str]) -> set[str]:
    """The numbers among words, as digits: "bunk one" and "bunk 1" say 1."""
    return {str(UNITS[w]) if w in UNITS else w for w in words if w in UNITS or w.isdigit()}


def _told_apart_by_number(wanted: str, found: list[Entity]) -> list[Entity]:
    """Of names alike but for a number ("bunk 1 light", "bunk 2 light"), those whose numbers were all said: a
    number is no kind and no place, so "the bunk 2 lamp" and "the lamp in bunk two" are the one light. A number
    no name has ("bunk 3") leaves them all, for the tool to ask which."""
    said = _numbers(wanted.split())
    if len(found) < 2 or not said:
        return found
    told = [e for e in found if (its := _numbers(e.name.split())) and its <= said]
    return told or found


def _whole_name_before_its_kind(wanted: str, candidates: list[Entity]) -> list[Entity]:
    """The thing whose whole name begins what was said, when every word after it names that thing's own kind: a
    class word of its component ("the mushroom lamp light", "the annexe door lock") or, for a cover or a lock, a
    way in it closes (GUARDED_COVERS: "the attic hatch door"). "The grain mill light" is no switch's."""
    words = wanted.split()
    for n in range(len(words) - 1, 0, -1):
        head = spelling_key(" ".join(words[:n]))
        found = [e for e in candidates if spelling_key(e.name) == head]
        if found:
            return [e for e in found if all(CLASS_WORDS.get(w) == e.component and _of_its_kind(w, e)
                                            or e.component in ("cover", "lock") and _singular(w) in GUARDED_COVERS
                                            for w in words[n:])]
    return []


def is_of_named_kind(e: Entity, kind: str) -> bool:
    """The thing is of a kind said by a name of its own (vocabulary.NAMED_KINDS): a climate that can be set to cool
    is an air conditioner."""
    component, mode = NAMED_KINDS.get(kind, ("", ""))
    return e.component == component and mode in e.modes.get("mode", ())


def _of_a_named_kind(words: list[str], have: list[tuple[Entity, set[str]]]) -> list[Entity]:
    """The things a name said of a kind (vocabulary.NAMED_KINDS: "the air conditioner") means when no thing has it in
    its name: those of that kind, with the other words said ("the loft air conditioner": in the loft)."""
    for kind in NAMED_KINDS:
        if set(kind.split()) <= set(words):
            rest = [w for w in words if w not in kind.split()]
            return [e for e, its in have if is_of_named_kind(e, kind) and all(w in its for w in rest)]
    return []


def _entity_words(e: Entity) -> set[str]:
    name = _spelled(e.name)
    words = {_singular(w) for w in name.split()}
    words |= {CLASS_WORDS[w] for w in name.split() if w in CLASS_WORDS}
    words.add(e.component)
    if e.component in SENSORS:
        words.add("sensor")
    if e.component == "media_player":
        words |= {"tv", "speaker"}
    if e.device_class:
        words |= set(e.device_class.split("_"))
    if e.area:
        words |= set(_spelled(e.area).split())
    return words


# ---------------------------------------------------------------- the default inventory and files

# The default home's topics, which streaming/transports/mqtt/home.py drives: names as lower-case words
# joined by `_` ("living room" -> `living_room`).
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


def vocabulary_inventory() -> Inventory:
    """The default home as entities, so state questions and groups work on it as on a discovered one."""
    entities = []
    for room in ROOMS:
        for device in DEVICES:
            component = {"light": "light", "fan": "fan", "tv": "media_player", "speaker": "media_player"}.get(device, "switch")
            entities.append(Entity(
                key=f"default:{room}/{device}", name=f"{ROOM_SPOKEN[room]} {DEVICE_SPOKEN[device].lower()}",
                component=component, area=ROOM_SPOKEN[room], command_topic=command_topic(room, device),
                state_topic=state_topic(room, device),
                json_schema=device == "light"))
        for kind in SENSOR_KINDS:
            entities.append(Entity(key=f"default:{room}/sensor/{kind}", name=f"{ROOM_SPOKEN[room]} {kind}",
                                   component="sensor", area=ROOM_SPOKEN[room], device_class=kind,
                                   state_topic=sensor_topic(room, kind)))
    entities.append(Entity(key="default:thermostat", name="thermostat", component="climate",
                           topics={"temperature_command_topic": THERMOSTAT_SET,
                                   "temperature_state_topic": THERMOSTAT_STATE}))
    return Inventory(entities, custom=False)


def load_inventory_file(path) -> Inventory:
    """A YAML or JSON file listing entities, for homes without Home Assistant:

        entities:
          - {name: Porch Light, component: light, area: Porch, command_topic: porch/light/set,
             state_topic: porch/light/state}

    Each entry takes the keys of a discovery config (long or abbreviated), plus `component` and `area`.
    A bad entry is an error naming it: the file is the user's to fix, not to half-load.
    """
    path = Path(path)
    text = path.read_text()
    if path.suffix.lower() in (".yaml", ".yml"):
        import yaml
        data = yaml.safe_load(text)
    else:
        data = json.loads(text)
    entries = data.get("entities") if isinstance(data, dict) else data
    if not isinstance(entries, list):
        raise DiscoveryError(f"{path}: expected a list of entities (or a mapping with `entities:`)")
    inventory = Inventory()
    areas = {_norm(e["area"]) for e in entries if isinstance(e, dict) and isinstance(e.get("area"), str)}
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict):
            raise DiscoveryError(f"{path}: entity {i + 1} is not a mapping")
        config = _expand(entry, ABBREVIATIONS)
        component, name = config.get("component"), config.get("name")
        if component not in COMPONENTS:
            raise DiscoveryError(f"{path}: entity {i + 1}: component must be one of {', '.join(COMPONENTS)}")
        if not isinstance(name, str) or not _norm(name):
            raise DiscoveryError(f"{path}: entity {i + 1}: no name")
        area = config.get("area") or config.get("suggested_area")
        key = f"file:{config.get('unique_id') or slug(name)}"
        inventory.add(_entity(key, _norm(name), component, _norm(area) if isinstance(area, str) else None,
                              config, areas, f"{path}: entity {i + 1}"))
    return inventory
