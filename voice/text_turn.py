"""End of turn from the words: has the transcript up to a pause said all it means to say?

A logistic regression over hashed features of the transcript's end (the last one to three words, the first
and last word together, each word beside the last word, the length), in the manner of LiveKit's text turn
model but small: "set the living room lights to" and "set the living room lights" score low, "set the living
room lights to fifty percent" high. Whisper's casing and punctuation are ignored (at a pause it writes "Set
the living room lights." for a sentence that goes on), and numbers in digits or words are one token, as the
corpus writes them as words and Whisper mostly as digits.

The weights (voice/data/text-turn.npy) are trained by `python -m assistant.train_text_turn` on the assistant
corpus's requests (finished) and their cuts at word boundaries (unfinished).
"""
from __future__ import annotations

import re
import zlib
from pathlib import Path

import numpy as np

from voice.stt import Heard
from voice.weights import verified

WEIGHTS_PATH = Path(__file__).resolve().parent / "data" / "text-turn.npy"    # where the trainer writes them
# Words after which, at a pause, Whisper may write the next word whole from its first sound ("... lights to 50."
# for "lights to f-"): "to", "for", ...
OPENERS = frozenset((Path(__file__).resolve().parent / "data" / "turn_openers.txt").read_text().split())
BUCKETS = 1 << 16
_TOKEN = re.compile(r"[a-z]+(?:'[a-z]+)?|\d+(?:[.,]\d+)*%?")
_SENTENCE_END = re.compile(r"\s*[.?!]")
_NUMBER_WORDS = set("""zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen
fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred
thousand million point half""".split())
NUMBER = "<num>"
DOUBT = 0.5         # Whisper's probability of the last word below which it may be invented (its doubt about
                    # the closing mark is no evidence: it doubts the full stop after "30%" at the end, too)


def words(text: str) -> list[str]:
    """Lowercase words, a run of number words or digits as one NUMBER token, "%" as "percent"."""
    return [word for word, _ in _words_and_ends(text)]


def _words_and_ends(text: str) -> list[tuple[str, int]]:
    """words(text), each with its end: the index just after it in text.lower()."""
    out: list[tuple[str, int]] = []
    for match in _TOKEN.finditer(text.lower()):
        token = match.group()
        if token[0].isdigit() or token in _NUMBER_WORDS:
            if out and out[-1][0] == NUMBER:
                out[-1] = (NUMBER, match.end())
            else:
                out.append((NUMBER, match.end()))
        else:
            out.append((token, match.end()))
        if token.endswith("%"):
            out.append(("percent", match.end()))
    return out


def goes_on(said: list[str], other: str) -> bool:
    """Another hypothesis says the same words and more, in the same sentence ("Switch on the fan and the" beside
    "Switch on the fan."). One that ends the sentence there and starts another ("... to 50%. Deperson.", a
    beam's invention after the end) agrees the words are finished."""
    more = _words_and_ends(other)
    if len(more) <= len(said) or [word for word, _ in more[:len(said)]] != said:
        return False
    return not _SENTENCE_END.match(other.lower(), more[len(said) - 1][1] if said else 0)


def features(tokens: list[str]) -> list[str]:
    """The named features of one transcript (empty: no features, the bias alone)."""
    if not tokens:
        return ["bias"]
    padded = ["<s>", "<s>", *tokens]
    last = tokens[-1]
    named = ["bias", f"L1 {last}", f"L2 {' '.join(padded[-2:])}", f"L3 {' '.join(padded[-3:])}",
             f"P1 {padded[-2]}", f"FL {tokens[0]} {last}", f"N {min(len(tokens), 12)}"]
    named += [f"WL {w} {last}" for w in sorted(set(tokens[:-1]))]
    return named


def buckets(tokens: list[str]) -> np.ndarray:
    """Feature indices into the weight vector (crc32: the same on every machine and Python run)."""
    return np.array([zlib.crc32(f.encode()) % BUCKETS for f in features(tokens)], dtype=np.int64)


class TextTurnModel:
    """Loaded once and shared; a call is a few dozen additions (microseconds), safe on any thread."""

    def __init__(self, path: str | Path | None = None):
        self.weights = np.load(path or verified("voice", "data/text-turn.npy")).astype(np.float32)
        if self.weights.shape != (BUCKETS,):
            raise ValueError(f"text turn weights must have {BUCKETS} entries, got {self.weights.shape}")

    def finished(self, transcript: str) -> float:
        """Probability that the transcript is a finished request."""
        tokens = words(transcript)
        if not tokens:
            return 0.0
        logit = float(self.weights[buckets(tokens)].sum())
        return 1.0 / (1.0 + np.exp(-logit))

    def judge(self, heard: Heard) -> float:
        """Probability that a pause's transcript is a finished request, reading Whisper's doubt: when it
        doubts the last word (it completes "open the ..." as "Open the blind."), the transcript counts as no
        more finished than it is without that word. Not for short answers, which stand on their own. Numbers
        too: at a pause after "to" Whisper invents one ("Set the living room lights to 50."). When it ended in
        its prompt's words, no more finished than what it wrote without the prompt. And no more finished than
        a hypothesis of the beam that says the same words and more in the same sentence ("Switch on the fan."
        beside "Switch on the fan and the", not "... to 50%." beside "... to 50%. Deperson."); not for short
        answers either (the beam writes "No. No." beside "No.")."""
        finished = self.finished(heard.text)
        spoken = [(w, p) for w, p in heard.word_probabilities if words(w)]
        if len(spoken) > 2 and spoken[-1][1] < DOUBT:
            finished = min(finished, self.finished(" ".join(w for w, _ in spoken[:-1])))
        if heard.unprompted:            # it ended in the prompt's words: as finished as it reads without the prompt
            finished = min(finished, self.finished(heard.unprompted))
        said = words(heard.text)
        for other in heard.alternatives if len(said) > 2 else ():   # the beam also heard the words go on
            if goes_on(said, other):
                finished = min(finished, self.finished(other))
        return finished

    def judge_going_on(self, heard: Heard, finished: float) -> float:
        """The verdict to use when the sound says outright that the speaker goes on (Smart Turn): a last word
        right after an opener ("to", "for") may be one Whisper wrote whole from its first sound, confidently
        ("Set the living room lights to 50." at a pause after "to f-"), and then the transcript is no more
        finished than without it. `finished`: judge(heard). The sound alone is no reason to hold a request
        that reads finished: Smart Turn calls many finished requests in synthetic voices unfinished."""
        said = _words_and_ends(heard.text)
        if len(said) > 2 and said[-2][0] in OPENERS:
            return min(finished, self.finished(heard.text.lower()[:said[-2][1]]))
        return finished
