"""A folder of files to copy to a machine and install (`kiosk-setup`, `venue install`).

`write_bundle` writes the rendered files (name -> text) into a folder, the scripts among
them executable, and refuses to overwrite any unless told to: what both bundles share.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from futmesa.i18n import _


def write_bundle(out: Path, files: dict[str, str], executable: Iterable[str] = (),
                 force: bool = False) -> list[Path]:
    """The written paths; FileExistsError (one line) if any is there and not `force`."""
    existing = [name for name in files if (out / name).exists()]
    if existing and not force:
        raise FileExistsError(_("{folder} already has {files}: choose an empty folder or pass "
                                "--force to overwrite them").format(folder=out,
                                                                    files=", ".join(existing)))
    out.mkdir(parents=True, exist_ok=True)
    scripts = set(executable)
    paths = []
    for name, text in files.items():
        p = out / name
        p.write_text(text, encoding="utf-8")
        if name in scripts:
            p.chmod(0o755)
        paths.append(p)
    return paths
