"""Which clauses of a request said with a reason or a remark beside it a second reading may take, and what the
reading costs: the clauses are decoded in the same batch as the whole request."""
import asyncio
import json

import pytest

from assistant.clauses import asked_after_a_negation, clauses, negated_or_remarked, parts_alone, takeable
from assistant.conversation import Vocabulary
from assistant.generator import ToolCallEvent, respond_sync
from assistant.home import InMemoryHome
from assistant.reply import LEFT_AS_IT_IS
from assistant.tools import ToolRunner

DEFAULT_HOME = Vocabulary(None)


def test_a_request_splits_at_punctuation_and_before_a_reason():
    assert [c.said for c in clauses("switch the fan off, it's noisy")] == ["switch the fan off", "it's noisy"]
    assert [c.said for c in clauses("turn on the lamp so i can read")] == ["turn on the lamp", "so i can read"]
    # a length said alone goes with the clause before it, as a level does
    assert [c.said for c in clauses("timer. eight minutes. go")] == ["timer 480 seconds", "go"]
    assert [c.said for c in clauses("egg timer, six minutes, they're on")] == ["egg timer 360 seconds", "they're on"]
    assert [c.said for c in clauses("hall light, ten percent")] == ["hall light 10 percent"]
    # a comma or a point inside a number, and a clock time, are no break
    assert [c.said for c in clauses("what's 1,500 plus 2.5")] == ["what's 1500 plus 2.5"]
    assert [c.written for c in clauses("set an alarm for 6:45")] == ["set an alarm for 6:45"]
    assert clauses("a, b, c, d, e") == []                      # too many to be a request with a remark


@pytest.mark.parametrize("request_, taken", [
    ("switch the fan off, it's noisy", ["switch the fan off"]),
    ("the kids are asleep, turn off the tv in the bedroom", ["turn off the tv in the bedroom"]),
    ("what's the time, i'm running late", ["what's the time"]),
    ("turn on the lamp so i can read", ["turn on the lamp"]),
    ("heater on please because it's freezing", ["heater on please"]),
    ("what's 100 divided by 4 for the recipe", ["what's 100 divided by 4"]),
    ("switch the fan on given that it's sweltering", ["switch the fan on"]),   # vocabulary.REASONS, one table
    ("set a timer for 10 minutes", []),                                      # a duration is no purpose
    # a reason or a remark is never taken, even when it is all that is left
    ("it's dark in here, you know", ["you know"]),
    # a clause of words that open a request and carry nothing is none: no clause is left to take
    ("it's dark in here, hmm", []),
    # a condition changes the request: no second reading
    ("turn off the heater, when i leave", []),
    ("switch the lamp on, if it's dark", []),
    # what is left out may not carry a name, a number, a place or a state
    ("turn off everything, in the snug", []),
    ("set a timer, 10 minutes", []),
    ("the kitchen light, turn it off", ["turn the kitchen light off"]),     # the pronoun stands for it
    ("close them, the blinds in the office", []),
    ("lights, off", []),
    ("lock the back door, we're off on holiday", ["lock the back door"]),      # the speaker's state, no thing's
    # someone's doing is a remark, its state no thing's of the home
    ("turn off the kitchen fan, somebody's left it on", ["turn off the kitchen fan"]),
    ("lock the back door, nobody's in", ["lock the back door"]),
    ("turn the hall light on, something smells off in there", ["turn the hall light on"]),
    # what is taken back after a clause is not done; a correction before it is
    ("switch on the fan, actually don't", []),
    ("turn on the kitchen light, just kidding", []),
    ("no wait, stop it there", ["stop it there"]),
    ("turn on the lamp, but don't", []),
    ("open the blinds, well don't", []),
])
def test_a_clause_may_be_taken_only_beside_clauses_that_carry_nothing(request_, taken):
    assert takeable(request_, DEFAULT_HOME) == taken


@pytest.mark.parametrize("request_, taken", [
    # a reason said with "while"; "hold on" and "in the way" are no state and no place
    ("the heater, turn it off while i hoover", ["turn the heater off"]),
    ("hold on, the cat's in the way, stop it", ["stop it"]),
    # a remark about something the home does not have: its state is its own
    ("close the blinds, the sun's up", ["close the blinds"]),
    ("turn the heater off, the kids are up", ["turn the heater off"]),
    ("turn the fan off, the heater is on", []),                       # the home has a heater
    # "don't" of a remark's subject takes nothing back
    ("what's the temperature in the office, the plants don't like the cold", ["what's the temperature in the office"]),
    # a value said to be better is a remark whose number the other clause needs
    ("24 would be better, can you change it", []),
    ("24 is better, can you change it", []),
    # "that" before a clause's subject is a conjunction, no pronoun
    ("the heater, make sure that it's off", []),
    # a state said alone after a thing switches it
    ("the bedroom fan, off please, it is too cold", ["turn the bedroom fan off please"]),
    ("the office, off please", []),                                    # a room is no thing
])
def test_remarks_of_the_ninth_sets_kinds_beside_a_request(request_, taken):
    """Phrasings of their own for the ninth paraphrase set's "the pond pump, turn it off while i clean the
    filter", "hang on, the bike's in the way, stop it", "switch the dock lights off, the boat's tied up"."""
    assert takeable(request_, DEFAULT_HOME) == taken


@pytest.mark.parametrize("request_, taken", [
    # "on second thoughts" is no state
    ("on second thoughts, switch the fan off, it's chilly now", ["switch the fan off"]),
    # a timer said after a determiner anywhere in a clause that carries nothing else stands for the pronoun
    ("no need for the egg timer now, cancel it", ["cancel the egg timer"]),
    # a thing and its area said with "on"
    ("the lamp on the landing, switch it off", ["switch the lamp in the landing off"]),
    # not some of several said with a word the home does not know: not every light on the landing
    ("the bottom lights on the landing, switch them off", []),
    ("the bottom lights in the landing, switch them off", []),
    # a question that names only what the other clause names carries nothing more; a clause that does not ask does
    ("is the fan still running, switch the fan off", ["switch the fan off"]),
    ("bring the fan, mount a fan, and prevent", []),
])
def test_remarks_of_the_tenth_sets_kinds_beside_a_request(request_, taken):
    """Phrasings of their own for the tenth paraphrase set's "hmm, on second thoughts, turn it off, the pots
    aren't dry yet", "don't need the bath timer any more, turn it off", "the bunting lights on the veranda, switch
    them off"."""
    assert takeable(request_, DEFAULT_HOME) == taken


@pytest.mark.parametrize("request_, taken", [
    # what the speaker heard or cannot do is a remark
    ("is the garage door shut, i heard it bang", ["is the garage door shut"]),
    ("what's 48 divided by 6, i can't be bothered to work it out", ["what's 48 divided by 6"]),
    # "in my eyes", "in my head" are no place of the home; a room the remark says is the request's
    ("draw the curtains in the bedroom, the glare's in my eyes", ["draw the curtains in the bedroom"]),
    ("what's 9 times 14, i can't do it in my head", ["what's 9 times 14"]),
    ("switch the fan off, i can't sleep in the bedroom", ["switch the fan off in the bedroom"]),
    # "dim" said as a move is carried; said of how a thing is, it is a remark's
    ("the kitchen light, dim it a bit", ["dim the kitchen light a bit"]),
    ("the kitchen light's too dim to read by, turn it up", ["turn the kitchen light up"]),
    # a condition stays with the request
    ("i can't sleep, turn off the fan when i'm asleep", ["turn off the fan when i'm asleep"]),
])
def test_remarks_of_the_eleventh_sets_kinds_beside_a_request(request_, taken):
    """Phrasings of their own for the eleventh paraphrase set's remarks after a request."""
    assert takeable(request_, DEFAULT_HOME) == taken


@pytest.mark.parametrize("request_, taken", [
    # a clause said again at once is said once; one of words that open a request (vocabulary.OPENING_WORDS) is none
    ("off, off, the baby's asleep", ["off"]),
    ("okay then, switch it off, we're going out", ["switch it off"]),
    ("go ahead, turn the heater on, i'm cold", ["turn the heater on"]),
    # a remark that a thing is not doing something takes nothing back; "not" said otherwise still does
    ("is the fan on, it's not spinning", ["is the fan on"]),
    ("turn the fan on, it's not needed", []),
    # a level said alone goes with the clause before it
    ("kitchen light, forty percent, we're eating", ["kitchen light forty percent"]),
])
def test_remarks_of_the_twelfth_sets_kinds_beside_a_request(request_, taken):
    """Phrasings of their own for the twelfth paraphrase set's clauses beside a request."""
    assert takeable(request_, DEFAULT_HOME) == taken


def test_a_word_of_a_longer_name_said_otherwise_names_nothing():
    """In a home with a still room, "the washing is still wet" names no thing; "the house" of a carriage house
    door, said as a thing, does."""
    home = Vocabulary(({"still room heater", "carriage house door", "house", "still", "heater"}, {"still room"}))
    assert takeable("put the still room heater on, the washing is still wet", home) == ["put the still room heater on"]
    assert takeable("switch the heater off, we're leaving the house", home) == []
    # a word of the default home names nothing of a user's own
    assert takeable("put the still room heater on, the cat's on the sofa by the tv", home) == ["put the still room heater on"]
    assert takeable("switch the fan off, the cat's by the tv", DEFAULT_HOME) == []


def test_a_pronoun_stands_for_the_thing_a_clause_before_it_names():
    """ "that larder extractor is noisy, turn it off": the clause with the pronoun is read with the thing in its
    place, the area said after the thing too; not when the topic says a state, a number or two things, and
    not for a thing named after the pronoun (phrasings written for this rule, beside the eighth set's rows)."""
    home = Vocabulary(({"boot room heater", "heater", "garden lanterns", "lanterns", "lantern", "sash window",
                        "window", "coffee urn", "urn", "cellar lock", "lock"}, {"scullery"}))
    assert takeable("that boot room heater is far too loud, switch it off", home) == ["switch the boot room heater off"]
    assert takeable("the garden lanterns, put them on, guests are coming", home) == ["put the garden lanterns on"]
    assert takeable("the sash window in the scullery, is it shut", home) == ["is the sash window in the scullery shut"]
    assert takeable("my coffee urn's been going all day, turn it off", home) == ["turn the coffee urn off"]
    assert takeable("the cellar lock, lock it", home) == ["lock the cellar lock"]          # "lock" said as a verb
    assert takeable("the heater is on, turn it off", home) == ["turn the heater off"]      # the topic's state: a remark
    assert takeable("the heater is on in the scullery, turn it off", home) == []            # a place in the topic
    assert takeable("the urn and the lanterns, turn them off", home) == []                  # two things
    assert takeable("turn it off, the coffee urn", home) == []                              # named after
    assert takeable("the urn, turn it off, actually don't", home) == []                     # taken back
    assert takeable("the kitchen light, turn it off", DEFAULT_HOME) == ["turn the kitchen light off"]
    # a remark's area is the thing's, when the thing's clause says none (as a remark's beside a request is)
    assert takeable("the sash window, shut it, it's freezing in the scullery", home) == \
        ["shut the sash window in the scullery"]
    assert takeable("the sash window in the scullery, shut it, it's freezing in the kitchen", home) == []
    assert takeable("the sash window, shut it, it's cold in the scullery, and in the kitchen", home) == []


def test_a_remarks_place_is_the_requests_when_it_is_an_area_and_nothing_when_the_home_lacks_it():
    """ "punkah on, it's sweltering in the conservatory" is read again as "punkah on in the conservatory"; "start
    the bilge pump, there's rain in the boat" as "start the bilge pump" (phrasings written for this rule)."""
    home = Vocabulary(({"ceiling fan", "fan", "fountain"}, {"orangery", "scullery"}))
    assert takeable("the ceiling fan on, it's boiling in the orangery", home) == ["the ceiling fan on in the orangery"]
    assert takeable("switch the fountain off, there's ice in the bird bath", home) == ["switch the fountain off"]
    assert takeable("the fan on please, it's hot in the bedroom", DEFAULT_HOME) == ["the fan on please in the bedroom"]
    # the request's own area stands; two areas, or a thing in the remark's place, leave nothing to take
    assert takeable("turn on the bedroom fan, it's hot in the kitchen", DEFAULT_HOME) == []
    assert takeable("fan on, it's hot in the orangery and the scullery", home) == []
    assert takeable("fan on, it's hot in the orangery by the fountain", home) == []
    # an area said as the remark's subject
    assert takeable("the scullery's damp, switch the fan on", home) == ["switch the fan on in the scullery"]
    assert takeable("the scullery is on fire, switch the fan off", home) == []                 # a state said


# Requests whose whole gets no call from the shipped model and whose one clause does (written apart from the
# paraphrase sets); "hmm, ..." has two clauses read again, which one after another took 5 passes
READ_AGAIN = [
    ("switch on the bedroom heater please, it's freezing", "set_device"),
    ("what's the time, i'm running late", "get_time"),
    ("turn the living room tv off, nobody is watching", "set_device"),
    ("convert 5 miles to kilometers, i'm training for a race", "convert"),
    ("hmm, what's the time, i'm running late", "get_time"),
    ("right then, set a timer for 12 minutes, the pizza is in", "set_timer"),
]


@pytest.mark.parametrize("request_, skill", READ_AGAIN)
def test_a_request_read_again_takes_no_more_passes_than_one_read_once(assistant, request_, skill):
    reply = respond_sync(assistant, [{"role": "user", "content": request_}], ToolRunner())
    assert [call.name for call in reply.tool_calls] == [skill], reply
    assert 1 <= reply.forward_passes <= assistant.decode.max_forward_passes, reply


def test_a_clauses_call_to_a_client_tool_is_answered_when_its_output_comes_back(assistant):
    """The whole request gets no call, its clause calls the client's tool; the output's reply reads the clause
    again, so it speaks the output instead of a refusal."""
    client_tools = {"set_device": {"type": "function", "name": "set_device"}}
    history = [{"role": "user", "content": "turn the living room tv off, nobody is watching"}]

    async def respond():
        return [event async for event in assistant.respond(history, ToolRunner(InMemoryHome()),
                                                           client_tools=client_tools)]

    call = asyncio.run(respond())[0]
    assert isinstance(call, ToolCallEvent) and not call.local and call.call.name == "set_device", call
    history += [{"role": "assistant", "content": "", "tool_calls": [
                    {"call_id": call.call.call_id, "name": "set_device", "arguments": json.dumps(call.call.arguments)}]},
                {"role": "tool", "call_id": call.call.call_id, "content": "off"}]
    events = asyncio.run(respond())
    assert not any(isinstance(event, ToolCallEvent) for event in events)
    assert events[-1].reply.text == "Okay, the living room TV is off.", events


def test_a_part_a_second_opinion_may_match_alone_is_said_beside_clauses_that_carry_nothing():
    """A template must match a whole sentence: each clause beside others with no thing, number or state of their own
    may be matched alone; a remark's state is its own, and a taking back is left to the checks of the call."""
    assert parts_alone("is the office fan on, i don't want it whirring all night", DEFAULT_HOME) == \
        ["is the office fan on"]
    assert parts_alone("sorry to bother you, is the office fan on", DEFAULT_HOME) == ["is the office fan on"]
    assert parts_alone("turn on the kitchen light, and the bedroom fan", DEFAULT_HOME) == []     # each names a thing
    assert parts_alone("switch the fan off, back in ten minutes", DEFAULT_HOME) == []    # a thing, and a number
    assert parts_alone("turn off the heater, when i leave", DEFAULT_HOME) == []                  # a condition
    assert parts_alone("what's the time", DEFAULT_HOME) == []


@pytest.mark.parametrize("request_, taken", [
    ("start a timer called laundry for an hour, the wash has just gone on",
     ["start a timer called laundry for an hour"]),
    ("switch the fan off, the kids have gone out", ["switch the fan off"]),
    ("turn the fan off, the heater has been on all day", []),          # the home has a heater: its state may be asked
])
def test_a_remark_said_of_its_subject_with_has_or_have(request_, taken):
    """A clause said of something the home does not have, with "has" or "have" ("the wash has just gone on"), is a
    remark as one with "is" or "are" is: its state is its subject's."""
    assert takeable(request_, DEFAULT_HOME) == taken


@pytest.mark.parametrize("request_", [
    "don't switch the bathroom heater off", "please do not turn on the office tv", "no need to turn the kitchen fan on",
    "you don't have to switch the bedroom light off", "we left the living room heater on all afternoon",
    "the office fan is on", "the bathroom light's been on since breakfast", "don't turn it on, we're off out",
])
def test_a_negated_request_or_a_remark_makes_no_call(assistant, request_):
    """Said and negated, or a thing's state remarked on, alone or beside a remark: the shipped model, Home
    Assistant's phrasings and the code's readings would each act on its words; the reply changes nothing."""
    tools = ToolRunner(InMemoryHome())
    before = dict(tools.home.devices)
    reply = respond_sync(assistant, [{"role": "user", "content": request_}], tools)
    assert reply.tool_calls == [] and reply.text == LEFT_AS_IT_IS, reply
    assert tools.home.devices == before


@pytest.mark.parametrize("request_", [
    "why don't you switch the bathroom heater off", "can't you turn the office tv on",
    "don't forget to turn the kitchen fan off", "the office fan is on, switch it off",
    "please switch the bedroom light off",
])
def test_a_request_beside_a_negation_or_a_remark_still_asks(request_):
    """A negation that asks after all ("why don't you", "don't forget to"), and a remark with a request beside it,
    are no request for nothing to be done."""
    assert not negated_or_remarked(request_)


def test_a_state_remarked_is_told_from_a_level_and_from_a_request_run_on():
    assert negated_or_remarked("the samovar's on")
    assert negated_or_remarked("someone must have left the porch light on")
    assert not negated_or_remarked("the heater is on 19")              # a level: the other rules read it
    assert not negated_or_remarked("the samovar's on turn it off")     # a recogniser's run-on request after it
    assert not negated_or_remarked("is the samovar on")                # a question


@pytest.mark.parametrize("request_, state", [
    ("don't leave the bathroom heater on, switch it off", "off"), ("i don't want the office tv on, turn it off", "off"),
    ("don't forget to switch the kitchen fan on", "on"), ("do not forget to turn off the bedroom light", "off"),
])
def test_a_request_after_a_negated_state_or_a_reminder_to_ask_acts_as_asked(assistant, request_, state):
    """The model reads a negated state as the one asked ("don't leave the heater on, ..." switched it on) and
    refuses a request after "don't forget to": each is read as the request alone."""
    reply = respond_sync(assistant, [{"role": "user", "content": request_}], ToolRunner(InMemoryHome()))
    assert [(call.name, call.arguments["state"]) for call in reply.tool_calls] == [("set_device", state)], reply


def test_only_a_pronouns_request_after_a_negated_state_is_read_instead():
    assert asked_after_a_negation("don't leave the office heater on, switch it off", DEFAULT_HOME) == \
        "switch the office heater off"
    assert asked_after_a_negation("don't leave the office heater on", DEFAULT_HOME) is None      # the rules' own
    assert asked_after_a_negation("don't leave the office heater on, it's warm", DEFAULT_HOME) is None
    assert asked_after_a_negation("don't forget to call mum, it's her birthday", DEFAULT_HOME) is None


def test_words_before_a_negation_carry_nothing():
    assert negated_or_remarked("no, don't turn it off") and negated_or_remarked("actually don't open the blind")
    assert not negated_or_remarked("no, turn it off") and not negated_or_remarked("never mind")
