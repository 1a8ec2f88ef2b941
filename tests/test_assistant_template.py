"""The chat template: conversations become prompts, generated replies become a call and speech."""
import json

from assistant.chat_template import (format_call, hide_numbers, model_prompt, parse_call, render_prompt, render_reply,
                                     show_numbers)


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


def test_numbers_become_slots_and_come_back():
    history = [{"role": "user", "content": "dim the kitchen lights to thirty percent"},
               {"role": "assistant", "content": "", "tool_calls": [
                   {"name": "set_brightness", "arguments": {"room": "kitchen", "percent": 30}}]},
               {"role": "user", "content": "what's twelve times 7.5 plus 30"}]
    prompt, numbers = model_prompt(history)
    assert numbers == ["30", "12", "7.5"]
    assert prompt.endswith("percent=<n0><|user|> what's <n1> times <n2> plus <n0><|assistant|>")
    reply, _ = hide_numbers("<|call|> calculate expression=12*7.5+30/100<|say|> That's {result}.", numbers)
    assert reply == "<|call|> calculate expression=<n1>*<n2>+<n0>/100<|say|> That's {result}."
    assert show_numbers("expression=<n1>*<n2>+<n0>/100", numbers) == "expression=12*7.5+30/100"
    assert show_numbers("seconds=<n5>", numbers) == "seconds=<n5>"
