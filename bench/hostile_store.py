"""What a big stored conversation costs a gateway on Redis (the figures in docs/history/security.md, round 37).

A record of --megabytes of JSON (well-formed items whose text is escaped non-ASCII, as `json.dumps` writes it) is
written past the store's code under one session id; then the gateway's calls for a resume and its first save
(`load_conversation`, `take_conversation`, `save_conversation`) run against it while a 5 ms timer ticks on the event
loop. Printed: the calls' wall time and the timer's worst lateness (the time the loop was held), for each size.

    .venv/bin/python bench/hostile_store.py --megabytes 4 100
"""
from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from redis_server import RedisServer  # noqa: E402

from streaming.store import RedisStore, open_store  # noqa: E402


def record(megabytes: float) -> bytes:
    text = "\u00e9" * 16_000                             # 96,000 bytes of JSON escapes an item
    count = max(1, int(megabytes * 1e6 / 96_050))
    items = [{"id": f"item_{n}", "type": "message", "role": "user", "text": text} for n in range(count)]
    return json.dumps({"principal": "principal-1", "items": items, "generation": 1, "taken": [], "late": []}).encode()


async def held(url: str, payload: bytes) -> tuple[float, float]:
    """(seconds the three calls took, the worst lateness of a 5 ms timer meanwhile)."""
    import redis.asyncio as redis

    writer = redis.from_url(url)
    await writer.set(f"{RedisStore.PREFIX}conversation:sess_big", payload)
    await writer.aclose()
    store = open_store(url)
    worst = 0.0

    async def tick():
        nonlocal worst
        while True:
            due = time.perf_counter() + 0.005
            await asyncio.sleep(0.005)
            worst = max(worst, time.perf_counter() - due)

    ticker = asyncio.create_task(tick())
    await asyncio.sleep(0.05)
    started = time.perf_counter()
    try:
        await store.load_conversation("sess_big")
        generation = await store.take_conversation("sess_big", "principal-1", [])
        await store.save_conversation("sess_big", "principal-1", [{"id": "item_new", "type": "message",
                                                                   "role": "user", "text": "hello"}], generation)
    except Exception as error:  # noqa: BLE001 - what the gateway would see is the figure
        print(f"  the calls failed: {type(error).__name__}: {error}"[:200])
    took = time.perf_counter() - started
    ticker.cancel()
    await store.close()
    return took, worst


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--megabytes", type=float, nargs="+", default=[4.0, 100.0])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        server = RedisServer(Path(directory))
        server.start()
        try:
            for megabytes in args.megabytes:
                payload = record(megabytes)
                took, worst = asyncio.run(held(server.url, payload))
                print(f"{len(payload) / 1e6:.1f} MB record: resume and first save {took * 1000:.0f} ms, "
                      f"event loop held at most {worst * 1000:.0f} ms")
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
