"""Resumable sessions and stored timers on one gateway with an SQLite file: a client that reconnects with
its session id gets its conversation back (same item ids), a restart keeps conversations and pending timers,
and a timer that came due while nobody was connected is told at the next reply. Two gateways sharing a store
(one SQLite file, or Redis): a resume on the second waits for the first's last write, and a write of the first
that comes later still replaces nothing and loses nothing."""
import asyncio
import json
import logging
import re

import pytest

from realtime_client import RealtimeClient

pytestmark = pytest.mark.usefixtures("needs_assistant")


async def ask(client: RealtimeClient, text: str) -> dict:
    start = len(client.events)
    await client.send({"type": "conversation.item.create", "item": {
        "type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}})
    await client.send({"type": "response.create", "response": {"output_modalities": ["text"]}})
    return (await client.wait_for("response.done", start=start, timeout=60))["response"]


def tool_calls(client: RealtimeClient, start: int = 0) -> list[dict]:
    return [e["item"] for e in client.of_type("conversation.item.added", start) if e["item"]["type"] == "function_call"]


def reply_text(response: dict) -> str:
    content = response["output"][0]["content"][0]
    return content.get("text") or content.get("transcript") or ""


async def session_of(server, query: str = "", **kwargs) -> tuple[RealtimeClient, str]:
    client = await RealtimeClient.connect(server.ws_url + query, **kwargs)
    created = await client.wait_for("session.created")
    return client, created["session"]["id"]


@pytest.fixture
def state_db(tmp_path):
    return f"sqlite://{tmp_path}/state.db"


async def test_a_resumed_session_keeps_its_conversation_across_a_restart(server_factory, state_db):
    server = server_factory(store=state_db)
    client, session_id = await session_of(server)
    first = await ask(client, "turn on the kitchen light")
    assert first["status"] == "completed"
    assert [c["name"] for c in tool_calls(client)] == ["set_device"]
    user_item = client.of_type("conversation.item.added")[0]["item"]["id"]
    await client.close()
    server.stop()

    restarted = server_factory(store=state_db)
    client, resumed = await session_of(restarted, f"?session_id={session_id}")
    assert resumed == session_id
    follow_up = await ask(client, "and in the bedroom")
    calls = tool_calls(client)
    assert [c["name"] for c in calls] == ["set_device"] and '"bedroom"' in calls[0]["arguments"], calls
    assert "bedroom" in reply_text(follow_up).lower()
    await client.send({"type": "conversation.item.retrieve", "item_id": user_item})   # one history, same ids
    retrieved = (await client.wait_for("conversation.item.retrieved"))["item"]
    assert retrieved["content"][0]["text"] == "turn on the kitchen light"
    await client.close()

    stranger, other = await session_of(restarted, "?session_id=sess_that_never_was")
    assert other != "sess_that_never_was"
    await stranger.close()


async def test_a_pending_timer_rings_once_after_a_restart(server_factory, state_db):
    server = server_factory(store=state_db)
    client, session_id = await session_of(server)
    await ask(client, "set a timer for 4 seconds")
    assert [c["name"] for c in tool_calls(client)] == ["set_timer"]
    await client.close()
    server.stop()

    restarted = server_factory(store=state_db)
    client, _ = await session_of(restarted, f"?session_id={session_id}")
    ring = (await client.wait_for("response.done", timeout=30))["response"]
    assert "time is up" in reply_text(ring).lower()
    await asyncio.sleep(1.5)
    assert len(client.of_type("response.done")) == 1          # exactly once
    await client.close()


async def test_a_named_timer_is_stored_asked_about_and_rung_by_name_after_a_restart(server_factory, state_db):
    server = server_factory(store=state_db)
    client, session_id = await session_of(server)
    await ask(client, "set a pasta timer for 15 seconds")
    assert [c["name"] for c in tool_calls(client)] == ["start_timer"]
    await client.close()
    server.stop()

    restarted = server_factory(store=state_db)
    client, _ = await session_of(restarted, f"?session_id={session_id}")
    left = await ask(client, "how long is left on the pasta timer")
    assert re.fullmatch(r"There's \d+ seconds? on the pasta timer\.", reply_text(left)), reply_text(left)
    ring = (await client.wait_for("response.done", start=len(client.events), timeout=60))["response"]
    assert reply_text(ring) == "Time is up: your pasta timer is done."
    await client.close()


async def test_a_timer_due_while_away_is_told_at_the_next_reply(server_factory, state_db):
    server = server_factory(store=state_db)
    client, session_id = await session_of(server)
    await ask(client, "set a timer for 2 seconds")
    await client.close()
    await asyncio.sleep(3)                       # due while nobody holds the session: recorded as missed
    client, _ = await session_of(server, f"?session_id={session_id}")
    await asyncio.sleep(0.6)
    reply = await ask(client, "what is two plus two")
    assert reply_text(reply).startswith("While you were away, your timer for 2 seconds finished."), reply_text(reply)
    assert "4" in reply_text(reply) or "four" in reply_text(reply).lower()
    assert len(client.of_type("response.done")) == 1
    await client.close()


async def test_a_follow_up_after_a_restart_resolves_against_the_stored_conversation(server_factory, state_db):
    """The conversation state is the stored history's calls: "turn it off", three turns after the light and
    on a restarted gateway, still means the kitchen light."""
    server = server_factory(store=state_db)
    client, session_id = await session_of(server)
    await ask(client, "turn on the kitchen light")
    await ask(client, "what's seven times six")
    await ask(client, "how many feet in ten meters")
    assert [c["name"] for c in tool_calls(client)] == ["set_device", "calculate", "convert"]
    await client.close()
    server.stop()

    restarted = server_factory(store=state_db)
    client, _ = await session_of(restarted, f"?session_id={session_id}")
    await ask(client, "turn it off")
    calls = tool_calls(client)
    assert [c["name"] for c in calls] == ["set_device"], calls
    assert json.loads(calls[0]["arguments"]) == {"device": "light", "room": "kitchen", "state": "off"}
    await client.close()


async def stored_user_text(store_url: str, session_id: str, item_id: str, timeout: float = 60) -> str:
    """The stored text of a user item, once the gateway has saved it (a session's last save is at its end)."""
    from streaming.store import open_store

    store = open_store(store_url)
    try:
        async with asyncio.timeout(timeout):
            while True:
                conversation = await store.load_conversation(session_id)
                item = next((i for i in conversation.items if i["id"] == item_id), None) if conversation else None
                if item is not None and item["text"]:
                    return item["text"]
                await asyncio.sleep(0.1)
    finally:
        await store.close()


async def test_words_said_before_a_hang_up_mid_turn_are_kept_in_the_conversation(server_factory, state_db, speech):
    """The client hangs up while the user is still talking (no pause yet, so the turn has not ended): what was
    said is transcribed into the stored conversation, and a resumed session finds it under the same id."""
    server = server_factory(store=state_db)
    client, session_id = await session_of(server)
    await client.stream_audio(speech.piper("Please turn on the kitchen light.", tail_ms=0), 24000)
    item_id = (await client.wait_for("input_audio_buffer.speech_started"))["item_id"]
    await client.close()
    assert not client.of_type("input_audio_buffer.speech_stopped")          # the turn was still open
    assert "kitchen light" in (await stored_user_text(state_db, session_id, item_id)).lower()

    client, resumed = await session_of(server, f"?session_id={session_id}")
    assert resumed == session_id
    await client.send({"type": "conversation.item.retrieve", "item_id": item_id})
    retrieved = (await client.wait_for("conversation.item.retrieved"))["item"]
    assert retrieved["role"] == "user" and "kitchen light" in json.dumps(retrieved).lower(), retrieved
    await client.close()


async def test_a_second_detach_returns_once_the_first_has_stored_the_sessions_last_items(engines, tmp_path):
    """A client resuming a session still live here and the session's old socket each detach it: whichever comes
    second returns only once the last items are stored (within LAST_SAVE_S, as this store answers; a slower save
    gives the resume 503 session_saving instead), so the resumed session reads them."""
    from streaming.gateway import Gateway
    from streaming.session import Session, SessionConfig
    from streaming.store import open_store

    gateway = Gateway(open_store(f"sqlite://{tmp_path}/state.db"))
    session = Session(engines, SessionConfig(turn_detection=None))
    await session.start()
    gateway.attach(session, "a principal", gateway.timers_for(session.id))
    said = [session.add_message("user", f"message {n}") for n in range(3)]
    first = asyncio.create_task(gateway.detach(session))
    await asyncio.sleep(0)                       # the first detach has taken the session and is writing
    await gateway.detach(session)
    assert first.done()
    stored = await gateway.store.load_conversation(session.id)
    assert [item["id"] for item in stored.items][-3:] == said
    await session.close()
    await gateway.close()


async def test_a_client_back_while_its_old_session_is_still_being_stored_resumes_every_item(engines, tmp_path):
    """The old socket's handler has begun the detach (the session has left the gateway's hands) and an earlier
    save, of an older history, is still writing when the client comes back: the resume reads the store only once
    the detach has written the last items. Another writer holding the file keeps every store call queued until
    the resume has asked, so the order is the same on every run."""
    import sqlite3

    from streaming.gateway import Gateway
    from streaming.session import Session, SessionConfig
    from streaming.store import open_store

    gateway = Gateway(open_store(f"sqlite://{tmp_path}/state.db"))
    assert await gateway.store.load_conversation("sess_none") is None      # the file and its tables exist
    other_writer = sqlite3.connect(tmp_path / "state.db", isolation_level=None)
    other_writer.execute("BEGIN IMMEDIATE")
    session = Session(engines, SessionConfig(turn_detection=None))
    await session.start()
    gateway.attach(session, "a principal", gateway.timers_for(session.id))
    await asyncio.sleep(0)                       # the first save, of no items, waits on the file
    said = [session.add_message("user", f"message {n}") for n in range(3)]
    await session.close()
    detached = asyncio.create_task(gateway.detach(session))
    await asyncio.sleep(0)                       # the detach has taken the session and waits on the first save
    resumed = asyncio.create_task(gateway.resumable(session.id, "a principal"))
    await asyncio.sleep(0)
    other_writer.execute("COMMIT")
    items = await resumed
    assert [item["id"] for item in items][-3:] == said
    assert detached.done()
    other_writer.close()
    await gateway.close()


async def hold_writes(store_url: str, tmp_path):
    """Stop every write to the store until the returned coroutine function is awaited: another SQLite writer
    holds the file, or Redis pauses its writers (CLIENT PAUSE WRITE); reads go on meanwhile."""
    if store_url.startswith("sqlite://"):
        import sqlite3

        other_writer = sqlite3.connect(tmp_path / "state.db", isolation_level=None)
        other_writer.execute("BEGIN IMMEDIATE")

        async def let_go():
            other_writer.execute("COMMIT")
            other_writer.close()
        return let_go
    import redis.asyncio as redis

    pauser = redis.from_url(store_url)
    await pauser.execute_command("CLIENT", "PAUSE", 60_000, "WRITE")

    async def let_go():
        await pauser.execute_command("CLIENT", "UNPAUSE")
        await pauser.aclose()
    return let_go


@pytest.fixture(params=["sqlite", "redis"])
def shared_store(request, tmp_path):
    """The store two gateways share: one SQLite file, or a real Redis."""
    if request.param == "sqlite":
        return f"sqlite://{tmp_path}/state.db"
    return request.getfixturevalue("redis_server").url


async def test_a_client_back_on_another_gateway_while_the_first_still_stores_its_session_resumes_every_item(
        engines, shared_store, tmp_path, caplog):
    """The client closed on the first gateway and came back on a second while the first's detach is still
    writing the last items: the second reads the store only once the first has written them and let the
    session's claim go. The store holds every write until the second has read it or begun waiting, so the order
    is the same on every run."""
    from streaming.gateway import Gateway
    from streaming.session import Session, SessionConfig
    from streaming.store import open_store

    caplog.set_level(logging.INFO, "parley.gateway")
    first, second = Gateway(open_store(shared_store), "gw1"), Gateway(open_store(shared_store), "gw2")
    session = Session(engines, SessionConfig(turn_detection=None))
    await session.start()
    first.attach(session, "a principal", first.timers_for(session.id))
    held = first.held[session.id]
    await asyncio.gather(held.saver, *held.tasks)            # claimed by the first, its empty history stored
    let_go = await hold_writes(shared_store, tmp_path)
    try:
        said = [session.add_message("user", f"message {n}") for n in range(3)]
        await session.close()
        detached = asyncio.create_task(first.detach(session))
        resumed = asyncio.create_task(second.resumable(session.id, "a principal"))
        async with asyncio.timeout(30):
            while not resumed.done() and "waits for gateway gw1" not in caplog.text:
                await asyncio.sleep(0.01)
    finally:
        await let_go()
    items = await resumed
    await detached
    assert [item["id"] for item in items][-3:] == said
    await first.close()
    await second.close()


async def test_a_resume_waits_for_a_gateway_that_died_holding_the_session_at_most_the_handover_bound(
        engines, shared_store, caplog):
    """The first gateway died with the session claimed: the second resumes it with what the first's last write
    stored once its wait for the claim to be let go gives up (HANDOVER_S), not once the claim lapses. What shows it
    is the store's state, not a clock: the dead gateway's claim still stands when the resume returns (the test
    renews it for ten minutes, as the dead gateway's last beat did for CLAIM_TTL_S, so no load can make it lapse
    first), and the log says the wait gave up on gw1."""
    from streaming.gateway import Gateway, session_key
    from streaming.session import Session, SessionConfig
    from streaming.store import open_store

    first, second = Gateway(open_store(shared_store), "gw1"), Gateway(open_store(shared_store), "gw2")
    session = Session(engines, SessionConfig(turn_detection=None))
    await session.start()
    first.attach(session, "a principal", first.timers_for(session.id))
    said = session.add_message("user", "the last message stored")
    held = first.held[session.id]
    await asyncio.gather(held.saver, *held.tasks)
    assert await first.store.claim(session_key(session.id), "gw1", 600)     # its last beat
    await first.store.close()                                 # gone without letting the claim go
    with caplog.at_level(logging.WARNING, "parley.gateway"):
        items = await second.resumable(session.id, "a principal")
    assert [item["id"] for item in items] == [said]
    assert await second.store.holder(session_key(session.id)) == "gw1"      # resumed before the claim lapsed
    assert f"session {session.id}: not let go by gateway gw1 within" in caplog.text
    await session.close()
    await second.close()


class OneGatewaysStall:
    """Stalls one gateway's way to the store, and only its way: for Redis that gateway connects through a relay
    that stops passing its commands on (a slow network to Redis for it alone); for SQLite its store thread is kept
    busy (a slow disk for it alone). The other gateway's store calls go on meanwhile. (A second SQLite writer's
    BEGIN IMMEDIATE, or CLIENT PAUSE WRITE, would hold the other gateway's takeover and saves as well.)"""

    def __init__(self, store_url: str):
        import threading

        self.store_url, self.url = store_url, store_url
        self.gate, self.pumps, self.relay = threading.Event(), set(), None
        self.gate.set()

    async def __aenter__(self):
        if self.store_url.startswith("redis://"):
            self.relay = await asyncio.start_server(self._relay, "127.0.0.1", 0)
            self.url = f"redis://127.0.0.1:{self.relay.sockets[0].getsockname()[1]}/0"
        return self

    async def __aexit__(self, *exc):
        self.gate.set()
        if self.relay is not None:
            self.relay.close()
            for task in self.pumps:
                task.cancel()
            await asyncio.gather(*self.pumps, return_exceptions=True)

    def hold(self, gateway) -> None:
        """From now on the gateway's store calls wait (it must have been opened on self.url)."""
        self.gate.clear()
        if self.relay is None:
            gateway.store._executor.submit(self.gate.wait, 60)     # a test that fails lets go within a minute

    def let_go(self) -> None:
        self.gate.set()

    async def _relay(self, client_reader, client_writer):
        host, port = re.match(r"redis://([^:/]+):(\d+)", self.store_url).groups()
        redis_reader, redis_writer = await asyncio.open_connection(host, int(port))
        for reader, writer, gated in ((client_reader, redis_writer, True), (redis_reader, client_writer, False)):
            self.pumps.add(asyncio.create_task(self._pump(reader, writer, gated)))

    async def _pump(self, reader, writer, gated):
        try:
            while chunk := await reader.read(65536):
                while gated and not self.gate.is_set():
                    await asyncio.sleep(0.01)
                writer.write(chunk)
                await writer.drain()
        except ConnectionError:
            pass
        finally:
            writer.close()


async def events_of(session) -> list:
    """Every event the session emitted, once it has closed (what its transport turned into server events)."""
    async with asyncio.timeout(30):
        return [event async for event in session.events()]


async def saved_as_now(gateway, session) -> None:
    """Return once the gateway has written the session's history as it is now (and claimed it)."""
    held = gateway.held[session.id]
    await asyncio.gather(held.saver, *held.tasks)


@pytest.mark.parametrize("lands", ["after_a_save_by_the_new_owner", "before_the_new_owners_next_save"])
async def test_a_late_save_by_a_gateway_that_lost_the_session_replaces_nothing_and_loses_nothing(
        engines, shared_store, lands):
    """The first gateway is alive, but the store is slow for it alone: its save of the user's last message is still
    on its way when the client, back on the second gateway, is resumed there (after HANDOVER_S, with what the store
    had). Then the late save lands: after the resumed session said something more and saved it, or before its next
    save. It must not replace the new owner's items, nor be replaced by them: the store keeps every item in the
    order they were said, and the resumed session gets the late one, in its place, at its next save. The first
    gateway's store calls are let go only after the second has taken the session over and saved, so the order is
    the same on every run. Both gateways run their heartbeats and timer polls, as in a server, and both close
    within their bounds (round 35's version hung here once in 20 to 50 runs: see test_store's cancel test)."""
    from streaming.events import EndCall, ItemAdded
    from streaming.gateway import Gateway
    from streaming.session import Session, SessionConfig
    from streaming.store import open_store
    from streaming.supervisor import Supervisor

    config = SessionConfig(turn_detection=None)
    async with OneGatewaysStall(shared_store) as stall:
        first, second = Gateway(open_store(stall.url), "gw1"), Gateway(open_store(shared_store), "gw2")
        await first.start(Supervisor())                 # heartbeats, as in a server: a lost claim ends a session
        await second.start(Supervisor())
        try:
            old = Session(engines, config)
            await old.start()
            first.attach(old, "a principal", first.timers_for(old.id))
            said = old.add_message("user", "turn on the kitchen light")
            await saved_as_now(first, old)
            stall.hold(first)
            late = old.add_message("user", "and in the bedroom")          # its save waits on the slow store
            items = await second.resumable(old.id, "a principal")
            assert [item["id"] for item in items] == [said]
            new = Session(engines, config, session_id=old.id)
            new.restore(items)
            await new.start()
            second.attach(new, "a principal", second.timers_for(new.id))
            if lands == "after_a_save_by_the_new_owner":
                then = new.add_message("user", "what time is it")
            await saved_as_now(second, new)
            stall.let_go()
            told_first = await events_of(old)               # the first gateway is done with it: its late save landed
            stored = await second.store.load_conversation(old.id)
            if lands == "after_a_save_by_the_new_owner":
                assert [item["id"] for item in stored.items] == [said, late, then]
                then = [then, new.add_message("user", "thank you")]
            else:
                assert [item["id"] for item in stored.items] == [said, late]
                then = [new.add_message("user", "what time is it")]
            await saved_as_now(second, new)
            stored = await second.store.load_conversation(old.id)
            assert [item["id"] for item in stored.items] == [said, late, *then]
            assert [item["id"] for item in new.history()] == [said, late, *then]
            assert old.id not in first.held
            await new.close()
            told = [e for e in await events_of(new) if isinstance(e, ItemAdded) and e.item_id == late]
            assert [e.previous_item_id for e in told] == [said]             # its client: item.added, in its place
            assert EndCall("session_resumed_elsewhere") in told_first       # the first's client: closed, and why
        finally:
            stall.let_go()
            async with asyncio.timeout(20):                 # well over every bound of a close: never a hang
                await first.close()
                await second.close()


async def write_items(store_url: str, session_id: str, items: list) -> None:
    """Write a stored conversation's items as they are, past the store's code, as another program could."""
    if store_url.startswith("sqlite://"):
        import sqlite3

        with sqlite3.connect(store_url.removeprefix("sqlite://")) as db:
            db.execute("UPDATE conversations SET items = ? WHERE id = ?", (json.dumps(items), session_id))
        return
    import redis.asyncio as redis

    from streaming.store import RedisStore

    client = redis.from_url(store_url)
    key = f"{RedisStore.PREFIX}conversation:{session_id}"
    await client.set(key, json.dumps({**json.loads(await client.get(key)), "items": items}))
    await client.aclose()


async def test_a_stored_conversation_with_hostile_items_resumes_without_them(server_factory, shared_store, caplog):
    """Round 36: a stored conversation another version or a hand wrote may hold items no session makes. At 07e6cce
    one such item dropped every resume of the session (the socket closed after the upgrade, no event), and a
    record with an item that is not an object failed every save. Now the well-formed items resume, the rest are
    left out and logged, and the session goes on and is stored again, without them."""
    from streaming.store import open_store

    server = server_factory(store=shared_store)
    client, session_id = await session_of(server)
    await ask(client, "turn on the kitchen light")
    items = [e["item"] for e in client.of_type("conversation.item.added")]
    await client.close()
    server.stop()

    store = open_store(shared_store)
    stored = await store.load_conversation(session_id)
    user = stored.items[0]
    hostile = [
        "not an item", 7, None, [user["id"]],
        {**user, "text": "a second item with the first one's id"},
        {**user, "id": "item_unknown_field", "eval": "__import__('os')"},
        {**user, "id": 12345},
        {**user, "id": "item_text_is_a_list", "text": ["turn", "off"]},
        {**user, "id": "item_huge", "text": "x" * 1_000_000},
        {**user, "id": "item_bad_segments", "role": "assistant", "segments": "0 1 hello"},
        {**user, "id": "item_strange_type", "type": "shell_call"},
    ]
    await store.close()
    await write_items(shared_store, session_id, stored.items + hostile)

    restarted = server_factory(store=shared_store)
    with caplog.at_level(logging.WARNING):
        client, resumed = await session_of(restarted, f"?session_id={session_id}")
        assert resumed == session_id
        await client.send({"type": "conversation.item.retrieve", "item_id": user["id"]})
        assert (await client.wait_for("conversation.item.retrieved"))["item"]["content"][0]["text"] == \
            "turn on the kitchen light"
        follow_up = await ask(client, "and in the bedroom")
        assert follow_up["status"] == "completed"
        calls = tool_calls(client)
        assert [c["name"] for c in calls] == ["set_device"] and '"bedroom"' in calls[0]["arguments"], calls
        for left_out in ("item_unknown_field", "item_huge", "item_bad_segments", "item_strange_type"):
            start = len(client.events)
            await client.send({"type": "conversation.item.retrieve", "item_id": left_out})
            assert (await client.wait_for("error", start=start))["error"]["code"] == "item_not_found"
        await client.close()
        restarted.stop()                              # its last save written
    assert "stored items are not items a session makes; resumed without them" in caplog.text
    assert "items that are not items with an id of their own; left out" in caplog.text
    store = open_store(shared_store)
    again = [item["id"] for item in (await store.load_conversation(session_id)).items]
    await store.close()
    assert again[:len(items)] == [item["id"] for item in items] and calls[0]["id"] in again      # saved again
    assert not {item["id"] for item in hostile if isinstance(item, dict)} - {user["id"]} & set(again)   # none kept


async def test_a_stored_conversation_that_is_no_record_gives_a_new_session_not_a_503(server_factory, shared_store,
                                                                                    caplog):
    """Round 37: at cfe81dd a stored conversation that was not JSON (a hand, another program) made every resume of
    the session 503 store_unavailable, on every retry, and every save of it fail. The record is now not read (logged):
    the client gets a new session, which answers and is stored."""
    from streaming.store import open_store

    server = server_factory(store=shared_store)
    client, session_id = await session_of(server)
    await ask(client, "turn on the kitchen light")
    await client.close()
    server.stop()
    store = open_store(shared_store)
    assert await store.load_conversation(session_id) is not None
    await store.close()
    if shared_store.startswith("sqlite://"):
        import sqlite3

        with sqlite3.connect(shared_store.removeprefix("sqlite://")) as db:
            db.execute("UPDATE conversations SET items = ? WHERE id = ?", ("not json {", session_id))
    else:
        import redis.asyncio as redis

        from streaming.store import RedisStore

        writer = redis.from_url(shared_store)
        await writer.set(f"{RedisStore.PREFIX}conversation:{session_id}", b"not json {")
        await writer.aclose()

    await resumed_as_a_new_session(server_factory(store=shared_store), shared_store, session_id, caplog,
                                   f"session {session_id}: its stored conversation is not a record a gateway writes; not read")


async def resumed_as_a_new_session(server, store_url: str, session_id: str, caplog, logged: str) -> None:
    """A resume of session_id on server gets a new session that answers and is stored, and the store logged why."""
    from streaming.store import open_store

    with caplog.at_level(logging.WARNING, logger="parley.store"):
        client, new_id = await session_of(server, f"?session_id={session_id}")
        assert new_id != session_id
        assert (await ask(client, "turn off the kitchen light"))["status"] == "completed"
        await client.close()
        server.stop()
    assert logged in caplog.text
    store = open_store(store_url)
    assert (await store.load_conversation(new_id)).items
    await store.close()


async def test_a_redis_hash_under_a_conversation_key_gives_a_new_session_not_a_503(server_factory, redis_server, caplog):
    """Round 37: at aa99078 a Redis key of another type (here a hash, as a hand or another program may write) under a
    session's conversation key made every resume of it 503 store_unavailable (WRONGTYPE), on every retry. It is now
    no record (logged): the client gets a new session, which answers and is stored."""
    import redis.asyncio as redis

    from streaming.store import RedisStore

    session_id = "sess_written_as_a_hash"
    writer = redis.from_url(redis_server.url)
    await writer.hset(f"{RedisStore.PREFIX}conversation:{session_id}", mapping={"principal": "someone"})
    await writer.aclose()
    await resumed_as_a_new_session(server_factory(store=redis_server.url), redis_server.url, session_id, caplog,
                                   f"session {session_id}: its stored conversation is a Redis key of another type")


async def test_a_gateway_closing_while_a_save_is_in_flight_stores_it_before_it_closes_the_store(engines, shared_store):
    """Shutdown with the heartbeat and the timer poll running, as in a server, and a save of the session's last
    item still on its way to a store slow for this gateway: the close waits for the save (at most CLOSE_S) before
    it closes the store, so the item is stored, and it returns within its bounds. (Before, the save was a task
    nobody owned: the close closed the store under it and the item was lost.)"""
    from streaming.gateway import Gateway
    from streaming.session import Session, SessionConfig
    from streaming.store import open_store
    from streaming.supervisor import Supervisor

    async with OneGatewaysStall(shared_store) as stall:
        gateway = Gateway(open_store(stall.url), "gw1")
        await gateway.start(Supervisor())
        session = Session(engines, SessionConfig(turn_detection=None))
        await session.start()
        gateway.attach(session, "a principal", gateway.timers_for(session.id))
        said = session.add_message("user", "turn on the kitchen light")
        await saved_as_now(gateway, session)
        stall.hold(gateway)
        last = session.add_message("user", "and in the bedroom")        # its save waits on the slow store
        closing = asyncio.create_task(gateway.close())
        await asyncio.sleep(0.5)                                       # the close has begun
        stall.let_go()
        async with asyncio.timeout(20):                                # well over every bound of the close
            await closing
        await session.close()
    store = open_store(shared_store)
    try:
        stored = await store.load_conversation(session.id)
    finally:
        await store.close()
    assert [item["id"] for item in stored.items] == [said, last]
