"""What real Realtime clients (Pipecat, LiveKit Agents, the openai SDK) rely on, checked without sockets: the
protocol state machine wired to a real Session with the real models, as server.py wires them.

Every event the server sends must be one the openai package's server-event union knows, in a shape it accepts.
"""
import ast
import asyncio
import json
import re
import typing
from pathlib import Path

import pytest

try:
    from assistant.reply import spoken_result
except ImportError:
    spoken_result = lambda s: s
from streaming.events import ResponseCreated, ResponseDone, TextDelta, ToolCallRequested
from streaming.session import Session, SessionConfig
from streaming.transports import realtime

ROOT = Path(__file__).resolve().parents[1]


def server_event_union():
    from openai.types.realtime import RealtimeServerEvent

    return RealtimeServerEvent


SERVER_EVENT_MODELS = {typing.get_args(model.model_fields["type"].annotation)[0]: model
                       for model in typing.get_args(typing.get_args(server_event_union())[0])}
KNOWN_TYPES = set(SERVER_EVENT_MODELS)


def validate(event: dict) -> None:
    """The event parses as the SDK's model for its type (strictly: pydantic validation, not construct)."""
    assert event["type"] in SERVER_EVENT_MODELS, event["type"]
    SERVER_EVENT_MODELS[event["type"]].model_validate(event)


def says_42(text: str) -> bool:
    return bool(re.search(r"\b42\b|forty[\s-]two", text.lower()))


class Wire:
    """A RealtimeProtocol and a Session joined as server.py joins them, without a socket. Every event sent
    is checked against the openai SDK's server-event union."""

    def __init__(self, engines, config: SessionConfig | None = None):
        self.session = Session(engines, config or SessionConfig(turn_detection=None))
        self.protocol = realtime.RealtimeProtocol(session_id=self.session.id, model="parley-home",
                                                  defaults=self.session.config)
        self.events: list[dict] = []

    async def __aenter__(self):
        await self.session.start()
        self.protocol.start()
        self._flush()
        self._forward = asyncio.create_task(self._run())
        return self

    async def __aexit__(self, *exc):
        await self.session.close()
        await self._forward

    async def _run(self):
        async for event in self.session.events():
            self.protocol.handle(event)
            self._flush()

    def _flush(self):
        for frame in self.protocol.data_to_send():
            event = json.loads(frame)
            if not self.protocol.beta:
                validate(event)
            self.events.append(event)

    def send(self, event: dict) -> None:
        for command in self.protocol.receive(json.dumps(event)):
            realtime.apply(self.session, command)
        self._flush()

    def of_type(self, kind: str, start: int = 0) -> list[dict]:
        return [e for e in self.events[start:] if e["type"] == kind]

    async def wait_for(self, kind: str, start: int = 0, timeout: float = 60, where=lambda e: True) -> dict:
        async def poll():
            while True:
                for event in self.events[start:]:
                    if event["type"] == kind and where(event):
                        return event
                await asyncio.sleep(0.01)
        return await asyncio.wait_for(poll(), timeout)

    def ask(self, text: str, role: str = "user", **response) -> None:
        self.send({"type": "conversation.item.create", "item": {
            "type": "message", "role": role, "content": [{"type": "input_text", "text": text}]}})
        self.send({"type": "response.create", **({"response": response} if response else {})})


def transcript(done: dict) -> str:
    content = done["response"]["output"][-1]["content"][0]
    return content.get("transcript") or content.get("text") or ""


# ---- 1. errors: OpenAI's wording, and the client's event_id ---------------------------------------------

async def test_cancel_with_nothing_active_is_openais_error_with_the_event_id(engines):
    async with Wire(engines) as wire:
        wire.send({"type": "response.cancel", "event_id": "evt_cancel_1"})
        error = (await wire.wait_for("error"))["error"]
    assert error["code"] == "response_cancel_not_active"
    assert error["message"] == "Cancellation failed: no active response found"     # LiveKit ignores only this
    assert error["event_id"] == "evt_cancel_1"


async def test_session_errors_name_the_client_event_that_caused_them(engines, needs_assistant):
    async with Wire(engines) as wire:
        wire.send({"type": "input_audio_buffer.commit", "event_id": "evt_commit"})
        wire.send({"type": "conversation.item.delete", "item_id": "item_nope", "event_id": "evt_delete"})
        wire.send({"type": "conversation.item.truncate", "item_id": "item_nope", "content_index": 0,
                   "audio_end_ms": 10, "event_id": "evt_truncate"})
        wire.ask("what time is it")
        wire.send({"type": "response.create", "event_id": "evt_second"})       # one is already in progress
        await wire.wait_for("response.done")
    by_event = {e["error"]["event_id"]: e["error"]["code"] for e in wire.of_type("error")}
    assert by_event == {"evt_commit": "input_audio_buffer_commit_empty", "evt_delete": "item_not_found",
                        "evt_truncate": "item_not_found", "evt_second": "conversation_already_has_active_response"}


# ---- 2. one history: announced items are the session's items, in order ---------------------------------

def added_chain(wire: Wire) -> list[tuple[str | None, str]]:
    return [(e["previous_item_id"], e["item"]["id"]) for e in wire.of_type("conversation.item.added")]


def assert_one_ordered_history(wire: Wire) -> None:
    chain = added_chain(wire)
    ids = [item_id for _, item_id in chain]
    assert [previous for previous, _ in chain] == [None] + ids[:-1]     # each item follows the one before
    assert ids == [item.id for item in wire.session.items]              # ... and they are the session's items


async def test_parley_tool_items_carry_their_predecessor_and_are_the_session_items(engines, needs_assistant):
    async with Wire(engines) as wire:
        wire.ask("turn on the kitchen light")
        await wire.wait_for("response.done")
        start = len(wire.events)
        wire.ask("and in the bedroom")
        await wire.wait_for("response.done", start=start)
        types = [e["item"]["type"] for e in wire.of_type("conversation.item.added")]
        assert types == ["message", "function_call", "function_call_output", "message"] * 2
        assert_one_ordered_history(wire)
        for _, item_id in added_chain(wire):                              # retrieve works on every one
            start = len(wire.events)
            wire.send({"type": "conversation.item.retrieve", "item_id": item_id})
            assert wire.of_type("conversation.item.retrieved", start)[0]["item"]["id"] == item_id
        call_id = added_chain(wire)[1][1]
        wire.send({"type": "conversation.item.delete", "item_id": call_id})
        deleted = await wire.wait_for("conversation.item.deleted")
        assert deleted["item_id"] == call_id and call_id not in [i.id for i in wire.session.items]
        assert not wire.of_type("error")


async def test_client_tool_call_follows_the_user_item_and_shows_its_state_when_added(engines, needs_assistant):
    async with Wire(engines) as wire:
        wire.send({"type": "session.update", "session": {"type": "realtime", "tools": [
            {"type": "function", "name": "calculate", "description": "Evaluate arithmetic",
             "parameters": {"type": "object", "properties": {"expression": {"type": "string"}}}}]}})
        wire.ask("what is seven times six")
        await wire.wait_for("response.done")
        added = wire.of_type("response.output_item.added")[0]["item"]
        assert added["type"] == "function_call"
        assert added["status"] == "in_progress" and added["arguments"] == ""     # as it was then
        assert wire.of_type("response.output_item.done")[0]["item"]["status"] == "completed"
        assert_one_ordered_history(wire)


async def test_function_call_items_are_accepted_as_livekit_replays_them(engines, needs_assistant):
    async with Wire(engines) as wire:
        previous = "root"                            # LiveKit chains each replayed item to the one before
        for item in [{"id": "item_u1", "type": "message", "role": "user",
                      "content": [{"type": "input_text", "text": "turn on the kitchen light"}]},
                     {"id": "item_c1", "type": "function_call", "call_id": "call_1", "name": "set_device",
                      "arguments": '{"device": "light", "room": "kitchen", "state": "on"}'},
                     {"id": "item_o1", "type": "function_call_output", "call_id": "call_1", "output": "on"},
                     {"id": "item_a1", "type": "message", "role": "assistant",
                      "content": [{"type": "output_text", "text": "The kitchen light is on."}]}]:
            wire.send({"type": "conversation.item.create", "previous_item_id": previous, "item": item,
                       "event_id": "evt_" + item["id"]})
            previous = item["id"]
        wire.ask("and in the bedroom")
        done = await wire.wait_for("response.done")
        assert not wire.of_type("error")
        assert [i.id for i in wire.session.items][:4] == ["item_u1", "item_c1", "item_o1", "item_a1"]
        call = wire.of_type("conversation.item.added")[1]["item"]
        assert call["type"] == "function_call" and call["name"] == "set_device"
        assert_one_ordered_history(wire)
        assert "bedroom" in transcript(done).lower()                   # the replayed call gave the follow-up its meaning


async def one_answered_request(server):
    """A new session that asked "turn on the kitchen light" in text and got its answer: (client, session id)."""
    from realtime_client import RealtimeClient

    client = await RealtimeClient.connect(server.ws_url)
    session_id = (await client.wait_for("session.created"))["session"]["id"]
    await client.send({"type": "conversation.item.create", "item": {
        "type": "message", "role": "user", "content": [{"type": "input_text", "text": "turn on the kitchen light"}]}})
    await client.send({"type": "response.create", "response": {"output_modalities": ["text"]}})
    await client.wait_for("response.done", timeout=60)
    return client, session_id


async def test_a_resumed_session_can_retrieve_the_items_it_announced_before(server_factory, tmp_path,
                                                                          needs_assistant):
    from realtime_client import RealtimeClient, sessions_ended

    server = server_factory(store=f"sqlite://{tmp_path}/state.db")
    client, session_id = await one_answered_request(server)
    announced = [e["item"] for e in client.of_type("conversation.item.added")]
    await client.close()
    await sessions_ended(server)                     # closed here; the resume waits until its detach has stored it

    client = await RealtimeClient.connect(server.ws_url + f"?session_id={session_id}")
    assert (await client.wait_for("session.created"))["session"]["id"] == session_id
    for item in announced:
        await client.send({"type": "conversation.item.retrieve", "item_id": item["id"]})
        retrieved = await client.wait_for("conversation.item.retrieved", where=lambda e: e["item"]["id"] == item["id"])
        assert retrieved["item"]["type"] == item["type"]
    await client.send({"type": "conversation.item.create", "item": {
        "type": "message", "role": "user", "content": [{"type": "input_text", "text": "and in the bedroom"}]}})
    added = await client.wait_for("conversation.item.added")
    assert added["previous_item_id"] == announced[-1]["id"]
    assert not client.of_type("error")
    await client.close()


async def test_a_client_back_before_its_old_socket_closed_resumes_every_item(server_factory, tmp_path,
                                                                           needs_assistant):
    """A network blip: the client reconnects while the server still holds the old socket. The live session ends
    first, so the newest items are stored before the resumed session reads them."""
    from realtime_client import RealtimeClient

    server = server_factory(store=f"sqlite://{tmp_path}/state.db")
    first, session_id = await one_answered_request(server)
    announced = [e["item"]["id"] for e in first.of_type("conversation.item.added")]

    second = await RealtimeClient.connect(server.ws_url + f"?session_id={session_id}")
    assert (await second.wait_for("session.created"))["session"]["id"] == session_id
    await asyncio.wait_for(first.closed.wait(), 60)          # the old socket was closed for it
    for item_id in announced:
        await second.send({"type": "conversation.item.retrieve", "item_id": item_id})
        await second.wait_for("conversation.item.retrieved", where=lambda e, i=item_id: e["item"]["id"] == i)
    assert not second.of_type("error")
    await second.close()


def text_item(item_id: str, text: str) -> dict:
    return {"id": item_id, "type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}


async def test_previous_item_id_places_the_item_as_openai_does(engines):
    async with Wire(engines) as wire:
        wire.send({"type": "conversation.item.create", "item": text_item("item_b", "b")})
        wire.send({"type": "conversation.item.create", "item": text_item("item_d", "d")})
        wire.send({"type": "conversation.item.create", "previous_item_id": "item_b", "item": text_item("item_c", "c")})
        wire.send({"type": "conversation.item.create", "previous_item_id": "root", "item": text_item("item_a", "a")})
        wire.send({"type": "conversation.item.create", "previous_item_id": "item_nope", "event_id": "evt_lost",
                   "item": text_item("item_x", "x")})
        wire.send({"type": "conversation.item.create", "event_id": "evt_twice", "item": text_item("item_b", "again")})
        await wire.wait_for("error", where=lambda e: e["error"]["event_id"] == "evt_twice")
        # LiveKit updates an item by deleting it and creating it again under the same id, back to back
        wire.send({"type": "conversation.item.delete", "item_id": "item_c"})
        wire.send({"type": "conversation.item.create", "previous_item_id": "item_b", "event_id": "evt_update",
                   "item": text_item("item_c", "c, corrected")})
        await wire.wait_for("conversation.item.added", where=lambda e: e["item"]["content"][0]["text"] == "c, corrected")
    assert [item.id for item in wire.session.items] == ["item_a", "item_b", "item_c", "item_d"]
    assert [(e["previous_item_id"], e["item"]["id"]) for e in wire.of_type("conversation.item.added")] == [
        (None, "item_b"), ("item_b", "item_d"), ("item_b", "item_c"), (None, "item_a"), ("item_b", "item_c")]
    errors = {e["error"]["event_id"]: (e["error"]["code"], e["error"]["param"]) for e in wire.of_type("error")}
    assert errors == {"evt_lost": ("item_not_found", "previous_item_id"),
                      "evt_twice": ("item_create_duplicate_item_id", "item.id")}
    assert list(wire.protocol.items) == ["item_a", "item_b", "item_c", "item_d"]      # retrieve's view, same order


# ---- 4. Pipecat: typed text queued as a system item; JSON tool results ------------------------------------

async def test_a_trailing_system_message_is_the_request(engines, needs_assistant):
    async with Wire(engines) as wire:
        wire.ask("What is seven times six?", role="system")
        assert says_42(transcript(await wire.wait_for("response.done")))


async def test_a_system_note_after_a_user_request_leaves_the_request_standing(engines, needs_assistant):
    async with Wire(engines) as wire:
        wire.send({"type": "conversation.item.create", "item": {
            "type": "message", "role": "user", "content": [{"type": "input_text", "text": "What is seven times six?"}]}})
        wire.ask("The user is in the kitchen.", role="developer")
        assert says_42(transcript(await wire.wait_for("response.done")))


@pytest.mark.parametrize("output, heard", [('"on"', "on"), ("on", "on"), ('{"state": "on"}', "on"),
                                           ('{"state": "on", "brightness_percent": 80}', "state on, brightness percent 80"),
                                           ('["on", "dimmed"]', "on and dimmed"), ("true", "yes")])
def test_tool_results_are_spoken_as_words_not_json(output, heard):
    assert spoken_result(output) == heard


async def test_a_json_encoded_client_tool_result_is_spoken_unwrapped(engines, needs_assistant):
    async with Wire(engines) as wire:
        wire.send({"type": "session.update", "session": {"type": "realtime", "tools": [
            {"type": "function", "name": "set_device", "description": "Switch a device",
             "parameters": {"type": "object", "properties": {}}}]}})
        wire.ask("turn on the kitchen light")
        call = await wire.wait_for("response.function_call_arguments.done")
        await wire.wait_for("response.done")
        start = len(wire.events)
        wire.send({"type": "conversation.item.create", "item": {       # what Pipecat sends for the result "on"
            "type": "function_call_output", "call_id": call["call_id"], "output": json.dumps("on")}})
        wire.send({"type": "response.create"})
        said = transcript(await wire.wait_for("response.done", start=start))
    assert "kitchen light is on" in said.lower() and '"' not in said


# ---- 5. item shapes --------------------------------------------------------------------------------------

@pytest.mark.parametrize("audio, part", [(True, "audio"), (False, "text")])
def test_assistant_content_parts_are_ga_typed(audio, part):
    """The item's content is output_audio/output_text; the content_part events say audio/text (as the SDK)."""
    protocol = realtime.RealtimeProtocol(session_id="sess_1", model="parley-home",
                                         defaults=SessionConfig(audio_output=audio))
    protocol.handle(ResponseCreated("resp_1"))
    protocol.handle(TextDelta("resp_1", "item_1", "Hi."))
    protocol.handle(ResponseDone("resp_1", "completed", {}, "Hi.", "item_1"))
    events = [json.loads(frame) for frame in protocol.data_to_send()]
    added = next(e for e in events if e["type"] == "response.content_part.added")
    done = next(e for e in events if e["type"] == "response.output_item.done")
    assert added["part"]["type"] == part and done["item"]["content"][0]["type"] == "output_" + part
    for event in events:
        validate(event)


def test_function_call_output_item_added_is_serialised_as_it_was_then():
    protocol = realtime.RealtimeProtocol(session_id="sess_1", model="parley-home", defaults=SessionConfig())
    protocol.handle(ResponseCreated("resp_t"))
    protocol.handle(ToolCallRequested("resp_t", "item_fc", "call_7", "lookup_order", '{"id": 12}', "item_u"))
    events = [json.loads(frame) for frame in protocol.data_to_send()]
    added = next(e for e in events if e["type"] == "response.output_item.added")["item"]
    assert (added["status"], added["arguments"]) == ("in_progress", "")
    conversation = next(e for e in events if e["type"] == "conversation.item.added")
    assert conversation["previous_item_id"] == "item_u"


# ---- 6. README and docs: Pipecat needs the full URL -------------------------------------------------------

def test_the_docs_give_pipecat_the_full_realtime_url():
    """Pipecat only appends ?model= to its base URL: ws://HOST:PORT/v1 gets a 404."""
    docs = (ROOT / "README.md").read_text() + (ROOT / "docs" / "protocol.md").read_text()
    urls = re.findall(r'OpenAIRealtimeLLMService\([^)]*base_url="([^"]+)"', docs)
    assert len(urls) == 2 and all(url.endswith("/v1/realtime") for url in urls), urls


# ---- 7. only events the GA SDKs know ----------------------------------------------------------------------

def test_every_event_the_protocol_can_send_is_in_the_openai_server_event_union():
    """Every `_send(...)` in the protocol names its event with a literal, and each one is in the SDK's union
    (Pipecat's receive loop and the SDKs' parsers drop or die on types they do not know)."""
    tree = ast.parse((ROOT / "streaming" / "transports" / "realtime.py").read_text())
    sent = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "_send":
            first = node.args[0]
            assert isinstance(first, ast.Constant) and isinstance(first.value, str), ast.unparse(node)
            sent.add(first.value)
    assert len(sent) > 20
    assert sent <= KNOWN_TYPES, sent - KNOWN_TYPES
    assert set(realtime.BETA_NAMES) <= sent                            # beta names only for opted-in clients


def test_output_audio_buffer_clear_with_nothing_playing_sends_no_malformed_event():
    protocol = realtime.RealtimeProtocol(session_id="sess_1", model="parley-home", defaults=SessionConfig())
    assert protocol.receive(json.dumps({"type": "output_audio_buffer.clear"})) == []
    assert protocol.data_to_send() == []
    protocol.handle(ResponseCreated("resp_1"))
    protocol.data_to_send()
    assert protocol.receive(json.dumps({"type": "output_audio_buffer.clear"})) == [realtime.CancelResponse()]
    [cleared] = [json.loads(frame) for frame in protocol.data_to_send()]
    validate(cleared)
    assert cleared["response_id"] == "resp_1"
