"""A large Realtime message is parsed in steps, the event loop free between them: its long strings (an append's
audio) are found a slice at a time and copied out, and only the rest goes through the JSON parser in one call. The
result, and every error, is what json.loads gives for the whole message."""
import asyncio
import base64
import json
import random

import numpy as np
import pytest

import streaming.transports.realtime as realtime
from streaming.session import SessionConfig
from streaming.transports.realtime import SLICE_CHARS, AppendAudio, RealtimeProtocol
from realtime_client import RealtimeClient

AUDIO = np.random.default_rng(43).normal(0, 300, 60 * 24_000).astype("<i2").tobytes()[:2_850_000]   # 3.8 MB of base64
BASE64 = base64.b64encode(AUDIO).decode()


class CountingJson:
    """The json module as the protocol uses it, keeping the length of every text handed to its parser."""
    JSONDecodeError = json.JSONDecodeError

    def __init__(self):
        self.parsed: list[int] = []

    def loads(self, text):
        self.parsed.append(len(text))
        return json.loads(text)

    def JSONDecoder(self, **options):
        parsed, decoder = self.parsed, json.JSONDecoder(**options)

        class Counted:
            def decode(self, text):
                parsed.append(len(text))
                return decoder.decode(text)
        return Counted()

    def dumps(self, *args, **kwargs):
        return json.dumps(*args, **kwargs)


@pytest.fixture
def parser(monkeypatch) -> CountingJson:
    counting = CountingJson()
    monkeypatch.setattr(realtime, "json", counting)
    return counting


def protocol() -> RealtimeProtocol:
    return RealtimeProtocol(session_id="sess_1", model="parley-home", defaults=SessionConfig())


def steps(protocol: RealtimeProtocol, text: str) -> tuple[int, list]:
    """How many times `receiving` let the loop go (None), and its commands."""
    *between, commands = protocol.receiving(text)
    assert all(step is None for step in between)
    return len(between), commands


def errors(protocol: RealtimeProtocol) -> list[dict]:
    return [event["error"] for event in map(json.loads, protocol.data_to_send()) if event["type"] == "error"]


def test_a_large_append_is_parsed_without_handing_its_whole_text_to_the_parser(parser):
    text = json.dumps({"type": "input_audio_buffer.append", "event_id": "evt_large", "audio": BASE64})
    taking = protocol()
    _, [append] = steps(taking, text)
    assert append == AppendAudio(AUDIO, event_id="evt_large") and errors(taking) == []
    assert parser.parsed and max(parser.parsed) <= SLICE_CHARS + 2        # a slice of the audio between its quotes


def test_a_large_message_is_acted_on_as_the_whole_parse_reads_it(parser):
    """White space, a key order of the client's own and a top-level string are read as json.loads reads them."""
    text = ('{\n  "audio" :\t"' + BASE64 + '",\r\n  "type": "input_audio_buffer.append", "event_id": "evt_2",'
            ' "type": "input_audio_buffer.append"\n}\n')
    taking = protocol()
    _, [append] = steps(taking, text)
    assert append == AppendAudio(AUDIO, event_id="evt_2") and errors(taking) == []
    assert steps(taking, json.dumps(BASE64))[1] == []
    assert [e["code"] for e in errors(taking)] == ["invalid_event"]


@pytest.mark.parametrize("text", [
    json.dumps({"type": "input_audio_buffer.append", "audio": BASE64})[:-1],                  # no closing brace
    json.dumps({"type": "input_audio_buffer.append", "audio": BASE64}) + " {}",              # extra data
    '{"type": "input_audio_buffer.append", "audio": "' + BASE64[:900_000] + '\x01' + BASE64[900_001:] + '"}',
    '{"type": "input_audio_buffer.append", "audio": "' + BASE64[:900_000] + '"' + BASE64[900_001:] + '"}',
    '{"type": "input_audio_buffer.append", "audio": "' + BASE64 + '", }',                  # a trailing comma
    '{"type": "input_audio_buffer.append", "audio" "' + BASE64 + '"}',                     # no colon
    '{"' + BASE64 + '": 1, "type": "input_audio_buffer.append" "audio": ""}',               # a long key, then no comma
    '{"type": "input_audio_buffer.append", "audio": "' + BASE64 + '", "n": ' + "7" * 5000 + "}",   # 5,000 digits
    '{"type": "input_audio_buffer.append", "audio": "' + BASE64 + '", "deep": ' + "[" * 20_000 + "]" * 20_000 + "}",
    '{"type": "input_audio_buffer.append", "audio": "' + BASE64 + '\n"}',                  # a raw newline at its end
    '{"type": "input_audio_buffer.append", "audio": "' + BASE64,                           # a string that never ends
], ids=["unclosed", "extra-data", "control-character", "stray-quote", "trailing-comma", "no-colon", "long-key",
        "digits", "nesting", "newline", "unterminated"])
def test_large_invalid_json_gets_the_error_the_whole_parse_gives(text):
    try:
        json.loads(text)
    except RecursionError:
        expected = "the message nests too deeply"
    except ValueError as exc:
        expected = f"the message is not valid JSON: {exc}"
    taking = protocol()
    assert steps(taking, text)[1] == []
    [error] = errors(taking)
    assert (error["code"], error["message"]) == ("invalid_json", expected)


def test_a_large_message_with_a_lone_surrogate_escape_is_refused_as_text(parser):
    text = '{"type": "input_audio_buffer.append", "audio": "' + BASE64 + '", "note": "\\ud800"}'
    taking = protocol()
    assert steps(taking, text)[1] == []
    assert [e["code"] for e in errors(taking)] == ["invalid_text"]
    assert max(parser.parsed) <= SLICE_CHARS + 2


def test_a_small_message_is_parsed_whole_in_one_step(parser):
    text = json.dumps({"type": "input_audio_buffer.append", "audio": BASE64[:4096]})
    taking = protocol()
    between, [append] = steps(taking, text)
    assert between == 0 and append.pcm16 == AUDIO[:3072] and parser.parsed == [len(text)]


async def test_a_3_5_mb_message_and_another_sessions_event_both_get_their_answers(live_server):
    large, other = [await RealtimeClient.connect(live_server.ws_url + "?model=parley-home") for _ in range(2)]
    for client in (large, other):
        await client.wait_for("session.created")
    await large.send({"type": "session.update", "session": {"audio": {"input": {"turn_detection": None}}}})
    await large.wait_for("session.updated")
    audio = "A" * (3_500_000 // 4 * 4)                       # 2.6 MB of silence: its transcript costs little
    sending = asyncio.create_task(large.send({"type": "input_audio_buffer.append", "audio": audio}))
    await other.send({"type": "session.update", "event_id": "evt_other", "session": {"instructions": "Be brief."}})
    await sending
    await large.send({"type": "input_audio_buffer.commit", "event_id": "evt_commit"})
    committed = await large.wait_for("input_audio_buffer.committed")
    updated = await other.wait_for("session.updated", where=lambda e: e["session"]["instructions"] == "Be brief.")
    assert committed["item_id"] and updated
    assert large.of_type("error") == [] and other.of_type("error") == []
    await large.close()
    await other.close()


def test_large_messages_changed_anywhere_get_what_the_whole_parse_gives():
    """Characters inserted, deleted or replaced (near the strings' quotes half the time): each message's value or
    error is json.loads' own."""
    rng = random.Random(43)
    long = BASE64[:200_000]
    messages = [json.dumps({"type": "input_audio_buffer.append", "audio": long, "event_id": "e1"}),
                json.dumps({"a": [long[:1000]] * 100, "b": 1}),
                json.dumps({long[:70_000]: 1, "k": "v" * 300}),
                json.dumps({"x": "é\u2603" * 40_000, "n": float("nan"), "i": [float("inf"), float("-inf")]}),
                json.dumps({"x": "a\\b\"c\n" * 20_000, "y": "z" * 500}),
                json.dumps({"t": "NaN" * 30_000, "u": "w" * 1000}),
                json.dumps({"p": "r" * 65_530 + "\\" + "s" * 70_000, "q": "t" * 65_535 + "\x01" + "u" * 3000}),
                '[' * 50 + '"' + "v" * 70_000 + '"' + ']' * 50]
    marks = ['"', '\\', ',', ':', '[', ']', '{', '}', 'N', 'a', '1', ' ', '\x01', 'NaN', '-', 'Infinity', '\n']

    def outcome(parse):
        try:
            return "value", json.dumps(parse(), allow_nan=True)
        except ValueError as error:
            return type(error).__name__, str(error)

    def in_steps(text):
        *_, (value, _) = _steps(realtime.parsing(text))
        return value

    for message in messages:
        for _ in range(25):
            text = list(message)
            for _ in range(rng.randint(1, 3)):
                at = rng.randrange(len(text)) if rng.random() < 0.5 else \
                    min(len(text) - 1, max(0, message.find('"', rng.randrange(len(message))) + rng.randint(-2, 2)))
                change, mark = rng.random(), rng.choice(marks)
                if change < 0.4:
                    text.insert(at, mark)
                elif change < 0.7:
                    del text[at]
                else:
                    text[at] = mark
            text = "".join(text)
            assert outcome(lambda: in_steps(text)) == outcome(lambda: json.loads(text))


def _steps(parsing):
    """Each step of a generator, and last its return value."""
    while True:
        try:
            yield next(parsing)
        except StopIteration as stop:
            yield stop.value
            return
