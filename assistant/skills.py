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

    def accepts(self, arguments: dict) -> bool:
        """Exactly this skill's argument keys, each a value of the right kind."""
        if set(arguments) != set(self.arguments):
            return False
        for key, allowed in self.arguments.items():
            value = arguments[key]
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
                "parameters": {"type": "object", "properties": properties, "required": list(self.arguments),
                               "additionalProperties": False}}


def _skill(name: str, description: str, **arguments: tuple[tuple, str]) -> Skill:
    return Skill(name, description, {k.rstrip("_"): v[0] for k, v in arguments.items()},
                 {k.rstrip("_"): v[1] for k, v in arguments.items()})


SKILLS: dict[str, Skill] = {s.name: s for s in (
    _skill("get_time", "The current local time."),
    _skill("get_date", "Today's date."),
    _skill("set_timer", "Start a countdown timer.", seconds=(NUMBER, "length in seconds")),
    _skill("cancel_timer", "Cancel every running timer."),
    _skill("set_device", "Switch a device in a room on or off.", device=(tuple(DEVICES), "the device"),
           room=(tuple(ROOMS), "the room"), state=(STATES, "on or off")),
    _skill("set_brightness", "Dim or brighten a room's lights.", room=(tuple(ROOMS), "the room"),
           percent=(NUMBER, "brightness from 0 to 100")),
    _skill("set_thermostat", "Set the thermostat.", degrees=(NUMBER, "target temperature in degrees")),
    _skill("read_sensor", "Read a room's temperature or humidity.", room=(tuple(ROOMS), "the room"),
           kind=(SENSOR_KINDS, "which reading")),
    _skill("calculate", "Evaluate arithmetic.", expression=((str,), "numbers with + - * / and parentheses")),
    _skill("convert", "Convert a quantity between units.", value=(NUMBER, "the quantity"),
           from_=(UNITS, "the unit it is in"), to=(UNITS, "the unit wanted")),
)}


def valid_call(call: dict) -> bool:
    """The call names a known skill with exactly its argument keys and values of the right kind."""
    skill = SKILLS.get(call["name"])
    return skill is not None and skill.accepts(call["arguments"])
