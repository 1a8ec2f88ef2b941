"""Media players paused, resumed, skipped, muted, their volume set, stepped and read, and what they play read
(tests/media_home.py: the community MQTT media player bridge's shapes): through the tools, through the whole assistant
in the in-memory home, on the real Mosquitto, and end to end through /v1/realtime. A home with no media player
answers as before, and a player that announces no such topic says what it can do."""
import asyncio
import json

from assistant.home import InMemoryHome
from assistant.inventory import Inventory, entity_command
from assistant.tools import ToolRunner
from made_up_home import ENTITIES, discovered_server, wait_for
from media_home import KITCHEN_SPEAKER, LIVING_ROOM_TV, PLAYERS, SOUNDBAR
from mqtt_devices import login, playing
from realtime_client import RealtimeClient
from test_assistant_fans import said
from test_assistant_modes import home_with
from test_home_voice import calls, spoken, typed
from test_mqtt_discovery import fans_home, replied

import pytest

KEYS = {"kitchen speaker": "media_player/kitchen_speaker", "living room tv": "media_player/living_room_tv",
        "soundbar": "media_player/soundbar"}


def media_home(**states: str) -> InMemoryHome:
    """The made-up home (its jukebox and gramophone switch on and off only) and media_home's players; the kitchen
    speaker playing "Yellow" by Coldplay at 30 percent, the TV paused at 20 percent, unless states say otherwise
    ("kitchen_speaker": "paused", "soundbar#volume": "50")."""
    home = home_with(*PLAYERS)
    given = {"kitchen speaker": "playing", "kitchen speaker#volume": "30", "kitchen speaker#title": "Yellow",
             "kitchen speaker#artist": "Coldplay", "living room tv": "paused", "living room tv#volume": "20",
             **{key.replace("_", " "): value for key, value in states.items()}}
    for said_as, value in given.items():
        name, _, part = said_as.partition("#")
        home.states[KEYS[name] + (f"#{part}" if part else "")] = value
    return home


def players(home) -> dict[str, str]:
    """Each player's state and volume, as the in-memory home holds them."""
    return {f"{name}{part}": home.states[key + part] for name, key in KEYS.items() for part in ("", "#volume")
            if key + part in home.states}


def no_media_home() -> InMemoryHome:
    """The made-up home without its media players."""
    inventory = Inventory()
    for component, object_id, config in ENTITIES:
        if component != "media_player":
            inventory.receive_discovery(f"homeassistant/{component}/{object_id}/config", json.dumps(config))
    return InMemoryHome(inventory=inventory)


# ---------------------------------------------------------------- discovery and the tools

def test_a_players_controls_and_volume_go_out_on_the_bridges_own_topics():
    inventory = Inventory()
    for component, object_id, config in PLAYERS:
        inventory.receive_discovery(f"homeassistant/{component}/{object_id}/config", json.dumps(config))
    speaker, tv, soundbar = (inventory.get(key) for key in KEYS.values())
    # bkbilly's shape: its command_<verb>_payload; a new track confirmed by its title, a pause by its state
    assert entity_command(speaker, "pause") == ("mediaplayer/kitchen/pause", "pause", "mediaplayer/kitchen/state")
    assert entity_command(speaker, "next") == ("mediaplayer/kitchen/next", "next", "mediaplayer/kitchen/title")
    assert entity_command(speaker, "volume", 35) == \
        ("mediaplayer/kitchen/set_volume", "0.35", "mediaplayer/kitchen/volume")       # Home Assistant's 0 to 1
    # the older shape: the bridge's own payloads where the config names none
    assert [entity_command(tv, action)[:2] for action in ("resume", "previous")] == \
        [("mediaplayer/tv/play", "Play"), ("mediaplayer/tv/previous", "Previous")]
    assert entity_command(tv, "volume", 100) == ("mediaplayer/tv/volumeset", "1", "mediaplayer/tv/volume")
    # a topic the config does not announce: no command (and no power topic: no on or off)
    assert entity_command(soundbar, "next") is None and entity_command(soundbar, "on") is None
    assert not any(inventory.needs_yes(player, action, 50) for player in (speaker, tv)
                   for action in ("pause", "resume", "next", "volume"))


async def test_the_skills_control_step_mute_and_read_a_player():
    home = media_home()
    tools = ToolRunner(home)
    assert await tools.run("control_media", {"action": "pause"}) == "Okay, the kitchen speaker is paused."
    assert await tools.run("control_media", {"action": "resume"}) == \
        "Which one: the kitchen speaker or the living room tv?"      # both paused
    assert await tools.run("control_media", {"area": "kitchen", "action": "resume"}) == \
        "Okay, the kitchen speaker is playing."
    assert await tools.run("control_media", {"name": "tv", "action": "resume"}) == \
        "Okay, the living room tv is playing."             # "the tv": every player is one, the one so named is meant
    assert await tools.run("control_media", {"action": "pause"}) == \
        "Which one: the kitchen speaker or the living room tv?"
    assert await tools.run("change_volume", {"name": "kitchen speaker", "direction": "up"}) == \
        "Okay, the kitchen speaker's volume is at 40 percent."
    assert await tools.run("control_media", {"name": "kitchen speaker", "action": "mute"}) == \
        "Okay, the kitchen speaker is muted."
    assert await tools.run("get_media", {"name": "kitchen speaker", "asked": "volume"}) == \
        "The kitchen speaker's volume is at 0 percent."
    assert await tools.run("control_media", {"name": "kitchen speaker", "action": "unmute"}) == \
        "Okay, the kitchen speaker's volume is back at 40 percent."
    assert await tools.run("get_media", {"area": "kitchen", "asked": "playing"}) == \
        "The kitchen speaker is playing Yellow by Coldplay."
    assert await tools.run("set_volume", {"name": "soundbar", "percent": 30}) == \
        "Okay, the soundbar's volume is at 30 percent."
    assert await tools.run("control_media", {"name": "soundbar", "action": "next"}) == \
        "The soundbar can only be switched on or off."     # it announces no next topic
    assert await tools.run("control_media", {"name": "jukebox", "action": "pause"}) == \
        "The jukebox can only be switched on or off."
    assert await tools.run("control_media", {"name": "soundbar", "action": "unmute"}) == \
        "I don't know what volume the soundbar had before: what volume would you like?"
    assert players(home) == {"kitchen speaker": "playing", "kitchen speaker#volume": "40",
                             "living room tv": "playing", "living room tv#volume": "20", "soundbar#volume": "30"}
    stopped = media_home(kitchen_speaker="paused", living_room_tv="idle")
    assert await ToolRunner(stopped).run("control_media", {"action": "next"}) == "Nothing is playing."


# ---------------------------------------------------------------- through the whole assistant

@pytest.mark.parametrize("turns, reply, changed", [
    # on main 6ece790: "Sorry, I didn't catch that.", "Sorry, I can't do that yet.", "You're welcome!", "Sorry, I don't
    # know a device by that name.", "Okay, the kitchen speaker is on." (skip), each changing nothing
    (("pause the tv",), "Okay, the living room tv is paused.", {}),
    (("pause",), "Okay, the kitchen speaker is paused.", {"kitchen speaker": "paused"}),
    (("resume the music in the kitchen",), "Okay, the kitchen speaker is playing.", {}),
    (("resume the tv",), "Okay, the living room tv is playing.", {"living room tv": "playing"}),
    (("next song",), "Okay, the kitchen speaker is on the next track.", {}),
    (("skip this track on the speaker",), "Okay, the kitchen speaker is on the next track.", {}),
    (("go back to the previous track on the tv",), "Okay, the living room tv is on the previous track.",
     {"living room tv": "playing"}),
    (("turn the volume up on the living room tv",), "Okay, the living room tv's volume is at 30 percent.",
     {"living room tv#volume": "30"}),
    (("set the soundbar volume to 30 percent",), "Okay, the soundbar's volume is at 30 percent.",
     {"soundbar#volume": "30"}),
    (("louder",), "Okay, the kitchen speaker's volume is at 40 percent.", {"kitchen speaker#volume": "40"}),
    (("turn the volume down in the kitchen",), "Okay, the kitchen speaker's volume is at 20 percent.",
     {"kitchen speaker#volume": "20"}),
    (("mute the tv",), "Okay, the living room tv is muted.", {"living room tv#volume": "0"}),
    (("what's playing in the kitchen",), "The kitchen speaker is playing Yellow by Coldplay.", {}),
    (("what's the volume on the tv",), "The living room tv's volume is at 20 percent.", {}),
    (("pause the jukebox",), "The jukebox can only be switched on or off.", {}),
])
def test_a_players_controls_volume_and_track_are_read_from_the_words(assistant, turns, reply, changed):
    home = media_home()
    before = players(home)
    assert said(assistant, home, *turns) == reply
    assert players(home) == {**before, **changed}


@pytest.mark.parametrize("turns, reply, changed", [
    # on main 6ece790: "Sorry, I'm not sure which one you mean.", "Okay, the kitchen speaker is off.", "Sorry, I didn't
    # catch that."
    (("pause the tv", "turn it up"), "Okay, the living room tv's volume is at 30 percent.",
     {"living room tv": "paused", "living room tv#volume": "30"}),
    (("resume the kitchen speaker", "turn it down"), "Okay, the kitchen speaker's volume is at 20 percent.",
     {"kitchen speaker#volume": "20"}),
    (("what's playing in the kitchen", "pause that"), "Okay, the kitchen speaker is paused.",
     {"kitchen speaker": "paused"}),
    (("pause the kitchen speaker", "and the tv"), "Okay, the living room tv is paused.",
     {"kitchen speaker": "paused"}),
    (("mute the tv", "unmute it"), "Okay, the living room tv's volume is back at 20 percent.", {}),
])
def test_a_players_follow_ups_resolve_as_a_lights(assistant, turns, reply, changed):
    home = media_home()
    before = players(home)
    assert said(assistant, home, *turns) == reply
    assert players(home) == {**before, **changed}


def test_a_home_with_no_media_player_answers_as_before(assistant):
    """The same words in the made-up home without its players: main's replies (6ece790), and nothing changed; with
    them, the player is paused."""
    home = no_media_home()
    before = dict(home.states)
    assert [said(assistant, home, request) for request in
            ("pause the tv", "next song", "louder", "what's playing", "set the volume to 30 percent")] == \
        ["Which room?", "Sorry, I can't do that yet.", "You're welcome!", "Sorry, I can't do that yet.",
         "Sorry, I don't know a device by that name."]
    assert home.states == before
    assert said(assistant, media_home(), "next song") == "Okay, the kitchen speaker is on the next track."


# ---------------------------------------------------------------- on the real Mosquitto

TRACKS = {"kitchen": ["Yellow", "Clocks", "Fix You"], "tv": ["Planet Earth", "Blue Planet"]}


async def play_players(broker, commands: list) -> None:
    """The bridge's players as they answer: the state after play or pause, the next or previous title (and its
    artist) after a skip, the volume set (0 to 1); each retained."""
    where = {"kitchen": 0, "tv": 0}
    async with login(broker, "home").client() as client:
        await client.subscribe([(f"mediaplayer/{player}/{verb}", 1) for player in ("kitchen", "tv", "soundbar")
                                for verb in ("play", "pause", "next", "previous", "set_volume", "volumeset")])
        async for message in client.messages:
            topic, payload = str(message.topic), bytes(message.payload).decode()
            commands.append((topic, payload))
            player, verb = topic.split("/")[1:]
            if verb in ("play", "pause"):
                await client.publish(f"mediaplayer/{player}/state", "playing" if verb == "play" else "paused", qos=1,
                                     retain=True)
            elif verb in ("next", "previous"):
                where[player] = (where[player] + (1 if verb == "next" else -1)) % len(TRACKS[player])
                await client.publish(f"mediaplayer/{player}/artist", "Coldplay", qos=1, retain=True)
                await client.publish(f"mediaplayer/{player}/title", TRACKS[player][where[player]], qos=1, retain=True)
            else:
                await client.publish(f"mediaplayer/{player}/volume", payload, qos=1, retain=True)


RETAINED = tuple(f"mediaplayer/{player}/{part}" for player in ("kitchen", "tv", "soundbar")
                 for part in ("state", "title", "artist", "volume"))


async def reported(broker, **payloads: str) -> None:
    """The players' state topics as they report before the conversation (retained): "kitchen_state": "playing"."""
    async with login(broker, "home").client() as client:
        for key, payload in payloads.items():
            player, part = key.split("_")
            await client.publish(f"mediaplayer/{player}/{part}", payload, qos=1, retain=True)


async def test_a_players_commands_and_readings_go_by_its_own_topics(broker, assistant):
    """Through the whole assistant on the MQTT home: each control on the player's own topic with its own payload,
    confirmed by what it reports; the volume on its 0-to-1 scale; what it plays read from its title and artist."""
    await reported(broker, kitchen_state="playing", kitchen_title="Yellow", kitchen_artist="Coldplay",
                   kitchen_volume="0.3", tv_state="paused", tv_volume="0.2")
    async with fans_home(broker, PLAYERS, play_players, RETAINED, component=None) as (home, tools, commands):
        await wait_for(lambda: len(home._retained) >= 6)
        assert await replied(assistant, tools, "what's playing in the kitchen") == \
            "The kitchen speaker is playing Yellow by Coldplay."
        assert commands == []
        assert await replied(assistant, tools, "next song") == "Okay, the kitchen speaker is playing Clocks."
        assert commands[-1] == ("mediaplayer/kitchen/next", "next")
        assert await replied(assistant, tools, "pause the tv") == "Okay, the living room tv is paused."
        assert await replied(assistant, tools, "resume the tv") == "Okay, the living room tv is playing."
        assert commands[-1] == ("mediaplayer/tv/play", "Play")
        assert await replied(assistant, tools, "set the soundbar volume to 30 percent") == \
            "Okay, the soundbar's volume is at 30 percent."
        assert commands[-1] == ("mediaplayer/soundbar/set_volume", "0.3")
        assert await replied(assistant, tools, "turn the volume down on the kitchen speaker") == \
            "Okay, the kitchen speaker's volume is at 20 percent."
        assert await replied(assistant, tools, "mute the kitchen speaker", "unmute it") == \
            "Okay, the kitchen speaker's volume is back at 20 percent."
        assert commands[-3:] == [("mediaplayer/kitchen/set_volume", "0.2"), ("mediaplayer/kitchen/set_volume", "0"),
                                 ("mediaplayer/kitchen/set_volume", "0.2")]


async def test_a_hostile_volume_or_title_reported_is_kept_in_bounds(broker):
    """A volume past 1 is 100 percent, a 400-digit one, NaN or a word none; a title is said back in at most 200
    characters, on one line."""
    async with fans_home(broker, [KITCHEN_SPEAKER], play_players, RETAINED, component=None) as (home, _, _):
        speaker = home.inventory.get("media_player/kitchen_speaker")
        async with login(broker, "home").client() as client:
            for payload, volume in ((b"7", "100"), (b"1" + b"0" * 400, None), (b"NaN", None), (b"loud", None),
                                    (b"0.45", "45")):
                await client.publish("mediaplayer/kitchen/volume", payload, qos=1, retain=True)
                await asyncio.sleep(0.3)
                assert await home.read_media(speaker, "volume") == volume
            await client.publish("mediaplayer/kitchen/title", b"la\n" * 1000, qos=1, retain=True)
            await asyncio.sleep(0.3)
            title = await home.read_media(speaker, "title")
            assert len(title) == 200 and "\n" not in title


# ---------------------------------------------------------------- end to end through /v1/realtime

@pytest.fixture(scope="module")
def media_server(broker, server_factory):
    """A server whose sessions act on media_home's players, discovered from the real Mosquitto."""
    asyncio.run(reported(broker, kitchen_state="playing", kitchen_title="Yellow", kitchen_artist="Coldplay",
                         kitchen_volume="0.3", tv_state="paused", tv_volume="0.2"))
    yield from discovered_server(broker, server_factory, PLAYERS, RETAINED, at_least=3)


@pytest.mark.usefixtures("needs_assistant")
async def test_a_player_through_the_realtime_endpoint(media_server, broker):
    assert sorted(e.name for e in media_server.ctx.home.inventory.entities()) == \
        ["kitchen speaker", "living room tv", "soundbar"]
    async with playing(play_players, broker) as commands:
        client = await RealtimeClient.connect(media_server.ws_url)
        await client.wait_for("session.created")
        assert spoken(await typed(client, "pause the kitchen speaker")) == "Okay, the kitchen speaker is paused."
        assert spoken(await typed(client, "turn it up")) == "Okay, the kitchen speaker's volume is at 40 percent."
        assert spoken(await typed(client, "skip this track on the tv")) == \
            "Okay, the living room tv is playing Blue Planet."
        assert spoken(await typed(client, "what's playing on the tv")) == \
            "The living room tv is paused on Blue Planet by Coldplay."
        await client.close()
        assert calls(client) == [
            ("control_media", {"name": "kitchen speaker", "action": "pause"}),
            ("change_volume", {"name": "kitchen speaker", "direction": "up"}),
            ("control_media", {"name": "living room tv", "action": "next"}),
            ("get_media", {"name": "living room tv", "asked": "playing"})]
        assert commands == [("mediaplayer/kitchen/pause", "pause"), ("mediaplayer/kitchen/set_volume", "0.4"),
                            ("mediaplayer/tv/next", "Next")]
