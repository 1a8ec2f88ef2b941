"""The decoder's mechanisms of round 20 (the eleventh client-tools set's part A is a development set), each on
declarations of its own: how a description that says when a tool is used is read, and how a request said in
several clauses is read, not the set's phrasings."""
import pytest

from assistant.client_tools import what_it_does
from declared_tools import reading, tool

KAYAK = tool("kayak_hire", "Called when the user wants to rent a kayak at the lake.", ["hours"],
             hours=("integer", "How many hours."))
TRANSFER = tool("pending_transfer", "This function cancels a bank transfer that has not gone out yet.",
                reference=("string", "The transfer's reference, e.g. TR-2231."))
LOCKER = tool("GymLocker", "Use this when the member asks to open their gym locker.", ["locker"],
              locker=("string", "The locker number."))
WIFI = tool("guest_wifi", "Called when the guest asks for the wifi password.")


@pytest.mark.parametrize("description, words", [
    ("Called when the hotel guest would like food brought up.", ["food", "brought", "up"]),
    ("This function books a massage.", ["book", "a", "massage"]),
    ("Records of swims.", ["records", "of", "swims"]),      # a plural noun is no verb
])
def test_a_description_is_read_past_when_the_tool_is_used(description, words):
    assert what_it_does(description) == words


@pytest.mark.parametrize("text, tools, expected", [
    # the verb after "Called when the user wants to" is the tool's: it acts
    ("rent a kayak for 2 hours", [KAYAK], ("kayak_hire", {"hours": 2})),
    ("could you hire us a kayak for three hours", [KAYAK], ("kayak_hire", {"hours": 3})),
    ("cancel transfer TR-5512", [TRANSFER], ("pending_transfer", {"reference": "TR-5512"})),
    ("open locker 42", [LOCKER], ("GymLocker", {"locker": "42"})),
    ("what's the wifi password", [WIFI], ("guest_wifi", {})),
])
def test_a_tool_described_by_when_it_is_used(text, tools, expected):
    assert reading(tools, text) == expected


@pytest.mark.parametrize("text, tools", [
    # "Called", "user", "wants" are no words of the tool's own
    ("could you call my sister", [KAYAK, WIFI]),
    ("the user wants a kayak", [KAYAK]),
    # the action undone is still another action
    ("close locker 42", [LOCKER]),
])
def test_a_tool_described_by_when_it_is_used_is_not_called_where_none_serves(text, tools):
    assert reading(tools, text) is None


SHED = tool("lockShed", "Lock the garden shed.")
CINEMA = tool("cinema_tickets", "Buy cinema tickets.", ["film", "seats"], film=("string", "The film."),
              seats=("integer", "Number of seats."))
TUNER = tool("PianoTuner", "Schedule a piano tuning visit.", ["date"], date=("string", "The visit date."))
HAIR = tool("book_haircut", "Book a haircut at the salon.", ["day"], day=("string", "The day."),
            stylist=("string", "The stylist's name."))


@pytest.mark.parametrize("text, tools, expected", [
    # words of asking start the request, at a clause's start or after a remark; "mind" takes a gerund
    ("would you mind buying two tickets for dune at the cinema", [CINEMA], ("cinema_tickets", {"film": "dune", "seats": 2})),
    ("before we go to bed would you mind locking the shed", [SHED], ("lockShed", {})),
    ("the piano sounds awful, is there any way you could get the tuner round on friday", [TUNER],
     ("PianoTuner", {"date": "friday"})),
])
def test_a_request_asked_in_words_of_asking(text, tools, expected):
    assert reading(tools, text) == expected


@pytest.mark.parametrize("text, tools", [
    ("would you mind telling me a joke", [SHED, CINEMA]),
    ("is there any way you could unlock the shed", [SHED]),
])
def test_words_of_asking_call_nothing_where_none_serves(text, tools):
    assert reading(tools, text) is None


@pytest.mark.parametrize("text, date", [
    ("schedule a piano tuning on the fifth of may", "the fifth of may"),
    ("schedule the tuner for the twenty first of june", "the twenty first of june"),
    ("schedule the tuner on the ninth", "the ninth"),
    ("schedule a tuning on the 14th", "the 14th"),
    ("schedule the tuner for may 5th", "may 5th"),
])
def test_a_date_by_the_days_ordinal(text, date):
    assert reading([TUNER], text) == ("PianoTuner", {"date": date})


def test_an_ordinal_of_no_date_is_no_time():
    assert reading([HAIR], "book a haircut on the fourth floor for tomorrow") == \
        ("book_haircut", {"day": "tomorrow", "stylist": "fourth floor"})


DATA = tool("phone_data_left", "Called when the user asks how much mobile data they have left this month.")
THEATRE = tool("TheatreTickets", "Called when the user wants to buy tickets for a show at the theatre.",
               ["show", "tickets"], show=("string", "The name of the show."), tickets=("integer", "How many tickets."))
LICENCE = tool("fishing_licence", "Called when the user wants to buy a fishing licence.", ["days"],
               days=("integer", "How many days the licence lasts."))
SKI = tool("rent_ski_locker", "Called when the user wants to rent a locker at the ski station for some days.", ["days"],
           days=("integer", "How many days."), station=("string", "Which ski station."))


def test_a_description_that_asks_a_question_tells():
    """"phone" starts the name, but the description asks how much is left: the tool tells, and its question's
    words ("how much") are no words of its own."""
    assert reading([DATA], "i've been streaming a lot, do you know if i've used up all my mobile data yet") == \
        ("phone_data_left", {})
    assert reading([DATA], "thanks so much, you're a star") is None


@pytest.mark.parametrize("text, expected", [
    # a thing bought is also got or ordered
    ("could you get us four tickets for hamilton",
     ("TheatreTickets", {"show": "hamilton", "tickets": 4})),
    ("please get me a one day fishing licence", ("fishing_licence", {"days": 1})),
])
def test_a_tool_that_buys_is_asked_by_getting(text, expected):
    assert reading([THEATRE, LICENCE, SKI], text) == expected


LOAN = tool("car_loan_cost", "Called when the user wants to know the monthly cost of a car loan.",
            ["amount", "apr", "months"], amount=("number", "The amount borrowed."),
            apr=("number", "The yearly interest rate in percent."), months=("integer", "The length of the loan in months."))
EGGS = tool("order_eggs", "Order eggs from the farm shop.", ["count"], count=("integer", "How many eggs."))


@pytest.mark.parametrize("text, tools, expected", [
    ("what would a loan of twelve thousand at six point nine percent over forty eight months cost", [LOAN],
     ("car_loan_cost", {"amount": 12000, "apr": 6.9, "months": 48})),
    ("could you order a dozen eggs", [EGGS], ("order_eggs", {"count": 12})),
    ("we need two dozen eggs from the farm shop", [EGGS], ("order_eggs", {"count": 24})),
    ("order half a dozen eggs", [EGGS], ("order_eggs", {"count": 6})),
])
def test_numbers_said_in_words(text, tools, expected):
    assert reading(tools, text) == expected


TUB = tool("set_hot_tub_temp", "Set the hot tub temperature.", ["degrees"], degrees=("number", "Target temperature in celsius."))


@pytest.mark.parametrize("text, expected", [
    ("crank the hot tub to 38", ("set_hot_tub_temp", {"degrees": 38})),
    ("knock the hot tub down to thirty five degrees", ("set_hot_tub_temp", {"degrees": 35})),
])
def test_a_setting_tool_asked_by_its_target(text, expected):
    """A verb of no table, the tool's thing and a number after "to": the setting asked for."""
    assert reading([TUB], text) == expected


@pytest.mark.parametrize("text", ["is the hot tub up to 38 yet", "drain the hot tub", "photograph the hot tub"])
def test_a_setting_tool_without_a_target_said_is_not_asked(text):
    assert reading([TUB], text) is None


CAB = tool("cancel_cab", "Cancel the booked cab.")


@pytest.mark.parametrize("text, expected", [
    ("the meeting ran late, call the cab off", ("cancel_cab", {})),
    ("call off the cab", ("cancel_cab", {})),
    ("call the cab company", None),
])
def test_a_verb_and_its_particle(text, expected):
    assert reading([CAB], text) == expected


ENGINE = tool("RemoteStartCar", "Start the car's engine remotely to warm it up.",
              minutes=("integer", "How long to run the engine, in minutes"))


def test_a_verb_read_with_its_particle_undoes_the_tools_action():
    assert reading([ENGINE], "turn the car engine off") is None
    assert reading([ENGINE], "turn the car engine on for 10 minutes") == ("RemoteStartCar", {"minutes": 10})


GATE = tool("flight_gate", "Called when the user asks which gate a flight boards from.", ["flight"],
            flight=("string", "The flight number."))
GIFT = tool("GiftCardBalance", "Called when the user wants to know how much is left on a gift card.", ["card"],
            card=("string", "The gift card number."))
PARCEL = tool("parcel_eta", "Called when the user asks when a parcel will arrive.", ["tracking"],
              tracking=("string", "The tracking number."))


@pytest.mark.parametrize("text, tools, expected", [
    # a code ends before what is said of it
    ("do you happen to know which gate ba 117 is boarding from", [GATE], ("flight_gate", {"flight": "ba 117"})),
    ("could you find out when parcel yt99812 is arriving", [PARCEL], ("parcel_eta", {"tracking": "yt99812"})),
    # a parameter described as a number takes a value with digits, not a remark's word
    ("i've got an old gift card here, number 7731, is there anything left on it", [GIFT],
     ("GiftCardBalance", {"card": "7731"})),
    ("my parcel still hasn't come, any idea when tracking number yt99812 will turn up", [PARCEL],
     ("parcel_eta", {"tracking": "yt99812"})),
])
def test_codes_in_long_requests(text, tools, expected):
    assert reading(tools, text) == expected
