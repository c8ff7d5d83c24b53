"""One limit for each name (issue 47 §5): the teams file takes no longer a name than a
table's match settings do (the same constant), and says so in one line with the file, the
line and the column, before the day starts — not when the referee presses "Iniciar"."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from futmesa.cli import cli
from futmesa.competition.teams import TEAM_NAME_MAX, read_teams_csv
from futmesa.config import validate_settings

LONG = "Grêmio Esportivo Botonista de Porto Alegre"  # 42 characters


def test_the_teams_file_and_the_table_share_one_limit(tmp_path: Path) -> None:
    fits = "G" * TEAM_NAME_MAX
    team = read_teams_csv(f"name\n{fits}\nOutro\n")[0]
    validate_settings({"teams": {"A": team.as_side()}})  # the table takes it
    csv = tmp_path / "times.csv"
    csv.write_text(f"name\nEstrela\n{LONG}\n", encoding="utf-8")
    r = CliRunner().invoke(cli, ["--lang", "pt_BR", "competition", "import-teams", str(csv),
                                 "--db", str(tmp_path / "d.sqlite")])
    lines = r.output.strip().splitlines()
    assert r.exit_code != 0 and len(lines) == 1, r.output
    assert str(csv) in lines[0] and "linha 3" in lines[0] and "coluna name" in lines[0]
    assert f"mais de {TEAM_NAME_MAX} caracteres" in lines[0] and "Traceback" not in r.output


def test_a_problem_names_the_column_as_the_file_wrote_it() -> None:
    import pytest

    from futmesa.competition.teams import TeamFileError

    with pytest.raises(TeamFileError) as err:
        read_teams_csv(f"nome;pote\nAlfa;x\n{LONG}x;1\n")
    lines = str(err.value).splitlines()
    assert "coluna pote" in lines[0] and "coluna nome" in lines[1], lines
