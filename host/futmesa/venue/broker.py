"""The venue's broker (Debian's mosquitto): its config, passwords, ACL, and running it.

``write_config`` writes into one folder: ``mosquitto.conf``, ``passwd`` (hashed
by ``mosquitto_passwd``), ``acl`` and ``credentials.json`` (every password, for
the organiser) plus ``credentials/<table>.json`` (one table's own password, to
copy to that table's computer) and ``credentials/desk.json``. The broker binds
every client id to its user name (``use_username_as_clientid``: one table's
credentials cannot knock the desk or another table off), listens only on the
address or interface the organiser names, over TLS when a certificate is given
(the certificate then travels in every credentials file, the only one the
clients trust), and never runs as root. The broker is
started with ``mosquitto -c <folder>/mosquitto.conf``. ``Mosquitto`` runs it
for the tests, the demo and the benchmark on a free 127.0.0.1 port.
"""

from __future__ import annotations

import getpass
import ipaddress
import json
import os
import pwd
import re
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from futmesa import children
from futmesa.i18n import _
from futmesa.venue.mqtt import DESK_USER, OBSERVER_USER, PREFIX, VenueConfigError

TABLE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")

ACL = f"""# futmesa venue ACL: written by `futmesa venue broker-config`
# the desk reads every table and is the only one that assigns matches
user {DESK_USER}
topic readwrite {PREFIX}/#

# an observer (tests, benchmarks, a look at the day's traffic) only reads
user {OBSERVER_USER}
topic read {PREFIX}/#

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
    raise VenueConfigError(_("the `mosquitto` broker was not found: run `make setup` "
                             "(it installs Debian's mosquitto)"))


def find_passwd_tool() -> str:
    for exe in (shutil.which("mosquitto_passwd"), "/usr/bin/mosquitto_passwd"):
        if exe and Path(exe).exists():
            return exe
    raise VenueConfigError(_("`mosquitto_passwd` was not found: run `make setup` "
                             "(it installs Debian's mosquitto)"))


def listen_address(name: str) -> str:
    """The IP address to listen on: an address as given, or a network interface's
    (``eth0``, ``wlan0``) IPv4 address; VenueConfigError with one line otherwise."""
    try:
        return str(ipaddress.ip_address(name))
    except ValueError:
        pass
    interfaces = [n for _index, n in socket.if_nameindex()]
    if name not in interfaces:
        raise VenueConfigError(_("--host {name}: neither an IP address nor a network interface "
                                 "of this computer ({interfaces})").format(
                                     name=repr(name), interfaces=", ".join(interfaces)))
    import fcntl
    import struct

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            packed = fcntl.ioctl(s.fileno(), 0x8915,  # SIOCGIFADDR
                                 struct.pack("256s", name.encode()[:15]))
        except OSError:
            raise VenueConfigError(_("the interface {name} has no IPv4 address: connect it to "
                                     "the venue's network or give the IP address").format(
                                         name=repr(name))) from None
    return socket.inet_ntoa(packed[20:24])


def broker_user(current: str) -> str:
    """The user mosquitto runs as: whoever writes the config, never root (as root, the
    unprivileged ``mosquitto`` user Debian creates; the files are given to it)."""
    if current != "root":
        return current
    try:
        pwd.getpwnam("mosquitto")
    except KeyError:
        raise VenueConfigError(_("running as root and there is no 'mosquitto' user: write the "
                                 "configuration as an ordinary user (without sudo)")) from None
    return "mosquitto"


def write_config(folder: str | Path, tables: list[str], port: int = 1883,
                 host: str = "127.0.0.1", passwords: dict[str, str] | None = None, *,
                 certfile: str | Path | None = None, keyfile: str | Path | None = None,
                 run_as: str | None = None) -> Path:
    """Write the broker's files for these table ids; returns the mosquitto.conf path.

    ``host``: an IP address or interface name to listen on. ``certfile``/``keyfile``:
    the listener speaks TLS only (clients use ``mqtts://``)."""
    _check_table_ids(tables)
    if (certfile is None) != (keyfile is None):
        raise VenueConfigError(_("TLS needs both files: --certfile and --keyfile"))
    address = listen_address(host)
    user = broker_user(run_as or getpass.getuser())
    ca = _read_certificate(certfile, keyfile) if certfile is not None else None
    d = Path(folder).resolve()
    if user != getpass.getuser():
        blocked = _blocked_ancestor(d, user)
        if blocked is not None:
            raise VenueConfigError(_(
                "the broker runs as the user {user}, who cannot enter {folder}: write the "
                "configuration as an ordinary user (without sudo) or in a folder it can "
                "reach").format(user=repr(user), folder=blocked))
    (d / "credentials").mkdir(parents=True, exist_ok=True)
    (d / "data").mkdir(exist_ok=True)
    passwd = _write_users(d, tables, passwords, ca)
    tls_lines = ""
    if certfile is not None and keyfile is not None:
        # copies beside the other files: the broker reads them as its own user
        (d / "tls").mkdir(exist_ok=True)
        (d / "tls" / "broker.crt").write_text(ca or "")
        _secret_bytes(d / "tls" / "broker.key", Path(keyfile).read_bytes())
        tls_lines = (f"certfile {d / 'tls' / 'broker.crt'}\n"
                     f"keyfile {d / 'tls' / 'broker.key'}\n"
                     "tls_version tlsv1.2\n")
    conf = d / "mosquitto.conf"
    conf.write_text(_conf_text(conf, d, user, port, address, passwd, tls_lines))
    if user != getpass.getuser():  # root wrote it: the broker's user must read it
        _give_to(d, user)
    return conf


def _check_table_ids(tables: list[str]) -> None:
    bad = [t for t in tables if not TABLE_ID.match(t)]
    if bad:
        raise VenueConfigError(_("table id {table}: use letters, digits, '-', '_' or '.'").format(
            table=repr(bad[0])))
    for reserved in (DESK_USER, OBSERVER_USER):
        if reserved in tables:
            raise VenueConfigError(_("{name} is a reserved user name, not a table id ({desk} is "
                                     "the desk's)").format(name=repr(reserved),
                                                           desk=repr(DESK_USER)))


def _read_certificate(certfile: str | Path, keyfile: str | Path | None) -> str:
    """The PEM certificate's text (the key read too, to say now if it cannot be)."""
    try:
        ca = Path(certfile).read_text(encoding="ascii")
        Path(keyfile or "").read_bytes()
    except (OSError, UnicodeDecodeError) as exc:
        raise VenueConfigError(_("could not read the certificate or the key: {problem}").format(
            problem=exc)) from None
    if "BEGIN CERTIFICATE" not in ca:
        raise VenueConfigError(_("{path} is not a PEM certificate").format(path=certfile))
    return ca


def _write_users(d: Path, tables: list[str], passwords: dict[str, str] | None,
                 ca: str | None) -> Path:
    """The password file (hashed by mosquitto's own tool), the ACL, and the credentials
    each side is handed (the desk's, the observer's, one file per table)."""
    pw = {DESK_USER: secrets.token_urlsafe(12), OBSERVER_USER: secrets.token_urlsafe(12),
          **{t: secrets.token_urlsafe(12) for t in tables}, **(passwords or {})}
    passwd = d / "passwd"
    passwd.write_text("".join(f"{u}:{p}\n" for u, p in pw.items()))
    passwd.chmod(0o600)
    subprocess.run([find_passwd_tool(), "-U", str(passwd)], check=True,
                   capture_output=True, timeout=60)
    (d / "acl").write_text(ACL)
    (d / "acl").chmod(0o600)
    tls = {"ca": ca} if ca else {}
    creds = {"desk": pw[DESK_USER], "observer": pw[OBSERVER_USER],
             "tables": {t: pw[t] for t in tables}, **tls}
    _secret(d / "credentials.json", creds)
    _secret(d / "credentials" / "desk.json", {"desk": pw[DESK_USER], **tls})
    for t in tables:
        _secret(d / "credentials" / f"{t}.json", {"tables": {t: pw[t]}, **tls})
    return passwd


def _conf_text(conf: Path, d: Path, user: str, port: int, address: str, passwd: Path,
               tls_lines: str) -> str:
    return (
        "# futmesa venue broker: written by `futmesa venue broker-config`\n"
        "# start it with: mosquitto -c " + str(conf) + "\n"
        # never root: started as root, mosquitto switches to this user
        f"user {user}\n"
        "per_listener_settings false\n"
        f"listener {port} {address}\n"
        # (a listener's option) a client's id is its user name: nobody's credentials
        # knock another client off
        "use_username_as_clientid true\n"
        + tls_lines +
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


def _blocked_ancestor(folder: Path, user: str) -> Path | None:
    """The first existing folder above ``folder`` that ``user`` cannot pass through."""
    entry = pwd.getpwnam(user)
    for parent in reversed(folder.parents):
        if not parent.exists():
            break
        st = parent.stat()
        if st.st_uid == entry.pw_uid:
            continue
        if st.st_mode & (0o010 if st.st_gid == entry.pw_gid else 0o001):
            continue
        return parent
    return None


def open_temp_path(folder: Path) -> None:
    """Let the broker's unprivileged user pass through a temporary folder's parents (the
    tests and the demo as root): only the traverse bit, and only inside the temp folder."""
    tmp = Path(tempfile.gettempdir()).resolve()
    folder = folder.resolve()
    if tmp not in folder.parents:
        return
    for parent in folder.parents:
        if parent == tmp:
            break
        if parent.exists():
            parent.chmod(parent.stat().st_mode | 0o001)


def _give_to(folder: Path, user: str) -> None:
    entry = pwd.getpwnam(user)
    for path in [folder, *folder.rglob("*")]:
        os.chown(path, entry.pw_uid, entry.pw_gid)


def _secret(path: Path, data: object) -> None:
    path.write_text(json.dumps(data, indent=2) + "\n")
    path.chmod(0o600)


def _secret_bytes(path: Path, data: bytes) -> None:
    path.touch(mode=0o600)
    path.chmod(0o600)
    path.write_bytes(data)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Mosquitto:
    """A mosquitto process on 127.0.0.1 (tests, demo, benchmark); can be killed and restarted."""

    def __init__(self, folder: str | Path, tables: list[str], port: int | None = None,
                 **tls: str | Path) -> None:
        self.folder = Path(folder)
        self.port = port or free_port()
        if os.geteuid() == 0:  # mosquitto drops to its own user: it must reach the files
            self.folder.mkdir(parents=True, exist_ok=True)
            open_temp_path(self.folder)
        self.conf = write_config(self.folder, tables, self.port, "127.0.0.1", **tls)  # type: ignore[arg-type]
        self.credentials = json.loads((self.folder / "credentials.json").read_text())
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"{'mqtts' if 'ca' in self.credentials else 'mqtt'}://127.0.0.1:{self.port}"

    def start(self, timeout: float = 20) -> None:
        if os.geteuid() == 0:  # again: a new pytest session makes its base folder 0700
            open_temp_path(self.folder)
        # dies with the process that started it, however that one ends (futmesa.children)
        self.proc = children.start([find_mosquitto(), "-c", str(self.conf)],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode(errors="replace") if self.proc.stderr else ""
                raise VenueConfigError(_("mosquitto stopped at start: {problem}").format(
                    problem=err.strip()))
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                if time.monotonic() > deadline:
                    raise VenueConfigError(_("no mosquitto on port {port}").format(
                        port=self.port)) from None
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
