"""The ToF build of the real-board layer (boards.MachineBoard) on the register-level fake bus
(host/futmesa/hardware/fakei2c.py): goal-line distances come through Adafruit's unmodified
driver (adafruit_vl53l0x, run by hardware/micropython/futmesa_tof.py), never from a blocking
read, and the steady-state reads allocate nothing."""

import json
import time

import micropython

import adafruit_vl53l0x
import futmesa_wire as W
from app import App
from boards import NO_ANSWER, NO_SAMPLE
from boards.pico import PicoBoard
from fakei2c import FakeI2C, FakeVL53L0X
from fakemachine import FakeMachineModule
from fwtest import check, eq, fresh_dir, profile, wipe
from nvstore import NvStore

HW = "../../hardware/boards/"  # the tests run in tests/firmware


class LoggingPico(PicoBoard):
    def log(self, text):
        self.logs.append(text)


def rig(budget_us=None, faulty=False, distances=(140, 60)):
    """A pico ToF build on a fake machine whose XSHUT pins power two fake VL53L0X."""
    with open(HW + "pico.json") as f:
        cfg = json.load(f)
    cfg["data_channel"] = {"type": "uart", "uart_id": 0, "tx": 0, "rx": 1}
    if budget_us:
        cfg["tof"]["timing_budget_us"] = budget_us
    cfg["tof"]["io_timeout_ms"] = 100
    state = fresh_dir()
    path = state + "-board.json"
    with open(path, "w") as f:
        json.dump(cfg, f)
    devs = [FakeVL53L0X(distance_mm=d, powered=False) for d in distances]
    devs[0].spad_never_ready = faulty
    m = FakeMachineModule(wiring={int(g["xshut"]): devs[int(g["id"])]
                                  for g in cfg["goal_sensors"]})
    for d in devs:
        m.bus.add(d)
    LoggingPico.logs = []
    board = LoggingPico({"board_file": path, "state": state, "goal_sensor": "tof"}, m)
    return board, devs, m, state


def next_reading(board, i, limit=50):
    for _ in range(limit):
        v = board.read_tof(i)
        if v != NO_SAMPLE:
            return v
    raise AssertionError("no reading from goal %d in %d polls" % (i, limit))


def run_for(app, ms):
    """Loop passes for `ms` of real time: MachineBoard's ticks are the port's ticks_ms."""
    start = time.ticks_ms()
    while time.ticks_diff(time.ticks_ms(), start) < ms:
        app.step()


class QuietI2C:
    """A machine.I2C stand-in that allocates nothing: register 0x13 reads `status`, the range
    registers 0x1E/0x1F read `mm` (the fake bus itself allocates, so it cannot show the
    driver's own allocations)."""

    def __init__(self, mm):
        self.reg = 0
        self.status = 0
        self.mm = mm

    def writeto(self, addr, buf, stop=True):
        self.reg = buf[0]
        return len(buf)

    def readfrom_into(self, addr, buf, stop=True):
        for i in range(len(buf)):
            r = self.reg + i
            if r == 0x13:
                buf[i] = self.status
            elif r == 0x1E:
                buf[i] = self.mm >> 8
            elif r == 0x1F:
                buf[i] = self.mm & 0xFF
            else:
                buf[i] = 0


def test_board_layer_reads_distances_through_adafruits_driver():
    board, devs, m, state = rig()
    eq(board.goal_kinds(), ("tof", "tof"), "ToF build")
    eq(m.bus.scan(), [0x30, 0x31], "addresses from the board file, set through XSHUT")
    for i in (0, 1):
        check(isinstance(board._tof[i].sensor, adafruit_vl53l0x.VL53L0X),
              "goal %d is read by Adafruit's driver: %r" % (i, board._tof[i]))
    eq(next_reading(board, 0), 140, "goal 0 distance")
    eq(next_reading(board, 1), 60, "goal 1 distance")
    devs[1].distance_mm = 33
    vals = [board.read_tof(1) for _ in range(12)]
    check(33 in vals and NO_SAMPLE in vals, "new distance, and no sample between: %r" % vals)
    check(devs[0].continuous and devs[1].continuous, "continuous ranging")
    devs[1].dead = True
    eq(board.read_tof(1), NO_ANSWER, "a sensor that stops answering")
    wipe(state)


def test_reads_never_wait_for_a_measurement():
    # a measurement that never completes: Adafruit's `range` would wait io_timeout for it;
    # the board layer asks `data_ready` and goes on
    board, devs, m, state = rig()
    eq(next_reading(board, 0), 140, "running")
    devs[0].never_ready = True
    before = devs[0].measurements
    vals = [board.read_tof(0) for _ in range(200)]
    eq(vals, [NO_SAMPLE] * 200, "no sample, no wait, no timeout")
    eq(devs[0].measurements, before, "nothing measured meanwhile")
    devs[0].never_ready = False
    eq(next_reading(board, 0), 140, "readings resume")
    wipe(state)


def test_sensor_that_fails_to_start_is_skipped_logged_and_reports_no_answer():
    board, devs, m, state = rig(faulty=True)
    check(board._tof[0] is None, "the faulty one is not started")
    check(board._tof[1] is not None, "the other still starts")
    check(len(board.logs) == 1 and "0" in board.logs[0], "logged: %r" % board.logs)
    eq(m.bus.scan(), [0x31], "the faulty one is switched off again (not left on 0x29)")
    eq(board.read_tof(0), NO_ANSWER, "a missing sensor reads as no answer")
    eq(next_reading(board, 1), 60, "goal 1 still reads")
    wipe(state)


def test_timing_budget_comes_from_the_board_file():
    # the final-range timeout registers (0x71/0x72) the board layer leaves on the sensor are
    # the ones Adafruit's driver writes for the board file's budget, and differ per budget
    seen = []
    for budget in (20000, 50000):
        board, devs, m, state = rig(budget_us=budget)
        bus = FakeI2C()
        ref_dev = bus.add(FakeVL53L0X(distance_mm=150))
        ref = adafruit_vl53l0x.VL53L0X(bus)
        ref.measurement_timing_budget = budget
        want = (ref_dev.regs[0][0x71], ref_dev.regs[0][0x72])
        for d in devs:
            eq((d.regs[0][0x71], d.regs[0][0x72]), want, "budget %d registers" % budget)
        eq(board._tof[0].sensor.measurement_timing_budget, ref.measurement_timing_budget,
           "budget read back")
        seen.append(want)
        wipe(state)
    check(seen[0] != seen[1], "different budgets, different registers: %r" % seen)


def test_tof_goal_is_one_goal_line_event():
    board, devs, m, state = rig(distances=(150, 150))
    app = App(board, NvStore(state), 64)
    app.set_profile(profile(period_ms=60000))
    app.command(W.CMD_START, 0, 0, 0, 0, 0)
    run_for(app, 100)  # the empty-goal baseline settles
    first = app.link.next_seq
    devs[0].distance_mm = 40  # the ball past goal line 0 ...
    run_for(app, 100)  # ... longer than the minimum blocked time (real ticks on this board)
    devs[0].distance_mm = 150
    run_for(app, 100)
    got = []
    link = app.link
    for seq in range(first, link.next_seq):
        off = (seq % link.size) * W.EVENT_FRAME_SIZE + W.HEADER_SIZE
        got.append((W.EVENT_NAMES[link.ring[off]], link.ring[off + 1]))
    eq([e for e in got if e[0] in ("goal_line", "sensor_fault")], [("goal_line", 0)],
       "one goal on line 0, no fault: %r" % got)
    app.clock.slot.close()
    wipe(state)


def test_steady_state_reads_allocate_nothing():
    # start on the fake bus, then swap in a bus that allocates nothing itself: what is left
    # is Adafruit's driver, the busio adapter and the board layer
    board, devs, m, state = rig()
    quiet = QuietI2C(87)
    for i in (0, 1):
        board._tof[i].sensor._device.i2c._i2c = quiet
    for status in (0, 4):  # warm up: each start/end view is made once
        quiet.status = status
        for i in (0, 1):
            board.read_tof(i)
    bad = [0, 0]
    micropython.heap_lock()
    try:
        quiet.status = 0  # nothing measured yet: the data_ready poll of every loop pass
        for i in range(500):
            if board.read_tof(i & 1) != NO_SAMPLE:
                bad[0] += 1
        quiet.status = 4  # a measurement each time: data_ready, range, interrupt clear
        for i in range(500):
            if board.read_tof(i & 1) != 87:
                bad[1] += 1
    finally:
        micropython.heap_unlock()
    eq(bad, [0, 0], "polls / readings with a wrong value")
    wipe(state)


def test_the_drivers_clock_stays_a_small_int_however_long_the_uptime():
    # futmesa_tof's ms count for the driver's timeouts restarts at every read, so after
    # 2**30 ms of uptime it is not a long int on a 32-bit board (one allocation per read)
    import futmesa_tof

    class Ready:
        data_ready = True
        range = 123

    futmesa_tof._mono[1] = 1 << 40  # as if the board had run for 35 years
    eq(futmesa_tof.GoalTof(Ready()).read(), 123, "a reading")
    check(0 <= futmesa_tof._mono[1] < 1000, "the count restarted: %d" % futmesa_tof._mono[1])
    check(0 <= futmesa_tof._Clock.monotonic() < 1000, "what the driver sees")
