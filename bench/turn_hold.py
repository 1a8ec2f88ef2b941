"""A turn judge that may also hold: the second look (voice/turn_judge.py) trained to lower premature turns too.

The shipped second look only releases words the text judge reads as cut, so it cannot lower premature. Here the
same regression, over the second look's features and four more read off the pause's transcript (the last
word's length, that length against the voice's rate so far, the share of the beam's other hypotheses that end
without a closing mark, whether one ends in a comma), decides among the three outcomes the turn detector has at a
pause: end after the short wait (the words' verdict stands or cut words are read finished), or hold (finished
words are read cut: the cut wait). All of it is in hand when the pause's transcript is in; Smart Turn's verdict
and Silero's probabilities over the pause are not used (the decision would wait for the sound, and the judge's
call in the transcription queue does not see Silero).

Trained on every pause of the training files' evidence (bench/turn_taking.py --replay), each sentence judged by
a model trained without it (folds by sentence, as bench/turn_judge.py). The operating point (end_above,
hold_below) is the one with the fewest late turns among those that cut at most TARGET_PREMATURE of every voice's
utterances over all training files, out of fold; when none does, the one whose worst voice is cut least. The
model trained on all of them with that point is written to --model; --test judges held-out evidence once with
it, beside the shipped judge.

    PYTHONPATH=$PWD nice -n 5 .venv/bin/python bench/turn_hold.py --train DEV.json FRESH.json ... --model M.json \\
        --figure turn_hold.png
    PYTHONPATH=$PWD nice -n 5 .venv/bin/python bench/turn_hold.py --test FRESH4.json --model M.json --eot
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from turn_judge import (by_voice, decide, eot_table, fit, heard_of, load, look_features,  # noqa: E402
                        out_of_fold, per_voice_table, rows_of, second_look, shipped)
from streaming.turns import TurnDetector  # noqa: E402
from turn_taking import LATE_MS, summarise  # noqa: E402
from voice.text_turn import TextTurnModel, words  # noqa: E402
from voice.turn_judge import FEATURES, TurnJudge  # noqa: E402

HOLD_FEATURES = FEATURES + ("last word's length", "last word's length against the rate so far",
                            "beam hypotheses left open", "a beam hypothesis ends in a comma")
END_ABOVE = (0.5, 0.6, 0.7, 0.8, 0.9, 1.01)                                       # 1.01: never release
HOLD_BELOW = (-1.0, 0.3, 0.4, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95)  # -1: never hold
TARGET_PREMATURE = 0.05


def hold_features(text_turn: TextTurnModel, pause: dict) -> list[float]:
    """One pause's evidence as numbers (HOLD_FEATURES' order)."""
    heard = heard_of(pause)
    said = words(heard.text)
    length = heard.last_word_end_s - heard.last_word_start_s if heard.last_word_start_s is not None else 0.0
    rate = heard.last_word_end_s / max(1, len(said)) if heard.last_word_end_s else 0.3   # seconds a word, so far
    others = heard.alternatives
    left_open = (sum(not other.rstrip().endswith((".", "?", "!")) for other in others) / len(others)
                 if others else 0.0)
    return look_features(text_turn, pause) + [
        min(length, 2.0), min(length / max(rate, 0.05), 4.0), left_open,
        float(any(other.rstrip().endswith(",") for other in others))]


def shipped_look(judge: TurnJudge):
    """The shipped judge: the second look with the shipped weights over the text judge's recorded verdicts."""
    def verdict(utterance, frames, pause):
        return TurnJudge.second_look(judge.probability(look_features(judge.text_turn, pause)), pause["words"], pause["going_on"], judge.end_above,
                                     judge.hold_below, TurnDetector.words_done)
    return verdict


@dataclass
class Point:
    end_above: float
    hold_below: float
    summary: dict               # summarise() over all training utterances
    voices: dict[str, dict]     # summarise() per voice over all training utterances


def curve(utterances: list[dict], scores: dict) -> list[Point]:
    """Every operating point's figures over the training utterances, out of fold."""
    points = []
    for end_above in END_ABOVE:
        for hold_below in HOLD_BELOW:
            outcomes = [decide(u, second_look(scores, end_above, hold_below)) for u in utterances]
            voices = by_voice(outcomes)
            points.append(Point(end_above, hold_below, voices.pop("all voices"), voices))
    return points


def chosen(points: list[Point]) -> Point:
    """The fewest late among points that cut at most TARGET_PREMATURE in every voice; else the worst voice cut
    least (then the fewest late)."""
    def worst(point: Point) -> float:
        return max(s["premature"] for s in point.voices.values())
    meeting = [p for p in points if worst(p) <= TARGET_PREMATURE + 1e-9]
    if meeting:
        return min(meeting, key=lambda p: (p.summary["late"], p.summary["premature"]))
    return min(points, key=lambda p: (round(worst(p), 6), p.summary["late"]))


def figure(points: list[Point], shipped_voices: dict[str, dict], choice: Point, path: Path) -> None:
    """Premature against late per voice over the hold threshold, at the chosen end_above; the shipped judge a
    cross, the chosen point a circle."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = ["all voices"] + list(choice.voices)
    fig, axes = plt.subplots(2, (len(names) + 1) // 2, figsize=(3.2 * ((len(names) + 1) // 2), 6.4), squeeze=False)
    line = sorted([p for p in points if p.end_above == choice.end_above], key=lambda p: p.hold_below)
    for ax, name in zip(axes.flat, names):
        figures = [p.summary if name == "all voices" else p.voices[name] for p in line]
        ax.plot([100 * f["premature"] for f in figures], [100 * f["late"] for f in figures], ".-", color="C0")
        mine = choice.summary if name == "all voices" else choice.voices[name]
        ax.plot(100 * mine["premature"], 100 * mine["late"], "o", mfc="none", ms=10, color="C3")
        ax.plot(100 * shipped_voices[name]["premature"], 100 * shipped_voices[name]["late"], "x", ms=9, color="black")
        ax.axvline(100 * TARGET_PREMATURE, ls=":", color="grey")
        ax.axhline(10, ls=":", color="grey")
        ax.set(title=name, xlim=(0, None), ylim=(0, None))
        ax.title.set_fontsize(9)
    for ax in axes[-1]:
        ax.set_xlabel("premature (%)")
    for ax in axes[:, 0]:
        ax.set_ylabel(f"late > {LATE_MS} ms (%)")
    for ax in list(axes.flat)[len(names):]:
        ax.axis("off")
    fig.suptitle(f"training sets, out of fold: the hold threshold swept at end ≥ {choice.end_above} "
                 f"(x: shipped, o: chosen, hold < {choice.hold_below})", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=90)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--train", nargs="+", default=[], help="turn_evidence_SET.json files to train on")
    parser.add_argument("--test", nargs="+", default=[], help="held-out evidence, judged once by --model")
    parser.add_argument("--model", required=True, help="the trained model's JSON: written by --train, read by --test")
    parser.add_argument("--eot", action="store_true", help="--test: also eot-bench's shape over the sweep (slow)")
    parser.add_argument("--figure", help="--train: a PNG of the trade-off per voice")
    args = parser.parse_args(argv)
    text_turn = TextTurnModel()
    now = shipped_look(TurnJudge(text_turn))
    report = []
    if args.train:
        files = load(args.train)
        everything = [u for us in files.values() for u in us]
        rows = rows_of(text_turn, everything, hold_features)
        scores = out_of_fold(everything, rows)
        points = curve(everything, scores)
        choice = chosen(points)
        base = by_voice([decide(u, now) for u in everything])
        voices = list(choice.voices)
        report.append("Out of fold over all training utterances: premature / late per voice, every point\n\n"
                      "| end ≥ | hold < | all voices | " + " | ".join(voices) + " |\n|---|---|---|"
                      + "---|" * len(voices) + "\n" + "\n".join(
                          f"| {p.end_above} | {p.hold_below} | {p.summary['premature']:.1%} / {p.summary['late']:.1%} | "
                          + " | ".join(f"{p.voices[v]['premature']:.1%} / {p.voices[v]['late']:.1%}" for v in voices)
                          + " |" for p in points))
        report.append(f"chosen: end ≥ {choice.end_above}, hold < {choice.hold_below}")
        look = second_look(scores, choice.end_above, choice.hold_below)
        for name, us in files.items():
            report.append(per_voice_table(f"{name}, out of fold", {
                "words alone": [decide(u, shipped) for u in us], "shipped": [decide(u, now) for u in us],
                "holding": [decide(u, look) for u in us]}))
        report.append(per_voice_table("all training files, out of fold", {
            "words alone": [decide(u, shipped) for u in everything], "shipped": [decide(u, now) for u in everything],
            "holding": [decide(u, look) for u in everything]}))
        model = fit(everything, rows)
        report.append("weights (standardised): " + ", ".join(f"{n} {w:+.2f}" for n, w in zip(HOLD_FEATURES, model.w)))
        Path(args.model).write_text(json.dumps({
            "features": HOLD_FEATURES, "mean": model.mean.round(6).tolist(), "scale": model.scale.round(6).tolist(),
            "weights": model.w.round(6).tolist(), "bias": round(float(model.b), 6),
            "end_above": choice.end_above, "hold_below": choice.hold_below,
            "trained_by": "bench/turn_hold.py --train " + " ".join(args.train)}, indent=1) + "\n")
        if args.figure:
            figure(points, base, choice, Path(args.figure))
    for path, us in load(args.test).items():
        data = json.loads(Path(args.model).read_text())
        if tuple(data["features"]) != HOLD_FEATURES:
            raise ValueError(f"{args.model} is for features {data['features']}")
        rows = rows_of(text_turn, us, hold_features)
        keys = list(rows)
        z = (np.array([rows[k] for k in keys]) - data["mean"]) / data["scale"] @ np.array(data["weights"]) + data["bias"]
        scores = dict(zip(keys, (1 / (1 + np.exp(-z))).tolist()))
        look = second_look(scores, data["end_above"], data["hold_below"])
        name = f"holding (end ≥ {data['end_above']}, hold < {data['hold_below']})"
        judged = {"words alone": [decide(u, shipped) for u in us], "shipped": [decide(u, now) for u in us],
                  name: [decide(u, look) for u in us]}
        report.append(per_voice_table(f"{Path(path).stem.removeprefix('turn_evidence_')}, held out", judged))
        report.append("all voices: " + ", ".join(f"{j} {summarise(o)['premature']:.1%} / {summarise(o)['late']:.1%}"
                                                  for j, o in judged.items()))
        if args.eot:
            report.append(eot_table(us, {"shipped": now, name: look}))
    print("\n\n".join(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
