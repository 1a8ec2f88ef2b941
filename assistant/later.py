"""A change of the home said for a time to come ("turn off the kitchen light in 10 minutes", "switch off the tv at
10 pm", "turn on the bedroom light tomorrow morning") or on a condition ("... when I leave") is never made now:
acting at once on a request for later is a wrong action. ToolRunner.run asks not_now of every call of a skill that
changes a thing (skills.CHANGES_THE_HOME), with the words of the request it answers; the words of times and
conditions are data (vocabulary.LATER_TIMES, LATER_CONDITIONS).
"""
import re

from assistant.chat_template import NoAction
from assistant.spoken_numbers import normalize_request
from assistant.vocabulary import (LATER_CONDITION_SUBJECTS, LATER_CONDITIONS, LATER_TIMES, SPEAKER_REMARK_SUBJECTS,
                                  STATE_WISHED_BY_THEN)

AT_A_LATER_TIME = NoAction("Sorry, I can't do that at a later time yet.")
ON_A_CONDITION = NoAction("I can't do that on a condition yet.")


def _any_of(words) -> str:
    return "|".join(map(re.escape, words))


_LATER = re.compile(rf"\b(?:{'|'.join(LATER_TIMES)})(?![\w'])")
# a condition after the request's first words: "when" that opens a request asks ("when did the light go off")
_CONDITION = re.compile(rf"\s(?:{_any_of(LATER_CONDITIONS)}) (?:{_any_of(LATER_CONDITION_SUBJECTS)})(?![\w'])")
_WISHED = re.compile(rf"\b(?:{_any_of(STATE_WISHED_BY_THEN)})\b")
_REMARK = re.compile(rf"(?<![\w'])(?:{_any_of(SPEAKER_REMARK_SUBJECTS)})(?![\w'])")
_CLAUSE_ENDS = re.compile(r"[,;:.!?]+(?:\s|$)")


def not_now(said: str) -> NoAction | None:
    """What to say instead of making a change the request's words put later: on a condition Parley cannot know, or
    at a time to come; None for a change asked now. Each clause is read alone, its time or condition only where no
    remark's subject comes before it."""
    clauses = [normalize_request(clause) for clause in _CLAUSE_ENDS.split(said)]
    for clause in clauses:
        condition = _CONDITION.search(clause)
        if condition and not _REMARK.search(clause[:condition.start()]) \
                and not _WISHED.search(clause[:condition.start()]):
            return ON_A_CONDITION
    for clause in clauses:
        later = _LATER.search(clause)
        if later and not _REMARK.search(clause[:later.start()]):
            return AT_A_LATER_TIME
    return None
