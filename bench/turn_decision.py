"""Train the learned turn decision (voice/turn_decision.py) on the turn replays' recorded evidence, and judge it.

bench/turn_taking.py --replay writes turn_evidence_SET.json: Silero's probabilities for each utterance and, at
every pause, what the judges had (the transcript, Whisper's word probabilities and beam, the alignment's last
word, the words' and Smart Turn's verdicts, the shipped verdicts). Here semantic_vad decides again on that
evidence by the replay's own loop (bench/turn_judge.py decide), first as shipped (the thresholds over the
recorded verdicts), then with the decision, which the turn detector weighs through the same code as the server.

The regression (voice.turn_decision.FEATURES; logistic, standardised, L2, classes weigh the same) is trained on
every pause of the training files; a pause is "finished" when a turn ended there would not be premature. Each
training sentence is judged by a model trained without it (folds by sentence), and the operating point
(done_above, unsure_above, hold_below) is the one with the fewest late and premature turns together over all
training files, out of fold, among those that cut no training utterance the thresholds (shipped) do not cut, are
late no more than LATE_SLACK more often than shipped in any one file, and hold none of the latency bench's
finished requests (--bench: bench/turn_stages.py --waits --json) longer than the thresholds. One model trained on
all of them, with that point, is written to voice/data/turn-decision.json. A held-out file (--test) is judged once
by the written model, the words judged again from each pause's recorded transcript by this tree's text judge and
second look (the recorded verdicts' thresholds beside it), so a text judge trained again is measured on the same
evidence.

    PYTHONPATH=$PWD nice -n 5 .venv/bin/python bench/turn_stages.py --waits --voices all --audio TURNS.npz \
        --json WAITS.json
    PYTHONPATH=$PWD nice -n 5 .venv/bin/python bench/turn_decision.py --train DEV.json FRESH7.json ... \
        --bench WAITS.json --write
    PYTHONPATH=$PWD nice -n 5 .venv/bin/python bench/turn_decision.py --test FRESH8.json       # the written model
"""
from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
import zlib
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from turn_judge import (FOLDS, Regression, counts, decidable, decide, finished_at, heard_of, load,  # noqa: E402
                        per_voice_table, verdicts_again, write_weights)
from streaming.turns import TurnDetector  # noqa: E402
from turn_taking import sentence_of, summarise  # noqa: E402
from voice.text_turn import TextTurnModel  # noqa: E402
from voice.turn_decision import (FEATURES, WEIGHTS_PATH, PauseEvidence, TurnDecision, features,  # noqa: E402
                                 words_evidence)
from voice.turn_judge import TurnJudge  # noqa: E402
from voice.weights import verified  # noqa: E402

DONE_ABOVE = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 0.98, 1.01)     # 1.01: never
UNSURE_ABOVE = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
HOLD_BELOW = (0.0, 0.01, 0.02, 0.05, 0.1, 0.15, 0.2)      # 0.0: never
LATE_SLACK = 0.02       # no training file later by more: round 18's decision made dev's "Yes.", "Stop." late


def shipped(utterance, frames, pause):
    """The server's recorded verdicts at the pause (the second look's): the thresholds decide."""
    return tuple(pause["judged"])


def judged_again(auto_judge: TurnJudge, utterances: list[dict]):
    """The thresholds' verdicts judged again from each pause's recorded transcript and Whisper's evidence by this
    tree's text judge and second look (as the server judges at the default eagerness), so that a text judge trained
    again is measured on the same evidence; with the recorded judges they are the recorded verdicts."""
    judged = verdicts_again(utterances, lambda heard, heard_s: auto_judge.judge(heard, heard_s,
                                                                                TurnDetector.words_done))

    def verdict(utterance, frames, pause):
        return judged[(utterance["label"], frames)]
    return verdict


def decided(decisions: dict[str, TurnDecision], words_rows: dict, judged=shipped):
    """The thresholds' verdicts (judged: recorded, or judged_again's) with the pause's evidence: the decision (each
    sentence's own, out of fold) decides."""
    def verdict(utterance, frames, pause):
        evidence = PauseEvidence(words_rows[(utterance["label"], frames)], decisions[sentence_of(utterance)])
        return (*judged(utterance, frames, pause), evidence)
    return verdict


def rows_of(hold_judge: TurnJudge, utterances: list[dict]) -> dict[tuple[str, str], tuple[float, ...]]:
    """Each pause's words' side of the evidence, keyed by (utterance label, frames heard)."""
    return {(u["label"], frames): words_evidence(hold_judge, heard_of(p), p["heard_s"])
            for u in utterances for frames, p in u["pauses"].items()}


def fit(utterances: list[dict], words_rows: dict) -> Regression:
    keys = [(u, frames) for u in utterances for frames in u["pauses"]]
    x = np.array([features(words_rows[(u["label"], f)], u["pauses"][f]["sound"]) for u, f in keys])
    return Regression(x, np.array([finished_at(u, f) for u, f in keys]))


def as_decision(hold_judge: TurnJudge, model: Regression, done_above: float, unsure_above: float,
                hold_below: float) -> TurnDecision:
    return TurnDecision(hold_judge, {"features": FEATURES, **model.data(), "done_above": done_above,
                                     "unsure_above": unsure_above, "hold_below": hold_below})


class Outcomes:
    """Decided outcomes, each kept by the waits its pauses got: a point of the grid that gives an utterance the
    same waits as another point reuses its outcome (the decision is the detector's; this only skips repeats)."""

    def __init__(self):
        self.seen: dict = {}

    def __call__(self, utterances: list[dict], verdict, words_rows: dict, decisions: dict) -> list[dict]:
        out = []
        for u in utterances:
            decision = decisions[sentence_of(u)]
            waits = tuple(decision.wait(words_rows[(u["label"], f)], p["sound"]) for f, p in u["pauses"].items())
            key = (id(u), waits)
            if key not in self.seen:
                self.seen[key] = decide(u, verdict)
            out.append(self.seen[key])
        return out


def lengthened(decision: TurnDecision, turns: list[dict]) -> int:
    """How many of the latency bench's finished requests (bench/turn_stages.py --waits --json: each turn's verdicts
    and evidence) the decision holds longer than the thresholds do."""
    from turn_stages import wait_of
    return sum(wait_of(t["words"], t["going_on"], t["hold_ms"], t["sound"],
                       PauseEvidence(tuple(t["evidence"]), decision))
               > wait_of(t["words"], t["going_on"], t["hold_ms"], t["sound"]) for t in turns)


def admissible(files: dict[str, list[dict]], hold_judge: TurnJudge, models: dict[str, Regression],
               words_rows: dict, model: Regression, bench: list[dict]) -> list[tuple[float, ...]]:
    """(late + premature, late, premature, done_above, unsure_above, hold_below) of every point that cuts no
    utterance of any file the thresholds do not cut (round 26: points whose hold's saves outweighed their
    shortenings' new cuts over each file, and then over each voice of each file, both cut more on blind fresh9), is
    late no more than LATE_SLACK more often than shipped in any file, is late less often over all, and holds none
    of the latency bench's finished requests longer than the thresholds (model: the one trained on all files;
    round 24 saw "What time is it?" held the cut wait); fewest late and premature together first. models: each
    training sentence's model, trained without it."""
    everything = [u for us in files.values() for u in us]
    base = {name: [decide(u, shipped) for u in us] for name, us in files.items()}
    base_all = summarise([decide(u, shipped) for u in everything])
    outcomes, points = Outcomes(), []
    for done_above, unsure_above, hold_below in itertools.product(DONE_ABOVE, UNSURE_ABOVE, HOLD_BELOW):
        if unsure_above > done_above or lengthened(as_decision(hold_judge, model, done_above, unsure_above,
                                                               hold_below), bench):
            continue
        decisions = {s: as_decision(hold_judge, m, done_above, unsure_above, hold_below) for s, m in models.items()}
        verdict = decided(decisions, words_rows)
        each = {name: outcomes(us, verdict, words_rows, decisions) for name, us in files.items()}
        total = summarise(outcomes(everything, verdict, words_rows, decisions))
        if (total["late"] < base_all["late"]
                and all(newly_cut(each[name], base[name]) == []
                        and summarise(each[name])["late"] <= summarise(base[name])["late"] + LATE_SLACK
                        for name in files)):
            points.append((total["late"] + total["premature"], total["late"], total["premature"], done_above,
                           unsure_above, hold_below))
    return sorted(points)


def newly_cut(outcomes: list[dict], shipped_outcomes: list[dict]) -> list[str]:
    """The utterances the outcomes cut that the shipped ones did not (the same utterances, in the same order)."""
    return [r["label"] for r, s in zip(outcomes, shipped_outcomes, strict=True)
            if r["premature"] and not s["premature"]]


def out_of_fold(utterances: list[dict], words_rows: dict) -> dict[str, Regression]:
    """Each sentence's model, trained on the folds without it."""
    sentences = {sentence_of(u) for u in utterances}
    fold = {s: zlib.crc32(s.encode()) % FOLDS for s in sentences}
    models = [fit([u for u in utterances if fold[sentence_of(u)] != k], words_rows) for k in range(FOLDS)]
    return {s: models[fold[s]] for s in sentences}


def cost(decision: TurnDecision, utterances: list[dict]) -> str:
    """Compute per pause (median): the words' side on the transcription queue's thread, and the wait the turn
    detector weighs once the sound is in."""
    words_side, weighed = [], []
    for u in utterances:
        for p in u["pauses"].values():
            started = time.perf_counter()
            evidence = decision.evidence(heard_of(p), p["heard_s"])
            middle = time.perf_counter()
            evidence.wait(p["sound"])
            words_side.append(middle - started)
            weighed.append(time.perf_counter() - middle)
    return (f"compute per pause, median of {len(words_side)}: the words' side {1e3 * np.median(words_side):.3f} ms, "
            f"the wait {1e3 * np.median(weighed):.3f} ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--train", nargs="+", default=[], help="turn_evidence_SET.json files to train on")
    parser.add_argument("--bench", help="bench/turn_stages.py --waits --json output: the latency bench's requests, "
                                           "none of which a chosen point may hold longer than the thresholds")
    parser.add_argument("--write", action="store_true", help="write the model trained on all of --train")
    parser.add_argument("--test", nargs="+", default=[], help="held-out evidence, judged by the written model")
    args = parser.parse_args(argv)
    if args.train and not args.bench:
        parser.error("--train needs --bench")
    hold_judge = TurnJudge(TextTurnModel())
    report = []
    if args.train:
        files = {name: decidable(us)[0] for name, us in load(args.train).items()}
        everything = [u for us in files.values() for u in us]
        words_rows = rows_of(hold_judge, everything)
        models = out_of_fold(everything, words_rows)
        model = fit(everything, words_rows)
        bench = [t for turns in json.loads(Path(args.bench).read_text()).values() for t in turns]
        points = admissible(files, hold_judge, models, words_rows, model, bench)
        if not points:
            print("no operating point cuts no utterance the thresholds do not, is late less often, no file later by "
                  "a point, and holds no bench request longer")
            return 1
        _, late, premature, done_above, unsure_above, hold_below = points[0]
        report.append("Operating points out of fold (late, premature, done_above, unsure_above, hold_below), "
                      "fewest late and premature together first: "
                      + "; ".join(f"{l:.1%}, {p:.1%}, {s}, {u}, {h}" for _, l, p, s, u, h in points[:20]))
        decisions = {s: as_decision(hold_judge, m, done_above, unsure_above, hold_below) for s, m in models.items()}
        verdict = decided(decisions, words_rows)
        report.append(per_voice_table("training files together, out of fold", {
            "shipped": [decide(u, shipped) for u in everything], "decision": [decide(u, verdict) for u in everything]}))
        for name, us in files.items():
            report.append(per_voice_table(f"{name}, out of fold", {
                "shipped": [decide(u, shipped) for u in us],
                f"decision (done ≥ {done_above}, unsure ≥ {unsure_above}, hold < {hold_below})":
                    [decide(u, verdict) for u in us]}))
        report.append("weights (standardised): " + ", ".join(f"{n} {w:+.2f}" for n, w in zip(FEATURES, model.w)))
        if args.write:
            report.append(write_weights(WEIGHTS_PATH, FEATURES, model,
                                        {"done_above": done_above, "unsure_above": unsure_above,
                                         "hold_below": hold_below},
                                        "bench/turn_decision.py", [*args.train, "--bench", args.bench]))
            report.append(cost(TurnDecision(hold_judge, json.loads(WEIGHTS_PATH.read_text())), everything))
    for path, us in load(args.test).items():
        us = decidable(us)[0]
        decision = TurnDecision(hold_judge)
        words_rows = rows_of(hold_judge, us)
        thresholds = judged_again(TurnJudge(hold_judge.text_turn, verified("voice", "data/turn-judge.json")), us)
        verdict = decided({sentence_of(u): decision for u in us}, words_rows, thresholds)
        columns = {"recorded verdicts, thresholds": [decide(u, shipped) for u in us],
                   "this tree's verdicts, thresholds": [decide(u, thresholds) for u in us],
                   f"decision (done ≥ {decision.done_above}, unsure ≥ {decision.unsure_above}, "
                   f"hold < {decision.hold_below})": [decide(u, verdict) for u in us]}
        name = Path(path).stem.removeprefix('turn_evidence_')
        report.append(per_voice_table(f"{name}, by the written model", columns))
        report.append(f"{name} in counts (premature of all; late of those not cut): " + "; ".join(
            f"{column} {counts(outcomes)}" for column, outcomes in columns.items()))
    print("\n\n".join(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
