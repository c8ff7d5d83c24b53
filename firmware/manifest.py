# Freezes the futmesa firmware into a MicroPython build, so its bytecode runs from flash
# and the heap holds only the firmware's data (docs/firmware.md, "Memory").
#   make -C ports/rp2 BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/futmesa/firmware/manifest.py
#   make -C ports/esp32 BOARD=ESP32_GENERIC FROZEN_MANIFEST=/path/to/futmesa/firmware/manifest.py
# main.py and board.json stay as files on the board's flash (`futmesa flash` copies them).
include("$(PORT_DIR)/boards/manifest.py")  # noqa: F821 - manifest functions come from MicroPython's build
for name in ("futmesa_wire", "link", "app", "matchclock", "lance", "buzzer", "inputs", "nvstore"):
    module(name + ".py")  # noqa: F821
package("boards", files=("__init__.py", "pico.py", "esp32.py"))  # noqa: F821
# The ToF build: Adafruit's VL53L0X driver through the on-board adapter. Set
# FUTMESA_ADAFRUIT to the folder holding adafruit_vl53l0x.py and adafruit_bus_device/
# (the virtualenv's site-packages: `.venv/bin/python -c "import adafruit_vl53l0x as m;
# print(m.__file__)"` shows it).
module("futmesa_tof.py", base_path="$(MPY_DIR)/../../hardware/micropython")  # noqa: F821
module("adafruit_vl53l0x.py", base_path="$(FUTMESA_ADAFRUIT)")  # noqa: F821
package("adafruit_bus_device", files=("__init__.py", "i2c_device.py"),  # noqa: F821
        base_path="$(FUTMESA_ADAFRUIT)")
