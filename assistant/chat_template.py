"""The chat template: a conversation becomes the prompt, and a generated reply becomes a tool call and speech.

Prompt, one line per kept turn (the model reads it with the reply canvas after it):

    <|user|> turn on the kitchen light<|assistant|><|call|> set_device device=light room=kitchen state=on
    <|user|> and in the bedroom<|assistant|>

(one line here; no spaces before special tokens, so none become tokens). Reply (what the model writes,
padded with <|eos|> to the canvas length):

    <|call|> set_device device=light room=bedroom state=on<|say|> Okay, the bedroom light is {result}.

A previous assistant turn is shown by the tool call it made (that is what a follow-up like "and in the
bedroom" refers back to), or by <|say|> when it made none. User text goes through the spoken-number
normaliser. Only the last MAX_USER_TURNS user turns are kept, and system messages and tool outputs are
not shown: the embedded model is too small to follow free-form instructions, and tool outputs reach the
user through the {result} slot instead.
"""
import json
import re

from assistant.spoken_numbers import normalize_request

PAD, MASK, EOS, UNK = "<|pad|>", "<|mask|>", "<|eos|>", "<|unk|>"
USER, ASSISTANT, CALL, SAY = "<|user|>", "<|assistant|>", "<|call|>", "<|say|>"
SPECIAL_TOKENS = [PAD, MASK, EOS, UNK, USER, ASSISTANT, CALL, SAY]
RESULT_SLOT = "{result}"
NUMBER_SLOTS = [f"<n{i}>" for i in range(8)]
MAX_USER_TURNS = 2
_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])")
_SLOT = re.compile(r"<n(\d)>")


def format_call(call: dict) -> str:
    """`set_device device=light room=kitchen state=on`; values never contain spaces."""
    args = " ".join(f"{key}={_format_value(value)}" for key, value in call["arguments"].items())
    return f"{call['name']} {args}".strip()


def _format_value(value) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).replace(" ", "")


def parse_call(text: str) -> dict | None:
    """Inverse of format_call; numbers become int/float except `expression`. None if malformed."""
    parts = text.split()
    if not parts or "=" in parts[0]:
        return None
    arguments = {}
    for part in parts[1:]:
        key, sep, value = part.partition("=")
        if not sep or not key or not value:
            return None
        arguments[key] = value if key == "expression" else _number_or_text(value)
    return {"name": parts[0], "arguments": arguments}


def _number_or_text(value: str):
    try:
        number = float(value)
    except ValueError:
        return value
    return int(number) if number.is_integer() and "." not in value else number


def render_reply(call: dict | None, text: str) -> str:
    """The training target for one assistant turn."""
    if call is None:
        return f"{SAY} {text}"
    return f"{CALL} {format_call(call)}{SAY} {text}"


def _assistant_calls(message: dict) -> list[dict]:
    """Tool calls of an assistant message, in OpenAI's shape or Parley's {name, arguments}."""
    calls = []
    for item in message.get("tool_calls") or []:
        function = item.get("function", item)
        arguments = function.get("arguments", {})
        if isinstance(arguments, str):
            try:
                arguments = json.loads(arguments or "{}")
            except json.JSONDecodeError:
                arguments = {}
        calls.append({"name": function.get("name", ""), "arguments": arguments})
    return calls


def render_prompt(history: list[dict]) -> str:
    """The prompt for the reply to the last user message of an OpenAI-style history."""
    turns: list[list] = []      # [user text, shown assistant part or None]
    for message in history:
        role = message.get("role")
        if role == "user":
            turns.append([content_text(message), None])
        elif role == "assistant" and turns:
            calls = _assistant_calls(message)
            if calls and (turns[-1][1] is None or turns[-1][1] == SAY):
                turns[-1][1] = f"{CALL} {format_call(calls[0])}"
            elif turns[-1][1] is None:
                turns[-1][1] = SAY
    kept = turns[-MAX_USER_TURNS:] or [["", None]]      # only these are normalised: the older ones are not shown
    return "".join(f"{USER} {normalize_request(text)}" + (f"{ASSISTANT}{shown}" if shown else "")
                   for text, shown in kept) + ASSISTANT


def hide_numbers(text: str, numbers: list[str] | None = None) -> tuple[str, list[str]]:
    """Each distinct number becomes a slot token (<n0>, <n1>, ... in order of first appearance).

    The model then points at a number instead of copying its digits, which a model this small does
    badly; the runtime puts the digits back (show_numbers). Pass the prompt's list to hide a reply's
    numbers with the same slots; numbers not in it stay digits.
    """
    grow = numbers is None
    numbers = [] if numbers is None else numbers

    def slot(match):
        value = match.group(0)
        if value not in numbers:
            if not grow or len(numbers) == len(NUMBER_SLOTS):
                return value
            numbers.append(value)
        return NUMBER_SLOTS[numbers.index(value)]
    return _NUMBER.sub(slot, text), numbers


def show_numbers(text: str, numbers: list[str]) -> str:
    """Put the digits back; a slot with no number stays as it is (and the call will not parse)."""
    return _SLOT.sub(lambda m: numbers[int(m.group(1))] if int(m.group(1)) < len(numbers) else m.group(0), text)


def model_prompt(history: list[dict]) -> tuple[str, list[str]]:
    """The prompt text the model reads, and the numbers its slots stand for."""
    return hide_numbers(render_prompt(history))


def content_text(message: dict) -> str:
    """OpenAI content is a string or a list of parts; take the text parts."""
    content = message.get("content") or ""
    if isinstance(content, list):
        return " ".join(part.get("text") or part.get("transcript") or "" for part in content if isinstance(part, dict))
    return str(content)
