"""Several real `parley serve` processes behind a real HAProxy (the shipped deploy/haproxy/haproxy.cfg), for the
tests that kill, drain or restart a gateway."""
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from server_process import free_port, start_server, stop_server

REPO = Path(__file__).resolve().parent.parent
SHIPPED_HAPROXY = REPO / "deploy" / "haproxy" / "haproxy.cfg"


class GatewayProcess:
    """One `parley serve` subprocess on free loopback ports; start() again after kill() to play a restart."""

    def __init__(self, name: str, workdir: Path, store: str, *args: str, cpus: str | None = None):
        self.name = name
        self.cpus = cpus                 # pin to these cores (taskset -c), e.g. "0"
        self.workdir = Path(workdir)
        self.store = store
        self.args = args
        self.http, self.audiosocket, self.wyoming = free_port(), free_port(), free_port()
        self.url = f"http://127.0.0.1:{self.http}"
        self.log = self.workdir / f"{name}.log"
        self.state_dir = self.workdir / f"{name}-state"      # its own spool (a restart finds what it left)
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 120) -> None:
        offset = self.log.stat().st_size if self.log.exists() else 0
        self.process = start_server(
            f"gateway {self.name}",
            [*(["taskset", "-c", self.cpus] if self.cpus else []), sys.executable, "-u", "-m", "streaming.server", "--host", "127.0.0.1", "--port", str(self.http),
             "--audiosocket-port", str(self.audiosocket), "--wyoming-port", str(self.wyoming),
             "--store", self.store, "--gateway-id", self.name, *self.args],
            self.log, lambda: b"Parley is listening" in self.log.read_bytes()[offset:], timeout,
            cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO), "PARLEY_STATE_DIR": str(self.state_dir)})

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def terminate(self) -> None:
        self.process.send_signal(signal.SIGTERM)

    def pause(self) -> None:
        """SIGSTOP: a gateway that falls behind (a loaded machine); its sockets queue what comes meanwhile."""
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        self.process.send_signal(signal.SIGCONT)

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self) -> None:
        stop_server(self.process, 30)


class HAProxy:
    """HAProxy with the shipped config in front of two gateways, plus an admin socket for the tests."""

    def __init__(self, workdir: Path, gw1: GatewayProcess, gw2: GatewayProcess):
        self.workdir = Path(workdir)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}/v1/realtime"
        self.admin = self.workdir / "haproxy.sock"
        self.extra = self.workdir / "admin.cfg"
        self.extra.write_text(f"global\n    stats socket {self.admin} level admin\n")
        self.env = {**os.environ, "PARLEY_LB_HTTP": f"127.0.0.1:{self.port}",
                    "PARLEY_LB_AUDIOSOCKET": f"127.0.0.1:{free_port()}", "PARLEY_LB_WYOMING": f"127.0.0.1:{free_port()}"}
        for n, gateway in ((1, gw1), (2, gw2)):
            self.env.update({f"PARLEY_GW{n}_HOST": "127.0.0.1", f"PARLEY_GW{n}_HTTP": str(gateway.http),
                             f"PARLEY_GW{n}_AUDIOSOCKET": str(gateway.audiosocket),
                             f"PARLEY_GW{n}_WYOMING": str(gateway.wyoming)})
        self.process: subprocess.Popen | None = None
        self.log = self.workdir / "haproxy.log"

    def start(self) -> None:
        binary = shutil.which("haproxy") or "/usr/sbin/haproxy"
        if not Path(binary).exists():
            raise RuntimeError("haproxy is not installed: run `make system-deps` (Debian package haproxy)")
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen([binary, "-db", "-f", str(SHIPPED_HAPROXY), "-f", str(self.extra)],
                                            stdout=log, stderr=log, env=self.env)

    def servers_up(self, backend: str = "gateways") -> set[str]:
        """Names of the backend's servers HAProxy's health checks consider up."""
        with socket.socket(socket.AF_UNIX) as admin:
            admin.connect(str(self.admin))
            admin.sendall(b"show stat\n")
            data = b""
            while chunk := admin.recv(65536):
                data += chunk
        rows = [line.split(",") for line in data.decode().splitlines() if line and not line.startswith("#")]
        return {row[1] for row in rows if row[0] == backend and row[1] not in ("FRONTEND", "BACKEND")
                and row[17].startswith("UP")}

    def wait_for(self, up: set[str], timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"haproxy exited: {self.log.read_text()[-2000:]}")
            try:
                if self.servers_up() == up:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"haproxy did not see {up} up (sees {self.servers_up()})")

    def stop(self) -> None:
        stop_server(self.process)
