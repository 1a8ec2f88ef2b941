"""Word order and phrasing the model reads best, for requests said another way: deterministic, after the number
normaliser and before the model, as the normaliser itself is.

The shipped model writes a broken call for "turn the tv off in the living room" and a right one for "turn off
the living room tv": it learnt the corpus's orders and words. These rules move words into those orders, and
say in the corpus's words what English says many ways ("a touch" is "a bit", "tell me if the kiln is on" is
"is the kiln on"), and change nothing else; each is one line of data, (pattern, replacement) over the
normalised request.
"""
import re

from assistant.skills import READINGS
from assistant.vocabulary import (ASKING_WRAPPERS, CONDITIONS, DEVICES, LIGHT_KINDS, STATE_QUESTION_WORDS, OTHER_REQUEST_VERBS,
                                  NO_TIMER_NAMES,
                                  QUESTION_WORDS, REASON_SUBJECTS, REASONS, REASONS_BEFORE_A_SUBJECT, ROOMS,
                                  SWITCH_VERBS, UNIT_WORDS, VALUE_SAID_BETTER, WISHES, WISHING_VERBS, WISHED_STATES,
                                  BRIGHTER, CHECKS, DARKER, FASTER, LEVEL_WORDS, SLOWER, OPENING_WORDS, PEOPLE, SCENE_WORDS, SHARES,
                                  SAID_WELCOME, TEXTED, VERBS_SAID_OTHERWISE, WISH_ADVERBS, RUNNING_WORDS,
                                  READING_QUALITIES)

_DEVICE = "|".join(sorted((re.escape(p) for ps in DEVICES.values() for p in ps), key=len, reverse=True))
_ROOM = "|".join(sorted((re.escape(p) for ps in ROOMS.values() for p in ps), key=len, reverse=True))
_UNIT = "|".join(sorted((re.escape(p) for ps in UNIT_WORDS.values() for p in ps if len(p) > 1), key=len, reverse=True))
_THE = r"(?:the|my|our|all the)"
_POLITE = r"((?:please |can you |could you |would you )?)"
_LIGHT_KIND = f"(?:{'|'.join(sorted(LIGHT_KINDS, key=len, reverse=True))})"
# a light said as one: "the kitchen lights", "the lights in the den", "the reading lamp"
_LIGHTS = rf"({_THE} (?:[a-z' ]+ )?{_LIGHT_KIND}(?: in the [a-z ]+)?)"
_STATE = "(?:switched|turned|shut|powered)"
# a fan's speed said as a step (vocabulary.FASTER, SLOWER)
_SPEEDS = "|".join(FASTER + SLOWER)
# how a place is said to feel, as a reason for a request
_FEELS = "freezing|cold|chilly|hot|warm|boiling|stuffy|dark|dim|bright|gloomy|muggy|humid"
# A wish for how a thing or a place should be (vocabulary.WISHES, WISHING_VERBS)
_WISHED = f"(?:{'|'.join(WISHES)})"
# (not of a perfect tense, a question: "have the fans been switched off")
_WISH = f"(?:{'|'.join(WISHES + WISHING_VERBS)})(?!.* been\\b)"
# what opens a reason or a purpose said after a request: not "as" nor "for", which also say what a thing is like
# or for ("the same as the kitchen", "a timer for the eggs")
_REASON = "|".join(word for word in REASONS + REASONS_BEFORE_A_SUBJECT if word not in ("as", "for"))
# and its subject: "the" only of people, since a thing said there may be the request ("the car's in, so the garage
# door can come down")
_REASON_SUBJECT = "|".join([word for word in REASON_SUBJECTS if word != "the"] + ["the kids", "the baby"])
# how a question starts: only a question may drop what it adds after its state ("is the fan on or not"); a request
# keeps it ("turn off the tv after the match" is another request)
_ASKED = f"(?:{'|'.join(QUESTION_WORDS + STATE_QUESTION_WORDS)})"
# a request that says no condition ("half brightness on the piano light after 10" is another request) and no
# negation ("the fan doesn't need switching on")
_UNCONDITIONAL = rf"(?!.*\b(?:(?:{'|'.join(CONDITIONS)})\b|at \d))"
_UNNEGATED = r"(?!.*(?:n't|\bnot|\bnever|\bno longer)\b)"

def _ing(verb: str) -> str:
    """A verb's -ing form: "switching", "closing", "putting"."""
    if verb.endswith("e") and not verb.endswith("ee"):
        return verb[:-1] + "ing"
    if re.fullmatch(r"[^aeiou]*[aeiou][^aeiouwxy]", verb):
        return verb + verb[-1] + "ing"
    return verb + "ing"


# words of asking longer than the corpus's own ("can you", "would you"), which the verb of the request follows;
# not those of minding, which take the verb's -ing form
_ASKED_TO_DO = "|".join(sorted((re.escape(w) for w in ASKING_WRAPPERS if len(w.split()) > 2 and not w.endswith("mind")),
                               key=len, reverse=True))

# a verb of a request in its -ing form ("would you mind switching ..."): the verb
_VERBS_ING = {form: verb for verb in (*SWITCH_VERBS, *OTHER_REQUEST_VERBS) if verb not in WISHED_STATES
              for form in (_ing(verb), verb + "ling" if verb.endswith("el") else _ing(verb))}   # "cancelling" too
_VERB_ING = "|".join(sorted(_VERBS_ING, key=len, reverse=True))

# Said after a request and changing nothing it asks: a time frame, politeness, the person spoken to ("lock the
# side gate for the night", "..., when you get a chance", "..., love")
_ASIDE = ("for the night|overnight|for the evening|for the day|for now|for a while|for a bit|for me|before bed|"
          "before (?:i|we) (?:go|head|turn in)(?: to bed| up| upstairs| out| off)?|before i forget|while i remember|while you're at it|if that's (?:ok|okay|alright|all right)|when you (?:get|have) a (?:chance|"
          "moment|minute|sec|second)|when you can|whenever you(?:'re| are) ready|if you (?:don't|do not) mind|"
          "if you can|if you could|if possible|if you would|if you please|thanks|thank you|thanks a lot|cheers|ta|"
          "dear|love|mate|darling|sweetheart|buddy|pal|parley|over here|round here|around here|where it is|"
          "where they are|right there|just there")
# A past-tense question about a thing's state: the state it asks about ("have i locked the side gate": is it locked)
_DONE = {"lock": "locked", "unlock": "unlocked", "close": "closed", "shut": "closed", "open": "open",
         "turn off": "off", "switch off": "off", "shut off": "off", "power off": "off", "turn on": "on",
         "switch on": "on", "power on": "on"}
_PAST = r"(?:e?d)?"
# the verb that leaves a thing in a state: "i want the gate unlocked" asks to unlock it
_DONE_AS_DO = {"locked": "lock", "unlocked": "unlock", "opened": "open", "open": "open", "closed": "close",
               "shut": "close"}
# what keeps a place warm, said by its kind: a number said after it is degrees ("put the still room heater on 16")
_HEATER = "|".join(sorted({*DEVICES["heater"], "thermostat"}, key=len, reverse=True))
# who did what a question asks about: "have i locked ...", "did the coal man shut ..."
_ASKER = rf"(?:i|we|you|they|he|she|someone|somebody|anyone|anybody|the (?:[a-z]+ )?(?:{'|'.join(PEOPLE)}))"


def _asked_state(match: re.Match) -> str:
    """ "is the heater off" for "did you turn the heater off"; the words unchanged for a verb the table lacks."""
    verb, particle = match.group(1), match.group(2) or match.group(4)
    state = _DONE.get(f"{verb} {particle}" if particle else verb)
    return f"is {match.group(3)} {state}" if state else match.group(0)


# a verb the corpus does not say, as its own (vocabulary.VERBS_SAID_OTHERWISE), before the thing it acts on or the
# one it wakes
_OTHER_VERBS = {other: verb for verb, others in VERBS_SAID_OTHERWISE.items() for other in others}
_OTHER_VERB = (rf"^((?:please |can you |could you |would you )?)({'|'.join(sorted(_OTHER_VERBS, key=len, reverse=True))})"
               r"(?= (?:the|my|our|all the|me)\b)", lambda match: match[1] + _OTHER_VERBS[match[2]])

# words typed short, as the corpus writes them: "kitchen lights to 25 pls", "dim the hall lights abit"; a rule of
# both SYNONYMS and NAMED_THING_SYNONYMS
_TEXTED_WORDS = (rf"\b(?:{'|'.join(TEXTED)})\b(?!')", lambda match: TEXTED[match[0]])

# Words said many ways, as the corpus's one word: for every request, also one read with the turns before it.
SYNONYMS = [(re.compile(pattern), replacement) for pattern, replacement in (
    _TEXTED_WORDS,
    _OTHER_VERB,
    # a share of full said as a brightness or power wherever it stands: "i want the bedroom light at a quarter
    # brightness" (vocabulary.SHARES)
    *((rf"\b(at|to) {share} (?:brightness|power)\b", rf"\1 {percent} percent") for share, percent in SHARES),
    # how a place is asked in a word of how it feels that names no reading ("how toasty is the living room", "how
    # moist is the bathroom"): in the first word of that reading's (vocabulary.READING_QUALITIES, skills.READINGS)
    *((rf"^how (?:{'|'.join(w for w in words if w not in READINGS[kind])}) is\b", f"how {words[0]} is")
      for kind, words in READING_QUALITIES.items()),
    # a thing got doing what it does while on: "get the espresso machine brewing" (vocabulary.RUNNING_WORDS)
    (rf"^((?:please |can you |could you |would you )?)get ({_THE} [a-z' ]+?) (?:{'|'.join(RUNNING_WORDS)})(?=$| in the )",
     r"\1turn on \2"),
    # an aside after the request, one or several ("lock the gate for the night please, thanks")
    (rf"\s+(?:{_ASIDE})(?=(?:\s+(?:please|{_ASIDE}))*$)", ""),
    # a reason or a purpose after the request, with no place and no number in it: "turn on the belvedere fan
    # because it's boiling up there" (whose "up" made it a step up), "switch the lamp on so i can read"
    (rf"\s+(?:{_REASON}) (?:{_REASON_SUBJECT})\b(?!.*\b(?:in (?:the|my|our|this|that)\b|\d))(?:\s.*)?$", ""),
    # politeness before a request, in the corpus's word: "would you be so kind as to tell me the time"
    (r"^(?:(?:would|could) you be (?:so kind as|kind enough) to|would you kindly|(?:be a dear|do me a favou?r) and)\b",
     "please"),
    # a request said as leave to do it: "you can stop the pasta timer", "you might as well switch the fan off";
    # or in longer words of asking than the corpus's "can you" (vocabulary.ASKING_WRAPPERS): "is there any way you
    # could ...", "i was hoping you could ...", "would it be possible to ..."
    (rf"^(?:you can|you could|you may|you might as well|you may as well|feel free to|will it be possible to|"
     rf"{_ASKED_TO_DO})\s+(?=[a-z])", "please "),
    # or as whether one minds doing it: "would you mind switching the heater off" (the verb's -ing taken off)
    (rf"^(?:would|do) you mind ({_VERB_ING})\b", lambda match: "please " + _VERBS_ING[match.group(1)]),
    # a light made less bright: "make the bedroom light a bit softer"
    (r"\b(?:softer|less bright)\b", "dimmer"),
    # the time asked as the hour: "tell me the hour", "what hour is it"
    (r"\b(tell|give|remind) me the hour\b", r"\1 me the time"),
    (r"\bwhat hour is it\b|^what's the hour$", "what time is it"),
    # how much: "a touch", "a tad", "slightly" are the corpus's "a bit"
    (r"\b(?:a touch|a tad|a smidge|a smidgen|a notch|a hair|slightly|somewhat|a little bit)\b", "a bit"),
    # now, said at the end of a request
    (r"\b(?:at the moment|at present|currently|at the minute|just now|as we speak)$", "right now"),
    # and the part of today said at the end of a question of how things are ("how damp is it in the scullery this
    # morning"), not after a word that makes it what is asked about ("is the alarm set for this morning")
    (r"^((?:how|how's|what|what's|which|is|are|has|have)\b.*?)(?<! for)(?<! at)(?<! until)(?<! till)(?<! by)"
     r"(?<! since)(?<! from) (?:this morning|this afternoon|this evening)$", r"\1 right now"),
    # how well a thing is in its state: "is the coal hole door shut properly"
    (r"\b(shut|closed|locked|unlocked|open|off|on) (?:properly|fully|completely|securely)$", r"\1"),
    # what a quantity is of, after its unit: "how many grams in 3 ounces of butter"
    (rf"\b(\d+(?:\.\d+)? (?:{_UNIT})) of (?!a\b|an\b|the\b)[a-z]+(?: [a-z]+)??(?=$| (?:in|to|into) )", r"\1"),
    # the whole home said many ways: the corpus's "in the house"
    (r"\b(?:in the (?:whole|entire) |throughout the |all over the |all around the )(house|home)\b", r"in the \1"),
    # the half of the day, said after a clock time: "wake me at 2 in the afternoon"
    (r"\b((?:1[0-2]|[1-9])(?: [0-5]\d| oh \d)?) (?:in the|this) (?:afternoon|evening)\b", r"\1 pm"),
    # (not a room named for it: "the one in the morning room" is a place)
    (r"\b((?:1[0-2]|[1-9])(?: [0-5]\d| oh \d)?) (?:in the|this) morning\b(?! room\b)", r"\1 am"),
    # a purpose said after the request with "and let": "turn the light off and let me sleep"
    (r"\s+and let (?:me|us|them|him|her|the [a-z]+) (?!.*\b(?:in (?:the|my|our|this|that)\b|\d))[a-z' ]+$", ""),
    # "what time've we got": the corpus has no "'ve"
    (r"\b([a-z]+)'ve\b", r"\1 have"),
    # a product said as lots of a number: "8 lots of 12"
    (r"\b(\d+(?:\.\d+)?) lots of (\d+(?:\.\d+)?)\b", r"\1 times \2"),
    # a sum said as numbers taken together: "17 and 25 together"
    (r"\b(\d+(?:\.\d+)?) and (\d+(?:\.\d+)?) (?:together|combined|altogether|in total|added together|added up)\b",
     r"\1 plus \2"),
    # a step said before the light: "a little brighter on the cove lighting" (which leans back as it is said)
    (rf"^((?:a bit |a little )?(?:brighter|dimmer)) (?:on|for) ({_THE} .+?)(?: please)?$", r"make \2 \1"),
    # hesitations, wherever they are said: "um", "uh", "erm"
    (r"\b(?:um+|uh+|erm+|er|uhm)\b ?", ""),
    # words that open a request and carry nothing: "okay, that's enough, turn it off", "right, set ..."
    (rf"^(?:(?:{'|'.join(OPENING_WORDS)})\s+)*"
     r"(?:that's (?:enough|plenty|it|fine)\s+)?(?=\w)", ""),
    # a reason given after the request: "stop the timer, i don't need it any more"
    (r"\s+(?:i|we) (?:don't|do not|no longer) need (?:it|that|them|this)(?: any ?more)?$", ""),
    # h12-follow: how exact a clock time is ("at 7 on the dot"), the whole home said as everywhere ("lights out
    # everywhere")
    (r"\b(\d{1,2}(?: \d{2})?(?: am| pm)?) (?:on the dot|sharp|exactly|precisely)\b", r"\1"),
    (r"\b(on|off|out) (?:everywhere|in every room|all over the (?:house|home)|around the (?:house|home))\b",
     r"\1 in the house"),
    # a step said as a shade: "a shade dimmer"
    (r"\ba shade\b", "a bit"),
    # the other answer said after a question about a state, which asks nothing more: "is the gate shut or is it
    # still open", "any time left on the timer or has it finished", "is the fan on or not"
    (rf"^({_ASKED}\b.*?)\s+or (?:(?:is|are|has|have|was|did) (?:it|they|that|he|she) )?(?:still |already |just )?"
     r"(?:not|on|off|open|closed|shut|locked|unlocked|running|going|finished|done|over|gone off|stopped|ended|run out|"
     r"left on)$", r"\1"),
    # a time the request is asked of, after it: "how humid is the bathroom after my shower", "is the oven off
    # after dinner", "did anyone shut the garage door after the car went in", "did i leave it open after cleaning"
    # (not a request said with "have", "do" or "about": "have the lights go off after the film", "do switch it off
    # after the news", "what about switching the heating off after i leave")
    (rf"^(?!(?:how|what) about\b|do (?!(?:you|we|i|they|he|she|the|my|our|your)\b)|have (?!(?:you|we|i|they|he|she|"
     rf"someone|anyone)\b|.*\bbeen\b))({_ASKED}\b.*?)\s+(?:after|since) "
     r"(?:(?:my|our|the|his|her|your|their|i|we|you|they|he|she|someone) )?"
     r"(?!.*\d)[a-z' ]+$", r"\1"),
    # how far a cover has gone, said before its state: "is the garage door all the way open"
    (r"\b(?:all the way|fully|completely|wide) (open|closed|shut)\b", r"\1"),
    # or after it, as lasting: "is the carriage house door open still" (no still room)
    (r"\b(open|closed|shut|locked|unlocked|on|off) still\b", r"\1"),
    # a device pointed at: "turn that light back off", "this fan can go off" (the one the conversation used)
    (rf"\b(?:that|this) ({_DEVICE})\b", r"the \1"),
    # how exact an answer need be: "roughly how many inches make 30 centimeters", "what's the time, approximately"
    (r"^(?:roughly|approximately|more or less|give or take)\s+|\s+(?:roughly|approximately|more or less|give or take)\b", ""),
    # since when a thing has been in its state: "is the samovar still on from breakfast"
    (r"\b(on|off|open|running|going) (?:from|since) (?:breakfast|lunch|dinner|earlier|this morning|last night|"
     r"yesterday|before)$", r"\1"),
    # every one of a kind: "turn every light in the house off"
    (r"\bevery (light|lamp|fan|heater|plug)\b", r"all the \1s"),
    # and every one of a kind said with how many there are: "all three fans" (not "both lamps": two of several)
    (r"\ball \d+(?: of)? (?:the |my |our )?(?=[a-z]+s\b)", "all the "),
    # a clock time said as half an hour after the hour: "wake me at half six" (6:30)
    (r"\b(at|for|by|until|till|to) half (1[0-2]|[1-9])\b(?! (?:past|hours?|an?)\b)", r"\1 \2 30"),
    # where a thing is, said by the one before it: "and the salt lamp next to it"
    (r"\s+(?:next to|beside|by|near|close to) (?:it|that|them|that 1|this)$", ""),
    # a light's step asked as whether it can go down or up ("can the lights in the hall go down a bit")
    (rf"^(?:can|could) {_LIGHTS} (?:go|come) down( a bit| a little)?(?: please)?$", r"dim \1\2"),
    (rf"^(?:can|could) {_LIGHTS} (?:go|come) up( a bit| a little)?(?: please)?$", r"brighten \1\2"),
    # the same again for another thing, said as giving it that: "give the heater in the snug that too"
    (r"^(?:and )?(?:give|do) ((?:the|my|our) [a-z' ]+?) (?:that|the same)(?: too| as well)?(?: please)?$", r"and \1 too"),
    # what a follow-up copies, said after it: "and the lights in the snug too, same as the parlour"
    (r"\b(too|as well) same as (?:the |my |our |before|that|earlier)[a-z ]*$", r"\1"),
    # round 15, the twelfth set's kinds: a check asked after the question it checks ("has the gate been left open,
    # can you check"), where the one who did it went ("did the coal man shut the door behind him")
    (rf"^((?:{'|'.join(QUESTION_WORDS)})\b.+?) (?:{'|'.join(CHECKS)})(?: please| for me)?$", r"\1"),
    (rf"^((?:{'|'.join(QUESTION_WORDS)})\b.+?) behind (?:him|her|them|me|us|you|himself|herself|themselves)$", r"\1"),
    # a state asked as what the thing did, of a pronoun too: "did it lock properly", "did the gate close"
    (rf"^did ({_THE} [a-z' ]+?|it|they|that) (lock|unlock|close|shut|open)(?: properly| fully| all the way| ok| okay)?$",
     lambda match: f"{'are' if match[1] == 'they' else 'is'} {match[1]} {_DONE[match[2]]}"),
    # a couple more of a step: "a couple more degrees" ("a couple of" is the normaliser's 2)
    (r"\ba couple more\b", "2 more"),
    # how much a wish is wished: "i'd really like the kiln off"
    (rf"\b(i'd|i would|we'd|we would) (?:{'|'.join(WISH_ADVERBS)}) (like|love|prefer)\b", r"\1 \2"),
    # how sure the question is, said inside it: "is the kiln actually on"
    (r"^(is|are|was|were) ((?:the|my|our) [a-z' ]+?) (?:actually|really|definitely|definately) "
     r"(on|off|open|closed|shut|locked|unlocked|running)\b", r"\1 \2 \3"),
)]
# a fraction said as a word, as the divisor it stands for ("a quarter of 360": 360 divided by 4); many of it by
# its plural ("3 quarters", "2 thirds")
_FRACTIONS = {"half": 2, "third": 3, "quarter": 4, "fifth": 5, "sixth": 6, "eighth": 8, "tenth": 10}
_FRACTION_PLURALS = {"halves": "half", **{f"{word}s": word for word in _FRACTIONS if word != "half"}}
_FRACTION = "|".join([*_FRACTIONS, *_FRACTION_PLURALS])


def _fraction_of(match: re.Match) -> str:
    """ "3 quarters of 240": "240 times 3 divided by 4"; one of it ("a quarter of 360") is "360 divided by 4"."""
    count, fraction, number = match.group(1), match.group(2), match.group(3)
    divisor = _FRACTIONS[_FRACTION_PLURALS.get(fraction, fraction)]
    times = f" times {count}" if count and count not in ("a", "1") else ""
    return f"{number}{times} divided by {divisor}"


# a day of the month, said as an ordinal ("the fifteenth", "the 21st")
_ORDINAL = (r"(?:(?:(?:twenty|thirty) )?(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|"
            r"twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|thirtieth)"
            r"|\d{1,2} ?(?:st|nd|rd|th))")
# Every home, for a request read alone: tense, particle order, what is asked said another way.
REPHRASINGS = [(re.compile(pattern), replacement) for pattern, replacement in (
    # a new value said first as what would be better: "21 would be better can you change it"
    (rf"^{VALUE_SAID_BETTER}(?: i think)? (?:(?:can|could|would) you )?(change|set|make|put|turn) "
     r"(it|that)(?: to that)?(?: please)?$", r"\2 \3 to \1"),
    # time left asked by whether there is any: "any time left on the pasta timer", "is there any time left on it"
    (r"^(?:is there |have we got |has it got )?(?:any|much) time (?:left|remaining) (?:on|of|for) (the|my|it|that)\b",
     r"how long is left on \1"),
    (r"^(?:is there |have we got )?(?:any|much) time (?:left|remaining) (?:before|until|till) ((?:the|my) (?:[a-z]+ )?timer)"
     r" (?:goes(?: off)?|rings|ends|finishes|is up|is done)$", r"how long is left on \1"),
    # time left for what a timer is named for: "how long is left for the spaghetti" (the spaghetti timer)
    (r"^(?:how long is|how long's|how much time is) left for (the|my) ((?![a-z ]*\btimer$)[a-z]+(?: [a-z]+)?)$",
     r"how long is left on \1 \2 timer"),
    # a timer given up on: "forget the timer i set earlier", "scrap the timer"
    (r"^(?:forget|scrap|ditch|drop|bin|lose) ((?:the|my|that) timer)(?: (?:i|you|we) (?:set|started)(?: earlier| before|"
     r" just now)?)?(?: please)?$", r"cancel \1"),
    # what someone left on, then asked to switch off by a pronoun: "i left the fan running in the garage, stop it"
    (rf"^(?:i|we|someone|somebody|you|the kids) (?:have |'ve )?left ({_THE} [a-z' ]+?) (?:on|running|going)( in the "
     r"[a-z ]+?)? (?:please |can you |could you )?(?:(?:turn|switch|shut|power) (?:it|them) off|(?:stop|kill) (?:it|them))"
     r"(?: please| now)?$", r"turn off \1\2"),
    # numbers said first, then asked about by a pronoun: "i've got 73 and 148, what do they add up to" asks of the
    # numbers ("what do 73 and 148 add up to"); the words before them carry no number
    (r"^(?:[a-z' ]+ )?(\d+(?:\.\d+)?(?: and \d+(?:\.\d+)?)+) ((?:what|how much|how many|add|multiply|divide|"
     r"subtract|times)\b(?: [a-z']+)*? )(?:they|them|those|these|they both|both of them)\b", r"\2\1"),
    # a sum asked by what it comes to: "what does 48 divided by 6 come to"
    (r"^what (?:does|do|will) (\d.*?\d) (?:come to|make|give|equal|add up to|work out at|work out to|amount to)$",
     r"what is \1"),
    # a light's level asked by more or less brightness: "more brightness on the workbench light please"
    (rf"^{_POLITE}(?:a bit |a little )?more (?:brightness|light) (?:on|for|from|in) ({_THE} .+?)(?: please)?$",
     r"\1brighten \2"),
    (rf"^{_POLITE}(?:a bit |a little )?less (?:brightness|light) (?:on|for|from|in) ({_THE} .+?)(?: please)?$",
     r"\1dim \2"),
    # a timer set up, then named: "set up a 900 seconds timer and call it homework"
    (r"^(?:set up|set|start|make|give me) an? (\d+(?:\.\d+)? seconds) timer and (?:name|call|label) it ([a-z]+)$",
     r"start a \2 timer for \1"),
    # the time asked inside another question or after words that carry no number ("any idea what time it's got
    # to", "do you know what time it is"), or asked of a clock ("what time is it by your clock")
    (r"^(?:[a-z' ]+ )?\bwhat time (?:it is|it's got to|it has got to|has it got to|it's gotten to|it has gotten to)"
     r"(?: now| right now)?$", "what time is it"),
    (r"^(?:what time is it|what's the time|what is the time) (?:by|on|according to) (?:your|the|my) (?:clock|watch|phone)$",
     "what time is it"),
    # the time asked by how late it is: "how late is it getting"
    (r"^how late is it(?: getting| now| already)?$", "what time is it"),
    # a sum shared out: "split 240 between 6 people", "divide 90 among 4 of us"
    (r"^(?:if (?:i|we|you) )?(?:split|divide|share) (\d+(?:\.\d+)?) (?:between|among|amongst|by|into) (\d+)(?: (?:people|ways|parts|of us|friends))?"
     r"(?: (?:how much|what) (?:is|does) (?:that |it )?each(?: (?:share|person|one|get))?(?: get| have)?)?$",
     r"what is \1 divided by \2"),
    # a conversion asked with the unit to read it in said first: "in celsius, what's 90 fahrenheit"
    (rf"^in ({_UNIT}) (?:what's|what is|how much is|how (?:heavy|long|far|tall|big|much|hot|cold|warm|deep|wide|high) is) "
     rf"(\d+(?:\.\d+)? (?:{_UNIT}))$", r"what is \2 in \1"),
    # a timer said with its length first and its name after: "a 300 seconds timer called brew", "start a 60 seconds
    # timer named tea", "ten minute timer for the tea"
    (rf"^(?:(?:set|start|make|give me|get me|{_WISHED}) )?(?:(?:a|an|me a) )?(\d+(?:\.\d+)? seconds) "
     r"timer (?:called|named|labelled|labeled|for the) ([a-z]+)\b", r"start a \2 timer for \1"),
    # a heater's setting said as what it should be: "the thermostat should be on 19 tonight", "the radiator needs
    # to be at 20"
    (rf"^({_THE} (?:[a-z' ]+ )?(?:{_HEATER})) (?:should|must|needs to|has to|ought to|wants to|can) be (?:on|at|set to|"
     r"set at|turned to|up at|down at) (\d+(?:\.\d+)?)(?: degrees)?(?: tonight| today| now| for tonight| please)?$",
     r"set \1 to \2 degrees"),
    # a level said as what any thing can be: "the fairy lights can be at a quarter brightness", "the lamp should
    # be at 40 percent"
    *((rf"^({_THE} .+?) (?:should|must|needs to|has to|ought to|wants to|can|could|may) (?:be|sit|stay|go) "
       rf"(?:at|to|on) {share}(?: brightness| power)?(?: tonight| today| now| please)?$", rf"set \1 to {percent} percent")
      for share, percent in (*SHARES, (r"(\d+(?:\.\d+)?) percent", r"\2"))),
    # a state wanted of a door, a gate or a cover: "i want the side gate unlocked", "i'd like the blinds closed"
    (rf"^{_WISH} ({_THE} .+?) "
     r"(locked|unlocked|opened|open|closed|shut)(?: for (?:the|my|our) [a-z ]+| please| now)?$",
     lambda match: f"{_DONE_AS_DO[match.group(2)]} {match.group(1)}"),
    (rf"^{_POLITE}get ({_THE} .+?) (locked|unlocked|opened|open|closed|shut)(?: please| now)?$",
     lambda match: f"{match.group(1)}{_DONE_AS_DO[match.group(3)]} {match.group(2)}"),
    # h12-follow: the time asked by the clock ("what's the clock showing"), the date by the weekday ("what weekday
    # are we on")
    (r"^what(?:'s| is| does) (?:the|your|my) (?:clock|watch) (?:showing|show|say|saying|says|read|reading|reads)(?: now| right now)?$",
     "what time is it"),
    (r"^(?:what|which) (?:weekday|week day|day of the week) (?:is it|are we on|are we|is today|is it today)"
     r"(?: today)?$", "what day is it"),
    # an alarm said as a need ("i need waking at 7", "make sure i'm up by 6 35")
    (r"^(?:(?:make sure|see that) (?:i'm|i am|we're|we are) (?:up|awake)|"
     r"(?:i|we) (?:need|want|would like|'d like) (?:waking|waking up|to be woken(?: up)?|to wake up|to get up|"
     r"getting up)) (?:at|by) (.+)$", r"wake me at \1"),
    # a fraction of a number: "a quarter of 360" is 360 divided by 4, "3 quarters of 240" 240 times 3 divided by 4
    (rf"\b(?:(a|1|\d+) )?({_FRACTION}) of (\d+(?:\.\d+)?)\b", _fraction_of),
    # a quantity said, then asked in another unit by a pronoun: "a recipe wants 350 fahrenheit, what's that in celsius"
    (rf"^(?:.* )?(\d+(?:\.\d+)? (?:{_UNIT}))(?: [a-z']+)*? (?:what's|what is|how much is) (?:that|it|this) "
     rf"in ({_UNIT})$", r"what is \1 in \2"),
    # a state asked as what someone left: "have i left the coffee machine on in the kitchen"
    (rf"^(?:have|has|did) {_ASKER} (?:leave|left) ({_THE} .+?) (on|off|open|unlocked|running)( in the [a-z ]+)?$",
     r"is \1\3 \2"),
    # lights out: off ("lights out in the house")
    (r"^((?:all )?(?:the )?(?:lights|lamps)) out\b", r"\1 off"),
    # "all" with no kind after it is everything: "all off", "switch all on please", "turn off all"
    (r"^(?:(?:turn|switch|shut|power|put) )?all (on|off)(?: please| now)?$", r"turn \1 everything"),
    (r"^(?:turn|switch|shut|power|put) (on|off) all(?: please| now)?$", r"turn \1 everything"),
    # a room's lights at full: "garage lights all the way up"
    (rf"^(?:turn |put |bring |crank |set )?(?:the )?({_ROOM}) (?:lights?|lamps?|lighting) (?:all the way up|on full|"
     r"to full|up to full|full|to max|to maximum|at full|to 100 percent)\b", r"set the \1 lights to 100 percent"),
    # a step said of a thing with no verb, as where it goes: "the whirlwind fan a bit lower", "the punkah a notch
    # faster" (the synonyms say "a notch" as "a bit"); a speed said alone is a step too ("the belvedere fan, slower
    # please": "turn ... down" alone reads as a cover's move), a place alone is not ("the blind lower" may be a move)
    (rf"^{_POLITE}({_THE} [a-z' ]+?) (?:(a bit|a little) (lower|higher|{_SPEEDS})|({_SPEEDS}))(?: please| now)?$",
     lambda match: f"{match[1]}turn {match[2]} {'down' if (match[4] or match[5]) in ('lower', *SLOWER) else 'up'} "
                   f"{match[3] or 'a bit'}"),
    # a fan's step said by its speed, of a thing named or meant ("speed the punkah up", "slow it down", "make the
    # attic fan go faster", "a bit slower please"): the step a light's is said in ("slow down the punkah" closed it
    # as a cover, "faster" alone was not understood)
    (rf"^{_POLITE}(?:(speed|slow) ({_THE} [a-z' ]+?|it|that|them) (?:up|down)|(speed) up ({_THE} [a-z' ]+?|it|that|them)|"
     rf"(slow) down ({_THE} [a-z' ]+?|it|that|them))((?: a bit| a little)?)(?: please| now)?$",
     lambda match: f"{match[1]}turn {match[3] or match[5] or match[7]} "
                   f"{'up' if (match[2] or match[4] or match[6]) == 'speed' else 'down'} {match[8].strip() or 'a bit'}"),
    (rf"^{_POLITE}(?:make|get|have) ({_THE} [a-z' ]+?|it|that|them) (?:go |run |spin |blow )?((?:a bit |a little )?)"
     rf"({_SPEEDS})(?: please| now)?$",
     lambda match: f"{match[1]}turn {match[2]} {'down' if match[4] in SLOWER else 'up'} {match[3].strip() or 'a bit'}"),
    (rf"^((?:a bit |a little )?)({_SPEEDS})(?: please| now)?$",
     lambda match: f"turn it {'down' if match[2] in SLOWER else 'up'} {match[1].strip() or 'a bit'}"),
    # a step's verb said with its particle: "brighten the picture light up", "dim the salt lamp down" (the corpus
    # says neither; the shipped model closed the salt lamp as a cover)
    (r"^(brighten|dim) ((?:the|my|our) [a-z' ]+?) (?:up|down)((?: a bit| a little)?)$", r"\1 \2\3"),
    # a state wanted as what a thing can do: "the fan can go off"
    (rf"^({_THE} .+?) (?:can|could|should|may|might as well|needs to|has to|must) go (on|off)\b", r"turn \2 \1"),
    # what is left on a named timer, asked by what it has got: "how many minutes has the pizza timer still got"
    (r"^how (?:long|much longer|much time|many minutes|many seconds)(?:'s| has| does) ((?:the|my) (?:[a-z]+ )?timer) "
     r"(?:still )?(?:got|have)(?: left| to go| to run)?$", r"how long is left on \1"),
    # or by its name alone: "how long have the scones got" (only a timer has time left)
    (r"^how (?:long|much longer|much time|many minutes|many seconds)(?:'s| has| have| does| do) (?:the|my) "
     r"((?!timer\b)[a-z]+) (?:still )?(?:got|have)(?: left| to go| to run)?$", r"how long is left on the \1 timer"),
    # a timer and its length said, and its name said by "name it" or "call it", or after "timer called", in any
    # order around them: "name it pizza and make it 840 seconds a timer please", "a timer for 480 seconds please name
    # it eggs", "timer called tea 240 seconds" (one length only, and nothing of stopping or of what is left)
    (rf"^(?=.*\btimer\b)(?!(?:.*\b\d+(?:\.\d+)? seconds\b){{2}})(?!.*\b(?:cancel|stop|left|remaining|how long)\b)"
     rf"(?=.*\b(?:(?:name|call|label) (?:it|a timer|the timer)|timer (?:called|named|labelled|labeled)) "
     rf"(?!(?:{'|'.join(NO_TIMER_NAMES)}|please|that|this)\b)([a-z]+)\b)(?=.*\b(\d+(?:\.\d+)? seconds)\b).*$",
     r"start a \1 timer for \2"),
    # a timer named, then set "to" its length: "name a timer homework and set it to 1800 seconds"
    (r"^(?:name|call|label) (?:a|the|my) timer ([a-z]+) and (?:set|start|make) it (?:to|at) (.+)$",
     r"start a \1 timer for \2"),
    # a reason said first, with the place in it: "it's freezing in the study, switch the heater on" is the
    # request in that place
    (rf"^it's (?:(?:too|really|so|very|a bit|way|far|quite|rather|getting|a little) )*(?:{_FEELS}) in (the [a-z ]+?) "
     rf"({_POLITE}(?:turn|switch|put|bump|crank|make|set|dim|brighten|raise|lower|open|close|shut) (?!.* in the ).+)$",
     r"\2 in \1"),
    # a light said to be too bright or too dark, then asked with a pronoun to go that way: the statement says it,
    # in the corpus's words ("too bright", "too dim")
    (rf"^({_THE} [a-z' ]+?)(?:'s| is| are) ((?:(?:way|far|much|a bit|a little|so|really) )?)too (?:bright|harsh|glaring) "
     r"(?:please )?(?:(?:turn|put|bring|make|dim|tone|knock) (?:it|them|that|those) (?:down|dimmer|lower)|"
     r"(?:dim|lower) (?:it|them|that|those))\b.*$", r"\1 is \2too bright"),
    (rf"^({_THE} [a-z' ]+?)(?:'s| is| are) ((?:(?:way|far|much|a bit|a little|so|really) )?)too (?:dark|dim|gloomy) "
     r"(?:please )?(?:(?:turn|put|bring|make|brighten|bump|crank) (?:it|them|that|those) (?:up|brighter)|"
     r"(?:brighten|raise) (?:it|them|that|those))\b.*$", r"\1 is \2too dim"),
    # everything, or every kind, on a place said with "on" ("turn off everything on the veranda", "switch
    # everything off on the veranda"): before the particle moves
    (r"\b(everything|all the [a-z]+)( on| off)? on (the|my|our) ", r"\1\2 in \3 "),
    # a kind said with its state and no verb: "lights on in the bathroom"; every one of them when "all" is said or
    # in the whole home
    (r"^all (?:the )?(lights|lamps|fans|heaters|plugs) (on|off)\b", r"turn \2 all the \1"),
    (r"^(?:the )?(lights|lamps|fans|heaters|plugs) (on|off) in the (house|home)\b", r"turn \2 all the \1 in the \3"),
    (r"^(?:the )?(lights|lamps|fans|heaters|plugs) (on|off)\b", r"turn \2 the \1"),
    # the date asked by the day of the month: "what number day of the month are we on"
    (r"^(?:what|which) (?:number )?day of the month (?:is it|are we on|are we at|is today|is it today)$", "what's the date"),
    # a timer named as it is set: "name a timer homework and set it for 30 minutes", "set a timer for 5 minutes
    # and call it tea"
    (r"^(?:name|call|label) (?:a|the|my) timer ([a-z]+) and (?:set|start|make) it (for .+)$", r"start a \1 timer \2"),
    (rf"^(?:(?:set|start|make|give me|get me|{_WISHED}) )?(?:a|an|me a) timer (for \d+(?:\.\d+)? seconds) and "
     r"(?:name|call|label) it ([a-z]+)$", r"start a \2 timer \1"),
    # a timer asked whether nearly done: "is the laundry timer nearly done" asks what is left on it
    (r"^is ((?:the|my) (?:[a-z]+ )?timer) (?:nearly|almost|about|just about|close to) (?:done|finished|up|over|through)$",
     r"how long is left on \1"),
    # "turned on the tv": a transcript's past tense of the command
    (r"^(turn|switch)ed\b", r"\1"),
    # a heater put "on" a temperature: "put the still room heater on 16 degrees" sets it, it does not switch it
    # on (before the particle moves); a light "on 30 percent" the same
    (rf"^{_POLITE}(?:put|turn|set|have) ({_THE} .+?) (?:on|at|up to|down to) (\d+(?:\.\d+)?) (degrees|percent)$",
     r"\1set \2 to \3 \4"),
    # or its number alone, after a heater's kind (not 1 or 2: Whisper's "on to", "on too")
    (rf"^{_POLITE}(?:put|turn|set|have) ({_THE} (?:[a-z' ]+ )?(?:{_HEATER})(?: in the [a-z ]+?)?) (?:on|at|up to|down to) (?![12]$)"
     r"(\d+(?:\.\d+)?)$",
     r"\1set \2 to \3 degrees"),
    # "turn the tv off in the living room": the particle after the verb
    (r"^((?:please |can you |could you )?(?:turn|switch|shut|put|power)) (?!on\b|off\b)((?:the |my |all the )?[a-z0-9' ]+?) (on|off)\b",
     r"\1 \3 \2"),
    # "how heavy is 70 kilos in pounds": a conversion asked by what is measured
    (rf"^how (?:heavy|long|far|tall|big|much|hot|cold|warm|deep|wide|high) is (\d+(?:\.\d+)? (?:{_UNIT}))"
     rf" in ((?:{_UNIT}))$", r"what is \1 in \2"),
    # a light's level by a step, in other verbs than the corpus's "dim" and "brighten" (no number said)
    (rf"^{_POLITE}(?:lower|reduce|decrease|turn down|bring down|tone down) {_LIGHTS}( a bit| a little)?$",
     r"\1dim \2\3"),
    (rf"^{_POLITE}(?:raise|increase|turn up|bring up|boost) {_LIGHTS}( a bit| a little)?$", r"\1brighten \2\3"),
    # the same with the particle after the light: "bump the lights up in the hallway"
    (rf"^{_POLITE}(?:turn|bring|bump|crank|knock|tone) ({_THE} (?:[a-z' ]+ )?{_LIGHT_KIND}) down"
     r"( a bit| a little)?( in the [a-z ]+)?$", r"\1dim \2\4\3"),
    (rf"^{_POLITE}(?:turn|bring|bump|crank) ({_THE} (?:[a-z' ]+ )?{_LIGHT_KIND}) up"
     r"( a bit| a little)?( in the [a-z ]+)?$", r"\1brighten \2\4\3"),
    # a light's level said after "make": "make the bathroom light 50 percent bright" is a level, not a step
    (rf"^{_POLITE}(?:make|have|get) {_LIGHTS} (?:at |to )?(\d+(?:\.\d+)?) percent(?: bright| brightness)?$",
     r"\1set \2 to \3 percent"),
    # a reading asked by how it has become: "how hot has it got up in the belvedere today"
    (r"^how (hot|warm|cold|chilly|humid|damp) (?:has it got|has it gotten|is it getting|did it get) "
     r"(?:(?:up|down|out|over) )?in (the [a-z ]+?)(?: today| now| right now| tonight)?$", r"how \1 is it in \2"),
    # the thermostat said as the heating: "set the heating to 21"
    (rf"^{_POLITE}(?:(?:set|put|turn|change|bring) )?(?:the |my |our )?(?:heating|heat) (?:up |down )?to (\d+(?:\.\d+)?)"
     r"(?: degrees)?(?: please)?$", r"\1set the thermostat to \2 degrees"),
    # or as what the home should be: "the house wants to be 19 degrees tonight"
    (r"^(?:the|our|my) (?:house|home|place|flat) (?:should|must|needs to|has to|ought to|wants to|can) be (?:at |set to )?"
     r"(\d+(?:\.\d+)?) degrees(?: tonight| today| now| please)?$", r"set the thermostat to \1 degrees"),
    # a sum said as a list: "add up 23, 19 and 8"
    (r"^(?:please )?(?:add up|add together|add|sum up|sum|total up|total|what's the sum of|what is the sum of"
     r"|what's the total of) ((?:\d+(?:\.\d+)? (?:and )?){1,7}\d+(?:\.\d+)?)(?: together| up)?$",
     lambda match: "what is " + " plus ".join(re.findall(r"\d+(?:\.\d+)?", match.group(1)))),
    # a timer named by "called" or "named": "set a timer called laundry", "cancel the timer named bread"
    (r"\b(a|an|the|my) timer (?:called|named|for the|labelled|labeled) ([a-z]+)\b", r"\1 \2 timer"),
    # what is left on a timer: "what's left on the timer", "how much longer has it got"
    (r"^(?:what's|what is|how much is|how much time is) (?:left|remaining) (?:on|of) (the|my|it|that)\b", r"how long is left on \1"),
    (r"^how (?:much longer|much more time|much time|long)(?:'s| has| does) (it|that|(?:the|my) [a-z ]*timer) (?:got|have)"
     r"(?: left| now| still| to go| to run)*$",
     r"how long is left on \1"),
    # or by how long there is to go: "how long is there to go on the timer", "how much time have we got on it"
    (r"^how (?:long|much time|much longer) (?:is there|have we got|do we have|have we) (?:left |to go |remaining )?"
     r"(?:on|of|for) (the|my|it|that)\b", r"how long is left on \1"),
    # the state wanted, said as a wish or a possibility: "i'd like the fan switched off", "the fan can be turned off"
    (rf"^{_WISH} ({_THE} .+?) "
     rf"{_STATE} (on|off)(?: please| now)?$", r"turn \2 \1"),
    # or as running: "we need the pond pump running"
    (rf"^{_WISH} ({_THE} [a-z' ]+?) (?:running|going)(?: please| now)?$", r"start \1"),
    # or said with the state alone: "i'd love the reading lamp on", "i want the bedroom light off"
    (rf"^{_WISH} ({_THE} [a-z' ]+?) (on|off)(?: please| now)?$",
     r"turn \2 \1"),
    (rf"^({_THE} .+?) (?:can|could|should|may|needs to|has to|must) be {_STATE} (on|off)(?: please| now)?$",
     r"turn \2 \1"),
    # or as what would please, the thing said as its subject: "i'd love it if the kennel heater went on", "it would
    # be lovely if the fan came on"
    (rf"^(?:{_WISHED} it|it {SAID_WELCOME}) if ({_THE} [a-z' ]+?) (?:went|came|got|was|were|could go|could come) "
     rf"(?:{_STATE} )?(on|off)(?: please| now)?$", r"turn \2 \1"),
    (rf"^(?:can|could|would|should) ({_THE} .+?|everything .+?) be {_STATE} (on|off)(?: please| now)?$", r"turn \2 \1"),
    # "how many centimeters are there in 12 inches": the corpus's "how many centimeters in 12 inches"
    (r"^how many ([a-z]+) (?:are|is) there in\b", r"how many \1 in"),
    # a question asked indirectly: "tell me if the kiln is on", "check whether the gate is locked"
    (r"^(?:please )?(?:(?:can|could) you )?(?:tell me|let me know|check|find out|see|do you know|i wonder) "
     rf"(?:if|whether) ({_THE} .+?) (is|are) (.+)$", r"\2 \1 \3"),
    # a state asked about someone: "has anyone left the gate open", "did somebody leave the fan on"
    (rf"^(?:has|have|did) (?:anyone|anybody|someone|somebody|one of you|the kids) (?:left|leave) ({_THE} .+?) "
     r"(open|on|unlocked|running)$", r"is \1 \2"),
    # a reading asked by "what temperature is it": "what temperature is it up in the belvedere"
    (rf"^(?:what|which) ({'|'.join(READINGS)}) is it (?:(?:up|down|out|over|back) )?in (the [a-z ]+?)(?: now| right now)?$",
     r"what's the \1 in \2"),
    # a state asked with "still" or "left": "is the pump still running", "is the gate left open"
    (rf"^(is|are) ({_THE} .+?) (?:still|left|still left) (?=(?:on|off|open|closed|shut|locked|unlocked|running|going)$)",
     r"\1 \2 "),
    # a reading asked for by "tell me" or with "up", "down" or "out" before its place: "the temperature up in the loft"
    (rf"^(?:please )?(?:(?:can|could) you )?(?:tell me|give me|read me|read out|let me know|check|what's|what is) "
     rf"(?:what )?the ({'|'.join(READINGS)}) (?:is )?(?:(?:up|down|out|over|back) )?in (the [a-z ]+?)(?: is)?(?: now| right now)?$",
     r"what's the \1 in \2"),
    # a state asked as what someone did: "have i locked the side gate", "did you turn the heater off"
    (rf"^(?:have|has|did) {_ASKER} (?:already |remember to |remembered to |actually )?"
     rf"(lock|unlock|close|shut|open|turn|switch|power){_PAST}(?: (off|on))? ({_THE} .+?)(?: (off|on))?$",
     _asked_state),
    # a state asked as what the thing did: "has the velux window closed properly", "have the louvres opened yet"
    (rf"^(has|have) ({_THE} (?![a-z' ]*\bbeen\b).+?) (closed|shut|opened|locked|unlocked)(?: properly| fully| all the way| yet)?$",
     lambda match: f"{'is' if match[1] == 'has' else 'are'} {match[2]} {_DONE[_DONE_AS_DO[match[3]]]}"),
    # a state asked in the past tense: "was the kiln left on", "were the louvres left open"
    (rf"^was ({_THE} .+?) (?:left |still |(?:left |still )?{_STATE} )?(on|off|open|closed|shut|locked|unlocked)$",
     r"is \1 \2"),
    (rf"^were ({_THE} .+?) (?:left |still |(?:left |still )?{_STATE} )?(on|off|open|closed|shut|locked|unlocked)$",
     r"are \1 \2"),
    # a wish that a thing be in a state: "make sure the heater in the hall is switched off"
    (rf"^(?:please )?(?:make sure|ensure|see to it that|see that) ({_THE} .+?) (?:is|are) (?:{_STATE} )?(on|off)$",
     r"turn \2 \1"),
    # a question asked by what to tell: "can you remind me what the date is", "tell me what the time is"
    (r"^(?:please )?(?:(?:can|could|would) you )?(?:tell me|remind me|let me know) what (the [a-z ]+?) (?:is|'s)$",
     r"what's \1"),
    # a state asked in the perfect tense: "has the gate been opened", "have the fans been switched off"
    # (and after what is said before it: "any post yet, has the letterbox been opened")
    (rf"^((?:[a-z' ]+ )?)has ({_THE} .+?) been (?:left )?open(?:ed)?$", r"\1is \2 open"),
    (rf"^((?:[a-z' ]+ )?)have ({_THE} .+?) been (?:left )?open(?:ed)?$", r"\1are \2 open"),
    (rf"^((?:[a-z' ]+ )?)has ({_THE} .+?) been (?:left )?(?:{_STATE} )?(closed|shut|locked|unlocked|on|off)$", r"\1is \2 \3"),
    (rf"^((?:[a-z' ]+ )?)have ({_THE} .+?) been (?:left )?(?:{_STATE} )?(closed|shut|locked|unlocked|on|off)$", r"\1are \2 \3"),
    # round 14, the tenth set's kinds: a level asked as where a thing can sit: "can the dock lights sit at 40 percent tonight"
    (rf"^(?:can|could) ({_THE} .+?) (?:sit|be|go|stay|come) (?:at|to|on) (\d+(?:\.\d+)?) percent"
     r"(?: tonight| today| now| please| for (?:now|tonight))?$", r"set \1 to \2 percent"),
    # a level said first, then the thing: "half brightness on the drinks cabinet", "40 percent on the dock lights"
    *((rf"^{_UNCONDITIONAL}(?:at )?{share} (?:brightness|power|light) (?:on|for|in) ({_THE} .+?)(?: please)?$", rf"set \1 to {percent} percent")
      for share, percent in SHARES),
    (rf"^{_UNCONDITIONAL}(\d+(?:\.\d+)?) percent(?: brightness| power)? (?:on|for) ({_THE} .+?)(?: please)?$", r"set \2 to \1 percent"),
    # a setting asked by what it has been given: "what have we got the thermostat set to"
    (rf"^what (?:have we got|have you got|do we have|have we|has it got) ({_THE} .+?) (set to|set at|on|at)"
     r"(?: right now| now)?$", r"what's \1 \2"),
    # a reading asked by what a place is like: "what's it like up in the belvedere temperature wise"
    (rf"^(?:what's|what is|how's|how is) it (?:like )?(?:(?:up|down|out|over) )?in (the [a-z ]+?) ({'|'.join(READINGS)})"
     r"(?: ?wise)$", r"what's the \2 in \1"),
    (rf"^({'|'.join(READINGS)})(?: ?wise) (?:what's|what is|how's|how is) it (?:like )?(?:(?:up|down|out|over) )?in "
     r"(the [a-z ]+?)$", r"what's the \1 in \2"),
    # what a thing wants doing: "the louvres in the orangery want closing", "the fan needs switching off"
    # (and after a remark before it: "we're off rowing, the boathouse door needs opening")
    (rf"^{_UNNEGATED}((?:[a-z' ]+ )??)({_THE} .+?) (?:wants?|needs?) ({_VERB_ING})( on| off)?(?: please| now)?$",
     lambda match: f"{match.group(1)}{_VERBS_ING[match.group(3)]}{match.group(4) or ''} {match.group(2)}"),
    # a cover rolled or pulled back: open ("roll the pergola roof back")
    (rf"^{_POLITE}(?:roll|pull|slide|draw|push) ({_THE} .+?) back(?: please)?$", r"\1open \2"),
    # stopping a moving thing said as holding it: "hold the garage door", "hold it" once the pronoun is placed; not
    # a device ("hold it there" of a light just dimmed keeps its level, it does not switch it off)
    (rf"^(?:hold|halt|freeze) (?=the (?![a-z' ]*\b(?:{_DEVICE})s?\b)[a-z' ]+"
     r"(?: there| right there| please| where it is)*$)", "stop "),
    # the date asked by whether it is a day of the month: "is it the fifteenth today"
    # (with "today", or a day no choice of one of several is said by: "is it the second or the third" is none)
    (rf"^is (?:today (?:the )?{_ORDINAL}|it (?:the )?{_ORDINAL} today|it (?:the )?(?!(?:first|second|third|fourth|fifth)\b)"
     rf"{_ORDINAL})(?: today)?(?: or .+)?$", "what's the date"),
    # round 15, the twelfth set's kinds: a timer's length said first, then its name ("eleven minutes for the
    # cookies, call the timer cookies")
    (r"^(\d+(?:\.\d+)? seconds) (?:for (?:the|my) [a-z]+ )?(?:and )?(?:call|name|label) (?:it|the timer) ([a-z]+)$",
     r"start a \2 timer for \1"),
    # another timer, named, then its length: "and a second one called kettle, three minutes" (which the normaliser
    # writes "1 seconds 1 called kettle 180 seconds")
    (r"^(?:1 seconds|another|1 more|a new) (?:1|timer) (?:called|named) ([a-z]+) (?:for )?(\d+(?:\.\d+)? seconds)$",
     r"start a \1 timer for \2"),
    # time left asked by when what a timer is named for is ready: "how long until the pizza's ready"
    (r"^how (?:long|much longer|much time) (?:until|till|before) (?:the|my) ([a-z]+)(?:'s| is| are| will be)? "
     r"(?:ready|done|cooked|finished)(?: then| now)?$", r"how long is left on the \1 timer"),
    # or by how it is doing, then how long is left: "how's the rice doing, how long left"
    (r"^how(?:'s| is) (?:the|my) ([a-z]+) (?:doing|getting on|coming along) how (?:long|much time|much longer)"
     r"(?: is| is there| has it got)? (?:left|to go)$", r"how long is left on the \1 timer"),
    # an alarm said after its clock time: "twenty to six, alarm please"
    (r"^(\d{1,2}(?: \d{2})?(?: am| pm)?) alarm(?: please)?$", r"set an alarm for \1"),
    # a level said as a share after a step or a setting: "dim the bedroom to a quarter"
    *((rf"^{_POLITE}(?:dim|brighten|set|turn|bring|put|take) ({_THE} .+?) (?:down |up )?(?:to|at) {share}"
       r"(?: brightness| power)?(?: please)?$", rf"\1set \2 to {percent} percent") for share, percent in SHARES),
    # more of what a thing gives: "bit more breeze from the punkah please", "a bit more on the fan"
    (rf"^{_POLITE}(?:a )?(?:bit|little) more(?: (?:{'|'.join(LEVEL_WORDS)}))? (?:on|from|for|out of) ({_THE} .+?)"
     r"(?: please)?$", r"\1turn \2 up a bit"),
    (rf"^{_POLITE}(?:a )?(?:bit|little) less(?: (?:{'|'.join(LEVEL_WORDS)}))? (?:on|from|for|out of) ({_THE} .+?)"
     r"(?: please)?$", r"\1turn \2 down a bit"),
    # a scene said by its name and "mode": "candlelight mode please"
    (rf"^(?:the )?([a-z]+(?: [a-z]+)?) (?:{'|'.join(SCENE_WORDS)})(?: please| on| now)*$", r"activate the \1 scene"),
)]
# Every home, also for a request read with the turns before it (a step leans back): a light's step said after it,
# "salt lamp a bit lower please"
_NOT_A_VERB = (r"(?!(?:turn|switch|put|set|make|bring|dim|brighten|knock|crank|bump|get|have|can|could|would|"
               r"please|tone|raise|lower|move|take|keep|leave)\b)")
# Words no name of a thing holds: a name said first is the request's first words only when none is one of these
_NAME_STOPS = ("the|my|our|a|an|i|i'd|i'm|it|it's|is|are|in|we|we'd|you|please|can|could|would|like|want|need|set|"
               "put|turn|make|bring|change|have|get|keep|raise|lower|switch")
# a light said by its name, up to three words before its kind
_A_LIGHT = rf"((?:(?!(?:{_NAME_STOPS}) )[a-z']+ ){{0,3}}{_LIGHT_KIND})"
NAMED_THING_SYNONYMS = [(re.compile(pattern), replacement) for pattern, replacement in (
    _TEXTED_WORDS,
    (rf"^{_NOT_A_VERB}(?:(?:the|my|our) )?{_A_LIGHT}((?: a bit| a little)?) (?:lower|down|dimmer)"
     r"(?: please)?$", r"dim the \1\2"),
    (rf"^{_NOT_A_VERB}(?:(?:the|my|our) )?{_A_LIGHT}((?: a bit| a little)?) (?:higher|up|brighter)"
     r"(?: please)?$", r"brighten the \1\2"),
)]
# Every home, for a request read alone, after the rules above: a user's own thing said with a verb or an order
# the corpus says otherwise.
NAMED_THING_REPHRASINGS = [(re.compile(pattern), replacement) for pattern, replacement in (
    # "light (up)" a thing is "turn on": "can you light the veranda lantern" (in a home with lights, "light" reaches
    # the model as a name slot, and "<e0> up the <e1>" reads like locking)
    (rf"^{_POLITE}light (?:up )?({_THE}) ", r"\1turn on \2 "),
    # the same of a thing the conversation used: "light it please" is "turn it on"
    (rf"^{_POLITE}light (it|them|that|those)(?: up)?\b", r"\1turn on \2"),
    # a thing got "running" or "going": "get the bilge pump running" is "start the bilge pump"
    (rf"^{_POLITE}(?:get|set) ({_THE} (?![a-z' ]*\b(?:scene|timer|alarm)$)[a-z' ]+?) (?:running|going|spinning|working|started)( in the [a-z ]+)?$",
     r"\1start \2\3"),
    # a thing asked by what it shows: "is the leak sensor showing wet", "is the door sensor saying open"
    (r"^(is|are) ((?:the|my|our) [a-z' ]+?) (?:showing|reading|saying|reporting) ", r"\1 \2 "),
    # a thing warmed or heated is switched on: "could you heat up the samovar", "warm the towel rail up" (not a room,
    # the house or a level: "warm the lounge up to 20" is a heater's)
    (rf"^{_POLITE}(?:heat|warm) (?:up )?({_THE} (?![a-z' ]*\b(?:{_ROOM}|house|home|place|flat|room)$)[a-z' ]+?)(?: up)?$",
     r"\1turn on \2"),
    # "run" a thing is the corpus's "start" (a scene, a timer or a bath is run otherwise): "run the dehumidifier"
    (rf"^{_POLITE}run ({_THE} (?![a-z' ]*\b(?:scene|timer|alarm|bath|numbers?|test)$)[a-z' ]+)$", r"\1start \2"),
    # a lock locked "up" after it: "lock the tack room lock up" is the corpus's "lock up the ..."
    (rf"^{_POLITE}lock ({_THE} .+?) up$", r"\1lock up \2"),
    # and a thing the conversation used: "lock it up please" is "lock it"
    (rf"^{_POLITE}lock (it|them|that|those) up\b", r"\1lock \2"),
    # "back" before the state, moved after the thing: "turn the bunting back off"
    (r"^((?:please |can you |could you )?(?:turn|switch|shut|put|power) (?:on|off) .+?) back$", r"\1"),
    # how a reading has become: "how humid has the boathouse got", "how warm's the snug"
    (r"^how (hot|warm|cold|chilly|humid|damp)(?:'s| has| is) (the [a-z ]+?) (?:got|gotten|become|getting)"
     r"(?: today| now| right now| tonight)?$", r"how \1 is \2"),
    (r"^how (hot|warm|cold|chilly|humid|damp)'s (the [a-z ]+)$", r"how \1 is \2"),
    # a thing asked whether "going" or "running", not a timer: "is the telly in the bedroom going"
    (r"^(is|are) ((?:the|my|our) (?![a-z' ]*\b(?:timer|alarm|countdown|stopwatch)\b)[a-z' ]+?) (?:going|running)$",
     r"\1 \2 on"),
    # a time frame after a switch: "could you start the ice maker for tonight"
    (rf"^({_POLITE}(?:turn|switch|start|put|light|power|fire)\b.+?) for (?:tonight|later|later on|this evening|"
     r"this afternoon|today|the party|the guests)$", r"\1"),
    # a light's level as a share: "the mushroom lamp at a quarter brightness"
    # (or "down to a quarter", "up to half")
    *((rf"^{_NOT_A_VERB}(?:(?:the|my|our) )?{_A_LIGHT} (?:down |up )?(?:at|to) {share}"
       r"(?: brightness| power)?(?: please)?$", rf"set the \1 to {percent} percent")
      for share, percent in SHARES),
    # a light of a user's own "all the way up": "the salt lamp right up" (a room's lights at full are read above)
    (rf"^{_POLITE}(?:(?:turn|bring|put|crank|bump|push) )?(?:(?:the|my|our) )?(?!(?:turn|bring|put|crank|bump|push)\b)"
     rf"{_A_LIGHT} (?:all the way|right) up\b", r"\1set the \2 to 100 percent"),
    # a heater said first with its temperature: "radiator in the nursery to 18.5", "still room heater 21 degrees"
    (rf"^(?:{_THE} )?((?:(?!(?:{_NAME_STOPS}) )[a-z']+ ){{0,3}}(?:{_HEATER})(?: in the [a-z ]+?)?) "
     r"(?:(?:to|on|at|up to|down to) (?![12]$)(\d+(?:\.\d+)?)(?: degrees)?|(\d+(?:\.\d+)?) degrees)(?: please)?$",
     lambda match: f"set the {match.group(1)} to {match.group(2) or match.group(3)} degrees"),
)]
# The default home only, whose rooms and devices are the vocabulary's: "the tv in the living room" is its
# "living room tv".
DEFAULT_HOME_REPHRASINGS = [(re.compile(pattern), replacement) for pattern, replacement in (
    (rf"\bthe ({_DEVICE}) in the ({_ROOM})\b", r"the \2 \1"),
    # "i'd like the kitchen at 20 degrees": the home's one thermostat
    (rf"^{_WISH} (?:the |my |our )?(?:{_ROOM}) (?:at|to) (\d+(?:\.\d+)?) degrees(?: please)?$",
     r"set the thermostat to \1 degrees"),
    # a room made darker or brighter: its lights ("bedroom a little darker please")
    (rf"^(?:the |my |our )?({_ROOM})((?: a bit| a little)?) (?:{'|'.join(DARKER)})(?: please)?$", r"dim the \1 lights\2"),
    (rf"^(?:the |my |our )?({_ROOM})((?: a bit| a little)?) (?:{'|'.join(BRIGHTER)})(?: please)?$",
     r"brighten the \1 lights\2"),
)]
# A user's own home, where a light, a reading and an area are names: the corpus asks for these in the default
# home's words only ("the kitchen is too bright", "how humid is it in the kitchen"), which the model reads for
# the default home's rooms but not for an own home's names ("how hot is the kiln" becomes "what's the temperature
# in the kiln", which the shipped model reads as the kiln's state).
OWN_HOME_REPHRASINGS = [(re.compile(pattern), replacement) for pattern, replacement in (
    (r"^((?:the|my|our) .+?) (?:is|are) (?:way |far |much |a bit |a little )?too (?:bright|harsh|glaring)$", r"dim \1"),
    (r"^((?:the|my|our) .+?) (?:is|are) (?:way |far |much |a bit |a little )?too (?:dark|dim)$", r"brighten \1"),
    # "set the temperature in the atrium to 20": the thermostat there (a "temperature" is a sensor's name)
    (r"^(?:set|put|turn|change) the (?:temperature|heat|heating) (?:in|of) (the .+?) to (\d+(?:\.\d+)?)(?: degrees)?$",
     r"set the thermostat in \1 to \2 degrees"),
    # "i'd like the nursery at 20 degrees": the thermostat there
    (rf"^{_WISH} (the [a-z ]+?) (?:at|to) (\d+(?:\.\d+)?) degrees(?: please)?$", r"set the thermostat in \1 to \2 degrees"),
    # "put the lights on in the parlour": every light there (the default home has one light in a room)
    (r"\b((?:turn|switch|put|shut|power) (?:on|off)) the (lights|lamps|fans|heaters|plugs|switches) in the\b",
     r"\1 all the \2 in the"),
    # a reading of an area asked with "what": "what temperature is the gallery at", "what humidity is it in the snug"
    (rf"^(?:what|which) ({'|'.join(READINGS)})(?: is|'s) (?:it (?:in|at|out in) )?(the [a-z ]+?)(?: sitting| reading)?(?: at)?"
     r"(?: now| right now)?$",
     r"what's the \1 in \2"),
    *((rf"^(?:how (?:{'|'.join(words)}) is (?:it (?:(?:up |down |over |out )?in|at) )?|is it (?:{'|'.join(words)}) (?:in|at|out in) )"
       rf"(the .+)$", rf"what's the {kind} in \1") for kind, words in READINGS.items()),
)]


def synonyms(said: str) -> str:
    """A normalised request in the corpus's words for what is said many ways."""
    for pattern, replacement in SYNONYMS + NAMED_THING_SYNONYMS:
        said = pattern.sub(replacement, said)
    return said


def rephrase(said: str, default_home: bool) -> str:
    """A normalised request, to be read alone, in the word order and words the model reads best."""
    for pattern, replacement in REPHRASINGS + NAMED_THING_REPHRASINGS + \
            (DEFAULT_HOME_REPHRASINGS if default_home else OWN_HOME_REPHRASINGS):
        said = pattern.sub(replacement, said)
    return said
