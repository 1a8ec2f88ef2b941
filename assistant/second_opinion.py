"""A second opinion from Home Assistant's own phrasings, asked only where the model's reply would be a refusal.

The English templates of the `home-assistant-intents` package, matched by `hassil` (both Apache-2.0), were
written by Home Assistant's community, which never saw Parley's corpus or bench sets. They are matched against
slot lists built from the session's home only (its names and areas, assistant.inventory; the default home's
words, assistant.vocabulary), so a name the home lacks never matches and never acts. A matched intent becomes a
call of the one skill registry through INTENT_SKILLS; an intent with no row there still refuses.
"""
import functools
import threading
import weakref
from dataclasses import dataclass

from hassil import Intents, TextSlotList, TextSlotValue, recognize_best
from home_assistant_intents import get_intents

from assistant.inventory import CLASS_WORDS, PLURAL_KINDS, SWITCH_ALL_COMPONENTS, Inventory, vocabulary_inventory
from assistant.skills import MEDIA_SKILLS, SKILL_COMPONENTS, SKILLS, TIMER_NAMED, TIMER_SKILLS, valid_call
from assistant.vocabulary import DEVICE_SPOKEN, DEVICES, EVERY_THING, ROOMS, SPELLINGS


@dataclass(frozen=True)
class IntentSkill:
    """How one Home Assistant intent, said of a thing of one domain, is a Parley skill's call."""
    skill: str
    fixed: tuple = ()                 # (argument, value) pairs the intent itself says
    home: str | None = None           # "default": only in the default home, "own": only in the user's own
    kind: str = ""                    # the kind of thing the intent is said of: with no name but an area ("set the
                                      # study fan speed to 60"), HA's device class or this kind is the name, and the
                                      # area must have one thing of it


# (intent, domain of what it names or None for any) -> its calls, the first whose arguments the match fills
# wins. The HA slots become arguments through SLOT_ARGUMENTS, over the fixed ones; HassTurnOn on a cover or a valve
# opens it, on a lock locks it, on a button presses it.
INTENT_SKILLS: dict[tuple[str, str | None], tuple[IntentSkill, ...]] = {
    ("HassTurnOn", "cover"): (IntentSkill("set_cover", (("action", "open"),)),),
    ("HassTurnOff", "cover"): (IntentSkill("set_cover", (("action", "close"),)),),
    ("HassTurnOn", "lock"): (IntentSkill("set_lock", (("action", "lock"),)),),
    ("HassTurnOff", "lock"): (IntentSkill("set_lock", (("action", "unlock"),)),),
    ("HassTurnOn", "scene"): (IntentSkill("activate_scene"),),
    ("HassTurnOn", None): (IntentSkill("switch_device", (("state", "on"),)),
                           IntentSkill("switch_all", (("state", "on"),))),
    ("HassTurnOff", None): (IntentSkill("switch_device", (("state", "off"),)),
                            IntentSkill("switch_all", (("state", "off"),))),
    ("HassLightSet", None): (IntentSkill("set_level"), IntentSkill("set_brightness", home="default")),
    ("HassClimateSetTemperature", None): (IntentSkill("set_thermostat"),),
    ("HassClimateGetTemperature", None): (IntentSkill("read_sensor", (("kind", "temperature"),), home="default"),
                                          IntentSkill("get_state", (("name", "temperature"),), home="own")),
    ("HassGetState", None): (IntentSkill("get_state"),),
    ("HassGetCurrentTime", None): (IntentSkill("get_time"),),
    ("HassGetCurrentDate", None): (IntentSkill("get_date"),),
    ("HassStartTimer", None): (IntentSkill("start_timer"), IntentSkill("set_timer")),
    ("HassCancelTimer", None): (IntentSkill("stop_timer"), IntentSkill("cancel_timer")),
    ("HassCancelAllTimers", None): (IntentSkill("cancel_timer"),),
    ("HassTimerStatus", None): (IntentSkill("timer_left"),),
    # the kinds of device of round 39, each only in the user's own home (the default home has none of them, and its
    # fans, TVs and speakers are switched on and off only)
    ("HassTurnOn", "valve"): (IntentSkill("set_cover", (("action", "open"),), home="own"),),
    ("HassTurnOff", "valve"): (IntentSkill("set_cover", (("action", "close"),), home="own"),),
    ("HassTurnOn", "button"): (IntentSkill("press_button", home="own"),),
    ("HassSetPosition", None): (IntentSkill("set_level", home="own", kind="cover"),),
    ("HassFanSetSpeed", None): (IntentSkill("set_level", home="own", kind="fan"),),
    ("HassVacuumStart", None): (IntentSkill("command_vacuum", (("command", "start"),), home="own"),),
    ("HassVacuumReturnToBase", None): (IntentSkill("command_vacuum", (("command", "return_to_base"),), home="own"),),
    ("HassMediaPause", None): (IntentSkill("control_media", (("action", "pause"),), home="own"),),
    ("HassMediaUnpause", None): (IntentSkill("control_media", (("action", "resume"),), home="own"),),
    ("HassMediaNext", None): (IntentSkill("control_media", (("action", "next"),), home="own"),),
    ("HassMediaPrevious", None): (IntentSkill("control_media", (("action", "previous"),), home="own"),),
    ("HassMediaPlayerMute", None): (IntentSkill("control_media", (("action", "mute"),), home="own"),),
    ("HassMediaPlayerUnmute", None): (IntentSkill("control_media", (("action", "unmute"),), home="own"),),
    ("HassSetVolume", None): (IntentSkill("set_volume", home="own"),),
    ("HassSetVolumeRelative", None): (IntentSkill("change_volume", home="own"),),
}
# HA slot -> the argument of each skill that takes it.
SLOT_ARGUMENTS = {"name": ("name",), "area": ("area", "room"), "brightness": ("percent",),
                  "temperature": ("degrees",), "position": ("percent",), "percentage": ("percent",),
                  "volume_level": ("percent",), "volume_step": ("direction",)}
# A kind of thing whose HA templates are another domain's: a water heater is set to a temperature as a thermostat is
# (inventory.THERMOSTATS), and HA's English templates say that of climate things only.
TEMPLATE_DOMAINS = {"water_heater": "climate"}
# A kind of thing said for a whole group ("the kitchen lights" with no name): switch_all's word for it.
GROUP_WORDS = {"light": "lights", "fan": "fans", "switch": "switches", "cover": "covers", "media_player": "tvs"}
TIMER_SLOTS = {"hours": 3600, "minutes": 60, "seconds": 1}
# HA's slot for a command a timer runs when it ends ("turn off the oven in ten minutes"): Parley's timers only ring
DELAYED_COMMAND = "conversation_command"
# Words that ask nothing: a match that says no other word beside the names it matched (HA's '[the] {name}'
# turns a bare name on) is no request.
EMPTY_WORDS = {"the", "a", "an", "my", "our", "please", "now"}
DEVICE_WORDS = {spoken.lower() for spoken in DEVICE_SPOKEN.values()}     # the default home's devices, room unsaid
# a kind said as one thing ("the nursery lamp"): HA's group of the area, which must then be one thing
SINGLE_KINDS = {word for word, component in CLASS_WORDS.items() if word not in PLURAL_KINDS | {"lighting"}
                and component in SWITCH_ALL_COMPONENTS}


class SecondOpinion:
    """The English intents, compiled once per process (a few tenths of a second with the import); slot lists
    once per version of a home."""

    def __init__(self, intents: Intents, skip_words: list[str]):
        self.intents, self.skip_words = intents, skip_words
        self._lists: weakref.WeakKeyDictionary[Inventory, tuple[int, dict]] = weakref.WeakKeyDictionary()
        self._lists_lock = threading.Lock()

    @classmethod
    @functools.cache
    def shared(cls) -> "SecondOpinion":
        """The one instance of this process, loaded and warmed (the first match compiles the templates)."""
        data = get_intents("en")
        # only the intents a skill serves: the others (broadcasts, shopping lists, media search) hold wildcards
        # that make a long request slow to match, and could only refuse
        data["intents"] = {name: intent for name, intent in data["intents"].items()
                           if any(name == mapped for mapped, _ in INTENT_SKILLS)}
        opinion = cls(Intents.from_dict(data), data.get("skip_words", []))
        opinion.call(["what time is it"], vocabulary_inventory())
        return opinion

    def call(self, requests: list[str], inventory: Inventory) -> dict | None:
        """The call the first of the requests (the same request, read several ways) matched to says, or None.
        CPU work: a caller on an event loop runs it in a thread."""
        lists = self.slot_lists(inventory)
        for request in dict.fromkeys(r for r in requests if r):
            result = recognize_best(request, self.intents, slot_lists=lists, skip_words=self.skip_words,
                                    language="en")
            if result is not None and _says_more_than_names(request, result):
                call, by_kind = _call_of(result, default_home=not inventory.custom)
                if call is not None and (not inventory.custom or _group_found(call, request, inventory, by_kind)):
                    return call
        return None

    def slot_lists(self, inventory: Inventory) -> dict:
        """The home's names and areas as hassil's lists "name", "area" and "floor" (none: Parley has no floors)."""
        if not inventory.custom:
            return _default_lists()
        with self._lists_lock:
            version, lists = self._lists.get(inventory, (-1, None))
            if version != inventory.version:
                lists = _own_lists(inventory)
                self._lists[inventory] = (inventory.version, lists)
            return lists


def _spellings(phrase: str) -> list[str]:
    """The phrase as it is, in American and in British spelling (vocabulary.SPELLINGS), once each."""
    british = {american: british for british, american in SPELLINGS.items()}
    return list(dict.fromkeys([phrase, *(" ".join(table.get(w, w) for w in phrase.split())
                                         for table in (SPELLINGS, british))]))


@functools.cache
def _default_lists() -> dict:
    """The default home: each device word is a name (its value the device, as the vocabulary inventory names
    it) and so is each entity's whole name ("kitchen light"); each room word is an area (its value the room)."""
    entities = vocabulary_inventory().entities()
    component = {e.key.rsplit("/", 1)[-1]: e.component for e in entities}       # default:kitchen/tv -> tv
    names = [TextSlotValue.from_tuple((word, DEVICE_SPOKEN[device].lower(), {"domain": component[device]}),
                                      allow_template=False)
             for device, words in DEVICES.items() for word in words]
    names += [TextSlotValue.from_tuple((e.name, e.name, {"domain": e.component}), allow_template=False)
              for e in entities]
    areas = [TextSlotValue.from_tuple((word, room), allow_template=False) for room, words in ROOMS.items()
             for word in words]
    return {"name": TextSlotList("name", names), "area": TextSlotList("area", areas),
            "floor": TextSlotList("floor", [])}


def _own_lists(inventory: Inventory) -> dict:
    """The user's own home: each entity's name, also without its area in front ("porch light" is the light of
    the porch), each area; both in either spelling."""
    names, areas = [], set()
    for entity in inventory.entities():
        said = [entity.name]
        if entity.area and entity.name.startswith(entity.area + " "):
            said.append(entity.name.removeprefix(entity.area + " "))
        context = {"domain": TEMPLATE_DOMAINS.get(entity.component, entity.component)}
        if entity.device_class:
            context["device_class"] = entity.device_class
        names += [TextSlotValue.from_tuple((spelled, phrase, context), allow_template=False)
                  for phrase in said for spelled in _spellings(phrase)]
        if entity.area:
            areas.update((spelled, entity.area) for spelled in _spellings(entity.area))
    return {"name": TextSlotList("name", names),
            "area": TextSlotList("area", [TextSlotValue.from_tuple(a, allow_template=False) for a in sorted(areas)]),
            "floor": TextSlotList("floor", [])}


def _says_more_than_names(request: str, result) -> bool:
    words = set(request.lower().replace(",", " ").replace("?", " ").replace(".", " ").split())
    for entity in result.entities_list:
        words -= set(str(entity.text).lower().split())
    return bool(words - EMPTY_WORDS)


def _call_of(result, default_home: bool) -> tuple[dict | None, bool]:
    """The result as the call of its intent's first skill whose arguments it fills exactly, or None; and whether its
    name is a kind said with an area."""
    slots = {name: entity.value for name, entity in result.entities.items()}
    if DELAYED_COMMAND in slots:        # "switch the hot tub on, we'll be out in ten minutes": no timer of Parley's
        return None, False
    named = slots.get("name")
    domain = result.context.get("domain") or slots.get("domain")
    seconds = sum(TIMER_SLOTS[key] * float(slots[key]) for key in TIMER_SLOTS if key in slots)
    for choice in INTENT_SKILLS.get((result.intent.name, domain), ()) or \
            INTENT_SKILLS.get((result.intent.name, None), ()):
        if choice.home == ("own" if default_home else "default"):
            continue
        arguments = dict(choice.fixed)
        by_kind = bool(choice.kind) and named is None
        if by_kind:
            arguments["name"] = slots.get("device_class", choice.kind)
        for slot, value in slots.items():
            if slot == "domain" and named is None and choice.skill == "switch_all":
                arguments["name"] = GROUP_WORDS.get(value, value)
            for key in SLOT_ARGUMENTS.get(slot, ()):
                arguments[key] = value           # a name said is the thing read, not "temperature"
        if seconds:
            arguments["seconds"] = int(seconds) if seconds.is_integer() else seconds
        if "name" in slots and choice.skill in TIMER_NAMED:
            arguments["name"] = str(slots["name"]).strip()
        elif default_home and arguments.get("name") in DEVICE_WORDS and "area" not in arguments:
            continue         # the default home has one of each device per room: "Which room?" is the model's
        call = _fitted(choice.skill, arguments)
        if call is not None:
            return call, by_kind
    return None, False


def _group_found(call: dict, request: str, inventory: Inventory, by_kind: bool) -> bool:
    """HA reads "the gallery fan" and "the nursery lamp" as the area's fans and lights. In the user's own home
    that group must be there, and said as one thing it must be one thing: else a name the home lacks would act
    on others. A thing named with its area must be there too: HA reads "the parlour lantern" as the area and a
    name of the home ("lantern", of the veranda lantern) that is not in it. A kind said with an area for one thing
    ("set the bedroom blinds to 40%") must be one thing of the skill's there, and an area said for a media player
    ("pause the music in the boot room") must have one."""
    if call["name"] != "switch_all":
        arguments = call["arguments"]
        if by_kind:
            return len(inventory.resolve(arguments["name"], arguments.get("area"), SKILL_COMPONENTS[call["name"]])) == 1
        if call["name"] in MEDIA_SKILLS and "name" not in arguments and "area" in arguments:
            return bool(inventory.resolve(None, arguments["area"], SKILL_COMPONENTS[call["name"]]))
        return call["name"] in TIMER_SKILLS or "name" not in arguments \
            or bool(inventory.resolve(arguments["name"], arguments.get("area")))
    found = inventory.resolve(call["arguments"].get("name"), call["arguments"].get("area"), SWITCH_ALL_COMPONENTS)
    said = set(request.lower().replace(",", " ").replace(".", " ").split())
    one_thing = bool(said & SINGLE_KINDS) and not said & (PLURAL_KINDS | set(EVERY_THING))
    return len(found) == 1 if one_thing else bool(found)


def _fitted(skill: str, arguments: dict) -> dict | None:
    """The arguments the skill takes, numbers as numbers, if they make a valid call; else None."""
    taken = {}
    for key, allowed in SKILLS[skill].arguments.items():
        if key not in arguments:
            continue
        value = arguments[key]
        if isinstance(allowed[0], type) and allowed[0] is not str:
            try:
                number = float(value)
            except (TypeError, ValueError):
                return None
            value = int(number) if number.is_integer() else number
        taken[key] = value
    call = {"name": skill, "arguments": taken}
    return call if valid_call(call) else None
