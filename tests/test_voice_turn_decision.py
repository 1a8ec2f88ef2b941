"""The learned turn decision: the shipped weights, the evidence it reads, the waits the turn detector takes from
it (the opener check's hold before it), the server's verdicts on real speech, and bench/turn_decision.py on a
real replay, whose recorded evidence decided again gives the replay's own turn ends, and bench/turn_hold.py on the
same replay, the words judged again."""
import json

import numpy as np
import pytest

from bench import turn_decision, turn_hold
from bench.turn_judge import decide
from bench.turn_taking import SENTENCES, build_set, replay
from paused_speech import RATE, flite, pause_point
from streaming.engines import Engines
from streaming.turns import SEMANTIC_WAITS, Signal, TurnDetection, TurnDetector
from voice.smart_turn import SmartTurnModel
from voice.stt import Heard, WhisperSTT
from voice.text_turn import BUCKETS, TextTurnModel
from voice.turn_decision import FEATURES, WORDS_FEATURES, TurnDecision, words_evidence
from voice.turn_judge import TurnJudge
from voice.weights import verified

WAITS = SEMANTIC_WAITS["auto"]


@pytest.fixture(scope="module")
def hold_judge():
    return TurnJudge(TextTurnModel())


def decision_of(hold_judge, sound_weight: float = 0.0, bias: float = 0.0, hold_below: float = 0.0) -> TurnDecision:
    """A decision whose probability is the logistic of bias + sound_weight · logit(Smart Turn)."""
    return TurnDecision(hold_judge, {"features": FEATURES, "mean": [0.0] * len(FEATURES),
                                     "scale": [1.0] * len(FEATURES),
                                     "weights": [0.0] * len(WORDS_FEATURES) + [sound_weight], "bias": bias,
                                     "done_above": 0.9, "unsure_above": 0.3, "hold_below": hold_below})


def paused_detector() -> TurnDetector:
    detector = TurnDetector(TurnDetection(type="semantic_vad"))
    for _ in range(10):
        detector.process(0.9)
    assert detector.process(0.0) is Signal.PAUSE
    return detector


def test_the_shipped_weights_fit_the_features(hold_judge):
    decision = TurnDecision(hold_judge)
    regression = decision.regression
    assert regression.weights.shape == regression.mean.shape == regression.scale.shape == (len(FEATURES),)
    assert regression.hidden is None and 0.0 < decision.unsure_above <= decision.done_above <= 1.0
    assert 0.0 <= decision.hold_below < decision.unsure_above
    data = json.loads(verified("voice", "data/turn-decision.json").read_text())
    assert data["trained_by"].startswith("bench/turn_decision.py --train")


def test_weights_for_other_features_are_refused_by_name(hold_judge):
    data = json.loads(verified("voice", "data/turn-decision.json").read_text())
    data["features"] = list(FEATURES[:-1])
    with pytest.raises(ValueError, match="turn decision weights are for features"):
        TurnDecision(hold_judge, data)


def test_the_words_side_of_the_evidence(hold_judge):
    """A whole answer ("Yes.", "No thanks.") is told apart from the first words of a request."""
    yes = Heard("Yes.", (("Yes", 0.98), (".", 0.9)), last_word_start_s=0.4, last_word_end_s=0.7)
    no_thanks = Heard("No, thanks.", (("No", 0.97), (",", 0.6), ("thanks", 0.95), (".", 0.9)),
                      last_word_start_s=0.6, last_word_end_s=1.0)
    cut = Heard("Set the living room lights to", (("Set", 0.95), ("the", 0.99), ("living", 0.98), ("room", 0.99),
                                                  ("lights", 0.98), ("to", 0.97)),
                last_word_start_s=1.6, last_word_end_s=1.75)
    whole = WORDS_FEATURES.index("a whole answer")
    for heard, answer in ((yes, 1.0), (no_thanks, 1.0), (cut, 0.0)):
        row = words_evidence(hold_judge, heard, heard.last_word_end_s + 0.1)
        assert len(row) == len(WORDS_FEATURES) and row[whole] == answer, (heard.text, row)
    assert words_evidence(hold_judge, cut, 1.85)[WORDS_FEATURES.index("since the last word began")] == \
        pytest.approx(0.25)


def test_the_decision_picks_the_wait_once_the_words_and_the_sound_are_in(hold_judge):
    """Words read cut wait the cut wait until the sound is in; then the decision may shorten it."""
    decision = decision_of(hold_judge, sound_weight=1.0)       # the probability is Smart Turn's
    for sound, wait in ((0.95, WAITS.done), (0.5, WAITS.unsure), (0.2, WAITS.cut)):
        detector = paused_detector()
        detector.transcript_ready(0.2, 0.2, 0, decision.evidence(Heard("Stop."), 0.6))  # words read cut
        assert detector.end_after_ms == WAITS.cut                   # the sound is not in: the thresholds' wait
        detector.audio_ready(sound)
        assert detector.end_after_ms == wait, (sound, detector.end_after_ms)


def test_the_decision_lengthens_the_thresholds_wait_only_below_hold_below(hold_judge):
    """Finished words and a finished sound end at the done wait where the decision says cut but is not sure of it
    (short finished requests such as "What time is it?" keep the thresholds' wait); below hold_below it holds the
    cut wait (a paused request whose first half reads finished)."""
    for hold_below, wait in ((0.0, WAITS.done), (0.1, WAITS.done), (0.5, WAITS.cut)):
        detector = paused_detector()
        says_cut = decision_of(hold_judge, bias=-2.0, hold_below=hold_below)     # probability 0.12
        detector.transcript_ready(0.95, 0.95, 0, says_cut.evidence(Heard("Turn on the porch light"), 1.0))
        assert detector.end_after_ms == WAITS.unsure                # the sound is not in: the thresholds' wait
        detector.audio_ready(0.95)
        assert detector.end_after_ms == wait, (hold_below, detector.end_after_ms)


def test_the_bench_counts_the_latency_requests_a_point_holds_longer(hold_judge):
    """bench/turn_decision.py's bound on the operating point: a request the thresholds end at the done wait is held
    longer only by a decision that holds below its probability."""
    turn = {"words": 0.95, "going_on": 0.95, "hold_ms": 0, "sound": 0.95, "evidence": [0.0] * len(WORDS_FEATURES)}
    assert turn_decision.lengthened(decision_of(hold_judge, bias=-2.0), [turn]) == 0
    assert turn_decision.lengthened(decision_of(hold_judge, bias=-2.0, hold_below=0.5), [turn, turn]) == 2


def test_the_bench_bounds_the_cut_ins_utterance_by_utterance():
    """bench/turn_decision.py's bound on the operating point: a point whose hold saves one utterance's cut-in does not
    pay for a new cut-in of another, even in the same voice."""
    def outcomes(cut: list[tuple[str, bool]]) -> list[dict]:
        return [{"label": label, "premature": premature} for label, premature in cut]
    shipped = outcomes([("piper: a", True), ("piper: b", False), ("flite slt: a", False)])
    assert turn_decision.newly_cut(shipped, shipped) == []
    traded = outcomes([("piper: a", False), ("piper: b", True), ("flite slt: a", False)])
    assert turn_decision.newly_cut(traded, shipped) == ["piper: b"]
    saved = outcomes([("piper: a", False), ("piper: b", False), ("flite slt: a", False)])
    assert turn_decision.newly_cut(saved, shipped) == []


def test_the_opener_checks_hold_stands_before_the_decision(hold_judge):
    """Finished words whose last word was only begun ("... lights to 50." from the start of "fifty") and a sound
    that says outright the speaker goes on wait the cut wait, however sure the decision is."""
    decision = decision_of(hold_judge, bias=8.0)
    detector = paused_detector()
    detector.audio_ready(0.05)
    detector.transcript_ready(0.8, 0.2, 0, decision.evidence(Heard("Set the lights to 50."), 1.2))
    assert detector.end_after_ms == WAITS.cut
    detector = paused_detector()
    detector.audio_ready(0.5)
    detector.transcript_ready(0.8, 0.2, 0, decision.evidence(Heard("Set the lights to 50."), 1.2))
    assert detector.end_after_ms == WAITS.done


def test_the_decision_shortens_words_read_cut_whatever_the_sound(hold_judge):
    """The opener check's hold is for finished words only: words read cut ("Rather not.") with a sound that says
    outright the speaker goes on (Smart Turn in espeak-ng low slow) are the decision's to shorten, as the
    thresholds' cut row is."""
    detector = paused_detector()
    detector.audio_ready(0.05)
    detector.transcript_ready(0.2, 0.2, 0, decision_of(hold_judge, bias=8.0).evidence(Heard("Rather not."), 0.8))
    assert detector.end_after_ms == WAITS.done


def test_speech_resuming_forgets_the_evidence(hold_judge):
    detector = paused_detector()
    detector.transcript_ready(0.8, 0.8, 0, decision_of(hold_judge, bias=8.0).evidence(Heard("Stop."), 0.6))
    detector.audio_ready(0.9)
    detector.process(0.9)
    assert detector.process(0.0) is Signal.PAUSE
    detector.transcript_ready(0.8, 0.8)                         # no evidence this time: the thresholds decide
    assert detector.end_after_ms == WAITS.unsure                # finished words, the sound not in
    detector.audio_ready(0.95)
    assert detector.end_after_ms == WAITS.done


async def test_the_servers_decision_on_real_speech(stt, tts, vad_model, hold_judge):
    """Through the server's transcription queue and Smart Turn: flite's "Yes." (words the text judge reads barely
    finished, the judge that may also hold reads cut) is no longer held the cut wait; "Set the living room lights
    to" up to the pause waits the cut wait."""
    engines = Engines(stt=stt, tts=tts, vad_model=vad_model, generator=None, text_turn=hold_judge.text_turn)
    sound = SmartTurnModel()
    lead, gap = np.zeros(RATE * 4 // 10, np.float32), np.zeros(RATE * 64 // 1000, np.float32)
    text = "Set the living room lights to fifty percent."
    whole = flite(text)
    cases = {"Yes.": np.concatenate([lead, flite("Yes."), gap]),
             text: np.concatenate([lead, whole[:pause_point(stt.whisper, whole, text, 6)], gap])}
    waits = {}
    for said, audio in cases.items():
        heard, words, if_going_on, hold_ms, evidence = await engines.transcription.hear(audio)
        detector = paused_detector()
        detector.transcript_ready(words, if_going_on, hold_ms, evidence)
        detector.audio_ready(sound.finished(audio))
        waits[said] = (heard.text, detector.end_after_ms)
    assert waits["Yes."][1] <= WAITS.unsure and waits[text][1] == WAITS.cut, waits


SENTENCES_HERE = (["Yes.", "Turn on the kitchen light."], [("Set a timer for ten minutes.", 4)])


@pytest.fixture(scope="module")
def replayed(tmp_path_factory):
    """A real replay (bench/turn_taking.py's loop, Whisper heard live) in flite's voice, with the server's
    detector: its turn ends, and its recorded evidence as turn_evidence_three.json."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(SENTENCES, "three", SENTENCES_HERE)
        utterances = build_set(WhisperSTT().whisper, "three", ["flite slt"])
    results, recorded = replay(utterances, {"semantic_vad (now)": (TurnDetector, TurnDetection(type="semantic_vad"))},
                               200, 30)
    path = tmp_path_factory.mktemp("replay") / "turn_evidence_three.json"
    path.write_text(json.dumps(recorded))
    return results["semantic_vad (now)"], str(path)


def test_the_recorded_evidence_decided_again_gives_the_replays_own_turn_ends(replayed, hold_judge):
    """One code path: the server's detector in the replay and bench/turn_decision.py's decision on the recorded
    evidence end every turn at the same frame."""
    results, path = replayed
    utterances = json.loads(open(path).read())
    rows = turn_decision.rows_of(hold_judge, utterances)
    decision = TurnDecision(hold_judge)
    verdict = turn_decision.decided({turn_decision.sentence_of(u): decision for u in utterances}, rows)
    again = [decide(u, verdict) for u in utterances]
    assert len(again) == len(results) == 5
    assert [(o["premature"], o.get("end_ms")) for o in again] == [(r["premature"], r.get("end_ms")) for r in results]
    assert all(len(p["judged"]) == 3 for u in utterances for p in u["pauses"].values())


def test_the_bench_judges_held_out_evidence_by_the_written_model(replayed, capsys):
    assert turn_decision.main(["--test", replayed[1]]) == 0
    report = capsys.readouterr().out
    header = next(line for line in report.splitlines() if line.startswith("| voice |"))
    assert "recorded verdicts" in header and "this tree's verdicts" in header and "decision (done ≥" in header
    assert any(line.startswith("| flite slt |") for line in report.splitlines())
    counts = next(line for line in report.splitlines() if " in counts " in line)
    assert counts.count(" of 5 / ") == 3


def test_the_words_judged_again_by_the_recorded_judges_are_the_recorded_verdicts(replayed, hold_judge):
    """bench/turn_decision.py --test judges each pause's words again from its recorded transcript, so a text judge
    trained again is measured on the same evidence; by the judges that recorded it, that gives the recorded verdicts."""
    utterances = json.loads(open(replayed[1]).read())
    again = turn_decision.judged_again(TurnJudge(hold_judge.text_turn, verified("voice", "data/turn-judge.json")),
                                       utterances)
    pauses = [(u, frames, p) for u in utterances for frames, p in u["pauses"].items()]
    assert pauses and all(list(again(u, frames, p)) == p["judged"] for u, frames, p in pauses)


def test_the_holding_bench_judges_the_words_again_by_this_trees_text_judge(replayed, hold_judge, tmp_path):
    """bench/turn_hold.py --test (eagerness low's figures, eot-bench's shape) judges each pause's words again from its
    recorded transcript, as bench/turn_decision.py --test does: by the text judge that recorded the evidence, that
    gives the recorded verdicts on every pause; by another (weights all zero: every transcript 0.5), that judge's."""
    utterances = json.loads(open(replayed[1]).read())
    recorded = [(p["words"], p["going_on"]) for u in utterances for p in u["pauses"].values()]
    again = turn_hold.words_judged_again(hold_judge.text_turn, utterances)
    assert recorded and [(p["words"], p["going_on"]) for u in again for p in u["pauses"].values()] == recorded
    zeros = tmp_path / "text-turn.npy"
    np.save(zeros, np.zeros(BUCKETS, np.float32))
    other = [(p["words"], p["going_on"])
             for u in turn_hold.words_judged_again(TextTurnModel(zeros), utterances) for p in u["pauses"].values()]
    assert set(other) <= {(0.5, 0.5), (0.0, 0.0)} and other != recorded
    assert [(p["words"], p["going_on"]) for u in utterances for p in u["pauses"].values()] == recorded


def test_the_holding_bench_judges_held_out_evidence_by_its_model(replayed, capsys):
    assert turn_hold.main(["--test", replayed[1], "--model", str(verified("voice", "data/turn-hold.json"))]) == 0
    report = capsys.readouterr().out
    header = next(line for line in report.splitlines() if line.startswith("| voice |"))
    assert "words alone" in header and "second look" in header and "holding (end ≥" in header
    assert any(line.startswith("| flite slt |") for line in report.splitlines())
    counts = next(line for line in report.splitlines() if line.startswith("in counts "))
    assert counts.count(" of 5 / ") == 3
