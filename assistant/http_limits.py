"""Bounds on the connections of Parley's aiohttp servers (`parley serve`, `parley generator serve`).

aiohttp closes a connection that has not sent a whole request head within its keep-alive timeout of connecting
(or of its last response); its default is an hour, so half-open sockets pile up until the descriptors run out
and nothing, not even /healthz, gets in. Here that timeout is IDLE_TIMEOUT_S, and past `max_connections` the
oldest idle connection (no request in progress: never a live WebSocket or a streaming reply) is closed to make
room for the new one.

aiohttp sets no time for a body either: a client that sends a head and then a byte of body every few seconds
held its connection (and the handler reading it) for ever, and counted as a request in progress, never idle.
The body must have arrived within the same timeout of its head; if not, the request is answered 408 and the
connection closed.
"""
from __future__ import annotations

import asyncio
import json
import resource
from typing import Awaitable, Callable

from aiohttp import web
from aiohttp.web_protocol import RequestHandler

# above the 15 s for which aiohttp's client (a gateway's remote generator) keeps an idle connection for reuse
IDLE_TIMEOUT_S = 30.0


def default_max_connections() -> int:
    """Half the process's descriptor limit (`ulimit -n`): the rest stays for models, stores and brokers."""
    return max(16, resource.getrlimit(resource.RLIMIT_NOFILE)[0] // 2)


def _body_timeout(seconds: float) -> web.Response:
    error = {"type": "invalid_request_error", "code": "request_timeout",
             "message": f"the request body did not arrive within {seconds:g} s of its head"}
    response = web.Response(status=408, text=json.dumps({"error": error}), content_type="application/json")
    response.force_close()
    return response


def _body_in_time(handler: Callable[[web.BaseRequest], Awaitable[web.StreamResponse]],
                  timeout_s: float) -> Callable[[web.BaseRequest], Awaitable[web.StreamResponse]]:
    """handler, cancelled with a 408 if the request's body is still arriving timeout_s after its head."""
    async def read_in_time(request: web.BaseRequest) -> web.StreamResponse:
        body = request.content
        if body.is_eof():                    # no body, or all of it already here
            return await handler(request)
        handling = True

        def body_arrived() -> None:          # from then on the handler takes its time
            if handling:
                deadline.reschedule(None)
        try:
            async with asyncio.timeout(timeout_s) as deadline:
                body.on_eof(body_arrived)
                return await handler(request)
        except TimeoutError:
            if not deadline.expired():       # the handler's own timeout, not the body's
                raise
            return _body_timeout(timeout_s)
        finally:
            handling = False
    return read_in_time


class _BoundedServer(web.Server):
    def __init__(self, handler, *args, max_connections: int, body_timeout_s: float, **kwargs):
        super().__init__(_body_in_time(handler, body_timeout_s), *args, **kwargs)
        self.max_connections = max_connections
        self._open: dict[RequestHandler, None] = {}     # connections not closed yet, oldest first

    def connection_made(self, handler: RequestHandler, transport: asyncio.Transport) -> None:
        super().connection_made(handler, transport)
        self._open[handler] = None
        if len(self._open) > self.max_connections:
            oldest_idle = next((h for h in self._open if not h._request_in_progress), handler)
            del self._open[oldest_idle]
            oldest_idle.force_close()

    def connection_lost(self, handler: RequestHandler, exc: BaseException | None = None) -> None:
        self._open.pop(handler, None)
        super().connection_lost(handler, exc)


class BoundedRunner(web.AppRunner):
    """web.AppRunner with the bounds above; sites (web.TCPSite) use it as they would the plain one."""

    def __init__(self, app: web.Application, *, max_connections: int | None = None,
                 idle_timeout_s: float = IDLE_TIMEOUT_S, **kwargs):
        super().__init__(app, keepalive_timeout=idle_timeout_s, **kwargs)
        self.max_connections = max_connections or default_max_connections()
        self.idle_timeout_s = idle_timeout_s

    async def _make_server(self) -> web.Server:
        plain = await super()._make_server()
        return _BoundedServer(plain.request_handler, request_factory=plain.request_factory,
                              handler_cancellation=plain.handler_cancellation, loop=plain._loop,
                              max_connections=self.max_connections, body_timeout_s=self.idle_timeout_s,
                              **plain._kwargs)
