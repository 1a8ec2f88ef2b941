"""The assistant's tools: what a tool call does, and the words that fill the reply's {result} slot.

The model writes e.g. `set_device device=light room=kitchen state=on` and "Okay, the kitchen light is
{result}."; ToolRunner.run acts on the Home (assistant.home) and returns "on". Each skill of the registry
(assistant.skills) is the runner's method `_<name>`. Arithmetic is parsed by a small recursive-descent
parser, never eval.
"""
import dataclasses
import asyncio
import datetime as dt
import copy
import itertools
import json
import logging
import math
import re
import string
import time
from dataclasses import dataclass
from typing import Awaitable, Callable, Protocol

from assistant.chat_template import NAME_ARGUMENTS, Done, NoAction, asks_how_things_are, content_text
from assistant.clock import clock_said, date_of, date_on, date_said, dates_in, time_in
from assistant.home import Home, InMemoryHome
from assistant.lists import ListBook, LocalLists, list_name as kept_name, on_the_list
from assistant.later import (AT_A_LATER_TIME, NOT_FOR_LATER, TOO_FAR_AHEAD, TOO_MANY_HERE, TOO_MANY_SCHEDULED,
                             TOO_MANY_THINGS, Later, not_now)
from assistant.inventory import TEMPERATURE_LIMITS, THERMOSTATS         # the thermostats' and water heaters' degrees
from assistant.inventory import (COMPONENTS, LEVEL_ACTIONS, PLURAL_KINDS, STOP_WORDS, SWITCH_ALL_COMPONENTS,
                                 SWITCHABLE, Entity, Inventory, entity_command, is_of_named_kind, mode_words,
                                 modes_to_choose, speed_names, speed_of, spelling_key)
from assistant.inventory import COLOUR_MODES, MAX_ENTITIES, tilt_percent
from assistant.vocabulary import COLOUR_NAMES, KELVIN_STEP, WHITE_TEMPERATURES
from assistant.reply import NOT_UNDERSTOOD, REPLIES
from assistant.skills import (ACTION_ARGUMENTS, ACTIONS, CHANGES_THE_HOME, LEVEL_UNIT, LIST_SKILLS, NOT_CHANGES,
                              POSITIONED, SKILL_COMPONENTS, SKILLS, SWITCHING, THING_NAMED)
from assistant.spoken_numbers import NUMBER_WORDS, normalize_request
from assistant.summary import in_state, listed, state_in_summary, summary_components, summary_sentence
from assistant.vocabulary import (ABILITIES, ASKING_FOR_IT, BELOW_ZERO, CHANGES_SAID_BACK, DEVICES, EVERY_THING,
                                  FOLLOW_UP_WORDS, HUMIDITY_STEP, JOINING_WORDS, LEVEL_ABILITIES, MODE_KIND_WORDS,
                                  MODE_NOUNS,
                                  NAMES_NO_THING, NO, OPERATOR_WORDS, PLAYER_SAID_BACK, QUESTION_WORDS, READS_HEARD_BY,
                                  ROOMS, SAID_BACK, TIMER_CHANGE_SAID_BACK, TIMER_SAID_BACK,
                                  SENSOR_KINDS, SENSOR_UNITS, SHARES, SPELLINGS, STATE_WORDS, STATES, SWITCH_VERBS,
                                  POSSESSIVE, THING_DETERMINERS, TRAILING_WORDS, UNLOCK_HEARD_AS, VACUUM_COMMANDS,
                                  VACUUM_COMMANDS_DONE, VACUUM_COMMANDS_SAID, VACUUM_STATES_SAID, YES, agreeing,
                                  convert, unit_name)
from assistant.vocabulary import LIST_SAID_BACK, MAX_LIST_ITEM_CHARS, MAX_LIST_ITEMS, MAX_LISTS, says_many
from assistant.vocabulary import REMARK_SKIPPED, REMARK_WORDS, REPORTING_WORDS
from assistant.vocabulary import (MAX_LISTED, MAX_SCHEDULED, MAX_SCHEDULED_HERE, RINGING_S, SCHEDULED_DONE_VERBS,
                                  SCHEDULED_FAILED, SCHEDULED_MADE, SCHEDULED_SAID, SNOOZE_MINUTES)
from voice.heard_names import alike
from voice.heard_words import words_in_no_phrasing

# What set_lock acts on: a lock, or a cover it opens or closes.
# What switching everything, or every one of a kind, switches.
# A kind said in the plural ("the parlour lights"): in an area named, every one of that kind there.


log = logging.getLogger("parley.tools")


# ---------------------------------------------------------------- safe arithmetic

class CalculationError(ValueError):
    pass


_TOKEN = re.compile(r"\s*(?:(\d+\.?\d*|\.\d+)|(.))")


def calculate(expression: str) -> float:
    """Value of an expression of numbers, + - * /, unary minus and parentheses; CalculationError otherwise."""
    tokens = []
    for number, symbol in _TOKEN.findall(expression.strip()):
        if number:
            tokens.append(float(number))
        elif symbol in "+-*/()":
            tokens.append(symbol)
        elif not symbol.isspace():
            raise CalculationError(f"not arithmetic: {symbol!r}")
    if not tokens:
        raise CalculationError("empty expression")
    parser = _Parser(tokens)
    value = parser.sum()
    if parser.pos != len(tokens):
        raise CalculationError("unexpected " + str(tokens[parser.pos]))
    if not math.isfinite(value):              # a 309-digit operand is inf as a float
        raise CalculationError("number too large")
    return value


class _Parser:
    """sum := product (('+'|'-') product)*; product := unary (('*'|'/') unary)*;
    unary := '-' unary | '+' unary | number | '(' sum ')'"""

    def __init__(self, tokens):
        self.tokens, self.pos = tokens, 0

    def peek(self):
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self):
        token = self.peek()
        self.pos += 1
        return token

    def sum(self) -> float:
        value = self.product()
        while self.peek() in ("+", "-"):
            value = value + self.product() if self.take() == "+" else value - self.product()
        return value

    def product(self) -> float:
        value = self.unary()
        while self.peek() in ("*", "/"):
            if self.take() == "*":
                value *= self.unary()
            else:
                divisor = self.unary()
                if divisor == 0:
                    raise CalculationError("division by zero")
                value /= divisor
        return value

    def unary(self) -> float:
        if self.pos > 200:
            raise CalculationError("expression too long")
        token = self.take()
        if token == "-":
            return -self.unary()
        if token == "+":
            return self.unary()
        if isinstance(token, float):
            return token
        if token == "(":
            value = self.sum()
            if self.take() != ")":
                raise CalculationError("missing )")
            return value
        raise CalculationError(f"unexpected {token!r}")


def format_number(value: float) -> str:
    """Spoken-friendly: integers plainly, otherwise up to two decimals (three below 1)."""
    if abs(value - round(value)) < 1e-9:
        return str(int(round(value)))
    digits = 2 if abs(value) >= 1 else 3
    return f"{value:.{digits}f}".rstrip("0").rstrip(".")


# ---------------------------------------------------------------- the runner

def _snapshot(home: InMemoryHome) -> tuple:
    return dict(home.devices), dict(home.brightness), home.thermostat, dict(home.states)


def scheduled_said(name: str, arguments: dict) -> str:
    """A scheduled call as the reply says what it will do ("turn off the kitchen light"): the first form of
    vocabulary.SCHEDULED_SAID, for its skill and the word of what it does, whose words the call gives."""
    words = {key: format_number(value) if isinstance(value, float) else str(value).replace("_", " ")
             for key, value in arguments.items()}
    does = next((arguments[key] for key in (*ACTION_ARGUMENTS, "command") if key in arguments), None)
    forms = SCHEDULED_SAID.get(f"{name} {does}") or SCHEDULED_SAID[name]
    form = next(form for form in forms if {field for _, field, _, _ in string.Formatter().parse(form) if field} <= set(words))
    return form.format(**words).replace("the the ", "the ")


def scheduled_done(what: str) -> str:
    """What a scheduled change did, as said at its time ("turned off the kitchen light"): its first word as done."""
    verb, _, rest = what.partition(" ")
    return f"{SCHEDULED_DONE_VERBS[verb]} {rest}"


def say_duration(seconds: int) -> str:
    h, rem = divmod(int(seconds), 3600)
    m, s = divmod(rem, 60)
    parts = [f"{n} {unit}{'' if n == 1 else 's'}" for n, unit in ((h, "hour"), (m, "minute"), (s, "second")) if n]
    return " and ".join(parts) if parts else "0 seconds"


def timer_done_text(seconds: int, name: str | None = None, alarm: str | None = None) -> str:
    """What is said when a timer rings (alarm: the clock time an alarm was set for)."""
    if alarm:
        return f"It's {alarm}: this is your alarm."
    if name:
        return f"Time is up: your {name} timer is done."
    return f"Time is up: your timer for {say_duration(seconds)} is done."


def timer_missed_text(seconds: int, name: str | None = None, alarm: str | None = None) -> str:
    """What the next reply starts with when a timer rang while nobody was connected."""
    if alarm:
        return f"While you were away, your alarm for {alarm} went off."
    if name:
        return f"While you were away, your {name} timer finished."
    return f"While you were away, your timer for {say_duration(seconds)} finished."


READABLE = tuple(c for c in COMPONENTS if c not in ("scene", "button"))     # what get_state can say the state of
MAX_TIMERS = 20
# The words that name a timer, as said after a determiner ("the lasagne timer", "my last end timer") or after it
# ("the timer for the eggs", "timer for my bread")
_TIMER_NAMED = re.compile(r"\b(?:the|my|our|your|this|that|a|an) ((?:[a-z']+ ){1,3})timer\b"
                          r"|\btimer for (?:the|my|our|your|this|that) ([a-z']+(?: [a-z']+)?)")
BRIGHTNESS_STEP = 25         # percent per "brighter" or "dimmer"
COVER_STEP = 25              # percent a cover that takes a position opens or closes by "a bit"
# What a media player was asked to do, as a reply says it
ACTION_SAID = {"pause": "pause", "resume": "play", "next": "skip to the next track", "previous": "go back a track"}
VOLUME_STEP = 10             # percent a media player's volume goes up or down by "louder", "turn it down"
MAX_TIMER_S = 24 * 3600
# The changes kept in this process's timer books (LocalTimers) that wait for their time, by timer id, with their due
# time (unix): at most MAX_SCHEDULED_HERE, whichever conversations (with a store, the store counts them:
# TimerBook.add_change); one whose event loop ended without it leaves once its time has passed
SCHEDULED_HERE: dict[str, float] = {}
_LOCAL_TIMER_IDS = itertools.count(1)     # LocalTimers' timer ids, one count for the process (SCHEDULED_HERE's keys)
# A scheduled "them"'s things (a stored change's "listed") as JSON, at most: MAX_ENTITIES discovery topics of 48
# characters; the MAX_SCHEDULED_HERE changes of a store then take at most 100 MB
MAX_LISTED_CHARS = 100_000
CONFIRM_WINDOW_S = 60.0      # a "yes" later than this no longer unlocks anything
# The parts of a conversation state too large to keep whole that give way, least needed first: the things the latest
# summary named (trimmed from their end), then the action waiting for a yes, the volumes muting took, what rang last
STATE_GIVEN_UP = ("listed", "list_change", "pending", "unmuted", "rang")
NOT_A_SKILL = NoAction("Sorry, I can't do that yet.")
LIST_CHANGES = LIST_SKILLS - NOT_CHANGES          # add_to_list, remove_from_list, clear_list
NOT_CALCULABLE = NoAction("Sorry, I can't calculate that.")
NOT_POSSIBLE = NoAction("Sorry, that isn't possible with those details.")
NOT_A_NAME_OF_THE_HOME = NoAction(REPLIES["unknown_name"])
TOO_MANY_LISTS = NoAction(f"Sorry, I can keep at most {MAX_LISTS} lists; clear one first.")
LISTS_UNAVAILABLE = NoAction("Sorry, I can't reach the lists right now; try again in a moment.")
ITEM_TOO_LONG = NoAction(f"Sorry, an item can be at most {MAX_LIST_ITEM_CHARS} characters long.")
# Heard calls said back when a word they rest on is doubted: those of CHANGES_SAID_BACK, and the levels of SAID_BACK
# and its other changes to a thing of the home (a volume, a tilt)
DOUBTS_SAID_BACK = (frozenset(CHANGES_SAID_BACK) | frozenset(LEVEL_UNIT)
                    | (frozenset(SAID_BACK) & THING_NAMED) - NOT_CHANGES)
# Heard calls that change a thing of the home, or are said back: a thing of the same kind but another name, heard in
# its place, is not what they act on (ToolRunner._another_of_its_kind, _another_thing_named)
HEARD_CHANGES = DOUBTS_SAID_BACK | THING_NAMED - NOT_CHANGES
# A call's arguments that hold a number the user says (a level, a temperature, a timer's length, a value to convert):
# heard, each is acted on only where the words carry it (numbers_carried)
SAID_NUMBERS = ("percent", "degrees", "seconds", "value")


@dataclass(frozen=True)
class Timer:
    id: str
    seconds: int
    due_at: float                    # unix time it rings at; a paused timer's: the seconds it has left
    name: str | None = None          # a named timer ("pasta"), or None
    alarm: str | None = None         # an alarm: the clock time it was set for ("6:45 AM")
    state: str = "pending"           # pending, or paused (it never rings until resumed)
    call: str | None = None          # a change scheduled for its time: the call to run, as JSON (ToolRunner._schedule)


def _within_listed_bound(keys) -> bool:
    """keys are things a scheduled "them" may keep: a list of at most MAX_ENTITIES keys, MAX_LISTED_CHARS as JSON."""
    return isinstance(keys, list) and len(keys) <= MAX_ENTITIES and all(isinstance(key, str) for key in keys) \
        and len(json.dumps(keys)) <= MAX_LISTED_CHARS


def _list_change_of(held) -> dict | None:
    """The list change a stored conversation_state's "list_change" stands for, or None where it is not of its shape or
    bounds (one list's name and at most MAX_LIST_ITEMS items of MAX_LIST_ITEM_CHARS)."""
    if not isinstance(held, dict) or not isinstance(held.get("list_name"), str) \
            or len(held["list_name"]) > MAX_LIST_ITEM_CHARS:
        return None
    parts = [held.get("added"), held.get("removed")]
    if not all(isinstance(items, list) and len(items) <= MAX_LIST_ITEMS and all(
            isinstance(item, str) and len(item) <= MAX_LIST_ITEM_CHARS for item in items) for items in parts):
        return None
    return {"list_name": held["list_name"], "added": parts[0], "removed": parts[1]}


def _trimmed(keys: list[str], over: int) -> list[str]:
    """keys without as many of its last ones as make its JSON at least over characters shorter (each takes its
    quoted text and a separator)."""
    kept = list(keys)
    while kept and over > 0:
        over -= len(json.dumps(kept.pop())) + 2
    return kept


def _rang_of(rang) -> tuple[Timer, float] | None:
    """The ToolRunner.rang a stored conversation_state's "rang" stands for, or None (another shape, or rung longer
    than RINGING_S ago)."""
    if not isinstance(rang, dict) or not isinstance(rang.get("id"), str) or not isinstance(rang.get("at"), (int, float)) \
            or not isinstance(rang.get("seconds"), int) or isinstance(rang["seconds"], bool) \
            or any(not isinstance(rang.get(key), (str, type(None))) for key in ("name", "alarm")) \
            or not abs(time.time() - rang["at"]) <= RINGING_S:
        return None
    return Timer(rang["id"], rang["seconds"], float(rang["at"]), rang["name"], rang["alarm"]), float(rang["at"])


def seconds_left(timer, now: float) -> float:
    """The seconds a timer (a Timer or a stored one) has left: a paused one keeps them in due_at."""
    return timer.due_at if timer.state == "paused" else timer.due_at - now


@dataclass
class Pending:
    """An action that waits for the user's spoken yes: unlocking, opening a garage door, or a call to a name
    the recogniser only guessed ("Did you mean the samovar?")."""
    subject: str                                  # "the wicket gate": what a no leaves as it is
    act: Callable[[], Awaitable[str]]
    asked_at: float                  # unix time: a session resumed on another gateway reads the same window
    turn: int                        # the user turn whose reply asked: its yes must come in a later one
    # what act runs, as data to keep with the history: {"call", "arguments", "heard"} (a call run as if heard for
    # sure) or {"entity", "action", "value"} (an action that unlocks or opens, confirmed by the yes)
    held: dict = dataclasses.field(default_factory=dict)


def says_yes(text: str) -> bool:
    """Do the user's words answer yes: one of YES's phrases, and none of NO's ("don't do it" is a no)?"""
    words = " " + " ".join(re.findall(r"[a-z']+", text.lower().replace("\u2019", "'"))) + " "
    return any(f" {phrase} " in words for phrase in YES) and not any(f" {phrase} " in words for phrase in NO)


def said_back(name: str, arguments: dict) -> str | None:
    """A call that takes numbers, in words (SAID_BACK: "23 times 4", "an alarm at 7:30 am", the first of a skill's
    forms whose words the call gives); None for a skill that takes none, or arguments that are no such call."""
    template = SAID_BACK.get(name)
    if template is None:
        return None
    forms = (template,) if isinstance(template, str) else template
    words = {key: format_number(value) if isinstance(value, (int, float)) else str(value).replace("_", " ")
             for key, value in arguments.items()}
    try:
        if "seconds" in arguments:
            words["seconds"] = say_duration(_timer_length(arguments["seconds"]))
        if "expression" in arguments:
            spoken = re.sub(r"[-+*/]", lambda m: f" {OPERATOR_WORDS[m.group(0)]} ", str(arguments["expression"]))
            words["expression"] = " ".join(spoken.replace("(", " ").replace(")", " ").split())
        if name == "set_alarm":
            hour, minute = clock_time(arguments["hour"], arguments["minute"])
            words["clock"] = f"{hour}:{minute:02d}" + (f" {arguments['period']}" if arguments.get("period") else "")
        if name == "convert":
            value = float(arguments["value"])
            words["from"], words["to"] = unit_name(arguments["from"], value), unit_name(arguments["to"], 2)
        if name == "change_timer":
            words["change"], words["onto"] = TIMER_CHANGE_SAID_BACK[arguments["change"]]
            words["the_timer"] = TIMER_SAID_BACK[0 if arguments.get("name") else 1].format(**words)
        if name == "set_volume":
            words["of_player"] = PLAYER_SAID_BACK.format(**words) if arguments.get("name") else ""
        return next(form.format(**words) for form in forms if set(_fields(form)) <= set(words))
    except (KeyError, TypeError, ValueError, OverflowError, StopIteration):
        return None


def _fields(form: str) -> list[str]:
    """The names a form's words are filled from ("the {name} {colour}": name, colour)."""
    return [field for _, field, _, _ in string.Formatter().parse(form) if field]


def may_be_unlock(heard: str, doubted: frozenset[str]) -> bool:
    """Heard words of a call to lock that may have said "unlock": "lock" doubted (Heard.doubted_words), or one of
    UNLOCK_HEARD_AS where the verb stands; one after a joining word ("and lock(ed)", "then lock") only where no request
    of its own comes before it (one that opens with a verb, SWITCH_VERBS, after any JOINING_WORDS: "close the garage
    and lock the back door"), as in "i need the deeds to the house and lock the strongroom door"), and that verb heard
    for sure ("Cut:0.34 you and lock the wicket gate" for "could you unlock"). Locking the wrong way round is a wrong
    action."""
    if "lock" in doubted:
        return True
    words = re.findall(r"[a-z']+", heard.lower())
    for index, pair in enumerate(zip(words, words[1:])):
        if " ".join(pair) in UNLOCK_HEARD_AS:
            before = list(itertools.dropwhile(lambda word: word in JOINING_WORDS, words[:index]))
            if pair[0] not in _JOINING or not before or before[0] not in SWITCH_VERBS or before[0] in doubted:
                return True
    return False


def said_below_zero(heard: str, value) -> bool:
    """The words say the number below zero ("minus 5", "-5"): the call's number, which the model writes without
    its sign, is that number."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return False
    number = re.escape(format_number(abs(value)))
    return re.search(rf"(?:\b(?:{'|'.join(BELOW_ZERO)})\s+|(?<![\w.])-\s*){number}\b", heard.lower()) is not None


def numbers_carried(heard: str, name: str, arguments: dict) -> bool:
    """Each number of the call (SAID_NUMBERS) is one the heard words say: in any spelling ("forty", "40%"; "an hour"
    is 3600 seconds: normalize_request), its sign aside, or a level in words (the skill's words for it, "half",
    "full"; a share of SHARES, "a quarter"). A number no word carries is the model's, not the user's: where the
    recogniser lost the word that said it ("Dim the lamp to, please." written as 40 percent), the call would act
    on a value nobody said, so it is said back first."""
    said = normalize_request(heard)
    numbers = {float(number) for number in re.findall(r"\d+(?:\.\d+)?", said)}
    for key in SAID_NUMBERS:
        value = arguments.get(key)
        if not isinstance(value, (int, float)) or isinstance(value, bool) or abs(value) in numbers:
            continue
        if not math.isfinite(value):
            return False
        level = f"{format_number(value)} percent"
        words = [re.escape(word) for word in SKILLS[name].means.get(level, ())] if key == "percent" else []
        shares = [share for share, percent in SHARES if percent == value] if key == "percent" else []
        if not any(re.search(rf"\b(?:{word})\b", said) for word in words + shares):
            return False
    return True


def states_without_a_switch(heard: str, name: str = "") -> bool:
    """The words end in a state ("kitchen light on", "the samovar off?") and none before it, but the device's
    own name, is a verb of switching (STATE_WORDS, SWITCH_VERBS), nor asks for it to be done in the state's own
    clause, or after it, without a question's first word ("the dock light on, please", "could the ice maker go on":
    ASKING_FOR_IT; not "pendant off please, the crystal on"): a question, unless typed as a command."""
    words = re.findall(r"[a-z']+|[,.;:!?]", heard.lower())
    asked_for = False
    while words and (words[-1] in TRAILING_WORDS or not words[-1][0].isalpha()):
        asked_for |= words.pop() in ASKING_FOR_IT
    clause = words[max((i + 1 for i, word in enumerate(words) if not word[0].isalpha()), default=0):]
    if (asked_for or set(clause) & ASKING_FOR_IT) and clause[:1] and clause[0] not in QUESTION_WORDS:
        return False
    words = [word for word in words if word[0].isalpha()]
    if not words or words[-1] not in STATE_WORDS:
        return False
    named = set(re.findall(r"[a-z']+", name.lower()))
    return not any(_a_form_of(word, SWITCH_VERBS) for word in words[:-1] if word not in named)


def plain_answer(said: str) -> str | None:
    """"yes" or "no" when said is only that answer (the vocabulary's YES and NO phrasings), else None."""
    plain = " ".join(re.sub(r"[^a-z' ]", " ", said.lower()).split())
    return "yes" if plain in YES else "no" if plain in NO else None


def after_a_remark(heard: str, thing: str) -> bool:
    """A state said with no verb after a remark of the speaker's own: more than REMARK_WORDS words before the first
    word of the thing (thing: the words of its name, device, room or area), none of them asking, reporting or a
    state, and no question mark ("I'm going to practice piano light on."). A lost "is" leaves fewer ("It's a porch
    light on."), and a remark that reports or wonders ("i think that the gate locked") may have lost one too."""
    words = re.findall(r"[a-z']+", heard.lower())
    named = set(thing.lower().split())
    start = next((at for at, word in enumerate(words) if word in named), None)
    if "?" in heard or start is None:
        return False
    remark = [word for word in words[:start] if word not in REMARK_SKIPPED]
    return (len(remark) > REMARK_WORDS and not set(remark) & (STATE_WORDS | REPORTING_WORDS)
            and not any(word in QUESTION_WORDS for word in remark) and not asks_how_things_are(" ".join(remark)))


_JOINING = {word for joining in JOINING_WORDS for word in joining.split()}


def asks(heard: str, name: str = "", doubted: frozenset[str] = frozenset()) -> bool:
    """The heard words ask about a state: a question mark, words that ask (chat_template.asks_how_things_are), a follow-up that
    carries the question before it (FOLLOW_UP_WORDS at its start), or a state said without a verb of switching. A
    state read for words that ask nothing ("The cellar get a musty, run the dehumidifier.") answers a request whose
    verb was misheard, as if it were done. Words that ask count only heard for sure (not in doubted: "Check:0.38 at
    the vellics window" for "shut the velux window") and not as a word of the name before its kind (the still room
    heater's "still")."""
    qualifiers = set(name.lower().split()[:-1])
    words = re.findall(r"[a-z']+", heard.lower())
    opening = list(itertools.takewhile(lambda word: word in _JOINING or word in FOLLOW_UP_WORDS, words))
    opening += words[len(opening):len(opening) + 1]
    sure = " ".join(word for word in words if word not in doubted and word not in qualifiers)
    return ("?" in heard or asks_how_things_are(sure) or bool(set(opening) & FOLLOW_UP_WORDS)
            or states_without_a_switch(heard, name))


def read_heard(heard: str, words: tuple[str, ...], doubted: frozenset[str] = frozenset()) -> bool:
    """The heard words say what is read (one of words: "time" for the time), after no doubted word (in doubted) that
    may have been a thing's name instead: "Turn on the full:0.39 time." for "turn on the pool pump", "How humid in the
    cellar:0.14 today" for the cellar's humidity (STOP_WORDS and the read's own words skipped; a question's word or
    one of NAMES_NO_THING names nothing), as a change's target after such a word is said back
    (ToolRunner._doubted_change)."""
    said = re.findall(r"[a-z0-9']+", heard.lower())
    for at, word in enumerate(said):
        if word in words:
            before = next((w for w in reversed(said[:at]) if w not in STOP_WORDS and w not in words), None)
            if before is None or before not in doubted or before in QUESTION_WORDS or before in NAMES_NO_THING:
                return True
    return False


def _day_or_place_heard(heard: str, arguments: dict) -> bool:
    """The heard words say the day or the place the read names ("how many days until christmas": christmas), as
    code read them (assistant.clock): that read was heard, with no word of READS_HEARD_BY."""
    if isinstance(arguments.get("date"), str):           # a date said by its number: "the 3rd of may" is may 3
        return arguments["date"].lower() in dates_in(heard)
    named = arguments.get("day") or arguments.get("place")
    return isinstance(named, str) and re.search(rf"\b{re.escape(named.lower())}\b", heard.lower()) is not None


def _thing_words(arguments: dict) -> str:
    """The words a call names its thing by: its name, or its device and room, and its area."""
    return " ".join(value.replace("_", " ") for key, value in arguments.items()
                    if key in ("name", "device", "room", "area") and isinstance(value, str))


def _a_form_of(word: str, verbs: set[str]) -> bool:
    """word is one of verbs, or one with -s, -ed or -ing ("switched", "turning", "closes")."""
    return bool(_stems(word) & verbs)


def _a_number_word(word: str) -> bool:
    """A number said as a word or digits ("one", "2"): where a name's word stood, a name word misheard ("wine")."""
    return word in NUMBER_WORDS or word.isdigit()


def _stems(word: str) -> set[str]:
    """word and what it may be a form of, in one spelling (SPELLINGS): "switched" -> "switch", "lights" -> "light"."""
    word = SPELLINGS.get(word, word)
    stems = {word}
    for ending in ("s", "es", "ed", "d", "ing"):
        if word.endswith(ending):
            stem = word[:-len(ending)]
            stems |= {stem, stem + "e", stem[:-1] if len(stem) > 2 and stem[-1] == stem[-2] else stem}
    return stems


def _timer_length(seconds) -> int:
    """Whole seconds, from one second to a day; ValueError otherwise."""
    seconds = int(float(seconds))
    if not 0 < seconds <= MAX_TIMER_S:
        raise ValueError("timer out of range")
    return seconds


def _in_full(name: str, lexicon) -> str:
    """A name as a remote model may write it ("AC"), with its short name said in full as the embedded generator
    reads the request (Lexicon.unabbreviated: "air conditioner" where the home has one); any other name as written."""
    said = normalize_request(name)
    full = lexicon.unabbreviated(said)
    return name if full == said else full


def _target_limit(inventory: Inventory, entity: Entity, target,
                  action: str = "temperature") -> tuple[str, float] | None:
    """("highest", its max_temp) for a target over a climate's or water heater's max_temp, ("lowest", its min_temp)
    under its min_temp (Inventory.temperature_range); for a humidifier's humidity its min_humidity and max_humidity;
    None within them."""
    if not isinstance(target, (int, float)):
        return None
    if action == "temperature" and entity.component in THERMOSTATS:
        low, high = inventory.temperature_range(entity)
    elif action == "humidity" and entity.component == "humidifier":
        low, high = entity.humidity_limits
    else:
        return None
    if low <= target <= high:
        return None
    return ("highest", high) if target > high else ("lowest", low)


def _degrees_taken(entity: Entity, degrees: float) -> bool:
    """A target a thermostat may be sent (the nearer limit said where past its own): above 0 and below 100 degrees,
    or for a water heater, whose 120 to 140 °F are usual, below TEMPERATURE_LIMITS' top."""
    return 0 < degrees < (TEMPERATURE_LIMITS[1] if entity.component == "water_heater" else 100)


def _colour_not_taken(entity: Entity, colour: str | None) -> NoAction | None:
    """Why a light can't take the colour (by its name) or white (a white's name, else a kelvin or a step) asked, as
    its discovery says: it takes no colour at all, only whites, or only colours; None where it takes it."""
    takes_colour, takes_white = bool(set(entity.colour_modes) & set(COLOUR_MODES)), "color_temp" in entity.colour_modes
    if not (takes_colour or takes_white):
        return NoAction(f"The {entity.name} can't change colour.")
    if colour in COLOUR_NAMES and not (colour == "white" and not takes_colour):
        return None if takes_colour else NoAction(f"The {entity.name} can only be set to a white, from warm to cool.")
    its = agreeing(entity.name, "its")
    return None if takes_white else NoAction(f"The {entity.name} can't change {its} white, only {its} colour.")


def _colours_refused(found: list[Entity], colour: str | None, name, area) -> NoAction | None:
    """Why each light of several can't take the colour or white asked (_colour_not_taken), at most MAX_LISTED of
    them said, then how many more; "None of the lights can change colour." where none takes any; None where every
    one takes it."""
    refused = [str(problem) for entity in found if (problem := _colour_not_taken(entity, colour))]
    if not refused:
        return None
    if len(found) > 1 and not any(entity.colour_modes for entity in found):
        return NoAction(f"None of the {str(name).replace('_', ' ')}{f' in the {area}' if area else ''} can change "
                        f"colour.")
    more = f" {len(refused) - MAX_LISTED} more can't take it." if len(refused) > MAX_LISTED else ""
    return NoAction(" ".join(refused[:MAX_LISTED]) + more)


def _the(entity: Entity) -> str:
    return entity.name if entity.component == "scene" else f"the {entity.name}"


def _said(name: str | None, area: str | None = None) -> str:
    name = name or ""
    return f"{area} {name}".strip() if area and area not in name else name


# How the assistant asks which thing: after a call that fits several (_choice), and in a follow-up the conversation
# cannot settle (assistant.conversation); CHOICE_QUESTION reads an answer's question back, in those words or as
# "Which one, ...?" (a history's own wording)
WHICH_ONE_LISTED = "Which one: "
WHICH_ONE_MEANT = "Which one do you mean, "
CHOICE_QUESTION = re.compile(rf"^(?:{WHICH_ONE_LISTED}|{WHICH_ONE_MEANT}|Which one, )(?P<choices>.+)\?$")
# What the assistant says of a thing the home lacks (_find), and how a follow-up reads it back: the reply names a thing,
# so "the carriage house door then" after it is the request again with that thing
UNKNOWN_DEVICE = "I don't know a device called the {name}."
TARGET_QUESTION = "What temperature would you like {thing} set to?"      # a climate stepped with no target known
TARGET_QUESTION_SAID = re.compile("^" + re.escape(TARGET_QUESTION).replace(r"\{thing\}", "(?P<thing>.+)") + "$")
UNKNOWN_DEVICE_SAID = re.compile("^" + re.escape(UNKNOWN_DEVICE).replace(r"\{name\}", "(?P<name>.+)") + "$")


def _choice(entities: list[Entity]) -> NoAction:
    names = [f"the {e.name}" + (f" in the {e.area}" if e.area and e.area not in e.name and
                                sum(x.name == e.name for x in entities) > 1 else "") for e in entities[:3]]
    return NoAction(WHICH_ONE_LISTED + (", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else names[0])
                    + "?")


def _mode_spoken(mode: str) -> str:
    """A mode as said: "fan_only" is "fan only"."""
    return mode.replace("_", " ").lower()


def _modes_listed(entity: Entity) -> str:
    """The modes a thing can be put in, as said ("auto, sleep and nature"; inventory.modes_to_choose)."""
    return _listed(modes_to_choose(entity))


def _listed(modes) -> str:
    """Modes as said in a list: "auto, sleep and nature"."""
    return _joined([_mode_spoken(m) for m in modes], "and")


def _joined(words: list[str], joined: str) -> str:
    """Words as said in a list, the last joined by "and" or "or": "6:45 AM or 7:00 AM"."""
    return ", ".join(words[:-1]) + f" {joined} " + words[-1] if len(words) > 1 else "".join(words)


def _list_said(list_name: str) -> str:
    """ "shopping list", "to-do list", "hardware list"."""
    return f"{list_name} list"


def _many(items: list[str]) -> bool:
    """Items said as many: several, or one in the plural ("nails")."""
    return len(items) > 1 or says_many(items[0])


def _on_it_said(items: list[str], kept: list[str], called: str) -> str:
    """Whether the items asked about are on the list: "Yes, milk is on your shopping list.", "No, ...", or which are
    and which are not."""
    there = [item for item in items if on_the_list([item], kept)]
    absent = [item for item in items if item not in there]
    are = "are" if there and _many(there) else "is"
    are_not = "aren't" if absent and _many(absent) else "isn't"
    if not absent:
        return f"Yes, {_joined(there, 'and')} {are} on your {called}."
    if not there:
        return f"No, {_joined(absent, 'and')} {are_not} on your {called}."
    return f"{_capital(_joined(there, 'and'))} {are} on your {called}; {_joined(absent, 'and')} {are_not}."


def _capital(words: str) -> str:
    return words[:1].upper() + words[1:]


def _items_and_list(items, list_name) -> tuple[list[str], str, str] | NoAction:
    """A change's items, its list as kept and as said ("shopping", "shopping list"); NoAction where either cannot be."""
    list_name, items = kept_name(list_name), _items(items)
    if isinstance(items, NoAction):
        return items
    if len(list_name) > MAX_LIST_ITEM_CHARS:
        return NOT_POSSIBLE
    return items, list_name, _list_said(list_name)


def _items(items) -> list[str] | NoAction:
    """The items of a call, each once and within MAX_LIST_ITEM_CHARS; NoAction where one is longer, or none is said.
    One item alone may come as text (a remote model's call)."""
    if isinstance(items, str):
        items = [items]
    if not isinstance(items, list):
        return NOT_POSSIBLE
    said = list(dict.fromkeys(" ".join(str(item).split()) for item in items if str(item).strip()))
    if not said:
        return NOT_POSSIBLE
    if any(len(item) > MAX_LIST_ITEM_CHARS for item in said):
        return ITEM_TOO_LONG
    return said


def stepped_level(level: int | None, direction: str) -> int:
    """A light a quarter brighter or dimmer ("make it brighter"); one that never said its level counts as
    full. Dimming stops at 5 percent: off is "turn it off"."""
    level = 100 if level is None else level
    if direction == "up":
        return min(100, level + BRIGHTNESS_STEP)
    return max(min(level, 5), level - BRIGHTNESS_STEP)


def clock_time(hour, minute) -> tuple[int, int]:
    """An alarm's (hour, minute) as the call gives them; Whisper writes "six forty five" as "645"."""
    hour, minute = _whole(hour), _whole(minute)
    if minute == 0 and 100 <= hour <= 2359:
        return divmod(hour, 100)
    return hour, minute


def _whole(number) -> int:
    """A clock's hour or minute: "7.30" read as 7.3 is no hour (rather ask than set 7:00)."""
    value = float(number)
    if not value.is_integer():
        raise ValueError("not a whole number")
    return int(value)


def _not_reported(entity: Entity, what: str = "") -> str:
    """ "The radiators haven't reported their target temperature yet." (what: "target temperature"), or "The lamp
    hasn't reported yet."."""
    hasnt, its = agreeing(entity.name, "hasn't"), agreeing(entity.name, "its")
    return f"The {entity.name} {hasnt} reported {f'{its} {what} ' if what else ''}yet."


def _state_sentence(entity: Entity, state: str) -> str:
    if entity.component == "sensor":
        unit = entity.unit or SENSOR_UNITS.get(entity.device_class or "", "")
        unit = {"°C": "degrees", "°F": "degrees", "%": "percent"}.get(unit, unit)
        try:
            state = format_number(float(state))
        except ValueError:
            pass
        return f"The {entity.name} {agreeing(entity.name, 'is')} {state} {unit}".rstrip() + "."
    if entity.component == "binary_sensor":
        words = {"door": ("open", "closed"), "window": ("open", "closed"), "opening": ("open", "closed"),
                 "garage_door": ("open", "closed"), "motion": ("detecting motion", "clear"),
                 "occupancy": ("occupied", "clear"), "moisture": ("wet", "dry"), "smoke": ("detecting smoke", "clear"),
                 "lock": ("unlocked", "locked")}.get(entity.device_class or "", ("on", "off"))
        return f"The {entity.name} {agreeing(entity.name, 'is')} {words[0] if state == 'on' else words[1]}."
    be = agreeing(entity.name, "is")
    if entity.component in THERMOSTATS:
        return f"The {entity.name} {be} set to {state} degrees." if re.fullmatch(r"[\d.]+", state) else \
            f"The {entity.name} {be} {state}."
    return f"The {entity.name} {be} {state}."


class TimerBook(Protocol):
    """Where a session's timers and alarms live: in this process (LocalTimers), or in the store, where they
    outlive it and the gateway rings them (streaming.gateway.DurableTimers)."""

    async def add(self, seconds: int, name: str | None = None, alarm: str | None = None,
                  call: str | None = None) -> None: ...

    async def pending(self) -> list:
        """The timers still to ring, soonest first, then the paused ones: objects with id, seconds, due_at (unix; a
        paused one's the seconds it has left), name, alarm, state."""

    async def cancel(self, timer_id: str) -> bool: ...

    async def retime(self, timer, left: float, paused: bool, seconds: int) -> bool:
        """The timer (as pending() gave it) left with these seconds, paused or running, its length now seconds (what
        its ring says: time added or taken off changes it); False when it is gone (rung, cancelled, or changed by
        another turn since it was read)."""

    async def cancel_all(self) -> int: ...

    async def add_change(self, seconds: int, call: str, bound: int) -> bool:
        """A change scheduled for later (add's call), added unless `bound` changes wait for their time where this book
        keeps them, in every conversation: this process's (LocalTimers), or the store's, every gateway sharing it
        (DurableTimers). Counted and added as one step, so gateways scheduling at the same moment keep to the bound;
        False: refused, nothing added."""

    def stop(self) -> None:
        """The session ended: timers of this process stop; stored ones stay for whoever comes next."""

    @property
    def running(self) -> int: ...


class LocalTimers:
    """A session's timers in this process: each rings on the event loop that set it, by calling ring(timer)."""

    def __init__(self, ring: Callable[[Timer], None]):
        self._ring = ring
        self._timers: dict[str, tuple[Timer, asyncio.TimerHandle | None]] = {}   # None: paused

    async def add(self, seconds: int, name: str | None = None, alarm: str | None = None,
                  call: str | None = None) -> None:
        timer = Timer(f"timer_{next(_LOCAL_TIMER_IDS)}", int(seconds), time.time() + seconds, name, alarm, call=call)
        self._timers[timer.id] = (timer, asyncio.get_running_loop().call_later(seconds, self._rang, timer.id))
        if call is not None:
            SCHEDULED_HERE[timer.id] = timer.due_at

    def _rang(self, timer_id: str) -> None:
        timer, _ = self._timers.pop(timer_id)
        SCHEDULED_HERE.pop(timer_id, None)
        self._ring(timer)

    async def pending(self) -> list[Timer]:
        return sorted((timer for timer, _ in self._timers.values()), key=lambda t: (t.state == "paused", t.due_at))

    async def cancel(self, timer_id: str) -> bool:
        held = self._timers.pop(timer_id, None)
        SCHEDULED_HERE.pop(timer_id, None)
        if held is not None and held[1] is not None:
            held[1].cancel()
        return held is not None

    async def retime(self, timer: Timer, left: float, paused: bool, seconds: int) -> bool:
        held = self._timers.get(timer.id)
        if held is None or held[0] != timer:
            return False
        if held[1] is not None:
            held[1].cancel()
        if paused:                       # no handle: a paused timer never rings
            self._timers[timer.id] = (dataclasses.replace(timer, seconds=seconds, due_at=left, state="paused"), None)
        else:
            self._timers[timer.id] = (dataclasses.replace(timer, seconds=seconds, due_at=time.time() + left,
                                                          state="pending"),
                                      asyncio.get_running_loop().call_later(left, self._rang, timer.id))
        return True

    async def cancel_all(self) -> int:
        running = len(self._timers)
        self.stop()
        return running

    async def add_change(self, seconds: int, call: str, bound: int) -> bool:
        now = time.time()           # no await until the change is added: one step on this process's event loop
        for passed in [timer_id for timer_id, due in SCHEDULED_HERE.items() if due < now]:
            del SCHEDULED_HERE[passed]
        if len(SCHEDULED_HERE) >= bound:
            return False
        await self.add(seconds, call=call)
        return True

    def stop(self) -> None:
        for timer_id, (_, handle) in self._timers.items():
            SCHEDULED_HERE.pop(timer_id, None)
            if handle is not None:
                handle.cancel()
        self._timers.clear()

    @property
    def running(self) -> int:
        return len(self._timers)


class ToolRunner:
    """Runs one session's tool calls; holds its timers, alarms and the action awaiting a yes. Bad arguments
    give a short spoken refusal.

    Timers and alarms live in timer_book: by default in this process, where a timer rings on the event loop
    that set it by calling on_ring(seconds, text to say) (the session sets on_ring to speak up; without one, as
    in the text chat, a due timer just ends). A gateway with a store passes its DurableTimers instead.
    """

    def __init__(self, home: Home | None = None, timer_book: TimerBook | None = None, lists: ListBook | None = None):
        self.home = home if home is not None else InMemoryHome()
        self.timer_book = timer_book if timer_book is not None else LocalTimers(self._ring)
        # The home's lists (assistant.lists): the server passes its state store, where every gateway reads the same
        self.lists = lists if lists is not None else LocalLists()
        self.on_ring: Callable[[int, str], None] | None = None
        self.pending: Pending | None = None
        self.turn = 0                    # user messages that replies have answered
        self.heard = ""                  # the words of the latest
        # Names the recogniser put in for words that only sounded like them (voice.heard_names), with the
        # words heard: a call to one asks first. Set by the session for each transcript it answers.
        self.guessed_names: dict[str, str] = {}
        # Words of the latest transcript the recogniser was unsure of (voice.stt.Heard.unsure_words), lowercase:
        # a timer is not named with them. Set by the session for each transcript it answers, as guessed_names.
        self.unsure_words: frozenset[str] = frozenset()
        # Numbers of the latest transcript the recogniser doubted (voice.stt.Heard.unsure_numbers): a call that
        # takes numbers says them back and waits for a yes. Set by the session, as guessed_names.
        self.unsure_numbers: frozenset[str] = frozenset()
        # Words of the latest transcript the recogniser doubted (voice.stt.Heard.doubted_words), lowercase, a wider
        # net than unsure_words: a timer named with one is said back first. Set by the session, as guessed_names.
        self.doubted_words: frozenset[str] = frozenset()
        # Words of the latest transcript doubted below a change's line (voice.stt.Heard.doubted_change_words),
        # lowercase: a heard change resting on one is said back first. Set by the session, as guessed_names.
        self.doubted_change_words: frozenset[str] = frozenset()
        # The latest user message was heard, not typed: a state said with no verb of switching is then a
        # question (states_without_a_switch). Set by the session, as guessed_names.
        self.spoken = False
        self._spoken_names: tuple[int, tuple[str, ...]] = (-1, ())
        # The volume each media player had when this conversation muted it (one entry per player at most), which
        # "unmute" gives back: the community bridge's players have no mute of their own, so muting sets volume 0
        self._unmuted: dict[str, int] = {}
        # The things the latest summary named (list_states), by key, that "turn them off" right after it switches
        # (switch_listed): at most the home's entities
        self.listed: tuple[str, ...] = ()
        # What the newest list change this conversation asked for changed ({"list_name", "added", "removed"}: at most
        # a list's MAX_LIST_ITEMS items), that "undo that" takes back (assistant.lists.list_undone); None where that
        # change never ran or failed
        self.list_change: dict | None = None
        # The timer or alarm that rang last, and when (unix): "stop" and "snooze" within RINGING_S are about it
        self.rang: tuple[Timer, float] | None = None
        # The time the request being answered puts its changes at (assistant.later.Later), while it is answered
        # without its time: every change is then scheduled, not made (set by the assistant, then cleared)
        self.later: Later | None = None
        self._due_runs: set[asyncio.Task] = set()     # scheduled changes running now, at most MAX_SCHEDULED

    @property
    def timers_running(self) -> int:
        return self.timer_book.running

    async def lexicon(self) -> tuple | None:
        """The names of the user's own home for the prompt's slots, or None in the default home. The inventory
        builds them once per version for every session, in a thread: a big home costs seconds of CPU."""
        inventory = self.home.inventory
        if not inventory.custom:
            return None
        return inventory.built_lexicon() or await asyncio.to_thread(inventory.lexicon)

    def spoken_names(self) -> tuple[str, ...]:
        """The areas and names of the user's own home, for the speech recogniser's prompt; none in the
        default home, whose words the recogniser's fixed prompt already has."""
        return self.home_names() if self.home.inventory.custom else ()

    def home_names(self) -> tuple[str, ...]:
        """The areas and names of the home, the default one's too: what a final's words are heard against
        (voice.heard_names). The default home's are not in the recogniser's prompt, yet Whisper writes them
        otherwise all the same ("garage heat" for the garage heater)."""
        inventory = self.home.inventory
        if self._spoken_names[0] != inventory.version:
            self._spoken_names = (inventory.version, inventory.spoken_names())
        return self._spoken_names[1]

    def begin_reply(self, history: list[dict]) -> None:
        """A reply starts. If it answers a user message, that message is the user's next turn: the only place
        the yes to a question asked earlier can come from. A model that asks and answers in one reply, or after
        a client tool's output, unlocks nothing."""
        last = next((m for m in reversed(history) if m.get("role") != "system"), None)
        if last is not None and last.get("role") == "user":
            self.turn += 1
            self.heard = content_text(last)

    def conversation_state(self, max_chars: int) -> dict:
        """What the conversation's next turns read that its items do not say, as data: the user turns answered, the
        things the latest summary named, the volumes muting took, the action waiting for a yes, what rang last. The
        session keeps it on each call's output item and a ring's message, so a session resumed on another gateway
        reads the same (restore_state). At most max_chars as JSON: past it the least needed part gives way first
        (STATE_GIVEN_UP), the things named trimmed from their end; the user turns answered always stay."""
        state: dict = {"turn": self.turn}
        if self.listed:
            state["listed"] = list(self.listed)
        if self._unmuted:
            state["unmuted"] = dict(self._unmuted)
        if self.list_change is not None:
            state["list_change"] = self.list_change
        if self.pending is not None and self.pending.held:
            state["pending"] = {"subject": self.pending.subject, "asked_at": self.pending.asked_at,
                                "turn": self.pending.turn, **self.pending.held}
        if self.ringing is not None:
            timer, at = self.rang
            state["rang"] = {"id": timer.id, "seconds": timer.seconds, "name": timer.name, "alarm": timer.alarm, "at": at}
        for part in STATE_GIVEN_UP:
            size = len(json.dumps(state))
            if size <= max_chars:
                break
            if part == "listed" and part in state:
                state["listed"] = _trimmed(state["listed"], size - max_chars)
            if part != "listed" or not state.get("listed"):
                state.pop(part, None)
        return state

    def restore_state(self, state: dict) -> None:
        """A stored conversation_state taken up again (a resumed session). A part that is not of its shape, or an
        action on a thing the home no longer has, is left out: the store may hold what another version wrote."""
        if isinstance(state.get("turn"), int):
            self.turn = state["turn"]
        listed = state.get("listed", [])
        if isinstance(listed, list) and all(isinstance(key, str) for key in listed):
            self.listed = tuple(listed)
        unmuted = state.get("unmuted", {})
        if isinstance(unmuted, dict) and all(isinstance(v, int) and not isinstance(v, bool) for v in unmuted.values()):
            self._unmuted = dict(unmuted)
        self.pending = self._pending_of(state.get("pending"))
        self.rang = _rang_of(state.get("rang"))
        self.list_change = _list_change_of(state.get("list_change"))

    def _pending_of(self, held) -> Pending | None:
        """The Pending a stored conversation_state's "pending" stands for, or None."""
        if not isinstance(held, dict) or not isinstance(held.get("subject"), str) \
                or not isinstance(held.get("asked_at"), (int, float)) or not isinstance(held.get("turn"), int):
            return None
        subject, asked_at, turn = held["subject"], float(held["asked_at"]), held["turn"]
        if isinstance(held.get("call"), str) and held["call"] in SKILLS and isinstance(held.get("arguments"), dict) \
                and isinstance(held.get("heard"), str):
            call = {key: held[key] for key in ("call", "arguments", "heard")}
            return Pending(subject, self._as_heard(held["call"], held["arguments"], held["heard"]), asked_at, turn, call)
        entity = self.home.inventory.get(held["entity"]) if isinstance(held.get("entity"), str) else None
        if entity is None or not isinstance(held.get("action"), str) \
                or not isinstance(held.get("value"), (int, float, str, type(None))):
            return None
        action, value = held["action"], held["value"]
        return Pending(subject, lambda: self._act(entity, action, value, confirmed_by_user=True), asked_at, turn,
                       {"entity": entity.key, "action": action, "value": value})

    async def run(self, name: str, arguments: dict) -> str:
        if name not in SKILLS:
            return NOT_A_SKILL
        if name != "confirm":
            self.pending = None          # a yes answers only the question just asked
        if name in LIST_CHANGES:
            self.list_change = None      # until the change is made: one said back or refused changed nothing
        if self.later is not None and name not in CHANGES_THE_HOME:
            return NOT_FOR_LATER         # only changes are scheduled: the request is answered as said instead
        later = not_now(self.heard) if name in CHANGES_THE_HOME else None
        if later is not None:            # a change said for later is never made now
            return later
        if name == "convert" and said_below_zero(self.heard, arguments.get("value")):
            arguments["value"] = -abs(arguments["value"])     # in the caller's call too: the reply says what ran
        # Names and areas come in the call syntax's spelling (porch_light, living_room): words from here on.
        arguments = {key: value.replace("_", " ") if key in NAME_ARGUMENTS and isinstance(value, str) else value
                     for key, value in arguments.items()}
        lexicon = await self.lexicon() if name in THING_NAMED and isinstance(arguments.get("name"), str) else None
        if lexicon is not None:          # a thing's name, not a timer's
            arguments["name"] = _in_full(arguments["name"], lexicon)
        if self.spoken and name in SWITCHING and states_without_a_switch(self.heard, arguments.get("name", "")) \
                and not after_a_remark(self.heard, _thing_words(arguments)):
            return await self._state_instead(arguments)
        if self.spoken and SKILLS[name].reads and not asks(self.heard, str(arguments.get("name") or ""),
                                                           self.doubted_words):
            return NoAction(NOT_UNDERSTOOD)
        if self.spoken and name in READS_HEARD_BY and not read_heard(self.heard, READS_HEARD_BY[name],
                                                                     self.doubted_words) \
                and not _day_or_place_heard(self.heard, arguments):
            return NoAction(NOT_UNDERSTOOD)
        if self.spoken and name in HEARD_CHANGES and self._another_of_its_kind(str(arguments.get("name", ""))):
            return NOT_A_NAME_OF_THE_HOME
        other = (self._another_thing_named(arguments)
                 if self.spoken and (SKILLS[name].reads or name in HEARD_CHANGES) else None)
        if other is not None:          # asked where the word heard in the name's place sounds like one of its words
            thing, word = other
            if any(alike(word, own) for own in thing.name.lower().split()[:-1]):
                return self._ask_first(thing.name.lower(), name, arguments)
            return NOT_A_NAME_OF_THE_HOME
        guessed = next((value for key, value in arguments.items() if key in NAME_ARGUMENTS
                        and isinstance(value, str) and value.lower() in self.guessed_names), None)
        if guessed is None and self.guessed_names and name in THING_NAMED:
            guessed = self._guessed_thing(arguments)
        if guessed is not None:
            return self._ask_first(guessed, name, arguments)
        if self.spoken and name in LIST_SAID_BACK and any(
                word in self.doubted_words for item in arguments.get("items", []) for word in item.lower().split()):
            return self._say_back(LIST_SAID_BACK[name].format(items=_joined(arguments["items"], "and"),
                                                              list=_list_said(arguments["list_name"])), name, arguments)
        # a number the recogniser doubted, or one no heard word carries, is said back first
        unsure = self.unsure_numbers or self.spoken and not numbers_carried(self.heard, name, arguments)
        said = said_back(name, arguments) if unsure and self._knows_the_device(name, arguments) else None
        if self.spoken and said is None:
            said = self._doubted_change(name, arguments)
        if said is not None:
            return AT_A_LATER_TIME if self.later is not None else self._say_back(said, name, arguments)
        if self.later is not None:
            return await self._schedule(name, arguments)
        try:
            return await getattr(self, "_" + name)(**arguments)
        except CalculationError:
            return NOT_CALCULABLE
        except (TypeError, ValueError, OverflowError):    # int(inf) overflows: e.g. a 309-digit timer
            return NOT_POSSIBLE

    def lacked(self, name: str, arguments: dict) -> NoAction | None:
        """The honest sentence ("I don't know a device called the barn door.") when a call names a thing or an area
        that nothing of the home is, among all its kinds: such a call is not made, so a name the home lacks never
        acts or reads; None otherwise."""
        thing, area = arguments.get("name"), arguments.get("area")
        if name not in THING_NAMED or not isinstance(thing, str) or not thing:
            return None
        return self._find(thing.replace("_", " "), area.replace("_", " ") if isinstance(area, str) else None,
                          COMPONENTS)[1]

    def waiting_answer(self, said: str) -> str | None:
        """"yes" or "no" when what the user said is only that answer (the vocabulary's YES and NO phrasings)
        and a question asked in an earlier reply waits for it, else None. The model reads calls, not the
        questions their results asked: after a call that never needs a yes ("Did you mean the kiln?" held a
        switch_device) it cannot tell a yes from small talk."""
        if (self.pending is None or self.pending.turn == self.turn
                or time.time() - self.pending.asked_at > CONFIRM_WINDOW_S):
            return None
        return plain_answer(said)

    def _ask_first(self, guessed: str, name: str, arguments: dict) -> NoAction:
        """Hold a call to a guessed name until the user says yes; the yes runs it as if heard for sure (a change
        said for later is not scheduled on a guess: a yes would make it now)."""
        if self.later is not None:
            return AT_A_LATER_TIME
        self.pending = Pending(f"the {guessed}", self._as_heard(name, arguments), time.time(), self.turn,
                               {"call": name, "arguments": arguments, "heard": self.heard})
        return NoAction(f"Did you mean the {guessed}? Say yes to confirm.")

    def _guessed_thing(self, arguments: dict) -> str | None:
        """The guessed name (guessed_names) of the one thing a call names in other words, or None: "drinks cabinet
        light" written for the drinks cabinet, a guess from "the rings cabinet light", is a guess too."""
        if not isinstance(arguments.get("name"), str):
            return None
        found, _ = self._find(arguments["name"], arguments.get("area"), COMPONENTS)
        names = {entity.name.lower() for entity in found}
        return next(iter(names)) if len(names) == 1 and names <= set(self.guessed_names) else None

    def _knows_the_device(self, name: str, arguments: dict) -> bool:
        """The call names no device, or one the home has: a call to a device it lacks is refused as it is,
        never said back for a yes ("dim the pantry light to 10%" in a home without one)."""
        device = arguments.get("name") if name in THING_NAMED else None        # a timer's name is no device
        return device is None or self._find(device, arguments.get("area"), READABLE)[1] is None

    def _another_of_its_kind(self, called: str) -> bool:
        """The call names a thing of several words of which the heard words hold only the last, its kind, and the
        word before that kind (STOP_WORDS skipped) is in no request's phrasing, no name of the home and no number
        (voice.heard_words): the user named some other thing of that kind, one the home lacks. "start the washing
        machine", heard "Start the wash:0.39 on the machine.", was written switch_device name=sewing machine from
        "machine" alone; typed, the model refuses it with the unknown-name reply, and so does this."""
        *qualifiers, kind = called.lower().split() or [""]
        heard = re.findall(r"[a-z0-9']+", self.heard.lower())
        if not qualifiers or any(_stems(word) & _stems(qualifier) for word in heard for qualifier in qualifiers):
            return False
        home_words = frozenset(word for name in self.spoken_names() for word in name.lower().split())
        for at, word in enumerate(heard):
            if _stems(word) & _stems(kind):
                before = next((w for w in reversed(heard[:at]) if w not in STOP_WORDS), None)
                if before is not None and words_in_no_phrasing(before, home_words):
                    return True
        return False

    def _another_thing_named(self, arguments: dict) -> tuple[Entity, str] | None:
        """A spoken read or change of one thing of the home of several words, none of whose own name words was
        heard, whose kind (the last word of its name) was said after "the" and a word of neither its name nor its
        area ("is the wine cellar door open" in a home whose only door is the coal hole door, in the cellar), or
        after "the" and a number word before its own area ("the one cellar door": "wine" heard as "one"): the user
        named another thing, one the home lacks, and is told so rather than answered about or acting on this one
        (issue 22: biasing never turns an unknown name into a known one). "the one door" alone is still the door.
        The thing and the word heard in its name's place, else None."""
        called = arguments.get("name")
        if not isinstance(called, str) or not called:
            return None
        found, problem = self._find(called, arguments.get("area"), READABLE)
        if problem is not None or len(found) != 1:
            return None
        *qualifiers, kind = found[0].name.lower().split()
        if not qualifiers:
            return None
        named = {stem for word in qualifiers for stem in _stems(word)}
        own = named | {stem for word in (found[0].area or "").lower().split() for stem in _stems(word)}
        heard = re.findall(r"[a-z0-9']+", self.heard.lower())
        if any(_stems(word) & named for word in heard):
            return None
        kind_stems = _stems(kind)
        own |= kind_stems       # the kind said twice ("the lantern lantern") is no other word
        for at, word in enumerate(heard):
            if not _stems(word) & kind_stems:
                continue
            before = heard[:at]
            own_said = False
            while before and _stems(before[-1]) & own:      # its own area or kind said before it: "the cellar door"
                before.pop()
                own_said = True
            if len(before) < 2 or before[-2] not in THING_DETERMINERS:
                continue
            if before[-1] not in STOP_WORDS or (own_said and _a_number_word(before[-1])):
                return found[0], before[-1]
        return None

    def _doubted_change(self, name: str, arguments: dict) -> str | None:
        """A heard call that changes something (DOUBTS_SAID_BACK), in words to say back, when a word of its verb,
        state, number or colour was doubted (Heard.doubted_change_words), no word heard for sure names its target (a rare
        name is often written with doubt though right: one word of it heard for sure is enough), a word doubted at
        the wider Heard.doubted_words line, not of the target, stands right before it (a name the home lacks,
        misheard), its lock may have been "unlock" (may_be_unlock, at the wider Heard.doubted_words line), or no
        word heard says its action while a word not of its target was doubted (below the change's line) or a word
        heard says another action of its kind ("off" for a call to switch on); else None.
        A target the home has none or several of is not asked about: the call says so itself."""
        if name not in DOUBTS_SAID_BACK:
            return None
        words = {key: str(value).replace("_", " ") for key, value in arguments.items()}
        target = self._target(name, words)
        if target is None:
            return None
        named = {stem for key in ("name", "area", "room", "device") for phrase in [words.get(key, ""), *target[1:]]
                 for word in phrase.lower().split() for stem in _stems(word)} - STOP_WORDS
        action = next((words[key] for key in ACTION_ARGUMENTS if key in words), None)
        means = SKILLS[name].means
        verbs = STATE_WORDS | {action} | set(means.get(action, ()) if action else itertools.chain(*means.values())) \
            | {word for key in ("colour", "shift") for word in words.get(key, "").split()}     # "blue", "warm white"
        numbers = [format_number(arguments[key]) for key in ("percent", "degrees", "kelvin")
                   if isinstance(arguments.get(key), (int, float))]
        heard = re.findall(r"[a-z0-9']+", self.heard.lower())
        doubted = {word for word in heard if word in self.doubted_change_words and (
            _a_form_of(word, verbs) or any(number in word for number in numbers)
            or (action is not None and len(action) > 3 and word.startswith(action)))}      # "locket" for "lock it"
        supported = not named or any(_stems(word) & named for word in heard if word not in self.doubted_change_words
                                     and word not in STOP_WORDS and not _a_form_of(word, verbs))
        # a word doubted at the timer names' wider line right before the target's own, not of it: the thing said
        # may be another the home lacks ("close no confirmatory:0.42 blind" heard for the conservatory blind)
        qualified = any(word in self.doubted_words and word not in STOP_WORDS and not _stems(word) & named
                        and _stems(after) & named for word, after in zip(heard, heard[1:]))
        # a lock the wrong way round keeps the timer names' wider line (round 15's measured rule)
        unlock = name == "set_lock" and words.get("action") == "lock" and may_be_unlock(self.heard, self.doubted_words)
        # no word heard says the action ("Watch the snug:0.11 stove set it:0.22." written as switch on), and a word not
        # of the target was doubted below the change's line: the word that said it may be that one ("onto:0.15 well"
        # for "down to twelve"); heard clearly, an action left unsaid ("start the dishwasher") is the model's to read
        action_unsaid = action is not None and \
            not any(_a_form_of(word, {action, *means.get(action, ())}) for word in heard)
        unsaid = action_unsaid and any(word in self.doubted_change_words and word not in STOP_WORDS
                                       and not _stems(word) & named for word in heard)
        # no word heard says the action while one says another of its kind ("Turn off the fan." written as on): the
        # words carried that other, however sure the recogniser was of them
        contrary = action_unsaid and action in ACTIONS and any(word in ACTIONS[action] for word in heard)
        if supported and not unlock and not doubted and not qualified and not unsaid and not contrary:
            return None
        if name not in CHANGES_SAID_BACK:
            return said_back(name, arguments)
        try:
            return CHANGES_SAID_BACK[name].format(**words, target=target[0])
        except KeyError:                 # a call without its arguments: refused as it is
            return None

    def _target(self, name: str, words: dict) -> tuple[str, ...] | None:
        """What the call acts on: its words said back with their article ("the cove lighting", "movie time"), then
        the home's words for it (its entity's name and area; the default home's for its room and device). None
        where the home has none or several such things (the call says so itself)."""
        if "name" not in words:
            return ("", *ROOMS.get(words.get("room", "").replace(" ", "_"), ()),
                    *DEVICES.get(words.get("device", "").replace(" ", "_"), ()))
        every = words["name"] in EVERY_THING
        found, problem = self._find(None if every else words["name"], words.get("area"), COMPONENTS)
        if problem or (len(found) > 1 and name != "switch_all" and not (
                name == "set_colour" and words["name"] in PLURAL_KINDS)):        # "the lounge lights": each of them
            return None
        if len(found) == 1:
            return _the(found[0]), found[0].name, found[0].area or ""
        return ("everything", *EVERY_THING) if every else (f"the {_said(words['name'], words.get('area'))}",)

    def _say_back(self, said: str, name: str, arguments: dict) -> NoAction:
        """Hold a call made of a number, a timer's name, a state or a target the recogniser doubted until the user
        says yes to it said back."""
        self.pending = Pending("it", self._as_heard(name, arguments), time.time(), self.turn,
                               {"call": name, "arguments": arguments, "heard": self.heard})
        return NoAction(f"Did you mean {said}? Say yes to confirm.")

    def _as_heard(self, name: str, arguments: dict, heard: str | None = None) -> Callable[[], Awaitable[str]]:
        """The call, for a yes to run as if heard for sure (as if typed: nothing of it is asked again), with the
        words it was made of (heard; by default the latest's): a timer's name is one of them ("yes" holds no
        "rice")."""
        heard = self.heard if heard is None else heard
        async def run_as_heard() -> str:
            self.guessed_names, self.unsure_numbers = {}, frozenset()
            self.doubted_words = self.doubted_change_words = frozenset()
            self.heard, yes, spoken, self.spoken = heard, self.heard, self.spoken, False
            try:
                return await self.run(name, arguments)
            finally:
                self.heard, self.spoken = yes, spoken
        return run_as_heard

    async def _state_instead(self, arguments: dict) -> NoAction:
        """The state of what a switching call names, as the whole reply: nothing is switched."""
        name = arguments.get("name") or f"{arguments.get('room', '')} {arguments.get('device', '')}".replace("_", " ")
        answer = await self._get_state(name.strip(), arguments.get("area"))
        return answer if isinstance(answer, NoAction) else NoAction(answer)

    def stop_timers(self) -> None:
        """The session ended: its timers of this process stop (stored ones stay)."""
        self.timer_book.stop()

    def rang_now(self, timer) -> None:
        """A timer or alarm of this session rang (here, or from the store by the gateway): it rings until stopped,
        snoozed, or RINGING_S pass."""
        self.rang = (timer, time.time())

    @property
    def ringing(self):
        """The timer or alarm ringing now, or None."""
        if self.rang is None or time.time() - self.rang[1] > RINGING_S:
            return None
        return self.rang[0]

    def _ring(self, timer: Timer) -> None:
        if timer.call is not None:
            self.start_scheduled(timer)
            return
        self.rang_now(timer)
        if self.on_ring is not None:
            self.on_ring(timer.seconds, timer_done_text(timer.seconds, timer.name, timer.alarm))

    def start_scheduled(self, timer) -> None:
        """A change scheduled in this process whose time has come: run on the loop, its line said (on_ring) once
        done; at most MAX_SCHEDULED at once (more due together are dropped, logged)."""
        if len(self._due_runs) >= MAX_SCHEDULED:
            log.error("a scheduled change is dropped: %d already run now", len(self._due_runs))
            return
        task = asyncio.get_running_loop().create_task(self._run_due(timer.call))
        self._due_runs.add(task)
        task.add_done_callback(self._due_runs.discard)

    async def _run_due(self, call: str) -> None:
        said = await self.run_scheduled(call)
        if self.on_ring is not None:
            self.on_ring(0, said)

    async def _timers(self) -> list:
        """The timers and alarms of the book, not the changes scheduled in it."""
        return [timer for timer in await self.timer_book.pending() if timer.call is None]

    async def scheduled(self) -> list:
        """The changes scheduled and waiting for their time, soonest first."""
        return [timer for timer in await self.timer_book.pending() if timer.call is not None]

    async def _schedule(self, name: str, arguments: dict) -> str:
        """A change said for later, checked now as the same change said now would be: the call is rehearsed on a
        home of the same things that only records (nothing is sent), and kept in the timer book to run at its time
        only where the rehearsal changed something with no question asked ("Did you mean ...?", a yes to unlock)."""
        rehearsal = copy.copy(self)
        rehearsal.home, rehearsal.later, rehearsal.pending = InMemoryHome(inventory=self.home.inventory), None, None
        rehearsal._unmuted = dict(self._unmuted)
        before = _snapshot(rehearsal.home)
        try:
            result = await getattr(rehearsal, "_" + name)(**arguments)
        except CalculationError:
            return NOT_CALCULABLE
        except (TypeError, ValueError, OverflowError):
            return NOT_POSSIBLE
        if rehearsal.pending is not None:
            return AT_A_LATER_TIME
        if isinstance(result, NoAction) or _snapshot(rehearsal.home) == before:
            return result
        if self.later.seconds is None:
            return TOO_FAR_AHEAD
        if len(await self.scheduled()) >= MAX_SCHEDULED or self.timer_book.running >= MAX_TIMERS:
            return TOO_MANY_SCHEDULED
        call = {"name": name, "arguments": arguments, "at": self.later.clock}
        if name == "switch_listed":      # "turn them off in 10 minutes": the things listed when said, by then too
            if not _within_listed_bound(list(self.listed)):
                return TOO_MANY_THINGS
            call["listed"], things = list(self.listed), self._switchable(self.listed, arguments["state"])
            what = scheduled_said(name, {**arguments, "things": listed(things) if len(things) <= MAX_LISTED
                                         else f"{len(things)} things"})
        else:
            what = scheduled_said(name, arguments)
        if not await self.timer_book.add_change(self.later.seconds, json.dumps({**call, "what": what}),
                                                MAX_SCHEDULED_HERE):
            return TOO_MANY_HERE
        return Done(f"Okay, I'll {what} at {self.later.clock}.")

    async def scheduled_answer(self, kind: str, words: str, last_reply: str) -> str | None:
        """The reply to a request about the changes scheduled (later.scheduled_asked): "list" them, or "cancel" those
        whose words hold words (none said: those the last reply scheduled); None when none is such."""
        waiting = [(timer, json.loads(timer.call)) for timer in await self.scheduled()]
        if kind == "list":
            if not waiting:
                return "You have no changes scheduled."
            said = [f"{call['what']} at {call['at']}" for _, call in waiting[:MAX_LISTED]]
            more = f"; and {len(waiting) - MAX_LISTED} more" if len(waiting) > MAX_LISTED else ""
            return f"Scheduled: {'; '.join(said)}{more}."
        wanted = set(words.split()) - {"the"}
        chosen = [(timer, call) for timer, call in waiting
                  if (wanted <= set(call["what"].split()) if wanted else f"I'll {call['what']} at" in last_reply)]
        cancelled = [call for timer, call in chosen if await self.timer_book.cancel(timer.id)]
        if not cancelled:
            return None
        return f"Okay, I won't {_joined(list(dict.fromkeys(call['what'] for call in cancelled)), 'or')}."

    async def run_scheduled(self, call: str) -> str:
        """A scheduled change whose time has come, run as the skill the request asked for (its words were checked
        when it was said): the short line the session hears."""
        scheduled = json.loads(call)
        try:
            if "listed" in scheduled:    # switch_listed said for later: the things its summary named, not the latest's
                if not _within_listed_bound(scheduled["listed"]):
                    raise ValueError("a stored change's things are not a list within its bound")
                result = await self._switch_things(tuple(scheduled["listed"]), **scheduled["arguments"])
            else:
                result = await getattr(self, "_" + scheduled["name"])(**scheduled["arguments"])
        except (CalculationError, TypeError, ValueError, OverflowError):
            result = NOT_POSSIBLE
        if isinstance(result, NoAction):
            return SCHEDULED_FAILED.format(what=scheduled["what"], why=result)
        return SCHEDULED_MADE.format(done=scheduled_done(scheduled["what"]))

    async def _start(self, seconds: float, name: str | None = None, alarm: str | None = None) -> None:
        if self.timer_book.running >= MAX_TIMERS:
            raise ValueError("too many timers")
        await self.timer_book.add(seconds, name, alarm)

    async def _get_time(self, place: str | None = None) -> str:
        now = dt.datetime.now().astimezone()
        return clock_said(now) if place is None else time_in(place, now)

    async def _get_date(self, day: str | None = None, date: str | None = None) -> str:
        today = dt.date.today()
        if date is not None:
            return date_on(date, today)
        return date_said(today) if day is None else date_of(day, today)

    async def _set_timer(self, seconds) -> str:
        seconds = _timer_length(seconds)
        await self._start(seconds)
        return say_duration(seconds)

    async def _cancel_timer(self) -> str:
        named = _TIMER_NAMED.search(self.heard.lower())
        said = (named[1] or named[2]).strip() if named else ""
        if set(said.split()) & self.doubted_words:
            # "I don't need the last end timer any more" for "lasagne", "stop the timer for the end" for "eggs":
            # words that name one timer, heard with doubt, never cancel every timer; they name none that runs, as a
            # stop_timer of that name would say.
            return NoAction(f"There is no {said} timer.")
        running = sum([await self.timer_book.cancel(timer.id) for timer in await self._timers()])
        if not running:
            return "there was no timer running"
        return "your timer is cancelled" if running == 1 else f"your {running} timers are cancelled"

    async def _set_device(self, device, room, state) -> str:
        if device not in DEVICES or room not in ROOMS or state not in ("on", "off"):
            raise ValueError("unknown device, room or state")
        if self.home.inventory.custom:       # the user's own home: the words name its entities
            found = self.home.inventory.resolve(device, room.replace("_", " "), SWITCHABLE)
            if len(found) != 1:
                raise ValueError("no single such device")
            if self.home.inventory.needs_yes(found[0], state):
                return self._ask(found[0], state)
            confirmed = await self.home.command(found[0], state)
            return confirmed if confirmed else "not responding"
        confirmed = await self.home.set_device(device, room, state)
        return confirmed if confirmed else "not responding"

    async def _set_brightness(self, room, percent) -> str:
        percent = int(float(percent))
        if room not in ROOMS or not 0 <= percent <= 100:
            raise ValueError("bad brightness")
        if self.home.inventory.custom:
            return await self._room_lights_to(room, lambda _: percent)
        confirmed = await self.home.set_brightness(room, percent)
        return f"{confirmed} percent" if confirmed is not None else "an unconfirmed level"

    async def _change_brightness(self, room, direction) -> str:
        if room not in ROOMS or direction not in ("up", "down"):
            raise ValueError("unknown room or direction")
        return await self._room_lights_to(room, lambda level: stepped_level(level, direction))

    async def _room_lights_to(self, room, level_of: Callable[[int | None], int]) -> str:
        """Each light of the room to level_of(its reported level): "N percent" (the first one's) once every
        light confirmed."""
        lights = self.home.inventory.resolve("light", room.replace("_", " "), ("light",))
        if not lights:
            raise ValueError("no such lights")
        levels = [level_of(await self.home.read_level(e)) for e in lights]
        confirmed = await asyncio.gather(*(self._unguarded_command(e, "brightness", level)
                                           for e, level in zip(lights, levels)))
        return f"{levels[0]} percent" if all(confirmed) else "an unconfirmed level"

    async def _set_thermostat(self, degrees, name=None, area=None) -> str:
        degrees = float(degrees)
        water = self.home.inventory.custom and name and self.home.inventory.resolve(str(name), area, ("water_heater",))
        if not 0 < degrees < (TEMPERATURE_LIMITS[1] if water else 100):
            raise ValueError("thermostat out of range")
        if self.home.inventory.custom:
            if name is None and area is None and not self.home.inventory.resolve(None, None, ("climate",)):
                return NoAction("There is no thermostat in this home.")
            # a water heater by its name alone: "set it to 20" of no name means the home's heating
            entity, problem = self._one(name, area, SKILL_COMPONENTS["set_thermostat"] if name else ("climate",))
            if problem:
                return problem
            if not _degrees_taken(entity, degrees):
                raise ValueError("thermostat out of range")
            if self.home.inventory.needs_yes(entity, "temperature", degrees):
                return self._ask(entity, "temperature", degrees)
            # which one was asked, or a target past its limits: the answer names it
            if name is not None or area is not None or _target_limit(self.home.inventory, entity, degrees):
                return await self._act(entity, "temperature", degrees)
            confirmed = await self.home.command(entity, "temperature", degrees)
            return f"{confirmed} degrees" if confirmed is not None else "an unconfirmed temperature"
        confirmed = await self.home.set_thermostat(degrees)
        return f"{format_number(confirmed)} degrees" if confirmed is not None else "an unconfirmed temperature"

    async def _read_sensor(self, room, kind) -> str:
        if room not in ROOMS or kind not in SENSOR_KINDS:
            raise ValueError("unknown sensor")
        if self.home.inventory.custom:
            found = self.home.inventory.resolve(kind, room.replace("_", " "), ("sensor",))
            state = await self.home.read_state(found[0]) if len(found) == 1 else None
        else:
            value = await self.home.read_sensor(room, kind)
            state = None if value is None else format_number(value)
        return "unavailable right now" if state is None else f"{state} {SENSOR_UNITS[kind]}"

    async def _calculate(self, expression) -> str:
        return format_number(calculate(str(expression)))

    async def _convert(self, value, **units) -> str:
        # "from" is a Python keyword, so the unit arguments arrive as **units.
        if set(units) != {"from", "to"}:
            raise TypeError("convert needs from and to")
        if units["from"] == units["to"]:        # nobody asks that: a garbled call ("milliliter in the car")
            return NOT_POSSIBLE
        result = convert(float(value), units["from"], units["to"])
        return f"{format_number(result)} {unit_name(units['to'], result)}"

    # ---- the user's own devices, by name (results are whole sentences: the reply is just {result})

    def _find(self, name, area, components) -> tuple[list[Entity], NoAction | None]:
        """(entities, None) or ([], an honest sentence saying why there are none)."""
        inventory = self.home.inventory
        area = area if isinstance(area, str) and area else None
        if area and area not in inventory.areas() and not inventory.resolve(None, area):
            return [], NoAction(f"I don't know an area called the {area}.")
        found = inventory.resolve(None if name is None else str(name), area, components)
        if not found:
            others = [] if name is None else inventory.resolve(str(name), area, COMPONENTS)
            return [], self._only(others, _said(name, area)) if others else \
                NoAction(UNKNOWN_DEVICE.format(name=_said(name, area)))
        return found, None

    def _only(self, found: list[Entity], said: str) -> NoAction:
        """What things the home has can do, when asked what their kind cannot: "The drying fan can only be
        switched on or off." (the unknown-name reply is for names the home lacks)."""
        abilities = {f"{ABILITIES[e.component]}, or {LEVEL_ABILITIES[e.component]}"
                     if e.component in LEVEL_ABILITIES and self.home.takes_level(e) else ABILITIES[e.component]
                     for e in found}
        if len(abilities) > 1:
            return NoAction(f"Nothing called the {said} can do that.")
        what = _the(found[0]) if len(found) == 1 else f"the {said}"
        return NoAction(f"{what[0].upper()}{what[1:]} can only be {abilities.pop()}.")

    def _one(self, name, area, components) -> tuple[Entity | None, NoAction | None]:
        found, problem = self._find(name, area, components)
        if problem:
            return None, problem
        if len(found) > 1:
            return None, _choice(found)
        return found[0], None

    def _ask(self, entity: Entity, action: str, value=None) -> NoAction:
        """Hold an action that could unlock or open something (Inventory.needs_yes) until the user's yes."""
        self.pending = Pending(_the(entity), lambda: self._act(entity, action, value, confirmed_by_user=True),
                               time.time(), self.turn, {"entity": entity.key, "action": action, "value": value})
        verb = {"on": "switch on", "off": "switch off", "activate": "run", "brightness": "change the brightness of",
                "speed": "change the speed of", "temperature": "change the temperature of",
                "position": "change the position of", "humidity": "change the humidity of",
                "mode": "change the mode of",
                **{kind: f"change the {_mode_spoken(kind)} of" for kind in MODE_KIND_WORDS}}.get(action, action)
        return NoAction(f"Do you want me to {verb} the {entity.name}? Say yes to confirm.")

    async def _unguarded_command(self, entity: Entity, action: str, value=None) -> str | None:
        """A command to one light of a room: one that needs a yes is left out (None)."""
        if self.home.inventory.needs_yes(entity, action, value):
            return None
        return await self.home.command(entity, action, value)

    async def _act(self, entity: Entity, action: str, value=None, confirmed_by_user: bool = False) -> str:
        """The command to one thing, and the whole reply that names it (Done), or the question of a yes. A climate's
        target past its min_temp or max_temp is set to that limit and said so, as Home Assistant's climate does."""
        limit = _target_limit(self.home.inventory, entity, value, action)
        value = value if limit is None else limit[1]
        if not confirmed_by_user and self.home.inventory.needs_yes(entity, action, value):
            return self._ask(entity, action, value)
        confirmed = await self.home.command(entity, action, value)
        if confirmed is None:
            said_as = "" if entity.component == "scene" else entity.name        # a scene's name is a title
            its = agreeing(said_as, "its")
            verb = {"on": "switch on", "off": "switch off", "activate": "run", "brightness": f"change {its} brightness",
                    "speed": f"change {its} speed", "temperature": f"change {its} temperature", "position": "move",
                    "humidity": f"change {its} humidity", "mode": f"change {its} mode",
                    **{kind: f"change {its} {_mode_spoken(kind)}" for kind in MODE_KIND_WORDS}}.get(action, action)
            return Done(f"I asked {_the(entity)} to {verb}, but {agreeing(said_as, 'it')} didn't confirm.")
        if action == "activate":
            return Done(f"Okay, {entity.name} is on.")
        if action == "speed" and confirmed.isdigit():                 # a speed of its own name: "on low"
            named = {speed: word for word, speed in speed_names(entity).items()}.get(speed_of(entity, int(confirmed)))
            if named:
                return Done(f"Okay, the {entity.name} {agreeing(entity.name, 'is')} on {named}.")
        if action in ("brightness", "speed"):
            return Done(f"Okay, the {entity.name} {agreeing(entity.name, 'is')} at {confirmed} percent.")
        if action == "position":
            return Done(f"Okay, the {entity.name} {agreeing(entity.name, 'is')} {confirmed} percent open.")
        if action == "humidity":
            said = f"at {agreeing(entity.name, 'its')} {limit[0]}, " if limit is not None else "set to "
            return Done(f"Okay, the {entity.name} {agreeing(entity.name, 'is')} {said}{confirmed} percent humidity.")
        if action == "temperature" and limit is not None:
            its = agreeing(entity.name, "its")
            return Done(f"The {entity.name} {agreeing(entity.name, 'is')} at {its} {limit[0]}, {confirmed} degrees.")
        if action == "temperature":
            return Done(f"Okay, the {entity.name} {agreeing(entity.name, 'is')} set to {confirmed} degrees.")
        if action == "mode":
            return Done(f"Okay, the {entity.name} {agreeing(entity.name, 'is')} in {_mode_spoken(confirmed)} mode.")
        if action in MODE_KIND_WORDS:                                 # "Okay, the air conditioner's swing mode is on."
            return Done(f"Okay, the {entity.name}{agreeing(entity.name, POSSESSIVE)} {_mode_spoken(action)} is "
                        f"{_mode_spoken(confirmed)}.")
        return Done(f"Okay, the {entity.name} {agreeing(entity.name, 'is')} {confirmed}.")

    async def _switch_device(self, name, state, area=None) -> str:
        entity, problem = self._one(name, area, SKILL_COMPONENTS["switch_device"])
        if problem and area and str(name).replace("_", " ") in PLURAL_KINDS \
                and len(self._find(name, area, SWITCH_ALL_COMPONENTS)[0]) > 1:
            return await self._switch_all(name, state, area)        # "the parlour lights": every one of them
        if problem:
            return problem
        if entity.component == "scene":
            if state == "off":
                return NoAction(f"{entity.name} is a scene: it can only be run.")
            return await self._act(entity, "activate")
        if entity.component == "cover":     # "on" is no word for a blind: ask rather than guess open or closed
            return NoAction(f"The {entity.name} can be opened or closed: which one?")
        if entity.component == "valve":     # "turn the water off": a valve on is open
            return await self._act(entity, "open" if state == "on" else "close")
        if entity.component == "water_heater" and entity_command(entity, state) is None:     # of no power topic
            return self._only([entity], entity.name)
        return await self._act(entity, state)

    async def _switch_all(self, name, state, area=None) -> str:
        everything = str(name) in ("everything", "all", "all devices")
        found, problem = self._find(None if everything else name, area, SWITCH_ALL_COMPONENTS)
        if problem:
            return problem
        if not found:
            return NoAction(f"There is nothing to switch {state} there.")
        held = [e for e in found if self.home.inventory.needs_yes(e, state)]
        found = [e for e in found if e not in held]
        results = await asyncio.gather(*(self.home.command(e, state) for e in found))
        done = sum(r is not None for r in results)
        where = f" in the {area}" if area else ""
        what = "device" if everything else str(name).rstrip("s")
        said = f"Okay, {done} {what}{'' if done == 1 else 's'}{where} {'is' if done == 1 else 'are'} {state}."
        if done < len(found):
            said = f"{said[:-1]}; {len(found) - done} didn't confirm."
        if held:
            named = ", ".join(_the(e) for e in held[:3]) + (f" and {len(held) - 3} more" if len(held) > 3 else "")
            said += f" Left as {'it is' if len(held) == 1 else 'they are'}, since switching could unlock or open " \
                    f"something: {named}. Ask for {'it' if len(held) == 1 else 'each'} by name."
        return said

    async def _set_level(self, name, percent, area=None) -> str:
        """A light's brightness or a fan's speed; for a heater or thermostat called by its whole name, its
        temperature: "set the snug stove to 21" reads to the model like a light's level, since names reach it as
        slots (its area said apart counts: "the radiator in the nursery" is the nursery radiator). Part of a name is
        never a heater's ("dim the panel light to 20%" must not set the radiant panel to 20 degrees)."""
        said = spelling_key(str(name).lower().replace("_", " "))        # the whole name, one or many, either spelling
        heater = [e for e in self.home.inventory.resolve(str(name), area, THERMOSTATS)
                  if spelling_key(e.name) in (said, spelling_key(f"{area} {said}".replace("_", " ")))
                  or is_of_named_kind(e, str(name).lower().replace("_", " "))]     # "the air conditioner"
        if heater and not self._find(name, area, tuple(LEVEL_ACTIONS))[0]:
            if len(heater) > 1:
                return _choice(heater)                    # "set the AC to 20" with two climates that cool
            degrees = float(percent)
            if not _degrees_taken(heater[0], degrees):
                raise ValueError("thermostat out of range")
            return await self._act(heater[0], "temperature", degrees)
        entity, problem = self._one(name, area, SKILL_COMPONENTS["set_level"])
        if problem:
            return problem
        percent = int(float(percent))
        if not 0 <= percent <= 100:
            raise ValueError("bad brightness")
        if entity.component in POSITIONED:
            return await self._to_position(entity, percent)
        if entity.component == "humidifier":
            return await self._to_humidity(entity, percent)
        return await self._to_level(entity, percent)

    async def _change_level(self, name, direction, area=None) -> str:
        if direction not in ("up", "down"):
            raise ValueError("unknown direction")
        entity, problem = self._one(name, area, SKILL_COMPONENTS["change_level"])
        if problem:
            return problem
        if entity.component in THERMOSTATS:
            return await self._stepped_target(entity, direction)
        if entity.component == "cover":
            return await self._stepped_position(entity, direction)
        if entity.component == "humidifier":
            return await self._stepped_humidity(entity, direction)
        return await self._to_level(entity, stepped_level(await self.home.read_level(entity), direction))

    async def _to_position(self, entity: Entity, percent: int) -> str:
        """A cover or valve set to a position in percent open, where its discovery gives it one to set; else what it
        can do ("The lounge curtains can only be opened, closed or stopped.")."""
        if entity_command(entity, "position", percent) is None:
            return self._only([entity], entity.name)
        return await self._act(entity, "position", percent)

    async def _stepped_position(self, entity: Entity, direction: str) -> str:
        """A cover a step (COVER_STEP) more open or closed from the position it reports ("open the blinds a little");
        one that takes no position, or has not said where it is, is opened or closed."""
        position = await self.home.read_position(entity)
        if position is None or entity_command(entity, "position", 0) is None:
            return await self._act(entity, "open" if direction == "up" else "close")
        step = COVER_STEP if direction == "up" else -COVER_STEP
        return await self._act(entity, "position", max(0, min(100, position + step)))

    async def _to_humidity(self, entity: Entity, percent: float) -> str:
        """A humidifier's target humidity, within its min_humidity and max_humidity (_act says a limit it was set
        to); one of no target humidity topic says what it can do."""
        if entity_command(entity, "humidity", percent) is None:
            return self._only([entity], entity.name)
        return await self._act(entity, "humidity", percent)

    async def _stepped_humidity(self, entity: Entity, direction: str) -> str:
        """A humidifier's target humidity HUMIDITY_STEP percent up ("make it more humid") or down from where it is
        set; where no target is known, none is guessed."""
        target = await self.home.read_target(entity)
        if target is None:
            return NoAction(f"{_not_reported(entity, 'target humidity')[:-1]}: what humidity would you like?")
        return await self._to_humidity(entity, target + (HUMIDITY_STEP if direction == "up" else -HUMIDITY_STEP))

    async def _stepped_target(self, entity: Entity, direction: str) -> str:
        """A climate's target temperature one step (its discovery's temp_step, else a degree) up or down from where
        it is set; where no target is known, the temperature is asked for rather than guessed."""
        target = await self.home.read_target(entity)
        if target is None:
            return NoAction(TARGET_QUESTION.format(thing=_the(entity)))
        step = entity.temperature_step if direction == "up" else -entity.temperature_step
        return await self._act(entity, "temperature", round(target + step, 2))

    async def _to_level(self, entity: Entity, percent: int) -> str:
        """A light's brightness or a fan's speed (LEVEL_ACTIONS) in percent; a fan at 0 is switched off, as Home
        Assistant's fan.set_percentage does; a thing that takes no level says what it can do."""
        if not self.home.takes_level(entity):
            return self._only([entity], entity.name)
        if entity.component == "fan" and percent == 0:
            return await self._act(entity, "off")
        return await self._act(entity, LEVEL_ACTIONS[entity.component], percent)

    async def _set_device_mode(self, name, mode, area=None) -> str:
        """One of the modes a fan or a climate thing's discovery lists, said in its words or another way to say it
        (inventory.mode_words), or a climate's fan or swing mode said with its word ("fan high"); a mode it lacks is
        said with those it has, and nothing is sent."""
        entity, problem = self._one(name, area, SKILL_COMPONENTS["set_device_mode"])
        if problem:
            return problem
        if not mode_words(entity):             # a radiator of off and heat alone, without a fan or a swing
            return self._only([entity], entity.name)
        said = " ".join(w for w in _mode_spoken(str(mode)).split() if w not in MODE_NOUNS)
        sent = mode_words(entity).get(said)
        if sent is None:
            listed = _modes_listed(entity)      # none where it has fan or swing modes alone
            it_has = f"{agreeing(entity.name, 'it')} {agreeing(entity.name, 'has')}"
            return NoAction(f"The {entity.name} {agreeing(entity.name, 'has')} no {said} mode" +
                            (f"; {it_has} {listed}." if listed else "."))
        return await self._act(entity, *sent)

    async def _get_device_mode(self, name, area=None, part=None) -> str:
        """The thing's own mode, or the mode of the part of a climate said (its fan or swing, MODE_KIND_WORDS)."""
        entity, problem = self._one(name, area, SKILL_COMPONENTS["get_device_mode"])
        if problem:
            return problem
        action = next((kind for kind, words in MODE_KIND_WORDS.items() if words[0] == part), "mode")
        if action != "mode":
            return await self._part_mode(entity, action) if entity.modes.get(action) else \
                f"The {entity.name} {agreeing(entity.name, 'has')} no {_mode_spoken(action)}."
        if not _modes_listed(entity):
            return self._only([entity], entity.name)
        mode = await self.home.read_mode(entity)
        if mode is None:
            return _not_reported(entity, "mode")
        if not mode:                # it reports none of them (Zigbee2MQTT's preset "None" after a speed was set)
            its, it_has = agreeing(entity.name, "its"), f"{agreeing(entity.name, 'it')} {agreeing(entity.name, 'has')}"
            return f"The {entity.name} {agreeing(entity.name, 'is')} in none of {its} modes; {it_has} " \
                f"{_modes_listed(entity)}."
        spoken = _mode_spoken(mode)
        return f"The {entity.name} {agreeing(entity.name, 'is')} {spoken}." if spoken in STATES else \
            f"The {entity.name} {agreeing(entity.name, 'is')} in {spoken} mode."

    async def _part_mode(self, entity: Entity, action: str) -> str:
        """A climate's fan or swing mode (action "fan_mode" or "swing_mode"), as it last reported it."""
        mode, part = await self.home.read_mode(entity, action), _mode_spoken(action)
        if mode is None:
            return _not_reported(entity, part)
        owner = entity.name + agreeing(entity.name, POSSESSIVE)          # "the radiators' fan mode"
        if not mode:
            return f"The {owner} {part} is none of {_listed(entity.modes[action])}."
        return f"The {owner} {part} is {_mode_spoken(mode)}."

    async def _get_target_temperature(self, name, area=None) -> str:
        """The temperature a climate is set to (its target), not whether it is on: "what is the thermostat set to"."""
        return await self._target_said(name, area, "get_target_temperature", "target temperature", "degrees")

    async def _get_target_humidity(self, name, area=None) -> str:
        """The humidity a humidifier is set to (its target), not whether it is on: "what is the humidifier set to"."""
        return await self._target_said(name, area, "get_target_humidity", "target humidity", "percent humidity")

    async def _target_said(self, name, area, skill: str, what: str, unit: str) -> str:
        """The target a thing is set to, in its unit, or that it has not reported one (`what`): a climate's
        temperature and a humidifier's humidity are read alike."""
        entity, problem = self._one(name, area, SKILL_COMPONENTS[skill])
        if problem:
            return problem
        target = await self.home.read_target(entity)
        if target is None:
            return _not_reported(entity, what)
        return f"The {entity.name} {agreeing(entity.name, 'is')} set to {format_number(target)} {unit}."

    async def _get_cover_position(self, name, area=None) -> str:
        """How far open a cover or valve is, in percent, as it reported it; one that reports no position says its
        state ("The main water valve is open.")."""
        entity, problem = self._one(name, area, SKILL_COMPONENTS["get_cover_position"])
        if problem:
            return problem
        position = await self.home.read_position(entity) if entity.positions is not None else None
        if position is None:
            state = await self.home.read_state(entity)
            return _state_sentence(entity, state) if state is not None else _not_reported(entity)
        return f"The {entity.name} {agreeing(entity.name, 'is')} {position} percent open."

    async def _get_level(self, name, area=None) -> str:
        """A light's brightness or a fan's speed as it last reported it: off when it is off, a fan's speed by the
        name its discovery gives it ("on high", speed_names), else in percent; a fan that reports no speed but a
        preset mode, that mode. One that takes no level says what it can do."""
        entity, problem = self._one(name, area, SKILL_COMPONENTS["get_level"])
        if problem:
            return problem
        if not self.home.takes_level(entity):
            return self._only([entity], entity.name)
        level, what, is_ = await self.home.read_level(entity), LEVEL_ACTIONS[entity.component], \
            agreeing(entity.name, "is")
        if level is None and entity.component == "fan" and (mode := await self.home.read_mode(entity)):
            return f"The {entity.name} {is_} in {_mode_spoken(mode)} mode."
        if level is None:
            return _not_reported(entity, what)
        if level == 0:
            return f"The {entity.name} {is_} off."
        named = {speed: word for word, speed in speed_names(entity).items()}.get(speed_of(entity, level)) \
            if entity.component == "fan" else None
        return f"The {entity.name} {is_} on {named}." if named else f"The {entity.name} {is_} at {level} percent {what}."

    async def _set_colour(self, name, colour=None, kelvin=None, shift=None, area=None) -> str:
        """A light's colour by its name, or its white by name, in kelvin or a step warmer or cooler, sent in its own
        schema and colour mode (inventory.colour_command), a white within its range; a light whose discovery announces
        no colour says so, one that takes only whites or only colours says what it takes. A kind said of several
        ("the lounge lights", "all the lights") sets each of them that takes it and says which could not."""
        if [colour, kelvin, shift].count(None) != 2:
            raise ValueError("one colour, kelvin or shift")
        found, problem = self._lights_coloured(name, area)
        if problem or len(found) > 1:
            return problem or await self._each_coloured(found, colour, kelvin, shift, name, area)
        return _colour_not_taken(found[0], colour) or await self._one_coloured(found[0], colour, kelvin, shift)

    async def _one_coloured(self, entity: Entity, colour, kelvin, shift) -> str:
        """One light set to a colour or white it takes, and the reply."""
        action, value, said, unreported = await self._colour_of(entity, colour, kelvin, shift)
        if unreported:
            said += f", a step {shift} than neutral white, as {agreeing(entity.name, 'it')} had reported no white"
        return await self._coloured(entity, action, value, said)

    def _lights_coloured(self, name, area) -> tuple[list[Entity], NoAction | None]:
        """The light a colour is set or asked of, or every light a kind said of several means ("the lounge lights",
        "all the lights"); "Which one: ...?" for several of any other name."""
        found, problem = self._find(name, area, SKILL_COMPONENTS["set_colour"])
        if not problem and len(found) > 1 and str(name).replace("_", " ") not in PLURAL_KINDS:
            return [], _choice(found)
        return found, problem

    async def _colour_of(self, entity: Entity, colour, kelvin, shift) -> tuple[str, object, str, bool]:
        """The action, value and words of one light's colour or white asked (one it takes), and whether a white's
        step was from neutral white, as it had reported no white to step from (said so)."""
        if colour in COLOUR_NAMES and set(entity.colour_modes) & set(COLOUR_MODES):
            return "colour", COLOUR_NAMES[colour], colour, False
        low, high = entity.kelvin_range
        reported = await self.home.read_colour(entity) if shift is not None else None
        if shift is not None:
            now = reported[1] if reported and reported[0] == "kelvin" else WHITE_TEMPERATURES["neutral white"]
            kelvin = now + (KELVIN_STEP if shift == "cooler" else -KELVIN_STEP)
        wanted = WHITE_TEMPERATURES.get(colour, WHITE_TEMPERATURES["neutral white"] if colour else kelvin)
        if not 1000 <= float(wanted) <= 40000:
            raise ValueError("no white's kelvin")
        sent = max(low, min(round(float(wanted)), high))
        said = colour if colour and sent == wanted else f"at {sent} kelvin"
        if sent != round(float(wanted)):
            said = f"at {agreeing(entity.name, 'its')} {'warmest' if sent == low else 'coolest'}, {sent} kelvin"
        return "colour_temp", sent, said, shift is not None and not (reported and reported[0] == "kelvin")

    async def _each_coloured(self, found: list[Entity], colour, kelvin, shift, name, area) -> str:
        """Every light of several set to the colour or white, each in its own mode and range, and one reply: those
        set ("Okay, the lounge lamp and the strip lights are blue."; their count past MAX_LISTED), those that didn't
        confirm, then those that can't take it ("The hall light can't change colour.")."""
        refused = _colours_refused(found, colour, name, area)
        taking = [e for e in found if _colour_not_taken(e, colour) is None]
        if len(taking) <= 1:
            return Done(" ".join(filter(None, [await self._one_coloured(taking[0], colour, kelvin, shift), refused]))) \
                if taking else refused
        asked = [await self._colour_of(e, colour, kelvin, shift) for e in taking]
        confirmed = await asyncio.gather(*(self.home.command(e, action, value) for e, (action, value, _, _) in
                                           zip(taking, asked)))
        done = [(e, said) for e, (_, _, said, _), c in zip(taking, asked, confirmed) if c is not None]
        saids = {said for _, said in done}
        if len(done) > MAX_LISTED or len(saids) == 1 and len(done) > 1:
            things = _joined([f"the {e.name}" for e, _ in done], "and") if len(done) <= MAX_LISTED else \
                f"{len(done)} lights"
            said = f"Okay, {things} are {saids.pop() if len(saids) == 1 else 'set'}."
        else:
            said = "Okay, " + _joined([f"the {e.name} {agreeing(e.name, 'is')} {s}" for e, s in done], "and") + "." \
                if done else ""
        if any(unreported for *_, unreported in asked):
            said += " Those that had reported no white were stepped from neutral white."
        if len(done) < len(taking):
            said += f" {len(taking) - len(done)} didn't confirm."
        return Done(" ".join(filter(None, [said.strip(), refused])))

    def colour_answer(self, call: dict) -> NoAction | bool:
        """How a colour call read from the words (chat_template.colour_call) is answered: True (made) where a light
        it names takes the colour or white set, or its colour is asked of a light that takes one; the refusal
        ("The bedroom light can't change colour.") where none can take the one set, or none asked its colour or
        white takes any, said with no call as the model's refusal was; False (left to the model, as before) where no
        light is found."""
        args = call["arguments"]
        found, problem = self._lights_coloured(args.get("name"), args.get("area"))
        if problem:
            return False
        if call["name"] == "get_colour":    # "what colour are the lounge lights": read where one of them takes colour
            return any(entity.colour_modes for entity in found) or \
                _colours_refused(found, None, args.get("name"), args.get("area"))
        if all(_colour_not_taken(entity, args.get("colour")) for entity in found):
            return _colours_refused(found, args.get("colour"), args.get("name"), args.get("area"))
        return True

    async def _coloured(self, entity: Entity, action: str, value, said: str) -> str:
        """The colour or white sent, and "Okay, the lamp is blue." once the light confirmed it."""
        if await self.home.command(entity, action, value) is None:
            return Done(f"I asked the {entity.name} to change {agreeing(entity.name, 'its')} colour, but "
                        f"{agreeing(entity.name, 'it')} didn't confirm.")
        return Done(f"Okay, the {entity.name} {agreeing(entity.name, 'is')} {said}.")

    async def _get_colour(self, name, area=None) -> str:
        """A light's colour as it last reported it, by the nearest colour name (vocabulary.COLOUR_NAMES), or its
        white by the nearest white's name and its kelvin; off when it is off. A kind said of several ("the lounge
        lights") says each, at most MAX_LISTED of them, then how many more."""
        found, problem = self._lights_coloured(name, area)
        if problem:
            return problem
        said = [await self._colour_reported(entity) for entity in found[:MAX_LISTED]]   # "what colour are the lights"
        more = len(found) - MAX_LISTED
        return " ".join([*said, *([f"And {more} more {'light' if more == 1 else 'lights'}."] if more > 0 else [])]) \
            if len(found) > 1 else said[0]

    async def _colour_reported(self, entity: Entity) -> str:
        """One light's colour or white as it last reported it; off when it is off, or that it can't change colour."""
        if not entity.colour_modes:
            return NoAction(f"The {entity.name} can't change colour.")
        is_ = agreeing(entity.name, "is")
        if await self.home.read_state(entity) == "off":
            return f"The {entity.name} {is_} off."
        reported = await self.home.read_colour(entity)
        if reported is None:
            return _not_reported(entity, "colour")
        kind, value = reported
        if kind == "kelvin":
            white = min(dict.fromkeys(WHITE_TEMPERATURES.values()), key=lambda k: abs(k - value))
            named = next(word for word, k in WHITE_TEMPERATURES.items() if k == white)
            return f"The {entity.name} {is_} {named}, at {value} kelvin."
        named = min(COLOUR_NAMES, key=lambda word: sum((a - b) ** 2 for a, b in zip(COLOUR_NAMES[word], value)))
        return f"The {entity.name} {is_} {named}."

    async def _player(self, name, area, playing: bool = True) -> tuple[Entity | None, NoAction | None]:
        """The media player a request means: the one named (or in the area named), else the only one, else the one
        playing (for "resume", the one paused). A kind's word fits every player ("the tv", "the speaker"): the one
        whose own name says it, else, of several, the one playing. Several such: "Which one: ...?"."""
        found, problem = self._find(name, area, SKILL_COMPONENTS["control_media"])
        if problem:
            return None, problem
        if len(found) > 1 and name is not None:
            said = set(spelling_key(str(name)).split())
            found = [e for e in found if said <= set(spelling_key(e.name).split())] or found
        if len(found) > 1:
            wanted = "playing" if playing else "paused"
            meant = [e for e in found if await self.home.read_state(e) == wanted]
            if not meant and playing and name is None and area is None:
                return None, NoAction("Nothing is playing.")
            found = meant or found
        return (found[0], None) if len(found) == 1 else (None, _choice(found))

    async def _control_media(self, action, name=None, area=None) -> str:
        """A media player paused, resumed, on to its next or previous track (said back with the title it reports),
        muted (its volume to 0, the volume it had kept for "unmute") or unmuted."""
        entity, problem = await self._player(name, area, playing=action != "resume")
        if problem:
            return problem
        if action in ("mute", "unmute"):
            return await self._muted(entity, action == "mute")
        if entity_command(entity, action) is None:
            return self._only([entity], entity.name)
        confirmed = await self.home.command(entity, action)
        if confirmed is None:
            return Done(f"I asked the {entity.name} to {ACTION_SAID[action]}, but it didn't confirm.")
        if action in ("next", "previous"):
            title = await self.home.read_media(entity, "title")
            return Done(f"Okay, the {entity.name} {agreeing(entity.name, 'is')} playing {title}." if title else
                        f"Okay, the {entity.name} {agreeing(entity.name, 'is')} on the {action} track.")
        return Done(f"Okay, the {entity.name} {agreeing(entity.name, 'is')} {confirmed}.")

    async def _muted(self, entity: Entity, mute: bool) -> str:
        if entity_command(entity, "volume", 0) is None:
            return self._only([entity], entity.name)
        volume = await self.home.read_media(entity, "volume")
        if mute and volume == "0":
            return Done(f"The {entity.name} {agreeing(entity.name, 'is')} already muted.")
        if not mute and entity.key not in self._unmuted:
            return NoAction(f"I don't know what volume the {entity.name} had before: what volume would you like?")
        if mute and volume is None:
            return _not_reported(entity, "volume")
        level = 0 if mute else self._unmuted.pop(entity.key)
        confirmed = await self.home.command(entity, "volume", level)
        if confirmed is None:
            return Done(f"I asked the {entity.name} to {'mute' if mute else 'unmute'}, but it didn't confirm.")
        if mute:
            self._unmuted[entity.key] = int(volume)
            return Done(f"Okay, the {entity.name} {agreeing(entity.name, 'is')} muted.")
        return Done(f"Okay, the {entity.name}{agreeing(entity.name, POSSESSIVE)} volume is back at {confirmed} percent.")

    async def _set_volume(self, percent, name=None, area=None) -> str:
        entity, problem = await self._player(name, area)
        if problem:
            return problem
        percent = int(float(percent))
        if not 0 <= percent <= 100:
            raise ValueError("bad volume")
        return await self._to_volume(entity, percent)

    async def _change_volume(self, direction, name=None, area=None) -> str:
        """A media player's volume a step (VOLUME_STEP) up or down from the volume it reports."""
        entity, problem = await self._player(name, area)
        if problem:
            return problem
        volume = await self.home.read_media(entity, "volume")
        if volume is None:
            return self._only([entity], entity.name) if entity_command(entity, "volume", 0) is None else \
                _not_reported(entity, "volume")
        step = VOLUME_STEP if direction == "up" else -VOLUME_STEP
        return await self._to_volume(entity, max(0, min(100, int(volume) + step)))

    async def _to_volume(self, entity: Entity, percent: int) -> str:
        if entity_command(entity, "volume", percent) is None:
            return self._only([entity], entity.name)
        self._unmuted.pop(entity.key, None)
        confirmed = await self.home.command(entity, "volume", percent)
        if confirmed is None:
            return Done(f"I asked the {entity.name} to change its volume, but it didn't confirm.")
        return Done(f"Okay, the {entity.name}{agreeing(entity.name, POSSESSIVE)} volume is at {confirmed} percent.")

    async def _get_media(self, asked, name=None, area=None) -> str:
        """What a media player plays (its title and artist topics) and whether it is paused, or its volume."""
        entity, problem = await self._player(name, area)
        if problem:
            return problem
        if asked == "volume":
            volume = await self.home.read_media(entity, "volume")
            return _not_reported(entity, "volume") if volume is None else \
                f"The {entity.name}{agreeing(entity.name, POSSESSIVE)} volume is at {volume} percent."
        state = await self.home.read_state(entity)
        title, artist = await self.home.read_media(entity, "title"), await self.home.read_media(entity, "artist")
        if state not in ("playing", "paused") or not title:
            return f"Nothing is playing on the {entity.name}."
        track = f"{title} by {artist}" if artist else title
        return f"The {entity.name} {agreeing(entity.name, 'is')} playing {track}." if state == "playing" else \
            f"The {entity.name} {agreeing(entity.name, 'is')} paused on {track}."

    async def on_lists(self, change) -> object:
        """The lists' change (ListBook.rewrite_lists), or LISTS_UNAVAILABLE where the store did not answer: the reply
        says so and the session goes on."""
        try:
            return await self.lists.rewrite_lists(change)
        except Exception as error:  # noqa: BLE001 - a store driver's errors have no common base (streaming.store.ask)
            log.error("the lists could not be read or written: %r", error)
            return LISTS_UNAVAILABLE

    async def _add_to_list(self, items, list_name) -> str:
        """Items not yet on the list join its end; one already on it is not added twice."""
        named = _items_and_list(items, list_name)
        if isinstance(named, NoAction):
            return named
        items, list_name, called = named
        added: list[str] = []

        def add(lists: dict) -> tuple[dict, str]:
            added.clear()                # a retried rewrite keeps what its last run added
            kept = lists.get(list_name, [])
            new = [item for item in items if not on_the_list([item], kept)]
            if list_name not in lists and new and len(lists) >= MAX_LISTS:
                return lists, TOO_MANY_LISTS
            if len(kept) + len(new) > MAX_LIST_ITEMS:
                return lists, NoAction(f"Sorry, your {called} is full: it keeps at most {MAX_LIST_ITEMS} items.")
            if new:
                lists[list_name] = kept + new
                added.extend(new)
            there = [item for item in items if item not in new]
            if not new:
                return lists, Done(f"{_capital(_joined(there, 'and'))} {'are' if _many(there) else 'is'} already "
                                   f"on your {called}.")
            also = f"; {_joined(there, 'and')} {'were' if _many(there) else 'was'} on it already" if there else ""
            return lists, Done(f"Added {_joined(new, 'and')} to your {called}{also}.")
        return self._list_changed(await self.on_lists(add), list_name, added, [])

    async def _remove_from_list(self, items, list_name) -> str:
        named = _items_and_list(items, list_name)
        if isinstance(named, NoAction):
            return named
        items, list_name, called = named
        removed: list[str] = []

        def remove(lists: dict) -> tuple[dict, str]:
            removed.clear()
            kept = lists.get(list_name, [])
            gone = on_the_list(items, kept)
            absent = [item for item in items if not on_the_list([item], kept)]
            if not gone:
                be = "aren't" if _many(absent) else "isn't"
                return lists, NoAction(f"{_capital(_joined(absent, 'and'))} {be} on your {called}.")
            left = [item for item in kept if item not in gone]
            if left:
                lists[list_name] = left
            else:
                lists.pop(list_name, None)       # an empty list takes no place among MAX_LISTS
            removed.extend(gone)
            missing = f"; {_joined(absent, 'and')} {'were' if _many(absent) else 'was'} not on it" if absent else ""
            return lists, Done(f"Removed {_joined(gone, 'and')} from your {called}{missing}.")
        return self._list_changed(await self.on_lists(remove), list_name, [], removed)

    def _list_changed(self, result, list_name: str, added: list[str], removed: list[str]):
        """The result of a list change, what it changed kept for "undo that" (none where the lists were not reached)."""
        if not isinstance(result, NoAction) or added or removed:
            self.list_change = {"list_name": list_name, "added": list(added), "removed": list(removed)}
        return result

    async def _get_list(self, list_name, items=None, asked=None) -> str:
        """What is on the list; with items, whether each is ("is milk on my shopping list"); asked "how many", how
        many things are."""
        list_name = kept_name(list_name)
        items = _items(items) if items is not None else None
        if isinstance(items, NoAction) or len(list_name) > MAX_LIST_ITEM_CHARS:
            return items if isinstance(items, NoAction) else NOT_POSSIBLE
        kept = await self.on_lists(lambda lists: (lists, lists.get(list_name, [])))
        if isinstance(kept, NoAction):
            return kept
        called = _list_said(list_name)
        if items is not None:
            return Done(_on_it_said(items, kept, called))
        if not kept:
            return Done(f"Your {called} is empty.")
        if asked == "how many":
            return Done(f"Your {called} has {len(kept)} {'thing' if len(kept) == 1 else 'things'} on it.")
        return Done(f"Your {called} has {_joined(kept, 'and')}.")

    async def _clear_list(self, list_name) -> str:
        list_name = kept_name(list_name)
        if len(list_name) > MAX_LIST_ITEM_CHARS:
            return NOT_POSSIBLE
        called = _list_said(list_name)
        cleared = await self.on_lists(lambda lists: (lists, lists.pop(list_name, None)))
        if isinstance(cleared, NoAction):
            return cleared
        self._list_changed(None, list_name, [], cleared or [])
        return Done(f"Cleared your {called}." if cleared else f"Your {called} is already empty.")

    async def _get_state(self, name, area=None) -> str:
        found, problem = self._find(name, area, READABLE)
        if problem:
            return problem
        if len(found) > 1:
            return _choice(found)
        state = await self.home.read_state(found[0])
        if found[0].component == "vacuum":
            return await self._vacuum_state(found[0], state)
        return _state_sentence(found[0], state) if state is not None else _not_reported(found[0])

    async def _list_states(self, state, asked, kind=None, area=None) -> str:
        """Which things (of a kind, in an area) are in a state, or whether all are, as they last reported it
        (assistant.summary); what it names is kept for "turn them off"."""
        inventory, components = self.home.inventory, summary_components(state)
        if area and area not in inventory.areas() and not inventory.resolve(None, area):
            return NoAction(f"I don't know an area called the {area}.")
        found = [e for e in inventory.resolve(kind, area, components)
                 if e.component != "binary_sensor" or state_in_summary(e, "off") is not None]
        states = [state_in_summary(e, said) for e, said in
                  zip(found, await asyncio.gather(*(self.home.read_state(e) for e in found)))]
        self.listed = tuple(e.key for e in in_state(found, states, state, asked))
        return summary_sentence(state, asked, kind, area, found, states)

    def list_switched(self, calls: list[dict]) -> None:
        """The things a joined request switched ("turn off the kitchen light and the bedroom light", assistant.compound)
        listed, as a summary lists them: "turn them back on" right after it switches exactly those."""
        inventory, keys = self.home.inventory, []
        for call in calls:
            arguments = call["arguments"]
            if call["name"] == "set_device":
                found = inventory.resolve(arguments.get("device"), str(arguments.get("room")).replace("_", " "),
                                          SWITCHABLE)
            elif call["name"] == "switch_device":
                found = inventory.resolve(str(arguments.get("name")).replace("_", " "),
                                          str(arguments["area"]).replace("_", " ") if arguments.get("area") else None,
                                          SWITCHABLE)
            else:
                continue
            keys += [entity.key for entity in found[:1]]
        self.listed = tuple(keys)

    async def _switch_listed(self, state) -> str:
        """The things the latest summary named switched on or off ("turn them off")."""
        return await self._switch_things(self.listed, state)

    def _switchable(self, keys: tuple[str, ...], state: str) -> list[Entity]:
        """The things of keys that can be switched to state, those that could unlock or open something left for a yes
        of their own."""
        inventory = self.home.inventory
        return [e for key in keys if (e := inventory.get(key)) is not None and e.component in SWITCHABLE
                and not inventory.needs_yes(e, state)]

    async def _switch_things(self, keys: tuple[str, ...], state: str) -> str:
        """The things of keys (a summary's, at most the home's entities) switched on or off."""
        things = self._switchable(keys, state)
        if not things:
            return NoAction("There is nothing I just named that I can switch.")
        results = await asyncio.gather(*(self.home.command(e, state) for e in things))
        done = [e for e, result in zip(things, results) if result is not None]
        missed = f" {len(things) - len(done)} didn't confirm." if len(done) < len(things) else ""
        if not done:
            return Done("None of them confirmed.")
        if len(done) > MAX_LISTED:
            return Done(f"Okay, {len(done)} things are {state}.{missed}")
        be = "are" if len(done) > 1 else agreeing(done[0].name, "is")
        return Done(f"Okay, {listed(done)} {be} {state}.{missed}")

    async def _vacuum_state(self, entity: Entity, state: str | None) -> str:
        """A vacuum's state and battery, as it last reported them: "The robot vacuum is docked, with its battery at 80
        percent." (where it is, whether it charges, how much battery it has)."""
        battery = await self.home.read_battery(entity) if "battery" in entity.features else None
        if state is None and battery is None:
            return _not_reported(entity)
        be, hasnt = agreeing(entity.name, "is"), agreeing(entity.name, "hasn't")
        said = f"The {entity.name} {be} {VACUUM_STATES_SAID[state]}" if state is not None else \
            f"The {entity.name} {hasnt} said what {agreeing(entity.name, 'it is')} doing"
        return said + (f", with {agreeing(entity.name, 'its')} battery at {battery} percent." if battery is not None
                       else ".")

    async def _cover_or_lock(self, entity: Entity, action: str) -> str:
        if entity.component == "lock":
            action = {"open": "unlock", "close": "lock"}.get(action, action)
            if action == "stop":
                return NoAction(f"The {entity.name} can only be locked or unlocked.")
        return await self._act(entity, action)

    async def _set_cover(self, name, action, area=None) -> str:
        if not self._find(name, area, ("cover", "lock", "valve"))[0] and self._find(name, area, SWITCHABLE)[0]:
            entity, problem = self._one(name, area, SWITCHABLE)            # "close the valve", "stop the fan"
            return problem or await self._act(entity, "on" if action == "open" else "off")
        entity, problem = self._one(name, area, ("cover", "lock", "valve"))
        if entity is not None and entity.component == "valve" and entity_command(entity, action) is None:
            return self._only([entity], entity.name)                        # a valve of no stop payload
        return problem or await self._cover_or_lock(entity, action)

    def _tilting(self, name, area) -> tuple[Entity | None, NoAction | None]:
        """The one cover a name means that tilts, where others it means do not ("the blinds": the office blinds, the
        only blinds with slats); one that does not tilt says what it can do."""
        found, problem = self._find(name, area, ("cover",))
        tilting = [entity for entity in found if entity.tilts is not None]
        if problem or len(tilting) > 1:
            return None, problem or _choice(tilting)
        if not tilting:
            return None, self._only(found, _said(name, area)) if name else NoAction("No cover here can be tilted.")
        return tilting[0], None

    async def _set_tilt(self, action, name=None, percent=None, area=None) -> str:
        """A cover's slats opened or closed (to its tilt_opened_value, tilt_closed_value) or tilted to a percent of
        its tilt_min to tilt_max scale; said back as the tilt it reports, or, with no tilt_status_topic (Home
        Assistant's optimistic tilt), as the one sent."""
        entity, problem = self._tilting(name, area)
        if problem:
            return problem
        if action == "to" and percent is None:
            raise ValueError("no tilt")
        percent = float(percent) if action == "to" else tilt_percent(entity, entity.tilts[3 if action == "open" else 2])
        if self.home.inventory.needs_yes(entity, "tilt", percent):
            return self._ask(entity, "tilt", percent)
        confirmed = await self.home.command(entity, "tilt", percent)
        if confirmed is None:
            return Done(f"I asked {_the(entity)} to tilt, but it didn't confirm.")
        tilted = confirmed if confirmed.isdigit() else round(max(0.0, min(percent, 100.0)))
        return Done(f"Okay, the {entity.name} {agreeing(entity.name, 'is')} tilted {tilted} percent open.")

    async def _get_tilt(self, name=None, area=None) -> str:
        """How far a cover's slats are tilted open, in percent, as it reported it."""
        entity, problem = self._tilting(name, area)
        if problem:
            return problem
        tilt = await self.home.read_tilt(entity)
        if tilt is None:
            return _not_reported(entity, "tilt")
        return f"The {entity.name} {agreeing(entity.name, 'is')} tilted {tilt} percent open."

    async def _set_lock(self, name, action) -> str:
        entity, problem = self._one(name, None, SKILL_COMPONENTS["set_lock"])
        if problem:
            return problem
        if entity.component == "cover":
            return await self._cover_or_lock(entity, "open" if action == "unlock" else "close")
        return await self._cover_or_lock(entity, action)

    async def _confirm(self, answer) -> str:
        if self.pending is not None and self.pending.turn == self.turn:
            return NoAction("Say yes to confirm.")        # the reply that asked: the question stands
        pending, self.pending = self.pending, None
        if pending is None or time.time() - pending.asked_at > CONFIRM_WINDOW_S:
            return NoAction("There is nothing waiting for a yes.")
        if answer != "yes" or not says_yes(self.heard):
            return f"Okay, I'll leave {pending.subject} as {agreeing(pending.subject, 'it is')}."
        return await pending.act()

    async def _activate_scene(self, name) -> str:
        entity, problem = self._one(name, None, SKILL_COMPONENTS["activate_scene"])
        if problem:
            return NoAction(problem.replace("a device", "a scene"))
        return await self._act(entity, "activate")

    async def _command_vacuum(self, name, command, area=None) -> str:
        """A robot vacuum's command where its discovery's supported_features offer it, else what it offers."""
        entity, problem = self._one(name, area, SKILL_COMPONENTS["command_vacuum"])
        if problem:
            return problem
        if entity_command(entity, command) is None:
            offered = [VACUUM_COMMANDS_SAID[other] for other, (_, feature) in VACUUM_COMMANDS.items()
                       if feature in entity.features]
            return NoAction(f"The {entity.name} can't {VACUUM_COMMANDS_SAID[command]}" +
                            (f"; {agreeing(entity.name, 'it')} can {_listed(offered)}." if offered else "."))
        if self.home.inventory.needs_yes(entity, command):
            return self._ask(entity, command)
        if await self.home.command(entity, command) is None:
            return Done(f"I asked {_the(entity)} to {VACUUM_COMMANDS_SAID[command]}, but {agreeing(entity.name, 'it')} "
                        "didn't confirm.")
        return Done(f"Okay, the {entity.name} {agreeing(entity.name, 'is')} {VACUUM_COMMANDS_DONE[command]}.")

    async def _press_button(self, name, area=None) -> str:
        """A button pressed (one whose command could unlock or open something waits for a yes, as any does)."""
        entity, problem = self._one(name, area, SKILL_COMPONENTS["press_button"])
        return problem or await self._act(entity, "press")

    # ---- named timers and alarms

    async def _named(self, name, timers=None):
        """The pending timer of that name (timers: the book's pending ones, when already read)."""
        timers = await self._timers() if timers is None else timers
        return next((t for t in timers if t.name == str(name)), None)

    async def _start_timer(self, name, seconds) -> str:
        seconds = _timer_length(seconds)
        name = str(name)
        label = set(re.findall(r"[a-z']+", name.lower()))
        said = set(re.findall(r"[a-z']+", self.heard.lower()))
        if (said and not label <= said) or label & self.unsure_words or any(len(word) == 1 for word in label):
            # A label the user's words do not hold ("rental" read into "retato"), the recogniser was unsure of
            # ("partly" for "hey parley") or of one letter ("I timer for one hour") would be said when the timer
            # rings and could replace another timer of that name: the timer runs at the length asked, unnamed,
            # and the reply says so.
            await self._start(seconds)
            return f"Okay, your timer is set for {say_duration(seconds)}."
        if label & self.doubted_words:
            # A label heard with some doubt ("right" at 0.5-0.7 for "rice") is asked about before the timer
            # starts, or replaces one of that name: "Did you mean a timer called right for 15 minutes?"
            arguments = {"name": name, "seconds": seconds}
            return self._say_back(said_back("start_timer", arguments), "start_timer", arguments)
        replaced = await self._named(name)
        if replaced is not None:
            await self.timer_book.cancel(replaced.id)
        await self._start(seconds, name)
        return f"Okay, your {name} timer is set for {say_duration(seconds)}."

    async def _timer_left(self, name=None) -> str:
        pending = await self._timers()                   # one read: with a store it is a round trip
        timers = [t for t in pending if not t.alarm]
        if name is not None:
            timer = await self._named(name, pending)
            if timer is None:
                return NoAction(f"There is no {name} timer.")
            timers = [timer]
        if not timers:
            return "There is no timer running."
        now = time.time()
        parts = [f"{say_duration(max(1, round(seconds_left(t, now))))} on the {t.name + ' ' if t.name else ''}timer"
                 f"{', paused' if t.state == 'paused' else ''}" for t in timers[:3]]
        return "There's " + (", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]) + "."

    async def _list_timers(self) -> str:
        """The timers that run or are paused, each with the time it has left: at most MAX_LISTED named, then how
        many more."""
        timers = [t for t in await self._timers() if not t.alarm]
        if not timers:
            return "You have no timers."
        now = time.time()
        parts = [f"{_timer_said(t)}, {say_duration(max(1, round(seconds_left(t, now))))} "
                 f"{'left, paused' if t.state == 'paused' else 'left'}" for t in timers[:MAX_LISTED]]
        more = f"; and {len(timers) - MAX_LISTED} more" if len(timers) > MAX_LISTED else ""
        counted = "one timer" if len(timers) == 1 else f"{len(timers)} timers"
        return f"You have {counted}: {'; '.join(parts)}{more}."

    async def _one_timer(self, name):
        """The timer a change takes: the one of that name, else the only one; a sentence (NoAction) when there is
        none, or several and none named ("Which one ...?")."""
        timers = [t for t in await self._timers() if not t.alarm]
        if name is not None:
            timer = await self._named(name, timers)
            return timer if timer is not None else NoAction(f"There is no {name} timer.")
        if not timers:
            return NoAction("There is no timer running.")
        if len(timers) > 1:
            said = [_timer_said(t) for t in timers[:MAX_LISTED]]
            return NoAction(f"{WHICH_ONE_MEANT}{', '.join(said[:-1])} or {said[-1]}?")
        return timers[0]

    async def _change_timer(self, change, seconds, name=None) -> str:
        """Time added to a timer, or taken off it; a paused one stays paused."""
        step = _timer_length(seconds)
        timer = await self._one_timer(name)
        if isinstance(timer, NoAction):
            return timer
        left = seconds_left(timer, time.time())
        left = left + step if change == "add" else left - step
        if left < 1:
            return NoAction(f"{_timer_said(timer).capitalize()} has only {say_duration(max(1, round(left + step)))} "
                            "left.")
        if left > MAX_TIMER_S:
            raise ValueError("timer out of range")
        # its ring says the length it has now ("your timer for 7 minutes is done" after 2 were added to 5)
        length = timer.seconds + (step if change == "add" else -step)
        if not await self.timer_book.retime(timer, left, timer.state == "paused", round(length)):
            return NoAction(f"{_timer_said(timer).capitalize()} has just finished.")
        paused = ", paused" if timer.state == "paused" else ""
        return Done(f"Okay, {_timer_said(timer)} has {say_duration(round(left))} left{paused}.")

    async def _pause_timer(self, action, name=None) -> str:
        """A timer paused (it never rings until resumed), or a paused one running again."""
        timer = await self._one_timer(name)
        if isinstance(timer, NoAction):
            return timer
        said = _timer_said(timer)
        if (timer.state == "paused") == (action == "pause"):
            return NoAction(f"{said.capitalize()} is {'already paused' if action == 'pause' else 'not paused'}.")
        left = seconds_left(timer, time.time())
        if left <= 0 or not await self.timer_book.retime(timer, left, action == "pause", timer.seconds):
            return NoAction(f"{said.capitalize()} has just finished.")
        done = "paused" if action == "pause" else "running again"
        return Done(f"Okay, {said} is {done}, with {say_duration(max(1, round(left)))} left.")

    async def _stop_timer(self, name) -> str:
        timer = await self._named(name)
        if timer is None or not await self.timer_book.cancel(timer.id):
            return NoAction(f"There is no {name} timer.")
        return f"Okay, the {timer.name} timer is cancelled."

    async def _set_alarm(self, hour, minute, period=None) -> str:
        hour, minute = clock_time(hour, minute)
        if not (0 <= hour <= 23 and 0 <= minute <= 59) or (period and not 1 <= hour <= 12):
            raise ValueError("not a clock time")
        now = dt.datetime.now()
        if period:
            hours = [hour % 12 + (12 if period == "pm" else 0)]
        else:                      # "six forty five": the next 6:45, morning or evening
            hours = [hour] if hour == 0 or hour > 12 else [hour % 12, hour % 12 + 12]
        times = []
        for h in hours:
            at = now.replace(hour=h, minute=minute, second=0, microsecond=0)
            times.append(at if at > now else at + dt.timedelta(days=1))
        at = min(times)
        spoken = at.strftime("%I:%M %p").lstrip("0")
        await self._start((at - now).total_seconds(), "alarm", spoken)
        return f"Okay, your alarm is set for {spoken}."

    async def _alarms(self) -> list[Timer]:
        return [t for t in await self._timers() if t.alarm]

    async def _cancel_alarm(self, which, hour=None, minute=None, period=None) -> str:
        alarms = await self._alarms()
        if not alarms:
            return NoAction("You have no alarms.")
        if which == "all":
            for alarm in alarms:
                await self.timer_book.cancel(alarm.id)
            return "Okay, your alarm is cancelled." if len(alarms) == 1 else \
                f"Okay, your {len(alarms)} alarms are cancelled."
        if hour is not None:
            hour, minute = clock_time(hour, minute or 0)
            alarms = [a for a in alarms if _alarm_at(a.alarm, hour, minute, period)]
            if not alarms:
                return NoAction(f"There is no alarm at {hour}:{minute:02d}{' ' + period.upper() if period else ''}.")
        if len(alarms) > 1:           # as a timer's follow-up asks which one
            return NoAction(f"Which one: the alarm at {_joined([a.alarm for a in alarms], 'or')}?")
        await self.timer_book.cancel(alarms[0].id)
        return f"Okay, your alarm for {alarms[0].alarm} is cancelled."

    async def _list_alarms(self) -> str:
        alarms = await self._alarms()
        if not alarms:
            return "You have no alarms."
        if len(alarms) == 1:
            return f"You have an alarm at {alarms[0].alarm}."
        times = [a.alarm for a in alarms[:MAX_ALARMS_SAID]]
        more = len(alarms) - len(times)
        return f"You have {len(alarms)} alarms: at {_joined(times, 'and')}" + \
            (f", and {more} more." if more else ".")

    async def _snooze_alarm(self, minutes=SNOOZE_MINUTES) -> str:
        rang = self.ringing
        if rang is None:
            return NoAction("Nothing is ringing to snooze.")
        minutes = _whole(minutes)
        if not 0 < minutes <= MAX_SNOOZE_MINUTES:
            raise ValueError("snooze out of range")
        await self._start(minutes * 60, rang.name, rang.alarm)
        self.rang = None
        return f"Okay, snoozed for {say_duration(minutes * 60)}."

    async def _stop_ringing(self) -> str:
        rang = self.ringing
        self.rang = None
        if rang is None:
            return NoAction("Okay.")
        return "Okay, your alarm is off." if rang.alarm else "Okay, the timer is off."


MAX_ALARMS_SAID = 5                # a list of alarms says this many times, then how many more
MAX_SNOOZE_MINUTES = 60


def _alarm_at(spoken: str, hour: int, minute: int, period: str | None) -> bool:
    """An alarm set for spoken ("6:45 AM") is the one said at hour:minute (a 12-hour clock unless period is said,
    or the hour is past 12)."""
    at = dt.datetime.strptime(spoken, "%I:%M %p")
    if minute != at.minute:
        return False
    if period:
        return at.hour == hour % 12 + (12 if period == "pm" else 0)
    return at.hour == hour if hour > 12 or hour == 0 else at.hour % 12 == hour % 12


def _timer_said(timer) -> str:
    """A timer as a reply names it: "the pasta timer", "the timer for 10 minutes"."""
    return f"the {timer.name} timer" if timer.name else f"the timer for {say_duration(timer.seconds)}"


class HeldTools:
    """A ToolRunner for a reply written before it is wanted (while the user may still be talking).

    Any generator calls it like the runner it wraps; a skill that changes something (a light, a timer)
    waits until `release` is set, so a reply that is thrown away never acts. Pure skills (arithmetic,
    the time) run at once, so their answer can already be spoken into the reply's first clause.
    """

    def __init__(self, runner: ToolRunner, release: asyncio.Event):
        self.runner, self.release = runner, release

    @property
    def home(self):
        """The wrapped runner's home: the second opinion matches against its names."""
        return self.runner.home

    async def lexicon(self) -> tuple | None:
        return await self.runner.lexicon()

    def begin_reply(self, history: list[dict]) -> None:
        self.runner.begin_reply(history)

    @property
    def listed(self) -> tuple[str, ...]:
        return self.runner.listed

    def list_switched(self, calls: list[dict]) -> None:
        self.runner.list_switched(calls)

    def waiting_answer(self, said: str) -> str | None:
        return self.runner.waiting_answer(said)

    def lacked(self, name: str, arguments: dict) -> NoAction | None:
        return self.runner.lacked(name, arguments)      # reads the home's names only: no waiting

    async def run(self, name: str, arguments: dict) -> str:
        skill = SKILLS.get(name)
        if skill is None or not skill.pure:
            await self.release.wait()
        return await self.runner.run(name, arguments)


assert all(hasattr(ToolRunner, "_" + name) for name in SKILLS), "every registered skill has a runner"
