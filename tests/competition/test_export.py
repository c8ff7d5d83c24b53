"""The day's exports (issue 33): standings, schedule, scorers and discipline as XLSX (read
back with openpyxl) and as CSV for a Brazilian Excel, through the CLI as an organiser runs it."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner
from openpyxl import load_workbook

from futmesa.cli import cli
from futmesa.competition.db import CompetitionDB
from futmesa.competition.settings import parse_settings
from futmesa.competition.teams import read_teams_csv
from futmesa.store import EventLog

CSV = "name;clube\n=Estrela do Norte;Clube Botão RS\nBotafogo da Mesa;Mesa Carioca\n" \
      "Grêmio F.C.;Clube Botão RS\nUnião Operária;Liga Sul\n"


def _played(tmp_path: Path) -> Path:
    path = tmp_path / "desk.sqlite"
    EventLog(path).close()
    db = CompetitionDB(path)
    db.import_teams(read_teams_csv(CSV))
    cid = db.create(parse_settings({"format": "league", "tables": 2}))
    for i, m in enumerate(db.matches(cid)):
        goals = [{"side": "A", "disc": 7, "own_goal": False},
                 {"side": "B", "disc": None, "own_goal": True}]
        db.record_result(m["id"], f"t:{m['id']}", {
            "score_a": 1, "score_b": 1, "winner": None, "reason": "time", "rule": "",
            "detail": {"goals": goals,
                       "discipline": {"A": {"disciplinary": i % 2, "expelled": 0},
                                      "B": {"disciplinary": 0, "expelled": 0}}}})
    first = db.matches(cid)[0]
    db.decisions.add_sanction(first["team_a"], "match_points", first["id"])
    db.close()
    return path


def test_the_workbook_and_the_csv_files(tmp_path: Path) -> None:
    db = _played(tmp_path)
    out = tmp_path / "saida"
    r = CliRunner().invoke(cli, ["--lang", "pt_BR", "competition", "export", "--db", str(db),
                                  "--xlsx", str(out / "copa.xlsx"), "--csv", str(out / "csv")])
    assert r.exit_code == 0, r.output
    wb = load_workbook(out / "copa.xlsx")
    assert wb.sheetnames == ["Classificação", "Colocação final", "Tabela", "Artilharia",
                             "Disciplina"]
    # what a federation archives (issue 47 §16): the final places, each match's date and time
    placings = [[c.value for c in row] for row in wb["Colocação final"].iter_rows()]
    assert placings[0] == ["Posição", "Equipe", "Clube"] and placings[1][0] == 1
    assert len(placings) == 5
    table = [[c.value for c in row] for row in wb["Tabela"].iter_rows()]
    assert table[0][1] == "Data e hora" and "Rodada" not in table[0]
    assert all(re.fullmatch(r"\d\d/\d\d/\d{4} \d\d:\d\d", row[1]) for row in table[1:])
    standings = [[c.value for c in row] for row in wb["Classificação"].iter_rows()]
    assert standings[0][:3] == ["Grupo", "Posição", "Equipe"]
    assert len(standings) == 5 and {row[2] for row in standings[1:]} >= {"Botafogo da Mesa"}
    # a name that starts like a formula is written inert
    assert "'=Estrela do Norte" in {row[2] for row in standings[1:]}
    scorers = [[c.value for c in row] for row in wb["Artilharia"].iter_rows()]
    assert scorers[0] == ["Equipe", "Botão", "Gols"]
    sevens = [row for row in scorers[1:] if row[1] == "7"]
    assert sum(row[2] for row in sevens) == 6, "disc 7 of side A in each of the six matches"
    assert [row[2] for row in sevens] == sorted((row[2] for row in sevens), reverse=True)
    assert any(row[1] == "gol contra" for row in scorers)
    discipline = [[c.value for c in row] for row in wb["Disciplina"].iter_rows()]
    assert any(row[3] == "pontos de uma partida perdidos" for row in discipline)
    text = (out / "csv" / "classificacao.csv").read_bytes()
    assert text.startswith("\ufeff".encode()), "UTF-8 with its mark, for Excel"
    assert "Grêmio F.C.".encode() in text and b";" in text
    assert sorted(p.name for p in (out / "csv").iterdir()) == [
        "artilharia.csv", "classificacao.csv", "colocacao-final.csv", "disciplina.csv",
        "tabela.csv"]


def test_export_says_where_and_refuses_a_bad_place(tmp_path: Path) -> None:
    db = _played(tmp_path)
    r = CliRunner().invoke(cli, ["--lang", "pt_BR", "competition", "export", "--db", str(db)])
    assert r.exit_code != 0 and "--xlsx" in r.output
    blocker = tmp_path / "arquivo"
    blocker.write_text("x")
    r = CliRunner().invoke(cli, ["--lang", "pt_BR", "competition", "export", "--db", str(db),
                                  "--xlsx", str(blocker / "copa.xlsx")])
    assert r.exit_code == 1 and "Traceback" not in r.output, r.output
