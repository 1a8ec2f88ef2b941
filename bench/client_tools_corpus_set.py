"""Fresh rows of the tools preset's own corpus as a client-tools set for bench/assistant_eval.py --client-tools:

    python bench/client_tools_corpus_set.py OUT [ROWS] [SEED]
    python bench/assistant_eval.py --client-tools OUT --budgets '4 passes' --checkpoint runs/parley-tools

writes OUT.json (no shared declarations: each row carries its own) and OUT.jsonl, ROWS (300) rows of
assistant.corpus.gen_client_tool with SEED (4242, not the training corpus's 0), the last request of each, the
built-in skills' rows left out. A row's kind says whether its declarations are generated tools
(assistant/generated_tools.py) or the hand-written domains', and whether it is a call, a near miss or none.
"""
import json
import random
import sys
from pathlib import Path

from assistant.corpus import gen_client_tool
from assistant.invented_tools import DOMAINS

HAND_DESCRIPTIONS = {d for domain in DOMAINS.values() for d in domain["descriptions"]}
KINDS = {"client_tool": "call", "client_tool_near": "near", "client_tool_none": "none"}


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    out, n, seed = Path(argv[0]), (int(argv[1]) if len(argv) > 1 else 300), (int(argv[2]) if len(argv) > 2 else 4242)
    rng, rows = random.Random(seed), []
    while len(rows) < n:
        example = gen_client_tool(rng)
        if example.skill not in KINDS:
            continue
        generated = any(t["description"] not in HAND_DESCRIPTIONS for t in example.declared)
        rows.append({"id": len(rows) + 1, "kind": ("generated " if generated else "hand ") + KINDS[example.skill],
                     "tools": list(example.declared), "request": example.history[-1]["content"],
                     "expect": example.call})
    out.with_suffix(".json").write_text("[]\n")
    out.with_suffix(".jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
