"""OpenAI's own browser SDK, `@openai/agents-realtime` (npm), in a real headless Chromium, its WebRTC transport
pointed at Parley's /v1/realtime/calls: a spoken question from Chromium's fake microphone, a tool the agent
declared called and run in the page, and the answer heard as audio (recorded from the call, transcribed by
Whisper). The SDK is bundled from tests/sdk with esbuild (`make sdk`, which the fixture runs)."""
import base64
import io
import re
import shutil
import subprocess
from pathlib import Path

import av
import numpy as np
import pytest

from test_browser_voice import CHROMIUM, write_wav

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("needs_assistant")]

SDK = Path(__file__).resolve().parent / "sdk"
QUESTION = "What is seven times six?"
TURN_TIMEOUT_MS = 90_000


@pytest.fixture(scope="module")
def sdk_page_dir():
    if shutil.which("npm") is None:
        pytest.fail("npm is not installed (run `make system-deps`)")
    subprocess.run(["make", "--quiet", "sdk"], cwd=SDK.parent.parent, check=True)     # rebuilds when stale
    return SDK


def recorded_speech(webm_base64: str) -> np.ndarray:
    """The page's WebM/Opus recording as float mono at 16 kHz."""
    container = av.open(io.BytesIO(base64.b64decode(webm_base64)))
    resampler = av.AudioResampler(format="flt", layout="mono", rate=16000)
    samples = [frame.to_ndarray().reshape(-1) for packet in container.decode(audio=0)
               for frame in resampler.resample(packet)]
    return np.concatenate(samples) if samples else np.zeros(0, dtype=np.float32)


def test_agents_realtime_sdk_over_webrtc(server_factory, sdk_page_dir, speech, stt, tmp_path):
    from playwright.sync_api import sync_playwright

    server = server_factory(web_dir=sdk_page_dir)
    wav = write_wav(tmp_path / "question.wav", speech.piper(QUESTION, rate=48000, lead_ms=1500, tail_ms=60_000),
                    48000)
    args = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--autoplay-policy=no-user-gesture-required",
            "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
            f"--use-file-for-fake-audio-capture={wav}"]
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, headless=True, args=args)
        try:
            page = browser.new_page()
            errors = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(server.url + "/")
            page.wait_for_function("window.sdkRun && window.sdkRun.status !== 'starting'", timeout=30_000)
            run = page.evaluate("window.sdkRun")
            assert run["status"] == "connected", run["errors"]
            assert run["callId"] == run["sessionId"]
            page.wait_for_function("window.sdkRun.toolResults.length > 0 && window.sdkRun.events.filter("
                                   "(t) => t === 'output_audio_buffer.stopped').length > 0", timeout=TURN_TIMEOUT_MS)
            page.wait_for_timeout(500)                  # the reply's last frames through the jitter buffer
            recording = page.evaluate("window.stopRecording()")
            run = page.evaluate("window.sdkRun")
        finally:
            browser.close()
    assert errors == [] and run["errors"] == []
    assert re.search(r"7|seven", run["toolCalls"][0].lower()) and re.search(r"6|six", run["toolCalls"][0].lower())
    assert run["toolResults"][0] == "42"
    events = run["events"]
    assert events[0] == "session.created" and "response.output_audio.delta" not in events
    assert events.index("response.function_call_arguments.done") < events.index("output_audio_buffer.started")
    heard = stt.transcribe(recorded_speech(recording))
    assert re.search(r"\b42\b|forty[\s-]two", heard.lower()), heard
