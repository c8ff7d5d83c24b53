"""Fixtures for the virtual Pico tests: the real RPI_PICO image on rp2040js (tools/vpico).

Every test here is marked `pico` (`make test-fast` skips them). A flash image
with the firmware and a board file is made once per session (the image boots
to its REPL without a board file; mpremote writes board.json) and copied for
each test, so each test's board starts from a freshly flashed Pico.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from futmesa.sim.vpico import BOARD_FILE, VirtualPico, find_image, provision

HERE = Path(__file__).parent


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


@pytest.fixture(scope="session")
def flashed(tmp_path_factory: pytest.TempPathFactory, pico_image: Path):
    """flashed(kind) -> (flash image, board file) for kind "tof" (pico.json) or "beam"."""
    made: dict[str, tuple[Path, Path]] = {}
    root = tmp_path_factory.mktemp("vpico-flash")

    def get(kind: str) -> tuple[Path, Path]:
        if kind not in made:
            board = BOARD_FILE if kind == "tof" else beam_board(root / "pico-beam.json")
            img = root / f"{kind}.img"
            provision(img, board, pico_image)
            made[kind] = (img, board)
        return made[kind]

    return get


@pytest.fixture
def pico_factory(tmp_path: Path, flashed) -> Iterator:
    boards: list[VirtualPico] = []

    def make(kind: str = "beam", **kw: object) -> VirtualPico:
        img, board = flashed(kind)
        sub = tmp_path / f"pico{len(boards)}"
        sub.mkdir()
        flash = sub / "flash.img"
        shutil.copyfile(img, flash)
        pico = VirtualPico(workdir=sub, flash_file=flash, board_file=board, **kw)  # type: ignore[arg-type]
        boards.append(pico)
        return pico

    yield make
    for pico in boards:
        pico.stop()
