"""The browser page (web/) in a real headless Chromium against the live server: speak, hear, interrupt,
type, lose the server and get it back. The page calls over WebRTC by default; `?transport=websocket` is its
fallback, tested here too.

Chromium's fake microphone plays a WAV of a spoken request (Piper, the embedded voice) from the moment the
page opens the microphone, and loops it; each WAV ends in long silence, so a test hears its request once.
Assertions read the page's own state (`window.parley`) and what it shows.
"""
import math
import re
import shutil
import wave
from pathlib import Path

import pytest

from server_process import free_port

pytestmark = pytest.mark.browser

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
STATE = "window.parley"
DESKTOP = {"width": 1100, "height": 760}
PHONE = {"width": 390, "height": 844}
REQUEST = "Turn on the kitchen lights."
TURN_TIMEOUT_MS = 45_000   # speech -> transcript -> reply -> played out, on a busy 2-core CI machine

# A reply that finished: completed, and every received sample played out.
PLAYED_TURN = (f"{STATE}.turns.find(t => t.status === 'completed' && t.receivedMs > 0 "
               "&& t.playedMs >= t.receivedMs - 1)")


def write_wav(path: Path, pcm16: bytes, rate: int) -> Path:
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(pcm16)
    return path


@pytest.fixture(scope="module")
def request_wav(speech, tmp_path_factory):
    """The request after half a second of silence, then 40 s of silence (longer than any test)."""
    path = tmp_path_factory.mktemp("browser") / "request.wav"
    return write_wav(path, speech.piper(REQUEST, rate=48000, lead_ms=500, tail_ms=40_000), 48000)


@pytest.fixture(scope="module")
def chromium():
    if not Path(CHROMIUM).exists():
        pytest.fail("chromium is not installed (run `make system-deps`)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        yield driver.chromium


class Browser:
    """One Chromium with a fresh profile whose fake microphone plays `wav`; records the page's JS errors."""

    def __init__(self, chromium, profile: Path, wav: Path | None, microphone_allowed: bool, fake_devices: bool):
        args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--autoplay-policy=no-user-gesture-required"]
        if fake_devices:
            args.append("--use-fake-device-for-media-stream")
        if microphone_allowed:
            args.append("--use-fake-ui-for-media-stream")   # grant the permission prompt
        if wav is not None:
            args.append(f"--use-file-for-fake-audio-capture={wav}")
        self.context = chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, headless=True, args=args, viewport=DESKTOP)
        self.page = self.context.pages[0] if self.context.pages else self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))

    def open(self, url: str):
        self.page.goto(url)
        self.page.wait_for_function(f"{STATE} && {STATE}.connection === 'open'", timeout=15_000)
        return self.page


@pytest.fixture
def browser(chromium, tmp_path):
    """browser(wav=None, microphone_allowed=True, fake_devices=True) -> Browser; all closed after the test,
    JS errors fail it."""
    opened: list[Browser] = []

    def launch(wav: Path | None = None, microphone_allowed: bool = True, fake_devices: bool = True) -> Browser:
        b = Browser(chromium, tmp_path / f"profile-{len(opened)}", wav, microphone_allowed, fake_devices)
        opened.append(b)
        return b

    yield launch
    for b in opened:
        b.context.close()
    assert [e for b in opened for e in b.errors] == []


def state(page, expression: str):
    return page.evaluate(f"{STATE}.{expression}")


def screenshot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name))


MIC_WORKLET_ON_A_TONE = """async ([frequency, rate]) => {
  const ctx = new OfflineAudioContext(1, rate, rate);              // one second at the device's rate
  await ctx.audioWorklet.addModule('/mic-worklet.js');
  const mic = new AudioWorkletNode(ctx, 'parley-mic', {numberOfOutputs: 0});
  const chunks = [], levels = [];
  mic.port.onmessage = (e) => { chunks.push(new Int16Array(e.data.pcm)); levels.push(e.data.level); };
  const tone = new OscillatorNode(ctx, {frequency});
  tone.connect(new GainNode(ctx, {gain: 0.5})).connect(mic);
  tone.start();
  await ctx.startRendering();
  await new Promise((resolve) => setTimeout(resolve, 100));        // the last chunks' messages
  const pcm = chunks.flatMap((c) => Array.from(c)).slice(480);     // past the filter's start-up
  const rms = Math.sqrt(pcm.reduce((sum, x) => sum + (x / 32768) ** 2, 0) / pcm.length);
  let crossings = 0;
  for (let i = 1; i < pcm.length; i++) if ((pcm[i - 1] < 0) !== (pcm[i] < 0)) crossings++;
  return {chunkSizes: [...new Set(chunks.map((c) => c.length))], samples: chunks.length * 480, rms,
          frequency: crossings / 2 / (pcm.length / 24000), level: levels[levels.length - 1]};
}"""


@pytest.mark.parametrize("device_rate", [48000, 44100])
def test_microphone_worklet_resamples_to_24k_pcm16(browser, live_server, device_rate):
    page = browser().open(live_server.url)
    tone = page.evaluate(MIC_WORKLET_ON_A_TONE, [1000, device_rate])
    assert tone["chunkSizes"] == [480] and tone["samples"] == 24000     # 20 ms chunks, 24 kHz
    assert tone["frequency"] == pytest.approx(1000, rel=0.01)
    assert tone["rms"] == pytest.approx(0.5 / 2 ** 0.5, rel=0.02)      # a sine at half scale
    assert tone["level"] == pytest.approx((20 * math.log10(0.5 / 2 ** 0.5) + 60) / 60, abs=0.01)
    alias = page.evaluate(MIC_WORKLET_ON_A_TONE, [18000, device_rate])  # above 24 kHz's Nyquist
    assert alias["rms"] < 0.001                                          # filtered out, not folded to 6 kHz


@pytest.mark.parametrize("transport", ["webrtc", "websocket"])
def test_spoken_request_is_transcribed_answered_and_played(browser, live_server, request_wav, needs_assistant,
                                                           transport):
    page = browser(request_wav).open(live_server.url + ("/?transport=websocket" if transport == "websocket" else ""))
    assert state(page, "transport") == transport
    assert page.locator("#connection").inner_text() == "Connected · " + {"webrtc": "WebRTC",
                                                                         "websocket": "WebSocket"}[transport]
    page.click("#mic")
    page.wait_for_function(PLAYED_TURN, timeout=TURN_TIMEOUT_MS)

    settings = state(page, "mic.settings")
    assert settings["echoCancellation"] and settings["noiseSuppression"] and settings["autoGainControl"]
    assert state(page, "mic.sentMs") > 1000
    assert state(page, "mic.peakLevel") > 0.5                          # the level meter moved while we spoke

    heard = page.locator(".msg-user:not(.partial) .text").first.inner_text()
    assert "kitchen" in heard.lower()
    turn = page.evaluate(PLAYED_TURN)
    assert turn, page.evaluate(f"JSON.stringify([{STATE}.turns, {STATE}.events, {STATE}.bargeIns])")
    assert turn["text"].strip()
    assert page.locator(".msg-assistant .text").first.inner_text().strip() == turn["text"].strip()
    assert turn["playedMs"] > 300                                        # the reply was heard, not just received
    assert turn["voiceToVoiceMs"] > 0
    assert float(turn["server"]["voice_to_voice_ms"]) > 0                # the server's stage breakdown
    latency = page.locator(".msg-assistant .latency").first.inner_text()
    assert re.search(r"voice→voice \d+ ms", latency) and "server:" in latency
    assert "end-of-turn" in latency and "end_of_speech" not in latency   # the named stages, not the moments

    if transport == "webrtc":
        assert turn["soundHeard"]                                        # v2v ends at the sound, past the jitter buffer
        assert state(page, "peer") == "connected"
        assert state(page, "events['response.output_audio.delta']") is None   # the reply came on the track
        assert state(page, "events['output_audio_buffer.stopped']") >= 1
        return
    screenshot(page, "browser-voice-desktop.png")
    page.set_viewport_size(PHONE)
    screenshot(page, "browser-voice-phone.png")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]   # no sideways scrolling


def test_text_fallback_gets_a_spoken_reply(browser, live_server, needs_assistant):
    page = browser().open(live_server.url)
    page.fill("#text", "turn off the bedroom light")
    page.press("#text", "Enter")
    page.wait_for_function(PLAYED_TURN, timeout=TURN_TIMEOUT_MS)

    assert page.locator(".msg-user.typed .text").inner_text() == "turn off the bedroom light"
    turn = page.evaluate(PLAYED_TURN)
    assert turn["text"].strip() and turn["playedMs"] > 300
    assert "text→voice" in page.locator(".msg-assistant .latency").first.inner_text()
    assert page.locator(".msg-assistant .tool").count() == len(turn["tools"])
    assert state(page, "mic.status") == "off"                        # typing never needed the microphone


def test_speaking_over_the_reply_stops_playback_over_webrtc(browser, live_server, speech, tmp_path,
                                                             needs_assistant):
    """Barge-in over WebRTC: the server hears the user over its own reply, stops its track at once
    (output_audio_buffer.cleared) and keeps in the history what was heard; the page shows the reply cut."""
    wav = write_wav(tmp_path / "interrupt.wav", speech.piper("Stop.", rate=48000, lead_ms=300, tail_ms=40_000), 48000)
    page = browser(wav).open(live_server.url)
    page.fill("#text", "what is the temperature in the living room")
    page.press("#text", "Enter")
    page.wait_for_function(f"{STATE}.playback.playing && {STATE}.turns[0].playedMs === 0", timeout=TURN_TIMEOUT_MS)
    page.click("#mic")                                 # the fake microphone starts speaking 0.3 s from now
    page.wait_for_function(f"{STATE}.bargeIns.length > 0", timeout=TURN_TIMEOUT_MS)
    page.wait_for_function(f"{STATE}.events['output_audio_buffer.cleared'] > 0", timeout=10_000)

    barge_in = state(page, "bargeIns[0]")
    assert barge_in["reason"] == "speech" and barge_in["playedMs"] > 0
    assert not state(page, "playback.playing")
    page.wait_for_function(f"{STATE}.turns[0].status === 'cancelled'", timeout=10_000)
    assert state(page, "truncates") == []              # the server knows what was heard: nothing to tell it
    assert state(page, "errors") == []
    assert page.locator(".msg-assistant.interrupted").count() == 1


def test_speaking_over_the_reply_stops_playback(browser, live_server, speech, tmp_path, needs_assistant):
    """Barge-in on the WebSocket fallback: the reply is playing when the user starts talking; the page drops
    the queued audio at once and tells the server how much was heard (conversation.item.truncate)."""
    wav = write_wav(tmp_path / "interrupt.wav", speech.piper("Stop.", rate=48000, lead_ms=300, tail_ms=40_000), 48000)
    page = browser(wav).open(live_server.url + "/?transport=websocket")
    page.fill("#text", "what is the temperature in the living room")
    page.press("#text", "Enter")
    page.wait_for_function(f"{STATE}.playback.playing && {STATE}.turns[0].playedMs === 0", timeout=TURN_TIMEOUT_MS)
    page.click("#mic")                                 # the fake microphone starts speaking 0.3 s from now
    page.wait_for_function(f"{STATE}.bargeIns.length > 0", timeout=TURN_TIMEOUT_MS)

    barge_in = state(page, "bargeIns[0]")
    assert barge_in["reason"] == "speech"
    assert not state(page, "playback.playing") and state(page, "playback.queuedMs") == 0
    truncate = state(page, "truncates[0]")
    assert truncate["item_id"] == barge_in["item"] and truncate["audio_end_ms"] == barge_in["playedMs"]
    first = state(page, "turns[0]")
    assert 0 < first["playedMs"] < first["receivedMs"] or first["status"] == "cancelled"
    page.wait_for_function(f"{STATE}.events['conversation.item.truncated'] > 0", timeout=10_000)
    assert state(page, "errors") == []                 # the server accepted the truncate
    assert page.locator(".msg-assistant.interrupted").count() == 1


def test_push_to_talk_with_the_space_bar(browser, live_server, request_wav, needs_assistant):
    page = browser(request_wav).open(live_server.url)
    page.check("input[value=ptt]")                     # opens the microphone: the request starts 0.5 s later
    page.wait_for_function(f"{STATE}.mic.status === 'on'")
    page.focus("#transcript")
    page.keyboard.down("Space")
    page.wait_for_timeout(2600)                        # hold while the request is spoken
    page.keyboard.up("Space")
    page.wait_for_function(PLAYED_TURN, timeout=TURN_TIMEOUT_MS)

    assert state(page, "events['input_audio_buffer.speech_started']") is None   # no server VAD in this mode
    assert state(page, "events['input_audio_buffer.committed']") == 1
    assert "kitchen" in page.locator(".msg-user:not(.partial) .text").first.inner_text().lower()


def test_microphone_permission_denied_is_explained(browser, live_server):
    page = browser(microphone_allowed=False).open(live_server.url)
    page.click("#mic")
    page.wait_for_function(f"{STATE}.mic.status === 'denied'")
    assert "permission was denied" in page.locator(".notice-mic").inner_text()
    assert page.locator("#text").is_enabled()         # typing still works


def test_missing_microphone_is_explained(browser, live_server):
    page = browser(fake_devices=False).open(live_server.url)
    inputs = page.evaluate("async () => (await navigator.mediaDevices.enumerateDevices())"
                           ".filter((d) => d.kind === 'audioinput').length")
    if inputs:
        pytest.skip("this machine has a real microphone")
    page.click("#mic")
    page.wait_for_function(f"{STATE}.mic.status === 'missing'")
    assert "No microphone was found" in page.locator(".notice-mic").inner_text()


def test_server_error_event_is_shown(browser, live_server):
    page = browser().open(live_server.url)
    page.evaluate(f"{STATE}.send({{type: 'no.such.event'}})")
    notice = page.locator(".notice-server")
    notice.wait_for()
    assert "unknown_event" in notice.inner_text()
    assert state(page, "errors[0].code") == "unknown_event"
    assert state(page, "connection") == "open"                 # a bad event does not end the session


def test_lost_server_is_shown_and_the_page_reconnects(browser, server_factory):
    port = free_port()
    server = server_factory(port=port)
    page = browser().open(server.url)
    server.stop()
    page.wait_for_function(f"{STATE}.connection !== 'open'", timeout=10_000)
    notice = page.locator(".notice-connection")
    notice.wait_for()
    assert "lost" in notice.inner_text()
    assert page.locator("#connection").inner_text() != "Connected"
    screenshot(page, "browser-server-lost.png")

    server_factory(port=port)                          # the server comes back on the same port
    page.wait_for_function(f"{STATE}.connection === 'open' && {STATE}.connects === 2", timeout=20_000)
    assert page.locator(".notice-connection").count() == 0
    assert page.locator(".divider").inner_text().startswith("Reconnected")


@pytest.mark.parametrize("api_key", [None, "test-key-123"])
def test_the_conversation_survives_a_reconnect(browser, server_factory, needs_assistant, tmp_path, api_key):
    """The page resumes its session (?session_id=) on the restarted server, so a follow-up still means what it
    meant before the drop; with an API key, on a client secret minted for that session."""
    port, store = free_port(), f"sqlite://{tmp_path}/state.db"
    server = server_factory(port=port, store=store, api_key=api_key)
    page = browser().page
    page.goto(server.url)
    if api_key is not None:
        page.fill("#api-key", api_key)
        page.press("#api-key", "Enter")
    page.wait_for_function(f"{STATE} && {STATE}.connection === 'open'", timeout=15_000)
    page.fill("#text", "turn on the kitchen light")
    page.press("#text", "Enter")
    page.wait_for_function(PLAYED_TURN, timeout=TURN_TIMEOUT_MS)
    session_id = state(page, "sessionId")
    server.stop()
    page.wait_for_function(f"{STATE}.connection !== 'open'", timeout=10_000)
    server_factory(port=port, store=store, api_key=api_key)
    page.wait_for_function(f"{STATE}.connection === 'open' && {STATE}.connects === 2", timeout=20_000)
    assert page.locator(".divider").inner_text() == "Reconnected — conversation resumed"
    assert state(page, "sessionId") == session_id

    page.fill("#text", "and in the bedroom")
    page.press("#text", "Enter")
    page.wait_for_function(f"{STATE}.turns.filter(t => t.status === 'completed').length === 2",
                           timeout=TURN_TIMEOUT_MS)
    follow_up = page.evaluate(f"{STATE}.turns[1].text").lower()
    assert "bedroom light" in follow_up, follow_up      # without the history it is not about the light


def test_server_with_api_key_gets_a_client_token(browser, server_factory):
    server = server_factory(api_key="test-key-123")
    b = browser()
    calls = []
    b.page.on("request", lambda request: "/v1/realtime/calls" in request.url and calls.append(request.headers))
    b.page.goto(server.url)
    b.page.locator("#key-form").wait_for()
    assert "requires an API key" in b.page.locator("#key-form label").inner_text()
    b.page.fill("#api-key", "test-key-123")
    b.page.press("#api-key", "Enter")
    b.page.wait_for_function(f"{STATE}.connection === 'open'", timeout=15_000)
    assert server.ctx.spent_secrets                     # connected with a short-lived token, spent on use...
    assert calls and all(headers["authorization"].startswith("Bearer ek_") for headers in calls)   # ...never the key
