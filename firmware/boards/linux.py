"""Linux single-board computer (Raspberry Pi): the firmware's own loop under CPython, pins through Blinka.

The same App, inputs, match clock, lance timer, buzzer and link as on the
Pico, with MachineBoard's pin handling on a `machine` made of Blinka
(boards.blinka) — or, on a machine without a Pi, of simulated pins and
VL53L0X sensors on a fake I2C bus (futmesa.sbc.simheader, injected by the
host). The data channel is a pseudo-terminal the daemon opened for it
(boards.ptyport); the flash is a folder on the SD card (`--state`).

What differs from the Pico: the Pi's clock is the host's (one machine keeps
the official time), there is no watchdog of its own (systemd's, see
boards.blinka), and nothing stops the Pi's Linux from pausing the loop for a
moment, which only delays a reading (break-beams are polled, no interrupts).
"""

import sys
import time

from boards import MachineBoard
from boards.ptyport import PtyPort


class LinuxBoard(MachineBoard):
    name = "rpi"
    tick_bits = 30  # the ticks ring of futmesa_wire's CPython ticks, as on rp2
    state_dir = "state"

    def __init__(self, args, machine=None):
        if machine is None:
            from boards.blinka import BlinkaMachine

            machine = BlinkaMachine()
        self.speed = int(args.get("speed", "1"))
        self.tick_rate = 1000 * self.speed  # device ms per 1000 real ms
        self._t0 = time.monotonic()  # type: ignore[attr-defined]  # CPython
        self.port = PtyPort(args.get("port"))
        if self.speed > 1:
            # at speed N one loop pass spans N times more device time (as the sim board)
            self.tuning = {"stuck_ms": max(4000, self.speed * 40)}
        super().__init__(args, machine)
        attach = getattr(machine, "attach", None)
        if attach is not None:
            attach(self)  # the simulated header: device time, the port (unplug)

    # -- time ------------------------------------------------------------------
    def ticks_ms(self):
        now = time.monotonic()  # type: ignore[attr-defined]  # CPython
        elapsed = int((now - self._t0) * 1000 * self.speed)
        return elapsed & ((1 << 30) - 1)

    def real_ms(self):
        return time.ticks_ms()

    def idle(self):
        time.sleep(0.0002 if self.speed > 1 else 0.0005)

    # -- data channel ----------------------------------------------------------
    def _open_channel(self, dc):
        pass  # the pty is opened in __init__ (self.port)

    def port_ready(self):
        return self.port.ready()

    def port_readinto(self, buf):
        return self.port.readinto(buf)

    def port_write(self, buf, n=-1):
        return self.port.write(buf, n)

    # -- outputs ---------------------------------------------------------------
    def log(self, text):
        print("LOG", text)  # stdout is not the data channel here: the service's journal

    def service(self):
        service = getattr(self.machine, "service", None)
        if service is not None:
            service()

    def to_repl(self, store):
        """CMD_REPL: a Pi has no REPL to hand back; the table's process ends (systemd or
        futmesa starts it again)."""
        self.buzzer(0, 0)
        self.log("leaving the loop (host request): the table process exits")
        self.port.drop()
        sys.exit(0)
