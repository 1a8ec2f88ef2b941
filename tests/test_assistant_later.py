"""A change of the home said for a time to come ("turn off the kitchen light in 10 minutes", "switch off the tv at 10
pm") or on a condition ("... when I leave") is never made now: the runner checks every change against the words of
the request it answers (assistant.later), through the whole assistant and end to end through /v1/realtime. Timers,
alarms, readings and changes asked now are as before."""
import pytest

from assistant.generator import respond_sync
from assistant.home import InMemoryHome
from assistant.later import AT_A_LATER_TIME, ON_A_CONDITION, not_now
from assistant.skills import ACTIONS, CHANGES_THE_HOME, MODEL_SKILLS, NOT_CHANGES, SKILLS, TIMER_SKILLS
from assistant.tools import ToolRunner
from made_up_home import made_up_inventory
from realtime_client import RealtimeClient
from test_home_voice import spoken, typed

LATER = ["turn the kitchen light on at half past six", "turn on the bedroom light tomorrow morning",
         "turn off the kitchen light in 10 minutes", "turn off the kitchen light in an hour",
         "switch off the tv at 10 pm", "dim the kitchen lights to 20 percent at 6:30", "i'd like the kitchen light off in 10 minutes",
         "set the thermostat to 18 tomorrow at 7", "turn off the office fan in half an hour"]
CONDITIONS = ["turn off the kitchen light when I leave", "switch off the tv after the film",
              "turn the bedroom light off once the kids are asleep", "turn on the porch light as soon as it's dark"]
NOW = ["turn off the kitchen light", "set the kitchen lights to 30 percent", "set the office fan at 30",
       "turn on the light in the living room", "when did the kitchen light go off",
       # a change for then, made now; a time or a condition of a remark; a state wished by then; "when you can"
       "i want the nursery at 18 degrees tonight", "turn the trouser press on, i've a wedding tomorrow",
       "lock the side gate before we go", "i'll be back in a minute, switch the kitchen speaker off",
       "unlock the strongroom door, i'm after the deeds box", "the samovar should be on when they arrive",
       "pop the mudroom light on for when they get back", "switch the telly off when you get a chance"]


@pytest.mark.parametrize("said", LATER)
def test_a_time_to_come_is_read_from_the_words(said):
    assert not_now(said) == AT_A_LATER_TIME


@pytest.mark.parametrize("said", CONDITIONS)
def test_a_condition_parley_cannot_know_is_read_from_the_words(said):
    assert not_now(said) == ON_A_CONDITION


@pytest.mark.parametrize("said", NOW)
def test_a_change_asked_now_is_no_later_one(said):
    assert not_now(said) is None


def test_only_changes_of_the_home_are_checked_and_no_map_of_the_registry_changed():
    assert CHANGES_THE_HOME <= set(SKILLS) and not CHANGES_THE_HOME & (NOT_CHANGES | TIMER_SKILLS | {"set_alarm"})
    assert {"set_device", "set_brightness", "switch_device", "set_lock", "set_cover"} <= CHANGES_THE_HOME
    assert "later" not in ACTIONS and not {"later", "not_now"} & (set(SKILLS) | MODEL_SKILLS)


async def test_the_runner_makes_no_change_said_for_later_and_makes_the_same_one_said_now():
    home = InMemoryHome()
    tools = ToolRunner(home)
    tools.begin_reply([{"role": "user", "content": "turn off the kitchen light in 10 minutes"}])
    assert await tools.run("set_device", {"device": "light", "room": "kitchen", "state": "off"}) == AT_A_LATER_TIME
    tools.begin_reply([{"role": "user", "content": "turn the kitchen light on when I leave"}])
    assert await tools.run("set_brightness", {"room": "kitchen", "percent": 30}) == ON_A_CONDITION
    assert home.devices == {} and home.brightness == {}
    tools.begin_reply([{"role": "user", "content": "turn off the kitchen light"}])
    await tools.run("set_device", {"device": "light", "room": "kitchen", "state": "off"})
    assert home.devices == {("light", "kitchen"): "off"}


async def test_a_lock_said_for_later_is_refused_not_asked_about():
    tools = ToolRunner(InMemoryHome(inventory=made_up_inventory()))
    tools.begin_reply([{"role": "user", "content": "unlock the wicket gate at 7 am"}])
    assert await tools.run("set_lock", {"name": "wicket gate", "action": "unlock"}) == AT_A_LATER_TIME
    assert tools.pending is None                   # no yes awaited: a yes later unlocks nothing


async def test_timers_and_alarms_said_with_a_time_still_start():
    tools = ToolRunner(InMemoryHome())
    tools.begin_reply([{"role": "user", "content": "set a timer for 10 minutes"}])
    await tools.run("set_timer", {"seconds": 600})
    tools.begin_reply([{"role": "user", "content": "wake me up tomorrow at 6:30 am"}])
    await tools.run("set_alarm", {"hour": 6, "minute": 30, "period": "am"})
    assert len(await tools.timer_book.pending()) == 2


@pytest.mark.usefixtures("needs_assistant")
@pytest.mark.parametrize("said, reply", [
    ("turn on the bedroom light tomorrow morning", AT_A_LATER_TIME),  # was switched on now (a clock time is scheduled:
                                                                      # tests/test_scheduled_changes.py)
    ("turn off the kitchen light when I leave", ON_A_CONDITION),
])
def test_through_the_assistant_a_change_for_later_changes_nothing(assistant, said, reply):
    home = InMemoryHome()
    answer = respond_sync(assistant, [{"role": "user", "content": said}], ToolRunner(home))
    assert answer.text == reply
    assert home.devices == {} and home.brightness == {}


@pytest.mark.usefixtures("needs_assistant")
def test_through_the_assistant_a_change_asked_now_is_made(assistant):
    home = InMemoryHome()
    answer = respond_sync(assistant, [{"role": "user", "content": "turn on the bedroom light"}], ToolRunner(home))
    assert answer.text == "Okay, the bedroom light is on." and home.devices == {("light", "bedroom"): "on"}


@pytest.mark.usefixtures("needs_assistant")
async def test_through_the_realtime_endpoint_a_change_for_later_is_not_made(server_factory):
    server = server_factory()
    home = InMemoryHome()
    server.ctx.home = home
    client = await RealtimeClient.connect(server.ws_url)
    await client.wait_for("session.created")
    assert spoken(await typed(client, "turn on the bedroom light tomorrow morning")) == AT_A_LATER_TIME
    assert spoken(await typed(client, "turn off the kitchen light when I leave")) == ON_A_CONDITION
    assert home.devices == {} and home.brightness == {}
    assert spoken(await typed(client, "turn on the bedroom light")) == "Okay, the bedroom light is on."
    assert home.devices == {("light", "bedroom"): "on"}
    await client.close()
