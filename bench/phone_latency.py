"""Voice-to-voice latency of phone calls, as the caller hears it.

Clients faithful to Twilio Media Streams, Telnyx, Vonage (16 kHz L16) and Plivo media streams and Asterisk
AudioSocket (tests/phone_callers.py) call an in-process server on loopback and speak requests (Piper,
narrow-banded to 8 kHz, or 16 kHz for Vonage) at real-time pace, one 20 ms frame every 20 ms, between turns silence as a phone line sends it. Per turn:

    caller v2v   end of the words (known from the audio) -> first reply audio frame arriving at the caller
    session v2v  the session's own voice_to_voice (end of speech -> first reply audio it emitted)

The ratio caller/session is what the phone transport adds (framing, pacing, the wire). The reply frame
interval shows the real-time pacing: 20.00 ms when it neither drifts nor bursts.

    .venv/bin/python bench/phone_latency.py                 # 6 turns per transport
    .venv/bin/python bench/phone_latency.py --turns 8

Writes bench/out/phone_latency.md.
"""
from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from latency import REQUESTS, percentile  # noqa: E402  (the spoken requests of bench/latency.py)
from phone_callers import AsteriskCaller, PlivoCaller, TelnyxCaller, TwilioCaller, VonageCaller  # noqa: E402
from voice.audio import resample  # noqa: E402

GREETING = "Hello."
QUIET_S = 1.0          # a reply is over once no audio frame has arrived for this long


def words_end_s(audio: np.ndarray, rate: int, threshold: float = 0.01) -> float:
    loud = np.nonzero(np.abs(audio) > threshold)[0]
    return float(loud[-1] + 1) / rate if loud.size else 0.0


async def reply_over(caller, since: int, timeout: float = 30) -> None:
    """Wait for reply audio past frame `since`, then until none has arrived for QUIET_S (the reply is over)."""
    start = time.monotonic()
    while caller.frames_received <= since and time.monotonic() - start < timeout:
        await asyncio.sleep(0.02)
    while caller.received_at and time.monotonic() - caller.received_at[-1] < QUIET_S:
        await asyncio.sleep(0.05)


async def call(caller, requests: dict[int, list[np.ndarray]]) -> tuple[list[float | None], list[float]]:
    """Speak each request in turn. Per turn: ms from the end of the words to the first reply frame heard,
    and the mean interval between the reply's frames (20 ms when pacing neither drifts nor bursts)."""
    await reply_over(caller, 0)                           # the greeting
    latencies, intervals = [], []
    for audio in requests[caller.rate]:
        seen = caller.frames_received
        caller.say(audio)
        await caller.finish_speaking()
        await reply_over(caller, seen)
        speech_end = caller.speech_started_at + words_end_s(audio, caller.rate)
        arrivals = [t for t in caller.received_at[seen:] if t >= speech_end]
        latencies.append((arrivals[0] - speech_end) * 1000 if arrivals else None)
        if len(arrivals) > 1:
            intervals.append((arrivals[-1] - arrivals[0]) / (len(arrivals) - 1) * 1000)
    await caller.hang_up()
    return latencies, intervals


def row(name: str, caller_ms: list[float | None], session_ms: list[float], intervals: list[float]) -> str:
    ok = [v for v in caller_ms if v is not None]
    p = percentile
    ratio = p(ok, 50) / p(session_ms, 50) if session_ms and ok else float("nan")
    missing = len(caller_ms) - len(ok)
    return (f"| {name} | {len(caller_ms)}{f' ({missing} unanswered)' if missing else ''} | "
            f"{p(ok, 50):.0f} / {p(ok, 90):.0f} | {p(session_ms, 50):.0f} / {p(session_ms, 90):.0f} | {ratio:.2f}× | "
            f"{p(intervals, 50):.2f} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=6, help="spoken requests per call")
    parser.add_argument("--checkpoint", help="assistant checkpoint directory (default: the embedded one)")
    parser.add_argument("--out", default=str(ROOT / "bench" / "out"))
    args = parser.parse_args(argv)

    from conftest import LiveServer

    from streaming.transports.phone.audiosocket import AUDIOSOCKET
    from streaming.config import ServerConfig
    from streaming.engines import Engines
    from streaming.transports.phone.calls import PHONE_CALLS

    engines = Engines.load_default(checkpoint_dir=args.checkpoint)
    server = LiveServer(ServerConfig(port=0, options=argparse.Namespace(phone_greeting=GREETING, audiosocket_port=0)),
                        engines)
    tts = engines.tts
    spoken = [tts.synthesize(REQUESTS[i % len(REQUESTS)]) for i in range(args.turns)]
    requests = {rate: [resample(audio, tts.sample_rate, rate) for audio in spoken] for rate in (8000, 16000)}

    def websocket(kind, path: str):
        async def run():
            import aiohttp
            async with aiohttp.ClientSession() as http:
                return await call(await kind.dial(http, f"ws://127.0.0.1:{server.port}{path}"), requests)
        return run

    async def audiosocket():
        return await call(await AsteriskCaller.dial("127.0.0.1", server.app[AUDIOSOCKET].port), requests)

    async def session_v2v(transport: str) -> list[float]:
        records = [r for r in server.app[PHONE_CALLS].finished if r.transport == transport]
        return [t["voice_to_voice"] for t in records[-1].timings if "voice_to_voice" in t]

    lines = ["| transport | turns | caller v2v p50 / p90 (ms) | session v2v p50 / p90 (ms) | caller / session p50 "
             "| reply frame interval p50 (ms) |", "|---|---|---|---|---|---|"]
    try:
        for name, transport, run in (("Twilio Media Streams", "twilio", websocket(TwilioCaller, "/twilio/stream")),
                                     ("Telnyx media streaming", "telnyx", websocket(TelnyxCaller, "/telnyx/stream")),
                                     ("Vonage WebSocket (16 kHz)", "vonage", websocket(VonageCaller, "/vonage/stream")),
                                     ("Plivo audio stream", "plivo", websocket(PlivoCaller, "/plivo/stream")),
                                     ("Asterisk AudioSocket", "audiosocket", audiosocket)):
            caller_ms, intervals = asyncio.run(run())
            time.sleep(0.5)
            session_ms = server.call(session_v2v(transport))
            lines.append(row(name, caller_ms, session_ms, intervals))
            print(lines[-1], flush=True)
    finally:
        server.stop()

    text = "\n".join(lines)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "phone_latency.md").write_text(text + "\n")
    print("\n" + text + f"\n\nwrote {out / 'phone_latency.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
