"""The decoder's mechanisms written from the seventh client-tools set's misses (a development set), each on
declarations of its own: a request read by how it is built (a verb of many actions, a word split or joined, a
parameter's words), not by the set's phrasings."""
import pytest

from assistant.client_tools import decode, explained, stem
from declared_tools import reading, tool


WINTERIZE = tool("winterizeTap", "Drain an outdoor tap before frost.", ["tap"], tap=("string", "Which tap"))
KETTLE = tool("fill_kettle", "Fill the smart kettle.", ["millilitres"], millilitres=("integer", "How much water"))
MOVE = tool("book_removal", "Book a removal van.", ["date"], date=("string", "Moving day"))
CALLS = tool("LastCallLength", "How long the user's last phone call took.")
RECEPTION = tool("buzzReception", "Buzz the front desk with a short note.", ["note"], note=("string", "The note"))
SEATS = tool("seat_heating", "Heated seats in the car.", ["enabled"], enabled=("boolean", "true for on"))
WAYBILL = tool("GetWaybill", "Shipping document of an order.", ["order"], order=("string", "Order number"))
NURSE = tool("pageOnCallNurse", "Page the nurse on duty.", ["message"], message=("string", "What is needed"))
DIARY = tool("food_diary_entry", "Add an entry to the food diary.", ["dish"],
             dish=("string", "What was eaten"), calories=("integer", "Calories of the meal"))
DRYER = tool("startDryer", "Begin a drying cycle.", ["program"],
             program=("string", "Drying program", ["cotton", "delicates"]))
TANK = tool("tank_readings", "Latest water test of the pond: pH and oxygen.")
TIPS = tool("tip_waiter", "Make a tip to the waiter from the user's card.", ["amount"], amount=("number", "Tip amount"))
TIDES = tool("harbour_tides", "Tide times at the harbour.", [], day=("string", "Which day", ["today", "tomorrow"]))
DIARY_EVENTS = tool("diary_events", "Events in the diary.", [], day=("string", "Day to list"))
LAMP = tool("set_lamp_scene", "Change the desk lamp's scene.", ["scene"], scene=("string", "Scene", ["reading", "off"]))
CHECKOUT = tool("checkoutBasket", "Pay for the basket.", ["card"], card=("string", "Which saved card"))
HIKE = tool("log_hike", "Record a hike.", ["trail"], trail=("string", "Trail name"), km=("number", "Distance in km"))
DRONE = tool("drone_flyover", "Fly the drone over a place and film it.", ["place"], place=("string", "Where"))
LOAN = tool("lend_tool", "Record a tool lent to a neighbour.", ["item", "borrower"], item=("string", "The tool"),
            borrower=("string", "Neighbour's name"), days=("integer", "For how many days"))
POTHOLE = tool("report_pothole", "Report a pothole to the council.", ["street"], street=("string", "Street"))
SPRINKLER = tool("run_sprinkler", "Water the lawn.", ["zone"], zone=("string", "Lawn zone"))


@pytest.mark.parametrize("text, tools, expected", [
    # one spelling of -ise and -ize
    ("winterise the garden tap", [WINTERIZE], ("winterizeTap", {"tap": "garden"})),
    # a number glued to its unit
    ("fill the kettle with 750ml", [KETTLE], ("fill_kettle", {"millilitres": 750})),
    # a day's number before its month is part of the date
    ("book the removal van for 3 March", [MOVE], ("book_removal", {"date": "3 March"})),
    # a tool named for the past is asked the past ("how long was ...")
    ("how long was my last call", [CALLS], ("LastCallLength", {})),
    # the tool's own verb first, and a message after a colon: no statement of how things are
    ("buzz reception: the courier is here", [RECEPTION], ("buzzReception", {"note": "the courier is here"})),
    # a verb's particle after its object
    ("switch the heated seats off", [SEATS], ("seat_heating", {"enabled": False})),
    # a word the tool writes as one said as two ("way bill"), one it writes as two said as one ("on-call")
    ("show the way bill for order 5512", [WAYBILL], ("GetWaybill", {"order": "5512"})),
    ("page the on-call nurse: bed four needs help", [NURSE], ("pageOnCallNurse", {"message": "bed four needs help"})),
    # a word of a parameter's description says the tool, if less than one of its own
    ("log 450 calories of lasagne", [DIARY], ("food_diary_entry", {"dish": "lasagne", "calories": 450})),
    # a verb of many actions said of the thing the tool's name holds
    ("put the dryer on delicates", [DRYER], ("startDryer", {"program": "delicates"})),
    # a verb of many actions with its particle after the object, where the particle is the tool's own member
    ("turn the desk lamp off", [LAMP], ("set_lamp_scene", {"scene": "off"})),
    # a verb and its particle make one word of the tool's name: no part of the value
    ("check out with the visa card", [CHECKOUT], ("checkoutBasket", {"card": "visa"})),
    # the word after who does it is a verb, no value
    ("log that we walked Helvellyn Edge, 12 km", [HIKE], ("log_hike", {"trail": "Helvellyn Edge", "km": 12})),
    # a preposition before a place ends the value before it
    ("fly the drone low over Ashby Wood", [DRONE], ("drone_flyover", {"place": "Ashby Wood"})),
    # no value runs on across "that"; a person typed by name after who they are
    ("I lent a ladder to my neighbour Tomasz that he needs for 3 days", [LOAN],
     ("lend_tool", {"item": "ladder", "borrower": "Tomasz", "days": 3})),
    # a first word no table holds is the request's verb, no part of the value after it
    ("bake version 2.1 of the sourdough recipe", [tool("bake_recipe", "Run the bread maker on a recipe.", ["recipe"],
                                                       recipe=("string", "Recipe"), version=("string", "Version"))],
     ("bake_recipe", {"recipe": "sourdough", "version": "2.1"})),
    # an enum member said by a word of its root ("the cleaning robot": cleaner)
    ("is the cleaning robot done", [tool("appliance_status", "Time left on an appliance.", [],
                                         appliance=("string", "Which one", ["cleaner", "mower"]))],
     ("appliance_status", {"appliance": "cleaner"})),
    # a tool that adds or saves does so now, whatever time is said; a time after a colon is the message's
    ("save the film Dune for later",
     [tool("bookmark_film", "Save a film to watch.", ["film"], film=("string", "Film"))],
     ("bookmark_film", {"film": "Dune"})),
    # a run of the tool's own words is no value of an optional parameter; a question is said after a colon
    ("open a vote in the team channel: tacos or sushi tonight?",
     [tool("open_vote", "Open a vote in the team channel.", ["question"], question=("string", "The question"),
           choices=("string", "Choices"))], ("open_vote", {"question": "tacos or sushi tonight"})),
    # a score before a scale: the score is the value, and no part of a title typed before it
    ("score The Matrix 4 out of 5",
     [tool("score_film", "Score a film.", ["film", "score"], film=("string", "Film"), score=("integer", "Score"))],
     ("score_film", {"film": "The Matrix", "score": 4})),
    # an enum member said by a word its description explains it with
    ("set the heating, we're away for the weekend", [tool("heating_mode", "Set the boiler's mode.", ["mode"], mode=(
        "string", "comfort: someone home; eco: away or asleep; frost: house empty for days",
        ["comfort", "eco", "frost"]))],
     ("heating_mode", {"mode": "eco"})),
    # two members said together: the member that means both
    ("log a nappy: wet and dirty", [tool("log_nappy", "Log a nappy change.", ["kind"],
                                         kind=("string", "Contents", ["wet", "dirty", "mixed"]))],
     ("log_nappy", {"kind": "mixed"})),
    # a word that limits the verb before it is no verb ("only charge ...")
    ("only charge the scooter to 80 percent", [tool("scooter_charge_cap", "Cap the scooter's charge.", ["percent"],
                                                    percent=("integer", "Charge cap in percent"))],
     ("scooter_charge_cap", {"percent": 80})),
    # a word of the tool's name said clipped; the verb after a verb of any action is no value
    ("let me see the porch cam", [tool("camera_view", "Live view of a camera.", ["camera"],
                                       camera=("string", "Camera"))], ("camera_view", {"camera": "porch"})),
    # a question that starts "is" ends with what is asked of its subject
    ("is the oven in the annexe hot?", [tool("oven_state", "State of an oven.", ["oven"], oven=("string", "Which oven"))],
     ("oven_state", {"oven": "annexe"})),
    # the thing the description's verb acts on, said after a value, is no part of it
    ("get me on the Dover to Calais sailing", [tool("reserve_ferry", "Reserve a ferry sailing.", ["origin", "port"],
                                                    origin=("string", "From"), port=("string", "Destination port"))],
     ("reserve_ferry", {"origin": "Dover", "port": "Calais"})),
    # a tool that reports to someone acts by its own verb
    ("report a pothole on Mill Lane", [POTHOLE], ("report_pothole", {"street": "Mill Lane"})),
    # a tool described by a verb of no particular action ("Make a tip") acts by its name's verb
    ("make a 5 pound tip", [TIPS], ("tip_waiter", {"amount": 5})),
    # a doing verb that asks ("do i ...") still asks a tool that tells
    ("do i have any events in my diary today", [DIARY_EVENTS, TIDES], ("diary_events", {"day": "today"})),
    ("what are the tide times today", [DIARY_EVENTS, TIDES], ("harbour_tides", {"day": "today"})),
])
def test_seventh_set_mechanisms(text, tools, expected):
    assert reading(tools, text) == expected


@pytest.mark.parametrize("text, tools", [
    # an action that undoes the tool's still rules it out, whatever the verb of many actions allows
    ("stop the dryer", [DRYER]),
    # a tool named for the past is asked the past only when its name says it
    ("how far did i cycle last week", [tool("findMyCar", "Where the car was last parked.")]),
    # a verb of doing asks for something done, never for a tool that only tells
    ("do a water change in the pond", [TANK]),
    # a time said is a value, no thing a tool acts on
    ("how are you today?", [TIDES]),
    # an amount asked ("how long") is no word of a parameter's ("How long the slot must be")
    ("how long did the pump run last night", [tool("find_gap", "Find a gap in the diary.", ["day"],
                                                   day=("string", "Day"), minutes=("integer", "How long it must be"))]),
    # a question to a tool that reports to someone, not to the user
    ("what's happening with my pothole on Mill Lane", [POTHOLE]),
    # a verb of many actions said of no thing of the tool's name
    ("set a reminder to water the lawn", [SPRINKLER]),
])
def test_seventh_set_mechanisms_call_nothing_where_none_serves(text, tools):
    assert decode(tools, text) is None


def test_one_spelling_of_ise_and_ize():
    assert stem("fertilise") == stem("fertilize") and stem("organiser") == stem("organizer")
    assert stem("promise") == stem("promize") and stem("cruise") == "cruise"


def test_an_enums_description_explains_its_members():
    """A word that explains one member only is that member's; one that explains two is neither's."""
    explanations = explained(("away", "stay"), "away: everyone out; stay: everyone home")
    assert dict(explanations) == {"out": "away", "home": "stay"}
