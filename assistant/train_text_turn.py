"""Train the text end-of-turn judge (voice/text_turn.py) on the corpus: about a minute on one idle core.

Finished: every user request the corpus writes, and finished sentences of other kinds (endings()), so that a
sentence is not read as cut for ending as no request does ("See you in the morning."): each sentence of the
assistant's replies, Home Assistant's plain English responses, and the short answers of assistant.vocabulary.
Unfinished: each of those cut after 1 .. n-1 words, unless the cut is itself a finished sentence ("turn on the
light" of "turn on the light in the kitchen"). Both classes weigh the same, and within each the endings and
their cuts weigh ENDINGS_SHARE. Full-batch logistic regression with Adam and an L2 penalty, in numpy; the
result is checked on a corpus of another seed and written as float16 weights.

    PYTHONPATH=$PWD nice python -m assistant.train_text_turn
"""
from __future__ import annotations

import argparse
import re
import sys
import time

import numpy as np
from home_assistant_intents import get_intents

from assistant.corpus import generate_corpus
from assistant.reply import EVERY_REPLY
from assistant.vocabulary import AGREEING, NO, YES
from voice.text_turn import BUCKETS, WEIGHTS_PATH, buckets, words

ENDINGS_SHARE = 0.1                 # of each class's weight: the endings are ~1% of the sentences
_SENTENCE_BREAK = re.compile(r"(?<=[.?!])\s+(?=[A-Z])")    # not inside "I.O. slash"


def requests(examples: int, seed: int) -> set[tuple[str, ...]]:
    found = set()
    for example in generate_corpus(examples, seed):
        for message in example.history:
            if message["role"] == "user" and (tokens := tuple(words(message["content"]))):
                found.add(tokens)
    return found


def sentences(text: str) -> list[tuple[str, ...]]:
    """Each sentence of a text as words; none from a text with a slot or template markup in it."""
    return [] if "{" in text else [tuple(words(part)) for part in _SENTENCE_BREAK.split(text) if words(part)]


def template_responses() -> set[tuple[str, ...]]:
    """Home Assistant's English responses and error messages that are plain sentences."""
    responses = get_intents("en")["responses"]
    texts = [text for kinds in responses["intents"].values() for text in kinds.values()]
    texts += list(responses["errors"].values())
    return {tokens for text in texts for tokens in sentences(text)}


def endings() -> set[tuple[str, ...]]:
    """Finished sentences of other kinds than the corpus's requests (see the module's docstring)."""
    replies = {tokens for reply in EVERY_REPLY for tokens in sentences(reply)}
    answers = {tuple(words(answer)) for answer in (*YES, *NO, *AGREEING)}
    return replies | answers | template_responses()


def labelled(finished: set[tuple[str, ...]]) -> tuple[list[tuple[str, ...]], np.ndarray]:
    cuts = {tokens[:n] for tokens in finished for n in range(1, len(tokens))} - finished
    texts = sorted(finished) + sorted(cuts)
    return texts, np.array([1.0] * len(finished) + [0.0] * len(cuts), dtype=np.float32)


def weighed(texts: list[tuple[str, ...]], y: np.ndarray, requested: set[tuple[str, ...]],
            endings_share: float) -> np.ndarray:
    """Each text's weight: the classes weigh the same, and within each the texts that are no request nor a
    request's cut (the endings and their cuts) endings_share of it, as the corpus writes ~50 times as many."""
    of_requests = {tokens[:n] for tokens in requested for n in range(1, len(tokens) + 1)}
    ending = np.array([t not in of_requests for t in texts])
    weight = np.zeros(len(texts))
    for label in (0.0, 1.0):
        for group, share in ((ending, endings_share), (~ending, 1.0 - endings_share)):
            rows = group & (y == label)
            weight[rows] = 0.5 * share / max(rows.sum(), 1)
    return weight


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
    parser.add_argument("--endings-share", type=float, default=ENDINGS_SHARE,
                        help="the share of each class's weight the endings (no request) carry")
    parser.add_argument("--out", default=str(WEIGHTS_PATH))
    args = parser.parse_args(argv)
    print(f"corpus: {args.examples} examples (seed 0), check on {args.examples // 5} (seed 1)...", flush=True)
    requested = requests(args.examples, 0)
    texts, y = labelled(requested | endings())
    check_texts, check_y = labelled(requests(args.examples // 5, 1) | endings())
    print(f"  {int(y.sum())} finished, {int((1 - y).sum())} cut; check: {int(check_y.sum())} / "
          f"{int((1 - check_y).sum())}", flush=True)
    x, check_x = matrix(texts), matrix(check_texts)
    w = train(x, y, weighed(texts, y, requested, args.endings_share), args.steps, args.l2)
    kept, cut = accuracy(w, check_x, check_y)
    print(f"check corpus: finished judged finished {kept:.1%}, cut judged unfinished {cut:.1%}")
    np.save(args.out, w.astype(np.float16))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
