"""`futmesa calibrate`: measure each time-of-flight goal sensor, propose thresholds, save, verify.

For each goal line: read the distance with the goal empty, then with the ball
wholly past the line at the near side, the middle and the far side of the goal
(the far side reads longest, so it decides the threshold), propose a threshold
and hysteresis (`futmesa.hardware.tof.propose_threshold`), save them into the
board file the device reads (`threshold_mm`, `hysteresis_mm` of each goal
sensor), then verify: the user rolls a few test balls into the goal and each
must be detected exactly once by the same detector the host's SBC mode uses.

Where readings come from (`DistanceSource`):
- `SbcSource`: the sensors wired to a Raspberry Pi, read through Blinka and
  Adafruit's driver (Linux SBC mode); the new board file is written locally.
- `LinkSource`: a microcontroller over the futmesa link: the firmware streams
  its raw readings (CMD_DIAG → MSG_DIAG) and keeps the thresholds it is sent
  (CMD_SET_THRESHOLD, in its table.json on flash, applied at once); the
  calibrated board file is written locally as well.
"""

from __future__ import annotations

import json
import queue
import statistics
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import futmesa_wire as W
from futmesa.hardware.boardfile import Board, check_board
from futmesa.hardware.tof import (
    NO_TARGET_MM,
    GoalLineDetector,
    propose_threshold,
)
from futmesa.i18n import N_, _, ngettext
from futmesa.link.protocol import LiveSink

SAMPLES = 15
BALL_SPOTS = (N_("near the sensor"), N_("in the middle of the goal"),
              N_("at the far side from the sensor"))  # shown with _()


class CalibrateError(RuntimeError):
    """Calibration cannot go on; the message says what to do."""


class DistanceSource(Protocol):
    def goals(self) -> list[int]: ...

    def read(self, goal: int) -> int:
        """One fresh distance in mm (NO_TARGET_MM when nothing is in range)."""


class _DiagSink(LiveSink):
    """Link sink for calibration: only the live sensor samples matter (no replay)."""

    def __init__(self) -> None:
        self.samples: queue.Queue[tuple[int, ...]] = queue.Queue()
        self.ready = threading.Event()

    def on_device(self, info: Any) -> tuple[int, int]:
        self.ready.set()
        return super().on_device(info)

    def on_diag(self, info: Any, ticks: int, values: tuple[int, ...]) -> None:
        self.samples.put(values)


class LinkSource:
    """Goal-sensor distances from a microcontroller over the futmesa link.

    The protocol (docs/protocol.md, DIAG and commands 14-15):
    - `CMD_DIAG` (a=1 start, a=0 stop): while on, the device sends `MSG_DIAG`
      about every 50 ms, payload `DIAG_FMT` = (tof0_mm, tof1_mm, beam bits, net
      bits, palheta raw, button bits), a distance being -1 for "no answer"
      and -2 for "no new sample";
    - the host link hands each one to `sink.on_diag(info, ticks, values)`;
    - `CMD_SET_THRESHOLD` a=goal, x=threshold_mm, y=hysteresis_mm: the device
      applies and keeps them (acknowledged with ACK_OK).
    """

    def __init__(self, port: str, board: Board, link_factory: Callable[..., Any] | None = None,
                 timeout_s: float = 3.0) -> None:
        self.port = port
        self.board = board
        self.timeout_s = timeout_s
        self.sink = _DiagSink()
        if link_factory is None:
            from futmesa.link import HostLink

            link_factory = HostLink
        self.link = link_factory(port, self.sink)

    def start(self) -> None:
        self.link.start()
        if not self.sink.ready.wait(self.timeout_s):
            self.link.stop()
            raise CalibrateError(_("the board on {port} did not answer: run `futmesa doctor` "
                                   "and close any other program using the port").format(
                                       port=self.port))
        self._command(W.CMD_DIAG, 1)

    def stop(self) -> None:
        try:
            self._command(W.CMD_DIAG, 0)
        finally:
            self.link.stop()

    def _command(self, code: int, a: int = 0, x: int = 0, y: int = 0) -> None:
        try:
            result = self.link.command(code, a, 0, 0, x, y).result(timeout=self.timeout_s)
        except Exception as exc:  # a Future's timeout or a link error
            raise CalibrateError(_("the board did not acknowledge a calibration command "
                                   "({problem}): run `futmesa doctor`").format(
                                       problem=repr(exc))) from exc
        if result == W.ACK_UNKNOWN:
            raise CalibrateError(_("the board's firmware does not know calibration commands: "
                                   "update it with `futmesa flash`"))
        if result != W.ACK_OK:
            raise CalibrateError(_("the board refused a calibration command (result {result}; "
                                   "goal {goal}, {x} mm, {y} mm): check the board file's goal "
                                   "sensors, or update its firmware with `futmesa flash`").format(
                                       result=result, goal=a, x=x, y=y))

    def goals(self) -> list[int]:
        return sorted(g["id"] for g in self.board.goal_sensors if g["type"] == "vl53l0x")

    def flush(self, settle_s: float = 0.12) -> None:
        """Forget the samples streamed while the user was busy (they show the old scene)."""
        deadline = time.monotonic() + settle_s
        while True:
            while not self.sink.samples.empty():
                self.sink.samples.get_nowait()
            if time.monotonic() >= deadline:
                return
            time.sleep(min(0.02, max(0.0, deadline - time.monotonic())))

    def read(self, goal: int) -> int:
        end = time.monotonic() + self.timeout_s
        while time.monotonic() < end:
            try:
                values = self.sink.samples.get(timeout=max(0.0, end - time.monotonic()))
            except queue.Empty:
                break
            mm = int(values[goal])
            if mm == -1:
                raise CalibrateError(_("goal sensor {goal} does not answer: check its wires "
                                       "and run `futmesa doctor`").format(goal=goal))
            if mm >= 0:
                return mm
        raise CalibrateError(_("no distance from goal sensor {goal} within {seconds} s: run "
                               "`futmesa doctor`").format(goal=goal,
                                                          seconds=f"{self.timeout_s:g}"))

    def save_thresholds(self, results: dict[int, GoalResult]) -> None:
        for goal, r in sorted(results.items()):
            self._command(W.CMD_SET_THRESHOLD, goal, r.threshold_mm, r.hysteresis_mm)


def link_source(port: str, board_name: str = "pico",
                link_factory: Callable[..., Any] | None = None,
                timeout_s: float = 3.0) -> LinkSource:
    """Distances from a microcontroller over the futmesa link; the board must answer."""
    import os

    from futmesa.hardware.boardfile import load_board

    if link_factory is None and port.startswith("/dev/") and not os.path.exists(port):
        raise CalibrateError(_("no board at {port}: plug it in with a data USB cable, then "
                               "run `futmesa doctor` to see which port it is on").format(
                                   port=port))

    source = LinkSource(port, load_board(board_name), link_factory, timeout_s=timeout_s)
    source.start()
    return source


@dataclass
class GoalResult:
    goal: int
    empty_mm: list[int]
    ball_mm: list[int]
    threshold_mm: int
    hysteresis_mm: int
    verified: int = 0
    expected: int = 0
    extra: int = 0

    @property
    def ok(self) -> bool:
        return self.verified == self.expected and self.extra == 0


@dataclass
class Calibrator:
    source: DistanceSource
    prompt: Callable[[str], None]  # shows an instruction and waits until the user is ready
    echo: Callable[[str], None] = print
    samples: int = SAMPLES
    results: dict[int, GoalResult] = field(default_factory=dict)

    def _ask(self, msg: str, settle_s: float = 0.12) -> None:
        """Show an instruction, wait for the user, then read only what comes after
        (a streaming source drops what it read meanwhile, and `settle_s` more)."""
        self.prompt(msg)
        flush = getattr(self.source, "flush", None)
        if flush is not None:
            flush(settle_s)

    def _sample(self, goal: int, n: int | None = None) -> list[int]:
        return [self.source.read(goal) for _read in range(n or self.samples)]

    def measure(self, goal: int) -> GoalResult:
        self._ask(_("Goal line {goal}: take every ball and the goalkeeper out of the goal, "
                    "then press Enter").format(goal=goal))
        empty = self._sample(goal)
        valid = [m for m in empty if 0 < m < NO_TARGET_MM]
        self.echo("  " + _("empty goal: {summary}").format(summary=summary(empty)))
        if valid and max(valid) - min(valid) > 40:
            self.echo("  " + _("(the empty reading jumps around: is the opposite wall matte?)"))
        ball: list[int] = []
        for spot in BALL_SPOTS:
            self._ask(_("Goal line {goal}: put the ball wholly past the line, {spot}, then "
                        "press Enter").format(goal=goal, spot=_(spot)))
            readings = self._sample(goal)
            self.echo("  " + _("ball {spot}: {summary}").format(spot=_(spot),
                                                                summary=summary(readings)))
            ball.append(int(statistics.median(readings)))
        try:
            threshold, hysteresis = propose_threshold(empty, ball)
        except ValueError as exc:
            raise CalibrateError(_("goal line {goal}: {problem}").format(goal=goal, problem=exc)
                                 ) from exc
        self.echo("  " + _("proposed: threshold {threshold} mm, hysteresis {hysteresis} mm")
                  .format(threshold=threshold, hysteresis=hysteresis))
        result = GoalResult(goal, empty, ball, threshold, hysteresis)
        self.results[goal] = result
        return result

    def verify(self, goal: int, balls: int = 3, window_reads: int = 60) -> GoalResult:
        """Each test ball must trip the detector exactly once."""
        r = self.results[goal]
        detector = GoalLineDetector(r.threshold_mm, r.hysteresis_mm)
        r.expected = balls
        r.verified = 0
        for k in range(1, balls + 1):
            self._ask(_("Goal line {goal}: test ball {k} of {balls}: press Enter, then roll it "
                        "into the goal and take it out again").format(
                            goal=goal, k=k, balls=balls), settle_s=0.0)
            hits = 0
            for _read in range(window_reads):
                if detector.feed(self.source.read(goal)) is True:
                    hits += 1
            if hits >= 1:
                r.verified += 1
            r.extra += max(0, hits - 1)
            self.echo("  " + _("test ball {k}: {seen}").format(
                k=k, seen=_("seen") if hits else _("NOT seen"))
                      + (" " + _("({n} times)").format(n=hits) if hits > 1 else ""))
        return r


def summary(readings: list[int]) -> str:
    valid = [m for m in readings if 0 < m < NO_TARGET_MM]
    if not valid:
        return _("nothing in range")
    return _("median {median} mm (min {low}, max {high})").format(
        median=int(statistics.median(valid)), low=min(valid), high=max(valid))


def calibrated_board_data(board: Board, results: dict[int, GoalResult]) -> dict[str, Any]:
    data = json.loads(json.dumps(board.data))
    for g in data["goal_sensors"]:
        if g["id"] in results:
            g["threshold_mm"] = results[g["id"]].threshold_mm
            g["hysteresis_mm"] = results[g["id"]].hysteresis_mm
    check_board(data, where=_("calibrated board file"))
    return data


def save_board(board: Board, results: dict[int, GoalResult], out: Path) -> Path:
    """Write the board file with the measured thresholds (same format, flat JSON)."""
    data = calibrated_board_data(board, results)
    out.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return out


def run_calibration(source: DistanceSource, board: Board, out: Path,
                    prompt: Callable[[str], None], echo: Callable[[str], None] = print,
                    balls: int = 3, samples: int = SAMPLES) -> dict[int, GoalResult]:
    goals = source.goals()
    if not goals:
        raise CalibrateError(_("no time-of-flight goal sensors in this board file: the "
                               "break-beam build needs no calibration, only alignment"))
    cal = Calibrator(source, prompt, echo, samples)
    for goal in goals:
        cal.measure(goal)
    save_board(board, cal.results, out)
    echo(_("saved thresholds to {out}").format(out=out))
    save_on_device = getattr(source, "save_thresholds", None)
    if save_on_device is not None:
        save_on_device(cal.results)
        echo(_("the board now uses the new thresholds"))
    failed = []
    for goal in goals:
        r = cal.verify(goal, balls)
        if not r.ok:
            failed.append(goal)
    if failed:
        raise CalibrateError(ngettext(
            "goal line {lines} did not see every test ball exactly once: check the sensor is "
            "aimed across the goal at ball height, then calibrate again",
            "goal lines {lines} did not see every test ball exactly once: check the sensor is "
            "aimed across the goal at ball height, then calibrate again",
            len(failed)).format(lines=", ".join(map(str, failed))))
    echo(_("verified: every test ball was seen exactly once"))
    return cal.results
