"""A host on the device's data channel, for tests and benchmarks on either Python.

Written in the MicroPython/CPython common subset (like firmware/futmesa_wire.py): the frames a
host sends (HELLO, ACK), reading a numbered event back out of the device's ring by the wire's
own layout, and the small asserts and file helpers every device-side check uses. Imported by
tests/firmware/fwtest.py, tests/link/mp_link_check.py and tests/firmware/test_sim_board.py.
"""

import struct

import futmesa_wire as W


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def wipe(path):
    """Remove a flat state folder (the sim/bench board's flash) if it is there."""
    import os

    try:
        for name in os.listdir(path):
            os.remove(path + "/" + name)
        os.rmdir(path)
    except OSError:
        pass


def hello_frame(boot=0, seq=0, proto=W.PROTO_VERSION):
    """HELLO saying the host has committed up to (boot, seq); (0, 0) is a fresh host."""
    return W.encode_frame(W.MSG_HELLO, 0, 0, 0, struct.pack(W.HELLO_FMT, proto, boot, seq))


def ack_frame(boot, seq):
    """ACK of every event of boot ``boot`` up to ``seq``."""
    return W.encode_frame(W.MSG_ACK, boot, 0, 0, struct.pack(W.ACK_FMT, boot, seq))


def ring_event(link, seq):
    """(ticks, kind, a, b, period, clock_ms, value) of event ``seq`` in a DeviceLink's ring.

    Read with the wire's header and event layouts (HEADER_FMT, EVENT_FMT), never by
    hand-counted offsets.
    """
    off = (seq % link.size) * W.EVENT_FRAME_SIZE
    _version, _msg, _boot, _seq, ticks = struct.unpack_from(W.HEADER_FMT, link.ring, off)
    return (ticks,) + struct.unpack_from(W.EVENT_FMT, link.ring, off + W.HEADER_SIZE)
