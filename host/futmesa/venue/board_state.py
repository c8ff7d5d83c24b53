"""What the venue boards show live: every table's last status and state, and the desk's
notices, each change numbered in one sequence so a board asks only for what changed.

Its own lock, apart from the desk's competition work: a state on its way to the boards
never waits behind a result being stored and the next matches assigned.
"""

from __future__ import annotations

import json
import threading
from typing import Any

from futmesa.i18n import _, language, ngettext
from futmesa.matchbook.wording import table_name
from futmesa.venue.checks import Refused

MAX_STATE_BYTES = 64 * 1024


def notices_of(refused: list[dict[str, Any]], reports: list[dict[str, Any]],
               level: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """What the board says beside the tables: the newest refusals, the disqualification
    reports the organiser has to confirm, the knockout matches that ended level for the
    desk to decide (the day waits on them), and one line naming them."""
    # the public TV: in words, never the desk's command; a final names the champion
    notice = [(_("{label} ended level: waits for the desk's decision of the champion")
               if _is_final(m) else
               _("{label} ended level: waits for the desk's decision of who goes through")
               ).format(label=m["label"] or _("knockout match"))
              for m in level or []]
    if reports:
        notice.append(ngettext(
            "{count} disqualification report to confirm (futmesa competition reports)",
            "{count} disqualification reports to confirm (futmesa competition reports)",
            len(reports)).format(count=len(reports)))
    if refused:
        r = refused[0]
        notice.append(_("refused from {table}: {reason}").format(
            table=table_name(r["table_id"], lang=language()), reason=r["reason"]))
    return {"refused": refused, "reports": reports, "notice": " · ".join(notice)}


def _is_final(m: dict[str, Any]) -> bool:
    return any(x == "Final" or str(x).endswith(": Final") for x in (m["group"], m["label"]))


class BoardState:
    """The tables as the boards see them (``tables``: table id -> its card) and the notices."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.tables: dict[str, dict[str, Any]] = {}
        self.seq = 0  # the number of the newest change
        self._table_seq: dict[str, int] = {}  # table -> the number of its newest change
        self.notices: dict[str, Any] = {"refused": [], "reports": [], "notice": ""}
        self._notices_seq = 0

    def table_message(self, table: str, kind: str, payload: bytes, retained: bool,
                      recv_ms: float) -> None:
        """A table's status ("online"/"offline") or state; :class:`Refused` for a state that
        is not one (its card still appears on the boards)."""
        with self.lock:
            t = self.tables.setdefault(table, {"table_id": table, "online": False,
                                               "state": None,
                                               # as people name it (matchbook/wording.py)
                                               "name": table_name(table, lang=language())})
            self.seq += 1
            self._table_seq[table] = self.seq
            if kind == "status":
                t["online"] = payload == b"online"
            elif kind == "state":
                t["state"] = self._state(payload, retained, recv_ms)

    @staticmethod
    def _state(payload: bytes, retained: bool, recv_ms: float) -> dict[str, Any]:
        if len(payload) > MAX_STATE_BYTES:
            raise Refused(_("a state of {size} bytes: too big").format(size=len(payload)))
        try:
            state = json.loads(payload)
        except (UnicodeDecodeError, ValueError, RecursionError):
            raise Refused(_("unreadable state (not JSON)")) from None
        if not isinstance(state, dict):
            raise Refused(_("unreadable state (not a JSON object)"))
        clock = state.get("clock")
        now = state.get("now")
        if isinstance(clock, dict) and isinstance(now, int | float) \
                and isinstance(clock.get("at", 0), int | float):
            # the table's clock.at is on the table's wall clock: move it onto ours
            # (a retained state is old: its clock still runs from when it was sent)
            clock["at"] = clock.get("at", 0) + (recv_ms - now if not retained else 0)
        return state

    def set_notices(self, fresh: dict[str, Any]) -> bool:
        """New notices; True when they changed (the boards get them)."""
        with self.lock:
            if fresh == self.notices:
                return False
            self.notices = fresh
            self.notices_changed()
            return True

    def notices_changed(self) -> None:
        """Something beside the tables changed (the notices, the desk's own faults)."""
        with self.lock:
            self.seq += 1
            self._notices_seq = self.seq

    def online(self) -> list[str]:
        with self.lock:
            return sorted(t for t, card in self.tables.items() if card["online"])

    def known(self) -> set[str]:
        with self.lock:
            return set(self.tables)

    def since(self, seq: int, always: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """(the newest change's number, what changed after change ``seq``): every table and
        the notices for 0 (a board that just connected), else only the tables that changed
        and the notices if they did; ``always`` goes with every answer."""
        with self.lock:
            tables = [dict(self.tables[k]) for k in sorted(self.tables)
                      if self._table_seq.get(k, 0) > seq or seq == 0]
            out: dict[str, Any] = {**always, "tables": tables}
            if seq == 0 or self._notices_seq > seq:
                out.update(self.notices)
            return self.seq, out
