"""A turn judge that may also hold: the second look (voice/turn_judge.py) trained to lower premature turns too.

The second look alone (voice/data/turn-judge.json) only releases words the text judge reads as cut, so it cannot
lower premature. Here a network (Network: the second look's regression with a layer of tanh units, which separates
better), over the second look's features and four more read off the pause's transcript (voice.turn_judge's
HOLD_FEATURES), decides among the three outcomes the turn detector has at a
pause: end after the short wait (the words' verdict stands or cut words are read finished), or hold finished
words. A hold is graded by the network's probability: below hold_below for the cut wait (960 ms, as the one
hold before), from there to short_below for the short hold (HOLD_WAITS_MS, swept): the turn ends after the
longer of the short hold and the detector's own wait, so the hold never ends a turn sooner than the detector
would (the opener check's cut wait when the sound says the speaker goes on). The synthesised pauses last 300, 550
or 800 ms, so the short hold covers the shorter ones while a finished request it holds still ends within the late
mark (600 ms). The replays' evidence holds the pause's transcript and Smart Turn's verdict from the pause's first
silent frame only, so there is no second decision at the hold's end, only the wait. All of it is in hand when the
pause's transcript is in; Smart Turn's verdict and Silero's probabilities over the pause are not used (the
decision would wait for the sound, and the judge's call in the transcription queue does not see Silero).

Trained on every pause of the training files' evidence (bench/turn_taking.py --replay), each sentence judged by
a model trained without it (folds by sentence, as bench/turn_judge.py). The operating point
(end_above, hold_below, short_below, hold wait) is the one with the fewest late turns among those that cut at
most TARGET_PREMATURE of every voice's utterances over all training files, out of fold; when none does, the one
whose worst voice is cut least. The
model trained on all of them with that point is written to --model; --test judges held-out evidence once with
it, beside the second look alone, the words judged again from each pause's recorded transcript by this tree's text
judge (as bench/turn_decision.py --test does), so a text judge trained again is measured on the same evidence. The
server runs the model in voice/data/turn-hold.json.

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

from turn_judge import (by_voice, counts, decidable, decide, eot_table, finished_at, fit, heard_of,  # noqa: E402
                        load, look_features, out_of_fold, per_voice_table, rows_of, shipped, standardised,
                        verdicts_again)
from streaming.turns import TurnDetector  # noqa: E402
from turn_taking import LATE_MS, summarise, text_verdicts  # noqa: E402
from voice.text_turn import TextTurnModel  # noqa: E402
from voice.turn_judge import HOLD_FEATURES, WEIGHTS_PATH, Regression, TurnJudge, hold_features  # noqa: E402

END_ABOVE = (0.7, 0.8, 0.9)         # 0.8 had the fewest late at every single hold wait from 288 to 960 ms
HOLD_BELOW = (-1.0, 0.3, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95)  # -1: never; the long and the short hold's
HOLD_WAITS_MS = (352, 416, 480, 544)    # the short hold's silence; the transcript is in at 256 ms (the replay's
                                        # 200 ms Whisper after the 32 ms pause), and held finished requests end
                                        # late past about 500 ms
TARGET_PREMATURE = 0.05
HIDDEN = 16                         # tanh units; 8 and 32 did about as well out of fold


class Network:
    """One layer of HIDDEN tanh units under a logistic output, over standardised features: the regression with
    the features weighed together (out of fold it separates finished from paused better, 0.93 against 0.90).
    Weight decay, full-batch Adam, classes weigh the same, in numpy; seeded, so a run repeats."""

    def __init__(self, x: np.ndarray, y: np.ndarray, decay: float = 1e-3, steps: int = 400, rate: float = 0.01):
        rng = np.random.default_rng(0)
        self.mean, self.scale, z, weight = standardised(x, y)
        inner, outer = 1 / np.sqrt(x.shape[1]), 1 / np.sqrt(HIDDEN)
        self.params = [rng.uniform(-inner, inner, (x.shape[1], HIDDEN)), rng.uniform(-inner, inner, HIDDEN),
                       rng.uniform(-outer, outer, HIDDEN), np.array(rng.uniform(-outer, outer))]
        moment, square = [np.zeros_like(q) for q in self.params], [np.zeros_like(q) for q in self.params]
        for step in range(1, steps + 1):
            w1, b1, w2, b2 = self.params
            a = np.tanh(z @ w1 + b1)
            g = weight * (1 / (1 + np.exp(-(a @ w2 + b2))) - y)
            back = np.outer(g, w2) * (1 - a * a)
            for n, grad in enumerate((z.T @ back, back.sum(0), a.T @ g, g.sum())):
                grad = grad + decay * self.params[n]
                moment[n] = 0.9 * moment[n] + 0.1 * grad
                square[n] = 0.999 * square[n] + 0.001 * grad * grad
                self.params[n] = self.params[n] - rate * (moment[n] / (1 - 0.9 ** step)) / (
                    np.sqrt(square[n] / (1 - 0.999 ** step)) + 1e-8)
        self.regression = Regression(self.data())

    def data(self) -> dict:
        """The weights as voice.turn_judge.Regression reads them."""
        w1, b1, w2, b2 = self.params
        return {"mean": self.mean.round(6).tolist(), "scale": self.scale.round(6).tolist(),
                "hidden": {"weights": w1.round(6).tolist(), "bias": b1.round(6).tolist()},
                "weights": w2.round(6).tolist(), "bias": round(float(b2), 6)}

    def __call__(self, x: np.ndarray) -> np.ndarray:
        return self.regression.probabilities(x)


def recorded_hold_features(text_turn: TextTurnModel, pause: dict) -> list[float]:
    """One recorded pause's evidence as numbers (HOLD_FEATURES' order)."""
    return hold_features(text_turn, heard_of(pause), pause["heard_s"], pause["words"], pause["going_on"])


def words_judged_again(text_turn: TextTurnModel, utterances: list[dict]) -> list[dict]:
    """The utterances with each pause's words' verdicts (words, going_on: the text judge's, which the second look and
    the judge that may also hold read) judged again by text_turn from the recorded transcript, as the replay judged
    them (bench/turn_taking.py text_verdicts); by the text judge that recorded the evidence, the recorded ones."""
    again = verdicts_again(utterances, lambda heard, heard_s: text_verdicts(text_turn, heard))
    return [u | {"pauses": {frames: p | dict(zip(("words", "going_on"), again[(u["label"], frames)]))
                            for frames, p in u["pauses"].items()}} for u in utterances]


def second_look_of(judge: TurnJudge):
    """The second look alone (voice/data/turn-judge.json) over the pause's words' verdicts."""
    def verdict(utterance, frames, pause):
        return TurnJudge.second_look(judge.probability(look_features(judge.text_turn, pause)), pause["words"],
                                     pause["going_on"], judge.end_above, judge.hold_below, TurnDetector.words_done)
    return verdict


def graded_hold(scores: dict, end_above: float, hold_below: float, short_below: float, hold_ms: int):
    """The holding judge's verdict at a pause (TurnJudge.look): (words, if going on, short hold). Below hold_below
    finished words are read cut (the cut wait), as the second look does; from there to short_below they are held
    short, which never shortens the detector's own wait (TurnDetector.end_after_ms)."""
    def verdict(utterance, frames, pause):
        return TurnJudge.look(scores[(utterance["label"], frames)], pause["words"], pause["going_on"], end_above,
                              hold_below, short_below, hold_ms, TurnDetector.words_done)
    return verdict


@dataclass
class Point:
    end_above: float
    hold_below: float
    short_below: float
    hold_ms: int
    summary: dict               # summarise() over all training utterances
    voices: dict[str, dict]     # summarise() per voice over all training utterances


def curve(utterances: list[dict], scores: dict) -> list[Point]:
    """Every operating point's figures over the training utterances, out of fold."""
    points = []
    for hold_ms in HOLD_WAITS_MS:
        for end_above in END_ABOVE:
            for hold_below in HOLD_BELOW:
                for short_below in [b for b in HOLD_BELOW if b >= hold_below]:
                    verdict = graded_hold(scores, end_above, hold_below, short_below, hold_ms)
                    voices = by_voice([decide(u, verdict) for u in utterances])
                    points.append(Point(end_above, hold_below, short_below, hold_ms, voices.pop("all voices"),
                                        voices))
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


def separation(utterances: list[dict], rows: dict, scores: dict[str, dict]) -> str:
    """How well each feature, and each model's out-of-fold probability, tells a finished request from a pause
    inside one where the words say finished (the pauses a hold is for): the area under the ROC curve per voice
    (0.5: no better than chance; below it, the feature points the other way)."""
    keys = [(u["label"], frames, u) for u in utterances for frames, p in u["pauses"].items()
            if p["words"] >= TurnDetector.words_done]
    finished = np.array([finished_at(u, frames) > 0.5 for _, frames, u in keys])
    voice = np.array([u["voice"] for _, _, u in keys])
    columns = {name: np.array([rows[(label, frames)][n] for label, frames, _ in keys])
               for n, name in enumerate(HOLD_FEATURES)}
    columns["Smart Turn's verdict (not read: it may come later)"] = np.array([u["pauses"][frames]["sound"]
                                                                            for _, frames, u in keys])
    columns |= {name: np.array([s[(label, frames)] for label, frames, _ in keys]) for name, s in scores.items()}
    voices = list(dict.fromkeys(voice))
    lines = [f"Separation at the {len(keys)} pauses whose words say finished ({finished.sum()} finished, "
             f"{(~finished).sum()} inside a request): area under the ROC curve", "",
             "| evidence | all voices | " + " | ".join(voices) + " |", "|---" * (len(voices) + 2) + "|"]
    for name, x in columns.items():
        lines.append(f"| {name} | {roc_area(x, finished):.2f} | "
                     + " | ".join(f"{roc_area(x[voice == v], finished[voice == v]):.2f}" for v in voices) + " |")
    return "\n".join(lines)


def roc_area(x: np.ndarray, positive: np.ndarray) -> float:
    """The chance that a positive's x exceeds a negative's (ties count half)."""
    order = np.argsort(x, kind="stable")
    _, first, counts = np.unique(x[order], return_index=True, return_counts=True)
    ranks = np.empty(len(x))
    ranks[order] = np.repeat(first + (counts + 1) / 2, counts)
    n = positive.sum()
    return float((ranks[positive].sum() - n * (n + 1) / 2) / (n * (len(x) - n)))


def swept_hold(utterances: list[dict], scores: dict, end_above: float, hold_ms: int) -> list[Point]:
    """The cut wait's hold alone, its threshold swept, at one end_above (the figure's line for another model)."""
    points = []
    for hold_below in HOLD_BELOW:
        verdict = graded_hold(scores, end_above, hold_below, hold_below, hold_ms)
        voices = by_voice([decide(u, verdict) for u in utterances])
        points.append(Point(end_above, hold_below, hold_below, hold_ms, voices.pop("all voices"), voices))
    return points


def figure(points: list[Point], look_voices: dict[str, dict], choice: Point, linear: list[Point],
           path: Path) -> None:
    """Premature against late per voice at the chosen end_above: the cut wait's hold alone, its threshold swept
    (grey; dashed, the same with the logistic regression instead of the network), and at the chosen hold_below
    the short hold's threshold swept, one line per short hold wait; the second look alone a cross, the chosen point a
    circle."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = ["all voices"] + list(choice.voices)
    fig, axes = plt.subplots(2, (len(names) + 1) // 2, figsize=(3.2 * ((len(names) + 1) // 2), 6.6), squeeze=False)
    for ax, name in zip(axes.flat, names):
        lines = [("960 ms alone", "grey", sorted(
            [p for p in points if p.end_above == choice.end_above and p.hold_ms == choice.hold_ms
             and p.short_below == p.hold_below], key=lambda p: p.hold_below)), ("regression, 960 ms", "grey", linear)]
        lines += [(f"+ {hold_ms} ms", plt.cm.viridis(n / max(1, len(HOLD_WAITS_MS) - 1)), sorted(
            [p for p in points if p.end_above == choice.end_above and p.hold_ms == hold_ms
             and p.hold_below == choice.hold_below], key=lambda p: p.short_below))
            for n, hold_ms in enumerate(HOLD_WAITS_MS)]
        for label, colour, line in lines:
            figures = [p.summary if name == "all voices" else p.voices[name] for p in line]
            ax.plot([100 * f["premature"] for f in figures], [100 * f["late"] for f in figures],
                    ".--" if label.startswith("regression") else ".-", ms=3, lw=1, color=colour, label=label)
        mine = choice.summary if name == "all voices" else choice.voices[name]
        ax.plot(100 * mine["premature"], 100 * mine["late"], "o", mfc="none", ms=10, color="C3")
        ax.plot(100 * look_voices[name]["premature"], 100 * look_voices[name]["late"], "x", ms=9, color="black")
        ax.axvline(100 * TARGET_PREMATURE, ls=":", color="grey")
        ax.axhline(10, ls=":", color="grey")
        ax.set(title=name, xlim=(0, None), ylim=(0, None))
        ax.title.set_fontsize(9)
    axes.flat[0].legend(title="hold wait", fontsize=6, title_fontsize=6)
    for ax in axes[-1]:
        ax.set_xlabel("premature (%)")
    for ax in axes[:, 0]:
        ax.set_ylabel(f"late > {LATE_MS} ms (%)")
    for ax in list(axes.flat)[len(names):]:
        ax.axis("off")
    fig.suptitle(f"training sets, out of fold, end ≥ {choice.end_above}: the cut wait's hold swept (grey; dashed: "
                 f"the logistic regression); at hold < "
                 f"{choice.hold_below}, the short hold's threshold swept, one line per wait (x: second look, o: chosen, "
                 f"short < {choice.short_below}, {choice.hold_ms} ms)", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=90)


def scores_of(data: dict, rows: dict) -> dict:
    """The written model's probabilities for each pause's features."""
    keys = list(rows)
    return dict(zip(keys, Regression(data).probabilities(np.array([rows[k] for k in keys])).tolist()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--train", nargs="+", default=[], help="turn_evidence_SET.json files to train on")
    parser.add_argument("--test", nargs="+", default=[], help="held-out evidence, judged once by --model")
    parser.add_argument("--model", required=True, help="the trained model's JSON: written by --train, read by --test")
    parser.add_argument("--eot", action="store_true", help="--test: also eot-bench's shape over the sweep (slow)")
    parser.add_argument("--figure", help="--train: a PNG of the trade-off per voice")
    args = parser.parse_args(argv)
    text_turn = TextTurnModel()
    now = second_look_of(TurnJudge(text_turn, WEIGHTS_PATH))
    report = []
    if args.train:
        files = load(args.train)
        everything = [u for us in files.values() for u in us]
        rows = rows_of(text_turn, everything, recorded_hold_features)
        scores = out_of_fold(everything, rows, Network)
        points = curve(everything, scores)
        choice = chosen(points)
        base = by_voice([decide(u, now) for u in everything])
        voices = list(choice.voices)
        best = [chosen([p for p in points if p.hold_ms == hold_ms]) for hold_ms in HOLD_WAITS_MS]
        alone = chosen([p for p in points if p.short_below == p.hold_below])    # the cut wait's hold alone
        report.append("Out of fold over all training utterances, each hold wait's own point by the same rule: "
                      "premature / late / turn end p50\n\n| short hold | end ≥ | hold < | short < | all voices | "
                      + " | ".join(voices) + " |\n|---|---|---|---|---|" + "---|" * len(voices) + "\n" + "\n".join(
                          f"| {p.hold_ms} ms | {p.end_above} | {p.hold_below} | {p.short_below} | "
                          f"{p.summary['premature']:.1%} / "
                          f"{p.summary['late']:.1%} / {p.summary['end_p50']:.0f} ms | "
                          + " | ".join(f"{p.voices[v]['premature']:.1%} / {p.voices[v]['late']:.1%}" for v in voices)
                          + " |" for p in best + [alone]))
        report.append(f"chosen: end ≥ {choice.end_above}, hold < {choice.hold_below}, short < {choice.short_below}, "
                      f"short hold {choice.hold_ms} ms")
        look = graded_hold(scores, choice.end_above, choice.hold_below, choice.short_below, choice.hold_ms)
        for name, us in files.items():
            report.append(per_voice_table(f"{name}, out of fold", {
                "words alone": [decide(u, shipped) for u in us], "second look": [decide(u, now) for u in us],
                "holding": [decide(u, look) for u in us]}))
        report.append(per_voice_table("all training files, out of fold", {
            "words alone": [decide(u, shipped) for u in everything],
            "second look": [decide(u, now) for u in everything], "holding": [decide(u, look) for u in everything]}))
        model = fit(everything, rows, Network)
        Path(args.model).write_text(json.dumps({
            "features": HOLD_FEATURES, **model.data(),
            "end_above": choice.end_above, "hold_below": choice.hold_below, "short_below": choice.short_below,
            "hold_ms": choice.hold_ms,
            "trained_by": "bench/turn_hold.py --train " + " ".join(args.train)}, indent=1) + "\n")
        linear = out_of_fold(everything, rows)
        report.append(separation(everything, rows, {"the network, out of fold": scores,
                                                    "the logistic regression, out of fold": linear}))
        if args.figure:
            figure(points, base, choice, swept_hold(everything, linear, choice.end_above, choice.hold_ms),
                   Path(args.figure))
    for path, us in load(args.test).items():
        us, left_out = decidable(us)
        if left_out:
            report.append(f"{left_out} utterances left out: the replay's loop meets a pause their evidence lacks")
        us = words_judged_again(text_turn, us)
        data = json.loads(Path(args.model).read_text())
        if tuple(data["features"]) != HOLD_FEATURES:
            raise ValueError(f"{args.model} is for features {data['features']}")
        look = graded_hold(scores_of(data, rows_of(text_turn, us, recorded_hold_features)), data["end_above"],
                           data["hold_below"], data["short_below"], data["hold_ms"])
        name = (f"holding (end ≥ {data['end_above']}, hold < {data['hold_below']}, short < {data['short_below']}, "
                f"{data['hold_ms']} ms)")
        judged = {"words alone": [decide(u, shipped) for u in us], "second look": [decide(u, now) for u in us],
                  name: [decide(u, look) for u in us]}
        report.append(per_voice_table(f"{Path(path).stem.removeprefix('turn_evidence_')}, held out, the words "
                                      f"judged again by this tree's text judge", judged))
        report.append("all voices: " + ", ".join(f"{j} {summarise(o)['premature']:.1%} / {summarise(o)['late']:.1%}"
                                                  for j, o in judged.items()))
        report.append("in counts (premature of all; late of those not cut): "
                      + "; ".join(f"{j} {counts(o)}" for j, o in judged.items()))
        if args.eot:
            report.append(eot_table(us, {"second look": now, name: look}))
    print("\n\n".join(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
