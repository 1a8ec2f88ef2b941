"""A final's beam is prompted with each word of the home's names once (voice.stt.words_once): the names cost a
beam of three about three times what they cost a greedy decoding, and a word the prompt already holds need not
stand there twice."""

from paused_speech import flite
from voice.stt import _plain_words, words_once

HOME = ("loft", "orchard", "wash house", "loft heater", "orchard gate", "cider press", "wash house mangle",
        "loft humidity", "orchard temperature", "press")


def words(names):
    return {word for name in names for word in _plain_words(name)}


def test_every_word_of_the_home_stays_and_a_name_whose_words_the_others_hold_goes():
    kept = words_once(HOME)
    assert words(kept) == words(HOME)
    assert set(HOME) - set(kept) == {"loft", "orchard", "wash house", "press"}
    assert list(kept) == [name for name in HOME if name in kept]          # in the home's order


def test_a_sensor_whose_words_the_devices_hold_goes_before_the_devices_do():
    kept = words_once(("pantry", "pantry fan", "porch lantern", "pantry temperature", "porch temperature"))
    assert kept == ("pantry fan", "porch lantern", "pantry temperature")


def test_a_home_without_repeated_words_keeps_every_name():
    assert words_once(("kiln", "velux window", "jukebox")) == ("kiln", "velux window", "jukebox")
    assert words_once(()) == ()


def test_the_final_hears_an_area_the_beams_prompt_holds_only_in_a_longer_name(stt):
    names = ("snooker room", "boot room", "snooker room lamp", "boot warmer", "snooker room temperature")
    assert "snooker room," not in stt.prompt_text(words_once(names)).lower()       # the area alone is left out
    for said, voice in (("switch on the snooker room lamp", "slt"),
                        ("what is the temperature in the snooker room", "rms")):
        speech = flite(said, voice)
        assert "snooker room" not in stt.hear(speech, ()).text.lower()            # without the names, misheard
        heard = stt.hear(speech, names)
        assert "snooker room" in heard.text.lower()
        assert all(0 < probability <= 1 for _, probability in heard.word_probabilities)
