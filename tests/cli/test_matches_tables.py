"""`futmesa matches` names each match's own table (issue 45 blind walk, medium 5): the name the
settings gave it, else "Mesa N" from its id — never "Mesa 1" for every one; its score reads
"A 0 × 0 B" as every other screen."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from futmesa.cli import cli
from futmesa.store import EventLog

TEAMS = {"A": {"name": "Estrela do Norte"}, "B": {"name": "Botafogo da Mesa"}}


def test_each_match_names_its_own_table(tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite"
    store = EventLog(db)
    store.new_match("sim-SIM00001", "cbfm-1toque", {"teams": TEAMS}, "")
    store.new_match("sim-SIM00002", "cbfm-1toque", {"teams": TEAMS}, "")
    store.new_match("pico-e6614c311b7a2f35", "gaucha",
                    {"teams": TEAMS, "table_name": "Mesa Central"}, "")
    store.new_match("sim-SIM00003", "cbfm-1toque",
                    {"teams": TEAMS, "table_names": {"sim-SIM00003": "Mesa do Fundo"}}, "")
    store.close()
    result = CliRunner().invoke(cli, ["--lang", "pt", "matches", "--db", str(db)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert len(lines) == 4, result.output
    named = {line.split()[0]: line for line in lines}
    assert "Mesa 1 " in named["1"] and "Mesa 2 " in named["2"], result.output
    assert "Mesa Central" in named["3"] and "Mesa do Fundo" in named["4"], result.output
    # the score with ×, as on every other screen (walk50b L6: a plain x)
    assert "Estrela do Norte 0 × 0 Botafogo da Mesa" in named["1"], result.output
