"""Voice-to-voice latency over MQTT: end of the user's speech → first reply audio back at the satellite.

Spoken requests (Piper, 16 kHz) are streamed in real time, 20 ms per message, by a satellite client through a
local Mosquitto; the clock stops when the first `audio/out` chunk arrives. Baseline: the same requests pushed
into a Session directly (no MQTT), clock stopped at its first AudioDelta. Both use the same engines and the
MQTT home (a simulated device confirms commands), so the ratio is what the satellite transport adds.

    .venv/bin/python bench/mqtt_latency.py [--rounds 2]
"""
import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))   # the test broker and devices

from conftest import Speech  # noqa: E402
from mqtt_broker import Mosquitto  # noqa: E402
from mqtt_devices import SatelliteDevice, home_device, login  # noqa: E402

from streaming import events as ev  # noqa: E402
from streaming.engines import Engines  # noqa: E402
from streaming.transports.mqtt.home import MqttHome  # noqa: E402
from streaming.transports.mqtt.satellite import SATELLITE_RATE, SatelliteService, satellite_config  # noqa: E402
from streaming.session import Session, TurnDetection  # noqa: E402
from assistant.tools import ToolRunner  # noqa: E402

REQUESTS = ["Turn on the kitchen light.", "What time is it?", "Set a timer for five minutes.",
            "Turn off the bedroom fan."]
FRAME = SATELLITE_RATE * 2 // 50          # 20 ms of PCM16


def spoken(speech: Speech, text: str) -> tuple[bytes, int]:
    """400 ms silence, the words, 1.2 s silence; and the byte offset where the words end."""
    pcm = speech.piper(text, rate=SATELLITE_RATE)
    return pcm, (round(speech.speech_end_ms(pcm, SATELLITE_RATE) * SATELLITE_RATE / 1000) + 1) * 2


async def paced(pcm: bytes, speech_end: int, send) -> float:
    """Send 20 ms frames in real time; returns the wall time the frame holding the last word went out."""
    start, end_wall = time.monotonic(), 0.0
    for index, offset in enumerate(range(0, len(pcm), FRAME)):
        await asyncio.sleep(max(0.0, start + index * 0.02 - time.monotonic()))
        await send(pcm[offset:offset + FRAME])
        if offset <= speech_end - 1 < offset + FRAME:
            end_wall = time.monotonic()
    return end_wall


class DirectPath:
    """The baseline: a Session fed directly, clock stopped at its first AudioDelta."""

    def __init__(self, engines, home):
        self.session = Session(engines, satellite_config(TurnDetection()), ToolRunner(home=home))

    async def turn(self, pcm: bytes, speech_end: int) -> tuple[float, float]:
        first_audio = asyncio.get_running_loop().create_future()

        async def watch():
            async for event in self.session.events():
                if isinstance(event, ev.AudioDelta) and not first_audio.done():
                    first_audio.set_result(time.monotonic())
                if isinstance(event, ev.ResponseDone):
                    return event.timing["voice_to_voice"]
        watcher = asyncio.create_task(watch())

        async def push(chunk):
            self.session.push_audio(chunk)
        end_wall = await paced(pcm, speech_end, push)
        latency = (await asyncio.wait_for(first_audio, 60) - end_wall) * 1000
        return latency, await asyncio.wait_for(watcher, 60)      # (after the reply has played out)


class MqttPath:
    """A satellite client through Mosquitto, clock stopped at its first audio/out message."""

    def __init__(self, device: SatelliteDevice):
        self.device = device

    async def turn(self, pcm: bytes, speech_end: int) -> tuple[float, float]:
        device = self.device
        device.audio.clear()

        async def push(chunk):
            await device.publish("audio/in", chunk, qos=0)
        end_wall = await paced(pcm, speech_end, push)    # returns after the trailing silence
        async with asyncio.timeout(60):
            while not device.audio:
                await asyncio.sleep(0.001)
        latency = (device.audio_arrived - end_wall) * 1000
        reply = await device.next_event("reply", 60)     # (after the reply has played out)
        return latency, reply["timing"]["voice_to_voice"]


def row(name: str, values: list[float], baseline: float | None) -> str:
    median = statistics.median(values)
    ratio = f"{median / baseline:>5.2f}x" if baseline else "     -"
    return f"| {name:<44} | {len(values):>3} | {median:>9.0f} | {min(values):>7.0f} | {max(values):>7.0f} | {ratio} |"


async def main(rounds: int) -> None:
    engines = Engines.load_default()
    requests = [spoken(Speech(engines.tts), text) for text in REQUESTS] * rounds
    direct, over_mqtt = [], []
    with tempfile.TemporaryDirectory() as workdir:
        broker = Mosquitto(Path(workdir))
        broker.start()
        device_side = asyncio.create_task(home_device(broker, []))
        home = MqttHome(login(broker, "parley"))
        await home.start()
        await home.wait_connected(10)
        service = SatelliteService(lambda config, device_id: Session(engines, config, ToolRunner(home=home)), Session.close,
                                   login(broker, "parley"))
        await service.start()
        await asyncio.wait_for(service.connected.wait(), 10)
        baseline = DirectPath(engines, home)
        await baseline.session.start()
        try:
            async with SatelliteDevice(broker, "kitchen") as device:
                satellite = MqttPath(device)
                for pcm, speech_end in requests:     # interleaved, so machine load hits both paths alike
                    direct.append(await baseline.turn(pcm, speech_end))
                    over_mqtt.append(await satellite.turn(pcm, speech_end))
        finally:
            await baseline.session.close()
            await service.close()
            await home.close()
            device_side.cancel()
            await asyncio.gather(device_side, return_exceptions=True)
            broker.stop()
    measured = [d[0] for d in direct]
    baseline = statistics.median(measured)
    print("Voice-to-voice latency, ms (end of speech → first reply audio), "
          f"{len(REQUESTS)} requests x {rounds} rounds, server VAD (500 ms silence), paths interleaved")
    print(f"| {'path':<44} |   n | median ms |  min ms |  max ms | ratio |")
    print(f"|{'-' * 46}|-----|-----------|---------|---------|-------|")
    print(row("Session direct (baseline)", measured, baseline))
    print(row("MQTT satellite via Mosquitto", [m[0] for m in over_mqtt], baseline))
    print(row("  direct: measured - session's voice_to_voice", [d[0] - d[1] for d in direct], None))
    print(row("  MQTT: measured - session's voice_to_voice", [m[0] - m[1] for m in over_mqtt], None))
    print("The session's own voice_to_voice starts at the last speech frame its VAD heard; the last two rows\n"
          "remove the session's work, so their difference is what the MQTT round trip (in and out) adds.")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    asyncio.run(main(parser.parse_args().rounds))
