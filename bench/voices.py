"""Synthetic voices for spoken test sets: one text in seven voices, as 16 kHz float32 mono, and the phone band.

A recogniser tuned on one voice can hide its slips behind it; each voice here is a different synthesiser:
- piper: Piper's joe (the server's own voice, a neural model), without its sampling noise (in sound and in
  durations): sampled, a recording made again is another recording, so no figure on it could be reproduced;
- espeak-ng, espeak-ng low slow: the formant synthesiser at 175 words a minute, pitch 50, and at 135, pitch 25;
- festival slt hts: Festival's US female HTS voice (Debian festvox-us-slt-hts), the least robotic of these;
- festival kal: Festival's US male diphone voice (festvox-kallpc16k);
- flite rms, flite slt: flite's built-in US male and female voices.
Every voice renders a text to the same samples on every run (tests/test_voices.py). Debian packages: espeak-ng,
festival, festvox-us-slt-hts, festvox-kallpc16k, flite. `phone_band` is what a
phone line leaves of the audio: 8 kHz G.711 μ-law and back up to 16 kHz, as the Twilio and AudioSocket paths do.

    PYTHONPATH=$PWD .venv/bin/python bench/voices.py "open the roman blind"   # each voice, as Whisper hears it
    PYTHONPATH=$PWD .venv/bin/python bench/voices.py "open the roman blind" --wav bench/out/voices
"""
from __future__ import annotations

import argparse
import functools
import subprocess
import sys
import tempfile
import wave
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from paused_speech import piper  # noqa: E402
from voice.audio import float_to_pcm16, mulaw_decode, mulaw_encode, pcm16_to_float, resample  # noqa: E402

RATE = 16000


@functools.cache
def _piper():
    from voice.tts import PiperTTS
    return PiperTTS()


def _piper_voice(text: str) -> np.ndarray:
    return piper(_piper(), text, sampled=False)


def _wav_from(command: list[str], stdin: str | None = None) -> np.ndarray:
    """Run a synthesiser that writes a WAV file to the path given as its last argument; 16 kHz mono float32."""
    with tempfile.NamedTemporaryFile(suffix=".wav") as out:
        subprocess.run([*command, out.name], input=stdin, text=True, check=True, capture_output=True, timeout=60)
        with wave.open(out.name) as wav:
            rate, frames = wav.getframerate(), wav.readframes(wav.getnframes())
    return resample(pcm16_to_float(frames), rate, RATE)


def _espeak(words_per_minute: int, pitch: int):
    return lambda text: _wav_from(["espeak-ng", "-v", "en-us", "-s", str(words_per_minute), "-p", str(pitch),
                                   text, "-w"])


def _festival(voice: str):
    return lambda text: _wav_from(["text2wave", "-eval", f"({voice})", "-o"], stdin=text)


def _flite(voice: str):
    return lambda text: _wav_from(["flite", "-voice", voice, "-t", text, "-o"])


VOICES = {
    "piper": _piper_voice,
    "espeak-ng": _espeak(175, 50),
    "espeak-ng low slow": _espeak(135, 25),
    "festival slt hts": _festival("voice_cmu_us_slt_arctic_hts"),
    "festival kal": _festival("voice_kal_diphone"),
    "flite rms": _flite("rms"),
    "flite slt": _flite("slt"),
}


def speak(voice: str, text: str) -> np.ndarray:
    """text in one of VOICES, 16 kHz float32 mono."""
    return VOICES[voice](text).astype(np.float32, copy=False)


def phone_band(audio16: np.ndarray) -> np.ndarray:
    """What a phone line leaves of 16 kHz speech: 8 kHz μ-law, back at 16 kHz."""
    return resample(mulaw_decode(mulaw_encode(resample(audio16, RATE, 8000))), 8000, RATE)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("text")
    parser.add_argument("--wav", help="also write each voice and band to this folder")
    args = parser.parse_args(argv)
    from voice.stt import WhisperSTT

    stt = WhisperSTT()
    for voice in VOICES:
        wide = speak(voice, args.text)
        for band, audio in (("wideband", wide), ("phone", phone_band(wide))):
            print(f"{voice:<20} {band:<9} {audio.size / RATE:4.1f} s  {stt.transcribe(audio)!r}")
            if args.wav:
                Path(args.wav).mkdir(parents=True, exist_ok=True)
                with wave.open(str(Path(args.wav) / f"{voice.replace(' ', '_')}-{band}.wav"), "wb") as out:
                    out.setnchannels(1), out.setsampwidth(2), out.setframerate(RATE)
                    out.writeframes(float_to_pcm16(audio))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
