"""Shared fixtures. The speech engines load once per test session and are shared, as in the server.

- stt, tts, vad_model: the embedded models; engines: them plus the assistant, as the server holds them.
- live_server: the real `parley serve` app on a free loopback port, running in its own thread and loop.
- speech: spoken requests synthesised with Piper (the embedded voice) or espeak-ng (a second voice).
"""
import asyncio
import importlib.util
import os
import threading
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest


@pytest.fixture
def one_torch_thread():
    """The tiny golden model runs fastest on one thread; more only wait on each other on a busy machine."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


@pytest.fixture(scope="session")
def golden_model():
    """The tiny LLaDA-format model whose outputs the reference implementations recorded (tests/data/llada-tiny)."""
    from dllm_core.checkpoint import load_model

    return load_model(Path(__file__).parent / "data" / "llada-tiny")[0]


@pytest.fixture(scope="module")
def broker(tmp_path_factory):
    """A real Mosquitto on a free loopback port (with the project's password file and ACL), one per test module."""
    from mqtt_broker import Mosquitto

    mosquitto = Mosquitto(tmp_path_factory.mktemp("mosquitto"))
    mosquitto.start()
    yield mosquitto
    mosquitto.stop()


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory):
    """A real redis-server on a free loopback port, one per test module."""
    from redis_server import RedisServer

    server = RedisServer(tmp_path_factory.mktemp("redis"))
    server.start()
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "redis"])
def store_url(request, tmp_path):
    """A store each test runs on twice: an SQLite file of its own, then the module's real Redis."""
    if request.param == "sqlite":
        return f"sqlite://{tmp_path}/state.db"
    return request.getfixturevalue("redis_server").url


@pytest.fixture(scope="session")
def stt():
    from voice.stt import WhisperSTT

    return WhisperSTT()


@pytest.fixture(scope="session")
def tts():
    from voice.tts import PiperTTS

    return PiperTTS()


@pytest.fixture(scope="session")
def vad_model():
    from voice.vad import SileroModel

    return SileroModel()


@pytest.fixture(scope="session")
def assistant():
    """The embedded assistant (or the one in $PARLEY_CHECKPOINT, as for the server); None only while
    assistant/embedded.py or its checkpoint has not landed."""
    if importlib.util.find_spec("assistant.embedded") is None:
        return None
    from assistant.embedded import EMBEDDED_CHECKPOINT, EmbeddedGenerator

    checkpoint = Path(os.environ.get("PARLEY_CHECKPOINT") or EMBEDDED_CHECKPOINT)
    return EmbeddedGenerator.load(checkpoint) if (checkpoint / "config.json").exists() else None


@pytest.fixture(scope="session")
def engines(stt, tts, vad_model, assistant):
    from streaming.engines import Engines

    return Engines(stt=stt, tts=tts, vad_model=vad_model, generator=assistant)


@pytest.fixture
def needs_assistant(engines):
    if engines.generator is None:
        pytest.skip("assistant/embedded.py has not landed yet")


# ---- a live server -----------------------------------------------------------------------------------

class LiveServer:
    """The aiohttp app on 127.0.0.1:<free port>, served from a background thread with its own event loop."""

    def __init__(self, config, engines):
        from aiohttp import web

        from assistant.http_limits import BoundedRunner
        from streaming.server import CTX, create_app

        self.loop = asyncio.new_event_loop()
        self.app = create_app(config, engines)
        self.ctx = self.app[CTX]
        self._runner = BoundedRunner(self.app, max_connections=config.max_connections,
                                     idle_timeout_s=config.http_idle_timeout_s)
        self._thread = threading.Thread(target=self.loop.run_forever, name="live-server", daemon=True)
        self._thread.start()
        self.call(self._runner.setup())
        site = web.TCPSite(self._runner, "127.0.0.1", config.port)
        self.call(site.start())
        self.port = self._runner.addresses[0][1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}/v1/realtime"

    def call(self, coro, timeout: float = 60):
        """Run a coroutine on the server's loop and return its result."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def session_tasks(self, prefixes: tuple[str, ...] = ("sess_",)) -> list[str]:
        """Names of the server's live tasks that belong to sessions (named `sess_...:stage`) or other prefixes."""
        future: Future = Future()

        def collect():
            future.set_result(sorted(t.get_name() for t in asyncio.all_tasks(self.loop)
                                     if t.get_name().startswith(prefixes) and not t.done()))
        self.loop.call_soon_threadsafe(collect)
        return future.result(10)

    def stop(self) -> None:
        """Shut down (closes open sockets with 1001); safe to call twice."""
        if not self._thread.is_alive():
            return
        self.call(self._runner.cleanup())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)


@pytest.fixture(scope="session")
def server_factory(engines):
    """start(**ServerConfig fields) -> LiveServer; every server stops at the end of the test session."""
    from streaming.config import ServerConfig

    servers = []

    def start(**fields):
        fields.setdefault("port", 0)
        server = LiveServer(ServerConfig(**fields), engines)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture(scope="session")
def live_server(server_factory):
    return server_factory()


# ---- spoken requests ---------------------------------------------------------------------------------

@dataclass
class Speech:
    """Synthesised requests as PCM16 mono: `lead_ms` of silence, the words, `tail_ms` of silence."""
    tts: object

    def piper(self, text: str, rate: int = 24000, lead_ms: int = 400, tail_ms: int = 1200,
              sampled: bool = True) -> bytes:
        """The voice the sessions speak with; sampled=False: without Piper's sampling noise, the same audio every
        run (paused_speech.piper), for a test whose assertion a sampled rendering may fail."""
        if not sampled:
            from paused_speech import piper

            return self._framed(piper(self.tts, text, sampled=False, rate=rate), rate, lead_ms, tail_ms)
        from voice.audio import resample

        return self._framed(resample(self.tts.synthesize(text), self.tts.sample_rate, rate), rate, lead_ms, tail_ms)

    def espeak(self, text: str, rate: int = 24000, lead_ms: int = 400, tail_ms: int = 1200,
               voice: str = "en-us") -> bytes:
        """A second, very different voice: espeak-ng's formant synthesiser."""
        from paused_speech import espeak

        return self._framed(espeak(text, 150, rate, voice), rate, lead_ms, tail_ms)

    def flite(self, text: str, voice: str = "slt", rate: int = 24000, lead_ms: int = 400, tail_ms: int = 1200) -> bytes:
        """Debian's flite, one of the spoken bench's voices (bench/voices.py)."""
        import subprocess
        import tempfile
        import wave

        from voice.audio import pcm16_to_float, resample

        with tempfile.NamedTemporaryFile(suffix=".wav") as out:
            subprocess.run(["flite", "-voice", voice, "-t", text, "-o", out.name], check=True, capture_output=True,
                           timeout=60)
            with wave.open(out.name) as wav:
                words = resample(pcm16_to_float(wav.readframes(wav.getnframes())), wav.getframerate(), rate)
        return self._framed(words, rate, lead_ms, tail_ms)

    @staticmethod
    def _framed(words: np.ndarray, rate: int, lead_ms: int, tail_ms: int) -> bytes:
        from voice.audio import float_to_pcm16

        lead = np.zeros(rate * lead_ms // 1000, dtype=np.float32)
        tail = np.zeros(rate * tail_ms // 1000, dtype=np.float32)
        return float_to_pcm16(np.concatenate([lead, words.astype(np.float32), tail]))

    @staticmethod
    def speech_end_ms(pcm16: bytes, rate: int, threshold: float = 0.01) -> float:
        """Where the words end (last sample above threshold), in ms from the start."""
        from voice.audio import pcm16_to_float

        loud = np.nonzero(np.abs(pcm16_to_float(pcm16)) > threshold)[0]
        return float(loud[-1]) / rate * 1000 if loud.size else 0.0


@pytest.fixture(scope="session")
def speech(tts):
    return Speech(tts)
