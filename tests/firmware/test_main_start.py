"""main.py's real-board start-up on the MicroPython VM (`--platform rp2`, tests only): a missing,
foreign or unusable board file is said on the console with what to do, main.py ends cleanly (the
REPL stays reachable on a board) and the sim board is never used; the image's default board file
is written at first boot."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from futmesa.sim.table import find_micropython

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
BOARDS = ROOT / "hardware" / "boards"


def start(tmp: Path, extra_path: Path | None = None) -> subprocess.CompletedProcess[str]:
    path = f"{FIRMWARE}" + (f":{extra_path}" if extra_path else "")
    return subprocess.run(
        [find_micropython(), str(FIRMWARE / "main.py"), "--platform", "rp2",
         "--state", str(tmp / "state"), "--board-file", str(tmp / "board.json")],
        capture_output=True, text=True, timeout=60, cwd=tmp, stdin=subprocess.DEVNULL,
        env=dict(os.environ, MICROPYPATH=path))


def said(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 0, proc.stdout + proc.stderr  # ends: the REPL would follow
    assert "Traceback" not in proc.stdout + proc.stderr
    assert "sim" not in proc.stdout.lower()
    lines = proc.stdout.splitlines()
    assert len(lines) == 2 and lines[0].startswith("futmesa: PARADO - "), proc.stdout
    assert "LED blinks 3 times every 2 s" in lines[1]
    return lines[0]


def test_missing_board_file_after_the_first_boot(tmp_path: Path) -> None:
    (tmp_path / "state").mkdir()
    line = said(start(tmp_path))
    assert "board.json is missing" in line and "futmesa flash --board pico --port" in line


def test_unreadable_and_foreign_board_files(tmp_path: Path) -> None:
    (tmp_path / "board.json").write_text("{\"board\": \"pi")
    assert "unreadable" in said(start(tmp_path))
    (tmp_path / "board.json").write_text((BOARDS / "esp32.json").read_text())
    line = said(start(tmp_path))
    assert "is for the esp32 board, but this board is a pico" in line


def test_a_board_file_the_board_layer_cannot_use(tmp_path: Path) -> None:
    cfg = json.loads((BOARDS / "pico.json").read_text())
    del cfg["palheta"]
    (tmp_path / "board.json").write_text(json.dumps(cfg))
    line = said(start(tmp_path))
    assert "the board did not start with this board.json" in line


def test_first_boot_writes_the_images_default_board_file(tmp_path: Path) -> None:
    frozen = tmp_path / "frozen"
    frozen.mkdir()
    default = json.dumps(json.loads((BOARDS / "pico.json").read_text()))
    (frozen / "futmesa_default_board.py").write_text(
        f"BOARD = 'pico'\nBOARD_JSON = {default!r}\n")
    proc = start(tmp_path, frozen)
    assert json.loads((tmp_path / "board.json").read_text())["board"] == "pico"
    # the unix port has no machine.Pin: past the board file, the board layer cannot start,
    # and that too is said (on a Pico the loop would run)
    assert "the board did not start with this board.json" in said(proc)
