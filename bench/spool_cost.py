"""What the spool costs a last save that waits for the store (streaming.spool), against no spool, in one run.

A gateway on an SQLite file in a temporary state directory puts a session's last save in its waiting saves again
and again (Gateway._wait_to_save, the path a failed last save takes), alternately with the spool (the save encoded
off the loop, written to a temporary file, flushed to the disk, renamed, the directory flushed) and without it (the
save encoded off the loop, kept in memory only); the store is never asked, as the pause before a retry is set far
off. Printed per conversation size: the median ms from the call to the save waiting, each way, their difference,
and the median ms of removing the spooled file once the save is stored (Spool.remove).

    .venv/bin/python bench/spool_cost.py [--rounds 40] [--dir /path/on/the/disk/to/measure]
"""
import argparse
import asyncio
import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import streaming.gateway as gateway_module  # noqa: E402
from streaming.gateway import MAX_WAITING_BYTES, MAX_WAITING_SAVES, Gateway  # noqa: E402
from streaming.spool import Spool  # noqa: E402
from streaming.store import open_store  # noqa: E402

SIZES = {"10 items, 2 KiB": (10, 60), "50 items, 100 KiB": (50, 1900), "200 items, 4 MiB": (200, 20000)}


def conversation(items: int, characters: int) -> list[dict]:
    """Items shaped as a session's history (Session.history()), each with a text of about this many characters."""
    text = ("the kitchen light and the hall light " * (characters // 37 + 1))[:characters]
    return [{"id": f"item_{n:020d}", "type": "message", "role": "user" if n % 2 == 0 else "assistant",
             "status": "completed", "content": [{"type": "input_text", "text": text}]} for n in range(items)]


def closed_session(items: list[dict]) -> SimpleNamespace:
    """What _wait_to_save reads of a closed session's hold: its id, principal, history and generation."""
    return SimpleNamespace(session=SimpleNamespace(id="sess_bench", history=lambda: [dict(i) for i in items]),
                           principal="bench", generation=3)


async def timed_ms(call) -> float:
    start = time.perf_counter()
    await call()
    return (time.perf_counter() - start) * 1000


async def main(rounds: int, directory: Path) -> None:
    gateway_module.RETRY_FIRST_S = 3600.0       # the store is never tried: only the wait itself is measured
    logging.getLogger("parley").setLevel(logging.ERROR)     # each round's "its last save failed" warning
    store = open_store(f"sqlite://{directory}/state.db")
    spooled, memory_only = Gateway(store, "gw-spool"), Gateway(store, "gw-memory")
    spooled._spool = await Spool.opened(directory, store.url, 2 * MAX_WAITING_SAVES, 2 * MAX_WAITING_BYTES)
    print(f"{rounds} rounds each way, alternating; spool in {spooled._spool.directory}")
    print(f"{'conversation':<20} {'no spool ms':>12} {'spool ms':>10} {'difference':>11} {'removal ms':>11}")
    for label, shape in SIZES.items():
        held = closed_session(conversation(*shape))
        without, with_spool, removal = [], [], []
        for _ in range(rounds):
            without.append(await timed_ms(lambda: memory_only._wait_to_save(held)))
            with_spool.append(await timed_ms(lambda: spooled._wait_to_save(held)))
            removal.append(await timed_ms(lambda: spooled._spool.remove("sess_bench")))
        a, b = statistics.median(without), statistics.median(with_spool)
        print(f"{label:<20} {a:>12.2f} {b:>10.2f} {b - a:>11.2f} {statistics.median(removal):>11.2f}")
    for gateway in (spooled, memory_only):
        if gateway._retrier is not None:
            gateway._retrier.cancel()
    spooled._spool.close()
    await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--dir", type=Path, default=None, help="the state directory (default: a temporary one)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        asyncio.run(main(args.rounds, args.dir or Path(scratch)))
