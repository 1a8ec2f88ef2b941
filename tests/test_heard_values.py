"""A doubted number weighed by its value, a doubted action against the others of its kind, and a doubted question
word against the words of a change (voice/heard_values.py): the number's written forms, and the decoder's verdict on
real speech (flite), through the server's transcription queue too."""
import logging

import numpy as np
import pytest

from made_up_home import made_up_inventory
from paused_speech import flite
from streaming.engines import TranscriptionQueue
from voice.heard_values import (MAX_WEIGHED, actions_to_weigh, names_to_weigh, numbers_to_weigh, questions_to_weigh,
                                rivals_to_weigh, to_weigh, weighed, written_forms)
from voice.stt import DOUBTED_WORD, UNSURE_NUMBER, Heard
from voice.text_turn import TextTurnModel
from voice.turn_judge import TurnJudge

LEAD, TAIL = np.zeros(4800, np.float32), np.zeros(8000, np.float32)


def spoken(text: str, voice: str = "rms") -> np.ndarray:
    return np.concatenate([LEAD, flite(text, voice), TAIL])


def forms(text: str) -> list[list[str]]:
    return [found for _, _, found in written_forms(text)]


def test_the_written_forms_of_one_value():
    clock = ["6:30", "6.30", "6-30", "6 30", "630", "six thirty"]
    assert forms("Wake me at 630 please.") == [["630", *[f for f in clock if f != "630"]]]
    assert forms("Wake me at 6 30. Will you?") == [["6 30", *[f for f in clock if f != "6 30"]]]
    assert forms("Alarm at 7:05") == [["7:05", "7.05", "7-05", "7 05", "705"]]     # no words for "oh five"
    assert forms("20 minutes for the bread.") == [["20", "Twenty"]]                 # as the sentence starts
    assert forms("Timer, 90 seconds.") == [["90", "ninety"]]
    assert forms("What's 7% of 2400?") == [["2400"]]            # on the hour: a number, not a time
    # no other form: on the hour with a mark, a sign after, a thousands group, a decimal, an ordinal, past 99
    assert forms("At 6:00, the lamp at 70%, 1,000 and 3.5 on the 13th, 199 times") == []
    assert forms("Is it 25:30 or 9:75?") == []                   # no time, and its parts are no whole numbers


def test_only_a_doubted_number_is_weighed():
    heard = Heard("Wake me at 8.20 tomorrow.", (("Wake", 0.9), ("me", 0.9), ("at", 0.9), ("8", 0.8), (".", 0.3),
                                                 ("20", 0.92), ("tomorrow", 0.9), (".", 0.9)))
    assert numbers_to_weigh(heard) == []                         # the mark between is doubted, no number is
    doubted = Heard(heard.text, tuple((w, 0.4) if w == "20" else (w, p) for w, p in heard.word_probabilities))
    assert [heard.text[s:e] for s, e, _ in numbers_to_weigh(doubted)] == ["8.20"]
    # a word that is no number doubted too: the question asked for the number guards it, nothing is weighed
    elsewhere = Heard(heard.text, tuple((w, 0.5) if w == "tomorrow" else (w, p) for w, p in doubted.word_probabilities))
    assert numbers_to_weigh(elsewhere) == [] and elsewhere.unsure_numbers() == {"20"}


def test_a_number_doubted_only_in_how_it_is_written_is_acted_on(stt):
    """flite's "wake me up at seven forty": Whisper writes "740" at 0.37, its mass shared with "7:40", "7 40" and
    the rest; the value is sure. The written probability, which the turn judges read, stays."""
    audio = spoken("wake me up at seven forty")
    heard = stt.hear(audio)
    assert heard.text == "Wake me up at 740." and heard.unsure_numbers() == {"740"}, heard
    sure = weighed(stt, audio, heard)
    assert sure.unsure_numbers() == frozenset() and dict(sure.said_probabilities)["740"] >= UNSURE_NUMBER
    assert sure.word_probabilities == heard.word_probabilities and sure.text == heard.text
    assert weighed(stt, audio, sure) is sure                    # nothing left doubted: nothing decoded


def test_a_value_the_audio_does_not_hold_is_still_doubted(stt):
    """The same audio with another time written at the same doubt: no spelling of "9:40" is in it."""
    audio = spoken("wake me up at seven forty")
    heard = stt.hear(audio)
    other = Heard("Wake me up at 940.", tuple(("940", p) if w == "740" else (w, p)
                                               for w, p in heard.said_probabilities))
    assert weighed(stt, audio, other).unsure_numbers() == {"940"}


def test_only_a_doubted_action_is_weighed_against_the_others_of_its_kind():
    heard = Heard("Lock the gate, then the lamp off and the shed locked.",
                  (("Lock", 0.2), ("the", 0.9), ("gate", 0.9), (",", 0.2), ("then", 0.4), ("the", 0.9), ("lamp", 0.9),
                   ("off", 0.95), ("and", 0.9), ("the", 0.9), ("shed", 0.9), ("locked", 0.5), (".", 0.9)))
    # "off" heard for sure, "locked" no call's action, "then" and the mark no action at all
    assert [(heard.text[s:e], others) for s, e, others in actions_to_weigh(heard)] == [("Lock", ["unlock"])]
    opened = Heard("Open the blind.", (("Open", 0.5), ("the", 0.9), ("blind", 0.9), (".", 0.9)))
    assert [others for _, _, others in actions_to_weigh(opened)] == [["close", "stop"]]
    # another word doubted below a change's line: the question asked for the action guards it, nothing is weighed
    elsewhere = Heard(heard.text, tuple((w, 0.25) if w == "shed" else (w, p) for w, p in heard.word_probabilities))
    assert actions_to_weigh(elsewhere) == [] and "lock" in elsewhere.doubted_words()


def test_a_lock_the_audio_holds_no_unlock_in_is_no_longer_doubted(stt):
    """flite rms's "lock the wicket gate for me": Whisper writes "Lock" at 0.29, and "Unlock" in its place is
    no likelier; the lock is acted on. Its "unlock the front door", heard "And lock the front door." with "lock"
    doubted, stays doubted: "Unlock" in place of "And lock" is what the audio holds."""
    audio = spoken("lock the wicket gate for me")
    heard = stt.hear(audio)
    assert heard.text.startswith("Lock the") and "lock" in heard.doubted_words(), heard
    sure = weighed(stt, audio, heard)
    assert "lock" not in sure.doubted_words() and dict(sure.said_probabilities)["Lock"] >= DOUBTED_WORD
    assert sure.word_probabilities == heard.word_probabilities and sure.text == heard.text
    audio = spoken("unlock the front door")
    heard = stt.hear(audio)
    assert heard.text == "And lock the front door." and "lock" in heard.doubted_words(), heard
    assert "lock" in weighed(stt, audio, heard).doubted_words()


def test_a_final_with_more_doubted_words_than_the_bound_weighs_none(stt, caplog):
    """Round 36: each doubted word weighed decodes the final again on a recogniser worker all sessions share; at
    07e6cce 40 doubted "off" in 12 s of speech took 25 s of one. Past MAX_WEIGHED none is weighed: the doubts stay
    (the call is said back), and the worker is free at once."""
    words = ["Turn", *["off"] * (MAX_WEIGHED + 1)]
    audio = spoken(" ".join(words))
    heard = Heard(" ".join(words) + ".", (("Turn", 0.9), *[("off", 0.3)] * (MAX_WEIGHED + 1), (".", 0.9)))
    assert len(actions_to_weigh(heard)) == MAX_WEIGHED + 1 and not to_weigh(heard)
    with caplog.at_level(logging.INFO, logger="parley.heard_values"):
        assert weighed(stt, audio, heard) is heard and "off" in heard.doubted_words()
    assert f"a final with {MAX_WEIGHED + 1} doubted words to weigh, over {MAX_WEIGHED}: none weighed" in caplog.text
    within = Heard(" ".join(words[:MAX_WEIGHED + 1]) + ".", heard.word_probabilities[:MAX_WEIGHED + 1] + ((".", 0.9),))
    assert to_weigh(within) and weighed(stt, spoken(" ".join(words[:MAX_WEIGHED + 1])), within) is not within


def test_only_a_doubted_spelling_of_a_name_with_no_rival_is_weighed():
    home = ("louvres", "velux window", "wicker chair", "wicket gate", "kitchen")
    heard = Heard("Open the louvers.", (("Open", 0.59), ("the", 0.95), ("louvers", 0.19), (".", 0.9)))
    # the spelling heard in its place, the name as the home writes it, each as a proper noun or not; a doubted
    # action beside it is weighed on its own
    assert [(heard.text[s:e], forms) for s, e, forms in names_to_weigh(heard, home)] == [
        ("louvers", ["louvers", "louvres", "Louvers", "Louvres"])]
    # no doubt, nothing to weigh; the name written as the home writes it is round 27's (voice.heard_doubts)
    assert names_to_weigh(Heard(heard.text, (("Open", 0.9), ("the", 0.9), ("louvers", 0.7), (".", 0.9))), home) == []
    assert names_to_weigh(Heard("Open the louvres.", heard.word_probabilities), home) == []
    # a word doubted that is no action and no spelling of a name: the question guards it
    remark = Heard("Open the louvers now.", (*heard.word_probabilities[:3], ("now", 0.4), (".", 0.9)))
    assert names_to_weigh(remark, home) == []
    # another name of the home sounds like it: which was said is the question
    rival = Heard("Shut the wickit gate.", (("Shut", 0.9), ("the", 0.9), ("wickit", 0.2), ("gate", 0.9), (".", 0.9)))
    assert names_to_weigh(rival, home) == []
    assert names_to_weigh(rival, tuple(n for n in home if n != "wicker chair")) != []


def test_only_a_doubted_name_with_a_rival_is_weighed_against_its_rivals():
    home = ("punkah", "piano light", "pond pump", "radiant panel", "louvres", "kitchen")
    said = (("Get", 0.96), ("the", 0.99), ("punkah", 0.02), ("going", 0.99), (".", 0.7))
    heard = Heard("Get the punkah going.", said)
    # the name as written and each rival of its word in its place, each as a proper noun or not
    weighed_against = [(heard.text[s:e], forms, instead, alike, [heard.text[a:b] for a, b in questioned])
                       for s, e, forms, instead, alike, questioned in rivals_to_weigh(heard, home)]
    assert weighed_against == [
        ("punkah", ["punkah", "Punkah"], ["piano", "pond", "panel", "Piano", "Pond", "Panel"],
         {"piano", "pond", "panel"}, ["punkah"])]
    # no doubt, nothing to weigh; no rival, names_to_weigh's or round 27's (voice.heard_doubts)
    assert rivals_to_weigh(Heard(heard.text, (*said[:2], ("punkah", 0.7), *said[3:])), home) == []
    assert rivals_to_weigh(heard, ("punkah", "louvres", "kitchen")) == []
    # a word doubted that is no action and not of the name: the question guards it
    assert rivals_to_weigh(Heard(heard.text, (said[0], ("the", 0.4), *said[2:])), home) == []
    # a doubted action beside it is weighed on its own
    switched = Heard("Switch the punkah off.",
                     (("Switch", 0.9), ("the", 0.9), ("punkah", 0.1), ("off", 0.4), (".", 0.9)))
    assert [switched.text[s:e] for s, e, *_ in rivals_to_weigh(switched, home)] == ["punkah"]


def test_a_rival_weighing_puts_in_question_only_the_word_a_rival_sounds_like():
    """"the tack room light", a thing the home lacks, heard "the tack room lock": the weighing asks whether the tack
    or the dock was said, never whether the lock was; a spelling Whisper wrote ("punk" for the punkah) is no form of
    the name the weighing holds for it."""
    home = ("tack room lock", "dock lights", "punkah", "pond pump", "piano light")
    said = (("Lock", 0.9), ("the", 0.9), ("tack", 0.2), ("room", 0.4), ("lock", 0.3), (".", 0.9))
    heard = Heard("Lock the tack room lock.", said)
    assert [(heard.text[s:e], forms, [heard.text[a:b] for a, b in questioned])
            for s, e, forms, _, _, questioned in rivals_to_weigh(heard, home)] == [
        ("tack room lock", ["tack room lock", "Tack room lock"], ["tack"])]
    # the word a rival sounds like heard for sure: nothing to weigh, whatever else of the name was doubted
    assert rivals_to_weigh(Heard(heard.text, (*said[:2], ("tack", 0.9), *said[3:])), home) == []
    spelt = Heard("Switch off the punk fan.",
                  (("Switch", 0.9), ("off", 0.9), ("the", 0.9), ("punk", 0.1), ("fan", 0.9), (".", 0.9)))
    assert [forms for _, _, forms, *_ in rivals_to_weigh(spelt, home)] == [["punkah", "Punkah"]]


def test_a_name_the_audio_holds_in_either_spelling_is_no_longer_doubted(stt):
    """flite slt's "shut the velux window": Whisper writes "valux" at 0.09, and the home's "velux" in its place
    holds most of the rest; summed, the name is no longer doubted and the window is shut without a question. Its
    "open the louvres", heard "louvers" at 0.32, gains too little from "louvres" and is still asked about."""
    home = ("louvres", "velux window", "samovar", "punkah")
    audio = spoken("shut the velux window", "slt")
    heard = stt.hear(audio, home)
    assert heard.text == "Shut the valux window." and "valux" in heard.doubted_words(), heard
    sure = weighed(stt, audio, heard, home)
    assert sure.doubted_words() == frozenset() and sure.word_probabilities == heard.word_probabilities
    audio = spoken("open the louvres", "slt")
    heard = stt.hear(audio, home)
    assert heard.text == "Open the louvers." and "louvers" in weighed(stt, audio, heard, home).doubted_words()


def test_only_a_doubted_question_word_is_weighed():
    heard = Heard("Is the samovar on? What's the time.",
                  (("Is", 0.2), ("the", 0.5), ("samovar", 0.4), ("on", 0.9), ("?", 0.1), ("What's", 0.95), ("the", 0.9),
                   ("time", 0.9), (".", 0.9)))
    # "the", "samovar" and the mark are no question's words; "What's" was heard for sure
    assert [(heard.text[s:e], forms) for s, e, forms in questions_to_weigh(heard)] == [("Is", ["Is", "is"])]
    sure = Heard(heard.text, tuple((w, 0.9) if w == "Is" else (w, p) for w, p in heard.word_probabilities))
    assert questions_to_weigh(sure) == []
    # another word doubted below a change's line: a change made of the words is said back for it, nothing is weighed
    elsewhere = Heard(heard.text, tuple((w, 0.25) if w == "samovar" else (w, p) for w, p in heard.word_probabilities))
    assert questions_to_weigh(elsewhere) == [] and "is" in elsewhere.doubted_words()


def test_a_question_word_the_audio_holds_against_every_word_of_a_change_is_no_longer_doubted(stt):
    """flite rms's "is the ice maker on": Whisper writes "Is" at 0.42 and a full stop; against every verb of
    switching and change's action in its place the question word holds most of the audio there, and the state is
    read. Its "are the lights on in the kitchen", "Are" at 0.03, stays doubted: the audio there holds a verb of a
    change too ("Turn the lights on …"), so the read stays refused."""
    home = ("carriage house door", "samovar", "ice maker", "letterbox flap")
    audio = spoken("is the ice maker on")
    heard = stt.hear(audio, home)
    assert heard.text.startswith("Is the ice maker on") and "is" in heard.doubted_words(), heard
    sure = weighed(stt, audio, heard, home)
    assert "is" not in sure.doubted_words() and sure.word_probabilities == heard.word_probabilities
    audio = spoken("are the lights on in the kitchen")
    heard = stt.hear(audio, home)
    assert heard.text.startswith("Are the lights on") and "are" in heard.doubted_words(), heard
    assert "are" in weighed(stt, audio, heard, home).doubted_words()


def test_a_name_the_audio_holds_over_its_rivals_is_no_longer_doubted(stt):
    """flite slt's "start the pond pump" in the made-up home, prompted with all its names: Whisper writes "pond" at
    0.15, and the punkah sounds like it; forced in its place, the punkah holds little of the audio, and the pump is
    started without a question."""
    home = made_up_inventory().spoken_names()
    audio = spoken("start the pond pump", "slt")
    heard = stt.hear(audio, home)
    assert heard.text == "Start the pond pump." and "pond" in heard.doubted_change_words(), heard
    sure = weighed(stt, audio, heard, home)
    assert sure.doubted_words() == frozenset() and sure.word_probabilities == heard.word_probabilities


def test_a_thing_the_home_lacks_written_as_a_spelling_of_its_name_keeps_its_doubt(stt):
    """flite awb's "switch off the pond fan" in the made-up home, which has a pond pump and a punkah but no pond fan:
    Whisper writes "punk" at 0.10, a spelling of the punkah (voice.heard_names). Weighed for the punkah's own forms
    against its rivals, the pond holds the audio, and the punkah's doubt stands: nothing is switched without a
    question."""
    home = made_up_inventory().spoken_names()
    audio = spoken("switch off the pond fan", "awb")
    heard = stt.hear(audio, home)
    assert heard.text == "Switch off the punk fan." and "punk" in heard.doubted_words(), heard
    assert [forms for _, _, forms, *_ in rivals_to_weigh(heard, home)] == [["punkah", "Punkah"]]
    assert "punk" in weighed(stt, audio, heard, home).doubted_words()


@pytest.fixture(scope="module")
def queue(stt):
    return TranscriptionQueue(stt, TurnJudge(TextTurnModel()))


async def test_the_servers_finals_weigh_their_numbers_and_actions(queue):
    """Both ways a final reaches the assistant (at a pause, and pushed to talk) carry the weighed doubt; a doubted
    lock pushed to talk is weighed too."""
    audio = spoken("wake me up at seven forty")
    at_pause = (await queue.hear(audio))[0]
    pushed = await queue.final(audio)
    for heard in (at_pause, pushed):
        assert heard.text == "Wake me up at 740." and heard.unsure_numbers() == frozenset(), heard
        assert dict(heard.word_probabilities)["740"] < UNSURE_NUMBER     # as Whisper wrote it
    locked = await queue.final(spoken("lock the wicket gate for me"))
    assert "lock" not in locked.doubted_words() and dict(locked.word_probabilities)["Lock"] < DOUBTED_WORD
