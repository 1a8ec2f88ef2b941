"""Spoken-number normalisation: what speech recognition writes becomes what the model reads."""
import pytest

from assistant.spoken_numbers import normalize_request


@pytest.mark.parametrize("spoken, normal", [
    ("what is seven times six", "what is 7 times 6"),
    ("Set a timer for twenty five minutes.", "set a timer for 1500 seconds"),
    ("set a timer for an hour and a half", "set a timer for 5400 seconds"),
    ("half an hour", "1800 seconds"),
    ("a minute and a half", "90 seconds"),
    ("two hours and fifteen minutes", "8100 seconds"),
    ("start a 10 minute timer", "start a 600 seconds timer"),
    ("a quarter of an hour", "900 seconds"),
    ("a couple of minutes", "120 seconds"),
    ("one hundred and five plus three thousand two hundred", "105 plus 3200"),
    ("fifteen hundred", "1500"),
    # a scale word after digits, as Whisper writes "twenty four hundred"
    ("What's 7% of 24 hundred.", "what's 7 percent of 2400"),
    ("3 thousand divided by 4", "3000 divided by 4"),
    ("seventy two and a half degrees", "72.5 degrees"),
    ("twenty point five", "20.5"),
    # how Whisper writes "and a half" after a number it heard
    ("Thermostat to 22. end of half.", "thermostat to 22.5"),
    ("Set a timer for 2 end to half minutes.", "set a timer for 150 seconds"),
    ("two and half minutes", "150 seconds"),
    ("Set a timer for 2 in the half minutes.", "set a timer for 150 seconds"),
    ("set a timer for 2 1/2 minutes", "set a timer for 150 seconds"),
    ("thermostat to 21½", "thermostat to 21.5"),
    # a quarter or three quarters said the same way
    ("start a timer for two hours and a quarter", "start a timer for 8100 seconds"),
    ("a minute and three quarters", "105 seconds"),
    ("nine and a quarter plus one", "9.25 plus 1"),
    ("how many feet in a mile", "how many feet in 1 mile"),
    ("three quarters of a cup", "0.75 cup"),
    ("What's 12*7?", "what's 12 times 7"),
    ("what is 10-3", "what is 10 minus 3"),
    ("36 / 4", "36 divided by 4"),
    ("dim the lights to 30%", "dim the lights to 30 percent"),
    ("convert 5km to miles", "convert 5 km to miles"),
    ("hey parley, turn on the kitchen light!", "hey parley turn on the kitchen light"),
    ("one two three", "1 2 3"),
])
def test_spoken_numbers_become_digits(spoken, normal):
    assert normalize_request(spoken) == normal


@pytest.mark.parametrize("spoken, normal", [
    ("set an alarm for twenty to eight", "set an alarm for 7 40"),
    ("get me up at a quarter past six tomorrow", "get me up at 6 15 tomorrow"),
    ("alarm at five to twelve", "alarm at 11 55"),
    ("wake me up by twenty five past ten am", "wake me up by 10 25 am"),
    ("I need an alarm at 5 past 4", "i need an alarm at 4 oh 5"),
    ("quarter of nine tonight", "8 45 tonight"),
])
def test_a_clock_time_by_the_minutes_to_or_past_the_hour_is_its_hour_and_minute(spoken, normal):
    assert normalize_request(spoken) == normal


def test_a_range_or_a_half_to_is_no_clock_time():
    assert normalize_request("turn the heat from eighteen to twenty") == "turn the heat from 18 to 20"
    assert normalize_request("convert ten to seven") == "convert 10 to 7"
    assert normalize_request("set the lights for half to nine") == "set the lights for half to 9"


def test_words_that_are_not_numbers_stay():
    assert normalize_request("turn on the hallway light") == "turn on the hallway light"
    assert normalize_request("a hundred") == "100"
    assert normalize_request("the one in the kitchen") == "the 1 in the kitchen"
    assert normalize_request("at the end of half time") == "at the end of half time"   # no number before it
    assert normalize_request("what is 1/2") == "what is 1 divided by 2"                  # a fraction alone divides
