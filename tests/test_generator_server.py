"""`parley generator serve` against the official openai client, on loopback: replies, tool calls with Parley's
one-pass reply, streaming, errors, auth, and concurrent requests batched into shared passes."""
import asyncio
import json
import os
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import openai
import pytest

from assistant.chat_completions import chat_tool
from assistant.corpus import CANT
from assistant.embedded import EmbeddedGenerator
from assistant.generator import AssistantReply, DoneEvent, TextEvent, ToolCallEvent, respond_sync
from assistant.generator_server import GeneratorConfig, GeneratorService, create_app
from assistant.home import InMemoryHome
from assistant.http_limits import BoundedRunner
from assistant.openai_chat import tool_call_json
from assistant.skills import SKILLS
from assistant.tools import ToolRunner
from made_up_home import made_up_inventory
from pass_gate import PassGate

# Parley's skills as Chat Completions tools, as a gateway offers them.
SKILL_TOOLS = [chat_tool(skill.schema()) for skill in SKILLS.values()]
KITCHEN = [{"role": "user", "content": "turn on the kitchen light"}]


class ServerThread:
    """The generator app on 127.0.0.1:<free port>, served from a background thread with its own event loop."""

    def __init__(self, service: GeneratorService):
        from aiohttp import web

        self.service = service
        self.loop = asyncio.new_event_loop()
        self._runner = BoundedRunner(create_app(service))          # as `parley generator serve` runs it
        self._thread = threading.Thread(target=self.loop.run_forever, name="generator-server", daemon=True)
        self._thread.start()
        self._call(self._runner.setup())
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        self._call(site.start())
        self.url = f"http://127.0.0.1:{self._runner.addresses[0][1]}"
        self._clients: list[openai.OpenAI] = []

    def _call(self, coro):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(60)

    def client(self, api_key: str = "unused") -> openai.OpenAI:
        """An openai client of this server, closed with it."""
        client = openai.OpenAI(base_url=self.url + "/v1", api_key=api_key, max_retries=0, timeout=60)
        self._clients.append(client)
        return client

    def async_client(self) -> openai.AsyncOpenAI:
        """Close it (await client.close()) before the server."""
        return openai.AsyncOpenAI(base_url=self.url + "/v1", api_key="unused", max_retries=0, timeout=60)

    def get(self, path: str, headers: dict | None = None) -> tuple[int, dict, bytes]:
        return http(self.url + path, headers=headers)

    def close(self) -> None:
        for client in self._clients:
            client.close()
        self._call(self._runner.cleanup())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=30)
        self.loop.close()


def http(url: str, body: bytes | None = None, headers: dict | None = None) -> tuple[int, dict, bytes]:
    request = urllib.request.Request(url, data=body, headers=headers or {}, method="POST" if body is not None else "GET")
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


@pytest.fixture(scope="module")
def generator():
    return EmbeddedGenerator.load()


@pytest.fixture
def serve(generator):
    """serve(config=..., gen=..., name=...) -> a running ServerThread, closed after the test."""
    servers = []

    def start(config: GeneratorConfig | None = None, gen: EmbeddedGenerator | None = None,
              name: str = "parley-home") -> ServerThread:
        server = ServerThread(GeneratorService(gen or generator, config or GeneratorConfig(port=0), name))
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.close()


@pytest.fixture
def server(serve):
    return serve()


def embedded_reply(generator, history, tools=None):
    """What the in-process generator says, running Parley's own tools: the reference for the wire answer."""
    return respond_sync(generator, history, tools or ToolRunner())


def test_a_home_request_gets_a_tool_call_and_the_one_pass_reply(server, generator):
    reply = server.client().chat.completions.create(model="parley-home", messages=KITCHEN, tools=SKILL_TOOLS)
    choice = reply.choices[0]
    assert reply.object == "chat.completion" and reply.model == "parley-home"
    assert choice.finish_reason == "tool_calls" and choice.message.content is None
    [call] = choice.message.tool_calls
    assert call.type == "function" and call.id.startswith("call_") and call.function.name == "set_device"
    assert json.loads(call.function.arguments) == {"device": "light", "room": "kitchen", "state": "on"}
    template = choice.message.model_extra["parley"]["reply"]
    assert "{result}" in template
    # The gateway fills the slot with the tool's result: the same words the in-process generator speaks.
    assert template.replace("{result}", "on") == embedded_reply(generator, KITCHEN).text
    assert reply.usage.prompt_tokens > 0 and reply.usage.completion_tokens > 0
    assert reply.usage.total_tokens == reply.usage.prompt_tokens + reply.usage.completion_tokens


def test_a_streamed_tool_call_comes_as_block_chunks_then_finish_and_usage(server):
    client = server.client()
    whole = client.chat.completions.create(model="parley-home", messages=KITCHEN, tools=SKILL_TOOLS)
    chunks = list(client.chat.completions.create(model="parley-home", messages=KITCHEN, tools=SKILL_TOOLS,
                                                 stream=True, stream_options={"include_usage": True}))
    assert all(c.object == "chat.completion.chunk" and c.id == chunks[0].id for c in chunks)
    # The embedded decode commits one 32-token block: its chunk, the finish chunk, the usage chunk.
    block, finish, usage = chunks
    assert block.choices[0].delta.role == "assistant"
    calls: dict[int, dict] = {}
    reply = ""
    for c in chunks[:2]:
        for delta in c.choices[0].delta.tool_calls or []:
            call = calls.setdefault(delta.index, {"name": "", "arguments": ""})
            call["name"] += delta.function.name or ""
            call["arguments"] += delta.function.arguments or ""
        reply += ((c.choices[0].delta.model_extra or {}).get("parley") or {}).get("reply", "")
    expected = whole.choices[0].message
    assert calls == {0: {"name": "set_device", "arguments": expected.tool_calls[0].function.arguments}}
    assert reply == expected.model_extra["parley"]["reply"]
    assert all(c.choices[0].delta.content is None for c in chunks[:2])
    assert finish.choices[0].finish_reason == "tool_calls"
    assert usage.choices == [] and usage.usage.completion_tokens == whole.usage.completion_tokens


def test_an_openai_client_sends_the_tool_result_back_and_hears_the_reply(server, generator):
    client = server.client()
    first = client.chat.completions.create(model="parley-home", messages=KITCHEN, tools=SKILL_TOOLS)
    call = first.choices[0].message.tool_calls[0]
    history = KITCHEN + [
        {"role": "assistant", "content": None, "tool_calls": [call.model_dump()]},
        {"role": "tool", "tool_call_id": call.id, "content": "on"}]
    second = client.chat.completions.create(model="parley-home", messages=history, tools=SKILL_TOOLS)
    assert second.choices[0].finish_reason == "stop" and not second.choices[0].message.tool_calls
    assert second.choices[0].message.content == embedded_reply(generator, KITCHEN).text
    streamed = client.chat.completions.create(model="parley-home", messages=history, tools=SKILL_TOOLS, stream=True)
    assert "".join(c.choices[0].delta.content or "" for c in streamed if c.choices) == second.choices[0].message.content


def test_replies_without_a_call_and_calls_to_tools_not_offered(server, generator):
    client = server.client()
    hello = [{"role": "user", "content": "hello"}]
    plain = client.chat.completions.create(model="parley-home", messages=hello)
    assert plain.choices[0].message.content == embedded_reply(generator, hello).text
    assert plain.choices[0].finish_reason == "stop"
    assert "parley" not in (plain.choices[0].message.model_extra or {})
    streamed = list(client.chat.completions.create(model="parley-home", messages=hello, stream=True))
    assert "".join(c.choices[0].delta.content or "" for c in streamed) == plain.choices[0].message.content
    assert streamed[-1].choices[0].finish_reason == "stop"
    # The server runs no tool: a call the request did not offer gets Parley's spoken refusal.
    for extra in ({}, {"tools": SKILL_TOOLS, "tool_choice": "none"},
                  {"tools": SKILL_TOOLS, "tool_choice": {"type": "function", "function": {"name": "get_time"}}}):
        refused = client.chat.completions.create(model="parley-home", messages=KITCHEN, **extra)
        assert refused.choices[0].message.content == CANT and not refused.choices[0].message.tool_calls


WEATHER = {"type": "function", "function": {
    "name": "get_weather", "description": "Get the current weather for a city",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}


def test_a_declared_tool_that_is_no_skill_is_called_with_the_words_said(server, generator):
    if not generator.reads_tools:
        pytest.skip("the checkpoint was not trained on client-declared tools")
    client = server.client()
    asked = [{"role": "user", "content": "What's the weather in Paris?"}]
    first = client.chat.completions.create(model="parley-home", messages=asked, tools=[WEATHER, *SKILL_TOOLS])
    [call] = first.choices[0].message.tool_calls
    assert call.function.name == "get_weather" and json.loads(call.function.arguments) == {"city": "Paris"}
    history = asked + [{"role": "assistant", "content": None, "tool_calls": [call.model_dump()]},
                       {"role": "tool", "tool_call_id": call.id, "content": "light rain, 14 degrees"}]
    second = client.chat.completions.create(model="parley-home", messages=history, tools=[WEATHER, *SKILL_TOOLS])
    assert "light rain, 14 degrees" in second.choices[0].message.content


def test_max_tokens_cuts_the_reply(server):
    cut = server.client().chat.completions.create(model="parley-home", max_tokens=3,
                                                  messages=[{"role": "user", "content": "what can you do"}])
    assert cut.choices[0].finish_reason == "length" and cut.usage.completion_tokens == 3
    assert cut.choices[0].message.content


def error_of(call) -> openai.APIStatusError:
    with pytest.raises(openai.APIStatusError) as caught:
        call()
    return caught.value


def test_bad_requests_get_openai_shaped_400s(server):
    status, _, body = http(server.url + "/v1/chat/completions", b"{not json", {"Content-Type": "application/json"})
    assert status == 400 and json.loads(body)["error"] == {
        "type": "invalid_request_error", "message": "the body is not valid JSON", "code": "invalid_json"}
    client = server.client()
    create = client.chat.completions.create
    for kwargs, param in [({"messages": []}, "messages"),
                          ({"messages": [{"role": "robot", "content": "hi"}]}, "messages[0].role"),
                          ({"messages": KITCHEN, "temperature": 5}, "temperature"),
                          ({"messages": KITCHEN, "max_tokens": 0}, "max_tokens"),
                          ({"messages": KITCHEN, "tools": [{"type": "function"}]}, "tools[0]"),
                          ({"messages": KITCHEN, "tools": SKILL_TOOLS,
                            "tool_choice": {"type": "function", "function": {"name": "fly"}}}, "tool_choice")]:
        error = error_of(lambda: create(model="parley-home", **kwargs))
        assert error.status_code == 400, kwargs
        assert error.body["type"] == "invalid_request_error" and error.body["param"] == param
        assert error.body["message"]
    # The server goes on.
    assert create(model="parley-home", messages=KITCHEN, tools=SKILL_TOOLS).choices[0].finish_reason == "tool_calls"


def test_too_large_bodies_and_prompts_get_413(serve):
    server = serve(GeneratorConfig(port=0, max_body_bytes=4096))
    create = server.client().chat.completions.create
    error = error_of(lambda: create(model="parley-home", messages=[{"role": "user", "content": "light " * 2000}]))
    assert error.status_code == 413 and error.body["code"] == "request_too_large"
    long_request = [{"role": "user", "content": "please turn on the kitchen light " * 20}]
    error = error_of(lambda: create(model="parley-home", messages=long_request))
    assert error.status_code == 413 and error.body["code"] == "context_length_exceeded"
    assert error.body["type"] == "invalid_request_error"


def test_an_api_key_locks_every_door_but_healthz(serve):
    server = serve(GeneratorConfig(port=0, api_key="sesame"))
    error = error_of(lambda: server.client("wrong").chat.completions.create(model="parley-home", messages=KITCHEN))
    assert error.status_code == 401 and error.body["type"] == "invalid_request_error"
    assert isinstance(error, openai.AuthenticationError)
    assert server.get("/v1/models")[0] == 401 and server.get("/metrics")[0] == 401
    assert server.get("/healthz")[0] == 200
    assert server.get("/metrics", {"Authorization": "Bearer sesame"})[0] == 200
    reply = server.client("sesame").chat.completions.create(model="parley-home", messages=KITCHEN, tools=SKILL_TOOLS)
    assert reply.choices[0].finish_reason == "tool_calls"


async def test_a_full_queue_answers_429_with_retry_after():
    generator = EmbeddedGenerator.load()        # its own model: the gate holds this model's passes
    gate = PassGate(generator.model)
    server = ServerThread(GeneratorService(generator, GeneratorConfig(port=0, max_batch=1, max_waiting=0), "parley-home"))
    client = server.async_client()
    try:
        running = asyncio.create_task(client.chat.completions.create(model="parley-home", messages=KITCHEN,
                                                                     tools=SKILL_TOOLS))
        await gate.arrival()                    # the one place is taken, mid-pass
        with pytest.raises(openai.RateLimitError) as caught:
            await client.chat.completions.create(model="parley-home", messages=KITCHEN)
        assert caught.value.status_code == 429 and caught.value.response.headers["retry-after"] == "1"
        assert caught.value.body["type"] == "rate_limit_error" and caught.value.body["code"] == "queue_full"
        gate.open()
        assert (await running).choices[0].finish_reason == "tool_calls"
        metrics = (await asyncio.to_thread(server.get, "/metrics"))[2].decode()
        assert 'parley_generator_requests_total{status="429"} 1.0' in metrics
    finally:
        gate.remove()
        await client.close()
        await asyncio.to_thread(server.close)


async def test_concurrent_requests_share_passes_and_answer_as_each_alone():
    generator = EmbeddedGenerator.load()
    requests = ["turn on the kitchen light", "hello", "what is seven times six", "set a timer for ten minutes",
                "what's the temperature in the bedroom", "thank you", "convert five miles to kilometers",
                "dim the living room lights to thirty percent"]
    server = ServerThread(GeneratorService(generator, GeneratorConfig(port=0), "parley-home"))
    gate = None
    client = server.async_client()
    try:

        async def ask(text):
            reply = await client.chat.completions.create(model="parley-home", tools=SKILL_TOOLS,
                                                         messages=[{"role": "user", "content": text}])
            message = reply.choices[0].message
            calls = [(c.function.name, c.function.arguments) for c in message.tool_calls or []]
            return message.content, calls, (message.model_extra or {}).get("parley"), reply.usage.completion_tokens

        alone = [await ask(text) for text in requests]
        gate = PassGate(generator.model)
        first = asyncio.create_task(ask(requests[0]))
        await gate.arrival()
        others = [asyncio.create_task(ask(text)) for text in requests[1:]]
        while (await asyncio.to_thread(server.get, "/healthz"))[2].count(b'"waiting": 7') == 0:
            await asyncio.sleep(0.01)           # every other request is queued behind the held pass
        gate.open()
        together = await asyncio.gather(first, *others)
        assert together == alone
        assert max(gate.rows) >= len(requests) - 1
        metrics = (await asyncio.to_thread(server.get, "/metrics"))[2].decode()
        assert "parley_generator_batch_size_bucket" in metrics and "parley_generator_passes_per_reply_count" in metrics
        assert "parley_generator_completion_tokens_total" in metrics and "parley_generator_queue_depth 0.0" in metrics
    finally:
        if gate is not None:
            gate.remove()
        await client.close()
        await asyncio.to_thread(server.close)


def test_models_and_health(server):
    assert [m.id for m in server.client().models.list()] == ["parley-home"]
    status, _, body = server.get("/healthz")
    assert status == 200 and json.loads(body)["status"] == "ok"


def test_a_closed_batch_worker_gives_503(serve):
    server = serve()
    server.service.batcher.close()
    assert server.get("/healthz")[0] == 503
    error = error_of(lambda: server.client().chat.completions.create(model="parley-home", messages=KITCHEN))
    assert error.status_code == 503 and error.body["code"] == "not_ready"


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")   # the worker dies on purpose
def test_a_batch_worker_that_dies_turns_healthz_red_and_is_restarted(serve, caplog):
    server = serve()
    batcher = server.service.batcher
    observe = batcher.on_pass

    def bug_once(report):          # a bug in the pass loop itself, not a failed forward: the worker thread dies
        batcher.on_pass = observe
        raise RuntimeError("a bug in the pass loop")
    batcher.on_pass = bug_once
    client = server.client()
    try:                           # the request in flight is answered either way, never left hanging
        reply = client.chat.completions.create(model="parley-home", messages=KITCHEN, tools=SKILL_TOOLS, timeout=20)
        assert reply.choices[0].message.tool_calls[0].function.name == "set_device"
    except openai.APIStatusError as error:
        assert error.status_code == 500 and error.body["code"] == "decode_failed"
    restarts = "parley_generator_worker_restarts_total 1.0"
    for _ in range(100):           # the watchdog looks once a second
        if restarts in server.get("/metrics")[2].decode():
            break
        time.sleep(0.1)
    assert restarts in server.get("/metrics")[2].decode()
    assert "batch worker died (RuntimeError('a bug in the pass loop'))" in caplog.text
    assert server.get("/healthz")[0] == 200
    reply = client.chat.completions.create(model="parley-home", messages=KITCHEN, tools=SKILL_TOOLS)
    assert reply.choices[0].message.tool_calls[0].function.name == "set_device"


def test_parley_generator_serve_runs_as_a_command(tmp_path):
    process = subprocess.Popen([sys.executable, "-m", "streaming.cli", "generator", "serve", "--port", "0",
                                "--api-key", "sesame"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        line = ""
        for line in process.stdout:
            if "is listening on" in line:
                break
        url = line.split("listening on ")[1].split()[0]
        with openai.OpenAI(base_url=url, api_key="sesame", max_retries=0, timeout=60) as client:
            reply = client.chat.completions.create(model="parley-home", messages=KITCHEN, tools=SKILL_TOOLS)
        assert reply.choices[0].message.tool_calls[0].function.name == "set_device"
    finally:
        process.terminate()
        process.wait(timeout=30)
        process.stdout.close()


async def test_parleys_gateway_client_runs_the_call_and_speaks_the_reply_from_one_request(server, generator):
    from assistant.remote import RemoteGenerator

    remote = RemoteGenerator(server.url, model="parley-home")
    history = [{"role": "user", "content": "what is seven times six"}]
    try:
        events = [event async for event in remote.respond(history, ToolRunner(), session_id="sess_1")]
    finally:
        await remote.aclose()
    [call] = [e for e in events if isinstance(e, ToolCallEvent)]
    assert (call.call.name, call.call.arguments, call.local, call.result) == ("calculate", {"expression": "7*6"},
                                                                                True, "42")
    expected = await asyncio.to_thread(embedded_reply, generator, history)
    assert "".join(e.text for e in events if isinstance(e, TextEvent)) == expected.text
    done = events[-1]
    assert isinstance(done, DoneEvent) and done.reply.generator == "remote" and done.reply.fallback is None
    metrics = (await asyncio.to_thread(server.get, "/metrics"))[2].decode()
    assert 'parley_generator_requests_total{status="200"} 1.0' in metrics      # one request: call and speech


async def test_the_users_own_home_reaches_the_generator_server_by_its_names(server):
    """A gateway with a home of its own sends its names along (`parley.home`): the server's model reads them as
    name slots, as the embedded one does, so names it never saw in training work over the wire too."""
    from assistant.inventory import Inventory
    from assistant.remote import RemoteGenerator

    inventory = Inventory()
    for key, name, area, component in [("a", "Reading Lamp", "Den", "light"), ("b", "Blinds", "Nursery", "cover")]:
        config = {"name": name, "command_topic": f"{key}/set", "device": {"suggested_area": area}}
        inventory.receive_discovery(f"homeassistant/{component}/{key}/config", json.dumps(config))
    home = InMemoryHome(inventory=inventory)
    remote = RemoteGenerator(server.url, model="parley-home")
    try:
        for request in ("turn on the reading lamp", "close the blinds in the nursery"):
            history = [{"role": "user", "content": request}]
            events = [event async for event in remote.respond(history, ToolRunner(home))]
            assert events[-1].reply.fallback is None
    finally:
        await remote.aclose()
    assert home.states == {"light/a": "on", "cover/b": "closed"}


async def test_a_request_with_a_clause_beside_it_is_read_again_as_the_local_assistant_reads_it(server, generator):
    """The clauses are decoded in the same passes as the whole request, so over the wire the clause that is the
    request is answered, as in process, and no reply takes more than 4 passes; a clause's call streams as a call."""
    from assistant.remote import RemoteGenerator

    remote = RemoteGenerator(server.url, model="parley-home")
    try:
        for request in ("switch on the bedroom heater please, it's freezing", "hmm, what's the time, i'm running late",
                        "tell me a joke, it's freezing"):
            history = [{"role": "user", "content": request}]
            events = [event async for event in remote.respond(history, ToolRunner())]
            local = await asyncio.to_thread(embedded_reply, generator, history)
            assert [(c.name, c.arguments) for c in events[-1].reply.tool_calls] == \
                [(c.name, c.arguments) for c in local.tool_calls], request
            assert events[-1].reply.text == local.text and events[-1].reply.fallback is None
    finally:
        await remote.aclose()
    metrics = (await asyncio.to_thread(server.get, "/metrics"))[2].decode()
    assert 'parley_generator_passes_per_reply_bucket{le="4.0"} 3.0' in metrics
    heater = [{"role": "user", "content": "switch on the bedroom heater please, it's freezing"}]
    chunks = await asyncio.to_thread(lambda: list(server.client().chat.completions.create(
        model="parley-home", messages=heater, tools=SKILL_TOOLS, stream=True)))
    assert chunks[0].choices[0].delta.tool_calls[0].function.name == "set_device"
    assert chunks[-1].choices[0].finish_reason == "tool_calls"


async def converse(assistant, turns: list[str], tools: ToolRunner) -> list[AssistantReply]:
    """Each turn's reply, the conversation kept as a session keeps it: calls, their outputs, the reply's text."""
    history, replies = [], []
    for said in turns:
        history.append({"role": "user", "content": said})
        events = [event async for event in assistant.respond(history, tools)]
        for event in events:
            if isinstance(event, ToolCallEvent):
                call = event.call
                history += [{"role": "assistant", "content": "", "tool_calls": [
                    {"call_id": call.call_id, "name": call.name, "arguments": call.arguments}]},
                    {"role": "tool", "content": str(event.result), "call_id": call.call_id}]
        replies.append(events[-1].reply)
        history.append({"role": "assistant", "content": replies[-1].text})
    return replies


@pytest.mark.parametrize("made_up, turns, question", [
    (True, ["switch on the arc lamp", "lock it"], "Sorry, I'm not sure which one you mean."),
    # the letterbox was only asked about: its kind (a sensor, which no one locks) comes with the home's names
    (True, ["is the letterbox open", "lock it"], "Sorry, I'm not sure which one you mean."),
    (True, ["run siesta", "revert that"], "Sorry, I don't know what it was before."),
    (False, ["turn on the kitchen light", "and the cellar"], "Sorry, there's no cellar I know of."),
    (False, ["turn on the kitchen light", "turn on the office fan", "no, the small one"],
     "Which one do you mean, the office fan or the kitchen light?"),
])
async def test_a_follow_up_that_singles_out_nothing_is_asked_about_over_the_wire_as_in_process(
        server, generator, made_up, turns, question):
    """Round 17's follow-ups that ask instead of guessing (conversation.declined): through a gateway the server
    asks the same question as the embedded assistant, with no call, and the home stays as the turns before left it."""
    from assistant.remote import RemoteGenerator

    homes = [InMemoryHome(inventory=made_up_inventory()) if made_up else InMemoryHome() for _ in range(2)]
    remote = RemoteGenerator(server.url, model="parley-home")
    try:
        over_wire = await converse(remote, turns, ToolRunner(homes[0]))
    finally:
        await remote.aclose()
    in_process = await converse(generator, turns, ToolRunner(homes[1]))
    for replies in (over_wire, in_process):
        assert (replies[-1].text, replies[-1].tool_calls) == (question, []), replies[-1]
    assert over_wire[-1].fallback is None and homes[0].states == homes[1].states


def test_a_streamed_follow_up_question_comes_as_one_text_chunk(server):
    """Over the wire as an OpenAI client sends it, streamed: the question, then the finish chunk and [DONE]."""
    messages = [{"role": "user", "content": "turn on the kitchen light"},
                {"role": "assistant", "content": None, "tool_calls": [tool_call_json(
                    "call_1", "set_device", {"device": "light", "room": "kitchen", "state": "on"})]},
                {"role": "tool", "tool_call_id": "call_1", "content": "on"},
                {"role": "assistant", "content": "Okay, the kitchen light is on."},
                {"role": "user", "content": "and the cellar"}]
    chunks = list(server.client().chat.completions.create(model="parley-home", messages=messages, tools=SKILL_TOOLS,
                                                          stream=True))
    assert "".join(c.choices[0].delta.content or "" for c in chunks if c.choices) == "Sorry, there's no cellar I know of."
    assert [c.choices[0].finish_reason for c in chunks if c.choices][-1] == "stop"
    assert not any(c.choices[0].delta.tool_calls for c in chunks if c.choices)


async def test_a_reading_nothing_asked_for_is_no_call_over_the_wire_as_in_process(server):
    """The server drops a reading of a thing that no clause of the words asks about (embedded.reads_unasked), as the
    embedded reply does: "winch the roman blind" read the blind's state; a question still reads the thing."""
    from assistant.remote import RemoteGenerator

    remote = RemoteGenerator(server.url, model="parley-home")
    try:
        calls = {}
        for request in ("winch the roman blind", "the kiln is full of pots", "is the kiln on"):
            home = InMemoryHome(inventory=made_up_inventory())
            events = [event async for event in remote.respond([{"role": "user", "content": request}], ToolRunner(home))]
            calls[request] = [event.call.name for event in events if isinstance(event, ToolCallEvent)]
    finally:
        await remote.aclose()
    assert calls == {"winch the roman blind": [], "the kiln is full of pots": [], "is the kiln on": ["get_state"]}
