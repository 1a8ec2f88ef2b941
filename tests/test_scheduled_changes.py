"""A change said for later with a delay or a clock time ("turn on the arc lamp in 2 seconds", "switch the heater on at
7") is checked now as the same change said now, kept with the conversation's timers, and made at its time through the
same tool path; "what's scheduled", "cancel that" and "cancel the arc lamp one" work; at most MAX_SCHEDULED wait per
conversation, none more than a day ahead. End to end on a real Mosquitto with the made-up home's devices, and across a
restart on an SQLite store."""
import asyncio
import datetime as dt
import json
import re
import time

import pytest

from assistant.generator import respond_sync
from assistant.home import InMemoryHome
from assistant.inventory import MAX_ENTITIES
from assistant.later import (AT_A_LATER_TIME, TOO_FAR_AHEAD, TOO_MANY_HERE, TOO_MANY_SCHEDULED, TOO_MANY_THINGS, Later,
                             scheduled_for)
from assistant.skills import CHANGES_THE_HOME, SKILLS
from assistant.tools import SCHEDULED_HERE, ToolRunner, scheduled_done, scheduled_said
from assistant.vocabulary import MAX_SCHEDULED, MAX_SCHEDULED_HERE
from coloured_home import coloured_inventory
from made_up_home import clear_home, made_up_inventory, play_devices, publish_home, wait_for
from mqtt_devices import login, playing
from realtime_client import RealtimeClient
from streaming.gateway import DurableTimers
from streaming.store import StoredTimer, open_store
from streaming.transports.mqtt.connection import Backoff
from streaming.transports.mqtt.home import MqttHome
from test_home_voice import spoken, typed

NOW = dt.datetime(2026, 12, 7, 14, 25)
SCHEDULED = re.compile(r"Okay, I'll (?P<what>.+) at \d\d:\d\d\.")


@pytest.mark.parametrize("said, rest, seconds, clock", [
    ("turn off the kitchen light in 10 minutes", "turn off the kitchen light", 600, "14:35"),
    ("switch the heater on at 7", "switch the heater on", 16500, "19:00"),
    ("turn off the lights and the tv in an hour", "turn off the lights and the tv", 3600, "15:25"),
    ("turn on the bedroom light at half past six", "turn on the bedroom light", 14700, "18:30"),
    ("Turn off the kitchen light at 7 pm.", "turn off the kitchen light", 16500, "19:00"),
    ("turn the porch light on at 6 am please", "turn the porch light on", 56100, "06:00"),
    ("turn it off at 19:45", "turn it off", 19200, "19:45"),
    ("turn off the kitchen light in 30 hours", "turn off the kitchen light", None, "20:25"),
    ("switch off the chapel lamp at 7", "switch off the chapel lamp", 16500, "19:00"),     # None on 8a517b8
])
def test_a_delay_or_a_clock_time_at_the_end_of_a_request_is_read(said, rest, seconds, clock):
    assert scheduled_for(said, NOW) == Later(rest, seconds, clock)


@pytest.mark.parametrize("said", ["set the office fan at 30", "put the kitchen lights at 30 percent",
                                  "turn on the bedroom light tomorrow morning", "set the thermostat to 18 tomorrow at 7",
                                  "turn on the porch light tonight", "lock the side gate before we go",
                                  "turn off the kitchen light", "i'll be back in a minute, switch the kitchen speaker off"])
def test_a_level_a_day_or_no_time_is_no_time_to_schedule(said):
    assert scheduled_for(said, NOW) is None


def runner_for_later(said: str, home=None) -> ToolRunner:
    """A runner answering said without its time, as the assistant has it answer a request for later."""
    tools = ToolRunner(home or InMemoryHome())
    tools.later = scheduled_for(said)
    tools.begin_reply([{"role": "user", "content": tools.later.rest}])
    return tools


async def test_the_runner_schedules_a_change_and_makes_it_at_its_time():
    tools = runner_for_later("turn off the kitchen light in 10 minutes")
    said = await tools.run("set_device", {"device": "light", "room": "kitchen", "state": "off"})
    assert SCHEDULED.fullmatch(said)["what"] == "turn off the kitchen light"
    assert tools.home.devices == {} and len(await tools.scheduled()) == 1 and await tools._timers() == []
    line = await tools.run_scheduled((await tools.scheduled())[0].call)
    assert tools.home.devices == {("light", "kitchen"): "off"} and line == "As you asked, I turned off the kitchen light."
    tools.stop_timers()


async def test_a_name_the_home_lacks_schedules_nothing_and_a_lock_is_not_asked_about():
    tools = runner_for_later("turn on the chapel lamp in 10 minutes", InMemoryHome(inventory=made_up_inventory()))
    said = await tools.run("switch_device", {"name": "chapel lamp", "state": "on"})
    assert said.startswith("Sorry") or "don't know" in said, said
    tools.later = scheduled_for("unlock the wicket gate at 7 am")
    tools.begin_reply([{"role": "user", "content": tools.later.rest}])
    assert await tools.run("set_lock", {"name": "wicket gate", "action": "unlock"}) == AT_A_LATER_TIME
    assert await tools.scheduled() == [] and tools.pending is None and tools.home.states == {}


async def test_at_most_max_scheduled_wait_and_none_past_a_day():
    tools = runner_for_later("turn on the kitchen light in 30 hours")
    assert await tools.run("set_device", {"device": "light", "room": "kitchen", "state": "on"}) == TOO_FAR_AHEAD
    tools.later = scheduled_for("turn on the kitchen light in 10 minutes")
    for _ in range(MAX_SCHEDULED):
        assert SCHEDULED.fullmatch(await tools.run("set_device", {"device": "light", "room": "kitchen", "state": "on"}))
    assert await tools.run("set_device", {"device": "light", "room": "kitchen", "state": "on"}) == TOO_MANY_SCHEDULED
    assert len(await tools.scheduled()) == MAX_SCHEDULED and tools.home.devices == {}
    await tools.scheduled_answer("cancel", "kitchen light", "")
    tools.stop_timers()


async def test_at_most_max_scheduled_here_wait_on_a_server_whichever_conversations():
    runners = []
    while len(SCHEDULED_HERE) < MAX_SCHEDULED_HERE:
        runners.append(runner_for_later("turn on the kitchen light in 10 minutes"))
        for _ in range(min(MAX_SCHEDULED, MAX_SCHEDULED_HERE - len(SCHEDULED_HERE))):
            assert SCHEDULED.fullmatch(await runners[-1].run("set_device", {"device": "light", "room": "kitchen",
                                                                            "state": "on"}))
    tools = runner_for_later("turn on the kitchen light in 10 minutes")
    assert await tools.run("set_device", {"device": "light", "room": "kitchen", "state": "on"}) == TOO_MANY_HERE
    assert await runners[0].scheduled_answer("cancel", "kitchen light", "") is not None       # room again
    assert SCHEDULED.fullmatch(await tools.run("set_device", {"device": "light", "room": "kitchen", "state": "on"}))
    for runner in [*runners, tools]:
        await runner.scheduled_answer("cancel", "kitchen light", "")
        runner.stop_timers()
    assert not SCHEDULED_HERE


async def test_the_bound_per_server_counts_the_changes_every_gateway_keeps_in_the_store(store_url):
    """Another gateway's process kept MAX_SCHEDULED_HERE changes in the store the two share (rows it wrote; one more,
    whose time has passed, counts no longer): this gateway schedules none until one of them is cancelled. At fbdc907
    each process counted only its own, so each of several gateways could keep 1,000."""
    other, here = open_store(store_url), open_store(store_url)
    call = json.dumps({"name": "set_device", "arguments": {"device": "light", "room": "kitchen", "state": "on"},
                       "at": "14:35", "what": "turn on the kitchen light"})
    now = time.time()
    kept = [StoredTimer(f"tmr_other_{n}", f"sess_other_{n // MAX_SCHEDULED}", 600, now + 600, call=call)
            for n in range(MAX_SCHEDULED_HERE)]
    try:
        for timer in [*kept, StoredTimer("tmr_other_past", "sess_other_past", 600, now - 1, call=call)]:
            await other.add_timer(timer)
        tools = ToolRunner(InMemoryHome(), DurableTimers(here, "sess_here"))
        tools.later = scheduled_for("turn on the kitchen light in 10 minutes")
        tools.begin_reply([{"role": "user", "content": tools.later.rest}])
        assert await tools.run("set_device", {"device": "light", "room": "kitchen", "state": "on"}) == TOO_MANY_HERE
        assert await tools.scheduled() == []
        assert await other.move_timer(kept[0].id, "pending", "cancelled")
        assert SCHEDULED.fullmatch(await tools.run("set_device", {"device": "light", "room": "kitchen", "state": "on"}))
        assert not await here.add_change(StoredTimer("tmr_past_the_bound", "sess_here", 600, time.time() + 600,
                                                     call=call), MAX_SCHEDULED_HERE)
    finally:
        for session_id in {timer.session_id for timer in kept} | {"sess_other_past", "sess_here"}:
            await other.cancel_timers(session_id)
        await other.close()
        await here.close()


async def test_gateways_scheduling_at_the_same_moment_keep_to_the_bound_per_server_together(store_url):
    """Five changes short of MAX_SCHEDULED_HERE, twenty gateways (a store handle each) schedule one change each at the
    same moment: five are scheduled and fifteen refused, and the store holds no more than the bound. At 5b13eb9 the
    count and the add were two steps, so each gateway counted the same five free and all twenty were scheduled."""
    other = open_store(store_url)
    gateways = [open_store(store_url) for _ in range(20)]
    call = json.dumps({"name": "set_device", "arguments": {"device": "light", "room": "kitchen", "state": "on"},
                       "at": "14:35", "what": "turn on the kitchen light"})
    now = time.time()
    kept = [StoredTimer(f"tmr_other_{n}", f"sess_other_{n // MAX_SCHEDULED}", 600, now + 600, call=call)
            for n in range(MAX_SCHEDULED_HERE - 5)]
    runners = []
    for n, store in enumerate(gateways):
        runners.append(ToolRunner(InMemoryHome(), DurableTimers(store, f"sess_gateway_{n}")))
        runners[-1].later = scheduled_for("turn on the kitchen light in 10 minutes")
        runners[-1].begin_reply([{"role": "user", "content": runners[-1].later.rest}])
    try:
        for timer in kept:
            await other.add_timer(timer)
        said = await asyncio.gather(*(tools.run("set_device", {"device": "light", "room": "kitchen", "state": "on"})
                                      for tools in runners))
        assert sum(bool(SCHEDULED.fullmatch(reply)) for reply in said) == 5
        assert said.count(TOO_MANY_HERE) == 15
        assert not await other.add_change(StoredTimer("tmr_past_the_bound", "sess_other_past", 600, time.time() + 600,
                                                      call=call), MAX_SCHEDULED_HERE)
    finally:
        for session_id in {timer.session_id for timer in kept} | {f"sess_gateway_{n}" for n in range(20)}:
            await other.cancel_timers(session_id)
        for store in [other, *gateways]:
            await store.close()


async def test_a_scheduled_them_keeps_a_list_of_things_within_a_bound_of_its_own():
    """Past MAX_ENTITIES things (or MAX_LISTED_CHARS as JSON) a "them" is not scheduled, and a stored change whose
    list is past them (another version or a hand wrote the store) is not run; at fbdc907 both were."""
    home = InMemoryHome(inventory=made_up_inventory())
    arc = home.inventory.resolve("arc lamp")[0].key
    home.states[arc] = "on"
    tools = runner_for_later("turn them off in 10 minutes", home)
    tools.listed = (arc,) * (MAX_ENTITIES + 1)
    said = await tools.run("switch_listed", {"state": "off"})
    assert await tools.scheduled() == [] and said == TOO_MANY_THINGS
    stored = {"name": "switch_listed", "arguments": {"state": "off"}, "at": "14:35", "what": "turn off the arc lamp"}
    line = await ToolRunner(home).run_scheduled(json.dumps({**stored, "listed": [arc] * (MAX_ENTITIES + 1)}))
    assert home.states[arc] == "on" and line.startswith("I couldn't turn off the arc lamp as you asked.")
    line = await ToolRunner(home).run_scheduled(json.dumps({**stored, "listed": [arc]}))
    assert home.states[arc] == "off" and line == "As you asked, I turned off the arc lamp."


async def test_them_said_for_later_keeps_the_things_listed_when_said_with_the_change():
    """The stored change names the summary's things: a runner that has listed nothing (a restart, a resume on
    another gateway) switches those at its time, not the latest summary's."""
    home = InMemoryHome(inventory=made_up_inventory())
    named = {key: home.inventory.resolve(name)[0].key for key, name in
             (("arc", "arc lamp"), ("salt", "salt lamp"), ("piano", "piano light"))}
    home.states.update(dict.fromkeys(named.values(), "on"))
    tools = ToolRunner(home)
    await tools.run("list_states", {"state": "on", "asked": "which", "kind": "light", "area": "snug"})
    tools.later = scheduled_for("turn them off in 10 minutes")
    tools.begin_reply([{"role": "user", "content": tools.later.rest}])
    said = await tools.run("switch_listed", {"state": "off"})
    assert SCHEDULED.fullmatch(said)["what"] == "turn off the arc lamp and the salt lamp", said
    tools.later = None
    await tools.run("list_states", {"state": "on", "asked": "which", "kind": "light", "area": "music room"})
    assert tools.listed == (named["piano"],)
    resumed = ToolRunner(home)
    line = await resumed.run_scheduled((await tools.scheduled())[0].call)
    assert line == "As you asked, I turned off the arc lamp and the salt lamp."
    assert [home.states[named[key]] for key in ("arc", "salt", "piano")] == ["off", "off", "on"]
    tools.stop_timers()


# snooze_alarm and stop_ringing act on what rang, which a rehearsal's home holds none of: never scheduled
SCHEDULABLE = sorted(CHANGES_THE_HOME - {"snooze_alarm", "stop_ringing"})


def calls_of(skill) -> list[dict]:
    """Calls of a skill: each word of its words taken once, its required arguments alone and with each optional one."""
    sample = {key: allowed if not isinstance(allowed[0], type) else ("porch light",) if allowed == (str,) else (40,)
              for key, allowed in skill.arguments.items()}
    required = [key for key in skill.arguments if key not in skill.optional]
    calls = []
    for extra in ([], *([key] for key in skill.optional)):
        for key in [*required, *extra]:
            for value in sample[key]:
                calls.append({other: value if other == key else sample[other][0] for other in [*required, *extra]})
    # a change of colour says which colour, a tilt "to" how far (the runner refuses the others before scheduling)
    return [call for call in calls if not (skill.name == "set_colour" and not {"colour", "kelvin", "shift"} & set(call)
                                           or call.get("action") == "to" and "percent" not in call)]


@pytest.mark.parametrize("name", SCHEDULABLE)
def test_every_change_that_can_be_scheduled_is_said_in_its_own_words_and_as_done(name):
    for call in calls_of(SKILLS[name]):
        what = scheduled_said(name, call)
        assert "{" not in what and "make that change" not in what and "_" not in what, (call, what)
        done = scheduled_done(what)
        assert done.split(" ", 1)[1] == what.split(" ", 1)[1] and done.split()[0] != what.split()[0] \
            or done.startswith(("set ", "put ")), (what, done)


@pytest.mark.usefixtures("needs_assistant")
@pytest.mark.parametrize("said, what", [
    ("turn the kitchen light on at half past six", "turn on the kitchen light"),   # was set to 30 percent at 216f494
    ("turn off the kitchen light in 10 minutes", "turn off the kitchen light"),   # was "Sorry, I didn't catch that."
])
def test_through_the_assistant_a_change_for_later_is_scheduled_not_made(assistant, said, what):
    tools = ToolRunner(InMemoryHome())
    answer = respond_sync(assistant, [{"role": "user", "content": said}], tools)
    assert SCHEDULED.fullmatch(answer.text)["what"] == what, answer.text
    assert tools.home.devices == {} and tools.home.brightness == {}


@pytest.mark.usefixtures("needs_assistant")
def test_through_the_assistant_joined_changes_for_later_are_each_scheduled(assistant):
    tools = ToolRunner(InMemoryHome())
    answer = respond_sync(assistant, [{"role": "user", "content": "turn off the kitchen light and the bedroom light in "
                                                                  "10 minutes"}], tools)
    assert [call.arguments["room"] for call in answer.tool_calls] == ["kitchen", "bedroom"], answer
    assert "turn off the kitchen light" in answer.text and "turn off the bedroom light" in answer.text
    assert tools.home.devices == {}


@pytest.mark.usefixtures("needs_assistant")
@pytest.mark.parametrize("said, name", [
    ("turn on the chapel lamp in 10 minutes", "chapel lamp"),      # a 10-minute timer at fbdc907
    ("turn the chapel lamp on in an hour", "chapel lamp"),          # a timer of an hour at fbdc907
    ("open the chapel blinds in 5 minutes", "chapel blinds"),
    ("lock the chapel door in 10 minutes", "chapel door"),
    ("switch off the chapel lamp at 7", "chapel lamp"),         # "Sorry, I can't do that yet." on 8a517b8
    ("shut off the chapel lamp at 7", "chapel lamp"),
])
def test_a_change_for_later_of_a_thing_the_home_lacks_says_so_and_starts_no_timer(assistant, said, name):
    tools = ToolRunner(InMemoryHome())
    answer = respond_sync(assistant, [{"role": "user", "content": said}], tools)
    assert (answer.text, answer.tool_calls) == (f"I don't know a device called the {name}.", []), answer


@pytest.mark.usefixtures("needs_assistant")
@pytest.mark.parametrize("home, said, call, what", [
    # on 8a517b8: set_level 7 (the lamp at 7 percent at once), set_brightness 7 (the kitchen lights at 7 percent)
    (lambda: InMemoryHome(inventory=coloured_inventory()), "switch off the lounge lamp at 7",
     ("switch_device", {"name": "lounge_lamp", "state": "off"}), "turn off the lounge lamp"),
    (InMemoryHome, "switch off the kitchen light at 7", ("set_device", {"device": "light", "room": "kitchen",
                                                                         "state": "off"}), "turn off the kitchen light"),
])
def test_a_bare_hour_after_a_switch_off_schedules_the_change_and_makes_nothing_now(assistant, home, said, call, what):
    """Off takes no level, so a bare hour after "switch off the ..." is the time the change is scheduled for."""
    tools = ToolRunner(home())
    answer = respond_sync(assistant, [{"role": "user", "content": said}], tools)
    assert [(made.name, made.arguments) for made in answer.tool_calls] == [call], answer
    assert SCHEDULED.fullmatch(answer.text)["what"] == what and answer.text[-6:-1] in ("07:00", "19:00"), answer
    assert tools.home.devices == {} and tools.home.states == {}


def test_an_hour_of_1_to_12_after_a_switch_on_is_a_time_and_a_level_stays_a_level():
    """None on a784a67 for the first three: the hour was read as a level."""
    assert [scheduled_for(said, NOW) for said in (
        "switch on the lounge lamp at 7", "turn on the kitchen light at 12 please", "Switch on the porch light at 10.")
    ] == [Later("switch on the lounge lamp", 16500, "19:00"), Later("turn on the kitchen light", 34500, "00:00"),
          Later("switch on the porch light", 27300, "22:00")]
    assert [scheduled_for(said, NOW) for said in (
        "switch on the lamp at 70", "switch on the lounge lamp at 13", "switch on the lounge lamp at 7 percent",
        "switch the lounge lamp on at 70 percent", "set the lamp at 7", "turn the lamp up at 7")] == [None] * 6


@pytest.mark.usefixtures("needs_assistant")
@pytest.mark.parametrize("home, said, call, what", [
    # on a784a67: set_level 7 (the lamp at 7 percent at once), set_brightness 7 (the kitchen lights at 7 percent)
    (lambda: InMemoryHome(inventory=coloured_inventory()), "switch on the lounge lamp at 7",
     ("switch_device", {"name": "lounge_lamp", "state": "on"}), "turn on the lounge lamp"),
    (InMemoryHome, "turn on the kitchen light at 7", ("set_device", {"device": "light", "room": "kitchen",
                                                                      "state": "on"}), "turn on the kitchen light"),
])
def test_a_bare_hour_after_a_switch_on_schedules_it_and_a_number_past_12_is_a_level(assistant, home, said, call, what):
    tools = ToolRunner(home())
    answer = respond_sync(assistant, [{"role": "user", "content": said}], tools)
    assert [(made.name, made.arguments) for made in answer.tool_calls] == [call], answer
    assert SCHEDULED.fullmatch(answer.text)["what"] == what and answer.text[-6:-1] in ("07:00", "19:00"), answer
    assert tools.home.devices == {} and tools.home.states == {}
    level = respond_sync(assistant, [{"role": "user", "content": said.replace(" at 7", " at 70")}], tools)
    assert level.text.endswith("at 70 percent."), level


@pytest.mark.usefixtures("needs_assistant")
@pytest.mark.parametrize("said, call", [("ping me in ten minutes", "set_timer"),
                                        ("remind me to take the bread out in 10 minutes", "set_timer"),
                                        ("wake me up at 7 am", "set_alarm")])
def test_a_timer_or_an_alarm_said_with_its_time_is_no_change_for_later(assistant, said, call):
    tools = ToolRunner(InMemoryHome())
    answer = respond_sync(assistant, [{"role": "user", "content": said}], tools)
    assert [made.name for made in answer.tool_calls] == [call], answer


# ---- end to end: the Realtime endpoint, a real Mosquitto, the made-up home's devices

@pytest.fixture(scope="module")
def published_home(broker):
    asyncio.run(publish_home(broker))
    yield
    asyncio.run(clear_home(broker))


def home_server(server_factory, broker, **fields):
    server = server_factory(**fields)
    home = MqttHome(login(broker, "parley"), confirm_timeout=3.0, backoff=Backoff(initial=0.1, maximum=0.5))
    server.call(home.start())
    server.call(home.wait_connected(10))
    server.call(wait_for(lambda: len(home.inventory) == 40))
    server.ctx.home = home
    return server, home


@pytest.fixture
async def devices(broker):
    async with playing(play_devices, broker) as commands:
        yield commands


@pytest.fixture(scope="module")
def server(published_home, broker, server_factory):
    server, home = home_server(server_factory, broker)
    yield server
    server.call(home.close())


async def session(server, query: str = "") -> tuple[RealtimeClient, str]:
    client = await RealtimeClient.connect(server.ws_url + query)
    created = await client.wait_for("session.created")
    return client, created["session"]["id"]


ARC_LAMP_ON = ("zigbee2mqtt/arc_lamp/set", b'{"state": "ON"}')
ARC_LAMP_OFF = ("zigbee2mqtt/arc_lamp/set", b'{"state": "OFF"}')


@pytest.mark.usefixtures("needs_assistant")
async def test_a_change_scheduled_two_seconds_ahead_is_made_and_the_session_hears_it(server, devices):
    client, _ = await session(server)
    said = spoken(await typed(client, "turn on the arc lamp in 2 seconds"))
    assert SCHEDULED.fullmatch(said)["what"] == "turn on the arc lamp", said
    await wait_for(lambda: ARC_LAMP_ON in devices)     # at its time, bounded (not before it: the runner's tests)
    await wait_for(lambda: len(client.of_type("response.done")) == 2)
    heard = [event["response"]["output"][0]["content"][0]["transcript"] for event in client.of_type("response.done")]
    assert heard[1] == "As you asked, I turned on the arc lamp.", heard
    await client.close()


@pytest.mark.usefixtures("needs_assistant")
async def test_a_scene_run_two_seconds_ahead_is_said_in_its_own_words(server, devices):
    client, _ = await session(server)
    said = spoken(await typed(client, "activate the regatta scene in 2 seconds"))
    assert SCHEDULED.fullmatch(said)["what"] == "run the regatta scene", said     # c189862: "make that change"
    await wait_for(lambda: ("esphome/scenes/regatta", b"RUN") in devices)
    await wait_for(lambda: len(client.of_type("response.done")) == 2)
    heard = client.of_type("response.done")[1]["response"]["output"][0]["content"][0]["transcript"]
    assert heard == "As you asked, I ran the regatta scene.", heard
    await client.close()


@pytest.mark.usefixtures("needs_assistant")
async def test_a_cancelled_change_is_not_made_and_a_listed_one_is_said(server, devices):
    client, _ = await session(server)
    due = asyncio.get_running_loop().time() + 8
    assert SCHEDULED.fullmatch(spoken(await typed(client, "turn off the arc lamp in 8 seconds")))
    assert spoken(await typed(client, "cancel that")) == "Okay, I won't turn off the arc lamp."
    assert SCHEDULED.fullmatch(spoken(await typed(client, "turn on the arc lamp in 10 minutes")))
    assert re.fullmatch(r"Scheduled: turn on the arc lamp at \d\d:\d\d\.", spoken(await typed(client, "what's scheduled")))
    assert spoken(await typed(client, "cancel the arc lamp one")) == "Okay, I won't turn on the arc lamp."
    assert spoken(await typed(client, "what's scheduled")) == "You have no changes scheduled."
    await asyncio.sleep(max(0.0, due - asyncio.get_running_loop().time()) + 1)    # past its time
    assert ARC_LAMP_OFF not in devices and ARC_LAMP_ON not in devices
    await client.close()


@pytest.mark.usefixtures("needs_assistant")
async def test_a_switch_on_at_a_bare_hour_is_scheduled_on_the_real_home_and_at_70_is_a_level_now(server, devices):
    client, _ = await session(server)           # on a784a67 the arc lamp was set to 7 percent at once
    said = spoken(await typed(client, "switch on the arc lamp at 7"))
    assert SCHEDULED.fullmatch(said)["what"] == "turn on the arc lamp" and said[-6:-1] in ("07:00", "19:00"), said
    assert re.fullmatch(r"Scheduled: turn on the arc lamp at (07|19):00\.", spoken(await typed(client, "what's scheduled")))
    assert devices == []                        # nothing sent to the lamp now
    assert spoken(await typed(client, "cancel the arc lamp one")) == "Okay, I won't turn on the arc lamp."
    level = spoken(await typed(client, "switch on the arc lamp at 70"))
    assert level.endswith("at 70 percent."), level
    await wait_for(lambda: any(topic == "zigbee2mqtt/arc_lamp/set" and b"brightness" in payload
                               for topic, payload in devices))
    await client.close()


@pytest.mark.usefixtures("needs_assistant")
async def test_an_unknown_name_said_for_later_schedules_nothing(server, devices):
    client, _ = await session(server)
    said = spoken(await typed(client, "turn on the chapel lamp in 10 minutes"))
    assert said == "I don't know a device called the chapel lamp."
    assert spoken(await typed(client, "what's scheduled")) == "You have no changes scheduled."
    assert devices == []
    await client.close()


@pytest.mark.usefixtures("needs_assistant")
async def test_a_scheduled_change_survives_a_restart_and_is_made_though_nobody_is_connected(
        published_home, broker, server_factory, devices, tmp_path):
    store = f"sqlite://{tmp_path}/state.db"
    first, home = home_server(server_factory, broker, store=store)
    client, _ = await session(first)
    assert SCHEDULED.fullmatch(spoken(await typed(client, "turn on the arc lamp in 8 seconds")))
    await client.close()
    first.call(home.close())
    first.stop()
    assert ARC_LAMP_ON not in devices
    restarted, home = home_server(server_factory, broker, store=store)
    await wait_for(lambda: ARC_LAMP_ON in devices, timeout=20)
    await asyncio.sleep(1)
    assert devices.count(ARC_LAMP_ON) == 1                 # exactly once
    restarted.call(home.close())


PIANO_LIGHT_OFF = ("zigbee2mqtt/piano_light/set", b'{"state": "OFF"}')
SALT_LAMP_OFF = ("zigbee2mqtt/salt_lamp/set", b'{"state": "OFF"}')


@pytest.mark.usefixtures("needs_assistant")
async def test_them_said_for_later_switches_the_things_listed_when_said_not_those_listed_by_then(server, devices):
    """ "turn them off in 8 seconds" after a summary: the things it named, stored with the change; a second summary
    of other things before its time changes nothing of it (on 8497cd1 the reply said "the things I listed" and the
    latest summary's things were switched at its time)."""
    client, _ = await session(server)
    for said in ("turn on the arc lamp", "turn on the salt lamp", "turn on the piano light"):
        await typed(client, said)
    await wait_for(lambda: {"zigbee2mqtt/arc_lamp/set", "zigbee2mqtt/salt_lamp/set",
                            "zigbee2mqtt/piano_light/set"} <= {topic for topic, _ in devices})
    assert spoken(await typed(client, "which lights are on in the snug")) == "The arc lamp and the salt lamp are on."
    # eight seconds, not two: the second summary's answer must come before the change's line (under load it did not)
    said = spoken(await typed(client, "turn them off in 8 seconds"))
    assert SCHEDULED.fullmatch(said)["what"] == "turn off the arc lamp and the salt lamp", said
    assert spoken(await typed(client, "which lights are on in the music room")) == "The piano light is on."
    await wait_for(lambda: len(client.of_type("response.done")) == 7, timeout=20)      # the line said at its time
    heard = client.of_type("response.done")[-1]["response"]["output"][0]["content"][0]["transcript"]
    assert heard == "As you asked, I turned off the arc lamp and the salt lamp.", heard
    assert ARC_LAMP_OFF in devices and SALT_LAMP_OFF in devices and PIANO_LIGHT_OFF not in devices
    assert spoken(await typed(client, "which lights are on in the snug")) == "No lights are on in the snug."
    assert spoken(await typed(client, "which lights are on in the music room")) == "The piano light is on."
    await client.close()
