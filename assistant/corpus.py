"""The training corpus: many phrasings of each home-assistant skill, written the way people speak.

Requests look like speech-recognition output (lowercase, no punctuation, numbers mostly as words, fillers,
varied word order); about one in five is a follow-up that only makes sense with the previous turn ("and in
the bedroom"). Each example is a conversation plus the reply the model must write: an optional tool call
and the spoken text with a {result} slot. Seeded: the same seed gives the same corpus.

Besides the default home (the vocabulary's rooms and devices, by word), a share of examples happen in a
made-up home of the user's whose names and areas reach the model as slots, as runtime slotting finds them
(unknown names get an honest answer); half the self-contained requests come after an unrelated earlier
exchange, half of those the same skill with other arguments, so that a self-contained request never
borrows from them; and 15% of requests carry one speech-recognition slip (is/in/his, the/a, to/two/too,
too/to, for/four, off/of) that must not change the call.
"""
import random
from dataclasses import dataclass

from assistant.chat_template import model_prompt, reply_target
from assistant.client_tools import name_words, request_stems, stem
from assistant.invented_tools import AFTER_VALUE, DOMAINS, FREE_TEXT, GROUPS, SYLLABLES, VALUES
from assistant.generated_tools import ASKS as GEN_ASKS, ASKS_ONE as GEN_ASKS_ONE, ASKS_TWO as GEN_ASKS_TWO
from assistant.generated_tools import DESCRIPTIONS as GEN_DESCRIPTIONS, NOUNS as GEN_NOUNS
from assistant.generated_tools import PARAMETERS as GEN_PARAMETERS, VERBS as GEN_VERBS
from assistant.inventory import SWITCHABLE, Entity, Inventory
from assistant.reply import CANT, UNKNOWN_NAME, reply
from assistant.vocabulary import (DEVICE_SPOKEN, DEVICES, NO, OTHER_ROOMS, ROOM_SPOKEN, ROOMS, SENSOR_KINDS,
                                  UNIT_GROUPS, UNIT_WORDS, YES)

R = reply("result")    # the tool's answer alone

UNKNOWN_DEVICES = ["dishwasher", "oven", "washing machine", "dryer", "vacuum", "robot vacuum", "air conditioner",
                   "ac", "microwave", "toaster", "kettle", "fridge", "freezer", "sprinklers", "alarm system",
                   "camera", "doorbell", "printer", "computer", "xbox", "playstation", "router", "blinds",
                   "curtains", "garage door", "front door", "back door", "lock", "car", "hot tub", "pool pump",
                   "fireplace", "stove", "iron", "radio", "music", "air purifier", "humidifier", "water heater",
                   "grill", "boiler", "shower", "faucet", "gate", "projector", "laptop", "phone"]
ONES = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
        "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]

WAKE = ["hey parley", "parley", "ok parley", "okay parley", "hey", "hi parley", "yo parley", "excuse me"]
LEAD = ["um", "uh", "so", "okay", "ok", "alright", "right", "well", "oh", "hmm", "er", "actually", "now",
        "quick question", "and", "also", "yeah", "erm", "um so", "uh so"]
ASK = ["please", "could you", "can you", "would you", "will you", "could you please", "can you please",
       "i want you to", "i'd like you to", "i need you to", "go ahead and", "would you mind to", "kindly",
       "please could you", "do me a favor and", "i want to", "let's", "help me", "would you please",
       "can i get you to", "you can", "just", "quickly"]
TAIL = ["please", "thanks", "thank you", "now", "for me", "right now", "asap", "please thanks", "thx",
        "if you can", "real quick", "when you can", "will you", "ok", "okay", "cheers", "parley",
        "for me please", "would you", "now please", "immediately"]

CHIT_CHAT = {
    "greeting": (reply("greeting"), [
        "hello", "hi", "hey", "hey there", "hi there", "hello there", "good morning", "good afternoon",
        "good evening", "morning", "evening", "howdy", "greetings", "yo", "hiya", "hello parley", "hi parley",
        "hey parley", "good morning parley", "sup", "what's up", "whats up", "heya", "hey you", "hello hello",
        "anyone there", "are you there", "you there", "hello anybody home", "hey buddy", "hi friend"]),
    "how_are_you": (reply("how_are_you"), [
        "how are you", "how are you doing", "how's it going", "how are things", "how do you do",
        "how are you today", "you doing ok", "how have you been", "are you ok", "how's your day",
        "how's your day going", "what's new", "are you well", "how are you feeling", "you good",
        "how's everything", "how you doing", "hows it going"]),
    "thanks": (reply("thanks"), [
        "thanks", "thank you", "thanks a lot", "thank you so much", "cheers", "much appreciated",
        "thanks parley", "great thanks", "perfect thank you", "awesome thanks", "thank you very much",
        "appreciate it", "nice one thanks", "that's great thanks", "ta", "thanks mate", "many thanks",
        "brilliant thank you", "cool thanks", "thanks a bunch", "thank u", "lovely thanks", "good job",
        "well done", "nice work", "that was helpful", "you're the best", "great job"]),
    "who": (reply("who"), [
        "who are you", "what are you", "what's your name", "what is your name", "who am i talking to",
        "are you a robot", "are you human", "what should i call you", "introduce yourself", "tell me about yourself",
        "who made you", "are you a person", "what kind of assistant are you", "who is this", "are you an ai",
        "are you real", "what do they call you", "do you have a name", "who's there", "whats your name"]),
    "help": (reply("help"), [
        "help", "what can you do", "what do you do", "help me", "what are you able to do", "how can you help",
        "what can i ask you", "what are your skills", "what commands do you know", "what can you help with",
        "i need help", "what features do you have", "how do i use you", "what do you know how to do",
        "list your abilities", "what are my options", "what can i say", "give me some ideas",
        "what things can you do", "what are you good at", "tell me what you can do", "how does this work"]),
    "joke": (reply("joke"), [
        "tell me a joke", "say something funny", "make me laugh", "know any jokes", "tell me something funny",
        "joke please", "got a joke", "do you know a joke", "tell a joke", "i want to hear a joke",
        "cheer me up", "tell me a funny joke", "another joke", "give me a joke", "entertain me",
        "tell me a dad joke", "any good jokes", "make me smile", "be funny", "crack a joke"]),
    "goodbye": (reply("goodbye"), [
        "bye", "goodbye", "bye bye", "see you", "see you later", "good night", "goodnight", "that's all",
        "that's all for now", "i'm done", "stop listening", "talk later", "catch you later", "later",
        "see ya", "farewell", "bye parley", "night night", "that will be all", "nothing else", "cya",
        "have a good one", "i'm going now", "we're done", "ok bye", "that's it thanks bye", "nevermind bye"]),
}
WHICH_ROOM = reply("which_room")

OUT_OF_DOMAIN = [
    "play some music", "play {artist}", "play the next song", "skip this song", "pause the music",
    "turn up the volume", "turn the volume down", "what's the weather", "what's the weather like today",
    "will it rain tomorrow", "do i need an umbrella", "what's the forecast for {city}", "how hot is it in {city}",
    "what's the temperature outside", "is it going to snow", "call {person}", "call my {family}",
    "text {person} that i'm running late", "send a message to {person}", "read my messages", "check my email",
    "any new emails", "set an alarm", "cancel my alarm",
    "remind me to {chore}", "remind me to {chore} at {num}", "add {item} to my shopping list",
    "put {item} on the list", "what's on my shopping list", "add {chore} to my to do list",
    "what's on my calendar", "schedule a meeting with {person}", "when is my next appointment",
    "book a table for {num}", "order a pizza", "order {item}", "buy {item}", "how much does {item} cost",
    "what's the news", "read me the news", "what's the score of the {team} game", "who won the game last night",
    "how are the {team} doing", "what's the stock price of {company}", "how's the stock market",
    "how do you make {food}", "give me a recipe for {food}", "what should i cook for dinner",
    "how far is {city}", "directions to {city}", "how long does it take to drive to {city}",
    "where is the nearest {place}", "find a {place} near me", "is the {place} open",
    "who is {famous}", "how old is {famous}", "when was {famous} born", "what is the capital of {country}",
    "how tall is the eiffel tower", "what's the population of {country}", "how far away is the moon",
    "why is the sky blue", "what is the meaning of life", "what's the speed of light", "who invented the telephone",
    "translate {word} to {language}", "how do you say {word} in {language}", "spell {word}", "define {word}",
    "what does {word} mean", "what's a synonym for {word}", "convert {num} dollars to euros",
    "how many euros is {num} dollars", "what time is it in {city}", "what's the time in {city}",
    "what's the exchange rate", "open the {udevice}", "close the {udevice}", "lock the {udevice}",
    "unlock the {udevice}", "turn on the {udevice}", "turn off the {udevice}", "switch on the {udevice}",
    "start the {udevice}", "turn on the {device} in the {uroom}", "turn off the {uroom} {device}",
    "switch off the {device} in the {uroom}", "what's the temperature in the {uroom}",
    "how humid is the {uroom}", "dim the {uroom} lights", "set the {udevice} to {num}",
    "vacuum the floor", "feed the cat", "walk the dog", "water the plants", "clean the house", "do my homework",
    "write an essay about {word}", "write a poem", "sing a song", "sing me happy birthday", "dance for me",
    "tell me a story", "tell me a bedtime story", "what's your favorite color", "do you love me",
    "will you marry me", "are you smarter than me", "flip a coin", "roll a dice", "pick a number",
    "what's the square root of {num}", "what is {num} to the power of {num}", "what's the log of {num}",
    "what's the derivative of x squared", "solve for x", "what is pi", "count to ten",
    "how many {unknown_unit} in a {unknown_unit}", "convert {num} {unknown_unit} to {unknown_unit}",
    "how many days until christmas", "when is easter", "what year is it in china", "when does the sun set",
    "what time does the sun rise", "what's the moon phase", "is it a full moon tonight", "what time zone am i in",
    "start my car", "find my phone", "where are my keys", "call an uber", "get me a taxi", "book a flight to {city}",
    "find me a hotel in {city}", "how's the traffic", "track my package", "where is my order",
    "turn on do not disturb", "set my status to away", "take a picture", "record a video", "take a note",
    "read my notes", "open youtube", "open {company}", "search the web for {word}", "google {word}",
    "look up {famous}", "show me pictures of {animal}", "what sound does a {animal} make",
    "how long do {animal}s live", "what do {animal}s eat", "is {food} healthy", "how many calories in {food}",
    "i'm bored", "i'm sad", "i'm tired", "i'm hungry", "i love you", "you're stupid", "shut up", "blah blah",
    "what", "huh", "nothing", "never mind", "forget it", "testing testing", "is this thing on", "can you hear me",
    "repeat that", "say that again", "what did you say", "speak louder", "talk slower", "change your voice",
    "speak spanish", "switch language", "set the volume to {num}", "mute", "unmute", "be quiet", "stop talking",
    "let me speak to a human", "connect me to support", "update yourself", "restart", "shut down",
    "reboot the router", "run a speed test", "what's my ip address", "what's the wifi password",
    "how much battery do i have", "charge my phone", "make a reservation", "pay my bills", "check my bank balance",
    "transfer {num} dollars to {person}", "how much money do i have", "what's bitcoin at",
    "turn the {device} purple", "make the lights blue", "set the lights to red", "change the light color to green",
    "set the {device} to {num} degrees", "set the fan speed to high", "set the fan to {num}",
    "put the tv on channel {num}", "change the channel", "turn the tv volume up", "play netflix on the tv",
    "open the blinds", "close the curtains", "lock all the doors", "arm the alarm", "disarm the security system",
    "is the front door locked", "who is at the door", "show me the front door camera", "start the dishwasher",
    "run the washing machine", "preheat the oven to {num}", "start the roomba", "is the garage door open",
    "how much energy did i use today", "what's my electricity bill", "when is the next bus", "when does the train leave",
    "how many steps did i walk today", "start a workout", "how did i sleep", "set a reminder", "snooze",
    "start the stopwatch", "stop the stopwatch", "how long is left on the stopwatch", "add {num} minutes to my alarm",
    # Known rooms in requests no tool serves: a room word alone must not trigger a device call.
    "play {artist} in the {room}", "play music in the {room}", "vacuum the {room}", "clean the {room}",
    "open the {room} window", "close the {room} window", "lock the {room} door", "open the {room} door",
    "is anyone in the {room}", "who is in the {room}", "open the {room} blinds", "close the {room} curtains",
    "turn on the {udevice} in the {room}", "turn off the {room} {udevice}", "start the {udevice} in the {room}",
    "is the {room} window open", "show me the {room} camera", "paint the {room}", "make the {room} lights blue",
    "what's for dinner in the {room}", "mop the {room} floor", "is the {room} door locked", "find my keys in the {room}",
]
FILL = {
    "artist": ["taylor swift", "the beatles", "some jazz", "drake", "beethoven", "radiohead", "my playlist",
               "adele", "queen", "lo fi beats", "classical music", "rock music", "the radio", "a podcast"],
    "city": ["paris", "london", "new york", "tokyo", "berlin", "chicago", "sydney", "boston", "rome", "madrid",
             "seattle", "dublin", "toronto", "mumbai", "the airport", "work", "home", "the city"],
    "person": ["mom", "dad", "john", "sarah", "my wife", "my husband", "alex", "the office", "my boss", "grandma",
               "emma", "mike", "lisa", "david", "the doctor", "my sister", "my brother"],
    "family": ["mother", "father", "sister", "brother", "wife", "husband", "son", "daughter", "aunt", "uncle"],
    "chore": ["buy milk", "call the dentist", "take out the trash", "pick up the kids", "pay rent",
              "water the plants", "take my medicine", "feed the dog", "check the oven", "leave at five"],
    "item": ["milk", "eggs", "bread", "butter", "apples", "coffee beans", "toilet paper", "batteries",
             "a new phone", "pizza", "sushi", "flowers", "dog food", "cheese", "bananas"],
    "team": ["lakers", "yankees", "patriots", "arsenal", "chelsea", "warriors", "bulls", "giants", "red sox"],
    "company": ["apple", "google", "tesla", "amazon", "microsoft", "netflix", "spotify", "facebook"],
    "food": ["pancakes", "lasagna", "pasta", "banana bread", "chili", "a cake", "soup", "cookies", "rice",
             "curry", "tacos", "an omelette", "pizza dough", "chocolate", "avocado", "broccoli"],
    "place": ["gas station", "pharmacy", "coffee shop", "restaurant", "supermarket", "hospital", "atm",
              "park", "gym", "library", "bank", "post office", "pub", "cinema", "hardware store"],
    "famous": ["barack obama", "einstein", "taylor swift", "shakespeare", "elon musk", "the president",
               "the queen", "napoleon", "mozart", "lebron james", "marie curie"],
    "country": ["france", "japan", "brazil", "canada", "australia", "germany", "spain", "india", "china", "italy"],
    "word": ["hello", "cat", "serendipity", "ephemeral", "thank you", "good morning", "love", "computer",
             "necessary", "onomatopoeia", "climate change", "black holes", "the universe", "friendship"],
    "language": ["spanish", "french", "german", "italian", "japanese", "chinese", "russian", "portuguese"],
    "animal": ["cat", "dog", "cow", "elephant", "lion", "dolphin", "horse", "owl", "penguin", "tiger"],
    "unknown_unit": ["years", "dollars", "bytes", "megabytes", "acres", "hectares", "knots", "calories",
                     "joules", "watts", "volts", "pints", "quarts", "tablespoons", "teaspoons", "stones",
                     "tons", "yards", "light years", "weeks", "days", "months", "decades", "euros"],
    "num": None,
    "device": None,
    "udevice": None,
    "uroom": None,
    "room": None,
}


@dataclass
class Example:
    history: list[dict]          # OpenAI-style messages ending with the user turn to answer
    call: dict | None            # {"name": ..., "arguments": {...}} or None
    text: str                    # spoken reply with the {result} slot
    skill: str
    lexicon: tuple | None = None  # the names of the user's own home (None: the default home)
    home: object = None           # the made-up home those names come from
    declared: tuple = ()          # the client's own function tools

    def texts(self) -> tuple[str, str]:
        """(prompt, reply): what the model reads and what it must write, numbers and names as the same slots
        in both."""
        prompt, slots = model_prompt(self.history, self.lexicon, self.declared)
        return prompt, reply_target(self.call, self.text, slots)


# ---------------------------------------------------------------- numbers as people say them

def number_words(n: int) -> str:
    """0 <= n < 1,000,000 in words, e.g. 105 -> "one hundred five"."""
    if n < 20:
        return ONES[n]
    if n < 100:
        return TENS[n // 10] + ("" if n % 10 == 0 else " " + ONES[n % 10])
    if n < 1000:
        rest = n % 100
        return ONES[n // 100] + " hundred" + ("" if rest == 0 else " " + number_words(rest))
    rest = n % 1000
    return number_words(n // 1000) + " thousand" + ("" if rest == 0 else " " + number_words(rest))


def say_number(rng: random.Random, value: float) -> str:
    """How a person (or speech recognition) might write value: words mostly, digits sometimes."""
    if rng.random() < 0.25:
        return _plain(value)
    whole = int(value)
    frac = round(value - whole, 3)
    if frac == 0:
        words = number_words(whole)
        if 100 <= whole < 200 and rng.random() < 0.4:
            words = words.replace("one hundred", "a hundred", 1)
        if 100 < whole < 1000 and whole % 100 and rng.random() < 0.4:
            words = words.replace("hundred", "hundred and", 1)
        if 1100 <= whole < 10000 and whole % 1000 >= 100 and whole % 100 == 0 and rng.random() < 0.5:
            words = number_words(whole // 100) + " hundred"                # "fifteen hundred"
        return words
    if frac == 0.5 and rng.random() < 0.6:
        return ("a half" if whole == 0 else number_words(whole) + " and a half")
    digits = _plain(value).split(".")[1]
    return number_words(whole) + " point " + " ".join(ONES[int(d)] for d in digits)


def _plain(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def say_duration(rng: random.Random, seconds: int) -> str:
    """A duration as spoken: "an hour and a half", "ninety seconds", "two minutes and ten seconds"."""
    h, rem = divmod(seconds, 3600)
    m, s = divmod(rem, 60)
    options = []
    if seconds == 1800:
        options += ["half an hour", "thirty minutes", "half hour"]
    if seconds == 900:
        options += ["a quarter of an hour", "fifteen minutes", "quarter of an hour"]
    if seconds == 5400:
        options += ["an hour and a half", "one and a half hours", "ninety minutes", "1.5 hours"]
    if seconds == 90:
        options += ["a minute and a half", "ninety seconds", "one and a half minutes"]
    if seconds == 120:
        options += ["a couple of minutes", "two minutes", "2 minutes"]
    if m and s == 30 and not h and rng.random() < 0.5:
        options.append(f"{say_number(rng, m + 0.5)} minutes")
    if h and not m and not s:
        options.append("an hour" if h == 1 else f"{say_number(rng, h)} hours")
    if h and m == 30 and not s:
        options.append(("an hour" if h == 1 else say_number(rng, h) + " hours") + " and a half")
    if not options or rng.random() < 0.5:
        parts = []
        if h:
            parts.append("an hour" if h == 1 and rng.random() < 0.5 else f"{say_number(rng, h)} {'hour' if h == 1 else 'hours'}")
        if m:
            if h and rng.random() < 0.5:
                parts.append(f"{say_number(rng, m)}")  # "one hour twenty"
                parts[-1] += " minutes"
            else:
                unit = rng.choice(["minute", "min"]) if m == 1 else rng.choice(["minutes", "minutes", "mins"])
                parts.append("a minute" if m == 1 and rng.random() < 0.5 else f"{say_number(rng, m)} {unit}")
        if s:
            unit = "second" if s == 1 else rng.choice(["seconds", "seconds", "secs"])
            parts.append(f"{say_number(rng, s)} {unit}")
        if not h and m and not s and m <= 300 and rng.random() < 0.15:
            parts = [f"{say_number(rng, m * 60)} seconds"]
        options.append(rng.choice([" and ", " "]).join(parts) if len(parts) > 1 else parts[0])
    return rng.choice(options)


# ---------------------------------------------------------------- one generator per skill

def _dress(rng: random.Random, core: str, imperative: bool = True) -> str:
    """Add the fillers people put around a request."""
    words = core
    if imperative and rng.random() < 0.35:
        words = f"{rng.choice(ASK)} {words}"
    if rng.random() < 0.2:
        words = f"{rng.choice(LEAD)} {words}"
    if rng.random() < 0.2:
        words = f"{rng.choice(WAKE)} {words}"
    if rng.random() < 0.2:
        words = f"{words} {rng.choice(TAIL)}"
    return words


def _the(rng):
    return rng.choice(["the ", "the ", "the ", "my ", "", "our "])


def gen_time(rng):
    core = rng.choice([
        "what time is it", "what's the time", "whats the time", "tell me the time", "what is the time",
        "time", "time please", "do you have the time", "what time is it now", "what's the current time",
        "current time", "got the time", "what time have we got", "how late is it", "is it late",
        "what hour is it", "check the time", "give me the time", "what time do you have", "say the time",
        "what's the time right now", "know what time it is", "what's the time now", "the time",
        "what is the current time", "can you tell me what time it is", "tell me what time it is",
        "whats the time now", "time check", "what o'clock is it", "how late is it now", "clock"])
    return _dress(rng, core), {"name": "get_time", "arguments": {}}, reply("time")


def gen_date(rng):
    core = rng.choice([
        "what's the date", "what is the date", "what's today's date", "what day is it", "what day is it today",
        "what's the date today", "today's date", "what day of the week is it", "which day is it",
        "tell me the date", "date please", "what is today", "what's today", "the date", "date",
        "what month is it", "what's the day today", "is it monday", "is today friday", "what date is it",
        "what day are we", "give me the date", "what's the day", "which day of the week is today",
        "what is today's date", "what's the date this morning", "remind me what day it is",
        "what is the day today", "what day of the month is it", "what's the day and date"])
    return _dress(rng, core), {"name": "get_date", "arguments": {}}, reply("date")


def _timer_seconds(rng) -> int:
    kind = rng.random()
    if kind < 0.45:
        return rng.randint(1, 60) * 60
    if kind < 0.6:
        return rng.randint(5, 59)
    if kind < 0.75:
        return rng.randint(1, 20) * 60 + rng.choice([15, 30, 45, rng.randint(1, 59)])
    if kind < 0.85:
        return rng.randint(1, 3) * 3600 + rng.choice([0, 900, 1800, 2700, rng.randint(1, 59) * 60])
    return rng.choice([1800, 900, 5400, 90, 120, 3600, 7200, 2700, 600, 300])


def gen_timer(rng):
    seconds = _timer_seconds(rng)
    d = say_duration(rng, seconds)
    core = rng.choice([
        f"set a timer for {d}", f"timer for {d}", f"start a timer for {d}", f"{d} timer",
        f"set a {d} timer", f"start a {d} timer", f"set timer {d}", f"timer {d}", f"count down {d}",
        f"countdown for {d}", f"start a countdown for {d}", f"make a timer for {d}", f"put a timer on for {d}",
        f"create a timer for {d}", f"set the timer to {d}", f"can you time {d}", f"time {d} for me",
        f"give me a {d} timer", f"i need a timer for {d}", f"add a timer for {d}", f"new timer {d}",
        f"let me know when {d} is up", f"tell me when {d} have passed", f"alert me in {d}",
        f"ring in {d}", f"start counting down from {d}", f"timer for {d} please", f"a timer for {d}",
        f"set an egg timer for {d}", f"set a kitchen timer for {d}", f"i need {d} on the clock",
        f"for {d} set a timer", f"{d} on the timer", f"put {d} on the timer", f"buzz me in {d}",
        f"set a countdown of {d}", f"time me for {d}", f"start timing {d}"])
    return _dress(rng, core), {"name": "set_timer", "arguments": {"seconds": seconds}}, reply("timer")


def gen_cancel(rng):
    core = rng.choice([
        "cancel the timer", "cancel my timer", "stop the timer", "cancel timer", "delete the timer",
        "cancel all timers", "stop all timers", "remove the timer", "clear the timer", "kill the timer",
        "turn off the timer", "get rid of the timer", "never mind the timer", "forget the timer",
        "cancel the countdown", "stop the countdown", "abort the timer", "end the timer", "timer off",
        "switch off the timer", "delete all my timers", "cancel my timers", "clear all timers",
        "reset the timer", "i don't need the timer anymore", "no more timer", "scrap the timer",
        "call off the timer", "drop the timer", "stop timer", "cancel the kitchen timer", "cancel the egg timer",
        "remove all timers", "turn the timer off", "shut off the timer", "disable the timer", "cancel it the timer"])
    return _dress(rng, core), {"name": "cancel_timer", "arguments": {}}, reply("done")


ON_VERBS = ["turn on", "switch on", "power on", "put on", "start", "activate", "enable", "fire up", "light up",
            "bring up", "boot up", "open up", "flip on", "kick on", "get", "hit", "click on", "crank on"]
OFF_VERBS = ["turn off", "switch off", "power off", "shut off", "shut down", "kill", "stop", "deactivate",
             "disable", "cut", "flip off", "turn out", "put out", "knock off", "cut off", "close", "douse",
             "switch out", "power down"]


def _device_phrase(rng, device, room):
    d = rng.choice(DEVICES[device])
    r = rng.choice(ROOMS[room])
    return rng.choice([f"{_the(rng)}{r} {d}", f"{_the(rng)}{d} in the {r}", f"{_the(rng)}{d} in {r}",
                       f"{_the(rng)}{r} {d}", f"{_the(rng)}{d} of the {r}", f"{_the(rng)}{d} in my {r}"]), d, r


def _switch_core(rng, state, phrase, r, d):
    verbs = ON_VERBS if state == "on" else OFF_VERBS
    v = rng.choice(verbs)
    particle_verb = v.split()
    cores = [f"{v} {phrase}", f"{phrase} {state}", f"{v} {phrase}", f"{v} {phrase}"]
    if len(particle_verb) == 2 and particle_verb[1] in ("on", "off", "up", "out", "down"):
        cores.append(f"{particle_verb[0]} {phrase} {particle_verb[1]}")
        cores.append(f"{particle_verb[0]} {phrase} {particle_verb[1]}")
    cores += [f"i want {phrase} {state}", f"make sure {phrase} is {state}", f"can we have {phrase} {state}",
              f"in the {r} {v} the {d}", f"{r} {d} {state}", f"{state} with {phrase}", f"{d} {state} in the {r}",
              f"let's get {phrase} {state}", f"set {phrase} to {state}", f"i need {phrase} {state}",
              f"{phrase} needs to be {state}", f"could {phrase} be {state}", f"put {phrase} {state}",
              f"leave {phrase} {state}", f"have {phrase} {state}", f"{r} {d} {state} please"]
    if state == "off":
        cores += [f"{phrase} is still on {v} it", f"no more {phrase}", f"i don't need {phrase} anymore",
                  f"{phrase} shouldn't be on", f"nobody is in the {r} {v} the {d}"]
    else:
        cores += [f"it's dark in the {r}", f"i need some {d} in the {r}"] if device_is_light(d) else [f"get {phrase} going"]
    return rng.choice(cores)


def device_is_light(spoken: str) -> bool:
    return any(w in spoken for w in ("light", "lamp", "bulb"))


def _device_reply(device, room):
    return reply("device", room=ROOM_SPOKEN[room], device=DEVICE_SPOKEN[device])


def gen_device(rng):
    device, room, state = rng.choice(list(DEVICES)), rng.choice(list(ROOMS)), rng.choice(["on", "off"])
    phrase, d, r = _device_phrase(rng, device, room)
    core = _switch_core(rng, state, phrase, r, d)
    call = {"name": "set_device", "arguments": {"device": device, "room": room, "state": state}}
    return _dress(rng, core), call, _device_reply(device, room)


def _percent_phrase(rng, pct):
    if pct == 50 and rng.random() < 0.3:
        return rng.choice(["half", "half brightness", "fifty percent"])
    if pct == 100 and rng.random() < 0.4:
        return rng.choice(["full", "full brightness", "max", "maximum", "one hundred percent", "a hundred percent"])
    if pct == 0 and rng.random() < 0.4:
        return rng.choice(["zero", "zero percent", "nothing"])
    return f"{say_number(rng, pct)} {rng.choice(['percent', 'percent', '%', 'per cent', ''])}".strip()


def _light_on(rng):
    """A request that switches a room's light on (the first turn of "make it brighter")."""
    room = rng.choice(list(ROOMS))
    phrase, d, r = _device_phrase(rng, "light", room)
    call = {"name": "set_device", "arguments": {"device": "light", "room": room, "state": "on"}}
    return _dress(rng, _switch_core(rng, "on", phrase, r, d)), call, _device_reply("light", room)


def gen_brightness(rng):
    room = rng.choice(list(ROOMS))
    pct = rng.choice([rng.randint(0, 100), rng.randint(1, 10) * 10, rng.choice([0, 5, 25, 50, 75, 100])])
    r = rng.choice(ROOMS[room])
    light = rng.choice(["lights", "light", "lamps", "lamp", "lighting", "brightness"])
    p = _percent_phrase(rng, pct)
    verb = rng.choice(["dim", "set", "brighten", "turn", "adjust", "change", "put", "lower", "raise", "bring",
                       "make", "take", "drop", "increase", "decrease", "turn down", "turn up"])
    core = rng.choice([
        f"{verb} the {r} {light} to {p}", f"{verb} the {light} in the {r} to {p}", f"{r} {light} to {p}",
        f"{r} {light} {p}", f"set the {r} brightness to {p}", f"set {r} brightness to {p}",
        f"make the {r} {light} {p}", f"{verb} the {r} to {p}", f"{p} brightness in the {r}",
        f"{p} in the {r}", f"in the {r} {verb} the {light} to {p}", f"{light} in the {r} at {p}",
        f"put the {r} {light} at {p}", f"i want the {r} {light} at {p}", f"set the {light} to {p} in the {r}",
        f"{verb} {r} {light} to {p}", f"{verb} the {r} {light} {p}", f"the {r} {light} at {p}",
        f"can you dim the {r} to {p}", f"dim {r} to {p}", f"brightness {p} {r}", f"{r} brightness {p}",
        f"{light} {p} in the {r}", f"set {light} in {r} to {p}"])
    call = {"name": "set_brightness", "arguments": {"room": room, "percent": pct}}
    return _dress(rng, core), call, reply("lights", room=ROOM_SPOKEN[room])


# "make it brighter": a step up or down from where the lights are (the tool knows the level).
BRIGHTER = ["make it brighter", "brighter", "a bit brighter", "brighter please", "a little brighter",
            "make it a bit brighter", "can you make it brighter", "more light please", "turn it up a bit",
            "turn them up a little", "make them brighter", "brighten it", "brighten it up a bit",
            "not bright enough", "still too dim", "a little more light"]
DIMMER = ["make it dimmer", "dimmer", "a bit dimmer", "dim it a little", "dim it a bit more", "a little less bright",
          "turn it down a bit", "turn them down a little", "make them dimmer", "too bright", "that's too bright",
          "dim it", "less light please", "it's too bright", "a little dimmer please", "tone it down a bit"]


def gen_brightness_step(rng):
    room = rng.choice(list(ROOMS))
    r = rng.choice(ROOMS[room])
    light = rng.choice(["lights", "light", "lamps", "lamp", "lighting"])
    direction = rng.choice(["up", "down"])
    if direction == "up":
        core = rng.choice([f"make the {r} {light} brighter", f"brighten the {r} {light}",
                           f"brighten the {light} in the {r} a bit", f"turn the {r} {light} up a bit",
                           f"the {r} {light} brighter please", f"a bit more light in the {r}", f"the {r} is too dim",
                           f"can you make the {r} brighter", f"raise the {r} {light} a little",
                           f"make the {light} in the {r} a bit brighter"])
    else:
        core = rng.choice([f"make the {r} {light} dimmer", f"dim the {r} {light} a bit",
                           f"dim the {light} in the {r} a little", f"turn the {r} {light} down a bit",
                           f"the {r} {light} dimmer please", f"the {r} is too bright", f"can you make the {r} dimmer",
                           f"lower the {r} {light} a little", f"dim the {r} {light}", f"less light in the {r}"])
    call = {"name": "change_brightness", "arguments": {"room": room, "direction": direction}}
    return _dress(rng, core), call, reply("lights", room=ROOM_SPOKEN[room])


def gen_thermostat(rng):
    if rng.random() < 0.5:
        degrees = rng.randint(60, 80) + (0.5 if rng.random() < 0.15 else 0)
    else:
        degrees = rng.randint(15, 28) + (0.5 if rng.random() < 0.2 else 0)
    if rng.random() < 0.05:
        degrees = rng.randint(5, 95)
    n = say_number(rng, degrees)
    deg = rng.choice(["degrees", "degrees", "", "degrees celsius", "degrees fahrenheit", "celsius", "fahrenheit"])
    t = f"{n} {deg}".strip()
    thing = rng.choice(["thermostat", "heat", "heating", "temperature", "temp", "ac", "air conditioning", "house",
                        "climate", "central heating", "thermostat temperature", "house temperature"])
    core = rng.choice([
        f"set the {thing} to {t}", f"{thing} to {t}", f"set {thing} {t}", f"change the {thing} to {t}",
        f"make it {t}", f"make it {t} in here", f"i want it {t}", f"turn the {thing} to {t}",
        f"turn the {thing} up to {t}", f"turn the {thing} down to {t}", f"put the {thing} on {t}",
        f"adjust the {thing} to {t}", f"set it to {t}", f"bring the {thing} to {t}", f"raise the {thing} to {t}",
        f"lower the {thing} to {t}", f"warm it up to {t}", f"cool it down to {t}", f"heat the house to {t}",
        f"keep the house at {t}", f"thermostat {t}", f"{t} on the thermostat", f"set the thermostat at {t}",
        f"can you put the {thing} at {t}", f"i'd like the {thing} at {t}", f"heat to {t}", f"cool to {t}",
        f"set the heat to {t} please", f"crank the heat to {t}", f"drop the {thing} to {t}",
        f"increase the {thing} to {t}", f"decrease the {thing} to {t}", f"{t} please on the thermostat"])
    call = {"name": "set_thermostat", "arguments": {"degrees": degrees}}
    return _dress(rng, core), call, reply("thermostat")


def gen_sensor(rng):
    room, kind = rng.choice(list(ROOMS)), rng.choice(SENSOR_KINDS)
    r = rng.choice(ROOMS[room])
    if kind == "temperature":
        core = rng.choice([
            f"what's the temperature in the {r}", f"how warm is the {r}", f"how hot is it in the {r}",
            f"how cold is it in the {r}", f"{r} temperature", f"temperature in the {r}", f"is it cold in the {r}",
            f"is the {r} warm", f"what temperature is the {r}", f"how warm is it in the {r}",
            f"check the {r} temperature", f"read the {r} temperature", f"what's the {r} temperature",
            f"what is the temperature of the {r}", f"tell me the temperature in the {r}", f"how hot is the {r}",
            f"temp in the {r}", f"what's the temp in the {r}", f"how many degrees is it in the {r}",
            f"is it warm in the {r}", f"in the {r} what's the temperature", f"what's it like in the {r} temperature wise",
            f"{r} temp", f"how chilly is the {r}", f"is the {r} too hot", f"what does the {r} thermometer say",
            f"get me the temperature from the {r}", f"temperature reading for the {r}", f"how cool is the {r}"])
    else:
        core = rng.choice([
            f"what's the humidity in the {r}", f"how humid is the {r}", f"how humid is it in the {r}",
            f"{r} humidity", f"humidity in the {r}", f"is it humid in the {r}", f"how damp is the {r}",
            f"check the {r} humidity", f"read the {r} humidity", f"what's the {r} humidity",
            f"what is the humidity of the {r}", f"tell me the humidity in the {r}", f"is the {r} dry",
            f"how dry is the {r}", f"humidity level in the {r}", f"what's the humidity level in the {r}",
            f"how much moisture is in the {r}", f"is the {r} too humid", f"in the {r} what's the humidity",
            f"get me the humidity from the {r}", f"how muggy is it in the {r}", f"is the air dry in the {r}",
            f"what's the relative humidity in the {r}", f"humidity reading for the {r}", f"how sticky is the {r}"])
    call = {"name": "read_sensor", "arguments": {"room": room, "kind": kind}}
    return _dress(rng, core, imperative=False), call, reply("reading", room=ROOM_SPOKEN[room], kind=kind)


def _operand(rng):
    kind = rng.random()
    if kind < 0.55:
        return rng.randint(0, 20)
    if kind < 0.85:
        return rng.randint(10, 100)
    if kind < 0.95:
        return rng.randint(100, 2000)
    return round(rng.randint(1, 99) + rng.choice([0.5, 0.25, 0.1, 0.2, 0.75]), 2)


def gen_calculate(rng):
    a, b, c = _operand(rng), _operand(rng), _operand(rng)
    if rng.random() < 0.3:
        b = rng.randint(1, 12)
    A, B, C = say_number(rng, a), say_number(rng, b), say_number(rng, c)
    pa, pb, pc = _plain(a), _plain(b), _plain(c)
    form = rng.random()
    plus = rng.choice(["plus", "plus", "and", "add"])
    minus = rng.choice(["minus", "minus", "take away", "less"])
    times = rng.choice(["times", "times", "multiplied by", "x", "by"])
    div = rng.choice(["divided by", "divided by", "over", "divide by", "split by"])
    if form < 0.6:
        op = rng.choice(["+", "-", "*", "/"])
        spoken = {"+": plus, "-": minus, "*": times, "/": div}[op]
        if op == "/" and b == 0:
            b, B, pb = 4, "four", "4"
        expr = f"{pa}{op}{pb}"
        q = f"{A} {spoken} {B}"
    elif form < 0.75:
        op1, op2 = rng.choice(["+", "-", "*", "/"]), rng.choice(["+", "-", "*", "/"])
        if c == 0:
            c, C, pc = 3, "three", "3"
        w = {"+": "plus", "-": "minus", "*": "times", "/": "divided by"}
        expr = f"{pa}{op1}{pb}{op2}{pc}"
        q = f"{A} {w[op1]} {B} {w[op2]} {C}"
    else:
        pick = rng.randint(0, 9)
        if pick == 0:
            expr, q = f"{pa}+{pb}", rng.choice([f"add {A} and {B}", f"add {A} to {B}", f"the sum of {A} and {B}", f"sum of {A} and {B}"])
        elif pick == 1:
            expr, q = f"{pb}-{pa}", rng.choice([f"subtract {A} from {B}", f"take {A} from {B}", f"take {A} away from {B}"])
        elif pick == 2:
            expr, q = f"{pa}*{pb}", rng.choice([f"multiply {A} by {B}", f"multiply {A} and {B}", f"the product of {A} and {B}", f"{A} multiplied with {B}"])
        elif pick == 3:
            b = b or 2
            expr, q = f"{pa}/{_plain(b)}", rng.choice([f"divide {A} by {say_number(rng, b)}", f"{A} split {say_number(rng, b)} ways"])
        elif pick == 4:
            expr, q = f"{pa}*{pa}", rng.choice([f"{A} squared", f"square {A}", f"{A} times itself"])
        elif pick == 5:
            expr, q = f"{pa}/2", rng.choice([f"half of {A}", f"half {A}", f"{A} halved"])
        elif pick == 6:
            expr, q = f"{pa}*2", rng.choice([f"double {A}", f"twice {A}", f"{A} doubled"])
        elif pick == 7:
            expr, q = f"{pa}*3", rng.choice([f"triple {A}", f"{A} tripled", f"three times {A}"])
        elif pick == 8:
            expr, q = f"{pa}*{pb}/100", rng.choice([f"{A} percent of {B}", f"what's {A} percent of {B}", f"{A} % of {B}"])
        else:
            expr, q = f"{pa}*{pa}*{pa}", rng.choice([f"{A} cubed", f"{A} to the third"])
    core = rng.choice([
        f"what is {q}", f"what's {q}", f"whats {q}", f"{q}", f"calculate {q}", f"how much is {q}",
        f"what does {q} make", f"what does {q} equal", f"{q} equals", f"{q} is what", f"compute {q}",
        f"work out {q}", f"what do you get for {q}", f"solve {q}", f"tell me {q}", f"quick math {q}",
        f"do the math {q}", f"figure out {q}", f"what's the answer to {q}", f"{q} equals what",
        f"can you calculate {q}", f"what would {q} be", f"what is the result of {q}", f"math {q}",
        f"how much would {q} be", f"what comes out of {q}", f"help me with {q}", f"what's {q} equal to"])
    call = {"name": "calculate", "arguments": {"expression": expr}}
    return _dress(rng, core, imperative=False), call, reply("value")


def _conversion(rng):
    group = rng.choice(UNIT_GROUPS)
    src, dst = rng.sample(group, 2)
    if group == ["celsius", "fahrenheit"]:
        value = rng.randint(-20, 40) if src == "celsius" else rng.randint(0, 110)
        value = abs(value)
    else:
        value = rng.choice([rng.randint(1, 20), rng.randint(1, 200), rng.randint(1, 10) * 5, 1, 1,
                            round(rng.randint(1, 20) + 0.5, 1), rng.randint(100, 1000)])
    return src, dst, value


def gen_convert(rng):
    src, dst, value = _conversion(rng)
    s, d = rng.choice(UNIT_WORDS[src]), rng.choice(UNIT_WORDS[dst])
    if src == "celsius" and rng.random() < 0.5 and s in ("celsius", "c"):
        s = f"degrees {s}"
    v = say_number(rng, value)
    if value == 1 and rng.random() < 0.6:
        v = rng.choice(["a", "one"])
    if value == 0.5 and rng.random() < 0.5:
        v = "half a"
    core = rng.choice([
        f"convert {v} {s} to {d}", f"convert {v} {s} into {d}", f"{v} {s} in {d}", f"{v} {s} to {d}",
        f"how many {d} in {v} {s}", f"how many {d} is {v} {s}", f"how many {d} are in {v} {s}",
        f"what is {v} {s} in {d}", f"what's {v} {s} in {d}", f"{v} {s} is how many {d}",
        f"{v} {s} equals how many {d}", f"change {v} {s} to {d}", f"what's {v} {s} in {d}",
        f"how much is {v} {s} in {d}", f"{v} {s} in {d} please", f"turn {v} {s} into {d}",
        f"what are {v} {s} in {d}", f"give me {v} {s} in {d}", f"{v} {s} how many {d}",
        f"express {v} {s} in {d}", f"{s} to {d} {v}", f"convert {s} to {d} {v}",
        f"what is {v} {s} converted to {d}", f"in {d} how much is {v} {s}", f"{v} {s} into {d}",
        f"if i have {v} {s} how many {d} is that", f"how many {d} make {v} {s}", f"what does {v} {s} come to in {d}"])
    call = {"name": "convert", "arguments": {"value": value, "from": src, "to": dst}}
    return _dress(rng, core, imperative=False), call, reply("value")


def gen_chit_chat(rng):
    intent = rng.choice(list(CHIT_CHAT))
    answer, phrases = CHIT_CHAT[intent]
    core = rng.choice(phrases)
    if rng.random() < 0.2:
        core = f"{rng.choice(['hey parley', 'parley', 'um', 'so', 'ok', 'well', 'oh'])} {core}"
    if rng.random() < 0.1:
        core = f"{core} {rng.choice(['parley', 'buddy', 'friend', 'then', 'again', 'mate'])}"
    return core, None, answer


def _fill(rng, template):
    out = template
    while "{" in out:
        start = out.index("{")
        key = out[start + 1:out.index("}", start)]
        if key == "num":
            value = say_number(rng, rng.choice([rng.randint(1, 12), rng.randint(1, 100), rng.randint(100, 999)]))
        elif key == "device":
            value = rng.choice(DEVICES[rng.choice(list(DEVICES))])
        elif key == "udevice":
            value = rng.choice(UNKNOWN_DEVICES)
        elif key == "uroom":
            value = rng.choice(OTHER_ROOMS)
        elif key == "room":
            value = rng.choice(ROOMS[rng.choice(list(ROOMS))])
        else:
            value = rng.choice(FILL[key])
        out = out[:start] + value + out[out.index("}", start) + 1:]
    return out


def gen_out_of_domain(rng):
    core = _fill(rng, rng.choice(OUT_OF_DOMAIN))
    return _dress(rng, core, imperative=False), None, CANT


def gen_which_room(rng):
    """A device command without a room: ask, and the follow-up names the room."""
    device, state = rng.choice(list(DEVICES)), rng.choice(["on", "off"])
    d = rng.choice(DEVICES[device])
    v = rng.choice(ON_VERBS if state == "on" else OFF_VERBS)
    core = rng.choice([f"{v} the {d}", f"{d} {state}", f"{v} {_the(rng)}{d}", f"i want the {d} {state}"])
    return _dress(rng, core), None, WHICH_ROOM, {"device": device, "state": state}


SKILLS = {
    "get_time": (gen_time, 5), "get_date": (gen_date, 5), "set_timer": (gen_timer, 12), "cancel_timer": (gen_cancel, 4),
    "set_device": (gen_device, 16), "set_brightness": (gen_brightness, 9), "change_brightness": (gen_brightness_step, 4),
    "set_thermostat": (gen_thermostat, 7),
    "read_sensor": (gen_sensor, 8), "calculate": (gen_calculate, 14), "convert": (gen_convert, 22),
    "chit_chat": (gen_chit_chat, 8), "out_of_domain": (gen_out_of_domain, 14),
}


# ---------------------------------------------------------------- follow-ups

def _follow_up(rng) -> Example:
    """A first exchange and a short second request that only makes sense after it."""
    kind = rng.choice(["device_room", "device_state", "device_other", "brightness", "sensor_room",
                       "sensor_kind", "convert_to", "timer_again", "which_room", "brighter"])
    if kind == "brighter":
        first, call0, text0 = gen_brightness(rng) if rng.random() < 0.5 else _light_on(rng)
        direction = rng.choice(["up", "down"])
        second = rng.choice(BRIGHTER if direction == "up" else DIMMER)
        room = call0["arguments"]["room"]
        call = {"name": "change_brightness", "arguments": {"room": room, "direction": direction}}
        history = [{"role": "user", "content": first}, {"role": "assistant", "content": text0, "tool_calls": [call0]},
                   {"role": "user", "content": second}]
        return Example(history, call, reply("lights", room=ROOM_SPOKEN[room]), "follow_up")
    if kind == "which_room":
        first, _, text0, info = gen_which_room(rng)
        room = rng.choice(list(ROOMS))
        r = rng.choice(ROOMS[room])
        second = rng.choice([f"the {r}", f"{r}", f"in the {r}", f"the one in the {r}", f"{r} please",
                             f"um the {r}", f"in the {r} please", f"{r} one"])
        call = {"name": "set_device", "arguments": {"device": info["device"], "room": room, "state": info["state"]}}
        history = [{"role": "user", "content": first}, {"role": "assistant", "content": text0}]
        return Example(history + [{"role": "user", "content": second}], call, _device_reply(info["device"], room), "follow_up")
    gen = {"device_room": gen_device, "device_state": gen_device, "device_other": gen_device,
           "brightness": gen_brightness, "sensor_room": gen_sensor, "sensor_kind": gen_sensor,
           "convert_to": gen_convert, "timer_again": gen_timer}[kind]
    first, call0, text0 = gen(rng)
    args = dict(call0["arguments"])
    name = call0["name"]
    if kind in ("device_room", "brightness", "sensor_room"):
        room = rng.choice([r for r in ROOMS if r != args["room"]])
        r = rng.choice(ROOMS[room])
        second = rng.choice([f"and in the {r}", f"and the {r}", f"what about the {r}", f"the {r} too",
                             f"same for the {r}", f"also the {r}", f"and {r}", f"now the {r}", f"how about the {r}",
                             f"and in the {r} too", f"do the {r} as well", f"the {r} as well", f"and in the {r} please",
                             f"same in the {r}", f"what about in the {r}", f"and the one in the {r}"])
        args["room"] = room
    elif kind == "device_state":
        state = "off" if args["state"] == "on" else "on"
        second = rng.choice([f"now turn it {state}", f"turn it {state}", f"turn it back {state}",
                             f"switch it {state} again", f"actually turn it {state}", f"ok now {state}",
                             f"and now {state}", f"{state} again please", f"and switch it {state}", f"turn that {state}",
                             f"put it back {state}", f"switch that {state}"])
        args["state"] = state
    elif kind == "device_other":
        device = rng.choice([x for x in DEVICES if x != args["device"]])
        d = rng.choice(DEVICES[device])
        second = rng.choice([f"and the {d}", f"the {d} too", f"also the {d}", f"what about the {d}",
                             f"and the {d} as well", f"same with the {d}", f"and the {d} in there"])
        args["device"] = device
    elif kind == "sensor_kind":
        kind2 = "humidity" if args["kind"] == "temperature" else "temperature"
        word = rng.choice(["humidity", "humidity level"] if kind2 == "humidity" else ["temperature", "temp"])
        second = rng.choice([f"and the {word}", f"what about the {word}", f"and {word}", f"how about the {word}",
                             f"and the {word} there", f"what's the {word} there"])
        args["kind"] = kind2
    elif kind == "convert_to":
        group = next(g for g in UNIT_GROUPS if args["from"] in g)
        options = [u for u in group if u not in (args["from"], args["to"])]
        if not options:
            return _follow_up(rng)
        dst = rng.choice(options)
        d = rng.choice(UNIT_WORDS[dst])
        second = rng.choice([f"and in {d}", f"what about {d}", f"and {d}", f"how about in {d}", f"in {d}",
                             f"now in {d}", f"and how many {d}", f"what's that in {d}"])
        args["to"] = dst
    else:  # timer_again
        seconds = _timer_seconds(rng)
        d = say_duration(rng, seconds)
        second = rng.choice([f"and another one for {d}", f"another timer for {d}", f"and one for {d}",
                             f"also {d}", f"and a second one for {d}", f"one more for {d}"])
        args["seconds"] = seconds
    call = {"name": name, "arguments": args}
    history = [{"role": "user", "content": first},
               {"role": "assistant", "content": text0, "tool_calls": [call0]},
               {"role": "user", "content": second}]
    text = {"set_device": lambda: _device_reply(args["device"], args["room"]),
            "set_brightness": lambda: reply("lights", room=ROOM_SPOKEN[args["room"]]),
            "read_sensor": lambda: reply("reading", room=ROOM_SPOKEN[args["room"]], kind=args["kind"])}.get(name, lambda: text0)()
    return Example(history, call, text, "follow_up")


# ---------------------------------------------------------------- the user's own home

# Names and areas of made-up homes. The model never reads them: in a user's home, names and areas reach it
# as slots (<e0>, <a0>; chat_template.hide_names), so what it learns is where a name stands in a request.
HOME_AREAS = ["den", "nursery", "porch", "studio", "loft", "guest room", "playroom", "laundry room", "dining room",
              "patio", "basement", "sunroom", "upstairs hall", "kids room", "master bath", "pantry", "library",
              "workshop", "back garden", "front hall", "bedroom", "kitchen", "office", "lounge", "cellar", "annex"]
HOME_NAMES = {
    "light": ["ceiling light", "desk lamp", "floor lamp", "pendant", "chandelier", "string lights", "night light",
              "spotlights", "led strip", "wall sconce", "bedside lamp", "lantern", "fairy lights", "vanity light",
              "globe", "uplighter", "accent light", "mirror light", "track lights", "bulb", "lamp", "light"],
    "switch": ["kettle", "coffee grinder", "heated blanket", "aquarium", "christmas tree", "fountain", "printer",
               "monitor", "dehumidifier", "boiler", "espresso machine", "projector", "amplifier", "sprinkler",
               "towel rail", "electric blanket", "water feature", "hot plate", "charger", "fish tank"],
    "fan": ["ceiling fan", "desk fan", "tower fan", "exhaust fan", "vent fan", "extractor", "box fan", "fan"],
    "media_player": ["soundbar", "record player", "radio", "tv", "television", "speaker", "stereo"],
    "climate": ["thermostat", "heat pump", "radiator", "floor heating", "air conditioning", "mini split"],
    "cover": ["blinds", "curtains", "shades", "shutters", "garage door", "awning", "skylight", "gate",
              "roller blind", "drapes", "sun shade"],
    "lock": ["front door", "back door", "side door", "patio door", "deadbolt", "cellar door", "shed door",
             "gate lock", "door lock"],
    "scene": ["movie time", "good night", "dinner", "reading", "party mode", "relax", "morning", "bedtime",
              "romantic", "focus", "cozy", "date night", "wake up", "away", "cleaning", "game night"],
    "binary_sensor": ["front window", "mailbox", "motion sensor", "back window", "leak sensor", "smoke alarm"],
}
UNKNOWN_HOME_NAMES = ["dishwasher", "oven", "washing machine", "dryer", "robot vacuum", "microwave", "toaster",
                      "fridge", "freezer", "doorbell", "hot tub", "pool pump", "fireplace", "humidifier",
                      "water heater", "jacuzzi", "sauna", "garden lights", "porch fan", "wine cooler",
                      "treadmill", "air fryer", "bread maker", "chimney", "attic fan"]
TIMER_LABELS = ["pasta", "pizza", "laundry", "rice", "bread", "tea", "oven", "cookie", "nap", "homework", "workout",
                "roast", "potato", "soup", "cake", "meeting", "parking", "chicken", "steak", "bath", "yoga", "study",
                "fish", "muffin", "stew", "sauce", "break", "plant", "dryer", "washer", "tart", "noodle", "brownie"]


@dataclass
class Home:
    """A made-up home: its entities and the (names, areas) lexicon runtime slotting would use."""
    entities: list
    lexicon: tuple

    def of(self, *components):
        return [e for e in self.entities if e.component in components]


def make_home(rng) -> Home:
    areas = rng.sample(HOME_AREAS, rng.randint(2, 4))
    entities, used = [], set()
    for component, names in HOME_NAMES.items():
        for _ in range(rng.choice([0, 1, 1, 2, 2, 3])):
            name = rng.choice(names)
            if name in used:
                continue
            used.add(name)
            area = rng.choice(areas) if component not in ("scene",) and rng.random() < 0.8 else None
            entities.append(Entity(f"c:{len(entities)}", name, component, area))
    for area in rng.sample(areas, rng.randint(0, len(areas))):
        for kind in rng.sample(SENSOR_KINDS, rng.randint(1, 2)):
            entities.append(Entity(f"c:{len(entities)}", f"{area} {kind}", "sensor", area, device_class=kind))
    inventory = Inventory(entities)
    return Home(entities, inventory.lexicon())


def _slotted(home: Home, history: list[dict], name: str | None, area: str | None) -> bool:
    """The request's name and area are exactly what runtime slotting finds."""
    _, slots = model_prompt(history, home.lexicon)
    return (name is None or name in slots.names) and (area is None or area in slots.areas)


def _where(rng, n, area):
    """A name phrase, with its area or without: (text, area used)."""
    if area and rng.random() < 0.4:
        return rng.choice([f"the {n} in the {area}", f"the {area} {n}", f"the {n} in {area}",
                           f"the {n} of the {area}", f"my {area} {n}"]), area
    return rng.choice([f"the {n}", f"the {n}", f"my {n}", f"{n}", f"our {n}"]), None


def _home_call(name, args, area):
    if area:
        args = {**args, "area": area}
    return {"name": name, "arguments": args}


# A name is a slot to the model, so a verb must not say switch for one kind and cover for another: "close
# <e0>" and "stop <e0>" are set_cover, and the runner switches a switch off for them (open: on).
COVER_VERBS = {"open up", "close", "stop"}
HOME_ON_VERBS = [v for v in ON_VERBS if v not in COVER_VERBS]
HOME_OFF_VERBS = [v for v in OFF_VERBS if v not in COVER_VERBS]


def gen_home_switch(rng, home):
    e = rng.choice(home.of(*SWITCHABLE))
    state = rng.choice(["on", "off"])
    phrase, area = _where(rng, e.name, e.area)
    v = rng.choice(HOME_ON_VERBS if state == "on" else HOME_OFF_VERBS)
    verb, *particle = v.split()
    core = rng.choice([f"{v} {phrase}", f"{v} {phrase}", f"{phrase} {state}", f"set {phrase} to {state}",
                       f"i want {phrase} {state}", f"can you {v} {phrase}", f"put {phrase} {state}",
                       f"{verb} {phrase} {particle[0]}" if particle and particle[0] in ("on", "off") else f"{v} {phrase}",
                       f"make sure {phrase} is {state}", f"have {phrase} {state}", f"{phrase} {state} please"])
    return core, _home_call("switch_device", {"name": e.name, "state": state}, area), e.name, area


def gen_home_level(rng, home):
    e = rng.choice(home.of("light"))
    pct = rng.choice([rng.randint(0, 100), rng.randint(1, 10) * 10, rng.choice([5, 25, 50, 75, 100])])
    phrase, area = _where(rng, e.name, e.area)
    p = _percent_phrase(rng, pct)
    verb = rng.choice(["dim", "set", "brighten", "turn", "put", "bring", "lower", "raise", "adjust", "change"])
    core = rng.choice([f"{verb} {phrase} to {p}", f"{phrase} to {p}", f"{phrase} at {p}", f"put {phrase} at {p}",
                       f"set {phrase} brightness to {p}", f"make {phrase} {p}", f"{verb} {phrase} {p}",
                       f"turn {phrase} down to {p}", f"turn {phrase} up to {p}", f"i want {phrase} at {p}"])
    return core, _home_call("set_level", {"name": e.name, "percent": pct}, area), e.name, area


def gen_home_level_step(rng, home):
    e = rng.choice(home.of("light"))
    phrase, area = _where(rng, e.name, e.area)
    direction = rng.choice(["up", "down"])
    # not "raise" or "lower": with the name a slot, those open and close a cover
    core = rng.choice([f"make {phrase} brighter", f"brighten {phrase}", f"brighten {phrase} a bit",
                       f"turn {phrase} up a bit", f"{phrase} brighter please", f"make {phrase} a bit brighter"]
                      if direction == "up" else
                      [f"make {phrase} dimmer", f"dim {phrase} a bit", f"dim {phrase}", f"turn {phrase} down a bit",
                       f"{phrase} dimmer please", f"make {phrase} a bit dimmer"])
    return core, _home_call("change_level", {"name": e.name, "direction": direction}, area), e.name, area


STATE_QUESTIONS = {
    "on": ["is {p} on", "is {p} off", "is {p} still on", "did i leave {p} on", "is {p} running", "are {p} on",
           "is {p} switched on", "check {p}", "what's the status of {p}", "is {p} turned off", "{p} on or off"],
    "cover": ["is {p} open", "is {p} closed", "are {p} open", "are {p} closed", "did i close {p}", "is {p} shut",
              "check {p}", "is {p} up", "is {p} down", "did i leave {p} open"],
    "lock": ["is {p} locked", "is {p} unlocked", "did i lock {p}", "check {p}", "is {p} secure", "is {p} locked up"],
    "sensor": ["what's {p}", "what does {p} say", "what's {p} reading", "check {p}", "read {p}", "tell me {p}"],
    "binary": ["is {p} open", "check {p}", "is {p} on", "what's {p} saying", "any alert from {p}", "is {p} triggered"],
}


def gen_home_state(rng, home):
    e = rng.choice(home.entities)
    if e.component == "sensor":
        if rng.random() < 0.6 and e.area:
            word = e.device_class
            template = rng.choice([f"what's the {word} in the {e.area}", f"how's the {word} in the {e.area}",
                                   f"what is the {word} of the {e.area}", f"tell me the {word} in the {e.area}",
                                   f"check the {word} in the {e.area}", f"{word} in the {e.area}"])
            return template, _home_call("get_state", {"name": word}, e.area), word, e.area
        group = "sensor"
    else:
        group = {"cover": "cover", "lock": "lock", "binary_sensor": "binary", "scene": None}.get(e.component, "on")
        if group is None:
            return gen_home_switch(rng, home)
    phrase, area = _where(rng, e.name, e.area)
    return (rng.choice(STATE_QUESTIONS[group]).format(p=phrase), _home_call("get_state", {"name": e.name}, area),
            e.name, area)


def gen_home_all(rng, home):
    state = rng.choice(["on", "off"])
    v = rng.choice(["turn", "switch", "shut", "put"] if state == "off" else ["turn", "switch", "put"])
    kinds = [w for w in ("lights", "lamps", "fans", "switches", "plugs") if w in home.lexicon[0]]
    area = rng.choice(sorted(home.lexicon[1])) if home.lexicon[1] and rng.random() < 0.6 else None
    if kinds and rng.random() < 0.6:
        kind = rng.choice(kinds)
        where = f" in the {area}" if area else ""
        core = rng.choice([f"{v} {state} all the {kind}{where}", f"{v} all the {kind} {state}{where}",
                           f"all {kind} {state}{where}", f"{v} {state} every one of the {kind}{where}",
                           f"{v} {state} all {kind}{where}"])
        return core, _home_call("switch_all", {"name": kind, "state": state}, area), kind, area
    where = f" in the {area}" if area else ""
    core = rng.choice([f"{v} {state} everything{where}", f"{v} everything {state}{where}", f"everything {state}{where}",
                       f"{v} {state} all the devices{where}" if area else f"{v} everything {state} in the house",
                       f"{v} {state} everything in here" if not area else f"{v} {state} all of the {area}"])
    return core, _home_call("switch_all", {"name": "everything", "state": state}, area), None, area


def gen_home_cover(rng, home):
    e = rng.choice(home.of("cover"))
    action = rng.choice(["open", "close", "open", "close", "stop"])
    phrase, area = _where(rng, e.name, e.area)
    core = rng.choice({
        "open": [f"open {phrase}", f"open up {phrase}", f"raise {phrase}", f"pull up {phrase}", f"lift {phrase}",
                 f"open {phrase} please", f"can you open {phrase}", f"let the light in open {phrase}", f"{phrase} up"],
        "close": [f"close {phrase}", f"shut {phrase}", f"lower {phrase}", f"pull down {phrase}", f"draw {phrase}",
                  f"let down {phrase}", f"close {phrase} please", f"can you shut {phrase}", f"{phrase} down"],
        "stop": [f"stop {phrase}", f"halt {phrase}", f"stop moving {phrase}", f"hold {phrase} there", f"freeze {phrase}"],
    }[action])
    return core, _home_call("set_cover", {"name": e.name, "action": action}, area), e.name, area


def gen_home_lock(rng, home):
    e = rng.choice(home.of("lock"))
    action = rng.choice(["lock", "unlock"])
    core = rng.choice({
        "lock": [f"lock the {e.name}", f"lock up the {e.name}", f"secure the {e.name}", f"bolt the {e.name}",
                 f"make sure the {e.name} is locked", f"lock my {e.name}", f"can you lock the {e.name}"],
        "unlock": [f"unlock the {e.name}", f"unlock my {e.name}", f"can you unlock the {e.name}",
                   f"unbolt the {e.name}", f"let me in unlock the {e.name}", f"unlock the {e.name} please"],
    }[action])
    return core, {"name": "set_lock", "arguments": {"name": e.name, "action": action}}, e.name, None


def gen_home_scene(rng, home):
    e = rng.choice(home.of("scene"))
    n = e.name
    core = rng.choice([f"activate {n}", f"activate the {n} scene", f"run {n}", f"start {n}", f"{n} scene",
                       f"set the {n} scene", f"it's {n}", f"{n} please", f"{n}", f"scene {n}", f"switch to {n}",
                       f"turn on the {n} scene", f"run the {n} scene", f"let's do {n}", f"go to {n}"])
    return core, {"name": "activate_scene", "arguments": {"name": n}}, n, None


HOME_GENERATORS = {
    "switch_device": (gen_home_switch, SWITCHABLE, 10),
    "set_level": (gen_home_level, ("light",), 4),
    "change_level": (gen_home_level_step, ("light",), 3),
    "get_state": (gen_home_state, None, 6),
    "switch_all": (gen_home_all, None, 4),
    "set_cover": (gen_home_cover, ("cover",), 5),
    "set_lock": (gen_home_lock, ("lock",), 4),
    "activate_scene": (gen_home_scene, ("scene",), 4),
}


def home_example(rng, skill: str | None = None, home: Home | None = None) -> Example:
    """One request in a made-up home of the user's, its names as runtime slotting finds them."""
    for _ in range(50):
        home = home or make_home(rng)
        names = [n for n, (_, needs, _) in HOME_GENERATORS.items() if needs is None or home.of(*needs)]
        chosen = skill if skill in names else rng.choices(names, [HOME_GENERATORS[n][2] for n in names])[0]
        core, call, name, area = HOME_GENERATORS[chosen][0](rng, home)
        request = _dress(rng, core, imperative=chosen != "get_state")
        history = [{"role": "user", "content": request}]
        if _slotted(home, history, name, area):
            return Example(history, call, R, f"home_{chosen}", home.lexicon, home)
        home = None
    raise RuntimeError("no slottable request")


def gen_unknown_name(rng) -> Example:
    """A device, or an area, the user's home does not have: an honest answer and no action."""
    for _ in range(50):
        home = make_home(rng)
        names, areas = home.lexicon
        unknown = rng.choice(UNKNOWN_HOME_NAMES)
        if rng.random() < 0.35 and names:
            # a known kind of device in a room the home does not have: "the garage lamp"
            kind = rng.choice([w for w in ("light", "lamp", "fan", "blinds", "tv") if w in names] or [None])
            room = rng.choice(OTHER_ROOMS + [w for ws in ROOMS.values() for w in ws])
            if kind is None or room in areas or any(w in names for w in room.split()):
                continue
            unknown = rng.choice([f"{room} {kind}", f"{kind} in the {room}"])
        elif any(w in names or w in areas for w in unknown.split()):
            continue
        core = rng.choice([f"turn on the {unknown}", f"switch off the {unknown}", f"turn the {unknown} off",
                           f"is the {unknown} on", f"open the {unknown}", f"start the {unknown}",
                           f"dim the {unknown} to fifty percent", f"lock the {unknown}", f"close the {unknown}",
                           f"turn off the {unknown}", f"is the {unknown} open", f"switch on the {unknown}"])
        request = _dress(rng, core)
        return Example([{"role": "user", "content": request}], None, UNKNOWN_NAME, "unknown_name", home.lexicon, home)
    raise RuntimeError("no unknown name")


def gen_default_state(rng):
    """State questions and whole-home switching in the default home, by the words the model knows."""
    device, room = rng.choice(list(DEVICES)), rng.choice(list(ROOMS))
    d, r = rng.choice(DEVICES[device]), rng.choice(ROOMS[room])
    if rng.random() < 0.5:
        core = rng.choice([f"is the {r} {d} on", f"is the {d} in the {r} on", f"is the {r} {d} off",
                           f"did i leave the {r} {d} on", f"is the {d} in the {r} still on", f"check the {r} {d}",
                           f"is the {r} {d} running", f"what's the {r} {d} doing", f"is the {d} on in the {r}"])
        return _dress(rng, core, imperative=False), {"name": "get_state", "arguments": {"name": device, "area": room}}, R
    state = rng.choice(["on", "off"])
    v = rng.choice(["turn", "switch", "put"])
    if rng.random() < 0.5:
        plural = rng.choice([w for w in DEVICES[device] if w.endswith("s")] or [d])
        where, area = (f" in the {r}", room) if rng.random() < 0.5 else ("", None)
        core = rng.choice([f"{v} {state} all the {plural}{where}", f"{v} all the {plural} {state}{where}",
                           f"all {plural} {state}{where}", f"{v} {state} every {d}{where}"])
        return _dress(rng, core), _home_call("switch_all", {"name": device, "state": state}, area), R
    core = rng.choice([f"{v} {state} everything in the {r}", f"{v} everything in the {r} {state}",
                       f"everything {state} in the {r}", f"{v} {state} all the devices in the {r}"])
    return _dress(rng, core), _home_call("switch_all", {"name": "everything", "state": state}, room), R


def _alarm_time(rng):
    """(hour, minute, period or None, spoken)."""
    h, m = rng.randint(1, 12), rng.choice([0, 0, 15, 30, 45, rng.randint(1, 59)])
    period = rng.choice([None, None, "am", "pm"])
    H = say_number(rng, h)
    if m == 0:
        spoken = rng.choice([H, f"{H} o'clock", f"{h}:00" if rng.random() < 0.3 else H])
    elif m == 30 and rng.random() < 0.3:
        spoken = f"half past {H}"
    elif m == 15 and rng.random() < 0.3:
        spoken = f"quarter past {H}"
    elif m < 10:
        spoken = f"{H} oh {say_number(rng, m)}"
    else:
        spoken = rng.choice([f"{H} {say_number(rng, m)}", f"{h}:{m:02d}"])
    if period:
        spoken += " " + rng.choice({"am": ["am", "a m", "in the morning"], "pm": ["pm", "p m", "in the evening", "at night"]}[period])
    return h, m, period, spoken


def gen_alarm(rng):
    h, m, period, t = _alarm_time(rng)
    core = rng.choice([f"wake me at {t}", f"wake me up at {t}", f"set an alarm for {t}", f"set alarm {t}",
                       f"alarm at {t}", f"alarm for {t}", f"i need to get up at {t}", f"set my alarm to {t}",
                       f"get me up at {t}", f"set an alarm at {t} tomorrow", f"wake me tomorrow at {t}",
                       f"alarm {t} please", f"make an alarm for {t}", f"i want an alarm at {t}"])
    args = {"hour": h, "minute": m}
    if period:
        args["period"] = period
    return _dress(rng, core), {"name": "set_alarm", "arguments": args}, R


def gen_named_timer(rng):
    label = rng.choice(TIMER_LABELS)
    kind = rng.choices(["start", "left", "left_any", "stop"], [5, 3, 2, 2])[0]
    if kind == "start":
        seconds = _timer_seconds(rng)
        d = say_duration(rng, seconds)
        core = rng.choice([f"set a {label} timer for {d}", f"start a {label} timer for {d}", f"{label} timer for {d}",
                           f"{label} timer {d}", f"set the {label} timer to {d}", f"start the {label} timer for {d}",
                           f"give me a {label} timer for {d}", f"i need a {label} timer for {d}",
                           f"set a {d} {label} timer", f"new {label} timer {d}", f"make a {label} timer for {d}"])
        return _dress(rng, core), {"name": "start_timer", "arguments": {"name": label, "seconds": seconds}}, R
    if kind == "left":
        core = rng.choice([f"how long is left on the {label} timer", f"how much time is left on the {label} timer",
                           f"how long on the {label} timer", f"time left on the {label} timer",
                           f"check the {label} timer", f"how's the {label} timer doing",
                           f"when will the {label} timer ring", f"how much longer on the {label} timer"])
        return _dress(rng, core, imperative=False), {"name": "timer_left", "arguments": {"name": label}}, R
    if kind == "left_any":
        core = rng.choice(["how long is left on the timer", "how much time is left", "how long is left",
                           "time left on my timer", "how much longer on the timer", "check my timer",
                           "when will my timer go off", "how much time is left on my timer", "how long till the timer rings"])
        return _dress(rng, core, imperative=False), {"name": "timer_left", "arguments": {}}, R
    core = rng.choice([f"cancel the {label} timer", f"stop the {label} timer", f"delete the {label} timer",
                       f"kill the {label} timer", f"turn off the {label} timer", f"remove the {label} timer",
                       f"i don't need the {label} timer anymore", f"cancel my {label} timer"])
    return _dress(rng, core), {"name": "stop_timer", "arguments": {"name": label}}, R


def _prior(example: Example) -> list[dict]:
    """The example's conversation followed by the assistant turn that answered it."""
    answer = {"role": "assistant", "content": example.text}
    if example.call:
        answer["tool_calls"] = [example.call]
    return example.history + [answer]


def home_follow_up(rng) -> Example:
    """Second turns in the user's home: another area, another device, the other state, which one, yes/no."""
    kind = rng.choice(["area", "other", "state", "which", "which", "confirm", "confirm", "timer", "brighter"])
    if kind == "timer":
        first = Example(*(lambda r: ([{"role": "user", "content": r[0]}], r[1], r[2]))(gen_named_timer(rng)), "t")
        if first.call["name"] != "start_timer":
            return home_follow_up(rng)
        label = rng.choice([t for t in TIMER_LABELS if t != first.call["arguments"]["name"]])
        seconds = _timer_seconds(rng)
        d = say_duration(rng, seconds)
        second = rng.choice([f"and a {label} timer for {d}", f"also a {label} timer for {d}",
                             f"and another {label} timer for {d}", f"plus a {label} timer for {d}"])
        return Example(_prior(first) + [{"role": "user", "content": second}],
                       {"name": "start_timer", "arguments": {"name": label, "seconds": seconds}}, R, "follow_up")
    for _ in range(50):
        home = make_home(rng)
        names, areas = home.lexicon
        if kind == "confirm":
            targets = home.of("lock") + [e for e in home.of("cover") if e.name in ("garage door", "gate")]
            if not targets:
                continue
            e = rng.choice(targets)
            core, call = (f"unlock the {e.name}", {"name": "set_lock", "arguments": {"name": e.name, "action": "unlock"}}) \
                if e.component == "lock" else \
                (f"open the {e.name}", {"name": "set_cover", "arguments": {"name": e.name, "action": "open"}})
            first = Example([{"role": "user", "content": _dress(rng, core)}], call, R, "x", home.lexicon)
            answer = rng.choice(["yes", "no"])
            second = rng.choice(YES if answer == "yes" else NO)
            return Example(_prior(first) + [{"role": "user", "content": second}],
                           {"name": "confirm", "arguments": {"answer": answer}}, R, "follow_up", home.lexicon)
        if kind == "brighter":
            lights = home.of("light")
            if not lights:
                continue
            e = rng.choice(lights)
            phrase, area = _where(rng, e.name, e.area)
            if rng.random() < 0.5:
                first = Example([{"role": "user", "content": _dress(rng, f"turn on {phrase}")}],
                                _home_call("switch_device", {"name": e.name, "state": "on"}, area), R, "x", home.lexicon)
            else:
                core, call0, _, _ = gen_home_level(rng, home)
                e = next(x for x in lights if x.name == call0["arguments"]["name"])
                first = Example([{"role": "user", "content": _dress(rng, core)}], call0, R, "x", home.lexicon)
                area = call0["arguments"].get("area")
            direction = rng.choice(["up", "down"])
            history = _prior(first) + [{"role": "user", "content": rng.choice(BRIGHTER if direction == "up" else DIMMER)}]
            call = _home_call("change_level", {"name": e.name, "direction": direction}, area)
            if _slotted(home, history[:1], e.name, area):
                return Example(history, call, R, "follow_up", home.lexicon)
            continue
        switchable = home.of("light", "switch", "fan", "media_player")
        if len(switchable) < 2:
            continue
        if kind == "which":
            # "turn on the lamp" matched two lamps; the answer names one of them, or its area.
            by_word = {}
            for e in switchable:
                for w in e.name.split():
                    by_word.setdefault(w, []).append(e)
            shared = [w for w, es in by_word.items() if len(es) > 1 and w in names]
            if not shared:
                continue
            word = rng.choice(shared)
            state = rng.choice(["on", "off"])
            # the question was a command, or a state question: the answer picks the device, the skill stays
            if rng.random() < 0.7:
                asked, arguments = _dress(rng, f"turn {state} the {word}"), {"state": state}
                skill = "switch_device"
            else:
                asked, arguments = rng.choice(STATE_QUESTIONS["on"]).format(p=f"the {word}"), {}
                skill = "get_state"
            first = Example([{"role": "user", "content": asked}],
                            {"name": skill, "arguments": {"name": word, **arguments}}, R, "x", home.lexicon)
            target = rng.choice(by_word[word])
            if target.area and rng.random() < 0.4 and sum(e.area == target.area for e in by_word[word]) == 1:
                second = rng.choice([f"the one in the {target.area}", f"in the {target.area}", f"the {target.area} one"])
                call = {"name": skill, "arguments": {"name": word, **arguments, "area": target.area}}
                name, area = word, target.area
            else:
                second = rng.choice([f"the {target.name}", f"{target.name}", f"the {target.name} please",
                                     f"i meant the {target.name}"])
                call = {"name": skill, "arguments": {"name": target.name, **arguments}}
                name, area = target.name, None
            history = _prior(first) + [{"role": "user", "content": second}]
            history[1]["content"] = f"Which one: the {by_word[word][0].name} or the {by_word[word][1].name}?"
            if _slotted(home, history[-1:], name, area):
                return Example(history, call, R, "follow_up", home.lexicon)
            continue
        e1, e2 = rng.sample(switchable, 2)
        state = rng.choice(["on", "off"])
        phrase, area = _where(rng, e1.name, e1.area)
        first = Example([{"role": "user", "content": _dress(rng, f"turn {state} {phrase}")}],
                        _home_call("switch_device", {"name": e1.name, "state": state}, area), R, "x", home.lexicon)
        if kind == "area":
            other = sorted(a for a in areas if a != area)     # sorted: a set's order changes with PYTHONHASHSEED
            if not other:
                continue
            a2 = rng.choice(other)
            second = rng.choice([f"and in the {a2}", f"and the {a2}", f"what about the {a2}", f"the {a2} too",
                                 f"same in the {a2}", f"and the one in the {a2}"])
            call, name, area2 = _home_call("switch_device", {"name": e1.name, "state": state}, a2), None, a2
        elif kind == "other":
            second = rng.choice([f"and the {e2.name}", f"the {e2.name} too", f"also the {e2.name}",
                                 f"what about the {e2.name}", f"and the {e2.name} as well"])
            call, name, area2 = {"name": "switch_device", "arguments": {"name": e2.name, "state": state}}, e2.name, None
        else:
            flip = "off" if state == "on" else "on"
            second = rng.choice([f"now turn it {flip}", f"turn it {flip}", f"turn it back {flip}",
                                 f"actually turn it {flip}", f"switch it {flip} again", f"and now {flip}"])
            call, name, area2 = _home_call("switch_device", {"name": e1.name, "state": flip}, area), None, None
        history = _prior(first) + [{"role": "user", "content": second}]
        if _slotted(home, history[:1], e1.name, area) and _slotted(home, history[-1:], name, area2):
            return Example(history, call, R, "follow_up", home.lexicon)
    raise RuntimeError("no home follow-up")


SKILLS.update({
    "set_alarm": (gen_alarm, 4), "named_timer": (gen_named_timer, 7), "default_state": (gen_default_state, 6),
})
HOME_SKILLS = {"home": (home_example, 37), "unknown_name": (gen_unknown_name, 6)}

# Speech-recognition slips: one misheard little word must not change the number, room or device.
SLIPS = {"is": ["in", "his"], "in": ["is"], "the": ["a"], "a": ["the"], "to": ["two", "too"], "too": ["to"],
         "for": ["four", "4"], "off": ["of"]}
_KEEP_AFTER_A = {"half", "couple", "quarter", "dozen", "hundred", "thousand", "minute", "hour", "second", "mile"}


def slip(rng, text: str) -> str:
    """The request with one word misheard as a near-homophone, as whisper does."""
    words = text.split()
    spots = [i for i, w in enumerate(words) if w in SLIPS
             and not (w in ("a", "the") and i + 1 < len(words) and words[i + 1].rstrip("s") in _KEEP_AFTER_A)]
    if not spots:
        return text
    i = rng.choice(spots)
    words[i] = rng.choice(SLIPS[words[i]])
    return " ".join(words)


# Words speech recognition writes for the first word of a name it did not catch ("pond pump" -> "powered pump").
MISHEARD = ["powered", "palm", "bond", "ball", "pound", "bold", "warm", "old", "small", "fun", "bright", "far"]


def misheard_name(rng, example: Example) -> Example | None:
    """The request with the first word of its two-word device name misheard: the rest of the name still points
    at the device, so the call names only that rest (and the runner asks which one when several share it)."""
    arguments = (example.call or {}).get("arguments", {})
    name, last = arguments.get("name"), example.history[-1]["content"]
    if example.home is None or not isinstance(name, str) or len(name.split()) != 2 or last.count(name) != 1:
        return None
    rest = name.split()[1]
    history = example.history[:-1] + [{**example.history[-1], "content": last.replace(name, f"{rng.choice(MISHEARD)} {rest}")}]
    if not _slotted(example.home, history[-1:], rest, arguments.get("area")):
        return None
    call = {"name": example.call["name"], "arguments": {**arguments, "name": rest}}
    return Example(history, call, example.text, example.skill, example.lexicon, example.home)


def _single(rng) -> Example:
    names = list(SKILLS) + list(HOME_SKILLS)
    weights = [SKILLS[n][1] for n in SKILLS] + [HOME_SKILLS[n][1] for n in HOME_SKILLS]
    skill = rng.choices(names, weights)[0]
    if skill in HOME_SKILLS:
        return HOME_SKILLS[skill][0](rng)
    if skill == "set_device" and rng.random() < 0.08:
        request, call, text, _ = gen_which_room(rng)
        return Example([{"role": "user", "content": request}], call, text, "which_room")
    request, call, text = SKILLS[skill][0](rng)
    return Example([{"role": "user", "content": request}], call, text, skill)


def _same_skill_before(rng, example: Example) -> Example | None:
    """An earlier request of the same kind with other arguments: the one that tempts a copy."""
    if example.home is not None and example.skill.startswith("home_"):
        before = home_example(rng, example.skill.removeprefix("home_"), example.home)
        return before if before.call != example.call else None
    for _ in range(8):
        before = _single(rng)
        if before.call and example.call and before.call["name"] == example.call["name"] and before.call != example.call \
                and before.lexicon is None:
            return before
    return None


NEUTRAL = [gen_calculate, gen_convert, gen_time, gen_date, gen_timer, gen_chit_chat, gen_named_timer, gen_alarm]


def _unrelated_before(rng, example: Example) -> Example:
    """An earlier exchange from the same home: the default one, or the user's with the same names."""
    if example.lexicon is None:
        for _ in range(8):
            before = _follow_up(rng) if rng.random() < 0.4 else _single(rng)
            if before.lexicon is None:
                return before
        return Example([{"role": "user", "content": "hello"}], None, CHIT_CHAT["greeting"][0], "x")
    if example.home is not None and rng.random() < 0.5:
        return home_example(rng, None, example.home)
    request, call, text = rng.choice(NEUTRAL)(rng)
    return Example([{"role": "user", "content": request}], call, text, "x")


# ---------------------------------------------------------------- the client's own tools

def _group(domain: str) -> set[str]:
    return next((g for g in GROUPS if domain in g), {domain})


def _tool_name(rng, verb: str, noun: str) -> str:
    words = ([verb] if rng.random() < 0.85 else []) + noun.split("_")
    style = rng.random()
    if style < 0.55:
        return "_".join(words)
    if style < 0.85:
        return words[0] + "".join(w.title() for w in words[1:])
    return "-".join(words) if style < 0.93 else "".join(w.title() for w in words)


def declaration(rng, domain: str) -> tuple[dict, list[str], list[str | None]]:
    """An invented tool of the domain, as an app declares it; its parameter names and their values' kinds."""
    d = DOMAINS[domain]
    names, kinds = [], []
    for choices, kind in d["params"]:
        name = rng.choice([c for c in choices if c not in names] or choices)
        names.append(name)
        kinds.append(kind)
    properties = {n: {"type": "number" if k == "number" else "string", "description": n.replace("_", " ")}
                  for n, k in zip(names, kinds)}
    required = names[:1] if rng.random() < 0.6 else [n for n, k in zip(names, kinds) if k]
    tool = {"type": "function", "name": _tool_name(rng, rng.choice(d["verbs"]), rng.choice(d["nouns"])),
            "description": rng.choice(d["descriptions"]),
            "parameters": {"type": "object", "properties": properties, "required": required}}
    return tool, names, kinds


def _others(rng, domain: str, n: int) -> dict[str, dict]:
    """n tools of other domains than this one's group, no two of one group, by domain."""
    taken, tools = set(_group(domain)), {}
    for other in rng.sample(list(DOMAINS), len(DOMAINS)):
        if len(tools) == n:
            break
        if other not in taken:
            taken |= _group(other)
            tools[other] = declaration(rng, other)[0]
    return tools


def _said(rng, kind: str):
    if kind == "number":
        return rng.choice([rng.randint(2, 12), rng.randint(2, 12), rng.randint(5, 500)])
    if rng.random() < 0.3:
        return _unlisted_value(rng)
    return rng.choice(VALUES[kind])


def _unlisted_value(rng) -> str:
    """A value the kind's list lacks: another list's, or one to three made-up words."""
    if rng.random() < 0.4:
        return rng.choice(VALUES[rng.choice(list(VALUES))])
    return " ".join("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3)))
                    for _ in range(rng.choice([1, 1, 2, 2, 3])))


def _ask(rng, domain: str, templates: str = "asks") -> tuple[str, list[str], list, str]:
    d = DOMAINS[domain]
    template = rng.choice(d[templates])
    kinds = [k for _, k in d["params"]]
    values = [_said(rng, k) if k else None for k in kinds]
    words = [say_number(rng, v) if k == "number" else v for v, k in zip(values, kinds)]
    last = next((k for i, k in enumerate(kinds) if template.endswith("{%d}" % i)), None)
    if last and last not in FREE_TEXT and "day" not in kinds and rng.random() < 0.3:
        template += " " + rng.choice(AFTER_VALUE)
    return template.format(*words), values, kinds, template


def _keys(domains) -> set[str]:
    return {stem(k) for d in domains for k in DOMAINS[d]["keys"]}


def gen_client_tool(rng) -> Example:
    """A request with tools declared: one of them asked for (its values as said), or a built-in skill, or
    something no declared tool does (an honest refusal). Half the rows declare generated tools."""
    if rng.random() < GENERATED_SHARE:
        return gen_generated_tool(rng)
    kind = rng.random()
    domain = rng.choice(list(DOMAINS))
    tool, names, _ = declaration(rng, domain)
    others = _others(rng, domain, rng.choice([0, 0, 1, 1, 2, 3]))
    declared = [tool, *others.values()]
    rng.shuffle(declared)
    served = set().union(*(_group(d) for d in [domain, *others]))
    if kind < 0.48:
        request, values, kinds, template = _ask(rng, domain)
        arguments = {n: v for i, (n, v) in enumerate(zip(names, values)) if "{%d}" % i in template}
        call = {"name": tool["name"], "arguments": arguments}
        example = Example([{"role": "user", "content": _dress(rng, request)}], call, R, "client_tool")
    elif kind < 0.64:
        example = _single(rng)
        if rng.random() < 0.5 and example.call is None:
            return gen_client_tool(rng)
    elif kind < 0.8:       # near misses: a sixth of the rows, so that a tool about the same things is not called
        request = _ask(rng, domain, "near")[0]
        if request_stems(request) & _keys(served - _group(domain)):
            return gen_client_tool(rng)      # another declared tool may serve it ("stop the music": pause)
        example = Example([{"role": "user", "content": _dress(rng, request)}], None, CANT, "client_tool_near")
    else:
        if rng.random() < 0.5:
            request = _ask(rng, rng.choice([d for d in DOMAINS if d not in served]))[0]
        else:
            request = gen_out_of_domain(rng)[0]
        if request_stems(request) & _keys(served):
            return gen_client_tool(rng)
        example = Example([{"role": "user", "content": request}], None, CANT, "client_tool_none")
    example.declared = tuple(declared)
    if rng.random() < 0.3:
        example.history = _prior(_unrelated_before(rng, example)) + example.history
    if example.call is not None and example.skill == "client_tool":
        try:       # the tool asked for is among those shown, and each value is a span the request marks
            example.texts()
        except ValueError:
            return gen_client_tool(rng)
    return example


# Rows of gen_client_tool that declare generated tools (assistant/generated_tools.py): a tool of any verb and
# noun, so that a request is matched to a declaration's words rather than to the hand-written domains'.
GENERATED_SHARE = 0.5
_VERBS = {base: past for base, past in GEN_VERBS}
_NOUNS = list(dict.fromkeys(GEN_NOUNS))


def _generated_tool(rng, taken: set[str]) -> tuple[dict, str, str, list[str], list[str]]:
    """A tool of a verb and a noun none of whose roots is in taken: (declaration, verb, noun, its
    parameters' names, their values' kinds); taken gains its roots."""
    while True:
        verb, noun = rng.choice(list(_VERBS)), rng.choice(_NOUNS)
        roots = {stem(verb)} | {stem(w) for w in noun.split("_")}
        if not roots & taken and len(roots) == 1 + len(noun.split("_")):
            break
    taken |= roots
    names, kinds = [], []
    for choices, kind in rng.sample(GEN_PARAMETERS, rng.choice([0, 1, 1, 1, 2, 2])):
        names.append(rng.choice(choices))
        kinds.append(kind)
    description = rng.choice(GEN_DESCRIPTIONS).format(
        verb=verb, Verb=verb.capitalize(), noun=noun.replace("_", " "), parameter=(names or ["name"])[0])
    properties = {n: {"type": "number" if k == "number" else "string"} for n, k in zip(names, kinds)}
    tool = {"type": "function", "name": _tool_name(rng, verb, noun), "description": description,
            "parameters": {"type": "object", "properties": properties,
                           "required": names[:1] if rng.random() < 0.6 else names}}
    return tool, verb, noun, names, kinds


def _generated_value(rng, kind: str):
    if kind == "made_up":
        return " ".join("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3)))
                        for _ in range(rng.choice([1, 1, 2])))
    return _said(rng, kind)


def _generated_ask(rng, verb: str, noun: str, names: list[str], kinds: list[str]) -> tuple[str, dict]:
    """A request for verb and noun in one of the frames, saying none, the first or both values; and the
    arguments it gives."""
    said = rng.choice(range(len(names) + 1)) if rng.random() < 0.8 else 0
    frames = [GEN_ASKS, GEN_ASKS_ONE, GEN_ASKS_TWO][said]
    values = [_generated_value(rng, k) for k in kinds[:said]]
    words = [say_number(rng, v) if k == "number" else v for v, k in zip(values, kinds)]
    fields = dict(verb=verb, past=_VERBS[verb], noun=noun.replace("_", " "),
                  parameter=" ".join(name_words(names[0])) if names else "",
                  parameter1=" ".join(name_words(names[1])) if len(names) > 1 else "")
    request = rng.choice(frames).format(*words, **fields)
    return request, dict(zip(names, values))


def gen_generated_tool(rng) -> Example:
    """Generated tools declared (with a hand-written domain's tool at times): the request says one's verb
    and noun (a call with the values said), or its noun with another verb, or its verb with another noun,
    or another verb and noun altogether (an honest refusal)."""
    taken: set[str] = set()
    tool, verb, noun, names, kinds = _generated_tool(rng, taken)
    declared = [tool] + [_generated_tool(rng, taken)[0] for _ in range(rng.choice([0, 1, 1, 2, 2, 3]))]
    domain = rng.choice(list(DOMAINS)) if rng.random() < 0.3 else None
    if domain:
        declared.append(declaration(rng, domain)[0])
    rng.shuffle(declared)
    kind = rng.random()
    if kind < 0.5:
        request, arguments = _generated_ask(rng, verb, noun, names, kinds)
        call, text, skill = {"name": tool["name"], "arguments": arguments}, R, "client_tool"
    else:
        _, other_verb, other_noun, _, _ = _generated_tool(rng, set(taken))
        verb, noun = ((other_verb, noun) if kind < 0.7 else (verb, other_noun) if kind < 0.9
                      else (other_verb, other_noun))
        request = _generated_ask(rng, verb, noun, [], [])[0]
        call, text, skill = None, CANT, "client_tool_near" if kind < 0.9 else "client_tool_none"
        if domain and request_stems(request) & _keys(_group(domain)):
            return gen_generated_tool(rng)      # the hand-written domain's tool may serve it
    example = Example([{"role": "user", "content": request}], call, text, skill)
    example.declared = tuple(declared)
    if rng.random() < 0.3:
        example.history = _prior(_unrelated_before(rng, example)) + example.history
    try:       # the tool asked for is shown, and each value is a span the request marks
        example.texts()
    except ValueError:
        return gen_generated_tool(rng)
    return example


def generate_example(rng: random.Random, client_tools_share: float = 0.0) -> Example:
    if client_tools_share and rng.random() < client_tools_share:
        return gen_client_tool(rng)      # no slip: a value must stay the words said
    if rng.random() < 0.2:
        example = _follow_up(rng) if rng.random() < 0.6 else home_follow_up(rng)
    else:
        example = _single(rng)
        # "thanks" or "play some music" right after a tool call is common; follow-ups must not be assumed.
        if rng.random() < 0.5:
            # An unrelated earlier exchange: the model must learn to ignore context that does not apply;
            # half the time it is the same skill with other numbers, names or rooms.
            before = _same_skill_before(rng, example) if rng.random() < 0.5 else None
            before = before or _unrelated_before(rng, example)
            example.history = _prior(before) + example.history
    if rng.random() < 0.15:
        last = example.history[-1]
        example.history[-1] = {**last, "content": slip(rng, last["content"])}
    elif example.home is not None and rng.random() < 0.1:
        example = misheard_name(rng, example) or example
    return example


def generate_corpus(n: int, seed: int = 0, client_tools_share: float = 0.0) -> list[Example]:
    """client_tools_share: the share of rows that declare client tools (gen_client_tool); with none, the
    corpus of the shipped checkpoint."""
    rng = random.Random(seed)
    return [generate_example(rng, client_tools_share) for _ in range(n)]


def main(argv=None) -> int:
    """Print a few examples: `python -m assistant.corpus [N] [SEED]`."""
    import sys
    argv = list(sys.argv[1:] if argv is None else argv)
    n, seed = (int(argv[0]) if argv else 10), (int(argv[1]) if len(argv) > 1 else 0)
    for ex in generate_corpus(n, seed):
        print(*ex.texts(), sep=" => ")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
