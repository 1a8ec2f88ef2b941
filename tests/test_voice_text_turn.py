"""The text end-of-turn judge: the shipped weights on finished and cut requests, and Whisper's doubt read in."""
import pytest

from voice.stt import Heard
from voice.text_turn import NUMBER, TextTurnModel, words


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
