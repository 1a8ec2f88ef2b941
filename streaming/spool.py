"""The gateway's spool: its sessions' last saves, from their first try until the state store has them
(streaming.gateway), kept on local disk as well, so a gateway that is killed (SIGKILL, the OOM killer, a crash)
meanwhile loses none of them: the next gateway started on the same state directory reads them back and writes them
once the store takes them.

One file per last save, `<state dir>/spool/<hash of the store's URL>/<hash of the session id>.json` (a gateway
started on another store leaves them be), written whole to a temporary file,
flushed to the disk and renamed over the old one (os.replace is atomic), so a kill mid-write loses at most the save
being written and never a file already there. One gateway at a time uses a spool (an flock on `spool/lock`, which
the kernel lets go when the process dies); a second gateway on the same directory keeps its last saves in memory
only. A file that cannot be read back is logged and set aside (`.corrupt`); the gateway goes on.
"""
from __future__ import annotations

import asyncio
import fcntl
import hashlib
import json
import logging
import os
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

from streaming.store import DaemonWorker

log = logging.getLogger("parley.spool")

SPOOL_CALL_S = 10.0              # a spool call (a write of up to MAX_RECORD_BYTES, with fsync) is awaited this long


@dataclass(frozen=True)
class SpooledSave:
    """A session's last save as the spool keeps it."""
    session_id: str
    principal: str
    items: list[dict]
    generation: int                  # the generation its gateway wrote with (0: it never took the conversation)
    at: float                        # when its first try began (the spool's order: oldest first)

    def encoded(self) -> bytes:
        return json.dumps({"session_id": self.session_id, "principal": self.principal, "items": self.items,
                           "generation": self.generation, "at": self.at}).encode()

    @classmethod
    def decoded(cls, data: bytes) -> "SpooledSave":
        """ValueError (or a subclass: json.JSONDecodeError, UnicodeDecodeError) if data is not a whole save."""
        fields = json.loads(data)
        if not isinstance(fields, dict):
            raise ValueError("not an object")
        save = cls(fields.get("session_id"), fields.get("principal"), fields.get("items"), fields.get("generation"),
                   fields.get("at"))
        if not (isinstance(save.session_id, str) and isinstance(save.principal, str)
                and isinstance(save.items, list) and all(isinstance(i, dict) and isinstance(i.get("id"), str)
                                                         for i in save.items)
                and type(save.generation) is int and isinstance(save.at, (int, float))):
            raise ValueError("a field is missing or of the wrong type")
        return save


class SpoolBusy(OSError):
    """The spool's disk has not finished the calls given before (a stuck disk): this one is not even queued."""


class Spool:
    """The last saves of one gateway on disk (see the module's docstring); open() takes the directory. The file
    I/O runs on the spool's own daemon thread, in the order given, each call awaited at most SPOOL_CALL_S; calls not
    done yet are bounded by count and bytes (past them SpoolBusy), so a stuck disk holds neither the event loop,
    nor the gateway's close, nor unbounded memory."""

    def __init__(self, directory: Path, max_calls: int, max_bytes: int):
        self.directory = directory
        self._lock_fd: int | None = None
        self._worker = DaemonWorker("parley-spool")
        self._max_calls, self._max_bytes = max_calls, max_bytes
        self._pending = [0, 0]           # calls given and not done, and the bytes they write (guarded by _counting)
        self._counting = threading.Lock()

    @classmethod
    async def opened(cls, state_dir: Path, store_url: str, max_calls: int, max_bytes: int) -> "Spool | None":
        """The spool of the store at store_url in state_dir, locked for this process; None (logged) if it cannot be
        made or another running gateway uses it: that gateway's last saves then stay in its memory only."""
        store = hashlib.sha256(store_url.encode()).hexdigest()[:16]     # a Redis URL may hold a password
        spool = cls(Path(state_dir) / "spool" / store, max_calls, max_bytes)
        try:
            if await spool._run(0, spool._lock):
                return spool
            log.warning("the spool in %s is another running gateway's; this gateway keeps its last saves that wait "
                        "for the store in memory only", spool.directory)
        except (OSError, TimeoutError) as error:
            log.error("the spool in %s cannot be opened (%r); last saves that wait for the store are kept in "
                      "memory only", spool.directory, error)
        spool._worker.stop()
        return None

    async def _run(self, size: int, fn, *args):
        """fn(*args) on the spool's thread, awaited at most SPOOL_CALL_S (then TimeoutError: a call already running
        runs on, and those after it wait behind it; one still queued is dropped)."""
        with self._counting:
            if self._pending[0] >= self._max_calls or self._pending[1] + size > self._max_bytes:
                raise SpoolBusy(f"{self._pending[0]} calls of {self._pending[1]} bytes wait for the spool's disk; "
                                f"one more of {size} bytes would pass the bound")
            self._pending[0] += 1
            self._pending[1] += size
        call = self._worker.submit(fn, *args)
        call.add_done_callback(lambda _: self._finished(size))
        async with asyncio.timeout(SPOOL_CALL_S):
            return await asyncio.wrap_future(call)

    def _finished(self, size: int) -> None:
        with self._counting:
            self._pending[0] -= 1
            self._pending[1] -= size

    async def read(self) -> list[tuple[SpooledSave, int]]:
        """The saves a previous gateway left, oldest first, each with its size in bytes. See _read."""
        return await self._run(0, self._read)

    async def put(self, session_id: str, data: bytes) -> None:
        """Write the session's last save (data: SpooledSave.encoded()), replacing its earlier one, atomically."""
        await self._run(len(data), self._put, session_id, data)

    async def remove(self, session_id: str) -> None:
        """The session's save is stored (or dropped): its file goes."""
        await self._run(0, self._remove, session_id)

    def close(self) -> None:
        """Let the lock go (another gateway may use the spool now) and end the thread once the calls given before
        are done; a write still in flight (a stuck disk) ends with the process."""
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None
        self._worker.stop()

    def _lock(self) -> bool:
        """Make the directory and take its lock; False if another process holds it."""
        self.directory.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.directory / "lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return False
        self._lock_fd = fd
        return True

    def _path(self, session_id: str) -> Path:
        """A file name from any session id (a client may choose the id it resumes)."""
        return self.directory / (hashlib.sha256(session_id.encode()).hexdigest()[:32] + ".json")

    def _read(self) -> list[tuple[SpooledSave, int]]:
        """A file that is not a whole save is logged and set aside (renamed to .corrupt); temporary files of writes
        a kill cut short are removed; an unreadable directory is logged and read as empty."""
        saves = []
        try:
            paths = sorted(self.directory.iterdir())
        except OSError as error:
            log.error("the spool in %s cannot be read (%s); the saves in it are not tried", self.directory, error)
            return []
        for path in paths:
            if path.suffix == ".tmp":
                path.unlink(missing_ok=True)
            elif path.suffix == ".json":
                try:
                    data = path.read_bytes()
                    saves.append((SpooledSave.decoded(data), len(data)))
                except (OSError, ValueError) as error:
                    self._set_aside(path, error)
        return sorted(saves, key=lambda pair: pair[0].at)

    @staticmethod
    def _set_aside(path: Path, error: Exception) -> None:
        aside = path.with_suffix(".corrupt")
        try:
            path.replace(aside)
        except OSError as rename_error:
            log.error("spooled save %s cannot be read (%s) nor set aside (%s)", path.name, error, rename_error)
            return
        log.error("spooled save %s cannot be read (%s); it is set aside as %s", path.name, error, aside.name)

    def _put(self, session_id: str, data: bytes) -> None:
        fd, temporary = tempfile.mkstemp(dir=self.directory, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as file:
                file.write(data)
                file.flush()
                os.fsync(file.fileno())
            os.replace(temporary, self._path(session_id))
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        self._sync_directory()

    def _remove(self, session_id: str) -> None:
        self._path(session_id).unlink(missing_ok=True)
        self._sync_directory()

    def _sync_directory(self) -> None:
        """The rename or removal itself survives a power cut, not only a killed process."""
        fd = os.open(self.directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
