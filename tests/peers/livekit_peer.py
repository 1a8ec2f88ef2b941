"""LiveKit Agents' OpenAI realtime model against a Parley server, in the peers environment (.venv-peers).

    python livekit_peer.py SCENARIO --url http://HOST:PORT/v1 --out DIR [--speech FILE --rate N]

The plugin's RealtimeSession is used directly, as AgentSession drives it but without a room: audio frames are
pushed at real-time pace, typed turns go through update_chat_ctx + generate_reply, a barge-in is answered
the way AgentSession answers input_speech_started (interrupt, then truncate to what was played), a tool
call's output goes back into the chat context. Writes DIR/result.json (reply texts, calls, errors logged or
emitted, server event types seen) and DIR/reply.pcm (the last reply's audio, PCM16 mono 24 kHz).

Scenarios: typed, spoken, barge_in, tool, weather (a declared get_weather, no skill of Parley's), recycle (a
Parley tool turn, a forced connection recycle that replays the context, then a follow-up that needs it).
"""
import asyncio
import json
import logging
from pathlib import Path

from livekit import rtc
from livekit.agents import llm
from livekit.plugins.openai.realtime import RealtimeModel

from peer_script import main, paced

RECYCLE_S = 20.0     # LiveKit recycles its connection every 20 minutes; here sooner, to test the replay


class ErrorLog(logging.Handler):
    def __init__(self):
        super().__init__(logging.ERROR)
        self.records: list[str] = []

    def emit(self, record):
        self.records.append(f"{record.name}: {record.getMessage()}")


class Reply:
    """One generation: its text, audio and function calls, read to the end."""

    def __init__(self, event: llm.GenerationCreatedEvent):
        self.text, self.audio, self.calls = "", bytearray(), []
        self.message_id: str | None = None
        self.first_audio = asyncio.Event()
        self.done = asyncio.create_task(self._read(event))

    async def _read(self, event):
        async def message(generation):
            self.message_id = generation.message_id

            async def text():
                async for piece in generation.text_stream:
                    self.text += str(piece)

            async def audio():
                async for frame in generation.audio_stream:
                    self.audio += bytes(frame.data)
                    self.first_audio.set()
            await asyncio.gather(text(), audio())

        async def messages():
            readers = [asyncio.create_task(message(g)) async for g in event.message_stream]
            await asyncio.gather(*readers)

        async def calls():
            async for call in event.function_stream:
                self.calls.append(call)
        await asyncio.gather(messages(), calls())


async def push(session, pcm: bytes, rate: int) -> None:
    async for chunk in paced(pcm, rate):
        session.push_audio(rtc.AudioFrame(chunk, rate, 1, len(chunk) // 2))


async def generate(session, replies: asyncio.Queue) -> Reply:
    """generate_reply(); the generation is read through the generation_created event, as AgentSession does."""
    await asyncio.wait_for(session.generate_reply(), 30)
    reply = await replies.get()
    await asyncio.wait_for(reply.done, 90)
    return reply


async def typed(session, replies: asyncio.Queue, text: str) -> Reply:
    chat_ctx = session.chat_ctx.copy()
    chat_ctx.add_message(role="user", content=text)
    await session.update_chat_ctx(chat_ctx)
    return await generate(session, replies)


async def replayed(session, count: int) -> None:
    while len(session.chat_ctx.items) < count:
        await asyncio.sleep(0.05)


@llm.function_tool
async def set_device(device: str, room: str, state: str) -> dict:
    """Switch a device in a room on or off."""
    return {"state": state}


FORECAST = "light rain, 14 degrees"


@llm.function_tool
async def get_weather(city: str) -> str:
    """Get the current weather for a city."""
    return FORECAST


async def run(args) -> dict:
    log = ErrorLog()
    logging.getLogger().addHandler(log)
    logging.getLogger().setLevel(logging.INFO)
    model = RealtimeModel(base_url=args.url, api_key="parley",
                          max_session_duration=RECYCLE_S if args.scenario == "recycle" else None)
    session = model.session()
    emitted: list[str] = []
    seen: list[str] = []
    replies: asyncio.Queue = asyncio.Queue()
    reconnected = asyncio.Event()
    session.on("error", lambda error: emitted.append(repr(error.error)))
    session.on("generation_created", lambda event: replies.put_nowait(Reply(event)))
    session.on("openai_server_event_received", lambda event: seen.append(event["type"]))
    created: list[list] = []          # the items it sent, where it placed them (the replay shows here)
    session.on("openai_client_event_queued", lambda event: created.append(
        [event["item"].get("id"), event["item"].get("type"), event.get("previous_item_id")])
        if event.get("type") == "conversation.item.create" else None)
    session.on("session_reconnected", lambda event: reconnected.set())
    pcm = Path(args.speech).read_bytes() if args.speech else b""
    result: dict = {}
    last: Reply | None = None
    try:
        if args.scenario == "typed":
            last = await typed(session, replies, "What is seven times six?")
            result["texts"] = [last.text]
        elif args.scenario == "spoken":
            await push(session, pcm, args.rate)
            last = await asyncio.wait_for(replies.get(), 60)
            await asyncio.wait_for(last.done, 90)
            result["texts"] = [last.text]
        elif args.scenario == "barge_in":
            speaking = asyncio.Event()
            session.on("input_speech_started", lambda event: speaking.set())
            await push(session, pcm, args.rate)
            first = await asyncio.wait_for(replies.get(), 60)
            await asyncio.wait_for(first.first_audio.wait(), 60)
            speaking.clear()
            talking = asyncio.create_task(push(session, Path(args.interruption).read_bytes(), args.rate))
            await asyncio.wait_for(speaking.wait(), 30)
            played_ms = len(first.audio) * 1000 // (2 * 24000)
            session.interrupt()                                  # what AgentSession does on input_speech_started
            session.truncate(message_id=first.message_id, modalities=["audio", "text"], audio_end_ms=played_ms)
            await talking
            await asyncio.wait_for(first.done, 30)
            last = await asyncio.wait_for(replies.get(), 60)
            await asyncio.wait_for(last.done, 90)
            result["texts"] = [first.text, last.text]
        elif args.scenario in ("tool", "weather"):
            tool = set_device if args.scenario == "tool" else get_weather
            await session.update_tools([tool])
            first = await typed(session, replies, "Turn on the kitchen light." if args.scenario == "tool"
                                else "What's the weather in Paris?")
            [call] = first.calls
            output = json.dumps(await tool(**json.loads(call.arguments)))
            chat_ctx = session.chat_ctx.copy()
            chat_ctx.insert(llm.FunctionCallOutput(call_id=call.call_id, name=call.name, output=output,
                                                   is_error=False))
            await session.update_chat_ctx(chat_ctx)
            last = await generate(session, replies)
            result["calls"] = [{"name": call.name, "arguments": json.loads(call.arguments)}]
            result["texts"] = [first.text, last.text]
        elif args.scenario == "recycle":
            first = await typed(session, replies, "Turn on the kitchen light.")
            items_before = [item.type for item in session.chat_ctx.items]
            await asyncio.wait_for(reconnected.wait(), RECYCLE_S + 60)
            # session_reconnected comes as the replay is sent; a turn added before the server confirmed it
            # would be placed at the root (as OpenAI places it), so wait as a user would, for the replay
            await asyncio.wait_for(replayed(session, len(items_before)), 30)
            last = await typed(session, replies, "And in the bedroom.")
            result["texts"] = [first.text, last.text]
            result["items_replayed"] = items_before
        await asyncio.sleep(1.0)                                 # late errors still show
    except (asyncio.TimeoutError, ValueError) as exc:
        result["failure"] = f"{type(exc).__name__}: {exc}"
    finally:
        await session.aclose()
        await model.aclose()
    result["chat_ctx"] = [{"type": item.type, "role": getattr(item, "role", None),
                           "text": getattr(item, "text_content", None) if item.type == "message" else None,
                           "name": getattr(item, "name", None)} for item in session.chat_ctx.items]
    result["errors"] = log.records + emitted
    result["server_events"] = sorted(set(seen))
    result["items_created"] = created
    (Path(args.out) / "reply.pcm").write_bytes(bytes(last.audio) if last else b"")
    return result


if __name__ == "__main__":
    main(run, ["typed", "spoken", "barge_in", "tool", "weather", "recycle"])
