"""How long semantic_vad waits at a pause, learned from the turn replays' recorded evidence in every voice.

The turn detector's thresholds (streaming.turns) read each judge's verdict on its own: words read cut wait the cut
wait (960 ms at the default eagerness) whatever the rest says, and most late turns of the replays waited there
after a finished request the words read cut ("Works for me.", "Rather not."). This decision weighs everything
known at the pause together, a logistic regression over the text judge's verdicts, the probability of the judge
that may also hold (voice.turn_judge, turn-hold.json), Whisper's probability of the closing mark, how long ago
the last word began, the number of words, whether the words are a whole answer ("Yes.", "No thanks.", "Thanks.":
assistant.vocabulary's answers to a yes/no question, agreeing words and trailing words), and Smart Turn's
probability. Its probability that the speaker has finished picks the wait: at or above `done_above` the `done`
wait (the thresholds' wait when the words and the sound both say finished), at or above `unsure_above` the
`unsure` wait, below it the `cut` wait. The turn detector waits the shorter of that and the thresholds' wait: the decision
ends finished requests the words read cut sooner, and a short finished request ("What time is it?", which the
replays' many paused questions make it doubt) keeps the thresholds' wait. Only below `hold_below`, where the
decision is sure the speaker goes on, does the turn wait the cut wait whatever the thresholds say: most premature
turns of the replays ended at the thresholds' short waits after a first half that reads finished ("Set a timer
for twelve minutes | for the pasta.").

The weights and the thresholds (voice/data/turn-decision.json) are trained and chosen out of fold by sentence by
bench/turn_decision.py on the replays' recorded evidence.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

from assistant.vocabulary import AGREEING, NO, TRAILING_WORDS, YES
from voice.stt import Heard
from voice.text_turn import words
from voice.turn_judge import HOLD_FEATURES, Regression, TurnJudge, hold_features
from voice.weights import verified

WEIGHTS_PATH = Path(__file__).resolve().parent / "data" / "turn-decision.json"   # where the trainer writes them
WORDS_FEATURES = ("words", "words if going on", "a whole answer", "words heard", "the judge that may also hold",
                  "closing mark's probability", "since the last word began")
FEATURES = WORDS_FEATURES + ("Smart Turn",)
ANSWER_WORDS = frozenset(w for answer in (*YES, *NO, *AGREEING) for w in words(answer)) | TRAILING_WORDS


def _logit(p: float) -> float:
    p = min(max(p, 1e-4), 1 - 1e-4)
    return math.log(p / (1 - p))


def words_evidence(hold_judge: TurnJudge, heard: Heard, heard_s: float) -> tuple[float, ...]:
    """The words' side of a pause's evidence (WORDS_FEATURES' order): what is known once its transcript is in.
    hold_judge: the judge that may also hold, whose features (voice.turn_judge.HOLD_FEATURES) it reads."""
    text_turn = hold_judge.text_turn
    finished = text_turn.judge(heard)
    row = hold_features(text_turn, heard, heard_s, finished, text_turn.judge_going_on(heard, finished))
    said = words(heard.text)
    named = dict(zip(HOLD_FEATURES, row))
    return (named["words"], named["words if going on"], float(bool(said) and all(w in ANSWER_WORDS for w in said)),
            named["words heard"], _logit(hold_judge.probability(row)), named["closing mark's probability"],
            named["since the last word began"])


def features(words_row: tuple[float, ...], sound: float) -> list[float]:
    """A pause's whole evidence (FEATURES' order): the words' side and Smart Turn's probability."""
    return [*words_row, _logit(sound)]


class TurnDecision:
    """The regression and its three thresholds, loaded once and shared; a pause's wait is one regression over eight
    numbers (microseconds), weighed once the words and the sound are both in."""

    def __init__(self, hold_judge: TurnJudge, data: dict | None = None):
        self.hold_judge = hold_judge
        data = data or json.loads(verified("voice", "data/turn-decision.json").read_text())
        if tuple(data["features"]) != FEATURES:
            raise ValueError(f"turn decision weights are for features {data['features']}, not {FEATURES}")
        self.regression = Regression(data)
        self.done_above, self.unsure_above = float(data["done_above"]), float(data["unsure_above"])
        self.hold_below = float(data["hold_below"])

    def evidence(self, heard: Heard, heard_s: float) -> PauseEvidence:
        """The words' side of the evidence at a pause, for the turn detector to weigh with the sound's."""
        return PauseEvidence(words_evidence(self.hold_judge, heard, heard_s), self)

    def probability(self, words_row: tuple[float, ...], sound: float) -> float:
        """The probability that the speaker has finished, given the words' side and Smart Turn's probability."""
        return float(self.regression.probabilities(features(words_row, sound)))

    def wait(self, words_row: tuple[float, ...], sound: float) -> str:
        """Which of the turn detector's waits (a streaming.turns.SemanticWaits field) ends the turn; "hold": the
        cut wait even where the thresholds' wait is shorter (the decision is sure the speaker goes on)."""
        probability = self.probability(words_row, sound)
        if probability >= self.done_above:
            return "done"
        if probability >= self.unsure_above:
            return "unsure"
        return "cut" if probability >= self.hold_below else "hold"


@dataclass(frozen=True)
class PauseEvidence:
    """The words' side of one pause's evidence and the decision that weighs it: what the transcription queue hands
    the turn detector with the words' verdicts."""
    words: tuple[float, ...]
    decision: TurnDecision

    def wait(self, sound: float) -> str:
        return self.decision.wait(self.words, sound)
