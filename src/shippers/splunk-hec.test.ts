import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonText } from '../ingest/index.js';
import { hecStatus, parseHecEvents, parseHecRaw } from './splunk-hec.js';

const lines = (text: string) => parseHecEvents(text, { index: 'main' }).map((r) => r.record.line ?? r.record.error);

describe('parseHecEvents', () => {
  it('reads events one after another, with or without whitespace between them', () => {
    expect(lines('{"event":"a"}{"event":"b"}\n  {"event":{"x":"}{"}}')).toEqual(['{"message":"a"}', '{"message":"b"}', '{"x":"}{"}']);
  });

  it("puts time, host, source, sourcetype and fields first, so the event's own keys win", () => {
    const [record] = parseHecEvents(
      '{"time":1426279439.5,"host":"h","source":"s","sourcetype":"t","index":"idx","fields":{"f":"1","host":"no"},"event":{"host":"mine","m":1}}',
      {},
    );
    expect(record?.record).toEqual({ index: 'idx', line: '{"time":1426279439.5,"host":"mine","source":"s","sourcetype":"t","f":"1","m":1}' });
  });

  it('takes host, source, sourcetype and index from the defaults when the event gives none', () => {
    const [record] = parseHecEvents('{"event":"x"}', { host: 'dh', source: 'ds', sourcetype: 'dt', index: 'di' });
    expect(record?.record).toEqual({ index: 'di', line: '{"host":"dh","source":"ds","sourcetype":"dt","message":"x"}' });
  });

  it('keeps integers beyond 2^53 as their digits (ingest then stores them as text)', () => {
    expect(lines('{"event":{"id":12345678901234567890}}')).toEqual(['{"id":12345678901234567890}']);
    expect(lines('{"event":{"id":12345678901234567890},"fields":{}}')).toEqual(['{"id":"12345678901234567890"}']);
  });

  it('stores the same event whether its text is spliced or parsed and written again', () => {
    const key = fc.constantFrom('time', 'host', 'a', 'b.c', 'msg', 'sourcetype', 'x y', 'é');
    const value = fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null), fc.double({ noNaN: true, noDefaultInfinity: true }));
    const event = fc.oneof(fc.dictionary(key, fc.oneof(value, fc.dictionary(key, value)), { minKeys: 1 }), fc.string({ minLength: 1, maxLength: 10 }));
    const envelope = fc.record(
      { event, time: fc.option(fc.integer({ min: 1, max: 2e9 }), { nil: undefined }), host: fc.option(fc.string({ maxLength: 5 }), { nil: undefined }) },
      { requiredKeys: ['event'] },
    );
    fc.assert(
      fc.property(envelope, (e) => {
        const spliced = parseHecEvents(JSON.stringify(e), {})[0]?.record.line;
        const parsed = parseHecEvents(JSON.stringify({ ...e, fields: {} }), {})[0]?.record.line;
        // as ingest reads each line (digits beyond 2^53 as text either way)
        expect(parseJsonText(spliced ?? 'null')).toEqual(parseJsonText(parsed ?? 'null'));
      }),
      { seed: 11, numRuns: 300 },
    );
  });

  it("names each invalid event with HEC's status, and resumes at the next line after a broken one", () => {
    const records = parseHecEvents('{"time":1}\n{"event":""}\n{"event": nope}\n{"event":"after"}\nnot json\n{"event":"last"}', { index: 'main' });
    expect(records.map((r) => [r.status?.code ?? 0, r.record.line ?? r.record.error])).toEqual([
      [hecStatus.eventRequired.code, 'event 0: the event field is required'],
      [hecStatus.eventBlank.code, 'event 1: the event field cannot be blank'],
      [hecStatus.invalidDataFormat.code, 'event 2: invalid JSON'],
      [0, '{"message":"after"}'],
      [hecStatus.invalidDataFormat.code, 'event 4: not a JSON object'],
      [0, '{"message":"last"}'],
    ]);
  });

  it('reports an unterminated last event as invalid, keeping those before', () => {
    expect(lines('{"event":"ok"}{"event":"cut')).toEqual(['{"message":"ok"}', 'event 1: not a JSON object']);
  });
});

describe('parseHecRaw', () => {
  it('makes each non-blank line an event, with the defaults beside it', () => {
    expect(parseHecRaw('one\r\n\n two \n', { host: 'h', index: 'i' })).toEqual([
      { index: 'i', line: '{"host":"h","message":"one"}' },
      { index: 'i', line: '{"host":"h","message":" two "}' },
    ]);
  });
});
