"""WebRTC calls (aiortc), in OpenAI's shapes: the browser's own Opus audio, echo cancellation and jitter buffer.

- `POST /v1/realtime/calls`: an SDP offer as `application/sdp` (with a client secret or the API key), or a
  multipart form of `sdp` and `session` (a session.update's session) -> 201, the SDP answer, and
  `Location: /v1/realtime/calls/{call_id}`.
- `POST /v1/live/sessions` (GPT-Live): `{session, transport: {type: "webrtc", sdp}}` -> 201,
  `{session: {id, ...}, transport: {type: "webrtc", sdp}}`; the call's first event is session.started.

The client's first data channel (`oai-events`) carries the Realtime events, through the same RealtimeLink
and RealtimeProtocol as the WebSocket. The microphone arrives as Opus on the call's audio track and is pushed
to the session at 48 kHz; replies go back as Opus, paced in 20 ms frames. A server can watch and steer a call
over `/v1/realtime?call_id=` (streaming.server). aiortc gathers every ICE candidate before it answers (no
trickle): host candidates, plus server-reflexive and relayed ones from --ice-servers.
"""
from __future__ import annotations

import asyncio
import os
import json
import logging
import random
import time
from dataclasses import dataclass
from fractions import Fraction

import aioice.stun
import av
from aiohttp import web
from aiortc import RTCConfiguration, RTCIceServer, RTCPeerConnection, RTCSessionDescription
from aiortc.codecs.opus import OpusEncoder
from aiortc.jitterbuffer import JitterFrame
from aiortc.mediastreams import MediaStreamError, MediaStreamTrack
from aiortc.rtp import RtpPacket
from aiortc.sdp import SessionDescription
from aiortc.utils import uint16_gt

from streaming.audio_pace import MAX_AUDIO_SPEED, AudioPace
from streaming import client_json
from streaming.server import CTX, MAX_CONFIG_BYTES, MAX_CONFIG_VALUES, ServerContext, _error_response, admit, json_body
from streaming.session import SessionLimitReached
from streaming.events import AudioDelta, AudioDone, Interrupted, ResponseDone
from streaming.transports.phone.calls import OutboundFrames
from streaming.transports.realtime import RealtimeProtocol
from streaming.transports.realtime_link import RealtimeLink

log = logging.getLogger("parley.webrtc")

RATE = 48000                    # Opus's clock; the session takes and gives PCM16 at this rate
FRAME_MS = 20
FRAME_SAMPLES = RATE * FRAME_MS // 1000
FRAME_BYTES = FRAME_SAMPLES * 2
SILENCE = bytes(FRAME_BYTES)
MAX_SDP_BYTES = 64 * 1024       # a browser's offer is ~5 kB
MAX_LIVE_BYTES = MAX_SDP_BYTES + MAX_CONFIG_BYTES     # a GPT-Live body: its offer and its session config
MAX_OFFER_CANDIDATES = 64       # a browser offers a few per network interface; each is sent connectivity checks
CONNECT_TIMEOUT_S = 30.0        # an answered call whose data channel has not opened by then is dropped
MAX_CHANNEL_BUFFER = 1024 * 1024    # bytes queued on the data channel for a client that does not read
MAX_INBOX = 256                 # client events received and not yet handled
CALLS = web.AppKey("webrtc_calls", set)    # the calls' tasks (asyncio keeps only weak references)
CALL_PATH = "/v1/realtime/calls/"
CONSENT_INTERVAL_S = 5.0        # RFC 7675: a consent check every 4 to 6 s...
CONSENT_TIMEOUT_S = 30.0        # ...and consent lasts 30 s from the last one answered
CONSENT_RETRANSMISSIONS = 3     # a check's answer counts if it comes within 0.5 + 1 + 2 + 4 = 7.5 s


# ---- the requests, without I/O ----------------------------------------------------------------------

class OfferError(Exception):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code, self.message = code, message


@dataclass(frozen=True)
class Offer:
    sdp: str
    session: dict | None        # session.update's `session`, applied before the first event is sent


def check_sdp(sdp) -> str:
    if not isinstance(sdp, str) or not sdp.strip():
        raise OfferError("invalid_sdp", "the body must be an SDP offer")
    if len(sdp) > MAX_SDP_BYTES:
        raise OfferError("invalid_sdp", f"an SDP offer may be at most {MAX_SDP_BYTES} bytes")
    if not sdp.startswith("v=0") or "\nm=audio " not in sdp:
        raise OfferError("invalid_sdp", "the SDP offer needs an audio track (m=audio); "
                         "the Realtime events ride a data channel (m=application) beside it")
    if sdp.count("\na=candidate:") > MAX_OFFER_CANDIDATES:
        raise OfferError("invalid_sdp", f"an SDP offer may list at most {MAX_OFFER_CANDIDATES} ICE candidates")
    return sdp


def session_field(value) -> dict | None:
    """The optional `session` of a call: a JSON object (as text in a form, as an object in JSON)."""
    if value is None:
        return None
    if isinstance(value, str):
        try:
            value = client_json.loads(value, MAX_CONFIG_BYTES, MAX_CONFIG_VALUES, "'session'")
        except (ValueError, RecursionError) as error:
            raise OfferError("invalid_session", f"'session' is not valid JSON: {error}") from None
    if not isinstance(value, dict):
        raise OfferError("invalid_session", "'session' must be an object, as in session.update")
    return value


def live_offer(body) -> Offer:
    """GPT-Live's `{session, transport: {type: "webrtc", sdp}}`."""
    if not isinstance(body, dict):
        raise OfferError("invalid_request", "the body must be a JSON object {session, transport}")
    transport = body.get("transport")
    if not isinstance(transport, dict) or transport.get("type") != "webrtc":
        raise OfferError("invalid_transport", "transport must be {type: 'webrtc', sdp: <offer>}")
    return Offer(check_sdp(transport.get("sdp")), session_field(body.get("session")))


def ice_servers(options) -> list[RTCIceServer]:
    """--ice-servers (stun:/turn: URLs), with --ice-username/--ice-credential for the TURN ones."""
    urls = [url.strip() for url in (getattr(options, "ice_servers", None) or "").split(",") if url.strip()]
    username, credential = getattr(options, "ice_username", None), getattr(options, "ice_credential", None)
    return [RTCIceServer(urls=url, username=username, credential=credential) if url.startswith("turn")
            else RTCIceServer(urls=url) for url in urls]


def mono_pcm16(frame: av.AudioFrame) -> bytes:
    """A decoded Opus frame (aiortc's: s16, one or two interleaved channels) as PCM16 mono."""
    samples = frame.to_ndarray().reshape(-1, frame.layout.nb_channels)
    if samples.shape[1] == 1:
        return samples.astype("<i2").tobytes()
    return samples.mean(axis=1).astype("<i2").tobytes()


class ArrivalBuffer:
    """The microphone's receive buffer: each packet goes to the decoder as it arrives. The microphone feeds turn
    detection and Whisper, not a loudspeaker, so there is no playout to smooth; and an Opus RTP packet is a whole
    frame (RFC 7587), so there is nothing to reassemble. aiortc's JitterBuffer calls a frame complete only when
    the next packet arrives, and by default hands it on 4 packets later (80 ms; 20 ms with prefetch 0). A packet
    older than the last one handed on comes too late for the turn detector and is dropped. Same interface as
    aiortc's JitterBuffer."""

    def __init__(self) -> None:
        self._last: int | None = None       # sequence number of the last packet handed on

    def add(self, packet: RtpPacket) -> tuple[bool, JitterFrame | None]:
        if self._last is not None and not uint16_gt(packet.sequence_number, self._last):
            return False, None
        self._last = packet.sequence_number
        return False, JitterFrame(data=packet._data, timestamp=packet.timestamp)


def low_delay_opus() -> OpusEncoder:
    """aiortc's Opus encoder in libopus's restricted low-delay mode: 2.5 ms of look-ahead instead of 6.5 ms
    (tests/test_webrtc_protocol.py measures both), at the same CPU cost; any Opus decoder plays it."""
    encoder = OpusEncoder()
    encoder.codec.options = {"application": "lowdelay"}
    return encoder


class Consent:
    """ICE consent freshness (RFC 7675) for one call: consent lasts CONSENT_TIMEOUT_S from the last check the
    client answered, however late the answer was read. aioice's own checks count a check failed when its answer
    is not read within 0.5 s and close after 6 in a row: a server whose event loop runs late reads the answers
    late (asyncio reads one datagram per socket per loop iteration, and they queue behind the call's RTP), so it
    hung up on clients that were answering."""

    def __init__(self, now: float) -> None:
        self.answered = now

    def receive_answer(self, now: float) -> None:
        self.answered = now

    def expired(self, now: float) -> bool:
        return now - self.answered >= CONSENT_TIMEOUT_S


# ---- I/O ---------------------------------------------------------------------------------------------

def within_receive_window(sctp, overrun) -> None:
    """aiortc reassembles a data-channel message whatever its size, though its answer allows 256 KiB and a receive
    window of 1 MiB: calls overrun() once a caller has sent past that window (a message of any size, or many
    unfinished ones), and reads none of its data after. Private, like the attributes used here, in aiortc 1.16
    (pinned)."""
    receive = sctp._receive_data_chunk

    async def receive_within_window(chunk) -> None:
        if sctp._advertised_rwnd >= 0:
            await receive(chunk)
        if sctp._advertised_rwnd < 0:
            overrun()

    sctp._receive_data_chunk = receive_within_window


class ReplyTrack(MediaStreamTrack):
    """The assistant's voice: reply audio in 20 ms frames at real-time pace, silence between replies. The
    session sends at most its playback lead ahead of the listener, which bounds the queue."""
    kind = "audio"

    def __init__(self) -> None:
        super().__init__()
        self.frames = OutboundFrames(FRAME_BYTES, bytes, b"\x00")
        self._started: float | None = None
        self._pts = 0

    async def recv(self) -> av.AudioFrame:
        if self.readyState != "live":
            raise MediaStreamError
        if self._started is None:
            self._started = time.monotonic()
        else:
            wait = self._started + self._pts / RATE - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
        out = self.frames.pop()
        frame = av.AudioFrame(format="s16", layout="mono", samples=FRAME_SAMPLES)
        frame.planes[0].update(out.data if out is not None else SILENCE)
        frame.pts, frame.sample_rate, frame.time_base = self._pts, RATE, Fraction(1, RATE)
        self._pts += FRAME_SAMPLES
        return frame


async def keep_consent(connection, call_id: str) -> None:
    """Parley's consent checks on a connected call's aioice Connection, in place of aioice's (private, like the
    attributes used here, in aioice 0.13.0, pinned): closes the connection, which ends the call, once consent
    has expired."""
    consent = Consent(time.monotonic())
    key = connection.remote_password.encode("utf8")
    while not consent.expired(time.monotonic()):
        await asyncio.sleep(CONSENT_INTERVAL_S * random.uniform(0.8, 1.2))
        for pair in list(connection._nominated.values()):
            try:
                await pair.protocol.request(connection.build_request(pair, nominate=False), pair.remote_addr,
                                            integrity_key=key, retransmissions=CONSENT_RETRANSMISSIONS)
                consent.receive_answer(time.monotonic())
            except aioice.stun.TransactionError:
                pass
    log.warning("webrtc %s: no consent check answered for %g s; hanging up", call_id, CONSENT_TIMEOUT_S)
    await connection.close()


class ChannelCarrier:
    """Server events over the call's data channel (see realtime_link.Carrier)."""

    def __init__(self, call: "Call", channel):
        self.call, self.channel = call, channel

    async def send(self, frame: str) -> bool:
        if self.channel.readyState != "open":
            return False
        if self.channel.bufferedAmount > MAX_CHANNEL_BUFFER:
            self.drop(f"{self.channel.bufferedAmount} bytes wait on the data channel")
            return False
        self.channel.send(frame)
        return True

    def drop(self, reason: str) -> None:
        log.warning("webrtc %s: %s; hanging up", self.call.id, reason)
        self.call.ctx.metrics.client_error("client_not_reading")
        self.call.ended.set()

    async def close(self, reason: str, going_away: bool) -> None:
        self.call.ended.set()


class Call:
    """One WebRTC call: the peer connection, its session behind a RealtimeLink, the reply track."""

    def __init__(self, ctx: ServerContext, session, protocol: RealtimeProtocol, offer: Offer):
        self.ctx, self.session, self.protocol, self.offer = ctx, session, protocol, offer
        self.id = session.id                    # one id: the Location, the sideband's call_id, session.id
        self.pc = RTCPeerConnection(RTCConfiguration(iceServers=ice_servers(ctx.config.options)))
        self.reply = ReplyTrack()
        self.link: RealtimeLink | None = None
        self.caller = None                      # the microphone's track, once the offer is applied
        self.channel_open = asyncio.Event()
        self.consent: list[asyncio.Task] = []   # keep_consent, one per ICE connection, from the moment it connects
        self.inbox: asyncio.Queue = asyncio.Queue(MAX_INBOX)    # client events from the data channel
        self.ended = asyncio.Event()
        self.pc.on("datachannel", self._on_channel)
        self.pc.on("track", self._on_track)
        self.pc.on("connectionstatechange", self._on_state)

    async def answer(self) -> str:
        await self.pc.setRemoteDescription(RTCSessionDescription(self.offer.sdp, "offer"))
        if self.pc.sctp is not None:
            within_receive_window(self.pc.sctp, self._window_overrun)
        for receiver in self.pc.getReceivers():
            if receiver.track.kind == "audio":     # aiortc 1.16 (pinned) keeps it private; no packet has come yet
                receiver._RTCRtpReceiver__jitter_buffer = ArrivalBuffer()
        reply = self.pc.addTrack(self.reply)
        await self.pc.setLocalDescription(await self.pc.createAnswer())     # gathers every candidate
        answer = self.pc.localDescription.sdp
        audio = next(media for media in SessionDescription.parse(answer).media if media.kind == "audio")
        if audio.rtp.codecs and audio.rtp.codecs[0].mimeType.lower() == "audio/opus":     # the codec it sends
            reply._RTCRtpSender__encoder = low_delay_opus()     # private too; aiortc makes it on the first frame
        return answer

    def _on_track(self, track) -> None:
        if track.kind == "audio" and self.caller is None:
            self.caller = track

    def _on_state(self) -> None:
        if self.pc.connectionState in ("failed", "closed"):
            self.ended.set()
        elif self.pc.connectionState == "connected" and not self.consent:
            ice = {transceiver.receiver.transport.transport for transceiver in self.pc.getTransceivers()}
            if self.pc.sctp is not None:
                ice.add(self.pc.sctp.transport.transport)
            for transport in ice:
                connection = transport._connection
                if connection._query_consent_task is not None:
                    connection._query_consent_task.cancel()
                self.consent.append(asyncio.create_task(keep_consent(connection, self.id),
                                                        name=f"{self.id}:webrtc-consent"))

    def _on_channel(self, channel) -> None:
        if self.link is not None:
            return                              # the first channel carries the events; others stay unused
        self.link = RealtimeLink(self.session, self.protocol, ChannelCarrier(self, channel), self._play)
        channel.on("message", self._on_message)
        channel.on("close", self.ended.set)
        if channel.readyState == "open":
            self.channel_open.set()
        else:
            channel.on("open", self.channel_open.set)

    def _on_message(self, message) -> None:
        try:
            self.inbox.put_nowait(message)
        except asyncio.QueueFull:
            log.warning("webrtc %s: %d client events wait; hanging up", self.id, MAX_INBOX)
            self.ctx.metrics.client_error("too_many_events")
            self.ended.set()

    def _window_overrun(self) -> None:
        if not self.ended.is_set():
            log.warning("webrtc %s: the caller sent past the data channel's receive window; hanging up", self.id)
            self.ctx.metrics.client_error("message_too_large")
            self.ended.set()

    def _play(self, event) -> None:
        """Session events for the audio track: replies play, a barge-in or a cancel stops them at once."""
        match event:
            case AudioDelta(pcm16=pcm16):
                self.reply.frames.audio(pcm16)
            case AudioDone():
                self.reply.frames.pad()
            case Interrupted():
                self.reply.frames.clear()
            case ResponseDone(status=status) if status != "completed":
                self.reply.frames.clear()

    async def run(self) -> None:
        """The call from its answer to its end; every task it starts ends with it, and so does the session."""
        tasks: list[asyncio.Task] = []
        try:
            async with asyncio.timeout(CONNECT_TIMEOUT_S):
                await self.channel_open.wait()
            await self.link.open()
            if self.offer.session is not None:
                await self.link.receive(json.dumps({"type": "session.update", "session": self.offer.session}))
                await self.link.flush()
            self.ctx.calls[self.id] = self.link
            name = self.session.id
            tasks = [asyncio.create_task(self.link.forward(), name=f"{name}:webrtc-events"),
                     asyncio.create_task(self._read(), name=f"{name}:webrtc-read"),
                     asyncio.create_task(self.ended.wait(), name=f"{name}:webrtc-ended")]
            if self.caller is not None:
                tasks.append(asyncio.create_task(self._hear(), name=f"{name}:webrtc-audio"))
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            log.info("webrtc %s: ends (%s; peer connection %s)", self.id,
                     ", ".join(task.get_name().rsplit(":", 1)[-1] for task in done), self.pc.connectionState)
            for task in done:
                if not task.cancelled() and task.exception() is not None:
                    log.error("webrtc %s: %s failed", self.id, task.get_name(), exc_info=task.exception())
        except TimeoutError:
            log.warning("webrtc %s: the data channel did not open within %g s; hanging up", self.id,
                        CONNECT_TIMEOUT_S)
        finally:
            for task in tasks + self.consent:
                task.cancel()
            await asyncio.gather(*tasks, *self.consent, return_exceptions=True)
            self.ctx.calls.pop(self.id, None)
            await self.ctx.end_session(self.session)
            if self.link is not None:
                for watcher in list(self.link.watchers):
                    await watcher.close("call_ended", False)
            self.reply.stop()
            await self.pc.close()

    async def _read(self) -> None:
        while True:
            await self.link.receive(await self.inbox.get())
            await self.link.flush()

    async def _hear(self) -> None:
        pace = AudioPace()
        while True:
            try:
                frame = await self.caller.recv()
            except MediaStreamError:
                return
            if not pace.admit(frame.samples / frame.sample_rate):    # not a microphone: each frame would run the VAD
                log.warning("webrtc %s: caller audio came faster than %gx real time; hanging up", self.id,
                            MAX_AUDIO_SPEED)
                self.ctx.metrics.client_error("audio_too_fast")
                return
            self.session.push_audio(mono_pcm16(frame))


async def realtime_call(request: web.Request) -> web.Response:
    """POST /v1/realtime/calls."""
    try:
        if request.content_type in ("multipart/form-data", "application/x-www-form-urlencoded"):
            form = await request.post()
            offer = Offer(check_sdp(form.get("sdp")), session_field(form.get("session")))
        else:
            offer = Offer(check_sdp(await request.text()), None)
    except OfferError as error:
        return _error_response(400, error.code, error.message)
    except client_json.JsonRefused as refused:
        return _error_response(413, "body_too_large", str(refused))
    except ValueError as error:     # a body that is not text, or a form over the size limit
        return _error_response(400, "invalid_request", str(error))
    return await _start_call(request, offer, live=False)


async def live_session(request: web.Request) -> web.Response:
    """POST /v1/live/sessions."""
    try:
        offer = live_offer(await json_body(request, MAX_LIVE_BYTES))
    except OfferError as error:
        return _error_response(400, error.code, error.message)
    except client_json.JsonRefused as refused:
        return _error_response(413, "body_too_large", str(refused))
    except (ValueError, RecursionError) as error:
        return _error_response(400, "invalid_json", f"the body is not valid JSON: {error}")
    return await _start_call(request, offer, live=True)


async def _start_call(request: web.Request, offer: Offer, *, live: bool) -> web.Response:
    refusal, history = await admit(request)                     # ?session_id= resumes, as on the WebSocket
    if refusal is not None:
        return refusal
    ctx = request.app[CTX]
    principal, resume = ctx.principal, request.query.get("session_id")
    try:
        session = ctx.new_session(ctx.config.session_defaults(input_rate=RATE, output_rate=RATE),
                                  transport="webrtc", principal=principal,
                                  session_id=resume if history is not None else None, history=history)
    except SessionLimitReached:
        return ctx.session_limit_response()
    protocol = RealtimeProtocol(session_id=session.id, model=request.query.get("model") or ctx.config.model,
                                defaults=session.config, max_message_bytes=ctx.config.max_message_bytes,
                                on_client_error=ctx.metrics.client_error, media_rate=RATE,
                                live=live)
    protocol.restore(session.history())
    call = Call(ctx, session, protocol, offer)
    try:
        sdp = await call.answer()
    except Exception as error:  # noqa: BLE001 - aiortc raises many kinds on an offer it cannot take
        await call.pc.close()
        await ctx.end_session(session)
        return _error_response(400, "invalid_sdp", f"the SDP offer could not be answered: {error}")
    calls = request.app[CALLS]
    task = asyncio.create_task(call.run(), name=f"{session.id}:webrtc")
    calls.add((call, task))
    task.add_done_callback(lambda _: calls.discard((call, task)))
    location = CALL_PATH + call.id
    if live:
        body = {"session": protocol.session_object(), "transport": {"type": "webrtc", "sdp": sdp}}
        return web.json_response(body, status=201, headers={"Location": f"/v1/live/sessions/{call.id}"})
    return web.Response(status=201, text=sdp, content_type="application/sdp", headers={"Location": location})


def add_arguments(parser) -> None:
    parser.add_argument("--ice-servers", default=os.environ.get("PARLEY_ICE_SERVERS", ""),
                        help="comma-separated STUN/TURN URLs for WebRTC calls (stun:host:3478, turn:host:3478?"
                             "transport=udp); default none: host candidates only")
    parser.add_argument("--ice-username", default=os.environ.get("PARLEY_ICE_USERNAME"),
                        help="username for the TURN servers in --ice-servers")
    parser.add_argument("--ice-credential", default=os.environ.get("PARLEY_ICE_CREDENTIAL"),
                        help="credential for the TURN servers in --ice-servers")


def setup(app: web.Application, ctx: ServerContext) -> None:
    app[CALLS] = set()
    app.router.add_post("/v1/realtime/calls", realtime_call)
    app.router.add_post("/v1/live/sessions", live_session)
    app.on_shutdown.append(_hang_up_all)


async def _hang_up_all(app: web.Application) -> None:
    calls = list(app[CALLS])
    for call, _ in calls:
        call.ended.set()
    await asyncio.gather(*(task for _, task in calls), return_exceptions=True)
