"""A real Mosquitto for the MQTT tests: free loopback port, hashed password file, and the shipped ACL.

The ACL is deploy/mosquitto/acl itself, so the tests check the permissions the compose stack ships.
"""
import getpass
import shutil
import socket
import subprocess
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHIPPED_ACL = REPO / "deploy" / "mosquitto" / "acl"

# The accounts the tests log in with: Parley, the home-device side, and two satellites.
USERS = {"parley": "parley-pw", "home": "home-pw", "kitchen": "kitchen-pw", "bedroom": "bedroom-pw"}


def mosquitto_binary() -> str:
    found = shutil.which("mosquitto") or ("/usr/sbin/mosquitto" if Path("/usr/sbin/mosquitto").exists() else None)
    if found is None:
        raise RuntimeError("mosquitto is not installed: run `make system-deps` (Debian package mosquitto)")
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Mosquitto:
    """One broker process; stop() and start() again on the same port to play a broker restart."""

    def __init__(self, workdir: Path, users: dict[str, str] = USERS, acl: Path = SHIPPED_ACL):
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
            f"user {getpass.getuser()}\n"   # run as root, Mosquitto would switch to a user that cannot read these files
        )
        self.log = self.workdir / "mosquitto.log"

    def start(self) -> None:
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen([mosquitto_binary(), "-c", str(self.config)], stdout=log, stderr=log)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"mosquitto exited: {self.log.read_text()[-2000:]}")
            try:
                socket.create_connection((self.host, self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("mosquitto did not open its port")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        self.process = None
