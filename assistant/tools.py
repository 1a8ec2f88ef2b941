"""The assistant's tools: what a tool call does, and the words that fill the reply's {result} slot.

The model writes e.g. `set_device device=light room=kitchen state=on` and "Okay, the kitchen light is
{result}."; ToolRunner.run acts on the Home (assistant.home) and returns "on". Each skill of the registry
(assistant.skills) is the runner's method `_<name>`. Arithmetic is parsed by a small recursive-descent
parser, never eval.
"""
import asyncio
import datetime as dt
import math
import re
from dataclasses import dataclass
from typing import Callable, Protocol

from assistant.home import Home, InMemoryHome
from assistant.skills import SKILLS
from assistant.vocabulary import DEVICES, ROOMS, SENSOR_KINDS, convert, unit_name


# ---------------------------------------------------------------- safe arithmetic

class CalculationError(ValueError):
    pass


_TOKEN = re.compile(r"\s*(?:(\d+\.?\d*|\.\d+)|(.))")


def calculate(expression: str) -> float:
    """Value of an expression of numbers, + - * /, unary minus and parentheses; CalculationError otherwise."""
    tokens = []
    for number, symbol in _TOKEN.findall(expression.strip()):
        if number:
            tokens.append(float(number))
        elif symbol in "+-*/()":
            tokens.append(symbol)
        elif not symbol.isspace():
            raise CalculationError(f"not arithmetic: {symbol!r}")
    if not tokens:
        raise CalculationError("empty expression")
    parser = _Parser(tokens)
    value = parser.sum()
    if parser.pos != len(tokens):
        raise CalculationError("unexpected " + str(tokens[parser.pos]))
    if not math.isfinite(value):              # a 309-digit operand is inf as a float
        raise CalculationError("number too large")
    return value


class _Parser:
    """sum := product (('+'|'-') product)*; product := unary (('*'|'/') unary)*;
    unary := '-' unary | '+' unary | number | '(' sum ')'"""

    def __init__(self, tokens):
        self.tokens, self.pos = tokens, 0

    def peek(self):
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self):
        token = self.peek()
        self.pos += 1
        return token

    def sum(self) -> float:
        value = self.product()
        while self.peek() in ("+", "-"):
            value = value + self.product() if self.take() == "+" else value - self.product()
        return value

    def product(self) -> float:
        value = self.unary()
        while self.peek() in ("*", "/"):
            if self.take() == "*":
                value *= self.unary()
            else:
                divisor = self.unary()
                if divisor == 0:
                    raise CalculationError("division by zero")
                value /= divisor
        return value

    def unary(self) -> float:
        if self.pos > 200:
            raise CalculationError("expression too long")
        token = self.take()
        if token == "-":
            return -self.unary()
        if token == "+":
            return self.unary()
        if isinstance(token, float):
            return token
        if token == "(":
            value = self.sum()
            if self.take() != ")":
                raise CalculationError("missing )")
            return value
        raise CalculationError(f"unexpected {token!r}")


def format_number(value: float) -> str:
    """Spoken-friendly: integers plainly, otherwise up to two decimals (three below 1)."""
    if abs(value - round(value)) < 1e-9:
        return str(int(round(value)))
    digits = 2 if abs(value) >= 1 else 3
    return f"{value:.{digits}f}".rstrip("0").rstrip(".")


# ---------------------------------------------------------------- the runner

def say_duration(seconds: int) -> str:
    h, rem = divmod(int(seconds), 3600)
    m, s = divmod(rem, 60)
    parts = [f"{n} {unit}{'' if n == 1 else 's'}" for n, unit in ((h, "hour"), (m, "minute"), (s, "second")) if n]
    return " and ".join(parts) if parts else "0 seconds"


def timer_done_text(seconds: int) -> str:
    return f"Time is up: your timer for {say_duration(seconds)} is done."


@dataclass
class Timer:
    seconds: int
    ring: asyncio.TimerHandle | None = None


class TimerBook(Protocol):
    """Where timers live when they must outlive this process (streaming.gateway.DurableTimers): the
    gateway, not this runner, rings them."""

    async def add(self, seconds: int) -> None: ...

    async def cancel_all(self) -> int: ...

    @property
    def running(self) -> int: ...


class ToolRunner:
    """Runs one session's tool calls; holds its timers. Bad arguments give a short spoken refusal.

    A timer rings on the event loop that set it, by calling on_ring(seconds); the session sets on_ring
    to speak up. Without one (the text chat), a due timer just ends. With a timer_book, timers are
    written there instead and this runner holds none.
    """

    def __init__(self, home: Home | None = None, timer_book: TimerBook | None = None):
        self.home = home if home is not None else InMemoryHome()
        self.timers: list[Timer] = []
        self.timer_book = timer_book
        self.on_ring: Callable[[int], None] | None = None

    @property
    def timers_running(self) -> int:
        return len(self.timers) + (self.timer_book.running if self.timer_book is not None else 0)

    async def run(self, name: str, arguments: dict) -> str:
        if name not in SKILLS:
            return "not something I can do"
        try:
            return await getattr(self, "_" + name)(**arguments)
        except CalculationError:
            return "not something I can calculate"
        except (TypeError, ValueError, OverflowError):    # int(inf) overflows: e.g. a 309-digit timer
            return "not possible with those details"

    def stop_timers(self) -> int:
        """Cancel every running timer (asked to, or the session ended); returns how many were running."""
        for timer in self.timers:
            timer.ring.cancel()
        running, self.timers = len(self.timers), []
        return running

    def _ring(self, timer: Timer) -> None:
        self.timers.remove(timer)
        if self.on_ring is not None:
            self.on_ring(timer.seconds)

    async def _get_time(self) -> str:
        now = dt.datetime.now()
        return now.strftime("%I:%M %p").lstrip("0")

    async def _get_date(self) -> str:
        now = dt.datetime.now()
        return f"{now:%A}, {now:%B} {now.day}"

    async def _set_timer(self, seconds) -> str:
        seconds = int(float(seconds))
        if not 0 < seconds <= 24 * 3600:
            raise ValueError("timer out of range")
        if self.timer_book is not None:
            await self.timer_book.add(seconds)
            return say_duration(seconds)
        timer = Timer(seconds)
        timer.ring = asyncio.get_running_loop().call_later(seconds, self._ring, timer)
        self.timers.append(timer)
        return say_duration(seconds)

    async def _cancel_timer(self) -> str:
        running = self.stop_timers()
        if self.timer_book is not None:
            running += await self.timer_book.cancel_all()
        if not running:
            return "there was no timer running"
        return "your timer is cancelled" if running == 1 else f"your {running} timers are cancelled"

    async def _set_device(self, device, room, state) -> str:
        if device not in DEVICES or room not in ROOMS or state not in ("on", "off"):
            raise ValueError("unknown device, room or state")
        confirmed = await self.home.set_device(device, room, state)
        return confirmed if confirmed else "not responding"

    async def _set_brightness(self, room, percent) -> str:
        percent = int(float(percent))
        if room not in ROOMS or not 0 <= percent <= 100:
            raise ValueError("bad brightness")
        confirmed = await self.home.set_brightness(room, percent)
        return f"{confirmed} percent" if confirmed is not None else "an unconfirmed level"

    async def _set_thermostat(self, degrees) -> str:
        degrees = float(degrees)
        if not 0 < degrees < 100:
            raise ValueError("thermostat out of range")
        confirmed = await self.home.set_thermostat(degrees)
        return f"{format_number(confirmed)} degrees" if confirmed is not None else "an unconfirmed temperature"

    async def _read_sensor(self, room, kind) -> str:
        if room not in ROOMS or kind not in SENSOR_KINDS:
            raise ValueError("unknown sensor")
        value = await self.home.read_sensor(room, kind)
        if value is None:
            return "unavailable right now"
        return f"{format_number(value)} {'degrees' if kind == 'temperature' else 'percent'}"

    async def _calculate(self, expression) -> str:
        return format_number(calculate(str(expression)))

    async def _convert(self, value, **units) -> str:
        # "from" is a Python keyword, so the unit arguments arrive as **units.
        if set(units) != {"from", "to"}:
            raise TypeError("convert needs from and to")
        result = convert(float(value), units["from"], units["to"])
        return f"{format_number(result)} {unit_name(units['to'], result)}"


assert all(hasattr(ToolRunner, "_" + name) for name in SKILLS), "every registered skill has a runner"
