"""Which gate of assistant/client_tools.read_declared declines a declared tool that a set's row asks for, counted
over a client-tools set's call rows, so that work goes to the gate that declines most (not to one row's words):

    python bench/client_tools_declines.py tests/data/dev_client_tools_eleventh_a [--rows]

A gate is the line of client_tools.evidence that returned None for the expected tool, or a later step of
read_declared: no reading of the values, values only of an unknown verb that are not typed, words left unread, or
another tool read stronger. Counts only unless --rows (never for a set whose rows are not to be read).
"""
import inspect
import sys
from collections import Counter

from assistant import client_tools
from assistant.client_tools import Request, Tool, _Reading, evidence, read_declared, typed
from bench.assistant_eval import client_tool_rows


def declined_at(tool: Tool, request: Request) -> tuple[object, int | None]:
    """evidence()'s answer, and the line it returned from."""
    lines: list[int] = []

    def tracer(frame, event, arg):
        if frame.f_code is evidence.__code__:
            if event == "return":
                lines.append(frame.f_lineno)
            return tracer
        return None
    sys.settrace(tracer)
    try:
        said = evidence(tool, request)
    finally:
        sys.settrace(None)
    return said, lines[-1] if lines else None


def gate(declarations: list[dict], text: str, expected: dict) -> str:
    """Why the expected tool is not read: an evidence line, or a later step."""
    decoded = read_declared(declarations, text)
    if decoded and decoded.call["name"] == expected["name"]:
        return "right tool" if decoded.call["arguments"] == expected["arguments"] else "right tool, other values"
    tools = [t for t in (Tool.read(d) for d in declarations) if t is not None]
    tool = next((t for t in tools if t.name == expected["name"]), None)
    if tool is None:
        return "declaration not read"
    request = Request(text, frozenset(t.verb for t in tools if t.verb))
    said, line = declined_at(tool, request)
    if said is None:
        source = inspect.getsourcelines(client_tools)[0][line - 2].strip() if line else "?"
        return f"evidence:{line} {source[:70]}"
    support, objects, named, by_values = said
    reading = _Reading(tool, request, only_required=not objects and not named)
    arguments = reading.read()
    if arguments is None:
        return "no values read"
    if by_values and not (arguments and all(typed(tool, k, v) for k, v in arguments.items())):
        return "unknown verb, values not typed"
    if (not objects and not named or tool.action == "remove" and not tool.parameters) and reading.left:
        return "words left unread"
    return "another tool read stronger" if decoded else "?"


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    show = "--rows" in argv
    rows = client_tool_rows(next(a for a in argv if not a.startswith("--")))
    counts = Counter()
    for row, declared in rows:
        if row["kind"] != "call":
            continue
        why = gate(list(declared.values()), row["request"], row["expect"])
        counts[why] += 1
        if show and not why.startswith("right tool"):
            print(f"{why[:40]:40} | {row['request']}")
    for why, n in counts.most_common():
        print(f"{n:4}  {why}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
