"""Vonage Voice API WebSockets: a pure serializer plus the WebSocket door ``/vonage/stream``.

An NCCO ``connect`` action with ``endpoint: [{"type": "websocket", "uri": "wss://HOST/vonage/stream",
"content-type": "audio/l16;rate=16000", "headers": {...}}]`` makes Vonage open the WebSocket. Its first
message is JSON text naming the audio format (``content-type``) with the NCCO's headers (``event`` is
``websocket:connected`` on current platforms); then caller audio arrives as binary frames of 16-bit linear PCM
(640 bytes per 20 ms at 16 kHz, 320 at 8 kHz), with JSON text events ``websocket:dtmf``,
``websocket:notify`` and ``websocket:cleared``. We send binary 20 ms frames, ``{"action": "notify"}`` after
each reply segment (echoed once played) and ``{"action": "clear"}`` at barge-in. The call ends when the
socket closes.

The door: with ``--vonage-signature-secret``, the upgrade must carry ``Authorization: Bearer <JWT>`` signed
HS256 with that secret (Vonage's signed WebSockets), unexpired and issued in the last MAX_TOKEN_AGE_S.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import logging
import os
import re
import time
import uuid
from collections import deque

from aiohttp import WSCloseCode, web

from streaming.credentials import bearer
from streaming.logsafe import printable
from streaming.transports.phone import calls
from streaming.transports.phone.calls import (PHONE_SETTINGS, CallerAudio, CallerDigit, CallStarted, mark_played,
                                              Outbound, OutboundFrames)
from streaming.transports.phone.streams import Invalid, digit_of, json_object, serve_stream

log = logging.getLogger(__name__)

CONTENT_TYPE = re.compile(r"audio/l16;\s*rate=(8000|16000)")
MAX_TOKEN_AGE_S = 300                 # a signed upgrade older than this is a replay
CLOCK_SKEW_S = 60


class VonageStream:
    """One Vonage WebSocket call, without I/O."""

    def __init__(self) -> None:
        self.state = "connecting"              # connecting -> streaming -> failed
        self.rate = 16000
        self.pending_marks: deque[str] = deque()
        self._frames: OutboundFrames | None = None

    # --- Vonage -> us

    def receive_text(self, text: str) -> list:
        if self.state == "failed":
            return []
        try:
            message = json_object(text, kind="content-type") if self.state == "connecting" else json_object(text)
            return self._receive(message)
        except Invalid as exc:
            self.state = "failed"
            return [exc.error()]

    def receive_bytes(self, data: bytes) -> list:
        if self.state != "streaming":
            if self.state == "failed":
                return []
            self.state = "failed"
            return [Invalid("audio before the first (JSON text) message").error()]
        if len(data) % 2:
            self.state = "failed"
            return [Invalid("L16 audio frame of an odd number of bytes", WSCloseCode.UNSUPPORTED_DATA).error()]
        return [CallerAudio(data)] if data else []

    def _receive(self, message: dict) -> list:
        if self.state == "connecting":
            return [self._connected(message)]
        event = message["event"]
        if event == "websocket:dtmf":
            return [CallerDigit(digit_of(message.get("digit")))]
        if event == "websocket:notify":
            payload = message.get("payload")
            name = payload.get("mark") if isinstance(payload, dict) else None
            if not isinstance(name, str):
                raise Invalid("websocket:notify without our mark in its payload")
            return [mark_played(self.pending_marks, name)]
        if event == "websocket:cleared":
            return []
        log.info("ignoring unknown Vonage WebSocket event %r", printable(event))
        return []

    def _connected(self, message: dict) -> CallStarted:
        match = CONTENT_TYPE.fullmatch(message["content-type"].strip())
        if match is None:
            raise Invalid(f"unsupported content-type {message['content-type']!r}: expected audio/l16;rate=16000 "
                          "or audio/l16;rate=8000", WSCloseCode.UNSUPPORTED_DATA)
        self.state, self.rate = "streaming", int(match.group(1))
        self._frames = OutboundFrames(self.rate // 50 * 2, bytes, silence=b"\x00")
        headers = {name: value for name, value in message.items()
                   if name not in ("event", "content-type") and isinstance(value, str)}
        return CallStarted(call_id="vonage-" + uuid.uuid4().hex, parameters=headers, rate=self.rate)

    # --- us -> Vonage

    def play(self, pcm16: bytes) -> None:
        """Queue reply audio (PCM16 at the call's rate) as binary 20 ms frames."""
        self._frames.audio(pcm16)

    def mark(self, name: str) -> None:
        self._frames.pad()
        self.pending_marks.append(name)
        self._frames.control(json.dumps({"action": "notify", "payload": {"mark": name}}))

    def clear(self) -> list[Outbound]:
        """Barge-in: drop what is not sent yet and have Vonage drop what it holds (its notifies never come)."""
        self._frames.clear()
        self.pending_marks.clear()
        return [Outbound(json.dumps({"action": "clear"}), audio=False)]

    def pop_outbound(self) -> Outbound | None:
        return self._frames.pop() if self._frames is not None else None


# --- the door -------------------------------------------------------------------------------------

def _b64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def jwt_claims(token: str, secret: str, now: float | None = None) -> dict | None:
    """The claims of an HS256 JWT signed with secret, unexpired and recently issued; None otherwise."""
    try:
        header_b64, claims_b64, signature_b64 = token.split(".")
        header, claims = json.loads(_b64url(header_b64)), json.loads(_b64url(claims_b64))
        signature = _b64url(signature_b64)
    except (ValueError, binascii.Error, RecursionError):
        return None
    if not isinstance(header, dict) or header.get("alg") != "HS256" or not isinstance(claims, dict):
        return None
    expected = hmac.new(secret.encode(), f"{header_b64}.{claims_b64}".encode(), hashlib.sha256).digest()
    if not hmac.compare_digest(signature, expected):
        return None
    now = time.time() if now is None else now
    exp, iat = claims.get("exp"), claims.get("iat")
    if exp is not None and (not isinstance(exp, (int, float)) or exp < now - CLOCK_SKEW_S):
        return None
    if not isinstance(iat, (int, float)) or not now - MAX_TOKEN_AGE_S <= iat <= now + CLOCK_SKEW_S:
        return None
    return claims


def signed_by_vonage(request: web.Request, secret: str) -> bool:
    if jwt_claims(bearer(request) or "", secret) is not None:
        return True
    log.warning("rejected a Vonage WebSocket without a valid signed JWT")
    return False


async def stream_handler(request: web.Request) -> web.StreamResponse:
    """GET /vonage/stream: one Vonage call, bridged onto a Session until the socket closes."""
    secret = request.app[PHONE_SETTINGS].vonage_signature_secret
    return await serve_stream(request, "vonage", VonageStream(),
                              None if secret is None else signed_by_vonage(request, secret))


def add_arguments(parser) -> None:
    parser.add_argument("--vonage-signature-secret", default=os.environ.get("VONAGE_SIGNATURE_SECRET"),
                        help="/vonage/stream requires a JWT signed with this secret (Vonage's signed WebSockets; "
                             "env VONAGE_SIGNATURE_SECRET)")


def setup(app: web.Application, ctx) -> None:
    calls.install(app, ctx)
    app.router.add_get("/vonage/stream", stream_handler)
