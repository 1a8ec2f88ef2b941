"""`parley serve`: the aiohttp server. Realtime WebSocket at /v1/realtime, /healthz, /metrics, the web page
at /, and the phone/device transports, which plug in through `setup(app, ctx)` (see TRANSPORTS).

This is only I/O: frames go through streaming.transports.realtime (protocol) and streaming.session (conversation).
"""
from __future__ import annotations

import asyncio
import hmac
import importlib
import importlib.util
import secrets
import sys
import time
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from aiohttp import WSMsgType, web

from streaming.transports import realtime
from streaming.config import ServerConfig, build_parser, from_args
from streaming.engines import Engines
from streaming.events import EndCall
from streaming.metrics import CONTENT_TYPE, Metrics
from streaming.session import Session, SessionConfig

if TYPE_CHECKING:
    from assistant.home import Home

# Transport modules: each may define `setup(app, ctx)` (add routes; start background servers with
# app.cleanup_ctx) and `add_arguments(parser)` (its CLI flags, read back from ctx.config.options).
TRANSPORTS = ("streaming.transports.phone.twilio", "streaming.transports.phone.audiosocket", "streaming.transports.mqtt.satellite", "streaming.transports.wyoming")

SUBPROTOCOL_KEY = "openai-insecure-api-key."


@dataclass
class ServerContext:
    """What a transport needs from the server: sessions wired to the shared engines, limits and metrics."""
    config: ServerConfig
    engines: Engines
    metrics: Metrics
    home: "Home | None" = None          # the house the assistant's tools act on; None: an in-memory one per session
    sessions: set[Session] = field(default_factory=set)
    sockets: weakref.WeakSet = field(default_factory=weakref.WeakSet)   # open WebSockets, closed at shutdown
    client_secrets: dict[str, float] = field(default_factory=dict)   # token -> expiry (unix time)

    def new_session(self, config: SessionConfig | None = None, *, transport: str, tools=None) -> Session:
        """A Session (not started yet) that the server tracks until it closes."""
        if tools is None and self.engines.generator is not None:
            from assistant.tools import ToolRunner
            tools = ToolRunner(home=self.home)
        session = Session(self.engines, config or self.config.session_defaults(), tools,
                          limits=self.config.limits, metrics=self.metrics, transport=transport)
        self.sessions.add(session)
        return session

    async def end_session(self, session: Session) -> None:
        await session.close()
        self.sessions.discard(session)

    def authorized(self, token: str | None) -> bool:
        if self.config.api_key is None:
            return True
        if not token:
            return False
        if _same_secret(token, self.config.api_key):
            return True
        expiry = self.client_secrets.get(token)
        return expiry is not None and expiry > time.time()


CTX = web.AppKey("parley", ServerContext)


def _same_secret(given: str, secret: str) -> bool:
    """Constant-time comparison that takes any header text: aiohttp decodes invalid UTF-8 as surrogates."""
    return hmac.compare_digest(given.encode("utf-8", "surrogateescape"), secret.encode())


def _transport_modules():
    for name in TRANSPORTS:
        if importlib.util.find_spec(name) is not None:
            yield importlib.import_module(name)


def create_app(config: ServerConfig, engines: Engines, metrics: Metrics | None = None) -> web.Application:
    app = web.Application()
    ctx = ServerContext(config, engines, metrics or Metrics())
    app[CTX] = ctx
    app.router.add_get("/v1/realtime", realtime_socket)
    app.router.add_post("/v1/realtime/client_secrets", client_secret)
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/metrics", metrics_page)
    for module in _transport_modules():
        setup = getattr(module, "setup", None)
        if setup is not None:
            setup(app, ctx)
    if (config.web_dir / "index.html").exists():
        async def index(request: web.Request) -> web.FileResponse:
            return web.FileResponse(config.web_dir / "index.html")
        app.router.add_get("/", index)
        app.router.add_static("/", config.web_dir)
    app.on_shutdown.append(_close_sessions)
    return app


async def _close_sessions(app: web.Application) -> None:
    """Shutdown: tell clients we are going away (1001) so they reconnect, and end every session."""
    ctx = app[CTX]
    await asyncio.gather(*(ws.close(code=1001, message=b"server shutdown") for ws in list(ctx.sockets)),
                         return_exceptions=True)
    await asyncio.gather(*(ctx.end_session(s) for s in list(ctx.sessions)), return_exceptions=True)


def _bearer(request: web.Request) -> str | None:
    header = request.headers.get("Authorization", "")
    return header[7:].strip() if header.lower().startswith("bearer ") else None


def _request_token(request: web.Request) -> str | None:
    """API key or client secret: Bearer header, `openai-insecure-api-key.` subprotocol, or query parameter."""
    token = _bearer(request)
    if token:
        return token
    for protocol in request.headers.get("Sec-WebSocket-Protocol", "").split(","):
        protocol = protocol.strip()
        if protocol.startswith(SUBPROTOCOL_KEY):
            return protocol[len(SUBPROTOCOL_KEY):]
    return request.query.get("client_secret") or request.query.get("api_key")


def _unauthorized() -> web.Response:
    return web.json_response({"error": {"type": "invalid_request_error", "code": "invalid_api_key",
                                        "message": "missing or invalid API key / client secret"}}, status=401)


async def realtime_socket(request: web.Request) -> web.StreamResponse:
    ctx = request.app[CTX]
    if not ctx.authorized(_request_token(request)):
        return _unauthorized()
    ws = web.WebSocketResponse(protocols=("realtime",), max_msg_size=4 * ctx.config.max_message_bytes,
                               heartbeat=30)
    await ws.prepare(request)
    ctx.sockets.add(ws)
    session = ctx.new_session(transport="realtime")
    protocol = realtime.RealtimeProtocol(
        session_id=session.id, model=request.query.get("model") or ctx.config.model, defaults=session.config,
        max_message_bytes=ctx.config.max_message_bytes,
        beta=request.headers.get("OpenAI-Beta", "").startswith("realtime=v1"),
        on_client_error=ctx.metrics.client_error)

    async def flush() -> None:
        for frame in protocol.data_to_send():
            if ws.closed:
                return
            await ws.send_str(frame)

    async def forward_events() -> None:
        async for event in session.events():
            protocol.handle(event)
            await flush()
            if isinstance(event, EndCall):
                await ws.close(code=1000, message=event.reason.encode())
                return

    await session.start()
    protocol.start()
    await flush()
    writer = asyncio.create_task(forward_events(), name=f"{session.id}:writer")
    try:
        async for message in ws:
            if message.type in (WSMsgType.TEXT, WSMsgType.BINARY):
                for command in protocol.receive(message.data):
                    realtime.apply(session, command)
                await flush()
            elif message.type == WSMsgType.ERROR:
                break
    except (ConnectionResetError, asyncio.CancelledError):
        pass
    finally:
        await ctx.end_session(session)
        writer.cancel()
        await asyncio.gather(writer, return_exceptions=True)
    return ws


async def client_secret(request: web.Request) -> web.Response:
    """Mint a short-lived token a browser may use in place of the API key (OpenAI's client_secrets)."""
    ctx = request.app[CTX]
    key = ctx.config.api_key
    if key is not None and not _same_secret(_bearer(request) or "", key):
        return _unauthorized()
    try:
        body = await request.json() if request.can_read_body else {}
    except (ValueError, RecursionError):      # also a 5,000-digit number or deep nesting
        return web.json_response({"error": {"type": "invalid_request_error", "code": "invalid_json",
                                            "message": "the body is not valid JSON"}}, status=400)
    seconds = ctx.config.client_secret_ttl_s
    expires = body.get("expires_after") if isinstance(body, dict) else None
    if isinstance(expires, dict) and isinstance(expires.get("seconds"), int):
        seconds = max(10, min(expires["seconds"], 7200))
    now = time.time()
    for token, expiry in list(ctx.client_secrets.items()):
        if expiry <= now:
            del ctx.client_secrets[token]
    token = "ek_" + secrets.token_urlsafe(24)
    ctx.client_secrets[token] = now + seconds
    return web.json_response({"value": token, "expires_at": int(now + seconds),
                              "session": {"type": "realtime", "model": ctx.config.model}})


async def healthz(request: web.Request) -> web.Response:
    ctx = request.app[CTX]
    return web.json_response({"status": "ok", "sessions": len(ctx.sessions),
                              "assistant": ctx.engines.generator is not None})


async def metrics_page(request: web.Request) -> web.Response:
    response = web.Response(body=request.app[CTX].metrics.render())
    response.content_type = CONTENT_TYPE.split(";")[0]
    return response


def parse_config(argv: list[str]) -> ServerConfig:
    parser = build_parser()
    for module in _transport_modules():
        add_arguments = getattr(module, "add_arguments", None)
        if add_arguments is not None:
            add_arguments(parser)
    return from_args(parser.parse_args(argv))


async def serve(config: ServerConfig, engines: Engines) -> None:
    runner = web.AppRunner(create_app(config, engines))
    await runner.setup()
    site = web.TCPSite(runner, config.host, config.port)
    await site.start()
    port = runner.addresses[0][1]
    print(f"Parley is listening on http://{config.host}:{port}/  "
          f"(OpenAI Realtime: ws://{config.host}:{port}/v1/realtime)", flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()


def main(argv: list[str] | None = None) -> int:
    config = parse_config(list(sys.argv[1:] if argv is None else argv))
    print("Loading models (Whisper tiny.en, Piper joe-medium, Silero VAD, Parley assistant)...", flush=True)
    engines = Engines.load_default(checkpoint_dir=config.checkpoint)
    try:
        asyncio.run(serve(config, engines))
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
