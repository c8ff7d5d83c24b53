"""The draw sheet on a day of several categories (issue 47 §6): each category's sheet lists
its own teams only, its groups as stored, and names as meeting in the first round only
club-mates its first round really pairs."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from futmesa.cli import cli
from futmesa.competition.db import CompetitionDB
from futmesa.store import EventLog

ADULTO = ("name;club;pot\nAlfa;Clube Sul;1\nBeta;Clube Norte;1\nGama;Clube Sul;2\n"
          "Delta;Clube Norte;2\nÉpsilon;Clube Sul;3\nZeta;Clube Leste;3\n")
MASTER = ("name;club;pot\nVeterano;Clube Sul;1\nAnciao;Clube Norte;1\nSenior;Clube Sul;2\n"
          "Decano;Clube Leste;2\n")


def new_by_category(tmp_path: Path, db: Path, settings: str) -> list[tuple[str, str]]:
    """`futmesa competition new` with `settings` (JSON) for each category, Adulto then Máster,
    in a new day's log `db`: each category and what the command said."""
    EventLog(db).close()
    (tmp_path / "s.json").write_text(settings, encoding="utf-8")
    said = []
    for cat, text in (("Adulto", ADULTO), ("Máster", MASTER)):
        (tmp_path / f"{cat}.csv").write_text(text, encoding="utf-8")
        r = CliRunner().invoke(cli, ["--lang", "pt_BR", "competition", "new", "--db", str(db),
                                     "--teams", str(tmp_path / f"{cat}.csv"), "--settings",
                                     str(tmp_path / "s.json"), "--category", cat])
        assert r.exit_code == 0, r.output
        said.append((cat, r.output))
    return said


def test_each_category_its_own_draw_sheet(tmp_path: Path) -> None:
    db = tmp_path / "dia.sqlite"
    outs = {}
    for cat, output in new_by_category(tmp_path, db, '{"name": "Estadual", "format": '
                                       '"groups_knockout", "groups": 2, "seed": 7}'):
        sheet = output.split("Empate no mata-mata")[1]
        outs[cat] = re.split(r"\n\s+\d+\s+(?:~\d|—)", sheet)[0]  # the schedule follows
    for name in ("Alfa", "Beta", "Gama", "Delta", "Zeta"):
        assert name not in outs["Máster"], outs["Máster"]
    for name in ("Veterano", "Anciao", "Senior", "Decano"):
        assert name not in outs["Adulto"] and name in outs["Máster"], outs
    comp = CompetitionDB(db)
    for c in comp.active():
        sheet = outs[c["settings"].category]
        for group, keys in c["groups"].items():
            listed = []
            for line in sheet.split(f"\nGrupo {group}\n")[1].splitlines():
                if not line.startswith("  "):
                    break
                listed.append(line.strip().split(" (")[0])
            assert set(listed) == {comp.team_map()[k].name for k in keys}, sheet
        firsts = {frozenset((m["team_a"], m["team_b"])) for m in comp.matches(c["id"])
                  if m["stage"] == "group" and m["round"] == 1}
        for line in sheet.splitlines():
            if "primeira rodada" in line:
                pair = [k for k, t in comp.team_map().items() if f" {t.name} " in f" {line} "]
                assert frozenset(pair) in firsts, line
    comp.close()


def test_the_schedule_lists_every_category_with_times(tmp_path: Path) -> None:
    db = tmp_path / "dia.sqlite"
    new_by_category(tmp_path, db, '{"name": "Estadual", "format": "league"}')
    r = CliRunner().invoke(cli, ["--lang", "pt_BR", "competition", "schedule", "--db", str(db)])
    assert r.exit_code == 0 and "== Adulto ==" in r.output and "== Máster ==" in r.output
    lines = [x for x in r.output.splitlines() if x.strip() and not x.startswith("==")]
    assert len(lines) == 15 + 6, r.output
    assert all(re.search(r"~\d\d:\d\d", x) for x in lines), r.output
    assert "rodada" not in r.output  # a time, not the schedule's internal slot number
