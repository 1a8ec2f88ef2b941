"""WebRTC against the WebSocket, side by side in one run on loopback.

Latency: one in-process server (server_vad); a WebSocket client and an aiortc caller (tests/webrtc_client.py)
take turns speaking the same requests (Piper) at real-time pace, one turn of each door in turn, a new session
each. Both ends of voice-to-voice are taken the same way on both doors:

    from   the client hands on the 20 ms chunk that holds the last sample of the words (louder than LOUD):
           the WebSocket client sends it, the caller's microphone track gives it to aiortc's sender
    to     the client has the reply's first loud sample as a player without a buffer would play it: the first
           response.output_audio.delta's arrival plus that sample's place in the reply; over WebRTC, the arrival
           (out of the receive buffer and the Opus decoder) of the frame that holds it, plus its place in it

In between, every hop is timestamped (Trace, patched into aiortc and the server in this process only; the
server runs in a thread of it, on the same clock), so the table says where the time goes. WebRTC runs three
ways: as shipped, with a caller that hands each packet to its decoder on arrival (as the WebSocket client
uses each delta); with the caller's receive buffer at aiortc's default (4 frames held for playout: what a
client's playout buffer adds); and with the server's receive buffer as it was before ArrivalBuffer (aiortc's,
prefetch 0).

The page: Parley's own page in headless Chromium, once on WebRTC and once on its WebSocket fallback, hears
the same requests from Chromium's fake microphone (a WAV: each request, then 7 s of quiet). Its voice→voice is
the page's own (window.parley.turns): the end of the words (where the server's speech_stopped says they ended)
to the first sound played, past the browser's jitter buffer (WebRTC: an analyser on the call's audio element;
WebSocket: the page's player worklet with its 80 ms buffer), plus the audio context's output latency.

Load: N sessions held at once on a `parley serve` child process, first N WebSocket clients streaming PCM at
24 kHz, then N WebRTC callers (spread over --caller-processes processes) streaming Opus, each for --hold
seconds of quiet room noise (turn detection runs, no turns); the server's CPU time over the hold (from /proc)
per session, every session checked alive at the end (a session.update answered), the callers' loop lag and
ICE consent checks, and how fast the server answered /healthz meanwhile. Beside it, libopus's own cost per
20 ms frame, measured alone.

    nice .venv/bin/python bench/webrtc.py                  # ~10 min on the 2-core CPU
    nice .venv/bin/python bench/webrtc.py --turns 8 --sessions 16 --hold 20
    nice .venv/bin/python bench/webrtc.py --skip-load --skip-page      # the aiortc rows only
    nice .venv/bin/python bench/webrtc.py --skip-latency --skip-page   # the load part only

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
PAUSE_S = 1.0          # between two turns
FRAME = 960            # samples of a 20 ms frame at 48 kHz
NOISE = 0.002          # room noise the held sessions stream (RMS, full scale 1.0)


def last_loud(pcm16: bytes) -> int:
    """Index of the last sample of the words (the last one louder than LOUD)."""
    loud = np.nonzero(np.abs(np.frombuffer(pcm16, dtype="<i2")) > LOUD * 32768)[0]
    return int(loud[-1]) if loud.size else 0


def first_loud(pcm16: bytes | np.ndarray) -> int | None:
    samples = np.frombuffer(pcm16, dtype="<i2") if isinstance(pcm16, bytes) else pcm16
    loud = np.nonzero(np.abs(samples) > LOUD * 32768)[0]
    return int(loud[0]) if loud.size else None


def framed(tts, text: str, rate: int) -> bytes:
    from voice.audio import float_to_pcm16, resample

    words = resample(tts.synthesize(text), tts.sample_rate, rate)
    return float_to_pcm16(np.concatenate([np.zeros(rate * 3 // 10, np.float32), words,
                                          np.zeros(rate * 12 // 10, np.float32)]))


class Trace:
    """Timestamps of one turn at every hop, patched into aiortc and the server in this process only (the server
    runs in a thread of it, on the same clock). RTP packets are known by (SSRC, RTP timestamp)."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.sent: dict[tuple[int, int], float] = {}         # RTP packet handed to SRTP and UDP
        self.arrived: dict[tuple[int, int], float] = {}      # RTP packet at the receiver
        self.released: dict[tuple[int, int], float] = {}     # RTP packet out of the receive buffer, to the decoder
        self.pushed: dict[str, list[tuple[float, int]]] = {}   # session.push_audio: (when, samples so far)
        self.played: list[tuple[int, float, int]] = []       # the reply track's loud frames: (pts, when, first loud)
        self.first_delta: float | None = None                # the session's first AudioDelta of the reply
        self.reply = b""                                     # the reply's first second, at the session's rate

    def origin(self, table: dict, ssrc: int) -> int:
        return next(ts for (s, ts) in table if s == ssrc)

    def install(self):
        import aiortc.jitterbuffer
        import aiortc.rtcdtlstransport
        import aiortc.rtcrtpreceiver

        from streaming import session as session_module
        from streaming.transports import webrtc

        trace, undo = self, []

        def patch(owner, name, wrapper):
            original = getattr(owner, name)
            setattr(owner, name, wrapper(original))
            undo.append((owner, name, original))

        def send_rtp(original):
            async def wrapped(transport, data):
                if not (192 <= data[1] <= 223):                 # RTP, not RTCP
                    key = (int.from_bytes(data[8:12], "big"), int.from_bytes(data[4:8], "big"))
                    trace.sent.setdefault(key, time.monotonic())
                return await original(transport, data)
            return wrapped

        def handle_rtp(original):
            async def wrapped(receiver, packet, arrival_time_ms):
                trace.arrived.setdefault((packet.ssrc, packet.timestamp), time.monotonic())
                return await original(receiver, packet, arrival_time_ms)
            return wrapped

        def buffer_add(original):
            def wrapped(buffer, packet):
                flag, frame = original(buffer, packet)
                if frame is not None:
                    trace.released.setdefault((packet.ssrc, frame.timestamp), time.monotonic())
                return flag, frame
            return wrapped

        def push(original):
            def wrapped(session, pcm16):
                pushed = trace.pushed.setdefault(session.id, [])
                pushed.append((time.monotonic(), (pushed[-1][1] if pushed else 0) + len(pcm16) // 2))
                return original(session, pcm16)
            return wrapped

        def emit(original):
            def wrapped(session, event):
                if isinstance(event, session_module.AudioDelta) and len(trace.reply) < session.config.output_rate * 2:
                    if trace.first_delta is None:
                        trace.first_delta = time.monotonic()
                    trace.reply += event.pcm16
                return original(session, event)
            return wrapped

        def recv(original):
            async def wrapped(track):
                frame = await original(track)
                loud = first_loud(frame.to_ndarray().reshape(-1))
                if loud is not None:
                    trace.played.append((frame.pts, time.monotonic(), loud))
                return frame
            return wrapped

        patch(aiortc.rtcdtlstransport.RTCDtlsTransport, "_send_rtp", send_rtp)
        patch(aiortc.rtcrtpreceiver.RTCRtpReceiver, "_handle_rtp_packet", handle_rtp)
        patch(aiortc.jitterbuffer.JitterBuffer, "add", buffer_add)
        patch(webrtc.ArrivalBuffer, "add", buffer_add)
        patch(session_module.Session, "push_audio", push)
        patch(session_module.Session, "_emit", emit)
        patch(webrtc.ReplyTrack, "recv", recv)
        return lambda: [setattr(owner, name, original) for owner, name, original in reversed(undo)]


TRACE = Trace()
STAGES = [          # (key, what it is); a row's p50 is over turns, so the rows' p50s need not add up to the total
    ("in", "the client hands on the chunk with the last words -> the session has them"),
    ("in_encode", "  WebRTC: Opus encode (a worker thread) -> RTP sent"),
    ("in_wire", "  WebRTC: SRTP, UDP on loopback, the server's receive loop"),
    ("in_buffer", "  WebRTC: the server's receive buffer"),
    ("in_decode", "  WebRTC: Opus decode (aiortc's decoder thread) -> pushed to the session"),
    ("vad", "the session has them -> its end of speech (32 ms VAD frames; WebRTC: the caller's Opus delay, 6.5 ms)"),
    ("session", "the session's voice_to_voice (silence wait, Whisper, reply, Piper)"),
    ("lead", "first reply audio -> its first loud sample (the voice's own lead-in)"),
    ("out", "the first loud sample -> the client has it"),
    ("out_slot", "  WebRTC: wait for the reply track's next 20 ms slot"),
    ("out_encode", "  WebRTC: Opus encode (a worker thread) -> RTP sent"),
    ("out_wire", "  WebRTC: SRTP, UDP on loopback, the caller's receive loop"),
    ("out_buffer", "  WebRTC: the caller's receive buffer"),
    ("out_decode", "  WebRTC: Opus decode (Opus's own delay, 2.5 ms since low_delay_opus; the decoder thread)"),
    ("v2v", "client voice-to-voice"),
]


async def websocket_turn(url: str, pcm: bytes) -> dict[str, float]:
    """One spoken request over the WebSocket, sent in 20 ms chunks at real-time pace as tests/realtime_client
    does; the reply is had when its first delta arrives (a player with no buffer plays it then)."""
    import base64

    TRACE.reset()
    client = await RealtimeClient.connect(url)
    session_id = (await client.wait_for("session.created"))["session"]["id"]
    step = 24000 * 2 // 50
    end = last_loud(pcm)
    start, handed = time.monotonic(), []
    for n, offset in enumerate(range(0, len(pcm), step)):
        handed.append(time.monotonic())
        await client.send({"type": "input_audio_buffer.append",
                           "audio": base64.b64encode(pcm[offset:offset + step]).decode()})
        delay = start + (n + 1) / 50 - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
    done = await client.wait_for("response.done", timeout=60)
    first = next(at for event, at in zip(client.events, client.received_at)
                 if event["type"] == "response.output_audio.delta")
    await client.close()
    words = handed[end * 2 // step]
    lead = first_loud(TRACE.reply) / 24000
    pushed = next(at for at, total in TRACE.pushed[session_id] if total > end)
    v2v_s = float(done["response"]["metadata"]["voice_to_voice_ms"]) / 1000
    return stages(words, pushed, TRACE.first_delta - v2v_s, TRACE.first_delta, lead, first + lead)


def stages(words, pushed, speech_end, first_audio, lead, heard, **webrtc) -> dict[str, float]:
    ms = {"in": pushed - words, "vad": speech_end - pushed, "session": first_audio - speech_end, "lead": lead,
          "out": heard - first_audio - lead, "v2v": heard - words}
    ms.update(webrtc)
    return {key: value * 1000 for key, value in ms.items()}


async def webrtc_turn(url: str, pcm: bytes, caller_buffer) -> dict[str, float]:
    """One spoken request from the aiortc caller; caller_buffer: its receive buffer for the reply (None: aiortc's
    default, which holds 4 frames for playout)."""
    TRACE.reset()           # before the call: its first RTP packets give each stream's origin
    client = await WebRTCClient.call(url, jitter_buffer=caller_buffer)
    await client.wait_for("session.created", timeout=30)
    up = client.pc.getSenders()[0]._ssrc
    client.microphone.say(pcm)
    done = await client.wait_for("response.done", timeout=60)
    while (heard := first_heard(client, TRACE.first_delta)) is None:    # the first loud frame may still be on its way
        await asyncio.sleep(0.02)
    await client.close()
    end = last_loud(pcm)
    sent = client.microphone.speech_pts + end // FRAME * FRAME              # the frame with the last words
    words = client.microphone.handed_on_at(sent)
    key = (up, TRACE.origin(TRACE.sent, up) + sent)
    # the session's input starts with the first packet the server got
    decoded = sent + TRACE.origin(TRACE.sent, up) - TRACE.origin(TRACE.arrived, up) + end % FRAME
    pushed = next(at for at, total in TRACE.pushed[client.call_id] if total > decoded)
    lead = first_loud(TRACE.reply) / 48000
    v2v_s = float(done["response"]["metadata"]["voice_to_voice_ms"]) / 1000
    pts, played, loud = next(row for row in TRACE.played if row[1] >= TRACE.first_delta)
    down = next(ssrc for ssrc, _ in TRACE.sent if ssrc != up)
    reply = (down, TRACE.origin(TRACE.sent, down) + pts)
    at = loud / 48000            # the first loud sample's place in its frame
    slot, rtp_out = played + at, TRACE.sent[reply] + at
    arrived, released = TRACE.arrived[reply] + at, TRACE.released[reply] + at
    return stages(words, pushed, TRACE.first_delta - v2v_s, TRACE.first_delta, lead, heard,
                  in_encode=TRACE.sent[key] - words, in_wire=TRACE.arrived[key] - TRACE.sent[key],
                  in_buffer=TRACE.released[key] - TRACE.arrived[key], in_decode=pushed - TRACE.released[key],
                  out_slot=slot - TRACE.first_delta - lead, out_encode=rtp_out - slot, out_wire=arrived - rtp_out,
                  out_buffer=released - arrived, out_decode=heard - released)


def first_heard(client, after: float | None) -> float | None:
    """When the caller had the reply's first loud sample (its frame's arrival, plus its place in the frame)."""
    if after is None:
        return None
    for at, samples in client.heard:
        if at >= after and (loud := first_loud(samples)) is not None:
            return at + loud / 48000
    return None


def latency(args, tts, engines) -> list[str]:
    from conftest import LiveServer

    from streaming.config import ServerConfig
    from streaming.transports import webrtc

    server = LiveServer(ServerConfig(port=0, turn_detection="server_vad"), engines)
    texts = [REQUESTS[i % len(REQUESTS)] for i in range(args.turns)]
    at24 = [framed(tts, text, 24000) for text in texts]
    at48 = [framed(tts, text, 48000) for text in texts]
    calls = server.url + "/v1/realtime/calls"
    doors = {
        "WebSocket (PCM 24 kHz)": lambda n: websocket_turn(server.ws_url, at24[n]),
        "WebRTC (Opus 48 kHz)": lambda n: webrtc_turn(calls, at48[n], webrtc.ArrivalBuffer()),
        "WebRTC, the caller's buffer aiortc's default (4 frames)": lambda n: webrtc_turn(calls, at48[n], None),
        "WebRTC, the server's buffer aiortc's, prefetch 0 (before)": lambda n: aiortc_input_buffer(
            webrtc_turn(calls, at48[n], webrtc.ArrivalBuffer())),
    }
    results: dict[str, list[dict[str, float]]] = {name: [] for name in doors}
    undo = TRACE.install()
    try:
        for n in range(args.turns):               # interleaved, one turn of each at a time: the same load
            for name, run in doors.items():
                turn = asyncio.run(run(n))
                results[name].append(turn)
                print(f"  turn {n + 1} {name}: v2v {turn['v2v']:.0f} ms, session {turn['session']:.0f} ms",
                      flush=True)
                time.sleep(PAUSE_S)
    finally:
        undo()
        server.stop()
    names = list(doors)
    base = percentile([turn["v2v"] for turn in results[names[0]]], 50)
    lines = ["| door | turns | client v2v p50 / p90 (ms) | session v2v p50 (ms) | the door's own p50 (ms) "
             "| client p50 − WebSocket p50 (ms) |", "|---|---|---|---|---|---|"]
    for name, turns in results.items():
        v2v = [turn["v2v"] for turn in turns]
        own = [turn["in"] + turn["out"] for turn in turns]
        lines.append(f"| {name} | {len(turns)} | {percentile(v2v, 50):.0f} / {percentile(v2v, 90):.0f} | "
                     f"{percentile([turn['session'] for turn in turns], 50):.0f} | {percentile(own, 50):.0f} | "
                     f"{percentile(v2v, 50) - base:+.0f} |")
    lines += ["", "Where the time goes, p50 over the turns (ms):", "",
              "| stage | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]
    for key, what in STAGES:
        cells = [percentile([turn[key] for turn in results[name] if key in turn], 50) for name in names]
        lines.append(f"| {what} | " + " | ".join("" if np.isnan(c) else f"{c:.1f}" for c in cells) + " |")
    return lines


async def aiortc_input_buffer(coro):
    """Run coro with the server's receive buffer as it was: aiortc's JitterBuffer with prefetch 0."""
    from aiortc.jitterbuffer import JitterBuffer

    from streaming.transports import webrtc

    original = webrtc.ArrivalBuffer
    webrtc.ArrivalBuffer = lambda: JitterBuffer(capacity=16, prefetch=0)
    try:
        return await coro
    finally:
        webrtc.ArrivalBuffer = original


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


def hold_calls(url: str, count: int, hold_s: float, pid: int, processes: int) -> tuple[float, int, dict]:
    """count WebRTC calls held at once, their callers spread over processes, each with its own event loop: one
    loop under load cannot carry 16 aiortc peers (their consent checks go unanswered, and aioice hangs up after
    6 in a row, ~30 s). Returns the server's CPU over the hold, the calls alive at the end, and how the callers
    and the server fared (loop lag, consent checks, /healthz answer time)."""
    import multiprocessing
    import threading
    import urllib.request

    context = multiprocessing.get_context("spawn")
    barrier, results = context.Barrier(processes + 1), context.Queue()
    shares = [count // processes + (n < count % processes) for n in range(processes)]
    workers = [context.Process(target=caller_process, args=(url, share, hold_s, barrier, results))
               for share in shares]
    for worker in workers:
        worker.start()
    barrier.wait(300)                                   # every call answered
    before = cpu_seconds(pid)
    holding = threading.Thread(target=barrier.wait, args=(hold_s + 60,))
    holding.start()
    health = []
    while holding.is_alive():
        asked = time.monotonic()
        with urllib.request.urlopen(url.split("/v1/")[0] + "/healthz", timeout=30) as response:
            response.read()
        health.append(time.monotonic() - asked)
        time.sleep(0.5)
    used = cpu_seconds(pid) - before
    reports = [results.get(timeout=120) for _ in workers]
    for worker in workers:
        worker.join()
    lags = [lag for report in reports for lag in report["lags"]]
    fared = {"health_p50": percentile(health, 50) * 1000, "health_max": max(health) * 1000,
             "lag_p50": percentile(lags, 50) * 1000, "lag_max": max(lags) * 1000,
             "consent": sum(report["consent"] for report in reports),
             "consent_late": sum(report["consent_late"] for report in reports),
             "ended": [end for report in reports for end in report["ended"]]}
    return used, sum(report["alive"] for report in reports), fared


def caller_process(url: str, count: int, hold_s: float, barrier, results) -> None:
    """One caller process of hold_calls."""
    sys.path.insert(0, str(ROOT / "tests"))
    results.put(asyncio.run(hold_some_calls(url, count, hold_s, barrier)))


async def hold_some_calls(url: str, count: int, hold_s: float, barrier) -> dict:
    import aioice.stun
    from aiortc.exceptions import InvalidStateError

    loop = asyncio.get_running_loop()
    consent = {"consent": 0, "consent_late": 0}
    run = aioice.stun.Transaction.run

    async def counted(transaction):          # aioice's consent checks are its only transactions without retries
        if transaction._Transaction__tries_max != 1:
            return await run(transaction)
        consent["consent"] += 1
        try:
            return await run(transaction)
        except aioice.stun.TransactionTimeout:
            consent["consent_late"] += 1
            raise

    aioice.stun.Transaction.run = counted
    lags: list[float] = []

    async def watch_loop():
        while True:
            asked = time.monotonic()
            await asyncio.sleep(0.05)
            lags.append(time.monotonic() - asked - 0.05)

    clients = [await WebRTCClient.call(url) for _ in range(count)]
    for client in clients:
        await client.wait_for("session.created", timeout=60)
    ended: list[str] = []
    started = time.monotonic()
    for client in clients:
        client.pc.on("connectionstatechange", lambda client=client: client.pc.connectionState in ("failed", "closed")
                     and ended.append(f"{client.pc.connectionState} after {time.monotonic() - started:.0f} s"))
    await loop.run_in_executor(None, barrier.wait, 300)
    watcher = asyncio.create_task(watch_loop())
    for client in clients:
        client.microphone.say(noise(48000, hold_s))
    await asyncio.wait([asyncio.create_task(client.microphone.speech_done.wait()) for client in clients],
                       timeout=hold_s + 10)        # a call that ended is no longer pulled: it never finishes
    await loop.run_in_executor(None, barrier.wait, 60)
    watcher.cancel()
    during = list(ended)                    # the calls that ended during the hold, not at the hang-up below
    alive = 0
    for client in clients:
        try:
            await client.send({"type": "session.update", "session": {"instructions": "still here"}})
            await client.wait_for("session.updated", timeout=10)
            alive += 1
        except (TimeoutError, ConnectionError, InvalidStateError):
            pass
    for client in clients:
        await client.close()
    return {"alive": alive, "lags": lags, "ended": during, **consent}


def opus_cost_us(frames: int = 2000) -> tuple[float, float]:
    """libopus through PyAV as the server drives it: µs to encode (the reply's low-delay encoder) and to decode
    one 20 ms frame of speech-like noise."""
    from aiortc.codecs.opus import OpusDecoder
    from aiortc.jitterbuffer import JitterFrame
    import av

    from streaming.transports.webrtc import low_delay_opus

    encoder, decoder = low_delay_opus(), OpusDecoder()
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
        rtc_cpu, rtc_alive, fared = hold_calls(url + "/v1/realtime/calls", args.sessions, args.hold, server.pid,
                                               args.caller_processes)
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
    lines.append(f"During the WebRTC hold: the callers ({args.caller_processes} processes) saw their loops late by "
                 f"{fared['lag_p50']:.0f} ms at p50, {fared['lag_max']:.0f} ms at most; {fared['consent_late']} of "
                 f"{fared['consent']} of their ICE consent checks went unanswered within aioice's 0.5 s; the "
                 f"server answered /healthz in {fared['health_p50']:.0f} ms at p50, {fared['health_max']:.0f} ms at "
                 f"most; calls ended during the hold: {', '.join(fared['ended']) or 'none'}")
    lines.append("")
    lines.append(f"libopus via PyAV, one 20 ms frame at 48 kHz: encode {encode_us:.0f} µs, decode {decode_us:.0f} µs "
                 "(a call encodes and decodes 50 of each per second; the reply track sends frames, silence "
                 "included, for the whole call)")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=8, help="spoken requests per door")
    parser.add_argument("--sessions", type=int, default=16, help="sessions held at once in the load part")
    parser.add_argument("--hold", type=float, default=20.0, help="seconds the sessions are held")
    parser.add_argument("--caller-processes", type=int, default=4, help="processes the held calls' callers run in")
    parser.add_argument("--skip-latency", action="store_true", help="leave out the aiortc caller's turns")
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
    if not args.skip_latency:
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
