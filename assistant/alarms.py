"""Requests about alarms and about what rings, read by code from the words (assistant.vocabulary's tables):
cancelling or listing alarms, snoozing or stopping what just rang, and a request dropped ("never mind")."""
import re

from assistant.spoken_numbers import normalize_request
from assistant.vocabulary import (ALARM_CANCEL_VERBS, ALARM_EVERY, ALARM_QUESTIONS, DISMISSALS, SNOOZE_WORDS,
                                  STOP_RINGING)

_POLITE = re.compile(r"^(?:(?:please|hey parley|parley|ok|okay|can you|could you|would you) )+|(?: please| thanks)+$")
_CLOCK = r"(?P<hour>\d{1,2})(?:(?::| )(?P<minute>\d{2}))?(?: (?P<period>am|pm|o'clock))?"
_ALL = "|".join(re.escape(w) for w in ALARM_EVERY)
ALARM_CANCELLED = re.compile(
    rf"^(?:{'|'.join(re.escape(v) for v in ALARM_CANCEL_VERBS)}) (?P<every>(?:{_ALL}) )?(?:(?:the|my|our) )?"
    rf"(?:{_CLOCK} )?(?:alarm|alarms)(?: (?:for|at) {_CLOCK.replace('?P<', '?P<at_')})?(?: (?:off|too))?$")
# seconds of at most 15 digits: a longer run is no number to read (past 4,300 digits int() refuses it)
SNOOZED = re.compile(r"^snooze(?: (?:it|that|the alarm|the timer))? (?:for )?(?P<seconds>\d{1,15}) seconds$")


def _said(text: str) -> str:
    return _POLITE.sub("", normalize_request(text)).strip()


def alarm_call(text: str, ringing: bool) -> dict | None:
    """The call a request about alarms or about what rings asks for: cancel_alarm, list_alarms, snooze_alarm
    (what rang), stop_ringing (only while something rings); None for any other request."""
    said = _said(text)
    if said in ALARM_QUESTIONS:
        return {"name": "list_alarms", "arguments": {}}
    if ringing and (said in STOP_RINGING or said in DISMISSALS):
        return {"name": "stop_ringing", "arguments": {}}
    if said in SNOOZE_WORDS:
        return {"name": "snooze_alarm", "arguments": {}}
    if (snoozed := SNOOZED.match(said)) is not None:
        return {"name": "snooze_alarm", "arguments": {"minutes": max(1, round(int(snoozed["seconds"]) / 60))}}
    cancelled = ALARM_CANCELLED.match(said)
    if cancelled is None:
        return None
    arguments = {"which": "all" if cancelled["every"] or said.endswith("alarms") and not cancelled["hour"]
                 and not cancelled["at_hour"] else "one"}
    hour, minute, period = (cancelled["hour"], cancelled["minute"], cancelled["period"]) if cancelled["hour"] else \
        (cancelled["at_hour"], cancelled["at_minute"], cancelled["at_period"])
    if hour:
        arguments["hour"] = int(hour)
        arguments["minute"] = int(minute or 0)
        if period in ("am", "pm"):
            arguments["period"] = period
    return {"name": "cancel_alarm", "arguments": arguments}


def dismissed(text: str, timers_running: int) -> bool:
    """A request that drops what was in hand ("never mind", "stop" while nothing rings): "Okay.", no call.
    (A bare "cancel" while a timer or an alarm runs is about that: not dropped.)"""
    said = _said(text)
    return said in DISMISSALS and not (said == "cancel" and timers_running)
