"""Server configuration: command-line flags, each with a PARLEY_* environment variable as default."""
from __future__ import annotations

import argparse
import os
from dataclasses import dataclass, field
from pathlib import Path

from assistant.chat_completions import DIALECTS
from assistant.http_limits import IDLE_TIMEOUT_S
from streaming.session import SessionConfig, SessionLimits
from streaming.turns import TurnDetection

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
# `parley serve`'s state directory: the spool of last saves waiting for the store (streaming.spool), and the SQLite
# file that keeps conversations and timers unless --store says otherwise
DEFAULT_STATE_DIR = Path(os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state") / "parley"


@dataclass
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = 8080
    api_key: str | None = None                # None: no auth
    model: str = "parley-home"                # the name sessions report
    checkpoint: str | None = None             # None: the embedded checkpoint
    whisper: str = "tiny.en"                  # the shipped Whisper model: tiny.en or base (voice.stt.MODELS)
    generator: str | None = None              # URL of a remote /v1/chat/completions server; None: embedded only
    generator_api_key: str | None = None
    generator_model: str = "parley-home"
    generator_dialect: str = "parley"
    turn_detection: str = "semantic_vad"      # default for new sessions: semantic_vad | server_vad | none
    max_message_bytes: int = 4 * 1024 * 1024
    limits: SessionLimits = field(default_factory=SessionLimits)
    client_secret_ttl_s: int = 60             # client secrets are single-use and short-lived (at most 600 s)
    max_sessions: int = 16                    # beyond this, new sessions are refused with session_limit
    max_open_door_sessions: int | None = None  # of those, held via doors without a credential; None: half
    max_connections: int | None = None        # HTTP connections; past it the oldest idle one is closed (None:
                                              # half of `ulimit -n`)
    http_idle_timeout_s: float = IDLE_TIMEOUT_S   # no whole request head this long: closed; no whole body this
                                                  # long after its head: 408, closed
    allowed_origins: tuple[str, ...] = ()     # browser origins besides the server's own; "*": any
    insecure: bool = False                    # allow doors without a credential on a non-loopback --host
    web_dir: Path = WEB_DIR
    store: str = "sqlite://:memory:"          # conversations, timers, claims (the CLI's default: state.db in
                                              # the state dir)
    state_dir: Path | None = None             # the spool's place (the CLI's default: DEFAULT_STATE_DIR); None:
                                              # last saves waiting for the store are kept in memory only
    gateway_id: str | None = None             # None: a fresh one per process
    drain_timeout_s: float = 30.0             # SIGTERM: how long active sessions may take to finish
    options: argparse.Namespace = field(default_factory=argparse.Namespace)   # every flag, transports' included

    @property
    def open_door_quota(self) -> int:
        """Sessions that doors taking no credential (AudioSocket; Twilio without a token or key) may hold: the
        rest stay free for clients with a credential."""
        if self.max_open_door_sessions is not None:
            return self.max_open_door_sessions
        return max(1, self.max_sessions // 2)

    def session_defaults(self, **overrides) -> SessionConfig:
        """The SessionConfig a new session starts from; transports override rates etc."""
        detection = None if self.turn_detection == "none" else TurnDetection(type=self.turn_detection)
        return SessionConfig(turn_detection=detection, **overrides)


def _env(name: str, default):
    return os.environ.get(f"PARLEY_{name}", default)


def build_parser() -> argparse.ArgumentParser:
    defaults, limits = ServerConfig(), SessionLimits()
    parser = argparse.ArgumentParser(prog="parley serve", description="Run the Parley voice server.")
    parser.add_argument("--host", default=_env("HOST", defaults.host))
    parser.add_argument("--port", type=int, default=int(_env("PORT", defaults.port)), help="0 picks a free port")
    parser.add_argument("--api-key", default=_env("API_KEY", None),
                        help="require `Authorization: Bearer KEY` (or a client secret minted with it)")
    parser.add_argument("--model", default=_env("MODEL", defaults.model), help="model name reported to clients")
    parser.add_argument("--checkpoint", default=_env("CHECKPOINT", None), help="assistant checkpoint directory")
    parser.add_argument("--whisper", choices=("tiny.en", "base"), default=_env("WHISPER", defaults.whisper),
                        help="speech recogniser: tiny.en, or base for machines with cores to spare (about 2x "
                             "the compute per transcript; see docs/speech.md)")
    parser.add_argument("--generator", default=_env("GENERATOR", None),
                        help="URL of a remote OpenAI-compatible generator (`parley generator serve`, SGLang, vLLM, "
                             "Mercury); the embedded model then answers only while it is unreachable")
    parser.add_argument("--generator-api-key", default=_env("GENERATOR_API_KEY", None),
                        help="sent to the remote generator as `Authorization: Bearer KEY`")
    parser.add_argument("--generator-model", default=_env("GENERATOR_MODEL", defaults.generator_model),
                        help="the model name the remote generator serves")
    parser.add_argument("--generator-dialect", choices=tuple(DIALECTS),
                        default=_env("GENERATOR_DIALECT", defaults.generator_dialect),
                        help="the remote server's quirks (see docs/remote-generators.md)")
    parser.add_argument("--turn-detection", choices=("semantic_vad", "server_vad", "none"),
                        default=_env("TURN_DETECTION", defaults.turn_detection),
                        help="default turn detection of new sessions (clients may change it)")
    parser.add_argument("--max-message-bytes", type=int,
                        default=int(_env("MAX_MESSAGE_BYTES", defaults.max_message_bytes)))
    parser.add_argument("--max-buffer-ms", type=int, default=int(_env("MAX_BUFFER_MS", limits.max_buffer_ms)),
                        help="longest uncommitted input audio")
    parser.add_argument("--max-session-s", type=float, default=float(_env("MAX_SESSION_S", limits.max_duration_s)),
                        help="longest session")
    parser.add_argument("--web-dir", default=_env("WEB_DIR", str(defaults.web_dir)), help="static files served at /")
    parser.add_argument("--max-sessions", type=int, default=int(_env("MAX_SESSIONS", defaults.max_sessions)),
                        help="sessions this server holds at once (all transports); more are refused with "
                             "session_limit / HTTP 503")
    parser.add_argument("--max-open-door-sessions", type=int, default=_env("MAX_OPEN_DOOR_SESSIONS", None),
                        help="of --max-sessions, how many doors without a credential (AudioSocket, Twilio "
                             "without a token or key) may hold (default: half)")
    parser.add_argument("--max-connections", type=int, default=_env("MAX_CONNECTIONS", None),
                        help="HTTP and WebSocket connections at once; past it the oldest idle one is closed "
                             "(default: half of `ulimit -n`)")
    parser.add_argument("--allowed-origins", default=_env("ALLOWED_ORIGINS", ""),
                        help="comma-separated browser origins allowed besides this server's own pages, such "
                             "as a local dev server's http://localhost:5173 ('*' for any)")
    parser.add_argument("--insecure", action="store_true", default=bool(_env("INSECURE", "")),
                        help="start even when a door has no credential on a non-loopback --host")
    parser.add_argument("--state-dir", default=_env("STATE_DIR", str(DEFAULT_STATE_DIR)),
                        help="this gateway's own state: the spool of last saves that wait for the store (so a "
                             "killed gateway's are written by the next one started here) and the default SQLite "
                             f"store (default {DEFAULT_STATE_DIR})")
    parser.add_argument("--store", default=_env("STORE", None),
                        help="where conversations and timers live: sqlite:///path/state.db (default: state.db in "
                             "--state-dir), sqlite://:memory:, or redis://host:port/db for several gateways")
    parser.add_argument("--gateway-id", default=_env("GATEWAY_ID", None),
                        help="this process's name in the store (default: a fresh random one)")
    parser.add_argument("--drain-timeout", type=float, default=float(_env("DRAIN_TIMEOUT_S", defaults.drain_timeout_s)),
                        help="on SIGTERM, seconds active sessions get to finish before they are closed")
    return parser


def from_args(args: argparse.Namespace) -> ServerConfig:
    return ServerConfig(host=args.host, port=args.port, api_key=args.api_key or None, model=args.model,
                        checkpoint=args.checkpoint, whisper=args.whisper, generator=args.generator or None,
                        generator_api_key=args.generator_api_key or None, generator_model=args.generator_model,
                        generator_dialect=args.generator_dialect, turn_detection=args.turn_detection,
                        max_message_bytes=args.max_message_bytes, max_sessions=args.max_sessions,
                        max_open_door_sessions=args.max_open_door_sessions, max_connections=args.max_connections,
                        allowed_origins=tuple(o.strip().rstrip("/").lower() for o in args.allowed_origins.split(",")
                                              if o.strip()),
                        insecure=args.insecure,
                        limits=SessionLimits(max_buffer_ms=args.max_buffer_ms, max_duration_s=args.max_session_s),
                        web_dir=Path(args.web_dir), state_dir=Path(args.state_dir),
                        store=args.store or f"sqlite://{Path(args.state_dir) / 'state.db'}", gateway_id=args.gateway_id,
                        drain_timeout_s=args.drain_timeout, options=args)
