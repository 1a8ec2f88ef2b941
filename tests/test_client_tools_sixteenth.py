"""The decoder's mechanisms of round 24's tools branch (the sixteenth client-tools set's part A is a development set),
each on declarations and phrasings of its own: a required value left out is asked back by the schema, and the
answer completes the call; a span of time is no value; the tool's own words fill no required value."""
from assistant.client_tools import answered, read_declared
from declared_tools import reading, tool

FERRY = tool("book_ferry", "Book a ferry crossing.", ["port"], port=("string", "Port to sail to."),
             passengers=("integer", "How many people travel."))
TEA = tool("brew_tea", "Brew a pot of tea in the smart kettle.", ["blend"],
           blend=("string", "Tea blend.", ["green", "earl_grey", "chamomile"]))
LAPS = tool("logSwim", "Record a swim.", ["laps"], laps=("integer", "Lengths of the pool swum."))
POLLEN = tool("get_pollen_count", "Get today's pollen count for a town.", ["town"], town=("string", "Town name."))
PLACES = tool("find_open_shop", "Find the nearest open shop of a kind, such as a bakery or florist.", ["kind"],
              kind=("string", "Kind of shop."))


def asked(tools: list[dict], text: str) -> str | None:
    decoded = read_declared(tools, text)
    return decoded and decoded.asks


def test_a_required_value_left_out_is_asked_by_the_schema_and_no_call_is_made():
    assert reading([FERRY], "book a ferry for two people") is None
    assert asked([FERRY], "book a ferry for two people") == "What port?"
    assert asked([TEA], "brew me a pot of tea") == "Which blend: green, earl grey or chamomile?"
    assert asked([LAPS, TEA], "record my swim") == "How many laps?"


def test_the_answer_to_the_question_completes_the_call():
    question = asked([FERRY], "book a ferry for two people")
    done = answered([FERRY], "book a ferry for two people", question, "to calais")
    assert done is not None and done.call == {"name": "book_ferry", "arguments": {"passengers": 2, "port": "calais"}}
    done = answered([TEA, FERRY], "brew me a pot of tea", asked([TEA], "brew me a pot of tea"), "chamomile please")
    assert done.call == {"name": "brew_tea", "arguments": {"blend": "chamomile"}}


def test_an_answer_to_another_question_completes_nothing():
    """The state is the history: only the question the request gets is answered by the next turn."""
    assert answered([FERRY], "book a ferry for two people", "Which one: the ferry or the train?", "calais") is None
    assert answered([FERRY], "what time is it", "What port?", "calais") is None


def test_a_call_that_reads_every_value_is_made_not_asked():
    assert reading([FERRY], "book a ferry to calais for two people") == ("book_ferry", {"port": "calais",
                                                                                          "passengers": 2})
    assert asked([FERRY], "book a ferry to calais for two people") is None


def test_a_span_of_time_is_no_value():
    """"the next few days" says when, not which town: the town is asked for, not guessed."""
    assert asked([POLLEN], "what's the pollen count for the next few days") == "What town?"


def test_the_tools_own_words_fill_no_required_value_unless_its_examples():
    """"pollen count" names the tool, no town; "bakery" is one of the kinds the description gives."""
    assert asked([POLLEN], "what's the pollen count like") == "What town?"
    assert reading([PLACES], "find me a bakery that is open") == ("find_open_shop", {"kind": "bakery"})


PARKING = tool("pay_for_parking", "Pay for a parking session.", ["amount"], amount=("number", "Amount to pay."),
               currency=("string", "Currency.", ["dollars", "euros", "pounds"]))
BREAD = tool("startBreadMachine", "Start the bread machine.", ["program"],
             program=("string", "Program.", ["white", "dough"]))
SEATS = tool("pick_train_seat", "Pick a seat on the user's train.", ["seat"],
             seat=("string", "Seat type. basic is the cheapest, premium has the most legroom.", ["basic", "premium"]))
FAN = tool("set_fan_speed", "Set the desk fan's speed.", ["speed"],
           speed=("integer", "Speed from 1 (quietest) to 3 (strongest).", [1, 2, 3]))
SILENT = tool("setSilentMode", "Silence the phone.", ["enabled"],
              enabled=("boolean", "true to mute calls, false to let them ring"))


def test_an_enum_member_said_by_a_word_of_its_meaning():
    """WordNet's nouns and adjectives: "quid" is a pound, "bucks" dollars; a member said by its own word first."""
    assert reading([PARKING], "pay five quid for parking") == ("pay_for_parking", {"amount": 5, "currency": "pounds"})
    assert reading([PARKING], "pay ten bucks for parking") == ("pay_for_parking", {"amount": 10, "currency": "dollars"})


def test_a_word_of_the_tools_name_is_no_member_by_meaning():
    """"bread" shares WordNet's money sense with "dough"; it names the machine here, and the program is asked."""
    assert asked([BREAD], "start the bread machine") == "Which program: white or dough?"


def test_a_member_the_description_explains():
    assert reading([SEATS], "pick me a cheap seat") == ("pick_train_seat", {"seat": "basic"})
    assert reading([FAN], "set the fan speed to the quiet one") == ("set_fan_speed", {"speed": 1})


def test_a_flag_as_its_description_says_before_a_switch_read():
    """"true to mute calls": "mute" sets enabled true, though muting reads as stopping."""
    assert reading([SILENT], "mute my calls") == ("setSilentMode", {"enabled": True})


YOGA = tool("start_yoga_class", "Start a guided yoga class video.", ["minutes"], minutes=("integer", "Length in minutes."))
AUDIOBOOK = tool("play_audiobook", "Play an audiobook.", ["title"], title=("string", "Book title."),
                 speed=("number", "Playback speed, e.g. 1.25."))


def test_a_number_before_a_duration_is_its_amount_not_a_kind():
    """"a ten minute yoga class" is ten minutes ("a free hour" is one hour of a kind)."""
    assert reading([YOGA], "start a ten minute yoga class") == ("start_yoga_class", {"minutes": 10})


def test_a_number_with_its_fraction_is_no_hour():
    assert reading([AUDIOBOOK], "play dune at one and a half speed") == ("play_audiobook",
                                                                          {"title": "dune", "speed": 1.5})


def test_what_the_speaker_did_by_a_verb_of_the_tools_thing_asks_nothing():
    """"i meditated" says what was done, by the verb of the tool's own thing: no guided meditation to start."""
    meditation = tool("startMeditation", "Start a guided meditation.", ["minutes"],
                      minutes=("integer", "Length in minutes."))
    assert reading([meditation], "i meditated for twenty minutes this morning") is None
    assert reading([meditation], "start a twenty minute meditation") == ("startMeditation", {"minutes": 20})


def test_a_verb_of_the_description_acting_on_another_thing_calls_nothing():
    """"book a table" says "book" of a cabin's tool ("Book a holiday cabin."), but of a table: no cabin is booked;
    a verb of the tool's name keeps its object ("message the sitter" with send_sitter_note, "Send a note")."""
    cabin = tool("reserve_cabin", "Book a holiday cabin near a town.", ["town"], town=("string", "Town to stay near."),
                 nights=("integer", "Nights to stay."))
    assert reading([cabin], "book a table in keswick for six") is None
    assert reading([cabin], "book a cabin in keswick for six nights") == ("reserve_cabin",
                                                                           {"town": "keswick", "nights": 6})
