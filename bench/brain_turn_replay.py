"""The assistant's own reading of a pause's transcript as evidence of a turn's end, judged on the turn replays'
recorded evidence, no audio.

At each recorded pause the embedded generator (the one the session answers with, default home, held back as a
speculation is) replies to the pause's transcript and to each of Whisper's beam hypotheses; what it does is its
reading: a call, an answer, a refusal, "didn't catch that" (unheard), a greeting, a question back. Rules combine it
with the server's words verdict as the replay recorded it (a call releases cut words, released(); "didn't catch
that" holds finished ones), and semantic_vad decides the turn ends by the replay's own loop (bench/turn_judge.py
decide); the recorded verdicts decided again give the replay's own figures first. Premature / late / turn end p50
per voice, and the CPU time of one reply (median).

    PYTHONPATH=$PWD nice -n 5 .venv/bin/python bench/brain_turn_replay.py EVIDENCE.json ...
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from turn_judge import decidable, decide, per_voice_table  # noqa: E402
from assistant.embedded import EmbeddedGenerator  # noqa: E402
from assistant.generator import respond_sync  # noqa: E402
from assistant.reply import NOT_UNDERSTOOD, REPLIES  # noqa: E402
from assistant.tools import ToolRunner  # noqa: E402
from streaming.turns import TurnDetector  # noqa: E402
from voice.heard_text import said_words  # noqa: E402
from voice.text_turn import NUMBER, words  # noqa: E402

READINGS = {REPLIES["cant"]: "refused", REPLIES["unknown_name"]: "refused", NOT_UNDERSTOOD: "unheard",
            REPLIES["greeting"]: "greeting", REPLIES["which_room"]: "asks"}


def reading(generator: EmbeddedGenerator, text: str) -> tuple[str, float]:
    """What the assistant does with a transcript, and the CPU ms its reply took."""
    started = time.process_time()
    reply = respond_sync(generator, [{"role": "user", "content": said_words(text)}], ToolRunner())
    spent = (time.process_time() - started) * 1000
    return ("call" if reply.tool_calls else READINGS.get(reply.text, "answer")), spent


def ends_in_number(text: str) -> bool:
    said = words(text)
    return bool(said) and said[-1] == NUMBER


def released(brain: dict[str, str], pause: dict, checks: frozenset[str]) -> bool:
    """Whether the assistant's reading releases a cut words verdict: it makes a call of the transcript, and each
    check holds: "prompt", no prompt check fired (Whisper heard the same without the home's words); "beam", every
    beam hypothesis is a call too; "number", the transcript does not end in a number unless it is a question."""
    text = pause["text"]
    return (brain[text] == "call" and ("prompt" not in checks or pause["unprompted"] is None)
            and ("beam" not in checks or all(brain[other] == "call" for other in pause["alternatives"]))
            and ("number" not in checks or not ends_in_number(text) or text.rstrip().endswith("?")))


def recorded(utterance, frames, pause):
    """The server's default verdict as the replay recorded it."""
    return pause["judged"][0], pause["judged"][1]


def released_by(brain: dict[str, str], checks: frozenset[str]):
    """The server's verdict, cut words read finished (just so: the sound still decides the wait) where released."""
    def verdict(utterance, frames, pause):
        words_said, going_on = recorded(utterance, frames, pause)
        if words_said < TurnDetector.words_done and released(brain, pause, checks):
            return TurnDetector.words_done, None
        return words_said, going_on
    return verdict


def held_unheard(brain: dict[str, str]):
    """The server's verdict, finished words read cut where the assistant did not catch the transcript."""
    def verdict(utterance, frames, pause):
        words_said, going_on = recorded(utterance, frames, pause)
        if words_said >= TurnDetector.words_done and brain[pause["text"]] == "unheard":
            return 0.0, None
        return words_said, going_on
    return verdict


RELEASES = {"call": frozenset(), "call, prompt": frozenset({"prompt"}),
            "call, prompt, beam": frozenset({"prompt", "beam"}),
            "call, prompt, number": frozenset({"prompt", "number"}),
            "call, prompt, beam, number": frozenset({"prompt", "beam", "number"})}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("evidence", nargs="+", help="turn_evidence_SET.json files (bench/turn_taking.py --replay)")
    args = parser.parse_args(argv)
    generator = EmbeddedGenerator.load()
    respond_sync(generator, [{"role": "user", "content": "hello"}], ToolRunner())      # warm-up
    for path in args.evidence:
        utterances, left_out = decidable(json.loads(Path(path).read_text()))
        brain, spent = {}, []
        heard = {text for u in utterances for p in u["pauses"].values() for text in [p["text"], *p["alternatives"]]}
        for text in sorted(heard):
            brain[text], ms = reading(generator, text)
            spent.append(ms)
        outcomes = ({"as recorded": [decide(u, recorded) for u in utterances],
                     "hold unheard": [decide(u, held_unheard(brain)) for u in utterances]}
                    | {name: [decide(u, released_by(brain, checks)) for u in utterances]
                       for name, checks in RELEASES.items()})
        name = Path(path).stem.removeprefix("turn_evidence_")
        print(per_voice_table(f"{name} ({len(utterances)} utterances, {left_out} left out: a pause their evidence "
                              "lacks)", outcomes))
        print(f"\nreadings of {len(brain)} transcripts: {dict(Counter(brain.values()))}; CPU per reply median "
              f"{statistics.median(spent):.1f} ms, p90 {sorted(spent)[int(0.9 * len(spent))]:.1f} ms\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
