"""A real Redis (Debian's redis-server) on a free loopback port, with no persistence, for the store tests."""
import shutil
import socket
import subprocess
from pathlib import Path

from server_process import free_port, start_server, stop_server


class RedisServer:
    def __init__(self, workdir: Path):
        self.workdir = Path(workdir)
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None
        self.log = self.workdir / "redis.log"

    def start(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise RuntimeError("redis-server is not installed: run `make system-deps` (Debian package redis-server)")

        def pong() -> bool:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as conn:
                conn.sendall(b"PING\r\n")
                return conn.recv(16).startswith(b"+PONG")
        self.process = start_server(
            "redis-server", [binary, "--bind", "127.0.0.1", "--port", str(self.port), "--save", "", "--appendonly",
                             "no", "--dir", str(self.workdir)], self.log, pong)

    def stop(self) -> None:
        stop_server(self.process)
        self.process = None
