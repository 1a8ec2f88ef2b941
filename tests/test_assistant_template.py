"""The chat template: conversations become prompts, generated replies become a call and speech."""
import json

from assistant.chat_template import (Slots, conversion_said, format_call, hide_names, hide_numbers, model_prompt,
                                     parse_call, render_prompt, render_reply, reply_target)
from assistant.clauses import clauses
from assistant.spoken_numbers import normalize_request
from made_up_home import made_up_inventory


def test_single_turn_prompt_is_normalised():
    prompt = render_prompt([{"role": "user", "content": "What's twelve times seven?"}])
    assert prompt == "<|user|> what's 12 times 7<|assistant|>"


def test_follow_up_shows_the_previous_call_in_openai_shape():
    history = [
        {"role": "system", "content": "You are a helpful assistant."},
        {"role": "user", "content": "Turn on the kitchen light."},
        {"role": "assistant", "content": "", "tool_calls": [{"type": "function", "id": "c1", "function": {
            "name": "set_device", "arguments": json.dumps({"device": "light", "room": "kitchen", "state": "on"})}}]},
        {"role": "tool", "content": "on", "tool_call_id": "c1"},
        {"role": "assistant", "content": "Okay, the kitchen light is on."},
        {"role": "user", "content": "and in the bedroom?"},
    ]
    assert render_prompt(history) == ("<|user|> turn on the kitchen light<|assistant|><|call|> set_device "
                                      "device=light room=kitchen state=on<|user|> and in the bedroom<|assistant|>")


def test_previous_turn_without_call_and_old_turns_dropped():
    history = [{"role": "user", "content": "hello"}, {"role": "assistant", "content": "Hi! How can I help?"},
               {"role": "user", "content": "turn on the fan"}, {"role": "assistant", "content": "Which room?"},
               {"role": "user", "content": "the office"}]
    assert render_prompt(history) == "<|user|> turn on the fan<|assistant|><|say|><|user|> the office<|assistant|>"


def test_session_shaped_history_with_call_id_and_string_arguments():
    history = [{"role": "user", "content": "how humid is the bathroom"},
               {"role": "assistant", "content": "", "tool_calls": [
                   {"call_id": "x", "name": "read_sensor", "arguments": '{"room": "bathroom", "kind": "humidity"}'}]},
               {"role": "assistant", "content": "The bathroom humidity is 46 percent."},
               {"role": "user", "content": "and the garage"}]
    assert "<|call|> read_sensor room=bathroom kind=humidity<|user|> and the garage" in render_prompt(history)


def test_call_format_round_trips():
    for call in [{"name": "convert", "arguments": {"value": 2.5, "from": "km", "to": "mile"}},
                 {"name": "calculate", "arguments": {"expression": "(3+4)*2"}},
                 {"name": "set_timer", "arguments": {"seconds": 5400}},
                 {"name": "get_time", "arguments": {}}]:
        assert parse_call(format_call(call)) == call


def test_reply_format_and_malformed_calls():
    reply = render_reply({"name": "set_timer", "arguments": {"seconds": 90}}, "Timer set for {result}.")
    assert reply == "<|call|> set_timer seconds=90<|say|> Timer set for {result}."
    assert render_reply(None, "Hi! How can I help?") == "<|say|> Hi! How can I help?"
    assert parse_call("=oops") is None and parse_call("set_timer seconds") is None and parse_call("") is None


def test_numbers_become_slots_numbered_from_the_request_being_answered():
    history = [{"role": "user", "content": "dim the kitchen lights to thirty percent"},
               {"role": "assistant", "content": "", "tool_calls": [
                   {"name": "set_brightness", "arguments": {"room": "kitchen", "percent": 30}}]},
               {"role": "user", "content": "what's twelve times 7.5 plus 30"}]
    prompt, slots = model_prompt(history)
    assert slots.numbers == ["12", "7.5", "30"]
    assert prompt.endswith("percent=<n2><|user|> what's <n0> times <n1> plus <n2><|assistant|>")
    reply = reply_target({"name": "calculate", "arguments": {"expression": "12*7.5+30/100"}}, "That's {result}.", slots)
    assert reply == "<|call|> calculate expression=<n0>*<n1>+<n2>/100<|say|> That's {result}."
    assert slots.show("expression=<n0>*<n1>+<n2>/100") == "expression=12*7.5+30/100"
    assert slots.show("seconds=<n5>") == "seconds=<n5>"
    assert Slots(numbers=["1", "2"]).show("x=<n1>") == "x=2" and hide_numbers("7 and 7")[0] == "<n0> and <n0>"


def test_a_self_contained_request_reads_the_same_after_any_earlier_turn():
    ask = {"role": "user", "content": "what is seven times six"}
    fresh, _ = model_prompt([ask])
    for before in ([{"role": "user", "content": "what is seven times six"},
                    {"role": "assistant", "content": "That's 42.", "tool_calls": [
                        {"name": "calculate", "arguments": {"expression": "7*6"}}]}],
                   [{"role": "user", "content": "add one hundred twenty and eighty five"},
                    {"role": "assistant", "content": "That's 205.", "tool_calls": [
                        {"name": "calculate", "arguments": {"expression": "120+85"}}]}]):
        long, _ = model_prompt(before + [ask])
        assert long.endswith(fresh)


def test_names_of_the_users_home_become_slots_and_come_back():
    lexicon = ({"reading lamp", "lamp", "reading", "blinds"}, {"den", "nursery"})
    history = [{"role": "user", "content": "turn on the reading lamp in the den"},
               {"role": "assistant", "content": "", "tool_calls": [
                   {"name": "switch_device", "arguments": {"name": "reading_lamp", "state": "on", "area": "den"}}]},
               {"role": "user", "content": "and close the blinds in the nursery"}]
    prompt, slots = model_prompt(history, lexicon)
    assert prompt == ("<|user|> turn on the <e1> in the <a1><|assistant|><|call|> switch_device name=<e1> state=on "
                      "area=<a1><|user|> and close the <e0> in the <a0><|assistant|>")
    assert (slots.names, slots.areas) == (["blinds", "reading lamp"], ["nursery", "den"])
    call = {"name": "set_cover", "arguments": {"name": "blinds", "action": "close", "area": "nursery"}}
    assert reply_target(call, "{result}", slots) == "<|call|> set_cover name=<e0> action=close area=<a0><|say|> {result}"
    assert slots.show("set_cover name=<e1> area=<a0>") == "set_cover name=reading_lamp area=nursery"
    assert slots.show("name=<e3>") == "name=<e3>"                      # nothing behind it: stays, and is refused
    plain, _ = model_prompt(history[-1:])                              # the default home: words, not slots
    assert plain == "<|user|> and close the blinds in the nursery<|assistant|>"


def test_a_timer_label_is_a_name_slot():
    prompt, slots = model_prompt([{"role": "user", "content": "set a pasta timer for twelve minutes"}])
    assert prompt == "<|user|> set a <e0> timer for <n0> seconds<|assistant|>" and slots.names == ["pasta"]
    prompt, slots = model_prompt([{"role": "user", "content": "cancel the egg timer"}])
    assert prompt == "<|user|> cancel the egg timer<|assistant|>" and slots.names == []
    # Whisper's "Start at timer for 25 seconds.": a preposition names no timer
    assert model_prompt([{"role": "user", "content": "Start at timer for 25 seconds."}])[1].names == []


def test_a_name_split_or_joined_by_speech_recognition_is_still_the_name():
    """Whisper heard "Turn off the jukebox." as "juke box": the slot must still stand for the jukebox."""
    lexicon = ({"jukebox", "porch light", "light"}, {"porch"})
    for heard in ("turn off the juke box", "turn off the jukebox"):
        slots = Slots()
        assert hide_names(heard, slots, lexicon) == "turn off the <e0>" and slots.names == ["jukebox"]
    slots = Slots()
    assert hide_names("turn on the porchlight", slots, lexicon) == "turn on the <e0>"
    assert slots.names == ["porch light"]


def test_a_thermostat_call_without_a_place_is_the_one_heater_the_request_names():
    """ "still room heater to 16 please, the herbs need it cool": the model leaves the heater out, and a home of
    two heaters would ask which; a thing not said as a heater, or two things, leave the call as it is."""
    lexicon = ({"still room heater", "radiator", "arc lamp"}, {"nursery"})
    thermostat = {"name": "set_thermostat", "arguments": {"degrees": 16}}
    def placed(request):
        return model_prompt([{"role": "user", "content": request}], lexicon)[1].placed(thermostat)
    assert placed("still room heater to 16 please, the herbs need it cool") == \
        {"name": "set_thermostat", "arguments": {"degrees": 16, "name": "still room heater"}}
    assert placed("arc lamp to 16, it's cold") == thermostat
    assert placed("the still room heater and the radiator to 16") == thermostat


def test_a_call_of_a_thing_named_as_the_request_names_a_timer_is_refused():
    """ "stop the pasta timer, we're eating out" switched off a device "pasta": the clauses are read instead."""
    slots = slots_of("stop the pasta timer, we're eating out")
    assert slots.names_a_timer_as_a_thing({"name": "switch_device", "arguments": {"name": "pasta", "state": "off"}})
    assert not slots.names_a_timer_as_a_thing({"name": "stop_timer", "arguments": {"name": "pasta"}})
    assert not slots_of("turn off the pasta machine").names_a_timer_as_a_thing(
        {"name": "switch_device", "arguments": {"name": "pasta machine", "state": "off"}})


def test_a_switch_for_a_request_that_says_locking_and_no_switching_is_refused():
    """ "we're heading out, the strongroom door needs locking" switched the door off: the clauses are read instead."""
    off = {"name": "switch_device", "arguments": {"name": "strongroom door", "state": "off"}}
    assert slots_of("we're heading out, the strongroom door needs locking").switches_for_a_lock(off)
    assert not slots_of("lock the door and switch off the lamp").switches_for_a_lock(off)     # a switch is said
    assert not slots_of("we're heading out, the strongroom door needs locking").switches_for_a_lock(
        {"name": "set_lock", "arguments": {"name": "strongroom door", "action": "lock"}})


def test_a_level_set_to_a_number_said_only_as_a_step_is_refused():
    """ "bring it up 2 degrees" after the radiator was only asked about set it to 2 degrees."""
    heater = lambda degrees: {"name": "set_thermostat", "arguments": {"name": "radiator", "degrees": degrees}}  # noqa: E731
    assert slots_of("bring the radiator up two degrees").sets_a_step_as_the_level(heater(2))
    assert not slots_of("bring the radiator up two degrees").sets_a_step_as_the_level(heater(21))
    assert not slots_of("turn the radiator up to 22").sets_a_step_as_the_level(heater(22))
    assert slots_of("dim the lamp down by 10 percent").sets_a_step_as_the_level(
        {"name": "set_level", "arguments": {"name": "lamp", "percent": 10}})


def test_a_call_in_an_area_no_word_says_is_refused():
    """ "turn everything off in the living room please, we're off to bed" gave the area "edroom"."""
    slots = slots_of("turn everything off in the living room please, we're off to bed")
    assert slots.places_in_an_unsaid_area({"name": "switch_all", "arguments": {"name": "everything", "state": "off",
                                                                                "area": "edroom"}})
    assert not slots.places_in_an_unsaid_area({"name": "switch_all", "arguments": {"name": "everything", "state": "off",
                                                                                    "area": "living_room"}})
    assert not slots_of("lights off in the lounge").places_in_an_unsaid_area(     # a room's word says it
        {"name": "switch_all", "arguments": {"name": "lights", "state": "off", "area": "living_room"}})


def test_a_timer_named_as_a_thing_the_request_switches_is_refused_unless_a_timer_is_said():
    """ "heated airer on for an hour" set a timer "heated airer"; "set a kiln timer" names one."""
    lexicon = ({"heated airer", "kiln"}, set())
    timer = {"name": "start_timer", "arguments": {"name": "heated_airer", "seconds": 3600}}
    assert model_prompt([{"role": "user", "content": "heated airer on for an hour"}], lexicon)[1].times_a_thing(timer)
    assert not model_prompt([{"role": "user", "content": "set a heated airer timer for an hour"}], lexicon)[1] \
        .times_a_thing(timer)
    assert not slots_of("ten minutes for the pasta").times_a_thing(
        {"name": "start_timer", "arguments": {"name": "pasta", "seconds": 600}})      # nothing switched
    assert not slots_of("and a second one called kettle, three minutes").times_a_thing(
        {"name": "start_timer", "arguments": {"name": "kettle", "seconds": 180}})


def slots_of(*turns) -> Slots:
    """The slots of a conversation's prompt; a turn is a user's words, or a whole message."""
    return model_prompt([turn if isinstance(turn, dict) else {"role": "user", "content": turn} for turn in turns])[1]


def test_a_call_may_not_repeat_a_number_the_request_said_once_except_as_a_power():
    def repeats(request, call):
        return slots_of(request).repeats_an_unsaid_number(call)
    assert repeats("what's well plus 30", "calculate expression=<n0>+<n0>")         # Whisper lost "twelve"
    assert repeats("how much is 99", "calculate expression=<n0>-<n0>")
    assert not repeats("what is 30 plus 30", "calculate expression=<n0>+<n0>")      # said twice: one slot, twice
    assert not repeats("what is five squared", "calculate expression=<n0>*<n0>")
    assert not repeats("what is four cubed", "calculate expression=<n0>*<n0>*<n0>")
    assert not repeats("double 2", "calculate expression=<n0>*<n0>")                 # the 2 of "*2" is the same slot
    assert repeats("what is a hundred divided by for", "calculate expression=<n0>*<n0>")   # no word asks a power
    assert repeats("what is 23 times more", "calculate expression=<n0>*<n0>")
    assert not repeats("what is seven times six", "calculate expression=<n0>*<n1>")
    assert not repeats("double 12", "calculate expression=<n0>*2")


def test_a_timer_may_not_be_shorter_than_a_duration_the_request_says():
    def shorter(request, seconds):
        return slots_of(request).shortens_a_said_duration({"name": "set_timer", "arguments": {"seconds": seconds}})
    assert shorter("Timor for 1 hour in 10 minutes.", 600)                   # Whisper's "in" for "and"
    assert shorter("Please set the timer for 8 minutes in 30 seconds.", 30)
    assert not shorter("timer for one hour and ten minutes", 4200)
    assert not shorter("set a pasta timer for 12 minutes", 720)
    assert not shorter("what time is it", 60)


def test_a_call_must_be_asked_for_by_some_word_of_the_conversation():
    def unasked(call, *turns):
        return slots_of(*turns).acts_unasked(call)
    off = {"name": "set_device", "arguments": {"device": "tv", "room": "living_room", "state": "off"}}
    assert unasked(off, "Put the TV art in the living room.")                  # Whisper's "on" lost
    assert not unasked(off, "kill the tv in the lounge")
    assert not unasked(off, "i don't need the tv anymore")
    earlier = {"role": "assistant", "content": "", "tool_calls": [{"name": "set_device", "arguments": {
        "device": "light", "room": "kitchen", "state": "off"}}]}
    assert not unasked(off, "turn the kitchen light off", earlier, "and the tv in the living room")   # a follow-up
    up = {"name": "change_brightness", "arguments": {"room": "living_room", "direction": "up"}}
    assert unasked(up, "Board the lights in the lounge a bit.")
    assert not unasked(up, "the lounge is too dim")
    sum_ = {"name": "calculate", "arguments": {"expression": "10*10"}}
    assert unasked(sum_, "10. 10. 10.")
    assert not unasked(sum_, "what's 10 x 10") and not unasked(sum_, "10*10") and not unasked(sum_, "twelve from 50")
    assert unasked({"name": "cancel_timer", "arguments": {}}, "Set the timer on the lamp and mid its.")
    assert unasked({"name": "read_sensor", "arguments": {"room": "kitchen", "kind": "temperature"}},
                   "How can you make it in the kitchen?")
    assert unasked({"name": "set_cover", "arguments": {"name": "mudroom light", "action": "stop"}},
                   "The mudroom light at half-rightness.")
    assert not unasked({"name": "switch_device", "arguments": {"name": "fan", "state": "on"}}, "get the fan going")
    assert unasked({"name": "timer_left", "arguments": {}}, "Can so my timer please.")
    assert not unasked({"name": "timer_left", "arguments": {}}, "how's the pasta timer doing")
    dark = {"name": "set_brightness", "arguments": {"room": "bedroom", "percent": 0}}
    assert unasked(dark, "Make the bedroom light spherical.")                   # no number, no word for 0
    assert not unasked(dark, "bedroom brightness to nothing") and not unasked(dark, "bedroom lights to 0 percent")
    assert unasked({"name": "set_level", "arguments": {"name": "lamp", "percent": 30}}, "lamp to full")


def test_an_action_word_counts_in_any_of_its_regular_forms():
    """The words come from the skill registry; a form the corpus never wrote still asks for the action."""
    def unasked(call, text):
        return slots_of(text).acts_unasked(call)
    close = {"name": "set_cover", "arguments": {"name": "roman blind", "action": "close"}}
    assert not unasked(close, "closing the roman blind please") and not unasked(close, "roman blind lowered")
    assert unasked(close, "the roman blind")
    dim = {"name": "change_level", "arguments": {"name": "arc lamp", "direction": "down"}}
    assert not unasked(dim, "arc lamp dimmed a little") and not unasked(dim, "reducing the arc lamp")
    assert unasked({"name": "set_cover", "arguments": {"name": "louvres", "action": "open"}}, "opera on the louvres")


def test_a_whole_home_switch_may_not_drop_a_place_the_request_names():
    def drops(request, area=None):
        call = {"name": "switch_all", "arguments": {"name": "everything", "state": "off", **({"area": area} if area else {})}}
        return slots_of(request).drops_a_said_place(call)
    assert drops("Turn off everything in the tub.")                     # Whisper's "snug"
    assert drops("Turn off everything in this nug.")                    # the article misheard too
    assert not drops("turn off everything in a minute")                # a time, not a place
    assert not drops("turn off everything in the house") and not drops("turn everything off")
    assert not drops("turn off everything in the snug", "snug")


def test_a_call_may_not_switch_on_what_the_request_says_off():
    def against(request, state="on"):
        call = {"name": "switch_all", "arguments": {"name": "everything", "state": state, "area": "porch"}}
        return slots_of(request).switches_on_against_off(call)
    assert against("kill everything out on the porch, switch it all off")
    assert not against("kill everything out on the porch, switch it all off", state="off")
    assert not against("the porch lights are off, turn them on")               # both said: the model chooses
    assert not against("get everything going on the porch")
    assert not against("switch on the porch lights, the hall ones are off")
    assert against("shut the porch awning, the wind's getting up")            # a cover's shutting is no switching on


def test_a_question_about_what_someone_did_changes_nothing():
    def refused(request, call):
        return slots_of(request).acts_on_a_question(call)
    lock = {"name": "set_lock", "arguments": {"name": "wicket_gate", "action": "lock"}}
    assert refused("have i locked the wicket gate", lock)
    assert refused("um did you lock the wicket gate", lock)
    assert refused("was the wicket gate locked", lock)
    assert not refused("have i locked the wicket gate", {"name": "get_state", "arguments": {"name": "wicket_gate"}})
    assert not refused("lock the wicket gate", lock)
    assert not refused("have you got a timer for 5 minutes", {"name": "set_timer", "arguments": {"seconds": 300}})
    # asked after its topic
    cover = {"name": "set_cover", "arguments": {"name": "sash_window", "action": "close"}}
    assert refused("the sash window in the scullery is it shut", cover)
    assert refused("the landing blinds are they down", cover)
    assert not refused("is it ok to close the sash window", cover)
    assert refused("the loft hatch what's it at", {"name": "activate_scene", "arguments": {"name": "loft_hatch"}})


def test_a_request_to_switch_is_not_answered_by_a_read():
    def refused(request, call):
        return slots_of(request).reads_for_a_switch(call)
    read = {"name": "get_state", "arguments": {"name": "kiln"}}
    assert refused("put the kiln on for the pots", read)
    assert refused("okay switch off the kiln, we're done", read)
    assert refused("could you turn the kiln off please", read)
    assert refused("back from the gym, switch the kiln on and let me cool down", read)
    assert not refused("is the kiln switched off", read) and not refused("did i turn the kiln off", read)
    assert not refused("is the kiln on", read) and not refused("what's the kiln on", read)
    assert not refused("is the garden switch on", {"name": "get_state", "arguments": {"name": "garden switch"}})
    assert not refused("put the kiln on", {"name": "switch_device", "arguments": {"name": "kiln", "state": "on"}})
    assert refused("turn the porch light on", {"name": "read_sensor", "arguments": {"room": "porch", "kind": "temperature"}})
    # a question asked after its topic: "power ... on" is no switch there
    assert not refused("the garage power outlet is it on", {"name": "get_state", "arguments": {"name": "garage power outlet"}})


def test_a_request_with_clauses_that_asks_nothing_is_not_answered_by_a_read():
    """With its clauses read alone too, a read for a request that asks nothing is left to them ("let's have the
    regatta scene, the crew's coming over" read the regatta's state)."""
    def refused(request, clauses_read=True):
        slots = slots_of(request)
        slots.clauses = tuple(clause.said for clause in clauses(request)) if clauses_read else ()
        return slots.reads_unasked({"name": "get_state", "arguments": {"name": "fire_pit"}})
    assert refused("let's have the fire pit going, it's chilly")
    assert refused("the guests are here, get the fire pit going")
    assert not refused("let's have the fire pit going, it's chilly", clauses_read=False)   # nothing else to read
    assert not refused("the fire pit, is it lit")
    assert not refused("fire pit temperature, what's it reading")
    assert not refused("is the fire pit on, i can smell smoke")
    assert not refused("tell me if the fire pit is on, i'm going out")


def test_a_verb_before_timer_names_no_timer():
    for request in ("please make timer of ten minutes", "create timer for 2 minutes", "quick timer for 3 minutes"):
        assert model_prompt([{"role": "user", "content": request}])[1].names == [], request
    # a verb after "to", "could" or "will" is one too, whatever the verb
    for request in ("the bread has to rise timer for an hour", "the tea will brew timer five minutes",
                    "the glue could set timer for ten minutes"):
        assert model_prompt([{"role": "user", "content": request}])[1].names == [], request
    for request in ("i want to start a pasta timer", "i'd like you to pasta timer for 5 minutes",
                    "i want to pasta timer for 5 minutes"):
        assert model_prompt([{"role": "user", "content": request}])[1].names == ["pasta"], request


def test_a_call_may_not_name_a_room_device_or_unit_nobody_said():
    def unsaid(call, *turns):
        return slots_of(*turns).names_something_unsaid(call)
    lights_on = {"name": "set_device", "arguments": {"device": "light", "room": "office", "state": "off"}}
    assert unsaid(lights_on, "switch the office 10 off")                             # Whisper lost "fan"
    assert unsaid({"name": "set_brightness", "arguments": {"room": "living_room", "percent": 45}},
                  "hey parley man room lights to 45%")
    assert not unsaid(lights_on, "switch off the lamp in the study")                  # the vocabulary's words
    assert not unsaid(lights_on, "it's dark in the office")
    assert not unsaid(lights_on, "turn on the office light",                          # a follow-up: the call
                      {"role": "assistant", "content": "", "tool_calls": [
                          {"name": "set_device", "arguments": {"device": "light", "room": "office", "state": "on"}}]},
                      "turn it back off")
    assert not unsaid({"name": "set_level", "arguments": {"name": "reading_lamp", "percent": 30}}, "dim it")
    tv = {"name": "get_state", "arguments": {"name": "tv", "area": "living_room"}}
    assert unsaid(tv, "Turn on the TV is the mad room.") and not unsaid(tv, "is the telly on in the lounge")
    assert unsaid({"name": "switch_all", "arguments": {"name": "light", "state": "on"}}, "Help at the very end.")
    grams = {"name": "convert", "arguments": {"value": 200, "from": "g", "to": "lb"}}
    assert unsaid(grams, "What's 200 grams announces?") and not unsaid(grams, "200 g in pounds")
    assert not unsaid({"name": "convert", "arguments": {"value": 70, "from": "fahrenheit", "to": "celsius"}},
                      "what's 70 degrees in celsius")                           # degrees leave their scale unsaid


def test_a_name_slot_stands_for_all_that_was_said_of_the_device():
    lexicon = ({"dormer blinds", "blinds", "dormer", "torchiere", "lamp", "lava lamp", "lava"}, {"snug"})
    slots = Slots()
    assert hide_names("open the chapel blinds", slots, lexicon) == "open the chapel <e0>"
    assert slots.names == ["chapel blinds"]                         # no entity answers to it: nothing opens
    slots = Slots()
    assert hide_names("turn on the torchiere lamp", slots, lexicon) == "turn on the <e0>"
    assert slots.names == ["torchiere lamp"]
    slots = Slots()
    assert hide_names("open blinds and dim the snug lava lamp", slots, lexicon) == "open <e0> and dim the <a0> <e1>"
    assert (slots.names, slots.areas) == (["blinds", "lava lamp"], ["snug"])


def test_a_thermostat_call_without_a_place_is_in_the_one_area_the_request_names():
    """ "make the nursery 22 degrees": the model leaves the area out, and a home of two heaters would ask which."""
    lexicon = ({"radiator", "nursery radiator", "heater"}, {"nursery", "den"})
    thermostat = {"name": "set_thermostat", "arguments": {"degrees": 22}}
    history = [{"role": "user", "content": "turn on the heater"},
               {"role": "assistant", "content": "Okay.", "tool_calls": [
                   {"name": "switch_device", "arguments": {"name": "heater", "area": "den"}}]},
               {"role": "user", "content": "make the nursery 22 degrees"}]
    _, slots = model_prompt(history, lexicon)
    assert slots.placed(thermostat) == {"name": "set_thermostat", "arguments": {"degrees": 22, "area": "nursery"}}
    named = {"name": "set_thermostat", "arguments": {"degrees": 22, "name": "radiator"}}
    assert slots.placed(named) == named                                  # the model said which one
    _, slots = model_prompt(history[:-1] + [{"role": "user", "content": "make it 22 degrees"}], lexicon)
    assert slots.placed(thermostat) == thermostat                        # an earlier turn's area is not the request's
    _, slots = model_prompt([{"role": "user", "content": "make the nursery and the den 22 degrees"}], lexicon)
    assert slots.placed(thermostat) == thermostat                        # two areas: which one is still asked
    _, slots = model_prompt([{"role": "user", "content": "set the thermostat to 22"}])
    assert slots.placed(thermostat) == thermostat                        # the default home has one thermostat


def test_a_switch_must_take_the_state_its_verb_says():
    """ "turn the porch fan off, it's been on since lunch" switched it on: the verb's own "on" or "off" counts, the
    remark's does not; with both said the model chooses."""
    def against(request, state):
        return slots_of(request).switches_against_its_verb(
            {"name": "switch_device", "arguments": {"name": "porch fan", "state": state}})
    assert against("turn the porch fan off, it's been on since lunch", "on")
    assert not against("turn the porch fan off, it's been on since lunch", "off")
    assert against("switch on the radio, the noise is off the scale", "off")
    assert not against("leave the landing light on and switch the rest off", "on")
    assert not against("the garden's dark, it's all off", "on")               # no verb of switching: not this check
    assert not against("put the mug on the table and the lamp on", "on")      # "on the table" is a place


def test_a_conversion_from_a_unit_to_itself_is_refused():
    slots = slots_of("how far is a 10 mile run in km")
    assert slots.converts_to_itself({"name": "convert", "arguments": {"value": 10, "from": "mile", "to": "mile"}})
    assert not slots.converts_to_itself({"name": "convert", "arguments": {"value": 10, "from": "mile", "to": "km"}})


def test_switching_on_is_refused_for_a_request_that_says_another_move_and_no_on():
    """ "lower the awning a bit, it's glaring" may not switch the awning on."""
    on = {"name": "switch_device", "arguments": {"name": "awning", "state": "on"}}
    assert slots_of("lower the awning a bit, it's glaring").switches_on_for_another_move(on)
    assert slots_of("the shed door, could you open it").switches_on_for_another_move(on)
    assert not slots_of("open the shutters and put the lamp on").switches_on_for_another_move(on)
    assert not slots_of("get the kiln going").switches_on_for_another_move(on)      # no other move said


def test_a_call_of_no_thing_is_refused_for_a_request_that_names_a_thing_it_leaves():
    """ "switch the bedroom heater on, i'm in the bath for twenty minutes" may not set a timer: the request names a
    thing of the home the call does not use. A timer named as a thing, or a request naming nothing, is fine."""
    timer = {"name": "set_timer", "arguments": {"seconds": 1200}}
    assert slots_of("switch the bedroom heater on, i'm in the bath for twenty minutes").leaves_a_named_thing(timer)
    assert not slots_of("twenty minutes on the clock please, i'm in the bath").leaves_a_named_thing(timer)
    assert not slots_of("a heater timer for twenty minutes").leaves_a_named_thing(timer)   # a device, no room
    lexicon = ({"kiln", "gramophone"}, {"studio"})
    own = model_prompt([{"role": "user", "content": "put the gramophone on, the tea's brewing for 4 minutes"}],
                       lexicon)[1]
    assert own.leaves_a_named_thing({"name": "set_timer", "arguments": {"seconds": 240}})
    named = model_prompt([{"role": "user", "content": "start a kiln timer for an hour"}], lexicon)[1]
    assert not named.leaves_a_named_thing({"name": "start_timer", "arguments": {"name": "kiln", "seconds": 3600}})
    assert not own.leaves_a_named_thing(
        {"name": "switch_device", "arguments": {"name": "gramophone", "state": "on"}})     # the call names it


def test_a_thing_named_by_a_word_for_the_whole_home_is_refused():
    assert slots_of("switch off every lamp in the home").names_the_whole_home(
        {"name": "switch_all", "arguments": {"name": "home", "state": "off"}})
    assert not slots_of("switch off every lamp in the home").names_the_whole_home(
        {"name": "switch_all", "arguments": {"name": "lights", "state": "off"}})


def test_an_alarm_may_not_take_the_half_of_the_day_the_request_does_not_say():
    def alarm(period):
        return {"name": "set_alarm", "arguments": {"hour": 6, "minute": 0, "period": period}}
    assert slots_of("alarm for six in the evening please").takes_the_other_half_of_the_day(alarm("am"))
    assert not slots_of("alarm for six in the evening please").takes_the_other_half_of_the_day(alarm("pm"))
    assert slots_of("wake me at 6 a.m. tomorrow").takes_the_other_half_of_the_day(alarm("pm"))
    assert not slots_of("an alarm at six").takes_the_other_half_of_the_day(alarm("am"))      # neither said
    assert not slots_of("wake me at six, it was a long night").takes_the_other_half_of_the_day(alarm("am"))
    assert slots_of("an alarm for eleven at night").takes_the_other_half_of_the_day(alarm("am"))


def test_a_call_that_takes_no_number_is_refused_for_a_request_that_says_a_level():
    """ "set the snug stove on twenty" may not only switch it on; a length said is no level."""
    on = {"name": "switch_device", "arguments": {"name": "snug stove", "state": "on"}}
    assert slots_of("set the snug stove on twenty").leaves_a_said_level(on)
    assert slots_of("dock lights on at 50 percent").leaves_a_said_level(on)
    assert not slots_of("put the snug stove on for an hour").leaves_a_said_level(on)
    assert not slots_of("put the snug stove on").leaves_a_said_level(on)
    assert not slots_of("and the other one, the stove").leaves_a_said_level(on)          # "one" counts nothing
    assert not slots_of("switch on all three fans").leaves_a_said_level(on)
    assert not slots_of("set the snug stove to twenty").leaves_a_said_level(
        {"name": "set_thermostat", "arguments": {"name": "snug stove", "degrees": 20}})


def test_a_call_lacking_one_number_takes_the_one_the_request_says():
    """ "the bread needs forty minutes in the oven, start a bread timer" gave start_timer name=bread: the one length
    said is its length; a muddled call, or one of two lengths, stays as the model wrote it (refused)."""
    def mended(call: dict, said: str) -> dict:
        slots = Slots()
        slots.request = normalize_request(said)
        return slots.mended(call)
    bread = {"name": "start_timer", "arguments": {"name": "bread"}}
    assert mended(bread, "the bread needs forty minutes in the oven, start a bread timer") == \
        {"name": "start_timer", "arguments": {"name": "bread", "seconds": 2400}}
    assert mended(bread, "start a bread timer, forty minutes or maybe fifty minutes") == bread
    assert mended({"name": "set_thermostat", "arguments": {"name": "snug stove"}}, "the snug stove up to 21") == \
        {"name": "set_thermostat", "arguments": {"name": "snug stove", "degrees": 21}}
    assert mended({"name": "set_level", "arguments": {"name": "arc lamp"}}, "arc lamp to 20 degrees") == \
        {"name": "set_level", "arguments": {"name": "arc lamp"}}
    muddled = {"name": "get_state", "arguments": {"name": "billiards", "action": "lock"}}
    assert mended(muddled, "what a lovely afternoon for a game of billiards") == muddled


def test_a_conversion_said_is_read_by_code_after_a_refusal():
    """One number said before one unit, and one other unit of its kind: the model gave no call for "i need two litres
    of water, how many cups is that", and kilometres to kilometres for "a ten k, how many miles is ten kilometres"."""
    def said(request: str):
        slots = Slots()
        slots.request = normalize_request(request)
        return conversion_said(slots)
    assert said("i need two litres of water, how many cups is that") == \
        {"name": "convert", "arguments": {"value": 2, "from": "liter", "to": "cup"}}
    assert said("i'm running a ten k, how many miles is ten kilometres") == \
        {"name": "convert", "arguments": {"value": 10, "from": "km", "to": "mile"}}
    assert said("is 3 pounds the same as 3 kilograms") is None        # both units counted: which is asked?
    assert said("i walked 5 miles today") is None                     # one unit
    assert said("5 miles or 8 kilograms") is None                     # two kinds
    assert said("what's 3 feet and 4 feet in inches") is None         # two numbers
    assert said("the heater to 20 degrees celsius not fahrenheit") is None      # a thing of the home


def test_a_level_said_in_the_unit_the_thing_does_not_take_is_asked_again():
    """A percent for a heater, degrees for a light: what was meant is not guessed; the unit it takes, or none, acts."""
    lexicon = made_up_inventory().lexicon()

    def slots(said, home=None):
        request = normalize_request(said)
        return Slots(request=request, spoken=request, lexicon=home)
    assert slots("put the thermostat on 65 percent").sets_a_level_said_in_another_unit(
        {"name": "set_thermostat", "arguments": {"degrees": 65}})
    assert slots("office lights to 3 degrees").sets_a_level_said_in_another_unit(
        {"name": "set_brightness", "arguments": {"room": "office", "percent": 3}})
    stove = {"name": "set_level", "arguments": {"name": "snug stove", "percent": 30}}
    assert slots("snug stove to 30 percent", lexicon).sets_a_level_said_in_another_unit(stove)
    assert not slots("snug stove to 30 degrees", lexicon).sets_a_level_said_in_another_unit(stove)
    assert not slots("snug stove to 30", lexicon).sets_a_level_said_in_another_unit(stove)
    assert not slots("office lights to 30 percent").sets_a_level_said_in_another_unit(
        {"name": "set_brightness", "arguments": {"room": "office", "percent": 30}})


def test_a_call_on_a_name_its_skill_cannot_act_on_is_asked_again():
    """A lock call on a light, a switch on a sensor: the words were misread; a name of a thing the skill takes, or one
    the home lacks (the tool says so), is left to act or answer."""
    lexicon = made_up_inventory().lexicon()
    slots = Slots(request="the piano light the same", spoken="the piano light the same", lexicon=lexicon)
    assert slots.acts_on_a_thing_of_another_kind({"name": "set_lock", "arguments": {"name": "piano light", "action": "lock"}})
    assert slots.acts_on_a_thing_of_another_kind(
        {"name": "switch_device", "arguments": {"name": "humidity", "state": "on", "area": "scullery"}})
    assert not slots.acts_on_a_thing_of_another_kind(
        {"name": "set_level", "arguments": {"name": "piano light", "percent": 20}})
    assert not slots.acts_on_a_thing_of_another_kind({"name": "set_lock", "arguments": {"name": "wicket gate", "action": "lock"}})
    assert not slots.acts_on_a_thing_of_another_kind({"name": "set_lock", "arguments": {"name": "porch door", "action": "lock"}})


def test_the_thermostat_for_another_device_said_is_asked_again():
    """The default home's thermostat set for words that name its lights and no heat; heat said, it is set."""
    def slots(said):
        request = normalize_request(said)
        return Slots(request=request, spoken=request)
    thermostat = {"name": "set_thermostat", "arguments": {"degrees": 35}}
    assert slots("turn those lamps down to 35").heats_for_another_device(thermostat)
    assert not slots("the heating to 35 and the lamps off").heats_for_another_device(thermostat)
    assert not slots("turn it up to 35 degrees").heats_for_another_device(thermostat)
