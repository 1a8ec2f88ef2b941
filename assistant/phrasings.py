"""Phrasing tables of the vocabulary read as regular expressions."""
import re


def any_of(phrases) -> str:
    """An alternation of the phrases, longest first, so that "turn off" is tried before "turn"."""
    return "|".join(map(re.escape, sorted(phrases, key=len, reverse=True)))
