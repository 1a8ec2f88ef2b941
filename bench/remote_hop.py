"""What `--generator` adds: the same embedded checkpoint in-process and behind `parley generator serve` on
loopback, measured side by side in one run (turns interleaved, so both see the same machine load).

1. Generator alone: the eight spoken requests of bench/latency.py as text, time to the first text block
   and to the whole reply, EmbeddedGenerator vs RemoteGenerator (tool calls run by the gateway either way).
2. Voice turns: two gateways in this process sharing Whisper, Piper and Silero, one with the embedded
   generator, one with --generator; spoken requests streamed at real-time pace over /v1/realtime.

    .venv/bin/python bench/remote_hop.py                           # starts `parley generator serve --port 0`
    .venv/bin/python bench/remote_hop.py --generator http://127.0.0.1:8010 --rounds 5 --turns 8

Target: at most 10 ms added at p50. Writes bench/out/remote_hop.md.
"""
from __future__ import annotations

import argparse
import asyncio
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

from latency import RATE, REQUESTS, one_session, percentile  # noqa: E402


def start_generator_server() -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen([sys.executable, "-m", "streaming.cli", "generator", "serve", "--port", "0"],
                               stdout=subprocess.PIPE, text=True, cwd=ROOT)
    for line in process.stdout:
        found = re.search(r"listening on (http://[\d.]+:\d+)", line)
        if found:
            return process, found.group(1)
    raise SystemExit("parley generator serve did not start")


async def reply_times(generator, text: str) -> tuple[float, float, str]:
    """(ms to the first text block, ms to the end of the reply, who wrote it)."""
    from assistant.generator import DoneEvent, TextEvent
    from assistant.tools import ToolRunner

    tools = ToolRunner()
    started, first, writer = time.perf_counter(), None, ""
    async for event in generator.respond([{"role": "user", "content": text}], tools, session_id="bench"):
        if isinstance(event, TextEvent) and first is None:
            first = time.perf_counter()
        elif isinstance(event, DoneEvent):
            writer = event.reply.generator
    done = time.perf_counter()
    tools.stop_timers()
    return (first - started) * 1000, (done - started) * 1000, writer


async def generator_level(local, remote, rounds: int) -> dict:
    samples = {"in-process": [], "--generator": []}
    for round_ in range(rounds):
        for n, text in enumerate(REQUESTS):
            pair = [("in-process", local), ("--generator", remote)]
            for name, generator in (pair if (round_ + n) % 2 == 0 else pair[::-1]):
                first, done, writer = await reply_times(generator, text.lower().rstrip("."))
                if name == "--generator" and writer != "remote":
                    raise SystemExit(f"the remote generator did not answer ({writer}): is it up?")
                samples[name].append((first, done))
        print(f"  generator round {round_ + 1}/{rounds}", flush=True)
    await remote.aclose()
    return samples


def voice_level(url_local: str, url_remote: str, audio, rounds: int, turns: int) -> dict:
    samples = {"in-process": [], "--generator": []}
    for round_ in range(rounds):
        order = [("in-process", url_local), ("--generator", url_remote)]
        for name, url in (order if round_ % 2 == 0 else order[::-1]):
            results = asyncio.run(one_session(url, {"type": "semantic_vad"}, audio, turns, offset=round_))
            samples[name] += [r for r in results if not r.get("failed")]
        print(f"  voice round {round_ + 1}/{rounds}", flush=True)
    return samples


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--generator", help="a running generator server (default: start `parley generator serve`)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of the eight requests (generator level)")
    parser.add_argument("--voice-rounds", type=int, default=2, help="sessions per gateway (voice level)")
    parser.add_argument("--turns", type=int, default=8, help="spoken turns per session")
    parser.add_argument("--out", default=str(ROOT / "bench" / "out"))
    args = parser.parse_args(argv)

    from conftest import LiveServer, Speech

    from assistant.remote import RemoteGenerator
    from streaming.config import ServerConfig
    from streaming.engines import Engines

    process, url = (None, args.generator) if args.generator else start_generator_server()
    try:
        local = Engines.load_default()
        print(f"generator server {url}; loaded the embedded models", flush=True)
        generator = asyncio.run(generator_level(local.generator, RemoteGenerator(url, model="parley-home"),
                                                args.rounds))
        remote = Engines(stt=local.stt, tts=local.tts, vad_model=local.vad_model,
                         generator=RemoteGenerator(url, model="parley-home", fallback=local.generator))
        servers = [LiveServer(ServerConfig(port=0), engines) for engines in (local, remote)]
        speech = Speech(local.tts)
        audio = [(pcm, speech.speech_end_ms(pcm, RATE))
                 for pcm in (speech.piper(text, rate=RATE, lead_ms=400, tail_ms=1500) for text in REQUESTS)]
        try:
            voice = voice_level(servers[0].ws_url, servers[1].ws_url, audio, args.voice_rounds, args.turns)
        finally:
            for server in servers:
                server.stop()
    finally:
        if process is not None:
            process.kill()
            process.wait()

    rows = ["| measured | in-process p50 (ms) | --generator p50 (ms) | added p50 (ms) | samples |", "|---|---|---|---|---|"]

    def row(label: str, a: list[float], b: list[float]) -> None:
        pa, pb = percentile(a, 50), percentile(b, 50)
        rows.append(f"| {label} | {pa:.1f} | {pb:.1f} | {pb - pa:+.1f} | {len(a)} / {len(b)} |")
    row("generator: request → first text", [s[0] for s in generator["in-process"]], [s[0] for s in generator["--generator"]])
    row("generator: request → whole reply", [s[1] for s in generator["in-process"]], [s[1] for s in generator["--generator"]])
    row("voice turn: transcript → first audio", [t["transcript_to_audio"] for t in voice["in-process"]],
        [t["transcript_to_audio"] for t in voice["--generator"]])
    row("voice turn: voice-to-voice", [t["voice_to_voice"] for t in voice["in-process"]],
        [t["voice_to_voice"] for t in voice["--generator"]])
    writers = {t.get("generator") for t in voice["--generator"]}
    text = "\n".join(rows) + f"\n\nvoice replies through --generator written by: {', '.join(sorted(map(str, writers)))}\n"
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "remote_hop.md").write_text(text)
    print()
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
