"""The virtual Pico's I2C devices: fakei2c's VL53L0X register model behind a line protocol.

tools/vpico/harness.js starts `python -m futmesa.sim.i2cmodel --req FIFO --resp FIFO
--board pico.json` and forwards every I2C transaction of the emulated RP2040 here, so
the emulated board and the host-side tests share ONE sensor model
(futmesa.hardware.fakei2c.FakeVL53L0X), not two copies. One request line, one answer:

| request | answer | meaning |
|---|---|---|
| `N` | `ok` | nothing (the answer's address list is what the harness wants) |
| `C <addr hex>` | `1` / `0` | does a device acknowledge this address? |
| `W <addr hex> <bytes hex>` | `1` / `0` | a write transaction |
| `R <addr hex>` | `<byte hex>` / `-` | read one byte (the register index auto-increments) |
| `P <sensor> <0/1>` | `ok` | the sensor's XSHUT line (power) |
| `D <sensor> <mm>` | `ok` | what the sensor measures from now on |
| `X <sensor> <0/1>` | `ok` | 1: the sensor stops answering (a broken cable) |

Every answer is followed by a space and the addresses that acknowledge now (hex,
comma-separated, `-` for none), so the harness answers the next address phase
from that without a round trip, and sends writes along with the next request.
"""

from __future__ import annotations

import argparse
import json
import sys

from futmesa.children import watch_parent
from futmesa.hardware.fakei2c import FakeI2C, FakeVL53L0X


class Bus:
    """The sensors of a board file on one fake bus, driven by request lines."""

    def __init__(self, board: dict) -> None:
        self.sensors: dict[int, FakeVL53L0X] = {}
        for g in board.get("goal_sensors", []):
            if g.get("type") == "vl53l0x":
                # XSHUT low until the firmware drives it (the harness sends P lines)
                self.sensors[int(g["id"])] = FakeVL53L0X(distance_mm=120, powered=False)
        self.bus = FakeI2C(list(self.sensors.values()))

    def _device(self, addr: int) -> FakeVL53L0X | None:
        try:
            return self.bus._find(addr)  # noqa: SLF001 - the model's own address logic
        except OSError:
            return None

    def handle(self, line: str) -> str:
        words = line.split()
        if not words:
            return "-"
        op = words[0]
        if op == "N":
            return "ok"  # nothing: just the addresses that acknowledge
        if op == "C":
            return "1" if self._device(int(words[1], 16)) else "0"
        if op == "W":
            dev = self._device(int(words[1], 16))
            if dev is None:
                return "0"
            dev.on_write(bytes.fromhex(words[2]) if len(words) > 2 else b"")
            return "1"
        if op == "R":
            dev = self._device(int(words[1], 16))
            if dev is None:
                return "-"
            return f"{dev.on_read(1)[0]:02x}"
        sensor = self.sensors.get(int(words[1]))
        if sensor is None:
            return "ok"
        if op == "P":
            sensor.power(words[2] == "1")
        elif op == "D":
            sensor.distance_mm = int(words[2])
        elif op == "X":
            sensor.dead = words[2] == "1"
        return "ok"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--req", required=True)
    parser.add_argument("--resp", required=True)
    parser.add_argument("--board", required=True)
    opts = parser.parse_args(argv)
    watch_parent()  # SIGTERM when the harness dies, even if it never closes its pipe
    with open(opts.board) as f:
        bus = Bus(json.load(f))
    # open in the harness's order (it opens req for writing first): no deadlock
    with open(opts.req, "rb", buffering=0) as req, open(opts.resp, "wb", buffering=0) as resp:
        pending = b""
        while True:
            chunk = req.read(4096)
            if not chunk:
                return  # the harness is gone
            pending += chunk
            while b"\n" in pending:
                raw, pending = pending.split(b"\n", 1)
                answer = "-"
                for request in raw.decode().split(";"):  # writes ride along with a request
                    try:
                        answer = bus.handle(request)
                    except (ValueError, IndexError):
                        answer = "-"
                present = ",".join(f"{a:x}" for a in bus.bus.scan()) or "-"
                resp.write(f"{answer} {present}\n".encode())


if __name__ == "__main__":
    sys.exit(main())
