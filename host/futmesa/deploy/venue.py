"""`futmesa venue install`: systemd units that run the venue broker and the desk at boot.

Like `futmesa kiosk-setup` for a table, it writes into a folder the user names (nothing is
installed by this command):
- `futmesa-broker.service`: system unit running mosquitto with the config of
  `futmesa venue broker-config`;
- `futmesa-desk.service`: system unit running `futmesa desk` against that broker, started
  after it;
- `install.sh`: copies the units into place and enables them (run it with sudo);
- `README.txt`: what each file is, how to check and how to undo it.

Both units restart on failure and start at boot, so a tournament day survives a reboot of
the desk's computer: the desk's file keeps the competition, the broker its queued messages.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

from futmesa.deploy.bundle import write_bundle
from futmesa.deploy.scriptwords import sh_words
from futmesa.deploy.systemd import service_unit
from futmesa.i18n import _


class VenueInstallError(ValueError):
    """The broker folder is not usable; the message says what to do."""


@dataclass(frozen=True)
class VenueInstallConfig:
    user: str
    workdir: str  # the desk's working folder
    futmesa: str  # the futmesa command of this computer's checkout
    broker_dir: str  # the folder `futmesa venue broker-config --dir` wrote
    broker_port: int
    desk_db: str
    http_port: int = 8100
    mosquitto: str = "/usr/sbin/mosquitto"

    @property
    def desk_command(self) -> str:
        return (f"{_q(self.futmesa)} desk --db {_q(self.desk_db)} "
                f"--broker mqtt://127.0.0.1:{self.broker_port} "
                f"--credentials {_q(self.broker_dir + '/credentials/desk.json')} "
                f"--http-port {self.http_port}")

    @property
    def broker_command(self) -> str:
        return f"{_q(self.mosquitto)} -c {_q(self.broker_dir + '/mosquitto.conf')}"


def _q(s: str) -> str:
    return shlex.quote(s)


def broker_port(broker_dir: Path) -> int:
    """The port of the broker config in ``broker_dir`` (its ``listener`` line), checking that
    the files the units need are there."""
    conf = broker_dir / "mosquitto.conf"
    desk = broker_dir / "credentials" / "desk.json"
    for needed in (conf, desk):
        if not needed.is_file():
            raise VenueInstallError(_("{file} does not exist: write the broker's files first "
                                      "with `futmesa venue broker-config --dir {dir} --table "
                                      "…`").format(file=needed, dir=broker_dir))
    found = re.search(r"^listener\s+(\d+)", conf.read_text(encoding="utf-8"), re.MULTILINE)
    if not found:
        raise VenueInstallError(_("{file} has no `listener` line: write it again with "
                                  "`futmesa venue broker-config`").format(file=conf))
    return int(found.group(1))


UNITS = ("futmesa-broker.service", "futmesa-desk.service")
EXECUTABLE = ("install.sh",)


def render(cfg: VenueInstallConfig) -> dict[str, str]:
    """File name → contents."""
    files: dict[str, str] = {}
    stop_debian = sh_words("stopping and disabling Debian's mosquitto.service (it holds port 1883)")
    need_sudo = sh_words("run me with sudo: sudo ./install.sh")
    no_user = sh_words("user {user} does not exist: edit install.sh", user=cfg.user)
    cannot_read = sh_words("user {user} cannot read {file}: run broker-config as {user}, "
                           "or chown it", user=cfg.user, file="$f")
    cannot_write = sh_words("user {user} cannot write in {folder} (the desk's file): chown it",
                            user=cfg.user, folder=cfg.workdir)
    done_line = sh_words("done: the broker and the desk run now and start again at every boot;")
    board_at = sh_words("venue board: http://<this computer's address>:{port}/", port=cfg.http_port)
    files["futmesa-broker.service"] = service_unit(
        "futmesa venue broker: carries the messages between the tables and the desk (MQTT).",
        f"futmesa venue broker (mosquitto, port {cfg.broker_port})", cfg.broker_command,
        after="network-online.target", wants="network-online.target", user=cfg.user)
    files["futmesa-desk.service"] = service_unit(
        "futmesa tournament desk: assigns matches, stores results, serves the venue board.",
        f"futmesa tournament desk (venue board on port {cfg.http_port})", cfg.desk_command,
        after="network-online.target futmesa-broker.service",
        wants="network-online.target futmesa-broker.service", user=cfg.user,
        workdir=cfg.workdir)
    readable = " ".join(_q(f"{cfg.broker_dir}/{f}") for f in
                        ("mosquitto.conf", "passwd", "acl", "credentials/desk.json"))
    debian_broker = ""
    if cfg.broker_port == 1883:
        debian_broker = f"""\
# Debian's own mosquitto service listens on port 1883 too: the venue broker replaces it
if systemctl is-enabled --quiet mosquitto.service 2>/dev/null; then
  echo "{stop_debian}"
  systemctl disable --now mosquitto.service
fi
"""
    files["install.sh"] = f"""\
#!/bin/bash
# Installs the futmesa venue broker and desk on this computer. Run: sudo ./install.sh
set -euo pipefail
cd "$(dirname "$0")"
if [ "$(id -u)" -ne 0 ]; then
  echo "{need_sudo}" >&2; exit 1
fi
if ! getent passwd {_q(cfg.user)} >/dev/null; then
  echo "{no_user}" >&2; exit 1
fi
for f in {readable}; do
  if ! sudo -u {_q(cfg.user)} test -r "$f"; then
    echo "{cannot_read}" >&2
    exit 1
  fi
done
if ! sudo -u {_q(cfg.user)} test -w {_q(cfg.workdir)}; then
  echo "{cannot_write}" >&2; exit 1
fi
{debian_broker}install -m 0644 futmesa-broker.service /etc/systemd/system/futmesa-broker.service
install -m 0644 futmesa-desk.service /etc/systemd/system/futmesa-desk.service
systemctl daemon-reload
systemctl enable --now futmesa-broker.service futmesa-desk.service
echo "{done_line}"
echo "{board_at}"
"""
    files["README.txt"] = _("""\
futmesa venue broker and desk for this computer (written by `futmesa venue install`)

futmesa-broker.service  system unit: {broker_command}
futmesa-desk.service    system unit: {desk_command}
install.sh              copies both units into place and enables them: sudo ./install.sh

Both start at boot and start again if they stop: a reboot of this computer in the
middle of the day loses nothing (the competition is in {desk_db}).
At the desk, give the same file to the competition commands:
  futmesa competition standings --db {desk_db}

Check:   systemctl status futmesa-broker futmesa-desk ; journalctl -u futmesa-desk -f
Stop:    sudo systemctl stop futmesa-desk futmesa-broker   (both end cleanly on SIGTERM)
Undo:    sudo systemctl disable --now futmesa-desk futmesa-broker
         sudo rm /etc/systemd/system/futmesa-desk.service /etc/systemd/system/futmesa-broker.service
""").format(broker_command=cfg.broker_command, desk_command=cfg.desk_command,
            desk_db=cfg.desk_db)
    return files


def write_venue_units(out: Path, cfg: VenueInstallConfig, force: bool = False) -> list[Path]:
    """Write the files into ``out``; refuses to overwrite unless ``force``."""
    return write_bundle(out, render(cfg), EXECUTABLE, force)
