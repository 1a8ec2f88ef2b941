"""Writes voice/data/phrasing_pairs.txt: the pairs of neighbouring words the training corpus's requests are made of.

voice.heard_words puts a heard word that is in no phrasing back as a phrasing word that sounds the same where that
word stands beside its neighbours as the phrasings have it ("door bin shut" -> "door been shut"), so the pairs are
the skills' phrasings as the corpus writes them (assistant.corpus, seeded). Each name of the example's own home,
and every word of the default home's names, is NAME (a snap never makes a name), every number NUMBER; pairs seen
fewer than MIN_SEEN times (the corpus's misheard names) are left out.

    PYTHONPATH=$PWD nice -n 5 .venv/bin/python bench/phrasing_words.py
"""
from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant import corpus  # noqa: E402
from voice.heard_words import NAME, PAIRS, name_words, word_class  # noqa: E402

EXAMPLES = 30000
MIN_SEEN = 3


def _classes(words: list[str], names: list[list[str]]) -> list[str]:
    """The words with each run that is one of the example's own names, or a word of the default home's, as NAME
    (one NAME for a run of them), and each number as NUMBER."""
    out, i = [], 0
    while i < len(words):
        name = next((n for n in names if words[i:i + len(n)] == n), None)
        said = NAME if name else word_class(words[i], name_words())
        if not (said == NAME and out and out[-1] == NAME):
            out.append(said)
        i += len(name) if name else 1
    return out


def phrasing_pairs() -> list[str]:
    seen = Counter()
    for example in corpus.generate_corpus(EXAMPLES, seed=0):
        names = sorted((n.lower().split() for group in example.lexicon or () for n in group), key=len, reverse=True)
        for message in example.history:
            if message["role"] != "user":
                continue
            for clause in re.split(r"[.,!?;]", message["content"].lower()):
                words = _classes(re.findall(r"[a-z0-9][a-z0-9']*", clause), names)
                seen.update(zip(words, words[1:]))
    return sorted(f"{a} {b}" for (a, b), count in seen.items() if count >= MIN_SEEN)


def main() -> int:
    pairs = phrasing_pairs()
    PAIRS.write_text("\n".join(pairs) + "\n")
    print(f"{len(pairs)} pairs -> {PAIRS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
