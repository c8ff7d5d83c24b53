'use strict';
/**
 * Watches the bytes the device writes on its USB CDC and reports every event frame
 * once (by boot id and sequence number): the ground truth "what the device emitted"
 * that tests compare the host's event log with (the unix-port sim board prints the
 * same `EV <boot> <seq> <kind>` lines when FUTMESA_TRACE_EVENTS is set).
 * Frames are COBS-encoded and end with a zero byte (docs/protocol.md); an event frame
 * decodes to 28 bytes: header <BBHII (version, type 0x01, boot, seq, ticks), kind, ...
 */
const MSG_EVENT = 0x01;
const EVENT_FRAME_SIZE = 28;
const MAX_FRAME = 256;

function cobsDecode(bytes) {
  const out = [];
  let i = 0;
  while (i < bytes.length) {
    const code = bytes[i++];
    if (code === 0) return null;
    for (let j = 1; j < code; j++) {
      if (i >= bytes.length) return null;
      out.push(bytes[i++]);
    }
    if (code < 0xff && i < bytes.length) out.push(0);
  }
  return out;
}

class FrameSniffer {
  constructor(onEvent) {
    this.onEvent = onEvent;
    this.seen = new Set();
    this.buf = [];
  }

  reset() {
    this.buf = []; // a reboot: a frame cut by the reset is dropped
  }

  feed(data) {
    for (const b of data) {
      if (b !== 0) {
        if (this.buf.length < MAX_FRAME) this.buf.push(b);
        continue;
      }
      const raw = this.buf;
      this.buf = [];
      if (!raw.length) continue;
      const f = cobsDecode(raw);
      if (!f || f.length !== EVENT_FRAME_SIZE || f[1] !== MSG_EVENT) continue;
      const boot = f[2] | (f[3] << 8);
      const seq = (f[4] | (f[5] << 8) | (f[6] << 16) | (f[7] << 24)) >>> 0;
      const key = boot + ':' + seq;
      if (this.seen.has(key)) continue;
      this.seen.add(key);
      this.onEvent(boot, seq, f[12]);
    }
  }
}

module.exports = { FrameSniffer, cobsDecode };
