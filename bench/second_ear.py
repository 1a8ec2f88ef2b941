"""A second ear that knows only the home: PocketSphinx decoding with a grammar of the home's requests.

Whisper writes names it does not know as words it does ("drinks cabinet" -> "drink, scabbard"). A grammar
ear can only hear the home's own names, so where Whisper heard no name of the home, or only guessed one, the
grammar's name is taken for a run of Whisper's words that sounds like it and follows the same word
(second_opinion). Compared in bench/spoken_requests.py --grammar; not kept, so it lives here rather than in voice/ (docs/speech.md).

The grammar's words come from the caller's rules (home_phrasings: the corpus's requests for the home) and the
home's names and areas. Pronunciations come from PocketSphinx's CMUdict; a word it lacks ("samovar", "punkah")
is spoken by espeak-ng as phonemes (`-x`), mapped to the acoustic model's ARPAbet by espeak_arpabet.tsv.
"""
from __future__ import annotations

import random
import re
import subprocess
import tempfile
from collections.abc import Callable
from functools import cache
from pathlib import Path

import numpy as np

from assistant.corpus import ASK, HOME_GENERATORS, LEAD, ONES, TAIL, TENS, WAKE, Home
from assistant.inventory import Entity, Inventory
from voice.heard_names import LONGEST_SPAN, REQUEST_WORDS, Hearing, _plain, _sounds, named_words

DATA = Path(__file__).parent
NAME_LIKE = 0.6       # the least sound likeness (heard_names._sounds) of Whisper's words to the grammar's name
BEAMS = {"beam": 1e-20, "pbeam": 1e-20, "wbeam": 1e-15, "maxhmmpf": 3000}   # PocketSphinx's search, narrowed


@cache
def _espeak_phones() -> dict[str, list[str]]:
    table = {}
    for line in (DATA / "espeak_arpabet.tsv").read_text().splitlines():
        if line and not line.startswith("#"):
            mnemonic, _, phones = line.partition("\t")
            table[mnemonic] = phones.split()
    return table


@cache
def _cmudict() -> dict[str, str]:
    from pocketsphinx import get_model_path
    words = {}
    for line in (Path(get_model_path()) / "en-us" / "cmudict-en-us.dict").read_text().splitlines():
        word, _, phones = line.partition(" ")
        words.setdefault(word, phones)          # the first pronunciation; "read(2)" is another
    return words


def espeak_pronunciation(words: list[str]) -> list[str]:
    """Each word's ARPAbet phones (space-separated) from espeak-ng's en-us phonemes, one process for all."""
    spoken = subprocess.run(["espeak-ng", "-q", "-v", "en-us", "-x", "--sep=_"], input="\n".join(words),
                            capture_output=True, text=True, check=True, timeout=30).stdout.splitlines()
    if len(spoken) != len(words):
        raise RuntimeError(f"espeak-ng spoke {len(spoken)} lines for {len(words)} words")
    table = _espeak_phones()
    phones = []
    for line in spoken:
        arpabet = []
        for mnemonic in re.split(r"[_ ]+", re.sub(r"[',%=]", "", line.strip())):
            if mnemonic and mnemonic not in table:
                raise ValueError(f"espeak-ng phoneme {mnemonic!r} has no ARPAbet in espeak_arpabet.tsv")
            arpabet += table.get(mnemonic, [])
        phones.append(" ".join(arpabet))
    return phones


def dictionary(words: set[str]) -> dict[str, str]:
    """word -> ARPAbet phones: CMUdict's where it has the word, espeak-ng's where it does not."""
    known = _cmudict()
    missing = sorted(w for w in words if w not in known)
    derived = dict(zip(missing, espeak_pronunciation(missing))) if missing else {}
    return {w: known.get(w) or derived[w] for w in sorted(words)}


def jsgf(rules: dict[str, list[str]], names: tuple[str, ...], areas: tuple[str, ...]) -> str:
    """A JSGF grammar: any run of the rules' words and the areas, one of the names, any run again; or a run
    with no name. The requests' own order would be a tighter grammar, but PocketSphinx copies a rule wherever
    it is named: the corpus's requests for a home made a search of 1-4 s per request, this loop about 0.15 s."""
    lines = ["#JSGF V1.0;", "grammar home;", "public <said> = ( <word>* <name> <word>* ) | <word>+;",
             f"<word> = {' | '.join(sorted(grammar_words(rules, (), areas)))};",
             f"<name> = {' | '.join(f'( {n} )' for n in names) or '<VOID>'};"]
    return "\n".join(lines) + "\n"


def grammar_words(rules: dict[str, list[str]], names: tuple[str, ...], areas: tuple[str, ...]) -> set[str]:
    every = " ".join(a for alternatives in rules.values() for a in alternatives) + " " + " ".join(names + areas)
    return {w for w in every.split() if re.fullmatch(r"[a-z][a-z']*", w)}


class GrammarEar:
    """PocketSphinx with one home's grammar: 16 kHz audio in, the grammar's words out."""

    def __init__(self, rules: dict[str, list[str]], names: tuple[str, ...], areas: tuple[str, ...]):
        from pocketsphinx import Config, Decoder
        with tempfile.TemporaryDirectory() as folder:
            words, grammar = Path(folder) / "home.dict", Path(folder) / "home.gram"
            words.write_text("".join(f"{w} {p}\n" for w, p in dictionary(grammar_words(rules, names, areas)).items()))
            grammar.write_text(jsgf(rules, names, areas))
            config = Config(dict=str(words), jsgf=str(grammar), lm=None, bestpath=False, loglevel="FATAL", **BEAMS)
            self.decoder = Decoder(config)

    def hear(self, audio: np.ndarray) -> str:
        """The grammar's words for float audio at 16 kHz; "" for none."""
        pcm = np.clip(np.rint(audio * 32767), -32768, 32767).astype(np.int16).tobytes()
        self.decoder.start_utt()
        self.decoder.process_raw(pcm, full_utt=True)
        self.decoder.end_utt()
        hypothesis = self.decoder.hyp()
        return hypothesis.hypstr if hypothesis is not None else ""


def second_opinion(heard: str, hearing: Hearing, grammar_heard: str, names: tuple[str, ...],
                   normalise: Callable[[str], str]) -> Hearing:
    """Whisper's hearing, or Whisper's words with the grammar ear's name put in for a run of them, where
    Whisper heard none of the home's names (or only guessed one), both ears have the same word before the
    name, and the run sounds like it. Whisper's other words stay, so the skill and the numbers are Whisper's.
    Words of the home's names or areas, and request words, are never replaced: "the chapel blinds" or "the den
    lights" never become the blinds or the dock lights.

    heard: Whisper's transcript; hearing: heard with the home's names heard in (heard_names.hear_names);
    normalise: how both transcripts are compared (lower case, no punctuation, numbers alike)."""
    if not grammar_heard or (named_words(hearing, names) and not hearing.guessed):
        return hearing
    whisper, grammar = normalise(heard).split(), normalise(grammar_heard).split()
    home_words = {w for n in names for w in n.lower().split()}
    best = (NAME_LIKE, None)
    for name in {n.lower() for n in names}:
        name_words = name.split()
        for start in range(1, len(grammar) - len(name_words) + 1):
            if grammar[start:start + len(name_words)] != name_words:
                continue
            for anchor in (i for i, w in enumerate(whisper) if w == grammar[start - 1]):
                for end in range(anchor + 2, min(anchor + 2 + LONGEST_SPAN, len(whisper) + 1)):
                    run = whisper[anchor + 1:end]
                    if home_words & set(run) or any(w in REQUEST_WORDS or w.isdigit() for w in run):
                        break
                    likeness = _sounds([_plain(w) for w in run], name_words)
                    if likeness >= best[0]:
                        best = (likeness, " ".join(whisper[:anchor + 1] + name_words + whisper[end:]))
    return Hearing(best[1]) if best[1] else hearing


NAME_SLOT, AREA_SLOT, NUMBER_SLOT = "<name>", "<area>", "<number>"


def home_phrasings(entities: list[Entity], samples: int = 300) -> dict[str, list[str]]:
    """The requests the corpus makes for a home of these entities, as a grammar's rules: "request" holds each
    request's words with the name, the area and numbers as slots ("turn <name> down to <number> percent"),
    "wake", "lead", "ask" and "tail" the fillers people put around them, "number" the numbers up to a hundred
    in words (from "ones" and "tens"). Read from the home generators (samples each, seeded), so a recogniser's grammar says what the
    model was taught to understand."""
    home = Home(entities, Inventory(entities).lexicon())
    names = {e.name for e in entities}
    rng, requests = random.Random(22), set()
    for generate, needs, _ in HOME_GENERATORS.values():
        if needs is not None and not home.of(*needs):
            continue
        for _ in range(samples):
            core, _, name, area = generate(rng, home)
            words = core.replace("%", " percent").split()
            for value, slot in ((name, NAME_SLOT), (area, AREA_SLOT)):
                if value and (slot == AREA_SLOT or value in names):
                    words = _slotted_words(words, value.split(), slot)
            requests.add(" ".join(_numbers_slotted(words)))
    return {"request": sorted(requests), "wake": WAKE, "lead": LEAD, "ask": ASK, "tail": TAIL,
            "number": ["<ones>", "<tens> [ <ones> ]", "[ a | one ] hundred"], "ones": ONES, "tens": TENS[2:]}


def _slotted_words(words: list[str], value: list[str], slot: str) -> list[str]:
    for start in range(len(words) - len(value), -1, -1):
        if words[start:start + len(value)] == value:
            words = words[:start] + [slot] + words[start + len(value):]
    return words


def _numbers_slotted(words: list[str]) -> list[str]:
    numbers = set(ONES) | set(TENS[2:]) | {"hundred"}
    out = []
    for word in words:
        if word.isdigit() or word in numbers:
            if not out or out[-1] != NUMBER_SLOT:
                out.append(NUMBER_SLOT)
        else:
            out.append(word)
    return out
