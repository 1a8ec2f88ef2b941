"""The chat template: a conversation becomes the prompt, and a generated reply becomes a tool call and speech.

Prompt, one line per kept turn (the model reads it with the reply canvas after it):

    <|user|> turn on the kitchen light<|assistant|><|call|> set_device device=light room=kitchen state=on
    <|user|> and in the bedroom<|assistant|>

(one line here; no spaces before special tokens, so none become tokens). Reply (what the model writes,
padded with <|eos|> to the canvas length):

    <|call|> set_device device=light room=bedroom state=on<|say|> Okay, the bedroom light is {result}.

A previous assistant turn is shown by the tool call it made (that is what a follow-up like "and in the
bedroom" refers back to), or by <|say|> when it made none. User text goes through the spoken-number
normaliser. Only the last MAX_USER_TURNS user turns are kept (at run time a follow-up that refers further
back has already been rewritten by assistant.conversation), and system messages and tool outputs are
not shown: the embedded model is too small to follow free-form instructions, and tool outputs reach the
user through the {result} slot instead.

Numbers, and in a user's own home the names of its devices and areas, reach the model as slots (<n0>,
<e0>, <a0>): the model points at them, deterministic code puts them back. Slots are numbered from the
request being answered backwards, so a self-contained request reads the same whatever came before it.
"""
import json
import re
from collections import Counter
from dataclasses import dataclass, field

from assistant.client_tools import PARAMETER_SLOTS, TOOL_SLOTS, ToolSlots, choose, tool_block
from assistant.inventory import (APPLIANCES, KIND_WORDS, LEVEL_ACTIONS, SWITCH_ALL_COMPONENTS, SWITCHABLE, Lexicon,
                                 spelling_key)
from assistant.inventory import CLASS_WORDS, DEFAULT_MODES, PLURAL_KINDS
from assistant.phrasings import any_of as _any_of
from assistant.skills import (COLOUR_SKILLS, LEVEL, LEVEL_SKILLS, LEVEL_UNIT, MODE_SKILLS, NUMBER, READINGS,
                             SKILL_COMPONENTS, SKILLS, TIMER_SKILLS)
from assistant.spoken_numbers import normalize_request
from assistant.vocabulary import (ABILITY_OPENERS, ADDRESS_WORDS, ADVERBS, ASKING_WORDS, ASKING_WRAPPERS,
                                  BARE_REQUEST_VERBS, CLIMATE_STEP_WAYS, CONDITION_OPENERS, CONVERSION_TARGET_BEFORE,
                                  COUNTING_WORDS, COVER_LEVELS, COVER_STEPS, LEVEL_NAMED_BY, LEVEL_SAID_AFTER,
                                  DEVICE_CUES, DEVICES, MEDIA_CONTROL_WORDS, PLAYING_ASKED, VOLUME_STEP_WAYS,
                                  VOLUME_WORDS, MEDIA_RESUMED_BY_NAMING,
                                  DONE_ALREADY, HEAT_VERBS, HEAT_WAYS, HEATING_WORDS, IN_GENERAL, LEVEL_MOVING_VERBS,
                                  HUMIDITY_ASKED, HUMIDITY_STEP_WAYS, LEVEL_ASKED, MODAL_REQUESTS, MODE_KIND_WORDS,
                                  MODE_NAMES, MODE_NOUNS, MODE_PREPOSITIONS,
                                  MODALS_OF_A_STATEMENT, MOVES_NOT_ON, NOT_MORE_OF_A_NAME, NOT_ONE_THING,
                                  OTHER_REQUEST_VERBS,
                                  PERIOD_WORDS, PERSON_ONLY_DOINGS, POSITION_ASKED, QUESTION_WORDS, READING_QUALITIES,
                                  ROOMS, SCENE_VERBS,
                                  SCENE_WORDS,
                                  STATE_ASKING_WORDS,
                                  STATE_VERBS, STATE_WISHED_AFTER, STATE_WORDS, STATES, SWITCH_VERBS, SWITCHING_VERBS,
                                  TARGET_ASKED, THING_KIND_WORDS, UNIT_FACTORS, UNIT_WORDS, VERB_OBJECTS, WISHES,
                                  WITHIN_A_NAME)
from assistant.vocabulary import APPLIANCE_KIND_WORDS, BUTTON_PRESS_WORDS, BUTTON_VERBS, VACUUM_COMMANDS
from assistant.vocabulary import TILT_WORDS, VACUUM_SWITCHED
from assistant.vocabulary import CHANGES_BESIDE_COLOUR, COLOUR_ASKED, COLOUR_NAMES, COLOUR_SHIFTS, COLOURED_KINDS, \
    KELVIN_WORDS, WHITE_OF_A_LIGHT, WHITE_TEMPERATURES

PAD, MASK, EOS, UNK = "<|pad|>", "<|mask|>", "<|eos|>", "<|unk|>"
USER, ASSISTANT, CALL, SAY = "<|user|>", "<|assistant|>", "<|call|>", "<|say|>"
SPECIAL_TOKENS = [PAD, MASK, EOS, UNK, USER, ASSISTANT, CALL, SAY]
RESULT_SLOT = "{result}"
NUMBER_SLOTS = [f"<n{i}>" for i in range(8)]
NAME_SLOTS = [f"<e{i}>" for i in range(4)]        # a device, scene or timer name
AREA_SLOTS = [f"<a{i}>" for i in range(3)]        # an area (room) of the user's home
MAX_USER_TURNS = 2
NAME_ARGUMENTS = {"name": NAME_SLOTS, "area": AREA_SLOTS}
_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])")
ANY_SLOT = re.compile(r"<([nea])(\d)>")
AREA_SLOT = re.compile(r"<a\d>")
_NUMBER_SLOT = re.compile(r"<n\d>")
_POWER = re.compile(r"calculate expression=(<n\d>)(?:\*\1)+")
_DURATION = re.compile(r"(\d+(?:\.\d+)?) seconds\b")      # the normaliser says every duration in seconds
# A place said "in the X"; Whisper also writes the article as another small word ("in this nug" for "in the
# snug"), and "in a minute" is a time, not a place.
_PLACE = re.compile(r"\bin (?:the|my|our|this|that|his|her|a|an) (?!(?:minute|moment|second|sec|bit|while|hour|"
                    r"jiffy|mo|tick|few|couple|row)\b)(\w+)")
_WHOLE_HOME = {"house", "home"}
# "off", or a shutting ("shut the velux window, it's starting to rain" switched it on); "on" as the state wanted:
# after a verb of switching, or not before a place ("everything on the veranda")
_OFF = re.compile(r"\b(?:off|shut|close|closed)\b")
_ON = re.compile(r"\b(?:turn|switch|put|power|flick|flip|leave|keep)(?:ed|ing|s)? on\b"
                 r"|\bon\b(?! (?:the|my|our|a|an|top|its|this|that)\b)")
# The state a verb of switching asks for: its "on" or "off", the nearest after it ("switch off the light, someone's
# left it on": off); "on" said after other words not before a place ("put the lamp on the table")
_STATE_OF_A_VERB = re.compile(rf"\b(?:{'|'.join(SWITCHING_VERBS)})(?:s|ed|ing)? (?:(on|off)\b|(?:[a-z']+ ){{1,4}}?"
                              r"(off\b|on\b(?! (?:the|my|our|a|an|top|its|this|that)\b)))")
# The same, its verb asked for (not "switched", "turning")
_STATE_ASKED = re.compile(rf"\b(?:{'|'.join(SWITCHING_VERBS)}) (?:(on|off)\b|(?:[a-z']+ ){{1,4}}?"
                          r"(off\b|on\b(?! (?:the|my|our|a|an|top|its|this|that)\b)))")
# "on" or "off" as the state wished, after STATE_WISHED_AFTER ("the heater needs to be on")
_STATE_WISHED = re.compile(rf"\b(?:{'|'.join(STATE_WISHED_AFTER)}) (on|off)\b")
# Words of a question that ask a state (STATE_WORDS, STATE_ASKING_WORDS)
_STATE_ASKED_WORDS = re.compile(r"\b(?:" + "|".join((*STATE_WORDS, *STATE_ASKING_WORDS)) + r")\b")
# A report of what was done, not a request: DONE_ALREADY, or someone before a verb of a request in its past form
# ("i switched the hallway light off", "we've closed the louvres"); another verb in the past is a remark beside the
# request ("seedling warmers off now they've sprouted")
_DONE_VERBS = "|".join(sorted({verb[:-1] if verb.endswith("e") else verb + verb[-1] + "?" if
                               re.fullmatch(r"[^aeiou]*[aeiou][^aeiouwxy]", verb) else verb
                               for verb in (*SWITCH_VERBS, *BARE_REQUEST_VERBS) if verb.isalpha()}, key=len, reverse=True))
_DONE = re.compile(r"\b(?:" + "|".join(DONE_ALREADY) + r")\b|\b(?:i|we|they|he|she|someone|somebody|you)(?:'ve|'d)? "
                   rf"(?:[a-z]+ )?(?:{_DONE_VERBS})ed\b")     # "closed", "switched", "dimmed"; not "need"
# The arguments that name a thing of the home
_THING_ARGUMENTS = {"name", "area", "room", "device"}
# The words for each half of the day an alarm may be in (PERIOD_WORDS)
_PERIOD_SAID = {period: re.compile(r"\b(?:" + "|".join(words) + r")\b") for period, words in PERIOD_WORDS.items()}
# Skills that act on a thing and take no number, and a level said: a number in degrees or percent, or one said
# after "to", "at" or "on" that counts nothing ("on 19"; not "on 600 seconds", "the other 1", "all 3 fans")
_TAKE_NO_NUMBER = frozenset(s.name for s in SKILLS.values() if (s.switches or s.name_is_a_thing)
                            and not (s.level_unit or s.steps or s.reads or NUMBER in s.arguments.values()))
_A_LEVEL_SAID = re.compile(r"\b\d+(?:\.\d+)? (?:degrees|percent)\b|\b(?:to|at|on) \d+(?:\.\d+)?\b(?! [a-z]+s\b)")
# The number of a level said (_A_LEVEL_SAID's), and its unit where one is said
_A_LEVEL_NUMBER = re.compile(r"\b(\d+(?:\.\d+)?) (?:degrees|percent)\b|"
                             r"\b(?:to|at|on) (\d+(?:\.\d+)?)(?![.\d])(?! [a-z]+s\b)")
_A_LEVEL_UNIT = re.compile(r"\b(\d+(?:\.\d+)?) (degrees|percent)\b")
# A device of the default home, said
_A_DEVICE = re.compile(r"\b(?:" + "|".join(word for words in DEVICES.values() for word in words) + r")\b")
# A number as the normaliser writes it, and each unit as said (UNIT_WORDS; "i'm" says no metre)
_A_NUMBER = re.compile(r"(?<![\w.'])\d+(?:\.\d+)?(?![\w.'])")
_UNIT_SAID = {unit: re.compile(r"(?<![\w'])(?:" + "|".join(re.escape(word) for word in words) + r")(?![\w'])")
              for unit, words in UNIT_WORDS.items()}
# Verbs that say a switch's state with no "on" or "off" (STATE_VERBS)
_STATE_VERB = {state: re.compile(r"\b(?:" + "|".join(verbs) + r")\b") for state, verbs in STATE_VERBS.items()}
# A timer said as one ("the kiln timer", "a countdown")
# a number said as a step ("up 2 degrees", "down by 10 percent") and one said as a value ("to 22", "at 40")
_A_STEP = re.compile(r"\b(?:up|down|by|up by|down by) (\d+(?:\.\d+)?)\b")
_A_TARGET = re.compile(r"\b(?:to|at) (\d+(?:\.\d+)?)\b")
# The default home's skills of a room's lights' level (a percent, or a step)
_ROOM_LIGHT_LEVELS = frozenset(name for name in LEVEL_SKILLS if "room" in SKILLS[name].arguments)
_A_TIMER = re.compile(r"\b(?:timers?|countdowns?)\b")
# A lock's verbs, in any form ("needs locking", "lock up")
_LOCKING = re.compile(r"\b(?:un)?lock(?:s|ed|ing)?\b")
# A name that says a heater by its kind ("still room heater", "nursery radiator")
_A_HEATER = re.compile(rf"\b(?:{'|'.join(DEVICES['heater'])}|thermostat)$")
# A question about what someone did or how a thing was ("have i locked the side gate", "did you turn the heater
# off", "was the kiln left on"): it asks how a thing is, and no call that changes something answers it
_ASKS_WHAT_WAS_DONE = re.compile(r"^(?:(?:um|uh|so|and|oh|okay|ok|hey|parley|wait)\s+)*(?:(?:did|have|has|had)\s+"
                                 r"(?:i|we|you|they|he|she|anyone|anybody|someone|somebody|everyone|nobody)\b"
                                 r"(?!\s+(?:to|got)\b)|(?:was|were)\s|(?:have|has)\s+(?:the|my|our)\s+(?:[a-z']+\s+){1,5}been\b)")
# A verb of switching with the state said after it ("put the propagator on for the seedlings", "back from the gym,
# switch the fan on"): the request asks for a switch, and no call that only reads answers it, unless it opens as a
# question ("is the garden switch on")
_ASKS_A_SWITCH = re.compile(r"\b(?:turn|switch|put|power|shut|flick|flip) (?:the |my |our |all |everything )?"
                            r"(?:[a-z']+ ){0,4}(?:on|off)\b")
_ASKS_HOW = re.compile(rf"^(?:(?:um|uh|so|and|oh|okay|ok|hey|parley)\s+)*(?:{'|'.join(QUESTION_WORDS)})\b")
# A modal of a statement said first, then a thing and "be": a question of how the thing is ("would the side gate be
# unlocked right now"), not a statement of what may be
_ASKS_WITH_A_MODAL = re.compile(r"^(?:(?:um|uh|so|and|oh|okay|ok|hey|parley)\s+)*(?:" + "|".join(
    modal for modal in MODALS_OF_A_STATEMENT if modal[0].isalpha()) + r") (?:the|my|our) (?:[a-z']+ ){1,5}be\b")
# A question asked after its topic or a remark ("the pleated blind in the nursery, is it down", "the garage power
# outlet is it on", "the gallery temperature, what's it at", "the mirror's all steamed up, how humid is the
# bathroom", "the side gate, did i lock it"), not a permission ("is it ok to ...")
_ASKS_OF_A_TOPIC = re.compile(r"\b(?:is|are) (?:it|they|that|those|these|this)\b"
                              r"(?! (?:possible|ok|okay|alright|all right|fine|time|safe)\b)"
                              r"|\b(?:what|how)(?:'s| is| are) (?:it|they|that|those)\b"
                              r"|\bhow (?:[a-z]+ )?(?:is|are|has|does) (?:the|my|our|it|they)\b"
                              r"|\bdid (?:i|we|you|anyone|someone|somebody) [a-z]+ (?:it|them|the|my|our)\b")
# Any other way a request asks how things are ("tell me if ...", "check the ...", "still", a reading)
_ASKS_OTHERWISE = re.compile(rf"\b(?:{'|'.join(ASKING_WORDS)})\b")
# The corpus's words for a number times itself, or times a literal that equals it ("double 2": 2*2).
_SELF_PRODUCT_WORDS = re.compile(r"\b(?:squared?|itself|cubed|third|double[ds]?|twice|tripled?)\b")


def asks_how_things_are(said: str) -> bool:
    """The words (normalised: lower case, no punctuation) ask how things are: a question of what someone did, a
    question's first word, a question after its topic, or a word that asks (vocabulary.QUESTION_WORDS,
    ASKING_WORDS). The one test of asking, for the checks here and for a state read from heard words
    (tools.asks)."""
    return any(pattern.search(said) for pattern in
               (_ASKS_WHAT_WAS_DONE, _ASKS_HOW, _ASKS_WITH_A_MODAL, _ASKS_OF_A_TOPIC, _ASKS_OTHERWISE))


def _means_pattern(words: tuple[str, ...]) -> re.Pattern:
    """One pattern for a skill's words for an action, each word in any of its regular forms ("open": opens,
    opened, opening; "dim": dimmed); an entry in [brackets] is a set of symbols."""
    plain = [_forms(w) for w in words if not w.startswith("[")]
    return re.compile(r"\b(?:" + "|".join(plain) + r")\b" + "".join("|" + w for w in words if w.startswith("[")))


def _forms(word: str) -> str:
    if not word.isalpha() or len(word) < 3:
        return word
    stem = word[:-1] if word.endswith("e") else word
    return f"(?:{word}|{stem}{word[-1]}?(?:s|es|ed|ing|er))"


# Each skill's words for each of its actions (skills.Skill.means).
_MEANS = {(skill.name, action): _means_pattern(words)
          for skill in SKILLS.values() for action, words in skill.means.items()}
# A move other than switching on, in any of its forms (MOVES_NOT_ON), and not a word of a name after "the" ("the
# lower one", "the lower landing light")
_MOVE_NOT_ON = re.compile(r"(?<!\bthe )\b(?:" + "|".join(_forms(word) for word in MOVES_NOT_ON) + r")\b")



# Words that ask nothing of the assistant (vocabulary, round 21): meant for someone else, a question of ability in
# general, a condition or a time to come with no verb of asking, a statement of what may or will be
_MEANT_FOR_ANOTHER = re.compile(rf"\b(?:{_any_of(PERSON_ONLY_DOINGS)})\b|^(?:{_any_of(ADDRESS_WORDS)})\b")
_ABILITY = re.compile(rf"\b(?:{_any_of(ABILITY_OPENERS)})\b")
_IN_GENERAL = re.compile(rf"\b(?:{_any_of(IN_GENERAL)})\b")
_ASKS = re.compile(rf"\b(?:please|{_any_of(ASKING_WRAPPERS)})\b")
_FILLER = r"(?:(?:um|uh|so|and|oh|okay|ok|well|hey|parley)\s+)*"
_CONDITION = re.compile(rf"^{_FILLER}(?:{_any_of(CONDITION_OPENERS)})\b"        # "when's the next bus" asks
                        r"(?!'s| (?:is|are|was|were|does|do|did|am|can|will|would|should|has|have)\b)")
_PRONOUNS = ("i", "we", "you", "it", "they", "he", "she", "there", "that", "this", "those", "these", "not")
_ADVERBS = f"(?:{'|'.join(ADVERBS)})"
_WORD_MODALS = {modal for modal in MODALS_OF_A_STATEMENT if modal[0].isalpha()}
# the verbs a wish says after a modal (vocabulary.WISHES: "i'd prefer", "we would like") ask, as MODAL_REQUESTS do
_WISHED_AFTER_A_MODAL = tuple({wish.split()[-1] for wish in WISHES if re.search(r"'d |\bwould ", wish)})
_MODAL_STATEMENT = re.compile(rf"(?:(?<=[a-z])(?<!\byou)(?:'ll|'d)|(?<!\byou )\b(?:{_any_of(_WORD_MODALS)}))"
                              rf" (?!(?:{_ADVERBS} )?(?:{_any_of(_PRONOUNS + MODAL_REQUESTS + _WISHED_AFTER_A_MODAL)})\b)[a-z]")
# A verb's object said in an area ("open the cat flap in the gallery"): its words
_OBJECT_IN_AN_AREA = re.compile(rf"\b(?:{_any_of(BARE_REQUEST_VERBS)})(?: up| on| off| down| open)? (?:the|my|our) "
                                r"((?:[a-z']+ ){0,2}[a-z']+) in the ")
# words after which a bare verb is not an imperative: "i'll turn", "we might open", "to switch", "is set", "the switch"
_NOT_BEFORE_AN_IMPERATIVE = set(_PRONOUNS) | _WORD_MODALS | {
    "to", "is", "are", "was", "were", "be", "been", "can", "could", "probably", "maybe",
    "the", "a", "an", "my", "our", "your", "their", "his", "her"}          # "the power cuts out": a noun


def asks_nothing(request: str) -> bool:
    """Words that name the home's things but ask the assistant for nothing: meant for someone else ("sarah, switch
    the jukebox off when you go up"), a question of what it can do in general ("is it possible for you to control
    blinds at all?"), or, with no verb of asking said bare, a condition or a statement of what may be ("if it gets
    cold later i might want the bedroom heater on", "should it rain the pergola roof would need closing")."""
    if _MEANT_FOR_ANOTHER.search(request) or (_ABILITY.search(request) and _IN_GENERAL.search(request)):
        return True
    if _ASKS_WITH_A_MODAL.match(request):
        return False
    words = request.split()
    if _ASKS.search(request) or any(word in BARE_REQUEST_VERBS and (i == 0 or (before := words[i - 1]) not in
                                    _NOT_BEFORE_AN_IMPERATIVE and not before.endswith(("'ll", "'d")))
                                    for i, word in enumerate(words)):
        return False
    return _CONDITION.search(request) is not None or _MODAL_STATEMENT.search(request) is not None

def moves_said(text: str, skill: str = "set_cover") -> set[str]:
    """The actions of a skill whose words (skills.Skill.means) the text says: "shut it for me" says close."""
    said = text.lower()
    return {action for (name, action), means in _MEANS.items() if name == skill and means.search(said)}


_SCENE_VERB = re.compile(rf"\b(?:{_any_of(SCENE_VERBS)})\b")
_SCENE_WORD = rf"(?:{_any_of(SCENE_WORDS)})\b"


def named_move(slots: "Slots", inventory) -> dict | None:
    """The call of a request in a user's own home that names one thing (its name, or part of it with its area,
    singling it out) and says one move that thing can make: a scene's with a word that asks for it (SCENE_VERBS,
    SCENE_WORDS), a cover's (moves_said), a lock's, or a switch's state
    after a verb of switching or right after the name ("propagator off, the seeds are up"), or said by a verb alone
    ("start the lawn sprinkler", STATE_VERBS); one level it takes (_level_named), a speed or a mode of its own by
    name (speed_said, _mode_named: the model never writes a mode's call); or, asked as a question, its mode
    (get_device_mode, where it has modes and the question says one or the word "mode"); or, asked as a
    question, its state (a switch's, light's, cover's or lock's only with words that ask one); several things that
    are all of an area's lights or everything in it, switched together (_several_named); an area said dark, its
    lights on (_lights_wished). Read by code when
    the model and Home Assistant's phrasings refused it; never with a length of time said, a place said
    that is not the thing's, nor for a report of what was done."""
    request = slots.request.lower()
    if _DURATION.search(request):                                                           # "in ten minutes": later
        return None
    if slots.lexicon is None:
        return _device_switched(request) or _level_of_the_default_home(request) or level_asked_call(slots) or \
            _reading_asked(slots, inventory, request)
    if slots.request_areas > 1:
        return None
    appliance = appliance_call(slots)
    if appliance is not None:
        return appliance
    tilted = tilt_call(slots)
    if tilted:
        return tilted
    climate = climate_meant(slots)
    targeted = climate and climate_target_call(slots, climate)
    if targeted:
        return targeted
    humidifier = humidifier_meant(slots)
    humidified = humidifier and humidity_call(slots, humidifier)
    if humidified:
        return humidified
    cover = cover_meant(slots)
    positioned = cover and cover_position_call(slots, cover)
    if positioned:
        return positioned
    played = media_call(slots)
    if played:
        return played
    leveled = level_asked_call(slots)
    if leveled:
        return leveled
    if slots.request_names == 0:
        return _lights_wished(slots, inventory, request) or _kept_by_its_area(slots, inventory, request) \
            or _reading_asked(slots, inventory, request) or _heated_by_its_area(slots, inventory, request)
    named = slots.names[0]
    if slots.request_names > 1:
        several = _several_named(slots, inventory, request)
        if several is not None or (named := _one_thing_named(slots, inventory) or
                                   _one_moded(slots, inventory, request)) is None:
            return several
    found = inventory.resolve(named, slots.areas[0] if slots.request_areas else None) or \
        _part_named(slots, inventory, named, request)
    if len(found) > 1 and named in slots.lexicon.named_kinds:
        return _mode_of_several(slots, found, named, request)
    if len(found) != 1:
        return None
    entity = found[0]
    known = {word for place in (*slots.areas[:slots.request_areas], entity.name) for word in place.split()}
    if any(place not in known for place in slots.places):      # "the samovar in the kitchen": a room it is not in
        return None
    if asks_how_things_are(request):
        part = part_asked(slots.lexicon, entity.name, request)
        if entity.name in slots.lexicon.modes and (_MODE_ASKED_OF.search(request) or part or
                                                   mode_said(slots.lexicon, entity.name, request)):
            return {"name": "get_device_mode", "arguments": {"name": entity.name, **({"part": part} if part else {})}}
        asked = entity.component in ("sensor", "binary_sensor", *_THERMOSTATS) or _STATE_ASKED_WORDS.search(request)
        return {"name": "get_state", "arguments": {"name": entity.name}} if asked else None
    if _DONE.search(request):
        return None
    if _A_LEVEL_SAID.search(request):
        return _level_named(entity, request)
    speed = speed_said(slots.lexicon, entity.name, request)
    if speed is not None:
        return {"name": "set_level", "arguments": {"name": entity.name, "percent": speed}}
    worded = level_word_said(request)
    if worded is not None and entity.component in LEVEL_ACTIONS:
        return {"name": "set_level", "arguments": {"name": entity.name, "percent": worded}}
    moded = _mode_named(slots, entity, request)
    if moded is not None:
        return moded
    if entity.component in ("cover", "lock"):
        skill = "set_cover" if entity.component == "cover" else "set_lock"
        key, moves = "action", moves_said(request, skill) if skill == "set_cover" else \
            {move for move in ("lock", "unlock") if re.search(rf"\b{move}\b", request)}
    elif entity.component == "scene":
        said = _SCENE_VERB.search(request) or re.search(rf"\b{re.escape(named)} {_SCENE_WORD}", request)
        return {"name": "activate_scene", "arguments": {"name": entity.name}} if said else None
    elif entity.component in SWITCHABLE:
        skill, key, moves = "switch_device", "state", _states_said(request, named)
    else:
        return None
    return {"name": skill, "arguments": {"name": entity.name, key: moves.pop()}} if len(moves) == 1 else None


def _states_said(request: str, name: str) -> set[str]:
    """The states a request says for the thing it calls name: after a verb of switching ("turn the kiln off"), right
    after the name ("propagator off"), as the state wished ("needs to be on"), or by a verb alone ("kill")."""
    after = re.findall(rf"\b{re.escape(name)} (off\b|on\b(?! (?:the|my|our|a|an|top|its|this|that)\b))", request)
    return {state for pair in _STATE_ASKED.findall(request) for state in pair if state} | set(after) | \
        set(_STATE_WISHED.findall(request)) | {state for state, verbs in _STATE_VERB.items() if verbs.search(request)}


def _device_switched(request: str) -> dict | None:
    """The default home's switch a request says by its words: one device word and one room word, one state said
    for it (_states_said), and nothing else asked: no question, no level, no negation, no report of what was done,
    no word of several things ("pls turn the bathroom heater on thx", "the living room heater needs to be on before
    the guests arrive")."""
    rooms = [room for room in ROOMS if _NAMED_BY[room].search(request)]
    devices = [(device, said) for device in DEVICES if (said := _DEVICE_SAID[device].findall(request))]
    if len(rooms) != 1 or len(devices) != 1 or len(devices[0][1]) != 1 or _NOT_ONE_THING.search(request) \
            or _NEGATED.search(request) or asks_how_things_are(request) or _DONE.search(request) \
            or _A_LEVEL_SAID.search(request) or _A_NUMBER.search(request):
        return None
    device, (said,) = devices[0]
    states = _states_said(request, said)
    return {"name": "set_device", "arguments": {"device": device, "room": rooms[0], "state": states.pop()}} \
        if len(states) == 1 else None


def _level_of_the_default_home(request: str) -> dict | None:
    """The default home's one level a request says, as _level_named reads a named thing's: degrees (or a number
    after to/at/on with a word of heat) set the thermostat when no device but a heater is said ("i'd like the house
    at nineteen degrees tonight"); a percent (or such a number with a light said) one room's lights."""
    devices = {device for device in DEVICES if _DEVICE_SAID[device].search(request)}
    rooms = [room for room in ROOMS if _NAMED_BY[room].search(request)]
    worded = level_word_said(request)
    if worded is not None and not _A_NUMBER.search(request) and devices == {"light"} and len(rooms) == 1 \
            and not (_NEGATED.search(request) or asks_how_things_are(request) or _DONE.search(request)):
        return {"name": "set_brightness", "arguments": {"room": rooms[0], "percent": worded}}   # "lights on at half"
    levels, units = _levels_said(request)
    if len(levels) != 1 or len(units) > 1 or len(_A_NUMBER.findall(request)) != 1 or _NEGATED.search(request) \
            or asks_how_things_are(request) or _DONE.search(request):
        return None
    level = levels.pop()
    level = int(level) if level.is_integer() else level
    if devices <= {"heater"} and (units == {"degrees"} or not units and _HEAT_SAID.search(request)):
        return {"name": "set_thermostat", "arguments": {"degrees": level}}
    if len(rooms) == 1 and devices <= {"light"} and (units == {"percent"} or not units and devices) \
            and 0 <= level <= 100:
        return {"name": "set_brightness", "arguments": {"room": rooms[0], "percent": level}}
    return None


def _reading_asked(slots: "Slots", inventory, request: str) -> dict | None:
    """A question of one reading in one place, said by a word of that reading (skills.READINGS: "is there any damp
    in the boathouse", "how chilly is the garage") and naming no thing: the place's one sensor of that kind."""
    kinds = [kind for kind, words in _READING_SAID.items() if words.search(request)]
    if len(kinds) != 1 or not asks_how_things_are(request) or _DONE.search(request) or _A_NUMBER.search(request):
        return None
    if slots.lexicon is None:
        rooms = [room for room in ROOMS if _NAMED_BY[room].search(request)]
        if len(rooms) != 1 or _A_DEVICE.search(request):
            return None
        return {"name": "read_sensor", "arguments": {"kind": kinds[0], "room": rooms[0]}}
    if slots.request_areas != 1 or slots.request_names:
        return None
    sensors = [e for e in inventory.resolve(None, slots.areas[0], ("sensor",)) if e.device_class == kinds[0]]
    return {"name": "get_state", "arguments": {"name": sensors[0].name}} if len(sensors) == 1 else None


def conversion_said(slots: "Slots") -> dict | None:
    """The conversion a request says, read by code when the model and Home Assistant's phrasings refused it: one
    number, said before one unit, and one other unit of that unit's kind ("i need two litres of water, how many cups
    is that"; "a ten k, how many miles is ten kilometres", which the model read as kilometres to kilometres)."""
    request = slots.request.lower()
    if slots.request_names or slots.request_areas or _A_DEVICE.search(request):     # "heater to 20 degrees celsius"
        return None
    numbers = set(_A_NUMBER.findall(request))
    units = {unit for unit, said in _UNIT_SAID.items() if said.search(request)}
    if len(numbers) != 1 or len(units) != 2 or len({UNIT_FACTORS[unit][0] for unit in units}) != 1:
        return None
    number = numbers.pop()
    counted = {unit for unit in units
               if re.search(rf"(?<![\w.']){re.escape(number)} " + _UNIT_SAID[unit].pattern, request)}
    if len(counted) != 1:
        return None
    value = float(number)
    return {"name": "convert", "arguments": {"value": int(value) if value.is_integer() else value,
                                             "from": (unit := counted.pop()), "to": (units - {unit}).pop()}}


# A level said in words (skills.LEVEL's, above nothing: no switch goes on at "off") after "at", "to" or "on", or before
# what it sets ("on at half speed", "on full", "full brightness"); not "half past six", "half an hour"
_BEFORE_A_LEVEL, _AFTER_A_LEVEL = "|".join(LEVEL_SAID_AFTER), "|".join(LEVEL_NAMED_BY)
_WORDED_LEVEL = {int(percent.split()[0]): re.compile(rf"\b(?:(?:{_BEFORE_A_LEVEL}) (?:{words})\b(?! (?:an?|past|of)\b)"
                                                     rf"|(?:{words}) (?:{_AFTER_A_LEVEL})\b)")
                 for percent, said in LEVEL.items() if not percent.startswith("0 ")
                 for words in ["|".join(re.escape(word) for word in said)]}


def level_word_said(request: str) -> int | None:
    """The one percent a request says in words beside a switch ("turn the punkah on at half speed": 50), or None."""
    said = {percent for percent, words in _WORDED_LEVEL.items() if words.search(request)}
    return said.pop() if len(said) == 1 else None


# A unit counted by a number or a word of one ("10 miles", "a litre"), and one said after a word that marks a
# conversion's target ("into celsius", "how many cups"): CONVERSION_TARGET_BEFORE, COUNTING_WORDS
_COUNTED = rf"(?<![\w.'])(?:\d+(?:\.\d+)?|{'|'.join(COUNTING_WORDS)}) "
_TARGET_BEFORE = rf"\b(?:{'|'.join(CONVERSION_TARGET_BEFORE)}) "


def conversion_way(request: str, units: set[str]) -> tuple[str, str] | None:
    """The way a conversion between two units goes, (from, to), where the words say it: the one unit a number
    counts is the one converted ("in kilometres, what would 10 miles be": from miles), else the one unit said after a
    word of a target is the one converted to ("km to miles"). None where they say neither, or each of both."""
    if len(units) != 2:
        return None
    counted = {unit for unit in units if re.search(_COUNTED + _UNIT_SAID[unit].pattern, request)}
    marked = {unit for unit in units if re.search(_TARGET_BEFORE + _UNIT_SAID[unit].pattern, request)} - counted
    sources = counted if len(counted) == 1 else units - marked if len(marked) == 1 else set()
    if len(sources) != 1:
        return None
    return next(iter(sources)), next(iter(units - sources))


def _levels_said(request: str) -> tuple[set[float], set[str]]:
    """The numbers said as levels ("to 22", "40 percent"), and the units said with them."""
    return ({float(number) for pair in _A_LEVEL_NUMBER.findall(request) for number in pair if number},
            {unit for _, unit in _A_LEVEL_UNIT.findall(request)})


def speed_said(lexicon: Lexicon | None, name: str, request: str) -> int | None:
    """The percent of a fan's speed the request says by the name the fan's discovery gives it ("the attic fan on
    low", "to medium"; Lexicon.speeds), or None."""
    speeds = {} if lexicon is None else lexicon.speeds.get(name.replace("_", " "), {})
    said = {percent for word, percent in speeds.items()
            if re.search(rf"\b(?:on|to|at)(?: the| its)? {re.escape(word)}(?: speed| setting)?\b", request)}
    return said.pop() if len(said) == 1 else None


_MODE_NOUN = rf"(?:{'|'.join(MODE_NOUNS)})"
_MODE_AFTER = rf"(?:{'|'.join(MODE_PREPOSITIONS)})"
# A mode said that the thing may lack, for one that has modes: named after "to" at the end, or with the noun ("set
# the bedroom fan to turbo", "put the air conditioner in turbo mode", "in heat cool mode"), or a word that names a
# mode (_mode_names) after "on" or "in" at the end ("put the humidifier on turbo")
_A_MODE_ASKED = re.compile(rf"\bto ([a-z]+)$|\b{_MODE_AFTER} ([a-z]+(?: [a-z]+)?) {_MODE_NOUN}\b|\b{_MODE_AFTER} ([a-z]+)$")
_MODE_ASKED_OF = re.compile(rf"\b{_MODE_NOUN}\b")
# words that say a level, not a mode ("to full", "to half")
_LEVEL_WORDS = {word for words in LEVEL.values() for word in words}


def mode_said(lexicon: Lexicon | None, name: str, request: str) -> str | None:
    """The words a request says one of a thing's modes in (Lexicon.modes): after to, in, into or on ("the thermostat
    to cool", "in dry mode"), or before the noun ("sleep mode"); None when it says none, or several. A mode of a part
    said with the part's word (_part_mode_said) is that part's, before any of the thing's own ("the fan to auto")."""
    words = {} if lexicon is None else lexicon.modes.get(name.replace("_", " "), {})
    parts, own = {}, {}
    for word in sorted(words, key=len, reverse=True):       # "fan only" before "fan"
        action, _ = words[word]
        if action != "mode":
            if _part_mode_said(action, word.split(" ", 1)[1], request):
                parts.setdefault(words[word], word)
        elif re.search(rf"\b(?:{_MODE_AFTER} {re.escape(word)}(?: {_MODE_NOUN})?|{re.escape(word)} {_MODE_NOUN})\b",
                       request):
            own.setdefault(words[word], word)
    said = parts or {mode: word for mode, word in own.items()        # "to heat cool": not "to heat" as well
                     if not any(other != word and re.search(rf"\b{re.escape(word)}\b", other)
                                for other in own.values())}
    return said.popitem()[1] if len(said) == 1 else None


def _part_mode_said(action: str, mode: str, request: str) -> bool:
    """Whether a request says a mode of a part (vocabulary.MODE_KIND_WORDS) with one of the part's words: where a mode
    is ("the fan to high"), right after the word ("swing on", "fan mode high"), or, for on or off, before the part
    said last ("turn on the air conditioner's swing") or with a verb that says it (STATE_VERBS: "stop the air
    conditioner swinging")."""
    part = rf"(?:{'|'.join(MODE_KIND_WORDS[action])})"
    if not re.search(rf"\b{part}\b", request):
        return False
    mode = re.escape(mode)
    if re.search(rf"\b(?:(?:{_MODE_AFTER}|at) {mode}(?: {_MODE_NOUN})?|{mode} {_MODE_NOUN}|"
                 rf"{part}(?: {_MODE_NOUN})? (?:(?:to|on|at) )?{mode})\b", request):
        return True
    verbs = STATE_VERBS.get(mode, ())
    return bool(verbs) and (re.search(rf"\b{mode} (?:[a-z']+ ){{0,4}}{part}$", request) is not None or
                            re.search(rf"\b(?:{'|'.join(verbs)})\b.*\b{part}\b", request) is not None)


def _mode_names(lexicon: Lexicon) -> set[str]:
    """The words that name a mode, of a thing or not: vocabulary.MODE_NAMES, Home Assistant's default lists
    (inventory.DEFAULT_MODES) and the modes the home's things have."""
    defaults = {mode.replace("_", " ") for lists in DEFAULT_MODES.values() for modes in lists.values() for mode in modes}
    own = {word for words in lexicon.modes.values() for word, (action, _) in words.items() if action == "mode"}
    return {*MODE_NAMES, *defaults, *own}


def mode_asked(slots: "Slots", name: str, request: str) -> str | None:
    """The words of a mode asked of one thing that has modes: one of its own (mode_said), or one it lacks said where a
    mode is ("to turbo" at the end, "in turbo mode", "in heat cool mode", of which "cool" alone is no mode said, "on
    turbo" at the end where turbo names a mode), which the tool answers with the modes it has; not a word of a state,
    a level, a speed or a name of the home. None when it asks none."""
    if name not in slots.lexicon.modes:
        return None
    said = mode_said(slots.lexicon, name, request)
    asked = _A_MODE_ASKED.search(request)
    asked = asked and (asked.group(1) or asked.group(2) or
                       (asked.group(3) if asked.group(3) in _mode_names(slots.lexicon) else None))
    if said and asked and asked != said and asked.endswith(f" {said}") and asked not in slots.lexicon.modes[name]:
        said = None
    word = said or asked
    names, areas = slots.lexicon
    if not word or not said and any(part in STATES or part in _LEVEL_WORDS or part in names or part in areas
                                    or part in slots.lexicon.speeds.get(name, {}) for part in word.split()):
        return None
    return word


def _mode_named(slots: "Slots", entity, request: str) -> dict | None:
    """The call of a mode asked of one thing that has modes (mode_asked)."""
    word = mode_asked(slots, entity.name, request)
    return {"name": "set_device_mode", "arguments": {"name": entity.name, "mode": word}} if word else None


def _mode_of_several(slots: "Slots", found: list, named: str, request: str) -> dict | None:
    """A mode said or asked of a kind said by its own name that several things of the home are ("set the ac to
    cool" with two air conditioners, vocabulary.NAMED_KINDS): the call on that name, for the tool to ask which."""
    if asks_how_things_are(request):
        return {"name": "get_device_mode", "arguments": {"name": named}} if _MODE_ASKED_OF.search(request) else None
    said = {mode_said(slots.lexicon, entity.name, request) for entity in found}
    return {"name": "set_device_mode", "arguments": {"name": named, "mode": said.pop()}} \
        if len(said) == 1 and None not in said else None


def _level_named(entity, request: str) -> dict | None:
    """One level said for one thing that takes it: degrees for a heater ("nursery radiator up to 22"), a percent for
    a light ("picture light at 40 percent"); a level in the other unit, or two levels, is left to ask again."""
    levels, units = _levels_said(request)
    if len(levels) != 1 or len(units) > 1:
        return None
    level = levels.pop()
    level = int(level) if level.is_integer() else level
    if entity.component in _THERMOSTATS and units <= {"degrees"}:
        return {"name": "set_thermostat", "arguments": {"name": entity.name, "degrees": level}}
    if entity.component == "light" and units <= {"percent"}:
        return {"name": "set_level", "arguments": {"name": entity.name, "percent": level}}
    return None


_LIGHT_CUE = re.compile(r"\b(?:" + "|".join(DEVICE_CUES["light"]) + r")\b")


def _lights_wished(slots: "Slots", inventory, request: str) -> dict | None:
    """An area of the home said with a word that asks for light (DEVICE_CUES, as the corpus teaches the default home:
    "it's pitch black in the sewing room") and no thing named: that area's lights on, when it has any."""
    if slots.request_areas != 1 or not _LIGHT_CUE.search(request) or asks_how_things_are(request) \
            or _DONE.search(request) or not inventory.resolve(None, slots.areas[0], ("light",)):
        return None
    return {"name": "switch_all", "arguments": {"name": "lights", "area": slots.areas[0], "state": "on"}}


def _kept_by_its_area(slots: "Slots", inventory, request: str) -> dict | None:
    """An area said with a move only a lock or a cover makes, and nothing named ("unlock the tack room", "open up
    the garret"): the area's one lock or cover, when it has one of that kind. A word after the area that may name a
    thing ("open the nursery window") is a thing the home lacks, not the area's cover."""
    after = re.search(rf"\b{re.escape(slots.areas[0])}\b\W*([a-z']*)", request) if slots.request_areas == 1 else None
    if after is None or after.group(1) and after.group(1) not in NOT_MORE_OF_A_NAME or asks_how_things_are(request) \
            or _DONE.search(request) or _A_LEVEL_SAID.search(request):
        return None
    for skill, component in (("set_lock", "lock"), ("set_cover", "cover")):
        moves = {move for move in ("lock", "unlock") if re.search(rf"\b{move}\b", request)} if component == "lock" \
            else moves_said(request, skill)
        kept = inventory.resolve(None, slots.areas[0], (component,))
        if len(moves) == 1 and len(kept) == 1:
            return {"name": skill, "arguments": {"name": kept[0].name, "action": moves.pop()}}
    return None


# Words of warmth: a level said with one of them is a temperature
_WARMTH_SAID = re.compile(rf"\b(?:{'|'.join((*HEATING_WORDS, *HEAT_WAYS, *READING_QUALITIES['temperature']))})\b|"
                          r"\bdegrees?\b")


def _heated_by_its_area(slots: "Slots", inventory, request: str) -> dict | None:
    """An area said with one level and a word of warmth, and nothing named ("i want the nursery at 18 degrees",
    "warm the sauna up to 80"): the area's heater set to it, when it has one heater. A word after the area that may
    name a thing ("the sauna heater to 80") is a thing the home lacks, not the area's heater."""
    after = re.search(rf"\b{re.escape(slots.areas[0])}\b\W*([a-z']*)", request) if slots.request_areas == 1 else None
    if after is None or after.group(1) and after.group(1) not in NOT_MORE_OF_A_NAME or asks_how_things_are(request) \
            or _DONE.search(request) or not _WARMTH_SAID.search(request):
        return None
    heaters = inventory.resolve(None, slots.areas[0], ("climate",))
    call = _level_named(heaters[0], request) if len(heaters) == 1 else None
    return call and {"name": "set_thermostat",
                     "arguments": {"degrees": call["arguments"]["degrees"], "area": slots.areas[0]}}


# A climate's target temperature stepped by a way said, or asked (vocabulary.CLIMATE_STEP_WAYS, TARGET_ASKED), and
# the words of heat that say an area's or the home's climate when no thing is named
_CLIMATE_STEP = {way: re.compile(rf"\b(?:{_any_of(words)})\b|\b(?:{_any_of(LEVEL_MOVING_VERBS)})\b(?: [a-z']+){{0,6}}? "
                              rf"{way}\b") for way, words in CLIMATE_STEP_WAYS.items()}
_HEAT_VERB = re.compile(rf"(?<!\bthe )\b(?:{_any_of(HEAT_VERBS)})\b")
_TARGET_ASKED = re.compile(rf"\b(?:{_any_of(TARGET_ASKED)})\b")
_SETTING_WORDS = {*READINGS["temperature"], *HEAT_WAYS, *(word for words in TARGET_ASKED for word in words.split())}
_THERMOSTATS = SKILL_COMPONENTS["set_thermostat"]     # the kinds of thing set to a temperature: climates, water heaters
_HEATING_SAID = re.compile(rf"\b(?:{_any_of((*HEATING_WORDS, *HEAT_WAYS))})\b")


def climate_meant(slots: "Slots") -> str | None:
    """The climate a request in a user's own home means: the one name it says, where that name means climates alone
    or a kind of them ("the AC", vocabulary.NAMED_KINDS: the tool asks which of several); or, naming nothing, with a
    word of heat, the one climate of the area it says ("make the bedroom warmer") or of the home ("turn the heating
    down")."""
    lexicon, names = slots.lexicon, _things_named(slots)
    if lexicon is None or slots.request_areas > 1 or len(names) > 1:
        return None
    area = slots.areas[0] if slots.request_areas else None
    if names:
        name = names[0]
        kinds = lexicon.kinds_of(name, area)
        return name if name in lexicon.named_kinds or kinds and kinds <= set(_THERMOSTATS) else None
    if not _HEATING_SAID.search(slots.resolved):
        return None
    climates = [whole for whole, kind in lexicon.kinds.items() if kind == "climate"
                and (area is None or spelling_key(lexicon.places.get(whole) or "") == spelling_key(area))]
    return climates[0] if len(climates) == 1 else None


def _things_named(slots: "Slots") -> list[str]:
    """The names the request says, but words of a reading, a setting or a step ("what temperature is the AC set to",
    "the target temperature in the loft", "make the bedroom warmer"), which name no thing asked."""
    return [name for name in slots.names[:slots.request_names] if not set(name.split()) <= _SETTING_WORDS]


def _unnamed(slots: "Slots") -> str:
    """The request as resolved, each thing and area it names one word ("the lower landing radiator up": "the it up"),
    so that no word of a name says a step."""
    said = slots.resolved.lower()
    for phrase in sorted({*_things_named(slots), *slots.areas[:slots.request_areas]}, key=len, reverse=True):
        said = re.sub(rf"(?<![\w']){re.escape(phrase.lower())}(?![\w'])", "it", said)
    return said


def climate_target_call(slots: "Slots", name: str) -> dict | None:
    """The call on a climate of a request (as resolved: "the daikin" after "turn the AC up" was asked which one) that
    asks what it is set to ("what temperature is the AC set to", not its mode) or, read alone, steps its target by one
    way said ("turn the AC up", "make the bedroom warmer"; not with a verb of warmth, which switches it on: "warm up
    the stove"). None with a number (a level, a step of its own, or the conversation's step of a setting it made:
    "turn it up" after "set the snug stove to 20" is 21), a part's word (its fan's), a report of what was done, or a
    step said after other turns: the conversation's rules read it ("and the radiator a notch cooler")."""
    request = _unnamed(slots)
    if set(request.split()) & _PART_WORDS or _A_NUMBER.search(request) or _DONE.search(request):
        return None
    if asks_how_things_are(request):
        asked = _TARGET_ASKED.search(request) and not _MODE_ASKED_OF.search(request)
        return {"name": "get_target_temperature", "arguments": {"name": name}} if asked else None
    ways = [way for way, said in _CLIMATE_STEP.items() if said.search(request)]
    if not slots.alone or len(ways) != 1 or _HEAT_VERB.search(request):
        return None
    return {"name": "change_level", "arguments": {"name": name, "direction": ways[0]}}


# A humidifier's target humidity stepped by a way said, or asked (vocabulary.HUMIDITY_STEP_WAYS, HUMIDITY_ASKED)
_HUMIDITY_STEP = {way: re.compile(rf"\b(?:{_any_of(words)})\b|"
                                  rf"\b(?:{_any_of(LEVEL_MOVING_VERBS)})\b(?: [a-z']+){{0,6}}? {way}\b")
                  for way, words in HUMIDITY_STEP_WAYS.items()}
_HUMIDITY_ASKED = re.compile(rf"\b(?:{_any_of((*TARGET_ASKED, *HUMIDITY_ASKED))})\b")


def humidifier_meant(slots: "Slots") -> str | None:
    """The humidifier a request in a user's own home names, where it says one name and that name means humidifiers
    alone ("the bedroom humidifier", "the dehumidifier" in the basement); a word that asks its humidity names no
    thing ("what humidity is the humidifier set to")."""
    lexicon, names = slots.lexicon, [name for name in _things_named(slots) if name not in HUMIDITY_ASKED]
    if lexicon is None or slots.request_areas > 1 or len(names) != 1:
        return None
    return names[0] if lexicon.kinds_of(names[0], slots.areas[0] if slots.request_areas else None) == {"humidifier"} \
        else None


def humidity_call(slots: "Slots", name: str) -> dict | None:
    """The call on a humidifier of a request (as resolved) that asks the humidity it is set to ("what is the bedroom
    humidifier set to"), sets one in percent ("set the humidifier to 45 percent", "set it to 45") or steps it one
    way ("make the humidifier more humid", "turn the dehumidifier down"). None for a level past 0 to 100 or in
    another unit, two levels, a mode or a part asked, a length of time, or a report of what was done."""
    request = _unnamed(slots)
    if _DURATION.search(request) or _DONE.search(request) or set(request.split()) & _PART_WORDS:
        return None
    where = {"name": name, **({"area": slots.areas[0]} if slots.request_areas else {})}
    if asks_how_things_are(request):         # its word of humidity kept ("what humidity is the humidifier at")
        said = re.sub(rf"(?<![\w']){re.escape(name.lower())}(?![\w'])", "it", slots.resolved.lower())
        asked = _HUMIDITY_ASKED.search(said) and not _MODE_ASKED_OF.search(request)
        return {"name": "get_target_humidity", "arguments": where} if asked else None
    levels, units = _levels_said(request)
    if levels:
        level = levels.pop()
        return None if levels or units - {"percent"} or not 0 <= level <= 100 else \
            {"name": "set_level", "arguments": {**where, "percent": int(level) if level.is_integer() else level}}
    ways = [way for way, said in _HUMIDITY_STEP.items() if said.search(request)]
    if len(ways) != 1 or _A_NUMBER.search(request):
        return None
    return {"name": "change_level", "arguments": {**where, "direction": ways[0]}}


# A cover's or valve's position said in words, a step of it, or its position asked (vocabulary.COVER_LEVELS,
# COVER_STEPS, POSITION_ASKED)
_COVER_LEVEL = {percent: re.compile(rf"\b(?:{_any_of(words)})\b") for percent, words in COVER_LEVELS.items()}
_COVER_STEP = re.compile(rf"\b(?:{_any_of(COVER_STEPS)})\b")
_POSITION_ASKED = re.compile(rf"\b(?:{_any_of(POSITION_ASKED)})\b")


def cover_meant(slots: "Slots") -> str | None:
    """The thing a request in a user's own home names, where it says one name and that name means covers alone or
    valves alone ("the bedroom blinds", "the blinds" in the bedroom, "the garden valve")."""
    lexicon, names = slots.lexicon, _things_named(slots)
    if lexicon is None or slots.request_areas > 1 or len(names) != 1:
        return None
    kinds = lexicon.kinds_of(names[0], slots.areas[0] if slots.request_areas else None)
    return names[0] if kinds in ({"cover"}, {"valve"}) else None


def cover_position_call(slots: "Slots", name: str) -> dict | None:
    """The call on a cover or valve of a request (as resolved) that asks its position ("what position are the blinds
    at", "how far open is the garden valve"), sets one, in percent or in words ("set the bedroom blinds to 30
    percent", "open the blinds halfway"), or steps it with one move of a cover and a word of a little ("open them a
    bit", "close the curtains a bit more"). None for a plain move ("open the blinds"), a level past 0 to 100 or in
    another unit, a length of time, or a report of what was done."""
    request = _unnamed(slots)
    if _DURATION.search(request) or _DONE.search(request) or _TILT_SAID.search(request):      # its slats: tilt_call
        return None
    where = {"name": name, **({"area": slots.areas[0]} if slots.request_areas else {})}
    if asks_how_things_are(request):
        return {"name": "get_cover_position", "arguments": where} if _POSITION_ASKED.search(request) else None
    levels, units = _levels_said(request)
    levels |= {float(percent) for percent, said in _COVER_LEVEL.items() if said.search(request)}
    if levels:
        level = levels.pop()
        return None if levels or units - {"percent"} or not 0 <= level <= 100 else \
            {"name": "set_level", "arguments": {**where, "percent": int(level) if level.is_integer() else level}}
    moves = moves_said(request) - {"stop"}
    if len(moves) != 1 or not _COVER_STEP.search(request) or _A_NUMBER.search(request):
        return None
    return {"name": "change_level", "arguments": {**where, "direction": "up" if moves == {"open"} else "down"}}


# A light's brightness or a fan's speed asked (vocabulary.LEVEL_ASKED)
_LEVEL_ASKED = {kind: re.compile(rf"\b(?:{_any_of(words)})\b") for kind, words in LEVEL_ASKED.items()}


def level_asked_call(slots: "Slots") -> dict | None:
    """The call that reads a light's brightness or a fan's speed, for a question that says a word asking that kind's
    level and names one thing of it: a name of the user's home that means lights alone or fans alone ("how bright
    is the arc lamp", "what speed is the study fan on"), or in the default home one light or fan and one room ("how
    bright are the kitchen lights"), as resolved ("and the salt lamp" after the arc lamp's brightness was asked).
    None with a number, a mode asked, or a report of what was done."""
    request = slots.resolved.lower()
    if not asks_how_things_are(request) or _A_NUMBER.search(request) or _MODE_ASKED_OF.search(request) \
            or _DONE.search(request):
        return None
    if slots.lexicon is None:
        rooms = [room for room in ROOMS if _NAMED_BY[room].search(request)]
        devices = [device for device in DEVICES if _DEVICE_SAID[device].search(request)]
        if len(rooms) != 1 or len(devices) != 1 or devices[0] not in _LEVEL_ASKED:
            return None
        asked = _LEVEL_ASKED[devices[0]].search(request)
        return {"name": "get_level", "arguments": {"name": devices[0], "area": rooms[0]}} if asked else None
    names = _things_named(slots)
    if slots.request_areas > 1 or len(names) != 1:
        return None
    area = slots.areas[0] if slots.request_areas else None
    kinds = slots.lexicon.kinds_of(names[0], area)
    if len(kinds) != 1 or not kinds <= set(_LEVEL_ASKED) or not _LEVEL_ASKED[kinds.pop()].search(_unnamed(slots)):
        return None
    return {"name": "get_level", "arguments": {"name": names[0], **({"area": area} if area else {})}}


# A light's colour or white said or asked (vocabulary.COLOUR_NAMES, WHITE_TEMPERATURES, KELVIN_WORDS, COLOUR_SHIFTS,
# COLOUR_ASKED, WHITE_OF_A_LIGHT), and another change beside it (CHANGES_BESIDE_COLOUR)
_COLOUR_SAID = re.compile(rf"\b(?:{_any_of((*WHITE_TEMPERATURES, *COLOUR_NAMES))})\b")
_KELVIN_SAID = re.compile(rf"\b(\d{{4,5}}) ?(?:{_any_of(KELVIN_WORDS)})\b")
_KELVIN_ON = re.compile(rf"{_KELVIN_SAID.pattern} on(?= (?:the|my|our|it)\b)")   # "2700 kelvin on the lamp": no switch
_SHIFT_SAID = {shift: re.compile(rf"\b(?:{_any_of(words)})\b") for shift, words in COLOUR_SHIFTS.items()}
_COLOUR_ASKED = re.compile(rf"\b(?:{_any_of(COLOUR_ASKED)})\b")
_WHITE_OF_A_LIGHT = re.compile(rf"(?:(?<![\w'])|(?='))(?:{_any_of(WHITE_OF_A_LIGHT)})\b")
_WHITE_NUMBER = re.compile(r"\b(\d{4,5})\b")           # a number said of a light's white: its kelvin
_CHANGE_BESIDE_COLOUR = re.compile(rf"\b(?:{_any_of(CHANGES_BESIDE_COLOUR)})\b|%")
_IT = re.compile(r"\bit\b")
# a kind said of several lights ("the lounge lights", "all the lamps"): each light there, in one set_colour
_LIGHTS_SAID = re.compile(rf"\b(?:{_any_of(w for w in PLURAL_KINDS if CLASS_WORDS[w] in COLOURED_KINDS)})\b")


def _owned_light(slots: "Slots", request: str) -> str | None:
    """The one light of the user's home said as the owner of its white ("the lounge lamp's colour temperature"),
    which the name slots leave unnamed (the lounge, a place, and "lamp's")."""
    owned = [name for name, kind in slots.lexicon.kinds.items()
             if kind in COLOURED_KINDS and re.search(rf"(?<![\w']){re.escape(name)}'s\b", request)]
    return owned[0] if len(owned) == 1 else None


def _switched_on_light(call: dict, lexicon: Lexicon | None) -> bool:
    """The call switched one light on ("turn on the lounge lamp"): the thing a colour said next with no name is of."""
    args = call["arguments"]
    if args.get("state") != "on":
        return False
    if call["name"] == "set_device":                        # the default home's room light
        return args.get("device") == "light"
    return call["name"] == "switch_device" and lexicon is not None and \
        lexicon.kinds_of(str(args.get("name")), args.get("area")) == set(COLOURED_KINDS)


def colour_call(slots: "Slots", before: dict | None = None, part_before: bool = False) -> dict | None:
    """The call that sets or asks a light's colour, for a request that names one light (a name of the user's home
    that means lights alone, or in the default home one room's light) and says one colour or white by name or a
    white in kelvin after that name ("make the lamp blue", "set the bedroom lights to warm white"), or asks its colour
    ("what colour is the lamp"); or names nothing right after a light's colour was set or asked, or it was switched on
    (before: that call; "make it red" after the lamp was made blue or switched on), a step warmer or cooler not right
    after its colour was only asked ("make it cooler"). Its white said as a thing (vocabulary.WHITE_OF_A_LIGHT: "set the lamp's colour temperature to 2700",
    "make the lamp's white warmer") takes a bare number as kelvin, a step beside the light's name, and a question as
    its colour asked; a kelvin may come first ("2700 kelvin on the lamp"). None for any other kind of thing, a report
    of what was done, a negation, a colour said before the name ("i can't see the pink"), or with a colour word and
    anything else: two colours, or another change of a switch, a level, a mode or a temperature set-point ("brighten
    the lamp", "turn it on", a number but a kelvin's). A kind said of several lights and at most one area ("make
    the lounge lights blue", "turn all the lights red") is every light there (name: the kind's word). A step warmer
    or cooler said with a light's name is read ("make the lounge lamp warmer"); with none, only right after its colour
    was set or it was switched on ("turn on the lamp", then "make it warmer"), or when before is the call of the
    joined request's part before this one (part_before: "turn on the lamp and make it warmer")."""
    request, where, said, whole = slots.resolved.lower(), None, "", ""
    white = _WHITE_OF_A_LIGHT.search(request) is not None
    if _DONE.search(request) or _NEGATED.search(request):
        return None
    if slots.lexicon is None:
        rooms = [room for room in ROOMS if _NAMED_BY[room].search(request)]
        devices = [device for device in DEVICES if _DEVICE_SAID[device].search(request)]
        named = bool(rooms or devices)
        lights = _LIGHTS_SAID.search(request)
        if len(rooms) == 1 and devices == ["light"]:
            where, said, whole = {"name": "light", "area": rooms[0]}, \
                request[_DEVICE_SAID["light"].search(request).end():], request
        elif not rooms and devices == ["light"] and lights:          # "turn all the lights red"
            where, said, whole = {"name": lights.group()}, request[lights.end():], request
    else:
        names = _things_named(slots)
        named = bool(names or slots.request_areas)
        area = slots.areas[0] if slots.request_areas else None
        whole = _unnamed(slots)
        owned = _owned_light(slots, request) if white and not names else None
        if owned is not None:           # "the lounge lamp's colour temperature": the lamp, not the lounge
            names, area = [owned], None
            whole = re.sub(rf"(?<![\w']){re.escape(owned)}(?=')", "it", request)
        it = _IT.search(whole)
        if slots.request_areas <= 1 and len(names) == 1 and it and \
                slots.lexicon.kinds_of(names[0], area) == set(COLOURED_KINDS):
            where, said = {"name": names[0], **({"area": area} if area else {})}, whole[it.end():]
        lights = _LIGHTS_SAID.search(request)
        if where is None and lights and slots.request_areas <= 1 and all(_LIGHTS_SAID.match(n) for n in names):
            where = {"name": lights.group(), **({"area": area} if area else {})}     # "make the lounge lights blue"
            whole = re.sub(rf"\b{re.escape(area)}\b", "it", request) if area else request
            said = whole[_LIGHTS_SAID.search(whole).end():]
    followed = where is None
    if followed:
        if named or before is None or not (part_before or before["name"] in COLOUR_SKILLS or
                                           _switched_on_light(before, slots.lexicon)):
            return None
        told = before["arguments"]          # the default home's light is its room's ("set_device" of a part before)
        where, said, whole = {key: told[key] for key in ("name", "area") if key in told} or \
            ({"name": "light", "area": told["room"]} if told.get("device") == "light" and "room" in told else {}), \
            request, request
        if not where:
            return None
    if asks_how_things_are(_WHITE_OF_A_LIGHT.sub(" ", request)):       # its "temperature" asks nothing
        return {"name": "get_colour", "arguments": where} if white or _COLOUR_ASKED.search(whole) else None
    said = _WHITE_OF_A_LIGHT.sub(" ", said)                 # "the lamp's white": no colour said
    colours, kelvins = _COLOUR_SAID.findall(said), _KELVIN_SAID.findall(whole)   # "2700 kelvin on the lamp"
    besides = _KELVIN_SAID.sub("", _KELVIN_ON.sub("", whole))
    if white and not kelvins:                               # "set its colour temperature to 2700"
        kelvins, besides = _WHITE_NUMBER.findall(said), _WHITE_NUMBER.sub("", besides)
    shifts = [shift for shift, pattern in _SHIFT_SAID.items() if pattern.search(whole)]
    if shifts and followed and not part_before and before["name"] == "get_colour":    # after its colour only asked
        return None
    if len(colours) + len(kelvins) + len(shifts) != 1 or _CHANGE_BESIDE_COLOUR.search(besides) or \
            _A_NUMBER.search(besides):
        return None
    value = {"colour": colours[0]} if colours else {"kelvin": int(kelvins[0])} if kelvins else {"shift": shifts[0]}
    return {"name": "set_colour", "arguments": {**where, **value}}


# A media player's controls, its volume set, stepped or asked, and what it plays asked (vocabulary.MEDIA_CONTROL_WORDS,
# VOLUME_WORDS, VOLUME_STEP_WAYS, PLAYING_ASKED)
_MEDIA_CONTROL = {action: re.compile(rf"\b(?:{_any_of(words)})\b") for action, words in MEDIA_CONTROL_WORDS.items()}
_RESUMED_BY_NAMING = re.compile(rf"^(?:{_any_of(MEDIA_RESUMED_BY_NAMING)}) (?:the )?it(?: again| back| please)*$")
_VOLUME = re.compile(rf"\b(?:{_any_of(VOLUME_WORDS)})\b")
_VOLUME_STEP = {way: re.compile(rf"\b(?:{_any_of(words)})\b") for way, words in VOLUME_STEP_WAYS.items()}
_PLAYING_ASKED = re.compile(rf"\b(?:{_any_of(PLAYING_ASKED)})")
# what a request that names no player may be about instead ("pause the timer", "skip the lights"): not a player
_NOT_OF_A_PLAYER = re.compile(rf"\b(?:timers?|countdowns?|alarms?|reminders?|"
                              rf"{_any_of(word for word, kind in CLASS_WORDS.items() if kind != 'media_player')})\b")
_PLAYER_STEPPED = re.compile(r"\b(?:turn|crank|bring) (?:it|that) (?:up|down)\b|\bturn (?:up|down) (?:it|that)\b")


def media_call(slots: "Slots") -> dict | None:
    """The call on a media player of a request in a home that has one: naming one name that means media players
    alone, an area, or nothing (the tool takes the one playing), with words of one control ("pause the tv", "next
    song", "mute the speaker in the kitchen"), of its volume set or stepped ("set the soundbar volume to 30 percent",
    "turn the volume up on the living room speaker", "louder"), or asking what it plays or its volume ("what's playing
    in the kitchen"). None for any other request, several controls, a report of what was done, a level past 0 to
    100 or in another unit."""
    lexicon, names = slots.lexicon, _things_named(slots)
    if lexicon is None or slots.request_areas > 1 or len(names) > 1 or \
            "media_player" not in lexicon.kinds.values():
        return None
    area = slots.areas[0] if slots.request_areas else None
    if names and lexicon.kinds_of(names[0], area) != {"media_player"}:
        return None
    request = _unnamed(slots)
    if _DONE.search(request) or not names and _NOT_OF_A_PLAYER.search(request):
        return None
    whole = [name for name, kind in lexicon.kinds.items() if kind == "media_player" and names and
             set(spelling_key(names[0]).split()) <= set(spelling_key(name).split())]
    named = whole[0] if len(whole) == 1 else names[0] if names else None     # "the tv": the living room tv
    where = {**({"name": named} if named else {}), **({"area": area} if area else {})}
    # a step of the player a follow-up means ("turn it up" after "pause the tv"), as of a light
    volume = _VOLUME.search(request) or names and _PLAYER_STEPPED.search(slots.request.lower())
    if asks_how_things_are(request):
        asked = "playing" if _PLAYING_ASKED.search(request) else "volume" if volume else None
        return asked and {"name": "get_media", "arguments": {**where, "asked": asked}}
    controls = [action for action, said in _MEDIA_CONTROL.items() if said.search(request)] or \
        (["resume"] if names and _RESUMED_BY_NAMING.match(request) else [])
    if len(controls) == 1 and not volume:
        return {"name": "control_media", "arguments": {**where, "action": controls[0]}}
    if controls or not volume:
        return None
    levels, units = _levels_said(request)
    if levels or _A_NUMBER.search(request):
        level = levels.pop() if len(levels) == 1 else -1
        return None if units - {"percent"} or not 0 <= level <= 100 else \
            {"name": "set_volume", "arguments": {**where, "percent": int(level) if level.is_integer() else level}}
    ways = [way for way, said in _VOLUME_STEP.items() if said.search(request)]
    return {"name": "change_volume", "arguments": {**where, "direction": ways[0]}} if len(ways) == 1 else None


_KINDS = set(spelling_key(" ".join(KIND_WORDS)).split())       # the kinds of device, as names are compared

# A robot vacuum's commands and a button's press, said (vocabulary.VACUUM_COMMANDS, BUTTON_PRESS_WORDS, BUTTON_VERBS)
_VACUUM_COMMAND_SAID = {command: re.compile(rf"\b(?:{_any_of(words)})\b")
                        for command, (words, _) in VACUUM_COMMANDS.items()}
# on or off the last word said but its name ("turn on the vacuum", "switch the robot off"), not "on quiet"
_SWITCHED_LAST = re.compile(r"\b(on|off)(?: (?:the|my|our|please|now))*$")
_PRESS_SAID = re.compile(rf"\b(?:{_any_of(BUTTON_PRESS_WORDS)})(?:s|es|ed|ing)?\b")
_APPLIANCE_WORDS = {kind: set(spelling_key(" ".join(words)).split()) for kind, words in APPLIANCE_KIND_WORDS.items()}


def appliance_call(slots: "Slots") -> dict | None:
    """The call on a robot vacuum or a button of a user's own home that a request names (a word of its name, or of
    its kind: "the hoover", "the doorbell button"): a vacuum's one command said ("send the hoover home", "pause it"),
    or its state asked ("is the vacuum docked", "how much battery does the robot have"); a button pressed ("press the
    doorbell button") or said to do the job its name says ("restart the router": the router's restart button,
    BUTTON_VERBS), never switched on or off. Read by code: the shipped model never writes these calls."""
    lexicon = slots.lexicon
    if lexicon is None or not set(lexicon.kinds.values()) & set(APPLIANCES) or slots.request_areas > 1:
        return None
    request, area = slots.resolved.lower(), slots.areas[0] if slots.request_areas else None
    words = set(spelling_key(request).split())
    verbs = {word for group in BUTTON_VERBS if words & set(group) for word in group}
    found = {whole: its for whole, kind in lexicon.kinds.items() if kind in APPLIANCES
             and (area is None or spelling_key(area) == spelling_key(lexicon.places.get(whole) or ""))
             and (its := words & (set(spelling_key(whole).split()) | _APPLIANCE_WORDS[kind]) - verbs)}
    kinds = {lexicon.kinds[whole] for whole in found}
    if len(kinds) != 1 or _DONE.search(request):
        return None
    kind = kinds.pop()
    own = {whole: its for whole, its in found.items() if its - _APPLIANCE_WORDS[kind]}    # its name said, not its kind
    found = own or found
    if kind == "button":
        doing = [whole for whole in found if verbs & set(whole.split())]
        found = {whole: found[whole] for whole in doing} or found
        if asks_how_things_are(request) or _STATE_ASKED.search(request) or not (_PRESS_SAID.search(request) or doing):
            return None
    name = next(iter(found)) if len(found) == 1 else " ".join(sorted(set().union(*found.values())))
    where = {"area": area} if area else {}
    if kind == "button":
        return {"name": "press_button", "arguments": {"name": name, **where}}
    said = slots.request.lower()               # as said: "put the hoover on max" is resolved "put on the hoover max"
    speeds = {mode for whole in found for words in (request, said) if (mode := mode_said(lexicon, whole, words))}
    if len(found) == 1 and len(speeds) == 1 and not _ASKS_HOW.search(request):       # "put the hoover on max"
        return {"name": "set_device_mode", "arguments": {"name": next(iter(found)), "mode": speeds.pop(), **where}}
    if speeds or _MODE_ASKED_OF.search(request):
        return None                                 # its fan speed, said or asked as its modes are (named_move)
    if _ASKS_HOW.search(request):
        return {"name": "get_state", "arguments": {"name": name, **where}}
    unnamed = " ".join(word for word in request.split() if spelling_key(word) not in set().union(*found.values()))
    commands = [command for command, said in _VACUUM_COMMAND_SAID.items() if said.search(unnamed)]
    switched = _SWITCHED_LAST.search(unnamed) if not commands and _STATE_ASKED.search(unnamed) else None
    commands = commands or ([VACUUM_SWITCHED[switched.group(1)]] if switched else [])   # "turn on the vacuum": started
    return {"name": "command_vacuum", "arguments": {"name": name, "command": commands[0], **where}} \
        if len(commands) == 1 else None


_TILT_SAID = re.compile(rf"\b(?:{_any_of(TILT_WORDS)})\b")


def tilt_call(slots: "Slots") -> dict | None:
    """The call of a request that says a cover's slats (vocabulary.TILT_WORDS), in a home with covers: their tilt
    asked ("what is the blinds' tilt"), set to a percent ("tilt the office blinds to 50 percent"), or opened or
    closed ("open the slats", "close the slats"; "tilt the blinds", no move said, opens them). The cover is the one
    name said, or none (the tool finds the one cover that tilts). None for another name said, a level past 0 to 100
    or in another unit, a length of time, or a report of what was done. Read by code: the model never writes it."""
    lexicon, request = slots.lexicon, _unnamed(slots)
    names = [kept for name in _things_named(slots)          # "the blinds' tilt" read as a name "blinds tilt"
             if (kept := " ".join(word for word in name.split() if word not in TILT_WORDS))]
    if lexicon is None or "cover" not in lexicon.kinds.values() or not _TILT_SAID.search(slots.resolved.lower()) \
            or slots.request_areas > 1 or len(names) > 1 or _DURATION.search(request) or _DONE.search(request):
        return None
    area = slots.areas[0] if slots.request_areas else None
    if names and lexicon.kinds_of(names[0], area) != {"cover"}:
        return None
    where = {**({"name": names[0]} if names else {}), **({"area": area} if area else {})}
    if asks_how_things_are(request):
        return {"name": "get_tilt", "arguments": where}
    levels, units = _levels_said(request)
    if levels:
        level = levels.pop()
        return None if levels or units - {"percent"} or not 0 <= level <= 100 else \
            {"name": "set_tilt", "arguments": {**where, "action": "to",
                                               "percent": int(level) if level.is_integer() else level}}
    moves = moves_said(request) - {"stop"}
    return None if len(moves) > 1 else {"name": "set_tilt", "arguments": {**where, "action": moves.pop() if moves
                                                                          else "open"}}


def _one_thing_named(slots: "Slots", inventory) -> str | None:
    """The one name said that finds one thing, when every other name said finds that thing too or nothing, and
    shares a word with its name that is no kind of device: one thing talked about in two clauses, a word after
    part of its name taken for more of the name ("the lawn looks dry, could you start the lawn sprinkler", "my
    trousers need pressing, put the trouser press on"). A name that finds nothing and shares no such word (the
    "chapel lamp" beside the "salt lamp") is another thing, and nothing is read."""
    said = slots.names[:slots.request_names]
    area = slots.areas[0] if slots.request_areas else None
    found = {name: inventory.resolve(name, area) for name in said}
    things = {e.key for one in found.values() for e in one}
    whole = [name for name in said if len(found[name]) == 1 and spelling_key(name) in slots.lexicon.whole]
    if len(things) != 1 or len(whole) != 1:
        return None
    words = set(spelling_key(whole[0]).split()) - _KINDS
    return whole[0] if all(found[name] or words & set(spelling_key(name).split()) for name in said) else None


_PART_WORDS = {word for words in MODE_KIND_WORDS.values() for word in words}


def part_asked(lexicon: Lexicon, name: str, request: str) -> str | None:
    """The part of a climate whose mode a request says (vocabulary.MODE_KIND_WORDS: "what is the air conditioner's
    fan mode", "is it swinging"): one of the named thing's parts with modes (Lexicon.modes), said in a word that is
    no word of its name."""
    kinds = {action for action, _ in lexicon.modes.get(name, {}).values()}
    said = {word.removesuffix("'s") for word in request.split()} - set(name.split())
    parts = [words[0] for kind, words in MODE_KIND_WORDS.items() if kind in kinds and said & set(words)]
    return parts[0] if len(parts) == 1 else None


def _part_named(slots: "Slots", inventory, named: str, request: str) -> list:
    """The thing a name said with a part's word after it is ("the thermostat fan to low": the thermostat's fan,
    vocabulary.MODE_KIND_WORDS), when the request says a mode of that part of it, or asks its mode ("what is the
    thermostat fan mode"); [] otherwise."""
    front, _, last = named.rpartition(" ")
    if not front or last not in _PART_WORDS:
        return []
    found = inventory.resolve(front, slots.areas[0] if slots.request_areas else None)
    if len(found) != 1 or found[0].name not in slots.lexicon.modes:
        return []
    if asks_how_things_are(request):            # "is the thermostat fan on auto"
        return found if part_asked(slots.lexicon, found[0].name, request) else []
    said = mode_said(slots.lexicon, found[0].name, request)
    return found if said and slots.lexicon.modes[found[0].name][said][0] != "mode" else []


def _one_moded(slots: "Slots", inventory, request: str) -> str | None:
    """The one name said that finds one thing with modes whose mode the request says, when each other name said is
    words of that mode ("switch the air conditioner to fan only": the "fan" is no fan)."""
    area = slots.areas[0] if slots.request_areas else None
    said = slots.names[:slots.request_names]
    for name in said:
        found = inventory.resolve(name, area)
        word = mode_said(slots.lexicon, found[0].name, request) if len(found) == 1 else None
        if word and all(other == name or set(other.split()) <= set(word.split()) for other in said):
            return name
    return None


def _several_named(slots: "Slots", inventory, request: str) -> dict | None:
    """Several things named with one state, that are every light, or everything, of one area ("the crystal pendant
    and the picture light, both on"): that area's switch_all."""
    found = [inventory.resolve(name, slots.areas[0] if slots.request_areas else None)
             for name in slots.names[:slots.request_names]]
    if any(len(one) != 1 for one in found) or _A_LEVEL_SAID.search(request) or _DONE.search(request) \
            or asks_how_things_are(request):
        return None
    named = {one[0].key for one in found}
    areas = {one[0].area for one in found}
    states = {state for pair in _STATE_ASKED.findall(request) for state in pair if state} | \
        set(re.findall(r"\b(?:both|all|each|them|they|everything) (on|off)\b", request))
    if len(areas) != 1 or None in areas or len(states) != 1:
        return None
    area = areas.pop()
    for kind, components in (("lights", ("light",)), ("everything", SWITCH_ALL_COMPONENTS)):
        if named == {e.key for e in inventory.resolve(None, area, components)}:
            return {"name": "switch_all", "arguments": {"name": kind, "area": area, "state": states.pop()}}
    return None


def _action_of(call: dict, said_numbers: list[str]) -> str | None:
    """The action of a call that words must ask for (switching off, brighter, a cover's move, cancelling a
    timer, which reading, arithmetic, a brightness no number said); None for the rest. Switching on is not
    among them: the corpus asks for it in too many ways ("get the fan going", "I need some light")."""
    name, arguments = call["name"], call["arguments"]
    if name in ("set_brightness", "set_level"):
        percent = float(arguments["percent"])
        return None if any(float(number) == percent for number in said_numbers) else f"{percent:g} percent"
    if arguments.get("state") == "off":
        return "off"
    if name in ("change_brightness", "change_level"):
        return arguments.get("direction")
    if name == "set_cover":
        return arguments.get("action")
    if name in ("cancel_timer", "stop_timer"):
        return "cancel"
    if name == "read_sensor":
        return arguments.get("kind")
    if name == "timer_left":
        return "time left"
    return "calculate" if name == "calculate" else None


# The default home's rooms and devices, and the units but degrees (which "70 degrees in celsius" leaves unsaid),
# each by any of its words; "dark" asks for the light.
_NAMED_BY = {name: re.compile(r"\b(?:" + "|".join(re.escape(p) for p in (*phrases, name.replace("_", " "),
                                                                         *DEVICE_CUES.get(name, ()))) + r")\b")
             for name, phrases in (*ROOMS.items(), *DEVICES.items(), *UNIT_WORDS.items())
             if UNIT_FACTORS.get(name, ("",))[0] != "temperature"}

# Each default device by its own words only (not DEVICE_CUES: "dark" asks for light, it names no lamp)
_DEVICE_SAID = {device: re.compile(r"\b(?:" + "|".join(re.escape(p) for p in sorted(phrases, key=len, reverse=True))
                                   + r")\b") for device, phrases in DEVICES.items()}
_NOT_ONE_THING = re.compile(rf"\b(?:{'|'.join(NOT_ONE_THING)})\b")
_NEGATED = re.compile(r"n't\b|\b(?:not|never|no longer)\b")
# Each reading by its words (skills.READINGS)
_READING_SAID = {kind: re.compile(rf"\b(?:{'|'.join(words)})\b") for kind, words in READINGS.items()}

# A word of heat: the thermostat's own words, a degree, a way of heat ("warmer")
_HEAT_SAID = re.compile(rf"\b(?:{'|'.join((*HEATING_WORDS, *HEAT_WAYS))}|degrees?)\b")
# "set a pasta timer": the word before "timer" names it, unless it is one of these.
_TIMER_LABEL = re.compile(r"\b([a-z]+) timer\b")
NOT_TIMER_LABELS = {"a", "an", "the", "my", "this", "that", "your", "one", "another", "new", "second", "first",
                    "egg", "kitchen", "countdown", "other", "last", "each", "every", "all", "any", "no", "set",
                    "start", "cancel", "stop", "timer", "seconds", "of", "for", "on", "to", "it", "same", "next",
                    "parley", "hey", "hi", "yo", "ok", "okay", "um", "uh", "so", "and", "also", "now", "just", "please",
                    "at", "in", "by", "with", "from", "as", "is", "be", "up", "out", "over", "if", "but", "or",
                    # a verb or an adverb said before "timer" asks for one, it does not name it ("make timer of ten
                    # minutes", "hey, probably timer" for "hey parley timer")
                    "make", "create", "begin", "put", "run", "give", "get", "add", "need", "want", "restart",
                    "reset", "pause", "end", "kill", "clear", "delete", "remove", "check", "show", "go", "quick",
                    "quickly", "probably", "maybe", "just", "then", "again", "still"}
# A word said after these is a verb, and a verb before "timer" names no timer ("the sauce needs to simmer, timer for
# 35 minutes" named it "simmer"); but after a wish or the one asked, "to" is the request's ("i'd like you to pasta
# timer for 5 minutes", the corpus's)
VERB_AFTER = {"to", "could", "will", "would", "can", "should", "must", "might", "may", "shall"}
WISH_BEFORE_TO = {"you", "me", "us", "want", "wanna", "like", "love", "need"}


class NoAction(str):
    """A tool's result when it did nothing (yet): a whole sentence saying why, or asking which one or for a
    yes. It is the whole reply: the model wrote its words around {result} before the tool ran, for a result
    ("Okay, the thermostat is set to {result}.")."""


class Done(str):
    """A tool's result that says in a whole sentence what it did to one thing of the user's home ("Okay, the
    radiant panel is set to 19 degrees."). It is the whole reply: the model may have written the default home's
    words around {result} ("Okay, the thermostat is set to {result}." for "the heater in the sewing room, set it
    to nineteen", a thermostat the code then placed in its area), and the sentence inside them said it twice."""


def fill_result(template: str, result: str | None) -> str:
    """The reply's speech with its {result} slot filled (emptied while there is no result yet)."""
    if isinstance(result, (NoAction, Done)):
        return result
    return template.replace(RESULT_SLOT, result if result is not None else "").strip()


def format_call(call: dict) -> str:
    """`set_device device=light room=kitchen state=on`; values never contain spaces."""
    args = " ".join(f"{key}={_format_value(value)}" for key, value in call["arguments"].items())
    return f"{call['name']} {args}".strip()


def _format_value(value) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).replace(" ", "")


def parse_call(text: str) -> dict | None:
    """Inverse of format_call; numbers become int/float except `expression`. None if malformed."""
    parts = text.split()
    if not parts or "=" in parts[0]:
        return None
    arguments = {}
    for part in parts[1:]:
        key, sep, value = part.partition("=")
        if not sep or not key or not value:
            return None
        arguments[key] = value if key == "expression" else _number_or_text(value)
    return {"name": parts[0], "arguments": arguments}


def _number_or_text(value: str):
    try:
        number = float(value)
    except ValueError:
        return value
    return int(number) if number.is_integer() and "." not in value else number


def render_reply(call: dict | None, text: str) -> str:
    """The training target for one assistant turn."""
    if call is None:
        return f"{SAY} {text}"
    return f"{CALL} {format_call(call)}{SAY} {text}"


def _assistant_calls(message: dict) -> list[dict]:
    """Tool calls of an assistant message, in OpenAI's shape or Parley's {name, arguments}."""
    calls = []
    for item in message.get("tool_calls") or []:
        function = item.get("function", item)
        arguments = function.get("arguments", {})
        if isinstance(arguments, str):
            try:
                arguments = json.loads(arguments or "{}")
            except json.JSONDecodeError:
                arguments = {}
        calls.append({"name": function.get("name", ""), "arguments": arguments})
    return calls


def _turns(history: list[dict]) -> list[list]:
    """[normalised user text, the assistant's first call, or SAY, or None] for each kept user turn."""
    turns: list[list] = []
    for message in history:
        role = message.get("role")
        if role == "user":
            turns.append([content_text(message), None])
        elif role == "assistant" and turns:
            calls = _assistant_calls(message)
            if calls and (turns[-1][1] is None or turns[-1][1] == SAY):
                turns[-1][1] = calls[0]
            elif turns[-1][1] is None:
                turns[-1][1] = SAY
    kept = turns[-MAX_USER_TURNS:] or [["", None]]      # only these are normalised: the older ones are not shown
    return [[normalize_request(text), part] for text, part in kept]


def _join(turns) -> str:
    def shown(part):
        return "" if part is None else ASSISTANT + (SAY if part == SAY else f"{CALL} {part}")
    return "".join(f"{USER} {text}" + shown(part) for text, part in turns) + ASSISTANT


def render_prompt(history: list[dict]) -> str:
    """The prompt for the reply to the last user message of an OpenAI-style history (no slots)."""
    return _join([[text, part if part in (None, SAY) else format_call(part)] for text, part in _turns(history)])


@dataclass
class Slots:
    """What the slots of one prompt stand for: numbers (<nK>), names (<eK>) and areas (<aK>); said: how often
    the prompt says each number slot; named: the default home's rooms and devices its words (or earlier
    calls) name; spoken: the conversation's words, calls' names as said; places: the "in the X" of the request."""
    numbers: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    areas: list[str] = field(default_factory=list)
    said: Counter = field(default_factory=Counter)
    named: set[str] = field(default_factory=set)
    may_multiply_itself: bool = False
    longest_duration: float = 0.0
    spoken: str = ""
    places: list[str] = field(default_factory=list)
    tools: ToolSlots | None = None      # the client's declared tools shown, and the request's span slots
    request_areas: int = 0              # how many of the area slots (the first ones) the request itself names
    request_names: int = 0              # and of the name slots
    request: str = ""                   # the request being answered, normalised (as the user said it, at run time)
    resolved: str = ""                  # the request as resolved: a follow-up's, the request it stands for
    clauses: tuple[str, ...] = ()       # the request's clauses, normalised, when read alone too (assistant.clauses)
    alone: bool = True                  # the request is read with no earlier turn (a first turn, or one resolved)
    lexicon: Lexicon | None = None      # the user's own home's names, None for the default home

    def mended(self, call: dict) -> dict:
        """A call that lacks one number its skill needs, the request saying one number of that kind: a timer's
        length ("the bread needs forty minutes, start a bread timer" gave start_timer name=bread), degrees, a
        percent. Any other call the skills do not accept is a muddled reading and stays refused: "a lovely afternoon
        for a game of billiards" gave get_state name=billiards action=lock. The checks of every call still hold."""
        skill, arguments = SKILLS.get(call["name"]), call["arguments"]
        if skill is None or not set(arguments) <= set(skill.arguments):
            return call
        missing = set(skill.arguments) - skill.optional - set(arguments)
        levels, units = _levels_said(self.request)
        said = {"seconds": {float(seconds) for seconds in _DURATION.findall(self.request)},
                "degrees": levels if units <= {"degrees"} else set(),
                "percent": levels if units <= {"percent"} else set()}
        if len(missing) != 1 or len(found := said.get(key := missing.pop(), set())) != 1:
            return call
        number = found.pop()
        return {"name": call["name"], "arguments": {**arguments, key: int(number) if number.is_integer() else number}}

    def refuses(self, call: dict, call_text: str) -> bool:
        """The call, read against what was said, is one the model made up from a garbled request: rather ask
        again than act. call: a valid call, names and numbers back in; call_text: as written, slots still in."""
        return self.repeats_an_unsaid_number(call_text) or self.names_something_unsaid(call) \
            or self.shortens_a_said_duration(call) or self.acts_unasked(call) or self.drops_a_said_place(call) \
            or self.switches_on_against_off(call) or self.acts_on_a_question(call) or self.reads_for_a_switch(call) \
            or self.reads_unasked(call) or self.names_a_timer_as_a_thing(call) or self.switches_for_a_lock(call) \
            or self.leaves_an_appliance_call(call) or self.leaves_a_tilt(call) \
            or self.places_in_an_unsaid_area(call) or self.times_a_thing(call) or self.switches_against_its_verb(call) \
            or self.converts_to_itself(call) or self.switches_on_for_another_move(call) or self.switches_on_for_a_level(call) \
            or self.leaves_a_said_mode(call) or self.leaves_a_climates_target(call) \
            or self.leaves_a_covers_position(call) or self.leaves_a_media_call(call) or self.leaves_a_level_asked(call) \
            or self.leaves_a_named_thing(call) or self.leaves_another_named_thing(call) \
            or self.names_the_whole_home(call) \
            or self.leaves_a_humidifiers_target(call) \
            or self.takes_the_other_half_of_the_day(call) or self.leaves_a_said_level(call) \
            or self.acts_on_words_that_ask_nothing(call) or self.names_a_thing_the_home_lacks(call) \
            or self.sets_a_level_said_in_another_unit(call) or self.acts_on_a_thing_of_another_kind(call) \
            or self.heats_for_another_device(call) or self.sets_a_step_as_the_level(call) \
            or self.levels_the_lights_for_another_device(call)

    def heats_for_another_device(self, call: dict) -> bool:
        """The default home's thermostat set, for a request that names another of its devices and says no word of
        heat ("can you knock those lights down to 40" set the thermostat to 40): rather ask again."""
        if call["name"] != "set_thermostat" or self.lexicon is not None or {"name", "area"} & set(call["arguments"]):
            return False
        return not _HEAT_SAID.search(self.request) and any(
            _NAMED_BY[device].search(self.request) for device in DEVICES if device != "heater")

    def acts_on_a_thing_of_another_kind(self, call: dict) -> bool:
        """A call on a name of the user's home that means only things the skill cannot act on ("the chandelier at
        that level as well" locked the chandelier, "what about the cellar humidity" switched it on): the words were
        misread; rather ask again than answer that the home has no such thing. A level is not checked: "the punkah at
        half speed" is a clear request of a level the tools lack for a fan, not a misreading."""
        name, components = call["arguments"].get("name"), SKILL_COMPONENTS.get(call["name"])
        if self.lexicon is None or not isinstance(name, str) or components is None or call["name"] in LEVEL_SKILLS:
            return False
        area = call["arguments"].get("area")
        kinds = self.lexicon.kinds_of(name, area.replace("_", " ") if isinstance(area, str) else None)
        return bool(kinds) and not kinds & set(components)

    def sets_a_level_said_in_another_unit(self, call: dict) -> bool:
        """A level the request says only in the unit the thing does not take: degrees for a light, a percent for a
        heater ("set the thermostat to 70 percent" set 70 degrees, "dim the bedroom lights to 5 degrees" 5
        percent): rather ask again than guess what was meant."""
        key = LEVEL_UNIT.get(call["name"])
        value, name = call["arguments"].get(key), call["arguments"].get("name")
        if not isinstance(value, (int, float)):
            return False
        unit = "degrees" if call["name"] == "set_level" and isinstance(name, str) and self.lexicon is not None \
            and self.lexicon.kinds_of(name, call["arguments"].get("area")) <= set(_THERMOSTATS) \
            and self.lexicon.kinds_of(name, call["arguments"].get("area")) else key
        said = {said_unit for number, said_unit in _A_LEVEL_UNIT.findall(self.request) if float(number) == value}
        return bool(said) and unit not in said

    def sets_a_step_as_the_level(self, call: dict) -> bool:
        """A level or a temperature set to a number the request says only as a step ("bring it up 2 degrees" after
        the radiator was only asked about set it to 2 degrees): the step is not the value."""
        levels = [value for key, value in call["arguments"].items() if key in ("percent", "degrees")
                  and isinstance(value, (int, float)) and not isinstance(value, bool)]
        steps = {float(number) for number in _A_STEP.findall(self.request)}
        targets = {float(number) for number in _A_TARGET.findall(self.request)}
        return bool(levels) and float(levels[0]) in steps - targets

    def acts_on_words_that_ask_nothing(self, call: dict) -> bool:
        """A call on the home's things for words that ask the assistant for nothing (asks_nothing): "when the guests
        arrive we'll probably want the chandelier on" switched it on."""
        skill = SKILLS.get(call["name"])
        return skill is not None and bool(set(skill.arguments) & _THING_ARGUMENTS) and asks_nothing(self.request)

    def names_a_thing_the_home_lacks(self, call: dict) -> bool:
        """A call on one of the user's things no word of the conversation says, for a request whose verb's object,
        said in an area, has a word neither of the home's names (one word or two said apart: "juke box") nor a word
        for a kind ("open the cat flap in the gallery" opened the velux window): rather say so than guess."""
        name = call["arguments"].get("name")
        found = _OBJECT_IN_AN_AREA.search(self.request)
        if self.lexicon is None or not isinstance(name, str) or found is None:
            return False
        spoken = {spelling_key(word) for word in self.spoken.split()}
        if any(spelling_key(word) in spoken for word in name.replace("_", " ").split()):
            return False
        known = {spelling_key(word) for phrase in self.lexicon[0] | self.lexicon[1] for word in phrase.split()}
        words = found.group(1).split()
        joined = {spelling_key(a + b) for a, b in zip(words, words[1:])}
        return any(spelling_key(word) not in known | THING_KIND_WORDS and word not in NOT_MORE_OF_A_NAME
                   and not joined & known
                   for word in words)

    def placed(self, call: dict) -> dict:
        """A switch of a name that only a cover has, for a request whose words say one move of a cover: that move
        ("close the pergola roof", "the door of the boathouse, shut it" were read as switching off, which a cover
        cannot be). A thermostat call with no name or area, in a user's home, for a request that names one area: in that
        area; or that names one thing only, a heater by its words: that heater ("still room heater to 16 please,
        the herbs need it cool"). The model leaves it out ("make the nursery 22 degrees" gave set_thermostat
        degrees=22), and the home would ask which of its heaters. A conversion the way its words say it goes
        (conversion_way)."""
        arguments = call["arguments"]
        if call["name"] == "convert":          # "in kilometres, what would 10 miles be" was written kilometres to miles
            way = conversion_way(self.request.lower(), {arguments["from"], arguments["to"]})
            return call if way is None else \
                {"name": "convert", "arguments": {**arguments, "from": way[0], "to": way[1]}}
        if call["name"] == "switch_device" and self.lexicon is not None and isinstance(arguments.get("name"), str) \
                and self.lexicon.kinds_of(arguments["name"], arguments.get("area")) == {"cover"} \
                and len(moves := moves_said(self.request)) == 1:
            return {"name": "set_cover", "arguments": {**{k: v for k, v in arguments.items() if k != "state"},
                                                       "action": moves.pop()}}
        if call["name"] == "switch_device" and self.shared_name_said_as_many(arguments.get("name")):
            return {"name": "switch_all", "arguments": arguments}
        if call["name"] != "set_thermostat" or {"name", "area"} & set(call["arguments"]):
            return call
        if self.request_areas == 1:
            return {"name": call["name"], "arguments": {**call["arguments"], "area": self.areas[0]}}
        if self.request_names == 1 and not self.request_areas and _A_HEATER.search(self.names[0]):
            return {"name": call["name"], "arguments": {**call["arguments"], "name": self.names[0]}}
        return call

    def shared_name_said_as_many(self, name) -> bool:
        """A part of several things' names, all switched together, said as many ("the landing lights" of the upper
        and the lower landing light): all of them, not "which one?"."""
        if self.lexicon is None or not isinstance(name, str) or not name.strip():
            return False
        said = spelling_key(name.replace("_", " "))
        if said in self.lexicon.whole:
            return False
        sharing = [kind for whole, kind in self.lexicon.kinds.items()
                   if set(said.split()) <= set(spelling_key(whole).split())]
        words, n = self.request.split(), said.count(" ") + 1
        many = any(spelling_key(" ".join(words[i:i + n])) == said and words[i + n - 1].endswith("s")
                   and not name.replace("_", " ").endswith("s") for i in range(len(words) - n + 1))
        return many and len(sharing) > 1 and set(sharing) <= set(SWITCH_ALL_COMPONENTS)

    def switches_against_its_verb(self, call: dict) -> bool:
        """A state that no verb of switching in the request says, though one says the other ("switch off the
        bathroom light, someone's left it on again" switched it on): rather ask again, or read the clauses alone."""
        said = {state for pair in _STATE_OF_A_VERB.findall(self.request) for state in pair if state}
        return bool(said) and call["arguments"].get("state") in {"on", "off"} - said

    def converts_to_itself(self, call: dict) -> bool:
        """A conversion from a unit to the same unit ("26 miles in kilometres" gave miles to miles): no request asks
        that; rather ask again."""
        return call["name"] == "convert" and call["arguments"].get("from") == call["arguments"].get("to")

    def switches_on_for_another_move(self, call: dict) -> bool:
        """Switching on, for a request that says another move (opening, closing, locking, lowering) and no "on"
        ("pull the pleated blind down, the sun's on the cot" switched the blind on): rather ask again, or read the
        clauses alone."""
        return call["arguments"].get("state") == "on" and _ON.search(self.request) is None \
            and _MOVE_NOT_ON.search(self.request) is not None

    def switches_on_for_a_level(self, call: dict) -> bool:
        """Switching a fan on, for a request that names one of its speeds ("put the attic fan on high"), or a light, a
        fan or all of a kind, for one that says a level in words ("the punkah on at half speed", "the arc lamp on to
        full"): the level is the request (chat_template.named_move reads it; the default home's fan takes none)."""
        if call["arguments"].get("state") != "on":
            return False
        if speed_said(self.lexicon, str(call["arguments"].get("name")), self.request) is not None:
            return True
        if level_word_said(self.request) is None:
            return False
        if call["name"] == "switch_all":                   # "belvedere fan on, full speed": no level of all of them
            return True
        if self.lexicon is None:
            return call["arguments"].get("device") in LEVEL_ACTIONS
        name, area = call["arguments"].get("name"), call["arguments"].get("area")
        return call["name"] == "switch_device" and isinstance(name, str) and \
            bool(self.lexicon.kinds_of(name, area.replace("_", " ") if isinstance(area, str) else None)
                 & set(LEVEL_ACTIONS))

    def levels_the_lights_for_another_device(self, call: dict) -> bool:
        """The default home's lights set or stepped, for a request that names no light and a device of the default
        home that takes a level in a user's home only, its fan ("set the living room fan to 50 percent" set the
        lights): rather ask again."""
        if call["name"] not in _ROOM_LIGHT_LEVELS or self.lexicon is not None \
                or _NAMED_BY["light"].search(self.request):
            return False
        return any(_DEVICE_SAID[device].search(self.request) for device in LEVEL_ACTIONS if device in DEVICES
                   and device != "light")

    def leaves_a_said_mode(self, call: dict) -> bool:
        """Another call than a mode's, for a request that asks a mode of a thing it names (mode_asked: one of its
        own, or one it lacks), as said or as resolved ("put the humidifier on auto" is resolved "put on the
        humidifier auto"), or of the thing a follow-up's call names ("put it on auto"), or asks its mode or a part's
        ("put the air conditioner in dry mode" switched on a "dry mode"; "what mode is the thermostat in" read it on
        or off, "is the air conditioner swinging" too): the shipped model never writes a mode's call, and code reads
        it (named_move)."""
        if call["name"] in MODE_SKILLS or self.lexicon is None or not self.lexicon.modes:
            return False
        request = self.resolved       # "and the air conditioner" after a mode asked: "what mode is the air ... in"
        asked = asks_how_things_are(request)
        named = [(words - _PART_WORDS) or words            # "the thermostat fan": the thermostat's
                 for words in (set(spelling_key(name).split()) for name in self.names[:self.request_names])]
        if not named and not self.alone:        # "put it on auto": the thing the call names, of the conversation
            named = [set(spelling_key(str(call["arguments"].get("name", "")).replace("_", " ")).split())]
        return any(self.lexicon.may_mean(said, whole) and (
            asked and (_MODE_ASKED_OF.search(request) or part_asked(self.lexicon, whole, request))
            or mode_asked(self, whole, request) or mode_asked(self, whole, self.request))
            for whole in self.lexicon.modes for said in named)

    def leaves_an_appliance_call(self, call: dict) -> bool:
        """Another call than code's, for a request of a robot vacuum's command or state or a button's press
        (appliance_call: the model switched "start the vacuum" on); code reads it (named_move)."""
        said = appliance_call(self)
        return said is not None and (call["name"], spelling_key(str(call["arguments"].get("name")).replace("_", " ")),
                                     call["arguments"].get("command")) != \
            (said["name"], spelling_key(said["arguments"]["name"]), said["arguments"].get("command"))

    def leaves_a_tilt(self, call: dict) -> bool:
        """Another call than code's, for a request of a cover's slats (tilt_call: the model opened the blinds for
        "tilt the blinds" and read "what is the blinds' tilt" as an unknown name); code reads it (named_move)."""
        said = tilt_call(self)
        return said is not None and (call["name"], call["arguments"].get("action"), call["arguments"].get("percent"),
                                     spelling_key(str(call["arguments"].get("name", "")).replace("_", " "))) != \
            (said["name"], said["arguments"].get("action"), said["arguments"].get("percent"),
             spelling_key(said["arguments"].get("name", "")))

    def leaves_a_climates_target(self, call: dict) -> bool:
        """Another call than code's, for a request that steps or asks a climate's target temperature
        (climate_target_call: the model switched "turn the AC up" on and read "what is the thermostat set to" as its
        state); code reads it (named_move)."""
        climate = climate_meant(self)
        said = climate and climate_target_call(self, climate)
        return bool(said) and (call["name"], call["arguments"].get("direction"),
                               spelling_key(str(call["arguments"].get("name")).replace("_", " "))) != \
            (said["name"], said["arguments"].get("direction"), spelling_key(climate))

    def leaves_a_humidifiers_target(self, call: dict) -> bool:
        """Another call than code's, for a request that sets, steps or asks a humidifier's target humidity
        (humidity_call: "what is the humidifier set to" read as whether it is on); code reads it (named_move)."""
        humidifier = humidifier_meant(self)
        said = humidifier and humidity_call(self, humidifier)
        return bool(said) and (call["name"], call["arguments"].get("percent"), call["arguments"].get("direction"),
                               spelling_key(str(call["arguments"].get("name")).replace("_", " "))) != \
            (said["name"], said["arguments"].get("percent"), said["arguments"].get("direction"),
             spelling_key(humidifier))

    def leaves_a_covers_position(self, call: dict) -> bool:
        """Another call than code's, for a request that sets, steps or asks a cover's or valve's position
        (cover_position_call: the model opened the blinds for "open the blinds halfway" and read "what position are
        the blinds at" as their state); code reads it (named_move)."""
        cover = cover_meant(self)
        said = cover and cover_position_call(self, cover)
        return bool(said) and (call["name"], call["arguments"].get("percent"), call["arguments"].get("direction"),
                               spelling_key(str(call["arguments"].get("name")).replace("_", " "))) != \
            (said["name"], said["arguments"].get("percent"), said["arguments"].get("direction"), spelling_key(cover))

    def leaves_a_level_asked(self, call: dict) -> bool:
        """Another call than code's, for a question of a light's brightness or a fan's speed (level_asked_call: the
        model read "what speed is the fan on" as whether it is on); code reads it (named_move)."""
        said = level_asked_call(self)
        return bool(said) and (call["name"], spelling_key(str(call["arguments"].get("name")).replace("_", " ")),
                               call["arguments"].get("area")) != \
            (said["name"], spelling_key(said["arguments"]["name"]), said["arguments"].get("area"))

    def leaves_a_media_call(self, call: dict) -> bool:
        """Another call than code's, for a request that controls a media player, sets or steps its volume or asks what
        it plays (media_call: the model has no skill for them); code reads it (named_move)."""
        said = media_call(self)
        return bool(said) and (call["name"], {k: v for k, v in call["arguments"].items() if k != "name"},
                               spelling_key(str(call["arguments"].get("name", "")).replace("_", " "))) != \
            (said["name"], {k: v for k, v in said["arguments"].items() if k != "name"},
             spelling_key(said["arguments"].get("name", "")))

    def leaves_a_named_thing(self, call: dict) -> bool:
        """A call that acts on no thing of the home (a timer, an alarm, the time, a sum, a conversion), for a request
        that names one the call does not ("put the coffee machine on in the kitchen, i'll be down in a minute" set
        a one-minute timer): rather ask again, or read the clauses alone. In a user's own home a name the request
        says, other than a timer's; in the default home a device said with a room."""
        if set(SKILLS[call["name"]].arguments) & _THING_ARGUMENTS and call["name"] not in TIMER_SKILLS:
            return False
        own = str(call["arguments"].get("name", "")).replace("_", " ")
        if self.request_names:
            return any(name != own and not re.search(rf"\b{re.escape(name)} timers?\b", self.request)
                       for name in self.names[:self.request_names])
        return any(_NAMED_BY[device].search(self.request) for device in DEVICES) \
            and any(_NAMED_BY[room].search(self.request) for room in ROOMS)

    def leaves_another_named_thing(self, call: dict) -> bool:
        """A call on one thing of the user's home that the request names by its whole name beside another ("turn on
        the salt lamp and turn off the kiln" switched the kiln on, "the salt lamp and the arc lamp off" only the arc
        lamp): rather ask again, or read the clauses alone."""
        if self.lexicon is None or "name" not in call["arguments"] or call["name"] in TIMER_SKILLS:
            return False
        said = {spelling_key(name) for name in self.names[:self.request_names]} & self.lexicon.whole
        return len(said) > 1 and spelling_key(str(call["arguments"]["name"]).replace("_", " ")) in said

    def names_the_whole_home(self, call: dict) -> bool:
        """A thing named by a word for the whole home ("turn every light in the house off" switched off a thing
        "house"): the home has no such thing; rather ask again."""
        return str(call["arguments"].get("name", "")).replace("_", " ") in _WHOLE_HOME

    def takes_the_other_half_of_the_day(self, call: dict) -> bool:
        """An alarm in the half of the day the request does not say, while it says the other ("set me an alarm for
        nine pm" set 9 am): rather ask again."""
        period = call["arguments"].get("period")
        if period not in _PERIOD_SAID:
            return False
        other = "pm" if period == "am" else "am"
        return _PERIOD_SAID[other].search(self.request) is not None \
            and _PERIOD_SAID[period].search(self.request) is None

    def leaves_a_said_level(self, call: dict) -> bool:
        """A switch, cover, lock or scene, which take no number, for a request that says a number other than a
        length ("put the radiant panel on nineteen" switched it on): the number asks for a level or a temperature
        the call leaves out (a cover's tilt carries it: set_tilt); rather ask again."""
        return call["name"] in _TAKE_NO_NUMBER and "percent" not in call["arguments"] and \
            _A_LEVEL_SAID.search(self.request) is not None

    def times_a_thing(self, call: dict) -> bool:
        """A timer named as a thing the request switches, and says no timer ("heated airer on for an hour" set a
        timer "heated airer"): rather ask again."""
        name = call["arguments"].get("name")
        return call["name"] == "start_timer" and isinstance(name, str) and _A_TIMER.search(self.request) is None \
            and re.search(rf"\b{re.escape(name.replace('_', ' '))} (?:on|off)\b", self.request) is not None

    def places_in_an_unsaid_area(self, call: dict) -> bool:
        """An area or room no word of the conversation says, nor any room's word ("turn everything off in the
        living room please, we're off to bed" gave the area "edroom"): rather ask again, or read the clauses."""
        return any(isinstance(value, str) and value not in _NAMED_BY and value.replace("_", " ") not in self.spoken
                   and value.replace("_", " ") not in self.areas_of_names_said()
                   for key, value in call["arguments"].items() if key in ("area", "room"))

    def areas_of_names_said(self) -> set[str]:
        """The areas of the things the request names by their whole names: "the crystal pendant and the picture
        light" say the gallery, where both are."""
        if self.lexicon is None:
            return set()
        places = {spelling_key(name): area for name, area in self.lexicon.places.items()}
        return {places[key] for name in self.names[:self.request_names] if (key := spelling_key(name)) in places}

    def switches_for_a_lock(self, call: dict) -> bool:
        """A switch, for a request that says locking and no switching ("we're heading out, the strongroom door
        needs locking" switched the door off): rather ask again, or read the request's clauses alone."""
        return call["name"] == "switch_device" and _LOCKING.search(self.request) is not None \
            and _ON.search(self.request) is None and _OFF.search(self.request) is None

    def names_a_timer_as_a_thing(self, call: dict) -> bool:
        """A call of a thing named as the request names a timer ("stop the pasta timer, we're eating out"
        switched off a device "pasta"): rather ask again, or read the request's clauses alone."""
        name = call["arguments"].get("name")
        return call["name"] not in TIMER_SKILLS and isinstance(name, str) and \
            re.search(rf"\b{re.escape(name.replace('_', ' '))} timers?\b", self.request) is not None

    def drops_a_said_place(self, call: dict) -> bool:
        """Everything, or every light, in the whole home, though the request names a place, after "in" ("Turn off
        everything in the tub." switched off 21 devices) or as a room or area of the home anywhere ("don't leave the
        garage light on all night, turn it off" switched 7 lights off): rather ask again. The corpus says only "in
        the house" for the whole home."""
        if call["name"] != "switch_all" or call["arguments"].get("area"):
            return False
        return any(place not in _WHOLE_HOME for place in self.places) or self.request_areas > 0 or \
            self.lexicon is None and any(_NAMED_BY[room].search(self.request) for room in ROOMS)

    def switches_on_against_off(self, call: dict) -> bool:
        """Switching on, though the request says "off" or "shut" and never "on" ("turn off everything on the veranda"
        switched two devices on): rather ask again."""
        return call["arguments"].get("state") == "on" and _OFF.search(self.request) is not None \
            and _ON.search(self.request) is None

    def acts_on_a_question(self, call: dict) -> bool:
        """A call that changes something, for a question about what someone did ("have i locked the side gate"
        locked it): rather ask again."""
        skill = SKILLS[call["name"]]
        return not (skill.pure or skill.reads) and (_ASKS_WHAT_WAS_DONE.match(self.request) is not None
                                                     or _ASKS_WITH_A_MODAL.match(self.request) is not None
                                                     or _ASKS_OF_A_TOPIC.search(self.request) is not None)

    def reads_for_a_switch(self, call: dict) -> bool:
        """A call that only reads, for a request to switch something ("put the propagator on for the seedlings"
        read its state): rather ask again, or read the request's clauses alone."""
        return SKILLS[call["name"]].reads and _ASKS_A_SWITCH.search(self.request) is not None \
            and _ASKS_WHAT_WAS_DONE.match(self.request) is None and _ASKS_HOW.match(self.request) is None \
            and _ASKS_OF_A_TOPIC.search(self.request) is None

    def reads_unasked(self, call: dict) -> bool:
        """A call that only reads, for a request said with a clause beside it that asks nothing ("let's have the
        regatta scene, the crew's coming over" read the regatta's state): its clauses are read alone instead."""
        return bool(self.clauses) and SKILLS[call["name"]].reads \
            and not any(asks_how_things_are(said) for said in (self.request, *self.clauses))

    def acts_unasked(self, call: dict) -> bool:
        """No word of the conversation can mean what the call does (its skill's words for the action,
        skills.Skill.means): rather ask again."""
        action = _action_of(call, self.numbers)
        if action is None or call["name"] == "set_level" and \
                speed_said(self.lexicon, str(call["arguments"].get("name")), self.request) == call["arguments"]["percent"]:
            return False
        means = _MEANS.get((call["name"], action))
        if means is not None and means.search(self.spoken):
            return False
        climate = climate_meant(self) if call["name"] == "change_level" else None     # "make the bedroom warmer"
        said = climate and climate_target_call(self, climate)
        cover = cover_meant(self) if not said else None               # "open the blinds halfway", "a bit more"
        said = said or cover and cover_position_call(self, cover)
        humidifier = humidifier_meant(self) if not said else None     # "make the humidifier more humid"
        said = said or humidifier and humidity_call(self, humidifier)
        return not said or _action_of(said, self.numbers) != action

    def names_something_unsaid(self, call: dict) -> bool:
        """The call's room, device or unit was never said ("Man Room Lights to 45%" gave the living room, "switch
        the office 10 off" the office light, "200 grams announces" pounds): rather ask again. A name or area
        checks only when it is the default home's word (a user's own names reach the model as slots)."""
        return any(isinstance(value, str) and value in _NAMED_BY and value not in self.named
                   for key, value in call["arguments"].items() if key in ("room", "device", "name", "area", "from", "to"))

    def repeats_an_unsaid_number(self, call_text: str) -> bool:
        """The call (slots still in) uses a number more often than the prompt says it, other than as a power
        its words can ask for ("five squared": 5*5, "double 2": 2*2). That is the model copying the one
        number it heard ("what's, uh, plus 30" gave 30+30, "a hundred divided by for" 100*100): rather ask
        again. The corpus's calls break this rule 3 times in 105,081, never for want of these words."""
        used = Counter(_NUMBER_SLOT.findall(call_text))
        if all(count <= self.said[slot] for slot, count in used.items()):
            return False
        return not (self.may_multiply_itself and _POWER.fullmatch(call_text.strip()))

    def shortens_a_said_duration(self, call: dict) -> bool:
        """A timer shorter than a duration the request says: the model kept one part of a length Whisper
        split ("1 hour in 10 minutes" gave 10 minutes, "8 minutes in 30 seconds" 30 seconds). Rather ask
        again. The corpus's calls do this 3 times in 9,753 timers, each a slip that lost "a quarter of"."""
        seconds = call["arguments"].get("seconds")
        return isinstance(seconds, (int, float)) and seconds < self.longest_duration

    def show(self, text: str) -> str:
        """Put numbers, names and areas back (a name's spaces as `_`, the call syntax's); a slot with nothing
        behind it stays (and is refused later)."""
        families = {"n": self.numbers, "e": self.names, "a": self.areas}

        def value(match):
            family, index = families[match.group(1)], int(match.group(2))
            return family[index].replace(" ", "_") if index < len(family) else match.group(0)
        return ANY_SLOT.sub(value, text)


def _slot(value: str, family: list[str], table: list[str], grow: bool) -> str | None:
    """The slot token standing for value in this family (numbers, names or areas); with grow, value takes
    the next free one. None when it has none."""
    if value not in family:
        if not grow or len(family) >= len(table):
            return None
        family.append(value)
    return table[family.index(value)]


def hide_names(text: str, slots: Slots, lexicon: tuple[set, set] | None) -> str:
    """Known names and areas (longest first) and timer labels become <eK>/<aK> slots.

    A name slot stands for what was said of the device, not only the known part: names said one after the
    other are one name ("the torchiere lamp"), and unknown words between "the" and a name stay in the text
    but join the name behind its slot ("the chapel <e0>" is "chapel blinds", which no entity answers to,
    so the dormer blinds are not opened)."""
    words = text.split()
    out, i = [], 0
    lexicon = lexicon if isinstance(lexicon, Lexicon) else Lexicon(*(lexicon or (set(), set())))
    names, areas = lexicon
    # Speech recognition splits and joins compounds ("juke box" for the jukebox): match names without spaces too.
    unspaced, longest = lexicon.unspaced, lexicon.longest + 1

    def known_at(i: int) -> tuple[str, int] | None:
        for n in range(min(longest, len(words) - i), 0, -1):
            phrase = " ".join(words[i:i + n])
            if phrase not in areas and phrase not in names:
                phrase = unspaced.get(phrase.replace(" ", ""), phrase)
            if phrase not in areas and phrase not in names:
                phrase = lexicon.folded.get(spelling_key(phrase), phrase)
            if phrase in areas or phrase in names:
                return phrase, n
            whole = _whole_in_another_form(phrase, lexicon)
            if whole is not None:
                return whole, n
            owner = phrase.removesuffix("'s")           # "the snug's velux": the snug, a place
            if owner != phrase and lexicon.folded.get(spelling_key(owner), owner) in areas:
                return lexicon.folded.get(spelling_key(owner), owner), n
        return None

    while i < len(words):
        found = known_at(i)
        if found is not None and _a_verb_here(words, i, found, lexicon) or _the_whole_home(words, i, found, lexicon):
            found = None
        if found is None:
            out.append(words[i])
            i += 1
            continue
        phrase, n = found
        if phrase in areas:
            family, table = slots.areas, AREA_SLOTS
        else:
            family, table = slots.names, NAME_SLOTS
            while (more := known_at(i + n)) is not None and more[0] in names and more[0] not in areas:
                phrase, n = f"{phrase} {more[0]}", n + more[1]
            phrase, n = _other_part(phrase, n, words[i + n:], known_at, i + n, lexicon)
            phrase = " ".join(_unknown_before(out) + [phrase] + _unknown_after(words[i + n:i + n + 1], phrase, lexicon))
        slot = _slot(phrase, family, table, grow=True)
        out.append(slot or words[i])
        i += n if slot else 1
    text = " ".join(out)

    def label(match):
        word, before = match.group(1), match.string[:match.start()].split()[-2:]
        verb = before[-1:] and before[-1] in VERB_AFTER and not (before[-1] == "to" and before[:1] and
                                                                  before[0] in WISH_BEFORE_TO)
        if word in NOT_TIMER_LABELS or word.isdigit() or word.startswith("<") or verb:
            return match.group(0)
        slot = _slot(word, slots.names, NAME_SLOTS, grow=True)
        return f"{slot} timer" if slot else match.group(0)
    return _TIMER_LABEL.sub(label, text)


_DETERMINERS = {"the", "my", "our", "your", "this", "that"}


# A verb of a request in any of its forms ("switched", "turning"): no more of a name said before it
_A_REQUEST_VERB = re.compile("|".join(_forms(verb) for verb in sorted({*SWITCH_VERBS, *OTHER_REQUEST_VERBS})))


def _whole_in_another_form(phrase: str, lexicon: Lexicon) -> str | None:
    """A whole name of several words whose last word is said as a verb ("is the pond leaking": the pond leak): the
    name of its stem before -ing or -ed."""
    *first, last = phrase.split()
    if not first or not last.endswith(("ing", "ed")):
        return None
    stem = last[:-3] if last.endswith("ing") else last[:-2]
    for form in (stem, stem + "e", stem[:-1] if len(stem) > 2 and stem[-1] == stem[-2] else stem):
        name = lexicon.folded.get(spelling_key(" ".join([*first, form])))
        if name is not None and spelling_key(name) in lexicon.whole:
            return name
    return None


def _a_verb_here(words: list[str], i: int, found: tuple[str, int], lexicon: Lexicon) -> bool:
    """A word of a request's verbs that is one word of a name ("set" of the wireless set, "press" of the cider
    press), said before what it acts on ("set the garret radiator to 19", "press it"): the verb, not the name."""
    phrase, n = found
    return n == 1 and spelling_key(phrase) not in lexicon.whole and _A_REQUEST_VERB.fullmatch(words[i]) is not None \
        and words[i + 1:i + 2] != [] and words[i + 1] in VERB_OBJECTS


def _the_whole_home(words: list[str], i: int, found: tuple[str, int] | None, lexicon: Lexicon) -> bool:
    """ "the house" or "the home" said at the end of a place ("every light in the house"): the whole home, not part of
    a name that has the word ("carriage house door")."""
    return found is not None and found[0] in _WHOLE_HOME and spelling_key(found[0]) not in lexicon.whole \
        and words[i - 1:i] == ["the"] and words[i - 2:i - 1] in (["in"], ["around"], ["across"], ["through"]) \
        and (len(words) == i + 1 or words[i + 1] in NOT_MORE_OF_A_NAME)


def _other_part(phrase: str, n: int, after: list[str], known_at, at: int, lexicon: Lexicon) -> tuple[str, int]:
    """A name said in two parts, a word of place between them ("the pump in the pond", "the shutter on the
    dormer"): the one thing whose name has both parts, and the words up to the second's end. Neither part is a whole
    name, and the second is no area (the lamp "in the snug" is placed, not named); else the first part alone."""
    skip = 2 if after[1:2] and after[1] in _DETERMINERS else 1
    if not after or after[0] not in WITHIN_A_NAME or spelling_key(phrase) in lexicon.whole:
        return phrase, n
    second = known_at(at + skip)
    if second is None or second[0] in lexicon[1] or spelling_key(second[0]) in lexicon.whole:
        return phrase, n
    said = set(spelling_key(f"{phrase} {second[0]}").split())
    owners = [whole for whole in lexicon.kinds if said <= set(spelling_key(whole).split())]
    return (owners[0], n + skip + second[1]) if len(owners) == 1 else (phrase, n)


def _unknown_after(after: list[str], phrase: str, lexicon: Lexicon) -> list[str]:
    """The plain word said right after part of a name, when it is no word of a closed class (NOT_MORE_OF_A_NAME)
    and no phrase of the home: more of the name ("the pond heater" is the pond <e0> heater, with <e0> "pond
    heater", which no entity answers to, so the pond pump is not switched on). After a whole name, none."""
    if not after or spelling_key(phrase) in lexicon.whole or not after[0].isalpha() or after[0] in NOT_MORE_OF_A_NAME \
            or _A_REQUEST_VERB.fullmatch(after[0]):
        return []
    return [] if after[0] in lexicon[0] or after[0] in lexicon[1] or spelling_key(after[0]) in lexicon.folded else after


def _unknown_before(out: list[str]) -> list[str]:
    """The plain words (at most three) between a determiner, or a determiner and an area, and the end of out:
    what was said of a name before its known part ("the chapel" of "the chapel blinds", "standard" of "the
    parlour standard lamp")."""
    n = 0
    while n < min(3, len(out)) and out[-1 - n].isalpha() and out[-1 - n] not in _DETERMINERS:
        n += 1
    placed = n < len(out) - 1 and AREA_SLOT.fullmatch(out[-1 - n]) is not None
    if n == 0 or len(out) == n or out[-1 - n - placed] not in _DETERMINERS:
        return []
    if placed and NOT_MORE_OF_A_NAME & set(out[len(out) - n:]):      # "warm the snug up, stove to 23": a new clause
        return []
    return out[len(out) - n:]


def _hide_call_names(call: dict, slots: Slots, register: bool = False) -> dict:
    """Name and area arguments become the slots that stand for them (new slots too, with register)."""
    arguments = dict(call["arguments"])
    for key, table in NAME_ARGUMENTS.items():
        value = arguments.get(key)
        if isinstance(value, str) and not ANY_SLOT.fullmatch(value):
            family = slots.names if key == "name" else slots.areas
            slot = _slot(value.replace("_", " "), family, table, grow=register)
            if slot:
                arguments[key] = slot
    return {"name": call["name"], "arguments": arguments}


def hide_numbers(text: str, numbers: list[str] | None = None, grow: bool = False) -> tuple[str, list[str]]:
    """Each distinct number becomes a slot token (<n0>, <n1>, ... in order of first appearance).

    The model then points at a number instead of copying its digits, which a model this small does
    badly; the runtime puts the digits back (Slots.show). Pass the prompt's list to hide a reply's
    numbers with the same slots; numbers not in it stay digits (unless grow: then they join the list).
    Without a list, a new one grows.
    """
    grow = grow or numbers is None
    numbers = [] if numbers is None else numbers

    return _NUMBER.sub(lambda m: _slot(m.group(0), numbers, NUMBER_SLOTS, grow) or m.group(0), text), numbers


def vocabulary_named(text: str) -> set[str]:
    """The default home's rooms and devices, and the units, that text names, by any of their words ("lounge":
    the living room; "it's dark": the light)."""
    return {name for name, pattern in _NAMED_BY.items() if pattern.search(text)}


def model_prompt(history: list[dict], lexicon: tuple[set, set] | None = None,
                 declared: list[dict] | tuple = ()) -> tuple[str, Slots]:
    """The prompt text the model reads, and what its slots stand for.

    lexicon: (name phrases, area phrases) of the user's home (assistant.inventory.Inventory.lexicon), or
    None for the default home, whose words the model knows. declared: the client's own function tools;
    the few the request matches best come first, in slot form, and the request carries span slots
    (assistant.client_tools). The request being answered is slotted first.
    """
    slots = Slots()
    if lexicon is not None:
        slots.lexicon = lexicon if isinstance(lexicon, Lexicon) else Lexicon(*lexicon)
    turns = _turns(history)
    if declared:
        said = content_text(history[-1]) if history and history[-1].get("role") == "user" else ""
        shown_tools = choose(declared, turns[-1][0])
        slots.tools = ToolSlots(shown_tools, said=said) if shown_tools else None      # none: the plain prompt
        # an earlier call of a declared tool is shown as a reply without a call: its slots were another prompt's
        turns = [[text, SAY if isinstance(part, dict) and part["name"] not in SKILLS else part] for text, part in turns]
    words = " ".join(text + (" " + format_call(part) if isinstance(part, dict) else "") for text, part in turns)
    spoken = words.replace("_", " ")          # a call's names as said: living_room is "living room"
    slots.named = vocabulary_named(spoken)
    slots.may_multiply_itself = _SELF_PRODUCT_WORDS.search(words) is not None
    slots.spoken = spoken
    slots.longest_duration = max(map(float, _DURATION.findall(turns[-1][0])), default=0.0)
    slots.places = _PLACE.findall(turns[-1][0])
    slots.request = slots.resolved = turns[-1][0]
    slots.alone = len(turns) == 1
    shown = []
    for text, part in reversed(turns):
        text, _ = hide_numbers(hide_names(text, slots, lexicon), slots.numbers, grow=True)
        if not shown:
            slots.request_areas, slots.request_names = len(slots.areas), len(slots.names)
        if slots.tools is not None and not shown:
            text = slots.tools.mark(text)
        if part not in (None, SAY):
            part, _ = hide_numbers(format_call(_hide_call_names(part, slots, lexicon is not None)), slots.numbers)
        shown.append([text, part])
    prompt = _join(reversed(shown))
    slots.said.update(_NUMBER_SLOT.findall(prompt))
    if slots.tools is not None:
        prompt = tool_block(slots.tools.tools, turns[-1][0]) + prompt
    return prompt, slots


def reply_target(call: dict | None, text: str, slots: Slots) -> str:
    """The training target: the reply with the prompt's slots in place of its numbers and names (and of a
    declared tool's name, parameters and the spans its values were said in)."""
    if call is not None and call["name"] not in SKILLS:
        if slots.tools is None:
            raise ValueError(f"{call['name']}: a declared tool the prompt does not show")
        call = _declared_call_slots(call, slots.tools)
    elif call is not None:
        call = _hide_call_names(call, slots)
    return hide_numbers(render_reply(call, text), slots.numbers)[0]


def _declared_call_slots(call: dict, tools: ToolSlots) -> dict:
    """`<t0> <p0>=<s2>`: a declared call in slot form; ValueError when a value is no span of the request."""
    index = [t.name for t in tools.tools].index(call["name"])
    tool, arguments = tools.tools[index], {}
    for key, value in call["arguments"].items():
        span = value if isinstance(value, (int, float)) else tools.span_of(str(value))
        if span is None:
            raise ValueError(f"{value!r} is not said in {' '.join(tools.words)!r}")
        arguments[PARAMETER_SLOTS[tool.parameters.index(key)]] = span
    return {"name": TOOL_SLOTS[index], "arguments": arguments}


def content_text(message: dict) -> str:
    """OpenAI content is a string or a list of parts; take the text parts."""
    content = message.get("content") or ""
    if isinstance(content, list):
        return " ".join(part.get("text") or part.get("transcript") or "" for part in content if isinstance(part, dict))
    return str(content)
