"""Logging that hostile input cannot abuse: what a client sent is escaped (a newline in a callSid or a query
parameter must not forge log lines), and a flood of identical accept() errors is thinned out."""
import logging
import time

MAX_LOGGED_CHARS = 200


def printable(value: object) -> str:
    """Control and non-ASCII characters escaped (\\n, \\x1b, \\u2028), and cut to MAX_LOGGED_CHARS."""
    text = str(value)
    cut = text[:MAX_LOGGED_CHARS]
    escaped = cut.encode("ascii", "backslashreplace").decode("ascii")
    escaped = "".join(c if c.isprintable() else repr(c)[1:-1] for c in escaped)
    return escaped + ("..." if len(text) > MAX_LOGGED_CHARS else "")


class AcceptErrorsFilter(logging.Filter):
    """asyncio logs every failed accept() (out of file descriptors: thousands a second, each with a
    traceback). Let one through per `every_s` seconds, saying how many were held back."""

    def __init__(self, every_s: float = 10.0):
        super().__init__()
        self.every_s = every_s
        self.held_back = 0
        self._last = -every_s

    def filter(self, record: logging.LogRecord) -> bool:
        if not str(record.msg).startswith("socket.accept() out of system resource"):
            return True
        now = time.monotonic()
        if now - self._last < self.every_s:
            self.held_back += 1
            return False
        self._last = now
        if self.held_back:
            record.msg = f"{record.msg} ({self.held_back} more in the last {self.every_s:g} s not logged)"
            self.held_back = 0
        record.exc_info = None          # the traceback is the same every time: EMFILE
        return True


def limit_accept_errors() -> None:
    """Install AcceptErrorsFilter on asyncio's logger (once per process)."""
    logger = logging.getLogger("asyncio")
    if not any(isinstance(f, AcceptErrorsFilter) for f in logger.filters):
        logger.addFilter(AcceptErrorsFilter())
