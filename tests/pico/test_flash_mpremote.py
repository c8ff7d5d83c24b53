"""`futmesa flash` without --uf2 (the mpremote path a stock MicroPython takes) on the virtual Pico.

The board runs the futmesa image (a blank flash: it writes its default board file and runs).
`flash` asks it for the REPL (CMD_REPL, a reset into a REPL-only boot), checks the chip
(`sys.platform` rp2), compiles the firmware and Adafruit's VL53L0X driver with mpy-cross
for armv6m, copies them and board.json with mpremote, resets the board and checks the
version it reports. The image's frozen modules come first on its sys.path (main.py puts
`.frozen` in front), so the board then runs its frozen copy; to prove the copied files
themselves are right for this MicroPython, the test then imports them from the filesystem
with `.frozen` taken off sys.path and runs the native (viper) CRC from the copied
wirecrc.mpy against the host's CRC. (Building a second, stock RPI_PICO image for this
would add about 5 minutes to `make test`; docs/firmware.md.)
"""

from __future__ import annotations

import zlib

import pytest

import futmesa_wire as W
from futmesa.deploy.flash import FlashError, flash, release_board

from .picorepl import mpremote_exec

MODULES = ("futmesa_wire", "wirecrc", "link", "app", "matchclock", "lance", "buzzer", "inputs",
           "nvstore", "startup", "boards", "boards.pico", "futmesa_tof", "adafruit_vl53l0x")



@pytest.mark.timeout(1800)
def test_flash_with_mpremote_copies_firmware_that_runs_on_the_pico(pico_factory) -> None:
    pico = pico_factory("tof")
    pico.start()
    log: list[str] = []
    # The emulator copies at a fraction of a real Pico's speed: a longer copy limit. On a
    # very busy machine mpremote's own 10 s silence limit can still end a copy; the user's
    # remedy is the one `flash` prints, "flash again", and so does the test (twice at most;
    # the board is then at its REPL, so no futmesa handshake is awaited).
    for attempt in range(3):
        try:
            flash("pico", pico.host_port, timeout_s=300, echo=log.append, settle_s=5,
                  copy_timeout_s=900,
                  detect=lambda port, first=(attempt == 0): release_board(
                      port, timeout_s=600 if first else 5, ack_timeout_s=300))
            break
        except FlashError as exc:
            log.append(f"attempt {attempt + 1}: {exc}")
            if attempt == 2 or "mpremote" not in str(exc):
                raise
    text = "\n".join(log)
    assert "it handed the port back to MicroPython" in text, text  # the first attempt's
    assert any(line.startswith("RESET forced") for line in pico.lines), pico.output_tail()
    assert text.splitlines()[-1].startswith(f"ok: pico on {pico.host_port} runs firmware "
                                            f"{'.'.join(map(str, W.FIRMWARE_VERSION))}"), text
    # the copied files, imported from the filesystem (not the image's frozen modules)
    start = len(pico.lines)
    assert release_board(pico.host_port, timeout_s=600, ack_timeout_s=300) is not None
    pico.wait_line("LOG booted (watchdog)", 300, start)  # the REPL-only boot
    data = b"futmesa 123456789"
    code = ("import sys\nsys.path.remove('.frozen')\n"
            + "".join(f"import {m}\n" for m in MODULES)
            + f"for m in {MODULES!r}:\n print('FILE', m, sys.modules[m].__file__)\n"
            + "b = bytearray(4)\n"
            + f"wirecrc.crc32_into({data!r}, {len(data)}, 0x1234, 0x5678, b, 0)\n"
            + "print('CRC', int.from_bytes(b, 'little'))\n"
            + "print('SCHEMA', futmesa_wire.SCHEMA_ID)\n")
    out = mpremote_exec(pico.host_port, code, 600, call_timeout_s=180)
    files = dict(line.split()[1:3] for line in out.splitlines() if line.startswith("FILE "))
    assert set(files) == set(MODULES), out
    for name, path in files.items():
        assert ".frozen" not in path and path.endswith(".mpy"), (name, path)
    got = {line.split()[0]: int(line.split()[1]) for line in out.splitlines()
           if line.startswith(("CRC ", "SCHEMA "))}
    # the viper CRC (native armv6m code in the copied wirecrc.mpy) against the host's
    assert got["CRC"] == zlib.crc32(data, 0x56781234), out
    assert got["SCHEMA"] == W.SCHEMA_ID, out
