'use strict';
/** UF2 files (the BOOTSEL drive's format): 512-byte blocks, each 256 bytes for one flash address. */
const MAGIC0 = 0x0a324655;
const MAGIC1 = 0x9e5d5157;
const MAGIC_END = 0x0ab16f30;
const FLAG_NOT_MAIN_FLASH = 0x1;
const FLAG_FAMILY = 0x2000;
const RP2040_FAMILY = 0xe48bff56;

function uf2ToBlocks(buf) {
  if (buf.length === 0 || buf.length % 512) throw new Error('not a whole number of 512-byte blocks');
  const blocks = [];
  for (let off = 0; off < buf.length; off += 512) {
    const v = new DataView(buf.buffer, buf.byteOffset + off, 512);
    if (v.getUint32(0, true) !== MAGIC0 || v.getUint32(4, true) !== MAGIC1
        || v.getUint32(508, true) !== MAGIC_END) {
      throw new Error('bad UF2 magic in block ' + off / 512);
    }
    const flags = v.getUint32(8, true);
    if (flags & FLAG_NOT_MAIN_FLASH) continue;
    if (flags & FLAG_FAMILY && v.getUint32(28, true) !== RP2040_FAMILY) continue;
    const addr = v.getUint32(12, true);
    const size = v.getUint32(16, true);
    const total = v.getUint32(24, true);
    if (size > 476 || addr < 0x10000000) throw new Error('bad UF2 block ' + off / 512);
    blocks.push({ addr, total, data: buf.subarray(off + 32, off + 32 + size) });
  }
  return blocks;
}

module.exports = { uf2ToBlocks, RP2040_FAMILY };
