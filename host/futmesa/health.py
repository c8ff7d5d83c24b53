"""A table's health: faults around the match that a person must see (the log cannot be written).

Separate from the match state the rules produce: a fault pauses nothing on
the table and loses nothing (the device keeps every unacknowledged event and
resends it), but the score cannot move until it clears, so the kiosk, the
console and `futmesa watch` show it. Each fault is logged once, with what to
do, when it appears and once when it clears; the daemon publishes the
health through the hub (`StateHub.publish_health`).
"""

from __future__ import annotations

import errno
import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from futmesa.i18n import N_, _, translator

log = logging.getLogger("futmesa.health")

LOG_FULL = "log_full"
LOG_READ_ONLY = "log_read_only"
LOG_FAILED = "log_failed"
LOG_FAULTS = (LOG_FULL, LOG_READ_ONLY, LOG_FAILED)


@dataclass(frozen=True)
class Fault:
    code: str
    what: str  # what the kiosk, console and watch say (English msgid, translated where shown)
    action: str  # what the operator should do, for the daemon's log (English msgid)

    def said(self, lang: str | None = None) -> str:
        """What the fault is, in ``lang`` (None: the process language)."""
        return translator(lang).gettext(self.what)

    def to_json(self, since_ms: float) -> dict[str, Any]:
        return {"code": self.code, "pt": self.said("pt_BR"), "en": self.said("en"),
                # what to do, for the screens of whoever can act (the venue board)
                "do_pt": translator("pt_BR").gettext(self.action),
                "do_en": translator("en").gettext(self.action),
                "since": round(since_ms)}


FAULTS = {
    LOG_FULL: Fault(LOG_FULL, N_("event log not writable (disk full) — scores paused, nothing "
                                 "lost"),
                    N_("free space on the disk that holds the database (delete old files or "
                       "reports); the table resends what it holds and the score catches up")),
    LOG_READ_ONLY: Fault(LOG_READ_ONLY,
                         N_("event log not writable (read-only) — scores paused, nothing lost"),
                         N_("make the database file and its folder writable by the user running "
                            "futmesa (or remount the disk read-write); the score catches up by "
                            "itself")),
    LOG_FAILED: Fault(LOG_FAILED, N_("event log not writable — scores paused, nothing lost"),
                      N_("check the disk that holds the database (`futmesa doctor`); the table "
                         "resends what it holds once writing works again")),
}


def classify(exc: BaseException) -> Fault:
    """The fault a failed write of the event log means."""
    text = str(exc).lower()
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return FAULTS[LOG_FULL]
    if isinstance(exc, OSError) and exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return FAULTS[LOG_READ_ONLY]
    if isinstance(exc, sqlite3.Error):
        if code == sqlite3.SQLITE_FULL or "full" in text:
            return FAULTS[LOG_FULL]
        if code == sqlite3.SQLITE_READONLY or "readonly" in text or "read-only" in text:
            return FAULTS[LOG_READ_ONLY]
    return FAULTS[LOG_FAILED]


# where a storage fault is: the table's outbox of results for the desk, the desk's database
OUTBOX_FULL = "outbox_full"
OUTBOX_FAILED = "outbox_failed"
DESK_FULL = "desk_full"
DESK_FAILED = "desk_failed"
CREDENTIALS_TAKEN = "credentials_taken"

VENUE_FAULTS = {
    OUTBOX_FULL: Fault(OUTBOX_FULL, N_("results for the desk not writable (disk full) — the "
                                       "result waits at this table, nothing lost"),
                       N_("free space on this table's disk (delete old files or reports); the "
                          "result goes to the desk by itself")),
    OUTBOX_FAILED: Fault(OUTBOX_FAILED, N_("results for the desk not writable — the result "
                                           "waits at this table, nothing lost"),
                         N_("check this table's disk (`futmesa doctor`); the result goes to the "
                            "desk by itself once writing works again")),
    DESK_FULL: Fault(DESK_FULL, N_("the desk's disk is full — results wait at the tables, "
                                   "nothing lost"),
                     N_("free space on the desk's disk (delete old files or reports); the "
                        "tables resend their results by themselves")),
    DESK_FAILED: Fault(DESK_FAILED, N_("the desk cannot write its database — results wait at "
                                       "the tables, nothing lost"),
                       N_("check the desk's database file and its disk (`futmesa doctor`); the "
                          "tables resend their results by themselves")),
    CREDENTIALS_TAKEN: Fault(CREDENTIALS_TAKEN,
                             N_("this table's venue credentials are in use by another "
                                "connection"),
                             N_("find the other computer using this table's credentials file "
                                "and stop it; if unsure, make new credentials with `futmesa "
                                "venue broker-config` and hand them to this table only")),
}


def venue_fault(exc: BaseException, full: str, failed: str) -> Fault:
    """The venue fault a failed write means: ``full`` for a full disk, else ``failed``."""
    return VENUE_FAULTS[full if classify(exc).code == LOG_FULL else failed]


def storage_error_line(exc: BaseException) -> str | None:
    """One line for a person whose command met a storage problem (None: not one).

    For the organiser's commands: what happened and what to do, never a traceback."""
    if not is_write_failure(exc):
        return None
    if isinstance(exc, OSError) and exc.filename is None and exc.errno not in (
            errno.ENOSPC, errno.EROFS, errno.EDQUOT, errno.EIO):
        return None  # a network error or the like: not a storage problem
    text = str(exc).lower()
    if isinstance(exc, OSError) and exc.errno not in (errno.ENOSPC, errno.EDQUOT):
        error = f"{exc.filename}: {exc.strerror}" if exc.filename else (exc.strerror or exc)
        return _("the file could not be read or written ({error}) — check the path and the "
                 "disk, then run the command again").format(error=error)
    if "not a database" in text or "malformed" in text:
        return _("the file given is not a futmesa database (or it is damaged) — check the "
                 "--db path; `futmesa doctor` checks a database file")
    if "locked" in text or "busy" in text:
        return _("the database is busy (another futmesa is writing it): wait a moment and run "
                 "the command again")
    fault = classify(exc)
    if fault.code == LOG_FULL:
        return _("the disk that holds the database is full — nothing was changed. Free space "
                 "(delete old files or reports) and run the command again")
    if fault.code == LOG_READ_ONLY:
        return _("the database cannot be written (read-only or no permission) — nothing was "
                 "changed. Make the file and its folder writable by this user and run the "
                 "command again")
    return _("the database could not be read or written ({error}) — check the file with "
             "`futmesa doctor` and run the command again").format(error=exc)


def is_write_failure(exc: BaseException) -> bool:
    """True for errors of the disk or database (not a bug in our code)."""
    return isinstance(exc, (sqlite3.OperationalError, sqlite3.DatabaseError, OSError))


class Health:
    """The faults of one table now, each with the time it appeared; thread-safe."""

    def __init__(self, on_change: Callable[[dict[str, Any]], None] | None = None) -> None:
        self._faults: dict[str, tuple[Fault, float]] = {}
        self._lock = threading.Lock()
        self.on_change = on_change

    def set(self, fault: Fault, detail: str = "") -> None:
        """Raise a fault (logged once, however often it is raised again)."""
        with self._lock:
            if fault.code in self._faults:
                return
            self._faults[fault.code] = (fault, time.time() * 1000)
        if detail:
            log.error(_("%s (%s). What to do: %s"), fault.said(), detail, _(fault.action))
        else:
            log.error(_("%s. What to do: %s"), fault.said(), _(fault.action))
        self._changed()

    def clear(self, *codes: str) -> None:
        """The faults are gone (logged once each)."""
        with self._lock:
            gone = [self._faults.pop(c)[0] for c in codes if c in self._faults]
        for fault in gone:
            log.warning(_("cleared: %s"), fault.said().split(" — ")[0])
        if gone:
            self._changed()

    def log_failed(self, exc: BaseException) -> Fault:
        """A write of the event log failed: raise the fault it means."""
        fault = classify(exc)
        self.set(fault, str(exc))
        return fault

    def log_ok(self) -> None:
        """A write of the event log worked: every log fault is over."""
        if self._faults:
            self.clear(*LOG_FAULTS)

    def faults(self) -> list[Fault]:
        """The faults now, oldest first."""
        with self._lock:
            return [f for f, _since in sorted(self._faults.values(), key=lambda fs: fs[1])]

    @property
    def ok(self) -> bool:
        return not self._faults

    def to_json(self) -> dict[str, Any]:
        with self._lock:
            faults = [f.to_json(since) for f, since in self._faults.values()]
        return {"ok": not faults, "faults": faults}

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change(self.to_json())
