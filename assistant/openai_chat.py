"""OpenAI `/v1/chat/completions` as Parley's generator server speaks it: requests in, JSON objects out.

Pure functions, no sockets: parse_request checks a request body and raises ApiError (an OpenAI-shaped error
with its HTTP status) when it is wrong; the builders make `chat.completion` objects, `chat.completion.chunk`s
and error bodies.

Parley's extensions: a request may carry `parley.home = {"names": [...], "areas": [...], "kinds": {...},
"places": {...}}`, the names of the user's own home (see chat_template.model_prompt), each thing's component, what
a follow-up's verb can act on, and each thing's area, what "in that room" or "both" stands for (inventory.Lexicon); a reply that calls a tool carries `message.parley = {"reply": "..."}` (streamed as
`delta.parley = {"reply": piece}`), the spoken reply with a literal `{result}` slot. A Parley gateway runs
the tool and fills the slot, so one request gives call and speech; any other OpenAI client sees a normal
`tool_calls` answer and sends the tool's output back as usual.
"""
import json
from dataclasses import dataclass, field

from assistant.inventory import Lexicon
from assistant.skills import SKILLS
from assistant.tool_declarations import DeclarationError, check_declarations

ROLES = ("system", "developer", "user", "assistant", "tool")
MAX_HOME_PHRASES = 20_000               # names and their parts, areas: a home of Inventory.MAX_ENTITIES fits
MAX_PHRASE_CHARS = 200
SEEDS = range(-2 ** 63, 2 ** 63)        # OpenAI's seed is an int64
# Commas and brackets a body may hold: each JSON value past a container's first follows a comma, so this bounds what
# its parse builds. The C parser keeps the interpreter's lock, so even off the event loop a 1 MiB body of `[],` held
# it 0.98 s (load 8). A Parley gateway's request is at most 256 KiB of names and conversation, far fewer values.
MAX_BODY_VALUES = 100_000


class ApiError(Exception):
    """An OpenAI-shaped error: {"error": {"type", "message", "code"?, "param"?}} with this HTTP status."""

    def __init__(self, status: int, message: str, *, type: str = "invalid_request_error",
                 code: str | None = None, param: str | None = None, headers: dict | None = None):
        super().__init__(message)
        self.status, self.message, self.type, self.code, self.param = status, message, type, code, param
        self.headers = headers or {}

    def body(self) -> dict:
        error = {"type": self.type, "message": self.message}
        if self.code is not None:
            error["code"] = self.code
        if self.param is not None:
            error["param"] = self.param
        return {"error": error}


@dataclass
class ChatRequest:
    messages: list[dict]
    tools: dict[str, dict] = field(default_factory=dict)   # name -> OpenAI function declaration
    tool_choice: str = "auto"            # "auto", "none", "required", or the one function name allowed
    stream: bool = False
    include_usage: bool = False
    max_tokens: int | None = None
    temperature: float | None = None     # None: the server's decoding (greedy)
    seed: int | None = None
    model: str | None = None
    home: Lexicon | None = None          # (name phrases, area phrases) and kinds: the user's own home

    def offers(self, name: str) -> bool:
        """May the reply call this tool? It must be declared, and tool_choice must allow it."""
        if name not in self.tools or self.tool_choice == "none":
            return False
        return self.tool_choice in ("auto", "required") or self.tool_choice == name


def _bad(message: str, param: str | None = None, code: str = "invalid_value") -> ApiError:
    return ApiError(400, message, code=code, param=param)


def parse_request(body: bytes) -> ChatRequest:
    """The request in a body, or ApiError(400) saying which field is wrong (413 past MAX_BODY_VALUES)."""
    if len(body) > MAX_BODY_VALUES and (values := sum(map(body.count, (b",", b"[", b"{")))) > MAX_BODY_VALUES:
        raise ApiError(413, f"the body may hold at most {MAX_BODY_VALUES} commas and brackets (JSON values), "
                       f"this one has {values}", code="request_too_large")
    try:
        data = json.loads(body)
        json.dumps(data, ensure_ascii=False).encode()   # a lone surrogate (\\ud800) is JSON, but no text
    except RecursionError:
        raise _bad("the body nests too deeply", code="invalid_json") from None
    except UnicodeEncodeError:
        raise _bad("the body holds a lone surrogate: \\ud800-\\udfff escapes come in pairs",
                   code="invalid_json") from None
    except (ValueError, UnicodeDecodeError):
        raise _bad("the body is not valid JSON", code="invalid_json") from None
    if not isinstance(data, dict):
        raise _bad("the body must be a JSON object", code="invalid_json")
    request = ChatRequest(messages=_messages(data.get("messages")))
    request.tools = _tools(data.get("tools"))
    request.tool_choice = _tool_choice(data.get("tool_choice"), request.tools)
    request.stream = _flag(data, "stream")
    options = data.get("stream_options")
    if options is not None:
        if not isinstance(options, dict):
            raise _bad("stream_options must be an object", "stream_options")
        request.include_usage = _flag(options, "include_usage", "stream_options.include_usage")
    for name in ("max_completion_tokens", "max_tokens"):
        value = data.get(name)
        if value is not None:
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise _bad(f"{name} must be a positive integer", name)
            request.max_tokens = value
    temperature = data.get("temperature")
    if temperature is not None:
        if not isinstance(temperature, (int, float)) or isinstance(temperature, bool) or not 0 <= temperature <= 2:
            raise _bad("temperature must be a number from 0 to 2", "temperature")
        request.temperature = float(temperature)
    seed = data.get("seed")
    if seed is not None:
        if not isinstance(seed, int) or isinstance(seed, bool) or seed not in SEEDS:
            raise _bad("seed must be an integer from -2^63 to 2^63 - 1", "seed")
        request.seed = seed
    n = data.get("n")
    if n is not None and n != 1:
        raise _bad("only n=1 is supported", "n")
    model = data.get("model")
    if model is not None and not isinstance(model, str):
        raise _bad("model must be a string", "model")
    request.model = model
    request.home = _home(data.get("parley"))
    return request


def _home(extension) -> tuple[set[str], set[str]] | None:
    if extension is None:
        return None
    if not isinstance(extension, dict):
        raise _bad("parley must be an object", "parley")
    home = extension.get("home")
    if home is None:
        return None
    if not isinstance(home, dict):
        raise _bad("parley.home must be an object with names and areas", "parley.home")
    phrases = []
    for key in ("names", "areas"):
        values = home.get(key, [])
        if not isinstance(values, list) or not all(isinstance(v, str) and 0 < len(v) <= MAX_PHRASE_CHARS
                                                   for v in values):
            raise _bad(f"parley.home.{key} must be a list of names of 1 to {MAX_PHRASE_CHARS} characters",
                       f"parley.home.{key}")
        phrases.append({_phrase(v) for v in values} - {""})
    kinds, places = (_names_to(home, key, what) for key, what in (("kinds", "components"), ("places", "areas")))
    if sum(map(len, phrases)) > MAX_HOME_PHRASES or max(len(kinds), len(places)) > MAX_HOME_PHRASES:
        raise _bad(f"parley.home holds more than {MAX_HOME_PHRASES} names", "parley.home")
    return Lexicon(phrases[0], phrases[1], {_phrase(name): kind for name, kind in kinds.items()},
                   {_phrase(name): _phrase(area) for name, area in places.items()})


def _names_to(home: dict, key: str, what: str) -> dict:
    """`parley.home.kinds` or `.places`: each name of the home to its component or its area."""
    names_to = home.get(key, {})
    if not isinstance(names_to, dict) or not all(isinstance(v, str) and 0 < len(k) <= MAX_PHRASE_CHARS
                                                 and 0 < len(v) <= MAX_PHRASE_CHARS for k, v in names_to.items()):
        raise _bad(f"parley.home.{key} must map names to {what} of 1 to {MAX_PHRASE_CHARS} characters",
                   f"parley.home.{key}")
    return names_to


def _phrase(name: str) -> str:
    return " ".join(name.lower().split())


def _flag(data: dict, name: str, param: str | None = None) -> bool:
    value = data.get(name, False)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise _bad(f"{name} must be true or false", param or name)
    return value


def _messages(messages) -> list[dict]:
    if not isinstance(messages, list) or not messages:
        raise _bad("messages must be a non-empty array", "messages", "missing_required_parameter"
                   if messages is None else "invalid_value")
    for i, message in enumerate(messages):
        if not isinstance(message, dict):
            raise _bad(f"messages[{i}] must be an object", f"messages[{i}]")
        if message.get("role") not in ROLES:
            raise _bad(f"messages[{i}].role must be one of {', '.join(ROLES)}", f"messages[{i}].role")
        content = message.get("content")
        if content is not None and not isinstance(content, (str, list)):
            raise _bad(f"messages[{i}].content must be a string or an array of parts", f"messages[{i}].content")
        if isinstance(content, list) and not all(isinstance(part, dict) and _texts_are_strings(part)
                                                 for part in content):
            raise _bad(f"messages[{i}].content parts must be objects whose text is a string", f"messages[{i}].content")
        calls = message.get("tool_calls")
        if calls is not None and not (isinstance(calls, list) and all(_is_call(c) for c in calls)):
            raise _bad(f"messages[{i}].tool_calls must be an array of {{\"function\": {{\"name\": ..., "
                       "\"arguments\": a JSON object}}", f"messages[{i}].tool_calls")
    return messages


def _texts_are_strings(part: dict) -> bool:
    return all(isinstance(part.get(key), (str, type(None))) for key in ("text", "transcript"))


def _is_call(call) -> bool:
    """An assistant message's tool call: OpenAI's {function: {name, arguments}} (or Parley's {name, arguments}),
    its arguments an object or the JSON text of one."""
    function = call.get("function", call) if isinstance(call, dict) else None
    if not isinstance(function, dict) or not isinstance(function.get("name", ""), str):
        return False
    arguments = function.get("arguments", {})
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments or "{}")
        except (ValueError, RecursionError):
            return False
    return isinstance(arguments, dict)


def _tools(tools) -> dict[str, dict]:
    if tools is None:
        return {}
    if not isinstance(tools, list):
        raise _bad("tools must be an array", "tools")
    declared = {}
    for i, tool in enumerate(tools):
        function = tool.get("function") if isinstance(tool, dict) and tool.get("type") == "function" else None
        if not isinstance(function, dict) or not isinstance(function.get("name"), str) or not function["name"]:
            raise _bad(f"tools[{i}] must be {{\"type\": \"function\", \"function\": {{\"name\": ...}}}}",
                       f"tools[{i}]")
        declared[function["name"]] = function
    # a gateway sends its own skills beside its client's tools: only the client's are read, and bounded
    try:
        check_declarations([(f"tools[{i}].function", tool["function"]) for i, tool in enumerate(tools)
                            if tool["function"]["name"] not in SKILLS], "tools")
    except DeclarationError as error:
        raise _bad(error.message, error.param) from None
    return declared


def _tool_choice(choice, tools: dict) -> str:
    if choice is None:
        return "auto"
    if choice in ("auto", "none", "required"):
        return choice
    if isinstance(choice, dict) and choice.get("type") == "function" and isinstance(choice.get("function"), dict):
        name = choice["function"].get("name")
        if isinstance(name, str) and name in tools:
            return name
        raise _bad(f"tool_choice names {name!r}, which is not in tools", "tool_choice")
    raise _bad("tool_choice must be 'auto', 'none', 'required' or {\"type\": \"function\", "
               "\"function\": {\"name\": ...}}", "tool_choice")


# ---- responses

def tool_call_json(call_id: str, name: str, arguments: dict | str, index: int | None = None) -> dict:
    """A call as OpenAI writes it: arguments are a JSON string (one already encoded is kept). With index, the
    streamed (delta) form."""
    if not isinstance(arguments, str):
        arguments = json.dumps(arguments)
    call = {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}
    return call if index is None else {"index": index, **call}


def usage_json(prompt_tokens: int, completion_tokens: int) -> dict:
    return {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens}


def completion(completion_id: str, model: str, created: int, *, content: str | None, tool_calls: list[dict],
               parley_reply: str | None, finish_reason: str, usage: dict) -> dict:
    message: dict = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = tool_calls
    if parley_reply is not None:
        message["parley"] = {"reply": parley_reply}
    return {"id": completion_id, "object": "chat.completion", "created": created, "model": model,
            "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": finish_reason}],
            "usage": usage}


def chunk(completion_id: str, model: str, created: int, delta: dict | None, finish_reason: str | None = None,
          usage: dict | None = None) -> dict:
    """One `chat.completion.chunk`; delta None gives no choices (the include_usage chunk)."""
    choices = [] if delta is None else [{"index": 0, "delta": delta, "logprobs": None,
                                         "finish_reason": finish_reason}]
    body = {"id": completion_id, "object": "chat.completion.chunk", "created": created, "model": model,
            "choices": choices}
    if usage is not None:
        body["usage"] = usage
    return body


def sse(data: dict | str) -> bytes:
    """One server-sent event: `data: <json>` and a blank line."""
    return b"data: " + (data if isinstance(data, str) else json.dumps(data)).encode() + b"\n\n"
