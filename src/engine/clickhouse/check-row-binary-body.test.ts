import { describe, expect, it } from 'vitest';
import { checkRowBinaryBodyStart } from './clickhouse-http-engine.js';

describe('checkRowBinaryBodyStart', () => {
  it.each([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20])('refuses a body starting with the whitespace byte %i, which ClickHouse would skip', (byte) => {
    expect(() => checkRowBinaryBodyStart(Uint8Array.of(byte, 0x61))).toThrow(/starts with the whitespace byte/);
  });

  it("passes a body starting with a UUID tenant id's length, and an empty one", () => {
    expect(() => checkRowBinaryBodyStart(Uint8Array.of(36, 0x61))).not.toThrow();
    expect(() => checkRowBinaryBodyStart(new Uint8Array(0))).not.toThrow();
  });
});
