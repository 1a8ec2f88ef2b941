"""Declared tools read by code: an order said with a verb of no table ("pencil in", "slot", "wrap up") calls the tool
whose name's thing is its object when a value only the tool's schema takes (a number, a code, an enum member) is said
in the verb's adjunct; an order that says another thing, undoes an action ("reopen") or carries a particle after its
object ("boot Hannah out of ...") calls nothing. The tools are none the corpus holds, declared as apps declare them."""
import pytest

from assistant.generator import respond_sync
from assistant.tools import ToolRunner
from declared_tools import reading, tool

SEPTIC = tool("schedule_septic_pumping", "Schedule a septic tank pumping visit on a given date.", ["date"],
              date=("string", "Day of the visit, as the user said it"))
SQUAD = tool("enrol_in_swim_squad", "Enrol a swimmer in the swim squad at a level.", ["swimmer", "level"],
             swimmer=("string", "Who joins"), level=("string", "Squad level", ["beginner", "improver", "advanced"]))
FAULTS = tool("close_fault_report", "Close a fault report by its number.", ["report_id"],
              report_id=("string", "The fault report's number, e.g. '4471'"),
              resolution=("string", "How it ended", ["fixed", "duplicate", "wont_fix"]))


def test_a_verb_of_no_table_before_the_tools_thing_with_a_typed_value_after_calls_it():
    assert reading([SEPTIC], "pencil in the septic pumping for the 14th") == \
        ("schedule_septic_pumping", {"date": "the 14th"})
    # another thing after the same verb is no call of it
    assert reading([SEPTIC], "pencil in a haircut for the 14th") is None


def test_a_particle_after_the_object_says_another_action():
    assert reading([SQUAD], "slot Hannah into the swim squad at improver level") == \
        ("enrol_in_swim_squad", {"swimmer": "Hannah", "level": "improver"})
    # "boot ... out": WordNet's one verb, no enrolment
    assert reading([SQUAD], "boot Hannah out of the swim squad at improver level") is None


def test_a_verb_behind_a_prefix_that_undoes_is_no_call():
    assert reading([FAULTS], "wrap up fault report 4471 as a duplicate") == \
        ("close_fault_report", {"report_id": "4471", "resolution": "duplicate"})
    assert reading([FAULTS], "reopen fault report 4471 as a duplicate") is None


def test_a_number_right_after_the_thing_only_says_which_one():
    """"fault report 4471" names which report; no value said after it says how the act is done."""
    assert reading([FAULTS], "wrap up fault report 4471 as a duplicate") is not None
    assert reading([FAULTS], "photograph fault report 4471") is None


def test_through_the_embedded_assistant(assistant):
    """The model refuses both; the declared tool is called for the first only."""
    if assistant is None:
        pytest.skip("no embedded checkpoint")

    def calls(text: str) -> list:
        reply = respond_sync(assistant, [{"role": "user", "content": text}], ToolRunner(),
                             client_tools={"schedule_septic_pumping": SEPTIC})
        return [(c.name, c.arguments) for c in reply.tool_calls if c.name == "schedule_septic_pumping"]
    assert calls("pencil in the septic pumping for the 14th") == [("schedule_septic_pumping", {"date": "the 14th"})]
    assert calls("pencil in a haircut for the 14th") == []
