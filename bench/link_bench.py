"""Serial-link benchmark: prints figures, never fails on speed (docs/performance.md, "Serial link").

    .venv/bin/python bench/link_bench.py [--samples N]

1. End-to-end latency: a side-net edge written to the simulated board (the
   firmware under `micropython`, speed 1) until the event is committed in
   SQLite by the host link over a real pty — median and p99.
2. Host decode + commit throughput: event frames fed through the HostLink's
   own receive path into a real EventLog (one committed transaction per event,
   synchronous=FULL, as in production), events/s; and decode-only.
3. Bytes per frame on the wire, and the frames/s 115200 baud allows; the
   replay rate measured over the pty after an unplug (ring full).
4. The peer to beat: pymavlink's MAVLink v2 parser decoding frames with the
   same 12-byte payload (SYSTEM_TIME), in the same run; ratio to ours.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import futmesa_wire as W  # noqa: E402
from futmesa.link import HostLink  # noqa: E402
from futmesa.link.events import unpack_event  # noqa: E402
from futmesa.link.messages import DeviceInfo, Profile  # noqa: E402
from futmesa.link.protocol import LinkProtocol  # noqa: E402
from futmesa.sim import SimTable  # noqa: E402
from futmesa.store import EventLog  # noqa: E402
from futmesa_testkit.groundtruth import Driver, RecordingSink, truth, wait_until  # noqa: E402

BAUD = 115200
BYTES_PER_SECOND = BAUD / 10  # 8N1: 10 bits per byte


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


class TimedSink(RecordingSink):
    def __init__(self, store: EventLog) -> None:
        super().__init__(store)
        self.committed: dict[tuple[int, int], float] = {}
        self.cond = threading.Condition()

    def on_event(self, info, boot_id, seq, ticks, payload):  # type: ignore[override]
        super().on_event(info, boot_id, seq, ticks, payload)
        with self.cond:
            self.committed[(boot_id, seq)] = time.perf_counter()
            self.cond.notify_all()


def bench_latency_and_replay(samples: int, tmp: Path) -> dict[str, float]:
    os.environ["FUTMESA_TRACE_EVENTS"] = "1"
    (tmp / "sim").mkdir()
    sim = SimTable(speed=1, workdir=tmp / "sim", ring=512)
    store = EventLog(tmp / "latency.sqlite")
    sink = TimedSink(store)
    link = HostLink(sim.host_port, sink)
    out: dict[str, float] = {}
    try:
        sim.start()
        link.start()
        wait_until(lambda: link.connected, 20, "the table", sim)
        time.sleep(0.5)
        lat = []
        for i in range(samples):
            n_before = len(truth(sim))
            t0 = time.perf_counter()
            sim.send(f"out {i % 6}")
            deadline = t0 + 2
            key = None
            while time.perf_counter() < deadline:
                produced = truth(sim)
                if len(produced) > n_before:
                    key = produced[n_before][:2]
                    with sink.cond:
                        if key in sink.committed:
                            break
                        sink.cond.wait(0.002)
                else:
                    time.sleep(0.0005)
            if key is not None and key in sink.committed:
                lat.append((sink.committed[key] - t0) * 1000)
            time.sleep(0.15)  # the zones' refractory time
        out["lat_n"] = len(lat)
        out["lat_median"] = statistics.median(lat)
        out["lat_p99"] = pct(lat, 99)
    finally:
        link.stop()
        sim.stop()
        store.close()
    # replay rate: a faster sim fills its ring while unplugged, then time the catch-up
    (tmp / "sim2").mkdir()
    sim = SimTable(speed=100, workdir=tmp / "sim2", ring=512, uid="SIM00002")
    store = EventLog(tmp / "replay.sqlite")
    sink = TimedSink(store)
    link = HostLink(sim.host_port, sink)
    try:
        sim.start()
        link.start()
        wait_until(lambda: link.connected, 20, "the table", sim)
        sim.unplug()
        wait_until(lambda: not link.connected, 5, "the unplug")
        n0 = len(store.device_events())
        drv = Driver(sim, seed=1)
        while len(truth(sim)) < n0 + 450:
            drv.play(10, gap_s=0.003)
        time.sleep(0.3)
        target = len(truth(sim))
        sim.plug()
        t0 = time.perf_counter()
        wait_until(lambda: len(store.device_events()) >= target, 30, "the replay", sim)
        dt = time.perf_counter() - t0
        out["replay_events"] = target - n0
        out["replay_rate"] = (target - n0) / dt
    finally:
        link.stop()
        sim.stop()
        store.close()
    return out


def event_stream(n: int) -> bytes:
    body = bytearray(W.HEADER_SIZE + W.EVENT_SIZE)
    raw = bytearray(W.EVENT_FRAME_SIZE)
    enc = bytearray(W.EVENT_FRAME_SIZE + 2)
    chunks = []
    for seq in range(1, n + 1):
        W.pack_event_frame(body, raw, 0, 1, seq, 1000 + seq * 7, W.EV_BALL_OUT, seq % 6, 0, 1,
                           seq * 13, seq % 2)
        k = W.cobs_encode_into(raw, W.EVENT_FRAME_SIZE, enc)
        chunks.append(bytes(enc[:k]))
    return b"".join(chunks)


def bench_host_commit(n: int, tmp: Path) -> float:
    """Events/s through the link protocol's receive path into a committed EventLog."""
    store = EventLog(tmp / "throughput.sqlite")
    sink = RecordingSink(store)
    link = LinkProtocol(sink, transport=None)  # acks go nowhere
    info = DeviceInfo(proto=1, firmware="0.1.0", board="sim", uid="BENCH001", boot_id=1,
                      oldest=1, newest=0, tick_rate=1000, tick_bits=32,
                      profile=Profile(2, 0, 0, 0, 1, 1, 0, 0, 0), last_cmd_seq=0)
    link.info, link.boot, link._synced = info, 1, True
    stream = event_stream(n)
    t0 = time.perf_counter()
    for i in range(0, len(stream), 4096):
        link.receive(stream[i:i + 4096])
    dt = time.perf_counter() - t0
    assert link.stats.events == n and len(store.device_events()) == n
    store.close()
    return n / dt


def bench_decode(n: int) -> float:
    """Our frames/s: deframe + COBS + CRC + header + payload unpack."""
    stream = event_stream(n)
    t0 = time.perf_counter()
    d = W.Deframer()
    got = 0
    for i in range(0, len(stream), 4096):
        for block in d.feed(stream[i:i + 4096]):
            f = W.decode_frame(block)
            unpack_event(f.payload)
            got += 1
    dt = time.perf_counter() - t0
    assert got == n
    return n / dt


def bench_mavlink(n: int) -> tuple[float, int]:
    """pymavlink MAVLink v2: frames/s parsing SYSTEM_TIME (12-byte payload) from a stream.

    The values have no trailing zero bytes, so MAVLink v2's payload truncation
    leaves all 12 bytes (24-byte frames: 10 header + 12 + 2 CRC).
    """
    from pymavlink.dialects.v20 import common as mavlink

    tx = mavlink.MAVLink(None, srcSystem=1, srcComponent=1)
    frames = [mavlink.MAVLink_system_time_message(1_700_000_000_000_000 + i * 977 + 1,
                                                  0xA0000000 + i * 7).pack(tx) for i in range(n)]
    stream = b"".join(frames)
    rx = mavlink.MAVLink(None)
    t0 = time.perf_counter()
    got = 0
    for i in range(0, len(stream), 4096):
        got += len(rx.parse_buffer(stream[i:i + 4096]) or [])
    dt = time.perf_counter() - t0
    assert got == n, (got, n)
    assert {len(f) for f in frames} == {24}, "payload truncated: not the same payload size"
    return n / dt, len(frames[0])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--samples", type=int, default=150, help="latency samples")
    ap.add_argument("--frames", type=int, default=20000, help="frames for the decode rates")
    ap.add_argument("--quick", action="store_true",
                    help="a short run (make test): 10 samples, 2,000 frames")
    args = ap.parse_args()
    if args.quick:
        args.samples, args.frames = 10, 2000
    wire = W.EVENT_FRAME_SIZE + 2  # COBS overhead byte + delimiter
    print("futmesa serial link benchmark")
    print(f"  event frame: {W.EVENT_FRAME_SIZE} bytes raw ({W.HEADER_SIZE} header + "
          f"{W.EVENT_SIZE} payload + {W.CRC_SIZE} CRC), {wire} bytes on the wire")
    print(f"  115200 baud (8N1) limit: {BYTES_PER_SECOND / wire:.0f} event frames/s one way "
          f"(ack frames {len(W.encode_frame(W.MSG_ACK, 1, 0, 0, bytes(6)))} bytes on the "
          "return path)")
    # alternate the two decoders and keep each one's best of 3 (a loaded machine is noisy)
    decodes, mavs = [], []
    for _ in range(3):
        decodes.append(bench_decode(args.frames))
        mav, mav_len = bench_mavlink(args.frames)
        mavs.append(mav)
    decode, mav_rate = max(decodes), max(mavs)
    print(f"  decode (deframe+COBS+CRC+unpack), best of 3: {decode:,.0f} frames/s")
    print(f"  pymavlink MAVLink v2 parse_buffer, SYSTEM_TIME ({mav_len} bytes, same 12-byte "
          f"payload), best of 3: {mav_rate:,.0f} frames/s")
    print(f"  ratio futmesa / MAVLink v2: {decode / mav_rate:.2f}x")
    with tempfile.TemporaryDirectory(prefix="futmesa-linkbench-") as d:
        tmp = Path(d)
        commit = bench_host_commit(min(args.frames, 3000), tmp)
        print(f"  host decode + SQLite commit (synchronous=FULL, one transaction per event): "
              f"{commit:,.0f} events/s ({commit / (BYTES_PER_SECOND / wire):.1f}x the line rate)")
        r = bench_latency_and_replay(args.samples, tmp)
    print(f"  end-to-end latency, side-net edge -> committed on the host over a pty "
          f"(n={r['lat_n']:.0f}): median {r['lat_median']:.1f} ms, p99 {r['lat_p99']:.1f} ms")
    print(f"  replay after an unplug (from replug to the last commit, incl. reopen + "
          f"handshake): {r['replay_events']:.0f} events at "
          f"{r['replay_rate']:,.0f} events/s over the pty "
          f"({r['replay_rate'] * wire / BYTES_PER_SECOND * 100:.0f}% of 115200 baud)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
