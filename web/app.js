// Parley voice chat: a reference browser client for the OpenAI Realtime protocol (GA event names).
// WebRTC by default: the microphone (with the browser's echo cancellation and noise suppression) and the
// reply travel as Opus on one peer connection, the events on its `oai-events` data channel; the server
// stops the reply at a barge-in. Fallback (?transport=websocket, or no WebRTC in the browser or server):
// microphone -> AudioWorklet (24 kHz PCM16) -> input_audio_buffer.append over /v1/realtime;
// reply audio -> AudioWorklet player with a jitter buffer; barge-in flushes it and reports what played.

const RATE = 24000; // session audio rate, both directions
const samplesToMs = (samples) => samples / (RATE / 1000);
const JITTER_MS = 80; // audio queued before playback starts; absorbs network bursts
const MIN_COMMIT_MS = 100; // the protocol rejects committing less audio than this
const RECONNECT_DELAYS_S = [0.5, 1, 2, 4, 8]; // then stays at the last one
const WEBRTC_CONNECT_S = 10; // a call whose data channel is not open by then falls back to the WebSocket
const TRACK_LAG_MS = 200; // push to talk over WebRTC: the microphone stays on this long after the release

// Hands-free turn detection when the server's default is manual commit (Realtime's defaults).
const VAD = {
  type: "server_vad",
  threshold: 0.5,
  prefix_padding_ms: 300,
  silence_duration_ms: 500,
  create_response: true,
  interrupt_response: true,
};

// Everything the page knows, readable by tests and curious developers as `window.parley`.
const state = {
  connection: "connecting", // connecting | open | reconnecting
  transport: new URLSearchParams(location.search).get("transport") === "websocket" || !window.RTCPeerConnection
    ? "websocket" : "webrtc",
  peer: null, // the WebRTC peer connection's state: new | connecting | connected | disconnected | failed | closed
  connects: 0, // sessions opened (session.created received)
  sessionId: null,
  mode: "vad", // vad (hands-free) | ptt (push to talk)
  mic: { status: "off", level: 0, peakLevel: 0, sentMs: 0, settings: null }, // status: off | starting | on | denied | missing | unsupported | error
  playback: { playing: false, playedMs: 0, queuedMs: 0, receivedMs: 0, underruns: 0, items: 0, flushes: 0 },
  bargeIns: [], // {reason, item, playedMs, droppedMs}
  truncates: [], // conversation.item.truncate events sent
  turns: [], // {responseId, status, text, tools, receivedMs, playedMs, voiceToVoiceMs, server}
  lastLatency: null, // {voiceToVoiceMs, server}
  errors: [], // server error events: {type, code, message}
  notices: {}, // key -> text currently shown
  events: {}, // server event type -> count
};
window.parley = state;

const $ = (id) => document.getElementById(id);
const ui = {
  connection: $("connection"),
  notices: $("notices"),
  transcript: $("transcript"),
  hint: $("hint"),
  mic: $("mic"),
  micState: $("mic-state"),
  meter: document.querySelector(".meter"),
  meterFill: $("meter-fill"),
  form: $("text-form"),
  text: $("text"),
  keyForm: $("key-form"),
  key: $("api-key"),
};

// ---------------------------------------------------------------- notices

const NOTICE_ORDER = ["connection", "mic", "server"];

function setNotice(key, text, action) {
  if (text) state.notices[key] = { text, action };
  else delete state.notices[key];
  ui.notices.replaceChildren();
  for (const k of NOTICE_ORDER) {
    const notice = state.notices[k];
    if (!notice) continue;
    const row = document.createElement("div");
    row.className = `notice notice-${k}`;
    row.dataset.kind = k;
    const p = document.createElement("p");
    p.textContent = notice.text;
    row.append(p);
    if (notice.action) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = notice.action.label;
      button.addEventListener("click", notice.action.run);
      row.append(button);
    }
    const close = document.createElement("button");
    close.type = "button";
    close.className = "notice-close";
    close.setAttribute("aria-label", "Dismiss message");
    close.textContent = "×";
    close.addEventListener("click", () => setNotice(k, null));
    row.append(close);
    ui.notices.append(row);
  }
}

// ---------------------------------------------------------------- transcript

const userBubbles = new Map(); // user item_id -> bubble
const replies = new Map(); // response_id -> reply record
const itemReplies = new Map(); // assistant item_id -> response_id
const toolChips = new Map(); // call_id -> chip element

function bubble(role, text) {
  ui.hint.hidden = true;
  const el = document.createElement("article");
  el.className = `msg msg-${role}`;
  const label = document.createElement("h2");
  label.className = "visually-hidden";
  label.textContent = role === "user" ? "You said" : "Parley said";
  const body = document.createElement("p");
  body.className = "text";
  body.textContent = text || "";
  el.append(label, body);
  ui.transcript.append(el);
  scrollDown();
  return el;
}

function divider(text) {
  const el = document.createElement("p");
  el.className = "divider";
  el.textContent = text;
  ui.transcript.append(el);
  scrollDown();
}

function scrollDown() {
  ui.transcript.scrollTop = ui.transcript.scrollHeight;
}

function userBubble(itemId) {
  let el = userBubbles.get(itemId);
  if (!el) {
    el = bubble("user", "…");
    el.classList.add("partial");
    el.dataset.item = itemId;
    userBubbles.set(itemId, el);
  }
  return el;
}

function setText(el, text, partial) {
  el.querySelector(".text").textContent = text;
  el.classList.toggle("partial", partial);
  scrollDown();
}

function reply(responseId) {
  let r = replies.get(responseId);
  if (!r) {
    const el = bubble("assistant", "");
    el.classList.add("partial");
    el.dataset.response = responseId;
    const tools = document.createElement("ul");
    tools.className = "tools";
    tools.setAttribute("aria-label", "Actions");
    const latency = document.createElement("p");
    latency.className = "latency";
    el.querySelector(".text").before(tools);
    el.append(latency);
    // turn: what state.turns shows; the rest is the page's own bookkeeping for this reply.
    const turn = { responseId, status: "in_progress", text: "", tools: [], receivedMs: 0, playedMs: 0, voiceToVoiceMs: null, server: null };
    r = { el, start: null, startKind: null, firstSound: null, audioStart: null, itemId: null, turn };
    state.turns.push(turn);
    replies.set(responseId, r);
  }
  return r;
}

function appendReplyText(r, delta) {
  r.turn.text += delta;
  setText(r.el, r.turn.text, true);
}

function formatArgs(json) {
  try {
    const args = JSON.parse(json || "{}");
    return Object.entries(args)
      .map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`)
      .join(", ");
  } catch {
    return json || "";
  }
}

function toolChip(responseId, callId, name) {
  let chip = toolChips.get(callId);
  if (!chip) {
    chip = document.createElement("li");
    chip.className = "tool";
    chip.dataset.call = callId;
    chip.innerHTML = '<span class="tool-name"></span>(<span class="tool-args"></span>)<span class="tool-result"></span>';
    const r = reply(responseId);
    r.el.querySelector(".tools").append(chip);
    r.turn.tools.push(callId);
    toolChips.set(callId, chip);
  }
  if (name) chip.querySelector(".tool-name").textContent = name;
  return chip;
}

function showToolCall(responseId, callId, name, argumentsJson) {
  toolChip(responseId, callId, name).querySelector(".tool-args").textContent = formatArgs(argumentsJson);
}

function showLatency(r) {
  const parts = [];
  if (r.turn.voiceToVoiceMs != null) {
    parts.push(`${r.startKind === "text" ? "text→voice" : "voice→voice"} ${Math.round(r.turn.voiceToVoiceMs)} ms`);
  }
  if (r.turn.server) {
    const stages = Object.entries(r.turn.server).filter(([k]) => k in STAGE_LABELS)
      .map(([k, v]) => `${STAGE_LABELS[k]} ${Math.round(v)}`);
    if (stages.length) parts.push(`server: ${stages.join(" · ")} ms`);
  }
  const el = r.el.querySelector(".latency");
  el.textContent = parts.join("  |  ");
  el.title = "voice→voice: end of your speech to the first reply sound, measured on this page (includes output latency)";
  state.lastLatency = { voiceToVoiceMs: r.turn.voiceToVoiceMs, server: r.turn.server };
}

// Short names for the server's stage timings (response.done metadata, see streaming/session.py); the page
// shows these stages only, not the moments after the end of speech (end_of_speech_to_pause_transcript_ms ...)
// that bench/latency.py tabulates.
const STAGE_LABELS = {
  end_of_speech_to_vad_ms: "end-of-turn",
  vad_to_transcript_ms: "stt",
  transcript_to_first_block_ms: "llm",
  request_to_first_block_ms: "llm",
  first_block_to_first_audio_ms: "tts",
  voice_to_voice_ms: "total",
  request_to_first_audio_ms: "total",
};

// Stage timings from response.done: `response.metadata` entries named `<stage>_ms` (string values, as
// OpenAI's metadata is string -> string).
function serverTiming(response) {
  const stages = {};
  for (const [key, value] of Object.entries(response.metadata || {})) {
    const ms = Number(value);
    if (key.endsWith("_ms") && value !== "" && Number.isFinite(ms)) stages[key] = ms;
  }
  return Object.keys(stages).length ? stages : null;
}

// ---------------------------------------------------------------- audio out

let player = null; // {ctx, node, ready}: node is null until `ready` (the worklet module loaded) resolves
const droppedItems = new Set(); // assistant items interrupted: late deltas for them are ignored
const drainedItems = new Set(); // assistant items played to their end
let lastAudioItem = null; // the assistant item whose audio arrived last
let playingReply = null; // over WebRTC: the response whose audio the server's track plays
const pendingFlushes = []; // resolvers waiting for the worklet's flush reports, in order

// The WebSocket's reply player; over WebRTC the call's audio element plays instead (the user gesture that
// would start the player lets that element play).
async function ensurePlayer() {
  if (state.transport === "webrtc") {
    if (remoteAudioElement) remoteAudioElement.play().catch(() => {});
    if (replyListener && replyListener.ctx.state === "suspended") replyListener.ctx.resume();
    return null;
  }
  if (player) {
    if (player.ctx.state === "suspended") await player.ctx.resume();
    return player;
  }
  const ctx = new AudioContext({ sampleRate: RATE, latencyHint: "interactive" });
  player = { ctx, node: null, ready: null };
  player.ready = (async () => {
    await ctx.audioWorklet.addModule(new URL("player-worklet.js", import.meta.url));
    const node = new AudioWorkletNode(ctx, "parley-player", {
      numberOfInputs: 0,
      outputChannelCount: [1],
      processorOptions: { jitterMs: JITTER_MS },
    });
    node.port.onmessage = (event) => onPlayerMessage(event.data);
    node.connect(ctx.destination);
    player.node = node;
  })();
  await player.ready;
  if (ctx.state === "suspended") await ctx.resume();
  return player;
}

function onPlayerMessage(m) {
  const pb = state.playback;
  if (m.type === "progress") {
    pb.playing = m.playing;
    pb.playedMs = samplesToMs(m.playedSamples);
    pb.queuedMs = samplesToMs(m.queuedSamples);
    pb.underruns = m.underruns;
  } else if (m.type === "started") {
    pb.playing = true;
    pb.items += 1;
    const r = replies.get(itemReplies.get(m.item));
    if (r && r.firstSound == null) {
      r.firstSound = performance.now();
      if (r.start != null) {
        const outputLatency = (player.ctx.outputLatency || player.ctx.baseLatency || 0) * 1000;
        r.turn.voiceToVoiceMs = r.firstSound - r.start + outputLatency;
      }
      showLatency(r);
    }
  } else if (m.type === "drained") {
    drainedItems.add(m.item);
    const r = replies.get(itemReplies.get(m.item));
    if (r) r.turn.playedMs = samplesToMs(m.itemPlayedSamples);
    pb.playing = false;
    pb.queuedMs = 0;
  } else if (m.type === "flushed") {
    pb.playing = false;
    pb.queuedMs = 0;
    pb.playedMs = samplesToMs(m.playedSamples);
    pb.flushes += 1;
    pendingFlushes.shift()(m);
  }
  document.body.dataset.playing = String(pb.playing);
}

function playAudio(responseId, itemId, base64) {
  if (droppedItems.has(itemId) || !player) return;
  if (!player.node) {
    player.ready.then(() => playAudio(responseId, itemId, base64)); // worklet still loading: keep order
    return;
  }
  const pcm = fromBase64(base64);
  const samples = pcm.byteLength / 2;
  itemReplies.set(itemId, responseId);
  lastAudioItem = itemId;
  state.playback.receivedMs += samplesToMs(samples);
  reply(responseId).turn.receivedMs += samplesToMs(samples);
  player.node.port.postMessage({ type: "audio", item: itemId, pcm }, [pcm]);
}

function flushPlayer(item) {
  return new Promise((resolve) => {
    pendingFlushes.push(resolve);
    player.node.port.postMessage({ type: "flush", item });
  });
}

// Stop the reply at once and drop what is queued; tell the server how much the user actually heard.
async function bargeIn(reason, { cancel }) {
  if (link && link.kind === "webrtc") return bargeInWebRTC(reason, { cancel });
  if (cancel && activeResponse) send({ type: "response.cancel" });
  if (!player || !player.node) return;
  const item = lastAudioItem;
  const live = item && !droppedItems.has(item) && !drainedItems.has(item);
  if (live) droppedItems.add(item); // from now on, late deltas of this item are ignored
  const report = await flushPlayer(item);
  if (!live) return;
  const playedMs = Math.round(samplesToMs(report.itemPlayedSamples));
  state.bargeIns.push({ reason, item, playedMs, droppedMs: Math.round(samplesToMs(report.droppedSamples)) });
  const truncate = { type: "conversation.item.truncate", item_id: item, content_index: 0, audio_end_ms: playedMs };
  state.truncates.push(truncate);
  send(truncate);
  const r = replies.get(itemReplies.get(item));
  if (r) {
    r.el.classList.add("interrupted");
    r.turn.playedMs = playedMs;
  }
}

// Over WebRTC the server stops its track (at its own barge-in, or on output_audio_buffer.clear) and keeps in
// the history what was heard by then: the page only records it.
function bargeInWebRTC(reason, { cancel }) {
  if (cancel && (activeResponse || playingReply)) send({ type: "output_audio_buffer.clear" });
  const r = playingReply && replies.get(playingReply);
  if (!r) return;
  const playedMs = Math.round(performance.now() - r.audioStart);
  state.bargeIns.push({ reason, item: r.itemId, playedMs, droppedMs: null });
  r.el.classList.add("interrupted");
  r.turn.playedMs = playedMs;
}

// ---------------------------------------------------------------- audio in

let mic = null; // {ctx, stream, node, source}
let pttHeld = false;
let pttSentMs = 0;
let sentLog = []; // [{endMs, at}]: wall-clock time each appended chunk was captured, to map audio_end_ms
let sentMsThisSession = 0;

function micSending() {
  return state.mode === "vad" ? state.mic.status === "on" : pttHeld;
}

function setMicStatus(status, text) {
  state.mic.status = status;
  document.body.dataset.mic = status;
  ui.micState.textContent = text;
  updateMicButton();
}

function updateMicButton() {
  const on = state.mic.status === "on";
  if (state.mode === "ptt") {
    ui.mic.textContent = pttHeld ? "Talking…" : "Hold to talk";
    ui.mic.setAttribute("aria-pressed", String(pttHeld));
    ui.mic.setAttribute("aria-label", "Hold to talk (or hold the space bar)");
  } else {
    ui.mic.textContent = on ? "Stop" : "Start";
    ui.mic.setAttribute("aria-pressed", String(on));
    ui.mic.setAttribute("aria-label", on ? "Stop listening" : "Start listening");
  }
  ui.mic.classList.toggle("live", state.mode === "ptt" ? pttHeld : on);
}

async function startMic() {
  if (mic || state.mic.status === "starting") return;
  if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
    setMicStatus("unsupported", "No microphone access");
    setNotice("mic", "This page can't use the microphone here: browsers allow it only over HTTPS or on localhost. You can still type below.");
    return;
  }
  setMicStatus("starting", "Starting microphone…");
  let stream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({
      audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true, channelCount: 1 },
    });
  } catch (err) {
    const denied = err.name === "NotAllowedError" || err.name === "SecurityError";
    const missing = err.name === "NotFoundError" || err.name === "OverconstrainedError" || err.name === "NotReadableError";
    if (denied) {
      setMicStatus("denied", "Microphone blocked");
      setNotice("mic", "Microphone permission was denied. Allow it in the browser's site settings and press Start again, or type below.");
    } else if (missing) {
      setMicStatus("missing", "No microphone");
      setNotice("mic", err.name === "NotReadableError"
        ? "The microphone is in use by another application or could not be opened. You can still type below."
        : "No microphone was found. Plug one in and press Start again, or type below.");
    } else {
      setMicStatus("error", "Microphone error");
      setNotice("mic", `The microphone could not be started (${err.name}: ${err.message}). You can still type below.`);
    }
    return;
  }
  try {
    const ctx = new AudioContext({ latencyHint: "interactive" });
    await ctx.audioWorklet.addModule(new URL("mic-worklet.js", import.meta.url));
    const source = ctx.createMediaStreamSource(stream);
    const node = new AudioWorkletNode(ctx, "parley-mic", { numberOfOutputs: 0, channelCount: 1, channelCountMode: "explicit" });
    node.port.onmessage = (event) => onMicChunk(event.data);
    source.connect(node);
    if (ctx.state === "suspended") await ctx.resume();
    mic = { ctx, stream, node, source };
    state.mic.settings = stream.getAudioTracks()[0].getSettings();
    stream.getAudioTracks()[0].addEventListener("ended", () => {
      stopMic();
      setNotice("mic", "The microphone was disconnected.");
    });
  } catch (err) {
    stream.getTracks().forEach((t) => t.stop());
    setMicStatus("error", "Microphone error");
    setNotice("mic", `Audio capture could not start (${err.message}).`);
    return;
  }
  setNotice("mic", null);
  setMicStatus("on", state.mode === "ptt" ? "Hold to talk" : "Listening");
  syncMicTrack();
}

function stopMic() {
  if (!mic) return;
  mic.stream.getTracks().forEach((t) => t.stop());
  mic.source.disconnect();
  mic.node.port.onmessage = null;
  mic.ctx.close();
  mic = null;
  syncMicTrack();
  setMicStatus("off", "Microphone off");
  showLevel(0);
}

function showLevel(level) {
  state.mic.level = level;
  state.mic.peakLevel = Math.max(state.mic.peakLevel, level);
  ui.meterFill.style.transform = `scaleX(${level.toFixed(3)})`;
  ui.meter.setAttribute("aria-valuenow", String(Math.round(level * 100)));
}

function onMicChunk({ pcm, level }) {
  showLevel(level);
  if (!micSending() || !link || state.connection !== "open") return;
  const ms = samplesToMs(pcm.byteLength / 2);
  sentMsThisSession += ms;
  state.mic.sentMs += ms;
  if (pttHeld) pttSentMs += ms;
  if (link.kind === "webrtc") return; // the track carries the microphone itself
  sentLog.push({ endMs: sentMsThisSession, at: performance.now() });
  if (sentLog.length > 3000) sentLog = sentLog.slice(-1500); // one minute of 20 ms chunks is plenty
  send({ type: "input_audio_buffer.append", audio: toBase64(pcm) });
}

function toBase64(buffer) {
  const bytes = new Uint8Array(buffer);
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

// Decodes base64 PCM16 into a buffer of whole samples (an odd trailing byte is dropped).
function fromBase64(base64) {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length & ~1);
  for (let i = 0; i < bytes.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}

// Wall-clock time at which the audio up to `audioMs` (session input-stream time) was captured. Over WebRTC
// the track sends from the moment the microphone is on it, silence included.
function capturedAt(audioMs) {
  if (link && link.kind === "webrtc") return link.trackSince != null ? link.trackSince + audioMs : performance.now();
  for (const entry of sentLog) if (entry.endMs >= audioMs) return entry.at;
  return performance.now();
}

// ---------------------------------------------------------------- turn taking

let activeResponse = null; // response id between response.created and response.done
let nextTurnStart = null; // {at, kind}: when the user finished, claimed by the next response

async function pttPress() {
  if (pttHeld || state.mode !== "ptt") return;
  send({ type: "input_audio_buffer.clear" }); // the turn starts now, nothing earlier belongs to it
  pttHeld = true;
  pttSentMs = 0;
  syncMicTrack();
  updateMicButton();
  ensurePlayer();
  if (state.playback.playing || activeResponse) bargeIn("push-to-talk", { cancel: true });
  if (!mic) await startMic();
}

async function pttRelease() {
  if (!pttHeld) return;
  pttHeld = false;
  updateMicButton();
  // the track's audio trails the data channel's events by the jitter buffers: let the last words arrive
  if (link && link.kind === "webrtc") await new Promise((resolve) => setTimeout(resolve, TRACK_LAG_MS));
  syncMicTrack();
  if (pttSentMs >= MIN_COMMIT_MS) {
    nextTurnStart = { at: performance.now(), kind: "voice" };
    send({ type: "input_audio_buffer.commit" });
    send({ type: "response.create" });
  } else {
    send({ type: "input_audio_buffer.clear" });
    ui.micState.textContent = "Hold the button (or space) while you speak";
  }
}

async function sendText(text) {
  ensurePlayer();
  if (state.playback.playing || activeResponse) await bargeIn("text", { cancel: true });
  const el = bubble("user", text);
  el.classList.add("typed");
  nextTurnStart = { at: performance.now(), kind: "text" };
  send({ type: "conversation.item.create", item: { type: "message", role: "user", content: [{ type: "input_text", text }] } });
  send({ type: "response.create" });
}

let serverTurnDetection = null; // the server's default (session.created), used in hands-free mode

function sessionUpdate() {
  const handsFree = serverTurnDetection || VAD;
  send({
    type: "session.update",
    session: {
      type: "realtime",
      audio: {
        input: { format: { type: "audio/pcm", rate: RATE }, turn_detection: state.mode === "vad" ? handsFree : null },
        output: { format: { type: "audio/pcm", rate: RATE } },
      },
    },
  });
}

// ---------------------------------------------------------------- server events

const handlers = {
  "session.created"(e) {
    const session = e.session || {};
    const resumed = state.sessionId !== null && session.id === state.sessionId;
    state.sessionId = session.id;
    serverTurnDetection = (session.audio && session.audio.input && session.audio.input.turn_detection) || null;
    state.connects += 1;
    reconnectAttempt = 0;
    sentLog = [];
    sentMsThisSession = 0;
    setConnection("open");
    setNotice("connection", null);
    sessionUpdate();
    if (state.connects > 1) divider(resumed ? "Reconnected — conversation resumed" : "Reconnected — new session");
  },
  error(e) {
    const err = e.error || {};
    state.errors.push({ type: err.type, code: err.code, message: err.message });
    setNotice("server", `Server error${err.code ? ` (${err.code})` : ""}: ${err.message || "unknown error"}`);
    clearTimeout(serverNoticeTimer);
    serverNoticeTimer = setTimeout(() => setNotice("server", null), 10000);
  },
  "input_audio_buffer.speech_started"(e) {
    bargeIn("speech", { cancel: false });
    if (e.item_id) userBubble(e.item_id);
    if (state.mode === "vad") ui.micState.textContent = "Hearing you…";
  },
  "input_audio_buffer.speech_stopped"(e) {
    nextTurnStart = { at: e.audio_end_ms != null ? capturedAt(e.audio_end_ms) : performance.now(), kind: "voice" };
    if (state.mode === "vad" && state.mic.status === "on") ui.micState.textContent = "Listening";
  },
  "input_audio_buffer.committed"(e) {
    if (e.item_id) userBubble(e.item_id);
  },
  "conversation.item.input_audio_transcription.delta"(e) {
    const el = userBubble(e.item_id);
    const text = (el.dataset.partial || "") + (e.delta || "");
    el.dataset.partial = text;
    setText(el, text, true);
  },
  "conversation.item.input_audio_transcription.completed"(e) {
    const el = userBubble(e.item_id);
    const text = (e.transcript || "").trim();
    setText(el, text || "(nothing recognised)", false);
    el.classList.toggle("empty", !text);
  },
  "conversation.item.input_audio_transcription.failed"(e) {
    const el = userBubble(e.item_id);
    setText(el, "(could not transcribe)", false);
    el.classList.add("empty");
  },
  "conversation.item.added"(e) {
    showToolItem(e.item);
  },
  "conversation.item.done"(e) {
    showToolItem(e.item);
  },
  "response.created"(e) {
    const id = e.response.id;
    activeResponse = id;
    const r = reply(id);
    if (nextTurnStart) {
      r.start = nextTurnStart.at;
      r.startKind = nextTurnStart.kind;
      nextTurnStart = null;
    }
  },
  "response.output_item.added"(e) {
    const item = e.item || {};
    if (item.type === "message") {
      itemReplies.set(item.id, e.response_id);
      reply(e.response_id).itemId = item.id;
    }
    if (item.type === "function_call") toolChip(e.response_id, item.call_id, item.name);
  },
  "response.output_item.done"(e) {
    const item = e.item || {};
    if (item.type === "function_call") showToolCall(e.response_id, item.call_id, item.name, item.arguments);
  },
  "response.function_call_arguments.done"(e) {
    showToolCall(e.response_id, e.call_id, e.name, e.arguments);
  },
  "response.output_audio.delta"(e) {
    playAudio(e.response_id, e.item_id, e.delta);
  },
  // WebRTC: the server's track plays the reply; these say when (no audio deltas on the data channel)
  "output_audio_buffer.started"(e) {
    const r = reply(e.response_id);
    playingReply = e.response_id;
    r.audioStart = performance.now();
    state.playback.playing = true;
    state.playback.items += 1;
    document.body.dataset.playing = "true";
    if (r.firstSound == null) listenForFirstSound(r);
  },
  "output_audio_buffer.stopped"(e) {
    const r = reply(e.response_id);
    readJitterBuffer();
    if (r.audioStart != null) {
      const ms = performance.now() - r.audioStart;
      r.turn.receivedMs = r.turn.playedMs = ms;
      state.playback.receivedMs += ms;
      state.playback.playedMs += ms;
    }
    audioStopped(e.response_id);
  },
  "output_audio_buffer.cleared"(e) {
    const r = reply(e.response_id);
    if (r.audioStart != null) r.turn.playedMs = performance.now() - r.audioStart;
    r.turn.receivedMs = Math.max(r.turn.receivedMs, r.turn.playedMs);
    state.playback.flushes += 1;
    audioStopped(e.response_id);
  },
  "response.output_audio.done"(e) {
    if (player) player.ready.then(() => player.node.port.postMessage({ type: "end", item: e.item_id }));
  },
  "response.output_audio_transcript.delta"(e) {
    itemReplies.set(e.item_id, e.response_id);
    appendReplyText(reply(e.response_id), e.delta || "");
  },
  "response.output_audio_transcript.done"(e) {
    const r = reply(e.response_id);
    if (e.transcript != null) r.turn.text = e.transcript;
    setText(r.el, r.turn.text, false);
  },
  "response.done"(e) {
    const response = e.response || {};
    const r = reply(response.id);
    if (activeResponse === response.id) activeResponse = null;
    r.turn.status = response.status;
    r.turn.server = serverTiming(response);
    r.el.classList.remove("partial");
    r.el.classList.toggle("interrupted", response.status === "cancelled" || r.el.classList.contains("interrupted"));
    if (response.status === "cancelled" && !r.turn.text && !r.turn.tools.length) r.el.remove(); // stopped before it said anything
    if (response.status === "failed") {
      const err = (response.status_details && response.status_details.error) || {};
      r.el.classList.add("failed");
      if (!r.turn.text) setText(r.el, `(reply failed${err.message ? `: ${err.message}` : ""})`, false);
    }
    showLatency(r);
  },
};
// Beta event names, as older servers send them.
handlers["response.audio.delta"] = handlers["response.output_audio.delta"];
handlers["response.audio.done"] = handlers["response.output_audio.done"];
handlers["response.audio_transcript.delta"] = handlers["response.output_audio_transcript.delta"];
handlers["response.audio_transcript.done"] = handlers["response.output_audio_transcript.done"];
handlers["response.output_text.delta"] = handlers["response.output_audio_transcript.delta"];
handlers["response.text.delta"] = handlers["response.output_audio_transcript.delta"];
handlers["conversation.item.created"] = handlers["conversation.item.added"];

let serverNoticeTimer = null;

function audioStopped(responseId) {
  if (playingReply === responseId) playingReply = null;
  state.playback.playing = false;
  state.playback.queuedMs = 0;
  document.body.dataset.playing = "false";
}

// Tools the server runs itself arrive as conversation items (function_call, then function_call_output).
function showToolItem(item) {
  if (!item) return;
  if (item.type === "function_call" && activeResponse) {
    showToolCall(activeResponse, item.call_id, item.name, item.arguments);
  } else if (item.type === "function_call_output") {
    const chip = toolChips.get(item.call_id);
    if (chip) chip.querySelector(".tool-result").textContent = ` → ${item.output}`;
  }
}

// ---------------------------------------------------------------- connection

let link = null; // the connection: {kind: "webrtc" | "websocket", send(text), close()}
let reconnectAttempt = 0;
let reconnectTimer = null;

function send(event) {
  if (link) link.send(JSON.stringify(event));
}

function setConnection(status, text) {
  state.connection = status;
  document.body.dataset.connection = status;
  const word = { connecting: "Connecting…", open: "Connected", reconnecting: "Reconnecting…" }[status];
  ui.connection.textContent = text || (status === "open" ? `Connected · ${state.transport === "webrtc" ? "WebRTC" : "WebSocket"}` : word);
}

// After a drop, ask for the same session (a Parley extension): any gateway gives its conversation back,
// so "and in the bedroom" still follows "turn on the kitchen light".
function realtimeUrl() {
  const url = new URL("/v1/realtime", location.href);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  if (state.sessionId) url.searchParams.set("session_id", state.sessionId);
  return url.href;
}

function callsUrl() {
  const url = new URL("/v1/realtime/calls", location.href);
  if (state.sessionId) url.searchParams.set("session_id", state.sessionId);
  return url.href;
}

// A short-lived client secret (OpenAI's convention) for the WebSocket, so the API key itself never travels
// in a subprotocol or URL. A server without auth mints one for anybody; with auth, minting needs the key,
// which the user types in once (kept in memory only). null: the server has no such endpoint.
let apiKey = null;

async function clientSecret() {
  const headers = { "content-type": "application/json" };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  const res = await fetch(new URL("/v1/realtime/client_secrets", location.href), {
    method: "POST",
    headers,
    // with --api-key only a secret minted for the session (its id) may resume it
    body: JSON.stringify({ session: state.sessionId ? { type: "realtime", id: state.sessionId } : { type: "realtime" } }),
  });
  if (res.status === 404 || res.status === 405) return null;
  if (res.status === 401 || res.status === 403) {
    const err = new Error(apiKey ? "The API key was not accepted." : "This server requires an API key.");
    err.auth = true;
    throw err;
  }
  if (!res.ok) throw new Error(`The server at ${location.host} could not issue a client token (HTTP ${res.status}).`);
  const body = await res.json();
  return body.value || (body.client_secret && body.client_secret.value) || null;
}

function askForKey(message) {
  apiKey = null;
  setConnection("connecting", "Needs API key");
  setNotice("connection", null);
  ui.keyForm.querySelector("label").textContent = message;
  ui.keyForm.hidden = false;
  ui.key.value = "";
  ui.key.focus();
}

async function connect() {
  clearTimeout(reconnectTimer);
  if (link) return;
  setConnection(state.connects ? "reconnecting" : "connecting");
  let token;
  try {
    token = await clientSecret();
  } catch (err) {
    if (err.auth) return askForKey(err.message); // waits for the user, no retry loop
    return retry(err instanceof TypeError ? unreachable() : err.message); // TypeError: no answer at all
  }
  ui.keyForm.hidden = true;
  if (state.transport === "webrtc") connectWebRTC(token);
  else connectWebSocket(token);
}

function onServerEvent(data) {
  let event;
  try {
    event = JSON.parse(data);
  } catch {
    return;
  }
  state.events[event.type] = (state.events[event.type] || 0) + 1;
  const handle = handlers[event.type];
  if (handle) handle(event);
}

// The link went away: forget it and come back (a refused connection says why).
function linkLost(lost, wasOpen, refusal) {
  if (link !== lost) return;
  link = null;
  lost.close();
  connectionLost();
  if (refusal != null) retry(`The server refused the connection${refusal}.`);
  else retry(wasOpen ? "Connection to the server lost." : unreachable());
}

function connectWebSocket(token) {
  const socket = new WebSocket(realtimeUrl(), token ? ["realtime", `openai-insecure-api-key.${token}`] : undefined);
  const self = { kind: "websocket", send: (text) => socket.readyState === WebSocket.OPEN && socket.send(text), close: () => socket.close() };
  link = self;
  let opened = false;
  socket.onopen = () => {
    opened = true;
  };
  socket.onmessage = (message) => onServerEvent(message.data);
  socket.onclose = (close) => {
    const refused = close.code === 1008 || close.code === 4001 || close.code === 4003;
    linkLost(self, opened && state.connection === "open", refused ? (close.reason ? `: ${close.reason}` : "") : null);
  };
}

// OpenAI's WebRTC flow: an SDP offer with the microphone's transceiver and the `oai-events` channel, posted
// to /v1/realtime/calls with the client secret; the answer comes back as SDP. A server or network where the
// call cannot be made (no such endpoint, ICE fails) gets the WebSocket instead.
async function connectWebRTC(token) {
  const pc = new RTCPeerConnection();
  const channel = pc.createDataChannel("oai-events");
  const { sender } = pc.addTransceiver("audio", { direction: "sendrecv" });
  const self = { kind: "webrtc", pc, sender, trackSince: null,
    send: (text) => channel.readyState === "open" && channel.send(text), close: () => pc.close() };
  link = self;
  state.peer = pc.connectionState;
  syncMicTrack();
  let opened = false;
  const fallBack = (why) => {
    if (link !== self) return;
    link = null;
    pc.close();
    state.transport = "websocket";
    state.peer = null;
    setNotice("connection", `WebRTC is not available here (${why}); using the WebSocket.`);
    connect();
  };
  const giveUp = setTimeout(() => !opened && fallBack("no connection"), WEBRTC_CONNECT_S * 1000);
  pc.ontrack = (event) => {
    remoteAudio().srcObject = event.streams[0] || new MediaStream([event.track]);
    listenToReplies(remoteAudio().srcObject);
  };
  pc.onconnectionstatechange = () => {
    if (link !== self) return;
    state.peer = pc.connectionState;
    document.body.dataset.peer = pc.connectionState;
    if (state.connection === "open") setConnection("open", pc.connectionState === "disconnected" ? "Connection unsteady…" : undefined);
    if (pc.connectionState === "failed") linkLost(self, opened, null);
  };
  channel.onopen = () => {
    opened = true;
    clearTimeout(giveUp);
  };
  channel.onmessage = (message) => onServerEvent(message.data);
  channel.onclose = () => linkLost(self, opened, null);
  try {
    await pc.setLocalDescription(await pc.createOffer());
    const headers = { "content-type": "application/sdp" };
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(callsUrl(), { method: "POST", body: pc.localDescription.sdp, headers });
    if (res.status === 404 || res.status === 405) return fallBack("the server takes no calls");
    if (res.status === 401 || res.status === 403) {
      clearTimeout(giveUp);
      return linkLost(self, false, " (the client token was not accepted)");
    }
    if (!res.ok) throw new Error(`The server could not take the call (HTTP ${res.status}).`);
    await pc.setRemoteDescription({ type: "answer", sdp: await res.text() });
  } catch (err) {
    clearTimeout(giveUp);
    if (link !== self) return;
    link = null;
    pc.close();
    retry(err instanceof TypeError ? unreachable() : err.message);
  }
}

// The reply's audio element (WebRTC): the browser's jitter buffer and echo canceller work on what it plays.
let remoteAudioElement = null;
function remoteAudio() {
  if (!remoteAudioElement) {
    remoteAudioElement = document.createElement("audio");
    remoteAudioElement.autoplay = true;
    document.body.append(remoteAudioElement);
  }
  return remoteAudioElement;
}

// Over WebRTC the reply's first sound is found by listening to what the audio element plays (after the browser's
// jitter buffer), up to FIRST_SOUND_WAIT_MS after output_audio_buffer.started; if nothing is heard by then
// (an audio context the browser keeps suspended), the event's own time stands in.
const FIRST_SOUND_WAIT_MS = 2000;
const FIRST_SOUND_LEVEL = 0.01; // peak amplitude, full scale 1
let replyListener = null; // {ctx, analyser, samples}: what the call's audio element plays

// What the browser's jitter buffer held the reply's audio for, on average over the call so far (WebRTC stats).
async function readJitterBuffer() {
  if (!link || link.kind !== "webrtc") return;
  const stats = await link.pc.getStats();
  stats.forEach((s) => {
    if (s.type === "inbound-rtp" && s.kind === "audio" && s.jitterBufferEmittedCount) {
      state.playback.jitterBufferMs = (1000 * s.jitterBufferDelay) / s.jitterBufferEmittedCount;
      state.playback.jitterBufferTargetMs = s.jitterBufferTargetDelay != null
        ? (1000 * s.jitterBufferTargetDelay) / s.jitterBufferEmittedCount : null;
    }
  });
}

function listenToReplies(stream) {
  if (replyListener) replyListener.ctx.close();
  const ctx = new AudioContext({ latencyHint: "interactive" });
  const analyser = ctx.createAnalyser();
  analyser.fftSize = 256;
  ctx.createMediaStreamSource(stream).connect(analyser);
  replyListener = { ctx, analyser, samples: new Float32Array(analyser.fftSize) };
}

function listenForFirstSound(r) {
  const heard = (at, outputLatency, listened) => {
    r.firstSound = at;
    r.turn.soundHeard = listened; // false: the time of output_audio_buffer.started stands in
    r.turn.soundAfterEventMs = at - r.audioStart; // the browser's receive path: jitter buffer, decoder, mixer
    if (r.start != null) r.turn.voiceToVoiceMs = r.firstSound - r.start + outputLatency;
    showLatency(r);
  };
  const listener = replyListener;
  const poll = () => {
    if (r.firstSound != null) return;
    if (!listener || performance.now() - r.audioStart > FIRST_SOUND_WAIT_MS) {
      heard(r.audioStart, 0, false);
      return;
    }
    if (listener.ctx.state !== "running") {
      setTimeout(poll, 5);
      return;
    }
    listener.analyser.getFloatTimeDomainData(listener.samples);
    if (listener.samples.some((x) => Math.abs(x) > FIRST_SOUND_LEVEL)) {
      heard(performance.now(), (listener.ctx.outputLatency || listener.ctx.baseLatency || 0) * 1000, true);
    } else setTimeout(poll, 5);
  };
  poll();
}

// Over WebRTC the microphone is the call's audio track; it sends only while micSending() (a disabled track
// sends silence, which keeps the server's audio clock running).
function syncMicTrack() {
  if (!link || link.kind !== "webrtc") return;
  const track = mic ? mic.stream.getAudioTracks()[0] : null;
  if (track) track.enabled = micSending();
  if (link.sender.track !== track) {
    link.sender.replaceTrack(track);
    if (track && link.trackSince == null) link.trackSince = performance.now();
  }
}

function unreachable() {
  return state.connects ? "Connection to the server lost." : `Can't reach the Parley server at ${location.host}.`;
}

function connectionLost() {
  activeResponse = null;
  nextTurnStart = null;
  state.peer = null;
  if (playingReply) audioStopped(playingReply);
  if (player && player.node) flushPlayer(null);
  for (const r of replies.values()) if (r.turn.status === "in_progress") r.el.classList.remove("partial");
}

function retry(message) {
  const delay = RECONNECT_DELAYS_S[Math.min(reconnectAttempt, RECONNECT_DELAYS_S.length - 1)] * (0.8 + Math.random() * 0.4);
  reconnectAttempt += 1;
  setConnection(state.connects ? "reconnecting" : "connecting", "Offline");
  setNotice("connection", `${message} Reconnecting in ${Math.max(1, Math.round(delay))} s…`, { label: "Retry now", run: connect });
  reconnectTimer = setTimeout(connect, delay * 1000);
}

state.send = send; // for the console: window.parley.send({type: "response.create"})

// ---------------------------------------------------------------- controls

function setMode(mode) {
  state.mode = mode;
  document.body.dataset.mode = mode;
  pttHeld = false;
  syncMicTrack();
  if (mode === "ptt") {
    send({ type: "input_audio_buffer.clear" });
    startMic(); // open it now (this is a user gesture), so the first press captures from the start
  }
  sessionUpdate();
  updateMicButton();
  if (state.mic.status === "on") ui.micState.textContent = mode === "ptt" ? "Hold to talk" : "Listening";
}

for (const radio of document.querySelectorAll('input[name="mode"]')) {
  radio.addEventListener("change", () => radio.checked && setMode(radio.value));
}

ui.mic.addEventListener("click", () => {
  if (state.mode !== "vad") return;
  ensurePlayer();
  if (mic) stopMic();
  else startMic();
});
ui.mic.addEventListener("pointerdown", (event) => {
  if (state.mode !== "ptt") return;
  ui.mic.setPointerCapture(event.pointerId);
  pttPress();
});
for (const type of ["pointerup", "pointercancel"]) ui.mic.addEventListener(type, () => pttRelease());

// In push-to-talk mode, holding Space (unless another control has focus) or Space/Enter on the talk button
// is holding the button.
function isTalkKey(event) {
  if (state.mode !== "ptt") return false;
  const onTalkSurface = [document.body, ui.transcript, ui.mic].includes(event.target);
  return onTalkSurface && (event.code === "Space" || (event.target === ui.mic && event.key === "Enter"));
}
document.addEventListener("keydown", (event) => {
  if (!isTalkKey(event)) return;
  event.preventDefault();
  if (!event.repeat) pttPress();
});
document.addEventListener("keyup", (event) => {
  if (!isTalkKey(event)) return;
  event.preventDefault();
  pttRelease();
});
window.addEventListener("blur", () => pttRelease());

ui.form.addEventListener("submit", (event) => {
  event.preventDefault();
  const text = ui.text.value.trim();
  if (!text) return;
  if (state.connection !== "open") {
    setNotice("server", "Not connected yet: your message was not sent.");
    return;
  }
  ui.text.value = "";
  sendText(text);
});

ui.keyForm.addEventListener("submit", (event) => {
  event.preventDefault();
  apiKey = ui.key.value.trim();
  ui.key.value = "";
  ui.keyForm.hidden = true;
  setNotice("connection", null);
  connect();
});

window.addEventListener("online", () => {
  if (!link) connect();
});

updateMicButton();
connect();
