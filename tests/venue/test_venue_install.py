"""`futmesa venue install` writes systemd units for the broker and the desk (issue 26), checked
like kiosk-setup's: complete units, a valid install.sh, options the desk really has."""

from __future__ import annotations

import configparser
import os
import shlex
import subprocess
from pathlib import Path

from click.testing import CliRunner

from futmesa.cli import cli
from futmesa.venue.broker import open_temp_path


def _unit(text: str) -> configparser.ConfigParser:
    cp = configparser.ConfigParser(interpolation=None, strict=True)
    cp.read_string(text)
    return cp


def _broker_config(tmp_path: Path, port: int = 1883) -> Path:
    folder = tmp_path / "venue"
    open_temp_path(folder)  # as root the broker's own user must reach it (pytest's tmp is 0700)
    r = CliRunner().invoke(cli, ["venue", "broker-config", "--dir", str(folder), "--table",
                                 "pico-E6614103", "--port", str(port), "--host", "127.0.0.1"])
    assert r.exit_code == 0, r.output
    return folder


def test_venue_install_writes_units_that_start_at_boot(tmp_path: Path) -> None:
    broker_dir = _broker_config(tmp_path)
    out = tmp_path / "units"
    db = tmp_path / "desk.sqlite"
    r = CliRunner().invoke(cli, ["venue", "install", "--out", str(out), "--broker-dir",
                                 str(broker_dir), "--db", str(db), "--user", "clube",
                                 "--http-port", "8200"])
    assert r.exit_code == 0, r.output
    assert "sudo ./install.sh" in r.output
    assert sorted(p.name for p in out.iterdir()) == [
        "README.txt", "futmesa-broker.service", "futmesa-desk.service", "install.sh"]

    broker = _unit((out / "futmesa-broker.service").read_text())
    assert broker["Service"]["User"] == "clube"
    assert broker["Service"]["Restart"] == "always"
    assert broker["Install"]["WantedBy"] == "multi-user.target"
    exe, *args = shlex.split(broker["Service"]["ExecStart"])
    assert Path(exe).name == "mosquitto"
    assert args == ["-c", str(broker_dir.resolve() / "mosquitto.conf")]

    desk = _unit((out / "futmesa-desk.service").read_text())
    assert desk["Service"]["User"] == "clube"
    assert desk["Service"]["Restart"] == "always"
    assert desk["Install"]["WantedBy"] == "multi-user.target"
    assert "futmesa-broker.service" in desk["Unit"]["After"].split()
    assert desk["Service"]["WorkingDirectory"] == str(tmp_path.resolve())
    exe, command, *args = shlex.split(desk["Service"]["ExecStart"])
    assert exe.endswith("/bin/futmesa") and os.access(exe, os.X_OK) and command == "desk"
    # the desk's own option parser takes these arguments: a unit that fails at every boot
    # for an option `futmesa desk` does not have is caught here
    ctx = cli.commands["desk"].make_context("desk", list(args))
    assert ctx.params["db"] == str(db.resolve())
    assert ctx.params["broker"] == "mqtt://127.0.0.1:1883"
    assert ctx.params["cred_path"] == str(broker_dir.resolve() / "credentials" / "desk.json")
    assert ctx.params["http_port"] == 8200

    install = out / "install.sh"
    assert os.access(install, os.X_OK)
    assert subprocess.run(["bash", "-n", str(install)]).returncode == 0
    text = install.read_text()
    assert "systemctl enable --now futmesa-broker.service futmesa-desk.service" in text
    assert "systemctl disable --now mosquitto.service" in text  # Debian's holds port 1883
    readme = (out / "README.txt").read_text()
    assert "Desfazer:" in readme and "sudo systemctl disable --now futmesa-desk" in readme
    assert 'echo "rode com sudo: sudo ./install.sh"' in text  # in the organiser's language


def test_installer_sentences_are_shell_safe_in_any_translation() -> None:
    """A translation with quotes, a dollar or a backtick cannot break install.sh's echo."""
    from futmesa.deploy import scriptwords

    saved = scriptwords._
    scriptwords._ = lambda msgid: 'diga "oi" $HOME `id` \\ para {user}'  # type: ignore[assignment]
    try:
        line = scriptwords.sh_words("user {user} does not exist: edit install.sh", user="pi")
    finally:
        scriptwords._ = saved
    echoed = subprocess.run(["bash", "-c", f'echo "{line}"'], capture_output=True, text=True)
    assert echoed.stdout == 'diga "oi" $HOME `id` \\ para pi\n'


def test_the_broker_port_comes_from_its_config(tmp_path: Path) -> None:
    broker_dir = _broker_config(tmp_path, port=1884)
    out = tmp_path / "units"
    r = CliRunner().invoke(cli, ["venue", "install", "--out", str(out), "--broker-dir",
                                 str(broker_dir), "--db", str(tmp_path / "desk.sqlite")])
    assert r.exit_code == 0, r.output
    assert "--broker mqtt://127.0.0.1:1884 " in (out / "futmesa-desk.service").read_text()
    assert "mosquitto.service" not in (out / "install.sh").read_text()


def test_venue_install_refuses_to_overwrite(tmp_path: Path) -> None:
    broker_dir = _broker_config(tmp_path)
    args = ["venue", "install", "--out", str(tmp_path / "units"), "--broker-dir",
            str(broker_dir), "--db", str(tmp_path / "desk.sqlite")]
    assert CliRunner().invoke(cli, args).exit_code == 0
    again = CliRunner().invoke(cli, args)
    assert again.exit_code == 1 and "--force" in again.output
    assert CliRunner().invoke(cli, args + ["--force"]).exit_code == 0


def test_venue_install_wants_the_broker_config_first(tmp_path: Path) -> None:
    empty = tmp_path / "venue"
    empty.mkdir()
    r = CliRunner().invoke(cli, ["venue", "install", "--out", str(tmp_path / "units"),
                                 "--broker-dir", str(empty)])
    assert r.exit_code == 2
    assert "futmesa venue broker-config --dir" in r.output and "Traceback" not in r.output
    assert not (tmp_path / "units").exists()


def test_venue_install_refuses_a_desk_file_in_a_missing_folder(tmp_path: Path) -> None:
    broker_dir = _broker_config(tmp_path)
    r = CliRunner().invoke(cli, ["venue", "install", "--out", str(tmp_path / "units"),
                                 "--broker-dir", str(broker_dir), "--db",
                                 str(tmp_path / "nope" / "desk.sqlite")])
    assert r.exit_code == 2 and "não existe" in r.output
