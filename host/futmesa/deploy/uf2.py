"""The futmesa Pico image and the Pico's BOOTSEL drive: check the .uf2, find the drive, copy it.

A Pico held in BOOTSEL while it is plugged in shows up as a USB drive labelled
RPI-RP2 holding INFO_UF2.TXT (`Board-ID: RPI-RP2`); a .uf2 file copied onto it
is written to flash, and the Pico reboots into it (the drive goes away). The
image is `build/firmware/futmesa-pico.uf2` (`make firmware`, docs/firmware.md).
"""

from __future__ import annotations

import glob
import os
import struct
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from futmesa.hardware.boardfile import hardware_dir
from futmesa.i18n import _

UF2_MAGIC = (0x0A324655, 0x9E5D5157)
UF2_END = 0x0AB16F30
UF2_FAMILY_FLAG = 0x00002000
RP2040_FAMILY = 0xE48BFF56
BLOCK = 512
INFO_FILE = "INFO_UF2.TXT"
BOOTSEL_ID = "RPI-RP2"  # the RP2040's Board-ID (an RP2350 says RP2350: another image)
IMAGE_NAME = "futmesa-pico.uf2"


class UF2Error(RuntimeError):
    """A problem with the image or the drive; the message says what to do."""


def default_image() -> Path:
    """The image `make firmware` builds, in the checkout futmesa runs from."""
    env = os.environ.get("FUTMESA_IMAGE")
    return Path(env) if env else hardware_dir().parent / "build" / "firmware" / IMAGE_NAME


def check_image(path: Path) -> int:
    """Number of 512-byte blocks of a valid RP2040 UF2 image; UF2Error otherwise."""
    if not path.is_file():
        raise UF2Error(_("no firmware image at {path}: build it with `make firmware` (about 5 "
                         "minutes the first time) or pass --image PATH").format(path=path))
    size = path.stat().st_size
    if size == 0 or size % BLOCK:
        raise UF2Error(_("{path} is not a UF2 image (its size is not a multiple of 512 bytes): "
                         "build it again with `make firmware`").format(path=path))
    with path.open("rb") as f:
        head = f.read(32)
    magic0, magic1, flags, _addr, _n, _no, total, family = struct.unpack("<8I", head)
    if (magic0, magic1) != UF2_MAGIC:
        raise UF2Error(_("{path} is not a UF2 image: build it again with `make firmware`")
                       .format(path=path))
    if not flags & UF2_FAMILY_FLAG or family != RP2040_FAMILY:
        raise UF2Error(_("{path} is not an RP2040 (Raspberry Pi Pico) image: use "
                         "build/firmware/futmesa-pico.uf2 from `make firmware`").format(path=path))
    if total != size // BLOCK:
        raise UF2Error(_("{path} is incomplete ({blocks} of {total} blocks): build it again "
                         "with `make firmware`").format(path=path, blocks=size // BLOCK,
                                                         total=total))
    return total


def drive_kind(path: Path) -> str | None:
    """"rp2040" for a Pico's BOOTSEL drive, "other" for another UF2 drive, None otherwise."""
    try:
        text = (path / INFO_FILE).read_text(errors="replace")
    except OSError:
        return None
    return "rp2040" if BOOTSEL_ID in text else "other"


def mounted_volumes() -> list[Path]:
    """Folders where a USB drive may be mounted: every mount point, plus the usual places."""
    found: list[str] = []
    try:
        with open("/proc/mounts") as f:
            for line in f:
                parts = line.split()
                if len(parts) > 1:
                    found.append(parts[1].replace("\\040", " "))
    except OSError:
        pass
    for pattern in ("/media/*", "/media/*/*", "/run/media/*/*", "/mnt/*", "/Volumes/*"):
        found += glob.glob(pattern)
    seen: set[str] = set()
    out = []
    for p in found:
        if p not in seen:
            seen.add(p)
            out.append(Path(p))
    return out


def find_drive(candidates: Iterable[Path]) -> Path | None:
    """The one Pico BOOTSEL drive among `candidates`; UF2Error when there are several."""
    picos = [p for p in candidates if drive_kind(p) == "rp2040"]
    if len(picos) > 1:
        raise UF2Error(_("several Pico BOOTSEL drives are mounted ({drives}): unplug all but "
                         "one, or pass --drive").format(drives=", ".join(map(str, picos))))
    return picos[0] if picos else None


def wait_for_drive(wait_s: float, echo: Callable[[str], None],
                   volumes: Callable[[], list[Path]] = mounted_volumes,
                   poll_s: float = 0.5) -> Path:
    """Wait up to wait_s seconds for a Pico BOOTSEL drive to be mounted."""
    deadline = time.monotonic() + wait_s
    told = False
    while True:
        drive = find_drive(volumes())
        if drive is not None:
            return drive
        if time.monotonic() >= deadline:
            raise UF2Error(_(
                "no Pico BOOTSEL drive ({id}) found within {seconds} s: hold the BOOTSEL button "
                "while plugging the Pico in, open the RPI-RP2 drive in the file manager if it is "
                "not mounted, then run this again (or pass --drive PATH)").format(
                    id=BOOTSEL_ID, seconds=f"{wait_s:g}"))
        if not told:
            echo(_("waiting up to {seconds} s for the Pico's BOOTSEL drive ({id}): hold BOOTSEL "
                   "while plugging the Pico in …").format(seconds=f"{wait_s:g}", id=BOOTSEL_ID))
            told = True
        time.sleep(poll_s)


def check_drive(path: Path) -> None:
    """--drive PATH must be a Pico's BOOTSEL drive."""
    kind = drive_kind(path)
    if kind is None:
        raise UF2Error(_("{path} is not a Pico BOOTSEL drive (no {info} there): hold BOOTSEL "
                         "while plugging the Pico in and pass the RPI-RP2 drive's folder").format(
                             path=path, info=INFO_FILE))
    if kind != "rp2040":
        raise UF2Error(_("{path} is a UF2 drive but not an RP2040 Pico's (its {info} does not "
                         "say {id}); the futmesa image is for the Raspberry Pi Pico / Pico W only"
                         ).format(path=path, info=INFO_FILE, id=BOOTSEL_ID))


def copy_image(image: Path, drive: Path, echo: Callable[[str], None],
               chunk_blocks: int = 64) -> Path:
    """Copy the image onto the drive, reporting progress; returns the file written.

    The Pico starts writing its flash as the blocks arrive and reboots after the last
    one, so its drive may vanish before the file is closed: an error once every byte
    has been written is the Pico rebooting, not a failure.
    """
    data = image.read_bytes()
    dest = drive / image.name
    total = len(data)
    step = BLOCK * chunk_blocks
    written = 0
    next_report = 25
    try:
        fd = os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    except OSError as exc:
        raise UF2Error(_("cannot write to {drive} ({problem}): is the drive mounted read-only? "
                         "Unplug the Pico, hold BOOTSEL, plug it in and retry").format(
                             drive=drive, problem=exc.strerror)) from exc
    try:
        while written < total:
            written += os.write(fd, data[written:written + step])
            pct = written * 100 // total
            if pct >= next_report:
                echo("  " + _("{pct} % ({done} of {total} KB)").format(
                    pct=f"{pct:3d}", done=written // 1024, total=total // 1024))
                next_report = (pct // 25 + 1) * 25
        os.fsync(fd)
    except OSError as exc:
        if written < total:
            raise UF2Error(_("copying to {drive} failed after {done} KB ({problem}): unplug "
                             "the Pico, hold BOOTSEL, plug it in and retry").format(
                                 drive=drive, done=written // 1024, problem=exc.strerror)
                           ) from exc
    finally:
        try:
            os.close(fd)
        except OSError:
            pass  # the drive went away: the Pico is rebooting into the new image
    return dest
