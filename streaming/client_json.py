"""A client's JSON, bounded before and while it is parsed, the same way at every door. The C parser keeps the
interpreter's lock while it runs, so a worker thread frees no event loop: the bounds are what limit how long a
parse holds it. What costs is the count of values (a float or a new key about 0.5 us each, a `[]` 0.05 us) and long
integers (a 4,000-digit one 0.1 ms: 1,000 of them in a 4 MiB Realtime message took 114 ms of CPU, load 7)."""
import json

# An integer's characters: int64 takes 20. Converting one is quadratic in its digits (Python reads up to 4,300);
# floats are not bounded: a 4,000-digit one converts in 11 us, a tenth of such an integer, under the cost of the
# 600 `1e308` that would fill its bytes.
MAX_INTEGER_CHARS = 32


class JsonRefused(Exception):
    """JSON over a bound, refused before it was parsed."""


def json_values(text: str | bytes, start: int = 0, stop: int | None = None) -> int:
    """Commas and opening brackets in text[start:stop]: each JSON value past a container's first follows a comma, so
    this bounds the values a parse builds (commas inside strings count too; counting is 0.1 ns a byte)."""
    marks = (b",", b"[", b"{") if isinstance(text, bytes) else (",", "[", "{")
    stop = len(text) if stop is None else stop
    return sum(text.count(mark, start, stop) for mark in marks)


def _integer(literal: str) -> int:
    if len(literal) > MAX_INTEGER_CHARS:
        raise ValueError(f"integers may be at most {MAX_INTEGER_CHARS} characters, one has {len(literal)}")
    return int(literal)


# json.loads' keyword argument that bounds its integers (the C parser calls it for integers only: a hook for every
# float would cost 0.4 us each, doubling a parse of floats).
NUMBERS = {"parse_int": _integer}


def parse(text: str | bytes):
    """json.loads(text), its integers bounded to MAX_INTEGER_CHARS (ValueError past it)."""
    return json.loads(text, **NUMBERS)


def check_size(text: str | bytes, max_bytes: int, max_values: int, what: str) -> None:
    """JsonRefused where text is longer than max_bytes (characters, for text) or holds more than max_values commas
    and brackets."""
    if len(text) > max_bytes:
        unit = "bytes" if isinstance(text, bytes) else "characters"
        raise JsonRefused(f"{what} may be at most {max_bytes} {unit}, this one has {len(text)}")
    if len(text) > max_values and (values := json_values(text)) > max_values:
        raise JsonRefused(f"{what} may hold at most {max_values} commas and brackets (JSON values), "
                          f"this one has {values}")


def loads(text: str | bytes, max_bytes: int, max_values: int, what: str):
    """json.loads within the bounds: JsonRefused over them, ValueError (an integer too long, invalid UTF-8 or JSON) or
    RecursionError (nesting deeper than the interpreter's limit) as json.loads raises them."""
    check_size(text, max_bytes, max_values, what)
    return parse(text)
