"""`futmesa demo --tournament N`: a whole small competition from the draw to the final."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from futmesa.competition.db import CompetitionDB
from futmesa.netaddr import public_base_url
from futmesa_testkit.livetable import free_port

pytestmark = pytest.mark.slow
FUTMESA = str(Path(sys.executable).with_name("futmesa"))


def test_tournament_demo_plays_groups_and_final_and_stops_everything(tmp_path: Path) -> None:
    desk_file = tmp_path / "torneio.sqlite"
    desk_port = free_port()
    proc = subprocess.run(
        [FUTMESA, "demo", "--tournament", "4", "--exit-when-done", "--http-port",
         str(free_port()), "--desk-port", str(desk_port), "--db", str(desk_file)],
        capture_output=True, text=True, timeout=300)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    champion = re.search(r"CAMPEÃO: (.+)", out)
    assert champion, out
    # the addresses a phone on the venue network opens (issue 23), and how to stop
    assert f"quadro do local: {public_base_url('0.0.0.0', desk_port)}/ " in out, out
    assert "Ctrl-C para parar" in out
    # --db names the desk's file: kept, with the tables' event log next to it
    assert f"guardados: o arquivo da mesa de controle {desk_file}" in out
    assert (tmp_path / "torneio-mesas.sqlite").exists()
    db = CompetitionDB(desk_file)
    comp = db.competition()
    matches = db.matches(comp["id"])
    assert [m["stage"] for m in matches] == ["group", "group", "ko"]
    assert all(m["status"] == "finished" for m in matches)
    final = matches[-1]
    winner = final["team_a"] if final["result"]["winner"] == "A" else final["team_b"]
    assert db.team_map()[winner].name == champion.group(1).strip()
    # the broker went away with the demo
    port = int(re.search(r"mqtt://127.0.0.1:(\d+)", out).group(1))  # type: ignore[union-attr]
    with socket.socket() as s:
        assert s.connect_ex(("127.0.0.1", port)) != 0


def test_tournament_demo_refuses_a_db_that_exists(tmp_path: Path) -> None:
    """Issue 23: --db was silently ignored with --tournament."""
    desk_file = tmp_path / "torneio.sqlite"
    desk_file.write_bytes(b"")
    proc = subprocess.run([FUTMESA, "demo", "--tournament", "4", "--db", str(desk_file)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert f"{desk_file} já existe" in proc.stderr and "Traceback" not in proc.stderr


def test_championship_demo_plays_a_swiss_day_and_writes_the_spreadsheets(
        tmp_path: Path) -> None:
    """Issue 33: `futmesa demo --championship` — two categories sharing six simulated tables
    over a real mosquitto: Aberto, twelve teams of four clubs in pots, three Swiss rounds (each
    drawn when the last is over, no rematch, a bye never needed with 12) into semi-finals and
    a final; Sub-18, two groups of four into an Ouro and a Prata final. It prints each
    champion and where the spreadsheets are, and they hold the day."""
    from openpyxl import load_workbook

    desk_file = tmp_path / "campeonato.sqlite"
    exports = tmp_path / "planilhas"
    proc = subprocess.run(
        [FUTMESA, "demo", "--championship", "--exit-when-done", "--http-port",
         str(free_port()), "--desk-port", str(free_port()), "--db", str(desk_file),
         "--exports", str(exports)],
        capture_output=True, text=True, timeout=600)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    champion = re.search(r"CAMPEÃO \(Aberto\): (.+)", out)
    assert champion, out
    ouro = re.search(r"CAMPEÃO \(Sub-18 Ouro\): (.+)", out)
    prata = re.search(r"CAMPEÃO \(Sub-18 Prata\): (.+)", out)
    assert ouro and prata, out
    assert f"As planilhas do dia: {exports / 'campeonato.xlsx'}" in out, out
    db = CompetitionDB(desk_file)
    young, comp = db.active()
    assert comp["settings"].format == "swiss_knockout"
    matches = db.matches(comp["id"])
    swiss = [m for m in matches if m["stage"] == "swiss"]
    assert sorted({m["round"] for m in swiss}) == [1, 2, 3] and len(swiss) == 18
    pairs = [frozenset((m["team_a"], m["team_b"])) for m in swiss]
    assert len(set(pairs)) == len(pairs), "no rematch in the Swiss phase"
    assert all(m["status"] == "finished" for m in matches)
    final = next(m for m in matches if m["stage"] == "ko" and m["round"] == 2)
    winner = final["team_a"] if final["result"]["winner"] == "A" else final["team_b"]
    assert db.team_map()[winner].name == champion.group(1).strip()
    sub18 = db.matches(young["id"])
    assert all(m["status"] == "finished" for m in sub18) and len(sub18) == 14
    tables = [m["table_id"] for m in matches + sub18]
    assert len(set(tables)) == 6, "the categories shared the six tables"
    book = load_workbook(exports / "campeonato.xlsx")
    assert book.sheetnames == [f"{c} · {s}" for c in ("Sub-18", "Aberto")
                               for s in ("Classificação", "Colocação final", "Tabela",
                                         "Artilharia", "Disciplina")]
    assert book["Aberto · Tabela"].max_row == len(matches) + 1
    goals = sum(int(r[2]) for r in book["Aberto · Artilharia"].iter_rows(min_row=2,
                                                                          values_only=True))
    scored = sum(m["result"]["score_a"] + m["result"]["score_b"] for m in matches)
    assert goals == scored, "every goal of the day in the scorers' sheet"
    assert (exports / "csv" / "aberto-classificacao.csv").exists()
