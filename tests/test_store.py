"""The state store on both backends: an SQLite file (reopened, as after a restart) and a real redis-server."""
import asyncio
import json
import logging
import os
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from streaming.store import (MAX_ITEMS, MAX_RECORD_BYTES, SQLITE_CALL_S, RedisStore, Saved, StoredTimer,
                             open_store)

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
async def store(store_url):
    store = open_store(store_url)
    yield store
    await store.close()


async def test_conversation_survives_reopening_and_keeps_a_bounded_window(store, store_url):
    items = [{"id": f"item_{n}", "type": "message", "role": "user", "text": str(n)} for n in range(MAX_ITEMS + 5)]
    generation = await store.take_conversation("sess_a", "principal-1", [])
    await store.save_conversation("sess_a", "principal-1", items, generation)
    await store.close()
    reopened = open_store(store_url)
    try:
        conversation = await reopened.load_conversation("sess_a")
        assert conversation.principal == "principal-1"
        assert [i["id"] for i in conversation.items] == [f"item_{n}" for n in range(5, MAX_ITEMS + 5)]
        assert await reopened.load_conversation("sess_unknown") is None
    finally:
        await reopened.close()


async def test_a_call_cancelled_at_any_moment_ends_its_task_at_once(store):
    """A gateway's heartbeat and timer poll are loops of store calls, stopped at shutdown by a cancel: a call that
    drops the cancel lets its loop run on, and the close waiting for the loop never returns. (redis-py sends each
    command under asyncio.wait_for when it has a socket timeout, and on Python 3.11 that returns the result and drops
    a cancel that comes as the send ends.) The cancel lands at 200 moments spread over such a loop's calls."""
    tasks, dropped = [], []
    for n in range(200):
        async def poll():
            while True:
                await store.claim("session:polled", "gw_a", 5.0)
                await store.holder("session:polled")
        task = asyncio.create_task(poll())
        tasks.append(task)
        await asyncio.sleep((n % 20) / 1000)
        task.cancel()
        await asyncio.wait({task}, timeout=1)
        if not task.done():
            dropped.append(n)
            break
    for task in tasks:                       # cancels it dropped, again until it ends (at most 2 s each)
        for _ in range(40):
            if task.done():
                break
            task.cancel()
            await asyncio.wait({task}, timeout=0.05)
    assert dropped == []
    assert all(task.cancelled() for task in tasks)


async def test_a_claim_has_one_holder_until_it_expires_or_is_taken_over(store):
    assert await store.claim("device:kitchen", "gw_a", 0.5)
    assert not await store.claim("device:kitchen", "gw_b", 0.5)
    assert await store.claim("device:kitchen", "gw_a", 0.5)          # renewal
    assert await store.holder("device:kitchen") == "gw_a"
    await asyncio.sleep(0.6)
    assert await store.holder("device:kitchen") is None
    assert await store.claim("device:kitchen", "gw_b", 5)
    assert await store.claim("device:kitchen", "gw_c", 5, take_over=True)
    await store.release("device:kitchen", "gw_b")                      # not b's any more: no effect
    assert await store.holder("device:kitchen") == "gw_c"
    await store.release("device:kitchen", "gw_c")
    assert await store.holder("device:kitchen") is None


async def test_a_due_timer_moves_on_exactly_once_however_many_try(store, store_url):
    now = time.time()
    await store.add_timer(StoredTimer("tmr_1", "sess_a", 5, now - 1))
    await store.add_timer(StoredTimer("tmr_2", "sess_a", 60, now + 60))
    await store.add_timer(StoredTimer("tmr_3", "sess_b", 1, now - 2))
    assert [t.id for t in await store.due_timers(now)] == ["tmr_3", "tmr_1"]
    assert await store.pending_timers("sess_a") == 2
    others = [open_store(store_url) for _ in range(3)]     # other gateways racing for the same timer
    try:
        wins = await asyncio.gather(*(s.move_timer("tmr_1", "pending", "rung") for s in [store, *others]))
    finally:
        await asyncio.gather(*(s.close() for s in others))
    assert sum(wins) == 1
    assert await store.move_timer("tmr_3", "pending", "missed")
    assert [(t.id, t.state) for t in await store.due_timers(now)] == [("tmr_3", "missed")]
    assert await store.move_timer("tmr_3", "missed", "told") and not await store.move_timer("tmr_3", "missed", "told")
    assert await store.due_timers(now + 100) == [StoredTimer("tmr_2", "sess_a", 60, pytest.approx(now + 60))]
    assert await store.cancel_timers("sess_a") == 1
    assert await store.due_timers(now + 100) == [] and await store.pending_timers("sess_a") == 0


async def test_named_timers_and_alarms_keep_their_names_and_cancel_one_by_one(store, store_url):
    now = time.time()
    await store.add_timer(StoredTimer("tmr_pasta", "sess_a", 720, now + 720, name="pasta"))
    await store.add_timer(StoredTimer("tmr_alarm", "sess_a", 3600, now + 3600, name="alarm", alarm="6:45 AM"))
    await store.add_timer(StoredTimer("tmr_tea", "sess_a", 60, now + 60, name="tea"))
    await store.add_timer(StoredTimer("tmr_other", "sess_b", 30, now + 30))
    assert [(t.id, t.name, t.alarm) for t in await store.session_timers("sess_a")] == [
        ("tmr_tea", "tea", None), ("tmr_pasta", "pasta", None), ("tmr_alarm", "alarm", "6:45 AM")]
    assert await store.move_timer("tmr_tea", "pending", "cancelled")
    await store.close()
    reopened = open_store(store_url)               # as after a restart
    try:
        assert [t.name for t in await reopened.session_timers("sess_a")] == ["pasta", "alarm"]
        assert [t.alarm for t in await reopened.due_timers(now + 4000)] == [None, None, "6:45 AM"]
    finally:
        await reopened.close()


async def test_an_older_sqlite_file_gains_the_timer_name_columns(tmp_path):
    import sqlite3

    path = tmp_path / "old.db"
    old = sqlite3.connect(path)
    old.execute("CREATE TABLE timers (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, seconds INTEGER NOT NULL, "
                "due REAL NOT NULL, state TEXT NOT NULL)")
    old.execute("INSERT INTO timers VALUES ('tmr_old', 'sess_a', 5, 1.0, 'pending')")
    old.commit()
    old.close()
    store = open_store(f"sqlite://{path}")
    try:
        await store.add_timer(StoredTimer("tmr_new", "sess_a", 5, 2.0, name="pasta"))
        assert [(t.id, t.name) for t in await store.session_timers("sess_a")] == [("tmr_old", None), ("tmr_new", "pasta")]
    finally:
        await store.close()


def ids(items):
    return [item["id"] for item in items]


def messages(*names):
    return [{"id": name, "type": "message", "role": "user", "text": name} for name in names]


async def test_a_save_of_an_older_generation_replaces_nothing_and_its_new_items_are_kept_in_order(store):
    """Two writers of one conversation, the first taken over by the second: the first's late saves add only the
    items the store never had, after the item each followed; the owner's saves keep those until its history has
    them (and are told where they go), and an item the owner deleted is not brought back by a late save."""
    first = await store.take_conversation("sess_f", "principal-1", [])
    assert not (await store.save_conversation("sess_f", "principal-1", messages("a", "b"), first)).stale
    second = await store.take_conversation("sess_f", "principal-1", ["a", "b"])
    assert second > first
    assert await store.save_conversation("sess_f", "principal-1", messages("a", "b", "p"), second) == Saved()
    late = await store.save_conversation("sess_f", "principal-1", messages("a", "b", "x"), first)
    assert late.stale
    assert ids((await store.load_conversation("sess_f")).items) == ["a", "b", "x", "p"]
    owners = await store.save_conversation("sess_f", "principal-1", messages("a", "p", "q"), second)  # b deleted
    assert [(after, item["id"]) for after, item in owners.lacking] == [("a", "x")]
    assert ids((await store.load_conversation("sess_f")).items) == ["a", "x", "p", "q"]
    assert (await store.save_conversation("sess_f", "principal-1", messages("a", "b", "x", "y"), first)).stale
    assert ids((await store.load_conversation("sess_f")).items) == ["a", "x", "y", "p", "q"]
    owners = await store.save_conversation("sess_f", "principal-1", messages("a", "x", "p", "q"), second)
    assert [(after, item["id"]) for after, item in owners.lacking] == [("x", "y")]
    owners = await store.save_conversation("sess_f", "principal-1", messages("a", "x", "y", "p", "q", "r"), second)
    assert owners == Saved()
    assert ids((await store.load_conversation("sess_f")).items) == ["a", "x", "y", "p", "q", "r"]


async def test_items_stored_after_a_resume_read_them_and_before_its_take_are_kept(store):
    """A late save of the old generation that lands between the new owner's read and its take: the items it
    brought are ones the owner lacks, so the owner's first save keeps them and says where they go."""
    first = await store.take_conversation("sess_g", "principal-1", [])
    await store.save_conversation("sess_g", "principal-1", messages("a"), first)
    await store.save_conversation("sess_g", "principal-1", messages("a", "x"), first)      # after the owner read ["a"]
    second = await store.take_conversation("sess_g", "principal-1", ["a"])
    owners = await store.save_conversation("sess_g", "principal-1", messages("a", "p"), second)
    assert [(after, item["id"]) for after, item in owners.lacking] == [("a", "x")]
    assert ids((await store.load_conversation("sess_g")).items) == ["a", "x", "p"]


async def write_record(store_url: str, session_id: str, record) -> None:
    """A conversation's record as a hand or another version may write it, past the store's code: SQLite's columns
    (a dict), Redis's value (text)."""
    if store_url.startswith("sqlite://"):
        with sqlite3.connect(store_url.removeprefix("sqlite://")) as db:
            db.execute("INSERT OR REPLACE INTO conversations (id, principal, items, updated, generation) VALUES "
                       "(?, ?, ?, ?, ?)", (session_id, record.get("principal", "principal-1"),
                                           record.get("items", "[]"), time.time(), record.get("generation", 1)))
        return
    import redis.asyncio as redis

    client = redis.from_url(store_url)
    await client.set(f"{RedisStore.PREFIX}conversation:{session_id}", record)
    await client.aclose()


HUGE_ITEMS = json.dumps([{"id": f"item_{n}", "type": "message", "role": "user", "text": "x" * 16_000}
                         for n in range(MAX_RECORD_BYTES // 16_000 + 1)])
UNREAD = {   # each case as SQLite's columns (None: its schema cannot hold it) and as Redis's value
    "not json": ({"items": "not json {"}, "not json {"),
    "not an object": (None, "[1, 2]"),
    "no principal": (None, '{"items": []}'),
    "generation not a whole number": ({"generation": "two"}, '{"principal": "principal-1", "items": [], '
                                                             '"generation": "two"}'),
    "over the bound": ({"items": HUGE_ITEMS}, json.dumps({"principal": "principal-1", "items": json.loads(HUGE_ITEMS)})),
}


async def test_a_record_no_gateway_wrote_is_not_read_and_the_next_save_replaces_it(store, store_url, caplog):
    """Round 37: at cfe81dd a stored conversation that is not JSON, not an object, without its principal or with a
    generation that is no number failed every resume of the session (StoreUnavailable: 503 store_unavailable on
    every retry) or every take and save of it; one of any size was read whole (Redis parsed it on the event loop).
    Such a record, and one over MAX_RECORD_BYTES (never fetched from Redis), is not read, with a log line; the
    session's next take and save write its own record."""
    sqlite = store_url.startswith("sqlite://")
    cases = {case: forms[0 if sqlite else 1] for case, forms in UNREAD.items() if forms[0 if sqlite else 1] is not None}
    for n, (case, record) in enumerate(cases.items()):
        session_id = f"sess_h{n}"
        await store.take_conversation(session_id, "principal-1", [])
        await write_record(store_url, session_id, record)
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="parley.store"):
            assert await store.load_conversation(session_id) is None, case
            generation = await store.take_conversation(session_id, "principal-1", [])
            assert await store.save_conversation(session_id, "principal-1", messages("a", "b"), generation) == Saved()
        assert f"session {session_id}: its stored conversation is" in caplog.text, case
        conversation = await store.load_conversation(session_id)
        assert (conversation.principal, ids(conversation.items)) == ("principal-1", ["a", "b"]), case


async def test_a_save_keeps_the_record_within_the_bound_leaving_its_oldest_items_out(store, store_url):
    """Round 37: MAX_ITEMS items of 16,000 characters beyond ASCII take 19 MB of JSON; at cfe81dd they were stored
    whole. A save now leaves the oldest items out until the record fits MAX_RECORD_BYTES, so a record over it is one
    no gateway wrote; the newest items stay, in order."""
    items = [{"id": f"item_{n}", "type": "message", "role": "user", "text": "\u00e9" * 16_000} for n in range(MAX_ITEMS)]
    generation = await store.take_conversation("sess_i", "principal-1", [])
    await store.save_conversation("sess_i", "principal-1", items, generation)
    kept = ids((await store.load_conversation("sess_i")).items)
    assert 0 < len(kept) < MAX_ITEMS and kept == ids(items)[-len(kept):]
    assert len(json.dumps(items[-len(kept):])) <= MAX_RECORD_BYTES


async def test_a_conversation_key_of_another_type_is_not_read_and_the_next_save_replaces_it(redis_server, caplog):
    """Round 37: at aa99078 a Redis hash or list under a conversation's key (a hand's, another program's) failed every
    load, take and save with WRONGTYPE, which a resume answers with 503 on every retry. It is now no record: logged,
    and the session's next take and save write its own."""
    import redis.asyncio as redis

    store = open_store(redis_server.url)
    client = redis.from_url(redis_server.url)
    try:
        for session_id, write in (("sess_hash", lambda key: client.hset(key, mapping={"principal": "principal-1"})),
                                  ("sess_list", lambda key: client.rpush(key, "a", "b"))):
            await write(f"{RedisStore.PREFIX}conversation:{session_id}")
            caplog.clear()
            with caplog.at_level(logging.WARNING, logger="parley.store"):
                assert await store.load_conversation(session_id) is None
                generation = await store.take_conversation(session_id, "principal-1", [])
                assert await store.save_conversation(session_id, "principal-1", messages("a"), generation) == Saved()
            assert f"session {session_id}: its stored conversation is a Redis key of another type" in caplog.text
            conversation = await store.load_conversation(session_id)
            assert (conversation.principal, ids(conversation.items)) == ("principal-1", ["a"])
    finally:
        await client.aclose()
        await store.close()


async def write_timers(store_url: str, rows: list[dict]) -> None:
    """Timers as a hand or another version may write them, past the store's code: SQLite's columns, Redis's hash
    (a row with "type" set is a Redis key of that other type) and its due index."""
    if store_url.startswith("sqlite://"):
        with sqlite3.connect(store_url.removeprefix("sqlite://")) as db:
            for row in rows:
                db.execute("INSERT INTO timers (id, session_id, seconds, due, state) VALUES (?, ?, ?, ?, ?)",
                           (row["id"], row.get("session", "sess_bad"), row["seconds"], row["due"], row["state"]))
        return
    import redis.asyncio as redis

    client = redis.from_url(store_url)
    for row in rows:
        key = f"{RedisStore.PREFIX}timer:{row['id']}"
        if row.get("type") == "string":
            await client.set(key, "not a hash")
        else:
            await client.hset(key, mapping={name: value for name, value in (
                ("session", row.get("session", "sess_bad")), ("seconds", row["seconds"]), ("due", row["due"]),
                ("state", row["state"])) if value is not None})
        await client.zadd(f"{RedisStore.PREFIX}timers", {row["id"]: row["score"]})
        await client.sadd(f"{RedisStore.PREFIX}session-timers:sess_bad", row["id"])
    await client.aclose()


async def test_stored_timers_no_gateway_wrote_are_skipped_logged_once_and_the_poll_goes_on(store, store_url, caplog):
    """Round 37: at aa99078 a stored timer written by hand with fields that are not numbers (or none at all, or a
    Redis key of another type) failed every timer poll (ValueError, KeyError, WRONGTYPE) or came back with text for
    its seconds; the gateway's poll then rang no timer. Such timers are skipped, logged once and removed; the good
    ones around them are read and ring."""
    now = time.time()
    bad = [{"id": "tmr_text", "seconds": "ten", "due": now - 3, "state": "pending", "score": now - 3},
           {"id": "tmr_state", "seconds": 5, "due": now - 2, "state": "ringing", "score": now - 2}]
    if not store_url.startswith("sqlite://"):
        bad += [{"id": "tmr_nosession", "session": None, "seconds": 5, "due": now - 2, "state": "pending",
                 "score": now - 2},
                {"id": "tmr_due", "seconds": 5, "due": "soon", "state": "pending", "score": now - 2},
                {"id": "tmr_string", "type": "string", "seconds": 5, "due": now - 2, "state": "pending",
                 "score": now - 2}]
    await store.add_timer(StoredTimer("tmr_good", "sess_bad", 5, now - 1))
    await write_timers(store_url, bad)
    with caplog.at_level(logging.WARNING, logger="parley.store"):
        assert [t.id for t in await store.due_timers(now)] == ["tmr_good"]
        assert [t.id for t in await store.due_timers(now)] == ["tmr_good"]
        assert [t.id for t in await store.session_timers("sess_bad")] == ["tmr_good"]
    logged = [r.getMessage() for r in caplog.records if "not a timer a gateway writes" in r.getMessage()]
    assert sorted(logged) == sorted(f"timer {row['id']}: its stored fields are not a timer a gateway writes; removed"
                                    for row in bad)
    assert await store.move_timer("tmr_good", "pending", "rung")
    assert await store.due_timers(now) == []


async def test_an_sqlite_call_stuck_on_its_thread_ends_within_its_bound_with_a_clear_error(tmp_path):
    """Round 37: at aa99078 nothing but the shutdown bounded an SQLite call: with the store's one thread stuck (a hung
    disk; here the test holds it) every call waited for as long as it hung. A call now ends after SQLITE_CALL_S with
    a TimeoutError that says so (the timer poll's failure shows /healthz's store "down"); the thread once free, the
    calls answer again."""
    store = open_store(f"sqlite://{tmp_path}/state.db")
    unstuck = threading.Event()
    try:
        await store.add_timer(StoredTimer("tmr_1", "sess_a", 5, time.time() - 1))
        store._executor.submit(unstuck.wait, 120)               # the store's one thread hangs
        async with asyncio.timeout(SQLITE_CALL_S + 30):
            with pytest.raises(TimeoutError, match=f"SQLite did not answer within {SQLITE_CALL_S:g} s"):
                await store.due_timers(time.time())
        unstuck.set()
        assert [t.id for t in await store.due_timers(time.time())] == ["tmr_1"]
    finally:
        unstuck.set()
        await store.close()


STUCK_AT_EXIT = """
import asyncio, sys, threading, time
from streaming.store import StoredTimer, open_store

async def main():
    store = open_store(sys.argv[1])
    await store.add_timer(StoredTimer("tmr_1", "sess_a", 5, time.time()))
    store._executor.submit(threading.Event().wait)           # the store's thread hangs for good
    try:
        await store.close()
    except TimeoutError:
        print("close timed out", flush=True)

asyncio.run(main())
"""


def test_a_process_whose_sqlite_thread_hangs_still_exits(tmp_path):
    """Round 37: at aa99078 the store's thread was a ThreadPoolExecutor's, which Python joins at exit: a process whose
    SQLite call hung on the disk never exited. The thread is a daemon now: the close gives up after its bound and the
    process ends while the call still hangs."""
    child = subprocess.Popen([sys.executable, "-c", STUCK_AT_EXIT, f"sqlite://{tmp_path}/state.db"],
                             stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(REPO)})
    try:
        out, _ = child.communicate(timeout=60)
    finally:
        child.kill()
    assert child.returncode == 0 and out == "close timed out\n"
