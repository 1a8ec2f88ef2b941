"""The home inventory: the user's own devices, learnt from Home Assistant MQTT discovery or an inventory file,
and how a spoken name finds them.

Pure code, no I/O: streaming/transports/mqtt/home.py feeds discovery messages in (`receive_discovery`), the
tools resolve names against it. Each entity knows its own command and state topics and payloads, so a
command goes where Home Assistant would send it.

Discovery follows Home Assistant's MQTT discovery: `homeassistant/<component>/[<node_id>/]<object_id>/config`,
retained JSON; an empty payload removes the entity; `~` stands for the base topic; abbreviated keys
(`cmd_t`, `stat_t`, `pl_on`, `dev`, ...) mean their long names. Value templates are not rendered (no Jinja
here): state payloads are compared as they come, or read from a JSON object's usual key.
"""
import json
import logging
import re
from dataclasses import dataclass, field
from pathlib import Path

from assistant.vocabulary import DEVICE_SPOKEN, DEVICES, OTHER_ROOM_WORDS, ROOM_SPOKEN, ROOMS, SENSOR_KINDS

log = logging.getLogger("parley.inventory")

COMPONENTS = ("light", "switch", "fan", "climate", "cover", "lock", "scene", "sensor", "binary_sensor",
              "media_player")
SWITCHABLE = ("light", "switch", "fan", "climate", "media_player")
DISCOVERY_PREFIX = "homeassistant"
MAX_ENTITIES = 2000

# Home Assistant's abbreviations for the keys read here (homeassistant/components/mqtt/abbreviations.py).
ABBREVIATIONS = {
    "cmd_t": "command_topic", "stat_t": "state_topic", "pl_on": "payload_on", "pl_off": "payload_off",
    "stat_on": "state_on", "stat_off": "state_off", "bri_cmd_t": "brightness_command_topic",
    "bri_stat_t": "brightness_state_topic", "bri_scl": "brightness_scale",
    "temp_cmd_t": "temperature_command_topic", "temp_stat_t": "temperature_state_topic",
    "curr_temp_t": "current_temperature_topic", "mode_cmd_t": "mode_command_topic",
    "pl_open": "payload_open", "pl_cls": "payload_close", "pl_stop": "payload_stop", "stat_open": "state_open",
    "stat_clsd": "state_closed", "stat_opening": "state_opening", "stat_closing": "state_closing",
    "pl_lock": "payload_lock", "pl_unlk": "payload_unlock", "stat_locked": "state_locked",
    "stat_unlocked": "state_unlocked", "dev_cla": "device_class", "unit_of_meas": "unit_of_measurement",
    "uniq_id": "unique_id", "obj_id": "object_id", "dev": "device", "sa": "suggested_area",
    "avty_t": "availability_topic", "json_attr_t": "json_attributes_topic", "val_tpl": "value_template",
    "pct_cmd_t": "percentage_command_topic", "pos_t": "position_topic", "set_pos_t": "set_position_topic",
}
DEVICE_ABBREVIATIONS = {"sa": "suggested_area", "ids": "identifiers", "mf": "manufacturer", "mdl": "model"}

# Room words people use; an entity without a suggested area takes one of these (or another entity's
# area) from the front of its name: "Porch Light" -> area "porch".
ROOM_WORDS = {w for words in ROOMS.values() for w in words} | OTHER_ROOM_WORDS
# Words that name a kind of device: they stay a device's name, never its area.
CLASS_WORDS = {
    "light": "light", "lights": "light", "lamp": "light", "lamps": "light", "bulb": "light", "lighting": "light",
    "fan": "fan", "fans": "fan", "switch": "switch", "switches": "switch", "plug": "switch", "plugs": "switch",
    "outlet": "switch", "socket": "switch", "blind": "cover", "blinds": "cover", "shade": "cover",
    "shades": "cover", "shutter": "cover", "shutters": "cover", "curtain": "cover", "curtains": "cover",
    "lock": "lock", "locks": "lock", "thermostat": "climate", "tv": "media_player", "speaker": "media_player",
}


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


def parse_discovery(topic: str, payload: bytes | str, known_areas=()) -> tuple[str, Entity | None]:
    """(key, entity) for a discovery message; entity None means "remove key". DiscoveryError if malformed."""
    levels = topic.split("/")
    if len(levels) not in (4, 5) or levels[-1] != "config":
        raise DiscoveryError(f"not a discovery config topic: {topic}")
    component = levels[1]
    key = "/".join(levels[1:-1])
    text = payload.decode("utf-8", "replace") if isinstance(payload, bytes) else payload
    if not text.strip():
        return key, None
    if component not in COMPONENTS:
        raise DiscoveryError(f"component {component!r} is not one Parley drives")
    try:
        config = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise DiscoveryError(f"{topic}: not JSON ({error})") from None
    if not isinstance(config, dict):
        raise DiscoveryError(f"{topic}: config is not a JSON object")
    config = _expand(config, ABBREVIATIONS)
    base = config.get("~")
    if isinstance(base, str):
        config = {k: (v.replace("~", base) if isinstance(v, str) and k.endswith("topic") else v)
                  for k, v in config.items()}
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
    return key, _entity(key, _norm(name), component, _norm(area) if isinstance(area, str) and _norm(area) else None,
                        config, known_areas, topic)


def _entity(key, name, component, area, config, known_areas, where) -> Entity:
    needs_command = component in ("light", "switch", "fan", "cover", "lock", "scene")
    topics = {k: v for k, v in config.items() if k.endswith("_topic") and isinstance(v, str)}
    command, state = topics.pop("command_topic", None), topics.pop("state_topic", None)
    if component == "climate":
        if "temperature_command_topic" not in topics and "mode_command_topic" not in topics:
            raise DiscoveryError(f"{where}: a climate entity needs temperature_command_topic")
    elif needs_command and not command:
        raise DiscoveryError(f"{where}: {component} needs command_topic")
    if component in ("sensor", "binary_sensor") and not state:
        raise DiscoveryError(f"{where}: {component} needs state_topic")
    for topic in filter(None, [command, state, *topics.values()]):
        if "#" in topic or "+" in topic:
            raise DiscoveryError(f"{where}: wildcard in topic {topic!r}")
    payloads = {k: str(v) for k, v in config.items()
                if (k.startswith("payload_") or k.startswith("state_") or k == "value_template") and k != "state_topic"
                and isinstance(v, (str, int, float)) and not isinstance(v, bool)}
    scale = config.get("brightness_scale", 255)
    device_class = config.get("device_class")
    return Entity(
        key=key, name=name, component=component, area=area or area_in_name(name, known_areas),
        device_class=str(device_class).lower() if isinstance(device_class, str) else None,
        unit=config.get("unit_of_measurement") if isinstance(config.get("unit_of_measurement"), str) else None,
        command_topic=command, state_topic=state, payloads=payloads, topics=topics,
        json_schema=config.get("schema") == "json",
        brightness_scale=int(scale) if isinstance(scale, (int, float)) and not isinstance(scale, bool) and scale > 0 else 255)


def area_in_name(name: str, known_areas=()) -> str | None:
    """The longest room phrase at the front of a name that leaves a device word after it."""
    words = name.split()
    rooms = ROOM_WORDS | {_norm(a) for a in known_areas}
    for n in range(len(words) - 1, 0, -1):
        if " ".join(words[:n]) in rooms and words[n - 1] not in CLASS_WORDS:
            return " ".join(words[:n])
    return None


# ---------------------------------------------------------------- the inventory

class Inventory:
    """The entities of one home, keyed by discovery topic (or file id); bounded by MAX_ENTITIES.

    custom: names come from the user's home (discovery or a file), so requests reach the model with the
    names as slots (assistant.chat_template.hide_names); the default inventory is the vocabulary's own
    rooms and devices, which the model knows by word.
    """

    def __init__(self, entities=(), custom: bool = True):
        self.custom = custom
        self._entities: dict[str, Entity] = {}
        self.version = 0
        for entity in entities:
            self.add(entity)

    def __len__(self) -> int:
        return len(self._entities)

    def entities(self) -> list[Entity]:
        return list(self._entities.values())

    def get(self, key: str) -> Entity | None:
        return self._entities.get(key)

    def add(self, entity: Entity) -> None:
        if entity.key not in self._entities and len(self._entities) >= MAX_ENTITIES:
            log.warning("inventory full (%d entities): %s ignored", MAX_ENTITIES, entity.key)
            return
        self._entities[entity.key] = entity
        self.version += 1

    def remove(self, key: str) -> None:
        if self._entities.pop(key, None) is not None:
            self.version += 1

    def areas(self) -> set[str]:
        return {e.area for e in self._entities.values() if e.area}

    def receive_discovery(self, topic: str, payload: bytes | str) -> Entity | None:
        """Apply one discovery message: add, replace or remove. A malformed config is logged and ignored."""
        try:
            key, entity = parse_discovery(topic, payload, self.areas())
        except DiscoveryError as error:
            log.warning("discovery config ignored: %s", error)
            return None
        if entity is None:
            self.remove(key)
            return None
        self.custom = True
        self.add(entity)
        return entity

    # ---- names

    def lexicon(self) -> tuple[set[str], set[str]]:
        """(device phrases, area phrases) a request may use: each name, its parts, and each area."""
        names, areas = set(), set()
        for e in self._entities.values():
            words = e.name.split()
            for i in range(len(words)):
                for j in range(i + 1, len(words) + 1):
                    phrase = " ".join(words[i:j])
                    if phrase not in STOP_WORDS and not (e.area and phrase == e.area):
                        names.add(phrase)
            for word in words:
                if word in CLASS_WORDS:
                    names.add(_plural(word))
            if e.device_class:
                names.add(e.device_class.replace("_", " "))
            if e.area:
                areas.add(e.area)
        names |= {_plural(n) for n in names if " " not in n and n.isalpha()}
        return names - areas - STOP_WORDS, areas

    def spoken_names(self) -> tuple[str, ...]:
        """Each area, then each entity's name, once, in the order they arrived, sensors last: what the speech
        recogniser should expect to hear. Whisper's prompt holds about 50 names, and a sensor's name is
        mostly its area and a common word ("snug temperature"), so in a big home the cut falls on sensors."""
        areas = [e.area for e in self._entities.values() if e.area]
        entities = sorted(self._entities.values(), key=lambda e: e.component in ("sensor", "binary_sensor"))
        return tuple(dict.fromkeys(areas + [e.name for e in entities]))

    def resolve(self, name: str | None, area: str | None = None, components=COMPONENTS) -> list[Entity]:
        """Entities a spoken name (and area) can mean, best matches only: exact name, else every entity whose
        name, class word or device class contains all the name's words (plurals folded)."""
        candidates = [e for e in self._entities.values() if e.component in components]
        if area:
            area = _norm(area)
            candidates = [e for e in candidates if e.area == area or _contains(e.name, area)]
        if not name or _norm(name) in ("everything", "all", "all devices", "every device"):
            return candidates
        wanted = _norm(name)
        if area and not wanted.startswith(area):
            exact = [e for e in candidates if e.name in (wanted, f"{area} {wanted}")]
        else:
            exact = [e for e in candidates if e.name == wanted]
        if exact:
            return exact
        words = [_singular(w) for w in wanted.split() if w not in STOP_WORDS]
        if not words:
            return []
        return [e for e in candidates if all(w in _entity_words(e) for w in words)]


STOP_WORDS = {"the", "a", "an", "my", "our", "in", "on", "of", "off", "at", "to", "and", "one", "1", "2", "3", "4",
              "room", "please"}


def _plural(word: str) -> str:
    return word if word.endswith("s") else (word + "es" if word.endswith(("ch", "sh", "x")) else word + "s")


def _singular(word: str) -> str:
    if word.endswith("es") and word[:-2].endswith(("ch", "sh", "x")):
        return word[:-2]
    return word[:-1] if word.endswith("s") and not word.endswith("ss") and len(word) > 3 else word


def _contains(name: str, phrase: str) -> bool:
    return f" {phrase} " in f" {name} "


def _entity_words(e: Entity) -> set[str]:
    words = {_singular(w) for w in e.name.split()}
    words |= {CLASS_WORDS[w] for w in e.name.split() if w in CLASS_WORDS}
    words.add(e.component)
    if e.component == "media_player":
        words |= {"tv", "speaker"}
    if e.device_class:
        words |= set(e.device_class.split("_"))
    if e.area:
        words |= set(e.area.split())
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
