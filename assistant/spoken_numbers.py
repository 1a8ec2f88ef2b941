"""Inverse text normalisation: turn a request as speech recognition writes it into the form the model reads.

A tiny model copies digits well but cannot do arithmetic on words, so deterministic code does what
production assistants do before their language model: lowercase, drop punctuation, spoken numbers to
digits ("twenty five" -> 25, "two and a half" -> 2.5) and durations to seconds ("an hour and a half" ->
5400 seconds). The corpus generator writes requests the way people speak; training and inference both read
them through `normalize_request`, so the model only ever sees the normalised form.
"""
import functools
import re

UNITS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
}
TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fourty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
        "eighty": 80, "ninety": 90}
SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
NUMBER_WORDS = set(UNITS) | set(TENS) | set(SCALES)

# Words after which "a"/"an" means one of them ("a mile", "an hour").
COUNTABLE = {
    "hour", "minute", "second", "mile", "kilometer", "kilometre", "meter", "metre", "foot", "inch",
    "centimeter", "centimetre", "kilogram", "kilo", "pound", "gram", "ounce", "liter", "litre", "gallon",
    "cup", "milliliter", "millilitre", "yard", "dozen",
}
DURATION_SECONDS = {"hour": 3600, "hours": 3600, "hr": 3600, "hrs": 3600, "minute": 60, "minutes": 60,
                    "min": 60, "mins": 60, "second": 1, "seconds": 1, "sec": 1, "secs": 1}

# What speech recognition writes for "and a half" after a number: "2 end to half minutes" is two and a half.
AND_A_HALF = (("and", "a", "half"), ("and", "half"), ("end", "of", "half"), ("end", "to", "half"),
              ("end", "a", "half"), ("in", "a", "half"), ("in", "the", "half"), ("an", "a", "half"))
# A fraction said after a number or a counted unit ("an hour and a quarter", "two and three quarters"): its value,
# and the words that say it.
AND_A_FRACTION = {0.5: AND_A_HALF, 0.25: (("and", "a", "quarter"), ("and", "quarter")),
                  0.75: (("and", "three", "quarters"), ("and", "3", "quarters"))}

# A clock time said by the minutes to or past the hour ("ten to seven", "quarter past eight"): the minutes each
# word or number stands for, the words that say which way, and the words before or after that mark a clock time
# (the time an alarm is for) rather than a range ("from 18 to 20").
CLOCK_MINUTES = {"quarter": 15, "half": 30}
CLOCK_WAYS = {"to": -1, "till": -1, "of": -1, "past": 1, "after": 1}
CLOCK_BEFORE = {"at", "for", "alarm", "by", "until", "till", "around", "about"}
CLOCK_AFTER = {"am", "pm", "a", "p", "tomorrow", "tonight", "alarm"}

_SYMBOLS = [("×", " times "), ("*", " times "), ("+", " plus "), ("÷", " divided by "), ("=", " "),
            ("%", " percent "), ("°", " degrees "), ("?", " "), ("!", " "), (",", " "), (";", " "),
            (":", " "), ('"', " "), ("(", " "), (")", " ")]


@functools.lru_cache(maxsize=64)
def normalize_request(text: str) -> str:
    """Lowercase, strip punctuation, spoken numbers to digits, durations to seconds. Cached: a reply's readers
    normalise the same request several times on the event loop, and a long one costs milliseconds each time."""
    text = text.lower().replace("’", "'")
    text = re.sub(r"(?<=\d),(?=\d{3}\b)", "", text)                 # 1,000 -> 1000
    # each from a run's first digit only: tried at every digit, a long run costs its length squared
    text = re.sub(r"(?<!\d)(\d+)\s+1/2\b", r"\1.5", text)             # 2 1/2 -> 2.5: a half, not a division
    text = re.sub(r"(?<!\d)(\d*)\s*½", lambda m: f"{m[1] or 0}.5", text)  # 2½ -> 2.5
    text = re.sub(r"(?<=\d)\s*/\s*(?=\d)", " divided by ", text)     # 10/2 before / is dropped
    text = re.sub(r"(?<=\d)\s*-\s*(?=\d)", " minus ", text)          # 10-2
    text = re.sub(r"(?<=\d)x(?=\d)", " times ", text)                # 6x7
    text = re.sub(r"(?<=\d)([a-z])", r" \1", text)                   # 5km -> 5 km
    for symbol, spoken in _SYMBOLS:
        text = text.replace(symbol, spoken)
    text = re.sub(r"(?<!\d)\.|\.(?!\d)", " ", text)                  # keep only decimal points
    text = text.replace("-", " ").replace("/", " ")
    words = [w.strip("'") for w in text.split()]
    words = _numbers_to_digits([w for w in words if w])
    words = _durations_to_seconds(words)
    words = _clock_times(words)
    return " ".join(words)


def _is_number(word: str) -> bool:
    """Digits we may compute with; a longer run (a 309-digit "number" overflows a float) stays a plain word."""
    return re.fullmatch(r"\d{1,15}(\.\d{1,15})?", word) is not None


def _format(value: float) -> str:
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.6f}".rstrip("0").rstrip(".")


def parse_cardinal(words: list[str], i: int) -> tuple[float, int]:
    """Longest spoken cardinal starting at words[i]: (value, words used); used is 0 when none starts there."""
    total, current, last, j, used = 0, 0, None, i, 0
    while j < len(words):
        w = words[j]
        if w in UNITS and UNITS[w] < 10 and last in (None, "tens", "hundred", "scale"):
            current, last = current + UNITS[w], "unit"
        elif w in UNITS and last in (None, "hundred", "scale"):
            current, last = current + UNITS[w], "teen"
        elif w in TENS and last in (None, "hundred", "scale"):
            current, last = current + TENS[w], "tens"
        elif w == "hundred" and last in ("unit", "teen", "tens") and current < 100:
            current, last = current * 100, "hundred"
        elif w in SCALES and w != "hundred" and last in ("unit", "teen", "tens", "hundred"):
            total, current, last = total + current * SCALES[w], 0, "scale"
        elif w == "and" and last in ("hundred", "scale") and j + 1 < len(words) and (
                words[j + 1] in UNITS or words[j + 1] in TENS):
            j += 1
            continue
        else:
            break
        j += 1
        used = j - i
    return total + current, used


def _numbers_to_digits(words: list[str]) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(words):
        w = words[i]
        nxt = words[i + 1] if i + 1 < len(words) else ""
        # "a hundred", "a thousand"
        if w in ("a", "one") and nxt in SCALES:
            value, used = parse_cardinal(["one"] + words[i + 1:], 0)
            out.append(_format(value))
            i += used
            continue
        # "a dozen", "half a dozen"
        if w == "dozen":
            if out and _is_number(out[-1]):
                out[-1] = _format(float(out[-1]) * 12)
            else:
                out.append("12")
            i += 1
            continue
        # "half a mile", "half an hour", "half hour"
        if w == "half" and nxt in ("a", "an") and i + 2 < len(words) and _singular(words[i + 2]) in COUNTABLE:
            out.append("0.5")
            i += 2
            continue
        if w == "half" and nxt in DURATION_SECONDS:
            out.append("0.5")
            i += 1
            continue
        # "a quarter of an hour", "quarter of a mile", "three quarters of a cup"
        if w in ("quarter", "quarters") and nxt == "of" and i + 2 < len(words) and words[i + 2] in ("a", "an"):
            if out and out[-1] == "a":
                out.pop()
                out.append("0.25")
            elif out and _is_number(out[-1]):
                out[-1] = _format(float(out[-1]) * 0.25)
            else:
                out.append("0.25")
            i += 3
            continue
        # "a mile", "an hour"
        if w in ("a", "an") and _singular(nxt) in COUNTABLE:
            out.append("1")
            i += 1
            continue
        # "and a half" after a number or a counted unit: "two and a half", "an hour and a quarter", and after one
        # of a unit ("a degree and a half")
        used, part = next(((len(p), value) for value, said in AND_A_FRACTION.items() for p in said
                           if tuple(words[i:i + len(p)]) == p), (0, 0.0))
        if used and out and (_is_number(out[-1]) or (len(out) >= 2 and (_is_number(out[-2]) or out[-2] in ("a", "an")))):
            if _is_number(out[-1]):
                out[-1] = _format(float(out[-1]) + part)
            else:
                out[-2] = _format((float(out[-2]) if _is_number(out[-2]) else 1) + part)
            i += used
            continue
        # a scale word after digits, as speech recognition writes "twenty four hundred": "24 hundred" -> 2400
        if w in SCALES and out and _is_number(out[-1]):
            out[-1] = _format(float(out[-1]) * SCALES[w])
            i += 1
            continue
        if w in NUMBER_WORDS:
            value, used = parse_cardinal(words, i)
            if used:
                out.append(_format(value))
                i += used
                continue
        if w == "point" and out and _is_number(out[-1]) and "." not in out[-1]:
            digits, j = _decimal_digits(words, i + 1)
            if digits:
                out[-1] += "." + digits
                i = j
                continue
        if w == "a" and nxt == "couple" and words[i + 2:i + 3] == ["of"]:
            out.append("2")
            i += 3
            continue
        out.append(w)
        i += 1
    return out


def _decimal_digits(words: list[str], j: int) -> tuple[str, int]:
    """Digits spoken after "point": "five two" -> "52"."""
    digits = ""
    while j < len(words) and (words[j].isdigit() or UNITS.get(words[j], 10) < 10):
        digits += words[j] if words[j].isdigit() else str(UNITS[words[j]])
        j += 1
    return digits, j


def _singular(word: str) -> str:
    if word.endswith("es") and word[:-2] in COUNTABLE:
        return word[:-2]
    if word == "feet":
        return "foot"
    return word[:-1] if word.endswith("s") and word[:-1] in COUNTABLE else word


def _clock_times(words: list[str]) -> list[str]:
    """ "at 10 to 7" -> "at 6 50", "for quarter past 8" -> "for 8 15": the hour and minute, as a clock time said
    in numbers reads ("6 50", "7 oh 5"). Only where a clock time is marked (CLOCK_BEFORE or CLOCK_AFTER) and
    the minutes are under an hour's half."""
    out: list[str] = []
    i = 0
    while i < len(words):
        start = i + (words[i] == "a")                    # "a quarter to 8"
        minute = CLOCK_MINUTES.get(words[start]) if start < len(words) else None
        if minute is None and start < len(words) and words[start].isdigit() and _is_number(words[start]) \
                and int(words[start]) <= 30:
            minute = int(words[start])
        if start < len(words) and words[start + 1:start + 2] == ["minutes"]:
            start += 1
        way = CLOCK_WAYS.get(words[start + 1]) if start + 1 < len(words) else None
        hour = words[start + 2] if start + 2 < len(words) else ""
        marked = (out and out[-1] in CLOCK_BEFORE) or (start + 3 < len(words) and words[start + 3] in CLOCK_AFTER)
        if minute and way and hour.isdigit() and _is_number(hour) and 1 <= int(hour) <= 12 and marked \
                and not (way < 0 and minute == 30):
            h, m = divmod(int(hour) * 60 + way * minute, 60)
            out.extend([str(h if h else 12), f"oh {m}" if m < 10 else str(m)])
            i = start + 3
            continue
        out.append(words[i])
        i += 1
    return out


def _durations_to_seconds(words: list[str]) -> list[str]:
    """Collapse "1 hour and 30 minutes" / "1.5 hours" / "90 minute" into "N seconds"."""
    out: list[str] = []
    i = 0
    while i < len(words):
        if _is_number(words[i]) and i + 1 < len(words) and words[i + 1] in DURATION_SECONDS:
            seconds = 0.0
            j = i
            while j + 1 < len(words) and _is_number(words[j]) and words[j + 1] in DURATION_SECONDS:
                seconds += float(words[j]) * DURATION_SECONDS[words[j + 1]]
                j += 2
                if j + 2 < len(words) and words[j] == "and" and _is_number(words[j + 1]) and words[j + 2] in DURATION_SECONDS:
                    j += 1
            out.extend([_format(round(seconds)), "seconds"])
            i = j
            continue
        out.append(words[i])
        i += 1
    return out
