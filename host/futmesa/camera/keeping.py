"""The clips kept on disk over a championship day (docs/camera.md, "The disk").

Every goal-line event and every ball out gets a clip. Kept whatever their size: a goal's clip,
and any clip an entry of the log cites (a void, an amendment, the referee's answer to the
camera's proposal: its ``clip`` field). The others — moments nobody cited — are kept up to
``clips_keep_mib``; past it the oldest of them go first. Their ``clip`` entries stay in the
log with their sha256: ``futmesa verify`` then says the file is not on this computer (not an
error), never that it was altered.

Reads the log on the caller's own (read-only) connection; kept free of OpenCV and PyAV.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from futmesa.camera.record import CLIP_KIND, clip_dir

KEPT_SHOWN = ("goal_line",)  # the entries whose clips are always kept


def uncited_clips(db: sqlite3.Connection, folder: Path) -> list[Path]:
    """The files of the clips nobody cited and that show no goal, oldest first."""
    cited = {int(v) for (v,) in db.execute(
        "SELECT json_extract(data, '$.clip') FROM entries WHERE kind != ? AND "
        "json_type(data, '$.clip') = 'integer'", (CLIP_KIND,))}
    out: list[Path] = []
    for clip_id, raw in db.execute("SELECT id, data FROM entries WHERE kind=? ORDER BY id",
                                   (CLIP_KIND,)):
        data = json.loads(raw)
        name = str(data.get("file") or "")
        if not name or ".." in Path(name).parts or int(clip_id) in cited:
            continue
        shown = db.execute("SELECT kind FROM entries WHERE id=?",
                           (data.get("shows"),)).fetchone()
        if shown is not None and shown[0] in KEPT_SHOWN:
            continue
        out.append(folder / name)
    return out


def prune_clips(db: sqlite3.Connection, db_path: str | Path, keep_bytes: int) -> list[Path]:
    """Remove the oldest uncited clips until those left take at most ``keep_bytes``; the
    files removed."""
    files = [p for p in uncited_clips(db, clip_dir(db_path)) if p.is_file()]
    sizes = [p.stat().st_size for p in files]
    total, gone = sum(sizes), []
    for path, size in zip(files, sizes, strict=True):
        if total <= keep_bytes:
            break
        path.unlink(missing_ok=True)
        total -= size
        gone.append(path)
    return gone
