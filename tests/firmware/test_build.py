"""Every firmware module compiles with mpy-cross, and the firmware type-checks against the
MicroPython stubs of each real port (rp2, esp32) with mypy.

The stubs are installed by the Makefile into .venv/stubs/<port>, one folder per port
(they define the same modules). mypy gets the port's folder both as MYPYPATH (machine,
micropython, time, ...) and as --custom-typeshed-dir (its stdlib/ is MicroPython's stdlib),
so `import zlib` or a CPython-only API fails the check as it would fail on the board.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
STUBS = ROOT / ".venv" / "stubs"
CONFIG = Path(__file__).with_name("mypy-firmware.ini")
MODULES = sorted(p.relative_to(FIRMWARE).as_posix() for p in FIRMWARE.rglob("*.py")
                 if "egg-info" not in p.as_posix())
# what the type-check covers: everything that runs on a real board (the sim and bench
# boards use unix-port-only modules such as termios, still checked: see the ini file)
CHECKED = [m for m in MODULES if m != "manifest.py"]


def _tool(name: str) -> str:
    exe = shutil.which(name) or str(Path(sys.executable).with_name(name))
    if not Path(exe).exists():
        pytest.fail(f"{name} not found: run `make setup`")
    return exe


# the boards' architectures: the native (viper) module wirecrc.py needs one (the rp2 image
# build passes -march=armv6m, as here; an esp32 compiles it on the board from source)
ARCH = {"pico": "armv6m", "esp32": "xtensawin"}


@pytest.mark.parametrize("module", MODULES)
def test_module_compiles_with_mpy_cross(module: str, tmp_path: Path) -> None:
    out = tmp_path / "out.mpy"
    proc = subprocess.run([_tool("mpy-cross"), "-march=" + ARCH["pico"], "-o", str(out), "-s",
                           module, str(FIRMWARE / module)], capture_output=True, text=True)
    assert proc.returncode == 0, f"mpy-cross rejects {module}:\n{proc.stderr}"
    assert out.stat().st_size > 0


def test_native_crc_compiles_for_the_esp32_too(tmp_path: Path) -> None:
    out = tmp_path / "out.mpy"
    proc = subprocess.run([_tool("mpy-cross"), "-march=" + ARCH["esp32"], "-o", str(out),
                           str(FIRMWARE / "wirecrc.py")], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("port", ["rp2", "esp32"])
def test_firmware_type_checks_against_port_stubs(port: str, tmp_path: Path) -> None:
    stubs = STUBS / port
    if not (stubs / "machine.pyi").exists():
        pytest.fail(f"MicroPython {port} stubs missing in {stubs}: run `make setup`")
    env = dict(os.environ, MYPYPATH=str(stubs))
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(CONFIG),
         "--custom-typeshed-dir", str(stubs), "--cache-dir", str(tmp_path / "cache"),
         *CHECKED],
        capture_output=True, text=True, cwd=FIRMWARE, env=env, timeout=600,
    )
    assert proc.returncode == 0, f"mypy ({port} stubs) found problems:\n{proc.stdout}{proc.stderr}"
    assert f"in {len(CHECKED)} source files" in proc.stdout, proc.stdout


def test_type_check_catches_what_a_board_lacks(tmp_path: Path) -> None:
    # the same set-up must reject CPython-only modules and wrong machine calls
    bad = tmp_path / "bad.py"
    bad.write_text("import zlib\nimport machine\nmachine.Pin('x', 'y', 'z', 'w', 1, 2, 3)\n")
    stubs = STUBS / "rp2"
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(CONFIG), "--custom-typeshed-dir",
         str(stubs), "--cache-dir", str(tmp_path / "cache"), str(bad)],
        capture_output=True, text=True, env=dict(os.environ, MYPYPATH=str(stubs)), timeout=600,
    )
    assert proc.returncode == 1, proc.stdout
    assert '"zlib"' in proc.stdout and "bad.py:3" in proc.stdout, proc.stdout


def test_build_without_the_micropython_sources_says_what_is_missing_in_one_line(
        tmp_path: Path) -> None:
    """A clone with no ../shared/vendor (issue 23): one line naming the file, the MicroPython
    release and its sha256, and how to get it; not a mystery stop. The script runs from a
    copy in an empty tree, so it cannot find a tarball anywhere (nor build anything)."""
    clone = tmp_path / "clone"
    (clone / "scripts").mkdir(parents=True)
    for script in ("build-firmware.sh", "lang.sh"):
        shutil.copy(ROOT / "scripts" / script, clone / "scripts")
    empty = tmp_path / "vendor"
    empty.mkdir()
    proc = subprocess.run(["bash", str(clone / "scripts" / "build-firmware.sh")],
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "FUTMESA_VENDOR": str(empty)})
    assert proc.returncode == 1
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert str(empty / "micropython-1.28.0-rp2-src.tar.xz") in lines[0]
    assert "v1.28.0" in lines[0]
    assert "061e37bd9d2a7ebdcf7fa4662a4cc42b80f93b636c63b77ac035445e7391df44" in lines[0]
    assert "make firmware-sources" in lines[0] and "FUTMESA_VENDOR" in lines[0]
    assert lines[0].startswith("erro: faltam as fontes do MicroPython")  # the suite's pt_BR
    english = subprocess.run(["bash", str(clone / "scripts" / "build-firmware.sh")],
                             capture_output=True, text=True, timeout=60,
                             env={**os.environ, "FUTMESA_VENDOR": str(empty),
                                  "FUTMESA_LANG": "en"})
    assert english.returncode == 1
    assert english.stderr.startswith("error: the MicroPython sources are missing"), \
        english.stderr
    assert len(english.stderr.splitlines()) == 1
    assert sorted(p.name for p in clone.iterdir()) == ["scripts"]  # nothing made
