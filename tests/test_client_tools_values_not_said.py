"""Declared tools read by code: a value is no remark and no name of the tool's own thing. A place is never a run that
says something is so ("send the pool cleaner out, the water is green"), and a word that means, by WordNet, a word of
the tool's name ("pause the movie" with pause_film) says the thing acted on, no value of an optional parameter. The
tools are none the corpus holds, declared as apps declare them."""
from declared_tools import reading, tool

POOL = tool("send_out_pool_cleaner", "Send the robotic pool cleaner out to clean.", [],
            area=("string", "Where in the pool to clean"))
HEATING = tool("boost_underfloor_heating", "Boost the underfloor heating in a room for a while.", [],
               room=("string", "Room to heat"), minutes=("integer", "How long"))
FILM = tool("pause_film", "Pause the film playing on a screen.", [], screen=("string", "Which screen, e.g. 'lounge'"))


def test_a_remark_after_the_order_is_no_place():
    assert reading([POOL], "send the pool cleaner out, the water is green") == ("send_out_pool_cleaner", {})
    assert reading([HEATING], "boost the underfloor heating, the floor is freezing") == \
        ("boost_underfloor_heating", {})
    # a place said is still read
    assert reading([HEATING], "boost the underfloor heating in the bathroom for 30 minutes") == \
        ("boost_underfloor_heating", {"room": "bathroom", "minutes": 30})
    # the remark alone asks nothing
    assert reading([POOL, HEATING], "the floor is freezing") is None


def test_a_word_that_means_the_tools_thing_is_no_value():
    assert reading([FILM], "pause the movie") == ("pause_film", {})
    assert reading([FILM], "pause the film in the lounge") == ("pause_film", {"screen": "lounge"})
    # a request no declared tool serves
    assert reading([FILM, POOL, HEATING], "what's the weather like in paris") is None
