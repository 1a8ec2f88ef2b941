"""A third home, a farmhouse learnt from discovery in Zigbee2MQTT's, Tasmota's and ESPHome's shapes, and how a said
name finds its things there: a name said in two parts, an area said as an owner, a verb that is a word of a
name, a cover's kind word, things named together, a lock said by its area (phrasings written for these
mechanisms, not rows of a development set). Its discovery is read through a real Mosquitto."""
import asyncio
import json

import pytest

from assistant.chat_template import model_prompt, named_move
from assistant.generator import respond_sync
from assistant.home import InMemoryHome
from assistant.inventory import spelling_key
from assistant.second_opinion import SecondOpinion
from assistant.spoken_numbers import normalize_request
from assistant.tools import ToolRunner
from made_up_home import wait_for
from mqtt_devices import login
from streaming.transports.mqtt.connection import Backoff
from streaming.transports.mqtt.home import MqttHome
from third_home import DISCOVERY, discovery_messages, third_inventory


def slots_in(inventory, said: str):
    slots = model_prompt([{"role": "user", "content": said}], inventory.lexicon())[1]
    slots.request = normalize_request(said)
    return slots


def prompt_of(inventory, said: str) -> str:
    return model_prompt([{"role": "user", "content": said}], inventory.lexicon())[0].rsplit("<|user|>", 1)[1]


async def test_the_third_home_is_learnt_through_mosquitto_and_driven_on_its_own_topics(broker):
    async with login(broker, "home").client() as client:
        for topic, payload in discovery_messages():
            await client.publish(topic, payload, qos=1, retain=True)
    home = MqttHome(login(broker, "parley"), confirm_timeout=0.5, backoff=Backoff(initial=0.1, maximum=0.5))
    await home.start()
    try:
        await home.wait_connected(5)
        await wait_for(lambda: len(home.inventory) == len(DISCOVERY))
        learnt = {(e.name, e.area, e.component) for e in home.inventory.entities()}
        assert learnt == {(e.name, e.area, e.component) for e in third_inventory().entities()}
        assert {("festoon lights", "orchard", "light"), ("centre light", "games room", "light"),
                ("dairy extractor", "dairy", "fan"), ("colour strip", None, "light")} <= learnt
        heard = []
        async with login(broker, "home").client() as client:
            await client.subscribe("zigbee2mqtt/#", qos=1)
            tools = ToolRunner(home)
            # a heater's whole name said as many: its temperature, on its own topic
            run = asyncio.create_task(tools.run("set_level", {"name": "garret_radiators", "percent": 19}))
            async with asyncio.timeout(5):
                async for message in client.messages:
                    heard.append((str(message.topic), bytes(message.payload)))
                    if str(message.topic).endswith("current_heating_setpoint"):
                        break
            await run
        assert ("zigbee2mqtt/Garret Radiator/set/current_heating_setpoint", b"19") in heard
    finally:
        await home.close()
        async with login(broker, "home").client() as client:
            for topic, _ in discovery_messages():
                await client.publish(topic, b"", qos=1, retain=True)


@pytest.mark.parametrize("said, names, areas", [
    ("switch on the lamp by the bay window", ["bay window lamp"], []),         # two parts, one thing has both
    ("the blind in the bay window, down please", ["bay window blind"], []),
    ("the light above the dresser on", ["light", "dresser"], []),           # no thing has both: two parts
    ("the lamp in the hayloft on", ["lamp"], ["hayloft"]),                   # the second part is an area: placed
    ("turn the upper landing light off in the landing", ["upper landing light"], ["landing"]),
    ("open the garret's shutters", ["shutters"], ["garret"]),               # an area said as an owner
    ("the morning room's stove to twenty", ["stove"], ["morning room"]),
    ("set the colour strip to half", ["colour strip"], []),                 # "set" of the wireless set: the verb
    ("turn the set off", ["set"], []),                                      # after a determiner: the name
    ("switch on the morning room big lamp", ["big lamp"], ["morning room"]),  # a word after the area: more of the name
])
def test_how_said_names_reach_the_model(said, names, areas):
    slots = slots_in(third_inventory(), said)
    assert (slots.names, slots.areas) == (names, areas), prompt_of(third_inventory(), said)


def test_the_house_at_the_end_of_a_place_is_the_whole_home():
    """ "every light in the house": no part of the "carriage house door" of the discovered home."""
    from discovered_home import discovered_inventory
    assert slots_in(discovered_inventory(), "turn every light in the house off, we're leaving").names == ["light"]
    assert slots_in(discovered_inventory(), "open the carriage house door").names == ["carriage house door"]


def test_a_names_last_word_said_as_a_verb_is_that_name():
    names = slots_in(third_inventory(), "is the cider pressing yet").names
    assert [spelling_key(name) for name in names] == [spelling_key("cider press")]


def test_a_covers_kind_word_names_only_covers_of_that_kind():
    inventory = third_inventory()
    assert [e.name for e in inventory.resolve("shutters", "garret")] == ["dormer shutters"]
    assert inventory.resolve("shutters", "woodshed") == []           # the woodshed's cover is a garage door
    assert inventory.resolve("blind", "garret") == []                # the garret's cover is shutters
    assert [e.name for e in inventory.resolve("blind", "morning room")] == ["bay window blind"]


@pytest.mark.parametrize("said, call", [
    ("unlock the stable door for the farrier", {"name": "set_lock", "arguments": {"name": "stable door",
                                                                                 "action": "unlock"}}),
    ("open up the woodshed", {"name": "set_cover", "arguments": {"name": "woodshed door", "action": "open"}}),
    ("open the woodshed window", None),                       # a word after the area that may be a thing it lacks
    ("lock the yard", None),                                  # two locks there
    ("lock the dairy", None),                                 # none there
    ("the upper landing light and the lower landing light, both off",
     {"name": "switch_all", "arguments": {"name": "lights", "area": "landing", "state": "off"}}),
])
def test_a_lock_or_cover_said_by_its_area_and_things_named_together_are_read_by_code(said, call):
    inventory = third_inventory()
    found = named_move(slots_in(inventory, said), inventory)
    assert found == call and (found is None or not slots_in(inventory, said).refuses(found, ""))


def test_one_of_several_things_named_together_is_not_the_request():
    slots = slots_in(third_inventory(), "switch on the hayloft lamp and switch off the kennel heater")
    assert slots.refuses({"name": "switch_device", "arguments": {"name": "kennel heater", "state": "on"}}, "")
    alone = slots_in(third_inventory(), "switch off the kennel heater")
    assert not alone.refuses({"name": "switch_device", "arguments": {"name": "kennel heater", "state": "off"}}, "")


def test_home_assistants_reading_names_only_a_thing_where_it_is():
    opinion, inventory = SecondOpinion.shared(), third_inventory()
    said = "turn on the paddock floodlight"                      # the floodlight is the yard's
    assert opinion.call([normalize_request(said), said], inventory) is None
    said = "turn on the yard floodlight"
    assert opinion.call([normalize_request(said), said], inventory) is not None


@pytest.mark.parametrize("request_, changed", [
    ("the pump for the water butt on please", {"switch/B4E62D0A1F06_RL_1": "on"}),
    ("turn on the lamp in the garret", {}),                   # the garret has no lamp
    ("open the games room shutters", {}),
    ("put the egg warmer on", {}),                            # part of a name beside a word no thing has
    ("turn on the morning room big lamp", {}),                # a word no thing has, between the area and a lamp
])
def test_a_name_said_otherwise_in_the_third_home_acts_on_that_thing_only(assistant, request_, changed):
    home = InMemoryHome(inventory=third_inventory())
    reply = respond_sync(assistant, [{"role": "user", "content": request_}], ToolRunner(home))
    assert home.states == changed, reply


def test_a_part_of_several_names_said_as_many_is_all_of_them():
    slots = slots_in(third_inventory(), "turn the landing lights on")
    call = {"name": "switch_device", "arguments": {"name": "landing light", "state": "on"}}
    assert slots.placed(call) == {"name": "switch_all", "arguments": {"name": "landing light", "state": "on"}}
    one = slots_in(third_inventory(), "turn the landing light on")                  # one of them: "which one?"
    assert one.placed(call) == call
