"""The BOMs parse and cover every input the board files define."""

import pytest

from futmesa.hardware import bom
from futmesa.hardware.boardfile import load_board


@pytest.mark.parametrize("build", bom.BUILDS)
def test_bom_covers_every_board(build):
    items = bom.load_bom(build)
    assert items and all(i.quantity > 0 and i.unit_cost_usd >= 0 for i in items)
    for name in ("pico", "esp32", "rpi"):
        assert bom.check_against_board(items, load_board(name)) == []
    assert 0 < bom.total_usd(items) < 150  # a club-sized kit


def test_builds_differ_in_the_goal_sensor():
    beam = [i.part for i in bom.load_bom("breakbeam") if i.role == "goal_sensor"]
    tof = [i.part for i in bom.load_bom("tof") if i.role == "goal_sensor"]
    assert any("break-beam" in p for p in beam) and any("VL53L0X" in p for p in tof)


def test_check_against_board_finds_a_shortfall():
    items = [i for i in bom.load_bom("tof") if i.role != "side_net"]
    problems = bom.check_against_board(items, load_board("pico"))
    assert problems == ["side_net: the board file needs 6, the BOM lists 0"]
