"""Tools: the safe calculator, unit conversion, and the words that fill the reply's {result} slot."""
import asyncio
import re

import pytest

from assistant.home import InMemoryHome
from assistant.tools import CalculationError, ToolRunner, calculate, timer_done_text
from assistant.vocabulary import convert


@pytest.mark.parametrize("expression, value", [
    ("12*7", 84), ("3+4*2", 11), ("(3+4)*2", 14), ("100/4", 25), ("-3*-(2+1)/4", 2.25), ("2.5*4", 10),
    (" 7 - 10 ", -3), ("20*80/100", 16),
])
def test_calculator_evaluates_arithmetic(expression, value):
    assert calculate(expression) == pytest.approx(value)


@pytest.mark.parametrize("expression", [
    "__import__('os')", "2**10", "abs(3)", "1+", "(1+2", "1/0", "", "2 3", "x*2", "1e5", "[1]",
])
def test_calculator_rejects_anything_but_arithmetic(expression):
    with pytest.raises(CalculationError):
        calculate(expression)


@pytest.mark.parametrize("value, src, dst, want", [
    (5, "km", "mile", 3.10686), (1, "mile", "ft", 5280), (12, "inch", "cm", 30.48), (1, "kg", "lb", 2.20462),
    (16, "oz", "g", 453.592), (100, "celsius", "fahrenheit", 212), (98.6, "fahrenheit", "celsius", 37),
    (1, "gallon", "cup", 16), (1, "liter", "ml", 1000),
])
def test_unit_conversion(value, src, dst, want):
    assert convert(value, src, dst) == pytest.approx(want, rel=1e-4)


def test_conversion_between_unrelated_units_is_refused():
    with pytest.raises(ValueError):
        convert(1, "kg", "mile")


async def test_tool_results_fill_the_slot():
    home = InMemoryHome()
    tools = ToolRunner(home)
    assert await tools.run("set_device", {"device": "light", "room": "kitchen", "state": "on"}) == "on"
    assert home.devices[("light", "kitchen")] == "on"
    assert await tools.run("set_brightness", {"room": "office", "percent": 40}) == "40 percent"
    assert home.brightness["office"] == 40
    assert await tools.run("set_thermostat", {"degrees": 72.5}) == "72.5 degrees"
    assert home.thermostat == 72.5
    assert await tools.run("read_sensor", {"room": "kitchen", "kind": "temperature"}) == "20 degrees"
    assert await tools.run("calculate", {"expression": "7*6"}) == "42"
    assert await tools.run("convert", {"value": 5, "from": "km", "to": "mile"}) == "3.11 miles"
    assert re.fullmatch(r"\d{1,2}:\d\d [AP]M", await tools.run("get_time", {}))
    assert re.fullmatch(r"[A-Z][a-z]+day, [A-Z][a-z]+ \d{1,2}", await tools.run("get_date", {}))


async def test_timers_are_set_and_cancelled():
    tools = ToolRunner()
    assert await tools.run("set_timer", {"seconds": 5400}) == "1 hour and 30 minutes"
    assert await tools.run("set_timer", {"seconds": 45}) == "45 seconds"
    assert await tools.run("cancel_timer", {}) == "your 2 timers are cancelled"
    assert await tools.run("cancel_timer", {}) == "there was no timer running"


async def test_a_due_timer_rings_once_and_a_cancelled_one_never():
    tools, rang = ToolRunner(), []
    tools.on_ring = rang.append
    await tools.run("set_timer", {"seconds": 1})
    await tools.run("set_timer", {"seconds": 2})
    await asyncio.sleep(1.3)
    assert rang == [1] and [t.seconds for t in tools.timers] == [2]
    assert await tools.run("cancel_timer", {}) == "your timer is cancelled"
    await asyncio.sleep(1.0)
    assert rang == [1] and tools.timers == []
    assert timer_done_text(90) == "Time is up: your timer for 1 minute and 30 seconds is done."


async def test_bad_calls_get_a_spoken_refusal_not_an_exception():
    tools = ToolRunner()
    assert await tools.run("set_device", {"device": "oven", "room": "kitchen", "state": "on"}) == "not possible with those details"
    assert await tools.run("calculate", {"expression": "__import__('os')"}) == "not something I can calculate"
    assert await tools.run("launch_rocket", {}) == "not something I can do"
    assert await tools.run("set_timer", {}) == "not possible with those details"


async def test_unconfirmed_device_is_reported():
    class SilentHome(InMemoryHome):
        async def set_device(self, device, room, state):
            return None
    tools = ToolRunner(SilentHome())
    assert await tools.run("set_device", {"device": "fan", "room": "garage", "state": "off"}) == "not responding"
