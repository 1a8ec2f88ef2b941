"""How Parley's device transports reach the MQTT broker: settings from configuration (login, TLS) and a
connection loop that reconnects with exponential backoff, so a broker restart costs seconds, not a restart
of Parley."""
import argparse
import asyncio
import logging
import os
import socket
from dataclasses import dataclass, field
from typing import Awaitable, Callable

import aiomqtt

log = logging.getLogger("parley.mqtt")

GOODBYE_WAIT_S = 2.0    # a goodbye's wait for the broker's confirmation (an unsubscribe: a device let go, the drain's;
                        # the DISCONNECT at a stop): a stalled broker costs this, not aiomqtt's 10 s; under STOP_S (5 s)


@dataclass
class MqttSettings:
    host: str = "localhost"
    port: int = 1883
    username: str | None = None
    password: str | None = None
    tls: bool = False                 # TLS with the system's CAs; implied by ca_file
    ca_file: str | None = None        # CA that signed the broker's certificate
    cert_file: str | None = None      # client certificate, for brokers that require one
    key_file: str | None = None
    keepalive: int = 30               # seconds; the broker declares us gone (last will) after 1.5x this

    @staticmethod
    def add_arguments(parser: argparse.ArgumentParser) -> None:
        group = parser.add_argument_group("MQTT (satellites and home control; off unless --mqtt-host is given)")
        group.add_argument("--mqtt-host", default=os.environ.get("PARLEY_MQTT_HOST"), help="broker host name")
        group.add_argument("--mqtt-port", type=int, default=os.environ.get("PARLEY_MQTT_PORT"),
                           help="broker port (1883, or 8883 with TLS)")
        group.add_argument("--mqtt-username", default=os.environ.get("PARLEY_MQTT_USERNAME"),
                           help="login name (env PARLEY_MQTT_USERNAME)")
        group.add_argument("--mqtt-password", default=os.environ.get("PARLEY_MQTT_PASSWORD"),
                           help="password (prefer env PARLEY_MQTT_PASSWORD: arguments show up in `ps`)")
        group.add_argument("--mqtt-tls", action="store_true", default=bool(os.environ.get("PARLEY_MQTT_TLS")),
                           help="connect with TLS using the system CAs")
        group.add_argument("--mqtt-ca", default=os.environ.get("PARLEY_MQTT_CA"), help="CA certificate file for TLS (turns TLS on)")
        group.add_argument("--mqtt-cert", default=os.environ.get("PARLEY_MQTT_CERT"), help="client certificate file for TLS")
        group.add_argument("--mqtt-key", default=os.environ.get("PARLEY_MQTT_KEY"), help="client private key file for TLS")

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> "MqttSettings | None":
        """None when no broker was configured: the MQTT transports stay off."""
        if not getattr(args, "mqtt_host", None):
            return None
        tls = bool(args.mqtt_tls or args.mqtt_ca)
        return cls(host=args.mqtt_host, port=int(args.mqtt_port or (8883 if tls else 1883)),
                   username=args.mqtt_username, password=args.mqtt_password, tls=tls,
                   ca_file=args.mqtt_ca, cert_file=args.mqtt_cert, key_file=args.mqtt_key)

    def client(self, will: aiomqtt.Will | None = None, *, v5: bool = False) -> aiomqtt.Client:
        tls_params = None
        if self.tls or self.ca_file:
            tls_params = aiomqtt.TLSParameters(ca_certs=self.ca_file, certfile=self.cert_file, keyfile=self.key_file)
        # TCP_NODELAY: 100 ms audio chunks must leave now, not wait for Nagle's algorithm to batch them.
        return aiomqtt.Client(self.host, self.port, username=self.username, password=self.password,
                              will=will, tls_params=tls_params, keepalive=self.keepalive, timeout=10,
                              protocol=aiomqtt.ProtocolVersion.V5 if v5 else None,
                              socket_options=[(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)])


@dataclass
class Backoff:
    """Exponential reconnect delays: initial, 2x, 4x ... capped at maximum; reset once connected."""
    initial: float = 0.5
    maximum: float = 30.0
    _next: float = field(init=False, default=0.0)

    def __post_init__(self):
        self._next = self.initial

    def next_delay(self) -> float:
        delay = self._next
        self._next = min(delay * 2, self.maximum)
        return delay

    def reset(self) -> None:
        self._next = self.initial


async def stay_connected(settings: MqttSettings, name: str, on_connected: Callable[[aiomqtt.Client], Awaitable[None]],
                         *, will: aiomqtt.Will | None = None, backoff: Backoff | None = None, v5: bool = False) -> None:
    """Connect, run on_connected(client) until the connection drops, wait, reconnect; until cancelled.

    on_connected subscribes and consumes client.messages; it returns or raises MqttError when the
    broker goes away. Subscriptions are made again on every connection (clean sessions).
    """
    backoff = backoff or Backoff()
    while True:
        try:
            async with settings.client(will, v5=v5) as client:
                log.info("%s: connected to %s:%d", name, settings.host, settings.port)
                backoff.reset()
                await on_connected(client)
        except aiomqtt.MqttError as error:
            if asyncio.current_task().cancelling():   # stopped, and the goodbye to a stalled broker timed out
                log.warning("%s: stopped without the broker's confirmation of the DISCONNECT (%s)", name, error)
                raise asyncio.CancelledError from error
            delay = backoff.next_delay()
            log.warning("%s: broker connection lost (%s); reconnecting in %.1f s", name, error, delay)
            await asyncio.sleep(delay)
