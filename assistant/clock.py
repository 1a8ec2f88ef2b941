"""The time in another place and the date of a day named, read by code from the words (assistant.vocabulary's
tables: the shipped checkpoint never learnt them), and answered from the system's zone data (zoneinfo)."""
import datetime as dt
import re
from zoneinfo import ZoneInfo

from assistant.phrasings import any_of as _any_of
from assistant.skills import DAYS_NAMED
from assistant.spoken_numbers import normalize_request
from assistant.vocabulary import (AMBIENT_PLACES, DATE_ASKED, DATE_ASKED_AFTER, DATE_OF_ASKED, DATE_OWNED_WORDS,
                                  DAY_ORDINALS, DAYS_FROM_TODAY, DWELLING_WORDS, EASTER_HOLIDAYS, FIXED_HOLIDAYS,
                                  MONTH_NAMES, ORDINAL_TENS, OTHER_ROOM_WORDS, PLACE_ZONES, ROOMS, SEVERAL_ZONES,
                                  SEVERAL_ZONES_CITIES, TIME_ASKED, WEEKDAY_HOLIDAYS, WEEKDAY_NAMES)

_PLACES = {place.lower().removeprefix("the "): place for place in (*PLACE_ZONES, *SEVERAL_ZONES)}   # "the uk", "uk"
_ZONES = {**PLACE_ZONES, **SEVERAL_ZONES_CITIES}
# a room of a home, or here and there: the time asked there is the time here, and stays with the model
_HOME_PLACES = frozenset({word for words in ROOMS.values() for word in words} | OTHER_ROOM_WORDS | set(AMBIENT_PLACES)
                         | set(DWELLING_WORDS))
_OWNER = re.compile(r"^(?:the|my|our|this|your) ")
_POLITE = re.compile(r"^(?:(?:please|hey parley|parley|ok|okay|so|and|can you|could you|would you) )+|"
                     r"(?: please| thanks| thank you)+$")


_TIME_IN = re.compile(rf"^(?:{_any_of(TIME_ASKED)}) (?:over )?in (?P<place>[a-zà-ÿ' .-]+?)(?: right now| now)?$")
_DAY = rf"(?P<day>{_any_of(DAYS_NAMED)})"
_DATE_OF = re.compile(rf"^(?:{_any_of(DATE_ASKED)}) (?:on |for )?(?:(?:this|next|the|this coming|coming) )?{_DAY}"
                      rf"(?: (?:{_any_of(DATE_ASKED_AFTER)}))?$")
_DATE_OWNED = re.compile(rf"^(?:{_any_of(DATE_OF_ASKED)}) {_DAY}'s date$")
# a date said by its number, as the normaliser writes it ("the 3 rd of may", "march 14 th", "the 20 fifth of june")
_ORDINAL = (rf"(?:(?P<number>[12]?\d|3[01])(?: ?(?:st|nd|rd|th))?|"
            rf"(?:(?P<tens>20|30|{_any_of(ORDINAL_TENS)}) )?(?P<ordinal>{_any_of(DAY_ORDINALS)}))")
_MONTH = rf"(?P<month>{_any_of(MONTH_NAMES)})"
_DATE = rf"(?:(?:the )?{_ORDINAL} (?:of )?{_MONTH}|{(_MONTH + ' (?:the )?' + _ORDINAL).replace('?P<', '?P<m_')})"
_DATE_SAID = re.compile(rf"^(?:{_any_of(DATE_ASKED)}) (?:on |for )?(?:(?:{_any_of(DATE_OWNED_WORDS)}),? "
                        rf"(?:on |which is |is )?)?{_DATE}(?: (?:{_any_of(DATE_ASKED_AFTER)}))?$")
_ORDINAL_NUMBERS = {word: i for i, word in enumerate(("first", "second", "third", "fourth", "fifth", "sixth",
                                                      "seventh", "eighth", "ninth", "tenth", "eleventh", "twelfth",
                                                      "thirteenth", "fourteenth", "fifteenth", "sixteenth",
                                                      "seventeenth", "eighteenth", "nineteenth", "twentieth"), 1)}
_ORDINAL_NUMBERS["thirtieth"] = 30


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
    if dated is not None:
        return {"name": "get_date", "arguments": {"day": dated["day"]}}
    numbered = _DATE_SAID.match(said)
    date = _date_read(numbered) if numbered is not None else None
    return {"name": "get_date", "arguments": {"date": date}} if date is not None else None


def _date_read(match: re.Match) -> str | None:
    """The date a match of _DATE says, as get_date's date takes it ("may 3"); None for no day of its month (a leap
    year's February has 29)."""
    def part(name: str) -> str | None:
        return match[name] if match[name] is not None else match["m_" + name]
    month = part("month")
    if part("number") is not None:
        day = int(part("number"))
    else:
        tens = {"20": 20, "twenty": 20, "30": 30, "thirty": 30}.get(part("tens") or "", 0)
        day = tens + _ORDINAL_NUMBERS[part("ordinal")]
        if tens and _ORDINAL_NUMBERS[part("ordinal")] > 9:
            return None
    try:
        dt.date(2000, MONTH_NAMES.index(month) + 1, day)
    except ValueError:
        return None
    return f"{month} {day}"


def dates_in(heard: str) -> set[str]:
    """The dates said by number in words heard, as get_date's date takes them: a date the model or code read
    stands as heard when it is one of them (tools.ToolRunner's heard check)."""
    return {date for match in re.finditer(_DATE, normalize_request(heard)) if (date := _date_read(match))}


def clock_heard(call: dict, heard: str, doubted: frozenset[str]) -> bool:
    """Whether a heard request stands as the clock read call (clock_call's): the recogniser doubted no word of it
    (Heard.doubted_words) and its place is one the tables know. Else it goes on to the model and ToolRunner's heard
    check, as typed words never do: a word misheard on a phone line can make "what time is it in ..." of another
    request, and an unknown place there is more likely a mishearing than a city the tables lack."""
    place = call["arguments"].get("place")
    return not set(re.findall(r"[a-z0-9']+", heard.lower())) & doubted and (place is None or known_place(place))


def known_place(place: str) -> bool:
    """Whether the tables know the time of a place ("the UK", "tokyo")."""
    return place.lower().strip().removeprefix("the ") in _PLACES


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
    date, spoken = _holiday(day, today.year)
    if date < today:
        date = _holiday(day, today.year + 1)[0]
    ahead = (date - today).days
    said = date_said(date) + (f", {date.year}" if date.year != today.year else "")
    if ahead == 0:
        return f"Today is {spoken}, {said}."
    spoken = spoken[0].upper() + spoken[1:]
    return f"{spoken} is tomorrow, {said}." if ahead == 1 else f"{spoken} is on {said}, in {ahead} days."


def _holiday(day: str, year: int) -> tuple[dt.date, str]:
    """A holiday's date in a year, by its table's rule, and its name as said back."""
    if day in EASTER_HOLIDAYS:
        after, spoken = EASTER_HOLIDAYS[day]
        return easter(year) + dt.timedelta(days=after), spoken
    if day in WEEKDAY_HOLIDAYS:
        month, weekday, nth, spoken = WEEKDAY_HOLIDAYS[day]
        return nth_weekday(year, month, WEEKDAY_NAMES.index(weekday), nth), spoken
    month, day_of_month, spoken = FIXED_HOLIDAYS[day]
    return dt.date(year, month, day_of_month), spoken      # no holiday of the table is a 29th of February


def easter(year: int) -> dt.date:
    """Easter Sunday of a year of the Gregorian calendar (the anonymous Gregorian computus)."""
    golden = year % 19
    century, of_century = divmod(year, 100)
    leap_centuries, century_left = divmod(century, 4)
    moon_lag = (century - (century + 8) // 25 + 1) // 3
    epact = (19 * golden + century - leap_centuries - moon_lag + 15) % 30
    weekday = (32 + 2 * century_left + 2 * (of_century // 4) - epact - of_century % 4) % 7
    shift = (golden + 11 * epact + 22 * weekday) // 451
    month, day = divmod(epact + weekday - 7 * shift + 114, 31)
    return dt.date(year, month, day + 1)


def nth_weekday(year: int, month: int, weekday: int, nth: int) -> dt.date:
    """The nth weekday (Monday 0) of a month; nth -1 the last."""
    if nth < 0:
        last = dt.date(year + month // 12, month % 12 + 1, 1) - dt.timedelta(days=1)
        return last - dt.timedelta(days=(last.weekday() - weekday) % 7)
    first = dt.date(year, month, 1)
    return first + dt.timedelta(days=(weekday - first.weekday()) % 7 + 7 * (nth - 1))


def date_on(date: str, today: dt.date) -> str:
    """The weekday of a date said by its number ("may 3"), said: "May 3 is a Monday, in 147 days." The coming one
    (today's when it is today; a 29th of February the next leap year's); a date not so written (a remote model's
    words), said not known."""
    said = re.fullmatch(rf"{_MONTH} (?P<number>\d{{1,2}})", date.lower().strip())
    read = _date_read(said) if said is not None else None
    if read is None:
        return f"Sorry, I don't know the date {date.strip()}."
    month_name, day_of_month = read.split()
    month, day_of_month = MONTH_NAMES.index(month_name) + 1, int(day_of_month)
    year = today.year
    while True:
        try:
            when = dt.date(year, month, day_of_month)
        except ValueError:          # a 29th of February outside a leap year
            year += 1
            continue
        if when >= today:
            break
        year += 1
    ahead = (when - today).days
    said = f"{when:%B} {when.day}" + (f", {when.year}," if when.year != today.year else "")
    if ahead == 0:
        return f"Today is {date_said(when)}."
    return f"{said} is tomorrow, {when:%A}." if ahead == 1 else f"{said} is a {when:%A}, in {ahead} days."
