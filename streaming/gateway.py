"""One gateway's share of the state store: it saves the conversations of the sessions it holds, claims
them (so the others know where the user is connected), and rings the stored timers that come due.

A session is held by the gateway with its live connection: the claim `session:<id>` names this gateway
and is renewed every HEARTBEAT_S; a gateway that dies stops renewing, and CLAIM_TTL_S later its sessions
are nobody's. A client that reconnects elsewhere takes the claim over, and the old gateway, failing to
renew, ends its stale copy. The claim is let go only once the session's last state is written, so a resume
elsewhere waits (at most HANDOVER_S) while another gateway holds it: it never reads an older conversation.
A gateway still writing after that (its store slower than HANDOVER_S) cannot replace the newer one either: every
save carries the generation the gateway took the conversation with (`Store.take_conversation`), so a late save
is merged in by item id and order instead, the late gateway ends its copy (`session_resumed_elsewhere`), and the
new owner's session adds the late items, in their places, at its next save (`conversation.item.added`).

Timers: every TIMER_POLL_S each gateway reads the due ones (a change scheduled for later is one: `_run_scheduled`). The gateway holding the timer's session
rings it; when nobody holds the session the timer is recorded as missed, and the gateway that next holds
the session says so at the next reply. Each move (pending → rung | missed, missed → told) is atomic in the
store, so a timer rings (or is told) exactly once, whichever gateways are alive.
"""
from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from assistant.home import Home
from assistant.tools import ToolRunner, timer_done_text, timer_missed_text
from streaming.spool import Spool, SpoolBusy, SpooledSave
from streaming.store import STORE_TIMEOUT_S, Store, StoredTimer, StoreUnavailable

if TYPE_CHECKING:
    from streaming.metrics import Metrics
    from streaming.session import Session
    from streaming.supervisor import Supervisor

log = logging.getLogger("parley.gateway")

HEARTBEAT_S = 2.0
CLAIM_TTL_S = 6.0
TIMER_POLL_S = 0.25
HANDOVER_S = STORE_TIMEOUT_S     # a live gateway's last write lands within one store call's bound, or it is an outage
HANDOVER_POLL_S = 0.05
LAST_SAVE_S = STORE_TIMEOUT_S    # a closing session's caller waits this long for its last save, which then goes on
CLOSE_S = 5.0                    # close waits this long for the saves in flight, then cancels them (as long again)
RETRY_FIRST_S, RETRY_MAX_S = 1.0, 16.0   # a failed last save is tried again after this, doubling up to the most
MAX_WAITING_SAVES = 100          # last saves waiting for the store, at most; past it the oldest is dropped
MAX_WAITING_BYTES = 64 * 1024 * 1024     # and their conversations' JSON, at most, together
HEARTBEAT_JOB, TIMERS_JOB = "gateway-heartbeat", "gateway-timers"


class StillSaving(StoreUnavailable):
    """A resumed session's last save, on this gateway, is still writing after LAST_SAVE_S (a slow or stuck
    store), or failed and waits to be tried again: the resume is refused for now (503, retry), never answered
    with an older conversation."""

    code = "session_saving"


def session_key(session_id: str) -> str:
    return f"session:{session_id}"


@dataclass
class DurableTimers:
    """A session's timers in the store (assistant.tools.TimerBook); the gateway rings them."""
    store: Store
    session_id: str
    running: int = 0                 # pending and paused timers of this session, as this gateway knows them

    async def add(self, seconds: float, name: str | None = None, alarm: str | None = None,
                  call: str | None = None) -> None:
        from streaming.session import new_id

        await self.store.add_timer(StoredTimer(new_id("tmr"), self.session_id, int(seconds), time.time() + seconds,
                                               name=name, alarm=alarm, call=call))
        self.running += 1

    async def pending(self) -> list[StoredTimer]:
        timers = await self.store.session_timers(self.session_id)
        self.running = len(timers)
        return timers

    async def cancel(self, timer_id: str) -> bool:
        cancelled = await self.store.move_timer(timer_id, "pending", "cancelled") or \
            await self.store.move_timer(timer_id, "paused", "cancelled")
        self.running = max(0, self.running - cancelled)
        return cancelled

    async def retime(self, timer: StoredTimer, left: float, paused: bool, seconds: int) -> bool:
        """A paused timer stays in the store, out of the due index, its due the seconds it has left."""
        return await self.store.retime_timer(timer.id, timer.state, "paused" if paused else "pending",
                                             left if paused else time.time() + left, seconds)

    async def cancel_all(self) -> int:
        cancelled = await self.store.cancel_timers(self.session_id)
        self.running = 0
        return cancelled

    async def add_change(self, seconds: int, call: str, bound: int) -> bool:
        """Counted and added in the store as one atomic step: every gateway sharing it keeps to one bound."""
        from streaming.session import new_id

        added = await self.store.add_change(StoredTimer(new_id("tmr"), self.session_id, int(seconds),
                                                        time.time() + seconds, call=call), bound)
        self.running += added
        return added

    def stop(self) -> None:
        """Stored timers outlive the session: the gateway rings them, or tells them at the next reply."""


@dataclass
class DeviceClaims:
    """Which gateway serves an MQTT satellite: the claim `device:<id>` (streaming.transports.mqtt.satellite)."""
    store: Store
    holder: str
    ttl_s: float

    async def take(self, device_id: str) -> bool:
        """Take the device, or keep it; False while another gateway serves it."""
        return await self.store.claim(f"device:{device_id}", self.holder, self.ttl_s)

    async def release(self, device_id: str) -> None:
        await self.store.release(f"device:{device_id}", self.holder)


@dataclass
class _Held:
    session: "Session"
    principal: str
    timers: DurableTimers
    claimed: bool = False            # the first claim has been written
    generation: int | None = None    # the conversation's generation this gateway writes (taken at the first save)
    dirty: bool = False
    saver: asyncio.Task | None = None
    tasks: set[asyncio.Task] = field(default_factory=set)


@dataclass
class _Waiting:
    """A session's last save that failed, tried again until the store takes it (and spooled, with a state dir)."""
    save: SpooledSave
    size: int                        # its JSON in bytes (the waiting bound)


class Gateway:
    def __init__(self, store: Store, gateway_id: str | None = None, metrics: "Metrics | None" = None,
                 state_dir: Path | None = None):
        from streaming.session import new_id

        self.store = store
        self.id = gateway_id or new_id("gw")
        self.metrics = metrics
        self.held: dict[str, _Held] = {}
        self._detaching: dict["Session", asyncio.Task] = {}   # sessions whose last state is being written
        self.waiting: OrderedDict[str, _Waiting] = OrderedDict()  # failed last saves, oldest first, tried again
        self._state_dir = state_dir                  # None: the waiting saves are kept in memory only
        self._spool: Spool | None = None
        self._spooled: dict[str, SpooledSave] = {}   # the save each session's spool file holds (or is written with)
        self.unspooled = 0                           # session ends the full spool refused since it was last not full
        self.spool_full = False                      # the spool refused a session's end and has taken none since
        self._retrier: asyncio.Task | None = None
        self._last_try = asyncio.Event()             # closing(): the waiting saves get one last try now
        self._supervisor: "Supervisor | None" = None
        self._tasks: set[asyncio.Task] = set()       # saves, last writes, endings of lost sessions: close bounds them
        self._cut_off: asyncio.TimerHandle | None = None   # set once closing() began: cancels the writes left
        self.store_answers = True                    # the timer poll's last store call answered (/healthz)
        self.home_of: Callable[[], Home] | None = None   # the home a change scheduled runs on when nobody holds its
                                                         # conversation (the server's); None: such a change is missed

    async def start(self, supervisor: "Supervisor") -> None:
        """The heartbeat and the timer poll run as the server's supervised jobs (/healthz shows them). With a state
        dir, the last saves a killed gateway left in its spool wait here first, as if they had failed here."""
        self._supervisor = supervisor
        if self._state_dir is not None and self.store.url != "sqlite://:memory:":     # a memory store dies with it
            self._spool = await Spool.opened(self._state_dir, self.store.url, 2 * MAX_WAITING_SAVES,
                                             2 * MAX_WAITING_BYTES)
        if self._spool is not None:
            try:
                left = await self._spool.read()
            except (OSError, TimeoutError) as error:
                log.error("the spool in %s cannot be read (%r); the saves in it are not tried", self._spool.directory,
                          error)
                left = []
            for save, size in left:
                self._spooled[save.session_id] = save
                self._add_waiting(_Waiting(save, size))
            if left:
                log.warning("%d last saves left in the spool by an earlier gateway wait for the store",
                            len(self.waiting))
        supervisor.start(HEARTBEAT_JOB, self._heartbeat)
        supervisor.start(TIMERS_JOB, self._ring_due_timers)

    def closing(self) -> None:
        """The server is shutting down: the writes in flight, and those its sessions' ends start now (a session's
        last items), have CLOSE_S from now to land; the ones still writing then are cancelled. Without this
        deadline a store that stops answering (a stuck disk) held the shutdown for as long as it hung."""
        if self._cut_off is None:
            self._cut_off = asyncio.get_running_loop().call_later(CLOSE_S, self._cancel_writes)
        self._last_try.set()

    def _cancel_writes(self) -> None:
        writing = [task for task in self._tasks if not task.cancelling()]    # once each, though close() comes too
        if writing:
            log.error("closing: %d saves still writing after %g s are cancelled (their sessions may lack their last "
                      "items in the store)", len(writing), CLOSE_S)
            for task in writing:
                task.cancel()

    async def close(self) -> None:
        """Stop the heartbeat and the timer poll, let the writes in flight land (a save may start another: a lost
        session's last one) until closing()'s deadline, then close the store; every wait bounded (CLOSE_S, the
        supervisor's, the store's)."""
        if self._supervisor is not None:
            await self._supervisor.stop(HEARTBEAT_JOB)
            await self._supervisor.stop(TIMERS_JOB)
        self.closing()
        loop = asyncio.get_running_loop()
        while self._tasks and (left := self._cut_off.when() - loop.time()) > 0:
            await asyncio.wait(set(self._tasks), timeout=left)
        self._cut_off.cancel()
        if self._tasks:
            self._cancel_writes()
            await asyncio.wait(set(self._tasks), timeout=CLOSE_S)
        if self.waiting:    # also when their last try was cut off mid-call (a stalled Redis: its bound is CLOSE_S too)
            if self._spool is not None:
                log.error("closing: %d last saves still wait for the store; they stay in the spool for the next "
                          "start", len(self.waiting))
            else:
                log.error("closing: %d last saves still wait for the store and are lost", len(self.waiting))
        try:
            await self.store.close()
        except Exception as error:  # noqa: BLE001 - the process is going: say so, and go
            log.error("closing the store failed: %s", repr(error))
        if self._spool is not None:
            self._spool.close()

    @property
    def has_spool(self) -> bool:
        return self._spool is not None

    def device_claims(self, ttl_s: float) -> DeviceClaims:
        return DeviceClaims(self.store, self.id, ttl_s)

    def timers_for(self, session_id: str) -> DurableTimers:
        return DurableTimers(self.store, session_id)

    async def resumable(self, session_id: str, principal: str) -> list[dict] | None:
        """The stored items of session_id if `principal` created it; None otherwise (unknown or not theirs).
        A session still live here (its client came back before the old socket closed) ends first, one whose
        last save is still writing is waited for (at most LAST_SAVE_S, then StillSaving), and so is another
        gateway holding it (`_handed_over`), so its newest items are stored before they are read."""
        live = self.held.get(session_id)
        if live is not None and live.principal == principal:
            await live.session.end("session_resumed_elsewhere")
            self._write_last_of(live.session)
        writing = {task for session, task in self._detaching.items() if session.id == session_id}
        if writing and (await asyncio.wait(writing, timeout=LAST_SAVE_S))[1]:
            log.warning("session %s: a resume is refused for now, its last save is still writing after %g s",
                        session_id, LAST_SAVE_S)
            raise StillSaving(f"session {session_id}'s last save is still writing; try again")
        if session_id in self.waiting:
            log.warning("session %s: a resume is refused for now, its last save failed and waits for the store",
                        session_id)
            raise StillSaving(f"session {session_id}'s last save waits for the state store; try again")
        await self._handed_over(session_id)
        conversation = await self.store.load_conversation(session_id)
        if conversation is None or conversation.principal != principal:
            return None
        return conversation.items

    async def _handed_over(self, session_id: str) -> None:
        """Wait while another gateway holds session_id, at most HANDOVER_S: its client closed there and came back
        here before that gateway's detach had written the last state and let the claim go. A claim held longer
        is a dead gateway's (it writes nothing more; the claim lapses within CLAIM_TTL_S) or a session still live
        there, its client back before the old socket closed: either way `attach` takes it over."""
        key, holder = session_key(session_id), None
        try:
            async with asyncio.timeout(HANDOVER_S):
                holder = await self.store.holder(key)
                if holder not in (None, self.id):
                    log.info("session %s: the resume waits for gateway %s to store it and let it go",
                             session_id, holder)
                while holder not in (None, self.id):
                    await asyncio.sleep(HANDOVER_POLL_S)
                    holder = await self.store.holder(key)
        except TimeoutError:
            if holder is None:           # the store never said who holds it
                log.warning("session %s: the store did not say who holds it within %g s; resuming what it has",
                            session_id, HANDOVER_S)
            else:
                log.warning("session %s: not let go by gateway %s within %g s (it died, the session is live there, or "
                            "the store is slow); resuming what the store has", session_id, holder, HANDOVER_S)

    def attach(self, session: "Session", principal: str, timers: DurableTimers) -> None:
        """Hold a new (or resumed) session here: claim it, and save its history whenever it changes."""
        old = self.held.get(session.id)
        held = self.held[session.id] = _Held(session, principal, timers)
        if old is not None:              # the same client reconnected to this gateway before its old socket closed
            self._spawn(held, old.session.end("session_resumed_elsewhere"))
        session.on_history_changed = lambda: self._changed(held)
        self._changed(held)

    async def detach(self, session: "Session") -> None:
        """The session closed: write its last state and let the claim go (timers stay, for whoever comes next).
        A second detach of the same session, and `resumable`, wait on the first's writing: the session has left
        `held` by then, and a save begun earlier may hold an older history than the last one. The writing is this
        gateway's task, not the caller's: the caller waits at most LAST_SAVE_S (a stuck store), and neither its
        leaving nor its cancellation (a handler at shutdown) cuts the writing short; close() bounds it."""
        writing = self._write_last_of(session)
        if writing is not None and (await asyncio.wait({writing}, timeout=LAST_SAVE_S))[1]:
            log.warning("session %s: its last save is still writing after %g s; the gateway goes on with it",
                        session.id, LAST_SAVE_S)

    def _write_last_of(self, session: "Session") -> asyncio.Task | None:
        """The task writing the session's last state, started here if it is still held; None if it is not."""
        writing = self._detaching.get(session)
        if writing is None:
            held = self.held.get(session.id)
            if held is None or held.session is not session:
                return None
            del self.held[session.id]       # before any await: a second detach of the same session waits on writing
            session.on_history_changed = None
            writing = self._detaching[session] = self._own(self._write_last(held), f"detach-{session.id}")
            writing.add_done_callback(lambda _: self._detaching.pop(session, None))
        return writing

    async def _write_last(self, held: _Held) -> None:
        stored = await self._save_last(held)
        for task in held.tasks:
            task.cancel()
        await asyncio.gather(*held.tasks, return_exceptions=True)
        if stored:                           # else the claim is let go once it lands (or lapses by itself)
            await self._release(held.session.id)

    async def _save_last(self, held: _Held) -> bool:
        """A session's last save: True if its first try stored it, False if that failed and it now waits
        (_wait_to_save). With a spool it is written there as its first try starts (both at once: the spool's write
        is on its own thread and never delays the store's), so a gateway killed at any moment from here on leaves
        it to the next one started on its state dir; its file goes once the store has it. At fb6c30e only a save
        whose first try had failed was spooled: a kill within the store's call bound lost it."""
        held.dirty = True
        save = SpooledSave(held.session.id, held.principal, held.session.history(), held.generation or 0, time.time())
        spooling = None
        if self._spool is not None:
            self._spooled[save.session_id] = save
            spooling = self._own(self._spooled_copy(save), f"spool-{save.session_id}")
        if await self._save(held):
            self._unspool(save, spooling)
            return True
        await self._wait_to_save(held, save, spooling)
        return False

    async def _spooled_copy(self, save: SpooledSave) -> tuple[int, Exception | None]:
        """Write save to the spool (encoded off the loop): its size in bytes, and the error if it is not there."""
        data = await asyncio.to_thread(save.encoded)       # up to MiBs: off the loop
        try:
            await self._spool.put(save.session_id, data)
        except SpoolBusy as error:
            self._refused_by_spool(error)
            return len(data), error
        except (OSError, TimeoutError) as error:
            return len(data), error
        if self.spool_full:
            log.warning("the spool takes session ends again; %d were not spooled while it was full", self.unspooled)
            self.spool_full, self.unspooled = False, 0
        return len(data), None

    def _refused_by_spool(self, error: SpoolBusy) -> None:
        """A session's end the spool refused: its disk has not finished the writes given before (a stuck or slow
        disk, or hundreds of sessions ending at once). It waits in memory only, so a kill loses it unless the store
        takes it first; at 216f494 nothing said so. Logged once while the spool stays full, each counted
        (`parley_store_saves_unspooled_total`), and /healthz shows `"spool": "full"` until the spool takes one again."""
        self.unspooled += 1
        if self.metrics is not None:
            self.metrics.save_unspooled()
        if not self.spool_full:
            self.spool_full = True
            log.error("the spool is full (%s): session ends are kept in memory only until it takes one again, and a "
                      "gateway killed meanwhile loses those the store has not taken", error)

    async def _release(self, session_id: str) -> None:
        try:
            await self.store.release(session_key(session_id), self.id)
        except Exception as error:  # noqa: BLE001 - the claim expires by itself
            log.warning("releasing session %s failed: %s", session_id, error)

    def _spawn(self, held: _Held, coro) -> None:
        task = self._own(coro, f"session-{held.session.id}")
        held.tasks.add(task)
        task.add_done_callback(held.tasks.discard)

    def _own(self, coro, name: str) -> asyncio.Task:
        """Run coro as this gateway's task: close waits for it, and its failure is logged, not left to the GC."""
        task = asyncio.create_task(coro, name=f"{self.id}:{name}")
        self._tasks.add(task)
        task.add_done_callback(self._ended)
        return task

    def _ended(self, task: asyncio.Task) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("gateway task %s failed", task.get_name(), exc_info=task.exception())

    async def _take(self, held: _Held) -> None:
        """Claim the session and become its conversation's writer, before its first save. Stored items the
        session was not resumed with (a late save by the gateway that had it) come back from that save; those its
        restore left out count as known, so that save replaces them."""
        await self.store.claim(session_key(held.session.id), self.id, CLAIM_TTL_S, take_over=True)
        held.generation = await self.store.take_conversation(
            held.session.id, held.principal, [item["id"] for item in held.session.history()] + held.session.left_out)
        held.timers.running = await self.store.pending_timers(held.session.id)
        held.claimed = True

    def _lost(self, held: _Held, why: str, merged: bool = False) -> None:
        """Another gateway has the session now: end the copy here (its client is told so when it closes), after
        one more save unless one was just merged: a save here may have failed (a slow store), and a save of a
        lost session only adds the items the store lacks (the fence), so nothing said here is lost."""
        if self.held.get(held.session.id) is held:
            log.info("session %s %s; ending it here", held.session.id, why)
            held.session.on_history_changed = None     # the other gateway owns the history now
            del self.held[held.session.id]
            self._own(self._end_lost(held, merged), f"end-lost-{held.session.id}")

    async def _end_lost(self, held: _Held, merged: bool) -> None:
        if not merged:
            await self._save_last(held)
        await held.session.end("session_resumed_elsewhere")

    async def _wait_to_save(self, held: _Held, save: SpooledSave, spooling: asyncio.Task | None) -> None:
        """A session's last save failed (the store stayed stuck past its call bound): it waits here and is tried
        again, with a doubling pause, while the gateway runs, so what was said is stored once the store is back.
        With a state dir its spool write (spooling, begun with its first try) is awaited before it joins the waiting
        ones (a resume meanwhile waits on the session's last write, as while it was in flight), and written again if
        the first try took the conversation (a new generation). Bounded by MAX_WAITING_SAVES and MAX_WAITING_BYTES:
        past them the oldest is dropped, logged and counted. At 2a69232 the wait was in memory only; at deb3ced such
        a save was logged and lost."""
        if spooling is None:
            size, error = len(await asyncio.to_thread(save.encoded)), None
        else:
            size, error = await spooling     # bounded: a spool write is awaited at most SPOOL_CALL_S
            if error is None and (held.generation or 0) != save.generation:
                save = self._spooled[save.session_id] = dataclasses.replace(save, generation=held.generation)
                size, error = await self._spooled_copy(save)
            if error is not None and not isinstance(error, SpoolBusy):     # a full spool is logged once, not per save
                log.error("session %s: its last save cannot be spooled (%r); it waits in memory only", save.session_id,
                          error)
                if self._spooled.get(save.session_id) is save:
                    del self._spooled[save.session_id]
        self._add_waiting(_Waiting(save, size))
        log.warning("session %s: its last save failed; it is tried again while the gateway runs (%d waiting)",
                    save.session_id, len(self.waiting))

    def _add_waiting(self, waiting: _Waiting) -> None:
        """Newest last, replacing the session's earlier one; the oldest dropped past the bounds; tried again."""
        self.waiting.pop(waiting.save.session_id, None)
        self.waiting[waiting.save.session_id] = waiting
        while len(self.waiting) > MAX_WAITING_SAVES or sum(w.size for w in self.waiting.values()) > MAX_WAITING_BYTES:
            session_id, dropped = self.waiting.popitem(last=False)
            log.error("session %s: its last save, waiting for the store, is dropped (over %d saves or %d bytes "
                      "waiting); the store lacks its last items", session_id, MAX_WAITING_SAVES, MAX_WAITING_BYTES)
            if self.metrics is not None:
                self.metrics.save_dropped()
            self._unspool(dropped.save)
        if self._retrier is None or self._retrier.done():
            self._retrier = self._own(self._retry_waiting(), "retry-saves")

    def _unspool(self, save: SpooledSave, spooling: asyncio.Task | None = None) -> None:
        """The save is stored (or dropped): its spooled copy goes too, once its write (spooling) has ended (the
        gateway's task, off the loop)."""
        if self._spooled.get(save.session_id) is save:
            self._own(self._remove_spooled(save, spooling), f"unspool-{save.session_id}")

    async def _remove_spooled(self, save: SpooledSave, spooling: asyncio.Task | None) -> None:
        """Only while the file holds this save, not once a newer last save of the session has begun (its write
        replaces the file; the spool runs its calls in the order given, so a removal given before it runs first)."""
        if spooling is not None:
            await asyncio.wait({spooling})   # bounded: a spool write is awaited at most SPOOL_CALL_S
        if self._spooled.get(save.session_id) is not save:
            return
        del self._spooled[save.session_id]
        if spooling is not None and (spooling.cancelled() or spooling.result()[1] is not None):
            return                           # never written (a write still running may land: the next start's)
        try:
            await self._spool.remove(save.session_id)
        except (OSError, TimeoutError) as error:
            log.warning("session %s: its spooled save could not be removed (%r); the next start writes it again, "
                        "fenced as any late save", save.session_id, error)

    async def _retry_waiting(self) -> None:
        """Try the waiting saves again, oldest first, until none waits: after RETRY_FIRST_S, doubling up to
        RETRY_MAX_S while the store still fails them, and once more, at once, when the gateway is closing (that
        try is bounded by closing()'s deadline). A save is written with the generation its gateway held (0 if it
        never took the conversation): if another gateway has taken the session since, it is a late save, merged."""
        pause = RETRY_FIRST_S
        while self.waiting:
            closing = self._last_try.is_set()
            if not closing:
                try:
                    await asyncio.wait_for(self._last_try.wait(), pause)
                except TimeoutError:
                    pass
            for session_id, waiting in list(self.waiting.items()):
                save = waiting.save
                try:
                    await self.store.save_conversation(session_id, save.principal, save.items, save.generation)
                except Exception as error:  # noqa: BLE001 - a driver's errors have no common base: tried again
                    log.warning("saving session %s failed: %s", session_id, error)
                    break
                if self.waiting.get(session_id) is waiting:
                    del self.waiting[session_id]
                    self._unspool(save)
                log.info("session %s: its waiting last save is stored", session_id)
                await self._release(session_id)
            else:
                pause = RETRY_FIRST_S
                continue
            if closing:
                return                 # close() says what is left
            pause = min(pause * 2, RETRY_MAX_S)

    def _changed(self, held: _Held) -> None:
        held.dirty = True
        if held.saver is None or held.saver.done():
            held.saver = self._own(self._save(held), f"save-{held.session.id}")

    async def _save(self, held: _Held) -> bool:
        """Write until nothing changed meanwhile: one write in flight per session, changes coalesced. False if a
        write failed (logged)."""
        if held.saver is not None and held.saver is not asyncio.current_task() and not held.saver.done():
            await asyncio.gather(held.saver, return_exceptions=True)
        while held.dirty:
            held.dirty = False
            try:
                if held.generation is None:
                    await self._take(held)
                saved = await self.store.save_conversation(held.session.id, held.principal, held.session.history(),
                                                           held.generation)
            except Exception as error:  # noqa: BLE001 - the next change writes again
                log.warning("saving session %s failed: %s", held.session.id, error)
                return False
            if saved.stale:
                self._lost(held, "was taken over by another gateway before this save (its new items are merged in)",
                           merged=True)
                return True
            if saved.lacking and self.held.get(held.session.id) is held:
                held.session.adopt(saved.lacking)        # changes the history: the loop saves again
        return True

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_S)
            for session_id, held in list(self.held.items()):
                if not held.claimed:
                    continue
                try:
                    kept = await self.store.claim(session_key(session_id), self.id, CLAIM_TTL_S)
                except Exception as error:  # noqa: BLE001 - try again next beat
                    log.warning("renewing session %s failed: %s", session_id, error)
                    continue
                if not kept:
                    self._lost(held, "was resumed on another gateway")

    async def _ring_due_timers(self) -> None:
        while True:
            await asyncio.sleep(TIMER_POLL_S)
            try:
                due = await self.store.due_timers(time.time())
                self.store_answers = True
                for timer in due:
                    await self._due(timer)
            except Exception as error:  # noqa: BLE001 - the store may be back next poll
                self.store_answers = False
                log.warning("reading due timers failed: %r", error)

    async def _due(self, timer: StoredTimer) -> None:
        held = self.held.get(timer.session_id)
        here = held is not None and held.claimed
        if timer.call is not None:
            await self._run_scheduled(timer, held if here else None)
            return
        if timer.state == "pending":
            if here:
                if await self.store.move_timer(timer.id, "pending", "rung"):
                    held.timers.running = max(0, held.timers.running - 1)
                    if held.session.tools is not None:       # "stop" and "snooze" are about it a while
                        held.session.tools.rang_now(timer)
                    held.session.ring_timer(timer.seconds, timer_done_text(timer.seconds, timer.name, timer.alarm))
            elif await self.store.holder(session_key(timer.session_id)) is None:
                await self.store.move_timer(timer.id, "pending", "missed")
        elif timer.state == "missed" and here:
            if await self.store.move_timer(timer.id, "missed", "told"):
                held.session.note_missed_timer(timer_missed_text(timer.seconds, timer.name, timer.alarm))

    async def _run_scheduled(self, timer: StoredTimer, held: _Held | None) -> None:
        """A change scheduled in a conversation whose time has come runs once, whichever gateways poll (the move to
        rung is atomic): on the gateway holding the conversation, in its runner, its session hearing the line; when
        nobody holds it, on any gateway, in a runner of its own on the home (home_of). A change that cannot run
        (no home here) is missed, and told nowhere."""
        if timer.state != "pending" or held is None and await self.store.holder(session_key(timer.session_id)):
            if timer.state == "missed":
                await self.store.move_timer(timer.id, "missed", "told")
            return
        tools = held.session.tools if held is not None else None
        if tools is None and self.home_of is None:
            await self.store.move_timer(timer.id, "pending", "missed")
            return
        if not await self.store.move_timer(timer.id, "pending", "rung"):
            return
        if held is not None:
            held.timers.running = max(0, held.timers.running - 1)
        try:
            said = await (tools or ToolRunner(home=self.home_of())).run_scheduled(timer.call)
        except Exception:  # noqa: BLE001 - one change failed (a home's bug): counted on /healthz, the poll goes on
            if self._supervisor is not None:
                self._supervisor.contain(TIMERS_JOB, f"scheduled change {timer.id}")
            return
        if held is not None:
            held.session.ring_timer(0, said)
