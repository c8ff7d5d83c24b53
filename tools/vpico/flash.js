'use strict';
/**
 * The Pico's SPI flash chip (a W25Q16-like 2 MiB part) behind the RP2040's SSI.
 *
 * rp2040js answers status reads only, so the writes MicroPython makes through the
 * boot ROM's flash_range_erase / flash_range_program are lost. Here the SSI's data
 * register feeds a command state machine, with chip select taken from the QSPI SS
 * pin's output override (what the ROM and the SDK drive by hand for every command):
 * write enable/disable, read status 1/2, page program (bits only go 1 -> 0, wrapping
 * inside the 256-byte page), 4K sector / 32K / 64K block / chip erase, read data,
 * fast read, JEDEC id and the 64-bit unique id. XIP reads go straight to the same
 * byte array, so what is programmed is what the CPU then reads.
 */
const path = require('path');
const { BasePeripheral } = require('rp2040js');
// the SSI class is not exported by the package: load it from the same (pinned) build
const { RPSSI } = require(path.join(path.dirname(require.resolve('rp2040js')), 'peripherals', 'ssi.js'));

const SSI_DR0 = 0x60;
const SSI_SR = 0x28;
const SSI_TXFLR = 0x20;
const SSI_RXFLR = 0x24;
const SSI_SSIENR = 0x08;
const SR_TFNF = 0x2;
const SR_TFE = 0x4;
const SR_RFNE = 0x8;
const RX_FIFO_DEPTH = 16;

const SS_CTRL = 0x0c; // IO_QSPI GPIO_QSPI_SS_CTRL
const OUTOVER_SHIFT = 8;
const OUTOVER_LOW = 2;

const PAGE = 256;

class SpiFlash {
  constructor(mem, size, uid) {
    this.mem = mem; // the emulator's flash array (XIP reads see every change)
    this.size = size;
    this.uid = uid; // 8 bytes
    this.wel = false;
    this.active = false;
    this.cmd = [];
    this.writes = 0; // erase / program operations done
    this.onChange = null; // called after each erase or program
    this.writeProtect = false; // true: the chip ignores erase and program (a worn-out part)
  }

  select() {
    this.active = true;
    this.cmd = [];
  }

  deselect() {
    if (!this.active) return;
    this.active = false;
    const c = this.cmd;
    if (!c.length) return;
    const op = c[0];
    const addr = c.length >= 4 ? ((c[1] << 16) | (c[2] << 8) | c[3]) % this.size : -1;
    let changed = false;
    if (op === 0x06) {
      this.wel = true;
    } else if (op === 0x04) {
      this.wel = false;
    } else if ((op === 0x20 || op === 0x52 || op === 0xd8) && addr >= 0) {
      if (this.wel && !this.writeProtect) {
        const span = op === 0x20 ? 4096 : op === 0x52 ? 32768 : 65536;
        const start = addr - (addr % span);
        this.mem.fill(0xff, start, Math.min(start + span, this.size));
        changed = true;
      }
      this.wel = false;
    } else if (op === 0xc7 || op === 0x60) {
      if (this.wel && !this.writeProtect) {
        this.mem.fill(0xff, 0, this.size);
        changed = true;
      }
      this.wel = false;
    } else if (op === 0x02) {
      changed = this.programmed;
      this.wel = false;
    } else if (op === 0x01 || op === 0x31) {
      this.wel = false; // status register writes: accepted, nothing modelled
    }
    this.programmed = false;
    if (changed) {
      this.writes++;
      if (this.onChange) this.onChange();
    }
  }

  /** One byte clocked out to the chip; returns the byte clocked in. */
  transfer(value) {
    if (!this.active) return 0;
    const c = this.cmd;
    const i = c.length;
    c.push(value & 0xff);
    const op = c[0];
    switch (op) {
      case 0x05: // read status 1: BUSY never set (operations complete at once), WEL
        return i >= 1 ? (this.wel ? 0x02 : 0) : 0;
      case 0x35: // read status 2: QE set
        return i >= 1 ? 0x02 : 0;
      case 0x9f: // JEDEC id: Winbond W25Q16
        return [0, 0xef, 0x40, 0x15][i] ?? 0;
      case 0x4b: // unique id: 4 dummy bytes, then 8 id bytes
        return i >= 5 && i < 13 ? this.uid[i - 5] : 0;
      case 0x03: // read data
      case 0x0b: { // fast read (one dummy byte)
        const first = op === 0x03 ? 4 : 5;
        if (i < first) return 0;
        const addr = (((c[1] << 16) | (c[2] << 8) | c[3]) + (i - first)) % this.size;
        return this.mem[addr];
      }
      case 0x02: { // page program: data wraps inside the page
        if (i < 4 || !this.wel || this.writeProtect) return 0;
        const base = ((c[1] << 16) | (c[2] << 8) | c[3]) % this.size;
        const page = base - (base % PAGE);
        const addr = page + (((base % PAGE) + (i - 4)) % PAGE);
        this.mem[addr] &= value & 0xff;
        this.programmed = true;
        return 0;
      }
      default:
        return 0;
    }
  }
}

/** The SSI with a receive FIFO: every byte written to DR0 is clocked through the chip. */
class FlashSSI extends RPSSI {
  constructor(rp2040, name, chip, qspi) {
    super(rp2040, name);
    this.chip = chip;
    this.qspi = qspi;
    this.rx = [];
  }

  readUint32(offset) {
    switch (offset) {
      case SSI_DR0:
        return this.rx.length ? this.rx.shift() : 0;
      case SSI_RXFLR:
        return this.rx.length;
      case SSI_TXFLR:
        return 0;
      case SSI_SR:
        return SR_TFE | SR_TFNF | (this.rx.length ? SR_RFNE : 0);
    }
    return super.readUint32(offset);
  }

  writeUint32(offset, value) {
    if (offset === SSI_DR0) {
      // chip select driven by hand (ROM / SDK flash commands): the chip answers;
      // otherwise (boot2's automatic chip select, XIP set-up) answer 0 as before
      const answer = this.qspi.csLow ? this.chip.transfer(value) : 0;
      if (this.rx.length < RX_FIFO_DEPTH) this.rx.push(answer);
      return;
    }
    if (offset === SSI_SSIENR && !(value & 1)) {
      this.rx = []; // disabling the SSI empties its FIFOs
    }
    super.writeUint32(offset, value);
  }
}

/** IO_QSPI: keeps its registers; the SS pin's output override is the flash chip select. */
class QspiIO extends BasePeripheral {
  constructor(rp2040, name, chip) {
    super(rp2040, name);
    this.chip = chip;
    this.regs = new Uint32Array(12);
    this.csLow = false;
  }

  readUint32(offset) {
    if (offset < 0x30) return this.regs[offset >> 2];
    return 0;
  }

  writeUint32(offset, value) {
    if (offset >= 0x30) return;
    this.regs[offset >> 2] = value >>> 0;
    if (offset === SS_CTRL) {
      const low = ((value >>> OUTOVER_SHIFT) & 3) === OUTOVER_LOW;
      if (low && !this.csLow) this.chip.select();
      else if (!low && this.csLow) this.chip.deselect();
      this.csLow = low;
    }
  }
}

module.exports = { SpiFlash, FlashSSI, QspiIO };
