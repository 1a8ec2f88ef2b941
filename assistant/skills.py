"""The one skill registry: every tool the assistant knows, with its argument checks and its JSON schema.

The embedded generator checks a decoded call against it, remote generators are offered its schemas as
OpenAI function tools, and assistant.tools.ToolRunner runs a skill as its method `_<name>`.
"""
from collections.abc import Mapping
from dataclasses import dataclass, field

from assistant.inventory import THERMOSTATS            # the kinds of thing set to a temperature
from assistant.inventory import LEVEL_ACTIONS, SWITCHABLE
from assistant.vocabulary import DEVICES, MODE_KIND_WORDS, ROOMS, SENSOR_KINDS, STATES, UNITS, VACUUM_COMMANDS
from assistant.vocabulary import COLOUR_NAMES, COLOUR_SHIFTS, OPPOSITE_STATE, WHITE_TEMPERATURES
from assistant.vocabulary import DAYS_FROM_TODAY, EASTER_HOLIDAYS, FIXED_HOLIDAYS, WEEKDAY_HOLIDAYS, WEEKDAY_NAMES

NUMBER = (int, float)


@dataclass(frozen=True)
class Skill:
    name: str
    description: str
    arguments: dict[str, tuple]       # key -> allowed Python types, or the allowed words
    argument_help: dict[str, str]
    optional: frozenset = frozenset()  # keys a call may leave out
    pure: bool = False                # computes an answer and changes nothing: may run for a reply never used
    reads: bool = False               # says how a thing is (a state, a reading, a timer) and changes nothing
    means: Mapping[str, tuple[str, ...]] = field(default_factory=dict)   # action -> words that can ask for it
    switches: bool = False            # a state word asks for it (on, off, open, locked)
    name_is_a_thing: bool = False     # its "name" is a thing of the home (a timer's is a label, switch_all's a kind)
    level_unit: str = ""              # the argument of the level it sets, named for its unit (percent, degrees; a
                                      # heater's set_level sets degrees, ToolRunner)
    steps: bool = False               # makes a light brighter or dimmer by a step
    timer: str = ""                   # what it does to timers: "starts" one, "takes" one by name (another of the
                                      # conversation's may be meant), "cancels all", "lists" them, "changes" one
    components: tuple[str, ...] = ()  # those it finds its one named thing among (ToolRunner): a name that means only
                                      # things of other components is not what the call was asked for ("lock the
                                      # chandelier")
    kind_taken: str = ""              # what it does to a thing, as the kind of thing it takes (VERB_KINDS); any
                                      # other skill on a thing switches it
    read_by_code: bool = False        # the shipped checkpoint was trained before it, and never writes it: code reads
                                      # its call from the words (chat_template.named_move); a remote model is offered it
    on_lists: bool = False            # keeps the home's lists (assistant.lists): changes no thing of the home, and
                                      # an item's words may say a time ("call mum tomorrow")

    def accepts(self, arguments: dict) -> bool:
        """This skill's argument keys (the optional ones may be missing), each a value of the right kind."""
        if not set(self.arguments) - self.optional <= set(arguments) <= set(self.arguments):
            return False
        for key, value in arguments.items():
            allowed = self.arguments[key]
            if allowed == (list,):
                if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
                    return False
            elif isinstance(allowed[0], type):
                if not isinstance(value, allowed) or isinstance(value, bool):
                    return False
            elif value not in allowed:
                return False
        return True

    def schema(self) -> dict:
        """The skill as an OpenAI function tool."""
        properties = {}
        for key, allowed in self.arguments.items():
            if allowed == (list,):
                properties[key] = {"type": "array", "items": {"type": "string"},
                                   "description": self.argument_help.get(key, key)}
            elif isinstance(allowed[0], type):
                kind = "string" if allowed == (str,) else "number"
                properties[key] = {"type": kind, "description": self.argument_help.get(key, key)}
            else:
                properties[key] = {"type": "string", "enum": list(allowed),
                                   "description": self.argument_help.get(key, key)}
        return {"type": "function", "name": self.name, "description": self.description,
                "parameters": {"type": "object", "properties": properties, "required": [k for k in self.arguments if k not in self.optional],
                               "additionalProperties": False}}


def _skill(skill_name: str, description: str, optional=(), /, *, pure: bool = False, reads: bool = False,
           means: Mapping[str, tuple[str, ...]] | None = None, switches: bool = False, name_is_a_thing: bool = False,
           level_unit: str = "", steps: bool = False, timer: str = "", components: tuple[str, ...] = (),
           kind_taken: str = "", read_by_code: bool = False, on_lists: bool = False,
           **arguments: tuple[tuple, str]) -> Skill:
    return Skill(skill_name, description, {k.rstrip("_"): v[0] for k, v in arguments.items()},
                 {k.rstrip("_"): v[1] for k, v in arguments.items()}, frozenset(optional), pure, reads, means or {},
                 switches, name_is_a_thing, level_unit, steps, timer, components, kind_taken, read_by_code, on_lists)


# The words that can ask for each action a call may take (chat_template.action_of names it), per skill: a call
# whose action no word of the conversation can mean was read into a garbled transcript ("Make sure nothinger
# in the hallway" switched the heater off, "Board the lights" made them brighter). Gathered from the corpus's
# phrases, none of which calls one without them. Switching on has none: people ask for it in too many ways
# ("get the fan going", "I need some light").
OFF = ("off", "of", "out", "kill", "shut", "stop", "disable", "deactivate", "douse", "cut", "down", "no more", "need",
       "shouldn'?t", "close", "anymore")
UP = ("up", "bright", "brighter", "brighten", "more", "raise", "dim", "dark", "darker", "increase", "boost")
DOWN = ("down", "dim", "dimmer", "lower", "less", "bright", "reduce", "decrease", "harsh", "soften")
LEVEL = {"0 percent": ("nothing", "zero", "off", "out", "dark"), "50 percent": ("half",),
         "100 percent": ("full", "max", "maximum", "brightest", "all the way")}     # a level no number said
CANCEL = ("cancel", "stop", "kill", "abort", "off", "of", "remove", "clear", "never mind", "rid", "need", "drop",
          "no more", "disable", "forget", "delete", "end", "scrap", "reset")
READINGS = {"temperature": ("temperature", "temp", "warm", "warmer", "hot", "cold", "chilly", "degrees", "heat",
                            "cool", "freezing", "thermometer"),
            "humidity": ("humid", "humidity", "damp", "dry", "moisture", "muggy", "sticky")}
TIME_LEFT = ("left", "remaining", "remain", "long", "much", "how", "status", "check", "still", "until", "till",
             "doing", "when", "done", "over", "running", "countdown")
# The normaliser writes a user's "7*6" as words; the symbols are an earlier calculation's, shown as its call.
ARITHMETIC = ("plus", "add", "added", "sum", "and", "minus", "subtract", "take", "less", "times", "multiply",
              "multiplied", "x", "by", "divide", "divided", "over", "split", "cubed", "squared", "square", "root",
              "half", "halved", "double", "doubled", "twice", "triple", "tripled", "third", "percent", "of", "power",
              "from", "[-+*/^%]")
COVER = {"open": ("open", "up", "raise", "lift"), "close": ("close", "shut", "down", "lower", "draw"),
         "stop": ("stop", "halt", "pause", "freeze", "hold")}


NAME = ((str,), "the device as the user named it, e.g. porch light")
DAYS_NAMED = (*DAYS_FROM_TODAY, *WEEKDAY_NAMES, *FIXED_HOLIDAYS, *EASTER_HOLIDAYS,    # the days get_date takes
              *WEEKDAY_HOLIDAYS)                                                    # by name
MODE_COMPONENTS = ("fan", "climate", "vacuum")    # the kinds of thing Home Assistant's MQTT discovery gives modes
                                                  # (a vacuum's are its fan speeds)
AREA = ((str,), "the room or area the user named, if any")
MODE_COMPONENTS += ("humidifier", "water_heater")       # and Home Assistant's humidifiers' and water heaters' modes
MODE_PARTS = tuple(words[0] for words in MODE_KIND_WORDS.values())    # a climate's parts with modes: fan, swing
POSITIONED = ("cover", "valve")           # the kinds of thing Home Assistant's MQTT discovery gives a position
MEDIA = ("media_player",)
MEDIA_NAME = ((str,), "the media player as the user named it, if any, e.g. kitchen speaker")
MEDIA_ACTIONS = ("pause", "resume", "next", "previous", "mute", "unmute")
ITEMS = ((list,), "the items, each as the user said it, e.g. milk, call the plumber")
LIST_NAME = ((str,), "the list: shopping, to-do, or the name the user gave it, e.g. hardware")


SKILLS: dict[str, Skill] = {s.name: s for s in (
    # a place or a day named: read by code from the words (assistant.clock); the model writes neither
    _skill("get_time", "The current local time, or the time in a city or country named.", ("place",), pure=True,
           place=((str,), "the city or country the user named, if any")),
    _skill("get_date", "Today's date, or the date of a day named or said by its number.", ("day", "date"), pure=True,
           day=(DAYS_NAMED, "the day the user named, if any (tomorrow, a weekday, a holiday)"),
           date=((str,), "a date the user said by its month and day, if any, e.g. may 3")),
    _skill("set_timer", "Start a countdown timer.", seconds=(NUMBER, "length in seconds"), timer="starts"),
    _skill("cancel_timer", "Cancel every running timer.", means={"cancel": CANCEL}, timer="cancels all"),
    _skill("set_device", "Switch a device in a room on or off.", means={"off": OFF}, device=(tuple(DEVICES), "the device"),
           room=(tuple(ROOMS), "the room"), state=(STATES, "on or off"), switches=True),
    _skill("set_brightness", "Dim or brighten a room's lights.", means=LEVEL, room=(tuple(ROOMS), "the room"),
           percent=(NUMBER, "brightness from 0 to 100"), level_unit="percent"),
    _skill("change_brightness", "Make a room's lights brighter or dimmer by a step.", means={"up": UP, "down": DOWN}, room=(tuple(ROOMS), "the room"),
           direction=(("up", "down"), "up: brighter, down: dimmer"), steps=True),
    _skill("set_thermostat", "Set the thermostat (in a home with several, the one named or in the area named).",
           ("name", "area"), degrees=(NUMBER, "target temperature in degrees"),
           name=((str,), "the thermostat or heater as the user named it, if any"), area=AREA, level_unit="degrees",
           name_is_a_thing=True, components=THERMOSTATS, kind_taken="climate"),
    _skill("read_sensor", "Read a room's temperature or humidity.", reads=True, means=READINGS, room=(tuple(ROOMS), "the room"),
           kind=(SENSOR_KINDS, "which reading")),
    _skill("calculate", "Evaluate arithmetic.", pure=True, means={"calculate": ARITHMETIC}, expression=((str,), "numbers with + - * / and parentheses")),
    _skill("convert", "Convert a quantity between units.", pure=True, value=(NUMBER, "the quantity"),
           from_=(UNITS, "the unit it is in"), to=(UNITS, "the unit wanted")),
    # The user's own devices, found by the name they use (assistant.inventory resolves it).
    _skill("switch_device", "Switch a named device on or off.", ("area",), means={"off": OFF}, name=NAME,
           state=(STATES, "on or off"), area=AREA, switches=True, name_is_a_thing=True,
           components=SWITCHABLE + ("scene", "cover", "valve")),
    _skill("switch_all", "Switch every device of a kind (or everything) on or off, in one area or the whole home.",
           ("area",), means={"off": OFF}, name=((str,), "the kind, e.g. lights or fans, or everything"),
           state=(STATES, "on or off"), area=AREA, switches=True),
    _skill("set_level", "Set a named light's brightness, a fan's speed, how far open a cover or valve is, or a "
           "humidifier's target humidity.", ("area",), means=LEVEL, name=NAME,
           percent=(NUMBER, "brightness, speed, position or humidity from 0 to 100"), area=AREA,
           level_unit="percent", name_is_a_thing=True,
           components=(*LEVEL_ACTIONS, *THERMOSTATS, *POSITIONED, "humidifier")),
    _skill("change_level", "Make a named light brighter or dimmer, a fan faster or slower, a thermostat's target "
           "temperature warmer or cooler, a cover more open or closed, or a humidifier more or less humid, by a step.",
           ("area",), means={"up": UP, "down": DOWN}, name=NAME,
           direction=(("up", "down"), "up: brighter, faster, warmer, more open or more humid, down: dimmer, slower, "
                      "cooler, more closed or drier"), area=AREA, steps=True, name_is_a_thing=True,
           components=(*LEVEL_ACTIONS, *THERMOSTATS, "cover", "humidifier")),
    _skill("get_target_temperature", "Say what temperature a named thermostat or heater is set to.", ("area",),
           reads=True, name=NAME, area=AREA, name_is_a_thing=True, components=THERMOSTATS, read_by_code=True),
    _skill("get_target_humidity", "Say what humidity a named humidifier is set to.", ("area",), reads=True, name=NAME,
           area=AREA, name_is_a_thing=True, components=("humidifier",), read_by_code=True),
    _skill("get_cover_position", "Say how far open a named cover or valve is.", ("area",), reads=True, name=NAME,
           area=AREA, name_is_a_thing=True, components=POSITIONED, read_by_code=True),
    _skill("set_colour", "Set a named light's colour or white (a colour's name, e.g. blue or warm white, or a colour "
           "temperature in kelvin), or make its white warmer or cooler, where its own discovery says it takes colour.",
           ("area", "colour", "kelvin", "shift"), name=NAME, area=AREA,
           colour=((*COLOUR_NAMES, *WHITE_TEMPERATURES), "the colour or white named"),
           kelvin=(NUMBER, "a white's colour temperature in kelvin, e.g. 2700"),
           shift=(tuple(COLOUR_SHIFTS), "warmer or cooler: a step of its white"), name_is_a_thing=True,
           components=("light",), read_by_code=True),
    _skill("get_colour", "Say what colour a named light is.", ("area",), reads=True, name=NAME, area=AREA,
           name_is_a_thing=True, components=("light",), read_by_code=True),
    _skill("get_level", "Say how bright a named light is, or how fast a named fan is going.", ("area",), reads=True,
           name=NAME, area=AREA, name_is_a_thing=True, components=tuple(LEVEL_ACTIONS), read_by_code=True),
    # A media player's controls, volume and track: the one named, else the one playing (ToolRunner._player)
    _skill("control_media", "Pause or resume a media player, skip to its next or previous track, or mute or unmute "
           "it (the one named, else the one playing).", ("name", "area"), name=MEDIA_NAME, area=AREA,
           action=(MEDIA_ACTIONS, "what to do"), name_is_a_thing=True, components=MEDIA, read_by_code=True),
    _skill("set_volume", "Set a media player's volume (the one named, else the one playing).", ("name", "area"),
           name=MEDIA_NAME, area=AREA, percent=(NUMBER, "volume from 0 to 100"), name_is_a_thing=True,
           components=MEDIA, read_by_code=True),
    _skill("change_volume", "Turn a media player's volume up or down by a step (the one named, else the one "
           "playing).", ("name", "area"), name=MEDIA_NAME, area=AREA,
           direction=(("up", "down"), "up: louder, down: quieter"), name_is_a_thing=True, components=MEDIA,
           read_by_code=True),
    _skill("get_media", "Say what a media player is playing, or its volume (the one named, else the one playing).",
           ("name", "area"), reads=True, name=MEDIA_NAME, area=AREA,
           asked=(("playing", "volume"), "what the user asked: what is playing, or the volume"), name_is_a_thing=True,
           components=MEDIA, read_by_code=True),
    _skill("get_state", "Say whether a named device is on, open or locked, or what a sensor reads.",
           ("area",), reads=True, name=NAME, area=AREA, name_is_a_thing=True),
    _skill("set_cover", "Open, close or stop a cover or a valve: blinds, curtains, a garage door, a water valve "
           "(opening a garage door asks for a spoken yes first).", ("area",), means=COVER, name=NAME,
           action=(("open", "close", "stop"), "what to do"), area=AREA, switches=True, name_is_a_thing=True,
           components=("cover", "lock", *SWITCHABLE, "valve"), kind_taken="cover"),
    _skill("set_lock", "Lock or unlock a lock (unlocking asks for a spoken yes first).", name=NAME,
           action=(("lock", "unlock"), "what to do"), switches=True, name_is_a_thing=True,
           components=("lock", "cover"), kind_taken="lock"),
    _skill("set_device_mode", "Put a fan or a thermostat in one of its modes (a preset mode or a climate mode, e.g. "
           "auto, sleep, cool, dry), or a robot vacuum at one of its fan speeds, as its own discovery lists them.",
           ("area",), name=NAME,
           mode=((str,), "the mode as the user said it; a climate's fan or swing mode after its word, e.g. fan high, "
                 "swing on"), area=AREA, name_is_a_thing=True,
           components=MODE_COMPONENTS, read_by_code=True),
    _skill("get_device_mode", "Say which mode a fan, a thermostat, a humidifier or a water heater is in, or a "
           "climate's fan or swing mode.",
           ("area", "part"), reads=True, name=NAME, area=AREA,
           part=(MODE_PARTS, "the part of a climate whose mode is asked, if the user said one: fan or swing"),
           name_is_a_thing=True, components=MODE_COMPONENTS, read_by_code=True),
    _skill("command_vacuum", "Start, pause or stop a robot vacuum, send it to its dock, have it beep to be found, or "
           "have it clean a spot, as its own discovery offers.", ("area",), name=NAME,
           command=(tuple(VACUUM_COMMANDS), "what to do"), area=AREA, name_is_a_thing=True, components=("vacuum",),
           kind_taken="vacuum", read_by_code=True),
    _skill("press_button", "Press a button, e.g. a doorbell or a router's restart button.", ("area",), name=NAME,
           area=AREA, name_is_a_thing=True, components=("button",), kind_taken="button", read_by_code=True),
    _skill("set_tilt", "Open or close a cover's slats, or tilt them to a percent open.", ("name", "percent", "area"),
           name=NAME, action=(("open", "close", "to"), "open or close the slats, or to: tilt them to percent"),
           percent=(NUMBER, "how far open the slats are tilted, from 0 to 100"), area=AREA, name_is_a_thing=True,
           components=("cover",), read_by_code=True),
    _skill("get_tilt", "Say how far a named cover's slats are tilted open.", ("name", "area"), reads=True, name=NAME,
           area=AREA, name_is_a_thing=True, components=("cover",), read_by_code=True),
    _skill("list_states", "Say which things are on, off, open, closed, locked or unlocked (of one kind, e.g. lights or "
           "doors, or of every kind), in one area or the whole home; or whether all of them are.", ("kind", "area"),
           reads=True, state=(tuple(OPPOSITE_STATE), "the state asked"),
           asked=(("which", "all"), "which: name the things in the state; all: whether every one of them is in it"),
           kind=((str,), "the kind of thing, e.g. lights or doors, if the user said one"), area=AREA,
           read_by_code=True),
    _skill("switch_listed", "Switch on or off the things the assistant's latest answer listed (\"turn them off\" after "
           "\"what's on in the kitchen\").", state=(STATES, "on or off"), switches=True, read_by_code=True),
    _skill("confirm", "Answer the question the assistant just asked before unlocking or opening.",
           answer=(("yes", "no"), "the user's answer")),
    _skill("activate_scene", "Run a scene, e.g. movie time.", name=((str,), "the scene's name"), name_is_a_thing=True,
           components=("scene",), kind_taken="scene"),
    _skill("start_timer", "Start a named countdown timer.", name=((str,), "the timer's name, e.g. pasta"),
           seconds=(NUMBER, "length in seconds"), timer="starts"),
    _skill("timer_left", "How long is left on a timer.", ("name",), reads=True, means={"time left": TIME_LEFT},
           name=((str,), "the timer's name, if the user gave one"), timer="takes"),
    _skill("stop_timer", "Cancel one named timer.", means={"cancel": CANCEL}, name=((str,), "the timer's name"),
           timer="takes"),
    # Timers listed, changed, paused and resumed: read by code from the words (assistant.timer_changes)
    _skill("list_timers", "Say which timers run or are paused, and how long each has left.", reads=True,
           timer="lists", read_by_code=True),
    _skill("change_timer", "Add time to a timer, or take time off it (the one named, else the only one).", ("name",),
           change=(("add", "take off"), "add time, or take time off"), seconds=(NUMBER, "how many seconds"),
           name=((str,), "the timer's name, if the user gave one"), timer="changes", read_by_code=True),
    _skill("pause_timer", "Pause a timer, or resume a paused one (the one named, else the only one).", ("name",),
           action=(("pause", "resume"), "what to do"), name=((str,), "the timer's name, if the user gave one"),
           timer="changes", read_by_code=True),
    _skill("set_alarm", "Set an alarm at a clock time.", ("period",), hour=(NUMBER, "hour, 0 to 23 or 1 to 12"),
           minute=(NUMBER, "minute, 0 to 59"), period=(("am", "pm"), "am or pm, if the user said it")),
    # alarms cancelled, listed, snoozed, and what rings stopped: read by code from the words (assistant.alarms)
    _skill("cancel_alarm", "Cancel an alarm (the one at the clock time said, or the only one), or every alarm.",
           ("hour", "minute", "period"), which=(("one", "all"), "one alarm, or all of them"),
           hour=(NUMBER, "the alarm's hour, if the user said it"), minute=(NUMBER, "the alarm's minute"),
           period=(("am", "pm"), "am or pm, if the user said it"), read_by_code=True),
    # pure, not reads: its words are a whole question of ALARM_QUESTIONS, and run at once it changes nothing
    _skill("list_alarms", "Say which alarms are set.", pure=True, read_by_code=True),
    _skill("snooze_alarm", "Snooze the alarm or timer that just rang.", ("minutes",),
           minutes=(NUMBER, "how many minutes, if the user said it"), read_by_code=True),
    _skill("stop_ringing", "Stop the alarm or timer that is ringing.", read_by_code=True),
    # the home's lists: read by code from the words (assistant.lists)
    _skill("add_to_list", "Add items to one of the home's lists: the shopping list, the to-do list, or a list the user "
           "names.", items=ITEMS, list_name=LIST_NAME, read_by_code=True, on_lists=True),
    _skill("remove_from_list", "Take items off one of the home's lists (done, bought, or no longer wanted).",
           items=ITEMS, list_name=LIST_NAME, read_by_code=True, on_lists=True),
    # pure: its words are a whole question of LIST_READ, and run at once it changes nothing
    _skill("get_list", "Say what is on one of the home's lists, how many things are, or whether items are.",
           ("items", "asked"), list_name=LIST_NAME, items=(ITEMS[0], "items the user asked whether are on it"),
           asked=(("how many",), "how many things are on it, where the user asked that"), pure=True,
           read_by_code=True, on_lists=True),
    _skill("clear_list", "Take everything off one of the home's lists.", list_name=LIST_NAME, read_by_code=True,
           on_lists=True),
)}
# The registry's facts as the sets their users ask of a call's name (a client tool's name is in none of them):
# the skills of timers (a timer's name is no thing of the home), those of them that start one, and those that take one
# by name
TIMER_SKILLS = frozenset(s.name for s in SKILLS.values() if s.timer)
TIMER_STARTS = frozenset(s.name for s in SKILLS.values() if s.timer == "starts")
TIMER_QUESTIONS = frozenset(s.name for s in SKILLS.values() if s.timer == "takes")
TIMER_NAMED = frozenset(s.name for s in SKILLS.values() if s.timer and "name" in s.arguments)
SWITCHING = frozenset(s.name for s in SKILLS.values() if s.switches)
THING_NAMED = frozenset(s.name for s in SKILLS.values() if s.name_is_a_thing)
STEP_SKILLS = frozenset(s.name for s in SKILLS.values() if s.steps)
LEVEL_UNIT = {s.name: s.level_unit for s in SKILLS.values() if s.level_unit}
SKILL_COMPONENTS = {s.name: s.components for s in SKILLS.values() if s.components}
SKILL_KINDS = {s.name: s.kind_taken for s in SKILLS.values() if s.kind_taken}
# The arguments that say what a change does to its thing, and each word one takes with the others of its kind
# ("lock": ("unlock",), "open": ("close", "stop")): a word heard for one may have been another (voice.heard_values).
# Only the skills that switch or step a thing: those the ear's weighing was measured on (a media player's actions and
# a tilt's "to" are no words of a switch).
ACTION_ARGUMENTS = ("state", "action", "direction")
ACTIONS = {word: tuple(other for other in kind if other != word) for s in SKILLS.values() if s.switches or s.steps
           for key, kind in s.arguments.items() if key in ACTION_ARGUMENTS for word in kind}
# the skills that set or step a light's level (a percent, or a step)
LEVEL_SKILLS = frozenset(s.name for s in SKILLS.values() if s.level_unit == "percent" or s.steps)
# and those that change nothing: they compute an answer or say how a thing is
NOT_CHANGES = frozenset(s.name for s in SKILLS.values() if s.pure or s.reads)
# and those that change a thing of the home: neither those, nor timers' and alarms' (their words say a time to come,
# or the alarm's time: "cancel the alarm at 6:45 am"), nor the lists' (an item may say one), nor a yes to a change
# already asked for (assistant.later)
CHANGES_THE_HOME = frozenset(s.name for s in SKILLS.values()
                             if not (s.pure or s.reads or s.timer or s.on_lists)) - {"set_alarm", "cancel_alarm", "confirm"}
# and those that keep the home's lists
LIST_SKILLS = frozenset(s.name for s in SKILLS.values() if s.on_lists)
# and those the shipped checkpoint writes (the others code reads from the words)
MODEL_SKILLS = frozenset(s.name for s in SKILLS.values() if not s.read_by_code)
# the skills of a thing's mode
MODE_SKILLS = frozenset(s.name for s in SKILLS.values() if s.components == MODE_COMPONENTS)
# and of a light's colour
COLOUR_SKILLS = frozenset(s.name for s in SKILLS.values() if s.components == ("light",))
# and of a media player
MEDIA_SKILLS = frozenset(s.name for s in SKILLS.values() if s.components == MEDIA)


def valid_call(call: dict) -> bool:
    """The call names a known skill with exactly its argument keys and values of the right kind."""
    skill = SKILLS.get(call["name"])
    return skill is not None and skill.accepts(call["arguments"])
