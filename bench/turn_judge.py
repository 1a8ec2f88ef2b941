"""Train the turn judge's second look (voice/turn_judge.py) on the turn replays' recorded evidence, and judge it.

bench/turn_taking.py --replay writes turn_evidence_SET.json: Silero's probabilities for each utterance and, at
every pause, what the judges had (the transcript, Whisper's word probabilities and beam, the prompt check, the
alignment's last word, the words' and Smart Turn's verdicts). Here semantic_vad decides again on that evidence,
frame by frame with the replay's compute times, so a judge is measured without Whisper: first as shipped (the
replay's own figures), then with the regression's second look.

The regression (voice.turn_judge.features; logistic, standardised, L2, classes weigh the same) is trained on
every pause of the training files; a pause is "finished" when a turn ended there would not be premature. Each
training sentence is judged by a model trained without it (folds by sentence), and the operating point
(end_above, hold_below) is the one with the fewest late turns among those that cut no more utterances than the
shipped judge in any voice of any training file, out of fold. One model trained on all of them, with that point,
is written to voice/data/turn-judge.json. A held-out file (--test) is judged once by the written model.

    PYTHONPATH=$PWD nice -n 5 .venv/bin/python bench/turn_judge.py --train DEV.json FRESH.json FRESH2.json --write
    PYTHONPATH=$PWD nice -n 5 .venv/bin/python bench/turn_judge.py --test FRESH3.json          # the written model
"""
from __future__ import annotations

import argparse
import json
import sys
import time
import zlib
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from streaming.turns import FRAME_MS, TurnDetection, TurnDetector  # noqa: E402
from turn_taking import (CUT_MS, EOT_BUDGETS_MS, EOT_CUTOFFS, LATE_MS, SWEPT, eot_points, outcome_of,  # noqa: E402
                         sentence_of, summarise, sweep_detectors)
from turn_taking import decide as replay_decide  # noqa: E402
from voice.stt import Heard  # noqa: E402
from voice.text_turn import TextTurnModel  # noqa: E402
from voice.turn_judge import FEATURES, WEIGHTS_PATH, TurnJudge, features  # noqa: E402

STT_MS, SMART_TURN_MS = 200, 30     # the replay's compute times (bench/turn_taking.py --stt-ms, --smart-turn-ms)
FOLDS = 5
END_ABOVE = (0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.01)       # 1.01: never
HOLD_BELOW = (-1.0, 0.02, 0.05, 0.1, 0.2)                # -1: never


def heard_of(pause: dict) -> Heard:
    return Heard(pause["text"], tuple((w, p) for w, p in pause["word_probabilities"]), pause["unprompted"],
                 tuple(pause["alternatives"]), pause["last_word_start_s"], pause["last_word_end_s"])


def look_features(text_turn: TextTurnModel, pause: dict) -> list[float]:
    """One recorded pause's features for the second look (voice/turn_judge.py FEATURES)."""
    return features(text_turn, heard_of(pause), pause["heard_s"], pause["words"], pause["going_on"])


def verdicts_again(utterances: list[dict], judge) -> dict[tuple[str, str], tuple]:
    """Each pause's verdicts judged again by judge(heard, heard_s) from its recorded transcript and Whisper's
    evidence, keyed by (utterance label, frames heard): a judge trained again is measured on the same evidence, and
    the judges that recorded it give the recorded verdicts (bench/turn_decision.py, bench/turn_hold.py --test)."""
    return {(u["label"], frames): judge(heard_of(p), p["heard_s"])
            for u in utterances for frames, p in u["pauses"].items()}


def rows_of(text_turn: TextTurnModel, utterances: list[dict],
            pause_features=look_features) -> dict[tuple[str, str], list[float]]:
    """Each pause's features, keyed by (utterance label, frames heard)."""
    return {(u["label"], frames): pause_features(text_turn, p) for u in utterances for frames, p in u["pauses"].items()}


def finished_at(utterance: dict, frames: str) -> float:
    """1 when a turn ended at this pause would not have been premature."""
    return float(int(frames) * FRAME_MS >= utterance["speech_end_ms"] - CUT_MS)


def standardised(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The features' mean and scale, the features standardised by them, and each row's weight so that the two
    classes weigh the same: what every model trained here starts from."""
    mean, scale = x.mean(0), x.std(0) + 1e-6
    weight = np.where(y > 0.5, 0.5 / max(y.sum(), 1.0), 0.5 / max((1 - y).sum(), 1.0))
    return mean, scale, (x - mean) / scale, weight


class Regression:
    """Logistic regression, standardised features, L2, full-batch gradient descent; classes weigh the same."""

    def __init__(self, x: np.ndarray, y: np.ndarray, l2: float = 1e-2, steps: int = 3000, rate: float = 0.5):
        self.mean, self.scale, z, weight = standardised(x, y)
        self.w, self.b = np.zeros(x.shape[1]), 0.0
        for _ in range(steps):
            g = weight * (1 / (1 + np.exp(-(z @ self.w + self.b))) - y)
            self.w -= rate * (z.T @ g + l2 * self.w)
            self.b -= rate * g.sum()

    def __call__(self, x: np.ndarray) -> np.ndarray:
        return 1 / (1 + np.exp(-(((x - self.mean) / self.scale) @ self.w + self.b)))

    def data(self) -> dict:
        """The weights as voice.turn_judge.Regression reads them."""
        return {"mean": self.mean.round(6).tolist(), "scale": self.scale.round(6).tolist(),
                "weights": self.w.round(6).tolist(), "bias": round(float(self.b), 6)}


def fit(utterances: list[dict], rows: dict, model: type = Regression):
    """model: Regression, or any class trained the same way (x, y) and called on features (bench/turn_hold.py)."""
    keys = [(u["label"], frames, u) for u in utterances for frames in u["pauses"]]
    return model(np.array([rows[(label, frames)] for label, frames, _ in keys]),
                 np.array([finished_at(u, frames) for _, frames, u in keys]))


def scored(model, utterances: list[dict], rows: dict) -> dict[tuple[str, str], float]:
    keys = [(u["label"], frames) for u in utterances for frames in u["pauses"]]
    return dict(zip(keys, model(np.array([rows[k] for k in keys])).tolist())) if keys else {}


def out_of_fold(train: list[dict], rows: dict, model: type = Regression) -> dict[tuple[str, str], float]:
    """Each training pause's probability from a model (fit's) trained on the folds without its sentence."""
    fold = {s: zlib.crc32(s.encode()) % FOLDS for s in {sentence_of(u) for u in train}}
    scores: dict[tuple[str, str], float] = {}
    for k in range(FOLDS):
        trained = fit([u for u in train if fold[sentence_of(u)] != k], rows, model)
        scores |= scored(trained, [u for u in train if fold[sentence_of(u)] == k], rows)
    return scores


def decide(utterance: dict, verdict, detector_class: type = TurnDetector) -> dict:
    """semantic_vad on the recorded evidence, decided by the replay's own loop (bench/turn_taking.py decide; the
    frames' levels where the evidence has them, from round 26):
    verdict(utterance, frames, pause) -> (words, if going on), and the short hold (ms) where the judge holds, at
    each pause. An outcome in summarise()'s form."""
    detector = detector_class(TurnDetection(type="semantic_vad"))
    pauses = utterance["pauses"]
    end_frame = replay_decide(utterance["probabilities"], detector, STT_MS, SMART_TURN_MS,
                              lambda frames: detector.transcript_ready(*verdict(utterance, str(frames),
                                                                                pauses[str(frames)])),
                              lambda frames: detector.audio_ready(pauses[str(frames)]["sound"]),
                              utterance.get("levels"))
    return outcome_of(utterance["voice"], utterance["label"], utterance["speech_end_ms"], utterance["resume_ms"],
                      end_frame)


def decidable(utterances: list[dict]) -> tuple[list[dict], int]:
    """The utterances whose recorded pauses the replay's loop meets, and how many are left out: the evidence keeps
    Silero's probabilities to 4 decimals, so one rounded onto the speech threshold's margin (0.35) can start a
    pause a frame later than the live run did, where no verdicts were recorded."""
    kept = []
    for utterance in utterances:
        try:
            decide(utterance, shipped)
        except KeyError:
            continue
        kept.append(utterance)
    return kept, len(utterances) - len(kept)


def shipped(utterance, frames, pause):
    return pause["words"], pause["going_on"]


def second_look(scores: dict, end_above: float, hold_below: float):
    def verdict(utterance, frames, pause):
        return TurnJudge.second_look(scores[(utterance["label"], frames)], pause["words"], pause["going_on"],
                                     end_above, hold_below, TurnDetector.words_done)
    return verdict


def by_voice(outcomes: list[dict]) -> dict[str, dict]:
    voices = list(dict.fromkeys(o["voice"] for o in outcomes))
    return {"all voices": summarise(outcomes)} | {v: summarise([o for o in outcomes if o["voice"] == v])
                                                   for v in voices}


def admissible(files: dict[str, list[dict]], scores: dict) -> list[tuple[float, float, float, float]]:
    """(late, premature, end_above, hold_below) of every point that cuts no more utterances than the shipped
    judge in any voice of any file and is late less often over all, fewest late first."""
    base = {name: by_voice([decide(u, shipped) for u in us]) for name, us in files.items()}
    everything = [u for us in files.values() for u in us]
    base_all = summarise([decide(u, shipped) for u in everything])
    points = []
    for end_above in END_ABOVE:
        for hold_below in HOLD_BELOW:
            look = second_look(scores, end_above, hold_below)
            if all(s["premature"] <= base[name][voice]["premature"] + 1e-9
                   for name, us in files.items() for voice, s in by_voice([decide(u, look) for u in us]).items()):
                total = summarise([decide(u, look) for u in everything])
                if total["late"] < base_all["late"]:
                    points.append((total["late"], total["premature"], end_above, hold_below))
    return sorted(points)


def per_voice_table(name: str, judges: dict[str, list[dict]]) -> str:
    """Premature / late / turn end p50 per voice, one column per judge."""
    lines = [f"{name}: premature (all / paused) / late > {LATE_MS} ms / turn end p50", "",
             "| voice | " + " | ".join(judges) + " |", "|---" * (len(judges) + 1) + "|"]
    tables = {judge: by_voice(outcomes) for judge, outcomes in judges.items()}
    for voice in next(iter(tables.values())):
        lines.append(f"| {voice} | " + " | ".join(
            f"{t[voice]['premature']:.1%} / {t[voice]['premature_paused']:.1%} / {t[voice]['late']:.1%} / "
            f"{t[voice]['end_p50']:.0f} ms" for t in tables.values()) + " |")
    return "\n".join(lines)


def counts(outcomes: list[dict]) -> str:
    """Premature of all utterances and late of those not cut, as counts (summarise() gives shares)."""
    kept = [o for o in outcomes if not o["premature"]]
    late = sum(o.get("end_ms", float("inf")) > LATE_MS for o in kept)
    return f"{len(outcomes) - len(kept)} of {len(outcomes)} / {late} of {len(kept)}"


def eot_table(utterances: list[dict], verdicts: dict) -> str:
    """eot-bench's figures over the sweep's operating points (bench/turn_taking.py --sweep), for each judge."""
    lines = [f"| judge | false cut-offs at {EOT_BUDGETS_MS[0]} / {EOT_BUDGETS_MS[1]} ms (turn end p50 there) | "
             f"turn end p50 at ≤ {EOT_CUTOFFS:.0%} cut-offs |", "|---|---|---|"]
    for judge, verdict in verdicts.items():
        summary = {name: summarise([decide(u, verdict, detector_class) for u in utterances])
                   for name, (detector_class, _) in sweep_detectors().items()}
        *budgets, cutoffs = eot_points({n: s for n, s in summary.items() if n.startswith(SWEPT)})
        lines.append(f"| {judge} | " + " / ".join(
            f"{b['premature_paused']:.1%} ({b['end_p50']:.0f} ms)" if b else "no point that fast" for b in budgets)
            + " | " + (f"{cutoffs['end_p50']:.0f} ms ({cutoffs['premature_paused']:.1%})" if cutoffs
                       else "no point reaches it") + " |")
    return "\n".join(lines)


def cost(judge: TurnJudge, utterances: list[dict]) -> str:
    """Compute per pause: the text turn judge's two verdicts alone, and with the second look (median)."""
    alone, with_look = [], []
    for u in utterances:
        for p in u["pauses"].values():
            heard = heard_of(p)
            started = time.perf_counter()
            judge.text_turn.judge_going_on(heard, judge.text_turn.judge(heard))
            middle = time.perf_counter()
            judge.judge(heard, p["heard_s"], TurnDetector.words_done)
            alone.append(middle - started)
            with_look.append(time.perf_counter() - middle)
    return (f"compute per pause, median of {len(alone)}: the text turn judge {1e3 * np.median(alone):.3f} ms, with "
            f"the second look {1e3 * np.median(with_look):.3f} ms")


def figure(panels: dict[str, dict[str, list[dict]]], path: Path) -> None:
    """Premature against late per voice, the shipped judge (circle) to the second look (arrow's head), one
    panel per set of utterances."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(panels), figsize=(5.2 * len(panels), 4.4), squeeze=False)
    for ax, (title, judges) in zip(axes[0], panels.items()):
        before, after = (by_voice(outcomes) for outcomes in judges.values())
        for n, voice in enumerate(before):
            colour = "black" if voice == "all voices" else plt.cm.tab10(n % 10)
            b, a = before[voice], after[voice]
            ax.plot(100 * b["premature"], 100 * b["late"], "o", color=colour, label=voice)
            ax.annotate("", xy=(100 * a["premature"], 100 * a["late"]), xytext=(100 * b["premature"], 100 * b["late"]),
                        arrowprops={"arrowstyle": "->", "color": colour})
        ax.axvline(5, ls=":", color="grey")
        ax.axhline(10, ls=":", color="grey")
        ax.set(title=title, xlabel="premature (% of utterances)", ylabel=f"late > {LATE_MS} ms (% of turns not cut)",
               xlim=(0, None), ylim=(0, None))
        ax.title.set_fontsize(9)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=90)


def write_weights(path: Path, features: tuple[str, ...], model: Regression, point: dict[str, float], script: str,
                  train: list[str]) -> str:
    """Write a trained model's weights with its features, operating point and the command that trained it; returns the
    report's line."""
    path.write_text(json.dumps({"features": features, **model.data(), **point,
                                "trained_by": f"{script} --train " + " ".join(train) + " --write"}, indent=1) + "\n")
    return f"written: {path.relative_to(ROOT)}"


def load(paths: list[str]) -> dict[str, list[dict]]:
    return {f"{Path(p).parent.name}/{Path(p).name}": json.loads(Path(p).read_text()) for p in paths}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--train", nargs="+", default=[], help="turn_evidence_SET.json files to train on")
    parser.add_argument("--write", action="store_true", help="write the model trained on all of --train")
    parser.add_argument("--test", nargs="+", default=[], help="held-out evidence, judged by the written model")
    parser.add_argument("--eot", action="store_true", help="also eot-bench's shape over the sweep (slow)")
    parser.add_argument("--figure", help="a PNG of premature against late per voice, shipped -> second look")
    args = parser.parse_args(argv)
    text_turn = TextTurnModel()
    report, panels = [], {}
    if args.train:
        files = load(args.train)
        everything = [u for us in files.values() for u in us]
        rows = rows_of(text_turn, everything)
        scores = out_of_fold(everything, rows)
        points = admissible(files, scores)
        if not points:
            print("no operating point cuts no more in every voice and is late less often")
            return 1
        late, premature, end_above, hold_below = points[0]
        report.append("Operating points that cut no more in any voice of any training file, out of fold "
                      "(late, premature, end_above, hold_below), fewest late first: "
                      + "; ".join(f"{l:.1%}, {p:.1%}, {e}, {h}" for l, p, e, h in points[:8]))
        look = second_look(scores, end_above, hold_below)
        panels["training sets, out of fold"] = {"shipped": [decide(u, shipped) for u in everything],
                                                "second look": [decide(u, look) for u in everything]}
        for name, us in files.items():
            report.append(per_voice_table(f"{name}, out of fold", {
                "shipped": [decide(u, shipped) for u in us],
                f"second look (end ≥ {end_above}, hold < {hold_below})": [decide(u, look) for u in us]}))
        model = fit(everything, rows)
        report.append("weights (standardised): " + ", ".join(f"{n} {w:+.2f}" for n, w in zip(FEATURES, model.w)))
        if args.write:
            report.append(write_weights(WEIGHTS_PATH, FEATURES, model,
                                        {"end_above": end_above, "hold_below": hold_below}, "bench/turn_judge.py",
                                        args.train))
            report.append(cost(TurnJudge(text_turn, WEIGHTS_PATH), everything))
    for path, us in load(args.test).items():
        judge = TurnJudge(text_turn, WEIGHTS_PATH)
        rows = rows_of(text_turn, us)
        scores = {k: judge.probability(r) for k, r in rows.items()}
        look = second_look(scores, judge.end_above, judge.hold_below)
        name = f"second look (end ≥ {judge.end_above}, hold < {judge.hold_below})"
        judges = {"shipped": [decide(u, shipped) for u in us], name: [decide(u, look) for u in us]}
        title = f"{Path(path).stem.removeprefix('turn_evidence_')}, held out"
        report.append(per_voice_table(title, judges))
        panels[title] = judges
        if args.eot:
            report.append(eot_table(us, {"shipped": shipped, name: look}))
    print("\n\n".join(report))
    if args.figure:
        figure(panels, Path(args.figure))
    return 0


if __name__ == "__main__":
    sys.exit(main())
