"""The fresh paraphrase and discovered-home sets, and the third to nineteenth and twenty-first to twenty-fourth
paraphrase sets, are well-formed, so a score on them measures the assistant and not a slip in a row: each expected
call is a skill with its own argument names and allowed values, and names what the row's home really has (or, for an
unknown name, nothing it has)."""
import inspect
import json
from collections import Counter
from pathlib import Path

import pytest

from assistant.inventory import vocabulary_inventory
from assistant.skills import MODEL_SKILLS
from assistant.tools import ToolRunner, calculate, clock_time
from assistant.vocabulary import DEVICES, ROOMS, SENSOR_KINDS, UNIT_GROUPS
from discovered_home import discovered_inventory
from fifth_home import fifth_inventory
from fourth_home import fourth_inventory
from made_up_home import made_up_inventory
from third_home import third_inventory

DATA = Path(__file__).parent / "data"


def rows_of(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / name).read_text(encoding="utf-8").splitlines()]


PARAPHRASES = rows_of("paraphrases_fresh.jsonl")
DISCOVERED = rows_of("heldout_discovered_fresh.jsonl")
THIRD = rows_of("paraphrases_third.jsonl")
FOURTH = rows_of("paraphrases_fourth.jsonl")
FIFTH = rows_of("paraphrases_fifth.jsonl")
SIXTH = rows_of("paraphrases_sixth.jsonl")
SEVENTH = rows_of("paraphrases_seventh.jsonl")
EIGHTH = rows_of("paraphrases_eighth.jsonl")
NINTH = rows_of("paraphrases_ninth.jsonl")
TENTH = rows_of("paraphrases_tenth.jsonl")
ELEVENTH = rows_of("paraphrases_eleventh.jsonl")
TWELFTH = rows_of("paraphrases_twelfth.jsonl")
THIRTEENTH = rows_of("paraphrases_thirteenth.jsonl")
FOURTEENTH = rows_of("paraphrases_fourteenth.jsonl")
FIFTEENTH = rows_of("paraphrases_fifteenth.jsonl")
SIXTEENTH = rows_of("paraphrases_sixteenth.jsonl")
SEVENTEENTH = rows_of("paraphrases_seventeenth.jsonl")
EIGHTEENTH = rows_of("paraphrases_eighteenth.jsonl")
NINETEENTH = rows_of("paraphrases_nineteenth.jsonl")
TWENTYFIRST = rows_of("paraphrases_twentyfirst.jsonl")
TWENTYSECOND = rows_of("paraphrases_twentysecond.jsonl")
TWENTYTHIRD = rows_of("paraphrases_twentythird.jsonl")
TWENTYFOURTH = rows_of("paraphrases_twentyfourth.jsonl")
# The development sets of single requests: round 17's, and round 18's two halves in the made-up and discovered homes.
DEV_SINGLE = {name: rows_of(name) for name in ("paraphrases_dev_requests.jsonl", "paraphrases_dev_homes_a.jsonl",
                                                "paraphrases_dev_homes_b.jsonl", "paraphrases_dev_homes2_a.jsonl",
                                                "paraphrases_dev_homes2_b.jsonl")}
EARLIER_SETS = ["paraphrases.jsonl", "heldout_discovered.jsonl", "heldout.jsonl", "heldout_home.jsonl"]
# Every set of requests written before the third paraphrase set; the conversations' turns are {"user": ...}.
BEFORE_THIRD = EARLIER_SETS + ["paraphrases_fresh.jsonl", "heldout_discovered_fresh.jsonl",
                               "heldout_conversations.jsonl"]
BEFORE_FOURTH = BEFORE_THIRD + ["paraphrases_third.jsonl"]
BEFORE_FIFTH = BEFORE_FOURTH + ["paraphrases_fourth.jsonl"]
BEFORE_SIXTH = BEFORE_FIFTH + ["paraphrases_fifth.jsonl"]
BEFORE_SEVENTH = BEFORE_SIXTH + ["paraphrases_sixth.jsonl"]
BEFORE_EIGHTH = BEFORE_SEVENTH + ["paraphrases_seventh.jsonl"]
BEFORE_NINTH = BEFORE_EIGHTH + ["paraphrases_eighth.jsonl"]
BEFORE_TENTH = BEFORE_NINTH + ["paraphrases_ninth.jsonl"]
BEFORE_ELEVENTH = BEFORE_TENTH + ["paraphrases_tenth.jsonl"]
BEFORE_TWELFTH = BEFORE_ELEVENTH + ["paraphrases_eleventh.jsonl"]
BEFORE_THIRTEENTH = BEFORE_TWELFTH + ["paraphrases_twelfth.jsonl"]
BEFORE_FOURTEENTH = BEFORE_THIRTEENTH + ["paraphrases_thirteenth.jsonl"]
BEFORE_FIFTEENTH = BEFORE_FOURTEENTH + ["paraphrases_fourteenth.jsonl"]
BEFORE_SIXTEENTH = BEFORE_FIFTEENTH + ["paraphrases_fifteenth.jsonl"]
BEFORE_SEVENTEENTH = BEFORE_SIXTEENTH + ["paraphrases_sixteenth.jsonl"]
BEFORE_EIGHTEENTH = BEFORE_SEVENTEENTH + ["paraphrases_seventeenth.jsonl"]
BEFORE_NINETEENTH = BEFORE_EIGHTEENTH + ["paraphrases_eighteenth.jsonl"]
BEFORE_TWENTYFIRST = BEFORE_NINETEENTH + ["paraphrases_nineteenth.jsonl"]
BEFORE_TWENTYSECOND = BEFORE_TWENTYFIRST + ["paraphrases_twentyfirst.jsonl"]
BEFORE_TWENTYTHIRD = BEFORE_TWENTYSECOND + ["paraphrases_twentysecond.jsonl"]
BEFORE_TWENTYFOURTH = BEFORE_TWENTYTHIRD + ["paraphrases_twentythird.jsonl"]


HOMES = {"default": vocabulary_inventory(), "discovered": discovered_inventory(), "made_up": made_up_inventory(),
         "third": third_inventory(), "fourth": fourth_inventory(),
         "fifth": fifth_inventory()}
# Skills of the default vocabulary: rooms and devices are its keys, not the names of a discovered home.
ROOM_SKILLS = {"set_device", "set_brightness", "change_brightness", "read_sensor"}
ENTITY_SKILLS = {"switch_device", "switch_all", "set_level", "change_level", "get_state", "set_cover", "set_lock"}
# Neither the default nor the discovered home has a scene, and a yes answers a question asked before: no single
# request in those homes asks for these. The made-up home has scenes. The sets ask for the skills the shipped model
# writes (a mode's skills came after them, and are read by code).
NOT_ASKED = {"confirm", "activate_scene"}
# Words for a kind of thing rather than one of the home's names: "how humid is it in the larder".
GENERIC = {"everything", "lights", "light", "humidity", "temperature", "blind", "door"}
ALLOWED = {"state": {"on", "off"}, "direction": {"up", "down"}, "action": {"open", "close", "stop", "lock", "unlock"},
           "period": {"am", "pm"}}


def parameters(skill: str) -> tuple[set[str], set[str]]:
    """(every argument name, the required ones) of a skill, from the tool that runs it."""
    signature = inspect.signature(getattr(ToolRunner, "_" + skill))
    names = {p.name for p in list(signature.parameters.values())[1:] if p.kind is not p.VAR_KEYWORD}
    required = {p.name for p in list(signature.parameters.values())[1:]
                if p.default is p.empty and p.kind is not p.VAR_KEYWORD}
    if skill == "convert":                    # "from" is a keyword in Python: the tool takes the units as **units
        names |= {"from", "to"}
        required |= {"from", "to"}
    return names, required


def words(text: str) -> set[str]:
    return set(text.lower().replace("?", " ").replace(",", " ").replace("'", " ").replace("-", " ").split())


def check_call(row: dict, whole_names: bool = True) -> None:
    """whole_names: every word of a user's own name is said; else some word of the thing's name or its area is
    (round 18's halves say names in part, or only where: "it's pitch black in the sewing room")."""
    call = row["expected"]
    assert set(call) == {"name", "arguments"}
    skill, arguments = call["name"], call["arguments"]
    askable = MODEL_SKILLS - NOT_ASKED | ({"activate_scene"} if row["home"] in {"made_up", "third", "fourth", "fifth"} else set())
    assert skill in askable, skill
    names, required = parameters(skill)
    assert required <= set(arguments) <= names, (skill, sorted(arguments))
    for key, allowed in ALLOWED.items():
        if key in arguments:
            assert arguments[key] in allowed, (key, arguments[key])
    if skill == "set_lock":
        assert arguments["action"] in {"lock", "unlock"}
    if skill == "set_cover":
        assert arguments["action"] in {"open", "close", "stop"}
    if skill in ROOM_SKILLS:
        assert row["home"] == "default" and arguments["room"] in ROOMS
    if skill == "set_device":
        assert arguments["device"] in DEVICES
    if skill == "set_brightness":
        assert 0 <= arguments["percent"] <= 100
    if skill == "read_sensor":
        assert arguments["kind"] in SENSOR_KINDS
    if skill in {"set_timer", "start_timer"}:
        assert 0 < arguments["seconds"] <= 24 * 3600
    if skill == "set_alarm":
        hour, minute = clock_time(arguments["hour"], arguments["minute"])
        assert 0 <= hour <= 23 and 0 <= minute <= 59
        assert "period" not in arguments or 1 <= hour <= 12
    if skill == "calculate":
        calculate(arguments["expression"])
    if skill == "convert":
        assert arguments["from"] != arguments["to"]
        assert any({arguments["from"], arguments["to"]} <= set(group) for group in UNIT_GROUPS)
    inventory = HOMES[row["home"]]
    if skill in ENTITY_SKILLS | {"activate_scene"} or (skill == "set_thermostat" and set(arguments) & {"name", "area"}):
        found = inventory.resolve(arguments.get("name"), arguments.get("area"))
        if skill in {"set_thermostat", "activate_scene"}:
            found = [e for e in found if e.component == {"set_thermostat": "climate", "activate_scene": "scene"}[skill]]
        assert len(found) >= 1 if skill == "switch_all" else len(found) == 1, [e.name for e in found]
        if row["home"] != "default":        # the user's own names are said, in this turn or an earlier one
            said = set().union(*(words(m["content"]) for m in row["history"] if m["role"] == "user"))
            for key in ("name", "area"):
                if key in arguments and arguments[key] not in GENERIC and whole_names:
                    assert words(arguments[key]) <= said, (key, arguments[key])
            if not whole_names:     # either spelling, one or many: "parlor", "louvers", "louvre" (consonants alike);
                # a name's words may be said joined ("hifi")
                def skeleton(text_words): return {"".join(c for c in w if c not in "aeiou").rstrip("s") for w in text_words}
                assert any(skeleton(words(e.name) | words(e.area or "") | {"".join(e.name.replace("'", " ").split())}) & skeleton(said)
                           for e in found), \
                    [e.name for e in found]


def check_shape(row: dict, keys: set[str]) -> None:
    assert set(row) == keys
    assert row["home"] in HOMES
    history = row["history"]
    assert history and all(set(m) == {"role", "content"} and m["content"].strip() for m in history)
    assert history[-1]["role"] == "user"
    assert history[-1]["content"] == history[-1]["content"].strip().lower()


@pytest.mark.parametrize("row", PARAPHRASES, ids=lambda row: str(row["id"]))
def test_paraphrase_row(row):
    check_shape(row, {"id", "home", "history", "expected"})
    assert row["expected"] is not None, "every paraphrase is a clear request"
    check_call(row)


@pytest.mark.parametrize("row", DISCOVERED, ids=lambda row: str(row["id"]))
def test_discovered_row(row):
    check_shape(row, {"id", "home", "category", "tags", "history", "expected"})
    assert row["home"] == "discovered"
    if row["expected"] is None:
        assert row["category"] == "unknown_name" and row["tags"] == ["unknown_name"]
        said = row["history"][-1]["content"]
        named = [e.name for e in HOMES["discovered"].entities() if e.name in said]
        assert not named, f"names a device the home has: {named}"
    else:
        assert row["category"] == row["expected"]["name"] and row["tags"] == ["unseen_name"]
        check_call(row)


def test_sizes_and_spread():
    for rows in (PARAPHRASES, DISCOVERED):
        assert [row["id"] for row in rows] == list(range(1, len(rows) + 1))
    assert len(PARAPHRASES) >= 120
    assert sum(row["home"] == "discovered" for row in PARAPHRASES) >= 30
    asked = Counter(row["expected"]["name"] for row in PARAPHRASES)
    assert set(asked) == MODEL_SKILLS - NOT_ASKED
    assert sum(row["expected"] is not None for row in DISCOVERED) >= 60
    assert sum(row["expected"] is None for row in DISCOVERED) >= 10
    known = {e.key for e in HOMES["discovered"].entities()}
    reached = {e.key for row in DISCOVERED + PARAPHRASES if row["home"] == "discovered" and row["expected"]
               for e in HOMES["discovered"].resolve(row["expected"]["arguments"].get("name"),
                                                    row["expected"]["arguments"].get("area"))}
    assert reached == known, f"never asked about: {sorted(known - reached)}"


def test_requests_are_new():
    said = [row["history"][-1]["content"] for row in PARAPHRASES + DISCOVERED]
    assert len(set(said)) == len(said), [text for text, n in Counter(said).items() if n > 1]
    earlier = {m["content"].strip().lower() for name in EARLIER_SETS for row in rows_of(name)
               for m in row["history"] if m["role"] == "user"}
    repeated = sorted(set(said) & earlier)
    assert not repeated


def user_requests(name: str) -> set[str]:
    """Every user turn of a set, as it would be said: lowercase, no spaces at the ends."""
    said = set()
    for row in rows_of(name):
        turns = [m["content"] for m in row.get("history", []) if m["role"] == "user"]
        turns += [turn["user"] for turn in row.get("turns", [])]
        said |= {text.strip().lower() for text in turns}
    return said


def check_history(row: dict) -> None:
    """Turns alternate user, assistant, ..., user; an earlier assistant turn is what the judge
    (bench/assistant_eval.py) keeps of a reply: its words and its one call, {"name", "arguments"}, each call one
    the row's home can run."""
    history = row["history"]
    assert [m["role"] for m in history] == ["user", "assistant"] * (len(history) // 2) + ["user"]
    for index, message in enumerate(history):
        if message["role"] == "user":
            assert set(message) == {"role", "content"} and message["content"].strip()
            continue
        assert set(message) == {"role", "content", "tool_calls"} and message["content"].strip()
        [made] = message["tool_calls"]
        check_call({"home": row["home"], "history": history[:index], "expected": made})
    last = history[-1]["content"]
    assert last == last.strip().lower()


@pytest.mark.parametrize("row", [*THIRD, *FOURTH, *FIFTH],
                         ids=[f"third-{row['id']}" for row in THIRD] + [f"fourth-{row['id']}" for row in FOURTH]
                         + [f"fifth-{row['id']}" for row in FIFTH])
def test_third_fourth_and_fifth_row(row):
    assert set(row) == {"id", "home", "history", "expected"} and row["home"] in HOMES
    check_history(row)
    assert row["expected"] is not None, "every paraphrase is a clear request"
    check_call(row)


def test_third_sizes_and_spread():
    assert [row["id"] for row in THIRD] == list(range(1, len(THIRD) + 1))
    assert len(THIRD) >= 150
    assert 0.2 <= sum(row["home"] == "discovered" for row in THIRD) / len(THIRD) <= 0.3
    assert sum(len(row["history"]) > 1 for row in THIRD) >= 20
    assert {row["expected"]["name"] for row in THIRD} == MODEL_SKILLS - NOT_ASKED


def test_third_requests_are_new():
    """No request is said twice in the set, nor equals a user turn of a set written before it (the rows that
    do are named by id only, so that the earlier sets' rows are not read through this test)."""
    said = [row["history"][-1]["content"] for row in THIRD]
    assert len(set(said)) == len(said), [row["id"] for row in THIRD if said.count(row["history"][-1]["content"]) > 1]
    earlier = set().union(*(user_requests(name) for name in BEFORE_THIRD))
    repeated = [row["id"] for row in THIRD if row["history"][-1]["content"] in earlier]
    assert not repeated, f"rows equal to an earlier set's request: {repeated}"


@pytest.mark.parametrize("rows", [FOURTH, FIFTH], ids=["fourth", "fifth"])
def test_fourth_and_fifth_sizes_and_spread(rows):
    """Each set: at least 150 requests, a quarter of them (20-30 %) in the discovered home, at least 20 that are
    the last turn of a conversation; every skill a single request can ask for, and every kind of thing the
    discovered home has (light, switch, fan, cover, lock, climate, sensor, binary sensor) asked about."""
    assert [row["id"] for row in rows] == list(range(1, len(rows) + 1))
    assert len(rows) >= 150
    assert 0.2 <= sum(row["home"] == "discovered" for row in rows) / len(rows) <= 0.3
    assert sum(len(row["history"]) > 1 for row in rows) >= 20
    assert {row["expected"]["name"] for row in rows} == MODEL_SKILLS - NOT_ASKED
    home = HOMES["discovered"]
    reached = {e.component for row in rows if row["home"] == "discovered"
               for e in home.resolve(row["expected"]["arguments"].get("name"), row["expected"]["arguments"].get("area"))
               if row["expected"]["name"] != "switch_all"}
    assert reached == {e.component for e in home.entities()}


@pytest.mark.parametrize("rows, before", [(FOURTH, BEFORE_FOURTH), (FIFTH, BEFORE_FIFTH), (SIXTH, BEFORE_SIXTH),
                                          (SEVENTH, BEFORE_SEVENTH), (EIGHTH, BEFORE_EIGHTH), (NINTH, BEFORE_NINTH),
                                          (TENTH, BEFORE_TENTH), (ELEVENTH, BEFORE_ELEVENTH),
                                          (TWELFTH, BEFORE_TWELFTH), (THIRTEENTH, BEFORE_THIRTEENTH),
                                          (FOURTEENTH, BEFORE_FOURTEENTH), (FIFTEENTH, BEFORE_FIFTEENTH),
                                          (SIXTEENTH, BEFORE_SIXTEENTH), (SEVENTEENTH, BEFORE_SEVENTEENTH),
                                          (EIGHTEENTH, BEFORE_EIGHTEENTH), (NINETEENTH, BEFORE_NINETEENTH),
                                          (TWENTYFIRST, BEFORE_TWENTYFIRST), (TWENTYSECOND, BEFORE_TWENTYSECOND),
                                          (TWENTYTHIRD, BEFORE_TWENTYTHIRD), (TWENTYFOURTH, BEFORE_TWENTYFOURTH)],
                         ids=["fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh", "twelfth",
                              "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth",
                              "nineteenth", "twentyfirst", "twentysecond", "twentythird", "twentyfourth"])
def test_fourth_to_nineteenth_requests_are_new(rows, before):
    """No request is said twice in the set, nor equals a user turn of a set written before it (named by id only,
    as for the third set)."""
    said = [row["history"][-1]["content"] for row in rows]
    assert len(set(said)) == len(said), [row["id"] for row in rows if said.count(row["history"][-1]["content"]) > 1]
    earlier = set().union(*(user_requests(name) for name in before))
    repeated = [row["id"] for row in rows if row["history"][-1]["content"] in earlier]
    assert not repeated, f"rows equal to an earlier set's request: {repeated}"


@pytest.mark.parametrize("row", [*SIXTH, *SEVENTH, *EIGHTH, *NINTH, *TENTH, *ELEVENTH, *TWELFTH, *THIRTEENTH],
                         ids=[f"sixth-{row['id']}" for row in SIXTH] + [f"seventh-{row['id']}" for row in SEVENTH]
                         + [f"eighth-{row['id']}" for row in EIGHTH] + [f"ninth-{row['id']}" for row in NINTH]
                         + [f"tenth-{row['id']}" for row in TENTH] + [f"eleventh-{row['id']}" for row in ELEVENTH]
                         + [f"twelfth-{row['id']}" for row in TWELFTH]
                         + [f"thirteenth-{row['id']}" for row in THIRTEENTH])
def test_sixth_to_thirteenth_row(row):
    assert set(row) == {"id", "home", "history", "expected"} and row["home"] in HOMES
    check_history(row)
    assert row["expected"] is not None, "every paraphrase is a clear request"
    check_call(row)


def reached_in(rows: list[dict], name: str) -> list:
    """The entities of a custom home that the rows' expected calls, other than switching all, are about."""
    home = HOMES[name]
    return [e for row in rows if row["home"] == name and row["expected"]["name"] != "switch_all"
            for e in home.resolve(row["expected"]["arguments"].get("name"), row["expected"]["arguments"].get("area"))]


@pytest.mark.parametrize("rows, conversations", [(SIXTH, 25), (SEVENTH, 30), (EIGHTH, 30), (NINTH, 35), (TENTH, 40),
                                                 (ELEVENTH, 40), (TWELFTH, 40), (THIRTEENTH, 55)],
                         ids=["sixth", "seventh", "eighth", "ninth", "tenth", "eleventh", "twelfth", "thirteenth"])
def test_sixth_to_thirteenth_sizes_and_spread(rows, conversations):
    """At least 200 requests: the default home, and at least 40 each in the discovered and the made-up home; at
    least 25 (the seventh and eighth sets: 30, the ninth: 35, the tenth to twelfth: 40, the thirteenth: 55) that
    are the last turn of a conversation; every skill a single request can ask for (the made-up home has scenes),
    and every kind of thing both custom homes have asked about."""
    assert [row["id"] for row in rows] == list(range(1, len(rows) + 1))
    assert len(rows) >= 200
    homes = Counter(row["home"] for row in rows)
    assert homes["discovered"] >= 40 and homes["made_up"] >= 40 and homes["default"] >= len(rows) / 2
    assert sum(len(row["history"]) > 1 for row in rows) >= conversations
    assert {row["expected"]["name"] for row in rows} == MODEL_SKILLS - {"confirm"}
    for name in ("discovered", "made_up"):
        assert {e.component for e in reached_in(rows, name)} == {e.component for e in HOMES[name].entities()}, name


@pytest.mark.parametrize("rows", [SEVENTH, EIGHTH, NINTH, TENTH, ELEVENTH, TWELFTH, THIRTEENTH],
                         ids=["seventh", "eighth", "ninth", "tenth", "eleventh", "twelfth", "thirteenth"])
def test_seventh_to_thirteenth_ask_about_every_entity(rows):
    """Every entity of both custom homes is asked about by name, not only by switching all of a kind."""
    for name in ("discovered", "made_up"):
        missed = {e.key for e in HOMES[name].entities()} - {e.key for e in reached_in(rows, name)}
        assert not missed, (name, sorted(missed))


@pytest.mark.parametrize("row", [*FOURTEENTH, *FIFTEENTH, *SIXTEENTH, *SEVENTEENTH, *EIGHTEENTH, *NINETEENTH,
                                 *TWENTYFIRST, *TWENTYSECOND, *TWENTYTHIRD, *TWENTYFOURTH],
                         ids=[f"fourteenth-{row['id']}" for row in FOURTEENTH]
                         + [f"fifteenth-{row['id']}" for row in FIFTEENTH]
                         + [f"sixteenth-{row['id']}" for row in SIXTEENTH]
                         + [f"seventeenth-{row['id']}" for row in SEVENTEENTH]
                         + [f"eighteenth-{row['id']}" for row in EIGHTEENTH]
                         + [f"nineteenth-{row['id']}" for row in NINETEENTH]
                         + [f"twentyfirst-{row['id']}" for row in TWENTYFIRST]
                         + [f"twentysecond-{row['id']}" for row in TWENTYSECOND]
                         + [f"twentythird-{row['id']}" for row in TWENTYTHIRD]
                         + [f"twentyfourth-{row['id']}" for row in TWENTYFOURTH])
def test_fourteenth_to_nineteenth_row(row):
    """As the sixth to thirteenth sets' rows, except that some rows must make no call: their last turn names none
    of the home's things in full (a name the home lacks, an unclear referent, chit-chat)."""
    assert set(row) == {"id", "home", "history", "expected"} and row["home"] in HOMES
    check_history(row)
    if row["expected"] is None:
        said = row["history"][-1]["content"]
        named = [e.name for e in HOMES[row["home"]].entities() if e.name in said]
        assert not named, f"names a thing the home has: {named}"
    else:
        check_call(row)


@pytest.mark.parametrize("rows,conversations_at_least,fewest_earlier,no_calls_at_least",
                         [(FOURTEENTH, 70, 2, 20), (FIFTEENTH, 70, 2, 20), (SIXTEENTH, 55, 1, 20),
                          (SEVENTEENTH, 60, 1, 24), (EIGHTEENTH, 60, 1, 24), (NINETEENTH, 60, 1, 24),
                          (TWENTYFIRST, 60, 1, 24), (TWENTYSECOND, 60, 1, 24), (TWENTYTHIRD, 60, 1, 24),
                          (TWENTYFOURTH, 60, 1, 48)],
                         ids=["fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth",
                              "twentyfirst", "twentysecond", "twentythird", "twentyfourth"])
def test_fourteenth_to_nineteenth_sizes_and_spread(rows, conversations_at_least, fewest_earlier, no_calls_at_least):
    """Each set: 240 requests, about a third in each home; at least 70 (the sixteenth: 55, the seventeenth to
    nineteenth and twenty-first to twenty-fourth: 60) that are the last turn of a conversation, after 2 (the sixteenth
    to nineteenth and twenty-first to twenty-fourth: 1) to 5 earlier requests, and at least 20 (the seventeenth to
    nineteenth and twenty-first to twenty-third: 24; the twenty-fourth, which holds many names the home lacks: 48)
    that must make no call; every skill a single request can ask for, and every entity of both custom homes asked
    about by name."""
    assert [row["id"] for row in rows] == list(range(1, len(rows) + 1))
    assert len(rows) == 240
    assert all(n >= 75 for n in Counter(row["home"] for row in rows).values()) and len({r["home"] for r in rows}) == 3
    conversations = [len(row["history"]) // 2 for row in rows if len(row["history"]) > 1]
    assert len(conversations) >= conversations_at_least
    assert all(fewest_earlier <= earlier <= 5 for earlier in conversations)
    assert sum(row["expected"] is None for row in rows) >= no_calls_at_least
    calls = [row for row in rows if row["expected"] is not None]
    assert {row["expected"]["name"] for row in calls} == MODEL_SKILLS - {"confirm"}
    for name in ("discovered", "made_up"):
        missed = {e.key for e in HOMES[name].entities()} - {e.key for e in reached_in(calls, name)}
        assert not missed, (name, sorted(missed))


@pytest.mark.parametrize("name,row", [(name, row) for name, rows in DEV_SINGLE.items() for row in rows],
                         ids=lambda value: value if isinstance(value, str) else str(value["id"]))
def test_dev_requests_row(name, row):
    """The development sets of requests: one user turn each; a call the home can run, or none, and then a name the
    home lacks (nothing may change) or words that ask for nothing."""
    assert row["id"] == DEV_SINGLE[name].index(row) + 1
    assert set(row) - {"category"} == {"id", "home", "history", "expected"} and row["home"] in HOMES
    check_shape(row, set(row))
    assert len(row["history"]) == 1
    if row["expected"] is not None:
        assert "category" not in row
        check_call(row, whole_names=name == "paraphrases_dev_requests.jsonl")
    elif row.get("category") == "unknown_name":
        said = row["history"][-1]["content"]
        assert not [e.name for e in HOMES[row["home"]].entities() if e.name in said]
    else:
        assert "category" not in row
