import { describe, expect, it } from 'vitest';
import { encodeEventRow } from './encode-event-row.js';
import type { EventRowInput } from './engine.js';

const row: EventRowInput = {
  tenant: 'acme',
  indexId: 'main',
  tsNs: 1_704_164_645_123_456_789n,
  seq: 42n,
  sourceType: 'aws:cloudtrail',
  tsField: 'eventTime',
  rawJson: '{ "eventTime" : "2024-01-02T03:04:05.123456789Z" }',
  attrsJson: '{"eventTime":"2024-01-02T03:04:05.123456789Z"}',
  nullPaths: ['a.b'],
  searchText: '2024-01-02T03:04:05.123456789Z',
};

// The engine round trip of these lines is in the engine contract; here is their exact shape.
describe('encodeEventRow', () => {
  it('writes one JSONEachRow line in table order, ts and seq as bare integers, raw unescaped', () => {
    expect(encodeEventRow(row)).toBe(
      '{"tenant":"acme","idx":"main","ts":1704164645123456789,"seq":42,"source_type":"aws:cloudtrail",' +
        '"ts_field":"eventTime","raw":{ "eventTime" : "2024-01-02T03:04:05.123456789Z" },' +
        '"search_text":"2024-01-02T03:04:05.123456789Z",' +
        '"attrs":{"eventTime":"2024-01-02T03:04:05.123456789Z"},"null_paths":["a.b"]}',
    );
  });

  it('keeps integers exact past 2^53 and before 1970', () => {
    const line = encodeEventRow({ ...row, tsNs: -2_208_988_800_000_000_001n, seq: 2n ** 64n - 1n });
    expect(line).toContain('"ts":-2208988800000000001,"seq":18446744073709551615,');
  });

  it('sends a raw text that is not an object as a string, so the same text is stored', () => {
    const line = encodeEventRow({ ...row, rawJson: 'plain "text"\n' });
    expect(JSON.parse(line).raw).toBe('plain "text"\n');
  });

  it('escapes the string columns', () => {
    const line = encodeEventRow({ ...row, tenant: 'a"b', indexId: 'c\\d', nullPaths: ['x"y'] });
    expect(JSON.parse(line)).toMatchObject({ tenant: 'a"b', idx: 'c\\d', null_paths: ['x"y'] });
  });
});
