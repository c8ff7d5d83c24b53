"""Raspberry Pi Pico / Pico W (RP2040): pins from board.json, data over the USB CDC port.

Everything but the RP2040 specifics lives in boards.MachineBoard. The data
channel is the REPL's USB port (`data_channel.type` "usb_cdc"), so Ctrl-C is
disabled and the bytes are read and written through sys.stdin/stdout.buffer.
"""

from boards import MachineBoard


class PicoBoard(MachineBoard):
    name = "pico"
    wdt_ms = 4000  # the RP2040 watchdog allows at most 8388 ms
    state_dir = "/state"

    def unique_id(self):
        # 8-byte flash unique id on the RP2040
        uid = self.machine.unique_id()
        return bytes(uid[:8])
