"""Speech engines on the real embedded models: Piper TTS, Silero VAD, faster-whisper STT.

Speech comes from Piper itself and, for a second voice, from espeak-ng.
"""

import os
import re
import shutil
import subprocess
import sys
import wave
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from assistant.home import InMemoryHome
from assistant.tools import ToolRunner
from paused_speech import espeak, flite
from voice.audio import alaw_decode, alaw_encode, mulaw_decode, mulaw_encode, pcm16_to_float, resample
from voice.stt import PARTIAL_NICE, PHONE_OCTAVE_DROP, Heard, StableWords, WhisperSTT, trim_repeats
from voice.tts import ClauseBuffer, CoquiTTS, KeptShort, normalize_for_speech, split_clauses
from voice.vad import SileroVAD

LEAD_S, TAIL_S = 0.3, 0.5      # what the session hands STT: prefix padding before speech, silence after


def words(text: str) -> list[str]:
    return re.sub(r"[^\w\s.]|\.(?!\d)", " ", text.lower()).split()


def padded(audio_16k: np.ndarray) -> np.ndarray:
    return np.concatenate([np.zeros(int(LEAD_S * 16000), np.float32), audio_16k,
                           np.zeros(int(TAIL_S * 16000), np.float32)])


def piper_16k(tts, text: str) -> np.ndarray:
    return resample(tts.synthesize(text), tts.sample_rate, 16000)


def espeak_16k(text: str, tmp_path) -> np.ndarray:
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed (make system-deps)")
    path = tmp_path / "espeak.wav"
    subprocess.run(["espeak-ng", "-w", str(path), text], check=True, timeout=30)
    with wave.open(str(path)) as w:
        rate, audio = w.getframerate(), pcm16_to_float(w.readframes(w.getnframes()))
    return resample(audio, rate, 16000)


# --- TTS ------------------------------------------------------------------------------------------


def test_piper_speaks_at_the_voice_rate_for_a_plausible_duration(tts):
    assert tts.sample_rate == 22050
    audio = tts.synthesize("Turn on the kitchen light.")
    assert audio.dtype == np.float32 and audio.ndim == 1
    seconds = len(audio) / tts.sample_rate
    assert 0.8 < seconds < 4.0
    assert 0.05 < np.max(np.abs(audio)) <= 1.0
    longer = tts.synthesize("Turn on the kitchen light, and then set the thermostat to twenty one degrees.")
    assert len(longer) > 2 * len(audio)


def test_piper_returns_empty_audio_for_empty_text(tts):
    assert len(tts.synthesize("")) == 0


def test_split_clauses_at_sentence_ends_and_long_commas():
    assert split_clauses("Sure. The kitchen light is on.") == ["Sure.", "The kitchen light is on."]
    assert split_clauses("Done! It's 21.5 degrees in the bedroom.") == ["Done!", "It's 21.5 degrees in the bedroom."]
    assert split_clauses("I turned on the kitchen light, and set the thermostat to 21 degrees.") == [
        "I turned on the kitchen light,", "and set the thermostat to 21 degrees."]
    assert split_clauses("Sure, done.") == ["Sure, done."]              # too short to split at the comma
    assert split_clauses("Okay, the kitchen light is on.") == ["Okay,", "the kitchen light is on."]  # early audio
    assert split_clauses("It is on. Yes, it is on now.") == ["It is on.", "Yes, it is on now."]
    assert split_clauses("It's 3 p.m. now. OK?") == ["It's 3 p.m. now.", "OK?"]
    assert split_clauses("That is 1,000 watts at 3:45 today.") == ["That is 1,000 watts at 3:45 today."]
    assert split_clauses('"Hi." Then  ') == ['"Hi."', "Then"]
    assert split_clauses("   ") == []


def test_clause_buffer_speaks_each_clause_once_complete():
    buffer = ClauseBuffer()
    assert buffer.add("The kitchen ") == []
    assert buffer.add("light is on. Good") == ["The kitchen light is on."]
    assert buffer.add(" night! It's 3 p.m. now") == ["Good night!"]     # "p.m. now" does not end a sentence
    assert buffer.flush() == ["It's 3 p.m. now"]
    assert buffer.flush() == []


def test_short_texts_are_spoken_once_and_kept(tts):
    kept = KeptShort(tts)
    opening = kept.synthesize("Okay,")
    assert kept.synthesize("Okay,") is opening and not opening.flags.writeable and opening.size > 0
    long = "The garage temperature is 22.5 degrees."
    assert kept.synthesize(long) is not kept.synthesize(long)             # seldom said twice: spoken anew


def test_normalize_for_speech_fixes_what_espeak_misreads():
    assert normalize_for_speech("7 x 6 is 42") == "7 times 6 is 42"
    assert normalize_for_speech("at 10:05 am") == "at 10 oh 5 am"
    assert normalize_for_speech("at 7:00") == "at 7 o'clock"
    assert normalize_for_speech("at 7:00 pm") == "at 7 pm"
    assert normalize_for_speech("it is 22°C") == "it is 22 degrees Celsius"
    assert normalize_for_speech("costs $5") == "costs 5 dollars"
    assert normalize_for_speech("It's 3:45 pm and 21.5 degrees, 50%.") == "It's 3:45 pm and 21.5 degrees, 50%."


@pytest.mark.parametrize("text, expected", [
    ("It's 42.", [["42"], ["forty", "two"]]),
    ("It is 21.5 degrees.", [["21.5"], ["twenty", "one", "point", "five"]]),
    ("The alarm is set for 3:45 pm.", [["3.45"], ["3:45"], ["345"], ["three", "forty", "five"]]),
    ("7 x 6 is 42.", [["7", "times", "6"], ["seven", "times", "six"]]),
])
def test_piper_speaks_numbers_so_that_they_are_understood(tts, stt, text, expected):
    heard = " ".join(words(stt.transcribe(padded(piper_16k(tts, text)))))
    assert any(" ".join(option) in heard for option in expected), heard


def test_coqui_backend_says_how_to_install_it_when_missing():
    try:
        import TTS  # noqa: F401
        pytest.skip("coqui-tts is installed here")
    except ImportError:
        pass
    with pytest.raises(RuntimeError, match=r"parley-voice\[coqui\]"):
        CoquiTTS()


# --- VAD ------------------------------------------------------------------------------------------

def frames(audio_16k: np.ndarray) -> np.ndarray:
    n = len(audio_16k) // SileroVAD.frame_samples
    return audio_16k[:n * SileroVAD.frame_samples].reshape(n, SileroVAD.frame_samples)


def test_vad_silence_is_low_and_speech_is_high(vad_model, tts):
    vad = SileroVAD(vad_model)
    silence = [vad.probability(f) for f in frames(np.zeros(16000, np.float32))]
    assert max(silence) < 0.1
    rng = np.random.default_rng(0)
    hiss = [vad.probability(f) for f in frames(0.005 * rng.standard_normal(16000).astype(np.float32))]
    assert max(hiss) < 0.5
    speech = [vad.probability(f) for f in frames(piper_16k(tts, "Turn on the kitchen light please."))]
    assert max(speech) > 0.9
    assert np.mean(np.array(speech) > 0.5) > 0.6


def test_vad_instances_sharing_a_model_keep_separate_state(vad_model, tts):
    speech = frames(piper_16k(tts, "What is seven times six?"))
    quiet = frames(np.zeros(len(speech) * SileroVAD.frame_samples, np.float32))
    alone = SileroVAD(vad_model)
    expected = [alone.probability(f) for f in speech]

    a, b = SileroVAD(vad_model), SileroVAD(vad_model)
    interleaved = []
    for s, q in zip(speech, quiet):
        interleaved.append(a.probability(s))
        b.probability(q)
    assert np.allclose(interleaved, expected, atol=1e-5)

    alone.reset()
    assert np.allclose([alone.probability(f) for f in speech], expected, atol=1e-5)


def test_vad_rejects_wrong_frame_size(vad_model):
    with pytest.raises(ValueError, match="512"):
        SileroVAD(vad_model).probability(np.zeros(480, np.float32))


# --- STT ------------------------------------------------------------------------------------------

def test_stt_transcribes_piper_speech(stt, tts):
    heard = words(stt.transcribe(padded(piper_16k(tts, "what is seven times six"))))
    assert heard[0] == "what"
    assert ("seven" in heard or "7" in heard) and ("six" in heard or "6" in heard) and "times" in heard


def phone_line(audio_16k: np.ndarray, encode, decode) -> np.ndarray:
    """What a G.711 phone line leaves of 16 kHz speech, heard at 16 kHz again, as the phone transports hear it."""
    return resample(decode(encode(resample(audio_16k, 16000, 8000))), 8000, 16000)


def test_stt_tells_phone_band_audio_from_wideband(stt, tmp_path):
    wide = padded(espeak_16k("shut the fish tank heater off", tmp_path))
    assert not stt._band.narrow(wide)
    assert stt._band.narrow(phone_line(wide, mulaw_encode, mulaw_decode))
    assert stt._band.narrow(phone_line(wide, alaw_encode, alaw_decode))
    assert not stt._band.narrow(np.zeros(16000, np.float32))       # silence is no band at all


def test_stt_fills_the_top_octave_a_phone_line_left_empty(stt, tmp_path):
    phone = phone_line(padded(espeak_16k("is the sauna still warming up", tmp_path)), mulaw_encode, mulaw_decode)
    features = stt.whisper.feature_extractor(phone, padding=0)
    filled = stt._band.filled(features)
    top, below = stt._band.top, stt._band.below
    assert filled[top].mean() > features[top].mean() + 0.1
    assert np.all(filled[top] >= features[below] - PHONE_OCTAVE_DROP - 1e-6)
    assert np.array_equal(filled[:top[0]], features[:top[0]])      # the band the line carried is as heard


def test_stt_hears_a_phone_call_request(stt, tmp_path):
    heard = words(stt.transcribe(phone_line(padded(espeak_16k("switch off the bedroom fan", tmp_path)),
                                            mulaw_encode, mulaw_decode)))
    assert {"switch", "off", "fan"} <= set(heard)


def test_stt_doubts_a_word_it_wrote_with_little_probability(stt):
    # flite's voice is the same audio every run (Piper samples: one run heard "Set it past a timer")
    heard = stt.hear(padded(flite("start a pasta timer for twelve minutes", "rms")))
    assert "pasta" in words(heard.text) and heard.word_probabilities
    assert {"pasta", "timer"}.isdisjoint(heard.unsure_words())          # a clear voice: sure of its label
    # "A partly timer for 45 minutes." for "hey parley timer ...", as Whisper wrote it for flite's rms voice
    doubted = Heard("A partly timer.", (("A", 0.24), ("partly", 0.22), ("timer", 0.98), (".", 0.98)))
    assert doubted.unsure_words() == {"a", "partly"}
    assert Heard("A partly timer.").unsure_words() == frozenset()        # no probabilities: nothing known
    # espeak-ng's "start a rice timer" as Whisper wrote it: "right" doubted (a timer so named is asked), not unsure
    right = Heard("Start at the right timer.", (("Start", 0.91), ("at", 0.26), ("the", 0.55), ("right", 0.59),
                                                ("timer", 0.96), (".", 0.96)))
    assert right.unsure_words() == {"at"} and right.doubted_words() == {"at", "the", "right"}
    assert right.doubted_change_words() == {"at"}             # a change rests on a word only below its lower line


def test_stt_doubts_a_number_it_wrote_with_little_probability(stt):
    # flite's slt voice: "six forty five" heard as "4645" at 0.42; rms's "fifteen" as "15" at 0.91 (a clear number)
    doubted = stt.hear(padded(flite("set an alarm for six forty five", "slt")))
    assert doubted.unsure_numbers() and doubted.unsure_numbers() <= set(re.findall(r"\d+", doubted.text))
    assert stt.hear(padded(flite("set a timer for fifteen minutes", "rms"))).unsure_numbers() == frozenset()
    heard = Heard("Set an alarm for 645.", (("Set", 0.9), ("an", 0.9), ("alarm", 0.9), ("for", 0.8), ("645", 0.3)))
    assert heard.unsure_numbers() == {"645"} and heard.unsure_words() == frozenset()     # 0.3: doubted as a number only
    assert Heard("What is 7 times 5?", (("7", 0.74), ("5", 0.96))).unsure_numbers() == frozenset()


def test_a_sign_whisper_writes_onto_a_number_is_no_doubt_of_it(stt):
    """"thirty percent" written "30%": Whisper's doubt of the "%" token (against "percent") is how it writes the
    words, not what it heard; the doubts read the said probabilities, the words' own keep it."""
    tokens = stt._tokenizer.encode(" Mushroom lamp at 30%, please.")
    pieces = [stt._tokenizer.decode([t]) for t in tokens]
    probabilities = [0.2 if not any(c.isalnum() for c in piece) else 0.95 for piece in pieces]
    written, said = stt._word_probabilities(tokens, probabilities)
    assert [w for w, _ in written] == [w for w, _ in said]
    assert dict(written)["30%,"] == 0.2 and dict(said)["30%,"] == 0.95     # "%," is one token
    heard = Heard("Mushroom lamp at 30%, please.", written, said_probabilities=said)
    assert heard.unsure_numbers() == frozenset() and heard.doubted_change_words() == frozenset()
    assert Heard(heard.text, written).unsure_numbers() == {"30"}


def test_stt_asks_the_audio_which_of_the_homes_names_was_said(stt):
    """A final that names none of the home's names, or only guesses one, is forced on its audio again with the
    names that sound most like its words put in: a name the audio prefers clearly is put in, one it finds about as
    likely is a guess the assistant asks about, and an unknown name stays as heard (espeak-ng and flite: the same
    audio every run)."""
    from made_up_home import made_up_inventory
    from test_heard_names import NAMES as DISCOVERED

    made_up = ToolRunner(InMemoryHome(inventory=made_up_inventory())).spoken_names()
    taken = stt.hear(padded(espeak("turn on the samovar")), DISCOVERED)      # heard "Turn on the sand with fire."
    assert words(taken.text) == ["turn", "on", "the", "samovar"] and taken.guessed == ()
    assert taken.put_in == ("samovar",) and "samovar" not in taken.doubted_words()   # the audio chose it: no doubt
    guessed = stt.hear(padded(espeak("fire up the kiln")), made_up)         # heard "Fire up the keel."
    assert words(guessed.text) == ["fire", "up", "the", "kiln"] and guessed.guessed == (("kiln", "keel"),)
    for unknown in (espeak("open the chapel blinds"), flite("switch off the porch light")):     # neither is here
        heard = stt.hear(padded(unknown), made_up)
        assert heard.put_in == () and heard.guessed == () and not {"roman", "picture"} & set(words(heard.text))


def test_stt_keeps_word_probabilities_of_a_final_cut_by_repetition_trimming(stt):
    # Said twice, the final is cut to one copy: its words still carry probabilities, so a doubted one can be said
    # back (the decoding's own tokens spell the uncut text)
    heard = stt.hear(padded(flite("turn on the kitchen light, turn on the kitchen light", "rms")))
    assert words(heard.text) == ["turn", "on", "the", "kitchen", "light"]
    assert [w for w, _ in heard.word_probabilities if w not in ".,"] == ["Turn", "on", "the", "kitchen", "light"]
    assert all(0 < p <= 1 for _, p in heard.word_probabilities)


def test_stt_places_the_last_word_in_the_audio(stt):
    # The alignment's last word: "minutes" in the whole sentence, later than "twelve" in the same audio cut there
    audio = flite("start a pasta timer for twelve minutes", "rms")
    whole = stt.hear(padded(audio))
    cut = stt.hear(padded(audio[:int(0.62 * audio.size)]))
    assert words(whole.text)[-1] == "minutes"
    assert 0 < whole.last_word_start_s < whole.last_word_end_s <= LEAD_S + audio.size / 16000 + TAIL_S
    assert cut.last_word_start_s < whole.last_word_start_s
    assert Heard("Stop.").last_word_start_s is None                     # no alignment: nothing known


@pytest.mark.parametrize("hypothesis, kept", [
    ("What time is it? What time is it? What t", "What time is it?"),
    ("Stop. Stop. Stop.", "Stop."),
    ("Please set the living room. Please set the living room. Please set the living room room. Please set the",
     "Please set the living room."),
    ("Turn on the light. Set the thermostat. Set the thermostat.", "Turn on the light. Set the thermostat."),
    ("No, no, turn it off.", "No, no, turn it off."),                        # said twice on purpose
    ("Thank you, thank you.", "Thank you, thank you."),
    ("Turn on the kitchen light and the hallway light.", "Turn on the kitchen light and the hallway light."),
])
def test_whisper_decoding_loops_are_cut_to_one_copy(hypothesis, kept):
    assert trim_repeats(hypothesis) == kept


def test_stable_words_only_emit_what_two_hypotheses_agree_on():
    words = StableWords()
    assert words.update("turn on") == ""
    assert words.update("turn on the kitchen") == "turn on"
    assert words.update("turn on the kitchen light") == "the kitchen"
    assert words.update("turn off") == ""             # disagreement: nothing retracted, nothing added
    assert words.finish("Turn on, the kitchen light.") == "light."   # punctuation and case do not matter
    assert StableWords().finish("hello") == "hello"


@pytest.mark.parametrize("voice", ["rms", "slt"])
def test_stt_hears_a_one_word_request_once_in_the_finals_window(stt, tmp_path, voice):
    # A window much longer than the speech leaves Whisper room to loop ("Stop. Stop. Stop.") or to go on
    # writing its prompt; the final and the pause's transcript must hold the word once.
    for speech in (padded(flite("stop", voice)), padded(espeak_16k("stop", tmp_path))):
        assert speech.size < stt.final_window_s * 16000 / 4             # the window is mostly silence
        assert words(stt.hear(speech).text) == ["stop"]
        assert words(stt.transcribe(speech)) == ["stop"]


def test_stt_hears_a_request_longer_than_the_finals_window_whole(stt):
    said = ("open the garage door, close the curtains in the study, switch off the porch light, dim the hall "
            "lights, lock the back door and then play some jazz music in the kitchen please")
    speech = padded(flite(said, "rms"))
    assert speech.size > (stt.final_window_s + 1) * 16000              # longer than the window by a second
    heard = words(stt.hear(speech).text)
    assert heard[:4] == ["open", "the", "garage", "door"]
    assert heard[-5:] == ["music", "in", "the", "kitchen", "please"]


def test_stt_transcribes_a_second_voice_from_espeak(stt, tmp_path):
    heard = words(stt.transcribe(padded(espeak_16k("turn on the kitchen light", tmp_path))))
    assert heard == ["turn", "on", "the", "kitchen", "light"]


def test_stt_expects_the_names_it_is_given(stt, tmp_path):
    speech = padded(espeak_16k("can you unlock the wicket gate", tmp_path))
    names = ("orangery", "snug", "wicket gate", "strongroom door", "jukebox")
    assert words(stt.transcribe(speech, names=names)) == ["can", "you", "unlock", "the", "wicket", "gate"]
    assert "wicked" in words(stt.transcribe(speech))         # the fixed prompt alone: the test measures something


def test_stt_keeps_only_the_names_that_fit_whispers_prompt(stt):
    many = tuple(f"name number {n}" for n in range(200))
    text, tokens = stt._prompt_for(many)
    assert text.startswith("Name number 0, name number 1, ") and text.endswith(stt.prompt)
    assert stt.prompt_text(many) == text
    start = stt._tokenizer.sot_sequence            # start of transcript, language, task
    assert "name number 199" not in text and len(tokens) <= 1 + 223 + len(start) + 1     # + previous-text, no-timestamps


def test_stt_with_the_shipped_base_model_hears_a_request(tts):
    base = WhisperSTT("base")
    assert base.whisper.model.is_multilingual
    heard = base.transcribe(padded(piper_16k(tts, "set the samovar to on")), names=("samovar", "parlour"))
    assert words(heard) == ["set", "the", "samovar", "to", "on"]


def test_stt_names_the_shipped_models_when_given_another():
    with pytest.raises(ValueError, match="tiny.en, base"):
        WhisperSTT("large")


def test_stt_partial_transcript_of_a_growing_buffer(stt, tts):
    speech = padded(piper_16k(tts, "turn off all the lights in the living room please"))
    half = int(LEAD_S * 16000) + (len(speech) - int((LEAD_S + TAIL_S) * 16000)) // 2
    early = words(stt.transcribe(speech[:half], partial=True))
    full = words(stt.transcribe(speech, partial=True))
    assert "lights" in early and "please" not in early
    assert full[-4:] == ["the", "living", "room", "please"]


def thread_nices() -> dict[str, int]:
    """Each of this process's threads' nice value (Linux: /proc/self/task/*/stat)."""
    nices = {}
    for tid in os.listdir("/proc/self/task"):
        with open(f"/proc/self/task/{tid}/stat") as stat:
            nices[tid] = int(stat.read().rsplit(")", 1)[1].split()[16])
    return nices


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="thread priorities are Linux's")
def test_stt_partials_run_on_a_thread_that_yields_to_the_finals():
    """As the server loads it: two threads for finals at the process's own priority, one for partials at the
    lowest, so a moot partial still running at a pause takes no CPU that the pause's final could use."""
    before = thread_nices()
    loaded = WhisperSTT(cpu_threads=1, num_workers=2)
    started = sorted(nice for tid, nice in thread_nices().items() if tid not in before)
    own = os.getpriority(os.PRIO_PROCESS, 0)
    # (the thread that loaded the partials' model, at their priority, may not have left the list yet)
    assert started.count(own) == 2 and set(started) == {own, PARTIAL_NICE} and own < PARTIAL_NICE
    assert loaded.transcribe(np.zeros(1600, np.float32), partial=True) == ""


def test_stt_partials_on_their_own_model_read_as_on_the_finals_model(stt, tts):
    """The partials' model is the finals' weights and threads: each partial of a growing buffer is the text
    the finals' model decodes, so moving them changes no transcript delta."""
    speech = padded(piper_16k(tts, "set the thermostat to twenty one degrees"))
    own = stt._partial_model
    for end in (speech.size // 4, speech.size // 2, 3 * speech.size // 4, speech.size):
        partial = stt.transcribe(speech[:end], partial=True)
        stt._partial_model = stt.whisper.model
        try:
            assert stt.transcribe(speech[:end], partial=True) == partial
        finally:
            stt._partial_model = own
    assert words(partial)[-2:] == ["21", "degrees"]


def test_stt_stops_a_transcription_nobody_waits_for_at_its_next_step(stt, tts):
    """A partial the pause made moot, or a pause's final once the user goes on: abandoned() is read before the
    encoder and before the decoder, and the work stops there with nothing heard."""
    speech = padded(piper_16k(tts, "turn off the bedroom fan"))
    asked = []

    def after(steps: int):
        return lambda: asked.append(None) or len(asked) > steps
    assert stt.transcribe(speech, partial=True, abandoned=after(0)) == "" and len(asked) == 1
    asked.clear()
    assert stt.hear(speech, abandoned=after(1)) == Heard("") and len(asked) == 2      # encoded, not decoded
    asked.clear()
    heard = stt.hear(speech, abandoned=after(3))
    assert words(heard.text) == ["turn", "off", "the", "bedroom", "fan"] and heard.word_probabilities
    assert len(asked) == 3


def test_stt_returns_nothing_for_silence_and_noise(stt):
    assert stt.transcribe(np.zeros(32000, np.float32)) == ""
    rng = np.random.default_rng(0)
    assert stt.transcribe(0.01 * rng.standard_normal(32000).astype(np.float32)) == ""
    assert stt.transcribe(np.zeros(800, np.float32)) == ""


def test_stt_serves_concurrent_sessions_without_mixing(stt, tts):
    clips = {"turn on the kitchen light": padded(piper_16k(tts, "turn on the kitchen light")),
             "what time is it": padded(piper_16k(tts, "what time is it"))}
    jobs = list(clips.items()) * 3
    with ThreadPoolExecutor(3) as pool:
        results = list(pool.map(lambda job: words(stt.transcribe(job[1])), jobs))
    for (text, _), heard in zip(jobs, results):
        assert heard[-2:] == text.split()[-2:], (text, heard)
