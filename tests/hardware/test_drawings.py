"""The checked-in drawings are exactly what the generator makes from the board files now."""

import json
import xml.etree.ElementTree as ET

from futmesa.hardware import drawings
from futmesa.hardware.boardfile import load_board


def test_checked_in_drawings_are_fresh():
    bad = drawings.stale()
    assert bad == [], f"stale drawings {bad}: run `futmesa drawings` and commit hardware/drawings/"


def test_every_drawing_is_well_formed_svg():
    for name, text in drawings.render_all().items():
        root = ET.fromstring(text.encode())
        assert root.tag.endswith("svg"), name


def test_wiring_follows_the_board_file(tmp_path):
    data = json.loads(load_board("pico").path.read_text())
    before = drawings.wiring_svg(load_board("pico"))
    assert ">GP6<" in before and "address 0x30" in before
    data["board"] = "custom"
    data["goal_sensors"][0]["xshut"] = 22
    data["goal_sensors"][0]["address"] = "0x52"
    p = tmp_path / "custom.json"
    p.write_text(json.dumps(data))
    after = drawings.wiring_svg(load_board(p))
    assert ">GP22<" in after and "address 0x52" in after and ">GP6<" not in after


def test_check_reports_a_stale_or_extra_file(tmp_path, capsys):
    drawings.write_all(tmp_path)
    assert drawings.main(["--check", "--out", str(tmp_path)]) == 0
    victim = tmp_path / "wiring-pico.svg"
    victim.write_text(victim.read_text().replace("GP6", "GP9"))
    (tmp_path / "old.svg").write_text("<svg/>")
    assert drawings.main(["--check", "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "wiring-pico.svg" in err and "old.svg" in err and "futmesa drawings" in err


def test_beam_is_one_ball_behind_the_line():
    # 000 Art. 7: ball 10 mm; 003 Art. 11 §1: pastilha 11 mm
    by_key = {g.key: g for g in drawings.GEOMETRIES}
    assert drawings.beam_offset_mm(by_key["cbfm"]) == 10 + drawings.BEAM_MARGIN_MM
    assert drawings.beam_offset_mm(by_key["pastilha"]) == 11 + drawings.BEAM_MARGIN_MM
    assert "13 mm" in drawings.goal_svg(by_key["cbfm"])
    # 000 Rule 1 §2 / §4 and 003 Arts. 2, 6 sizes appear as dimensions
    assert "table 2200 mm" in drawings.placement_svg(by_key["cbfm"], load_board("pico"))
    assert "table 1870 mm" in drawings.placement_svg(by_key["pastilha"], load_board("pico"))
    assert "goal 110 mm" in drawings.goal_svg(by_key["pastilha"])


def test_cli_drawings_check_and_write(tmp_path):
    from click.testing import CliRunner

    from futmesa.cli import cli

    r = CliRunner().invoke(cli, ["drawings", "--out", str(tmp_path)])
    assert r.exit_code == 0 and "wiring-pico.svg" in r.output
    assert CliRunner().invoke(cli, ["drawings", "--check", "--out", str(tmp_path)]).exit_code == 0
    (tmp_path / "goal-cbfm.svg").unlink()
    r = CliRunner().invoke(cli, ["drawings", "--check", "--out", str(tmp_path)])
    assert r.exit_code == 1 and "goal-cbfm.svg" in r.output
