"""Board layer: picks the board module by name; nothing else in the firmware touches hardware."""


def load(name, args):
    """Return a board object for `name` ("sim", "pico", "esp32")."""
    if name == "sim":
        from boards.sim import SimBoard

        return SimBoard(args)
    if name == "pico":
        from boards.pico import PicoBoard

        return PicoBoard(args)
    if name == "esp32":
        from boards.esp32 import Esp32Board

        return Esp32Board(args)
    raise ValueError("unknown board %r: use sim, pico or esp32" % name)
