"""Shared fixtures. The speech engines load once per test session and are shared, as in the server."""

import pytest


@pytest.fixture(scope="session")
def stt():
    from voice.stt import WhisperSTT

    return WhisperSTT()


@pytest.fixture(scope="session")
def tts():
    from voice.tts import PiperTTS

    return PiperTTS()


@pytest.fixture(scope="session")
def vad_model():
    from voice.vad import SileroModel

    return SileroModel()
