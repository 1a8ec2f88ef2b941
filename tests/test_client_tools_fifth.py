"""The decoder's rules written from the fifth client-tools set's misses (a development set): each rule on
declarations of its own, so that a rule is pinned apart from the set that prompted it."""
import pytest

from assistant.client_tools import decode


def tool(name: str, description: str, required=(), **properties) -> dict:
    """A declaration in the Realtime shape; each property as (type, description)."""
    return {"type": "function", "name": name, "description": description,
            "parameters": {"type": "object", "required": list(required), "properties": {
                key: {"type": kind, "description": text} for key, (kind, text) in properties.items()}}}


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
    # a unit after a number is no part of a value beside it
    ("how long for a 3 kilo turkey", [BAKE], ("oven_time", {"item": "turkey", "weight_kg": 3})),
    # "am" is a clock's only after a number
    ("when am I free on Monday", [AVAILABILITY], ("find_free_time", {"day": "Monday"})),
    # a parameter named a month is a time: its run is a time said
    ("how much did we spend on fuel in March", [BUDGET], ("get_spending", {"category": "fuel", "month": "March"})),
    # a parameter's kind by its name's last word: "collection_date" is a time, not a place
    ("book a van in Leeds for Saturday", [VAN], ("book_van", {"town": "Leeds", "collection_date": "Saturday"})),
])
def test_fifth_set_rules(text, tools, expected):
    assert reading(tools, text) == expected
