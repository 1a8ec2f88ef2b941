"""One hostile message may not hold the event loop that other sessions share: a minute of audio in one Realtime
append is decoded and goes into its session in slices with the loop free between them, and a chat-completions body
or a Wyoming event's data of more JSON values than a bound is refused before it is parsed."""
import asyncio
import base64
import json

import numpy as np
import openai
import pytest

from assistant.openai_chat import MAX_BODY_VALUES
from streaming.session import AUDIO_SLICE_MS, Session, SessionConfig
from streaming.transports.realtime import RealtimeProtocol
from streaming.transports.realtime_link import RealtimeLink
from voice.audio import float_to_pcm16, mulaw_decode
from streaming.transports.wyoming import MAX_EVENT_VALUES, BadEvent, read_event
from realtime_client import RealtimeClient
from test_generator_server import KITCHEN, SKILL_TOOLS, generator, serve  # noqa: F401 (fixtures)


class Kept:
    """A carrier that keeps what the link sends."""

    def __init__(self):
        self.frames = []

    async def send(self, frame: str) -> bool:
        self.frames.append(json.loads(frame))
        return True

    def drop(self, reason: str) -> None:
        pass

    async def close(self, reason: str, going_away: bool) -> None:
        pass


async def test_a_minute_of_audio_in_one_append_lets_another_sessions_audio_in_between(engines):
    noisy, other = Session(engines, SessionConfig()), Session(engines, SessionConfig())    # server VAD, the default
    await noisy.start()
    await other.start()
    carrier = Kept()
    link = RealtimeLink(noisy, RealtimeProtocol(session_id=noisy.id, model="parley-home", defaults=noisy.config),
                        carrier)
    minute = np.random.default_rng(7).normal(0, 300, 60 * 24_000).astype("<i2").tobytes()   # 2.9 MB, 24 kHz
    frame = np.zeros(480, "<i2").tobytes()                                                   # 20 ms
    frames_in = 0

    async def other_audio():
        nonlocal frames_in
        while True:
            other.push_audio(frame)
            frames_in += 1
            await asyncio.sleep(0)

    speaking = asyncio.create_task(other_audio())
    await asyncio.sleep(0)
    before = frames_in
    await link.receive(json.dumps({"type": "input_audio_buffer.append",
                                   "audio": base64.b64encode(minute).decode()}))
    during = frames_in - before
    speaking.cancel()
    await link.flush()
    assert [f["type"] for f in carrier.frames if f["type"] == "error"] == []
    assert during >= 60_000 // AUDIO_SLICE_MS - 1       # the other session's audio went in between the slices
    await noisy.close()
    await other.close()


async def test_another_sessions_commit_is_answered_while_a_4_mib_append_is_decoded(engines):
    """The hostile append's base64 goes wrong only in its last characters, so all of it is decoded before it is
    refused; meanwhile another session's append and commit are taken and answered."""
    manual = SessionConfig(turn_detection=None)
    hostile, other = Session(engines, manual), Session(engines, manual)
    carriers, links = [], []
    for session in (hostile, other):
        carriers.append(Kept())
        links.append(RealtimeLink(session, RealtimeProtocol(session_id=session.id, model="parley-home",
                                                            defaults=session.config), carriers[-1]))
        await links[-1].open()
    forwarding = [asyncio.create_task(link.forward()) for link in links]
    minute = np.random.default_rng(7).normal(0, 300, 60 * 24_000).astype("<i2").tobytes()
    audio = base64.b64encode(minute).decode()[:-4] + "!!!!"                           # 3.8 MB: 59 slices
    decoding = asyncio.create_task(links[0].receive(json.dumps(
        {"type": "input_audio_buffer.append", "event_id": "evt_hostile", "audio": audio})))
    await asyncio.sleep(0)                                                            # its handling has begun
    quiet = np.zeros(4800, "<i2").tobytes()                                          # 200 ms
    await links[1].receive(json.dumps({"type": "input_audio_buffer.append", "audio": base64.b64encode(quiet).decode()}))
    await links[1].receive(json.dumps({"type": "input_audio_buffer.commit"}))
    for _ in range(1000):                                 # a bound in loop turns: the answer takes a few
        if any(frame["type"] == "input_audio_buffer.committed" for frame in carriers[1].frames):
            break
        await asyncio.sleep(0)
    assert any(frame["type"] == "input_audio_buffer.committed" for frame in carriers[1].frames)
    assert not decoding.done()                            # answered while the hostile append is still decoded
    assert [frame for frame in carriers[0].frames if frame["type"] == "error"] == []
    await decoding
    await links[0].flush()
    [error] = [frame for frame in carriers[0].frames if frame["type"] == "error"]
    assert error["error"]["code"] == "invalid_base64" and error["error"]["event_id"] == "evt_hostile"
    for session, task in zip((hostile, other), forwarding):
        await session.close()
        await task


async def test_appends_decoded_in_slices_reach_their_session_in_order(live_server, speech):
    """A request sent as appends of mixed sizes, the large ones decoded in slices, beside another client's large
    appends, is heard as it was said."""
    said = speech.piper("Turn on the kitchen light.", sampled=False)         # 24 kHz
    cuts = [0, 57_600, 62_400, 67_200, 124_800, 126_816, len(said)]       # 1.2 s, 0.1 s, 0.1 s, 1.2 s, 42 ms, the rest
    assert len(said) > cuts[-2] + 4800                                     # 1.2 s: 76,800 characters, two slices
    client, other = [await RealtimeClient.connect(live_server.ws_url + "?model=parley-home") for _ in range(2)]
    for each in (client, other):
        await each.send({"type": "session.update", "session": {"audio": {"input": {"turn_detection": None}}}})
        await each.wait_for("session.updated")
    noise = base64.b64encode(np.random.default_rng(3).normal(0, 300, 10 * 24_000).astype("<i2").tobytes()).decode()
    for start, end in zip(cuts, cuts[1:]):
        await other.send({"type": "input_audio_buffer.append", "audio": noise})
        await client.send({"type": "input_audio_buffer.append", "audio": base64.b64encode(said[start:end]).decode()})
    await client.send({"type": "input_audio_buffer.commit"})
    done = await client.wait_for("conversation.item.input_audio_transcription.completed")
    assert [w.strip(".,?!").lower() for w in done["transcript"].split()] == ["turn", "on", "the", "kitchen", "light"]
    assert client.of_type("error") == [] and other.of_type("error") == []
    await client.close()
    await other.close()


def test_an_append_decoded_in_slices_is_its_whole_audio_and_bad_base64_anywhere_in_it_is_refused():
    protocol = RealtimeProtocol(session_id="sess_1", model="parley-home", defaults=SessionConfig())

    def append(data: bytes | str) -> list:
        audio = data if isinstance(data, str) else base64.b64encode(data).decode()
        return protocol.receive(json.dumps({"type": "input_audio_buffer.append", "audio": audio}))

    def errors() -> list[str]:
        return [json.loads(frame)["error"]["code"] for frame in protocol.data_to_send()
                if json.loads(frame)["type"] == "error"]

    pcm = np.random.default_rng(11).normal(0, 3000, 150_001).astype("<i2").tobytes()     # base64 ends in "="
    text = base64.b64encode(pcm).decode()
    [whole] = append(pcm)
    assert whole.pcm16 == pcm and errors() == []
    a_slice = 65_536                                                                   # where a slice ends
    for bad in (text[:10] + "=" + text[11:], text[:a_slice - 4] + "QQ==" + text[a_slice:],
                text[:200_000] + "!" + text[200_001:], text[:-1], text[:-4] + "QQ=="[:3] + "=="):
        assert append(bad) == [] and errors() == ["invalid_base64"]
    assert append(pcm[:-1]) == [] and errors() == ["invalid_audio"]
    protocol.receive(json.dumps({"type": "session.update",
                                 "session": {"audio": {"input": {"format": {"type": "audio/pcmu"}}}}}))
    protocol.data_to_send()
    [mulaw] = append(pcm[:-1])
    assert mulaw.pcm16 == float_to_pcm16(mulaw_decode(pcm[:-1])) and errors() == []


def test_a_chat_body_of_more_json_values_than_the_bound_is_refused_before_it_is_parsed(serve):
    client = serve().client()
    with pytest.raises(openai.APIStatusError) as refused:
        client.chat.completions.create(model="parley-home", messages=[[]] * 200_000)     # 800 KB, within the MiB
    assert refused.value.status_code == 413
    error = refused.value.body
    assert error["code"] == "request_too_large" and f"at most {MAX_BODY_VALUES} commas" in error["message"]
    # and it goes on
    reply = client.chat.completions.create(model="parley-home", messages=KITCHEN, tools=SKILL_TOOLS)
    assert reply.choices[0].finish_reason == "tool_calls"


async def test_a_wyoming_event_whose_data_holds_more_json_values_than_the_bound_is_a_bad_event():
    data = json.dumps({"text": "hi", "x": [[]] * (MAX_EVENT_VALUES // 2 + 1)}, separators=(",", ":")).encode()
    at_bound = json.dumps({"text": ",", "x": [[]] * (MAX_EVENT_VALUES // 2 - 2)}, separators=(",", ":")).encode()
    reader = asyncio.StreamReader(limit=1 << 16)
    for wire in (data, at_bound):
        reader.feed_data(json.dumps({"type": "synthesize", "data_length": len(wire)}).encode() + b"\n" + wire)
    reader.feed_eof()
    with pytest.raises(BadEvent, match=f"at most {MAX_EVENT_VALUES} commas"):
        await read_event(reader)
    event = await read_event(reader)            # the event at the bound is taken
    assert event.type == "synthesize" and len(event.data["x"]) == MAX_EVENT_VALUES // 2 - 2
