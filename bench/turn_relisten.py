"""semantic_vad hearing the words again at RELISTEN_MS of silence (streaming.turns Signal.RELISTEN), decided on the
turn replays' recorded evidence with only the second transcriptions computed.

A full replay (bench/turn_taking.py --replay) transcribes every pause; this rebuilds a set's audio, keeps each
recorded utterance whose Silero probabilities equal the recorded ones (every voice but Piper, whose synthesis is
sampled anew), and transcribes only where the detector asks to hear the words again, through the replay's own
judges (the pause's evidence in the replay's form, written into the evidence). Then the replay's loop
(bench/turn_judge.py decide) decides each utterance with and without the second hearing on the same evidence.
Premature (all / paused) / late > 600 ms / turn end p50, all voices and per voice.

    PYTHONPATH=$PWD nice -n 5 .venv/bin/python bench/turn_relisten.py turn_evidence_dev.json --sentences dev \
        --voices espeak-ng --write OUT.json
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from streaming.turns import TurnDetector  # noqa: E402
from text_turn_replay import recorded  # noqa: E402
from turn_judge import decide, per_voice_table  # noqa: E402
from turn_taking import WORDS_JUDGES, _evidence, build_set  # noqa: E402
from voices import VOICES  # noqa: E402


class HearingOnce(TurnDetector):
    """The detector before the second hearing: the words that read cut hold for the cut wait."""

    @property
    def reads_cut(self) -> bool:
        return False


def heard_again(old: list[dict], sentences: str, voices: list[str]) -> list[dict]:
    """The recorded utterances of those voices whose audio is built the same again, with the words heard again
    wherever the detector asks."""
    from voice.audio import pcm16_to_float
    from voice.smart_turn import SmartTurnModel
    from voice.stt import WhisperSTT
    from voice.text_turn import TextTurnModel
    from voice.turn_judge import TurnJudge
    from voice.vad import SileroModel, SileroVAD
    from voice.weights import verified

    stt, turn_model, vad_model, text_turn = WhisperSTT(cpu_threads=1), SmartTurnModel(), SileroModel(), TextTurnModel()
    judges = {"auto": TurnJudge(text_turn, verified("voice", "data/turn-judge.json")), "low": TurnJudge(text_turn)}
    by_label, frame, kept = {u["label"]: u for u in old}, 512, []
    for utterance in build_set(stt.whisper, sentences, voices):
        recorded_one = by_label.get(utterance.label)
        audio = pcm16_to_float(utterance.pcm16)
        vad = SileroVAD(vad_model)
        probabilities = [round(vad.probability(audio[i:i + frame]), 4) for i in range(0, audio.size - frame + 1, frame)]
        if recorded_one is None or probabilities != recorded_one["probabilities"]:
            continue
        pauses = recorded_one["pauses"]

        class Hearing(dict):
            """The recorded pauses; a hearing the evidence lacks is transcribed and judged, and recorded."""
            def __missing__(self, frames: str) -> dict:
                upto = audio[:int(frames) * frame]
                heard = stt.hear(upto)
                judged = {name: words_judge(judges, heard, upto.size / 16000)
                          for name, words_judge in WORDS_JUDGES.items()}
                pauses[frames] = _evidence(text_turn, heard, judged, turn_model.finished(upto), upto.size)
                return pauses[frames]
        decide(recorded_one | {"pauses": Hearing(pauses)}, recorded)
        kept.append(recorded_one)
        print(f"{utterance.label}: {len(pauses)} hearings", flush=True)
    return kept


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("evidence", nargs="+", help="turn_evidence_SET.json files (bench/turn_taking.py --replay)")
    parser.add_argument("--sentences", help="hear again: the set whose audio is built again")
    parser.add_argument("--voices", nargs="+", choices=list(VOICES), default=list(VOICES), help="with --sentences")
    parser.add_argument("--write", help="with --sentences: the evidence file to write")
    args = parser.parse_args(argv)
    if args.sentences:
        (path,) = args.evidence
        kept = heard_again(json.loads(Path(path).read_text()), args.sentences, args.voices)
        Path(args.write).write_text(json.dumps(kept))
        print(f"{len(kept)} utterances heard again, written to {args.write}")
        return 0
    for path in args.evidence:
        utterances = json.loads(Path(path).read_text())
        outcomes = {"heard once (main)": [decide(u, recorded, HearingOnce) for u in utterances],
                    "heard again at RELISTEN_MS": [decide(u, recorded) for u in utterances]}
        print(per_voice_table(f"{Path(path).stem} ({len(utterances)} utterances)", outcomes) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
