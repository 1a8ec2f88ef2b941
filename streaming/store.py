"""Where state that outlives one gateway process lives: conversations, timers, and claims.

One interface, two backends:
- SQLite (`sqlite:///path/state.db`, the default of `parley serve`; `sqlite://:memory:` for a throwaway
  one): an embedded file that survives a restart. Every query runs on one worker thread, never on the
  event loop.
- Redis (`redis://host:port/db`): the store several gateways share.

What it holds:
- a conversation per session id: the principal (credential) that created it and its newest items
  (at most MAX_ITEMS), forgotten CONVERSATION_TTL_S after its last change. Each gateway that takes the session
  (`take_conversation`) opens a new generation, and every save carries the saver's: a save of an older
  generation (a gateway that lost the session and wrote late) replaces nothing, and its items the store never
  had are merged in by id and order, kept through the owner's saves until the owner has them (`Saved.lacking`);
- timers (plain, named, alarms): paused ones (due: the seconds they have left) wait, unindexed, to be resumed;
  pending until a gateway moves them on, exactly once, to `rung` (said to the user), `missed`
  (nobody was connected; said at the next turn) and from `missed` to `told`; the changes scheduled for later among
  them are counted and added as one atomic step against the per-server bound (`add_change`);
- claims: `key -> holder` with an expiry, taken and renewed by a gateway (a live session, a device's
  turn); an expired claim is free for anybody;
- the home's lists (assistant.lists: the shopping list, the to-do list, lists the user names): one record of
  `name -> items`, the home's, not a conversation's; never forgotten. The runner bounds them (vocabulary.MAX_LISTS).
"""
from __future__ import annotations

import asyncio
import functools
import json
import logging
import math
import queue
import sqlite3
import threading
import time
from abc import ABC, abstractmethod
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Awaitable, TypeVar

from streaming.logsafe import printable

T = TypeVar("T")
log = logging.getLogger("parley.store")

STORE_TIMEOUT_S = 2.0                    # a store call that takes longer counts as an outage
MAX_ITEMS = 200                          # conversation window kept per session
CONVERSATION_TTL_S = 7 * 24 * 3600       # a conversation nobody touched for a week is forgotten
REWRITE_TRIES = 8                        # Redis: a conversation rewritten by others this often in a row is an outage
REDIS_CALL_S = 5.0                       # Redis: a call's bound (in place of redis-py's socket timeout, left unset)
SQLITE_BUSY_S = 10.0                     # SQLite: how long a call waits for another process's write lock
SQLITE_CALL_S = 12.0                     # SQLite: a call's bound, over SQLITE_BUSY_S: only a stuck call reaches it
FINAL_STATES = ("rung", "told", "cancelled")   # a timer in one of these is gone from the store
MAX_RECORD_BYTES = 4 * 1024 * 1024       # a conversation's JSON: MAX_ITEMS items of 16,000 ASCII characters take 3.2 MB;
                                         # a save leaves its oldest items out to fit, so a bigger one no gateway wrote


@dataclass(frozen=True)
class StoredTimer:
    id: str
    session_id: str
    seconds: int
    due_at: float                        # unix time; a paused timer's: the seconds it has left
    state: str = "pending"               # pending | paused | missed
    name: str | None = None              # a named timer ("pasta")
    alarm: str | None = None             # an alarm: the clock time it was set for ("6:45 AM")
    call: str | None = None              # a change scheduled for its time: the call it runs (assistant.tools)


@dataclass(frozen=True)
class Conversation:
    principal: str
    items: list[dict]


@dataclass(frozen=True)
class Saved:
    """What a save did: `stale` when the saver's generation was not the newest (another gateway took the session
    over: the saver's new items were merged in, nothing replaced); `lacking`: items the store keeps that the
    owner's history lacks (a stale gateway's late items), each with the id of the item it follows (None: first)."""
    stale: bool = False
    lacking: list[tuple[str | None, dict]] = field(default_factory=list)


class Store(ABC):
    """The state store; every method is a coroutine safe to call from the event loop."""

    url: str

    async def take_conversation(self, session_id: str, principal: str, known: list[str]) -> int:
        """Make the caller the conversation's writer: a new generation, which its saves carry. known: the ids of the
        items it resumed with; stored items it lacks that came after them are kept until it has them."""
        def take(record):
            record = _taken(record, principal, known)
            return record, record.generation
        return await self._rewrite(session_id, take)

    async def save_conversation(self, session_id: str, principal: str, items: list[dict], generation: int) -> Saved:
        """The writer of `generation` replaces the stored items (only the newest MAX_ITEMS are kept); see Saved."""
        return await self._rewrite(session_id, lambda record: _saved(record, principal, items, generation))

    @abstractmethod
    async def _rewrite(self, session_id: str, change) -> object:
        """Read one conversation's record (None if there is none), write what change(record) gives first, and
        return what it gives second, as one atomic step against every other writer."""

    @abstractmethod
    async def load_conversation(self, session_id: str) -> Conversation | None: ...

    @abstractmethod
    async def claim(self, key: str, holder: str, ttl_s: float, *, take_over: bool = False) -> bool:
        """Take or renew `key` for `holder` until ttl_s from now. False if someone else holds it
        (unless take_over: a client that reconnected elsewhere wins over its old connection)."""

    @abstractmethod
    async def holder(self, key: str) -> str | None:
        """Who holds the claim now; None if nobody (or it expired)."""

    @abstractmethod
    async def release(self, key: str, holder: str) -> None:
        """Give the claim up, if `holder` still has it."""

    @abstractmethod
    async def add_timer(self, timer: StoredTimer) -> None: ...

    @abstractmethod
    async def cancel_timers(self, session_id: str) -> int:
        """Cancel the session's pending and paused timers; how many there were."""

    @abstractmethod
    async def pending_timers(self, session_id: str) -> int:
        """How many timers of the session are pending or paused."""

    @abstractmethod
    async def session_timers(self, session_id: str) -> list[StoredTimer]:
        """The session's pending timers, soonest first, then its paused ones."""

    @abstractmethod
    async def add_change(self, timer: StoredTimer, bound: int) -> bool:
        """Add a change scheduled for later (a timer with a call) unless `bound` changes of every conversation are
        still to come; counted and added as one atomic step against every other gateway, so gateways scheduling at
        the same moment keep to the bound. False: refused, nothing added."""

    @abstractmethod
    async def due_timers(self, now: float, limit: int = 100) -> list[StoredTimer]:
        """Pending and missed timers whose time has come, oldest first."""

    @abstractmethod
    async def move_timer(self, timer_id: str, from_state: str, to_state: str) -> bool:
        """Atomically move a timer on; True for exactly one caller however many gateways try."""

    @abstractmethod
    async def retime_timer(self, timer_id: str, from_state: str, to_state: str, due_at: float, seconds: int) -> bool:
        """Atomically give a pending or paused timer a new due (paused: the seconds it has left), state, pending
        or paused, and length (seconds, what its ring says); True when it was still in from_state (not rung,
        cancelled or moved by another gateway)."""

    @abstractmethod
    async def rewrite_lists(self, change) -> object:
        """Read the home's lists ({name: [items]}), write what change(lists) gives first, and return what it gives
        second, as one atomic step against every other writer (assistant.lists.ListBook)."""

    @abstractmethod
    async def close(self) -> None: ...


def _stored_lists(data: str | bytes | None) -> dict[str, list[str]]:
    """The home's lists as stored, or none (logged) where the record is none a gateway writes: not JSON, not an object
    of names to lists of text. The next change replaces it."""
    if data is None:
        return {}
    try:
        lists = json.loads(data)
    except (ValueError, RecursionError):
        lists = None
    if not isinstance(lists, dict) or not all(
            isinstance(items, list) and all(isinstance(item, str) for item in items) for items in lists.values()):
        log.warning("the stored lists are not lists a gateway writes; not read")
        return {}
    return lists


class StoreUnavailable(Exception):
    """The state store did not answer: down, unreachable, or slower than STORE_TIMEOUT_S."""

    code = "store_unavailable"           # what a door tells its client (who may come back)


async def ask(call: Awaitable[T], timeout_s: float = STORE_TIMEOUT_S) -> T:
    """A store call whose failure a door answers with 503 (the client may come back), not with a crash; a call
    that may first wait on another gateway has a longer bound."""
    try:
        async with asyncio.timeout(timeout_s):
            return await call
    except StoreUnavailable:
        raise
    except Exception as error:  # noqa: BLE001 - a driver's errors have no common base: every one is an outage
        raise StoreUnavailable(f"{type(error).__name__}: {error}") from error


def open_store(url: str) -> Store:
    if url.startswith("sqlite://"):
        return SQLiteStore(url.removeprefix("sqlite://"))
    if url.startswith(("redis://", "rediss://", "unix://")):
        return RedisStore(url)
    raise ValueError(f"unknown store {url!r}: use sqlite:///path/to/state.db, sqlite://:memory: or redis://host:port")


def _window(items: list[dict]) -> list[dict]:
    return items[-MAX_ITEMS:]


@dataclass
class _Record:
    """A stored conversation and its fence: the newest generation, the item ids the store had when it was taken
    (a stale writer adds none of those back: the owner may have deleted them) and the late items' ids."""
    principal: str
    items: list[dict]
    generation: int = 0
    taken: list[str] = field(default_factory=list)
    late: list[str] = field(default_factory=list)


def _record(principal: str, items, generation: int = 0, taken=(), late=()) -> _Record:
    """A record as read from the store, with only the items the fence can keep: JSON objects whose id is text,
    each id once (another version, or a hand, may have written others; at 07e6cce an item that is not an object
    failed every take and save). The items left out are logged; the next save writes the record without them."""
    items = items if isinstance(items, list) else []
    kept, ids = [], set()
    for item in items:
        if isinstance(item, dict) and isinstance(item.get("id"), str) and item["id"] not in ids:
            kept.append(item)
            ids.add(item["id"])
    if len(kept) < len(items):
        log.warning("a stored conversation held %d items that are not items with an id of their own; left out",
                    len(items) - len(kept))
    return _Record(principal, kept, generation, _texts(taken), _texts(late))


def _stored_record(session_id: str, size: int, load) -> _Record | None:
    """The record load() reads, or None (logged) when it is none a gateway writes: over MAX_RECORD_BYTES (never
    loaded), not JSON, not an object of _Record's fields, its principal not text or its generation not a whole
    number. The next take or save of the session replaces it. At cfe81dd such a record failed every resume (503
    store_unavailable, on every retry) and every save of the session, and Redis parsed one of any size on the event
    loop."""
    if size > MAX_RECORD_BYTES:
        log.warning("session %s: its stored conversation is %d bytes, over the %d a gateway writes; not read",
                    printable(session_id), size, MAX_RECORD_BYTES)
        return None
    try:
        fields = load()
    except (ValueError, RecursionError):
        fields = None
    if not isinstance(fields, dict) or not fields.keys() <= _Record.__dataclass_fields__.keys() \
            or not isinstance(fields.get("principal"), str) or type(fields.get("generation", 0)) is not int:
        log.warning("session %s: its stored conversation is not a record a gateway writes; not read",
                    printable(session_id))
        return None
    return _record(**fields)


def _checked_timer(fields: tuple) -> StoredTimer | None:
    """A stored timer's fields (StoredTimer's, in order) as a timer, or None (logged) when they are none a gateway
    writes: its seconds not a whole number, its time not a finite number, a state no timer stays in. The caller
    removes it, so it is logged once and the poll goes on; at aa99078 one such timer, written by a hand or another
    program, failed every timer poll (ValueError, KeyError) or reached the ring with text for its seconds."""
    timer_id, session_id, seconds, due_at, state, name, alarm, call = fields
    if isinstance(timer_id, str) and isinstance(session_id, str) and type(seconds) is int and seconds >= 0 \
            and type(due_at) in (int, float) and math.isfinite(due_at) and state in ("pending", "paused", "missed") \
            and all(value is None or isinstance(value, str) for value in (name, alarm, call)):
        return StoredTimer(timer_id, session_id, seconds, float(due_at), state, name, alarm, call)
    log.warning("timer %s: its stored fields are not a timer a gateway writes; removed", printable(timer_id))
    return None


def _encoded(record: _Record, fields=vars) -> str:
    """The JSON of fields(record) (the whole record for Redis, its items for SQLite's column) within
    MAX_RECORD_BYTES: the record's oldest items are left out until it fits (MAX_ITEMS items of 16,000 characters
    beyond ASCII, each escaped in six bytes, take 19 MB)."""
    data = json.dumps(fields(record))
    while len(data) > MAX_RECORD_BYTES and record.items:
        record.items = record.items[max(1, len(record.items) // 4):]
        data = json.dumps(fields(record))
    return data


def _texts(values) -> list[str]:
    """The ids of a stored list of them (anything else in it is none)."""
    return [value for value in values if isinstance(value, str)] if isinstance(values, list) else []


def _insert_after(merged: list[dict], order: list[dict], new_ids: set[str]) -> list[dict]:
    """merged, with each item of `order` whose id is in new_ids placed after the nearest item that precedes it in
    `order` and is already placed (first if none)."""
    result = list(merged)
    for n, item in enumerate(order):
        if item["id"] not in new_ids:
            continue
        placed = {i["id"]: at for at, i in enumerate(result)}
        before = next((placed[o["id"]] for o in reversed(order[:n]) if o["id"] in placed), -1)
        result.insert(before + 1, item)
    return result


def _taken(record: _Record | None, principal: str, known: list[str]) -> _Record:
    """The record once a new writer took it: stored items after the first it knows, and not known, came late."""
    if record is None:
        return _Record(principal, [], 1)
    known_ids = set(known)
    first = next((n for n, item in enumerate(record.items) if item["id"] in known_ids), 0)
    late = [item["id"] for item in record.items[first:] if item["id"] not in known_ids]
    return _Record(record.principal, record.items, record.generation + 1, [i["id"] for i in record.items], late)


def _saved(record: _Record | None, principal: str, items: list[dict], generation: int) -> tuple[_Record, Saved]:
    """The record after a save of `generation` (see Saved), and what the saver is told."""
    if record is None:
        return _Record(principal, _window(items), generation), Saved()
    ids = {item["id"] for item in items}
    stored = {item["id"] for item in record.items}
    if generation < record.generation:               # a writer that lost the session: add what is new, replace nothing
        new = ids - stored - set(record.taken)
        merged = _window(_insert_after(record.items, items, new))
        kept = {item["id"] for item in merged}
        late = [i for i in record.late if i in kept] + [item["id"] for item in items if item["id"] in new & kept]
        return _Record(record.principal, merged, record.generation, record.taken, late), Saved(stale=True)
    keep = {i for i in record.late if i in stored} - ids
    merged = _window(_insert_after(items, record.items, keep))
    lacking = [(merged[n - 1]["id"] if n else None, item) for n, item in enumerate(merged) if item["id"] in keep]
    return (_Record(record.principal, merged, generation, record.taken, [item["id"] for _, item in lacking]),
            Saved(lacking=lacking))


# ---- SQLite ---------------------------------------------------------------------------------------

_SCHEMA = """
CREATE TABLE IF NOT EXISTS conversations (id TEXT PRIMARY KEY, principal TEXT NOT NULL, items TEXT NOT NULL,
                                          updated REAL NOT NULL, generation INTEGER NOT NULL DEFAULT 0,
                                          taken TEXT NOT NULL DEFAULT '[]', late TEXT NOT NULL DEFAULT '[]');
CREATE TABLE IF NOT EXISTS claims (key TEXT PRIMARY KEY, holder TEXT NOT NULL, expires REAL NOT NULL);
CREATE TABLE IF NOT EXISTS timers (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, seconds INTEGER NOT NULL,
                                   due REAL NOT NULL, state TEXT NOT NULL, name TEXT, alarm TEXT,
                                   call TEXT);
CREATE INDEX IF NOT EXISTS timers_due ON timers (due);
CREATE INDEX IF NOT EXISTS timers_session ON timers (session_id);
CREATE TABLE IF NOT EXISTS home_lists (id INTEGER PRIMARY KEY CHECK (id = 1), lists TEXT NOT NULL);
"""
_TIMER_COLUMNS = "id, session_id, seconds, due, state, name, alarm, call"   # StoredTimer's fields, in order
_FENCE_COLUMNS = {"generation": "INTEGER NOT NULL DEFAULT 0", "taken": "TEXT NOT NULL DEFAULT '[]'",
                  "late": "TEXT NOT NULL DEFAULT '[]'"}


class DaemonWorker:
    """One daemon thread that runs the calls given to it in order (the SQLite store's; the gateway's spool's). A
    daemon, unlike a ThreadPoolExecutor's thread (joined at exit): at aa99078 an SQLite call stuck on a hung disk
    kept the process from exiting, however long it hung."""

    def __init__(self, name: str = "parley-store"):
        self._calls: queue.SimpleQueue = queue.SimpleQueue()
        threading.Thread(target=self._serve, name=name, daemon=True).start()

    def submit(self, fn, *args) -> Future:
        future: Future = Future()
        self._calls.put((future, fn, args))
        return future

    def stop(self) -> None:
        """The thread ends once the calls given before are done."""
        self._calls.put(None)

    def _serve(self) -> None:
        while (call := self._calls.get()) is not None:
            future, fn, args = call
            if future.set_running_or_notify_cancel():
                try:
                    future.set_result(fn(*args))
                except BaseException as error:  # noqa: BLE001 - the caller's to raise, on its loop
                    future.set_exception(error)


class SQLiteStore(Store):
    """An embedded SQLite file; all I/O on one worker thread (one connection, never the event loop), every call
    bounded by SQLITE_CALL_S."""

    def __init__(self, path: str):
        self.url = f"sqlite://{path}"
        self._path = path
        self._executor = DaemonWorker()
        self._db: sqlite3.Connection | None = None
        self._saves = 0

    def _connect(self) -> sqlite3.Connection:
        if self._db is None:
            if self._path != ":memory:":
                Path(self._path).parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self._path, isolation_level=None, check_same_thread=False,
                                 timeout=SQLITE_BUSY_S)
            if self._path != ":memory:":
                db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.executescript(_SCHEMA)
            columns = {row[1] for row in db.execute("PRAGMA table_info(timers)")}
            for column in ("name", "alarm", "call"):  # a file from before named timers (or changes) were stored
                if column not in columns:
                    db.execute(f"ALTER TABLE timers ADD COLUMN {column} TEXT")
            columns = {row[1] for row in db.execute("PRAGMA table_info(conversations)")}
            for column, kind in _FENCE_COLUMNS.items():    # a file from before saves were fenced
                if column not in columns:
                    db.execute(f"ALTER TABLE conversations ADD COLUMN {column} {kind}")
            self._db = db
        return self._db

    async def _run(self, fn, *args):
        """fn(connection, *args) on the store's thread, within SQLITE_CALL_S (then TimeoutError: an outage; the call
        itself runs on, and the calls after it wait behind it). At aa99078 nothing bounded it but the shutdown's."""
        def job():
            return fn(self._connect(), *args)
        try:
            async with asyncio.timeout(SQLITE_CALL_S):
                return await asyncio.wrap_future(self._executor.submit(job))
        except TimeoutError:
            raise TimeoutError(f"SQLite did not answer within {SQLITE_CALL_S:g} s (a stuck disk, or a call stuck "
                               "before this one)") from None

    @staticmethod
    def _transaction(db: sqlite3.Connection, fn):
        """BEGIN IMMEDIATE: another process sharing the file waits instead of interleaving."""
        db.execute("BEGIN IMMEDIATE")
        try:
            result = fn()
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        return result

    @staticmethod
    def _read(db: sqlite3.Connection, session_id: str) -> _Record | None:
        row = db.execute("SELECT principal, CASE WHEN length(CAST(items AS BLOB)) > ? THEN NULL ELSE items END, "
                         "generation, taken, late, length(CAST(items AS BLOB)) FROM conversations WHERE id = ? AND "
                         "updated >= ?", (MAX_RECORD_BYTES, session_id, time.time() - CONVERSATION_TTL_S)).fetchone()
        return None if row is None else _stored_record(session_id, row[5] or 0, lambda: {
            "principal": row[0], "items": json.loads(row[1]), "generation": row[2], "taken": json.loads(row[3]),
            "late": json.loads(row[4])})

    async def _rewrite(self, session_id: str, change) -> object:
        """Read, change and write one conversation in one transaction, on the store's thread (the JSON too)."""
        self._saves += 1
        purge = self._saves % 1000 == 1

        def rewrite(db):
            def body():
                now = time.time()
                record, result = change(self._read(db, session_id))
                items = _encoded(record, lambda kept: kept.items)      # the column _read bounds
                db.execute("INSERT OR REPLACE INTO conversations (id, principal, items, updated, generation, taken, "
                           "late) VALUES (?, ?, ?, ?, ?, ?, ?)",
                           (session_id, record.principal, items, now, record.generation,
                            json.dumps(record.taken), json.dumps(record.late)))
                if purge:   # bounded: old conversations, and missed timers nobody came back for, go; and the
                            # paused timers of a conversation gone (their due is the seconds they have left)
                    db.execute("DELETE FROM conversations WHERE updated < ?", (now - CONVERSATION_TTL_S,))
                    db.execute("DELETE FROM timers WHERE due < ? AND state != 'paused'", (now - CONVERSATION_TTL_S,))
                    db.execute("DELETE FROM timers WHERE state = 'paused' AND session_id NOT IN "
                               "(SELECT id FROM conversations)")
                    db.execute("DELETE FROM claims WHERE expires < ?", (now,))
                return result
            return self._transaction(db, body)
        return await self._run(rewrite)

    async def load_conversation(self, session_id):
        record = await self._run(self._read, session_id)
        return Conversation(record.principal, record.items) if record else None

    async def claim(self, key, holder, ttl_s, *, take_over=False):
        def claim(db):
            def body():
                now = time.time()
                row = db.execute("SELECT holder, expires FROM claims WHERE key = ?", (key,)).fetchone()
                if row and row[0] != holder and row[1] > now and not take_over:
                    return False
                db.execute("INSERT OR REPLACE INTO claims VALUES (?, ?, ?)", (key, holder, now + ttl_s))
                return True
            return self._transaction(db, body)
        return await self._run(claim)

    async def holder(self, key):
        def holder(db):
            row = db.execute("SELECT holder FROM claims WHERE key = ? AND expires > ?", (key, time.time())).fetchone()
            return row[0] if row else None
        return await self._run(holder)

    async def release(self, key, holder):
        await self._run(lambda db: db.execute("DELETE FROM claims WHERE key = ? AND holder = ?", (key, holder)))

    async def add_timer(self, timer):
        await self._run(self._insert_timer, timer)

    @staticmethod
    def _insert_timer(db: sqlite3.Connection, timer: StoredTimer) -> None:
        db.execute(
            "INSERT INTO timers (id, session_id, seconds, due, state, name, alarm, call) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (timer.id, timer.session_id, timer.seconds, timer.due_at, timer.state, timer.name, timer.alarm,
             timer.call))

    async def add_change(self, timer, bound):
        def counted_then_added(db):
            waiting = db.execute("SELECT COUNT(*) FROM timers WHERE due > ? AND state = 'pending' AND call IS NOT NULL",
                                 (time.time(),)).fetchone()[0]
            if waiting >= bound:
                return False
            self._insert_timer(db, timer)
            return True
        return await self._run(lambda db: self._transaction(db, lambda: counted_then_added(db)))

    async def cancel_timers(self, session_id):
        return await self._run(lambda db: db.execute(
            "DELETE FROM timers WHERE session_id = ? AND state IN ('pending', 'paused')", (session_id,)).rowcount)

    async def pending_timers(self, session_id):
        return await self._run(lambda db: db.execute(
            "SELECT COUNT(*) FROM timers WHERE session_id = ? AND state IN ('pending', 'paused')",
            (session_id,)).fetchone()[0])

    async def session_timers(self, session_id):
        return await self._run(self._timers, f"SELECT {_TIMER_COLUMNS} FROM timers WHERE session_id = ? AND "
                                             "state IN ('pending', 'paused') ORDER BY state = 'paused', due",
                               (session_id,))

    async def due_timers(self, now, limit=100):
        return await self._run(self._timers, f"SELECT {_TIMER_COLUMNS} FROM timers WHERE due <= ? AND "
                                             "state != 'paused' ORDER BY due LIMIT ?", (now, limit))

    @staticmethod
    def _timers(db: sqlite3.Connection, query: str, args: tuple) -> list[StoredTimer]:
        """The timers a query selects; the rows that are no timer a gateway writes are removed (_checked_timer)."""
        timers = []
        for row in db.execute(query, args).fetchall():
            timer = _checked_timer(row)
            if timer is None:
                db.execute("DELETE FROM timers WHERE id = ?", (row[0],))
            else:
                timers.append(timer)
        return timers

    async def move_timer(self, timer_id, from_state, to_state):
        if to_state in FINAL_STATES:
            sql, args = "DELETE FROM timers WHERE id = ? AND state = ?", (timer_id, from_state)
        else:
            sql, args = "UPDATE timers SET state = ? WHERE id = ? AND state = ?", (to_state, timer_id, from_state)
        return await self._run(lambda db: db.execute(sql, args).rowcount == 1)

    async def retime_timer(self, timer_id, from_state, to_state, due_at, seconds):
        return await self._run(lambda db: db.execute(
            "UPDATE timers SET state = ?, due = ?, seconds = ? WHERE id = ? AND state = ?",
            (to_state, due_at, int(seconds), timer_id, from_state)).rowcount == 1)

    async def rewrite_lists(self, change):
        def rewrite(db):
            def body():
                row = db.execute("SELECT lists FROM home_lists WHERE id = 1").fetchone()
                lists, result = change(_stored_lists(row and row[0]))
                db.execute("INSERT OR REPLACE INTO home_lists (id, lists) VALUES (1, ?)", (json.dumps(lists),))
                return result
            return self._transaction(db, body)
        return await self._run(rewrite)

    async def close(self):
        """Once the calls queued before it are done, at most STORE_TIMEOUT_S: a thread still busy then (a stuck
        disk) is left to end by itself, and the file is closed with the process."""
        def close(db):
            db.close()
        try:
            if self._db is not None:
                async with asyncio.timeout(STORE_TIMEOUT_S):
                    await self._run(close)
                self._db = None
        finally:
            self._executor.stop()


# ---- Redis ----------------------------------------------------------------------------------------

# KEYS[1] claim key; ARGV: holder, ttl ms, take_over (1/0)
_CLAIM = """
local current = redis.call('GET', KEYS[1])
if current == false or current == ARGV[1] or ARGV[3] == '1' then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0
"""
# KEYS: timer hash, due zset, session's timer set, changes zset; ARGV: id, from, to, final (1/0)
_MOVE = """
if redis.call('HGET', KEYS[1], 'state') ~= ARGV[2] then return 0 end
if ARGV[4] == '1' then
  redis.call('DEL', KEYS[1]); redis.call('ZREM', KEYS[2], ARGV[1]); redis.call('SREM', KEYS[3], ARGV[1])
  redis.call('ZREM', KEYS[4], ARGV[1])
else
  redis.call('HSET', KEYS[1], 'state', ARGV[3])
end
return 1
"""
# KEYS: timer hash, due zset; ARGV: id, from, to, due (a paused timer leaves the due zset: it never comes due)
_RETIME = """
if redis.call('HGET', KEYS[1], 'state') ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], 'state', ARGV[3], 'due', ARGV[4], 'seconds', ARGV[5])
if ARGV[3] == 'paused' then redis.call('ZREM', KEYS[2], ARGV[1]) else redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1]) end
return 1
"""
# KEYS: due zset, session's timer set, changes zset; ARGV: timer key prefix
_CANCEL = """
local cancelled = 0
for _, id in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  local key = ARGV[1] .. id
  local state = redis.call('HGET', key, 'state')
  if state == 'pending' or state == 'paused' or state == false then
    redis.call('DEL', key); redis.call('ZREM', KEYS[1], id); redis.call('SREM', KEYS[2], id)
    redis.call('ZREM', KEYS[3], id)
    if state ~= false then cancelled = cancelled + 1 end
  end
end
return cancelled
"""

# KEYS: changes zset, timer hash, due zset, session's timer set; ARGV: now, bound, id, due, expires (unix), session,
# seconds, state, name, alarm, call. The changes whose time has passed leave the count first.
_ADD_CHANGE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[2], 'session', ARGV[6], 'seconds', ARGV[7], 'due', ARGV[4], 'state', ARGV[8], 'name', ARGV[9],
           'alarm', ARGV[10], 'call', ARGV[11])
redis.call('EXPIREAT', KEYS[2], ARGV[5])
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[3])
redis.call('ZADD', KEYS[1], ARGV[4], ARGV[3])
redis.call('SADD', KEYS[4], ARGV[3])
redis.call('EXPIREAT', KEYS[4], ARGV[5])
return 1
"""


def _bounded(call):
    """A Redis call that ends within REDIS_CALL_S (TimeoutError), or at once, cancelled, when its caller is."""
    @functools.wraps(call)
    async def bounded(*args, **kwargs):
        async with asyncio.timeout(REDIS_CALL_S):
            return await call(*args, **kwargs)
    return bounded


class RedisStore(Store):
    """Redis shared by every gateway; claims and timer moves are single Lua scripts, so atomic.

    Every call is bounded here (`_bounded`), not by redis-py's socket_timeout: with one, redis-py sends each command
    under asyncio.wait_for, which on Python 3.11 returns the result and drops a cancel that comes as the send ends
    (CPython gh-86296): a cancelled heartbeat or timer poll then ran on, and a gateway's close waited for ever."""

    PREFIX = "parley:"

    def __init__(self, url: str):
        import redis.asyncio as redis

        self.url = url
        self._redis = redis.from_url(url, socket_timeout=None)
        self._claim = self._redis.register_script(_CLAIM)
        self._release = self._redis.register_script(_RELEASE)
        self._move = self._redis.register_script(_MOVE)
        self._retime = self._redis.register_script(_RETIME)
        self._cancel = self._redis.register_script(_CANCEL)
        self._add_change = self._redis.register_script(_ADD_CHANGE)
        self._lists_changing = asyncio.Lock()     # this gateway's list changes one at a time: WATCH retries only
                                                  # for another gateway's

    def _key(self, *parts: str) -> str:
        return self.PREFIX + ":".join(parts)

    @_bounded
    async def _rewrite(self, session_id: str, change) -> object:
        """Read, change and write one conversation atomically: WATCH, and again if another writer came between
        (at most REWRITE_TRIES times)."""
        from redis.exceptions import WatchError

        key = self._key("conversation", session_id)

        def rewritten(size: int, payload: bytes | None) -> tuple[str, object]:
            record, result = change(self._parsed(session_id, size, payload))
            return _encoded(record), result

        async with self._redis.pipeline(transaction=True) as pipe:
            for _ in range(REWRITE_TRIES):
                try:
                    await pipe.watch(key)
                    size, payload = await self._fetch(pipe, session_id, key)
                    data, result = await asyncio.to_thread(rewritten, size, payload)    # the JSON off the loop
                    pipe.multi()
                    pipe.set(key, data, ex=CONVERSATION_TTL_S)
                    await pipe.execute()
                    return result
                except WatchError:
                    continue
        raise StoreUnavailable(f"conversation {session_id} changed under {REWRITE_TRIES} writes in a row")

    @staticmethod
    async def _fetch(client, session_id: str, key: str) -> tuple[int, bytes | None]:
        """A conversation's STRLEN, and its value when within MAX_RECORD_BYTES. A key of another type (a hash, a
        list: a hand's or another program's) is no record (logged; the next save's SET replaces it): at aa99078 its
        WRONGTYPE answered every resume of the session with 503."""
        from redis.exceptions import ResponseError

        try:
            size = await client.strlen(key)
        except ResponseError as error:
            if not str(error).startswith("WRONGTYPE"):
                raise
            log.warning("session %s: its stored conversation is a Redis key of another type, not a record a gateway "
                        "writes; not read", printable(session_id))
            return 0, None
        return size, await client.get(key) if size <= MAX_RECORD_BYTES else None

    @staticmethod
    def _parsed(session_id: str, size: int, payload: bytes | None) -> _Record | None:
        """The record of a GET whose STRLEN was size (a size over the bound was not got: payload None)."""
        if payload is None and size <= MAX_RECORD_BYTES:
            return None
        return _stored_record(session_id, size, lambda: json.loads(payload))

    @_bounded
    async def load_conversation(self, session_id):
        size, payload = await self._fetch(self._redis, session_id, self._key("conversation", session_id))
        record = await asyncio.to_thread(self._parsed, session_id, size, payload)
        return None if record is None else Conversation(record.principal, record.items)

    @_bounded
    async def claim(self, key, holder, ttl_s, *, take_over=False):
        return bool(await self._claim(keys=[self._key("claim", key)],
                                      args=[holder, max(1, int(ttl_s * 1000)), int(take_over)]))

    @_bounded
    async def holder(self, key):
        value = await self._redis.get(self._key("claim", key))
        return value.decode() if value is not None else None

    @_bounded
    async def release(self, key, holder):
        await self._release(keys=[self._key("claim", key)], args=[holder])

    @_bounded
    async def add_timer(self, timer):
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.hset(self._key("timer", timer.id), mapping={
                "session": timer.session_id, "seconds": timer.seconds, "due": repr(timer.due_at), "state": timer.state,
                "name": timer.name or "", "alarm": timer.alarm or "", "call": timer.call or ""})
            pipe.expireat(self._key("timer", timer.id), int(timer.due_at + CONVERSATION_TTL_S))
            pipe.zadd(self._key("timers"), {timer.id: timer.due_at})
            if timer.call is not None:       # counted by add_change until it is moved on or its time passes
                pipe.zadd(self._key("changes"), {timer.id: timer.due_at})
            pipe.sadd(self._key("session-timers", timer.session_id), timer.id)
            pipe.expireat(self._key("session-timers", timer.session_id), int(timer.due_at + CONVERSATION_TTL_S))
            await pipe.execute()

    @_bounded
    async def cancel_timers(self, session_id):
        return int(await self._cancel(keys=[self._key("timers"), self._key("session-timers", session_id),
                                            self._key("changes")],
                                      args=[self._key("timer", "")]))

    @_bounded
    async def pending_timers(self, session_id):
        ids = await self._redis.smembers(self._key("session-timers", session_id))
        if not ids:
            return 0
        async with self._redis.pipeline(transaction=False) as pipe:
            for timer_id in ids:
                pipe.hget(self._key("timer", timer_id.decode()), "state")
            states = await pipe.execute()
        return sum(state in (b"pending", b"paused") for state in states)

    @_bounded
    async def session_timers(self, session_id):
        ids = await self._redis.smembers(self._key("session-timers", session_id))
        timers = [t for t in await self._timers(ids) if t.state in ("pending", "paused")]
        return sorted(timers, key=lambda t: (t.state == "paused", t.due_at))

    @_bounded
    async def add_change(self, timer, bound):
        """One Lua script (_ADD_CHANGE): Redis runs it whole, so no other gateway's count or add comes between this
        count and this add, and nothing is retried. The index `changes` (id -> due) loses a change when it is moved
        on (rung, cancelled) or, here, once its time has passed, so it holds at most the changes still to come."""
        expires = int(timer.due_at + CONVERSATION_TTL_S)
        return bool(await self._add_change(
            keys=[self._key("changes"), self._key("timer", timer.id), self._key("timers"),
                  self._key("session-timers", timer.session_id)],
            args=[repr(time.time()), bound, timer.id, repr(timer.due_at), expires, timer.session_id, timer.seconds,
                  timer.state, timer.name or "", timer.alarm or "", timer.call or ""]))

    @_bounded
    async def due_timers(self, now, limit=100):
        ids = await self._redis.zrangebyscore(self._key("timers"), "-inf", now, start=0, num=limit)
        return await self._timers(ids, unindex_expired=True)

    async def _timers(self, ids, unindex_expired: bool = False) -> list[StoredTimer]:
        """The timers of these ids; one that is no timer a gateway writes (a key of another type, a field missing or
        unreadable) is removed (_checked_timer)."""
        if not ids:
            return []
        async with self._redis.pipeline(transaction=False) as pipe:
            for timer_id in ids:
                pipe.hgetall(self._key("timer", "").encode() + timer_id)
            rows = await pipe.execute(raise_on_error=False)
        timers = []
        for timer_id, row in zip(ids, rows):
            if not row:
                if unindex_expired:           # expired: drop the index entry too
                    await self._redis.zrem(self._key("timers"), timer_id)
                continue
            timer = _checked_timer(self._timer_fields(timer_id, row))
            if timer is None:
                await self._redis.zrem(self._key("timers"), timer_id)
                await self._redis.delete(self._key("timer", "").encode() + timer_id)
            else:
                timers.append(timer)
        return timers

    @staticmethod
    def _timer_fields(timer_id: bytes, row) -> tuple:
        """A timer hash's fields in StoredTimer's order, None for each one missing or unreadable (row is the error
        where the key is no hash)."""
        def field(name: bytes | None, read):
            try:
                return read(timer_id if name is None else row[name])
            except (TypeError, KeyError, ValueError):     # no hash; no such field; not a number, or not UTF-8
                return None
        text = bytes.decode
        return (field(None, text), field(b"session", text), field(b"seconds", int), field(b"due", float),
                field(b"state", text), field(b"name", text) or None, field(b"alarm", text) or None,
                field(b"call", text) or None)

    @_bounded
    async def move_timer(self, timer_id, from_state, to_state):
        session = await self._redis.hget(self._key("timer", timer_id), "session")
        if session is None:
            return False
        return bool(await self._move(
            keys=[self._key("timer", timer_id), self._key("timers"), self._key("session-timers", session.decode()),
                  self._key("changes")],
            args=[timer_id, from_state, to_state, int(to_state in FINAL_STATES)]))

    @_bounded
    async def retime_timer(self, timer_id, from_state, to_state, due_at, seconds):
        return bool(await self._retime(keys=[self._key("timer", timer_id), self._key("timers")],
                                       args=[timer_id, from_state, to_state, repr(float(due_at)), int(seconds)]))

    @_bounded
    async def rewrite_lists(self, change):
        """Read, change and write the lists atomically: WATCH, and again if another gateway wrote between (at most
        REWRITE_TRIES times)."""
        from redis.exceptions import WatchError

        key = self._key("lists")
        async with self._lists_changing, self._redis.pipeline(transaction=True) as pipe:
            for _ in range(REWRITE_TRIES):
                try:
                    await pipe.watch(key)
                    lists, result = change(_stored_lists(await pipe.get(key)))
                    pipe.multi()
                    pipe.set(key, json.dumps(lists))
                    await pipe.execute()
                    return result
                except WatchError:
                    continue
        raise StoreUnavailable(f"the lists changed under {REWRITE_TRIES} writes in a row")

    @_bounded
    async def close(self):
        await self._redis.aclose()
