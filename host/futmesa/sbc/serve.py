"""`futmesa serve --sbc`: the Pi table's device process, kept running beside the daemon.

`PiTable` starts the device process (futmesa.sbc.device) on a pty pair with the
board file's pins, and starts it again if it ends (a crash, a host `CMD_REPL`):
the Pico's watchdog, done by its parent; systemd restarts futmesa itself. With
`simulated=True` (tests, a machine without a Pi) the header is simulated and
the lines futmesa reads on its own stdin go to it as control lines (`goal 0`,
`palheta C`...). The table's flash is `state_dir`: keep it with the event log,
so the clock resumes from it when futmesa starts again mid-match.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from pathlib import Path

from futmesa.i18n import _
from futmesa.sbc.table import SbcTable
from futmesa.sim.table import SimTableError

log = logging.getLogger(__name__)

RESTART_S = 1.0  # a device process that ended is started again after this


def default_state_dir(db: str | Path) -> Path:
    """The table's flash next to the event log: `futmesa.sqlite` -> `futmesa-mesa/`."""
    p = Path(db).resolve()
    return p.with_name(p.stem + "-mesa")


class PiTable:
    def __init__(self, board: str, state_dir: str | Path, simulated: bool = False,
                 speed: int = 1) -> None:
        Path(state_dir).mkdir(parents=True, exist_ok=True)
        self.table = SbcTable(board_file=board, simulated=simulated, state_dir=state_dir,
                              speed=speed, uid="PISIM001")
        self.simulated = simulated
        self._stop = threading.Event()
        self._watch: threading.Thread | None = None
        self.restarts = 0

    @property
    def host_port(self) -> str:
        return self.table.host_port

    def start(self) -> None:
        self.table.start()
        self._wait_started()
        self._watch = threading.Thread(target=self._supervise, name="pi-table", daemon=True)
        self._watch.start()
        if self.simulated:
            threading.Thread(target=self._forward_stdin, name="pi-controls", daemon=True).start()

    def _wait_started(self, timeout: float = 20.0) -> None:
        """The device process started its loop (its boot line), or the reason it did not."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(" boot " in line for line in self.table.lines if line.startswith("LOG ")):
                return
            if not self.table.alive:
                raise SimTableError(_("the Raspberry Pi table did not start:") + "\n"
                                    + self.table.output_tail())
            time.sleep(0.02)
        raise SimTableError(_("the Raspberry Pi table did not start in {seconds} s").format(
            seconds=int(timeout)))

    def _supervise(self) -> None:
        while not self._stop.wait(0.2):
            if self.table.alive:
                continue
            log.warning(_("the table's process ended: starting it again (its clock resumes "
                          "from its state folder)\n%s"), self.table.output_tail(5))
            time.sleep(RESTART_S)
            if self._stop.is_set():
                return
            self.restarts += 1
            self.table.boot()

    def _forward_stdin(self) -> None:
        for line in sys.stdin:
            if self._stop.is_set():
                return
            try:
                self.table.send(line.strip())
            except SimTableError:
                pass  # restarting: the line is lost, as a press while a board boots

    def stop(self) -> None:
        self._stop.set()
        self.table.stop()
