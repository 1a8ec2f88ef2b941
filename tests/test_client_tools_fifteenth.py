"""The decoder's mechanisms of round 23's tools branch (the fifteenth client-tools set's part A is a development set),
each on declarations and phrasings of its own: a verb of the tool's verb's meaning by WordNet, a day's possessive,
a reminder to do something, what the speaker did by the tool's verb."""
import pytest

from assistant import verb_senses
from declared_tools import reading, tool

SWEEP = tool("schedule_chimney_sweep", "Schedule the chimney sweep's next visit.", ["day"],
             day=("string", "Day of the visit."))
CHOIR = tool("cancel_choir_practice", "Cancel a choir practice.", ["day"], day=("string", "Day of the practice."))
TICKET = tool("open_repair_ticket", "Open a repair ticket with the landlord.", ["issue"],
              issue=("string", "What is broken."))
SAUNA = tool("resume_sauna", "Resume heating the sauna after a pause.", [])
PILLS = tool("log_vitamins", "Record vitamins the user has taken.", ["vitamin"],
             vitamin=("string", "Name of the vitamin."), mg=("number", "Dose in milligrams."))
COMPOST = tool("orderCompost", "Order bags of compost for delivery.", ["bags"], bags=("integer", "How many bags."))
LOAN = tool("renew_tool_loan", "Renew a tool borrowed from the tool library.", ["tool_name"],
            tool_name=("string", "The tool."))


@pytest.mark.parametrize("said, own, expected", [
    ("book", "schedule", True),          # a kind of scheduling
    ("booked", "schedule", True),
    ("call off", "cancel", True),        # one sense
    ("carry on", "resume", True),
    ("mend", "repair", True),
    ("delete", "cancel", False),         # a rare sense only (a word struck out)
    ("hold", "request", False),          # its 19th sense
    ("reopen", "open", False),           # the prefix redoes it
    ("cancel", "book", False),
    ("stop", "start", False),
    ("sell", "buy", False),
])
def test_verbs_of_one_meaning_by_wordnet(said, own, expected):
    assert verb_senses.alike(said, own) is expected


@pytest.mark.parametrize("word, expected", [("renewed", True), ("took", True), ("booked", True), ("feed", False),
                                            ("renew", False), ("booking", False)])
def test_past_forms(word, expected):
    assert verb_senses.past(word) is expected


@pytest.mark.parametrize("text, tools, expected", [
    # a verb of the tool's verb's meaning, with a word of the tool's own after it
    ("book the chimney sweep for tuesday", [SWEEP, CHOIR], ("schedule_chimney_sweep", {"day": "tuesday"})),
    ("carry on heating the sauna", [SAUNA, SWEEP], ("resume_sauna", {})),
    # the particle is no value, a day's possessive is the day
    ("call off friday's choir practice", [CHOIR, SWEEP], ("cancel_choir_practice", {"day": "friday"})),
    # a thing ordered is bought
    ("buy 3 bags of compost", [COMPOST, SWEEP], ("orderCompost", {"bags": 3})),
    # the description's verb in another form asks a tool that records
    ("i just took 500 mg of magnesium", [PILLS, SWEEP], ("log_vitamins", {"vitamin": "magnesium", "mg": 500})),
])
def test_a_request_by_another_verb_of_the_tools_meaning(text, tools, expected):
    assert reading(tools, text) == expected


@pytest.mark.parametrize("text, tools", [
    # the verb alike, but nothing of the tool's own after it
    ("book a table for tuesday", [SWEEP, CHOIR]),
    # a verb redone behind a prefix; a rare sense
    ("reopen the repair ticket about the boiler", [TICKET, SWEEP]),
    ("delete the choir practice on friday from my notes", [CHOIR, SWEEP]),
    # a reminder to do it is no doing
    ("remind me to take my vitamin d at 9", [PILLS, SWEEP]),
    # what the speaker did with the tool's verb
    ("i already renewed the hedge trimmer", [LOAN, SWEEP]),
    ("we booked the chimney sweep last month", [SWEEP, CHOIR]),
])
def test_near_misses_of_another_verb(text, tools):
    assert reading(tools, text) is None
