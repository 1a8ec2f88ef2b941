"""A client's own tools (OpenAI function declarations) as the embedded model reads them: slots chosen by code.

The model is far too small to read free-form declarations, so code picks the few declared tools whose
name and description words best match the request (at most MAX_SHOWN) and writes them before the
conversation in slot form, each tool a <tK> with a few of its words and its parameters as <pJ> with their
names' words:

    <t0> get weather current weather city <p0> city <p1> units<|user|> <s0> what's the <s1> weather in <s2> paris<|assistant|>

The request being answered carries span markers <sK> before each word a value can start or end at; the
model writes a declared call as `<|call|> <t0> <p0>=<s2>`, a value being one marker (that word) or two
(from the first marker's word through the second's), or a number slot <nK>. Code maps the slots back to
the tool's name, its parameters' names and the words said (ToolSlots.call), so every string argument is a
span of the request.
"""
import re
from dataclasses import dataclass, field

MAX_SHOWN = 3            # tools shown to the model
MAX_PARAMETERS = 4       # parameters shown per tool (required ones first)
MAX_WORDS = 4            # words of a tool's description shown
TOOL_SLOTS = [f"<t{i}>" for i in range(MAX_SHOWN)]
PARAMETER_SLOTS = [f"<p{i}>" for i in range(MAX_PARAMETERS)]
SPAN_SLOTS = [f"<s{i}>" for i in range(16)]
TOOL_TOKENS = [*TOOL_SLOTS, *PARAMETER_SLOTS, *SPAN_SLOTS]     # in a checkpoint's vocabulary when it was trained on tools
SPAN_VALUE = re.compile(r"(<s\d+>)(<s\d+>)?")

# Words that say nothing of what a tool does, and that no value starts or ends with: not matched against
# descriptions, not marked as a span's end. Language as data.
FUNCTION_WORDS = frozenset("""
a an the to of in on at for from by with about into onto as and or but if so than then that this these those
is are was were be been being am do does did done have has had can could would will shall should may might must
i me my mine you your yours we us our it its it's he she him her they them their what what's whats which who
whom whose how how's where where's when when's why please pls just some any all get give tell show let let's
want wanna need like know find make me i'm i'd i'll hey hi okay ok parley um uh so well oh hmm er now right
thanks thank there there's here up out over not no yes very really also too again one
""".split())
# Words no value starts or ends with (fillers, prepositions, auxiliaries, question words): no span slot.
UNMARKED = frozenset("""
to of in on at for from by with about into onto as and or but if so than then is are was were be been being am
do does did have has had can could would will shall should may might must what what's whats which who how how's
where where's when when's why please pls hey hi okay ok parley um uh well oh hmm er thanks thank
""".split())
_SPLIT_NAME = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def name_words(name: str) -> list[str]:
    """get_weather, getWeather, get-weather: ["get", "weather"]."""
    return [w.lower() for w in _SPLIT_NAME.findall(name)]


def stem(word: str) -> str:
    """A crude common root, enough to match "messages" to "message" and "playing" to "play"."""
    word = word.lower().strip(".,!?'\"")
    for ending in ("ing", "ies", "es", "ed", "s"):
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            return word[:-len(ending)] + ("y" if ending == "ies" else "")
    return word


def _content(words) -> list[str]:
    return [w for w in words if w not in FUNCTION_WORDS and w.isalpha()]


@dataclass(frozen=True)
class Declared:
    """One declared function tool, as the model reads it."""
    name: str
    words: tuple[str, ...]           # its name's and its description's content words, in order
    parameters: tuple[str, ...]      # parameter names, required first, at most MAX_PARAMETERS
    numeric: frozenset               # parameters whose schema type is a number

    @classmethod
    def read(cls, declaration: dict) -> "Declared | None":
        """An OpenAI function tool (Realtime's flat shape or Chat Completions' {"function": ...}); None if
        it has no usable name."""
        function = declaration.get("function", declaration) if isinstance(declaration, dict) else {}
        name = function.get("name")
        if not isinstance(name, str) or not name_words(name):
            return None
        description = function.get("description") if isinstance(function.get("description"), str) else ""
        schema = function.get("parameters") if isinstance(function.get("parameters"), dict) else {}
        properties = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
        required = [p for p in schema.get("required") or [] if p in properties]
        order = required + [p for p in properties if p not in required]
        numeric = frozenset(p for p in order if isinstance(properties[p], dict)
                            and properties[p].get("type") in ("number", "integer"))
        words = _content(name_words(name) + re.findall(r"[a-z']+", description.lower()))
        return cls(name, tuple(dict.fromkeys(words)), tuple(order[:MAX_PARAMETERS]), numeric)

    def score(self, request_stems: set[str]) -> int:
        own = {stem(w) for w in self.words} | {stem(w) for p in self.parameters for w in name_words(p)}
        return len(own & request_stems)

    def shown(self, request_stems: set[str]) -> str:
        """`get weather current city <p0> city`: the name's words, then the description's words the request
        shares, then its first others, MAX_WORDS at most beyond the name; each parameter's words."""
        head = name_words(self.name)
        rest = [w for w in self.words if w not in head]
        rest = sorted(rest, key=lambda w: stem(w) not in request_stems)[:MAX_WORDS]
        parameters = " ".join(f"{slot} {' '.join(name_words(p))}" for slot, p in zip(PARAMETER_SLOTS, self.parameters))
        return " ".join([*head, *rest, parameters]).strip()


def request_stems(text: str) -> set[str]:
    return {stem(w) for w in _content(text.lower().split())}


def choose(declarations, request: str) -> list[Declared]:
    """The declared tools the request's words best match, best first (declaration order breaks ties), at
    most MAX_SHOWN; every declared tool is a candidate even with no word in common (a synonym may ask)."""
    tools = [t for t in (Declared.read(d) for d in declarations) if t is not None]
    said = request_stems(request)
    ranked = sorted(range(len(tools)), key=lambda i: -tools[i].score(said))
    return [tools[i] for i in ranked[:MAX_SHOWN]]


def tool_block(tools: list[Declared], request: str) -> str:
    said = request_stems(request)
    return " ".join(f"{slot} {tool.shown(said)}" for slot, tool in zip(TOOL_SLOTS, tools))


@dataclass
class ToolSlots:
    """What the tool, parameter and span slots of one prompt stand for."""
    tools: list[Declared] = field(default_factory=list)
    words: list[str] = field(default_factory=list)       # the request's words, as the prompt shows them
    marked: list[int] = field(default_factory=list)      # span slot k -> index into words
    said: str = ""                                        # the request as the user wrote it

    def as_said(self, words: str) -> str:
        """The words as the user wrote them ("Paris", "Luigi's"), when the request holds them so."""
        pattern = r"\b" + r"[\s,]+".join(re.escape(w) for w in words.split()) + r"\b"
        found = re.search(pattern, self.said, re.IGNORECASE)
        return found.group(0) if found else words

    def mark(self, text: str) -> str:
        """The request with a span slot before each word a value can start or end at (not before slots of
        other families: a number is its <nK>)."""
        self.words = text.split()
        out = []
        for i, word in enumerate(self.words):
            if len(self.marked) < len(SPAN_SLOTS) and not word.startswith("<") and word not in UNMARKED:
                out.append(SPAN_SLOTS[len(self.marked)])
                self.marked.append(i)
            out.append(word)
        return " ".join(out)

    def span_value(self, value: str) -> str | None:
        """`<s2>` or `<s2><s4>`: those words of the request (None if a marker is not in it or the span runs
        backwards)."""
        match = SPAN_VALUE.fullmatch(value)
        if match is None:
            return None
        ends = [int(m[2:-1]) for m in match.groups() if m]
        if any(k >= len(self.marked) for k in ends):
            return None
        first, last = self.marked[ends[0]], self.marked[ends[-1]]
        return " ".join(self.words[first:last + 1]) if first <= last else None

    def span_of(self, value: str) -> str | None:
        """The span slots for a value said in the request (the training target's side of span_value)."""
        said = value.lower().split()
        for i in range(len(self.words) - len(said) + 1):
            if self.words[i:i + len(said)] == said and i in self.marked and i + len(said) - 1 in self.marked:
                first, last = self.marked.index(i), self.marked.index(i + len(said) - 1)
                return SPAN_SLOTS[first] + (SPAN_SLOTS[last] if last != first else "")
        return None

    def call(self, written: str, numbers: list[str], names: list[str], areas: list[str]) -> dict | None:
        """A declared call as the model wrote it (`<t0> <p0>=<s2> <p1>=<n0>`) with the tool's name, its
        parameters' names and the words said; None when it is not one: a slot nothing stands for, a
        parameter twice, or a value that is neither a span of the request nor a number said, or a span of
        function words only."""
        parts = written.split()
        if not parts or parts[0] not in TOOL_SLOTS[:len(self.tools)]:
            return None
        tool, arguments = self.tools[TOOL_SLOTS.index(parts[0])], {}
        for part in parts[1:]:
            key, _, value = part.partition("=")
            if key not in PARAMETER_SLOTS[:len(tool.parameters)] or tool.parameters[PARAMETER_SLOTS.index(key)] in arguments:
                return None
            parameter = tool.parameters[PARAMETER_SLOTS.index(key)]
            number = _NUMBER_VALUE.fullmatch(value)
            if number and int(number.group(1)) < len(numbers):
                said = numbers[int(number.group(1))]
                arguments[parameter] = _number(said) if parameter in tool.numeric else said
                continue
            words = self.span_value(value)
            if words is None or parameter in tool.numeric or all(w in FUNCTION_WORDS for w in words.split()):
                return None      # "the", "my": words that name nothing are no value said
            families = {"n": numbers, "e": names, "a": areas}
            filled = _OTHER_SLOT.sub(lambda m: _member(families[m.group(1)], int(m.group(2))) or m.group(0), words)
            if _OTHER_SLOT.search(filled):
                return None
            arguments[parameter] = self.as_said(filled)
        return {"name": tool.name, "arguments": arguments}


_NUMBER_VALUE = re.compile(r"<n(\d)>")
_OTHER_SLOT = re.compile(r"<([nea])(\d)>")


def _member(family: list[str], index: int) -> str | None:
    return family[index] if index < len(family) else None


def _number(said: str) -> int | float:
    value = float(said)
    return int(value) if value.is_integer() else value
