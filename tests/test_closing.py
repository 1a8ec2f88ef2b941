"""A gateway's close paths against real servers: a store that hangs while the server stops (a stuck disk), a
real redis-server that stops answering (SIGSTOP) while sessions go on, and a real `parley serve` stopped by
SIGTERM whose SQLite file holds, after a restart, what a client said just before the stop. Each wait is bounded
and no assertion is about how long anything took: what shows a bound held is what had not happened yet when the
wait ended (the disk still stuck, Redis still stopped)."""
import asyncio
import contextlib
import json
import logging
import signal
import sqlite3
import threading

import aiohttp
import pytest

from gateways import GatewayProcess
from phone_callers import until
from realtime_client import RealtimeClient

pytestmark = pytest.mark.usefixtures("needs_assistant")


async def session_of(url: str) -> tuple[RealtimeClient, str]:
    client = await RealtimeClient.connect(url)
    return client, (await client.wait_for("session.created"))["session"]["id"]


async def say(client: RealtimeClient, text: str) -> str:
    """Add a user message to the conversation (no reply); its item id once the server has added it."""
    start = len(client.events)
    await client.send({"type": "conversation.item.create", "item": {
        "type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}})
    return (await client.wait_for("conversation.item.added", start=start))["item"]["id"]


async def stored(store_url: str, session_id: str, field: str = "id") -> list[str]:
    """This field ("id" or "text") of each item of the session's stored conversation."""
    from streaming.store import open_store

    store = open_store(store_url)
    try:
        conversation = await store.load_conversation(session_id)
    finally:
        await store.close()
    return [item[field] for item in conversation.items] if conversation else []


async def until_stored(store_url: str, session_id: str, values: list[str], field: str = "id") -> None:
    """Until the store holds items of the session with these ids (or texts) (bounded: 60 s)."""
    for _ in range(600):
        if set(values) <= set(await stored(store_url, session_id, field)):
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"{values} never stored")


async def health(url: str, path: str) -> tuple[int, dict]:
    async with aiohttp.ClientSession() as http:
        async with http.get(url + path) as response:
            return response.status, await response.json()


async def healthz_once_the_store_is(url: str, state: str) -> int:
    """/healthz's status once it shows the store `state` ("up", "down"); the timer poll finds it out within
    REDIS_CALL_S or SQLITE_CALL_S (a call that gets no answer gives up then). Bounded: 30 s."""
    for _ in range(300):
        status, body = await health(url, "/healthz")
        if body["store"] == state:
            return status
        await asyncio.sleep(0.1)
    raise AssertionError(f"/healthz never showed the store {state}: {body}")


async def a_stored_message_then_a_stuck_store(server, state: str):
    """A client says a message that is stored; then the store's one thread hangs (a stuck disk: the test holds it
    until the returned event is set). Returns the client, its session id, the message's id, the event and the hold."""
    client, session_id = await session_of(server.ws_url)
    said = await say(client, "turn on the kitchen light")
    await until_stored(state, session_id, [said])
    unstuck = threading.Event()
    return client, session_id, said, unstuck, server.ctx.gateway.store._executor.submit(unstuck.wait, 120)


async def test_a_server_whose_store_hangs_at_shutdown_cancels_the_last_save_and_stops(server_factory, tmp_path,
                                                                                      caplog):
    """The SQLite store's thread stops answering (a stuck disk: nothing bounds an SQLite call) while a client is
    connected and the save of its last message waits on it; then the server stops. The session's last write has
    CLOSE_S from the shutdown to land; then the gateway cancels it, says so, and the server stops while the disk
    still hangs. At cfe81dd the shutdown waited on the session's last save for as long as the disk hung (the
    closing socket's handler awaited it, outside the gateway's bound). What landed before stays in the file."""
    state = f"sqlite://{tmp_path}/state.db"
    server = server_factory(store=state)
    client, session_id, said, unstuck, stuck = await a_stored_message_then_a_stuck_store(server, state)
    try:
        await say(client, "and in the bedroom")                 # its save waits on the stuck thread
        with caplog.at_level(logging.WARNING, "parley.gateway"):
            await asyncio.to_thread(server.stop)                  # LiveServer.stop: at most 60 s, or it raises
        assert not stuck.done()                                   # stopped while the store still hung
        assert "saves still writing after 5 s are cancelled" in caplog.text
        assert "closing the store failed: TimeoutError" in caplog.text
    finally:
        unstuck.set()
    await client.close()
    assert client.ws.close_code == 1001
    assert await stored(state, session_id) == [said]



async def test_an_sqlite_store_whose_thread_hangs_shows_down_in_healthz_and_up_once_free(server_factory, tmp_path):
    """Round 37: the SQLite store's thread stops answering (a stuck disk; here the test holds it). At aa99078 nothing
    bounded an SQLite call, so the timer poll waited with it and /healthz showed the store "up" for as long as it
    hung. The poll's call now gives up after SQLITE_CALL_S: /healthz shows the store "down" (200: the process itself
    is fine) while the thread still hangs, and "up" once it is free."""
    server = server_factory(store=f"sqlite://{tmp_path}/state.db")
    try:
        assert await healthz_once_the_store_is(server.url, "up") == 200
        unstuck = threading.Event()
        stuck = server.ctx.gateway.store._executor.submit(unstuck.wait, 120)   # the store's one thread hangs
        try:
            assert await healthz_once_the_store_is(server.url, "down") == 200
            assert not stuck.done()                                           # down while it still hung
        finally:
            unstuck.set()
        assert await healthz_once_the_store_is(server.url, "up") == 200
    finally:
        server.stop()

async def readyz_once(url: str, status: int) -> dict:
    """/readyz's body once it answers `status`; a store call behind it gives up within STORE_TIMEOUT_S. Bounded: 30 s."""
    for _ in range(300):
        answered, body = await health(url, "/readyz")
        if answered == status:
            return body
        await asyncio.sleep(0.1)
    raise AssertionError(f"/readyz never answered {status}: {body}")


async def test_an_sqlite_store_whose_thread_hangs_makes_readyz_503_and_ready_once_free(server_factory, tmp_path):
    """Round 37: /readyz had been checked against a stopped Redis only. The SQLite store's thread stops answering
    (a stuck disk; here the test holds it): /readyz answers 503 `store_unavailable` while the thread still hangs
    (a load balancer sends new sessions elsewhere), and 200 `ready` once it is free."""
    server = server_factory(store=f"sqlite://{tmp_path}/state.db")
    try:
        assert (await readyz_once(server.url, 200))["status"] == "ready"
        unstuck = threading.Event()
        stuck = server.ctx.gateway.store._executor.submit(unstuck.wait, 120)   # the store's one thread hangs
        try:
            assert (await readyz_once(server.url, 503))["status"] == "store_unavailable"
            assert not stuck.done()                                             # refused while it still hung
        finally:
            unstuck.set()
        assert (await readyz_once(server.url, 200))["status"] == "ready"
    finally:
        server.stop()


@contextlib.asynccontextmanager
async def closed_over_a_stuck_store(server, state: str):
    """A stored message, then the store's thread hangs and the client says "and in the bedroom" (its save waits on
    the stuck thread) and closes; yields the session id, the two messages' ids and the hold, freed on the way out."""
    client, session_id, said, unstuck, stuck = await a_stored_message_then_a_stuck_store(server, state)
    try:
        last = await say(client, "and in the bedroom")
        await client.close()
        yield session_id, said, last, stuck
    finally:
        unstuck.set()


async def resumes_with(server, session_id: str, item_id: str, text: str) -> None:
    """A resume of the session is served, and its conversation holds this item with this text."""
    client, resumed = await session_of(f"{server.ws_url}?session_id={session_id}")
    assert resumed == session_id
    await client.send({"type": "conversation.item.retrieve", "item_id": item_id})
    assert (await client.wait_for("conversation.item.retrieved"))["item"]["content"][0]["text"] == text
    await client.close()


async def test_a_closed_sessions_last_save_on_a_stuck_store_goes_on_and_its_resume_is_told_to_retry(
        server_factory, tmp_path, caplog):
    """Round 37: a client closes while the SQLite store's thread hangs (a stuck disk; here the test holds it). At
    7498fe0 the closing connection's handler waited on the session's last save for as long as the store's calls
    took, and a resume meanwhile got `store_unavailable`. The handler now waits at most LAST_SAVE_S and says so
    while the store still hangs; the save goes on as the gateway's task, a resume that finds it still writing is
    refused with 503 `session_saving` (Retry-After) and says why, and once the store is free the last message is
    stored and the session resumes with it."""
    state = f"sqlite://{tmp_path}/state.db"
    server = server_factory(store=state)
    try:
        with caplog.at_level(logging.WARNING, "parley.gateway"):
            async with closed_over_a_stuck_store(server, state) as (session_id, said, last, stuck):
                await until(lambda: "its last save is still writing" in caplog.text, what="the handler let go")
                async with aiohttp.ClientSession() as http:
                    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                        await http.ws_connect(f"{server.ws_url}?session_id={session_id}")
                assert refused.value.status == 503 and "Retry-After" in refused.value.headers
                assert "a resume is refused for now, its last save is still writing" in caplog.text
                assert not stuck.done()                          # all of it while the store still hung
        await until_stored(state, session_id, [said, last])
        await resumes_with(server, session_id, last, "and in the bedroom")
    finally:
        server.stop()


@pytest.fixture
def own_redis(tmp_path):
    """A redis-server of this test's own (the test stops it with SIGSTOP, which no other test must see)."""
    from redis_server import RedisServer

    redis = RedisServer(tmp_path)
    redis.start()
    yield redis
    redis.process.send_signal(signal.SIGCONT)
    redis.stop()


async def test_a_redis_that_stops_answering_bounds_every_call_and_nothing_hangs(server_factory, own_redis):
    """A real redis-server stopped with SIGSTOP (it takes connections and never answers): the connected session
    goes on (a typed turn is answered), a resume gets 503 `store_unavailable`, /readyz 503, /healthz shows the
    store down (200: the process itself is fine); Redis back, /healthz shows it up and what was said meanwhile is
    stored at the next save. Redis stopped again, the server stops all the same."""
    server = server_factory(store=own_redis.url)
    client, session_id = await session_of(server.ws_url)
    said = await say(client, "turn on the kitchen light")
    await until_stored(own_redis.url, session_id, [said])
    own_redis.process.send_signal(signal.SIGSTOP)
    try:
        start = len(client.events)
        await client.send({"type": "conversation.item.create", "item": {
            "type": "message", "role": "user", "content": [{"type": "input_text", "text": "what is seven times six"}]}})
        await client.send({"type": "response.create", "response": {"output_modalities": ["text"]}})
        reply = (await client.wait_for("response.done", start=start))["response"]
        assert reply["status"] == "completed" and "42" in json.dumps(reply["output"]), reply
        meanwhile = [e["item"]["id"] for e in client.of_type("conversation.item.added", start)]

        async with aiohttp.ClientSession() as http:            # a session this gateway does not hold
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await http.ws_connect(f"{server.ws_url}?session_id=sess_held_elsewhere")
        assert refused.value.status == 503
        status, body = await health(server.url, "/readyz")
        assert status == 503 and body["status"] == "store_unavailable"
        assert await healthz_once_the_store_is(server.url, "down") == 200   # the process itself is fine
    finally:
        own_redis.process.send_signal(signal.SIGCONT)
    assert await healthz_once_the_store_is(server.url, "up") == 200
    later = await say(client, "thank you")
    await until_stored(own_redis.url, session_id, [said, *meanwhile, later])

    own_redis.process.send_signal(signal.SIGSTOP)
    await say(client, "good night")
    await asyncio.to_thread(server.stop)       # LiveServer.stop: at most 60 s, or it raises
    await until(lambda: client.closed.is_set(), what="the client's socket closed")
    assert client.ws.close_code == 1001
    own_redis.process.send_signal(signal.SIGCONT)
    assert (await stored(own_redis.url, session_id))[:2 + len(meanwhile)] == [said, *meanwhile, later]
    await client.close()


async def test_a_message_said_just_before_sigterm_is_in_the_sqlite_file_after_a_restart(tmp_path):
    """A real `parley serve` on an SQLite file, stopped with SIGTERM right after a client said something (its save
    may still be on its way): the drain closes the session, its last save lands, the store is closed (SQLite
    folds its write-ahead log into the file and removes it when the last connection closes) and the process
    exits 0; restarted on the same file, the session resumes with the message under the same id."""
    db = tmp_path / "state.db"
    gateway = GatewayProcess("gw1", tmp_path, f"sqlite://{db}")
    gateway.start()
    try:
        client, session_id = await session_of(f"ws://127.0.0.1:{gateway.http}/v1/realtime")
        said = await say(client, "turn on the kitchen light")
        gateway.terminate()
        assert await asyncio.to_thread(gateway.process.wait, 60) == 0
        await client.close()
        assert client.ws.close_code == 1001
        assert not db.with_name("state.db-wal").exists()           # closed: the log folded into the file
        with sqlite3.connect(db) as file:
            items = json.loads(file.execute("SELECT items FROM conversations WHERE id = ?", (session_id,)).fetchone()[0])
        assert [item["id"] for item in items] == [said]

        gateway.start()
        client, resumed = await session_of(f"ws://127.0.0.1:{gateway.http}/v1/realtime?session_id={session_id}")
        assert resumed == session_id
        await client.send({"type": "conversation.item.retrieve", "item_id": said})
        retrieved = (await client.wait_for("conversation.item.retrieved"))["item"]
        assert retrieved["content"][0]["text"] == "turn on the kitchen light"
        await client.close()
    finally:
        gateway.stop()


async def saves_waiting_once(url: str, count: int) -> None:
    """Until /healthz says `count` sessions' last saves wait for the store; a last save on a stuck store fails
    after SQLITE_CALL_S. Bounded: 60 s."""
    for _ in range(600):
        status, body = await health(url, "/healthz")
        if body.get("saves_waiting") == count:
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"/healthz never showed {count} saves waiting: {body}")


async def refusal_of_resume(url: str, session_id: str) -> tuple[int, str]:
    """The status and error code a resume of session_id gets (a plain GET: a refusal comes before the upgrade)."""
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{url}/v1/realtime?session_id={session_id}") as response:
            return response.status, (await response.json())["error"]["code"]


async def test_a_last_save_that_fails_on_a_stuck_store_waits_and_is_stored_once_the_store_is_back(
        server_factory, tmp_path, caplog, monkeypatch):
    """Round 38: a client closes while the SQLite store's thread hangs longer than an SQLite call's bound (a stuck
    disk; here the test holds it), so the session's last save fails. At deb3ced it was logged and lost: once the
    disk was free the store held the older conversation and a resume got it. The save now waits and is tried
    again: /healthz and /metrics say one save waits, a resume meanwhile is refused with 503 `session_saving`, and
    once the store is free the last message is stored and the session resumes with it."""
    monkeypatch.setattr("streaming.store.SQLITE_CALL_S", 3.0)   # a stuck call fails sooner
    state = f"sqlite://{tmp_path}/state.db"
    server = server_factory(store=state)
    try:
        with caplog.at_level(logging.WARNING, "parley.gateway"):
            async with closed_over_a_stuck_store(server, state) as (session_id, said, last, stuck):
                gateway = server.ctx.gateway
                await until(lambda: not server.ctx.sessions and not gateway._detaching, timeout=60,
                            what="the session's last save failed")    # closed, and its last write has ended
                assert await refusal_of_resume(server.url, session_id) == (503, "session_saving")
                assert "its last save failed and waits for the store" in caplog.text
                await saves_waiting_once(server.url, 1)
                async with aiohttp.ClientSession() as http:
                    async with http.get(server.url + "/metrics") as response:
                        assert "parley_store_saves_waiting 1.0" in await response.text()
                assert not stuck.done()                                       # all of it while the store still hung
        await until_stored(state, session_id, [said, last])
        await saves_waiting_once(server.url, 0)
        await resumes_with(server, session_id, last, "and in the bedroom")
    finally:
        server.stop()


async def test_the_waiting_last_saves_are_bounded_the_oldest_dropped_and_counted(server_factory, tmp_path, caplog,
                                                                                 monkeypatch):
    """Round 38: the last saves waiting for a stuck store are bounded (here to one): a second session's failed last
    save drops the first's, which is logged and counted (`parley_store_saves_dropped_total`); the second is stored
    once the store is free. At deb3ced no save waited, so nothing was dropped or counted."""
    monkeypatch.setattr("streaming.gateway.MAX_WAITING_SAVES", 1, raising=False)    # deb3ced has no bound
    monkeypatch.setattr("streaming.store.SQLITE_CALL_S", 3.0)   # a stuck call fails sooner
    state = f"sqlite://{tmp_path}/state.db"
    server = server_factory(store=state)
    try:
        first, first_id = await session_of(server.ws_url)
        second, second_id = await session_of(server.ws_url)
        said = await say(second, "turn on the kitchen light")
        await until_stored(state, second_id, [said])
        unstuck = threading.Event()
        stuck = server.ctx.gateway.store._executor.submit(unstuck.wait, 120)
        try:
            with caplog.at_level(logging.WARNING, "parley.gateway"):
                await say(first, "what time is it")
                await first.close()
                await saves_waiting_once(server.url, 1)
                last = await say(second, "and in the bedroom")
                await second.close()
                await until(lambda: f"session {first_id}: its last save, waiting for the store, is dropped"
                            in caplog.text, timeout=60, what="the oldest waiting save dropped")
                await saves_waiting_once(server.url, 1)
                async with aiohttp.ClientSession() as http:
                    async with http.get(server.url + "/metrics") as response:
                        assert "parley_store_saves_dropped_total 1.0" in await response.text()
                assert not stuck.done()
        finally:
            unstuck.set()
        await until_stored(state, second_id, [said, last])
        await saves_waiting_once(server.url, 0)
    finally:
        server.stop()


async def test_a_waiting_last_save_gets_one_last_try_at_shutdown(server_factory, tmp_path, monkeypatch):
    """Round 38: a session's last save failed on a stuck store and waits, its next try far off (here the pause
    between tries is 300 s); the store comes back and the server stops before that try. The shutdown tries the
    waiting save once more, within its bound, so the last message is in the file. At deb3ced it was lost."""
    monkeypatch.setattr("streaming.gateway.RETRY_FIRST_S", 300.0, raising=False)    # deb3ced has no retry
    monkeypatch.setattr("streaming.store.SQLITE_CALL_S", 3.0)   # a stuck call fails sooner
    state = f"sqlite://{tmp_path}/state.db"
    server = server_factory(store=state)
    client, session_id, said, unstuck, stuck = await a_stored_message_then_a_stuck_store(server, state)
    try:
        last = await say(client, "and in the bedroom")
        await client.close()
        gateway = server.ctx.gateway
        await until(lambda: not server.ctx.sessions and not gateway._detaching, timeout=60,
                    what="the session's last save failed")            # closed, and its last write has ended
    finally:
        unstuck.set()
    await asyncio.wrap_future(stuck)
    assert await stored(state, session_id) == [said]       # free, and the next try is still far off
    await asyncio.to_thread(server.stop)
    assert await stored(state, session_id) == [said, last]


async def test_a_satellite_whose_last_save_waits_is_told_session_saving_and_served_once_stored(
        server_factory, broker, tmp_path, monkeypatch):
    """Round 38: the MQTT satellite door resumes the device's conversation too. A device goes offline while the
    SQLite store's thread hangs (a stuck disk; here the test holds it), so its session's last save fails and
    waits; the device asks again meanwhile and gets an `error` event `session_saving` (at deb3ced the refusal was
    only logged and the device heard nothing). Once the store is free its words are stored and it is served with
    them."""
    from mqtt_broker import USERS
    from mqtt_devices import SatelliteDevice
    from streaming.server import parse_config
    from streaming.transports.mqtt.satellite import SATELLITES

    monkeypatch.setattr("streaming.store.SQLITE_CALL_S", 3.0)   # a stuck call fails sooner
    state = f"sqlite://{tmp_path}/state.db"
    options = parse_config(["--mqtt-host", broker.host, "--mqtt-port", str(broker.port), "--mqtt-username", "parley",
                            "--mqtt-password", USERS["parley"], "--wyoming-port", "0", "--audiosocket-port", "off"]).options
    server = server_factory(store=state, options=options)
    try:
        await asyncio.wait_for(asyncio.wrap_future(asyncio.run_coroutine_threadsafe(
            server.app[SATELLITES].connected.wait(), server.loop)), 10)
        async with SatelliteDevice(broker, "kitchen") as device:
            await device.publish("text/in", "what is seven times six")
            assert "42" in (await device.next_event("reply"))["text"]
            await until_stored(state, "dev_kitchen", ["what is seven times six"], "text")
            unstuck = threading.Event()
            stuck = server.ctx.gateway.store._executor.submit(unstuck.wait, 120)
            try:
                await device.publish("text/in", "what is six times seven")
                assert "42" in (await device.next_event("reply"))["text"]
                await device.publish("status", "offline")
                gateway = server.ctx.gateway
                await until(lambda: not server.ctx.sessions and not gateway._detaching, timeout=60,
                            what="the session's last save failed")    # closed, and its last write has ended
                await device.publish("text/in", "what is two times two")
                assert (await device.next_event("error"))["code"] == "session_saving"
                assert not stuck.done()
            finally:
                unstuck.set()
            await until_stored(state, "dev_kitchen", ["what is six times seven"], "text")
            await device.publish("text/in", "what is two times two")
            assert "4" in (await device.next_event("reply"))["text"]
            await until_stored(state, "dev_kitchen", ["what is two times two"], "text")
        texts = await stored(state, "dev_kitchen", "text")      # the served session resumed with the waiting words
        assert texts.index("what is six times seven") < texts.index("what is two times two")
    finally:
        server.stop()



@contextlib.asynccontextmanager
async def a_served_satellite_beside_one_whose_resume_waits(server_factory, broker, tmp_path, monkeypatch):
    """A server whose satellites are the bedroom (served, its session open) and the kitchen, whose first request
    resumes `dev_kitchen` while the SQLite store's one thread hangs (a stuck disk; here the test holds it until the
    yielded event is set), the resume held past the test's waits. Yields the server, both devices, the event and
    the hold; all of it ends with the block."""
    from mqtt_broker import USERS
    from mqtt_devices import SatelliteDevice
    from streaming.server import parse_config
    from streaming.transports.mqtt.satellite import SATELLITES

    monkeypatch.setattr("streaming.store.SQLITE_CALL_S", 60.0)   # the kitchen's resume stays held ...
    monkeypatch.setattr("streaming.server.HANDOVER_S", 60.0)     # ... past the door's bound on it too
    options = parse_config(["--mqtt-host", broker.host, "--mqtt-port", str(broker.port), "--mqtt-username", "parley",
                            "--mqtt-password", USERS["parley"], "--wyoming-port", "0", "--audiosocket-port", "off"]).options
    server = server_factory(store=f"sqlite://{tmp_path}/state.db", options=options)
    unstuck = threading.Event()
    try:
        await asyncio.wait_for(asyncio.wrap_future(asyncio.run_coroutine_threadsafe(
            server.app[SATELLITES].connected.wait(), server.loop)), 10)
        async with SatelliteDevice(broker, "bedroom") as bedroom, SatelliteDevice(broker, "kitchen") as kitchen:
            await bedroom.publish("text/in", "what is seven times six")
            assert "42" in (await bedroom.next_event("reply"))["text"]
            stuck = server.ctx.gateway.store._executor.submit(unstuck.wait, 120)
            await kitchen.publish("text/in", "what is two times two")      # acknowledged: the broker has it first
            yield server, bedroom, kitchen, unstuck, stuck
    finally:
        unstuck.set()
        server.stop()


async def test_a_satellite_is_answered_while_another_devices_resume_waits_on_a_stuck_store(
        server_factory, broker, tmp_path, monkeypatch):
    """Round 38: the satellite service handled one broker message at a time, so at 240c6b8 the kitchen's resume,
    waiting on a stuck store, held the bedroom's request until it gave up (up to 4 s: the door's bound). Each
    device now has its own worker: the bedroom is answered while the kitchen's resume still waits and the
    kitchen has heard nothing yet; once the store is free the kitchen is served too, its request not lost."""
    from streaming.transports.mqtt.satellite import SATELLITES

    async with a_served_satellite_beside_one_whose_resume_waits(server_factory, broker, tmp_path, monkeypatch) as (
            server, bedroom, kitchen, unstuck, stuck):
        await bedroom.publish("text/in", "what is six times seven")
        assert "42" in (await bedroom.next_event("reply", 30))["text"]
        assert kitchen.events.empty()                             # the kitchen's request still waits ...
        assert "kitchen" not in server.app[SATELLITES].satellites
        assert not stuck.done()                                   # ... on the store, which still hangs
        unstuck.set()
        assert "4" in (await kitchen.next_event("reply"))["text"]


async def test_a_satellite_whose_messages_pile_up_is_told_and_its_excess_dropped_and_counted(
        server_factory, broker, tmp_path, monkeypatch):
    """Round 38: a device's messages wait for its worker in an inbox of at most MAX_QUEUED (here 3). The kitchen,
    its resume waiting on a stuck store, sends five more messages: three wait, the other two are dropped, counted
    in /metrics, and the kitchen gets one `error` event `too_many_messages`; once the store is free the waiting
    ones are handled in order after its request. At 240c6b8 nothing was queued per device or dropped."""
    monkeypatch.setattr("streaming.transports.mqtt.satellite.MAX_QUEUED", 3, raising=False)   # 240c6b8 has none
    async with a_served_satellite_beside_one_whose_resume_waits(server_factory, broker, tmp_path, monkeypatch) as (
            server, bedroom, kitchen, unstuck, stuck):
        await bedroom.publish("text/in", "what is six times seven")     # answered: the kitchen's worker holds
        assert "42" in (await bedroom.next_event("reply", 30))["text"]   # its request, in the resume, by now
        for _ in range(5):
            await kitchen.publish("control", b"{oops")
        error = await kitchen.next_event("error", 30)
        assert error["code"] == "too_many_messages" and "3 messages" in error["message"], error
        async with aiohttp.ClientSession() as http:
            async with http.get(server.url + "/metrics") as response:
                assert "parley_satellite_messages_dropped_total 2.0" in await response.text()
        assert not stuck.done()
        unstuck.set()
        events = await kitchen.events_until("reply", 60)
        errors = [e["code"] for e in events if e["type"] == "error"]
        assert errors == ["invalid_json"] * 3, events                    # the three that waited, told once
        assert "4" in events[-1]["text"]


async def resumed_whole(ws_url: str, session_id: str, items: dict[str, str]) -> None:
    """A resume of the session is served with each of these items (id: text)."""
    client, resumed = await session_of(f"{ws_url}?session_id={session_id}")
    try:
        assert resumed == session_id
        for item_id, text in items.items():
            start = len(client.events)
            await client.send({"type": "conversation.item.retrieve", "item_id": item_id})
            retrieved = (await client.wait_for("conversation.item.retrieved", start=start))["item"]
            assert (retrieved["id"], retrieved["content"][0]["text"]) == (item_id, text)
    finally:
        await client.close()


@contextlib.asynccontextmanager
async def a_last_save_held_by_a_stopped_redis(gateway: GatewayProcess, redis):
    """The gateway, a real `parley serve` on a real Redis, is started; a client says a message that is stored,
    Redis stops answering (SIGSTOP), the client says another and closes. Yields the session id and the two
    messages' ids while Redis is still stopped; Redis goes on on the way out."""
    gateway.start()
    client, session_id = await session_of(f"ws://127.0.0.1:{gateway.http}/v1/realtime")
    said = await say(client, "turn on the kitchen light")
    await until_stored(redis.url, session_id, [said])
    redis.process.send_signal(signal.SIGSTOP)
    try:
        last = await say(client, "and in the bedroom")
        await client.close()
        yield session_id, said, last
    finally:
        redis.process.send_signal(signal.SIGCONT)


@contextlib.asynccontextmanager
async def killed_while_a_last_save_waits(gateway: GatewayProcess, redis):
    """A last save held by a stopped Redis; once /healthz shows it waiting (it failed after REDIS_CALL_S), the
    gateway is killed with SIGKILL. Yields the session id and the two messages' ids while Redis is still stopped."""
    async with a_last_save_held_by_a_stopped_redis(gateway, redis) as (session_id, said, last):
        await saves_waiting_once(gateway.url, 1)
        gateway.kill()
        yield session_id, said, last


async def test_a_gateway_killed_while_a_last_save_waits_leaves_it_to_the_next_one_on_its_state_dir(tmp_path,
                                                                                                    own_redis):
    """Round 39: a gateway is killed (SIGKILL) while a closed session's last save waits for a stuck store. At
    2a69232 the waiting save lived in the gateway's memory only and died with it: the next gateway resumed the
    conversation without its last message. The save is now spooled in the gateway's state dir: a new gateway
    started on it, with the store back, writes it, and the session resumes whole."""
    gateway = GatewayProcess("gw1", tmp_path, own_redis.url)
    try:
        async with killed_while_a_last_save_waits(gateway, own_redis) as (session_id, said, last):
            pass
        assert await stored(own_redis.url, session_id) == [said]       # the store lacks the last message
        gateway.start()
        await until_stored(own_redis.url, session_id, [said, last])
        await saves_waiting_once(gateway.url, 0)          # stored, and no longer waiting here
        await resumed_whole(f"ws://127.0.0.1:{gateway.http}/v1/realtime", session_id,
                            {said: "turn on the kitchen light", last: "and in the bedroom"})
    finally:
        gateway.stop()


async def test_a_gateway_restarted_while_the_store_is_still_stuck_counts_the_spooled_save_and_refuses_its_resume(
        tmp_path, own_redis):
    """Round 39: a gateway killed while a last save waits, restarted on its state dir while the store still does
    not answer: the save it left in the spool waits in the new gateway (/healthz and /metrics count it), a resume
    of its session is refused with 503 `session_saving`, never answered with the older conversation; once the
    store is back the save is written and the session resumes whole. At 2a69232 nothing waited after the restart."""
    gateway = GatewayProcess("gw1", tmp_path, own_redis.url)
    try:
        async with killed_while_a_last_save_waits(gateway, own_redis) as (session_id, said, last):
            gateway.start()
            await saves_waiting_once(gateway.url, 1)
            async with aiohttp.ClientSession() as http:
                async with http.get(gateway.url + "/metrics") as response:
                    assert "parley_store_saves_waiting 1.0" in await response.text()
            assert await refusal_of_resume(gateway.url, session_id) == (503, "session_saving")
        await until_stored(own_redis.url, session_id, [said, last])
        await saves_waiting_once(gateway.url, 0)
        await resumed_whole(f"ws://127.0.0.1:{gateway.http}/v1/realtime", session_id,
                            {said: "turn on the kitchen light", last: "and in the bedroom"})
    finally:
        gateway.stop()


def spooled_files(gateway: GatewayProcess) -> list:
    """The saves in the gateway's spool (its state dir's `spool/<store>/*.json`)."""
    return sorted(gateway.state_dir.glob("spool/*/*.json"))


@contextlib.asynccontextmanager
async def a_last_save_in_its_first_try(gateway: GatewayProcess, redis):
    """A last save held by a stopped Redis. Yields the session id and the two messages' ids once the save is in the
    spool, while Redis is still stopped. The save is then in its first try: a save of the session fails only after
    REDIS_CALL_S."""
    async with a_last_save_held_by_a_stopped_redis(gateway, redis) as (session_id, said, last):
        await until(lambda: spooled_files(gateway), timeout=60, what="the last save in the spool")
        yield session_id, said, last


async def test_a_gateway_killed_while_a_last_save_is_in_its_first_try_leaves_it_to_the_next_one(tmp_path,
                                                                                                 own_redis):
    """Round 40: a gateway is killed (SIGKILL) while a closed session's last save is in its first try, held by a
    stuck store (Redis stopped), before any save of the session has failed. At fb6c30e only a save whose first try
    had failed was spooled (after REDIS_CALL_S, twice here: the message's own save, then the last one), so such a
    kill lost it. The last save is now spooled as its first try starts: a new gateway started on the same state
    dir, with the store back, writes it, the session resumes whole, and the spool file goes once it is stored."""
    gateway = GatewayProcess("gw1", tmp_path, own_redis.url)
    try:
        async with a_last_save_in_its_first_try(gateway, own_redis) as (session_id, said, last):
            gateway.kill()
            assert f"saving session {session_id} failed" not in gateway.log.read_text(), \
                "the last save reached the spool only after a save of the session had failed"
        assert await stored(own_redis.url, session_id) == [said]       # the store lacks the last message
        gateway.start()
        await until_stored(own_redis.url, session_id, [said, last])
        await saves_waiting_once(gateway.url, 0)          # stored, and no longer waiting here
        await resumed_whole(f"ws://127.0.0.1:{gateway.http}/v1/realtime", session_id,
                            {said: "turn on the kitchen light", last: "and in the bedroom"})
        await until(lambda: not spooled_files(gateway), timeout=60, what="the spooled save removed")
    finally:
        gateway.stop()


async def test_a_spooled_save_the_store_already_holds_is_written_again_and_the_newest_conversation_kept(
        tmp_path, own_redis):
    """Round 40: the first try of a last save lands just before a kill, so its file is still in the spool (played
    here by putting back a copy taken while the first try was held). Meanwhile the session was resumed and said
    more. The next gateway started on the state dir writes the old save again; the store's fence (the old save's
    generation is not the newest) keeps the newer conversation: every message once, in order."""
    gateway = GatewayProcess("gw1", tmp_path, own_redis.url)
    try:
        async with a_last_save_in_its_first_try(gateway, own_redis) as (session_id, said, last):
            [spooled] = spooled_files(gateway)
            copy = spooled.read_bytes()
        await until_stored(own_redis.url, session_id, [said, last])        # the first try lands
        await until(lambda: not spooled_files(gateway), timeout=60, what="the spooled save removed once stored")
        await saves_waiting_once(gateway.url, 0)
        client, resumed = await session_of(f"ws://127.0.0.1:{gateway.http}/v1/realtime?session_id={session_id}")
        assert resumed == session_id
        newer = await say(client, "and dim the hall")
        await client.close()
        await until_stored(own_redis.url, session_id, [said, last, newer])
        gateway.kill()
        spooled.write_bytes(copy)
        gateway.start()
        await until(lambda: not spooled_files(gateway), timeout=60, what="the old save written and its file removed")
        assert "1 last saves left in the spool by an earlier gateway" in gateway.log.read_text()
        assert await stored(own_redis.url, session_id) == [said, last, newer]
        await resumed_whole(f"ws://127.0.0.1:{gateway.http}/v1/realtime", session_id,
                            {said: "turn on the kitchen light", last: "and in the bedroom", newer: "and dim the hall"})
    finally:
        gateway.stop()


async def test_a_stuck_spool_disk_does_not_hold_a_last_save_the_store_takes(server_factory, tmp_path,
                                                                            monkeypatch):
    """Round 40: every last save is now spooled as its first try starts; the spool's disk is stuck (here the test
    holds the spool's thread, and a spool write is awaited far longer than the test waits) while the store is well.
    The store's write is not held behind the spool's: the last message is stored and the session resumes with it
    while the spool's disk is still stuck; once it is free the spool holds no file."""
    monkeypatch.setattr("streaming.spool.SPOOL_CALL_S", 3600.0)
    state = f"sqlite://{tmp_path}/state.db"
    server = server_factory(store=state, state_dir=tmp_path / "state")
    unstuck = threading.Event()
    stuck = asyncio.wrap_future(server.ctx.gateway._spool._worker.submit(unstuck.wait))
    try:
        client, session_id = await session_of(server.ws_url)
        said = await say(client, "turn on the kitchen light")
        await client.close()
        await until_stored(state, session_id, [said])
        await resumes_with(server, session_id, said, "turn on the kitchen light")
        assert not stuck.done()                                        # all of it while the spool's disk hung
    finally:
        unstuck.set()
    spool = server.ctx.gateway._spool.directory
    try:
        await until(lambda: not list(spool.glob("*.json")), timeout=60, what="the spool emptied")
    finally:
        server.stop()


async def test_a_spool_file_that_cannot_be_read_is_set_aside_and_the_gateway_serves(server_factory, tmp_path,
                                                                                      caplog):
    """Round 39: the spool of a gateway's state dir holds a file that is not a whole save (a disk error, an edit)
    and a temporary file of a write a kill cut short. The gateway logs the first and renames it (`.corrupt`, kept
    for the operator), removes the second, waits for no save, and serves."""
    from streaming.spool import Spool

    state = f"sqlite://{tmp_path}/state.db"
    spool = await Spool.opened(tmp_path, state, 1, 1)
    spool.close()
    (spool.directory / "0123abcd.json").write_bytes(b'{"session_id": "sess_1", "items": [')
    (spool.directory / "tmpx1y2.tmp").write_bytes(b'{"session_id"')
    with caplog.at_level(logging.ERROR, "parley.spool"):
        server = server_factory(store=state, state_dir=tmp_path)
    try:
        assert "spooled save 0123abcd.json cannot be read" in caplog.text
        assert sorted(path.name for path in spool.directory.iterdir()) == ["0123abcd.corrupt", "lock"]
        status, body = await health(server.url, "/healthz")
        assert (status, body["saves_waiting"]) == (200, 0)
        client, session_id = await session_of(server.ws_url)
        said = await say(client, "turn on the kitchen light")
        await until_stored(state, session_id, [said])
        await client.close()
    finally:
        server.stop()


async def test_a_gateway_stopped_while_redis_is_stopped_says_its_waiting_save_stays_in_the_spool_for_the_next_start(
        tmp_path, own_redis):
    """A last save waits for a Redis stopped with SIGSTOP, and the gateway gets SIGTERM: its last try at the close
    is a Redis call whose bound (REDIS_CALL_S) is the close's own (CLOSE_S), so the close cut it off mid-call. At
    fb6c30e the log then said only that a save still writing was cancelled and its session may lack its last items
    (twice), never that the save stays in the spool; now it says so, once, and the next start stores it."""
    gateway = GatewayProcess("gw1", tmp_path, own_redis.url)
    try:
        async with a_last_save_held_by_a_stopped_redis(gateway, own_redis) as (session_id, said, last):
            await saves_waiting_once(gateway.url, 1)
            offset = gateway.log.stat().st_size
            gateway.terminate()
            assert await asyncio.to_thread(gateway.process.wait, 120) == 0
        log = gateway.log.read_bytes()[offset:].decode(errors="replace")
        assert "closing: 1 last saves still wait for the store; they stay in the spool for the next start" in log
        assert log.count("still writing after") <= 1
        assert await stored(own_redis.url, session_id) == [said]       # the store lacks the last message
        gateway.start()
        await until_stored(own_redis.url, session_id, [said, last])
    finally:
        gateway.stop()


async def test_session_ends_a_full_spool_refuses_are_logged_once_counted_and_shown_while_redis_is_stopped(
        server_factory, tmp_path, own_redis, caplog, monkeypatch):
    """Redis is stopped (SIGSTOP: every session's last save is in its first try, at risk until the store takes it)
    and the spool's disk is stuck (here the test holds the spool's thread) while six sessions end; the spool's bound
    of writes not done yet is four (twice the waiting saves' bound, here two). At 216f494 the last two ends were
    not spooled and nothing said so. Now the first refusal is logged once for the whole time the spool stays full,
    each is counted (`parley_store_saves_unspooled_total`) and /healthz shows `"spool": "full"` (200: the process
    itself is fine); once the disk and Redis are back, the next session end is spooled and the log says how many
    were not meanwhile."""
    monkeypatch.setattr("streaming.gateway.MAX_WAITING_SAVES", 2)
    server = server_factory(store=own_redis.url, state_dir=tmp_path / "state")
    gateway = server.ctx.gateway
    try:
        sessions = [await session_of(server.ws_url) for _ in range(7)]
        await until(lambda: not any(held.saver is None or not held.saver.done() for held in gateway.held.values()),
                    timeout=60, what="the sessions' first saves landed")
        own_redis.process.send_signal(signal.SIGSTOP)
        unstuck = threading.Event()
        stuck = asyncio.wrap_future(gateway._spool._worker.submit(unstuck.wait, 120))
        try:
            with caplog.at_level(logging.WARNING, "parley.gateway"):
                for client, _ in sessions[:6]:
                    await client.close()
                for _ in range(600):                      # bounded: 60 s
                    status, body = await health(server.url, "/healthz")
                    async with aiohttp.ClientSession() as http:
                        async with http.get(server.url + "/metrics") as response:
                            counted = "parley_store_saves_unspooled_total 2.0" in await response.text()
                    if body.get("spool") == "full" and counted:
                        break
                    await asyncio.sleep(0.1)
                assert (status, body.get("spool"), counted) == (200, "full", True), body
                assert caplog.text.count("the spool is full") == 1
                assert not stuck.done()                                       # all of it while the disk still hung
        finally:
            unstuck.set()
            own_redis.process.send_signal(signal.SIGCONT)
        await until(lambda: not gateway._tasks and not gateway.waiting, timeout=60,
                    what="the saves stored and the spool's writes done")
        with caplog.at_level(logging.WARNING, "parley.gateway"):
            await sessions[6][0].close()
            await until(lambda: "the spool takes session ends again; 2 were not spooled while it was full"
                        in caplog.text, timeout=60, what="the spool taking session ends again")
        status, body = await health(server.url, "/healthz")
        assert (status, body.get("spool")) == (200, "ok")
    finally:
        server.stop()
