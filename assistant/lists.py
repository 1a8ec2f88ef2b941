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
from assistant.vocabulary import (CANCEL_REFERENCES, LIST_CHANGE_UNDONE, LIST_NOT_AN_ITEM_WORDS, LIST_NOT_BOUGHT,
                                  LIST_NOTHING_UNDONE, LIST_RAN_OUT, LIST_REMOVAL_UNDONE, LIST_UNDO_OPENERS, MOST_RAN_OUT_WORDS)
from assistant.vocabulary import LIST_NEEDED, LIST_NEEDED_NOT_AN_ITEM, LIST_REMARK_ENDS
from assistant.phrasings import any_of as _any_of


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


def said_items(items: list[str]) -> str:
    """ "milk", "milk and eggs", "milk, eggs and bread"."""
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else items[0]


def request_of(call: dict, list_called: str) -> str:
    """The words of a request for the call on the list said ("the to-do list")."""
    arguments = call["arguments"]
    if call["name"] == "get_list" and "items" in arguments:
        return LIST_HAS[0].format(items=said_items(arguments["items"]), list=list_called)
    forms = {"add_to_list": LIST_ADDED, "remove_from_list": LIST_REMOVED, "clear_list": LIST_CLEARED,
             "get_list": LIST_COUNTED if arguments.get("asked") == "how many" else LIST_READ}
    return forms[call["name"]][0].format(items=said_items(arguments.get("items", [""])), list=list_called)


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
                return request_of({"name": "add_to_list", "arguments": {"items": more}}, list_called)
        if any(pattern.match(request) for pattern in _ADDED_UNDONE):
            return request_of({"name": "remove_from_list", "arguments": {"items": items}}, list_called)
    if call["name"] == "get_list":
        for pattern in _READ_OTHER:
            found = pattern.match(request)
            if found:
                return request_of(call, f"the {list_name(found['list'])} list")
    return items_meant(request, items)


def items_meant(said: str, items: list[str]) -> str | None:
    """The list request said with "it", "them" or "both" for the items named before ("add it to the to-do list"), with
    the items in its place; None where the words are no such request, or the word does not fit as many items ("it"
    for one, "both" for two, "them" for any)."""
    request = _cleaned(said)
    named = _SAID_BEFORE.search(request)
    if named is None or not items or LIST_ITEMS_BEFORE[named.group().lower()] not in (0, len(items)):
        return None
    meant = request[:named.start()] + said_items(items) + request[named.end():]
    return meant if list_asked(meant, items) is not None else None


def items_unsaid(said: str) -> bool:
    """The words are a list request whose items are only "it", "them" or "both" ("add it to the shopping list")."""
    request = _cleaned(said)
    return any(found is not None and said_before(items_said(found["items"]) or ["?"])
               for _, patterns, _ in _SKILLS for pattern in patterns if "items" in pattern.groupindex
               for found in [pattern.match(request)])


_RAN_OUT = _each(LIST_RAN_OUT)
_NOT_BOUGHT = frozenset(LIST_NOT_BOUGHT)
_NOT_AN_ITEM_WORD = frozenset(LIST_NOT_AN_ITEM_WORDS)


def ran_out(said: str, knows) -> list[str] | None:
    """The items a remark says have run out ("we're out of milk and eggs": milk, eggs), for the shopping list to be
    offered; None for any other words, and for a remark whose "items" are a request, a question, a place, something no
    shop sells ("we need more light in here") or a thing of the home (knows: the whole item is one's name)."""
    request = _cleaned(said)
    for pattern in _RAN_OUT:
        found = pattern.match(request)
        items = items_said(found["items"]) if found else []
        if items and all(_a_thing_to_buy(item, knows) for item in items):
            return items
    return None


def _a_thing_to_buy(item: str, knows) -> bool:
    words = item.lower().split()
    return len(words) <= MOST_RAN_OUT_WORDS and not said_before([item]) and not _NO_ITEM.search(item) \
        and " ".join(words) not in _NOT_BOUGHT and not _NOT_AN_ITEM_WORD & set(words) and not knows(" ".join(words))


_NEEDED = _each(LIST_NEEDED)
_NEEDED_NOT_AN_ITEM = frozenset(LIST_NEEDED_NOT_AN_ITEM)


def needed(said: str, names_a_thing) -> list[str] | None:
    """The items a remark says are needed ("we need milk and bread"), offered as those that ran out are; None for any
    other words, and where an item holds a word of a plan, a time or a change ("we need to leave at 7") or names a
    thing of the home anywhere in it (names_a_thing: "we need the living room warmer")."""
    request = _cleaned(said)
    for pattern in _NEEDED:
        found = pattern.match(request)
        items = items_said(found["items"]) if found else []
        if items and all(_a_thing_to_buy(item, lambda words: False) and not names_a_thing(item.lower())
                         and not _NEEDED_NOT_AN_ITEM & set(item.lower().split()) for item in items):
            return items
    return None


_REMARK_ENDS = re.compile(rf"(?:{_any_of(LIST_REMARK_ENDS)})\s+")
# A remark said before its request is a breath long ("we've run out of eggs, milk and the big bag of flour"): the
# words read as one end here, so a 16,000-character item is not read once for each of its commas
REMARK_CHARS_AT_MOST = 200


def remark_then_request(said: str, remark) -> str | None:
    """The list request a turn makes after a remark that things ran out, said in one breath ("we're out of milk, add
    it to the shopping list": "add milk to the shopping list"), "it" or "them" the remark's items; None for any other
    words. remark: the items a span of words says ran out, or None."""
    request = _cleaned(said)
    for end in _REMARK_ENDS.finditer(request, 0, REMARK_CHARS_AT_MOST):
        items, asked = remark(request[:end.start()]), request[end.end():]
        meant = items and (items_meant(asked, items) or (asked if list_asked(asked) else None))
        if meant:
            return meant
    return None


def _taking_back(forms) -> list[re.Pattern]:
    return [re.compile(rf"^(?:(?:{_any_of(LIST_UNDO_OPENERS)})(?:,\s*|\s+))*{pattern.pattern[1:]}", re.IGNORECASE)
            for pattern in _each(forms)]


_UNDONE, _REMOVAL_UNDONE = _taking_back(LIST_CHANGE_UNDONE + CANCEL_REFERENCES), _taking_back(LIST_REMOVAL_UNDONE)


def list_undone(said: str, call: dict, change: dict | None) -> dict | str | None:
    """The call that takes back the newest list change of the conversation (call: the list call that made it; change:
    what it changed, ToolRunner.list_change): "undo that" takes off what an add put on and puts back what a removal or
    a clearing took off, "put it back" and "oops, I still need that" the latter only. Words that say so where the
    change changed nothing (or is not known), and None for any other words."""
    request = _cleaned(said)
    if not any(pattern.match(request) for pattern in _UNDONE) and not (
            call["name"] != "add_to_list" and any(pattern.match(request) for pattern in _REMOVAL_UNDONE)):
        return None
    name = list_name(str(call["arguments"].get("list_name")))
    if change is None or change["list_name"] != name or not (change["added"] or change["removed"]):
        return LIST_NOTHING_UNDONE.format(list=f"{name} list")
    if change["added"]:
        return {"name": "remove_from_list", "arguments": {"list_name": name, "items": list(change["added"])}}
    return {"name": "add_to_list", "arguments": {"list_name": name, "items": list(change["removed"])}}


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
