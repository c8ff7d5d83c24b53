"""`futmesa kiosk-setup` writes complete systemd units and a working launcher."""

import configparser
import os
import subprocess

from click.testing import CliRunner

from futmesa.cli import cli
from futmesa.deploy.kiosk import KioskConfig, render


def _unit(text):
    cp = configparser.ConfigParser(interpolation=None, strict=True)
    cp.read_string(text)
    return cp


def test_kiosk_setup_writes_the_files(tmp_path):
    out = tmp_path / "pi"
    r = CliRunner().invoke(cli, ["kiosk-setup", "--out", str(out), "--user", "club",
                                 "--ruleset", "pastilha-8x2", "--http-port", "8080"])
    assert r.exit_code == 0, r.output
    names = sorted(p.name for p in out.iterdir())
    assert names == ["99-futmesa.rules", "README.txt", "futmesa-kiosk.service",
                     "futmesa-kiosk.sh", "futmesa.service", "install.sh"]
    daemon = _unit((out / "futmesa.service").read_text())
    assert daemon["Service"]["User"] == "club"
    exec_start = daemon["Service"]["ExecStart"]
    assert exec_start.startswith("/home/club/futmesa/.venv/bin/futmesa serve ")
    assert "--device /dev/futmesa-table" in exec_start and "--ruleset pastilha-8x2" in exec_start
    assert daemon["Service"]["Restart"] == "always"
    assert daemon["Install"]["WantedBy"] == "multi-user.target"
    kiosk = _unit((out / "futmesa-kiosk.service").read_text())
    assert kiosk["Service"]["ExecStart"] == "%h/.local/bin/futmesa-kiosk.sh"
    launcher = (out / "futmesa-kiosk.sh").read_text()
    assert "URL=http://localhost:8080/" in launcher and "--kiosk" in launcher
    for name in ("futmesa-kiosk.sh", "install.sh"):
        p = out / name
        assert os.access(p, os.X_OK)
        assert subprocess.run(["bash", "-n", str(p)]).returncode == 0  # valid bash
    rules = (out / "99-futmesa.rules").read_text()
    assert 'ATTRS{idVendor}=="2e8a"' in rules and 'SYMLINK+="futmesa-table"' in rules


def test_kiosk_setup_refuses_to_overwrite(tmp_path):
    args = ["kiosk-setup", "--out", str(tmp_path)]
    assert CliRunner().invoke(cli, args).exit_code == 0
    again = CliRunner().invoke(cli, args)
    assert again.exit_code == 1 and "--force" in again.output
    assert CliRunner().invoke(cli, args + ["--force"]).exit_code == 0


def test_serve_command_in_unit_matches_the_cli():
    # the unit's ExecStart must only use options `futmesa serve` has
    unit = _unit(render(KioskConfig())["futmesa.service"])
    words = unit["Service"]["ExecStart"].split()
    serve = cli.commands["serve"]
    known = {o for p in serve.params for o in getattr(p, "opts", [])}
    used = {w for w in words if w.startswith("--")}
    assert used <= known, used - known


def test_kiosk_setup_refuses_an_unknown_ruleset(tmp_path):
    """Issue 14: accepted, then the Pi's service failed at every boot."""
    r = CliRunner().invoke(cli, ["--lang", "pt_BR", "kiosk-setup", "--out", str(tmp_path / "pi"),
                                 "--ruleset", "nope"])
    assert r.exit_code == 2
    assert 'regra desconhecida "nope"' in r.output and "cbfm-1toque" in r.output
    assert not (tmp_path / "pi").exists()


def test_kiosk_setup_takes_settings_and_logos_and_shows_the_qr_first(tmp_path):
    settings = tmp_path / "copa.json"
    settings.write_text('{"competition": "knockout", "half_minutes": 10}')
    logos = tmp_path / "escudos"
    logos.mkdir()
    (logos / "gremio-f-c.png").write_bytes(b"\x89PNG")
    out = tmp_path / "pi"
    r = CliRunner().invoke(cli, ["kiosk-setup", "--out", str(out), "--settings", str(settings),
                                 "--logos", str(logos)])
    assert r.exit_code == 0, r.output
    assert (out / "settings.json").read_text() == settings.read_text()
    assert (out / "logos" / "gremio-f-c.png").exists()
    exec_start = _unit((out / "futmesa.service").read_text())["Service"]["ExecStart"]
    assert "--settings /home/pi/futmesa/settings.json" in exec_start
    assert "--logos /home/pi/futmesa/logos" in exec_start
    install = (out / "install.sh").read_text()
    assert "settings.json /home/pi/futmesa/settings.json" in install
    assert "logos/* /home/pi/futmesa/logos/" in install
    assert subprocess.run(["bash", "-n", str(out / "install.sh")]).returncode == 0
    # a screen-only Pi shows the console QR (the admin screen) until the match starts
    launcher = (out / "futmesa-kiosk.sh").read_text()
    assert "START='http://localhost:8000/admin?back=start'" in launcher
    assert launcher.rstrip().endswith('"$START"')


def test_kiosk_setup_checks_the_settings_file_now(tmp_path):
    settings = tmp_path / "copa.json"
    settings.write_text('{"competiton": "knockout"}')
    r = CliRunner().invoke(cli, ["--lang", "pt_BR", "kiosk-setup", "--out", str(tmp_path / "pi"),
                                 "--settings", str(settings)])
    assert r.exit_code == 2 and 'você quis dizer "competition"?' in r.output


def test_kiosk_setup_for_a_pi_with_the_sensors_on_its_header(tmp_path):
    """issue 34: no microcontroller — the unit runs the firmware's loop on the Pi
    (`serve --sbc`, its state folder next to the event log) under systemd's watchdog,
    which the loop feeds (firmware/boards/blinka.py) and which restarts it if it stops."""
    out = tmp_path / "pi"
    r = CliRunner().invoke(cli, ["kiosk-setup", "--out", str(out), "--sbc"])
    assert r.exit_code == 0, r.output
    service = _unit((out / "futmesa.service").read_text())["Service"]
    assert " serve --sbc --board rpi --state /home/pi/futmesa/futmesa-mesa " in \
        service["ExecStart"]
    assert "--device" not in service["ExecStart"]
    assert service["WatchdogSec"] == "10" and service["NotifyAccess"] == "all"
    assert service["Restart"] == "always"
