"""What the recogniser writes at a pause: training rows for the words judge (voice/text_turn.py) from speech.

The words judge learnt from typed requests and their cuts, but at a pause it reads Whisper's transcript, which
completes or truncates a cut sentence and writes a finished one its own way. This speaks corpus requests in the
synthetic voices (bench/voices.py), each whole or with a pause after a word as bench/turn_taking.py builds its
utterances (the sentence synthesised whole, silence inserted at Whisper's time of that word), finds the pauses
the server's turn detector sees in Silero's probabilities, and transcribes the audio up to each with the server's
pause transcription (`WhisperSTT.hear`, as the session and the replay call it). A pause before the last word's
end is a cut, one after it a finished request. No turn set's sentence (bench/turn_taking.py's sets and the words
judge's dev halves) is spoken: the requests are drawn from a corpus seed of their own, and any equal in its words
to a turn set's sentence is skipped. festival kal is never spoken (the replays report it apart). Rows are
appended as they come (a run can stop and go on). The weights trained on them in round 22 were not kept (the
turn judge's second look, fit on the shipped words' verdicts, must be refit with them: docs/history/turn-taking.md).

    PYTHONPATH=$PWD nice -n 5 .venv/bin/python bench/turn_heard.py --requests 400 --shard 0/2   # and 1/2 beside it
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from paused_speech import RATE, insert_pause, pause_point, speech_end  # noqa: E402
from turn_taking import LEAD_MS, PAUSES_MS, SENTENCES, TAIL_MS  # noqa: E402
from voices import VOICES, speak  # noqa: E402

HEARD_PATH = ROOT / "bench" / "turn_heard.jsonl"
HELD_OUT_VOICE = "festival kal"     # never spoken here: the replays report it apart, a voice the judge never heard
TURN_WORDS_DEV = [ROOT / "tests" / "data" / f"turn_words_dev_{half}.jsonl" for half in ("a", "b")]
CORPUS_SEED = 5                     # not the trainer's 0 nor its check's 1
PAUSED_SHARE = 0.6                  # of the spoken requests, those with a pause inside


def turn_set_words() -> set[tuple[str, ...]]:
    """Every turn set's sentence as the words judge reads it: none may be spoken here."""
    from voice.text_turn import words
    said = {tuple(words(text)) for complete, paused in SENTENCES.values()
            for text in [*complete, *(text for text, _ in paused)]}
    for path in TURN_WORDS_DEV:
        said |= {tuple(words(json.loads(line)["text"])) for line in path.read_text().splitlines() if line.strip()}
    return said


def requests(count: int, seed: int) -> list[str]:
    """Distinct corpus user requests of three words or more, in a seeded order, none a turn set's sentence."""
    from assistant.corpus import generate_corpus
    from voice.text_turn import words
    banned, seen, found = turn_set_words(), set(), []
    examples = 0
    while len(found) < count:
        for example in generate_corpus(2000, seed * 1000 + examples // 2000):
            for message in example.history:
                tokens = tuple(words(message["content"]))
                if message["role"] == "user" and len(tokens) >= 3 and tokens not in banned and tokens not in seen:
                    seen.add(tokens)
                    found.append(message["content"])
        examples += 2000
    random.Random(seed).shuffle(found)
    return found[:count]


def pauses(audio: np.ndarray, vad_model) -> list[int]:
    """The frames (of 512 samples) after which the server's turn detector signals a pause."""
    from streaming.turns import Signal, TurnDetection, TurnDetector
    from voice.vad import SileroVAD
    vad, listener, frame = SileroVAD(vad_model), TurnDetector(TurnDetection(type="semantic_vad")), 512
    return [index + 1 for index, start in enumerate(range(0, audio.size - frame + 1, frame))
            if listener.process(vad.probability(audio[start:start + frame])) is Signal.PAUSE]


def rows_of(stt, vad_model, voice: str, text: str, after: int, pause_ms: int) -> list[dict]:
    """The transcripts at each pause of one request spoken in one voice, each labelled finished or cut; with
    pause_ms of silence after its `after`-th word (0: said whole)."""
    audio = speak(voice, text)
    if after:
        audio = insert_pause(audio, pause_point(stt.whisper, audio, text, after), pause_ms)
    end_ms = LEAD_MS + speech_end(audio) * 1000 / RATE
    audio = np.concatenate([np.zeros(RATE * LEAD_MS // 1000, np.float32), audio,
                            np.zeros(RATE * TAIL_MS // 1000, np.float32)])
    rows = []
    for frames in pauses(audio, vad_model):
        at_ms = frames * 512 * 1000 / RATE
        if at_ms > end_ms + 1000:
            break
        heard = stt.hear(audio[:frames * 512])
        rows.append({"voice": voice, "request": text, "after_words": after, "at_ms": round(at_ms),
                     "finished": at_ms >= end_ms,
                     "text": heard.text, "unprompted": heard.unprompted, "alternatives": list(heard.alternatives),
                     "word_probabilities": [(w, round(p, 4)) for w, p in heard.word_probabilities]})
        if rows[-1]["finished"]:
            break
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=str(HEARD_PATH), help="JSON lines, appended to")
    parser.add_argument("--requests", type=int, default=400, help="corpus requests, each in one voice")
    parser.add_argument("--shard", default="0/1", help="K/N: this process speaks every Nth request from the Kth")
    args = parser.parse_args(argv)
    from voice.stt import WhisperSTT
    from voice.vad import SileroModel

    shard, shards = map(int, args.shard.split("/"))
    voices = [voice for voice in VOICES if voice != HELD_OUT_VOICE]
    todo = list(enumerate(requests(args.requests, CORPUS_SEED)))[shard::shards]
    out = Path(args.out)
    done = {(row["voice"], row["request"]) for row in map(json.loads, out.read_text().splitlines())} \
        if out.exists() else set()
    stt, vad_model = WhisperSTT(cpu_threads=1), SileroModel()
    started, written = time.monotonic(), 0
    for n, (index, text) in enumerate(todo, 1):
        voice = voices[index % len(voices)]
        if (voice, text) in done:
            continue
        rng = random.Random(f"{CORPUS_SEED} {index}")
        after = rng.randrange(1, len(text.split())) if rng.random() < PAUSED_SHARE else 0
        rows = rows_of(stt, vad_model, voice, text, after, rng.choice(PAUSES_MS))
        with out.open("a") as file:
            file.writelines(json.dumps(row) + "\n" for row in rows)
        written += len(rows)
        print(f"[{n}/{len(todo)}] {voice}: {text!r}: {len(rows)} pauses, {written} rows "
              f"({time.monotonic() - started:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
