"""Other weights for the words judge (voice/text_turn.py), judged on the turn replays' recorded evidence, no audio.

Each pause's transcript (with Whisper's word probabilities, the prompt check's text and the beam's hypotheses) is
judged again by the text turn judge with each set of weights, then by the server's default judge over it (the
second look, voice/data/turn-judge.json, as bench/turn_taking.py's "shipped"), and semantic_vad decides the turn
ends by the replay's own loop (bench/turn_judge.py decide). The shipped weights judged again give the replay's
own figures (the "as recorded" column), so every column comes from the same run. Premature / late / turn end
p50, all voices and per voice.

    PYTHONPATH=$PWD nice -n 5 .venv/bin/python bench/text_turn_replay.py EVIDENCE.json --weights NEW.npy
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from turn_judge import decidable, decide, heard_of, per_voice_table  # noqa: E402
from streaming.turns import TurnDetector  # noqa: E402
from voice.text_turn import TextTurnModel  # noqa: E402
from voice.turn_judge import WEIGHTS_PATH, TurnJudge  # noqa: E402


def recorded(utterance, frames, pause):
    """The server's default verdict as the replay recorded it."""
    return pause["judged"][0], pause["judged"][1]


def rejudged(judge: TurnJudge):
    """The server's default verdict at each recorded pause, its text turn judge reading the transcript anew."""
    def verdict(utterance, frames, pause):
        words, going_on, _ = judge.judge(heard_of(pause), pause["heard_s"], TurnDetector.words_done)
        return words, going_on
    return verdict


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("evidence", nargs="+", help="turn_evidence_SET.json files (bench/turn_taking.py --replay)")
    parser.add_argument("--weights", nargs="+", required=True,
                        help="text turn weights (.npy) to set beside the shipped")
    args = parser.parse_args(argv)
    judges = {"shipped weights": TurnJudge(TextTurnModel(), WEIGHTS_PATH)} | {
        Path(path).name: TurnJudge(TextTurnModel(path), WEIGHTS_PATH) for path in args.weights}
    for path in args.evidence:
        utterances, left_out = decidable(json.loads(Path(path).read_text()))
        outcomes = {"as recorded": [decide(u, recorded) for u in utterances]} | {
            name: [decide(u, rejudged(judge)) for u in utterances] for name, judge in judges.items()}
        print(per_voice_table(f"{Path(path).stem.removeprefix('turn_evidence_')} ({len(utterances)} utterances, "
                              f"{left_out} left out: a pause their evidence lacks)", outcomes) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
