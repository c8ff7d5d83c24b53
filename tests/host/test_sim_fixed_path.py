"""Each simulated table's fixed device path (futmesa.sim.fixed_path, issue 45 walk M4): one per
table number, a killed sim's stale link replaced, a folder someone else can write refused."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from futmesa.sim import fixed_path


@pytest.fixture
def runtime(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    return tmp_path / "futmesa-sim"


def test_each_table_number_has_its_own_path(runtime: Path) -> None:
    assert fixed_path.path_of("SIM00002") == runtime / "mesa-2.tty"
    assert fixed_path.path_of("SIM00012") == runtime / "mesa-12.tty"


def test_a_stale_link_is_replaced_and_only_its_own_link_is_released(runtime: Path,
                                                                    tmp_path: Path) -> None:
    gone = str(tmp_path / "futmesa-sim-killed" / "host.tty")  # a killed sim's folder, removed
    port = fixed_path.point("SIM00003", gone)
    now = tmp_path / "pty"
    now.write_text("")
    assert fixed_path.point("SIM00003", str(now)) == port
    assert os.readlink(port) == str(now) and Path(port).exists()
    fixed_path.release("SIM00003", gone)   # not its link any more: left alone
    assert os.readlink(port) == str(now)
    fixed_path.release("SIM00003", str(now))
    assert not os.path.lexists(port)
    assert not runtime.exists()  # the folder goes with its last link


def test_a_folder_others_can_write_is_refused(runtime: Path) -> None:
    runtime.mkdir(mode=0o700)
    runtime.chmod(0o777)
    with pytest.raises(fixed_path.FixedPathError, match="não é uma pasta só deste usuário"):
        fixed_path.point("SIM00001", "/nowhere")
