"""Where clips are kept and what the log says of them: the folder beside the event log, a
clip's file name, the ``clip`` entry's data, and the check ``futmesa verify`` makes of a file.

Kept free of OpenCV and PyAV: reading and verifying a record needs neither.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

CLIP_KIND = "clip"
CLIP_SOURCE = "camera"


def clip_dir(db_path: str | Path) -> Path:
    """The clips of an event log ``futmesa.sqlite`` are in ``futmesa-clips/`` beside it."""
    db = Path(db_path)
    return db.parent / f"{db.stem}-clips"


def clip_name(match_id: int, shown_entry: int) -> str:
    """A clip's file, relative to the clip folder: one folder per match."""
    return f"match-{int(match_id)}/entry-{int(shown_entry)}.mp4"


def clip_data(shown_entry: int, result: dict[str, Any], name: str, fmt: str) -> dict[str, Any]:
    """The ``clip`` entry's data: the entry it shows, its span, its file and sha256."""
    return {"shows": int(shown_entry), "from_ms": round(result["first_ms"]),
            "to_ms": round(result["last_ms"]), "file": name, "sha256": result["sha256"],
            "frames": int(result["frames"]), "format": fmt}


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def check_clip(db_path: str | Path, data: dict[str, Any]) -> str:
    """``ok``, ``absent`` (the file is not here: not an error) or ``altered``."""
    name = str(data.get("file") or "")
    path = clip_dir(db_path) / name
    if not name or ".." in Path(name).parts or not path.is_file():
        return "absent"
    return "ok" if file_sha256(path) == data.get("sha256") else "altered"
