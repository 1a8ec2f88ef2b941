"""The time in another place and the date of a day named: the words read by code (assistant.clock), the answers
from the system's zone data, and whole turns through the assistant and /v1/realtime."""
import datetime as dt
import re

import pytest

from assistant.clock import clock_call, clock_heard, date_of, time_in
from assistant.generator import respond_sync
from assistant.skills import (ACTIONS, CHANGES_THE_HOME, MODEL_SKILLS, NOT_CHANGES, SKILLS, SWITCHING, TIMER_SKILLS,
                              valid_call)
from assistant.tools import ToolRunner
from realtime_client import RealtimeClient
from test_home_voice import spoken, typed

MONDAY = dt.date(2026, 12, 7)
NOON_UTC = dt.datetime(2026, 12, 7, 14, 45, tzinfo=dt.timezone.utc)


@pytest.mark.parametrize("said, call", [
    ("What time is it in Tokyo?", ("get_time", {"place": "tokyo"})),
    ("what's the time in New York", ("get_time", {"place": "new york"})),
    ("what time is it in australia right now", ("get_time", {"place": "australia"})),
    ("what time is it in Narnia", ("get_time", {"place": "narnia"})),
    ("What day is it tomorrow?", ("get_date", {"day": "tomorrow"})),
    ("what's tomorrow's date", ("get_date", {"day": "tomorrow"})),
    ("what was the date yesterday", ("get_date", {"day": "yesterday"})),
    ("what's the date on Friday", ("get_date", {"day": "friday"})),
    ("what day is Christmas this year", ("get_date", {"day": "christmas"})),
    ("what day does christmas fall on", ("get_date", {"day": "christmas"})),
    ("how many days until Christmas", ("get_date", {"day": "christmas"})),
    ("How many days till New Year's Eve?", ("get_date", {"day": "new year's eve"})),
    ("what time is it", None),                       # the time here and today's date: the model's, as before
    ("what day is it", None),
    ("what's the date today", None),
    ("what time is it in the kitchen", None),        # a room, the house, here: the time here
    ("what time is it in the house", None),
    ("what time is it in here", None),
    ("turn on the christmas lights", None),
    ("set a timer for 5 minutes", None),
])
def test_the_time_in_a_place_and_the_date_of_a_day_are_read_from_the_words(said, call):
    made = clock_call(said)
    assert (made and (made["name"], made["arguments"])) == (call or None)
    assert made is None or valid_call(made)


@pytest.mark.parametrize("place, said", [
    ("tokyo", "It's 11:45 PM in Tokyo."),
    ("new york", "It's 9:45 AM in New York."),
    ("uk", "It's 2:45 PM in the UK."),
    ("sydney", "It's 1:45 AM on Tuesday in Sydney."),          # another day there: its weekday
    ("the us", "The US has several time zones: it's 9:45 AM in New York and 6:45 AM in Los Angeles."),
    ("australia", "Australia has several time zones: it's 1:45 AM on Tuesday in Sydney and 10:45 PM in Perth."),
    ("narnia", "Sorry, I don't know the time in Narnia."),
])
def test_the_time_in_a_place_is_said_from_its_zone(place, said):
    assert time_in(place, NOON_UTC) == said


@pytest.mark.parametrize("day, today, said", [
    ("tomorrow", MONDAY, "Tomorrow is Tuesday, December 8."),
    ("yesterday", MONDAY, "Yesterday was Sunday, December 6."),
    ("the day after tomorrow", MONDAY, "The day after tomorrow is Wednesday, December 9."),
    ("friday", MONDAY, "Friday is December 11."),
    ("monday", MONDAY, "Today is Monday, December 7."),
    ("christmas", MONDAY, "Christmas is on Friday, December 25, in 18 days."),
    ("christmas", dt.date(2026, 12, 24), "Christmas is tomorrow, Friday, December 25."),
    ("christmas", dt.date(2026, 12, 25), "Today is Christmas, Friday, December 25."),
    ("halloween", MONDAY, "Halloween is on Sunday, October 31, 2027, in 328 days."),     # passed: next year's
    ("new year's day", MONDAY, "New Year's Day is on Friday, January 1, 2027, in 25 days."),
])
def test_the_date_of_a_day_named_is_the_coming_one(day, today, said):
    assert date_of(day, today) == said


def test_every_zone_of_the_tables_is_in_the_systems_zone_data():
    assert all(time_in(place, NOON_UTC).startswith(("It's", place[0].upper() + place[1:])) for place in
               ("london", "sao paulo", "são paulo", "hong kong", "buenos aires", "brazil", "russia", "mexico",
                "canada"))


def test_the_new_arguments_join_no_map_of_the_registry():
    assert {"get_time", "get_date"} <= NOT_CHANGES & MODEL_SKILLS
    assert not {"get_time", "get_date"} & (SWITCHING | TIMER_SKILLS | CHANGES_THE_HOME)
    assert SKILLS["get_time"].optional == {"place"} and SKILLS["get_date"].optional == {"day", "date"}
    assert not {"tomorrow", "friday", "christmas", "tokyo"} & set(ACTIONS)
    assert valid_call({"name": "get_time", "arguments": {}}) and valid_call({"name": "get_date", "arguments": {}})


async def test_the_runner_answers_the_model_and_code_calls_alike():
    tools = ToolRunner()
    assert re.fullmatch(r"\d{1,2}:\d{2} [AP]M", await tools.run("get_time", {}))
    assert re.fullmatch(r"It's \d{1,2}:\d{2} [AP]M( on \w+day)? in Tokyo\.", await tools.run("get_time",
                                                                                         {"place": "Tokyo"}))
    tomorrow = dt.date.today() + dt.timedelta(days=1)
    assert await tools.run("get_date", {"day": "tomorrow"}) == f"Tomorrow is {tomorrow:%A}, {tomorrow:%B} {tomorrow.day}."


async def test_a_spoken_question_for_a_days_date_is_answered():
    """ "how many days until christmas" has no word of READS_HEARD_BY: the day heard says what is read."""
    tools = ToolRunner()
    tools.spoken, tools.heard = True, "how many days until christmas"
    assert (await tools.run("get_date", {"day": "christmas"})).startswith(("Christmas is", "Today is Christmas"))
    tools.heard = "turn on the christmas lights"       # the model's get_date with no day still needs a word of a date
    assert await tools.run("get_date", {}) == "Sorry, I didn't catch that."


@pytest.mark.parametrize("heard, doubted, stands", [
    ("what time is it in Tokyo", frozenset(), True),
    ("how many days until christmas", frozenset(), True),
    ("what time is it in Tokyo", frozenset({"tokyo"}), False),          # the place a guess
    ("What's the date on Friday?", frozenset({"friday"}), False),      # the day a guess
    ("when is christmas", frozenset({"when"}), False),                 # a word of the question a guess
    ("what time is it in Narnia", frozenset(), False),                 # a place the tables lack: misheard, likelier
])
def test_a_heard_clock_read_stands_only_on_words_the_recogniser_was_sure_of_and_a_known_place(heard, doubted, stands):
    assert clock_heard(clock_call(heard), heard, doubted) is stands


def _one(assistant, text: str, tools: ToolRunner | None = None):
    return respond_sync(assistant, [{"role": "user", "content": text}], tools or ToolRunner())


def _heard(doubted: frozenset[str] = frozenset()) -> ToolRunner:
    tools = ToolRunner()
    tools.spoken, tools.doubted_words = True, doubted
    return tools


def test_through_the_assistant_a_heard_clock_read_on_a_doubted_word_or_an_unknown_place_goes_to_the_model(assistant):
    """Heard, an unknown place or a doubted day is no clock read: the model's call as before, never "I don't know
    the time in ..." for a place that may have been misheard, nor the date of a day that may not have been said."""
    reply = _one(assistant, "what time is it in Tokyo", _heard())
    assert [(c.name, c.arguments) for c in reply.tool_calls] == [("get_time", {"place": "tokyo"})]
    for text, doubted in (("what time is it in Narnia", frozenset()), ("what's the date on Friday", {"friday"}),
                          ("what time is it in Tokyo", {"tokyo"})):
        reply = _one(assistant, text, _heard(frozenset(doubted)))
        assert all(not c.arguments for c in reply.tool_calls) and "Narnia" not in reply.text
        assert not reply.text.startswith("Friday is")


def test_through_the_assistant_the_time_elsewhere_and_a_days_date_are_answered(assistant):
    reply = _one(assistant, "what time is it in Tokyo")
    assert [(c.name, c.arguments) for c in reply.tool_calls] == [("get_time", {"place": "tokyo"})]
    assert re.fullmatch(r"It's \d{1,2}:\d{2} [AP]M( on \w+day)? in Tokyo\.", reply.text)
    assert _one(assistant, "what time is it in Narnia").text == "Sorry, I don't know the time in Narnia."
    tomorrow = dt.date.today() + dt.timedelta(days=1)
    assert _one(assistant, "what day is it tomorrow").text == \
        f"Tomorrow is {tomorrow:%A}, {tomorrow:%B} {tomorrow.day}."
    reply = _one(assistant, "how many days until Christmas")
    assert [c.name for c in reply.tool_calls] == ["get_date"] and reply.text.startswith(("Christmas", "Today is"))
    reply = _one(assistant, "what time is it")                        # the time here: unchanged, the model's call
    assert [(c.name, c.arguments) for c in reply.tool_calls] == [("get_time", {})]
    assert re.fullmatch(r"It's \d{1,2}:\d{2} [AP]M\.", reply.text)


@pytest.mark.usefixtures("needs_assistant")
async def test_through_the_realtime_endpoint_the_time_in_new_york_is_said(server_factory):
    server = server_factory()
    client = await RealtimeClient.connect(server.ws_url)
    await client.wait_for("session.created")
    assert re.fullmatch(r"It's \d{1,2}:\d{2} [AP]M( on \w+day)? in New York\.",
                        spoken(await typed(client, "what's the time in New York")))
    friday = spoken(await typed(client, "what's the date on Friday"))
    assert re.fullmatch(r"(Friday is \w+ \d{1,2}|Today is Friday, \w+ \d{1,2})\.", friday)
    await client.close()
