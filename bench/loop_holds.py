"""How long one hostile message holds the event loop at each door that takes a client's or a device's bytes, at this
checkout and at another commit in the same run (rounds 40 and 41):

    PYTHONPATH=$PWD .venv/bin/python bench/loop_holds.py [--against 216f494] [--repeat 5]

Each door's handling of the message runs as the server runs it, beside a task that yields to the loop over and over;
the hold is the longest time between two of its turns (what another session's audio waits meanwhile), in wall time
and in the loop thread's CPU time (round 43: on a loaded machine the wall time is mostly other processes'). Medians
of --repeat runs, in ms. The messages, each at its door's size bound:
- a Realtime input_audio_buffer.append of 60 s of 24 kHz audio (2.9 MB, 3.8 MB of base64) through RealtimeLink into
  a session with server VAD;
- the same append with its last four characters not base64: all of it decoded, then refused;
- the same append into a session with manual turns (no VAD), so that the row is its parse and decoding (round 43);
- the same append less its closing brace, into a session with manual turns: not JSON, refused (round 43);
- a Realtime append of 3 MB of G.711 μ-law (4 MB of base64, 6.5 minutes at 8 kHz, past the session's buffer bound);
- a Realtime message of 4 MiB of `[],` (WebSocket or WebRTC data channel) through RealtimeLink;
- a /v1/chat/completions body of 1 MiB of `[],` through parse_request in a worker thread, as the generator server
  parses it;
- a Wyoming event whose data is 1 MiB of `[],`, through read_event;
- a Twilio media frame of 64 KiB (6 s of μ-law) decoded and pushed into a session with server VAD;
- an MQTT satellite's audio message of 64 KiB (2 s at 16 kHz) pushed into a session with server VAD;
- round 44, the worst body each checkout accepts at each door that parses a client's JSON: its bounds on bytes and
  on commas and brackets (values) filled with `[],` and with `1e308,` (a float costs 10 times a `[]`): POST
  /v1/realtime/client_secrets, POST /v1/live/sessions and the `session` field of a form to POST
  /v1/realtime/calls, over loopback to the app in the same loop; a Wyoming header line of 64 KiB; a Realtime
  message of 1,000 numbers of 4,000 digits (4 MB), of 100,000 floats and of 100,000 distinct keys (4 MB);
- a Wyoming transcription of 60 s of 96 kHz audio in 12 audio-chunks of 5 s (960 KB) over loopback, from
  transcribe to the transcript: the chunks, their partial transcripts and the final one (each resampled to 16 kHz).
"""
import argparse
import asyncio
import base64
import inspect
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


async def held(handle) -> tuple[float, float]:
    """Seconds of the longest loop turn while `handle()` runs (a coroutine function or a plain one), in wall time and
    in the loop thread's CPU time (the handling's own work, without the time a loaded machine gives other processes)."""
    longest = longest_cpu = 0.0
    done = False

    async def turns():
        nonlocal longest, longest_cpu
        while not done:
            start, start_cpu = time.perf_counter(), time.thread_time()
            await asyncio.sleep(0)
            longest = max(longest, time.perf_counter() - start)
            longest_cpu = max(longest_cpu, time.thread_time() - start_cpu)

    ticker = asyncio.create_task(turns())
    await asyncio.sleep(0)
    result = handle()
    if inspect.isawaitable(result):
        await result
    done = True
    await ticker
    return longest, longest_cpu


def holds(repeat: int, only: str | None = None) -> dict[str, list[float]]:
    """Each door's median hold in ms, wall and CPU, with the code on sys.path."""
    import numpy as np

    from assistant.openai_chat import ApiError, parse_request
    from streaming.engines import Engines
    from streaming.session import Session, SessionConfig
    from streaming.transports.phone.calls import CallerAudio
    from streaming.transports.phone.twilio import MediaStream
    from streaming.transports.realtime import RealtimeProtocol
    from streaming.transports.realtime_link import RealtimeLink
    from wyoming.asr import Transcribe
    from wyoming.audio import AudioChunk, AudioStart, AudioStop
    from wyoming.client import AsyncTcpClient

    from assistant.tools import ToolRunner
    from streaming.transports.wyoming import MAX_EVENT_VALUES, BadEvent, WyomingService, read_event
    from voice.stt import WhisperSTT
    from voice.tts import PiperTTS
    from voice.vad import SileroModel

    engines = Engines(stt=WhisperSTT(), tts=PiperTTS(), vad_model=SileroModel(), generator=None)
    noise = np.random.default_rng(7).normal(0, 300, 60 * 24_000).astype("<i2").tobytes()
    append = json.dumps({"type": "input_audio_buffer.append", "audio": base64.b64encode(noise).decode()})
    refused = json.dumps({"type": "input_audio_buffer.append",
                          "audio": base64.b64encode(noise).decode()[:-4] + "!!!!"})
    mulaw = json.dumps({"type": "input_audio_buffer.append",
                        "audio": base64.b64encode(bytes(range(256)) * (3_000_000 // 256)).decode()})
    as_mulaw = json.dumps({"type": "session.update", "session": {"audio": {"input": {"format": {"type": "audio/pcmu"}}}}})
    values = "[" + "[]," * (4 * 1024 * 1024 // 3 - 2) + "1]"
    body = b'{"messages": [' + b"[]," * (1024 * 1024 // 3 - 10) + b"[]]}"
    data = b'{"x": [' + b"[]," * (1024 * 1024 // 3 - 5) + b"[]]}"
    media = json.dumps({"event": "media", "streamSid": "MZ1", "media": {"track": "inbound", "payload": base64.b64encode(
        bytes(range(256)) * (48_000 // 256)).decode()}})
    start = {"event": "start", "streamSid": "MZ1", "start": {"streamSid": "MZ1", "callSid": "CA1",
                                                              "customParameters": {},
             "mediaFormat": {"encoding": "audio/x-mulaw", "sampleRate": 8000, "channels": 1}}}

    class Kept:
        async def send(self, frame):
            return True

        def drop(self, reason):
            pass

        async def close(self, reason, going_away):
            pass

    async def session(rate: int = 24_000, manual: bool = False):
        config = SessionConfig(input_rate=rate, turn_detection=None) if manual else SessionConfig(input_rate=rate)
        opened = Session(engines, config)
        await opened.start()
        return opened

    async def realtime(text: str, *before: str, manual: bool = False) -> float:
        opened = await session(manual=manual)
        link = RealtimeLink(opened, RealtimeProtocol(session_id=opened.id, model="parley-home",
                                                     defaults=opened.config), Kept())
        for first in before:
            await link.receive(first)
        hold = await held(lambda: link.receive(text))
        await opened.close()
        return hold

    async def chat() -> float:
        async def parse():
            try:
                await asyncio.to_thread(parse_request, body)
            except ApiError:
                pass
        return await held(parse)

    async def wyoming_read(received: bytes) -> float:
        """The loop's hold while one Wyoming event is read from these bytes (a refused one counts too)."""
        reader = asyncio.StreamReader(limit=1 << 16)
        reader.feed_data(received)
        reader.feed_eof()

        async def read():
            try:
                await read_event(reader)
            except BadEvent:
                pass
        return await held(read)

    async def wyoming() -> float:
        return await wyoming_read(json.dumps({"type": "synthesize", "data_length": len(data)}).encode() + b"\n" + data)

    async def pushed(pcm16: bytes, rate: int) -> float:
        """As a satellite's audio goes in: Session.take_audio where the checkout has it, else push_audio."""
        opened = await session(rate)
        hold = await held(lambda: (getattr(opened, "take_audio", None) or opened.push_audio)(pcm16))
        await opened.close()
        return hold

    async def twilio() -> float:
        async def frame():
            stream = MediaStream()
            stream.receive(json.dumps(start))
            [audio] = stream.receive(media)
            assert isinstance(audio, CallerAudio)
            return audio.pcm16
        opened = await session(8000)
        push = getattr(opened, "take_audio", None) or opened.push_audio

        async def door():
            pcm16 = await frame()
            result = push(pcm16)
            if inspect.isawaitable(result):
                await result
        hold = await held(door)
        await opened.close()
        return hold

    async def transcription() -> float:
        service = WyomingService(engines, ToolRunner, host="127.0.0.1", port=0)
        await service.start()
        quiet = np.random.default_rng(5).normal(0, 30, 60 * 96_000).astype("<i2").tobytes()

        async def exchange():
            async with AsyncTcpClient("127.0.0.1", service.port) as client:
                await client.write_event(Transcribe().event())
                await client.write_event(AudioStart(rate=96_000, width=2, channels=1).event())
                for start in range(0, len(quiet), 960_000):
                    await client.write_event(AudioChunk(rate=96_000, width=2, channels=1,
                                                        audio=quiet[start:start + 960_000]).event())
                await client.write_event(AudioStop().event())
                while (event := await asyncio.wait_for(client.read_event(), 60)) is not None \
                        and event.type != "transcript":
                    pass
        hold = await held(exchange)
        await service.close()
        return hold

    from aiohttp import ClientSession, FormData, web

    from streaming import server as server_module
    from streaming.config import ServerConfig
    from streaming.transports import webrtc, wyoming as wyoming_module

    unbounded = float("inf")                          # before round 44: aiohttp's 1 MiB, no count of values
    config_bytes = getattr(server_module, "MAX_CONFIG_BYTES", 1024 * 1024)
    config_values = getattr(server_module, "MAX_CONFIG_VALUES", unbounded)
    live_bytes = getattr(webrtc, "MAX_LIVE_BYTES", 1024 * 1024)

    def filled(head: str, unit: str, tail: str, max_bytes: int, max_values: float) -> str:
        """head + unit * n + "1" + tail, n as large as the bounds on bytes and on commas and brackets allow."""
        per_unit = sum(map(unit.count, ",[{"))
        used = sum(map((head + tail).count, ",[{"))
        n = min((max_bytes - len(head) - len(tail) - 64) // len(unit), (max_values - used - 16) // per_unit)
        return head + unit * int(n) + "1" + tail

    async def http_door(path: str, unit: str) -> float:
        app = server_module.create_app(ServerConfig(port=0), engines)
        runner = web.AppRunner(app)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        url = f"http://127.0.0.1:{runner.addresses[0][1]}{path}"
        sdp = "v=0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\n"
        if path == "/v1/realtime/client_secrets":
            body = filled('{"session": {"type": "realtime", "x": [', unit, "]}}", config_bytes, config_values)
        elif path == "/v1/live/sessions":
            body = filled('{"transport": {"type": "webrtc", "sdp": "v=0"}, "session": {"x": [', unit, "]}}",
                          live_bytes, config_values)
        else:                                         # a form's session field: 1 MiB less the form, before
            body = FormData(default_to_multipart=True)
            body.add_field("sdp", sdp)
            body.add_field("session", filled('{"x": [', unit, "]}", min(config_bytes, 1024 * 1024 - 4096),
                                             config_values))
        async with ClientSession() as http:
            async def post():
                async with http.post(url, data=body, headers=None if isinstance(body, FormData) else
                                     {"Content-Type": "application/json"}) as response:
                    await response.read()
            hold = await held(post)
        await runner.cleanup()
        return hold

    async def wyoming_header(unit: str) -> float:
        values = MAX_EVENT_VALUES if hasattr(wyoming_module, "MAX_HEADER_BYTES") else unbounded   # round 44
        return await wyoming_read(filled('{"type": "describe", "x": [', unit, "]}", 1 << 16, values).encode() + b"\n")

    digits = '{"type": "session.update", "session": {"x": [' + ",".join(["7" * 4000] * 1000) + "]}}"
    floats = '{"type": "session.update", "session": {"x": [' + "1e308," * 99_980 + "1]}}"
    keys = '{"type": "session.update", "session": {"x": {' + ",".join(
        f'"{n:030d}": 0' for n in range(99_980)) + "}}}"

    doors = {"realtime append of 60 s (3.8 MB)": lambda: realtime(append),
             "realtime append of 60 s, bad base64 at its end": lambda: realtime(refused),
             "realtime append of 60 s, manual turns": lambda: realtime(append, manual=True),
             "realtime append of 60 s less its closing brace, manual turns": lambda: realtime(append[:-1], manual=True),
             "realtime append of 3 MB of mu-law (4 MB)": lambda: realtime(mulaw, as_mulaw),
             "realtime message of 4 MiB of [],": lambda: realtime(values),
             "chat body of 1 MiB of [],": chat,
             "wyoming data of 1 MiB of [],": wyoming,
             "twilio media frame of 64 KiB (6 s)": twilio,
             "satellite audio of 64 KiB (2 s)": lambda: pushed(bytes(64 * 1024), 16_000),
             "wyoming transcription of 60 s at 96 kHz": transcription,
             "client secret body at its bounds of [],": lambda: http_door("/v1/realtime/client_secrets", "[],"),
             "client secret body at its bounds of 1e308,": lambda: http_door("/v1/realtime/client_secrets", "1e308,"),
             "live session body at its bounds of [],": lambda: http_door("/v1/live/sessions", "[],"),
             "live session body at its bounds of 1e308,": lambda: http_door("/v1/live/sessions", "1e308,"),
             "call's session field at its bounds of [],": lambda: http_door("/v1/realtime/calls", "[],"),
             "call's session field at its bounds of 1e308,": lambda: http_door("/v1/realtime/calls", "1e308,"),
             "wyoming header at its bounds of [],": lambda: wyoming_header("[],"),
             "wyoming header at its bounds of 1e308,": lambda: wyoming_header("1e308,"),
             "realtime message of 1,000 4,000-digit numbers": lambda: realtime(digits),
             "realtime message of 100,000 floats": lambda: realtime(floats),
             "realtime message of 100,000 distinct keys": lambda: realtime(keys)}

    async def measure():
        medians = {}
        for door, run in doors.items():
            if only is not None and not any(text in door for text in only.split("|")):
                continue
            runs = [await run() for _ in range(repeat)]
            medians[door] = [statistics.median(kind) * 1000 for kind in zip(*runs)]
        return medians
    return asyncio.run(measure())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", default="216f494", help="the commit to compare with")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--doors", help="only the doors whose names hold one of these |-separated texts")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)   # the child: print JSON
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(holds(args.repeat, args.doors)))
        return

    def child(root: Path) -> dict:
        out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--measure", "--repeat", str(args.repeat)]
                             + (["--doors", args.doors] if args.doors else []),
                             cwd=root, env={**os.environ, "PYTHONPATH": str(root)}, capture_output=True, text=True,
                             check=True).stdout
        return json.loads(out.strip().splitlines()[-1])

    here = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=HERE, capture_output=True,
                          text=True).stdout.strip()
    with tempfile.TemporaryDirectory() as base:
        archive = subprocess.run(["git", "archive", args.against], cwd=HERE, capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", base], input=archive, check=True)
        print(f"# {args.against} at load {os.getloadavg()[0]:.1f}", flush=True)
        before = child(Path(base))
    print(f"# {here} at load {os.getloadavg()[0]:.1f}", flush=True)
    after = child(HERE)
    print(f"| one message | {args.against} | {here} | {args.against} CPU | {here} CPU |\n|---|---|---|---|---|")
    for door in after:
        print(f"| {door} | {before[door][0]:.1f} ms | {after[door][0]:.1f} ms | {before[door][1]:.1f} ms "
              f"| {after[door][1]:.1f} ms |")


if __name__ == "__main__":
    main()
