"""bench/text_turn_replay.py on a real replay's evidence: two sentences in flite's voice, one said whole and one
with a pause after "for" (three pause lengths), replayed by bench/turn_taking.py's own loop with Whisper."""
import json
import re

import numpy as np
import pytest

from bench import text_turn_replay
from bench.turn_taking import SENTENCES, build_set, replay
from voice.stt import WhisperSTT
from voice.weights import verified

SENTENCES_HERE = (["Turn on the kitchen light."], [("Set a timer for ten minutes.", 4)])


@pytest.fixture(scope="module")
def evidence(tmp_path_factory) -> str:
    """turn_evidence_two.json as `bench/turn_taking.py --replay` writes it, for the two sentences."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(SENTENCES, "two", SENTENCES_HERE)
        utterances = build_set(WhisperSTT().whisper, "two", ["flite slt"])
    _, recorded = replay(utterances, {}, 200, 30)
    path = tmp_path_factory.mktemp("replay") / "turn_evidence_two.json"
    path.write_text(json.dumps(recorded))
    return str(path)


def all_voices(report: str) -> dict[str, tuple[float, ...]]:
    """Each column's premature, premature paused, late (%) and turn end p50 (ms), over all voices."""
    header = next(line for line in report.splitlines() if line.startswith("| voice |"))
    row = next(line for line in report.splitlines() if line.startswith("| all voices |"))
    columns = [cell.strip() for cell in header.strip("|").split("|")][1:]
    cells = [cell.strip() for cell in row.strip("|").split("|")][1:]
    return {column: tuple(float(figure.strip(" %ms")) for figure in cell.split("/"))
            for column, cell in zip(columns, cells)}


def test_the_shipped_weights_judged_again_give_the_replays_own_figures(evidence, tmp_path, capsys):
    """The shipped weights, and the same weights under another name, give the replay's own figures; weights that
    read every transcript as cut off (a large negative weight on every bucket) wait the long wait at every pause,
    so turns end later and more of them late."""
    shipped = verified("voice", "data/text-turn.npy")
    again, cut = tmp_path / "again.npy", tmp_path / "cut.npy"
    np.save(again, np.load(shipped))
    np.save(cut, np.full_like(np.load(shipped), -10.0))
    assert text_turn_replay.main([evidence, "--weights", str(again), str(cut)]) == 0
    report = capsys.readouterr().out
    counted = re.match(r"two \((\d+) utterances, (\d+) left out: a pause their evidence lacks\)", report)
    assert counted is not None and sum(map(int, counted.groups())) == 4 and int(counted[1]) >= 3
    figures = all_voices(report)
    assert list(figures) == ["as recorded", "shipped weights", "again.npy", "cut.npy"]
    assert figures["shipped weights"] == figures["as recorded"] == figures["again.npy"]
    assert figures["cut.npy"][2] > figures["as recorded"][2] and figures["cut.npy"][3] > figures["as recorded"][3]
