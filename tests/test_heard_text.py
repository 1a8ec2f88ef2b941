"""The little words Whisper writes otherwise, put back before the assistant reads a heard request
(voice/heard_text.py)."""
import pytest

from voice.heard_text import said_articles


@pytest.mark.parametrize("heard, said", [
    ("Dim the piano light at touch.", "Dim the piano light a touch."),
    ("Dim the piano light to touch.", "Dim the piano light a touch."),
    ("Lower the mushroom lamp of touch.", "Lower the mushroom lamp a touch."),
    ("Dim the piano light touch.", "Dim the piano light a touch."),
    ("Dim the lamp to touch, please.", "Dim the lamp a touch, please."),
    ("Make the chandelier to bit brighter.", "Make the chandelier a bit brighter."),
    ("Turn it up at bit more", "Turn it up a bit more"),
])
def test_the_a_of_a_degree_word_is_put_back(heard, said):
    assert said_articles(heard) == said


@pytest.mark.parametrize("heard", [
    "Make the chandelier a bit brighter.",
    "Turn the volume up a little bit.",
    "Turn on the little lamp.",
    "Set it to notch 3.",
    "Touch.",
    "turn it down a tad",
])
def test_degree_words_said_with_their_a_or_as_other_words_stay_as_heard(heard):
    assert said_articles(heard) == heard
