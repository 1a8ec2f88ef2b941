"""What the spool costs a session's last save (streaming.spool), against a gateway without one, in one run.

Two gateways on one SQLite file in a temporary state directory each write a closed session's last save again and
again (Gateway._write_last: the save, and the claim let go), alternately (and alternating which goes first): one
with a spool (the save also encoded off the loop, written to a temporary file, flushed to the disk, renamed, the
directory flushed, and the file removed once the store has it), one without (a gateway with no state dir, and what
every gateway did with a last save the store took at once before round 40). Printed per conversation size, medians
in ms: how long the last save takes each way (what a resume of the session waits for), their difference, and how
long the spool's part takes from the same start until the file is gone again (on the spool's thread, which the save
does not wait for). Run it on an older checkout too (round 39's code, `_write_last` the same) for that code's own
numbers.

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

from streaming.gateway import MAX_WAITING_BYTES, MAX_WAITING_SAVES, Gateway, _Held, session_key  # noqa: E402
from streaming.spool import Spool  # noqa: E402
from streaming.store import open_store  # noqa: E402

SIZES = {"10 items, 2 KiB": (10, 60), "50 items, 100 KiB": (50, 1900), "200 items, 4 MiB": (200, 20000)}


def conversation(items: int, characters: int) -> list[dict]:
    """Items shaped as a session's history (Session.history()), each with a text of about this many characters."""
    text = ("the kitchen light and the hall light " * (characters // 37 + 1))[:characters]
    return [{"id": f"item_{n:020d}", "type": "message", "role": "user" if n % 2 == 0 else "assistant",
             "status": "completed", "content": [{"type": "input_text", "text": text}]} for n in range(items)]


def closed_session(session_id: str, items: list[dict], generation: int) -> _Held:
    """A closed session's hold as _write_last reads it: its id, history, principal and the generation taken."""
    session = SimpleNamespace(id=session_id, history=lambda: [dict(i) for i in items], left_out=[],
                              on_history_changed=None)
    return _Held(session, "bench", SimpleNamespace(running=0), claimed=True, generation=generation)


async def timed_ms(gateway: Gateway, held: _Held) -> tuple[float, float]:
    """The last save's ms, and the ms until every task it started (the spool's write and removal) has ended."""
    start = time.perf_counter()
    await gateway._write_last(held)
    saved = time.perf_counter()
    while gateway._tasks:
        await asyncio.wait(set(gateway._tasks))
    return (saved - start) * 1000, (time.perf_counter() - start) * 1000


async def main(rounds: int, directory: Path) -> None:
    logging.getLogger("parley").setLevel(logging.ERROR)
    store = open_store(f"sqlite://{directory}/state.db")
    spooled, memory_only = Gateway(store, "gw-spool"), Gateway(store, "gw-memory")
    spooled._spool = await Spool.opened(directory, store.url, 2 * MAX_WAITING_SAVES, 2 * MAX_WAITING_BYTES)
    print(f"{rounds} rounds each way, alternating; spool in {spooled._spool.directory}")
    print(f"{'conversation':<20} {'no spool ms':>12} {'spool ms':>10} {'difference':>11} {'spool done ms':>14}")
    for label, shape in SIZES.items():
        items = conversation(*shape)
        generations = {}
        for gateway in (spooled, memory_only):
            await store.claim(session_key(f"sess_{gateway.id}"), gateway.id, 60, take_over=True)
            generations[gateway.id] = await store.take_conversation(f"sess_{gateway.id}", "bench", [])
        without, with_spool, spool_done = [], [], []
        for n in range(rounds):
            for gateway in ((memory_only, spooled) if n % 2 == 0 else (spooled, memory_only)):
                await store.claim(session_key(f"sess_{gateway.id}"), gateway.id, 60)
                saved, done = await timed_ms(gateway, closed_session(f"sess_{gateway.id}", items,
                                                                     generations[gateway.id]))
                (with_spool if gateway is spooled else without).append(saved)
                if gateway is spooled:
                    spool_done.append(done)
        a, b = statistics.median(without), statistics.median(with_spool)
        print(f"{label:<20} {a:>12.2f} {b:>10.2f} {b - a:>11.2f} {statistics.median(spool_done):>14.2f}")
    leftover = sorted(path.name for path in spooled._spool.directory.glob("*.json"))
    print(f"files left in the spool: {len(leftover)}")
    spooled._spool.close()
    await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--dir", type=Path, default=None, help="the state directory (default: a temporary one)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        asyncio.run(main(args.rounds, args.dir or Path(scratch)))
