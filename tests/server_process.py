"""The real servers tests start as child processes (Mosquitto, Redis, `parley serve`): a free loopback port,
output appended to a log file, and a wait until the server answers that reports the log when it never does."""
import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(name: str, argv: list[str], log: Path, ready: Callable[[], bool], timeout: float = 10,
                 **popen) -> subprocess.Popen:
    """Start argv with stdout and stderr appended to `log`; return once ready() is true (an OSError counts as
    not yet). Raises with the log's tail if the process exits first or does not get ready in time."""
    with open(log, "ab") as out:
        process = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, **popen)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{name} exited: {log.read_text()[-3000:]}")
        try:
            if ready():
                return process
        except OSError:
            pass
        time.sleep(0.05)
    stop_server(process)
    raise RuntimeError(f"{name} did not get ready in {timeout:g} s: {log.read_text()[-3000:]}")


def stop_server(process: subprocess.Popen | None, timeout: float = 10) -> None:
    """SIGTERM, then SIGKILL if it has not exited within timeout; nothing if it is not running."""
    if process is None or process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(10)
