"""The processes futmesa starts end with it, and its temporary folders do not outlive it.

- :func:`start` runs a child (socat, micropython, node, mosquitto) in its own process
  group (a Ctrl-C at the terminal reaches futmesa only, which then stops its children in
  order) that the kernel sends SIGTERM when futmesa dies, however it dies (Linux
  ``prctl(PR_SET_PDEATHSIG)``); any child still running when futmesa exits is stopped.
- :func:`temp_dir` makes a temporary folder that is removed when futmesa exits; if
  futmesa is killed (SIGKILL, a crash of the interpreter) a small janitor process, started
  with the first such folder, stops the children still running (one that changed its user,
  like mosquitto started as root, has lost its parent-death signal) and removes it.
- :func:`fixed_link` names a symbolic link that outlives the temporary folder it points into
  (a simulated table's fixed device path): the janitor removes it too if futmesa is killed,
  unless it was pointed elsewhere meanwhile.
- :func:`stop_on_signals` makes SIGTERM (``timeout``, systemd, a container stop) and SIGHUP
  (the terminal closed) do exactly what Ctrl-C does.
- :func:`watch_parent` is for a long-lived Python child (the I2C model): it ends when the
  process that started it is gone.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

PR_SET_PDEATHSIG = 1
_SIGTERM = int(signal.SIGTERM)


def _load_prctl() -> Callable[..., int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None, use_errno=True).prctl  # type: ignore[no-any-return]
    except (OSError, AttributeError):
        return None


# looked up now, in the parent: the code run between fork and exec must not import anything
_prctl = _load_prctl()


def die_with_parent() -> Callable[[], None]:
    """A ``preexec_fn``: the child gets SIGTERM when this process dies (Linux; elsewhere the
    children's own watchdogs, stdin closing, stop them)."""
    parent = os.getpid()

    def preexec() -> None:
        if _prctl is not None:
            _prctl(PR_SET_PDEATHSIG, _SIGTERM)
        if os.getppid() != parent:  # the parent died before the line above
            os._exit(1)

    return preexec


def watch_parent() -> None:
    """In a Python child: get SIGTERM when the process that started it dies (Linux), and exit
    now if it is already gone."""
    if _prctl is not None:
        _prctl(PR_SET_PDEATHSIG, _SIGTERM)
    if os.getppid() == 1:
        raise SystemExit(0)


_children: weakref.WeakSet[subprocess.Popen[Any]] = weakref.WeakSet()
_dirs: list[Path] = []
_lock = threading.Lock()


def start(cmd: list[str], **popen_kwargs: Any) -> subprocess.Popen[Any]:
    """``subprocess.Popen(cmd, ...)`` in its own process group, dying with this process."""
    popen_kwargs.setdefault("process_group", 0)
    proc: subprocess.Popen[Any] = subprocess.Popen(cmd, preexec_fn=die_with_parent(),
                                                   **popen_kwargs)
    with _lock:
        _children.add(proc)
        janitor = _janitor
    if janitor is not None:
        janitor.tell(f"pid {proc.pid}")
    return proc


def stop(proc: subprocess.Popen[Any] | None, timeout: float = 10) -> None:
    """SIGTERM, then SIGKILL if it has not ended within ``timeout`` seconds."""
    if proc is None or proc.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        proc.terminate()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
        proc.wait(timeout=10)


def temp_dir(prefix: str) -> Path:
    """A new temporary folder, removed at exit (by the janitor if this process is killed)."""
    path = Path(tempfile.mkdtemp(prefix=prefix))
    with _lock:
        _dirs.append(path)
    _the_janitor().tell(f"dir {path}")
    return path


def remove_temp_dir(path: str | Path) -> None:
    """Remove a folder made by :func:`temp_dir` now."""
    path = Path(path)
    shutil.rmtree(path, ignore_errors=True)
    with _lock:
        if path in _dirs:
            _dirs.remove(path)
        janitor = _janitor
    if janitor is not None:
        janitor.tell(f"drop {path}")


def fixed_link(link: str | Path, target: str) -> None:
    """If this process is killed, the janitor removes the symbolic link ``link`` (and its
    folder, once empty) while it still points at ``target``; :func:`drop_fixed_link` when
    this process removed it itself."""
    _the_janitor().tell(f"link {link}\0{target}")


def drop_fixed_link(link: str | Path) -> None:
    """The link named by :func:`fixed_link` is gone: the janitor forgets it."""
    with _lock:
        janitor = _janitor
    if janitor is not None:
        janitor.tell(f"unlink {link}")


def remove_link(link: str | Path, target: str) -> None:
    """Remove the symbolic link ``link`` if it points at ``target``, then its folder if that
    is empty now (another process may be using both: what it made is left alone)."""
    link = Path(link)
    with contextlib.suppress(OSError):
        if os.readlink(link) == target:
            link.unlink()
    with contextlib.suppress(OSError):
        link.parent.rmdir()


def stop_on_signals() -> None:
    """SIGTERM and SIGHUP do what Ctrl-C does: whatever handles SIGINT at that moment
    (Python's KeyboardInterrupt, asyncio's, uvicorn's graceful shutdown) handles them.
    A signal the caller ignores (``nohup``) stays ignored."""

    def like_ctrl_c(signum: int, frame: FrameType | None) -> None:
        handler = signal.getsignal(signal.SIGINT)
        if callable(handler):
            handler(signal.SIGINT, frame)
        else:
            raise KeyboardInterrupt

    for sig in (signal.SIGTERM, signal.SIGHUP):
        if signal.getsignal(sig) is not signal.SIG_IGN:
            signal.signal(sig, like_ctrl_c)


def _at_exit() -> None:
    with _lock:
        running = [p for p in _children if p.poll() is None]
        dirs = list(_dirs)
    for proc in running:
        with contextlib.suppress(OSError, subprocess.TimeoutExpired):
            stop(proc, timeout=5)
    for path in dirs:
        remove_temp_dir(path)


atexit.register(_at_exit)


# -- the janitor ------------------------------------------------------------------------
class _Janitor:
    """The janitor process: told each temporary folder and child pid on its stdin; when
    that pipe closes (this process exited or was killed) it waits a little for the
    children to end, then removes the folders still listed."""

    def __init__(self) -> None:
        code = "from futmesa.children import janitor_main; janitor_main()"
        self.proc = subprocess.Popen(
            [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, process_group=0, text=True)
        self._write_lock = threading.Lock()

    def tell(self, line: str) -> None:
        stdin = self.proc.stdin
        if stdin is None:
            return
        with self._write_lock, contextlib.suppress(OSError, ValueError):
            stdin.write(line + "\n")
            stdin.flush()


_janitor: _Janitor | None = None


def _the_janitor() -> _Janitor:
    global _janitor
    with _lock:
        if _janitor is None:
            _janitor = _Janitor()
            pids = [p.pid for p in _children if p.poll() is None]
        else:
            return _janitor
    for pid in pids:
        _janitor.tell(f"pid {pid}")
    return _janitor


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True
    return state != "Z"


def janitor_main(wait_s: float = 3.0) -> None:
    """The janitor's body (``python -c``): read lines until EOF or SIGTERM, then clean up."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)

    def on_term(signum: int, frame: FrameType | None) -> None:
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, on_term)
    dirs: list[str] = []
    pids: set[int] = set()
    links: dict[str, str] = {}
    try:
        for raw in sys.stdin:
            word, _space, arg = raw.rstrip("\n").partition(" ")
            if word == "dir":
                dirs.append(arg)
            elif word == "drop" and arg in dirs:
                dirs.remove(arg)
            elif word == "pid" and arg.isdigit():
                pids.add(int(arg))
            elif word == "link":
                link, _nul, target = arg.partition("\0")
                links[link] = target
            elif word == "unlink":
                links.pop(arg, None)
    finally:
        # A child that changed its user (mosquitto started as root runs as 'mosquitto') has
        # lost its parent-death signal: the janitor stops every child group still running.
        _signal_groups(pids, signal.SIGTERM)
        deadline = time.monotonic() + wait_s
        while any(_alive(p) for p in pids) and time.monotonic() < deadline:
            time.sleep(0.05)
        _signal_groups(pids, signal.SIGKILL)
        for d in dirs:
            shutil.rmtree(d, ignore_errors=True)
        for link, target in links.items():
            remove_link(link, target)


def _signal_groups(pids: set[int], sig: signal.Signals) -> None:
    """Send ``sig`` to the process group of each child still alive (each leads its own)."""
    for pid in pids:
        if _alive(pid):
            with contextlib.suppress(OSError):
                os.killpg(pid, sig)
