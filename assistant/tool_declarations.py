"""Bounds on the tools a client declares (a Realtime session's tools, a chat completion's tools), checked at each
door before anything reads them: every turn of the session reads every declaration again (assistant.client_tools),
in a worker thread all sessions share, so a declaration's size is a cost of each of its turns."""
import re

MAX_TOOLS = 128                  # OpenAI's own bound on function tools
MAX_DECLARED_CHARS = 64 * 1024   # the declarations' keys, strings and items together (a test set's largest: 14,289)
MAX_SCHEMA_DEPTH = 32            # objects and arrays nested in one declaration (OpenAI's 10 levels of objects are 21)
MAX_ENUM_MEMBERS = 256           # enum values in all declarations together (a test set's most: 53)
TOOL_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")      # OpenAI's rule for a function's name


class DeclarationError(ValueError):
    def __init__(self, message: str, param: str):
        super().__init__(message)
        self.message, self.param = message, param


def check_count(count: int, param: str) -> None:
    """Checked before the declarations are read one by one."""
    if count > MAX_TOOLS:
        raise DeclarationError(f"{param} may hold at most {MAX_TOOLS} tools, this one has {count}", param)


def check_declarations(functions: list[tuple[str, dict]], param: str) -> None:
    """Raise DeclarationError naming the first bound the declared functions pass: each is (its param, {name,
    description, parameters}), all of them under param. The walk stops at the first bound passed, so a declaration
    of megabytes costs what one at the bound does."""
    check_count(len(functions), param)
    chars = members = 0
    for at, function in functions:
        name = function.get("name")
        if not isinstance(name, str) or not TOOL_NAME.fullmatch(name):
            raise DeclarationError(f"{at}.name must be 1 to 64 letters, digits, underscores or dashes", f"{at}.name")
        stack = [(function, 0)]
        while stack:
            value, depth = stack.pop()
            if depth > MAX_SCHEMA_DEPTH:
                raise DeclarationError(f"{at} nests objects and arrays more than {MAX_SCHEMA_DEPTH} deep", at)
            if isinstance(value, dict):
                chars += 2 + sum(len(key) + 1 for key in value)
                if isinstance(value.get("enum"), list):
                    members += len(value["enum"])
                stack.extend((item, depth + 1) for item in value.values())
            elif isinstance(value, list):
                chars += 2 + len(value)
                if chars <= MAX_DECLARED_CHARS:
                    stack.extend((item, depth + 1) for item in value)
            else:
                chars += len(value) if isinstance(value, str) else 1
            if chars > MAX_DECLARED_CHARS:
                raise DeclarationError(f"{param} may hold at most {MAX_DECLARED_CHARS} characters of names, "
                                       "descriptions and schemas together", param)
            if members > MAX_ENUM_MEMBERS:
                raise DeclarationError(f"{param} may list at most {MAX_ENUM_MEMBERS} enum values together", param)
