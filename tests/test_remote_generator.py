"""RemoteGenerator against a real aiohttp peer on loopback that streams each dialect's documented shape
(tests/chat_peer.py): one-pass replies, second requests with tool results, client tools, the agent loop,
the filler, barge-in, and every failure ending in the fallback or an apology."""
import asyncio
import contextlib

import pytest
from aiohttp import web

from assistant.generator import DoneEvent, TextEvent, ToolCallEvent
from assistant.home import InMemoryHome
from assistant.remote import APOLOGY, CUT_OFF, FILLER, ROUTING_HEADER, CircuitBreaker, RemoteGenerator, completions_url
from assistant.tools import NOT_POSSIBLE, ToolRunner
from chat_peer import GREETING, Peer
from made_up_home import made_up_inventory

WEATHER = {"type": "function", "name": "get_weather", "description": "The weather in a city",
           "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}


@contextlib.asynccontextmanager
async def peer_at(peer: Peer):
    runner = web.AppRunner(peer.app())
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        yield f"http://127.0.0.1:{runner.addresses[0][1]}"
    finally:
        await runner.cleanup()


async def ask(generator, text: str, tools=None, **kwargs) -> list:
    tools = tools or ToolRunner()
    events = [e async for e in generator.respond([{"role": "system", "content": "Be brief."},
                                                  {"role": "user", "content": text}], tools, **kwargs)]
    tools.stop_timers()
    await generator.aclose()
    return events


def said(events) -> str:
    return "".join(e.text for e in events if isinstance(e, TextEvent))


async def test_parley_one_pass_runs_the_tool_and_speaks_without_a_second_request():
    peer = Peer("parley")
    async with peer_at(peer) as url:
        events = await ask(RemoteGenerator(url, model="parley-home"), "What is seven times six?", session_id="sess_x")
    [call] = [e for e in events if isinstance(e, ToolCallEvent)]
    assert (call.call.name, call.call.arguments, call.local, call.result) == ("calculate", {"expression": "7*6"},
                                                                                True, "42")
    assert said(events) == "Seven times six is 42."
    assert len(peer.requests) == 1
    done = events[-1]
    assert isinstance(done, DoneEvent) and done.reply.generator == "remote" and done.reply.fallback is None
    assert (done.reply.prompt_tokens, done.reply.tokens) == (50, 12)
    body, headers = peer.requests[0], peer.headers[0]
    assert body["user"] == "sess_x" and headers[ROUTING_HEADER] == "sess_x"
    assert body["messages"][0] == {"role": "system", "content": "Be brief."} and body["temperature"] == 0


async def test_parley_one_pass_says_a_refusal_instead_of_its_reply():
    peer = Peer("parley")
    async with peer_at(peer) as url:
        events = await ask(RemoteGenerator(url, model="parley-home"), "Set the thermostat to 350.")
    assert [e.result for e in events if isinstance(e, ToolCallEvent)] == [NOT_POSSIBLE]
    assert said(events) == NOT_POSSIBLE and len(peer.requests) == 1


async def test_parley_one_pass_says_the_sentence_that_names_the_heater_once():
    """The default home's thermostat reply around an area's heater: the tool's sentence alone."""
    peer = Peer("parley")
    async with peer_at(peer) as url:
        events = await ask(RemoteGenerator(url, model="parley-home"), "The heater in the sewing room, set it to 19.",
                           tools=ToolRunner(InMemoryHome(inventory=made_up_inventory())))
    assert said(events) == "Okay, the radiant panel is set to 19 degrees." and len(peer.requests) == 1


@pytest.mark.parametrize("dialect", ["sglang", "vllm", "inception", "openai"])
async def test_other_servers_get_the_tool_result_in_a_second_request(dialect):
    peer = Peer(dialect)
    async with peer_at(peer) as url:
        events = await ask(RemoteGenerator(url, model="m", dialect=dialect, api_key="k"), "What is seven times six?")
    assert [e.result for e in events if isinstance(e, ToolCallEvent)] == ["42"]
    assert said(events) == "Done: 42."
    first, second = peer.requests
    assert second["messages"][-2]["tool_calls"][0]["function"]["name"] == "calculate"
    assert second["messages"][-1] == {"role": "tool", "tool_call_id": "call_1", "content": "42"}
    assert peer.headers[0]["Authorization"] == "Bearer k"
    if dialect == "vllm":
        assert "temperature" not in first and "seed" not in first
    if dialect == "inception":
        assert first["realtime"] is True and first["diffusing"] is False and first["messages"][0]["role"] == "system"
    if dialect == "openai":
        assert first["messages"][0]["role"] == "developer"


async def test_a_client_tool_is_handed_to_the_client_and_ends_the_reply():
    peer = Peer("sglang")
    tools = ToolRunner()
    async with peer_at(peer) as url:
        events = await ask(RemoteGenerator(url, model="m", dialect="sglang"), "what's the weather in Paris", tools,
                           client_tools={"get_weather": WEATHER})
    [call] = [e for e in events if isinstance(e, ToolCallEvent)]
    assert (call.call.name, call.call.arguments, call.local) == ("get_weather", {"city": "Paris"}, False)
    assert len(peer.requests) == 1 and said(events) == ""
    offered = [t["function"]["name"] for t in peer.requests[0]["tools"]]
    assert offered[0] == "get_weather" and "set_device" in offered and "calculate" in offered


async def test_the_client_output_comes_back_as_a_tool_message():
    peer = Peer("vllm")
    history = [{"role": "user", "content": "what's the weather in Paris"},
               {"role": "assistant", "content": "", "tool_calls": [{"call_id": "call_w", "name": "get_weather",
                                                                     "arguments": '{"city": "Paris"}'}]},
               {"role": "tool", "content": "sunny, 24 degrees", "call_id": "call_w"}]
    async with peer_at(peer) as url:
        generator = RemoteGenerator(url, model="m", dialect="vllm")
        events = [e async for e in generator.respond(history, ToolRunner(), client_tools={"get_weather": WEATHER})]
        await generator.aclose()
    assert said(events) == "Done: sunny, 24 degrees."


async def test_agent_loop_calls_tools_in_a_row():
    peer = Peer("openai")
    tools = ToolRunner()
    async with peer_at(peer) as url:
        generator = RemoteGenerator(url, model="m", dialect="openai")
        events = [e async for e in generator.respond([{"role": "user", "content": "set a timer then time"}], tools)]
        await generator.aclose()
    assert [e.call.name for e in events if isinstance(e, ToolCallEvent)] == ["set_timer", "get_time"]
    assert tools.timers_running == 1 and len(peer.requests) == 3
    assert said(events).startswith("Done: ")
    tools.stop_timers()


async def test_a_slow_first_word_gets_a_filler_first():
    peer = Peer("parley", hold=asyncio.Event())
    async with peer_at(peer) as url:
        generator = RemoteGenerator(url, model="m", filler_after_s=0.05)
        replies = generator.respond([{"role": "user", "content": "hello"}], ToolRunner())
        first = await anext(replies)
        peer.hold.set()
        rest = [e async for e in replies]
        await generator.aclose()
    assert first == TextEvent(FILLER)
    assert said(rest) == GREETING and rest[-1].reply.text == FILLER + GREETING


async def test_barge_in_cancels_the_request_and_no_tool_runs():
    peer = Peer("parley", hold=asyncio.Event())
    tools = ToolRunner()
    async with peer_at(peer) as url:
        generator = RemoteGenerator(url, model="m", filler_after_s=30)
        replies = generator.respond([{"role": "user", "content": "set a timer then time"}], tools)
        reader = asyncio.ensure_future(anext(replies))
        while not peer.requests:
            await asyncio.sleep(0.01)
        reader.cancel()                       # the session cancels its generate stage
        with contextlib.suppress(asyncio.CancelledError):
            await reader
        await replies.aclose()
        await asyncio.wait_for(peer.disconnected.wait(), 10)
        peer.hold.set()
        await generator.aclose()
    assert tools.timers_running == 0 and len(peer.requests) == 1
    assert generator.breaker.state == "closed"


async def test_without_a_fallback_a_failure_is_an_apology_and_failures_open_the_breaker():
    peer = Peer("parley", fail=["500", "500"])
    async with peer_at(peer) as url:
        generator = RemoteGenerator(url, model="m")
        for _ in range(2):
            events = await ask(generator, "hello")
            assert said(events) == APOLOGY
            assert events[-1].reply.generator == "none" and "HTTP 500: boom" in events[-1].reply.fallback
        assert generator.breaker.state == "open" and not generator.remote_up
        events = await ask(generator, "hello")          # open: the peer is not even asked
    assert len(peer.requests) == 2 and said(events) == APOLOGY
    assert events[-1].reply.fallback == "remote generator down"


async def test_a_429_opens_the_breaker_for_its_retry_after():
    peer = Peer("sglang", fail=["429"])
    async with peer_at(peer) as url:
        generator = RemoteGenerator(url, model="m", dialect="sglang")
        events = await ask(generator, "hello")
    assert "HTTP 429" in events[-1].reply.fallback
    assert generator.breaker.state == "open" and generator.breaker.opened_until - generator.breaker.clock() > 20


async def test_a_reply_cut_off_mid_stream_ends_with_an_apology_not_a_second_reply(assistant):
    peer = Peer("parley", fail=["cut"])
    async with peer_at(peer) as url:
        events = await ask(RemoteGenerator(url, model="m", fallback=assistant), "hello")
    assert said(events) == GREETING + CUT_OFF
    assert events[-1].reply.generator == "remote"


async def test_mercury_drafts_are_refused_and_never_spoken(assistant):
    peer = Peer("inception", fail=["drafts"])
    async with peer_at(peer) as url:
        events = await ask(RemoteGenerator(url, model="mercury-2", dialect="inception", fallback=assistant),
                           "What is seven times six?")
    assert "▒" not in said(events)
    assert events[-1].reply.generator == "embedded" and "draft" in events[-1].reply.fallback
    assert "42" in said(events)


async def test_an_unreachable_remote_falls_back_to_the_embedded_generator(assistant):
    async with peer_at(Peer()) as url:
        pass                                  # the port is free again: nothing listens there
    generator = RemoteGenerator(url, model="m", fallback=assistant)
    events = await ask(generator, "What is seven times six?")
    assert "42" in said(events)
    assert events[-1].reply.generator == "embedded" and "ClientConnectorError" in events[-1].reply.fallback


def test_breaker_opens_cools_down_and_lets_one_trial_through():
    now = [0.0]
    breaker = CircuitBreaker(cooldown_s=5, clock=lambda: now[0])
    breaker.failed()
    assert breaker.state == "closed" and breaker.allow()
    breaker.failed()
    assert breaker.state == "open" and not breaker.allow()
    now[0] = 6
    assert breaker.allow() and breaker.state == "half_open"
    assert not breaker.allow()                 # one trial at a time
    breaker.failed()
    assert breaker.state == "open"             # a failed trial reopens at once
    now[0] = 12
    assert breaker.allow()
    breaker.abandoned()                        # barge-in during the trial: the next reply tries again
    assert breaker.allow()
    breaker.succeeded()
    assert breaker.state == "closed" and breaker.failures == 0


def test_urls():
    assert completions_url("http://gpu:8000") == "http://gpu:8000/v1/chat/completions"
    assert completions_url("http://gpu:8000/v1/") == "http://gpu:8000/v1/chat/completions"
    assert completions_url("https://api.inceptionlabs.ai/v1/chat/completions") == \
        "https://api.inceptionlabs.ai/v1/chat/completions"


def test_serve_flags_configure_the_remote_generator():
    from streaming.server import parse_config

    config = parse_config(["--generator", "http://gpu:8000", "--generator-dialect", "vllm",
                           "--generator-model", "google/diffusiongemma-26B-A4B-it", "--generator-api-key", "k"])
    assert (config.generator, config.generator_dialect, config.generator_model, config.generator_api_key) == (
        "http://gpu:8000", "vllm", "google/diffusiongemma-26B-A4B-it", "k")
    assert parse_config([]).generator is None
    with pytest.raises(SystemExit):
        parse_config(["--generator-dialect", "llama"])
