"""`futmesa flash --uf2`: the image check, finding the Pico's BOOTSEL drive, the copy with
progress, writing board.json afterwards, and one clear line for each refusal. (The whole path
on a virtual Pico is in tests/pico.)"""

from __future__ import annotations

import struct
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

import futmesa_wire as W
from futmesa.cli import cli
from futmesa.deploy import flash as fl
from futmesa.deploy import uf2

RP2040_INFO = "UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\nBoard-ID: RPI-RP2\n"
RP2350_INFO = "UF2 Bootloader v1.0\nModel: Raspberry Pi RP2350\nBoard-ID: RP2350\n"


def make_uf2(path: Path, blocks: int = 8, family: int = uf2.RP2040_FAMILY,
             magic: int = uf2.UF2_MAGIC[0], total: int | None = None) -> Path:
    out = bytearray()
    for i in range(blocks):
        head = struct.pack("<8I", magic, uf2.UF2_MAGIC[1], uf2.UF2_FAMILY_FLAG,
                           0x10000000 + 256 * i, 256, i, total or blocks, family)
        out += head + bytes([i & 0xFF]) * 256 + bytes(476 - 256) + struct.pack("<I", uf2.UF2_END)
    path.write_bytes(bytes(out))
    return path


def make_drive(path: Path, info: str = RP2040_INFO) -> Path:
    path.mkdir(parents=True)
    (path / "INFO_UF2.TXT").write_text(info)
    (path / "INDEX.HTM").write_text("<html></html>")
    return path


def test_image_checks(tmp_path: Path) -> None:
    assert uf2.check_image(make_uf2(tmp_path / "ok.uf2", 8)) == 8
    with pytest.raises(uf2.UF2Error, match="make firmware"):
        uf2.check_image(tmp_path / "missing.uf2")
    with pytest.raises(uf2.UF2Error, match="not a UF2 image"):
        uf2.check_image(make_uf2(tmp_path / "bad.uf2", magic=0x12345678))
    with pytest.raises(uf2.UF2Error, match="not an RP2040"):
        uf2.check_image(make_uf2(tmp_path / "rp2350.uf2", family=0xE48BFF59))
    with pytest.raises(uf2.UF2Error, match="incomplete"):
        uf2.check_image(make_uf2(tmp_path / "cut.uf2", 4, total=9))
    (tmp_path / "odd.uf2").write_bytes(b"x" * 700)
    with pytest.raises(uf2.UF2Error, match="multiple of 512"):
        uf2.check_image(tmp_path / "odd.uf2")


def test_the_built_image_is_a_valid_rp2040_uf2() -> None:
    image = uf2.default_image()
    if not image.exists():
        pytest.fail(f"{image} is missing: `make test` builds it first (`make firmware`)")
    blocks = uf2.check_image(image)
    assert 256 * blocks > 300_000  # MicroPython plus the frozen firmware


def test_drive_detection(tmp_path: Path) -> None:
    pico = make_drive(tmp_path / "RPI-RP2")
    other = make_drive(tmp_path / "RP2350", RP2350_INFO)
    plain = tmp_path / "usbstick"
    plain.mkdir()
    assert uf2.drive_kind(pico) == "rp2040"
    assert uf2.drive_kind(other) == "other"
    assert uf2.drive_kind(plain) is None
    assert uf2.find_drive([plain, other, pico]) == pico
    assert uf2.find_drive([plain, other]) is None
    with pytest.raises(uf2.UF2Error, match="several Pico BOOTSEL drives"):
        uf2.find_drive([pico, make_drive(tmp_path / "RPI-RP2 1")])
    uf2.check_drive(pico)
    with pytest.raises(uf2.UF2Error, match="no INFO_UF2.TXT"):
        uf2.check_drive(plain)
    with pytest.raises(uf2.UF2Error, match="Pico / Pico W only"):
        uf2.check_drive(other)


def test_waiting_for_the_drive_tells_what_to_do(tmp_path: Path) -> None:
    lines: list[str] = []
    with pytest.raises(uf2.UF2Error) as err:
        uf2.wait_for_drive(0.3, lines.append, lambda: [tmp_path], poll_s=0.05)
    assert "hold the BOOTSEL button while plugging the Pico in" in str(err.value)
    assert "\n" not in str(err.value)
    assert lines and "hold BOOTSEL" in lines[0]
    later = tmp_path / "later"
    calls = []

    def volumes() -> list[Path]:  # the drive is mounted on the third look
        calls.append(1)
        if len(calls) == 3:
            make_drive(later)
        return [later]

    assert uf2.wait_for_drive(5.0, lines.append, volumes, poll_s=0.01) == later


def test_copy_reports_progress_and_writes_every_byte(tmp_path: Path) -> None:
    image = make_uf2(tmp_path / "futmesa-pico.uf2", 64)
    drive = make_drive(tmp_path / "RPI-RP2")
    lines: list[str] = []
    dest = uf2.copy_image(image, drive, lines.append, chunk_blocks=4)
    assert dest.read_bytes() == image.read_bytes()
    assert [ln.split("%")[0].strip() for ln in lines] == ["25", "50", "75", "100"]


def test_flash_uf2_copies_the_image_then_only_the_board_file(tmp_path: Path, port: str) -> None:
    image = make_uf2(tmp_path / "futmesa-pico.uf2", 32)
    drive = make_drive(tmp_path / "RPI-RP2")
    seen: dict[str, list[str]] = {}

    def fake_mpremote(args: list[str], **kw: object) -> subprocess.CompletedProcess[str]:
        seen["args"] = args
        board_json = Path(args[args.index(":board.json") - 1])
        seen["board_json"] = [board_json.read_text()]
        return subprocess.CompletedProcess(args, 0, "", "")

    want = ".".join(map(str, W.FIRMWARE_VERSION))
    good = SimpleNamespace(firmware=want, proto=W.PROTO_VERSION, board="pico")
    lines: list[str] = []
    fl.flash_uf2("pico", port, image=image, drive=drive, run=fake_mpremote,
                 verify=lambda p, t: good, echo=lines.append, detect=lambda p: None)
    assert (drive / "futmesa-pico.uf2").read_bytes() == image.read_bytes()
    args = seen["args"]
    assert args[2] == port and args[-4:] == ["+", "exec", "--no-follow", fl.RESET_CODE]
    copied = [a for a in args if a.startswith(":")]
    assert copied == [":board.json"], "the image holds the firmware: only the board file"
    from futmesa.hardware.boardfile import load_board

    assert seen["board_json"][0] == load_board("pico").path.read_text()
    assert any("100 %" in ln for ln in lines)
    assert lines[-1] == f"ok: pico on {port} runs firmware {want}, protocol {W.PROTO_VERSION}"


def test_flash_uf2_refusals(tmp_path: Path, port: str) -> None:
    image = make_uf2(tmp_path / "futmesa-pico.uf2")
    with pytest.raises(fl.FlashError, match="Pico \\(RP2040\\) only.*futmesa flash --board esp32"):
        fl.flash_uf2("esp32", port, image=image, drive=tmp_path)
    with pytest.raises(fl.FlashError, match="no INFO_UF2.TXT"):
        fl.flash_uf2("pico", port, image=image, drive=tmp_path)
    with pytest.raises(fl.FlashError, match="make firmware"):
        fl.flash_uf2("pico", port, image=tmp_path / "nope.uf2", drive=tmp_path)
    drive = make_drive(tmp_path / "RPI-RP2")
    with pytest.raises(fl.FlashError, match="did not appear within 0.2 s"):
        fl.flash_uf2("pico", "/dev/ttyACM97", image=image, drive=drive, wait_port_s=0.2,
                     echo=lambda s: None)


def test_cli_uf2_errors_are_one_line(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["--lang", "en", "flash", "--board", "pico",
                                 "--port", "/dev/ttyACM97",
                                 "--uf2", "--image", str(tmp_path / "none.uf2")])
    assert result.exit_code == 1
    assert "make firmware" in result.output and "Traceback" not in result.output
    result = runner.invoke(cli, ["--lang", "en", "flash", "--board", "pico",
                                 "--port", "/dev/ttyACM97",
                                 "--drive", str(tmp_path)])
    assert result.exit_code == 2 and "--image and --drive go with --uf2" in result.output
