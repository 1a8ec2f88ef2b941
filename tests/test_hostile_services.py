"""Hostile input against the background services of a live server on loopback: MQTT (satellites, home
control), Wyoming and AudioSocket; supervision of their loops; a Realtime client that stops reading
(issue 11: F2, F3, F4, F5, F6). Each test is a finding's regression test: it failed on the reported code."""
import asyncio
import base64
import json
import logging
import os
import socket
import struct
import time

import aiohttp
import aiomqtt
import pytest
from wyoming.asr import Transcript
from wyoming.audio import AudioStart
from wyoming.client import AsyncTcpClient
from wyoming.info import Describe

from conftest import LiveServer
from mqtt_broker import USERS
from mqtt_devices import SatelliteDevice, login
from phone_callers import finished_calls, until
from streaming.config import ServerConfig
from streaming.logsafe import AcceptErrorsFilter
from streaming.server import parse_config
from streaming.supervisor import Supervisor
from streaming.transports.mqtt.satellite import SATELLITES
from streaming.transports.phone.audiosocket import AUDIOSOCKET, HANDSHAKE_TIMEOUT_S, HANGUP, UUID, encode_frame
from streaming.transports.wyoming import WYOMING

DEEP = b'{"type": ' + b"[" * 50_000 + b"]" * 50_000 + b"}"        # 100 KB of nesting


@pytest.fixture(scope="module")
def server(broker, engines):
    options = parse_config(["--mqtt-host", broker.host, "--mqtt-port", str(broker.port), "--mqtt-username", "parley",
                            "--mqtt-password", USERS["parley"], "--mqtt-confirm-timeout", "1.0",
                            "--wyoming-port", "0", "--audiosocket-port", "0"]).options
    server = LiveServer(ServerConfig(port=0, options=options), engines)
    yield server
    server.stop()


async def health(server) -> tuple[int, dict]:
    async with aiohttp.ClientSession() as http:
        async with http.get(server.url + "/healthz") as response:
            return response.status, await response.json()


async def next_event(device, kind: str, timeout: float = 30) -> dict:
    while True:
        event = await asyncio.wait_for(device.events.get(), timeout)
        if event["type"] == kind:
            return event


# ---- F2: one MQTT message cannot end device service --------------------------------------------------------

async def test_f2_poison_control_message_is_answered_and_service_goes_on(broker, server):
    await until(lambda: server.app[SATELLITES].connected.is_set(), what="satellites connected")
    async with SatelliteDevice(broker, "kitchen") as device:
        await device.publish("control", DEEP)
        assert (await next_event(device, "error"))["code"] == "invalid_json"
        await device.publish("audio/in", b"\x00", qos=0)                  # the loop still serves this device
        assert (await next_event(device, "error"))["code"] == "invalid_audio"
    status, body = await health(server)
    assert status == 200 and body["tasks"]["mqtt-satellites"]["running"]


async def test_f2_poison_state_while_a_command_waits_leaves_home_control_working(broker, server):
    home = server.ctx.home
    async with login(broker, "home").client() as device:
        waiting = asyncio.run_coroutine_threadsafe(home.set_device("light", "kitchen", "on"), server.loop)
        await asyncio.sleep(0.2)
        await device.publish("home/kitchen/light/state", DEEP, qos=1)       # arrives while the command waits
        await device.publish("home/kitchen/light/state", "ON", qos=1)
        assert await asyncio.wrap_future(waiting) == "on"
        for n in range(3):                                                  # more floods, then a sensor read
            await device.publish(f"home/flood/sensor/x{n}", DEEP, qos=1)
        await device.publish("home/hall/sensor/temperature", "19.5", qos=1, retain=True)
        await asyncio.sleep(0.3)
        assert server.call(home.read_sensor("hall", "temperature")) == 19.5
    status, body = await health(server)
    assert status == 200 and body["tasks"]["mqtt-home"]["running"]


async def test_f2_a_dead_background_task_turns_healthz_red_and_is_restarted(server):
    attempts = []

    async def flaky():
        attempts.append(time.monotonic())
        if len(attempts) == 1:
            raise RuntimeError("listener lost")
        await asyncio.Event().wait()

    server.call(_start(server.ctx.supervisor, "test-flaky", flaky))
    await until(lambda: len(attempts) == 1, what="first run")
    status, body = await health(server)
    assert status == 503 and body["status"] == "degraded"
    assert body["tasks"]["test-flaky"] == {"running": False, "crashes": 1, "last_error": "RuntimeError: listener lost",
                                           "failed_messages": 0}
    await until(lambda: len(attempts) == 2, what="restart")
    status, body = await health(server)
    assert status == 200 and body["tasks"]["test-flaky"]["running"]
    server.call(server.ctx.supervisor.stop("test-flaky"))
    metrics = server.ctx.metrics.render().decode()
    assert 'parley_background_failures_total{kind="crash",task="test-flaky"} 1.0' in metrics


async def test_a_background_task_that_drops_its_cancel_does_not_hang_a_shutdown(caplog):
    """A job that does not end when cancelled (redis-py on Python 3.11 could drop the cancel of a heartbeat): stop
    returns within its bound (STOP_S, 5 s), says so in the log and the metrics, and does not wait for ever."""
    failures, let_end = [], asyncio.Event()

    async def deaf():
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            await let_end.wait()             # it ends, cancelled, only once the test is done with it
            raise

    supervisor = Supervisor(lambda name, kind: failures.append((name, kind)))
    supervisor.start("test-deaf", deaf)
    await asyncio.sleep(0)
    task = supervisor.jobs["test-deaf"].task
    try:
        async with asyncio.timeout(20):
            await supervisor.stop("test-deaf")
        assert not task.done()               # stop returned by its bound, leaving the task that did not end
        assert failures == [("test-deaf", "stuck")]
        assert "test-deaf did not end" in caplog.text
    finally:
        let_end.set()
        await asyncio.wait({task}, timeout=1)


async def _start(supervisor: Supervisor, name, run):
    supervisor.start(name, run)


async def test_f5_mqtt_home_keeps_a_bounded_cache(broker, server):
    from streaming.transports.mqtt.home import MAX_CACHED_TOPICS

    async with login(broker, "home").client() as device:
        for n in range(MAX_CACHED_TOPICS + 50):
            await device.publish(f"home/spam/sensor/k{n}", "1", qos=0)
        await device.publish("home/spam/sensor/big", b"1" * 100_000, qos=1)
    await until(lambda: len(server.ctx.home._retained) >= MAX_CACHED_TOPICS, timeout=60, what="cache filled")
    await asyncio.sleep(0.5)
    assert len(server.ctx.home._retained) == MAX_CACHED_TOPICS
    assert "home/spam/sensor/big" not in server.ctx.home._retained


# ---- F3 / F5: Wyoming bounds -----------------------------------------------------------------------------

async def test_f3_f5_wyoming_refuses_huge_text_and_absurd_rates(server):
    async with AsyncTcpClient("127.0.0.1", server.app[WYOMING].port) as client:
        await client.write_event(Transcript(text="x" * 200_000).event())
        event = await asyncio.wait_for(client.read_event(), 30)
        assert event.type == "error" and "at most" in event.data["text"]
        await client.write_event(AudioStart(rate=1_000_000_000, width=2, channels=1).event())
        event = await asyncio.wait_for(client.read_event(), 30)
        assert event.type == "error" and "rate" in event.data["text"]
        await client.write_event(Describe().event())                      # the connection goes on
        assert (await asyncio.wait_for(client.read_event(), 30)).type == "info"


# ---- F4: idle and surplus connections do not hold the doors ------------------------------------------------

async def test_f4_idle_and_surplus_audiosocket_connections_are_hung_up(server):
    port = server.app[AUDIOSOCKET].port
    idle = await asyncio.open_connection("127.0.0.1", port)
    assert await asyncio.wait_for(idle[0].read(3), HANDSHAKE_TIMEOUT_S + 10) == encode_frame(HANGUP)
    await until(lambda: any(record.error == f"nothing received for {HANDSHAKE_TIMEOUT_S:g} s after connecting"
                            for record in finished_calls(server)), what="the idle call's record")   # why: its timeout
    listener = server.app[AUDIOSOCKET]
    listener.max_calls = 1
    try:
        first = await asyncio.open_connection("127.0.0.1", port)
        first[1].write(encode_frame(UUID, os.urandom(16)))
        await until(lambda: len(listener.calls) == 1, what="first call held")
        surplus = await asyncio.open_connection("127.0.0.1", port)
        assert await asyncio.wait_for(surplus[0].read(3), 10) == encode_frame(HANGUP)
        first[1].close()
    finally:
        listener.max_calls = 64


async def test_f4_wyoming_caps_connections_and_closes_idle_ones(server):
    service = server.app[WYOMING]
    service.max_connections, service.idle_timeout_s = 1, 1.0
    try:
        async with AsyncTcpClient("127.0.0.1", service.port) as held:
            await held.write_event(Describe().event())
            assert (await asyncio.wait_for(held.read_event(), 30)).type == "info"
            async with AsyncTcpClient("127.0.0.1", service.port) as surplus:
                refused = await asyncio.wait_for(surplus.read_event(), 10)
                assert refused.type == "error" and refused.data["code"] == "too_many_connections"
            idle = await asyncio.wait_for(held.read_event(), 10)                # nothing sent for a second
            assert idle.type == "error" and idle.data["code"] == "idle_timeout"
            assert await asyncio.wait_for(held.read_event(), 10) is None
    finally:
        service.max_connections, service.idle_timeout_s = 32, 60.0


def test_f4_accept_errors_are_logged_once_per_interval():
    log = logging.getLogger("test-accept")
    accept_filter = AcceptErrorsFilter(every_s=60)
    passed = []
    for _ in range(4400):
        record = log.makeRecord("asyncio", logging.ERROR, __file__, 1, "socket.accept() out of system resource\n"
                                "socket: <...>", (), None)
        if accept_filter.filter(record):
            passed.append(record)
    other = log.makeRecord("asyncio", logging.ERROR, __file__, 1, "Task exception was never retrieved", (), None)
    assert len(passed) == 1 and accept_filter.held_back == 4399 and accept_filter.filter(other)


# ---- F6: a client that stops reading is dropped -------------------------------------------------------------

def _masked_frame(text: bytes) -> bytes:
    mask = os.urandom(4)
    header = bytes([0x81]) + (bytes([0x80 | 127]) + struct.pack(">Q", len(text)) if len(text) > 65535 else
                              bytes([0x80 | 126]) + struct.pack(">H", len(text)))
    return header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(text))


async def test_f6_a_realtime_client_that_stops_reading_is_dropped(server):
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", server.port))
    before = set(server.ctx.sessions)
    reader, writer = await asyncio.open_connection(sock=sock)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(f"GET /v1/realtime HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\n"
                 f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
    assert b" 101 " in await reader.readline()
    await until(lambda: set(server.ctx.sessions) - before, what="session opened")
    [session] = set(server.ctx.sessions) - before
    # each bad event is answered with an error quoting its 60 KB type; this client reads none of them
    frame = _masked_frame(json.dumps({"type": "x" * 60_000}).encode())

    async def flood():
        for _ in range(400):
            writer.write(frame)
            await writer.drain()
    flooding = asyncio.create_task(flood())
    await until(lambda: session not in server.ctx.sessions, timeout=60, what="the stuck client dropped")
    flooding.cancel()
    await asyncio.gather(flooding, return_exceptions=True)
    writer.close()
    metrics = server.ctx.metrics.render().decode()
    assert 'parley_errors_total{code="client_not_reading"} 1.0' in metrics
