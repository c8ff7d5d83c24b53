"""Board files: every shipped board loads, and the loader names each kind of mistake."""

import json

import pytest

from futmesa.hardware.boardfile import BoardFileError, board_names, load_board


def test_every_shipped_board_loads_and_is_complete():
    names = board_names()
    assert {"pico", "esp32", "sim", "rpi"} <= set(names)
    for name in names:
        b = load_board(name)
        assert b.name == name
        assert [g["id"] for g in b.goal_sensors] == [0, 1]
        assert len(b.side_net) == 6
        # both lines and both ends are watched
        assert {(z["line"], z["end"]) for z in b.side_net} == {
            ("side", 0), ("side", 1), ("end", 0), ("end", 1)
        }
        assert b.tof_addresses() == [0x30, 0x31]


def test_micro_controller_boards_are_readable_by_micropython_json(tmp_path):
    # flat: only dicts, lists, str, int (no floats or nulls the firmware has to special-case)
    def walk(v):
        if isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)
        else:
            assert isinstance(v, (str, int)) and not isinstance(v, bool), v

    for name in ("pico", "esp32", "sim"):
        walk(load_board(name).data)


def _write(tmp_path, data, name="custom"):
    p = tmp_path / f"{name}.json"
    p.write_text(json.dumps(data))
    return p


@pytest.mark.parametrize(
    "mutate, words",
    [
        (lambda d: d.pop("i2c"), "missing key 'i2c'"),
        (lambda d: d["goal_sensors"][1].update(address="0x30"), "used twice"),
        (lambda d: d["goal_sensors"][0].update(address="0x29"), "not 0x29"),
        (lambda d: d["side_net"][2].update(pin=d["palheta"]["pin_a"]), "pin 14 is used twice"),
        (lambda d: d["side_net"][0].update(line="top"), "line must be"),
        (lambda d: d["side_net"].pop(0), "numbered 0, 1, 2"),
        (lambda d: d["goal_sensors"].pop(), "exactly the ids 0 and 1"),
        (lambda d: d["buttons"].update(turbo=3), "unknown button 'turbo'"),
        (lambda d: d.update(format=2), "format 2 is not supported"),
        # issue 14: typos were silently ignored (the default threshold was kept)
        (lambda d: d["goal_sensors"][0].update(treshold_mm=90),
         "unknown key 'goal_sensors.0.treshold_mm'; did you mean \"threshold_mm\"?"),
        (lambda d: d.update(led_pin=25), "unknown key 'led_pin'"),
        (lambda d: d["i2c"].update(frequency=100000), 'did you mean "freq"?'),
        (lambda d: d["goal_sensors"][0].update(threshold_mm=5), "threshold_mm"),
    ],
)
def test_loader_names_the_problem(tmp_path, mutate, words):
    data = json.loads(load_board("pico").path.read_text())
    data["board"] = "custom"
    mutate(data)
    with pytest.raises(BoardFileError) as err:
        load_board(_write(tmp_path, data))
    assert words in str(err.value)
    assert "hardware/README.md" in str(err.value)


def test_unknown_board_lists_the_known_ones():
    with pytest.raises(BoardFileError) as err:
        load_board("arduino-uno")
    assert "pico" in str(err.value) and "--board" in str(err.value)


def test_break_beam_build_is_one_field_change(tmp_path):
    data = json.loads(load_board("pico").path.read_text())
    data["board"] = "custom"
    for g in data["goal_sensors"]:
        g["type"] = "beam"
    b = load_board(_write(tmp_path, data))
    assert b.tof_addresses() == []


def test_named_board_must_match_its_file_name(tmp_path, monkeypatch):
    (tmp_path / "boards").mkdir()
    data = json.loads(load_board("pico").path.read_text())
    (tmp_path / "boards" / "mine.json").write_text(json.dumps(data))
    monkeypatch.setenv("FUTMESA_HARDWARE_DIR", str(tmp_path))
    with pytest.raises(BoardFileError, match="named mine.json"):
        load_board("mine")
    # by path (a calibrated copy) any file name is fine
    assert load_board(tmp_path / "boards" / "mine.json").name == "pico"


def test_bad_json_says_where(tmp_path):
    p = tmp_path / "x.json"
    p.write_text('{"format": 1,}')
    with pytest.raises(BoardFileError, match="line 1"):
        load_board(p)


def test_board_files_load_with_micropython_json():
    """The firmware's side: the real MicroPython VM parses every board file."""
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    from futmesa.hardware.boardfile import boards_dir

    mp = shutil.which("micropython") or str(Path(sys.executable).parent / "micropython")
    script = (
        "import json, sys\n"
        "for p in sys.argv[1:]:\n"
        "    d = json.load(open(p))\n"
        "    a = [int(g['address'], 16) for g in d['goal_sensors']]\n"
        "    z = [(s['zone'], s['pin'], s['line'], s['end']) for s in d['side_net']]\n"
        "    print(d['board'], a, len(z), d['palheta']['pin_a'], d['i2c']['sda'])\n"
    )
    files = [str(boards_dir() / f"{n}.json") for n in ("pico", "esp32", "sim")]
    out = subprocess.run([mp, "-c", script, *files], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        f"{n} [48, 49] 6 {load_board(n)['palheta']['pin_a']} {load_board(n)['i2c']['sda']}"
        for n in ("pico", "esp32", "sim")
    ]
