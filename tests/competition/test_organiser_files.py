"""Organisers' files as spreadsheets write them (issue 21): every encoding and separator
read, names compared by their Unicode casefold, a stated team limit, formulas never exported
live, every settings range checked and every problem listed at once — through the real
``futmesa competition`` command, with one clear message and no traceback."""

from __future__ import annotations

import csv
import io
import json
import subprocess
from pathlib import Path

import pytest

from futmesa.competition.files import cell, decode, sniff_delimiter
from futmesa.competition.teams import MAX_TEAMS, TeamFileError, read_teams_csv, write_teams_csv
from futmesa_testkit.venue import FUTMESA

TEAMS = ["Grêmio Botão", "União Operária", "Náutico", "São Paulo da Mesa"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([FUTMESA, *args], capture_output=True, text=True, timeout=120)


def csv_text(sep: str, names: list[str] = TEAMS) -> str:
    return f"name{sep}color\n" + "".join(f"{n}{sep}#123456\n" for n in names)


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "latin-1",
                                      "cp1252"])
@pytest.mark.parametrize("sep", [",", ";"])
def test_every_spreadsheet_encoding_and_separator(tmp_path: Path, encoding: str,
                                                  sep: str) -> None:
    path = tmp_path / "teams.csv"
    path.write_bytes(csv_text(sep).encode(encoding))
    out = run("competition", "new", "--db", str(tmp_path / "d.sqlite"), "--teams", str(path),
              "--settings", str(_settings(tmp_path, {"format": "league"}, encoding)))
    assert out.returncode == 0, out.stderr
    listed = run("competition", "export-teams", "--db", str(tmp_path / "d.sqlite")).stdout
    assert [r["name"] for r in csv.DictReader(io.StringIO(listed))] == TEAMS


def _settings(tmp_path: Path, data: dict, encoding: str = "utf-8") -> Path:
    path = tmp_path / "settings.json"
    path.write_bytes(json.dumps({"name": "Taça Região", **data},
                                ensure_ascii=False).encode(encoding))
    return path


def test_names_are_compared_by_their_unicode_casefold() -> None:
    teams = read_teams_csv(csv_text(",", ["東京 FC", "大阪 FC", "Ａｌｆａ", "Beta"]))
    assert len({t.key for t in teams}) == 4
    with pytest.raises(TeamFileError, match="linha 3: a equipe 'ALFA' já está na linha 2"):
        read_teams_csv(csv_text(",", ["Ａｌｆａ", "ALFA", "Beta"]))  # full-width = the same
    with pytest.raises(TeamFileError) as punct:
        read_teams_csv(csv_text(",", ["...", "!!!", "Beta", "Gama"]))
    assert str(punct.value).splitlines() == [
        "linha 2, coluna name: o nome precisa ter ao menos uma letra ou um número",
        "linha 3, coluna name: o nome precisa ter ao menos uma letra ou um número"]


def test_every_problem_of_a_teams_file_at_once(tmp_path: Path) -> None:
    path = tmp_path / "teams.csv"
    path.write_text("name;color\nA;#ffffff\nB;red\n;#000000\nA;#000000\nC;#zz\n",
                    encoding="utf-8")
    out = run("competition", "import-teams", str(path), "--db", str(tmp_path / "d.sqlite"))
    assert out.returncode == 1 and "Traceback" not in out.stderr
    lines = [x for x in out.stderr.splitlines() if x.strip()]
    assert len(lines) == 4, out.stderr  # red, empty name, A twice, #zz
    assert "linha 3, coluna color" in lines[0] and "linha 6, coluna color" in lines[3]


def test_a_stated_limit_on_teams(tmp_path: Path) -> None:
    path = tmp_path / "teams.csv"
    path.write_text(csv_text(",", [f"Equipe {i}" for i in range(10_000)]), encoding="utf-8")
    out = run("competition", "new", "--db", str(tmp_path / "d.sqlite"), "--teams", str(path))
    assert out.returncode == 1 and "Traceback" not in out.stderr
    assert f"10000 equipes: uma competição tem no máximo {MAX_TEAMS}" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "d.sqlite").exists() or "partidas" not in out.stdout


def test_spreadsheet_formulas_are_exported_inert(tmp_path: Path) -> None:
    evil = ['=HYPERLINK("http://x.example","clique")', "+1+1", "-2+3", "@SUM(A1)", "Beta"]
    path = tmp_path / "teams.csv"
    path.write_text("name,color,players\n" + "".join(
        f'"{n.replace(chr(34), chr(34) * 2)}",#111111,=cmd|x\n' for n in evil), encoding="utf-8")
    db = str(tmp_path / "d.sqlite")
    assert run("competition", "import-teams", str(path), "--db", db).returncode == 0
    exported = run("competition", "export-teams", "--db", db).stdout
    for row in list(csv.reader(io.StringIO(exported)))[1:]:
        for value in row:
            assert not value.startswith(("=", "+", "-", "@")), row
    # read back, the names are the organiser's own
    assert [t.name for t in read_teams_csv(exported)] == evil
    assert cell(-3) == -3 and cell("-3") == "'-3"


def test_settings_ranges_checked_at_creation_all_problems_at_once(tmp_path: Path) -> None:
    path = tmp_path / "teams.csv"
    path.write_text(csv_text(","), encoding="utf-8")
    bad = _settings(tmp_path, {"tables": 0, "groups": 99, "walkover_score": -1,
                               "match_settings": {"period_ms": 1}})
    out = run("competition", "new", "--db", str(tmp_path / "d.sqlite"), "--teams", str(path),
              "--settings", str(bad))
    assert out.returncode == 1 and "Traceback" not in out.stderr
    for what in ("groups: deve ser no máximo 16", "tables: deve ser no mínimo 1",
                 "walkover_score: deve ser no mínimo 0", '"period_ms" deve estar entre'):
        assert what in out.stderr, out.stderr
    unreadable = tmp_path / "s.json"
    unreadable.write_bytes(b"{\"name\": \"Ta\xe7a\", ")
    out = run("competition", "new", "--db", str(tmp_path / "d.sqlite"), "--settings",
              str(unreadable))
    assert out.returncode == 1 and "JSON inválido" in out.stderr
    assert "Traceback" not in out.stderr


def test_settings_of_the_wrong_shape_are_named_in_the_organisers_words() -> None:
    from futmesa.competition.settings import SettingsFileError, parse_settings

    with pytest.raises(SettingsFileError) as caught:
        parse_settings({"name": 5, "points": "x", "tie_breaks": "wins", "match_settings": [1]})
    lines = str(caught.value).splitlines()
    assert len(lines) == 4, lines
    for line in ("name: deve ser um texto entre aspas (veio 5)",
                 "points: deve ser um objeto {\"…\": …} (veio 'x')",
                 "tie_breaks: deve ser uma lista [\"…\", \"…\"] (veio 'wins')",
                 "match_settings: deve ser um objeto"):
        assert any(line in got for got in lines), (line, lines)
    assert "Input should" not in str(caught.value)


def test_decode_and_sniff() -> None:
    assert decode("Grêmio".encode("cp1252")) == "Grêmio"
    assert decode("Grêmio".encode("utf-16-be")) == "Grêmio"
    assert decode(b"\xef\xbb\xbfname") == "name"
    assert sniff_delimiter("name;color,x;y\n") == ";"
    assert sniff_delimiter("name\n") == ","
    assert write_teams_csv(read_teams_csv(csv_text(";"))).startswith("name,short")


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16", "latin-1", "cp1252"])
def test_a_tables_settings_file_in_any_encoding(tmp_path: Path, encoding: str) -> None:
    from futmesa.config import load_settings_file

    path = tmp_path / "mesa.json"
    path.write_bytes(json.dumps({"half_minutes": 10, "event": "Taça São João"},
                                ensure_ascii=False).encode(encoding))
    assert load_settings_file(path) == {"event": "Taça São João", "period_ms": 600_000}


def test_an_organisers_file_problems_in_english_too(english: None) -> None:
    """The same checks speak English when the process does (--lang en): msgid and catalog."""
    from futmesa.competition.settings import SettingsFileError, parse_settings

    with pytest.raises(TeamFileError) as teams:
        read_teams_csv("name,color\nAlfa,#c8102e\nalfa,#000000\nBeta,red\n")
    assert str(teams.value).splitlines() == [
        "line 3: the team 'alfa' is already on line 2",
        "line 4, column color: a colour is written #rrggbb, for example #c8102e"]
    with pytest.raises(SettingsFileError) as settings:
        parse_settings({"groups": 99, "tie_breaks": ["win"], "formt": "league"})
    said = str(settings.value)
    assert "groups: must be at most 16 (got 99)" in said
    assert 'unknown tie-break \'win\': did you mean "wins"?' in said
    assert 'formt: unknown key: did you mean "format"?' in said


def test_a_teams_sheet_with_portuguese_headers() -> None:
    """The organiser's spreadsheet has its header in Portuguese, as typed (capitals, accents):
    every column is read, none taken for an unknown one."""
    from futmesa.competition.teams import read_teams_csv

    teams = read_teams_csv("Nome;Sigla;Cor;Escudo;Jogadores;Clube;Pote\n"
                           "Grêmio Botão;GRE;#0d80bf;;Ana, Bruno;Clube Botão RS;1\n"
                           "Mesa Carioca;MCA;#1d1d1b;;Carla;Liga Carioca;2\n")
    g = teams[0]
    assert (g.name, g.short, g.color, g.players, g.club, g.pot) == (
        "Grêmio Botão", "GRE", "#0d80bf", ["Ana", "Bruno"], "Clube Botão RS", 1)
    assert teams[1].pot == 2
