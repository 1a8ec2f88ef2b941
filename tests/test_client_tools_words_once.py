"""Declared tools read by code: a word one argument took is no part of another's value, and a flag's description
that says when it is true ("true if the user ...") is not chosen by its article."""
import pytest

from declared_tools import reading, tool

GROOMER = tool("book_dog_groomer", "Book the dog groomer on a given day.", ["day"],
               day=("string", "Day of the visit, as said"), slot=("string", "Part of the day.", ["morning", "evening"]))
CLINIC = tool("BookEyeTest", "Book an eye test at the optician on a given date.", ["date"],
              date=("string", "Date of the test as the user said it"),
              evening=("boolean", "True if the user wants an evening appointment"))
FERRY = tool("book_ferry_crossing", "Book a ferry crossing.", ["date"], date=("string", "Date of the crossing"),
             car=("boolean", "True if a vehicle comes along"))


@pytest.mark.parametrize("text, tools, expected", [
    # the part of the day fills its own parameter, and the day's value ends before it
    ("get the dog groomed on friday evening", [GROOMER],
     ("book_dog_groomer", {"day": "friday", "slot": "evening"})),
    ("book the groomer for next monday morning please", [GROOMER],
     ("book_dog_groomer", {"day": "next monday", "slot": "morning"})),
    # a flag named by its word takes it, and the date ends before it
    ("book me an eye test for next thursday evening", [CLINIC],
     ("BookEyeTest", {"date": "next thursday", "evening": True})),
    # "true if the user wants ...": "the" said chooses nothing
    ("book an eye test on the 4th of may", [CLINIC], ("BookEyeTest", {"date": "the 4th of may"})),
    ("book a ferry crossing for saturday", [FERRY], ("book_ferry_crossing", {"date": "saturday"})),
])
def test_a_word_fills_one_argument(text, tools, expected):
    assert reading(tools, text) == expected


def test_a_part_of_the_day_leaves_the_day_only_for_a_parameter_of_its_own():
    only_day = tool("book_window_cleaner", "Book the window cleaner on a given day.", ["day"],
                    day=("string", "Day the cleaner comes"))
    text = "book the groomer for friday morning"
    assert reading([GROOMER], text) == ("book_dog_groomer", {"day": "friday", "slot": "morning"})
    assert reading([only_day], text.replace("groomer", "window cleaner")) == \
        ("book_window_cleaner", {"day": "friday morning"})
