"""The text end-of-turn judge: the shipped weights on finished and cut requests, and Whisper's doubt and its
prompt read in."""
from dataclasses import replace

import numpy as np
import pytest

from paused_speech import RATE, flite, pause_point
from voice.stt import Heard, echoes_prompt
from voice.text_turn import NUMBER, TextTurnModel, goes_on, words


@pytest.fixture(scope="module")
def model():
    return TextTurnModel()


def test_words_ignore_case_and_punctuation_and_numbers_are_one_token():
    assert words("Set the lights to 50%.") == ["set", "the", "lights", "to", NUMBER, "percent"]
    assert words("set a timer for twenty one minutes") == ["set", "a", "timer", "for", NUMBER, "minutes"]
    assert words("What's 2.5 plus 3?") == ["what's", NUMBER, "plus", NUMBER]
    assert words("...") == []


@pytest.mark.parametrize("text", ["Set the living room lights to 50%.", "What time is it?", "Lock the front door.",
                                  "Turn on the kitchen light.", "What is the humidity in the bathroom?", "No.",
                                  "Dim the bedroom lights to thirty percent."])
def test_finished_requests_read_finished(model, text):
    assert model.finished(text) > 0.5


@pytest.mark.parametrize("text", ["Set the living room lights to", "Set the living room lights.", "Open the",
                                  "Turn on the porch light and", "What is 80 divided by", "Set a timer for", ""])
def test_cut_requests_read_cut(model, text):
    """Whisper writes a full stop after a sentence cut at a pause: the judge reads the words, not the stop."""
    assert model.finished(text) < 0.1


def test_a_doubted_last_word_counts_as_possibly_invented(model):
    """At a pause after "open the", Whisper may write "Open the blinds." and doubt its last word."""
    sure = Heard("Open the blinds.", (("Open", 0.96), ("the", 0.99), ("blinds", 0.97), (".", 0.45)))
    doubted = Heard("Open the blinds.", (("Open", 0.96), ("the", 0.99), ("blinds", 0.42), (".", 0.95)))
    assert model.judge(sure) == model.finished("Open the blinds.") > 0.5
    assert model.judge(doubted) == model.finished("Open the") < 0.1


def test_short_answers_stand_on_their_own(model):
    """A doubted "Yes." is still an answer: there is no shorter sentence to fall back on."""
    assert model.judge(Heard("Good night.", (("Good", 0.9), ("night", 0.3), (".", 0.7)))) > 0.5



def test_a_doubted_number_counts_as_possibly_invented(model):
    """At a pause after "set the living room lights to", Whisper may write "... to 50." with doubt."""
    heard = Heard("Set the living room lights to 50.", (("Set", 0.9), ("the", 0.9), ("living", 0.9), ("room", 0.9),
                                                        ("lights", 0.9), ("to", 0.99), ("50", 0.47), (".", 0.7)))
    assert model.judge(heard) == model.finished("Set the living room lights to") < 0.1


def test_a_transcript_ending_in_the_prompts_words_is_read_as_heard_without_the_prompt(model):
    """At a pause after "dim the bedroom lights to", Whisper completes its prompt's "... to 30%." with confidence;
    without the prompt it writes what was said, which reads cut."""
    heard = Heard("Dim the bedroom lights to 30%.", (("Dim", 0.9), ("the", 0.99), ("bedroom", 0.99), ("lights", 0.99),
                                                     ("to", 0.98), ("30%", 0.88), (".", 0.8)),
                  unprompted="Dim the bedroom lights to...")
    assert model.finished(heard.text) > 0.5
    assert model.judge(heard) == model.finished("Dim the bedroom lights to") < 0.1
    assert model.judge(Heard(heard.text, heard.word_probabilities, unprompted=heard.text)) > 0.5   # said in full


def test_echoes_prompt_is_the_last_two_words_side_by_side_in_the_prompt():
    prompt = "Kitchen, porch. Turn on the kitchen light. Dim the bedroom lights to 30%. Stop."
    assert echoes_prompt("Dim the bedroom lights to 30%.", prompt)
    assert echoes_prompt("turn off the kitchen light", prompt)
    assert echoes_prompt("Set the living room lights to 50.", prompt)        # any number for any number
    assert not echoes_prompt("Dim the bedroom lights to blue.", prompt)
    assert not echoes_prompt("Stop.", prompt)                       # one word is no evidence
    assert not echoes_prompt("Turn on the porch light.", prompt)


def test_whisper_at_a_pause_after_to_is_heard_cut(stt, model):
    """flite's "Dim the bedroom lights to ..." up to the pause, as the session hears it: Whisper completes its
    prompt's "Dim the bedroom lights to 30%.", and without the prompt writes "... to third", which reads cut.
    (Piper samples its audio, and in about half its syntheses Whisper writes "... to 30" without the prompt too.)"""
    text = "Dim the bedroom lights to thirty percent."
    whole = flite(text)
    before = np.concatenate([np.zeros(RATE // 4, np.float32), whole[:pause_point(stt.whisper, whole, text, 5)],
                             np.zeros(RATE // 5, np.float32)])
    heard = stt.hear(before)
    assert heard.unprompted and model.judge(heard) < 0.5 < model.judge(replace(heard, unprompted=None)), heard


def test_a_beam_hypothesis_that_goes_on_counts(model):
    """At a pause after "switch on the fan and", the beam's best is "Switch on the fan." and another hypothesis
    "Switch on the fan and the": the words may go on. A hypothesis that only differs ("Switch on the van.")
    says nothing about that, and a short answer stands on its own (the beam writes "No. No." beside "No.")."""
    heard = Heard("Switch on the fan.", alternatives=("Switch on the fan and the", "Switch on the van."))
    assert model.finished(heard.text) > 0.5
    assert model.judge(heard) == model.finished("Switch on the fan and the") < 0.1
    assert model.judge(Heard("Switch on the fan.", alternatives=("Switch on the van.",))) > 0.5
    assert model.judge(Heard("No.", alternatives=("No. No.", "No, no."))) == model.finished("No.") > 0.5


def test_a_beam_hypothesis_that_ends_the_sentence_and_starts_another_does_not_count(model):
    """At the end of "set the living room lights to fifty percent", the beam writes "... to 50%. Deperson." beside
    "... to 50%.": it agrees the sentence ended there; what follows is another, invented one."""
    said = "Set the living room lights to 50%."
    heard = Heard(said, alternatives=("Set the living room lights to 50%. Deperson.",
                                      "Set the living room lights to 50%. Deep percent."))
    assert model.judge(heard) == model.finished(said) > 0.5
    assert goes_on(words("Switch on the fan."), "Switch on the fan and the")
    assert not goes_on(words(said), "Set the living room lights to 50%")          # the same words, no more


def test_a_last_word_after_to_counts_as_only_begun_when_the_speaker_goes_on(model):
    """At a pause after "set the living room lights to f-", Whisper writes "... to 50." with confidence. If the
    speaker goes on (the sound says so), the 50 may be only begun: the words read cut. A number with its unit
    ("to 50%"), or a last word after no opener, stays as it reads."""
    paused = Heard("Set the living room lights to 50.")
    finished = model.judge(paused)
    assert finished > 0.5 and model.judge_going_on(paused, finished) == model.finished("set the living room lights to")
    for text in ("Set the living room lights to 50%.", "Turn on the kitchen light.", "What is 80 divided by 4?"):
        heard = Heard(text)
        assert model.judge_going_on(heard, model.judge(heard)) == model.judge(heard) > 0.5


@pytest.mark.parametrize("half", ["a", "b"])
def test_the_words_judges_dev_halves_are_well_formed(half):
    """tests/data/turn_words_dev_{a,b}.jsonl (README_fresh_sets.md): one transcript a row, finished or cut, 40 of
    each, no row twice, and no cut that ends a sentence (the judge ignores punctuation; a cut must not carry it)."""
    import json
    from pathlib import Path

    rows = [json.loads(line) for line in
            Path(__file__).parent.joinpath("data", f"turn_words_dev_{half}.jsonl").read_text().splitlines()]
    assert all(set(row) == {"text", "finished"} and isinstance(row["finished"], bool) for row in rows)
    assert sum(row["finished"] for row in rows) == 40 and sum(not row["finished"] for row in rows) == 40
    assert len({tuple(words(row["text"])) for row in rows}) == len(rows)
    assert not any(row["text"].rstrip()[-1] in ".?!" for row in rows if not row["finished"])


def test_what_the_recogniser_writes_at_a_pause_is_labelled_by_where_the_pause_is(stt, vad_model):
    """bench/turn_heard.py on one request in flite's voice with a pause after its third word: the transcript at
    the pause inside reads as heard and is labelled cut, the one after the last word finished."""
    from bench import turn_heard
    rows = turn_heard.rows_of(stt, vad_model, "flite rms", "turn off the porch light in ten minutes", 3, 550)
    assert [row["finished"] for row in rows][-1] is True and not any(row["finished"] for row in rows[:-1]), rows
    assert len(rows) >= 2 and all(row["voice"] == "flite rms" and row["after_words"] > 0 for row in rows), rows
    assert words(rows[-1]["text"])[:3] == ["turn", "off", "the"], rows



def test_the_heard_transcripts_are_well_formed_and_say_no_turn_sets_sentence():
    """bench/turn_heard.jsonl, transcripts at pauses for the words judge to learn from: each with its label; no request a turn set's sentence, and none in the voice held out for the replays."""
    import json

    from bench import turn_heard
    rows = [json.loads(line) for line in turn_heard.HEARD_PATH.read_text().splitlines()]
    assert len(rows) > 500 and {row["voice"] for row in rows} == set(turn_heard.VOICES) - {turn_heard.HELD_OUT_VOICE}
    assert all(isinstance(row["finished"], bool) and isinstance(row["text"], str) for row in rows)
    assert 0.3 < sum(row["finished"] for row in rows) / len(rows) < 0.7
    said = turn_heard.turn_set_words()
    assert not any(tuple(words(row["request"])) in said for row in rows)
