"""The decoder's mechanisms written from the ninth client-tools set's part A (a development set), each on
declarations of its own: how a declaration is built (a noun phrase for a description, a known verb) and how sure
the values said make a reading, not the set's phrasings."""
import pytest

from assistant.client_tools import read_declared
from assistant.generator import respond_sync
from assistant.tools import ToolRunner
from declared_tools import reading, tool


KILN = tool("kiln-cooldown-left", "Kiln cooldown left.")
HOPPER = tool("PelletHopper", "Pellet hopper level.")
ZOOM = tool("zoom_map", "Zoom map", ["place"], place=("string", "Where"))
LOCKER = tool("openLocker", "Open a parcel locker.", ["locker"], locker=("string", "Locker number"))
SCOOTER = tool("unlock_scooter", "Unlock rental scooter.", ["scooter_id"], scooter_id=("string", "Scooter number"))
OVEN = tool("oven_mode", "Set the oven mode.", ["mode"], mode=("string", "Mode", ["fan", "grill", "defrost"]))
MUTE = tool("mute_thread", "Mute a chat thread.", ["thread"], thread=("string", "Thread name"))


@pytest.mark.parametrize("text, tools, expected", [
    # a description that names a thing ("Kiln cooldown left."): the tool tells, a question asks it
    ("how long until the kiln has cooled", [KILN], ("kiln-cooldown-left", {})),
    ("is the pellet hopper nearly empty", [HOPPER], ("PelletHopper", {})),
    # a known verb with its object and no determiner still acts ("Zoom map")
    ("zoom the map to Lisbon", [ZOOM], ("zoom_map", {"place": "Lisbon"})),
    # the possessive is the thing ("the kiln's")
    ("is the kiln's cooldown nearly over", [KILN], ("kiln-cooldown-left", {})),
])
def test_ninth_set_mechanisms(text, tools, expected):
    assert reading(tools, text) == expected


@pytest.mark.parametrize("text, tools", [
    # a verb of no table, said of the tool's own thing, is another action of it, values or not
    ("archive the book club thread", [MUTE]),
    ("photograph locker 12", [LOCKER]),
    # such a verb that ends in an action undoes or redoes it
    ("unmute the family thread", [MUTE]),
    ("reopen locker 12", [LOCKER]),
    # a verb the corpus knows is another action of the tool's thing, values or not
    ("rate scooter 5521 five stars", [SCOOTER]),
    ("clean the oven on grill", [OVEN]),
    # a noun-phrase tool that tells is not asked by a verb of doing
    ("empty the pellet hopper", [HOPPER]),
])
def test_ninth_set_mechanisms_call_nothing_where_none_serves(text, tools):
    assert reading(tools, text) is None


CLEANER = tool("book_help", "Book cleaner.", ["day"], day=("string", "Day"), hours=("integer", "How long"))
BEANS = tool("bean_level", "Returns how many grams of coffee beans are left.")


def test_a_word_of_the_tools_own_with_its_values_said_owns_the_request():
    """"a cleaner for monday, 2 hours" is book_help's though no word of its name is said: its description's word
    and its values are; the built-in timer's reading of "2 hours" gives way to it (embedded.takes_over)."""
    decoded = read_declared([CLEANER], "get a cleaner for monday, 2 hours")
    assert decoded.call == {"name": "book_help", "arguments": {"day": "monday", "hours": 2}} and decoded.owned


def test_a_word_of_the_tools_own_without_values_owns_nothing():
    decoded = read_declared([BEANS], "do you like coffee?")
    assert decoded is None or not decoded.owned


NUTRIENTS = tool("sugar_lookup", "Grams of sugar in a drink.", ["drink"], drink=("string", "The drink"))
STICKERS = tool("award_stickers", "Give a child reward stickers.", ["child", "count"], child=("string", "Name"),
                count=("integer", "How many"))


@pytest.mark.parametrize("text, tools, expected", [
    # a run of the tool's own words is no value of a required parameter where another run is said
    ("sugar in a milkshake?", [NUTRIENTS], ("sugar_lookup", {"drink": "milkshake"})),
    # "his" ends no value
    ("give Noah his 3 stickers", [STICKERS], ("award_stickers", {"child": "Noah", "count": 3})),
])
def test_ninth_set_values(text, tools, expected):
    assert reading(tools, text) == expected


HATCH = tool("roofHatch", "Roof hatch.", ["state"], state=("string", "State", ["open", "closed", "ajar"]))


@pytest.mark.parametrize("text, expected", [
    # an enum whose members are actions undone by each other: the tool acts by them, the verb says the member
    ("open the roof hatch", ("roofHatch", {"state": "open"})),
    ("close the hatch on the roof", ("roofHatch", {"state": "closed"})),
    ("set the roof hatch to ajar", ("roofHatch", {"state": "ajar"})),
])
def test_an_enum_of_actions_makes_a_tool_that_acts(text, expected):
    assert reading([HATCH], text) == expected


def test_an_enum_of_actions_is_not_asked_a_question():
    assert reading([HATCH], "is the roof hatch open?") is None


PIZZA = tool("order_pizza_slice", "Order pizza.", ["topping"], topping=("string", "Topping", ["cheese", "pepperoni"]),
             pickup=("string", "pickup time"))


def test_a_parameter_described_as_a_time_of_its_name_takes_a_time():
    """"pickup": "pickup time" is a time, though "pickup" alone is a place."""
    assert reading([PIZZA], "order a pepperoni slice for 7pm pickup") == \
        ("order_pizza_slice", {"topping": "pepperoni", "pickup": "7pm"})


TIDE = tool("tide_height", "Tide height at a harbour.", ["harbour"], harbour=("string", "Harbour name"))
MILES = tool("air_miles", "Air miles balance.", [], airline=("string", "Airline"))


@pytest.mark.parametrize("text, tools, expected", [
    # a parameter of a name takes the name as typed over a common word
    ("how high is the tide at Port Ellen", [TIDE], ("tide_height", {"harbour": "Port Ellen"})),
    # no parameter required: a run of the tool's own words is no value of an optional one
    ("what's my air miles balance", [MILES], ("air_miles", {})),
])
def test_ninth_set_values_of_names(text, tools, expected):
    assert reading(tools, text) == expected


WATER = tool("log_water", "Log water intake.", ["ml"], ml=("integer", "Millilitres"))
SUGAR = tool("record_ketones", "Record a ketone reading.", ["mmol"], mmol=("number", "mmol/L"),
             timing=("string", "When", ["morning", "evening"]))


@pytest.mark.parametrize("text, tools, expected", [
    # a record said as what was done, with the values it takes: a number with a parameter's unit
    ("I drank 500 ml this morning", [WATER], ("log_water", {"ml": 500})),
    ("I measured 1.2 mmol this evening", [SUGAR], ("record_ketones", {"mmol": 1.2, "timing": "evening"})),
])
def test_a_record_said_as_what_was_done_with_its_values(text, tools, expected):
    assert reading(tools, text) == expected


@pytest.mark.parametrize("text", ["my ketones were high this evening", "my ketones were 1.2 last year"])
def test_a_fact_said_with_a_copula_records_nothing(text):
    assert reading([SUGAR], text) is None


SKYLIGHT = tool("skylightPosition", "Skylight.", ["position"], position=("string", "Position", ["open", "closed"]))


def test_an_enum_of_actions_alone_is_no_evidence():
    """"close the garage door" says the action a skylight's member is, and nothing of the skylight."""
    assert reading([SKYLIGHT], "close the garage door") is None
    assert reading([SKYLIGHT], "close the skylight") == ("skylightPosition", {"position": "closed"})


def test_a_parameters_unit_said_after_its_number_owns_the_request():
    """"500 ml" is log_water's amount: its reading owns the request over a built-in reading of "today"."""
    decoded = read_declared([WATER], "I drank 500 ml today")
    assert decoded.call == {"name": "log_water", "arguments": {"ml": 500}} and decoded.owned


def test_an_owners_word_says_the_tool():
    """"the kiln's" is the kiln: a word of the tool's own, though said as an owner."""
    assert reading([KILN], "how long until the kiln's cool") == ("kiln-cooldown-left", {})


KILN_LEFT = tool("kiln_minutes_left", "Minutes until the kiln has cooled.")


@pytest.mark.parametrize("text, expected", [
    # a word of the tool's name said where a built-in reading took it for a timer's name
    ("how long until the kiln's done", "kiln_minutes_left"),
    ("how long till the kiln is finished", "kiln_minutes_left"),
    # the skill's own word said: the timer stays
    ("how long is left on the kiln timer", "timer_left"),
])
def test_a_timers_name_that_is_the_tools_word_is_the_tools(assistant, text, expected):
    if assistant is None:
        pytest.skip("no embedded checkpoint")
    reply = respond_sync(assistant, [{"role": "user", "content": text}], ToolRunner(),
                         client_tools={"kiln_minutes_left": KILN_LEFT})
    assert [c.name for c in reply.tool_calls] == [expected]


BATH = tool("run_bath", "Fill the bath to a temperature.", [], celsius=("number", "Water temperature in degrees"),
            bubbles=("boolean", "Add bubble bath"), minutes=("integer", "How long to keep it warm, in minutes"))
PLAN = tool("RunPlan", "Today's run.")


@pytest.mark.parametrize("text, tools, expected", [
    # a flag's words said after a negation: false
    ("run me a bath at 38 degrees without bubbles", [BATH], ("run_bath", {"celsius": 38, "bubbles": False})),
    ("fill the bath, no bubbles please", [BATH], ("run_bath", {"bubbles": False})),
    ("run the bath with bubbles", [BATH], ("run_bath", {"bubbles": True})),
    # a name's verb of doing acts when its description starts with a verb and its object ("Fill the bath"), and
    # names a thing when it does not ("Today's run.")
    ("what's my run today", [PLAN], ("RunPlan", {})),
])
def test_ninth_set_flags_and_verbs_of_doing(text, tools, expected):
    assert reading(tools, text) == expected


TUTOR = tool("book_tutor_session", "Book a session with a tutor for one of the children.", ["child", "subject"],
             child=("string", "The child's first name"), subject=("string", "Subject", ["maths", "physics"]),
             minutes=("integer", "Length of the session in minutes"))


@pytest.mark.parametrize("text, expected", [
    # a request asked inside a remark on asking: its verb follows "you could"
    ("i was wondering if you could book mia a physics tutor for an hour",
     ("book_tutor_session", {"child": "mia", "subject": "physics", "minutes": 60})),
    ("do you think you could book leo a maths tutor", ("book_tutor_session", {"child": "leo", "subject": "maths"})),
])
def test_a_request_inside_a_remark_on_asking(text, expected):
    assert reading([TUTOR], text) == expected


SPRINKLER = tool("set_sprinkler_schedule", "Schedule the lawn sprinkler to run at a time.", ["start_time"],
                 start_time=("string", "When to start, e.g. 6:30"), minutes=("integer", "How long to run"))
SCALE = tool("bathroom_scale_goal", "Set a weight goal on the smart bathroom scale in kilograms.", ["goal_kg"],
             goal_kg=("number", "Target weight in kg"))


@pytest.mark.parametrize("text, tools, expected", [
    # a clock time said by the minutes past or to the hour is a time
    ("set the sprinkler for quarter to seven", [SPRINKLER], ("set_sprinkler_schedule", {"start_time": "quarter to seven"})),
    ("schedule the sprinkler at ten past six for 20 minutes", [SPRINKLER],
     ("set_sprinkler_schedule", {"start_time": "ten past six", "minutes": 20})),
    # a number said with "and a half"
    ("set my weight goal to seventy two and a half kilos", [SCALE], ("bathroom_scale_goal", {"goal_kg": 72.5})),
])
def test_ninth_set_spoken_times_and_numbers(text, tools, expected):
    assert reading(tools, text) == expected
