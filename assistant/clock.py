"""The time in another place and the date of a day named, read by code from the words (assistant.vocabulary's
tables: the shipped checkpoint never learnt them), and answered from the system's zone data (zoneinfo)."""
import datetime as dt
import re
from zoneinfo import ZoneInfo

from assistant.skills import DAYS_NAMED
from assistant.spoken_numbers import normalize_request
from assistant.vocabulary import (AMBIENT_PLACES, DATE_ASKED, DATE_ASKED_AFTER, DATE_OF_ASKED, DAYS_FROM_TODAY,
                                  DWELLING_WORDS, FIXED_HOLIDAYS, OTHER_ROOM_WORDS, PLACE_ZONES, ROOMS, SEVERAL_ZONES,
                                  SEVERAL_ZONES_CITIES, TIME_ASKED, WEEKDAY_NAMES)

_PLACES = {place.lower().removeprefix("the "): place for place in (*PLACE_ZONES, *SEVERAL_ZONES)}   # "the uk", "uk"
_ZONES = {**PLACE_ZONES, **SEVERAL_ZONES_CITIES}
# a room of a home, or here and there: the time asked there is the time here, and stays with the model
_HOME_PLACES = frozenset({word for words in ROOMS.values() for word in words} | OTHER_ROOM_WORDS | set(AMBIENT_PLACES)
                         | set(DWELLING_WORDS))
_OWNER = re.compile(r"^(?:the|my|our|this|your) ")
_POLITE = re.compile(r"^(?:(?:please|hey parley|parley|ok|okay|so|and|can you|could you|would you) )+|"
                     r"(?: please| thanks| thank you)+$")


def _any_of(words) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


_TIME_IN = re.compile(rf"^(?:{_any_of(TIME_ASKED)}) (?:over )?in (?P<place>[a-zà-ÿ' .-]+?)(?: right now| now)?$")
_DAY = rf"(?P<day>{_any_of(DAYS_NAMED)})"
_DATE_OF = re.compile(rf"^(?:{_any_of(DATE_ASKED)}) (?:on |for )?(?:(?:this|next|the|this coming|coming) )?{_DAY}"
                      rf"(?: (?:{_any_of(DATE_ASKED_AFTER)}))?$")
_DATE_OWNED = re.compile(rf"^(?:{_any_of(DATE_OF_ASKED)}) {_DAY}'s date$")


def _said(text: str) -> str:
    return _POLITE.sub("", normalize_request(text)).strip()


def clock_call(text: str) -> dict | None:
    """The call a whole request for the time in a place ("what time is it in Tokyo": get_time place) or for the
    date of a day named ("what day is it tomorrow", "how many days until Christmas": get_date day) asks for; None
    for any other request, and for the time in a room or here (the time here: the model's)."""
    said = _said(text)
    timed = _TIME_IN.match(said)
    if timed is not None:
        place = timed["place"].strip()
        if place in _HOME_PLACES or _OWNER.sub("", place) in _HOME_PLACES:
            return None
        return {"name": "get_time", "arguments": {"place": place}}
    dated = _DATE_OF.match(said) or _DATE_OWNED.match(said)
    return {"name": "get_date", "arguments": {"day": dated["day"]}} if dated is not None else None


def clock_heard(call: dict, heard: str, doubted: frozenset[str]) -> bool:
    """Whether a heard request stands as the clock read call (clock_call's): the recogniser doubted no word of it
    (Heard.doubted_words) and its place is one the tables know. Else it goes on to the model and ToolRunner's heard
    check, as typed words never do: a word misheard on a phone line can make "what time is it in ..." of another
    request, and an unknown place there is more likely a mishearing than a city the tables lack."""
    place = call["arguments"].get("place")
    return not set(re.findall(r"[a-z0-9']+", heard.lower())) & doubted and \
        (place is None or place.lower().strip().removeprefix("the ") in _PLACES)


def clock_said(moment: dt.datetime) -> str:
    """A time as Parley says it: "2:45 PM"."""
    return moment.strftime("%I:%M %p").lstrip("0")


def date_said(day: dt.date) -> str:
    """A date as Parley says it: "Monday, December 7"."""
    return f"{day:%A}, {day:%B} {day.day}"


def time_in(place: str, now: dt.datetime) -> str:
    """The time in a place, said: "It's 11:45 PM in Tokyo." (with its weekday where that is not today's here); a
    place of several zones in two of its cities; a place not known, said so. now: the time here, with its zone."""
    named = _PLACES.get(place.lower().strip().removeprefix("the "))
    if named is None:
        return f"Sorry, I don't know the time in {place.strip().title()}."
    def there(city: str) -> str:
        moment = now.astimezone(ZoneInfo(_ZONES[city]))
        weekday = f" on {moment:%A}" if moment.date() != now.date() else ""
        return f"{clock_said(moment)}{weekday} in {city}"

    if named in SEVERAL_ZONES:
        first, second = SEVERAL_ZONES[named]
        return f"{named[0].upper() + named[1:]} has several time zones: it's {there(first)} and {there(second)}."
    return f"It's {there(named)}."


def date_of(day: str, today: dt.date) -> str:
    """The date of a day named, said: "Tomorrow is Tuesday, December 8.", "Friday is December 11.", "Christmas is
    on Friday, December 25, in 18 days." A weekday or a holiday is the coming one (today's when it is today)."""
    if day in DAYS_FROM_TODAY:
        offset = DAYS_FROM_TODAY[day]
        verb = "was" if offset < 0 else "is"
        return f"{day[0].upper() + day[1:]} {verb} {date_said(today + dt.timedelta(days=offset))}."
    if day in WEEKDAY_NAMES:
        ahead = (WEEKDAY_NAMES.index(day) - today.weekday()) % 7
        if ahead == 0:
            return f"Today is {date_said(today)}."
        coming = today + dt.timedelta(days=ahead)
        return f"{day.capitalize()} is {coming:%B} {coming.day}."
    month, day_of_month, spoken = FIXED_HOLIDAYS[day]
    date = dt.date(today.year, month, day_of_month)      # no holiday of the table is a 29th of February
    if date < today:
        date = date.replace(year=today.year + 1)
    ahead = (date - today).days
    said = date_said(date) + (f", {date.year}" if date.year != today.year else "")
    if ahead == 0:
        return f"Today is {spoken}, {said}."
    spoken = spoken[0].upper() + spoken[1:]
    return f"{spoken} is tomorrow, {said}." if ahead == 1 else f"{spoken} is on {said}, in {ahead} days."
