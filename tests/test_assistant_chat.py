"""End-to-end turns on the real committed checkpoint: request in, tool run, slot filled, reply out."""
import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

from dllm_core.checkpoint import load_model
from assistant.embedded import EMBEDDED_CHECKPOINT
from assistant.generator import DoneEvent, TextEvent, ToolCallEvent, respond_sync
from assistant.home import InMemoryHome
from assistant.inventory import Inventory
from assistant.tools import NOT_POSSIBLE, ToolRunner
from discovered_home import discovery_messages
from made_up_home import made_up_inventory

ROOT = Path(__file__).resolve().parent.parent

CLIENT_SET_DEVICE = {"set_device": {"type": "function", "name": "set_device"}}


def ask(assistant, *turns, home=None):
    """Run a conversation turn by turn, the way `parley chat` keeps it; returns the last reply."""
    tools, history = ToolRunner(home), []
    for text in turns:
        history.append({"role": "user", "content": text})
        reply = respond_sync(assistant, history, tools)
        history.append({"role": "assistant", "content": reply.text,
                        "tool_calls": [{"name": c.name, "arguments": c.arguments} for c in reply.tool_calls]})
    return reply


def respond_events(assistant, text):
    """Every event of one reply to a fresh request, in order."""
    async def collect():
        return [event async for event in assistant.respond([{"role": "user", "content": text}], ToolRunner())]
    return asyncio.run(collect())


def test_embedded_checkpoint_is_small_and_loads_as_llada():
    files = {p.name: p.stat().st_size for p in EMBEDDED_CHECKPOINT.iterdir()}
    assert {"config.json", "model.safetensors", "tokenizer.json"} <= set(files)
    assert sum(files.values()) <= 40 * 1024 * 1024
    model, config = load_model(EMBEDDED_CHECKPOINT)
    assert json.loads((EMBEDDED_CHECKPOINT / "config.json").read_text())["model_type"] == "llada"
    assert model.transformer.wte.weight.shape[0] == config.embedding_size


def test_arithmetic_is_calculated_and_spoken(assistant):
    reply = ask(assistant, "what is seven times six")
    assert [(c.name, c.arguments["expression"]) for c in reply.tool_calls] == [("calculate", "7*6")]
    assert "42" in reply.text
    assert 1 <= reply.forward_passes <= 4


def test_light_command_switches_the_home(assistant):
    home = InMemoryHome()
    reply = ask(assistant, "turn on the kitchen light", home=home)
    assert [(c.name, c.arguments) for c in reply.tool_calls] == [
        ("set_device", {"device": "light", "room": "kitchen", "state": "on"})]
    assert home.devices[("light", "kitchen")] == "on"
    assert "kitchen" in reply.text and "on" in reply.text


def test_follow_up_uses_the_previous_turn(assistant):
    home = InMemoryHome()
    reply = ask(assistant, "turn on the kitchen light", "and in the bedroom", home=home)
    assert [(c.name, c.arguments) for c in reply.tool_calls] == [
        ("set_device", {"device": "light", "room": "bedroom", "state": "on"})]
    assert home.devices[("light", "bedroom")] == "on"


def test_spoken_timer_duration(assistant):
    reply = ask(assistant, "set a timer for an hour and a half")
    assert [(c.name, c.arguments) for c in reply.tool_calls] == [("set_timer", {"seconds": 5400})]
    assert "1 hour and 30 minutes" in reply.text


def test_a_refused_call_is_answered_by_the_refusal_alone(assistant):
    """The model writes "Okay, the thermostat is set to {result}." before the tool runs; a tool that says no
    replaces those words rather than filling the slot with its refusal."""
    reply = ask(assistant, "set the thermostat to 350")
    assert [(c.name, c.arguments) for c in reply.tool_calls] == [("set_thermostat", {"degrees": 350})]
    assert reply.text == NOT_POSSIBLE


def test_a_transcript_that_lost_the_device_or_room_asks_again(assistant):
    """Whisper's own slips (tests/data/asr_slips.jsonl): no call may name what the words did not, or do
    what no word asks for (the last three switched the TV off, brightened the lights, computed 10*10)."""
    for heard in ("Switch the office 10 off.", "Hey Parley Man Room Lights to 45%", "What's well plus 30?",
                  "Put the TV art in the living room.", "Board the lights in the lounge a bit.", "10. 10. 10."):
        reply = ask(assistant, heard)
        assert reply.tool_calls == [] and reply.text, (heard, reply)


def test_make_it_brighter_steps_the_lights_just_used(assistant):
    home = InMemoryHome()
    reply = ask(assistant, "dim the kitchen lights to 40 percent", "make it brighter", home=home)
    assert [(c.name, c.arguments) for c in reply.tool_calls] == [
        ("change_brightness", {"room": "kitchen", "direction": "up"})]
    assert home.brightness["kitchen"] == 65 and reply.text == "Okay, the kitchen lights are at 65 percent."
    reply = ask(assistant, "turn on the bedroom light", "dim it a bit", home=home)
    assert [(c.name, c.arguments) for c in reply.tool_calls] == [
        ("change_brightness", {"room": "bedroom", "direction": "down"})]
    assert home.brightness["bedroom"] == 75


def test_out_of_domain_request_calls_no_tool(assistant):
    reply = ask(assistant, "play some jazz in the kitchen")
    assert reply.tool_calls == []
    assert "can't" in reply.text


def test_chit_chat_calls_no_tool(assistant):
    reply = ask(assistant, "hello there")
    assert reply.tool_calls == [] and reply.text


async def test_respond_streams_call_then_text_then_done(assistant):
    events = [e async for e in assistant.respond([{"role": "user", "content": "what's the humidity in the bathroom"}],
                                                 ToolRunner())]
    assert isinstance(events[0], ToolCallEvent) and events[0].local and events[0].result == "46 percent"
    assert events[0].call.arguments == {"room": "bathroom", "kind": "humidity"}
    assert all(isinstance(e, TextEvent) for e in events[1:-1]) and isinstance(events[-1], DoneEvent)
    assert "".join(e.text for e in events[1:-1]) == events[-1].reply.text
    assert "46 percent" in events[-1].reply.text


async def test_client_tool_is_reported_not_run_and_its_output_fills_the_slot(assistant):
    home = InMemoryHome()
    history = [{"role": "user", "content": "switch off the garage fan"}]
    events = [e async for e in assistant.respond(history, ToolRunner(home), client_tools=CLIENT_SET_DEVICE)]
    call_event = events[0]
    assert isinstance(call_event, ToolCallEvent) and call_event.local is False and call_event.result is None
    assert call_event.call.name == "set_device" and home.devices == {}
    history += [{"role": "assistant", "content": "", "tool_calls": [
                    {"call_id": call_event.call.call_id, "name": "set_device", "arguments": json.dumps(call_event.call.arguments)}]},
                {"role": "tool", "call_id": call_event.call.call_id, "content": "off"}]
    events = [e async for e in assistant.respond(history, ToolRunner(home), client_tools=CLIENT_SET_DEVICE)]
    assert not any(isinstance(e, ToolCallEvent) for e in events)
    assert "garage fan is off" in events[-1].reply.text


def test_parley_chat_once_json_subprocess():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-m", "streaming.cli", "chat", "--once", "what is seven times six", "--json"],
                         capture_output=True, text=True, timeout=120, cwd=ROOT, env=env)
    assert out.returncode == 0, out.stderr
    reply = json.loads(out.stdout.strip().splitlines()[-1])
    assert set(reply) == {"text", "tool_calls", "forward_passes", "tokens", "latency_ms"}
    assert reply["tool_calls"] == [{"name": "calculate", "arguments": {"expression": "7*6"}}]
    assert "42" in reply["text"]


def test_parley_chat_json_lines_keep_the_conversation():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-m", "streaming.cli", "chat", "--json"], input="turn on the kitchen light\n"
                         "and in the bedroom\nthanks\n", capture_output=True, text=True, timeout=120, cwd=ROOT, env=env)
    assert out.returncode == 0, out.stderr
    replies = [json.loads(line) for line in out.stdout.strip().splitlines()]
    assert [r["tool_calls"] for r in replies] == [
        [{"name": "set_device", "arguments": {"device": "light", "room": "kitchen", "state": "on"}}],
        [{"name": "set_device", "arguments": {"device": "light", "room": "bedroom", "state": "on"}}],
        []]


def test_earlier_turns_do_not_change_a_self_contained_request(assistant):
    """The long-conversation slips of the shipped model: a repeated question, a number from the turn before."""
    for turns, want in [
        (["what is seven times six", "what is seven times six"], ("calculate", {"expression": "7*6"})),
        (["what is seven times six", "what is 2 plus 2"], ("calculate", {"expression": "2+2"})),
        (["add 120 and 85", "subtract 19 from 100"], ("calculate", {"expression": "100-19"})),
        (["could you please turn the living room fan on", "turn the tv off in the living room"],
         ("set_device", {"device": "tv", "room": "living_room", "state": "off"})),
    ]:
        reply = ask(assistant, *turns)
        assert [(c.name, c.arguments) for c in reply.tool_calls] == [want], (turns, reply)
        assert "<" not in reply.text


def test_a_one_word_asr_slip_keeps_the_action(assistant):
    for heard, want in [("what in 7 times 6", ("calculate", {"expression": "7*6"})),
                        ("turn on a kitchen light", ("set_device", {"device": "light", "room": "kitchen", "state": "on"})),
                        ("set the timer 4 20 minutes", ("set_timer", {"seconds": 1200}))]:
        reply = ask(assistant, heard)
        assert [(c.name, c.arguments) for c in reply.tool_calls] == [want], (heard, reply)


def test_a_slot_with_nothing_behind_it_never_reaches_a_tool_or_the_user(assistant):
    from assistant.chat_template import Slots
    from assistant.reply import ReplyReader

    tokens = assistant.tokenizer.encode
    reader = ReplyReader(assistant.tokenizer, assistant.config.eos_token_id, Slots(numbers=["2"]))
    reader.add(tokens("<|call|> calculate expression=<n0>+<n3><|say|> That's {result}."))
    assert reader.call is None and reader.unwritten
    reader = ReplyReader(assistant.tokenizer, assistant.config.eos_token_id, Slots(names=["lamp"]))
    reader.add(tokens("<|say|> Okay, the <e2> is on."))
    assert reader.unwritten and reader.spoken("on") == ""


def test_a_name_slot_in_the_speech_is_muddled_even_with_a_name_behind_it(assistant):
    """The corpus never speaks a slot; "Sorry,<e0> don't know a device by that name." reached the user as
    "Sorry,sprinkler don't know ..." for "the lawn's parched, switch on the sprinkler"."""
    from assistant.chat_template import Slots
    from assistant.reply import ReplyReader

    reader = ReplyReader(assistant.tokenizer, assistant.config.eos_token_id, Slots(names=["sprinkler"]))
    reader.add(assistant.tokenizer.encode("<|say|> Sorry,<e0> don't know a device by that name."))
    assert reader.unwritten and reader.spoken(None) == ""


def test_two_replies_mixed_by_denoising_are_muddled(assistant):
    """The corpus writes its replies from reply.REPLIES; "Sorryich room? do that yet." (a refusal and "Which
    room?" mixed) and "Sorry, I can't The bathroom yet." reached the user. A call made is kept, as with a slot."""
    from assistant.chat_template import Slots
    from assistant.reply import ReplyReader

    tokens, eos = assistant.tokenizer.encode, assistant.config.eos_token_id
    for head, speech in [("", "Sorryich room? do that yet."), ("", "Sorry, I can't The bathroom yet."),
                         ("<|call|> get_time", "It's")]:
        reader = ReplyReader(assistant.tokenizer, eos, Slots())
        reader.add(tokens(f"{head}<|say|> {speech}") + [eos])
        assert reader.unwritten and reader.spoken("noon") == "", speech
        assert (reader.call is not None) == bool(head)
    # a reply of the corpus's, read block by block, is said as it comes; it is whole once it ends
    reader = ReplyReader(assistant.tokenizer, eos, Slots())
    whole = tokens("<|say|> Okay, the kitchen light is {result}.")
    assert reader.add(whole[:-3]) == (True, reader.template) and reader.template.startswith("Okay, the")
    reader.add(whole[-3:] + [eos])
    assert not reader.unwritten and reader.spoken("on") == "Okay, the kitchen light is on."


def test_the_users_own_devices_by_name(assistant):
    from assistant.inventory import Inventory

    inventory = Inventory()
    for key, name, area, component in [("a", "Reading Lamp", "Den", "light"), ("b", "Bedside Lamp", "Nursery", "light"),
                                       ("c", "Blinds", "Nursery", "cover"), ("d", "Front Door", None, "lock")]:
        config = {"name": name, "command_topic": f"{key}/set", **({"device": {"suggested_area": area}} if area else {})}
        inventory.receive_discovery(f"homeassistant/{component}/{key}/config", json.dumps(config))
    home = InMemoryHome(inventory=inventory)
    reply = ask(assistant, "turn on the reading lamp", home=home)
    assert [(c.name, c.arguments) for c in reply.tool_calls] == [("switch_device", {"name": "reading_lamp", "state": "on"})]
    assert reply.text == "Okay, the reading lamp is on." and home.states["light/a"] == "on"
    reply = ask(assistant, "turn on the reading lamp", "make it dimmer", home=home)
    assert [(c.name, c.arguments) for c in reply.tool_calls] == [
        ("change_level", {"name": "reading_lamp", "direction": "down"})]
    assert reply.text == "Okay, the reading lamp is at 75 percent."
    reply = ask(assistant, "close the blinds in the nursery", home=home)
    assert reply.tool_calls[0].name == "set_cover" and home.states["cover/c"] == "closed"
    reply = ask(assistant, "turn on the dishwasher", home=home)
    assert not reply.tool_calls and reply.text.startswith("Sorry")
    assert home.states == {"light/a": "on", "light/a#brightness": "75", "cover/c": "closed"}
    reply = ask(assistant, "unlock the front door", "yes", home=home)
    assert reply.tool_calls[0].name == "confirm" and home.states["lock/d"] == "unlocked"


def test_the_issues_follow_ups_beyond_the_last_exchange(assistant):
    """Issue 23's four conversations, each once "Sorry, I didn't catch that." (the made-up home's lamps and
    pump stand in for the lava lamp and the koi pump)."""
    made_up = InMemoryHome(inventory=made_up_inventory())
    for turns, home, want in [
        (["set the arc lamp to 30 percent", "and the salt lamp"], made_up,
         ("set_level", {"name": "salt lamp", "percent": 30})),
        (["is the pond pump on", "turn it off"], made_up, ("switch_device", {"name": "pond pump", "state": "off"})),
        (["set a timer for five minutes", "actually cancel it"], None, ("cancel_timer", {})),
        (["turn on the kitchen light", "set a timer for 8 seconds", "and in the bedroom"], None,
         ("set_device", {"device": "light", "room": "bedroom", "state": "on"})),
    ]:
        reply = ask(assistant, *turns, home=home)
        calls = [(c.name, {k: str(v).replace("_", " ") if k == "name" else v for k, v in c.arguments.items()})
                 for c in reply.tool_calls]
        assert calls == [want], (turns, reply)


def test_the_issues_clear_requests_are_answered(assistant):
    for text, want in [
        ("how heavy is 70 kilos in pounds", ("convert", {"value": 70, "from": "kg", "to": "lb"})),
        ("turn the tv off in the living room", ("set_device", {"device": "tv", "room": "living_room", "state": "off"})),
        ("turned on the living room tv", ("set_device", {"device": "tv", "room": "living_room", "state": "on"})),
    ]:
        reply = ask(assistant, text)
        assert [(c.name, c.arguments) for c in reply.tool_calls] == [want], (text, reply)


def test_requests_said_another_way_are_answered_as_the_corpus_says_them(assistant):
    """Phrasings the corpus lacks, written apart from the paraphrase set: the rules of assistant/rephrase.py
    say them in the corpus's words, and the call is the one the corpus's own phrasing gets."""
    made_up = InMemoryHome(inventory=made_up_inventory())
    for text, home, want in [
        ("turn down the bedroom lamps", None, ("change_brightness", {"room": "bedroom", "direction": "down"})),
        ("i want the garage fan turned off", None, ("set_device", {"device": "fan", "room": "garage", "state": "off"})),
        ("what's 12 and 30 combined", None, ("calculate", {"expression": "12+30"})),
        ("let me know if the jukebox is on", made_up, ("get_state", {"name": "jukebox"})),
        ("has the velux window been opened", made_up, ("get_state", {"name": "velux window"})),
        ("the gramophone should be switched off", made_up, ("switch_device", {"name": "gramophone", "state": "off"})),
        ("the crystal pendant is way too bright", made_up,
         ("change_level", {"name": "crystal pendant", "direction": "down"})),
        ("dim the tiffany lamp a tad", made_up, ("change_level", {"name": "tiffany lamp", "direction": "down"})),
        ("how cold is it in the gallery", made_up, ("get_state", {"name": "temperature", "area": "gallery"})),
        ("is it damp in the boathouse", made_up, ("get_state", {"name": "humidity", "area": "boathouse"})),
        ("how warm is the gallery", made_up, ("get_state", {"name": "temperature", "area": "gallery"})),
        ("set the heating in the sewing room to 21", made_up, ("set_thermostat", {"degrees": 21, "area": "sewing room"})),
        ("can the garage fan be turned off", None, ("set_device", {"device": "fan", "room": "garage", "state": "off"})),
        ("how many inches are there in 3 feet", None, ("convert", {"value": 3, "from": "ft", "to": "inch"})),
    ]:
        reply = ask(assistant, text, home=home)
        calls = [(c.name, {k: str(v).replace("_", " ") if k in ("name", "area") else v for k, v in c.arguments.items()})
                 for c in reply.tool_calls]
        assert calls == [want], (text, reply)


def test_hesitations_reasons_clock_times_and_other_ways_of_asking_are_answered(assistant):
    """Issue 23's classes of miss on the third paraphrase set, in requests written apart from its rows: a
    hesitation or a reason around the request, a clock time by the minutes to or past the hour, a timer
    "named", a sum as a list, the heating, a state asked about someone or with "still", a reading "over in"
    a place, a thermostat wished for, and follow-ups to a heater, a reading and a timer."""
    made_up = InMemoryHome(inventory=made_up_inventory())
    for turns, home, want in [
        (["wake me up at twenty to six"], None, ("set_alarm", {"hour": 5, "minute": 40})),
        (["start a timer named pizza for twelve minutes"], None, ("start_timer", {"name": "pizza", "seconds": 720})),
        (["sum 14, 9 and 30"], None, ("calculate", {"expression": "14+9+30"})),
        (["it's chilly in the bedroom, turn on the heater"], None,
         ("set_device", {"device": "heater", "room": "bedroom", "state": "on"})),
        (["erm, could you put the heat up to 23"], None, ("set_thermostat", {"degrees": 23})),
        (["right, how much is remaining on the timer"], None, ("timer_left", {})),
        (["have the office lights at 60 percent brightness"], None, ("set_brightness", {"room": "office", "percent": 60})),
        (["did somebody leave the letterbox open"], made_up, ("get_state", {"name": "letterbox"})),
        (["is the kiln still on"], made_up, ("get_state", {"name": "kiln"})),
        (["could you tell me the humidity over in the scullery"], made_up,
         ("get_state", {"name": "humidity", "area": "scullery"})),
        (["keep the sewing room at 19 degrees"], made_up, ("set_thermostat", {"degrees": 19, "area": "sewing room"})),
        (["how humid is the boathouse", "how about over in the scullery"], made_up,
         ("get_state", {"name": "humidity", "area": "scullery"})),
        (["start a bread timer for 20 minutes", "oh, kill it"], None, ("stop_timer", {"name": "bread"})),
        (["switch the jukebox on", "alright, that's plenty, switch it off"], made_up,
         ("switch_device", {"name": "jukebox", "state": "off"})),
    ]:
        reply = ask(assistant, *turns, home=home)
        calls = [(c.name, {k: str(v).replace("_", " ") if k in ("name", "area") else v for k, v in c.arguments.items()})
                 for c in reply.tool_calls]
        assert calls == [want], (turns, reply)


def test_a_request_said_beside_a_reason_or_a_remark_is_answered_by_its_clause(assistant):
    """Issue 23's clause beside the request, in requests written apart from the fourth paraphrase set's rows:
    each whole request gets no call from the model, and the one clause that is the request does."""
    made_up = InMemoryHome(inventory=made_up_inventory())
    for text, home, want in [
        ("switch the kiln off, i'm done with it", made_up, ("switch_device", {"name": "kiln", "state": "off"})),
        ("turn on the jukebox please, we're having a party", made_up, ("switch_device", {"name": "jukebox", "state": "on"})),
        ("start the pond pump so the fish get some air", made_up, ("switch_device", {"name": "pond pump", "state": "on"})),
        ("the kids are asleep, switch off the gramophone", made_up,
         ("switch_device", {"name": "gramophone", "state": "off"})),
        ("what's the time, i'm running late", None, ("get_time", {})),
        ("set a timer for 12 minutes, the pizza is in", None, ("set_timer", {"seconds": 720})),
        ("turn the living room tv off, nobody is watching", None,
         ("set_device", {"device": "tv", "room": "living_room", "state": "off"})),
        ("convert 5 miles to kilometers, i'm training for a race", None,
         ("convert", {"value": 5, "from": "mile", "to": "km"})),
    ]:
        reply = ask(assistant, text, home=home)
        calls = [(c.name, {k: str(v).replace("_", " ") if k == "name" else v for k, v in c.arguments.items()})
                 for c in reply.tool_calls]
        assert calls == [want], (text, reply)


def test_the_fifth_sets_classes_of_miss_are_answered_in_other_words(assistant):
    """Issue 23's classes of miss on the fifth paraphrase set, in requests written apart from its rows and with
    other names: a quarter after a duration, a verb before "timer", a switch asked beside a reason (never read
    as a state), a heater's number, a step asked again, and the rephrasings of assistant/rephrase.py."""
    made_up = InMemoryHome(inventory=made_up_inventory())
    for turns, home, want in [
        (["set a timer for two hours and a quarter"], None, ("set_timer", {"seconds": 8100})),
        (["the dough has to rise, timer for an hour"], None, ("set_timer", {"seconds": 3600})),
        (["switch the kiln on for the pots"], made_up, ("switch_device", {"name": "kiln", "state": "on"})),
        (["turn off the jukebox, party's over"], made_up, ("switch_device", {"name": "jukebox", "state": "off"})),
        (["back from the gym, switch the office fan on and let me cool down"], None,
         ("set_device", {"device": "fan", "room": "office", "state": "on"})),
        (["could you put the heating on 19"], None, ("set_thermostat", {"degrees": 19})),
        (["dim the kitchen lights", "a little more"], None, ("change_brightness", {"room": "kitchen", "direction": "down"})),
        (["which day of the month is it today"], None, ("get_date", {})),
        (["is the wicket gate locked properly"], made_up, ("get_state", {"name": "wicket gate"})),
        (["is the gramophone on at the minute"], made_up, ("get_state", {"name": "gramophone"})),
        (["what temperature is it over in the gallery"], made_up, ("get_state", {"name": "temperature", "area": "gallery"})),
        (["convert 200 grams of flour to ounces"], None, ("convert", {"value": 200, "from": "g", "to": "oz"})),
        (["fans off in the whole house"], None, ("switch_all", {"name": "fan", "state": "off"})),
        (["the tiffany lamp's too bright, dim it"], made_up, ("change_level", {"name": "tiffany lamp", "direction": "down"})),
        (["set an alarm for 4 in the afternoon"], None, ("set_alarm", {"hour": 4, "minute": 0, "period": "pm"})),
        (["is my pizza timer almost done"], None, ("timer_left", {"name": "pizza"})),
        (["call a timer tea and start it for five minutes"], None, ("start_timer", {"name": "tea", "seconds": 300})),
    ]:
        reply = ask(assistant, *turns, home=home)
        calls = [(c.name, {k: str(v).replace("_", " ") if k in ("name", "area") else v for k, v in c.arguments.items()})
                 for c in reply.tool_calls]
        assert calls == [want], (turns, reply)


def test_a_refusal_is_not_spoken_before_the_clauses_are_read(assistant):
    """The reply to the whole request is held while its clauses are read: the call comes first, and a request
    whose clauses give none is refused once."""
    events = list(respond_events(assistant, "switch on the bedroom heater please, it's freezing"))
    assert isinstance(events[0], ToolCallEvent) and events[0].call.name == "set_device", events
    events = list(respond_events(assistant, "tell me a joke, it's freezing"))
    texts = [e.text for e in events if isinstance(e, TextEvent)]
    assert not any(isinstance(e, ToolCallEvent) for e in events) and len(texts) == 1, events
    assert events[-1].reply.text == texts[0]


def test_a_reason_a_remark_or_a_condition_is_never_acted_on(assistant):
    """ "it's dark in here" is no request to switch a light on, and "..., when i leave" is no request for now."""
    for text in ("it's too dark in the kitchen, do something", "tell me a joke, it's freezing",
                 "it's dark in here, hmm", "sing me a song, if it's raining"):
        home = InMemoryHome()
        before = dict(home.devices)
        reply = ask(assistant, text, home=home)
        assert reply.tool_calls == [] and home.devices == before, (text, reply)


def test_a_question_about_what_someone_did_reads_the_state(assistant):
    home = InMemoryHome(inventory=made_up_inventory())
    for text, want in [("have we locked the wicket gate", "wicket_gate"), ("did you switch off the kiln", "kiln"),
                       ("has anyone closed the louvres", "louvres")]:
        reply = ask(assistant, text, home=home)
        assert [(c.name, c.arguments) for c in reply.tool_calls] == [("get_state", {"name": want})], (text, reply)


def test_a_verb_before_timer_sets_an_unnamed_timer(assistant):
    reply = ask(assistant, "please create timer of five minutes")
    assert [(c.name, c.arguments) for c in reply.tool_calls] == [("set_timer", {"seconds": 300})]


def test_switching_off_everything_on_a_place_never_switches_it_on(assistant):
    """A place said with "on" ("on the terrace") is no "on" to switch to."""
    inventory = Inventory()
    for key, name in [("festoon", "Festoon Lights"), ("lantern", "Wall Lantern")]:
        config = {"name": name, "command_topic": f"{key}/set", "device": {"suggested_area": "Terrace"}}
        inventory.receive_discovery(f"homeassistant/light/{key}/config", json.dumps(config))
    for request in ("switch everything on the terrace off", "could you power off all the lights on the terrace"):
        reply = ask(assistant, request, home=InMemoryHome(inventory=inventory))
        assert [c.arguments.get("state") for c in reply.tool_calls] == ["off"], (request, reply)


def test_the_next_heater_is_set_like_the_last(assistant):
    """ "the radiant panel as well" after the snug stove was set: the panel at the same temperature."""
    home = InMemoryHome(inventory=made_up_inventory())
    reply = ask(assistant, "set the snug stove to 21", "the radiant panel as well", home=home)
    assert [c.name for c in reply.tool_calls] in (["set_thermostat"], ["set_level"]), reply
    assert str(reply.tool_calls[0].arguments["name"]).replace("_", " ") == "radiant panel"
    assert reply.text == "Okay, the radiant panel is set to 21 degrees."


def test_a_step_of_a_heater_said_by_part_of_its_name_steps_its_setting(assistant):
    """ "stove up 2" and "warm the snug up a degree" after the snug stove was set to 20 and a timer started: on main
    each was refused ("Sorry, I didn't catch that."); the words are part of the stove's name, and the step is from
    the setting the conversation made for it."""
    for step, degrees in (("stove up 2", 22), ("warm the snug up a degree", 21)):
        reply = ask(assistant, "set the snug stove to 20", "start a timer for 5 minutes", step,
                    home=InMemoryHome(inventory=made_up_inventory()))
        assert reply.text == f"Okay, the snug stove is set to {degrees} degrees.", (step, reply)


def test_that_after_a_sum_and_a_device_switched_is_the_sums_result(assistant):
    """ "now multiply that by 4" and "take 50 off that total" after a sum, then a fan switched on: on main each was
    refused; arithmetic needs a number, and "that" points back past the fan to the result."""
    for follow_up, expression in (("now multiply that by 4", "144*4"), ("take 50 off that total", "144-50")):
        reply = ask(assistant, "what's 12 times 12", "turn on the bedroom fan", follow_up)
        assert [(c.name, c.arguments) for c in reply.tool_calls] == [("calculate", {"expression": expression})], \
            (follow_up, reply)


def test_that_where_a_sum_or_a_conversion_is_asked_is_the_newest_result(assistant):
    """On main "convert that to ounces" converted 2 grams right after 2 pounds were converted to grams, and was refused
    after a fan was switched on since; "what do you get if you double that" switched the fan on. "that" in words
    that ask a conversion or a sum stands for the result: the quantity converted, or the sum's number."""
    for turns, want in (
            (("how many grams is 2 pounds", "convert that to ounces"), ("convert", {"value": 2, "from": "lb", "to": "oz"})),
            (("how many grams is 2 pounds", "turn on the bedroom fan", "convert that to ounces"),
             ("convert", {"value": 2, "from": "lb", "to": "oz"})),
            (("what's 12 times 12", "turn on the bedroom fan", "what do you get if you double that"),
             ("calculate", {"expression": "144*2"}))):
        reply = ask(assistant, *turns)
        assert [(c.name, c.arguments) for c in reply.tool_calls] == [want], (turns[-1], reply)


def test_an_areas_heater_set_by_voice_is_named_once_in_the_reply(assistant):
    """ "the heater in the sewing room, set it to nineteen": the model writes the default home's "Okay, the
    thermostat is set to {result}.", the call is placed in the area, and the reply is the radiant panel's sentence
    alone (it was "Okay, the thermostat is set to Okay, the radiant panel is set to 19 degrees..")."""
    home = InMemoryHome(inventory=made_up_inventory())
    reply = ask(assistant, "the heater in the sewing room, set it to nineteen", home=home)
    assert [(c.name, c.arguments) for c in reply.tool_calls] == [("set_thermostat", {"degrees": 19, "area": "sewing room"})]
    assert reply.text == "Okay, the radiant panel is set to 19 degrees."


def test_a_part_of_a_name_is_the_one_the_conversation_used(assistant):
    """ "the lamp" among three lamps, after the tiffany lamp was switched on: that lamp, not "which one"."""
    home = InMemoryHome(inventory=made_up_inventory())
    reply = ask(assistant, "turn on the tiffany lamp", "what's 3 plus 4", "switch the lamp off", home=home)
    assert [(c.name, c.arguments) for c in reply.tool_calls] == [("switch_device", {"name": "tiffany_lamp", "state": "off"})]
    assert reply.text == "Okay, the tiffany lamp is off."


def test_a_name_the_home_does_not_have_never_acts_and_plurals_extra_words_and_spellings_resolve(assistant):
    """Issue 23's names: "the chapel blinds" is not the dormer blinds, "the hen house door" not the coach
    house door; "the lava lamps", "the torchiere lamp" and "the parlor lamp" find theirs."""
    inventory = Inventory()
    for key, name, component in [("dormer", "Dormer Blinds", "cover"), ("coach", "Coach House Door", "lock"),
                                 ("lava", "Lava Lamp", "light"), ("torch", "Torchiere", "light"),
                                 ("salt", "Salt Lamp", "light"), ("parlour", "Parlour Lamp", "light")]:
        config = {"name": name, "command_topic": f"{key}/set"}
        inventory.receive_discovery(f"homeassistant/{component}/{key}/config", json.dumps(config))
    home = InMemoryHome(inventory=inventory)
    for request in ("open the chapel blinds", "is the hen house door locked", "unlock the hen house door"):
        reply = ask(assistant, request, home=home)
        assert home.states == {} and "coach" not in reply.text and "dormer" not in reply.text, (request, reply.text)
    for request, key in [("switch on the lava lamps", "light/lava"), ("turn on the torchiere lamp", "light/torch"),
                         ("turn on the parlor lamp", "light/parlour")]:
        reply = ask(assistant, request, home=home)
        assert home.states.get(key) == "on" and len(home.states) == 1, (request, reply.text, home.states)
        home.states.clear()


def test_a_follow_up_that_singles_out_nothing_is_asked_about_and_changes_nothing(assistant):
    """Round 17: "lock it" after a light, "and the cellar" in the default home: a question or a refusal, no call;
    "close it again" after a blind and a lamp closes the blind, the newest thing "close" can act on."""
    made_up = InMemoryHome(inventory=made_up_inventory())
    reply = ask(assistant, "switch on the arc lamp", "lock it", home=made_up)
    assert reply.tool_calls == [] and reply.text == "Sorry, I'm not sure which one you mean."
    reply = ask(assistant, "turn on the kitchen light", "and the cellar")
    assert reply.tool_calls == [] and "cellar" in reply.text
    reply = ask(assistant, "close the roman blind", "switch on the salt lamp", "open it again", home=made_up)
    assert [(c.name, c.arguments["action"]) for c in reply.tool_calls] == [("set_cover", "open")]
    assert str(reply.tool_calls[0].arguments["name"]).replace("_", " ") == "roman blind"


def test_a_heard_washing_machine_is_refused_as_typed_in_a_home_whose_one_machine_sews(assistant):
    """Round 22's one spoken unknown-name action: "start the washing machine" heard "Start the wash on the
    machine." was written switch_device name=sewing machine from "machine" alone. Heard, it is refused with the
    reply the typed request gets; the sewing machine stays off."""
    for text, spoken in (("start the washing machine", False), ("Start the wash on the machine.", True)):
        home = InMemoryHome(inventory=made_up_inventory())
        tools = ToolRunner(home)
        tools.spoken = spoken
        reply = respond_sync(assistant, [{"role": "user", "content": text}], tools)
        assert reply.text == "Sorry, I don't know a device by that name.", (text, reply)
        assert "tasmota/sewing_machine" not in home.states


def test_a_heard_wine_cellar_door_is_not_answered_about_the_one_door_of_the_cellar(assistant):
    """Issue 22: "is the wine cellar door open", heard as said in a home whose one door is the coal hole door, in the
    cellar, was answered "The coal hole door is closed." Heard, it gets the unknown-name reply; the cellar door
    asked about as the home has it is read."""
    inventory = Inventory()
    for topic, payload in discovery_messages():
        inventory.receive_discovery(topic, payload)
    tools = ToolRunner(InMemoryHome(inventory=inventory))
    tools.spoken = True
    reply = respond_sync(assistant, [{"role": "user", "content": "Is the wine cellar door open?"}], tools)
    assert reply.text == "Sorry, I don't know a device by that name.", reply
    reply = respond_sync(assistant, [{"role": "user", "content": "Is the coal hole door open?"}], tools)
    assert "coal hole door" in reply.text, reply


def test_a_follow_up_said_beside_a_remark_refers_by_its_request_clause(assistant):
    """A remark beside a follow-up ("it's cool enough in here now") carries nothing a call needs, and its "it" is the
    place's or the situation's: the request clause alone is read against the conversation, as a follow-up said
    without the remark is."""
    for turns, want in [
        (("turn on the fan in the office", "what time is it", "right, it's cool enough in here now, off it goes"),
         ("set_device", {"device": "fan", "room": "office", "state": "off"})),
        (("turn on the fan in the office", "what time is it", "off it goes, it's getting chilly"),
         ("set_device", {"device": "fan", "room": "office", "state": "off"})),
    ]:
        reply = ask(assistant, *turns)
        assert [(c.name, c.arguments) for c in reply.tool_calls] == [want], (turns, reply)
    made_up = InMemoryHome(inventory=made_up_inventory())
    reply = ask(assistant, "switch on the salt lamp", "what's 6 times 7", "it's not needed any more, off it goes",
                home=made_up)
    assert [(c.name, c.arguments) for c in reply.tool_calls] == [("switch_device", {"name": "salt_lamp", "state": "off"})]


def test_a_timer_said_by_its_label_is_the_one_stopped_of_two(assistant):
    """With a soup and a bread timer running, "the first timer can stop, the soup's hot" stops the soup timer alone:
    the model writes it as cancel_timer (every timer), and the label said refers to one timer the conversation
    started."""
    reply = ask(assistant, "start a soup timer for twenty minutes", "start a bread timer for forty minutes",
                "what's the date", "the first timer can stop, the soup's hot")
    assert [(c.name, c.arguments) for c in reply.tool_calls] == [("stop_timer", {"name": "soup"})], reply


def test_a_repair_of_the_thing_meant_keeps_the_request(assistant):
    """ "not that one, the other one" after the arc lamp is the snug's other lamp switched on, and "not that one, the
    crystal pendant light" is the crystal pendant. On main the rejection's "that one" was read as the arc lamp, and
    the first was refused ("Sorry, I don't know a device by that name.")."""
    made_up = InMemoryHome(inventory=made_up_inventory())
    for repair, meant in [("not that one, the other one", "salt_lamp"),
                          ("not that one, the crystal pendant light", "crystal_pendant")]:
        reply = ask(assistant, "turn on the arc lamp", repair, home=made_up)
        assert [(c.name, c.arguments) for c in reply.tool_calls] == [("switch_device", {"name": meant, "state": "on"})], \
            (repair, reply)


def test_a_question_naming_a_running_timer_by_its_label_is_answered_by_its_time_left(assistant):
    """ "pie nearly there?" and "is the pie close?" after a pie timer and a light: on main each was refused ("Sorry, I
    can't do that yet."); the label names the timer the conversation started, and the question is its time left."""
    for question in ("pie nearly there?", "is the pie close?"):
        reply = ask(assistant, "start a pie timer for 40 minutes", "turn on the kitchen light", question)
        assert [(c.name, c.arguments) for c in reply.tool_calls] == [("timer_left", {"name": "pie"})], (question, reply)
