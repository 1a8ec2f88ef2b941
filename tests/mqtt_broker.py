"""A real Mosquitto for the MQTT tests: free loopback port, hashed password file, and the shipped ACL.

The ACL is deploy/mosquitto/acl itself, so the tests check the permissions the compose stack ships.
"""
import asyncio
import contextlib
import getpass
import shutil
import socket
import subprocess
from pathlib import Path

from server_process import free_port, start_server, stop_server

REPO = Path(__file__).resolve().parent.parent
SHIPPED_ACL = REPO / "deploy" / "mosquitto" / "acl"

# The accounts the tests log in with: Parley, the home-device side, and four satellites.
USERS = {"parley": "parley-pw", "home": "home-pw", "kitchen": "kitchen-pw", "bedroom": "bedroom-pw",
         "hall": "hall-pw", "porch": "porch-pw"}


def mosquitto_binary() -> str:
    found = shutil.which("mosquitto") or ("/usr/sbin/mosquitto" if Path("/usr/sbin/mosquitto").exists() else None)
    if found is None:
        raise RuntimeError("mosquitto is not installed: run `make system-deps` (Debian package mosquitto)")
    return found


class Mosquitto:
    """One broker process; stop() and start() again on the same port to play a broker restart."""

    def __init__(self, workdir: Path, users: dict[str, str] = USERS, acl: Path = SHIPPED_ACL, tls: bool = False):
        self.workdir = Path(workdir)
        self.port = free_port()
        self.host = "127.0.0.1"
        self.process: subprocess.Popen | None = None
        passwd = self.workdir / "passwd"
        passwd.write_text("".join(f"{user}:{password}\n" for user, password in users.items()))
        subprocess.run(["mosquitto_passwd", "-U", str(passwd)], check=True, capture_output=True)
        passwd.chmod(0o600)
        self.config = self.workdir / "mosquitto.conf"
        self.config.write_text(
            f"listener {self.port} {self.host}\n"
            "allow_anonymous false\n"
            f"password_file {passwd}\n"
            f"acl_file {acl}\n"
            "persistence false\n"
            "set_tcp_nodelay true\n"
            f"user {getpass.getuser()}\n"   # run as root, Mosquitto would switch to a user that cannot read these files
        )
        self.ca_file: Path | None = None
        if tls:
            self.ca_file, cert, key = make_certificates(self.workdir)
            with open(self.config, "a") as config:
                config.write(f"cafile {self.ca_file}\ncertfile {cert}\nkeyfile {key}\n")
        self.log = self.workdir / "mosquitto.log"

    def start(self) -> None:
        def port_open() -> bool:
            socket.create_connection((self.host, self.port), timeout=0.2).close()
            return True
        self.process = start_server("mosquitto", [mosquitto_binary(), "-c", str(self.config)], self.log, port_open)

    def stop(self) -> None:
        stop_server(self.process)
        self.process = None



class HalfStalledPath:
    """A TCP hop on loopback between one client and the broker that can stop carrying what the client sends while
    it still carries what the broker sends: a half-stalled path (a broker that writes but no longer reads). Its
    buffers are small, so the client's own send buffer fills after a few KiB. A stall holds the connections open
    at the time; connections made later are carried both ways."""

    BUFFER = 4096

    def __init__(self, broker: Mosquitto):
        self.broker = broker
        self.host = "127.0.0.1"
        self.port = 0
        self._server: asyncio.Server | None = None
        self._open: list[asyncio.Event] = []      # per connection: set while what the client sends is carried
        self._tasks: set[asyncio.Task] = set()

    async def start(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, self.BUFFER)   # inherited by accepted sockets
        listener.bind((self.host, 0))
        self._server = await asyncio.start_server(self._carry, sock=listener, limit=self.BUFFER)
        self.port = listener.getsockname()[1]

    def stall(self) -> None:
        for carrying in self._open:
            carrying.clear()

    def resume(self) -> None:
        for carrying in self._open:
            carrying.set()

    async def close(self) -> None:
        self._server.close()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _carry(self, client_reader, client_writer) -> None:
        broker_reader, broker_writer = await asyncio.open_connection(self.broker.host, self.broker.port)
        carrying = asyncio.Event()
        carrying.set()
        self._open.append(carrying)

        async def pipe(reader, writer, gate: asyncio.Event | None):
            try:
                while data := await reader.read(self.BUFFER):
                    if gate is not None:
                        await gate.wait()
                    writer.write(data)
                    await writer.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                writer.close()
                with contextlib.suppress(ConnectionError, OSError):   # the other direction ends with it
                    await writer.wait_closed()

        pipes = [asyncio.create_task(pipe(client_reader, broker_writer, carrying)),
                 asyncio.create_task(pipe(broker_reader, client_writer, None))]
        self._tasks.update(pipes)
        await asyncio.wait(pipes, return_when=asyncio.FIRST_COMPLETED)
        for task in pipes:
            task.cancel()
        self._open.remove(carrying)
        for writer in (client_writer, broker_writer):
            writer.close()


def make_certificates(workdir: Path) -> tuple[Path, Path, Path]:
    """A throwaway CA and a server certificate for 127.0.0.1 signed by it (openssl CLI, EC keys)."""
    ca_key, ca, key, request, cert = (workdir / name for name in ("ca.key", "ca.crt", "server.key", "server.csr", "server.crt"))
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    run = lambda *args: subprocess.run(["openssl", *args], check=True, capture_output=True)  # noqa: E731
    run("req", "-x509", *ec, "-keyout", str(ca_key), "-out", str(ca), "-days", "2", "-subj", "/CN=Parley test CA")
    run("req", *ec, "-keyout", str(key), "-out", str(request), "-subj", "/CN=127.0.0.1")
    extensions = workdir / "san.cnf"
    extensions.write_text("subjectAltName=IP:127.0.0.1\n")
    run("x509", "-req", "-in", str(request), "-CA", str(ca), "-CAkey", str(ca_key), "-CAcreateserial",
        "-out", str(cert), "-days", "2", "-extfile", str(extensions))
    return ca, cert, key
