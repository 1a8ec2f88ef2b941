"""Voice-to-voice latency over /v1/realtime, measured the way a caller experiences it.

Spoken requests (Piper's voice; --voices: any of bench/voices.py's, each reported on its own) stream in 20 ms
chunks at real-time pace. For every turn the client knows from
the audio when the words end, and notes when input_audio_buffer.speech_stopped, the final transcript
and the first response.output_audio.delta arrive. Reported: p50 / p90 of each stage and of voice-to-voice
(end of speech -> first reply audio), with 1, 4 and 8 concurrent sessions, for Parley's default turn
detection (semantic_vad: words + Smart Turn) and OpenAI's default (server_vad, 500 ms of silence) as the
baseline, and how many replies were prepared during a pause (speculations) and used or wasted. A second table
says where the time goes after the last word: the median moment, from the end of the words, of the server's last
speech frame (Silero's lag), the pause's transcript, Smart Turn's verdict, the turn's end, the reply's first text,
its first clause's audio and its first audio sent.

    .venv/bin/python bench/latency.py                       # in-process server on a free port
    .venv/bin/python bench/latency.py --turns 6 --concurrency 1 4 8 --url ws://127.0.0.1:8080/v1/realtime
    .venv/bin/python bench/latency.py --turns 8 --concurrency 1 --voices all     # every voice, both rules each

Writes bench/out/latency.md (the table), latency.json and latency.png.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import urllib.request
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from realtime_client import RealtimeClient  # noqa: E402
from voices import RATE as VOICE_RATE, VOICES, speak  # noqa: E402

REQUESTS = ["What is seven times six?", "Turn on the kitchen light.", "What time is it?",
            "Set the thermostat to twenty one degrees.", "Turn off the bedroom fan.",
            "What's the temperature in the garage?", "Set a timer for five minutes.", "What is twelve plus thirty?"]
STAGES = [("end_to_vad", "end of speech → speech_stopped"), ("vad_to_transcript", "speech_stopped → transcript"),
          ("transcript_to_audio", "transcript → first audio"), ("voice_to_voice", "voice-to-voice")]
# where the time goes after the last word: each moment from the end of the words in the audio (the server's own
# stages, from its last speech frame, put after Silero's lag: the client's voice-to-voice less the server's)
MOMENTS = [("last_speech_frame", "last speech frame (Silero)", None),
           ("pause_transcript", "pause transcript", "end_of_speech_to_pause_transcript_ms"),
           ("smart_turn", "Smart Turn", "end_of_speech_to_smart_turn_ms"),
           ("turn_end", "turn end", "end_of_speech_to_vad_ms"),
           ("first_text", "first text", "end_of_speech_to_first_block_ms"),
           ("first_clause", "first clause audio", "end_of_speech_to_first_clause_ms"),
           ("first_audio", "first audio sent", "voice_to_voice_ms")]
RATE = 24000


def speculations(ws_url: str) -> dict[str, float]:
    """The server's speculation counters (used / wasted) from /metrics."""
    http = ws_url.replace("ws://", "http://").replace("wss://", "https://").split("/v1/")[0]
    text = urllib.request.urlopen(f"{http}/metrics", timeout=10).read().decode()
    return {m[1]: float(m[2]) for m in re.finditer(r'parley_speculations_total\{outcome="(\w+)"\} ([\d.e+]+)', text)}


def percentile(values: list[float], p: float) -> float:
    return float(np.percentile(values, p)) if values else float("nan")


async def open_session(url: str, turn_detection: dict) -> RealtimeClient:
    client = await RealtimeClient.connect(url)
    await client.wait_for("session.created")
    await client.send({"type": "session.update", "session": {"type": "realtime", "audio": {"input": {
        "turn_detection": turn_detection}}}})
    await client.wait_for("session.updated")
    return client


async def one_turn(client: RealtimeClient, pcm: bytes, end_ms: float) -> dict:
    """One spoken turn: the stage times in ms, from the client's side."""
    start_index = len(client.events)
    # then silence, as a microphone keeps sending, until the reply is done (semantic_vad may wait up to 4 s)
    answered = asyncio.Event()
    stream = asyncio.create_task(client.stream_audio(pcm + bytes(RATE * 2 * 10), RATE, stop=answered))
    streamed_from = time.monotonic()
    done = await client.wait_for("response.done", start=start_index, timeout=120)
    answered.set()
    await stream
    speech_end = streamed_from + end_ms / 1000        # when the last word left the "microphone"

    def arrival(kind: str) -> float | None:
        for i in range(start_index, len(client.events)):
            if client.events[i]["type"] == kind:
                return client.received_at[i]
        return None
    stopped, transcript = arrival("input_audio_buffer.speech_stopped"), arrival(
        "conversation.item.input_audio_transcription.completed")
    first_audio = arrival("response.output_audio.delta")
    if None in (stopped, transcript, first_audio) or done["response"]["status"] != "completed":
        return {"failed": True}
    metadata = done["response"].get("metadata") or {}
    return {"end_to_vad": (stopped - speech_end) * 1000,
            "vad_to_transcript": (transcript - stopped) * 1000,
            "transcript_to_audio": (first_audio - transcript) * 1000,
            "voice_to_voice": (first_audio - speech_end) * 1000,
            "server": {k: float(v) for k, v in metadata.items() if k.endswith("_ms")},
            "generator": metadata.get("generator")}


async def one_session(url: str, turn_detection: dict, audio: list[tuple[bytes, float]], turns: int,
                      offset: int) -> list[dict]:
    """Run `turns` spoken turns on one connection; per turn the stage times in ms."""
    client = await open_session(url, turn_detection)
    results = []
    for turn in range(turns):
        results.append(await one_turn(client, *audio[(offset + turn) % len(audio)]))
        await asyncio.sleep(0.3)
    await client.close()
    return results


async def run_level(url: str, turn_detection: dict, audio, concurrency: int, turns: int) -> list[dict]:
    sessions = [one_session(url, turn_detection, audio, turns, offset=i) for i in range(concurrency)]
    return [turn for session in await asyncio.gather(*sessions) for turn in session]


def moments(turn: dict) -> dict[str, float]:
    """A turn's moments (ms after the end of the words) that the server reported."""
    server = turn["server"]
    lag = turn["voice_to_voice"] - server["voice_to_voice_ms"]
    return {name: lag + (server[key] if key else 0.0) for name, _, key in MOMENTS if key is None or key in server}


def summarise(turns: list[dict]) -> dict:
    ok = [t for t in turns if not t.get("failed")]
    at = [moments(t) for t in ok]
    return {"turns": len(turns), "failed": len(turns) - len(ok),
            **{stage: {"p50": percentile([t[stage] for t in ok], 50), "p90": percentile([t[stage] for t in ok], 90)}
               for stage, _ in STAGES},
            "moments": {name: (percentile([m[name] for m in at if name in m], 50), sum(name in m for m in at))
                        for name, _, _ in MOMENTS}}


def table(summary: dict) -> str:
    lines = ["| voice | turn detection | sessions | turns | " + " | ".join(f"{label} p50 / p90 (ms)" for _, label in STAGES)
             + " | v2v p50 vs server_vad | speculations used / wasted |", "|" + "---|" * (len(STAGES) + 6)]
    for (voice, mode, level), s in summary.items():
        baseline = summary.get((voice, "server_vad", level))
        ratio = s["voice_to_voice"]["p50"] / baseline["voice_to_voice"]["p50"] if baseline else float("nan")
        cells = " | ".join(f"{s[stage]['p50']:.0f} / {s[stage]['p90']:.0f}" for stage, _ in STAGES)
        failed = f" ({s['failed']} failed)" if s["failed"] else ""
        used, wasted = s.get("speculations", (0, 0))
        lines.append(f"| {voice} | {mode} | {level} | {s['turns']}{failed} | {cells} | {ratio:.2f}× | "
                     f"{used:.0f} / {wasted:.0f} |")
    return "\n".join(lines)


def moments_table(summary: dict) -> str:
    """Where the time goes: the median of each moment after the last word (turns that have it, if not all)."""
    lines = ["| voice | turn detection | sessions | " + " | ".join(label for _, label, _ in MOMENTS) + " |",
             "|" + "---|" * (len(MOMENTS) + 3)]
    for (voice, mode, level), s in summary.items():
        ok = s["turns"] - s["failed"]
        cells = " | ".join(f"{p50:.0f}" + (f" ({n} turns)" if n != ok else "")
                           for p50, n in (s["moments"][name] for name, _, _ in MOMENTS))
        lines.append(f"| {voice} | {mode} | {level} | {cells} |")
    return "\n".join(lines)


def plot(summary: dict, path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    keys = list(summary)
    fig, ax = plt.subplots(figsize=(10, 4.5))
    bottoms = np.zeros(len(keys))
    for stage, label in STAGES[:-1]:
        heights = np.array([summary[k][stage]["p50"] for k in keys])
        ax.bar(range(len(keys)), heights, bottom=bottoms, label=label)
        bottoms += heights
    p90 = [summary[k]["voice_to_voice"]["p90"] for k in keys]
    ax.scatter(range(len(keys)), p90, marker="_", s=600, color="black", label="voice-to-voice p90", zorder=3)
    right = len(keys) - 0.55
    for y, name, x in ((300, "target p50 300", -0.45), (320, "GPT-4o avg 320", right), (800, "Pipecat 500-800", -0.45)):
        ax.axhline(y, ls=":", lw=1, color="grey")
        ax.text(x, y, name, fontsize=8, va="bottom", ha="left" if x < 0 else "right", color="grey")
    ax.set_xticks(range(len(keys)), [f"{voice}\n{mode}\n{level} session{'s' if level > 1 else ''}"
                                     for voice, mode, level in keys], fontsize=7 if len(keys) > 6 else 8)
    ax.set_ylabel("ms (p50 stacked by stage)")
    ax.set_title("Parley voice-to-voice latency over /v1/realtime (2-core CPU, embedded models)")
    ax.legend(fontsize=8, loc="upper right")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def spoken(voice: str) -> list[tuple[bytes, float]]:
    """REQUESTS in one voice of bench/voices.py: (24 kHz PCM16 with 400 ms of silence before and 1.5 s after,
    where the words end in ms)."""
    from conftest import Speech

    from voice.audio import float_to_pcm16, resample
    lead, tail = np.zeros(RATE * 400 // 1000, np.float32), np.zeros(RATE * 1500 // 1000, np.float32)
    audio = []
    for text in REQUESTS:
        pcm = float_to_pcm16(np.concatenate([lead, resample(speak(voice, text), VOICE_RATE, RATE), tail]))
        audio.append((pcm, Speech.speech_end_ms(pcm, RATE)))
    return audio


def start_server(turn_detection: str, checkpoint: str | None):
    from conftest import LiveServer

    from streaming.config import ServerConfig
    from streaming.engines import Engines

    return LiveServer(ServerConfig(port=0, turn_detection=turn_detection), Engines.load_default(checkpoint_dir=checkpoint))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", help="an already running server's ws://.../v1/realtime (default: start one)")
    parser.add_argument("--turns", type=int, default=6, help="spoken turns per session")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 4, 8])
    parser.add_argument("--modes", nargs="+", default=["semantic_vad", "server_vad"])
    parser.add_argument("--voices", nargs="+", default=["piper"], choices=[*VOICES, "all"], metavar="VOICE",
                        help=f"who speaks the requests, each voice reported on its own: all, or of {list(VOICES)}")
    parser.add_argument("--out", default=str(ROOT / "bench" / "out"))
    parser.add_argument("--checkpoint", help="assistant checkpoint directory (default: the embedded one)")
    args = parser.parse_args(argv)

    server = None if args.url else start_server("semantic_vad", args.checkpoint)
    url = args.url or server.ws_url
    voices = list(VOICES) if "all" in args.voices else args.voices
    print(f"speaking {len(REQUESTS)} requests in {len(voices)} voice(s)...", flush=True)
    audio = {voice: spoken(voice) for voice in voices}

    summary, raw = {}, {}
    try:
        for voice in voices:
            for mode in args.modes:
                for level in args.concurrency:
                    before = speculations(url)
                    turns = asyncio.run(run_level(url, {"type": mode}, audio[voice], level, args.turns))
                    after = speculations(url)
                    key = (voice, mode, level)
                    summary[key] = summarise(turns)
                    summary[key]["speculations"] = tuple(after.get(k, 0) - before.get(k, 0) for k in ("used", "wasted"))
                    raw[f"{voice}/{mode}/{level}"] = turns
                    s = summary[key]
                    print(f"{voice:>18} {mode:>12} x{level}: voice-to-voice p50 {s['voice_to_voice']['p50']:.0f} ms, "
                          f"p90 {s['voice_to_voice']['p90']:.0f} ms ({s['turns']} turns, {s['failed']} failed; "
                          f"load {os.getloadavg()[0]:.1f})", flush=True)
    finally:
        if server is not None:
            server.stop()

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    text = (f"Load average (1 min) at the end: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores\n\n" + table(summary)
            + "\n\nWhere the time goes: p50 of each moment, ms after the end of the words\n\n" + moments_table(summary))
    (out / "latency.md").write_text(text + "\n")
    (out / "latency.json").write_text(json.dumps(raw, indent=1))
    plot(summary, out / "latency.png")
    print()
    print(text)
    print(f"\nwrote {out / 'latency.md'}, {out / 'latency.png'}")
    medians = [summary[k]["voice_to_voice"]["p50"] for k in summary]
    return 0 if all(np.isfinite(medians)) and statistics.fmean(medians) > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
