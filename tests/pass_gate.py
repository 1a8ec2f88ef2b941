"""PassGate: a test holds a model's forward passes to decide which requests share which pass."""
import asyncio
import threading


class PassGate:
    """Holds every forward pass of a model until the test lets it run (a forward pre-hook), so the test
    decides which requests share which pass."""

    def __init__(self, model):
        self.rows: list[int] = []
        self._arrived = threading.Semaphore(0)
        self._allowed = threading.Semaphore(0)
        self._open = False
        self._handle = model.register_forward_pre_hook(self._hook)

    def _hook(self, module, args):
        self.rows.append(args[0].shape[0])
        self._arrived.release()
        if not self._open:
            self._allowed.acquire()

    async def arrival(self) -> None:
        """Wait until the next pass has reached the network (and is held there)."""
        assert await asyncio.to_thread(self._arrived.acquire, True, 60), "no pass reached the network"

    def step(self) -> None:
        self._allowed.release()

    def open(self) -> None:
        self._open = True
        self._allowed.release()

    def remove(self) -> None:
        self.open()
        self._handle.remove()
