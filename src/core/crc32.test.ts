import { describe, expect, it } from 'vitest';
import * as zlib from 'node:zlib';
import { crc32, crc32InJs } from './crc32.js';

describe('crc32', () => {
  it('gives the check value of the standard and continues across pieces', () => {
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
    expect(crc32InJs(Buffer.from('123456789'))).toBe(0xcbf43926);
    expect(crc32InJs(Buffer.from('56789'), crc32InJs(Buffer.from('1234')))).toBe(0xcbf43926);
    expect(crc32InJs(new Uint8Array())).toBe(0);
  });

  it('matches the CRC gzip writes in its trailer', () => {
    const data = Buffer.from(Array.from({ length: 5000 }, (_, i) => `line ${i} ✓`).join('\n'));
    const gz = zlib.gzipSync(data);
    const trailerCrc = gz.readUInt32LE(gz.length - 8);
    expect(crc32InJs(data)).toBe(trailerCrc);
    expect(crc32(data.subarray(1000), crc32(data.subarray(0, 1000)))).toBe(trailerCrc);
  });
});
