"""A table's state as every view reads it: its match, its clock and its link, built by the
matchbook's ``state_json`` (the one pure function of the state JSON)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from futmesa.matchbook import LinkView, state_json
from futmesa.matchbook.live import ANNOUNCEMENTS_SHOWN, names_of

if TYPE_CHECKING:
    from futmesa.table.daemon import TableDaemon


def table_state(t: TableDaemon) -> dict[str, Any]:
    """The state of the table ``t`` serves, now."""
    info = t.info
    settings = (t.match or {}).get("settings") or {}
    return state_json(
        table_id=t.table_id,
        match_id=t.match["id"] if t.match else None,
        ruleset=t.match["ruleset"] if t.match else t.ruleset_name,
        match=t.state.to_dict(ANNOUNCEMENTS_SHOWN) if t.state is not None else {},
        status=t.status, status_wall_ms=t.status_wall_ms,
        profile=t.profile() if t.book else None,
        table_name=names_of(t.table_id, t.settings),
        interval_at=t.clock.interval_start(t.book.interval_began() if t.book else None),
        event=str(settings.get("event") or ""),
        referee=str((t.match or {}).get("referee") or ""),
        period_ms=settings.get("period_ms"),
        # the format the match was opened with (none given: a league, as rules/core.py reads it)
        competition=str(settings.get("competition") or "league") if t.match else None,
        # a void or a correction, the newest entry: what every TV says of it (issue 45 #4)
        correction=t.book.live_log.correction() if t.book else None,
        link=LinkView(connected=t.connected, reason=t.link_reason, lost_at=t.lost_wall_ms,
                      last_event_at=t.last_event_wall_ms,
                      heard_at=max(t.last_event_wall_ms, t.clock.status_wall_ms),
                      bad_frames=t.link.stats.bad_frames,
                      device=info.uid if info else None,
                      firmware=info.firmware if info else None,
                      board=info.board if info else None,
                      tick_rate=info.tick_rate if info else None,
                      clock_rate=t.clock_rate() if info else None,
                      reset=dict(t.resets.view) if t.resets.view else None,
                      sensor_faults=t.sensor_faults))
