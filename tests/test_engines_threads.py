"""The engines' threads: numpy's matrix products stay on the thread that asks for them, a transcription nobody
waits for any more stops, and a final never waits for a worker held by partials."""
import asyncio
import threading
import time

from streaming.engines import _OPENBLAS_SETTERS, BACKGROUND, URGENT, openblas_libraries


def test_the_engines_keep_numpy_products_on_the_calling_thread(engines):
    """Whisper's and Smart Turn's features run on their own threads; OpenBLAS's spinning helpers would take a
    core from them."""
    getters = [getattr(library, name.replace("_set_", "_get_")) for library in openblas_libraries()
               for name in _OPENBLAS_SETTERS if hasattr(library, name)]
    assert getters, "numpy's OpenBLAS is loaded in this process"
    assert all(get() == 1 for get in getters)


async def test_a_transcription_job_learns_that_its_caller_gave_up(engines):
    """The queue's job is told when the session cancels the job it waits on, even once a worker has started it."""
    started, seen = threading.Event(), threading.Event()

    def job(abandoned) -> None:
        started.set()
        for _ in range(500):
            if abandoned():
                seen.set()
                return
            time.sleep(0.01)
    waiting = asyncio.ensure_future(engines.transcription._queue(URGENT, job))
    assert await asyncio.to_thread(started.wait, 5)
    waiting.cancel()
    assert await asyncio.to_thread(seen.wait, 5)


async def test_a_final_is_served_while_partials_hold_their_thread(engines):
    """Partials run on their own low-priority thread: with one running and more queued behind it (several
    sessions talking), a pause's final is still taken at once by a finals' worker."""
    started, release = threading.Event(), threading.Event()

    def partial(abandoned) -> str:
        started.set()
        release.wait(120)
        return "partial"
    partials = [asyncio.ensure_future(engines.transcription._queue(BACKGROUND, partial)) for _ in range(3)]
    assert await asyncio.to_thread(started.wait, 60)      # the pause comes while a partial is being written
    final = asyncio.ensure_future(engines.transcription._queue(URGENT, lambda abandoned: "final"))
    try:
        done, _ = await asyncio.wait([final], timeout=60)
        assert final in done and final.result() == "final"
        assert not any(p.done() for p in partials)
    finally:
        release.set()
    assert await asyncio.gather(*partials) == ["partial"] * 3
