"""`parley serve`: the aiohttp server. Realtime WebSocket at /v1/realtime, /healthz, /metrics, the web page
at /, and the phone/device transports, which plug in through `setup(app, ctx)` (see TRANSPORTS).

This is only I/O: frames go through streaming.transports.realtime (protocol) and streaming.session (conversation).
"""
from __future__ import annotations

import asyncio
import collections
import hashlib
import hmac
import importlib
import importlib.util
import ipaddress
import logging
import os
import re
import secrets
import signal
import sys
import time
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NoReturn
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web

from assistant.http_limits import BoundedRunner
from streaming.transports import realtime
from streaming.transports.realtime_link import RealtimeLink
from streaming import client_json
from streaming.config import ServerConfig, build_parser, from_args
from streaming.credentials import bearer, same_secret
from streaming.engines import Engines
from streaming.logsafe import limit_accept_errors
from streaming.gateway import HANDOVER_S, Gateway, StillSaving
from streaming.metrics import CONTENT_TYPE, Metrics
from streaming.session import Session, SessionConfig, SessionLimitReached, new_id
from streaming.store import STORE_TIMEOUT_S, StoreUnavailable, ask, open_store
from streaming.supervisor import Supervisor

if TYPE_CHECKING:
    from assistant.home import Home

# Transport modules: each may define `setup(app, ctx)` (add routes; start background servers with
# app.cleanup_ctx) and `add_arguments(parser)` (its CLI flags, read back from ctx.config.options).
TRANSPORTS = ("streaming.transports.phone.twilio", "streaming.transports.phone.telnyx", "streaming.transports.phone.vonage",
              "streaming.transports.phone.plivo", "streaming.transports.phone.audiosocket",
              "streaming.transports.mqtt.satellite", "streaming.transports.wyoming",
              "streaming.transports.webrtc")

SUBPROTOCOL_KEY = "openai-insecure-api-key."
RETRY_AFTER_S = 10              # what a client refused with session_limit is told to wait
SEND_TIMEOUT_S = 10.0           # a client whose socket takes no more bytes for this long is dropped
MAX_CLIENT_SECRET_TTL_S = 600
MAX_SPENT_SECRETS = 10_000         # client secrets used on this gateway and not yet expired; beyond it, refuse
SHUTDOWN_MARGIN_S = 1.0        # a SIGTERM's goodbyes to the broker end this long after the drain's deadline, at most
STORE_RETRY_AFTER_S = 5         # what a client refused during a state store outage is told to wait
# A JSON body that carries a session config (a client secret's, a WebRTC call's `session`): 16,000 characters of
# instructions and 64 KiB of tool declarations (their own bounds) take at most 130 KB in UTF-8; a larger config can
# follow in session.update (4 MiB). Its values: session.update's bound, so a config accepted there is accepted here.
MAX_CONFIG_BYTES = 256 * 1024
MAX_CONFIG_VALUES = realtime.MAX_MESSAGE_VALUES
SESSION_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
ANONYMOUS = "anonymous"


@dataclass(frozen=True)
class ClientSecret:
    """A verified client secret: single-use (nonce), short-lived, and possibly minted to resume one session."""
    nonce: str
    expiry: float                       # unix time
    session_id: str | None = None       # the session it may resume; None: it resumes none


@dataclass
class ServerContext:
    """What a transport needs from the server: sessions wired to the shared engines, limits and metrics."""
    config: ServerConfig
    engines: Engines
    metrics: Metrics
    home: "Home | None" = None          # the house the assistant's tools act on; None: an in-memory one per session
    sessions: set[Session] = field(default_factory=set)
    open_door_sessions: set[Session] = field(default_factory=set)   # opened by a door that takes no credential
    sockets: weakref.WeakSet = field(default_factory=weakref.WeakSet)   # open WebSockets, closed at shutdown
    spent_secrets: dict[str, float] = field(default_factory=dict)    # nonce -> expiry of client secrets used here
    gateway: Gateway | None = None      # the state store's side of this process; set by create_app
    draining: bool = False              # SIGTERM came: no new sessions, the open ones finish
    drain_hooks: list = field(default_factory=list)   # transports' `async def drain()`, run on SIGTERM
    shutdown_by: float | None = None    # SIGTERM: the loop time the goodbyes at close end by (see goodbye_wait)
    calls: dict[str, RealtimeLink] = field(default_factory=dict)   # WebRTC calls in progress, by call id
    supervisor: Supervisor = field(init=False)      # the transports' background tasks

    def __post_init__(self) -> None:
        self.supervisor = Supervisor(self.metrics.background_failure)

    @property
    def at_capacity(self) -> bool:
        return len(self.sessions) >= self.config.max_sessions

    @property
    def open_doors_full(self) -> bool:
        return len(self.open_door_sessions) >= self.config.open_door_quota

    def new_session(self, config: SessionConfig | None = None, *, transport: str, tools=None,
                    session_id: str | None = None, principal: str = ANONYMOUS,
                    history: list[dict] | None = None, open_door: bool = False) -> Session:
        """A Session (not started yet) that the server tracks until it closes; its conversation and timers
        live in the store, so it can be resumed (session_id + history) on any gateway. SessionLimitReached
        at capacity, or when `open_door` (a door that takes no credential) and those hold their quota."""
        if self.at_capacity:
            raise SessionLimitReached(self._session_limit_message())
        if open_door and self.open_doors_full:
            raise SessionLimitReached(f"doors without a credential hold at most {self.config.open_door_quota} "
                                      f"sessions of {self.config.max_sessions}; try again in {RETRY_AFTER_S} s")
        session_id = session_id or new_id("sess")
        timers = self.gateway.timers_for(session_id)
        if tools is None and self.engines.generator is not None:
            from assistant.tools import ToolRunner
            tools = ToolRunner(home=self.home, timer_book=timers, lists=self.gateway.store)
        session = Session(self.engines, config or self.config.session_defaults(), tools,
                          limits=self.config.limits, metrics=self.metrics, transport=transport, session_id=session_id)
        if history:
            session.restore(history)
        self.gateway.attach(session, principal, timers)
        self.sessions.add(session)
        if open_door:
            self.open_door_sessions.add(session)
        return session

    async def resume_session(self, config: SessionConfig | None = None, *, transport: str, session_id: str,
                             principal: str) -> Session:
        """new_session with the stored conversation of session_id, if `principal` created it. StoreUnavailable
        (StillSaving while its last save is still writing or waits) when the store cannot say."""
        history = await ask(self.gateway.resumable(session_id, principal), HANDOVER_S + STORE_TIMEOUT_S)
        return self.new_session(config, transport=transport, session_id=session_id, principal=principal,
                                history=history)

    async def end_session(self, session: Session) -> None:
        await session.close()
        self.sessions.discard(session)
        self.open_door_sessions.discard(session)
        await self.gateway.detach(session)

    @property
    def principal(self) -> str:
        """Who every accepted credential speaks for: the API key (client secrets speak for the key that minted
        them)."""
        if self.config.api_key is None:
            return ANONYMOUS
        return "key:" + hashlib.sha256(self.config.api_key.encode()).hexdigest()[:16]

    async def drain(self) -> None:
        """SIGTERM: take no new sessions; close Realtime sessions as soon as no turn or reply is in flight
        (their clients resume them elsewhere), wait for calls and devices to end; all up to the deadline."""
        self.draining = True
        deadline = time.monotonic() + self.config.drain_timeout_s
        self.shutdown_by = asyncio.get_running_loop().time() + self.config.drain_timeout_s + SHUTDOWN_MARGIN_S
        hooks = [asyncio.create_task(drain()) for drain in self.drain_hooks]
        while self.sessions and time.monotonic() < deadline:
            for session in list(self.sessions):
                if session.transport in ("realtime", "webrtc") and session.idle:
                    await session.end("server_draining")
            await asyncio.sleep(0.1)
        for hook in hooks:
            hook.cancel()
        await asyncio.gather(*hooks, return_exceptions=True)
        if self.sessions:
            left = collections.Counter(session.transport for session in self.sessions)
            print(f"SIGTERM: the drain's {self.config.drain_timeout_s:g} s are up; closing the sessions still open ("
                  + ", ".join(f"{count} {transport}" for transport, count in sorted(left.items())) + ")", flush=True)

    def goodbye_wait(self, bound: float) -> float:
        """How long a goodbye at close (the satellites' `offline` status, a DISCONNECT) waits for the broker: its own
        bound, cut to what is left of a SIGTERM's drain timeout plus SHUTDOWN_MARGIN_S; at 216f494 each came after
        the drain's deadline in full (a stalled broker: 2 s more)."""
        if self.shutdown_by is None:
            return bound
        return max(0.0, min(bound, self.shutdown_by - asyncio.get_running_loop().time()))

    def authorized(self, token: str | None) -> bool:
        """The API key, or a client secret not yet spent here (spend_everywhere spends it)."""
        if self.config.api_key is None:
            return True
        if not token:
            return False
        if same_secret(token, self.config.api_key):
            return True
        secret = self._read_client_secret(token)
        return secret is not None and secret.nonce not in self.spent_secrets

    async def spend_everywhere(self, token: str | None) -> bool:
        """A client secret is used once across every gateway sharing the store (any gateway can verify it, so
        a claim in the store is what makes the second use fail on another one). The API key is not spent.
        StoreUnavailable when the store does not answer: the secret stays unspent, to be used once it does."""
        secret = self._read_client_secret(token) if token else None
        if secret is None:
            return True
        if len(self.spent_secrets) >= MAX_SPENT_SECRETS:      # expired secrets need no record: they are refused
            now = time.time()
            self.spent_secrets = {spent: until for spent, until in self.spent_secrets.items() if until > now}
            if len(self.spent_secrets) >= MAX_SPENT_SECRETS:
                return False
        if not await self.first_use("client_secret:" + secret.nonce, secret.expiry - time.time()):
            return False
        self.spent_secrets[secret.nonce] = secret.expiry
        return True

    async def first_use(self, key: str, ttl_s: float) -> bool:
        """True once per `key` across every gateway sharing the store, until ttl_s from now (a single-use
        credential, a Twilio call). StoreUnavailable when the store does not answer."""
        return await ask(self.gateway.store.claim(key, secrets.token_hex(8), ttl_s))

    async def used(self, key: str) -> bool:
        """first_use(key) has happened and not expired."""
        return await ask(self.gateway.store.holder(key)) is not None

    def may_resume(self, token: str | None, session_id: str) -> bool:
        """Only the credential that created a session resumes it: the API key (every session here is its own),
        or a client secret the key's holder minted for that session. Without a key, the id is the credential."""
        if self.config.api_key is None or same_secret(token or "", self.config.api_key):
            return True
        secret = self._read_client_secret(token) if token else None
        return secret is not None and secret.session_id == session_id

    def _read_client_secret(self, token: str) -> ClientSecret | None:
        """An unexpired client secret minted with this API key; None for anything else."""
        *claims, mac = token.removeprefix("ek_").split(".")
        if len(claims) not in (2, 3) or not claims[0].isdigit():
            return None
        if not same_secret(mac, self._client_secret_mac(".".join(claims))) or int(claims[0]) <= time.time():
            return None
        return ClientSecret(claims[1], float(int(claims[0])), claims[2] if len(claims) == 3 else None)

    def session_limit_response(self) -> web.Response:
        """HTTP 503 for an upgrade the server cannot take: clients back off instead of degrading everyone."""
        return _error_response(503, "session_limit", self._session_limit_message(), retry_after_s=RETRY_AFTER_S)

    def _session_limit_message(self) -> str:
        return f"this server holds at most {self.config.max_sessions} sessions; try again in {RETRY_AFTER_S} s"

    def mint_client_secret(self, seconds: float, session_id: str | None = None) -> tuple[str, float]:
        """A single-use token for one session, valid for `seconds`: (token, expiry as unix time); with
        session_id, it may resume that session. It is signed with the API key, so every gateway that has the
        key accepts it without asking the one that minted it."""
        expiry = int(time.time() + seconds)
        claims = f"{expiry}.{secrets.token_hex(12)}" + (f".{session_id}" if session_id else "")
        return f"ek_{claims}.{self._client_secret_mac(claims)}", float(expiry)

    def _client_secret_mac(self, claims: str) -> str:
        key = (self.config.api_key or "").encode("utf-8", "surrogateescape")
        return hmac.new(key, claims.encode("utf-8", "surrogateescape"), hashlib.sha256).hexdigest()[:32]


CTX = web.AppKey("parley", ServerContext)
log = logging.getLogger("parley.server")


def _error_response(status: int, code: str, message: str, *, retry_after_s: int | None = None) -> web.Response:
    """An HTTP error in OpenAI's shape; a 5xx is the server's error, anything else the request's."""
    headers = {"Retry-After": str(retry_after_s)} if retry_after_s is not None else None
    return web.json_response({"error": {"type": "server_error" if status >= 500 else "invalid_request_error",
                                        "code": code, "message": message}}, status=status, headers=headers)


def _transport_modules():
    for name in TRANSPORTS:
        if importlib.util.find_spec(name) is not None:
            yield importlib.import_module(name)


def create_app(config: ServerConfig, engines: Engines, metrics: Metrics | None = None) -> web.Application:
    app = web.Application(middlewares=[_guard_host_and_origin])
    ctx = ServerContext(config, engines, metrics or Metrics())
    ctx.gateway = Gateway(open_store(config.store), config.gateway_id, ctx.metrics, config.state_dir)
    ctx.gateway.home_of = lambda: ctx.home     # a change scheduled in a conversation nobody holds runs on it
    app[CTX] = ctx
    app.cleanup_ctx.append(_run_gateway)       # first: transports' sessions need it until they are closed
    ctx.metrics.watch_generator(engines.generator)
    ctx.metrics.watch_waiting_saves(ctx.gateway.waiting)
    app.router.add_get("/v1/realtime", realtime_socket)
    app.router.add_post("/v1/realtime/client_secrets", client_secret)
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/readyz", readyz)
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
    app.on_cleanup.append(lambda app: app[CTX].supervisor.close())
    return app


async def _run_gateway(app: web.Application):
    gateway = app[CTX].gateway
    await gateway.start(app[CTX].supervisor)
    yield
    await gateway.close()


async def _close_sessions(app: web.Application) -> None:
    """Shutdown: tell clients we are going away (1001) so they reconnect, and end every session."""
    ctx = app[CTX]
    await asyncio.gather(*(ws.close(code=1001, message=b"server shutdown") for ws in list(ctx.sockets)),
                         return_exceptions=True)
    ctx.gateway.closing()                  # the sessions' last writes have CLOSE_S from now
    await asyncio.gather(*(ctx.end_session(s) for s in list(ctx.sessions)), return_exceptions=True)
    if hasattr(ctx.engines.generator, "aclose"):      # a remote generator's kept-alive connections
        await ctx.engines.generator.aclose()


def is_loopback(host: str | None) -> bool:
    if not host:
        return False
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return host.lower() == "localhost" or host.lower().endswith(".localhost")


def _hostname(netloc: str) -> str | None:
    try:
        return urlsplit("//" + netloc).hostname
    except ValueError:
        return None


def _public_hostname(config: ServerConfig) -> str | None:
    public_url = getattr(config.options, "public_url", None)
    return urlsplit(public_url).hostname if public_url else None


def origin_allowed(config: ServerConfig, origin: str, host: str) -> bool:
    """Browsers send Origin: this server's own pages and --allowed-origins may connect. A page another program
    on this machine serves (another loopback port) may not: loopback is no credential."""
    origin = origin.strip().rstrip("/").lower()
    if "*" in config.allowed_origins or origin in config.allowed_origins:
        return True
    try:
        parts = urlsplit(origin)
        hostname, port = parts.hostname, parts.port
        asked = urlsplit("//" + host.lower())
        asked_hostname, asked_port = asked.hostname, asked.port
    except ValueError:
        return False
    if parts.scheme not in ("http", "https") or not hostname:
        return False                        # "null" (sandboxed frames, file://) and the like
    if parts.netloc == host.lower() or hostname == _public_hostname(config):
        return True
    # the same server under another loopback name: a page from http://localhost:8080 on 127.0.0.1:8080
    return is_loopback(hostname) and is_loopback(asked_hostname) and port == asked_port


@web.middleware
async def _guard_host_and_origin(request: web.Request, handler):
    """Cross-site WebSocket hijacking and DNS rebinding: a page elsewhere must not drive this server."""
    config = request.app[CTX].config
    host = request.headers.get("Host", "")
    if is_loopback(config.host):
        hostname = _hostname(host)
        if not (is_loopback(hostname) or (hostname is not None and hostname == _public_hostname(config))):
            return _error_response(403, "host_not_allowed", "this server answers only to its loopback name "
                                   "(or the host of --public-url)")
    origin = request.headers.get("Origin")
    if origin is not None and not origin_allowed(config, origin, host):
        return _error_response(403, "origin_not_allowed", "pages on this origin may not use this server "
                               "(see --allowed-origins)")
    return await handler(request)


def _request_token(request: web.Request) -> str | None:
    """API key or client secret: Bearer header, `openai-insecure-api-key.` subprotocol; a client secret (never
    the API key, which would end up in proxy logs) also as `?client_secret=`, for browser clients that cannot
    set a subprotocol."""
    token = bearer(request)
    if token:
        return token
    for protocol in request.headers.get("Sec-WebSocket-Protocol", "").split(","):
        protocol = protocol.strip()
        if protocol.startswith(SUBPROTOCOL_KEY):
            return protocol[len(SUBPROTOCOL_KEY):]
    secret = request.query.get("client_secret")
    return secret if secret and secret.startswith("ek_") else None


def _unauthorized() -> web.Response:
    return _error_response(401, "invalid_api_key", "missing or invalid API key / client secret")


async def admit(request: web.Request) -> tuple[web.Response | None, list[dict] | None]:
    """The checks every door that opens a Realtime session makes before it: room, a credential (a client secret
    is spent), not draining, and the session `?session_id=` resumes, if this credential created it.
    (refusal, None), or (None, the resumed session's history; None: a new session)."""
    ctx = request.app[CTX]
    if ctx.at_capacity:
        return ctx.session_limit_response(), None
    token = _request_token(request)
    if not ctx.authorized(token):
        return _unauthorized(), None
    if ctx.draining:
        return _error_response(503, "server_draining", "this gateway is shutting down; connect again",
                               retry_after_s=1), None
    resume = request.query.get("session_id")
    history = None
    try:
        if not await ctx.spend_everywhere(token):
            return _unauthorized(), None
        if resume is not None and SESSION_ID.fullmatch(resume) and ctx.may_resume(token, resume):
            history = await ask(ctx.gateway.resumable(resume, ctx.principal), HANDOVER_S + STORE_TIMEOUT_S)
    except StillSaving as saving:
        return _error_response(503, "session_saving", str(saving),
                               retry_after_s=STORE_RETRY_AFTER_S), None
    except StoreUnavailable as outage:
        log.warning("realtime: refusing a connection, the state store does not answer: %s", outage)
        return _error_response(503, "store_unavailable", "the state store does not answer; try again",
                               retry_after_s=STORE_RETRY_AFTER_S), None
    return None, history


class WebSocketCarrier:
    """Server events over an aiohttp WebSocket (see realtime_link.Carrier)."""

    def __init__(self, request: web.Request, ws: web.WebSocketResponse, name: str):
        self.request, self.ws, self.name = request, ws, name

    async def send(self, frame: str) -> bool:
        if self.ws.closed:
            return False
        try:
            async with asyncio.timeout(SEND_TIMEOUT_S):     # wait_for would make a task per frame
                await self.ws.send_str(frame)
        except TimeoutError:
            self.drop(f"nothing could be sent for {SEND_TIMEOUT_S:g} s")
            return False
        except ConnectionResetError:
            return False
        return True

    def drop(self, reason: str) -> None:
        """Cut a client that stopped reading: a close frame would only queue behind what it never read."""
        log.warning("realtime %s: %s; dropping the connection", self.name, reason)
        self.request.app[CTX].metrics.client_error("client_not_reading")
        if self.request.transport is not None:
            self.request.transport.abort()

    async def close(self, reason: str, going_away: bool) -> None:
        await self.ws.close(code=1001 if going_away else 1000, message=reason.encode())


async def realtime_socket(request: web.Request) -> web.StreamResponse:
    ctx = request.app[CTX]
    if "call_id" in request.query:
        return await _sideband_socket(request, request.query["call_id"])
    refusal, history = await admit(request)
    if refusal is not None:
        return refusal
    principal, resume = ctx.principal, request.query.get("session_id")
    ws = web.WebSocketResponse(protocols=("realtime",), max_msg_size=4 * ctx.config.max_message_bytes,
                               heartbeat=30)
    await ws.prepare(request)
    ctx.sockets.add(ws)
    try:
        # an unknown session id, or one another credential created, gets a new session (session.created says which)
        session = ctx.new_session(transport="realtime", principal=principal,
                                  session_id=resume if history is not None else None, history=history)
    except SessionLimitReached as full:          # others took the last places while this one upgraded
        await ws.send_json({"type": "error", "event_id": realtime.new_id("event"), "error": {
            "type": "server_error", "code": "session_limit", "message": str(full), "param": None, "event_id": None}})
        await ws.close(code=1013, message=b"session_limit")
        return ws
    protocol = realtime.RealtimeProtocol(
        session_id=session.id, model=request.query.get("model") or ctx.config.model, defaults=session.config,
        max_message_bytes=ctx.config.max_message_bytes,
        beta=request.headers.get("OpenAI-Beta", "").startswith("realtime=v1"),
        on_client_error=ctx.metrics.client_error)
    protocol.restore(session.history())          # a resumed session: the items the client was told of before
    link = RealtimeLink(session, protocol, WebSocketCarrier(request, ws, session.id))
    await link.open()
    writer = asyncio.create_task(link.forward(), name=f"{session.id}:writer")
    try:
        await _receive_into(ws, link)
    finally:
        await ctx.end_session(session)
        writer.cancel()
        await asyncio.gather(writer, return_exceptions=True)
    return ws


async def _sideband_socket(request: web.Request, call_id: str) -> web.StreamResponse:
    """`/v1/realtime?call_id=`: a server watches a WebRTC call's events and steers it with client events.
    Only the API key opens it (a client secret is the browser's, for its own call)."""
    ctx = request.app[CTX]
    if ctx.config.api_key is not None and not same_secret(_request_token(request) or "", ctx.config.api_key):
        return _unauthorized()
    link = ctx.calls.get(call_id)
    if link is None:
        return _error_response(404, "call_not_found", "no call with this call_id is in progress on this server")
    ws = web.WebSocketResponse(protocols=("realtime",), max_msg_size=4 * ctx.config.max_message_bytes,
                               heartbeat=30)
    await ws.prepare(request)
    ctx.sockets.add(ws)
    watcher = WebSocketCarrier(request, ws, call_id)
    if not link.watch(watcher):
        await ws.close(code=1013, message=b"too many sideband sockets on this call")
        return ws
    try:
        await _receive_into(ws, link)
    finally:
        link.unwatch(watcher)
    return ws


async def _receive_into(ws: web.WebSocketResponse, link: RealtimeLink) -> None:
    """Hand each client message of a socket to the call's protocol until the socket closes."""
    try:
        async for message in ws:
            if message.type in (WSMsgType.TEXT, WSMsgType.BINARY):
                await link.receive(message.data)
                await link.flush()
            elif message.type == WSMsgType.ERROR:
                break
    except (ConnectionResetError, asyncio.CancelledError):
        pass


async def json_body(request: web.Request, max_bytes: int):
    """The request's JSON body within the bounds of streaming.client_json (JsonRefused before it is read where its
    Content-Length is over max_bytes, and before it is parsed where it holds more than MAX_CONFIG_VALUES values)."""
    if request.content_length is not None and request.content_length > max_bytes:
        raise client_json.JsonRefused(f"the body may be at most {max_bytes} bytes, this one has "
                                      f"{request.content_length}")
    return client_json.loads(await request.read(), max_bytes, MAX_CONFIG_VALUES, "the body")


async def client_secret(request: web.Request) -> web.Response:
    """Mint a short-lived token a browser may use in place of the API key (OpenAI's client_secrets)."""
    ctx = request.app[CTX]
    key = ctx.config.api_key
    if key is not None and not same_secret(bearer(request) or "", key):
        return _unauthorized()
    try:
        body = await json_body(request, MAX_CONFIG_BYTES) if request.can_read_body else {}
    except client_json.JsonRefused as refused:
        return _error_response(413, "body_too_large", str(refused))
    except (ValueError, RecursionError) as error:      # also a 5,000-digit number or deep nesting
        return _error_response(400, "invalid_json", f"the body is not valid JSON: {error}")
    seconds = ctx.config.client_secret_ttl_s
    expires = body.get("expires_after") if isinstance(body, dict) else None
    if isinstance(expires, dict) and isinstance(expires.get("seconds"), int):
        seconds = max(10, min(expires["seconds"], MAX_CLIENT_SECRET_TTL_S))
    session = body.get("session") if isinstance(body, dict) else None
    resume = session.get("id") if isinstance(session, dict) else None     # Parley: the session it may resume
    if resume is not None and not (isinstance(resume, str) and SESSION_ID.fullmatch(resume)):
        return _error_response(400, "invalid_session_id", "session.id must be the id session.created gave")
    token, expiry = ctx.mint_client_secret(seconds, resume)
    return web.json_response({"value": token, "expires_at": int(expiry),
                              "session": {"type": "realtime", "model": ctx.config.model}})


async def healthz(request: web.Request) -> web.Response:
    """Liveness: is this process fine? 503 "draining" once SIGTERM came, 503 "degraded" while a background
    task (MQTT, a TCP listener) is down and waiting to be restarted. A state store that does not answer is shown
    (`store`, as the timer poll last found it) but is not this process's fault: /readyz turns it away instead."""
    ctx = request.app[CTX]
    generator = ctx.engines.generator
    healthy = ctx.supervisor.healthy
    status = "draining" if ctx.draining else "ok" if healthy else "degraded"
    body = {"status": status, "sessions": len(ctx.sessions), "assistant": generator is not None,
            "gateway": ctx.gateway.id, "tasks": ctx.supervisor.status(),
            "store": "up" if ctx.gateway.store_answers else "down", "saves_waiting": len(ctx.gateway.waiting)}
    if ctx.gateway.has_spool:               # full is not unhealthy either: a restart would lose what it holds
        body["spool"] = "full" if ctx.gateway.spool_full else "ok"
    if hasattr(generator, "remote_up"):     # down is not unhealthy: the embedded fallback answers
        body["remote_generator"] = "up" if generator.remote_up else "down"
    return web.json_response(body, status=200 if status == "ok" else 503)


async def readyz(request: web.Request) -> web.Response:
    """Readiness, what a load balancer checks: should new sessions come here? Not while draining, nor
    while the state store does not answer."""
    ctx = request.app[CTX]
    if ctx.draining:
        return web.json_response({"status": "draining"}, status=503)
    try:
        await ask(ctx.gateway.store.holder("readyz"))
    except StoreUnavailable as outage:
        return web.json_response({"status": "store_unavailable", "error": str(outage)}, status=503)
    return web.json_response({"status": "ready", "sessions": len(ctx.sessions)})


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
    limit_accept_errors()
    runner = BoundedRunner(create_app(config, engines), max_connections=config.max_connections,
                           idle_timeout_s=config.http_idle_timeout_s)
    await runner.setup()
    site = web.TCPSite(runner, config.host, config.port)
    await site.start()
    port = runner.addresses[0][1]
    print(f"Parley is listening on http://{config.host}:{port}/  "
          f"(OpenAI Realtime: ws://{config.host}:{port}/v1/realtime)", flush=True)
    terminated = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, terminated.set)
    try:
        await terminated.wait()
        ctx = runner.app[CTX]
        print(f"SIGTERM: draining {len(ctx.sessions)} sessions (up to {config.drain_timeout_s:g} s)", flush=True)
        await ctx.drain()
    finally:
        await runner.cleanup()


def open_doors(config: ServerConfig) -> list[str]:
    """Doors that anyone who reaches the address can use: no credential configured, or none in the protocol."""
    options = config.options
    doors = []
    if config.api_key is None:
        doors.append("the Realtime WebSocket, WebRTC calls and web page (no --api-key)")
        if not getattr(options, "twilio_auth_token", None):
            doors.append("/twilio/voice and /twilio/stream (no --api-key or --twilio-auth-token)")
        for path, flags in (("/telnyx/texml", ("telnyx_public_key", "telnyx_stream_token")),
                            ("/telnyx/stream", ("telnyx_stream_token",)), ("/vonage/stream", ("vonage_signature_secret",)),
                            ("/plivo/stream", ("plivo_auth_token",))):
            if not any(getattr(options, flag, None) for flag in flags):
                doors.append(f"{path} (no --api-key or " + " or ".join("--" + f.replace("_", "-") for f in flags) + ")")
    if getattr(options, "audiosocket_port", None) is not None:
        doors.append(f"AudioSocket on port {options.audiosocket_port} (the protocol has no credentials; "
                     "--audiosocket-port off closes it)")
    if getattr(options, "wyoming_port", None) is not None:
        doors.append(f"Wyoming on port {options.wyoming_port} (the protocol has no credentials)")
    return doors


def check_doors(config: ServerConfig) -> None:
    """Refuse to serve open doors on a reachable address unless the operator says --insecure."""
    if is_loopback(config.host) or config.insecure:
        return
    doors = open_doors(config)
    if doors:
        raise SystemExit(f"parley serve: refusing to listen on {config.host} with open doors:\n  - "
                         + "\n  - ".join(doors) + "\nSet --api-key (and keep the other doors on a trusted network "
                         "or off), or pass --insecure if a firewall already guards them.")


def main(argv: list[str] | None = None) -> NoReturn:
    config = parse_config(list(sys.argv[1:] if argv is None else argv))
    check_doors(config)
    print(f"Loading models (Whisper {config.whisper}, Piper joe-medium, Silero VAD, Parley assistant)...", flush=True)
    remote = None
    if config.generator:
        remote = {"url": config.generator, "model": config.generator_model, "dialect": config.generator_dialect,
                  "api_key": config.generator_api_key}
    engines = Engines.load_default(checkpoint_dir=config.checkpoint, remote=remote, whisper=config.whisper)
    try:
        asyncio.run(serve(config, engines))
    except KeyboardInterrupt:
        pass
    # Everything is closed (sessions saved, the store and the spool closed): the interpreter's own teardown of the
    # model libraries (torch, ONNX Runtime, CTranslate2) writes nothing and took 2.2 s more on an idle machine, so
    # the process ends here.
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
