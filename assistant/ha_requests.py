"""Requests drawn from Home Assistant's English templates, each with the call the second opinion maps it to.

Used by bench/ha_phrasings.py, in one place so that anything else drawing from the templates (a training
corpus) draws the same way: each template of an intent equally likely, each alternative of it too, names and
areas from the home's slot lists, numbers from the template's range. Templates that need a satellite's area
("turn on the lights here") are left out, and a sentence is kept only when hassil reads it back as the intent
drawn and the second opinion maps it to a call.
"""
import random

from hassil import recognize_best
from hassil.expression import Alternative, ListReference, Permutation, RuleReference, Sequence, TextChunk
from hassil.intents import RangeSlotList, TextSlotList, WildcardSlotList

from assistant.inventory import Inventory
from assistant.second_opinion import SecondOpinion


def drawn(expression, rules: dict, lists: dict, domains, timer_names: list[str], rng: random.Random) -> str | None:
    """One random sentence of a template; None when a list it needs has no value fit for the block."""
    def draw(item):
        return drawn(item, rules, lists, domains, timer_names, rng)
    if isinstance(expression, TextChunk):
        return expression.text
    if isinstance(expression, Alternative):
        return draw(rng.choice(expression.items))
    if isinstance(expression, Permutation):
        items = [draw(item) for item in rng.sample(expression.items, len(expression.items))]
        return None if None in items else " ".join(items)
    if isinstance(expression, Sequence):
        items = [draw(item) for item in expression.items]
        return None if None in items else "".join(items)
    if isinstance(expression, RuleReference):
        return draw(rules[expression.rule_name].expression)
    if isinstance(expression, ListReference):
        if expression.is_inline_range:
            start, stop, step = expression.get_inline_range()
            return str(rng.randrange(start, stop + 1, step))
        found = lists.get(expression.list_name)
        if isinstance(found, RangeSlotList):
            return str(rng.randrange(found.start, min(found.stop, found.start + 60) + 1, found.step))
        if isinstance(found, WildcardSlotList):
            return rng.choice(timer_names)
        if isinstance(found, TextSlotList):
            values = [v for v in found.values if isinstance(v.text_in, TextChunk) and (
                domains is None or expression.list_name != "name" or (v.context or {}).get("domain") in domains)]
            return rng.choice(values).text_in.text if values else None
    return None


def draw_request(opinion: SecondOpinion, inventory: Inventory, intent_name: str, timer_names: list[str],
                 rng: random.Random) -> tuple[str, dict] | None:
    """One sentence of the intent said in the home and the call it maps to, or None when this draw fails
    (a list with no fit value, a sentence hassil reads as another intent, no call)."""
    intent = opinion.intents.intents[intent_name]
    templates = [(data, sentence) for data in intent.data for sentence in data.sentences
                 if "area" not in data.requires_context]
    data, sentence = rng.choice(templates)
    domains = data.requires_context.get("domain")
    domains = [domains] if isinstance(domains, str) else domains
    home_lists = opinion.slot_lists(inventory)
    lists = {**opinion.intents.slot_lists, **home_lists}
    rules = {**opinion.intents.expansion_rules, **data.expansion_rules}
    text = drawn(sentence.expression, rules, lists, domains, timer_names, rng)
    if text is None:
        return None
    text = " ".join(text.split())
    result = recognize_best(text, opinion.intents, slot_lists=home_lists, skip_words=opinion.skip_words,
                            language="en")
    call = opinion.call([text], inventory) if result and result.intent.name == intent_name else None
    return None if call is None else (text, call)
