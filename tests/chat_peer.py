"""A scripted `/v1/chat/completions` peer for the remote-generator tests: a real aiohttp server on loopback
that streams replies in one dialect's documented shape (tests/data/chat_streams shows them).

Its script, by the last message: a tool result -> a sentence with that result; "seven times six" (or 7) ->
calculate(7*6) (for the parley dialect with the one-pass reply "Seven times six is {result}."); "thermostat
to 350" -> set_thermostat(350), which the tool refuses (one-pass reply "Okay, the thermostat is set to
{result}."); "turn off the ac" -> switch_device(name "AC", off), the short name as a model may write it;
"weather" with a get_weather tool offered -> get_weather(city); "timer then time" -> set_timer, then (after its
result) get_time; anything else -> a fixed greeting.
"""
import asyncio
import json
import re
from dataclasses import dataclass, field

from aiohttp import web

GREETING = "Hello from the remote generator."
BLOCK_CHARS = {"sglang": 128, "vllm": 1024, "parley": 128, "inception": 24, "openai": 12}   # ~32 / 256 tokens


@dataclass
class Peer:
    dialect: str = "parley"
    requests: list[dict] = field(default_factory=list)     # bodies, in order
    headers: list[dict] = field(default_factory=list)
    hold: asyncio.Event | None = None                         # set: the reply may start
    fail: list[str] = field(default_factory=list)             # next replies: "429", "500", "cut", "drafts"
    disconnected: asyncio.Event = field(default_factory=asyncio.Event)   # a client hung up mid-reply

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self.completions)
        return app

    async def completions(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        self.requests.append(body)
        self.headers.append(dict(request.headers))
        failure = self.fail.pop(0) if self.fail else None
        if failure == "429":
            return web.json_response({"error": {"type": "rate_limit_error", "message": "queue full"}}, status=429,
                                     headers={"Retry-After": "30"})
        if failure == "500":
            return web.json_response({"error": {"type": "server_error", "message": "boom"}}, status=500)
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"})
        await response.prepare(request)
        if self.hold is not None:
            while not self.hold.is_set():     # notice a client that gives up while the reply is held
                if request.transport is None or request.transport.is_closing():
                    self.disconnected.set()
                    return response
                await asyncio.sleep(0.01)
        chunks = list(self.script(body))
        if failure == "drafts":
            chunks = [{"diffusing": True, "choices": [{"index": 0, "delta": {"content": "The ▒▒ is ▒▒."}}]}] + chunks
        for n, chunk in enumerate(chunks):
            if failure == "cut" and n == 2:
                request.transport.close()          # the server dies mid-reply
                return response
            chunk.setdefault("object", "chat.completion.chunk")
            chunk.setdefault("model", body.get("model"))
            await response.write(f"data: {json.dumps(chunk)}\n\n".encode())
        await response.write(b"data: [DONE]\n\n")
        return response

    def script(self, body: dict):
        messages = body["messages"]
        last = messages[-1]
        offered = {t["function"]["name"] for t in body.get("tools", [])}
        if last["role"] == "tool":
            asked = next(m["content"] for m in reversed(messages) if m["role"] == "user").lower()
            results = [m["content"] for m in messages[messages.index(last) - 1:] if m["role"] == "tool"]
            if "timer then time" in asked and len([m for m in messages if m["role"] == "tool"]) == 1:
                yield from self.call("get_time", {}, "call_2")
            else:
                yield from self.text(f"Done: {' and '.join(results)}.")
        elif re.search(r"\b(seven|7) times (six|6)\b", last["content"].lower()):
            reply = "Seven times six is {result}." if self.dialect == "parley" else None
            yield from self.call("calculate", {"expression": "7*6"}, "call_1", reply)
        elif "thermostat to 350" in last["content"].lower():
            reply = "Okay, the thermostat is set to {result}." if self.dialect == "parley" else None
            yield from self.call("set_thermostat", {"degrees": 350}, "call_1", reply)
        elif "heater in the sewing room" in last["content"].lower():     # the generator server places it in its area
            reply = "Okay, the thermostat is set to {result}." if self.dialect == "parley" else None
            yield from self.call("set_thermostat", {"degrees": 19, "area": "sewing_room"}, "call_1", reply)
        elif "turn off the ac" in last["content"].lower():
            yield from self.call("switch_device", {"name": "AC", "state": "off"}, "call_1")
        elif "weather" in last["content"].lower() and "get_weather" in offered:
            yield from self.call("get_weather", {"city": "Paris"}, "call_w")
        elif "timer then time" in last["content"].lower():
            yield from self.call("set_timer", {"seconds": 300}, "call_1")
        else:
            yield from self.text(GREETING)
        yield {"choices": [], "usage": {"prompt_tokens": 50, "completion_tokens": 12, "total_tokens": 62}}

    def text(self, text: str):
        size = BLOCK_CHARS[self.dialect]
        yield {"choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": None}]}
        for at in range(0, len(text), size):
            yield {"choices": [{"index": 0, "delta": {"content": text[at:at + size]}, "finish_reason": None}]}
        yield {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}

    def call(self, name: str, arguments: dict, call_id: str, reply: str | None = None):
        size = BLOCK_CHARS[self.dialect] // 4
        text = json.dumps(arguments)
        yield {"choices": [{"index": 0, "delta": {"role": "assistant", "tool_calls": [
            {"index": 0, "id": call_id, "type": "function", "function": {"name": name, "arguments": ""}}]}}]}
        for at in range(0, len(text), size):
            yield {"choices": [{"index": 0, "delta": {"tool_calls": [
                {"index": 0, "function": {"arguments": text[at:at + size]}}]}}]}
        if reply is not None:
            half = reply.index("{") + 3         # splits the {result} slot across two blocks
            for piece in (reply[:half], reply[half:]):
                yield {"choices": [{"index": 0, "delta": {"parley": {"reply": piece}}}]}
        yield {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}
