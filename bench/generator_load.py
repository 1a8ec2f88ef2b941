"""`parley generator serve` under load: 1, 4, 16 and 64 concurrent requests against the same server.

For each model (the embedded checkpoint, then random weights of the 30 M and 120 M shapes with the embedded
tokenizer) the server runs in its own process; a closed loop of C clients sends chat requests (varied home
requests, not streamed) until the level's requests are answered. Reported per level: written tokens per
second, p50 / p99 request latency, and from the server's /metrics: mean requests per forward pass, passes per
reply, and forward time per request-pass (a pass's duration over its rows: what batching saves in the network
itself). Each level is measured right after the same requests served one at a time, the baseline of its ratios,
so both see the same load on a shared machine. Each server's output goes to bench/out/generator_load-MODEL.log.

    .venv/bin/python bench/generator_load.py                      # ~4-6 min on the 2-core CPU
    .venv/bin/python bench/generator_load.py --models embedded --levels 1 16
    .venv/bin/python bench/generator_load.py --models LLaDA-8B --device cuda --dtype bfloat16 --levels 1 16 64   # GPU
"""
import argparse
import asyncio
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from server_process import start_server, stop_server  # noqa: E402

REQUESTS = ["turn on the kitchen light", "what is seven times six", "hello", "set a timer for ten minutes",
            "what's the humidity in the bathroom", "convert five miles to kilometers", "what time is it",
            "dim the living room lights to thirty percent please", "thank you", "tell me a joke",
            "turn off the fan in the bedroom", "what's the temperature in the office", "cancel the timer",
            "set the thermostat to twenty one degrees", "what's the date today", "what can you do"]
# Requests per level, at least the level's concurrency: fewer for the slower shapes on a CPU.
PER_LEVEL = {"embedded": 128, "30M": 32, "120M": 16, "LLaDA-8B": 64}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def metric_sums(text: str, name: str) -> tuple[float, float]:
    """(sum, count) of a Prometheus histogram."""
    found = {}
    for suffix in ("sum", "count"):
        match = re.search(rf"^{name}_{suffix} ([0-9.e+]+)$", text, re.M)
        found[suffix] = float(match.group(1)) if match else 0.0
    return found["sum"], found["count"]


def start_generator_server(log: Path, *options: str) -> tuple[subprocess.Popen, str]:
    """`parley generator serve --port 0 OPTIONS` in a child process, its output in `log`: the process and its
    /v1 URL."""
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_bytes(b"")
    found: list[str] = []

    def listening() -> bool:
        found[:] = re.findall(r"listening on (http://[\d.]+:\d+/v1)", log.read_text())
        return bool(found)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
    process = start_server("parley generator serve",
                           [sys.executable, "-m", "streaming.cli", "generator", "serve", "--port", "0", *options],
                           log, listening, timeout=600, env=env, cwd=ROOT)
    return process, found[0]


async def run_level(http: aiohttp.ClientSession, url: str, model: str, concurrency: int, count: int) -> dict:
    texts = [REQUESTS[i % len(REQUESTS)] for i in range(count)]
    pending = list(reversed(texts))
    latencies, tokens = [], 0

    async def client():
        nonlocal tokens
        while pending:
            text = pending.pop()
            started = time.perf_counter()
            async with http.post(url + "/chat/completions", json={
                    "model": model, "messages": [{"role": "user", "content": text}]}) as response:
                body = await response.json()
                if response.status != 200:
                    raise RuntimeError(f"{response.status}: {body}")
            latencies.append(time.perf_counter() - started)
            tokens += body["usage"]["completion_tokens"]

    async with http.get(url.removesuffix("/v1") + "/metrics") as response:
        before = await response.text()
    started = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(concurrency)))
    seconds = time.perf_counter() - started
    async with http.get(url.removesuffix("/v1") + "/metrics") as response:
        after = await response.text()
    rows = [a - b for a, b in zip(metric_sums(after, "parley_generator_batch_size"),
                                  metric_sums(before, "parley_generator_batch_size"))]
    passes = [a - b for a, b in zip(metric_sums(after, "parley_generator_passes_per_reply"),
                                    metric_sums(before, "parley_generator_passes_per_reply"))]
    forward_s = metric_sums(after, "parley_generator_pass_seconds")[0] - metric_sums(before, "parley_generator_pass_seconds")[0]
    return {"tokens_per_s": tokens / seconds, "p50": percentile(latencies, 0.5) * 1000,
            "p99": percentile(latencies, 0.99) * 1000, "batch": rows[0] / max(rows[1], 1),
            "passes": passes[0] / max(passes[1], 1), "row_ms": forward_s * 1000 / max(rows[0], 1),
            "requests": count, "seconds": seconds}


async def bench_model(model: str, args) -> list[dict]:
    options = ["--device", args.device, "--dtype", args.dtype, "--threads", str(args.threads),
               "--max-batch", "64", "--max-waiting", "256"] + ([] if model == "embedded" else ["--shape", model])
    process, url = start_generator_server(ROOT / "bench" / "out" / f"generator_load-{model}.log", *options)
    try:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=600)) as http:
            await run_level(http, url, model, 4, 8)      # warm-up: first passes allocate and tune
            results = []
            for concurrency in args.levels:
                count = max(concurrency, args.requests or PER_LEVEL.get(model, 32))
                # The same requests one at a time just before, so both see the same machine load.
                alone = await run_level(http, url, model, 1, count)
                result = alone if concurrency == 1 else await run_level(http, url, model, concurrency, count)
                results.append({"model": model, "concurrency": concurrency, **result, "alone": alone})
                print(f"{model} x{concurrency}: {count} requests in {result['seconds']:.1f} s, "
                      f"{result['tokens_per_s']:.0f} tok/s (one at a time {alone['tokens_per_s']:.0f}), "
                      f"p50 {result['p50']:.0f} ms (one at a time {alone['p50']:.0f}), batch {result['batch']:.1f} "
                      f"(load {os.getloadavg()[0]:.1f})", file=sys.stderr, flush=True)
            return results
    finally:
        stop_server(process, 60)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", nargs="+", default=["embedded", "30M", "120M"],
                        help="embedded and/or shapes of dllm_core/shapes.py")
    parser.add_argument("--levels", nargs="+", type=int, default=[1, 4, 16, 64], help="concurrent requests")
    parser.add_argument("--requests", type=int, help="requests per level (default: per model, at least the level)")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--dtype", default="float32", choices=["float32", "bfloat16", "float16"])
    parser.add_argument("--threads", type=int, default=1, help="the server's CPU threads")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()
    started = time.perf_counter()
    rows = []
    for model in args.models:
        rows += asyncio.run(bench_model(model, args))
    load_after = os.getloadavg()
    print(f"{os.cpu_count()} CPUs, device {args.device}, {args.dtype}, server threads {args.threads}; load average "
          f"{load_before[0]:.2f} before, {load_after[0]:.2f} after; {time.perf_counter() - started:.0f} s in all\n")
    print("| model | concurrent | requests | tokens/s | one at a time | ratio | p50 ms | one at a time | ratio | p99 ms "
          "| requests per pass | passes per reply | forward ms per request-pass (one at a time) |")
    print("|" + "---|" * 13)
    for row in rows:
        alone = row["alone"]
        print(f"| {row['model']} | {row['concurrency']} | {row['requests']} | {row['tokens_per_s']:,.0f} | "
              f"{alone['tokens_per_s']:,.0f} | {row['tokens_per_s'] / alone['tokens_per_s']:.2f}x | {row['p50']:.0f} | "
              f"{alone['p50']:.0f} | {row['p50'] / alone['p50']:.2f}x | {row['p99']:.0f} | {row['batch']:.1f} | "
              f"{row['passes']:.2f} | {row['row_ms']:.1f} ({alone['row_ms']:.1f}) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
