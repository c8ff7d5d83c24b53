"""Each simulated table's fixed device path, the same every time its `futmesa sim` starts.

A real table keeps /dev/ttyACM0 across a power cut, so the `futmesa serve --device` left
running finds it again. The sim's pseudo-terminal gets a new name at every start; the path
printed for `serve` is a symbolic link, named after the table's number (``mesa-2.tty`` for
SIM00002), that each start points at its new pseudo-terminal:

    $XDG_RUNTIME_DIR/futmesa-sim/mesa-2.tty  →  /tmp/futmesa-sim-XXXX/host.tty  →  /dev/pts/N

(``/tmp/futmesa-sim-<user id>/`` when there is no $XDG_RUNTIME_DIR.) Only the sim holding the
table's number (:mod:`futmesa.sim.ids`) touches its link, so two tables never share one. A
link left by a killed sim points into its temporary folder, which the janitor removes
(futmesa.children) with the link itself unless a new sim of that number pointed it elsewhere
meanwhile: a link never leads to another program's terminal. The folder goes with its last
link.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

from futmesa import children
from futmesa.i18n import _
from futmesa.sim.table import SimTableError


class FixedPathError(SimTableError):
    """The folder of the fixed paths is not this user's own; the message says which."""


def folder() -> Path:
    """This user's folder of the sims' fixed paths, made if missing (only they may write it)."""
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    if runtime and os.path.isdir(runtime):
        place = Path(runtime) / "futmesa-sim"
    else:
        place = Path(tempfile.gettempdir()) / f"futmesa-sim-{os.getuid()}"
    with contextlib.suppress(FileExistsError):
        place.mkdir(mode=0o700)
    seen = os.lstat(place)
    if not stat.S_ISDIR(seen.st_mode) or seen.st_uid != os.getuid() \
            or seen.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        raise FixedPathError(_(
            "{folder} is not a folder of this user's own (only they may write in it): "
            "remove it and start futmesa sim again").format(folder=place))
    return place


def path_of(uid: str) -> Path:
    """The fixed path of the sim table ``uid`` (SIM00002 → …/mesa-2.tty)."""
    return folder() / f"mesa-{int(uid.removeprefix('SIM'))}.tty"


def point(uid: str, target: str) -> str:
    """Point the table's fixed path at ``target`` (its pty's path now), replacing at once a
    link left by an earlier run; the fixed path. Removed by :func:`release`, or by the janitor
    if this sim is killed (futmesa.children.fixed_link)."""
    for _attempt in range(3):  # another table's sim may remove the folder, empty, meanwhile
        link = path_of(uid)
        fresh = link.with_name(f".{link.name}.{os.getpid()}")
        try:
            with contextlib.suppress(FileNotFoundError):
                fresh.unlink()
            fresh.symlink_to(target)
            os.replace(fresh, link)
        except FileNotFoundError:
            continue
        children.fixed_link(link, target)
        return str(link)
    raise FixedPathError(_("could not make the simulated table's path {path}").format(
        path=link))


def release(uid: str, target: str) -> None:
    """Remove the table's fixed path if it still points at ``target`` (the table is off), and
    its folder once no table has a path there."""
    link = path_of(uid)
    children.remove_link(link, target)
    children.drop_fixed_link(link)
