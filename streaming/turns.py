"""Turn detection: when did the user start talking, and when are they done?

A pure state machine over Silero speech probabilities, one per 32 ms frame; no audio, no clock.
It tells the session three moments:

- ``START``: speech began (barge-in point, SpeechStarted);
- ``PAUSE``: a short silence after speech, the moment to start transcribing what was said, so the
  final transcript is (nearly) ready when the turn ends instead of starting then;
- ``END``: the silence is long enough to end the turn.

``server_vad`` ends a turn after a fixed ``silence_duration_ms`` (OpenAI's semantics).
``semantic_vad`` ends it sooner when the transcript of the pause reads like a finished sentence and
later when it does not ("turn on the ..."), scaled by ``eagerness``; the session reports that
transcript through ``transcript_ready``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

FRAME_MS = 32               # Silero: 512 samples at 16 kHz
MIN_SPEECH_FRAMES = 2       # 64 ms above threshold before a turn starts: ignores clicks and pops
PAUSE_MS = 64               # silence after which the session starts transcribing
NEGATIVE_MARGIN = 0.15      # hysteresis: speech continues until probability < threshold - margin

# semantic_vad: (silence that ends a complete-looking turn, silence that ends any turn) per eagerness
SEMANTIC_SILENCE_MS = {"high": (160, 500), "medium": (256, 800), "auto": (256, 800), "low": (480, 1500)}

# A transcript ending in one of these words is a sentence still going on.
_CONTINUATION = set("""a an the and or but so because if then than that which who to of for with from in on
at by into about as like is are was were be will would can could should my your his her its our their this
these those um uh er hmm set turn switch make what how when where""".split())
_WORD = re.compile(r"[a-z']+")


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
    eagerness: str = "auto"           # semantic_vad only: low | medium | high | auto


def looks_complete(transcript: str) -> bool:
    """Does this read like a finished utterance? Whisper punctuates; a dangling function word says no."""
    text = transcript.strip()
    words = _WORD.findall(text.lower())
    if not words or text.endswith(("...", "…", ",", "-")):
        return False
    return words[-1] not in _CONTINUATION


class TurnDetector:
    """Feed one speech probability per frame; get at most one Signal back."""

    def __init__(self, settings: TurnDetection):
        self.settings = settings
        self.frames = 0                 # frames seen: the audio clock, FRAME_MS each
        self.speaking = False
        self._run = 0                   # consecutive speech frames while idle
        self.silence_ms = 0             # silence since the last speech frame, while speaking
        self.speech_end_frame = 0       # frame index just after the last speech frame
        self._paused = False            # PAUSE already signalled for this silence
        # semantic_vad: (silence that ends a complete-looking turn, silence that ends any turn)
        self._semantic = SEMANTIC_SILENCE_MS.get(settings.eagerness, SEMANTIC_SILENCE_MS["auto"])
        self._max_silence_ms = self._semantic[1] if settings.type == "semantic_vad" else settings.silence_duration_ms
        self._end_after_ms = self._max_silence_ms

    def process(self, probability: float) -> Signal | None:
        self.frames += 1
        threshold = self.settings.threshold
        if not self.speaking:
            self._run = self._run + 1 if probability >= threshold else 0
            if self._run >= MIN_SPEECH_FRAMES:
                self.speaking, self._run = True, 0
                self.silence_ms, self._paused = 0, False
                self.speech_end_frame = self.frames
                self._end_after_ms = self._max_silence_ms
                return Signal.START
            return None
        if probability >= threshold - NEGATIVE_MARGIN:
            self.silence_ms, self._paused = 0, False
            self.speech_end_frame = self.frames
            self._end_after_ms = self._max_silence_ms
            return None
        self.silence_ms += FRAME_MS
        if self.silence_ms >= self._end_after_ms:
            self.speaking = False
            return Signal.END
        if not self._paused and self.silence_ms >= PAUSE_MS:
            self._paused = True
            return Signal.PAUSE
        return None

    def transcript_ready(self, transcript: str) -> bool:
        """The transcript of everything up to the current pause is known; True = end the turn now."""
        if self.settings.type != "semantic_vad" or not self.speaking or self.silence_ms == 0:
            return False
        short, long = self._semantic
        self._end_after_ms = short if looks_complete(transcript) else long
        if self.silence_ms >= self._end_after_ms:
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
