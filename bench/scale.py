"""Several gateways: what HAProxy and the state store add, and how many sessions each setup serves.

Setups (each gateway a real `parley serve` on a real Redis, HAProxy with deploy/haproxy/haproxy.cfg):
  direct       1 gateway, clients connect to it
  lb-1         the same gateway behind HAProxy (both HAProxy servers point at it)
  lb-2         2 gateways behind HAProxy
  lb-2-pinned  2 gateways behind HAProxy, each pinned to one core (taskset -c 0 / 1)
For each setup, N concurrent Realtime sessions each send typed turns (audio answers); first-audio is
client-measured from the request to the first response.output_audio.delta (bench/load.py's typed_turn).
The table gives p50 first-audio per N, the largest N whose p50 stays within 500 ms, and turns/s at that N.

Added latency: a WebSocket round trip (session.update → session.updated) direct vs through HAProxy, and
the store operations a session does (save the conversation, renew a claim, load it on resume) on SQLite
and Redis. Stage costs (one thread, in this process) feed the capacity model printed at the end.

    .venv/bin/python bench/scale.py [--sessions 1,2,4,8] [--turns 3] [--setups direct,lb-1,lb-2,lb-2-pinned]
"""
import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))   # gateway, HAProxy and Redis helpers

from gateways import GatewayProcess, HAProxy  # noqa: E402
from load import typed_turn  # noqa: E402
from realtime_client import RealtimeClient  # noqa: E402
from redis_server import RedisServer  # noqa: E402

from streaming.store import StoredTimer, open_store  # noqa: E402

REQUESTS = ["what is seven times six", "turn on the kitchen light", "what time is it", "set a timer for five minutes"]
TARGET_MS = 500
SESSION_TURN_EVERY_S = 15.0       # capacity model: a session asks something every 15 s


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def p50(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


async def session_turns(ws_url: str, turns: int, offset: int) -> list[float]:
    """First-audio ms of each of `turns` typed turns on one connection."""
    client = await RealtimeClient.connect(ws_url)
    try:
        await client.wait_for("session.created", timeout=60)
        return [(await typed_turn(client, REQUESTS[(offset + n) % len(REQUESTS)], audio=True))[0]
                for n in range(turns)]
    finally:
        await client.close()


async def load_level(ws_url: str, sessions: int, turns: int) -> tuple[float, float]:
    """(p50 first-audio ms, turns per second) with `sessions` concurrent sessions."""
    start = time.monotonic()
    results = await asyncio.gather(*(session_turns(ws_url, turns, n) for n in range(sessions)))
    elapsed = time.monotonic() - start
    latencies = [value for result in results for value in result]
    return p50(latencies), len(latencies) / elapsed


async def round_trips(direct_url: str, balanced_url: str, count: int = 100) -> tuple[float, float]:
    """p50 ms of session.update → session.updated, direct and through HAProxy, pings interleaved so both see
    the same machine load."""
    clients = [await RealtimeClient.connect(direct_url), await RealtimeClient.connect(balanced_url)]
    times: tuple[list[float], list[float]] = ([], [])
    try:
        for client in clients:
            await client.wait_for("session.created")
        for n in range(count):
            for client, bucket in zip(clients, times):
                start_index = len(client.events)
                started = time.monotonic()
                await client.send({"type": "session.update", "session": {"type": "realtime", "instructions": "Hi."}})
                await client.wait_for("session.updated", start=start_index)
                if n >= 10:
                    bucket.append((time.monotonic() - started) * 1000)
        return p50(times[0]), p50(times[1])
    finally:
        for client in clients:
            await client.close()


async def store_costs(url: str, count: int = 200) -> dict[str, float]:
    """p50 ms of what a session costs the store: save (20 items), claim renewal, load on resume, timer poll."""
    store = open_store(url)
    items = [{"id": f"item_{n}", "type": "message", "role": "user", "text": "turn on the kitchen light " * 2,
              "call_id": None, "name": None, "arguments": None, "segments": []} for n in range(20)]
    costs: dict[str, list[float]] = {"save": [], "claim": [], "load": [], "due timers": []}
    try:
        await store.add_timer(StoredTimer("tmr_bench", "sess_bench", 60, time.time() + 3600))
        generation = await store.take_conversation("sess_bench", "anonymous", [])
        for n in range(count):
            for name, operation in (("save", lambda: store.save_conversation("sess_bench", "anonymous", items,
                                                                             generation)),
                                    ("claim", lambda: store.claim("session:sess_bench", "gw_bench", 6.0)),
                                    ("load", lambda: store.load_conversation("sess_bench")),
                                    ("due timers", lambda: store.due_timers(time.time()))):
                started = time.perf_counter()
                await operation()
                costs[name].append((time.perf_counter() - started) * 1000)
    finally:
        await store.close()
    return {name: p50(values[10:]) for name, values in costs.items()}


def stage_costs() -> dict[str, float]:
    """CPU ms per unit of work on one thread: VAD per 32 ms frame, STT per 2 s utterance, TTS per reply,
    generator per reply."""
    import numpy as np
    import torch

    torch.set_num_threads(1)
    from assistant.embedded import EMBEDDED_CHECKPOINT, EmbeddedGenerator
    from assistant.generator import respond_sync
    from assistant.tools import ToolRunner
    from voice.audio import resample
    from voice.stt import WhisperSTT
    from voice.tts import PiperTTS
    from voice.vad import SileroModel, SileroVAD

    tts = PiperTTS()
    utterance = resample(tts.synthesize("Turn on the kitchen light please."), tts.sample_rate, 16000).astype(np.float32)
    vad = SileroVAD(SileroModel())
    frames = [utterance[i:i + 512] for i in range(0, utterance.size - 512, 512)]

    def timed(fn, repeat: int) -> float:
        fn()
        started = time.process_time()
        for _ in range(repeat):
            fn()
        return (time.process_time() - started) * 1000 / repeat

    vad_ms = timed(lambda: [vad.probability(f) for f in frames], 5) / len(frames)
    stt = WhisperSTT()
    stt_ms = timed(lambda: stt.transcribe(utterance), 3)
    tts_ms = timed(lambda: tts.synthesize("Okay, the kitchen light is on."), 5)
    generator = EmbeddedGenerator.load(EMBEDDED_CHECKPOINT)
    generator_ms = timed(lambda: respond_sync(generator, [{"role": "user", "content": "turn on the kitchen light"}],
                                              ToolRunner()), 5)
    return {"vad_frame": vad_ms, "stt_turn": stt_ms, "tts_reply": tts_ms, "generator_reply": generator_ms}


def capacity(costs: dict[str, float]) -> list[tuple[str, float, float]]:
    """(stage, CPU share of one session, sessions per core): audio flows all the time, one turn per 15 s."""
    shares = {
        "VAD (every 32 ms frame)": costs["vad_frame"] / 32.0,
        "STT (final + ~1 partial per turn)": 2 * costs["stt_turn"] / 1000 / SESSION_TURN_EVERY_S,
        "TTS (one reply per turn)": costs["tts_reply"] / 1000 / SESSION_TURN_EVERY_S,
        "generator, embedded on CPU": costs["generator_reply"] / 1000 / SESSION_TURN_EVERY_S,
    }
    return [(stage, share, 1 / share) for stage, share in shares.items()]


async def run_setup(name: str, workdir: Path, redis_url: str, levels: list[int], turns: int) -> dict:
    pinned = name == "lb-2-pinned"
    count = 1 if name in ("direct", "lb-1") else 2
    gateways = [GatewayProcess(f"{name}-gw{n + 1}", workdir, redis_url, "--max-sessions", "64",
                               cpus=str(n) if pinned else None) for n in range(count)]
    haproxy = None
    try:
        for gateway in gateways:
            gateway.start()
        if name == "direct":
            ws_url = f"ws://127.0.0.1:{gateways[0].http}/v1/realtime"
        else:
            haproxy = HAProxy(workdir, gateways[0], gateways[-1])
            haproxy.start()
            haproxy.wait_for({"gw1", "gw2"})
            ws_url = haproxy.ws_url
        await session_turns(ws_url, 2, 0)                    # warm-up
        rows = {}
        for sessions in levels:
            log(f"  {name}: {sessions} sessions x {turns} turns ...")
            rows[sessions] = await load_level(ws_url, sessions, turns)
            log(f"    p50 first audio {rows[sessions][0]:.0f} ms, {rows[sessions][1]:.2f} turns/s")
            if rows[sessions][0] > 8 * TARGET_MS:
                break                                        # far past the target: more sessions tell nothing
        result = {"levels": rows}
        if name == "lb-1":
            result["rtt_direct"], result["rtt_lb"] = await round_trips(
                f"ws://127.0.0.1:{gateways[0].http}/v1/realtime", ws_url)
        return result
    finally:
        if haproxy is not None:
            haproxy.stop()
        for gateway in gateways:
            gateway.stop()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", default="1,2,4,8")
    parser.add_argument("--turns", type=int, default=3)
    parser.add_argument("--setups", default="direct,lb-1,lb-2,lb-2-pinned")
    args = parser.parse_args()
    levels = [int(n) for n in args.sessions.split(",")]
    log(f"load: {os.getloadavg()[0]:.2f} (1 min), {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        redis = RedisServer(workdir)
        redis.start()
        try:
            log("store operations ...")
            stores = {"sqlite": await store_costs(f"sqlite://{workdir}/bench.db"), "redis": await store_costs(redis.url)}
            results = {}
            for setup in args.setups.split(","):
                log(f"setup {setup}")
                (workdir / setup).mkdir()
                results[setup] = await run_setup(setup, workdir / setup, redis.url, levels, args.turns)
        finally:
            redis.stop()
    log("stage costs (one thread) ...")
    costs = await asyncio.to_thread(stage_costs)

    print(f"\nload average at the end: {os.getloadavg()[0]:.2f} (1 min) on {os.cpu_count()} cores\n")
    print("| setup | " + " | ".join(f"p50 first audio, {n} sessions" for n in levels)
          + f" | sessions at p50 <= {TARGET_MS} ms | turns/s there |")
    print("|---|" + "---|" * (len(levels) + 2))
    for setup, result in results.items():
        rows = result["levels"]
        cells = [f"{rows[n][0]:.0f} ms" if n in rows else "-" for n in levels]
        within = [n for n in rows if rows[n][0] <= TARGET_MS]
        best = max(within) if within else 0
        print(f"| {setup} | " + " | ".join(cells) + f" | {best} | {rows[best][1]:.2f} |" if best else
              f"| {setup} | " + " | ".join(cells) + " | 0 | - |")
    if "lb-1" in results:
        lb = results["lb-1"]
        print(f"\nWebSocket round trip p50: direct {lb['rtt_direct']:.2f} ms, through HAProxy {lb['rtt_lb']:.2f} ms "
              f"(HAProxy adds {lb['rtt_lb'] - lb['rtt_direct']:.2f} ms)")
    print("\n| store op p50 | " + " | ".join(stores["redis"]) + " |")
    print("|---|" + "---|" * len(stores["redis"]))
    for backend, ops in stores.items():
        print(f"| {backend} | " + " | ".join(f"{value:.2f} ms" for value in ops.values()) + " |")
    print("\nStage costs, one thread: " + json.dumps({k: round(v, 2) for k, v in costs.items()}) + " (ms)")
    print(f"\n| stage (one turn per {SESSION_TURN_EVERY_S:g} s) | CPU share of one session | sessions per core |")
    print("|---|---|---|")
    total = 0.0
    for stage, share, per_core in capacity(costs):
        total += share
        print(f"| {stage} | {share * 100:.2f} % | {per_core:.0f} |")
    print(f"| all stages on CPU | {total * 100:.2f} % | {1 / total:.0f} |")


if __name__ == "__main__":
    asyncio.run(main())
