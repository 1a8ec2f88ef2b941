"""Client tools declared in the Realtime shape, and the decoder's reading of a request with them: shared by the
tests of the decoder's mechanisms (one per development set)."""
from assistant.client_tools import decode


def tool(name: str, description: str, required=(), **properties) -> dict:
    """A declaration in the Realtime shape; each property as (type, description) or (type, description, enum)."""
    return {"type": "function", "name": name, "description": description,
            "parameters": {"type": "object", "required": list(required), "properties": {
                key: {"type": kind, "description": text, **({"enum": list(enum[0])} if enum else {})}
                for key, (kind, text, *enum) in properties.items()}}}


def reading(tools: list[dict], text: str) -> tuple[str, dict] | None:
    call = decode(tools, text)
    return call and (call["name"], call["arguments"])
