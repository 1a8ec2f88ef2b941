"""Timers listed ("what timers do I have"), changed ("add 5 minutes to the pasta timer", "take a minute off the
timer"), paused and resumed ("pause the timer", "resume the pasta timer", "pause it" right after a timer's call):
skills list_timers, change_timer and pause_timer.

Read by code from the words (vocabulary.TIMERS_LISTED, TIMER_CHANGED, TIMER_HELD): the shipped checkpoint was trained
before these skills. A request is read only where the whole of it, past a few openers and tails, is one of their
phrasings; which timer a call takes when it names none is settled when it runs, from the timers there are
(ToolRunner._one_timer asks "Which one ...?" of several).
"""
import re

from assistant.skills import TIMER_SKILLS
from assistant.spoken_numbers import DURATION_SECONDS
from assistant.vocabulary import TIMER_CHANGED, TIMER_HELD, TIMER_REQUEST_OPENERS, TIMER_REQUEST_TAILS, TIMERS_LISTED

# A timer said: "the pasta timer", "my timer", "the timer for the eggs", "the pasta one"; "it" and "that" are read
# apart, as the newest timer the conversation took
_TIMER = r"(?:(?:the|my|our|that|this) (?:(?P<name>[a-z']+(?: [a-z']+)?) )?timer(?: for (?:the |my )?(?P<after>[a-z']+))?" \
         r"|the (?P<one>[a-z']+) one|(?P<it>it|that))"
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
        name = words.get("name") or words.get("after") or words.get("one")
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
