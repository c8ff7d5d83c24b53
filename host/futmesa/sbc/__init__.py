"""A table whose sensors are on a Linux board's header: the firmware's own loop under CPython.

`device` runs firmware/ (app, inputs, match clock, lance, buzzer, link) in a process of its
own with the Linux board layer (firmware/boards/linux.py); `mpcompat` gives that process the
few MicroPython names the firmware uses; `simheader` is the header of a machine without a Pi
(simulated pins and VL53L0X sensors on a fake I2C bus, driven like the sim board).
"""
