"""Typing slips of the words a call is made of ("what's the tempreture in the hallway", "a timer for 40 minuts",
"set the thermostst to 18"): the request spelt with the vocabulary's word for each slip, read as one more reading
beside the request (assistant.embedded), taken only when the request as typed makes no call.

A slip is a word of at least six letters that is none of the words of the vocabulary, nor a regular form of one
("heated" of "heat", "degree" of "degrees"), and is one typing slip from one of them (a letter dropped, a letter
doubled, a key beside it hit instead, two letters swapped), two for a word of nine letters or more, with the same
first letter. Other edits make other English words ("heading" is not "heating", "halfway" not "hallway", "raining"
not "remaining"), and so do shorter words ("about": abort, "house": hours), which are left as typed; so are number
words ("fourth" is not "fourty"). The words are those a
call needs: the default home's devices and rooms, units, durations, the readings, the words each
skill's action is asked by, and the names and areas of the user's own home.
"""
import re
from functools import lru_cache

from assistant.skills import SKILLS, READINGS
from assistant.spoken_numbers import DURATION_SECONDS
from assistant.vocabulary import (DEVICES, HEATING_WORDS, ROOMS, SENSOR_UNITS, SPELT_WORDS, SWITCHING_VERBS,
                                  UNIT_WORDS)

SHORTEST = 6        # letters of the shortest word read as a slip, and of the shortest word it may be
KEYBOARD_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
LONG = 9            # letters of a word that may be two edits from what was typed
REGULAR_ENDINGS = ("s", "es", "ed", "d", "ing", "er", "ers", "ly")


def _words(phrases) -> set[str]:
    return {word for phrase in phrases for word in phrase.split() if word.isalpha()}


@lru_cache(maxsize=1)
def _vocabulary() -> frozenset[str]:
    """The words of the default vocabulary a call is made of (without a home's own names)."""
    phrases = [*(p for ps in DEVICES.values() for p in ps), *(p for ps in ROOMS.values() for p in ps),
               *(p for ps in UNIT_WORDS.values() for p in ps), *DURATION_SECONDS, *SENSOR_UNITS,
               *SENSOR_UNITS.values(), *(w for ws in READINGS.values() for w in ws), *HEATING_WORDS,
               *SWITCHING_VERBS, *SPELT_WORDS,
               *(w for skill in SKILLS.values() for ws in skill.means.values() for w in ws)]
    return frozenset(_words(phrases))


def _near_keys() -> dict[str, set[str]]:
    """Each letter's neighbours on a QWERTY keyboard, beside it in its row or touching it in the rows around."""
    near: dict[str, set[str]] = {}
    for r, row in enumerate(KEYBOARD_ROWS):
        for c, key in enumerate(row):
            near[key] = {other for rr in (r - 1, r, r + 1) if 0 <= rr < len(KEYBOARD_ROWS)
                         for cc, other in enumerate(KEYBOARD_ROWS[rr]) if other != key and abs(cc - c) <= 1}
    return near


NEAR_KEYS = _near_keys()
TOO_FAR = 99


def _distance(typed: str, word: str) -> int:
    """Slips from word to what was typed: a letter dropped, a letter doubled, a key beside it hit instead, two
    letters swapped; TOO_FAR when another edit is needed (a letter the typist would not hit by mistake)."""
    rows = [[TOO_FAR] * (len(word) + 1) for _ in range(len(typed) + 1)]
    rows[0][0] = 0
    for j in range(1, len(word) + 1):
        rows[0][j] = j                                            # dropped
    for i in range(1, len(typed) + 1):
        a = typed[i - 1]
        doubled = i > 1 and typed[i - 2] == a or i < len(typed) and typed[i] == a
        rows[i][0] = rows[i - 1][0] + 1 if doubled else TOO_FAR
        for j in range(1, len(word) + 1):
            b = word[j - 1]
            cost = min(rows[i - 1][j - 1] + (0 if a == b else 1 if b in NEAR_KEYS.get(a, ()) else TOO_FAR),
                       rows[i][j - 1] + 1,                        # a letter of the word dropped
                       rows[i - 1][j] + 1 if doubled else TOO_FAR)
            if i > 1 and j > 1 and a == word[j - 2] and typed[i - 2] == b:
                cost = min(cost, rows[i - 2][j - 2] + 1)          # two letters swapped
            rows[i][j] = min(cost, TOO_FAR)
    return rows[-1][-1]


def _regular_form(word: str, known: frozenset[str] | set[str]) -> bool:
    """The word is a known word with a regular ending ("heated", "lamps", "dimmer"; "closing": close), or one
    such word without its plural's ending ("degree": degrees)."""
    if word + "s" in known or word + "es" in known:
        return True
    for ending in REGULAR_ENDINGS:
        stem = word[:-len(ending)]
        if word.endswith(ending) and (stem in known or ending[0] in "aeiou" and (
                stem + "e" in known or len(stem) > 1 and stem[-1] == stem[-2] and stem[:-1] in known)):
            return True
    return False


def _spelt(typed: str, known: set[str]) -> str:
    """The known word a slip stands for; the word itself when it is no slip or could be more than one word."""
    if len(typed) < SHORTEST or not typed.isalpha() or typed in known or _regular_form(typed, known):
        return typed
    best, found = 3, set()
    for word in known:
        if len(word) < SHORTEST or word[0] != typed[0]:
            continue
        most = 2 if len(word) >= LONG and len(word) - len(typed) <= 1 else 1
        edits = _distance(typed, word)
        if edits <= most and edits <= best:
            found = found | {word} if edits == best else {word}
            best = edits
    longest = max(found, key=len, default=typed)
    # "minuts": minute and minutes, one word's forms; two words of one length are a guess
    return longest if len({w for w in found if len(w) == len(longest)}) == 1 else typed


def respelt(request: str, lexicon=None) -> str:
    """The request with each typing slip spelt as the vocabulary spells it (lexicon: the user's own names and
    areas, assistant.home.Lexicon); the request as typed when it has none."""
    names, areas = lexicon if lexicon else (set(), set())
    known = set(_vocabulary()) | _words(names) | _words(areas)

    def spelt(match: re.Match) -> str:
        word = _spelt(match[0].lower(), known)
        return match[0] if word == match[0].lower() else word
    return _WORD.sub(spelt, request)


# a word of letters alone: not part of "what's" or "i'd"
_WORD = re.compile(r"(?<![\w'])[A-Za-z]+(?![\w'])")
