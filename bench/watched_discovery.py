"""A gateway's MqttHome started on a real Mosquitto that retains a Tasmota plug and many discovery configs, watched
as the discovery benches (discovery_cost.py, hostile_kinds.py) measure it: the configs it handles, when the last
one was, the event loop's longest stall, and the log lines it writes."""
import asyncio
import contextlib
import json
import logging
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path

from made_up_home import play_devices, publish_home
from mqtt_broker import Mosquitto
from mqtt_devices import login
from streaming.transports.mqtt.connection import Backoff
from streaming.transports.mqtt.home import MqttHome

KILN = ("switch", "kiln", {"name": "Kiln", "cmd_t": "tasmota/kiln/cmnd/POWER", "stat_t": "tasmota/kiln/stat/POWER",
                           "pl_on": "1", "pl_off": "0"})


class WatchedHome:
    """The home, not yet started; `handled`, `last` (perf_counter of the last config handled) and `stall` (the
    loop's longest stall since it was last set to 0) are kept up to date while it runs."""

    def __init__(self, broker: Mosquitto):
        self.broker = broker
        self.home = MqttHome(login(broker, "parley"), confirm_timeout=60, backoff=Backoff(initial=0.1, maximum=0.5))
        self.handled, self.last, self.stall = 0, 0.0, 0.0
        discover = self.home._discover

        async def counted(*args):
            await discover(*args)
            self.handled, self.last = self.handled + 1, time.perf_counter()
        self.home._discover = counted

    async def probe(self) -> None:
        while True:
            before = time.perf_counter()
            await asyncio.sleep(0.01)
            self.stall = max(self.stall, time.perf_counter() - before - 0.01)

    async def settled(self, quiet_s: float) -> None:
        """Returns once no config arrived for quiet_s."""
        seen = -1
        while seen != self.handled:
            seen = self.handled
            await asyncio.sleep(quiet_s)


@contextlib.asynccontextmanager
async def watched_home(configs: Iterable[tuple[str, dict]], qos: int, log_file: Path):
    """Retains the kiln and each (topic, config) on a fresh Mosquitto, plays the kiln, and yields a WatchedHome
    whose log goes to log_file; the caller starts it. Closed, with the player and the broker, on the way out."""
    with tempfile.TemporaryDirectory() as workdir:
        broker = Mosquitto(Path(workdir))
        broker.start()
        try:
            await publish_home(broker, [KILN])
            async with login(broker, "home").client() as client:
                for topic, config in configs:
                    await client.publish(topic, json.dumps(config), qos=qos, retain=True)
            devices = asyncio.create_task(play_devices(broker, []))
            watched = WatchedHome(broker)
            prober = asyncio.create_task(watched.probe())
            handler = logging.FileHandler(log_file)
            logging.getLogger("parley").addHandler(handler)
            yield watched
            prober.cancel()
            await watched.home.close()
            logging.getLogger("parley").removeHandler(handler)
            devices.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await devices
        finally:
            broker.stop()
