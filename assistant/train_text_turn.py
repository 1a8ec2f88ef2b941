"""Train the text end-of-turn judge (voice/text_turn.py) on the corpus and everyday utterances: a few minutes.

Finished: every user request the corpus writes, and the everyday utterances of voice/data/turn_sentences.txt
(chit-chat, answers, thanks, goodbyes, questions on any topic, requests outside the home), drawn from their
templates. Unfinished: each of those cut after 1 .. n-1 words, unless the cut is itself a finished sentence of
either source ("turn on the light" of "turn on the light in the kitchen", "see you" of "see you tomorrow"). Both
classes weigh the same; within each, the everyday sentences weigh EVERYDAY_SHARE, as the corpus writes about
fifty times as many (without the share the judge reads their endings as it reads the corpus's). Full-batch
logistic regression with Adam and an L2 penalty, in numpy; the result is checked on a corpus and a draw of
another seed and written as float16 weights.

    PYTHONPATH=$PWD nice python -m assistant.train_text_turn
"""
from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from pathlib import Path

import numpy as np

from assistant.corpus import generate_corpus
from voice.text_turn import BUCKETS, WEIGHTS_PATH, buckets, words

SENTENCES_PATH = Path(WEIGHTS_PATH).parent / "turn_sentences.txt"
DRAWS = 12              # draws of a sentence with two slots or more: its endings, not its combinations
EVERYDAY_SHARE = 0.3    # the everyday sentences' share of each class's weight
_SLOT = re.compile(r"\{(\w+)\}")
ROOT = Path(__file__).resolve().parent.parent


def held_apart() -> set[tuple[str, ...]]:
    """The sentences that measure the judge, kept out of the everyday sentences and of every cut: the turn-taking
    sets' (bench/turn_taking.py, held-out ones included) and the words judge's dev halves (tests/data)."""
    sys.path.insert(0, str(ROOT / "bench"))             # bench/turn_taking.py's own imports
    from bench.turn_taking import SENTENCES
    texts = [text for complete, paused in SENTENCES.values() for text in [*complete, *(t for t, _ in paused)]]
    for half in ("a", "b"):
        rows = (ROOT / "tests" / "data" / f"turn_words_dev_{half}.jsonl").read_text().splitlines()
        texts += [json.loads(row)["text"] for row in rows]
    return {tuple(words(text)) for text in texts}


def requests(examples: int, seed: int) -> set[tuple[str, ...]]:
    found = set()
    for example in generate_corpus(examples, seed):
        for message in example.history:
            if message["role"] == "user" and (tokens := tuple(words(message["content"]))):
                found.add(tokens)
    return found


def everyday(seed: int, path: Path = SENTENCES_PATH) -> set[tuple[str, ...]]:
    """The everyday utterances of turn_sentences.txt: a sentence with one slot filled with each of its "@name = a | b"
    list's values, one with more drawn DRAWS times (fewer when it has fewer fillings)."""
    rng = random.Random(seed)
    slots: dict[str, list[str]] = {}
    found = set()
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("@"):
            name, values = line[1:].split("=", 1)
            slots[name.strip()] = [value.strip() for value in values.split("|")]
            continue
        names = _SLOT.findall(line)
        if len(names) == 1:
            fillings = [_SLOT.sub(value, line) for value in slots[names[0]]]
        else:
            fillings = [line] if not names else {_SLOT.sub(lambda m: rng.choice(slots[m.group(1)]), line)
                                                 for _ in range(DRAWS)}
        found.update(tokens for text in fillings if (tokens := tuple(words(text))))
    return found


def labelled(corpus: set[tuple[str, ...]], everyday: set[tuple[str, ...]] = frozenset(),
             share: float = 0.0, held: set[tuple[str, ...]] = frozenset()) -> tuple[list[tuple[str, ...]], np.ndarray,
                                                                              np.ndarray]:
    """The texts, their labels (1: finished) and their weights: both classes weigh the same, and within each the
    everyday sentences and their cuts weigh `share`. `held`: sentences that are no everyday sentence and no cut
    (the corpus, pinned, writes some of the turn sets' requests; they stay as it writes them)."""
    everyday = everyday - held
    finished = corpus | everyday
    cuts = {tokens[:n] for tokens in finished for n in range(1, len(tokens))} - finished - held
    ours = everyday - corpus
    cuts_ours = {tokens[:n] for tokens in ours for n in range(1, len(tokens))} - finished
    texts = sorted(finished) + sorted(cuts)
    y = np.array([1.0] * len(finished) + [0.0] * len(cuts), dtype=np.float32)
    from_ours = np.array([t in ours for t in sorted(finished)] + [t in cuts_ours for t in sorted(cuts)])
    weight = np.zeros(len(texts))
    for label in (1.0, 0.0):
        for mine, part in ((True, share), (False, 1.0 - share)):
            rows = (y == label) & (from_ours == mine)
            if rows.any():
                weight[rows] = 0.5 * part / rows.sum()
    weight /= weight.sum()
    return texts, y, weight


def matrix(texts: list[tuple[str, ...]]) -> np.ndarray:
    """[texts, most features] bucket indices, padded with BUCKETS (a slot that stays zero)."""
    rows = [buckets(list(t)) for t in texts]
    out = np.full((len(rows), max(map(len, rows))), BUCKETS, dtype=np.int64)
    for i, row in enumerate(rows):
        out[i, :len(row)] = row
    return out


def train(x: np.ndarray, y: np.ndarray, weight: np.ndarray, steps: int, l2: float, rate: float = 0.05) -> np.ndarray:
    w, m, v = np.zeros(BUCKETS + 1), np.zeros(BUCKETS + 1), np.zeros(BUCKETS + 1)
    started = time.monotonic()
    for step in range(1, steps + 1):
        p = 1 / (1 + np.exp(-w[x].sum(axis=1)))
        grad = np.bincount(x.ravel(), np.repeat(weight * (p - y), x.shape[1]), minlength=BUCKETS + 1) + l2 * w
        grad[BUCKETS] = 0.0
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        w -= rate * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
        if step % 50 == 0 or step == steps:
            loss = -np.sum(weight * (y * np.log(p + 1e-9) + (1 - y) * np.log(1 - p + 1e-9)))
            print(f"  step {step}/{steps}: weighted log-loss {loss:.4f} ({time.monotonic() - started:.0f} s)",
                  flush=True)
    return w[:BUCKETS]


def accuracy(w: np.ndarray, x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """(finished judged finished, unfinished judged unfinished) at probability 0.5."""
    said = np.concatenate([w, [0.0]])[x].sum(axis=1) > 0
    return float(said[y > 0].mean()), float((~said[y == 0]).mean())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--examples", type=int, default=80000, help="corpus examples to draw requests from")
    parser.add_argument("--steps", type=int, default=500)
    parser.add_argument("--l2", type=float, default=1e-6)
    parser.add_argument("--share", type=float, default=EVERYDAY_SHARE,
                        help="the everyday sentences' share of each class's weight")
    parser.add_argument("--out", default=str(WEIGHTS_PATH))
    args = parser.parse_args(argv)
    print(f"corpus: {args.examples} examples (seed 0), check on {args.examples // 5} (seed 1)...", flush=True)
    held = held_apart()
    texts, y, weight = labelled(requests(args.examples, 0), everyday(0), args.share, held)
    print(f"  {int(y.sum())} finished, {int((1 - y).sum())} cut, the everyday sentences' share {args.share:.0%}; "
          f"{len(held & everyday(0))} of the {len(held)} held-apart sentences drawn and left out", flush=True)
    w = train(matrix(texts), y, weight, args.steps, args.l2)
    for name, (check_texts, check_y, _) in {"corpus": labelled(requests(args.examples // 5, 1)),
                                           "everyday sentences": labelled(set(), everyday(1), 1.0, held)}.items():
        kept, cut = accuracy(w, matrix(check_texts), check_y)
        print(f"check {name} (seed 1): finished judged finished {kept:.1%}, cut judged unfinished {cut:.1%}")
    np.save(args.out, w.astype(np.float16))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
