"""The held-out client-tool set is well-formed, so a score on it measures the model and not a typo in the set."""
import json
import re
from collections import Counter
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"
DECLARATIONS = json.loads((DATA / "heldout_client_tools.json").read_text(encoding="utf-8"))
TOOLS = {tool["name"]: tool for tool in DECLARATIONS}
ROWS = [json.loads(line) for line in (DATA / "heldout_client_tools.jsonl").read_text(encoding="utf-8").splitlines()]
NO_CALL_KINDS = {"near_miss", "unrelated", "chit_chat"}
JSON_TYPES = {"string": (str,), "integer": (int,), "number": (int, float), "boolean": (bool,)}


def normalised(text):
    return " ".join(text.casefold().split())


def fits(value, json_type):
    if isinstance(value, bool) and json_type != "boolean":
        return False
    return isinstance(value, JSON_TYPES[json_type])


def test_declarations_are_in_the_realtime_shape():
    assert len(DECLARATIONS) >= 36
    assert len(TOOLS) == len(DECLARATIONS), "tool names repeat"
    for tool in DECLARATIONS:
        assert set(tool) == {"type", "name", "description", "parameters"}, tool["name"]
        assert tool["type"] == "function"
        assert re.fullmatch(r"[A-Za-z0-9_-]{1,64}", tool["name"])
        assert tool["description"].strip() and "\n" not in tool["description"]
        parameters = tool["parameters"]
        assert parameters["type"] == "object"
        assert set(parameters.get("required", [])) <= set(parameters["properties"]), tool["name"]
        for name, schema in parameters["properties"].items():
            assert schema["type"] in JSON_TYPES, (tool["name"], name)
            assert schema["description"].strip(), (tool["name"], name)
            assert all(fits(member, schema["type"]) for member in schema.get("enum", [])), (tool["name"], name)


def test_declarations_vary_like_real_apps():
    arity = Counter(len(tool["parameters"]["properties"]) for tool in DECLARATIONS)
    assert arity[0] and arity[3] and arity[1] + arity[2] > len(DECLARATIONS) / 2
    schemas = [schema for tool in DECLARATIONS for schema in tool["parameters"]["properties"].values()]
    assert any("enum" in schema for schema in schemas)
    assert {"integer", "number"} <= {schema["type"] for schema in schemas}
    assert any(re.search(r"[a-z][A-Z]", name) for name in TOOLS) and any("_" in name for name in TOOLS)


def test_rows_count_and_kinds():
    assert len(ROWS) >= 130
    assert len({row["id"] for row in ROWS}) == len(ROWS)
    kinds = Counter(row["kind"] for row in ROWS)
    assert set(kinds) == {"call"} | NO_CALL_KINDS
    assert kinds["call"] >= 100 and sum(kinds[kind] for kind in NO_CALL_KINDS) >= 30


@pytest.mark.parametrize("row", ROWS, ids=lambda row: str(row["id"]))
def test_row_declares_known_tools(row):
    assert set(row) == {"id", "kind", "tools", "request", "expect"}
    assert 2 <= len(row["tools"]) <= 6 and len(set(row["tools"])) == len(row["tools"])
    assert set(row["tools"]) <= set(TOOLS)
    assert row["request"].strip()
    assert (row["expect"] is None) == (row["kind"] in NO_CALL_KINDS)


@pytest.mark.parametrize("row", [row for row in ROWS if row["expect"]], ids=lambda row: str(row["id"]))
def test_expected_call_fits_the_declared_schema(row):
    call = row["expect"]
    assert set(call) == {"name", "arguments"}
    assert call["name"] in row["tools"]
    parameters = TOOLS[call["name"]]["parameters"]
    assert set(parameters.get("required", [])) <= set(call["arguments"])
    for name, value in call["arguments"].items():
        schema = parameters["properties"][name]
        assert fits(value, schema["type"]), name
        if "enum" in schema:
            assert value in schema["enum"], name
        elif schema["type"] == "string":
            assert normalised(value) in normalised(row["request"]), f"{name}={value!r} is not a span of the request"


def test_every_declaration_is_called_somewhere():
    called = {row["expect"]["name"] for row in ROWS if row["expect"]}
    assert called == set(TOOLS)
