"""A small OpenAI Realtime client for tests: a real WebSocket, every server event kept in arrival order,
and audio streamed at real-time pace the way a microphone would send it."""
from __future__ import annotations

import asyncio
import base64
import json
import time

import aiohttp


class RealtimeClient:
    def __init__(self, http: aiohttp.ClientSession, ws: aiohttp.ClientWebSocketResponse):
        self.http, self.ws = http, ws
        self.events: list[dict] = []
        self.received_at: list[float] = []       # monotonic arrival time of each event
        self.sent_audio_ms = 0.0                 # input audio streamed so far
        self._changed = asyncio.Condition()
        self.closed = asyncio.Event()
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def connect(cls, url: str, *, headers: dict | None = None, protocols: tuple[str, ...] = ()) -> "RealtimeClient":
        http = aiohttp.ClientSession()
        try:
            ws = await http.ws_connect(url, headers=headers or {}, protocols=protocols, max_msg_size=0)
        except BaseException:
            await http.close()
            raise
        return cls(http, ws)

    async def _read(self) -> None:
        try:
            async for message in self.ws:
                if message.type == aiohttp.WSMsgType.TEXT:
                    async with self._changed:
                        self.events.append(json.loads(message.data))
                        self.received_at.append(time.monotonic())
                        self._changed.notify_all()
        finally:
            self.closed.set()
            async with self._changed:
                self._changed.notify_all()

    async def send(self, event: dict) -> None:
        await self.ws.send_str(json.dumps(event))

    async def send_raw(self, text: str) -> None:
        await self.ws.send_str(text)

    def of_type(self, kind: str, start: int = 0) -> list[dict]:
        return [e for e in self.events[start:] if e["type"] == kind]

    async def wait_for(self, kind: str, *, timeout: float = 60, start: int = 0, where=lambda e: True) -> dict:
        """The first event of this type (from index `start`) that satisfies `where`."""
        async def find():
            async with self._changed:
                while True:
                    for event in self.events[start:]:
                        if event["type"] == kind and where(event):
                            return event
                    if self.closed.is_set():
                        raise ConnectionError(f"socket closed before {kind}; got {[e['type'] for e in self.events]}")
                    await self._changed.wait()
        return await asyncio.wait_for(find(), timeout)

    async def calls_of_text_turn(self, text: str) -> list[tuple[str, dict]]:
        """Says one typed user turn, asks for a text reply and gives the function calls it made, in order."""
        start = len(self.events)
        await self.send({"type": "conversation.item.create", "item": {
            "type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}})
        await self.send({"type": "response.create", "response": {"output_modalities": ["text"]}})
        await self.wait_for("response.done", start=start, timeout=60)
        return [(e["item"]["name"], json.loads(e["item"]["arguments"]))
                for e in self.of_type("conversation.item.added", start) if e["item"]["type"] == "function_call"]

    async def stream_audio(self, pcm16: bytes, rate: int, *, chunk_ms: int = 20, stop: asyncio.Event | None = None,
                           encode=None) -> None:
        """Send PCM16 mono in chunk_ms chunks at real-time pace (encode: optional codec for the wire)."""
        step = rate * 2 * chunk_ms // 1000
        start, sent_ms = time.monotonic(), 0.0
        for offset in range(0, len(pcm16), step):
            if stop is not None and stop.is_set():
                return
            chunk = pcm16[offset:offset + step]
            data = encode(chunk) if encode else chunk
            await self.send({"type": "input_audio_buffer.append", "audio": base64.b64encode(data).decode()})
            chunk_ms_sent = len(chunk) / 2 / rate * 1000
            sent_ms += chunk_ms_sent
            self.sent_audio_ms += chunk_ms_sent
            delay = start + sent_ms / 1000 - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)

    def audio_of(self, response_id: str, kind: str = "response.output_audio.delta") -> bytes:
        return b"".join(base64.b64decode(e["delta"]) for e in self.events
                        if e["type"] == kind and e.get("response_id") == response_id)

    async def close(self) -> None:
        await self.ws.close()
        await self._reader
        await self.http.close()


async def sessions_ended(server, timeout: float = 60) -> None:
    """Wait until the live server has no session tasks and no tracked sessions left; TimeoutError after timeout."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while server.session_tasks() or server.ctx.sessions:
        if loop.time() > deadline:
            raise TimeoutError(f"sessions still live after {timeout} s: {list(server.ctx.sessions)}")
        await asyncio.sleep(0.05)
