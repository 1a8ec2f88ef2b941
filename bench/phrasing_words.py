"""Writes voice/data/phrasing_words.txt: the words the training corpus's requests are made of, no name among them.

voice.heard_words counts the words of a beam hypothesis that are in no phrasing, so the list is the skills'
phrasings as the corpus writes them (assistant.corpus, seeded): the words of each pair of neighbours seen at least
MIN_SEEN times (not the corpus's misheard names), each name of the example's own home and every word of the
default home's names as NAME and every number as NUMBER, which the list leaves out.

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
from voice.heard_words import NAME, NUMBER, PHRASING_WORDS, name_words, word_class  # noqa: E402

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


def phrasing_words() -> list[str]:
    seen = Counter()
    for example in corpus.generate_corpus(EXAMPLES, seed=0):
        names = sorted((n.lower().split() for group in example.lexicon or () for n in group), key=len, reverse=True)
        for message in example.history:
            if message["role"] != "user":
                continue
            for clause in re.split(r"[.,!?;]", message["content"].lower()):
                words = _classes(re.findall(r"[a-z0-9][a-z0-9']*", clause), names)
                seen.update(zip(words, words[1:]))
    return sorted({word for pair, count in seen.items() if count >= MIN_SEEN for word in pair} - {NAME, NUMBER})


def main() -> int:
    words = phrasing_words()
    PHRASING_WORDS.write_text("\n".join(words) + "\n")
    print(f"{len(words)} words -> {PHRASING_WORDS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
