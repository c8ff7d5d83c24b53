# Freezes the whole futmesa firmware into a MicroPython image, so its bytecode runs from flash,
# the heap holds only the firmware's data, and the board boots straight into futmesa
# (docs/firmware.md, "Pico image"). Built by `make firmware` (scripts/build-firmware.sh), which
# passes this file to MicroPython's build as MICROPY_FROZEN_MANIFEST.
#
# Paths: MicroPython's build runs this file from its own folder (firmware/), so relative paths
# are relative to firmware/; it expands only its own $(VARIABLES) and reads no environment.
# ../build/firmware/frozen/ is filled by scripts/build-firmware.sh before the build:
#   adafruit_vl53l0x.py, adafruit_bus_device/   Adafruit's VL53L0X driver, copied unmodified
#       from the virtualenv (the files `futmesa flash` copies to a stock MicroPython)
#   futmesa_default_board.py   hardware/boards/pico.json as a string: board.json at first boot
include("$(PORT_DIR)/boards/manifest.py")  # noqa: F821 - manifest functions come from MicroPython's build
# main.py frozen: MicroPython runs a frozen main.py in preference to one on the filesystem
for name in ("main", "futmesa_wire", "link", "app", "matchclock", "lance", "buzzer", "inputs",
             "nvstore", "startup", "wirecrc"):
    module(name + ".py")  # noqa: F821
package("boards", files=("__init__.py", "pico.py", "esp32.py"))  # noqa: F821
# the ToF build: Adafruit's driver on machine.I2C through the on-board adapter
module("futmesa_tof.py", base_path="../hardware/micropython")  # noqa: F821
module("adafruit_vl53l0x.py", base_path="../build/firmware/frozen")  # noqa: F821
package("adafruit_bus_device", files=("__init__.py", "i2c_device.py"),  # noqa: F821
        base_path="../build/firmware/frozen")
module("futmesa_default_board.py", base_path="../build/firmware/frozen")  # noqa: F821
