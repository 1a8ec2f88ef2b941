"""Tools: the safe calculator, unit conversion, and the words that fill the reply's {result} slot."""
import asyncio
import json
import re

import pytest

from assistant.chat_template import NoAction, asks_how_things_are, fill_result
from assistant.home import InMemoryHome
from assistant.tools import (NOT_A_SKILL, NOT_CALCULABLE, NOT_POSSIBLE, CalculationError, ToolRunner, asks,
                             calculate, said_back, states_without_a_switch, stepped_level, timer_done_text)
from assistant.vocabulary import convert
from discovered_home import discovered_inventory
from made_up_home import made_up_inventory


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


@pytest.mark.parametrize("said, value, result", [
    ("convert minus 5 celsius to fahrenheit", -5, "23 degrees fahrenheit"),
    ("what's -40 c in f", -40, "-40 degrees fahrenheit"),
    ("and negative 10", -10, "14 degrees fahrenheit"),
    ("convert 5 celsius to fahrenheit", 5, "41 degrees fahrenheit"),
])
async def test_a_number_said_below_zero_keeps_its_sign(said, value, result):
    """The model writes a conversion's number without its sign; the words say it, and the call run says it too."""
    tools = ToolRunner(InMemoryHome())
    tools.begin_reply([{"role": "user", "content": said}])
    call = {"value": abs(value), "from": "celsius", "to": "fahrenheit"}
    assert await tools.run("convert", call) == result
    assert call["value"] == value


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
    tools.on_ring = lambda seconds, text: rang.append(seconds)
    await tools.run("set_timer", {"seconds": 1})
    await tools.run("set_timer", {"seconds": 2})
    await asyncio.sleep(1.3)
    assert rang == [1] and [t.seconds for t in await tools.timer_book.pending()] == [2]
    assert await tools.run("cancel_timer", {}) == "your timer is cancelled"
    await asyncio.sleep(1.0)
    assert rang == [1] and await tools.timer_book.pending() == [] and tools.timers_running == 0
    assert timer_done_text(90) == "Time is up: your timer for 1 minute and 30 seconds is done."


async def test_bad_calls_get_a_spoken_refusal_not_an_exception():
    tools = ToolRunner()
    assert await tools.run("set_device", {"device": "oven", "room": "kitchen", "state": "on"}) == NOT_POSSIBLE
    assert await tools.run("calculate", {"expression": "__import__('os')"}) == NOT_CALCULABLE
    assert await tools.run("launch_rocket", {}) == NOT_A_SKILL
    assert await tools.run("set_timer", {}) == NOT_POSSIBLE
    assert await tools.run("convert", {"value": 2, "from": "ft", "to": "ft"}) == NOT_POSSIBLE
    # a refusal is the whole reply, never words inside the model's "Okay, the thermostat is set to {result}."
    assert fill_result("Okay, the thermostat is set to {result}.", await tools.run("set_thermostat", {"degrees": 350})) \
        == "Sorry, that isn't possible with those details."
    assert fill_result("Okay, the thermostat is set to {result}.", await tools.run("set_thermostat", {"degrees": 70})) \
        == "Okay, the thermostat is set to 70 degrees."


async def test_unconfirmed_device_is_reported():
    class SilentHome(InMemoryHome):
        async def set_device(self, device, room, state):
            return None
    tools = ToolRunner(SilentHome())
    assert await tools.run("set_device", {"device": "fan", "room": "garage", "state": "off"}) == "not responding"


def _home_of_my_own():
    from assistant.inventory import Inventory
    inventory = Inventory()
    entities = [
        ("light", "lamp_a", {"name": "Lamp", "command_topic": "a", "device": {"name": "Bedroom", "suggested_area": "Bedroom"}}),
        ("light", "lamp_b", {"name": "Reading Lamp", "command_topic": "b", "device": {"suggested_area": "Den"}}),
        ("fan", "fan", {"name": "Ceiling Fan", "command_topic": "c", "device": {"suggested_area": "Den"}}),
        ("cover", "garage", {"name": "Garage Door", "device_class": "garage", "command_topic": "g"}),
        ("cover", "blinds", {"name": "Blinds", "command_topic": "bl", "device": {"suggested_area": "Nursery"}}),
        ("lock", "front", {"name": "Front Door", "command_topic": "l"}),
        ("scene", "movie", {"name": "Movie Time", "command_topic": "s"}),
        ("sensor", "temp", {"name": "Nursery Temperature", "device_class": "temperature", "state_topic": "t",
                            "unit_of_measurement": "°C"}),
    ]
    for component, key, fields in entities:
        inventory.receive_discovery(f"homeassistant/{component}/{key}/config", json.dumps(fields))
    home = InMemoryHome(inventory=inventory)
    home.states["sensor/temp"] = "22.5"
    return home


async def test_brighter_and_dimmer_step_from_the_level_the_light_reports():
    tools = ToolRunner()
    await tools.run("set_brightness", {"room": "kitchen", "percent": 40})
    assert await tools.run("change_brightness", {"room": "kitchen", "direction": "up"}) == "65 percent"
    assert await tools.run("change_brightness", {"room": "kitchen", "direction": "down"}) == "40 percent"
    await tools.run("set_device", {"device": "light", "room": "office", "state": "on"})    # its level never said
    assert await tools.run("change_brightness", {"room": "office", "direction": "down"}) == "75 percent"
    assert await tools.run("change_brightness", {"room": "office", "direction": "sideways"}) == NOT_POSSIBLE
    assert (stepped_level(90, "up"), stepped_level(20, "down"), stepped_level(3, "down"), stepped_level(0, "up")) == \
        (100, 5, 3, 25)
    tools = ToolRunner(_home_of_my_own())
    await tools.run("set_level", {"name": "reading_lamp", "percent": 10})
    assert await tools.run("change_level", {"name": "reading_lamp", "direction": "up"}) == \
        "Okay, the reading lamp is at 35 percent."
    assert await tools.run("change_level", {"name": "lamp", "direction": "down"}) == \
        "Which one: the bedroom lamp or the reading lamp?"
    assert await tools.run("change_level", {"name": "ceiling_fan", "direction": "up"}) == \
        "Okay, the ceiling fan is at 25 percent."           # a fan steps its speed from off


async def test_a_fan_takes_a_speed_in_percent_and_says_it():
    """ "set the ceiling fan to half speed", "a notch faster", "slower": its speed (Home Assistant's
    fan.set_percentage); 0 percent switches it off."""
    tools = ToolRunner(_home_of_my_own())
    assert await tools.run("set_level", {"name": "ceiling_fan", "percent": 50}) == \
        "Okay, the ceiling fan is at 50 percent."
    assert (tools.home.states["fan/fan"], await tools.home.read_level(tools.home.inventory.get("fan/fan"))) == ("on", 50)
    assert await tools.run("change_level", {"name": "ceiling_fan", "direction": "up"}) == \
        "Okay, the ceiling fan is at 75 percent."
    assert await tools.run("change_level", {"name": "fan", "area": "den", "direction": "down"}) == \
        "Okay, the ceiling fan is at 50 percent."
    assert await tools.run("set_level", {"name": "ceiling_fan", "percent": 0}) == "Okay, the ceiling fan is off."
    assert tools.home.states["fan/fan"] == "off"
    default = ToolRunner()                          # the default home's fans, by their room
    assert await default.run("set_level", {"name": "garage_fan", "percent": 100}) == \
        "Okay, the garage fan is at 100 percent."
    assert default.home.devices[("fan", "garage")] == "on"


async def test_a_thing_the_home_has_asked_what_its_kind_cannot_do_says_what_it_can():
    """Never "I don't know a device called ..." for a thing the home has (that reply is for names it lacks): a sensor
    switched, a lock dimmed, each named with what it can do (a fan without a speed: test_mqtt_discovery)."""
    tools = ToolRunner(_home_of_my_own())
    assert await tools.run("switch_device", {"name": "nursery_temperature", "state": "on"}) == \
        "The nursery temperature can only be read."
    assert await tools.run("set_level", {"name": "front_door", "percent": 20}) == \
        "The front door can only be locked or unlocked."
    assert await tools.run("set_lock", {"name": "movie_time", "action": "lock"}) == "Movie time can only be run."
    assert await tools.run("activate_scene", {"name": "blinds"}) == "The blinds can only be opened, closed or stopped."
    assert await tools.run("set_level", {"name": "barn_door", "percent": 20}) == \
        "I don't know a device called the barn door."


async def test_a_kind_in_the_plural_in_an_area_switches_every_one_of_that_kind_there():
    """ "the den lights" when the den has two lights: both, as "all the lights in the den" would; without an area,
    or with one light of the kind there, the name is one device's (or asks which one)."""
    from assistant.inventory import Inventory
    inventory = Inventory()
    for key, name, component in [("lamp", "Reading Lamp", "light"), ("strip", "Shelf Strip", "light"),
                                 ("fan", "Desk Fan", "fan"), ("porch", "Porch Lamp", "light")]:
        area = "Porch" if key == "porch" else "Den"
        inventory.receive_discovery(f"homeassistant/{component}/{key}/config", json.dumps(
            {"name": name, "command_topic": key, "device": {"suggested_area": area}}))
    tools = ToolRunner(InMemoryHome(inventory=inventory))
    assert await tools.run("switch_device", {"name": "lights", "area": "den", "state": "on"}) == \
        "Okay, 2 lights in the den are on."
    assert await tools.run("get_state", {"name": "desk_fan"}) == "The desk fan is off."
    assert isinstance(await tools.run("switch_device", {"name": "lights", "state": "on"}), NoAction)
    assert await tools.run("switch_device", {"name": "lamps", "area": "porch", "state": "on"}) == \
        "Okay, the porch lamp is on."


async def test_a_cover_verb_on_a_switch_switches_it():
    """To the model a name is a slot: "stop the ceiling fan" is set_cover, and the runner switches the fan."""
    home = _home_of_my_own()
    tools = ToolRunner(home)
    await tools.run("switch_device", {"name": "ceiling_fan", "state": "on"})
    assert await tools.run("set_cover", {"name": "ceiling_fan", "action": "stop"}) == "Okay, the ceiling fan is off."
    assert await tools.run("set_cover", {"name": "ceiling_fan", "action": "open"}) == "Okay, the ceiling fan is on."
    assert await tools.run("set_cover", {"name": "blinds", "action": "close"}) == "Okay, the blinds are closed."
    assert isinstance(await tools.run("set_cover", {"name": "dishwasher", "action": "close"}), NoAction)


async def test_devices_of_the_users_own_home_by_name():
    home = _home_of_my_own()
    tools = ToolRunner(home)
    assert await tools.lexicon() is not None and await ToolRunner().lexicon() is None
    assert await tools.run("switch_device", {"name": "reading_lamp", "state": "on"}) == "Okay, the reading lamp is on."
    assert await tools.run("switch_device", {"name": "lamp", "state": "on"}) == \
        "Which one: the bedroom lamp or the reading lamp?"
    assert await tools.run("switch_device", {"name": "lamp", "area": "bedroom", "state": "on"}) == \
        "Okay, the bedroom lamp is on."
    assert await tools.run("switch_device", {"name": "dishwasher", "state": "on"}) == \
        "I don't know a device called the dishwasher."
    assert await tools.run("switch_device", {"name": "lamp", "area": "attic", "state": "on"}) == \
        "I don't know an area called the attic."
    assert await tools.run("get_state", {"name": "bedroom_lamp"}) == "The bedroom lamp is on."
    assert await tools.run("get_state", {"name": "temperature", "area": "nursery"}) == \
        "The nursery temperature is 22.5 degrees."
    assert await tools.run("set_level", {"name": "reading_lamp", "percent": 30}) == \
        "Okay, the reading lamp is at 30 percent."
    assert await tools.run("switch_all", {"name": "everything", "area": "den", "state": "off"}) == \
        "Okay, 2 devices in the den are off."
    assert await tools.run("get_state", {"name": "ceiling_fan"}) == "The ceiling fan is off."
    assert await tools.run("set_cover", {"name": "blinds", "action": "open"}) == "Okay, the blinds are open."
    assert await tools.run("activate_scene", {"name": "movie_time"}) == "Okay, movie time is on."
    assert home.states["scene/movie"] == "activated"


async def test_unlocking_and_opening_the_garage_wait_for_a_spoken_yes():
    home = _home_of_my_own()
    tools = ToolRunner(home)
    assert await tools.run("set_lock", {"name": "front_door", "action": "lock"}) == "Okay, the front door is locked."
    assert await tools.run("set_lock", {"name": "front_door", "action": "unlock"}) == \
        "Do you want me to unlock the front door? Say yes to confirm."
    assert home.states["lock/front"] == "locked"
    assert await tools.run("confirm", {"answer": "yes"}) == "Say yes to confirm."     # the reply that asked
    assert home.states["lock/front"] == "locked"
    tools.begin_reply([{"role": "user", "content": "Yes, go ahead."}])                # the user's next turn
    assert await tools.run("confirm", {"answer": "yes"}) == "Okay, the front door is unlocked."
    assert await tools.run("confirm", {"answer": "yes"}) == "There is nothing waiting for a yes."
    assert await tools.run("set_cover", {"name": "garage_door", "action": "open"}) == \
        "Do you want me to open the garage door? Say yes to confirm."
    tools.begin_reply([{"role": "user", "content": "what time is it"}])
    assert await tools.run("get_time", {})                      # another request: the question lapses
    assert await tools.run("confirm", {"answer": "yes"}) == "There is nothing waiting for a yes."
    assert await tools.run("set_cover", {"name": "garage_door", "action": "open"})
    tools.begin_reply([{"role": "user", "content": "no don't"}])
    assert await tools.run("confirm", {"answer": "no"}) == "Okay, I'll leave the garage door as it is."
    assert await tools.run("set_cover", {"name": "garage_door", "action": "open"})
    tools.begin_reply([{"role": "user", "content": "don't do it"}])        # a model's yes to the user's no
    assert await tools.run("confirm", {"answer": "yes"}) == "Okay, I'll leave the garage door as it is."
    assert home.states.get("cover/garage") is None
    assert await tools.run("set_cover", {"name": "garage_door", "action": "close"}) == "Okay, the garage door is closed."


async def test_the_default_home_answers_state_questions_and_groups():
    home = InMemoryHome()
    tools = ToolRunner(home)
    await tools.run("set_device", {"device": "light", "room": "kitchen", "state": "on"})
    assert await tools.run("get_state", {"name": "light", "area": "kitchen"}) == "The kitchen light is on."
    assert await tools.run("switch_all", {"name": "light", "state": "off"}) == "Okay, 7 lights are off."
    assert home.devices[("light", "kitchen")] == "off"
    assert await tools.run("switch_all", {"name": "everything", "area": "office", "state": "on"}) == \
        "Okay, 7 devices in the office are on."


async def test_named_timers_and_alarms():
    tools, rang = ToolRunner(), []
    tools.on_ring = lambda seconds, text: rang.append(text)
    assert await tools.run("start_timer", {"name": "pasta", "seconds": 720}) == "Okay, your pasta timer is set for 12 minutes."
    assert await tools.run("start_timer", {"name": "tea", "seconds": 1}) == "Okay, your tea timer is set for 1 second."
    assert await tools.run("timer_left", {"name": "pasta"}) in ("There's 12 minutes on the pasta timer.",
                                                               "There's 11 minutes and 59 seconds on the pasta timer.")
    assert (await tools.run("timer_left", {})).endswith("on the pasta timer.")
    await asyncio.sleep(1.2)
    assert rang == ["Time is up: your tea timer is done."]
    assert await tools.run("stop_timer", {"name": "pasta"}) == "Okay, the pasta timer is cancelled."
    assert await tools.run("stop_timer", {"name": "pasta"}) == "There is no pasta timer."
    said = await tools.run("set_alarm", {"hour": 6, "minute": 45, "period": "am"})
    assert said == "Okay, your alarm is set for 6:45 AM."
    assert [t.alarm for t in await tools.timer_book.pending() if t.alarm] == ["6:45 AM"]
    assert re.fullmatch(r"Okay, your alarm is set for 7:05 [AP]M\.", await tools.run("set_alarm", {"hour": 7, "minute": 5}))
    assert await tools.run("set_alarm", {"hour": 25, "minute": 0}) == NOT_POSSIBLE
    assert await tools.run("set_alarm", {"hour": 7.3, "minute": 0}) == NOT_POSSIBLE    # "7.30": ask, not 7:00
    said = await tools.run("set_alarm", {"hour": 645, "minute": 0, "period": "am"})     # Whisper's "645"
    assert said == "Okay, your alarm is set for 6:45 AM."
    assert await tools.run("set_alarm", {"hour": 675, "minute": 0}) == NOT_POSSIBLE


async def test_a_timer_is_not_named_with_words_not_said_or_misheard():
    tools = ToolRunner()
    tools.begin_reply([{"role": "user", "content": "Set a pasta timer for 12 minutes."}])
    assert await tools.run("start_timer", {"name": "pasta", "seconds": 720}) == "Okay, your pasta timer is set for 12 minutes."
    # "retato" for "risotto": a label no word of the request holds runs as an unnamed timer of the length asked
    tools.begin_reply([{"role": "user", "content": "Give me a retato timer for 18 minutes."}])
    assert await tools.run("start_timer", {"name": "rental", "seconds": 1080}) == "Okay, your timer is set for 18 minutes."
    # "A partly timer" for "hey parley timer": Whisper wrote "partly" at 0.22
    tools.begin_reply([{"role": "user", "content": "A partly timer for 45 minutes."}])
    tools.unsure_words = frozenset({"a", "partly"})
    assert await tools.run("start_timer", {"name": "partly", "seconds": 2700}) == "Okay, your timer is set for 45 minutes."
    # an unsure label never replaces the timer of that name
    tools.begin_reply([{"role": "user", "content": "Start a pasta timer for 1 minute."}])
    tools.unsure_words = frozenset({"pasta"})
    await tools.run("start_timer", {"name": "pasta", "seconds": 60})
    timers = await tools.timer_book.pending()
    assert sorted((t.name or "", t.seconds) for t in timers) == [("", 60), ("", 1080), ("", 2700), ("pasta", 720)]
    tools.stop_timers()


async def test_several_thermostats_are_told_apart_by_name_or_area():
    from assistant.inventory import Inventory
    inventory = Inventory()
    for key, name, area in [("stove", "Stove", "Den"), ("panel", "Radiant Panel", "Nursery")]:
        inventory.receive_discovery(f"homeassistant/climate/{key}/config", json.dumps(
            {"name": name, "temperature_command_topic": f"{key}/set", "device": {"suggested_area": area}}))
    tools = ToolRunner(InMemoryHome(inventory=inventory))
    assert await tools.run("set_thermostat", {"degrees": 21}) == "Which one: the stove or the radiant panel?"
    assert await tools.run("set_thermostat", {"degrees": 21, "area": "den"}) == "Okay, the stove is set to 21 degrees."
    assert await tools.run("set_thermostat", {"degrees": 19, "name": "radiant_panel"}) == \
        "Okay, the radiant panel is set to 19 degrees."
    # "set the stove to 20" reads to the model like a light's level: the runner knows a heater from a light
    assert await tools.run("set_level", {"name": "stove", "percent": 20}) == "Okay, the stove is set to 20 degrees."
    # but part of a name never is: Whisper's "dim the panel light to 20%" once set a "radiant panel" to 20 degrees
    assert await tools.run("set_level", {"name": "panel", "percent": 20}) == \
        "The radiant panel can only be switched on or off, or set to a temperature."
    assert await ToolRunner(_home_of_my_own()).run("set_thermostat", {"degrees": 21}) == \
        "There is no thermostat in this home."
    # the sentence that names the heater is the whole reply, never words inside the default home's thermostat reply
    assert fill_result("Okay, the thermostat is set to {result}.", await tools.run(
        "set_thermostat", {"degrees": 18, "area": "nursery"})) == "Okay, the radiant panel is set to 18 degrees."


async def test_a_doubted_timer_name_is_said_back_and_a_yes_starts_it():
    tools = ToolRunner()
    # "start a rice timer" heard "Start the right timer for 15 minutes.", "right" at 0.50-0.68: asked, not started
    tools.begin_reply([{"role": "user", "content": "Start the right timer for 15 minutes."}])
    tools.doubted_words = frozenset({"right"})
    assert await tools.run("start_timer", {"name": "right", "seconds": 900}) == \
        "Did you mean a timer called right for 15 minutes? Say yes to confirm."
    assert not await tools.timer_book.pending()
    tools.begin_reply([{"role": "user", "content": "No."}])
    tools.doubted_words = frozenset()
    assert await tools.run("confirm", {"answer": "no"}) == "Okay, I'll leave it as it is."
    assert not await tools.timer_book.pending()
    # a yes starts it named; a word also under the unsure mark drops the name as before
    tools.begin_reply([{"role": "user", "content": "Start a rice timer for 15 minutes."}])
    tools.doubted_words = frozenset({"rice"})
    assert (await tools.run("start_timer", {"name": "rice", "seconds": 900})).startswith("Did you mean a timer called rice")
    tools.begin_reply([{"role": "user", "content": "Yes."}])
    tools.doubted_words = frozenset()
    assert await tools.run("confirm", {"answer": "yes"}) == "Okay, your rice timer is set for 15 minutes."
    tools.begin_reply([{"role": "user", "content": "A partly timer for 45 minutes."}])
    tools.unsure_words = tools.doubted_words = frozenset({"a", "partly"})
    assert await tools.run("start_timer", {"name": "partly", "seconds": 2700}) == "Okay, your timer is set for 45 minutes."
    assert sorted((t.name or "", t.seconds) for t in await tools.timer_book.pending()) == [("", 2700), ("rice", 900)]
    tools.stop_timers()


async def test_a_lock_heard_where_unlock_may_have_been_said_is_said_back():
    home = _home_of_my_own()
    tools = ToolRunner(home)
    tools.spoken = True
    # "the plumber's here, unlock the front door" heard "... and lock the front door": asked, not locked
    tools.begin_reply([{"role": "user", "content": "The plumber's here and lock the front door."}])
    assert await tools.run("set_lock", {"name": "front_door", "action": "lock"}) == \
        "Did you mean lock the front door? Say yes to confirm."
    assert home.states.get("lock/front") != "locked"
    tools.begin_reply([{"role": "user", "content": "Yes."}])
    assert await tools.run("confirm", {"answer": "yes"}) == "Okay, the front door is locked."
    assert tools.spoken
    for heard, doubted in (("I need the deeds to the house and lock the front door.", frozenset()),
                           ("And lock my front door.", frozenset()), ("An lock the front door.", frozenset()),
                           ("The plumber's here and locked a front door.", frozenset()),
                           ("Lock the front door.", frozenset({"lock"})),
                           # "could you unlock ...": the verb before "and lock" doubted, or "be unlocked" as "being"
                           ("Cut you and lock the front door.", frozenset({"cut"})),
                           ("Cut the front door being locked.", frozenset()),
                           # "unlock the side gate" heard "Then:0.25 lock the side gate"
                           ("Then lock the front door.", frozenset({"then"}))):
        tools.begin_reply([{"role": "user", "content": heard}])
        tools.doubted_change_words = tools.doubted_words = doubted
        assert (await tools.run("set_lock", {"name": "front_door", "action": "lock"})).startswith("Did you mean lock")
    tools.doubted_words = frozenset()
    # "and lock" after a verb of its own, a lock heard for sure, typed words, unlocking (which asks anyway) or a
    # name of no one lock: as before
    tools.begin_reply([{"role": "user", "content": "And lock the door."}])
    assert await tools.run("set_lock", {"name": "door", "action": "lock"}) == \
        "Which one: the garage door or the front door?"
    tools.doubted_change_words = frozenset()
    for heard in ("Close the garage door and lock the front door.", "Close the garage door, then lock the front door."):
        tools.begin_reply([{"role": "user", "content": heard}])
        home.states["lock/front"] = "unlocked"
        assert await tools.run("set_lock", {"name": "front_door", "action": "lock"}) == \
            "Okay, the front door is locked."
    tools.begin_reply([{"role": "user", "content": "Lock the front door."}])
    assert await tools.run("set_lock", {"name": "front_door", "action": "lock"}) == "Okay, the front door is locked."
    tools.spoken = False
    tools.begin_reply([{"role": "user", "content": "and lock the front door"}])
    assert await tools.run("set_lock", {"name": "front_door", "action": "lock"}) == "Okay, the front door is locked."
    tools.spoken = True
    tools.begin_reply([{"role": "user", "content": "The plumber's here and unlock the front door."}])
    assert await tools.run("set_lock", {"name": "front_door", "action": "unlock"}) == \
        "Do you want me to unlock the front door? Say yes to confirm."


async def test_a_doubted_word_right_before_a_change_target_may_name_another_thing_and_is_said_back():
    home = _home_of_my_own()
    tools = ToolRunner(home)
    tools.spoken = True
    # "shut the orangery blinds" in a home without one, heard "Shut the oranges blinds." with "oranges" doubted at
    # the timer names' line (Heard.doubted_words), not below a change's own
    tools.begin_reply([{"role": "user", "content": "Shut the oranges blinds."}])
    tools.doubted_words = frozenset({"oranges"})
    assert await tools.run("set_cover", {"name": "blinds", "action": "close"}) == \
        "Did you mean close the blinds? Say yes to confirm."
    assert home.states.get("cover/bl") != "closed"
    # a doubted article, or a doubted word of the target's own, before it: acted on
    for doubted in ({"the"}, {"ceiling"}):
        tools.begin_reply([{"role": "user", "content": "Switch the ceiling fan on."}])
        tools.doubted_words = frozenset(doubted)
        assert await tools.run("switch_device", {"name": "ceiling_fan", "state": "on"}) == "Okay, the ceiling fan is on."


def heard_in_the_made_up_home() -> tuple[InMemoryHome, ToolRunner]:
    """The made-up home, and its tools reading a heard request."""
    home = InMemoryHome(inventory=made_up_inventory())
    tools = ToolRunner(home)
    tools.spoken = True
    return home, tools


async def test_a_heard_change_named_by_its_kind_word_alone_after_another_word_is_refused_as_an_unknown_name():
    home, tools = heard_in_the_made_up_home()
    # "start the washing machine" in a home whose one machine is the sewing machine, heard "Start the wash on the
    # machine.": "wash" is in no phrasing and no name, so another machine was named; refused as typed, nothing on
    tools.begin_reply([{"role": "user", "content": "Start the wash on the machine."}])
    assert await tools.run("switch_device", {"name": "sewing_machine", "state": "on"}) == \
        "Sorry, I don't know a device by that name."
    assert home.states.get("tasmota/sewing_machine") is None
    # a word of the name, a verb, a stop word or a name of the home before the kind, or a one-word name: acted on
    for heard in ("Start the sewing machine.", "Turn the machine on.", "Switch on the machine, please.",
                  "Turn on the sewing room machine."):
        tools.begin_reply([{"role": "user", "content": heard}])
        assert await tools.run("switch_device", {"name": "sewing_machine", "state": "on"}) == \
            "Okay, the sewing machine is on."
    # typed words are left to the model, which refuses a name the home lacks itself
    tools.spoken = False
    tools.begin_reply([{"role": "user", "content": "start the wash on the machine"}])
    assert await tools.run("switch_device", {"name": "sewing_machine", "state": "off"}) == \
        "Okay, the sewing machine is off."


async def test_a_heard_change_resting_on_a_doubted_word_is_said_back_and_only_a_yes_acts():
    home = _home_of_my_own()
    tools = ToolRunner(home)
    tools.spoken = True
    # its state doubted ("the ice maker on them" for "is the ice maker running"): asked, nothing switched
    tools.begin_reply([{"role": "user", "content": "Put the ceiling fan on, please."}])
    tools.doubted_change_words = frozenset({"on"})
    assert await tools.run("switch_device", {"name": "ceiling_fan", "state": "on"}) == \
        "Did you mean switch on the ceiling fan? Say yes to confirm."
    assert home.states.get("fan/fan") != "on"
    tools.begin_reply([{"role": "user", "content": "No."}])
    tools.doubted_change_words = frozenset()
    assert await tools.run("confirm", {"answer": "no"}) == "Okay, I'll leave it as it is."
    assert home.states.get("fan/fan") != "on"
    # no word heard for sure names its target ("Code lighting up" put in as "cove lighting"): asked; the yes acts
    tools.begin_reply([{"role": "user", "content": "Reading lamp up, will you?"}])
    tools.doubted_change_words = frozenset({"reading", "lamp"})
    assert await tools.run("change_level", {"name": "reading_lamp", "direction": "up"}) == \
        "Did you mean turn the reading lamp up? Say yes to confirm."
    tools.begin_reply([{"role": "user", "content": "Yes."}])
    tools.doubted_change_words = frozenset()
    assert await tools.run("confirm", {"answer": "yes"}) == "Okay, the reading lamp is at 25 percent."
    # a verb, a number or an area doubted; the default home's room and device by their words
    for call, heard, doubted, said in (
            (("set_cover", {"name": "blinds", "action": "close"}), "Shut the blinds.", {"shut"}, "close the blinds"),
            (("set_level", {"name": "reading_lamp", "percent": 30}), "Reading lamp to 30 percent.", {"30"},
             "the reading lamp at 30 percent"),
            (("switch_all", {"name": "lights", "state": "off", "area": "den"}), "Turn the den lights off.", {"den", "lights"},
             "switch off the reading lamp"),
            (("activate_scene", {"name": "movie_time"}), "Movie time.", {"movie", "time"}, "run movie time")):
        tools.begin_reply([{"role": "user", "content": heard}])
        tools.doubted_change_words = frozenset(doubted)
        assert await tools.run(*call) == f"Did you mean {said}? Say yes to confirm.", call
    default = ToolRunner()
    default.spoken = True
    default.begin_reply([{"role": "user", "content": "Switch the telly in the lounge off."}])
    default.doubted_change_words = frozenset({"lounge", "telly"})
    assert await default.run("set_device", {"device": "tv", "room": "living_room", "state": "off"}) == \
        "Did you mean switch off the living room tv? Say yes to confirm."
    # every word of its target and verb heard for sure, a doubt on a word it does not rest on, a state read,
    # typed words, or a name the home lacks: as before
    tools.begin_reply([{"role": "user", "content": "Switch the ceiling fan on, it's so hot in here."}])
    tools.doubted_change_words = frozenset({"so", "hot", "ceiling"})
    assert await tools.run("switch_device", {"name": "ceiling_fan", "state": "on"}) == "Okay, the ceiling fan is on."
    # its state doubted only below a timer name's line, not below a change's (Heard.doubted_change_words): acted on
    tools.begin_reply([{"role": "user", "content": "Put the ceiling fan off, please."}])
    tools.doubted_words, tools.doubted_change_words = frozenset({"off"}), frozenset()
    assert await tools.run("switch_device", {"name": "ceiling_fan", "state": "off"}) == "Okay, the ceiling fan is off."
    assert home.states.get("fan/fan") == "off"
    tools.doubted_words = frozenset()
    tools.begin_reply([{"role": "user", "content": "Switch the ceiling fan on."}])
    assert await tools.run("switch_device", {"name": "ceiling_fan", "state": "on"}) == "Okay, the ceiling fan is on."
    default.begin_reply([{"role": "user", "content": "Turn the telly in the lounge off."}])
    default.doubted_change_words = frozenset({"telly"})
    assert await default.run("set_device", {"device": "tv", "room": "living_room", "state": "off"}) == "off"
    tools.begin_reply([{"role": "user", "content": "Is the ceiling fan on?"}])
    tools.doubted_change_words = frozenset({"on", "ceiling", "fan"})
    assert await tools.run("get_state", {"name": "ceiling_fan"}) == "The ceiling fan is on."
    tools.spoken = False
    tools.begin_reply([{"role": "user", "content": "ceiling fan off"}])
    assert await tools.run("switch_device", {"name": "ceiling_fan", "state": "off"}) == "Okay, the ceiling fan is off."
    tools.spoken = True
    tools.begin_reply([{"role": "user", "content": "Close the chapel blinds."}])
    tools.doubted_change_words = frozenset({"chapel", "blinds", "close"})
    assert await tools.run("set_cover", {"name": "chapel_blinds", "action": "close"}) == \
        "I don't know a device called the chapel blinds."


async def test_a_heard_change_whose_action_no_word_says_with_a_word_doubted_is_said_back():
    home = _home_of_my_own()
    tools = ToolRunner(home)
    tools.spoken = True
    # "what's the ceiling fan set at" heard "Watch the ceiling fan set it." ("it" at 0.22), written as switch on:
    # no word says "on", and a word that is not the fan's was doubted below a change's line
    for heard, doubted in (("Watch the ceiling fan set it.", {"it"}), ("Ceiling fan, onto well.", {"onto"})):
        tools.begin_reply([{"role": "user", "content": heard}])
        tools.doubted_change_words = frozenset(doubted)
        assert await tools.run("switch_device", {"name": "ceiling_fan", "state": "on"}) == \
            "Did you mean switch on the ceiling fan? Say yes to confirm.", heard
        assert home.states.get("fan/fan") != "on"
    # the action said, a doubt only on the target's words, or an action left unsaid in words heard for sure: acted on
    for heard, doubted in (("Turn the ceiling fan on, it's so stuffy.", {"stuffy"}), ("Ceiling fan, please.", {"ceiling"}),
                           ("It's so stuffy in the den, get the ceiling fan going.", set())):
        tools.begin_reply([{"role": "user", "content": heard}])
        tools.doubted_change_words = frozenset(doubted)
        assert await tools.run("switch_device", {"name": "ceiling_fan", "state": "on"}) == \
            "Okay, the ceiling fan is on.", heard
        await tools.run("switch_device", {"name": "ceiling_fan", "state": "off"})
    # the cover's words for its action ("lower the blinds"), heard for sure, with another word doubted: acted on
    tools.begin_reply([{"role": "user", "content": "Lower the blinds, it's bright."}])
    tools.doubted_change_words = frozenset({"bright"})
    assert await tools.run("set_cover", {"name": "blinds", "action": "close"}) == "Okay, the blinds are closed."


async def test_a_heard_read_of_the_time_or_date_needs_a_word_of_it():
    tools = ToolRunner()
    tools.spoken = True
    # "regatta scene please" heard "We get a scene please.", written as get_date: no word asks for the date
    tools.begin_reply([{"role": "user", "content": "We get a scene please."}])
    assert await tools.run("get_date", {}) == "Sorry, I didn't catch that."
    for heard, call in (("What day is it?", "get_date"), ("Is it Monday today?", "get_date"),
                        ("How late is it?", "get_time"), ("What's the time?", "get_time")):
        tools.begin_reply([{"role": "user", "content": heard}])
        assert await tools.run(call, {}) != "Sorry, I didn't catch that.", heard
    tools.spoken = False                                   # typed words are the model's to read
    tools.begin_reply([{"role": "user", "content": "we get a scene please"}])
    assert await tools.run("get_date", {}) != "Sorry, I didn't catch that."


async def test_a_heard_read_of_the_time_or_date_after_a_doubted_word_is_not_answered():
    tools = ToolRunner()
    tools.spoken = True
    # read sets' finals (the words' probabilities from the recogniser's forced pass): "turn on the pool pump" heard
    # "Turn on the full:0.39 time:0.70.", "how humid is the cellar today" heard "How humid in:0.13 the cellar:0.14
    # today": each written as a read of the time or the date, for a word that may have been a thing's name
    for heard, doubted, call in (("Turn on the full time.", {"full"}, "get_time"),
                                 ("How humid in the cellar today, the walls look wet.", {"how", "in", "cellar"},
                                  "get_date")):
        tools.begin_reply([{"role": "user", "content": heard}])
        tools.doubted_words = frozenset(doubted)
        assert await tools.run(call, {}) == "Sorry, I didn't catch that.", heard
    # a doubted question word, article or word of the read before it, or none, is no name
    for heard, doubted, call in (("What time is it?", {"what", "time"}, "get_time"),
                                 ("What's the date to date on our leave?", {"what's", "the", "date"}, "get_date"),
                                 ("Have you got the time on you?", {"the", "time"}, "get_time"),
                                 ("Is it Monday today?", {"is", "it"}, "get_date")):
        tools.begin_reply([{"role": "user", "content": heard}])
        tools.doubted_words = frozenset(doubted)
        assert await tools.run(call, {}) != "Sorry, I didn't catch that.", heard
    tools.spoken = False                                   # typed words are taken as written
    tools.begin_reply([{"role": "user", "content": "turn on the full time"}])
    tools.doubted_words = frozenset()
    assert await tools.run("get_time", {}) != "Sorry, I didn't catch that."


async def test_a_heard_read_of_a_timer_needs_words_that_ask():
    tools = ToolRunner()
    tools.spoken = True
    await tools.timer_book.add(600, "pasta")
    # "cancel the pasta timer" heard "Can:0.75 still:0.13 the pasta timer.", written as how long the timer has left:
    # "still" asks only heard for sure, as of a thing's state
    tools.begin_reply([{"role": "user", "content": "Can still the pasta timer."}])
    tools.doubted_words = frozenset({"still"})
    assert await tools.run("timer_left", {"name": "pasta"}) == "Sorry, I didn't catch that."
    for heard in ("How long is left on the pasta timer?", "The pasta timer, how long has it got",
                  "Pasta timer still going"):
        tools.begin_reply([{"role": "user", "content": heard}])
        tools.doubted_words = frozenset()
        assert await tools.run("timer_left", {"name": "pasta"}) != "Sorry, I didn't catch that.", heard
    tools.spoken = False
    tools.begin_reply([{"role": "user", "content": "can still the pasta timer"}])
    assert await tools.run("timer_left", {"name": "pasta"}) != "Sorry, I didn't catch that."


async def test_a_doubted_timer_name_never_cancels_every_timer():
    tools = ToolRunner()
    tools.begin_reply([{"role": "user", "content": "Start a lasagne timer for 40 minutes."}])
    await tools.run("start_timer", {"name": "lasagne", "seconds": 2400})
    await tools.run("set_timer", {"seconds": 300})
    # "i don't need the lasagne timer any more" heard "last end", which the model reads as every timer
    tools.begin_reply([{"role": "user", "content": "I don't need the last end timer any more."}])
    tools.doubted_words = frozenset({"last", "end"})
    assert await tools.run("cancel_timer", {}) == "There is no last end timer."
    # named after it: "stop the timer for the eggs" heard "... for the end"
    tools.begin_reply([{"role": "user", "content": "Stop the timer for the end, please."}])
    tools.doubted_words = frozenset({"end"})
    assert await tools.run("cancel_timer", {}) == "There is no end timer."
    assert len(await tools.timer_book.pending()) == 2
    # a doubted word that names no timer ("the"), or a name heard for sure, cancels as asked
    tools.begin_reply([{"role": "user", "content": "Get rid of the timer, I'm done."}])
    tools.doubted_words = frozenset({"the", "rid"})
    assert await tools.run("cancel_timer", {}) == "your 2 timers are cancelled"
    tools.stop_timers()


async def test_a_one_letter_timer_name_is_dropped():
    tools = ToolRunner()
    tools.begin_reply([{"role": "user", "content": "I timer for one hour."}])          # "a timer", heard "I timer"
    assert await tools.run("start_timer", {"name": "i", "seconds": 3600}) == "Okay, your timer is set for 1 hour."
    assert [(t.name, t.seconds) for t in await tools.timer_book.pending()] == [(None, 3600)]
    tools.stop_timers()


@pytest.mark.parametrize("name, arguments, said", [
    ("calculate", {"expression": "23*4"}, "23 times 4"),
    ("calculate", {"expression": "(3/4)*2"}, "3 divided by 4 times 2"),
    ("set_timer", {"seconds": 150}, "a timer for 2 minutes and 30 seconds"),
    ("start_timer", {"name": "pasta", "seconds": 720}, "a timer called pasta for 12 minutes"),
    ("set_alarm", {"hour": 645, "minute": 0}, "an alarm at 6:45"),                   # Whisper's "645": a clock time
    ("set_alarm", {"hour": 7, "minute": 5, "period": "pm"}, "an alarm at 7:05 pm"),
    ("convert", {"value": 5, "from": "mile", "to": "km"}, "5 miles in kilometers"),
    ("set_brightness", {"room": "living_room", "percent": 40}, "the living room lights at 40 percent"),
    ("set_thermostat", {"degrees": 21.5}, "the thermostat at 21.5 degrees"),
    ("switch_device", {"name": "lamp", "state": "on"}, None),                         # takes no number
    ("set_timer", {"seconds": -5}, None),                                              # no such timer
])
def test_a_call_with_numbers_is_said_back_in_words(name, arguments, said):
    assert said_back(name, arguments) == said


async def test_a_doubted_number_is_asked_about_and_a_yes_acts():
    tools = ToolRunner()
    tools.begin_reply([{"role": "user", "content": "Set a timer for 15 minutes."}])
    tools.unsure_numbers = frozenset({"15"})
    assert await tools.run("set_timer", {"seconds": 900}) == "Did you mean a timer for 15 minutes? Say yes to confirm."
    assert not await tools.timer_book.pending()
    tools.begin_reply([{"role": "user", "content": "Yes."}])
    tools.unsure_numbers = frozenset()
    assert await tools.run("confirm", {"answer": "yes"}) == "15 minutes"
    assert [t.seconds for t in await tools.timer_book.pending()] == [900]
    # a no leaves it
    tools.begin_reply([{"role": "user", "content": "What is 23 times 4?"}])
    tools.unsure_numbers = frozenset({"4"})
    assert await tools.run("calculate", {"expression": "23*4"}) == "Did you mean 23 times 4? Say yes to confirm."
    tools.begin_reply([{"role": "user", "content": "No."}])
    tools.unsure_numbers = frozenset()
    assert await tools.run("confirm", {"answer": "no"}) == "Okay, I'll leave it as it is."
    # a device the home lacks is refused as it is, not said back for a yes
    tools.begin_reply([{"role": "user", "content": "Dim the pantry light to 10%."}])
    tools.unsure_numbers = frozenset({"10"})
    assert await tools.run("set_level", {"name": "pantry_light", "percent": 10}) == \
        "I don't know a device called the pantry light."
    # a call that takes no number is not asked about
    tools.begin_reply([{"role": "user", "content": "Turn on light 4."}])
    tools.unsure_numbers = frozenset({"4"})
    assert await tools.run("set_device", {"device": "light", "room": "kitchen", "state": "on"}) == "on"
    tools.stop_timers()


async def test_a_typed_number_is_never_asked_about():
    tools = ToolRunner()
    tools.begin_reply([{"role": "user", "content": "what is 23 times 4"}])
    assert await tools.run("calculate", {"expression": "23*4"}) == "92"


@pytest.mark.parametrize("heard, name, question", [
    ("kitchen light on", "", True),
    ("The samovar off?", "samovar", True),
    ("This roman blind closed.", "roman blind", True),             # "is the roman blind closed", "is" unheard
    ("lights off please", "", False),                               # asked to be done
    ("Could the ice maker go on?", "ice maker", False),
    ("Is the lamp on, please?", "lamp", True),                      # a question's first word still asks
    ("We're out of ice. Could the ice maker go on?", "ice maker", False),
    ("The dock lights on, please.", "dock lights", False),
    ("Pendant off, please, the crystal on.", "crystal", True),       # asked for in another clause
    ("the wall switch off", "wall switch", True),                  # a verb in the device's own name says nothing
    ("Turn the kitchen light on.", "", False),
    ("switched the lamp off", "lamp", False),
    ("I want the lights on", "", False),
    ("Shut the blind.", "blind", False),                           # a state word first is the verb
    ("It's dark in the kitchen.", "", False),
])
def test_a_state_said_with_no_verb_of_switching(heard, name, question):
    assert states_without_a_switch(heard, name) is question


@pytest.mark.parametrize("heard, question", [
    ("Is the kiln still on, I want to open it.", True),
    ("The lawn sprinkler still going.", True),
    ("Snug temperature.", True),
    ("kitchen light on", True),                                     # a state said with no verb
    ("Workbench light?", True),
    ("And the hall light.", True),                                  # a follow-up: the question before it
    ("Okay, and the hall light.", True),
    ("Same for the hall light.", True),
    ("The pergola roof, closet, it's starting to rain.", False),    # "close it" misheard
    ("The cellar get a musty, run the dehumidifier.", False),
    ("Punkah, it's well-dermic in the conservatory.", False),        # "punkah on" misheard
])
def test_heard_words_that_ask_about_a_state(heard, question):
    assert asks(heard) is question


@pytest.mark.parametrize("heard, name, doubted, question", [
    ("Still room heater, come to 12.", "still room heater", set(), False),   # "down to twelve": "still" names it
    ("Is the still room heater on?", "still room heater", set(), True),
    ("The still room heater, still going?", "still room heater", set(), True),
    ("Snug temperature.", "snug temperature", set(), True),                # the kind word of the name still asks
    ("Check at the velux window.", "velux window", {"check", "at"}, False),  # "shut the velux window"
    ("Check the velux window.", "velux window", set(), True),
    ("Is the velux window shut?", "velux window", {"is"}, True),            # the question mark asks
])
def test_only_words_heard_for_sure_and_not_of_the_name_ask_about_a_state(heard, name, doubted, question):
    assert asks(heard, name, frozenset(doubted)) is question


@pytest.mark.parametrize("said, asked", [
    ("the lawn sprinkler still going", True),
    ("snug temperature", True),
    ("has the kiln finished", True),
    ("the pond pump is it running", True),
    ("tell me if the gate is locked", True),
    ("let's have the fire pit going", False),
    ("the guests are here get the fire pit going", False),
    ("the baby's cold set the nursery radiator to 22", False),
    # a question after a remark or a topic, and a perfect tense, ask wherever they are said
    ("the mirrors all steamed up how humid is the bathroom", True),
    ("have the side gate been left unlocked", True),
    ("the side gate did i lock it", True),
])
def test_one_test_of_asking_for_typed_requests_and_heard_words(said, asked):
    """chat_template.asks_how_things_are is the one definition: the checks of a typed request and a state read from
    heard words (tools.asks) agree."""
    assert asks_how_things_are(said) is asked and asks(said) is asked


async def test_a_state_is_read_for_heard_words_only_when_they_ask():
    """A request whose verb was misheard is not answered with the state, as if it were done."""
    home = InMemoryHome()
    tools = ToolRunner(home)
    tools.spoken = True
    tools.begin_reply([{"role": "user", "content": "The kitchen light, bright or please."}])
    said = await tools.run("get_state", {"name": "light", "area": "kitchen"})
    assert isinstance(said, NoAction) and said == "Sorry, I didn't catch that."
    tools.begin_reply([{"role": "user", "content": "Is the kitchen light on?"}])
    assert await tools.run("get_state", {"name": "light", "area": "kitchen"}) == "The kitchen light is off."
    tools.spoken = False                                                                    # typed: as written
    tools.begin_reply([{"role": "user", "content": "The kitchen light, bright or please."}])
    assert await tools.run("get_state", {"name": "light", "area": "kitchen"}) == "The kitchen light is off."


async def test_a_heard_state_is_answered_and_never_switched():
    home = InMemoryHome()
    tools = ToolRunner(home)
    tools.begin_reply([{"role": "user", "content": "Kitchen light on."}])
    tools.spoken = True
    said = await tools.run("set_device", {"device": "light", "room": "kitchen", "state": "on"})
    assert isinstance(said, NoAction) and said == "The kitchen light is off."
    assert ("light", "kitchen") not in home.devices
    tools.begin_reply([{"role": "user", "content": "Turn the kitchen light on."}])          # a verb says switch
    assert await tools.run("set_device", {"device": "light", "room": "kitchen", "state": "on"}) == "on"
    tools.spoken = False                                                                    # typed: as written
    tools.begin_reply([{"role": "user", "content": "kitchen light off"}])
    assert await tools.run("set_device", {"device": "light", "room": "kitchen", "state": "off"}) == "off"
    assert home.devices[("light", "kitchen")] == "off"



async def test_a_heard_read_of_a_thing_named_by_its_kind_after_another_word_is_refused_as_an_unknown_name():
    home, tools = heard_in_the_made_up_home()
    # "is the washing machine on" in a home whose one machine is the sewing machine, heard as said and written
    # get_state name=sewing machine: another machine was asked about, and the sewing machine's state is no answer
    for heard in ("Is the washing machine on?", "Is my washing machine on?"):
        tools.begin_reply([{"role": "user", "content": heard}])
        assert await tools.run("get_state", {"name": "sewing_machine"}) == "Sorry, I don't know a device by that name."
    # a word of the name, its area, or nothing between the article and the kind: read
    for heard in ("Is the sewing machine on?", "Is the machine on?", "Is the sewing room machine on?"):
        tools.begin_reply([{"role": "user", "content": heard}])
        assert await tools.run("get_state", {"name": "sewing_machine"}) == "The sewing machine is off."
    tools.begin_reply([{"role": "user", "content": "Is the sewing room lamp on?"}])
    assert await tools.run("get_state", {"name": "lamp", "area": "sewing_room"}) == "The tiffany lamp is off."
    # typed words are left to the model
    tools.spoken = False
    tools.begin_reply([{"role": "user", "content": "is the washing machine on"}])
    assert await tools.run("get_state", {"name": "sewing_machine"}) == "The sewing machine is off."


async def test_a_heard_call_acts_only_on_a_number_the_words_carry():
    home = _home_of_my_own()
    tools = ToolRunner(home)
    tools.spoken = True
    # the words that said the level were lost, and the model wrote one of its own: said back, not set
    tools.begin_reply([{"role": "user", "content": "Dim the reading lamp to, please."}])
    assert await tools.run("set_level", {"name": "reading_lamp", "percent": 40}) == \
        "Did you mean the reading lamp at 40 percent? Say yes to confirm."
    assert home.states.get("light/lamp_b") is None
    tools.begin_reply([{"role": "user", "content": "Yes."}])
    assert await tools.run("confirm", {"answer": "yes"}) == "Okay, the reading lamp is at 40 percent."
    # the number said, in any spelling, or a level in words: set at once
    for heard, percent in (("Dim the reading lamp to forty percent.", 40), ("Reading lamp to 40%.", 40),
                           ("The reading lamp at half, please.", 50), ("Dim the reading lamp to a quarter.", 25),
                           ("Reading lamp on full.", 100)):
        tools.begin_reply([{"role": "user", "content": heard}])
        assert await tools.run("set_level", {"name": "reading_lamp", "percent": percent}) == \
            f"Okay, the reading lamp is at {percent} percent.", heard
    # a timer's length and a temperature alike; typed words are the model's to read
    timers = ToolRunner()
    timers.spoken = True
    timers.begin_reply([{"role": "user", "content": "Set a timer for minutes."}])
    assert await timers.run("set_timer", {"seconds": 300}) == "Did you mean a timer for 5 minutes? Say yes to confirm."
    assert timers.timers_running == 0
    timers.begin_reply([{"role": "user", "content": "Set a timer for five minutes."}])
    assert not (await timers.run("set_timer", {"seconds": 300})).startswith("Did you mean")
    timers.begin_reply([{"role": "user", "content": "Set the heating to twenty one and a half."}])
    assert not (await timers.run("set_thermostat", {"degrees": 21.5})).startswith("Did you mean")
    timers.begin_reply([{"role": "user", "content": "Set the heating to 2."}])
    assert await timers.run("set_thermostat", {"degrees": 21}) == \
        "Did you mean the thermostat at 21 degrees? Say yes to confirm."
    timers.spoken = False
    timers.begin_reply([{"role": "user", "content": "set a timer for minutes"}])
    assert not (await timers.run("set_timer", {"seconds": 300})).startswith("Did you mean")


async def test_a_heard_change_whose_words_say_the_opposite_action_is_said_back():
    home = _home_of_my_own()
    tools = ToolRunner(home)
    tools.spoken = True
    # heard for sure, the words say another action of the call's kind and none says its own
    for heard, name, arguments, said in (
            ("Turn off the ceiling fan.", "switch_device", {"name": "ceiling_fan", "state": "on"},
             "switch on the ceiling fan"),
            ("Open the blinds, please.", "set_cover", {"name": "blinds", "action": "close"}, "close the blinds"),
            ("Turn the ceiling fan down.", "change_level", {"name": "ceiling_fan", "direction": "up"},
             "turn the ceiling fan up")):
        tools.begin_reply([{"role": "user", "content": heard}])
        assert await tools.run(name, arguments) == f"Did you mean {said}? Say yes to confirm.", heard
    assert home.states.get("fan/fan") is None and home.states.get("cover/blinds") is None
    # the call's own action said, beside the other's word or alone: acted on
    for heard, state in (("Turn the ceiling fan on, it's off.", "on"), ("Switch the ceiling fan off, it was on.", "off"),
                         ("Put the ceiling fan on.", "on")):
        tools.begin_reply([{"role": "user", "content": heard}])
        assert await tools.run("switch_device", {"name": "ceiling_fan", "state": state}) == \
            f"Okay, the ceiling fan is {state}.", heard
    tools.spoken = False                                   # typed words are the model's to read
    tools.begin_reply([{"role": "user", "content": "turn off the ceiling fan"}])
    assert await tools.run("switch_device", {"name": "ceiling_fan", "state": "on"}) == "Okay, the ceiling fan is on."


async def test_a_heard_change_of_a_thing_named_by_its_kind_after_another_name_word_is_refused_as_an_unknown_name():
    home, tools = heard_in_the_made_up_home()
    # "switch on the pond machine": "pond" is a word of the home (the pond pump), so it is no stranger's word, yet
    # none of the sewing machine's own words was heard: another machine, one the home lacks, is never switched
    tools.begin_reply([{"role": "user", "content": "Switch on the pond machine."}])
    assert await tools.run("switch_device", {"name": "sewing_machine", "state": "on"}) == \
        "Sorry, I don't know a device by that name."
    assert "tasmota/sewing_machine" not in home.states
    # a word in the name's place that sounds like one of its own is asked about, and still switches nothing
    tools.begin_reply([{"role": "user", "content": "Is the sowing machine on?"}])
    assert await tools.run("get_state", {"name": "sewing_machine"}) == "Did you mean the sewing machine? Say yes to confirm."
    # its own name, its area, or the kind alone: switched
    for heard in ("Switch on the sewing machine.", "Switch on the sewing room machine.", "Switch on the machine."):
        tools.begin_reply([{"role": "user", "content": heard}])
        said = await tools.run("switch_device", {"name": "sewing_machine", "state": "on"})
        assert not isinstance(said, NoAction) and "sewing machine" in said, (heard, said)
    tools.spoken = False                                                                    # typed: the model's
    tools.begin_reply([{"role": "user", "content": "Switch on the pond machine."}])
    said = await tools.run("switch_device", {"name": "sewing_machine", "state": "on"})
    assert not isinstance(said, NoAction) and "sewing machine" in said


async def test_a_heard_number_word_before_a_things_own_area_and_kind_is_no_name_of_it():
    home = InMemoryHome(inventory=discovered_inventory())
    tools = ToolRunner(home)
    tools.spoken = True
    # "is the wine cellar door open" heard "Is the one cellar door open?" in a home whose one door of the cellar is
    # the coal hole door: "one" stood where a name's word did, and the coal hole door is no answer
    tools.begin_reply([{"role": "user", "content": "Is the one cellar door open?"}])
    assert await tools.run("get_state", {"name": "coal_hole_door"}) == "Sorry, I don't know a device by that name."
    # the area alone, or a number before the kind alone ("the one door"): read
    for heard in ("Is the cellar door open?", "Is the one door open?"):
        tools.begin_reply([{"role": "user", "content": heard}])
        said = await tools.run("get_state", {"name": "coal_hole_door"})
        assert "coal hole door" in said, (heard, said)
