"""Reading a generated reply block by block: the tool call written before <|say|>, then the speech with its
{result} slot.

One reader for both users of Parley's checkpoint: the in-process generator (assistant.embedded), which runs
the tool and fills the slot itself, and the generator server (assistant.generator_server), which answers the
call with the speech still holding the slot, for the gateway to fill.
"""
import itertools
import json
import threading
import uuid

from assistant.chat_template import ANY_SLOT, CALL, RESULT_SLOT, SAY, Slots, content_text, fill_result, parse_call
from assistant.generator import ToolCall
from assistant.skills import valid_call
from assistant.vocabulary import DEVICE_SPOKEN, ROOM_SPOKEN, SENSOR_KINDS

NOT_UNDERSTOOD = "Sorry, I didn't catch that."
# The reply to a request that asks for nothing to be done: negated, or a remark (clauses.unasked)
LEFT_AS_IT_IS = "Okay, I'll leave it as it is."
# The reply to a request that drops the one in hand ("never mind", "stop" while nothing rings): nothing is done
DROPPED = "Okay."
# Every reply the model learns to write: assistant.corpus writes its replies from these and no others, so a
# reply that is none of them is two replies mixed by parallel denoising ("Sorryich room? do that yet.").
# {result} is the tool's answer, {room}, {device} and {kind} the default home's words.
REPLIES = {
    "time": "It's {result}.", "date": "Today is {result}.", "timer": "Timer set for {result}.",
    "done": "Okay, {result}.", "device": "Okay, the {room} {device} is {result}.",
    "lights": "Okay, the {room} lights are at {result}.", "thermostat": "Okay, the thermostat is set to {result}.",
    "reading": "The {room} {kind} is {result}.", "value": "That's {result}.", "result": "{result}",
    # the refusals: a request not placed among the skills, a name not found in the home
    "cant": "Sorry, I can't do that yet.", "unknown_name": "Sorry, I don't know a device by that name.",
    "which_room": "Which room?", "greeting": "Hi! How can I help?",
    "how_are_you": "I'm doing well, thanks. How can I help?", "thanks": "You're welcome!",
    "who": "I'm Parley, your home assistant.",
    "help": "I can do timers, time and date, lights and devices, the thermostat, sensors, math and unit conversions.",
    "joke": "Why did the scarecrow win an award? He was outstanding in his field.",
    "goodbye": "Goodbye! Talk to you soon.",
}
_WORDS = {"room": list(ROOM_SPOKEN.values()), "device": list(DEVICE_SPOKEN.values()), "kind": list(SENSOR_KINDS)}


def reply(form: str, **words: str) -> str:
    """One of REPLIES with the default home's words in it, the {result} slot kept."""
    return REPLIES[form].format(result=RESULT_SLOT, **words)


def _every_reply() -> frozenset[str]:
    """REPLIES with each of the default home's words they take: every reply the corpus writes."""
    replies = set()
    for form in REPLIES.values():
        fields = [key for key in _WORDS if "{" + key + "}" in form]
        for words in itertools.product(*(_WORDS[key] for key in fields)):
            replies.add(form.format(result=RESULT_SLOT, **dict(zip(fields, words))))
    return frozenset(replies)


EVERY_REPLY = _every_reply()
CANT, UNKNOWN_NAME = reply("cant"), reply("unknown_name")
CALL_ONLY_REPLY = reply("done")    # spoken after a call whose reply was not written well

_call_numbers = itertools.count(1)
_call_numbers_lock = threading.Lock()


def new_call_id() -> str:
    with _call_numbers_lock:
        return f"call_{next(_call_numbers)}_{uuid.uuid4().hex[:8]}"


class ReplyReader:
    """Takes the committed blocks of one reply in order.

    call: the well-formed call before <|say|> (None if there is none); broken: the call or the speech is
    garbled (a muddled, unsure reply), and nothing more is read; template: the speech so far, {result}
    slot kept. slots: what the prompt's number, name and area slots stand for; a slot with nothing behind
    it never reaches a tool, and a slot in the speech never reaches the user (the reply counts as garbled),
    nor does speech that is, or ends as, none of the replies the corpus writes (EVERY_REPLY).
    """

    def __init__(self, tokenizer, eos_id: int, slots: Slots):
        self.tokenizer, self.eos_id, self.slots = tokenizer, eos_id, slots
        self.call_id, self.say_id = tokenizer.token_id(CALL), tokenizer.token_id(SAY)
        self.tokens: list[int] = []
        self.head_read = False          # <|say|> has been written: the call (or its absence) is known
        self.call: ToolCall | None = None
        self.broken = False
        self.template = ""

    def add(self, tokens: list[int]) -> tuple[bool, str]:
        """Read the next block: (whether the call part was completed by it, the speech it added)."""
        self.tokens.extend(tokens)
        head_now = False
        if not self.head_read and self.say_id in self.tokens:
            split = self.tokens.index(self.say_id)
            self.call, self.broken = self._read_call(self.tokens[:split])
            self.head_read = head_now = True
        if not self.head_read or self.broken:
            return head_now, ""
        spoken = self.tokens[self.tokens.index(self.say_id) + 1:]
        template = self.tokenizer.decode([t for t in spoken if t != self.eos_id])
        # call syntax or a slot (the corpus never speaks a number, name or area slot: "Sorry,<e0> don't know"), or
        # speech that no reply of the corpus begins with, or that ends as none of them: muddled
        ended = self.eos_id in spoken
        if "=" in template or "_" in template or ANY_SLOT.search(template) or \
                (template not in EVERY_REPLY if ended else not any(r.startswith(template) for r in EVERY_REPLY)):
            self.broken = True
            return head_now, ""
        added = template[len(self.template):] if len(template) > len(self.template) else ""
        self.template = template if added else self.template
        return head_now, added

    def refuse(self) -> None:
        """Drop the call read, for a check made beyond the slots' own (embedded.reads_unasked): the reply then counts
        as garbled, as one whose call the slots refuse, and none of its speech is said."""
        self.call, self.broken, self.template = None, True, ""

    def spoken(self, result: str | None) -> str:
        """The speech so far with the slot filled (emptied while there is no result)."""
        return fill_result(self.template, result)

    @property
    def unwritten(self) -> bool:
        """No usable speech: <|say|> never came, or the reply is garbled."""
        return not self.head_read or self.broken

    def _read_call(self, head: list[int]) -> tuple[ToolCall | None, bool]:
        head = [t for t in head if t != self.eos_id]
        if not head:
            return None, False
        if head[0] != self.call_id:
            return None, True
        written = self.tokenizer.decode(head[1:])
        if self.slots.tools is not None and written.startswith("<t"):        # a tool the client declared
            declared = self.slots.tools.call(written, self.slots.numbers, self.slots.names, self.slots.areas)
            return (None, True) if declared is None else \
                (ToolCall(declared["name"], declared["arguments"], new_call_id()), False)
        text = self.slots.show(written)
        parsed = None if ANY_SLOT.search(text) else parse_call(text)
        if parsed is not None and not valid_call(parsed):
            parsed = self.slots.mended(parsed)
        if parsed is None or not valid_call(parsed) or self.slots.refuses(parsed, written):
            return None, True
        parsed = self.slots.placed(parsed)
        return ToolCall(parsed["name"], parsed["arguments"], new_call_id()), False


def split_client_result(history: list[dict]) -> tuple[list[dict], str | None]:
    """A history ending in a client tool's output: the history before that call, and the output as words.

    The same prompt is then decoded again (greedy decoding is deterministic) and the output fills the slot.
    """
    if not history or history[-1].get("role") != "tool":
        return history, None
    output = spoken_result(content_text(history[-1]))
    end = len(history) - 1
    while end > 0 and history[end - 1].get("role") in ("tool", "assistant"):
        end -= 1
    return history[:end], output


MAX_SPOKEN_FIELDS = 4
MAX_SPOKEN_DEPTH = 3


def spoken_result(output: str) -> str:
    """A client tool's output as words for the reply's slot: clients often JSON-encode it (Pipecat sends
    '"on"' for on), and JSON read aloud is noise. A string is unwrapped; an object with one field is that
    field; a bigger one is its first few fields as "key value" pairs; a list is its items."""
    try:
        value = json.loads(output)
    except ValueError:
        return output.strip()
    except RecursionError:
        return "a nested result"
    return _spoken_value(value, MAX_SPOKEN_DEPTH)


def _spoken_value(value, depth: int) -> str:
    if isinstance(value, (list, dict)) and depth == 0:
        return f"{len(value)} items"
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "nothing"
    if isinstance(value, (int, float)):
        return f"{value:g}" if isinstance(value, float) else str(value)
    if isinstance(value, list):
        words = [_spoken_value(item, depth - 1) for item in value[:MAX_SPOKEN_FIELDS]]
        return ", ".join(words[:-1]) + (" and " if len(words) > 1 else "") + words[-1] if words else "nothing"
    if len(value) == 1:
        return _spoken_value(next(iter(value.values())), depth - 1)
    pairs = [f"{key.replace('_', ' ')} {_spoken_value(field, depth - 1)}"
             for key, field in list(value.items())[:MAX_SPOKEN_FIELDS]]
    return ", ".join(pairs) if pairs else "nothing"
