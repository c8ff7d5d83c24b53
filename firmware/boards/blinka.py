"""The few `machine` names MachineBoard uses, made of Adafruit Blinka: the Linux board's hardware.

CPython only (a Raspberry Pi running futmesa): pins through `digitalio`, the
I2C bus through `busio` (what Adafruit's VL53L0X driver runs on, through the
same futmesa_tof adapter as on the Pico), the buzzer through `pwmio` where
the Pi offers it, else switched on and off (an active buzzer). Blinka has no
pin interrupts: the Linux board polls its break-beams every loop pass. The
watchdog is systemd's (WatchdogSec=, `sd_notify` WATCHDOG=1): the Pi has none
of its own that a process may hold, and systemd restarts a futmesa that hangs.
"""

import os
import sys
import time

_HELP = ("on a Raspberry Pi: pip install -e '.[hardware]', enable I2C with "
         "`sudo raspi-config nonint do_i2c 0`, reboot, and run futmesa as a user in the "
         "gpio and i2c groups (docs/install.md)")


class PinsUnavailable(OSError):
    """The Pi's pins cannot be opened: `what` is "blinka", "pin" or "i2c" (the host words it)."""

    def __init__(self, what, detail, machine="?"):
        OSError.__init__(self, "%s: %s (%s); %s" % (what, detail, machine, _HELP))
        self.what = what
        self.detail = detail
        self.machine = machine


def _blinka():
    try:
        import board  # type: ignore[import-not-found]
        import digitalio  # type: ignore[import-not-found]
    except Exception as exc:  # noqa: BLE001 - Blinka raises many kinds on other machines
        raise PinsUnavailable("blinka", repr(exc)) from exc
    return board, digitalio


class BlinkaMachine:
    """`machine.Pin`, `I2C`, `PWM`, `WDT`, `unique_id` and `reset` on a Linux board."""

    def __init__(self):
        self.board, self.digitalio = _blinka()
        machine = self

        class Pin:
            IN = 0
            OUT = 1
            PULL_UP = 1
            IRQ_RISING = 1
            IRQ_FALLING = 2

            def __init__(self, n, mode=0, pull=None, value=None):
                self.n = int(n)
                self.io = machine.digital(self.n)
                if mode == Pin.OUT:
                    self.io.switch_to_output(value=bool(value))
                elif pull == Pin.PULL_UP:
                    self.io.switch_to_input(pull=machine.digitalio.Pull.UP)
                else:
                    self.io.switch_to_input()

            def value(self, v=None):
                if v is None:
                    return 1 if self.io.value else 0
                self.io.value = bool(v)
                return None

            def irq(self, handler=None, trigger=0, hard=False):
                return None  # no pin interrupts under Linux: read every loop pass

        self.Pin = Pin

    def digital(self, n):
        name = "D%d" % n
        machine = getattr(self.board, "board_id", "?")
        if not hasattr(self.board, name):
            raise PinsUnavailable("pin", name, machine)
        try:
            return self.digitalio.DigitalInOut(getattr(self.board, name))
        except Exception as exc:  # noqa: BLE001 - permissions, a pin in use...
            raise PinsUnavailable("pin", "%s: %r" % (name, exc), machine) from exc

    def I2C(self, bus_id, sda=None, scl=None, freq=400000):  # noqa: N802 - machine's name
        import busio  # type: ignore[import-not-found]

        try:
            return _MachineI2C(busio.I2C(self.board.SCL, self.board.SDA, frequency=freq))
        except Exception as exc:  # noqa: BLE001
            raise PinsUnavailable("i2c", repr(exc),
                                  getattr(self.board, "board_id", "?")) from exc

    def PWM(self, pin):  # noqa: N802 - machine's name
        return _Buzzer(self, pin)

    def WDT(self, timeout=4000):  # noqa: N802 - machine's name
        return _SystemdWatchdog()

    def unique_id(self):
        """8 bytes: the Pi's serial number (/proc/cpuinfo), else the machine id."""
        for path, key in (("/proc/cpuinfo", "Serial"), ("/etc/machine-id", "")):
            try:
                with open(path) as f:
                    for line in f:
                        if line.startswith(key):
                            text = line.split(":")[-1].strip()[-8:]
                            if text:
                                return text.encode()
            except OSError:
                pass
        return b"LINUX000"

    def reset(self):
        sys.exit(0)  # systemd (Restart=always) starts futmesa again


class _MachineI2C:
    """`machine.I2C`'s writeto / readfrom_into / scan on a locked `busio.I2C`."""

    def __init__(self, bus):
        self.bus = bus

    def _locked(self):
        while not self.bus.try_lock():
            pass

    def scan(self):
        self._locked()
        try:
            return self.bus.scan()
        finally:
            self.bus.unlock()

    def writeto(self, address, buf, stop=True):
        self._locked()
        try:
            self.bus.writeto(address, buf)
        finally:
            self.bus.unlock()
        return len(buf)

    def readfrom_into(self, address, buf, stop=True):
        self._locked()
        try:
            self.bus.readfrom_into(address, buf)
        finally:
            self.bus.unlock()


class _Buzzer:
    """`machine.PWM` on the buzzer's GPIO: a tone through pwmio, else on/off (active buzzer)."""

    def __init__(self, machine, pin):
        self._pwm = None
        self._io = None
        try:
            import pwmio  # type: ignore[import-not-found]

            self._pwm = pwmio.PWMOut(getattr(machine.board, "D%d" % pin.n), frequency=2700,
                                     duty_cycle=0, variable_frequency=True)
            pin.io.deinit()
        except Exception:  # noqa: BLE001 - no PWM here: the pin as a switch
            self._io = pin.io
            self._io.switch_to_output(value=False)

    def freq(self, hz):
        if self._pwm is not None:
            self._pwm.frequency = int(hz)

    def duty_u16(self, duty):
        if self._pwm is not None:
            self._pwm.duty_cycle = int(duty)
        elif self._io is not None:
            self._io.value = duty > 0


class _SystemdWatchdog:
    """Tells systemd the loop is alive (sd_notify WATCHDOG=1, at most once a second)."""

    def __init__(self):
        self._addr = os.environ.get("NOTIFY_SOCKET")  # type: ignore[attr-defined]  # CPython
        self._sock = None
        self._last = 0.0
        if self._addr:
            import socket

            if self._addr.startswith("@"):
                self._addr = "\0" + self._addr[1:]
            self._sock = socket.socket(socket.AF_UNIX,  # type: ignore[attr-defined]  # CPython
                                       socket.SOCK_DGRAM)

    def feed(self):
        if self._sock is None:
            return
        now = time.monotonic()  # type: ignore[attr-defined]  # CPython
        if now - self._last >= 1.0:
            self._last = now
            try:
                self._sock.sendto(b"WATCHDOG=1", self._addr)
            except OSError:
                pass
