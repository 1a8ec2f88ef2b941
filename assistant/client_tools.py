"""A client's own tools (OpenAI function declarations) as the embedded model reads them: slots chosen by code.

The model is far too small to read free-form declarations, so code picks the few declared tools whose
name and description words best match the request (at most MAX_SHOWN) and writes them before the
conversation in slot form, each tool a <tK> with a few of its words and its parameters as <pJ> with their
names' words:

    <t0> get weather current city <p0> city <p1> units<|user|> what's the weather in <s0> new york <s1> today<|assistant|>

Code also finds where a value can be: the request's runs of words that are neither function words nor
the shown tools' words, each behind a span marker <sK>; a run of day words ("last night"), of numbers and
each verb of asking ("play", "put") are runs of their own, and a word such as "the" or "my" right before a run has its own marker, so that a value may begin
with it ("the airport") or not ("lakers"). The model writes a declared call as `<|call|> <t0> <p0>=<s0>`,
a value being one marker (that run) or two (from the first run's start through the second run's end:
"i'm running late", "the golden dragon"), or a number slot <nK>. Pointing at one of a few runs is what a
small model can learn; choosing the K-th of many per-word markers was not. Code maps the slots back to the
tool's name, its parameters' names and the words said (ToolSlots.call), so every string argument is a
span of the request.
"""
import re
from dataclasses import dataclass, field

from assistant.invented_tools import DOMAINS

MAX_SHOWN = 3            # tools shown to the model
MAX_PARAMETERS = 4       # parameters shown per tool (required ones first)
MAX_WORDS = 4            # words of a tool's description shown
TOOL_SLOTS = [f"<t{i}>" for i in range(MAX_SHOWN)]
PARAMETER_SLOTS = [f"<p{i}>" for i in range(MAX_PARAMETERS)]
SPAN_SLOTS = [f"<s{i}>" for i in range(16)]
TOOL_TOKENS = [*TOOL_SLOTS, *PARAMETER_SLOTS, *SPAN_SLOTS]     # in a checkpoint's vocabulary when it was trained on tools
SPAN_VALUE = re.compile(r"(<s\d+>)(<s\d+>)?")

# Words that say nothing of what a tool does, and that no value starts or ends with: not matched against
# descriptions, no part of a run a value can be. Language as data.
FUNCTION_WORDS = frozenset("""
a an the to of in on at for from by with about into onto as and or but if so than then that this these those
is are was were be been being am do does did done have has had can could would will shall should may might must
i me my mine you your yours we us our it its it's he she him her they them their what what's whats which who
whom whose how how's where where's when when's why please pls just some any all get give tell show let let's
want wanna need like know find make me i'm i'd i'll hey hi okay ok parley um uh so well oh hmm er now right
thanks thank there there's here up out over not no yes very really also too again one
""".split())
# Words that are no part of a value though not function words: what is said around one ("did the lakers
# win", "text mom saying ...", "apple stock", "... online") and fillers ("real quick"). Language as data.
AROUND_VALUES = frozenset("""
saying says said win lose lost playing doing worth cost costs delivered founded mean means online price
rate score game stock trading showing large small medium real quick asap thx cheers immediately kindly quickly
actually alright yeah erm also down
""".split())
# Words of asking for something ("play", "put", "order"): each a run of its own, since a request's verb
# stands right before a value ("put soccer practice on my calendar") and a to-do may begin with one ("take
# my medicine").
ACTION_WORDS = frozenset("""
play start put take send order google search look summarize schedule say pay book create add write call text
remind buy set open read listen watch stream queue shuffle share transfer check track translate define spell
explain ring dial phone email message note reserve save jot log pick water feed clean return renew
launch purchase resume cook hear shoot
""".split())
# Words of when: a run of them is a candidate value of its own ("tomorrow", "next week"), apart from a value
# said just before ("vienna this evening").
DAY_WORDS = frozenset("""
today tonight tomorrow yesterday morning afternoon evening night noon weekend week month year later moment
monday tuesday wednesday thursday friday saturday sunday next last
""".split())
# Words a value may begin with ("the airport", "my sister", "i'm running late"): one right before a run
# gets a marker of its own.
LEADING = frozenset("the my a an our your his her their i i'm we let's it's this".split())
# Words after which a message is said ("text mom saying i am late"): the next word has its own marker.
QUOTING = frozenset("saying says that".split())
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


# Groups of words that ask for the same kind of thing ("rain", "umbrella", "forecast"): the keys of the
# invented tools' domains.
RELATED = [frozenset(stem(k) for k in domain["keys"]) for domain in DOMAINS.values()]


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

    def stems(self) -> set[str]:
        """The roots of its name's, description's and parameters' words."""
        return {stem(w) for w in self.words} | {stem(w) for p in self.parameters for w in name_words(p)}

    def score(self, request_stems: set[str]) -> int:
        return len(self.stems() & request_stems)

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


def related_stems(said: set[str]) -> set[str]:
    """The request's roots and those of every group of related words it has one of ("rain": "weather")."""
    return said.union(*(group for group in RELATED if group & said))


def choose(declarations, request: str) -> list[Declared]:
    """The declared tools the request's words best match, best first (declaration order breaks ties), at
    most MAX_SHOWN. A tool that shares no root with the request's words or their related words is not
    shown: a request that says nothing of what it does is not its call ("a recipe for banana bread" is no
    flight number)."""
    tools = [t for t in (Declared.read(d) for d in declarations) if t is not None]
    said = request_stems(request)
    related = related_stems(said)
    ranked = sorted(range(len(tools)), key=lambda i: -tools[i].score(said))
    return [tools[i] for i in ranked[:MAX_SHOWN] if tools[i].score(related)]


def tool_block(tools: list[Declared], request: str) -> str:
    said = request_stems(request)
    return " ".join(f"{slot} {tool.shown(said)}" for slot, tool in zip(TOOL_SLOTS, tools))


@dataclass
class ToolSlots:
    """What the tool, parameter and span slots of one prompt stand for."""
    tools: list[Declared] = field(default_factory=list)
    words: list[str] = field(default_factory=list)       # the request's words, as the prompt shows them
    runs: list[tuple[int, int]] = field(default_factory=list)   # span slot k -> (first, last) index into words
    said: str = ""                                        # the request as the user wrote it

    def as_said(self, words: str) -> str:
        """The words as the user wrote them ("Paris", "Luigi's"), when the request holds them so."""
        pattern = r"\b" + r"[\s,]+".join(re.escape(w) for w in words.split()) + r"\b"
        found = re.search(pattern, self.said, re.IGNORECASE)
        return found.group(0) if found else words

    def mark(self, text: str) -> str:
        """The request with a span slot before each run of words a value can be (see the module's
        docstring); a name slot (<eK>) is a word of a run, numbers (<nK>) are a run of their own ("flight
        ba 286", "pay sam 20 dollars")."""
        self.words, self.runs = text.split(), []
        tool_stems = set().union(*(tool.stems() for tool in self.tools))

        def kind(word: str) -> str | None:
            if word.startswith("<"):
                return "number" if word.startswith("<n") else "value"
            if word in FUNCTION_WORDS or word in AROUND_VALUES or stem(word) in tool_stems:
                return None
            return "day" if word in DAY_WORDS else "action" if word in ACTION_WORDS else "value"

        kinds = [kind(w) for w in self.words]
        for i, k in enumerate(kinds):
            before = self.words[i - 1] if i else ""
            if k is None:
                if before in QUOTING and any(kinds[i + 1:]):
                    self.runs.append((i, i))      # "saying i am late": a message may begin with any word
                continue
            if i and kinds[i - 1] == k != "action":
                continue
            last = i
            while k != "action" and last + 1 < len(kinds) and kinds[last + 1] == k:
                last += 1
            if before in LEADING and kinds[i - 1] is None and (i - 1, i - 1) not in self.runs:
                self.runs.append((i - 1, i - 1))
            self.runs.append((i, last))
        self.runs = self.runs[:len(SPAN_SLOTS)]
        starts = {first: k for k, (first, _) in enumerate(self.runs)}
        return " ".join(f"{SPAN_SLOTS[starts[i]]} {w}" if i in starts else w for i, w in enumerate(self.words))

    def span_value(self, value: str) -> str | None:
        """`<s2>` (that run) or `<s2><s4>` (run 2's start through run 4's end): those words of the request;
        None if a marker is not in it or the span runs backwards."""
        match = SPAN_VALUE.fullmatch(value)
        if match is None:
            return None
        ends = [int(m[2:-1]) for m in match.groups() if m]
        if any(k >= len(self.runs) for k in ends) or ends[0] > ends[-1]:
            return None
        return " ".join(self.words[self.runs[ends[0]][0]:self.runs[ends[-1]][1] + 1])

    def span_of(self, value: str) -> str | None:
        """The span slots for a value said in the request (the training target's side of span_value)."""
        said = value.lower().split()
        firsts = [first for first, _ in self.runs]
        lasts = [last for _, last in self.runs]
        for i in range(len(self.words) - len(said) + 1):
            end = i + len(said) - 1
            if self.words[i:end + 1] == said and i in firsts and end in lasts:
                first, last = firsts.index(i), lasts.index(end)
                if first <= last:
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
