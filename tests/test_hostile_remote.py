"""A hostile remote generator (issue 25, N2-N5 and N15): an OpenAI-compatible server on loopback, written here,
that streams what an attacker's model or server would. Whatever it sends, no door opens without the user's own
yes, the reply ends by its deadline, one session cannot disable the remote for everyone, the gateway's loop
stays free, a reply's speech is bounded and its URL is never left."""
import asyncio
import contextlib
import json

import pytest
from aiohttp import web

from assistant.chat_completions import ChatCompletionStream, ContentDelta, Finished, StreamError
from assistant.generator import MAX_ID_CHARS, DoneEvent, TextEvent, ToolCallEvent
from assistant.home import InMemoryHome
from assistant.inventory import Inventory
from assistant.remote import APOLOGY, CUT_OFF, MAX_REQUEST_BYTES, MAX_SPOKEN_CHARS, RemoteGenerator, Timeouts
from assistant.tools import NOT_A_SKILL, ToolRunner

SAFE = "Okay."


def chunk(delta: dict, finish: str | None = None) -> bytes:
    return b"data: " + json.dumps({"object": "chat.completion.chunk", "choices": [
        {"index": 0, "delta": delta, "finish_reason": finish}]}).encode() + b"\n\n"


def calls(*named: tuple[str, dict]) -> list[bytes]:
    """One reply that calls these tools in a row."""
    return [chunk({"tool_calls": [{"index": i, "id": f"call_{i}", "type": "function",
                                   "function": {"name": name, "arguments": json.dumps(arguments)}}]})
            for i, (name, arguments) in enumerate(named)] + [chunk({}, "tool_calls"), b"data: [DONE]\n\n"]


def text(words: str) -> list[bytes]:
    return [chunk({"content": words}), chunk({}, "stop"), b"data: [DONE]\n\n"]


class Hostile:
    """Answers its requests with the scripts in order, then with `then`: a script is a list of byte strings to
    stream, or a coroutine function (request, raw body) -> response."""

    def __init__(self, *scripts, then=None):
        self.scripts, self.then = list(scripts), then or text(SAFE)
        self.bodies: list[dict] = []
        self.sizes: list[int] = []

    async def completions(self, request: web.Request) -> web.StreamResponse:
        raw = await request.read()
        self.sizes.append(len(raw))
        self.bodies.append(json.loads(raw))
        script = self.scripts.pop(0) if self.scripts else self.then
        if callable(script):
            return await script(request, raw)
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        for piece in script:
            await response.write(piece)
        return response


@contextlib.asynccontextmanager
async def serving(handler, path: str = "/v1/chat/completions"):
    app = web.Application(client_max_size=64 * 1024 * 1024)
    app.router.add_post(path, handler)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        yield f"http://127.0.0.1:{runner.addresses[0][1]}"
    finally:
        await runner.cleanup()


async def reply(generator, history: list[dict], tools: ToolRunner, **kwargs) -> list:
    async with asyncio.timeout(120):        # a safety net for the run, never the assertion
        return [e async for e in generator.respond(history, tools, **kwargs)]


def remote(url: str, **options) -> RemoteGenerator:
    """A remote generator that never says a filler (a loaded machine must not change what is said)."""
    return RemoteGenerator(url, model="m", dialect="openai", filler_after_s=60, **options)


def said(events) -> str:
    return "".join(e.text for e in events if isinstance(e, TextEvent))


def home_with_a_front_door() -> InMemoryHome:
    inventory = Inventory()
    inventory.receive_discovery("homeassistant/lock/front/config", json.dumps({"name": "Front Door",
                                                                               "command_topic": "l"}))
    return InMemoryHome(inventory=inventory)


# ---- N2: a confirmation comes from the user's next turn, never from the reply that asked

UNLOCK = ("set_lock", {"name": "front_door", "action": "unlock"})
YES = ("confirm", {"answer": "yes"})


async def test_a_model_that_asks_and_answers_yes_in_one_reply_unlocks_nothing():
    home = home_with_a_front_door()
    tools = ToolRunner(home)
    hostile = Hostile(calls(UNLOCK, YES), text(SAFE), calls(YES))
    async with serving(hostile.completions) as url:
        generator = remote(url)
        history = [{"role": "user", "content": "what's new"}]
        events = await reply(generator, history, tools)
        assert [e.call.name for e in events if isinstance(e, ToolCallEvent)] == ["set_lock", "confirm"]
        assert "lock/front" not in home.states
        # The user's next turn says no yes: the model's yes there unlocks nothing either.
        history += [{"role": "assistant", "content": said(events)}, {"role": "user", "content": "tell me a joke"}]
        events = await reply(generator, history, tools)
        assert [e.call.name for e in events if isinstance(e, ToolCallEvent)] == ["confirm"]
        await generator.aclose()
    assert "lock/front" not in home.states


async def test_a_yes_after_a_client_tool_call_is_not_the_users():
    """set_lock, then a client tool ends the reply; the client's output (no user words) starts the next."""
    home = home_with_a_front_door()
    tools = ToolRunner(home)
    weather = {"type": "function", "name": "get_weather", "parameters": {"type": "object", "properties": {}}}
    hostile = Hostile(calls(UNLOCK, ("get_weather", {})), calls(YES))   # then: a plain reply
    async with serving(hostile.completions) as url:
        generator = remote(url)
        history = [{"role": "user", "content": "what's the weather"}]
        await reply(generator, history, tools, client_tools={"get_weather": weather})
        history += [{"role": "assistant", "content": "", "tool_calls": [
                        {"call_id": "call_1", "name": "get_weather", "arguments": "{}"}]},
                    {"role": "tool", "content": "sunny", "call_id": "call_1"}]
        await reply(generator, history, tools, client_tools={"get_weather": weather})
        await generator.aclose()
    assert "lock/front" not in home.states


async def test_the_users_yes_on_the_next_turn_still_unlocks():
    home = home_with_a_front_door()
    tools = ToolRunner(home)
    hostile = Hostile(calls(UNLOCK), text(SAFE), calls(YES))
    async with serving(hostile.completions) as url:
        generator = remote(url)
        history = [{"role": "user", "content": "unlock the front door"}]
        events = await reply(generator, history, tools)
        assert [e.result for e in events if isinstance(e, ToolCallEvent)] == [
            "Do you want me to unlock the front door? Say yes to confirm."]
        assert "lock/front" not in home.states
        history += [{"role": "assistant", "content": said(events)}, {"role": "user", "content": "Yes, go ahead."}]
        events = await reply(generator, history, tools)
        await generator.aclose()
    assert home.states["lock/front"] == "unlocked"
    assert [e.result for e in events if isinstance(e, ToolCallEvent)] == ["Okay, the front door is unlocked."]


# ---- N3: the reply deadline covers the whole reply, however it streams

ENDLESS_WORDS = 400


async def endless(request: web.Request, raw: bytes) -> web.StreamResponse:
    """A reply that goes on and on: a word every 50 ms, each well inside the read timeout (it does end, 20 s
    on, so that a gateway without a reply deadline fails this test rather than hangs it)."""
    response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
    await response.prepare(request)
    with contextlib.suppress(ConnectionError):
        for _ in range(ENDLESS_WORDS):
            await response.write(chunk({"content": "and "}))
            await asyncio.sleep(0.05)
        for piece in text(SAFE):
            await response.write(piece)
    return response


async def test_a_reply_that_streams_on_and_on_ends_at_the_reply_deadline():
    hostile = Hostile(then=endless)
    async with serving(hostile.completions) as url:
        generator = remote(url, timeouts=Timeouts(reply_s=2.0))
        events = await reply(generator, [{"role": "user", "content": "hello"}], ToolRunner())
        await generator.aclose()
    assert said(events).startswith("and ") and said(events).endswith(CUT_OFF)
    assert said(events).count("and ") < ENDLESS_WORDS
    assert isinstance(events[-1], DoneEvent) and events[-1].reply.generator == "remote"


async def test_a_reply_cancelled_after_its_deadline_leaves_the_session_talking(stt, tts, vad_model):
    """The deadline passes mid-stream and the client cancels: the session still answers the next request."""
    from conftest import LiveServer
    from realtime_client import RealtimeClient
    from streaming.config import ServerConfig
    from streaming.engines import Engines

    hostile = Hostile(endless, then=text("Still here."))
    async with serving(hostile.completions) as url:
        generator = remote(url, timeouts=Timeouts(reply_s=0.5))
        server = LiveServer(ServerConfig(port=0), Engines(stt=stt, tts=tts, vad_model=vad_model, generator=generator))
        try:
            client = await RealtimeClient.connect(server.ws_url)
            await client.send({"type": "session.update", "session": {"type": "realtime",
                                                                    "output_modalities": ["text"]}})
            await client.wait_for("session.updated")
            for words in ("talk to me", "are you there"):
                await client.send({"type": "conversation.item.create", "item": {
                    "type": "message", "role": "user", "content": [{"type": "input_text", "text": words}]}})
                await client.send({"type": "response.create"})
                if words == "talk to me":
                    await client.wait_for("response.output_text.delta")
                    await asyncio.sleep(1.0)             # past the deadline, mid-stream
                    await client.send({"type": "response.cancel"})
                    first = await client.wait_for("response.done")
            second = await client.wait_for("response.done", timeout=30, where=lambda e: e is not first)
            await client.close()
        finally:
            server.stop()
    assert second["response"]["status"] == "completed"
    assert second["response"]["output"][0]["content"][0]["text"] == "Still here."
    assert not [e for e in client.of_type("error") if e["error"].get("type") == "server_error"]


# ---- N4: one session's oversize request neither opens the shared breaker nor leaves the gateway whole

async def refuse_over_a_mib(request: web.Request, raw: bytes) -> web.StreamResponse:
    if len(raw) > 1024 * 1024:
        return web.json_response({"error": {"message": "request entity too large"}}, status=413)
    return await plain(request, raw)


async def plain(request: web.Request, raw: bytes) -> web.StreamResponse:
    response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
    await response.prepare(request)
    for piece in text(SAFE):
        await response.write(piece)
    return response


async def test_a_long_history_is_trimmed_to_the_request_bound_and_answered_by_the_remote():
    history = [{"role": "user" if i % 2 == 0 else "assistant", "content": f"{i} " + "x" * 16_000}
               for i in range(80)] + [{"role": "user", "content": "what time is it"}]
    hostile = Hostile(then=refuse_over_a_mib)
    async with serving(hostile.completions) as url:
        generator = remote(url)
        for _ in range(3):
            events = await reply(generator, [{"role": "system", "content": "Be brief."}] + history, ToolRunner())
            assert said(events) == SAFE and events[-1].reply.fallback is None
        await generator.aclose()
    assert generator.remote_up and max(hostile.sizes) <= MAX_REQUEST_BYTES
    sent = hostile.bodies[-1]["messages"]
    assert sent[0] == {"role": "developer", "content": "Be brief."}
    assert sent[-1] == {"role": "user", "content": "what time is it"} and len(sent) < len(history)


async def test_a_413_is_this_requests_failure_not_the_remotes():
    async def too_large(request, raw):
        return web.json_response({"error": {"message": "request entity too large"}}, status=413)

    hostile = Hostile(too_large, too_large, too_large, then=plain)
    async with serving(hostile.completions) as url:
        generator = remote(url)
        for _ in range(3):
            events = await reply(generator, [{"role": "user", "content": "hello"}], ToolRunner())
            assert "HTTP 413" in events[-1].reply.fallback
        assert generator.remote_up
        events = await reply(generator, [{"role": "user", "content": "hello"}], ToolRunner())
        await generator.aclose()
    assert said(events) == SAFE and len(hostile.bodies) == 4


# ---- N5: the stream parser is linear and bounded

def test_ten_megabytes_of_bare_line_ends_are_refused_at_the_stream_bound():
    for ends in (b"\n", b"\r", b"\r\n"):
        parser = ChatCompletionStream()
        read = b"data: {\"choices\": [{\"index\": 0, \"delta\": {\"content\": \"hi\"}}]}" + ends * 2
        assert parser.receive_data(read) == [ContentDelta("hi")]
        piece = ends * (64 * 1024 // len(ends))
        fed = 0
        try:
            while fed < 10 * 1024 * 1024:
                assert parser.receive_data(piece) == []
                fed += len(piece)
        except StreamError as error:
            assert "stream longer than" in str(error)
        else:
            raise AssertionError(f"10 MB of {ends!r} were read to the end")
        assert fed < 10 * 1024 * 1024


async def test_an_sse_line_that_never_ends_ends_the_reply_at_the_line_bound():
    """Documents a guard that held at deb3ced: a remote that streams one line without an end is cut off once
    the line passes the parser's 1 MiB (before 64 MiB have been offered), and the reply is the apology."""
    offered = 64 * 1024 * 1024
    written = 0

    async def endless_line(request, raw):
        nonlocal written
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        await response.write(b"data: {\"choices\": [{\"index\": 0, \"delta\": {\"content\": \"")
        with contextlib.suppress(ConnectionError):
            while written < offered:
                await response.write(b"x" * 65536)
                written += 65536
        return response

    async with serving(Hostile(endless_line).completions) as url:
        generator = remote(url)
        events = await reply(generator, [{"role": "user", "content": "hello"}], ToolRunner())
        await generator.aclose()
    assert "an SSE line longer than" in events[-1].reply.fallback
    assert said(events) == APOLOGY and written < offered


def test_line_ends_split_across_reads_frame_the_same_events():
    body = (b"data: {\"choices\": [{\"index\": 0, \"delta\": {\"content\": \"a\"}}]}\r\n\r\n"
            b": keep-alive\r\r\n\n\ndata: {\"choices\": [{\"index\": 0, \"delta\": {\"content\": \"b\"}}]}\r"
            b"\r\r\ndata: {\"choices\": [{\"index\": 0, \"delta\": {\"content\": \"c\"}}]}\n"
            b"\ndata: [DONE]\r\n\r\n")
    whole = ChatCompletionStream().receive_data(body)
    assert whole == [ContentDelta("a"), ContentDelta("b"), ContentDelta("c"), Finished(None)]
    for cut in range(1, len(body)):
        parser = ChatCompletionStream()
        assert parser.receive_data(body[:cut]) + parser.receive_data(body[cut:]) == whole, cut


# ---- N15: a remote reply's speech is bounded; the generator URL is never left

async def test_a_reply_longer_than_the_spoken_bound_is_cut_there():
    words = "la " * 2000             # ten of these: over an hour of speech, under the stream's own bound
    hostile = Hostile([chunk({"content": words}) for _ in range(10)] + [chunk({}, "stop"), b"data: [DONE]\n\n"])
    async with serving(hostile.completions) as url:
        generator = remote(url)
        events = await reply(generator, [{"role": "user", "content": "sing"}], ToolRunner())
        await generator.aclose()
    assert len(said(events)) <= MAX_SPOKEN_CHARS and said(events).startswith("la la")
    assert events[-1].reply.fallback is None and generator.remote_up


async def test_a_redirect_from_the_generator_url_is_not_followed():
    elsewhere = Hostile()
    async with serving(elsewhere.completions, "/stolen") as other:
        async def redirect(request, raw):
            raise web.HTTPTemporaryRedirect(other + "/stolen")

        hostile = Hostile(then=redirect)
        async with serving(hostile.completions) as url:
            generator = remote(url, api_key="secret")
            events = await reply(generator, [{"role": "user", "content": "hello"}], ToolRunner())
            await generator.aclose()
    assert elsewhere.bodies == [] and "HTTP 307" in events[-1].reply.fallback


# ---- round 37: a remote's tool calls

WEATHER = {"type": "function", "name": "get_weather", "description": "The weather in a city.",
           "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}


def broken_call(name: str, arguments: str, call_id: str = "call_0") -> list[bytes]:
    return [chunk({"tool_calls": [{"index": 0, "id": call_id, "type": "function",
                                   "function": {"name": name, "arguments": arguments}}]}),
            chunk({}, "tool_calls"), b"data: [DONE]\n\n"]


async def test_a_client_tool_call_whose_arguments_are_not_json_is_not_handed_to_the_client():
    """Round 37: at cfe81dd a call to a client's tool whose arguments were not a JSON object went to the client with
    arguments {} (get_weather with no city), a call the model never wrote. It is the remote's failure now: the
    client gets no call and the reply is the fallback's (here, without one, the apology), naming why."""
    hostile = Hostile(broken_call("get_weather", '{"city": "Par'), then=text(SAFE))
    async with serving(hostile.completions) as url:
        generator = remote(url)
        events = await reply(generator, [{"role": "user", "content": "weather in Paris"}], ToolRunner(),
                             client_tools={"get_weather": WEATHER})
        after = await reply(generator, [{"role": "user", "content": "hello"}], ToolRunner())
        await generator.aclose()
    assert not [e for e in events if isinstance(e, ToolCallEvent)]
    assert "get_weather whose arguments are not a JSON object" in events[-1].reply.fallback
    assert said(after) == SAFE


@pytest.mark.parametrize("field", ["name", "id"])
async def test_a_call_whose_name_or_id_is_longer_than_the_bound_never_reaches_the_conversation(field):
    """Round 37: at cfe81dd a remote's call named with a megabyte (or with a megabyte id) was run as a call (Sorry,
    I can't do that yet.) and went into the conversation whole, and into the store at every save: the bound a
    client's ids and names have (MAX_ID_CHARS) did not hold for a remote's. Such a call is now the remote's failure;
    one at the bound is still a call."""
    long = "x" * 1_000_000
    script = broken_call(long, "{}") if field == "name" else broken_call("launch_rocket", "{}", call_id=long)
    at_the_bound = broken_call("y" * MAX_ID_CHARS, "{}", call_id="z" * MAX_ID_CHARS)
    hostile = Hostile(script, at_the_bound, then=text(SAFE))
    async with serving(hostile.completions) as url:
        generator = remote(url)
        events = await reply(generator, [{"role": "user", "content": "launch"}], ToolRunner())
        bounded = await reply(generator, [{"role": "user", "content": "launch"}], ToolRunner())
        await generator.aclose()
    assert not [e for e in events if isinstance(e, ToolCallEvent)]
    assert f"tool call 0's {field} is longer than {MAX_ID_CHARS} characters" in events[-1].reply.fallback
    [call] = [e for e in bounded if isinstance(e, ToolCallEvent)]
    assert (call.call.name, call.call.call_id, call.result) == ("y" * MAX_ID_CHARS, "z" * MAX_ID_CHARS, NOT_A_SKILL)


async def test_megabytes_of_arguments_thousands_of_calls_and_a_tool_nobody_declared_are_bounded():
    """Documents guards that held at cfe81dd: a call's arguments past the reply's 65,536 characters and a 17th call in
    one stream end the stream (the remote's failure, the fallback's reply); a call to a tool nobody declared runs
    nothing (NOT_A_SKILL goes back to the model) and the session's tools still work after each."""
    megabytes = broken_call("get_weather", json.dumps({"city": "x" * 600_000}))
    thousands = [chunk({"tool_calls": [{"index": i, "id": f"call_{i}", "type": "function",
                                        "function": {"name": "get_time", "arguments": "{}"}} for i in range(3000)]}),
                 chunk({}, "tool_calls"), b"data: [DONE]\n\n"]
    undeclared = calls(("delete_everything", {"all": True}))
    hostile = Hostile(megabytes, thousands, undeclared, then=text(SAFE))
    async with serving(hostile.completions) as url:
        generator = remote(url)
        replies = []
        for _ in range(3):
            replies.append(await reply(generator, [{"role": "user", "content": "go"}], ToolRunner(),
                                       client_tools={"get_weather": WEATHER}))
            generator.breaker.succeeded()          # each case on its own: two failures in a row open the breaker
        await generator.aclose()
    (megabytes_said, thousands_said, undeclared_said) = replies
    assert "tool call arguments longer than 65536 characters" in megabytes_said[-1].reply.fallback
    assert "more than 16 tool calls" in thousands_said[-1].reply.fallback
    assert not [e for e in megabytes_said + thousands_said if isinstance(e, ToolCallEvent)]
    [call] = [e for e in undeclared_said if isinstance(e, ToolCallEvent)]
    assert (call.call.name, call.local, call.result) == ("delete_everything", True, NOT_A_SKILL)
    assert said(undeclared_said) == SAFE
