"""Client-declared tools in the embedded model: the slot form code writes and reads, the corpus of invented
tools, and the real checkpoint calling a declared tool only when asked."""
import random

import pytest

from assistant import verb_senses
from assistant.chat_template import model_prompt, reply_target
from assistant.client_tools import FUNCTION_WORDS, MAX_SHOWN, Tool, decode, name_words, request_stems, stem
from assistant.corpus import CANT, gen_generated_tool, generate_corpus
from assistant.generated_tools import NOUNS as GENERATED_NOUNS, VERBS as GENERATED_VERBS
from assistant.embedded import declared_reading, takes_over
from assistant.generator import ToolCall, respond_sync
from assistant.reply import ReplyReader
from assistant.tools import ToolRunner

WEATHER = {"type": "function", "name": "get_weather", "description": "Get the current weather for a city",
           "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}
TABLE = {"type": "function", "function": {
    "name": "bookTable", "description": "Reserve a table at a restaurant",
    "parameters": {"type": "object", "properties": {"restaurant": {"type": "string"},
                                                    "party_size": {"type": "integer"}}, "required": ["restaurant"]}}}
SONG = {"type": "function", "name": "play_song", "description": "Play a song by name",
        "parameters": {"type": "object", "properties": {"song": {"type": "string"}, "artist": {"type": "string"}}}}
SCORE = {"type": "function", "name": "get_score", "description": "The latest score of a sports team",
         "parameters": {"type": "object", "properties": {"team": {"type": "string"}}}}
REMINDER = {"type": "function", "name": "create_reminder", "description": "Remind the user of a task",
            "parameters": {"type": "object", "properties": {"task": {"type": "string"}}}}
MONEY = {"type": "function", "name": "send_money", "description": "Send money to a contact",
         "parameters": {"type": "object", "properties": {"contact": {"type": "string"}, "amount": {"type": "number"}}}}
MESSAGE = {"type": "function", "name": "send_message", "description": "Send a message to a contact",
           "parameters": {"type": "object", "properties": {"contact": {"type": "string"}, "body": {"type": "string"}}}}
FLIGHT = {"type": "function", "name": "lookupFlightStatus", "description": "Look up the status of a flight",
          "parameters": {"type": "object", "properties": {"flight_number": {"type": "string"}}}}
OTHERS = [{"type": "function", "name": name, "description": description}
          for name, description in [("lock_screen", "Lock the phone's screen"), ("get_battery", "Battery level")]]
CORPUS = generate_corpus(3000, seed=11, client_tools_share=0.25)


def user(text: str) -> list[dict]:
    return [{"role": "user", "content": text}]


def test_declared_tools_reach_the_model_as_slots_and_the_request_carries_span_slots():
    prompt, slots = model_prompt(user("What's the weather in New York?"), None, [TABLE, WEATHER])
    assert prompt == "<t0> get weather current city <p0> city<|user|> what's the weather in <s0> new york<|assistant|>"
    assert reply_target({"name": "get_weather", "arguments": {"city": "new york"}}, "{result}", slots) == \
        "<|call|> <t0> <p0>=<s0><|say|> {result}"


def marked(text: str, *tools) -> str:
    prompt, _ = model_prompt(user(text), None, list(tools))
    return prompt.split("<|user|> ")[1].removesuffix("<|assistant|>")


@pytest.mark.parametrize("text, tools, expected", [
    # the tool's words and function words are no run; what stays is a value's candidate
    ("what's the weather like in lisbon", [WEATHER], "what's the weather like in <s0> lisbon"),
    ("is it raining in New York right now", [WEATHER], "is it <s0> raining in <s1> new york right now"),
    # day words are a run of their own, words said around a value none
    ("did the lakers win last night", [SCORE], "did <s0> the <s1> lakers win <s2> last night"),
    # a verb of asking is a run of its own; "my" before a run has its own marker
    ("put a reminder to take my medicine", [REMINDER], "<s0> put a reminder to <s1> take <s2> my <s3> medicine"),
    # numbers are a run of their own ("flight ba 286"), the tool's words none
    ("Book a table for four at the Golden Dragon", [TABLE],
     "book a table for <s0> <n0> at <s1> the <s2> golden dragon"),
    ("pay sam 20 dollars", [MONEY], "<s0> pay <s1> sam <s2> <n0> <s3> dollars"),
    # after "saying" a message may begin with any word
    ("text Marie-Claire that I am late", [MESSAGE], "<s0> text <s1> marie claire that <s2> i am <s3> late"),
])
def test_span_markers_stand_before_runs_of_words_a_value_can_be(text, tools, expected):
    assert marked(text, *tools) == expected


def test_a_value_is_one_run_or_a_range_of_runs_with_or_without_the_word_before_it():
    _, slots = model_prompt(user("Book a table for four at the Golden Dragon"), None, [TABLE])
    assert slots.tools.span_of("the golden dragon") == "<s1><s2>"
    assert slots.tools.span_of("golden dragon") == "<s2>"
    assert slots.tools.span_of("golden") is None         # a part of a run is no value
    _, slots = model_prompt(user("put a reminder to take my medicine"), None, [REMINDER])
    assert slots.tools.span_of("take my medicine") == "<s1><s3>"
    assert slots.tools.span_value("<s1><s3>") == "take my medicine"
    assert slots.tools.span_value("<s3><s1>") is None


def test_only_the_best_matching_tools_are_shown():
    prompt, slots = model_prompt(user("play hotel california"), None, [*OTHERS, WEATHER, TABLE, SONG])
    assert [t.name for t in slots.tools.tools] == ["play_song"]      # the others share no word with it
    assert prompt.startswith("<t0> play song")
    players = [{"type": "function", "name": f"play_{what}"} for what in ["radio", "podcast", "audiobook", "album"]]
    _, slots = model_prompt(user("play the podcast serial"), None, [*players, SONG])
    assert len(slots.tools.tools) == MAX_SHOWN and slots.tools.tools[0].name == "play_podcast"


def test_a_tool_that_shares_no_root_with_the_request_or_its_related_words_is_not_shown():
    plain, _ = model_prompt(user("find me a recipe for banana bread"), None, [])
    prompt, slots = model_prompt(user("find me a recipe for banana bread"), None, [FLIGHT, WEATHER])
    assert prompt == plain and slots.tools is None           # no tool to call: the prompt without declarations
    with pytest.raises(ValueError):                          # nor a training row that calls one
        reply_target({"name": "lookupFlightStatus", "arguments": {"flight_number": "banana bread"}}, "{result}", slots)
    _, slots = model_prompt(user("is it going to rain in lisbon"), None, [FLIGHT, WEATHER])
    assert [t.name for t in slots.tools.tools] == ["get_weather"]     # "rain" is a weather word
    _, slots = model_prompt(user("is flight ba 286 on time"), None, [FLIGHT, WEATHER])
    assert [t.name for t in slots.tools.tools] == ["lookupFlightStatus"]


def read(slots, written: str):
    from assistant.tokenizer import Tokenizer
    from assistant.embedded import EMBEDDED_CHECKPOINT
    tokenizer = Tokenizer.load(EMBEDDED_CHECKPOINT)
    tokenizer.add_slot_tokens(tools=True)
    reader = ReplyReader(tokenizer, tokenizer.eos_id, slots)
    reader.add(tokenizer.encode(written))
    return reader


def test_a_written_call_maps_back_to_the_tool_its_parameters_and_the_words_said():
    _, slots = model_prompt(user("Book a table for four at Luigi's tonight"), None, [WEATHER, TABLE])
    assert (slots.tools.span_value("<s1>"), slots.tools.span_value("<s2>")) == ("luigi's", "tonight")
    reader = read(slots, "<|call|> <t0> <p0>=<s1> <p1>=<n0><|say|> {result}")
    assert (reader.call.name, reader.call.arguments) == ("bookTable", {"restaurant": "Luigi's", "party_size": 4})
    for broken in ["<t2> <p0>=<s1>",              # no third tool is shown
                   "<t0> <p3>=<s1>",              # nor a fourth parameter
                   "<t0> <p0>=<s1> <p0>=<s2>",    # a parameter twice
                   "<t0> <p0>=<s2><s1>",          # a span backwards
                   "<t0> <p1>=<s1>",              # words for a number
                   "<t0> <p0>=<s9>"]:             # a span slot the request does not have
        reader = read(slots, f"<|call|> {broken}<|say|> {{result}}")
        assert reader.call is None and reader.broken, broken
    _, slots = model_prompt(user("book a table at the ivy"), None, [TABLE])
    assert slots.tools.span_value("<s0>") == "the"
    reader = read(slots, "<|call|> <t0> <p0>=<s0><|say|> {result}")
    assert reader.call is None and reader.broken          # "the": words that name nothing


def test_the_corpus_invents_many_tools_and_calls_them_with_spans_of_the_request():
    declared = {t["name"] for e in CORPUS for t in e.declared}
    assert len(declared) > 300
    calls = [e for e in CORPUS if e.skill == "client_tool"]
    assert len(calls) > 300
    for e in calls:
        _, reply = e.texts()                     # raises when a value is no span of the request
        request = e.history[-1]["content"]
        assert all(str(v) in request for v in e.call["arguments"].values() if isinstance(v, str))
        assert reply.startswith("<|call|> <t") and e.text == "{result}"
    refusals = [e for e in CORPUS if e.skill in ("client_tool_near", "client_tool_none")]
    builtin = [e for e in CORPUS if e.declared and e.call and e.skill != "client_tool"]
    assert len(refusals) > 100 and len(builtin) > 40


def test_generated_tools_are_called_when_the_request_says_their_noun_and_refused_for_another_verb_or_noun():
    rng = random.Random(5)
    rows = [gen_generated_tool(rng) for _ in range(600)]
    calls = [e for e in rows if e.call is not None]
    refusals = [e for e in rows if e.call is None]
    assert all(e.skill == "client_tool" for e in calls) and all(e.text == CANT for e in refusals)
    assert 0.4 < len(calls) / len(rows) < 0.6
    for e in calls:
        request = e.history[-1]["content"]
        assert stem(name_words(e.call["name"])[-1]) in request_stems(request), request     # the tool's noun is said
        assert all(str(v) in request for v in e.call["arguments"].values() if isinstance(v, str))
        prompt, reply = e.texts()
        assert prompt.startswith("<t") and reply.startswith("<|call|> <t")
    verbs = {stem(v) for v, _ in GENERATED_VERBS}
    for e in refusals:       # the description says a generated tool's verb first: a name may be its noun alone
        said = request_stems(e.history[-1]["content"])
        for tool in e.declared:
            verb = next((stem(w) for w in name_words(tool["description"]) if stem(w) in verbs), None)
            assert not (verb in said and stem(name_words(tool["name"])[-1]) in said), e.history[-1]["content"]
    near = [e for e in refusals if e.skill == "client_tool_near"]
    assert sum(e.texts()[0].startswith("<t") for e in near) > 0.8 * len(near)    # shown: its noun or verb is said
    words = [v for v, _ in GENERATED_VERBS] + [w for n in GENERATED_NOUNS for w in n.split("_")]
    assert not FUNCTION_WORDS.intersection(words)                    # words the matching ignores would match nothing
    names = {t["name"] for e in rows for t in e.declared}
    assert len(names) > 900 and len(GENERATED_VERBS) >= 200 and len(set(GENERATED_NOUNS)) >= 300


# ---- the decoder by code (no model) ----------------------------------------------------------------------

TAXI = {"type": "function", "name": "book_taxi", "description": "Book a taxi ride.",
        "parameters": {"type": "object", "properties": {
            "destination": {"type": "string", "description": "Where to go"},
            "pickup": {"type": "string", "description": "Pickup address"},
            "ride_type": {"type": "string", "enum": ["standard", "xl", "premium"]}}, "required": ["destination"]}}
CURRENCY = {"type": "function", "name": "convert_currency", "description": "Convert money between currencies.",
            "parameters": {"type": "object", "properties": {
                "amount": {"type": "number"},
                "from_currency": {"type": "string", "enum": ["USD", "EUR", "GBP", "JPY"]},
                "to_currency": {"type": "string", "enum": ["USD", "EUR", "GBP", "JPY"]}},
                "required": ["amount", "from_currency", "to_currency"]}}
WATERING = {"type": "function", "name": "water_zone", "description": "Water one zone of the garden.",
            "parameters": {"type": "object", "properties": {
                "zone": {"type": "string", "description": "Zone name"},
                "minutes": {"type": "integer", "description": "How long to water"}}, "required": ["zone"]}}
GARAGE = {"type": "function", "name": "open_garage_door", "description": "Open the garage door."}


@pytest.mark.parametrize("text, tools, expected", [
    ("What's the weather in Paris?", [SONG, WEATHER], ("get_weather", {"city": "Paris"})),      # as written
    ("will i need an umbrella in oslo tomorrow", [WEATHER], ("get_weather", {"city": "oslo"})),  # a weather word
    ("play hotel california by the eagles", [WEATHER, SONG],
     ("play_song", {"song": "hotel california", "artist": "eagles"})),          # "the" is no part of a value
    ("text sam saying i'm running late", [MESSAGE, MONEY], ("send_message", {"contact": "sam", "body": "i'm running late"})),
    ("book an xl taxi from the station to 4 elm road", [TAXI],
     ("book_taxi", {"destination": "4 elm road", "pickup": "station", "ride_type": "xl"})),
    ("how much is 20 pounds in euros", [CURRENCY],                                     # numbers and enum members
     ("convert_currency", {"amount": 20, "from_currency": "GBP", "to_currency": "EUR"})),
    ("water the rose bed for ten minutes", [WATERING], ("water_zone", {"zone": "rose bed", "minutes": 10})),
    ("open the garage", [GARAGE], ("open_garage_door", {})),
    ("is flight BA 286 on time", [FLIGHT, SCORE], ("lookupFlightStatus", {"flight_number": "BA 286"})),
])
def test_the_decoder_calls_the_tool_asked_for_with_spans_numbers_and_enum_members(text, tools, expected):
    call = decode(tools, text)
    assert (call["name"], call["arguments"]) == expected


@pytest.mark.parametrize("text, tools", [
    ("cancel my taxi", [TAXI]),                       # same domain, another action
    ("book me a flight to rome", [TAXI]),             # the tool's verb, another thing
    ("close the garage door", [GARAGE]),
    ("is the garage door open", [GARAGE]),            # a question, not an ask to act
    ("stop watering the lawn", [WATERING]),
    ("what was the weather like in paris last christmas", [WEATHER]),    # the past, of a tool of now
    ("who sings hotel california", [SONG]),
    ("find me a recipe for banana bread", [FLIGHT, WEATHER]),           # nothing of the tools
    ("remind me to buy milk", [MESSAGE, TAXI]),
    ("how are you today", [WEATHER, SONG]),
])
def test_the_decoder_makes_no_call_for_a_near_miss_or_an_unrelated_request(text, tools):
    assert decode(tools, text) is None


# The reviewer's own declarations (domains of neither held-out set's first one), for the defects the review found
BIKE_LOCK = {"type": "function", "name": "check_bike_lock", "description": "Report whether the smart bike lock is locked."}
COFFEE = {"type": "function", "name": "order_coffee", "description": "Order a coffee from the cafe for pickup.",
          "parameters": {"type": "object", "properties": {
              "drink": {"type": "string"}, "size": {"type": "string", "enum": ["small", "medium", "large"]}},
              "required": ["drink"]}}
CONTACT = {"type": "function", "name": "add_contact", "description": "Save a new contact to the address book.",
           "parameters": {"type": "object", "properties": {"name": {"type": "string", "description": "Contact name"}},
                          "required": ["name"]}}
MEMO = {"type": "function", "name": "record_voice_memo", "description": "Record a voice memo.",
        "parameters": {"type": "object", "properties": {"title": {"type": "string"}}}}
FISH = {"type": "function", "name": "feed_fish", "description": "Drop food into the aquarium feeder."}
HAIRCUT = {"type": "function", "name": "book_haircut", "description": "Book a haircut appointment at the barber.",
           "parameters": {"type": "object", "properties": {"date": {"type": "string"}}}}
LAUNDRY = {"type": "function", "name": "start_laundry", "description": "Start the washing machine.",
           "parameters": {"type": "object", "properties": {"cycle": {"type": "string", "enum": ["cotton", "quick"]}}}}
AUDIOBOOK = {"type": "function", "name": "play_audiobook", "description": "Play an audiobook from the user's library.",
             "parameters": {"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"]}}
LIBRARY = {"type": "function", "name": "renew_library_book", "description": "Renew a borrowed library book.",
           "parameters": {"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"]}}
PLAYLIST = {"type": "function", "name": "create_playlist", "description": "Create a new music playlist.",
            "parameters": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}}
MEDICATION = {"type": "function", "name": "log_medication", "description": "Record that the user took a medication.",
              "parameters": {"type": "object", "properties": {"medication": {"type": "string"}}, "required": ["medication"]}}
WATER_INTAKE = {"type": "function", "name": "log_water_intake", "description": "Log glasses of water the user drank.",
                "parameters": {"type": "object", "properties": {"glasses": {"type": "integer"}}, "required": ["glasses"]}}
EXPENSE = {"type": "function", "name": "add_expense", "description": "Record an expense in the budget app.",
           "parameters": {"type": "object", "properties": {"amount": {"type": "number"}, "category": {"type": "string"}},
                          "required": ["amount"]}}
VACUUM = {"type": "function", "name": "start_vacuum", "description": "Start the robot vacuum cleaner in a room.",
          "parameters": {"type": "object", "properties": {"room": {"type": "string", "description": "Room to clean"}}}}
NAVIGATION = {"type": "function", "name": "start_navigation", "description": "Start turn-by-turn directions.",
              "parameters": {"type": "object", "properties": {"destination": {"type": "string"}}, "required": ["destination"]}}


@pytest.mark.parametrize("text, tools", [
    ("lock my bike", [BIKE_LOCK]),                     # a verb of doing to a tool that tells, its own word or not
    ("order a pizza", [COFFEE]),                       # the tool's verb alone, of an action of many things
    ("record the football game tonight", [MEMO]),
    ("remind me to call the dentist", [CONTACT]),      # "call" after "to" is an action, not the contacts' kind
    ("my fish are so cute", [FISH]),                   # no verb and no word of wanting: a remark
    ("i had a haircut last week", [HAIRCUT]),
    ("start the washing machine in 20 minutes", [LAUNDRY]),     # later, and the tool takes no time: it would act now
])
def test_the_decoder_makes_no_call_for_what_the_review_found_it_called(text, tools):
    assert decode(tools, text) is None


@pytest.mark.parametrize("text, tools, expected", [
    # a title as typed keeps its first word and the words inside it
    ("play Here Comes the Sun audiobook", [AUDIOBOOK], ("play_audiobook", {"title": "Here Comes the Sun"})),
    ("play the audiobook The Name of the Wind", [AUDIOBOOK], ("play_audiobook", {"title": "The Name of the Wind"})),
    ("renew the book It Ends with Us", [LIBRARY], ("renew_library_book", {"title": "It Ends with Us"})),
    ("create a playlist called For the Win", [PLAYLIST], ("create_playlist", {"name": "For the Win"})),
    ("trains from Leeds to York", [{"type": "function", "name": "get_train_times", "description": "Next trains.",
                                   "parameters": {"type": "object", "properties": {
                                       "from_station": {"type": "string"}, "to_station": {"type": "string"}}}}],
     ("get_train_times", {"from_station": "Leeds", "to_station": "York"})),      # "to" between names still parts them
    # openers are no part of a value
    ("i'm craving a mocha, order one from the cafe", [COFFEE], ("order_coffee", {"drink": "mocha"})),
    ("log that i took my ibuprofen", [MEDICATION], ("log_medication", {"medication": "ibuprofen"})),
    # a name after "called" or "named"; a currency after the amount; a room is a place
    ("make a new playlist named chill vibes", [PLAYLIST], ("create_playlist", {"name": "chill vibes"})),
    ("add an expense of 12 dollars for lunch", [EXPENSE], ("add_expense", {"amount": 12, "category": "lunch"})),
    ("start the robot vacuum in the kitchen", [VACUUM], ("start_vacuum", {"room": "kitchen"})),
    # a verb of the tool's own that no table holds; a statement of what was done, to a tool that records it
    ("navigate to the Louvre", [NAVIGATION], ("start_navigation", {"destination": "Louvre"})),
    ("i drank 3 glasses of water", [WATER_INTAKE], ("log_water_intake", {"glasses": 3})),
    ("so yeah, renew The Hobbit for me, it's due tomorrow", [LIBRARY], ("renew_library_book", {"title": "The Hobbit"})),
])
def test_the_decoder_reads_the_values_the_review_found_it_misread(text, tools, expected):
    call = decode(tools, text)
    assert call is not None and (call["name"], call["arguments"]) == expected


# tools2's own declarations, for what its probes found
OVEN = {"type": "function", "name": "preheat_oven", "description": "Preheat the smart oven to a temperature.",
        "parameters": {"type": "object", "properties": {
            "temperature": {"type": "number", "description": "Target temperature in degrees, e.g. 180"}},
            "required": ["temperature"]}}
CLOCK_IN = {"type": "function", "name": "clock_in", "description": "Clock the user in for their work shift."}
CLOCK_OUT = {"type": "function", "name": "clock_out", "description": "Clock the user out at the end of their shift."}
CONCERT = {"type": "function", "name": "buy_concert_tickets", "description": "Buy tickets for a concert.",
           "parameters": {"type": "object", "properties": {
               "artist": {"type": "string", "description": "Performer"}, "quantity": {"type": "integer"}},
               "required": ["artist"]}}
WATCHLIST = {"type": "function", "name": "add_to_watchlist", "description": "Add a movie or show to the user's watchlist.",
             "parameters": {"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"]}}


@pytest.mark.parametrize("text, tools, expected", [
    # a remark before the request: the verb starts a later clause, and a value after it comes first
    ("ugh what a day, preheat the oven to 180", [OVEN], ("preheat_oven", {"temperature": 180})),
    ("great concert last year, buy 3 tickets for Adele", [CONCERT],
     ("buy_concert_tickets", {"artist": "Adele", "quantity": 3})),
    ("before i forget, add Dune to my watchlist", [WATCHLIST], ("add_to_watchlist", {"title": "Dune"})),
])
def test_a_remark_before_the_request_is_no_part_of_it(text, tools, expected):
    call = decode(tools, text)
    assert call is not None and (call["name"], call["arguments"]) == expected


GYM = {"type": "function", "name": "check_gym_occupancy", "description": "How busy the gym is right now."}
MUSEUM = {"type": "function", "name": "get_museum_hours", "description": "Opening hours of a museum.",
          "parameters": {"type": "object", "properties": {"museum": {"type": "string"}}, "required": ["museum"]}}
POTHOLE = {"type": "function", "name": "report_pothole", "description": "Report a pothole to the city.",
           "parameters": {"type": "object", "properties": {"street": {"type": "string"}}, "required": ["street"]}}
DIAPER = {"type": "function", "name": "log_diaper_change", "description": "Log a diaper change for the baby tracker."}


@pytest.mark.parametrize("text, tools", [
    ("the gym was packed yesterday", [GYM]),           # how things are: no ask to be told, nor to record it
    ("the museum was amazing", [MUSEUM]),
    ("i hate potholes", [POTHOLE]),                    # one's own remark, to a tool that tells
    ("my baby is so cute", [DIAPER]),
])
def test_a_statement_with_no_verb_of_asking_is_a_remark(text, tools):
    assert decode(tools, text) is None


def test_a_statement_before_a_question_or_of_what_was_done_still_asks():
    assert decode([GYM], "is the gym busy right now") == {"name": "check_gym_occupancy", "arguments": {}}
    assert decode([DIAPER], "the baby had a dirty diaper") == {"name": "log_diaper_change", "arguments": {}}
    assert decode([MUSEUM], "i'm in Paris, when does the Louvre open") == \
        {"name": "get_museum_hours", "arguments": {"museum": "Louvre"}}


FREEZE_CARD = {"type": "function", "name": "freeze_card", "description": "Freeze the user's bank card, e.g. when it is lost.",
               "parameters": {"type": "object", "properties": {"card": {"type": "string", "enum": ["debit", "credit"]}}}}
ROUTER = {"type": "function", "name": "restart_router", "description": "Reboot the home wifi router."}
PARKING = {"type": "function", "name": "pay_parking", "description": "Pay for street parking in a zone.",
           "parameters": {"type": "object", "properties": {
               "zone": {"type": "string", "description": "Parking zone number, e.g. 4021"},
               "hours": {"type": "number", "description": "How many hours"}}, "required": ["zone"]}}
BILL = {"type": "function", "name": "pay_bill", "description": "Pay a utility bill from the user's account.",
        "parameters": {"type": "object", "properties": {
            "biller": {"type": "string", "description": "Who to pay, e.g. 'electric company', 'water'"},
            "amount": {"type": "number", "description": "Amount in dollars"}}, "required": ["biller"]}}
SPLIT = {"type": "function", "name": "split_bill", "description": "Split a bill with friends.",
         "parameters": {"type": "object", "properties": {"amount": {"type": "number"}, "people": {"type": "integer"}},
                        "required": ["amount", "people"]}}


@pytest.mark.parametrize("text, tools", [
    ("freeze the chicken", [FREEZE_CARD]),             # the tool's own verb, another thing
    ("restart my laptop", [ROUTER]),
    ("restart the router in an hour", [ROUTER]),       # later, and the tool takes no time
])
def test_the_tools_own_verb_is_the_requests_verb_not_a_thing_it_acts_on(text, tools):
    assert decode(tools, text) is None


@pytest.mark.parametrize("text, tools, expected", [
    ("freeze my credit card", [FREEZE_CARD], ("freeze_card", {"card": "credit"})),
    ("reboot the wifi", [ROUTER], ("restart_router", {})),
    ("pay for parking in zone 4021", [BILL, PARKING], ("pay_parking", {"zone": "4021"})),    # a number that names
    ("split 90 dollars between 3 people", [SPLIT], ("split_bill", {"amount": 90, "people": 3})),
    ("clock me out", [CLOCK_IN, CLOCK_OUT], ("clock_out", {})),                  # the tool whose name is said
    ("i'm exhausted, clock me in", [CLOCK_OUT, CLOCK_IN], ("clock_in", {})),
])
def test_a_tool_asked_by_its_own_verb_is_called(text, tools, expected):
    call = decode(tools, text)
    assert call is not None and (call["name"], call["arguments"]) == expected


SCOOTER = {"type": "function", "name": "unlockScooter", "description": "Unlock a rental e-scooter by its code.",
           "parameters": {"type": "object", "properties": {
               "code": {"type": "string", "description": "The scooter's code, e.g. 'XK42'"}}, "required": ["code"]}}


def test_a_value_has_digits_where_its_parameters_example_has_them():
    assert decode([SCOOTER], "unlock scooter XK42") == {"name": "unlockScooter", "arguments": {"code": "XK42"}}
    assert decode([SCOOTER], "unlock the front door") is None
    assert decode([PARKING], "pay my friend Tom 20 dollars") is None


WINE = {"type": "function", "name": "get_wine_pairing", "description": "Suggest a wine to go with a dish.",
        "parameters": {"type": "object", "properties": {
            "dish": {"type": "string", "description": "The dish, e.g. 'roast lamb'"}}, "required": ["dish"]}}


@pytest.mark.parametrize("text, tools, expected", [
    # of runs that fit alike, one after a word before a value or after the verb, not the words a question starts with
    ("what wine goes with roast lamb", [WINE], ("get_wine_pairing", {"dish": "roast lamb"})),
    ("suggest a wine for salmon", [WINE], ("get_wine_pairing", {"dish": "salmon"})),
    ("what are the opening hours of the Tate Modern", [MUSEUM], ("get_museum_hours", {"museum": "Tate Modern"})),
])
def test_a_value_is_a_run_after_a_cue_before_the_words_a_question_starts_with(text, tools, expected):
    call = decode(tools, text)
    assert call is not None and (call["name"], call["arguments"]) == expected


POOL = {"type": "function", "name": "check_pool_temperature", "description": "Read the water temperature of the pool."}
SKI = {"type": "function", "name": "get_ski_conditions", "description": "Get snow depth and lift status at a ski resort.",
       "parameters": {"type": "object", "properties": {"resort": {"type": "string"}}, "required": ["resort"]}}


def test_an_unknown_first_word_of_none_of_a_telling_tools_words_is_no_ask_to_be_told():
    assert decode([POOL], "fill the pool") is None                  # a verb of doing no table holds
    assert decode([WINE], "red wine gives me a headache") is None
    assert decode([SKI], "ski conditions in Zermatt") == {"name": "get_ski_conditions", "arguments": {"resort": "Zermatt"}}


def test_the_end_of_a_range_of_days_fills_the_second_day_parameter():
    time_off = {"type": "function", "name": "request_time_off", "description": "Submit a vacation request to HR.",
                "parameters": {"type": "object", "properties": {
                    "start_date": {"type": "string", "description": "First day off"},
                    "end_date": {"type": "string", "description": "Last day off"}}, "required": ["start_date"]}}
    assert decode([time_off], "request time off from monday until next wednesday") == {
        "name": "request_time_off", "arguments": {"start_date": "monday", "end_date": "next wednesday"}}
    assert decode([time_off], "request time off on friday") == {
        "name": "request_time_off", "arguments": {"start_date": "friday"}}


def test_give_me_asks_for_a_thing_of_any_tool():
    assert decode([NAVIGATION], "give me directions to 10 Downing Street") == {
        "name": "start_navigation", "arguments": {"destination": "10 Downing Street"}}
    assert decode([NAVIGATION], "give me a break") is None


MEAL = {"type": "function", "name": "log_meal", "description": "Record a meal the user ate in the nutrition diary.",
        "parameters": {"type": "object", "properties": {
            "food": {"type": "string", "description": "What was eaten, e.g. 'chicken salad'"},
            "meal": {"type": "string", "enum": ["breakfast", "lunch", "dinner", "snack"]}}, "required": ["food"]}}
BED = {"type": "function", "name": "adjustBedFirmness", "description": "Adjusts the firmness of the smart mattress.",
       "parameters": {"type": "object", "properties": {"firmness": {"type": "string", "enum": ["soft", "firm"]}},
                      "required": ["firmness"]}}


def test_a_member_of_a_tools_enum_is_a_thing_of_the_tool_and_a_description_in_the_third_person_says_its_verb():
    assert decode([MEAL], "log a chicken salad for lunch") == {
        "name": "log_meal", "arguments": {"food": "chicken salad", "meal": "lunch"}}
    assert decode([MEAL], "log a chicken salad") is None          # the verb alone, of an action of many things
    assert decode([BED], "adjust the bed to firm") == {"name": "adjustBedFirmness", "arguments": {"firmness": "firm"}}
    assert decode([BED], "is the bed firm") is None               # a question to a tool that acts


def test_a_number_after_at_is_a_time_only_when_it_can_be_an_hour():
    metronome = {"type": "function", "name": "start_metronome", "description": "Start a metronome at a tempo.",
                 "parameters": {"type": "object", "properties": {"bpm": {"type": "integer", "description": "Beats per minute"}},
                                "required": ["bpm"]}}
    assert decode([metronome], "start the metronome at 120") == {"name": "start_metronome", "arguments": {"bpm": 120}}
    assert decode([metronome], "start the metronome at 7") is None      # later, and the tool takes no time


def test_feeling_is_an_opener_no_part_of_a_value():
    mood = {"type": "function", "name": "log_mood", "description": "Record the user's current mood in their journal.",
            "parameters": {"type": "object", "properties": {"mood": {"type": "string"}}, "required": ["mood"]}}
    assert decode([mood], "i'm feeling happy today, put that in my journal") == {
        "name": "log_mood", "arguments": {"mood": "happy"}}


def test_some_after_the_tools_verb_alone_says_a_kind_of_thing_not_a_title():
    assert decode([AUDIOBOOK], "play some jazz") is None
    assert decode([AUDIOBOOK], "play The Hobbit") == {"name": "play_audiobook", "arguments": {"title": "The Hobbit"}}
    assert decode([AUDIOBOOK], "play some of The Hobbit audiobook") is not None     # the tool's thing said


def test_a_tool_whose_required_value_is_not_said_is_not_called():
    assert decode([WEATHER], "what's the weather like") is None
    assert decode([CURRENCY], "convert 20 pounds") is None          # no currency to convert to


def test_tools_are_read_as_the_description_says():
    tool = Tool.read(TAXI)
    assert tool.action == "book" and [p.kind for p in tool.parameters] == ["place", "place", "thing"]
    assert Tool.read({"name": "next_bus", "description": "Get the next bus departures"}).tells()


# ---- the real checkpoint ----------------------------------------------------------------------------------

def test_a_checkpoint_trained_without_tool_slots_is_not_shown_declarations(assistant):
    """The shipped checkpoint predates the tool slots: declarations stay out of its prompt, and the request it
    refuses is read by code: the declared tool it asks for is called with the words said."""
    if assistant.reads_tools:
        pytest.skip("the checkpoint reads declared tools")
    with_tools, _ = assistant.prompt_ids(user("what's the weather in Paris"), None, {"get_weather": WEATHER})
    assert with_tools == assistant.prompt_ids(user("what's the weather in Paris"))[0]
    calls, text = declared_calls(assistant, "what's the weather in Paris", WEATHER, SONG)
    assert calls == [("get_weather", {"city": "Paris"})] and text == ""


def declared_calls(assistant, text: str, *tools):
    declared = {t.get("function", t)["name"]: t for t in tools}
    reply = respond_sync(assistant, user(text), ToolRunner(), client_tools=declared)
    return [(c.name, c.arguments) for c in reply.tool_calls], reply.text


@pytest.mark.parametrize("text, expected", [
    ("what's the weather in Paris", ("get_weather", {"city": "Paris"})),
    ("is it going to rain in tokyo", ("get_weather", {"city": "tokyo"})),
    ("play hotel california", ("play_song", {"song": "hotel california"})),
])
def test_a_declared_tool_is_called_with_the_words_said(assistant, text, expected):
    calls, _ = declared_calls(assistant, text, WEATHER, TABLE, SONG)
    assert calls == [expected]


def test_a_request_no_declared_tool_serves_gets_an_honest_refusal(assistant):
    calls, text = declared_calls(assistant, "order a pizza", WEATHER, SONG)
    assert calls == [] and "can't" in text


def test_the_client_output_of_a_call_made_by_code_is_the_reply(assistant):
    history = [*user("what's the weather in Paris"),
               {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "function", "function": {
                   "name": "get_weather", "arguments": '{"city": "Paris"}'}}]},
               {"role": "tool", "tool_call_id": "c1", "content": '{"forecast": "light rain, 14 degrees"}'}]
    reply = respond_sync(assistant, history, ToolRunner(), client_tools={"get_weather": WEATHER})
    assert reply.tool_calls == [] and "light rain, 14 degrees" in reply.text


def test_built_in_skills_keep_working_with_tools_declared(assistant):
    calls, _ = declared_calls(assistant, "turn on the kitchen light", WEATHER, SONG)
    assert calls == [("set_device", {"device": "light", "room": "kitchen", "state": "on"})]


WORKOUT = {"type": "function", "name": "log_workout", "description": "Record a completed workout in the fitness log.",
           "parameters": {"type": "object", "properties": {"activity": {"type": "string"}, "minutes": {"type": "integer"}},
                          "required": ["activity"]}}
CAR_CLIMATE = {"type": "function", "name": "startCarClimate", "description": "Start the car's heating before a trip.",
               "parameters": {"type": "object", "properties": {"temperature": {"type": "number"}}}}


@pytest.mark.parametrize("text, expected", [
    ("log a 30 minute run", ("log_workout", {"activity": "run", "minutes": 30})),     # the model's reading: a timer
    ("warm up the car to 22 degrees", ("startCarClimate", {"temperature": 22})),        # the model's: the thermostat
])
def test_a_declared_tool_whose_action_and_thing_are_said_takes_over_a_built_in_reading(assistant, text, expected):
    calls, text = declared_calls(assistant, text, WORKOUT, CAR_CLIMATE)
    assert calls == [expected] and text == ""


@pytest.mark.parametrize("text, expected", [
    ("set a timer for 30 minutes", "set_timer"),              # the skill's own thing is said
    ("set the thermostat to 22 degrees", "set_thermostat"),
    ("turn on the kitchen light", "set_device"),              # a thing of the home
    ("start heating the house to 21 degrees", "set_thermostat"),      # heating, but not the car's
])
def test_a_built_in_reading_stays_unless_the_tools_action_and_its_named_thing_are_said(assistant, text, expected):
    calls, _ = declared_calls(assistant, text, WORKOUT, CAR_CLIMATE)
    assert [name for name, _ in calls] == [expected]


# round 32: a value said is for the reading that takes it (embedded.takes_over, client_tools.words_read)
TRACK_FLIGHT = {"type": "function", "name": "trackFlight", "description": "Live status of a flight.",
                "parameters": {"type": "object", "properties": {
                    "flight": {"type": "string", "description": "Flight code"}}, "required": ["flight"]}}
SUNRISE_LAMP = {"type": "function", "name": "sunriseAlarmLamp",
                "description": "Schedule the bedside lamp to brighten before you wake.",
                "parameters": {"type": "object", "properties": {"wake_time": {"type": "string"},
                                                                "fade_minutes": {"type": "integer"}},
                               "required": ["wake_time"]}}
WORKOUT_TIMER = {"type": "function", "name": "start_workout_timer", "description": "Start a workout timer.",
                 "parameters": {"type": "object", "properties": {"minutes": {"type": "integer"}},
                                "required": ["minutes"]}}


@pytest.mark.parametrize("text, skill, expected", [
    ("flight LH 2034, is it on time", ToolCall("get_time", {}, "c1"), True),        # the time reads no code said
    ("start a 10 minute timer", ToolCall("set_timer", {"seconds": 600}, "c1"), False),    # both read the number
    ("set a timer for 30 minutes", ToolCall("set_timer", {"seconds": 1800}, "c1"), False),   # "timer": the skill's name
    ("what time is it", ToolCall("get_time", {}, "c1"), False),                     # no tool's call is read
    ("set an alarm for six tomorrow morning",                                      # the alarm takes the six
     ToolCall("set_alarm", {"hour": 6, "minute": 0, "period": "am"}, "c1"), False),
])
def test_a_value_the_skills_call_leaves_unread_gives_the_request_to_the_tool_that_reads_it(text, skill, expected):
    declared = declared_reading(user(text), {"trackFlight": TRACK_FLIGHT, "start_workout_timer": WORKOUT_TIMER,
                                             "log_workout": WORKOUT, "sunriseAlarmLamp": SUNRISE_LAMP})
    assert takes_over(declared, skill, text) is expected


@pytest.mark.parametrize("text, expected", [
    ("my dad is on flight AF 990, is it on time", [("trackFlight", {"flight": "AF 990"})]),   # the model: the time
    ("flight LH 2034, is it on time", [("trackFlight", {"flight": "LH 2034"})]),
    ("set a timer for 10 minutes", [("set_timer", {"seconds": 600})]),
    ("what time is it", [("get_time", {})]),
])
def test_the_model_and_the_decoder_disagreeing_the_reading_of_the_value_said_answers(assistant, text, expected):
    calls, _ = declared_calls(assistant, text, TRACK_FLIGHT, WORKOUT_TIMER)
    assert calls == expected


def test_the_client_output_of_a_call_that_took_over_is_the_reply(assistant):
    history = [*user("log a 30 minute run"),
               {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "function", "function": {
                   "name": "log_workout", "arguments": '{"activity": "run", "minutes": 30}'}}]},
               {"role": "tool", "tool_call_id": "c1", "content": "Logged: 30 minutes of running."}]
    reply = respond_sync(assistant, history, ToolRunner(), client_tools={"log_workout": WORKOUT})
    assert reply.tool_calls == [] and reply.text == "Logged: 30 minutes of running."


# round 27: what a schema types, read whatever the words around it (tools no set declares)
PRESSURE = {"type": "function", "name": "log_pressure_reading", "description": "Log a blood pressure reading.",
            "parameters": {"type": "object", "properties": {
                "systolic": {"type": "integer", "description": "Top number"},
                "diastolic": {"type": "integer", "description": "Bottom number"},
                "pulse": {"type": "integer", "description": "Beats per minute"}},
                "required": ["systolic", "diastolic"]}}
GATE = {"type": "function", "name": "flight_gate_info", "description": "The gate and boarding status of a flight.",
         "parameters": {"type": "object", "properties": {
             "flight": {"type": "string", "description": "Flight code, e.g. AF1280"}}, "required": ["flight"]}}
BIN_RULES = {"type": "function", "name": "check_bin_rules",
             "description": "Say whether an item can go in the recycling bin.",
             "parameters": {"type": "object", "properties": {"item": {"type": "string", "description": "The item"}},
                            "required": ["item"]}}


@pytest.mark.parametrize("text, tools, expected", [
    # as many numbers as required number parameters, none named: in the schema's order
    ("log a pressure reading of 140 over 90", [PRESSURE], ("log_pressure_reading", {"systolic": 140, "diastolic": 90})),
    # a parameter's name right before its number, in its own clause ("76, pulse 64": pulse is no unit of 76)
    ("blood pressure 118 over 76, pulse 64", [PRESSURE],
     ("log_pressure_reading", {"systolic": 118, "diastolic": 76, "pulse": 64})),
    ("log a pressure reading of 131 over 87 with a pulse of 70", [PRESSURE],
     ("log_pressure_reading", {"systolic": 131, "diastolic": 87, "pulse": 70})),
    # a code in a question is a value, though the rest of its run is the tool's own words
    ("is AF1280 boarding yet, which gate", [GATE], ("flight_gate_info", {"flight": "AF1280"})),
    # a question's subject ends before its verb
    ("can an old sofa go in the recycling bin", [BIN_RULES], ("check_bin_rules", {"item": "old sofa"})),
    ("could a broken kettle go in the recycling", [BIN_RULES], ("check_bin_rules", {"item": "broken kettle"})),
])
def test_the_decoder_reads_values_by_what_the_schema_types(text, tools, expected):
    call = decode(tools, text)
    assert call is not None and (call["name"], call["arguments"]) == expected


@pytest.mark.parametrize("text, expected", [
    ("my pressure reading came out at one forty two over eighty eight", {"systolic": 142, "diastolic": 88}),
    ("log a pressure reading, one twenty over seventy five", {"systolic": 120, "diastolic": 75}),
])
def test_a_reading_said_as_a_digit_and_tens_is_hundreds(text, expected):
    call = decode([PRESSURE], text)
    assert call is not None and call["arguments"] == expected


# round 27 (tools2): a request with no verb names the thing it asks for (tools no set declares)
KILN = {"type": "function", "name": "start_kiln_firing", "description": "Start a firing of the pottery kiln.",
        "parameters": {"type": "object", "properties": {
            "temperature": {"type": "integer", "description": "Peak temperature in celsius"}},
            "required": ["temperature"]}}
SKIP = {"type": "function", "name": "hire_skip", "description": "Hire a skip for garden or building waste.",
        "parameters": {"type": "object", "properties": {
            "size": {"type": "string", "enum": ["mini", "midi", "builders"], "description": "Skip size"}},
            "required": ["size"]}}
SKIP_COLLECTION = {"type": "function", "name": "check_skip_collection",
                   "description": "Say when the hired skip is collected.",
                   "parameters": {"type": "object", "properties": {}}}


@pytest.mark.parametrize("word, expected", [("class", True), ("tickets", True), ("quick", True), ("bisque", True),
                                            ("photograph", False), ("arrange", False), ("delay", False)])
def test_a_word_wordnet_tags_more_as_a_thing_than_as_an_action(word, expected):
    assert verb_senses.thing_more_than_action(word) is expected


@pytest.mark.parametrize("text, tools, expected", [
    ("bisque kiln firing to 1000 degrees", [KILN], ("start_kiln_firing", {"temperature": 1000})),
    ("another midi skip", [SKIP], ("hire_skip", {"size": "midi"})),
])
def test_a_request_with_no_verb_asks_for_the_tool_its_phrase_names(text, tools, expected):
    call = decode(tools, text)
    assert call is not None and (call["name"], call["arguments"]) == expected


@pytest.mark.parametrize("text, tools", [
    ("another midi skip", [SKIP, SKIP_COLLECTION]),                   # another declared tool acts on the skip
    ("photograph the midi skip", [SKIP]),                              # a verb: another action, maybe
    ("unhire the midi skip", [SKIP]),                                  # the tool's own verb behind a prefix
    ("I emptied the midi skip", [SKIP]),                               # what was done
])
def test_a_phrase_naming_the_tools_thing_asks_nothing_after_a_verb_nor_of_two_tools(text, tools):
    assert decode(tools, text) is None


# round 29 (tools): a verb of many things said with the schema's values; a verb WordNet derives from the tool's name
BAKERY = {"type": "function", "name": "order_from_bakery", "description": "Order baked goods for collection.",
          "parameters": {"type": "object", "properties": {
              "item": {"type": "string", "description": "What to order"},
              "bakery": {"type": "string", "description": "Bakery to collect from"},
              "count": {"type": "integer", "description": "How many"}},
              "required": ["item", "bakery"]}}
FERRY = {"type": "function", "name": "book_ferry_crossing", "description": "Book a ferry crossing.",
         "parameters": {"type": "object", "properties": {
             "departure": {"type": "string", "description": "Port sailing from"},
             "arrival": {"type": "string", "description": "Port sailing to"},
             "date": {"type": "string", "description": "Day of travel"}},
             "required": ["departure", "arrival", "date"]}}
TUNING = {"type": "function", "name": "book_piano_tuning", "description": "Have a technician come round.",
          "parameters": {"type": "object", "properties": {
              "room": {"type": "string", "description": "Room the piano is in"},
              "day": {"type": "string", "description": "Day of the visit"}},
              "required": ["room"]}}
PARTY_SONG = {"type": "function", "name": "queue_party_song", "description": "Put a track on the party playlist.",
        "parameters": {"type": "object", "properties": {"title": {"type": "string", "description": "Track title"}},
                       "required": ["title"]}}


@pytest.mark.parametrize("text, tools, expected", [
    # the verb's object is what the declaration says the tool's verb acts on ("What to order")
    ("order three sourdough loaves from Crumbs", [BAKERY],
     ("order_from_bakery", {"item": "sourdough loaves", "bakery": "Crumbs", "count": 3})),
    # a verb WordNet derives "tuning" from, in its own form
    ("tune the piano in the study", [TUNING], ("book_piano_tuning", {"room": "study"})),
    ("sing Wonderwall", [PARTY_SONG], ("queue_party_song", {"title": "Wonderwall"})),
])
def test_a_verb_of_many_things_or_one_the_tools_name_derives_from_asks_for_it(text, tools, expected):
    call = decode(tools, text)
    assert call is not None and (call["name"], call["arguments"]) == expected


@pytest.mark.parametrize("text, tools", [
    ("order a sourdough loaf", [BAKERY]),                      # one value: the verb alone says little
    ("book a flight to Oslo on Friday", [FERRY]),              # the object read as a port no verb acts on
    ("singing lessons near me", [PARTY_SONG]),                       # no verb as ordered: a thing named
])
def test_a_verb_of_many_things_without_the_schema_or_a_thing_named_asks_nothing(text, tools):
    assert decode(tools, text) is None


@pytest.mark.parametrize("verb, noun", [("sing", "song"), ("water", "watering"), ("print", "printer")])
def test_wordnet_derives_nouns_from_verbs(verb, noun):
    assert noun in verb_senses.derived(verb)


def test_a_word_wordnet_has_as_no_verb_derives_nothing():
    assert verb_senses.derived("kitchen") == frozenset()


COACH = {"type": "function", "name": "book_coach_seat", "description": "Book a seat on an intercity coach.",
         "parameters": {"type": "object", "properties": {
             "origin": {"type": "string", "description": "Departure town"},
             "destination": {"type": "string", "description": "Arrival town"}},
             "required": ["origin", "destination"]}}
RELAY = {"type": "function", "name": "forward_voicemail", "description": "Pass a voicemail on to someone else.",
         "parameters": {"type": "object", "properties": {
             "source_mailbox": {"type": "string", "description": "Mailbox the message is in"},
             "recipient": {"type": "string", "description": "Who gets it"}},
             "required": ["source_mailbox", "recipient"]}}


@pytest.mark.parametrize("text, tools, expected", [
    # "to" says the goal: the source takes the run said without a cue, or after "out of"
    ("book a coach seat, Leeds to York Minster", [COACH], ("book_coach_seat", {"origin": "Leeds", "destination": "York Minster"})),
    ("get me on a coach out of Leeds to York", [COACH], ("book_coach_seat", {"origin": "Leeds", "destination": "York"})),
    ("forward the voicemail in the office mailbox to Ingrid", [RELAY],
     ("forward_voicemail", {"source_mailbox": "office", "recipient": "Ingrid"})),
    # "from" still says the source, and "to" then the goal
    ("book a coach seat from York to Leeds", [COACH], ("book_coach_seat", {"origin": "York", "destination": "Leeds"})),
])
def test_to_says_the_goal_never_the_source(text, tools, expected):
    call = decode(tools, text)
    assert call is not None and (call["name"], call["arguments"]) == expected
