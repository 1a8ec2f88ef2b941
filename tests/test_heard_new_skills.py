"""The ear's checks on the skills of rounds 39 and 40, heard: a doubted number of a timer's change, a volume or a
tilt said back before it acts, and so is one no heard word carries; "turn them off" with "off" doubted after a
summary; a change of a media player heard with another player's name in its place refused. Typed, each acts as
written."""
import pytest

from assistant.skills import NOT_CHANGES, NUMBER, SKILLS
from assistant.tools import ToolRunner, said_back
from assistant.vocabulary import SAID_BACK
from test_assistant_media import media_home, players
from test_assistant_modes import home_with, moded_home, modes
from test_assistant_tilt import tilted_home, tilts


def heard(tools: ToolRunner, text: str, numbers=(), change_words=()) -> ToolRunner:
    """The session's hand-over of a final to the tools: its words, the numbers and words the recogniser doubted."""
    tools.begin_reply([{"role": "user", "content": text}])
    tools.spoken = True
    tools.unsure_numbers = frozenset(numbers)
    tools.doubted_change_words = frozenset(change_words)
    return tools


async def said_yes(tools: ToolRunner) -> str:
    heard(tools, "Yes.")
    return await tools.run("confirm", {"answer": "yes"})


def test_every_change_that_takes_a_number_is_said_back_in_words():
    """Every change that takes a number has words to say it back, but an alarm's cancel or snooze: its number picks
    an alarm already set, or a snooze's minutes."""
    taking = {s.name for s in SKILLS.values() if s.name not in NOT_CHANGES
              and any(allowed == NUMBER for allowed in s.arguments.values())}
    assert taking - {"cancel_alarm", "snooze_alarm"} <= set(SAID_BACK)


@pytest.mark.parametrize("name, arguments, said", [
    ("change_timer", {"change": "add", "seconds": 300, "name": "pasta"}, "add 5 minutes to the pasta timer"),
    ("change_timer", {"change": "take off", "seconds": 60}, "take 1 minute off the timer"),
    ("set_volume", {"name": "kitchen speaker", "percent": 30}, "the volume of the kitchen speaker at 30 percent"),
    ("set_volume", {"percent": 30}, "the volume at 30 percent"),
    ("set_tilt", {"name": "office blinds", "action": "to", "percent": 40},
     "the slats of the office blinds at 40 percent"),
])
def test_the_new_skills_numbers_said_back_in_words(name, arguments, said):
    assert said_back(name, arguments) == said


async def test_a_doubted_timer_change_is_asked_about_and_a_yes_changes_it():
    tools = ToolRunner()
    await tools.timer_book.add(600, "pasta")
    heard(tools, "Add 5 minutes to the pasta timer.", numbers={"5"})
    arguments = {"change": "add", "seconds": 300, "name": "pasta"}
    assert await tools.run("change_timer", dict(arguments)) == \
        "Did you mean add 5 minutes to the pasta timer? Say yes to confirm."
    left = (await tools.timer_book.pending())[0].due_at
    assert await said_yes(tools) == "Okay, the pasta timer has 15 minutes left."
    assert (await tools.timer_book.pending())[0].due_at == pytest.approx(left + 300, abs=2)
    # heard for sure, it acts at once; typed too
    heard(tools, "Take 5 minutes off the pasta timer.")
    assert await tools.run("change_timer", {"change": "take off", "seconds": 300, "name": "pasta"}) == \
        "Okay, the pasta timer has 10 minutes left."
    tools.stop_timers()


async def test_a_doubted_or_uncarried_volume_or_tilt_is_said_back():
    home = media_home()
    tools = heard(ToolRunner(home), "Set the soundbar volume to 30.", numbers={"30"})
    assert await tools.run("set_volume", {"name": "soundbar", "percent": 30}) == \
        "Did you mean the volume of the soundbar at 30 percent? Say yes to confirm."
    assert "soundbar#volume" not in players(home)
    assert await said_yes(tools) == "Okay, the soundbar's volume is at 30 percent."
    # the word that said the number lost in hearing: the number is the model's
    heard(tools, "Set the soundbar volume to, please.")
    assert await tools.run("set_volume", {"name": "soundbar", "percent": 60}) == \
        "Did you mean the volume of the soundbar at 60 percent? Say yes to confirm."
    assert players(home)["soundbar#volume"] == "30"
    slatted = tilted_home()
    tools = heard(ToolRunner(slatted), "Tilt the office blinds to 40 percent.", numbers={"40"})
    assert await tools.run("set_tilt", {"name": "office blinds", "action": "to", "percent": 40}) == \
        "Did you mean the slats of the office blinds at 40 percent? Say yes to confirm."
    assert not tilts(slatted)


async def test_them_switched_off_with_off_doubted_after_a_summary_is_said_back():
    home = home_with()
    tools = ToolRunner(home)
    heard(tools, "What's on in the snug?")
    await tools.run("list_states", {"state": "on", "asked": "which", "area": "snug"})
    tools.listed = tuple(e.key for e in home.inventory.entities() if e.component in ("light", "switch"))[:2]
    heard(tools, "Turn them off.", change_words={"off"})
    assert await tools.run("switch_listed", {"state": "off"}) == "Did you mean switch them off? Say yes to confirm."
    assert (await said_yes(tools)).startswith("Okay,")


async def test_a_heard_change_of_another_player_of_the_same_kind_is_refused():
    home = media_home()
    tools = heard(ToolRunner(home), "Set the bathroom speaker volume to 30.")
    assert await tools.run("set_volume", {"name": "kitchen speaker", "percent": 30}) == \
        "Sorry, I don't know a device by that name."
    assert players(home)["kitchen speaker#volume"] == "30"
    tools.spoken = False               # typed: the model's to read
    assert await tools.run("set_volume", {"name": "kitchen speaker", "percent": 50}) == \
        "Okay, the kitchen speaker's volume is at 50 percent."


async def test_a_heard_mode_of_another_fan_of_the_same_kind_is_refused():
    """ "Put the nursery fan on auto." in a home with no nursery fan: the study fan, the one fan whose mode the model
    may write from "fan" alone, is not set."""
    home = moded_home()
    tools = heard(ToolRunner(home), "Put the nursery fan on auto.")
    assert await tools.run("set_device_mode", {"name": "study fan", "mode": "auto"}) == \
        "Sorry, I don't know a device by that name."
    assert "study fan" not in modes(home)
    heard(tools, "Put the study fan on auto.")
    assert await tools.run("set_device_mode", {"name": "study fan", "mode": "auto"}) == \
        "Okay, the study fan is in auto mode."
