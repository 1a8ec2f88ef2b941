"""Twilio Media Streams: a pure protocol state machine plus the aiohttp webhook and WebSocket around it.

A call reaches Parley in two steps. Twilio first POSTs the call to ``/twilio/voice``; the TwiML reply
connects the call to a bidirectional stream, ``<Connect><Stream url="wss://HOST/twilio/stream">``.
Twilio then opens that WebSocket and speaks Media Streams: JSON text frames ``connected``, ``start``,
``media`` (base64 μ-law, 8 kHz, about every 20 ms), ``dtmf``, ``mark`` (echo of a mark we sent, once the
audio queued before it has played) and ``stop``. We answer with ``media`` frames of 20 ms, a ``mark``
after each reply segment, and ``clear`` at barge-in so the caller stops hearing the old reply at once.

``MediaStream`` knows nothing of sockets or sessions: text frames in, call events out; reply audio in,
outbound frames out. ``voice_webhook`` and ``stream_handler`` are the thin I/O layer.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import logging
import os
from collections import deque
from typing import Callable
from xml.sax.saxutils import quoteattr

import numpy as np
from aiohttp import WSCloseCode, WSMsgType, web

from streaming.transports.phone import calls
from streaming.transports.phone.calls import (PHONE_SERVER, PHONE_SETTINGS, CallEnded, CallerAudio, CallerDigit, CallStarted, mark_played,
                             Outbound, OutboundFrames, PhoneSettings, StreamError, run_call)
from streaming.credentials import bearer_or_basic_password, same_secret
from streaming.logsafe import printable
from streaming.store import StoreUnavailable
from voice.audio import float_to_pcm16, mulaw_decode, mulaw_encode

log = logging.getLogger(__name__)

SAMPLE_RATE = 8000
FRAME_BYTES = 160                      # 20 ms of 8 kHz μ-law, one byte per sample
MULAW_SILENCE = mulaw_encode(np.zeros(1, dtype=np.int16))
MAX_MESSAGE_BYTES = 64 * 1024          # a media frame is ~400 bytes of JSON; anything near this is abuse
DTMF_DIGITS = frozenset("0123456789*#ABCD")
KEY_PARAMETER = "api_key"              # <Parameter name="api_key" value="..."/>: Media Streams URLs take no query
STREAM_SECRET_TTL_S = 60               # the client secret our TwiML hands the stream; Twilio connects at once
# Twilio's signatures carry no time, and the stream's covers only the URL: each call (CallSid) is answered
# once, and gets one stream, within this window; a captured signature opens at most one call per window
SIGNED_CALL_TTL_S = 24 * 3600


class MediaStream:
    """One Media Streams connection, without I/O.

    ``receive(text)`` turns a Twilio frame into call events (``CallStarted``, ``CallerAudio`` with PCM16
    at 8 kHz, ``CallerDigit``, ``MarkPlayed``, ``CallEnded``) or a single ``StreamError`` after which the
    connection must be closed. ``play``/``mark``/``clear`` queue the reply; ``pop_outbound`` hands the
    I/O layer one frame at a time so it can pace media in real time.
    """

    def __init__(self, authorize: Callable[[str], bool] | None = None) -> None:
        self.authorize = authorize             # set: `start` must carry the custom parameter api_key it accepts
        self.state = "connecting"              # connecting -> streaming -> stopped | failed
        self.stream_sid: str | None = None
        self.call_sid: str | None = None
        self.pending_marks: deque[str] = deque()   # sent, not yet echoed: audio still queued at Twilio
        self._frames = OutboundFrames(FRAME_BYTES, self._media_frame, silence=MULAW_SILENCE)

    # --- Twilio -> us --------------------------------------------------------------------------

    def receive(self, text: str) -> list:
        if self.state in ("stopped", "failed"):
            return []
        try:
            return self._receive(text)
        except _Invalid as exc:
            self.state = "failed"
            return [StreamError(exc.code, str(exc))]

    def _receive(self, text: str) -> list:
        try:
            message = json.loads(text)
        except RecursionError:
            raise _Invalid("malformed JSON: nested too deeply") from None
        except (ValueError, TypeError) as exc:
            raise _Invalid(f"malformed JSON: {exc}") from None
        if not isinstance(message, dict) or not isinstance(message.get("event"), str):
            raise _Invalid("malformed message: expected a JSON object with an 'event' string")
        event = message["event"]
        if event == "connected":
            return []
        if event == "start":
            return [self._start(message)]
        if event in ("media", "dtmf", "mark", "stop") and self.state != "streaming":
            raise _Invalid(f"'{event}' before 'start'")
        if event == "media":
            return self._media(message)
        if event == "dtmf":
            digit = _field(message, "dtmf", dict).get("digit")
            if not isinstance(digit, str) or digit not in DTMF_DIGITS:
                raise _Invalid(f"bad DTMF digit {digit!r}")
            return [CallerDigit(digit)]
        if event == "mark":
            name = _field(message, "mark", dict).get("name")
            if not isinstance(name, str):
                raise _Invalid("mark without a name")
            return [mark_played(self.pending_marks, name)]
        if event == "stop":
            self.state = "stopped"
            return [CallEnded("caller hung up")]
        log.info("ignoring unknown Media Streams event %r", event)   # Twilio may add events; not fatal
        return []

    def _start(self, message: dict) -> CallStarted:
        if self.state != "connecting":
            raise _Invalid("second 'start' on one stream")
        start = _field(message, "start", dict)
        media_format = start.get("mediaFormat") or {}
        encoding, rate = media_format.get("encoding"), media_format.get("sampleRate")
        channels = media_format.get("channels", 1)
        if encoding != "audio/x-mulaw" or rate != SAMPLE_RATE or channels != 1:
            raise _Invalid(f"unsupported media format {encoding!r} {rate!r} Hz {channels!r} channels: "
                           "expected audio/x-mulaw 8000 Hz mono", code=WSCloseCode.UNSUPPORTED_DATA)
        stream_sid = message.get("streamSid") or start.get("streamSid")
        if not isinstance(stream_sid, str) or not stream_sid:
            raise _Invalid("'start' without a streamSid")
        parameters = start.get("customParameters") or {}
        if not isinstance(parameters, dict) or not all(isinstance(v, str) for v in parameters.values()):
            raise _Invalid("customParameters must be an object of strings")
        parameters = dict(parameters)
        key = parameters.pop(KEY_PARAMETER, None)          # a credential: never logged, never the session's
        if self.authorize is not None and (key is None or not self.authorize(key)):
            raise _Invalid(f"this server requires its API key (or a client secret) as the stream's custom "
                           f"parameter {KEY_PARAMETER!r}", code=WSCloseCode.POLICY_VIOLATION)
        call_sid = start.get("callSid")
        self.state, self.stream_sid = "streaming", stream_sid
        self.call_sid = call_sid if isinstance(call_sid, str) and call_sid else None
        return CallStarted(call_id=self.call_sid or stream_sid, parameters=parameters,
                           credential=key if self.authorize is not None else None)

    def _media(self, message: dict) -> list:
        media = _field(message, "media", dict)
        if media.get("track", "inbound") != "inbound":
            return []
        try:
            mulaw = base64.b64decode(media.get("payload", ""), validate=True)
        except (binascii.Error, TypeError, ValueError):
            raise _Invalid("media payload is not base64") from None
        return [CallerAudio(float_to_pcm16(mulaw_decode(mulaw)))] if mulaw else []

    # --- us -> Twilio ----------------------------------------------------------------------------

    def play(self, pcm16: bytes) -> None:
        """Queue reply audio (PCM16, 8 kHz) as 20 ms μ-law media frames."""
        self._frames.audio(mulaw_encode(np.frombuffer(pcm16, dtype="<i2")))   # int16 straight in: no float round trip

    def mark(self, name: str) -> None:
        """Queue a mark behind the audio queued so far (its tail padded to a whole frame)."""
        self._frames.pad()
        self.pending_marks.append(name)
        self._frames.control(self._frame("mark", mark={"name": name}))

    def clear(self) -> list[Outbound]:
        """Barge-in: drop what we have not sent yet and tell Twilio to drop what it buffered."""
        self._frames.clear()
        return [Outbound(self._frame("clear"), audio=False)]

    def pop_outbound(self) -> Outbound | None:
        return self._frames.pop()

    def _media_frame(self, mulaw: bytes) -> str:
        return self._frame("media", media={"payload": base64.b64encode(mulaw).decode()})

    def _frame(self, event: str, **body) -> str:
        return json.dumps({"event": event, "streamSid": self.stream_sid, **body})


class _Invalid(Exception):
    def __init__(self, message: str, code: int = WSCloseCode.PROTOCOL_ERROR):
        super().__init__(message)
        self.code = int(code)


def _field(message: dict, name: str, kind: type):
    value = message.get(name)
    if not isinstance(value, kind):
        raise _Invalid(f"'{message['event']}' without a '{name}' object")
    return value


# --- webhook ------------------------------------------------------------------------------------

def twilio_signature(auth_token: str, url: str, params: dict[str, str]) -> str:
    """X-Twilio-Signature: base64 HMAC-SHA1 over the full URL followed by each POST param, sorted by name."""
    payload = url + "".join(name + params[name] for name in sorted(params))
    return base64.b64encode(hmac.new(auth_token.encode(), payload.encode(), hashlib.sha1).digest()).decode()


def public_base(request: web.Request, settings: PhoneSettings) -> str:
    """Where Twilio reaches us: the configured public URL, else what the proxy headers (or the socket) say."""
    if settings.public_url:
        return settings.public_url.rstrip("/")
    scheme = request.headers.get("X-Forwarded-Proto", request.scheme).split(",")[0].strip()
    host = request.headers.get("X-Forwarded-Host", request.host).split(",")[0].strip()
    return f"{scheme}://{host}"


def websocket_url(http_url: str) -> str:
    scheme, rest = http_url.split("://", 1)
    return ("wss" if scheme == "https" else "ws") + "://" + rest


def _url_variants(url: str) -> set[str]:
    """Twilio signs some URLs with the scheme's default port spelled out and some without: accept both."""
    scheme, rest = url.split("://", 1)
    host, slash, path = rest.partition("/")
    default = {"https": "443", "wss": "443", "http": "80", "ws": "80"}[scheme]
    bare = host.removesuffix(":" + default)
    if ":" in bare.rsplit("]", 1)[-1]:          # some other port: only one spelling
        return {url}
    return {url, f"{scheme}://{bare}{slash}{path}", f"{scheme}://{bare}:{default}{slash}{path}"}


def signed_by_twilio(request: web.Request, url: str, params: dict[str, str]) -> bool:
    """True when no auth token is configured, or X-Twilio-Signature matches `url` and `params`."""
    token = request.app[PHONE_SETTINGS].twilio_auth_token
    if not token:
        return True
    given = request.headers.get("X-Twilio-Signature", "").encode("utf-8", "surrogateescape")   # may be non-ASCII
    if any(hmac.compare_digest(given, twilio_signature(token, candidate, params).encode())
           for candidate in _url_variants(url)):
        return True
    log.warning("rejected a request with a bad X-Twilio-Signature for %s", printable(url))
    return False


def _api_key(request: web.Request) -> str | None:
    """The server's API key; None when none is configured (or no server context: the webhook alone)."""
    ctx = request.app.get(PHONE_SERVER)
    return ctx.config.api_key if ctx is not None else None


def webhook_allowed(request: web.Request, url: str, params: dict[str, str]) -> bool:
    """Twilio's signature when an auth token is set; else the API key when one is set; else anyone."""
    if request.app[PHONE_SETTINGS].twilio_auth_token:
        return signed_by_twilio(request, url, params)
    key = _api_key(request)
    return key is None or same_secret(bearer_or_basic_password(request), key)


async def voice_webhook(request: web.Request) -> web.Response:
    """POST /twilio/voice: answer the call with TwiML that connects it to our Media Streams WebSocket."""
    params = {k: v for k, v in (await request.post()).items() if isinstance(v, str)}
    base = public_base(request, request.app[PHONE_SETTINGS])
    if not webhook_allowed(request, base + request.rel_url.path_qs, params):
        raise web.HTTPForbidden(text="invalid X-Twilio-Signature or API key")
    ctx = request.app.get(PHONE_SERVER)
    if request.app[PHONE_SETTINGS].twilio_auth_token and ctx is not None:
        try:
            if not await ctx.first_use("twilio-webhook:" + params.get("CallSid", ""), SIGNED_CALL_TTL_S):
                log.warning("rejected a replayed webhook for call %s", printable(params.get("CallSid", "")))
                raise web.HTTPForbidden(text="this call was answered already")
        except StoreUnavailable:
            raise web.HTTPServiceUnavailable(text="the state store does not answer; try again") from None
    handed_on = {name: params[name] for name in CALLER_PARAMETERS if params.get(name)}
    if not request.app[PHONE_SETTINGS].twilio_auth_token and _api_key(request) is not None:
        # the stream is not signed either: it proves itself with a single-use secret this TwiML carries
        handed_on[KEY_PARAMETER] = request.app[PHONE_SERVER].mint_client_secret(STREAM_SECRET_TTL_S)[0]
    caller = "".join(f"<Parameter name={quoteattr(name)} value={quoteattr(value)}/>"
                     for name, value in handed_on.items())
    twiml = ('<?xml version="1.0" encoding="UTF-8"?><Response><Connect>'
             f'<Stream url={quoteattr(websocket_url(base) + "/twilio/stream")}>{caller}</Stream>'
             '</Connect></Response>')
    return web.Response(text=twiml, content_type="text/xml")


CALLER_PARAMETERS = ("From", "To", "CallerName")   # webhook fields handed on to the stream's customParameters


# --- stream -------------------------------------------------------------------------------------

async def stream_handler(request: web.Request) -> web.WebSocketResponse:
    """GET /twilio/stream: one Media Streams call, bridged onto a Session until stop or hang-up."""
    url = websocket_url(public_base(request, request.app[PHONE_SETTINGS])) + request.rel_url.path_qs
    if not signed_by_twilio(request, url, {}):             # Twilio signs the WebSocket handshake too
        raise web.HTTPForbidden(text="invalid X-Twilio-Signature")
    ctx = request.app[PHONE_SERVER]
    if ctx.at_capacity:
        return ctx.session_limit_response()
    signed = bool(request.app[PHONE_SETTINGS].twilio_auth_token)
    keyed = not signed and ctx.config.api_key is not None     # the stream proves itself with the TwiML's secret
    ws = web.WebSocketResponse(max_msg_size=MAX_MESSAGE_BYTES)
    await ws.prepare(request)
    stream = MediaStream(authorize=ctx.authorized if keyed else None)

    async def refusal(started: CallStarted) -> StreamError | None:
        """The stream's proof is used once on every gateway sharing the store: the TwiML's client secret, or
        (signed by Twilio) the call a signed webhook answered."""
        try:
            if not await ctx.spend_everywhere(started.credential):
                return StreamError(int(WSCloseCode.POLICY_VIOLATION), "this stream's client secret was already used")
            if signed and not (await ctx.used("twilio-webhook:" + started.call_id)
                               and await ctx.first_use("twilio-stream:" + started.call_id, SIGNED_CALL_TTL_S)):
                return StreamError(int(WSCloseCode.POLICY_VIOLATION),
                                   "no signed webhook answered this call, or it has had its stream")
        except StoreUnavailable:
            return StreamError(int(WSCloseCode.TRY_AGAIN_LATER), "the state store does not answer; try again")
        return None

    async def inbound():
        async for message in ws:
            if message.type == WSMsgType.TEXT:
                for event in stream.receive(message.data):
                    if isinstance(event, CallStarted) and (refused := await refusal(event)) is not None:
                        stream.state = "failed"
                        event = refused
                    yield event
            elif message.type == WSMsgType.BINARY:
                stream.state = "failed"
                yield StreamError(int(WSCloseCode.UNSUPPORTED_DATA), "binary frame: Media Streams sends JSON text")
            elif message.type == WSMsgType.ERROR:
                yield StreamError(int(WSCloseCode.MESSAGE_TOO_BIG), f"WebSocket error: {ws.exception()}")
            if stream.state in ("stopped", "failed"):
                return
        yield CallEnded("connection closed")

    send, close = calls.websocket_outbound(ws)
    await run_call(request.app, "twilio", stream, inbound(), send, close, open_door=not (signed or keyed))
    return ws


def add_arguments(parser) -> None:
    parser.add_argument("--phone-greeting", default=os.environ.get("PARLEY_PHONE_GREETING", calls.DEFAULT_GREETING),
                        help="what Parley says when it answers a phone call (Twilio, Asterisk); '' for nothing")
    parser.add_argument("--twilio-auth-token", default=os.environ.get("TWILIO_AUTH_TOKEN"),
                        help="check X-Twilio-Signature on /twilio/voice (env TWILIO_AUTH_TOKEN)")
    parser.add_argument("--public-url", default=os.environ.get("PARLEY_PUBLIC_URL"),
                        help="the https:// base URL Twilio reaches this server at (a proxy or tunnel); "
                             "default: from the request's Host and X-Forwarded-* headers")


def setup(app: web.Application, ctx) -> None:
    calls.install(app, ctx)
    add_routes(app)


def add_routes(app: web.Application) -> None:
    app.router.add_post("/twilio/voice", voice_webhook)
    app.router.add_get("/twilio/stream", stream_handler)
