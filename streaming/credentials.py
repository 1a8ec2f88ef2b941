"""What a door reads from a request's Authorization header, and how it compares a secret: one copy, shared by the
server and the transports (which must not import the server)."""
from __future__ import annotations

import base64
import binascii
import hmac

from aiohttp import web


def same_secret(given: str, secret: str) -> bool:
    """Constant-time comparison that takes any header text: aiohttp decodes invalid UTF-8 as surrogates."""
    return hmac.compare_digest(given.encode("utf-8", "surrogateescape"), secret.encode())


def bearer(request: web.Request) -> str | None:
    header = request.headers.get("Authorization", "")
    return header[7:].strip() if header.lower().startswith("bearer ") else None


def bearer_or_basic_password(request: web.Request) -> str:
    """Bearer, or the password of HTTP Basic auth (a webhook URL like https://parley:KEY@host/twilio/voice)."""
    token = bearer(request)
    if token is not None:
        return token
    scheme, _, value = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "basic":
        return ""
    try:
        return base64.b64decode(value.strip(), validate=True).decode().partition(":")[2]
    except (binascii.Error, ValueError):
        return ""
