"""The day as one plan (issue 47 §1–§3): a match is announced at a table only once the desk
gave it that table; the estimates count a match in play from when it was given, the Swiss
rounds not drawn yet and the knockout after them; a match past its length is "atrasada";
a player between two Swiss rounds is told what comes next and when."""

from __future__ import annotations

import re
from pathlib import Path

from futmesa.competition.db import CompetitionDB
from futmesa.competition.settings import parse_settings
from futmesa.competition.teams import read_teams_csv
from futmesa.i18n import set_language
from futmesa.matchbook.wording import table_name
from futmesa.store import EventLog
from futmesa.venue.desk import Desk
from futmesa.venue.eta import match_seconds
from futmesa.venue.mqtt import Broker
from futmesa.venue.views import competition_view, estimates, team_view

TEAMS = "name\n" + "\n".join(f"Time {c}" for c in "ABCDEFGH") + "\n"


def _desk(tmp_path: Path, tables: int = 4) -> tuple[Desk, int]:
    set_language("pt_BR")
    path = tmp_path / "dia.sqlite"
    EventLog(path).close()
    comp = CompetitionDB(path)
    comp.import_teams(read_teams_csv(TEAMS))
    cid = comp.create(parse_settings({
        "name": "Suíço", "format": "swiss_knockout", "swiss_rounds": 3, "advance": 4,
        "tables": tables, "changeover_minutes": 1,
        "match_settings": {"period_ms": 60000, "interval_ms": 0}}))
    comp.close()
    desk = Desk(str(path), Broker("127.0.0.1", 1), "unused")
    desk.connected = True
    desk.board.tables = {f"mesa-{i}": {"online": True} for i in range(1, tables + 1)}
    return desk, cid


def _win(comp: CompetitionDB, m: dict) -> None:
    comp.record_result(m["id"], f"t:{m['id']}", {"score_a": 1, "score_b": 0, "winner": "A",
                                                 "reason": "time", "rule": ""})


def test_a_table_is_announced_only_once_given(tmp_path: Path) -> None:
    desk, cid = _desk(tmp_path, tables=3)  # 4 pairs on 3 tables: one waits
    try:
        view = competition_view(desk.comp, cid=cid)
        assert all(v["table"] == "" for v in view["matches"]), "a planned table announced"
        desk.progress()
        for v in competition_view(desk.comp, cid=cid)["matches"]:
            if v["status"] == "assigned":
                assert v["table"] == table_name(v["table_id"])
            else:
                assert v["table"] == "" and v["eta"].startswith("~")
        waiting = next(m for m in desk.comp.matches(cid) if m["status"] == "scheduled")
        page = team_view(desk.comp, waiting["team_a"], lang="pt")
        assert page is not None and page["next"]["table"] == "" and page["next"]["eta"]
    finally:
        desk.comp.close()


def test_estimates_count_the_rounds_not_drawn_and_a_late_match(tmp_path: Path) -> None:
    desk, cid = _desk(tmp_path)
    comp = desk.comp
    try:
        c = comp.competition(cid)
        length = match_seconds(c["settings"])
        now = 1_000_000.0
        est = estimates(comp, c, comp.matches(cid), now)
        semis = [m for m in comp.matches(cid) if m["stage"] == "ko" and m["round"] == 1]
        # three Swiss rounds of one slot each come before the semi-finals
        assert all(est.starts[m["id"]] == now + 3 * length for m in semis), est.starts
        final = next(m for m in comp.matches(cid) if m["stage"] == "ko" and m["round"] == 2)
        assert est.starts[final["id"]] == now + 4 * length
        assert est.finish == now + 5 * length
        desk.progress()
        playing = [m for m in comp.matches(cid) if m["status"] == "assigned"]
        given = playing[0]["updated_at"]
        # an estimate made later counts from when the match was given, not from now
        later = estimates(comp, c, comp.matches(cid), given + length / 2)
        assert later.ends[playing[0]["id"]] == given + length
        assert not later.late
        # running 9 minutes late: flagged, and what follows moves
        late_at = given + length + 540
        late = estimates(comp, c, comp.matches(cid), late_at)
        assert late.late == {m["id"] for m in playing}
        assert all(late.starts[m["id"]] >= late_at + 2 * length for m in semis)
        with comp.tx() as db:
            db.execute("UPDATE comp_matches SET updated_at=? WHERE id=?",
                       (given - length - 540, playing[0]["id"]))
        fresh = CompetitionDB(comp.path)  # (the cache keys on the newest change: older here)
        view = competition_view(fresh, cid=cid)
        flagged = [v for v in view["matches"] if v["late"]]
        assert [v["id"] for v in flagged] == [playing[0]["id"]]
        page = team_view(fresh, playing[0]["team_a"], lang="pt")
        assert page is not None and page["next"]["now"] and page["next"]["late"]
        fresh.close()
    finally:
        comp.close()


def test_a_player_between_rounds_is_told_what_comes_next(tmp_path: Path) -> None:
    desk, cid = _desk(tmp_path)
    comp = desk.comp
    try:
        desk.progress()
        first = next(m for m in comp.matches(cid) if m["status"] == "assigned")
        _win(comp, first)
        page = team_view(comp, first["team_a"], lang="pt")
        assert page is not None and page["next"] is not None, "told nothing is left"
        assert page["next"]["waiting"] == "aguarda o sorteio da 2ª rodada"
        assert re.fullmatch(r"~\d\d:\d\d", page["next"]["eta"]), page["next"]
        # round 3 and the knockout: still told, until the Swiss phase is over
        for _round in range(3):
            for m in comp.matches(cid):
                if m["status"] in ("scheduled", "assigned") and m["stage"] == "swiss":
                    _win(comp, m)
            desk.progress()
        ko = [t for m in comp.matches(cid) if m["stage"] == "ko" for t in
              (m["team_a"], m["team_b"]) if t]
        assert len(ko) == 4
        out = next(k for k in comp.team_map() if k not in ko)
        page = team_view(comp, out, lang="pt")
        assert page is not None and page["next"] is None  # out: nothing left, truly
        page = team_view(comp, ko[0], lang="pt")
        assert page is not None and page["next"]["opponent"]
    finally:
        comp.close()
