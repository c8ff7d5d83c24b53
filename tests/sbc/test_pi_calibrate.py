"""`futmesa calibrate --sbc` (issue 34): the Pi table calibrated as a Pico is, over the link.

The firmware's loop on the Pi (here the simulated header: two VL53L0X on the fake I2C bus,
read by Adafruit's driver) streams its distances (DIAG); the calibration asks for the empty
goal and the ball at three spots, proposes each threshold, sets it on the table (kept in its
state folder, as a Pico keeps it on flash: it survives a restart) and checks it with a test
ball per line. The person following the prompts is played here by control lines.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from futmesa import i18n
from futmesa.deploy.calibrate import link_source, run_calibration
from futmesa.hardware.boardfile import load_board
from futmesa.sbc.table import SbcTable

EMPTY, SPOTS = 150, {"near": 20, "middle": 60, "far": 100}


def test_calibrating_the_pi_tables_sensors_keeps_the_thresholds_in_its_state(
        tmp_path: Path) -> None:
    i18n.set_language("en")  # the prompts are read below (the suite resets the language)
    table = SbcTable(state_dir=tmp_path / "mesa")
    table.start()
    source = None
    try:
        for goal in (0, 1):
            table.send(f"tof {goal} {EMPTY}")
        source = link_source(table.host_port, "rpi", timeout_s=20)
        prompts: list[str] = []

        def prompt(msg: str) -> None:
            prompts.append(msg)
            goal = int(re.search(r"Goal line (\d+)", msg).group(1))  # type: ignore[union-attr]
            if "take every ball" in msg:
                table.send(f"tof {goal} {EMPTY}")
            elif "test ball" in msg:
                table.send(f"tof {goal} {SPOTS['far']} 800")  # rolls in, rests, is taken out
            else:
                spot = next(s for s in SPOTS if s in msg)
                table.send(f"tof {goal} {SPOTS[spot]}")
            table.sync()

        lines: list[str] = []
        results = run_calibration(source, load_board("rpi"), tmp_path / "rpi-cal.json", prompt,
                                  lines.append, balls=1, samples=4)
    finally:
        if source is not None:
            source.stop()
        table.stop()
    for goal in (0, 1):
        assert SPOTS["far"] < results[goal].threshold_mm < EMPTY, results[goal]
        assert results[goal].verified == 1 and results[goal].extra == 0, results[goal]
    assert lines[-1] == "verified: every test ball was seen exactly once", lines
    kept = json.loads((tmp_path / "mesa" / "table.json").read_text())  # the table's own
    assert kept["tof0_threshold_mm"] == results[0].threshold_mm
    assert kept["tof1_threshold_mm"] == results[1].threshold_mm
