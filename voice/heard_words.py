"""Which of the recogniser's hypotheses holds the words a request is made of.

With the home's name heard right, Whisper tiny still writes the words around it otherwise, and often has the
words said in another hypothesis of its beam, close behind: "Light soft in the washroom." beside "Light's off in
the washroom.", "Dude the coal men shut the coal hole door" beside "Did the coal men …", "Half a leader." beside
"Half a liter.". The skills' phrasings are a closed list: the words the training corpus's requests are made of
(voice/data/phrasing_words.txt, written by bench/phrasing_words.py) and the words that carry a request
(request_words.txt). A word in neither, no word of a name (the home's, or the default home's devices and rooms)
and no number is one the recogniser may have made up; voice.heard_names.best_hypothesis prefers the hypothesis
with the fewest. Pure code: words in, a count out.
"""
from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from assistant.spoken_numbers import NUMBER_WORDS
from assistant.vocabulary import DEVICES, OTHER_ROOMS, ROOMS

NAME, NUMBER = "NAME", "NUMBER"     # what a name's word and a number are among the phrasings' words
DATA = Path(__file__).parent / "data"
PHRASING_WORDS = DATA / "phrasing_words.txt"


@cache
def name_words() -> frozenset[str]:
    """The words of the default home's names (the vocabulary's devices and rooms, and the rooms it has not)."""
    return frozenset(w for group in (*DEVICES.values(), *ROOMS.values(), OTHER_ROOMS) for name in group
                     for w in name.lower().split())


def word_class(word: str, names: frozenset[str]) -> str:
    """A plain word as the phrasings' words have it: NAME for a word of names, NUMBER for a number."""
    if word in names:
        return NAME
    return NUMBER if word in NUMBER_WORDS or word.replace(".", "").isdigit() else word


@cache
def _words() -> frozenset[str]:
    """The phrasings' words and the words that carry a request ("has", "her")."""
    return frozenset(PHRASING_WORDS.read_text().split()) | frozenset((DATA / "request_words.txt").read_text().split())


def words_in_no_phrasing(text: str, home_words: frozenset[str]) -> int:
    """How many words of text are in no phrasing, no name (home_words: the home's names' words) and no number
    ("Light soft in the washroom": 1, "Light's off in the washroom": 0)."""
    names = home_words | name_words()
    plain = (re.sub(r"[^a-z0-9']", "", token.lower()).removesuffix("'s") for token in text.split())
    return sum(1 for word in plain if word and word_class(word, names) not in _words() | {NAME, NUMBER})
