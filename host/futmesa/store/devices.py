"""The event log's device ledger: the tables seen, what each has committed (its cursor), its
events, the holes in its sequence (gaps) and what a reset may have lost."""

from __future__ import annotations

import sqlite3
import time
from typing import Any

from futmesa.store.base import LogFile
from futmesa.store.rows import DeviceEvent, insert_entry


class DeviceLedger(LogFile):
    """Each device's events, committed once, in its own order."""

    def seen_device(self, uid: str, board: str, usb_serial: str | None = None) -> None:
        now = time.time()
        with self.transaction() as db:
            db.execute(
                "INSERT INTO devices(device_uid, board, first_seen, last_seen, usb_serial) "
                "VALUES (?,?,?,?,?) ON CONFLICT(device_uid) DO UPDATE SET"
                " last_seen=excluded.last_seen, board=excluded.board,"
                " usb_serial=COALESCE(excluded.usb_serial, usb_serial)",
                (uid, board, now, now, usb_serial),
            )

    def last_committed(self, uid: str) -> tuple[int, int]:
        """(boot id, seq) up to which a device's events are committed (or recorded as a gap)."""
        with self._lock:
            row = self._db.execute(
                "SELECT boot_id, seq FROM cursors WHERE device_uid=?", (uid,)
            ).fetchone()
        return (int(row[0]), int(row[1])) if row else (0, 0)

    @staticmethod
    def _advance(db: sqlite3.Connection, uid: str, boot_id: int, seq: int) -> None:
        db.execute(
            "INSERT INTO cursors(device_uid, boot_id, seq) VALUES (?,?,?) "
            "ON CONFLICT(device_uid) DO UPDATE SET boot_id=excluded.boot_id, seq=excluded.seq",
            (uid, boot_id, seq),
        )

    def append_device_event(
        self, ev: DeviceEvent, match_id: int | None, entry_kind: str, entry_data: dict[str, Any],
        occurred_at: float | None = None,
    ) -> tuple[int, int | None] | None:
        """Store one device event (and its match entry) in one committed transaction.

        Returns (device_event_id, entry_id), or None when the event is a duplicate.
        """
        now = time.time()
        with self.transaction() as db:
            try:
                cur = db.execute(
                    "INSERT INTO device_events(device_uid, boot_id, seq, ticks, kind, a, b, period,"
                    " clock_ms, value, received_at) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                    (ev.device_uid, ev.boot_id, ev.seq, ev.ticks, ev.kind, ev.a, ev.b, ev.period,
                     ev.clock_ms, ev.value, now),
                )
            except sqlite3.IntegrityError:
                return None
            self._advance(db, ev.device_uid, ev.boot_id, ev.seq)
            dev_id = int(cur.lastrowid or 0)
            entry_id = None
            if match_id is not None:
                entry_id = insert_entry(db, match_id, "device", entry_kind, entry_data,
                                        period=ev.period, clock_ms=ev.clock_ms, ticks=ev.ticks,
                                        device_event_id=dev_id, author=ev.device_uid,
                                        created_at=now, occurred_at=occurred_at, seal=self._seal)
        return dev_id, entry_id

    def record_gap(self, uid: str, boot_id: int, first_seq: int, last_seq: int,
                   match_id: int | None) -> int | None:
        now = time.time()
        with self.transaction() as db:
            db.execute(
                "INSERT INTO gaps(device_uid, boot_id, first_seq, last_seq, recorded_at)"
                " VALUES (?,?,?,?,?)",
                (uid, boot_id, first_seq, last_seq, now),
            )
            self._advance(db, uid, boot_id, last_seq)
            if match_id is None:
                return None
            return insert_entry(db, match_id, "system", "gap", {
                "boot_id": boot_id, "first_seq": first_seq, "last_seq": last_seq},
                author="link", created_at=now, seal=self._seal)

    def record_lost(self, uid: str, boot_id: int, first_seq: int,
                    last_seq: int) -> tuple[int, int] | None:
        """A reset boot's unacknowledged events (the device's own record): add to the gaps
        the part of first..last the log holds neither as events nor as gaps already.

        The cursor stays where it is (on the new boot). Returns the range added, if any.
        """
        with self.transaction() as db:
            held = self._held(db, uid, boot_id)
            first = max(first_seq, int(held) + 1)
            if first > last_seq:
                return None
            db.execute(
                "INSERT INTO gaps(device_uid, boot_id, first_seq, last_seq, recorded_at)"
                " VALUES (?,?,?,?,?)", (uid, boot_id, first, last_seq, time.time()))
        return first, last_seq

    def _held(self, db: sqlite3.Connection, uid: str, boot_id: int) -> int:
        """The highest seq of a boot the log holds, as an event or inside a gap (0: none)."""
        return int(db.execute(
            "SELECT MAX(m) FROM (SELECT MAX(seq) AS m FROM device_events WHERE device_uid=?"
            " AND boot_id=? UNION ALL SELECT MAX(last_seq) FROM gaps WHERE device_uid=?"
            " AND boot_id=?)", (uid, boot_id, uid, boot_id)).fetchone()[0] or 0)

    def record_reservation(self, uid: str, boot_id: int, made_seq: int,
                           reserved_seq: int) -> tuple[tuple[int, int] | None,
                                                     tuple[int, int] | None]:
        """A reset boot's seq reservation: it made event made_seq and at most reserved_seq.

        What the log lacks up to made_seq is a gap (those events were made); beyond, up to
        reserved_seq, a possible loss "up to N events after seq S". Returns (the gap added,
        (S, reserved_seq) of the possible loss added), each None when the log already has it.
        """
        with self.transaction() as db:
            held = self._held(db, uid, boot_id)
            gap = None
            if held < made_seq:
                gap = (held + 1, made_seq)
                db.execute(
                    "INSERT INTO gaps(device_uid, boot_id, first_seq, last_seq, recorded_at)"
                    " VALUES (?,?,?,?,?)", (uid, boot_id, held + 1, made_seq, time.time()))
                held = made_seq
            if held >= reserved_seq:
                return gap, None
            db.execute(
                "INSERT INTO possible_losses(device_uid, boot_id, after_seq, up_to_seq,"
                " recorded_at) VALUES (?,?,?,?,?)",
                (uid, boot_id, held, reserved_seq, time.time()))
        return gap, (held, reserved_seq)

    def possible_losses(self, uid: str | None = None) -> list[tuple[int, int, int]]:
        """(boot, after_seq, up_to_seq): events after_seq+1..up_to_seq may be made and lost."""
        with self._lock:
            try:
                rows = self._db.execute(
                    "SELECT boot_id, after_seq, up_to_seq FROM possible_losses"
                    + (" WHERE device_uid=?" if uid else "") + " ORDER BY id",
                    (uid,) if uid else (),
                ).fetchall()
            except sqlite3.OperationalError:  # an older read-only log: none recorded
                return []
        return [(int(a), int(b), int(c)) for a, b, c in rows]

    def device_events(self, uid: str | None = None) -> list[DeviceEvent]:
        with self._lock:
            sql = ("SELECT device_uid, boot_id, seq, ticks, kind, a, b, period, clock_ms, value"
                   " FROM device_events")
            rows = (self._db.execute(sql + " WHERE device_uid=? ORDER BY id", (uid,))
                    if uid else self._db.execute(sql + " ORDER BY id"))
            return [DeviceEvent(*row) for row in rows.fetchall()]

    def gaps(self, uid: str | None = None) -> list[tuple[int, int, int]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT boot_id, first_seq, last_seq FROM gaps"
                + (" WHERE device_uid=?" if uid else "") + " ORDER BY id",
                (uid,) if uid else (),
            ).fetchall()
        return [(int(a), int(b), int(c)) for a, b, c in rows]

