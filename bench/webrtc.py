"""WebRTC against the WebSocket, side by side in one run on loopback.

Latency: one in-process server; an aiortc caller (tests/webrtc_client.py) and a WebSocket client
(tests/realtime_client.py) take turns speaking the same requests (Piper) at real-time pace. Per turn:

    client v2v    end of the words (known from the audio sent) -> first reply audio the client has
                  (WebSocket: the first response.output_audio.delta; WebRTC: the first loud frame out of the
                  caller's jitter buffer and Opus decoder)
    session v2v   the session's own voice_to_voice_ms (response.done metadata)

The difference between the two is what the door adds. WebRTC runs three ways, patched in this process only:
as shipped (the server's input jitter buffer releases each frame once complete; the aiortc caller's holds 4
frames, aiortc's default for playout); with the caller's buffer also releasing at once (the gap is what a
client's playout jitter buffer adds); and with the server's buffer at aiortc's default (the gap is what
releasing at once saves on the way in).

The page: Parley's own page in headless Chromium, once on WebRTC and once on its WebSocket fallback, hears
the same requests from Chromium's fake microphone (a WAV: each request, then 7 s of quiet). Its voice→voice is
the page's own (window.parley.turns): the end of the words (where the server's speech_stopped says they ended)
to the first sound played, past the browser's jitter buffer (WebRTC: an analyser on the call's audio element;
WebSocket: the page's player worklet with its 80 ms buffer), plus the audio context's output latency.

Load: N sessions held at once on a `parley serve` child process, first N WebSocket clients streaming PCM at
24 kHz, then N WebRTC callers streaming Opus, each for --hold seconds of quiet room noise (turn detection
runs, no turns); the server's CPU time over the hold (from /proc) per session, and every session checked
alive at the end (a session.update answered). Beside it, libopus's own cost per 20 ms frame, measured alone.

    nice .venv/bin/python bench/webrtc.py                  # ~4 min on the 2-core CPU
    nice .venv/bin/python bench/webrtc.py --turns 6 --sessions 16 --hold 20
    nice .venv/bin/python bench/webrtc.py --skip-load --skip-page      # the aiortc rows only

Writes bench/out/webrtc.md.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from latency import REQUESTS, percentile  # noqa: E402  (the spoken requests of bench/latency.py)
from realtime_client import RealtimeClient  # noqa: E402
from server_process import free_port, start_server, stop_server  # noqa: E402
from webrtc_client import WebRTCClient  # noqa: E402

LOUD = 0.01            # a sample above this is a word, not silence
QUIET_S = 1.0          # a reply is over once nothing loud has come for this long
NOISE = 0.002          # room noise the held sessions stream (RMS, full scale 1.0)


def words_end_s(pcm16: bytes, rate: int) -> float:
    samples = np.frombuffer(pcm16, dtype="<i2").astype(np.float32) / 32768
    loud = np.nonzero(np.abs(samples) > LOUD)[0]
    return float(loud[-1] + 1) / rate if loud.size else 0.0


def framed(tts, text: str, rate: int) -> bytes:
    from voice.audio import float_to_pcm16, resample

    words = resample(tts.synthesize(text), tts.sample_rate, rate)
    return float_to_pcm16(np.concatenate([np.zeros(rate * 3 // 10, np.float32), words,
                                          np.zeros(rate * 12 // 10, np.float32)]))


async def websocket_turns(url: str, requests: list[bytes]) -> tuple[list[float], list[float]]:
    client = await RealtimeClient.connect(url)
    await client.wait_for("session.created")
    heard, session = [], []
    for pcm in requests:
        start = len(client.events)
        began = time.monotonic()
        await client.stream_audio(pcm, 24000)
        done = await client.wait_for("response.done", start=start, timeout=60)
        speech_end = began + words_end_s(pcm, 24000)
        first = next(at for event, at in zip(client.events[start:], client.received_at[start:])
                     if event["type"] == "response.output_audio.delta")
        heard.append((first - speech_end) * 1000)
        session.append(float(done["response"]["metadata"]["voice_to_voice_ms"]))
        await asyncio.sleep(QUIET_S)
    await client.close()
    return heard, session


async def webrtc_turns(url: str, requests: list[bytes]) -> tuple[list[float], list[float]]:
    client = await WebRTCClient.call(url)
    await client.wait_for("session.created", timeout=30)
    heard, session = [], []
    for pcm in requests:
        seen = len(client.of_type("response.done"))
        client.microphone.say(pcm)
        await client.microphone.speech_done.wait()
        async with asyncio.timeout(60):
            while len(client.of_type("response.done")) <= seen:
                await asyncio.sleep(0.02)
        done = client.of_type("response.done")[seen]
        speech_end = client.microphone.speaking_since + words_end_s(pcm, 48000)
        while True:             # the reply's first loud frame may still be in the jitter buffer
            first = client.first_sound_after(speech_end, threshold=int(LOUD * 32768))
            if first is not None:
                break
            await asyncio.sleep(0.02)
        heard.append((first - speech_end) * 1000)
        session.append(float(done["response"]["metadata"]["voice_to_voice_ms"]))
        await asyncio.sleep(QUIET_S)
    await client.close()
    return heard, session


def latency(args, tts, engines) -> list[str]:
    from conftest import LiveServer

    from streaming.config import ServerConfig

    server = LiveServer(ServerConfig(port=0, turn_detection="server_vad"), engines)
    texts = [REQUESTS[i % len(REQUESTS)] for i in range(args.turns)]
    at24 = [framed(tts, text, 24000) for text in texts]
    at48 = [framed(tts, text, 48000) for text in texts]
    calls = server.url + "/v1/realtime/calls"
    doors = {
        "WebSocket (PCM 24 kHz)": lambda n: websocket_turns(server.ws_url, at24[n:n + 1]),
        "WebRTC (Opus 48 kHz), as shipped": lambda n: webrtc_turns(calls, at48[n:n + 1]),
        "WebRTC, caller's jitter buffer prefetch 0": lambda n: caller_prefetch_0(webrtc_turns(calls, at48[n:n + 1])),
        "WebRTC, server's jitter buffer prefetch 4": lambda n: server_prefetch_4(webrtc_turns(calls, at48[n:n + 1])),
    }
    results = {name: ([], []) for name in doors}
    try:
        for n in range(args.turns):               # interleaved, one turn of each at a time: the same load
            for name, run in doors.items():
                heard, session = asyncio.run(run(n))
                results[name][0].extend(heard)
                results[name][1].extend(session)
                print(f"  turn {n + 1} {name}: client {heard[0]:.0f} ms, session {session[0]:.0f} ms", flush=True)
    finally:
        server.stop()
    base = percentile(results["WebSocket (PCM 24 kHz)"][0], 50)
    lines = ["| door | turns | client v2v p50 / p90 (ms) | session v2v p50 (ms) | door adds p50 (ms) "
             "| client p50 − WebSocket p50 (ms) |", "|---|---|---|---|---|---|"]
    for name, (heard, session) in results.items():
        added = percentile([h - s for h, s in zip(heard, session)], 50)
        lines.append(f"| {name} | {len(heard)} | {percentile(heard, 50):.0f} / {percentile(heard, 90):.0f} | "
                     f"{percentile(session, 50):.0f} | {added:.0f} | {percentile(heard, 50) - base:+.0f} |")
    return lines


async def caller_prefetch_0(coro):
    """Run coro with aiortc's receivers built releasing frames at once (the server replaces its own anyway)."""
    import aiortc.rtcrtpreceiver as receiver

    original = receiver.JitterBuffer
    receiver.JitterBuffer = lambda capacity, prefetch=0, is_video=False: original(capacity, 0, is_video)
    try:
        return await coro
    finally:
        receiver.JitterBuffer = original


async def server_prefetch_4(coro):
    """Run coro with the server's input jitter buffer at aiortc's default (4 frames held)."""
    from streaming.transports import webrtc

    original = webrtc.INPUT_PREFETCH
    webrtc.INPUT_PREFETCH = 4
    try:
        return await coro
    finally:
        webrtc.INPUT_PREFETCH = original


# ---- the page in Chromium ---------------------------------------------------------------------------------

GAP_MS = 7000


def page_turns(url: str, transport: str, wav: Path, turns: int) -> tuple[list[tuple[float, float, float]], dict]:
    """The page's (voice→voice, session voice_to_voice_ms, first sound after output_audio_buffer.started) of each
    completed spoken turn, and its playback state (over WebRTC: Chromium's jitter buffer delay, from getStats)."""
    from playwright.sync_api import sync_playwright
    from test_browser_voice import CHROMIUM

    args = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--autoplay-policy=no-user-gesture-required",
            "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
            f"--use-file-for-fake-audio-capture={wav}"]
    done = ("window.parley.turns.filter((t) => t.status === 'completed' && t.voiceToVoiceMs != null "
            "&& t.server && t.server.voice_to_voice_ms != null)")
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, headless=True, args=args)
        try:
            page = browser.new_page()
            page.goto(url + ("/?transport=websocket" if transport == "websocket" else "/"))
            page.wait_for_function("window.parley && window.parley.connection === 'open'", timeout=30_000)
            page.click("#mic")
            page.wait_for_function(f"{done}.length >= {turns}", timeout=(turns * GAP_MS + 60_000))
            page.wait_for_timeout(1000)                 # the last reply's stats
            rows = page.evaluate(f"{done}.map((t) => [t.voiceToVoiceMs, Number(t.server.voice_to_voice_ms), "
                                 "t.soundAfterEventMs ?? null, t.soundHeard !== false])")
            playback = page.evaluate("window.parley.playback")
        finally:
            browser.close()
    assert all(heard for *_, heard in rows), "the page fell back to output_audio_buffer.started"
    return [tuple(row[:3]) for row in rows[:turns]], playback


def page(args, tts, engines) -> list[str]:
    import tempfile
    import wave

    from conftest import LiveServer

    from streaming.config import ServerConfig

    server = LiveServer(ServerConfig(port=0, turn_detection="server_vad"), engines)
    quiet = np.zeros(48000 * GAP_MS // 1000, dtype="<i2").tobytes()
    speech = b"".join(framed(tts, REQUESTS[i % len(REQUESTS)], 48000) + quiet for i in range(args.turns))
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "requests.wav"
        with wave.open(str(wav), "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(2)
            out.setframerate(48000)
            out.writeframes(np.zeros(48000, dtype="<i2").tobytes() + speech + quiet * 6)
        try:
            results, playback = {}, {}
            for transport in ("webrtc", "websocket"):
                results[transport], playback[transport] = page_turns(server.url, transport, wav, args.turns)
                print(f"  page over {transport}: {[round(v) for v, *_ in results[transport]]} ms", flush=True)
        finally:
            server.stop()
    base = percentile([v for v, *_ in results["websocket"]], 50)
    lines = ["| the page in Chromium | turns | page v2v p50 / p90 (ms) | session v2v p50 (ms) | page − session p50 (ms) "
             "| page p50 − WebSocket p50 (ms) |", "|---|---|---|---|---|---|"]
    for transport, name in (("websocket", "WebSocket fallback (PCM 24 kHz, 80 ms player buffer)"),
                            ("webrtc", "WebRTC (Opus 48 kHz, Chromium's jitter buffer)")):
        rows = results[transport]
        heard = [v for v, *_ in rows]
        lines.append(f"| {name} | {len(rows)} | {percentile(heard, 50):.0f} / {percentile(heard, 90):.0f} | "
                     f"{percentile([s for _, s, _ in rows], 50):.0f} | "
                     f"{percentile([v - s for v, s, _ in rows], 50):.0f} | {percentile(heard, 50) - base:+.0f} |")
    stats = playback["webrtc"]
    lines += ["", f"Chromium's jitter buffer over the WebRTC call (getStats): {stats['jitterBufferMs']:.0f} ms held on "
              f"average, target {stats['jitterBufferTargetMs']:.0f} ms; the first sound came "
              f"{percentile([a for *_, a in results['webrtc']], 50):.0f} ms (p50) after output_audio_buffer.started"]
    return lines


# ---- load --------------------------------------------------------------------------------------------

def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def noise(rate: int, seconds: float) -> bytes:
    rng = np.random.default_rng(7)
    return (rng.normal(0, NOISE * 32768, int(rate * seconds))).astype("<i2").tobytes()


async def hold_websockets(url: str, count: int, hold_s: float, pid: int) -> tuple[float, int]:
    clients = [await RealtimeClient.connect(url) for _ in range(count)]
    for client in clients:
        await client.wait_for("session.created")
    before = cpu_seconds(pid)
    await asyncio.gather(*(client.stream_audio(noise(24000, hold_s), 24000) for client in clients))
    used = cpu_seconds(pid) - before
    alive = 0
    for client in clients:
        start = len(client.events)
        await client.send({"type": "session.update", "session": {"instructions": "still here"}})
        try:
            await client.wait_for("session.updated", start=start, timeout=10)
            alive += 1
        except (TimeoutError, ConnectionError):
            pass
        await client.close()
    return used, alive


async def hold_calls(url: str, count: int, hold_s: float, pid: int) -> tuple[float, int]:
    from aiortc.exceptions import InvalidStateError

    clients = [await WebRTCClient.call(url) for _ in range(count)]
    for client in clients:
        await client.wait_for("session.created", timeout=60)
    before = cpu_seconds(pid)
    for client in clients:
        client.microphone.say(noise(48000, hold_s))
    await asyncio.wait([asyncio.create_task(client.microphone.speech_done.wait()) for client in clients],
                       timeout=hold_s + 10)        # a call that ended is no longer pulled: it never finishes
    used = cpu_seconds(pid) - before
    alive = 0
    for client in clients:
        try:
            await client.send({"type": "session.update", "session": {"instructions": "still here"}})
            await client.wait_for("session.updated", timeout=10)
            alive += 1
        except (TimeoutError, ConnectionError, InvalidStateError):
            pass
        await client.close()
    return used, alive


def opus_cost_us(frames: int = 2000) -> tuple[float, float]:
    """libopus through PyAV as aiortc drives it: µs to encode and to decode one 20 ms frame of speech-like noise."""
    from aiortc.codecs.opus import OpusDecoder, OpusEncoder
    from aiortc.jitterbuffer import JitterFrame
    import av

    encoder, decoder = OpusEncoder(), OpusDecoder()
    pcm = np.frombuffer(noise(48000, 0.02 * frames), dtype="<i2").copy() * 20
    packets = []
    start = time.process_time()
    for n in range(frames):
        frame = av.AudioFrame.from_ndarray(pcm[n * 960:(n + 1) * 960].reshape(1, -1), format="s16", layout="mono")
        frame.sample_rate, frame.pts = 48000, n * 960
        payloads, timestamp = encoder.encode(frame)
        packets.append((payloads[0], timestamp))
    encode = (time.process_time() - start) / frames * 1e6
    start = time.process_time()
    for payload, timestamp in packets:
        decoder.decode(JitterFrame(data=payload, timestamp=timestamp))
    decode = (time.process_time() - start) / frames * 1e6
    return encode, decode


def load(args) -> list[str]:
    port = free_port()
    log = ROOT / "bench" / "out" / "webrtc-server.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_bytes(b"")
    url = f"http://127.0.0.1:{port}"

    def ready() -> bool:
        import urllib.request
        with urllib.request.urlopen(url + "/healthz", timeout=1) as response:
            return response.status == 200

    server = start_server("parley serve", [str(ROOT / ".venv" / "bin" / "parley"), "serve", "--port", str(port),
                                           "--store", "sqlite://:memory:", "--max-sessions", str(args.sessions),
                                           "--turn-detection", "server_vad"],
                          log, ready, timeout=180, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        ws_cpu, ws_alive = asyncio.run(hold_websockets(url.replace("http", "ws") + "/v1/realtime", args.sessions,
                                                       args.hold, server.pid))
        time.sleep(2)
        rtc_cpu, rtc_alive = asyncio.run(hold_calls(url + "/v1/realtime/calls", args.sessions, args.hold, server.pid))
    finally:
        stop_server(server)
    encode_us, decode_us = opus_cost_us()
    n, hold = args.sessions, args.hold
    per = lambda cpu: cpu / n / hold * 1000          # noqa: E731  CPU ms per session per second held
    lines = ["| door | sessions held | alive at the end | server CPU over the hold (s) | server CPU per session "
             "(ms per s) | of which Opus (ms per s, libopus alone) |", "|---|---|---|---|---|---|"]
    lines.append(f"| WebSocket (PCM 24 kHz in) | {n} | {ws_alive} | {ws_cpu:.1f} | {per(ws_cpu):.1f} | 0 |")
    lines.append(f"| WebRTC (Opus 48 kHz in and out) | {n} | {rtc_alive} | {rtc_cpu:.1f} | {per(rtc_cpu):.1f} | "
                 f"{50 * (encode_us + decode_us) / 1000:.1f} |")
    lines.append("")
    lines.append(f"libopus via PyAV, one 20 ms frame at 48 kHz: encode {encode_us:.0f} µs, decode {decode_us:.0f} µs "
                 "(a call encodes and decodes 50 of each per second; the reply track sends frames, silence "
                 "included, for the whole call)")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=6, help="spoken requests per door")
    parser.add_argument("--sessions", type=int, default=16, help="sessions held at once in the load part")
    parser.add_argument("--hold", type=float, default=20.0, help="seconds the sessions are held")
    parser.add_argument("--skip-load", action="store_true")
    parser.add_argument("--skip-page", action="store_true", help="leave out the page in Chromium")
    parser.add_argument("--out", default=str(ROOT / "bench" / "out"))
    args = parser.parse_args(argv)

    from streaming.engines import Engines

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    engines = Engines.load_default()
    load_before = os.getloadavg()[0]
    lines = [f"WebRTC vs WebSocket on loopback, commit {commit}, load average {load_before:.1f} at the start", ""]
    lines += latency(args, engines.tts, engines)
    if not args.skip_page:
        lines += [""] + page(args, engines.tts, engines)
    if not args.skip_load:
        lines += [""] + load(args)
    lines += ["", f"load average {os.getloadavg()[0]:.1f} at the end"]
    text = "\n".join(lines)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "webrtc.md").write_text(text + "\n")
    print("\n" + text + f"\n\nwrote {out / 'webrtc.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
