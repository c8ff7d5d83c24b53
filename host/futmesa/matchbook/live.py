"""The live match state JSON (docs/architecture.md, "Match state JSON") as a pure function.

Everything it needs is passed in: the rules' match state, the table's last status report,
and what the link knows. The daemon calls it on every change; tests call it directly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import futmesa_wire as W
from futmesa.i18n import translator
from futmesa.link.messages import Profile, Status
from futmesa.matchbook.citations import announcement
from futmesa.matchbook.wording import ruleset_title, table_name
from futmesa.rules.core import RESTART_NAMES


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
    board: str | None = None  # the board the device declares ("pico", "rpi"...)
    lost_at: float = 0.0  # Unix ms the link went down (not connected; 0: not known)
    heard_at: float = 0.0  # Unix ms the table was last heard (a status or an event; 0: never)


# boards whose firmware loop runs on the host's own machine (firmware/boards/linux.py): no
# separate clock, the host's computer keeps the official time (docs/install.md)
HOST_CLOCK_BOARDS = frozenset({"rpi"})


def names_of(table_id: str | None, settings: dict[str, Any] | None) -> str:
    """The table's name: ``table_names[table_id]`` (or ``table_name``) in the settings, else
    "Mesa N" (:func:`futmesa.matchbook.wording.table_name`)."""
    s = settings if isinstance(settings, dict) else {}
    named = s.get("table_names") if isinstance(s.get("table_names"), dict) else {}
    return table_name(table_id, named.get(str(table_id)) or s.get("table_name"))


def in_words(match: dict[str, Any]) -> dict[str, Any]:
    """The match state with the engine's announcements and questions cited in words (a copy:
    the engine's own state is not touched). A refusal is no announcement: it answers one
    input, on the console that sent it (its answer) and in the Registro; a screen never
    says it — walk52b M1: an answer a correction made moot, refused on the replay, stood on
    the TV as «Essa pergunta não está mais pendente: já foi respondida ou retirada»."""
    m = dict(match)
    if isinstance(m.get("announcements"), list):  # the newest: the log keeps every one
        said = [a for a in m["announcements"]
                if not (isinstance(a, dict) and a.get("code") == REFUSED)]
        m["announcements"] = said[-ANNOUNCEMENTS_SHOWN:]
    for key in ("announcements", "pending"):
        if isinstance(m.get(key), list):
            m[key] = [_in_words(a) for a in m[key]]
    if isinstance(m.get("restart"), dict):
        m["restart"] = {**m["restart"], **restart_words(m["restart"], m.get("teams") or {})}
    return m


def restart_words(r: dict[str, Any], teams: dict[str, Any]) -> dict[str, Any]:
    """The restart's words, as the rules announce it (rules/spots.py announce_restart: the
    TV's and the Registro's): ``name`` (its kind, "falta (cobrança direta ou indireta)") and
    ``said`` ("Falta (cobrança direta ou indireta) para Alvorada"), in both languages, for
    the console's restart card (walk 45h-b B2: one wording). Nothing for an unnamed kind."""
    kind, side = r.get("kind"), r.get("side")
    if not isinstance(kind, str) or kind not in RESTART_NAMES:
        return {}
    team = teams.get(side) if isinstance(side, str) else None
    who = str(team.get("name") or side) if isinstance(team, dict) else str(side or "")
    name = dict(zip(("pt", "en"), RESTART_NAMES[kind], strict=True))
    return {"name": name, "said": {
        lang: translator(lang).gettext("{restart} to {team}").format(
            restart=word.capitalize(), team=who) for lang, word in name.items()}}


# the code of a refused input's words (rules/engine.py): never in a published state
REFUSED = "refused"
# the rules' newest announcements a published state carries (a screen shows the newest few;
# what the rules said of every entry is in the console's log, /api/log, and the súmula), so
# the state a table publishes after each entry does not grow with the match
ANNOUNCEMENTS_SHOWN = 100


# id(item) -> (the item, it in words): the engine's items of the growing lists come as the
# same read-only copies each time (MatchState.to_dict), so each is put in words once
_WORDED: dict[int, tuple[Any, Any]] = {}
_WORDED_MAX = 200_000


def _in_words(item: Any) -> Any:
    kept = _WORDED.get(id(item))
    if kept is not None and kept[0] is item:
        return kept[1]
    if len(_WORDED) >= _WORDED_MAX:
        _WORDED.clear()
    said = announcement(item)
    if isinstance(item, dict):
        _WORDED[id(item)] = (item, said)
    return said


def _link_json(link: LinkView) -> dict[str, Any]:
    """The table's link as the screens read it (connected, why not, its board)."""
    return {
        "connected": link.connected,
        "reason": link.reason,
        "last_event_at": round(link.last_event_at),
        # the screens' "sem sinal da mesa há N s" counts from it (walk 50a L2)
        "heard_at": round(link.heard_at),
        "bad_frames": link.bad_frames,
        "device": link.device,
        "reset": dict(link.reset) if link.reset else None,
        "firmware": link.firmware,
        "board": link.board,
        "host_clock": link.board in HOST_CLOCK_BOARDS,
    }


def state_json(*, table_id: str | None, match_id: int | None, ruleset: str,
               match: dict[str, Any], status: Status | None, status_wall_ms: float,
               profile: Profile | None, link: LinkView,
               table_name: str | None = None, interval_at: float | None = None,
               event: str | None = None, referee: str | None = None,
               period_ms: int | None = None, competition: str | None = None,
               correction: dict[str, Any] | None = None) -> dict[str, Any]:
    """The state every view reads, from the match state (``MatchState.to_dict()``) and the table:
    ``interval_at`` is when the table's clock went into its interval (host Unix ms; the screens
    count the interval down), ``event`` the competition the match settings name, ``referee``
    the match's referee, ``period_ms`` the length of a period its settings set (None: the
    rules'), ``competition`` the format its settings chose ("league" / "knockout"; the rules'
    own ``match.competition`` may differ: 004 sends any draw to penalties); the console's
    "Mais" form starts from them; ``correction`` the words of a void or a correction that is
    the newest entry (:meth:`~.live_log.LiveLog.correction`), what every TV says of it."""
    m = in_words(match)
    s = status
    rate = (link.clock_rate if link.clock_rate else
            (link.tick_rate / 1000.0) if link.tick_rate else 1.0)
    at = round(status_wall_ms)
    clock_ms, lance_ms, running = (s.clock_ms, s.lance_ms, s.running) if s else (0, 0, False)
    if s and running and not link.connected:
        # the table is not heard: no screen counts a clock it may not be counting (a power
        # cut: it comes back with its clock restored; walk47b L2). It stands where it read
        # when the link went down
        gone = max(0.0, (link.lost_at or status_wall_ms) - status_wall_ms) * rate
        clock_ms = int(min(s.clock_ms + gone, s.period_ms + s.added_ms))
        lance_ms = int(s.lance_ms - gone) if s.lance_running else s.lance_ms
        running, at = False, round(link.lost_at or status_wall_ms)
    clock = {
        "ms": clock_ms,
        "running": running,
        "rate": rate,
        "at": at,
        "length_ms": s.period_ms if s else (profile.period_ms if profile else 0),
        "added_ms": s.added_ms if s else 0,
        "interval": bool(s and s.flags & W.ST_INTERVAL),
        "time_up": bool(s and s.flags & W.ST_TIME_UP),
        "interval_at": round(interval_at) if interval_at and s and s.flags & W.ST_INTERVAL
        else None,
    }
    lance = {
        "ms": lance_ms,
        # the table's lance waits while its clock is stopped (firmware/lance.py): standing
        "running": bool(s and s.lance_running and running),
        "rate": rate,
        "at": at,
        "length_ms": s.lance_len_ms if s else 0,
        "side": {0: "A", 1: "B"}.get(s.lance_side) if s else None,
    }
    return {
        "table_id": table_id,
        "table_name": table_name or names_of(table_id, None),
        "match_id": match_id,
        "ruleset": ruleset,
        "ruleset_title": ruleset_title(ruleset),
        "event": event or "",
        "referee": referee or "",
        "period_ms": period_ms,
        "competition": competition or "",
        "teams": m.get("teams", {}),
        "score": m.get("score", {"A": 0, "B": 0}),
        "period": m.get("period", s.period if s else 0),
        "periods": m.get("periods", profile.periods if profile else 2),
        "status": m.get("status", "not_started"),
        "finished": bool(m.get("finished", False)),
        "clock": clock,
        "lance": lance,
        "link": _link_json(link),
        "sensor_faults": dict(link.sensor_faults),
        "correction": correction,
        "match": m,
    }
