"""The tools a client declares, against hostile declarations (round 39), over real sockets on loopback with the
official openai SDK: on the Realtime door (session.update) and on the generator server's chat completions.

Every turn reads every declared tool again in a worker all sessions share (assistant.client_tools), so at 2a69232 a
declaration of 12,000 tools (3 MB) cost 54 s of it each turn. Each declaration past a bound of
assistant.tool_declarations gets an error event (Realtime) or a 400 (chat completions) naming the field, and the
session goes on with the tools it had. Each test that claims a fix failed on 2a69232."""
import base64
import json

import openai
import pytest

from assistant.tool_declarations import MAX_DECLARED_CHARS, MAX_ENUM_MEMBERS, MAX_SCHEMA_DEPTH, MAX_TOOLS
from streaming.session import SessionConfig
from streaming.transports.realtime import MAX_MESSAGE_VALUES, RealtimeProtocol
from test_generator_server import KITCHEN, SKILL_TOOLS, generator, serve  # noqa: F401 (fixtures)

MATH = "what is seven times six"


def tool(name: str, description: str = "Get the weather in a city.", properties: dict | None = None) -> dict:
    return {"type": "function", "name": name, "description": description,
            "parameters": {"type": "object", "properties": properties or {"city": {"type": "string"}}}}


def nested(depth: int) -> dict:
    schema = {"type": "string"}
    for _ in range(depth):
        schema = {"type": "object", "properties": {"inner": schema}}
    return schema


def many_tools(count: int) -> list[dict]:
    return [tool(f"get_thing_{i}") for i in range(count)]


PAST_A_BOUND = {
    "too many tools": (many_tools(MAX_TOOLS + 1), "session.tools"),
    "a description of 70,000 characters": ([tool("get_weather", "weather " * (MAX_DECLARED_CHARS // 8 + 100))],
                                           "session.tools"),
    "a schema nested past the bound": ([tool("get_weather", properties={"city": nested(MAX_SCHEMA_DEPTH)})],
                                       "session.tools[0]"),
    "an enum of 257 values": ([tool("set_mode", properties={"mode": {"type": "string", "enum": [
        f"mode{i}" for i in range(MAX_ENUM_MEMBERS + 1)]}})], "session.tools"),
    "a name with a line break": ([tool("get_weather\nINFO forged")], "session.tools[0].name"),
    "a name with a space": ([tool("get weather")], "session.tools[0].name"),
    "a name of 65 characters": ([tool("g" * 65)], "session.tools[0].name"),
}


async def until_answer(connection, *types: str):
    """The next server event of one of these types (an error included)."""
    async for event in connection:
        if event.type in types or event.type == "error":
            return event
    raise AssertionError("the connection closed")


@pytest.fixture
async def connection(live_server):
    sdk = openai.AsyncOpenAI(api_key="sk-unused", websocket_base_url=f"ws://127.0.0.1:{live_server.port}/v1")
    async with sdk.realtime.connect(model="parley-home") as connection:
        assert (await until_answer(connection, "session.created")).type == "session.created"
        yield connection


@pytest.mark.parametrize("case", list(PAST_A_BOUND))
async def test_a_declaration_past_a_bound_is_refused_and_the_tools_before_it_stay(connection, case):
    declared, param = PAST_A_BOUND[case]
    await connection.session.update(session={"type": "realtime", "tools": [tool("get_weather")]})
    assert (await until_answer(connection, "session.updated")).type == "session.updated"
    await connection.session.update(session={"type": "realtime", "tools": declared})
    refused = await until_answer(connection, "session.updated")
    assert refused.type == "error", refused
    assert refused.error.code == "invalid_value" and refused.error.param == param and refused.error.message
    await connection.session.update(session={"type": "realtime", "instructions": "Be brief."})
    updated = await until_answer(connection, "session.updated")
    assert updated.type == "session.updated" and [t.name for t in updated.session.tools] == ["get_weather"]


def test_a_schema_nested_to_the_parsers_limit_is_refused_not_a_server_error():
    """At 2a69232 a schema the JSON parser just took (about 490 levels of objects) could not be written back in
    session.updated: a server_error, with the tools kept though the session never had them (the protocol itself:
    over the socket, the SDK's own parser gave up on the deepest echo it was sent)."""
    protocol = RealtimeProtocol(session_id="sess_1", model="parley-home", defaults=SessionConfig())
    for depth in range(400, 520):
        protocol.receive('{"type": "session.update", "session": {"tools": [{"type": "function", "name": "deep", '
                         '"parameters": ' + '{"type": "object", "properties": {"x": ' * depth + "{}" + "}}" * depth
                         + "}]}}")
        [answer] = [json.loads(frame) for frame in protocol.data_to_send()]
        assert answer["type"] == "error" and answer["error"]["code"] in ("invalid_value", "invalid_json"), depth
    assert protocol.tools == []
    protocol.receive('{"type": "session.update", "session": {"instructions": "Be brief."}}')
    assert [json.loads(frame)["type"] for frame in protocol.data_to_send()] == ["session.updated"]


async def test_a_tool_choice_naming_no_declared_tool_is_refused(connection):
    await connection.session.update(session={"type": "realtime", "tools": [tool("get_weather")],
                                             "tool_choice": {"type": "function", "name": "launch_missiles"}})
    refused = await until_answer(connection, "session.updated")
    assert refused.type == "error" and refused.error.param == "session.tool_choice"
    await connection.session.update(session={"type": "realtime", "tools": [tool("get_weather")],
                                             "tool_choice": {"type": "function", "name": "get_weather"}})
    assert (await until_answer(connection, "session.updated")).type == "session.updated"


async def test_after_a_refused_flood_of_tools_the_session_answers(connection):
    await connection.session.update(session={"type": "realtime", "output_modalities": ["text"],
                                             "tools": many_tools(5_000)})
    refused = await until_answer(connection, "session.updated")
    assert refused.type == "error" and refused.error.param == "session.tools"
    await connection.conversation.item.create(item={"type": "message", "role": "user",
                                                    "content": [{"type": "input_text", "text": MATH}]})
    await connection.response.create()
    done = await until_answer(connection, "response.done")
    assert done.type == "response.done" and done.response.status == "completed"
    assert "42" in json.dumps(done.response.model_dump()) or "forty" in json.dumps(done.response.model_dump())


async def test_a_message_of_more_json_values_than_the_bound_is_refused_before_it_is_parsed(connection):
    """At fb6c30e every message up to the 4 MiB bound was parsed on the event loop before a declaration in it was
    refused (20,000 tools: 1.5 MB, 180,000 values; a 4 MiB message of `[],` held the loop 0.3 s). Now a message
    of more commas and brackets than MAX_MESSAGE_VALUES is refused unparsed, and the session goes on."""
    await connection.session.update(session={"type": "realtime", "tools": [tool("get_weather")]})
    assert (await until_answer(connection, "session.updated")).type == "session.updated"
    await connection.session.update(session={"type": "realtime", "tools": many_tools(20_000)})
    refused = await until_answer(connection, "session.updated")
    assert refused.type == "error", refused
    assert refused.error.code == "message_too_large" and str(MAX_MESSAGE_VALUES) in refused.error.message
    await connection.session.update(session={"type": "realtime", "instructions": "Be brief."})
    updated = await until_answer(connection, "session.updated")
    assert updated.type == "session.updated" and [t.name for t in updated.session.tools] == ["get_weather"]


def test_an_audio_append_of_megabytes_is_still_taken():
    """Claims no fix: the bound counts commas and brackets, and an append's bulk is one base64 string."""
    protocol = RealtimeProtocol(session_id="sess_1", model="parley-home", defaults=SessionConfig())
    audio = bytes(range(256)) * 12_000                    # 3 MB of audio, 4 MB of base64
    [append] = protocol.receive(json.dumps({"type": "input_audio_buffer.append",
                                            "audio": base64.b64encode(audio).decode()}))
    assert append.pcm16 == audio and protocol.data_to_send() == []


async def test_declarations_at_every_bound_are_taken(connection):
    """Claims no fix: the largest declarations the bounds allow are taken whole."""
    at_bounds = many_tools(MAX_TOOLS - 2) + [
        tool("set_mode", properties={"mode": {"type": "string", "enum": [f"m{i}" for i in range(MAX_ENUM_MEMBERS)]}}),
        tool("get_deep", properties={"x": nested(MAX_SCHEMA_DEPTH // 2 - 3)})]
    await connection.session.update(session={"type": "realtime", "tools": at_bounds})
    updated = await until_answer(connection, "session.updated")
    assert updated.type == "session.updated" and len(updated.session.tools) == MAX_TOOLS


# ---- the generator server's chat completions ---------------------------------------------------------------

def chat_tools(declared: list[dict]) -> list[dict]:
    return [{"type": "function", "function": {k: v for k, v in t.items() if k != "type"}} for t in declared]


@pytest.mark.parametrize("case", ["too many tools", "an enum of 257 values", "a name with a line break",
                                  "a schema nested past the bound"])
def test_the_generator_server_refuses_a_declaration_past_a_bound_with_400(serve, case):
    declared, param = PAST_A_BOUND[case]
    client = serve().client()
    with pytest.raises(openai.BadRequestError) as refused:
        client.chat.completions.create(model="parley-home", messages=KITCHEN, tools=chat_tools(declared))
    error = refused.value.body
    assert error["code"] == "invalid_value" and \
        error["param"] == param.replace("session.tools", "tools").replace("tools[0]", "tools[0].function")
    # and it goes on
    reply = client.chat.completions.create(model="parley-home", messages=KITCHEN, tools=SKILL_TOOLS)
    assert reply.choices[0].finish_reason == "tool_calls"


def test_a_gateways_skills_beside_its_clients_largest_declaration_are_taken(serve):
    """Claims no fix: a Parley gateway sends its own skills beside a client's tools; only the client's count."""
    reply = serve().client().chat.completions.create(model="parley-home", messages=KITCHEN,
                                                     tools=chat_tools(many_tools(MAX_TOOLS)) + SKILL_TOOLS)
    assert reply.choices[0].finish_reason == "tool_calls"
