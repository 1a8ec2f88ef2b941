"""Which of the recogniser's beam hypotheses holds the words a request is made of (voice/heard_words.py, and
voice.heard_names.best_hypothesis, which ranks by them after the home's names)."""
from voice.heard_names import best_hypothesis
from voice.heard_words import words_in_no_phrasing


def test_words_in_no_phrasing_counts_neither_names_nor_numbers():
    assert words_in_no_phrasing("Pause the musak in the kitchen.", frozenset()) == 1
    assert words_in_no_phrasing("Pause the music in the kitchen.", frozenset()) == 0
    assert words_in_no_phrasing("Set the orrery lamp to 40%.", frozenset({"orrery", "lamp"})) == 0
    assert words_in_no_phrasing("Set the orrery lamp to 40%.", frozenset()) == 1


def test_the_hypothesis_made_of_phrasing_words_wins_within_the_margin():
    heard = [("Switch the heeter off in the study.", -0.31), ("Switch the heater off in the study.", -0.38)]
    assert best_hypothesis(heard, ()) == "Switch the heater off in the study."
    far = [("Switch the heeter off in the study.", -0.31), ("Switch the heater off in the study.", -0.61)]
    assert best_hypothesis(far, ()) == "Switch the heeter off in the study."       # far less likely: as heard


def test_the_homes_names_come_before_phrasing_words():
    names = ("orrery lamp",)
    heard = [("Dim the orrery lamp a tuch.", -0.2), ("Dim the ore very lamp a touch.", -0.25)]
    assert best_hypothesis(heard, names) == "Dim the orrery lamp a tuch."


def test_a_hypothesis_with_fewer_words_never_wins_by_phrasing_words():
    """A word dropped may be an unknown name's: "the chapel blinds" must not become "the blinds"."""
    heard = [("Open the chapel blinds.", -0.2), ("Open the blinds.", -0.22)]
    assert best_hypothesis(heard, ()) == "Open the chapel blinds."


def test_a_hypothesis_with_other_words_of_the_homes_names_never_wins_by_phrasing_words():
    """"The pond can get it going" is no better heard than "The bunker, get it going" in a home with a pond pump:
    "pond" may be a guess of the recogniser's, and a call to the pond pump a wrong action."""
    heard = [("The bunker, get it going please.", -0.45), ("The pond can get it going please.", -0.5)]
    assert best_hypothesis(heard, ("pond pump", "snug")) == "The bunker, get it going please."
