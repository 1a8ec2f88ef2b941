"""The one skill registry: every tool the assistant knows, with its argument checks and its JSON schema.

The embedded generator checks a decoded call against it, remote generators are offered its schemas as
OpenAI function tools, and assistant.tools.ToolRunner runs a skill as its method `_<name>`.
"""
from dataclasses import dataclass

from assistant.vocabulary import DEVICES, ROOMS, SENSOR_KINDS, STATES, UNITS

NUMBER = (int, float)


@dataclass(frozen=True)
class Skill:
    name: str
    description: str
    arguments: dict[str, tuple]       # key -> allowed Python types, or the allowed words
    argument_help: dict[str, str]
    optional: frozenset = frozenset()  # keys a call may leave out
    pure: bool = False                # computes an answer and changes nothing: may run for a reply never used

    def accepts(self, arguments: dict) -> bool:
        """This skill's argument keys (the optional ones may be missing), each a value of the right kind."""
        if not set(self.arguments) - self.optional <= set(arguments) <= set(self.arguments):
            return False
        for key, value in arguments.items():
            allowed = self.arguments[key]
            if isinstance(allowed[0], type):
                if not isinstance(value, allowed) or isinstance(value, bool):
                    return False
            elif value not in allowed:
                return False
        return True

    def schema(self) -> dict:
        """The skill as an OpenAI function tool."""
        properties = {}
        for key, allowed in self.arguments.items():
            if isinstance(allowed[0], type):
                kind = "string" if allowed == (str,) else "number"
                properties[key] = {"type": kind, "description": self.argument_help.get(key, key)}
            else:
                properties[key] = {"type": "string", "enum": list(allowed),
                                   "description": self.argument_help.get(key, key)}
        return {"type": "function", "name": self.name, "description": self.description,
                "parameters": {"type": "object", "properties": properties, "required": [k for k in self.arguments if k not in self.optional],
                               "additionalProperties": False}}


def _skill(skill_name: str, description: str, optional=(), /, *, pure: bool = False,
           **arguments: tuple[tuple, str]) -> Skill:
    return Skill(skill_name, description, {k.rstrip("_"): v[0] for k, v in arguments.items()},
                 {k.rstrip("_"): v[1] for k, v in arguments.items()}, frozenset(optional), pure)


NAME = ((str,), "the device as the user named it, e.g. porch light")
AREA = ((str,), "the room or area the user named, if any")


SKILLS: dict[str, Skill] = {s.name: s for s in (
    _skill("get_time", "The current local time.", pure=True),
    _skill("get_date", "Today's date.", pure=True),
    _skill("set_timer", "Start a countdown timer.", seconds=(NUMBER, "length in seconds")),
    _skill("cancel_timer", "Cancel every running timer."),
    _skill("set_device", "Switch a device in a room on or off.", device=(tuple(DEVICES), "the device"),
           room=(tuple(ROOMS), "the room"), state=(STATES, "on or off")),
    _skill("set_brightness", "Dim or brighten a room's lights.", room=(tuple(ROOMS), "the room"),
           percent=(NUMBER, "brightness from 0 to 100")),
    _skill("change_brightness", "Make a room's lights brighter or dimmer by a step.", room=(tuple(ROOMS), "the room"),
           direction=(("up", "down"), "up: brighter, down: dimmer")),
    _skill("set_thermostat", "Set the thermostat (in a home with several, the one named or in the area named).",
           ("name", "area"), degrees=(NUMBER, "target temperature in degrees"),
           name=((str,), "the thermostat or heater as the user named it, if any"), area=AREA),
    _skill("read_sensor", "Read a room's temperature or humidity.", room=(tuple(ROOMS), "the room"),
           kind=(SENSOR_KINDS, "which reading")),
    _skill("calculate", "Evaluate arithmetic.", pure=True, expression=((str,), "numbers with + - * / and parentheses")),
    _skill("convert", "Convert a quantity between units.", pure=True, value=(NUMBER, "the quantity"),
           from_=(UNITS, "the unit it is in"), to=(UNITS, "the unit wanted")),
    # The user's own devices, found by the name they use (assistant.inventory resolves it).
    _skill("switch_device", "Switch a named device on or off.", ("area",), name=NAME,
           state=(STATES, "on or off"), area=AREA),
    _skill("switch_all", "Switch every device of a kind (or everything) on or off, in one area or the whole home.",
           ("area",), name=((str,), "the kind, e.g. lights or fans, or everything"),
           state=(STATES, "on or off"), area=AREA),
    _skill("set_level", "Set a named light's brightness.", ("area",), name=NAME,
           percent=(NUMBER, "brightness from 0 to 100"), area=AREA),
    _skill("change_level", "Make a named light brighter or dimmer by a step.", ("area",), name=NAME,
           direction=(("up", "down"), "up: brighter, down: dimmer"), area=AREA),
    _skill("get_state", "Say whether a named device is on, open or locked, or what a sensor reads.",
           ("area",), name=NAME, area=AREA),
    _skill("set_cover", "Open, close or stop a cover: blinds, curtains, a garage door (opening a garage door "
           "asks for a spoken yes first).", ("area",), name=NAME,
           action=(("open", "close", "stop"), "what to do"), area=AREA),
    _skill("set_lock", "Lock or unlock a lock (unlocking asks for a spoken yes first).", name=NAME,
           action=(("lock", "unlock"), "what to do")),
    _skill("confirm", "Answer the question the assistant just asked before unlocking or opening.",
           answer=(("yes", "no"), "the user's answer")),
    _skill("activate_scene", "Run a scene, e.g. movie time.", name=((str,), "the scene's name")),
    _skill("start_timer", "Start a named countdown timer.", name=((str,), "the timer's name, e.g. pasta"),
           seconds=(NUMBER, "length in seconds")),
    _skill("timer_left", "How long is left on a timer.", ("name",),
           name=((str,), "the timer's name, if the user gave one")),
    _skill("stop_timer", "Cancel one named timer.", name=((str,), "the timer's name")),
    _skill("set_alarm", "Set an alarm at a clock time.", ("period",), hour=(NUMBER, "hour, 0 to 23 or 1 to 12"),
           minute=(NUMBER, "minute, 0 to 59"), period=(("am", "pm"), "am or pm, if the user said it")),
)}


def valid_call(call: dict) -> bool:
    """The call names a known skill with exactly its argument keys and values of the right kind."""
    skill = SKILLS.get(call["name"])
    return skill is not None and skill.accepts(call["arguments"])
