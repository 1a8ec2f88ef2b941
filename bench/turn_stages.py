"""CPU and wall time of each stage on the path from the user's last word to the first reply audio, per voice.

bench/latency.py measures the path end to end over a socket, where the machine's load sets much of each figure;
this runs the stages a pause sets off one after another in this process, on bench/latency.py's requests in each
voice (the audio up to the pause: the words and 96 ms of silence), and times each with the process's CPU clock,
so two trees can be compared paired on the same recordings (PYTHONPATH picks the tree; --audio keeps the
recordings for the other). Stages: the pause's transcript (voice.stt.WhisperSTT.hear: features, encoder, a beam
of three, the forced pass), the turn judge, the heard-text and names rules (Session._with_home_names), Smart Turn
(beside the transcript in the server), the assistant's reply to its first words and to its end, and the first
clause's synthesis. --waits instead gives each turn's verdicts (the words', Smart Turn's) and the silence
semantic_vad waits on them (the row of docs/turn-taking.md's table): what sets a voice's turn end, apart from
Silero's lag and the transcript's time. --partial-at-pause instead stages a pause that comes while a partial
transcript is being written: the final the turn waits for, and the CPU the partial takes beside it.
--silero-drops instead measures a start of the pause's transcript at Silero's drop below a level, before the pause.
--pause-lags instead sets Silero's lag read alone against Silero read with the frame levels (streaming.turns.Levels:
a frame Silero has dropped on that is far quieter than the words is silence), with --noise under a room's noise.
--pause-stages instead splits the pause's transcript's time after the words, per voice: Silero's lag (the words'
end to the end of the first silent frame, the recording followed by digital silence), then `hear` as the server
runs it (one BLAS thread, two one-threaded Whisper replicas) and each of its steps run again one by one (log-mel
and the band check, the encoder, the beam, the forced pass, the decoding without the prompt where the words echo
it) and the judges' evidence.

    PYTHONPATH=$PWD .venv/bin/python bench/turn_stages.py --voices piper "festival kal" --audio /tmp/turns.npz
    PYTHONPATH=$PWD .venv/bin/python bench/turn_stages.py --profile /tmp/hear.prof     # cProfile of the stages
    PYTHONPATH=$PWD .venv/bin/python bench/turn_stages.py --partial-at-pause --voices piper --audio /tmp/turns.npz
    PYTHONPATH=$PWD .venv/bin/python bench/turn_stages.py --waits --voices all --audio /tmp/turns.npz
    PYTHONPATH=$PWD .venv/bin/python bench/turn_stages.py --pause-stages --voices all --audio /tmp/turns.npz
    PYTHONPATH=$PWD .venv/bin/python bench/turn_stages.py --pause-stages --noise 0.003 --voices all --audio /tmp/turns.npz
    PYTHONPATH=$PWD .venv/bin/python bench/turn_stages.py --pause-lags --noise 0.003 --voices all --audio /tmp/turns.npz
    PYTHONPATH=$PWD .venv/bin/python bench/turn_stages.py --silero-drops 0.9 0.7 0.5 --voices all --audio /tmp/turns.npz
"""
from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import math
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path += [str(HERE), str(HERE.parent)]       # appended: a tree given by PYTHONPATH comes first

from latency import REQUESTS  # noqa: E402

PAUSE_S = 0.096                 # silence after the words at the pause's transcript: Silero's lag and the first frame
STAGES = ("transcript", "judge", "names", "smart_turn", "first_words", "reply", "first_clause")


def recordings(voices: list[str], path: Path | None) -> dict[str, list[np.ndarray]]:
    """Each voice's requests as 16 kHz float32 up to the pause; read from path when it holds them all, else
    spoken (and written there)."""
    stored = dict(np.load(path)) if path is not None and path.exists() else {}
    if all(f"{voice}/{i}" in stored for voice in voices for i in range(len(REQUESTS))):
        return {voice: [stored[f"{voice}/{i}"] for i in range(len(REQUESTS))] for voice in voices}
    from voices import RATE, speak
    spoken = {}
    for voice in voices:
        spoken[voice] = []
        for text in REQUESTS:
            audio = speak(voice, text)
            loud = np.nonzero(np.abs(audio) > 0.01)[0]
            end = (int(loud[-1]) if loud.size else audio.size) + int(PAUSE_S * RATE)
            spoken[voice].append(np.concatenate([np.zeros(RATE * 4 // 10, np.float32), audio[:end]]))
    if path is not None:
        np.savez(path, **{f"{voice}/{i}": a for voice, clips in spoken.items() for i, a in enumerate(clips)})
    return spoken


def timed(fn, *args):
    """(result, CPU ms of the whole process, wall ms)."""
    cpu, wall = time.process_time(), time.perf_counter()
    result = fn(*args)
    return result, (time.process_time() - cpu) * 1000, (time.perf_counter() - wall) * 1000


def one_turn(engines, session, history: list[dict], audio: np.ndarray) -> dict[str, tuple[float, float]]:
    """(CPU ms, wall ms) of each stage for one pause, as the session runs them; the request and its reply join
    history, as in bench/latency.py's sessions of eight turns."""
    from assistant.generator import TextEvent, ToolCallEvent
    from streaming.turns import TurnDetector
    from voice.tts import ClauseBuffer

    stages = {}
    heard, *stages["transcript"] = timed(engines.stt.hear, audio, ())
    _, *stages["judge"] = timed(engines.transcription.turn_judge.judge, heard, audio.size / 16000,
                                TurnDetector.words_done)
    # a tree before round 15 has no doubted change words
    text, *stages["names"] = timed(session._with_home_names, heard.text, heard.unsure_words(), heard.unsure_numbers(),
                                   heard.doubted_words(), *([heard.doubted_change_words()]
                                                            if hasattr(heard, "doubted_change_words") else []))
    _, *stages["smart_turn"] = timed(engines.turn_model.finished, audio)
    history.append({"role": "user", "content": text})

    async def reply() -> tuple[str, float, float]:
        first = None
        said = ""
        async for event in engines.generator.respond(list(history), session.tools):
            if isinstance(event, ToolCallEvent):
                call = event.call
                history.append({"role": "assistant", "content": "", "tool_calls": [
                    {"call_id": call.call_id, "name": call.name, "arguments": json.dumps(call.arguments)}]})
                history.append({"role": "tool", "content": event.result or "", "call_id": call.call_id})
            if isinstance(event, TextEvent) and event.text:
                said += event.text
                if first is None:
                    first = (time.process_time(), time.perf_counter())
        return said, *(first or (time.process_time(), time.perf_counter()))
    cpu, wall = time.process_time(), time.perf_counter()
    said, first_cpu, first_wall = asyncio.run(reply())
    stages["first_words"] = ((first_cpu - cpu) * 1000, (first_wall - wall) * 1000)
    stages["reply"] = ((time.process_time() - cpu) * 1000, (time.perf_counter() - wall) * 1000)
    history.append({"role": "assistant", "content": said})
    clauses = ClauseBuffer().add(said) or [said]
    _, *stages["first_clause"] = timed(engines.tts.synthesize, clauses[0])
    return stages


def wait_of(words: float, going_on: float | None, hold_ms: int, sound: float, evidence=None) -> int:
    """The silence (ms) semantic_vad (default settings) waits after a pause with these verdicts and the pause's
    evidence for the learned decision, as streaming.turns decides it: a detector is walked to its first silent
    frame and told them."""
    from streaming.turns import MIN_SPEECH_FRAMES, TurnDetection, TurnDetector
    detector = TurnDetector(TurnDetection(type="semantic_vad"))
    for probability in [1.0] * MIN_SPEECH_FRAMES + [0.0]:
        detector.process(probability)
    detector.transcript_ready(words, going_on, hold_ms, evidence)
    detector.audio_ready(sound)
    return detector.end_after_ms


def waits(engines, clips: dict[str, list[np.ndarray]]) -> dict[str, list[dict]]:
    """Each turn's verdicts at its pause and the wait they set, voice by voice."""
    from streaming.turns import TurnDetector
    turns = {}
    for voice, audios in clips.items():
        turns[voice] = []
        for text, audio in zip(REQUESTS, audios):
            heard = engines.stt.hear(audio, ())
            words, going_on, hold_ms = engines.transcription.turn_judge.judge(heard, audio.size / 16000,
                                                                              TurnDetector.words_done)
            evidence = engines.transcription.decision.evidence(heard, audio.size / 16000)
            sound = engines.turn_model.finished(audio)
            turns[voice].append({"request": text, "heard": heard.text, "words": round(words, 3),
                                 "going_on": going_on if going_on is None else round(going_on, 3),
                                 "sound": round(sound, 3), "hold_ms": hold_ms, "evidence": list(evidence.words),
                                 "wait_ms": wait_of(words, going_on, hold_ms, sound, evidence)})
    return turns


def partial_at_pause(engines, clips: dict[str, list[np.ndarray]]) -> list[tuple[float, float]]:
    """A pause that comes while a partial is being written, through the server's transcription queue: a partial of
    the audio up to 200 ms before the pause, its caller gone 10, 30 or 60 ms after it was asked for, then the
    pause's final. Per case: (the final's wall ms, CPU ms of the process until the queue is idle again)."""
    from streaming.engines import BACKGROUND
    queue = engines.transcription

    async def case(audio: np.ndarray, delay_s: float) -> tuple[float, float]:
        cpu = time.process_time()
        partial = asyncio.ensure_future(queue.transcribe(audio[:-3200], BACKGROUND))
        await asyncio.sleep(delay_s)
        partial.cancel()
        wall = time.perf_counter()
        await queue.hear(audio)
        final_ms = (time.perf_counter() - wall) * 1000
        while queue.busy:
            await asyncio.sleep(0.002)
        return final_ms, (time.process_time() - cpu) * 1000

    async def cases() -> list[tuple[float, float]]:
        return [await case(audio, delay) for voice in clips for audio in clips[voice] for delay in (0.01, 0.03, 0.06)]
    return asyncio.run(cases())


PAUSE_STEPS = ("silero_lag", "hear", "log_mel", "encoder", "beam", "forced_pass", "without_prompt", "judges")


def padded_with_silence(audio: np.ndarray, noise_rms: float) -> np.ndarray:
    """The recording followed by a second of digital silence, with white noise of noise_rms under both (a room's;
    seeded by the length, so both readings of a recording hear the same noise)."""
    padded = np.concatenate([audio, np.zeros(16000, np.float32)])
    if noise_rms:
        padded = padded + np.random.default_rng(padded.size).normal(0, noise_rms, padded.size).astype(np.float32)
    return padded


def silero_frames(engines, audio: np.ndarray, noise_rms: float = 0.0, read_levels: bool = True
                  ) -> tuple[list[float], list[int], int]:
    """Silero's probability of each 32 ms frame of the recording followed by a second of digital silence (with
    noise_rms: white noise of that RMS under both, a room's), the frames semantic_vad pauses at as the session
    decides them (Silero's frames, and where the tree has them and read_levels the frame levels), and the sample
    the words end at (the last above 0.01 in the recording without the noise)."""
    from streaming import turns
    from streaming.turns import Signal, TurnDetection, TurnDetector
    from voice.vad import SileroVAD
    vad, detector = SileroVAD(engines.vad_model), TurnDetector(TurnDetection(type="semantic_vad"))
    levels = turns.Levels() if read_levels and hasattr(turns, "Levels") else None  # before round 26: Silero alone
    padded = padded_with_silence(audio, noise_rms)
    frame = SileroVAD.frame_samples
    probabilities, pauses = [], []
    for i in range(padded.size // frame):
        x = padded[i * frame:(i + 1) * frame]
        probabilities.append(vad.probability(x))
        signal = detector.process(probabilities[-1]) if levels is None else \
            levels.step(detector, probabilities[-1], float(np.sqrt(np.mean(x * x))))
        if signal is Signal.PAUSE:
            pauses.append(i)
    return probabilities, pauses, int(np.nonzero(np.abs(audio) > 0.01)[0][-1]) + 1


def silero_lag_ms(engines, audio: np.ndarray, noise_rms: float = 0.0) -> float | None:
    """From the words' end to the end of the frame semantic_vad pauses at after them; None if it never does."""
    from voice.vad import SileroVAD
    _, pauses, words_end = silero_frames(engines, audio, noise_rms)
    end = (pauses[-1] + 1) * SileroVAD.frame_samples if pauses else 0
    return (end - words_end) / 16 if end > words_end else None


def pause_lags(engines, clips: dict[str, list[np.ndarray]], noise_rms: float) -> dict[str, dict[str, list]]:
    """Silero read alone against Silero read with the frame levels (streaming.turns.Levels), per voice: each
    recording's lag after the words, its pauses before the last (each a transcription spent), and whether the
    transcript of the audio up to the last pause has the same words both ways. Decided by the frames."""
    from voice.stt import _plain_words
    from voice.vad import SileroVAD
    frame = SileroVAD.frame_samples
    found: dict[str, dict[str, list]] = {}
    for voice, audios in clips.items():
        found[voice] = {"alone": [], "levels": [], "alone_pauses": [], "levels_pauses": [], "same": []}
        for audio in audios:
            padded = padded_with_silence(audio, noise_rms)
            last = {}
            for reading in ("alone", "levels"):
                _, pauses, words_end = silero_frames(engines, audio, noise_rms, reading == "levels")
                found[voice][reading].append(((pauses[-1] + 1) * frame - words_end) / 16)
                found[voice][f"{reading}_pauses"].append(len(pauses) - 1)
                last[reading] = pauses[-1]
            if last["alone"] != last["levels"]:
                heard = [_plain_words(engines.stt.hear(padded[:(last[reading] + 1) * frame]).text)
                         for reading in ("alone", "levels")]
                found[voice]["same"].append(heard[0] == heard[1])
    return found


def silero_drops(engines, clips: dict[str, list[np.ndarray]], levels: list[float]) -> dict[float, dict[str, list]]:
    """A start of the pause's transcript at Silero's drop, measured, not built: per level, for each recording, how
    much sooner (ms) the last frame before the pause at which the probability fell below the level (and stayed
    there) comes, whether the final of the audio up to it has the pause's words, and how many drops came back to the
    level before any pause (starts wasted)."""
    from streaming.turns import FRAME_MS
    from voice.stt import _plain_words
    from voice.vad import SileroVAD
    found: dict[float, dict[str, list]] = {level: {"sooner_ms": [], "same": [], "wasted": []} for level in levels}
    frame = SileroVAD.frame_samples
    for audios in clips.values():
        for audio in audios:
            probabilities, pauses, _ = silero_frames(engines, audio)
            padded = np.concatenate([audio, np.zeros(16000, np.float32)])
            pause = pauses[-1]
            at_pause = _plain_words(engines.stt.hear(padded[:(pause + 1) * frame]).text)
            for level, counts in found.items():
                drops = [i for i in range(1, pause) if probabilities[i] < level <= probabilities[i - 1]]
                back = [next((j for j in range(i + 1, len(probabilities)) if probabilities[j] >= level), None)
                        for i in drops]
                counts["wasted"].append(sum(b is not None and not any(i < p < b for p in pauses)
                                            for i, b in zip(drops, back)))
                early = [i for i in drops if max(probabilities[i:pause + 1]) < level]
                counts["sooner_ms"].append((pause - early[0]) * FRAME_MS if early else 0)
                if early:
                    counts["same"].append(_plain_words(engines.stt.hear(padded[:(early[0] + 1) * frame]).text)
                                          == at_pause)
    return found


def pause_steps(engines, audio: np.ndarray) -> dict[str, tuple[float, float]]:
    """(CPU ms, wall ms) of the pause's transcript and of each of its steps, as voice.stt.WhisperSTT.hear runs
    them (the decoding without the prompt only where the words echo it)."""
    import ctranslate2

    from streaming.turns import TurnDetector
    from voice.heard_names import best_hypothesis
    from voice.stt import _TOKENS_PER_S, _plain_words, _Window, echoes_prompt, log_mel
    stt, names = engines.stt, ()
    steps = {}
    heard, *steps["hear"] = timed(stt.hear, audio, names)
    seconds = audio.size / stt.sample_rate
    extractor = stt.whisper.feature_extractor

    def features():
        mel = log_mel(extractor, audio, max(stt.final_window_s, math.ceil(seconds)) * stt.sample_rate)
        return stt._band.filled(mel) if stt._band.narrow(audio) else mel
    mel, *steps["log_mel"] = timed(features)
    encoded, *steps["encoder"] = timed(lambda: stt.whisper.model.encode(
        ctranslate2.StorageView.from_array(np.ascontiguousarray(mel[None]))))
    window = _Window(encoded, audio.size // extractor.hop_length, int(16 + _TOKENS_PER_S * seconds))
    prompt = stt._prompt_for(names)[1]
    decoded, *steps["beam"] = timed(stt._generate, window, prompt, stt.final_hypotheses)
    if decoded:
        text = best_hypothesis([(h.text, h.score) for h in decoded], names)
        chosen = next(h for h in decoded if h.text == text)
        forced = stt._prompt_for(())[1][:-1]
        _, *steps["forced_pass"] = timed(stt.whisper.model.align, encoded, forced, [chosen.tokens], window.frames)
        if echoes_prompt(text, stt.prompt_text(names)):
            bare = [*stt._tokenizer.sot_sequence, stt._tokenizer.no_timestamps]
            _, *steps["without_prompt"] = timed(stt._generate, window, bare, 1)
    def judges():
        engines.transcription.decision.evidence(heard, seconds)
        return engines.transcription.turn_judge.judge(heard, seconds, TurnDetector.words_done)
    _, *steps["judges"] = timed(judges)
    assert _plain_words(heard.text) == _plain_words(text if decoded else "")
    return steps


def pause_stages(engines, clips: dict[str, list[np.ndarray]], rounds: int, noise_rms: float = 0.0
                 ) -> dict[str, list[dict]]:
    """Each turn's Silero lag (noise_rms: with a room's noise under the recording) and the pause transcript's
    steps, voice by voice, `rounds` times."""
    turns: dict[str, list[dict]] = {voice: [] for voice in clips}
    for _ in range(rounds):
        for voice, audios in clips.items():
            for audio in audios:
                steps = pause_steps(engines, audio)
                lag = silero_lag_ms(engines, audio, noise_rms)
                turns[voice].append({**steps, "silero_lag": (lag, lag)})
    return turns


def main(argv: list[str] | None = None) -> int:
    from voices import VOICES
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--voices", nargs="+", default=["piper"], choices=[*VOICES, "all"], metavar="VOICE")
    parser.add_argument("--rounds", type=int, default=3,
                        help="times each recording goes through the stages (0: only speak and keep the recordings)")
    parser.add_argument("--audio", type=Path, help="an .npz of the recordings: read when it holds them, else written")
    parser.add_argument("--profile", type=Path, help="write a cProfile of every turn's stages here")
    parser.add_argument("--json", type=Path, help="write each turn's stages (each case) here")
    parser.add_argument("--waits", action="store_true",
                        help="instead: each turn's verdicts and the silence semantic_vad waits on them")
    parser.add_argument("--partial-at-pause", action="store_true",
                        help="instead: the pause's final while a partial its caller gave up is still being written")
    parser.add_argument("--pause-stages", action="store_true",
                        help="instead: the pause transcript's time after the words, Silero's lag and each step")
    parser.add_argument("--pause-lags", action="store_true",
                        help="instead: Silero's lag read alone and with the frame levels, decided by the frames")
    parser.add_argument("--noise", type=float, default=0.0, metavar="RMS",
                        help="--pause-stages, --pause-lags: Silero's lag with white noise of this RMS (full scale 1) under the "
                             "recording and the silence after it, a room's (bench/webrtc.py streams 0.002)")
    parser.add_argument("--silero-drops", type=float, nargs="+", metavar="LEVEL",
                        help="instead: how much sooner a pause's transcript begun at Silero's drop below each level "
                             "would start, its words against the pause's, and the starts wasted")
    args = parser.parse_args(argv)
    voices = list(VOICES) if "all" in args.voices else args.voices

    from streaming.engines import Engines
    from streaming.session import Session, SessionConfig
    clips = recordings(voices, args.audio)
    if args.rounds == 0:
        return 0
    engines = Engines.load_default(assistant=not (args.partial_at_pause or args.waits or args.pause_stages
                                                  or args.silero_drops or args.pause_lags))
    if args.pause_lags:
        print(f"Silero's lag after the words (ms, p50 of {len(REQUESTS)} a voice), read alone / with the frame levels; "
              f"pauses before the last a recording (mean); the last pause's words the same both ways; noise RMS "
              f"{args.noise}")
        print("| voice | lag alone | lag with levels | pauses before the last | same words |\n|---|---|---|---|---|")
        for voice, got in pause_lags(engines, clips, args.noise).items():
            print(f"| {voice} | {statistics.median(got['alone']):.0f} | {statistics.median(got['levels']):.0f} | "
                  f"{statistics.mean(got['alone_pauses']):.2f} / {statistics.mean(got['levels_pauses']):.2f} | "
                  f"{sum(got['same'])} of {len(got['same'])} moved |")
        return 0
    if args.silero_drops:
        for level, counts in silero_drops(engines, clips, args.silero_drops).items():
            n = len(counts["sooner_ms"])
            print(f"below {level}: sooner p50 {statistics.median(counts['sooner_ms']):.0f} ms (mean "
                  f"{statistics.mean(counts['sooner_ms']):.0f}), begun early in {len(counts['same'])} of {n} "
                  f"recordings, the pause's words in {sum(counts['same'])}, starts wasted {sum(counts['wasted'])} "
                  f"({sum(counts['wasted']) / n:.2f} a recording)")
        return 0
    if args.pause_stages:
        load = os.getloadavg()[0]
        turns = pause_stages(engines, clips, args.rounds, args.noise)
        if args.json:
            args.json.write_text(json.dumps(turns))
        tree = Path(sys.modules[Engines.__module__].__file__).parent.parent
        print(f"{tree}: CPU ms, median of {args.rounds} x {len(REQUESTS)} turns a voice (wall ms in brackets; "
              f"without_prompt: the turns whose words echo the prompt, their count after the slash; Silero's lag with noise of "
              f"RMS {args.noise}); 1-minute load "
              f"{load:.1f} -> {os.getloadavg()[0]:.1f}")
        print("| voice | " + " | ".join(PAUSE_STEPS) + " |\n|" + "---|" * (len(PAUSE_STEPS) + 1))
        for voice, ts in turns.items():
            cells = []
            for step in PAUSE_STEPS:
                seen = [t[step] for t in ts if step in t and t[step][0] is not None]
                if step == "silero_lag":
                    cells.append(f"{statistics.median(c[1] for c in seen):.0f}" if seen else "-")
                    continue
                cell = f"{statistics.median(c[0] for c in seen):.1f} ({statistics.median(c[1] for c in seen):.0f})" \
                    if seen else "-"
                cells.append(cell + (f" / {len(seen)}" if step == "without_prompt" else ""))
            print(f"| {voice} | " + " | ".join(cells) + " |")
        return 0
    if args.waits:
        turns = waits(engines, clips)
        if args.json:
            args.json.write_text(json.dumps(turns))
        print("| voice | each turn's wait (ms) | median | words >= 0.9 | Smart Turn >= 0.9 / < 0.1 |\n"
              "|---|---|---|---|---|")
        for voice, ts in turns.items():
            print(f"| {voice} | {' '.join(str(t['wait_ms']) for t in ts)} | "
                  f"{statistics.median(t['wait_ms'] for t in ts):.0f} | {sum(t['words'] >= 0.9 for t in ts)} of "
                  f"{len(ts)} | {sum(t['sound'] >= 0.9 for t in ts)} / {sum(t['sound'] < 0.1 for t in ts)} |")
        return 0
    if args.partial_at_pause:
        load = os.getloadavg()[0]
        staged = partial_at_pause(engines, clips)
        if args.json:
            args.json.write_text(json.dumps(staged))
        print(f"the pause's final wall p50 {statistics.median(c[0] for c in staged):.0f} ms, CPU of the partial and "
              f"the final p50 {statistics.median(c[1] for c in staged):.0f} ms, {len(staged)} cases; 1-minute load "
              f"{load:.1f} -> {os.getloadavg()[0]:.1f}")
        return 0
    profile = cProfile.Profile() if args.profile else None
    turns: dict[str, list[dict]] = {voice: [] for voice in voices}
    load = [os.getloadavg()[0]]
    for _ in range(args.rounds):
        for voice in voices:
            session, history = Session(engines, SessionConfig()), []
            for audio in clips[voice]:
                if profile:
                    profile.enable()
                turns[voice].append(one_turn(engines, session, history, audio))
                if profile:
                    profile.disable()
    load.append(os.getloadavg()[0])
    if profile:
        profile.dump_stats(args.profile)
    if args.json:
        args.json.write_text(json.dumps(turns))
    tree = Path(sys.modules[Engines.__module__].__file__).parent.parent
    print(f"{tree}: CPU ms, median of {args.rounds} x {len(REQUESTS)} turns a voice (wall ms in brackets); "
          f"1-minute load {load[0]:.1f} -> {load[1]:.1f}")
    print("| voice | " + " | ".join(STAGES) + " |\n|" + "---|" * (len(STAGES) + 1))
    for voice in voices:
        cells = [f"{statistics.median(t[s][0] for t in turns[voice]):.1f} "
                 f"({statistics.median(t[s][1] for t in turns[voice]):.0f})" for s in STAGES]
        print(f"| {voice} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
