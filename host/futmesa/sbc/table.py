"""A Pi table as a child of futmesa: the device process (futmesa.sbc.device) on a socat pty pair.

`SbcTable` is `SimTable` with another firmware command: the same pty pair,
control lines and output reading, so the demo, the tests and `serve --sbc`
drive a Pi table the way they drive the MicroPython sim. `simulated=True`:
the simulated header (no Pi needed); False: the Pi's own pins through Blinka.
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path
from typing import Any

from futmesa.i18n import _
from futmesa.sim.table import SimTable

log = logging.getLogger(__name__)


class SbcTable(SimTable):
    def __init__(self, board_file: str = "rpi", simulated: bool = True,
                 goal_sensor: str | None = None, state_dir: str | Path | None = None,
                 uid: str = "PISIM001", **kwargs: Any) -> None:
        super().__init__(uid=uid, goal_sensor=goal_sensor or "", **kwargs)
        self.board_file = board_file
        self.simulated = simulated
        if state_dir is not None:
            self.state_dir = str(state_dir)  # kept across restarts: the table's flash

    def command(self) -> list[str]:
        cmd = [sys.executable, "-u", "-m", "futmesa.sbc.device", "--board-file",
               self.board_file, "--port", self.device_port, "--state", self.state_dir,
               "--speed", str(self.speed), "--ring", str(self.ring), "--exit-on-eof"]
        if self.simulated:
            cmd += ["--simulated", "--uid", self.uid]
        if self.goal_sensor:
            cmd += ["--goal-sensor", self.goal_sensor]
        return cmd + self.extra_args

    def environment(self) -> dict[str, str]:
        return dict(os.environ)

    def heard(self, line: str) -> None:
        """A Pi table's own log lines go to futmesa's log (the service's journal); only the
        newest lines are kept in memory, however long the table runs."""
        if line.startswith("LOG ") and not self.simulated:
            log.info(_("table: %s"), line[4:])
        if len(self.lines) > 2000:
            del self.lines[:1000]
