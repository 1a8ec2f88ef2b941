"""The heavy models, loaded once per process and shared by every session, and the threads they run on.

Sessions never call a model on the event loop (except Silero VAD: ~0.1 ms a frame). Speech-to-text
runs end-of-turn transcriptions, which the user is waiting on, on threads of their own, so they never wait behind
partial transcripts of sessions that are still talking, which run on one thread of the lowest priority.
"""
from __future__ import annotations

import asyncio
import ctypes
import functools
import threading
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from streaming.turns import TurnDetector
from voice.audio import resample
from voice.heard_values import weighed
from voice.smart_turn import SmartTurnModel
from voice.stt import Heard, WhisperSTT
from voice.text_turn import TextTurnModel
from voice.turn_decision import PauseEvidence, TurnDecision
from voice.turn_judge import TurnJudge
from voice.tts import KeptShort, PiperTTS
from voice.vad import SileroModel
from voice.weights import verified

if TYPE_CHECKING:
    from assistant.generator import Generator

URGENT, BACKGROUND = 0, 1
# numpy's OpenBLAS, as its builds name the thread-count setter: scipy-openblas (numpy's wheels), 64-bit, plain
_OPENBLAS_SETTERS = ("scipy_openblas_set_num_threads64_", "openblas_set_num_threads64_", "openblas_set_num_threads")


def openblas_libraries() -> list[ctypes.CDLL]:
    """The OpenBLAS libraries loaded into this process (numpy's); none off Linux or without OpenBLAS."""
    try:
        with open("/proc/self/maps") as maps:
            paths = {line.split()[-1] for line in maps if "openblas" in line.rsplit("/", 1)[-1].lower()}
    except OSError:
        return []
    return [ctypes.CDLL(path) for path in sorted(paths)]


def one_blas_thread() -> None:
    """Run numpy's matrix products on the calling thread only.

    The server's products are small (a mel filter bank over a window's frames, for Whisper's and Smart Turn's
    features) and already run beside each other on their own threads; OpenBLAS's own threads, which wait
    spinning, only take a core from them. On the 2-core machine at load 4-8, the filter bank over 312 frames
    took 70 ms on OpenBLAS's two threads and 0.7 ms on one (docs/history/turn-taking.md, Voice-to-voice)."""
    for library in openblas_libraries():
        setter = next((getattr(library, name) for name in _OPENBLAS_SETTERS if hasattr(library, name)), None)
        if setter is not None:
            setter(1)


class TranscriptionQueue:
    """Worker threads that run STT jobs in the order asked, finals (URGENT) on `workers` threads and partials
    (BACKGROUND) on one of their own, as the recogniser runs partials on one low-priority thread: a final never
    waits for a worker held by a partial; jobs whose caller gave up are skipped."""

    def __init__(self, stt: WhisperSTT, turn_judge: TurnJudge, patient_judge: TurnJudge | None = None,
                 decision: TurnDecision | None = None, workers: int = 2):
        self.stt, self.turn_judge = stt, turn_judge
        self.patient_judge = patient_judge or turn_judge    # semantic_vad at eagerness low: the judge that holds
        self.decision = decision        # the learned turn decision, at every eagerness but low (None: the thresholds)
        self._queues: dict[int, deque[tuple[Future, Callable[[], Any]]]] = {URGENT: deque(), BACKGROUND: deque()}
        self._wake = threading.Condition()
        self.busy = 0                   # jobs queued or running, any priority
        for n in range(workers):
            threading.Thread(target=self._work, args=(URGENT,), name=f"parley-stt-{n}", daemon=True).start()
        threading.Thread(target=self._work, args=(BACKGROUND,), name="parley-stt-partials", daemon=True).start()

    async def transcribe(self, audio: np.ndarray, priority: int = URGENT, names: tuple[str, ...] = ()) -> str:
        """BACKGROUND jobs are partial transcripts of a user still talking (Whisper's cheap partial mode);
        names: the speaker's home's areas and devices (ToolRunner.spoken_names)."""
        return await self._queue(priority, lambda abandoned: self.stt.transcribe(audio, priority == BACKGROUND, names,
                                                                                 abandoned))

    async def final(self, audio: np.ndarray, names: tuple[str, ...] = ()) -> Heard:
        """An URGENT final transcript with its words' probabilities, for a turn that ends before a final made at
        a pause covers it (pushed to talk): the doubts it carries reach the assistant there too, a doubted number's
        weighed by its value (voice.heard_values)."""
        return await self._queue(URGENT, lambda abandoned: self._weighed(audio, self.stt.hear(audio, names, abandoned),
                                                                         names, abandoned))

    async def hear(self, audio: np.ndarray, names: tuple[str, ...] = (), patient: bool = False
                   ) -> tuple[Heard, float, float | None, int, PauseEvidence | None]:
        """An URGENT final transcript at a pause, with the words' verdicts: the probability that it is a
        finished request, and the same if the speaker goes on, as the sound may say (voice.text_turn), with the
        turn judge's second look, its short hold (ms, 0: none; voice.turn_judge), and the pause's evidence for
        the learned decision (voice.turn_decision; None: the thresholds decide). patient: the speaker asked to be
        cut off less at the cost of later answers (eagerness low), so the judge that also holds decides. The judges
        read Whisper's probabilities as written; the transcript handed on has a doubted number weighed by its value
        (voice.heard_values), as the assistant reads it."""
        judge = self.patient_judge if patient else self.turn_judge
        decision = None if patient else self.decision
        def job(abandoned: Callable[[], bool]) -> tuple[Heard, float, float | None, int, PauseEvidence | None]:
            heard = self.stt.hear(audio, names, abandoned)
            heard_s = audio.size / self.stt.sample_rate
            evidence = decision.evidence(heard, heard_s) if decision is not None else None
            verdicts = judge.judge(heard, heard_s, TurnDetector.words_done)
            return self._weighed(audio, heard, names, abandoned), *verdicts, evidence
        return await self._queue(URGENT, job)

    def _weighed(self, audio: np.ndarray, heard: Heard, names: tuple[str, ...], abandoned: Callable[[], bool]) -> Heard:
        """heard with a doubted number weighed by its value (voice.heard_values), unless nobody waits for it any more:
        the weighing decodes again, a step the abandoned job skips as it skips the others."""
        return heard if abandoned() else weighed(self.stt, audio, heard, names)

    async def _queue(self, priority: int, job: Callable[[Callable[[], bool]], Any]) -> Any:
        """job(abandoned) on a worker thread; abandoned() turns true when the caller is cancelled, and a job
        already running stops at its next step: a partial the pause made moot, or a pause's final once the user
        goes on, no longer takes a core from the final the turn's end waits for."""
        future: Future = Future()
        given_up = threading.Event()
        with self._wake:
            self._queues[priority].append((future, functools.partial(job, given_up.is_set)))
            self.busy += 1
            self._wake.notify_all()
        try:
            return await asyncio.wrap_future(future)
        except asyncio.CancelledError:
            given_up.set()
            raise

    def _work(self, priority: int) -> None:
        queue = self._queues[priority]
        while True:
            with self._wake:
                while not queue:
                    self._wake.wait()
                future, job = queue.popleft()
            try:
                if future.set_running_or_notify_cancel():
                    try:
                        future.set_result(job())
                    except Exception as exc:  # noqa: BLE001 - handed to the awaiting session
                        future.set_exception(exc)
            finally:
                with self._wake:
                    self.busy -= 1


@dataclass
class Engines:
    """Everything a Session needs that is expensive to load. generator=None serves transcription only."""
    stt: WhisperSTT
    tts: PiperTTS | KeptShort
    vad_model: SileroModel
    generator: "Generator | None"
    turn_model: SmartTurnModel = field(default_factory=SmartTurnModel)   # end of turn from the sound
    text_turn: TextTurnModel = field(default_factory=TextTurnModel)      # end of turn from the words
    transcription: TranscriptionQueue = field(init=False)
    executor: ThreadPoolExecutor = field(init=False)   # TTS and other blocking calls

    def __post_init__(self) -> None:
        one_blas_thread()
        second_look, patient_judge = TurnJudge(self.text_turn, verified("voice", "data/turn-judge.json")), \
            TurnJudge(self.text_turn)
        self.transcription = TranscriptionQueue(self.stt, second_look, patient_judge=patient_judge,
                                                decision=TurnDecision(patient_judge))
        self.executor = ThreadPoolExecutor(max_workers=4, thread_name_prefix="parley-engine")
        self.synthesizing = 0

    @classmethod
    def load_default(cls, *, assistant: bool = True, checkpoint_dir: str | None = None,
                     remote: dict | None = None, whisper: str = "tiny.en") -> "Engines":
        """The embedded models: Whisper (tiny.en, or base), Piper joe-medium, Silero, Parley's dLLM checkpoint.
        remote: RemoteGenerator's arguments (url, model, dialect, api_key); the embedded model is then its
        fallback."""
        loaded = None
        if assistant:
            from assistant.embedded import EmbeddedGenerator
            loaded = EmbeddedGenerator.load(checkpoint_dir)
            if remote is not None:
                from assistant.remote import RemoteGenerator
                loaded = RemoteGenerator(**remote, fallback=loaded)
        # Two single-threaded Whisper workers: on 2 cores, 20% more transcriptions per second than one
        # two-threaded worker, and one session's partial never blocks another's end of turn.
        engines = cls(stt=WhisperSTT(whisper, cpu_threads=1, num_workers=2), tts=KeptShort(PiperTTS()),
                      vad_model=SileroModel(), generator=loaded)
        engines.warm_up()
        return engines

    def warm_up(self) -> None:
        """Run each model once so the first caller does not pay for lazy initialisation."""
        speech = resample(self.tts.synthesize("Hello there."), self.tts.sample_rate, self.stt.sample_rate)
        self.stt.transcribe(np.concatenate([np.zeros(4800, np.float32), speech]))
        self.turn_model.finished(speech)
        if self.generator is not None:
            from assistant.generator import respond_sync
            from assistant.tools import ToolRunner
            # a remote generator needs no warming (and may not be up yet): its local fallback does
            local = getattr(self.generator, "fallback", None) or self.generator
            respond_sync(local, [{"role": "user", "content": "what time is it"}], ToolRunner())

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run a blocking call (speech synthesis) on the engine threads."""
        self.synthesizing += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self.executor, fn, *args)
        finally:
            self.synthesizing -= 1

    @property
    def idle(self) -> bool:
        """Nothing a listener is waiting for is running: the moment for partial transcripts."""
        return self.transcription.busy == 0 and self.synthesizing == 0
