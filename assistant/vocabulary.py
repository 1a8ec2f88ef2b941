"""The one vocabulary of rooms, devices, sensors and units: canonical names (what tool calls carry and MQTT
topics use) and the words people say for them (what the corpus writes and replies speak).

The order of each table is part of the corpus: `random.choice` over these keys must see them as they are.
"""

DEVICES = {
    "light": ["light", "lights", "lamp", "lamps", "light bulb", "ceiling light", "overhead light"],
    "fan": ["fan", "ceiling fan", "fans", "standing fan"],
    "heater": ["heater", "space heater", "heating", "radiator", "electric heater"],
    "tv": ["tv", "television", "telly", "t v", "tv set"],
    "plug": ["plug", "smart plug", "outlet", "socket", "power outlet", "power plug"],
    "coffee_maker": ["coffee maker", "coffee machine", "coffee pot", "espresso machine", "coffee"],
    "speaker": ["speaker", "speakers", "smart speaker", "sound system", "stereo"],
}
DEVICE_SPOKEN = {"light": "light", "fan": "fan", "heater": "heater", "tv": "TV", "plug": "plug",
                 "coffee_maker": "coffee maker", "speaker": "speaker"}
# Words that ask for a device without naming it, as the corpus teaches ("it's dark in the hall": the light).
DEVICE_CUES = {"light": ["dark"]}
ROOMS = {
    "kitchen": ["kitchen", "kitchenette"],
    "living_room": ["living room", "lounge", "family room", "sitting room", "front room", "livingroom"],
    "bedroom": ["bedroom", "master bedroom", "bed room", "main bedroom"],
    "bathroom": ["bathroom", "bath room", "washroom", "restroom", "toilet"],
    "office": ["office", "study", "home office", "work room"],
    "garage": ["garage", "car port", "workshop"],
    "hallway": ["hallway", "hall", "corridor", "entryway", "entrance hall", "landing"],
}
ROOM_SPOKEN = {r: r.replace("_", " ") for r in ROOMS}
# Rooms the default home does not have: the corpus asks for them (and is refused). They and a few more are
# the room words the inventory finds at the front of a device's name ("porch light": the porch).
OTHER_ROOMS = ["attic", "basement", "patio", "porch", "dining room", "laundry room", "nursery", "guest room",
               "cellar", "balcony", "backyard", "garden", "pantry", "closet", "shed", "loft", "den", "yard",
               "utility room", "playroom", "kids room", "sunroom", "mudroom", "deck"]
OTHER_ROOM_WORDS = set(OTHER_ROOMS) | {
    "front yard", "laundry", "guest bedroom", "terrace", "driveway", "front door", "back door", "entry", "foyer",
    "lobby", "library", "gym", "studio", "master bath", "upstairs", "downstairs", "stairs", "staircase", "veranda",
    "conservatory", "greenhouse", "pool"}
# One word, two spellings: a name discovered as "parlour lamp" is asked for as "parlor lamp" (Whisper writes American
# English). British spelling -> American; the inventory matches names through this table, both ways.
SPELLINGS = {
    "parlour": "parlor", "colour": "color", "colours": "colors", "grey": "gray", "centre": "center",
    "theatre": "theater", "harbour": "harbor", "arbour": "arbor", "armour": "armor", "favourite": "favorite",
    "humour": "humor", "neighbour": "neighbor", "storey": "story", "aluminium": "aluminum", "mould": "mold",
    "organiser": "organizer", "tyre": "tire",
    "metre": "meter", "litre": "liter", "fibre": "fiber", "sombre": "somber", "plough": "plow",
    "cosy": "cozy", "pyjama": "pajama", "catalogue": "catalog", "programme": "program", "kerb": "curb",
    "odour": "odor", "vapour": "vapor", "ardour": "ardor", "valour": "valor", "saviour": "savior",
    "jewellery": "jewelry", "woollen": "woolen", "travelling": "traveling", "modelling": "modeling",
}
SENSOR_UNITS = {"temperature": "degrees", "humidity": "percent"}     # each kind of reading and its spoken unit
SENSOR_KINDS = tuple(SENSOR_UNITS)
STATES = ("on", "off")

UNIT_WORDS = {
    "km": ["kilometers", "kilometres", "km", "kilometer", "kilometre", "k m", "klicks"],
    "mile": ["miles", "mile", "mi"],
    "m": ["meters", "metres", "meter", "metre", "m"],
    "ft": ["feet", "foot", "ft"],
    "inch": ["inches", "inch", "inchs"],
    "cm": ["centimeters", "centimetres", "centimeter", "cm", "centimetre", "cms"],
    "kg": ["kilograms", "kilos", "kg", "kilogram", "kilogrammes", "kilo"],
    "lb": ["pounds", "pound", "lbs", "lb"],
    "g": ["grams", "gram", "g", "grammes"],
    "oz": ["ounces", "ounce", "oz"],
    "celsius": ["celsius", "degrees celsius", "centigrade", "degrees centigrade", "c"],
    "fahrenheit": ["fahrenheit", "degrees fahrenheit", "f", "farenheit"],
    "liter": ["liters", "litres", "liter", "litre", "l"],
    "gallon": ["gallons", "gallon", "gal"],
    "cup": ["cups", "cup"],
    "ml": ["milliliters", "millilitres", "ml", "milliliter", "mls"],
}
# Words said right before the unit a conversion is to ("in kilometres, what would 10 miles be", "into celsius", "20
# celsius as fahrenheit", "how many cups in a litre"); the unit a number (or COUNTING_WORDS) counts is the one it is from
CONVERSION_TARGET_BEFORE = ("in", "into", "to", "as", "how many", "in terms of")
COUNTING_WORDS = ("a", "an", "one")
UNIT_GROUPS = [["km", "mile", "m", "ft", "inch", "cm"], ["kg", "lb", "g", "oz"], ["celsius", "fahrenheit"],
               ["liter", "gallon", "cup", "ml"]]
UNIT_FACTORS = {  # to the group's base unit: metre, gram, millilitre (US gallon and cup)
    "km": ("length", 1000.0), "mile": ("length", 1609.344), "m": ("length", 1.0), "ft": ("length", 0.3048),
    "inch": ("length", 0.0254), "cm": ("length", 0.01),
    "kg": ("mass", 1000.0), "lb": ("mass", 453.59237), "g": ("mass", 1.0), "oz": ("mass", 28.349523125),
    "liter": ("volume", 1000.0), "gallon": ("volume", 3785.411784), "cup": ("volume", 236.5882365), "ml": ("volume", 1.0),
    "celsius": ("temperature", None), "fahrenheit": ("temperature", None),
}
UNIT_NAMES = {"km": ("kilometer", "kilometers"), "mile": ("mile", "miles"), "m": ("meter", "meters"),
              "ft": ("foot", "feet"), "inch": ("inch", "inches"), "cm": ("centimeter", "centimeters"),
              "kg": ("kilogram", "kilograms"), "lb": ("pound", "pounds"), "g": ("gram", "grams"),
              "oz": ("ounce", "ounces"), "liter": ("liter", "liters"), "gallon": ("gallon", "gallons"),
              "cup": ("cup", "cups"), "ml": ("milliliter", "milliliters"),
              "celsius": ("degree celsius", "degrees celsius"), "fahrenheit": ("degree fahrenheit", "degrees fahrenheit")}
UNITS = tuple(UNIT_FACTORS)


def convert(value: float, from_unit: str, to_unit: str) -> float:
    if from_unit not in UNIT_FACTORS or to_unit not in UNIT_FACTORS:
        raise ValueError(f"unknown unit {from_unit if from_unit not in UNIT_FACTORS else to_unit}")
    (group_a, fa), (group_b, fb) = UNIT_FACTORS[from_unit], UNIT_FACTORS[to_unit]
    if group_a != group_b:
        raise ValueError(f"cannot convert {from_unit} to {to_unit}")
    if group_a == "temperature":
        if from_unit == to_unit:
            return value
        return value * 9 / 5 + 32 if from_unit == "celsius" else (value - 32) * 5 / 9
    return value * fa / fb


def unit_name(unit: str, value: float) -> str:
    singular, plural = UNIT_NAMES[unit]
    return singular if abs(value) == 1 else plural

# Words that end in one "s" and still name one thing ("the hall glass" ends in "ss" and needs none): a thing's name
# whose last word is one of these is singular, as is one whose last word ends in anything but "s" (says_many)
SINGULAR_IN_S = frozenset({
    "bus", "gas", "lens", "series", "species", "news", "canvas", "atlas", "status", "cactus", "campus", "circus",
    "bonus", "virus", "iris", "axis", "chassis", "tennis", "trellis", "octopus", "hummus", "chaos", "plus", "walrus",
    "citrus", "nexus", "radius", "stylus", "abacus", "thermos", "bias", "alias", "ibis", "lotus", "papyrus", "sonos",
    "philips", "christmas", "asparagus", "hibiscus", "crocus", "fungus", "apparatus",
})
# The words of a reply that agree in number with the thing it is about, as said of one and of several
# ("the lamp is", "the fairy lights are", "the radiators' fan mode"; agreeing)
POSSESSIVE = "'s"
NUMBER_FORMS = {"is": "are", "has": "have", "hasn't": "haven't", "its": "their", "it": "they", "it is": "they are",
                POSSESSIVE: "'"}


def says_many(name: str) -> bool:
    """A thing's name is plural: its last word ends in "s", but not in "ss" nor as one of SINGULAR_IN_S ("the fairy
    lights", "the study blinds"; not "the hall glass", "the school bus", "the lamp 2")."""
    words = name.lower().split()
    last = words[-1] if words else ""
    return last.endswith("s") and not last.endswith("ss") and last not in SINGULAR_IN_S


def agreeing(name: str, word: str) -> str:
    """word of NUMBER_FORMS ("is", "has", "its") as said of the thing named: "are" for "the blinds"."""
    return NUMBER_FORMS[word] if says_many(name) else word

# Answers to a yes/no question: what the corpus writes, and what a confirmation must hear the user say.
YES = ["yes", "yes please", "yeah", "yep", "sure", "do it", "go ahead", "yes do it", "confirm", "yes i'm sure",
       "that's right", "correct", "ok do it", "absolutely", "please do", "yeah go ahead"]
NO = ["no", "no thanks", "nope", "don't", "cancel", "no don't", "never mind", "stop", "not now", "no leave it",
      "actually no", "forget it"]

# A call with a number the recogniser doubted is said back before it runs ("Did you mean 23 times 4?"): each
# skill that takes numbers, in words. {seconds} is said as a duration, {expression} with OPERATOR_WORDS, {clock}
# an alarm's clock time, {from} and {to} a unit's name, {room} as spoken; {the_timer} a timer changed ("the pasta
# timer", "the timer": TIMER_SAID_BACK), {change} and {onto} its change (TIMER_CHANGE_SAID_BACK), {of_player} the
# media player named (" of the kitchen speaker", or nothing). A tilt without a percent takes no number. A light's colour
# or step is said back the same way when its word was doubted.
TIMER_SAID_BACK = ("the {name} timer", "the timer")
TIMER_CHANGE_SAID_BACK = {"add": ("add", "to"), "take off": ("take", "off")}
PLAYER_SAID_BACK = " of the {name}"
SAID_BACK = {
    "calculate": "{expression}",
    "convert": "{value} {from} in {to}",
    "set_timer": "a timer for {seconds}",
    "start_timer": "a timer called {name} for {seconds}",
    "set_alarm": "an alarm at {clock}",
    "set_brightness": "the {room} lights at {percent} percent",
    "set_level": "the {name} at {percent} percent",
    "set_thermostat": "the thermostat at {degrees} degrees",
    "change_timer": "{change} {seconds} {onto} {the_timer}",
    "set_volume": "the volume{of_player} at {percent} percent",
    "set_tilt": "the slats of the {name} at {percent} percent",
    # a light's white, colour or step (one of several forms: the first whose words the call gives), a kind of several
    # lights said with its area ("the lights in the lounge blue")
    "set_colour": ("the {name} in the {area} at {kelvin} kelvin", "the {name} at {kelvin} kelvin",
                   "the {name} in the {area} {colour}", "the {name} {colour}", "the {name} in the {area} {shift}",
                   "the {name} {shift}"),
}
OPERATOR_WORDS = {"+": "plus", "-": "minus", "*": "times", "/": "divided by"}

# A state said with no verb of switching ("kitchen light on", "the samovar off?", "This roman blind closed." for
# "is the roman blind closed"): heard, it is a question about the state, never a switch (Whisper drops the "is").
# STATE_WORDS end such a request, before any of TRAILING_WORDS; SWITCH_VERBS, in any of their forms, say switch.
STATE_WORDS = {"on", "off", "open", "opened", "closed", "shut", "locked", "unlocked"}
# How words ask how things are, rather than for something to be done (chat_template.asks): a question's first word,
# after hesitations ("is the kiln on", "okay what's the snug at"), or one of ASKING_WORDS wherever it is said ("tell
# me if ...", "the sprinkler still going", "snug temperature"). Heard, a state is read only for words that ask ("The
# pergola roof, closet, it's starting to rain." for "close it" asks nothing); a read is not the answer to a request
# with a remark beside it that asks nothing ("let's have the fire pit going, it's chilly").
QUESTION_WORDS = ("is", "isn't", "are", "aren't", "was", "wasn't", "were", "weren't", "what", "what's", "whats", "which",
                  "how", "how's", "hows", "does", "doesn't", "do", "did", "didn't", "has", "hasn't", "where", "where's",
                  "who", "any", "anything")
ASKING_WORDS = ("tell me", "let me know", "check", "do you know", "any idea", "i wonder", "wonder", "whether", "if",
                "still", "status", "temperature", "humidity")
# A new value said as what would be better ("21 would be better", "30 percent is plenty"): a remark beside the
# request that says what to change with it
VALUE_SAID_BETTER = (r"(\d+(?:\.\d+)?(?: degrees| percent)?) (?:would be|'d be|will be|is|might be) (?:better|nicer|fine|"
                     r"best|plenty|enough|about right|ideal|good)")
# A reason or a purpose said beside a request ("because it's boiling", "so i can read", "convert 10 miles to km for
# my run") opens with one of REASONS, or with one of REASONS_BEFORE_A_SUBJECT before one of REASON_SUBJECTS ("so
# i", "for my"; "so 30 percent" and "for 5 minutes" are none)
REASONS = ("because", "cause", "cos", "coz", "seeing as", "given that")
REASONS_BEFORE_A_SUBJECT = ("since", "as", "so that", "so", "for", "while")
REASON_SUBJECTS = ("i", "i'm", "we", "we're", "you", "you're", "they", "they're", "he", "she", "it", "it's", "the", "my",
                   "our", "there", "there's")
# Words that say a thing is a light, at the end of its name ("the reading lamp", "the crystal pendant", "the
# chandelier"): turned up or down, it is brightened or dimmed, never opened or closed
LIGHT_KINDS = ("light", "lights", "lamp", "lamps", "lighting", "pendant", "pendants", "chandelier", "chandeliers",
               "lantern", "lanterns", "sconce", "sconces")
# Words said before a number below zero ("convert minus 5 celsius", "and negative 40"): the model writes the number
# alone, the sign is kept from the words
BELOW_ZERO = ("minus", "negative")
# Words after "in the", "in my" that say no place of the home ("in the way", "the sun's in my eyes", "i can't do it
# in my head"): a clause with them carries no area
NO_PLACES = ("way", "head", "eyes", "face")
# Words that open a clause saying when or on what condition ("after the match", "unless it's warm"): the request
# without it is another request
CONDITIONS = ("if", "when", "whenever", "once", "after", "until", "till", "unless", "as soon as", "in case")
# Words that join a request to the one before without changing it ("and turn the fan off", "okay, the hall one").
JOINING_WORDS = ("and", "then", "now", "so", "actually", "oh", "ok", "okay", "please", "parley", "hey parley")
# Words of a follow-up, among or after JOINING_WORDS at its start, that carry the question before it ("is the
# porch light on" … "and the hall light", "okay, same for the hall light").
FOLLOW_UP_WORDS = {"and", "also", "same"}
TRAILING_WORDS = {"please", "thanks", "thank", "you", "now"}
# Words that ask for something to be done: a state said with one of them, and no question's first word before it,
# is a request ("the dock light on please", "could the ice maker go on"), not a question about the state
# (states_without_a_switch; a heard "is the lamp on please" still asks).
ASKING_FOR_IT = {"please", "could", "can", "would", "will"}
SWITCH_VERBS = {"turn", "switch", "put", "power", "flick", "flip", "set", "make", "get", "let", "leave", "keep",
                "have", "want", "need", "be", "start", "stop", "kill", "shut", "close", "open", "lock", "unlock",
                "raise", "lower", "pull", "draw", "lift", "bring", "boot", "fire", "kick", "hit", "click",
                "crank", "activate", "enable", "deactivate", "disable", "cut", "douse", "knock", "secure", "bolt",
                "unbolt", "halt", "freeze", "hold", "dim", "brighten"}

# the ear (round 15)
# What Whisper writes for a spoken "unlock" ("and lock the side gate", "and locked a side gate", "an lock"): a call
# to lock, heard with one of these where its verb was (or with its verb doubted), is said back first, in
# CHANGES_SAID_BACK's words ("Did you mean lock the side gate?"). "and lock(ed)" and "then lock" (a joining word, then
# "lock") stand for themselves after a request that opens with a verb of its own ("close the garage and lock the back
# door", SWITCH_VERBS); the others never do. "Then:0.25 lock the side gate" was heard for "unlock the side gate".
UNLOCK_HEARD_AS = ("and lock", "and locked", "then lock", "an lock", "a lock", "in lock", "un lock", "being locked")

# rephrasing and follow-ups (round 15)
# A wish for how a thing or a place should be, said by who wants it ("i want the gate unlocked", "i'd love the lamp
# on", "i'd like the nursery at 20 degrees"), or by a verb that gets it so ("have the fan switched off", "keep the
# kitchen at 20 degrees")
WISHES = ("i'd like", "i would like", "i want", "i need", "i'd love", "i'd prefer", "can i have", "can i get",
          "we'd like", "we would like", "we want", "we need", "we'd love", "can we have", "can we get")
# Words said inside a wish that change nothing it asks ("i'd really like the kiln off")
WISH_ADVERBS = ("really", "just", "so", "quite", "very much")
WISHING_VERBS = ("please have", "please make", "have", "get", "make", "keep", "put", "bring")
# Of SWITCH_VERBS, those that say a state wished, not a move: no "would you mind having ..." asks for a move
WISHED_STATES = ("be", "want", "need", "have")
# Verbs of a request besides SWITCH_VERBS, said in their -ing form too ("would you mind checking ...")
OTHER_REQUEST_VERBS = ("cancel", "check", "tell", "give", "read", "convert", "work")
# Verbs of a request the corpus does not say, each as the corpus's verb it means, read at the start of a request
# that names a thing after it ("extinguish the hallway light", "hoist the louvres", "fasten the stable door"):
# not "mute", which a media player does without going off, nor "drop", which also cancels a timer
VERBS_SAID_OTHERWISE = {"switch off": ("extinguish", "snuff out", "blow out", "silence", "hush", "quieten", "quiet"),
                        "switch on": ("illuminate",),
                        "open": ("hoist",),
                        "lock": ("fasten",),
                        "dim": ("darken", "soften", "mellow"),
                        "wake": ("rouse",)}
# What a thing does while it is on, said as where a request gets it ("get the espresso machine brewing", "get the fan
# in the office whirring"): the request switches it on
RUNNING_WORDS = ("brewing", "whirring", "warming", "humming")
# Words that open a question for the rephrasings that drop what a question adds after its state ("is the fan on or
# not", "when did the gate open after lunch"), besides QUESTION_WORDS: not read as asking elsewhere ("when the film
# ends, ..." is a condition)
STATE_QUESTION_WORDS = ("had", "when")
# Words that open a request and carry nothing ("okay, that's enough, turn it off", "go on then, switch it on"), as
# patterns; "wait" only before a question ("wait, is the kiln on": "wait 5 minutes" is no opener)
OPENING_WORDS = ("okay", "ok", "alright", "all right", "right(?! now)", "well", "so", "oh", "hmm", "just",
                 "on second thoughts?", "go on(?: then)?", "go ahead(?: and)?",
                 rf"wait(?= (?:{'|'.join(QUESTION_WORDS)})\b)")
# The words that open a thing's name as said ("is the wine cellar door open"): a word between one of them and a
# thing's kind names which thing of that kind
THING_DETERMINERS = frozenset({"the", "my", "our", "your"})
# People said with a determiner who may have done what a question asks about ("did the coal man shut the coal hole
# door"): the word that ends who did it
PEOPLE = ("man", "men", "woman", "women", "lady", "guy", "guys", "kids", "children", "boys", "girls", "cleaner",
          "cleaners", "builder", "builders", "plumber", "gardener", "postman", "postie", "neighbour", "neighbours")
# A share of full said as a level ("dim the bedroom to a quarter", "half brightness on the lamp"): its words, as a
# pattern, and its percent
SHARES = (("(?:a )?quarter", 25), ("half", 50), ("(?:three|3) quarters?", 75), ("full", 100))
# A step or a value said as welcome ("one more degree would be nice"): it asks nothing more than the step
SAID_WELCOME = r"(?:would be|'d be|will be|might be) (?:nice|nicer|good|great|lovely|better|fine|perfect|ideal)"
# A check asked for after the question it checks ("has the gate been left open, can you check"): asked already
CHECKS = ("can you check", "could you check", "can you see", "could you see", "check for me", "can you find out",
          "could you find out")
# What a light is made when it is dimmed or brightened, said of a room ("bedroom a little darker please"); the
# first of each is how a request rewritten from a call says the step ("make the reading lamp dimmer")
DARKER = ("dimmer", "darker")
BRIGHTER = ("brighter", "lighter")
# A fan's step said by its speed ("a notch faster", "make it go slower"), as a light's by BRIGHTER and DARKER
FASTER = ("faster", "quicker")
SLOWER = ("slower",)
# A mode of a fan or a climate device (Home Assistant's `modes`, `preset_modes`): the noun that says one ("dry
# mode", "what mode is the thermostat in"), and the common ways of saying Home Assistant's climate modes; a device's
# own modes are its discovery's words (inventory.mode_words), these only another way to say one it has
MODE_NOUNS = ("mode", "preset")
# The words a mode is said after ("put the humidifier on auto", "the thermostat in heat mode", "set the fan to sleep")
MODE_PREPOSITIONS = ("to", "in", "into", "on")
# Modes Home Assistant names (its climates' presets and humidifiers' modes) and fan speeds robot vacuums name, beside
# the defaults of inventory.DEFAULT_MODES: one said last after a MODE_PREPOSITIONS word ("put the fan on turbo") is a
# mode asked even of a thing that lacks it, answered with the modes it has rather than switched on
MODE_NAMES = ("eco", "away", "boost", "comfort", "sleep", "activity", "normal", "baby", "auto", "smart", "night",
              "nature", "natural", "turbo", "quiet", "silent", "standard", "strong", "gentle")
# A climate's modes of a part of it (Home Assistant's `fan_mode`, `swing_mode`): said with the part's words ("the
# air conditioner's fan to high", "swing on", "stop it swinging"), its first word the one it is said back with. A
# mode said with one of these words is of that part, never the climate's own ("the fan to auto").
MODE_KIND_WORDS = {"fan_mode": ("fan",), "swing_mode": ("swing", "swinging", "oscillation", "oscillating")}
MODE_SYNONYMS = {"cool": ("cooling",), "heat": ("heating",), "dry": ("dehumidify", "dehumidifying", "drying"),
                 "fan_only": ("fan only", "just the fan", "fan"),
                 "heat_cool": ("heat cool", "heat and cool", "heating and cooling"), "auto": ("automatic",)}
# Short names of a kind of thing ("turn off the AC"; "A/C" and "A.C." as the normaliser writes them, "a c"), each to
# the words it stands for: a request says it in full where the home has a thing of those words (a name, or a thing of
# a NAMED_KINDS kind) and none with the short name's own words (Zigbee2MQTT's "Office AC" is called the AC)
NAME_ABBREVIATIONS = {"ac": "air conditioner", "a c": "air conditioner", "aircon": "air conditioner",
                      "air con": "air conditioner", "air conditioning": "air conditioner",
                      "ac unit": "air conditioner", "a c unit": "air conditioner"}
# A kind of thing said by a name of its own, when no thing of the home has that name: its component and the mode
# that makes one of them that kind ("the air conditioner": a climate that can be set to cool, not a radiator's
# thermostat of off and heat)
NAMED_KINDS = {"air conditioner": ("climate", "cool")}
# What a fan or a thing of levels gives more or less of ("bit more breeze from the punkah", "more air on the fan")
LEVEL_WORDS = ("breeze", "air", "power", "speed", "oomph")
# A level said in words beside a switch (skills.LEVEL's: "the punkah on at half speed", "the arc lamp on to full"): the
# word after one of these, or before one of LEVEL_NAMED_BY
LEVEL_SAID_AFTER = ("at", "to", "on")
LEVEL_NAMED_BY = ("speed", "brightness", "power", "blast")
# What each kind of thing of the home can be asked to do, said of one asked for what its kind cannot ("The drying fan
# can only be switched on or off."), and what one that takes a level in percent (a light's brightness, a fan's speed)
# can be asked besides ("… switched on or off, or dimmed")
ABILITIES = {"light": "switched on or off", "switch": "switched on or off", "fan": "switched on or off",
             "media_player": "switched on or off", "climate": "switched on or off, or set to a temperature",
             "cover": "opened, closed or stopped", "lock": "locked or unlocked", "scene": "run", "sensor": "read",
             "binary_sensor": "read", "valve": "opened or closed",
             "humidifier": "switched on or off, or set to a humidity", "water_heater": "set to a temperature"}
LEVEL_ABILITIES = {"light": "dimmed", "fan": "set to a speed"}

# client tools (round 15)
# Words a request to a client's tool opens with before its verb ("can you", "i want to", "um"), beyond JOINING_WORDS.
REQUEST_OPENERS = ("can", "could", "would", "will", "you", "i", "want", "to", "i'd", "like", "need", "wanna", "just",
                   "go", "ahead", "also", "quickly", "kindly", "let's", "um", "uh")
# Words a question to a client's tool starts with, beyond QUESTION_WORDS ("when's the next bus", "should i").
TOOL_QUESTION_WORDS = ("who's", "when", "when's", "why", "will", "can", "could", "have", "got", "should", "am")

# client tools (round 16)
# Roots of a number parameter's words that say it is an amount of money ("Total amount", "price", "fee"): a number
# said before a currency fills it ("split 96 dollars four ways").
MONEY_WORDS = frozenset({"amount", "price", "cost", "total", "sum", "fee", "payment", "budget", "balance", "fare",
                         "money", "value"})
# Units said right after a number, no part of any value beside it ("a 2 kilo chicken", "57 degrees").
MEASURE_WORDS = frozenset({"kilo", "kilos", "kg", "kilogram", "kilograms", "gram", "grams", "g", "pound", "pounds",
                           "lb", "lbs", "ounce", "ounces", "oz", "litre", "litres", "liter", "liters", "ml",
                           "degree", "degrees", "percent", "%", "km", "kilometres", "kilometers", "miles", "metres",
                           "meters", "cm", "inches", "feet", "people", "persons", "ways", "times"})
# Words of a boolean parameter's name that make it a switch ("enabled", "is_on", "active"): true when the request
# turns the thing on, false when it turns it off.
SWITCH_WORDS = frozenset({"enabled", "enable", "on", "active", "activated", "switched", "state"})
# Words that say an enum member of a common family loosely ("a cheap rental car": economy; "asap": urgent): a
# member's word, then the words that mean it. Language as data.
MEMBER_SYNONYMS = {
    "urgent": ("asap", "critical", "emergency"), "high": ("important",), "low": ("minor", "trivial"),
    "economy": ("cheap", "cheapest", "budget"), "compact": ("small",), "suv": ("4x4",), "luxury": ("premium", "fancy"),
    "quick": ("fast", "express", "short"), "intensive": ("heavy", "deep"), "eco": ("green",),
    "turbo": ("max", "maximum", "strongest"), "quiet": ("silent", "gentle", "gently", "quietly"),
    "normal": ("regular", "standard", "usual"), "standard": ("regular", "normal", "usual"),
}

# follow-ups (round 16)
# A step said loosely of what the conversation set ("turn it up a bit", "make it warmer", "up 2 degrees", "a notch
# lower"): the words for each way; those a heating's step says (only a thermostat fits them); and the words that
# carry nothing beside them (a step with any other word names a thing and is read as it is)
STEP_WAYS = {"up": ("up", "higher", "warmer", "hotter", "more", "raise", *BRIGHTER),
             "down": ("down", "lower", "drop", "cooler", "colder", "less", *DARKER)}
HEAT_STEPS = {"up": ("warmer", "hotter"), "down": ("cooler", "colder")}
HEAT_WAYS = (*HEAT_STEPS["up"], *HEAT_STEPS["down"])
STEP_CARRIERS = ("make", "put", "set", "turn", "bring", "bump", "knock", "push", "nudge", "take", "go", "it", "that",
                 "them", "this", "a", "bit", "little", "touch", "notch", "tad", "smidge", "shade", "by", "than", "before",
                 "please", "then", "just", "can", "could", "you", "would", "ok", "okay", "even", "still", "again", "much",
                 "lot", "slightly", "somewhat", "now", "on", "right", "actually", "maybe", "try",
                 "another")     # round 22: "bump the heat up another 2" steps from the setting by 2 more
# A climate's target temperature stepped by a way said of it, with no number ("make the bedroom warmer", "raise the
# temperature in the loft"): the words of each way; "up" and "down" say one only after a verb that moves a level
# ("turn the AC up", "turn the heating down"), not after one that switches ("fire up", "shut down", "crank up"), and a
# verb of warmth says switching it on ("warm up the stove", "heat the kennel heater up"), never a step. Its target
# asked, not its state ("what is the thermostat set to", "what's the target temperature in the bedroom"): the words
# that ask it
CLIMATE_STEP_WAYS = {"up": ("higher", "raise", "increase", *HEAT_STEPS["up"]),
                     "down": ("lower", "decrease", "reduce", *HEAT_STEPS["down"])}
LEVEL_MOVING_VERBS = ("turn", "bring", "bump", "knock", "push", "nudge", "put", "take")
HEAT_VERBS = ("warm", "heat", "cool")
TARGET_ASKED = ("set to", "set at", "set for", "target", "setting")
# A humidifier's target humidity stepped by a way said ("make it more humid", "a bit drier", "turn the humidifier
# up") or asked ("what humidity is the humidifier set to"); HUMIDITY_STEP percent a step (Home Assistant's
# humidifier takes whole percents and has no step of its own)
HUMIDITY_STEP_WAYS = {"up": ("more humid", "damper", "moister", "wetter", "higher", "raise", "increase"),
                      "down": ("less humid", "drier", "dryer", "lower", "decrease", "reduce")}
HUMIDITY_STEP = 5
HUMIDITY_ASKED = ("humidity", "humid")
# A cover's or valve's position, in percent open (Home Assistant's: 0 closed, 100 open): the levels said in words
# ("open the blinds halfway", "close the curtains half way"), the words that step it a little with a move of a cover
# ("open them a little", "close the curtains a bit more"), and those that ask it ("what position are the blinds at",
# "how far open is the garden valve")
COVER_LEVELS = {50: ("halfway", "half way", "half open", "half closed", "half shut", "to half"),
                25: ("a quarter open", "quarter open", "three quarters closed", "three quarters shut"),
                75: ("three quarters open", "a quarter closed", "quarter closed", "a quarter shut")}
COVER_STEPS = ("a bit", "a little", "a touch", "a tad", "a notch", "slightly", "some more", "more", "further",
               "a little more", "a bit more", "little bit")
POSITION_ASKED = ("position", "how far open", "how open", "how far closed", "how far up", "how far down",
                  "percent open", "how much open")
# A light's brightness or a fan's speed asked ("how bright is the kitchen light", "what speed is the fan on"): for
# each kind of thing that takes a level (inventory.LEVEL_ACTIONS), the words that ask it; none is a verb that changes
# it ("dim", "slow"), so that "can you dim the lamp" stays a request
LEVEL_ASKED = {"light": ("bright", "brightness", "how dim", "how dimmed", "level"),
               "fan": ("speed", "how fast", "what setting", "which setting", "level")}
# A light's colour (Home Assistant's light.turn_on color_name, the CSS colour names): each name as said, with its red,
# green and blue; the light is sent them in its own colour mode (inventory.colour_command). "white" is a colour here
# (a light that takes only colour temperatures is set to one of WHITE_TEMPERATURES)
COLOUR_NAMES = {"red": (255, 0, 0), "dark red": (139, 0, 0), "crimson": (220, 20, 60), "pink": (255, 192, 203),
                "hot pink": (255, 105, 180), "deep pink": (255, 20, 147), "magenta": (255, 0, 255),
                "fuchsia": (255, 0, 255), "purple": (128, 0, 128), "violet": (238, 130, 238),
                "lavender": (230, 230, 250), "indigo": (75, 0, 130), "blue": (0, 0, 255), "navy": (0, 0, 128),
                "dark blue": (0, 0, 139), "royal blue": (65, 105, 225), "sky blue": (135, 206, 235),
                "light blue": (173, 216, 230), "turquoise": (64, 224, 208), "cyan": (0, 255, 255),
                "aqua": (0, 255, 255), "teal": (0, 128, 128), "green": (0, 128, 0), "lime": (0, 255, 0),
                "light green": (144, 238, 144), "dark green": (0, 100, 0), "forest green": (34, 139, 34),
                "olive": (128, 128, 0), "yellow": (255, 255, 0), "gold": (255, 215, 0), "orange": (255, 165, 0),
                "dark orange": (255, 140, 0), "coral": (255, 127, 80), "salmon": (250, 128, 114),
                "tomato": (255, 99, 71), "amber": (255, 191, 0), "brown": (165, 42, 42), "white": (255, 255, 255)}
# White light said by its name or in kelvin ("set the bedroom lights to warm white", "set the lamp to 2700 kelvin"),
# sent as a colour temperature within the light's own range (min_mireds, max_mireds or min_kelvin, max_kelvin)
WHITE_TEMPERATURES = {"candlelight": 1900, "warm white": 2700, "soft white": 2700, "warm light": 2700,
                      "neutral white": 4000, "natural white": 4000, "cool white": 5000, "cold white": 5000,
                      "daylight": 6500, "cool light": 5000}
KELVIN_WORDS = ("kelvin", "k")          # after a number: "2700 kelvin", "4000k"
# A step of a light's white warmer or cooler ("make it cooler" after its colour was set), in kelvin
COLOUR_SHIFTS = {"warmer": ("warmer", "more warm", "less cool"),
                 "cooler": ("cooler", "colder", "more cool", "less warm")}
KELVIN_STEP = 500
# Its colour asked ("what colour is the lamp", "what color are the fairy lights")
COLOUR_ASKED = ("what colour", "what color", "which colour", "which color", "colour is", "color is", "colour are",
                "color are")
# Its white said as a thing of its own ("set the lamp's colour temperature to 2700 kelvin", "make the lamp's white
# warmer", "what's the colour temperature of the lamp"): asks its colour, takes a bare number as kelvin, and lets a
# step warmer or cooler be read beside its name; never a room's temperature, which no light's name is said with
WHITE_OF_A_LIGHT = ("colour temperature", "color temperature", "colour temp", "color temp", "white temperature",
                    "'s white", "its white", "their white")
# Its kind's words (a colour said of any other kind of thing stays as it was read)
COLOURED_KINDS = ("light",)
# Words of another change asked beside a colour (a switch, a level, a mode, a temperature set-point): a request that
# says one is read as before ("brighten the baize light a bit, i can't see the pink"), as is any number but a kelvin's
CHANGES_BESIDE_COLOUR = (*STATES, *DARKER, *BRIGHTER, "dim", "brighten", "brightness", "percent", "up", "down",
                         "full", "half", *MODE_NOUNS, "scene", "degrees", "thermostat", "heating", "heat")
# A media player's controls (Home Assistant's HassMediaPause, HassMediaUnpause, HassMediaNext, HassMediaPrevious, and
# its mute): the words that ask each ("pause the tv", "resume the music in the kitchen", "next song", "skip this
# track on the speaker", "mute the tv"; the bridge has no stop, so "stop the music" pauses it)
MEDIA_CONTROL_WORDS = {"pause": ("pause", "stop the music", "stop playing", "stop the song", "stop playback"),
                       "resume": ("resume", "unpause", "continue playing", "keep playing", "carry on playing",
                                  "start playing again", "play again"),
                       "next": ("next song", "next track", "skip", "next tune", "play the next"),
                       "previous": ("previous song", "previous track", "last song", "last track", "previous",
                                    "go back a song", "go back a track", "play the last"),
                       "mute": ("mute",), "unmute": ("unmute",)}
# Verbs that resume a player said with its name alone ("play the tv", "play it again" after the tv was paused)
MEDIA_RESUMED_BY_NAMING = ("play",)
# Its volume (HassSetVolume and its relative step): the words that name it or a step of it ("turn the volume up on
# the living room speaker", "louder", "turn it down" after a player's call), and what is asked of it
VOLUME_WORDS = ("volume", "louder", "quieter", "softer", "how loud")
VOLUME_STEP_WAYS = {"up": ("up", "louder", "raise", "increase", "higher", "boost"),
                    "down": ("down", "quieter", "softer", "lower", "decrease", "reduce")}
# A media player's call said again as a request of its own (a follow-up's, conversation.request_for): its action,
# step or question in words media_call reads back ("and the kitchen speaker" after "next song on the tv")
MEDIA_REQUEST_WORDS = {"control_media": {"next": "play the next track on", "previous": "play the last track on"},
                       "change_volume": {"up": "louder", "down": "quieter"},
                       "get_media": {"playing": "what's playing on", "volume": "what's the volume of"},
                       "set_volume": {}}
PLAYING_ASKED = ("what's playing", "what is playing", "what song", "which song", "what track", "which track",
                 "what's on", "what is on", "who's singing", "who is singing", "what am i listening to",
                 "what are we listening to", "what is this song", "what's this song")
# A follow-up's step of a climate ("set the thermostat to 20", "turn it up") as the request it stands for: stepped by
# the climate's own temp_step, as when said first
CLIMATE_STEP_REQUEST = "turn the {name} {direction}"
# The words that reject the thing a request was taken to be about ("not that one, the bilge pump"): they carry no
# part of the request, only that the thing acted on was not the one meant (the normaliser has written "one" as 1)
NOT_THAT_ONE = ("not that 1", "not that", "wrong 1", "the wrong 1")
# A correction of the newest request ("no, the bedroom one", "sorry, i meant the bathroom", "not that one, the hall
# one"): the words that open it, and those that say what was meant
CORRECTING = ("no", "nope", "nah", "sorry", "oops", "wait", *NOT_THAT_ONE)
MEANT = ("i meant", "i mean", "i said", "meant", "i wanted", "i asked for")
# A repair's rejection of the thing meant, in more words than a correction opens with
REJECTING = (*NOT_THAT_ONE, "not this 1", "not this", "that's the wrong 1", "not the right 1", "that's not the 1",
             "not that 1 either")
# Verbs that only a timer takes among the things a pronoun may stand for ("scrap it": the newest timer)
TIMER_VERBS = ("cancel", "scrap", "abort")

# the ear (round 16)
# A heard call that changes something is said back before it runs ("Did you mean switch off the cove lighting?")
# when a word it rests on was doubted or no word heard for sure names its target: each such skill beside SAID_BACK's,
# in words. {target} is what it acts on with its article ("the cove lighting", "movie time"), the others its
# arguments as spoken.
CHANGES_SAID_BACK = {
    "set_device": "switch {state} the {room} {device}",
    "change_brightness": "turn the {room} lights {direction}",
    "switch_device": "switch {state} {target}",
    "switch_all": "switch {state} {target}",
    "change_level": "turn {target} {direction}",
    "set_cover": "{action} {target}",
    "set_lock": "{action} {target}",
    "activate_scene": "run {target}",
    "cancel_timer": "cancel every timer",
    "switch_listed": "switch them {state}",
}
# Words that name no one thing but every one ("switch everything off", "turn it all off"): a target said so
EVERY_THING = ("everything", "all", "every", "devices")
# A heard read of the time or the date is answered only where a word of it was heard (the corpus's requests for them
# each hold one): the model writes get_date for words that ask nothing ("We get a scene please." for "regatta scene
# please")
READS_HEARD_BY = {
    "get_time": ("time", "times", "clock", "o'clock", "hour", "late", "early"),
    "get_date": ("date", "day", "today", "today's", "month", "week", "monday", "tuesday", "wednesday", "thursday",
                 "friday", "saturday", "sunday"),
}
# Words before a read's own word that stand for no thing ("is it late", "tell me the time"): one of them doubted is
# no misheard name (tools.read_heard), nor is an article (STOP_WORDS) or a question's word
NAMES_NO_THING = ("it", "it's", "its", "i", "me", "we", "us", "you", "they", "that", "this", "there", "here")

# follow-ups (round 17)
# What a follow-up's verb can act on: a pronoun stands for the newest thing of one of these kinds ("lock it back up"
# after the tack room lock and the workbench light: the lock); kinds are what the conversation's calls did to a thing,
# or, for a thing only asked about, its component in the user's home (FOLLOW_UP_KINDS)
VERB_KINDS = {"lock": ("lock",), "unlock": ("lock",), "open": ("cover",), "close": ("cover",),
              "switch": ("switch", "light"), "on": ("switch", "light"), "off": ("switch", "light"),
              "start": ("switch", "vacuum"), "dim": ("light",), "brighten": ("light",), "brighter": ("light",),
              "dimmer": ("light",)}
# A question of the assistant's that offers help ("Hi! How can I help?") asks for a new request, not an answer
OFFERS_OF_HELP = ("how can i help", "what can i do for you", "anything else")
FOLLOW_UP_KINDS = {"light": "light", "switch": "switch", "fan": "switch", "media_player": "switch", "cover": "cover",
                   "lock": "lock", "climate": "climate", "sensor": "sensor", "binary_sensor": "sensor", "scene": "scene",
                   "valve": "cover", "water_heater": "climate", "humidifier": "humidifier"}
# Taking back the newest change ("undo that", "put it back how it was", "change it back")
UNDOING = ("undo", "put it back", "put that back", "put them back", "change it back", "change that back", "set it back",
           "set that back", "reverse", "revert", "go back", "take it back", "switch it back")
# and the words that say the same only with what it was said after them ("make it like before", "back to how it was")
RESTORING = ("make it", "make that", "make them", "back", "put it", "set it", "have it", "return it", "return that")
AS_IT_WAS = ("how it was", "how they were", "the way it was", "the way they were", "as it was", "as they were",
             "like it was", "like they were", "to how it was", "to what it was", "to how they were", "to the way it was",
             "to before", "like before", "as before", "to what it was before", "to where it was", "where it was",
             "to where they were", "where they were", "again")
UNDO_WHAT = ("the last thing", "the last 1", "the last change", "what you just did", "what you did")
ASKING = ("can you", "could you", "please", "just", "actually", "then")
# Leaving a thing as it is ("fine, leave it off", "leave the other one"): no call
LEAVING = ("leave", "don't touch", "do not touch", "let")
# Words that leave a thing where it is now ("leave it where it is"): a cover still moving stops there
HOLDING = ("where it is", "where they are", "right there", "there", "as it is", "as they are", "like that")
# and a thing said to stay as it is ("it can stay on")
STAYING = ("can stay", "should stay", "will stay", "stays", "can stay as it is", "is fine as it is", "is fine")
AGREEING = ("fine", "ok", "okay", "right", "good", "great", "cool", "alright", "that's fine", "that's ok", "no", "nah")
# A length or a level as a multiple of the one set ("twice as long", "half as bright", "halve the pendant")
MULTIPLES = {"twice": 2, "double": 2, "2 times": 2, "3 times": 3, "triple": 3, "4 times": 4, "half": 0.5, "halve": 0.5}
MULTIPLIED = {"long": ("seconds",), "bright": ("percent",), "much": ("seconds", "percent"), "high": ("percent",)}
# The newest call again ("same again", "do that again")
AGAIN = ("same again", "the same again", "do that again", "do it again", "once more", "one more time",
         "repeat that")
# and the words that join a new value to them ("same again but 10 minutes", "do that again with 20")
AGAIN_WITH = ("but", "only", "with", "but with", "but for", "for", "at", "but at", "but make it", "only make it")
# Asking again, now, what was read ("how about now" after a temperature and a heater switched on): the newest reading
ASKED_AGAIN = ("how about now", "what about now", "now", "what is it now", "what's it now", "how is it now",
               "how's it now", "what does it say now", "what is it at now", "what's it at now", "check it again",
               "check again", "any change", "any change now", "has it changed")     # "and now": "and" is read off
# A level said to be too much of a way, of the thing just set ("that's too bright" after a lamp was set to 80): a step
# the other way (STEP_WAYS), as said
TOO_MUCH = {"bright": "dimmer", "dark": "brighter", "dim": "brighter", "hot": "cooler", "warm": "cooler",
            "cold": "warmer", "cool": "warmer", "chilly": "warmer"}
TOO_MUCH_SUBJECTS = ("that's", "that is", "it's", "it is", "they're", "they are", "those are", "thats", "its")
# One more timer ("another one for 10", "and another for 12")
# Words with which a thing is said to want a timer of its own ("the beans want one too, five minutes")
WANTING = ("want", "wants", "need", "needs", "could use", "could do with", "should get", "gets", "get")
ANOTHER = ("another", "another 1", "1 more", "a second 1", "another timer", "a new 1", "a second timer", "1",
           "add another", "add another 1", "add another timer", "add 1 more", "and 1", "start another", "set another")

# client tools (round 17)
# Verbs said of many actions ("put the washing machine on", "set the alarm to night mode", "turn the tank lights
# off", "start a poll"): said of a thing a declared tool's name holds, they ask for that tool whatever its own verb
GENERIC_VERBS = frozenset({"put", "set", "add", "start", "send", "create", "turn", "switch"})
# Verbs of no particular action that still ask for something done, never to be told ("do a water change in the
# tank", "make the subtitles bigger"): no tool that only tells is asked by them
DOING_VERBS = frozenset({"do", "make", "run", "turn", "switch", "take"})
# Who does something, said before its verb ("i worked 40 hours on Helios", "log that i fed biscuit"): the word right
# after one is a verb, no value
SUBJECT_PRONOUNS = frozenset({"i", "we", "you", "they", "he", "she"})
# Words that start a clause about the thing just named ("a code for Hiroshi that lasts 48 hours"): no value runs on
# across one (a message after "that" is read before)
RELATIVE_WORDS = frozenset({"that", "which", "who"})
# Words between a score and the most it could be ("3 out of 5", "8 over 10"): the number after them is a scale, no
# value
SCALE_WORDS = (("out", "of"),)
# Enum members that mean two others together ("wet and dirty": mixed; "left and right": both)
BOTH_MEMBERS = frozenset({"both", "mixed", "all", "either"})
# Words that may stand before a request's verb and limit it ("only charge the car to ninety percent", "simply log
# it"): skipped to find the verb
LIMITING_OPENERS = ("only", "simply", "first")

# wrong calls (round 17)
# Verbs whose "on" or "off" after them is the state asked for: "switch off the bathroom light, someone's left it on
# again" asks for off, whatever else the request says is on
SWITCHING_VERBS = ("turn", "switch", "put", "pop", "power", "shut", "flick", "flip", "knock", "leave", "keep")
# Words of a move other than switching on, in any form: a request that says one and no "on" asks no switching on
# ("pull the pleated blind down, the sun's on the cot" switched the blind on)
MOVES_NOT_ON = ("open", "close", "lock", "unlock", "down", "lower", "raise", "lift", "draw")
# Verbs that open a change of a thing, never a timer or an alarm: such a change said for later of a thing the home
# lacks is said to be unknown ("turn on the chapel lamp in 10 minutes"), not read again as a timer of 10 minutes
THING_CHANGING_VERBS = (*SWITCHING_VERBS, *MOVES_NOT_ON, "dim", "brighten")
# Words that say the half of the day an alarm is in: one said against the call's period, its own unsaid, refuses it
# ("set me an alarm for nine pm" set 9 am)
PERIOD_WORDS = {"am": ("am", "a m", "morning"), "pm": ("pm", "p m", "evening", "afternoon", "tonight", "at night")}

# follow-ups supported by the words (round 18)
# Pronouns that stand for more than one thing ("turn them off", "those")
PLURAL_PRONOUNS = ("them", "they", "those", "these")
# Verbs said after a plural pronoun of people, not of things ("what did they say", "they called earlier"): no reference
PEOPLE_VERBS = ("say", "said", "says", "tell", "told", "think", "thought", "mean", "meant", "know", "knew", "want",
                "wanted", "come", "came", "coming", "arrive", "arrived", "call", "called", "ring", "rang", "live",
                "like", "liked", "love", "asked", "ask")
# Words that say a group beside a pronoun or alone ("turn them both off", "all of them", "every one of them", "turn
# both off"): the things acted on together, never the newest one alone
GROUP_WORDS = ("both", "all", "every", "each", "the rest", "the lot")
# and those of them said alone as what is acted on ("turn both off", "switch the lot off", "both lamps"), with the
# pronoun they stand with ("the rest" alone says no which)
GROUP_ALONE = {"both": "them both", "the lot": "them all", "all of those": "them all",
               "all of these": "them all", "both of those": "them both", "both of these": "them both"}
# Answers to the assistant's own "Which one: the X, the Y or the Z?": a choice by its place in the question ("the
# second one", "the last one"), by a word of its name said another way ("the upstairs one": the upper one), all of
# them together, or none of them yet (the question asked again)
CHOICE_PLACES = {"first": 0, "second": 1, "third": 2, "last": -1}
CHOICE_WORDS = {"upstairs": "upper", "top": "upper", "downstairs": "lower", "bottom": "lower"}
# Words of a floor said before the room or area on it in a follow-up ("and upstairs in the bedroom", "upstairs on the
# landing"): where that place is, no place of their own
FLOOR_WORDS = ("upstairs", "downstairs")
# Words that say a request is for an alarm ("set an alarm", "wake me up tomorrow"): a clock time said alone next,
# after the request was refused or asked about, is the alarm's time
ALARM_REQUEST_WORDS = ("alarm", "wake me", "wake us", "get me up")
ALL_CHOICES = ("both", "both of them", "all of them", "all 3", "all", "the lot", "all of those", "both of those")
NOT_A_CHOICE = ("not that 1", "not that", "not the 1", "not this 1")
# Words with which a speaker takes back the value just said for another ("make it 22, no wait, 21", "a touch
# brighter, uh, no, dimmer"), said between the two
SELF_CORRECTING = ("no", "sorry", "wait", "i mean", "i meant", "or rather", "actually", "make that", "make it", "uh",
                   "um", "er", "oops")
# Words that say the value the assistant's newest reading said ("set the thermostat to that temperature")
SAID_VALUE = ("that temperature", "the same temperature", "that same temperature", "that number", "the same number",
              "whatever you just said", "whatever you said", "what you just said", "what you said", "that reading",
              "that value")
# Words that say the result of the conversation's newest sum as a number ("a timer for that many seconds")
SAID_RESULT = ("that many", "that number of")
# Nouns that name a calculation's result ("take 30 off that sum", "double the answer"): said, they pick the result
# past calls on other things
RESULT_NOUNS = ("answer", "result", "number", "sum", "total")
# A demonstrative that points back past the thing in focus ("multiply that by 3" after a sum, then a fan switched
# on); "it" stays with the thing acted on last ("take 4 off it" after a light is no sum)
DEMONSTRATIVES = ("that",)
# Words that ask a sum of one number ("double that", "what's that squared") or of it and a number said beside it
# ("what do you get if you add 6 to that"): a demonstrative among them stands for a number, the newest result
OPERATIONS_OF_ONE = ("double", "twice", "triple", "treble", "halve", "half", "third", "quarter", "squared", "cubed")
OPERATIONS_OF_TWO = ("plus", "minus", "times", "multiply", "multiplied", "divide", "divided", "over", "add", "added",
                     "subtract", "subtracted", "take", "takes", "taken", "deduct", "knock", "less", "split", "share")
# A place said as the one the conversation was just in ("the tv in that same room", "the fan up there")
SAID_PLACE = ("in there", "out there", "up there", "down there", "over there", "in that room", "in the same room",
              "in that same room", "in that 1", "in the same 1")
# Comparatives of a reading ("the heater in the colder one", "the door in the damper room"): the kind read, and
# whether the most or the least of it is meant
READING_COMPARATIVES = {("temperature", max): ("warmer", "hotter", "warmest", "hottest"),
                        ("temperature", min): ("colder", "cooler", "chillier", "coldest", "coolest", "chilliest"),
                        ("humidity", max): ("damper", "more humid", "muggier", "wetter", "stuffier", "dampest",
                                            "most humid", "muggiest"),
                        ("humidity", min): ("drier", "dryer", "less humid", "driest", "least humid")}
# How a reading is, and how it changed, asked of "it" after the reading and a change ("has it gone down", "is it still
# humid down there" after the humidity was read and a fan switched on): the reading asked again, of its kind
READING_QUALITIES = {"temperature": ("warm", "cold", "hot", "chilly", "cool", "freezing", "toasty", "nippy", "cosy",
                                     "cozy"),
                     "humidity": ("humid", "damp", "muggy", "dry", "stuffy", "moist")}
# A question of how a place is, its "it" the place's own ("how damp is it down there", "how humid"): the words that
# may stand between the quality and the place, or for the place itself; the subject left out is the place
AMBIENT_FRAMES = ("is it", "it is", "is it getting", "does it feel", "is it feeling")
AMBIENT_PLACES = ("in here", "here", "there", *SAID_PLACE)
READING_CHANGES = ("gone down", "gone up", "come down", "come up", "dropped", "risen", "fallen", "changed", "gone")
# Words a loose speaker opens a request with that carry nothing ("yeah so ...", "could you go ahead and ...", "while
# you're at it ...")
LOOSE_OPENERS = ("yeah so", "so yeah", "right so", "can you also", "could you also", "can you just",
                 "could you just", "go ahead and", "could you go ahead and", "can you go ahead and", "while you're at it",
                 "if you would", "if you could", "do you think you could", "would you be able to", "any chance you could",
                 "i was wondering if you could", "be a star and")
# A thing said as what the assistant or the user said or did of it ("the one you just mentioned", "the telly you put
# on earlier", "the television i asked for"): the verbs of that clause, which tells nothing more than a pronoun
MENTIONED = ("mentioned", "told me about", "were talking about", "were just talking about", "talked about", "said",
             "put on", "turned on", "switched on", "turned off", "switched off", "asked about", "asked for", "set",
             "started", "opened", "closed", "locked", "unlocked", "checked")
# Words for the setting of the default home's one thermostat ("knock the temperature down a couple of degrees")
HEATING_WORDS = ("thermostat", "temperature", "heat", "heating")
# Words typed short, as texts are, and the corpus's words for them ("kitchen lights to 25 pls", "dim it abit")
TEXTED = {"pls": "please", "plz": "please", "plse": "please", "thx": "thanks", "thnx": "thanks", "thanx": "thanks",
          "ty": "thank you", "u": "you", "ur": "your", "abit": "a bit", "rn": "right now",
          "tmrw": "tomorrow", "tmr": "tomorrow", "tonite": "tonight"}
# Words a call is asked by that no other table holds, spelt right when typed with a slip (assistant.spelling)
SPELT_WORDS = ("timer", "timers", "alarm", "alarms", "brightness", "scene", "convert", "calculate", "tomorrow")
# Words that move an alarm by a length ("push the alarm back half an hour", "bring it forward 10 minutes"): later or
# earlier
ALARM_WAYS = {"later": ("later", "back"), "earlier": ("earlier", "sooner", "forward", "forwards")}
# A thing said to be left as it is beside an action on another ("put the light back on, leave the fan", "turn off
# the airer but keep the other going"): the words that join that clause, and its verbs besides LEAVING
LEAVING_JOINS = ("but", "and", "just")
KEEPING = ("keep",)

# unseen homes (round 18, refuse)
# Words that may follow part of a user's own name without being more of that name ("the tiffany one in the sewing
# room", "whirlwind off", "the score lamp, turn it on"): particles, prepositions, conjunctions, pronouns,
# determiners, vague stand-ins for the rest of a name ("the seedling thing"), auxiliaries, adverbs of time, degree and manner, politeness, the assistant's own things ("a kiln
# timer"), what is said of a reading ("the temperature like in the snug"), and the verbs of SWITCH_VERBS and OTHER_REQUEST_VERBS. Any other word said right after part of a name is more of that name ("the pond heater" is
# not the pond pump, "the salt grinder" not the salt lamp), and no entity answers to it.
NOT_MORE_OF_A_NAME = frozenset({
    "on", "off", "up", "down", "in", "out", "over", "under", "at", "to", "into", "onto", "from", "by", "with", "for",
    "of", "about", "above", "below", "near", "next", "beside", "behind", "through", "round", "around", "across",
    "and", "or", "but", "so", "then", "if", "as", "than", "because", "while", "when", "once", "till", "until",
    "it", "them", "they", "that", "this", "these", "those", "one", "ones", "thing", "things", "thingy",
    "me", "us", "you", "him", "her", "which",
    "who", "what", "there", "here", "the", "a", "an", "my", "our", "your", "its", "their", "his", "both", "all",
    "each", "every", "some", "any", "is", "are", "was", "were", "be", "been", "being", "will", "would", "can",
    "could", "should", "shall", "may", "might", "must", "do", "does", "did", "has", "have", "had", "needs", "need",
    "please", "pls", "plz", "thanks", "thank", "thx", "cheers", "ta", "now", "again", "too", "also", "still", "already", "yet", "just",
    "back", "right", "quick", "quickly", "soon", "later", "tonight", "today", "tomorrow", "first",
    "bit", "little", "touch", "lot", "more", "less", "much", "very", "really", "fully", "halfway", "full",
    "high", "low", "open", "opened", "closed", "shut", "locked", "unlocked", "running", "going", "working", "dry", "wet",
    "mate", "love", "dear", "parley", "yeah", "ok", "okay", "well", "not", "no", "yes", "either",
    "timer", "timers", "countdown", "alarm", "scene", "mode", "like", "wise", "reading", "level", "setting",
})
# Endings written one way in British English and another in American ("louvres"/"louvers", "parlour"/"parlor",
# "centre"/"center"): a word of a request and a word of a name with the same stem under these (and one or many
# alike) are the same word. Only ever compared against the home's own names, so an ending of another word that
# looks alike changes nothing that the home does not have.
SPELLING_ENDINGS = (("our", "or"), ("re", "er"), ("ise", "ize"), ("yse", "yze"), ("ogue", "og"))
# Words that make a request a report of what was done ("i closed the velux earlier", "someone's already switched it
# off"): no move is read from it by code (chat_template.named_move)
DONE_ALREADY = ("already", "earlier", "yesterday", "last night", "this morning")
# Words of a question that ask a thing's state, besides STATE_WORDS ("is the sprinkler still running", "what's the
# stove set at"): a question naming a switch, light, cover or lock is read as get_state by code only with one of
# them ("isn't the chandelier lovely" asks nothing of it); a sensor's or a heater's question always reads it
STATE_ASKING_WORDS = ("running", "going", "working", "left", "still", "set", "at")

# one source of truth (round 19, tidy)
# Words that stand for a thing said before them as what a verb acts on ("switch it off", "the dock lights, switch
# them on", "leave that"), and the same said with a word for one ("that one": the normaliser writes "1")
PRONOUN_OBJECTS = ("it", "that", "them", "this", "those")
PRONOUN_ONES = ("that 1", "this 1", "those ones")
# A subject said with its verb in one word ("it's", "we're", "nobody's"): heard run on after a request, it starts a
# clause of its own ("the hall light on it's dark")
SUBJECTS_WITH_A_VERB = ("i'm", "i've", "i'll", "i'd", "it's", "it'll", "we're", "we've", "we'll", "we'd", "you're",
                        "you've", "they're", "they've", "they'll", "he's", "she's", "there's", "that's", "nobody's",
                        "everyone's", "everybody's", "someone's", "somebody's")
# Words said right before "timer" that are no timer's name ("start a timer", "set timer", "a new timer")
NO_TIMER_NAMES = ("a", "an", "some", "new", "start", "stop", "set", "cancel", "reset", "pause")
# Subjects a clause that says how things are opens with ("it's stuffy", "we have guests", "i'm going to bed"): a
# remark beside the request, never the request; unless the subject says one of SUBJECT_WISHES ("we need the heating
# on" is a request)
REMARK_SUBJECTS = ("it", "it's", "its", "that's", "that is", "this is", "there", "there's", "we", "we're", "we've",
                   "we'll", "we'd", "i'm", "i am", "i've", "i'll", "i was", "i have", "i had", "i heard", "i can't",
                   "i cannot", "they", "they're", "he", "she", "he's", "she's", "you're", "you've", "someone",
                   "someone's", "somebody", "somebody's", "nobody", "nobody's", "no one", "everyone", "everyone's",
                   "everybody", "something", "something's", "nothing", "nothing's")
SUBJECT_WISHES = ("need", "want", "would like", "'d like", "would love", "'d love", "like")

# follow-ups completed from the conversation's state (round 19, follow)
# Words of a follow-up said as a fragment that fill no argument of a call: articles, pronouns, prepositions,
# conjunctions, politeness, hesitations and adverbs of adding and of time ("the salt lamp too", "hmm 75 on those",
# "okay the heater in that room on"), no verb: a fragment whose every word is one of these or a part the home's
# vocabulary reads is completed from the calls before it (a request with a verb is the other rules' and the model's).
FRAGMENT_WORDS = frozenset({
    *PRONOUN_OBJECTS, *PLURAL_PRONOUNS, *FOLLOW_UP_WORDS, *(word for word in JOINING_WORDS if " " not in word),
    "the", "a", "an", "my", "our", "one", "1", "ones", "in", "on", "at", "to", "for", "with", "of", "by", "there",
    "here", "room", "place", "thing", "too", "as", "well", "thanks", "just", "again", "back", "instead", "hmm", "um",
    "uh", "er", "yeah", "yes", "alright", "right", "while", "you're", "bit", "little", "touch", "tad", "notch",
    "level", "setting",           # "the chandelier at that level as well": the call's own level
})
# Words of a fragment that say what is done to its thing: the argument each sets and its value. "on" before a place
# or a pronoun ("the lantern on the veranda", "75 on those") is no state.
ACTION_PARTS = {"on": ("state", "on"), "off": ("state", "off"), "open": ("action", "open"), "opened": ("action", "open"),
                "close": ("action", "close"), "closed": ("action", "close"), "shut": ("action", "close"),
                "lock": ("action", "lock"), "locked": ("action", "lock"), "unlock": ("action", "unlock"),
                "unlocked": ("action", "unlock")}
# Units a number of a fragment may be said in, and the argument each fills ("make it 22 degrees", "60 percent")
FRAGMENT_UNITS = {"percent": "percent", "degrees": "degrees", "degree": "degrees"}
# Ways said before "to" and a number, which the number says alone ("lamp down to 20", "up to 22"); said without
# one, a light's step ("office up a bit")
TOWARDS = ("up", "down")

# --- round 19, client tools (h20-tools) ---
# Words that say a flag's thing is not wanted, right before it ("no chime", "without bubbles", "skip the steam").
FLAG_NEGATIONS = frozenset({"no", "without", "not", "don't", "dont", "never", "skip", "minus"})

# --- round 20, names in unseen homes (h21-homes) ---
# Words that put one part of a thing's name beside another ("the pump in the pond", "the light above the workbench",
# "the shutter on the dormer"): the two parts are one name when only one thing's name has them both.
WITHIN_A_NAME = frozenset({"in", "on", "of", "over", "above", "by", "under", "below", "beside", "behind", "near",
                           "at", "for"})
# What a cover's kind word may name, by the cover's device class (Home Assistant's): "the gallery shutters" is no
# velux window (class window), though both are covers; a cover of no class answers to any of them.
COVER_WORD_CLASSES = {"blind": {"blind", "shade"}, "blinds": {"blind", "shade"}, "shade": {"blind", "shade"},
                      "shades": {"blind", "shade"}, "shutter": {"shutter"}, "shutters": {"shutter"},
                      "curtain": {"curtain"}, "curtains": {"curtain"}}
# Words that open what a verb acts on ("set the ...", "press it"): a word of a name before one is the request's verb.
VERB_OBJECTS = frozenset({"the", "my", "our", "your", "this", "that", "these", "those", "a", "an", "it", "them", "all",
                          "both", "every", "everything", "each", "some"})

# --- round 21, names in unseen homes (h22-homes) ---
# What a thing a plug or relay (a switch) drives is, by the last word of its name: that kind's word names it with
# that word ("the extractor fan" is the switch "larder extractor"); a switch whose name ends in no such word is of no
# kind ("the kiln fan" and "the kennel lamp" name nothing).
RELAYED_KINDS = {**dict.fromkeys(("extractor", "ventilator", "blower"), "fan"),
                 **dict.fromkeys(LIGHT_KINDS, "light")}
# Words that ask for a scene named beside them: a verb before it ("switch to siesta", "let's do regatta"), or a word
# for a scene right after its name ("the siesta scene", "regatta mode"); a mode or scene said by its name
# ("candlelight mode please") activates the scene of that name.
SCENE_VERBS = ("switch to", "change to", "go to", "put on", "turn on", "switch on", "start", "run", "activate", "do",
               "have", "set", "play", "give me")
SCENE_WORDS = ("scene", "mode", "setting")

# --- round 20, follow-ups read as the self-contained request they stand for (h21-follow) ---
# Words of a follow-up that ask again for what was done, say who asks or how, and fill no argument of a call ("could
# you do the same in the bathroom", "no i said 20", "make it warmer 20", "actually candlelight instead"): past them,
# the rest is read as a fragment completed from the conversation's state (conversation.standalone).
FRAME_WORDS = frozenset({
    "do", "same", "said", "say", "meant", "mean", "i", "you", "can", "could", "would", "will", "please", "actually",
    "no", "not", "what", "about", "how", "also", "like", "maybe", "try", "make", "set", "put", "turn", "switch", "now",
    "warmer", "cooler", "hotter", "colder", "instead", "it", "that"})
# How a follow-up that asks about a thing opens ("is it on now", "did you turn it off", "how long is left on that"):
# it is answered by a reading, never by a change; a thing's state answers only the yes-or-no ones ("how long has it
# been on" is no "is it on"). "what about" and "how about" ask for the same again.
YES_NO_OPENERS = ("is", "are", "was", "were", "has", "have", "did", "does")
# ("what mode is it in": "what" before a mode's noun opens a question as "which" does)
QUESTION_OPENERS = (*YES_NO_OPENERS, "how", "what's", "what is", "which", "where", "when", "why",
                    *(f"what {noun}" for noun in MODE_NOUNS), "what position")
SAME_AGAIN_OPENERS = ("what about", "how about")
# Words that make a statement about a thing a yes-or-no question ("can you check it's off", "see if the gate's locked")
CHECKING = ("check", "check if", "check whether", "check that", "see if", "see whether", "tell me if",
            "tell me whether", "find out if")

# --- round 20, client tools (h21-tools) ---
# How a tool's description may open by saying when it is to be used rather than what it does ("Called when the user
# wants to book ...", "Use this to ...", "This function returns ..."): read past, with the one who asks (up to
# three words: "the hotel guest") and their wish, so that what follows says the tool's verb and its words.
DESCRIPTION_OPENERS = ("called when", "called if", "invoked when", "invoked if", "triggered when", "used when",
                       "use this when", "use this if", "use this to", "use this tool when", "use this tool to",
                       "use this function when", "use this function to", "call this when", "call this to",
                       "call when", "this function", "this tool", "a function to", "a tool to", "function to",
                       "tool to", "when")
DESCRIPTION_WISHES = ("wants to", "would like to", "'d like to", "wishes to", "needs to", "asks to", "asks you to",
                      "is asking to", "tries to", "asks for", "asks about", "asks", "says", "mentions", "wants",
                      "would like", "needs", "requests")
# Words a request is asked in: the request's verb follows them ("the piano sounds awful, is there any way you could
# get the tuner round", "before bed would you mind locking the shed"), what is said before them being a remark.
# Those ending in "mind" take the verb as a gerund ("locking": lock).
ASKING_WRAPPERS = ("could you", "can you", "would you", "will you", "could you possibly", "can you possibly",
                   "would you mind", "do you mind", "would you be able to", "are you able to", "could you be able to",
                   "would it be possible to", "is it possible to", "would it be possible for you to",
                   "is there any way you could", "is there any way you can", "is there any chance you could",
                   "is there any chance you can", "any chance you could", "any chance you can",
                   "i was hoping you could", "i was hoping you'd", "i'm hoping you can", "i wonder if you could",
                   "i wonder whether you could", "i was wondering if you could", "i was wondering whether you could",
                   "do you think you could", "if you could", "if you can", "i'd be grateful if you could",
                   "it would be great if you could", "would you be so kind as to", "would you kindly",
                   "i need you to", "i want you to", "i'd like you to", "i'd love you to", "i'd love it if you could",
                   "can i get you to", "could i get you to", "could i ask you to", "can i ask you to")
# The days of a month said as ordinals ("the twelfth of june", "on the ninth"), beyond digits ("14th"); the
# twenties and thirties as "twenty" or "thirty" before one of the first nine.
DAY_ORDINALS = frozenset("""first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth
fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth thirtieth""".split())
ORDINAL_TENS = frozenset({"twenty", "thirty"})
# Words before "the" and a day's ordinal that make it a date ("on the ninth", not "the fourth floor").
DATE_PREPOSITIONS = frozenset({"on", "for", "from", "until", "till", "by", "before", "after", "to"})
# Numbers said as a count noun ("a dozen eggs", "two dozen", "half a dozen") and the word of a decimal point said
# ("six point nine percent").
COUNT_NOUNS = {"dozen": 12}
DECIMAL_POINTS = frozenset({"point"})
# Words that start what is said of a code, ending it ("ba 117 *is* boarding", "parcel yt99812 *will* turn up").
PREDICATE_WORDS = frozenset({"is", "are", "was", "were", "isn't", "aren't", "wasn't", "weren't", "will", "won't",
                             "has", "hasn't", "have", "haven't", "had", "hadn't", "does", "doesn't", "did", "didn't"})

# --- round 20, clear requests not refused (h21-refuse) ---
# Verbs that say a switch's state with no "on" or "off" ("start the lawn sprinkler", "get the cider press going",
# "kill the jukebox"): a thing named with one of them, and no other move, is switched so.
STATE_VERBS = {"on": ("start", "starts", "going", "running", "fire up", "boot up"),
               "off": ("stop", "stops", "kill", "cut")}

# --- round 39, robot vacuums and buttons (r39-vacuum) ---
# A robot vacuum's commands (Home Assistant's MQTT vacuum), each with the words that ask for it of the vacuum named
# ("send the hoover home", "dock the vacuum", "pause it", "find the robot") and the feature of its discovery's
# `supported_features` that offers it; a request that says two of them says none. A question ("is the vacuum docked",
# "where is the robot") reads its state and battery instead.
VACUUM_COMMANDS = {"start": (("start", "resume", "continue", "begin"), "start"),
                   "pause": (("pause",), "pause"),
                   "stop": (("stop", "halt"), "stop"),
                   "return_to_base": (("home", "dock", "base", "charger", "return"), "return_home"),
                   "locate": (("locate", "find", "beep"), "locate"),
                   "clean_spot": (("spot", "spot clean"), "clean_spot")}
# A vacuum switched on or off, as Home Assistant's vacuum takes turn_on and turn_off: started, and sent to its dock
# ("turn on the vacuum", "switch the robot off")
VACUUM_SWITCHED = {"on": "start", "off": "return_to_base"}
# A cover's tilt (Home Assistant's tilt_command_topic): the words that say its slats ("tilt the blinds", "open the
# slats", "what is the blinds' tilt"); a tilt with no move said ("tilt the blinds") opens them
TILT_WORDS = ("tilt", "tilts", "tilted", "tilting", "slats", "slat", "vanes")
# What a vacuum's discovery offers when it lists no `supported_features` (Home Assistant's defaults), and said back
# once done ("Okay, the robot vacuum is returning to its dock.")
VACUUM_DEFAULT_FEATURES = ("start", "stop", "return_home", "battery", "clean_spot")
VACUUM_COMMANDS_DONE = {"start": "cleaning", "pause": "paused", "stop": "stopped",
                        "return_to_base": "returning to its dock", "locate": "beeping so you can find it",
                        "clean_spot": "cleaning a spot"}
# and said as what it can do ("The robot vacuum can't pause; it can start, stop and return to its dock.")
VACUUM_COMMANDS_SAID = {"start": "start", "pause": "pause", "stop": "stop", "return_to_base": "return to its dock",
                        "locate": "beep to be found", "clean_spot": "clean a spot"}
# A vacuum's state as said (Home Assistant's vacuum activities): "The robot vacuum is docked and charging, ..."
VACUUM_STATES_SAID = {"cleaning": "cleaning", "docked": "docked and charging", "paused": "paused",
                      "idle": "idle, off its dock", "returning": "returning to its dock",
                      "error": "stuck with an error"}
# Words that say a vacuum whatever its name ("the hoover" of a Valetudo robot called Rocky)
VACUUM_WORDS = ("vacuum", "hoover", "robot vacuum", "robot")
# A button's press (Home Assistant's MQTT button): the words that ask for it ("press the doorbell button", "ring the
# doorbell"), and the verbs that say a button of its kind, in its name, does its job ("restart the router": the
# router's restart button, "reboot the router" too). A button is pressed, never switched on or off.
BUTTON_PRESS_WORDS = ("press", "push", "hit", "ring", "tap")
BUTTON_VERBS = (("restart", "reboot", "reset"), ("update", "upgrade"), ("identify",))
# The words that say a vacuum or a button of the home whatever its name ("the hoover", "the doorbell button")
APPLIANCE_KIND_WORDS = {"vacuum": VACUUM_WORDS, "button": ("button",)}
# What each kind can be asked to do, said of one asked for what its kind cannot ("The router restart can only be
# pressed.")
ABILITIES |= {"vacuum": "started, paused, stopped, sent to its dock or read", "button": "pressed"}
FOLLOW_UP_KINDS |= {"vacuum": "vacuum", "button": "button"}

# --- round 22, clear requests read by what they say (r22-refuse) ---
# Verbs after which "on" or "off" is the state wished for the thing said before them ("the living room heater needs
# to be on", "the kiln can stay off"); not "go" or "come" ("the alarm will go off", "come on, ...").
STATE_WISHED_AFTER = ("be", "stay", "remain")
# Words that say more than one thing is meant, or one left out ("everything off in the kitchen but the tv"): a
# request with one of them is not one device's switch.
NOT_ONE_THING = ("all", "every", "everything", "except", "but", "apart", "and", "both")

# --- round 20, never act where nothing said supports it (h21-noguess) ---
# Words that ask nothing of the assistant, though they name the home's things.
# Words that open a condition or a time to come ("if it gets cold later ...", "should it rain ...", "maybe tomorrow
# ..."): with no verb of asking in the request, what follows is said of then, not asked now.
CONDITION_OPENERS = ("if", "when", "whenever", "once", "should", "in case", "unless", "were", "suppose",
                     "supposing", "maybe tomorrow", "one day", "some day")
# Words that say what may be or will be (a modal said after its subject: "i might want", "we'll need", "the roof
# would need closing"), not what is asked; a modal before "you" or "i" asks ("could you", "may i"), and "should"
# wishes ("the hallway lights should be at 10 percent").
MODALS_OF_A_STATEMENT = ("'ll", "will", "might", "may", "would", "'d")
# Adverbs said between a modal or a pronoun and what follows ("we'll probably want", "is that still on"): never a
# part of a name pointed at
ADVERBS = ("probably", "maybe", "perhaps", "likely", "definitely", "also", "really", "just", "still", "quite", "rather",
           "much", "so")
# Words a modal may take that ask after all ("i'd like the light on", "i'll have the lamp on").
MODAL_REQUESTS = ("like", "love", "have", "appreciate", "be grateful", "be nice", "be great", "be good", "be lovely",
                  "be so kind", "be about right", "be right", "be better", "be perfect", "be ideal", "be fine",
                  "help")
# Verbs a request is made with, said bare: one said other than after its subject or a modal asks now ("if it gets
# dark turn the porch light on").
BARE_REQUEST_VERBS = ("turn", "switch", "put", "pop", "power", "shut", "flick", "flip", "knock", "open", "close",
                      "lock", "unlock", "lower", "raise", "lift", "draw", "dim", "brighten", "start", "stop", "set",
                      "make", "run", "boot", "fire", "crank", "activate", "read", "tell", "check", "give", "cancel", "play", "pause",
                      "remind")
# Words only a person can be asked to do or be called by ("when you go up", "on your way out", "kids, ..."): the
# words are meant for someone else in the room.
PERSON_ONLY_DOINGS = ("you go up", "you go out", "you go to bed", "you go upstairs", "you go home", "you come", "you leave", "you head", "you walk", "you get up", "you get home",
                      "you get back", "you've fed", "you have fed", "you feed", "on your way", "your dad", "your mum", "your mom", "your brother", "your sister")
ADDRESS_WORDS = ("mum", "mom", "dad", "grandad", "grandpa", "granddad", "grandma", "gran", "nan", "nana", "kids",
                 "children", "boys", "girls", "guys", "darling", "honey", "sweetheart", "love", "everyone")
# Words of a question about what the assistant can do in general ("is it possible for you to control blinds at
# all?", "what kinds of devices can you switch?"): an ability, not a request, when said with a word of generality.
ABILITY_OPENERS = ("can you", "could you", "are you able to", "is it possible for you to", "is it possible to",
                   "do you know how", "are you capable of", "can parley")
IN_GENERAL = ("at all", "in general", "in principle", "generally", "by yourself", "on your own", "kinds of",
              "sorts of", "sort of", "types of", "do you know how")
# Words for a kind of thing, or that pick one out, which any home's thing may be called by ("the lamp in the snug",
# "the big light in the gallery"): a verb's object said in an area with a word neither these nor of the home's
# names names a thing the home lacks ("open the cat flap in the gallery").
THING_KIND_WORDS = frozenset("""light lamp lighting bulb blind shade curtain shutter cover window door gate lock fan
heater heating radiator thermostat switch plug socket outlet sensor temperature humidity tv telly television speaker
big small little main other left right front back top bottom new old everything all""".split())

# --- round 20, the client's tools asked in long, indirect speech (h21-tools2) ---
# Words that join a remark and the request after it when a recogniser writes no comma ("the pots have dried
# *so* could you fire the kiln").
REMARK_LINKS = frozenset({"so", "and", "but", "anyway", "then", "now"})
# Words that open a request after such a word, beside ASKING_WRAPPERS ("... so *i think we should* get a skip").
ASKED_AFTER_A_REMARK = ("please", "i'd like to", "i would like to", "we'd like to", "we would like to", "i want to",
                        "i need to", "i think we should", "i think we ought to", "we should", "let's", "could we",
                        "can we", "would you please", "could you please", "can you please", "i would like you to",
                        "i would love it if you could", "i would be grateful if you could",
                        "it would be great if you could")
# Words of the request that stand for what its remark named ("the lamp on station street is out so could you
# report *it*", "the dog smells so could you book *her* in"): such a request is read with its remark. "this" and "that"
# only where no noun follows them ("send that in", not "that lesson").
REMARK_PRONOUNS = frozenset({"it", "them", "her", "him", "that", "this"})
# Verbs that ask to be told or shown something, not for a thing done ("would you explain how big a skip is"): a
# request asked in words of asking with such a verb calls no tool that acts, though it names the tool's thing.
EXPLAINING_VERBS = frozenset({"explain", "describe", "suggest", "recommend", "teach", "advise", "say", "tell",
                              "show", "name", "list", "compare", "guess"})
# Of REMARK_LINKS, those after which a question is asked of what the remark said ("the kiln cracked a bowl *so* how
# hot should it go"); "and" or "now" before a question joins it to the words before ("do me a favour and is it
# hard").
QUESTION_LINKS = frozenset({"so", "but", "anyway"})

# --- round 22, negations and remarks never act (r22-negate) ---
# Words that open a request said and negated ("don't turn the samovar off", "no need to open the pleated blind"):
# it asks for nothing to be done, so no call is made (clauses.negated_or_remarked); said before a clause that asks
# (after a comma), the other rules read the request ("don't leave the kiln on, turn it off")
NEGATING_OPENINGS = ("don't", "dont", "do not", "please don't", "please dont", "please do not", "no don't",
                     "no need to", "there's no need to", "there is no need to", "you don't need to",
                     "you do not need to", "you don't have to", "you do not have to", "you needn't",
                     "no need for you to", "there's no point in", "don't bother", "don't you dare")
# Words right after a negating opening that make it a request after all: "don't forget to lock the annexe door",
# "don't leave the espresso machine on" (its thing's state is to change)
NEGATION_ASKS = ("forget", "leave", "let")
# Who leaves a thing as it is, said as a remark: "i left the propagator on all night", "someone left the yard
# floodlight on"
LEAVERS = ("i", "we", "you", "they", "he", "she", "someone", "somebody", "the kids", "my son", "my daughter")
# Words that link a thing and the state said of it as a remark ("the samovar is on", "the towel rail has been on
# since lunch"): a statement, not a request
STATE_LINKS = ("'s", "'re", " is", " are", " was", " were", " has been", " have been", " had been", "'s been",
               "'ve been")
# The states such a remark says of a thing
REMARKED_STATES = ("on", "off", "open", "closed", "shut", "locked", "unlocked", "running", "up", "down")
# Words that open a clause saying the state a thing must not be left in ("don't leave the propagator on", "i don't
# want the festoon lights on"): the request is the clause after it that stands for the thing by a pronoun ("...,
# turn it off"), read alone (clauses.asked_after_a_negation); the model reads the negated state as the one asked
NEGATED_WISHES = ("don't leave", "dont leave", "do not leave", "i don't want", "i dont want", "i do not want",
                  "we don't want", "we dont want", "we do not want", "don't keep", "do not keep")
# Words before a request that ask it be done ("don't forget to turn off the kitchen light"): the request after them
# is read alone (clauses.asked_after_a_negation), as the corpus asks without them
NOT_FORGETTING = ("don't forget to", "dont forget to", "do not forget to", "don't forget and")
# Words said before a negated request or a remark that carry nothing ("no, don't turn it off", "actually, the
# samovar's on"): it is read without them (clauses.negated_or_remarked)
BEFORE_A_NEGATION = ("no", "nah", "nope", "actually", "please", "ok", "okay", "oh", "well", "so", "just", "and", "but",
                     "wait")

# follow-ups (round 39)
# A thing's setting asked right after the newest call set or read it ("set the water heater to 50", "what is it set
# to"; "what volume is it at" after the soundbar's volume was set): the calls that set or read a setting, and for each
# kind of thing the word of its setting and the call that reads it from the thing itself (a get_media call only when
# it read the volume). The words that end such a question ("what is it set to", "what's it at"); a question of the
# setting's word with no pronoun asks the setting only with one of TARGET_ASKED, or of a word no reading shares
# ("what's the volume now", not "what's the temperature")
SETTING_CALLS = ("set_thermostat", "set_level", "change_level", "get_target_temperature", "get_target_humidity",
                 "get_cover_position", "set_volume", "change_volume", "get_media", "get_level")
SETTING_READS = {"climate": ("temperature", "get_target_temperature"),
                 "water_heater": ("temperature", "get_target_temperature"),
                 "humidifier": ("humidity", "get_target_humidity"),
                 "cover": ("position", "get_cover_position"), "valve": ("position", "get_cover_position"),
                 "media_player": ("volume", "get_media"), "light": ("brightness", "get_level"),
                 "fan": ("speed", "get_level")}
SETTING_ASKED_ENDS = ("set to", "set at", "set", "at", "on")
SETTINGS_OF_THINGS_ONLY = ("volume", "position", "brightness", "speed")
# A player asked about again right after what it plays or its volume was asked ("what's playing in the kitchen", "and
# on the tv"): the words before the other player, or its place ("on" there says where, it switches nothing)
PLAYER_AGAIN_OPENERS = ("and", "what about", "how about")
PLAYER_AGAIN_PLACES = ("on", "in")

# A summary of the home's states asked (round 40): "is anything on in the kitchen", "which lights are on", "are all the
# doors locked", "what's open". Read by code only where every word of the request is one of these, a kind of thing,
# an area of the home, or a state, and one of SUMMARY_QUESTIONS asks it: "everything off in the bedroom" is a
# command, "what's on tv" asks what plays. SUMMARY_WHICH asks which things are in the state, SUMMARY_ALL whether all
# of them are.
SUMMARY_QUESTIONS = ("is", "are", "what's", "whats", "which", "what")
SUMMARY_WHICH = ("anything", "any", "which", "what", "what's", "whats", "something")
SUMMARY_ALL = ("everything", "all", "every")
SUMMARY_FILLERS = ("is", "are", "there", "the", "my", "our", "of", "still", "left", "currently", "right", "now", "at",
                   "moment", "in", "please", "house", "home", "else")
# the states a summary asks, as said, and the state each names
SUMMARY_STATES = {"on": "on", "off": "off", "open": "open", "closed": "closed", "shut": "closed", "locked": "locked",
                  "unlocked": "unlocked", "running": "on"}
OPPOSITE_STATE = {"on": "off", "off": "on", "open": "closed", "closed": "open", "locked": "unlocked",
                  "unlocked": "locked"}
# the kinds of thing a summary asks of, as said in the plural, and the word the answer names them by; "things" and
# the like ask of every kind
SUMMARY_KINDS = {"lights": "lights", "lamps": "lights", "fans": "fans", "switches": "switches", "plugs": "plugs",
                 "doors": "doors", "windows": "windows", "blinds": "blinds", "curtains": "curtains",
                 "shades": "shades", "covers": "covers", "locks": "locks", "tvs": "tvs", "speakers": "speakers",
                 "heaters": "heaters", "valves": "valves", "things": None, "devices": None}
# what a summary may read, by the state it asks: things switched, things that open, things that lock; a binary
# sensor of these classes reads on as open
SUMMARY_COMPONENTS = {"on": ("light", "switch", "fan", "climate", "media_player", "humidifier", "water_heater"),
                      "open": ("cover", "valve", "binary_sensor"), "locked": ("lock",)}
OPENING_CLASSES = ("door", "window", "opening", "garage_door")
MAX_LISTED = 5          # a summary names at most this many things; past it, their count and the first of them
# A follow-up that switches the things a summary just named ("turn them off", "switch them all on")
LISTED_SWITCHED = ("turn {state} them", "turn them {state}", "switch them {state}", "switch {state} them",
                   "turn them all {state}", "switch them all {state}", "turn {state} all of them",
                   "turn all of them {state}", "shut them {state}", "put them {state}", "turn those {state}",
                   "switch those {state}", "turn {state} those", "turn them back {state}", "switch them back {state}",
                   "put them back {state}", "turn those back {state}")
LISTED_SWITCHED_OPENERS = ("please", "now", "ok", "okay", "and", "then", "can you", "could you")
LISTED_SWITCHED_TAILS = ("please", "now", "then", "too", "again")

# A request that joins things, areas or whole requests (assistant.compound): the words that join its parts, longest
# first; the words after a thing that are its own state ("the bedroom light on") or its own value ("the fan to high")
PART_JOINERS = ("and then", "and also", "and")
OWN_STATES = ("on", "off", "up", "down", "open", "closed", "shut", "locked", "unlocked")
OWN_VALUES = ("to", "at")
# The joined reply: parts done alike said once ("Okay, the kitchen light and the bedroom light are off."), else each
# done part after the first joined by JOINED_DONE
DONE_OPENING = "Okay, "
JOINED_DONE = ", and "

# Timers listed, changed, paused and resumed (round 40), read by code (assistant.timer_changes) only where the whole
# request is one of these phrasings. {timer} is a timer said ("the pasta timer", "my timer", "the timer for the
# eggs", "it" right after a timer's call), {length} a length ("5 minutes", "a minute", "half an hour").
TIMERS_LISTED = ("what timers do i have", "what timers have i got", "what timers are running", "what timers are set",
                 "what timers are there", "which timers are running", "which timers do i have", "list my timers",
                 "list the timers", "list all my timers", "list all the timers", "show my timers", "show me my timers",
                 "tell me my timers", "how many timers are running", "how many timers do i have",
                 "how many timers are set", "how many timers have i got", "do i have any timers",
                 "do i have any timers running", "do i have any timers set", "are there any timers",
                 "are there any timers running", "are any timers running", "any timers running", "what timers",
                 "what are my timers", "which timers", "timers")
TIMER_CHANGED = {"add": ("add {length} to {timer}", "add {length} more to {timer}", "add another {length} to {timer}",
                         "put {length} on {timer}", "put {length} more on {timer}", "put another {length} on {timer}",
                         "extend {timer} by {length}", "give {timer} {length} more", "give {timer} another {length}",
                         "add {length} more", "add another {length}", "{length} more on {timer}"),
                 "take off": ("take {length} off {timer}", "take {length} off of {timer}",
                              "take {length} from {timer}", "knock {length} off {timer}",
                              "remove {length} from {timer}", "subtract {length} from {timer}",
                              "shorten {timer} by {length}", "cut {timer} by {length}", "take off {length}",
                              "take {length} off")}
TIMER_HELD = {"pause": ("pause {timer}", "hold {timer}", "freeze {timer}", "put {timer} on hold", "pause",
                        "stop {timer} for now", "stop {timer} for a bit", "stop {timer} for a moment"),
              "resume": ("resume {timer}", "unpause {timer}", "continue {timer}", "start {timer} again",
                         "carry on with {timer}", "resume", "unpause", "keep {timer} going")}
# Words of an answer to "Which one do you mean, the pasta timer or the rice timer?" beside the timer it picks ("the
# pasta one", "the rice timer", "both timers")
TIMER_ANSWER_WORDS = ("the", "one", "1", "timer", "timers", "of", "them")
TIMER_REQUEST_OPENERS = ("please", "now", "ok", "okay", "and", "then", "can you", "could you", "hey")
TIMER_REQUEST_TAILS = ("please", "now", "then", "too", "for me", "for a bit", "for a moment", "for a minute")

# Requests about alarms and about what rings, read by code (assistant.alarms), whole, as the normaliser writes them.
# Verbs that cancel an alarm ("delete all my alarms", "turn off the 7 o'clock alarm")
ALARM_CANCEL_VERBS = ("cancel", "delete", "remove", "clear", "turn off", "switch off", "disable", "get rid of", "scrap",
                      "drop", "kill")
# Words of an answer to "Which one: the alarm at 6:45 AM or 7:00 AM?" beside the time or place it picks ("the 7
# o'clock one", "the alarm at 6 45", "the second one"), as the normaliser writes them
ALARM_ANSWER_WORDS = ("the", "one", "1", "alarm", "alarms", "at", "for", "o'clock", "of", "them", "my", "please",
                      "cancel", "that", "this")
# Words that take every alarm ("all my alarms", "every alarm", "both alarms")
ALARM_EVERY = ("all", "all of", "every", "both", "both of")
# Questions that ask which alarms are set
ALARM_QUESTIONS = ("what alarms do i have", "what alarms have i got", "what alarms are set", "which alarms are set",
                   "what are my alarms", "when is my alarm", "when is my alarm set for", "what time is my alarm",
                   "what time is my alarm set for", "do i have any alarms", "do i have an alarm", "are there any alarms",
                   "list my alarms", "show my alarms", "what alarms are there", "any alarms", "is my alarm set",
                   "have i got any alarms", "what is my alarm set for", "when does my alarm go off")
# Words that snooze what just rang ("snooze", "snooze for 10 minutes", "snooze it")
SNOOZE_WORDS = ("snooze", "snooze it", "snooze the alarm", "snooze that", "snooze alarm", "snooze please")
SNOOZE_MINUTES = 9           # a snooze no length was said for, as most alarm clocks
# Words that stop what rings; said while nothing rings, they dismiss the request, as DISMISSALS do
STOP_RINGING = ("stop", "stop it", "turn it off", "switch it off", "stop ringing", "stop the alarm", "stop the timer",
                "turn off the alarm", "turn the alarm off", "turn off the timer", "turn the timer off", "shut up",
                "be quiet", "quiet", "silence", "enough", "ok stop", "okay stop", "dismiss", "i'm up", "im up",
                "alarm off", "stop alarm", "stop timer", "that's enough")
# Words that drop the request in hand: answered "Okay." with no call
DISMISSALS = ("stop", "never mind", "nevermind", "forget it", "forget about it", "cancel", "nothing", "no never mind",
              "oh never mind", "forget that", "never mind that")
# How long after a ring "stop" and "snooze" are still about it
RINGING_S = 120

# --- round 40, a change said for later is never made now (r40-later) ---
# Words that put a change at a time to come, as the normaliser writes them ("in 10 minutes": "in 600 seconds", "at
# half past six" and "at 6:30": "at 6 30", "at 10pm": "at 10 pm"). A bare "at 30" is a level ("set the fan at 30");
# "tonight", "tomorrow" and "before ..." alone are not: a change for then is made now ("i want the nursery at 18
# degrees tonight", "turn the trouser press on, i've a wedding tomorrow", "lock the side gate before we go").
LATER_TIMES = (r"in \d+(?:\.\d+)? seconds", r"in an? (?:few|couple of) (?:minutes|hours)", r"at \d{1,2} \d{2}",
               r"at \d{1,2}(?: \d{2})? (?:am|pm|a m|p m|o'clock)", "at noon", "at midnight",
               r"tomorrow (?:morning|afternoon|evening|night|at)", "later on", "later today", "at sunset", "at sunrise",
               "at dawn", "at dusk")
# A time a change is scheduled for, said at the request's end (after spoken_numbers.normalize_request: "in 10
# minutes" is "in 600 seconds", "at half past six" "at 6 30"): a delay, or a clock time. A bare hour counts only after
# the state switched to ("switch the heater on at 7") or in a request opening with its switch off
# (SCHEDULED_OFF_FIRST_VERBS): "the office fan at 30" is a level. "tomorrow" before the time
# is a day Parley does not schedule; the change is refused as before.
SCHEDULED_DELAY = r" in (?P<seconds>\d+(?:\.\d+)?) seconds"
SCHEDULED_CLOCK = (r" at (?P<hour>\d{1,2})(?: (?P<minute>\d{2}))?(?: (?P<period>am|pm|a m|p m|o'clock))",
                   r" at (?P<hour>\d{1,2}) (?P<minute>\d{2})", r"(?:(?<= on)|(?<= off)) at (?P<hour>\d{1,2})",
                   r" at (?P<noon>noon|midnight)")
SCHEDULED_TAILS = ("please", "thanks", "thank you")
SCHEDULED_NOT_SAID = ("tomorrow",)
SCHEDULED_AHEAD_S = 24 * 3600        # a change is scheduled at most this far ahead
MAX_SCHEDULED = 10                   # changes waiting for their time, per conversation
MAX_SCHEDULED_HERE = 1000            # and per server (counted in its store: every gateway sharing it together)
# How a scheduled call is said back ("Okay, I'll turn off the kitchen light at 14:35."), by skill, or by skill and the
# word of what it does (its state, action, direction or command): the first form whose words the call gives. Every
# skill of skills.CHANGES_THE_HOME that changes a thing of the home has one (tests/test_scheduled_changes.py).
SCHEDULED_SAID = {
    "set_device": ("turn {state} the {room} {device}",), "switch_device": ("turn {state} the {name}",),
    "switch_all": ("turn {state} the {name} in the {area}", "turn {state} the {name}"),
    "set_brightness": ("set the {room} lights to {percent} percent",),
    "change_brightness": ("turn the {room} lights {direction}",),
    "set_level": ("set the {name} to {percent} percent",), "change_level": ("turn the {name} {direction}",),
    "set_thermostat": ("set the {name} to {degrees} degrees", "set the thermostat to {degrees} degrees"),
    "set_lock": ("{action} the {name}",), "set_cover": ("{action} the {name}",),
    "set_colour": ("set the {name} to {colour}", "set the {name} to {kelvin} kelvin",
                   "make the {name} {shift}"),
    "control_media pause": ("pause the {name}", "pause the music"),
    "control_media resume": ("play the {name}", "play the music"),
    "control_media next": ("skip to the next track on the {name}", "skip to the next track"),
    "control_media previous": ("go back a track on the {name}", "go back a track"),
    "control_media mute": ("mute the {name}", "mute the music"),
    "control_media unmute": ("unmute the {name}", "unmute the music"),
    "set_volume": ("set the {name} volume to {percent} percent", "set the volume to {percent} percent"),
    "change_volume": ("turn the {name} volume {direction}", "turn the volume {direction}"),
    "set_device_mode": ("put the {name} in {mode} mode",),
    "command_vacuum start": ("start the {name}",), "command_vacuum pause": ("pause the {name}",),
    "command_vacuum stop": ("stop the {name}",), "command_vacuum return_to_base": ("send the {name} to its dock",),
    "command_vacuum locate": ("have the {name} beep",), "command_vacuum clean_spot": ("have the {name} clean a spot",),
    "press_button": ("press the {name}",),
    "set_tilt open": ("open the {name} slats", "open the slats"),
    "set_tilt close": ("close the {name} slats", "close the slats"),
    "set_tilt to": ("tilt the {name} slats to {percent} percent", "tilt the slats to {percent} percent"),
    "switch_listed": ("turn {state} {things}", "turn {state} the things I listed"), "activate_scene": ("run the {name} scene",)}
# Each first word of those as done, for the line said at the change's time ("As you asked, I turned off the kitchen
# light.")
SCHEDULED_DONE_VERBS = {"turn": "turned", "set": "set", "lock": "locked", "unlock": "unlocked", "open": "opened",
                        "close": "closed", "stop": "stopped", "make": "made", "pause": "paused", "play": "played",
                        "skip": "skipped", "go": "went", "mute": "muted", "unmute": "unmuted", "put": "put",
                        "start": "started", "send": "sent", "have": "had", "press": "pressed", "tilt": "tilted",
                        "run": "ran"}
# The lines said at a scheduled change's time: made, or not made and why
SCHEDULED_MADE = "As you asked, I {done}."
SCHEDULED_FAILED = "I couldn't {what} as you asked. {why}"
# Requests about the changes scheduled: listed, or cancelled ("cancel that" only right after one was scheduled;
# "cancel the kitchen light one" by words of what it does)
SCHEDULED_LISTED = ("what's scheduled", "what is scheduled", "what have you scheduled", "what changes are scheduled",
                    "what's planned", "list the scheduled changes", "what are the scheduled changes")
SCHEDULED_CANCEL_VERBS = ("cancel", "scrap", "drop", "forget")
SCHEDULED_JUST_MADE = ("cancel that", "cancel it", "don't do that", "never mind that", "forget that", "scrap that")
# Words that open a condition said after a request ("... when i leave", "... after the film", "... once the kids are
# asleep"), each before one of its subjects ("when you get a chance" is now): what it waits for is nothing Parley
# can know. A state wished before it ("the samovar should be on when they arrive", "for when they get back") is a
# change made now.
LATER_CONDITIONS = ("when", "whenever", "once", "as soon as", "after")
LATER_CONDITION_SUBJECTS = ("the", "my", "our", "it", "it's", "i", "i'm", "we", "we're", "they", "they're", "he",
                            "she", "someone", "somebody")
STATE_WISHED_BY_THEN = ("be", "was", "were", "is", "stay", "remain", "for")
# Words that open a remark about the speaker, not the request: a time said after one in its clause is the remark's
# ("i'll be back in a minute, switch the kitchen speaker off", "unlock the strongroom door, i'm after the deeds box")
SPEAKER_REMARK_SUBJECTS = ("i'll", "i will", "i'm", "i am", "i've", "i have", "we'll", "we will", "we're", "we are",
                           "we've", "we have", "it's", "there's", "they'll", "they're", "he's", "she's")

# The home's lists (assistant.lists): a shopping list, a to-do list, and lists the user names ("the hardware list"),
# read by code from the words, whole, past a few openers and tails. {items}: what is added or taken off, as said (",",
# "and" join several); {list}: the list, said as "the shopping list", "my to-do list", "our hardware list", "my list".
LIST_ADDED = ("add {items} to {list}", "add {items} on {list}", "add {items} onto {list}", "put {items} on {list}",
              "put {items} onto {list}", "put {items} down on {list}", "stick {items} on {list}",
              "write {items} on {list}", "write down {items} on {list}", "include {items} on {list}",
              "put {items} on to {list}", "add {items} into {list}")
LIST_REMOVED = ("remove {items} from {list}", "remove {items} off {list}", "delete {items} from {list}",
                "take {items} off {list}", "take {items} off of {list}", "take {items} from {list}",
                "cross {items} off {list}", "cross off {items} on {list}", "cross off {items} from {list}",
                "scratch {items} off {list}", "strike {items} off {list}", "tick {items} off {list}",
                "tick off {items} on {list}", "check {items} off {list}", "check off {items} on {list}",
                "check off {items} from {list}", "mark {items} as done on {list}", "mark {items} done on {list}",
                "mark {items} as complete on {list}", "mark {items} as completed on {list}",
                "complete {items} on {list}")
# Done with what was bought, the list unsaid: taken off the shopping list only where every item said is on it
LIST_BOUGHT = ("i've got {items}", "i have got {items}", "i got {items}", "i've bought {items}", "i bought {items}",
               "i've picked up {items}", "i picked up {items}", "i have bought {items}")
LIST_READ = ("what's on {list}", "what is on {list}", "what's in {list}", "what is in {list}", "read {list}",
             "read me {list}", "read out {list}", "read {list} to me",
             "what do i have on {list}", "what have i got on {list}", "what's left on {list}", "what is left on {list}",
             "tell me what's on {list}", "tell me what is on {list}", "show me {list}", "what do i need on {list}",
             "what's on {list} today", "what is on {list} today")
LIST_CLEARED = ("clear {list}", "clear out {list}", "empty {list}", "wipe {list}", "clear everything off {list}",
                "remove everything from {list}", "delete everything from {list}", "delete everything on {list}",
                "take everything off {list}", "clear all items from {list}", "remove all items from {list}")
# Questions about a list: how many things are on it, and whether items are ({items}: as for LIST_ADDED; the first
# phrasing that fits is read, so a longer one comes before one it holds)
LIST_COUNTED = ("how many things are on {list}", "how many items are on {list}", "how many things are in {list}",
                "how many items are in {list}", "how many things are there on {list}", "how many items are there on {list}",
                "how many things do i have on {list}", "how many items do i have on {list}",
                "how many things have i got on {list}", "how many items have i got on {list}", "how many things on {list}",
                "how many items on {list}", "how long is {list}", "how many things do i need on {list}")
LIST_HAS = ("is there {items} on {list}", "are there {items} on {list}", "is {items} already on {list}",
            "are {items} already on {list}", "is {items} on {list}", "are {items} on {list}", "is {items} in {list}",
            "are {items} in {list}", "do i have {items} on {list}", "have i got {items} on {list}",
            "did i add {items} to {list}", "did i put {items} on {list}", "have i added {items} to {list}",
            "have i put {items} on {list}", "is {items} on {list} already", "are {items} on {list} already")
# Follow-ups right after a list request (assistant.conversation.standalone): more items after an add ("and eggs",
# "eggs too"), what was just added taken back off ("take that off"), another list read after one was ("and the to-do
# list?"); {items} and {list} as for LIST_ADDED
LIST_ADDED_MORE = ("and {items}", "also {items}", "and also {items}", "plus {items}", "{items} too", "{items} as well",
                   "and {items} too", "and {items} as well", "oh and {items}", "add {items} too", "add {items} as well",
                   "and add {items}", "also add {items}")
LIST_ADDED_UNDONE = ("take that off", "take it off", "take them off", "take those off", "remove it", "remove that",
                     "remove them", "remove those", "delete it", "delete that", "delete them", "take that back off",
                     "take it back off", "take that off again", "take it off again")
LIST_READ_OTHER = ("and {list}", "what about {list}", "how about {list}", "and what's on {list}",
                   "and what is on {list}", "and {list} too", "now {list}", "and on {list}")
# Words that stand for items named before ("add it to the to-do list"): read only where the newest list request named
# them, one item for a word of one
LIST_ITEMS_BEFORE = {"it": 1, "that": 1, "this": 1, "them": 0, "those": 0, "these": 0, "both": 2}
# Items people say joined that are one ("salt and pepper"): never split, as an item already on the list whole is not
LIST_JOINED_ITEMS = ("salt and pepper", "fish and chips", "mac and cheese", "macaroni and cheese", "bread and butter",
                     "oil and vinegar", "salt and vinegar crisps", "salt and vinegar chips", "cheese and onion crisps",
                     "sweet and sour sauce", "half and half", "ham and cheese", "peanut butter and jelly",
                     "strawberries and cream", "bangers and mash", "rice and peas",
                     "black and white pudding", "pick and mix", "surf and turf",
                     "cookies and cream ice cream", "salt and pepper chips", "chips and salsa", "chips and dip",
                     "dustpan and brush")
# Openers kept on an item as its quantity ("a dozen eggs", "a pint of milk", "a couple of lemons"): before these words,
# or before a word said with "of"
LIST_QUANTITY_OPENERS = ("a", "an")
LIST_QUANTITY_WORDS = ("dozen", "half dozen", "half", "couple", "few", "pair")
LIST_REQUEST_OPENERS = ("please", "ok", "okay", "hey", "hey parley", "parley", "can you", "could you", "would you",
                        "can you please", "could you please", "i need you to", "i want you to", "go ahead and")
LIST_REQUEST_TAILS = ("please", "for me", "thanks", "thank you", "too", "as well", "now")
# How a list is said ("the grocery list" is the shopping list; "my list" alone is too) -> the name it is kept by
LIST_NAMES = {"shopping": "shopping", "grocery": "shopping", "groceries": "shopping", "": "shopping",
              "to-do": "to-do", "to do": "to-do", "todo": "to-do", "to-dos": "to-do", "task": "to-do",
              "tasks": "to-do"}
# Words no list is named by: "read me my list" names none
LIST_NOT_A_NAME = ("me", "my", "our", "the", "your", "a", "an", "this", "that", "to", "on", "of", "off", "from")
# Words that open an item and say nothing of it ("add some milk", "i've got the milk"), and those that join items
LIST_ITEM_OPENERS = ("the", "some", "more", "a", "an", "our", "my")
LIST_ITEM_JOINS = (",", "and", "&", "plus")
MAX_LISTS = 8                  # lists the home keeps with something on them (the shopping and to-do lists among them)
MAX_LIST_ITEMS = 100           # items on one list
MAX_LIST_ITEM_CHARS = 80       # characters of one item
# A heard change of a list, said back when a word of its items was doubted
LIST_SAID_BACK = {"add_to_list": "add {items} to your {list}", "remove_from_list": "remove {items} from your {list}"}
# A remark that things have run out ("we're out of milk and eggs"), read only where the whole of it is one of these
# ({items} as for LIST_ADDED): nothing is added, the items are offered for the shopping list, and a yes or "add it to
# the shopping list" right after adds them (assistant.lists.ran_out)
LIST_RAN_OUT = ("we're out of {items}", "we are out of {items}", "we're all out of {items}", "we're nearly out of {items}",
                "we're running out of {items}", "we're running low on {items}", "we're low on {items}",
                "we are all out of {items}", "we are running out of {items}", "we are running low on {items}",
                "we are low on {items}",
                "we've run out of {items}", "we have run out of {items}", "we ran out of {items}",
                "we've got no {items} left", "we have no {items} left", "we've got no more {items}",
                "there's no {items} left", "there is no {items} left", "there's no more {items}",
                "there are no {items} left", "we need more {items}", "we need some more {items}",
                "i'm out of {items}", "i am out of {items}", "i've run out of {items}", "i ran out of {items}",
                "i need more {items}", "we've used up {items}", "we've used up all the {items}",
                "we've finished {items}", "we've finished off {items}", "{items} has run out", "{items} have run out",
                "{items} is all gone", "{items} are all gone")
# What a remark may say has run out that no shop sells, or that the home gives ("we need more light in here"): no item;
# and words no item of such a remark holds (a request or a place said beside it: "we're out of ice, could the ice
# maker go on")
LIST_NOT_BOUGHT = ("time", "ideas", "patience", "luck", "options", "space", "room", "light", "heat", "warmth", "air",
                   "power", "battery", "volume", "sound", "music", "help", "sleep", "energy", "money", "cash", "data",
                   "storage", "memory", "timer", "alarm", "things to say", "words")
LIST_NOT_AN_ITEM_WORDS = ("i", "you", "we", "it", "they", "he", "she", "could", "can", "would", "will", "should", "please",
                          "so", "but", "if", "in", "here", "there", "at", "on", "is", "are", "was", "be")
MOST_RAN_OUT_WORDS = 4         # words of one item a remark names: a longer span is a clause, not a thing to buy
LIST_RAN_OUT_OFFER = "Shall I add {items} to your shopping list?"
LIST_OFFER_DECLINED = "Okay, I'll leave your shopping list as it is."
# "add it to the shopping list" where nothing named before says what "it" is: nothing is added
LIST_ITEM_UNSAID = "Sorry, I don't know which item you mean; please say its name."
# The newest list change of the conversation taken back (the runner keeps what it changed, ToolRunner.list_change):
# any change ("undo that": what an add put on comes off, what a removal or a clearing took off goes back) ...
LIST_CHANGE_UNDONE = ("undo that", "undo", "undo it", "undo the last thing", "undo the last change", "undo what you did",
                      "undo what you just did", "scratch that", "take that back", "cancel that")
# ... and a removal or a clearing only ("put it back", "oops, I still need that"; {list} as for LIST_ADDED)
LIST_REMOVAL_UNDONE = ("put it back", "put that back", "put them back", "put those back", "put it back on {list}",
                       "put that back on {list}", "put them back on {list}", "put those back on {list}",
                       "add it back", "add that back", "add them back", "add those back", "add it back to {list}",
                       "add that back to {list}", "add them back to {list}", "add those back to {list}",
                       "i still need that", "i still need it", "i still need them", "i still need those",
                       "we still need that", "we still need it", "we still need them", "we still need those",
                       "i need that back", "i need it back", "i need them back")
# Words that open a change taken back and say nothing more ("oops, put it back", "no wait, I still need that")
LIST_UNDO_OPENERS = ("oops", "whoops", "oh", "oh no", "ah", "actually", "wait", "sorry", "no", "hang on", "hold on",
                     "uh oh", "hmm")
LIST_NOTHING_UNDONE = "Sorry, that didn't change your {list}, so there's nothing to undo."
# the time in other places, and the date of a day named (round 41, assistant.clock)
# Places people ask the time of, as they are said back, each with its one IANA zone (Python's zoneinfo reads it):
# common cities, and the countries that keep one time
PLACE_ZONES = {
    "London": "Europe/London", "the UK": "Europe/London", "England": "Europe/London", "Scotland": "Europe/London",
    "Britain": "Europe/London", "Dublin": "Europe/Dublin", "Ireland": "Europe/Dublin", "Lisbon": "Europe/Lisbon",
    "Portugal": "Europe/Lisbon", "Paris": "Europe/Paris", "France": "Europe/Paris", "Berlin": "Europe/Berlin",
    "Munich": "Europe/Berlin", "Germany": "Europe/Berlin", "Madrid": "Europe/Madrid", "Barcelona": "Europe/Madrid",
    "Spain": "Europe/Madrid", "Rome": "Europe/Rome", "Milan": "Europe/Rome", "Italy": "Europe/Rome",
    "Amsterdam": "Europe/Amsterdam", "the Netherlands": "Europe/Amsterdam", "Brussels": "Europe/Brussels",
    "Belgium": "Europe/Brussels", "Zurich": "Europe/Zurich", "Switzerland": "Europe/Zurich",
    "Vienna": "Europe/Vienna", "Austria": "Europe/Vienna", "Stockholm": "Europe/Stockholm",
    "Sweden": "Europe/Stockholm", "Oslo": "Europe/Oslo", "Norway": "Europe/Oslo", "Copenhagen": "Europe/Copenhagen",
    "Denmark": "Europe/Copenhagen", "Helsinki": "Europe/Helsinki", "Finland": "Europe/Helsinki",
    "Warsaw": "Europe/Warsaw", "Poland": "Europe/Warsaw", "Prague": "Europe/Prague", "Athens": "Europe/Athens",
    "Greece": "Europe/Athens", "Istanbul": "Europe/Istanbul", "Turkey": "Europe/Istanbul", "Kyiv": "Europe/Kyiv",
    "Ukraine": "Europe/Kyiv", "Moscow": "Europe/Moscow", "Cairo": "Africa/Cairo", "Egypt": "Africa/Cairo",
    "Lagos": "Africa/Lagos", "Nigeria": "Africa/Lagos", "Nairobi": "Africa/Nairobi", "Kenya": "Africa/Nairobi",
    "Johannesburg": "Africa/Johannesburg", "Cape Town": "Africa/Johannesburg", "South Africa": "Africa/Johannesburg",
    "Dubai": "Asia/Dubai", "Tel Aviv": "Asia/Jerusalem", "Jerusalem": "Asia/Jerusalem", "Israel": "Asia/Jerusalem",
    "Riyadh": "Asia/Riyadh", "Saudi Arabia": "Asia/Riyadh", "Mumbai": "Asia/Kolkata", "Delhi": "Asia/Kolkata",
    "New Delhi": "Asia/Kolkata", "Bangalore": "Asia/Kolkata", "India": "Asia/Kolkata", "Karachi": "Asia/Karachi",
    "Pakistan": "Asia/Karachi", "Bangkok": "Asia/Bangkok", "Thailand": "Asia/Bangkok", "Singapore": "Asia/Singapore",
    "Hong Kong": "Asia/Hong_Kong", "Beijing": "Asia/Shanghai", "Shanghai": "Asia/Shanghai", "China": "Asia/Shanghai",
    "Taipei": "Asia/Taipei", "Taiwan": "Asia/Taipei", "Manila": "Asia/Manila", "the Philippines": "Asia/Manila",
    "Seoul": "Asia/Seoul", "South Korea": "Asia/Seoul", "Korea": "Asia/Seoul", "Tokyo": "Asia/Tokyo",
    "Osaka": "Asia/Tokyo", "Japan": "Asia/Tokyo", "Sydney": "Australia/Sydney", "Melbourne": "Australia/Melbourne",
    "Brisbane": "Australia/Brisbane", "Perth": "Australia/Perth", "Adelaide": "Australia/Adelaide",
    "Auckland": "Pacific/Auckland", "New Zealand": "Pacific/Auckland", "Honolulu": "Pacific/Honolulu",
    "Hawaii": "Pacific/Honolulu", "Anchorage": "America/Anchorage", "Alaska": "America/Anchorage",
    "New York": "America/New_York", "New York City": "America/New_York", "Boston": "America/New_York",
    "Washington": "America/New_York", "Miami": "America/New_York", "Atlanta": "America/New_York",
    "Toronto": "America/Toronto", "Montreal": "America/Toronto", "Chicago": "America/Chicago",
    "Dallas": "America/Chicago", "Houston": "America/Chicago", "Denver": "America/Denver",
    "Phoenix": "America/Phoenix", "Arizona": "America/Phoenix", "Los Angeles": "America/Los_Angeles",
    "LA": "America/Los_Angeles", "San Francisco": "America/Los_Angeles", "Seattle": "America/Los_Angeles",
    "Las Vegas": "America/Los_Angeles", "California": "America/Los_Angeles", "Vancouver": "America/Vancouver",
    "Mexico City": "America/Mexico_City", "Bogota": "America/Bogota", "Colombia": "America/Bogota",
    "Lima": "America/Lima", "Peru": "America/Lima", "Santiago": "America/Santiago", "Chile": "America/Santiago",
    "Buenos Aires": "America/Argentina/Buenos_Aires", "Argentina": "America/Argentina/Buenos_Aires",
    "Sao Paulo": "America/Sao_Paulo", "São Paulo": "America/Sao_Paulo", "Rio de Janeiro": "America/Sao_Paulo",
    "Rio": "America/Sao_Paulo",
}
# Places that keep several times: the time is said in each of two of their cities, named
SEVERAL_ZONES = {
    "the US": ("New York", "Los Angeles"), "the USA": ("New York", "Los Angeles"),
    "the United States": ("New York", "Los Angeles"), "America": ("New York", "Los Angeles"),
    "Canada": ("Toronto", "Vancouver"), "Australia": ("Sydney", "Perth"), "Russia": ("Moscow", "Vladivostok"),
    "Brazil": ("Sao Paulo", "Manaus"), "Mexico": ("Mexico City", "Tijuana"),
}
SEVERAL_ZONES_CITIES = {"Vladivostok": "Asia/Vladivostok", "Manaus": "America/Manaus", "Tijuana": "America/Tijuana"}
# The home itself as a place ("what time is it in the house"): the time there is the time here
DWELLING_WORDS = ("house", "home", "flat", "apartment", "building")
# The words of a question for the time, said before "in" and a place ("what time is it in Tokyo")
TIME_ASKED = ("what time is it", "what's the time", "what is the time", "what time's it", "tell me the time",
              "what's the current time", "what is the current time", "what's the local time", "what is the local time",
              "do you know what time it is", "what time is it now", "what's the time now", "what is the time now",
              "what time is it right now", "what's the time right now")
# Days said from today, weekdays, and the holidays whose date is the same each year (month, day, as said back)
DAYS_FROM_TODAY = {"tomorrow": 1, "yesterday": -1, "the day after tomorrow": 2, "the day before yesterday": -2,
                   "a week from today": 7, "a week today": 7, "a week from tomorrow": 8, "two weeks from today": 14}
WEEKDAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
FIXED_HOLIDAYS = {
    "christmas": (12, 25, "Christmas"), "christmas day": (12, 25, "Christmas Day"), "xmas": (12, 25, "Christmas"),
    "christmas eve": (12, 24, "Christmas Eve"), "boxing day": (12, 26, "Boxing Day"),
    "new year's eve": (12, 31, "New Year's Eve"), "new year's day": (1, 1, "New Year's Day"),
    "new year": (1, 1, "New Year's Day"), "new years": (1, 1, "New Year's Day"),
    "new year's": (1, 1, "New Year's Day"), "halloween": (10, 31, "Halloween"),
    "valentine's day": (2, 14, "Valentine's Day"), "valentines day": (2, 14, "Valentine's Day"),
    "st patrick's day": (3, 17, "St Patrick's Day"), "saint patrick's day": (3, 17, "St Patrick's Day"),
    "independence day": (7, 4, "Independence Day"), "the fourth of july": (7, 4, "the Fourth of July"),
    "fourth of july": (7, 4, "the Fourth of July"), "bastille day": (7, 14, "Bastille Day"),
    "guy fawkes night": (11, 5, "Guy Fawkes Night"), "bonfire night": (11, 5, "Bonfire Night"),
}
# Holidays whose date moves, each by its rule: days after Easter Sunday (the Gregorian computus, assistant.clock), as
# said back; or the nth weekday of a month (-1 the last), as said back. Mother's Day is the US one (the second Sunday
# of May; the UK's is Mothering Sunday, three weeks before Easter), Father's Day the third Sunday of June.
EASTER_HOLIDAYS = {
    "easter": (0, "Easter"), "easter sunday": (0, "Easter Sunday"), "easter day": (0, "Easter Sunday"),
    "good friday": (-2, "Good Friday"), "easter monday": (1, "Easter Monday"), "palm sunday": (-7, "Palm Sunday"),
    "mothering sunday": (-21, "Mothering Sunday"), "ash wednesday": (-46, "Ash Wednesday"),
    "pentecost": (49, "Pentecost"),
}
WEEKDAY_HOLIDAYS = {
    "thanksgiving": (11, "thursday", 4, "Thanksgiving"), "thanksgiving day": (11, "thursday", 4, "Thanksgiving"),
    "mother's day": (5, "sunday", 2, "Mother's Day"), "mothers day": (5, "sunday", 2, "Mother's Day"),
    "father's day": (6, "sunday", 3, "Father's Day"), "fathers day": (6, "sunday", 3, "Father's Day"),
    "memorial day": (5, "monday", -1, "Memorial Day"), "labor day": (9, "monday", 1, "Labor Day"),
    "labour day": (9, "monday", 1, "Labor Day"), "martin luther king day": (1, "monday", 3, "Martin Luther King Day"),
    "presidents day": (2, "monday", 3, "Presidents' Day"), "presidents' day": (2, "monday", 3, "Presidents' Day"),
    "columbus day": (10, "monday", 2, "Columbus Day"),
}
# The months in their order, as said; a date said by its number is read with one ("the 3rd of may", "march 14th")
MONTH_NAMES = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
               "november", "december")
# Words of a day the user owns said before its date ("how many days until my birthday on june 3rd")
DATE_OWNED_WORDS = ("my birthday", "my anniversary", "our anniversary", "her birthday", "his birthday")
# Words that ask a clock read again of another place or day, said before it ("and in london", "what about saturday")
CLOCK_FOLLOW_UPS = ("and what about", "and how about", "what about", "how about", "and")
# The words of a question for a day's date, said before the day ("what day is it tomorrow", "what's the date on
# friday", "how many days until christmas"), and those said after it ("what day is christmas this year")
DATE_ASKED = ("what day is it", "what day is", "what day was it", "what day was", "what's the date", "what is the date",
              "what was the date", "what date is it", "what date is", "what date was", "what will the date be",
              "what day will it be", "what day of the week is it", "what day of the week is", "what's the day",
              "what is the day", "when is", "when's", "what date does", "what day does", "what's the date of",
              "what is the date of", "how many days until", "how many days till", "how many days to",
              "how many days are there until", "how many days are there till", "how many days left until",
              "how many days left till", "how many more days until", "how many more days till", "how long until",
              "how long till", "how many sleeps until", "how many sleeps till")
DATE_ASKED_AFTER = ("this year", "fall on", "fall", "falls on", "land on", "on", "this time", "be")
# and a day's possessive before the date ("what's tomorrow's date", "what is friday's date")
DATE_OF_ASKED = ("what's", "what is", "what was", "tell me")

# --- round 43, a bare hour after a switch off is a time (r43-colour5) ---
# A request that opens with one of these verbs and "off" ("switch off the chapel lamp at 7") takes a bare hour at its
# end as a clock time: off takes no level, so "at 7" can only be when (SCHEDULED_CLOCK's bare hour needs the state)
SCHEDULED_OFF_FIRST_VERBS = ("turn", "switch", "shut", "power", "flick", "flip")
SCHEDULED_BARE_HOUR = r" at (?P<hour>\d{1,2})"

# declared tools (round 43, tools2)
# Particles that make one verb with the verb before them when said after its object ("kick Tom *out*", "bring the
# mower *back* in"): WordNet's phrasal verb, another action than the plain verb's.
VERB_PARTICLES = frozenset({"out", "back", "off", "away", "down", "up", "over", "in", "on"})

# the ear (round 43)
# A state said with no verb after a remark of the speaker's own is a request ("I'm going to practise, piano light
# on", "it's heavy in the office, but my fan on"), not a question whose "is" Whisper lost: a lost "is" leaves at most
# REMARK_WORDS words before the thing ("It's a porch light on.", "It is the garage door open."), none of
# REMARK_SKIPPED, which open the thing's name or join a clause.
REMARK_WORDS = 2
REMARK_SKIPPED = frozenset({"the", "a", "an", "my", "our", "your", "this", "these", "those", "and", "but", "so", "then",
                            "now", "oh", "ok", "okay", "actually", "please", "parley"})
# Words that lead into a state reported or wondered about ("i think that the lamp's on", "not sure the gate's
# locked", "looks like the fan's on"), or into a clause of its own ("before i go up, the side gate locked"): a
# remark with one of them may be a question that lost its "is", and stays one.
REPORTING_WORDS = frozenset({"think", "thought", "know", "knew", "sure", "wonder", "wondered", "wondering", "guess",
                             "reckon", "suppose", "bet", "hope", "check", "checking", "see", "saw", "whether", "if",
                             "that", "say", "said", "tell", "told", "mean", "believe", "doubt", "remember", "forgot",
                             "forget", "look", "looks", "seem", "seems", "notice", "noticed", "heard", "hear", "ask",
                             "asking", "before", "after", "when", "once", "until", "till", "while", "whilst", "since",
                             "as", "because", "unless"})

# --- round 44, a bare hour after a switch on, a remark and its request in one turn, "we need milk" (r44-home4) ---
# A request that opens with one of these verbs and "on" ("switch on the lounge lamp at 7") takes an hour of 1 to 12
# at its end as a clock time (the sooner of its morning and evening): a light is rarely asked at 7 percent. A number
# of 13 or more, or one said with "percent", stays a level ("switch on the lamp at 70").
SCHEDULED_ON_FIRST_VERBS = ("turn", "switch", "power", "flick", "flip")
SCHEDULED_ON_FIRST_HOUR = r" at (?P<hour>[1-9]|1[0-2])"
# "we need milk": a remark like "we need more milk" (LIST_RAN_OUT), offered for the shopping list, not added; read
# where its items hold no word of LIST_NEEDED_NOT_AN_ITEM (a plan, a time, a change: "we need to leave at 7", "we need
# a timer for 10 minutes", "we need it warmer") and name no thing of the home anywhere in them
LIST_NEEDED = ("we need {items}", "we still need {items}", "we also need {items}", "we really need {items}")
LIST_NEEDED_NOT_AN_ITEM = ("to", "for", "with", "by", "before", "after", "until", "timer", "alarm", "reminder",
                           "seconds", "minutes", "hours", "warmer", "cooler", "colder", "hotter", "brighter", "darker",
                           "louder", "quieter", "off", "up", "down")
# The words that end a remark and open a list request said with it in one turn ("we're out of milk, add it to the
# shopping list", "we've run out of eggs so put them on the list"): the request is made, its "it" the remark's items
LIST_REMARK_ENDS = (",", ".", ";", "!", " so", " and", ", so", ", and", ". so", ". and")

# --- round 43, a clear request said beside a remark or a reason (r43-clear2) ---
# Words that join a remark and the request said after it when no comma is written ("i'm off to bed *so* lights
# out please"); the remark before them carries nothing the request needs (clauses.request_beside_remarks)
REMARK_JOINERS = ("and so", "so")
# How a request clause opens: words of asking before its verb ("can you", "could you"), and a verb of the corpus's
# requests (BARE_REQUEST_VERBS, SWITCH_VERBS) or "lights out", which it says without one
ASKING_OPENERS = ("please", "can you", "could you", "would you", "will you", "can you please", "could you please",
                  "would you please")
REQUESTS_WITHOUT_A_VERB = ("lights out", "lamps out", "the lights out", "all the lights out")
# A reason left out beside a request opens with one of REASONS or, before one of REASONING_PEOPLE, with one of these
# ("so i can read", "since we're out"); "for the eggs" says what a timer is for, "while the" is often Whisper's
# "what the", "as the" says what a thing is like (clauses.request_beside_remarks)
REASONS_BESIDE_A_REQUEST = ("since", "so that", "so", "as")
REASONING_PEOPLE = ("i", "i'm", "i've", "we", "we're", "we've", "you", "you're", "they", "they're", "he", "he's", "she",
                    "she's")
# Words a request clause cannot end with: what it names or asks is said after them ("play the song called", "put
# the", "start a timer for"), so a clause cut there is no request
UNFINISHED_ENDINGS = ("called", "named", "labelled", "labeled", "titled", "the", "a", "an", "my", "our", "of", "to",
                      "for", "with", "and", "about")
# A remark said of a subject the speaker names ("the towels are damp", "the baby's asleep", "my trousers are
# creased"): the words after the subject that say how it is
SAID_OF_LINKS = ("'s", "'re", " is", " are", " was", " were", " has", " have", " had", " feels", " feel", " looks",
                 " look", " seems", " seem")

# --- round 44, a cancel said of "it" takes back the newest timer, alarm or list change (r44-follow3) ---
# A cancel said of a pronoun alone, after LIST_UNDO_OPENERS ("actually cancel it", "oops, scrap that"): it takes back
# the newest of the conversation's timers, alarms set and list changes, past a light or a sum since, which no cancel
# acts on (assistant.alarms.alarm_referred; assistant.lists.list_undone); a timer newest is the timers' own reading.
CANCEL_REFERENCES = ("cancel it", "cancel that", "cancel that one", "cancel this", "scrap it", "scrap that",
                     "abort it", "abort that", "delete it", "delete that", "get rid of it", "get rid of that")
# "and a second alarm at ten past six", "oh, and another alarm for ten minutes after that one": one more alarm, at the
# time said or that many minutes after the newest alarm the conversation set (assistant.alarms.another_alarm)
ANOTHER_ALARM_WORDS = ("another", "a second", "one more", "an extra", "a further")
ANOTHER_ALARM_OPENERS = ("and", "also", "plus", "then", "set", "make", "add", "put", "give me", "i want", "i need",
                         "and set", "and make", "and add", "can you set", "could you set", "can i have", "i'd like")
# what "after that one" is said of, as the normaliser writes it ("that one" is "that 1")
ALARM_BEFORE_WORDS = ("that 1", "that", "it", "the first 1", "the first", "the first alarm", "that alarm", "my alarm",
                      "the other 1", "the last 1")
