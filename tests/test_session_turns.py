"""Turn detection as a pure state machine over per-frame speech probabilities."""
from streaming.turns import FRAME_MS, PAUSE_MS, SEMANTIC_WAITS, Signal, TurnDetection, TurnDetector

FINISHED, SURE, CUT = 0.7, 0.95, 0.3      # the words' verdicts: the text turn model's probability (cut below 0.5)


def run(detector, probabilities):
    """[(frame index, signal)] for every frame that produced one."""
    return [(i, s) for i, p in enumerate(probabilities) if (s := detector.process(p)) is not None]


def test_server_vad_start_pause_end():
    detector = TurnDetector(TurnDetection(silence_duration_ms=320))
    signals = run(detector, [0.1] * 5 + [0.9] * 20 + [0.05] * 20)
    assert signals == [(6, Signal.START), (25 + PAUSE_MS // FRAME_MS - 1, Signal.PAUSE), (25 + 10 - 1, Signal.END)]
    assert detector.speech_end_ms == 25 * FRAME_MS and not detector.speaking


def test_a_single_loud_frame_is_not_speech():
    detector = TurnDetector(TurnDetection())
    assert run(detector, [0.1, 0.95, 0.1, 0.1, 0.9, 0.2]) == []


def test_hysteresis_keeps_a_dip_inside_speech():
    detector = TurnDetector(TurnDetection(threshold=0.5, silence_duration_ms=96))
    # 0.4 is under the threshold but above threshold - 0.15: still speech
    signals = run(detector, [0.9] * 3 + [0.4] * 10 + [0.9] * 3 + [0.0] * 3)
    assert [s for _, s in signals] == [Signal.START, Signal.PAUSE, Signal.END]
    assert signals[1][0] == 16 + PAUSE_MS // FRAME_MS - 1  # the pause is the real silence, not the dip


def test_the_pause_comes_with_the_first_silent_frame():
    """The pause's transcription and Smart Turn start there, 32 ms sooner than after 64 ms of silence."""
    detector = TurnDetector(TurnDetection())
    assert run(detector, [0.9] * 5 + [0.0]) == [(1, Signal.START), (5, Signal.PAUSE)]


def test_speech_resuming_after_a_pause_does_not_end_the_turn():
    detector = TurnDetector(TurnDetection(silence_duration_ms=500))
    signals = run(detector, [0.9] * 5 + [0.0] * 6 + [0.9] * 5 + [0.0] * 16)
    assert [s for _, s in signals] == [Signal.START, Signal.PAUSE, Signal.PAUSE, Signal.END]


def semantic(eagerness="medium"):
    return TurnDetector(TurnDetection(type="semantic_vad", eagerness=eagerness))


def test_semantic_vad_ends_quickly_when_words_and_sound_both_say_done():
    detector = semantic()
    run(detector, [0.9] * 10 + [0.0] * 3)               # a 96 ms pause
    assert not detector.audio_ready(0.93)
    assert not detector.transcript_ready(FINISHED)       # 96 ms < 128 ms
    assert run(detector, [0.0]) == [(0, Signal.END)]    # 128 ms of silence ends it


def test_semantic_vad_verdict_after_enough_silence_ends_at_once():
    detector = semantic()
    run(detector, [0.9] * 10 + [0.0] * 5)                 # 160 ms of silence before the verdicts
    assert not detector.transcript_ready(FINISHED)
    assert detector.audio_ready(0.95)
    assert not detector.speaking


def test_semantic_vad_unsure_ends_before_server_vad_would():
    """"Can you dim the lights too?" reads as finished, a level voice does not: the judges disagree, and the
    turn ends at `unsure`, sooner than server_vad's 500 ms."""
    detector = semantic()
    unsure = SEMANTIC_WAITS["medium"].unsure
    assert unsure < TurnDetection().silence_duration_ms
    run(detector, [0.9] * 10 + [0.0] * 3)
    assert not detector.transcript_ready(FINISHED)
    assert not detector.audio_ready(0.2)
    end = -(-(unsure - 96) // FRAME_MS) - 1
    assert run(detector, [0.0] * 20) == [(end, Signal.END)]


def test_semantic_vad_words_sure_of_the_end_need_no_sound_that_agrees():
    """"What time is it?" in a synthetic voice: the words are certain, Smart Turn only doubts (as it does for
    most such voices). The turn ends at `sure`, before `unsure`; a sound that says outright the speaker goes on
    still holds it to `unsure`."""
    waits = SEMANTIC_WAITS["medium"]
    assert waits.done < waits.sure < waits.unsure
    detector = semantic()
    run(detector, [0.9] * 10 + [0.0] * 3)
    assert not detector.transcript_ready(SURE)
    assert not detector.audio_ready(0.2)
    assert run(detector, [0.0] * 20) == [(-(-(waits.sure - 96) // FRAME_MS) - 1, Signal.END)]
    detector = semantic()
    run(detector, [0.9] * 10 + [0.0] * 3)
    detector.transcript_ready(SURE)
    detector.audio_ready(0.05)
    assert run(detector, [0.0] * 20) == [(-(-(waits.unsure - 96) // FRAME_MS) - 1, Signal.END)]


def test_semantic_vad_unsure_wait_is_never_longer_than_the_silence_setting():
    detector = TurnDetector(TurnDetection(type="semantic_vad", silence_duration_ms=200))
    run(detector, [0.9] * 10 + [0.0] * 3)
    detector.transcript_ready(FINISHED)
    detector.audio_ready(0.2)
    assert run(detector, [0.0] * 6) == [(3, Signal.END)]    # 96 + 4 * 32 ms >= 200 ms


def test_semantic_vad_holds_for_its_cut_wait_when_the_words_say_cut():
    """"Remind me in 20.", which the words read as cut: held however finished it sounds, for longer than a
    pause inside a sentence, not for eagerness's maximum."""
    for eagerness, max_ms in (("high", 640), ("medium", 960), ("low", 1600)):
        detector = semantic(eagerness)
        run(detector, [0.9] * 10 + [0.0] * 3)
        detector.transcript_ready(CUT)
        detector.audio_ready(0.99)
        end = -(-(max_ms - 96) // FRAME_MS) - 1           # first frame at which silence >= max_ms
        assert run(detector, [0.0] * (max_ms // FRAME_MS + 2)) == [(end, Signal.END)]


def test_semantic_vad_reads_the_words_as_going_on_when_the_sound_says_so_outright():
    """At a pause after "set the living room lights to", Whisper writes "... to 50." from the start of "fifty":
    finished by its words, cut if the 50 was only begun. The sound says outright that the speaker goes on: held
    as if cut. A sound that only doubts ends it at `unsure`, and until the sound is in, the turn waits for it."""
    waits = SEMANTIC_WAITS["medium"]
    detector = semantic()
    run(detector, [0.9] * 10 + [0.0] * 3)
    detector.audio_ready(0.02)
    detector.transcript_ready(0.59, CUT)
    end = -(-(waits.cut - 96) // FRAME_MS) - 1
    assert run(detector, [0.0] * (waits.cut // FRAME_MS + 2)) == [(end, Signal.END)]
    detector = semantic()
    run(detector, [0.9] * 10 + [0.0] * 3)
    detector.audio_ready(0.2)
    detector.transcript_ready(0.59, CUT)
    assert run(detector, [0.0] * 20) == [(-(-(waits.unsure - 96) // FRAME_MS) - 1, Signal.END)]
    detector = semantic()
    run(detector, [0.9] * 10 + [0.0] * 15)                # 480 ms, past `unsure`, and no sound verdict yet
    assert not detector.transcript_ready(0.59, CUT)
    assert not detector.audio_ready(0.02) and detector.speaking
    detector = semantic()                 # words that read finished either way: the sound cannot hold them
    run(detector, [0.9] * 10 + [0.0] * 3)
    detector.audio_ready(0.02)
    detector.transcript_ready(FINISHED, FINISHED)
    assert run(detector, [0.0] * 20) == [(-(-(waits.unsure - 96) // FRAME_MS) - 1, Signal.END)]


def test_semantic_vad_a_finished_request_held_short_ends_after_the_hold():
    """The turn judge holds finished words short: words and sound say done, yet the turn waits the hold (not 128
    ms), and then ends; speech resuming forgets the hold with the verdicts."""
    detector = semantic()
    run(detector, [0.9] * 10 + [0.0] * 3)
    detector.audio_ready(0.95)
    assert not detector.transcript_ready(FINISHED, FINISHED, 416)
    assert run(detector, [0.0] * 20) == [(-(-(416 - 96) // FRAME_MS) - 1, Signal.END)]
    detector = semantic()
    run(detector, [0.9] * 10 + [0.0] * 3)
    detector.transcript_ready(FINISHED, FINISHED, 416)
    run(detector, [0.9] * 3 + [0.0] * 3)
    detector.audio_ready(0.95)
    assert not detector.transcript_ready(FINISHED)
    assert run(detector, [0.0]) == [(0, Signal.END)]      # 128 ms


def test_semantic_vad_a_short_hold_never_shortens_the_wait():
    """Where the sound says outright that the speaker goes on after words that read finished only if the last
    word was whole ("... lights to 50."), the cut wait stands, held short or not."""
    waits = SEMANTIC_WAITS["medium"]
    detector = semantic()
    run(detector, [0.9] * 10 + [0.0] * 3)
    detector.audio_ready(0.02)
    detector.transcript_ready(0.59, CUT, 416)
    assert run(detector, [0.0] * (waits.cut // FRAME_MS + 2)) == [(-(-(waits.cut - 96) // FRAME_MS) - 1, Signal.END)]


def test_semantic_vad_a_short_hold_is_never_longer_than_the_silence_setting():
    """A client's silence_duration_ms of 200 (set with semantic_vad, or kept from server_vad): finished words held
    short wait 200 ms, as the unsure wait does, not the hold's 416."""
    detector = TurnDetector(TurnDetection(type="semantic_vad", silence_duration_ms=200))
    run(detector, [0.9] * 10 + [0.0] * 3)
    detector.audio_ready(0.95)
    assert not detector.transcript_ready(FINISHED, FINISHED, 416)
    assert run(detector, [0.0] * 6) == [(3, Signal.END)]    # 96 + 4 * 32 ms >= 200 ms


def test_semantic_vad_waits_for_the_words_however_the_sound_is():
    detector = semantic("high")
    run(detector, [0.9] * 10 + [0.0] * 3)
    assert not detector.audio_ready(0.99)
    assert run(detector, [0.0] * 40) == []                # 1.4 s: a slow transcription, no cut meanwhile
    assert detector.transcript_ready(FINISHED)            # both done, long past 96 ms: ends at once


def test_semantic_vad_speech_resuming_forgets_the_verdicts():
    detector = semantic()
    run(detector, [0.9] * 10 + [0.0] * 3)
    detector.transcript_ready(FINISHED)
    detector.audio_ready(0.9)                              # both done, but 96 ms < 128 ms
    run(detector, [0.9] * 3)                               # "... minutes"
    assert run(detector, [0.0] * 6) == [(PAUSE_MS // FRAME_MS - 1, Signal.PAUSE)]  # 192 ms: no verdict for it yet
    assert detector.speaking


def test_server_vad_ignores_the_judges():
    detector = TurnDetector(TurnDetection(silence_duration_ms=500))
    run(detector, [0.9] * 10 + [0.0] * 9)
    assert not detector.transcript_ready(FINISHED)
    assert not detector.audio_ready(0.99)
    assert detector.speaking


def test_server_vad_ignores_the_short_hold():
    """The transcription queue gives the turn judge's hold under every rule; server_vad's silence stays its own."""
    detector = TurnDetector(TurnDetection(silence_duration_ms=200))
    run(detector, [0.9] * 10 + [0.0] * 3)
    assert not detector.transcript_ready(FINISHED, FINISHED, 416)
    assert run(detector, [0.0] * 6) == [(3, Signal.END)]    # 96 + 4 * 32 ms >= 200 ms


def test_semantic_verdicts_known_early_in_the_pause_still_count():
    detector = semantic()
    assert run(detector, [0.9] * 10 + [0.0]) == [(1, Signal.START), (10, Signal.PAUSE)]   # 32 ms of silence
    assert not detector.transcript_ready(FINISHED)
    assert not detector.audio_ready(0.97)
    assert run(detector, [0.0] * 3) == [(2, Signal.END)]  # ends at 128 ms
