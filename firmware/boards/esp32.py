"""ESP32 DevKitC: pins from board.json, data over the USB–UART bridge (the REPL's UART0).

Everything but the ESP32 specifics lives in boards.MachineBoard. GPIO 34–39
have no internal pull-ups (the board file lists them under external_pullups:
fit 10 kΩ to 3V3); `Pin.PULL_UP` on them is ignored by the chip.
"""

from boards import MachineBoard


class Esp32Board(MachineBoard):
    name = "esp32"
    wdt_ms = 4000
    state_dir = "/state"

    def unique_id(self):
        # the 6-byte base MAC address, padded to the 8 bytes HELLO_ACK carries
        uid = self.machine.unique_id()
        return bytes(uid[:8]) + bytes(8 - min(8, len(uid)))
