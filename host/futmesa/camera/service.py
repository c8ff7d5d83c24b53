"""The capture process's keeper, on the server's side: starts it, watches it, takes it back.

It touches the table only through the event log and the table's health: it reads the log
on its own connection (a goal-line event, a referee's ``review``: a clip is asked for; any
ball event: a cue for the simulated ball), writes its own ``clip`` entries (the hash chain
covers them), and raises the camera's faults. Nothing here runs on the table's queue, and
the table never waits on it: a camera that stalls, dies or is unplugged costs the match
nothing but its replays.
"""

from __future__ import annotations

import errno
import json
import logging
import multiprocessing as mp
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from futmesa.camera import counters as C
from futmesa.camera.faults import CAMERA_DISK_FULL, CAMERA_FROZEN, CAMERA_LOST, FAULTS
from futmesa.camera.record import CLIP_KIND, CLIP_SOURCE, clip_data, clip_dir, clip_name
from futmesa.camera.settings import CameraSettings
from futmesa.i18n import _

log = logging.getLogger("futmesa.camera")

CLIP_EVENTS = ("goal_line", "ball_out")  # device events that get a clip (and are judged)
JUDGE_BEFORE_MS = 1500.0  # the ball's path is judged from this long before the event
REVIEW = "review"  # the referee's "Rever"
CUE_EVENTS = ("goal_line", "ball_out")


class FrameAsks:
    """Asks for the newest picture, each answered by the keeper's reader (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Condition()
        self._next = 0
        self._answers: dict[int, bytes | None] = {}

    def ask(self) -> int:
        with self._lock:
            self._next += 1
            return self._next

    def answer(self, key: int, data: bytes | None) -> None:
        with self._lock:
            self._answers[key] = data
            self._lock.notify_all()

    def wait(self, key: int, timeout_s: float) -> bytes | None:
        with self._lock:
            self._lock.wait_for(lambda: key in self._answers, timeout_s)
            return self._answers.pop(key, None)


class CameraService:
    """One camera for one event log; ``start``, ``stop``; thread-safe ``stats``."""

    def __init__(self, spec: str, settings: CameraSettings, db_path: str | Path, store: Any,
                 health: Any = None, on_clip: Callable[[dict[str, Any]], None] | None = None,
                 restart_s: float = 2.0,
                 on_judged: Callable[[dict[str, Any]], None] | None = None) -> None:
        self.spec, self.settings, self.db_path = spec, settings, Path(db_path)
        self.store, self.health, self.on_clip = store, health, on_clip
        self.on_judged = on_judged  # a device event's clip judged: the ball's path as facts
        self.judging: dict[int, dict[str, Any]] = {}  # clip entry id -> the clip's "done"
        self.restart_s = restart_s
        self.clips = clip_dir(db_path)
        self.ctx = mp.get_context("spawn")
        self.shared = self.ctx.Array("d", C.COUNTERS)
        self.proc: Any = None
        self.conn: Any = None
        self.ready = False
        self.source_kind = ""
        self.last_error = ""
        self.started_at = 0.0
        self.pending: dict[int, dict[str, Any]] = {}  # shown entry id -> what was asked
        self.written: list[dict[str, Any]] = []  # clip entries written (newest last)
        self.seen_id = 0
        self.restarts = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._reader: sqlite3.Connection | None = None
        self._frames = FrameAsks()
        self._keep_due = False  # a clip was written: the disk's keeping is checked

    # -- lifecycle ----------------------------------------------------------------------
    def start(self) -> None:
        self._reader = sqlite3.connect(f"file:{self.db_path.resolve()}?mode=ro", uri=True,
                                       check_same_thread=False)
        self.seen_id = self._newest_id()
        for torn in self.clips.glob("*/*.part"):  # a clip cut by a power loss: never whole
            torn.unlink(missing_ok=True)
        self._spawn()
        self._thread = threading.Thread(target=self._run, daemon=True, name="futmesa-camera")
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._end_process()
        if self._reader is not None:
            self._reader.close()

    def _spawn(self) -> None:
        parent, child = self.ctx.Pipe()
        from futmesa.camera.capture import main  # the child's entry; cv2 stays out of here

        for i in range(C.COUNTERS):
            self.shared[i] = 0.0
        self.proc = self.ctx.Process(target=main, name="futmesa-camera", daemon=True,
                                     args=(self.spec, self.settings.model_dump_json(), child,
                                           self.shared))
        self.proc.start()
        child.close()
        self.conn, self.ready, self.started_at = parent, False, time.monotonic()

    def _end_process(self, graceful: bool = True) -> None:
        if self.proc is None:
            return
        try:
            self.conn.send(("stop",))
        except (OSError, EOFError):
            pass
        self.proc.join(timeout=12 if graceful else 0)  # a clip being written is finished first
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join(timeout=2)
        self._read_replies()  # the clips it finished before it ended
        self.conn.close()
        self.proc = None
        self._lost_pending("camera_lost")

    # -- the watch ----------------------------------------------------------------------
    def _run(self) -> None:
        while not self._stop.wait(0.05):
            try:
                self._step()
            except Exception:  # noqa: BLE001 - the camera's keeper never stops by itself
                log.exception(_("camera: unexpected error (the match is not affected)"))

    def _step(self) -> None:
        self._read_replies()
        self._check_process()
        self._read_log()
        if self._keep_due:
            self._keep_disk()

    def _keep_disk(self) -> None:
        """A new clip on disk: the oldest clips nobody cited go past ``clips_keep_mib``."""
        from futmesa.camera.keeping import prune_clips

        self._keep_due = False
        assert self._reader is not None
        gone = prune_clips(self._reader, self.db_path, self.settings.clips_keep_mib * 2**20)
        if gone:
            log.info(_("camera: %d clip(s) nobody cited removed to keep the disk (%d MiB)"),
                     len(gone), self.settings.clips_keep_mib)

    def _read_replies(self) -> None:
        while self.conn is not None and self.proc is not None:
            try:
                if not self.conn.poll():
                    return
                message = self.conn.recv()
            except (OSError, EOFError):
                return
            if message[0] == "ready":
                self.ready, self.source_kind, self.last_error = True, message[1], ""
            elif message[0] == "error":
                self.last_error = message[1]
            elif message[0] == "clip":
                self._clip_done(int(message[1]), message[2])
            elif message[0] == "frame":
                self._frames.answer(message[1], message[2])
            elif message[0] == "judged":
                done = self.judging.pop(int(message[1]), None)
                if done is not None and self.on_judged is not None:
                    self.on_judged({**done, "facts": message[2]})

    def _check_process(self) -> None:
        now = time.monotonic()
        if self.proc is not None and not self.proc.is_alive():
            if self.last_error:
                log.warning(_("camera: %s"), self.last_error)
            self._end_process()
            self._fault(CAMERA_LOST, True)
        if self.proc is None:
            if now - self.started_at >= self.restart_s:
                self.restarts += 1
                self._spawn()
            return
        last = self.shared[C.LAST_MONO] / 1000
        quiet = now - (last if last else self.started_at)
        stalled = quiet > self.settings.stall_s
        if stalled and quiet > max(3 * self.settings.stall_s, 5.0):
            self._end_process(graceful=False)  # a source that never answers: try it afresh
            self.started_at = now
        if stalled or last:  # a new capture without a frame yet changes nothing
            self._fault(CAMERA_LOST, stalled)
        self._fault(CAMERA_FROZEN, not stalled and self.shared[C.FROZEN] > 0)

    def _fault(self, code: str, on: bool) -> None:
        if self.health is None:
            return
        if on:
            self.health.set(FAULTS[code])
        else:
            self.health.clear(code)

    @property
    def working(self) -> bool:
        """Frames are arriving now."""
        last = self.shared[C.LAST_MONO] / 1000
        return self.proc is not None and bool(last) and \
            time.monotonic() - last <= self.settings.stall_s

    # -- the log ------------------------------------------------------------------------
    def _newest_id(self) -> int:
        assert self._reader is not None
        row = self._reader.execute("SELECT MAX(id) FROM entries").fetchone()
        return int(row[0] or 0)

    def _read_log(self) -> None:
        assert self._reader is not None
        rows = self._reader.execute(
            "SELECT id, match_id, source, kind, data, period, clock_ms, occurred_at, created_at"
            " FROM entries WHERE id>? ORDER BY id", (self.seen_id,)).fetchall()
        for row in rows:
            self.seen_id = int(row[0])
            entry = {"id": int(row[0]), "match_id": int(row[1]), "source": row[2],
                     "kind": row[3], "data": json.loads(row[4]), "period": int(row[5] or 0),
                     "clock_ms": int(row[6] or 0),
                     "at_ms": float(row[7]) if row[7] is not None else float(row[8]) * 1000}
            self._on_entry(entry)

    def _on_entry(self, entry: dict[str, Any]) -> None:
        kind, data = entry["kind"], entry["data"]
        if kind in CUE_EVENTS and entry["source"] == "device" and self.proc is not None:
            cue = ("goal", data.get("goal"), "end") if kind == "goal_line" else (
                "out", data.get("end"), str(data.get("line") or "side"))
            self._send(("cue", *cue))
        if (kind in CLIP_EVENTS and entry["source"] == "device") or \
                (kind == REVIEW and entry["source"] == "referee"):
            self.ask_clip(entry)

    def _send(self, message: tuple[Any, ...]) -> bool:
        try:
            self.conn.send(message)
            return True
        except (OSError, EOFError, AttributeError):
            return False

    def steer(self, kind: str, end: int | None, line: str) -> None:
        """The simulated ball steered as a cue would (``rest``: to a stop in an area; a test's
        or the demo's hand); other sources film the real ball and ignore it."""
        self._send(("cue", kind, end, line))

    def newest_frame(self, timeout_s: float = 3.0) -> bytes | None:
        """The newest picture in the ring, JPEG (the phone's calibration); None when the
        camera has none (down, or not started yet)."""
        key = self._frames.ask()
        if not self.working or not self._send(("frame", key)):
            return None
        return self._frames.wait(key, timeout_s)

    def ask_clip(self, entry: dict[str, Any]) -> None:
        """The clip around ``entry`` (its ``at_ms`` on the match's timeline)."""
        s = self.settings
        at = entry["at_ms"]
        before, after = ((s.review_s, 0.0) if entry["kind"] == REVIEW
                         else (s.clip_before_s, s.clip_after_s))
        name = clip_name(entry["match_id"], entry["id"])
        self.pending[entry["id"]] = {**entry, "name": name, "asked": time.monotonic()}
        if not self.working or not self._send(("clip", entry["id"], at - before * 1000,
                                                at + after * 1000, str(self.clips / name))):
            self._clip_done(entry["id"], {"error": "camera_lost", "code": CAMERA_LOST})

    def _lost_pending(self, code: str) -> None:
        for key in list(self.pending):
            self._clip_done(key, {"error": code, "code": code})

    def _clip_done(self, key: int, result: dict[str, Any]) -> None:
        entry = self.pending.pop(key, None)
        if entry is None:
            return
        if result.get("errno") in (errno.ENOSPC, errno.EDQUOT):
            result["code"] = CAMERA_DISK_FULL
        self._fault(CAMERA_DISK_FULL, result.get("code") == CAMERA_DISK_FULL)
        if "sha256" in result:
            from futmesa.camera.clipfile import FORMAT

            data = clip_data(key, result, entry["name"], FORMAT)
        else:  # the clip's absence, said where it would be
            data = {"shows": key, "absent": str(result.get("code") or "camera_lost")}
        try:
            entry_id = self.store.append_entry(
                entry["match_id"], CLIP_SOURCE, CLIP_KIND, data, entry["period"],
                entry["clock_ms"], "camera", occurred_at=time.time() * 1000)
        except (sqlite3.Error, OSError) as exc:
            log.warning(_("camera: the clip of entry %s could not be recorded (%s)"), key, exc)
            return
        done = {**data, "entry": entry_id, "match_id": entry["match_id"], "cue": entry["kind"],
                "written_s": result.get("written_s"), "truth": result.get("truth"),
                "asked_to_done_s": time.monotonic() - entry["asked"]}
        self.written.append(done)
        self._keep_due = self._keep_due or "sha256" in data
        if self.on_clip is not None:
            self.on_clip(done)
        if (entry["kind"] in CLIP_EVENTS or entry["kind"] == REVIEW) and "sha256" in data \
                and self.on_judged is not None:  # a review: its whole span (a kick, its stop)
            self.ask_judge(done, float(done["from_ms"]) if entry["kind"] == REVIEW
                           else entry["at_ms"] - JUDGE_BEFORE_MS)

    def ask_judge(self, done: dict[str, Any], from_ms: float) -> None:
        """The ball's path from ``from_ms`` (JUDGE_BEFORE_MS before a device event; a
        review's first frame) to the clip's end, judged on the ring's full-size frames with
        the saved calibration."""
        from futmesa.camera.calibration import calibration_path

        self.judging[int(done["entry"])] = done
        if not self._send(("judge", int(done["entry"]), from_ms,
                           float(done["to_ms"]), str(calibration_path(self.db_path)))):
            self.judging.pop(int(done["entry"]), None)

    def stats(self) -> dict[str, Any]:
        out: dict[str, Any] = C.as_dict(self.shared)
        out.update(restarts=self.restarts, clips_written=len(self.written),
                   alive=self.proc is not None and self.proc.is_alive(),
                   pid=self.proc.pid if self.proc is not None else None)
        return out
