"""Fixtures for the virtual Pico tests: the real RPI_PICO image on rp2040js (tools/vpico).

Every test here is marked `pico` (`make test-fast` skips them). A board is
flashed once per session and board file the way a club does it, `futmesa flash
--uf2` (flash_uf2: the image copied onto the BOOTSEL drive, the board file
written with mpremote after the firmware hands the port back), and its flash
image copied for each test, so each test's board starts freshly flashed.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from futmesa.sim.vpico import BOARD_FILE, VirtualPico, find_image

HERE = Path(__file__).parent


@pytest.fixture(autouse=True)
def _english(english: None) -> None:
    """The doctor's and calibrate's lines are read in English (tests/i18n checks Portuguese)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.pico)


def beam_board(path: Path) -> Path:
    """pico.json with break-beam goal lines (the board file's beam build)."""
    cfg = json.loads(BOARD_FILE.read_text())
    for g in cfg["goal_sensors"]:
        g["type"] = "beam"
    path.write_text(json.dumps(cfg, indent=2))
    return path


@pytest.fixture(scope="session")
def pico_image() -> Path:
    try:
        return find_image()
    except Exception as exc:  # noqa: BLE001 - a clear failure, never a skip
        pytest.fail(str(exc))


class Flashed:
    """A flash image made by flash_uf2 onto a virtual Pico in BOOTSEL mode, and its log."""

    def __init__(self, img: Path | None, board: Path, log: list[str]) -> None:
        self.img, self.board, self.log = img, board, log


def flash_virtual_pico(root: Path, board: Path, image: Path) -> Flashed:
    from futmesa.deploy.flash import flash_uf2, release_board

    drive = root / "RPI-RP2"
    pico = VirtualPico(workdir=root, flash_file=root / "flash.img", board_file=board,
                       bootsel_dir=drive, start_bootsel=True)
    log: list[str] = []
    with pico:
        pico.wait_line("BOOTSEL", 120)
        # the emulator is slow on a busy machine: generous waits for each step
        flash_uf2(str(board), pico.host_port, image=image.with_suffix(".uf2"), drive=drive,
                  wait_port_s=120, timeout_s=300, echo=log.append, settle_s=5,
                  detect=lambda port: release_board(port, timeout_s=240, ack_timeout_s=120))
        pico.ask("save", "SAVED", 120)
        out = root / "flashed.img"
        shutil.copyfile(pico.flash_file, out)
        log.extend(pico.lines)
    return Flashed(out, board, log)


@pytest.fixture(scope="session")
def flashed(tmp_path_factory: pytest.TempPathFactory, pico_image: Path):
    """flashed(kind) -> Flashed, for kind "tof" (hardware/boards/pico.json) or "beam"."""
    made: dict[str, Flashed] = {}

    def get(kind: str) -> Flashed:
        if kind not in made:
            if kind == "tof":
                # the image writes its default board file (pico.json) at first boot: a blank
                # flash with the image is a freshly flashed ToF board
                made[kind] = Flashed(None, BOARD_FILE, [])
            else:
                root = tmp_path_factory.mktemp(f"vpico-{kind}")
                board = beam_board(root / "pico-beam.json")
                made[kind] = flash_virtual_pico(root, board, pico_image)
        return made[kind]

    return get


@pytest.fixture
def pico_factory(tmp_path: Path, flashed) -> Iterator:
    boards: list[VirtualPico] = []

    def make(kind: str = "beam", **kw: object) -> VirtualPico:
        done = flashed(kind)
        img, board = done.img, done.board
        sub = tmp_path / f"pico{len(boards)}"
        sub.mkdir()
        flash = sub / "flash.img"
        if img is not None:
            shutil.copyfile(img, flash)  # else: a blank flash, the image is written first
        pico = VirtualPico(workdir=sub, flash_file=flash, board_file=board, **kw)  # type: ignore[arg-type]
        boards.append(pico)
        return pico

    yield make
    for pico in boards:
        pico.stop()
