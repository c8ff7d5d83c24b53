#!/usr/bin/env node
'use strict';
/**
 * futmesa's virtual Pico: the MicroPython RPI_PICO image on the rp2040js emulator.
 *
 *   node harness.js --rom ROM.bin [--image futmesa-pico.bin|.uf2] [--flash-file FLASH.img]
 *                   [--port DEVICE_TTY] [--board hardware/boards/pico.json]
 *                   [--i2c-model "python -m futmesa.sim.i2cmodel"] [--bootsel DIR]
 *
 * - USB CDC is bridged to DEVICE_TTY (one end of a socat pty pair: the host opens the
 *   other end, as it opens a board's /dev/ttyACM0). Host -> device bytes are paced:
 *   rp2040js's CDC FIFO holds 512 bytes and drops the rest, so the harness keeps its
 *   own queue and tops the FIFO up as the device drains it.
 * - stdin is the sim board's control channel (docs/architecture.md, "Simulated board
 *   control channel"): goal, beam, tof, i2c N dead|ok, out, net, palheta, button,
 *   unplug, replug, plus reset (the reset button), time, save, flash-wp on|off.
 *   They drive the real pins of the board file (inputs pulled up, active low).
 * - stdout is the observation channel: BUZ <freq> <duty> (read back from the PWM
 *   registers of the buzzer pin), LED <0|1> <device_us>, EV <boot> <seq> <kind> for every event
 *   frame the device writes on the CDC (and EVUS <boot> <seq> <kind> <device_us>, when its
 *   bytes left), EDGE goal|out <n> <device_us> (a `goal` ball leaving the line, an `out`
 *   net closing), RESET <why>, TIME <device_ms>, LOG <text>.
 * - I2C transactions go, one line each, to a small Python process running the same
 *   VL53L0X register model the host-side fake bus uses (host/futmesa/hardware/fakei2c.py).
 * - The watchdog (and machine.reset(), which fires it) reboots the chip with its
 *   flash kept; the SPI flash is emulated behind the SSI (flash.js), so littlefs
 *   writes persist across resets and, with --flash-file, across runs.
 * - BOOTSEL: with --bootsel DIR the board starts in (or, through machine.bootloader(),
 *   enters) its USB boot mode: a .uf2 file written to DIR is flashed and the board
 *   reboots into it.
 * - It ends (saving the flash file) when stdin closes, on SIGTERM, SIGINT or SIGHUP,
 *   or when the process that started it is gone (its parent pid changes).
 */
const parentPid = process.ppid; // first: the watchdog below compares against it
const fs = require('fs');
const os = require('os');
const path = require('path');
const tty = require('tty');
const readline = require('readline');
const { spawn, execFileSync } = require('child_process');
const { Simulator, USBCDC } = require('rp2040js');
const { SpiFlash, FlashSSI, QspiIO } = require('./flash.js');
const { uf2ToBlocks } = require('./uf2.js');
const { FrameSniffer } = require('./frames.js');

const FLASH_SIZE = 2 * 1024 * 1024; // RPI_PICO: 2 MiB
const CDC_FIFO_FILL = 256; // host -> device bytes kept in the emulated CDC FIFO
const REOPEN_MS = 300; // wall ms between attempts to reopen a vanished port
const BOOT_MAGIC = 0xb007c0d3;

// ---------------------------------------------------------------------------
function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    if (argv[i].startsWith('--')) {
      const key = argv[i].slice(2);
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) out[key] = true;
      else { out[key] = next; i++; }
    }
  }
  return out;
}

const args = parseArgs(process.argv.slice(2));
const startWall = Date.now();
const say = (line) => process.stdout.write(line + '\n');
const log = (text) => say('LOG ' + text);

if (!args.rom) {
  process.stderr.write('usage: harness.js --rom ROM.bin [--image IMG] [--flash-file F] [--port TTY]\n');
  process.exit(2);
}

const romBytes = fs.readFileSync(args.rom);
const rom = new Uint32Array(romBytes.buffer, romBytes.byteOffset, romBytes.length / 4);
const board = JSON.parse(fs.readFileSync(args.board || path.join(__dirname, '../../hardware/boards/pico.json')));

// the flash: a file kept across runs (--flash-file), the image written over its start
const flash = new Uint8Array(FLASH_SIZE).fill(0xff);
if (args['flash-file'] && fs.existsSync(args['flash-file'])) {
  flash.set(fs.readFileSync(args['flash-file']).subarray(0, FLASH_SIZE));
}
function writeImage(file) {
  const data = fs.readFileSync(file);
  if (file.endsWith('.uf2')) {
    for (const b of uf2ToBlocks(data)) flash.set(b.data, b.addr - 0x10000000);
  } else {
    flash.set(data.subarray(0, FLASH_SIZE), 0);
  }
}
if (args.image) writeImage(args.image);

const uid = Buffer.from((args.uid || 'E66038B7132F5A2B').padEnd(16, '0').slice(0, 16), 'hex');

// ---------------------------------------------------------------------------
// persistence of the flash image (debounced; also at exit)
let saveTimer = null;
function saveFlash() {
  saveTimer = null;
  if (!args['flash-file']) return;
  const tmp = args['flash-file'] + '.tmp';
  fs.writeFileSync(tmp, chip ? chip.mem.subarray(0, FLASH_SIZE) : flash);
  fs.renameSync(tmp, args['flash-file']);
}
function flashChanged() {
  if (args['flash-file'] && !saveTimer) saveTimer = setTimeout(saveFlash, 200);
}

// ---------------------------------------------------------------------------
// the I2C model process: one request line, one answer line, over two FIFOs
class I2CModel {
  constructor(cmd) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vpico-i2c-'));
    this.dir = dir;
    const req = path.join(dir, 'req');
    const resp = path.join(dir, 'resp');
    execFileSync('mkfifo', [req, resp]);
    const words = cmd.split(' ').filter(Boolean);
    this.proc = spawn(words[0], [...words.slice(1), '--req', req, '--resp', resp,
      '--board', args.board || path.join(__dirname, '../../hardware/boards/pico.json')],
    { stdio: ['ignore', 'inherit', 'inherit'] });
    this.proc.on('exit', (code) => { if (!shuttingDown) log('i2c model exited with ' + code); });
    // same order as the model opens them: no deadlock
    this.wfd = fs.openSync(req, 'w');
    this.rfd = fs.openSync(resp, 'r');
    this.buf = Buffer.alloc(4096);
    this.pending = '';
    this.deferred = []; // writes not sent yet: they go with the next request
    this.present = null; // addresses that acknowledge, as of the last answer
  }

  /** A write transaction: sent with the next request, unless it may move an address. */
  write(addr, bytes) {
    this.deferred.push('W ' + addr.toString(16) + ' ' + Buffer.from(bytes).toString('hex'));
    if (bytes[0] === 0x8a) this.ask('N'); // the VL53L0X address register: update presence now
  }

  /** Does a device acknowledge this address? (no round trip once presence is known) */
  acks(addr) {
    if (this.present === null) this.ask('N');
    return this.present.has(addr);
  }

  /** One request (with any deferred writes before it); returns the answer, and keeps the
   * set of addresses that acknowledge (sent with every answer). */
  ask(line) {
    this.asks = (this.asks || 0) + 1;
    const req = this.deferred.length ? this.deferred.join(';') + ';' + line : line;
    this.deferred = [];
    fs.writeSync(this.wfd, req + '\n');
    for (;;) {
      const nl = this.pending.indexOf('\n');
      if (nl >= 0) {
        const [answer, present] = this.pending.slice(0, nl).split(' ');
        this.pending = this.pending.slice(nl + 1);
        this.present = new Set(present === '-' ? [] : present.split(',').map((a) => parseInt(a, 16)));
        return answer;
      }
      const n = fs.readSync(this.rfd, this.buf, 0, this.buf.length, null);
      if (n <= 0) throw new Error('i2c model closed its pipe');
      this.pending += this.buf.toString('latin1', 0, n);
    }
  }

  close() {
    try { fs.closeSync(this.wfd); } catch (e) { /* gone */ }
    try { this.proc.kill(); } catch (e) { /* gone */ }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
let model = null;
if (args['i2c-model']) model = new I2CModel(args['i2c-model']);

// ---------------------------------------------------------------------------
// pins from the board file
const activeLevel = board.input_active === 1;
const inputIdle = {}; // pin -> idle level
const netPins = [];
for (const z of [...board.side_net].sort((a, b) => a.zone - b.zone)) netPins[z.zone] = z.pin;
for (const p of netPins) inputIdle[p] = !activeLevel;
inputIdle[board.palheta.pin_a] = !activeLevel;
inputIdle[board.palheta.pin_b] = !activeLevel;
const buttonPins = {};
for (const [name, pin] of Object.entries(board.buttons || {})) {
  buttonPins[name] = pin;
  inputIdle[pin] = !activeLevel;
}
const beamPins = [];
const beamBlocked = [];
const xshutPins = [];
for (const g of board.goal_sensors) {
  if (g.beam_pin !== undefined) {
    beamPins[g.id] = g.beam_pin;
    beamBlocked[g.id] = !!(g.beam_blocked ?? 1);
    inputIdle[g.beam_pin] = !beamBlocked[g.id];
  }
  if (g.xshut !== undefined) xshutPins[g.id] = g.xshut;
}
const pinLevel = { ...inputIdle };
const buzzerPin = board.buzzer.pin;
const ledPin = board.led ? board.led.pin : -1;

// ---------------------------------------------------------------------------
// the chip
let sim = null;
let rp = null;
let cdc = null;
let chip = null;
let cdcReady = false;
let bootsel = false;
let boots = 0;
let lastReason = 0;
// the emulator's own complaints go to stderr: stdout is the observation channel
const quietLogger = {
  debug() {}, info() {}, warn() {},
  error(component, message) { if (args.verbose) process.stderr.write(`${component}: ${message}\n`); },
};

function devMs() {
  return rp ? Math.floor(rp.clock.nanos / 1e6) + baseMs : baseMs;
}
/** The device clock in µs (for edges: LED changes). */
function devUs() {
  return rp ? Math.floor(rp.clock.nanos / 1e3) + baseMs * 1000 : baseMs * 1000;
}
let baseMs = 0; // device time across reboots (the harness's, for pulses and TIME)

function boot(reason) {
  if (sim) {
    baseMs = devMs();
    sim.stop();
    flash.set(chip.mem.subarray(0, FLASH_SIZE));
  }
  bootsel = false;
  boots++;
  sim = new Simulator();
  rp = sim.rp2040;
  rp.logger = quietLogger;
  rp.loadBootrom(rom); // (this resets the chip, which erases rp2040js's flash array)
  rp.flash.set(flash);
  chip = new SpiFlash(rp.flash, FLASH_SIZE, uid);
  chip.onChange = flashChanged;
  chip.writeProtect = writeProtect;
  const qspi = new QspiIO(rp, 'IO_QSPI', chip);
  rp.peripherals[0x40018] = qspi;
  rp.peripherals[0x18000] = new FlashSSI(rp, 'SSI', chip, qspi);
  const wd = rp.peripherals[0x40058];
  wd.reason = lastReason;
  let fired = false;
  wd.onWatchdogTrigger = () => {
    // a reset stops the watchdog too (left running, its periodic alarm would fire
    // again and again inside the stopped emulator's last clock tick)
    wd.timer.enable = false;
    wd.alarm.enable = false;
    if (fired) return;
    fired = true;
    const scratch = wd.scratchData;
    lastReason = wd.reason;
    const toBootsel = scratch[4] === BOOT_MAGIC && scratch[7] < 0x4000 && args.bootsel;
    say('RESET ' + (toBootsel ? 'bootsel' : (wd.reason & 2 ? 'forced' : 'watchdog')) + ' ' + devMs() + ' ' + boots);
    setImmediate(() => (toBootsel ? enterBootsel() : boot('watchdog')));
    sim.stop();
  };
  for (const [pin, level] of Object.entries(pinLevel)) rp.gpio[pin].setInputValue(level);
  // outputs: XSHUT lines power the sensors, the LED is reported
  for (let i = 0; i < xshutPins.length; i++) {
    const pin = xshutPins[i];
    if (pin === undefined || !model) continue;
    let last = null;
    rp.gpio[pin].addListener(() => {
      const g = rp.gpio[pin];
      const v = g.outputEnable ? (g.outputValue ? 1 : 0) : 1; // not driven: the module's pull-up
      if (v !== last) { last = v; model.ask(`P ${i} ${v}`); }
    });
    model.ask(`P ${i} 1`);
  }
  if (ledPin >= 0) {
    let last = null;
    rp.gpio[ledPin].addListener(() => {
      const g = rp.gpio[ledPin];
      const v = g.outputEnable && g.outputValue ? 1 : 0;
      if (v !== last) { last = v; say('LED ' + v + ' ' + devUs()); }
    });
  }
  attachI2C(rp.i2c[board.i2c ? board.i2c.id : 0]);
  cdcReady = false;
  sniffer.reset();
  cdc = new USBCDC(rp.usbCtrl);
  cdc.onDeviceConnected = () => { cdcReady = true; };
  cdc.onSerialData = (buffer) => {
    sniffer.feed(buffer);
    writePort(buffer);
  };
  rp.core.PC = 0x10000000;
  lastBuz = null;
  sim.execute();
  if (reason) log(`booted (${reason}), boot ${boots}`);
}

function enterBootsel() {
  if (sim) {
    baseMs = devMs();
    sim.stop();
    flash.set(chip.mem.subarray(0, FLASH_SIZE));
    sim = null;
  }
  if (bootsel) return;
  bootsel = true;
  cdcReady = false;
  fs.mkdirSync(args.bootsel, { recursive: true });
  fs.writeFileSync(path.join(args.bootsel, 'INFO_UF2.TXT'),
    'UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\nBoard-ID: RPI-RP2\n');
  say('BOOTSEL ' + args.bootsel); // (the drive is there once this is said)
}

function pollBootsel() {
  if (!bootsel) return;
  let files;
  try { files = fs.readdirSync(args.bootsel); } catch (e) { return; }
  for (const name of files) {
    if (!name.toLowerCase().endsWith('.uf2')) continue;
    const file = path.join(args.bootsel, name);
    let data;
    try {
      const st = fs.statSync(file);
      if (st.size === 0 || st.size % 512) continue; // still being copied
      data = fs.readFileSync(file);
    } catch (e) { continue; }
    let blocks;
    try { blocks = uf2ToBlocks(data); } catch (e) { log('not a UF2 file: ' + name); fs.rmSync(file); continue; }
    const total = blocks.length ? blocks[0].total : 0;
    if (blocks.length < total) continue; // a partial copy: wait for the rest
    for (const b of blocks) flash.set(b.data, b.addr - 0x10000000);
    fs.rmSync(file);
    say(`UF2 ${name} ${blocks.length} blocks`);
    if (args['flash-file']) {
      fs.writeFileSync(args['flash-file'] + '.tmp', flash);
      fs.renameSync(args['flash-file'] + '.tmp', args['flash-file']);
    }
    fs.rmSync(path.join(args.bootsel, 'INFO_UF2.TXT'), { force: true });
    boot('uf2');
    return;
  }
}

// ---------------------------------------------------------------------------
// I2C: each transaction, one line to the model
function attachI2C(i2c) {
  let addr = -1;
  let writing = [];
  const flushWrite = () => {
    if (addr >= 0 && writing.length && model) model.write(addr, writing);
    writing = [];
  };
  i2c.onStart = () => { flushWrite(); i2c.completeStart(); };
  i2c.onConnect = (address, mode) => {
    flushWrite();
    addr = address;
    const ok = model ? model.acks(address) : false;
    i2c.completeConnect(ok);
  };
  i2c.onWriteByte = (value) => { writing.push(value); i2c.completeWrite(true); };
  i2c.onReadByte = () => {
    flushWrite();
    const v = model ? parseInt(model.ask('R ' + addr.toString(16)), 16) : 0xff;
    i2c.completeRead(Number.isNaN(v) ? 0xff : v);
  };
  i2c.onStop = () => { flushWrite(); addr = -1; i2c.completeStop(); };
}

// ---------------------------------------------------------------------------
// the data channel: the device end of the pty pair
let portFd = null;
let portStream = null;
let portWanted = !!args.port;
let portLastTry = 0;
let unplugged = false;
const inQueue = [];
let dropped = 0;

function openPort() {
  portLastTry = Date.now();
  if (!args.port || unplugged || portFd !== null) return;
  let fd;
  try { fd = fs.openSync(args.port, fs.constants.O_RDWR | fs.constants.O_NOCTTY); } catch (e) { return; }
  portFd = fd;
  portStream = new tty.ReadStream(fd);
  portStream.setRawMode(true);
  portStream.on('data', (d) => { for (const b of d) inQueue.push(b); });
  const drop = () => closePort();
  portStream.on('error', drop);
  portStream.on('end', drop);
  portStream.on('close', drop);
}

function closePort() {
  if (portFd === null) return;
  const s = portStream;
  portFd = null;
  portStream = null;
  // bytes the host wrote before it closed the port are already on their way to the
  // device (mpremote's `reset` writes machine.reset() and exits at once): keep them
  try { s.destroy(); } catch (e) { /* gone */ }
}

function writePort(buffer) {
  if (portFd === null) { dropped += buffer.length; return; }
  try {
    fs.writeSync(portFd, buffer);
  } catch (e) {
    if (e.code === 'EAGAIN') dropped += buffer.length; // nobody reads: a full USB buffer
    else closePort();
  }
}

function pumpHostBytes() {
  if (!cdcReady || !cdc) return;
  while (inQueue.length && cdc.txFIFO.itemCount < CDC_FIFO_FILL) cdc.sendSerialByte(inQueue.shift());
}

// ---------------------------------------------------------------------------
// the buzzer, read back from the PWM slice of its pin
let lastBuz = null;
function pollBuzzer() {
  if (!rp) return;
  const slice = (buzzerPin >> 1) & 7;
  const ch = rp.pwm.channels[slice];
  const b = buzzerPin & 1;
  const gpio = rp.gpio[buzzerPin];
  let freq = 0;
  let duty = 0;
  const top = ch.top + 1;
  const cc = b ? ch.cc >>> 16 : ch.cc & 0xffff;
  if (ch.csr & 1 && gpio.functionSelect === 4 && cc > 0) {
    const div = (ch.div >> 4) + (ch.div & 0xf) / 16 || 256;
    freq = Math.round(rp.clkSys / (top * div));
    duty = Math.min(65535, Math.round((cc * 65535) / top));
  }
  const key = freq + ' ' + duty;
  if (key !== lastBuz) {
    lastBuz = key;
    say('BUZ ' + key);
  }
}

// ---------------------------------------------------------------------------
// the control channel
const timers = []; // [device ms, fn]
function after(ms, fn) { timers.push([devMs() + ms, fn]); }
function runTimers() {
  const now = devMs();
  for (let i = timers.length - 1; i >= 0; i--) {
    if (timers[i][0] <= now) { const fn = timers[i][1]; timers.splice(i, 1); fn(); }
  }
}
function setPin(pin, level) {
  pinLevel[pin] = level;
  if (rp && !bootsel) rp.gpio[pin].setInputValue(level);
}
const tofIdle = [120, 120];
let writeProtect = false;

const GOAL_MS = 150; // device ms a ball blocks a goal line (ToF: several samples)
const OUT_MS = 60;
const BUTTON_MS = 120;

function command(words) {
  const cmd = words[0];
  const n = (i) => { const v = parseInt(words[i], 10); if (Number.isNaN(v)) throw new Error('bad number'); return v; };
  switch (cmd) {
    case 'goal': {
      const i = n(1);
      const g = board.goal_sensors.find((s) => s.id === i);
      if (g && g.type === 'vl53l0x' && model) {
        model.ask(`D ${i} 20`);
        after(GOAL_MS, () => model.ask(`D ${i} ${tofIdle[i]}`));
      } else if (beamPins[i] !== undefined) {
        setPin(beamPins[i], beamBlocked[i]);
        after(GOAL_MS, () => setPin(beamPins[i], !beamBlocked[i]));
      }
      // the ball leaves the line: the goal-line event follows (device µs, for latency)
      after(GOAL_MS, () => say(`EDGE goal ${i} ${devUs()}`));
      break;
    }
    case 'beam': setPin(beamPins[n(1)], n(2) ? beamBlocked[n(1)] : !beamBlocked[n(1)]); break;
    case 'tof': tofIdle[n(1)] = n(2); if (model) model.ask(`D ${n(1)} ${n(2)}`); break;
    case 'i2c': if (model) model.ask(`X ${n(1)} ${words[2] === 'dead' ? 1 : 0}`); break;
    case 'out': {
      const pin = netPins[n(1)];
      setPin(pin, activeLevel);
      say(`EDGE out ${n(1)} ${devUs()}`); // the net's contact closes (device µs)
      after(OUT_MS, () => setPin(pin, !activeLevel));
      break;
    }
    case 'net': setPin(netPins[n(1)], n(2) ? activeLevel : !activeLevel); break;
    case 'palheta': {
      const pos = words[1];
      if (!['A', 'B', 'C'].includes(pos)) throw new Error('palheta A|B|C');
      setPin(board.palheta.pin_a, pos === 'A' ? activeLevel : !activeLevel);
      setPin(board.palheta.pin_b, pos === 'B' ? activeLevel : !activeLevel);
      break;
    }
    case 'button': {
      const pin = buttonPins[words[1]];
      if (pin === undefined) throw new Error('unknown button');
      setPin(pin, activeLevel);
      after(BUTTON_MS, () => setPin(pin, !activeLevel));
      break;
    }
    case 'unplug': unplugged = true; closePort(); inQueue.length = 0; break;
    case 'replug': unplugged = false; openPort(); break;
    case 'reset': say('RESET button'); boot('reset button'); break;
    case 'wdt': { // the watchdog times out, as when the loop stalls (only if the firmware armed it)
      const wd = rp && !bootsel ? rp.peripherals[0x40058] : null;
      if (!wd || !wd.enable) { log('the watchdog is not running'); break; }
      wd.reason = 1;
      wd.onWatchdogTrigger();
      break;
    }
    case 'bootsel': if (args.bootsel) { say('RESET bootsel'); enterBootsel(); } break;
    case 'time': say('TIME ' + devMs()); break;
    case 'stats': say(`STATS device_ms=${devMs()} wall_ms=${Date.now() - startWall} i2c=${model ? model.asks || 0 : 0} boots=${boots}`); break;
    case 'save': saveFlash(); say('SAVED'); break;
    case 'flash-wp': writeProtect = words[1] === 'on'; if (chip) chip.writeProtect = writeProtect; break;
    case 'ping': say('PONG'); break;
    default: log('unknown sim command: ' + words.join(' '));
  }
}

const rl = readline.createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const words = line.trim().split(/\s+/).filter(Boolean);
  if (!words.length) return;
  try { command(words); } catch (e) { log('bad sim command: ' + words.join(' ') + ' (' + e.message + ')'); }
});
let shuttingDown = false;
function shutdown() {
  if (shuttingDown) return;
  shuttingDown = true;
  if (sim) sim.stop();
  if (chip) flash.set(chip.mem.subarray(0, FLASH_SIZE));
  chip = null;
  if (args['flash-file']) saveFlash();
  if (model) model.close();
  process.exit(0);
}
rl.on('close', shutdown); // the process driving this board is gone: so is the board
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
process.on('SIGHUP', shutdown);
// a watchdog: the process that started this board is gone (it was killed and its pipe
// lingers, or the kernel's parent-death signal did not come): so is the board
setInterval(() => { if (process.ppid !== parentPid) shutdown(); }, 500);

// ---------------------------------------------------------------------------
const sniffer = new FrameSniffer((boot_, seq, kind) => {
  say(`EV ${boot_} ${seq} ${kind}`);
  say(`EVUS ${boot_} ${seq} ${kind} ${devUs()}`); // when the frame's bytes left on the CDC
});

setInterval(() => {
  if (!portFd && !unplugged && portWanted && Date.now() - portLastTry >= REOPEN_MS) openPort();
  pollBootsel();
}, 50);
// between the emulator's execution slices: pins, buzzer, host bytes
setInterval(() => {
  if (bootsel || !rp) return;
  runTimers();
  pollBuzzer();
  pumpHostBytes();
}, 2);

openPort();
if (args.bootsel && (args['start-bootsel'] || flash[0] === 0xff)) enterBootsel();
else boot(null);
