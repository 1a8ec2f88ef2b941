"""A request that joins two to four things, areas or whole requests with "and" ("turn off the kitchen light and the
bedroom light", "turn off the kitchen and bedroom lights", "turn the kitchen light off and the bedroom light on",
"turn on the kitchen light and set a timer for 5 minutes"), read part by part by code (assistant.compound): each
part answered as a request of its own, the calls run in order, one reply. Through the whole assistant in the default
and the made-up in-memory homes, and through /v1/realtime on the real Mosquitto."""
import pytest

from assistant.compound import MAX_PARTS, joined_parts, joined_reply
from assistant.conversation import Vocabulary
from assistant.generator import respond_sync
from assistant.home import InMemoryHome
from assistant.tools import ToolRunner
from made_up_home import _z2m_light, wait_for
from test_assistant_fans import replies
from test_assistant_summaries import key_of
from test_assistant_modes import home_with
from test_home_voice import calls, devices, home_server, spoken, typed  # noqa: F401 (fixtures)
from realtime_client import RealtimeClient

SALT_AND_PEPPER = _z2m_light("salt_and_pepper_lamp", "Salt and Pepper Lamp", "Snug")


# on main 4e6c9eb: the bedroom light alone switched (the first two), or "Sorry, I didn't catch that." and nothing
@pytest.mark.parametrize("request_, done, reply", [
    ("turn off the kitchen light and the bedroom light", {"kitchen": "off", "bedroom": "off"},
     "Okay, the kitchen light and the bedroom light are off."),
    ("turn on the kitchen light and the bedroom light", {"kitchen": "on", "bedroom": "on"},
     "Okay, the kitchen light and the bedroom light are on."),
    ("turn off the lights in the kitchen and the bedroom", {"kitchen": "off", "bedroom": "off"},
     "Okay, the kitchen light and the bedroom light are off."),
    ("turn off the kitchen and bedroom lights", {"kitchen": "off", "bedroom": "off"},
     "Okay, the kitchen light and the bedroom light are off."),
    ("turn the kitchen light off and the bedroom light on", {"kitchen": "off", "bedroom": "on"},
     "Okay, the kitchen light is off, and the bedroom light is on."),
])
def test_things_and_areas_joined_are_each_switched(assistant, request_, done, reply):
    home = InMemoryHome()
    home.devices.update({("light", "kitchen"): "x", ("light", "bedroom"): "x"})
    made = replies(assistant, home, request_)
    assert made[0][1] == reply
    assert [(name, args["room"], args["state"]) for name, args in made[0][0]] == \
        [("set_device", room, state) for room, state in done.items()]
    assert {room: home.devices[("light", room)] for room in done} == done


def test_two_skills_joined_are_both_done(assistant):
    home = InMemoryHome()
    made = replies(assistant, home, "turn on the kitchen light and set a timer for 5 minutes")
    assert made[0][0] == [("set_device", {"device": "light", "room": "kitchen", "state": "on"}),
                          ("set_timer", {"seconds": 300})]
    assert made[0][1].startswith("Okay, the kitchen light is on.") and "5 minutes" in made[0][1]
    assert home.devices[("light", "kitchen")] == "on"


def test_them_after_a_joined_request_is_the_things_named(assistant):
    """ "turn them back off" right after a joined request switches exactly its things (on main 4e6c9eb: "Sorry, I can
    only do one at a time: ...")."""
    home = home_with()
    made = replies(assistant, home, "turn on the kiln and the piano light", "turn them back off",
                   "turn them back on")
    assert made[0][1] == "Okay, the kiln and the piano light are on."
    assert made[1] == ([("switch_listed", {"state": "off"})], "Okay, the kiln and the piano light are off.")
    assert made[2] == ([("switch_listed", {"state": "on"})], "Okay, the kiln and the piano light are on.")


def test_a_part_that_cannot_be_done_is_said_and_the_others_are_done(assistant):
    home = home_with()
    made = replies(assistant, home, "turn on the attic light and the arc lamp")
    assert made[0] == ([("switch_device", {"name": "arc_lamp", "state": "on"})],
                       "Okay, the arc lamp is on. I don't know a device called the attic light.")
    made = replies(assistant, InMemoryHome(), "turn on the kitchen light and the attic light")
    assert made[0] == ([("set_device", {"device": "light", "room": "kitchen", "state": "on"})],
                       "Okay, the kitchen light is on. I don't know a device called the attic light.")


def test_an_unlock_joined_still_asks_for_a_yes(assistant):
    home = home_with()
    made = replies(assistant, home, "turn on the arc lamp and unlock the wicket gate", "yes")
    assert made[0][1] == "Okay, the arc lamp is on. Do you want me to unlock the wicket gate? Say yes to confirm."
    assert made[1] == ([("confirm", {"answer": "yes"})], "Okay, the wicket gate is unlocked.")


def test_every_light_of_an_area_joined_is_the_areas_lights(assistant):
    """The salt lamp and the arc lamp are the snug's lights: one call for all of them, as "the lights in the snug"."""
    home = home_with()
    made = replies(assistant, home, "switch on the salt lamp and the arc lamp")
    assert made[0][0] == [("switch_all", {"name": "lights", "state": "on", "area": "snug"})]
    assert [home.states[key_of(home, name)] for name in ("salt lamp", "arc lamp")] == ["on", "on"]


def test_a_joined_request_for_later_makes_no_part_now(assistant):
    """The time said at the end is the whole request's: on 8ec9a6c the kitchen light was switched off at once."""
    home = InMemoryHome()
    home.devices.update({("light", "kitchen"): "on", ("light", "bedroom"): "on"})
    made = replies(assistant, home, "turn off the kitchen light and the bedroom light in 10 minutes")
    assert "kitchen light is off" not in made[0][1]
    assert home.devices[("light", "kitchen")] == "on" and home.devices[("light", "bedroom")] == "on"
    assert joined_parts("turn off the kitchen light and the bedroom light when I leave", Vocabulary(None)) == []


def test_a_request_for_a_declared_tool_stays_one_call(assistant):
    """With a client's tool declared, a request that asks for it is not split: its call is the client's, as before."""
    tools = {"set_status": {"type": "function", "function": {
        "name": "set_status", "description": "Set the user's chat status and its message",
        "parameters": {"type": "object", "properties": {"status": {"type": "string"}, "message": {"type": "string"}},
                       "required": ["status"]}}}}
    history = [{"role": "user", "content": "set my status to busy and the message to in a meeting"}]
    reply = respond_sync(assistant, history, ToolRunner(InMemoryHome()), client_tools=tools)
    assert [call.name for call in reply.tool_calls] == ["set_status"]


def test_a_name_that_holds_and_stays_one_name(assistant):
    home = home_with(SALT_AND_PEPPER)
    made = replies(assistant, home, "turn on the salt and pepper lamp and the arc lamp")
    assert made[0][0] == [("switch_device", {"name": "salt_and_pepper_lamp", "state": "on"}),
                          ("switch_device", {"name": "arc_lamp", "state": "on"})]
    assert made[0][1] == "Okay, the salt and pepper lamp and the arc lamp are on."


def test_the_parts_are_read_by_code_and_bounded():
    home = Vocabulary(None)
    assert joined_parts("set the thermostat to 21 and the kitchen light to 50 percent", home) == \
        ["set the thermostat to 21", "set the kitchen light to 50 percent"]
    assert joined_parts("turn the kitchen and bedroom lights off", home) == \
        ["turn the kitchen lights off", "turn the bedroom lights off"]
    many = " and ".join(f"the {room} light" for room in ("kitchen", "bedroom", "office", "garage", "hallway"))
    assert MAX_PARTS == 4 and joined_parts(f"turn on {many}", home) == []
    assert joined_parts("what's 5 and 3", home) == [] and joined_parts("play rock and roll", home) == []
    assert joined_parts("turn on the kitchen fan and light", home) == []          # whose light: not guessed
    assert joined_parts("turn on the light and the fan in the kitchen", home) == []     # whose place: not guessed
    assert joined_parts("turn on the kitchen light, the bedroom light and the office fan", home) == \
        ["turn on the kitchen light", "turn on the bedroom light", "turn on the office fan"]
    assert joined_parts("turn off the kitchen, bedroom and office lights", home) == \
        ["turn off the kitchen lights", "turn off the bedroom lights", "turn off the office lights"]
    assert joined_parts("turn on the lamp, it's dark and cold", home) == []
    assert joined_reply(["Okay, the arc lamp is on.", "Okay, the kiln is on.", "Okay, the jukebox is on."]) == \
        "Okay, the arc lamp, the kiln and the jukebox are on."


async def test_a_joined_request_through_the_realtime_endpoint(home_server, devices):
    """One response with the whole reply, both calls made, both devices commanded."""
    client = await RealtimeClient.connect(home_server.ws_url)
    await client.wait_for("session.created")
    response = await typed(client, "turn on the arc lamp and the kiln")
    await client.close()
    assert spoken(response) == "Okay, the arc lamp and the kiln are on."
    assert len(client.of_type("response.done")) == 1
    assert calls(client) == [("switch_device", {"name": "arc_lamp", "state": "on"}),
                             ("switch_device", {"name": "kiln", "state": "on"})]
    await wait_for(lambda: ("zigbee2mqtt/arc_lamp/set", b'{"state": "ON"}') in devices)
    await wait_for(lambda: any(topic.startswith("tasmota/kiln") or "kiln" in topic for topic, _ in devices))
