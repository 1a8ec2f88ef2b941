"""The home's lists said in words: "add milk and eggs to the shopping list", "what's on my to-do list", "take bread
off the shopping list", "I've got the milk", "clear the hardware list", "how many things are on my shopping list", "is milk on my shopping list". Skills
add_to_list, remove_from_list, get_list and clear_list, read by code from the words (vocabulary.LIST_ADDED,
LIST_REMOVED, LIST_BOUGHT, LIST_READ, LIST_COUNTED, LIST_HAS, LIST_CLEARED): the shipped checkpoint was trained
before them. A request is read only where the whole of it, past a few openers and tails, is one of their phrasings;
its items are spans copied from the words, split at "and" and commas except inside an item said joined
(LIST_JOINED_ITEMS: "salt and pepper") or one already on the list whole. Follow-ups ("and eggs", "take that off")
are rewritten into such requests by assistant.conversation.standalone.

The lists belong to the home, not to a conversation: ToolRunner keeps them in its ListBook, the state store where
the server has one (streaming.store.Store.rewrite_lists), so a restart or another gateway reads the same lists.
"""
import copy
import re
from typing import Protocol

from assistant.vocabulary import (BARE_REQUEST_VERBS, LIST_ADDED, LIST_ADDED_MORE, LIST_ADDED_UNDONE, LIST_BOUGHT, LIST_CLEARED, LIST_COUNTED, LIST_HAS, LIST_ITEM_JOINS,
                                  LIST_ITEM_OPENERS, LIST_ITEMS_BEFORE, LIST_JOINED_ITEMS, LIST_NAMES, LIST_NOT_A_NAME,
                                  LIST_QUANTITY_OPENERS, LIST_QUANTITY_WORDS, LIST_READ, LIST_REMOVED,
                                  LIST_READ_OTHER, LIST_REQUEST_OPENERS, LIST_REQUEST_TAILS, QUESTION_WORDS)


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


# each skill's phrasings, with the arguments they say beyond the list and items
_SKILLS = (("add_to_list", _each(LIST_ADDED), {}), ("remove_from_list", _each(LIST_REMOVED), {}),
           ("get_list", _each(LIST_READ), {}), ("get_list", _each(LIST_COUNTED), {"asked": "how many"}),
           ("get_list", _each(LIST_HAS), {}), ("clear_list", _each(LIST_CLEARED), {}))
_BOUGHT = _each(LIST_BOUGHT)
_JOINS = re.compile(rf"\s*,\s*(?:and\s+)?|\s+(?:{_any_of(w for w in LIST_ITEM_JOINS if w != ',')})\s+", re.IGNORECASE)
_OPENER = re.compile(rf"^(?:(?:{_any_of(LIST_ITEM_OPENERS)})\s+)+", re.IGNORECASE)
_QUANTITY = re.compile(rf"^(?:{_any_of(LIST_QUANTITY_OPENERS)})\s+(?:(?:{_any_of(LIST_QUANTITY_WORDS)})\s|\S+\s+of\s)",
                       re.IGNORECASE)
MOST_JOINED = 4          # pieces between joins one item said joined may hold: a long run of "and"s is read in time


def _cleaned(said: str) -> str:
    """The request as typed or heard, with no end stop, curly apostrophe or run of spaces."""
    return " ".join(said.replace("\u2019", "'").split()).rstrip(".!?").strip()


def list_name(said: str | None) -> str:
    """The name a list is kept by: "grocery" is the shopping list, "to do" the to-do list."""
    said = " ".join((said or "").lower().split())
    return LIST_NAMES.get(said, said)


def _item(said: str) -> str:
    """An item as said, without the words that open it and say nothing, but with its quantity ("a dozen eggs")."""
    said = said.strip()
    return said if _QUANTITY.match(said) else _OPENER.sub("", said).strip()


def items_said(words: str, whole=()) -> list[str]:
    """The items of a span, each as said, without the words that open one and say nothing ("some milk, eggs and the
    bread": milk, eggs, bread); each once. An item said joined ("salt and pepper", LIST_JOINED_ITEMS), or one of
    whole (those already on the list), is one item."""
    joined = {" ".join(item.lower().split()) for item in (*LIST_JOINED_ITEMS, *whole)}
    cuts = list(_JOINS.finditer(words))
    starts, ends = [0, *(cut.end() for cut in cuts)], [*(cut.start() for cut in cuts), len(words)]
    items, i = [], 0
    while i < len(starts):
        j = next((j for j in range(min(len(starts) - 1, i + MOST_JOINED - 1), i, -1)
                  if " ".join(_item(words[starts[i]:ends[j]]).lower().split()) in joined), i)
        items.append(_item(words[starts[i]:ends[j]]))
        i = j + 1
    kept: list[str] = []
    for item in items:
        if item and item.lower() not in (k.lower() for k in kept):
            kept.append(item)
    return kept


def said_before(items: list[str]) -> bool:
    """The items are words that stand for items named before ("add it to the to-do list"), not items."""
    return all(item.lower() in LIST_ITEMS_BEFORE for item in items)


def list_asked(said: str, whole=()) -> tuple[dict, bool] | None:
    """The list call a request is, and whether it is only meant where its items are all on the shopping list ("I've
    got the milk" names no list); None for any other request, and for one whose items are only "it" or "them". whole:
    the items already on the lists, never split (items_said)."""
    request = _cleaned(said)
    for name, patterns, said_too in _SKILLS:
        for pattern in patterns:
            found = pattern.match(request)
            if found is None:
                continue
            arguments = {"list_name": list_name(found["list"]), **said_too}
            if "items" in pattern.groupindex:
                items = items_said(found["items"], whole)
                if not items or said_before(items):
                    continue
                arguments["items"] = items
            return {"name": name, "arguments": arguments}, False
    for pattern in _BOUGHT:
        found = pattern.match(request)
        items = items_said(found["items"], whole) if found else []
        if items and not said_before(items):
            return {"name": "remove_from_list", "arguments": {"list_name": "shopping", "items": items}}, True
    return None


_ADDED_MORE, _ADDED_UNDONE, _READ_OTHER = _each(LIST_ADDED_MORE), _each(LIST_ADDED_UNDONE), _each(LIST_READ_OTHER)
_SAID_BEFORE = re.compile(rf"\b(?:{_any_of(LIST_ITEMS_BEFORE)})\b", re.IGNORECASE)
# the first words of more items said after an add that say a request or a question instead ("and turn off the fan")
_NO_ITEM = re.compile(rf"^(?:{_any_of((*BARE_REQUEST_VERBS, *QUESTION_WORDS, 'add', 'remove', 'take'))})\b|\blist$",
                      re.IGNORECASE)


def _said(items: list[str]) -> str:
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else items[0]


def _request(call: dict, list_called: str) -> str:
    """The words of a request for the call on the list said ("the to-do list")."""
    arguments = call["arguments"]
    if call["name"] == "get_list" and "items" in arguments:
        return LIST_HAS[0].format(items=_said(arguments["items"]), list=list_called)
    forms = {"add_to_list": LIST_ADDED, "remove_from_list": LIST_REMOVED, "clear_list": LIST_CLEARED,
             "get_list": LIST_COUNTED if arguments.get("asked") == "how many" else LIST_READ}
    return forms[call["name"]][0].format(items=_said(arguments.get("items", [""])), list=list_called)


def list_follow_up(said: str, call: dict, names_a_thing) -> str | None:
    """The request a follow-up said right after a list call stands for: more items after an add ("and eggs", "eggs
    too": "add eggs to the shopping list"), the items just added taken back off ("take that off"), the same question
    of another list ("and the to-do list?"), or the items named by the call for "it" or "them" ("add it to the to-do
    list", "it" only for one item). None for any other request, and for more "items" that are a request, a question
    or a thing of the home (names_a_thing: "and the kitchen light")."""
    request = _cleaned(said)
    items, list_called = call["arguments"].get("items", []), f"the {call['arguments']['list_name']} list"
    if call["name"] == "add_to_list":
        for pattern in _ADDED_MORE:
            found = pattern.match(request)
            more = found and items_said(found["items"])
            if more and not said_before(more) and not any(_NO_ITEM.search(item) or names_a_thing(item) for item in more):
                return _request({"name": "add_to_list", "arguments": {"items": more}}, list_called)
        if any(pattern.match(request) for pattern in _ADDED_UNDONE):
            return _request({"name": "remove_from_list", "arguments": {"items": items}}, list_called)
    if call["name"] == "get_list":
        for pattern in _READ_OTHER:
            found = pattern.match(request)
            if found:
                return _request(call, f"the {list_name(found['list'])} list")
    named = _SAID_BEFORE.search(request)
    if named is None or not items or LIST_ITEMS_BEFORE[named.group().lower()] not in (0, len(items)):
        return None
    meant = request[:named.start()] + _said(items) + request[named.end():]
    return meant if list_asked(meant, items) is not None else None


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
