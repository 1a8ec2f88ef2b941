"""Load on one `parley serve` process: how many sessions it carries before replies slow down, and whether
memory and reply time stay flat over a long run.

The server runs as its own process (embedded models, the session limit lifted), so its RSS is its own.
Each session is a Realtime WebSocket doing typed turns (conversation.item.create + response.create)
one after another; replies are spoken (generation, Piper, audio paced at real time) in the concurrency
runs and text-only in the soak (which is about leaks, not speed). Measured per concurrency level:
turns/s, first reply audio after the request (p50 / p95), the worst /healthz answer time while it ran
(polled every 100 ms), and the server's RSS before and after.

    .venv/bin/python bench/load.py                         # 4/8/16/32 sessions x 4 turns, 1,000-turn soak
    .venv/bin/python bench/load.py --levels 4 8 --turns 2 --soak-turns 200

Writes bench/out/load.md, and the server's output to bench/out/load-server.log. The suggested --max-sessions
is the largest level whose first-audio p95 stays under --target-ms (default 1,000 ms).
"""
from __future__ import annotations

import argparse
import asyncio
import os
import re
import sys
import time
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from latency import percentile  # noqa: E402
from realtime_client import RealtimeClient  # noqa: E402
from server_process import start_server, stop_server  # noqa: E402

REQUESTS = ["What is seven times six?", "Turn on the kitchen light.", "What time is it?",
            "Set the thermostat to twenty one degrees.", "Turn off the bedroom fan.",
            "What's the temperature in the garage?", "What is twelve plus thirty?", "Dim the living room to 40 percent."]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Server:
    """`parley serve` in a child process on a free loopback port, its output in `log`."""

    def __init__(self, log: Path) -> None:
        log.write_bytes(b"")

        def listening() -> bool:
            match = re.search(r"listening on (http://[\d.]+:\d+)/", log.read_text())
            if match:
                self.url = match[1]
            return bool(match)
        env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
        self.process = start_server(
            "parley serve", [sys.executable, "-m", "streaming.server", "--host", "127.0.0.1", "--port", "0",
                             "--max-sessions", "100000", "--audiosocket-port", "off", "--max-session-s", "86400"],
            log, listening, timeout=600, env=env, cwd=ROOT)
        self.ws_url = self.url.replace("http://", "ws://") + "/v1/realtime"

    def rss(self) -> float:
        return rss_mb(self.process.pid)

    def stop(self) -> None:
        stop_server(self.process, 30)


async def typed_turn(client: RealtimeClient, text: str, audio: bool) -> tuple[float, float]:
    """(ms to the first reply audio, or to the first text when audio is off; ms to response.done)."""
    start = len(client.events)
    sent = time.monotonic()
    await client.send({"type": "conversation.item.create", "item": {
        "type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}})
    await client.send({"type": "response.create", "response": {"output_modalities": ["audio" if audio else "text"]}})
    first_kind = "response.output_audio.delta" if audio else "response.output_text.delta"
    await client.wait_for(first_kind, start=start, timeout=300)
    first = client.received_at[next(i for i in range(start, len(client.events))
                                    if client.events[i]["type"] == first_kind)]
    done = await client.wait_for("response.done", start=start, timeout=300)
    if done["response"]["status"] != "completed":
        raise RuntimeError(f"a reply ended {done['response']['status']}: {done['response'].get('status_details')}")
    ended = client.received_at[client.events.index(done, start)]
    del client.events[:], client.received_at[:]      # a long run must not grow the bench's own memory
    return (first - sent) * 1000, (ended - sent) * 1000


async def session_turns(url: str, turns: int, offset: int, audio: bool, results: list, progress) -> None:
    client = await RealtimeClient.connect(url)
    await client.wait_for("session.created")
    try:
        for turn in range(turns):
            results.append(await typed_turn(client, REQUESTS[(offset + turn) % len(REQUESTS)], audio))
            progress()
    finally:
        await client.close()


async def poll_health(url: str, stop: asyncio.Event, worst: list[float]) -> None:
    async with aiohttp.ClientSession() as http:
        while not stop.is_set():
            started = time.monotonic()
            async with http.get(url + "/healthz") as response:
                await response.read()
            worst[0] = max(worst[0], (time.monotonic() - started) * 1000)
            await asyncio.sleep(0.1)


async def run_level(server: Server, sessions: int, turns: int, audio: bool = True) -> dict:
    results: list[tuple[float, float]] = []
    total = sessions * turns
    done = [0]

    def progress():
        done[0] += 1
        print(f"\r  {sessions:>3} sessions: {done[0]}/{total} turns", end="", flush=True)

    rss_before = server.rss()
    stop, worst = asyncio.Event(), [0.0]
    health = asyncio.create_task(poll_health(server.url, stop, worst))
    started = time.monotonic()
    await asyncio.gather(*(session_turns(server.ws_url, turns, n, audio, results, progress) for n in range(sessions)))
    wall = time.monotonic() - started
    stop.set()
    await health
    print()
    first = [r[0] for r in results]
    return {"sessions": sessions, "turns": total, "turns_per_s": total / wall, "first_p50": percentile(first, 50),
            "first_p95": percentile(first, 95), "healthz_worst": worst[0], "rss_before": rss_before,
            "rss_after": server.rss()}


async def soak(server: Server, sessions: int, turns: int, window: int) -> list[dict]:
    """`turns` text turns over `sessions` sessions; per window of turns: reply time and RSS."""
    results: list[tuple[float, float]] = []
    rows: list[dict] = []
    marks = [time.monotonic()]

    def progress():
        if len(results) % window == 0:
            replies = [r[1] for r in results[-window:]]
            rows.append({"turns": len(results), "reply_p50": percentile(replies, 50),
                         "reply_p95": percentile(replies, 95), "rss": server.rss(),
                         "turns_per_s": window / (time.monotonic() - marks[-1])})
            marks.append(time.monotonic())
            print(f"  soak: {len(results)}/{turns} turns, reply p50 {rows[-1]['reply_p50']:.0f} ms, "
                  f"RSS {rows[-1]['rss']:.0f} MB", flush=True)

    per_session = turns // sessions
    await asyncio.gather(*(session_turns(server.ws_url, per_session, n, False, results, progress)
                           for n in range(sessions)))
    return rows


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def report(levels: list[dict], soak_rows: list[dict], target_ms: float, args, load_before: str) -> str:
    lines = [f"`bench/load.py --levels {' '.join(map(str, args.levels))} --turns {args.turns} "
             f"--soak-turns {args.soak_turns} --soak-sessions {args.soak_sessions}` on {os.cpu_count()} cores; "
             f"load average {load_before} before, {load_average()} after.", "",
             "| sessions | turns | turns/s | first audio p50 / p95 (ms) | /healthz worst (ms) | RSS before → after (MB) |",
             "|---|---|---|---|---|---|"]
    for r in levels:
        lines.append(f"| {r['sessions']} | {r['turns']} | {r['turns_per_s']:.2f} | {r['first_p50']:.0f} / "
                     f"{r['first_p95']:.0f} | {r['healthz_worst']:.0f} | {r['rss_before']:.0f} → {r['rss_after']:.0f} |")
    fitting = [r["sessions"] for r in levels if r["first_p95"] <= target_ms]
    lines += ["", f"Largest level with first-audio p95 ≤ {target_ms:.0f} ms: "
              f"{max(fitting) if fitting else 'none'} sessions."]
    if soak_rows:
        lines += ["", f"Soak: {args.soak_turns} text turns over {args.soak_sessions} sessions "
                  "(reply = request → response.done):", "",
                  "| turns so far | reply p50 / p95 (ms) | turns/s | server RSS (MB) |", "|---|---|---|---|"]
        for row in soak_rows:
            lines.append(f"| {row['turns']} | {row['reply_p50']:.0f} / {row['reply_p95']:.0f} | "
                         f"{row['turns_per_s']:.1f} | {row['rss']:.0f} |")
    return "\n".join(lines) + "\n"


async def main_async(args) -> str:
    load_before = load_average()
    print(f"starting parley serve (loading models; its log: {OUT / 'load-server.log'})...", flush=True)
    server = Server(OUT / "load-server.log")
    try:
        await run_level(server, 1, 2)                 # warm-up: first-use costs are not load
        levels = []
        for sessions in args.levels:
            levels.append(await run_level(server, sessions, args.turns))
        soak_rows = await soak(server, args.soak_sessions, args.soak_turns, max(1, args.soak_turns // 10)) \
            if args.soak_turns else []
    finally:
        server.stop()
    return report(levels, soak_rows, args.target_ms, args, load_before)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", type=int, nargs="+", default=[4, 8, 16, 32])
    parser.add_argument("--turns", type=int, default=4, help="turns per session at each level")
    parser.add_argument("--soak-turns", type=int, default=1000)
    parser.add_argument("--soak-sessions", type=int, default=4)
    parser.add_argument("--target-ms", type=float, default=1000.0, help="first-audio p95 a level must keep")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    table = asyncio.run(main_async(args))
    (OUT / "load.md").write_text(table)
    print("\n" + table)


if __name__ == "__main__":
    main()
