"""The assistant's tools: what a tool call does, and the words that fill the reply's {result} slot.

The model writes e.g. `set_device device=light room=kitchen state=on` and "Okay, the kitchen light is
{result}."; ToolRunner.run acts on the Home and returns "on". Home is a protocol so the MQTT-backed home
(streaming/transports/mqtt/home.py) and the in-memory one are interchangeable. Arithmetic is parsed by a small
recursive-descent parser, never eval.
"""
import asyncio
import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Callable, Protocol

DEVICES = ("light", "fan", "heater", "tv", "plug", "coffee_maker", "speaker")
ROOMS = ("kitchen", "living_room", "bedroom", "bathroom", "office", "garage", "hallway")
SENSOR_KINDS = ("temperature", "humidity")
TOOL_NAMES = ("get_time", "get_date", "set_timer", "cancel_timer", "set_device", "set_brightness",
              "set_thermostat", "read_sensor", "calculate", "convert")


class Home(Protocol):
    async def set_device(self, device: str, room: str, state: str) -> str | None: ...
    async def set_brightness(self, room: str, percent: int) -> int | None: ...
    async def set_thermostat(self, degrees: float) -> float | None: ...
    async def read_sensor(self, room: str, kind: str) -> float | None: ...


@dataclass
class InMemoryHome:
    """A home whose devices always confirm; sensors read plausible fixed values per room."""

    devices: dict[tuple[str, str], str] = field(default_factory=dict)
    brightness: dict[str, int] = field(default_factory=dict)
    thermostat: float = 21.0
    sensors: dict[tuple[str, str], float] = field(default_factory=lambda: {
        **{(room, "temperature"): 20.0 + i * 0.5 for i, room in enumerate(ROOMS)},
        **{(room, "humidity"): 40.0 + i * 2 for i, room in enumerate(ROOMS)},
    })

    async def set_device(self, device: str, room: str, state: str) -> str | None:
        self.devices[(device, room)] = state
        return state

    async def set_brightness(self, room: str, percent: int) -> int | None:
        self.brightness[room] = percent
        self.devices[("light", room)] = "on" if percent > 0 else "off"
        return percent

    async def set_thermostat(self, degrees: float) -> float | None:
        self.thermostat = degrees
        return degrees

    async def read_sensor(self, room: str, kind: str) -> float | None:
        return self.sensors.get((room, kind))


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


# ---------------------------------------------------------------- unit conversion

_FACTORS = {  # to the group's base unit: metre, gram, millilitre (US gallon and cup)
    "km": ("length", 1000.0), "mile": ("length", 1609.344), "m": ("length", 1.0), "ft": ("length", 0.3048),
    "inch": ("length", 0.0254), "cm": ("length", 0.01),
    "kg": ("mass", 1000.0), "lb": ("mass", 453.59237), "g": ("mass", 1.0), "oz": ("mass", 28.349523125),
    "liter": ("volume", 1000.0), "gallon": ("volume", 3785.411784), "cup": ("volume", 236.5882365), "ml": ("volume", 1.0),
    "celsius": ("temperature", None), "fahrenheit": ("temperature", None),
}
_UNIT_NAMES = {"km": ("kilometer", "kilometers"), "mile": ("mile", "miles"), "m": ("meter", "meters"),
               "ft": ("foot", "feet"), "inch": ("inch", "inches"), "cm": ("centimeter", "centimeters"),
               "kg": ("kilogram", "kilograms"), "lb": ("pound", "pounds"), "g": ("gram", "grams"),
               "oz": ("ounce", "ounces"), "liter": ("liter", "liters"), "gallon": ("gallon", "gallons"),
               "cup": ("cup", "cups"), "ml": ("milliliter", "milliliters"),
               "celsius": ("degree celsius", "degrees celsius"), "fahrenheit": ("degree fahrenheit", "degrees fahrenheit")}
UNITS = tuple(_FACTORS)


def convert(value: float, from_unit: str, to_unit: str) -> float:
    if from_unit not in _FACTORS or to_unit not in _FACTORS:
        raise ValueError(f"unknown unit {from_unit if from_unit not in _FACTORS else to_unit}")
    (group_a, fa), (group_b, fb) = _FACTORS[from_unit], _FACTORS[to_unit]
    if group_a != group_b:
        raise ValueError(f"cannot convert {from_unit} to {to_unit}")
    if group_a == "temperature":
        if from_unit == to_unit:
            return value
        return value * 9 / 5 + 32 if from_unit == "celsius" else (value - 32) * 5 / 9
    return value * fa / fb


def unit_name(unit: str, value: float) -> str:
    singular, plural = _UNIT_NAMES[unit]
    return singular if abs(value) == 1 else plural


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


class ToolRunner:
    """Runs one session's tool calls; holds its timers. Bad arguments give a short spoken refusal.

    A timer rings on the event loop that set it, by calling on_ring(seconds); the session sets on_ring
    to speak up. Without one (the text chat), a due timer just ends.
    """

    def __init__(self, home: Home | None = None):
        self.home = home if home is not None else InMemoryHome()
        self.timers: list[Timer] = []
        self.on_ring: Callable[[int], None] | None = None

    async def run(self, name: str, arguments: dict) -> str:
        if name not in TOOL_NAMES:
            return "not something I can do"
        try:
            return await getattr(self, "_" + name)(**arguments)
        except CalculationError:
            return "not something I can calculate"
        except (TypeError, ValueError):
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
        timer = Timer(seconds)
        timer.ring = asyncio.get_running_loop().call_later(seconds, self._ring, timer)
        self.timers.append(timer)
        return say_duration(seconds)

    async def _cancel_timer(self) -> str:
        running = self.stop_timers()
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
