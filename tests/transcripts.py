"""Comparing what Whisper heard with what was said: letters, not words, since tiny.en may hear a name or a
word boundary differently ("Parley" as "partly", "please set" as "place at")."""
import difflib


def letters(text: str) -> str:
    return "".join(c for c in text.lower() if c.isalnum())


def spelled_like_start(heard: str, spoken: str) -> float:
    """Share of the heard letters that, in order, spell the start of the spoken text (1.0 = exactly)."""
    heard, spoken = letters(heard), letters(spoken)
    start = spoken[:len(heard) * 13 // 10 + 4]          # a little slack for words heard shorter than said
    matcher = difflib.SequenceMatcher(None, heard, start, autojunk=False)
    return sum(block.size for block in matcher.get_matching_blocks()) / len(heard)
