"""The real-board layer (pico, esp32 on boards.MachineBoard) on a stand-in `machine`, and the sim
board's board file and tick wrap."""

import json
import time

import micropython

import futmesa_wire as W
from app import App
from boards.esp32 import Esp32Board
from boards.pico import PicoBoard
from boards.sim import SimBoard
from boards import NO_SAMPLE
from fakei2c import FakeVL53L0X
from fakemachine import FakeMachineModule
from fwtest import check, eq, fresh_dir, profile, wipe
from nvstore import NvStore

HW = "../../hardware/boards/"  # the tests run in tests/firmware


def board_cfg(name, **change):
    with open(HW + name + ".json") as f:
        cfg = json.load(f)
    cfg.update(change)
    return cfg


def write_cfg(cfg, state):
    path = state + "-board.json"
    with open(path, "w") as f:
        json.dump(cfg, f)
    return path


def events(app, since):
    out = []
    link = app.link
    for seq in range(since, link.next_seq):
        off = (seq % link.size) * W.EVENT_FRAME_SIZE + W.HEADER_SIZE
        out.append((W.EVENT_NAMES[link.ring[off]], link.ring[off + 1], link.ring[off + 2]))
    return out


def run(app, n):
    for _ in range(n):
        app.step()
        time.sleep_ms(1)


def test_pico_beam_build_pins_from_the_board_file():
    state = fresh_dir()
    cfg = board_cfg("pico", data_channel={"type": "uart", "uart_id": 0, "tx": 0, "rx": 1})
    for g in cfg["goal_sensors"]:
        g["type"] = "beam"
    m = FakeMachineModule()
    board = PicoBoard({"board_file": write_cfg(cfg, state), "state": state}, m)
    eq(board.goal_kinds(), ("beam", "beam"), "beam build")
    eq(m.wdts[0].timeout, 4000, "watchdog armed")
    check(m.pins[8].pull == m.Pin.PULL_UP, "inputs pulled up as the file says")
    app = App(board, NvStore(state), 64)
    app.set_profile(profile(period_ms=50))
    run(app, 40)
    first = app.link.next_seq
    # zone 0 (pin 8) is active low: the end line of end 0
    m.pins[8].level(0)
    run(app, 2)
    m.pins[8].level(1)
    # a beam broken and restored between two passes is still seen (IRQ latch)
    m.pins[2].level(1)
    m.pins[2].level(0)
    app.step()
    eq(board.read_beam(0), 0, "latch consumed by the pass")
    # palheta towards B: pin_b (15) closed to ground
    m.pins[15].level(0)
    run(app, 40)
    got = events(app, first)
    check(("ball_out", 0, 1) in got, "zone 0 from pin 8: %r" % got)
    check(("palheta", 2, 0) in got, "palheta B from pin 15: %r" % got)
    feeds = m.wdts[0].feeds
    app.command(W.CMD_START, 0, 0, 0, 0, 0)
    run(app, 80)
    check(m.wdts[0].feeds >= feeds + 80, "fed once per pass")
    check(m.pwms[0].duty > 0 and m.pwms[0].f == 2700, "alarm on the PWM pin at the file's freq")
    eq(m.pins[16] is m.pwms[0].pin, True, "buzzer pin 16")
    eq(board.unique_id(), m.unique_id(), "8-byte unique id")
    # the real-board reads allocate nothing either (no host connected: nothing written)
    micropython.heap_lock()
    try:
        for _ in range(300):
            app.step()
    finally:
        micropython.heap_unlock()
    app.clock.slot.close()
    wipe(state)


class _NoReadStream:
    """A USB stdin that nobody must read while it has nothing: on a real board that blocks."""

    def __init__(self):
        self.reads = 0

    def readinto(self, buf, n=-1):
        self.reads += 1
        buf[0] = 0x42
        return 1


def test_usb_channel_reads_only_when_a_byte_is_waiting():
    # issue 10: the Pico answered two HELLOs and then its loop stopped (watchdog 4 s later):
    # `if not poll.ipoll(0)` is never true (ipoll returns the poll object), so every pass
    # blocked in stdin.readinto until the host sent another byte
    import select
    import sys

    state = fresh_dir()
    cfg = board_cfg("pico")  # data channel: the USB CDC (sys.stdin / sys.stdout)
    for g in cfg["goal_sensors"]:
        g["type"] = "beam"
    m = FakeMachineModule()
    board = PicoBoard({"board_file": write_cfg(cfg, state), "state": state}, m)
    stream = _NoReadStream()
    board._in = stream
    board._poll = select.poll()  # nothing registered: nothing is ever ready
    buf = bytearray(4)
    eq(board.port_readinto(buf), 0, "nothing waiting")  # (the first ipoll makes its tuple)
    micropython.heap_lock()
    try:
        n = board.port_readinto(buf)
    finally:
        micropython.heap_unlock()
    eq(n, 0, "nothing waiting: nothing read")
    eq(stream.reads, 0, "stdin not read while empty (a blocking read stops the loop)")
    board._poll.register(sys.stdin, select.POLLIN)  # the test's stdin is /dev/null: readable
    eq(board.port_readinto(buf), 1, "a waiting byte is read")
    eq(stream.reads, 1, "read once")
    micropython.kbd_intr(3)
    wipe(state)


def test_esp32_tof_build_assigns_addresses_and_reads_without_blocking():
    state = fresh_dir()
    cfg = board_cfg("esp32", data_channel={"type": "uart", "uart_id": 1, "tx": 1, "rx": 3})
    devs = [FakeVL53L0X(distance_mm=150, powered=False), FakeVL53L0X(distance_mm=150,
                                                                     powered=False)]
    m = FakeMachineModule(wiring={25: devs[0], 26: devs[1]})
    m.uid = b"\x24\x0a\xc4\x01\x02\x03"  # an ESP32 base MAC (6 bytes)
    for d in devs:
        m.bus.add(d)
    board = Esp32Board({"board_file": write_cfg(cfg, state), "state": state}, m)
    eq(board.goal_kinds(), ("tof", "tof"), "ToF build")
    eq(m.pins[34].pull, None, "GPIO 34 has an external pull-up: no internal pull asked")
    eq(m.pins[13].pull, m.Pin.PULL_UP, "the other inputs pulled up")
    eq(m.bus.scan(), [0x30, 0x31], "addresses from the board file")
    eq(board.goal_params(0), (100, 8), "threshold and hysteresis from the file")
    reads = [board.read_tof(1) for _ in range(6)]
    check(150 in reads and NO_SAMPLE in reads, "non-blocking reads: %r" % reads)
    devs[0].dead = True
    eq(board.read_tof(0), -1, "no answer")
    eq(board.unique_id(), m.uid + b"\x00\x00", "6-byte MAC padded to 8")
    wipe(state)


def test_sim_board_uses_the_sim_board_file_and_wraps_ticks():
    with open(HW + "sim.json") as f:
        cfg = json.load(f)
    state = fresh_dir()
    # 2 s of device time before the wrap, at 10x: 200 ms of real time to set up
    sim = SimBoard({"state": state, "tick_start": "-2000", "speed": "10"})
    want = tuple((1 if z["line"] == "end" else 0, z["end"]) for z in cfg["side_net"])
    eq(sim.net_zones(), want, "zones from hardware/boards/sim.json")
    app = App(sim, NvStore(state), 64)
    app.set_profile(profile(period_ms=4000))
    start = sim.ticks_ms()
    check(time.ticks_diff(time.ticks_add(0, -1), start) < 2000, "starts before the wrap")
    app.command(W.CMD_START, 0, 0, 0, 0, 0)
    while app.clock.running:
        app.step()
    check(sim.ticks_ms() < start, "the sim's ticks wrapped during the period")
    eq(app.clock.base_ms, 4000, "the period ended exactly at its length")
    app.clock.slot.close()
    wipe(state)
