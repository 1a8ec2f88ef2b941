"""A request that joins two to four things, areas or whole requests with "and": "turn off the kitchen light and the
bedroom light", "turn off the lights in the kitchen and the bedroom", "turn off the kitchen and bedroom lights",
"turn the kitchen light off and the bedroom light on", "turn on the kitchen light and set a timer for 5 minutes".

The corpus asks for one thing at a time, so the model reads one of the things or none. Code reads the request part
by part: a part with its own verb is a request as said; a thing, or an area, said alone after the first part takes
that part's verb and, unless it says its own, its state or value. Each part is then answered as a request of its
own (assistant.embedded), and one reply says what was done. A name of the home that holds "and" ("the salt and
pepper lamp") is one name. Language as data: assistant.vocabulary's PART_JOINERS, OWN_STATES, OWN_VALUES.
"""
import re

from assistant.clauses import _is_an_area, _names_an_area, clauses
from assistant.later import not_now
from assistant.lists import list_asked
from assistant.spoken_numbers import normalize_request
from assistant.vocabulary import (BARE_REQUEST_VERBS, COLOUR_ASKED, COLOUR_NAMES, DONE_OPENING, JOINED_DONE, KELVIN_WORDS,
                                  OWN_STATES, OWN_VALUES, PART_JOINERS, WHITE_TEMPERATURES)

MAX_PARTS = 4           # a longer run of things joined is no request said at once
MAX_JOINERS = 2 * MAX_PARTS     # joining words, those inside names ("the salt and pepper lamp") too: each is looked
                                # for in the names around it, so a request of thousands of "and"s is read whole
_DETERMINERS = ("the", "my", "our")
_JOINER = re.compile(rf"\s(?:{'|'.join(PART_JOINERS)})\s")
# A colour or white said after the last of several things, with its "to" ("... and the strip lights to warm white")
_COLOUR_AFTER = re.compile(r"(?: (?:to|at))? (?:" + "|".join(re.escape(colour) for colour in sorted(
    (*COLOUR_NAMES, *WHITE_TEMPERATURES), key=len, reverse=True)) + r"|\d{4,5} ?(?:" + "|".join(KELVIN_WORDS) + r"))$")
# A light's colour asked of the things or areas said after it ("what colour are the study and lounge lights"): each
# asked alone, as a request's verb is said again before each thing
_COLOUR_QUESTION = re.compile(rf"^(?:{'|'.join(map(re.escape, COLOUR_ASKED))})(?: is| are)? (?=the |my |our )")
# A part said done ("Okay, the kitchen light is off."): its thing and state, to say parts done alike once
_DONE_ALIKE = re.compile(rf"^{DONE_OPENING}(the .+?) (?:is|are) ([a-z]+)\.$")
# A done part's thing, its verb and what it is now ("the lounge lamp", "is", "on"), to name a thing done twice once;
# a part of several sentences is said as it is
_DONE_BODY = re.compile(r"^(the .+?) (is|are) ((?:(?!\. ).)+)$")


def joined_parts(request: str, vocabulary) -> list[str]:
    """Each request the request joins, in order, as said alone; none when it joins none (or more than MAX_PARTS, or
    says more than MAX_JOINERS joining words), when the first part opens with no verb and asks no colour ("what colour
    are the study and lounge lights" asks each area's), when a part is neither a request with its own verb nor a thing
    or an area said after the first (a list request beside another is one: _list_beside), or when it is said in clauses (assistant.clauses), or when its words put it later (assistant.later: "turn off the kitchen
    light and the bedroom light in 10 minutes" is about both, so no part is made now)."""
    said = _listed(request)
    if said is None or not_now(request) is not None:
        return []
    if len(_JOINER.findall(said)) > MAX_JOINERS:
        return []
    listed = _list_beside(said)
    if listed:
        return listed
    pieces = _pieces(said, vocabulary)
    if not 1 < len(pieces) <= MAX_PARTS or not all(pieces) or \
            _verb(pieces[0]) is None and not _COLOUR_QUESTION.match(pieces[0]):
        return []
    pieces = _kind_shared(pieces, vocabulary)
    if any(len(piece.split()) < 2 for piece in pieces) or _placed_after(pieces, vocabulary):
        return []
    first = _frame(pieces[0])
    parts = [pieces[0]]
    for piece in pieces[1:]:
        part = piece if _verb(piece) is not None else _said_like(first, piece, vocabulary)
        if part is None:
            return []
        parts.append(part)
    return _as_a_group(first, pieces, vocabulary) or _colour_shared(parts)


def _list_beside(said: str) -> list[str]:
    """A list request and another request, joined ("add milk to my shopping list and set a timer for 5 minutes"):
    the two; a list request's own "and"s join its items, so it is cut only where one side is a whole list request
    (assistant.lists) and the other opens with a verb or is one too. None for other requests."""
    for joiner in _JOINER.finditer(said):
        first, then = said[:joiner.start()].strip(), said[joiner.end():].strip()
        if list_asked(first) and (_verb(then) or list_asked(then)) or list_asked(then) and _verb(first):
            return [first, then]
    return []


def _colour_shared(parts: list[str]) -> list[str]:
    """The parts with the colour or white said after the last thing given to each before it that says no state or
    value of its own ("set the lounge lamp and the strip lights to warm white": "set the lounge lamp to warm white",
    "make the lamp and the strip blue": "make the lamp blue")."""
    colour = _COLOUR_AFTER.search(parts[-1])
    if colour is None or any(_frame(part)[2] or _COLOUR_AFTER.search(part) for part in parts[:-1]):
        return parts
    return [f"{part}{colour.group()}" for part in parts[:-1]] + [parts[-1]]


def _as_a_group(first: tuple[list[str], list[str], list[str]], pieces: list[str], vocabulary) -> list[str]:
    """The one request for things joined that are every light of one area ("switch on the salt lamp and the arc lamp"
    where those are the snug's lights): "switch on all the lights in the snug"; none for other things."""
    verb, thing, after = first
    said = [" ".join(thing).removeprefix("the ")]
    for piece in pieces[1:]:
        words = piece.removeprefix("the ").split()
        if _verb(piece) is not None or _own_end(words, 1) < len(words):
            return []
        said.append(" ".join(words))
    areas = {vocabulary.places.get(name) for name in said}
    area = areas.pop() if len(areas) == 1 else None
    lights = {name for name, place in vocabulary.places.items() if place == area and vocabulary.kinds.get(name) == "light"}
    if area is None or set(said) != lights:
        return []
    return [" ".join([*verb, "all the lights in the", area, *after])]


def _listed(request: str) -> str | None:
    """The request as normalised, its clauses joined by "and" where they list things before one said after "and"
    ("turn on the kitchen light, the bedroom light and the office fan") or join a request after a comma ("..., and
    set a timer"); None for other clauses (a reason, a remark: assistant.clauses)."""
    found = [clause.said for clause in clauses(request)]
    if len(found) < 2:
        return normalize_request(request) if found else None
    *_, last = found
    if not (last.startswith("and ") or " and " in last) \
            or any(_verb(said) is not None for said in found[1:] if not said.startswith("and ")):
        return None
    return " and ".join(said.removeprefix("and ") for said in found)


def _placed_after(pieces: list[str], vocabulary) -> bool:
    """The last piece, a thing said alone, says a place the first does not ("turn on the light and the fan in the
    kitchen"): the place may be every thing's, so the request is read whole."""
    place = re.search(r"\b(?:in|on) (?:the |my |our )?([a-z ]+)$", pieces[-1])
    return _verb(pieces[-1]) is None and place is not None and _is_an_area(place.group(1), vocabulary) \
        and not _names_an_area(pieces[0], vocabulary)


def _pieces(said: str, vocabulary) -> list[str]:
    """The words between the joining words, each joining word inside a name the home knows left in it."""
    pieces, start = [], 0
    for joiner in _JOINER.finditer(said):
        if not _inside_a_name(said, joiner.start() + 1, joiner.end() - 1, vocabulary):
            pieces.append(said[start:joiner.start()].strip())
            start = joiner.end()
    return [*pieces, said[start:].strip()] if pieces else [said]


def _inside_a_name(said: str, start: int, end: int, vocabulary) -> bool:
    """A name of the home holds the joining words said[start:end] ("the salt and pepper lamp", "tom and jerry lamp")."""
    words = said.split()
    at, upto = len(said[:start].split()), len(said[:end].split())
    return any(i < at and upto <= j and vocabulary.knows(" ".join(words[i:j]))
               for i, j in vocabulary.spans(words, range(at)))


def _verb(piece: str) -> str | None:
    """The request verb that opens a piece ("turn", "set"), after "please"; None when it opens with none."""
    words = piece.removeprefix("please ").split()
    return words[0] if words and words[0] in BARE_REQUEST_VERBS else None


def _frame(piece: str) -> tuple[list[str], list[str], list[str]]:
    """The first part as (its verb's words, its thing's words with the determiner, its own state or value after)."""
    words = piece.split()
    start = next((i for i, word in enumerate(words) if word in _DETERMINERS), None)
    if start is None:                    # "turn off kitchen light": the thing after the verb and its particle
        start = 1 + (len(words) > 2 and words[1] in OWN_STATES)
    end = _own_end(words, start)
    return words[:start], words[start:end], words[end:]


def _own_end(words: list[str], start: int) -> int:
    """Where a thing's words end and its own state or value begins ("the bedroom light on", "the fan to high")."""
    for i in range(start + 1, len(words)):
        if words[i] in OWN_VALUES or words[i] in OWN_STATES and i == len(words) - 1:
            return i
    return len(words)


def _said_like(first: tuple[list[str], list[str], list[str]], piece: str, vocabulary) -> str | None:
    """A thing or an area said after the first part, as a request of its own: with the first part's verb, and its
    state or value unless the piece says its own (an area's own colour said after it too); None when the piece names
    neither."""
    verb, thing, after = first
    words = piece.split()
    bare = words[1:] if words and words[0] in _DETERMINERS else words
    if not bare:
        return None
    area = _area_at_end(thing, vocabulary)
    if area is not None and _is_an_area(" ".join(bare), vocabulary):       # "... in the kitchen and the bedroom"
        return " ".join([*verb, *thing[:area], *bare, *after])
    coloured = _COLOUR_AFTER.search(" ".join(bare))     # "... in the kitchen and the bedroom red": each area's lights
    if area is not None and coloured and _is_an_area(" ".join(bare)[:coloured.start()], vocabulary):
        return " ".join([*verb, *thing[:area], *bare])
    end = _own_end(words, 1)
    if words[0] not in _DETERMINERS and not _leading_area(bare, vocabulary) \
            and not (end > 1 and vocabulary.names_a_thing(" ".join(words[:end]))):    # "and light": whose light?
        return None
    said = words if words[0] in _DETERMINERS or not thing or thing[0] not in _DETERMINERS else [thing[0], *words]
    return " ".join([*verb, *said, *(after if end == len(words) else [])])


def _kind_shared(pieces: list[str], vocabulary) -> list[str]:
    """The pieces with the kind said after the last of several areas said alone given to each ("turn off the kitchen
    and bedroom lights": "turn off the kitchen lights", "bedroom lights"); a colour said after the last area is no kind
    ("... in the kitchen and the bedroom red": _said_like)."""
    *before, last = pieces
    words = last.split()
    bare = words[1:] if words and words[0] in _DETERMINERS else words
    opening = _leading_area(bare, vocabulary)
    first = before[0].split()
    if not opening or opening == len(bare) or _verb(last) is not None or _area_at_end(first, vocabulary) is None \
            or _COLOUR_AFTER.match(" " + " ".join(bare[opening:])) \
            or not all(_is_an_area(piece.removeprefix("the ").removeprefix("my ").removeprefix("our "), vocabulary)
                       for piece in before[1:]):
        return pieces
    return [" ".join([*piece.split(), *bare[opening:]]) for piece in before] + [last]


def _area_at_end(words: list[str], vocabulary) -> int | None:
    """Where the area that ends the words starts ("the lights in the kitchen": 4), None when they end in none."""
    return next((i for i in range(len(words)) if _is_an_area(" ".join(words[i:]), vocabulary)), None)


def _leading_area(words: list[str], vocabulary) -> int:
    """How many words open with an area ("bedroom lights": 1), 0 when none does."""
    return next((j for j in range(len(words), 0, -1) if _is_an_area(" ".join(words[:j]), vocabulary)), 0)


def unknown_thing(part: str, vocabulary) -> str | None:
    """The thing a part names after its determiner when the home knows no such thing ("turn on the attic light":
    "attic light"), to say so when the part could not be done; None when it names one the home knows, or none."""
    _, thing, _ = _frame(part)
    if len(thing) < 2 or thing[0] not in _DETERMINERS:
        return None
    words = " ".join(thing[1:]).partition(" in ")[0].split()      # "the lamp in the den": the lamp
    known = vocabulary.knows(" ".join(words)) or any(       # or an area's thing: "kitchen light"
        vocabulary.knows(" ".join(words[:i])) and vocabulary.knows(" ".join(words[i:])) for i in range(1, len(words)))
    return None if known else " ".join(words)


def _named_once(bodies: list[str]) -> list[str]:
    """The done parts' words, a thing done in parts one after another named once ("the lounge lamp is on" and "the
    lounge lamp is blue": "the lounge lamp is on and blue"), as a user says it."""
    said, run = [], []
    for body in [*bodies, None]:
        match = _DONE_BODY.match(body) if body is not None else None
        if run and (match is None or match.group(1, 2) != run[0].group(1, 2)):
            *before, last = [each.group(3) for each in run]
            said.append(f"{' '.join(run[0].group(1, 2))} {', '.join(before)} and {last}" if before else run[0].group())
            run = []
        if match is not None:
            run.append(match)
        elif body is not None:
            said.append(body)
    return said


def joined_reply(texts: list[str]) -> str:
    """One reply for the parts' replies: parts done alike said once ("Okay, the kitchen light and the bedroom light
    are off."), else each done part joined after the first ("Okay, the kitchen light is on, and ..."); a part not
    done said as it was, after them."""
    done = [text for text in texts if text.startswith(DONE_OPENING)]
    rest = [text for text in texts if not text.startswith(DONE_OPENING)]
    alike = [_DONE_ALIKE.match(text) for text in done]
    if len(done) > 1 and all(alike) and len({match.group(2) for match in alike}) == 1:
        things = [match.group(1) for match in alike]
        said = [f"{DONE_OPENING}{', '.join(things[:-1])} and {things[-1]} are {alike[0].group(2)}."]
    elif done:
        bodies = _named_once([text.removeprefix(DONE_OPENING).rstrip(".") for text in done])
        said = [f"{DONE_OPENING}{JOINED_DONE.join(bodies)}."]
    else:
        said = []
    return " ".join([*said, *rest])
