"""A final's beam is prompted without the names that stand inside longer ones (voice.stt.beam_names): the
prompt's names cost a beam more than a greedy decoding, and the longer name puts the shorter one's words there."""

from paused_speech import flite
from voice.stt import beam_names

HOME = ("loft", "orchard", "wash house", "loft heater", "orchard gate", "cider press", "wash house mangle",
        "loft humidity", "orchard temperature", "press")


def test_a_name_that_stands_inside_a_longer_one_goes():
    kept = beam_names(HOME)
    assert set(HOME) - set(kept) == {"loft", "orchard", "wash house", "press"}
    assert list(kept) == [name for name in HOME if name in kept]          # in the home's order


def test_a_name_whose_words_stand_apart_in_others_stays():
    """"pantry temperature" has its words in "pantry fan" and "porch temperature", not as one phrase."""
    names = ("pantry", "pantry fan", "porch lantern", "pantry temperature", "porch temperature")
    assert beam_names(names) == ("pantry fan", "porch lantern", "pantry temperature", "porch temperature")


def test_a_word_inside_a_longer_word_is_no_name_inside_another():
    assert beam_names(("kiln", "kilns shed", "box", "jukebox")) == ("kiln", "kilns shed", "box", "jukebox")
    assert beam_names(()) == ()


def test_the_final_hears_an_area_the_beams_prompt_holds_only_in_a_longer_name(stt):
    names = ("snooker room", "boot room", "snooker room lamp", "boot warmer", "snooker room temperature")
    assert "snooker room," not in stt.prompt_text(beam_names(names)).lower()       # the area alone is left out
    for said, voice in (("switch on the snooker room lamp", "slt"),
                        ("what is the temperature in the snooker room", "rms")):
        speech = flite(said, voice)
        assert "snooker room" not in stt.hear(speech, ()).text.lower()            # without the names, misheard
        heard = stt.hear(speech, names)
        assert "snooker room" in heard.text.lower()
        assert all(0 < probability <= 1 for _, probability in heard.word_probabilities)
