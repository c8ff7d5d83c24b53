"""`futmesa doctor`: find the board, show its firmware and protocol, and each sensor's state.

Every line is `ok`, `warn` or `FAIL` (in Portuguese `ok`, `aviso`, `FALHA`: the lines are in
the process language); every `warn`/`FAIL` says what to do.
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
from futmesa.i18n import N_, _, ngettext
from futmesa.link import DeviceInfo, HostLink, LiveSink, Status
from futmesa.matchbook.entries import entry_for

# what to do about each sensor fault (msgids: translated where shown, with _())
FAULT_ADVICE = {
    "stuck": N_("something has blocked this goal line longer than a goal lasts (4 s by "
                "default, `stuck_ms` in table.json): take the ball or goalkeeper out of the "
                "goal; if it stays, realign the beam (break-beam) or run `futmesa calibrate` "
                "(time-of-flight)"),
    "no_answer": N_("the sensor stopped answering on I2C: check its VIN, GND, SDA, SCL and "
                    "XSHUT wires and connectors (docs/hardware.md, wiring drawing)"),
    "out_of_range": N_("the sensor reads nothing across the goal: aim it at the opposite wall "
                       "and stick matte black tape there"),
    "drift": N_("the empty-goal reading has moved: run `futmesa calibrate` again"),
}
LEVELS = {"ok": N_("ok"), "warn": N_("warn"), "FAIL": N_("FAIL")}  # a line's level, as shown
PALHETA = {0: "A", 1: "C", 2: "B"}
LIVE_S = 0.4  # how long doctor collects live readings (about 8 of them)


@dataclass
class Line:
    level: str  # "ok", "warn", "FAIL"
    text: str
    todo: str = ""

    def render(self) -> str:
        level = _(LEVELS.get(self.level, self.level))
        out = f"{level:<4} {self.text}"
        return out + (f"\n     → {self.todo}" if self.todo else "")


def resolve_port(port: str | None, serial: str | None) -> str:
    return port if port else find_port(serial)


def usb_description(port: str) -> str:
    for p in serial_ports():
        if p.device == port:
            return _("{description}, USB serial number {serial}").format(
                description=p.description, serial=p.serial_number or _("none"))
    return _("not a USB device (a pty or a built-in UART)")


def expected_firmware() -> str:
    return ".".join(str(n) for n in W.FIRMWARE_VERSION)


def examine(result: ProbeResult, board_override: str | None = None) -> list[Line]:
    """The doctor's findings from one probe."""
    info = result.info
    update = _("update the board: futmesa flash --board {board} --port {port}").format(
        board=info.board, port=result.port)
    lines = [Line("ok", _("board answers on {port} ({usb})").format(
                 port=result.port, usb=usb_description(result.port))),
             Line("ok", _("table {table}, boot {boot}, events {oldest}–{newest} in the ring")
                  .format(table=info.table_id, boot=info.boot_id, oldest=info.oldest,
                          newest=info.newest))]
    want = expected_firmware()
    if info.firmware == want:
        lines.append(Line("ok", _("firmware {version}").format(version=info.firmware)))
    else:
        lines.append(Line("FAIL", _("firmware {version}, this futmesa expects {want}").format(
            version=info.firmware, want=want), update))
    lines.append(Line("ok" if info.proto == W.PROTO_VERSION else "FAIL",
                      _("protocol {proto} (host speaks {host})").format(
                          proto=info.proto, host=W.PROTO_VERSION),
                      "" if info.proto == W.PROTO_VERSION else update))
    board_name = board_override or info.board
    n_zones = 6
    try:
        board = load_board(board_name)
        n_zones = len(board.side_net)
        kinds = {g["type"] for g in board.goal_sensors}
        lines.append(Line("ok", _("board file {name}: goal sensors {kinds}, {zones} side-net "
                                  "zones").format(name=board.path.name,
                                                  kinds="/".join(sorted(kinds)), zones=n_zones)))
    except BoardFileError as exc:
        lines.append(Line("FAIL", _("board file for {board}: {problem}").format(
            board=repr(board_name), problem=exc), _("fix the board file, then flash again")))
    lines += sensor_lines(result.events, result.status, n_zones)
    lines += live_lines(result.diag)
    return lines


def live_lines(diag: list[tuple[int, ...]]) -> list[Line]:
    """What each sensor reads now, from the live readings (newest distance per line)."""
    if not diag:
        return [Line("warn", _("no live readings from the board"),
                     _("update its firmware (futmesa flash) if it is older than {version}")
                     .format(version=expected_firmware()))]
    out = []
    last = diag[-1]
    for gid in (0, 1):
        mms = [d[gid] for d in diag if d[gid] != W.DIAG_NO_SAMPLE]
        if mms and mms[-1] >= 0:
            state = _("blocked") if last[2] >> gid & 1 else _("clear")
            out.append(Line("ok", _("goal line {id} now: {mm} mm ({state})").format(
                id=gid, mm=mms[-1], state=state)))
        elif mms:
            out.append(Line("warn", _("goal line {id} now: the sensor does not answer").format(
                id=gid), _(FAULT_ADVICE["no_answer"])))
        elif last[2] >> gid & 1:
            out.append(Line("warn", _("goal line {id} now: beam blocked").format(id=gid),
                            _("take the ball out of the goal, or realign the beam")))
        else:
            out.append(Line("ok", _("goal line {id} now: beam clear").format(id=gid)))
    active = [z for z in range(8) if last[3] >> z & 1]
    pressed = [name for i, name in enumerate(("turnA", "turnB", "referee")) if last[5] >> i & 1]
    out.append(Line("ok", _("now: side-net zones active: {zones}; palheta {palheta}; buttons "
                            "pressed: {buttons}").format(
                                zones=", ".join(map(str, active)) or _("none"),
                                palheta=PALHETA.get(last[4], _("both contacts closed")),
                                buttons=", ".join(pressed) or _("none"))))
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
        seen = _("{n} goal(s) seen since boot").format(n=goals[gid])
        if fault:
            advice = FAULT_ADVICE.get(fault)
            out.append(Line("FAIL", _("goal line {id}: {fault} ({seen})").format(
                id=gid, fault=fault, seen=seen),
                _(advice) if advice else _("see docs/troubleshooting.md")))
        else:
            out.append(Line("ok", _("goal line {id}: working ({seen})").format(id=gid, seen=seen)))
    if faults.get(W.SENSOR_STORAGE):
        out.append(Line("FAIL", _("board flash: does not take writes (the clock runs, but a "
                                  "reset loses the match state)"),
                        _("the board's flash is full or damaged: flash it again with `futmesa "
                          "flash`; if that does not help, erase the board first "
                          "(docs/install.md)")))
    silent = [z for z, n in sorted(zones.items()) if n == 0]
    counts = ", ".join(f"{z}:{n}" for z, n in sorted(zones.items()))
    if silent:
        out.append(Line("warn", _("side net: ball-outs per zone {counts}").format(counts=counts),
                        _("zones {zones} have not fired since boot: hit each with a ball during "
                          "`futmesa doctor --watch 30` to test them").format(
                              zones=", ".join(map(str, silent)))))
    else:
        out.append(Line("ok", _("side net: ball-outs per zone {counts}").format(counts=counts)))
    if status is not None:
        out.append(Line("ok", _("palheta: {position}").format(
            position=PALHETA.get(status.palheta, "?"))))
        clock = _("running") if status.running else _("stopped")
        out.append(Line("ok", _("clock {state}, period {period}, {seconds} s").format(
            state=clock, period=status.period, seconds=f"{status.clock_ms / 1000:.1f}")))
    else:
        out.append(Line("warn", _("no status message received"),
                        _("the board answered but sent no status: flash it again")))
    if buttons:
        out.append(Line("ok", _("buttons pressed since boot: {buttons}").format(
            buttons=", ".join(f"{k} ×{v}" for k, v in sorted(buttons.items())))))
    return out


class _WatchSink(LiveSink):
    """The link's live sink (futmesa.link.LiveSink): says each event as it happens."""

    def __init__(self, echo: Callable[[str], None]) -> None:
        self.echo = echo
        self.count = 0
        self.faults = 0  # sensor faults seen while watching: they count as problems
        self.ready = threading.Event()

    def on_device(self, info: DeviceInfo) -> tuple[int, int]:
        self.ready.set()
        return info.boot_id, info.newest  # only what happens from now on

    def on_event(self, info: DeviceInfo, boot_id: int, seq: int, ticks: int,
                 payload: tuple[int, int, int, int, int, int]) -> None:
        kind, a, b, _period, _clock, value = payload
        name, data = entry_for(kind, a, b, value)
        self.count += 1
        self.echo(_("live {name} {data}").format(name=name, data=data))
        if kind == W.EV_SENSOR_FAULT:
            self.faults += 1
            self.echo(fault_line(data).render())


def fault_line(data: dict[str, Any]) -> Line:
    return Line("FAIL", _("sensor {sensor} reported a fault while watching: {fault}").format(
                    sensor=data.get("sensor"), fault=data.get("fault")),
                _("check its wiring and power, then run `futmesa doctor --watch 30` again"))


def watch(port: str, seconds: float, echo: Callable[[str], None] = print,
          ready: Callable[[], None] | None = None,
          faults: list[int] | None = None) -> int:
    """Print each event for `seconds`; returns how many were seen (faults appended to
    `faults` as a count, when given)."""
    sink = _WatchSink(echo)
    link = HostLink(port, sink)
    link.start()
    try:
        if not sink.ready.wait(5):
            raise ProbeError(_("the board on {port} stopped answering").format(port=port))
        if ready:
            ready()
        time.sleep(seconds)
    finally:
        link.stop()
    if faults is not None:
        faults.append(sink.faults)
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
        echo(_("watching {port} for {seconds} s: break each goal beam, hit each net zone, move "
               "the palheta, press each button …").format(port=port, seconds=f"{watch_s:g}"))
        faults: list[int] = []
        n = watch(port, watch_s, echo, ready, faults)
        echo(ngettext("{n} event seen", "{n} events seen", n).format(n=n))
        return sum(1 for line in lines if line.level == "FAIL") + sum(faults)
    return sum(1 for line in lines if line.level == "FAIL")
