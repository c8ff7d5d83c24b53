"""The unacknowledged-events record (firmware/link.py, docs/protocol.md §7) on the real NvStore.

With the cable out, events pile up unacknowledged and the record is rewritten on flash at
a bounded rate: those rewrites allocate nothing (heap locked), and the next boot reads the
record back and reports it as EV_LOST.
"""

import micropython

import futmesa_wire as W
import link as L
from fwtest import check, eq, fresh_dir, wipe
from nvstore import NvStore


class _Board:
    name = "sim"
    tick_rate = 1000
    tick_bits = 32

    def ticks_ms(self):
        return 0

    def unique_id(self):
        return b"PENDING1"

    def port_ready(self):
        return False  # the cable is out


class _App:
    def __init__(self, store):
        self.store = store


def test_record_rewrites_allocate_nothing_and_survive_a_reset():
    state = fresh_dir()
    link = L.DeviceLink(_Board(), _App(NvStore(state)), 7, 64)
    link.poll(0, 0)
    t = 0
    micropython.heap_lock()
    try:
        for i in range(40):  # 4 s with the cable out, an event every 100 ms
            link.push(0, W.EV_PALHETA if i % 2 else W.EV_GOAL_LINE, 0, 0, 1, 0, 0)
            t += 100
            link.poll(t, t)
    finally:
        micropython.heap_unlock()
    eq(link._pend_newest, 40, "the record holds the newest event")
    link._pend.close()
    reborn = L.DeviceLink(_Board(), _App(NvStore(state)), 8, 64)
    check(reborn.lost is not None, "the next boot reads the record")
    boot, first, last, counts = reborn.lost
    eq((boot, first, last), (7, 1, 40), "boot and range")
    eq(counts[2 * W.EV_GOAL_LINE] + 256 * counts[2 * W.EV_GOAL_LINE + 1], 20, "goal lines")
    eq(counts[2 * W.EV_PALHETA], 20, "palheta moves")
    reborn._pend.close()
    wipe(state)
