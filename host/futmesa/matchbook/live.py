"""The live match state JSON (docs/architecture.md, "Match state JSON") as a pure function.

Everything it needs is passed in: the rules' match state, the table's last status report,
and what the link knows. The daemon calls it on every change; tests call it directly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import futmesa_wire as W
from futmesa.link.messages import Profile, Status


@dataclass(frozen=True)
class LinkView:
    """What the link knows about the table, for the ``link`` part of the state."""

    connected: bool = False
    reason: str = ""
    last_event_at: float = 0.0  # Unix ms
    bad_frames: int = 0
    device: str | None = None
    firmware: str | None = None
    tick_rate: int | None = None  # device ms per 1000 real ms, as the device declares it
    clock_rate: float | None = None  # device ms per real ms as measured (time sync)
    sensor_faults: dict[int, str] = field(default_factory=dict)
    reset: dict[str, Any] | None = None  # the table's last reset seen while serving it


def state_json(*, table_id: str | None, match_id: int | None, ruleset: str,
               match: dict[str, Any], status: Status | None, status_wall_ms: float,
               profile: Profile | None, link: LinkView) -> dict[str, Any]:
    """The state every view reads, from the match state (``MatchState.to_dict()``) and the table."""
    m = match
    s = status
    rate = (link.clock_rate if link.clock_rate else
            (link.tick_rate / 1000.0) if link.tick_rate else 1.0)
    at = round(status_wall_ms)
    clock = {
        "ms": s.clock_ms if s else 0,
        "running": bool(s and s.running),
        "rate": rate,
        "at": at,
        "length_ms": s.period_ms if s else (profile.period_ms if profile else 0),
        "added_ms": s.added_ms if s else 0,
        "interval": bool(s and s.flags & W.ST_INTERVAL),
        "time_up": bool(s and s.flags & W.ST_TIME_UP),
    }
    lance = {
        "ms": s.lance_ms if s else 0,
        "running": bool(s and s.lance_running),
        "rate": rate,
        "at": at,
        "length_ms": s.lance_len_ms if s else 0,
        "side": {0: "A", 1: "B"}.get(s.lance_side) if s else None,
    }
    return {
        "table_id": table_id,
        "match_id": match_id,
        "ruleset": ruleset,
        "teams": m.get("teams", {}),
        "score": m.get("score", {"A": 0, "B": 0}),
        "period": m.get("period", s.period if s else 0),
        "periods": m.get("periods", profile.periods if profile else 2),
        "status": m.get("status", "not_started"),
        "finished": bool(m.get("finished", False)),
        "clock": clock,
        "lance": lance,
        "link": {
            "connected": link.connected,
            "reason": link.reason,
            "last_event_at": round(link.last_event_at),
            "bad_frames": link.bad_frames,
            "device": link.device,
            "reset": dict(link.reset) if link.reset else None,
            "firmware": link.firmware,
        },
        "sensor_faults": dict(link.sensor_faults),
        "match": m,
    }
