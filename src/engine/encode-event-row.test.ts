import { describe, expect, it } from 'vitest';
import { encodeEventRow } from './encode-event-row.js';
import type { EncodedEventRow, EventRowInput } from './engine.js';

const row: EventRowInput = {
  tenant: 'acme',
  indexId: 'main',
  tsNs: 1_704_164_645_123_456_789n,
  seq: 42n,
  sourceType: 'aws:cloudtrail',
  tsField: 'eventTime',
  rawJson: '{ "eventTime" : "2024-01-02T03:04:05.123456789Z" }',
  attrs: { eventTime: '2024-01-02T03:04:05.123456789Z' },
  nullPaths: ['a.b'],
  searchText: '2024-01-02T03:04:05.123456789Z',
};

/** Reads the head of a RowBinary row of the insert columns back (up to search_text), as ClickHouse reads it (LEB128 lengths, little-endian integers). */
function decode(encoded: EncodedEventRow): Record<string, unknown> {
  const buffer = Buffer.from(encoded.head);
  let at = 0;
  const varUInt = (): number => {
    let value = 0;
    let shift = 0;
    for (;;) {
      if (at >= buffer.length) throw new Error(`a length runs past the row's ${buffer.length} bytes`);
      const byte = buffer[at++] as number;
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
      shift += 7;
    }
  };
  const string = (): string => {
    const length = varUInt();
    const text = buffer.toString('utf8', at, at + length);
    at += length;
    return text;
  };
  const tenant = string();
  const idx = string();
  const ts = buffer.readBigInt64LE(at);
  const seq = buffer.readBigUInt64LE(at + 8);
  at += 16;
  const out = { tenant, idx, ts, seq, source_type: string(), ts_field: string(), raw: string(), search_text: string() };
  expect(at).toBe(buffer.length);
  return out;
}

// The engine round trip of these rows is in the engine contract; here is their exact shape (the
// field columns after search_text are written by insertEvents, with the batch's field maps).
describe('encodeEventRow', () => {
  it('writes the head of one RowBinary row in table order: ts as Int64 nanoseconds, seq as UInt64, raw as its text', () => {
    expect(decode(encodeEventRow(row))).toEqual({
      tenant: 'acme',
      idx: 'main',
      ts: 1_704_164_645_123_456_789n,
      seq: 42n,
      source_type: 'aws:cloudtrail',
      ts_field: 'eventTime',
      raw: '{ "eventTime" : "2024-01-02T03:04:05.123456789Z" }',
      search_text: '2024-01-02T03:04:05.123456789Z',
    });
  });

  it('keeps integers exact past 2^53 and before 1970', () => {
    expect(decode(encodeEventRow({ ...row, tsNs: -2_208_988_800_000_000_001n, seq: 2n ** 64n - 1n }))).toMatchObject({ ts: -2_208_988_800_000_000_001n, seq: 2n ** 64n - 1n });
  });

  it('writes text of any length and script byte for byte, and each row apart from the last one written', () => {
    const long = `${'é'.repeat(20_000)}😀\n"\\`;
    const first = encodeEventRow({ ...row, rawJson: 'plain "text"\n' });
    const second = encodeEventRow({ ...row, rawJson: long, tenant: 'ü' });
    expect(decode(first)).toMatchObject({ raw: 'plain "text"\n' });
    expect(decode(second)).toMatchObject({ raw: long, tenant: 'ü' });
  });
});
