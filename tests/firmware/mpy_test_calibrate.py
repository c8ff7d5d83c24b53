"""Calibration and re-flashing support in the firmware: the DIAG stream (CMD_DIAG), goal-line
thresholds set by the host (CMD_SET_THRESHOLD, kept in table.json) and CMD_REPL."""

import json
import struct

import micropython

import futmesa_wire as W
from app import App
from boards.pico import PicoBoard
from fakemachine import FakeMachineModule
from fwtest import Table, check, eq, fresh_dir, only, wipe
from nvstore import NvStore

HW = "../../hardware/boards/"


def frames(data):
    """Decode the captured bytes into Frames (allocates: outside the heap lock)."""
    out = []
    for block in data.split(b"\x00"):
        if block:
            out.append(W.decode_frame(block))
    return out


def diags(data):
    return [struct.unpack(W.DIAG_FMT, f.payload) for f in frames(data) if f.msg_type == W.MSG_DIAG]


def cmd_frame(seq, code, a=0, x=0, y=0, boot=0):
    return W.encode_frame(W.MSG_CMD, boot, seq, 0, struct.pack(W.CMD_FMT, code, a, 0, 0, x, y))


def test_diag_stream_carries_raw_readings_and_allocates_nothing():
    t = Table(goal_sensor="mixed", capture=True)
    b = t.board
    app = t.app
    # asked for before any host is connected: nothing goes out
    eq(app.command(W.CMD_DIAG, 1, 0, 0, 0, 0), W.ACK_OK, "diag on")
    t.run(200)
    eq(diags(b.take_tx()), [], "no DIAG without a host")
    t.hello()
    t.step()
    app.link.diag = False  # the HELLO ended any earlier session's stream
    t.board.feed(cmd_frame(1, W.CMD_DIAG, 1, boot=app.boot_id))
    t.step()
    check(app.link.diag, "CMD_DIAG a=1 over the link turns the stream on")
    b.take_tx()
    got = []
    i = 0
    while i < 3000:
        t.ack_all()
        b.t += 1
        b.scenario(i)
        app.step()  # receives the ack: allocates in the link, not counted
        i += 1
        micropython.heap_lock()
        try:
            for _ in range(100):
                b.t += 1
                b.scenario(i)
                app.step()
                i += 1
        finally:
            micropython.heap_unlock()
        got += diags(b.take_tx())
    # one DIAG every 50 ms
    check(55 <= len(got) <= 62, "%d DIAG frames in 3 s" % len(got))
    tof0 = set(d[0] for d in got)
    eq(tof0, {W.DIAG_NO_SAMPLE}, "goal line 0 is a beam: no distance")
    tof1 = set(d[1] for d in got)
    check(tof1 <= set(range(118, 123)) | set(range(30, 35)), "ToF samples: %r" % tof1)
    check({0, 1} <= set(d[4] for d in got), "palheta raw positions")
    check(any(d[5] for d in got), "a button seen pressed")
    # every reading as it is now: beam 0 blocked, ball at 33 mm on line 1, zone 2, button 1
    b.beams[0] = 1
    b.tof_mm[1] = 33
    b.nets[2] = 1
    b.palheta = 2
    b.buttons[1] = 1
    t.ack_all()
    t.run(120)
    last = diags(b.take_tx())[-1]
    eq(last, (W.DIAG_NO_SAMPLE, 33, 0b11, 0b100, 2, 0b10), "raw readings")
    b.beams[0] = 0
    b.nets[2] = 0
    b.buttons[1] = 0
    # off again: no more DIAG
    t.board.feed(cmd_frame(2, W.CMD_DIAG, 0, boot=app.boot_id))
    t.ack_all()
    t.run(200)
    b.take_tx()
    t.ack_all()
    t.run(200)
    eq(diags(b.take_tx()), [], "CMD_DIAG a=0 stops the stream")
    t.close()


def test_diag_reports_a_dead_sensor_and_new_samples_only():
    t = Table(goal_sensor="tof", capture=True)
    b = t.board
    t.hello()
    t.step()
    t.app.command(W.CMD_DIAG, 1, 0, 0, 0, 0)
    b.tof_dead[0] = 1
    t.run(200)
    got = diags(b.take_tx())
    check(got, "DIAG frames")
    # -1 at each retry of the dead sensor (every 250 ms), -2 (no new sample) in between
    eq(set(d[0] for d in got), {W.DIAG_NO_ANSWER, W.DIAG_NO_SAMPLE}, "dead sensor 0")
    eq(set(d[1] for d in got), {120}, "sensor 1")
    # a sample is reported once: after a DIAG, nothing new until the next read
    t.app.inputs.goals[1].raw_mm = W.DIAG_NO_SAMPLE
    t.app.link.send_diag(b.t)
    eq(diags(b.take_tx())[0][1], W.DIAG_NO_SAMPLE, "no new sample")
    t.close()


def goal_for(t, mm, ms=100):
    """Hold goal line 0 at mm for ms, then empty again; the goal_line events it made."""
    t.events()
    t.board.tof_mm[0] = mm
    t.run(ms)
    t.board.tof_mm[0] = 120
    t.run(2000)  # past the refractory time
    return only(t.events(), "goal_line")


def test_threshold_applies_at_once_and_survives_a_reset():
    t = Table(goal_sensor="tof", table={"refractory_ms": 1200})
    t.run(300)  # the empty-goal baseline settles
    eq(len(goal_for(t, 85)), 1, "85 mm is a ball under the board file's 100 mm")
    eq(t.cmd(W.CMD_SET_THRESHOLD, 0, 0, 0, 70, 25), W.ACK_OK, "set threshold")
    g = t.app.inputs.goals[0]
    eq((g.threshold, g.clear_mm), (70, 95), "applied at once")
    eq(len(goal_for(t, 85)), 0, "85 mm is no longer a ball")
    eq(len(goal_for(t, 20)), 1, "20 mm is")
    check("threshold 70 mm" in t.board.logs[-1], "logged: %r" % t.board.logs)
    t.reboot()
    g0, g1 = t.app.inputs.goals
    eq((g0.threshold, g0.hysteresis), (70, 25), "kept on flash")
    eq((g1.threshold, g1.hysteresis), (100, 8), "goal line 1 untouched")
    eq(t.app.tuning.refractory_ms, 1200, "the rest of table.json is kept")
    t.run(300)
    eq(len(goal_for(t, 85)), 0, "after the reset 85 mm is still no ball")
    eq(len(goal_for(t, 20)), 1, "and 20 mm is")
    stored = json.loads(NvStore(t.state).read("table.json"))
    eq(stored["tof0_threshold_mm"], 70, "table.json")
    # nonsense is refused and changes nothing
    for goal, thr, hyst in ((2, 70, 8), (0, 0, 8), (0, 5000, 8), (0, 70, -1)):
        eq(t.cmd(W.CMD_SET_THRESHOLD, goal, 0, 0, thr, hyst), W.ACK_REFUSED, "refused %d" % thr)
    eq(t.app.inputs.goals[0].threshold, 70, "unchanged")
    t.close()


def test_repl_command_is_acked_then_the_loop_ends():
    t = Table(capture=True)
    app = t.app
    t.hello()
    t.step()
    t.board.take_tx()
    calls = []
    t.board.to_repl = lambda store: calls.append(store)
    t.board.feed(cmd_frame(1, W.CMD_REPL, boot=app.boot_id))
    t.step()
    acks = [f for f in frames(t.board.take_tx()) if f.msg_type == W.MSG_CMD_ACK]
    eq([(f.seq, f.payload[0], f.payload[1]) for f in acks], [(1, W.ACK_OK, W.CMD_REPL)], "acked")
    check(app.repl_requested, "the loop is asked to end")
    app.run()  # returns instead of looping forever
    eq(calls, [app.store], "board.to_repl called once")
    t.close()


def test_pico_to_repl_resets_into_a_repl_only_boot_when_a_watchdog_runs():
    state = fresh_dir()
    with open(HW + "pico.json") as f:
        cfg = json.load(f)
    cfg["data_channel"] = {"type": "uart", "uart_id": 0, "tx": 0, "rx": 1}
    for g in cfg["goal_sensors"]:
        g["type"] = "beam"
    path = state + "-board.json"
    with open(path, "w") as f:
        json.dump(cfg, f)
    args = {"board_file": path, "state": state}
    m = FakeMachineModule()
    board = PicoBoard(args, m)
    check(not board.repl_boot and len(m.wdts) == 1, "a normal boot arms the watchdog")
    store = NvStore(state)
    app = App(board, store, 32)
    app.repl_requested = True
    app.run()
    eq(m.resets, 1, "the running watchdog cannot be stopped: the board resets")
    app.clock.slot.close()
    # the next boot goes straight to the REPL: no watchdog, the loop does not start
    m2 = FakeMachineModule()
    board2 = PicoBoard(args, m2)
    check(board2.repl_boot and m2.wdts == [], "REPL-only boot, no watchdog")
    app2 = App(board2, NvStore(state), 32)
    passes = app2.passes
    app2.run()
    eq(app2.passes, passes, "the loop never ran")
    app2.clock.slot.close()
    # the flag held for one boot only
    m3 = FakeMachineModule()
    check(not PicoBoard(args, m3).repl_boot and len(m3.wdts) == 1, "normal again")
    # without a watchdog, to_repl simply returns (the caller's main.py ends: REPL)
    m4 = FakeMachineModule()
    board4 = PicoBoard(dict(args, no_watchdog="1"), m4)
    board4.to_repl(NvStore(state))
    eq(m4.resets, 0, "no reset needed")
    check(NvStore(state).read("repl.flag") is None, "no flag left")
    wipe(state)


def test_diag_stream_ends_with_the_host_session():
    t = Table(goal_sensor="tof", capture=True)
    b = t.board
    link = t.app.link
    t.hello()
    t.step()
    t.app.command(W.CMD_DIAG, 1, 0, 0, 0, 0)
    t.run(100)
    check(diags(b.take_tx()), "streaming")
    # the host falls silent: after 3 s the device stops sending, DIAG included, for good
    t.run(3100)
    check(not link.connected and not link.diag, "silence ends the stream")
    b.take_tx()
    t.hello()
    t.run(200)
    eq(diags(b.take_tx()), [], "a new session does not get the old stream")
    # an identify-only HELLO (a new host starting) ends it too
    t.app.command(W.CMD_DIAG, 1, 0, 0, 0, 0)
    t.run(60)
    b.take_tx()
    t.board.feed(W.encode_frame(W.MSG_HELLO, 0, 0, 0, struct.pack(
        W.HELLO_FMT, W.PROTO_VERSION, 0, W.IDENTIFY_ONLY)))
    t.step()
    check(not link.diag, "identify-only HELLO ends the stream")
    t.close()
