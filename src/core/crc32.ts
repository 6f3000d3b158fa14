/**
 * The CRC-32 of zip and gzip (IEEE 802.3, reflected 0xEDB88320), continued from `previous` (the
 * CRC of the bytes before, 0 at the start) as `zlib.crc32` does. `zlib.crc32` exists only from
 * Node 20.15 and this package supports 20.11: it is used where present (native, several GB/s),
 * else a table-driven loop.
 */
import * as zlib from 'node:zlib';

const native = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;

const table = new Uint32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** The CRC-32 of `previous`'s bytes followed by `bytes`. */
export function crc32(bytes: Uint8Array, previous = 0): number {
  return native ? native(bytes, previous) : crc32InJs(bytes, previous);
}

/** The loop `crc32` falls back to; exported for the test that holds it equal to zlib's. */
export function crc32InJs(bytes: Uint8Array, previous = 0): number {
  let crc = (previous ^ 0xffffffff) >>> 0;
  for (const byte of bytes) crc = (table[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
