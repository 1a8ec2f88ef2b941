"""Word order the model reads best, for requests said in another order: deterministic, after the number
normaliser and before the model, as the normaliser itself is.

The shipped model writes a broken call for "turn the tv off in the living room" and a right one for "turn off
the living room tv": it learnt the corpus's orders. These rules move words into those orders and change
nothing else; each is one line of data, (pattern, replacement) over the normalised request.
"""
import re

from assistant.vocabulary import DEVICES, ROOMS, UNIT_WORDS

_DEVICE = "|".join(sorted((re.escape(p) for ps in DEVICES.values() for p in ps), key=len, reverse=True))
_ROOM = "|".join(sorted((re.escape(p) for ps in ROOMS.values() for p in ps), key=len, reverse=True))
_UNIT = "|".join(sorted((re.escape(p) for ps in UNIT_WORDS.values() for p in ps if len(p) > 1), key=len, reverse=True))

# Every home: tense and particle order.
REPHRASINGS = [(re.compile(pattern), replacement) for pattern, replacement in (
    # "turned on the tv": a transcript's past tense of the command
    (r"^(turn|switch)ed\b", r"\1"),
    # "turn the tv off in the living room": the particle after the verb
    (r"^((?:please |can you |could you )?(?:turn|switch|shut|put|power)) (?!on\b|off\b)((?:the |my |all the )?[a-z0-9' ]+?) (on|off)\b",
     r"\1 \3 \2"),
    # "how heavy is 70 kilos in pounds": a conversion asked by what is measured
    (rf"^how (?:heavy|long|far|tall|big|much|hot|cold|warm|deep|wide|high) is (\d+(?:\.\d+)? (?:{_UNIT}))"
     rf" in ((?:{_UNIT}))$", r"what is \1 in \2"),
)]
# The default home only, whose rooms and devices are the vocabulary's: "the tv in the living room" is its
# "living room tv".
DEFAULT_HOME_REPHRASINGS = [(re.compile(pattern), replacement) for pattern, replacement in (
    (rf"\bthe ({_DEVICE}) in the ({_ROOM})\b", r"the \2 \1"),
)]


def rephrase(said: str, default_home: bool) -> str:
    """A normalised request in the word order the model reads best."""
    for pattern, replacement in REPHRASINGS + (DEFAULT_HOME_REPHRASINGS if default_home else []):
        said = pattern.sub(replacement, said)
    return said
