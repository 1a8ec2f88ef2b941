"""`parley generator serve` against hostile clients (issue 25, N6 and N11), over real sockets on loopback: every
bad request gets a 4xx OpenAI-shaped JSON error (never a 500 with a traceback), a prompt costs what the model's
window can show, and a client that cuts its stream costs one log line."""
import dataclasses
import json
import logging
import socket
import time

import pytest

from assistant.generator import respond_sync
from assistant.generator_server import MAX_PROMPT_CHARS, GeneratorConfig, load_generator
from assistant.tools import ToolRunner
from test_generator_server import KITCHEN, SKILL_TOOLS, ServerThread, generator, http, serve  # noqa: F401 (fixtures)


def post(server: ServerThread, body: bytes | dict, headers: dict | None = None) -> tuple[int, dict]:
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    status, _, answer = http(server.url + "/v1/chat/completions", raw,
                             {"Content-Type": "application/json", **(headers or {})})
    return status, json.loads(answer)


def raw_request(server: ServerThread, head: bytes, body: bytes) -> bytes:
    """An HTTP/1.1 request written byte for byte (headers no client library would send); the whole answer."""
    port = int(server.url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(head + b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(body) + body)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


def test_an_invalid_utf8_bearer_is_refused_with_401_before_anything_else(serve):
    server = serve(GeneratorConfig(port=0, api_key="sesame"))
    answer = raw_request(server, b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                                 b"Authorization: Bearer \xff\xfe\xc3\x28\r\n", json.dumps({"messages": KITCHEN}).encode())
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 401"), head
    assert json.loads(body)["error"]["code"] == "invalid_api_key"


@pytest.mark.parametrize("body, param", [
    (b'{"messages": ' + b"[" * 50_000 + b"]" * 50_000 + b"}", None),
    ({"messages": [{"role": "user", "content": [{"type": "text", "text": 5}]}]}, "messages[0].content"),
    ({"messages": [{"role": "user", "content": [{"type": "text", "text": ["turn on"]}]}]}, "messages[0].content"),
    ({"messages": [{"role": "user", "content": "turn on the light"},
                   {"role": "assistant", "content": None, "tool_calls": [
                       {"id": "c", "type": "function", "function": {"name": "switch_device", "arguments": "[1, 2]"}}]},
                   {"role": "tool", "tool_call_id": "c", "content": "on"},
                   {"role": "user", "content": "and the kitchen"}]}, "messages[1].tool_calls"),
    ({"messages": [{"role": "user", "content": "hi"},
                   {"role": "assistant", "tool_calls": [{"id": "c", "function": {"name": "x", "arguments": 7}}]},
                   {"role": "user", "content": "again"}]}, "messages[1].tool_calls"),
    ({"messages": [{"role": "user", "content": "hi"},
                   {"role": "assistant", "tool_calls": [{"id": "c", "function": "switch_device"}]},
                   {"role": "user", "content": "again"}]}, "messages[1].tool_calls"),
    (b'{"messages": [{"role": "user", "content": "turn on the \\ud800 light"}]}', None),
    (b'{"messages": [{"role": "user", "content": "turn on the \xff\xfe light"}]}', None),      # not UTF-8
    (b'{"messages": [{"role": "user", "content": "hi"}], "parley": {"home": {"names": ["\\udfff"]}}}', None),
    ({"messages": KITCHEN, "seed": 2 ** 63, "temperature": 0.7}, "seed"),
    ({"messages": KITCHEN, "seed": 2 ** 64, "temperature": 0.7}, "seed"),
    ({"messages": KITCHEN, "seed": -2 ** 63 - 1, "temperature": 0.7}, "seed"),
])
def test_bad_input_gets_a_400_not_a_500(serve, body, param):
    server = serve()
    status, answer = post(server, body)
    assert status == 400, answer
    assert answer["error"]["type"] == "invalid_request_error" and answer["error"]["message"]
    assert answer["error"].get("param") == param
    # and the server goes on
    status, answer = post(server, {"messages": KITCHEN, "tools": SKILL_TOOLS})
    assert status == 200 and answer["choices"][0]["finish_reason"] == "tool_calls"


def test_a_seed_in_range_with_a_temperature_is_answered(serve):
    status, answer = post(serve(), {"messages": KITCHEN, "seed": 2 ** 63 - 1, "temperature": 0.7})
    assert status == 200 and answer["choices"][0]["message"]


def test_a_prompt_larger_than_the_bound_is_refused_with_413(serve):
    earlier = "please turn on the kitchen light " * (MAX_PROMPT_CHARS // 64)
    messages = [{"role": "user", "content": earlier}, {"role": "assistant", "content": "Okay."},
                {"role": "user", "content": earlier}, {"role": "assistant", "content": "Okay."}] + KITCHEN
    status, answer = post(serve(), {"messages": messages})
    assert status == 413 and answer["error"]["code"] == "context_length_exceeded"
    assert answer["error"]["param"] == "messages"


def test_an_earlier_turn_longer_than_the_window_reads_as_its_end(serve, generator):
    """The model sees the prompt's end: an earlier turn is read only as far as the window can show it, so a
    200,000-character turn costs what a short one does, and the reply is the one the whole history gets (a
    self-contained last request is read alone: assistant.conversation)."""
    history = [{"role": "user", "content": "blah " * 40_000 + "please turn off the bedroom fan"},
               {"role": "assistant", "content": "Okay."}] + KITCHEN
    status, answer = post(serve(), {"messages": history, "tools": SKILL_TOOLS})
    assert status == 200 and 0 < answer["usage"]["prompt_tokens"] <= generator.max_prompt
    [call] = respond_sync(generator, history, ToolRunner()).tool_calls
    [sent] = answer["choices"][0]["message"]["tool_calls"]
    assert (sent["function"]["name"], json.loads(sent["function"]["arguments"])) == (call.name, call.arguments)


def test_a_client_that_cuts_its_stream_costs_one_log_line_and_no_traceback(serve, caplog):
    generator, name = load_generator(None, "5M", "cpu", "float32")
    # 16 blocks of up to 32 passes each: the reply is still being written when the client goes
    generator.decode = dataclasses.replace(generator.decode, gen_length=512, steps=512, max_forward_passes=None)
    server = serve(gen=generator, name=name)
    caplog.set_level(logging.INFO)
    port = int(server.url.rsplit(":", 1)[1])
    body = json.dumps({"messages": KITCHEN, "stream": True, "temperature": 0.5, "seed": 1}).encode()
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        sock.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: %d\r\n\r\n" % len(body) + body)
        first = sock.recv(65536)
        assert first.startswith(b"HTTP/1.1 200")
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")   # RST
    service = server.service
    for _ in range(600):                          # the cut reply leaves the batch
        if service.batcher.in_flight == 0 and service.batcher.waiting == 0 and \
                any("stream" in r.getMessage() for r in caplog.records):
            break
        time.sleep(0.1)
    time.sleep(0.5)
    assert not [r for r in caplog.records if r.exc_info], [r.getMessage() for r in caplog.records]
    cut = [r for r in caplog.records if r.name == "parley.generator" and "stream" in r.getMessage()]
    assert len(cut) == 1 and cut[0].levelno == logging.INFO, [r.getMessage() for r in caplog.records]
    assert server.get("/healthz")[0] == 200
