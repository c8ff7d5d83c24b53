"""One systemd service unit as text: the shape every unit futmesa installs shares (the table's
daemon and kiosk, the venue's broker and desk), with what differs passed in."""

from __future__ import annotations


def service_unit(comment: str, description: str, exec_start: str, *, after: str,
                 wants: str | None = None, part_of: str | None = None,
                 user: str | None = None, workdir: str | None = None, restart_sec: int = 2,
                 wanted_by: str = "multi-user.target", watchdog_s: int | None = None) -> str:
    """A ``[Unit]/[Service]/[Install]`` file that restarts its process whenever it stops."""
    unit = [f"# {comment}", "[Unit]", f"Description={description}", f"After={after}"]
    if wants:
        unit.append(f"Wants={wants}")
    if part_of:
        unit.append(f"PartOf={part_of}")
    service = ["", "[Service]", "Type=simple"]
    if user:
        service.append(f"User={user}")
    if workdir:
        service.append(f"WorkingDirectory={workdir}")
    service += [f"ExecStart={exec_start}", "Restart=always", f"RestartSec={restart_sec}"]
    if watchdog_s:
        # the Pi table's loop (a child of futmesa) tells systemd it runs (sd_notify
        # WATCHDOG=1, firmware/boards/blinka.py); silent this long, futmesa is restarted
        service += [f"WatchdogSec={watchdog_s}", "NotifyAccess=all"]
    return "\n".join([*unit, *service, "", "[Install]", f"WantedBy={wanted_by}", ""])
