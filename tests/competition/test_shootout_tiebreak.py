"""A tie-break shoot-out (issue 33 §3; FISTF days and Brazilian federations decide a place
between teams level on every criterion by a shoot-out): the organiser puts "shootout" among
the tie-breaks; when the group is over with teams still level on everything before it,
their rows say a shoot-out is due and the knockout waits for it; `competition shootout`
records it (the winner first) and the places, and the knockout, follow."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from futmesa.cli import cli
from futmesa.competition.db import CompetitionDB
from futmesa.competition.settings import parse_settings
from futmesa.competition.teams import read_teams_csv

TEAMS = "nome\nAlfa\nBeta\nGama\n"


def level_group(tmp_path: Path, tie_breaks: list[str]) -> tuple[CompetitionDB, int, Path]:
    """One group of three into a final; each team beats one and loses to one, 1 × 0: level
    on points, wins, goal difference, goals, head-to-head, goals conceded."""
    path = tmp_path / "desk.sqlite"
    db = CompetitionDB(path)
    db.import_teams(read_teams_csv(TEAMS))
    cid = db.create(parse_settings({"format": "groups_knockout", "groups": 1, "advance": 2,
                                    "tie_breaks": tie_breaks}))
    winners = {frozenset(("alfa", "beta")): "alfa", frozenset(("beta", "gama")): "beta",
               frozenset(("gama", "alfa")): "gama"}
    for m in db.matches(cid):
        if m["stage"] != "group":
            continue
        w = winners[frozenset((m["team_a"], m["team_b"]))]
        side = "A" if m["team_a"] == w else "B"
        db.record_result(m["id"], f"t:{m['id']}", {
            "score_a": 1 if side == "A" else 0, "score_b": 0 if side == "A" else 1,
            "winner": side, "reason": "time", "rule": ""})
    db.advance(cid)
    return db, cid, path


def final(db: CompetitionDB, cid: int) -> dict[str, object]:
    return next(m for m in db.matches(cid) if m["stage"] == "ko")


def test_the_knockout_waits_for_the_shootout(tmp_path: Path) -> None:
    breaks = ["wins", "goal_difference", "goals_for", "head_to_head", "shootout", "lots"]
    db, cid, path = level_group(tmp_path, breaks)
    [rows] = db.table(cid).values()
    assert all(r["shootout_due"] for r in rows)
    assert all("disputa de pênaltis de desempate a jogar" in r["notes"] for r in rows), rows
    assert final(db, cid)["team_a"] is None, "the final filled before the shoot-out"

    r = CliRunner().invoke(cli, ["competition", "shootout", "--db", str(path), "--group",
                                 "a", "Gama", "Alfa"])
    assert r.exit_code != 0 and "Alfa, Beta, Gama" in r.output, r.output  # all three
    r = CliRunner().invoke(cli, ["competition", "shootout", "--db", str(path), "--group",
                                 "A", "Gama", "Alfa", "Zeta"])
    assert r.exit_code != 0 and "Zeta" in r.output and "Traceback" not in r.output
    r = CliRunner().invoke(cli, ["competition", "shootout", "--db", str(path), "--group",
                                 "A", "Gama", "Alfa", "Beta"])
    assert r.exit_code == 0, r.output
    [rows] = db.table(cid).values()
    assert [x["team"] for x in rows] == ["gama", "alfa", "beta"]
    assert not any(x["shootout_due"] for x in rows)
    assert "posição decidida por disputa de pênaltis de desempate" in rows[0]["notes"]
    f = final(db, cid)
    assert (f["team_a"], f["team_b"]) in (("gama", "alfa"), ("alfa", "gama"))
    r = CliRunner().invoke(cli, ["competition", "shootout", "--db", str(path), "--group",
                                 "A", "Gama", "Alfa", "Beta"])
    assert r.exit_code != 0 and "decidid" in r.output, r.output


def test_without_the_criterion_nothing_waits(tmp_path: Path) -> None:
    db, cid, path = level_group(tmp_path, ["wins", "goal_difference", "lots"])
    [rows] = db.table(cid).values()
    assert not any(r["shootout_due"] for r in rows)
    assert final(db, cid)["team_a"] is not None
    r = CliRunner().invoke(cli, ["competition", "shootout", "--db", str(path), "--group",
                                 "A", "Gama", "Alfa", "Beta"])
    assert r.exit_code != 0 and '"shootout"' in r.output, r.output


def test_a_group_still_playing_owes_no_shootout(tmp_path: Path) -> None:
    path = tmp_path / "desk.sqlite"
    db = CompetitionDB(path)
    db.import_teams(read_teams_csv(TEAMS))
    cid = db.create(parse_settings({"format": "groups_knockout", "groups": 1, "advance": 2,
                                    "tie_breaks": ["wins", "shootout"]}))
    [rows] = db.table(cid).values()  # all level on nothing played: no shoot-out yet
    assert not any(r["shootout_due"] for r in rows) and not any(r["notes"] for r in rows)
