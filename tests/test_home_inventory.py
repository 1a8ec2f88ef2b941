"""The home inventory: Home Assistant MQTT discovery parsing, inventory files, names resolved against them."""
import json
import logging

import pytest

from assistant.home import InMemoryHome
from assistant.inventory import DiscoveryError, Inventory, load_inventory_file, parse_discovery, vocabulary_inventory
from assistant.tools import ToolRunner
from voice.heard_names import hear_names


def config(**fields) -> str:
    return json.dumps(fields)


def test_every_component_is_learnt_with_its_topics_and_payloads():
    inventory = Inventory()
    inventory.receive_discovery("homeassistant/light/porch/config", config(
        name="Porch Light", schema="json", command_topic="z2m/porch/set", state_topic="z2m/porch",
        brightness_scale=100))
    inventory.receive_discovery("homeassistant/switch/node1/kettle/config", config(
        name="Kettle", cmd_t="tasmota/kettle/cmnd/POWER", stat_t="tasmota/kettle/stat/POWER", pl_on="1", pl_off="0",
        dev={"name": "Kettle", "sa": "Kitchen"}))
    inventory.receive_discovery("homeassistant/fan/ceiling/config", config(
        **{"~": "esp/den_fan"}, name="Ceiling Fan", command_topic="~/set", state_topic="~/state",
        device={"suggested_area": "Den"}))
    inventory.receive_discovery("homeassistant/climate/heat/config", config(
        name="Heat Pump", temperature_command_topic="hp/target/set", temperature_state_topic="hp/target"))
    inventory.receive_discovery("homeassistant/cover/garage/config", config(
        name="Garage Door", device_class="garage", command_topic="g/set", state_topic="g/state",
        payload_open="UP", payload_close="DOWN", state_open="up", state_closed="down"))
    inventory.receive_discovery("homeassistant/lock/front/config", config(
        name="Front Door", command_topic="l/set", state_topic="l/state", payload_lock="LOCK", payload_unlock="UNLOCK"))
    inventory.receive_discovery("homeassistant/scene/movie/config", config(name="Movie Time", command_topic="s/movie",
                                                                            payload_on="GO"))
    inventory.receive_discovery("homeassistant/sensor/nursery_t/config", config(
        name="Nursery Temperature", device_class="temperature", state_topic="n/t", unit_of_measurement="°C"))
    inventory.receive_discovery("homeassistant/binary_sensor/mail/config", config(
        name="Mailbox", device_class="opening", state_topic="m/state"))
    by_name = {e.name: e for e in inventory.entities()}
    assert set(by_name) == {"porch light", "kettle", "ceiling fan", "heat pump", "garage door", "front door",
                            "movie time", "nursery temperature", "mailbox"}
    light = by_name["porch light"]
    assert (light.component, light.area, light.json_schema, light.brightness_scale) == ("light", "porch", True, 100)
    assert (light.command_topic, light.state_topic) == ("z2m/porch/set", "z2m/porch")
    kettle = by_name["kettle"]
    assert (kettle.area, kettle.command_topic, kettle.payload("payload_on", "ON")) == ("kitchen", "tasmota/kettle/cmnd/POWER", "1")
    assert by_name["ceiling fan"].command_topic == "esp/den_fan/set" and by_name["ceiling fan"].area == "den"
    assert by_name["heat pump"].topics["temperature_command_topic"] == "hp/target/set"
    garage = by_name["garage door"]
    assert (garage.device_class, garage.payload("payload_open", "OPEN"), garage.payload("state_closed", "closed")) == \
        ("garage", "UP", "down")
    assert by_name["front door"].payload("payload_unlock", "") == "UNLOCK"
    assert by_name["movie time"].payload("payload_on", "ON") == "GO"
    assert (by_name["nursery temperature"].area, by_name["nursery temperature"].unit) == ("nursery", "°C")
    assert by_name["mailbox"].device_class == "opening"


def test_an_empty_payload_removes_the_entity_and_a_new_config_replaces_it():
    inventory = Inventory()
    inventory.receive_discovery("homeassistant/light/lamp/config", config(name="Lamp", command_topic="a/set"))
    inventory.receive_discovery("homeassistant/light/lamp/config", config(name="Desk Lamp", command_topic="a/set"))
    assert [e.name for e in inventory.entities()] == ["desk lamp"]
    version = inventory.version
    inventory.receive_discovery("homeassistant/light/lamp/config", b"")
    assert inventory.entities() == [] and inventory.version > version


@pytest.mark.parametrize("topic, payload", [
    ("homeassistant/light/x/config", "{not json"),
    ("homeassistant/light/x/config", "[1, 2]"),
    ("homeassistant/light/x/config", config(command_topic="a/set")),                 # no name
    ("homeassistant/light/x/config", config(name="Lamp")),                            # no command topic
    ("homeassistant/sensor/x/config", config(name="Temp")),                           # no state topic
    ("homeassistant/climate/x/config", config(name="Heat", command_topic="h/set")),   # no temperature topic
    ("homeassistant/light/x/config", config(name="Lamp", command_topic="a/#")),       # wildcard
    ("homeassistant/lawn_mower/x/config", config(name="Mower", command_topic="m/set")),   # not a component we drive
    ("homeassistant/light/config", config(name="Lamp", command_topic="a/set")),       # not a config topic
])
def test_malformed_configs_are_logged_and_ignored(caplog, topic, payload):
    inventory = Inventory()
    inventory.receive_discovery("homeassistant/switch/ok/config", config(name="Printer", command_topic="p/set"))
    with caplog.at_level(logging.WARNING, logger="parley.inventory"):
        assert inventory.receive_discovery(topic, payload) is None
    assert "discovery config ignored" in caplog.text
    assert [e.name for e in inventory.entities()] == ["printer"]
    with pytest.raises(DiscoveryError):
        parse_discovery(topic, payload)


def test_area_comes_from_the_device_or_from_the_name():
    inventory = Inventory()
    inventory.receive_discovery("homeassistant/light/a/config", config(name="Lamp", command_topic="a",
                                                                       device={"name": "Bedroom", "suggested_area": "Bedroom"}))
    inventory.receive_discovery("homeassistant/light/b/config", config(name="Attic Light", command_topic="b"))
    inventory.receive_discovery("homeassistant/light/c/config", config(name="Light Strip", command_topic="c"))
    areas = {e.name: e.area for e in inventory.entities()}
    assert areas == {"bedroom lamp": "bedroom", "attic light": "attic", "light strip": None}


def test_names_resolve_exactly_by_part_by_area_or_ambiguously():
    inventory = Inventory()
    for key, name, area in [("a", "Bedroom Lamp", "Bedroom"), ("b", "Reading Lamp", "Den"), ("c", "Ceiling Fan", "Den")]:
        inventory.receive_discovery(f"homeassistant/light/{key}/config", config(
            name=name, command_topic=f"{key}/set", device={"suggested_area": area}))
    names = lambda found: sorted(e.name for e in found)  # noqa: E731
    assert names(inventory.resolve("reading lamp")) == ["reading lamp"]
    assert names(inventory.resolve("reading")) == ["reading lamp"]
    assert names(inventory.resolve("lamp")) == ["bedroom lamp", "reading lamp"]
    assert names(inventory.resolve("lamp", "den")) == ["reading lamp"]
    assert names(inventory.resolve("lights")) == ["bedroom lamp", "ceiling fan", "reading lamp"]   # all light entities
    assert names(inventory.resolve("everything", "den")) == ["ceiling fan", "reading lamp"]
    assert inventory.resolve("dishwasher") == [] and inventory.resolve("lamp", "attic") == []
    names_, areas = inventory.lexicon()
    assert {"reading lamp", "reading", "lamp", "lamps", "ceiling fan"} <= names_ and areas == {"bedroom", "den"}


def test_inventory_file_yaml_and_json(tmp_path):
    yaml_file = tmp_path / "home.yaml"
    yaml_file.write_text(
        "entities:\n"
        "  - {name: Porch Light, component: light, command_topic: porch/light/set, state_topic: porch/light}\n"
        "  - {name: Blinds, component: cover, area: Nursery, cmd_t: nursery/blinds/set}\n")
    inventory = load_inventory_file(yaml_file)
    assert inventory.custom and {(e.name, e.area, e.component) for e in inventory.entities()} == {
        ("porch light", "porch", "light"), ("blinds", "nursery", "cover")}
    json_file = tmp_path / "home.json"
    json_file.write_text(json.dumps([{"name": "Kettle", "component": "switch", "command_topic": "k/set"}]))
    assert [e.name for e in load_inventory_file(json_file).entities()] == ["kettle"]
    json_file.write_text(json.dumps([{"name": "Mower", "component": "lawn_mower", "command_topic": "m/set"}]))
    with pytest.raises(DiscoveryError, match="entity 1: component"):
        load_inventory_file(json_file)


def test_the_default_inventory_is_the_vocabulary_on_home_topics():
    inventory = vocabulary_inventory()
    assert not inventory.custom
    [light] = inventory.resolve("light", "kitchen")
    assert (light.command_topic, light.state_topic) == ("home/kitchen/light/set", "home/kitchen/light/state")
    assert len(inventory.resolve("everything", "living room")) == 7 + 2     # 7 devices and 2 sensors


def test_the_speech_recogniser_hears_areas_first_then_names_once_sensors_last():
    inventory = Inventory()
    inventory.receive_discovery("homeassistant/light/a/config", json.dumps(
        {"name": "Reading Lamp", "command_topic": "a/set", "device": {"suggested_area": "Den"}}))
    inventory.receive_discovery("homeassistant/switch/b/config", json.dumps(
        {"name": "Kiln", "command_topic": "b/set", "device": {"suggested_area": "Den"}}))
    inventory.receive_discovery("homeassistant/sensor/c/config", json.dumps(
        {"name": "Attic Humidity", "state_topic": "c", "device_class": "humidity"}))
    inventory.receive_discovery("homeassistant/switch/d/config", json.dumps({"name": "Kettle", "command_topic": "d"}))
    assert inventory.spoken_names() == ("den", "attic", "reading lamp", "kiln", "kettle", "attic humidity")
    tools = ToolRunner(InMemoryHome(inventory=inventory))
    assert tools.spoken_names() == ("den", "attic", "reading lamp", "kiln", "kettle", "attic humidity")
    inventory.receive_discovery("homeassistant/switch/b/config", "")
    assert tools.spoken_names() == ("den", "attic", "reading lamp", "kettle", "attic humidity")   # a live change
    assert ToolRunner().spoken_names() == ()        # the default home: Whisper's fixed prompt has its words
    assert tools.home_names() == tools.spoken_names()


def test_the_default_homes_names_are_heard_though_not_in_the_prompt():
    """Whisper writes the default home's names otherwise too: "garage heat" for the garage heater is asked about."""
    tools = ToolRunner()
    assert {"garage", "garage heater", "thermostat", "hallway light"} <= set(tools.home_names())
    hearing = hear_names("Turn the garage heat around.", tools.home_names())
    assert hearing.guessed == {"garage heater": "garage heat"}
    assert hear_names("Turn on the kitchen light.", tools.home_names()).text == "Turn on the kitchen light."


def test_a_name_resolves_by_plural_extra_class_word_and_either_spelling_and_an_unknown_word_finds_nothing():
    inventory = Inventory()
    for key, name, component in [("dormer", "Dormer Blinds", "cover"), ("coach", "Coach House Door", "lock"),
                                 ("lava", "Lava Lamp", "light"), ("torch", "Torchiere", "light"),
                                 ("parlour", "Parlour Lamp", "light"), ("colour", "Color Strip", "light")]:
        inventory.receive_discovery(f"homeassistant/{component}/{key}/config", config(name=name, command_topic=f"{key}/set"))
    keys = lambda found: sorted(e.key for e in found)  # noqa: E731
    assert keys(inventory.resolve("chapel blinds")) == [] and keys(inventory.resolve("hen house door")) == []
    assert keys(inventory.resolve("lava lamps")) == ["light/lava"]
    assert keys(inventory.resolve("torchiere lamp")) == ["light/torch"]
    assert keys(inventory.resolve("parlor lamp")) == ["light/parlour"]
    assert keys(inventory.resolve("colour strip")) == ["light/colour"]
    assert keys(inventory.resolve("lamp")) == ["light/lava", "light/parlour"]        # only a name's own word
    names, _ = inventory.lexicon()
    assert {"lava lamps", "parlor lamp", "parlour lamp", "colour strip", "color strip"} <= names


def test_a_kind_word_names_a_switch_whose_name_says_no_kind_by_what_it_is():
    """A plug or relay drives a fan or a light: "the extractor fan" is the switch "larder extractor"; a switch whose
    name ends in no fan's or light's word is neither ("the kiln fan", "the kennel lamp" name nothing)."""
    inventory = Inventory()
    for key, name in [("extractor", "Larder Extractor"), ("kennel", "Kennel Heater"), ("kiln", "Kiln"),
                      ("score", "Billiard Score Lamp")]:
        inventory.receive_discovery(f"homeassistant/switch/{key}/config", config(name=name, command_topic=f"{key}/set"))
    keys = lambda found: sorted(e.key for e in found)  # noqa: E731
    assert keys(inventory.resolve("extractor fan")) == keys(inventory.resolve("larder extractor fan")) == ["switch/extractor"]
    assert inventory.resolve("kennel lamp") == inventory.resolve("kiln fan") == inventory.resolve("billiard fan") == []
