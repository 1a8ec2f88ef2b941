"""Requests about alarms and about what rings, read by code from the words (assistant.vocabulary's tables):
cancelling or listing alarms, snoozing or stopping what just rang, and a request dropped ("never mind")."""
import re

from assistant.chat_template import content_text
from assistant.conversation import ANSWER_HEAD, ANSWER_TAIL, FILLERS, calls_of_history
from assistant.phrasings import any_of
from assistant.skills import TIMER_SKILLS
from assistant.spoken_numbers import normalize_request
from assistant.tools import CHOICE_QUESTION, LIST_CHANGES
from assistant.vocabulary import (ALARM_ANSWER_WORDS, ALARM_BEFORE_WORDS, ALARM_CANCEL_VERBS, ALARM_EVERY,
                                  ALARM_QUESTIONS, ALL_CHOICES, ANOTHER_ALARM_OPENERS, ANOTHER_ALARM_WORDS,
                                  CANCEL_REFERENCES, CHOICE_PLACES, DISMISSALS, LIST_UNDO_OPENERS, SNOOZE_WORDS,
                                  STOP_RINGING)

_POLITE = re.compile(r"^(?:(?:please|hey parley|parley|ok|okay|can you|could you|would you) )+|(?: please| thanks)+$")
_CLOCK = r"(?P<hour>\d{1,2})(?:(?::| )(?P<minute>\d{2}))?(?: (?P<period>am|pm|o'clock))?"
_ALL = "|".join(re.escape(w) for w in ALARM_EVERY)
ALARM_CANCELLED = re.compile(
    rf"^(?:{'|'.join(re.escape(v) for v in ALARM_CANCEL_VERBS)}) (?P<every>(?:{_ALL}) )?(?:(?:the|my|our) )?"
    rf"(?:{_CLOCK} )?(?:alarm|alarms)(?: (?:for|at) {_CLOCK.replace('?P<', '?P<at_')})?(?: (?:off|too))?$")
CANCEL_REFERRED = re.compile(rf"^(?:(?:{any_of(LIST_UNDO_OPENERS)}) )*(?:{any_of(CANCEL_REFERENCES)})$")
# the calls a cancel said of "it" may take back: timers, alarms and list changes (CANCEL_REFERENCES)
CANCELLABLE = TIMER_SKILLS | LIST_CHANGES | {"set_alarm", "cancel_alarm"}
ANOTHER_ALARM = re.compile(rf"^(?:(?:{any_of(LIST_UNDO_OPENERS)})[, ]+)*(?:(?:{any_of(ANOTHER_ALARM_OPENERS)}) )?"
                           rf"(?:{any_of(ANOTHER_ALARM_WORDS)}) alarm (?P<when>.+?)[.!?]*$")
# the time of one more alarm as the normaliser writes it: a clock time, or seconds after the newest alarm
ALARM_AT = re.compile(rf"^(?:at|for) {_CLOCK}$")
ALARM_AFTER = re.compile(rf"^(?:for |at )?(?P<seconds>\d{{1,6}}) seconds (?:after|later than) "
                         rf"(?:{any_of(ALARM_BEFORE_WORDS)})$")
# an alarm's time as the question of which one says it ("6:45 AM"), and as an answer says it ("7", "6 45 am")
_ASKED_TIME = re.compile(r"(?P<hour>\d{1,2}):(?P<minute>\d{2}) (?P<period>AM|PM)")
_SAID_TIME = re.compile(r"(?P<hour>\d{1,2})(?: (?P<minute>\d{2}))?(?: (?P<period>am|pm))?")
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


def alarm_referred(history: list[dict]) -> dict | None:
    """ "actually cancel it" where the newest timer, alarm or list change of the conversation set an alarm: that alarm
    cancelled, at the time it was set for. None for other words, or when something else is newest (a timer's own
    reading takes it, or the list's undo), so a cancel never reaches past the newest such thing to an older one."""
    if not history or history[-1].get("role") != "user" or \
            CANCEL_REFERRED.match(_said(content_text(history[-1]))) is None:
        return None
    newest = next((call for call in reversed(calls_of_history(history[:-1])) if call["name"] in CANCELLABLE), None)
    if newest is None or newest["name"] != "set_alarm":
        return None
    set_for = newest["arguments"]
    return {"name": "cancel_alarm", "arguments": {"which": "one", **{key: set_for[key] for key in
                                                                     ("hour", "minute", "period") if key in set_for}}}


def another_alarm(history: list[dict]) -> dict | None:
    """ "and a second alarm at ten past six" after an alarm was set: set_alarm at the time said; "another alarm for
    ten minutes after that one": that long after the newest alarm the conversation set. None where the conversation
    set no alarm, or the words say no time of one of those two shapes."""
    if not history or history[-1].get("role") != "user":
        return None
    said = ANOTHER_ALARM.match(" ".join(content_text(history[-1]).lower().replace("please", " ").split()))
    if said is None:
        return None
    newest = next((call for call in reversed(calls_of_history(history[:-1])) if call["name"] == "set_alarm"), None)
    if newest is None:
        return None
    when = normalize_request(said["when"])
    if (at := ALARM_AT.match(when)) is not None:
        arguments = {"hour": int(at["hour"]), "minute": int(at["minute"] or 0)}
        return {"name": "set_alarm", "arguments": arguments | ({"period": at["period"]} if at["period"] in ("am", "pm")
                                                               else {})}
    after = ALARM_AFTER.match(when)
    set_for = newest["arguments"]
    if after is None or int(after["seconds"]) % 60 or not all(isinstance(set_for.get(key), int)
                                                               for key in ("hour", "minute")):
        return None
    period = set_for.get("period")
    hour = set_for["hour"] % 12 + (12 if period == "pm" else 0) if period in ("am", "pm") else set_for["hour"]
    hour, minute = divmod((hour * 60 + set_for["minute"] + int(after["seconds"]) // 60) % (24 * 60), 60)
    if period in ("am", "pm"):
        return {"name": "set_alarm", "arguments": {"hour": hour % 12 or 12, "minute": minute,
                                                   "period": "am" if hour < 12 else "pm"}}
    return {"name": "set_alarm", "arguments": {"hour": hour, "minute": minute}}


def dismissed(text: str, timers_running: int) -> bool:
    """A request that drops what was in hand ("never mind", "stop" while nothing rings): "Okay.", no call.
    (A bare "cancel" while a timer or an alarm runs is about that: not dropped.)"""
    said = _said(text)
    return said in DISMISSALS and not (said == "cancel" and timers_running)


def alarm_choice_answered(history: list[dict]) -> list[dict]:
    """The cancel_alarm calls an answer ("the 7 o'clock one", "6 45", "the second", "both") to the assistant's "Which
    one: the alarm at 6:45 AM or 7:00 AM?" asks: one for each alarm of the question it picks, by its time or its
    place. None ([]) when the last turn asked no such question of a cancel_alarm call, or the answer picks no alarm
    of it, or several where it says no "both"."""
    if len(history) < 3 or history[-1].get("role") != "user" or history[-2].get("role") != "assistant":
        return []
    question = CHOICE_QUESTION.match(content_text(history[-2]))
    if question is None:
        return []
    request = max((i for i, message in enumerate(history[:-1]) if message.get("role") == "user"), default=0)
    made = calls_of_history(history[:-1])
    asking = [call for call, turn in zip(made, made.turns) if turn > request]      # the calls of the reply that asked
    if len(asking) != 1 or asking[0]["name"] != "cancel_alarm":
        return []
    choices = [(int(m["hour"]), int(m["minute"]), m["period"].lower())
               for m in _ASKED_TIME.finditer(question.group("choices"))]
    answer = ANSWER_TAIL.sub("", ANSWER_HEAD.sub("", FILLERS.sub("", _said(content_text(history[-1])))))
    words = " ".join(word for word in answer.split() if word not in ALARM_ANSWER_WORDS)
    said = _SAID_TIME.fullmatch(words)
    minute = said and (said["minute"] or ("0" if "o'clock" in answer.split() else None))
    if answer in ALL_CHOICES or words in ALL_CHOICES:
        chosen = choices
    elif words in CHOICE_PLACES and CHOICE_PLACES[words] < len(choices):
        chosen = [choices[CHOICE_PLACES[words]]]
    elif said is not None:
        chosen = [(hour, m, period) for hour, m, period in choices
                  if hour % 12 == int(said["hour"]) % 12 and (minute is None or m == int(minute))
                  and said["period"] in (None, period)]
    else:
        chosen = []
    if len(chosen) != 1 and not (chosen and (answer in ALL_CHOICES or words in ALL_CHOICES)):
        return []
    return [{"name": "cancel_alarm", "arguments": {"which": "one", "hour": hour, "minute": minute, "period": period}}
            for hour, minute, period in chosen]
