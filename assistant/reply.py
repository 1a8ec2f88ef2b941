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

NOT_UNDERSTOOD = "Sorry, I didn't catch that."
# The refusals the model learns to write (assistant.corpus): a request it did not place among its skills, and
# a name it did not find in the home.
CANT = "Sorry, I can't do that yet."
UNKNOWN_NAME = "Sorry, I don't know a device by that name."
CALL_ONLY_REPLY = f"Okay, {RESULT_SLOT}."    # spoken after a call whose reply was not written well

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
    it never reaches a tool, and a slot in the speech never reaches the user (the reply counts as garbled).
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
        # call syntax or a slot (the corpus never speaks a number, name or area slot: "Sorry,<e0> don't know"): muddled
        if "=" in template or "_" in template or ANY_SLOT.search(template):
            self.broken = True
            return head_now, ""
        added = template[len(self.template):] if len(template) > len(self.template) else ""
        self.template = template if added else self.template
        return head_now, added

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
