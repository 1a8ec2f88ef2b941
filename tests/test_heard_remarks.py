"""A state said with no verb after a remark of the speaker's own is a request, heard as well as typed
(assistant/tools.py after_a_remark): "i'm going to practise, piano light on" reached the assistant as "I'm going to
practice piano light on." in four voices of the spoken bench and was answered "The piano light is off."."""
import pytest

from assistant.chat_template import NoAction
from assistant.generator import respond_sync
from assistant.home import InMemoryHome
from assistant.tools import ToolRunner, after_a_remark
from made_up_home import made_up_inventory


@pytest.mark.parametrize("heard, thing", [
    ("I'm going to practice piano light on.", "piano light"),           # Piper, Festival slt HTS, flite slt
    ("I am going to prectise piano light on.", "piano light"),          # flite rms
    ("I'm going to practice, piano light on.", "piano light"),          # espeak-ng low slow, phone band
    ("It's heavy in the office, but my fan on.", "fan office"),         # "it's stuffy in the office, put the fan on"
])
def test_a_state_after_a_remark_is_asked_for(heard, thing):
    assert after_a_remark(heard, thing)


@pytest.mark.parametrize("heard, thing", [
    ("It's a billiard score lamp on.", "billiard score lamp"),         # "is the billiard score lamp on", "is" lost
    ("It is the garage door open.", "garage door"),
    ("The billiard score lamp on.", "billiard score lamp"),
    ("This is the filling machine switch on.", "filling machine"),     # a question's first word
    ("Is the piano light on?", "piano light"),
    ("I'm going to practice, is the piano light on?", "piano light"),
    ("I'm going to practice piano light on?", "piano light"),          # Whisper's question mark
    ("I think that the piano light on.", "piano light"),               # a state reported may have lost its "is"
    ("Do you know if the piano light on.", "piano light"),
    ("Can you tell me the side gate locked.", "side gate"),
    ("Before I go up to bed the side gate locked.", "side gate"),      # a clause of its own before it
    ("Pendant off, please, the crystal on.", "crystal"),               # a state in the remark: states listed
    ("Nearly midnight, hall light off.", "hall light"),                # two words may be a lost "is" and its subject
    ("I'm going to practice the analyte on.", "piano light"),           # the thing's name unheard
])
def test_a_state_with_a_lost_question_word_before_it_stays_a_question(heard, thing):
    assert not after_a_remark(heard, thing)


def piano_light_key(home: InMemoryHome) -> str:
    return next(entity.key for entity in home.inventory.entities() if entity.name == "piano light")


async def test_a_heard_state_after_a_remark_switches_and_a_question_is_still_read():
    home = InMemoryHome(inventory=made_up_inventory())
    tools = ToolRunner(home)
    tools.spoken = True
    tools.begin_reply([{"role": "user", "content": "It's a piano light on."}])
    said = await tools.run("switch_device", {"name": "piano_light", "state": "on"})
    assert isinstance(said, NoAction) and said == "The piano light is off."
    assert "on" not in home.states.values()
    tools.begin_reply([{"role": "user", "content": "I'm going to practice piano light on."}])
    assert not isinstance(await tools.run("switch_device", {"name": "piano_light", "state": "on"}), NoAction)
    assert [key for key, state in home.states.items() if state == "on"] == [piano_light_key(home)]


def test_the_heard_remark_and_request_is_answered_as_typed(assistant):
    """The transcripts the spoken bench saw, through the assistant: the light goes on, as it does typed; the office
    fan of the default home, named by its device and room, too."""
    for home, heard, want in [
        (InMemoryHome(inventory=made_up_inventory()), "I'm going to practice piano light on.",
         ("switch_device", {"name": "piano_light", "state": "on"})),
        (InMemoryHome(), "It's heavy in the office, but my fan on.",
         ("set_device", {"device": "fan", "room": "office", "state": "on"})),
    ]:
        tools = ToolRunner(home)
        tools.spoken = True
        reply = respond_sync(assistant, [{"role": "user", "content": heard}], tools)
        assert [(c.name, c.arguments) for c in reply.tool_calls] == [want], (heard, reply)
        assert reply.text.startswith("Okay"), (heard, reply)
