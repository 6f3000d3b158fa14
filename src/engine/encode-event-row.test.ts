import { describe, expect, it } from 'vitest';
import { encodeEventHead, encodeEventRow } from './encode-event-row.js';
import { FieldPathIds } from './encode-event-fields.js';
import type { EventRowInput } from './engine.js';

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

/** Reads a head back: three strings, each a LEB128 length and UTF-8 bytes, as ClickHouse reads a Native String value. */
function decode(head: Uint8Array): Record<string, unknown> {
  const buffer = Buffer.from(head);
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
  const out = { ts_field: string(), raw: string(), search_text: string() };
  expect(at).toBe(buffer.length);
  return out;
}

// The engine round trip of these rows is in the engine contract; here is the head's exact shape
// (the other columns come from the batch: insertEvents writes them with its field maps).
describe('encodeEventHead', () => {
  it("writes the event's text columns and nothing of its lineage, time or seq", () => {
    expect(decode(encodeEventHead(row))).toEqual({
      ts_field: 'eventTime',
      raw: '{ "eventTime" : "2024-01-02T03:04:05.123456789Z" }',
      search_text: '2024-01-02T03:04:05.123456789Z',
    });
  });

  it('writes text of any length and script byte for byte, and each row apart from the last one written', () => {
    const long = `${'é'.repeat(20_000)}😀\n"\\`;
    const first = encodeEventHead({ ...row, rawJson: 'plain "text"\n' });
    const second = encodeEventHead({ ...row, rawJson: long, tsField: 'ü' });
    expect(decode(first)).toMatchObject({ raw: 'plain "text"\n' });
    expect(decode(second)).toMatchObject({ raw: long, ts_field: 'ü' });
  });
});

describe('encodeEventRow', () => {
  it('keeps of the event its head, its fields with their path ids, and where it goes: not its text or its object', () => {
    const paths = new FieldPathIds();
    const encoded = encodeEventRow(row, paths);
    expect(decode(encoded.head)).toMatchObject({ raw: row.rawJson, search_text: row.searchText, ts_field: 'eventTime' });
    expect(encoded.paths).toBe(paths);
    expect(paths.paths).toEqual(['eventTime', 'a.b']);
    expect(encoded.event).toEqual({ tenant: 'acme', indexId: 'main', sourceType: 'aws:cloudtrail', tsNs: row.tsNs, seq: 42n });
  });
});
