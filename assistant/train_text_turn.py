"""Train the text end-of-turn judge (voice/text_turn.py) on the corpus: about a minute on one idle core.

Finished: every user request the corpus writes. Unfinished: each of those cut after 1 .. n-1 words, unless the
cut is itself a request the corpus writes ("turn on the light" of "turn on the light in the kitchen"). And what
the recogniser writes at a pause (bench/turn_heard.jsonl, written by bench/turn_heard.py): corpus requests spoken in
the synthetic voices, transcribed at each pause as the server does, finished at the last word's end and cut
before it; Whisper completes a cut sentence or writes a finished one its own way, which the typed cuts do not
show. Both classes weigh the same; within each, the heard transcripts weigh HEARD_SHARE (the corpus gives about
a hundred times as many rows). One request in five of the heard ones is kept out to check on. Full-batch
logistic regression with Adam and an L2 penalty, in numpy; the result is checked on a corpus of another seed and
written as float16 weights.

    PYTHONPATH=$PWD nice python -m assistant.train_text_turn
"""
from __future__ import annotations

import argparse
import json
import sys
import time
import zlib
from pathlib import Path

import numpy as np

from assistant.corpus import generate_corpus
from voice.text_turn import BUCKETS, WEIGHTS_PATH, buckets, words

HEARD_PATH = Path(__file__).resolve().parent.parent / "bench" / "turn_heard.jsonl"   # bench/turn_heard.py writes it
HEARD_SHARE = 0.3       # the heard transcripts' share of each class's weight


def requests(examples: int, seed: int) -> set[tuple[str, ...]]:
    found = set()
    for example in generate_corpus(examples, seed):
        for message in example.history:
            if message["role"] == "user" and (tokens := tuple(words(message["content"]))):
                found.add(tokens)
    return found


def heard(path: Path, check: bool) -> list[tuple[tuple[str, ...], float]]:
    """(words, 1 finished / 0 cut) of each heard transcript of more than two words; `check`: the rows of one
    request in five (by its crc32), kept out of training, else the others. One or two words may be a whole answer
    (the judge reads Whisper's doubt and the beam only beyond two words, too), and heard at a pause after a
    request's first word ("Okay.", "What?") they taught "Yes." and "Thanks." to read cut (dev: late 0.6 -> 7.5 %)."""
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [(tokens, float(row["finished"])) for row in rows
            if (zlib.crc32(row["request"].encode()) % 5 == 0) == check and len(tokens := tuple(words(row["text"]))) > 2]


def labelled(finished: set[tuple[str, ...]], spoken: list[tuple[tuple[str, ...], float]] = (),
             share: float = 0.0) -> tuple[list[tuple[str, ...]], np.ndarray, np.ndarray]:
    """The texts, their labels (1: finished) and weights: both classes weigh the same, and within each the heard
    transcripts weigh `share`. A transcript heard at a pause inside that is itself a request the corpus writes is
    no cut, as a typed cut is not ("Stop." at a pause after "stop" in "stop the timer")."""
    cuts = {tokens[:n] for tokens in finished for n in range(1, len(tokens))} - finished
    spoken = [(tokens, label) for tokens, label in spoken if label or tokens not in finished]
    texts = sorted(finished) + sorted(cuts) + [tokens for tokens, _ in spoken]
    y = np.array([1.0] * len(finished) + [0.0] * len(cuts) + [label for _, label in spoken], dtype=np.float32)
    is_heard = np.arange(len(texts)) >= len(finished) + len(cuts)
    weight = np.zeros(len(texts))
    for label in (1.0, 0.0):
        for mine, part in ((True, share), (False, 1.0 - share)):
            rows = (y == label) & (is_heard == mine)
            if rows.any():
                weight[rows] = 0.5 * part / rows.sum()
    return texts, y, weight / weight.sum()


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
    parser.add_argument("--heard", default=str(HEARD_PATH), help="transcripts at pauses (bench/turn_heard.py)")
    parser.add_argument("--share", type=float, default=HEARD_SHARE,
                        help="the heard transcripts' share of each class's weight")
    parser.add_argument("--out", default=str(WEIGHTS_PATH))
    args = parser.parse_args(argv)
    print(f"corpus: {args.examples} examples (seed 0), check on {args.examples // 5} (seed 1)...", flush=True)
    spoken, spoken_check = heard(Path(args.heard), False), heard(Path(args.heard), True)
    texts, y, weight = labelled(requests(args.examples, 0), spoken, args.share)
    check_texts, check_y, _ = labelled(requests(args.examples // 5, 1))
    print(f"  {int(y.sum())} finished, {int((1 - y).sum())} cut, of them heard {len(spoken)} (share "
          f"{args.share:.0%}); check: {int(check_y.sum())} / {int((1 - check_y).sum())}, heard {len(spoken_check)}",
          flush=True)
    x, check_x = matrix(texts), matrix(check_texts)
    w = train(x, y, weight, args.steps, args.l2)
    kept, cut = accuracy(w, check_x, check_y)
    print(f"check corpus: finished judged finished {kept:.1%}, cut judged unfinished {cut:.1%}")
    heard_kept, heard_cut = accuracy(w, matrix([t for t, _ in spoken_check]),
                                     np.array([label for _, label in spoken_check]))
    print(f"check heard: finished judged finished {heard_kept:.1%}, cut judged unfinished {heard_cut:.1%}")
    np.save(args.out, w.astype(np.float16))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
