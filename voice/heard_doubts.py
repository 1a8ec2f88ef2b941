"""Which of the recogniser's doubts about a final's words stand once the home's names are known.

Whisper writes a rare name it was prompted with at little probability even when it heard it right ("Chandelier:0.04
to 80% please.", "Get the punkah:0.02 going."), and a change resting on a doubted word is said back before it acts
(assistant.tools.ToolRunner). Where the home has nothing else that sounds like that name, nothing else of the home
could have been heard there, and asking costs a turn for nothing; where it has ("the wicket gate" beside "the
wicker chair"), the doubt stands. So it does where Whisper doubted any other word (at the wider line of
Heard.doubted_words): the audio was hard there, and the name may be a guess too ("I do a lot of the sound of the
gramophone:0.20 on a Sunday", a remark misheard, was asked about for its name alone). A word of a name put in for
other words (voice.heard_names: "Code lighting" spelt "cove lighting") keeps its doubt, as do a name's request
words ("light", "door"), which other request words could have been.

A name the recogniser put in as a guess, where the audio scored it about as likely as the words Whisper wrote
("bottom lights" for the bunting lights, voice.stt.WhisperSTT._names_checked), is acted on by the same reading:
asked about only where another of the home's names sounds like it (guesses_standing).

names_heard_in reads a final for the assistant with all of these at once, for the server and the spoken bench alike.
"""
from __future__ import annotations

import re

from voice.heard_names import REQUEST_WORDS, Hearing, hear_names, names_to_check
from voice.heard_text import first_sounds_misheard, names_run_on


def names_heard_in(text: str, names: tuple[str, ...], doubted: frozenset[str], doubted_change: frozenset[str],
                   guessed: dict[str, str]) -> tuple[Hearing, dict[str, str], frozenset[str], frozenset[str]]:
    """text (a final with its words put back as said) with the home's names heard in (voice.heard_names, and a name
    whose word's first sound was misheard: voice.heard_text.first_sounds_misheard), and
    what a call on it must ask about: the names only guessed (here, or against the audio where another name of the
    home sounds like them: guesses_standing), the words doubted, and those a change's doubts read
    (undoubted_names); doubted and doubted_change as the recogniser gave them."""
    run_on = names_run_on(text, names)
    hearing = first_sounds_misheard(hear_names(run_on, names), names)
    return (hearing, {**guesses_standing(guessed, names), **hearing.guessed}, hearing.doubted(doubted),
            hearing.doubted(undoubted_names(doubted_change, doubted, run_on, names)))


def undoubted_names(doubted: frozenset[str], wider: frozenset[str], transcript: str,
                    names: tuple[str, ...]) -> frozenset[str]:
    """doubted (lowercase words of transcript, as Whisper wrote it before the home's names were heard in) less
    the words, in no request, of each of the home's names written whole in transcript that none of the home's
    other names, nor any word of one, sounds like (names_to_check, or a spelling of it: "parlor"), where every
    word doubted at the wider line (wider) is a word of such a name."""
    plain = [re.sub(r"[^a-z0-9']", "", word.lower()) for word in transcript.split()]
    whole = [words for words in dict.fromkeys(tuple(n.lower().split()) for n in names)
             if words and any(plain[at:at + len(words)] == list(words) for at in range(len(plain) - len(words) + 1))]
    if not wider <= {word for words in whole for word in words}:
        return doubted
    sure: set[str] = set()
    for words in whole:
        rare = [word for word in words if word in doubted and word not in REQUEST_WORDS]
        if rare and not sounds_like_another(words, rare, names):
            sure.update(rare)
    return doubted - sure


def guesses_standing(guessed: dict[str, str], names: tuple[str, ...]) -> dict[str, str]:
    """guessed (each name the recogniser put in as a guess against the audio, voice.stt.Heard.guessed, with the
    words heard in its place) less those where none of the home's other names, nor any word of one, sounds like
    a word of the name put in for another heard ("bunting" for "bottom"): the audio scored the name about as likely
    as the words written, and nothing else of the home could have been said there. A guess that put in request
    words alone ("gate" for "great") keeps its question."""
    standing = {}
    for name, heard in guessed.items():
        words = tuple(name.lower().split())
        rare = [word for word in words if word not in REQUEST_WORDS and word not in heard.lower().split()]
        if not rare or sounds_like_another(words, rare, names):
            standing[name] = heard
    return standing


def sounds_like_another(words: tuple[str, ...], rare: list[str], names: tuple[str, ...]) -> bool:
    """Whether another of the home's names, or a word of one not of this name (words), sounds like one of rare
    (rivals)."""
    return any(rivals(words, word, names) for word in rare)


def rivals(words: tuple[str, ...], word: str, names: tuple[str, ...]) -> tuple[str, ...]:
    """The home's other names, and the words of them not of this name (words), that sound like word, a word of it
    (names_to_check: "piano", "pond" and "panel" for the punkah), or are a spelling of it ("parlor")."""
    name = " ".join(words)
    others = tuple(dict.fromkeys(other for n in names if n.lower() != name
                                 for other in (n.lower(), *n.lower().split()) if other not in words))
    return tuple(dict.fromkeys([*(alike for _, alike, _ in names_to_check(word, others)),
                                *hear_names(word, others).spelled]))
