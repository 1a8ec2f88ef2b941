"""Why spoken requests are not answered right: each recording the server's ear gets wrong, by cause.

Reads the transcripts bench/spoken_requests.py cached (run it first with the same requests and `--nbest 3`, and
the same `--cache`; a recording not in the cache is heard now and cached), answers each request typed and as the
server heard it, and puts every recording not answered right in one cause, the first that holds:
- typed: the request typed is not answered right either (the assistant's, not the ear's);
- heard right: the heard words, normalised as the assistant reads them (case, punctuation, digits for number
  words), are the said ones, and the request was answered otherwise than typed; the detail says where the seam
  is: "doubt" when the typed words answered with the ear's doubts and guesses are not right either (a call said
  back, a timer left unnamed: the recogniser's confidence, not the words), else "written form" (Whisper's
  punctuation: a comma left out or put in, a sentence split);
- nearly right: the heard words, normalised as the assistant reads them, differ from the said ones only by
  small edits, at most two: one word dropped or added, a word spelt otherwise ("parlor"), a number split
  ("20 5" for 25);
- name: a word of one of the home's names said is missing from what was heard;
- number: the numbers heard are not the numbers said;
- other.

    PYTHONPATH=$PWD nice -n 5 .venv/bin/python bench/spoken_causes.py \
        --requests tests/data/paraphrases_sixth.jsonl --sample 15 --list
"""
from __future__ import annotations

import argparse
import difflib
import sys
from collections import Counter
from pathlib import Path

import jellyfish

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from spoken_requests import (CACHE, FILES, Transcripts, new_home, outcome, phone_band, recording,  # noqa: E402
                             requests, server_ear, typed_only)
from voices import VOICES  # noqa: E402

CAUSES = ("typed", "heard right", "nearly right", "name", "number", "other")


def _small(said: list[str], heard: list[str], name_words: set[str]) -> str | None:
    """What one differing run of words is, when it is a small edit (see the module); None when it is not. A
    run holding a word of a name is spelt otherwise only with the same sounds and much the same letters
    (voice.heard_names' spelling: "parlor"), else it is a name misheard."""
    if not said or not heard:
        return "word dropped" if said else "word added" if len(heard) == 1 else None
    if all(w.replace(".", "").isdigit() for w in said + heard):
        values = lambda ws: sum(float(w) for w in ws)  # noqa: E731
        return "number split" if values(said) == values(heard) or "".join(said) == "".join(heard) else None
    a, b = "".join(said), "".join(heard)
    letters, sounds = jellyfish.jaro_winkler_similarity(a, b), jellyfish.metaphone(a) == jellyfish.metaphone(b)
    if name_words & set(said):
        return "spelt otherwise" if letters >= 0.95 or (letters >= 0.85 and sounds) else None
    return "spelt otherwise" if letters >= 0.85 or sounds else None


def cause(said: str, heard: str, names: tuple[str, ...], typed_right: bool, doubt_right: bool) -> tuple[str, str]:
    """(one of CAUSES, a detail) for a recording of said, heard as heard, not answered right; doubt_right: said
    answered right with the ear's doubts and guesses of this recording."""
    from assistant.spoken_numbers import normalize_request
    if not typed_right:
        return "typed", ""
    s, h = normalize_request(said).split(), normalize_request(heard).split()
    if s == h:
        return "heard right", "written form" if doubt_right else "doubt"
    edits = [(s[i1:i2], h[j1:j2]) for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, s, h).get_opcodes()
             if op != "equal"]
    name_words = {w for n in names for w in normalize_request(n).split()}
    kinds = [_small(a, b, name_words) for a, b in edits]
    if len(edits) <= 2 and all(kinds):
        return "nearly right", ", ".join(kinds)
    lost = sorted({w for w in s if w in name_words} - set(h))
    if lost:
        return "name", " ".join(lost)
    numbers = lambda ws: sorted(w for w in ws if w.replace(".", "").isdigit())  # noqa: E731
    if numbers(s) != numbers(h):
        return "number", f"{numbers(s)} -> {numbers(h)}"
    return "other", ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sample", type=int)
    parser.add_argument("--skip", action="append", default=[])
    parser.add_argument("--requests", type=Path, action="append")
    parser.add_argument("--voices", default=",".join(VOICES))
    parser.add_argument("--cache", type=Path, default=CACHE, help="the folder bench/spoken_requests.py cached in")
    parser.add_argument("--list", action="store_true", help="also list every recording with its cause")
    args = parser.parse_args(argv)
    import torch
    torch.set_num_threads(1)
    from assistant.embedded import EmbeddedGenerator
    from assistant.tools import ToolRunner
    from voice.stt import FINAL_HYPOTHESES, WhisperSTT

    rows = [r for r in requests(args.sample, args.skip, args.requests or FILES) if not typed_only(r)]
    voices = args.voices.split(",")
    stt = WhisperSTT(final_hypotheses=FINAL_HYPOTHESES)
    assistant = EmbeddedGenerator.load(None)
    transcripts = Transcripts(args.cache / "transcripts.jsonl")
    counts: dict[tuple[str, str], Counter] = {}
    listed = []
    for row in rows:
        said = row["history"][0]["content"]
        tools = ToolRunner(new_home(row["home"]))
        names, home_names = tools.spoken_names(), tools.home_names()     # the prompt's; those heard, the default home's too
        typed_right = outcome(assistant, row, said, {}, frozenset(), frozenset(), spoken=False)[0] == "right"
        for voice in voices:
            for band in ("wideband", "phone"):
                def audio(voice=voice, band=band):
                    wide = recording(voice, said, args.cache)
                    return wide if band == "wideband" else phone_band(wide)
                heard = server_ear(transcripts, stt, voice, band, said, names, home_names, audio)[4]
                text, guessed, unsure, numbers, doubted, changes = heard
                result, did = outcome(assistant, row, text, guessed, unsure, numbers, doubted=doubted,
                                      doubted_change=changes)
                for group in (voice, "all"):
                    counts.setdefault((group, band), Counter())["n"] += 1
                for group in (voice, "all"):
                    counts[group, band][result] += 1
                if result == "right":
                    continue
                doubt_right = outcome(assistant, row, said, guessed, unsure, numbers, doubted=doubted,
                                      doubted_change=changes)[0] == "right"
                why, detail = cause(said, text, names, typed_right, doubt_right)
                for group in (voice, "all"):
                    counts[group, band][why] += 1
                listed.append(f"{why:<12} {detail:<24} {result:<16} {voice:<18} {band:<8} {said!r} heard "
                              f"{text!r} {guessed or ''} -> {did}")
    lines = ["| voice | band | recordings | not right | " + " | ".join(CAUSES) + " |",
             "|---|---|---|---|" + "---|" * len(CAUSES)]
    for group in ("all", *voices):
        for band in ("wideband", "phone"):
            c = counts[group, band]
            wrong = sum(c[k] for k in CAUSES)
            lines.append(f"| {group} | {band} | {c['n']} | {wrong} ({100 * wrong / c['n']:.1f}%) | "
                         + " | ".join(f"{c[k]}" for k in CAUSES) + " |")
    shares = [f"{band}: right {100 * c['right'] / c['n']:.1f}%, wrong action {100 * c['wrong action'] / c['n']:.1f}%"
              f" ({c['right']} / {c['wrong action']} of {c['n']})" for band in ("wideband", "phone")
              for c in [counts["all", band]]]
    table = "\n".join(lines) + "\n\nThe server's ear, all recordings: " + "; ".join(shares) + "."
    print(table + ("\n\n" + "\n".join(sorted(listed)) if args.list else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
