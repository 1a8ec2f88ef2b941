"""A request's own words as said, where the recogniser wrote a word no phrasing holds for one that sounds the same.

With the home's name heard right, Whisper tiny still writes the words around it otherwise: "Has the coal hole
door bin shut properly.", "The carriage house door, shot it", "Light soft in the washroom." The skills'
phrasings are a closed list: the pairs of neighbouring words the training corpus's requests are made of
(voice/data/phrasing_pairs.txt, bench/phrasing_words.py), every name's word as NAME and every number as NUMBER.
A heard word in no phrasing, no name's word, is put back as the one phrasing word with the same Metaphone key
and letters close enough ("bin" -> "been"), and two words with such a word as the one pair of words spelt with
the same letters ("light soft" -> "lights off"), only where what is put back stands beside its neighbours as
the phrasings have it ("door been", "been shut"; "it's wake" is no pair, so "wake" stays). The phrasing words
hold no name's word, so a snap never makes an unknown name a known one. Pure code: words in, words out.
"""
from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import jellyfish

from assistant.spoken_numbers import NUMBER_WORDS
from assistant.vocabulary import DEVICES, OTHER_ROOMS, ROOMS

SNAP_LETTERS = 0.75   # letters' similarity (Jaro-Winkler) from which a word of the same key is the word said
SHORTEST = 3          # words shorter than this are neither snapped nor snapped to ("a", "of": every key has many)
NAME, NUMBER = "NAME", "NUMBER"     # what a name's word and a number are in the phrasings' pairs
PAIRS = Path(__file__).parent / "data" / "phrasing_pairs.txt"


@cache
def name_words() -> frozenset[str]:
    """The words of the default home's names (the vocabulary's devices and rooms, and the rooms it has not)."""
    return frozenset(w for group in (*DEVICES.values(), *ROOMS.values(), OTHER_ROOMS) for name in group
                     for w in name.lower().split())


def word_class(word: str, names: frozenset[str]) -> str:
    """A plain word as the phrasings' pairs have it: NAME for a word of names, NUMBER for a number."""
    if word in names:
        return NAME
    return NUMBER if word in NUMBER_WORDS or word.replace(".", "").isdigit() else word


@cache
def _pairs() -> frozenset[tuple[str, str]]:
    return frozenset(tuple(line.split()) for line in PAIRS.read_text().splitlines() if line)


@cache
def _words() -> frozenset[str]:
    """The phrasings' words and the words that carry a request (voice/data/request_words.txt: "has", "her")."""
    return frozenset(w for pair in _pairs() for w in pair) - {NAME, NUMBER} | frozenset(
        (PAIRS.parent / "request_words.txt").read_text().split())


@cache
def _by_key() -> dict[str, tuple[str, ...]]:
    keys: dict[str, list[str]] = {}
    for word in sorted(_words()):
        keys.setdefault(jellyfish.metaphone(word), []).append(word)
    return {key: tuple(words) for key, words in keys.items()}


def words_in_no_phrasing(text: str, home_words: frozenset[str]) -> int:
    """How many words of text are in no phrasing, no name (home_words: the home's names' words) and no number
    ("Light soft in the washroom": 1, "Light's off in the washroom": 0): of a final's beam hypotheses, the one
    with the fewest is most likely the words said (heard_names.best_hypothesis)."""
    names = home_words | name_words()
    plain = (re.sub(r"[^a-z0-9']", "", token.lower()).removesuffix("'s") for token in text.split())
    return sum(1 for word in plain if word and word_class(word, names) not in _words() | {NAME, NUMBER})


def snap(words: list[str], free: list[bool], joined: list[bool], home_words: frozenset[str]) -> dict[int, str]:
    """{index of a heard word: the phrasing word(s) said in its place} for the plain (lowercase) words, among
    those free (no name put in), joined[i] where no mark stands between word i and the next; a replacement of two
    words takes the next word's place too ("light soft": {0: "lights off", 1: ""}); home_words: the words of the
    home's names. See the module."""
    names = home_words | name_words()
    classes = [word_class(w, names) for w in words]
    def fits(i: int, said: list[str], end: int) -> bool:
        before = classes[i - 1] if i and joined[i - 1] else None
        after = classes[end] if end < len(words) and joined[end - 1] else None
        chain = [c for c in (before, *said, after) if c is not None]
        return len(chain) > len(said) and all(pair in _pairs() for pair in zip(chain, chain[1:]))
    def odd(i: int) -> bool:
        return free[i] and words[i].isalpha() and classes[i] not in _words() and classes[i] != NAME
    out: dict[int, str] = {}
    i = 0
    while i < len(words):
        if i + 1 < len(words) and free[i] and free[i + 1] and joined[i] and (odd(i) or odd(i + 1)):
            split = _respaced(words[i], words[i + 1], names)
            if split and fits(i, [word_class(w, names) for w in split], i + 2):
                out[i], out[i + 1] = " ".join(split), ""
                i += 2
                continue
        if odd(i) and len(words[i]) >= SHORTEST:
            said = _same_sound(words[i])
            if said and fits(i, [said], i + 1):
                out[i] = said
        i += 1
    return out


def _respaced(first: str, second: str, names: frozenset[str]) -> tuple[str, str] | None:
    """The one other pair of phrasing or name words spelt with the letters of two heard words, else None."""
    letters = first + second
    found = [(letters[:k], letters[k:]) for k in range(2, len(letters) - 1)
             if letters[:k] != first and all(w in _words() or w in names for w in (letters[:k], letters[k:]))]
    return found[0] if len(found) == 1 else None


def _same_sound(word: str) -> str | None:
    """The one phrasing word with the word's Metaphone key and letters at least SNAP_LETTERS alike, else None."""
    close = [w for w in _by_key().get(jellyfish.metaphone(word), ())
             if len(w) >= SHORTEST and jellyfish.jaro_winkler_similarity(word, w) >= SNAP_LETTERS]
    return close[0] if len(close) == 1 else None
