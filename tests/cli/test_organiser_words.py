"""Organisers' words accepted (issue 23, item 2): "mata-mata", rulesets by their titles with
or without accents, and every problem of a settings file at once, each at its line with a
"você quis dizer"."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from futmesa.cli import cli
from futmesa.competition.settings import SettingsFileError, load_settings
from futmesa.config import SettingsError, load_settings_file, validate_settings
from futmesa.rules import UnknownRuleset, resolve_ruleset
from futmesa.sim.table import SimTable
from futmesa_testkit.liveserver import free_port

FUTMESA = str(Path(sys.executable).with_name("futmesa"))

FOUR_MISTAKES = """{
  "competiton": "knockout",
  "kickoff": "C",
  "half_minutes": 0.5,
  "teams": {
    "A": {"name": "Grêmio", "colour": "#ffffff"}
  }
}
"""


def test_four_mistakes_are_four_lines_in_one_run_each_at_its_line(tmp_path: Path) -> None:
    path = tmp_path / "copa.json"
    path.write_text(FOUR_MISTAKES, encoding="utf-8")
    result = CliRunner().invoke(cli, ["serve", "--device", str(tmp_path / "ttyACM9"),
                                      "--db", str(tmp_path / "m.sqlite"),
                                      "--settings", str(path)])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if str(path) in line]
    assert len(lines) == 4, result.output
    by_line = {int(line.split(" linha ")[1].split(":")[0]): line for line in lines}
    assert sorted(by_line) == [2, 3, 4, 6], result.output
    assert 'você quis dizer "competition"?' in by_line[2]
    assert '"kickoff" deve ser' in by_line[3]
    assert '"half_minutes" deve estar entre 1 e 60 minutos' in by_line[4]
    assert 'você quis dizer "color"?' in by_line[6]
    assert not (tmp_path / "m.sqlite").exists()


@pytest.mark.parametrize(("written", "engine"), [
    ("mata-mata", "knockout"), ("Mata-Mata", "knockout"), ("mata mata", "knockout"),
    ("pontos corridos", "league"), ("Pontos Corridos", "league"), ("knockout", "knockout"),
])
def test_the_competition_in_the_organisers_words(written: str, engine: str) -> None:
    assert validate_settings({"competition": written}) == {"competition": engine}


def test_a_misspelt_competition_gets_a_suggestion(tmp_path: Path) -> None:
    path = tmp_path / "copa.json"
    path.write_text('{\n  "competition": "mata-mate"\n}\n')
    with pytest.raises(SettingsError) as caught:
        load_settings_file(path)
    assert str(caught.value).startswith(f"{path} linha 2: ")
    assert 'você quis dizer "mata-mata"?' in str(caught.value)


@pytest.mark.parametrize(("written", "ruleset"), [
    ("gaúcha", "gaucha"), ("gaucha", "gaucha"), ("GAÚCHA", "gaucha"),
    ("Regra Gaúcha (LGFM)", "gaucha"), ("CBFM 1 Toque", "cbfm-1toque"),
    ("cbfm 1 toque", "cbfm-1toque"), ("Pastilha 8x2", "pastilha-8x2"),
    ("pastilha-8x2-clube", "pastilha-8x2-clube"), ("a mesa está posta", "mesa-posta"),
])
def test_a_ruleset_by_its_title(written: str, ruleset: str) -> None:
    assert resolve_ruleset(written) == ruleset


def test_an_unknown_ruleset_gets_a_suggestion_and_the_titles() -> None:
    with pytest.raises(UnknownRuleset) as caught:
        resolve_ruleset("gaúxa")
    assert 'você quis dizer "Regra Gaúcha (LGFM)"?' in str(caught.value)
    assert "CBFM Regra 1 Toque" in str(caught.value)
    with pytest.raises(UnknownRuleset, match="ambígua"):
        resolve_ruleset("pastilha")


def test_serve_with_ruleset_gaucha_runs_the_gaucha_ruleset(tmp_path: Path) -> None:
    port = free_port()
    state: dict = {}
    with SimTable(speed=10) as sim:
        proc = subprocess.Popen(
            [FUTMESA, "serve", "--device", sim.host_port, "--ruleset", "gaúcha",
             "--db", str(tmp_path / "m.sqlite"), "--http-port", str(port),
             "--http-host", "127.0.0.1"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 60
            while not state.get("ruleset"):   # the table connected: its match has a ruleset
                assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
                assert time.monotonic() < deadline, state
                time.sleep(0.1)
                try:
                    state = httpx.get(f"http://127.0.0.1:{port}/api/state", timeout=1).json()
                except httpx.HTTPError:
                    continue
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    assert state["ruleset"] == "gaucha"


def test_rerun_refuses_a_misspelt_ruleset_with_a_suggestion(tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite"
    db.write_bytes(b"")
    result = CliRunner().invoke(cli, ["rerun", "1", "--ruleset", "gaúxa", "--db", str(db)])
    assert result.exit_code == 2
    assert 'você quis dizer "Regra Gaúcha (LGFM)"?' in result.output


def test_competition_settings_in_the_organisers_words(tmp_path: Path) -> None:
    path = tmp_path / "torneio.json"
    path.write_text(json.dumps({"format": "Grupos e Mata-Mata", "ruleset": "CBFM 1 Toque",
                                "match_settings": {"competition": "mata-mata"}}))
    settings = load_settings(path)
    assert settings.format == "groups_knockout"
    assert settings.ruleset == "cbfm-1toque"
    assert settings.match_settings == {"competition": "knockout"}
    path.write_text(json.dumps({"format": "pontos corridos", "ruleset": "gaúcha"}))
    assert (load_settings(path).format, load_settings(path).ruleset) == ("league", "gaucha")


def test_competition_settings_every_problem_at_its_line(tmp_path: Path) -> None:
    path = tmp_path / "torneio.json"
    path.write_text("""{
  "fromat": "league",
  "ruleset": "gaúxa",
  "tables": 0,
  "match_settings": {
    "half_minute": 10
  }
}
""")
    with pytest.raises(SettingsFileError) as caught:
        load_settings(path)
    lines = str(caught.value).splitlines()
    assert len(lines) == 4, lines
    text = "\n".join(lines)
    assert f"{path} linha 2: " in text and 'você quis dizer "format"?' in text
    assert f"{path} linha 3: " in text and 'você quis dizer "Regra Gaúcha (LGFM)"?' in text
    assert f"{path} linha 4: " in text
    assert f"{path} linha 6: " in text and 'você quis dizer "half_minutes"?' in text
