"""The assistant: one diffusion generation writes the tool call and the spoken reply; tools fill its slot.

Loaded once per server and shared by every session: the model is only read (inference mode), and each
reply's denoise loop runs in a worker thread (dllm_core.decoding.stream_generate_together), so the event loop
keeps moving audio while a reply is written.

For a reply like `<|call|> get_time<|say|> It's {result}.` respond() yields ToolCallEvent (the runtime
has already run the tool and holds its result), then the spoken text with the slot filled as TextEvent
segments, then DoneEvent. A tool the client declared as its own is reported with local=False and not run;
the reply then ends at the call, as an OpenAI Realtime response does. When the client later adds the
tool's output to the history, the same prompt is decoded again (greedy decoding is deterministic) and
the client's output fills the slot.

A request said with a clause beside it ("chandelier on please, we have guests") is read again clause by clause
(assistant.clauses) in the same batch as the whole request, so the reply still takes at most its passes; when
the whole request gets no call its reply is held, not yielded, until the clauses are read.

A reply that would be a refusal ("Sorry, I didn't catch that.", or the model's own "Sorry, I can't do that
yet.") asks Home Assistant's phrasings for a second opinion first (assistant.second_opinion): a request they
match against the home's own names is served. A refused follow-up said beside a remark is then read by its request
clause alone, against the same conversation (a remark's "it" is the situation's, not the thing's).
"""
import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from types import MappingProxyType

import torch

from assistant.alarms import alarm_call, alarm_choice_answered, alarm_referred, another_alarm, dismissed
from assistant.chat_template import (NoAction, Slots, content_text, conversion_said, cover_meant, cover_position_call,
                                     fill_result, media_call, model_prompt, named_move)
from assistant.clock import clock_call, clock_heard
from assistant.client_tools import (TOOL_SLOTS, Decoded, answered, name_words, read_declared, request_stems, stem,
                                    words_read)
from assistant.chat_template import humidifier_meant, humidity_call        # a humidifier's target, read as a cover's
from assistant.chat_template import level_asked_call                      # a light's brightness, a fan's speed
from assistant.chat_template import colour_call                           # a light's colour set or asked
from assistant.compound import joined_parts, joined_reply, unknown_thing
from assistant.lists import (items_meant, items_unsaid, list_asked, list_undone, needed, on_the_list, ran_out,
                             remark_then_request, request_of,
                             said_items)
from assistant.later import NOT_FOR_LATER, Later, scheduled_asked, scheduled_for
from assistant.clauses import (asked_after_a_negation, clauses, negated_or_remarked, parts_alone, reading_taken,
                               takeable)
from assistant.conversation import (Unplaced, Vocabulary, asks, calls_of_history, chosen_request, clock_asked_again, declined, misread,
                                    player_meant,
                                    resolve, standalone,
                                    supports, timer_asked, timer_meant, unsupported)
from assistant.generator import AssistantReply, DoneEvent, ReplyEvent, TextEvent, ToolCall, ToolCallEvent
from assistant.chat_template import appliance_call
from assistant.inventory import APPLIANCES
from assistant.reply import (CALL_ONLY_REPLY, CANT, DROPPED, LEFT_AS_IT_IS, NOT_UNDERSTOOD, UNKNOWN_NAME, ReplyReader, new_call_id,
                             split_client_result)
from assistant.second_opinion import SecondOpinion
from assistant.skills import (LIST_SKILLS, MEDIA_SKILLS, MODE_SKILLS, NOT_CHANGES, POSITIONED, SKILLS,
                              TIMER_SKILLS)
from assistant.spelling import respelt
from assistant.spoken_numbers import normalize_request
from assistant.summary import listed_switched, summary_asked
from assistant.timer_changes import timer_change_asked, timer_choice_answered
from assistant.tokenizer import Tokenizer
from assistant.tools import UNKNOWN_DEVICE, ToolRunner, plain_answer
from assistant.tools import asks as asks_about_state
from assistant.vocabulary import LIST_ITEM_UNSAID, LIST_OFFER_DECLINED, LIST_RAN_OUT_OFFER, THING_CHANGING_VERBS
from dllm_core.checkpoint import load_model
from dllm_core.decoding import DecodeParams, stream_generate_together
from voice.weights import verified

EMBEDDED_CHECKPOINT = Path(__file__).resolve().parent / "checkpoints" / "parley-home"
# Few-step threshold decoding: reveal what the model is sure of, finish whatever is left by the 4th pass.
DEFAULT_DECODE = DecodeParams(algorithm="threshold", gen_length=32, block_length=32, steps=32, threshold=0.9,
                              max_forward_passes=4)


# The model's own refusals: held, unsaid, until the second opinion is asked.
MODEL_REFUSALS = (CANT, UNKNOWN_NAME)


def _may_refuse(text: str) -> bool:
    """The speech so far is one of the model's refusals, or the start of one."""
    return any(refusal.startswith(text) for refusal in MODEL_REFUSALS)


def call_only_reply(result) -> str:
    """What a call with no usable speech of its own says: its result, as it is when it is a sentence ("The
    gallery temperature is 21 degrees."), else in CALL_ONLY_REPLY ("Okay, 20 degrees.")."""
    if isinstance(result, str) and result.rstrip().endswith((".", "?", "!")):
        return result.strip()
    return fill_result(CALL_ONLY_REPLY, result)


def declared_event(declared: Decoded, client_result, result, calls: list[ToolCall]) -> ToolCallEvent | TextEvent:
    """The client's declared call read by code, sent to the client (and added to the reply's calls); or, once the
    client has answered it, its output as the reply."""
    if declared.asks is not None:        # a required value left out: asked back, no call yet
        return TextEvent(declared.asks)
    if client_result is None:
        calls.append(ToolCall(declared.call["name"], declared.call["arguments"], new_call_id()))
        return ToolCallEvent(calls[-1], local=False)
    return TextEvent(call_only_reply(result))


def declared_reading(history: list[dict], client_tools: Mapping[str, dict]) -> Decoded | None:
    """The client's declared tool the request asks for, read by code (assistant.client_tools.read_declared): the
    model is not shown declarations it was not trained to read."""
    declared = [tool for name, tool in client_tools.items() if name not in SKILLS]
    if not declared or not history or history[-1].get("role") != "user":
        return None
    return read_declared(declared, content_text(history[-1]))


def answer_reading(history: list[dict], client_tools: Mapping[str, dict]) -> Decoded | None:
    """The declared call the user's answer completes, when the turn before asked back for a value the request before
    it left out (client_tools.answered): "order me a coffee", "Which drink: ...?", "an americano"."""
    declared = [tool for name, tool in client_tools.items() if name not in SKILLS]
    if not declared or len(history) < 3 or [m.get("role") for m in history[-3:]] != ["user", "assistant", "user"]:
        return None
    request, question, answer = (content_text(m) for m in history[-3:])
    return answered(declared, request, question, answer)


def reads_unasked(call: ToolCall | dict, said: str) -> bool:
    """A reading of one thing of the home (get_state) for words of which no clause asks about it (tools.asks, the
    test a heard reading already passes): a reading answers a question, so the model read a thing it could not place
    ("hoist the louvres", "my mother gave us the samovar"). Its call is a guess, and no call is made on it."""
    name, arguments = (call.name, call.arguments) if isinstance(call, ToolCall) else (call["name"], call["arguments"])
    if name != "get_state":
        return False
    thing = str(arguments.get("name", "")).replace("_", " ")
    return not any(asks_about_state(words, thing) for words in (said, *(clause.said for clause in clauses(said))))


# Arguments of a built-in call that name a thing of the home: such a reading is never taken over.
HOME_ARGUMENTS = frozenset({"device", "room", "name", "area"})


def takes_over(declared: Decoded | None, call: ToolCall, request: str) -> bool:
    """A declared tool is called instead of a built-in skill, as a Realtime tool competes with the model's own
    answers, when the request asks for the tool and says the thing its name acts on, and nothing of the skill's:
    no word of the skill's name beyond its verb ("timer", "thermostat") but in the tool's own words, no value of its
    call, no thing of the home ("log a 30 minute run" with log_workout declared is no timer; "run the bilge pump for
    ten minutes" with start_bilge_pump neither; "set a timer for 30 minutes" stays one)."""
    if declared is None or not declared.owned or call.name not in SKILLS:
        return False
    # two words of the declared tool's name said together are the tool's ("screen time" with set_screen_time, "sleep
    # timer" with setSleepTimer), not the skill's ("start a timer" with start_workout_timer stays a timer)
    tool, said = {stem(w) for w in name_words(declared.call["name"])}, [stem(w) for w in request.lower().split()]
    tools_own = {w for a, b in zip(said, said[1:]) if a in tool and b in tool for w in (a, b)}
    # a timer's name is no thing of the home: a word of the tool's name said is the tool's, not a timer's name ("how
    # long until the dryer's done" with dryer_time_left is no timer named dryer), unless the skill's own ("timer")
    if call.name in TIMER_SKILLS:
        tools_own |= (tool & set(said)) - {stem(w) for w in name_words(call.name)}
    # a thing of the home named, unless by the tool's own words ("a sleep timer" is named "sleep")
    if any(key in HOME_ARGUMENTS and not (isinstance(value, str) and {stem(w) for w in name_words(value)} <= tools_own)
           for key, value in call.arguments.items()):
        return False
    own = name_words(call.name)[1:] + [w for v in call.arguments.values() if isinstance(v, str) for w in name_words(v)]
    if not ({stem(w) for w in own} - tools_own) & request_stems(request):
        return True
    # or the skill's call takes no value said and the tool's complete call takes one the skill's does not read: a
    # value said is what the request is about ("flight LH 2034, is it on time" with trackFlight is no question of the
    # time; "set an alarm for seven" takes the seven, and stays an alarm)
    tools_values, _ = words_read(declared.call, request)
    skills_values, skills_read = words_read({"name": call.name, "arguments": call.arguments}, request)
    return declared.asks is None and not skills_values and bool(tools_values - skills_read)


def meant_timer(history: list[dict], call: ToolCall) -> ToolCall:
    """The call on the named timer the request refers to, when the model wrote it of no timer
    (conversation.timer_meant); the call as it is otherwise."""
    meant = timer_meant(history, dict(name=call.name, arguments=call.arguments)) if call.name in SKILLS else None
    return call if meant is None else ToolCall(meant["name"], meant["arguments"], call.call_id)


class EmbeddedGenerator:
    """Parley's own diffusion checkpoint, in this process."""

    name = "embedded"

    def __init__(self, model, config, tokenizer: Tokenizer, decode: DecodeParams, max_prompt: int):
        self.model, self.config, self.tokenizer, self.decode = model, config, tokenizer, decode
        self.max_prompt = max_prompt
        self.second_opinion = SecondOpinion.shared()      # compiled once per process, at start-up
        # a checkpoint trained before the tool slots existed is not shown declarations it cannot read
        self.reads_tools = all(tokenizer.token_id(slot) is not None for slot in TOOL_SLOTS)

    @classmethod
    def load(cls, checkpoint_dir=None, *, decode: DecodeParams | None = None, device: str = "cpu",
             dtype: str = "float32") -> "EmbeddedGenerator":
        path = Path(checkpoint_dir) if checkpoint_dir is not None else EMBEDDED_CHECKPOINT
        if path.resolve() == EMBEDDED_CHECKPOINT:      # the shipped checkpoint is pinned; a trained one is the user's
            verified("assistant", "checkpoints/parley-home/model.safetensors")
        # One torch thread: on the shared 2-core machine a reply took a median 10 ms with one thread and
        # 125 ms with two (the second thread spin-waits while STT/TTS hold the other core).
        torch.set_num_threads(1)
        model, config = load_model(path, dtype=dtype, device=device)
        decode = decode or DEFAULT_DECODE
        return cls(model, config, Tokenizer.load(path), decode, config.max_sequence_length - decode.gen_length)

    def prompt_ids(self, history: list[dict], lexicon=None, client_tools: Mapping[str, dict] = MappingProxyType({})
                   ) -> tuple[list[int], Slots]:
        """Token ids of the prompt and what its slots stand for (lexicon: the names of the user's own home,
        client_tools: the client's own function tools, see chat_template.model_prompt); a follow-up is first
        resolved against the conversation's state (assistant.conversation). A prompt too long loses its
        earlier turns first, then its start."""
        resolved = resolve(history, lexicon)
        # a declared tool named like a skill is that skill's call, reported to the client instead of run
        declared = [tool for name, tool in client_tools.items() if name not in SKILLS and self.reads_tools]
        while True:
            text, slots = model_prompt(resolved, lexicon, declared)
            ids = self.tokenizer.encode(text)
            first_user = next((i for i, m in enumerate(resolved) if m.get("role") == "user"), len(resolved))
            last_user = max((i for i, m in enumerate(resolved) if m.get("role") == "user"), default=0)
            if len(ids) <= self.max_prompt or first_user >= last_user:
                if history and history[-1].get("role") == "user":
                    slots.request = normalize_request(content_text(history[-1]))     # as said, not as resolved
                    if slots.tools is not None:
                        slots.tools.said = content_text(history[-1])     # as written: resolving lowercases it
                return ids[-self.max_prompt:], slots
            resolved = resolved[first_user + 1:]

    def reader(self, slots: Slots) -> ReplyReader:
        return ReplyReader(self.tokenizer, self.config.eos_token_id, slots)

    def blocks(self, prompts: list[list[int]]):
        """The replies' blocks as the denoise loop commits them, one batch for the prompts of the whole request
        and of its clauses (readings), so a reply read again takes no more passes than one read once."""
        return stream_generate_together(self.model, prompts, self.decode,
                                        mask_id=self.config.mask_token_id, eos_id=self.config.eos_token_id)

    async def respond(self, history: list[dict], tools: ToolRunner, *,
                      client_tools: Mapping[str, dict] = MappingProxyType({}),
                      session_id: str | None = None, part_before: dict | None = None) -> AsyncIterator[ReplyEvent]:
        """part_before: the call the joined request's part before this one made (_joined), whose thing the part's
        "it" is ("turn on the lamp and make it blue")."""
        started = time.perf_counter()
        tools.begin_reply(history)
        last = history[-1] if history else {}
        answer = tools.waiting_answer(content_text(last)) if last.get("role") == "user" else None
        if answer is not None:                   # a plain yes or no to the question just asked: its confirm call
            call = ToolCall("confirm", {"answer": answer}, new_call_id())
            result = await tools.run(call.name, call.arguments)
            yield ToolCallEvent(call, local=True, result=result)
            yield TextEvent(str(result))
            yield DoneEvent(AssistantReply(str(result), [call], 0, 0, (time.perf_counter() - started) * 1000, 0,
                                           self.name))
            return
        runner = getattr(tools, "runner", tools)
        chosen = [ToolCall(call["name"], call["arguments"], new_call_id()) for call in alarm_choice_answered(history)]
        if len(chosen) > 1:                      # "both" to "Which one: the alarm at 6:45 AM or 7:00 AM?"
            for event in await self._answered_each(chosen, tools, started):
                yield event
            return
        about_scheduled = await self._scheduled_answer(history, runner) \
            if last.get("role") == "user" and not chosen else None
        if about_scheduled is not None:          # "what's scheduled", "cancel that" right after a change was
            for event in self._words_alone(about_scheduled, started):
                yield event
            return
        alarm = {"name": chosen[0].name, "arguments": chosen[0].arguments} if chosen else \
            alarm_call(content_text(last), runner.ringing is not None) if last.get("role") == "user" else None
        # "actually cancel it" after an alarm was set, past a light; "and a second alarm at ten past six"
        alarm = alarm or alarm_referred(history) or another_alarm(history)
        if alarm is not None:                    # alarms cancelled or listed, what rings snoozed or stopped
            async for event in self._answered_alone(ToolCall(alarm["name"], alarm["arguments"], new_call_id()), tools,
                                                    started):
                yield event
            return
        kept = await self._list_call(history, runner, tools, client_tools) if last.get("role") == "user" else None
        if isinstance(kept, str):                # "we're out of milk": offered, not added; "add it to ..." unsaid
            for event in self._words_alone(kept, started):
                yield event
            return
        if kept is not None:                     # "add milk to the shopping list", "what's on my to-do list"
            async for event in self._answered_alone(kept, tools, started):
                yield event
            return
        # the time in a place, the date of a day named; a client's declared tools may read these words: left to them
        # ("and in london?" after the time in tokyo: the read asked again, assistant.conversation.clock_asked_again)
        clock = clock_call(clock_asked_again(history) or content_text(last)) \
            if last.get("role") == "user" and not client_tools else None
        if clock is not None and runner.spoken and not clock_heard(clock, content_text(last), runner.doubted_words):
            clock = None
        if clock is not None:
            async for event in self._answered_alone(ToolCall(clock["name"], clock["arguments"], new_call_id()), tools,
                                                    started):
                yield event
            return
        if last.get("role") == "user" and dismissed(content_text(last), runner.timers_running):
            for event in self._words_alone(DROPPED, started):     # "never mind": the request in hand is dropped
                yield event
            return
        if last.get("role") == "user" and await asyncio.to_thread(negated_or_remarked, content_text(last)):
            # negated or merely remarked on: no reading may act on its words (the model's, Home Assistant's, code's)
            for event in self._words_alone(LEFT_AS_IT_IS, started):
                yield event
            return
        later = scheduled_for(content_text(last)) \
            if last.get("role") == "user" and not client_tools and runner.later is None else None
        scheduled = await self._for_later(later, history, tools) if later is not None else None
        if scheduled is not None:         # "turn off the kitchen light in 10 minutes": scheduled, not made now
            for event in scheduled:
                yield event
            return
        history, client_result = split_client_result(history)
        passes = 0
        calls: list[ToolCall] = []
        result: str | None = client_result
        completed = await asyncio.to_thread(answer_reading, history, client_tools) if client_tools else None
        if completed is not None:        # the answer to the value asked back: the declared call it completes
            event = declared_event(completed, client_result, result, calls)
            said = event.text if isinstance(event, TextEvent) else ""
            yield event
            yield DoneEvent(AssistantReply(said, calls, 0, 0, (time.perf_counter() - started) * 1000, 0, self.name))
            return
        said = ""
        lexicon = await tools.lexicon()
        if lexicon is not None and last.get("role") == "user":      # "set the ac to cool": the air conditioner
            asked = normalize_request(content_text(last))
            if (unabbreviated := lexicon.unabbreviated(asked)) != asked:
                last = {**last, "content": unabbreviated}
                history = [*history[:-1], last]
        instead = await asyncio.to_thread(asked_after_a_negation, content_text(last), Vocabulary(lexicon)) \
            if last.get("role") == "user" else None
        if instead is not None:           # "don't leave the kiln on, turn it off": "turn the kiln off"
            history = [*history[:-1], {**last, "content": instead}]
        parts = await asyncio.to_thread(self._joined_parts, history, lexicon, client_tools) \
            if client_result is None and instead is None and last.get("role") == "user" else []
        if parts:             # "turn off the kitchen light and the bedroom light": each part a request of its own
            events = await self._joined(parts, history, tools)
            if events:          # a part made a call, or each was refused ("The kitchen light can't change colour.")
                for event in events:
                    yield event
                return
        summary = await asyncio.to_thread(self._summary_call, history, tools, client_tools) \
            if client_result is None and last.get("role") == "user" else None
        if summary is None and client_result is None and last.get("role") == "user":
            changes = await asyncio.to_thread(self._timer_change_calls, history, client_tools)
            if len(changes) > 1:      # "both" to "Which one do you mean, the pasta timer or the rice timer?"
                for event in await self._answered_each(changes, tools, started):
                    yield event
                return
            summary = changes[0] if changes else None
        if summary is not None:   # "is anything on in the kitchen", "turn them off" right after it, "pause the timer"
            async for event in self._answered_alone(summary, tools, started):
                yield event
            return
        # a follow-up that does not single out one thing is asked about, not guessed (assistant.conversation.Declined)
        question = await asyncio.to_thread(declined, history, lexicon) if client_result is None else None
        call = await self._standalone(history, lexicon) if isinstance(question, Unplaced) else None
        if call is not None:
            async for event in self._answered_alone(call, tools, started):
                yield event
            return
        if question is not None:
            for event in self._words_alone(question, started):
                yield event
            return
        # normalising and tokenising a long history, and reading declarations, is CPU work: off the event loop,
        # which carries every session
        readings = await asyncio.to_thread(self.readings, history, lexicon, client_tools)
        declared = await asyncio.to_thread(declared_reading, history, client_tools) if client_tools else None
        request = content_text(history[-1]) if declared else ""
        # the request asks for a declared tool and says the thing its name acts on ("hire a car in Faro" with rent_car):
        # the model's own words (a joke, "You're welcome!") are held, and the declared call is made instead
        owned = declared is not None and declared.owned
        (prompt, slots), clause_readings = readings[0], readings[1:]
        # a media player's control, volume or track, read by code from the words (chat_template.media_call): the
        # shipped model has no skill for them, and took "louder" for thanks
        played = await asyncio.to_thread(self._media_call, history, lexicon, slots) \
            if client_result is None and declared is None else None
        if played is None and client_result is None and declared is None:
            # a light's colour or white, read by code from the words (chat_template.colour_call): the shipped model
            # has no skill for it, and read "warm white" as a temperature asked
            made = calls_of_history(history[:-1])
            before = part_before or (made[-1] if made else None)       # the last thing acted on
            played = await asyncio.to_thread(colour_call, slots, before, part_before is not None)
            answer = played and tools.colour_answer(played)
            played = played if answer else None
            if isinstance(answer, str):     # a light that can't take it: said so, with no call (as the model refused)
                for event in self._words_alone(answer, started):
                    yield event
                return
        if played is not None:
            async for event in self._answered_alone(ToolCall(played["name"], played["arguments"], new_call_id()),
                                                    tools, started, prompt=len(prompt)):
                yield event
            return
        # "the heat pump" after "is the AC on" was asked which one (or after a name refused): the reading asked
        said_last = (chosen_request(history, lexicon) or content_text(history[-1])) \
            if history and history[-1].get("role") == "user" else ""
        reader = self.reader(slots)
        # a request said with a clause beside it: a reply without a call is held until its clauses are read
        clause_readers = [self.reader(clause_slots) for _, clause_slots in clause_readings]
        blocks = self.blocks([ids for ids, _ in readings])
        async with contextlib.aclosing(blocks):
            async for rows in blocks:
                passes = next(block.forward_passes for block in rows if block is not None)
                for clause_reader, clause_block in zip(clause_readers, rows[1:]):
                    if clause_block is not None and clause_reader.add(clause_block.tokens)[0] and \
                            clause_reader.call is not None and client_result is None and \
                            reads_unasked(clause_reader.call, said_last):
                        clause_reader.refuse()
                block = rows[0]
                if block is None:                    # the whole reply is written; its clauses are still read
                    continue
                head_read, _ = reader.add(block.tokens)
                if head_read and reader.call is not None and client_result is None and \
                        reads_unasked(reader.call, said_last):
                    reader.refuse()            # a reading nothing asked for: the refusal path may still serve it
                if head_read and reader.call is not None and reader.call.name not in client_tools and \
                        takes_over(declared, reader.call, request):
                    break
                made = dict(name=reader.call.name, arguments=reader.call.arguments) if reader.call is not None else None
                question = unsupported(history, made, lexicon) if head_read and made and client_result is None else None
                if head_read and made and client_result is None and (question or misread(history, made, lexicon)):
                    # a follow-up's call the words do not support, or of another mood: its self-contained reading
                    call = await self._standalone(history, lexicon)
                    if call is not None:
                        async for event in self._answered_alone(call, tools, started, passes, len(reader.tokens),
                                                                len(prompt)):
                            yield event
                        return
                if question:
                    yield TextEvent(question)     # a follow-up's call the words do not support is not guessed
                    yield DoneEvent(AssistantReply(question, [], passes, len(reader.tokens),
                                                   (time.perf_counter() - started) * 1000, len(prompt), self.name))
                    return
                own_call = head_read and reader.call is not None and reader.call.name not in client_tools
                lacked = tools.lacked(reader.call.name, reader.call.arguments) \
                    if own_call and client_result is None else None
                if lacked is not None:               # a name the home lacks: said so, and no call is made
                    async for event in self._lacked(lacked, started, passes, len(reader.tokens), len(prompt)):
                        yield event
                    return
                if head_read and reader.call is not None and client_result is None:
                    call = meant_timer(history, reader.call)
                    calls.append(call)
                    if call.name in client_tools:
                        yield ToolCallEvent(call, local=False)
                        break
                    result = await tools.run(call.name, call.arguments)
                    yield ToolCallEvent(call, local=True, result=result)
                if clause_readers and not calls:
                    continue
                text = reader.spoken(result)
                if not calls and not said and (_may_refuse(text) or owned):   # held: a second opinion may serve it
                    continue
                if len(text) > len(said):
                    yield TextEvent(text[len(said):])
                    said = text
                if isinstance(result, NoAction):     # the whole reply: the rest of the canvas is not needed
                    break
        # the reading the reply follows: the whole request's, or a clause's beside it ("screen time for sam, an hour")
        taken = reading_taken(reader, clause_readers) if clause_readers and not calls else reader
        if taken.call is not None and not calls and taken.call.name not in client_tools and \
                takes_over(declared, taken.call, request):
            event = declared_event(declared, client_result, result, calls)
            said = event.text if isinstance(event, TextEvent) else said
            yield event
            yield DoneEvent(AssistantReply(said, calls, passes, len(reader.tokens),
                                           (time.perf_counter() - started) * 1000, len(prompt), self.name))
            return
        if clause_readers and not calls:
            if taken is not reader:
                reader = taken
                if client_result is None:            # else the call was made, and its output is the result
                    call = meant_timer(history, taken.call)
                    calls.append(call)
                    if call.name in client_tools:
                        yield ToolCallEvent(call, local=False)
                    else:
                        result = await tools.run(call.name, call.arguments)
                        yield ToolCallEvent(call, local=True, result=result)
            text = "" if calls and calls[-1].name in client_tools else reader.spoken(result)
            if text and (calls or not (_may_refuse(text) or owned)):
                said = text
                yield TextEvent(said)
        # a refusal, the model's own or for want of a usable reply: Home Assistant's phrasings may serve it
        refusal = not calls and not said and (reader.unwritten or _may_refuse(reader.template) or owned)
        refused = refusal and client_result is None and (reader.unwritten or reader.template in MODEL_REFUSALS)
        if refused:
            call = await self._second_opinion(history, lexicon, slots, tools) or await self._standalone(history, lexicon) \
                or await self._code_read_alone(history, lexicon, tools) or await self._clause_alone(history, lexicon) \
                or self._timer_asked(history, lexicon) or await self._appliance_alone(history, lexicon)
            if call is not None and not takes_over(declared, call, request):
                call = meant_timer(history, call)
                calls.append(call)
                result = await tools.run(call.name, call.arguments)
                yield ToolCallEvent(call, local=True, result=result)
        # then the client's declared tools, read by code; when the client has answered one, its output is the reply
        if refusal and not calls and declared is not None:
            event = declared_event(declared, client_result, result, calls)
            said = event.text if isinstance(event, TextEvent) else said
            yield event
        if not said and not (calls and result is None):
            if calls and (reader.unwritten or refused):
                said = call_only_reply(result)
            elif not calls:
                said = NOT_UNDERSTOOD if reader.unwritten else reader.spoken(result)
            if said:
                yield TextEvent(said)
        yield DoneEvent(AssistantReply(said, calls, passes, len(reader.tokens), (time.perf_counter() - started) * 1000,
                                       len(prompt), self.name))

    async def _lacked(self, lacked: NoAction, started: float, passes: int, tokens: int, prompt: int
                      ) -> AsyncIterator[ReplyEvent]:
        """The reply to a call of a thing the home lacks (ToolRunner.lacked): its sentence, with no call."""
        yield TextEvent(str(lacked))
        yield DoneEvent(AssistantReply(str(lacked), [], passes, tokens, (time.perf_counter() - started) * 1000, prompt,
                                       self.name))

    def _words_alone(self, said: str, started: float) -> tuple[ReplyEvent, ReplyEvent]:
        """A reply of words read by code, with no call and no pass of the model."""
        return TextEvent(said), DoneEvent(AssistantReply(said, [], 0, 0, (time.perf_counter() - started) * 1000, 0,
                                                         self.name))

    async def _for_later(self, later: Later, history: list[dict], tools: ToolRunner) -> list[ReplyEvent] | None:
        """The reply to a request said for a time to come: the request answered without its time, its changes
        scheduled by the runner (ToolRunner.run, while runner.later is set) after the checks the same change said now
        gets. None, to answer the request as said, where that reply made no call or a call that changes nothing
        ("wake me up at 7 am" is an alarm, "ping me in ten minutes" a timer)."""
        runner = getattr(tools, "runner", tools)
        runner.later = later
        try:
            events = [event async for event in self.respond([*history[:-1], {**history[-1], "content": later.rest}],
                                                            tools)]
        finally:
            runner.later = None
        made = [event for event in events if isinstance(event, ToolCallEvent)]
        if made and all(event.result != NOT_FOR_LATER for event in made):
            return events
        said = "".join(event.text for event in events if isinstance(event, TextEvent))
        if not made and said in (CANT, UNKNOWN_NAME, NOT_UNDERSTOOD) \
                and later.rest.removeprefix("please ").split(" ", 1)[0] in THING_CHANGING_VERBS \
                and (unknown := unknown_thing(later.rest, Vocabulary(await tools.lexicon()))):
            return list(self._words_alone(UNKNOWN_DEVICE.format(name=unknown), time.perf_counter()))
        scheduled = " ".join(str(event.result) for event in made if str(event.result).startswith("Okay, I'll "))
        if scheduled:                     # a change beside a call that is none: the request is answered as said
            await runner.scheduled_answer("cancel", "", scheduled)
        return None

    @staticmethod
    async def _scheduled_answer(history: list[dict], runner: ToolRunner) -> str | None:
        """The answer to "what's scheduled", "cancel that" right after a change was scheduled, or "cancel the kitchen
        light one" (later.scheduled_asked); None for any other request, and for a cancel that names none scheduled."""
        before = ""                      # the last reply's words (its calls may come as messages of their own)
        for message in reversed(history[:-1]):
            if message.get("role") == "user":
                break
            if message.get("role") == "assistant" and content_text(message):
                before = content_text(message)
                break
        asked = scheduled_asked(content_text(history[-1]), before.startswith("Okay, I'll "))
        return await runner.scheduled_answer(*asked, before) if asked is not None else None

    @staticmethod
    def _joined_parts(history: list[dict], lexicon, client_tools: Mapping[str, dict]) -> list[str]:
        """The requests a request joins with "and" (assistant.compound), each said alone; none for a request that
        asks for a client's declared tool, whole or in a part: its call stays one call."""
        parts = joined_parts(content_text(history[-1]), Vocabulary(lexicon))
        asked = [history, *([*history[:-1], {"role": "user", "content": part}] for part in parts)] \
            if parts and client_tools else []
        return [] if any(declared_reading(said, client_tools) is not None for said in asked) else parts

    async def _joined(self, parts: list[str], history: list[dict], tools: ToolRunner) -> list[ReplyEvent]:
        """The reply to a joined request: each part answered in order as a request of its own, after the parts before
        it (what a part leaves unsaid is theirs, as in a conversation), with the built-in skills alone; their calls,
        and one reply that says what each did (compound.joined_reply); none where no part made a call, but where each
        was refused by code ("The kitchen light can't change colour."), as the model would not say why. A question a
        part asked for a yes ("unlock the front door") still waits for it; the things switched are listed for "turn
        them back on"."""
        started = time.perf_counter()
        before, events, calls, texts, passes = history[:-1], [], [], [], 0
        runner = getattr(tools, "runner", tools)
        asked = None
        part_before = None
        refused = 0                 # parts that a thing of the home can't do, said by code with no call
        for part in parts:
            said, made, refusal = "", [], False
            async for event in self.respond([*before, {"role": "user", "content": part}], tools,
                                            part_before=part_before):
                if isinstance(event, ToolCallEvent):
                    events.append(event)
                    made.append(event.call)
                elif isinstance(event, TextEvent):
                    said += event.text
                    refusal = isinstance(event.text, NoAction)
                else:
                    passes += event.reply.forward_passes
            if runner.pending is not None and runner.pending.turn == runner.turn:
                asked = runner.pending
            if not made and said in (CANT, UNKNOWN_NAME, NOT_UNDERSTOOD) \
                    and (unknown := unknown_thing(part, Vocabulary(await tools.lexicon()))):
                said = UNKNOWN_DEVICE.format(name=unknown)      # "... I don't know a device called the attic light."
            calls += made
            refused += refusal and not made
            part_before = {"name": made[-1].name, "arguments": made[-1].arguments} if made else None
            texts.append(said)
            message = {"role": "assistant", "content": said}
            if made:
                message["tool_calls"] = [{"name": call.name, "arguments": call.arguments} for call in made]
            before = [*before, {"role": "user", "content": part}, message]
        if asked is not None:
            runner.pending = asked
        tools.list_switched([{"name": call.name, "arguments": call.arguments} for call in calls])
        said = joined_reply(texts)
        if not calls and refused < len(parts):       # no part made a call: the request is read whole
            return []
        return [*events, TextEvent(said), DoneEvent(AssistantReply(
            said, calls, passes, 0, (time.perf_counter() - started) * 1000, 0, self.name))]

    @staticmethod
    def _summary_call(history: list[dict], tools: ToolRunner, client_tools: Mapping[str, dict]) -> ToolCall | None:
        """A summary of the home's states asked ("which lights are on"), or the things it just named switched ("turn
        them off" right after one), read by code (assistant.summary): the shipped model has no skill for them. A
        request that asks for a client's declared tool is left to it."""
        said = normalize_request(content_text(history[-1]))
        made = calls_of_history(history[:-1])
        joined = made and len(made.turns) > 1 and made.turns[-1] == made.turns[-2]     # several calls in one reply
        listing = made and (made[-1]["name"] in ("list_states", "switch_listed") or joined)
        state = listed_switched(said) if listing and tools.listed else None
        call = {"name": "switch_listed", "arguments": {"state": state}} if state else \
            summary_asked(said, tools.home.inventory)
        if call is None or client_tools and declared_reading(history, client_tools) is not None:
            return None
        return ToolCall(call["name"], call["arguments"], new_call_id())

    @staticmethod
    async def _list_call(history: list[dict], runner: ToolRunner, tools, client_tools: Mapping[str, dict]) \
            -> ToolCall | str | None:
        """A request about the home's lists, read by code (assistant.lists): the shipped model has no skill for them;
        a follow-up right after one ("and eggs", "take that off") as the request it stands for
        (conversation.standalone); "undo that" or "put it back" after the newest change of the conversation, a list's,
        the call that takes it back. A remark that things ran out or are needed ("we're out of milk", "we need milk") is
        answered with an offer (the words), made at once where the same turn asks it ("..., add it to the shopping
        list"), and a yes or "add it to the shopping list" right after it adds them; "it" that names nothing is
        answered so (the words). An item already on its list is never split. A client that declared tools of its
        own keeps its words. "I've got the milk", which names no list, is read only where every item it says is on
        the shopping list."""
        if client_tools:
            return None
        said = original = content_text(history[-1])
        made = calls_of_history(history[:-1])
        changes = [call for call in made if call["name"] not in NOT_CHANGES]
        undone = list_undone(said, changes[-1], runner.list_change) \
            if changes and changes[-1]["name"] in LIST_SKILLS else None
        if isinstance(undone, dict):             # "undo that", "oops, I still need that"
            return ToolCall(undone["name"], undone["arguments"], new_call_id())
        if undone is not None:
            return undone
        vocabulary = Vocabulary(await tools.lexicon())

        def remark_of(words: str) -> list[str] | None:
            return ran_out(words, vocabulary.knows) or needed(words, vocabulary.names_a_thing)

        asked_before = [turn for turn, message in enumerate(history[:-1]) if message.get("role") == "user"]
        remark = remark_of(content_text(history[asked_before[-1]])) \
            if asked_before and not (made and made.turns[-1] > asked_before[-1]) else None
        answer = plain_answer(said)
        if remark and answer == "no":
            return LIST_OFFER_DECLINED
        if remark and answer == "yes":
            said = request_of({"name": "add_to_list", "arguments": {"items": remark}}, "the shopping list")
        elif remark and list_asked(said) is None:
            said = items_meant(said, remark) or said      # "add it to the shopping list" after "we're out of milk"
        if list_asked(said) is None:                # "we're out of milk, add it to the shopping list"
            said = remark_then_request(original, remark_of) or said
        if list_asked(said) is None and made and made[-1]["name"] in LIST_SKILLS:
            said = standalone(history, await tools.lexicon()) or ""
        asked = list_asked(said)
        if asked is None:
            items = remark_of(original)
            if items:
                runner.pending = None            # a yes now answers the offer, not a question asked before it
                return LIST_RAN_OUT_OFFER.format(items=said_items(items))
            return LIST_ITEM_UNSAID if items_unsaid(original) else None
        lists = await runner.on_lists(lambda lists: (lists, lists))
        if isinstance(lists, NoAction):
            lists = {}
        call, only_if_listed = list_asked(said, lists.get(asked[0]["arguments"]["list_name"], []))
        if only_if_listed and len(on_the_list(call["arguments"]["items"], lists.get("shopping", []))) < \
                len(call["arguments"]["items"]):
            return None
        return ToolCall(call["name"], call["arguments"], new_call_id())

    @staticmethod
    def _timer_change_calls(history: list[dict], client_tools: Mapping[str, dict]) -> list[ToolCall]:
        """Timers listed, changed, paused or resumed ("what timers do I have", "pause it" after a timer), or the change
        a which-one question asked made on the timers its answer picks ("the pasta one", "both"), read by code
        (assistant.timer_changes): the shipped model has no skill for them. A request that asks for a client's
        declared tool is left to it."""
        calls = timer_choice_answered(history) or \
            [call for call in [timer_change_asked(normalize_request(content_text(history[-1])),
                                                  list(calls_of_history(history[:-1])))] if call is not None]
        if not calls or client_tools and declared_reading(history, client_tools) is not None:
            return []
        return [ToolCall(call["name"], call["arguments"], new_call_id()) for call in calls]

    async def _answered_each(self, calls: list[ToolCall], tools: ToolRunner, started: float) -> list[ReplyEvent]:
        """A reply of several calls read by code, each run in turn: their results joined into one reply
        (compound.joined_reply)."""
        events, texts = [], []
        for call in calls:
            result = await tools.run(call.name, call.arguments)
            events.append(ToolCallEvent(call, local=True, result=result))
            texts.append(call_only_reply(result))
        said = joined_reply(texts)
        return [*events, TextEvent(said), DoneEvent(AssistantReply(
            said, calls, 0, 0, (time.perf_counter() - started) * 1000, 0, self.name))]

    def _media_call(self, history: list[dict], lexicon, slots: Slots) -> dict | None:
        """A media player's call read by code from the request (chat_template.media_call); for a follow-up that says
        none, after a player's call, from the request it stands for ("turn it up" after "pause the tv",
        conversation.standalone), where it names the player and the conversation supports it, as a light's
        follow-up."""
        played = media_call(slots)
        made = calls_of_history(history[:-1]) if played is None and lexicon is not None else []
        if made and made[-1]["name"] in MEDIA_SKILLS:
            request = standalone(history, lexicon)
            slots = request and self.prompt_ids([{"role": "user", "content": request}], lexicon)[1]
            played = slots and media_call(slots)
            if not played or "name" not in played["arguments"] or not supports(history, played, lexicon):
                return None
        return None if played is None or slots.refuses(played, "") else player_meant(history, played)

    async def _answered_alone(self, call: ToolCall, tools: ToolRunner, started: float, passes: int = 0,
                              tokens: int = 0, prompt: int = 0) -> AsyncIterator[ReplyEvent]:
        """A reply of the self-contained reading's call (_standalone): the call, and its result as the speech."""
        result = await tools.run(call.name, call.arguments)
        yield ToolCallEvent(call, local=True, result=result)
        said = call_only_reply(result)
        yield TextEvent(said)
        yield DoneEvent(AssistantReply(said, [call], passes, tokens, (time.perf_counter() - started) * 1000, prompt,
                                       self.name))

    async def _clause_alone(self, history: list[dict], lexicon) -> ToolCall | None:
        """The self-contained reading of a refused follow-up's request clause. A follow-up said beside a remark or a
        reason ("okay, it's dry enough now, off it goes") refers by its request clause only: the remark carries
        nothing a call needs (clauses.takeable), and its own "it" is the weather's or the situation's, not the
        thing's. Each such clause is read as the follow-up, against the same conversation, and taken when they
        agree on one call; a question's clause only when it asks too (a question beside it says the mood: "how
        about the office, is it cold too" asks, and its first clause alone would change something)."""
        if len(history) < 3 or history[-1].get("role") != "user":
            return None
        request = content_text(history[-1])
        asked = await asyncio.to_thread(lambda: any(asks(clause.said) for clause in clauses(request)))
        found = []
        for clause in await asyncio.to_thread(takeable, request, Vocabulary(lexicon)):
            if asked and not asks(clause):
                continue
            made = await self._standalone([*history[:-1], {"role": "user", "content": clause}], lexicon)
            if made is not None:
                found.append(made)
        same = found and all((c.name, c.arguments) == (found[0].name, found[0].arguments) for c in found)
        return found[0] if same else None

    @staticmethod
    def _timer_asked(history: list[dict], lexicon) -> ToolCall | None:
        """A refused question that names a running timer by its label asks its time left (conversation.timer_asked)."""
        call = timer_asked(history, lexicon)
        return None if call is None else ToolCall(call["name"], call["arguments"], new_call_id())

    async def _standalone(self, history: list[dict], lexicon) -> ToolCall | None:
        """The model's call for the self-contained request a follow-up stands for (conversation.standalone), read
        alone as a typed request is; kept only when the follow-up's words or the conversation's calls say each of
        its parts, in the follow-up's mood (conversation.supports): otherwise the follow-up is asked about."""
        request = await asyncio.to_thread(standalone, history, lexicon)
        if request is None:
            return None
        prompt, slots = await asyncio.to_thread(self.prompt_ids, [{"role": "user", "content": request}], lexicon)
        reader = self.reader(slots)
        blocks = self.blocks([prompt])
        async with contextlib.aclosing(blocks):
            async for rows in blocks:
                if rows[0] is not None and reader.add(rows[0].tokens)[0]:
                    break
        call, leveled = reader.call, level_asked_call(slots)
        if leveled is not None:        # a light's brightness or a fan's speed asked, which the model never writes
            call = ToolCall(leveled["name"], leveled["arguments"], new_call_id())
        if call is None or not supports(history, dict(name=call.name, arguments=call.arguments), lexicon) or \
                reads_unasked(call, content_text(history[-1])):
            return None
        return ToolCall(call.name, call.arguments, new_call_id())

    async def _code_read_alone(self, history: list[dict], lexicon, tools: ToolRunner) -> ToolCall | None:
        """A follow-up's call read by code (chat_template.named_move) from the request it stands for: the request an
        answer to "Which one: ...?" or to a name refused says (conversation.chosen_request: "the air conditioner"
        after "set the cooler to cool" was refused), any call of it; else a mode's call of the self-contained request
        ("and the air conditioner" after the thermostat was set to heat, "what mode is it in"), a cover's position
        ("what position is it in") or a humidifier's target ("set it to 50"), kept as _standalone keeps a call
        (conversation.supports). The model never writes a mode's call, a climate's step, a cover's position or a
        humidifier's target, so _standalone finds none."""
        chosen = await asyncio.to_thread(chosen_request, history, lexicon)
        if chosen is None and not getattr(lexicon, "modes", None) and \
                not any(kind in (*POSITIONED, "humidifier") for kind in getattr(lexicon, "kinds", {}).values()):
            return None
        request = chosen or await asyncio.to_thread(standalone, history, lexicon)
        if request is None:
            return None
        _, slots = await asyncio.to_thread(self.prompt_ids, [{"role": "user", "content": request}], lexicon)
        call = await asyncio.to_thread(named_move, slots, tools.home.inventory)
        cover = call and cover_meant(slots)            # "what position is it in", "close it a bit more": a cover's
        humidifier = call and humidifier_meant(slots)  # "set it to 50", "make it more humid": a humidifier's
        positioned = bool(cover) and cover_position_call(slots, cover) == call or \
            bool(humidifier) and humidity_call(slots, humidifier) == call
        if call is None or slots.refuses(call, "") or chosen is None and (
                call["name"] not in MODE_SKILLS and not positioned or not supports(history, call, lexicon)):
            return None
        return ToolCall(call["name"], call["arguments"], new_call_id())

    async def _appliance_alone(self, history: list[dict], lexicon) -> ToolCall | None:
        """A follow-up's call on a robot vacuum or a button, read by code (chat_template.appliance_call) from the
        self-contained request it stands for ("send it home" after the vacuum was started: "send the rocky home"),
        kept as _standalone keeps a call (conversation.supports): the model never writes one."""
        if not set(getattr(lexicon, "kinds", {}).values()) & set(APPLIANCES):
            return None
        request = await asyncio.to_thread(standalone, history, lexicon)
        if request is None:
            return None
        _, slots = await asyncio.to_thread(self.prompt_ids, [{"role": "user", "content": request}], lexicon)
        call = await asyncio.to_thread(appliance_call, slots)
        if call is None or slots.refuses(call, "") or not supports(history, call, lexicon):
            return None
        return ToolCall(call["name"], call["arguments"], new_call_id())

    async def _second_opinion(self, history: list[dict], lexicon, slots: Slots, tools: ToolRunner) -> ToolCall | None:
        """The call Home Assistant's phrasings find in the request: as said first (the normaliser writes "5
        minutes" as "300 seconds", past HA's range of seconds, and "my 19-hours timer" as a timer named "68400
        seconds"), then as normalised, then as resolved against the conversation (a follow-up is the request it
        stands for), then each clause said beside others that carry nothing (clauses.parts_alone: a template
        must match a whole sentence), then one thing named and one move it can make, or a conversion, read by
        code (chat_template.named_move, conversion_said); matching is CPU work, off the event loop. The checks of
        the model's calls hold for it too, against the whole request (Slots.refuses): "set the timer for 8 minutes
        in 30 seconds", as Whisper writes "8 minutes and 30 seconds", is HA's timer of 30 seconds, shorter than a
        duration said."""
        if not history or history[-1].get("role") != "user":
            return None
        inventory = tools.home.inventory

        def matched() -> dict | None:
            said = content_text(history[-1])
            readings = [said, normalize_request(said), content_text(resolve(history, lexicon)[-1])]
            return appliance_call(slots) or self.second_opinion.call(readings, inventory) or \
                self.second_opinion.call(parts_alone(said, Vocabulary(lexicon)), inventory) or \
                named_move(slots, inventory) or conversion_said(slots)
        call = await asyncio.to_thread(matched)
        if call is None or slots.refuses(call, "") or reads_unasked(call, content_text(history[-1])):
            return None
        return ToolCall(call["name"], call["arguments"], new_call_id())

    def readings(self, history: list[dict], lexicon, client_tools: Mapping[str, dict]) -> list[tuple[list[int], Slots]]:
        """The prompt of the request being answered, then one for each clause a second reading may take
        (assistant.clauses), read alone as the request with the turns before it, and one of the request with its
        typing slips spelt right (assistant.spelling), taken as a clause is: all decoded together."""
        readings = [self.prompt_ids(history, lexicon, client_tools)]
        if history and history[-1].get("role") == "user":
            request = content_text(history[-1])
            for clause in takeable(request, Vocabulary(lexicon)):
                asked = [*history[:-1], {"role": "user", "content": clause}]
                readings.append(self.prompt_ids(asked, lexicon, client_tools))
            if len(readings) > 1:
                readings[0][1].clauses = tuple(clause.said for clause in clauses(request))
            spelt = respelt(request, lexicon)
            if spelt != request:       # typed with a slip ("tempreture"): read as spelt too, taken as a clause is
                readings.append(self.prompt_ids([*history[:-1], {"role": "user", "content": spelt}], lexicon,
                                                client_tools))
        return readings
