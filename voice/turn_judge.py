"""A second look at the words' verdict at a pause, learned from the turn replays' evidence in every voice.

The text turn judge (voice.text_turn) reads the transcript; Whisper's evidence is read in by fixed rules (its
doubt, the prompt check, the beam). Those rules hold finished requests that end in a word or name the text
judge never saw ("Play the playlist called Rainy Day Jazz.", heard right, 0.39) and pass cut ones that Whisper
completed with confidence. This judge is a logistic regression over everything known when the pause's transcript is in (the
words' verdicts with and without Whisper's evidence, the text alone, Whisper's probability of the last word and
of the closing mark, where the alignment puts the last word against the audio's end, whether the prompt check
or the beam fired, the number of words, a number or a question at the end); no sound: Smart Turn's verdict
may come before or after the transcript, and the turn detector weighs it as before. It overrules the words
only where it is sure: cut words read finished above `end_above`, finished words read cut below `hold_below`.

The weights and both thresholds (voice/data/turn-judge.json) are trained and chosen by bench/turn_judge.py on
the replays' recorded evidence (bench/turn_taking.py --replay), folds by sentence.

The server runs the judge that may also hold (voice/data/turn-hold.json, bench/turn_hold.py): a layer of tanh
units over these features and four more of the transcript (HOLD_FEATURES), which also reads finished words cut
below `hold_below` and holds them short (`hold_ms`, the least silence that ends the turn) from there to
`short_below`. The second look's own weights stay the benches' baseline.
"""
from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import numpy as np

from voice.stt import Heard
from voice.text_turn import NUMBER, TextTurnModel, goes_on, words
from voice.weights import verified

WEIGHTS_PATH = Path(__file__).resolve().parent / "data" / "turn-judge.json"    # where the trainer writes them
FEATURES = ("words", "words if going on", "words without the prompt check and the beam", "text alone",
            "last word's probability", "closing mark's probability", "since the last word began",
            "since the last word ended", "prompt check fired", "beam says more", "words heard",
            "ends in a number", "ends in a question mark")
HOLD_FEATURES = FEATURES + ("last word's length", "last word's length against the rate so far",
                            "beam hypotheses left open", "a beam hypothesis ends in a comma")


def _logit(p: float | None) -> float:
    p = 0.5 if p is None else min(max(p, 1e-4), 1 - 1e-4)
    return math.log(p / (1 - p))


def features(text_turn: TextTurnModel, heard: Heard, heard_s: float, finished: float,
             if_going_on: float | None) -> list[float]:
    """The evidence at one pause as numbers (FEATURES' order). heard_s: the length of the audio heard;
    finished, if_going_on: the words' verdicts (TextTurnModel.judge, judge_going_on)."""
    said = words(heard.text)
    spoken = [p for w, p in heard.word_probabilities if words(w)]
    last = heard.word_probabilities[-1] if heard.word_probabilities else None
    mark = last[1] if last is not None and not words(last[0]) else None
    alone = text_turn.judge(replace(heard, unprompted=None, alternatives=()))
    began = heard_s - heard.last_word_start_s if heard.last_word_start_s is not None else 0.0
    ended = heard_s - heard.last_word_end_s if heard.last_word_end_s is not None else 0.0
    return [_logit(finished), _logit(finished if if_going_on is None else if_going_on), _logit(alone),
            _logit(text_turn.finished(heard.text) if said else 0.0),
            _logit(spoken[-1]) if spoken else 0.0, _logit(mark) if mark is not None else -3.0,
            min(began, 3.0), min(ended, 3.0), float(heard.unprompted is not None),
            float(len(said) > 2 and any(goes_on(said, other) for other in heard.alternatives)),
            math.log1p(len(said)), float(bool(said) and said[-1] == NUMBER),
            float(heard.text.rstrip().endswith("?"))]


def hold_features(text_turn: TextTurnModel, heard: Heard, heard_s: float, finished: float,
                  if_going_on: float | None) -> list[float]:
    """features() and four more read off the transcript (HOLD_FEATURES' order): the last word's length, that
    length against the voice's rate so far, the share of the beam's other hypotheses that end without a closing
    mark, whether one ends in a comma."""
    said = words(heard.text)
    length = heard.last_word_end_s - heard.last_word_start_s if heard.last_word_start_s is not None else 0.0
    rate = heard.last_word_end_s / max(1, len(said)) if heard.last_word_end_s else 0.3   # seconds a word, so far
    others = heard.alternatives
    left_open = (sum(not other.rstrip().endswith((".", "?", "!")) for other in others) / len(others)
                 if others else 0.0)
    return features(text_turn, heard, heard_s, finished, if_going_on) + [
        min(length, 2.0), min(length / max(rate, 0.05), 4.0), left_open,
        float(any(other.rstrip().endswith(",") for other in others))]


class Regression:
    """A trained model's probability that a pause ends the request, from its JSON (bench/turn_judge.py,
    bench/turn_hold.py write them): standardised features, then a layer of tanh units where the JSON has one
    ("hidden"), then a logistic output."""

    def __init__(self, data: dict):
        self.mean, self.scale = np.array(data["mean"]), np.array(data["scale"])
        hidden = data.get("hidden")
        self.hidden = (np.array(hidden["weights"]), np.array(hidden["bias"])) if hidden else None
        self.weights, self.bias = np.array(data["weights"]), float(data["bias"])

    def probabilities(self, rows: np.ndarray) -> np.ndarray:
        """One probability per row of features (a 2-D array), or one for a single row."""
        z = (np.asarray(rows, dtype=float) - self.mean) / self.scale
        if self.hidden is not None:
            z = np.tanh(z @ self.hidden[0] + self.hidden[1])
        return 1.0 / (1.0 + np.exp(-(z @ self.weights + self.bias)))


class TurnJudge:
    """Loaded once and shared; a call is the network over 17 numbers and four of the text judge's (about 0.25
    ms, run on the transcription queue's thread with the transcript).
    path: a judge's JSON, the server's (turn-hold.json) unless given; the second look's (WEIGHTS_PATH) holds
    nothing short."""

    def __init__(self, text_turn: TextTurnModel, path: str | Path | None = None):
        self.text_turn = text_turn
        data = json.loads(Path(path or verified("voice", "data/turn-hold.json")).read_text())
        names = tuple(data["features"])
        if names not in (FEATURES, HOLD_FEATURES):
            raise ValueError(f"turn judge weights are for features {data['features']}, neither {HOLD_FEATURES} "
                             f"(the server's) nor {FEATURES} (the second look's)")
        self.features = hold_features if names == HOLD_FEATURES else features
        self.regression = Regression(data)
        self.end_above, self.hold_below = float(data["end_above"]), float(data["hold_below"])
        self.short_below, self.hold_ms = float(data.get("short_below", self.hold_below)), int(data.get("hold_ms", 0))

    def probability(self, row: list[float]) -> float:
        """The model's probability that a pause with this evidence (self.features()) ends the request."""
        return float(self.regression.probabilities(row))

    def judge(self, heard: Heard, heard_s: float, words_done: float) -> tuple[float, float | None, int]:
        """The words' verdicts on a pause's transcript (TextTurnModel.judge, judge_going_on), overruled where the
        model is sure, and the short hold (ms, 0: none) for the turn detector. heard_s: the length of the audio
        heard; words_done: the turn detector's threshold for words that say finished."""
        finished = self.text_turn.judge(heard)
        if_going_on = self.text_turn.judge_going_on(heard, finished)
        probability = self.probability(self.features(self.text_turn, heard, heard_s, finished, if_going_on))
        return self.look(probability, finished, if_going_on, self.end_above, self.hold_below, self.short_below,
                         self.hold_ms, words_done)

    @staticmethod
    def second_look(probability: float, finished: float, if_going_on: float | None, end_above: float,
                    hold_below: float, words_done: float) -> tuple[float, float | None]:
        """Cut words read finished (just so: the sound still decides the wait) when the regression says
        finished at or above end_above; finished words read cut when it says below hold_below."""
        if finished < words_done and probability >= end_above:
            return words_done, None
        if finished >= words_done and probability < hold_below:
            return 0.0, None
        return finished, if_going_on

    @staticmethod
    def look(probability: float, finished: float, if_going_on: float | None, end_above: float, hold_below: float,
             short_below: float, hold_ms: int, words_done: float) -> tuple[float, float | None, int]:
        """The second look, and finished words held short (hold_ms) where the model says from hold_below to
        short_below."""
        short = finished >= words_done and hold_below <= probability < short_below
        return (*TurnJudge.second_look(probability, finished, if_going_on, end_above, hold_below, words_done),
                hold_ms if short else 0)
