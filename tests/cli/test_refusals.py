"""Mistakes a person makes at the command line get one line saying what to do, no traceback."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
import serial
from click.testing import CliRunner

from futmesa.cli import cli
from futmesa.config import SettingsError, load_settings_file, validate_settings
from futmesa.store import EventLog

FUTMESA = str(Path(sys.executable).with_name("futmesa"))


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


def _one_line_error(output: str) -> str:
    assert "Traceback" not in output
    errors = [line for line in output.splitlines() if line.startswith("Erro:")]
    assert len(errors) == 1, output
    return errors[0]


# -- the settings file (issue 14: wrong structure, typos, a 0.6-second half) -------------

@pytest.mark.parametrize(("settings", "expected"), [
    ({"teams": [{"name": "Grêmio"}, {"name": "Inter"}]}, '"teams" deve ser um objeto'),
    ({"kickoff": "C"}, '"kickoff" deve ser \'A\' ou \'B\''),
    ({"competiton": "knockout"}, 'você quis dizer "competition"?'),
    ({"half_length": 25}, 'você quis dizer "half_minutes"?'),
    ({"period_ms": 600}, '"period_ms" deve estar entre 60000 e 3600000'),
    ({"half_minutes": 0.01}, '"half_minutes" deve estar entre 1 e 60 minutos'),
    ({"teams": {"A": {"name": "X", "colour": "#ffffff"}}}, 'você quis dizer "color"?'),
    ({"teams": {"A": {"color": "red"}}}, 'deve ser uma cor como "#1f6feb"'),
    ({"extra_time": "sim"}, '"extra_time" deve ser true ou false'),
])
def test_serve_refuses_a_wrong_settings_file(tmp_path: Path, settings: dict,
                                             expected: str) -> None:
    path = tmp_path / "teams.json"
    path.write_text(json.dumps(settings))
    code, out = _run("serve", "--device", str(tmp_path / "ttyACM9"), "--db",
                     str(tmp_path / "m.sqlite"), "--settings", str(path))
    assert code == 2
    line = _one_line_error(out)
    assert expected in line and str(path) in line
    assert not (tmp_path / "m.sqlite").exists()


def test_settings_in_minutes_become_the_engine_milliseconds(tmp_path: Path) -> None:
    path = tmp_path / "teams.json"
    path.write_text(json.dumps({
        "competition": "knockout", "half_minutes": 10, "interval_minutes": 2,
        "lance_seconds": 30, "lance_warn_seconds": 5,
        "teams": {"A": {"name": "Grêmio", "color": "#1e90ff"}, "B": {"name": "Inter"}},
    }))
    assert load_settings_file(path) == {
        "competition": "knockout", "period_ms": 600_000, "interval_ms": 120_000,
        "lance_ms": 30_000, "lance_warn_ms": 5_000,
        "teams": {"A": {"name": "Grêmio", "color": "#1e90ff"}, "B": {"name": "Inter"}},
    }


def test_settings_file_with_a_json_mistake_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "teams.json"
    path.write_text('{\n  "competition": "league",\n}\n')
    with pytest.raises(SettingsError, match="linha 3"):
        load_settings_file(path)


def test_the_same_duration_twice_is_refused() -> None:
    with pytest.raises(SettingsError, match="dizem a mesma coisa"):
        validate_settings({"half_minutes": 10, "period_ms": 600_000})


def test_every_mistake_of_a_settings_file_is_reported_in_one_run(tmp_path: Path) -> None:
    """A typo'd key, a value out of range, one duration in two units and a lance warning as
    long as the lance: all four in one refusal, each on the line of the file it is on."""
    path = tmp_path / "teams.json"
    path.write_text('{\n'
                    '  "competiton": "knockout",\n'
                    '  "half_minutes": 0.5,\n'
                    '  "interval_minutes": 2,\n'
                    '  "interval_ms": 120000,\n'
                    '  "lance_seconds": 20,\n'
                    '  "lance_warn_seconds": 20\n'
                    '}\n')
    with pytest.raises(SettingsError) as caught:
        load_settings_file(path)
    lines = str(caught.value).splitlines()
    assert len(lines) == 4, lines
    expected = {2: 'chave desconhecida "competiton"; você quis dizer "competition"?',
                3: '"half_minutes" deve estar entre 1 e 60 minutos (veio 0.5)',
                5: '"interval_minutes" e "interval_ms" dizem a mesma coisa',
                7: "o aviso do lance"}
    for number, words in expected.items():
        found = [line for line in lines if line.startswith(f"{path} linha {number}: ")]
        assert len(found) == 1 and words in found[0], (number, lines)
    assert sorted(loc for loc, _line in caught.value.problems) == [
        ("competiton",), ("half_minutes",), ("interval_ms",), ("lance_warn_seconds",)]

    code, out = _run("serve", "--device", str(tmp_path / "ttyACM9"), "--db",
                     str(tmp_path / "m.sqlite"), "--settings", str(path))
    assert code == 2 and "Traceback" not in out
    for number in expected:
        assert f"{path} linha {number}: " in out, out
    assert not (tmp_path / "m.sqlite").exists()


def test_a_settings_dict_with_two_contradictions_names_both() -> None:
    with pytest.raises(SettingsError) as caught:
        validate_settings({"half_minutes": 10, "period_ms": 600_000,
                           "lance_ms": 10_000, "lance_warn_seconds": 12})
    assert [loc for loc, _line in caught.value.problems] == [
        ("period_ms",), ("lance_warn_seconds",)]
    assert validate_settings({"lance_seconds": 20, "lance_warn_ms": 19_000}) == {
        "lance_ms": 20_000, "lance_warn_ms": 19_000}


# -- --device --------------------------------------------------------------------------

def test_serve_on_a_regular_file_says_not_a_serial_port(tmp_path: Path) -> None:
    fake = tmp_path / "ttyACM0"
    fake.write_text("")
    code, out = _run("--lang", "en", "serve", "--device", str(fake), "--db",
                     str(tmp_path / "m.sqlite"))
    assert code == 2
    line = _one_line_error(out.replace("Error:", "Erro:"))
    assert "is not a serial port" in line and "serial ports seen:" in line


@pytest.mark.parametrize("device", ["", "  "])
def test_serve_with_an_empty_device_says_what_to_pass(tmp_path: Path, device: str) -> None:
    code, out = _run("serve", "--device", device, "--db", str(tmp_path / "m.sqlite"))
    assert code == 2
    line = _one_line_error(out)
    assert "--device" in line and "/dev/ttyACM0" in line and "futmesa sim" in line
    assert not (tmp_path / "m.sqlite").exists()


def test_serve_on_a_port_held_by_another_program_names_its_pid(tmp_path: Path) -> None:
    master, slave = pty.openpty()
    name = os.ttyname(slave)
    holder = serial.Serial(name, exclusive=True)  # what Thonny or another futmesa does
    try:
        proc = subprocess.run([FUTMESA, "--lang", "en", "serve", "--device", name, "--db",
                               str(tmp_path / "m.sqlite"), "--http-port", "1"],
                              capture_output=True, text=True, timeout=60)
    finally:
        holder.close()
        os.close(master)
        os.close(slave)
    assert proc.returncode == 2
    line = _one_line_error(proc.stderr.replace("Error:", "Erro:"))
    assert f"held by PID {os.getpid()}" in line and "serial ports seen:" in line


# -- --db and report outputs -----------------------------------------------------------

def test_db_in_a_missing_folder_is_refused_not_created(tmp_path: Path) -> None:
    missing = tmp_path / "usb-stick" / "futmesa"
    code, out = _run("serve", "--device", str(tmp_path / "ttyACM9"), "--db",
                     str(missing / "m.sqlite"))
    assert code == 2
    assert "não existe" in _one_line_error(out)
    assert not missing.parent.exists()


def test_db_on_proc_is_diagnosed_as_a_place_that_takes_no_files(tmp_path: Path) -> None:
    code, out = _run("serve", "--device", str(tmp_path / "ttyACM9"), "--db", "/proc/x.sqlite")
    assert code == 2
    line = _one_line_error(out)
    assert "não foi possível criar o registro de eventos /proc/x.sqlite" in line
    assert "não é um registro de eventos" not in line


def test_a_file_that_is_not_a_log_is_named_so(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("hello")
    code, out = _run("matches", "--db", str(notes))
    assert code == 2
    assert "não é um registro de eventos do futmesa" in _one_line_error(out)


def test_report_into_a_missing_folder_says_so_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite"
    store = EventLog(db)
    match_id = store.new_match("sim-1", "cbfm-1toque", {}, "")
    store.close()
    code, out = _run("report", str(match_id), "--db", str(db), "--pdf",
                     str(tmp_path / "missing" / "dir" / "x.pdf"))
    assert code == 2
    assert "não existe" in _one_line_error(out)


def test_report_says_which_verification_address_the_pdf_names(tmp_path: Path) -> None:
    """Issue 45 (walk): the PDF's "Verifique em" named serve's default port though the host
    served on another; without --verify-url the command says the address and how to change it."""
    db = tmp_path / "m.sqlite"
    store = EventLog(db)
    match_id = store.new_match("sim-1", "cbfm-1toque", {}, "")
    store.close()
    code, out = _run("report", str(match_id), "--db", str(db), "--html",
                     str(tmp_path / "s.html"))
    assert code == 0, out
    # never a guessed address (issue 45 blind walk, low 7): the súmula says how to check it
    assert ":8000" not in out and "--verify-url http://ENDEREÇO:PORTA" in out
    page = (tmp_path / "s.html").read_text()
    assert "/verificar/" in page and ":8000" not in page
    assert f"futmesa verify {match_id} --db m.sqlite" in page
    code, out = _run("report", str(match_id), "--db", str(db), "--html",
                     str(tmp_path / "s.html"), "--verify-url", "http://mesa.local:8123")
    assert code == 0, out
    assert "--verify-url" not in out
    assert "http://mesa.local:8123/verificar/" in (tmp_path / "s.html").read_text()
