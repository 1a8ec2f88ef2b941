"""SIGTERM of a real `parley serve` while its real Mosquitto is stopped (SIGSTOP: the broker takes bytes and never
answers). A phone call held open keeps the drain going to its deadline (`--drain-timeout`, set under aiomqtt's own
10 s wait and over Parley's GOODBYE_WAIT_S), so what the drain did with the satellites is seen on /metrics while it
still runs. No assertion is about how long anything took: the broker stays stopped until the gateway has exited."""
import asyncio
import contextlib
import json
import signal
import sqlite3

import aiohttp
import pytest

from gateways import GatewayProcess
from mqtt_broker import USERS, Mosquitto
from mqtt_devices import SatelliteDevice
from phone_callers import AsteriskCaller

pytestmark = pytest.mark.usefixtures("needs_assistant")

DRAIN_TIMEOUT = "8"         # under aiomqtt's 10 s wait for an unsubscribe, over GOODBYE_WAIT_S


async def metrics(url: str) -> str | None:
    """The /metrics page, or None once the gateway no longer answers (its drain is over)."""
    try:
        async with aiohttp.ClientSession() as http:
            async with http.get(url + "/metrics") as response:
                return await response.text()
    except aiohttp.ClientConnectionError:
        return None


async def satellites_handed_back_while_draining(url: str) -> bool:
    """Polls /metrics through the drain: True once no satellite session is open while the gateway still serves,
    False if the gateway stopped answering first."""
    while (page := await metrics(url)) is not None:
        if 'parley_sessions_active{transport="mqtt"} 0.0' in page:
            return True
        await asyncio.sleep(0.05)
    return False


def stored_texts(db, session_id: str) -> list[str]:
    """What the user and Parley said in the session's stored conversation, in order."""
    with contextlib.closing(sqlite3.connect(db)) as file:
        row = file.execute("SELECT items FROM conversations WHERE id = ?", (session_id,)).fetchone()
    items = json.loads(row[0]) if row else []
    return [item["text"] for item in items if item["type"] == "message"]


SAID = {"kitchen": "turn on the kitchen light", "bedroom": "what time is it"}    # by satellite id


@contextlib.asynccontextmanager
async def two_satellites_and_a_call(tmp_path, db, drain_timeout: str):
    """A real broker and a gateway (`--drain-timeout drain_timeout`, its conversations stored in db), a kitchen and
    a bedroom satellite that have each said their SAID and had a reply, and a phone call held open, which keeps a
    drain going to its deadline. Yields the broker, the gateway and each satellite's reply; as the block ends the
    satellites leave, then the call is hung up and the gateway and the broker are stopped."""
    broker = Mosquitto(tmp_path)
    broker.start()
    gateway = GatewayProcess("gw1", tmp_path, f"sqlite://{db}", "--mqtt-host", broker.host, "--mqtt-port",
                             str(broker.port), "--mqtt-username", "parley", "--mqtt-password", USERS["parley"],
                             "--drain-timeout", drain_timeout)
    gateway.start()
    caller = None
    try:
        async with SatelliteDevice(broker, "kitchen") as kitchen, SatelliteDevice(broker, "bedroom") as bedroom:
            replies = {}
            for device in (kitchen, bedroom):
                await device.publish("text/in", SAID[device.id])
                replies[device.id] = (await device.next_event("reply", 120))["text"]
            caller = await AsteriskCaller.dial("127.0.0.1", gateway.audiosocket)
            for _ in range(600):
                if 'parley_sessions_active{transport="audiosocket"} 1.0' in (await metrics(gateway.url) or ""):
                    break
                await asyncio.sleep(0.1)
            else:
                raise AssertionError("the call never opened a session")
            yield broker, gateway, replies
    finally:
        if caller is not None:
            await caller.hang_up()
        gateway.stop()
        broker.stop()


@contextlib.contextmanager
def stopped(broker: Mosquitto):
    """The broker takes bytes and never answers (SIGSTOP) until the block ends (SIGCONT)."""
    broker.process.send_signal(signal.SIGSTOP)
    try:
        yield
    finally:
        broker.process.send_signal(signal.SIGCONT)


async def test_sigterm_over_a_stopped_broker_hands_the_satellites_back_within_the_drain_and_says_what_it_could_not_do(
        tmp_path):
    """At fb6c30e the drain waited aiomqtt's 10 s for the broker to confirm its unsubscribe before handing back
    any satellite, so with a drain timeout under that no idle satellite was handed back by the drain (they were
    cut at its deadline), and the failed unsubscribe was not logged. Now the unsubscribe waits GOODBYE_WAIT_S: the
    idle satellites are handed back (their conversations saved) while the drain goes on, the log says what the
    broker did not confirm and which sessions the deadline closed, and the gateway exits 0, the broker still
    stopped."""
    db = tmp_path / "state.db"
    async with two_satellites_and_a_call(tmp_path, db, DRAIN_TIMEOUT) as (broker, gateway, replies):
        offset = gateway.log.stat().st_size
        with stopped(broker):
            gateway.terminate()
            assert await satellites_handed_back_while_draining(gateway.url)
            assert await asyncio.to_thread(gateway.process.wait, 120) == 0
        log = gateway.log.read_bytes()[offset:].decode(errors="replace")
        assert "the broker did not confirm the satellites' unsubscribe within 2 s" in log
        assert "closing the sessions still open (1 audiosocket)" in log
        assert "did not end within" not in log                         # no background task left running
        for device_id, said in SAID.items():
            assert stored_texts(db, f"dev_{device_id}") == [said, replies[device_id]]


SHORT_DRAIN = 3             # the drain timeout of the next test: under GOODBYE_WAIT_S + STATUS_WAIT_S after it
EXIT_WAIT_S = SHORT_DRAIN + 3    # the margin (SHUTDOWN_MARGIN_S, 1 s) and 2 s for a loaded machine; 216f494 took 7.5


async def test_sigterm_with_a_short_drain_timeout_over_a_stopped_broker_exits_within_it_and_saves_the_sessions(
        tmp_path):
    """At 216f494 a SIGTERM with a 3 s drain timeout and a stopped broker took 7.5 s to exit (an idle machine): after
    the drain's deadline the satellites' `offline` status waited its full 2 s for the broker, then the interpreter's
    teardown of the model libraries took 2.4 s more. Now the goodbyes at close wait only what is left of the drain
    timeout plus SHUTDOWN_MARGIN_S, and the process ends once everything is closed. A phone call held open keeps
    the drain going to its deadline; the wait for the exit is bounded by the drain timeout, the margin and 2 s for
    a loaded machine; the satellites' conversations are in the file afterwards."""
    db = tmp_path / "state.db"
    async with two_satellites_and_a_call(tmp_path, db, str(SHORT_DRAIN)) as (broker, gateway, replies):
        offset = gateway.log.stat().st_size
        with stopped(broker):
            gateway.terminate()
            exited = await asyncio.to_thread(gateway.process.wait, EXIT_WAIT_S)   # TimeoutExpired: not exited
            assert exited == 0
        log = gateway.log.read_bytes()[offset:].decode(errors="replace")
        assert "closing the sessions still open (1 audiosocket)" in log      # the drain ran to its deadline
        assert "did not end within" not in log                               # no background task left running
        for device_id, said in SAID.items():
            assert stored_texts(db, f"dev_{device_id}") == [said, replies[device_id]]
