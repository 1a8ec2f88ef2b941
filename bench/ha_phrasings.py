"""Home Assistant's own phrasings as requests: how Parley answers them without and with the second opinion.

    python bench/ha_phrasings.py [--per-intent 12] [--seed 7] [--errors] [--checkpoint DIR]

Requests are drawn (assistant.ha_requests) from the English templates of home-assistant-intents for the intents
a Parley skill serves (assistant.second_opinion.INTENT_SKILLS): each template of an intent is equally likely,
each alternative of it too, names and areas come from the home (the default home and the made-up home of
tests/made_up_home.py), numbers from the template's range. Templates that need a satellite's area ("turn on the
lights here") are left out, and a drawn sentence is kept only when hassil reads it back as the same intent, the
second opinion maps it to a call, and that call does what it asks in a fresh home (no "I don't know a device
called ..."). That call is the expected one, so this set measures how often the model alone refuses or misreads
Home Assistant's phrasings, and what the second opinion changes: it is not independent of the mapping
(tests/test_second_opinion.py checks the mapping's calls by hand). Scored as bench/assistant_eval.py
--paraphrases scores: right, refused (no call), wrong call.
"""
import argparse
import asyncio
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant.chat_template import NoAction  # noqa: E402
from assistant.embedded import EmbeddedGenerator  # noqa: E402
from assistant.ha_requests import draw_request  # noqa: E402
from assistant.second_opinion import INTENT_SKILLS, SecondOpinion  # noqa: E402
from assistant.tools import ToolRunner  # noqa: E402
from bench.assistant_eval import ask, calls_of, new_home, score  # noqa: E402

TIMER_NAMES = ["pasta", "tea", "laundry", "pizza"]


class NoOpinion:
    """The generator without its second opinion: every refusal stays a refusal."""

    def call(self, requests, inventory):
        return None


def serves(call: dict, kind: str) -> bool:
    """The call does what it asks in a fresh home of the kind: a template may put a name in an area it is not
    in ("is the tack room lock unlocked in the music room"), which no home answers."""
    result = asyncio.run(ToolRunner(new_home(kind)).run(call["name"], dict(call["arguments"])))
    return not isinstance(result, NoAction)


def requests(opinion: SecondOpinion, homes: dict, per_intent: int, rng: random.Random) -> list[dict]:
    rows = []
    for kind, inventory in homes.items():
        for intent_name in sorted({name for name, _ in INTENT_SKILLS}):
            kept, tries = {}, 0
            while len(kept) < per_intent and tries < per_intent * 40:
                tries += 1
                found = draw_request(opinion, inventory, intent_name, TIMER_NAMES, rng)
                if found is not None and found[0] not in kept and serves(found[1], kind):
                    text, expected = found
                    kept[text] = {"id": f"{kind}:{intent_name}:{len(kept)}", "home": kind, "intent": intent_name,
                                  "history": [{"role": "user", "content": text}], "expected": expected}
            rows += kept.values()
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--per-intent", type=int, default=12, help="requests drawn per intent and home")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--checkpoint", default=None, help="a checkpoint directory instead of the shipped one")
    parser.add_argument("--errors", action="store_true", help="list the requests answered wrong without or with it")
    args = parser.parse_args(argv)
    opinion = SecondOpinion.shared()
    homes = {kind: new_home(kind).inventory for kind in ("default", "made_up")}
    rows = requests(opinion, homes, args.per_intent, random.Random(args.seed))
    assistant = EmbeddedGenerator.load(args.checkpoint)
    table, changed = {}, []
    for column, second in (("without", NoOpinion()), ("with", opinion)):
        assistant.second_opinion = second
        right = refused = wrong = 0
        for row in rows:
            tools = ToolRunner(new_home(row["home"]))
            reply, acted, results = ask(assistant, row["history"], tools)
            ok = score(row, reply, acted, tools.home.inventory, results)
            right, refused = right + ok, refused + (not reply.tool_calls)
            wrong += not ok and bool(reply.tool_calls)
            row[column] = (ok, calls_of(reply), reply.text)
        table[column] = (right, refused, wrong)
    n = len(rows)
    print(f"{n} requests drawn from Home Assistant's templates ({args.per_intent} per intent and home, seed "
          f"{args.seed}; {len({r['intent'] for r in rows})} intents, homes: default, made_up)")
    print("| second opinion | right | refused | wrong call |\n|---|---|---|---|")
    for column, (right, refused, wrong) in table.items():
        print(f"| {column} | {right / n:.1%} | {refused / n:.1%} | {wrong / n:.1%} |")
    if args.errors:
        for row in rows:
            if not (row["without"][0] and row["with"][0]):
                print(f"{row['id']:<34} {row['history'][0]['content']!r}: want {row['expected']}; "
                      f"without {row['without'][1:]}; with {row['with'][1:]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
