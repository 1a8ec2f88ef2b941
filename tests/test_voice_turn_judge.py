"""The turn judge's second look: the shipped weights on the words' verdicts."""
import pytest

from streaming.turns import TurnDetector
from voice.stt import Heard
from voice.text_turn import TextTurnModel
from voice.turn_judge import FEATURES, TurnJudge, features

WORDS_DONE = TurnDetector.words_done


@pytest.fixture(scope="module")
def judge():
    return TurnJudge(TextTurnModel())


def test_the_second_look_overrules_only_where_it_is_sure():
    cut, finished = 0.2, 0.8
    assert TurnJudge.second_look(0.9, cut, cut, 0.7, 0.05, WORDS_DONE) == (WORDS_DONE, None)     # read finished
    assert TurnJudge.second_look(0.6, cut, 0.1, 0.7, 0.05, WORDS_DONE) == (cut, 0.1)             # stays cut
    assert TurnJudge.second_look(0.01, finished, finished, 0.7, 0.05, WORDS_DONE) == (0.0, None)  # read cut
    assert TurnJudge.second_look(0.1, finished, 0.3, 0.7, 0.05, WORDS_DONE) == (finished, 0.3)   # stays finished


def test_the_shipped_weights_fit_the_features(judge):
    assert judge.weights.shape == judge.mean.shape == judge.scale.shape == (len(FEATURES),)
    assert judge.hold_below < judge.end_above


def test_a_confident_finished_request_the_words_read_cut_is_read_finished(judge):
    """"Cancel the timer called laundry.": the text judge never saw "laundry" after "called" and reads it cut;
    Whisper is sure of every word, the last word began well before the audio's end, no beam goes on."""
    heard = Heard("Cancel the timer called laundry.", (("Cancel", 0.97), ("the", 0.99), ("timer", 0.98),
                                                         ("called", 0.97), ("laundry", 0.95), (".", 0.9)),
                  last_word_start_s=1.55, last_word_end_s=2.05)
    assert judge.text_turn.judge(heard) < WORDS_DONE
    assert judge.judge(heard, 2.2, WORDS_DONE) == (WORDS_DONE, None)


def test_a_cut_request_stays_cut(judge):
    heard = Heard("Set the living room lights to", (("Set", 0.95), ("the", 0.99), ("living", 0.98), ("room", 0.99),
                                                    ("lights", 0.98), ("to", 0.97)),
                  last_word_start_s=1.6, last_word_end_s=1.75)
    assert judge.judge(heard, 1.8, WORDS_DONE)[0] < WORDS_DONE


def test_the_features_are_the_ones_named(judge):
    heard = Heard("What time is it?", (("What", 0.99), ("time", 0.99), ("is", 0.99), ("it", 0.99), ("?", 0.95)),
                  last_word_start_s=0.9, last_word_end_s=1.0)
    row = features(judge.text_turn, heard, 1.3, 0.97, 0.97)
    assert len(row) == len(FEATURES) and row[FEATURES.index("ends in a question mark")] == 1.0
    assert row[FEATURES.index("since the last word began")] == pytest.approx(0.4)
