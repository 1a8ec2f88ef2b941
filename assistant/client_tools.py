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
from dataclasses import dataclass, field, replace
from functools import cached_property

from assistant.generated_tools import VERBS
from assistant.invented_tools import DOMAINS
from assistant import verb_senses
from assistant.spoken_numbers import (AND_A_FRACTION, CLOCK_MINUTES, CLOCK_WAYS, DURATION_SECONDS, TENS, UNITS,
                                     parse_cardinal)
from assistant.vocabulary import (ASKED_AFTER_A_REMARK, ASKING_WRAPPERS, EXPLAINING_VERBS, QUESTION_LINKS,
                                  REMARK_LINKS, REMARK_PRONOUNS,
                                  BOTH_MEMBERS, COUNT_NOUNS, PREDICATE_WORDS, DATE_PREPOSITIONS, DECIMAL_POINTS, DAY_ORDINALS,
                                  DESCRIPTION_OPENERS, ORDINAL_TENS, DESCRIPTION_WISHES, DEVICES, DOING_VERBS,
                                  FLAG_NEGATIONS, GENERIC_VERBS, JOINING_WORDS, LIMITING_OPENERS,
                                  MEASURE_WORDS, MEMBER_SYNONYMS, MONEY_WORDS, MONTH_NAMES, QUESTION_WORDS, RELATIVE_WORDS,
                                  REQUEST_OPENERS, ROOMS, SCALE_WORDS, SUBJECT_PRONOUNS, SWITCH_WORDS, TOOL_QUESTION_WORDS,
                                  VERB_PARTICLES)

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
a an the to of in on at for from by with about into onto as and or but if so than then that this these those between
is are was were be been being am do does did done have has had can could would will shall should may might must
i me my mine you your yours we us our it its it's he she him his her they them their what what's whats which who
whom whose how how's where where's when when's why please pls just some any all get give tell show let let's
want wanna need like know find make me i'm i'd i'll hey hi okay ok parley um uh so well oh hmm er now right
thanks thank there there's here up out over not no yes very really also too again one
anywhere somewhere anything something while whilst because although though unless
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
# Words before a thing, after a verb ("to walk *the* dog").
DETERMINERS = frozenset("the a an my our your his her their".split())
# Words a value may begin with ("the airport", "my sister", "i'm running late"): one right before a run
# gets a marker of its own.
LEADING = frozenset("the my a an our your his her their i i'm we let's it's this".split())
# Words after which a message is said ("text mom saying i am late"): the next word has its own marker.
QUOTING = frozenset("saying says that".split())
# The question back for a required value the request left out: a count ("How many nights?"), a member of an enum
# ("Which drink: espresso, latte or mocha?"), anything else ("What city?").
ASK_COUNT = "How many {}?"
ASK_MEMBER = "Which {}: {}?"
ASK_VALUE = "What {}?"
MEMBERS_JOINED = ("{} or {}", ", ")        # the last two members joined by "or", the others by ", "
_SPLIT_NAME = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def name_words(name: str) -> list[str]:
    """get_weather, getWeather, get-weather: ["get", "weather"]."""
    return [w.lower() for w in _SPLIT_NAME.findall(name)]


def stem(word: str) -> str:
    """A crude common root, enough to match "messages" to "message" and "playing" to "play"."""
    word = re.sub(r"'s$", "", word.lower()).strip(".,!?'\"")       # "the dryer's done": the dryer
    for ending in ("ing", "ies", "es", "ed", "s"):
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            word = word[:-len(ending)] + ("y" if ending == "ies" else "")
            break
    # one spelling of "-ise" and "-ize" ("fertilise the tank" with doseFertilizer)
    return re.sub(r"(?<=[a-z]{3}[^aeiou])is(e|er)?$", r"iz\1", word)


# Groups of words that ask for the same kind of thing ("rain", "umbrella", "forecast"): the keys of the
# invented tools' domains.
RELATED = [frozenset(stem(k) for k in domain["keys"]) for domain in DOMAINS.values()]


def _content(words) -> list[str]:
    """Words that may say what a tool does or is given; an owner's too ("the dryer's done")."""
    return [w for w in words if w not in FUNCTION_WORDS and (w.isalpha() or w.endswith("'s") and w[:-2].isalpha() and
                                                           w[:-2] not in FUNCTION_WORDS)]


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


# ---- The decoder by code: a declared tool called where the model's reading is a refusal -------------------

# What a request asks to be done, by the words that say it; a tool's own verb (the first word of its name, or
# of its description) has the same meaning. Words of two actions in one phrase ("turn off", "look up") are
# read before single words. Language as data.
ACTIONS = {
    "play": "play put_on hear listen queue stream shuffle",
    "stop": "stop pause halt mute silence hush hold_on turn_off switch_off shut_off disable deactivate snooze kill",
    "resume": "resume continue unpause",
    "skip": "skip next",
    "send": "send text message tell email write telling post forward ping dm",
    "call": "call phone ring dial",
    "add": "add create put schedule set jot note save log record remind extend mark",
    "remove": "remove delete erase drop off clear empty",
    "book": "book reserve order request hail get_me get_us hire rent",
    "cancel": "cancel unbook abort",
    "buy": "buy purchase",
    "sell": "sell",
    "lock": "lock",
    "unlock": "unlock",
    "open": "open pop raise",
    "close": "close shut",
    "start": "start begin launch precondition warm_up activate restart reboot enable kick_off fire_up",
    "water": "water irrigate sprinkle",
    "feed": "feed dispense",
    "translate": "translate",
    "convert": "convert change_into exchange",
    "roll": "roll throw",
    "change": "change move edit update rename reschedule",
    "block": "block unsubscribe subscribe follow unfollow share",
    "decline": "decline reject refuse turn_down",
    "accept": "accept approve confirm",
    "find": "find search look_up lookup look get check list read show tell_me fetch report estimate "
            "define track see",
}
# A tool's verb that tells the user something ("Tell when the feeder's next meal is", "Report the battery").
TOOL_TELLS = frozenset("tell report say read give show list".split())
# Actions that ask to be told something rather than have something done: a tool whose verb is one of them
# (or has no verb: `next_bus`, `car_battery_status`) is asked by a question or by these verbs.
TELLING = frozenset({"find", "convert", "translate"})
# Verbs that say nothing of which action ("give the tomatoes a drink", "take a note"): they neither support
# a tool nor rule one out.
ANY_ACTION = frozenset("give take do go help let run turn switch get make".split())
# Actions a tool's action answers besides its own: a job cancelled is stopped ("stop the print" with cancel_print),
# a thing bought is got or ordered ("get us four tickets" with buy_tickets), and a thing ordered is bought ("buy one
# more bag" with orderPetFood).
ALSO = {"cancel": ("stop",), "buy": ("book",), "book": ("buy",)}
# Actions that undo each other: a request with a word of one never calls a tool of the other ("take bananas
# off the list" is no add_to_shopping_list call).
OPPOSED = {frozenset(pair) for pair in [("add", "remove"), ("lock", "unlock"), ("play", "stop"), ("start", "stop"),
                                        ("book", "cancel"), ("buy", "sell"), ("water", "stop"),
                                        ("open", "close"), ("accept", "decline")]}
# Words that take back the value said just before ("for the twins, no wait, just for sam").
CORRECTIONS = ("no wait", "i mean", "or rather", "sorry")
# A verb and the particles after it or its object that make it another action ("take the eggs out", "call it off").
PARTICLES = {"take": {"out": "remove"}, "turn": {"off": "stop", "on": "start"},
             "switch": {"off": "stop", "on": "start"}, "call": {"off": "cancel"}}
# Words a request starts with before what it asks ("can you", "i want to"), skipped to find its verb.
LEAD_IN = frozenset(word for words in JOINING_WORDS + REQUEST_OPENERS + LIMITING_OPENERS for word in words.split())
# Words that ask for something with no verb of doing ("i need a premium ride", "a large latte please").
WANTING = frozenset("need want wanna like please fancy".split())
# Verbs of tools that record what was done: a statement of it asks for the call.
RECORDS = frozenset("log record".split())
# The verb that asks for a reminder ("remind me to ...").
REMINDING = "remind"
# Words that make a request's first clause a statement of how things are ("the museum was amazing", "my baby is
# so cute"), and words of a statement of one's own ("i hate potholes", "i love the ferry ride"): with no verb of
# the tables and no word of wanting, a remark, no ask to be told anything nor to record it.
COPULAS = frozenset("is are am was were isn't aren't wasn't weren't it's that's".split())
SPEAKERS = frozenset("i we i'm we're".split())
# Words before a verb's past form that say it was done ("already renewed").
DONE_WORDS = frozenset("already i've we've".split())
# Actions said of many tools ("remind me" is an add, as a support ticket's creation is): the request's verb
# alone, with nothing else of the tool's, is evidence for a tool of one of them only by the values its schema
# takes ("schema" in evidence).
BROAD_ACTIONS = frozenset("add find book start change remove".split())
# Words after a verb that say a kind or an amount of a thing, not one by its name ("play some jazz", "buy more
# milk"): what follows is no title or name the tool's verb alone could be asked for.
PARTITIVES = frozenset("some any more".split())
# Words that start a question: a request that starts with one asks to be told.
QUESTION_STARTS = frozenset(QUESTION_WORDS + TOOL_QUESTION_WORDS)
# Words that say the same kind of thing, beyond a common root ("umbrella" is weather, "dry" soil moisture,
# "feeder" pet food). Language as data; the invented domains' `keys` (RELATED) are read beside them.
SAME_THING = [frozenset(group.split()) for group in [
    "weather forecast rain raining snow snowing umbrella hot cold temperature sunny conditions warm humid windy "
    "freezing chilly",
    "song songs music track tracks tune album playlist hear listen",
    "message messages text texts sms",
    "calendar event events appointment appointments meeting meetings schedule agenda",
    "reminder reminders remind",
    "shopping grocery groceries list",
    "recipe recipes cook dish",
    "stock stocks share shares price trading market ticker worth",
    "score scores game match win won lost played",
    "flight flights plane landed",
    "taxi cab ride uber lyft",
    "restaurant restaurants places eat food cuisine",
    "table reservation",
    "note notes memo notebook jot",
    "email emails mail inbox",
    "podcast podcasts episode show",
    "news headlines",
    "package packages parcel parcels shipment delivery",
    "currency currencies money exchange",
    "water watering irrigation sprinkler sprinklers drink irrigate",
    "moisture soil dry wet",
    "pet pets cat cats dog dogs kitty puppy kitten",
    "food feed feeding feeder meal meals breakfast dinner portions kibble",
    "car vehicle",
    "battery charge charged range",
    "climate heating heat warm cool conditioning precondition",
    "define definition mean means meaning dictionary",
    "wikipedia encyclopedia",
    "bus buses",
    "balance account bank",
    "workout exercise fitness",
    "horoscope zodiac astrology",
    "nearest closest nearby close place",
    "meditation meditate mindfulness",
    "movie movies film films showtimes cinema",
    "air quality pollution aqi",
    "dice die",
    "bike bikes bicycle bicycles cycle",
    "traffic drive driving commute",
    "translate language",
    "contact contacts call phone ring dial",
    "guests guest people persons party",
    "photo photos picture pictures pics album gallery",
    "vocab vocabulary words quiz review flashcards practise practice",
    "fine fines owe owed overdue",
    "substitute substitutes instead replacement alternative swap",
    "vacuum vacuuming hoover hoovering",
]]
# Words that name a thing of a kind (a language, a workout): like SAME_THING they say what a request is about
# ("in japanese": translate), but they are values, never stripped from one. Language as data.
EXAMPLES = [frozenset(group.split()) for group in [
    "language spanish french german italian japanese chinese portuguese korean russian arabic hindi dutch greek "
    "turkish polish swedish mandarin english",
    "workout run running jog jogging yoga cycling swim swimming walk hike pilates",
    "currency dollars euros pounds yen francs franc rupees",
]]
# Words said around a value that are none of it ("right now", "for me", "yet"; openers: "i'm craving", "i took";
# "under the name Okafor"): stripped from a value's ends.
AROUND_WORDS = frozenset("right now yet me us them for please anymore already enough leave leaves we're you're "
                          "they're i've we've final latest newest recent got craving fancy took taken feeling felt "
                          "leaving name".split())
# What a parameter is, by the words of its name and description: the words said before a value
# ("in Paris", "to Priya", "saying ...") tell which parameter it fills. Language as data.
PARAMETER_KINDS = {
    "time": "time when date day start_time since period month week",
    "language": "language",
    "message": "message body content text note task entry subject summary reason question",
    "person": "recipient contact name to sender artist person band caller",
    "place": "city location town destination zone stop near pickup address place landmark neighbourhood "
             "neighborhood area airport room beach station",
}
# The kinds of value each word before a value says, best first; a value after another word (or none) may fill
# any parameter.
CUES = {
    "in": ("place", "language"), "into": ("language",), "to": ("place", "person", "language"),
    "from": ("place", "person"), "at": ("place",), "near": ("place",), "around": ("place",), "round": ("place",),
    "by": ("person",), "under": ("person",),
    "for": (), "of": (), "about": (), "with": (), "on": (), "called": ("person", "thing"), "named": ("person", "thing"),
    "over": ("place",), "via": ("place",), "across": ("place",), "against": (), "during": (),
}
# Words after which the rest of the request is a message ("saying ...", "that ...", "say ..."); a colon too.
MESSAGE_CUES = frozenset("saying says say that telling".split())
# Words of a tool's description that say it reads the present ("current weather"), and words of a request that
# ask about the past ("what was the weather like last christmas"): such a request is no call of such a tool.
NOW_WORDS = frozenset("current currently now live next upcoming".split())
PAST_WORDS = frozenset("was were did yesterday last ago".split())
# Words after "how" that ask an amount ("how far did i ride this week"): asked of the past, a total over a time that
# a tool with no time parameter cannot be asked for.
AMOUNTS = frozenset("far many much long".split())
# Words of the assistant's own in a question ("what's your favourite book"): chit-chat, no tool's call.
ADDRESSED = frozenset("your yours yourself".split())
# Words after which words are mentioned, not used ("how do you say library in polish"): they say nothing of a tool
# that takes no message.
MENTIONING = frozenset("say says saying".split())
# Words of a parameter's name that say its kind, beyond PARAMETER_KINDS: a day, not a time of day ("date"); the
# source of two alike ("from_currency"); words of a flag's name not said of it ("unread_only", "include_spam").
DATE_WORDS = frozenset("date day".split())
SOURCE_WORDS = frozenset("from source origin departure".split())
# Words before a value that say it is where a thing goes ("Paddington *to* Bristol"): never the source of a tool that
# takes one and a goal.
GOAL_CUES = frozenset("to into".split())
FLAG_FILLERS = frozenset("only is include show".split())
# Words before the language a message is said in ("say good morning in japanese").
LANGUAGE_CUES = frozenset("in into".split())
# Words that start a request for something done rather than a question: "can you", "would i", "could we".
ASKING_MODALS = frozenset("can could would will".split())
# words that open a question whose subject comes next and then its verb ("can a pizza box go ...", "has Sam got ...")
AUXILIARIES = ASKING_MODALS | frozenset("do does did has have had should".split())
# Who is told, after "telling" ("telling them i'm out sick"): no part of the message.
ADDRESSEES = frozenset("me us them him her".split())
# Currency names: the ISO code an enum of codes holds ("20 pounds to yen": GBP, JPY). Longer names first.
CURRENCIES = {
    "us dollars": "USD", "us dollar": "USD", "canadian dollars": "CAD", "canadian dollar": "CAD",
    "australian dollars": "AUD", "australian dollar": "AUD", "swiss francs": "CHF", "swiss franc": "CHF",
    "dollars": "USD", "dollar": "USD", "bucks": "USD", "euros": "EUR", "euro": "EUR", "pounds": "GBP",
    "pound": "GBP", "quid": "GBP", "sterling": "GBP", "yen": "JPY", "francs": "CHF", "franc": "CHF",
    "rupees": "INR", "rupee": "INR",
}
# Words of a time said ("next tuesday at 7:30", "in two hours"), beyond the day words.
MONTHS = frozenset(MONTH_NAMES) | frozenset("jan feb mar apr jun jul aug sep sept oct nov dec".split())
PARTS_OF_DAY = frozenset("morning afternoon evening night noon".split())   # a time after "this", "last", a day
CLOCK_WORDS = frozenset("am pm a.m p.m o'clock noon midnight".split())
MERIDIEMS = frozenset("am pm a.m p.m".split())      # a clock's only after a number ("when am i free" is a verb)
LATER_WORDS = frozenset("tomorrow tonight later next in at".split())      # a time to come, in a run of time words
RELATIVE_DAYS = frozenset("next last".split())    # a time only before a day word ("next week", not "up next")
TIME_JOINERS = frozenset("at on".split())       # between words of one time ("friday at 3 pm")
RANGE_ENDS = frozenset("to until till through thru".split())    # before a range's last day ("monday to friday")
DURATION_WORDS = frozenset("minute minutes hour hours second seconds day days week weeks".split())
# A year said in words ("twenty twenty two"): its first word's hundreds; a parameter named so takes it.
CENTURIES = {"nineteen": 1900, "twenty": 2000}
YEAR_WORDS = frozenset({"year"})
# Words of a string parameter's name that say its value has digits ("tracking_number", "order_id"): "my parcel
# never arrived" holds none.
CODED = frozenset("number code id pin reference ref".split())
# Ordinals before what a number parameter counts ("the fourth floor").
ORDINALS = {word: n for n, word in enumerate("first second third fourth fifth sixth seventh eighth ninth tenth".split(), 1)}
_CHOICE = re.compile(r"\b(true|false) (?:to|for|if|means) ([a-z']+)")      # "true to lock, false to unlock"
_TOKEN = re.compile(r"\w+(?:['’\-:.]\w+)*")
_CLOCK = re.compile(r"\d{1,2}(?::\d\d)?(?:am|pm)|\d{1,2}:\d\d|(?:[12]?\d|3[01])(?:st|nd|rd|th)")   # 3pm, 7:45, 5th (not 90th)
# A member explained in its enum's description: "economy is the cheapest", "xl fits six people", "1 (cheapest)".
EXPLAINING = r"(?:is|are|means|has|fits|gives)\s"
_BRACKETED = re.compile(r"\b([\w-]+) \(([^)]+)\)")
COMPARISONS = ("er", "est")       # "cheap" said, "cheapest" explained
EXAMPLE_OPENER = re.compile(r"\b(?:e\.g\.|eg|for example|such as|like)[,:]?\s+(.*)", re.IGNORECASE)   # "e.g. 'XK42'"
_QUOTED = re.compile(r"(?<!\w)['\"“‘]([^'\"“”‘’]+)['\"”’](?!\w)")
ACTION_OF = {w.replace("_", " "): action for action, words in ACTIONS.items() for w in words.split()}
# the roots of its one-word verbs, stemmed once: a tool's reading compares each of its enum's members with all of them
ACTION_ROOTS = [(stem(w), action) for w, action in ACTION_OF.items() if " " not in w]
_ALL_GROUPS = SAME_THING + [frozenset(w for w in group if w not in FUNCTION_WORDS and w not in ACTION_OF)
                            for group in ({k for k in domain["keys"]} for domain in DOMAINS.values())]
GROUPS = [frozenset(stem(w) for w in group) for group in _ALL_GROUPS]
EXAMPLE_GROUPS = [frozenset(stem(w) for w in group) for group in EXAMPLES]
KINDS = GROUPS + EXAMPLE_GROUPS
KIND_OF = {w: kind for kind, words in PARAMETER_KINDS.items() for w in words.split()}
MONEY_ROOTS = frozenset(stem(w) for w in MONEY_WORDS)
HOME_THINGS = frozenset(w for table in (DEVICES, ROOMS) for names in table.values() for name in names for w in name.split())
KNOWN_VERBS = frozenset(base for base, *_ in VERBS)      # the corpus's verbs: "page" is one, "dryer" none
SETTING_VERBS = frozenset({"set", "adjust"})     # a tool's verb of setting a value to a target
SWITCHED = {"start": True, "stop": False}      # a switch's value by the action said ("turn off": false)
SWITCH_ON = frozenset({"turn on", "switch on"})   # "turn" alone is a verb of any action: its particle says on
AMOUNT_WORDS = frozenset("half quarter couple few several".split())    # "a half hour" is no hour
MEMBER_ENDINGS = frozenset("ly er est".split())        # an enum member said as an adverb or a comparison ("quietly")
UNIT_WORDS = frozenset(CURRENCIES) | MEASURE_WORDS | DURATION_WORDS        # what a number may count or measure
NUMBER_LINKS = frozenset("of is at".split())     # between a parameter's name and its number ("a pulse of 72")


def same_root(a: str, b: str) -> bool:
    """"places" and "place", "feeder" and "feed": equal roots, or one a short extension of the other."""
    return a == b or (min(len(a), len(b)) >= 4 and (a.startswith(b) or b.startswith(a)) and abs(len(a) - len(b)) <= 2)


def number_value(word: str) -> int | float | None:
    """12, 2.5, "six", "twenty": the number a word says, or None."""
    if re.fullmatch(r"\d+(?:\.\d+)?", word):
        return _number(word)
    glued = re.fullmatch(r"(\d+(?:\.\d+)?)([a-z%]+)", word)      # "3ml", "5km": the number before its unit
    if glued and glued.group(2) in UNIT_WORDS:
        return _number(glued.group(1))
    return UNITS.get(word, TENS.get(word))


@dataclass(frozen=True)
class Token:
    word: str      # lowercased
    start: int     # where it stands in the request as written
    end: int
    gap: str       # what stands between it and the token before (", ", ": ")


def explained(members: tuple, description: str) -> tuple:
    """(word, member) for each word an enum's description explains one member with and no other ("away: everyone
    out; stay: people home", "economy is the cheapest", "1 (cheapest) to 4 (most expensive)"): a schema's own
    synonyms; no word before a value ("to", "in") nor a determiner."""
    said = {}
    lowered = description.lower()
    explanations = [re.match(rf"\s*['\"]?([\w-]+)['\"]?\s*(?:[:=]|{EXPLAINING})\s*(.+)", part)
                    for part in re.split(r"[;,.]", lowered)] + list(_BRACKETED.finditer(lowered))
    for explaining in explanations:
        member = next((m for m in members if explaining and m.lower() == explaining.group(1)), None)
        for word in re.findall(r"[a-z']+", explaining.group(2)) if member is not None else []:
            if word not in DETERMINERS and word not in CUES and len(word) > 2 and \
                    word not in (m.lower() for m in members):
                said.setdefault(word, set()).add(member)
    return tuple((word, found.pop()) for word, found in said.items() if len(found) == 1)


@dataclass(frozen=True)
class Parameter:
    name: str
    type: str
    enum: tuple
    required: bool
    kind: str                  # time, language, message, person, place or thing (PARAMETER_KINDS)
    date_only: bool            # a day, not a time of day ("date")
    roots: frozenset           # of its name's and description's words
    said: frozenset            # its name's and description's words as written ("Where to go": "to")
    coded: bool                # its example has digits ("e.g. 'XK42'") or its name says so (CODED): so must a value
    choices: tuple = ()        # a flag's value by the word said: "true to lock, false to unlock": (("lock", True), ...)
    explained: tuple = ()      # enum members by the words the description explains them with ("away: everyone out")

    @classmethod
    def read(cls, name: str, schema: dict, required: bool) -> "Parameter":
        schema = schema if isinstance(schema, dict) else {}
        description = schema.get("description") if isinstance(schema.get("description"), str) else ""
        named, described = name_words(name), re.findall(r"[a-z']+", description.lower())
        # the name's last word is what it is ("pickup_date" a time, "contact_name" a person), then its others'
        kind = next((KIND_OF[w] for w in [*reversed(named), *described] if w in KIND_OF), "thing")
        # a description that puts a word of time after the name's is a time ("pickup": "pickup time")
        head = next((after for word, after in zip(described, described[1:]) if word == named[-1]), None) \
            if named else None
        kind = "time" if KIND_OF.get(head) == "time" else kind
        enum = tuple(str(v) for v in schema.get("enum") or [] if isinstance(v, (str, int, float)))
        example = EXAMPLE_OPENER.search(description)
        return cls(name, str(schema.get("type") or "string"), enum, required, kind,
                   kind == "time" and bool(DATE_WORDS & set(named)),
                   frozenset(stem(w) for w in _content([*named, *described])), frozenset([*named, *described]),
                   bool(example and re.search(r"\d", example.group(1))) or bool(CODED & set(named)) or
                   # or its description's head ("The gift card number."; not "Room name or number")
                   bool(described) and described[-1] in CODED and "or" not in described,
                   # "true if the user wants ...": a determiner chooses nothing
                   tuple((word, value == "true") for value, word in _CHOICE.findall(description.lower())
                         if word not in DETERMINERS),
                   explained(enum, description))


def _phrase_at(words: list[str], i: int, phrases) -> int:
    """How many words of the longest of the phrases start at words[i] (0: none)."""
    return max((len(p.split()) for p in phrases if words[i:i + len(p.split())] == p.split()), default=0)


def what_it_does(description: str) -> list[str]:
    """A description's words, less each sentence's opening that says when the tool is used ("Called when the user
    wants to", "Use this to"), so that its first word is its verb; a verb said in the third person ("Books a
    massage", "Returns the code") in its base form, not a plural noun ("Records of swims")."""
    described = []
    for sentence in re.split(r"[.;]\s+", description.lower()):
        words = re.findall(r"[a-z']+", sentence)
        start = _phrase_at(words, 0, DESCRIPTION_OPENERS)
        wish = next((i for i in range(start, min(start + 4, len(words))) if _phrase_at(words, i, DESCRIPTION_WISHES)),
                    None) if start else None
        words = words[wish + _phrase_at(words, wish, DESCRIPTION_WISHES):] if wish is not None else words[start:]
        if words and words[0] not in ACTION_OF and words[1:2] != ["of"]:
            words[0] = next((base for base in (words[0][:-1], words[0][:-2], words[0][:-3] + "y")
                             if words[0].endswith("s") and base in ACTION_OF), words[0])
        described += words
    return described


@dataclass(frozen=True)
class Tool:
    """A declared tool as the decoder reads it: what it does (its verb's action), its words, its parameters."""
    name: str
    action: str | None
    verb: str | None           # the word that says its action ("define", "lookup")
    own: frozenset             # roots of its name's and description's words
    parameters: tuple
    actions: frozenset = frozenset()     # its action, and those its description says ("Add an episode", "Lock or unlock")
    thing: str = ""            # root of what its description's verb acts on ("Book a ferry *crossing*")
    verb_word: str = ""        # its verb as written ("schedule"), for verbs of one meaning (verb_senses.alike)
    examples: frozenset = frozenset()    # roots of the values its description gives as examples ("such as a pharmacy")

    @classmethod
    def read(cls, declaration: dict) -> "Tool | None":
        function = declaration.get("function", declaration) if isinstance(declaration, dict) else {}
        name = function.get("name")
        if not isinstance(name, str) or not name_words(name):
            return None
        description = function.get("description") if isinstance(function.get("description"), str) else ""
        described = what_it_does(description)
        # its name's first word ("play_song"), unless that is a day word ("next_bus"); else its description's, unless
        # that is one
        first = name_words(name)[0]
        verb = first if first in ACTION_OF and first not in DAY_WORDS else \
            next((w for w in described[:1] if w not in DAY_WORDS), None)         # "Next ferry departures": no verb
        # a description that says the user asks a question ("Called when the user asks how much data is left")
        # tells, whatever its name's first word ("phone_data_left"); the question's words are no thing of its own
        # ("thanks so much")
        question = described[:1] != re.findall(r"[a-z']+", description.lower())[:1] and \
            bool(described) and described[0] in QUESTION_STARTS
        verb = None if question else verb
        # a verb of telling said to someone in the description's first sentence acts by its own verb ("Report a repair
        # needed ... to the landlord": no question of how the repair is going; not "List events ... Use this when the
        # user asks who came to the door")
        told = verb in TOOL_TELLS and bool(re.search(rf"\b{verb}\b[^.]*\bto (?:the|a|an|my|your|their)\b",
                                                     description.lower().split(".")[0]))
        action = verb if told else "find" if verb in TOOL_TELLS else ACTION_OF.get(verb)
        if action is None and verb and same_root(stem(verb), stem(first)) and \
                (described[1:2] and described[1] in FUNCTION_WORDS or verb in KNOWN_VERBS or verb[:-1] in KNOWN_VERBS):
            # "arm_alarm": "Arm the alarm", "adjustBedFirmness": "Adjusts the firmness", "page_sauna": "Page sauna": a
            # verb of its own, a known one or its object after a function word; a word of no table with a noun after
            # it names a thing ("dryer-time-left": "Dryer time left.", "greenhouseVents": "Greenhouse vents.")
            action = first
        elif action is None and (verb in DOING_VERBS or first in DOING_VERBS and
                                 all(w in FUNCTION_WORDS for w in described[1:2])) and first not in DAY_WORDS:
            # "donate_to_charity": "Make a donation", "run_bath": "Fill the bath" (a verb, then its object; not
            # "RunPlan": "Today's run."): its name's verb, and it acts
            action, verb = first, first
        schema = function.get("parameters") if isinstance(function.get("parameters"), dict) else {}
        properties = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
        required = [p for p in schema.get("required") or [] if p in properties]
        order = required + [p for p in properties if p not in required]
        # its name's and description's words, and its parameters' members ("lunch" of a meal's enum)
        members = [w for p in properties.values() if isinstance(p, dict)
                   for m in p.get("enum") or [] if isinstance(m, str) for w in m.lower().replace("_", " ").split()]
        asked = [w for w in described if w not in QUESTION_STARTS and w not in AMOUNTS] if question else described
        own = frozenset(stem(w) for w in _content(name_words(name) + asked + members))
        # the description's verbs of a tool that acts: its first ("queue_episode": "Add an episode": put is add) and
        # one after "or" ("Lock or unlock the bike")
        said = [ACTION_OF.get(w) for w in [described[0], described[2]] if w] if described[1:2] == ["or"] else \
            [ACTION_OF.get(described[0])] if described else []
        acts = action is not None and action not in TELLING
        actions = {action, *ALSO.get(action, ())} | ({a for a in said if a and a not in TELLING} if acts else set())
        # a tool that switches something on or off ("enabled": true or false) is asked to start or stop it; it acts,
        # though its words say no verb ("seat_heating": "Heated seats")
        if any(isinstance(properties[p], dict) and properties[p].get("type") == "boolean" and
               SWITCH_WORDS & set(name_words(p)) for p in properties):
            actions |= set(SWITCHED)
            action = action or "start"
        # an enum whose members are actions undone by each other chooses one ("position": open, closed, half): the
        # tool acts by those, though its words say no verb ("greenhouseVents": "Greenhouse vents.")
        chosen = {a for root in map(stem, members) for verb, a in ACTION_ROOTS if same_root(root, verb)}
        if any(pair <= chosen for pair in OPPOSED) and action is None:
            # no verb of its own: its action said alone is no evidence ("close the garage door" is no skylight's)
            actions |= chosen
            action, verb = sorted(chosen)[0], None
        # the last word of the words after its description's verb, up to a function word ("a ferry crossing")
        phrase = []
        for word in described[1:]:
            if word in FUNCTION_WORDS and (phrase or word not in DETERMINERS):
                break
            if word not in DETERMINERS:
                phrase.append(word)
        return cls(name, action, stem(verb) if action and verb else None, own,
                   tuple(Parameter.read(p, properties[p], p in required) for p in order), frozenset(actions - {None}),
                   stem(phrase[-1]) if phrase and action else "", verb if action and verb else "",
                   frozenset(stem(w) for w in _content(re.findall(r"[a-z']+", example.group(1).lower())))
                   if (example := EXAMPLE_OPENER.search(description)) else frozenset())

    def tells(self) -> bool:
        return self.action is None or self.action in TELLING

    def names(self, root: str) -> bool:
        """The thing its name acts on, or a thing of that kind ("run" for log_workout, "yen" for convert_currency);
        not a word of its description nor a word that only says the same kind of thing ("heating" for
        startCarClimate: the house has heating too)."""
        nouns = [stem(w) for w in name_words(self.name) if not same_root(stem(w), self.verb or "")]
        return any(same_root(root, n) or any(root in g and n in g for g in EXAMPLE_GROUPS) for n in nouns)

    def has(self, root: str) -> bool:
        """A word of its own, or of a group of words that say the same kind of thing as one of its own."""
        return any(same_root(root, r) for r in self.own) or any(
            root in group and self.own & group for group in KINDS) or self.clipped(root)

    def clipped(self, root: str) -> bool:
        """A word of its name said clipped ("cam" for show_camera, "temp" for get_freezer_temperature)."""
        return len(root) >= 3 and root not in FUNCTION_WORDS and any(
            len(w) >= len(root) + 3 and w.startswith(root) for w in name_words(self.name))


class Request:
    """A request's words and its verb: what it asks done, when it starts with one after "can you", "please"."""

    def __init__(self, text: str, verbs: frozenset = frozenset()):
        self.text = text
        self.tokens, end = [], 0
        for match in _TOKEN.finditer(text):
            word = match.group(0).lower().replace("’", "'")
            # a day's possessive is the day ("call off *tomorrow's* yoga class": the day is tomorrow)
            owned_day = word.endswith("'s") and word[:-2] in DAY_WORDS
            self.tokens.append(Token(word[:-2] if owned_day else word, match.start(),
                                     match.end() - 2 if owned_day else match.end(), text[end:match.start()]))
            end = match.end()
        words = [t.word for t in self.tokens]
        first = next((i for i, w in enumerate(words) if w not in LEAD_IN), len(words))
        # a request asked inside a remark on asking ("i was wondering if you could book ..."): its verb follows the
        # first "you could" or "could you" of its first clause
        end = next((i for i, t in enumerate(self.tokens) if i and any(c in t.gap for c in ",;.!?")), len(words))
        asking = next((i + 2 for i in range(first, end - 1) if {words[i], words[i + 1]} & ASKING_MODALS and
                       "you" in (words[i], words[i + 1]) and words[i] != words[i + 1]), None)
        inside = asking is not None and first + 1 < asking < end and self.action_at(first)[0] in (None, "any")
        # or in words of asking anywhere ("the piano sounds awful, is there any way you could get the tuner round",
        # "would you mind locking the shed"): the request's verb follows them
        wrapped = self._wrapped(words) if first < len(words) and self.action_at(first)[0] in (None, "any") else None
        if wrapped is not None:
            first, inside = wrapped, True
        elif inside:
            first = next((i for i in range(asking, len(words)) if words[i] not in LEAD_IN), len(words))
        self.verb, self.verb_length = self.action_at(first) if first < len(words) else (None, 0)
        after_remark = False
        if self.verb is None and first < len(words) and not any(same_root(stem(words[first]), v) for v in verbs):
            # a remark before the request ("ugh, long day, order me a pizza"): its verb starts a later clause, one
            # of the tables' or a declared tool's own ("i'm exhausted, clock me out"); the remark may still hold a
            # value ("i'm craving a mocha, order one")
            for start in (i for i, t in enumerate(self.tokens) if i > first and any(c in t.gap for c in ",;.!?")):
                at = next((i for i in range(start, len(words)) if words[i] not in LEAD_IN), len(words))
                action, length = self.action_at(at) if at < len(words) else (None, 0)
                if action is not None or at < len(words) and any(same_root(stem(words[at]), v) for v in verbs):
                    first, self.verb, self.verb_length, after_remark = at, action, length, True
                    break
        if first < len(words) and words[first] in PARTICLES:
            # a verb and its particle after the object ("take hard fork out of my queue", "switch the captions off",
            # "call it off")
            end = next((i for i, t in enumerate(self.tokens) if i > first and any(c in t.gap for c in ",;.!?")), len(words))
            self.verb = next((action for particle, action in PARTICLES[words[first]].items()
                              if particle in words[first + 1 + (self.verb == "any"):end]), self.verb)
            if self.verb != "any" and words[first + 1:first + 2] and words[first + 1] in PARTICLES[words[first]]:
                self.verb_length = 2        # its particle right after it is no value ("call off the yoga class")
        self.verb_at = first
        self.asked_in_words = inside        # after words of asking ("would you mind", "i was hoping you could")
        def asks(i: int) -> bool:
            """"is the garage door open" asks; "can you call tomasz", "can i get a pizza" ask for something done."""
            return words[i] in QUESTION_STARTS and not (
                words[i] in ASKING_MODALS and words[i + 1:i + 2] in (["you"], ["i"], ["we"]))
        # a question from the start or, with no verb said, after a remark ("before i print anything, is the printer
        # low on ink?")
        self.question = bool(words) and not after_remark and not inside and (asks(0) or self.verb is None and any(
            asks(i) for i, t in enumerate(self.tokens) if i > first and any(c in t.gap for c in ",;.!?")))
        # the first word after the lead-in, when it is neither a question's nor a known verb ("close the door")
        self.unknown_verb = first < len(words) and self.verb is None and not self.question and \
            words[first] not in FUNCTION_WORDS and words[first] not in QUESTION_STARTS
        self.first = words[first] if first < len(words) else ""
        # where the request's own clause ends: what follows is a remark ("renew the hobbit, it's due tomorrow")
        self.clause_end = next((i for i, t in enumerate(self.tokens) if i > first and any(c in t.gap for c in ",;!?")),
                               len(words))
        self.titled = self._titles()

    def _wrapped(self, words: list[str]) -> int | None:
        """Where the verb stands after the first words of asking (ASKING_WRAPPERS), in its base form when a gerund
        ("would you mind *locking*"); None when none is said. Said mid-clause, as a recogniser writes a remark and its
        request with no comma ("before we go to bed would you mind ..."), but not after a question's word ("what
        could you do")."""
        for i in range(len(words)):
            if i and words[i - 1] in QUESTION_STARTS:
                continue
            length = max((len(p.split()) for p in ASKING_WRAPPERS if words[i:i + len(p.split())] == p.split()),
                         default=0)
            if not length:
                continue
            at = next((j for j in range(i + length, len(words)) if words[j] not in LEAD_IN), len(words))
            if at < len(words) and words[i + length - 1] == "mind" and words[at].endswith("ing"):
                base = next((base for base in (words[at][:-3], words[at][:-3] + "e", words[at][:-4])
                             if base in ACTION_OF or base in KNOWN_VERBS), words[at][:-3])
                self.tokens[at] = replace(self.tokens[at], word=base)
                words[at] = base
            return at
        return None

    def _titles(self) -> set[int]:
        """Where a title is typed ("The Hobbit", "Here Comes the Sun", "The Name of the Wind"): a run of capitalised
        words, not the request's first, with the lowercase words between them that no place or person is said
        after ("of", "the", "with"; not "to": "Leeds to York" is two values). Its words are neither stripped nor a
        cue: a title may begin with "The" or "For"."""
        def capital(i: int) -> bool:
            token = self.tokens[i]
            return i > 0 and self.text[token.start].isupper() and token.word != "i" and not token.word.startswith("i'")
        titled, i = set(), 0
        while i < len(self.tokens):
            if not capital(i):
                i += 1
                continue
            last, j = i, i + 1
            while j < len(self.tokens) and (capital(j) or self.tokens[j].word in FUNCTION_WORDS and
                                             not CUES.get(self.tokens[j].word) and not self.tokens[j].gap.strip()):
                if capital(j):
                    last = j
                j += 1
            while last > i and (self.tokens[last].word in DAY_WORDS or self.tokens[last].word in MONTHS):
                last = max(k for k in range(i, last) if capital(k))     # "Keiko on Friday": the day is no part of it
            unit = self.tokens[last + 2].word if last + 2 < len(self.tokens) else ""
            if last + 1 < len(self.tokens) and self.tokens[last + 1].word.isdigit() and \
                    not self.tokens[last + 1].gap.strip() and unit not in UNIT_WORDS and \
                    not any(tuple(w.word for w in self.tokens[last + 2:last + 2 + len(s)]) == s for s in SCALE_WORDS):
                last += 1             # a number ends a title ("Family Reunion 2027"; not "Tom 20 dollars")
            titled.update(range(i, last + 1))
            i = last + 1
        return titled

    @cached_property
    def thing_named(self) -> str | None:
        """What a request that opens with no verb asks for: the last word of its opening phrase, after its function
        words, up to a function word, a cue, a time, a title or a number ("*first* class train *ticket* from
        Edinburgh", "quick draft *print* of hook.gcode"). Only where the first word is no verb of the tables nor the
        corpus's (KNOWN_VERBS) and WordNet has it more as a thing than as an action
        (verb_senses.thing_more_than_action); None otherwise."""
        if not self.unknown_verb or self.first in KNOWN_VERBS or not verb_senses.thing_more_than_action(self.first):
            return None
        words, head = [t.word for t in self.tokens], None
        i = self.verb_at
        while i < self.clause_end and words[i] in FUNCTION_WORDS:
            i += 1
        while i < self.clause_end and words[i] not in FUNCTION_WORDS and words[i] not in CUES and \
                words[i] not in RANGE_ENDS and words[i] not in DAY_WORDS and words[i] not in CODED and \
                i not in self.titled and number_value(words[i]) is None:
            head, i = words[i], i + 1
        return head

    def says_own_verb(self, tool: "Tool") -> bool:
        """It starts with the tool's own verb that no table holds ("preheat the oven", "freeze my card")."""
        return self.unknown_verb and tool.verb is not None and same_root(stem(self.first), tool.verb)

    def says_name_verb(self, tool: "Tool") -> bool:
        """Its verb is a word of the tool's name ("message the sitter" with send_babysitter_message)."""
        return self.verb_at < len(self.tokens) and any(
            same_root(stem(self.tokens[self.verb_at].word), stem(w)) for w in name_words(tool.name))

    def action_at(self, i: int) -> tuple[str | None, int]:
        words = [t.word for t in self.tokens]
        pair = " ".join(words[i:i + 2])
        if pair in ACTION_OF:
            return ACTION_OF[pair], 2
        if words[i] in ANY_ACTION:
            return "any", 1
        return ACTION_OF.get(words[i]), 1

    def said(self, first: int, last: int) -> str:
        return self.text[self.tokens[first].start:self.tokens[last].end]


def _strippable(word: str, tool: Tool, last: bool, kindred: bool = True) -> bool:
    """A word at a value's start or end that is no part of it: a function word, a word said around values, a word
    of the tool's name or its kind ("the song hallelujah", "the arsenal game"), a parameter's name ("the subject
    broken heater"); at its end also a verb ("bananas off"), though not a word only the description has ("the
    herb garden" of "a garden zone"). Not kindred: a word of the tool's kind is kept ("a large latte")."""
    if "-" in word:         # "out-of-office": each part
        return all(_strippable(part, tool, last, kindred) for part in word.split("-") if part)
    root = stem(word)
    if word in FUNCTION_WORDS or word in AROUND_VALUES or word in AROUND_WORDS or (last and word in ACTION_OF):
        return True
    names = {stem(w) for w in name_words(tool.name)}
    parameters = {stem(w) for p in tool.parameters for w in name_words(p.name)}
    if any(same_root(root, r) for r in names | parameters) or tool.clipped(root) or \
            last and tool.thing and same_root(root, tool.thing) or kindred and \
            any(root in group and names & group for group in GROUPS) and not any(root in g for g in EXAMPLE_GROUPS):
        return True
    return False


@dataclass
class _Chunk:
    first: int
    last: int
    cue: str | None
    kindred: bool = False      # words of the tool's kind only ("sprinklers" for water_garden_zone): a value last


class _Reading:
    """One tool's arguments read from one request: values are spans of the request, numbers said, enum members."""

    def __init__(self, tool: Tool, request: Request, only_required: bool = False):
        self.tool, self.request = tool, request
        self.only_required = only_required     # other parameters than these take only a run their word before says
        self.main = [p for p in tool.parameters if p.required] or list(tool.parameters[:1])
        self.words = [t.word for t in request.tokens]
        self.used: set[int] = set()
        if request.verb is not None or request.says_own_verb(tool):
            self.used.update(range(request.verb_at, request.verb_at + max(request.verb_length, 1)))
            # the verb and its particle are one word of the tool's name ("roll back" for rollbackDeployment)
            end = request.verb_at + max(request.verb_length, 1)
            if end < len(self.words) and any(stem(self.words[end - 1] + self.words[end]) == stem(w)
                                             for w in name_words(tool.name)):
                self.used.add(end)
        # a verb of any action, then the verb of what is asked ("let me *see* the nursery cam", "help me find ...")
        if request.verb == "any":
            after = next((i for i in range(request.verb_at + 1, len(self.words)) if self.words[i] not in FUNCTION_WORDS),
                         None)
            if after is not None and self.words[after] in ACTION_OF and after not in request.titled:
                self.used.add(after)
        # a word right after who does it is a verb ("i worked 40 hours on Helios")
        self.used.update(i for i in range(1, len(self.words)) if self.words[i - 1] in SUBJECT_PRONOUNS and
                         self.words[i] not in FUNCTION_WORDS and i not in request.titled)
        # the amount a question asks ("how long", "how much") is no value
        self.used.update(i for i in range(1, len(self.words))
                         if self.words[i] in AMOUNTS and self.words[i - 1] == "how")
        self.arguments: dict = {}
        self.read_from: dict[str, tuple[int, int]] = {}      # the words each argument taken by take() was read from
        self.left = 0            # runs of words no parameter took ("book me a *flight* to rome" with book_taxi)
        self.left_object = False
        self.object_taken: list[tuple[Parameter, _Chunk]] = []     # the verb's object, and the parameter it fills
        self.later = False       # a time to come said, and no parameter takes it
        # a value corrected ("for the twins, no wait, just for sam"): the run before the correction and its words
        # are no value
        self.corrected: set[int] = set()
        for i in range(len(self.words)):
            length = next((len(c.split()) for c in CORRECTIONS if self.words[i:i + len(c.split())] == c.split()), 0)
            if length and i:
                self.used.update(range(i, i + length))
                self.corrected.add(i - 1)

    def free(self, i: int) -> bool:
        return 0 <= i < len(self.words) and i not in self.used

    def number_at(self, i: int) -> tuple[int | float, int] | None:
        """The number said from word i, in digits or in words of one or more ("forty five", "one hundred and
        twenty"), and its last word; None when none starts there."""
        if not 0 <= i < len(self.words):
            return None
        words = self.words
        # "a dozen", "half a dozen": a count noun after "a"
        if words[i:i + 1] in (["a"], ["an"], ["half"]) and words[i + 1:i + 2] and words[i + 1] in COUNT_NOUNS or \
                words[i:i + 2] == ["half", "a"] and words[i + 2:i + 3] and words[i + 2] in COUNT_NOUNS:
            half = words[i] == "half"
            noun = words[i + 1 + half]
            return COUNT_NOUNS[noun] // (2 if half else 1), i + 1 + half
        value, used = parse_cardinal(self.words, i)
        # a digit and then tens, as a reading is said ("one thirty five over ninety" is 135), not a time ("one thirty
        # pm", or "at one thirty" where the tool takes a time)
        if used == 1 and 1 <= UNITS.get(words[i], 0) <= 9 and words[i + 1:i + 2] and words[i + 1] in TENS and \
                not (i and words[i - 1] in TIME_JOINERS | RANGE_ENDS and
                     any(p.kind == "time" for p in self.tool.parameters)):
            rest, more = parse_cardinal(words, i + 1)
            if not CLOCK_WORDS & set(words[i + 1 + more:i + 2 + more]):
                value, used = UNITS[words[i]] * 100 + rest, 1 + more
        if used <= 1:
            value, used = number_value(self.words[i]), 1
        if value is None:
            return None
        # "six point nine": the digits said after the point
        digits = []
        while i + used + 1 + len(digits) < len(words) and words[i + used] in DECIMAL_POINTS and \
                UNITS.get(words[i + used + 1 + len(digits)], 10) < 10:
            digits.append(str(UNITS[words[i + used + 1 + len(digits)]]))
        if digits:
            value, used = float(f"{int(value)}.{''.join(digits)}"), used + 1 + len(digits)
        # "two dozen": the count noun after it
        if i + used < len(words) and words[i + used] in COUNT_NOUNS:
            value, used = value * COUNT_NOUNS[words[i + used]], used + 1
        # "seventy two and a half": the fraction after it; not before a duration's unit, which durations read
        end = i + used
        part, length = next(((f, len(p)) for f, phrases in AND_A_FRACTION.items() for p in phrases
                             if tuple(self.words[end:end + len(p)]) == p), (0, 0))
        if length and set(self.words[end + length:end + length + 1]) & DURATION_WORDS:
            part, length = 0, 0
        value += part
        return int(value) if float(value).is_integer() else value, end + length - 1

    def unfilled(self, *kinds) -> list[Parameter]:
        return [p for p in self.tool.parameters if p.name not in self.arguments and (not kinds or p.kind in kinds)]

    def read(self) -> dict | None:
        self.quoted()
        self.message()
        self.enums()
        self.flags()
        self.times()
        self.durations()
        self.numbers()
        self.spans()
        if self.later or self.left_out():
            return None
        return self.arguments

    def left_out(self) -> list["Parameter"]:
        """The required parameters no words of the request filled."""
        return [p for p in self.tool.parameters if p.required and p.name not in self.arguments]

    def take(self, parameter: Parameter, first: int, last: int, value=None):
        value = self.request.said(first, last) if value is None else value
        # a member of an enum of numbers is sent as its schema types it ("price_level": 1, not "1")
        if parameter.type in ("integer", "number") and isinstance(value, str) and number_value(value) is not None:
            value = number_value(value)
        self.arguments[parameter.name] = value
        self.read_from[parameter.name] = (first, last)
        self.used.update(range(first, last + 1))

    def quoted(self):
        for match in _QUOTED.finditer(self.request.text):
            inside = [i for i, t in enumerate(self.request.tokens)
                      if match.start(1) <= t.start and t.end <= match.end(1)]
            targets = self.unfilled("message") or self.unfilled("thing")
            if inside and targets:
                self.take(targets[0], inside[0], inside[-1])

    def message(self):
        """A message is the rest of the request after "saying", "that", "say" or a colon ("text mom that i'll be
        home by eight"), less a language said after it when the tool takes one ("say good morning in japanese")."""
        targets = self.unfilled("message")
        if not targets:
            return
        start = next((i + 1 for i in range(len(self.words)) if self.free(i) and self.words[i] in MESSAGE_CUES
                      and i > self.request.verb_at), None)
        colon = next((i for i, t in enumerate(self.request.tokens) if ":" in t.gap and self.free(i)), None)
        start = min((s for s in (start, colon) if s is not None), default=None)
        if start is None:
            return
        while start < len(self.words) and self.words[start] in ADDRESSEES:
            start += 1
        end = len(self.words) - 1
        if self.unfilled("language"):
            cut = next((k for k in range(start + 1, len(self.words)) if self.words[k] in LANGUAGE_CUES
                        and len(self.words) - k <= 3), None)
            end = cut - 1 if cut is not None else end
        if start <= end and any(self.free(i) for i in range(start, end + 1)):
            self.take(targets[0], start, end)
            if start > 0 and self.words[start - 1] in MESSAGE_CUES:
                self.used.add(start - 1)

    def mentions(self, members: tuple, explanations: tuple = (), by_meaning: bool = False) -> list[tuple[int, int, str]]:
        """Where the request says an enum's members: their words, a currency's name, a word the member starts
        with ("tech": technology), or one its description explains it with; by_meaning, where none is said so, a
        word of a member's meaning too (not a word of the tool's name: "bread" is no "dough" for StartBreadMaker)."""
        phrases = [(m.lower().replace("-", " ").replace("_", " ").split(), m) for m in members]
        phrases += [(name.split(), code) for name, code in CURRENCIES.items() if code in members]
        found, i = [], 0
        while i < len(self.words):
            hits = [(len(words), member) for words, member in phrases if self.words[i:i + len(words)] == words]
            if not hits and len(self.words[i]) >= 4:
                hits = [(1, m) for m in members if " " not in m and m.lower().startswith(self.words[i])]
            if not hits:            # a word of a member's family ("cheap" for "economy", "asap" for "urgent")
                hits = [(1, m) for m in members if self.words[i] in MEMBER_SYNONYMS.get(m.lower(), ())]
            if not hits:            # a word the description explains a member with ("out": away), or its
                # comparison ("cheap" for "economy is the cheapest")
                hits = [(1, m) for word, m in explanations
                        if word in (self.words[i], *(self.words[i] + e for e in COMPARISONS))]
            if not hits:            # "arm" for "armed", "quietly" for "quiet"
                hits = [(1, m) for m in members if " " not in m and self.words[i] not in FUNCTION_WORDS and (
                    same_root(stem(m), stem(self.words[i])) or len(m) >= 4 and self.words[i].startswith(m.lower()) and
                    self.words[i][len(m):] in MEMBER_ENDINGS)]
            if not hits and by_meaning and self.words[i].isalpha() and self.words[i] not in FUNCTION_WORDS and \
                    not any(same_root(stem(self.words[i]), stem(w)) for w in name_words(self.tool.name)):
                # a word of the member's meaning by WordNet ("ten bucks": dollars, "quid": pounds, "quiet": silence)
                hits = [(1, m) for m in members if m.isalpha() and verb_senses.same_meaning(self.words[i], m)]
            if hits and self.free(i):
                length, member = max(hits)
                found.append((i, i + length - 1, member))
                i += length
            else:
                i += 1
        return found

    def enums(self):
        """Enum members said; of two parameters with the same members, the one that says "from" takes the member
        said right after the amount or after "from" ("50 dollars in euros": USD to EUR)."""
        for parameter in [p for p in self.unfilled() if p.enum]:
            if parameter.name in self.arguments:
                continue
            found = [m for m in self.mentions(parameter.enum, parameter.explained) if self.free(m[0])] or \
                [m for m in self.mentions(parameter.enum, parameter.explained, by_meaning=True) if self.free(m[0])]
            # a member that is an action, said as the request's verb ("shut the vents": closed)
            acted = [m for m in parameter.enum if self.request.verb in self.tool.actions and any(
                a == self.request.verb and " " not in w and same_root(stem(m), stem(w)) for w, a in ACTION_OF.items())]
            if not found and acted:
                self.take(parameter, self.request.verb_at, self.request.verb_at, acted[0])
                continue
            if not found:
                continue
            twins = [p for p in self.unfilled() if p.enum == parameter.enum]
            source = next((p for p in twins if SOURCE_WORDS & set(name_words(p.name))), None)
            if len(twins) > 1 and source is not None and len(found) > 1:
                first = next((m for m in found if m[0] > 0 and (number_value(self.words[m[0] - 1]) is not None
                                                                 or self.words[m[0] - 1] == "from")), found[0])
                self.take(source, first[0], first[1], first[2])
                found.remove(first)
                for twin, mention in zip([p for p in twins if p is not source], found):
                    self.take(twin, mention[0], mention[1], mention[2])
            elif len(found) > 1 and found[1][0] == found[0][1] + 2 and self.words[found[0][1] + 1] == "and" and \
                    found[0][2] != found[1][2] and any(m.lower() in BOTH_MEMBERS for m in parameter.enum):
                # two members said together ("wet and dirty"): the member that means both
                both = next(m for m in parameter.enum if m.lower() in BOTH_MEMBERS)
                self.take(parameter, found[0][0], found[1][1], both)
            else:
                self.take(parameter, found[0][0], found[0][1], found[0][2])

    def flags(self):
        """A boolean parameter is true when the request says its name's words ("unread emails": unread_only), or as
        its description says of a word said ("true to lock, false to unlock"); a switch ("enabled") as the request
        switches it, on when it says neither ("set my out of office saying ...")."""
        for parameter in [p for p in self.unfilled() if p.type == "boolean" and SWITCH_WORDS & set(name_words(p.name))
                          and len({value for word, value in p.choices if word in self.words}) != 1]:
            # (a word the description gives one value for is read below: "true to silence notifications")
            said = [True if " ".join(self.words[i:i + 2]) in SWITCH_ON else SWITCHED[a] for i in range(len(self.words))
                    if " ".join(self.words[i:i + 2]) in SWITCH_ON or (a := self.request.action_at(i)[0]) in SWITCHED]
            if self.request.verb in SWITCHED:         # read with its particle ("switch the seats off")
                said.insert(0, SWITCHED[self.request.verb])
            if said or parameter.required:
                self.arguments[parameter.name] = said[0] if said else True
        for parameter in [p for p in self.unfilled() if p.type == "boolean"]:
            chosen = next(((i, value) for word, value in parameter.choices for i, w in enumerate(self.words) if w == word),
                          None)
            if chosen is not None:
                self.arguments[parameter.name] = chosen[1]
                continue
            words = [stem(w) for w in name_words(parameter.name) if w not in FLAG_FILLERS]
            places = [next((i for i, w in enumerate(self.words) if same_root(stem(w), root)), None) for root in words]
            if words and None not in places:
                # its words said after a negation, with at most a word between ("no bubbles", "without any steam")
                start = min(places)
                negated = any(w in FLAG_NEGATIONS for w in self.words[max(0, start - 2):start])
                self.arguments[parameter.name] = not negated
                self.used.update(places)

    def time_runs(self) -> list[tuple[int, int]]:
        """Runs of words that say a day or a time ("next tuesday at 7:30", "6 pm", "in two hours")."""
        dates = self.dates_of_month()
        words, marked = self.words, [i in dates for i in range(len(self.words))]
        for i, w in enumerate(words):
            after = words[i + 1] if i + 1 < len(words) else ""
            before = words[i - 1] if i else ""
            part = w in PARTS_OF_DAY and not (before in DAY_WORDS or before == "this")     # "good night"
            # "at 14 Elm Road": a number before a word of a name is no hour (nor is "at 120": a tempo)
            named = after.isalpha() and not {after} & (FUNCTION_WORDS | DAY_WORDS | CLOCK_WORDS | DURATION_WORDS)
            # "at one and a half speed": a number with its fraction is no hour
            named = named or any(tuple(words[i + 1:i + 1 + len(p)]) == p for ps in AND_A_FRACTION.values() for p in ps)
            alone = w in RELATIVE_DAYS and after not in DAY_WORDS and after not in MONTHS      # "the next train"
            clock = w in CLOCK_WORDS and (w not in MERIDIEMS or number_value(before) is not None)
            if (w in DAY_WORDS and not part and not alone) or (w in MONTHS and w != "may") or clock or \
                    _CLOCK.fullmatch(w) or \
                    (number_value(w) is not None and (after in CLOCK_WORDS or before in MONTHS or
                                                      after in MONTHS and number_value(w) <= 31 or
                                                      before == "at" and number_value(w) <= 24 and not named)):
                marked[i] = True
            if w == "this" and after in DAY_WORDS:
                marked[i] = True
            # a clock time by the minutes past or to the hour ("half past six", "ten to seven"; not "5 to 10 minutes")
            hour = number_value(words[i + 2]) if i + 2 < len(words) else None
            minutes = CLOCK_MINUTES.get(w, number_value(w))
            if minutes is not None and minutes < 60 and after in CLOCK_WAYS and hour is not None and \
                    1 <= hour <= 12 and not set(words[i + 3:i + 4]) & DURATION_WORDS:
                marked[i:i + 3] = [True] * 3
            if w == "in" and (number_value(after) is not None or after in ("a", "an")) and i + 2 < len(words) and \
                    words[i + 2] in DURATION_WORDS:           # "in 20 minutes", "in an hour"
                marked[i:i + 3] = [True] * 3
        runs, i = [], 0
        while i < len(words):
            if not marked[i] or not self.free(i):
                i += 1
                continue
            last = i
            # a word another argument took ends the run ("monday morning" with a slot of the day: the date "monday")
            while last + 1 < len(words) and self.free(last + 1) and (
                    marked[last + 1] or (words[last + 1] in TIME_JOINERS and last + 2 < len(words) and
                                         marked[last + 2] and self.free(last + 2))):
                last += 1
            runs.append((i, last))
            i = last + 1
        return runs

    def dates_of_month(self) -> set[int]:
        """Where a date is said by the day's ordinal ("the twelfth of june", "on the ninth", "may 5th", "the 14th"),
        with its "the", its tens and its month; not "the fourth floor"."""
        words, marked = self.words, set()
        for i, w in enumerate(words):
            if not (w in DAY_ORDINALS or re.fullmatch(r"(?:[12]?\d|3[01])(?:st|nd|rd|th)", w)):
                continue
            start = i - 1 if i and words[i - 1] in ORDINAL_TENS else i
            start -= start > 0 and words[start - 1] == "the"
            end = i + 2 if words[i + 1:i + 3] and words[i + 1] == "of" and words[i + 2:i + 3] and \
                words[i + 2] in MONTHS else i + 1 if words[i + 1:i + 2] and words[i + 1] in MONTHS else i
            start -= start > 0 and words[start - 1] in MONTHS and words[start] != "the"
            after = words[end + 1] if end + 1 < len(words) else ""
            dated = words[start] == "the" and start and words[start - 1] in DATE_PREPOSITIONS and (
                not after or after in FUNCTION_WORDS or after in DAY_WORDS or after in TIME_JOINERS)
            if end > i or words[start] in MONTHS or dated or w[0].isdigit():
                marked.update(range(start, end + 1))
        return marked

    def times(self):
        """The first time said fills a time parameter ("tomorrow at 9" a reminder's when), or a date and a time
        of day when the tool takes both ("friday" and "3 pm"); no time said is part of another value."""
        runs = self.time_runs()
        if not self.unfilled("time") and self.delays():
            # "in three hours" to a tool that takes a delay ("delay_hours"): that number parameter's, no time to come
            runs = [(f, l) for f, l in runs if not (self.words[f] == "in" and self.words[l] in DURATION_SECONDS)]
        for first, last in runs:
            self.used.update(range(first, last + 1))
        # a tool that acts now, asked for later ("start the washing machine in 20 minutes"): calling it would act now
        # (in the request's own clause: "renew the hobbit, it's due tomorrow" is a remark; nor in what is said after a
        # colon: "start a poll: pizza or curry tonight?"); a tool that adds or saves does so now ("save it for later")
        clause = min([self.request.clause_end] + [i for i, t in enumerate(self.request.tokens) if ":" in t.gap])
        self.later = not self.tool.tells() and self.tool.action != "add" and not self.unfilled("time") and any(
            LATER_WORDS.intersection(self.words[first:last + 1]) or any(_CLOCK.fullmatch(w) or w in CLOCK_WORDS
                                                                       for w in self.words[first:last + 1])
            for first, last in runs if first < clause)
        if not runs:
            return
        first, last = runs[0]
        dates = [p for p in self.unfilled("time") if p.date_only]
        others = [p for p in self.unfilled("time") if not p.date_only]
        at = next((k for k in range(first, last + 1) if self.words[k] == "at"), None)
        if dates and others:
            clock = [k for k in range(first, last + 1)
                     if _CLOCK.fullmatch(self.words[k]) or self.words[k] in CLOCK_WORDS
                     or number_value(self.words[k]) is not None and self.words[k - 1] not in MONTHS]
            cut = at if at is not None else (clock[0] if clock else last + 1)
            if cut > first:
                self.take(dates[0], first, cut - 1)
            if cut <= last:
                self.take(others[0], cut + 1 if cut == at else cut, last)
        elif dates or others:
            self.take((dates or others)[0], first, last)
            # the end of a range ("from monday to friday"): the next time parameter alike takes it
            rest = (dates or others)[1:]
            end = next(((f, l) for f, l in runs[1:] if f and self.words[f - 1] in RANGE_ENDS), None)
            if rest and end is not None:
                self.take(rest[0], *end)
                self.used.add(end[0] - 1)

    def delays(self) -> list[Parameter]:
        """Number parameters of a unit of time ("Minutes to add", "delay_hours")."""
        return [p for p in self.unfilled() if p.type in ("integer", "number") and
                any(w in DURATION_SECONDS for w in [*name_words(p.name), *p.said])]

    def durations(self):
        """A number parameter of a unit of time ("Minutes to add", "Duration in hours") takes a duration said in any
        unit ("by an hour": 60 minutes; "an hour and a half": 1.5 hours)."""
        for parameter in self.delays():
            unit = next(DURATION_SECONDS[w] for w in [*name_words(parameter.name), *sorted(parameter.said)]
                        if w in DURATION_SECONDS)
            found = next((d for d in (self.duration_at(i) for i in range(len(self.words))) if d), None)
            if found:
                seconds, first, last = found
                value = seconds / unit
                self.take(parameter, first, last, int(value) if value.is_integer() else value)

    def duration_at(self, i: int) -> tuple[float, int, int] | None:
        """The seconds of a duration said from word i ("ninety minutes", "an hour and a half"), and its last word."""
        words, said = self.words, self.number_at(i)
        if not self.free(i):
            return None
        if words[i] == "half" and words[i + 1:i + 2] in (["a"], ["an"]) and words[i + 2:i + 3] and \
                words[i + 2] in DURATION_SECONDS:                     # "half an hour"
            return 0.5 * DURATION_SECONDS[words[i + 2]], i, i + 2
        amount, i_last = (1, i) if words[i] in ("a", "an") else said if said else (None, i)
        if words[i] in ("a", "an") and words[i + 1:i + 2] and words[i + 1] not in DURATION_SECONDS and \
                words[i + 1].isalpha() and words[i + 1] not in FUNCTION_WORDS | AMOUNT_WORDS and \
                number_value(words[i + 1]) is None and words[i + 2:i + 3] and words[i + 2] in DURATION_SECONDS:
            i_last = i + 1           # a word of what kind between ("a free hour", "a full day"; not "a ten minute")
        if amount is None:
            return None

        def fraction_at(k: int) -> tuple[float, int]:
            """"and a half" from word k: 0.5 and its length; (0, 0) when none is said there."""
            return next(((f, len(p)) for f, phrases in AND_A_FRACTION.items() for p in phrases
                         if tuple(words[k:k + len(p)]) == p), (0, 0))
        before, length = fraction_at(i_last + 1)          # "7 and a half hours"
        unit = i_last + 1 + length
        if unit >= len(words) or words[unit] not in DURATION_SECONDS:
            return None
        after, more = fraction_at(unit + 1) if not length else (0, 0)     # "an hour and a half"
        return (amount + before + after) * DURATION_SECONDS[words[unit]], i, unit + more

    def year_at(self, i: int) -> tuple[int, int, int] | None:
        """A year said in words from word i ("twenty twenty two", "nineteen ninety"): its value, first and last word."""
        words = self.words
        if words[i] not in CENTURIES or i + 1 >= len(words) or not self.free(i) or \
                TENS.get(words[i + 1], UNITS.get(words[i + 1], 0)) < 10:
            return None
        units = UNITS.get(words[i + 2], 0) if words[i + 1] in TENS and i + 2 < len(words) and \
            UNITS.get(words[i + 2], 10) < 10 else 0
        return CENTURIES[words[i]] + TENS.get(words[i + 1], UNITS.get(words[i + 1], 0)) + units, i, i + 1 + bool(units)

    def numbers(self):
        """A number said fills a number parameter whose words follow it ("for 10 minutes", "two portions", "for
        two people"), or the only one left when one number is left; a number in a run of numbers ("7489 2210")
        is part of a code."""
        starts, i = {}, 0          # where each number said starts ("two thousand five hundred" is one)
        while i < len(self.words):
            said = self.number_at(i)
            if said:
                starts[i] = said
            i = said[1] + 1 if said else i + 1
        for i, (_, last) in list(starts.items()):        # "3 out of 5": the scale after the score is no value
            scale = next((len(words) for words in SCALE_WORDS
                          if tuple(self.words[last + 1:last + 1 + len(words)]) == words), 0)
            if scale and last + 1 + scale in starts:
                self.used.update(range(last + 1, starts[last + 1 + scale][1] + 1))

        def lone(i):
            """A number said from word i, not within a run of numbers ("7489 2210" is a code)."""
            return self.free(i) and i in starts and i not in self.request.titled and \
                all(self.free(k) for k in range(i, starts[i][1] + 1)) and \
                self.number_at(starts[i][1] + 1) is None

        def value_at(i, parameter):
            value, last = starts[i]
            self.take(parameter, i, last, value)
            if self.words[last + 1:last + 2] and self.words[last + 1] in UNIT_WORDS - DURATION_WORDS:
                self.used.add(last + 1)     # "12 dollars", "2 kilo": the unit is no value
            return last
        for parameter in [p for p in self.unfilled() if p.type == "string" and not p.enum]:
            for i in range(1, len(self.words)):
                if lone(i) and starts[i][1] == i and \
                        any(same_root(stem(self.words[i - 1]), stem(w)) for w in name_words(parameter.name)):
                    self.take(parameter, i, i)          # "zone 4021", "bus 14": a number that names a thing
                    self.used.add(i - 1)
                    break
        targets = [p for p in self.unfilled() if p.type in ("integer", "number")]
        for parameter in [p for p in targets if YEAR_WORDS & set(name_words(p.name))]:
            year = next((y for y in (self.year_at(i) for i in range(len(self.words))) if y), None)
            if year:
                self.take(parameter, year[1], year[2], year[0])
        targets = [p for p in targets if p.name not in self.arguments]
        ends = {last for _, last in starts.values()}
        # the parameter's name said right before its number ("pulse seventy two", "a pulse of 72"), in one clause and
        # not a unit of the number before it ("2 hours 30 minutes")
        for parameter in targets:
            for i in [i for i in starts if lone(i) and i >= 1]:
                named = i - 1 - (i >= 2 and self.words[i - 1] in NUMBER_LINKS)
                clause = not any(c in t.gap for t in self.request.tokens[named + 1:i + 1] for c in ",;.!?")
                if self.free(named) and clause and \
                        (named - 1 not in ends or any(c in self.request.tokens[named].gap for c in ",;.!?")) and \
                        any(same_root(stem(self.words[named]), stem(w)) for w in name_words(parameter.name)):
                    value_at(i, parameter)
                    self.used.update(range(named, i))
                    break
        targets = [p for p in targets if p.name not in self.arguments]
        for parameter in targets:
            for i in range(len(self.words) - 1):
                ordinal = ORDINALS.get(self.words[i]) if self.free(i) else None     # "the fourth floor"
                end = starts[i][1] if lone(i) else i
                # the unit in the number's clause ("ninety, pulse seventy two": pulse is no unit of ninety)
                root = stem(self.words[end + 1]) if end + 1 < len(self.words) and \
                    not any(c in self.request.tokens[end + 1].gap for c in ",;.!?") else ""
                if (lone(i) or ordinal) and root and (any(same_root(root, r) for r in parameter.roots) or
                                                      any(root in g and parameter.roots & g for g in GROUPS)):
                    if ordinal:
                        self.take(parameter, i, i, ordinal)
                    else:
                        value_at(i, parameter)
                    self.used.add(end + 1)          # "10 minutes", "two people": the unit is no value
                    break
        # a number before a currency is an amount of money ("96 dollars", "one hundred and twenty pounds")
        money = [p for p in targets if p.name not in self.arguments and MONEY_ROOTS & {stem(w) for w in p.said}]
        for i in [i for i in starts if lone(i) and self.words[starts[i][1] + 1:starts[i][1] + 2] and
                  self.words[starts[i][1] + 1] in CURRENCIES][:len(money[:1])]:
            value_at(i, money[0])
        left = [p for p in targets if p.name not in self.arguments]
        # a number of a duration ("for 20 minutes") is no tempo nor count: durations() gives it to a parameter of time
        numbers = [i for i in starts
                   if lone(i) and not DURATION_SECONDS.keys() & self.words[starts[i][1] + 1:starts[i][1] + 2]]
        required = [p for p in left if p.required]
        if len(numbers) == 1 and (len(left) == 1 or len(required) == 1):     # "sous vide the steak at 54.5"
            value_at(numbers[0], left[0] if len(left) == 1 else required[0])
        # as many numbers as required number parameters left, none named: in the schema's order ("128 over 84":
        # systolic, diastolic)
        elif len(numbers) >= 2 and len(numbers) == len(required):
            for i, parameter in zip(sorted(numbers), required):
                value_at(i, parameter)

    def chunks(self) -> list[_Chunk]:
        """The runs of words not yet taken, split at the words before a value ("in", "to", ...) and at commas,
        each without the words at its ends that are no part of a value."""
        out, current, cue = [], [], None      # before the verb, a remark's ("i'm nearly out of metformin, ...")
        for i, token in enumerate(self.request.tokens):
            said_cue = token.word in CUES and i not in self.request.titled
            # a code ends before what is said of it ("ba 117 is boarding"); a message goes on ("water is coming ...")
            predicate = token.word in PREDICATE_WORDS and bool(current) and any(c.isdigit() for c in self.words[i - 1])
            relative = (token.word in RELATIVE_WORDS or predicate) and i not in self.request.titled and bool(current)
            boundary = not self.free(i) or said_cue or relative or any(c in token.gap for c in ",?!;")
            if boundary and current:
                out.append(_Chunk(current[0], current[-1], cue))
                current = []
            if relative:
                cue = None
                continue
            if said_cue and self.free(i):
                after, _ = self.request.action_at(i + 1) if i + 1 < len(self.words) else (None, 0)
                # "to" before a verb is no person's nor place's: "to book a table", "to walk the dog"
                verb_after = after is not None or self.words[i + 2:i + 3] and self.words[i + 2] in DETERMINERS and \
                    not any(c in self.request.tokens[i + 2].gap for c in ",:;.!?")
                cue = "for" if token.word == "to" and verb_after else token.word
                continue
            if not self.free(i):
                # right after the verb, or after a word taken right after it ("order a *large* pepperoni pizza"): its object
                cue = "object" if i == self.request.verb_at or cue == "object" and all(
                    self.words[k] in FUNCTION_WORDS or not self.free(k) for k in range(self.request.verb_at, i)) else None
                continue
            if any(c in token.gap for c in ",?!;"):
                cue = None
            current.append(i)
        if current:
            out.append(_Chunk(current[0], current[-1], cue))
        # a first word no table holds, before the rest of its run, is the request's verb ("ship version 4.12.0 ...",
        # "push search-indexer ..."), unless typed as a name or a number ("two tickets for ...")
        verb = self.request.verb_at
        subjects = []       # the runs after a question's verb
        # the subject of a question opened by a word of asking ("can *a pizza box* go ..."): its first word of content
        subject = next((k for k, w in enumerate(self.words) if w not in FUNCTION_WORDS and w not in QUESTION_STARTS and
                        w not in AMOUNTS), None)
        if subject is None or not AUXILIARIES & set(self.words[:subject]) or not self.free(subject):
            subject = None
        for chunk in out:
            if chunk.first == verb < chunk.last and self.request.unknown_verb and verb not in self.request.titled and \
                    self.words[verb].isalpha() and number_value(self.words[verb]) is None:
                chunk.first += 1
            # a question that starts "is ..." ends with what is asked of it ("is the build on main green?")
            if self.words[0] in COPULAS and chunk.first < chunk.last == self.request.clause_end - 1 and \
                    chunk.last not in self.request.titled and self.words[chunk.last].isalpha():
                chunk.last -= 1
            # a question that starts with a word of asking has its subject first, which ends before its verb ("can a
            # pizza box *go* in the recycling", "has Sam *got* any maths homework"): a verb by WordNet, at the run's end
            # or no noun nor adjective; the rest of the run is a run of its own
            if subject is not None and chunk.first <= subject < chunk.last:
                verb_at = next((k for k in range(subject + 1, chunk.last + 1) if k not in self.request.titled and
                                self.words[k].isalpha() and verb_senses.lemma(self.words[k]) is not None and
                                (k == chunk.last or not verb_senses.named(self.words[k]))), None)
                if verb_at is not None:
                    if verb_at < chunk.last:
                        subjects.append(_Chunk(verb_at + 1, chunk.last, None))
                    chunk.last = verb_at - 1
        out += subjects
        stripped = []
        for chunk in [c for c in out if c.last not in self.corrected]:
            if chunk.cue is None:       # with no cue, a title typed is the value ("i haven't finished The Overstory")
                chunk.first = next((k for k in range(chunk.first, chunk.last + 1) if k in self.request.titled), chunk.first)
            for kindred in (True, False):
                first, last = chunk.first, chunk.last
                # the app said after a typed name ("Tomasz on Signal", "the design channel in Slack")
                while last - 1 > first and self.words[last - 1] in CUES and self.app(last):
                    last -= 2
                while first <= last and (first not in self.request.titled or self.app(first)) and \
                        _strippable(self.words[first], self.tool, False, kindred):
                    first += 1
                while last >= first and (last not in self.request.titled or self.app(last)) and \
                        _strippable(self.words[last], self.tool, True, kindred):
                    last -= 1
                if first <= last:
                    stripped.append(_Chunk(first, last, chunk.cue, not kindred))
                    break
        return stripped

    def app(self, i: int) -> bool:
        """Word i is a word of the tool's name typed as a name ("Slack" of post_slack_message): the app, no value."""
        return any(same_root(stem(self.words[i]), stem(w)) for w in name_words(self.tool.name))

    def spans(self):
        """Each string parameter takes the free run whose word before it says its kind best ("in Paris" a place,
        "to Priya" a person, "from" a pickup when its description says "from")."""
        chunks = self.chunks()
        sources = [p for p in self.tool.parameters if SOURCE_WORDS & p.said]
        for parameter in [p for p in self.unfilled() if p.type == "string" and not p.enum and p.kind != "time"]:
            said = parameter.said

            def called(chunk: _Chunk) -> bool:
                """The parameter's name said right before the run ("email ben@carterbuild.com", "channel ops")."""
                return chunk.first >= 1 and chunk.cue is None and \
                    any(same_root(stem(self.words[chunk.first - 1]), stem(w)) for w in name_words(parameter.name))

            def fit(chunk: _Chunk) -> float:
                kinds = CUES.get(chunk.cue, ())
                score = 1.0 if not kinds else 3.0 if kinds[0] == parameter.kind else \
                    2.0 if parameter.kind in kinds else 0.5
                # the parameter's name said before the cue ("the episode called The Heat Dome"), or another's
                named = {p.name for p in self.tool.parameters if chunk.cue is not None and chunk.first >= 2 and any(
                    same_root(stem(self.words[chunk.first - 2]), stem(w)) for w in name_words(p.name))}
                # "from" says the source where the tool takes one ("from Dublin to Barcelona": origin, destination);
                # "to" says the goal, which the source takes only where no run is said without a cue ("Paddington to
                # Bristol", "out of Crewe to Chester": origin Paddington, Crewe)
                source = 0.0 if not sources else (2.0 if parameter in sources else -2.0) if chunk.cue == "from" else \
                    -3.0 if chunk.cue in GOAL_CUES and parameter in sources else 0.0
                return score + source + 2.0 * called(chunk) + \
                    (2.0 if chunk.cue in said or parameter.name in named else -2.0 if named else 0.0) - \
                    (0.75 if chunk.kindred else 0.0) - \
                    (0.25 if chunk.last < self.request.verb_at else 0.0) + \
                    (1.0 if chunk.first in self.request.titled and "name" in said else 0.0)  # "Resort name": as typed
            fitting = [c for c in chunks if (not parameter.coded or
                       re.search(r"\d", self.request.said(c.first, c.last))) and   # "front door" is no code like 'XK42'
                       not self.amount_only(c) and not (parameter.kind == "place" and self.clause(c))]
            # a run of the tool's own words says what it does, no value an optional parameter takes ("in the family
            # chat" of "Create a poll in the family group chat", "see the space station"), nor a required one where
            # another run is said ("calories in a croissant" with "Calories for a food.")
            def own(c: _Chunk) -> bool:
                said = [w for w in _content(self.words[c.first:c.last + 1]) if w not in ACTION_OF]
                # a run with a code or a number in it says a value ("is EZY8312 boarding")
                coded = any(ch.isdigit() for w in self.words[c.first:c.last + 1] for ch in w)
                # or a word that means, by WordNet, a word of its name ("the captions" of set_subtitles)
                return bool(said) and not coded and all(any(same_root(stem(w), r) for r in self.tool.own) or any(
                    verb_senses.same_meaning(w, n) for n in _content(name_words(self.tool.name))) for w in said)
            if not parameter.required or not all(own(c) for c in fitting):
                fitting = [c for c in fitting if not own(c)]
            else:       # only the tool's own words said: a value where the parameter's words or the tool's examples
                # say it ("e.g. flour", "such as a pharmacy"); else it is left out, and asked back ("what's the air
                # quality like" says no city)
                fitting = [c for c in fitting if any(same_root(stem(w), r) for w in _content(self.words[c.first:c.last + 1])
                                                     for r in parameter.roots | self.tool.examples)]
            # of runs alike, a name as typed ("BA 286"), then one after a cue or the verb, then the first
            best = max(fitting, key=lambda c: (fit(c), c.first in self.request.titled, c.cue is not None, -c.first),
                       default=None)
            if best is not None and (parameter in self.main or (best.cue is not None and not best.kindred) or
                                     best.first in self.request.titled or called(best)) and \
                    (not self.only_required or fit(best) >= 2 or parameter in self.main):
                self.take_run(parameter, best)
                chunks.remove(best)
        self.left = sum(self.request.verb_at <= c.first < self.request.clause_end for c in chunks)
        # the verb's object left unread ("book *a table* ..." with reserve_hotel_stay, "Book a hotel room"): the
        # request acts on another thing, unless its verb is the tool's name's ("message the sitter ...")
        self.left_object = any(c.cue == "object" for c in chunks)

    def object_acted_on(self) -> bool:
        """The verb's object, where a parameter took it, went to one the declaration says the tool's verb acts on:
        its description holds the verb ("Dish to order") or the value's words ("Class, e.g. 'spin'"); not a place
        or a room a thing of another kind was read as ("book a *flight* to Oslo" is no departure port)."""
        verb = stem(self.tool.verb_word) if self.tool.verb_word else None
        return all(verb is not None and any(same_root(verb, r) for r in parameter.roots) or
                   any(stem(w) in parameter.roots for w in _content(self.words[run.first:run.last + 1]))
                   for parameter, run in self.object_taken)

    def clause(self, run: _Chunk) -> bool:
        """A run that says something is so ("the grass *is* getting long"): a remark, no place a tool goes to."""
        return any(w in COPULAS for w in self.words[run.first + 1:run.last + 1])

    def amount_only(self, run: _Chunk) -> bool:
        """A run of an amount, where it starts and its unit only ("the *next few* hours", "the *next few days*"): a
        span of time or a count, no value a string parameter takes; not a name typed as one ("The Last of Us")."""
        return all((w in AMOUNT_WORDS or w in RELATIVE_DAYS or w in DURATION_WORDS or w in FUNCTION_WORDS) and
                   k not in self.request.titled
                   for k, w in enumerate(self.words[run.first:run.last + 1], run.first))

    def take_run(self, parameter: Parameter, run: _Chunk):
        """The run as the parameter's value; an example of the parameter's kind in it alone ("an italian class":
        italian), a person alone before a thing of the tool's own ("Leo's tablet limit": Leo)."""
        if run.cue == "object":
            self.object_taken.append((parameter, run))
        example = next((k for k in range(run.first, run.last + 1) for g in EXAMPLE_GROUPS
                        if stem(self.words[k]) in g and parameter.roots & g), None)
        rest = lambda k: _content(self.words[k + 1:run.last + 1])      # noqa: E731
        owner = next((k for k in range(run.first, run.last) if self.words[k].endswith("'s") and rest(k) and
                      all(self.tool.has(stem(w)) for w in rest(k))), None) if parameter.kind == "person" else None
        coded = [k for k in range(run.first, run.last + 1) if re.search(r"\d", self.words[k])]
        # a person typed by name after words of who they are ("the cleaner Agnieszka"): the name
        typed = [k for k in range(run.first, run.last + 1) if k in self.request.titled]
        if parameter.kind == "person" and typed and typed[0] > run.first and typed[-1] == run.last:
            run = _Chunk(typed[0], run.last, run.cue, run.kindred)
        if example is not None:
            self.take(parameter, example, example)
        elif parameter.coded and coded:
            # a code from after the parameter's name's words ("support ticket number SR-2291"; "united 1549" whole)
            own = {stem(w) for w in name_words(parameter.name)}
            named = [k for k in range(run.first, coded[0]) if stem(self.words[k]) in own or self.words[k] in CODED]
            self.take(parameter, named[-1] + 1 if named else run.first, coded[-1])
        elif parameter.kind == "person" and self.words[run.last].endswith("'s"):
            self.take(parameter, run.first, run.last, self.request.said(run.first, run.last)[:-2])    # "Raj's record"
        elif owner is not None:
            self.take(parameter, run.first, owner, self.request.said(run.first, owner)[:-2])
        else:
            self.take(parameter, run.first, run.last)


def compounds(words: list[str], tool: Tool, skipped: range) -> set[str]:
    """Roots of a thing said in two words where the tool writes one, or in one where it writes two: "pay slip" for
    GetPayslip, "on-call" for pageOnCall; only those of the tool's own."""
    joined = [stem(a + b) for i, (a, b) in enumerate(zip(words, words[1:]))
              if i not in skipped and a.isalpha() and b.isalpha() and a not in FUNCTION_WORDS]
    parts = [stem(part) for w in words if "-" in w for part in _content(w.split("-"))]
    return {root for root in joined + parts if any(same_root(root, r) for r in tool.own)}


def said_verb(words: list[str], at: int) -> str:
    """The request's verb with its particle when WordNet has them as one verb ("call off", "line up")."""
    pair = " ".join(words[at:at + 2])
    return pair if at + 1 < len(words) and verb_senses.lemma(pair) else words[at]


def evidence(tool: Tool, request: Request) -> tuple[bool, float, bool, str | None] | None:
    """Whether the request says the tool's action, how much it says of what the tool acts on (a word of the
    tool's own 1, a word of the same kind, "umbrella" for weather, 0.5; the request's verb not counted: "book
    me a flight" says nothing of book_taxi but its verb), and whether its verb is a word of the tool's own
    ("remind" for set_reminder), and, for a request with no verb of the tables, what alone shows it asked: "values"
    (only the values said can) or "thing" (the thing its name acts on, with no verb at all), or "schema" for a
    verb of many things that names nothing of the tool (the values the schema takes must show it); None when it
    does not ask for what the tool does:
    its verb is another action (a near miss: "cancel my taxi" with book_taxi), it says an action that undoes
    the tool's, it asks the past of a tool of the present, or it says nothing of the tool but maybe its verb."""
    words = [t.word for t in request.tokens]
    for i, word in enumerate(words):
        action, _ = request.action_at(i) if i not in request.titled else (None, 0)    # "Launch Team" is a name
        if action and tool.action and frozenset((action, tool.action)) in OPPOSED and not tool.has(stem(word)) and \
                action not in tool.actions:
            return None
    # nor the request's verb read with its particle ("turn the car engine off" with RemoteStartCar)
    if request.verb and tool.action and frozenset((request.verb, tool.action)) in OPPOSED and \
            request.verb not in tool.actions:
        return None
    # a telling tool is never asked by a verb of doing, even one of its own words ("lock my bike" is no
    # check_bike_lock); a tool that acts is by its own action or a word of its own ("text sam": send_message)
    # a verb of many actions said of the thing the tool's name holds ("put the washing machine on cottons" with
    # startWashingMachine)
    generic = request.verb not in (None, "any") and words[request.verb_at] in GENERIC_VERBS and \
        any(tool.names(stem(w)) for w in _content(words[request.verb_at + 1:request.clause_end]))
    # ("do i have ...", "do you ..." ask)
    if request.verb == "any" and tool.tells() and words[request.verb_at] in DOING_VERBS and \
            words[request.verb_at + 1:request.verb_at + 2] not in (["i"], ["you"], ["we"], ["they"]):
        return None
    # the request's verb is one of the tool's verb's meaning by WordNet ("book the window cleaner" with
    # schedule_window_cleaner, "call off the yoga class" with cancel_gym_class): it says the tool's action
    # and the thing its name acts on follows it
    alike = not tool.tells() and request.verb != "any" and request.verb_at < len(words) and \
        bool(tool.verb_word) and request.verb_at not in request.titled and \
        any(tool.has(stem(w)) for w in _content(words[request.verb_at + 1:request.clause_end])) and \
        verb_senses.alike(said_verb(words, request.verb_at), tool.verb_word)
    # the request's verb is one WordNet derives a word of the tool's name from, or from one, other than its verb
    # ("sing" for queue_karaoke_song, "water" for schedule_garden_watering): the verb says the tool's thing done.
    # Only a verb as ordered, in its own form ("rowing totals for today" names a thing)
    derives = not tool.tells() and request.verb_at < len(words) and request.verb_at not in request.titled and \
        verb_senses.lemma(words[request.verb_at]) == words[request.verb_at] and any(
            same_root(stem(noun), stem(w)) for noun in verb_senses.derived(words[request.verb_at])
            for w in name_words(tool.name) if not same_root(stem(w), tool.verb or "") and w not in FUNCTION_WORDS)
    # a reminder to do something ("remind me to take my metformin") asks a tool of reminders, not one that does it
    if words[request.verb_at:request.verb_at + 1] == [REMINDING] and "to" in words[request.verb_at + 1:request.verb_at + 3] \
            and not tool.has(stem(REMINDING)):
        return None
    # what the speaker did by the tool's own verb, or by a verb of the thing it does ("i already renewed the hobbit
    # yesterday", "i meditated for an hour" with start_meditation; not "could you get my bike booked in") asks
    # nothing of a tool that acts and does not record it
    # (the latter right after "i" or "we": "i've parked, zone 88" asks for the parking)
    if not tool.tells() and tool.verb not in RECORDS and tool.verb_word and any(
            verb_senses.past(w) and (verb_senses.lemma(w) == verb_senses.lemma(tool.verb_word) and
                                     (SPEAKERS | DONE_WORDS) & set(words[max(i - 2, 0):i]) or
                                     i and words[i - 1] in SPEAKERS and tool.has(stem(verb_senses.lemma(w))))
            for i, w in enumerate(words[:request.clause_end])):
        return None
    if request.verb not in (None, "any"):
        if tool.tells() and request.verb not in TELLING:
            return None
        if not tool.tells() and request.verb not in tool.actions and not tool.has(stem(words[request.verb_at])) and \
                not generic and not alike and not derives:
            return None
    # an unknown first word that is no word of a telling tool's is a verb of doing ("fill the pool", "charge my
    # phone") or a remark's ("red wine gives me a headache"), not a thing to be told of ("ski conditions in zermatt")
    if tool.tells() and request.unknown_verb and not tool.has(stem(request.first)) and not WANTING & set(words):
        return None
    if NOW_WORDS & tool.own and PAST_WORDS & set(words):
        return None
    if request.question and (ADDRESSED & set(words) or words[0] == "how" and words[1:2] and words[1] in AMOUNTS and
                             PAST_WORDS & set(words) and not any(p.kind == "time" for p in tool.parameters) and
                             not PAST_WORDS & set(name_words(tool.name))):     # one named for the past (LastNapTime)
        return None
    mentioned = next((i for i, w in enumerate(words) if w in MENTIONING), len(words)) \
        if not any(p.kind == "message" for p in tool.parameters) else len(words)
    def its_action(i: int) -> bool:
        """The word says the tool's action; a telling one only as the tool's own verb ("define" for define_word,
        not "track")."""
        if tool.action not in ACTIONS:
            return same_root(stem(words[i]), tool.verb)
        return request.action_at(i)[0] in tool.actions and \
            (tool.action not in TELLING or same_root(stem(words[i]), tool.verb))
    # or the request's verb, read with its particle, is the action of a tool that acts ("switch the seats off")
    support = tool.action is not None and (any(its_action(i) for i in range(len(words))) or
                                           not tool.tells() and request.verb in tool.actions or alike or derives)
    # the tool's own verb that no table holds is the request's verb, no thing it acts on ("freeze the chicken")
    own = request.says_own_verb(tool)
    verb = range(request.verb_at, request.verb_at + max(request.verb_length, 1)) if request.verb or own else range(0)
    # a verb of another action after "to" is no object unless a word of the tool's own ("remind me to *call* the
    # dentist" says nothing of add_contact, though "call" is a word of the contacts' kind; "my schedule" does)
    said = {stem(w) for i, w in enumerate(words[:mentioned]) if i not in verb and w in _content([w]) and not (
        i and words[i - 1] == "to" and ACTION_OF.get(w, tool.action) != tool.action and
        not any(same_root(stem(w), r) for r in tool.own))}
    said |= compounds(words[:mentioned], tool, verb)
    # a time said is a value, no thing the tool acts on ("how are you today" with a tool of today's output), unless
    # it is the tool's own name's ("next_bus")
    times = {stem(w) for w, after in zip(words, [*words[1:], ""]) if w in DAY_WORDS and not (
        w in RELATIVE_DAYS and after not in DAY_WORDS and after not in MONTHS)}        # "up next" is no time
    said = {root for root in said if root not in times or any(same_root(root, stem(w)) for w in name_words(tool.name))}
    # a word of a parameter's name or description says less ("a 120 ml *bottle*": "Bottle amount in ml"), and an
    # amount asked says nothing ("how *long* did the pump run" of "How long the slot must be")
    objects = sum(1.0 if any(same_root(root, r) for r in tool.own) else 0.5 for root in said if tool.has(root)) + \
        sum(0.5 for root in said if not tool.has(root) and root not in AMOUNTS and any(root in p.roots or any(
            root in group and p.roots & group for group in KINDS) for p in tool.parameters))
    # the verb is a word of the tool's (or of its kind) other than its verb ("remind" for set_reminder, "email"
    # for send_email, "text" for send_message)
    named = any(tool.has(stem(words[i])) and not same_root(stem(words[i]), tool.verb or "") and
                not (tool.verb is None and ACTION_OF.get(words[i]) in tool.actions) for i in verb)
    # the tool's verb alone is evidence only for an action of few things ("ring marie-claire", not "order a pizza"
    # with order_coffee)
    action = tool.action if own or alike or derives else request.verb
    after_verb = words[verb.stop:verb.stop + 1] if verb else []
    if not objects and not named and (action is None or action != tool.action or
                                      tool.verb is None or PARTITIVES.intersection(after_verb)):
        return None
    broad = not objects and not named and tool.action in BROAD_ACTIONS
    # a tool that acts is asked by its action said, or by an object of its own after a verb of any action ("give
    # the tomatoes a drink") or none ("i need a premium ride"), never by a question or another verb ("close ...")
    # with no verb of the tables, a word of its own ("navigate to the louvre", "vacuum the hall") or a word of
    # wanting ("i need a premium ride", not "my fish are so cute") asks for it; a tool that records what was done
    # is asked by saying it was done ("i drank 3 glasses of water")
    # or the description's own verb in another form ("i just took 400 mg of ibuprofen" with "Record a dose of
    # medicine the user has taken")
    own_verb = request.unknown_verb and (tool.has(stem(request.first)) or verb_senses.lemma(request.first) is not None
                                         and any(verb_senses.lemma(w) == verb_senses.lemma(request.first)
                                                 for w in tool.own))

    def spoken_of() -> bool:
        """A word of the tool's own or of a parameter's name is said ("glucose", "12.5 *km*")."""
        return any(same_root(root, r) for root in said for r in tool.own | {r for p in tool.parameters
                                                                             for r in map(stem, name_words(p.name))})
    clauses = [i for i, t in enumerate(request.tokens) if i and any(c in t.gap for c in ",;.!?")]
    # a message said is no part of it ("slack the ops channel saying the server is back up")
    quoted = next((i for i, t in enumerate(request.tokens) if t.word in MESSAGE_CUES or ":" in t.gap), len(words))
    clause = set(words[:min(clauses[0] if clauses else len(words), quoted)])
    # a word of an action right after a copula is a state ("the garage door is open"), and a day word a time ("my
    # sister is visiting next week"): no verb of asking
    acting = [w for i, w in enumerate(words) if w in ACTION_OF and w not in DAY_WORDS and not (i and words[i - 1] in COPULAS)]
    if not request.question and request.verb is None and not WANTING & set(words) and not own and \
            not acting and not any(words[i] in QUESTION_STARTS for i in clauses) and \
            (COPULAS & clause or tool.tells() and SPEAKERS & clause):
        return None
    # a count of the tool's own thing, said first, asks for it ("four tickets for The Nutcracker")
    counted = number_value(request.first) is not None and tool.has(stem(words[request.verb_at + 1])) \
        if request.verb_at + 1 < len(words) else False
    # a tool that sets a number, its thing named and a number said after "to" ("dim the photo frame to 30 percent"
    # with "Set the photo frame's brightness"): a verb of no table says which way, the target is the setting asked
    targeted = tool.verb in SETTING_VERBS and any(p.type in ("integer", "number") for p in tool.parameters) and \
        any(w == "to" and number_value(after) is not None for w, after in zip(words, words[1:])) and \
        any(tool.names(stem(w)) for w in _content(words))
    # asked in words of asking with a verb of no table, the thing the tool's name acts on said after it ("would
    # you rustle up a skip", "could you arrange a guest badge"); not one of being told, nor one the corpus knows,
    # another action ("would you blend our flight")
    named_after = request.asked_in_words and request.unknown_verb and request.first not in EXPLAINING_VERBS and \
        request.first not in KNOWN_VERBS and \
        any(tool.names(stem(w)) for w in _content(words[request.verb_at + 1:request.clause_end]))
    asked = own_verb or derives or counted or targeted or named_after or not request.unknown_verb and (
        WANTING & set(words) or tool.verb in RECORDS)
    if not tool.tells() and (request.question or not support and not (
            request.verb == "any" or generic or request.verb is None and asked)):
        prefixed = any(request.first.endswith(w) and len(w) >= 3 for w in [*ACTION_OF, *name_words(tool.name)])
        # a request that opens with no verb names the thing it asks for (Request.thing_named): when that is the
        # thing the tool's name acts on ("first class train ticket from Edinburgh to Glasgow please" with
        # book_train_ticket), it asks for the tool; not the tables' verb or the tool's own behind a prefix that undoes
        # or redoes it ("unhire the skip"). _read_declared takes it only when no other declared tool's name acts on it
        if request.thing_named is not None and tool.names(stem(request.thing_named)) and not prefixed:
            return support, objects, named, "thing"
        # ordered by a verb of no table with the tool's thing as its object and a value only its schema takes in the
        # verb's adjunct ("line up the window cleaner for both sides"): read_declared checks the value
        if not request.question and adjunct_start(tool, request) is not None:
            return support, objects, named, "adjunct"
        # what was done, said to a tool that records it ("i ran 12.5 km today" with log_run), asks for it when the
        # request also says the values it takes: read_declared checks them. Not a verb that ends in an action of the
        # tables, that action undone or redone ("reopened"), nor a verb the corpus knows, another action ("printed");
        # a verb of no table alone asks nothing ("photograph locker 12", "release bike 2283": another action or not)
        stated = request.verb is None and tool.verb in RECORDS
        other = request.unknown_verb and request.first in KNOWN_VERBS
        if request.question or not stated or prefixed or other or not spoken_of():
            return None
        return support, objects, named, "values"
    return support, objects, named, "schema" if broad else None


def adjunct_start(tool: Tool, request: Request) -> int | None:
    """Where the adjunct of an order by a verb of no table starts, when its object names the thing the tool's name acts
    on: the first function word after that thing's phrase ("delay car charging *until* 11 pm", "line up the window
    cleaner *for* both sides"). A word right after the thing only says which one ("photograph locker 12"), and any
    action may take it; a value in the adjunct says how the act is done, which only the tool's schema may take. None
    for a verb WordNet lacks, one the corpus knows or one of being told (another action), one behind a prefix that
    undoes or redoes an action ("reopen ticket 5520"), one whose particle follows its object (WordNet's verb of the
    two, another action: "kick Tom out of the party", "bring the mower back in"), and where no adjunct follows."""
    words, first = [t.word for t in request.tokens], request.first
    if request.asked_in_words or not request.unknown_verb or verb_senses.lemma(first) is None or \
            first in KNOWN_VERBS or first in EXPLAINING_VERBS or \
            any(first.endswith(w) and len(first) > len(w) >= 3 for w in [*ACTION_OF, *name_words(tool.name)]):
        return None
    clause = range(request.verb_at + 1, request.clause_end)
    if any(words[k] in VERB_PARTICLES and verb_senses.lemma(f"{first} {words[k]}") is not None and
           (k + 1 == request.clause_end or words[k + 1] in FUNCTION_WORDS and words[k + 1] not in DETERMINERS)
           for k in clause if k > request.verb_at + 1):
        return None
    thing = next((k for k in clause if words[k] not in FUNCTION_WORDS and tool.names(stem(words[k]))), None)
    if thing is None:
        return None
    return next((k for k in range(thing + 1, request.clause_end)
                 if words[k] in FUNCTION_WORDS or words[k] in CUES or words[k] in RANGE_ENDS), None)


def words_read(call: dict, text: str) -> tuple[set[int], set[int]]:
    """The request's words a call takes as values, and every word it reads (its values and its name's words), by
    the same measure for a built-in skill's call and a declared tool's: a value is a word of a string value, or a
    number where the call takes one ("flight LH 2034, is it on time": get_time reads "time" and takes no value,
    trackFlight takes "lh" and "2034"). Function words are read by neither."""
    name = {stem(w) for w in name_words(call["name"])}
    values = {stem(w) for v in call["arguments"].values() if isinstance(v, str) for w in re.findall(r"[\w']+", v)}
    numeric = any(isinstance(v, (int, float)) and not isinstance(v, bool) for v in call["arguments"].values())
    taken, read = set(), set()
    for i, word in enumerate(w.strip(".,!?;:\"") for w in text.lower().split()):
        if not word or word in FUNCTION_WORDS:
            continue
        if stem(word) in values or numeric and number_value(word) is not None:
            taken.add(i)
        if i in taken or any(same_root(stem(word), n) for n in name):
            read.add(i)
    return taken, read


def typed(tool: Tool, key: str, value) -> bool:
    """A value of a kind no other words of the request could be: a number, a flag, an enum member, a code."""
    members = next((p.enum for p in tool.parameters if p.name == key), ())
    return not isinstance(value, str) or value in members or any(c.isdigit() for c in value)


def decode(declarations, text: str) -> dict | None:
    """The declared tool the request asks for, with its arguments read from the request; None when no declared
    tool is asked for, or the one asked for lacks a required value."""
    decoded = read_declared(declarations, text)
    return decoded.call if decoded and decoded.asks is None else None


@dataclass(frozen=True)
class Decoded:
    call: dict             # {"name": ..., "arguments": ...}
    owned: bool            # the request asks for the tool and says the thing its name acts on ("log a 30 minute run")
    asks: str | None = None    # the question back for a required value left out ("What city?"): no call yet


def question_for(parameter: "Parameter") -> str:
    """The question back for a required value: by its name's words and, for an enum, its members."""
    words = " ".join(name_words(parameter.name))
    if parameter.enum:
        members = [m.replace("_", " ") for m in parameter.enum]
        last, joiner = MEMBERS_JOINED
        listed = last.format(joiner.join(members[:-1]), members[-1]) if len(members) > 1 else members[0]
        return ASK_MEMBER.format(words, listed)
    if parameter.type in ("integer", "number") and words.endswith("s"):
        return ASK_COUNT.format(words)
    return ASK_VALUE.format(words)


def asked_part(text: str) -> str | None:
    """What follows the last remark in a request, from its words of asking or its question on, as a recogniser
    writes it ("the pots have dried all week so *could you fire the kiln at 1200*", "... so *how hot should it
    go*"; a question by a modal, "so can the mower cut it", asks for something done): the remark's words would be
    read as the tool's things and its values. None when no such words follow a word that joins a remark, or when a
    request, not a question, says the remark's thing by a pronoun ("so could you report *it*")."""
    tokens = list(_TOKEN.finditer(text))
    words = [match.group(0).lower().replace("’", "'") for match in tokens]

    def opened(i: int) -> int | None:
        """Where the request starts after the word joining a remark at i: at its words of asking, which the
        request's reading knows, or past words that open a wish ("i think we should")."""
        if any(words[i + 1:i + 1 + len(p.split())] == p.split() for p in ASKING_WRAPPERS) or \
                words[i] in QUESTION_LINKS and words[i + 1] in QUESTION_STARTS and words[i + 1] not in ASKING_MODALS:
            return i + 1
        return max((i + 1 + len(p.split()) for p in ASKED_AFTER_A_REMARK
                    if words[i + 1:i + 1 + len(p.split())] == p.split()), default=None)
    starts = [at for i in range(1, len(words) - 1) if words[i] in REMARK_LINKS and
              (at := opened(i)) is not None and at < len(words)]
    if not starts:
        return None
    part = text[tokens[starts[-1]].start():]
    if not Request(part).question and any(
            word in REMARK_PRONOUNS and (word not in ("this", "that") or after in FUNCTION_WORDS)
            for word, after in zip(words[starts[-1]:], [*words[starts[-1] + 1:], "the"])):
        return None
    return part


def answered(declarations, request: str, question: str, answer: str) -> Decoded | None:
    """The call a request completes with the answer to the question asked back for its left-out value ("order me a
    coffee" / "Which drink: ...?" / "an americano"): read from the request and the answer said together, when the
    question is the one the request gets (the conversation's state is its history, so any gateway reads it alike)
    and the answer fills what it asked. None otherwise."""
    asked = read_declared(declarations, request)
    if asked is None or asked.asks != question:
        return None
    both = read_declared(declarations, f"{request} {answer}")
    if both is None or both.asks is not None or both.call["name"] != asked.call["name"]:
        return None
    return both


def read_declared(declarations, text: str) -> Decoded | None:
    """decode's call, and whether the request says the thing the tool's name acts on: then the tool
    may take a request over from a built-in skill's reading (embedded.py). A request asked after a remark with no
    comma is read from its words of asking (asked_part), then, when that asks for no tool, whole; a question asked
    after a remark is read alone, as the remark asks for nothing ("the kiln cracked a bowl so how hot should it
    go")."""
    part = asked_part(text)
    if part and Request(part).question:
        return _read_declared(declarations, part)
    first = _read_declared(declarations, part) if part else None
    if first is not None and first.asks is None:
        return first
    return _read_declared(declarations, text) or first     # a call that reads every value before a question back


def _read_declared(declarations, text: str) -> Decoded | None:
    """A request that names the tool only by its verb ("ring marie-claire dubois") must leave no words unread ("book
    me a flight to rome" is no taxi). Best evidence and most arguments first, then the most words of its name said,
    then declaration order."""
    tools = [tool for tool in (Tool.read(d) for d in declarations) if tool is not None]
    request, best = Request(text, frozenset(tool.verb for tool in tools if tool.verb)), None
    for tool in tools:
        said = evidence(tool, request)
        if said is None:
            continue
        support, objects, named, asked_by = said
        reading = _Reading(tool, request, only_required=not objects and not named)
        arguments = reading.read()
        # of tools alike, the one whose name's words are said, function words too ("clock me out": clock_out)
        spoken = sum(w in {t.word for t in request.tokens} for w in name_words(tool.name))
        # the tool asked for by what it acts on, with a required value not said: asked back, not guessed ("order me
        # a coffee": "Which drink: ...?"), unless another tool's call reads every value it needs
        if arguments is None and not reading.later and (objects or named) and not asked_by:
            strength = 2.0 * support + objects + named + 0.5 * len(reading.arguments) + 0.1 * spoken
            if best is None or best[1].asks is not None and strength > best[0]:
                best = (strength, Decoded({"name": tool.name, "arguments": dict(reading.arguments)}, False,
                                          question_for(reading.left_out()[0])))
            continue
        # asked by an unknown verb: only with values no other words could be taken for (numbers, codes, members)
        if asked_by == "values" and not (arguments and all(typed(tool, k, v) for k, v in arguments.items())):
            continue
        # ordered by a verb of no table: only with a value of a kind no other words could be (a number, a code, an enum
        # member) said in the verb's adjunct
        if asked_by == "adjunct" and not (arguments is not None and any(
                typed(tool, k, v) and not isinstance(v, bool) and reading.read_from[k][0] >= adjunct_start(tool, request)
                for k, v in arguments.items())):
            continue
        # asked by a verb of many things alone: only with two values or more said, every word read, and the verb's
        # object, if a value, one the declaration says the verb acts on ("order two margheritas from Luigi's" with
        # order_takeaway, "Dish to order"; not "order a pizza" with order_coffee, nor "book a flight to Oslo on
        # Friday" with book_ferry: no port is booked)
        if asked_by == "schema" and not (arguments and len(arguments) >= 2 and not reading.left and
                                         not reading.left_object and reading.object_acted_on()):
            continue
        # asked by the thing its name acts on, with no verb: only when no other declared tool's name acts on it ("a
        # parcel locker near the station" with find_parcel_locker and open_parcel_locker asks neither)
        if asked_by == "thing" and any(other is not tool and other.names(stem(request.thing_named)) for other in tools):
            continue
        # a tool that removes all, asked to remove one thing named ("take *hard fork* out of my queue" is no
        # clear_queue), or a request that names the tool only by its verb, leaves no words unread
        if arguments is None or (not objects and not named or tool.action == "remove" and not tool.parameters) and \
                reading.left or not objects and reading.left_object and not request.says_name_verb(tool):
            continue
        strength = 2.0 * support + objects + named + 0.5 * len(arguments) + 0.1 * spoken
        if best is None or best[1].asks is not None or strength > best[0]:
            # or, with values it takes said, a word of its own other than its verb and the home's things ("get a
            # babysitter for saturday, 4 hours": book_sitter, "Book babysitter."; not "do you like coffee?", nor
            # "start heating the house to 21" with "Start the car's heating")
            words = [t.word for t in request.tokens]
            units = {stem(w) for p in tool.parameters for w in name_words(p.name)}
            # or a parameter's unit said after its number ("I ran 12.5 *km* today": log_run, no date asked)
            owned = any(tool.names(stem(t.word)) for t in request.tokens) or bool(arguments) and any(
                w not in HOME_THINGS and w in _content([w]) and not same_root(stem(w), tool.verb or "") and
                (any(same_root(stem(w), r) for r in tool.own) or i and number_value(words[i - 1]) is not None and
                 stem(w) in units) for i, w in enumerate(words))
            best = (strength, Decoded({"name": tool.name, "arguments": arguments}, owned))
    return best[1] if best else None
