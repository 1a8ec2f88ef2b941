"""`parley chat`: talk to the assistant in text.

    parley chat                         interactive; the conversation is kept, so follow-ups work
    parley chat --json < requests.txt   one request per line in, one JSON object per line out
    parley chat --once "what is seven times six" --json
    parley chat --home-inventory home.yaml  your own devices (an inventory file), acted on in memory

JSON lines: {"text", "tool_calls": [{"name", "arguments"}], "forward_passes", "tokens", "latency_ms"}.
Requests in --json mode share one conversation, like the interactive mode; --fresh answers each alone.
"""
import argparse
import dataclasses
import json
import sys

from assistant.embedded import DEFAULT_DECODE, EmbeddedGenerator
from assistant.generator import AssistantReply, Generator, respond_sync
from assistant.tools import ToolRunner


def reply_json(reply: AssistantReply) -> str:
    return json.dumps({
        "text": reply.text,
        "tool_calls": [{"name": c.name, "arguments": c.arguments} for c in reply.tool_calls],
        "forward_passes": reply.forward_passes,
        "tokens": reply.tokens,
        "latency_ms": round(reply.latency_ms, 2),
    })


class Conversation:
    """The history the chat template sees: user turns, and the assistant's calls and replies."""

    def __init__(self, generator: Generator, tools: ToolRunner, fresh: bool = False):
        self.generator, self.tools, self.fresh = generator, tools, fresh
        self.history: list[dict] = []

    def ask(self, text: str) -> AssistantReply:
        if self.fresh:
            self.history = []
        self.history.append({"role": "user", "content": text})
        reply = respond_sync(self.generator, self.history, self.tools)
        message = {"role": "assistant", "content": reply.text}
        if reply.tool_calls:
            message["tool_calls"] = [{"name": c.name, "arguments": c.arguments, "call_id": c.call_id}
                                     for c in reply.tool_calls]
        self.history.append(message)
        return reply


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="parley chat", description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="one request per stdin line, one JSON object per line")
    parser.add_argument("--once", metavar="TEXT", help="answer this one request and exit")
    parser.add_argument("--fresh", action="store_true", help="answer each request without the earlier ones")
    parser.add_argument("--checkpoint", help="checkpoint directory (default: the embedded one)")
    parser.add_argument("--home-inventory", metavar="FILE", help="YAML/JSON inventory of your devices (in memory)")
    parser.add_argument("--max-forward-passes", type=int, default=DEFAULT_DECODE.max_forward_passes,
                        help="network passes per reply (0 = the full schedule)")
    args = parser.parse_args(argv)

    passes = args.max_forward_passes or None
    decode = dataclasses.replace(DEFAULT_DECODE, max_forward_passes=passes)
    home = None
    if args.home_inventory:
        from assistant.home import InMemoryHome
        from assistant.inventory import load_inventory_file
        home = InMemoryHome(inventory=load_inventory_file(args.home_inventory))
    conversation = Conversation(EmbeddedGenerator.load(args.checkpoint, decode=decode), ToolRunner(home), fresh=args.fresh)

    def answer(text: str) -> None:
        reply = conversation.ask(text)
        if args.json:
            print(reply_json(reply), flush=True)
            return
        for call in reply.tool_calls:
            print(f"  [{call.name} {json.dumps(call.arguments)}]")
        print(f"parley> {reply.text}", flush=True)

    if args.once is not None:
        answer(args.once)
        return 0
    interactive = not args.json and sys.stdin.isatty()
    if interactive:
        print("Parley chat (empty line or Ctrl-D to quit)")
    while True:
        try:
            line = input("you> " if interactive else "")
        except EOFError:
            break
        if not line.strip():
            if interactive:
                break
            continue
        answer(line.strip())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
