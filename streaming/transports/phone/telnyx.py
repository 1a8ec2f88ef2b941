"""Telnyx media streaming: a pure serializer plus the WebSocket door ``/telnyx/stream``.

Call Control (``answer`` or ``streaming_start`` with ``stream_url=wss://HOST/telnyx/stream``,
``stream_bidirectional_mode=rtp``, ``stream_bidirectional_codec=PCMU``) or TeXML ``<Stream>`` makes Telnyx
open the WebSocket. Telnyx sends JSON text frames ``connected``, ``start`` (``stream_id``,
``start.call_control_id``, ``start.media_format``), ``media`` (base64 PCMU, 8 kHz, the RTP payload without
header), ``dtmf``, ``mark`` (echo of ours once the audio before it has played), ``error`` and ``stop``; we send
``media``, ``mark`` after each reply segment, and ``clear`` at barge-in.

A TeXML application can point its voice URL at ``POST /telnyx/texml``: the answer connects the call to that
stream. With ``--telnyx-public-key`` the webhook must carry Telnyx's Ed25519 signature
(``telnyx-signature-ed25519`` over ``{telnyx-timestamp}|{body}``, at most WEBHOOK_TOLERANCE_S old); without
it, the API key or else the stream token (Bearer, or the password of ``https://parley:SECRET@host/telnyx/texml``)
whenever one is configured.

The stream door: with ``--telnyx-stream-token`` (the ``stream_auth_token`` of a streaming command), the upgrade
must carry that token, as a Bearer Authorization header or as ``token`` in the stream URL's query; the TeXML
answer puts it there. Without one but with ``--api-key``, the TeXML answer's stream URL carries a single-use
client secret instead.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import os
import time
from collections import deque
from urllib.parse import urlencode
from xml.sax.saxutils import quoteattr

import numpy as np
from aiohttp import WSCloseCode, web
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from streaming.credentials import bearer, bearer_or_basic_password, same_secret
from streaming.transports.phone import calls
from streaming.transports.phone.calls import (PHONE_SERVER, PHONE_SETTINGS, CallEnded, CallerAudio, CallerDigit, CallStarted,
                                              mark_played, Outbound, OutboundFrames)
from streaming.transports.phone.streams import Invalid, base64_payload, digit_of, field, json_object, serve_stream
from streaming.transports.phone.twilio import public_base, websocket_url
from streaming.logsafe import printable
from voice.audio import float_to_pcm16, mulaw_decode, mulaw_encode

log = logging.getLogger(__name__)

SAMPLE_RATE = 8000
FRAME_BYTES = 160                      # 20 ms of PCMU
PCMU_SILENCE = mulaw_encode(np.zeros(1, dtype=np.int16))
CALLER_FIELDS = ("from", "to")         # start fields handed on as the call's parameters
WEBHOOK_TOLERANCE_S = 300              # an older signed webhook is a replay
STREAM_SECRET_TTL_S = 60               # the client secret a TeXML answer hands the stream; Telnyx connects at once


class TelnyxStream:
    """One Telnyx media stream, without I/O."""

    def __init__(self) -> None:
        self.state = "connecting"              # connecting -> streaming -> stopped | failed
        self.stream_id: str | None = None
        self.pending_marks: deque[str] = deque()
        self._frames = OutboundFrames(FRAME_BYTES, self._media_frame, silence=PCMU_SILENCE)

    # --- Telnyx -> us

    def receive_text(self, text: str) -> list:
        if self.state in ("stopped", "failed"):
            return []
        try:
            return self._receive(json_object(text))
        except Invalid as exc:
            self.state = "failed"
            return [exc.error()]

    def receive_bytes(self, data: bytes) -> list:
        if self.state in ("stopped", "failed"):
            return []
        self.state = "failed"
        return [Invalid("binary frame: Telnyx media streaming sends JSON text", WSCloseCode.UNSUPPORTED_DATA).error()]

    def _receive(self, message: dict) -> list:
        event = message["event"]
        if event == "connected":
            return []
        if event == "start":
            return [self._start(message)]
        if event in ("media", "dtmf", "mark", "stop") and self.state != "streaming":
            raise Invalid(f"'{event}' before 'start'")
        if event == "media":
            media = field(message, "media")
            if media.get("track", "inbound") != "inbound":
                return []
            pcmu = base64_payload(media)
            return [CallerAudio(float_to_pcm16(mulaw_decode(pcmu)))] if pcmu else []
        if event == "dtmf":
            return [CallerDigit(digit_of(field(message, "dtmf").get("digit")))]
        if event == "mark":
            name = field(message, "mark").get("name")
            if not isinstance(name, str):
                raise Invalid("mark without a name")
            return [mark_played(self.pending_marks, name)]
        if event == "stop":
            self.state = "stopped"
            return [CallEnded("caller hung up")]
        if event == "error":                    # about a frame we sent; the stream goes on
            log.warning("Telnyx stream %s reports an error: %s", printable(self.stream_id or "?"),
                        printable(str(message.get("payload"))[:200]))
            return []
        log.info("ignoring unknown Telnyx stream event %r", printable(event))
        return []

    def _start(self, message: dict) -> CallStarted:
        if self.state != "connecting":
            raise Invalid("second 'start' on one stream")
        start = field(message, "start")
        media_format = start.get("media_format") or {}
        encoding, rate = media_format.get("encoding"), media_format.get("sample_rate")
        channels = media_format.get("channels", 1)
        if encoding != "PCMU" or rate != SAMPLE_RATE or channels != 1:
            raise Invalid(f"unsupported media format {encoding!r} {rate!r} Hz {channels!r} channels: expected "
                          "PCMU 8000 Hz mono (stream_bidirectional_codec=PCMU)", WSCloseCode.UNSUPPORTED_DATA)
        stream_id = message.get("stream_id")
        if not isinstance(stream_id, str) or not stream_id:
            raise Invalid("'start' without a stream_id")
        call_id = start.get("call_control_id")
        self.state, self.stream_id = "streaming", stream_id
        parameters = {name: start[name] for name in CALLER_FIELDS if isinstance(start.get(name), str)}
        return CallStarted(call_id=call_id if isinstance(call_id, str) and call_id else stream_id,
                           parameters=parameters)

    # --- us -> Telnyx

    def play(self, pcm16: bytes) -> None:
        """Queue reply audio (PCM16, 8 kHz) as 20 ms PCMU media frames."""
        self._frames.audio(mulaw_encode(np.frombuffer(pcm16, dtype="<i2")))

    def mark(self, name: str) -> None:
        self._frames.pad()
        self.pending_marks.append(name)
        self._frames.control(_json({"event": "mark", "mark": {"name": name}}))

    def clear(self) -> list[Outbound]:
        """Barge-in: drop what is not sent yet, and have Telnyx drop what it holds (marks behind it included)."""
        self._frames.clear()
        self.pending_marks.clear()
        return [Outbound(_json({"event": "clear"}), audio=False)]

    def pop_outbound(self) -> Outbound | None:
        return self._frames.pop()

    @staticmethod
    def _media_frame(pcmu: bytes) -> str:
        return _json({"event": "media", "media": {"payload": base64.b64encode(pcmu).decode()}})


def _json(message: dict) -> str:
    return json.dumps(message)


# --- the doors ------------------------------------------------------------------------------------

def signed_by_telnyx(public_key: str, signature: str, timestamp: str, body: bytes, now: float | None = None) -> bool:
    """telnyx-signature-ed25519 (base64) over `timestamp|body`, by the account's public key (base64), recent."""
    try:
        key = Ed25519PublicKey.from_public_bytes(base64.b64decode(public_key, validate=True))
        key.verify(base64.b64decode(signature, validate=True), timestamp.encode() + b"|" + body)
        age = (time.time() if now is None else now) - int(timestamp)
    except (InvalidSignature, binascii.Error, ValueError):
        return False
    return abs(age) <= WEBHOOK_TOLERANCE_S


async def texml_webhook(request: web.Request) -> web.Response:
    """POST /telnyx/texml: answer a TeXML call with a bidirectional PCMU stream to /telnyx/stream."""
    settings, ctx = request.app[PHONE_SETTINGS], request.app[PHONE_SERVER]
    body = await request.read()
    if settings.telnyx_public_key:
        if not signed_by_telnyx(settings.telnyx_public_key, request.headers.get("telnyx-signature-ed25519", ""),
                                request.headers.get("telnyx-timestamp", ""), body):
            log.warning("rejected a TeXML webhook with a bad telnyx-signature-ed25519")
            raise web.HTTPForbidden(text="invalid telnyx-signature-ed25519")
    else:       # the answer hands on a credential: whoever asks for it must hold one
        secret = ctx.config.api_key or settings.telnyx_stream_token
        if secret is not None and not same_secret(bearer_or_basic_password(request), secret):
            raise web.HTTPForbidden(text="invalid telnyx-signature-ed25519, API key or stream token")
    query = {}
    if settings.telnyx_stream_token:
        query["token"] = settings.telnyx_stream_token
    elif ctx.config.api_key is not None:
        query["client_secret"] = ctx.mint_client_secret(STREAM_SECRET_TTL_S)[0]
    url = websocket_url(public_base(request, settings)) + "/telnyx/stream" + ("?" + urlencode(query) if query else "")
    texml = ('<?xml version="1.0" encoding="UTF-8"?><Response><Connect>'
             f'<Stream url={quoteattr(url)} bidirectionalMode="rtp" bidirectionalCodec="PCMU"/>'
             '</Connect></Response>')
    return web.Response(text=texml, content_type="text/xml")


def token_given(request: web.Request, token: str) -> bool:
    given = bearer(request) or request.query.get("token", "")
    if same_secret(given, token):
        return True
    log.warning("rejected a Telnyx stream without its stream token")
    return False


async def stream_handler(request: web.Request) -> web.StreamResponse:
    """GET /telnyx/stream: one Telnyx call, bridged onto a Session until stop or hang-up."""
    token = request.app[PHONE_SETTINGS].telnyx_stream_token
    return await serve_stream(request, "telnyx", TelnyxStream(), None if token is None else token_given(request, token))


def add_arguments(parser) -> None:
    parser.add_argument("--telnyx-public-key", default=os.environ.get("TELNYX_PUBLIC_KEY"),
                        help="the account's Ed25519 public key (base64, Mission Control → Keys & Credentials): "
                             "/telnyx/texml checks telnyx-signature-ed25519 (env TELNYX_PUBLIC_KEY)")
    parser.add_argument("--telnyx-stream-token", default=os.environ.get("TELNYX_STREAM_TOKEN"),
                        help="the stream_auth_token given to Telnyx's streaming command: /telnyx/stream requires it "
                             "(env TELNYX_STREAM_TOKEN)")


def setup(app: web.Application, ctx) -> None:
    calls.install(app, ctx)
    app.router.add_post("/telnyx/texml", texml_webhook)
    app.router.add_get("/telnyx/stream", stream_handler)
