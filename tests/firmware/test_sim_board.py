"""The simulated board end to end: the real firmware under `micropython`, a real pty (socat),
its stdin control lines, and a minimal host written with futmesa_wire. A reset mid-period (the
process killed and started again on the same flash folder) resumes the clock from flash; the
control lines the demo and the other suites use give one event per occurrence through the
filters, in the break-beam and the ToF build."""

from __future__ import annotations

import struct
import time

import pytest
import serial
from devhost import ack_frame, hello_frame

import futmesa_wire as W
from futmesa.sim.table import SimTable

SPEED = 60


class MiniHost:
    def __init__(self, port: str) -> None:
        self.ser = serial.Serial(port, 115200, timeout=0)
        self.deframer = W.Deframer()
        self.boot = 0
        self.cmd_seq = 0
        self.statuses: list[tuple[int, int, int, int]] = []  # (period, flags, clock_ms, ticks)
        self.status_at = 0.0  # when the last status arrived (host monotonic s)
        self.events: list[tuple[int, int, int, int]] = []  # (kind, a, period, value)
        self.seen: set[tuple[int, int]] = set()

    def hello(self) -> None:
        """Say HELLO until the device answers (it may still be booting)."""
        end = time.monotonic() + 20
        while not self.boot and time.monotonic() < end:
            self.ser.write(hello_frame())
            self.pump(0.2)

    def pump(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            data = self.ser.read(4096)
            if not data:
                time.sleep(0.005)
                continue
            for block in self.deframer.feed(data):
                try:
                    f = W.decode_frame(block)
                except W.FrameError:
                    continue
                if f.msg_type == W.MSG_HELLO_ACK and f.seq == 1:  # seq 0: the boot announcement
                    self.boot = f.boot_id
                elif f.msg_type == W.MSG_STATUS:
                    period, flags, _, _, clock_ms = struct.unpack_from("<BBBBi", f.payload)
                    self.statuses.append((period, flags, clock_ms, f.ticks))
                    self.status_at = time.monotonic()
                elif f.msg_type == W.MSG_EVENT:
                    kind, a, _, period, _, value = struct.unpack(W.EVENT_FMT, f.payload)
                    if (f.boot_id, f.seq) not in self.seen:  # a resent frame counts once
                        self.seen.add((f.boot_id, f.seq))
                        self.events.append((kind, a, period, value))
                    self.ser.write(ack_frame(f.boot_id, f.seq))

    def pump_until(self, cond, what: str, timeout: float = 120.0) -> None:
        """Read frames until ``cond()`` holds (a busy host only makes it take longer)."""
        end = time.monotonic() + timeout
        while not cond():
            if time.monotonic() > end:
                raise AssertionError(f"timed out after {timeout} s waiting for {what}")
            self.pump(0.02)

    def pump_device_ms(self, ms: int) -> None:
        """Read frames until the device's own clock has gone ``ms`` further (its statuses
        carry its ticks): a wait in device time, not in the host's wall time."""
        self.pump_until(lambda: bool(self.statuses), "a status from the device")
        start = self.statuses[-1][3]
        def gone() -> int:  # ticks travel mod 2**32 on the wire
            d = (self.statuses[-1][3] - start) % (1 << 32)
            return d if d < (1 << 31) else d - (1 << 32)

        self.pump_until(lambda: gone() >= ms, f"{ms} ms of device time")

    def send(self, msg: int, payload: bytes) -> None:
        self.cmd_seq += 1
        self.ser.write(W.encode_frame(msg, self.boot, self.cmd_seq, 0, payload))

    def close(self) -> None:
        self.ser.close()


@pytest.mark.timeout(60)
def test_sim_reset_mid_period_resumes_the_running_clock(tmp_path):
    profile = struct.pack(W.PROFILE_FMT, 2, 0, W.CLOCK_CONTINUOUS, W.END_AT_ALARM, 20 * 60000,
                          60000, 0, 15000, 0, 0)
    with SimTable(speed=SPEED, workdir=tmp_path) as sim:
        host = MiniHost(sim.host_port)
        host.hello()
        assert host.boot, "no HELLO_ACK:\n" + sim.output_tail()
        host.send(W.MSG_PROFILE, profile)
        host.pump(0.2)
        host.send(W.MSG_CMD, struct.pack(W.CMD_FMT, W.CMD_START, 0, 0, 0, 0, 0))
        host.pump(2.0)
        period, flags, before, _ = host.statuses[-1]
        assert period == 1 and flags & W.ST_RUNNING, host.statuses[-3:]
        assert before > 20_000, f"the clock ran ({before} ms)"
        first_boot = host.boot
        seen_at = host.status_at
        host.close()
        killed_at = time.monotonic()
        sim.reset()
        host = MiniHost(sim.host_port)
        host.hello()
        host.pump(1.0)
        assert host.boot and host.boot != first_boot, "a new boot"
        restored = [e for e in host.events if e[0] == W.EV_CLOCK_STARTED and e[1] == 3]
        assert restored, f"no clock_started(restored) event: {host.events}"
        assert restored[0][2] == 1, "period 1"
        # resumed from a checkpoint (one per device second) taken between the last status
        # seen and the kill; the reset itself is not counted
        most = before + int((killed_at - seen_at + 0.2) * SPEED * 1000)
        assert before - 1000 <= restored[0][3] <= most, (before, most, restored)
        period, flags, after, _ = host.statuses[-1]
        assert period == 1 and flags & W.ST_RUNNING, "still running after the reset"
        assert after > restored[0][3], "and counting"
        host.close()


def _kinds(host: MiniHost, kind: int) -> list[tuple[int, int, int, int]]:
    return [e for e in host.events if e[0] == kind]


@pytest.mark.timeout(600)
@pytest.mark.parametrize("goal_sensor", ["beam", "tof"])
def test_sim_control_lines_through_the_filters(tmp_path, goal_sensor):
    """Every wait is on a condition or on the device's own clock, never on wall time."""
    with SimTable(speed=SPEED, workdir=tmp_path, goal_sensor=goal_sensor) as sim:
        host = MiniHost(sim.host_port)
        host.hello()
        assert host.boot, "no HELLO_ACK:\n" + sim.output_tail()
        host.pump_device_ms(30_000)  # the ToF baseline settles; the lines are seen clear
        sim.goal(1)
        host.pump_until(lambda: len(_kinds(host, W.EV_GOAL_LINE)) == 1, "the first goal")
        host.pump_device_ms(30_000)  # past the refractory period (1.5 s) and the re-arm
        sim.goal(0)
        sim.ball_out(3)
        sim.palheta("B")
        sim.button("referee")
        host.pump_until(lambda: len(_kinds(host, W.EV_GOAL_LINE)) >= 2
                        and _kinds(host, W.EV_BALL_OUT) and _kinds(host, W.EV_PALHETA)
                        and _kinds(host, W.EV_BUTTON), "the goal, ball out, palheta, button")
        host.pump_device_ms(30_000)  # anything extra (a second goal...) would show by now
        goals = _kinds(host, W.EV_GOAL_LINE)
        assert [g[1] for g in goals] == [1, 0], (goals, sim.output_tail())
        outs = _kinds(host, W.EV_BALL_OUT)
        # hardware/boards/sim.json: zone 3 is the end line of end 1
        assert [(o[1], o[3]) for o in outs] == [(3, 1)], outs
        assert [p[1] for p in _kinds(host, W.EV_PALHETA)] == [2]
        assert [b[1] for b in _kinds(host, W.EV_BUTTON)] == [2]
        assert not _kinds(host, W.EV_SENSOR_FAULT), host.events
        if goal_sensor == "tof":
            sim.send("i2c 0 dead")
            host.pump_until(lambda: _kinds(host, W.EV_SENSOR_FAULT), "the sensor fault")
            faults = _kinds(host, W.EV_SENSOR_FAULT)
            assert [(f[1], f[3]) for f in faults] == [(0, 0)], faults
            sim.send("i2c 0 ok")
            host.pump_until(lambda: _kinds(host, W.EV_SENSOR_OK), "the sensor back")
            assert [e[1] for e in _kinds(host, W.EV_SENSOR_OK)] == [0]
        host.close()
