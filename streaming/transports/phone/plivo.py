"""Plivo audio streams: a pure serializer plus the WebSocket door ``/plivo/stream``.

The answer XML ``<Stream bidirectional="true" keepCallAlive="true" contentType="audio/x-mulaw;rate=8000">
wss://HOST/plivo/stream</Stream>`` (or ``audio/x-l16;rate=8000|16000``) makes Plivo open the WebSocket. Plivo
sends JSON text frames ``start`` (``start.callId``, ``start.streamId``, ``start.mediaFormat``,
``extra_headers``), ``media`` (base64 audio), ``dtmf``, ``playedStream`` (a checkpoint of ours was reached)
and ``clearedAudio``; the call ends when the socket closes. We send ``playAudio``, a ``checkpoint`` after each
reply segment, and ``clearAudio`` at barge-in.

The door: with ``--plivo-auth-token``, the upgrade must carry a valid ``X-Plivo-Signature-V3`` (base64
HMAC-SHA256 with the auth token over the URL, then ``.`` and ``X-Plivo-Signature-V3-Nonce``).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import os
import re
from collections import deque
from urllib.parse import parse_qsl, urlsplit

import numpy as np
from aiohttp import WSCloseCode, web

from streaming.logsafe import printable
from streaming.transports.phone import calls
from streaming.transports.phone.calls import (PHONE_SETTINGS, CallerAudio, CallerDigit, CallStarted, mark_played,
                                              Outbound, OutboundFrames)
from streaming.transports.phone.streams import (Invalid, base64_payload, digit_of, field, json_object,
                                                serve_stream, stream_url)
from voice.audio import float_to_pcm16, mulaw_decode, mulaw_encode

log = logging.getLogger(__name__)

FORMATS = {("audio/x-mulaw", 8000), ("audio/x-l16", 8000), ("audio/x-l16", 16000)}   # what <Stream> offers
EXTRA_HEADER = re.compile(r"([A-Za-z0-9]+)=([A-Za-z0-9]*)")   # Plivo allows letters and digits only


class PlivoStream:
    """One Plivo audio stream, without I/O."""

    def __init__(self) -> None:
        self.state = "connecting"              # connecting -> streaming -> failed
        self.stream_id: str | None = None
        self.encoding, self.rate = "audio/x-mulaw", 8000
        self.pending_marks: deque[str] = deque()
        self._frames: OutboundFrames | None = None

    # --- Plivo -> us

    def receive_text(self, text: str) -> list:
        if self.state == "failed":
            return []
        try:
            return self._receive(json_object(text))
        except Invalid as exc:
            self.state = "failed"
            return [exc.error()]

    def receive_bytes(self, data: bytes) -> list:
        if self.state == "failed":
            return []
        self.state = "failed"
        return [Invalid("binary frame: Plivo audio streams send JSON text", WSCloseCode.UNSUPPORTED_DATA).error()]

    def _receive(self, message: dict) -> list:
        event = message["event"]
        if event == "start":
            return [self._start(message)]
        if event in ("media", "dtmf", "playedStream", "clearedAudio") and self.state != "streaming":
            raise Invalid(f"'{event}' before 'start'")
        if event == "media":
            media = field(message, "media")
            if media.get("track", "inbound") != "inbound":
                return []
            audio = base64_payload(media)
            if self.encoding == "audio/x-mulaw":
                return [CallerAudio(float_to_pcm16(mulaw_decode(audio)))] if audio else []
            if len(audio) % 2:
                raise Invalid("L16 media payload of an odd number of bytes")
            return [CallerAudio(audio)] if audio else []
        if event == "dtmf":
            return [CallerDigit(digit_of(field(message, "dtmf").get("digit")))]
        if event == "playedStream":
            name = message.get("name")
            if not isinstance(name, str):
                raise Invalid("playedStream without a name")
            return [mark_played(self.pending_marks, name)]
        if event == "clearedAudio":
            return []
        log.info("ignoring unknown Plivo stream event %r", printable(event))
        return []

    def _start(self, message: dict) -> CallStarted:
        if self.state != "connecting":
            raise Invalid("second 'start' on one stream")
        start = field(message, "start")
        media_format = start.get("mediaFormat") or {}
        encoding, rate = media_format.get("encoding"), media_format.get("sampleRate")
        if (encoding, rate) not in FORMATS:
            raise Invalid(f"unsupported media format {encoding!r} {rate!r} Hz: expected audio/x-mulaw 8000 Hz or "
                          "audio/x-l16 8000 or 16000 Hz", WSCloseCode.UNSUPPORTED_DATA)
        stream_id, call_id = start.get("streamId"), start.get("callId")
        if not isinstance(stream_id, str) or not stream_id:
            raise Invalid("'start' without a streamId")
        extra = message.get("extra_headers") or ""
        if not isinstance(extra, str):
            raise Invalid("extra_headers must be a string")
        self.state, self.stream_id, self.encoding, self.rate = "streaming", stream_id, encoding, rate
        if encoding == "audio/x-mulaw":
            self._frames = OutboundFrames(rate // 50, self._media_frame, silence=mulaw_encode(np.zeros(1, np.int16)))
        else:
            self._frames = OutboundFrames(rate // 50 * 2, self._media_frame, silence=b"\x00")
        return CallStarted(call_id=call_id if isinstance(call_id, str) and call_id else stream_id,
                           parameters=dict(EXTRA_HEADER.findall(extra)), rate=rate)

    # --- us -> Plivo

    def play(self, pcm16: bytes) -> None:
        """Queue reply audio (PCM16 at the call's rate) as 20 ms playAudio frames."""
        self._frames.audio(mulaw_encode(np.frombuffer(pcm16, dtype="<i2")) if self.encoding == "audio/x-mulaw"
                           else pcm16)

    def mark(self, name: str) -> None:
        self._frames.pad()
        self.pending_marks.append(name)
        self._frames.control(json.dumps({"event": "checkpoint", "streamId": self.stream_id, "name": name}))

    def clear(self) -> list[Outbound]:
        """Barge-in: drop what is not sent yet and have Plivo drop what it holds (its checkpoints never play)."""
        self._frames.clear()
        self.pending_marks.clear()
        return [Outbound(json.dumps({"event": "clearAudio", "streamId": self.stream_id}), audio=False)]

    def pop_outbound(self) -> Outbound | None:
        return self._frames.pop() if self._frames is not None else None

    def _media_frame(self, audio: bytes) -> str:
        return json.dumps({"event": "playAudio", "media": {
            "contentType": self.encoding, "sampleRate": self.rate, "payload": base64.b64encode(audio).decode()}})


# --- the door -------------------------------------------------------------------------------------

def signature_v3(auth_token: str, url: str, nonce: str) -> str:
    """X-Plivo-Signature-V3 of a GET: the URL with its query sorted by name then value, '.', the nonce."""
    parts = urlsplit(url)
    query = "&".join(f"{name}={value}" for name, value in sorted(parse_qsl(parts.query, keep_blank_values=True)))
    base = f"{parts.scheme}://{parts.netloc}{parts.path}" + (f"?{query}" if query else "")
    digest = hmac.new(auth_token.encode(), f"{base}.{nonce}".encode(), hashlib.sha256).digest()
    return base64.b64encode(digest).decode()


def signed_by_plivo(request: web.Request, auth_token: str) -> bool:
    expected = signature_v3(auth_token, stream_url(request), request.headers.get("X-Plivo-Signature-V3-Nonce", ""))
    given = request.headers.get("X-Plivo-Signature-V3", "")
    if any(hmac.compare_digest(candidate.strip().encode("utf-8", "surrogateescape"), expected.encode())
           for candidate in given.split(",")):
        return True
    log.warning("rejected a Plivo stream with a bad X-Plivo-Signature-V3")
    return False


async def stream_handler(request: web.Request) -> web.StreamResponse:
    """GET /plivo/stream: one Plivo call, bridged onto a Session until the stream closes."""
    token = request.app[PHONE_SETTINGS].plivo_auth_token
    return await serve_stream(request, "plivo", PlivoStream(), None if token is None else signed_by_plivo(request, token))


def add_arguments(parser) -> None:
    parser.add_argument("--plivo-auth-token", default=os.environ.get("PLIVO_AUTH_TOKEN"),
                        help="check X-Plivo-Signature-V3 on /plivo/stream (env PLIVO_AUTH_TOKEN)")


def setup(app: web.Application, ctx) -> None:
    calls.install(app, ctx)
    app.router.add_get("/plivo/stream", stream_handler)
