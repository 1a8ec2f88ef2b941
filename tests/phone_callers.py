"""The far ends of a phone call, written from the protocol specifications: Twilio, Telnyx, Vonage, Plivo and
Asterisk as they behave on the wire, so tests and the latency bench can place real calls against a live Parley server.

Every caller sends audio the way the real systems do — one 20 ms frame every 20 ms for the whole call,
silence when the caller is quiet — and "play" what Parley sends at real-time pace, so marks are echoed
when their audio has been heard and a barge-in flush drops audio not yet heard.
"""

from __future__ import annotations

import asyncio
import base64
import json
import time
import uuid
from collections import deque

import aiohttp
import numpy as np

from voice.audio import float_to_pcm16, mulaw_decode, mulaw_encode, pcm16_to_float, resample

RATE = 8000                       # narrow-band: Twilio, and AudioSocket's classic slin frames
FRAME_S = 0.020
SLIN_TYPES = {8000: 0x10, 16000: 0x12}   # AudioSocket audio frame types (slin, slin16)


def phone_audio(audio: np.ndarray, rate: int) -> np.ndarray:
    """Speech at any rate -> the 8 kHz narrow-band signal a phone line carries."""
    return resample(audio, rate, RATE)


class _Caller:
    """What both far ends share: a real-time send clock, a playback clock, and what was heard when."""

    def __init__(self, rate: int = RATE) -> None:
        self.rate = rate                             # of the audio both ways
        self.frame = rate // 50                      # samples per 20 ms
        self._speech: deque[np.ndarray] = deque()   # 20 ms frames still to say
        self.speech_started_at: float | None = None  # monotonic time the first frame of the speech left
        self.speech_ended_at: float | None = None   # monotonic time the last speech frame left
        self.heard: list[np.ndarray] = []           # played reply frames (float32 at the call's rate)
        self.received: list[np.ndarray] = []        # every reply frame received, played or not
        self.received_at: list[float] = []          # when each of them arrived (monotonic)
        self.frames_received = 0
        self.first_frame_after_speech: float | None = None
        self._playback: deque = deque()             # ("audio", frame) | ("mark", name) not yet played
        self.closed = asyncio.Event()
        self._tasks: list[asyncio.Task] = []

    def say(self, audio: np.ndarray) -> None:
        """Queue speech at the call's rate; it goes out at real-time pace in place of the silence."""
        padded = np.concatenate([audio, np.zeros(-len(audio) % self.frame, np.float32)])
        self._speech.extend(padded.reshape(-1, self.frame))
        self.speech_started_at = self.speech_ended_at = None
        self.first_frame_after_speech = None

    async def finish_speaking(self) -> float:
        while self._speech or self.speech_ended_at is None:
            await asyncio.sleep(FRAME_S)
        return self.speech_ended_at

    async def flood(self, seconds: float) -> None:
        """Send this many seconds of silence as fast as the socket takes it, as no phone line does; stops when
        the server hangs up."""
        for _ in range(round(seconds / FRAME_S)):
            if self.closed.is_set():
                return
            try:
                await self._send_audio(np.zeros(self.frame, np.float32))
            except (ConnectionError, RuntimeError):
                return

    def heard_audio(self) -> np.ndarray:
        return np.concatenate(self.heard) if self.heard else np.zeros(0, np.float32)

    def _received_audio(self, frame: np.ndarray) -> None:
        self.frames_received += 1
        self.received.append(frame)
        self.received_at.append(time.monotonic())
        if self.speech_ended_at is not None and self.first_frame_after_speech is None:
            self.first_frame_after_speech = time.monotonic()
        self._playback.append(("audio", frame))

    async def _send_loop(self) -> None:
        deadline = time.monotonic()
        while not self.closed.is_set():
            speaking = bool(self._speech)
            frame = self._speech.popleft() if speaking else np.zeros(self.frame, np.float32)
            if speaking and self.speech_started_at is None:
                self.speech_started_at = time.monotonic()
            try:
                await self._send_audio(frame)
            except (ConnectionError, RuntimeError):
                return
            if not self._speech and self.speech_ended_at is None:
                self.speech_ended_at = time.monotonic()
            deadline += FRAME_S
            await asyncio.sleep(max(0.0, deadline - time.monotonic()))

    async def _play_loop(self) -> None:
        deadline = time.monotonic()
        while not self.closed.is_set():
            while self._playback and self._playback[0][0] == "mark":
                await self._mark_played(self._playback.popleft()[1])
            if self._playback:
                self.heard.append(self._playback.popleft()[1])
            deadline += FRAME_S
            await asyncio.sleep(max(0.0, deadline - time.monotonic()))

    def _start_clocks(self) -> None:
        self._tasks = [asyncio.create_task(self._send_loop()), asyncio.create_task(self._play_loop())]

    async def _stop_clocks(self) -> None:
        self.closed.set()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _send_audio(self, frame: np.ndarray) -> None:
        raise NotImplementedError

    async def _mark_played(self, name: str) -> None:
        pass


class TwilioCaller(_Caller):
    """Twilio's side of a bidirectional Media Stream (``<Connect><Stream>``)."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, call_sid: str | None = None):
        super().__init__()
        self.ws = ws
        self.stream_sid = "MZ" + uuid.uuid4().hex
        self.call_sid = call_sid or "CA" + uuid.uuid4().hex
        self.sequence = 0
        self.chunk = 0
        self.marks_received: list[str] = []
        self.marks_echoed: list[str] = []
        self.clears = 0
        self.close_code: int | None = None
        self.close_reason = ""

    @classmethod
    async def dial(cls, http: aiohttp.ClientSession, url: str, parameters: dict[str, str] | None = None,
                   headers: dict[str, str] | None = None, call_sid: str | None = None) -> "TwilioCaller":
        caller = cls(await http.ws_connect(url, headers=headers), call_sid)
        await caller._send({"event": "connected", "protocol": "Call", "version": "1.0.0"})
        start = {"streamSid": caller.stream_sid, "accountSid": "AC" + "0" * 32, "callSid": caller.call_sid,
                 "tracks": ["inbound"], "customParameters": parameters or {},
                 "mediaFormat": {"encoding": "audio/x-mulaw", "sampleRate": 8000, "channels": 1}}
        await caller._send({"event": "start", "streamSid": caller.stream_sid, "start": start})
        caller._tasks_receive = asyncio.create_task(caller._receive_loop())
        caller._start_clocks()
        return caller

    async def _send(self, message: dict) -> None:
        self.sequence += 1
        await self.ws.send_str(json.dumps({"sequenceNumber": str(self.sequence), **message}))

    async def _send_audio(self, frame: np.ndarray) -> None:
        self.chunk += 1
        await self._send({"event": "media", "streamSid": self.stream_sid, "media": {
            "track": "inbound", "chunk": str(self.chunk), "timestamp": str(20 * self.chunk),
            "payload": base64.b64encode(mulaw_encode(frame)).decode()}})

    async def press(self, digit: str) -> None:
        await self._send({"event": "dtmf", "streamSid": self.stream_sid,
                          "dtmf": {"track": "inbound_track", "digit": digit}})

    async def _mark_played(self, name: str) -> None:
        self.marks_echoed.append(name)
        if not self.ws.closed:
            await self._send({"event": "mark", "streamSid": self.stream_sid, "mark": {"name": name}})

    async def _receive_loop(self) -> None:
        while True:
            message = await self.ws.receive()
            if message.type != aiohttp.WSMsgType.TEXT:
                if message.type == aiohttp.WSMsgType.CLOSE:
                    self.close_reason = message.extra or ""
                if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSING,
                                    aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
                    break
                continue
            frame = json.loads(message.data)
            assert frame.get("streamSid") == self.stream_sid, frame
            if frame["event"] == "media":
                self._received_audio(mulaw_decode(base64.b64decode(frame["media"]["payload"])))
            elif frame["event"] == "mark":
                self.marks_received.append(frame["mark"]["name"])
                self._playback.append(("mark", frame["mark"]["name"]))
            elif frame["event"] == "clear":                    # drop unplayed audio, echo pending marks
                self.clears += 1
                pending = [item[1] for item in self._playback if item[0] == "mark"]
                self._playback.clear()
                for name in pending:
                    await self._mark_played(name)
        self.close_code = self.ws.close_code
        self.closed.set()

    async def hang_up(self) -> None:
        """The caller hangs up: Twilio sends stop and closes the socket."""
        if not self.ws.closed:
            await self._send({"event": "stop", "streamSid": self.stream_sid,
                              "stop": {"accountSid": "AC" + "0" * 32, "callSid": self.call_sid}})
            await self.ws.close()
        await self._stop_clocks()
        await asyncio.gather(self._tasks_receive, return_exceptions=True)


class AsteriskCaller(_Caller):
    """Asterisk's side of ``AudioSocket(uuid,host:port)``: UUID first, then slin frames (8 kHz, or 16 kHz as
    newer Asterisk sends for wideband channels) and DTMF."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, rate: int):
        super().__init__(rate)
        self.reader, self.writer = reader, writer
        self.slin_type = SLIN_TYPES[rate]
        self.call_id = uuid.uuid4()
        self.hung_up_by_server = False
        self.unexpected: list[tuple[int, bytes]] = []   # frames Asterisk would not understand
        self.frame_sizes: set[int] = set()              # payload sizes of the audio frames received

    @classmethod
    async def dial(cls, host: str, port: int, rate: int = RATE) -> "AsteriskCaller":
        caller = cls(*await asyncio.open_connection(host, port), rate)
        caller.writer.write(b"\x01\x00\x10" + caller.call_id.bytes)
        caller._tasks_receive = asyncio.create_task(caller._receive_loop())
        caller._start_clocks()
        return caller

    async def _send_audio(self, frame: np.ndarray) -> None:
        pcm16 = float_to_pcm16(frame)
        self.writer.write(bytes([self.slin_type]) + len(pcm16).to_bytes(2, "big") + pcm16)
        await self.writer.drain()

    async def press(self, digit: str) -> None:
        self.writer.write(b"\x03\x00\x01" + digit.encode())
        await self.writer.drain()

    async def _receive_loop(self) -> None:
        try:
            while True:
                header = await self.reader.readexactly(3)
                kind, length = header[0], int.from_bytes(header[1:], "big")
                payload = await self.reader.readexactly(length)
                if kind == self.slin_type:
                    self.frame_sizes.add(length)
                    self._received_audio(pcm16_to_float(payload))
                elif kind == 0x00:
                    self.hung_up_by_server = True
                    break
                else:
                    self.unexpected.append((kind, payload))
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        self.closed.set()

    async def hang_up(self) -> None:
        if not self.writer.is_closing():
            try:
                self.writer.write(b"\x00\x00\x00")
                await self.writer.drain()
            except ConnectionError:
                pass
            self.writer.close()
        await self._stop_clocks()
        await asyncio.gather(self._tasks_receive, return_exceptions=True)


class _JsonCarrierCaller(_Caller):
    """What Telnyx's and Plivo's far ends share: JSON text frames with base64 audio, a reply heard at
    real-time pace, our marks echoed once the audio before them has played, a clear that drops the rest."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, rate: int = RATE):
        super().__init__(rate)
        self.ws = ws
        self.call_id = str(uuid.uuid4())
        self.stream_id = str(uuid.uuid4())
        self.sequence = 0
        self.chunk = 0
        self.marks_received: list[str] = []
        self.marks_echoed: list[str] = []
        self.clears = 0
        self.close_code: int | None = None

    async def _send(self, message: dict) -> None:
        self.sequence += 1
        await self.ws.send_str(json.dumps(self._numbered(message)))

    def _start_receiving(self) -> None:
        self._tasks_receive = asyncio.create_task(self._receive_loop())
        self._start_clocks()

    async def _receive_loop(self) -> None:
        while True:
            message = await self.ws.receive()
            if message.type != aiohttp.WSMsgType.TEXT:
                if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSING,
                                    aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
                    break
                continue
            await self._received(json.loads(message.data))
        self.close_code = self.ws.close_code
        self.closed.set()

    def _mark(self, name: str) -> None:
        self.marks_received.append(name)
        self._playback.append(("mark", name))

    def _clear(self) -> None:
        """Drop what has not played; its marks will never be reached."""
        self.clears += 1
        self._playback.clear()

    async def hang_up(self) -> None:
        if not self.ws.closed:
            await self._stop_message()
            await self.ws.close()
        await self._stop_clocks()
        await asyncio.gather(self._tasks_receive, return_exceptions=True)

    async def _stop_message(self) -> None:
        pass


class TelnyxCaller(_JsonCarrierCaller):
    """Telnyx media streaming (bidirectional, RTP mode, PCMU), as its WebSocket documentation shows it."""

    @classmethod
    async def dial(cls, http: aiohttp.ClientSession, url: str, headers: dict[str, str] | None = None) -> "TelnyxCaller":
        caller = cls(await http.ws_connect(url, headers=headers))
        caller.call_id = "v3:" + uuid.uuid4().hex
        await caller.ws.send_str(json.dumps({"event": "connected", "version": "1.0.0"}))
        await caller._send({"event": "start", "start": {
            "user_id": str(uuid.uuid4()), "call_control_id": caller.call_id, "client_state": None,
            "from": "+15551230000", "to": "+15559870000",
            "media_format": {"encoding": "PCMU", "sample_rate": 8000, "channels": 1}}})
        caller._start_receiving()
        return caller

    def _numbered(self, message: dict) -> dict:
        return {**message, "sequence_number": str(self.sequence), "stream_id": self.stream_id}

    async def _send_audio(self, frame: np.ndarray) -> None:
        self.chunk += 1
        await self._send({"event": "media", "media": {"track": "inbound", "chunk": str(self.chunk),
                                                      "timestamp": str(20 * self.chunk),
                                                      "payload": base64.b64encode(mulaw_encode(frame)).decode()}})

    async def press(self, digit: str) -> None:
        await self._send({"event": "dtmf", "dtmf": {"digit": digit}})

    async def _received(self, frame: dict) -> None:
        if frame["event"] == "media":
            self._received_audio(mulaw_decode(base64.b64decode(frame["media"]["payload"])))
        elif frame["event"] == "mark":
            self._mark(frame["mark"]["name"])
        elif frame["event"] == "clear":
            self._clear()

    async def _mark_played(self, name: str) -> None:
        self.marks_echoed.append(name)
        if not self.ws.closed:
            await self._send({"event": "mark", "mark": {"name": name}})

    async def _stop_message(self) -> None:
        await self._send({"event": "stop", "stop": {"user_id": "u", "call_control_id": self.call_id}})


class PlivoCaller(_JsonCarrierCaller):
    """Plivo's bidirectional audio stream (audio/x-mulaw;rate=8000), as its Stream event protocol shows it."""

    @classmethod
    async def dial(cls, http: aiohttp.ClientSession, url: str, headers: dict[str, str] | None = None) -> "PlivoCaller":
        caller = cls(await http.ws_connect(url, headers=headers))
        await caller._send({"event": "start", "start": {
            "callId": caller.call_id, "streamId": caller.stream_id, "accountId": "MA" + "X" * 18,
            "tracks": ["inbound"], "mediaFormat": {"encoding": "audio/x-mulaw", "sampleRate": 8000}},
            "extra_headers": "caller=15551230000;lang=en"})
        caller._start_receiving()
        return caller

    def _numbered(self, message: dict) -> dict:
        return {**message, "sequenceNumber": self.sequence}

    async def _send_audio(self, frame: np.ndarray) -> None:
        self.chunk += 1
        await self._send({"event": "media", "streamId": self.stream_id, "media": {
            "track": "inbound", "timestamp": str(int(time.time() * 1000)), "chunk": self.chunk,
            "payload": base64.b64encode(mulaw_encode(frame)).decode()}})

    async def press(self, digit: str) -> None:
        await self._send({"event": "dtmf", "streamId": self.stream_id, "dtmf": {"track": "inbound", "digit": digit}})

    async def _received(self, frame: dict) -> None:
        if frame["event"] == "playAudio":
            media = frame["media"]
            assert (media["contentType"], media["sampleRate"]) == ("audio/x-mulaw", 8000), media
            self._received_audio(mulaw_decode(base64.b64decode(media["payload"])))
        elif frame["event"] == "checkpoint":
            assert frame["streamId"] == self.stream_id, frame
            self._mark(frame["name"])
        elif frame["event"] == "clearAudio":
            assert frame["streamId"] == self.stream_id, frame
            self._clear()
            await self._send({"event": "clearedAudio", "streamId": self.stream_id})

    async def _mark_played(self, name: str) -> None:
        self.marks_echoed.append(name)
        if not self.ws.closed:
            await self._send({"event": "playedStream", "streamId": self.stream_id, "name": name})


class VonageCaller(_Caller):
    """Vonage's WebSocket endpoint of an NCCO connect (audio/l16;rate=16000): a first JSON text message with the
    NCCO's headers, then binary 640-byte frames of 20 ms both ways; notify echoed once played; clear drops."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, rate: int):
        super().__init__(rate)
        self.ws = ws
        self.marks_received: list[str] = []
        self.marks_echoed: list[str] = []
        self.clears = 0
        self.frame_sizes: set[int] = set()
        self.close_code: int | None = None

    @classmethod
    async def dial(cls, http: aiohttp.ClientSession, url: str, headers: dict[str, str] | None = None,
                   rate: int = 16000) -> "VonageCaller":
        caller = cls(await http.ws_connect(url, headers=headers), rate)
        await caller.ws.send_str(json.dumps({"event": "websocket:connected", "content-type": f"audio/l16;rate={rate}",
                                             "caller": "15551230000"}))
        caller._tasks_receive = asyncio.create_task(caller._receive_loop())
        caller._start_clocks()
        return caller

    async def _send_audio(self, frame: np.ndarray) -> None:
        await self.ws.send_bytes(float_to_pcm16(frame))

    async def press(self, digit: str) -> None:
        await self.ws.send_str(json.dumps({"event": "websocket:dtmf", "digit": digit, "duration": 260}))

    async def _receive_loop(self) -> None:
        while True:
            message = await self.ws.receive()
            if message.type == aiohttp.WSMsgType.BINARY:
                self.frame_sizes.add(len(message.data))
                self._received_audio(pcm16_to_float(message.data))
            elif message.type == aiohttp.WSMsgType.TEXT:
                command = json.loads(message.data)
                if command["action"] == "notify":
                    self.marks_received.append(command["payload"]["mark"])
                    self._playback.append(("mark", command["payload"]))
                elif command["action"] == "clear":
                    self.clears += 1
                    self._playback.clear()
                    await self.ws.send_str(json.dumps({"event": "websocket:cleared"}))
            elif message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSING,
                                  aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
                break
        self.close_code = self.ws.close_code
        self.closed.set()

    async def _mark_played(self, payload: dict) -> None:
        self.marks_echoed.append(payload["mark"])
        if not self.ws.closed:
            await self.ws.send_str(json.dumps({"event": "websocket:notify", "payload": payload}))

    async def hang_up(self) -> None:
        if not self.ws.closed:
            await self.ws.close()
        await self._stop_clocks()
        await asyncio.gather(self._tasks_receive, return_exceptions=True)


# What both call test modules observe on the server and hear on the line.

GREETING = "Hello, this is Parley. How can I help?"
LONG_GREETING = ("Hello and welcome to Parley, the voice assistant of this house. I can switch the lights, "
                 "set the heating, and tell you the temperature in any room. What would you like?")


def finished_calls(server) -> list:
    """The server's call registry (app[PHONE_CALLS]) is the server-side observable of every call."""
    from streaming.transports.phone.calls import PHONE_CALLS

    async def snapshot():
        return list(server.app[PHONE_CALLS].finished)
    return server.call(snapshot())


def call_in_progress(server, call_id: str):
    """The server's record of a call not yet ended (app[PHONE_CALLS].active); None once it has."""
    from streaming.transports.phone.calls import PHONE_CALLS

    async def find():
        return next((r for r in server.app[PHONE_CALLS].active.values() if r.call_id == call_id), None)
    return server.call(find())


async def until_transcribed(server, call_id: str) -> None:
    """Until the caller's turn has ended and been transcribed: on a busy machine that takes seconds, and the
    words of a turn cut by the hang-up reach the conversation, not the call's record."""
    def transcribed() -> bool:
        record = call_in_progress(server, call_id)
        return record is not None and bool(record.transcripts)
    await until(transcribed, timeout=60, what="the caller's words transcribed")


async def wait_for_record(server, call_id: str, timeout: float = 25):
    for _ in range(int(timeout / 0.05)):
        for record in finished_calls(server):
            if record.call_id == call_id:
                return record
        await asyncio.sleep(0.05)
    raise AssertionError(f"call {call_id} never finished on the server")


def live_tasks(server) -> list[str]:
    """Session and call tasks still running on the server."""
    return server.session_tasks(("sess_", "phone-"))


async def until(condition, timeout: float = 30, what: str = "condition"):
    for _ in range(int(timeout / 0.02)):
        if condition():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def transcribe(stt, audio: np.ndarray, rate: int = RATE) -> str:
    """What a listener made of the call audio (padded with silence: Whisper drops a last word cut at the edge)."""
    silence = np.zeros(rate, np.float32)
    return stt.transcribe(resample(np.concatenate([silence, audio, silence]), rate, 16000))
