"""What `--generator` adds: the same embedded checkpoint in-process and behind `parley generator serve` on
loopback, measured side by side in one run (turns interleaved, so both see the same machine load).

1. Generator alone: the eight spoken requests of bench/latency.py as text, time to the first text block
   and to the whole reply, EmbeddedGenerator vs RemoteGenerator (tool calls run by the gateway either way).
2. Voice turns: two gateways in this process sharing Whisper, Piper and Silero, one with the embedded
   generator, one with --generator; each spoken request streamed at real-time pace over /v1/realtime to
   one, then the other (alternating which goes first), so each pair shares the machine's load.

    .venv/bin/python bench/remote_hop.py                           # starts `parley generator serve --port 0`
    .venv/bin/python bench/remote_hop.py --generator http://127.0.0.1:8010 --rounds 5 --turns 24

Target: at most 10 ms added at p50. Writes bench/out/remote_hop.md (the generator server's output: remote_hop-generator.log).
"""
from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

from generator_load import start_generator_server  # noqa: E402
from latency import RATE, REQUESTS, one_turn, open_session, percentile  # noqa: E402
from server_process import stop_server  # noqa: E402


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


async def voice_level(url_local: str, url_remote: str, audio, turns: int) -> dict:
    """The same spoken request to both gateways, back to back (alternating which goes first), per turn."""
    clients = {"in-process": await open_session(url_local, {"type": "semantic_vad"}),
               "--generator": await open_session(url_remote, {"type": "semantic_vad"})}
    samples = {name: [] for name in clients}
    for turn in range(turns):
        names = list(clients) if turn % 2 == 0 else list(clients)[::-1]
        results = {}
        for name in names:
            results[name] = await one_turn(clients[name], *audio[turn % len(audio)])
            await asyncio.sleep(0.3)
        if not any(r.get("failed") for r in results.values()):
            for name, result in results.items():
                samples[name].append(result)
        if (turn + 1) % 8 == 0:
            print(f"  voice turn {turn + 1}/{turns}", flush=True)
    for client in clients.values():
        await client.close()
    return samples


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--generator", help="a running generator server (default: start `parley generator serve`)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of the eight requests (generator level)")
    parser.add_argument("--turns", type=int, default=24, help="spoken turns per gateway (voice level)")
    parser.add_argument("--out", default=str(ROOT / "bench" / "out"))
    args = parser.parse_args(argv)

    from conftest import LiveServer, Speech

    from assistant.remote import RemoteGenerator
    from streaming.config import ServerConfig
    from streaming.engines import Engines

    process, url = (None, args.generator) if args.generator else \
        start_generator_server(Path(args.out) / "remote_hop-generator.log")
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
            voice = asyncio.run(voice_level(servers[0].ws_url, servers[1].ws_url, audio, args.turns))
        finally:
            for server in servers:
                server.stop()
    finally:
        stop_server(process)

    rows = ["| measured | in-process p50 (ms) | --generator p50 (ms) | added p50 (ms) | samples |",
            "|---|---|---|---|---|"]

    def row(label: str, pairs: list[tuple[float, float]]) -> None:
        """Medians of each side, and the median of the per-pair differences (each pair shared the load)."""
        a, b = [x for x, _ in pairs], [y for _, y in pairs]
        added = percentile([y - x for x, y in pairs], 50)
        rows.append(f"| {label} | {percentile(a, 50):.1f} | {percentile(b, 50):.1f} | {added:+.1f} | {len(pairs)} |")
    local, remote = generator["in-process"], generator["--generator"]
    row("generator: request → first text", [(x[0], y[0]) for x, y in zip(local, remote)])
    row("generator: request → whole reply", [(x[1], y[1]) for x, y in zip(local, remote)])
    turns = list(zip(voice["in-process"], voice["--generator"]))
    row("voice turn: transcript → first block (server)", [(x["server"]["transcript_to_first_block_ms"],
                                                          y["server"]["transcript_to_first_block_ms"]) for x, y in turns])
    row("voice turn: transcript → first audio (client)", [(x["transcript_to_audio"], y["transcript_to_audio"])
                                                          for x, y in turns])
    row("voice turn: voice-to-voice (client)", [(x["voice_to_voice"], y["voice_to_voice"]) for x, y in turns])
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
