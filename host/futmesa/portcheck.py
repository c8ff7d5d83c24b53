"""Why a serial port cannot be used: not a serial port, or held by another program.

``port_problem`` looks without opening the port (opening a USB serial port can reset
some boards): a path that is a regular file or a folder is "not a serial port"; a port
another process has locked (pyserial's ``exclusive=True``, screen, minicom, another
futmesa) or, for a USB port, simply open, is "held by PID … (name)". Each message ends
with the serial ports the OS lists, as ``futmesa doctor`` does.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from futmesa.i18n import _, ngettext


def ports_seen() -> str:
    from futmesa.deploy.probe import describe_ports

    try:
        return describe_ports()
    except Exception:  # noqa: BLE001 - only a hint in a message
        return _("could not list the serial ports")


def _comm(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return "?"


def lock_holders(path: str) -> list[int]:
    """PIDs holding a flock/POSIX lock on the file (from /proc/locks)."""
    try:
        st = os.stat(path)
        text = Path("/proc/locks").read_text()
    except OSError:
        return []
    want = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    pids = []
    for line in text.splitlines():
        parts = line.split()
        # "1: FLOCK  ADVISORY  WRITE 1234 00:19:3 0 EOF" (a "->" marks a waiting lock)
        if "->" in parts:
            continue
        if len(parts) >= 6 and parts[5] == want and parts[4].isdigit():
            pids.append(int(parts[4]))
    return [p for p in pids if p != os.getpid()]


def open_holders(path: str) -> list[int]:
    """PIDs (other than this one) with the device open, from /proc/*/fd."""
    real = os.path.realpath(path)
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            for fd in os.scandir(f"/proc/{entry.name}/fd"):
                try:
                    if os.readlink(fd.path) == real:
                        found.append(int(entry.name))
                        break
                except OSError:
                    continue
        except OSError:
            continue
    return found


def _is_pty(st: os.stat_result) -> bool:
    # Unix98 pty slaves: majors 136-143. The other end of a pty (socat, the simulator)
    # holds it open by design, so only a lock counts as "held" for a pty.
    return 136 <= os.major(st.st_rdev) <= 143


def _is_tty(st: os.stat_result) -> bool:
    if _is_pty(st):
        return True
    node = Path(f"/sys/dev/char/{os.major(st.st_rdev)}:{os.minor(st.st_rdev)}/subsystem")
    try:
        return node.resolve().name == "tty"
    except OSError:
        return False


def port_problem(path: str) -> str | None:
    """One line saying why ``path`` cannot be this table's serial port, or None if it may be."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None  # not plugged in (yet): the link waits for it
    except OSError as exc:
        return _("{path}: {why}; serial ports seen: {ports}").format(
            path=path, why=exc.strerror, ports=ports_seen())
    if not stat.S_ISCHR(st.st_mode) or not _is_tty(st):
        what = (_("a folder") if stat.S_ISDIR(st.st_mode) else _("a regular file")
                if stat.S_ISREG(st.st_mode) else _("a device that is not a serial line"))
        return _("{path} is not a serial port (it is {what}): give the board's port with "
                 "--device; serial ports seen: {ports}").format(path=path, what=what,
                                                                ports=ports_seen())
    holders = lock_holders(path) or ([] if _is_pty(st) else open_holders(path))
    if holders:
        who = ", ".join(f"PID {pid} ({_comm(pid)})" for pid in holders[:3])
        if len(holders) > 3:
            who += ngettext(" and {count} more", " and {count} more", len(holders) - 3).format(
                count=len(holders) - 3)
        return _("{path} is held by {who}: close that program (Thonny, screen, another "
                 "futmesa …) and start again; serial ports seen: {ports}").format(
            path=path, who=who, ports=ports_seen())
    return None
