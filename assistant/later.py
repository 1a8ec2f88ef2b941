"""A change of the home said for a time to come ("turn off the kitchen light in 10 minutes", "switch off the tv at
10 pm", "turn on the bedroom light tomorrow morning") or on a condition ("... when I leave") is never made now:
acting at once on a request for later is a wrong action. ToolRunner.run asks not_now of every call of a skill that
changes a thing (skills.CHANGES_THE_HOME), with the words of the request it answers; the words of times and
conditions are data (vocabulary.LATER_TIMES, LATER_CONDITIONS).

A change said with a delay or a clock time Parley can know ("in 10 minutes", "at 7 pm") is scheduled instead
(scheduled_for reads the time; the assistant answers the request without it, and ToolRunner.run checks each change as
if asked now and keeps it with the timers, to run at its time); a time it cannot ("tomorrow morning") is refused.
"""
import datetime as dt
import re
from dataclasses import dataclass

from assistant.chat_template import NoAction
from assistant.spoken_numbers import normalize_request
from assistant.vocabulary import (LATER_CONDITION_SUBJECTS, LATER_CONDITIONS, LATER_TIMES, MAX_SCHEDULED,
                                  SCHEDULED_AHEAD_S, SCHEDULED_BARE_HOUR, SCHEDULED_CANCEL_VERBS, SCHEDULED_CLOCK,
                                  SCHEDULED_DELAY, SCHEDULED_JUST_MADE, SCHEDULED_LISTED, SCHEDULED_NOT_SAID,
                                  SCHEDULED_OFF_FIRST_VERBS, SCHEDULED_ON_FIRST_HOUR, SCHEDULED_ON_FIRST_VERBS,
                                  SCHEDULED_TAILS,
                                  SPEAKER_REMARK_SUBJECTS, STATE_WISHED_BY_THEN)

AT_A_LATER_TIME = NoAction("Sorry, I can't do that at a later time yet.")
ON_A_CONDITION = NoAction("I can't do that on a condition yet.")


def _any_of(words) -> str:
    return "|".join(map(re.escape, words))


_LATER = re.compile(rf"\b(?:{'|'.join(LATER_TIMES)})(?![\w'])")
# a condition after the request's first words: "when" that opens a request asks ("when did the light go off")
_CONDITION = re.compile(rf"\s(?:{_any_of(LATER_CONDITIONS)}) (?:{_any_of(LATER_CONDITION_SUBJECTS)})(?![\w'])")
_WISHED = re.compile(rf"\b(?:{_any_of(STATE_WISHED_BY_THEN)})\b")
_REMARK = re.compile(rf"(?<![\w'])(?:{_any_of(SPEAKER_REMARK_SUBJECTS)})(?![\w'])")
_CLAUSE_ENDS = re.compile(r"[,;:.!?]+(?:\s|$)")


def not_now(said: str) -> NoAction | None:
    """What to say instead of making a change the request's words put later: on a condition Parley cannot know, or
    at a time to come; None for a change asked now. Each clause is read alone, its time or condition only where no
    remark's subject comes before it."""
    clauses = [normalize_request(clause) for clause in _CLAUSE_ENDS.split(said)]
    for clause in clauses:
        condition = _CONDITION.search(clause)
        if condition and not _REMARK.search(clause[:condition.start()]) \
                and not _WISHED.search(clause[:condition.start()]):
            return ON_A_CONDITION
    for clause in clauses:
        later = _LATER.search(clause)
        if later and not _REMARK.search(clause[:later.start()]):
            return AT_A_LATER_TIME
    return None


TOO_FAR_AHEAD = NoAction("Sorry, I can only schedule a change up to 24 hours ahead.")
TOO_MANY_SCHEDULED = NoAction(f"Sorry, I can only keep {MAX_SCHEDULED} changes scheduled at once.")
TOO_MANY_HERE = NoAction("Sorry, too many changes are scheduled on this server; try again later.")
TOO_MANY_THINGS = NoAction("Sorry, that's too many things to schedule at once.")
NOT_FOR_LATER = NoAction("Sorry, I can only schedule changes to the home.")
_TAIL = rf"(?: (?:{_any_of(SCHEDULED_TAILS)}))*$"
_AT = [re.compile(form + _TAIL) for form in (SCHEDULED_DELAY, *SCHEDULED_CLOCK)]
# a bare hour, read only after a request that opens with its switch off ("switch off the chapel lamp at 7")
_BARE_HOUR = re.compile(SCHEDULED_BARE_HOUR + _TAIL)
_OFF_FIRST = re.compile(rf"^(?:please )?(?:{_any_of(SCHEDULED_OFF_FIRST_VERBS)}) off ")
# an hour of 1 to 12, read only after a request that opens with its switch on ("switch on the lounge lamp at 7")
_ON_FIRST_HOUR = re.compile(SCHEDULED_ON_FIRST_HOUR + _TAIL)
_ON_FIRST = re.compile(rf"^(?:please )?(?:{_any_of(SCHEDULED_ON_FIRST_VERBS)}) on ")
_NOT_SAID = re.compile(rf"\b(?:{_any_of(SCHEDULED_NOT_SAID)})\b")


@dataclass(frozen=True)
class Later:
    """A request's time to come, read from its words: the request without it (rest), the seconds from now (None:
    past SCHEDULED_AHEAD_S) and the clock time it falls on, as said back ("14:35")."""
    rest: str
    seconds: float | None
    clock: str


def scheduled_for(said: str, now: dt.datetime | None = None) -> Later | None:
    """The time to come a request's last words put it at ("in 10 minutes", "at 7 pm", "at half past six", "on at
    7", "switch off the lamp at 7", "switch on the lamp at 7"), or None: no such time, or one on a day said ("tomorrow at 7"), which stays
    refused (not_now)."""
    request = normalize_request(said)
    now = now or dt.datetime.now()
    bare_hours = [_BARE_HOUR] if _OFF_FIRST.match(request) else [_ON_FIRST_HOUR] if _ON_FIRST.match(request) else []
    for form in [*_AT, *bare_hours]:
        found = form.search(request)
        if found is None:
            continue
        rest = request[:found.start()].strip()
        if not rest or _NOT_SAID.search(rest) or not_now(rest) is not None:
            return None
        when = _when(found.groupdict(), now)
        if when is None:
            return None
        seconds = (when - now).total_seconds()
        return Later(rest, seconds if 0 < seconds <= SCHEDULED_AHEAD_S else None, f"{when:%H:%M}")
    return None


def _when(said: dict, now: dt.datetime) -> dt.datetime | None:
    """The moment a delay or a clock time said falls on: a clock time's next one (an hour of 1 to 12 said with no
    am or pm is the sooner of its morning and evening)."""
    if said.get("seconds"):
        try:
            return now + dt.timedelta(seconds=float(said["seconds"]))
        except OverflowError:                # "in 10^308 minutes": past any bound, refused as too far ahead
            return dt.datetime.max
    if said.get("noon"):
        hours = [12 if said["noon"] == "noon" else 0]
        minute = 0
    else:
        hour, minute, period = int(said["hour"]), int(said.get("minute") or 0), (said.get("period") or "").replace(" ", "")
        if hour > 23 or minute > 59 or period in ("am", "pm") and not 1 <= hour <= 12:
            return None
        if period == "am":
            hours = [hour % 12]
        elif period == "pm":
            hours = [hour % 12 + 12]
        else:
            hours = [hour % 12, hour % 12 + 12] if 1 <= hour <= 12 else [hour]
    moments = []
    for hour in hours:
        moment = now.replace(hour=hour, minute=minute, second=0, microsecond=0)
        moments.append(moment if moment > now else moment + dt.timedelta(days=1))
    return min(moments)


_LISTED = re.compile(rf"^(?:{_any_of(SCHEDULED_LISTED)})$")
_CANCELLED = re.compile(rf"^(?:{_any_of(SCHEDULED_CANCEL_VERBS)}) the (?P<what>[a-z0-9' ]+?) (?:one|1|change)$")


def scheduled_asked(said: str, after_scheduling: bool) -> tuple[str, str] | None:
    """A request about the changes scheduled: ("list", ""), ("cancel", "") for the ones the last reply scheduled
    ("cancel that" right after it), ("cancel", words of what it does) for "cancel the kitchen light one"; else None."""
    request = " ".join(re.findall(r"[a-z0-9']+", normalize_request(said)))
    if _LISTED.match(request):
        return "list", ""
    if after_scheduling and request in SCHEDULED_JUST_MADE:
        return "cancel", ""
    found = _CANCELLED.match(request)
    return ("cancel", found["what"]) if found else None
