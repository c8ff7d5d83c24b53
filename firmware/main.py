"""Firmware entry point: `micropython main.py --board sim --port PTY --state DIR --speed N`.

On a real board, main.py runs at power-up with no arguments (frozen into the
futmesa image, where MicroPython runs it in preference to a main.py on the
filesystem; copied by `futmesa flash` onto a stock MicroPython). It reads the
board file through `startup.board_config()`: a missing or unreadable board
file never falls back to another board; it is shown on the console, the LED
blinks, and main.py ends so the REPL stays reachable for `futmesa flash`.
"""

import sys


def parse_args(argv):
    args = {}
    i = 0
    while i < len(argv):
        word = argv[i]
        if word.startswith("--") and i + 1 < len(argv):
            args[word[2:].replace("-", "_")] = argv[i + 1]
            i += 2
        else:
            i += 1
    return args


def main():
    args = parse_args(sys.argv[1:])
    name = args.get("board")
    # --platform rp2 (tests): the real-board start-up below, on the unix port
    platform = args.get("platform", sys.platform)
    if name is None and platform in ("linux", "darwin"):
        name = "sim"  # the unix port: only the simulated board runs there
    if name is None:
        # a real board, whose data channel may be the REPL's USB port: a host that opens
        # the port while the board boots sends HELLOs, and a 0x03 in them must not stop
        # the start-up (Ctrl-C comes back by itself at the REPL if main.py ends)
        import micropython

        micropython.kbd_intr(-1)
        # the frozen firmware wins over stale copies on the filesystem
        if ".frozen" in sys.path:
            sys.path.remove(".frozen")
            sys.path.insert(0, ".frozen")
        import startup

        cfg, problem = startup.board_config(
            platform, args.get("board_file", startup.BOARD_FILE),
            args.get("state", startup.STATE_DIR))
        if problem is not None:
            startup.signal(problem, platform=platform)
            return
        name = cfg["board"]
        args["board_cfg"] = cfg
    import boards
    import futmesa_wire
    from app import App
    from nvstore import NvStore

    try:
        board = boards.load(name, args)
    except Exception as exc:  # noqa: BLE001 - a real board must stay reachable, whatever failed
        if "board_cfg" not in args:
            raise  # the sim and bench boards: a bug, shown as a traceback
        import startup

        startup.signal("the board did not start with this board.json (%r): check it and the "
                       "wiring, then `futmesa flash --board %s --port PORT`" % (exc, name),
                       platform=platform)
        return
    store = NvStore(args.get("state", board.state_dir if hasattr(board, "state_dir") else "/state"))
    app = App(board, store, int(args.get("ring", "512")))
    major, minor, patch = futmesa_wire.FIRMWARE_VERSION
    board.log("futmesa firmware %d.%d.%d boot %d on %s" % (major, minor, patch, app.boot_id, name))
    try:
        app.run()
    except KeyboardInterrupt:
        board.buzzer(0, 0)


def run():
    for _attempt in range(3):
        try:
            main()
            return
        except KeyboardInterrupt:
            # a Ctrl-C byte that reached the USB port before main() turned Ctrl-C off is
            # raised late, during the start-up: start again (on the unix port: stop)
            if sys.platform in ("linux", "darwin"):
                raise


run()
