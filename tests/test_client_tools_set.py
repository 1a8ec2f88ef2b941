"""The held-out client-tool sets are well-formed, so a score on them measures the model and not a typo in a set."""
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from assistant.skills import valid_call
from bench.assistant_eval import client_tool_rows

DATA = Path(__file__).parent / "data"
NO_CALL_KINDS = {"near_miss", "unrelated", "chit_chat"}
# A request the home's own skills serve though a declared tool shares its domain (the ninth set's halves).
HOME_KIND = "home"
# A request that leaves out a required value: the assistant asks for it, and the user's answer (the row's "answer")
# completes the call (the sixteenth set's halves).
MISSING_KIND = "missing"
JSON_TYPES = {"string": (str,), "integer": (int,), "number": (int, float), "boolean": (bool,)}
# Types a request's words never fill: apps declare them (a nested object of options, a list of labels), only optional.
NESTED_TYPES = {"object", "array"}


def declarations_of(name: str) -> list[dict]:
    return json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))


def rows_of(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()]


# Each set: its files' name, and at least how many declarations, rows and call rows it has.
SETS = {"first": ("heldout_client_tools", 36, 130, 100), "second": ("heldout_client_tools_second", 30, 100, 65),
        "third": ("heldout_client_tools_third", 30, 100, 65), "fourth": ("heldout_client_tools_fourth", 30, 100, 65),
        "fifth": ("dev_client_tools_fifth", 35, 110, 70), "sixth": ("heldout_client_tools_sixth", 32, 110, 70),
        "seventh": ("dev_client_tools_seventh", 35, 120, 80), "eighth_a": ("dev_client_tools_eighth_a", 25, 80, 50),
        "eighth_b": ("dev_client_tools_eighth_b", 25, 80, 50), "ninth_a": ("dev_client_tools_ninth_a", 25, 80, 50),
        "ninth_b": ("dev_client_tools_ninth_b", 25, 80, 50), "tenth": ("heldout_client_tools_tenth", 32, 110, 70),
        "eleventh_a": ("dev_client_tools_eleventh_a", 25, 80, 50),
        "eleventh_b": ("dev_client_tools_eleventh_b", 25, 80, 50),
        "twelfth_a": ("dev_client_tools_twelfth_a", 20, 70, 44),
        "twelfth_b": ("dev_client_tools_twelfth_b", 20, 70, 44),
        "fourteenth_a": ("dev_client_tools_fourteenth_a", 12, 50, 24),
        "fourteenth_b": ("dev_client_tools_fourteenth_b", 12, 50, 24),
        "fifteenth_a": ("dev_client_tools_fifteenth_a", 10, 50, 24),
        "fifteenth_b": ("dev_client_tools_fifteenth_b", 10, 50, 24),
        "sixteenth_a": ("dev_client_tools_sixteenth_a", 20, 70, 40),
        "sixteenth_b": ("dev_client_tools_sixteenth_b", 20, 70, 40),
        "nineteenth_a": ("dev_client_tools_nineteenth_a", 12, 50, 24),
        "nineteenth_b": ("dev_client_tools_nineteenth_b", 12, 50, 24),
        "heldout_eleventh": ("heldout_client_tools_eleventh", 32, 110, 70),
        "heldout_seventeenth": ("heldout_client_tools_seventeenth", 32, 110, 70),
        "heldout_eighteenth": ("heldout_client_tools_eighteenth", 32, 110, 70),
        "heldout_twentieth": ("heldout_client_tools_twentieth", 32, 110, 70),
        "heldout_twentyfirst": ("heldout_client_tools_twentyfirst", 32, 110, 70),
        "heldout_twentysecond": ("heldout_client_tools_twentysecond", 32, 110, 70)}
# The sets each later set's tool names must differ from: the fifth and seventh, development sets, are compared
# with the read sets only, so that writing them needed nothing of the blind fourth and sixth; the sixth, blind,
# with the read sets and the fifth; the eighth's two halves with the read sets, the fifth and seventh, and each other;
# the tenth, blind, with every set but the blind fourth and sixth; the eleventh held-out set, blind, with every set
# but the blind sixth and tenth; the seventeenth, blind, with every set but the blind sixth and eleventh; the
# eighteenth, blind, with the same sets as the seventeenth (not with the blind seventeenth itself); the twentieth,
# blind, with those and the sixth and nineteenth's halves, read by then (not with the blind eleventh, seventeenth and
# eighteenth); the twenty-first, blind, with the same sets as the twentieth (not with the blind eleventh,
# seventeenth, eighteenth and twentieth); the twenty-second, blind, with the same sets again (not with the blind
# eleventh, seventeenth, eighteenth, twentieth and twenty-first).
# The sets read by whoever writes a blind set (the fourth became a read development set in round 25).
READ_SETS = ["first", "second", "third", "fourth", "fifth", "seventh", "eighth_a", "eighth_b", "ninth_a", "ninth_b",
             "eleventh_a", "eleventh_b", "twelfth_a", "twelfth_b", "fourteenth_a", "fourteenth_b", "fifteenth_a",
             "fifteenth_b", "sixteenth_a", "sixteenth_b"]
EARLIER = {"third": ["first", "second"], "fourth": ["first", "second", "third"],
           "fifth": ["first", "second", "third"], "sixth": ["first", "second", "third", "fifth"],
           "seventh": ["first", "second", "third", "fifth"],
           "eighth_a": ["first", "second", "third", "fifth", "seventh"],
           "eighth_b": ["first", "second", "third", "fifth", "seventh", "eighth_a"],
           "ninth_a": ["first", "second", "third", "fifth", "seventh", "eighth_a", "eighth_b"],
           "ninth_b": ["first", "second", "third", "fifth", "seventh", "eighth_a", "eighth_b", "ninth_a"],
           "tenth": ["first", "second", "third", "fifth", "seventh", "eighth_a", "eighth_b", "ninth_a", "ninth_b"],
           "eleventh_a": ["first", "second", "third", "fifth", "seventh", "eighth_a", "eighth_b", "ninth_a", "ninth_b"],
           "eleventh_b": ["first", "second", "third", "fifth", "seventh", "eighth_a", "eighth_b", "ninth_a", "ninth_b",
                          "eleventh_a"],
           "twelfth_a": ["first", "second", "third", "fifth", "seventh", "eighth_a", "eighth_b", "ninth_a", "ninth_b",
                         "eleventh_a", "eleventh_b"],
           "twelfth_b": ["first", "second", "third", "fifth", "seventh", "eighth_a", "eighth_b", "ninth_a", "ninth_b",
                         "eleventh_a", "eleventh_b", "twelfth_a"],
           "fourteenth_a": ["first", "second", "third", "fifth", "seventh", "eighth_a", "eighth_b", "ninth_a",
                            "ninth_b", "eleventh_a", "eleventh_b", "twelfth_a", "twelfth_b"],
           "fourteenth_b": ["first", "second", "third", "fifth", "seventh", "eighth_a", "eighth_b", "ninth_a",
                            "ninth_b", "eleventh_a", "eleventh_b", "twelfth_a", "twelfth_b", "fourteenth_a"],
           "fifteenth_a": ["first", "second", "third", "fifth", "seventh", "eighth_a", "eighth_b", "ninth_a",
                           "ninth_b", "eleventh_a", "eleventh_b", "twelfth_a", "twelfth_b", "fourteenth_a",
                           "fourteenth_b"],
           "fifteenth_b": ["first", "second", "third", "fifth", "seventh", "eighth_a", "eighth_b", "ninth_a",
                           "ninth_b", "eleventh_a", "eleventh_b", "twelfth_a", "twelfth_b", "fourteenth_a",
                           "fourteenth_b", "fifteenth_a"],
           "sixteenth_a": ["first", "second", "third", "fifth", "seventh", "eighth_a", "eighth_b", "ninth_a",
                           "ninth_b", "eleventh_a", "eleventh_b", "twelfth_a", "twelfth_b", "fourteenth_a",
                           "fourteenth_b", "fifteenth_a", "fifteenth_b"],
           "sixteenth_b": ["first", "second", "third", "fifth", "seventh", "eighth_a", "eighth_b", "ninth_a",
                           "ninth_b", "eleventh_a", "eleventh_b", "twelfth_a", "twelfth_b", "fourteenth_a",
                           "fourteenth_b", "fifteenth_a", "fifteenth_b", "sixteenth_a"],
           "nineteenth_a": READ_SETS + ["tenth"], "nineteenth_b": READ_SETS + ["tenth", "nineteenth_a"],
           "heldout_eleventh": READ_SETS, "heldout_seventeenth": READ_SETS + ["tenth"],
           "heldout_eighteenth": READ_SETS + ["tenth"],
           "heldout_twentieth": READ_SETS + ["tenth", "sixth", "nineteenth_a", "nineteenth_b"],
           "heldout_twentyfirst": READ_SETS + ["tenth", "sixth", "nineteenth_a", "nineteenth_b"],
           "heldout_twentysecond": READ_SETS + ["tenth", "sixth", "nineteenth_a", "nineteenth_b"]}
DECLARATIONS = {key: declarations_of(name) for key, (name, *_) in SETS.items()}
TOOLS = {key: {tool["name"]: tool for tool in declarations} for key, declarations in DECLARATIONS.items()}
ROWS = {key: rows_of(name) for key, (name, *_) in SETS.items()}
ALL_ROWS = [(key, row) for key, rows in ROWS.items() for row in rows]


def normalised(text):
    return " ".join(text.casefold().split())


def fits(value, json_type):
    if isinstance(value, bool) and json_type != "boolean":
        return False
    return isinstance(value, JSON_TYPES[json_type])


@pytest.mark.parametrize("key", SETS)
def test_declarations_are_in_the_realtime_shape(key):
    declarations = DECLARATIONS[key]
    assert len(declarations) >= SETS[key][1]
    assert len(TOOLS[key]) == len(declarations), "tool names repeat"
    for tool in declarations:
        assert set(tool) == {"type", "name", "description", "parameters"}, tool["name"]
        assert tool["type"] == "function"
        assert re.fullmatch(r"[A-Za-z0-9_-]{1,64}", tool["name"])
        assert tool["description"].strip() and "\n" not in tool["description"]
        parameters = tool["parameters"]
        assert parameters["type"] == "object"
        assert set(parameters.get("required", [])) <= set(parameters["properties"]), tool["name"]
        for name, schema in parameters["properties"].items():
            assert schema["type"] in JSON_TYPES or schema["type"] in NESTED_TYPES and \
                name not in parameters.get("required", []), (tool["name"], name)
            assert schema["description"].strip(), (tool["name"], name)
            assert all(fits(member, schema["type"]) for member in schema.get("enum", [])), (tool["name"], name)


@pytest.mark.parametrize("key", SETS)
def test_declarations_vary_like_real_apps(key):
    declarations = DECLARATIONS[key]
    arity = Counter(len(tool["parameters"]["properties"]) for tool in declarations)
    assert arity[0] and arity[3] and arity[1] + arity[2] > len(declarations) / 2
    schemas = [schema for tool in declarations for schema in tool["parameters"]["properties"].values()]
    assert any("enum" in schema for schema in schemas)
    assert {"integer", "number"} <= {schema["type"] for schema in schemas}
    assert any(re.search(r"[a-z][A-Z]", name) for name in TOOLS[key]) and any("_" in name for name in TOOLS[key])


def test_second_set_declares_new_tools_in_kebab_case_too():
    """The second set is held out from the first: none of its tools is one of the first's, and its names also
    come in kebab-case, as some apps write them."""
    assert not set(TOOLS["second"]) & set(TOOLS["first"])
    assert any("-" in name for name in TOOLS["second"])


@pytest.mark.parametrize("key", EARLIER)
def test_later_set_declares_new_tools_in_every_casing(key):
    """The third set is held out from both before it, the fourth and fifth from the first three, the sixth and
    seventh from those and the fifth, the eighth's halves from the read ones: none of its tools is named as one of
    theirs, even with the case and separators set aside, and its names come in snake_case, camelCase, kebab-case and
    PascalCase."""
    plain = lambda names: {re.sub(r"[-_]", "", name).casefold() for name in names}  # noqa: E731
    assert not plain(TOOLS[key]) & set().union(*(plain(TOOLS[other]) for other in EARLIER[key]))
    names = TOOLS[key]
    assert any("-" in name for name in names) and any("_" in name for name in names)
    assert any(re.fullmatch(r"[a-z]+(?:[A-Z0-9][a-z0-9]*)+", name) for name in names)
    assert any(re.fullmatch(r"(?:[A-Z][a-z0-9]+){2,}", name) for name in names)


@pytest.mark.parametrize("key", SETS)
def test_rows_count_and_kinds(key):
    rows = ROWS[key]
    assert len(rows) >= SETS[key][2]
    assert len({row["id"] for row in rows}) == len(rows)
    kinds = Counter(row["kind"] for row in rows)
    assert set(kinds) - {HOME_KIND, MISSING_KIND} == {"call"} | NO_CALL_KINDS
    assert kinds["call"] >= SETS[key][3] and sum(kinds[kind] for kind in NO_CALL_KINDS) >= 30


@pytest.mark.parametrize("key, row", ALL_ROWS, ids=[f"{key}-{row['id']}" for key, row in ALL_ROWS])
def test_row_declares_known_tools(key, row):
    assert set(row) == {"id", "kind", "tools", "request", "expect"} | ({"answer"} if row["kind"] == MISSING_KIND else set())
    assert 2 <= len(row["tools"]) <= 6 and len(set(row["tools"])) == len(row["tools"])
    assert set(row["tools"]) <= set(TOOLS[key])
    assert row["request"].strip()
    assert (row["expect"] is None) == (row["kind"] in NO_CALL_KINDS)


CALL_ROWS = [(key, row) for key, row in ALL_ROWS if row["kind"] in ("call", MISSING_KIND)]
HOME_ROWS = [(key, row) for key, row in ALL_ROWS if row["kind"] == HOME_KIND]


@pytest.mark.parametrize("key, row", CALL_ROWS, ids=[f"{key}-{row['id']}" for key, row in CALL_ROWS])
def test_expected_call_fits_the_declared_schema(key, row):
    call = row["expect"]
    assert set(call) == {"name", "arguments"}
    assert call["name"] in row["tools"]
    parameters = TOOLS[key][call["name"]]["parameters"]
    assert set(parameters.get("required", [])) <= set(call["arguments"])
    for name, value in call["arguments"].items():
        schema = parameters["properties"][name]
        assert fits(value, schema["type"]), name
        if "enum" in schema:
            assert value in schema["enum"], name
        elif schema["type"] == "string":
            said = normalised(row["request"] + " " + row.get("answer", ""))
            assert normalised(value) in said, f"{name}={value!r} is not a span of the request (or the answer)"


@pytest.mark.parametrize("key, row", HOME_ROWS, ids=[f"{key}-{row['id']}" for key, row in HOME_ROWS])
def test_home_row_expects_a_skill_beside_a_tool_of_its_domain(key, row):
    """A home row asks for a built-in skill's call (judged by its effect on the home), not a declared tool's."""
    assert valid_call(row["expect"]) and row["expect"]["name"] not in row["tools"]


@pytest.mark.parametrize("key", ["ninth_a", "ninth_b"])
def test_ninth_set_has_home_rows(key):
    assert sum(row["kind"] == HOME_KIND for row in ROWS[key]) >= 6


@pytest.mark.parametrize("key", SETS)
def test_every_declaration_is_called_twice(key):
    called = Counter(row["expect"]["name"] for row in ROWS[key] if row["kind"] == "call")
    assert set(called) == set(TOOLS[key]) and min(called.values()) >= 2


@pytest.mark.parametrize("key", ["second", "third", "fourth", "fifth", "sixth", "seventh", "eighth_a", "eighth_b",
                                 "ninth_a", "ninth_b", "tenth", "eleventh_a", "eleventh_b", "twelfth_a", "twelfth_b",
                                 "fourteenth_a", "fourteenth_b", "fifteenth_a", "fifteenth_b", "sixteenth_a",
                                 "sixteenth_b", "nineteenth_a", "nineteenth_b", "heldout_eleventh",
                                 "heldout_seventeenth", "heldout_eighteenth", "heldout_twentieth",
                                 "heldout_twentyfirst", "heldout_twentysecond"])
def test_blind_set_spread(key):
    """Beside its calls, about 15 near misses, 10 unrelated requests and 5 of chit-chat."""
    kinds = Counter(row["kind"] for row in ROWS[key])
    assert kinds["near_miss"] >= 12 and kinds["unrelated"] >= 8 and kinds["chit_chat"] >= 4


@pytest.mark.parametrize("key", ["third", "fourth", "fifth", "sixth", "seventh", "eighth_a", "eighth_b", "ninth_a",
                                 "ninth_b", "tenth", "eleventh_a", "eleventh_b", "twelfth_a", "twelfth_b", "fourteenth_a",
                                 "fourteenth_b", "fifteenth_a", "fifteenth_b", "sixteenth_a", "sixteenth_b",
                                 "nineteenth_a", "nineteenth_b", "heldout_eleventh", "heldout_seventeenth",
                                 "heldout_eighteenth", "heldout_twentieth", "heldout_twentyfirst",
                                 "heldout_twentysecond"])
def test_later_set_declares_a_boolean(key):
    schemas = [schema for tool in DECLARATIONS[key] for schema in tool["parameters"]["properties"].values()]
    assert any(schema["type"] == "boolean" for schema in schemas)


@pytest.mark.parametrize("key", SETS)
def test_the_eval_loads_the_set(key):
    """bench/assistant_eval.py --client-tools reads each row with its declarations, as the files hold them."""
    loaded = client_tool_rows(str(DATA / SETS[key][0]))
    assert [row for row, _ in loaded] == ROWS[key]
    for row, declared in loaded:
        assert list(declared) == row["tools"] and all(declared[name] == TOOLS[key][name] for name in declared)


def test_tenth_set_requests_are_new():
    """No request of the tenth set is said twice in it or equals a request of a set written before it (named by id
    only, so that the earlier sets' rows are not read through this test). The sets from the eleventh on were written
    after it, without sight of it."""
    said = [normalised(row["request"]) for row in ROWS["tenth"]]
    assert len(set(said)) == len(said), [row["id"] for row, text in zip(ROWS["tenth"], said) if said.count(text) > 1]
    earlier = {normalised(row["request"]) for key, rows in ROWS.items()
               if key not in ("tenth", "eleventh_a", "eleventh_b", "twelfth_a", "twelfth_b", "fourteenth_a", "fourteenth_b",
                              "fifteenth_a", "fifteenth_b", "sixteenth_a", "sixteenth_b", "heldout_eleventh")
               for row in rows}
    assert not [row["id"] for row, text in zip(ROWS["tenth"], said) if text in earlier]


def test_eleventh_set_requests_are_new():
    """No request of the eleventh held-out set is said twice in it or equals a request of a read set (named by id
    only); it was written without sight of the blind sixth and tenth."""
    said = [normalised(row["request"]) for row in ROWS["heldout_eleventh"]]
    assert len(set(said)) == len(said)
    earlier = {normalised(row["request"]) for key in READ_SETS for row in ROWS[key]}
    assert not [row["id"] for row, text in zip(ROWS["heldout_eleventh"], said) if text in earlier]


@pytest.mark.parametrize("key", ["heldout_seventeenth", "heldout_eighteenth", "heldout_twentieth",
                                 "heldout_twentyfirst", "heldout_twentysecond"])
def test_seventeenth_to_twentieth_set_requests_are_new(key):
    """No request of the seventeenth, eighteenth, twentieth, twenty-first or twenty-second held-out set is said twice
    in it or equals a request of a set read when it was written (named by id only); each was written without sight of
    the other blind sets."""
    said = [normalised(row["request"]) for row in ROWS[key]]
    assert len(set(said)) == len(said)
    earlier = {normalised(row["request"]) for other in EARLIER[key] for row in ROWS[other]}
    assert not [row["id"] for row, text in zip(ROWS[key], said) if text in earlier]


MISSING_ROWS = [(key, row) for key, row in ALL_ROWS if row["kind"] == MISSING_KIND]


@pytest.mark.parametrize("key, row", MISSING_ROWS, ids=[f"{key}-{row['id']}" for key, row in MISSING_ROWS])
def test_missing_row_leaves_a_required_value_to_the_answer(key, row):
    """The request alone does not say some required value; the answer does."""
    required = TOOLS[key][row["expect"]["name"]]["parameters"]["required"]
    left_out = [name for name in required
                if normalised(str(row["expect"]["arguments"][name])) not in normalised(row["request"])]
    assert left_out and row["answer"].strip()


@pytest.mark.parametrize("key", ["sixteenth_a", "sixteenth_b"])
def test_sixteenth_set_has_missing_rows(key):
    assert sum(row["kind"] == MISSING_KIND for row in ROWS[key]) >= 5
