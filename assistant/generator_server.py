"""`parley generator serve`: Parley's own OpenAI-compatible generator server over dllm_core.

    parley generator serve                                   # the embedded checkpoint on the CPU, port 8010
    parley generator serve --checkpoint DIR --device cuda --dtype bfloat16 --api-key KEY
    parley generator serve --shape 30M                       # random weights of that shape (speed tests)

POST /v1/chat/completions (streamed or not, with tools), GET /v1/models, /healthz and Prometheus /metrics.
Every request in flight is decoded by one shared forward per denoise pass (dllm_core.batching), on a worker
thread; this module renders the chat template, reads the reply (assistant.reply) and speaks the wire
(assistant.openai_chat). A reply that calls a tool carries Parley's one-pass spoken reply with its {result}
slot in `message.parley.reply`; the gateway runs the tool and fills it.

A follow-up that does not single out one thing is asked about with no decode, as the in-process assistant asks
(assistant.conversation.declined): `parley.home.kinds` carries what each of the home's things is.

A request said with a clause beside it is read as the in-process assistant reads it (assistant.clauses): its
clauses are decoded in the same passes as the whole request (ContinuousBatcher.submit_together), each a row of
the batch, so they count towards max_batch and max_waiting.

The server runs no tool: a call to a tool the request did not offer (or with tool_choice "none") is answered
with Parley's spoken refusal. tool_choice "required" or a named function limits which calls are returned but
cannot force the model to write one.
"""
import argparse
import asyncio
import contextlib
import dataclasses
import hmac
import logging
import os
import sys
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

from aiohttp import web
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from assistant.chat_template import Slots, content_text, model_prompt
from assistant.clauses import reading_taken
from assistant.conversation import declined
from assistant.embedded import DEFAULT_DECODE, EMBEDDED_CHECKPOINT, EmbeddedGenerator, reads_unasked
from assistant.http_limits import BoundedRunner
from assistant.openai_chat import (ApiError, ChatRequest, chunk, completion, parse_request, sse, tool_call_json,
                                   usage_json)
from assistant.reply import CALL_ONLY_REPLY, CANT, NOT_UNDERSTOOD, ReplyReader, split_client_result
from dllm_core.batching import BatcherClosed, ContinuousBatcher, DecodeJob, PassReport, QueueFull
from dllm_core.decoding import Block

log = logging.getLogger("parley.generator")
RETRY_AFTER_S = 1
MAX_PROMPT_CHARS = 256 * 1024           # the text of all messages: a Parley gateway sends at most its 256 KiB


@dataclass
class GeneratorConfig:
    host: str = "127.0.0.1"
    port: int = 8010
    api_key: str | None = None           # None: no auth
    max_batch: int = 64                  # requests decoded by one forward
    max_waiting: int = 256               # requests waiting for a place; beyond it, 429
    max_body_bytes: int = 1024 * 1024


class GeneratorMetrics:
    """Prometheus metrics in a registry of the server's own (several servers may share a process in tests)."""

    def __init__(self, batcher: ContinuousBatcher) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        Gauge("parley_generator_queue_depth", "Requests waiting for a place in the batch",
              registry=r).set_function(lambda: batcher.waiting)
        Gauge("parley_generator_in_flight", "Requests being decoded", registry=r).set_function(lambda: batcher.in_flight)
        self.batch_size = Histogram("parley_generator_batch_size", "Requests decoded by one forward pass",
                                    buckets=(1, 2, 4, 8, 16, 32, 64, 128, 256), registry=r)
        self.pass_seconds = Histogram("parley_generator_pass_seconds", "Duration of one batched forward pass",
                                      buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5),
                                      registry=r)
        self.passes_per_reply = Histogram("parley_generator_passes_per_reply", "Denoise passes per reply",
                                          buckets=(1, 2, 3, 4, 6, 8, 16, 32, 64), registry=r)
        self.completion_tokens = Counter("parley_generator_completion_tokens", "Tokens written", registry=r)
        self.prompt_tokens = Counter("parley_generator_prompt_tokens", "Prompt tokens read", registry=r)
        self.reply_seconds = Histogram("parley_generator_reply_seconds", "Request arrival to last token",
                                       buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10), registry=r)
        self.requests = Counter("parley_generator_requests", "Chat completion requests by HTTP status",
                                ["status"], registry=r)
        self.worker_restarts = Counter("parley_generator_worker_restarts", "Batch workers restarted after dying",
                                       registry=r)

    def observe_pass(self, report: PassReport) -> None:
        self.batch_size.observe(report.rows)
        self.pass_seconds.observe(report.seconds)


class GeneratorService:
    """The loaded generator with its batcher and metrics: what every request shares."""

    def __init__(self, generator: EmbeddedGenerator, config: GeneratorConfig, model_name: str):
        self.generator, self.config, self.model_name = generator, config, model_name
        self.batcher = ContinuousBatcher(generator.model, mask_id=generator.config.mask_token_id,
                                         eos_id=generator.config.eos_token_id, pad_id=generator.config.pad_token_id,
                                         max_batch=config.max_batch, max_waiting=config.max_waiting,
                                         on_pass=lambda report: self.metrics.observe_pass(report))
        self.metrics = GeneratorMetrics(self.batcher)
        self.draining = False
        self.created = int(time.time())
        # The most characters the prompt window can show of one message: the window's tokens at the longest.
        self.window_chars = generator.max_prompt * max(map(len, generator.tokenizer.hf.get_vocab()))

    def close(self) -> None:
        self.batcher.close()


SERVICE = web.AppKey("generator", GeneratorService)


class WireReply:
    """One request's reply in wire terms, block by block: spoken text as content, or a tool call with the
    spoken reply (slot kept) as Parley's extension."""

    def __init__(self, request: ChatRequest, reader: ReplyReader, client_result: str | None):
        self.request, self.reader, self.client_result = request, reader, client_result
        last = request.messages[-1] if request.messages else {}
        self.said = content_text(last) if last.get("role") == "user" else ""     # the words a call must answer
        self.mode: str | None = None        # "text" | "call" | "refused", once the call part is read
        self.content = ""                   # content sent so far
        self.reply = ""                     # parley.reply sent so far
        self.tool_calls: list[dict] = []
        self.passes = 0
        self.cut = False                    # max_tokens dropped some of the reply

    def add(self, block: Block) -> dict:
        """The delta for one committed block (possibly empty)."""
        self.passes = block.forward_passes
        tokens = block.tokens
        if self.request.max_tokens is not None:
            room = max(self.request.max_tokens - len(self.reader.tokens), 0)
            self.cut = self.cut or len(tokens) > room
            tokens = tokens[:room]
        head_read, added = self.reader.add(tokens)
        if head_read and self.reader.call is not None and self.client_result is None and \
                reads_unasked(self.reader.call, self.said):
            self.reader.refuse()            # a reading nothing asked for is a guess: no call, as in the embedded reply
            added = ""
        delta: dict = {}
        if head_read:
            call = self.reader.call
            if call is None or self.client_result is not None:
                self.mode = "text"
            elif self.request.offers(call.name):
                self.mode = "call"
                self.tool_calls.append(tool_call_json(call.call_id, call.name, call.arguments))
                delta["tool_calls"] = [tool_call_json(call.call_id, call.name, call.arguments, index=0)]
            else:
                self.mode = "refused"
                delta["content"] = self.content = CANT
        if self.mode == "call" and added:
            delta["parley"] = {"reply": added}
            self.reply += added
        elif self.mode == "text":
            text = self.reader.spoken(self.client_result)
            if len(text) > len(self.content):
                delta["content"] = text[len(self.content):]
                self.content = text
        return delta

    def finish(self) -> tuple[dict, str]:
        """The last delta (a stand-in reply when none was written well) and the finish reason."""
        delta: dict = {}
        if self.mode == "call":
            if not self.reply:
                delta["parley"] = {"reply": CALL_ONLY_REPLY}
                self.reply = CALL_ONLY_REPLY
            return delta, "tool_calls"
        if not self.content:
            delta["content"] = self.content = NOT_UNDERSTOOD
        return delta, "length" if self.cut else "stop"


# ---- HTTP

def _error(error: ApiError) -> web.Response:
    return web.json_response(error.body(), status=error.status, headers=error.headers)


@web.middleware
async def _auth(request: web.Request, handler):
    """With an API key, every door but /healthz needs `Authorization: Bearer <key>`."""
    key = request.app[SERVICE].config.api_key
    if key is not None and request.path != "/healthz":
        header = request.headers.get("Authorization", "")
        token = header[7:].strip() if header.lower().startswith("bearer ") else ""
        # a header's bytes that are not UTF-8 arrive as lone surrogates: compared as the bytes they were
        if not hmac.compare_digest(token.encode("utf-8", "surrogateescape"), key.encode()):
            return _error(ApiError(401, "missing or invalid API key", code="invalid_api_key"))
    return await handler(request)


def create_app(service: GeneratorService) -> web.Application:
    app = web.Application(middlewares=[_auth], client_max_size=service.config.max_body_bytes)
    app[SERVICE] = service
    app.router.add_post("/v1/chat/completions", chat_completions)
    app.router.add_get("/v1/models", models)
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/metrics", metrics_page)
    app.cleanup_ctx.append(_watch_worker)
    app.on_shutdown.append(_drain)
    return app


async def _watch_worker(app: web.Application):
    """A batch worker that died turns /healthz red until it is restarted here, a second later at most."""
    service = app[SERVICE]

    async def watch() -> None:
        while True:
            await asyncio.sleep(1)
            if not service.batcher.alive and not service.batcher.closed:
                log.error("batch worker died (%r); restarting it", service.batcher.last_error)
                service.metrics.worker_restarts.inc()
                service.batcher.start()

    task = asyncio.create_task(watch(), name="generator-watchdog")
    yield
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    await asyncio.to_thread(service.close)


async def _drain(app: web.Application) -> None:
    app[SERVICE].draining = True


async def healthz(request: web.Request) -> web.Response:
    service = request.app[SERVICE]
    status = "draining" if service.draining else "ok" if service.batcher.alive else "worker down"
    return web.json_response({"status": status, "model": service.model_name, "in_flight": service.batcher.in_flight,
                              "waiting": service.batcher.waiting}, status=200 if status == "ok" else 503)


async def metrics_page(request: web.Request) -> web.Response:
    response = web.Response(body=generate_latest(request.app[SERVICE].metrics.registry))
    response.content_type = CONTENT_TYPE_LATEST.split(";")[0]
    return response


async def models(request: web.Request) -> web.Response:
    service = request.app[SERVICE]
    return web.json_response({"object": "list", "data": [
        {"id": service.model_name, "object": "model", "created": service.created, "owned_by": "parley"}]})


async def chat_completions(request: web.Request) -> web.StreamResponse:
    service = request.app[SERVICE]
    started = time.perf_counter()
    try:
        response = await _chat(request, service, started)
    except ApiError as error:
        response = _error(error)
    service.metrics.requests.labels(str(response.status)).inc()
    return response


def _prepare(body: bytes, generator, window_chars: int
             ) -> tuple[ChatRequest, str | None, str | None, list[tuple[list[int], Slots]]]:
    """Parse the request and build its prompts (the whole request's, then one for each clause a second reading
    may take, EmbeddedGenerator.readings), or else the question that answers a follow-up singling out nothing:
    JSON of up to a MiB, the tokenizer and the conversation's state, so off the event loop.

    The whole prompt is checked: its text is bounded (MAX_PROMPT_CHARS), the request itself must fit the window,
    and every earlier message is read only as far as the window can show it (window_chars from its end), so
    a long one costs what a short one does and the prompt's tokens are the same."""
    chat = parse_request(body)
    if sum(len(content_text(m)) for m in chat.messages) > MAX_PROMPT_CHARS:
        raise ApiError(413, f"the messages hold more than {MAX_PROMPT_CHARS} characters of text",
                       code="context_length_exceeded", param="messages")
    history, client_result = split_client_result([_window_end(m, window_chars) for m in chat.messages])
    last_user = next((m for m in reversed(history) if m.get("role") == "user"), None)
    if last_user is not None and \
            len(generator.tokenizer.encode(model_prompt([last_user], chat.home)[0])) > generator.max_prompt:
        raise ApiError(413, f"the last user message is longer than the model's {generator.max_prompt}-token "
                            "prompt window", code="context_length_exceeded", param="messages")
    question = declined(history, chat.home) if client_result is None else None
    if question is not None:
        return chat, client_result, question, []
    # the tools the request declares that are none of Parley's skills reach the model as slots
    return chat, client_result, None, generator.readings(history, chat.home,
                                                         chat.tools if chat.tool_choice != "none" else {})


def _window_end(message: dict, chars: int) -> dict:
    text = content_text(message)
    return message if len(text) <= chars else {**message, "content": text[-chars:]}


async def _chat(request: web.Request, service: GeneratorService, started: float) -> web.StreamResponse:
    if service.draining or not service.batcher.alive:
        stopped = service.draining or service.batcher.closed
        raise ApiError(503, "the generator is " + ("shutting down" if stopped else "restarting"),
                       type="service_unavailable", code="not_ready", headers={"Retry-After": str(RETRY_AFTER_S)})
    try:
        body = await request.read()
    except web.HTTPRequestEntityTooLarge:
        raise ApiError(413, f"the body is larger than {service.config.max_body_bytes} bytes",
                       code="request_too_large") from None
    chat, client_result, question, readings = await asyncio.to_thread(_prepare, body, service.generator,
                                                                      service.window_chars)
    if question is not None:
        wire = WireReply(chat, service.generator.reader(Slots()), None)
        deltas, prompt_tokens = _asked(wire, question), 0
    else:
        wire, deltas = _submitted(service, chat, client_result, readings)
        prompt_tokens = len(readings[0][0])
    reply_id, created = "chatcmpl-" + uuid.uuid4().hex, int(time.time())
    if chat.stream:
        return await _stream(request, service, chat, deltas, reply_id, created, prompt_tokens, started)
    async with contextlib.aclosing(deltas):
        try:
            async for wire, _ in deltas:
                pass
        except BatcherClosed:
            raise ApiError(503, "the generator shut down mid-reply", type="service_unavailable",
                           code="not_ready") from None
        except Exception as error:
            log.exception("decode failed")
            raise ApiError(500, f"the decode failed: {error}", type="server_error", code="decode_failed") from None
    _, finish_reason = wire.finish()
    usage = _account(service, wire, prompt_tokens, started)
    return web.json_response(completion(
        reply_id, service.model_name, created, content=None if wire.mode == "call" else wire.content,
        tool_calls=wire.tool_calls, parley_reply=wire.reply if wire.mode == "call" else None,
        finish_reason=finish_reason, usage=usage))


def _submitted(service: GeneratorService, chat: ChatRequest, client_result: str | None,
               readings: list[tuple[list[int], Slots]]) -> tuple[WireReply, AsyncIterator[tuple[WireReply, dict]]]:
    """The request and its clauses in the batch: the whole request's reply and the deltas of the reading taken."""
    generator = service.generator
    decode = generator.decode
    if chat.temperature is not None:
        decode = dataclasses.replace(decode, temperature=chat.temperature)
    if len(readings) > service.config.max_batch:       # no room to read the clauses in one pass with the request
        readings = readings[:1]
    try:
        jobs = service.batcher.submit_together([ids for ids, _ in readings], decode, seed=chat.seed)
    except QueueFull as full:
        raise ApiError(429, f"the generator is busy ({full}); retry later", type="rate_limit_error",
                       code="queue_full", headers={"Retry-After": str(RETRY_AFTER_S)}) from None
    except BatcherClosed:
        raise ApiError(503, "the generator is shutting down", type="service_unavailable", code="not_ready") from None
    wires = [WireReply(chat, generator.reader(slots), client_result) for _, slots in readings]
    return wires[0], _deltas(wires, jobs)


async def _asked(wire: WireReply, question: str) -> AsyncIterator[tuple[WireReply, dict]]:
    """A follow-up's question as the whole reply: text, with no call."""
    wire.mode = "text"
    wire.content = question
    yield wire, {"content": question}


async def _deltas(wires: list[WireReply], jobs: list[DecodeJob]) -> AsyncIterator[tuple[WireReply, dict]]:
    """The reply's deltas, each with the reading it comes from. The whole request's come as its blocks come
    once it calls (its clauses then leave the batch); while it makes no call they are held until its clauses,
    decoded in the same passes, are read, and the reading taken (clauses.reading_taken) is sent, so a refusal
    is never sent before the clauses are read."""
    whole, clause_jobs = wires[0], jobs[1:]
    held: list[list[dict]] = [[] for _ in wires]
    blocks = jobs[0].blocks()
    try:
        async with contextlib.aclosing(blocks):
            async for block in blocks:
                held[0].append(whole.add(block))
                if clause_jobs and whole.reader.call is not None:
                    for job in clause_jobs:
                        job.cancel()
                    clause_jobs = []
                if not clause_jobs:
                    for delta in held[0]:
                        yield whole, delta
                    held[0] = []
        if not clause_jobs:
            return

        async def read(index: int) -> None:
            clause_blocks = jobs[index].blocks()
            async with contextlib.aclosing(clause_blocks):
                async for clause_block in clause_blocks:
                    held[index].append(wires[index].add(clause_block))

        await asyncio.gather(*(read(index) for index in range(1, len(jobs))))
    finally:
        for job in clause_jobs:
            job.cancel()
    readers = [wire.reader for wire in wires]
    taken = readers.index(reading_taken(readers[0], readers[1:]))
    for delta in held[taken]:
        yield wires[taken], delta


async def _stream(request: web.Request, service: GeneratorService, chat: ChatRequest,
                  deltas: AsyncIterator[tuple[WireReply, dict]], reply_id: str, created: int, prompt_tokens: int,
                  started: float) -> web.StreamResponse:
    """SSE: one chunk per committed block, the finish chunk (with usage), the usage chunk if asked, [DONE]."""
    response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"})
    await response.prepare(request)
    try:
        await _stream_blocks(response, service, chat, deltas, reply_id, created, prompt_tokens, started)
    except ConnectionResetError:           # the client hung up: its reply leaves the batch (aclosing)
        log.info("%s: the client closed its stream mid-reply", reply_id)
    return response


async def _stream_blocks(response: web.StreamResponse, service: GeneratorService, chat: ChatRequest,
                         deltas: AsyncIterator[tuple[WireReply, dict]], reply_id: str, created: int,
                         prompt_tokens: int, started: float) -> None:
    model = service.model_name
    first = True
    async with contextlib.aclosing(deltas):
        while True:
            try:
                wire, delta = await anext(deltas)
            except StopAsyncIteration:
                break
            except Exception as error:  # after the headers, the error travels as an event (the openai client raises it)
                if not isinstance(error, BatcherClosed):
                    log.exception("decode failed")
                await response.write(sse(ApiError(500, f"the decode failed: {error}", type="server_error",
                                                  code="decode_failed").body()))
                await response.write(sse("[DONE]"))
                return
            if first:
                delta = {"role": "assistant", **delta}
                first = False
            await response.write(sse(chunk(reply_id, model, created, delta)))
    delta, finish_reason = wire.finish()
    if first:
        delta = {"role": "assistant", **delta}
    usage = _account(service, wire, prompt_tokens, started)
    await response.write(sse(chunk(reply_id, model, created, delta, finish_reason, usage=usage)))
    if chat.include_usage:
        await response.write(sse(chunk(reply_id, model, created, None, usage=usage)))
    await response.write(sse("[DONE]"))
    await response.write_eof()


def _account(service: GeneratorService, wire: WireReply, prompt_tokens: int, started: float) -> dict:
    completion_tokens = len(wire.reader.tokens)
    metrics = service.metrics
    metrics.prompt_tokens.inc(prompt_tokens)
    metrics.completion_tokens.inc(completion_tokens)
    metrics.passes_per_reply.observe(wire.passes)
    metrics.reply_seconds.observe(time.perf_counter() - started)
    return usage_json(prompt_tokens, completion_tokens)


# ---- loading and the command line

def load_generator(checkpoint: str | None, shape: str | None, device: str, dtype: str) -> tuple[EmbeddedGenerator, str]:
    """The generator and the model name it is served as: a checkpoint, or random weights of a shape with
    the embedded tokenizer (for speed measurements; its replies are noise)."""
    if shape is None:
        path = Path(checkpoint) if checkpoint else EMBEDDED_CHECKPOINT
        return EmbeddedGenerator.load(path, device=device, dtype=dtype), path.name
    import torch

    from assistant.tokenizer import Tokenizer
    from dllm_core.shapes import random_model

    tokenizer = Tokenizer.load(EMBEDDED_CHECKPOINT)
    model, config = random_model(shape, getattr(torch, dtype), device, mask_id=tokenizer.mask_id,
                                 eos_id=tokenizer.eos_id, pad_id=tokenizer.pad_id)
    return EmbeddedGenerator(model, config, tokenizer, DEFAULT_DECODE,
                             config.max_sequence_length - DEFAULT_DECODE.gen_length), f"parley-random-{shape}"


def _env(name: str, default):
    return os.environ.get(f"PARLEY_GENERATOR_{name}", default)


def build_parser() -> argparse.ArgumentParser:
    from dllm_core.checkpoint import DTYPES
    from dllm_core.shapes import SHAPES

    defaults = GeneratorConfig()
    parser = argparse.ArgumentParser(prog="parley generator serve", description=__doc__.split("\n\n")[0])
    parser.add_argument("--checkpoint", default=_env("CHECKPOINT", None),
                        help="LLaDA-format checkpoint directory with tokenizer.json (default: the embedded one)")
    parser.add_argument("--shape", choices=list(SHAPES), type=lambda s: {k.lower(): k for k in SHAPES}.get(s.lower(), s),
                        help="random weights of this shape with the embedded tokenizer, instead of a checkpoint")
    parser.add_argument("--device", default=_env("DEVICE", "cpu"), help="cpu, cuda or cuda:N")
    parser.add_argument("--dtype", default=_env("DTYPE", "float32"), choices=list(DTYPES))
    parser.add_argument("--threads", type=int, default=int(_env("THREADS", 1)),
                        help="CPU threads for the forward (default 1; see docs/generator-server.md)")
    parser.add_argument("--host", default=_env("HOST", defaults.host))
    parser.add_argument("--port", type=int, default=int(_env("PORT", defaults.port)), help="0 picks a free port")
    parser.add_argument("--api-key", default=_env("API_KEY", None), help="require `Authorization: Bearer KEY`")
    parser.add_argument("--max-batch", type=int, default=int(_env("MAX_BATCH", defaults.max_batch)),
                        help="requests decoded by one forward pass")
    parser.add_argument("--max-waiting", type=int, default=int(_env("MAX_WAITING", defaults.max_waiting)),
                        help="requests waiting for a place in the batch; more get 429")
    parser.add_argument("--max-body-bytes", type=int, default=int(_env("MAX_BODY_BYTES", defaults.max_body_bytes)))
    return parser


async def serve(service: GeneratorService, host: str, port: int) -> None:
    # No access log: a line per request costs the event loop at hundreds of requests a second; /metrics counts them.
    runner = BoundedRunner(create_app(service), access_log=None)     # half-open connections time out
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    bound = runner.addresses[0][1]
    print(f"Parley generator {service.model_name} is listening on http://{host}:{bound}/v1 "
          f"(max batch {service.config.max_batch}, {service.config.max_waiting} waiting)", flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] != "serve":
        print("usage: parley generator serve [--checkpoint DIR | --shape NAME] [--device cpu|cuda] [--dtype ...] "
              "[--host H] [--port P] [--api-key KEY] ...")
        return 0 if argv[:1] in (["-h"], ["--help"]) else 2
    args = build_parser().parse_args(argv[1:])
    if args.checkpoint and args.shape:
        print("--checkpoint and --shape exclude each other", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    generator, name = load_generator(args.checkpoint, args.shape, args.device, args.dtype)
    import torch

    torch.set_num_threads(args.threads)
    config = GeneratorConfig(host=args.host, port=args.port, api_key=args.api_key or None, max_batch=args.max_batch,
                             max_waiting=args.max_waiting, max_body_bytes=args.max_body_bytes)
    service = GeneratorService(generator, config, name)
    try:
        asyncio.run(serve(service, args.host, args.port))
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
