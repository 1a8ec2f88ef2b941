"""The decoder's rules written from the fifth client-tools set's misses (a development set): each rule on
declarations of its own, so that a rule is pinned apart from the set that prompted it."""
import pytest

from assistant.client_tools import decode
from assistant.generator import respond_sync
from assistant.tools import ToolRunner


def tool(name: str, description: str, required=(), **properties) -> dict:
    """A declaration in the Realtime shape; each property as (type, description) or (type, description, enum)."""
    return {"type": "function", "name": name, "description": description,
            "parameters": {"type": "object", "required": list(required), "properties": {
                key: {"type": kind, "description": text, **({"enum": list(enum[0])} if enum else {})}
                for key, (kind, text, *enum) in properties.items()}}}


TIP = tool("tip_driver", "Tip the delivery driver.", ["amount"], amount=("number", "Tip amount"))
SHARE = tool("share_bill", "Share a restaurant bill between friends.", ["total", "people"],
             total=("number", "Bill total"), people=("integer", "How many people share it"))
NAP = tool("startNapTimer", "Play white noise and stop it after a while.", ["minutes"],
           minutes=("integer", "Minutes of white noise"))
BAKE = tool("oven_time", "How long to bake something.", ["item"], item=("string", "What is baked"),
            weight_kg=("number", "Weight in kilograms"))
AVAILABILITY = tool("find_free_time", "Find an open slot in the diary.", ["day"],
                    day=("string", "Day to look at"))
BUDGET = tool("get_spending", "Spending in a budget category.", ["category"],
              category=("string", "Category"), month=("string", "Month of the report"))
VAN = tool("book_van", "Book a removal van.", ["town"], town=("string", "Town"), collection_date=("string", "When"))

RIDE = tool("search_trains", "Search train times.", ["destination"], departure_station=("string", "Where from"),
            destination=("string", "Arrival station"))
CASE = tool("case_status", "Status of a customer case.", ["case_id"], case_id=("string", "Case number"))
BOARDING = tool("get_boarding_pass", "Show a flight's boarding pass.", ["booking_ref"],
                booking_ref=("string", "Booking reference"), surname=("string", "Passenger surname"))
WHATSAPP = tool("sendWhatsapp", "Send a WhatsApp message.", ["contact", "text"], contact=("string", "Contact"),
                text=("string", "Message"))
CALL_LOG = tool("log_call", "Attach a note about a call to a customer's record.", ["customer", "summary"],
                customer=("string", "Customer name"), summary=("string", "Note on the call"))
SILENCE = tool("mute_channel", "Mute a chat channel.", ["channel"], channel=("string", "Channel name"),
               hours=("integer", "For how many hours"))
CAR = tool("book_car", "Book a hire car.", ["city"], city=("string", "City"))
ALTERNATIVE = tool("ingredient_swap", "Suggest what to use for a missing ingredient.", ["ingredient"],
                   ingredient=("string", "The ingredient"))

AUTO_REPLY = tool("set_vacation_responder", "Turn the vacation auto-responder on or off.", ["enabled"],
                  enabled=("boolean", "true for on, false for off"), note=("string", "Text of the reply"))
TEAMS = tool("post_teams_message", "Post in a Microsoft Teams channel.", ["channel", "text"],
             channel=("string", "Channel"), text=("string", "The message"))
FEE = tool("bill_client", "Bill a client.", ["client", "amount"], client=("string", "Client"),
           amount=("number", "Total"))
GRILL = tool("preheat_grill", "Preheat the smart grill.", ["temperature"],
             temperature=("number", "Degrees Celsius"), minutes=("integer", "How long to keep it hot"))
FAN = tool("set_fan_mode", "Set the air purifier's fan mode.", ["mode"],
           mode=("string", "Fan mode", ["quiet", "normal", "boost"]))

WASHER = tool("startWashingMachine", "Start the washing machine.", [],
              cycle=("string", "Wash cycle", ["cotton", "wool"]),
              delay_minutes=("integer", "Start after this many minutes"))

FAN2 = tool("set_fan_mode", "Set the air purifier's fan mode.", ["mode"],
            mode=("string", "Fan mode", ["quiet", "normal", "turbo"]))

BUG = tool("file_bug", "File a bug report.", ["summary"], summary=("string", "One-line summary"))
CONTACT = tool("add_contact_card", "Add a person to the address book.", ["full_name"],
               full_name=("string", "Full name"), phone=("string", "Phone number"))

DECLINE = tool("decline_event", "Decline a calendar invitation.", ["event"], event=("string", "Name of the event"))


def reading(tools: list[dict], text: str) -> tuple[str, dict] | None:
    call = decode(tools, text)
    return call and (call["name"], call["arguments"])


@pytest.mark.parametrize("text, tools, expected", [
    # a number of several words; a number before a currency is the amount of money, the other number the count
    ("tip the driver twenty five dollars", [TIP], ("tip_driver", {"amount": 25})),
    ("share the bill, 240 euros between five people", [SHARE], ("share_bill", {"total": 240, "people": 5})),
    ("share one hundred and ten pounds three ways", [SHARE], ("share_bill", {"total": 110, "people": 3})),
    # a duration of several words, and "half an hour"
    ("start the nap timer for twenty five minutes", [NAP], ("startNapTimer", {"minutes": 25})),
    ("start the nap timer for half an hour", [NAP], ("startNapTimer", {"minutes": 30})),
    # a word of what kind between "a" and the unit ("a full hour")
    ("start the nap timer for a full hour", [NAP], ("startNapTimer", {"minutes": 60})),
    # a unit after a number is no part of a value beside it
    ("how long for a 3 kilo turkey", [BAKE], ("oven_time", {"item": "turkey", "weight_kg": 3})),
    # "am" is a clock's only after a number
    ("when am I free on Monday", [AVAILABILITY], ("find_free_time", {"day": "Monday"})),
    # a parameter named a month is a time: its run is a time said
    ("how much did we spend on fuel in March", [BUDGET], ("get_spending", {"category": "fuel", "month": "March"})),
    # a parameter's kind by its name's last word: "collection_date" is a time, not a place
    ("book a van in Leeds for Saturday", [VAN], ("book_van", {"town": "Leeds", "collection_date": "Saturday"})),
    # "from" says the source where the tool takes one
    ("trains from Leeds to York", [RIDE], ("search_trains", {"destination": "York", "departure_station": "Leeds"})),
    # a code alone, after the parameter's name's words; "under" before a person
    ("what's happening with customer case number CX-4410", [CASE], ("case_status", {"case_id": "CX-4410"})),
    ("show my boarding pass for ZT8Q2M under the name Alvarez", [BOARDING],
     ("get_boarding_pass", {"booking_ref": "ZT8Q2M", "surname": "Alvarez"})),
    # the app said after a typed name; a person's possessive
    ("send Ana on WhatsApp: running late", [WHATSAPP], ("sendWhatsapp", {"contact": "Ana", "text": "running late"})),
    ("note on Noor's record that she wants a refund", [CALL_LOG],
     ("log_call", {"customer": "Noor", "summary": "she wants a refund"})),
    # a number ends a typed title: no count
    ("mute the channel called Launch Team 2026", [SILENCE], ("mute_channel", {"channel": "Launch Team 2026"})),
    # verbs of the tables: hire is book, silence is stop (mute); "instead" asks for a substitute
    ("hire a car in Porto", [CAR], ("book_car", {"city": "Porto"})),
    ("silence the channel called Random", [SILENCE], ("mute_channel", {"channel": "Random"})),
    ("what can I use instead of tahini", [ALTERNATIVE], ("ingredient_swap", {"ingredient": "tahini"})),
    # the app typed as a name after a cue is no value
    ("Tell the dev channel on Teams: the build is green", [TEAMS],
     ("post_teams_message", {"channel": "dev", "text": "the build is green"})),
    # a summary is said as a message: all after a colon
    ("file a bug: the login page hangs", [BUG], ("file_bug", {"summary": "the login page hangs"})),
    # an optional parameter's name said right before a run names its value
    ("add a contact card for Lena Berg, phone 0771 900 321", [CONTACT],
     ("add_contact_card", {"full_name": "Lena Berg", "phone": "0771 900 321"})),
    # verbs of the tables: reject is decline, and accept undoes it; ping is send
    ("reject the invitation to Board Review", [DECLINE], ("decline_event", {"event": "Board Review"})),
    ("accept the invitation to Board Review", [DECLINE], None),
    ("ping the dev channel on Teams saying deploy is done", [TEAMS],
     ("post_teams_message", {"channel": "dev", "text": "deploy is done"})),
    # a switch is set as the request switches it, and on when it says neither
    ("turn on my vacation responder", [AUTO_REPLY], ("set_vacation_responder", {"enabled": True})),
    ("switch off the vacation responder", [AUTO_REPLY], ("set_vacation_responder", {"enabled": False})),
    # a message said is no statement of how things are ("the build is broken")
    ("teams the dev channel saying the build is broken", [TEAMS],
     ("post_teams_message", {"channel": "dev", "text": "the build is broken"})),
    # a number of several words with a scale inside is one number
    ("bill Northwind three thousand four hundred", [FEE], ("bill_client", {"client": "Northwind", "amount": 3400})),
    # one number left and two number parameters: the required one takes it
    ("preheat the grill to 230", [GRILL], ("preheat_grill", {"temperature": 230})),
    # an enum member said loosely, or as an adverb
    ("set the purifier fan to max", [FAN2], ("set_fan_mode", {"mode": "turbo"})),
    ("set the purifier fan quietly", [FAN], ("set_fan_mode", {"mode": "quiet"})),
    # "in two hours" to a tool that takes a delay: the delay, no time to come it would ignore
    ("start the washing machine on cotton in two hours", [WASHER],
     ("startWashingMachine", {"cycle": "cotton", "delay_minutes": 120})),
])
def test_fifth_set_rules(text, tools, expected):
    assert reading(tools, text) == expected


TRAINS = tool("search_trains_by_day", "Search train times.", ["destination"], destination=("string", "Arrival station"),
              date=("string", "Day of travel"))


NOISE = tool("setNoiseTimer", "Stop white noise after a number of minutes.", ["minutes"],
             minutes=("integer", "Minutes"))


def test_a_timer_named_by_the_declared_tools_own_words_is_the_tools(assistant):
    """"a noise timer" names the built-in timer "noise", a word of setNoiseTimer's said with "timer": the tool's."""
    reply = respond_sync(assistant, [{"role": "user", "content": "set a noise timer for twenty minutes"}],
                         ToolRunner(), client_tools={NOISE["name"]: NOISE})
    assert [(c.name, c.arguments) for c in reply.tool_calls] == [("setNoiseTimer", {"minutes": 20})]


@pytest.mark.parametrize("text, expected", [
    # the request says the tool's thing ("trains"): its call, not the model's joke
    ("any trains to york next weekend", [("search_trains_by_day", {"destination": "york", "date": "next weekend"})]),
    # chit-chat says nothing of it: the model's own reply, no call
    ("thanks, that's all", []),
])
def test_a_declared_tool_whose_thing_is_said_is_called_over_the_models_own_words(assistant, text, expected):
    reply = respond_sync(assistant, [{"role": "user", "content": text}], ToolRunner(),
                         client_tools={TRAINS["name"]: TRAINS})
    assert [(c.name, c.arguments) for c in reply.tool_calls] == expected
    assert reply.text if not expected else not reply.text
