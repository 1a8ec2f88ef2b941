"""Speech-recognition slips taken from Whisper itself, and what the assistant does with them.

Every self-contained request of the two held-out files (tests/data/heldout.jsonl, heldout_home.jsonl) is
spoken by Piper and by espeak-ng. Each recording is heard twice by the server's Whisper: as wideband 16 kHz
audio, and as a phone line carries it (8 kHz G.711 μ-law, then back up to 16 kHz, as the Twilio and
AudioSocket paths do). As in the server, Whisper's prompt starts with the home's names for the made-up
home's requests (ToolRunner.spoken_names; the default home has none). A slip is a transcript whose words
differ from the request's, with digits spelled out before comparing. `--build` writes the slips to
tests/data/asr_slips.jsonl; without it, the committed file is evaluated. Piper speaks without its sampling noise
(paused_speech.piper, sampled=False), so `--build` and `--names` hear the same recordings on every run.

The assistant answers each slip as a fresh conversation, at its default decoding. Three outcomes:
- right: the call the request wanted, judged as bench/assistant_eval.py judges it; for a request that wants
  no tool, or names a device that does not exist, no change to the home;
- no action: nothing happened. No tool ran, or every tool it called did nothing and said so in a sentence of
  its own (a NoAction: it asked which one or for a yes, knew no such name, or found the details impossible).
  For a slip that changed the meaning, that is the safe outcome;
- wrong action: a tool changed something (a timer included), or answered, other than asked.

Two rows pick out single-word slips: "one word misheard" has as many words as were said, one of them different
(any word, a name's included); "little word misheard" is the part of those where both words are among the
issue's little words (is/in/his, the/a, to/two/too, for/four, of/off), which must never change the action.

    PYTHONPATH=$PWD .venv/bin/python bench/asr_slips.py --build     # hear everything again, rewrite the set
    PYTHONPATH=$PWD .venv/bin/python bench/asr_slips.py             # evaluate the committed set
    PYTHONPATH=$PWD .venv/bin/python bench/asr_slips.py --checkpoint runs/parley-home   # another model
    PYTHONPATH=$PWD .venv/bin/python bench/asr_slips.py --names     # the home's names in Whisper's prompt or not

`--names` hears every recording of the made-up home's requests twice, with Whisper's fixed prompt and with
the home's names in front of it, and answers every transcript, slip or not: what the names buy end to end.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from assistant.embedded import EmbeddedGenerator  # noqa: E402
from assistant.tools import ToolRunner  # noqa: E402
from assistant_eval import answered_nothing, ask, calls_of, new_home, score  # noqa: E402
from voice_speed import normalised_words  # noqa: E402

SLIPS = ROOT / "tests" / "data" / "asr_slips.jsonl"
HELDOUT = [("heldout", ROOT / "tests" / "data" / "heldout.jsonl"),
           ("heldout_home", ROOT / "tests" / "data" / "heldout_home.jsonl")]


def requests() -> list[dict]:
    """The self-contained held-out rows, each tagged with its file."""
    rows = []
    for name, path in HELDOUT:
        for line in path.read_text().splitlines():
            row = json.loads(line) if line.strip() else None
            if row and len(row["history"]) == 1:
                rows.append({**row, "file": name})
    return rows


def phone_band(audio16):
    """What a phone line leaves of 16 kHz speech: 8 kHz μ-law, back at 16 kHz."""
    from voice.audio import mulaw_decode, mulaw_encode, resample
    return resample(mulaw_decode(mulaw_encode(resample(audio16, 16000, 8000))), 8000, 16000)


def recordings(rows: list[dict]):
    """(row, voice, band, 16 kHz audio) for each request, voice and band."""
    from paused_speech import espeak, piper

    from voice.tts import PiperTTS

    tts = PiperTTS()
    voices = {"piper": lambda text: piper(tts, text, sampled=False), "espeak-ng": lambda text: espeak(text)}
    for row in rows:
        for voice, speak in voices.items():
            wide = speak(row["history"][0]["content"])
            for band, audio in (("wideband", wide), ("phone", phone_band(wide))):
                yield row, voice, band, audio


def home_names() -> dict[str, tuple[str, ...]]:
    """What the server's Whisper is told to expect in each home of the held-out rows, by the rows' "home"."""
    return {kind: ToolRunner(new_home(kind)).spoken_names() for kind in ("default", "made_up")}


def build(rows: list[dict]) -> list[dict]:
    from voice.stt import WhisperSTT

    stt, names = WhisperSTT(), home_names()
    slips, clips = [], 0
    for row, voice, band, audio in recordings(rows):
        said = row["history"][0]["content"]
        clips += 1
        heard = stt.transcribe(audio, names=names[row.get("home", "default")])
        if normalised_words(heard) != normalised_words(said):
            slips.append({"file": row["file"], "id": row["id"], "voice": voice, "band": band,
                          "said": said, "heard": heard})
        print(f"\r{clips}/{4 * len(rows)} recordings: {len(slips)} slips", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return slips


def compare_names(rows: list[dict], checkpoint: str | None, errors: bool) -> None:
    """Print the --names table (see the module docstring); with errors, each recording answered differently."""
    from voice.stt import WhisperSTT

    rows = [row for row in rows if row.get("home") == "made_up"]
    stt, assistant = WhisperSTT(), EmbeddedGenerator.load(checkpoint)
    prompts = {"fixed": (), "the home's names, then fixed": home_names()["made_up"]}
    counts = {name: {"exact": 0, "right": 0, "no action": 0, "wrong action": 0, "ms": []} for name in prompts}
    clips, differ = 0, []
    for row, voice, band, audio in recordings(rows):
        clips += 1
        answers = []
        for name, names in prompts.items():
            started = time.perf_counter()
            heard = stt.transcribe(audio, names=names)
            counts[name]["ms"].append(1000 * (time.perf_counter() - started))
            counts[name]["exact"] += normalised_words(heard) == normalised_words(row["history"][0]["content"])
            result, did = outcome(assistant, row, heard)
            counts[name][result] += 1
            answers.append(f"{heard!r} {result}: {did}")
        if len({a.split(": ")[0] for a in answers}) > 1:
            differ.append(f"{voice:<9} {band:<8} {row['history'][0]['content']!r}\n    " + "\n    ".join(answers))
        print(f"\r{clips}/{4 * len(rows)} recordings", end="", file=sys.stderr, flush=True)
    print(f"\n\nThe made-up home's {len(rows)} self-contained requests, {clips} recordings (2 voices, 2 bands), "
          f"every transcript answered in a fresh conversation:\n")
    print("| Whisper's prompt | heard word for word | right | no action | wrong action | median ms per transcript |")
    print("|---|---|---|---|---|---|")
    for name, c in counts.items():
        share = lambda k: f"{100 * c[k] / clips:.1f}%"  # noqa: E731
        print(f"| {name} | {share('exact')} | {share('right')} | {share('no action')} | {share('wrong action')} | "
              f"{statistics.median(c['ms']):.0f} |")
    if errors:
        print("\nrecordings answered differently (fixed prompt, then with the names):")
        print("\n".join(differ))


def outcome(assistant, row: dict, text: str) -> tuple[str, str]:
    """(right, no action or wrong action; what the assistant did) for text asked in row's home."""
    tools = ToolRunner(new_home(row.get("home", "default")))
    reply, acted, results = ask(assistant, [{"role": "user", "content": text}], tools)
    did = f"{calls_of(reply)} / {reply.text!r}"
    if score(row, reply, acted, tools.home.inventory, results):
        return "right", did
    return ("no action" if answered_nothing(acted, results) else "wrong action"), did


LITTLE_WORDS = {"is", "in", "his", "the", "a", "to", "two", "too", "for", "four", "of", "off"}


def single_word_rows(slip: dict) -> list[str]:
    """The single-word rows a slip belongs to (see the module docstring)."""
    said, heard = normalised_words(slip["said"]), normalised_words(slip["heard"])
    changed = [(a, b) for a, b in zip(said, heard) if a != b]
    if len(said) != len(heard) or len(changed) != 1:
        return []
    return ["one word misheard"] + (["little word misheard"] if set(changed[0]) <= LITTLE_WORDS else [])


def evaluate(slips: list[dict], rows: list[dict], checkpoint: str | None) -> tuple[dict[str, dict], list[str]]:
    by_key = {(r["file"], r["id"]): r for r in rows}
    assistant = EmbeddedGenerator.load(checkpoint)
    typed: dict[tuple, str] = {}        # a request has up to four slips: its typed text is answered once
    counts: dict[str, dict[str, int]] = {}
    errors: list[str] = []
    for slip in slips:
        request = (slip["file"], slip["id"])
        row = by_key[request]
        if request not in typed:
            typed[request] = outcome(assistant, row, slip["said"])[0]
        heard, did = outcome(assistant, row, slip["heard"])
        outcomes = [typed[request], heard]
        if heard != "right":
            errors.append(f"{heard:<12} {slip['voice']:<9} {slip['band']:<8} {slip['said']!r} heard as "
                          f"{slip['heard']!r}: {did}")
        keys = ["all", f"{slip['voice']}, {slip['band']}"] + single_word_rows(slip)
        for key in keys:
            bucket = counts.setdefault(key, {"slips": 0, "typed right": 0, "right": 0, "no action": 0,
                                             "wrong action": 0})
            bucket["slips"] += 1
            bucket["typed right"] += outcomes[0] == "right"
            bucket[outcomes[1]] += 1
    return counts, errors


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", action="store_true", help="transcribe every recording again and rewrite the set")
    parser.add_argument("--checkpoint", help="assistant checkpoint directory (default: the embedded one)")
    parser.add_argument("--errors", action="store_true", help="also list every slip not answered right")
    parser.add_argument("--names", action="store_true", help="compare Whisper's prompt with and without the home's "
                        "names on the made-up home's recordings, instead")
    args = parser.parse_args(argv)
    import torch
    torch.set_num_threads(1)
    rows = requests()
    if args.names:
        compare_names(rows, args.checkpoint, args.errors)
        return 0
    if args.build:
        slips = build(rows)
        SLIPS.write_text("".join(json.dumps(s) + "\n" for s in slips))
        print(f"wrote {len(slips)} slips from {4 * len(rows)} recordings of {len(rows)} requests to {SLIPS}")
    slips = [json.loads(line) for line in SLIPS.read_text().splitlines() if line.strip()]
    counts, errors = evaluate(slips, rows, args.checkpoint)
    heard = len({(s["file"], s["id"]) for s in slips})
    print(f"\n{len(slips)} transcripts that differ from what was said ({heard} requests, 2 voices, "
          f"2 bands); the assistant at its default decoding, each a fresh conversation:\n")
    print("| heard as | slips | typed text right | transcript right | no action | wrong action |")
    print("|---|---|---|---|---|---|")
    for key, c in sorted(counts.items(), key=lambda kv: (kv[0] != "all", kv[0].endswith("misheard"))):
        share = lambda k: f"{100 * c[k] / c['slips']:.1f}%"  # noqa: E731
        print(f"| {key} | {c['slips']} | {share('typed right')} | {share('right')} | {share('no action')} | "
              f"{share('wrong action')} |")
    if args.errors:
        print("\nslips not answered right:")
        print("\n".join(sorted(errors)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
