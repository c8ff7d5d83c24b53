"""`futmesa kiosk-setup`: the files that turn a Raspberry Pi into a table's scoreboard.

Writes into a folder the user names (nothing is installed by this command):
- `futmesa.service`: system unit running `futmesa serve` for the table's board;
- `futmesa-kiosk.service`: user unit starting Chromium full screen on the scoreboard;
- `futmesa-kiosk.sh`: the launcher (waits for the server, stops screen blanking);
- `99-futmesa.rules`: udev rule giving the board a stable name, `/dev/futmesa-table`;
- `install.sh`: copies the files into place and enables the units (run it with sudo);
- `README.txt`: what each file is and how to undo it;
- with `--settings` / `--logos`: `settings.json` and `logos/`, copied next to the checkout.

The launcher opens the admin screen (`/admin?back=start`) first: the console's QR code is
on the Pi's own screen until the first period starts, then the scoreboard.
"""

from __future__ import annotations

import shlex
import shutil
from dataclasses import dataclass
from pathlib import Path

from futmesa.deploy.bundle import write_bundle
from futmesa.deploy.scriptwords import sh_words
from futmesa.deploy.systemd import service_unit
from futmesa.i18n import _

# USB ids of the boards' serial ports: MicroPython on the RP2040, and the CP210x / CH340
# bridges found on ESP32 DevKits.
USB_IDS = (("2e8a", "0005", "Raspberry Pi Pico, MicroPython"),
           ("10c4", "ea60", "ESP32 DevKitC, CP210x bridge"),
           ("1a86", "7523", "ESP32 boards with a CH340 bridge"))
STABLE_PORT = "/dev/futmesa-table"


@dataclass(frozen=True)
class KioskConfig:
    user: str = "pi"
    workdir: str = "/home/pi/futmesa"
    futmesa: str = "/home/pi/futmesa/.venv/bin/futmesa"
    device: str = STABLE_PORT
    ruleset: str = "cbfm-1toque"
    db: str = "/home/pi/futmesa/futmesa.sqlite"
    http_port: int = 8000
    chromium: str = "chromium-browser"
    settings: bool = False  # settings.json goes next to the checkout
    logos: bool = False  # logos/ goes next to the checkout
    show_qr: bool = True  # the Pi's screen shows the console QR until the match starts
    sbc: bool = False  # the sensors are on this Pi's header: `serve --sbc`, systemd's watchdog

    @property
    def url(self) -> str:
        return f"http://localhost:{self.http_port}/"

    @property
    def start_url(self) -> str:
        return f"{self.url}admin?back=start" if self.show_qr else self.url


def _q(s: str) -> str:
    return shlex.quote(s)


def render(cfg: KioskConfig) -> dict[str, str]:
    """File name → contents."""
    table = (f"--sbc --board rpi --state {cfg.workdir}/futmesa-mesa" if cfg.sbc
             else f"--device {cfg.device}")
    serve = (f"{cfg.futmesa} serve {table} --ruleset {cfg.ruleset} "
             f"--db {cfg.db} --http-port {cfg.http_port}")
    if cfg.settings:
        serve += f" --settings {cfg.workdir}/settings.json"
    if cfg.logos:
        serve += f" --logos {cfg.workdir}/logos"
    files: dict[str, str] = {}
    files["futmesa.service"] = service_unit(
        "futmesa match daemon: reads the table's board and serves the scoreboard.",
        f"futmesa table daemon ({cfg.ruleset})", serve, after="network.target",
        wants="network.target", user=cfg.user, workdir=cfg.workdir,
        watchdog_s=10 if cfg.sbc else None)
    files["futmesa-kiosk.service"] = service_unit(
        f"Chromium full screen on the scoreboard, in the desktop session of {cfg.user}.",
        "futmesa scoreboard kiosk", "%h/.local/bin/futmesa-kiosk.sh",
        after="graphical-session.target", part_of="graphical-session.target", restart_sec=3,
        wanted_by="graphical-session.target")
    files["futmesa-kiosk.sh"] = _launcher(cfg)
    files["99-futmesa.rules"] = _udev_rules(cfg)
    files["install.sh"] = _install_script(cfg)
    files["README.txt"] = _readme(cfg, serve)
    return files


def _launcher(cfg: KioskConfig) -> str:
    """futmesa-kiosk.sh: waits for the daemon, then the scoreboard full screen."""
    return f"""\
#!/bin/bash
# futmesa scoreboard launcher: waits for the daemon, then shows the scoreboard full screen.
set -u
URL={_q(cfg.url)}
START={_q(cfg.start_url)}  # the console QR on this screen until the first period starts
CHROMIUM={_q(cfg.chromium)}
command -v "$CHROMIUM" >/dev/null 2>&1 || CHROMIUM=chromium

# wait (up to 2 minutes) for futmesa serve to answer
for _ in $(seq 1 120); do
  if curl -fs -o /dev/null "${{URL}}api/state"; then break; fi
  sleep 1
done

# no screen blanking or power saving during a match
if command -v xset >/dev/null 2>&1 && [ -n "${{DISPLAY:-}}" ]; then
  xset s off; xset -dpms; xset s noblank
fi

exec "$CHROMIUM" --kiosk --noerrdialogs --disable-infobars --incognito \\
  --disable-session-crashed-bubble --check-for-update-interval=31536000 \\
  --autoplay-policy=no-user-gesture-required "$START"
"""


def _udev_rules(cfg: KioskConfig) -> str:
    """99-futmesa.rules: the table's board under a stable name."""
    rules = "\n".join(
        f'# {name}\nSUBSYSTEM=="tty", ATTRS{{idVendor}}=="{vid}", ATTRS{{idProduct}}=="{pid}", '
        f'SYMLINK+="{Path(cfg.device).name}", MODE="0660", GROUP="dialout"'
        for vid, pid, name in USB_IDS
    )
    return (
        "# Gives the table's board a stable name. With two boards plugged in, add\n"
        '# ATTRS{serial}=="<number from futmesa doctor>" to pick one.\n' + rules + "\n"
    )


def _install_script(cfg: KioskConfig) -> str:
    """install.sh: copies everything into place and enables it (run with sudo)."""
    need_sudo = sh_words("run me with sudo: sudo ./install.sh")
    no_user = sh_words("user {user} does not exist: edit install.sh", user=cfg.user)
    enable_later = sh_words("log in as {user} and run: systemctl --user enable --now "
                      "futmesa-kiosk.service", user=cfg.user)
    done_line = sh_words("done: reboot, and the scoreboard opens full screen at {url}", url=cfg.url)
    return f"""\
#!/bin/bash
# Installs the futmesa scoreboard on this Raspberry Pi. Run: sudo ./install.sh
set -euo pipefail
cd "$(dirname "$0")"
if [ "$(id -u)" -ne 0 ]; then
  echo "{need_sudo}" >&2; exit 1
fi
USER_HOME=$(getent passwd {_q(cfg.user)} | cut -d: -f6)
if [ -z "$USER_HOME" ]; then
  echo "{no_user}" >&2; exit 1
fi
install -m 0644 99-futmesa.rules /etc/udev/rules.d/99-futmesa.rules
udevadm control --reload-rules && udevadm trigger
usermod -aG dialout {_q(cfg.user)}
{_install_extras(cfg)}install -m 0644 futmesa.service /etc/systemd/system/futmesa.service
systemctl daemon-reload
systemctl enable --now futmesa.service
install -d -o {_q(cfg.user)} "$USER_HOME/.local/bin" "$USER_HOME/.config/systemd/user"
install -m 0755 -o {_q(cfg.user)} futmesa-kiosk.sh "$USER_HOME/.local/bin/futmesa-kiosk.sh"
install -m 0644 -o {_q(cfg.user)} futmesa-kiosk.service \\
  "$USER_HOME/.config/systemd/user/futmesa-kiosk.service"
sudo -u {_q(cfg.user)} XDG_RUNTIME_DIR=/run/user/$(id -u {_q(cfg.user)}) \\
  systemctl --user enable futmesa-kiosk.service || \\
  echo "{enable_later}"
echo "{done_line}"
"""


def _readme(cfg: KioskConfig, serve: str) -> str:
    return _("""\
futmesa scoreboard for a Raspberry Pi (written by `futmesa kiosk-setup`)

futmesa.service        system unit: {serve}
futmesa-kiosk.service  user unit: Chromium full screen on {url}
futmesa-kiosk.sh       the launcher the user unit runs
99-futmesa.rules       udev: the board appears as {device}
install.sh             copies everything into place and enables it: sudo ./install.sh

Check:   systemctl status futmesa ; journalctl -u futmesa -f
Undo:    sudo systemctl disable --now futmesa ; systemctl --user disable futmesa-kiosk
         sudo rm /etc/systemd/system/futmesa.service /etc/udev/rules.d/99-futmesa.rules
""").format(serve=serve, url=cfg.url, device=cfg.device)


EXECUTABLE = ("futmesa-kiosk.sh", "install.sh")


def _install_extras(cfg: KioskConfig) -> str:
    lines = ""
    if cfg.settings:
        lines += (f"install -m 0644 -o {_q(cfg.user)} settings.json "
                  f"{_q(cfg.workdir + '/settings.json')}\n")
    if cfg.logos:
        lines += (f"install -d -o {_q(cfg.user)} {_q(cfg.workdir + '/logos')}\n"
                  f"install -m 0644 -o {_q(cfg.user)} logos/* {_q(cfg.workdir + '/logos/')}\n")
    return lines


def write_kiosk(out: Path, cfg: KioskConfig | None = None, force: bool = False,
                settings: Path | None = None, logos: Path | None = None) -> list[Path]:
    """Write the files into `out` (and copies of `settings` / `logos`); refuses to overwrite
    unless `force`."""
    paths = write_bundle(out, render(cfg or KioskConfig()), EXECUTABLE, force)
    if settings is not None:
        paths.append(Path(shutil.copyfile(settings, out / "settings.json")))
    if logos is not None:
        (out / "logos").mkdir(exist_ok=True)
        for logo in sorted(logos.iterdir()):
            if logo.is_file():
                paths.append(Path(shutil.copyfile(logo, out / "logos" / logo.name)))
    return paths
