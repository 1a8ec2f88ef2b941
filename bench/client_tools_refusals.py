"""Why a request that a declared tool serves gets no call, sorted by the stage that says no, over the read
client-tools sets (or the sets named), so that work goes to the largest reason rather than to one row's words:

    python bench/client_tools_refusals.py [SET ...] [--rows]

Each row whose declared tool serves it is asked as bench/assistant_eval.py asks it ("4 passes"). A row with no
call and no question back is sorted by what assistant.client_tools.read_declared makes of it alone: a right call
that the reply did not make (the embedded path held its own reply), or the gate that declined the tool
(bench/client_tools_declines.gate: a line of client_tools.evidence, no values read, words left unread, another
tool read stronger). Counts only unless --rows (never for a set whose rows are not to be read). With no SET, the
read sets of docs/assistant.md: the first three held-out sets, the fifth and seventh development sets, the A halves
of the later ones, and the odd request ids of the fourth, tenth and sixth held-out sets.
"""
import asyncio
import dataclasses
import sys
from collections import Counter
from pathlib import Path

from assistant.client_tools import read_declared
from assistant.embedded import DEFAULT_DECODE, EmbeddedGenerator
from assistant.generator import DoneEvent, respond_sync
from assistant.skills import SKILLS
from assistant.tools import ToolRunner
from bench.assistant_eval import client_tool_rows, new_home, same_client_call
from bench.client_tools_declines import gate

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
READ_WHOLE = ["heldout_client_tools", "heldout_client_tools_second", "heldout_client_tools_third",
              "dev_client_tools_fifth", "dev_client_tools_seventh"] + \
    [f"dev_client_tools_{n}_a" for n in ("eighth", "ninth", "eleventh", "twelfth", "fourteenth", "fifteenth",
                                         "sixteenth", "nineteenth")]
READ_ODD = ["heldout_client_tools_fourth", "heldout_client_tools_tenth", "heldout_client_tools_sixth"]


def read_rows(names: list[str]) -> list[tuple[str, dict, dict]]:
    """(set, row, declared tools) of the sets named, or of the read sets (odd ids only where only those are read)."""
    sets = [(name, False) for name in names] or [(n, False) for n in READ_WHOLE] + [(n, True) for n in READ_ODD]
    return [(name, row, declared) for name, odd in sets for row, declared in client_tool_rows(str(DATA / name))
            if not odd or row["id"] % 2]


def reason(assistant, row: dict, declared: dict, quoted: bool) -> str:
    """"right", "wrong call", "question back", or why no call was made (quoted: with the reply's words)."""
    async def collect():
        history = [{"role": "user", "content": row["request"]}]
        async for event in assistant.respond(history, ToolRunner(new_home(row.get("home", "default"))),
                                             client_tools=declared):
            if isinstance(event, DoneEvent):
                return event.reply
    reply = asyncio.run(collect())
    got = [{"name": c.name, "arguments": c.arguments} for c in reply.tool_calls]
    if got:
        return "right" if len(got) == 1 and same_client_call(row["expect"], got[0]) else "wrong call"
    if reply.text.rstrip().endswith("?"):
        return "question back"
    tools = [tool for name, tool in declared.items() if name not in SKILLS]
    alone = read_declared(tools, row["request"])
    if alone is not None and alone.asks is None and alone.call["name"] == row["expect"]["name"]:
        return f"read by code, reply held: {reply.text[:40]!r}" if quoted else "read by code, reply held"
    return "code: " + gate(tools, row["request"], row["expect"])



def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    show_rows = "--rows" in argv
    rows = [r for r in read_rows([a for a in argv if not a.startswith("--")])
            if r[1].get("kind") == "call" and r[1]["expect"] and r[1]["expect"]["name"] in r[2]]
    base = EmbeddedGenerator.load(None)
    budget = dataclasses.replace(DEFAULT_DECODE, max_forward_passes=4)
    assistant = EmbeddedGenerator(base.model, base.config, base.tokenizer, budget, base.max_prompt)
    respond_sync(assistant, [{"role": "user", "content": "hello"}], ToolRunner())     # warm-up
    counts = Counter()
    for name, row, declared in rows:
        why = reason(assistant, row, declared, show_rows)
        counts[why] += 1
        if show_rows and why not in ("right", "wrong call", "question back"):
            print(f"{why[:60]:60} | {name}#{row['id']} | {row['request']} | {row['expect']['name']}", flush=True)
    print(f"{len(rows)} rows a declared tool serves")
    for why, n in counts.most_common():
        print(f"{n:4}  {why}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
