"""Dates said by number, holidays whose date moves, and the time or date asked again ("and in London?"): read by
code (assistant.clock, assistant.conversation.clock_asked_again) from a fixed date, and whole turns through the
assistant and /v1/realtime."""
import datetime as dt
import re

import pytest

from assistant.clock import clock_call, clock_heard, date_of, date_on, easter, nth_weekday
from assistant.conversation import clock_asked_again
from assistant.generator import respond_sync
from assistant.skills import ACTIONS, SKILLS, valid_call
from assistant.tools import ToolRunner
from realtime_client import RealtimeClient
from test_home_voice import spoken, typed

MONDAY = dt.date(2026, 12, 7)


@pytest.mark.parametrize("said, arguments", [
    ("What day is the 3rd of May?", {"date": "may 3"}),
    ("what day of the week is March 14th", {"date": "march 14"}),
    ("how many days until the 25th of december", {"date": "december 25"}),
    ("how many days until my birthday on June 3rd", {"date": "june 3"}),
    ("what day is the twenty first of june", {"date": "june 21"}),
    ("when is may the 3rd", {"date": "may 3"}),
    ("what day is february 29th", {"date": "february 29"}),
    ("when is Easter", {"day": "easter"}),
    ("how many days until thanksgiving", {"day": "thanksgiving"}),
    ("when is mother's day", {"day": "mother's day"}),
    ("what day is memorial day", {"day": "memorial day"}),
    ("when is labor day this year", {"day": "labor day"}),
    ("what's the date a week from today", {"day": "a week from today"}),
    ("what day is february 30th", None),                  # no such day
    ("what day is the 40th of may", None),
    ("turn on the easter lights", None),
    ("set a timer for the 3rd of may", None),
])
def test_a_date_said_by_number_and_a_movable_holiday_are_read_from_the_words(said, arguments):
    made = clock_call(said)
    assert (made and made["arguments"]) == arguments
    assert made is None or made["name"] == "get_date" and valid_call(made)


@pytest.mark.parametrize("year, sunday", [(2024, (3, 31)), (2025, (4, 20)), (2026, (4, 5)), (2027, (3, 28)),
                                          (2038, (4, 25)), (2000, (4, 23)), (1961, (4, 2)), (2285, (3, 22))])
def test_easter_is_the_gregorian_computus(year, sunday):
    assert easter(year) == dt.date(year, *sunday) and easter(year).weekday() == 6


def test_the_nth_and_last_weekday_of_a_month():
    assert nth_weekday(2026, 11, 3, 4) == dt.date(2026, 11, 26)        # Thanksgiving 2026
    assert nth_weekday(2027, 5, 0, -1) == dt.date(2027, 5, 31)         # Memorial Day 2027: the 31st itself
    assert nth_weekday(2026, 12, 0, -1) == dt.date(2026, 12, 28)       # the last Monday of December
    assert nth_weekday(2027, 9, 0, 1) == dt.date(2027, 9, 6)


@pytest.mark.parametrize("day, today, said", [
    ("easter", MONDAY, "Easter is on Sunday, March 28, 2027, in 111 days."),
    ("good friday", MONDAY, "Good Friday is on Friday, March 26, 2027, in 109 days."),
    ("mothering sunday", MONDAY, "Mothering Sunday is on Sunday, March 7, 2027, in 90 days."),
    ("thanksgiving", MONDAY, "Thanksgiving is on Thursday, November 25, 2027, in 353 days."),
    ("thanksgiving", dt.date(2026, 11, 1), "Thanksgiving is on Thursday, November 26, in 25 days."),
    ("thanksgiving", dt.date(2026, 11, 26), "Today is Thanksgiving, Thursday, November 26."),
    ("mother's day", MONDAY, "Mother's Day is on Sunday, May 9, 2027, in 153 days."),
    ("father's day", MONDAY, "Father's Day is on Sunday, June 20, 2027, in 195 days."),
    ("memorial day", MONDAY, "Memorial Day is on Monday, May 31, 2027, in 175 days."),
    ("labor day", MONDAY, "Labor Day is on Monday, September 6, 2027, in 273 days."),
    ("easter", dt.date(2027, 3, 27), "Easter is tomorrow, Sunday, March 28."),
    ("a week from today", MONDAY, "A week from today is Monday, December 14."),
])
def test_a_movable_holiday_is_the_coming_one_by_its_rule(day, today, said):
    assert date_of(day, today) == said


@pytest.mark.parametrize("date, said", [
    ("may 3", "May 3, 2027, is a Monday, in 147 days."),
    ("december 25", "December 25 is a Friday, in 18 days."),
    ("december 8", "December 8 is tomorrow, Tuesday."),
    ("december 7", "Today is Monday, December 7."),
    ("february 29", "February 29, 2028, is a Tuesday, in 449 days."),       # the next leap year's
    ("june 31", "Sorry, I don't know the date june 31."),                  # a remote model's date not a day
    ("2027-05-03", "Sorry, I don't know the date 2027-05-03."),
])
def test_a_date_said_by_number_is_said_with_its_weekday(date, said):
    assert date_on(date, MONDAY) == said


def _asked(call: dict, said: str) -> list[dict]:
    return [{"role": "user", "content": "..."}, {"role": "assistant", "content": "...", "tool_calls": [call]},
            {"role": "user", "content": said}]


TOKYO = {"name": "get_time", "arguments": {"place": "tokyo"}, "call_id": "c1"}
TOMORROW = {"name": "get_date", "arguments": {"day": "tomorrow"}, "call_id": "c1"}


@pytest.mark.parametrize("call, said, whole", [
    (TOKYO, "and in London?", "what time is it in london"),
    (TOKYO, "what about Paris", "what time is it in paris"),
    (TOKYO, "how about the UK then", "what time is it in the uk"),
    (TOMORROW, "and on Saturday?", "what's the date on saturday"),
    (TOMORROW, "what about Easter", "what's the date on easter"),
    (TOMORROW, "and the 3rd of may", "what's the date on the 3 rd of may"),
    (TOKYO, "and in the kitchen?", None),                      # a room: the time here, the model's
    (TOKYO, "what about the kitchen light", None),
    (TOKYO, "and on Saturday?", None),                         # a day after a time: no read asked again
    (TOMORROW, "and in London?", None),
    ({"name": "set_device", "arguments": {"device": "light", "room": "kitchen", "state": "on"}, "call_id": "c1"},
     "and in London?", None),
])
def test_the_time_or_a_date_asked_again_is_the_same_read_of_the_place_or_day_said(call, said, whole):
    assert clock_asked_again(_asked(call, said)) == whole


async def test_a_heard_date_said_by_number_is_answered_only_as_heard():
    tools = ToolRunner()
    tools.spoken, tools.heard = True, "what day is the third of may"
    assert (await tools.run("get_date", {"date": "may 3"})).startswith("May 3")
    tools.heard = "turn on the lights in may"          # no word of a date (READS_HEARD_BY), nor a date said
    assert await tools.run("get_date", {"date": "may 3"}) == "Sorry, I didn't catch that."
    said = "what day is the 3rd of may"
    assert clock_heard(clock_call(said), said, frozenset()) is True
    assert clock_heard(clock_call(said), said, frozenset({"may"})) is False      # the month a guess


def test_the_date_argument_joins_no_map_of_the_registry():
    assert SKILLS["get_date"].optional == {"day", "date"}
    assert not {"easter", "thanksgiving", "mother's day", "may"} & set(ACTIONS)
    assert "date" in SKILLS["get_date"].schema()["parameters"]["properties"]


def test_through_the_assistant_a_follow_up_asks_the_time_elsewhere(assistant):
    tools = ToolRunner()
    history = [{"role": "user", "content": "what time is it in Tokyo"}]
    reply = respond_sync(assistant, history, tools)
    history.append({"role": "assistant", "content": reply.text,
                    "tool_calls": [{"name": c.name, "arguments": c.arguments, "call_id": c.call_id}
                                   for c in reply.tool_calls]})
    history.append({"role": "user", "content": "and in London?"})
    reply = respond_sync(assistant, history, tools)
    assert [(c.name, c.arguments) for c in reply.tool_calls] == [("get_time", {"place": "london"})]
    assert re.fullmatch(r"It's \d{1,2}:\d{2} [AP]M( on \w+day)? in London\.", reply.text)
    reply = respond_sync(assistant, [{"role": "user", "content": "how many days until thanksgiving"}], tools)
    assert [(c.name, c.arguments) for c in reply.tool_calls] == [("get_date", {"day": "thanksgiving"})]
    assert reply.text.startswith(("Thanksgiving is", "Today is Thanksgiving"))


@pytest.mark.usefixtures("needs_assistant")
async def test_through_the_realtime_endpoint_a_date_and_a_follow_up_are_said(server_factory):
    server = server_factory()
    client = await RealtimeClient.connect(server.ws_url)
    await client.wait_for("session.created")
    assert re.fullmatch(r"It's \d{1,2}:\d{2} [AP]M( on \w+day)? in Tokyo\.",
                        spoken(await typed(client, "what time is it in Tokyo")))
    assert re.fullmatch(r"It's \d{1,2}:\d{2} [AP]M( on \w+day)? in London\.",
                        spoken(await typed(client, "and in London?")))
    weekday = spoken(await typed(client, "what day of the week is March 14th"))
    assert re.fullmatch(r"(March 14(, \d{4},)? is (a \w+day, in \d+ days|tomorrow, \w+day)|Today is \w+day, March 14)\.",
                        weekday)
    saturday = spoken(await typed(client, "and on Saturday?"))
    assert re.fullmatch(r"(Saturday is \w+ \d{1,2}|Today is Saturday, \w+ \d{1,2})\.", saturday)
    await client.close()
