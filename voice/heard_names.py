"""The home's names in what the recogniser heard: a run of words that sounds like one of the home's names
becomes that name. Whisper writes names it does not know as words it does ("samovar" -> "sand, mufaru",
"parlour" -> "parlor"), and the assistant can only reach a device by a name the transcript holds.

Words are compared run together, by their Metaphone keys (jellyfish: "saw mover" and "samovar" are both
SMFR) and by their letters, each with Jaro-Winkler similarity. The same key with much the same letters, or
nearly the same letters, is a spelling the recogniser chose ("parlor"): put in silently. A close match is a
guess the user is asked about ("Did you mean the samovar?"). A key that starts with another sound, is much
shorter or longer, or is as close to two names is left as heard, so an unknown name ("the chapel blinds")
never becomes a known one. So is a run that holds words of a name as said, in place, where the rest starts with
another sound ("sewing tonight" for the sewing room) or is missing ("sewing"), and a word that is a name with
more after it ("gardener's" for the garden): those words were said, the name was not. A longer name whose
first words were heard as said, often a name of their own ("the nursery radar": the nursery, and the nursery
radiator), is judged on its other words alone. A name is often said by two or more of its own words ("the score
lamp" for the billiard score lamp): such a part, standing in no other name, is matched as names are where no
whole name is, and a guess of it is a guess of the whole name too.

The recogniser also asks which of a final's beam hypotheses is most made of the home's names, then of the
skills' phrasings (best_hypothesis). Pure code: transcripts and names in, a transcript and the guessed names out.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import jellyfish

from voice.heard_words import name_words, words_in_no_phrasing

CLOSE = 0.80          # mean similarity of keys and letters from which a name is offered
ONE_WORD_CLOSE = 0.90 # the same for one heard word, often a real word of its own ("cellar", "clean", "both")
KEY_LENGTHS = 0.65    # the shorter key at least this share of the longer: "gate" is no "garden", "pond" no "pond leak"
SAME_SPELLING = 0.85  # letters' similarity above which the same key is a spelling, not a guess
NEAR_LETTERS = 0.95   # letters' similarity above which any key is a spelling ("samovars")
CLEAR_MARGIN = 0.03   # a second name this close to the best one makes the guess ambiguous: left as heard
RESCORE_MARGIN = 0.15 # mean log-probability per token a hypothesis may trail the best one by and still win
LONGEST_SPAN = 3      # heard words one name may stand for ("parlour agator" for "propagator")
SOUNDS_CHECKED = 0.7  # _sounds from which a run of heard words and a name are checked against the audio (at 0.6 the
                      # unknown "sauna", heard "sander", was guessed the side gate at 0.65)
CHECKED_NAMES = 4     # names checked against the audio per final, the most alike first
_HOMES_KEPT = 8       # homes whose names' own parts are kept (_own_parts), as the recogniser's prompts are
# Words that carry the request, never a name: requests' verbs, articles, prepositions, numbers, units.
REQUEST_WORDS = frozenset((Path(__file__).parent / "data" / "request_words.txt").read_text().split())


@dataclass
class Hearing:
    """A transcript with the home's names put in; guessed: {name put in: the words heard in its place}; spelled:
    the same for names put in silently, as spellings of the words heard."""
    text: str
    guessed: dict[str, str] = field(default_factory=dict)
    spelled: dict[str, str] = field(default_factory=dict)

    def doubted(self, words: frozenset[str]) -> frozenset[str]:
        """The words the recogniser doubted (lowercase), with the words each name put in for words of them brought
        that were not heard: "Code lighting" heard at 0.07 and 0.13 is "cove lighting" heard with doubt, not for
        sure; in "valux window" (0.09, 0.95) only "velux" is."""
        return words | {word for name, heard in self.spelled.items() if set(heard.split()) & words
                        for word in name.split() if word not in heard.split()}


def _plain(word: str) -> str:
    return re.sub(r"[^a-z0-9']", "", word.lower())


def _key(words: list[str]) -> str:
    return jellyfish.metaphone(_letters(words))


def _letters(words: list[str]) -> str:
    return "".join(words).replace("'", "")


def _sounds(heard: list[str], name: list[str]) -> float:
    """How alike two runs of words are: 0 unless their keys start with the same sound (B and P count as one:
    "bunker" for "punkah") and are of like length, else the mean of the keys' and the letters' similarity."""
    a, b = _key(heard), _key(name)
    if not _same_start(a, b):
        return 0.0
    if min(len(a), len(b)) < KEY_LENGTHS * max(len(a), len(b)):
        return 0.0
    letters = jellyfish.jaro_winkler_similarity(_letters(heard), _letters(name))
    return (jellyfish.jaro_winkler_similarity(a, b) + letters) / 2


def _score(heard: list[str], name: list[str], part: bool = False) -> float:
    """How alike the heard words and a name are (_sounds), 0 for words that were said, not the name (_part_of).
    A name's part (_own_parts) with more letters after it is other words said ("the score lamps"), even where
    it would be a spelling of a name."""
    score = _sounds(heard, name)
    if part and score and _letters(heard).startswith(_letters(name)):
        return 0.0
    return 0.0 if score and _part_of(heard, name) else score


def _part_of(heard: list[str], name: list[str]) -> bool:
    """Whether the heard words, not a spelling of the name, are the name's letters with more after them ("the
    gardener's at the gate" in a home with a garden), or hold some of the name's words as its own, in place,
    with no others or with others that start with another sound than the rest of the name ("I'm sewing
    tonight" in a home with a sewing room): words said, not the name misheard."""
    if _letters(heard).startswith(_letters(name)):
        return not _spelling(heard, name)
    lead = next((i for i, (h, n) in enumerate(zip(heard, name)) if h != n), min(len(heard), len(name)))
    trail = next((i for i, (h, n) in enumerate(zip(heard[lead:][::-1], name[lead:][::-1])) if h != n),
                 min(len(heard), len(name)) - lead)
    if not lead + trail:
        return False
    rest, rest_of_name = heard[lead:len(heard) - trail], name[lead:len(name) - trail]
    return ((not rest or not rest_of_name or not _same_start(_key(rest), _key(rest_of_name)))
            and not _spelling(heard, name))


def _same_start(a: str, b: str) -> bool:
    """Two Metaphone keys start with the same sound (B and P count as one: "bunker" for "punkah")."""
    return bool(a) and bool(b) and a[0].replace("P", "B") == b[0].replace("P", "B")


def alike(heard: str, word: str) -> bool:
    """One heard word and one word of a name sound alike (_sounds) or are nearly the same letters, each at CLOSE:
    "rings" for "drinks" (letters 0.82), not "washing" for "sewing" (0.78) nor "one" for "coal"."""
    return (_sounds([heard], [word]) >= CLOSE
            or jellyfish.jaro_winkler_similarity(_letters([heard]), _letters([word])) >= CLOSE)


def _spelling(heard: list[str], name: list[str]) -> bool:
    letters = jellyfish.jaro_winkler_similarity(_letters(heard), _letters(name))
    return letters >= NEAR_LETTERS or (letters >= SAME_SPELLING and _key(heard) == _key(name))


def hear_names(transcript: str, names: tuple[str, ...]) -> Hearing:
    """The transcript with each run of words that sounds like one of names, or like a name's own part (a name
    said by its last or first words: "the score lamp" for the billiard score lamp), replaced by it (see the
    module). A part guessed is guessed under its whole name too: the assistant may call the device by either."""
    tokens = transcript.split()
    if not names:
        return Hearing(transcript)
    plain = [_plain(t) for t in tokens]
    known = [n.split() for n in dict.fromkeys(n.lower() for n in names) if n.split()]
    parts = _own_parts(tuple(" ".join(name) for name in known))
    free = [bool(p) and p not in REQUEST_WORDS and not p.isdigit() for p in plain]
    for name in sorted(known, key=len, reverse=True):       # words already a name are taken
        for start in range(len(plain) - len(name) + 1):
            if plain[start:start + len(name)] == name:
                free[start:start + len(name)] = [False] * len(name)
    owner: list[str | None] = [None] * len(plain)          # words already a name's part: that name's, or no name's
    for part in sorted(parts, key=lambda p: len(p.split()), reverse=True):
        size = len(part.split())
        for start in range(len(plain) - size + 1):
            if " ".join(plain[start:start + size]) == part and all(free[start:start + size]):
                owner[start:start + size] = [parts[part]] * size
    candidates = []                      # (score, start, end, name, how many of its first words were heard as said)
    for start in range(len(plain)):
        for end in range(start + 1, min(start + LONGEST_SPAN, len(plain)) + 1):
            if not all(free[start:end]):
                break
            owners = {o for o in owner[start:end] if o}
            said = [name.split() for name in owners] if owners else [*known, *(part.split() for part in parts)]
            scored = sorted(((_score(plain[start:end], name, " ".join(name) in parts), " ".join(name))
                             for name in said if " ".join(name) not in parts or len(name) == end - start),
                            reverse=True) or [(0.0, "")]
            best = scored[0]
            whole = parts.get(best[1], best[1])
            runner_up = next((s for s in scored[1:] if parts.get(s[1], s[1]) != whole), (0.0, ""))
            if best[0] >= (CLOSE if end - start > 1 else ONE_WORD_CLOSE) and best[0] - runner_up[0] >= CLEAR_MARGIN:
                candidates.append((best[0], start, end, best[1], 0))
    candidates += _names_begun(plain, free, known)
    chosen: list[tuple[float, int, int, str, int]] = []
    for candidate in sorted(candidates, key=lambda c: (c[3] not in parts, c), reverse=True):   # parts fill gaps
        if all(candidate[2] <= c[1] or candidate[1] >= c[2] for c in chosen):
            chosen.append(candidate)
    guessed, spelled = {}, {}
    for score, start, end, name, lead in sorted(chosen, key=lambda c: c[1], reverse=True):
        spelt = _spelling(plain[start + lead:end], name.split()[lead:])
        heard = " ".join(plain[start:end])
        (spelled if spelt else guessed)[name] = heard
        if not spelt and name in parts:
            guessed[parts[name]] = heard
        tail = re.sub(r"^.*?([^A-Za-z0-9']*)$", r"\1", tokens[end - 1])      # keep the last word's punctuation
        tokens[start:end] = [name + tail]
    return Hearing(" ".join(tokens), guessed, spelled)


@lru_cache(maxsize=_HOMES_KEPT)
def _own_parts(names: tuple[str, ...]) -> dict[str, str]:
    """{part: whole name}: the runs of two or more of a name's words, short of the whole, that stand in no other
    name and hold a word no request and no default home's name is made of: what a name is said by ("score lamp"
    for the billiard score lamp), matched only by as many heard words. One word is no part: with no list of
    English words, "boat" would be heard as the boot room's "boot", "warm" as the seedling warmer's "warmer"."""
    owners: dict[str, set[str]] = {}
    for name in names:
        words = name.split()
        for length in range(2, len(words) + 1):
            for start in range(len(words) - length + 1):
                owners.setdefault(" ".join(words[start:start + length]), set()).add(name)
    common = name_words() | REQUEST_WORDS
    return {run: next(iter(of)) for run, of in owners.items()
            if len(of) == 1 and run not in of and any(word not in common for word in run.split())}


def _names_begun(plain: list[str], free: list[bool], known: list[list[str]]) -> list[tuple[float, int, int, str, int]]:
    """Candidates for a longer name whose first words were heard as they are, often as a name of their own,
    and whose other words sound like the words after them ("the nursery radar" for the nursery radiator,
    where "nursery" alone is the room): scored, and judged spelt or guessed, on those other words alone, as a
    run of words, so the words heard as said count for nothing but where the name starts."""
    found = []
    for start in range(len(plain)):
        for lead in range(1, LONGEST_SPAN):
            begun = [name for name in known if len(name) > lead and name[:lead] == plain[start:start + lead]]
            rest = start + lead
            for end in range(rest + 1, min(rest + LONGEST_SPAN, len(plain)) + 1):
                if not begun or not all(free[rest:end]):
                    break
                scored = sorted(((_score(plain[rest:end], name[lead:]), " ".join(name)) for name in begun),
                                reverse=True)
                best, runner_up = scored[0], scored[1] if len(scored) > 1 else (0.0, "")
                if best[0] >= CLOSE and best[0] - runner_up[0] >= CLEAR_MARGIN:
                    found.append((best[0], start, end, best[1], lead))
    return found


def named_words(hearing: Hearing, names: tuple[str, ...]) -> int:
    """Words of the hearing that are the home's names, as heard or as spelt (not as guessed)."""
    plain = [_plain(t) for t in hearing.text.split()]
    taken = [False] * len(plain)
    for name in sorted((n.lower().split() for n in names if n not in hearing.guessed), key=len, reverse=True):
        for start in range(len(plain) - len(name) + 1):
            if plain[start:start + len(name)] == name and not any(taken[start:start + len(name)]):
                taken[start:start + len(name)] = [True] * len(name)
    return sum(taken)


def best_hypothesis(hypotheses: list[tuple[str, float]], names: tuple[str, ...]) -> str:
    """Of the recogniser's hypotheses (text, mean log-probability per token; best first), the one most made
    of the home's names (as heard or as spelt, not guessed; then the fewest guesses; then the fewest words in no
    phrasing, voice.heard_words, of those with no fewer words than the best and the same words of the home's
    names: a word dropped or heard as a name's may be an unknown name's), among those within RESCORE_MARGIN of
    the best; "" for none."""
    if not hypotheses:
        return ""
    close = [text for text, score in hypotheses if score >= hypotheses[0][1] - RESCORE_MARGIN]
    heard = [hear_names(text, names) for text in close]
    words = frozenset(w for name in names for w in name.lower().split())
    def frame(text: str) -> tuple[int, list[str]]:
        plain = [_plain(t) for t in text.split()]
        return len(plain), [w for w in plain if w in words]
    first = frame(close[0])
    ranks = [(named_words(h, names), -len(h.guessed), -words_in_no_phrasing(text, words)
              if frame(text)[0] >= first[0] and frame(text)[1] == first[1] else -math.inf)
             for h, text in zip(heard, close)]
    return close[ranks.index(max(ranks))]


def names_to_check(transcript: str, names: tuple[str, ...]) -> list[tuple[str, str, str]]:
    """Where the transcript names none of the home's names, or only guesses one: the transcript with one of the
    names put in for a run of words (up to LONGEST_SPAN) that no request uses and that sounds somewhat like it
    (SOUNDS_CHECKED), the CHECKED_NAMES most alike, as (text, name, the words heard in its place). The recogniser
    asks the audio which of these, or the transcript as heard, was said (voice.stt, WhisperSTT.hear): Metaphone
    alone cannot tell "bunker" from "punkah" said, nor from "bunker" said."""
    if not names:
        return []
    hearing = hear_names(transcript, names)
    if named_words(hearing, names) and not hearing.guessed:
        return []
    tokens = transcript.split()
    plain = [_plain(t) for t in tokens]
    known = [n.split() for n in dict.fromkeys(n.lower() for n in names) if n.split()]
    free = [bool(p) and p not in REQUEST_WORDS and not p.isdigit() for p in plain]
    for name in known:
        for start in range(len(plain) - len(name) + 1):
            if plain[start:start + len(name)] == name:
                free[start:start + len(name)] = [False] * len(name)
    alike = []
    for start in range(len(plain)):
        for end in range(start + 1, min(start + LONGEST_SPAN, len(plain)) + 1):
            if not all(free[start:end]):
                break
            for name in known:
                # words of the name heard as said next to the run ("billard room" for the billiard room) are
                # taken with it, and the run is compared with the rest of the name
                lead = next((k for k in range(len(name) - 1, 0, -1) if plain[max(0, start - k):start] == name[:k]), 0)
                trail = next((k for k in range(len(name) - 1 - lead, 0, -1) if plain[end:end + k] == name[-k:]), 0)
                score = _sounds(plain[start:end], name[lead:len(name) - trail])
                if score >= SOUNDS_CHECKED:
                    alike.append((score, start - lead, end + trail, " ".join(name)))
    checked, seen = [], set()
    for score, start, end, name in sorted(alike, reverse=True):
        if name in seen:
            continue
        seen.add(name)
        tail = re.sub(r"^.*?([^A-Za-z0-9']*)$", r"\1", tokens[end - 1])
        checked.append((" ".join([*tokens[:start], name + tail, *tokens[end:]]), name, " ".join(plain[start:end])))
        if len(checked) == CHECKED_NAMES:
            break
    return checked
