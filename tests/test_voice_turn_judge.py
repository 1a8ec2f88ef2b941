"""The turn judge: the second look and the short hold on the words' verdicts, the shipped weights, the
verdicts the server's transcription queue gives the turn detector for real speech (flite), as bench/turn_judge.py
and bench/turn_hold.py decide on replays, and a session whose judge fails."""
import json

import numpy as np
import pytest

from paused_speech import RATE, flite, pause_point
from streaming.engines import Engines, TranscriptionQueue
from streaming.events import AudioCommitted, Error, SpeechStopped, TranscriptCompleted
from streaming.session import Session, SessionConfig
from streaming.turns import FRAME_MS, SEMANTIC_WAITS, Signal, TurnDetection, TurnDetector
from voice.audio import float_to_pcm16
from voice.smart_turn import SmartTurnModel
from voice.stt import Heard
from voice.text_turn import TextTurnModel
from voice.turn_judge import FEATURES, HOLD_FEATURES, WEIGHTS_PATH, Regression, TurnJudge, features, hold_features
from voice.weights import verified
from test_session_pipeline import Recorder, push_realtime

WORDS_DONE = TurnDetector.words_done


@pytest.fixture(scope="module")
def judge():
    return TurnJudge(TextTurnModel())


@pytest.fixture(scope="module")
def second_look(judge):
    """The second look alone (voice/data/turn-judge.json), the benches' baseline."""
    return TurnJudge(judge.text_turn, WEIGHTS_PATH)


def test_the_second_look_overrules_only_where_it_is_sure():
    cut, finished = 0.2, 0.8
    assert TurnJudge.second_look(0.9, cut, cut, 0.7, 0.05, WORDS_DONE) == (WORDS_DONE, None)     # read finished
    assert TurnJudge.second_look(0.6, cut, 0.1, 0.7, 0.05, WORDS_DONE) == (cut, 0.1)             # stays cut
    assert TurnJudge.second_look(0.01, finished, finished, 0.7, 0.05, WORDS_DONE) == (0.0, None)  # read cut
    assert TurnJudge.second_look(0.1, finished, 0.3, 0.7, 0.05, WORDS_DONE) == (finished, 0.3)   # stays finished


def test_finished_words_are_held_short_between_the_hold_and_the_short_threshold():
    cut, finished = 0.2, 0.8
    assert TurnJudge.look(0.7, finished, 0.3, 0.9, 0.6, 0.95, 416, WORDS_DONE) == (finished, 0.3, 416)
    assert TurnJudge.look(0.5, finished, 0.3, 0.9, 0.6, 0.95, 416, WORDS_DONE) == (0.0, None, 0)   # the cut wait
    assert TurnJudge.look(0.97, finished, 0.3, 0.9, 0.6, 0.95, 416, WORDS_DONE) == (finished, 0.3, 0)
    assert TurnJudge.look(0.7, cut, cut, 0.9, 0.6, 0.95, 416, WORDS_DONE) == (cut, cut, 0)         # cut stays cut


def test_the_shipped_weights_fit_the_features(judge, second_look):
    network = judge.regression
    assert network.mean.shape == network.scale.shape == (len(HOLD_FEATURES),) and judge.features is hold_features
    assert network.hidden is not None and network.hidden[0].shape == (len(HOLD_FEATURES), network.weights.size)
    assert judge.hold_below < judge.short_below < 1.0 and judge.hold_below < judge.end_above and judge.hold_ms > 0
    regression = second_look.regression
    assert regression.weights.shape == regression.mean.shape == regression.scale.shape == (len(FEATURES),)
    assert regression.hidden is None and second_look.hold_ms == 0
    assert second_look.hold_below < second_look.end_above


def test_weights_for_other_features_are_refused_by_name(judge, tmp_path):
    data = json.loads(verified("voice", "data/turn-hold.json").read_text())
    data["features"] = list(HOLD_FEATURES[:-1])
    other = tmp_path / "turn-hold.json"
    other.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="neither .* nor .*the second look's"):
        TurnJudge(judge.text_turn, other)


def test_a_judge_with_a_hidden_layer_weighs_its_tanh_units():
    """bench/turn_hold.py writes a network as a layer of tanh units under the logistic output; the judge reads
    it the same way: standardise, tanh, then the logistic of the units' weighted sum."""
    network = Regression({"mean": [1.0, 0.0], "scale": [2.0, 1.0],
                          "hidden": {"weights": [[1.0, 0.0], [0.0, 2.0]], "bias": [0.0, 0.5]},
                          "weights": [1.5, -1.0], "bias": 0.25})
    units = np.tanh(np.array([(2.0 - 1.0) / 2.0, 2.0 * -0.5 + 0.5]))
    expected = 1 / (1 + np.exp(-(units @ np.array([1.5, -1.0]) + 0.25)))
    assert network.probabilities([2.0, -0.5]) == pytest.approx(expected)
    assert network.probabilities([[2.0, -0.5], [2.0, -0.5]]) == pytest.approx([expected, expected])


def test_a_confident_finished_request_the_words_read_cut_is_read_finished_by_the_second_look(second_look):
    """"Play the playlist called Rainy Day Jazz.": the text judge never saw the name after "called" and reads it
    cut; Whisper is sure of every word, the last word began well before the audio's end, no beam goes on.
    (Trained on the corpus as it grew, the text judge reads "Cancel the timer called laundry." cut more surely,
    0.11 -> 0.03, and the second look no longer overrules it.)"""
    heard = Heard("Play the playlist called Rainy Day Jazz.", (("Play", 0.97), ("the", 0.99), ("playlist", 0.98),
                                                                 ("called", 0.97), ("Rainy", 0.96), ("Day", 0.97),
                                                                 ("Jazz", 0.95), (".", 0.9)),
                  last_word_start_s=1.55, last_word_end_s=2.05)
    assert second_look.text_turn.judge(heard) < WORDS_DONE
    assert second_look.judge(heard, 2.2, WORDS_DONE) == (WORDS_DONE, None, 0)


def test_a_cut_request_stays_cut(judge):
    heard = Heard("Set the living room lights to", (("Set", 0.95), ("the", 0.99), ("living", 0.98), ("room", 0.99),
                                                    ("lights", 0.98), ("to", 0.97)),
                  last_word_start_s=1.6, last_word_end_s=1.75)
    assert judge.judge(heard, 1.8, WORDS_DONE)[0] < WORDS_DONE


def test_the_features_are_the_ones_named(judge):
    heard = Heard("What time is it?", (("What", 0.99), ("time", 0.99), ("is", 0.99), ("it", 0.99), ("?", 0.95)),
                  last_word_start_s=0.9, last_word_end_s=1.0)
    row = features(judge.text_turn, heard, 1.3, 0.97, 0.97)
    assert len(row) == len(FEATURES) and row[FEATURES.index("ends in a question mark")] == 1.0
    assert row[FEATURES.index("since the last word began")] == pytest.approx(0.4)
    row = hold_features(judge.text_turn, heard, 1.3, 0.97, 0.97)
    assert len(row) == len(HOLD_FEATURES) and row[HOLD_FEATURES.index("last word's length")] == pytest.approx(0.1)
    assert row[HOLD_FEATURES.index("last word's length against the rate so far")] == pytest.approx(0.1 / (1.0 / 4))


def _silence_until_the_end(words: float, if_going_on: float | None, sound: float, hold_ms: int) -> int | None:
    """The silence (ms) after which semantic_vad ends the turn at a pause given the verdicts (None: not within
    2 s), told at the pause's first silent frame."""
    detector = TurnDetector(TurnDetection(type="semantic_vad"))
    for _ in range(10):
        detector.process(0.9)
    assert detector.process(0.0) is Signal.PAUSE
    if detector.audio_ready(sound) or detector.transcript_ready(words, if_going_on, hold_ms):
        return detector.silence_ms
    for _ in range(2000 // FRAME_MS):
        if detector.process(0.0) is Signal.END:
            return detector.silence_ms
    return None


async def test_the_servers_verdicts_on_real_speech(stt, judge):
    """Through the transcription queue the server uses: flite's finished "What time is it?" is held short, and
    its turn still ends after the hold (416 ms, shorter than server_vad's 500); "Set the living room lights to
    ..." up to the pause (after "to", as in tests/test_paused_request_home.py) is held short too, and waits the
    cut wait all the same: the sound says the speaker goes on, and the hold never shortens the detector's wait."""
    queue, sound = TranscriptionQueue(stt, judge), SmartTurnModel()
    waits = SEMANTIC_WAITS["auto"]
    lead, gap = np.zeros(RATE * 4 // 10, np.float32), np.zeros(RATE * 64 // 1000, np.float32)

    finished = np.concatenate([lead, flite("What time is it?"), gap])
    heard, words, if_going_on, hold_ms, evidence = await queue.hear(finished)
    assert evidence is None      # a queue without the learned decision: the thresholds decide
    assert words >= WORDS_DONE and hold_ms == judge.hold_ms, (heard, words, hold_ms)
    ended = _silence_until_the_end(words, if_going_on, sound.finished(finished), hold_ms)
    assert ended == hold_ms < 500, (heard, words, hold_ms, ended)

    text = "Set the living room lights to fifty percent."
    whole = flite(text)
    paused = np.concatenate([lead, whole[:pause_point(stt.whisper, whole, text, 6)], gap])
    heard, words, if_going_on, hold_ms, _ = await queue.hear(paused)
    assert hold_ms == judge.hold_ms, (heard, words, hold_ms)
    assert _silence_until_the_end(words, if_going_on, sound.finished(paused), hold_ms) == waits.cut, (
        heard, words, if_going_on, hold_ms)


def failing_judge(judge: TurnJudge, folder) -> TurnJudge:
    """The server's judge with its hidden layer a row short: every call raises."""
    data = json.loads(verified("voice", "data/turn-hold.json").read_text())
    data["hidden"]["weights"] = data["hidden"]["weights"][:-1]
    broken = folder / "turn-hold.json"
    broken.write_text(json.dumps(data))
    return TurnJudge(judge.text_turn, broken)


async def test_a_turn_judge_that_fails_costs_the_turn_its_wait_not_its_words(stt, tts, vad_model, judge, tmp_path):
    """Every call of the judge raises (its hidden layer a row short): the pause's failure is told as a
    server_error, the words never come in, so the turn ends at eagerness's maximum, and its transcript is still
    completed, transcribed anew without the judge. Before, the committed turn awaited the failed job again and
    no transcript came."""
    engines = Engines(stt=stt, tts=tts, vad_model=vad_model, generator=None, text_turn=judge.text_turn)
    engines.transcription = TranscriptionQueue(stt, failing_judge(judge, tmp_path))
    session = Session(engines, SessionConfig(input_rate=RATE, turn_detection=TurnDetection(type="semantic_vad")))
    await session.start()
    recorder = Recorder(session)
    lead, tail = np.zeros(RATE * 4 // 10, np.float32), np.zeros(RATE * 5, np.float32)
    await push_realtime(session, float_to_pcm16(np.concatenate([lead, flite("What time is it?"), tail])), RATE)
    completed = await recorder.wait(TranscriptCompleted, timeout=60)
    await session.close()
    assert "time" in completed.transcript.lower(), completed
    errors = recorder.of(Error)
    assert errors and all(e.code == "server_error" and "matmul" in e.message for e in errors), errors
    assert len(recorder.of(SpeechStopped)) == len(recorder.of(AudioCommitted)) == 1


async def test_the_server_holds_only_a_patient_speaker(stt, tts, vad_model, judge):
    """The server's queue judges with the second look (no short hold) and hands over the pause's evidence for the
    learned decision; semantic_vad at eagerness low, a speaker who asked to be cut off less, gets the judge that
    also holds and no learned decision: flite's finished "What time is it?" is held 416 ms there only."""
    engines = Engines(stt=stt, tts=tts, vad_model=vad_model, generator=None, text_turn=judge.text_turn)
    finished = np.concatenate([np.zeros(RATE * 4 // 10, np.float32), flite("What time is it?"),
                               np.zeros(RATE * 64 // 1000, np.float32)])
    heard, words, _, hold_ms, evidence = await engines.transcription.hear(finished)
    assert words >= WORDS_DONE and hold_ms == 0 and evidence is not None, (heard, words, hold_ms)
    heard, words, _, hold_ms, evidence = await engines.transcription.hear(finished, patient=True)
    assert words >= WORDS_DONE and hold_ms == judge.hold_ms == 416 and evidence is None, (heard, words, hold_ms)


async def test_a_session_at_eagerness_low_asks_for_the_judge_that_holds(stt, tts, vad_model, judge, tmp_path):
    """The session passes eagerness low to the queue: with a default judge that raises at every call and the
    judge that holds beside it, a session at semantic_vad's eagerness low hears its turn without an error."""
    engines = Engines(stt=stt, tts=tts, vad_model=vad_model, generator=None, text_turn=judge.text_turn)
    engines.transcription = TranscriptionQueue(stt, failing_judge(judge, tmp_path), patient_judge=judge)
    session = Session(engines, SessionConfig(input_rate=RATE, turn_detection=TurnDetection(type="semantic_vad",
                                                                                           eagerness="low")))
    await session.start()
    recorder = Recorder(session)
    lead, tail = np.zeros(RATE * 4 // 10, np.float32), np.zeros(RATE * 3, np.float32)
    await push_realtime(session, float_to_pcm16(np.concatenate([lead, flite("What time is it?"), tail])), RATE)
    completed = await recorder.wait(TranscriptCompleted, timeout=60)
    await session.close()
    assert "time" in completed.transcript.lower(), completed
    assert not recorder.of(Error), recorder.of(Error)
    assert len(recorder.of(SpeechStopped)) == len(recorder.of(AudioCommitted)) == 1
