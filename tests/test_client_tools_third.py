"""The decoder's rules written from the third held-out client-tools set's misses (a development set since): each
rule on declarations of its own, so that a rule is pinned apart from the set that prompted it."""
import pytest

from assistant.client_tools import decode
from assistant.generator import respond_sync
from assistant.tools import ToolRunner

DOORBELL = {"type": "function", "name": "doorbell_log", "description": "List what the video doorbell recorded.",
            "parameters": {"type": "object", "properties": {
                "kind": {"type": "string", "enum": ["ring", "motion", "parcel"]},
                "since": {"type": "string", "description": "Start of the period, as said"}}}}
GALLERY = {"type": "function", "name": "search_gallery", "description": "Search the user's photo library.",
           "parameters": {"type": "object", "properties": {"query": {"type": "string"}, "year": {"type": "integer"}},
                          "required": ["query"]}}
ALBUM = {"type": "function", "name": "createAlbum", "description": "Create a new photo album.",
         "parameters": {"type": "object", "properties": {"album_name": {"type": "string"}}, "required": ["album_name"]}}
NEXT_BIN = {"type": "function", "name": "next_bin_day", "description": "The next collection day for a bin.",
            "parameters": {"type": "object", "properties": {"bin": {"type": "string", "enum": ["paper", "glass"]}},
                           "required": ["bin"]}}
PRESENCE = {"type": "function", "name": "set_presence", "description": "Set the user's chat presence.",
            "parameters": {"type": "object", "properties": {"status": {"type": "string", "enum": ["busy", "away"]}},
                           "required": ["status"]}}
FLASHCARDS = {"type": "function", "name": "reviewFlashcards", "description": "Start a vocabulary session.",
              "parameters": {"type": "object", "properties": {"language": {"type": "string"},
                                                              "words": {"type": "integer"}}, "required": ["language"]}}
WASH = {"type": "function", "name": "book_wash", "description": "Book a slot at the car wash.",
        "parameters": {"type": "object", "properties": {"program": {"type": "string", "enum": ["basic", "deluxe"]},
                                                        "time": {"type": "string"}}, "required": ["time"]}}
QUEUE_CLEAR = {"type": "function", "name": "clear_up_next", "description": "Remove every episode from Up Next."}


def reading(tools: list[dict], text: str) -> tuple[str, dict] | None:
    """The decoder's call for the request as (name, arguments), None for no call."""
    call = decode(tools, text)
    return call and (call["name"], call["arguments"])


@pytest.mark.parametrize("text, tools, expected", [
    # a time parameter by its description ("start of the period"); a clock time as "10pm"
    ("did a parcel come today", [DOORBELL], ("doorbell_log", {"kind": "parcel", "since": "today"})),
    ("any motion at the gate since 10pm", [DOORBELL], ("doorbell_log", {"kind": "motion", "since": "10pm"})),
    ("book a deluxe wash for 4pm", [WASH], ("book_wash", {"program": "deluxe", "time": "4pm"})),
    # words of the same kind: "pictures" are photos, "quiz" a vocabulary session
    ("find pictures of Rex from 2018", [GALLERY], ("search_gallery", {"query": "Rex", "year": 2018})),
    ("quiz me on 15 Spanish words", [FLASHCARDS], ("reviewFlashcards", {"language": "Spanish", "words": 15})),
    # "mark" sets, "empty" removes, "stop" a job aborts it
    ("mark me as busy", [PRESENCE], ("set_presence", {"status": "busy"})),
    ("empty my up next list", [QUEUE_CLEAR], ("clear_up_next", {})),
    # an ordinal past the days of a month is no date ("90th"), so no time to come that the tool would ignore
    ("make an album called Grandad's 80th", [ALBUM], ("createAlbum", {"album_name": "Grandad's 80th"})),
])
def test_words_of_the_third_sets_kinds_are_read(text, tools, expected):
    assert reading(tools, text) == expected


def test_a_question_about_the_past_is_no_call_of_a_tool_that_tells_what_comes_next():
    assert decode([NEXT_BIN], "when did they last take the glass") is None
    assert decode([NEXT_BIN], "when is the glass collected next") == {"name": "next_bin_day", "arguments": {"bin": "glass"}}


MISSED_BIN = {"type": "function", "name": "report_missed_bin", "description": "Report to the council that a bin was missed.",
              "parameters": {"type": "object", "properties": {
                  "bin": {"type": "string", "enum": ["paper", "glass"]},
                  "address": {"type": "string", "description": "Street address, if not the user's home"}},
                  "required": ["bin"]}}
PIZZA = {"type": "function", "name": "order_pizza", "description": "Order a pizza.",
         "parameters": {"type": "object", "properties": {"size": {"type": "string", "enum": ["small", "large"]},
                                                         "topping": {"type": "string"}}, "required": ["size"]}}


def test_an_optional_parameter_takes_a_run_only_after_a_cue_the_verb_or_as_typed():
    # "day" follows no word before a value: no address; of the two tools, the one that tells the day
    assert decode([MISSED_BIN, NEXT_BIN], "what day does the glass go out") == {
        "name": "next_bin_day", "arguments": {"bin": "glass"}}
    assert decode([MISSED_BIN], "report the glass bin missed at 4 Mill Lane")["arguments"] == {
        "bin": "glass", "address": "4 Mill Lane"}
    # after the verb and an enum member taken: still the verb's object
    assert decode([PIZZA], "order a large pepperoni pizza") == {
        "name": "order_pizza", "arguments": {"size": "large", "topping": "pepperoni"}}


BIKE = {"type": "function", "name": "locate_bike", "description": "Last known GPS location of the user's bike."}
LIBRARY = {"type": "function", "name": "library_catalog", "description": "Search the library's catalog for a book.",
           "parameters": {"type": "object", "properties": {"query": {"type": "string"},
                                                           "format": {"type": "string", "enum": ["book", "dvd"]}},
                          "required": ["query"]}}
FINES = {"type": "function", "name": "checkLibraryFines", "description": "Get the user's library fines"}
EPISODES = {"type": "function", "name": "queue_episode", "description": "Add a podcast episode to Up Next.",
            "parameters": {"type": "object", "properties": {"show": {"type": "string"}}, "required": ["show"]}}


@pytest.mark.parametrize("text, tools", [
    ("how far did i cycle on my bike last week", [BIKE]),        # an amount over a past time, no time parameter
    ("what's your favourite book", [LIBRARY]),                     # about the assistant
    ("how do you say library in german", [FINES]),                 # a word mentioned, not used
    ("take serial out of my up next, just that one", [EPISODES, QUEUE_CLEAR]),   # one thing removed, not all
])
def test_no_call_for_what_the_third_set_called_where_none_serves(text, tools):
    assert decode(tools, text) is None


def test_the_rules_against_a_call_leave_the_calls_asked_for():
    assert decode([BIKE], "where's my bike") == {"name": "locate_bike", "arguments": {}}
    assert decode([FINES], "do i have any library fines") == {"name": "checkLibraryFines", "arguments": {}}
    assert decode([QUEUE_CLEAR], "clear my up next") == {"name": "clear_up_next", "arguments": {}}


EXTEND = {"type": "function", "name": "extend_meter", "description": "Add time to the parking meter.",
          "parameters": {"type": "object", "properties": {"minutes": {"type": "integer", "description": "Minutes to add"}},
                         "required": ["minutes"]}}
SESSION = {"type": "function", "name": "start_parking", "description": "Start a parking session in a zone.",
           "parameters": {"type": "object", "properties": {
               "zone": {"type": "string"}, "hours": {"type": "number", "description": "Duration in hours"}},
               "required": ["zone"]}}
LIMIT = {"type": "function", "name": "set_screen_limit", "description": "Set a child's screen time limit.",
         "parameters": {"type": "object", "properties": {"child": {"type": "string", "description": "The child's name"},
                                                         "minutes": {"type": "integer"}}, "required": ["child", "minutes"]}}


def test_a_duration_said_in_one_unit_fills_a_parameter_of_another():
    assert decode([EXTEND], "extend the meter by an hour") == {"name": "extend_meter", "arguments": {"minutes": 60}}
    assert decode([SESSION], "start parking in zone 12 for an hour and a half") == {
        "name": "start_parking", "arguments": {"zone": "12", "hours": 1.5}}


def test_a_value_taken_back_is_no_value():
    assert decode([LIMIT], "set the screen limit for the twins, no wait, for sam, ninety minutes") == {
        "name": "set_screen_limit", "arguments": {"child": "sam", "minutes": 90}}


PUMP = {"type": "function", "name": "start_bilge_pump", "description": "Run the boat's bilge pump.",
        "parameters": {"type": "object", "properties": {"minutes": {"type": "integer"}}}}
SCREEN_TIME = {**LIMIT, "name": "set_screen_time"}
WORKOUT_TIMER = {"type": "function", "name": "start_workout_timer", "description": "Start a workout interval timer.",
                 "parameters": {"type": "object", "properties": {"minutes": {"type": "integer"}}}}


@pytest.mark.parametrize("text, tools, expected", [
    # the tool's thing said, and a verb of no particular action: the pump, not a timer
    ("run the bilge pump for ten minutes", [PUMP], [("start_bilge_pump", {"minutes": 10})]),
    # "time" is a word of the tool's name too: the screen limit, not the clock
    ("give sam ninety minutes of screen time today", [SCREEN_TIME], [("set_screen_time", {"child": "sam", "minutes": 90})]),
    # a clause beside the request read as a timer ("an hour"): the tool still takes it over
    ("screen time for uh the girls, no wait, just for sam, two hours", [SCREEN_TIME],
     [("set_screen_time", {"child": "sam", "minutes": 120})]),
    # "timer" is a word of the tool's name, but not said as its own ("a timer"): the timer stays
    ("start a timer for ten minutes", [WORKOUT_TIMER], [("set_timer", {"seconds": 600})]),
    # the skill's own thing said: the timer stays
    ("set a timer for ten minutes", [PUMP], [("set_timer", {"seconds": 600})]),
])
def test_a_declared_tool_whose_thing_is_said_takes_over_a_built_in_reading(assistant, text, tools, expected):
    reply = respond_sync(assistant, [{"role": "user", "content": text}], ToolRunner(),
                         client_tools={t["name"]: t for t in tools})
    assert [(c.name, c.arguments) for c in reply.tool_calls] == expected


LOCK = {"type": "function", "name": "door_lock", "description": "Lock or unlock the smart lock on the shed door.",
        "parameters": {"type": "object", "properties": {
            "locked": {"type": "boolean", "description": "true to lock, false to unlock"}}, "required": ["locked"]}}


@pytest.mark.parametrize("text, tools, expected", [
    # the description's verb is the tool's action too: "put" adds, as "Add a podcast episode" does; "um" opens
    ("so um put serial in my up next", [EPISODES], ("queue_episode", {"show": "serial"})),
    # both actions of "Lock or unlock", and the flag's value as its description says
    ("unlock the shed door please", [LOCK], ("door_lock", {"locked": False})),
    ("lock the shed door", [LOCK], ("door_lock", {"locked": True})),
])
def test_a_tools_description_says_its_actions_and_a_flags_values(text, tools, expected):
    assert reading(tools, text) == expected


INK = {"type": "function", "name": "ink_levels", "description": "Check ink levels on the home printer."}
DESK = {"type": "function", "name": "reserveDesk", "description": "Reserve a desk at the office.",
        "parameters": {"type": "object", "properties": {"day": {"type": "string"}, "floor": {"type": "integer"}},
                       "required": ["day"]}}


@pytest.mark.parametrize("text, tools, expected", [
    ("before i print the report, is the printer low on ink?", [INK], ("ink_levels", {})),    # a question after a remark
    ("i think someone moved my bicycle. where is it now?", [BIKE], ("locate_bike", {})),     # "bicycle" is a bike
    ("book me a desk on the third floor for monday", [DESK], ("reserveDesk", {"day": "monday", "floor": 3})),
    ("let's practise my italian vocab", [FLASHCARDS], ("reviewFlashcards", {"language": "italian"})),
])
def test_questions_after_a_remark_ordinals_and_words_of_a_kind(text, tools, expected):
    assert reading(tools, text) == expected


CHORE = {"type": "function", "name": "assign_task", "description": "Assign a household chore to a family member.",
         "parameters": {"type": "object", "properties": {"person": {"type": "string", "description": "Family member"},
                                                         "chore": {"type": "string"}}, "required": ["person", "chore"]}}
PODCAST = {"type": "function", "name": "queue_show", "description": "Add a podcast episode to Up Next.",
           "parameters": {"type": "object", "properties": {"show": {"type": "string", "description": "Podcast name"},
                                                           "episode": {"type": "string"}}, "required": ["show"]}}
ALARM = {"type": "function", "name": "GarageAlarm", "description": "Arm or disarm the garage alarm.",
         "parameters": {"type": "object", "properties": {"mode": {"type": "string", "enum": ["armed", "disarmed"]}},
                        "required": ["mode"]}}
PRINT_JOB = {"type": "function", "name": "cancel_print", "description": "Abort the job on the 3D printer."}


@pytest.mark.parametrize("text, tools, expected", [
    # "to" before "walk the dog" says a purpose, not a person
    ("Assign Ravi to walk the dog", [CHORE], ("assign_task", {"person": "Ravi", "chore": "walk the dog"})),
    # the parameter named before "called" takes what follows it
    ("Queue Serial, the episode called The Alibi", [PODCAST], ("queue_show", {"show": "Serial", "episode": "The Alibi"})),
    # a person's thing that is the tool's own: the person alone
    ("Set Leo's screen time limit to 45 minutes.", [LIMIT], ("set_screen_limit", {"child": "Leo", "minutes": 45})),
    ("arm the garage alarm", [ALARM], ("GarageAlarm", {"mode": "armed"})),          # "arm" is the root of "armed"
    ("stop the print, it's failed", [PRINT_JOB], ("cancel_print", {})),              # a job cancelled is stopped
])
def test_values_by_the_words_around_them(text, tools, expected):
    assert reading(tools, text) == expected


REFILL = {"type": "function", "name": "refill_medicine", "description": "Request a refill of a prescription.",
          "parameters": {"type": "object", "properties": {"medication": {"type": "string"},
                                                          "pharmacy": {"type": "string"}}, "required": ["medication"]}}
TICKETS = {"type": "function", "name": "buy_tickets", "description": "Buy tickets for a show or a match.",
           "parameters": {"type": "object", "properties": {"event": {"type": "string"},
                                                           "quantity": {"type": "integer"}}, "required": ["event"]}}


@pytest.mark.parametrize("text, tools, expected", [
    # a run in a remark before the verb has no cue: no optional value
    ("oh I'm almost out of insulin, can you get that refilled", [REFILL], ("refill_medicine", {"medication": "insulin"})),
    # a count of the tool's own thing, said first, asks for it
    ("three tickets for Hamlet", [TICKETS], ("buy_tickets", {"event": "Hamlet", "quantity": 3})),
])
def test_a_remark_gives_no_optional_value_and_a_count_of_the_tools_thing_asks(text, tools, expected):
    assert reading(tools, text) == expected


RENEW = {"type": "function", "name": "renew_loan", "description": "Renew a book on loan from the library.",
         "parameters": {"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"]}}
LESSON = {"type": "function", "name": "book_language_lesson", "description": "Book a lesson with a tutor.",
          "parameters": {"type": "object", "properties": {"language": {"type": "string", "description": "Language to learn"},
                                                          "day": {"type": "string"}}, "required": ["language"]}}


@pytest.mark.parametrize("text, tools, expected", [
    # with no cue before it, a title typed in a remark is the value, not the remark's words around it
    ("I still haven't read Middlemarch yet, can you renew it?", [RENEW], ("renew_loan", {"title": "Middlemarch"})),
    # a language said in a run is the language, not the run ("a german class")
    ("can i get a german class on monday", [LESSON], ("book_language_lesson", {"language": "german", "day": "monday"})),
])
def test_a_title_or_an_example_of_a_parameters_kind_is_the_value(text, tools, expected):
    assert reading(tools, text) == expected


def test_a_year_said_in_words_fills_a_year_parameter():
    assert decode([GALLERY], "find my ski photos from twenty nineteen") == {
        "name": "search_gallery", "arguments": {"query": "ski", "year": 2019}}
    assert decode([GALLERY], "find my lake photos from nineteen ninety five") == {
        "name": "search_gallery", "arguments": {"query": "lake", "year": 1995}}


PARKING_NEAR = {"type": "function", "name": "find_parking", "description": "Find car parks near a place.",
                "parameters": {"type": "object", "properties": {"near": {"type": "string"}}}}
TRUNK = {"type": "function", "name": "openTrunk", "description": "Open the car's trunk."}
COIN = {"type": "function", "name": "coinPrice", "description": "Current price of a cryptocurrency.",
        "parameters": {"type": "object", "properties": {"coin": {"type": "string"}}, "required": ["coin"]}}


@pytest.mark.parametrize("text, tools, expected", [
    ("is there anywhere to park round here", [PARKING_NEAR], ("find_parking", {})),    # "anywhere", "round here": no place
    ("pop the trunk", [TRUNK], ("openTrunk", {})),                                    # "pop" opens
    ("what's ethereum worth right now", [COIN], ("coinPrice", {"coin": "ethereum"})),  # "worth" asks a price
])
def test_words_of_the_second_sets_misses_are_read(text, tools, expected):
    assert reading(tools, text) == expected


FERRY = {"type": "function", "name": "next_ferry", "description": "Next ferry departures from a port.",
         "parameters": {"type": "object", "properties": {"port": {"type": "string"}}, "required": ["port"]}}
SLEEP = {"type": "function", "name": "log_sleep", "description": "Record last night's sleep.",
         "parameters": {"type": "object", "properties": {"hours": {"type": "number"}}, "required": ["hours"]}}


def test_a_description_that_starts_with_a_day_word_has_no_verb():
    # "Next ferry departures": "next" is no verb of skipping, so a question asks the tool
    assert decode([FERRY], "when's the next ferry from Dover") == {"name": "next_ferry", "arguments": {"port": "Dover"}}


def test_a_fraction_said_before_the_unit_is_part_of_the_duration():
    assert decode([SLEEP], "log 7 and a half hours of sleep") == {"name": "log_sleep", "arguments": {"hours": 7.5}}


def test_a_duration_is_no_value_of_a_number_parameter_of_another_kind():
    metronome = {"type": "function", "name": "set_metronome", "description": "Set the metronome tempo.",
                 "parameters": {"type": "object", "properties": {"bpm": {"type": "integer"}}, "required": ["bpm"]}}
    assert decode([metronome], "set the metronome for 20 minutes") is None
    assert decode([metronome], "set the metronome to 120") == {"name": "set_metronome", "arguments": {"bpm": 120}}


def test_a_word_of_an_action_after_a_copula_is_a_state_not_an_ask():
    garage = {"type": "function", "name": "garage_door", "description": "Open or close the garage door.",
              "parameters": {"type": "object", "properties": {
                  "open": {"type": "boolean", "description": "true to open, false to close"}}, "required": ["open"]}}
    assert decode([garage], "the garage door is open") is None
    assert decode([FERRY], "my sister is visiting next week") is None      # "next week" is a time, no skipping
    weather = {"type": "function", "name": "get_weather", "description": "Get the weather for a city.",
               "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}
    assert decode([weather], "it's raining again") is None                  # "it's": a statement of how things are
    assert decode([garage], "close the garage door") == {"name": "garage_door", "arguments": {"open": False}}


def test_a_parameter_named_a_number_or_a_code_takes_only_a_value_with_digits():
    parcel = {"type": "function", "name": "track_parcel", "description": "Track a parcel.",
              "parameters": {"type": "object", "properties": {"tracking_number": {"type": "string"}},
                             "required": ["tracking_number"]}}
    assert decode([parcel], "my parcel never arrived, I'm furious") is None
    assert decode([parcel], "track parcel 7741 2210") == {"name": "track_parcel", "arguments": {"tracking_number": "7741 2210"}}


def test_an_optional_parameter_takes_no_run_of_the_tools_kind_only():
    taxi = {"type": "function", "name": "book_taxi", "description": "Book a taxi to a destination.",
            "parameters": {"type": "object", "properties": {
                "destination": {"type": "string"},
                "pickup": {"type": "string", "description": "Where to be picked up from"}}, "required": ["destination"]}}
    assert decode([taxi], "get me a cab to 10 Downing Street") == {
        "name": "book_taxi", "arguments": {"destination": "10 Downing Street"}}     # "cab" is no pickup
