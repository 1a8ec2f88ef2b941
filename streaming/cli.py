"""The `parley` command: one entry point that hands each subcommand to the module that owns it."""
import importlib
import sys

SUBCOMMANDS = {
    "serve": ("streaming.server", "Run the voice server (Realtime WebSocket, web page, phone and device transports)."),
    "chat": ("assistant.chat_cli", "Chat with the assistant in text (interactive, --json, --once)."),
    "train": ("assistant.train", "Train the embedded diffusion assistant model."),
    "generator": ("assistant.generator_server", "The generator as an OpenAI-compatible service: `parley generator serve`."),
    "dllm": ("dllm_core.golden", "Diffusion engine tools: `parley dllm golden CHECKPOINT_DIR CASES_JSON`."),
}


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help") or argv[0] not in SUBCOMMANDS:
        print("usage: parley {" + ",".join(SUBCOMMANDS) + "} ...\n")
        for name, (_, help_text) in SUBCOMMANDS.items():
            print(f"  {name:<9} {help_text}")
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    module = importlib.import_module(SUBCOMMANDS[argv[0]][0])
    return module.main(argv[1:])


if __name__ == "__main__":
    sys.exit(main())
