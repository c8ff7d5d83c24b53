# Freezes the futmesa firmware into a MicroPython build, so its bytecode runs from flash
# and the heap holds only the firmware's data (docs/firmware.md, "Memory").
#   make -C ports/rp2 BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/futmesa/firmware/manifest.py
#   make -C ports/esp32 BOARD=ESP32_GENERIC FROZEN_MANIFEST=/path/to/futmesa/firmware/manifest.py
# main.py and board.json stay as files on the board's flash (`futmesa flash` copies them).
include("$(PORT_DIR)/boards/manifest.py")  # noqa: F821 - manifest functions come from MicroPython's build
for name in ("futmesa_wire", "link", "app", "matchclock", "lance", "buzzer", "inputs", "nvstore"):
    module(name + ".py")  # noqa: F821
package("boards", files=("__init__.py", "pico.py", "esp32.py", "vl53l0x.py"))  # noqa: F821
