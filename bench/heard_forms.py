"""Typed requests written the way Whisper writes what it hears, answered as heard: where the text's form, not its
words, changes the answer (the seam between the ear and the brain).

Every self-contained row of the files is answered typed, then, as the server answers a final (voice.heard_text,
the tools told the words were heard), in each form of FORMS: the words stay the request's, only case,
punctuation and sentence breaks change. A form that changes answers is a seam that no recogniser fix reaches.
Without audio, so it reads many more requests than bench/spoken_causes.py, whose "heard right" cause counts
the same seam on real transcripts. `--as-heard` answers the forms without voice.heard_text.

    PYTHONPATH=$PWD nice -n 5 .venv/bin/python bench/heard_forms.py tests/data/paraphrases_twelfth.jsonl \
        tests/data/paraphrases_tenth.jsonl
"""
from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

from assistant.vocabulary import QUESTION_WORDS, TOOL_QUESTION_WORDS  # noqa: E402
from spoken_requests import OUTCOMES, outcome, requests, typed_only  # noqa: E402
from voice.heard_text import said_words  # noqa: E402


def sentence(text: str) -> str:
    """text as Whisper writes a sentence it hears: a capital, a question mark after a question's first word or else
    a full stop, "%" for "percent" after a number; the words themselves stay the request's."""
    text = re.sub(r"(?<=\d) percent\b", "%", text.strip().rstrip(",."))
    first = text.split()[0].strip(",").lower() if text.split() else ""
    return text[:1].upper() + text[1:] + ("?" if first in QUESTION_WORDS + TOOL_QUESTION_WORDS else ".")


FORMS = {
    "one sentence": sentence,
    "sentences at its commas": lambda text: " ".join(sentence(part) for part in text.split(",") if part.strip()),
    "run on (commas left out)": lambda text: sentence(text.replace(",", "")),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", type=Path, nargs="+")
    parser.add_argument("--as-heard", action="store_true", help="answer the forms without voice.heard_text")
    parser.add_argument("--list", action="store_true", help="also list every request a form answers otherwise")
    args = parser.parse_args(argv)
    import torch
    torch.set_num_threads(1)
    from assistant.embedded import EmbeddedGenerator
    assistant = EmbeddedGenerator.load(None)
    rows = [row for row in requests(None, [], args.files) if not typed_only(row)]
    nothing = frozenset()
    counts = {form: Counter() for form in ("typed", *FORMS)}
    listed = []
    for row in rows:
        said = row["history"][0]["content"]
        typed = outcome(assistant, row, said, {}, nothing, nothing, spoken=False)
        counts["typed"][typed[0]] += 1
        for form, write in FORMS.items():
            text = write(said) if args.as_heard else said_words(write(said))
            result, did = outcome(assistant, row, text, {}, nothing, nothing)
            counts[form][result] += 1
            if result != typed[0]:
                counts[form]["answered otherwise"] += 1
                listed.append(f"{form:<26} {typed[0]:<12} -> {result:<16} {text!r} -> {did}")
    shown = [o for o in OUTCOMES if any(c[o] for c in counts.values())]
    print(f"{len(rows)} requests of {', '.join(p.name for p in args.files)}; forms "
          f"{'as Whisper writes them' if args.as_heard else 'through voice.heard_text'}.\n")
    print("| form | " + " | ".join(shown) + " | answered otherwise than typed |")
    print("|---|" + "---|" * (len(shown) + 1))
    for form, c in counts.items():
        print(f"| {form} | " + " | ".join(str(c[o]) for o in shown) + f" | {c['answered otherwise']} |")
    if args.list:
        print("\n" + "\n".join(listed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
