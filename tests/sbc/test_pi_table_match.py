"""A Raspberry Pi table (issue 34): the firmware's own loop under CPython on simulated pins.

The device process (futmesa.sbc.device) runs firmware/ — inputs, match clock,
lance timer, buzzer, link — on the Linux board with the simulated header: goal
line 0 a break-beam on a GPIO, goal line 1 a VL53L0X that Adafruit's unmodified
driver starts and reads on the fake I2C bus (futmesa.hardware.fakei2c). The
daemon and web server are the real ones over a real pty pair and SQLite file.
"""

from __future__ import annotations

from typing import Any

from futmesa.sbc.table import SbcTable
from futmesa.store import EventLog
from futmesa_testkit.livetable import LiveTable

LONG_LANCE = {"lance_ms": 3_600_000, "lance_warn_ms": 5_000}  # no lance runs out meanwhile


def device_entries(db: str, match_id: int) -> list[Any]:
    store = EventLog(db)
    try:
        return [e for e in store.entries(match_id) if e.source == "device"]
    finally:
        store.close()


def test_a_match_on_simulated_pins_through_the_adafruit_driver(tmp_path) -> None:
    table = SbcTable(speed=20, goal_sensor="mixed")
    with LiveTable(sim=table, db=tmp_path / "pi.sqlite", settings=LONG_LANCE) as live:
        live.start_match({"A": {"name": "Estrela"}, "B": {"name": "Botafogo"}})
        d = live.daemon
        assert d.info.board == "rpi"
        state = d.state_json()
        assert state["link"]["host_clock"] is True  # the kiosk and console say who keeps time
        ends = live.match()["ends"]  # goal line -> the side whose goal it is
        scorer_of = {int(line): ("B" if side == "A" else "A") for side, line in ends.items()}
        for line in (0, 1):  # 0: the break-beam pin; 1: the VL53L0X on the fake bus
            live.give_lance(scorer_of[line])  # only the team with the lance asks
            live.referee("shot_asked", {"side": scorer_of[line], "disc": 9})  # 000 Art. 12 §1
            before = dict(live.match()["score"])
            table.goal(line)
            live.wait(lambda before=before: live.match()["score"] != before, 60,
                      f"the goal on line {line}")
        table.ball_out(2)
        live.wait(lambda: any(e.kind == "ball_out" for e in device_entries(
            live.db, d.match["id"])), 60, "the ball out")
        table.palheta("B")
        live.wait(lambda: any(e.kind == "palheta" for e in device_entries(
            live.db, d.match["id"])), 60, "the palheta")
        entries = device_entries(live.db, d.match["id"])
        goals = [e.data for e in entries if e.kind == "goal_line"]
        assert sorted(g["goal"] for g in goals) == [0, 1], goals  # once each, no more
        assert [e.data["zone"] for e in entries if e.kind == "ball_out"] == [2]
        assert [e.data["pos"] for e in entries if e.kind == "palheta"][-1] == "B"
        assert sum(live.match()["score"].values()) == 2
        assert not d.sensor_faults, d.sensor_faults  # both sensors started and answer
        # the device process said where its firmware came from: this tree's firmware/
        assert any("firmware from" in line for line in table.lines), table.output_tail()
