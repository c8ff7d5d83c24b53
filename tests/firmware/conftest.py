"""Runs MicroPython test modules (`mpy_test_*.py`) on the real MicroPython VM, one item per test.

Each `def test_*()` at the top level of such a module becomes an item; the
item runs `micropython mpy_runner.py <module> <function>` with MICROPYPATH
set to the firmware folder, this folder, the fake I2C bus and the on-board ToF
files `futmesa flash` copies (futmesa_tof, Adafruit's driver), and fails with
the MicroPython traceback when the function raises.
"""

from __future__ import annotations

import ast
import atexit
import os
import shutil
import subprocess
import tempfile
from functools import cache
from pathlib import Path

import pytest

from futmesa.deploy.flash import tof_driver_sources
from futmesa.sim import table as sim_table

HERE = Path(__file__).resolve().parent
FIRMWARE = HERE.parents[1] / "firmware"


def find_micropython() -> str:
    try:
        return sim_table.find_micropython()
    except sim_table.SimTableError as exc:
        pytest.fail(str(exc))


@cache
def onboard_dir() -> Path:
    """One folder holding, as links, the ToF files `futmesa flash` puts next to the firmware.

    The list is flash's own (tof_driver_sources: futmesa_tof, adafruit_vl53l0x,
    adafruit_bus_device), so the tests import exactly what a board gets, laid out as on
    the board, and nothing else from the virtualenv's site-packages.
    """
    root = Path(tempfile.mkdtemp(prefix="futmesa-onboard-"))
    atexit.register(shutil.rmtree, root, True)
    for local, remote in tof_driver_sources():
        dest = root / remote
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.symlink_to(local.resolve())
    return root


def mp_env() -> dict[str, str]:
    # fakei2c (the register-level fake bus) lives with the host hardware code
    fake = HERE.parents[1] / "host" / "futmesa" / "hardware"
    return dict(os.environ, MICROPYPATH=f"{FIRMWARE}:{HERE}:.frozen:{fake}:{onboard_dir()}")


class MicroPythonFailure(Exception):
    def __init__(self, output: str, rc: int) -> None:
        super().__init__(output)
        self.output = output
        self.rc = rc


class MpyItem(pytest.Item):
    def __init__(self, *, module: str, func: str, **kw: object) -> None:
        super().__init__(**kw)  # type: ignore[arg-type]
        self.module = module
        self.func = func

    def runtest(self) -> None:
        cmd = [find_micropython(), str(HERE / "mpy_runner.py"), self.module, self.func]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, env=mp_env(),
                                  stdin=subprocess.DEVNULL,
                                  cwd=str(HERE), timeout=120)
        except subprocess.TimeoutExpired as exc:
            raise MicroPythonFailure(f"timed out after 120 s\n{exc.stdout or ''}", -1) from exc
        out = proc.stdout + proc.stderr
        if proc.returncode != 0 or "MPY-PASS" not in proc.stdout:
            raise MicroPythonFailure(out, proc.returncode)

    def repr_failure(  # type: ignore[override]
        self, excinfo: pytest.ExceptionInfo[BaseException], style: object = None
    ) -> str:
        if isinstance(excinfo.value, MicroPythonFailure):
            return (f"MicroPython test {self.module}.{self.func} failed "
                    f"(exit {excinfo.value.rc}):\n{excinfo.value.output}")
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"{self.module}::{self.func}"


class MpyModule(pytest.File):
    def collect(self):  # type: ignore[override]
        tree = ast.parse(self.path.read_text(), filename=str(self.path))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                yield MpyItem.from_parent(self, name=node.name, module=self.path.stem,
                                          func=node.name)


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    if file_path.name.startswith("mpy_test_") and file_path.suffix == ".py":
        return MpyModule.from_parent(parent, path=file_path)
    return None
