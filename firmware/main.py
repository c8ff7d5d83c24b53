"""Firmware entry point: `micropython main.py --board sim --port PTY --state DIR --speed N`.

On a real board, main.py runs at power-up with no arguments and reads the
board name from board.json on flash.
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
    if name is None:
        try:
            import json

            with open("board.json") as f:
                name = json.load(f)["board"]
        except (OSError, ValueError, KeyError):
            name = "sim"
    import boards
    import futmesa_wire
    from app import App
    from nvstore import NvStore

    board = boards.load(name, args)
    store = NvStore(args.get("state", board.state_dir if hasattr(board, "state_dir") else "/state"))
    app = App(board, store, int(args.get("ring", "512")))
    major, minor, patch = futmesa_wire.FIRMWARE_VERSION
    board.log("futmesa firmware %d.%d.%d boot %d on %s" % (major, minor, patch, app.boot_id, name))
    try:
        app.run()
    except KeyboardInterrupt:
        board.buzzer(0, 0)


main()
