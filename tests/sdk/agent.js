// OpenAI's browser SDK (@openai/agents-realtime) pointed at Parley: a RealtimeAgent with one declared tool,
// connected over the SDK's own WebRTC transport to /v1/realtime/calls with a client secret from
// /v1/realtime/client_secrets. Everything the test reads is on `window.sdkRun`.
import { OpenAIRealtimeWebRTC, RealtimeAgent, RealtimeSession, tool } from "@openai/agents-realtime";

const run = { status: "starting", callId: null, sessionId: null, toolCalls: [], toolResults: [], events: [], errors: [], recording: null };
window.sdkRun = run;

// Arithmetic only: digits, operators, parentheses.
function evaluate(expression) {
  const words = { times: "*", plus: "+", minus: "-", "divided by": "/", x: "*" };
  let text = String(expression).toLowerCase();
  for (const [word, sign] of Object.entries(words)) text = text.split(word).join(sign);
  return /^[\d\s.+\-*/()]+$/.test(text) ? String(Function(`"use strict"; return (${text});`)()) : "not arithmetic";
}

const calculate = tool({
  name: "calculate",
  description: "Evaluate arithmetic",
  parameters: {
    type: "object",
    properties: { expression: { type: "string" } },
    required: ["expression"],
    additionalProperties: false,
  },
  strict: true,
  execute: async ({ expression }) => {
    run.toolCalls.push(expression);
    return evaluate(expression);
  },
});

const agent = new RealtimeAgent({ name: "Parley", instructions: "Answer briefly.", tools: [calculate] });

// What the SDK plays, recorded from the call's incoming track (Opus in WebM) for the test to transcribe.
let recorder = null;
const chunks = [];
function record(peerConnection) {
  const track = peerConnection.getReceivers().map((r) => r.track).find((t) => t && t.kind === "audio");
  recorder = new MediaRecorder(new MediaStream([track]), { mimeType: "audio/webm;codecs=opus" });
  recorder.ondataavailable = (event) => event.data.size && chunks.push(event.data);
  recorder.start(250);
}

window.stopRecording = () => new Promise((resolve) => {
  recorder.onstop = async () => {
    const bytes = new Uint8Array(await new Blob(chunks, { type: "audio/webm" }).arrayBuffer());
    let binary = "";
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    resolve(btoa(binary));
  };
  recorder.stop();
});

async function start() {
  const secret = await fetch("/v1/realtime/client_secrets", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ session: { type: "realtime" } }),
  }).then((response) => response.json());
  const transport = new OpenAIRealtimeWebRTC({ baseUrl: new URL("/v1/realtime/calls", location.href).href });
  const session = new RealtimeSession(agent, { transport, model: "parley-home" });
  session.on("transport_event", (event) => {
    run.events.push(event.type);
    if (event.type === "session.created") run.sessionId = event.session.id;
  });
  session.on("agent_tool_end", (context, agent, tool, result) => run.toolResults.push(result));
  session.on("error", (error) => run.errors.push(String(error.error && error.error.message || error.error || error)));
  await session.connect({ apiKey: secret.value });
  run.callId = transport.callId;
  record(transport.connectionState.peerConnection);
  run.status = "connected";
  window.sdkSession = session;
}

start().catch((error) => {
  run.status = "failed";
  run.errors.push(String(error && error.stack || error));
});
