"""Background tasks that must keep running (MQTT loops, TCP listeners): a task that dies is logged, counted,
shown as down on /healthz, and restarted with backoff. Nothing fails silently."""
from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import Awaitable, Callable

from streaming.logsafe import printable

log = logging.getLogger("parley.supervisor")

RESTART_INITIAL_S = 1.0
RESTART_MAX_S = 30.0
HEALTHY_AFTER_S = 60.0      # a task that ran this long before dying restarts at the initial delay again
CONTAINED_LOG_S = 10.0
STOP_S = 5.0                # stop() waits this long for a cancelled task to end


@dataclass
class Job:
    name: str
    run: Callable[[], Awaitable[None]] | None     # None: a worker its owner starts again (see `died`)
    running: bool = False
    crashes: int = 0
    last_error: str | None = None
    task: asyncio.Task | None = field(default=None, repr=False)


class Supervisor:
    def __init__(self, on_failure: Callable[[str, str], None] | None = None):
        self.on_failure = on_failure      # told (job name, "crash" | "message" | "stuck") of every failure (metrics)
        self.jobs: dict[str, Job] = {}
        self.contained: dict[str, int] = {}        # job name -> messages whose handling failed
        self._last_logged: dict[str, float] = {}

    def contain(self, name: str, what: str) -> None:
        """Inside an `except Exception`: one message failed, the loop goes on. Logged at most every
        CONTAINED_LOG_S per job (a device that repeats the message must not flood the log), always counted."""
        count = self.contained[name] = self.contained.get(name, 0) + 1
        if self.on_failure is not None:
            self.on_failure(name, "message")
        now = time.monotonic()
        if now - self._last_logged.get(name, -CONTAINED_LOG_S) >= CONTAINED_LOG_S:
            self._last_logged[name] = now
            log.exception("%s: handling %s failed (%d so far); the loop goes on", name, printable(what), count)

    def died(self, name: str, error: Exception) -> None:
        """Inside an `except Exception`: a worker this supervisor does not restart itself died (an MQTT satellite's
        worker, which its owner starts again). Logged, counted, down on /healthz until `revived`."""
        log.exception("worker %s died; it is started again", printable(name))
        previous = self.jobs.get(name)
        self.jobs[name] = Job(name, None, running=False, crashes=(previous.crashes if previous else 0) + 1,
                              last_error=f"{type(error).__name__}: {error}")
        if self.on_failure is not None:
            self.on_failure(name, "crash")

    def revived(self, name: str) -> None:
        """The worker `died` named runs again (or is let go with its device): /healthz forgets it."""
        job = self.jobs.get(name)
        if job is not None and job.run is None:
            del self.jobs[name]

    def start(self, name: str, run: Callable[[], Awaitable[None]]) -> None:
        """Keep `run()` running until stop(name) or close(); it is meant to run for ever."""
        job = self.jobs[name] = Job(name, run)
        job.task = asyncio.create_task(self._keep(job), name=f"supervised-{name}")

    async def _keep(self, job: Job) -> None:
        delay = RESTART_INITIAL_S
        while True:
            started = time.monotonic()
            job.running = True
            try:
                await job.run()
                error = "stopped"          # a background task that returns is as gone as one that raised
                log.error("background task %s stopped; restarting it", job.name)
            except asyncio.CancelledError:
                job.running = False
                raise
            except Exception as exc:  # noqa: BLE001 - every death is reported and restarted
                error = f"{type(exc).__name__}: {exc}"
                log.exception("background task %s died; restarting it", job.name)
            job.running, job.crashes, job.last_error = False, job.crashes + 1, error
            if self.on_failure is not None:
                self.on_failure(job.name, "crash")
            if time.monotonic() - started > HEALTHY_AFTER_S:
                delay = RESTART_INITIAL_S
            await asyncio.sleep(delay)
            delay = min(delay * 2, RESTART_MAX_S)

    @property
    def healthy(self) -> bool:
        return all(job.running for job in self.jobs.values())

    def status(self) -> dict[str, dict]:
        return {name: {"running": job.running, "crashes": job.crashes, "last_error": job.last_error,
                       "failed_messages": self.contained.get(name, 0)}
                for name, job in self.jobs.items()}

    async def stop(self, name: str) -> None:
        """Cancel the job and wait for it to end, at most STOP_S: a task that does not end when cancelled (a library
        that drops the cancel) is logged as an error and left, so a shutdown never hangs on it."""
        job = self.jobs.pop(name, None)
        if job is not None and job.task is not None:
            job.task.cancel()
            done, _ = await asyncio.wait({job.task}, timeout=STOP_S)
            if not done:
                log.error("background task %s did not end within %g s of its cancel; left running", name, STOP_S)
                if self.on_failure is not None:
                    self.on_failure(name, "stuck")

    async def close(self) -> None:
        for name in list(self.jobs):
            await self.stop(name)
