import { describe, expect, it } from 'vitest';
import { checkInsertBodyStart } from './clickhouse-http-engine.js';

describe('checkInsertBodyStart', () => {
  it.each([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20])('refuses a body starting with the whitespace byte %i, which ClickHouse would skip', (byte) => {
    expect(() => checkInsertBodyStart(Uint8Array.of(byte, 0x61))).toThrow(/starts with the whitespace byte/);
  });

  it("passes a body starting with a Native block's column count, and an empty one", () => {
    expect(() => checkInsertBodyStart(Uint8Array.of(0x8c, 0x01))).not.toThrow();
    expect(() => checkInsertBodyStart(new Uint8Array(0))).not.toThrow();
  });
});
