"""The closed-vocabulary second ear: PocketSphinx with a grammar of the home, on real speech (flite: the same
audio every run), and the gate that takes its name only where Whisper heard none of the home's names."""
import pytest

from assistant.inventory import Entity
from assistant.spoken_numbers import normalize_request
from paused_speech import flite
from voice.heard_names import Hearing, hear_names
from bench.second_ear import GrammarEar, dictionary, espeak_pronunciation, home_phrasings, jsgf, second_opinion

ENTITIES = [Entity("t:1", "samovar", "switch", "scullery"), Entity("t:2", "kiln", "switch", "boathouse"),
            Entity("t:3", "roman blind", "cover", "snug"), Entity("t:4", "dock lights", "light", "boathouse"),
            Entity("t:5", "velux window", "cover", "snug")]
NAMES = tuple(e.name for e in ENTITIES)
AREAS = ("boathouse", "scullery", "snug")
SPOKEN = AREAS + NAMES                      # as ToolRunner.spoken_names gives them: areas, then names


@pytest.fixture(scope="module")
def ear():
    return GrammarEar(home_phrasings(ENTITIES), NAMES, AREAS)


def test_a_word_cmudict_lacks_gets_espeak_ngs_phones_as_arpabet():
    assert espeak_pronunciation(["samovar", "punkah"]) == ["S AE M UW V AA R", "P AH NG K AH"]
    words = dictionary({"samovar", "kettle"})
    assert words["kettle"] == "K EH T AH L"            # CMUdict's own
    assert words["samovar"] == "S AE M UW V AA R"


def test_the_grammar_is_the_corpus_words_around_one_of_the_homes_names():
    rules = home_phrasings(ENTITIES)
    assert {"<name> to <number> percent", "turn on the <name>", "open the <name>"} <= set(rules["request"])
    grammar = jsgf(rules, NAMES, AREAS)
    assert "<name> = ( samovar ) | ( kiln ) | ( roman blind ) | ( dock lights ) | ( velux window );" in grammar
    assert " turn " in grammar.split("<word> =")[1] and " scullery " in grammar.split("<word> =")[1]


def test_the_grammar_ear_hears_a_name_cmudict_lacks(ear):
    """"velux" has espeak-ng's phones; flite's "turn on the samovar" it hears as "turn on the so um oh of er
    at", which the gate leaves alone."""
    assert ear.hear(flite("shut the velux window")).split()[:4] == ["shut", "the", "velux", "window"]


def test_the_grammars_name_replaces_a_run_that_sounds_like_it_and_keeps_whispers_other_words():
    heard = "Switch the guild off now."
    opinion = second_opinion(heard, hear_names(heard, SPOKEN), "switched the kiln off now per", SPOKEN,
                             normalize_request)
    assert opinion == Hearing("switch the kiln off now")


@pytest.mark.parametrize("heard, grammar_heard", [
    ("Open the chapel blinds.", "open the roman blind"),          # no chapel here; blind is a word of a name
    ("Dim the den lights.", "dim the dock lights"),               # den is no area here
    ("Turn on the dishwasher.", "turn on the samovar"),           # sounds nothing like it
    ("Turn on the samovar.", "turn on the kiln"),                 # Whisper heard a name: it stands
    ("Set the samovar to 50%.", ""),                              # the grammar ear heard nothing
])
def test_an_unknown_name_or_a_name_heard_is_never_replaced(heard, grammar_heard):
    hearing = hear_names(heard, SPOKEN)
    assert second_opinion(heard, hearing, grammar_heard, SPOKEN, normalize_request) is hearing


def test_an_unknown_name_spoken_never_becomes_a_known_one(stt, ear):
    """flite's "open the chapel blinds" in a home with a roman blind and no chapel: whatever the grammar ear
    hears, the transcript still names no device of the home."""
    audio = flite("open the chapel blinds")
    heard = stt.hear(audio, SPOKEN).text                 # the server's final
    hearing = hear_names(heard, SPOKEN)
    opinion = second_opinion(heard, hearing, ear.hear(audio), SPOKEN, normalize_request)
    assert "chapel" in opinion.text.lower()
    assert not any(name in opinion.text.lower() for name in NAMES)
