"""A final transcript with words Whisper writes otherwise put back as said, before the assistant reads it.

Whisper tiny hears the "a" of "a touch" as a word of its own or not at all: "dim the piano light at touch", "to
touch", "of touch", "dim the piano light touch" (bench/spoken_causes.py), and the assistant, which reads "a
touch" as a small step, refuses them. A degree word that ends a clause or comes before a comparative ("a bit
brighter") is given its "a" back after one of those words, or when it ends the request straight after another
word. The words are data (DEGREE_WORDS, ARTICLE_HEARD_AS, COMPARATIVES).

It also writes the verb a request starts with as other words: "Can seal the pasta timer.", "Block the side
gate.", "Walk up the tack room lock." (VERBS_HEARD_AS, only as a request's first words), a word in a spelling of
its own anywhere ("tele" for "telly", "unplease" for "on please": WORDS_HEARD_AS), a subject and its verb said as
one word where a clause starts ("we are" for "we're": SUBJECTS_HEARD_AS), and a short sentence
twice ("Good night. Good night.": flite slt's always, Piper's now and then), which is kept once when the two are
the same words (stt.trim_repeats leaves a phrase of two words said twice alone: "no, no").

Whisper's commas are guesses: it often runs a request and a remark said after it into one ("Fairy lights on
please it's nearly christmas."), where a typed request has its comma, and the assistant, which takes a clause
as the request only where the text breaks (assistant.clauses), then refuses. A break is put back after a word that
closes a request ("please": CLOSING) run on into a remark. A subject said with its verb in
one word ("it's", "we're"), or "i" (CLAUSE_OPENERS), opens a clause of its own, so a break is put back before
one that follows a word with none, unless that word joins it to what came before ("so it's": JOINING). So
does a request's verb said on a pronoun after the thing it stands for ("The bunting lights on the veranda switch
them off.": assistant.vocabulary's verbs), unless the word before leads into the verb ("would you turn it off",
"please switch it on": INTO_A_VERB), and a question's first word on a pronoun after words that ask nothing ("The
coffee maker in the office is it still on.", not "What time is it?": assistant.vocabulary's QUESTION_WORDS).
A name's first sound run into the article before it ("Is it humid in this gallery?" for "in the scullery", "The
roman in this nug" for "in the snug") is given back where the home's name is then heard as said or spelt
(names_run_on). A word of a name heard with its first sound lost, changed or gained, the rest of the name heard as
said beside it ("the dark lamp" for the arc lamp, "monting lights" for the bunting lights, "the liquid gate" for the
wicket gate), is put in as a guess the user is asked about (first_sounds_misheard). These two steps read the home's
names.
"""
from __future__ import annotations

import re
from dataclasses import replace

import jellyfish

from assistant.vocabulary import OTHER_REQUEST_VERBS, PRONOUN_OBJECTS, QUESTION_WORDS, SUBJECTS_WITH_A_VERB, SWITCH_VERBS
from voice.heard_names import REQUEST_WORDS, Hearing, hear_names, named_words
from voice.heard_words import name_words

# Words that say how much, after "a": "dim the lamp a touch", "a bit brighter".
DEGREE_WORDS = ("touch", "bit", "little", "tad", "notch")
# What Whisper writes for the "a" before one of them.
ARTICLE_HEARD_AS = ("at", "to", "of")
# Words after a degree word that keep it one ("a bit more", "a touch brighter": any word ending in -er).
COMPARATIVES = ("more", "less", "up", "down")
# Words after which a degree word ending the request already has what it needs ("a touch", "the little").
_BEFORE_DEGREE = ("a", "an", "the", "one", "little", "bit", "tiny", "wee") + ARTICLE_HEARD_AS

# A request's first words as Whisper writes them: the verb said ("Witch of the porch light.", "Which the arc lamp
# on?": espeak-ng's "switch" through the phone band; "Brays the pleated blind."), or the words that ask ("How
# arms the snug at the moment?" for "how warm's the snug").
VERBS_HEARD_AS = {"can seal": "cancel", "can sew": "cancel", "block": "lock", "walk": "lock", "witch": "switch",
                  "which on": "switch on", "which off": "switch off", "which the": "switch the",
                  "brays": "raise", "how warms": "how warm's", "how arms": "how warm's"}
# A question's first words as Whisper writes them before the thing it asks about: "This is the attic fan on." for
# "is the attic fan on" (espeak-ng's "is" heard with a "th" before it, wideband and phone band); "As the coal hole
# door been shut?" for "has the ..." (Piper's "has" without its "h").
QUESTIONS_HEARD_AS = {"this is": "is", "as": "has"}
# What the thing asked about starts with after those words.
ARTICLES = ("the", "a", "an", "my", "our")
# A word that closes a request as Whisper writes it through the phone band, ending a clause after a state, a
# pronoun or a percentage: "The dock light on clean.", "The lounge lights to 75% clean." (espeak-ng's "please"),
# and after "on" and "off" as Whisper writes them there ("aren't clean", "of clean": WORDS_HEARD_AS).
CLOSING_HEARD_AS = {"clean": "please"}
# The words after which it closes the request.
BEFORE_CLOSING = ("on", "off", "it", "them", "%", "aren't", "of")
# Words Whisper spells otherwise anywhere in a request, and the words said ("Switch off the tele in the lounge.",
# "The extractor in the larder, unplease, it smells of fish.": "on please" run into one word; "The veranda
# lantern, half-rightness, please.": the "b" run into "half"; "Lamping the lounge on.": "lamp in" run into one
# word; "The lantern on the veranda could use, which it on.": "switch" without its "s"; "the gramophone on a sun
# day": a day's name in two words).
WORDS_HEARD_AS = {"tele": "telly", "unplease": "on please", "unpleas": "on please", "aren't please": "on please",
                  "of please": "off please", "unpleased": "on please", "sun day": "sunday",
                  "rightness": "brightness", "lamping the": "lamp in the",
                  "which it on": "switch it on", "which it off": "switch it off", "which them on": "switch them on",
                  "which them off": "switch them off"}

# A subject said with its verb in one word, written as two where a clause starts ("Put the score lamp on, we are
# starting a frame.", which the assistant reads as more of the name); not within a clause ("the fan we are in the
# kitchen" for "the samovar in the kitchen" stays as heard: a name the home lacks).
SUBJECTS_HEARD_AS = {"we are": "we're"}

# An article that took the first sound of the word after it, as Whisper writes it: {heard: the article said and
# that sound, which the next word is written on}: "this gallery" for "the scullery", "this nug" for "the snug" (flite
# slt, Festival slt HTS).
ARTICLES_HEARD_AS = {"this": "the s"}
# Sounds (Metaphone) after a word's first that a word heard in place of a name's word must share with it, at least
# ("dark" and "arc": RK): one is too few ("mays" and "baize" share only S).
FIRST_SOUND_REST = 2

_DEGREE = "|".join(DEGREE_WORDS)
_HEARD_ARTICLE = re.compile(rf"\b(?:{'|'.join(ARTICLE_HEARD_AS)})\s+(?=(?:{_DEGREE})(?:\s*[.!?,]|\s*$|\s+(?:"
                            rf"{'|'.join(COMPARATIVES)}|[a-z]+er)\b))", re.IGNORECASE)
_BARE_END = re.compile(rf"(\b(?!(?:{'|'.join(_BEFORE_DEGREE)})\b)[A-Za-z']+)\s+((?:{_DEGREE})[.!?,]*)\s*$",
                       re.IGNORECASE)


# A subject said with its verb in one word, or "i": a clause starts with it ("the hall light on it's dark", "set an
# alarm for nine i need my pills" said as two).
CLAUSE_OPENERS = ("i", *SUBJECTS_WITH_A_VERB)
# Words that join such a clause to the words before it, or ask with its subject: no break between them ("so it's
# warm", "if we're out", "can i have").
JOINING = ("and", "but", "or", "so", "because", "cos", "as", "if", "when", "while", "whilst", "until", "till",
           "before", "after", "since", "though", "although", "unless", "once", "that", "where", "what", "how",
           "why", "who", "which", "than", "whether", "now", "then", "say", "think", "know", "sure", "hope", "guess",
           "reckon", "see", "mean", "can", "could", "shall", "should", "may", "might", "must", "do", "does", "did",
           "would", "will", "am", "have", "had")

# What a question asks about when the thing was said before it ("the coffee maker, is it still on").
PRONOUN_SUBJECTS = ("it", "they", "that", "this", "there", "it's")
# Words that lead into a verb, besides JOINING: no break between them ("could you switch it", "please turn it").
INTO_A_VERB = ("you", "to", "please", "just", "i", "we", "let's", "lets", "don't", "dont", "also", "go", "kindly",
               "quickly", "me", "us")

# Words that close a request: a subject after one, with no break, opens a remark of its own ("the extractor in the
# larder, on please it smells of fish"), unless the word before leads into it ("could you please", "and please").
CLOSING = ("please",)
# Subjects a remark opens with, besides CLAUSE_OPENERS and PRONOUN_SUBJECTS ("its" as Whisper writes "it's").
REMARK_SUBJECTS = ("its", "we", "he", "she")

# What ends a sentence as Whisper writes it.
SENTENCE_ENDS = ".!?"

_SENTENCE = re.compile(rf"[^{SENTENCE_ENDS}]+(?:[{SENTENCE_ENDS}]+|$)")
_WORD = re.compile(r"[\w']+")
_FIRST_WORDS = re.compile(rf"^(\W*)({'|'.join(map(re.escape, VERBS_HEARD_AS))})\b", re.IGNORECASE)
_FIRST_QUESTION_WORDS = re.compile(rf"^(\W*)({'|'.join(map(re.escape, QUESTIONS_HEARD_AS))})\s+(?=(?:"
                                   rf"{'|'.join(ARTICLES)})\b)", re.IGNORECASE)
_BEFORE_CLOSING = "|".join(rf"\b{re.escape(w)}\b" if w[0].isalpha() else re.escape(w) for w in BEFORE_CLOSING)
_CLOSING_OTHERWISE = re.compile(rf"(?:{_BEFORE_CLOSING})\s+({'|'.join(map(re.escape, CLOSING_HEARD_AS))})"
                                rf"(?=\s*[{SENTENCE_ENDS},]|\s*$)", re.IGNORECASE)
_RUN_ON = re.compile(rf"\b([\w']+)\s+(?=(?:{'|'.join(map(re.escape, CLAUSE_OPENERS))})\b)", re.IGNORECASE)
_REQUEST_VERBS = "|".join(sorted(SWITCH_VERBS) + list(OTHER_REQUEST_VERBS))
_VERB_ON_A_PRONOUN = re.compile(rf"\b([\w']+)\s+(?=(?:{_REQUEST_VERBS})\s+(?:{'|'.join(PRONOUN_OBJECTS)})\b)",
                                re.IGNORECASE)
_QUESTION = "|".join(map(re.escape, QUESTION_WORDS))
# a question's first word on a pronoun, after words of the same clause none of which asks
_QUESTION_ON_A_PRONOUN = re.compile(rf"(?:^|(?<=[.!?,] ))((?:(?!\b(?:{_QUESTION})\b)[^.!?,])*?[\w'])\s+(?=(?:"
                                    rf"{_QUESTION})\s+(?:{'|'.join(map(re.escape, PRONOUN_SUBJECTS))})\b)",
                                    re.IGNORECASE)
_CLOSED_RUN_ON = re.compile(rf"(?:^|(?<=\s))([\w']+)\s+({'|'.join(CLOSING)})\s+(?=([\w']+))", re.IGNORECASE)
_SPELT_OTHERWISE = re.compile(rf"\b({'|'.join(map(re.escape, WORDS_HEARD_AS))})\b", re.IGNORECASE)
_ARTICLE_RUN_ON = re.compile(rf"\b({'|'.join(map(re.escape, ARTICLES_HEARD_AS))})\s+([a-z][\w']*)", re.IGNORECASE)
_CLAUSE_SUBJECT = re.compile(rf"(^\W*|[{SENTENCE_ENDS},]\s+)({'|'.join(map(re.escape, SUBJECTS_HEARD_AS))})\b",
                             re.IGNORECASE)


def said_words(transcript: str) -> str:
    """The transcript said once, with the request's verb, words spelt otherwise, the "a" before each degree
    word and the break before a clause run on as said (see the module)."""
    def verb(match: re.Match) -> str:
        return match[1] + _cased(match[2], VERBS_HEARD_AS)
    def word(match: re.Match) -> str:
        return _cased(match[1], WORDS_HEARD_AS)
    def subject(match: re.Match) -> str:
        return match[1] + _cased(match[2], SUBJECTS_HEARD_AS)
    def question(match: re.Match) -> str:
        return match[1] + _cased(match[2], QUESTIONS_HEARD_AS) + " "
    def closing(match: re.Match) -> str:
        return match[0][:match.start(1) - match.start(0)] + CLOSING_HEARD_AS[match[1].lower()]
    text = _CLOSING_OTHERWISE.sub(closing, _FIRST_QUESTION_WORDS.sub(question, said_once(transcript)))
    text = _CLAUSE_SUBJECT.sub(subject, _SPELT_OTHERWISE.sub(word, _FIRST_WORDS.sub(verb, text)))
    text = _BARE_END.sub(r"\1 a \2", _HEARD_ARTICLE.sub("a ", text))
    text = _RUN_ON.sub(lambda m: m[0] if m[1].lower() in JOINING else m[1] + ", ", text)
    text = _VERB_ON_A_PRONOUN.sub(lambda m: m[0] if m[1].lower() in JOINING + INTO_A_VERB else m[1] + ", ", text)
    text = _QUESTION_ON_A_PRONOUN.sub(r"\1, ", text)
    return _CLOSED_RUN_ON.sub(_closed, text)


def names_run_on(transcript: str, names: tuple[str, ...]) -> str:
    """The transcript with each article that took a name's first sound (ARTICLES_HEARD_AS) given it back, where
    the home's names are then heard in more words, as said or spelt (voice.heard_names.named_words), and nothing
    more is guessed: "this" said ("turn this lamp on") stays, as does a sound given back that makes no name."""
    text = transcript
    for match in reversed(list(_ARTICLE_RUN_ON.finditer(transcript))):
        given_back = text[:match.start()] + _cased(match[1], ARTICLES_HEARD_AS) + match[2] + text[match.end():]
        before, after = hear_names(text, names), hear_names(given_back, names)
        if (named_words(after, names) > named_words(before, names)
                and len(after.guessed) <= len(before.guessed)):
            text = given_back
    return text


def _cased(heard: str, said_as: dict[str, str]) -> str:
    """The words said for words heard (a table of this module), capitalised as Whisper wrote them."""
    said = said_as[heard.lower()]
    return said.capitalize() if heard[0].isupper() else said


def _closed(match: re.Match) -> str:
    """A break after a closing word run on into a remark (CLOSING)."""
    remark = match[3].lower() in CLAUSE_OPENERS + PRONOUN_SUBJECTS + REMARK_SUBJECTS
    return f"{match[1]} {match[2]}, " if remark and match[1].lower() not in JOINING + INTO_A_VERB else match[0]


def said_once(transcript: str) -> str:
    """A transcript of two sentences with the same words, up to case and punctuation, as its first."""
    sentences = [s for s in _SENTENCE.findall(transcript) if s.strip()]
    if len(sentences) == 2 and (words := _WORD.findall(sentences[0].lower())) == _WORD.findall(sentences[1].lower()):
        return sentences[0].strip() if words else transcript
    return transcript


def first_sounds_misheard(hearing: Hearing, names: tuple[str, ...]) -> Hearing:
    """hearing with a word heard in place of a word of one of the home's names put in as a guess, where the name's
    other words stand beside it as said and the two words' sounds differ only in the first: one lost ("rings
    cabinet" for the drinks cabinet), gained or changed ("the dark lamp" for the arc lamp: espeak-ng's "the arc" run
    together; "monting lights", "liquid gate"). Neither word may be one that requests or the default home's names
    are made of ("on", "lamp", "porch"), nor the heard word a number or a word of any of the home's names, and only
    one name may fit: the guess is asked about, never acted on, and a name the home lacks keeps a word no sound of
    a known name's explains."""
    tokens = hearing.text.split()
    plain = [re.sub(r"[^a-z0-9']", "", token.lower()) for token in tokens]
    known = [name.split() for name in dict.fromkeys(n.lower() for n in names) if len(name.split()) > 1]
    common = REQUEST_WORDS | name_words()
    taken = {word for name in known for word in name} | {n.lower() for n in names} | common
    found: dict[int, list[tuple[list[str], int]]] = {}
    for name in known:
        for at, word in enumerate(name):
            if word in common:
                continue
            for start in range(len(plain) - len(name) + 1):
                heard = plain[start + at]
                if (plain[start:start + at] == name[:at] and plain[start + at + 1:start + len(name)] == name[at + 1:]
                        and heard and heard not in taken and not heard.isdigit()
                        and _first_sound_apart(heard, word)):
                    found.setdefault(start + at, []).append((name, start))
    guessed = dict(hearing.guessed)
    for where, fits in sorted(found.items(), reverse=True):
        if len({" ".join(name) for name, _ in fits}) != 1:
            continue
        name, start = fits[0]
        guessed[" ".join(name)] = " ".join(plain[start:start + len(name)])
        tail = re.sub(r"^.*?([^A-Za-z0-9']*)$", r"\1", tokens[where])       # keep the word's punctuation
        tokens[where] = name[where - start] + tail
    return replace(hearing, text=" ".join(tokens), guessed=guessed) if guessed != hearing.guessed else hearing


def _first_sound_apart(heard: str, word: str) -> bool:
    """Whether two different words sound alike but for the first sound (Metaphone): one lost or gained ("rings"
    RNKS, "drinks" TRNKS), or another in its place ("monting" MNTNK, "bunting" BNTNK; "dark" TRK, "arc" ARK), with
    FIRST_SOUND_REST sounds after it the same."""
    a, b = jellyfish.metaphone(heard), jellyfish.metaphone(word)
    if heard == word or not a or not b or a == b:
        return False
    rests = {(a[1:], b[1:]), (a, b[1:]), (a[1:], b)}
    return any(x == y and len(x) >= FIRST_SOUND_REST for x, y in rests)
