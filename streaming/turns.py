"""Turn detection: when did the user start talking, and when are they done?

A pure state machine over Silero speech probabilities, one per 32 ms frame (and whether the frame is the voice's
fading tail, which ``Levels`` reads from the frame's level); no audio, no clock.
It tells the session three moments:

- ``START``: speech began (barge-in point, SpeechStarted);
- ``PAUSE``: a short silence after speech, the moment to transcribe what was said and to ask the
  end-of-turn model about its sound, so both verdicts are (nearly) in when the turn may end; read against the
  frame levels (``Levels``), the voice's fading tail that Silero still scores as speech is silence here;
- ``END``: the silence is long enough to end the turn.

``server_vad`` ends a turn after a fixed ``silence_duration_ms`` (OpenAI's semantics).
``semantic_vad`` asks two judges at each pause: the words (the text turn model's probability that the
pause's transcript is a finished request, Whisper's doubt about its last word read in, ``transcript_ready``)
and the sound (Smart Turn's probability that the speaker has finished, ``audio_ready``). Both say done: the
turn ends after ~128 ms of silence. The words say cut ("set the living room lights to"): it holds for
``cut``, longer than the pauses people make inside a sentence but no longer: the text judge also calls
finished requests with names it never saw cut ("Turn off the jukebox."), and a turn it holds costs the
speaker that wait. The words say done only if their last word, after "to" or "for", was said whole, and
the sound says outright that the speaker goes on (Whisper wrote "... lights to 50." from the start of
"fifty"): it holds as if cut. The words say done for certain and the sound only doubts: it ends at ``sure``. The
words say done and the sound does not: it ends at ``unsure``, never later
than ``silence_duration_ms``. Until the words are in, only ``eagerness``'s maximum (OpenAI's meaning: low,
medium and high wait at most 8, 4 and 2 s) ends the turn: the reply waits for the transcript anyway, so ending
sooner (a slow, loaded machine) would only risk cutting the speaker off. At eagerness low the turn judge
(voice.turn_judge; the session asks the transcription queue for it) may hold finished words short: the turn then waits at least its hold (but no longer than ``silence_duration_ms``, as
``unsure``), and never less than the waits above, so the hold only lengthens the short waits after finished words.
Where the transcription queue hands over the pause's evidence with the words (voice.turn_decision, at every
eagerness but low), a decision learned from the replays weighs the words and the sound together and picks the
``done``, ``unsure`` or ``cut`` wait, once both are in; the turn waits the shorter of its wait and the thresholds'
(it shortens the cut wait of finished words read cut, and keeps a short finished request's wait), except where the
decision is sure the speaker goes on (``hold``: the cut wait, a paused request whose first half reads finished);
the opener check's hold stands before it.
Speech resuming forgets every verdict.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from voice.turn_decision import PauseEvidence

FRAME_MS = 32               # Silero: 512 samples at 16 kHz
MIN_SPEECH_FRAMES = 2       # 64 ms above threshold before a turn starts: ignores clicks and pops
PAUSE_MS = 32               # silence after which the session starts transcribing: the first silent frame. The
                            # replays cut no more than at 64 ms (dev 2.2% both, fresh 6.9 against 7.7%) and end
                            # turns 32 ms sooner when the words end them; the fresh set's pauses that speech
                            # resumed after, each a transcription spent, rose from 456 to 563
                            # (docs/history/turn-taking.md)
NEGATIVE_MARGIN = 0.15      # hysteresis: speech continues until probability < threshold - margin
AUDIO_DONE = 0.9            # Smart Turn probability at or above which the sound says "finished" (0.5 let
                            # half of our dev set's mid-sentence pauses in Piper's voice through)
WORDS_DONE = 0.5            # text turn probability at or above which the words say "finished"; below it they
                            # say the sentence is cut (a band of "unsure" words between 0.1 and 0.5 that ended
                            # at `unsure` cut 19.2% of the dev set's utterances, against 5.8%)
WORDS_SURE = 0.9            # text turn probability at or above which the words alone end the turn at `sure`,
                            # unless the sound says outright that the speaker goes on: Smart Turn calls most
                            # finished requests in synthetic voices unfinished (the dev replay's verdicts at
                            # 407102c and the fresh one's at e632d50: 20 of 182 and 97 of 581 turns end sooner;
                            # one 300 ms pause of 581 more is at risk)
SOUND_NOT_DONE = 0.1        # Smart Turn probability below which the sound says outright that the speaker goes
                            # on; then the words are read as if their last word was only begun (voice.text_turn)
FADING_BELOW = 0.9          # a frame Silero has dropped below this (still speech by its threshold) is silence when
FADING_LEVEL = 0.01         # it is below this share of the turn's loudest frame and 3x the room's noise: the voice's
                            # fading tail, which Silero scores as speech for 2-3 frames after the words in five
                            # voices of seven (docs/history/latency.md, round 26). It starts the pause's transcript
                            # and Smart Turn; the waits that end the turn count Silero's silence alone (counted
                            # from the tail too, one more cut in the dev replay: Piper's paused "Dim the bedroom
                            # lights to ...")


@dataclass(frozen=True)
class SemanticWaits:
    """semantic_vad's silences (ms) before a turn ends, by how many judges say the speaker is done."""
    done: int                # words and sound both
    sure: int                # the words say done for certain, the sound only doubts
    unsure: int              # the words say done, the sound does not (capped at silence_duration_ms)
    cut: int                 # the words say the sentence is cut
    max: int                 # the words are not in yet


# `unsure` is shorter than server_vad's 500 ms: a sentence the words call cut is held to `cut` instead. On the
# dev replay 384 ms cut no more than 448 (5.8%), 256 one more utterance. `cut` is longer than the pauses people
# make inside a sentence (300-800 ms) and no longer than the old default's wait when its judges disagreed: the
# text judge reads "Turn off the jukebox." as cut (0.02), and holding every such request 4 s was worse.
SEMANTIC_WAITS = {"high": SemanticWaits(96, 192, 256, 640, 2000), "medium": SemanticWaits(128, 256, 384, 960, 4000),
                  "auto": SemanticWaits(128, 256, 384, 960, 4000), "low": SemanticWaits(256, 512, 800, 1600, 8000)}


ROOM_BELOW = 0.1            # a frame Silero scores below this while nobody speaks is the room's noise alone: the
                            # onset of speech scores 0.3-0.5 before it starts a turn, and counted in the noise it
                            # raised the quiet level to 4 % of the words (espeak-ng's "pond pump" lost its final /p/)


class Levels:
    """Frame levels (RMS) that Silero's verdicts are read against: the room's noise, averaged over the frames while
    nobody speaks, and the current turn's loudest speech frame."""

    def __init__(self) -> None:
        self.noise_rms = 0.0
        self.peak_rms = 0.0

    def step(self, detector: TurnDetector, probability: float, rms: float) -> Signal | None:
        """One frame's Silero probability and RMS through the detector; the levels then take the frame in."""
        signal = detector.process(probability, detector.speaking and self.fading(probability, rms))
        if signal is Signal.START:
            self.peak_rms = 0.0
        elif not detector.speaking and signal is None and probability < ROOM_BELOW:
            self.noise_rms += 0.05 * (rms - self.noise_rms)
        if detector.speaking and detector.silence_ms == 0:
            self.peak_rms = max(self.peak_rms, rms)
        return signal

    def fading(self, probability: float, rms: float) -> bool:
        """Silero still says speech, but has dropped, and the frame is far quieter than the turn's words and near
        the room's noise: the words have ended."""
        return probability < FADING_BELOW and rms < max(FADING_LEVEL * self.peak_rms, 3 * self.noise_rms)


class Signal(Enum):
    START = "start"
    PAUSE = "pause"
    END = "end"


@dataclass
class TurnDetection:
    """Server-side turn detection settings (the Realtime API's `turn_detection` object)."""
    type: str = "server_vad"          # "server_vad" | "semantic_vad"
    threshold: float = 0.5
    prefix_padding_ms: int = 300
    silence_duration_ms: int = 500
    create_response: bool = True
    interrupt_response: bool = True
    eagerness: str = "auto"           # semantic_vad only: low | medium | high | auto (= medium)


class TurnDetector:
    """Feed one speech probability per frame; get at most one Signal back."""

    audio_done = AUDIO_DONE
    words_done = WORDS_DONE
    words_sure = WORDS_SURE
    sound_not_done = SOUND_NOT_DONE

    def __init__(self, settings: TurnDetection):
        self.settings = settings
        self.frames = 0                 # frames seen: the audio clock, FRAME_MS each
        self.speaking = False
        self._run = 0                   # consecutive speech frames while idle
        self.silence_ms = 0             # silence since the last speech frame, while speaking
        self._fading_ms = 0             # of it, the voice's fading tail: it starts the pause, but ends no turn
        self.speech_end_frame = 0       # frame index just after the last speech frame
        self._paused = False            # PAUSE already signalled for this silence
        self.semantic = settings.type == "semantic_vad"
        self._waits = SEMANTIC_WAITS.get(settings.eagerness, SEMANTIC_WAITS["auto"])
        self._words: float | None = None        # this pause's verdicts; None = not in yet
        self._words_going_on: float | None = None
        self._sound: float | None = None
        self._hold_ms = 0                       # this pause's short hold (the turn judge's); 0 = none
        self._evidence: PauseEvidence | None = None     # this pause's evidence for the learned decision
        self._decided: str | None = None        # the decision's wait (a SemanticWaits field, or "hold": the cut
                                                # wait whatever the thresholds say), words and sound in

    def process(self, probability: float, fading: bool = False) -> Signal | None:
        """fading: the frame is the voice's fading tail (Levels.fading): silence that pauses, whatever Silero
        says, but that the waits to end the turn do not count."""
        self.frames += 1
        threshold = self.settings.threshold
        if not self.speaking:
            self._run = self._run + 1 if probability >= threshold else 0
            if self._run >= MIN_SPEECH_FRAMES:
                self.speaking, self._run = True, 0
                self._speech_frame()
                return Signal.START
            return None
        heard = probability >= threshold - NEGATIVE_MARGIN      # speech, by Silero
        if heard and not fading:
            self._speech_frame()
            return None
        self.silence_ms += FRAME_MS
        self._fading_ms += FRAME_MS if heard else 0
        if self._ends_turn():
            self.speaking = False
            return Signal.END
        if not self._paused and self.silence_ms >= PAUSE_MS:
            self._paused = True
            return Signal.PAUSE
        return None

    def _speech_frame(self) -> None:
        self.silence_ms, self._fading_ms, self._paused = 0, 0, False
        self.speech_end_frame = self.frames
        self._words = self._words_going_on = self._sound = None
        self._hold_ms, self._evidence, self._decided = 0, None, None

    @property
    def end_after_ms(self) -> int:
        """The silence that ends the turn, given what the judges have said about this pause: the judges' wait, or
        the turn judge's short hold where that is longer; the hold, as the unsure wait, is no longer than
        silence_duration_ms."""
        return max(self._judged_wait_ms, min(self._hold_ms, self.settings.silence_duration_ms))

    @property
    def _judged_wait_ms(self) -> int:
        if not self.semantic:
            return self.settings.silence_duration_ms
        if self._words is None:         # the reply needs the words anyway: ending sooner would only risk a cut
            return self._waits.max
        if self._evidence is not None:  # the decision shortens, and lengthens only where it is sure of a cut
            if self._decided == "hold":
                return self._waits.cut
            return min(self._decided_wait_ms, self._thresholds_wait_ms)
        return self._thresholds_wait_ms

    @property
    def _thresholds_wait_ms(self) -> int:
        """The wait the words' and the sound's verdicts give, each read on its own (the table's rows)."""
        words, sound = self._words, self._sound
        if words < self.words_done:     # "set the living room lights to": hold on
            return self._waits.cut
        going_on = self._words_going_on
        if going_on is not None and going_on < self.words_done:    # finished, unless the last word was only begun
            if sound is None:           # the sound decides which: wait for it
                return self._waits.max
            if sound < self.sound_not_done:
                return self._waits.cut
        if sound is not None and sound >= self.audio_done:
            return self._waits.done
        if sound is not None and sound >= self.sound_not_done and words >= self.words_sure:
            return min(self._waits.sure, self.settings.silence_duration_ms)
        return min(self._waits.unsure, self.settings.silence_duration_ms)

    @property
    def _decided_wait_ms(self) -> int:
        """The learned decision's wait, which weighs the sound too (the maximum until it is in), after the opener
        check's hold: finished words whose last word was only begun, and a sound that says outright the speaker
        goes on (words read cut are the decision's: the hold there kept 73 finished turns of the read sets late)."""
        if self._decided is None:
            return self._waits.max
        going_on = self._words_going_on
        if (self._words >= self.words_done and going_on is not None and going_on < self.words_done
                and self._sound < self.sound_not_done):
            return self._waits.cut
        wait = getattr(self._waits, self._decided)
        return min(wait, self.settings.silence_duration_ms) if self._decided == "unsure" else wait

    def transcript_ready(self, finished: float, if_going_on: float | None = None, hold_ms: int = 0,
                         evidence: PauseEvidence | None = None) -> bool:
        """The words' verdict on everything up to the current pause (the text turn model's probability that
        it is a finished request) is in, and the verdict to use instead when the sound says outright that the
        speaker goes on (TextTurnModel.judge_going_on); hold_ms: the turn judge's short hold (0: none), the
        least silence that ends the turn; evidence: the pause's evidence for the learned decision (None: the
        thresholds decide); True = end the turn now."""
        if not self.semantic or not self.speaking or self.silence_ms == 0:
            return False
        self._words, self._words_going_on, self._hold_ms, self._evidence = finished, if_going_on, hold_ms, evidence
        self._decide()
        return self._end_now()

    def audio_ready(self, finished: float) -> bool:
        """Smart Turn's probability that the speech up to the current pause is finished; True = end now."""
        if not self.semantic or not self.speaking or self.silence_ms == 0:
            return False
        self._sound = finished
        self._decide()
        return self._end_now()

    def _decide(self) -> None:
        """The learned decision's wait, weighed once (voice.turn_decision), when the words and the sound are in."""
        if self._evidence is not None and self._sound is not None:
            self._decided = self._evidence.wait(self._sound)

    def _ends_turn(self) -> bool:
        """The silence Silero hears has lasted the wait: the waits were chosen on Silero's silence alone, so the
        fading tail only starts the pause's transcript and Smart Turn sooner."""
        return self.silence_ms - self._fading_ms >= self.end_after_ms

    def _end_now(self) -> bool:
        if self._ends_turn():
            self.speaking = False
            return True
        return False

    @property
    def start_frame(self) -> int:
        """Frame index where the current speech began (valid right after START)."""
        return self.frames - MIN_SPEECH_FRAMES

    @property
    def speech_end_ms(self) -> int:
        return self.speech_end_frame * FRAME_MS
