"""`futmesa flash`: the compile step, the mpremote plan, and clear errors without a board."""

import json
import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

import futmesa_wire as W
from futmesa.cli import cli
from futmesa.deploy import flash as fl
from futmesa.hardware.boardfile import load_board

FIRMWARE = Path(fl.firmware_dir())


@pytest.fixture
def firmware_with_pico(tmp_path):
    """A copy of the real firmware, plus a pico board layer if the tree has none yet."""
    src = tmp_path / "firmware"
    src.mkdir()
    for p in FIRMWARE.glob("*.py"):
        shutil.copy(p, src)
    (src / "boards").mkdir()
    for p in (FIRMWARE / "boards").glob("*.py"):
        shutil.copy(p, src / "boards")
    if not (src / "boards" / "pico.py").exists():
        (src / "boards" / "pico.py").write_text("class PicoBoard:\n    name = 'pico'\n")
    return src


def test_compile_step_makes_mpy_files(tmp_path, firmware_with_pico):
    board = load_board("pico")  # VL53L0X goal sensors: the driver goes along
    files = fl.firmware_sources("pico", firmware_with_pico, board)
    remote_src = [r for _, r in files]
    assert "main.py" in remote_src and "boards/pico.py" in remote_src
    assert "boards/sim.py" not in remote_src  # only the board's own layer
    assert {"futmesa_tof.py", "adafruit_vl53l0x.py",
            "adafruit_bus_device/i2c_device.py"} <= set(remote_src)
    # Adafruit's driver is the only VL53L0X code; the freeze manifest stays on the computer
    assert "boards/vl53l0x.py" not in remote_src and "manifest.py" not in remote_src
    assert (firmware_with_pico / "manifest.py").is_file()
    copies = fl.compile_firmware(files, tmp_path / "out")
    remote = {r for _, r in copies}
    assert {"main.py", "futmesa_wire.mpy", "boards/pico.mpy", "adafruit_vl53l0x.mpy",
            "futmesa_tof.mpy", "adafruit_bus_device/i2c_device.mpy"} <= remote
    for local, r in copies:
        data = local.read_bytes()
        if r.endswith(".mpy"):
            assert data[0:1] == b"M" and data[1] == 6  # mpy format 6 header
        else:
            assert data == (firmware_with_pico / r).read_bytes()


def test_break_beam_board_gets_no_tof_driver(tmp_path, firmware_with_pico):
    data = json.loads(load_board("pico").path.read_text())
    for g in data["goal_sensors"]:
        g["type"] = "beam"
    p = tmp_path / "beam.json"
    p.write_text(json.dumps(data))
    files = fl.firmware_sources("pico", firmware_with_pico, load_board(p))
    assert not any("vl53l0x" in r or "futmesa_tof" in r for _, r in files)


def test_syntax_error_names_the_file(tmp_path, firmware_with_pico):
    (firmware_with_pico / "broken.py").write_text("def f(:\n")
    files = fl.firmware_sources("pico", firmware_with_pico)
    with pytest.raises(fl.FlashError) as err:
        fl.compile_firmware(files, tmp_path / "out")
    assert "broken.py" in str(err.value) and "Fix that file" in str(err.value)


def test_plan_copies_everything_and_the_board_file(tmp_path, firmware_with_pico, port):
    plan = fl.plan_flash("pico", port, tmp_path / "stage", src=firmware_with_pico)
    args = plan.mpremote_args("mpremote")
    assert args[:3] == ["mpremote", "connect", port]
    assert args[-4:] == ["+", "exec", "--no-follow", fl.RESET_CODE]
    mkdirs = args[4]
    assert "os.mkdir('boards')" in mkdirs and "os.mkdir('adafruit_bus_device')" in mkdirs
    assert ":board.json" in args and ":main.py" in args and ":boards/pico.mpy" in args
    board_json = next(local for local, r in plan.copies if r == "board.json")
    assert board_json.read_text() == Path(plan.board.path).read_text()


def test_missing_port_is_a_clear_error(tmp_path, firmware_with_pico):
    with pytest.raises(fl.FlashError) as err:
        fl.plan_flash("pico", "/dev/ttyACM97", tmp_path, src=firmware_with_pico)
    msg = str(err.value)
    assert "no board at /dev/ttyACM97" in msg and "futmesa doctor" in msg and "BOOTSEL" in msg


def test_sim_and_unknown_boards_are_refused(tmp_path, port):
    with pytest.raises(fl.FlashError, match="futmesa demo"):
        fl.plan_flash("sim", port, tmp_path)
    with pytest.raises(fl.FlashError, match="nothing to flash"):
        fl.plan_flash("rpi", port, tmp_path)
    with pytest.raises(fl.FlashError, match="known boards"):
        fl.plan_flash("uno", port, tmp_path)


def test_flash_reports_mpremote_failure(monkeypatch, firmware_with_pico, port):
    monkeypatch.setenv("FUTMESA_FIRMWARE_DIR", str(firmware_with_pico))
    seen = {}

    def fake_run(args, **kw):
        seen["args"] = args
        return subprocess.CompletedProcess(args, 1, "", "mpremote: could not enter raw repl")

    with pytest.raises(fl.FlashError) as err:
        fl.flash("pico", port, run=fake_run, echo=lambda s: None, detect=lambda p: None)
    assert "could not enter raw repl" in str(err.value) and "Close" in str(err.value)
    assert Path(seen["args"][0]).name == "mpremote"


def test_flash_checks_the_version_after_reboot(monkeypatch, firmware_with_pico, port):
    monkeypatch.setenv("FUTMESA_FIRMWARE_DIR", str(firmware_with_pico))
    ok = subprocess.CompletedProcess([], 0, "", "")
    want = ".".join(map(str, W.FIRMWARE_VERSION))
    lines = []
    good = SimpleNamespace(firmware=want, proto=W.PROTO_VERSION, board="pico")
    fl.flash("pico", port, run=lambda a, **k: ok, verify=lambda p, t: good, echo=lines.append,
             detect=lambda p: None)
    assert lines[-1] == f"ok: pico on {port} runs firmware {want}, protocol {W.PROTO_VERSION}"

    old = SimpleNamespace(firmware="0.0.1", proto=W.PROTO_VERSION, board="pico")
    with pytest.raises(fl.FlashError, match="reports firmware 0.0.1"):
        fl.flash("pico", port, run=lambda a, **k: ok, verify=lambda p, t: old, echo=print,
                 detect=lambda p: None)


def test_cli_flash_missing_port():
    result = CliRunner().invoke(cli, ["flash", "--board", "pico", "--port", "/dev/ttyACM97"])
    assert result.exit_code == 1
    # either the firmware has no pico layer yet, or the port is missing: both say what to do
    assert ("no board at /dev/ttyACM97" in result.output
            or "no board layer for 'pico'" in result.output)


def test_flash_refuses_a_board_whose_firmware_names_another(monkeypatch, firmware_with_pico,
                                                            port):
    """Issue 14: `flash --board pico` onto a board running esp32 firmware went ahead."""
    monkeypatch.setenv("FUTMESA_FIRMWARE_DIR", str(firmware_with_pico))
    calls = []

    def fake_run(args, **kw):
        calls.append(args)
        return subprocess.CompletedProcess(args, 0, "", "")

    esp32 = SimpleNamespace(firmware="0.1.0", proto=W.PROTO_VERSION, board="esp32")
    with pytest.raises(fl.FlashError, match="runs futmesa firmware for 'esp32', not 'pico'"):
        fl.flash("pico", port, run=fake_run, echo=lambda s: None, detect=lambda p: esp32,
                 settle_s=0)
    assert calls == []  # nothing was copied
    want = ".".join(map(str, W.FIRMWARE_VERSION))
    good = SimpleNamespace(firmware=want, proto=W.PROTO_VERSION, board="pico")
    fl.flash("pico", port, run=fake_run, echo=lambda s: None, detect=lambda p: esp32,
             verify=lambda p, t: good, settle_s=0, force=True)
    assert any("fs" in a for a in calls)


def test_flash_refuses_a_board_whose_micropython_runs_on_another_chip(
        monkeypatch, firmware_with_pico, port):
    """Plain MicroPython (no futmesa firmware yet): ask it for sys.platform."""
    monkeypatch.setenv("FUTMESA_FIRMWARE_DIR", str(firmware_with_pico))
    copied = []

    def fake_run(args, **kw):
        if "fs" in args:
            copied.append(args)
        return subprocess.CompletedProcess(args, 0, "platform=esp32\n", "")

    with pytest.raises(fl.FlashError, match="is a esp32 chip, but the 'pico' board file"):
        fl.flash("pico", port, run=fake_run, echo=lambda s: None, detect=lambda p: None)
    assert copied == []


def test_flash_shows_progress_on_a_long_copy(monkeypatch, firmware_with_pico, port):
    import threading

    monkeypatch.setenv("FUTMESA_FIRMWARE_DIR", str(firmware_with_pico))
    lines: list[str] = []
    seen = threading.Event()

    def slow_copy(args, **kw):
        if "fs" in args:  # the copy lasts until a progress line was printed
            assert seen.wait(60), lines
        return subprocess.CompletedProcess(args, 0, "platform=rp2\n", "")

    def echo(text):
        lines.append(text)
        if "still copying" in text:
            seen.set()

    want = ".".join(map(str, W.FIRMWARE_VERSION))
    good = SimpleNamespace(firmware=want, proto=W.PROTO_VERSION, board="pico")
    fl.flash("pico", port, run=slow_copy, echo=echo, detect=lambda p: None,
             verify=lambda p, t: good, progress_every_s=0.05)
    assert any(line.startswith("  … still copying (") for line in lines)
