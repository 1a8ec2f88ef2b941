"""Prometheus metrics: sessions, responses, errors and the per-turn latency of each pipeline stage.

One registry per server (not the global one) so several servers can live in one process (tests).
"""
from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from streaming.events import Error, ResponseDone

# seconds; dense where voice latency lives (100 ms - 1.5 s)
_BUCKETS = (0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 1.0, 1.25, 1.5, 2.0, 3.0, 5.0, 10.0)

CONTENT_TYPE = CONTENT_TYPE_LATEST


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.sessions = Gauge("parley_sessions_active", "Open sessions", ["transport"], registry=self.registry)
        self.sessions_total = Counter("parley_sessions", "Sessions opened", ["transport"], registry=self.registry)
        self.responses = Counter("parley_responses", "Responses by final status", ["status"], registry=self.registry)
        self.errors = Counter("parley_errors", "Error events sent to clients", ["code"], registry=self.registry)
        self.replies = Counter("parley_generator_replies", "Replies by the generator that wrote them and "
                               "whether the remote one was bypassed", ["generator", "fallback"], registry=self.registry)
        self.background = Counter("parley_background_failures", "Background task deaths (crash) and messages "
                                  "whose handling failed (message)", ["task", "kind"], registry=self.registry)
        self.stage = Histogram("parley_turn_stage_seconds", "Per-turn duration of each pipeline stage",
                               ["stage"], buckets=_BUCKETS, registry=self.registry)
        self.speculations = Counter("parley_speculations", "Replies prepared during a pause, by fate: used "
                                    "(the turn ended as transcribed) or wasted (the user went on, or the final "
                                    "transcript differed)", ["outcome"], registry=self.registry)
        self.saves_dropped = Counter("parley_store_saves_dropped", "Sessions' last saves that waited for the state "
                                     "store and were dropped, over the bound of saves waiting", registry=self.registry)
        self.saves_unspooled = Counter("parley_store_saves_unspooled", "Sessions' last saves the gateway's spool "
                                       "refused because its bound of writes not done yet was reached (kept in memory "
                                       "only)", registry=self.registry)
        self.satellite_dropped = Counter("parley_satellite_messages_dropped", "MQTT satellites' messages dropped "
                                         "because MAX_QUEUED of the device's messages already waited",
                                         registry=self.registry)
        self.satellite_replies_dropped = Counter(
            "parley_satellite_replies_dropped", "MQTT satellites' outgoing messages dropped because the broker did "
            "not take them and the bound of messages waiting was reached: reply audio (audio) or events (event)",
            ["kind"], registry=self.registry)

    def session_opened(self, transport: str) -> None:
        self.sessions.labels(transport).inc()
        self.sessions_total.labels(transport).inc()

    def session_closed(self, transport: str) -> None:
        self.sessions.labels(transport).dec()

    def observe(self, event: object) -> None:
        if isinstance(event, ResponseDone):
            self.responses.labels(event.status).inc()
            if event.generator is not None:
                self.replies.labels(event.generator, "true" if event.fallback else "false").inc()
            for stage, ms in event.timing.items():
                self.stage.labels(stage).observe(ms / 1000)
        elif isinstance(event, Error):
            self.errors.labels(event.code).inc()

    def watch_generator(self, generator: object) -> None:
        """Export a remote generator's breaker state (read at each scrape)."""
        if hasattr(generator, "remote_up"):
            Gauge("parley_generator_remote_up", "1 while the remote generator's circuit breaker is closed",
                  registry=self.registry).set_function(lambda: float(generator.remote_up))

    def watch_waiting_saves(self, waiting) -> None:
        """Export how many sessions' last saves wait for the state store (read at each scrape)."""
        Gauge("parley_store_saves_waiting", "Sessions' last saves that failed and wait for the state store",
              registry=self.registry).set_function(lambda: float(len(waiting)))

    def save_dropped(self) -> None:
        self.saves_dropped.inc()

    def save_unspooled(self) -> None:
        self.saves_unspooled.inc()

    def satellite_message_dropped(self) -> None:
        self.satellite_dropped.inc()

    def satellite_reply_dropped(self, kind: str) -> None:
        self.satellite_replies_dropped.labels(kind).inc()

    def speculation(self, outcome: str) -> None:
        self.speculations.labels(outcome).inc()

    def background_failure(self, task: str, kind: str) -> None:
        self.background.labels(task, kind).inc()

    def client_error(self, code: str) -> None:
        self.errors.labels(code).inc()

    def render(self) -> bytes:
        return generate_latest(self.registry)
