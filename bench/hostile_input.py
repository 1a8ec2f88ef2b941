"""What hostile input costs the gateway and the generator server (the figures in docs/security.md).

1. The gateway's stream parser: 10 MiB of bare `\\n`, of bare `\\r`, in 64 KiB reads (a remote generator's
   stream), with the stream bound lifted so every byte is read.
2. `parley generator serve` (the embedded checkpoint, in this process): a normal request alone, and sent 50 ms
   after six requests whose earlier turn is 200,000 characters, each the median of --rounds.

    .venv/bin/python bench/hostile_input.py --rounds 3

Writes bench/out/hostile_input.md.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from assistant.chat_completions import ChatCompletionStream  # noqa: E402

KITCHEN = [{"role": "user", "content": "turn on the kitchen light"}]


def parser_seconds(ends: bytes, total: int = 10 << 20) -> float:
    parser = ChatCompletionStream(max_stream_bytes=1 << 40)
    piece = ends * (64 * 1024 // len(ends))
    started = time.perf_counter()
    for _ in range(total // len(piece)):
        parser.receive_data(piece)
    return time.perf_counter() - started


async def server_seconds(rounds: int) -> tuple[float, float]:
    import aiohttp
    from test_generator_server import ServerThread

    from assistant.embedded import EmbeddedGenerator
    from assistant.generator_server import GeneratorConfig, GeneratorService

    server = ServerThread(GeneratorService(EmbeddedGenerator.load(), GeneratorConfig(port=0), "parley-home"))
    heavy = json.dumps({"messages": [{"role": "user", "content": "blah " * 40_000},
                                     {"role": "assistant", "content": "Okay."}] + KITCHEN})
    light = json.dumps({"messages": KITCHEN})
    try:
        async with aiohttp.ClientSession(headers={"Content-Type": "application/json"}) as http:
            async def one(body: str) -> float:
                started = time.perf_counter()
                async with http.post(server.url + "/v1/chat/completions", data=body) as response:
                    await response.read()
                return time.perf_counter() - started

            alone = [await one(light) for _ in range(rounds)]
            behind = []
            for _ in range(rounds):
                heavies = [asyncio.create_task(one(heavy)) for _ in range(6)]
                await asyncio.sleep(0.05)
                behind.append(await one(light))
                await asyncio.gather(*heavies)
    finally:
        server.close()
    return statistics.median(alone), statistics.median(behind)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=ROOT).stdout.strip()
    load = os.getloadavg()[0]
    rows = [(f"stream parser, 10 MiB of bare {name}", f"{parser_seconds(ends) * 1000:.0f} ms")
            for name, ends in (("\\n", b"\n"), ("\\r", b"\r"))]
    alone, behind = asyncio.run(server_seconds(args.rounds))
    rows += [("generator server, a normal request alone", f"{alone * 1000:.0f} ms"),
             ("... sent after six with a 200,000-character earlier turn", f"{behind * 1000:.0f} ms")]
    table = [f"Hostile input at {commit}, load {load:.1f} at the start, medians of {args.rounds} (server rows)", "",
             "| case | time |", "|---|---|"] + [f"| {case} | {value} |" for case, value in rows]
    out = ROOT / "bench" / "out"
    out.mkdir(exist_ok=True)
    (out / "hostile_input.md").write_text("\n".join(table) + "\n")
    print("\n".join(table))
    return 0


if __name__ == "__main__":
    sys.exit(main())
