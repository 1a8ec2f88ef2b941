"""Conversation state: what the conversation last acted on or asked about, and follow-ups resolved against it.

The state is derived from the history's tool calls (the session's function_call items, the one history that a
resume on another gateway loads from the store), so there is nothing else to keep or to lose. A follow-up
("turn it off", "and the salt lamp", "actually cancel it", "the other one", "same for the office") is rewritten
by deterministic code into the self-contained request it stands for ("turn off the pond pump"), which the model
then reads alone: the model answers self-contained requests far better than it follows references (see
docs/history/assistant.md, "Conversations and paraphrases"). The phrasings are data: FOLLOW_UPS, NEW_VALUE,
ON_THE_RESULT, STEP_FROM, REFERRING and REQUESTS below.
"""
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from assistant.chat_template import NAME_ARGUMENTS, _assistant_calls, asks_how_things_are, content_text
from assistant.clauses import clauses, names_a_thing, request_beside_remarks, takeable, topic_in_place
from assistant.clock import clock_call, known_place
from assistant.inventory import APPLIANCES, CLASS_WORDS, MAX_NAME_WORDS
from assistant.lists import list_follow_up
from assistant.rephrase import rephrase, synonyms
from assistant.reply import UNKNOWN_NAME
from assistant.skills import (LEVEL_SKILLS, LEVEL_UNIT, LIST_SKILLS, MODE_SKILLS, NOT_CHANGES, SKILL_COMPONENTS, SKILL_KINDS, SKILLS,
                              COLOUR_SKILLS, MEDIA_SKILLS, THING_NAMED,
                              STEP_SKILLS, TIMER_QUESTIONS, TIMER_SKILLS, TIMER_STARTS)
from assistant.spoken_numbers import normalize_request
from assistant.tools import (CHOICE_QUESTION, TARGET_QUESTION_SAID, UNKNOWN_DEVICE_SAID, WHICH_ONE_MEANT,
                             CalculationError, calculate, format_number)
from assistant.vocabulary import (MEDIA_REQUEST_WORDS, CLOCK_FOLLOW_UPS,
                                  ACTION_PARTS, ADVERBS, AGAIN, AGAIN_WITH, AGREEING, ALARM_WAYS, ALL_CHOICES, ANOTHER,
                                  ALARM_REQUEST_WORDS, AS_IT_WAS, CHOICE_PLACES, CHOICE_WORDS, CLIMATE_STEP_REQUEST, NOT_A_CHOICE,
                                  ASKED_AGAIN, ASKING, ASKING_WRAPPERS, BELOW_ZERO, BRIGHTER, CORRECTING, DARKER,
                                  DEMONSTRATIVES, OPERATIONS_OF_ONE, OPERATIONS_OF_TWO,
                                  DEVICE_SPOKEN, DEVICES, FLOOR_WORDS, FOLLOW_UP_KINDS, FRAME_WORDS, FRAGMENT_UNITS, FRAGMENT_WORDS,
                                  GROUP_ALONE, GROUP_WORDS, HEAT_WAYS, HEATING_WORDS, HOLDING, JOINING_WORDS,
                                  KEEPING, LEAVING, LEAVING_JOINS,
                                  LOOSE_OPENERS, MEANT, MENTIONED,
                                  MULTIPLES, MULTIPLIED, OFFERS_OF_HELP, OTHER_ROOM_WORDS, PEOPLE_VERBS, PLURAL_PRONOUNS,
                                  PRONOUN_OBJECTS,
                                  CHECKING, QUESTION_OPENERS, READING_COMPARATIVES, SAME_AGAIN_OPENERS, YES_NO_OPENERS,
                                  READING_CHANGES, READING_QUALITIES, AMBIENT_FRAMES, AMBIENT_PLACES, REASON_SUBJECTS, REJECTING, RESTORING, RESULT_NOUNS, SAID_PLACE, SAID_RESULT, SAID_VALUE, SELF_CORRECTING,
                                  ROOM_SPOKEN, ROOMS, SAID_WELCOME, SENSOR_KINDS, SETTING_ASKED_ENDS, SETTING_CALLS,
                                  SETTING_READS, SETTINGS_OF_THINGS_ONLY, PLAYER_AGAIN_OPENERS,
                                  PLAYER_AGAIN_PLACES, SHARES, TARGET_ASKED, STAYING, STEP_CARRIERS, STEP_WAYS,
                                  TIMER_VERBS, TOO_MUCH, TOO_MUCH_SUBJECTS, TOWARDS, UNDO_WHAT, UNDOING,
                                  UNIT_FACTORS, UNIT_NAMES, UNIT_WORDS, VACUUM_COMMANDS_SAID, VERB_KINDS, WANTING,
                                  says_many)

MAX_CALLS = 16          # the newest calls the state is read from
MAX_READINGS = 16       # histories kept read (_read_once): a turn's own and its clauses', for a few sessions at once
MAX_LEXICONS = 4        # and the homes' lexicons they hold at most (a big home's is megabytes; a new one each version)

# Every way a unit is said, the longest first
_UNIT_SAID = "|".join(sorted({said for saids in UNIT_WORDS.values() for said in saids}, key=len, reverse=True))

# How a follow-up says it goes on from what came before. Each pattern names the part it refers with:
# `ref` (a pronoun or "the other one", replaced by the thing it stands for) or `new` (what changes: an area,
# a device, a number, a unit, a reading).
FOLLOW_UPS = [re.compile(p) for p in (
    r"^(?:and |so )?(?:what|how much|how many) (?:would|will|does|is) (?P<new>\d+(?:\.\d+)?) (?:be|make|come to|give)$",
    r"^(?:and |so )?(?:what's|what is|what are) (?:that|it|this|they) (?:for|with) (?P<new>\d+(?:\.\d+)?)$",
    r"^(?:(?:and|now|ok|okay|then|so) )*(?:do|try) (?P<new>\d+(?:\.\d+)?)(?: please| then| instead)?$",
    r"^(?:and |now |also |ok |okay |so )?(?:what|how) about (?:in |for |on )?(?P<new>.+?)(?: then)?$",
    rf"^(?:and |now |ok |okay )?(?:(?:{'|'.join(ASKING_WRAPPERS)}) )?"
    r"(?:(?:do |the |do the )?(?:exact |very )?same (?:thing )?(?:for|in|with) |do (?:that|it|this) (?:for|in|with) )"
    r"(?P<new>.+?)(?: please| too)?$",
    r"^(?:and |so )?(?:what's|what is|how much is|how many is) (?:that|it|this) in (?P<new>.+?)$",
    # a unit alone ("in fahrenheit?", "in metres please"): the newest number the unit can be said of, in it
    rf"^(?:(?:so|ok|okay|now) )?in (?P<new>{_UNIT_SAID})(?: please| then| instead)?$",
    # the same asked of another part, said after it ("now do 250 grams the same way", "and the parlour lights, same")
    r"^(?:and |now |ok |okay |so )?(?:do |try )?(?P<new>.+?) (?:the )?same(?: way| again| thing)?(?: please| too)?$",
    r"^and (?:also )?(?:in |for |on |to )?(?P<new>.+?)(?: please| too| as well)?$",
    r"^(?:also |now )?(?P<new>.+?) (?:too|as well)(?: please)?$",
    r"^also (?:in |for |on |to )?(?P<new>.+?)(?: please)?$",
    r"^(?:(?:and|now|ok|okay|then|so) )*(?P<new>the [a-z ]+ 1)(?: please)?$",
    r"^(?:(?:and|now|ok|okay|then|so) )*(?P<new>the 1 in (?:the )?[a-z ]+?)(?: please| then| too)?$",
    r"^now (?P<new>(?:everything |all the [a-z]+ )?in [a-z ]+?)(?: please| then)?$",
    r"^(?:(?:and|ok|okay|then|so) )*now (?P<new>the [a-z ]+?)(?: please| then| too)?$",      # "now the landing"
    # a correction ("no, the bedroom one", "sorry, i meant the bathroom", "not that one, the hall one"): the newest
    # call with the part said in place of its own
    rf"^(?:(?:(?:{'|'.join(CORRECTING)}) )+(?:(?:{'|'.join(MEANT)}) )?|(?:{'|'.join(MEANT)}) )"
    r"(?P<new>(?:in |on )?the [a-z ]+?(?: 1)?)(?: instead| please| not that 1)*$",
)]
# A repair of the thing a request was taken to be about: a rejection ("not that one") or "i meant", then the thing meant
REPAIR = re.compile(rf"^(?:(?:{'|'.join(CORRECTING)}) )*(?:(?:(?:{'|'.join(sorted(REJECTING, key=len, reverse=True))}) )+"
                    rf"(?:(?:{'|'.join(MEANT)}) )?|(?:{'|'.join(MEANT)}) )(?P<new>(?:the )?[a-z][a-z1 ]*?)(?: instead| please)*$")
OTHER = re.compile(r"^the other(?: 1)?$")
# A new value for the thing a pronoun stands for ("make it 20 past 7 instead", "put it at 60", "change that to 5"),
# or for the alarm ("make the alarm quarter past"): the newest call the value fits, with the value changed
NEW_VALUE = re.compile(r"^(?:make|change|put|set|move|turn|bring|push|shift) (?:it|that|this|(?P<alarm>the alarm))(?: back)? "
                       r"(?:to |at |for |on |up to |down to )?(?P<new>.+?)(?: instead| then| please)*$")
# or for a thing the conversation acted on, said by its words ("the radiator, make it 19 instead": "make the
# radiator 19")
NEW_VALUE_OF = re.compile(r"^(?:make|change|put|set|move|turn|bring|push|shift) (?P<thing>the [a-z ]+?) "
                          r"(?:to |at |up to |down to )?(?P<new>\d+(?:\.\d+)?(?: percent| degrees?)?)(?: instead| then| please)*$")
# or a number said alone ("that's too much, 30 please", "back to 40", "down to 15")
BARE_VALUE = re.compile(r"^(?:just |maybe |try |say )?(?:(?:go |put |set )?back )?(?:(?:up |down )?to |at )?"
                        r"(?P<new>\d+(?:\.\d+)?(?: percent| degrees)?)(?: instead| then| please)*$")
# A clock time moved by a length ("make it 10 minutes earlier", said in seconds by the normaliser): the newest alarm
_ALARM_WAY = "|".join(way for ways in ALARM_WAYS.values() for way in ways)
ALARM_STEP = re.compile(r"^(?:(?:make|set|move|put|bring|push|shift) (?:it|that|the alarm) )?"
                        rf"(?:(?P<n>\d+(?:\.\d+)?) seconds (?P<way>{_ALARM_WAY})|(?P<before>{_ALARM_WAY}) (?:by )?"
                        r"(?P<m>\d+(?:\.\d+)?) seconds)$")
# A pronoun as the object of what the words ask ("turn it off", "is it locked", "cancel that one").
# The normaliser has written "one" as 1 by then.
REFERRING = re.compile(r"\b(?P<ref>the other 1|the other|the (?:first|second|last) 1|the first|that 1|this 1|"
                       r"(?:that|this|the other|the (?:first|second|last)) timer|it|that|they|them|this|those)\b"
                       r"(?=(?: back| again| still| now| then| please| both| off| on| up| down| to| a bit| a little| too| as well|"
                       r" in there| out there| over there|"
                       r" there| all| can| could| should| go| come| be| switched| turned| running| going| working)*\b"
                       r"(?: on| off| open| closed| locked| unlocked| up| down| brighter| dimmer| to \d| \d|$))")
# "they", "them", "those", "these" with any words after them ("what position are they at", "close them a bit more",
# "dim these"): a reference only to a thing whose name is plural, or a group (_pronoun); not "those of", "these ones"
PLURAL_REFERRING = re.compile(rf"\b(?P<ref>{'|'.join(PLURAL_PRONOUNS)})\b"
                              rf"(?!'| (?:of|1|ones|{'|'.join(PEOPLE_VERBS)})\b)")
# "the other light", "the first lamp": an ordinal reference said with a word of the things' kind (_pronoun)
ORDINAL_OF_A_KIND = re.compile(r"\bthe (?P<which>other|first|second|last) (?P<word>(?!1\b|timer\b)[a-z]+)\b")
# Verbs that say no action: a pronoun after one alone is no request to act on its thing ("do it", "sort it then")
SAYS_NO_ACTION = re.compile(r"^(?:do|sort|sort out|fix|handle|deal with)$")
# Which of the things acted on, newest first, a reference to one of several stands for
# A pronoun that says no more than "the newest thing": once another skill came after two things of a kind, each acted
# on alone, it singles neither out
BARE_REFERENCES = {"it", "that", "this", "that 1", "this 1"}
ORDINAL_REFERENCES = {"the other 1": 1, "the other": 1, "the first 1": -1, "the first": -1, "the second 1": -2,
                      "the last 1": 0, "the other timer": 1, "the first timer": -1, "the second timer": -2,
                      "the last timer": 0}
# A group of things said with a pronoun or alone ("turn them both off", "all of them"): GROUP_WORDS
GROUP = re.compile(rf"\b(?:{'|'.join(GROUP_WORDS)})\b")
QUESTION_OF_A_PLACE = re.compile(r"^(?:what's|what is|how's|how is|is|are) .+ in the [a-z ]+$")
# "one" said as a thing ("the office one", "that one", "and one for tomorrow"), which the normaliser writes as 1: no
# quantity
ONE_SAID = re.compile(r"\b(?:the|that|this|which|other|[a-z]+er) 1\b|\b1 (?:in|of|you|i|for)\b|\bthe [a-z]+ 1\b")
# the arguments of a call that say which thing it acts on
THING_KEYS = ("name", "device", "room", "area")
PLACE_OF = re.compile(r" in the [a-z ]+$")
# a group said alone as what is acted on, and a kind of thing said after it ("both lamps")
GROUP_OBJECT = re.compile(rf"\b(?P<group>{'|'.join(sorted(GROUP_ALONE, key=len, reverse=True))})(?: [a-z]+s)?\b")
GROUP_BEFORE = re.compile(rf"(?:^| )(?:{'|'.join(GROUP_WORDS)})(?: 1)? of $")
GROUP_AFTER = re.compile(rf"^ (?:{'|'.join(GROUP_WORDS)})\b")
# An unnamed timer ("cancel the timer", "how long is left on the timer")
THE_TIMER = re.compile(r"\bthe timer\b")
OFFERED_HELP = re.compile(rf"^(?:{'|'.join(OFFERS_OF_HELP)})\b")
# A value said again in place of the one just said ("22 no wait 21", "brighter uh no dimmer", "on sorry off")
_CORRECTABLE = r"\d+(?:\.\d+)?|on|off|up|down|brighter|dimmer|warmer|cooler|higher|lower|open|close"
SELF_CORRECTED = re.compile(rf"\b(?P<old>{_CORRECTABLE}) (?:(?:{'|'.join(SELF_CORRECTING)}) )+(?P<new>{_CORRECTABLE})$")
VALUE_SAID = re.compile(rf"\b(?:{'|'.join(SAID_VALUE)})\b")
RESULT_SAID = re.compile(rf"\b(?:{'|'.join(SAID_RESULT)})\b")
NUMBER_SAID = re.compile(r"-?\d+(?:\.\d+)?")
COMPARED = re.compile(rf"\bthe (?P<way>{'|'.join(w for ways in READING_COMPARATIVES.values() for w in ways)}) "
                      r"(?:1|room|place|area|spot)\b")
# A step asked for again ("a bit more", "even more", "again"): the newest call's step, the same way ("more" alone
# reads as brighter, after "dim the office lights")
STEP_AGAIN = re.compile(r"^(?:(?:a bit|a little|bit|little|just a bit|some|even|still) )?more(?: (?:please|again|still))?$"
                        r"|^(?:again|do that again|same again|once more|one more time)(?: please)?$")
# Arithmetic on the newest calculation's result ("and double that", "take 18 off it", "what's that times 4"): each
# pattern with the request it stands for, {x} the result as it was said, {n} the number the follow-up says.
_N = r"(?P<n>\d+(?:\.\d+)?)"
_RESULT = rf"(?:{'|'.join(RESULT_NOUNS)})"
_THAT = rf"(?:that|it|this|(?:the|that|this|your|the last) (?:earlier |last |previous |first )?{_RESULT}(?: from before| from earlier| you gave me| you gave| you said| before| earlier)*)"
ON_THE_RESULT = [(re.compile(pattern), request) for pattern, request in (
    (rf"^(?:double|twice) {_THAT}$|^{_THAT} doubled$", "what is {x} times 2"),
    (rf"^triple {_THAT}$|^{_THAT} tripled$", "what is {x} times 3"),
    (rf"^(?:what's |what is )?(?:halve|half|half of) {_THAT}(?: is what)?$|^{_THAT} halved$", "what is {x} divided by 2"),
    (rf"^(?:what's |what is )?(?:a |1 )?third of {_THAT}(?: is what)?$", "what is {x} divided by 3"),
    (rf"^(?:what's |what is )?(?:a |1 )?quarter of {_THAT}(?: is what)?$", "what is {x} divided by 4"),
    (rf"^square {_THAT}$|^{_THAT} squared$", "what is {x} squared"),
    (rf"^(?:take|knock|subtract|minus) {_N} (?:off|from|away from|off of) {_THAT}$", "what is {x} minus {n}"),
    (rf"^(?:take away|subtract|minus|less) {_N}$", "what is {x} minus {n}"),
    (rf"^(?:take away|subtract|deduct) {_N} (?:from|off) {_THAT}$", "what is {x} minus {n}"),
    (rf"^(?:add|put) {_N} (?:to|on to|onto|on) {_THAT}$", "what is {x} plus {n}"),
    (rf"^(?:plus|add) {_N}(?: more| on)?$", "what is {x} plus {n}"),
    (rf"^{_N} more$", "what is {x} plus {n}"),
    (rf"^(?:multiply|times) {_THAT} by {_N}$", "what is {x} times {n}"),
    (rf"^(?:times|multiplied by) {_N}$", "what is {x} times {n}"),
    (rf"^(?:divide|split|share) {_THAT} (?:(?:by|into|between|among) )?{_N}(?: [a-z]+){{0,2}}$", "what is {x} divided by {n}"),
    (rf"^divided by {_N}$", "what is {x} divided by {n}"),
    (rf"^(?:what's |what is |what does )?{_THAT} (?P<op>plus|minus|times|divided by|multiplied by)(?: by)? {_N}(?: make| come to| give)?$",
     "what is {x} {op} {n}"),
)]
# A heater of the user's own, by the last word of its name ("nursery radiator"): a new value for it is degrees
HEATER = re.compile(rf"\b(?:{'|'.join(DEVICES['heater'])})$")
# and a light of the user's own ("mushroom lamp", "fairy lights"): "a bit brighter" after it is switched steps it
LIGHT = re.compile(rf"\b(?:{'|'.join(DEVICES['light'])})$")
# A result said as the answer: the newest calculation's, past other calls
THE_ANSWER = re.compile(rf"\b{_RESULT}\b")
# A demonstrative: "that" of a sum's result, past a thing acted on since (which "it" stays with)
DEMONSTRATIVE = re.compile(rf"\b(?:{'|'.join(DEMONSTRATIVES)})\b")
# and said as a result where a request asks a sum or a conversion ("double that", "convert that to ounces", "add 6 to
# the total"); not "that's" (a remark), "that one" (a thing) nor "that many" (a result said as a count, _value_said's)
RESULT_POINTED = re.compile(rf"\b(?!(?:{'|'.join(SAID_RESULT)})\b)"
                            rf"(?:(?:the|that|this|your) {_RESULT}|(?:{'|'.join(DEMONSTRATIVES)})(?!')(?! 1\b))\b")
OPERATION_OF_ONE = re.compile(rf"\b(?:{'|'.join(OPERATIONS_OF_ONE)})\b")
OPERATION_OF_TWO = re.compile(rf"\b(?:{'|'.join(OPERATIONS_OF_TWO)})\b")
UNIT_SAID = re.compile(rf"\b(?:{_UNIT_SAID})\b")
# A step from the newest setting ("a degree higher than that", "2 degrees warmer", "10 percent brighter"): the unit
# said, the argument it steps, and the words for each way.
# ("1 more degree would be nice": "more" before the unit says up, and a step said as welcome asks for it)
STEP_FROM = re.compile(r"^(?:(?:make|put|set|turn|bring|take|push|nudge) (?:it|that) |go (?:up |down )?)?(?:(?P<n>\d+(?:\.\d+)?)|a|an|1|one) (?P<more>more )?"
                       r"(?P<unit>degrees?|percent)(?(more)(?: (?P<up>higher|warmer|hotter|up))?| (?P<way>higher|warmer|hotter|up|more|brighter|lower|cooler|colder|down|"
                       rf"less|dimmer))(?: than (?:that|it|before|now))?(?: still| again| please| {SAID_WELCOME})?$")
# the same said with a verb: "bump it up 2 degrees", "knock it down a degree"
STEP_BY = re.compile(r"^(?:make|put|set|turn|bring|bump|knock|push|nudge|take) (?:it|that) (?P<way>up|down) (?:by )?"
                     r"(?:(?P<n>\d+(?:\.\d+)?)|a|an|1|one) (?P<unit>degrees?|percent)$")
STEP_KEYS = {"degree": "degrees", "degrees": "degrees", "percent": "percent"}
STEP_DOWN = set(STEP_WAYS["down"])
# A clock time as the normaliser writes it ("20 past 7", "7 30", "quarter to 8 pm"): a new time for an alarm
CLOCK = re.compile(r"(?:(?:\d{1,2}|quarter|half) (?:past|to) \d{1,2}|\d{1,2}(?: \d{2})?)(?: (?:am|pm|o'clock))?")
# A timer said as what a thing owns: "cancel its timer" (the thing said before it)
OWNED_TIMER = re.compile(r"\b(?:its|their) timer\b")
# and one pointed at ("how's that timer doing"): the timer the conversation started last
POINTED_TIMER = re.compile(r"\b(?:that|this) timer\b")
# "in there", "out there": the place the conversation last acted in or asked about
THERE = re.compile(rf"\b(?:{'|'.join(SAID_PLACE)})\b")
# "the hall one", "the tea one": the thing the conversation used in that room, or the timer of that name
ONE_NAMED = re.compile(r"\bthe (?P<which>[a-z]+(?: [a-z]+)?) 1\b")
# A state said again ("back off", "on again"): no reference to what came before when the thing is named
STATE_AGAIN = re.compile(r"\bback (?=(?:on|off)\b)|(?<=\bon) (?:again|back)\b|(?<=\boff) (?:again|back)\b")
# An action said with no object ("stop", "turn off"): it acts on the newest thing, as "stop it" does
BARE_VERB = re.compile(r"^(?:stop|halt|pause|cancel|kill|open|close|shut|lock|unlock|dim|brighten|switch off|turn off|"
                       r"switch on|turn on)$")
# A light made brighter or dimmer with no light said ("a bit dimmer than that", "a bit more than that"), after a light
# was used: a step of it, up for the words of STEP_UP
STEP_ALONE = re.compile(r"^(?:(?:a bit|a little|bit|little|much|even|still|a lot) )?(?P<way>brighter|dimmer|darker|more|higher|"
                        r"less|lower)"
                        r"(?: than (?:that|it|this|before|now))?(?: still)?$")
STEP_UP = {"brighter", "more", "higher"}
LIGHT_STEPS = {"set_level": "change_level", "change_level": "change_level", "set_brightness": "change_brightness",
               "change_brightness": "change_brightness", "set_device": "change_brightness"}
# Words said before a follow-up that carry nothing: dropped from the rewritten request.
FILLERS = re.compile(r"^(?:(?:actually|oh|wait|no|nah|hmm|um|uh|er|erm|ah|oops|whoops|hang on|hold on|sorry|ok|okay|never mind|"
                     r"nevermind|on second thoughts?|"
                     r"and|then|now|so|please|parley)\s+)+")
TIMER_WORDS = re.compile(rf"\b(?:{'|'.join(TIMER_VERBS)}|left|remaining|long|timer|countdown|much time|how much longer)\b")
NOT_A_REFERENCE = re.compile(r"\b(?:what time is it|what day is it|what's it like|is it (?:warm|cold|hot|humid))\b")
# Words with which a request leans on what came before; a request with none of them is read alone.
LEANS_BACK = re.compile(r"\b(?:it|that|them|those|this|there|1|another|other|too|also|again|same|instead|as well|"
                        r"yes|yeah|yep|no|nope|sure)\b|"
                        r"^(?:what about|how about|in|on|for|at|to|the|but)\b")
# and a step with which it leans back when it names no thing ("a bit brighter"; "dim the bunting a bit" is read alone)
STEP_LEANS_BACK = re.compile(r"\b(?:a bit|a little|a touch|brighter|dimmer|more|less)\b")
LEADING = re.compile(rf"^(?:(?:{'|'.join(JOINING_WORDS)})\s+)+")
# and a loose speaker's opening words, after any of them ("and uh while you're at it turn ...")
LOOSE = re.compile(rf"^((?:(?:{'|'.join(JOINING_WORDS)}) )*)(?:(?:{'|'.join(LOOSE_OPENERS)}) )+")
# what was said or done of a thing, said after it ("the 1 you just mentioned", "the telly you put on earlier")
MENTION = re.compile(rf"(?<=\bthe )(?:[a-z0-9]+ ){{1,3}}?(?P<clause>(?:that |which )?(?:you|i) (?:just |already )?"
                     rf"(?:{'|'.join(MENTIONED)})(?: (?:earlier|before|just now|a minute ago|a moment ago|to me))*)\b")
# a clause that leaves a thing as it is, after an action on another ("put the light back on, leave the fan")
_LEAVING = '|'.join((*LEAVING, *KEEPING))
LEFT_BESIDE = re.compile(rf"(?: (?P<join>{'|'.join(LEAVING_JOINS)}))? (?:{_LEAVING}) "
                         r"(?:the [a-z0-9 ]+?|it|that|them|the other(?: 1)?)"
                         r"(?: (?:on|off|open|closed|shut|alone|as it is|as they are|be|running|going|please))*$")
LEFT_AFTER_A_COMMA = re.compile(rf",\s*(?:{_LEAVING})\b")
PRONOUN_OBJECT = re.compile(rf"\b(?:{'|'.join(PRONOUN_OBJECTS)})\b")
THE_ONE = re.compile(r"\bthe (?:1|thing|same 1)$")
# words that add a thing to what was done, with nothing left to lean back on once the thing is placed
ADDING = re.compile(r"\s+(?:too|as well|also)\b|^also\s+")
# Words said after a follow-up's pronoun that the self-contained request does without.
TRAILERS = re.compile(r"(?:\s+(?:again|back|please|now|then|there|all))+(?=\s+(?:on|off|up|down)\b|$)")

# A call said back as the request a user would make for it.
REQUESTS = {
    "set_device": "turn {state} the {room} {device}",
    "set_brightness": "set the {room} lights to {percent} percent",
    "change_brightness": "make the {room} lights {direction}",
    "read_sensor": "what's the {kind} in the {room}",
    "set_thermostat": "set the {thermostat}{in_area} to {degrees} degrees",
    "convert": "convert {value} {from} to {to}",
    "switch_device": "turn {state} the {name}{in_area}",
    "switch_all": "turn {state} {name}{in_area}",
    "set_level": "set the {name}{in_area} to {percent} percent",
    "change_level": "make the {name}{in_area} {direction}",
    "get_state": "is the {name}{in_area} on",
    "reading": "what's the {name}{in_area}",
    "set_cover": "{action} the {name}",
    "set_lock": "{action} the {name}",
    "set_timer": "set a timer for {seconds} seconds",
    "start_timer": "start a {name} timer for {seconds} seconds",
    "timer_left": "how long is left on the {name} timer",
    "stop_timer": "cancel the {name} timer",
    "activate_scene": "activate {name}",
    "set_device_mode": "set the {name}{in_area} to {mode} mode",
    "get_device_mode": "what {part}mode is the {name}{in_area} in",
    "control_media": "{action} the {name}{in_area}",
    "set_volume": "set the {name}{in_area} volume to {percent} percent",
    "change_volume": "make the {name}{in_area} {volume}",
    "get_media": "{asked} the {name}{in_area}",
    "get_target_temperature": "what is the {name}{in_area} set to",
    "get_target_humidity": "what humidity is the {name}{in_area} set to",
    "get_cover_position": "what position is the {name}{in_area} at",
    "get_level": "what level is the {name}{in_area} at",
    "command_vacuum": "tell the {name}{in_area} to {command}",
    "press_button": "press the {name}{in_area}",
}
DIRECTION_WORDS = {"up": BRIGHTER[0], "down": DARKER[0]}
# Round 17: follow-ups that do not guess (the words are tables of assistant/vocabulary.py, block "follow-ups (round 17)")
_WHAT = rf"(?:{'|'.join(PRONOUN_OBJECTS)}|the other 1|the other)"
UNDO = re.compile(rf"^(?:(?:{'|'.join(ASKING)}) )*(?:(?:{'|'.join(UNDOING)})(?: {_WHAT}| (?:{'|'.join(UNDO_WHAT)}))?"
                  rf"(?: {_WHAT})?(?: (?:{'|'.join(AS_IT_WAS)}))?|(?:{'|'.join(RESTORING)})(?: {_WHAT})? "
                  rf"(?:{'|'.join(AS_IT_WAS)}))(?: before)?(?: please)?$")
# a clock read asked again of another place or day ("and in london", "what about saturday", clock_asked_again)
CLOCK_ASKED_AGAIN = re.compile(rf"^(?:{'|'.join(CLOCK_FOLLOW_UPS)}) (?:(?:in|on|for) )?(?P<what>[a-z0-9' ]+?)"
                               rf"(?: then| please)?$")
# a floor said before a place ("upstairs in the bedroom", _level_said), and a request for an alarm (_answered)
FLOOR_BEFORE = re.compile(rf"\b(?:{'|'.join(FLOOR_WORDS)}) (?P<place>(?:in|on) (?:the )?(?P<room>[a-z ]+))$")
ALARM_REQUESTED = re.compile(rf"\b(?:{'|'.join(ALARM_REQUEST_WORDS)})\b")
# a thing's state before said at the end of a request ("put the blind back how they were")
AS_IT_WAS_ENDING = re.compile(rf"\b(?:{'|'.join(sorted(AS_IT_WAS, key=len, reverse=True))})$")
LEAVE = re.compile(rf"^(?:(?:{'|'.join(AGREEING)}) )*(?:just |you can |please )?(?:{'|'.join(LEAVING)}) "
                   rf"(?P<what>{_WHAT}|the [a-z]+(?: [a-z]+){{0,2}})"
                   rf"(?: (?:on|off|open|closed|shut|locked|unlocked|alone|be|{'|'.join(HOLDING)}|then|now|"
                   r"for now|please|running|going))*$"
                   rf"|^(?:(?:{'|'.join(AGREEING)}) )*(?:{_WHAT}|the [a-z]+(?: [a-z]+){{0,2}}) (?:{'|'.join(STAYING)})"
                   r"(?: (?:on|off|open|closed|shut|locked|unlocked|as it is|then|for now))*$")
# A thing's setting asked of the newest call ("what is it set to", "what humidity is it at", "what's the volume now")
_SETTING_WORDS = "|".join(sorted({word for word, _ in SETTING_READS.values()}))
SETTING_QUESTION = re.compile(
    rf"^(?:and |so )?what(?:'s| is| are)?(?: (?P<word>{_SETTING_WORDS}))?(?: is| are|'s)? (?:it|that|they|them)"
    rf"(?: (?P<end>{'|'.join(SETTING_ASKED_ENDS)}))?(?: now| then)?$"
    rf"|^(?:and |so )?what(?:'s| is| are) the (?P<named>{_SETTING_WORDS})(?: (?P<target>{'|'.join(TARGET_ASKED)}))?"
    rf"(?: now| then)?$")
PLAYER_ASKED_AGAIN = re.compile(rf"^(?:(?:{'|'.join(PLAYER_AGAIN_OPENERS)}) )?(?:(?:{'|'.join(PLAYER_AGAIN_PLACES)}) )?"
                                rf"(?:the )?(?P<part>[a-z0-9' ]+?)(?: too| then)?$")
HELD = re.compile(rf"\b(?:{'|'.join(HOLDING)})\b")
SAME_AGAIN = re.compile(rf"^(?:{'|'.join(AGAIN)})(?: please)?$")
SAME_AGAIN_WITH = re.compile(rf"^(?:{'|'.join(AGAIN)}),? (?:{'|'.join(AGAIN_WITH)}) (?P<new>.+?)(?: please| instead)?$")
TOO_MUCH_SAID = re.compile(rf"^(?:{'|'.join(TOO_MUCH_SUBJECTS)}) (?:(?:a bit|a little|way|far|much|still) )?too "
                           rf"(?P<way>{'|'.join(TOO_MUCH)})(?: now| still| in here)?$")
# The words of asking before a request ("could you make it quarter to 7 instead"): they change nothing it asks
ASKED_FOR = re.compile(rf"^(?:(?:{'|'.join(sorted(ASKING_WRAPPERS, key=len, reverse=True))}) )+")
# A reading's quality or change said of "it", "there" or the kind read ("has the humidity dropped") in a question
# (READING_QUALITIES, READING_CHANGES)
_QUALITY = {word: kind for kind, words in READING_QUALITIES.items() for word in words} | \
    {word: kind for (kind, _), words in READING_COMPARATIVES.items() for word in words}
READING_ASKED = re.compile(rf"\b(?:it|there|the (?P<kind>{'|'.join(SENSOR_KINDS)}))\b.*"
                           rf"\b(?:(?P<change>{'|'.join(READING_CHANGES)})|"
                           rf"(?P<quality>{'|'.join(sorted(_QUALITY, key=len, reverse=True))}))\b")
# How a place is, asked with the place's "it" or with the subject left out ("and how humid", "how damp is it down
# there"): a quality of a reading, a frame, a place (AMBIENT_FRAMES, AMBIENT_PLACES); "it" names no thing here
AMBIENT_ASKED = re.compile(rf"^(?:and |so |but |ok |okay )?how (?P<quality>{'|'.join(sorted(_QUALITY, key=len, reverse=True))})"
                           rf"(?: (?:{'|'.join(AMBIENT_FRAMES)}))?(?P<there> (?:{'|'.join(AMBIENT_PLACES)}))?"
                           rf"(?: (?:now|today|at the moment))?$")
# A word said twice over ("stop, stop", "off off"): said once
SAID_TWICE = re.compile(r"\b([a-z]+)(?: \1\b)+")
ASKED_AGAIN_NOW = re.compile(rf"^(?:{'|'.join(ASKED_AGAIN)})(?: please| then)?$"
                             # any one verb asked of it now: "what's it reading now", "how's it looking now"
                             r"|^(?:what's|what is|what does|how's|how is|how does) (?:it|that) [a-z]+ now$")
ANOTHER_TIMER = re.compile(rf"^(?:and )?(?:{'|'.join(ANOTHER)}) (?:for )?(?:(?:the |a )?(?P<label>[a-z ]+?) )?"
                           r"(?P<n>\d+(?:\.\d+)?)(?P<unit> seconds)?(?: please| then)?$"
                           rf"|^(?:and )?(?:another|a|1 more|add a|add another) (?P<length>\d+(?:\.\d+)?) seconds? "
                           r"(?:1|timer)(?: please| then)?$")
# or said as what a thing wants, by its label ("the beans want one too, 5 minutes")
WANTS_ANOTHER = re.compile(rf"^(?:and )?(?:the |my )?(?!(?:{'|'.join(REASON_SUBJECTS)})\b)(?P<label>[a-z]+(?: [a-z]+)?) "
                           rf"(?:{'|'.join(WANTING)}) "
                           rf"(?:{'|'.join(ANOTHER)})(?: too| as well)?(?: for)? (?P<n>\d+(?:\.\d+)?)(?P<unit> seconds)$")
MULTIPLE = re.compile(rf"^(?:(?:make|give|set|put) )?(?:{_WHAT} |the (?P<thing>[a-z ]+?) )?(?:needs |wants |takes |for |to |at )?"
                      rf"(?P<times>{'|'.join(MULTIPLES)}) as (?P<what>{'|'.join(MULTIPLIED)})(?: please)?$"
                      rf"|^(?P<verb>{'|'.join(MULTIPLES)}) (?:{_WHAT}|the (?P<named>[a-z ]+?))(?: please)?$")
# "and times 8" after "what's 12 times 7": the same sum with its second number changed; "times 8" alone goes on
# from the result (ON_THE_RESULT)
OPERAND = re.compile(r"^(?:and |and what about |and how about |what about |how about )(?P<op>times|multiplied by|plus|minus|divided by|over|by) "
                     r"(?P<n>\d+(?:\.\d+)?)$")
OPERATORS = {"times": "*", "multiplied by": "*", "plus": "+", "minus": "-", "divided by": "/", "over": "/"}
# A step said in a light's own words ("a bit darker"), and its way
LIGHT_WAYS = {**dict.fromkeys(BRIGHTER, "up"), **dict.fromkeys(DARKER, "down")}
# and a light's way said in a fragment ("the salt lamp a touch dimmer", "office up a bit")
FRAGMENT_WAYS = {**LIGHT_WAYS, **{way: way for way in TOWARDS}}
# Each skill's call that takes back another: a state, an action or a direction turned round
OPPOSITES = {"state": {"on": "off", "off": "on"}, "action": {"open": "close", "close": "open", "lock": "unlock",
                                                            "unlock": "lock"}, "direction": {"up": "down", "down": "up"}}
# An answer to a question or a refusal ("ok the hallway one then"): the words around the part it gives
ANSWER_HEAD = re.compile(rf"^(?:(?:{'|'.join(AGREEING)}|{'|'.join(MEANT)}|now|just|well|what about|how about|try|"
                         r"make it|set it to|say) )+")
QUESTION = re.compile(r"^(?:is|are|was|were|has|have|did|does|do) ")
# A question of how a thing is, asked of a pronoun at the end ("how about the office, is it cold too"; not "is it
# cold in here, put the heater on")
ASKS_OF_IT = re.compile(r"\b(?:is|are) (?:it|they)(?: [a-z']+){0,3}$")
_CHECKING = rf"(?:(?:{'|'.join(ASKING)}) )*(?:{'|'.join(sorted(CHECKING, key=len, reverse=True))})"
YES_OR_NO = re.compile(rf"^(?:{'|'.join(YES_NO_OPENERS)}|{_CHECKING})\b")
ASKS = re.compile(rf"^(?!{'|'.join(SAME_AGAIN_OPENERS)}\b)(?:{'|'.join(QUESTION_OPENERS)}|{_CHECKING})\b")
ANSWER_TAIL = re.compile(r"(?: (?:then|please|instead|one then|thanks))+$")
# the thing a request names: "the" and its words, up to a particle, a place or the end
THING = re.compile(r"\bthe (?P<thing>[a-z]+(?: [a-z]+)*?)(?= (?:on|off|up|down|in|to|at|for|please|now)\b|$)")
# the choices of the assistant's question of which thing (tools.CHOICE_QUESTION), and a number said with an answer
# to it ("the radiator, and make it 18")
CHOICE_SPLIT = re.compile(r", | or ")
CHOICE_NUMBER = re.compile(r"(?P<part>.+?)(?: and| but)? (?:make it|set it to|at) (?P<n>\d+(?:\.\d+)?)")
# words of a follow-up's part that say something the vocabulary reads, or lean back ("the humidity in there")
KNOWN_PART_WORDS = {*SENSOR_KINDS, "humid", "temp", "there", "here", "same", "room", "it", "that", "this", "other"}
SWITCH_ALL_WORDS = {"everything": "everything", "light": "all the lights", "lights": "all the lights"}
# Round 19: a fragment completed from the state. The skill each part asks for, in the default home and in the user's
# own (a number by the kind of the thing it sets); the arguments each skill takes from the parts.
FRAGMENT_SKILLS = {True: {"state": "set_device", "number light": "set_brightness", "number climate": "set_thermostat",
                          "direction light": "change_brightness"},
                   False: {"state": "switch_device", "open": "set_cover", "close": "set_cover", "lock": "set_lock",
                           "unlock": "set_lock", "number light": "set_level", "number climate": "set_thermostat",
                           "direction light": "change_level"}}
SKILL_PARTS = {"set_device": {"state": "state"}, "switch_device": {"state": "state"}, "switch_all": {"state": "state"},
               "set_brightness": {"percent": "number"}, "set_level": {"percent": "number"},
               "set_thermostat": {"degrees": "number"}, "change_level": {"direction": "direction"},
               "change_brightness": {"direction": "direction"}, "set_cover": {"action": "action"},
               "set_lock": {"action": "action"}, "set_device_mode": {"mode": "mode"},
               "get_device_mode": {"part": "part"},
               # a media player's: its control and its question never said by a fragment, kept from the call
               "control_media": {"action": "media control"}, "set_volume": {"percent": "number"},
               "change_volume": {"direction": "direction"}, "get_media": {"asked": "media question"},
               "command_vacuum": {"command": "vacuum command"}}      # never said by a fragment: "and dusty" starts it


class Declined(str):
    """What the assistant says instead of a call when a follow-up's words do not single out one thing to act on,
    or ask for nothing: a question ("Which one do you mean, ...?") beats a call on the wrong thing."""


class Unplaced(Declined):
    """A place said that no call of the conversation has a place for ("and the bedroom" after the thermostat; "the
    one in the cellar" after a switch of the user's home, whose calls name things, not places): its self-contained
    reading may still name a thing there (standalone)."""


@dataclass(frozen=True)
class Target:
    """A thing the conversation acted on or asked about, as it would be said ("the pasta timer")."""
    words: str
    timer: bool


class Calls(list):
    """The history's calls, oldest first, with the place of the reply that made each (`turns`): the calls of one
    reply were asked for together, and none of them is the newer one that a pronoun stands for."""

    def __init__(self, calls: Iterable[dict] = (), turns: Iterable[int] = ()):
        super().__init__(calls)
        self.turns = list(turns)


def calls_of_history(history: list[dict]) -> Calls:
    """The history's tool calls as {"name", "arguments"}, oldest first, the newest MAX_CALLS; a call on a device of the
    default home that the user's words before it said in the plural only ("turn on the kitchen lights") says so, with
    "plural": its call names the device in the singular, as the default home does."""
    made, said = [], ""
    for turn, message in enumerate(history):
        if message.get("role") == "user":
            said = content_text(message).lower()
        elif message.get("role") == "assistant":
            made += [(_said_in_plural(call, said), turn) for call in _assistant_calls(message)]
    made = made[-MAX_CALLS:]
    return Calls((call for call, _ in made), (turn for _, turn in made))


def _said_in_plural(call: dict, said: str) -> dict:
    """The call, with "plural" when it acts on or asks about a device of the default home that said names by a plural
    word of it alone ("lights", "lamps", "fans"; no "light" or "lamp" beside them)."""
    device = (call["arguments"].get("device") or call["arguments"].get("name")) \
        if call["name"] in ("set_device", "get_state", "get_level") else None
    if not isinstance(device, str) or device not in DEVICES:      # a client's history may hold any value
        return call
    found = [word for word in DEVICES[device] if re.search(rf"\b{word}\b", said)]
    return {**call, "plural": True} if found and all(says_many(word) for word in found) else call


def target_of(call: dict) -> Target | None:
    """What a call acts on, in words; None for a call that acts on nothing (a sum, the time)."""
    name, args = call["name"], call["arguments"]
    if name in TIMER_SKILLS:
        label = args.get("name")
        return Target(f"the {str(label).replace('_', ' ')} timer" if label else "the timer", True)
    if name in ("command_vacuum", "press_button"):       # "pause it", "send it home" after the vacuum was started
        return Target(f"the {str(args['name']).replace('_', ' ')}", False)
    if name == "set_thermostat":          # a user's heater by its name or its area ("make it 20" after it was set)
        heater = str(args.get("name") or "thermostat").replace("_", " ")
        area = str(args.get("area") or "").replace("_", " ")
        return Target(f"the {heater}" + (f" in the {area}" if area else ""), False)
    room = _room_spoken(args.get("room") or args.get("area"))
    if name == "switch_all":              # "put them all back on" after all the lights were switched off
        area = str(args.get("area") or "").replace("_", " ")
        return Target(SWITCH_ALL_WORDS.get(args["name"], f"all the {args['name']}") + (f" in the {area}" if area else ""),
                      False)
    if name == "get_state" and args.get("name") in SENSOR_KINDS:      # a reading, as read_sensor's: nothing to act on
        return None
    if name == "set_device" or (name in ("get_state", "get_level", *COLOUR_SKILLS) and args.get("name") in DEVICES):
        device = DEVICE_SPOKEN.get(args.get("device") or args.get("name"), "") + ("s" if call.get("plural") else "")
        return Target(f"the {room} {device}".replace("  ", " "), False)
    if name in ("set_brightness", "change_brightness"):
        return Target(f"the {room} lights", False)
    if name in THING_NAMED and name != "activate_scene" and args.get("name"):     # what it set or was asked about
        area = str(args.get("area") or "").replace("_", " ")
        return Target(f"the {str(args['name']).replace('_', ' ')}" + (f" in the {area}" if area else ""), False)
    return None


def _room_spoken(room) -> str:
    """A room of the default home as said, from the call syntax's spelling ("living_room") or the words a client's
    history may carry ("living room"); "" for none."""
    return ROOM_SPOKEN.get(str(room or "").replace(" ", "_"), "")


def request_for(call: dict) -> str | None:
    """The words of a self-contained request for the call; a value the vocabulary lacks (a client's history
    may hold any) is said as it is."""
    # a reading by its kind, or a sensor of the user's home named by it ("the cellar humidity"): asked what, not if on
    reading = call["name"] == "get_state" and str(call["arguments"].get("name")).rpartition(" ")[2] in SENSOR_KINDS
    template = REQUESTS.get("reading" if reading else call["name"])
    if template is None:
        return None
    args = {key: str(value).replace("_", " ") for key, value in call["arguments"].items()}
    args["room"] = _room_spoken(call["arguments"].get("room")) or args.get("room", "")
    args["device"] = DEVICE_SPOKEN.get(call["arguments"].get("device", ""), args.get("device", ""))
    area = args.get("area")
    args["in_area"] = f" in the {ROOM_SPOKEN.get(call['arguments'].get('area'), area)}" if area else ""
    args["thermostat"] = args.get("name", "thermostat")
    args["part"] = f"{args['part']} " if args.get("part") else ""       # "what fan mode is the thermostat in"
    if call["name"] in MEDIA_SKILLS:      # "play the next track on the tv", "make the tv louder"
        args.update({key: MEDIA_REQUEST_WORDS[call["name"]].get(value, value) for key, value in args.items()
                     if key in ("action", "asked")})
        args["volume"] = MEDIA_REQUEST_WORDS[call["name"]].get(args.get("direction", ""), "")
    if call["name"] == "command_vacuum":      # "tell the dusty to return to its dock"
        args["command"] = VACUUM_COMMANDS_SAID.get(call["arguments"].get("command"), args.get("command", ""))
    if "direction" in args:
        args["direction"] = DIRECTION_WORDS.get(args["direction"], args["direction"])
    if call["name"] == "switch_all":
        args["name"] = SWITCH_ALL_WORDS.get(args["name"], f"all the {args['name']}")
    for key in ("from", "to"):
        if key in args:
            args[key] = UNIT_NAMES.get(args[key], (args[key], args[key]))[1]
    for key in ("value", "percent", "degrees", "seconds"):
        if key in args and args[key].endswith(".0"):
            args[key] = args[key][:-2]
    return template.format_map(_Missing(args))


class _Missing(dict):
    def __missing__(self, key):
        return ""


class Vocabulary:
    """The words a follow-up's new part may be, each with the argument it sets: the default home's rooms
    and devices, or the user's own areas and names (lexicon); units, sensor readings and numbers."""

    def __init__(self, lexicon: tuple[set, set] | None):
        self.lexicon = lexicon
        self.names, self.areas = lexicon if lexicon else (set(), set())
        # each name's component and area (a Lexicon's; a bare (names, areas) pair has neither)
        self.kinds, self.places = getattr(lexicon, "kinds", {}), getattr(lexicon, "places", {})
        self.named_kinds = getattr(lexicon, "named_kinds", {})   # "the air conditioner": a kind a name of its own says
        self.rooms = {phrase: room for room, phrases in ROOMS.items() for phrase in phrases}
        self.devices = {phrase: device for device, phrases in DEVICES.items() for phrase in phrases}
        self.units = {phrase: unit for unit, phrases in UNIT_WORDS.items() for phrase in phrases if len(phrase) > 2}
        # the most words of a room, a device, a name or an area (a Lexicon knows its own)
        self.longest = max(getattr(lexicon, "longest", MAX_NAME_WORDS) if lexicon else 0,
                           *(phrase.count(" ") + 1 for phrase in (*self.rooms, *self.devices)))

    def names_a_thing(self, words: str) -> bool:
        """The words name a room, a device, or a name or an area of the user's own home (looked up phrase by
        phrase: a home of 2,000 long names has 110,000 phrases)."""
        said = words.split()
        return any(self.knows(" ".join(said[i:j])) for i, j in self.spans(said, range(len(said))))

    def knows(self, phrase: str) -> bool:
        """The phrase is a room, a device, or a name or an area of the user's own home."""
        return phrase in self.names or phrase in self.areas or phrase in self.rooms or phrase in self.devices

    def spans(self, words: list[str], starts: Iterable[int]) -> Iterator[tuple[int, int]]:
        """(start, end) of each run of words from one of starts, no longer than the longest phrase known."""
        for i in starts:
            for j in range(i + 1, min(i + self.longest, len(words)) + 1):
                yield i, j

    def read(self, words: str) -> tuple[str, object] | None:
        """(kind, value) of a follow-up's new part: area, device, name, number, unit or kind; None if it is
        not one thing the vocabulary knows."""
        words = re.sub(r"^(?:what's |what is |how's |how is |do |try |now do )?(?:(?:out|up|down|over|back) )?"
                       r"(?:the |my |our |in the |for the |in |on )?(?:(?:other )?1 in (?:the )?)?", "", words)
        words = re.sub(r" (?:1|ones|please|then|of them|of those|of these)$", "", words).strip()
        if re.fullmatch(r"\d+(?:\.\d+)?", words):
            return "number", float(words)
        if re.fullmatch(rf"(?:{'|'.join(BELOW_ZERO)}) \d+(?:\.\d+)?", words):      # "and minus 5": only a quantity
            return "below zero", -float(words.split()[1])
        if words in self.areas:
            return "area", words
        if words in self.names:
            return "name", words
        if (typed := getattr(self.lexicon, "unspaced", {}).get(words.replace(" ", ""))) in self.names:
            return "name", typed           # a name typed joined or without its apostrophe: "and nans"
        if words in self.rooms:
            return "room", self.rooms[words]
        if words in self.devices:
            return "device", self.devices[words]
        if words in self.units:
            return "unit", self.units[words]
        if words in SENSOR_KINDS or words in ("humid", "temp"):
            return "kind", "humidity" if words.startswith("humid") else "temperature"
        kind, _, area = words.partition(" in ")          # "the heater in the still room": a heater by its area
        if area.removeprefix("the ") in self.areas and (kind in DEVICES["heater"] or kind == "thermostat"):
            return "name", words
        return None


# Which argument of which skills each kind of new part replaces.
REPLACES = {
    "room": {"set_device": "room", "set_brightness": "room", "change_brightness": "room", "read_sensor": "room",
             "get_state": "area", "switch_all": "area", "get_level": "area"},
    "area": {"switch_all": "area", "get_state": "area", "set_thermostat": "area", "get_level": "area"},
    "device": {"set_device": "device", "get_level": "name"},
    # every skill on a thing of the home by its name that a request says: "and the nursery one" after the bedroom
    # humidifier's target (another scene is _scene_instead's)
    "name": {skill: "name" for skill in THING_NAMED if skill in REQUESTS and skill != "activate_scene"},
    "number": {"convert": "value", "set_thermostat": "degrees", "set_brightness": "percent", "set_level": "percent",
               "set_volume": "percent"},
    "below zero": {"convert": "value"},
    "unit": {"convert": "to"},
    "kind": {"read_sensor": "kind"},
}
NUMBER_KEYS = {"value", "degrees", "percent", "seconds"}


def _with(call: dict, key: str, value) -> dict:
    arguments = dict(call["arguments"])
    if call["name"] == "get_state" and key == "area" and arguments.get("name") not in (*DEVICES, *SENSOR_KINDS):
        # a user's own device is named, not placed: "and the gallery" is no help; a reading named with its kind
        # ("the larder humidity") is that kind in the area said ("and in the cellar")
        said = str(arguments.get("name")).replace("_", " ").split()
        kind = next((word for word in said if word in SENSOR_KINDS), None)
        if kind is None:
            return {}
        arguments["name"] = kind
    if call["name"] == "set_thermostat" and key in NAME_ARGUMENTS:
        for other in NAME_ARGUMENTS.keys() - {key}:              # a heater by its name or by its area, not both
            arguments.pop(other, None)
    arguments[key] = int(value) if key in NUMBER_KEYS and float(value).is_integer() else value
    if key == "name":
        arguments.pop("area", None)
    return {"name": call["name"], "arguments": arguments}


def resolve(history: list[dict], lexicon: tuple[set, set] | None = None) -> list[dict]:
    """The history to prompt with: a follow-up rewritten, against the calls before it, into the request it
    stands for, alone; any other request as it is, with the history before it (also one declined)."""
    resolved = _read_once(history, lexicon)
    return history if isinstance(resolved, Declined) else resolved


def declined(history: list[dict], lexicon: tuple[set, set] | None = None) -> Declined | None:
    """What to say, with no call, to a follow-up that does not single out one thing (see Declined); None when the
    follow-up is read (resolve)."""
    resolved = _read_once(history, lexicon)
    return resolved if isinstance(resolved, Declined) else None


def unsupported(history: list[dict], call: dict, lexicon: tuple[set, set] | None = None) -> Declined | None:
    """What to say instead of the model's call for a follow-up no rule read (the model read the whole conversation),
    when the words and the conversation's calls do not support it: a number the follow-up does not say as a
    quantity ("the office one" is no 1) and no earlier call has, or a thing the follow-up does not name and the
    conversation did not act on; for any follow-up, a state or an action the words say the opposite of, or one
    they do not say of a thing the skill does not act on (_unsaid_move). None when
    the call is supported, is a client's own tool's, or the follow-up was read by a rule."""
    calls = calls_of_history(history[:-1])
    # a client's own tool: its words; a first turn. After turns that made no call ("remind me to water the plants"
    # refused) a number still has to be said ("and one for tomorrow at nine" set an alarm for 1:09)
    if call["name"] not in SKILLS or len(history) < 3:
        return None
    said = normalize_request(content_text(history[-1]))
    # an answer to "Which one: ...?" says the request asked, with the thing chosen ("the heat pump": turn it off)
    moved = chosen_request(history, lexicon) or said
    if _contradicts(said, call) or _unsaid_move(moved, call, Vocabulary(lexicon)):   # read by a rule or not: "close
        return Declined("Sorry, I'm not sure what you'd like there.")           # it back up" is never opened
    return None if len(resolve(history, lexicon)) == 1 else _unsupported_parts(said, calls, call)


def _unsupported_parts(said: str, calls: list[dict], call: dict) -> Declined | None:
    """What to ask when a part of the call is neither said nor in an earlier call: a number not said as a
    quantity, a thing not named (see unsupported)."""
    quantities = {float(n) for n in NUMBER_SAID.findall(ONE_SAID.sub("", said))} | \
        {float(percent) for share, percent in SHARES if re.search(rf"\b(?:to|at) {share}\b", said)}   # "to half"
    known = {float(value) for earlier in calls for value in earlier["arguments"].values()
             if isinstance(value, (int, float)) and not isinstance(value, bool)}
    words = {str(value).replace("_", " ") for earlier in calls for value in earlier["arguments"].values()}
    for key, value in call["arguments"].items():
        if isinstance(value, bool):
            continue
        if isinstance(value, (int, float)) and float(value) not in quantities | known:
            return Declined("Sorry, I'm not sure what you'd like there.")
        if key in THING_KEYS and isinstance(value, str) and value.replace("_", " ") not in words \
                and not re.search(rf"\b{re.escape(value.replace('_', ' '))}\b", said) \
                and not re.search(rf"\b{re.escape(DEVICE_SPOKEN.get(value, value).lower())}\b", said):
            return Declined("Sorry, I'm not sure which one you mean.")
    return None


def misread(history: list[dict], call: dict, lexicon: tuple[set, set] | None = None) -> bool:
    """Whether the model's call for a follow-up answers a question ("did you turn it off") by a change, or, for one
    no rule read, a request by a reading, or acts on a thing of the user's home of a kind its skill does not act on
    (a light locked). A client's own tool's call is its own reading."""
    if call["name"] not in SKILLS or not calls_of_history(history[:-1]):
        return False
    said = FILLERS.sub("", normalize_request(content_text(history[-1])))
    asks = ASKS.match(said) is not None
    changes = call["name"] not in NOT_CHANGES
    if asks and changes or len(resolve(history, lexicon)) == 1:
        return asks and changes
    return not asks and not changes or _misfits(call, Vocabulary(lexicon))


def _contradicts(said: str, call: dict) -> bool:
    """The call's state or action is not one the follow-up says, and it says another ("close it back up" opened)."""
    words = [ACTION_PARTS[word] for word in said.split() if word in ACTION_PARTS]
    return any(key in call["arguments"] and (key, call["arguments"][key]) not in words
               for key in {key for key, _ in words})


def _unsaid_move(said: str, call: dict, vocabulary: Vocabulary) -> bool:
    """A state or an action set on a thing of the user's home of a kind the skill does not act on, when no word says
    a state or an action and no verb of the words acts on things of that kind: "turn it down" after the jukebox was
    switched on, read as the jukebox closed (the runner would switch it off), "turn the stove down" as the stove
    closed. "Start it up" (a verb of a switch) and "make it 23" (no state) are kept."""
    if not {"state", "action"} & set(call["arguments"]) or not _misfits(call, vocabulary):
        return False
    kind = FOLLOW_UP_KINDS.get(vocabulary.kinds.get(str(call["arguments"].get("name", "")).replace("_", " "), ""))
    return not any(word in ACTION_PARTS or kind in VERB_KINDS.get(word, ()) for word in said.split())


def _misfits(call: dict, vocabulary: Vocabulary) -> bool:
    """A call on a thing of the user's home of a kind its skill does not act on (_takes)."""
    kind = FOLLOW_UP_KINDS.get(vocabulary.kinds.get(str(call["arguments"].get("name", "")).replace("_", " "), ""))
    return kind is not None and call["name"] in SKILLS and kind not in _takes(call["name"])


def supports(history: list[dict], call: dict, lexicon: tuple[set, set] | None = None) -> bool:
    """Whether the follow-up's words or the conversation's calls say every part of a call made for its
    self-contained reading (standalone), in the follow-up's mood and on a thing its skill acts on: each thing,
    number, state and action ("one" is the thing of its kind that it stands for)."""
    calls = calls_of_history(history[:-1])
    said = normalize_request(content_text(history[-1]))
    acted = _acted_on(calls)
    if acted is not None and ONE_SAID.search(said):
        said = _one_of_its_kind(said, acted, Vocabulary(lexicon))
    if call["name"] not in SKILLS or _unsupported_parts(said, calls, call) is not None or \
            not _in_mood(FILLERS.sub("", said), call, calls) or _misfits(call, Vocabulary(lexicon)) or _contradicts(said, call):
        return False
    earlier = {str(value) for made in calls for value in made["arguments"].values()}
    words = {value for word in said.split() if (value := ACTION_PARTS.get(word, (None, word))[1])}
    return all(str(call["arguments"][key]) in earlier | words for key in ("state", "action") if key in call["arguments"])


def asks(text: str) -> bool:
    """The words, as typed or heard, are a question (its opening words: "is", "how's", "what", "can you check")."""
    return ASKS.match(FILLERS.sub("", normalize_request(text)).strip()) is not None


def _in_mood(said: str, call: dict, calls: list[dict]) -> bool:
    """A question is answered by a reading, a thing's state only when it asks yes or no; a request by a change, or
    by a reading when the conversation's newest call was that reading ("and in the cellar" after a humidity)."""
    if ASKS.match(said):
        stated = call["name"] == "get_state" and call["arguments"].get("name") not in SENSOR_KINDS
        return call["name"] in NOT_CHANGES and (not stated or YES_OR_NO.match(said) is not None)
    return call["name"] not in NOT_CHANGES or calls[-1]["name"] == call["name"]


def standalone(history: list[dict], lexicon: tuple[set, set] | None = None) -> str | None:
    """The self-contained request a follow-up stands for, for the model to read alone when its reading of the
    whole conversation made no call, one the words do not support, or one of another mood: a question with the
    newest thing in place of its pronoun or of "one" ("is the 1 in the office on too": "is the fan in the office
    on too"); a request with what asks it again left out (FRAME_WORDS) and the rest completed from the newest
    call it fits ("no i said 20": "set the thermostat to 20"), else its pronoun or "one" read as for a question.
    None when the conversation acted on nothing or nothing fits."""
    if not history or history[-1].get("role") != "user":
        return None
    calls = calls_of_history(history[:-1])
    if not calls:
        return None
    vocabulary = Vocabulary(lexicon)
    listed = list_follow_up(content_text(history[-1]), calls[-1], vocabulary.names_a_thing) \
        if calls[-1]["name"] in LIST_SKILLS and _right_after(history, calls) else None
    if listed is not None:               # "and eggs" right after an add (assistant.lists)
        return listed
    acted = _acted_on(calls)
    said = FILLERS.sub("", normalize_request(content_text(history[-1]))).strip()
    referred = _one_of_its_kind(said, acted, vocabulary) if acted is not None and ONE_SAID.search(said) else said
    if not ASKS.match(said):
        completed = _completed(" ".join(word for word in referred.split() if word not in FRAME_WORDS), calls, vocabulary)
        if isinstance(completed, str):
            return completed
    for call in calls:                   # a timer the conversation set, by its name alone: "any time left on the tea"
        label = str(call["arguments"].get("name", "")).replace("_", " ") if call["name"] in TIMER_SKILLS else ""
        if label:
            referred = re.sub(rf"\b{re.escape(label)}\b(?! timer)", f"{label} timer", referred)
    alone = re.search(rf"\b(?:{'|'.join(PRONOUN_OBJECTS)})\b", referred)      # "did it close", "how long is left on that"
    if alone and vocabulary.names_a_thing(referred[:alone.start()].replace("'s ", " ")):
        return None                       # "the fan's too loud, turn it off": the pronoun is the thing said first
    pronoun = _pronoun(referred, calls, lexicon)
    if isinstance(pronoun, str):
        return pronoun
    timer = TIMER_WORDS.search(said) is not None
    read = next((call for call in reversed(calls) if target_of(call) is not None or _is_reading(call)), None)
    if alone and ASKS.match(said) and read is not None and _is_reading(read):   # "has it dropped" after a humidity
        return request_for(read)
    targets = _targets(calls, timer) or _targets(calls, not timer)
    if alone and targets and len(_together(calls, targets[0], timer, lambda call: True)) < 2:
        after = referred[alone.end():]
        said_again = re.match(r" ([a-z]+)\b", after)     # "those lights": the thing's own word after the pronoun
        if said_again and targets[0].split()[-1].removesuffix("s") == said_again.group(1).removesuffix("s"):
            after = after[said_again.end():]
        return referred[:alone.start()] + targets[0] + after
    return referred if referred != said else None


def _right_after(history: list[dict], calls: Calls) -> bool:
    """The newest call was made in the reply to the request before the latest."""
    asked = [turn for turn, message in enumerate(history[:-1]) if message.get("role") == "user"]
    return bool(asked) and calls.turns[-1] > asked[-1]


def _one_of_its_kind(said: str, acted: dict, vocabulary: Vocabulary) -> str:
    """ "one" said for a thing of the kind the conversation acted on, put in words: the default home's device ("the
    office 1": "the office fan"); in the user's home, the one thing of that kind in the area said ("the 1 in the
    cellar" after an extractor was switched: the dehumidifier). The words as said when no one thing fits."""
    if vocabulary.lexicon is None:
        device = DEVICE_SPOKEN.get(acted["arguments"].get("device") or acted["arguments"].get("name"))
        return re.sub(r"\b1\b", (device or target_of(acted).words.split()[-1]).lower(), said)
    kind = vocabulary.kinds.get(str(acted["arguments"].get("name", "")).replace("_", " "))
    words = said.split()
    areas = {read[1] for i, j in vocabulary.spans(words, range(len(words)))
             if (read := vocabulary.read(" ".join(words[i:j]))) is not None and read[0] == "area"}
    things = [name for name, place in vocabulary.places.items() if place in areas and vocabulary.kinds.get(name) == kind]
    return re.sub(r"\b1\b", things[0], said) if kind and len(areas) == 1 and len(things) == 1 else said


_READINGS: OrderedDict[tuple[str, int], tuple[object, list[dict] | Declined]] = OrderedDict()
_READINGS_LOCK = threading.Lock()


def _read_once(history: list[dict], lexicon: tuple[set, set] | None) -> list[dict] | Declined:
    """_resolution, read once a turn: declined, resolve (for the prompt, the second opinion, each clause) and
    unsupported ask it of the same history, at about half a millisecond a reading. Kept by the history's words and
    the lexicon's identity (a home builds a new lexicon for each version of itself; the entry holds it, so its id
    names no other); the messages are copied in and out, so no caller changes what another reads."""
    key = (repr(history), id(lexicon))
    with _READINGS_LOCK:
        kept = _READINGS.get(key)
        if kept is not None:
            _READINGS.move_to_end(key)
    if kept is None:
        resolved = _resolution(history, lexicon)
        kept = (lexicon, resolved if isinstance(resolved, Declined) else [dict(message) for message in resolved])
        with _READINGS_LOCK:
            _READINGS[key] = kept
            while len(_READINGS) > MAX_READINGS or len({id(held) for held, _ in _READINGS.values()}) > MAX_LEXICONS:
                _READINGS.popitem(last=False)
    return kept[1] if isinstance(kept[1], Declined) else [dict(message) for message in kept[1]]


def clock_asked_again(history: list[dict]) -> str | None:
    """ "and in london?", "what about paris" after the time was asked, "and on saturday?" after a date: the same read
    (assistant.clock) of the place the tables know or the day said, as a whole request ("what time is it in london");
    None when the conversation's newest call is neither or the words say no such place or day."""
    if not history or history[-1].get("role") != "user":
        return None
    calls = calls_of_history(history[:-1])
    asked = CLOCK_ASKED_AGAIN.match(normalize_request(content_text(history[-1])).strip())
    if not calls or asked is None or calls[-1]["name"] not in ("get_time", "get_date"):
        return None
    what = asked.group("what")
    if calls[-1]["name"] == "get_time":
        return f"what time is it in {what}" if known_place(what) else None
    request = f"what's the date on {what}"
    return request if (clock_call(request) or {}).get("name") == "get_date" else None


def _resolution(history: list[dict], lexicon: tuple[set, set] | None) -> list[dict] | Declined:
    if not history or history[-1].get("role") != "user":
        return history
    again = clock_asked_again(history)
    if again is not None:                # "and in london?" after the time in tokyo
        return [{"role": "user", "content": again}]
    vocabulary = Vocabulary(lexicon)
    calls = calls_of_history(history[:-1])
    request = _compared(_value_said(_self_corrected(_timer_owned(content_text(history[-1]), calls)), history), history)
    request = request_beside_remarks(request, vocabulary) or request     # "put the towel rail on, the towels are damp"
    if request != content_text(history[-1]):         # each clause read alone reads the timer too
        history = [*history[:-1], {"role": "user", "content": request}]
    dislocated = _dislocated(request, vocabulary)
    if dislocated is not None and THERE.search(request):      # "the lights in there, can you dim them a bit"
        dislocated = _dislocated(_there(request, calls, vocabulary, history[:-1]), vocabulary) or dislocated
    said = _mentioned(LOOSE.sub(r"\1", _pointed_at(synonyms(normalize_request(dislocated or request)), vocabulary)))
    said = _level_said(said, calls, vocabulary) if len(history) > 1 else said      # a follow-up's words only
    said = _acted_beside_left(said, request)
    core = rephrase(STATE_AGAIN.sub("", LEADING.sub("", said)), default_home=lexicon is None)
    unreferring = NOT_A_REFERENCE.sub("", core)
    asked = _asks(history[:-1])          # then "yes", "the salt lamp", "the other one" answer the question
    chosen = _chosen(history, synonyms(normalize_request(request)))     # as said: "and make it 18" kept whole
    if isinstance(chosen, Declined):
        return chosen
    answered = chosen or _answered(history, core, vocabulary)
    if answered is not None:             # "the salt one" after "which one?", "ok 22 then" after a refusal
        return _resolution([*history[:-3], {"role": "user", "content": answered}], lexicon)
    # read before "that one" is pointed at the thing: the rejection says only that it was not the one meant
    repaired = _repaired(synonyms(normalize_request(request)), history[:-1], calls, vocabulary) \
        if calls and not asked else None
    if repaired is not None:             # "not that one, the other one", "no, i meant the strongroom door"
        return [{"role": "user", "content": repaired}]
    # "the bedroom lights are too bright, dim them": the pronoun stands for what the request itself named first,
    # read as rephrased ("or is it still open" is "or is it open") and as said (a rephrasing may drop the pronoun)
    # ("put the shutters back how they were": "they" is the shutters' state before, once the conversation changed it)
    named_first = dislocated is not None or any(_named_before(words, pronoun, vocabulary)
                      for words in (core, LEADING.sub("", said))
                      if not (calls and AS_IT_WAS_ENDING.search(words))
                      if (pronoun := REFERRING.search(words) or PLURAL_REFERRING.search(words)))
    valued = _new_value_of(core, calls, vocabulary, history[:-1]) if calls and not asked else None
    if valued is not None:
        return [{"role": "user", "content": valued}]
    acted = _acted_on(calls)
    if acted is not None and acted["name"] in STEP_SKILLS and STEP_AGAIN.match(core):
        return [{"role": "user", "content": request_for(acted)}]
    leans_back = (LEANS_BACK.search(unreferring) is not None
                  or STEP_LEANS_BACK.search(unreferring) is not None and not vocabulary.names_a_thing(core)) \
        and not named_first
    if leans_back and calls and not asked:      # "bit much, put it at 60": the follow-up beside a remark
        beside = _beside_a_remark(history, lexicon, vocabulary)
        if beside is not None and not _question_made_a_change(core, content_text(beside[-1])):
            return beside
    if calls and unreferring == core and not asked and not named_first:
        rewritten = _rewritten(said, core, calls, vocabulary, history[:-1])
        if isinstance(rewritten, Declined):
            return rewritten
        if rewritten and not _question_made_a_change(core, rewritten):
            return [{"role": "user", "content": rewritten}]
    if leans_back or vocabulary.read(core) is not None or not core:   # "living room": which one
        return [*history[:-1], {"role": "user", "content": said}]
    alone = _placed(core, calls) if lexicon is None else _named(core, calls, vocabulary)
    return alone if isinstance(alone, Declined) else [{"role": "user", "content": alone}]


def _level_said(said: str, calls: list[dict], vocabulary: Vocabulary) -> str:
    """ "same for upstairs", "and the downstairs one" after the lower landing light: a word that picks a thing by a
    word of its name said another way (CHOICE_WORDS: "upstairs" is "upper") stands for that word, when the home has
    no name or area so called and a name the conversation acted on, with that word in place of its counterpart
    ("lower"), is a name the home has ("the upper landing light"). A floor said before a room or an area ("and
    upstairs in the bedroom", "upstairs on the landing") is that place alone. The words unchanged otherwise."""
    words = said.split()
    for i, word in enumerate(words):
        level = CHOICE_WORDS.get(word)
        if level is None or word in vocabulary.names or word in vocabulary.areas:
            continue
        counterparts = set(CHOICE_WORDS.values()) - {level}
        for call in calls:
            name = str(call["arguments"].get("name", "")).replace("_", " ").split()
            if counterparts & set(name) and " ".join(level if part in counterparts else part for part in name) \
                    in vocabulary.names:
                return " ".join([*words[:i], level, *words[i + 1:]])
    floor = FLOOR_BEFORE.search(said)
    if floor and (vocabulary.read(floor.group("room")) or ("",))[0] in ("room", "area") \
            and not vocabulary.knows(floor.group(0)):
        return said[:floor.start()] + floor.group("place")
    return said


def _repaired(said: str, before: list[dict], calls: Calls, vocabulary: Vocabulary) -> str | None:
    """A repair of what a request was taken to be about ("not that one, the other one", "no, i meant the strongroom
    door", "nah, i said the hayloft lamp"): the user's own request said again, with the thing meant in place of the
    thing it was taken to name. A repair corrects the reference and keeps the request: the call made of it, on the
    thing meant; where that thing cannot take the call, the call's skill was misread too ("unlock the boathouse door"
    opened it), and the user's own words, with the thing meant in place, say the action. The thing meant is of the
    sort of the one it replaces (of its kind in the home, or called by its word: a door for a door); the request
    repaired is the newest of that sort, past calls on nothing or on other sorts of thing. "The other one" is the
    other thing the request's own words could name. None when the words are no such repair, or no request of the
    conversation named a thing of that sort."""
    match = REPAIR.match(said)
    if match is None:
        return None
    new = match.group("new")
    other = OTHER.match(new) is not None
    read = None if other else vocabulary.read(new) or _named_with_its_kind(new, vocabulary)
    if read is None and not other or read is not None and read[0] not in ("name", "device"):
        return None
    for call, turn in reversed(list(zip(calls, calls.turns))):
        target = target_of(call)
        if target is None or target.timer or call["name"] == "switch_all":
            continue
        asked = next((content_text(m) for m in reversed(before[:turn]) if m.get("role") == "user"), None)
        if asked is None:
            return None
        request = normalize_request(asked)
        if read is None:                 # "the other one": of the things the request's words could name
            acted = str(call["arguments"].get("name", "")).replace("_", " ")
            meant = _other_said(acted, request, vocabulary)
            if meant is None:
                return None
        elif read[0] == "device":        # a device of the default home for another one it was taken to be
            if call["name"] != "set_device":
                continue
            acted, meant = DEVICE_SPOKEN.get(call["arguments"].get("device", ""), ""), DEVICE_SPOKEN.get(read[1], "")
        else:
            acted, meant = str(call["arguments"].get("name", "")).replace("_", " "), str(read[1])
            kinds = vocabulary.kinds
            if acted == meant or not (kinds.get(acted) and kinds.get(acted) == kinds.get(meant)
                                      or acted.rpartition(" ")[2] == meant.rpartition(" ")[2]):
                continue
        key = "device" if read is not None and read[0] == "device" else "name"
        changed = _with(call, key, read[1] if key == "device" else meant) if key in call["arguments"] else None
        if changed and not _misfits(changed, vocabulary) and (again := request_for(changed)):
            return again
        # the thing meant cannot take the call made: its skill was misread too, and the user's words say the action
        said_as = re.search(rf"\b{re.escape(acted)}\b", request) if acted and meant else None
        return request[:said_as.start()] + meant + request[said_as.end():] if said_as else None
    return None


def _named_with_its_kind(words: str, vocabulary: Vocabulary) -> tuple[str, str] | None:
    """("name", the name) of a name said with its kind's word after it ("the drinks cabinet light" of a light named
    the drinks cabinet); None when the words are no such name."""
    *name, word = words.removeprefix("the ").split()
    name = " ".join(name)
    return ("name", name) if name in vocabulary.names and CLASS_WORDS.get(word) == vocabulary.kinds.get(name) else None


def _other_said(acted: str, request: str, vocabulary: Vocabulary) -> str | None:
    """The one thing of the user's home besides the one acted on that the request's words for it name too ("the
    pump": the bilge pump, after the pond pump), in its area when several do; else the one other of its kind in its
    area (_the_other). None when there is not exactly one."""
    said = THING.search(request)
    words = said.group("thing").split() if said else []
    named = [name for name in vocabulary.kinds if name != acted and words and set(words) <= set(name.split())]
    if len(named) > 1:
        named = [name for name in named if vocabulary.places.get(name) and
                 vocabulary.places.get(name) == vocabulary.places.get(acted)]
    if len(named) == 1:
        return named[0]
    other = _the_other(acted, vocabulary.lexicon)
    return other.removeprefix("the ") if other else None


def _question_made_a_change(said: str, rewritten: str) -> bool:
    """A follow-up that asks how a thing is after naming it ("how about the office, is it cold too") rewritten as a
    request that asks nothing (the newest call's "turn on the office heater"): the question is lost; it is read as
    said."""
    return ASKS_OF_IT.search(said) is not None and not asks_how_things_are(rewritten)


def _acted_beside_left(said: str, request: str) -> str:
    """ "put the light back on, leave the fan", "turn off the airer but leave the other": the action alone, the thing
    left asking for nothing, when a joining word or a comma sets the leaving apart ("did somebody leave the
    letterbox open" asks about it); the words unchanged when nothing but the leaving is said."""
    match = LEFT_BESIDE.search(said)
    if match is None or not (match.group("join") or LEFT_AFTER_A_COMMA.search(request.lower())):
        return said
    return said[:match.start()] if len(said[:match.start()].split()) > 1 else said


def _mentioned(said: str) -> str:
    """ "turn off the one you just mentioned", "the telly you put on earlier": the thing without the clause of what
    was said or done of it, which tells no more than a pronoun; "the one" alone is then "it"."""
    match = MENTION.search(said)
    if match is None:
        return said
    before = said[:match.start("clause")].rstrip()
    return " ".join((THE_ONE.sub("it", before) + said[match.end():]).split())


def _pointed_at(said: str, vocabulary: Vocabulary) -> str:
    """ "turn that ice maker back off now": a name of the user's home pointed at is the name, as a device of the
    default home pointed at is (assistant.rephrase.SYNONYMS); what it is, not what it leans back on. An adverb is
    no name ("is that still running" in a home with a still room)."""
    words = said.split()
    for i in [i for i in range(len(words) - 1) if words[i] in ("that", "this") and words[i + 1] not in ADVERBS]:
        if any(" ".join(words[i + 1:j]) in vocabulary.names for _, j in vocabulary.spans(words, [i + 1])):
            words[i] = "the"
    return " ".join(words)


def _timer_owned(said: str, calls: list[dict]) -> str:
    """ "the gravy's thickened, cancel its timer", "the potatoes are done, cancel their timer": the timer of what the
    words before name, when it is one timer the conversation set; "how's that timer doing": the newest timer the
    conversation started; the words unchanged otherwise."""
    lowered = said.lower()
    owned = OWNED_TIMER.search(lowered)
    pointed = POINTED_TIMER.search(lowered)
    newest = _newest_timer(calls)
    # (a reference the pronoun rules read, "cancel that timer", is theirs: _pronoun)
    if owned is None and pointed is not None and newest is not None and REFERRING.search(normalize_request(said)) is None:
        return said[:pointed.start()] + target_of(newest).words + said[pointed.end():]
    if owned is None:
        return said
    words = set(re.findall(r"[a-z]+", lowered[:owned.start()].replace("'s", "")))
    labels = {str(call["arguments"]["name"]).replace("_", " ") for call in calls
              if call["name"] in TIMER_SKILLS and call["arguments"].get("name")}
    named = [label for label in labels if {label, label + "s", label + "es"} & words]
    return said[:owned.start()] + f"the {named[0]} timer" + said[owned.end():] if len(named) == 1 else said


def timer_meant(history: list[dict], call: dict) -> dict | None:
    """The named timer a call meant to take, when the model wrote it of no timer (timer_left with no name, or
    cancel_timer) while the conversation's running timers are all named: a definite "the timer", "it" or "the egg
    timer" refers to a timer the conversation shares, so the one whose label the request says, else the only one
    running. None when the call names its timer, an unnamed timer runs, or no one timer is singled out. A timer said
    back and turned down never ran."""
    if call["name"] not in ("timer_left", "cancel_timer") or call["arguments"].get("name"):
        return None
    running = _running_timers(history[:-1])
    if not running or "" in running:
        return None
    said = normalize_request(content_text(history[-1]))
    named = [label for label in running if re.search(rf"\b{re.escape(label)}\b", said)]
    label = named[0] if len(named) == 1 else running[0] if len(running) == 1 and not named else None
    if label is None:
        return None
    return {"name": "timer_left" if call["name"] == "timer_left" else "stop_timer", "arguments": {"name": label}}


def player_meant(history: list[dict], call: dict) -> dict:
    """A media player's call that names no player nor area ("louder", "what's playing"), on the player the
    conversation last used ("pause the living room tv", the time asked, "louder": the tv, not the speaker playing);
    the call as it is when the conversation used none (the tool takes the one playing)."""
    if call["name"] not in MEDIA_SKILLS or call["arguments"].get("name") or call["arguments"].get("area"):
        return call
    used = next((made["arguments"]["name"] for made in reversed(calls_of_history(history[:-1]))
                 if made["name"] in MEDIA_SKILLS and isinstance(made["arguments"].get("name"), str)), None)
    return call if used is None else {"name": call["name"], "arguments": {**call["arguments"], "name": used}}


def _running_timers(history: list[dict]) -> list[str]:
    """The labels of the timers the conversation started and did not stop, oldest first ("" for an unnamed one); a
    timer said back and turned down never ran."""
    running: list[str] = []
    calls = list(calls_of_history(history))
    for made in (call for i, call in enumerate(calls) if not _turned_down(calls, i)):
        label = str(made["arguments"].get("name") or "").replace("_", " ")
        if made["name"] == "set_timer" or made["name"] == "cancel_timer":
            running = [] if made["name"] == "cancel_timer" else [*running, ""]
        elif made["name"] in TIMER_STARTS and label:
            running = [*(other for other in running if other != label), label]
        elif made["name"] == "stop_timer":
            running = [other for other in running if other != label]
    return running


def timer_asked(history: list[dict], lexicon: tuple[set, set] | None = None) -> dict | None:
    """The time left on a running timer that a refused question names by its label and nothing else of the home
    ("how's the egg doing", "remaining on the egg?"): the label is the name the conversation gave the timer, so it
    refers to it as a name does, and a timer's one state to ask about is how long is left. None when the words ask
    nothing (by their opening words or a question mark), or name no running timer's label, or two, or a thing too."""
    if len(history) < 3 or history[-1].get("role") != "user":
        return None
    typed = content_text(history[-1])
    if not (asks(typed) or typed.rstrip().endswith("?")):
        return None
    said = normalize_request(typed)
    named = [label for label in _running_timers(history[:-1]) if label and re.search(rf"\b{re.escape(label)}\b", said)]
    if len(named) != 1 or Vocabulary(lexicon).names_a_thing(re.sub(rf"\b{re.escape(named[0])}\b", " ", said)):
        return None
    return {"name": "timer_left", "arguments": {"name": named[0]}}


def _self_corrected(said: str) -> str:
    """ "make the heating 22, no wait, 21", "a touch brighter, uh, no, dimmer": the value said last in place of the
    one it takes back, when both are numbers or both words of a state or a way; the words unchanged otherwise."""
    normal = normalize_request(said)
    match = SELF_CORRECTED.search(normal)
    if match is None or match.group("old") == match.group("new") \
            or (NUMBER_SAID.fullmatch(match.group("old")) is None) != (NUMBER_SAID.fullmatch(match.group("new")) is None):
        return said
    return normal[:match.start()] + match.group("new")


def _readings_said(history: list[dict]) -> list[tuple[str, str, float, str]]:
    """(kind, place, value, unit) of each reading the assistant said, oldest first: a reply to one reading's call
    that says one number."""
    said = []
    for message in history:
        calls = _assistant_calls(message) if message.get("role") == "assistant" else []
        if len(calls) != 1 or calls[0]["name"] not in ("read_sensor", "get_state"):
            continue
        args = calls[0]["arguments"]
        kind = args.get("kind") or str(args.get("name")).rpartition(" ")[2]     # a sensor named by its reading too
        numbers = NUMBER_SAID.findall(content_text(message))
        if kind in SENSOR_KINDS and len(numbers) == 1:
            text = content_text(message)
            unit = "degrees" if "degree" in text else "percent" if "percent" in text else ""
            said.append((kind, str(args.get("room") or args.get("area") or ""), float(numbers[0]), unit))
    return said


def _value_said(said: str, history: list[dict]) -> str:
    """ "set the thermostat to that temperature", "whatever you just said": the value of the assistant's newest
    reading in their place; "a timer for that many seconds": the newest sum's result; the words unchanged when
    there is none."""
    normal = normalize_request(said)
    sums = [call for call in calls_of_history(history[:-1]) if call["name"] == "calculate"]
    result = _result(sums[-1]) if sums else None
    if RESULT_SAID.search(normal) and result is not None:
        return RESULT_SAID.sub(result, normal, count=1)
    readings = _readings_said(history[:-1])
    if not VALUE_SAID.search(normal) or not readings:
        return said
    _, _, value, unit = readings[-1]
    return VALUE_SAID.sub(f"{format_number(value)} {unit}".strip(), normal, count=1)


def _compared(said: str, history: list[dict]) -> str:
    """ "the heater in the colder one", "the door in the damper room": the place whose reading the assistant said
    is the most or the least of that kind, of two or more places read; the words unchanged otherwise."""
    normal = normalize_request(said)
    match = COMPARED.search(normal)
    if match is None:
        return said
    kind, most = next(key for key, ways in READING_COMPARATIVES.items() if match.group("way") in ways)
    values = {place: value for read, place, value, _ in _readings_said(history[:-1]) if read == kind and place}
    if len(values) < 2 or list(values.values()).count(most(values.values())) > 1:
        return said
    place = most(values, key=values.get)
    return normal[:match.start()] + f"the {ROOM_SPOKEN.get(place, place.replace('_', ' '))}" + normal[match.end():]


def _named_before(words: str, pronoun: re.Match, vocabulary: Vocabulary) -> bool:
    """A thing of the home is named before the pronoun, said as a thing (assistant.clauses.names_a_thing: "the
    dog's still out there, unlock it" names no still room); a word alone before it is the request's verb ("light
    it please", "lock it up": in a home with a veranda light and a tack room lock)."""
    before = words[:pronoun.start()]
    return names_a_thing(before, vocabulary) and not re.fullmatch(r"[a-z']+ ", before)


def _rewritten(said: str, core: str, calls: list[dict], vocabulary: Vocabulary, before: list[dict]) -> str | None:
    """The self-contained request a follow-up stands for, or None when it is none the rules know (before: the
    history before it)."""
    bare = SAID_TWICE.sub(r"\1", re.sub(r"(?: please| then)+$", "", ASKED_FOR.sub("", FILLERS.sub("", core))))
    group = None if REFERRING.search(bare) else GROUP_OBJECT.search(bare)
    if group and bare[:group.start()].strip() and not re.search(r"\b(?:the|and)\b", bare[group.end():]):
        # "turn both off", "switch the lot off": the things acted on ("both the kitchen and bedroom lights" names them)
        return _pronoun(bare[:group.start()] + GROUP_ALONE[group.group("group")] + bare[group.end():], calls,
                        vocabulary.lexicon)
    if BARE_VERB.match(bare):
        return _pronoun(f"{bare} it", calls, vocabulary.lexicon)
    acted = _acted_on(calls)
    pronoun = PRONOUN_OBJECT.search(bare)
    if pronoun and acted is not None and _kind(acted, vocabulary.kinds) in APPLIANCES:
        # "send it home" after "is the vacuum docked": the model has no skill for the thing; code reads it by its name
        return bare[:pronoun.start()] + target_of(acted).words + bare[pronoun.end():]
    return _setting_asked(bare, calls, vocabulary) or _player_asked_again(bare, calls, vocabulary) \
        or _which_timer(bare, calls) or _left(bare, calls) or _undone(bare, calls) or _again(bare, calls, vocabulary, before) or _another(bare, calls) \
        or _multiplied(bare, calls) or _operand_changed(said, calls) or _scene_instead(bare, calls, vocabulary) \
        or _ambient_asked(bare, calls, vocabulary) or _reading_asked(bare, calls) \
        or _on_result(bare, calls) or _result_pointed_at(bare, calls) or _newest_fitting(bare, calls, vocabulary, before) \
        or (_light_step(bare, acted) if acted else None) or _newest_light_step(bare, calls) or _too_much(bare, acted) \
        or _loose_step(ONE_NAMED.sub(lambda match: _one_named(match, calls, vocabulary), bare),
                       [_heater_level(call, vocabulary) for call in calls], acted and _heater_level(acted, vocabulary),
                       lambda call: _climate_of_home(call, vocabulary)) \
        or _completed(bare, calls, vocabulary) \
        or _changed_part(said, calls, vocabulary, before) or _placed_back(core, calls, vocabulary, before)


def _setting_asked(said: str, calls: list[dict], vocabulary: Vocabulary) -> str | None:
    """ "what is it set to", "what humidity is it set to", "what's the volume now" right after the newest call set or
    read a thing's setting: that setting read from the thing itself (a climate's or water heater's target
    temperature, a humidifier's target humidity, a cover's position, a player's volume), when the setting's word,
    if said, is its kind's; None for a question of anything else ("what is it" asks no setting)."""
    match = SETTING_QUESTION.match(said)
    call = calls[-1] if calls else None
    if match is None or call is None or call["name"] not in SETTING_CALLS \
            or call["arguments"].get("asked", "volume") != "volume":
        return None
    name = str(call["arguments"].get("name") or "thermostat").replace("_", " ")
    word, read = SETTING_READS.get(vocabulary.kinds.get(name), (None, None))
    said_word = match.group("word") or match.group("named")
    if read is None or said_word not in (None, word) or not (match.group("word") or match.group("end")) and \
            not (match.group("named") and (match.group("target") or word in SETTINGS_OF_THINGS_ONLY)):
        return None
    arguments = {"name": name, **({"area": call["arguments"]["area"]} if call["arguments"].get("area") else {}),
                 **({"asked": "volume"} if read == "get_media" else {})}
    return request_for({"name": read, "arguments": arguments})


def _player_asked_again(said: str, calls: list[dict], vocabulary: Vocabulary) -> str | None:
    """ "and on the tv", "what about the lounge" right after what a player plays or its volume was asked: the same
    question of the player the words name, by a part of its name or by its place (the one player there); None when
    they name no one player."""
    match = PLAYER_ASKED_AGAIN.match(said)
    call = calls[-1] if calls else None
    if match is None or call is None or call["name"] != "get_media":
        return None
    part = match.group("part")
    there = [name for name, place in vocabulary.places.items()
             if place == part and vocabulary.kinds.get(name) == "media_player"]
    name = there[0] if len(there) == 1 else _name_in_part(part, None, calls, vocabulary)
    if not isinstance(name, str) or vocabulary.kinds.get(name) != "media_player":
        return None
    return request_for({"name": "get_media", "arguments": {"name": name, "asked": call["arguments"].get("asked")}})


def _ambient_asked(said: str, calls: list[dict], vocabulary: Vocabulary) -> str | None:
    """How a place is, asked by a quality alone ("and how humid" after the office's temperature) or of "it"
    ("how damp is it down there" after a door of the cellar was asked about): in such a question "it" is the
    place's, as in "it's cold", never a thing, and a subject left out is the place the conversation was in. The
    reading of the quality's kind at the newest reading's place; when "there" is said and no reading was made, at the
    place of the newest thing asked about or acted on. None when no place is known."""
    match = AMBIENT_ASKED.match(said)
    if match is None:
        return None
    kind = _QUALITY[match.group("quality")]
    read = next((call for call in reversed(calls) if _is_reading(call)), None)
    if read is not None:
        return request_for(_reading_filled(read, {"kind": kind}) or read)
    thing = _acted_on(calls) if match.group("there") else None
    if thing is None:
        return None
    args = thing["arguments"]
    if vocabulary.lexicon is None:
        room = args.get("room")
        return request_for({"name": "read_sensor", "arguments": {"room": room, "kind": kind}}) if room else None
    area = args.get("area") or vocabulary.places.get(str(args.get("name", "")).replace("_", " "))
    return request_for({"name": "get_state", "arguments": {"name": kind, "area": area}}) if area else None


def _reading_asked(said: str, calls: list[dict]) -> str | None:
    """ "has it gone down", "is it still humid down there", "has the humidity dropped" after a reading, then a change
    (a fan, a dehumidifier): the newest reading again, of the kind the words say when they say one; not when they say
    a place of their own ("is it warmer in the living room" asks there)."""
    match = READING_ASKED.search(said) if ASKS.match(said) and not PLACE_OF.search(said) else None
    if match is None:
        return None
    kind = match.group("kind") or _QUALITY.get(match.group("quality") or "")
    read = next((call for call in reversed(calls) if _is_reading(call) and kind in (None, _reading_kind(call))), None)
    return request_for(read) if read is not None else None


def _scene_instead(said: str, calls: list[dict], vocabulary: Vocabulary) -> str | None:
    """ "actually, candlelight instead", "put the regatta one on instead" after a scene was run: the other scene the
    words name, when they name no other thing of the home."""
    if not any(call["name"] == "activate_scene" for call in calls):
        return None
    words = said.split()
    named = {" ".join(words[i:j]) for i, j in vocabulary.spans(words, range(len(words)))
             if " ".join(words[i:j]) in vocabulary.kinds}
    scenes = {name for name in named if vocabulary.kinds[name] == "scene"}
    return request_for({"name": "activate_scene", "arguments": {"name": scenes.pop()}}) \
        if len(scenes) == 1 and named == scenes else None


def _too_much(said: str, acted: dict | None) -> str | None:
    """ "that's too bright" after a lamp was set: a step the other way, of the newest thing acted on only, when it
    has a level of that kind (a light for brightness, a heating for warmth); a remark of anything else asks nothing."""
    match = TOO_MUCH_SAID.match(said)
    if match is None or acted is None:
        return None
    way = TOO_MUCH[match.group("way")]
    heat = way in HEAT_WAYS
    if heat != ("degrees" in acted["arguments"]) or not heat and acted["name"] not in LIGHT_STEPS:
        return None
    return _loose_step(f"a bit {way}", [acted], acted)


def _acted_on(calls: list[dict]) -> dict | None:
    """The newest call on a thing of the home, past sums, conversions, the time, readings and timers (an
    interleaved skill): what "a bit more" or "a bit brighter" goes on from."""
    return next((call for call in reversed(calls) if (target := target_of(call)) is not None and not target.timer), None)


def _newest_fitting(said: str, calls: Calls, vocabulary: Vocabulary, before: list[dict]) -> str | None:
    """A step or a new value for the newest call it fits, any number of calls back: a step in degrees fits a
    thermostat, a clock time an alarm, a length a timer, a number a setting ("set the thermostat to 20", a timer,
    "a degree warmer": the thermostat; "a lock cannot be 20 degrees"). A number alone ("and 25?") is the newest
    call's that has a number of its own (a conversion's value), past a switch that has none. A heater's setting
    asked and read back is that setting ("what's the radiator set to", "18 degrees", "a degree more than that")."""
    owning = [call for call in calls if REPLACES["number"].get(call["name"]) in call["arguments"]] \
        if BARE_VALUE.match(said) and re.fullmatch(r"\d+(?:\.\d+)?", said) else []
    read_back = [_setting_read(call, before[turn], vocabulary) for call, turn in zip(calls, calls.turns)]
    for call in reversed(owning or read_back):
        changed = _stepped(said, call) or _alarm_step(said, call) or _new_value(said, call, vocabulary)
        if changed:
            return changed
    # "make it 5" after a timer, when no call of the conversation takes a number: the timer, in its unit
    match = NEW_VALUE.match(said) or BARE_VALUE.match(said)
    timer = _newest_timer(calls)
    if match and not match.groupdict().get("alarm") and timer and re.fullmatch(r"\d+(?:\.\d+)?", match.group("new")) \
            and isinstance(timer["arguments"].get("seconds"), (int, float)):
        return request_for(_with(timer, "seconds", float(match.group("new")) * _unit_of(timer["arguments"]["seconds"])))
    return None


def _heater_level(call: dict, vocabulary: Vocabulary) -> dict:
    """A level set on a heater (a climate of the user's home, or a heater's word) is its temperature, as the reply
    said it ("set the snug stove to 20": "Okay, the snug stove is set to 20 degrees."); any other call as it is."""
    name = str(call["arguments"].get("name", "")).replace("_", " ")
    heater = _a_climate(name, vocabulary) or HEATER.search(name) is not None
    if call["name"] != "set_level" or not heater or not isinstance(call["arguments"].get("percent"), (int, float)):
        return call
    return {"name": "set_thermostat", "arguments": {"name": call["arguments"]["name"],
                                                    "degrees": call["arguments"]["percent"]}}


def _setting_read(call: dict, reply: dict, vocabulary: Vocabulary) -> dict:
    """A heater's state asked (a climate of the user's home, or a heater's word), and its reply saying one
    temperature: the heater set to it, the setting a step goes on from; any other call as it is."""
    name = str(call["arguments"].get("name", "")).replace("_", " ")
    numbers = NUMBER_SAID.findall(content_text(reply))
    heater = _a_climate(name, vocabulary) or HEATER.search(name) is not None
    if call["name"] != "get_state" or not heater or len(numbers) != 1 or "degree" not in content_text(reply):
        return call
    return {"name": "set_thermostat", "arguments": {"name": call["arguments"]["name"], "degrees": float(numbers[0])}}


def _on_result(said: str, calls: list[dict]) -> str | None:
    """ "and double that", "take 18 off it": arithmetic on the newest call's result, when it is a calculation;
    on the newest calculation's when the words name the result ("take 26 off that answer from before", "take 30
    off that sum"), or no call after it has a number and the words say a multiple or a part of it ("and half of
    that" after a sum, then a speaker switched off) or point back with "that" ("now multiply that by 3" after a
    sum, then a fan switched on). Arithmetic needs a number, and of what the conversation talked about only the
    result is one; "that" reaches past the thing in focus as "it" does not ("take 4 off it" after a light switched
    on is no sum)."""
    found = next(((match, request) for pattern, request in ON_THE_RESULT if (match := pattern.match(said))), None)
    last = next((k for k in range(len(calls) - 1, -1, -1) if calls[k]["name"] == "calculate"), None)
    if found is None or last is None:
        return None
    match, request = found
    numbers_after = _numbers_since(calls, last)
    pointed_back = DEMONSTRATIVE.search(said) is not None and not _valued_since(calls, last)
    if last != len(calls) - 1 and not THE_ANSWER.search(said) \
            and (match.groupdict() and not pointed_back or numbers_after):
        return None
    result = _result(calls[last])
    return request.format(x=result, **match.groupdict()) if result is not None else None


def _result_pointed_at(said: str, calls: list[dict]) -> str | None:
    """ "what do you get if you double that", "convert that to ounces": "that" (or a noun naming the result) where the
    words ask a sum or a conversion stands for the newest result, past calls on things: a sum needs a number and a
    conversion a quantity, and of what the conversation talked about only a result is one. A sum's result is put in
    its place; a conversion is made again to the unit said, of its group. None when no result is pointed at, a call
    since has a value of its own (then "that" may be either, _valued_since), or the words ask neither."""
    pointed = RESULT_POINTED.search(said)
    last = next((k for k in range(len(calls) - 1, -1, -1) if calls[k]["name"] in ("calculate", "convert")), None)
    if pointed is None or last is None or _valued_since(calls, last):
        return None
    call, rest = calls[last], said[:pointed.start()] + said[pointed.end():]
    if call["name"] == "convert":
        group = UNIT_FACTORS.get(call["arguments"].get("from"), ("",))[0]
        units = {unit for unit, saids in UNIT_WORDS.items() for word in UNIT_SAID.findall(rest) if word in saids
                 and UNIT_FACTORS.get(unit, ("",))[0] == group and unit != call["arguments"].get("from")}
        return request_for(_with(call, "to", units.pop())) if len(units) == 1 else None
    result = _result(call)
    if result is None or not (OPERATION_OF_ONE.search(rest) or OPERATION_OF_TWO.search(rest) and NUMBER_SAID.search(rest)):
        return None
    return said[:pointed.start()] + result + said[pointed.end():]


def _numbers_since(calls: list[dict], k: int) -> bool:
    """A call after the k-th has a number of its own (a timer's length, a level)."""
    return any(isinstance(value, (int, float)) and not isinstance(value, bool)
               for later in calls[k + 1:] for value in later["arguments"].values())


def _valued_since(calls: list[dict], k: int) -> bool:
    """A call after the k-th has a value "that" may point at as well: a number of its own or an answer (a reading,
    the time, another sum)."""
    return _numbers_since(calls, k) or any(later["name"] in NOT_CHANGES or later["name"] not in SKILLS
                                           for later in calls[k + 1:])


def _result(call: dict) -> str | None:
    """A calculation's result as said; None when its expression does not calculate."""
    try:
        return format_number(calculate(str(call["arguments"].get("expression", ""))))
    except CalculationError:
        return None


def _stepped(said: str, call: dict) -> str | None:
    """ "a degree higher than that", "10 percent dimmer": the newest call's setting, stepped by the amount said."""
    match = STEP_FROM.match(said) or STEP_BY.match(said)
    key = match and STEP_KEYS[match.group("unit")]
    if not match or not isinstance(call["arguments"].get(key), (int, float)):
        return None
    step = float(match.group("n") or 1) * (-1 if match.groupdict().get("way") in STEP_DOWN else 1)
    return request_for(_with(call, key, call["arguments"][key] + step))


def _alarm_step(said: str, call: dict) -> str | None:
    """ "make it 10 minutes earlier" after an alarm was set: the alarm at the clock time moved by that much."""
    match = ALARM_STEP.match(said)
    if not match or call["name"] != "set_alarm" or not isinstance(call["arguments"].get("hour"), int):
        return None
    way = match.group("way") or match.group("before")
    minutes = round(float(match.group("n") or match.group("m")) / 60) * (1 if way in ALARM_WAYS["later"] else -1)
    hour, period = call["arguments"]["hour"], call["arguments"].get("period")
    if period in ("am", "pm"):
        hour = hour % 12 + (12 if period == "pm" else 0)
    hour, minute = divmod((hour * 60 + int(call["arguments"].get("minute") or 0) + minutes) % 1440, 60)
    if period in ("am", "pm"):
        hour, period = hour % 12 or 12, "pm" if hour >= 12 else "am"
    return f"set an alarm for {hour} {minute:02d}" + (f" {period}" if period else "")


def _light_step(said: str, call: dict) -> str | None:
    """ "a bit dimmer than that" after a light was set or switched: a step of that light."""
    match = STEP_ALONE.match(said)
    return _light_stepped(call, "up" if match.group("way") in STEP_UP else "down") if match else None


def _newest_light_step(said: str, calls: list[dict]) -> str | None:
    """ "a bit brighter" after the chandelier and a fan: a step said in a light's own words steps the newest light,
    past other things ("a bit more" says no light, and stays with the newest thing)."""
    match = STEP_ALONE.match(said)
    if not match or match.group("way") not in LIGHT_WAYS:
        return None
    return next((step for call in reversed(calls) if (step := _light_stepped(call, LIGHT_WAYS[match.group("way")]))),
                None)


def _light_stepped(call: dict, direction: str) -> str | None:
    """The light a call set or switched (a user's own by a name that ends in a light's word), stepped up or down;
    None for a call on no light."""
    skill = LIGHT_STEPS.get(call["name"])
    if call["name"] == "switch_device" and LIGHT.search(str(call["arguments"].get("name", "")).replace("_", " ")):
        skill = "change_level"
    if skill is None or (call["name"] == "set_device" and call["arguments"].get("device") != "light"):
        return None
    place = {key: call["arguments"][key] for key in ("room", "name", "area") if key in call["arguments"]}
    return request_for({"name": skill, "arguments": {**place, "direction": direction}})


CLIMATE_CALLS = ("set_thermostat", "change_level", "switch_device", "set_device_mode", "get_state",
                 "get_target_temperature", "get_device_mode")


def _a_climate(name: str, vocabulary: Vocabulary) -> bool:
    """A climate of the user's home, or a kind of them said by a name of its own ("the air conditioner" of the
    daikin)."""
    return FOLLOW_UP_KINDS.get(vocabulary.kinds.get(name, "")) == "climate" or name in vocabulary.named_kinds


def _climate_of_home(call: dict, vocabulary: Vocabulary) -> str | None:
    """The name of the climate of the user's home a call set, stepped, switched or asked about; None for any other
    call."""
    name = str(call["arguments"].get("name", "")).replace("_", " ")
    return name if _a_climate(name, vocabulary) and call["name"] in CLIMATE_CALLS else None


def _loose_step(said: str, calls: list[dict], acted: dict | None,
                climate_of: Callable[[dict], str | None] = lambda call: None) -> str | None:
    """A step said in words of its own ("turn it up a bit", "make it warmer", "up 2 degrees", "a notch lower"):
    one way (STEP_WAYS), an amount with its unit or none, every other word carrying nothing (STEP_CARRIERS). A
    number with no unit that lies the way said from the setting, nearer to it than to nothing, is the setting itself
    ("warmer, 20" after 17 is 20, not 37).
    Degrees or a heating's words step the newest thermostat set, any number of calls back; other words the newest
    thing acted on, when it is a light or a thermostat; a step of nothing that fits is no request made up. A step
    with no amount of a climate of the user's home (climate_of) is the request to step it ("turn the thermostat up"),
    by its own temp_step from the target it reports, as when said first."""
    amount = re.search(r"\b(?:(?P<n>\d+(?:\.\d+)?)|a|an) (?P<unit>degrees?|percent)\b", said)
    words = (said[:amount.start()] + said[amount.end():] if amount else said).split()
    named = _shortened_name(words, calls)
    if named is not None:                 # "panel up 2", "crank the heat up a degree": the thing, and a verb before it
        start, end, calls = named
        verb = start == 1 and not asks(said) and words[0] not in (*STEP_WAYS["up"], *STEP_WAYS["down"])
        words = words[1 if verb else 0:start] + words[end:]
        acted = calls[-1]
    ways = {way for way, said_so in STEP_WAYS.items() for word in words if word in said_so}
    number = [word for word in words if re.fullmatch(r"\d+(?:\.\d+)?", word)]
    to_value = bool(number) and f"to {number[0]}" in " ".join(words)       # "down a notch to 19": the value itself
    rest = [word for word in words
            if word not in (*STEP_WAYS["up"], *STEP_WAYS["down"], *STEP_CARRIERS, *number, *(("to",) if to_value else ()))]
    if len(ways) != 1 or len(number) > 1 or (amount and number):
        return None
    if rest:                              # "turn the radiator down a degree": the thing named, when it was set
        calls = [call for call in calls if _is_named(" ".join(rest), call)]
        if not calls:
            return None
        acted = calls[-1]
    down = ways == {"down"}
    unit = amount and STEP_KEYS[amount.group("unit")]
    n = float((amount and amount.group("n")) or (number[0] if number else 1))
    heat = unit == "degrees" or any(word in HEAT_WAYS for word in words)
    call = next((call for call in reversed(calls) if isinstance(call["arguments"].get("degrees"), (int, float))
                 or climate_of(call)), None) if heat else acted
    if call is None:
        return None
    if climate_of(call) and not amount and not number:
        return CLIMATE_STEP_REQUEST.format(name=climate_of(call), direction="down" if down else "up")
    key = unit or ("degrees" if "degrees" in call["arguments"] else "percent" if number else None)
    if key is None:                       # a light steps by its own step; "a bit" of a light set to 40 is no 41
        return _light_stepped(call, "down" if down else "up")
    now = call["arguments"].get(key)
    if not isinstance(now, (int, float)):
        return None
    if to_value and not (n < now if down else n > now):
        return None                       # "down to 22" after 20 says no step that way
    if number and "by" not in words and (n < now if down else n > now) and (to_value or abs(n - now) < n):
        return request_for(_with(call, key, n))      # "warmer, 20" after 17: to 20, not 37; "down 1" after 20: 19
    return request_for(_with(call, key, now + (-n if down else n)))


def _shortened_name(words: list[str], calls: list[dict]) -> tuple[int, int, list[dict]] | None:
    """Where the words name a thing the conversation acted on by part of its name, and the calls on it: a name said
    short keeps its head or its first words ("the radiator", "panel", "the still room" of the still room heater), and
    refers to the thing of the conversation it describes before any other of the home. The longest such words; None
    when there are none."""
    for size in range(len(words), 0, -1):
        for start in range(len(words) - size + 1):
            span = words[start:start + size]
            if span[0] == "the" or not set(span) - {*STEP_CARRIERS, *STEP_WAYS["up"], *STEP_WAYS["down"]}:
                continue
            named = [call for call in calls if _is_named("the " + " ".join(span), call)
                     or (target := target_of(call)) is not None and not target.timer
                     and target.words.startswith("the " + " ".join(span) + " ")]
            if named:
                begin = start - 1 if start and words[start - 1] == "the" else start
                return begin, start + size, named
    return None


def _is_named(words: str, call: dict) -> bool:
    """The words ("the radiator", "the heating") name what the call acted on: its words or their end; a thermostat
    set (the default home's, or a user's by its name: "the snug stove") by a heating's word too."""
    target, said = target_of(call), words.removeprefix("the ")
    if target is None or not words.startswith("the ") or not said:
        return False
    if call["name"] == "set_thermostat" and said in (*HEATING_WORDS, *DEVICES["heater"]):
        return True
    return target.words == words or target.words.endswith(" " + said)


def _new_value(said: str, call: dict, vocabulary: Vocabulary) -> str | None:
    """ "make it 20 past 7 instead", "put it at 60": the newest call with its value changed; a light switched on
    is then set to that level."""
    match = NEW_VALUE.match(said) or BARE_VALUE.match(said)
    if not match or match.groupdict().get("alarm") and call["name"] != "set_alarm":
        return None
    new = re.sub(r" (?:percent|degrees?)$", "", match.group("new"))
    if re.match(r"(?:up|down|by) \d", new):        # "bring it up 2 degrees": a step, not a value (_loose_step)
        return None
    if call["name"] == "set_alarm" and re.fullmatch(r"(?:half|quarter) (?:past|to)", new) \
            and isinstance(call["arguments"].get("hour"), int):
        new = f"{new} {call['arguments']['hour'] % 12 or 12}"
    if call["name"] == "set_alarm" and CLOCK.fullmatch(new):
        period = call["arguments"].get("period")
        return f"set an alarm for {new}" + (f" {period}" if period and not re.search(r"\b(?:am|pm)$", new) else "")
    if call["name"] in TIMER_STARTS and (length := re.fullmatch(r"(\d+(?:\.\d+)?) seconds", new)):
        return request_for(_with(call, "seconds", length.group(1)))
    read = vocabulary.read(new)
    if read is None or read[0] != "number":
        return None
    if call["name"] == "set_device" and call["arguments"].get("device") == "light":
        call = {"name": "set_brightness", "arguments": {"room": call["arguments"].get("room"), "percent": 0}}
    if call["name"] == "switch_device" and match.group("new").endswith("percent"):     # "put it on 30 percent"
        call = {"name": "set_level", "arguments": {"name": call["arguments"]["name"], "percent": 0}}
    if call["name"] == "get_state" and HEATER.search(str(call["arguments"].get("name", ""))):   # asked, then set
        call = {"name": "set_thermostat", "arguments": {"name": call["arguments"]["name"], "degrees": 0}}
    key = REPLACES["number"].get(call["name"])
    # "make it 70 percent" after a lamp, then a conversion: the lamp's (a conversion's value is in its own unit)
    unit = re.search(r" (percent|degrees?)$", match.group("new"))
    in_degrees = key == "value" and UNIT_FACTORS.get(call["arguments"].get("from"), ("",))[0] == "temperature"
    if unit and key != STEP_KEYS[unit.group(1)] and not (in_degrees and unit.group(1).startswith("degree")):
        return None
    changed = _with(call, key, read[1]) if key else {}
    return request_for(changed) if changed else None


def _new_value_of(said: str, calls: Calls, vocabulary: Vocabulary, before: list[dict]) -> str | None:
    """ "make the radiator 19 instead": the newest call on the thing its words name (_is_named), with the value
    changed; None when no call of the conversation acted on it."""
    match = NEW_VALUE_OF.match(FILLERS.sub("", said))
    if match is None:
        return None
    for call, turn in reversed(list(zip(calls, calls.turns))):
        call = _setting_read(call, before[turn], vocabulary)
        if _is_named(match.group("thing"), call):
            return _new_value(f"make it {match.group('new')}", call, vocabulary)
    return None


def _placed_back(said: str, calls: list[dict], vocabulary: Vocabulary, before: list[dict]) -> str | None:
    """ "the hall one", "the tea one", "in there" said for what the conversation used, then a pronoun: the
    request with each replaced by what it stands for. "In there" is the room of the newest call that has one,
    else the newest area an earlier request said ("piano light on in the music room": its call has no area)."""
    placed = ONE_NAMED.sub(lambda match: _one_named(match, calls, vocabulary), said)
    if THERE.search(placed) and REFERRING.search(placed):     # "turn them off in there": the pronoun, then the place
        placed = _pronoun(placed, calls, vocabulary.lexicon)
        if placed is None or isinstance(placed, Declined):
            return placed
        return rephrase(_there(placed, calls, vocabulary, before), default_home=not (vocabulary.names or vocabulary.areas))
    placed = _there(placed, calls, vocabulary, before)
    if placed != said and not REFERRING.search(placed):      # "and the plug in there too" still leans back
        placed = FILLERS.sub("", TRAILERS.sub("", STATE_AGAIN.sub("", placed))).strip()
        if THERE.search(said) and not placed.startswith("the "):     # "turn the tv in that room on too": all said
            placed = ADDING.sub("", placed).strip()
        if LEANS_BACK.search(placed) or STEP_LEANS_BACK.search(placed):
            return None
        return rephrase(placed, default_home=not (vocabulary.names or vocabulary.areas))
    placed = _pronoun(placed, calls, vocabulary.lexicon)
    if isinstance(placed, Declined):
        return placed
    return placed and rephrase(placed, default_home=not (vocabulary.names or vocabulary.areas))


def _there(said: str, calls: list[dict], vocabulary: Vocabulary, before: list[dict]) -> str:
    """ "in there", "in that room" as the place they stand for: the room of the newest call that has one, else the
    newest area an earlier request said ("piano light on in the music room": its call has no area), else the area of
    the newest thing named, as the home places it; the words unchanged when none is known."""
    if not THERE.search(said):
        return said
    room = next((room for call in reversed(calls)
                 if (room := call["arguments"].get("room") or call["arguments"].get("area"))), None)
    room = room or _area_said(before, vocabulary) or next(
        (place for call in reversed(calls) if (place := vocabulary.places.get(str(call["arguments"].get("name", "")).replace("_", " ")))),
        None)
    return THERE.sub(f"in the {ROOM_SPOKEN.get(room, str(room).replace('_', ' '))}", said) if room else said


def _thing_in_place(new: str, calls: list[dict], vocabulary: Vocabulary) -> str | None:
    """ "and the heater in the garage", "the sewing machine in the sewing room", "the kitchen lights": a thing and a
    place a follow-up's part says, each of which the vocabulary reads: the newest call on a thing, for that thing
    there (a device of the default home in that room, a name of the user's own, whose place its name holds)."""
    part = re.sub(r"^(?:the|my|our) ", "", new)
    kind, _, place = part.partition(" in ")
    if not place:                         # "the kitchen lights": a room before a device
        words = part.split()
        kind, place = next(((" ".join(words[i:]), " ".join(words[:i])) for i in range(1, len(words))
                            if vocabulary.read(" ".join(words[:i])) is not None), (part, ""))
    thing, where = vocabulary.read(kind), vocabulary.read(place)
    if thing is None or where is None or where[0] not in ("room", "area"):
        return None
    for call in reversed(calls):
        args = call["arguments"]
        if thing[0] == "device" and where[0] == "room" and call["name"] in REPLACES["room"]:
            used = args.get("device") or ("light" if call["name"] in LEVEL_SKILLS else None)
            if call["name"] == "set_device" or used == thing[1]:
                changed = {**args, "room": where[1]} if used == thing[1] else {**args, "device": thing[1], "room": where[1]}
                return request_for({"name": call["name"], "arguments": changed})
        if thing[0] == "name" and (key := REPLACES["name"].get(call["name"])) and target_of(call) is not None:
            # the one thing of the home there that the words name (its name, or its name's end: "the fan"), of the
            # kind the call acts on: else the call is no evidence for it
            kinds, places = vocabulary.kinds, vocabulary.places
            named = [name for name in kinds if (name == thing[1] or name.endswith(" " + thing[1]))
                     and places.get(name) in (None, where[1])]
            if len(named) != 1 or FOLLOW_UP_KINDS.get(kinds[named[0]]) not in _takes(call["name"]):
                return None
            return request_for(_with(call, key, named[0]))
    return None


def _takes(skill: str) -> tuple[str, ...]:
    """The kinds of thing a skill acts on (VERB_KINDS' kinds)."""
    if skill in SKILL_KINDS:
        return (SKILL_KINDS[skill],)
    if skill in MODE_SKILLS or skill in ("get_cover_position", "get_target_humidity", "get_level"):
        return tuple(dict.fromkeys(FOLLOW_UP_KINDS[component] for component in SKILL_COMPONENTS[skill]))
    humidifier = ("humidifier",) if "humidifier" in SKILL_COMPONENTS.get(skill, ()) else ()
    if skill in LEVEL_SKILLS:        # a light's level, a cover's position and a humidifier's target where it takes one
        return ("light", "cover", *humidifier) if "cover" in SKILL_COMPONENTS.get(skill, ()) else ("light",)
    return ("light", "switch", *humidifier) if skill != "get_state" else tuple(set(FOLLOW_UP_KINDS.values()))


def _area_said(history: list[dict], vocabulary: Vocabulary) -> str | None:
    """The newest area or room of the home an earlier request said "in the ..." of."""
    for message in reversed(history):
        if message.get("role") != "user":
            continue
        for place in reversed(re.findall(r"\bin the ([a-z ]+)", normalize_request(content_text(message)))):
            words = place.split()
            for n in range(len(words), 0, -1):
                read = vocabulary.read(" ".join(words[:n]))
                if read is not None and read[0] in ("room", "area"):
                    return read[1]
    return None


def _one_named(match: re.Match, calls: list[dict], vocabulary: Vocabulary) -> str:
    """What "the X one" stands for: the newest thing the conversation used in room X, its timer named X, or its
    thing whose name starts with X."""
    which = match.group("which")
    read = vocabulary.read(which)
    for call in reversed(calls):
        target = target_of(call)
        args = call["arguments"]
        if target is None:
            continue
        if target.timer and str(args.get("name", "")).replace("_", " ") == which:
            return target.words
        if read and read[0] in ("room", "area") and read[1] in (args.get("room"), args.get("area")):
            return target.words
        if str(args.get("name", "")).replace("_", " ").startswith(which + " "):     # "the nursery one": its radiator
            return target.words
    return match.group(0)


def _beside_a_remark(history: list[dict], lexicon, vocabulary: Vocabulary) -> list[dict] | None:
    """ "bit much, put it at 60", "that's warm, pop the fan on in there": the one clause that may be the request
    (assistant.clauses.takeable), resolved alone, when it is self-contained then; None otherwise."""
    resolved = [resolve([*history[:-1], {"role": "user", "content": clause}], lexicon)
                for clause in takeable(content_text(history[-1]), vocabulary)]
    alone = [messages for messages in resolved if len(messages) == 1]
    return alone[0] if len(resolved) == 1 and alone else None


def _dislocated(request: str, vocabulary: Vocabulary) -> str | None:
    """ "the bread timer, how long has it got to go": a request of two clauses is its second with the thing the
    first names in its pronoun's place (assistant.clauses.topic_in_place); "the gallery, what temperature is it
    in there": with the area the first is in place of "in there"; None for any other request."""
    parts = clauses(request)
    if len(parts) != 2:
        return None
    place = vocabulary.read(parts[0].said)
    if place is not None and place[0] in ("room", "area") and THERE.search(parts[1].said):
        return THERE.sub(f"in the {ROOM_SPOKEN.get(place[1], place[1])}", parts[1].said)
    return topic_in_place(parts, 1, vocabulary)


def _asks(history: list[dict]) -> bool:
    """The assistant's last message asks the user something, other than what else it can do ("I'm doing well,
    thanks. How can I help?": the next turn is a request of its own or a follow-up, not an answer)."""
    for message in reversed(history):
        if message.get("role") == "assistant":
            text = content_text(message).lower()
            return "?" in text and not OFFERED_HELP.match(re.split(r"[.!]\s+", text.rpartition("?")[0])[-1])
        if message.get("role") == "user":
            return False
    return False


def _placed(said: str, calls: list[dict]) -> str:
    """ "switch off the coffee maker" in the default home, where a device is in every room: in the room
    the conversation last used it in, if it did."""
    if any(re.search(rf"\b{re.escape(phrase)}\b", said) for phrases in ROOMS.values() for phrase in phrases):
        return said
    for phrase, device in sorted(((p, d) for d, ps in DEVICES.items() for p in ps), key=lambda x: -len(x[0])):
        if re.search(rf"\b{re.escape(phrase)}\b", said):
            for call in reversed(calls):
                # a device switched, or the lights a brightness call set
                used = call["arguments"].get("device") or ("light" if "brightness" in call["name"] else None)
                if used == device:
                    room = ROOM_SPOKEN.get(call["arguments"].get("room"), "")      # said after the device
                    return re.sub(rf"\b{re.escape(phrase)}\b", f"{phrase} in the {room}", said, count=1)
            return said
    return said


def _named(said: str, calls: list[dict], vocabulary: Vocabulary) -> str | Declined:
    """ "turn the lamp off" in a user's home, after "turn on the arc lamp": a part of a name stands for the one
    name the conversation used that ends in it (several lamps are asked about; "all the lamps" are a group),
    or, a word of a kind ("the light" after the yard floodlight), for the one thing of that kind it used, when no
    area is said; else
    for the name of the home that is the part after the area of the newest call that has one ("bring the stove
    up to 21" after "how warm is it in the snug": the snug stove)."""
    words = said.split()
    if any(" ".join(words[i:j]) in vocabulary.areas for i, j in vocabulary.spans(words, range(len(words)))):
        return said
    used = {str(call["arguments"]["name"]).replace("_", " ") for call in calls
            if isinstance(call["arguments"].get("name"), str) and call["name"] in REPLACES["name"]}
    area = next((str(call["arguments"]["area"]).replace("_", " ") for call in reversed(calls)
                 if isinstance(call["arguments"].get("area"), str)), None)
    after_the = vocabulary.spans(words, (i for i in range(1, len(words)) if words[i - 1] == "the"))
    for i, j in sorted(after_the, key=lambda span: span[0] - span[1]):          # the longest part first
        part = " ".join(words[i:j])
        # a thermostat's word need be no part of a name ("set the thermostat to 20", as the heating is read, after
        # the snug stove was set): a class word of the climates names the one the conversation set
        if part not in vocabulary.names and CLASS_WORDS.get(part) != "climate" \
                or words[i - 2:i - 1] and words[i - 2] in GROUP_WORDS:   # "all the lights"
            continue
        named = {name for name in used if name.endswith(" " + part)} or \
            {name for name in used if part in CLASS_WORDS and vocabulary.kinds.get(name) == CLASS_WORDS[part]}
        if len(named) == 1:
            return " ".join([*words[:i], named.pop(), *words[j:]])
        if len(named) > 1:           # "turn the heater off" after the trough heater and the kennel heater: asked
            newest = [name for name in _targets(calls, False) if name.removeprefix("the ") in named]
            return Declined(f"{WHICH_ONE_MEANT}{newest[0]} or {newest[1]}?") if len(newest) > 1 else said
        if area is not None and f"{area} {part}" in vocabulary.names:
            return " ".join([*words[:i], area, part, *words[j:]])
    return said


def _changed_part(said: str, calls: list[dict], vocabulary: Vocabulary, before: list[dict]) -> str | None:
    """ "and the salt lamp", "same for the office", "what about humidity", "and 25": the newest call that
    has such a part, with it changed."""
    for pattern in FOLLOW_UPS:
        match = pattern.match(said)
        if not match:
            continue
        new = match.group("new")
        read = vocabulary.read(new) or _quantity(new)
        if read is None:
            placed = _there(new, calls, vocabulary, before)
            if placed != new and QUESTION_OF_A_PLACE.match(placed):   # "and what's the humidity down there"
                return placed
            return _kind_in_area(placed, calls, vocabulary) or _thing_in_place(placed, calls, vocabulary) \
                or _unknown_part(new, calls, vocabulary)
        kind, value = read
        if kind == "quantity":
            return _quantity_changed(value, calls)
        if kind == "name" and new.endswith(" 1"):      # "no, the bay window one": of the kind acted on
            value = _whole_of_its_kind(value, calls, vocabulary)
        for call, turn in reversed(list(zip(calls, calls.turns))):   # past a call whose skill cannot act on the thing named
            key = REPLACES[kind].get(call["name"])
            misfits = kind == "name" and _misfits({"name": call["name"], "arguments": {"name": value}}, vocabulary)
            if key is not None and (kind not in ("name", "device") or target_of(call) is not None) and not misfits:
                changed = _with(call, key, value)
                return request_for(changed) if changed else None
            degrees = _degrees_of(call, before[turn]) \
                if kind == "unit" and UNIT_FACTORS.get(value, ("",))[0] == "temperature" else None
            if degrees is not None:
                # "what's that in fahrenheit" after the thermostat was set to 21, "in fahrenheit?" after a room's 17
                # degrees were read: that temperature, from the other unit
                other = next(unit for unit, (group, _) in UNIT_FACTORS.items() if group == "temperature" and unit != value)
                return request_for({"name": "convert", "arguments": {"value": degrees, "from": other, "to": value}})
        if kind == "area" and (there := _its_kind_there(value, calls, vocabulary, re.search(r"\b1\b", new) is None)):
            return there
        # a room, an area or a name the conversation's calls have no place for ("and the bedroom" after the thermostat)
        return Unplaced("Sorry, I'm not sure what you'd like there.") if kind in ("room", "area") else None
    return None


def _degrees_of(call: dict, reply: dict) -> float | None:
    """The temperature a call set (the thermostat's 21) or that its reply said was read (the office's 17); None for
    any other call."""
    if isinstance(call["arguments"].get("degrees"), (int, float)):
        return call["arguments"]["degrees"]
    read = _readings_said([reply])
    return read[0][2] if read and read[0][0] == "temperature" else None


def _its_kind_there(area: str, calls: list[dict], vocabulary: Vocabulary, several: bool) -> str | None:
    """ "and the gatehouse" after the annexe door was locked, "now the landing" after a lamp was switched off: the
    newest call on a named thing of the user's home, for the home's one thing of its kind in the area said (a
    sensor: of the same reading); a switch of a light, for the lights there when there are several and the words
    may mean several (not "the one in the gallery"). None when the area has none of that kind."""
    for call in reversed(calls):
        name = str(call["arguments"].get("name", "")).replace("_", " ")
        kind = vocabulary.kinds.get(name)
        if call["name"] not in REPLACES["name"] or kind is None:
            continue
        reading = [word for word in name.split() if word in SENSOR_KINDS]
        there = sorted(other for other, its in vocabulary.kinds.items() if its == kind and other != name
                       and vocabulary.places.get(other) == area and all(word in other.split() for word in reading))
        if len(there) == 1:
            return request_for(_with(call, "name", there[0]))
        if there and several and kind == "light" and call["name"] == "switch_device":
            return request_for({"name": "switch_all", "arguments": {
                "name": "lights", "area": area, "state": call["arguments"]["state"]}})
        return None
    return None


def _whole_of_its_kind(part: str, calls: list[dict], vocabulary: Vocabulary) -> str:
    """A part of names said with "one" ("the bay window one" after the dresser lamp): the one whole name of the home
    that says it and is of the kind of the newest thing acted on (the bay window lamp, not its blind); else the part."""
    acted = _acted_on(calls)
    kind = vocabulary.kinds.get(str(acted["arguments"].get("name", "")).replace("_", " ")) if acted else None
    whole = [name for name in vocabulary.kinds if kind and vocabulary.kinds[name] == kind and f" {part} " in f" {name} "]
    return whole[0] if part not in vocabulary.kinds and len(whole) == 1 else part


def _quantity(words: str) -> tuple[str, tuple[float, str]] | None:
    """ "20 km", "250 grams": a number and a unit, as ("quantity", (number, unit))."""
    match = re.fullmatch(r"(?:the |in )?(\d+(?:\.\d+)?) ([a-z ]+)", words)
    if match is None:
        return None
    unit = next((unit for unit, said in UNIT_WORDS.items() if match.group(2) in said), None)
    return ("quantity", (float(match.group(1)), unit)) if unit else None


def _quantity_changed(quantity: tuple[float, str], calls: list[dict]) -> str | None:
    """ "and 20 km" after "convert 10 km to miles": the newest conversion of that unit with the number changed;
    said in the unit converted to, the other way round."""
    value, unit = quantity
    for call in reversed(calls):
        args = call["arguments"]
        if call["name"] == "convert" and unit in (args.get("from"), args.get("to")):
            other = args["to"] if unit == args.get("from") else args["from"]
            return request_for({"name": "convert", "arguments": {"value": value, "from": unit, "to": other}})
    return None


def _unknown_part(new: str, calls: list[dict], vocabulary: Vocabulary) -> Declined | None:
    """A follow-up's new part of a word or three, said as a thing ("the ...", "... one") or a place, that names
    nothing of the home ("and upstairs", "not that one, the big one", "what about the loft"): asked about, naming
    what the conversation acted on last; any other part ("what about tomorrow", "and you") is left to the model."""
    words = re.sub(r"^(?:the|in the|in|on|for|my|our) ", "", new).removesuffix(" 1").split()
    thing = re.match(r"(?:(?:in |on |for )?the|my|our) ", new) or new.endswith(" 1") or " ".join(words) in OTHER_ROOM_WORDS
    if not thing or not words or len(words) > 3 or vocabulary.names_a_thing(" ".join(words)) \
            or any(re.fullmatch(r"\d+(?:\.\d+)?", word) or word in KNOWN_PART_WORDS or word in vocabulary.units
                   or vocabulary.read(word) is not None for word in words):
        return None
    targets = _targets(calls, False)[:2]
    if not new.endswith(" 1"):
        return Declined(f"Sorry, there's no {' '.join(words)} I know of.")
    if len(targets) == 2:
        return Declined(f"{WHICH_ONE_MEANT}{targets[0]} or {targets[1]}?")
    return Declined("Sorry, I'm not sure which one you mean.")


def _kind_in_area(new: str, calls: list[dict], vocabulary: Vocabulary) -> str | None:
    """ "and the lights in the billiard room too", "and the parlour lights": the newest call on that kind of thing
    (its device, or a name that is the kind or ends in it), in that area or room."""
    kind, _, place = re.sub(r"^(?:the|my|our|all the) ", "", new).partition(" in ")
    words = kind.split()
    if not place:          # the place said first: its longest run of words that is an area or a room
        place, kind = next(((" ".join(words[:i]), " ".join(words[i:])) for i in range(len(words) - 1, 0, -1)
                            if (vocabulary.read(" ".join(words[:i])) or ("",))[0] in ("area", "room")), ("", kind))
    read = vocabulary.read(place)
    if not kind or read is None or read[0] not in ("area", "room"):
        return None
    for call in reversed(calls):
        thing = str(call["arguments"].get("device") or call["arguments"].get("name") or "").replace("_", " ")
        if thing and (thing.removesuffix("s") == kind.removesuffix("s") or thing.endswith(" " + kind)):
            key = REPLACES[read[0]].get(call["name"])
            changed = _with(call, key, read[1]) if key else {}
            return request_for(changed) if changed else None
    return None


def _targets(calls: list[dict], timer: bool, fits=lambda call: True) -> list[str]:
    """The things the calls acted on, timers or other things, newest first, each once; only those of calls that
    fit, when said."""
    targets: list[str] = []
    for call in reversed(calls):
        target = target_of(call)
        if target is not None and target.timer == timer and target.words not in targets and fits(call):
            targets.append(target.words)
    return targets


def _kind(call: dict, kinds: dict[str, str]) -> str | None:
    """What kind of thing a call acted on (VERB_KINDS): by its skill, or by the home's component of a thing only
    asked about, or of a light whose name says no light's word ("dim it" after the yard floodlight); None when
    unknown."""
    name = str(call["arguments"].get("name") or call["arguments"].get("device") or "").replace("_", " ")
    if call["name"] in SKILL_KINDS:
        return SKILL_KINDS[call["name"]]
    if call["name"] in LEVEL_SKILLS or name in DEVICES["light"] or LIGHT.search(name) or kinds.get(name) == "light":
        return "light"
    if call["name"] != "get_state":
        return "switch"
    return "switch" if name in DEVICES else FOLLOW_UP_KINDS.get(kinds.get(name, ""))


def _pronoun(said: str, calls: list[dict], lexicon=None) -> str | Declined | None:
    """ "turn it off", "actually cancel it", "turn the other one off": the pronoun replaced by the thing it
    stands for: the newest timer when the words are about a timer, else the newest other thing (the newest
    timer when there is none); "the other one" is the one of those before the newest, "the first one" the
    oldest, "the second one" the one after it, "the last one" the newest (ORDINAL_REFERENCES)."""
    kinds = getattr(lexicon, "kinds", {})
    of_a_kind = ORDINAL_OF_A_KIND.search(said)
    word = of_a_kind.group("word") if of_a_kind and not REFERRING.search(said) else None
    if word is not None and any(_of_the_word(call, word, kinds) for call in calls):     # as "the other one" of them
        said = f"{said[:of_a_kind.start()]}the {of_a_kind.group('which')} 1{said[of_a_kind.end():]}"
    else:
        word = None
    match = REFERRING.search(said)
    plural_only = match is None and (match := PLURAL_REFERRING.search(said)) is not None
    if not match or SAYS_NO_ACTION.match(FILLERS.sub("", said[:match.start()]).strip()):
        return None
    timer = TIMER_WORDS.search(said) is not None
    # which of the things, newest first: "the other one" the one before the newest, "the first one" the oldest,
    # "the second one" the one after it
    which = ORDINAL_REFERENCES.get(match.group("ref"), 0)
    # the kinds of thing the words can act on ("lock it back up": a lock), read from the words beside the pronoun
    wanted = [set(kinds_said) for word in said.split() if (kinds_said := _verb_kinds(word))]
    fitting = set.intersection(*wanted) if wanted else None
    if fitting is not None and QUESTION.match(said):      # "is it still open": a sensor answers it too
        fitting.add("sensor")
    fits = lambda call: (fitting is None or _kind(call, kinds) in (None, *fitting)
                         or _a_position(call, kinds) in fitting) and \
        (word is None or _of_the_word(call, word, kinds))      # noqa: E731
    targets = _targets(calls, timer, fits)
    if which == 1 and kinds and targets and not timer:     # "the valve" asked which one, answered "the garden one"
        targets = [targets[0], *(other for other in targets[1:]
                                  if other.removeprefix("the ") in kinds or not other.startswith("the "))]
    if which and len(targets) < 2:        # "the other one off": the one before the newest, when it fits
        every = _targets(calls, timer)
        targets = every if len(every) >= 2 and every[which] in targets else targets
    newest = targets[0] if targets else None
    if which == 1 and len(targets) == 1:  # "no, the other one" after one thing: the other of its kind (_the_others)
        others = _the_others(targets[0], lexicon)
        if len(others) == 1:
            targets = [*targets, others[0]]
        elif len(others) == 2:           # "and the other one" after one of three humidifiers: either of the two
            return Declined(f"{WHICH_ONE_MEANT}{others[0]} or {others[1]}?")
    if not targets and not timer and which != 1:     # "stop it" when only a timer was acted on
        targets = _targets(calls, True)
    if len(targets) < (2 if which else 1):
        if fitting is not None and _targets(calls, timer) and not plural_only:   # things were acted on, none the
            return Declined("Sorry, I'm not sure which one you mean.")            # words can act on
        return None
    words = targets[which]
    if match.group("ref") in PLURAL_PRONOUNS or GROUP.search(said):
        chosen = _of_a_group(said, targets, lexicon)
        if isinstance(chosen, Declined):
            return None if plural_only else chosen
        words = chosen
        if plural_only and not _says_a_group(words):      # "what position are they at" after one blind of one name
            return None
        other = None if GROUP.search(said) or _is_newest(calls, words) else _another_plural(calls, words, fits, kinds)
        if other:                          # "turn them off" after the fairy lights, the lava lamps and the time
            return Declined(f"{WHICH_ONE_MEANT}{words} or {other}?")
    elif not which and len(together := _together(calls, words, timer, fits)) > 1:
        return Declined(f"{WHICH_ONE_MEANT}{together[0]} or {together[1]}?")
    elif match.group("ref") in BARE_REFERENCES and not _is_newest(calls, words) \
            and (other := _another_of_its_kind(calls, words, fits, kinds)):
        return Declined(f"{WHICH_ONE_MEANT}{words} or {other}?")
    after = said[match.end():].removeprefix(" 1" if re.match(r" 1\b", said[match.end():]) else "")   # "the other" 1
    if plural_only:                       # "dim those lights": the thing's own word after the pronoun; another thing
        said_again = re.match(r" ([a-z]+)\b", after)     # named after it is no reference ("close those blinds")
        own_word = words.partition(" in the ")[0].split()[-1]
        if said_again and own_word.removesuffix("s") == said_again.group(1).removesuffix("s"):
            after = after[said_again.end():]
        if Vocabulary(lexicon).names_a_thing(after):
            return None
    before = said[:match.start()]
    if match.group("ref") in PLURAL_PRONOUNS:        # "both of them", "them all": the group's words are the group
        before, after = GROUP_BEFORE.sub(" ", before).lstrip(), GROUP_AFTER.sub("", after)
    if PLACE_OF.search(words):            # "turn them off in there": the place is the thing's own
        after = THERE.sub("", after)
    referred = FILLERS.sub("", before + words + TRAILERS.sub("", after)).strip()
    bare = not set(referred.replace(words, " ").split()) - FRAME_WORDS     # "i meant the other one", "the other one"
    return _done_to(words, newest, calls) if which and bare else referred


def _a_position(call: dict, kinds: dict[str, str]) -> str | None:
    """ "cover" for a position set or stepped on a cover or valve of the user's home (a level, which _kind reads as a
    light's): "close them a bit more" after "open the study blinds halfway" moves the blinds."""
    name = str(call["arguments"].get("name") or "").replace("_", " ")
    return "cover" if call["name"] in LEVEL_SKILLS and FOLLOW_UP_KINDS.get(kinds.get(name, "")) == "cover" else None


def _verb_kinds(word: str) -> tuple[str, ...]:
    """The kinds of thing a verb acts on (VERB_KINDS), said as it is or as the state it leaves ("is it locked",
    "are they closed", "has it switched off"); () for a word that says none."""
    stems = (word, word.removesuffix("ed"), word.removesuffix("d")) if word.endswith("ed") else (word,)
    return next((VERB_KINDS[stem] for stem in stems if stem in VERB_KINDS), ())


def _of_the_word(call: dict, word: str, kinds: dict[str, str]) -> bool:
    """The call acted on a thing the word says the kind of: its name ends in the word ("the other heater"), or the
    word is a light's and the thing is a light ("the other light" after the festoon lights and the hayloft lamp)."""
    target = target_of(call)
    if target is None or target.timer:
        return False
    last = target.words.split(" in the ")[0].rpartition(" ")[2]
    return last.removesuffix("s") == word.removesuffix("s") or \
        word in DEVICES["light"] and _kind(call, kinds) == "light"


def _done_to(words: str, newest: str, calls: list[dict]) -> str:
    """ "no, the other one", "and the other one" (a thing and nothing more): the newest call made on a thing of the
    user's home by its name, made on the thing the words are; the words alone when there is no such call."""
    call = next((call for call in reversed(calls) if (target := target_of(call)) and target.words == newest), None)
    if call is None or "name" not in call["arguments"] or call["name"] == "switch_all" or not words.startswith("the "):
        return words
    arguments = {key: value for key, value in call["arguments"].items() if key != "area"}
    return request_for({"name": call["name"], "arguments": {**arguments, "name": words.removeprefix("the ")}}) or words


def _the_other(words: str, lexicon) -> str | None:
    """The one other thing of the user's home that "the other one" said after the thing in words means
    (_the_others); None when there is not exactly one."""
    others = _the_others(words, lexicon)
    return others[0] if len(others) == 1 else None


def _the_others(words: str, lexicon) -> list[str]:
    """The things of the user's home that "the other one" after the thing in words could mean: the one other of its
    component in its area ("the upper landing light": the lower landing light), else the others of its component in
    the whole home ("the garden valve": the main water valve, its only other valve), as said ("the main water
    valve"); none for a thing the home does not know."""
    kinds, places = getattr(lexicon, "kinds", {}), getattr(lexicon, "places", {})
    name = words.removeprefix("the ")
    if name not in kinds:
        return []
    there = [other for other, kind in kinds.items()
             if other != name and kind == kinds[name] and places.get(name) and places.get(other) == places[name]]
    others = there if len(there) == 1 else [other for other, kind in kinds.items() if other != name and kind == kinds[name]]
    return [f"the {other}" for other in others]


def _of_the_newest_kind(calls: list[dict], words: str, fits, kinds: dict[str, str]) -> list[str]:
    """The things the words fit that are of the kind of the newest call on words, as _targets orders them: what
    "it" or "them" could be besides words; none when no call was on words."""
    newest = next((call for call in reversed(calls) if (target := target_of(call)) is not None
                   and target.words == words), None)
    if newest is None:
        return []
    kind = _kind(newest, kinds)
    return _targets(calls, target_of(newest).timer, lambda call: fits(call) and _kind(call, kinds) == kind)


def _another_of_its_kind(calls: list[dict], words: str, fits, kinds: dict[str, str]) -> str | None:
    """The thing before the newest (words) that the words fit too and is of its kind: "turn it off" after the
    samovar, the ice maker and the time could be either (a light and a fan are told apart by their kinds); None
    when there is none."""
    same = _of_the_newest_kind(calls, words, fits, kinds)
    return same[1] if len(same) > 1 else None


def _another_plural(calls: list[dict], words: str, fits, kinds: dict[str, str]) -> str | None:
    """Another thing of the kind of words (a thing whose name is plural, or a group) that the words fit and whose name
    is plural too: "turn them off" after the fairy lights, the lava lamps and the time could be either; None when
    there is none."""
    same = _of_the_newest_kind(calls, words, fits, kinds)
    return next((other for other in same if other != words and _says_a_group(other)), None)


def _is_newest(calls: list[dict], words: str) -> bool:
    """The newest call of the conversation is on the thing (words): nothing came between, and a pronoun is that
    thing ("turn on the punkah", "and the whirlwind fan", "turn that off": the fan)."""
    return bool(calls) and (target := target_of(calls[-1])) is not None and target.words == words


def _of_a_group(said: str, targets: list[str], lexicon) -> str | Declined:
    """What a plural pronoun or a group ("turn them off", "them both", "all of them") stands for, of the things
    that fit, newest first: the newest that is a group itself ("all the lights", "the fairy lights"); else the one
    thing acted on; else all the lights or everything of one area, when they are those things; else no one call
    serves, and a call on one of them is not what was asked."""
    groups = [words for words in targets if _says_a_group(words)]
    if groups and (groups[0] == targets[0] or not GROUP.search(said)):
        return groups[0]
    if len(targets) == 1:
        return targets[0]
    things = {words.removeprefix("the ") for words in (targets[:2] if re.search(r"\bboth\b", said) else targets)}
    kinds, places = getattr(lexicon, "kinds", {}), getattr(lexicon, "places", {})
    area = {places.get(thing) for thing in things}
    if len(area) == 1 and None not in area:
        area = area.pop()
        here = {name: kinds.get(name) for name, place in places.items() if place == area}
        if things == {name for name, kind in here.items() if kind == "light"}:
            return f"all the lights in the {area}"
        if things == {name for name, kind in here.items() if FOLLOW_UP_KINDS.get(kind) in ("light", "switch")}:
            return f"everything in the {area}"
    return Declined(f"Sorry, I can only do one at a time: {targets[0]} or {targets[1]}?")


def _says_a_group(words: str) -> bool:
    """The words name more than one thing: "all the lights", "everything in the snug", "the dock lights"."""
    thing = words.partition(" in the ")[0]
    return thing.split()[0] in ("all", "everything") or says_many(thing)


def _together(calls: list[dict], words: str, timer: bool, fits) -> list[str]:
    """The things that fit, acted on by the reply that acted on the newest call's thing (words): more than one
    when that reply did several ("turn on the kitchen fan and the bathroom fan"), and a pronoun singles none out."""
    turns = getattr(calls, "turns", None)
    newest = next((i for i in range(len(calls) - 1, -1, -1)
                   if (target := target_of(calls[i])) is not None and target.words == words), None)
    if not turns or newest is None:
        return []
    return _targets([call for call, turn in zip(calls, turns) if turn == turns[newest]], timer, fits)


def _which_timer(said: str, calls: list[dict]) -> Declined | None:
    """ "cancel the timer", "how long is left on the timer" when two or more named timers run and no unnamed one:
    which of them is not said, so it is asked."""
    if not THE_TIMER.search(said) or any(call["name"] == "set_timer" for call in calls):
        return None
    stopped = {call["arguments"].get("name") for call in calls if call["name"] == "stop_timer"}
    named = _targets([call for i, call in enumerate(calls) if call["name"] == "start_timer"
                      and call["arguments"].get("name") not in stopped and not _turned_down(calls, i)], True)
    return Declined(f"{WHICH_ONE_MEANT}{named[0]} or {named[1]}?") if len(named) > 1 else None


def _turned_down(calls: list[dict], i: int) -> bool:
    """A call said back and answered with anything but a yes (the next call a confirm that is not one) never ran:
    "Did you mean a timer called ice?" "No." leaves no ice timer to ask about."""
    after = calls[i + 1] if i + 1 < len(calls) else None
    return after is not None and after["name"] == "confirm" and after["arguments"].get("answer") != "yes"


def _left(said: str, calls: list[dict]) -> str | Declined | None:
    """ "fine, leave it off", "leave the other one": asks for nothing, so nothing is called; "leave it where it is"
    just after a cover was set moving: it stops there."""
    if not LEAVE.match(said) or not calls:
        return None
    newest = calls[-1]
    if newest["name"] == "set_cover" and newest["arguments"].get("action") in ("open", "close") and HELD.search(said):
        return request_for(_with(newest, "action", "stop"))
    return Declined("Okay, I'll leave it.")


def _undone(said: str, calls: list[dict]) -> str | Declined | None:
    """ "undo that", "put it back how it was": the newest change (of the thing named: "undo the heater") taken back:
    a state, an action or a step turned round, a setting back to the value the conversation set before it, a timer
    cancelled; declined when the conversation does not say what it was (a scene, a first setting)."""
    changes = [call for call in calls if call["name"] not in NOT_CHANGES]
    undo = UNDO.match(said) is not None
    call = (changes[-1] if changes else None) if undo else _undone_thing(said, changes)
    if call is None:
        return Declined("Sorry, there's nothing I can undo.") if undo else None
    args = call["arguments"]
    if call["name"] in TIMER_STARTS:
        return f"cancel the {args['name']} timer" if args.get("name") else "cancel the timer"
    for key, opposite in OPPOSITES.items():
        if args.get(key) in opposite:
            return request_for(_with(call, key, opposite[args[key]])) or None
    key = LEVEL_UNIT.get(call["name"])
    target = target_of(call)
    earlier = next((old for old in reversed(calls[:calls.index(call)]) if old["name"] == call["name"]
                    and target_of(old) == target and isinstance(old["arguments"].get(key), (int, float))), None) \
        if key else None
    if earlier is None:
        return Declined("Sorry, I don't know what it was before.")
    return request_for(_with(call, key, earlier["arguments"][key]))


def _undone_thing(said: str, changes: list[dict]) -> dict | None:
    """ "put the blind back how it was", "undo the heater": the newest change of the thing said where "undo it" says
    "it" (by its name or its kind's last word), past changes of other things since; None when no change fits."""
    for call in reversed(changes):
        target = target_of(call)
        name = target.words.removeprefix("the ").split(" in the ")[0] if target else ""
        for words in {name, name.rpartition(" ")[2]} - {""}:
            thing = re.compile(rf"\bthe {re.escape(words)}\b")
            if thing.search(said) and UNDO.match(thing.sub("it", said, count=1)):
                return call
    return None


def _again(said: str, calls: Calls, vocabulary: Vocabulary, before: list[dict]) -> str | None:
    """ "same again": the newest call once more, when it is one a request can be said for; "same again but 10
    minutes": the newest call the new value fits, with it; "how about now": the newest reading (a sensor, a thing's
    state, a timer's time left) once more."""
    if SAME_AGAIN.match(said):
        return request_for(calls[-1])
    if (match := SAME_AGAIN_WITH.match(said)) is not None:
        return _newest_fitting(f"make it {match.group('new')}", calls, vocabulary, before)
    if ASKED_AGAIN_NOW.match(said):
        read = next((call for call in reversed(calls) if call["name"] in SKILLS and SKILLS[call["name"]].reads), None)
        return request_for(read) if read is not None else None
    return None


def _newest_timer(calls: list[dict]) -> dict | None:
    """The newest call that started a timer: what "make it 5" and "another one" take their unit from."""
    return next((call for call in reversed(calls) if call["name"] in TIMER_STARTS), None)


def _another(said: str, calls: list[dict]) -> str | None:
    """ "another one for 10", "another one for the garlic bread, 5 minutes", "the beans want one too, 5 minutes":
    one more timer, for the length said, in the newest timer's unit when none is said ("timer for 5 minutes",
    "another one for 10": 10 minutes)."""
    match = ANOTHER_TIMER.match(said) or WANTS_ANOTHER.match(said)
    timer = _newest_timer(calls)
    if not match or timer is None or not isinstance(timer["arguments"].get("seconds"), (int, float)):
        return None
    if match.groupdict().get("length"):             # "and a 10 minute one"
        return request_for({"name": "set_timer", "arguments": {"seconds": match.group("length")}})
    seconds = float(match.group("n")) * (1 if match.group("unit") else _unit_of(timer["arguments"]["seconds"]))
    label = re.sub(r"\b(?:1|timer|for)\b", "", match.group("label") or "").strip() or None
    if label is not None and not match.group("unit"):
        return None
    call = {"name": "start_timer", "arguments": {"name": label, "seconds": seconds}} if label else \
        {"name": "set_timer", "arguments": {"seconds": seconds}}
    return request_for(_with(call, "seconds", seconds))


def _unit_of(seconds: float) -> int:
    """The unit a length was most likely said in: hours, minutes or seconds."""
    return next(unit for unit in (3600, 60, 1) if seconds >= unit and seconds % unit == 0)


def _multiplied(said: str, calls: list[dict]) -> str | None:
    """ "twice as long", "half as bright", "halve the pendant": the newest length or level (or that of the thing
    named) times the multiple; a sum's result is ON_THE_RESULT's."""
    match = MULTIPLE.match(said)
    if not match or calls[-1]["name"] == "calculate" and not match.group("what"):
        return None
    times = MULTIPLES[match.group("times") or match.group("verb")]
    keys = MULTIPLIED[match.group("what")] if match.group("what") else ("seconds", "percent")
    thing = match.group("thing") or match.group("named")
    for call in reversed(calls):
        key = next((key for key in keys if isinstance(call["arguments"].get(key), (int, float))), None)
        if key is None or thing and not (_is_named(f"the {thing}", call)
                                         or str(call["arguments"].get("name", "")).replace("_", " ") == thing):
            continue
        value = call["arguments"][key] * times
        return request_for(_with(call, key, min(value, 100) if key == "percent" else value))
    return None


def _operand_changed(said: str, calls: list[dict]) -> str | None:
    """ "and times 8" after "what's 12 times 7": the newest sum with its second number changed, when the words
    say its operator ("by" for any)."""
    match = OPERAND.match(said)
    call = next((call for call in reversed(calls) if call["name"] == "calculate"), None)     # past other skills
    if not match or call is None:
        return None
    parts = re.fullmatch(r"\s*(-?\d+(?:\.\d+)?)\s*([*/+-])\s*(-?\d+(?:\.\d+)?)\s*",
                         str(call["arguments"].get("expression", "")))
    if parts is None or match.group("op") != "by" and OPERATORS[match.group("op")] != parts.group(2):
        return None
    words = {operator: word for word, operator in reversed(OPERATORS.items())}
    return f"what is {parts.group(1)} {words[parts.group(2)]} {match.group('n')}"


def chosen_request(history: list[dict], lexicon: tuple[set, set] | None = None) -> str | None:
    """The request an answer stands for, whatever its skill: to the assistant's "Which one: ...?" ("is the heat pump
    on" for "the heat pump" after "is the AC on"), or to its refusal of a name ("turn off the air conditioner" for "the
    air conditioner" after "turn off the cooler" got "Sorry, I don't know a device by that name."); None for any
    other turn."""
    said = synonyms(normalize_request(content_text(history[-1])))
    chosen = _chosen(history, said)
    if chosen is None and len(history) >= 3 and history[-2].get("role") == "assistant" and \
            (content_text(history[-2]) == UNKNOWN_NAME or UNKNOWN_DEVICE_SAID.match(content_text(history[-2]))):
        chosen = _answered(history, said, Vocabulary(lexicon))
    return chosen if isinstance(chosen, str) else None


def _chosen(history: list[dict], said: str) -> str | Declined | None:
    """ "the second one", "the upstairs one", "both" after "Which one: the upper landing light or the lower landing
    light?": the request asked about, with the chosen thing, or all of them said as many ("all the landing lights"),
    in place of the thing it said, and a number said with the choice in place of its number ("the radiator, and make
    it 18"). The question's choices are the state: an answer is read against them before the home's names. "not
    that one": the question again. None when the last turn asked no such question or the answer picks none."""
    if len(history) < 3 or history[-2].get("role") != "assistant" or history[-3].get("role") != "user":
        return None
    question = CHOICE_QUESTION.match(content_text(history[-2]))
    if question is None:
        return None
    choices = [choice.removeprefix("the ").split(" in the ")[0]
               for choice in CHOICE_SPLIT.split(question.group("choices"))]
    answer = ANSWER_TAIL.sub("", ANSWER_HEAD.sub("", FILLERS.sub("", said)))
    if answer in NOT_A_CHOICE:
        return Declined(content_text(history[-2]))
    with_number = CHOICE_NUMBER.fullmatch(answer)
    answer, number = (with_number.group("part"), with_number.group("n")) if with_number else (answer, None)
    before = normalize_request(content_text(history[-3]))
    thing = THING.search(before)
    # or the pronoun the question asked about ("turn them off": "Which one do you mean, the lava lamps or ...?")
    pronoun = None if thing else REFERRING.search(before) or PLURAL_REFERRING.search(before)
    if thing is None and answer in ALL_CHOICES:
        return None
    # a request that named nothing ("pause", "louder" while two players play): the thing chosen after its words
    start, end = (thing.start(), thing.end("thing")) if thing else pronoun.span("ref") if pronoun else \
        (len(before) + 1,) * 2
    before = before if thing or pronoun else before + " "
    words = [CHOICE_WORDS.get(word, word) for word in answer.removeprefix("the ").removesuffix(" 1").split()]
    if answer in ALL_CHOICES:
        said_thing = thing.group("thing")
        new = "all the " + (said_thing if said_thing.endswith("s") else said_thing + "s")
    elif len(words) == 1 and words[0] in CHOICE_PLACES and CHOICE_PLACES[words[0]] < len(choices):
        new = "the " + choices[CHOICE_PLACES[words[0]]]
    else:
        fit = [choice for choice in choices if set(words) <= set(choice.split())]
        if len(fit) != 1:
            return None
        new = "the " + fit[0]
    request = before[:start] + new + before[end:]
    if number is None:
        return request
    numbers = list(re.finditer(r"\b\d+(?:\.\d+)?\b", request))
    return request[:numbers[-1].start()] + number + request[numbers[-1].end():] if numbers else None


def _answered(history: list[dict], said: str, vocabulary: Vocabulary) -> str | None:
    """ "the salt one" after "turn on the lamp" was asked about ("Which one, ...?"), "ok 22 then" or "the hallway one
    then" after it was refused, "22" after the temperature of a climate stepped was asked (tools.TARGET_QUESTION: the
    climate set to it), "half past 6" after a request for an alarm that said no time: the request before, with the
    part the answer gives in place of its own: a number, a room or an area (added when it had none), a name or a
    device (its last word, or with "one" its first words).
    None when the assistant's last turn made a call and asked nothing ("Which one: ...?" is a call's answer), the
    answer is no such part, or it is a thing or a place and the refused request (not a question asked back) named
    none (nor one the home lacks, said back: "I don't know a device called the loft hatch.") and no reading while the
    conversation made calls (the weather, a shopping list: the part changes a call)."""
    if len(history) < 3 or history[-2].get("role") != "assistant" or history[-3].get("role") != "user" \
            or _assistant_calls(history[-2]) and "?" not in content_text(history[-2]):
        return None
    answer = ANSWER_TAIL.sub("", ANSWER_HEAD.sub("", FILLERS.sub("", said)))
    before = normalize_request(content_text(history[-3]))
    clock = CLOCK.fullmatch(re.sub(r"^(?:at|for) ", "", answer))
    if clock and ALARM_REQUESTED.search(before) and not re.search(r"\d", before):
        return f"{before} at {clock.group(0)}"      # "half past 6" after "set an alarm" was refused or its time asked
    number = re.fullmatch(r"(\d+(?:\.\d+)?)(?: percent| degrees)?", answer)
    asked = TARGET_QUESTION_SAID.match(content_text(history[-2]))
    if number and asked and not number.group(0).endswith("percent"):   # "22" after "What temperature would you like"
        return f"set {asked.group('thing').lower()} to {number.group(1)}"
    if number:
        numbers = list(re.finditer(r"\b\d+(?:\.\d+)?\b", before))
        return before[:numbers[-1].start()] + number.group(1) + before[numbers[-1].end():] if numbers else None
    match = re.fullmatch(r"(?:in |on |for )?(?:the )?(?P<part>(?:1 in (?:the )?)?[a-z][a-z ]*?)(?P<one> 1)?", answer)
    read = vocabulary.read(match.group("part")) if match else None
    if read is None or read[0] not in ("room", "area", "name", "device"):
        return None
    if "?" not in content_text(history[-2]) and not vocabulary.names_a_thing(before) \
            and not UNKNOWN_DEVICE_SAID.match(content_text(history[-2])) \
            and not {*SENSOR_KINDS, "humid", "temp"} & set(before.split()) and calls_of_history(history[:-1]):
        return None                      # "and the gallery" after the weather was refused: a part for the calls made
    part = str(read[1]).replace("_", " ") if read[0] in ("room", "area") else match.group("part")
    words = before.split()
    places = [(i, j) for i, j in vocabulary.spans(words, range(len(words)))
              if " ".join(words[i:j]) in (*vocabulary.rooms, *vocabulary.areas, *OTHER_ROOM_WORDS)]
    if read[0] in ("room", "area") and places:
        i, j = max(places, key=lambda span: span[1] - span[0])
        return " ".join([*words[:i], part, *words[j:]])
    thing = THING.search(before)
    if thing is None:
        return None
    if read[0] in ("room", "area") and not match.group("one"):
        return f"{before} in the {part}"
    said_thing = thing.group("thing").split()
    named = [part, said_thing[-1]]            # "the velux" of "the attic window": the velux window, when the home has it
    # a device of the default home keeps the room said before it ("the kitchen dishwasher": the kitchen coffee maker);
    # a name of the user's own is whole
    new = named if match.group("one") or vocabulary.knows(" ".join(named)) else \
        [*said_thing[:-1], part] if read[0] == "device" else [part]
    return before[:thing.start("thing")] + " ".join(new) + before[thing.end("thing"):]


def _fragment_parts(said: str, calls: list[dict], vocabulary: Vocabulary) -> dict | None:
    """The parts a fragment says, each once: a thing ("name" of the user's home, "device" of the default one), a
    place ("area", "room", or "there": the call's own), a reading's "kind", a "timer" the conversation set, a
    "number" and its "unit", a "state", an "action" or a light's "direction"; None
    when a word is none of them nor of FRAGMENT_WORDS, or a kind of part is said twice (two things are no one call)."""
    things = ("room", "device") if vocabulary.lexicon is None else ("name", "area")
    parts: dict = {"there": True} if THERE.search(said) else {}      # "in that room": the place of the call completed
    labels = {str(call["arguments"]["name"]).replace("_", " ") for call in calls
              if call["name"] in TIMER_SKILLS and call["arguments"].get("name")}
    # "the hallway's too": a thing's or a place's, not "it's" or "that's" (no fragment)
    words = [word.removesuffix("'s") if word.removesuffix("'s") not in FRAGMENT_WORDS else word
             for word in THERE.sub(" ", said).split()]
    unread: list = []          # names or parts of one read, and runs of words that may be part of one
    i = 0
    while i < len(words):
        word, after = words[i], words[i + 1] if i + 1 < len(words) else ""
        found: list[tuple[str, object]] = []
        if NUMBER_SAID.fullmatch(word) and (word != "1" or after in FRAGMENT_UNITS):
            found, i = [("number", float(word))], i + 1
            if after in FRAGMENT_UNITS:
                found, i = [*found, ("unit", FRAGMENT_UNITS[after])], i + 1
        elif word in ACTION_PARTS and not (word == "on" and ("number" in parts and NUMBER_SAID.fullmatch(words[i - 1])
                                                             or _place_follows(words[i + 1:], vocabulary))):
            found, i = [ACTION_PARTS[word]], i + 1
        elif word in FRAGMENT_WORDS or word in TOWARDS and after == "to":
            i += 1
        elif word in FRAGMENT_WAYS:
            found, i = [("direction", FRAGMENT_WAYS[word])], i + 1
        elif word in SENSOR_KINDS:           # a reading's kind, not part of a sensor's name
            found, i = [("kind", word)], i + 1
        elif (label := next((j for j in range(len(words), i, -1) if " ".join(words[i:j]) in labels), None)) is not None:
            found, i = [("timer", " ".join(words[i:label]))], label
        elif (span := next((j for _, j in sorted(vocabulary.spans(words, [i]), key=lambda s: s[0] - s[1])
                            if (read := vocabulary.read(" ".join(words[i:j]))) is not None and read[0] in things),
                           None)) is not None:
            read = vocabulary.read(" ".join(words[i:span]))
            if read[0] == "name":
                unread.append(read[1])          # a name or part of one: read once the place is known
            else:
                found = [read]
            i = span
        else:
            if unread and isinstance(unread[-1], list) and unread[-1][-1] == i - 1:
                unread[-1].append(i)
            else:
                unread.append([i])
            i += 1
        for kind, value in found:
            if kind in parts:
                return None
            parts[kind] = value
    for run in unread:
        part = run if isinstance(run, str) else " ".join(words[j] for j in run)
        name = _name_in_part(part, parts.get("area"), calls, vocabulary)
        if name is None or "name" in parts:
            return None
        parts["name"] = name
    if isinstance(parts.get("name"), str) and vocabulary.places.get(parts["name"]) not in (None, parts.get("area", vocabulary.places.get(parts["name"]))):
        return None                       # a name said in a place it is not in
    return parts


def _place_follows(words: list[str], vocabulary: Vocabulary) -> bool:
    """The words after an "on" are a pronoun, or a place of the home and nothing more ("the lantern on the veranda
    the same"): the "on" says where, not a state."""
    if words and (words[0] in PLURAL_PRONOUNS or words[0] in PRONOUN_OBJECTS):
        return True
    if not words or words[0] != "the":
        return False
    rest = words[1:]
    return any((read := vocabulary.read(" ".join(rest[:n]))) is not None and read[0] in ("area", "room")
               and all(word in FRAGMENT_WORDS for word in rest[n:]) for n in range(1, len(rest) + 1))


def _name_in_part(part: str, area: str | None, calls: list[dict], vocabulary: Vocabulary) -> str | tuple | None:
    """The one name of the user's home that a part of it stands for ("lamp", "velux", "the lantern" on the
    veranda): the words start or end the name ("the lights" of a room are all of them), in the place said if one
    is; the one the conversation used first, then the one of the home. Several the conversation used: all of them
    (to ask which); None when no name or several of the home's fit."""
    whole = vocabulary.kinds or vocabulary.names
    if part in whole:
        return part
    names = [name for name in whole if (name.startswith(part + " ") or name.endswith(" " + part))
             and (area is None or vocabulary.places.get(name) == area)]
    if not names:
        return None
    used = {str(call["arguments"].get("name", "")).replace("_", " ") for call in calls}
    among = sorted({name for name in names if name in used})
    if among:
        return among[0] if len(among) == 1 else tuple(among)
    return names[0] if len(set(names)) == 1 else None


def _completed(said: str, calls: Calls, vocabulary: Vocabulary) -> str | Declined | None:
    """A fragment ("the salt lamp too", "hmm 75 on those", "the nursery radiator to the same", "off again")
    completed from the newest call on a thing it fits: each part the fragment says in place of that call's, the
    rest kept. A part no call takes is no request; one call of several made together, one of several things the
    part of a name may be, or a thing said alone that no call fits ("the roman blind too" after a switch) is
    asked about; a thing said with what to do with it ("shut the garage fan off") is a request of its own. A number
    alone goes only to the calls that have a number of their own, when there are any ("and 8 of them" after a
    conversion, then a switch: the conversion, which _changed_part reads)."""
    parts = _fragment_parts(said, calls, vocabulary)
    if not parts or set(parts) <= {"unit", "there"}:
        return None
    if isinstance(parts.get("name"), tuple):        # "the lamp" after two lamps: which one, when either would do
        fit = [name for name in parts["name"] if any(_filled(call, {**parts, "name": name}, vocabulary) for call in calls)]
        return Declined(f"{WHICH_ONE_MEANT}the {fit[0]} or the {fit[1]}?") if len(fit) > 1 else None
    # newest first; a device said goes on from the newest call on that device ("the plug in the garage as well" after
    # "turn off the office plug" and a speaker switched on: off), before any newer call on another
    device = parts.get("device")
    owning = [k for k, call in enumerate(calls) if REPLACES["number"].get(call["name"]) in call["arguments"]] \
        if set(parts) == {"number"} else []
    order = sorted(owning[::-1] or range(len(calls) - 1, -1, -1),
                   key=lambda k: device is not None and calls[k]["arguments"].get("device") != device)
    for k in order:
        changed = _filled(calls[k], parts, vocabulary)
        if changed is None:
            continue
        if not {"name", "device", "area", "room"} & set(parts):      # the call's thing: one of several is asked about
            together = _targets([call for call, turn in zip(calls, calls.turns) if turn == calls.turns[k]], False,
                                lambda call: _filled(call, parts, vocabulary) is not None)
            if len(together) > 1:
                return Declined(f"{WHICH_ONE_MEANT}{together[0]} or {together[1]}?")
        return request_for(changed)
    thing = parts.get("name") or parts.get("device")
    says_what = {"state", "action", "number", "direction"} & set(parts)     # "shut the garage fan off": a request
    if thing and not says_what and any(target_of(call) is not None for call in calls):   # a thing nothing done fits
        return Declined(f"Sorry, I'm not sure what you'd like done with the {DEVICE_SPOKEN.get(thing, thing)}.")
    return None


def _filled(call: dict, parts: dict, vocabulary: Vocabulary) -> dict | None:
    """The call with the fragment's parts in place of its own, in the skill they ask for (a state: a switch; an
    action: a cover or a lock; a number: a level or a setting, by the thing's kind); a reading or a timer's question
    with another place, kind or timer; None when the call is on no thing, a part has no place in it, its thing is
    not of a kind the skill acts on, or nothing changes."""
    name, args = call["name"], call["arguments"]
    if name == "read_sensor" or name == "get_state" and args.get("name") in SENSOR_KINDS:
        return _reading_filled(call, parts)
    if name in TIMER_QUESTIONS:
        same = parts.get("timer") == str(args.get("name", "")).replace("_", " ")
        return None if set(parts) != {"timer"} or same else {"name": name, "arguments": {"name": parts["timer"]}}
    target = target_of(call)
    if target is None or target.timer or {"kind", "timer"} & set(parts):
        return None
    if name == "set_level" and FOLLOW_UP_KINDS.get(vocabulary.kinds.get(str(args.get("name", "")).replace("_", " "), "")) \
            == "climate":                 # a heater's level is its degrees (ToolRunner._set_level)
        name, args = "set_thermostat", {"name": args.get("name"), "degrees": args.get("percent")}
    if vocabulary.lexicon is None:
        device = args.get("device") or (args.get("name") if name in ("get_state", "get_level") else None) \
            or ("light" if name in LEVEL_SKILLS else "thermostat" if name == "set_thermostat" else None)
        thing = parts.get("device", device)
        kind = "light" if thing == "light" else "climate" if name == "set_thermostat" and "device" not in parts \
            else "switch"
    else:
        thing = str(parts.get("name", args.get("name", ""))).replace("_", " ")
        kind = FOLLOW_UP_KINDS.get(vocabulary.kinds.get(thing, ""))
        place = args.get("area") or vocabulary.places.get(str(args.get("name", "")).replace("_", " "))
        if parts.get("there") and (place is None or vocabulary.places.get(thing) != place):
            return None                   # "the kiln in that room": a thing of that room, or none
    asked = "state" if "state" in parts else parts.get("action") if "action" in parts else \
        f"number {kind}" if "number" in parts else f"direction {kind}" if "direction" in parts else None
    skill = name if asked is None or name == "switch_all" and asked == "state" and "name" not in parts \
        else FRAGMENT_SKILLS[vocabulary.lexicon is None].get(asked)
    if skill is None or not thing or "number" in parts and parts.get("unit", LEVEL_UNIT.get(skill)) != LEVEL_UNIT.get(skill):
        return None
    if vocabulary.lexicon is None:
        room = parts.get("room", args.get("room") or args.get("area"))
        filled = {"set_device": {"device": thing, "room": room}, "set_brightness": {"room": room},
                  "change_brightness": {"room": room}, "get_state": {"name": thing, "area": room},
                  "get_level": {"name": thing, "area": room}, "set_thermostat": {}}.get(skill)
        if kind == "climate" and {"device", "room"} & set(parts) or skill in LEVEL_SKILLS and thing != "light" \
                or skill == "get_level" and thing not in SKILL_COMPONENTS[skill]:
            return None
    elif skill == "switch_all":
        filled = {"name": args.get("name"), "area": parts.get("area", args.get("area"))} if "name" not in parts else None
    else:
        filled = {"name": thing} if "area" not in parts or "name" in parts else None
        if kind is not None and kind not in _takes(skill):
            return None
    if filled is None:
        return None
    taken = SKILL_PARTS.get(skill, {})
    if {"number", "state", "action", "direction"} & set(parts) - set(taken.values()):      # a value with no place
        return None
    filled.update({key: parts.get(part, args.get(key)) for key, part in taken.items()})
    if any(value is None for key, value in filled.items() if key not in SKILLS[skill].optional):
        return None
    filled = {key: int(value) if isinstance(value, float) and value.is_integer() else value
              for key, value in filled.items() if value is not None}     # an optional one the call left out
    same = skill == name and all(args.get(key) == value for key, value in filled.items())
    return None if same else {"name": skill, "arguments": filled}


def _reading_kind(call: dict) -> str:
    """A reading's kind: temperature or humidity."""
    return call["arguments"].get("kind") if call["name"] == "read_sensor" else call["arguments"].get("name")


def _is_reading(call: dict) -> bool:
    """A sensor's reading (read_sensor, or get_state of a kind of reading)."""
    return call["name"] == "read_sensor" or call["name"] == "get_state" and call["arguments"].get("name") in SENSOR_KINDS


def _reading_filled(call: dict, parts: dict) -> dict | None:
    """A reading with the fragment's place or kind in place of its own ("the office then", "the humidity there");
    None for any other part, or when nothing changes."""
    if set(parts) - {"room", "area", "kind", "there"}:
        return None
    args = call["arguments"]
    kind, place = ("kind", "room") if call["name"] == "read_sensor" else ("name", "area")
    filled = {kind: parts.get("kind", args.get(kind)), place: parts.get(place, args.get(place))}
    if any(value is None for value in filled.values()) or all(args.get(key) == value for key, value in filled.items()):
        return None
    return {"name": call["name"], "arguments": filled}
