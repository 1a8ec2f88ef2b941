"""A level said beside a switch ("turn the punkah on at half speed", "the arc lamp on at half") sets the level, and a
conversion goes the way its words say ("in kilometres, what would 10 miles be": miles to kilometres), through the whole
assistant (normaliser, model, checks, code's readings, tools) in the default, made-up and discovered homes, each
request alone."""
import pytest

from assistant.generator import respond_sync
from assistant.home import InMemoryHome
from assistant.tools import ToolRunner
from discovered_home import discovered_inventory
from made_up_home import made_up_inventory

HOMES = {"default": lambda: None, "made_up": lambda: InMemoryHome(inventory=made_up_inventory()),
         "discovered": lambda: InMemoryHome(inventory=discovered_inventory())}


def calls(assistant, home: str, request: str) -> list[tuple[str, dict]]:
    """The calls the assistant makes for request, said alone in home, names as said (spaces, not underscores)."""
    reply = respond_sync(assistant, [{"role": "user", "content": request}], ToolRunner(HOMES[home]()))
    return [(c.name, {k: v.replace("_", " ") if k == "name" else v for k, v in c.arguments.items()})
            for c in reply.tool_calls]


@pytest.mark.parametrize("home, request_, name, percent", [
    ("made_up", "turn the punkah on at half speed", "punkah", 50),             # was switched on only
    ("made_up", "put the whirlwind fan on at half speed", "whirlwind fan", 50),
    ("made_up", "turn on the drying fan at full speed", "drying fan", 100),
    ("made_up", "turn the punkah on full", "punkah", 100),
    ("made_up", "switch on the tiffany lamp at full brightness", "tiffany lamp", 100),
    ("made_up", "turn the arc lamp on at half", "arc lamp", 50),
    ("made_up", "turn the arc lamp on to full", "arc lamp", 100),
    ("discovered", "turn the belvedere fan on at half speed", "belvedere fan", 50),
    ("discovered", "turn the belvedere fan on full speed", "belvedere fan", 100),
    ("made_up", "turn the punkah on, half speed please", "punkah", 50),        # the level said in a clause of its own
    ("made_up", "arc lamp on please, full brightness", "arc lamp", 100),
    ("discovered", "belvedere fan on, full speed, it's boiling", "belvedere fan", 100),  # was all its area's fans on
])
def test_a_level_said_beside_a_switch_sets_the_level(assistant, home, request_, name, percent):
    assert calls(assistant, home, request_) == [("set_level", {"name": name, "percent": percent})]


@pytest.mark.parametrize("request_", [
    "turn the living room fan on at half speed",        # was switched on only: the default home's fan has no speed
    "turn on the living room fan at full speed",
    "set the living room fan to 50 percent",            # was the living room lights at 50 percent
    "living room fan on, half speed please",            # was all the living room's fans on
])
def test_a_level_the_default_homes_fan_lacks_is_not_dropped_nor_given_to_the_lights(assistant, request_):
    assert calls(assistant, "default", request_) == []


@pytest.mark.parametrize("home, request_, call", [
    ("made_up", "turn the punkah on", ("switch_device", {"name": "punkah", "state": "on"})),
    ("made_up", "turn the arc lamp on at 40 percent", ("set_level", {"name": "arc lamp", "percent": 40})),
    ("default", "turn the bedroom light on at half brightness", ("set_brightness", {"room": "bedroom", "percent": 50})),
    ("default", "turn on the office lights to half", ("set_brightness", {"room": "office", "percent": 50})),
])
def test_a_switch_or_a_level_said_plainly_is_as_before(assistant, home, request_, call):
    assert calls(assistant, home, request_) == [call]


@pytest.mark.parametrize("request_, value, from_, to", [
    ("in kilometres, what would 10 miles be", 10, "mile", "km"),        # was kilometres to miles
    ("kilometres please, 26 miles", 26, "mile", "km"),
    ("to miles, convert 5 kilometres", 5, "km", "mile"),
    ("into celsius, 100 fahrenheit please", 100, "fahrenheit", "celsius"),
    ("10 miles in kilometres", 10, "mile", "km"),
    ("how many inches are in 2 feet", 2, "ft", "inch"),
    ("in pounds, how much is 5 kilograms", 5, "kg", "lb"),
    ("what's 20 celsius as fahrenheit", 20, "celsius", "fahrenheit"),
])
def test_a_conversion_goes_the_way_its_words_say(assistant, request_, value, from_, to):
    assert calls(assistant, "default", request_) == [("convert", {"value": value, "from": from_, "to": to})]
