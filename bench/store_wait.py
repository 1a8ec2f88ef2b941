"""How long small SQLite store calls wait behind a big conversation read on the store's one thread.

A conversation of MAX_ITEMS items near MAX_RECORD_BYTES is stored; then, again and again, a resume's read of it
(load_conversation) and a save of it (save_conversation) are started together with small calls other sessions
make (a claim's renewal), each small call started just after the big one. Printed: the small calls' wait
(p50 / p90 / max, wall clock from its start to its answer) beside each big call, and with no big call at all.

    .venv/bin/python bench/store_wait.py [--rounds 20] [--small 5]
"""
import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from streaming.store import MAX_ITEMS, MAX_RECORD_BYTES, open_store  # noqa: E402


def big_conversation() -> list[dict]:
    """MAX_ITEMS items whose JSON takes a little under MAX_RECORD_BYTES."""
    text = "the kitchen light and the hall light " * ((MAX_RECORD_BYTES // MAX_ITEMS - 200) // 37)
    return [{"id": f"item_{n}", "type": "message", "role": "user", "text": text} for n in range(MAX_ITEMS)]


async def waits(store, big, rounds: int, small: int) -> list[float]:
    """The small calls' waits in ms, each round's started just after big() (none: big is None)."""
    measured = []
    for n in range(rounds):
        started = asyncio.create_task(big()) if big is not None else None
        await asyncio.sleep(0)                   # the big call is on the store's queue first

        async def timed(key):
            start = time.perf_counter()
            await store.claim(key, "gw", 6.0)
            return (time.perf_counter() - start) * 1000
        measured += await asyncio.gather(*(timed(f"session:{n}-{k}") for k in range(small)))
        if started is not None:
            await started
    return measured


def line(name: str, values: list[float]) -> str:
    values = sorted(values)
    p90 = values[int(0.9 * (len(values) - 1))]
    return f"{name:<28} p50 {statistics.median(values):7.2f} ms  p90 {p90:7.2f} ms  max {values[-1]:7.2f} ms"


async def main(rounds: int, small: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(f"sqlite://{folder}/state.db")
        items = big_conversation()
        generation = await store.take_conversation("sess_big", "anonymous", [])
        await store.save_conversation("sess_big", "anonymous", items, generation)
        print(f"stored conversation: {len(items)} items")
        print(line("small calls alone", await waits(store, None, rounds, small)))
        print(line("beside a 4 MiB read", await waits(store, lambda: store.load_conversation("sess_big"),
                                                       rounds, small)))
        print(line("beside a 4 MiB save", await waits(
            store, lambda: store.save_conversation("sess_big", "anonymous", items, generation), rounds, small)))
        start = time.perf_counter()
        for _ in range(rounds):
            await store.load_conversation("sess_big")
        print(f"4 MiB read alone: {(time.perf_counter() - start) * 1000 / rounds:.1f} ms each")
        await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--small", type=int, default=5)
    args = parser.parse_args()
    asyncio.run(main(args.rounds, args.small))
