"""What the carriers' media-stream WebSockets share (Telnyx, Vonage, Plivo): reading their JSON frames, and
the I/O that runs one call through the call bridge (``calls.run_call``) once the upgrade is allowed.

Each carrier's serializer is a pure state machine: ``receive_text`` / ``receive_bytes`` turn a wire frame into
call events (``CallStarted``, ``CallerAudio``, ``CallerDigit``, ``MarkPlayed``, ``CallEnded``) or one
``StreamError``; ``play`` / ``mark`` / ``clear`` queue the reply, and ``pop_outbound`` hands the call bridge
one frame at a time to pace.
"""

from __future__ import annotations

import base64
import binascii
import json

from aiohttp import WSCloseCode, WSMsgType, web

from streaming.credentials import bearer
from streaming.store import StoreUnavailable
from streaming.transports.phone.calls import (PHONE_SERVER, PHONE_SETTINGS, CallEnded, StreamError, run_call,
                                              websocket_outbound)
from streaming.transports.phone.twilio import public_base, websocket_url

MAX_MESSAGE_BYTES = 64 * 1024          # a 20 ms frame is under 2 KiB of JSON or binary; anything near this is abuse
DTMF_DIGITS = frozenset("0123456789*#ABCD")


class Invalid(Exception):
    """A frame the stream cannot go on after; code is the WebSocket close code."""

    def __init__(self, message: str, code: int = WSCloseCode.PROTOCOL_ERROR):
        super().__init__(message)
        self.code = int(code)

    def error(self) -> StreamError:
        return StreamError(self.code, str(self))


def json_object(text: str, kind: str = "event") -> dict:
    """A carrier's JSON text frame: an object with a string `kind` ("event", or Vonage's "event"/"action")."""
    try:
        message = json.loads(text)
    except RecursionError:
        raise Invalid("malformed JSON: nested too deeply") from None
    except (ValueError, TypeError) as exc:
        raise Invalid(f"malformed JSON: {exc}") from None
    if not isinstance(message, dict) or not isinstance(message.get(kind), str):
        raise Invalid(f"malformed message: expected a JSON object with an '{kind}' string")
    return message


def field(message: dict, name: str, kind: type = dict):
    value = message.get(name)
    if not isinstance(value, kind):
        raise Invalid(f"'{message.get('event')}' without a '{name}' {kind.__name__}")
    return value


def base64_payload(media: dict) -> bytes:
    try:
        return base64.b64decode(media.get("payload", ""), validate=True)
    except (binascii.Error, TypeError, ValueError):
        raise Invalid("media payload is not base64") from None


def digit_of(value) -> str:
    if not isinstance(value, str) or value not in DTMF_DIGITS:
        raise Invalid(f"bad DTMF digit {value!r}")
    return value


def parley_token(request: web.Request) -> str | None:
    """Parley's own credential on a carrier's upgrade: a Bearer API key, or a client secret in the stream URL
    (`?client_secret=ek_...`; carriers set no headers, and an API key in a URL would end up in proxy logs)."""
    token = bearer(request)
    if token:
        return token
    secret = request.query.get("client_secret")
    return secret if secret and secret.startswith("ek_") else None


async def serve_stream(request: web.Request, transport: str, protocol, signed: bool | None) -> web.StreamResponse:
    """One carrier call on this WebSocket. signed: None when the carrier's own check is not configured (then
    Parley's API key or a client secret is asked for, if one is configured); else whether it passed."""
    ctx = request.app[PHONE_SERVER]
    if signed is False:
        raise web.HTTPForbidden(text=f"invalid {transport} signature or token")
    token = parley_token(request) if signed is None else None
    keyed = signed is None and ctx.config.api_key is not None
    try:
        if keyed and (not ctx.authorized(token) or not await ctx.spend_everywhere(token)):
            raise web.HTTPUnauthorized(text="this server requires its API key (Bearer) or a client secret "
                                            "(?client_secret=) on the stream URL")
    except StoreUnavailable:
        raise web.HTTPServiceUnavailable(text="the state store does not answer; try again") from None
    if ctx.at_capacity:
        return ctx.session_limit_response()
    ws = web.WebSocketResponse(max_msg_size=MAX_MESSAGE_BYTES)
    await ws.prepare(request)

    async def inbound():
        async for message in ws:
            if message.type == WSMsgType.TEXT:
                events = protocol.receive_text(message.data)
            elif message.type == WSMsgType.BINARY:
                events = protocol.receive_bytes(message.data)
            elif message.type == WSMsgType.ERROR:
                events = [StreamError(int(WSCloseCode.MESSAGE_TOO_BIG), f"WebSocket error: {ws.exception()}")]
            else:
                continue
            for event in events:
                yield event
                if isinstance(event, (CallEnded, StreamError)):
                    return
        yield CallEnded("connection closed")

    send, close = websocket_outbound(ws)
    await run_call(request.app, transport, protocol, inbound(), send, close, open_door=not (signed or keyed))
    return ws


def stream_url(request: web.Request) -> str:
    """The URL the carrier signed: the public base (--public-url, else proxy headers) as ws(s)://, with this
    request's path and query."""
    return websocket_url(public_base(request, request.app[PHONE_SETTINGS])) + request.rel_url.path_qs
