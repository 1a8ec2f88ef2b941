"""Two real `parley serve` gateways sharing a real Redis behind a real HAProxy (the shipped config): a client
whose gateway is killed resumes its session on the other one, a timer set on a killed gateway rings once on
the survivor, and SIGTERM drains a gateway without cutting a reply short."""
import asyncio

import pytest

from gateways import GatewayProcess, HAProxy
from realtime_client import RealtimeClient
from streaming.store import open_store
from test_resume import ask, reply_text, session_of, tool_calls

pytestmark = pytest.mark.usefixtures("needs_assistant")


@pytest.fixture(scope="module")
def cluster(redis_server, tmp_path_factory):
    workdir = tmp_path_factory.mktemp("gateways")
    gateways = {name: GatewayProcess(name, workdir, redis_server.url, "--drain-timeout", "20") for name in ("gw1", "gw2")}
    for gateway in gateways.values():
        gateway.start()
    haproxy = HAProxy(workdir, gateways["gw1"], gateways["gw2"])
    haproxy.start()
    haproxy.wait_for({"gw1", "gw2"})
    yield haproxy, gateways
    haproxy.stop()
    for gateway in gateways.values():
        gateway.stop()


@pytest.fixture
def both_up(cluster):
    """Every test starts with both gateways running and healthy."""
    haproxy, gateways = cluster
    for gateway in gateways.values():
        if not gateway.running:
            gateway.start()
    haproxy.wait_for({"gw1", "gw2"})
    return haproxy, gateways


async def holder(redis_server, session_id: str) -> str | None:
    store = open_store(redis_server.url)
    try:
        return await store.holder(f"session:{session_id}")
    finally:
        await store.close()


async def wait_held(redis_server, session_id: str, timeout: float = 60, other_than: str | None = None) -> str:
    """The gateway that holds session_id's claim; with other_than, the first other one (a killed gateway's claim
    stays until its TTL runs out)."""
    async with asyncio.timeout(timeout):
        while (name := await holder(redis_server, session_id)) in (None, other_than):
            await asyncio.sleep(0.05)
    return name


async def test_a_client_resumes_on_the_other_gateway_after_its_gateway_is_killed(both_up, redis_server):
    haproxy, gateways = both_up
    client, session_id = await session_of(haproxy)
    first = await ask(client, "turn on the kitchen light")
    assert "kitchen" in reply_text(first).lower()
    home = await wait_held(redis_server, session_id)
    gateways[home].kill()
    await asyncio.wait_for(client.closed.wait(), 10)
    await client.close()

    client, resumed = await session_of(haproxy, f"?session_id={session_id}")
    assert resumed == session_id
    survivor = await wait_held(redis_server, session_id, other_than=home)
    assert survivor in gateways and survivor != home
    await ask(client, "and in the bedroom")
    calls = tool_calls(client)
    assert [c["name"] for c in calls] == ["set_device"] and '"bedroom"' in calls[0]["arguments"], calls
    await client.close()


async def test_a_timer_set_on_a_killed_gateway_rings_once_on_the_survivor(both_up, redis_server):
    haproxy, gateways = both_up
    client, session_id = await session_of(haproxy)
    await ask(client, "set a timer for 5 seconds")
    assert [c["name"] for c in tool_calls(client)] == ["set_timer"]
    home = await wait_held(redis_server, session_id)
    gateways[home].kill()
    await client.close()

    client, _ = await session_of(haproxy, f"?session_id={session_id}")
    assert await wait_held(redis_server, session_id, other_than=home) in gateways
    ring = (await client.wait_for("response.done", timeout=30))["response"]
    assert "time is up" in reply_text(ring).lower() and "5 seconds" in reply_text(ring)
    await asyncio.sleep(2)
    assert len(client.of_type("response.done")) == 1
    await client.close()


async def test_an_alarm_outlives_its_gateway_and_a_stored_timer_that_rang_is_stopped(both_up, redis_server):
    """Alarms are kept where timers are: listed and cancelled on the survivor; a stored timer the survivor rang
    is what "stop" stops."""
    haproxy, gateways = both_up
    client, session_id = await session_of(haproxy)
    await ask(client, "set an alarm for 6:45 am")
    await ask(client, "set a timer for 5 seconds")
    home = await wait_held(redis_server, session_id)
    gateways[home].kill()
    await client.close()

    client, _ = await session_of(haproxy, f"?session_id={session_id}")
    assert await wait_held(redis_server, session_id, other_than=home) in gateways
    await client.wait_for("response.done", timeout=30, where=lambda e: "time is up" in reply_text(e["response"]).lower())
    start = len(client.events)
    assert reply_text(await ask(client, "stop")) == "Okay, the timer is off."
    assert [c["name"] for c in tool_calls(client, start)] == ["stop_ringing"]
    assert reply_text(await ask(client, "what alarms do I have")) == "You have an alarm at 6:45 AM."
    assert reply_text(await ask(client, "cancel my alarm")) == "Okay, your alarm for 6:45 AM is cancelled."
    assert reply_text(await ask(client, "when is my alarm")) == "You have no alarms."
    await client.close()


async def test_sigterm_drains_without_cutting_a_reply_and_new_sessions_go_elsewhere(both_up, redis_server):
    haproxy, gateways = both_up
    client, session_id = await session_of(haproxy)
    home = await wait_held(redis_server, session_id)
    other = next(name for name in gateways if name != home)
    start = len(client.events)
    await client.send({"type": "conversation.item.create", "item": {
        "type": "message", "role": "user", "content": [{"type": "input_text", "text": "what is seven times six"}]}})
    await client.send({"type": "response.create"})            # a spoken reply: it plays at real-time pace
    await client.wait_for("response.output_audio.delta", start=start, timeout=60)
    gateways[home].terminate()

    newcomer, new_id = await session_of(haproxy)             # during the drain: lands on the other gateway
    assert await wait_held(redis_server, new_id) == other
    done = await client.wait_for("response.done", start=start, timeout=60)
    assert done["response"]["status"] == "completed"          # the reply in flight finished whole
    await asyncio.wait_for(client.closed.wait(), 10)          # then the session was closed: going away
    assert client.ws.close_code == 1001
    assert gateways[home].process.wait(30) == 0
    await client.close()

    client, resumed = await session_of(haproxy, f"?session_id={session_id}")
    assert resumed == session_id and await wait_held(redis_server, session_id) == other
    await client.close()
    await newcomer.close()
