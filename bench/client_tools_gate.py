"""What the word gate of assistant/client_tools.choose costs and stops, measured on the corpus's hand-written
domains (assistant/invented_tools.py), not on the held-out set:

    python bench/client_tools_gate.py [ROWS_PER_DOMAIN] [SEED]

For each domain, requests that ask its tool (its "asks") and requests about the same things that it does not
serve (its "near" misses), each with one invented declaration of the domain. A call is lost when the asked
tool shares no word root with the request; a refusal is made safe when the tool shares none, so that it is not
shown at all. Both with plain roots and with the related words of client_tools.RELATED.
"""
import random
import sys

from assistant.client_tools import Declared, related_stems, request_stems
from assistant.corpus import _ask, declaration
from assistant.invented_tools import DOMAINS


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    per_domain, seed = (int(argv[0]) if argv else 100), (int(argv[1]) if len(argv) > 1 else 4242)
    rng = random.Random(seed)
    counts = {"asks": [0, 0, 0], "near": [0, 0, 0]}          # rows, sharing a plain root, sharing a related one
    for domain in DOMAINS:
        for templates in ("asks", "near"):
            for _ in range(per_domain):
                tool = Declared.read(declaration(rng, domain)[0])
                said = request_stems(_ask(rng, domain, templates)[0])
                row = counts[templates]
                row[0] += 1
                row[1] += bool(tool.score(said))
                row[2] += bool(tool.score(related_stems(said)))
    asks, near = counts["asks"], counts["near"]
    print(f"{len(DOMAINS)} domains, {per_domain} rows each, seed {seed}")
    print("| gate | calls lost (asks whose tool is not shown) | near misses whose tool is not shown |")
    print("|---|---|---|")
    for label, k in (("plain roots", 1), ("roots and related words", 2)):
        print(f"| {label} | {1 - asks[k] / asks[0]:.1%} of {asks[0]} | {1 - near[k] / near[0]:.1%} of {near[0]} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
