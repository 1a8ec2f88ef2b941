"""What a client sent, made safe to log: a newline in a callSid or a query parameter must not forge log lines."""

MAX_LOGGED_CHARS = 200


def printable(value: object) -> str:
    """Control and non-ASCII characters escaped (\\n, \\x1b, \\u2028), and cut to MAX_LOGGED_CHARS."""
    text = str(value)
    cut = text[:MAX_LOGGED_CHARS]
    escaped = cut.encode("ascii", "backslashreplace").decode("ascii")
    escaped = "".join(c if c.isprintable() else repr(c)[1:-1] for c in escaped)
    return escaped + ("..." if len(text) > MAX_LOGGED_CHARS else "")
