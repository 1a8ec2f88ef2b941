"""A request said with a clause beside it ("chandelier on please, we have guests", "turn on the lamp so i can
read"): the clauses a second reading may take, when the model's reply to the whole request makes no call.

The corpus asks without reasons and remarks, so the model refuses a clear request said beside one.
assistant.embedded reads each clause that may be the request alone, in one batch with the whole request, and
when the whole request gets no call takes the one clause that gives one (reading_taken). A clause may be taken
only when what is left out carries nothing a call could need (no name, area, number or place, and no state but
a remark's), is no condition ("..., when i leave") and takes nothing back ("..., actually don't"); a reason or
a remark is never taken ("it's dark in here" is no request to switch on a light). A pronoun stands for the
thing a clause before it names ("the dock lights, switch them on": "switch the dock lights on"). What ends a clause and what makes one a reason, a remark, a condition or a taking back are data
here.
"""
import re
from dataclasses import dataclass

from assistant.chat_template import asks_how_things_are, level_word_said
from assistant.spoken_numbers import normalize_request
from assistant.vocabulary import (ASKING_OPENERS, BARE_REQUEST_VERBS, BEFORE_A_NEGATION, CONDITIONS, LEAVERS,
                                  NEGATED_WISHES, NEGATING_OPENINGS, NEGATION_ASKS, NO_PLACES, NO_TIMER_NAMES,
                                  NOT_FORGETTING, OPENING_WORDS, PRONOUN_OBJECTS, PRONOUN_ONES, REASON_SUBJECTS, REASONS,
                                  REASONS_BEFORE_A_SUBJECT, REASONS_BESIDE_A_REQUEST, REASONING_PEOPLE, REMARK_JOINERS, REMARK_SUBJECTS, REMARKED_STATES,
                                  REQUESTS_WITHOUT_A_VERB, SAID_OF_LINKS, STATE_LINKS, SUBJECT_WISHES, UNFINISHED_ENDINGS,
                                  VALUE_SAID_BETTER)

MAX_CLAUSES = 4          # a longer run of clauses is no request said with a remark: no second reading
# Where a clause ends in the written request: punctuation (a comma or a point inside a number is part of it)
CLAUSE_END = re.compile(r"(?<!\d)[,.:]|,(?!\d{3}\b)|[.:](?!\d)|[;!?]|\s[-–—]+\s")
# A reason or a purpose said after the request without a comma: "turn on the lamp so i can read", "convert 10
# miles to km for my run"
_SUBJECT = rf"(?:{'|'.join(REASON_SUBJECTS)})"
REASON_INSIDE = re.compile(rf"\s(?=(?:{'|'.join(REASONS + REASONS_BEFORE_A_SUBJECT)})\s{_SUBJECT}\b)")
# A clause that gives a reason or a purpose: never the request
REASON = re.compile(rf"^(?:{'|'.join(REASONS)})\b|^(?:{'|'.join(REASONS_BEFORE_A_SUBJECT)})\s{_SUBJECT}\b")
# A clause that says how things are, not what to do ("it's stuffy", "we have guests", "i'm going to bed"); a
# wish said this way is a request ("we need the heating on")
REMARK = re.compile(rf"^(?:{'|'.join(REMARK_SUBJECTS)})\b(?! (?:{'|'.join(SUBJECT_WISHES)})\b)"
                    # a value said to be better: "21 would be better" (the request says what to change with it)
                    rf"|^{VALUE_SAID_BETTER}\b")
# A clause that says when or on what condition: the request without it is another request
CONDITION = re.compile(rf"^(?:{'|'.join(CONDITIONS)})\b")
# A clause that takes back what was said before it ("..., actually don't", "..., just kidding"); said before
# the request it corrects what came before ("no wait, stop it there")
TAKES_BACK = re.compile(r"(?:^|\b(?:actually|no|oh|please|just|i|you|then|but|well|and|so) )(?:don't|dont|do not)\b|"
                        r"\b(?:never mind|nevermind|forget it|forget that|scratch that|no|not|nope|"
                        r"nah|wait|hold on|actually|kidding|joking|on second thought)\b")
_VALUE_ALONE = re.compile(r"^\d+(?:\.\d+)? (?:percent|degrees|seconds)(?: please)?$")
_OPENING_ONLY = re.compile(rf"^(?:(?:{'|'.join(OPENING_WORDS)})\s*)+$")
# A remark that a thing is not doing something ("is the kiln on, it's not humming"): no taking back
NOT_DOING = re.compile(r"^(?:it|they|he|she)(?:'s| is|'re| are) not [a-z]+ing$|^(?:it|they) (?:isn't|aren't) [a-z]+ing$")
# Words of a clause left out that a call could need: a state, a direction or a move ("dim it"; not "too dim")
STATE_WORDS = re.compile(r"\b(?:off|open|opened|close|closed|shut|lock|locked|unlock|unlocked|up|down|brighter|"
                         r"dimmer|brighten|warmer|cooler|cancel|stop|timer|alarm)\b"
                         r"|\bdim(?= (?:it|them|that|those|this|the|my|our)\b)"
                         r"|(?<!\bhang )(?<!\bhold )\bon\b(?! (?:the|my|our|a|an|top|its|this|that|his|her|their|time|"
                         r"second thoughts?)\b)")
# A pronoun that may stand for the thing a clause before it names ("that larder extractor is noisy, turn it
# off", "the dock lights, switch them on", "the bread timer, how long has it got"): the vocabulary's, but "this",
# and "they"; not "it" of "it's", nor "that" before what it opens ("that it's", "that the")
_PRONOUNS = [*PRONOUN_ONES, *(word for word in PRONOUN_OBJECTS if word != "this"), "they"]
PRONOUN = re.compile(rf"\b(?:{'|'.join(_PRONOUNS)})\b(?!')(?!(?<=\bthat) (?:it|it's|the|a|an|you|i|we|they|he|she|"
                     r"there|there's|my|our)\b)")
# A state said alone after a thing said with a determiner ("the fairy lights, on please"): switch it to that state
BARE_STATE = re.compile(r"^(on|off)(?= please$| now$| then$|$)")
# What is said of a thing before a pronoun stands for it: its state there is a remark ("the heater's been on all
# day, shut it down")
_SAID_OF_IT = re.compile(r"^(?:is|are)(?: [a-z']+){1,4}$")
# A timer by its name or none, or the thermostat: "bread timer", "timer", "thermostat" (not "a timer", "start timer")
_TIMER_NAMED = rf"((?:(?!(?:{'|'.join(NO_TIMER_NAMES)})\b)[a-z]+ )?(?:timer|thermostat))\b"
# said first: "the bread timer", "rice timer", "the thermostat"
_TIMER_FIRST = re.compile(rf"^((?:the|my|our) )?{_TIMER_NAMED}")
# or after a determiner anywhere in a clause that says nothing else a call could need: "don't need the bath timer
# any more, turn it off"
_TIMER_SAID = re.compile(rf"\b(?:the|my|our) {_TIMER_NAMED}")
# or brought up by a remark: "there's a timer running that i don't need, cancel it please"
_TIMER_REMARKED = re.compile(rf"\b(?:the|my|our|a|an) {_TIMER_NAMED}")
# Said between a thing and an area of it: "the pleated blind in the nursery", "the bunting lights on the veranda"
_IN_AREA = {("in", "the"), ("on", "the")}
_NUMBER = re.compile(r"\d")
# a length of time as the normaliser writes it ("a minute": "60 seconds")
_DURATION = re.compile(r"\b\d+(?:\.\d+)? seconds\b")
# A remark said of an area as its subject: "the cellar's getting musty", "the nursery is freezing"
_AREA_SAID_OF = re.compile(r"^(?:the|my|our) ([a-z ]+?)(?:'s| is| feels| has got| has gotten)\b")
# A clause said of its subject: "the boat's tied up", "the kids are up", "the wash has just gone on"
_SAID_OF = re.compile(r"^(?:the|my|our) ([a-z ]+?)(?:'s| is| are| was| were| has| have| had)\b")
# Words before a negated request or a remark that carry nothing ("no, don't turn it off")
_BEFORE_A_NEGATION = re.compile(rf"^(?:(?:{'|'.join(BEFORE_A_NEGATION)})(?: |$))+")
# A request said and negated ("don't turn the samovar off"), not one that asks after all ("don't forget to ...")
_NEGATED = re.compile(rf"^(?:{'|'.join(NEGATING_OPENINGS)})\b(?! (?:{'|'.join(NEGATION_ASKS)})\b)")
# A thing's state remarked on: left so by someone ("i left the propagator on all night"), or said of it ("the
# samovar is on", "the towel rail has been on since lunch"); "on" before a number is a level ("is on 19")
_LEFT = re.compile(rf"^(?:{'|'.join(LEAVERS)})(?: must have| might have| have|'ve)? left (?:the|my|our|your) ")
_STATE_REMARKED = re.compile(rf"^(?:the|my|our|your) (?:[a-z]+ ){{0,4}}?[a-z]+(?:{'|'.join(STATE_LINKS)})"
                             rf"(?: still| again| now)? (?:{'|'.join(REMARKED_STATES)})\b(?! \d)")
# A clause that says the state a thing must not be left in ("don't leave the propagator on")
_NEGATED_WISH = re.compile(rf"^(?:{'|'.join(NEGATED_WISHES)})\b")
# Words before a request that ask it be done ("don't forget to lock the annexe door")
_NOT_FORGETTING = re.compile(rf"^(?:{'|'.join(NOT_FORGETTING)}) (?=[a-z])")
# Words after a remark that ask after all, when a recogniser writes no comma ("the samovar's on turn it off")
_ASKED_AFTER = re.compile(rf"\b(?:{'|'.join(BARE_REQUEST_VERBS)}|please|can|could|would|will)\b")
_PLACE = re.compile(rf"\bin (?:the|my|our|this|that|his|her)\b(?! (?:{'|'.join(NO_PLACES)})\b)"
                    r"|\b(?:upstairs|downstairs|outside|outdoors)\b")

# A clause that asks: words of asking, then a verb of a request or words that ask without one ("could you put the
# towel rail on", "so lights out please"), after words that open a request and carry nothing
ASKING_CLAUSE = re.compile(rf"^(?:(?:{'|'.join(OPENING_WORDS)})\s+)*(?:(?:{'|'.join(ASKING_OPENERS)})\s+)?"
                           rf"({'|'.join(BARE_REQUEST_VERBS + REQUESTS_WITHOUT_A_VERB)})\b")
# A clause said of a subject the speaker names: "the towels are damp", "the baby's asleep" (REMARK's subjects are
# pronouns)
SAID_OF_A_SUBJECT = re.compile(rf"^(?:the|my|our) [a-z' ]+?(?:{'|'.join(SAID_OF_LINKS)})\b")
# A reason that may be left out beside a request: one of REASONS, or a word of REASONS_BESIDE_A_REQUEST before a
# person ("so i can read"); not "for the eggs" (what a timer is for), "while the" (Whisper's "what the"), "as it"
_REASON_LEFT_OUT = re.compile(rf"^(?:{'|'.join(REASONS)})\b"
                              rf"|^(?:{'|'.join(REASONS_BESIDE_A_REQUEST)}) (?:{'|'.join(REASONING_PEOPLE)})\b")
# A request clause cut before what it names or asks: "play the song called" (of "... called because i said so")
_UNFINISHED = re.compile(rf"\b(?:{'|'.join(UNFINISHED_ENDINGS)})$")
# A remark, then a word that joins the request to it, with no comma: "i'm off to bed so lights out please"
_JOINED_AFTER_A_REMARK = re.compile(rf"\s(?:{'|'.join(REMARK_JOINERS)})\s(?=(?:{'|'.join(ASKING_OPENERS)}\s+)?"
                                    rf"(?:{'|'.join(BARE_REQUEST_VERBS + REQUESTS_WITHOUT_A_VERB)})\b)")


@dataclass(frozen=True)
class Clause:
    """One clause of a request, as written, and as the normaliser reads it."""
    written: str
    said: str


def clauses(request: str) -> list[Clause]:
    """The request's clauses, in order; one when it has no break, none when it has more than MAX_CLAUSES."""
    parts = [part for piece in CLAUSE_END.split(request) for part in REASON_INSIDE.split(piece)]
    found = [Clause(part.strip(), said) for part in parts if (said := normalize_request(part))]
    # a clause said again at once is said once ("stop, stop, the bike's in the way"); one of words that open a
    # request and carry nothing is none ("go on then, switch it on, i'm making cocktails")
    found = [clause for i, clause in enumerate(found)
             if (i == 0 or clause.said != found[i - 1].said) and not _OPENING_ONLY.match(clause.said)]
    # a level or a length said alone goes with the clause before it: "bathroom light, twenty percent, it's late",
    # "timer, twenty minutes, the lasagne's in"
    for i in range(len(found) - 1, 0, -1):
        if _VALUE_ALONE.match(found[i].said):
            before, level = found[i - 1], found[i]
            found[i - 1:i + 1] = [Clause(f"{before.written} {level.written}", f"{before.said} {level.said}")]
    return found if 1 < len(found) <= MAX_CLAUSES else found[:1] if len(found) == 1 else []


def negated_or_remarked(request: str) -> bool:
    """Whether a request asks for nothing to be done: said and negated ("no need to open the pleated blind") or a
    thing's state remarked on ("i left the propagator on all night"), with only reasons and remarks beside it. The
    corpus asks without negations and remarks, so the model, Home Assistant's phrasings and the code's readings all
    read the request's words as asking; this one check before them makes no call."""
    found = [clause.said for clause in clauses(request)]
    while found and not _BEFORE_A_NEGATION.sub("", found[0]):          # "no, ..."
        found.pop(0)
    if not found:
        return False
    first, *rest = found
    bare = _BEFORE_A_NEGATION.sub("", first)                            # "no need to ..." is negated as it is
    remarked = _LEFT.match(bare) or _STATE_REMARKED.match(bare)
    negated = _NEGATED.match(first) or _NEGATED.match(bare)
    if not (negated or remarked and not _ASKED_AFTER.search(bare, remarked.end())):
        return False
    return all(REASON.match(other) or REMARK.match(other) for other in rest)


def asked_after_a_negation(request: str, vocabulary) -> str | None:
    """The request to read instead of one whose first clause says the state its thing must not be left in and
    whose second asks by a pronoun: "don't leave the propagator on, turn it off" is "turn the propagator off"; the
    model reads the whole request's negated state as the one asked. A request said after words that ask it be
    done, alone: "don't forget to turn off the kitchen light" is "turn off the kitchen light". None for any other
    request."""
    found = clauses(request)
    if len(found) == 1 and (opening := _NOT_FORGETTING.match(found[0].said)):
        return found[0].said[opening.end():]
    if len(found) != 2 or not _NEGATED_WISH.match(found[0].said):
        return None
    return topic_in_place(found, 1, vocabulary)


def takeable(request: str, vocabulary) -> list[str]:
    """The clauses (as written) a second reading may take as the whole request: none when any clause is a
    condition; else each that is no reason and no remark, and besides which every other clause carries
    nothing a call could need (vocabulary: the home's rooms, devices, names and areas,
    assistant.conversation.Vocabulary). A clause with a pronoun after the one clause that names a thing ("that
    larder extractor is noisy, turn it off") is taken with the thing in the pronoun's place, as normalised,
    when what is left of that clause carries nothing either."""
    found = clauses(request)
    if len(found) < 2 or any(CONDITION.match(c.said) for c in found):
        return []
    taken = []
    for i, clause in enumerate(found):
        if not _may_be_the_request(found, i):
            continue
        rests = [_without_a_remarks_place(other.said, vocabulary) for other in found if other is not clause]
        areas = [area for _, area in rests if area]
        if not all(_carries_nothing(rest, vocabulary, clause.said) for rest, _ in rests) or len(areas) > 1:
            continue
        if not areas:
            taken.append(clause.written)
        elif not _PLACE.search(clause.said) and not _names_an_area(clause.said, vocabulary):
            taken.append(f"{clause.said} in the {areas[0]}")
    return taken + [said for i in range(len(found)) if (said := topic_in_place(found, i, vocabulary))]


def parts_alone(request: str, vocabulary) -> list[str]:
    """The clauses (as written) a second opinion may match alone when the whole request matched nothing: each
    besides which every other clause names no thing of the home (but one it names too) and says no number, no level
    in words and no state but a remark's ("is the kiln on, i don't want the pots cracking"). Unlike takeable, a
    clause that may be a taking back is not left out: the checks of the call (Slots.refuses, on the whole request)
    still hold."""
    found = clauses(request)
    if len(found) < 2 or any(CONDITION.match(c.said) for c in found):
        return []
    return [clause.written for clause in found
            if not any(_NUMBER.search(other.said) or level_word_said(other.said) is not None
                       or names_a_thing(other.said, vocabulary, clause.said)
                       or (STATE_WORDS.search(other.said) and not REMARK.match(other.said))
                       for other in found if other is not clause)]


def topic_in_place(found: list[Clause], i: int, vocabulary) -> str | None:
    """Clause i as normalised, its pronoun replaced by the thing the one clause before it that names one
    names ("that larder extractor is noisy, turn it off": "turn the larder extractor off"; "the bread timer,
    how long has it got to go"; a state said alone is "turn it" to it: "the fairy lights, on please"); None when
    clause i has no pronoun, names a thing itself or may not be the
    request, or when what is left of the thing's clause, or any other clause, carries something a call could
    need; a state said of the thing is a remark ("the bathroom heater's been on all day, shut it down")."""
    bare = BARE_STATE.match(found[i].said)          # "the fairy lights, on please": "turn it on please"
    clause = Clause(found[i].written, BARE_STATE.sub(r"turn it \1", found[i].said))
    pronoun = PRONOUN.search(clause.said)
    if pronoun is None or not _may_be_the_request(found, i) or _thing(clause.said, vocabulary, at_start=False):
        return None
    topics = [(j, thing) for j, c in enumerate(found[:i]) if (thing := _topic(c.said, vocabulary))]
    if len(topics) != 1:
        return None
    rests = [_without_a_remarks_place(other.said, vocabulary) for j, other in enumerate(found)
             if j != i and j != topics[0][0]]
    areas = [area for _, area in rests if area]
    if not all(_carries_nothing(rest, vocabulary) for rest, _ in rests) or len(areas) > 1:
        return None
    j, (start, end) = topics[0]
    words = _words(found[j].said)
    if bare and words[0] not in _DETERMINERS:       # "lights, off": which ones is not said
        return None
    cut = start - 1 if start and words[start - 1] in _DETERMINERS else start
    rest = " ".join(words[:cut] + (["is"] if found[j].said.split()[end - 1].endswith("'s") else []) + words[end:])
    if not (_carries_nothing(rest, vocabulary)
            or (_SAID_OF_IT.match(rest) or _NEGATED_WISH.match(rest))
            and _carries_nothing(STATE_WORDS.sub("", rest), vocabulary)):
        return None
    thing = " ".join(words[start:end]).replace(" on the ", " in the ")      # "the bunting lights on the veranda"
    if areas:               # "the blind, open it, it's gloomy in the nursery": the remark's area, when none is said
        if _PLACE.search(thing) or _PLACE.search(clause.said):
            return None
        thing = f"{thing} in the {areas[0]}"
    return f"{clause.said[:pronoun.start()]}the {thing}{clause.said[pronoun.end():]}"


def _may_be_the_request(found: list[Clause], i: int) -> bool:
    """Clause i is no reason and no remark, and no clause after it takes it back."""
    said = found[i].said
    return not REASON.match(said) and not REMARK.match(said) \
        and not any(TAKES_BACK.search(later.said) and not NOT_DOING.match(later.said) for later in found[i + 1:])


def _carries_nothing(said: str, vocabulary, beside: str = "") -> bool:
    """The words carry nothing a call could need: no number (a remark's length of time is the speaker's), level in
    words ("the punkah on, half speed please"), place, thing of the home (but, in a question, one the clause beside them names too: "is the pond leaking, check the
    pond leak sensor") or state (a remark's state is the speaker's, "we're off on holiday", or its subject's, "the
    boat's tied up")."""
    beside = beside if asks_how_things_are(said) else ""      # "bring the pendant, mount a pendant" names it again
    # a remark's duration is the speaker's time: "i'll be back in a minute", "we're off in 10 minutes"
    return not (_NUMBER.search(_DURATION.sub("", said) if REMARK.match(said) else said) or level_word_said(said) is not None
                or _PLACE.search(said) or names_a_thing(said, vocabulary, beside)
                or (STATE_WORDS.search(said) and not REMARK.match(said) and not _said_of_nothing(said, vocabulary)))


def _topic(said: str, vocabulary) -> tuple[int, int] | None:
    """(start, end) of the words of the one thing a clause names (_thing), or of a timer or the thermostat
    said first ("the bread timer", "rice timer"), after a determiner, or brought up by a remark ("there's a timer
    running")."""
    timer = _TIMER_FIRST.match(said)
    if timer:
        start = len(timer.group(1).split()) if timer.group(1) else 0
        return start, start + len(timer.group(2).split())
    timer = (_TIMER_REMARKED if REMARK.match(said) else _TIMER_SAID).search(said)
    if timer:
        start = len(said[:timer.start(1)].split())
        return start, start + len(timer.group(1).split())
    return _thing(said, vocabulary)


def _without_a_remarks_place(said: str, vocabulary) -> tuple[str, str | None]:
    """A remark without the place it is said of, and that place when it is an area of the home ("it's
    sweltering in the conservatory", "the cellar's getting musty": the request is there too); a place the home
    does not know is none of its ("there's rain in the boat"). Any other clause as it is."""
    subject = _AREA_SAID_OF.match(said)
    if subject and _is_an_area(subject.group(1), vocabulary):
        return said[subject.end():], subject.group(1)         # "the cellar's getting musty"
    place = _PLACE.search(said)
    if place is None or not REMARK.match(said):
        return said, None
    before, words = said[:place.start()].strip(), said[place.end():].split()
    for n in range(len(words), 0, -1):
        area = " ".join(words[:n])
        if _is_an_area(area, vocabulary):
            return " ".join([before, *words[n:]]), area
    return (said, None) if names_a_thing(" ".join(words), vocabulary) else (before, None)


def _said_of_nothing(said: str, vocabulary) -> bool:
    """A remark about something the home does not have, whose state is its own ("the boat's tied up", "the
    kids are up"): the home has no such thing to set."""
    subject = _SAID_OF.match(said)
    return subject is not None and not names_a_thing(subject.group(1), vocabulary)


def _names_an_area(said: str, vocabulary) -> bool:
    words = said.split()
    return any(_is_an_area(" ".join(words[i:j]), vocabulary) for i, j in vocabulary.spans(words, range(len(words))))


def _is_an_area(phrase: str, vocabulary) -> bool:
    """An area of a user's own home or a room of the default one."""
    return phrase in vocabulary.areas or phrase in vocabulary.rooms


def _words(said: str) -> list[str]:
    """The words, a name's "'s" ("the lamp's too dim") taken off."""
    return [word.removesuffix("'s") for word in said.split()]


def _thing(said: str, vocabulary, at_start: bool = True) -> tuple[int, int] | None:
    """(start, end) of the words of the one thing the clause names, with the area said after it ("the pleated
    blind in the nursery"), after its determiner ("that larder extractor"); None when it names none or more
    than one, or only an area. A word alone is a thing when said after a determiner, or (unless not
    at_start: "lock it up" locks, it names no lock) first or nearly all that is said."""
    words = _words(said)
    known = [False] * len(words)
    for i, j in vocabulary.spans(words, range(len(words))):
        if _knows(vocabulary, " ".join(words[i:j])):
            known[i:j] = [True] * (j - i)
    runs, i = [], 0
    while i < len(words):
        if not known[i]:
            i += 1
            continue
        start = i
        while i < len(words) and (known[i] or tuple(words[i:i + 2]) in _IN_AREA and i + 2 < len(words) and known[i + 2]):
            i += 3 if not known[i] else 1
        if _said_as_a_thing(words, start, i, at_start) and not _said_with_an_unknown_word(words, start):
            runs.append((start, i))
    if len(runs) != 1:
        return None
    start, end = runs[0]
    if _is_an_area(" ".join(words[start:end]), vocabulary):
        return None
    return start, end


_DETERMINERS = {"the", "my", "our", "your", "this", "that", "a", "an"}


def names_a_thing(said: str, vocabulary, beside: str = "") -> bool:
    """The words name a thing of the home: a phrase of two words or more the home knows, or one word that is
    said as a thing ("the gate") or is nearly all that is said; not one whose words the words beside say too. A
    word of a longer name said otherwise ("the washing is still wet" in a home with a still room) names nothing;
    "the urn's" names the urn."""
    words, said_beside = _words(said), set(_words(beside))
    for i, j in vocabulary.spans(words, range(len(words))):
        if _knows(vocabulary, " ".join(words[i:j])) and _said_as_a_thing(words, i, j) \
                and not set(words[i:j]) <= said_beside:
            return True
    return False


def _said_as_a_thing(words: list[str], start: int, end: int, at_start: bool = True) -> bool:
    """Known words[start:end] are said as a thing: two words or more, after a determiner, or (at_start) first
    or nearly all that is said."""
    return end - start > 1 or (start > 0 and words[start - 1] in _DETERMINERS) \
        or (at_start and (start == 0 or len(words) <= 2))


def _said_with_an_unknown_word(words: list[str], start: int) -> bool:
    """A word the home does not know, no one's, is said between the determiner and known words of several things
    ("the bottom lights on the veranda": some of the veranda's lights, not all of them; "the kids' telly" is
    the telly)."""
    return start > 1 and words[start - 2] in _DETERMINERS and words[start - 1] not in _DETERMINERS \
        and "'" not in words[start - 1] and words[start].endswith("s")


def _knows(vocabulary, phrase: str) -> bool:
    """The phrase names a thing or a place of the home: in a user's own home one of its names or areas (a word
    of the default home, "the sun's on the telly", names nothing there)."""
    if vocabulary.names or vocabulary.areas:
        return phrase in vocabulary.names or phrase in vocabulary.areas
    return vocabulary.knows(phrase)


def reading_taken(whole, clause_readings: list):
    """The reading a reply follows (each a ReplyReader): the whole request's when it makes a call; else the one
    clause's that makes a call, or the first of several that make the same call ("the gallery temperature,
    what's it at": both clauses read it); the whole request's again when no clause or different calls do."""
    if whole.call is not None:
        return whole
    called = [reading for reading in clause_readings if reading.call is not None]
    same = called and all((r.call.name, r.call.arguments) == (called[0].call.name, called[0].call.arguments)
                          for r in called)
    return called[0] if same else whole


def request_beside_remarks(request: str, vocabulary) -> str | None:
    """The one clause (as written) that asks, to be read instead of the whole request, when every other clause is
    a remark or a reason that carries nothing a call could need: "put the towel rail on, the towels are damp", "the
    baby's asleep - turn the bedroom telly down", "i'm off to bed so lights out please". The corpus asks without
    them, and the model reads a remark's words as the request's ("the logs are in" opened the log splitter). None
    when no clause or several ask, the asking one stands for a thing by a pronoun (topic_in_place reads it), a
    remark says a place, an area, a number or a level (the request may need it: "it's cold in the kitchen, put the
    heating up"), or any clause is a condition or takes the request back; or the asking clause ends before what it
    names ("play the song called, because i said so") or names nothing the home knows (a name misheard: Whisper's
    "open the carriage horse door", whose remark's words may be what the model needs). A remark alone is never a
    request."""
    found = [part for clause in clauses(request) for part in _after_a_remark(clause)]
    if not 1 < len(found) <= MAX_CLAUSES or any(CONDITION.match(clause.said) for clause in found):
        return None
    asking = [clause for clause in found if ASKING_CLAUSE.match(clause.said)]
    if len(asking) != 1 or PRONOUN.search(asking[0].said) or _UNFINISHED.search(asking[0].said) \
            or not _says_what_it_asks(asking[0].said) or not names_a_thing(asking[0].said, vocabulary):
        return None
    later = found[found.index(asking[0]) + 1:]
    if any(TAKES_BACK.search(clause.said) and not NOT_DOING.match(clause.said) for clause in later):
        return None
    remarks = [clause.said for clause in found if clause is not asking[0]]
    if not all((_REASON_LEFT_OUT.match(said) or REMARK.match(said) or SAID_OF_A_SUBJECT.match(said))
               and not _NUMBER.search(_DURATION.sub("", said)) and level_word_said(said) is None
               and not _PLACE.search(said) and not _names_an_area(said, vocabulary) for said in remarks):
        return None
    return asking[0].written


def _says_what_it_asks(said: str) -> bool:
    """An asking clause says more than its verb and one word: "remind me" (of Whisper's "remind me while the date
    is today") or "switch" (of "switch, it on") asks for what the words beside it say."""
    opening = ASKING_CLAUSE.match(said)
    return opening.group(1) in REQUESTS_WITHOUT_A_VERB or len(said[opening.end():].split()) >= 2


def _after_a_remark(clause: Clause) -> list[Clause]:
    """A clause that is a remark and then, after a joining word, a request (_JOINED_AFTER_A_REMARK), as the two; any
    other clause as it is."""
    if not (REMARK.match(clause.said) or SAID_OF_A_SUBJECT.match(clause.said)):
        return [clause]
    joined = _JOINED_AFTER_A_REMARK.search(clause.written.lower())
    if joined is None:
        return [clause]
    remark, asked = clause.written[:joined.start()], clause.written[joined.end():]
    return [Clause(remark.strip(), normalize_request(remark)), Clause(asked.strip(), normalize_request(asked))]
