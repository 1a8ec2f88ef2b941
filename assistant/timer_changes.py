"""Timers listed ("what timers do I have"), changed ("add 5 minutes to the pasta timer", "take a minute off the
timer"), paused and resumed ("pause the timer", "resume the pasta timer", "pause it" right after a timer's call):
skills list_timers, change_timer and pause_timer.

Read by code from the words (vocabulary.TIMERS_LISTED, TIMER_CHANGED, TIMER_HELD): the shipped checkpoint was trained
before these skills. A request is read only where the whole of it, past a few openers and tails, is one of their
phrasings; which timer a call takes when it names none is settled when it runs, from the timers there are
(ToolRunner._one_timer asks "Which one ...?" of several); the answer to that question ("the pasta one", "both") is
the change asked, on the timers it picks from the question's choices (timer_choice_answered).
"""
import re

from assistant.chat_template import content_text
from assistant.conversation import ANSWER_HEAD, ANSWER_TAIL, CHOICE_SPLIT, FILLERS, calls_of_history
from assistant.skills import TIMER_SKILLS
from assistant.spoken_numbers import DURATION_SECONDS
from assistant.tools import CHOICE_QUESTION
from assistant.vocabulary import (ALL_CHOICES, CHOICE_PLACES, TIMER_ANSWER_WORDS, TIMER_CHANGED, TIMER_HELD,
                                  TIMER_REQUEST_OPENERS, TIMER_REQUEST_TAILS, TIMERS_LISTED)

# A timer said: "the pasta timer", "my timer", "the timer for the eggs", "the pasta one", or "the pasta" where pasta
# is the label of a timer the conversation started; "it" and "that" are read apart, as the newest timer the
# conversation took
_TIMER = r"(?:(?:the|my|our|that|this) (?:(?P<name>[a-z']+(?: [a-z']+)?) )?timer(?: for (?:the |my )?(?P<after>[a-z']+))?" \
         r"|the (?P<one>[a-z']+) one|the (?P<label>[a-z']+(?: [a-z']+)?)|(?P<it>it|that))"
# A choice of the question "Which one do you mean, the pasta timer or the timer for 10 minutes?": a named timer's name
_CHOICE = re.compile(r"the (?P<name>.+) timer")
_LENGTH = r"(?P<length>\d+(?:\.\d+)?) seconds"


def _form(form: str) -> str:
    return re.escape(form).replace(re.escape("{timer}"), _TIMER).replace(re.escape("{length}"), _LENGTH)


_AROUND = (rf"^(?:(?:{'|'.join(TIMER_REQUEST_OPENERS)}) )*(?:{{}})(?: (?:{'|'.join(TIMER_REQUEST_TAILS)}))*$")
_LISTED = re.compile(_AROUND.format("|".join(re.escape(form) for form in TIMERS_LISTED)))
_CHANGES = [(key, re.compile(_AROUND.format(_form(form)))) for key, forms in (*TIMER_CHANGED.items(),
                                                                             *TIMER_HELD.items()) for form in forms]
_WORDS = re.compile(r"[a-z0-9.']+")
# the lengths the normaliser leaves as said: "5 more minutes", "another minute"
_UNIT = "|".join(sorted(map(re.escape, DURATION_SECONDS), key=len, reverse=True))
_MORE = re.compile(rf"\b(?P<number>\d+(?:\.\d+)?) more (?P<unit>{_UNIT})\b")
_ANOTHER = re.compile(rf"\banother (?P<unit>{_UNIT})\b")


def _in_seconds(said: str) -> str:
    """ "add 5 more minutes": "add 300 seconds more"; "another minute": "another 60 seconds"."""
    said = _MORE.sub(lambda m: f"{float(m['number']) * DURATION_SECONDS[m['unit']]:g} seconds more", said)
    return _ANOTHER.sub(lambda m: f"another {DURATION_SECONDS[m['unit']]} seconds", said)


def timer_change_asked(said: str, made: list[dict]) -> dict | None:
    """The list_timers, change_timer or pause_timer call of a normalised request (spoken_numbers.normalize_request:
    lengths in seconds), made: the conversation's calls so far; None for any other request. A request that says no
    timer ("pause it", "add 5 more minutes") is read only right after a timer's call, and takes its timer."""
    said = _in_seconds(" ".join(_WORDS.findall(said.lower())).rstrip("."))
    if _LISTED.match(said):
        return {"name": "list_timers", "arguments": {}}
    last = made[-1] if made else None
    after_timer = last is not None and last["name"] in TIMER_SKILLS
    for key, form in _CHANGES:
        match = form.match(said)
        if match is None:
            continue
        words = match.groupdict()
        if words.get("label") and words["label"] not in _labels(made):
            continue                 # "pause the music": no timer's label
        name = words.get("name") or words.get("after") or words.get("one") or words.get("label")
        if name is None and "timer" not in said:
            if not after_timer:
                return None
            # the timer the newest call took, unless it stopped it ("pause it" after "cancel the pasta timer")
            name = last["arguments"].get("name") if last["name"] not in ("stop_timer", "cancel_timer") else None
        arguments = {"name": str(name).replace("_", " ")} if name else {}
        if key in TIMER_HELD:
            return {"name": "pause_timer", "arguments": {"action": key, **arguments}}
        return {"name": "change_timer", "arguments": {"change": key, "seconds": float(words["length"]),
                                                      **arguments}}
    return None


def _labels(made: list[dict]) -> set[str]:
    """The labels of the named timers the conversation's calls took ("pasta")."""
    return {str(call["arguments"]["name"]).replace("_", " ") for call in made
            if call["name"] in TIMER_SKILLS and call["arguments"].get("name")}


def timer_choice_answered(history: list[dict]) -> list[dict]:
    """The calls an answer ("the pasta one", "rice", "the second one", "both") to the assistant's "Which one do you
    mean, the pasta timer or the rice timer?" asks: the change_timer or pause_timer call that asked it, once on each
    timer the answer picks from the question's choices. None ([]) when the last turn asked no such question of such a
    call, the answer picks no choice, or it picks a timer with no name (a call names a timer by its name only)."""
    if len(history) < 3 or history[-1].get("role") != "user" or history[-2].get("role") != "assistant":
        return []
    question = CHOICE_QUESTION.match(content_text(history[-2]))
    request = max((i for i, message in enumerate(history[:-1]) if message.get("role") == "user"), default=0)
    made = calls_of_history(history[:-1])
    # the calls of the reply that asked (a client's history gives a call its own message, its result another)
    asking = [call for call, turn in zip(made, made.turns) if turn > request]
    if question is None or len(asking) != 1 or asking[0]["name"] not in ("change_timer", "pause_timer") or \
            asking[0]["arguments"].get("name"):
        return []
    choices = [_CHOICE.fullmatch(choice) for choice in CHOICE_SPLIT.split(question.group("choices"))]
    said = " ".join(_WORDS.findall(content_text(history[-1]).lower()))
    answer = ANSWER_TAIL.sub("", ANSWER_HEAD.sub("", FILLERS.sub("", said)))
    words = [word for word in answer.split() if word not in TIMER_ANSWER_WORDS]
    every = answer in ALL_CHOICES or " ".join(words) in ALL_CHOICES
    if every:
        chosen = choices
    elif len(words) == 1 and words[0] in CHOICE_PLACES and CHOICE_PLACES[words[0]] < len(choices):
        chosen = [choices[CHOICE_PLACES[words[0]]]]
    else:
        chosen = [choice for choice in choices if words and choice and set(words) <= set(choice["name"].split())]
    if not chosen or not all(chosen) or len(chosen) > 1 and not every:
        return []
    return [{"name": asking[0]["name"], "arguments": {**asking[0]["arguments"], "name": choice["name"]}}
            for choice in chosen]
