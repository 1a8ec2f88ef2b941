"""A client's JSON, bounded before it is parsed, the same way at every door. The C parser keeps the interpreter's
lock while it runs, so a worker thread frees no event loop: the bounds are what limit how long a parse holds it.
What costs is the count of values: a float or a new key about 0.5 us each, a `[]` 0.05 us (and the cyclic garbage
collector that many lists set off)."""
import json


class JsonRefused(Exception):
    """JSON over a bound, refused before it was parsed."""


def json_values(text: str | bytes, start: int = 0, stop: int | None = None) -> int:
    """Commas and opening brackets in text[start:stop]: each JSON value past a container's first follows a comma, so
    this bounds the values a parse builds (commas inside strings count too; counting is 0.1 ns a byte)."""
    marks = (b",", b"[", b"{") if isinstance(text, bytes) else (",", "[", "{")
    stop = len(text) if stop is None else stop
    return sum(text.count(mark, start, stop) for mark in marks)


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
    """json.loads within the bounds: JsonRefused over them, else what json.loads returns or raises (ValueError, also
    for invalid UTF-8 and integers past Python's 4,300 digits; RecursionError past the interpreter's nesting)."""
    check_size(text, max_bytes, max_values, what)
    return json.loads(text)
