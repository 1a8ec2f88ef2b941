"""bench/brain_turn_replay.py: the assistant's reading of a pause's transcript, and the rules that combine it with
the words judge, on a real replay's evidence (two sentences in flite's voice, replayed with Whisper as
tests/test_bench_text_turn_replay.py does)."""
import pytest

from assistant.embedded import EmbeddedGenerator
from bench import brain_turn_replay
from tests.test_bench_text_turn_replay import all_voices, evidence  # noqa: F401 (the fixture)


@pytest.fixture(scope="module")
def generator() -> EmbeddedGenerator:
    return EmbeddedGenerator.load()


def test_a_request_cut_before_its_value_is_unheard_and_the_whole_one_a_call(generator):
    """The premise: a needed argument missing ("set the living room lights to") gets no call; said whole, it does."""
    assert brain_turn_replay.reading(generator, "Set the living room lights to")[0] == "unheard"
    assert brain_turn_replay.reading(generator, "Set the living room lights to fifty percent.")[0] == "call"
    assert brain_turn_replay.reading(generator, "Set a timer for ten minutes.")[0] == "call"


def test_the_replays_own_figures_come_first_and_a_release_only_shortens_waits(evidence, capsys):  # noqa: F811
    """Releasing cut words can only end turns sooner (late no higher, premature no lower); holding finished words
    only later."""
    assert brain_turn_replay.main([evidence]) == 0
    report = capsys.readouterr().out
    figures = all_voices(report)
    assert list(figures) == ["as recorded", "hold unheard", *brain_turn_replay.RELEASES]
    shipped = figures["as recorded"]
    for name in brain_turn_replay.RELEASES:
        assert figures[name][2] <= shipped[2] and figures[name][0] >= shipped[0]
    assert figures["hold unheard"][2] >= shipped[2] and figures["hold unheard"][0] <= shipped[0]
    assert "CPU per reply median" in report
