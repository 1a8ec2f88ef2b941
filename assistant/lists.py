"""The home's lists said in words: "add milk and eggs to the shopping list", "what's on my to-do list", "take bread
off the shopping list", "I've got the milk", "clear the hardware list". Skills add_to_list, remove_from_list,
get_list and clear_list, read by code from the words (vocabulary.LIST_ADDED, LIST_REMOVED, LIST_BOUGHT, LIST_READ,
LIST_CLEARED): the shipped checkpoint was trained before them. A request is read only where the whole of it, past a
few openers and tails, is one of their phrasings; its items are spans copied from the words.

The lists belong to the home, not to a conversation: ToolRunner keeps them in its ListBook, the state store where
the server has one (streaming.store.Store.rewrite_lists), so a restart or another gateway reads the same lists.
"""
import copy
import re
from typing import Protocol

from assistant.vocabulary import (LIST_ADDED, LIST_BOUGHT, LIST_CLEARED, LIST_ITEM_JOINS, LIST_ITEM_OPENERS,
                                  LIST_NAMES, LIST_NOT_A_NAME, LIST_READ, LIST_REMOVED, LIST_REQUEST_OPENERS, LIST_REQUEST_TAILS)


def _any_of(words) -> str:
    return "|".join(map(re.escape, sorted(words, key=len, reverse=True)))


# "the shopping list", "my to-do list", "our hardware list", "my list": a name of LIST_NAMES ("to do"), or one of at
# most two words, or none
_WORD = rf"(?!(?:{_any_of(LIST_NOT_A_NAME)}) )[a-z][a-z'-]*"
_LIST = rf"(?:(?:the|my|our) )?(?:(?P<list>{_any_of(name for name in LIST_NAMES if name)}|{_WORD}(?: {_WORD})?) )?list"
_ITEMS = r"(?P<items>\S.*?)"
_AROUND = rf"^(?:(?:{_any_of(LIST_REQUEST_OPENERS)}) )*(?:{{}})(?: (?:{_any_of(LIST_REQUEST_TAILS)}))*$"


def _each(forms) -> list[re.Pattern]:
    """One pattern per phrasing (a group name may stand once in a pattern)."""
    return [re.compile(_AROUND.format(re.escape(form).replace(re.escape("{items}"), _ITEMS)
                                      .replace(re.escape("{list}"), _LIST)), re.IGNORECASE) for form in forms]


_SKILLS = (("add_to_list", _each(LIST_ADDED)), ("remove_from_list", _each(LIST_REMOVED)),
           ("get_list", _each(LIST_READ)), ("clear_list", _each(LIST_CLEARED)))
_BOUGHT = _each(LIST_BOUGHT)
_JOINS = re.compile(rf"\s*,\s*(?:and\s+)?|\s+(?:{_any_of(w for w in LIST_ITEM_JOINS if w != ',')})\s+", re.IGNORECASE)
_OPENER = re.compile(rf"^(?:(?:{_any_of(LIST_ITEM_OPENERS)})\s+)+", re.IGNORECASE)


def _cleaned(said: str) -> str:
    """The request as typed or heard, with no end stop, curly apostrophe or run of spaces."""
    return " ".join(said.replace("\u2019", "'").split()).rstrip(".!?").strip()


def list_name(said: str | None) -> str:
    """The name a list is kept by: "grocery" is the shopping list, "to do" the to-do list."""
    said = " ".join((said or "").lower().split())
    return LIST_NAMES.get(said, said)


def items_said(words: str) -> list[str]:
    """The items of a span, each as said, without the words that open one and say nothing ("some milk, eggs and the
    bread": milk, eggs, bread); each once."""
    items = [_OPENER.sub("", item).strip() for item in _JOINS.split(words)]
    kept: list[str] = []
    for item in items:
        if item and item.lower() not in (k.lower() for k in kept):
            kept.append(item)
    return kept


def list_asked(said: str) -> tuple[dict, bool] | None:
    """The list call a request is, and whether it is only meant where its items are all on the shopping list ("I've
    got the milk" names no list); None for any other request."""
    request = _cleaned(said)
    for name, patterns in _SKILLS:
        for pattern in patterns:
            found = pattern.match(request)
            if found is None:
                continue
            arguments = {"list_name": list_name(found["list"])}
            if "items" in pattern.groupindex:
                items = items_said(found["items"])
                if not items:
                    continue
                arguments["items"] = items
            return {"name": name, "arguments": arguments}, False
    for pattern in _BOUGHT:
        found = pattern.match(request)
        items = items_said(found["items"]) if found else []
        if items:
            return {"name": "remove_from_list", "arguments": {"list_name": "shopping", "items": items}}, True
    return None


def on_the_list(items: list[str], kept: list[str]) -> list[str]:
    """The items of kept that those said name, whatever their case."""
    said = {item.lower() for item in items}
    return [item for item in kept if item.lower() in said]


class ListBook(Protocol):
    """Where the home's lists live ({name: [items]}): in this process (LocalLists), or in the state store
    (streaming.store.Store), where every gateway reads the same."""

    async def rewrite_lists(self, change) -> object:
        """Read the lists, keep what change(lists) gives first and return what it gives second, as one step against
        every other writer."""


class LocalLists:
    """The home's lists in this process: the text chat's, or a runner's made with no store."""

    def __init__(self):
        self._lists: dict[str, list[str]] = {}

    async def rewrite_lists(self, change) -> object:
        self._lists, result = change(copy.deepcopy(self._lists))
        return result
