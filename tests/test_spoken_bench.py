"""The spoken-request bench's judge and samples (bench/spoken_requests.py): a call is judged by what it does to
the home, and a held-back sample never holds a request an earlier sample took."""
import json

from bench.assistant_eval import same_home_call
from bench.spoken_causes import cause
from bench.spoken_requests import DATA, HOMES, discovered_inventory, requests
from made_up_home import made_up_inventory

THERMOSTAT = {"name": "set_thermostat", "arguments": {"name": "nursery radiator", "degrees": 19}}


def level(name: str, percent: int) -> dict:
    return {"name": "set_level", "arguments": {"name": name, "percent": percent}}


def test_a_heater_set_by_its_level_is_judged_as_its_thermostat():
    inventory = discovered_inventory()
    assert same_home_call(THERMOSTAT, level("nursery radiator", 19), inventory)    # the heater's target: 19


def test_another_temperature_or_device_is_still_wrong():
    inventory = discovered_inventory()
    assert not same_home_call(THERMOSTAT, level("nursery radiator", 20), inventory)
    assert not same_home_call(THERMOSTAT, level("mushroom lamp", 19), inventory)
    assert not same_home_call(THERMOSTAT, {"name": "get_state", "arguments": {"name": "nursery radiator"}}, inventory)


def test_an_area_is_judged_by_the_things_the_skill_acts_on():
    """In the made-up home the sewing room holds a lamp, a machine and the radiant panel: its thermostat by the area
    is the panel, as the expected call names it; "the pond" switched in the orangery is its pump, not its leak sensor."""
    inventory = made_up_inventory()
    panel = {"name": "set_thermostat", "arguments": {"name": "radiant panel", "degrees": 19}}
    assert same_home_call(panel, {"name": "set_thermostat", "arguments": {"area": "sewing room", "degrees": 19}}, inventory)
    assert not same_home_call(panel, {"name": "set_thermostat", "arguments": {"area": "sewing room", "degrees": 20}},
                              inventory)
    assert not same_home_call(panel, {"name": "set_thermostat", "arguments": {"area": "snug", "degrees": 19}}, inventory)
    pump = {"name": "switch_device", "arguments": {"name": "pond pump", "state": "off"}}
    assert same_home_call(pump, {"name": "switch_device", "arguments": {"name": "pond", "area": "orangery", "state": "off"}},
                          inventory)
    assert not same_home_call(pump, {"name": "switch_device", "arguments": {"name": "pond", "state": "on"}}, inventory)
    # a level is judged among every thing: a fan's speed asked as a level is the call its sets expect
    punkah = {"name": "set_level", "arguments": {"name": "punkah", "percent": 30}}
    assert same_home_call(punkah, {"name": "set_level", "arguments": {"name": "punkah", "percent": 30}}, inventory)


def test_calls_that_change_nothing_are_not_alike_by_their_effect():
    reading = {"name": "get_state", "arguments": {"name": "samovar"}}
    assert not same_home_call(reading, {"name": "get_time", "arguments": {}}, discovered_inventory())


def test_a_fresh_sample_skips_the_tuning_and_the_held_back_requests():
    def ids(rows):
        return {(r["file"], r["id"]) for r in rows}
    tuning, held_back = requests(24), requests(20, ["24"])
    fresh = requests(20, ["24", "24:20"])
    assert not ids(fresh) & (ids(tuning) | ids(held_back))
    assert {r["home"] for r in fresh} == set(HOMES)
    assert ids(requests(20, ["24"])) == ids(held_back)            # seeded: the same rows every run


def test_any_request_file_can_be_spoken():
    """--requests FILE: the self-contained rows of a paraphrase or held-out file, each in its home, sampled and
    skipped as the held-out files are."""
    fresh = DATA / "paraphrases_fresh.jsonl"
    rows = requests(None, files=[fresh])
    said = [json.loads(line) for line in fresh.read_text().splitlines() if line.strip()]
    assert len(rows) == sum(len(r["history"]) == 1 for r in said) and {r["file"] for r in rows} == {fresh.stem}
    tuning, rest = requests(5, files=[fresh]), requests(None, ["5"], files=[fresh])
    assert len(tuning) == 10 and len(rest) == len(rows) - 10              # 5 of each of its two homes
    assert not {r["id"] for r in tuning} & {r["id"] for r in rest}


def test_a_transcript_of_the_said_words_is_heard_right_whatever_its_form():
    """Case, punctuation and digits for number words are the form, not the words: such a recording not answered
    right is the brain's misreading, by the ear's doubt or by the written form."""
    said = "set the lamp to thirty percent, it's late"
    assert cause(said, "Set the lamp to 30%. It's late.", (), True, True) == ("heard right", "written form")
    assert cause(said, "Set the lamp to 30% it's late.", (), True, False) == ("heard right", "doubt")
    assert cause(said, "Set the lamp to 30% it's light.", (), True, True)[0] == "nearly right"
    assert cause(said, "Set the lamp to 30%. It's late.", (), False, True) == ("typed", "")


def test_a_read_the_ear_declined_is_no_action_though_its_call_was_right(assistant):
    from bench.spoken_requests import outcome

    row = {"home": "default", "expected": {"name": "get_time", "arguments": {}}}
    # the call is get_time both times; heard with no word of a time, the tool answers "Sorry, I didn't catch that."
    assert outcome(assistant, row, "What time is it?", {}, frozenset(), frozenset())[0] == "right"
    verdict, did = outcome(assistant, row, "What is it now?", {}, frozenset(), frozenset())
    assert "get_time" in did and "catch that" in did
    assert verdict == "no action"


def test_a_request_about_a_running_timer_is_judged_with_that_timer_running(assistant):
    from bench.spoken_requests import outcome

    row = {"home": "default", "expected": {"name": "timer_left", "arguments": {"name": "pasta"}}}
    verdict, did = outcome(assistant, row, "How long has the pasta got?", {}, frozenset(), frozenset())
    assert "10 minutes on the pasta timer" in did
    assert verdict == "right"


def test_a_request_that_must_do_nothing_is_right_when_a_tool_refuses_it(assistant):
    from bench.spoken_requests import outcome

    # "start the washing machine" in the made-up home, which has none, heard as below: the call names the sewing
    # machine, and the tool refuses it; for a request that must do nothing that refusal is the right answer
    row = {"home": "made_up", "category": "unknown_name", "expected": None}
    verdict, did = outcome(assistant, row, "Start the wash on the machine.", {}, frozenset(), frozenset())
    assert "switch_device" in did and "don't know a device" in did
    assert verdict == "right"


UNKNOWN_ROW = {"home": "discovered", "category": "unknown_name", "expected": None}


def judged(call: dict) -> tuple[bool, bool, list]:
    """The typed judge's verdict on UNKNOWN_ROW answered by call run on a fresh discovered home, whether the home
    changed, and the tool's result."""
    import asyncio

    from assistant.generator import AssistantReply, ToolCall
    from assistant.tools import ToolRunner
    from bench.assistant_eval import new_home, score, snapshot

    tools = ToolRunner(new_home("discovered"))
    before = snapshot(tools.home)
    result = asyncio.run(tools.run(call["name"], dict(call["arguments"])))
    reply = AssistantReply(str(result), [ToolCall(call["name"], call["arguments"], "c1")], 1, 1, 1.0, 1)
    acted = snapshot(tools.home) != before
    return score(UNKNOWN_ROW, reply, acted, tools.home.inventory, [result]), acted, [result]


def test_a_question_about_a_thing_the_home_lacks_answered_about_another_is_wrong():
    """"is the wine cellar door open" in the discovered home (it has the coal hole door, in the cellar): the state
    of the coal hole door read out changes nothing, yet answers about a thing not asked of."""
    from bench.assistant_eval import answered_nothing

    right, acted, results = judged({"name": "get_state", "arguments": {"name": "coal hole door"}})
    assert not acted and "coal hole door" in results[0].lower()
    assert not right and not answered_nothing(acted, results)


def test_a_refusal_or_a_question_back_about_a_thing_the_home_lacks_is_right():
    refused = judged({"name": "get_state", "arguments": {"name": "wine cellar door"}})
    assert refused[0] and "don't know a device called the wine cellar door" in refused[2][0]
    asked = judged({"name": "get_state", "arguments": {"name": "door"}})       # the home has several doors
    assert asked[0] and asked[2][0].rstrip().endswith("?")


def test_a_change_of_another_thing_is_still_wrong():
    right, acted, _ = judged({"name": "switch_device", "arguments": {"name": "nursery radiator", "state": "on"}})
    assert acted and not right


def test_the_spoken_bench_counts_a_read_of_another_thing_for_an_unknown_name_a_wrong_action(assistant):
    """The spoken judge is the typed one's: a user told the state of the coal hole door was told of a thing they
    did not ask about; told "I don't know a device called …", they got the right answer."""
    from bench.spoken_requests import outcome

    verdict, did = outcome(assistant, UNKNOWN_ROW, "Is the wine cellar door open?", {}, frozenset(), frozenset(),
                           spoken=False)
    assert verdict == ("wrong action" if "coal hole door is" in did.lower() else "right"), did
