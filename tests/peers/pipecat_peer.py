"""Pipecat's OpenAI Realtime service against a Parley server, in the peers environment (.venv-peers).

    python pipecat_peer.py SCENARIO --url ws://HOST:PORT/v1/realtime --out DIR [--speech FILE --rate N]

The service runs in a minimal pipeline as an app would build it (user aggregator, the service, a sink,
assistant aggregator), with no transport: audio frames are queued straight into the pipeline at real-time
pace, text arrives as an LLMMessagesAppendFrame, tools are registered functions. Writes DIR/result.json
(what the service pushed: reply text, function calls, errors it logged or pushed) and DIR/reply.pcm (the
reply audio, PCM16 mono at 24 kHz).

Scenarios: typed, spoken, barge_in (the interruption is said while the reply plays), tool (a client-declared
function the model calls; its JSON result is spoken), weather (a declared get_weather, a tool Parley has no
skill for, called with the city said).
"""
import asyncio
import sys
import time
from pathlib import Path

from loguru import logger
from pipecat.adapters.llm.schemas.function_schema import FunctionSchema
from pipecat.adapters.llm.schemas.tools_schema import ToolsSchema
from pipecat.frames.frames import EndFrame, InputAudioRawFrame, LLMMessagesAppendFrame, TTSAudioRawFrame, TTSTextFrame
from pipecat.pipeline.pipeline import Pipeline
from pipecat.pipeline.worker import PipelineParams, PipelineWorker
from pipecat.processors.aggregators.llm_context import LLMContext
from pipecat.processors.aggregators.llm_response_universal import LLMContextAggregatorPair
from pipecat.processors.frame_processor import FrameDirection, FrameProcessor
from pipecat.services.openai.realtime import events
from pipecat.services.openai.realtime.llm import OpenAIRealtimeLLMService
from pipecat.workers.runner import WorkerRunner

from peer_script import main, paced

TOOL = FunctionSchema(name="set_device", description="Switch a device in a room on or off",
                      properties={"device": {"type": "string"}, "room": {"type": "string"},
                                  "state": {"type": "string", "enum": ["on", "off"]}},
                      required=["device", "room", "state"])
WEATHER = FunctionSchema(name="get_weather", description="Get the current weather for a city",
                         properties={"city": {"type": "string", "description": "City name"}}, required=["city"])
FORECAST = "light rain, 14 degrees"


class Sink(FrameProcessor):
    """Records what the service pushes downstream (reply audio and text) and the output items of each
    response.done (the service's on_conversation_item_updated)."""

    def __init__(self):
        super().__init__()
        self.audio = bytearray()
        self.text: list[str] = []
        self.replies: dict[str, str] = {}      # assistant message id -> status (on_conversation_item_updated)
        self.first_audio_at: float | None = None
        self.changed = asyncio.Event()

    async def process_frame(self, frame, direction):
        await super().process_frame(frame, direction)
        if isinstance(frame, TTSAudioRawFrame):
            if self.first_audio_at is None:
                self.first_audio_at = time.monotonic()
            self.audio += frame.audio
        elif isinstance(frame, TTSTextFrame):
            self.text.append(frame.text)
        self.changed.set()
        await self.push_frame(frame, direction)

    def completed(self) -> int:
        return sum(status == "completed" for status in self.replies.values())

    async def until(self, condition, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            self.changed.clear()
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("the peer waited in vain")
            try:
                await asyncio.wait_for(self.changed.wait(), remaining)
            except asyncio.TimeoutError:
                pass


async def stream(worker: PipelineWorker, pcm: bytes, rate: int) -> None:
    async for chunk in paced(pcm, rate):
        await worker.queue_frame(InputAudioRawFrame(audio=chunk, sample_rate=rate, num_channels=1))


async def run(args) -> dict:
    errors: list[str] = []
    logger.remove()
    logger.add(sys.stderr, level="INFO")
    logger.add(lambda message: errors.append(message.strip()), level="ERROR")

    calls: list[dict] = []

    async def set_device(params):
        calls.append(dict(params.arguments))
        await params.result_callback(params.arguments["state"])      # Pipecat JSON-encodes it: '"on"'

    sink = Sink()
    llm = OpenAIRealtimeLLMService(
        api_key="parley", base_url=args.url,
        settings=OpenAIRealtimeLLMService.Settings(session_properties=events.SessionProperties(
            audio=events.AudioConfiguration(input=events.AudioInput(turn_detection=events.TurnDetection())))))
    async def get_weather(params):
        calls.append(dict(params.arguments))
        await params.result_callback(FORECAST)

    llm.register_function("set_device", set_device)
    llm.register_function("get_weather", get_weather)

    @llm.event_handler("on_conversation_item_updated")
    async def item_updated(service, item_id, item):       # conversation.item.done and response.done items
        if item is not None and item.type == "message" and item.role == "assistant":
            sink.replies[item_id] = item.status
            sink.changed.set()

    tools = {"tool": [TOOL], "weather": [WEATHER]}.get(args.scenario)
    context = LLMContext(tools=ToolsSchema(standard_tools=tools)) if tools else LLMContext()
    aggregators = LLMContextAggregatorPair(context)
    pipeline = Pipeline([aggregators.user(), llm, sink, aggregators.assistant()])
    worker = PipelineWorker(pipeline, params=PipelineParams(audio_in_sample_rate=args.rate,
                                                            audio_out_sample_rate=24000),
                            idle_timeout_secs=None, enable_rtvi=False)
    runner = WorkerRunner(handle_sigint=False)
    await runner.add_workers(worker)
    running = asyncio.create_task(runner.run())
    pcm = Path(args.speech).read_bytes() if args.speech else b""
    result: dict = {}
    try:
        await asyncio.sleep(1.0)                     # session.created / session.updated
        if args.scenario in ("typed", "tool", "weather"):
            request = {"typed": "What is seven times six?", "tool": "Turn on the kitchen light.",
                       "weather": "What's the weather in Paris?"}[args.scenario]
            await worker.queue_frame(LLMMessagesAppendFrame(messages=[{"role": "user", "content": request}],
                                                            run_llm=True))
            await sink.until(lambda: sink.completed() >= 1, 90)     # (tool: after the call and its result)
        elif args.scenario == "spoken":
            await stream(worker, pcm, args.rate)
            await sink.until(lambda: sink.completed() >= 1, 90)
        elif args.scenario == "barge_in":
            await stream(worker, pcm, args.rate)
            await sink.until(lambda: sink.first_audio_at is not None, 90)
            interrupted_at = len(sink.audio)
            await stream(worker, Path(args.interruption).read_bytes(), args.rate)
            await sink.until(lambda: sink.completed() >= 1 and len(sink.audio) > interrupted_at, 90)
        await asyncio.sleep(1.0)                     # late errors still show
        result.update(text="".join(sink.text), calls=calls, replies=list(sink.replies.values()))
    except TimeoutError as exc:
        result.update(timeout=str(exc), text="".join(sink.text), replies=list(sink.replies.values()))
    finally:
        await worker.queue_frame(EndFrame())
        try:
            await asyncio.wait_for(running, 15)
        except asyncio.TimeoutError:
            await worker.cancel()
            errors.append("the pipeline did not end")
    out = Path(args.out)
    (out / "reply.pcm").write_bytes(bytes(sink.audio))
    result["errors"] = errors
    return result


if __name__ == "__main__":
    main(run, ["typed", "spoken", "barge_in", "tool", "weather"])
