"""Train the text end-of-turn judge (voice/text_turn.py) on the corpus: about a minute on one idle core.

Finished: every user request the corpus writes. Unfinished: each of those cut after 1 .. n-1 words, unless the
cut is itself a request the corpus writes ("turn on the light" of "turn on the light in the kitchen"). Both
classes weigh the same. Full-batch logistic regression with Adam and an L2 penalty, in numpy; the result is
checked on a corpus of another seed and written as float16 weights.

    PYTHONPATH=$PWD nice python -m assistant.train_text_turn
"""
from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from assistant.corpus import generate_corpus
from voice.text_turn import BUCKETS, WEIGHTS_PATH, buckets, words


def requests(examples: int, seed: int) -> set[tuple[str, ...]]:
    found = set()
    for example in generate_corpus(examples, seed):
        for message in example.history:
            if message["role"] == "user" and (tokens := tuple(words(message["content"]))):
                found.add(tokens)
    return found


def labelled(finished: set[tuple[str, ...]]) -> tuple[list[tuple[str, ...]], np.ndarray]:
    cuts = {tokens[:n] for tokens in finished for n in range(1, len(tokens))} - finished
    texts = sorted(finished) + sorted(cuts)
    return texts, np.array([1.0] * len(finished) + [0.0] * len(cuts), dtype=np.float32)


def matrix(texts: list[tuple[str, ...]]) -> np.ndarray:
    """[texts, most features] bucket indices, padded with BUCKETS (a slot that stays zero)."""
    rows = [buckets(list(t)) for t in texts]
    out = np.full((len(rows), max(map(len, rows))), BUCKETS, dtype=np.int64)
    for i, row in enumerate(rows):
        out[i, :len(row)] = row
    return out


def train(x: np.ndarray, y: np.ndarray, steps: int, l2: float, rate: float = 0.05) -> np.ndarray:
    weight = np.where(y > 0, 0.5 / y.sum(), 0.5 / (1 - y).sum()).astype(np.float64)   # classes weigh the same
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
    parser.add_argument("--out", default=str(WEIGHTS_PATH))
    args = parser.parse_args(argv)
    print(f"corpus: {args.examples} examples (seed 0), check on {args.examples // 5} (seed 1)...", flush=True)
    texts, y = labelled(requests(args.examples, 0))
    check_texts, check_y = labelled(requests(args.examples // 5, 1))
    print(f"  {int(y.sum())} finished, {int((1 - y).sum())} cut; check: {int(check_y.sum())} / "
          f"{int((1 - check_y).sum())}", flush=True)
    x, check_x = matrix(texts), matrix(check_texts)
    w = train(x, y, args.steps, args.l2)
    kept, cut = accuracy(w, check_x, check_y)
    print(f"check corpus: finished judged finished {kept:.1%}, cut judged unfinished {cut:.1%}")
    np.save(args.out, w.astype(np.float16))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
