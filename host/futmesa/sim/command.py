"""`futmesa sim`: a simulated table on a pseudo-terminal, for `futmesa serve` to connect to.

The real firmware runs under the MicroPython unix port (the sim board layer) on one end of
a pty pair; the other end's path is printed for `serve --device`. Lines typed on stdin go
to the simulated board's inputs: `goal 0`, `out 3`, `palheta A`, `button turnA` …
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable

from futmesa.i18n import N_, _
from futmesa.matchbook.wording import table_name
from futmesa.sim import fixed_path, ids
from futmesa.sim.table import SimTable

HELP = N_("type a line and Enter to act on the table: goal 0 | goal 1 (ball over a goal line: "
          "in the 1st half goal 0 is team A's goal and goal 1 team B's; they swap with the "
          "ends), out N (ball out, side-net zone N), palheta A|B, button turnA|turnB|referee")


def _feed_stdin(table: SimTable, echo: Callable[[str], None]) -> None:
    for raw in sys.stdin:
        line = raw.strip()
        if not line:
            continue
        try:
            table.send(line)
        except Exception as exc:  # noqa: BLE001 - shown to the person typing
            echo(_("not sent: {error}").format(error=exc))
            return


def run_sim(speed: int, goal_sensor: str, echo: Callable[[str], None],
            number: int | None = None) -> None:
    """Start the simulated table, print its port, run until Ctrl-C (SIGTERM and SIGHUP do the
    same: futmesa.children.stop_on_signals). Each sim on this computer is its own table
    (``number``, else the first free one: :mod:`futmesa.sim.ids`), on the same path at every
    start (:mod:`futmesa.sim.fixed_path`): a `serve` left running finds it again."""
    stop = threading.Event()
    uid, held = ids.claim(number)
    table = SimTable(speed=speed, goal_sensor=goal_sensor, uid=uid)
    try:
        table.start()
        port = fixed_path.point(uid, table.host_port)
        echo(_("simulated table {name} (id {uid}) on {port}").format(
            name=table_name(uid), uid=uid, port=port))
        echo(_("connect the daemon: futmesa serve --device {port}").format(port=port))
        echo(_(HELP))
        echo(_("Ctrl-C stops the table"))
        threading.Thread(target=_feed_stdin, args=(table, echo), daemon=True).start()
        while not stop.wait(0.5):
            if not table.alive:
                echo(_("the simulated firmware stopped:") + "\n" + table.output_tail())
                raise SystemExit(1)
    except KeyboardInterrupt:
        pass
    finally:
        fixed_path.release(uid, table.host_port)
        table.stop()
        held.close()
