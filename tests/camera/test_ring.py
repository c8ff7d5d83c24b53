"""The ring of encoded frames: bounded by age and by memory, the oldest going first."""

from __future__ import annotations

from futmesa.camera.ring import Frame, FrameRing


def frame(ms: float, size: int = 100) -> Frame:
    return Frame(ms, 1_700_000_000_000 + ms, b"x" * size)


def test_the_ring_keeps_only_its_seconds() -> None:
    ring = FrameRing(seconds=2.0, max_bytes=1 << 20)
    for i in range(50):  # 5 s at 10 fps
        ring.push(frame(i * 100))
    assert len(ring) == 21  # 2 s back from the newest, both ends kept
    assert ring.span_s() == 2.0
    assert ring.evicted_for_memory == 0
    assert ring.bytes == 21 * 100


def test_the_ring_never_holds_more_than_its_memory() -> None:
    ring = FrameRing(seconds=30.0, max_bytes=1000)
    for i in range(40):
        ring.push(frame(i * 33, size=300))
        assert ring.bytes <= 1000
    assert len(ring) == 3
    assert ring.evicted_for_memory == 37
    assert ring.pushed == 40


def test_a_span_is_read_by_the_match_timeline() -> None:
    ring = FrameRing(seconds=10.0, max_bytes=1 << 20)
    for i in range(30):
        ring.push(frame(i * 100))
    got = ring.between(1_700_000_000_000 + 500, 1_700_000_000_000 + 1000)
    assert [f.mono_ms for f in got] == [500, 600, 700, 800, 900, 1000]
    newest = ring.newest()
    assert newest is not None and newest.mono_ms == 2900
