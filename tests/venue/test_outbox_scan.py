"""The table's outbox never loses a result (found by bench/championship_bench.py: 2 of 636
results never sent). A match is marked ended the moment its state first says "finished";
a goal-line trip on the last shot then asks the referee (the match is not finished while
the question stands), and a scan in between used to pass the match by for good. Now an
ended match without a result stays to be scanned again while it is the table's newest; one
the table replaced unfinished is passed by."""

from __future__ import annotations

from pathlib import Path

from futmesa.store import EventLog
from futmesa.venue.outbox import Outbox


def disqualify(log: EventLog, mid: int) -> None:
    """Beta disqualified (003 Art. 83 §3): the match finishes 2 × 0, no clock needed."""
    log.append_entry(mid, "referee", "discipline", {"side": "B", "type": "disqualify"}, 1,
                     1000, "árbitro")


def test_a_result_that_comes_after_the_end_mark_is_still_sent(tmp_path: Path) -> None:
    log = EventLog(tmp_path / "mesa.sqlite")
    box = Outbox(log)
    mid = log.new_match("mesa-1", "pastilha-8x2", {"competition_match": 7})
    log.end_match(mid)  # marked ended; the log does not give a result yet
    assert box.scan("mesa-1") == 0
    assert box.pending("mesa-1") == []
    disqualify(log, mid)  # the referee's answer: now it has one
    assert box.scan("mesa-1") == 1
    [body] = box.pending("mesa-1")
    assert (body["match_id"], body["competition_match"], body["score_a"]) == (mid, 7, 2)


def test_a_match_replaced_unfinished_is_passed_by(tmp_path: Path) -> None:
    log = EventLog(tmp_path / "mesa.sqlite")
    box = Outbox(log)
    first = log.new_match("mesa-1", "pastilha-8x2", {})
    log.end_match(first)  # abandoned: the table went on to another match
    second = log.new_match("mesa-1", "pastilha-8x2", {"competition_match": 8})
    disqualify(log, second)
    log.end_match(second)
    assert box.scan("mesa-1") == 1
    assert [b["match_id"] for b in box.pending("mesa-1")] == [second]
    assert box.cursor("mesa-1") == second


def test_an_entry_written_just_after_the_result_is_sent_again(tmp_path: Path) -> None:
    """Found by `competition sumulas` on a demo day: an entry stamped a moment before the
    result was built, but written just after it, was never sent (the recheck compared
    clocks); the desk kept a result one entry short of the table's log, and its súmula
    "did not check out". The recheck goes by the entries' numbers now."""
    import sqlite3

    log = EventLog(tmp_path / "mesa.sqlite")
    box = Outbox(log)
    mid = log.new_match("mesa-1", "pastilha-8x2", {"competition_match": 7})
    disqualify(log, mid)
    log.end_match(mid)
    assert box.scan("mesa-1") == 1
    [first] = box.pending("mesa-1")
    box.acknowledge("mesa-1", {first["uid"]: first["digest"]})
    late = log.append_entry(mid, "referee", "note", {"text": "súmula conferida"}, 1, 1000,
                            "árbitro")
    db = sqlite3.connect(tmp_path / "mesa.sqlite")  # its stamp from before the result's
    db.execute("UPDATE entries SET created_at = created_at - 3600 WHERE id=?", (late,))
    db.commit()
    db.close()
    assert box.recheck("mesa-1") == 1
    [again] = box.pending("mesa-1")
    assert again["uid"] == first["uid"] and again["digest"] != first["digest"]
    assert box.recheck("mesa-1") == 0  # once is enough
