"""`futmesa doctor`: find the board, show its firmware and protocol, and each sensor's state.

Every line is `ok`, `warn` or `FAIL`; every `warn`/`FAIL` says what to do.
The sensors' state comes from the device's own event ring (replayed by the
probe: faults and recoveries, the last goal on each line, ball-outs per zone,
button presses) and its status (palheta position, clock); what each sensor
reads right now comes from the device's live readings (MSG_DIAG). With `--watch N`
the link stays open N seconds and prints each sensor event as it happens, so
you can break each beam, hit each net zone and move the palheta and see it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import futmesa_wire as W
from futmesa.deploy.probe import ProbeError, ProbeResult, find_port, probe, serial_ports
from futmesa.hardware.boardfile import BoardFileError, load_board
from futmesa.link import DeviceInfo, HostLink, Status
from futmesa.link.events import entry_for

FAULT_ADVICE = {
    "stuck": "something has blocked this goal line longer than a goal lasts (4 s by "
             "default, `stuck_ms` in table.json): take the ball or "
             "goalkeeper out of the goal; if it stays, realign the beam (break-beam) or "
             "run `futmesa calibrate` (time-of-flight)",
    "no_answer": "the sensor stopped answering on I2C: check its VIN, GND, SDA, SCL and "
                 "XSHUT wires and connectors (docs/hardware.md, wiring drawing)",
    "out_of_range": "the sensor reads nothing across the goal: aim it at the opposite wall "
                    "and stick matte black tape there",
    "drift": "the empty-goal reading has moved: run `futmesa calibrate` again",
}
PALHETA = {0: "A", 1: "C", 2: "B"}
LIVE_S = 0.4  # how long doctor collects live readings (about 8 of them)


@dataclass
class Line:
    level: str  # "ok", "warn", "FAIL"
    text: str
    todo: str = ""

    def render(self) -> str:
        out = f"{self.level:<4} {self.text}"
        return out + (f"\n     → {self.todo}" if self.todo else "")


def resolve_port(port: str | None, serial: str | None) -> str:
    return port if port else find_port(serial)


def usb_description(port: str) -> str:
    for p in serial_ports():
        if p.device == port:
            return f"{p.description}, USB serial number {p.serial_number or 'none'}"
    return "not a USB device (a pty or a built-in UART)"


def expected_firmware() -> str:
    return ".".join(str(n) for n in W.FIRMWARE_VERSION)


def examine(result: ProbeResult, board_override: str | None = None) -> list[Line]:
    """The doctor's findings from one probe."""
    info = result.info
    lines = [Line("ok", f"board answers on {result.port} "
                        f"({usb_description(result.port)})"),
             Line("ok", f"table {info.table_id}, boot {info.boot_id}, events "
                        f"{info.oldest}–{info.newest} in the ring")]
    want = expected_firmware()
    if info.firmware == want:
        lines.append(Line("ok", f"firmware {info.firmware}"))
    else:
        lines.append(Line("FAIL", f"firmware {info.firmware}, this futmesa expects {want}",
                          f"update the board: futmesa flash --board {info.board} --port "
                          f"{result.port}"))
    lines.append(Line("ok" if info.proto == W.PROTO_VERSION else "FAIL",
                      f"protocol {info.proto} (host speaks {W.PROTO_VERSION})",
                      "" if info.proto == W.PROTO_VERSION else
                      f"update the board: futmesa flash --board {info.board} --port "
                      f"{result.port}"))
    board_name = board_override or info.board
    n_zones = 6
    try:
        board = load_board(board_name)
        n_zones = len(board.side_net)
        kinds = {g["type"] for g in board.goal_sensors}
        lines.append(Line("ok", f"board file {board.path.name}: goal sensors "
                                f"{'/'.join(sorted(kinds))}, {n_zones} side-net zones"))
    except BoardFileError as exc:
        lines.append(Line("FAIL", f"board file for {board_name!r}: {exc}",
                          "fix the board file, then flash again"))
    lines += sensor_lines(result.events, result.status, n_zones)
    lines += live_lines(result.diag)
    return lines


def live_lines(diag: list[tuple[int, ...]]) -> list[Line]:
    """What each sensor reads now, from the live readings (newest distance per line)."""
    if not diag:
        return [Line("warn", "no live readings from the board",
                     "update its firmware (futmesa flash) if it is older than "
                     f"{expected_firmware()}")]
    out = []
    last = diag[-1]
    for gid in (0, 1):
        mms = [d[gid] for d in diag if d[gid] != W.DIAG_NO_SAMPLE]
        if mms and mms[-1] >= 0:
            out.append(Line("ok", f"goal line {gid} now: {mms[-1]} mm "
                                  f"({'blocked' if last[2] >> gid & 1 else 'clear'})"))
        elif mms:
            out.append(Line("warn", f"goal line {gid} now: the sensor does not answer",
                            FAULT_ADVICE["no_answer"]))
        elif last[2] >> gid & 1:
            out.append(Line("warn", f"goal line {gid} now: beam blocked",
                            "take the ball out of the goal, or realign the beam"))
        else:
            out.append(Line("ok", f"goal line {gid} now: beam clear"))
    active = [z for z in range(8) if last[3] >> z & 1]
    pressed = [name for i, name in enumerate(("turnA", "turnB", "referee")) if last[5] >> i & 1]
    out.append(Line("ok", "now: side-net zones active: "
                    + (", ".join(map(str, active)) or "none")
                    + f"; palheta {PALHETA.get(last[4], 'both contacts closed')}; buttons "
                    + "pressed: " + (", ".join(pressed) or "none")))
    return out


def sensor_lines(events: list[tuple[int, int, tuple[int, int, int, int, int, int]]],
                 status: Status | None, n_zones: int) -> list[Line]:
    faults: dict[int, str | None] = {0: None, 1: None}
    goals = {0: 0, 1: 0}
    zones = dict.fromkeys(range(n_zones), 0)
    buttons: dict[str, int] = {}
    for _seq, _ticks, (kind, a, b, _period, _clock, value) in events:
        name, data = entry_for(kind, a, b, value)
        if name == "sensor_fault":
            faults[a] = str(data["fault"])
        elif name == "sensor_ok":
            faults[a] = None
        elif name == "goal_line" and a in goals:
            goals[a] += 1
        elif name == "ball_out":
            zones[a] = zones.get(a, 0) + 1
        elif name == "button":
            buttons[data["button"]] = buttons.get(data["button"], 0) + 1
    out = []
    for gid in (0, 1):
        fault = faults.get(gid)
        seen = f"{goals[gid]} goal(s) seen since boot"
        if fault:
            out.append(Line("FAIL", f"goal line {gid}: {fault} ({seen})",
                            FAULT_ADVICE.get(fault, "see docs/troubleshooting.md")))
        else:
            out.append(Line("ok", f"goal line {gid}: working ({seen})"))
    if faults.get(W.SENSOR_STORAGE):
        out.append(Line("FAIL", "board flash: does not take writes (the clock runs, but a reset "
                                "loses the match state)",
                        "the board's flash is full or damaged: flash it again with `futmesa "
                        "flash`; if that does not help, erase the board first (docs/install.md)"))
    silent = [z for z, n in sorted(zones.items()) if n == 0]
    counts = ", ".join(f"{z}:{n}" for z, n in sorted(zones.items()))
    if silent:
        out.append(Line("warn", f"side net: ball-outs per zone {counts}",
                        f"zones {', '.join(map(str, silent))} have not fired since boot: hit "
                        "each with a ball during `futmesa doctor --watch 30` to test them"))
    else:
        out.append(Line("ok", f"side net: ball-outs per zone {counts}"))
    if status is not None:
        out.append(Line("ok", f"palheta: {PALHETA.get(status.palheta, '?')}"))
        clock = "running" if status.running else "stopped"
        out.append(Line("ok", f"clock {clock}, period {status.period}, "
                              f"{status.clock_ms / 1000:.1f} s"))
    else:
        out.append(Line("warn", "no status message received",
                        "the board answered but sent no status: flash it again"))
    if buttons:
        out.append(Line("ok", "buttons pressed since boot: "
                        + ", ".join(f"{k} ×{v}" for k, v in sorted(buttons.items()))))
    return out


class _WatchSink:
    def __init__(self, echo: Callable[[str], None]) -> None:
        self.echo = echo
        self.count = 0
        self.ready = threading.Event()

    def on_device(self, info: DeviceInfo) -> tuple[int, int]:
        self.ready.set()
        return info.boot_id, info.newest  # only what happens from now on

    def on_event(self, info: DeviceInfo, boot_id: int, seq: int, ticks: int,
                 payload: tuple[int, int, int, int, int, int]) -> None:
        kind, a, b, _period, _clock, value = payload
        name, data = entry_for(kind, a, b, value)
        self.count += 1
        self.echo(f"live {name} {data}")

    def on_gap(self, info: DeviceInfo, boot_id: int, first_seq: int, last_seq: int) -> None:
        pass

    def on_status(self, info: DeviceInfo, status: Status, wall_ms: float) -> None:
        pass

    def on_connection(self, connected: bool, reason: str) -> None:
        pass


def watch(port: str, seconds: float, echo: Callable[[str], None] = print,
          ready: Callable[[], None] | None = None) -> int:
    """Print each event for `seconds`; returns how many were seen."""
    sink = _WatchSink(echo)
    link = HostLink(port, sink)
    link.start()
    try:
        if not sink.ready.wait(5):
            raise ProbeError(f"the board on {port} stopped answering")
        if ready:
            ready()
        time.sleep(seconds)
    finally:
        link.stop()
    return sink.count


def run_doctor(port: str | None = None, serial: str | None = None, timeout_s: float = 5.0,
               watch_s: float = 0.0, board: str | None = None,
               echo: Callable[[str], None] = print,
               ready: Callable[[], None] | None = None) -> int:
    """Print the findings; returns the number of FAIL lines (ProbeError if no board)."""
    port = resolve_port(port, serial)
    result = probe(port, timeout_s=timeout_s, replay=True, diag_s=LIVE_S)
    lines = examine(result, board)
    for line in lines:
        echo(line.render())
    if watch_s > 0:
        echo(f"watching {port} for {watch_s:g} s: break each goal beam, hit each net zone, "
             "move the palheta, press each button …")
        n = watch(port, watch_s, echo, ready)
        echo(f"{n} event(s) seen")
    return sum(1 for line in lines if line.level == "FAIL")


def run_sbc_doctor(table: Any, watch_s: float = 0.0, echo: Callable[[str], None] = print,
                   poll_ms: int = 2, clock: Callable[[], float] = time.monotonic,
                   sleep: Callable[[float], None] = time.sleep) -> int:
    """Linux SBC mode: start the inputs of an `SbcTable`, report faults, print live events.

    Returns the number of sensors that failed to start.
    """
    faults = table.start()
    board = table.board
    for g in board.goal_sensors:
        fault = next((f for f in faults if f["data"]["sensor"] == g["id"]), None)
        what = (f"VL53L0X at {g['address']}" if g["type"] == "vl53l0x"
                else f"break-beam on GPIO {g['beam_pin']}")
        if fault:
            echo(Line("FAIL", f"goal line {g['id']}: {what} did not start",
                      fault["data"]["detail"]).render())
        else:
            echo(Line("ok", f"goal line {g['id']}: {what}").render())
    echo(Line("ok", f"side net: {len(board.side_net)} zones, palheta, "
                    f"{len(board['buttons'])} buttons opened").render())
    if watch_s > 0:
        echo(f"watching for {watch_s:g} s: break each goal beam, hit each net zone, "
             "move the palheta, press each button …")
        end = clock() + watch_s
        while clock() < end:
            for ev in table.poll():
                echo(f"live {ev['kind']} {ev['data']}")
            sleep(poll_ms / 1000)
    return len(faults)
