"""Discovery configs are untrusted input (issue 25 N1, N8, N9): a long name, a flood of configs, a lamp aimed at a
lock's topic and a NUL in a topic are bounded or refused, on a real Mosquitto where a broker is involved."""
import asyncio
import contextlib
import json
import logging

import pytest

from made_up_home import clear_home, play_devices, publish_home, stopped, wait_for
from mqtt_devices import login
from realtime_client import RealtimeClient
from assistant.home import InMemoryHome
from assistant.inventory import MAX_ENTITIES, MAX_NAME_WORDS, Inventory
from assistant.tools import ToolRunner
from streaming.transports.mqtt.connection import Backoff
from streaming.transports.mqtt.home import MqttHome


def discover(inventory: Inventory, key: str, component: str = "light", **config) -> None:
    inventory.receive_discovery(f"homeassistant/{component}/{key}/config", json.dumps(config))


def test_a_name_longer_than_the_bound_is_refused_at_discovery():
    inventory = Inventory()
    discover(inventory, "long", name=" ".join(f"word{i}" for i in range(700)), command_topic="a/set")
    discover(inventory, "wide", name="x" * 3400, command_topic="b/set")
    discover(inventory, "ok", name=" ".join(["lamp"] * MAX_NAME_WORDS), command_topic="c/set")
    assert [e.key for e in inventory.entities()] == ["light/ok"]


async def test_sessions_share_one_lexicon_per_home_version_built_off_the_event_loop():
    inventory = Inventory()
    for i in range(MAX_ENTITIES - 1):
        discover(inventory, f"e{i}", name=" ".join(f"w{i}x{j}" for j in range(MAX_NAME_WORDS)), command_topic=f"t/{i}")
    home = InMemoryHome(inventory=inventory)
    first, second = ToolRunner(home), ToolRunner(home)
    ticks = 0

    async def tick():
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0)

    ticker = asyncio.create_task(tick())
    await asyncio.sleep(0)
    ticks = 0
    a, b = await asyncio.gather(first.lexicon(), second.lexicon())
    ticker.cancel()
    assert a is b and ticks > 0                        # one copy, and the loop ran other work while it was built
    assert "w7x3 w7x4" in a[0] and len(a[0]) < MAX_ENTITIES * MAX_NAME_WORDS * (MAX_NAME_WORDS + 1)
    discover(inventory, "new", name="Harp Light", command_topic="harp/set")
    assert "harp light" in (await first.lexicon())[0]


@pytest.mark.parametrize("topic", ["a\u0000b", "a/+/set", "a/#", "", "$SYS/broker", "x" * 300])
def test_a_topic_mqtt_would_refuse_is_refused_at_discovery(topic):
    inventory = Inventory()
    discover(inventory, "bad", name="Hall Lamp", command_topic=topic, state_topic="hall/lamp")
    discover(inventory, "bad_state", name="Hall Fan", command_topic="hall/fan/set", state_topic=topic)
    assert inventory.entities() == []


HALL_DOOR = {"name": "Hall Door", "command_topic": "zigbee2mqtt/hall_door/set", "state_topic": "zigbee2mqtt/hall_door/state",
             "payload_lock": "LOCK", "payload_unlock": "UNLOCK", "device": {"suggested_area": "Hall"}}
AIMED = [   # lamps whose "on" would unlock or open something: each must wait for the spoken yes
    ("light", "hall_lamp", {"name": "Hall Lamp", "command_topic": "zigbee2mqtt/hall_door/set", "payload_on": "UNLOCK"}),
    ("switch", "porch_plug", {"name": "Porch Plug", "command_topic": "zigbee2mqtt/hall_door/set"}),
    ("light", "attic_lamp", {"name": "Attic Lamp", "command_topic": "zigbee2mqtt/some_lock/set", "payload_on": "unlock"}),
    ("light", "den_lamp", {"name": "Den Lamp", "command_topic": "zigbee2mqtt/garage/set",
                           "schema": "json"}),
    ("scene", "party", {"name": "Party", "command_topic": "zigbee2mqtt/other_lock/set",
                        "payload_on": '{"state": "UNLOCK"}'}),
    ("switch", "shed_plug", {"name": "Shed Plug", "command_topic": "esphome/shed/set", "payload_on": "OPEN"}),
]
GARAGE = {"name": "Garage Door", "command_topic": "zigbee2mqtt/garage/set", "state_topic": "zigbee2mqtt/garage/state",
          "device_class": "garage"}
HOSTILE = [("lock", "hall_door", HALL_DOOR), ("cover", "garage", GARAGE), *AIMED]


@pytest.fixture
async def hostile_home(broker):
    await publish_home(broker, HOSTILE)
    commands: list = []
    devices = asyncio.create_task(play_devices(broker, commands))
    home = MqttHome(login(broker, "parley"), confirm_timeout=1.0, backoff=Backoff(initial=0.1, maximum=0.5))
    await home.start()
    await home.wait_connected(5)
    await wait_for(lambda: len(home.inventory) == len(HOSTILE))
    await asyncio.sleep(0.3)
    yield home, commands
    await stopped(home, devices)
    await clear_home(broker, HOSTILE)


async def test_a_command_that_could_unlock_or_open_waits_for_the_spoken_yes(hostile_home):
    home, commands = hostile_home
    tools = ToolRunner(home)
    for call in [("switch_device", {"name": "hall_lamp", "state": "on"}),
                 ("switch_device", {"name": "porch_plug", "state": "on"}),
                 ("switch_device", {"name": "attic_lamp", "state": "on"}),
                 ("set_level", {"name": "den_lamp", "percent": 40}),
                 ("activate_scene", {"name": "party"}),
                 ("switch_device", {"name": "shed_plug", "state": "on"}),
                 ("switch_all", {"name": "everything", "state": "on"})]:
        answer = await tools.run(*call)
        assert "Say yes to confirm" in answer or "could unlock or open" in answer, (call, answer)
    await asyncio.sleep(0.5)
    assert commands == []                                  # nothing went out
    assert await tools.run("switch_device", {"name": "hall_lamp", "state": "on"}) == \
        "Do you want me to switch on the hall lamp? Say yes to confirm."
    tools.begin_reply([{"role": "user", "content": "yes"}])                 # the user's next turn
    assert await tools.run("confirm", {"answer": "yes"}) == "Okay, the hall lamp is on."     # no state topic: optimistic
    await wait_for(lambda: commands == [("zigbee2mqtt/hall_door/set", b"UNLOCK")])   # on the yes, and nothing before


async def test_a_flood_of_retained_configs_is_bounded_logged_once_and_control_stays_up(broker, caplog):
    flood = [("switch", f"flood_{i}", {"name": f"Flood Plug {i}", "command_topic": f"flood/{i}/set"})
             for i in range(MAX_ENTITIES + 8000)]
    kiln = ("switch", "kiln", {"name": "Kiln", "cmd_t": "tasmota/kiln/cmnd/POWER", "stat_t": "tasmota/kiln/stat/POWER",
                               "pl_on": "1", "pl_off": "0"})
    await publish_home(broker, [kiln])
    async with login(broker, "home").client() as client:
        for component, object_id, config in flood:
            await client.publish(f"homeassistant/{component}/{object_id}/config", json.dumps(config), qos=0, retain=True)
    commands: list = []
    devices = asyncio.create_task(play_devices(broker, commands))
    home = MqttHome(login(broker, "parley"), confirm_timeout=3.0, backoff=Backoff(initial=0.1, maximum=0.5))
    try:
        with caplog.at_level(logging.INFO):
            await home.start()
            await home.wait_connected(5)
            await wait_for(lambda: home.inventory.resolve("kiln"), timeout=60)
            answer = await ToolRunner(home).run("switch_device", {"name": "kiln", "state": "on"})
            await wait_for(lambda: len(home.inventory) == MAX_ENTITIES, timeout=120)
        assert answer == "Okay, the kiln is on."
        lines = [r for r in caplog.records if r.name.startswith("parley") and r.levelno >= logging.INFO]
        assert len(lines) <= 3, [r.getMessage() for r in lines[:5]]
    finally:
        await stopped(home, devices)
        async with login(broker, "home").client() as client:
            for component, object_id, _ in [kiln, *flood]:
                await client.publish(f"homeassistant/{component}/{object_id}/config", b"", qos=0, retain=True)


@pytest.fixture(scope="module")
def hostile_server(broker, server_factory):
    """A server whose sessions act on the hostile home through MqttHome, as `parley serve --mqtt-host` runs it."""
    asyncio.run(publish_home(broker, HOSTILE))
    server = server_factory()
    home = MqttHome(login(broker, "parley"), confirm_timeout=1.0, backoff=Backoff(initial=0.1, maximum=0.5))
    server.call(home.start())
    server.call(home.wait_connected(10))
    server.call(wait_for(lambda: len(home.inventory) == len(HOSTILE)))
    server.ctx.home = home
    yield server
    server.call(home.close())
    asyncio.run(clear_home(broker, HOSTILE))


async def test_through_the_realtime_endpoint_a_lamp_aimed_at_a_lock_asks_first(hostile_server, broker, needs_assistant):
    commands: list = []
    devices = asyncio.create_task(play_devices(broker, commands))
    await asyncio.sleep(0.3)
    client = await RealtimeClient.connect(hostile_server.ws_url)
    try:
        await client.wait_for("session.created")
        for request in ("turn on the hall lamp", "switch on the porch plug"):
            said = await typed(client, request)
            assert "Say yes to confirm" in said, (request, said)
        said = await typed(client, "turn on everything")
        assert said.startswith("Okay, 0 devices are on. Left as they are, since switching could unlock or open")
        await asyncio.sleep(0.5)
        assert commands == []
    finally:
        await client.close()
        devices.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await devices


async def typed(client, text: str) -> str:
    start = len(client.events)
    await client.send({"type": "conversation.item.create", "item": {
        "type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}})
    await client.send({"type": "response.create"})
    response = (await client.wait_for("response.done", timeout=60, start=start))["response"]
    return response["output"][-1]["content"][0]["transcript"]
