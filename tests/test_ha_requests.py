"""Requests drawn from Home Assistant's templates (assistant.ha_requests): the real hassil and templates."""
import random

from assistant.ha_requests import draw_request
from assistant.inventory import vocabulary_inventory
from assistant.second_opinion import SecondOpinion


def test_a_drawn_request_is_read_back_as_its_call():
    opinion = SecondOpinion.shared()
    rng = random.Random(3)
    drawn = [draw_request(opinion, vocabulary_inventory(), "HassTurnOn", ["pasta"], rng) for _ in range(40)]
    drawn = [found for found in drawn if found]
    assert len(drawn) > 10
    for text, call in drawn:
        assert opinion.call([text], vocabulary_inventory()) == call
        assert call["name"] in ("set_cover", "set_lock", "activate_scene", "switch_device", "switch_all")
