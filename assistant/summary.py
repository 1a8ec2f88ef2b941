"""A summary of the home's states: "is anything on in the kitchen", "which lights are on", "are all the doors
locked", "what's open" (skills list_states), and "turn them off" after one (switch_listed).

Read by code from the words (vocabulary.SUMMARY_*): the shipped checkpoint was trained before these skills. A request
is a summary only where each of its words is a question's, a quantifier's, a filler's, a state's, a kind's or an area
of the home's, so that a request that names a thing ("is the kitchen light on") or asks anything else is left to the
model. The answer names what is in the state as a short list, things that have not reported left out.
"""
import re

from assistant.inventory import Entity, Inventory
from assistant.vocabulary import (LISTED_SWITCHED, LISTED_SWITCHED_OPENERS, LISTED_SWITCHED_TAILS, MAX_LISTED,
                                  OPENING_CLASSES, OPPOSITE_STATE, ROOM_SPOKEN, ROOMS, STATES, SUMMARY_ALL,
                                  SUMMARY_COMPONENTS, SUMMARY_FILLERS, SUMMARY_KINDS, SUMMARY_QUESTIONS, SUMMARY_STATES,
                                  SUMMARY_WHICH, agreeing)

_WORD = re.compile(r"[a-z0-9']+")
_LISTED_SWITCHED = re.compile(
    rf"^(?:(?:{'|'.join(LISTED_SWITCHED_OPENERS)}) )*(?P<said>"
    + "|".join(form.format(state=rf"(?P<{state}{i}>{state})") for i, form in enumerate(LISTED_SWITCHED)
               for state in STATES)
    + rf")(?: (?:{'|'.join(LISTED_SWITCHED_TAILS)}))*$")


def _areas(inventory: Inventory) -> dict[str, str]:
    """The home's areas as said, to the area each names: its own, and in the default home the vocabulary's other
    words for its rooms ("lounge": the living room)."""
    areas = {area: area for area in inventory.areas()}
    if not inventory.custom:
        areas |= {word: ROOM_SPOKEN[room] for room, words in ROOMS.items() for word in words
                  if ROOM_SPOKEN[room] in areas}
    return areas


def summary_asked(request: str, inventory: Inventory) -> dict | None:
    """The list_states call of a request that asks which things are in a state, or whether all are, by its words
    alone; None for any other request."""
    said = " ".join(_WORD.findall(request.lower()))
    area = None
    for words, named in sorted(_areas(inventory).items(), key=lambda item: -len(item[0])):
        if re.search(rf"\b{re.escape(words)}\b", said):
            area = named
            said = re.sub(rf"\b{re.escape(words)}\b", " ", said, count=1)
            break
    words = said.split()
    states = [SUMMARY_STATES[word] for word in words if word in SUMMARY_STATES]
    kinds = [word for word in words if word in SUMMARY_KINDS]
    known = {*SUMMARY_QUESTIONS, *SUMMARY_WHICH, *SUMMARY_ALL, *SUMMARY_FILLERS, *SUMMARY_STATES, *SUMMARY_KINDS}
    if not words or words[0] not in SUMMARY_QUESTIONS or len(states) != 1 or len(kinds) > 1 or \
            any(word not in known for word in words) or any(word in SUMMARY_ALL for word in words) == \
            any(word in SUMMARY_WHICH for word in words):
        return None
    asked = "all" if any(word in SUMMARY_ALL for word in words) else "which"
    kind = SUMMARY_KINDS[kinds[0]] if kinds else None
    return {"name": "list_states", "arguments": {"state": states[0], "asked": asked, **({"kind": kind} if kind else {}),
                                                 **({"area": area} if area else {})}}


def listed_switched(request: str) -> str | None:
    """"on" or "off" for a request that switches the things just listed ("turn them off"), else None."""
    said = _LISTED_SWITCHED.match(" ".join(_WORD.findall(request.lower())))
    return None if said is None else next(state for key, state in said.groupdict().items()
                                          if state and key != "said")


def summary_components(state: str) -> tuple[str, ...]:
    """The kinds of thing whose state says whether they are in state (or its opposite)."""
    return next(components for asked, components in SUMMARY_COMPONENTS.items()
                if state in (asked, OPPOSITE_STATE[asked]))


def state_in_summary(entity: Entity, state: str | None) -> str | None:
    """A thing's reported state as a summary says it: on or off, open or closed, locked or unlocked; None for a thing
    that has not reported, or a binary sensor that says no opening."""
    if state is None:
        return None
    if entity.component == "lock":
        return state if state in ("locked", "unlocked") else None
    if entity.component == "binary_sensor":
        return None if entity.device_class not in OPENING_CLASSES else "open" if state == "on" else "closed"
    if entity.component in ("cover", "valve"):
        return "closed" if state in ("closed", "closing") else "open"
    return "off" if state in ("off", "standby", "unavailable") else "on"


def _names(entities: list[Entity]) -> list[str]:
    """The things as a list says them: "the kettle", with its area where another of its name is listed too."""
    return [f"the {e.name}" + (f" in the {e.area}" if e.area and e.area not in e.name and
                               sum(other.name == e.name for other in entities) > 1 else "") for e in entities]


def listed(entities: list[Entity]) -> str:
    """ "the kitchen light, the kettle and the fan"."""
    names = _names(entities)
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]


def in_state(found: list[Entity], states: list[str | None], state: str, asked: str) -> list[Entity]:
    """What of found (their states in summary words) the answer names: those in the state asked, or for asked "all",
    those that are not."""
    wanted = state if asked == "which" else OPPOSITE_STATE[state]
    return [entity for entity, said in zip(found, states) if said == wanted]


def summary_sentence(state: str, asked: str, kind: str | None, area: str | None, found: list[Entity],
                     states: list[str | None]) -> str:
    """The answer to a summary: what of found (their states in summary words) is in the state asked, as a short list
    ("The kitchen light and the kettle are on."), a count and the first few past MAX_LISTED; for asked "all", those
    that are not, or "All 3 doors are locked."; things that have not reported left out, and said where none has."""
    where = f" in the {area}" if area else ""
    if not found:
        return f"I don't know any {kind}{where} that can be {state}." if kind else \
            f"I don't know anything{where} that can be {state}."
    reported = [entity for entity, said in zip(found, states) if said is not None]
    if not reported:
        return f"None of the {kind or 'things'}{where} {'has' if len(found) == 1 else 'have'} reported yet."
    named = in_state(found, states, state, asked)
    if not named and asked == "which":
        return f"No {kind} are {state}{where}." if kind else f"Nothing is {state}{where}."
    if not named:
        if len(reported) == 1:
            return f"The {reported[0].name} {agreeing(reported[0].name, 'is')} {state}."
        return f"All {len(reported)} {kind} are {state}{where}." if kind else f"Everything is {state}{where}."
    wanted = state if asked == "which" else OPPOSITE_STATE[state]
    if len(named) > MAX_LISTED:
        return f"{len(named)} {kind or 'things'} are {wanted}{where}, among them {listed(named[:3])}."
    return f"{said_first(named)} {'are' if len(named) > 1 else agreeing(named[0].name, 'is')} {wanted}."


def said_first(entities: list[Entity]) -> str:
    """The list at the start of a sentence: "The kitchen light and the kettle"."""
    sentence = listed(entities)
    return sentence[0].upper() + sentence[1:]
