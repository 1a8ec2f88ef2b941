"""semantic_vad's later look at the sound, decided again on the turn replays' recorded evidence, no audio.

At `look` ms of silence after a pause whose words read cut, the session hears Smart Turn again on the speech and
the silence so far (streaming.turns Signal.LOOK); a probability at or above `later_done` ends the turn then instead
of at the cut wait. bench/turn_taking.py --replay records Smart Turn at each of its LATER_SOUND_MS silences after
every pause, so each (look, later_done) point is decided here by the replay's own loop (bench/turn_judge.py
decide) against a detector with no later look (the cut wait only, as before round 23). Premature (all / paused) /
late > 600 ms / turn end p50, all voices and per voice.

    PYTHONPATH=$PWD nice -n 5 .venv/bin/python bench/turn_look.py EVIDENCE.json --looks 192 256 --done 0.9 0.95

Evidence recorded before the later sound was (round 22's replays) gets it with --hear-again SET: the set's audio
is built again and each utterance whose Silero probabilities equal the recorded ones (every voice's synthesis but
Piper's, which samples anew each run) has Smart Turn heard at the recorded pauses' later silences; the others are
left out of the written file. No Whisper: the recorded verdicts stand.

    PYTHONPATH=$PWD nice -n 5 .venv/bin/python bench/turn_look.py OLD.json --hear-again fresh8 --voices espeak-ng \
        --write NEW.json
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
from turn_judge import decidable, decide, per_voice_table  # noqa: E402
from turn_taking import LATER_SOUND_MS, build_set, _later_frames  # noqa: E402
from voices import VOICES  # noqa: E402


def looking(look_ms: int | None, done: float = 1.0) -> type:
    """TurnDetector hearing the sound again at look_ms (None: never, the detector before the later look)."""
    class Looking(TurnDetector):
        later_done = done

        @property
        def look_ms(self) -> int:
            return self._waits.cut if look_ms is None else look_ms
    return Looking


def heard_again(recorded: list[dict], sentences: str, voices: list[str], looks: list[int]) -> list[dict]:
    """The recorded utterances of those voices whose audio is built the same again, each pause with Smart Turn
    heard at the looks' silences (bench/turn_taking.py's "later_sound")."""
    from voice.audio import pcm16_to_float
    from voice.smart_turn import SmartTurnModel
    from voice.stt import WhisperSTT
    from voice.vad import SileroModel, SileroVAD

    by_label = {u["label"]: u for u in recorded}
    turn_model, vad_model, frame = SmartTurnModel(), SileroModel(), 512
    kept = []
    for utterance in build_set(WhisperSTT(cpu_threads=1).whisper, sentences, voices):
        old = by_label.get(utterance.label)
        audio = pcm16_to_float(utterance.pcm16)
        vad = SileroVAD(vad_model)
        probabilities = [round(vad.probability(audio[i:i + frame]), 4) for i in range(0, audio.size - frame + 1, frame)]
        if old is None or probabilities != old["probabilities"]:
            continue
        for frames, pause in old["pauses"].items():
            pause["later_sound"] = {str(ms): round(turn_model.finished(audio[:at * frame]), 4)
                                    for ms, at in _later_frames(probabilities, int(frames)).items() if ms in looks}
        kept.append(old)
    return kept


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("evidence", nargs="+", help="turn_evidence_SET.json files (bench/turn_taking.py --replay)")
    parser.add_argument("--looks", nargs="+", type=int, default=list(LATER_SOUND_MS), choices=LATER_SOUND_MS,
                        help="silences (ms) at which the sound is heard again")
    parser.add_argument("--done", nargs="+", type=float, default=[0.9], help="later_done thresholds")
    parser.add_argument("--hear-again", metavar="SET", help="add the later sound to evidence recorded without it")
    parser.add_argument("--voices", nargs="+", choices=list(VOICES), default=list(VOICES), help="with --hear-again")
    parser.add_argument("--write", help="with --hear-again: the evidence file to write")
    args = parser.parse_args(argv)
    if args.hear_again:
        (path,) = args.evidence
        kept = heard_again(json.loads(Path(path).read_text()), args.hear_again, args.voices, args.looks)
        Path(args.write).write_text(json.dumps(kept))
        print(f"{len(kept)} utterances heard again, written to {args.write}")
        return 0
    for path in args.evidence:
        utterances, left_out = decidable(json.loads(Path(path).read_text()))
        outcomes = {"no later look": [decide(u, recorded, looking(None)) for u in utterances]} | {
            f"look {look} ms ≥ {done}": [decide(u, recorded, looking(look, done)) for u in utterances]
            for look in args.looks for done in args.done}
        print(per_voice_table(f"{Path(path).stem.removeprefix('turn_evidence_')} ({len(utterances)} utterances, "
                              f"{left_out} left out: a pause their evidence lacks)", outcomes) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
