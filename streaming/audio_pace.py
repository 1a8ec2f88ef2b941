"""How fast a live caller's audio is taken: a phone line, a WebRTC microphone, a satellite's microphone.

Live audio arrives at real time. Each second of it costs the event loop about 15 ms (resampling and Silero turn
detection, which run on the loop frame by frame), so a caller that sends minutes of audio in a moment holds the
loop for seconds, and every other session on the server with it. ``AudioPace`` takes a caller's audio at most
MAX_AUDIO_SPEED times real time, after a head start of AUDIO_HEAD_START_S (a line that stalled and then delivers
what it held, a satellite that uploads a recorded request); the door decides what happens to the rest.
"""

from __future__ import annotations

import time

MAX_AUDIO_SPEED = 2.0        # sustained: seconds of audio per second; a live caller sends 1
AUDIO_HEAD_START_S = 10.0    # seconds of audio a caller may send at once, regained at (MAX_AUDIO_SPEED - 1)x


class AudioPace:
    """A token bucket of seconds of audio: full at AUDIO_HEAD_START_S, refilled at MAX_AUDIO_SPEED per second."""

    def __init__(self) -> None:
        self.allowance = AUDIO_HEAD_START_S
        self.checked = time.monotonic()

    def admit(self, seconds: float) -> bool:
        """Whether this many seconds of audio, arriving now, is within the pace (and counted if it is)."""
        now = time.monotonic()
        self.allowance = min(AUDIO_HEAD_START_S, self.allowance + (now - self.checked) * MAX_AUDIO_SPEED)
        self.checked = now
        if seconds > self.allowance:
            return False
        self.allowance -= seconds
        return True
