"""The venue's broker (Debian's mosquitto): its config, passwords, ACL, and running it.

``write_config`` writes into one folder: ``mosquitto.conf``, ``passwd`` (hashed
by ``mosquitto_passwd``), ``acl`` and ``credentials.json`` (every password, for
the organiser) plus ``credentials/<table>.json`` (one table's own password, to
copy to that table's computer) and ``credentials/desk.json``. The broker is
started with ``mosquitto -c <folder>/mosquitto.conf``. ``Mosquitto`` runs it
for the tests, the demo and the benchmark on a free 127.0.0.1 port.
"""

from __future__ import annotations

import getpass
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

from futmesa import children
from futmesa.venue.mqtt import DESK_USER, PREFIX, VenueConfigError

TABLE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")

ACL = f"""# futmesa venue ACL: written by `futmesa venue broker-config`
# the desk reads every table and is the only one that assigns matches
user {DESK_USER}
topic readwrite {PREFIX}/#

# every table (its user name is its table id) writes only its own topics
# and reads only its own assignment and acknowledgements
pattern write {PREFIX}/table/%u/#
pattern read {PREFIX}/desk/assign/%u
pattern read {PREFIX}/desk/ack/%u
"""


def find_mosquitto() -> str:
    for exe in (shutil.which("mosquitto"), "/usr/sbin/mosquitto"):
        if exe and Path(exe).exists():
            return exe
    raise VenueConfigError("the `mosquitto` broker was not found: run `make setup` "
                           "(it installs Debian's mosquitto)")


def find_passwd_tool() -> str:
    for exe in (shutil.which("mosquitto_passwd"), "/usr/bin/mosquitto_passwd"):
        if exe and Path(exe).exists():
            return exe
    raise VenueConfigError("`mosquitto_passwd` was not found: run `make setup` "
                           "(it installs Debian's mosquitto)")


def write_config(folder: str | Path, tables: list[str], port: int = 1883,
                 host: str = "0.0.0.0", passwords: dict[str, str] | None = None) -> Path:
    """Write the broker's files for these table ids; returns the mosquitto.conf path."""
    bad = [t for t in tables if not TABLE_ID.match(t)]
    if bad:
        raise VenueConfigError(f"table id {bad[0]!r}: use letters, digits, '-', '_' or '.'")
    if DESK_USER in tables:
        raise VenueConfigError(f"{DESK_USER!r} is the desk's user name, not a table id")
    d = Path(folder).resolve()
    (d / "credentials").mkdir(parents=True, exist_ok=True)
    (d / "data").mkdir(exist_ok=True)
    pw = {DESK_USER: secrets.token_urlsafe(12),
          **{t: secrets.token_urlsafe(12) for t in tables}, **(passwords or {})}
    passwd = d / "passwd"
    passwd.write_text("".join(f"{u}:{p}\n" for u, p in pw.items()))
    passwd.chmod(0o600)
    subprocess.run([find_passwd_tool(), "-U", str(passwd)], check=True,
                   capture_output=True, timeout=60)
    (d / "acl").write_text(ACL)
    (d / "acl").chmod(0o600)
    creds = {"desk": pw[DESK_USER], "tables": {t: pw[t] for t in tables}}
    _secret(d / "credentials.json", creds)
    _secret(d / "credentials" / "desk.json", {"desk": pw[DESK_USER]})
    for t in tables:
        _secret(d / "credentials" / f"{t}.json", {"tables": {t: pw[t]}})
    conf = d / "mosquitto.conf"
    conf.write_text(
        "# futmesa venue broker: written by `futmesa venue broker-config`\n"
        "# start it with: mosquitto -c " + str(conf) + "\n"
        # started as root, mosquitto would switch to the `mosquitto` user, who cannot
        # read these owner-only files: it runs as whoever started it
        f"user {getpass.getuser()}\n"
        "per_listener_settings false\n"
        f"listener {port} {host}\n"
        "allow_anonymous false\n"
        f"password_file {passwd}\n"
        f"acl_file {d / 'acl'}\n"
        "persistence true\n"
        f"persistence_location {d / 'data'}/\n"
        "autosave_interval 10\n"
        "max_queued_messages 10000\n"
        "log_dest stderr\n"
        "log_type error\n"
        "log_type warning\n")
    return conf


def _secret(path: Path, data: object) -> None:
    path.write_text(json.dumps(data, indent=2) + "\n")
    path.chmod(0o600)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Mosquitto:
    """A mosquitto process on 127.0.0.1 (tests, demo, benchmark); can be killed and restarted."""

    def __init__(self, folder: str | Path, tables: list[str], port: int | None = None) -> None:
        self.folder = Path(folder)
        self.port = port or free_port()
        self.conf = write_config(self.folder, tables, self.port, "127.0.0.1")
        self.credentials = json.loads((self.folder / "credentials.json").read_text())
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def start(self, timeout: float = 20) -> None:
        # dies with the process that started it, however that one ends (futmesa.children)
        self.proc = children.start([find_mosquitto(), "-c", str(self.conf)],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode(errors="replace") if self.proc.stderr else ""
                raise VenueConfigError(f"mosquitto stopped at start: {err.strip()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                if time.monotonic() > deadline:
                    raise VenueConfigError(f"no mosquitto on port {self.port}") from None
                time.sleep(0.05)

    def kill(self) -> None:
        """Kill it hard (a crash, or the broker's machine losing power)."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)
        self.proc = None

    def stop(self) -> None:
        children.stop(self.proc)
        self.proc = None

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    def __enter__(self) -> Mosquitto:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc), for the benchmark."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
