"""A WebRTC caller for tests and the bench, on aiortc as a browser would call: an SDP offer with a microphone
track and the `oai-events` data channel, POSTed to /v1/realtime/calls; every event kept in arrival order and
the reply track's audio kept with the time each 20 ms frame came out of the jitter buffer and decoder."""
from __future__ import annotations

import asyncio
import json
import time
from collections import deque
from fractions import Fraction

import aiohttp
import av
import numpy as np
from aiortc import RTCPeerConnection, RTCSessionDescription
from aiortc.mediastreams import MediaStreamError, MediaStreamTrack

RATE = 48000
FRAME_SAMPLES = 960


class Microphone(MediaStreamTrack):
    """Plays queued PCM16 mono 48 kHz in real time, silence when nothing is queued (as a live microphone)."""
    kind = "audio"

    def __init__(self):
        super().__init__()
        self.pending = bytearray()
        self.sent_ms = 0.0                      # speech (not silence) sent so far
        self.speaking_since: float | None = None    # when the first frame of the last say() was sent
        self.speech_done = asyncio.Event()
        self.speech_pts: int | None = None          # the pts of that frame
        self.handed_on: deque[tuple[int, float]] = deque(maxlen=3000)   # (pts, when) of the last minute's frames
        self._started: float | None = None
        self._pts = 0
        self._rushing = False

    def say(self, pcm16: bytes) -> None:
        self.pending += pcm16
        self.speaking_since = None
        self.speech_done.clear()

    def rush(self) -> None:
        """From now on hand frames to the sender as fast as it takes them, as no microphone does."""
        self._rushing = True

    def hush(self) -> None:
        self.pending.clear()
        self.speech_done.set()

    async def recv(self) -> av.AudioFrame:
        if self._started is None:
            self._started = time.monotonic()
        wait = self._started + self._pts / RATE - time.monotonic()
        if wait > 0 and not self._rushing:
            await asyncio.sleep(wait)
        chunk = bytes(self.pending[:FRAME_SAMPLES * 2])
        del self.pending[:FRAME_SAMPLES * 2]
        if chunk:
            if self.speaking_since is None:
                self.speaking_since, self.speech_pts = time.monotonic(), self._pts
            self.sent_ms += len(chunk) / 2 / RATE * 1000
            if not self.pending:
                self.speech_done.set()
        frame = av.AudioFrame(format="s16", layout="mono", samples=FRAME_SAMPLES)
        frame.planes[0].update(chunk.ljust(FRAME_SAMPLES * 2, b"\0"))
        frame.pts, frame.sample_rate, frame.time_base = self._pts, RATE, Fraction(1, RATE)
        self.handed_on.append((self._pts, time.monotonic()))
        self._pts += FRAME_SAMPLES
        return frame

    def handed_on_at(self, pts: int) -> float | None:
        """When the frame starting at pts went to the sender."""
        return next((at for frame_pts, at in self.handed_on if frame_pts == pts), None)


class WebRTCClient:
    def __init__(self, jitter_buffer=None):
        self.pc = RTCPeerConnection()
        self.microphone = Microphone()
        self.pc.addTrack(self.microphone)
        if jitter_buffer is not None:       # the reply's receive buffer (aiortc's default holds 4 frames)
            self.pc.getReceivers()[0]._RTCRtpReceiver__jitter_buffer = jitter_buffer
        self.channel = self.pc.createDataChannel("oai-events")
        self.events: list[dict] = []
        self.received_at: list[float] = []
        self.heard: list[tuple[float, np.ndarray]] = []     # (arrival, PCM16 mono 48 kHz) of each reply frame
        self.call_id: str | None = None
        self.answer: dict | None = None                   # the JSON body of a GPT-Live answer
        self._changed = asyncio.Event()          # set on each event; cleared by the waiter that looked
        self._tasks: list[asyncio.Task] = []
        self.channel.on("message", self._on_message)
        self.pc.on("track", self._on_track)

    def _on_message(self, message: str) -> None:
        self.events.append(json.loads(message))
        self.received_at.append(time.monotonic())
        self._changed.set()

    def _on_track(self, track) -> None:
        self._tasks.append(asyncio.ensure_future(self._listen(track)))

    async def _listen(self, track) -> None:
        while True:
            try:
                frame = await track.recv()
            except MediaStreamError:
                return
            samples = frame.to_ndarray().reshape(-1, frame.layout.nb_channels).mean(axis=1).astype(np.int16)
            self.heard.append((time.monotonic(), samples))

    @classmethod
    async def call(cls, url: str, *, headers: dict | None = None, form_session: dict | None = None,
                   live_session: dict | None = None, jitter_buffer=None) -> "WebRTCClient":
        """Offer to url (`/v1/realtime/calls`, or `/v1/live/sessions` with live_session) and connect."""
        client = cls(jitter_buffer)
        await client.pc.setLocalDescription(await client.pc.createOffer())
        offer = client.pc.localDescription.sdp
        async with aiohttp.ClientSession() as http:
            if live_session is not None:
                request = http.post(url, headers=headers, json={"session": live_session,
                                                                "transport": {"type": "webrtc", "sdp": offer}})
            elif form_session is not None:
                form = aiohttp.FormData(default_to_multipart=True)      # as `curl -F sdp=... -F session=...`
                form.add_field("sdp", offer)
                form.add_field("session", json.dumps(form_session))
                request = http.post(url, headers=headers, data=form)
            else:
                request = http.post(url, headers={"Content-Type": "application/sdp", **(headers or {})},
                                    data=offer)
            async with request as response:
                if response.status != 201:
                    await client.pc.close()
                    raise CallRefused(response.status, await response.text())
                client.call_id = response.headers["Location"].rsplit("/", 1)[-1]
                if live_session is not None:
                    client.answer = await response.json()
                    answer = client.answer["transport"]["sdp"]
                else:
                    answer = await response.text()
        await client.pc.setRemoteDescription(RTCSessionDescription(answer, "answer"))
        return client

    async def send(self, event: dict) -> None:
        self.channel.send(json.dumps(event))

    def of_type(self, kind: str, start: int = 0) -> list[dict]:
        return [e for e in self.events[start:] if e["type"] == kind]

    async def wait_for(self, kind: str, *, timeout: float = 60, where=lambda e: True) -> dict:
        async def find():
            while True:
                for event in self.events:
                    if event["type"] == kind and where(event):
                        return event
                if self.pc.connectionState in ("failed", "closed"):
                    raise ConnectionError(f"call ended before {kind}; got {[e['type'] for e in self.events]}")
                self._changed.clear()
                try:
                    await asyncio.wait_for(self._changed.wait(), 1.0)
                except TimeoutError:
                    pass
        return await asyncio.wait_for(find(), timeout)

    def audio_between(self, start: float, end: float = float("inf"), threshold: int = 300) -> bytes:
        """Reply audio heard between two monotonic times, from its first frame louder than threshold."""
        frames = [samples for at, samples in self.heard if start <= at <= end]
        first = next((n for n, samples in enumerate(frames) if np.abs(samples).max() > threshold), len(frames))
        return np.concatenate(frames[first:]).tobytes() if frames[first:] else b""

    def first_sound_after(self, start: float, threshold: int = 300) -> float | None:
        """When the first reply frame louder than threshold arrived after start."""
        return next((at for at, samples in self.heard if at >= start and np.abs(samples).max() > threshold), None)

    async def close(self) -> None:
        await self.pc.close()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)


class CallRefused(Exception):
    def __init__(self, status: int, body: str):
        super().__init__(f"HTTP {status}: {body}")
        self.status, self.body = status, body
