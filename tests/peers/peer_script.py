"""What the peer scripts share: the command line tests/test_peer_clients.py runs them with, and a microphone's
real-time pace. Standard library only: it is imported in .venv-peers, beside Pipecat or LiveKit."""
import argparse
import asyncio
import json
import time
from pathlib import Path

CHUNK_MS = 20


async def paced(pcm: bytes, rate: int):
    """PCM16 mono in CHUNK_MS chunks, each after the one before has had its time."""
    step = rate * 2 * CHUNK_MS // 1000
    start = time.monotonic()
    for n, offset in enumerate(range(0, len(pcm), step)):
        yield pcm[offset:offset + step]
        await asyncio.sleep(max(0.0, start + (n + 1) * CHUNK_MS / 1000 - time.monotonic()))


def main(run, scenarios: list[str]) -> None:
    """Parse SCENARIO --url --out [--speech --interruption --rate], run(args), write OUT/result.json."""
    parser = argparse.ArgumentParser()
    parser.add_argument("scenario", choices=scenarios)
    parser.add_argument("--url", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--speech")
    parser.add_argument("--interruption", help="barge_in: what is said over the reply")
    parser.add_argument("--rate", type=int, default=16000)
    args = parser.parse_args()
    result = asyncio.run(run(args))
    (Path(args.out) / "result.json").write_text(json.dumps(result, indent=1))
