"""Power-up on a real board (firmware/startup.py): the board file, the image's default at first
boot, and the clear signal (console text, LED pattern, REPL kept) when the board file is wrong."""

import json
import os

from fakemachine import FakeMachineModule
from fwtest import check, eq, fresh_dir, wipe
import startup

DEFAULT = ("pico", json.dumps({"board": "pico", "format": 1, "led": {"pin": 25}}))


def paths():
    root = fresh_dir()
    os.mkdir(root)
    return root, root + "/board.json", root + "/state"


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def test_first_boot_writes_the_default_board_file():
    root, board, state = paths()
    cfg, problem = startup.board_config("rp2", board, state, DEFAULT)
    eq(problem, None, "no problem at first boot")
    eq(cfg["board"], "pico", "the image's default")
    with open(board) as f:
        eq(json.load(f), json.loads(DEFAULT[1]), "written to flash as board.json")
    os.mkdir(state)  # the firmware ran: its state folder exists
    cfg, problem = startup.board_config("rp2", board, state, DEFAULT)
    eq((cfg["board"], problem), ("pico", None), "the next boot reads it")
    wipe(state)
    wipe(root)


def test_first_boot_on_a_flash_that_takes_no_writes_uses_the_default_from_ram():
    board = "/futmesa-no-such-volume/board.json"
    cfg, problem = startup.board_config("rp2", board, "/futmesa-no-such-volume/state", DEFAULT)
    eq(problem, None, "runs")
    eq(cfg["board"], "pico", "the default, from RAM")


def test_missing_board_file_after_the_first_boot_is_a_fault():
    root, board, state = paths()
    os.mkdir(state)
    cfg, problem = startup.board_config("rp2", board, state, DEFAULT)
    eq(cfg, None, "never another board")
    check("board.json is missing" in problem and "futmesa flash --board pico" in problem,
          "says what to do: %r" % problem)
    check(not startup._exists(board), "no default written over a board that ran before")
    wipe(state)
    wipe(root)


def test_stock_micropython_without_a_default_needs_the_board_file():
    root, board, state = paths()
    cfg, problem = startup.board_config("rp2", board, state, (None, None))
    eq(cfg, None, "no default on a stock MicroPython")
    check("futmesa flash" in problem, "says what to do")
    wipe(root)


def test_unreadable_or_foreign_board_file_is_a_fault():
    root, board, state = paths()
    for text in ("{not json", "[1, 2]", '{"format": 1}'):
        write(board, text)
        cfg, problem = startup.board_config("rp2", board, state, DEFAULT)
        eq(cfg, None, "refused: %s" % text)
        check("unreadable" in problem, "says it: %r" % problem)
        with open(board) as f:
            eq(f.read(), text, "the club's file is left as it is")
    write(board, json.dumps({"board": "esp32"}))
    cfg, problem = startup.board_config("rp2", board, state, DEFAULT)
    eq(cfg, None, "an esp32 board file on a Pico")
    check("esp32" in problem and "--board pico" in problem, problem)
    wipe(root)


def test_signal_prints_what_to_do_and_blinks_three_times_every_two_seconds():
    m = FakeMachineModule()
    lines = []
    timer = startup.signal("board.json is missing: do X", m, lines.append, "rp2")
    eq(startup.PROBLEM, "board.json is missing: do X", "kept for a host at the REPL")
    check("board.json is missing: do X" in lines[0], "the problem on the console")
    check(len(lines) == 2 and "LED" in lines[1], "and the LED pattern explained")
    eq(len(m.timers), 1, "one hardware timer")
    check(timer is m.timers[0] and startup._TIMER[0] is timer, "returned and kept referenced")
    led = m.pins["LED"]
    levels = []
    for _ in range(2 * startup.BLINK_SLOTS):
        timer.fire()
        levels.append(led.value())
    eq(timer.period * startup.BLINK_SLOTS, 2100, "one pattern every 2.1 s")
    one = [1, 0, 1, 0, 1, 0] + [0] * 8
    eq(levels, one + one, "3 short blinks, then dark")
    lines = []
    eq(startup.signal("x", m, lines.append, "esp32"), None, "no LED guess on an esp32")
    eq(len(lines), 2, "still said on the console")
