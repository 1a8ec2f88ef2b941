"""The chat-completions wire without sockets: each dialect's documented streaming shape (tests/data/chat_streams,
written from SGLang's, vLLM's and Inception's docs) fed to the state machine whole, byte by byte and in
random pieces; and the request body each dialect is sent."""
import json
import random
from pathlib import Path

import pytest

from assistant.chat_completions import (DIALECTS, ChatCompletionStream, ContentDelta, DraftRefused, Finished,
                                        ReplyDelta, SlotFiller, StreamError, ToolCallReady, Usage, chat_messages,
                                        chat_tool, request_body)
from assistant.inventory import Lexicon
from assistant.skills import SKILLS

STREAMS = Path(__file__).parent / "data" / "chat_streams"


def read(name: str, pieces: str = "whole") -> list:
    data = (STREAMS / name).read_bytes()
    if pieces == "whole":
        parts = [data]
    elif pieces == "bytes":
        parts = [data[i:i + 1] for i in range(len(data))]
    else:
        rng, parts, at = random.Random(name), [], 0
        while at < len(data):
            step = rng.randint(1, 40)
            parts.append(data[at:at + step])
            at += step
    stream, events = ChatCompletionStream(), []
    for part in parts:
        events += stream.receive_data(part)
    stream.receive_eof()
    return events


def text_of(events) -> str:
    return "".join(e.text for e in events if isinstance(e, ContentDelta))


PIECES = ["whole", "bytes", "random"]


@pytest.mark.parametrize("pieces", PIECES)
def test_sglang_blocks_arrive_as_text_in_order(pieces):
    events = read("sglang_blocks.sse", pieces)
    assert text_of(events).startswith("The kitchen is at twenty-one degrees") and text_of(events).endswith("for you.")
    assert Usage(41, 70) in events and events[-1] == Finished("stop")
    assert not any(isinstance(e, ToolCallReady) for e in events)


def test_sglang_blocks_are_one_text_event_per_block():
    blocks = [e for e in read("sglang_blocks.sse") if isinstance(e, ContentDelta)]
    assert len(blocks) == 3 and all(len(b.text) > 20 for b in blocks)


@pytest.mark.parametrize("pieces", PIECES)
def test_tool_call_arguments_split_across_blocks_are_assembled(pieces):
    events = read("sglang_tool_call.sse", pieces)
    calls = [e for e in events if isinstance(e, ToolCallReady)]
    assert calls == [ToolCallReady("call_7f3a", "get_weather", {"city": "San Francisco", "unit": "celsius"})]
    assert text_of(events) == "" and events[-1] == Finished("tool_calls")


@pytest.mark.parametrize("pieces", PIECES)
def test_vllm_whole_reply_in_one_256_token_chunk(pieces):
    events = read("vllm_one_chunk.sse", pieces)
    assert [e for e in events if isinstance(e, ContentDelta)] == [
        ContentDelta("Seven times six is 42. Anything else I can work out for you?")]
    assert Usage(30, 15) in events


def test_vllm_parallel_tool_calls_in_one_chunk_come_out_in_index_order():
    calls = [e for e in read("vllm_tool_calls.sse") if isinstance(e, ToolCallReady)]
    assert [(c.call_id, c.name) for c in calls] == [("chatcmpl-tool-a1", "set_device"), ("chatcmpl-tool-b2", "get_weather")]
    assert calls[0].arguments == {"device": "light", "room": "kitchen", "state": "on"}


@pytest.mark.parametrize("pieces", PIECES)
def test_inception_diffusing_drafts_are_refused_before_any_text(pieces):
    stream, spoken = ChatCompletionStream(), []
    data = (STREAMS / "inception_diffusing.sse").read_bytes()
    step = {"whole": len(data), "bytes": 1, "random": 17}[pieces]
    with pytest.raises(DraftRefused):
        for at in range(0, len(data), step):
            spoken += stream.receive_data(data[at:at + step])
    assert not any(isinstance(e, ContentDelta) for e in spoken)


def test_inception_realtime_reasoning_is_never_text():
    events = read("inception_realtime.sse", "random")
    assert text_of(events) == "Good morning! How can I help?"
    assert Usage(18, 9) in events


@pytest.mark.parametrize("pieces", PIECES)
def test_parley_one_pass_reply_with_crlf_lines(pieces):
    events = read("parley_one_pass.sse", pieces)
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("ToolCallReady") < kinds.index("ReplyDelta")     # the tool can run before the reply
    assert [e for e in events if isinstance(e, ToolCallReady)] == [ToolCallReady("call_1", "calculate",
                                                                                  {"expression": "7*6"})]
    template = "".join(e.text for e in events if isinstance(e, ReplyDelta))
    assert template == "Seven times six is {result}."


def test_slot_split_across_pieces_is_filled_whole():
    filler = SlotFiller("42")
    said = [filler.add("Seven times six is {res"), filler.add("ult}"), filler.add("."), filler.flush()]
    assert said == ["Seven times six is ", "42", ".", ""]
    filler = SlotFiller("on")
    assert filler.add("It is {") == "It is " and filler.add("x}") == "{x}" and filler.flush() == ""


def test_a_truncated_stream_is_an_error():
    data = (STREAMS / "sglang_blocks.sse").read_bytes()
    stream = ChatCompletionStream()
    stream.receive_data(data[:len(data) // 2])
    with pytest.raises(StreamError, match="before \\[DONE\\]"):
        stream.receive_eof()


def test_an_error_event_mid_stream_is_an_error():
    stream = ChatCompletionStream()
    assert stream.receive_data(b'data: {"choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\n') == [ContentDelta("Hi")]
    with pytest.raises(StreamError, match="out of memory"):
        stream.receive_data(b'data: {"error": {"message": "out of memory", "type": "InternalServerError", '
                            b'"code": 500}}\n\n')


@pytest.mark.parametrize("junk", [b"data: not json\n\n", b"data: [1, 2]\n\n",
                                  b'data: {"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0}]}}]}\n\n'
                                  b"data: [DONE]\n\n"])
def test_junk_is_an_error_not_a_crash(junk):
    with pytest.raises(StreamError):
        ChatCompletionStream().receive_data(junk)


def test_bounds_stop_an_endless_line_and_too_many_calls():
    with pytest.raises(StreamError, match="longer than"):
        ChatCompletionStream(max_event_bytes=1000).receive_data(b"data: " + b"x" * 2000)
    fragments = [{"index": i, "id": f"c{i}", "function": {"name": "get_time", "arguments": "{}"}} for i in range(3)]
    chunk = json.dumps({"choices": [{"index": 0, "delta": {"tool_calls": fragments}}]}).encode()
    with pytest.raises(StreamError, match="more than 2 tool calls"):
        ChatCompletionStream(max_tool_calls=2).receive_data(b"data: " + chunk + b"\n\n")


def test_fragments_without_index_are_told_apart_by_id():
    stream = ChatCompletionStream()
    events = []
    for fragment in ({"id": "a", "function": {"name": "get_time", "arguments": ""}}, {"function": {"arguments": "{}"}},
                     {"id": "b", "function": {"name": "get_date", "arguments": "{}"}}):
        chunk = {"choices": [{"index": 0, "delta": {"tool_calls": [fragment]}}]}
        events += stream.receive_data(f"data: {json.dumps(chunk)}\n\n".encode())
    events += stream.receive_data(b"data: [DONE]\n\n")
    assert [(e.call_id, e.name, e.arguments) for e in events if isinstance(e, ToolCallReady)] == [
        ("a", "get_time", {}), ("b", "get_date", {})]


def test_arguments_that_are_not_a_json_object_come_out_as_none():
    chunk = {"choices": [{"index": 0, "delta": {"tool_calls": [
        {"index": 0, "id": "x", "function": {"name": "set_timer", "arguments": "{seconds: 5"}}]}}]}
    events = ChatCompletionStream().receive_data(f"data: {json.dumps(chunk)}\n\ndata: [DONE]\n\n".encode())
    assert events[0] == ToolCallReady("x", "set_timer", None)


# ---- requests -----------------------------------------------------------------------------------------

HISTORY = [
    {"role": "system", "content": "Be brief."},
    {"role": "tool", "content": "an output whose call fell out of the window", "call_id": "c0"},
    {"role": "user", "content": "turn on the kitchen light and what's the weather"},
    {"role": "assistant", "content": "", "tool_calls": [{"call_id": "c1", "name": "set_device",
                                                          "arguments": '{"device": "light", "room": "kitchen", "state": "on"}'}]},
    {"role": "assistant", "content": "", "tool_calls": [{"call_id": "c2", "name": "get_weather", "arguments": "{}"}]},
    {"role": "tool", "content": "on", "call_id": "c1"},
    {"role": "tool", "content": "sunny", "call_id": "c2"},
    {"role": "assistant", "content": "", "tool_calls": [{"call_id": "c3", "name": "get_time", "arguments": {}}]},
    {"role": "assistant", "content": "The light is on and it's sunny."},
]


def test_history_becomes_chat_messages():
    messages = chat_messages(HISTORY, DIALECTS["parley"])
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "tool", "tool", "assistant"]
    assert [c["id"] for c in messages[2]["tool_calls"]] == ["c1", "c2"]       # one message, both calls
    assert messages[2]["tool_calls"][0]["function"] == {
        "name": "set_device", "arguments": '{"device": "light", "room": "kitchen", "state": "on"}'}
    assert messages[3] == {"role": "tool", "tool_call_id": "c1", "content": "on"}
    # c3 never got an output: servers refuse an unanswered call, so it is left out
    assert all(c["id"] != "c3" for m in messages for c in m.get("tool_calls") or [])


@pytest.mark.parametrize("dialect", sorted(DIALECTS))
def test_request_body_per_dialect(dialect):
    tools = [chat_tool(SKILLS["get_time"].schema())]
    body = request_body(DIALECTS[dialect], "some-model", chat_messages(HISTORY, DIALECTS[dialect]), tools,
                        session_id="sess_1", home=Lexicon({"reading lamp", "lamp"}, {"den"}, {"reading lamp": "light"},
                                                       {"reading lamp": "den"}))
    # only Parley's own server reads the home's names; another server might refuse a field it does not know
    home = {"names": ["lamp", "reading lamp"], "areas": ["den"], "kinds": {"reading lamp": "light"},
            "places": {"reading lamp": "den"}}
    assert body.get("parley") == ({"home": home} if dialect == "parley" else None)
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True}
    assert body["tools"][0]["function"]["name"] == "get_time" and body["tool_choice"] == "auto"
    assert body["user"] == "sess_1"
    assert "seed" not in body and "response_format" not in body
    role = body["messages"][0]["role"]
    if dialect == "vllm":
        assert "temperature" not in body and body["max_tokens"] > 0
    if dialect in ("parley", "sglang"):
        assert body["temperature"] == 0
    if dialect == "inception":
        assert body["realtime"] is True and body["reasoning_effort"] and body["diffusing"] is False
        assert role == "system"
    if dialect == "openai":
        assert role == "developer" and "max_completion_tokens" in body and "max_tokens" not in body
    else:
        assert role == "system"


def test_flat_declarations_become_chat_tools():
    declaration = {"type": "function", "name": "get_weather", "description": "Weather now",
                   "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}
    assert chat_tool(declaration) == {"type": "function", "function": {
        "name": "get_weather", "description": "Weather now", "parameters": declaration["parameters"]}}
