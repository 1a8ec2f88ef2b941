"""The generator server's OpenAI wire, without sockets: request checks and the shapes of what goes out."""
import json

import pytest

from assistant.chat_completions import DIALECTS, request_body
from assistant.inventory import Lexicon
from assistant.openai_chat import ApiError, chunk, completion, parse_request, sse, tool_call_json

USER = [{"role": "user", "content": "hi"}]
TOOL = {"type": "function", "function": {"name": "get_time", "parameters": {"type": "object", "properties": {}}}}


def body(**fields) -> bytes:
    return json.dumps({"model": "parley-home", "messages": USER, **fields}).encode()


def test_a_full_request_is_read():
    request = parse_request(body(tools=[TOOL], tool_choice="auto", stream=True, stream_options={"include_usage": True},
                                 max_completion_tokens=8, temperature=0.5, seed=3, n=1, user="someone"))
    assert (request.stream, request.include_usage, request.max_tokens, request.temperature, request.seed) == (
        True, True, 8, 0.5, 3)
    assert list(request.tools) == ["get_time"] and request.offers("get_time") and not request.offers("set_timer")
    assert request.home is None
    home = parse_request(body(parley={"home": {"names": ["Reading  Lamp", "lamp"], "areas": ["den"],
                                               "kinds": {"Reading Lamp": "light"}}})).home
    assert home == ({"reading lamp", "lamp"}, {"den"}) and home.kinds == {"reading lamp": "light"}


def test_a_gateways_home_reads_back_as_it_was_sent():
    """The gateway's side of `parley.home` (chat_completions.request_body) and the server's (parse_request) agree:
    names, areas, each thing's kind, which a follow-up's verb is checked against, and its area ("in that room")."""
    sent = Lexicon({"reading lamp", "lamp", "letterbox"}, {"den"}, {"reading lamp": "light", "letterbox": "binary_sensor"},
                   {"reading lamp": "den"})
    home = parse_request(json.dumps(request_body(DIALECTS["parley"], "parley-home", USER, [], home=sent)).encode()).home
    assert home == sent and home.kinds == sent.kinds and home.places == sent.places


def test_a_homes_places_must_map_names_to_areas():
    body = {"model": "parley-home", "messages": USER, "parley": {"home": {"names": ["lamp"], "places": {"lamp": 3}}}}
    with pytest.raises(ApiError) as error:
        parse_request(json.dumps(body).encode())
    assert error.value.param == "parley.home.places"


@pytest.mark.parametrize("choice, offered", [("none", False), ("required", True),
                                             ({"type": "function", "function": {"name": "get_time"}}, True)])
def test_tool_choice_decides_what_is_offered(choice, offered):
    assert parse_request(body(tools=[TOOL], tool_choice=choice)).offers("get_time") is offered


@pytest.mark.parametrize("raw, param", [
    (b"[1, 2]", None), (b"\xff", None),
    (body(messages="hi"), "messages"), (body(messages=[{"role": "user", "content": 3}]), "messages[0].content"),
    (body(stream="yes"), "stream"), (body(stream_options={"include_usage": 1}), "stream_options.include_usage"),
    (body(max_tokens=True), "max_tokens"), (body(temperature=-1), "temperature"), (body(seed=1.5), "seed"),
    (body(n=2), "n"), (body(tools={"a": 1}), "tools"), (body(tool_choice="always"), "tool_choice"),
    (body(messages=[{"role": "assistant", "tool_calls": {}}]), "messages[0].tool_calls"),
    (body(parley="home"), "parley"), (body(parley={"home": ["lamp"]}), "parley.home"),
    (body(parley={"home": {"names": ["lamp", 3]}}), "parley.home.names"),
    (body(parley={"home": {"areas": ["x" * 201]}}), "parley.home.areas"),
    (body(parley={"home": {"kinds": ["light"]}}), "parley.home.kinds"),
    (body(parley={"home": {"kinds": {"lamp": 3}}}), "parley.home.kinds"),
    (body(parley={"home": {"names": [f"n{i}" for i in range(20_001)]}}), "parley.home")])
def test_bad_requests_name_the_field(raw, param):
    with pytest.raises(ApiError) as caught:
        parse_request(raw)
    assert caught.value.status == 400 and caught.value.body()["error"].get("param") == param
    assert caught.value.body()["error"]["type"] == "invalid_request_error"


def test_what_goes_out():
    call = tool_call_json("call_1", "get_time", {})
    reply = completion("c1", "parley-home", 1, content=None, tool_calls=[call], parley_reply="It's {result}.",
                       finish_reason="tool_calls", usage={"prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3})
    assert reply["choices"][0]["message"] == {"role": "assistant", "content": None, "tool_calls": [call],
                                              "parley": {"reply": "It's {result}."}}
    assert call["function"]["arguments"] == "{}"
    assert tool_call_json("call_1", "get_time", {}, index=0)["index"] == 0
    assert chunk("c1", "m", 1, None, usage={"total_tokens": 3})["choices"] == []
    assert sse("[DONE]") == b"data: [DONE]\n\n"
    assert json.loads(sse(chunk("c1", "m", 1, {"content": "hi"}, "stop"))[6:])["choices"][0]["finish_reason"] == "stop"
