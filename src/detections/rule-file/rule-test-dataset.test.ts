import { describe, expect, it } from 'vitest';
import { parseRfc3339Ns } from '../../core/index.js';
import { readDataset } from './rule-test-dataset.js';

const at = (text: string) => parseRfc3339Ns(text);

describe('readDataset', () => {
  it('reads one event per non-blank line, keeping its text and line', () => {
    const text = '{"timestamp":"2024-08-21T00:02:30Z","a":1}\n\n  {"timestamp":"2024-08-21T00:02:31Z"}\n';
    expect(readDataset(text, 'LegacyFlatten')).toEqual({
      events: [
        { line: 1, text: '{"timestamp":"2024-08-21T00:02:30Z","a":1}', timeNs: at('2024-08-21T00:02:30Z'), sourceType: 'custom:generic' },
        { line: 3, text: '  {"timestamp":"2024-08-21T00:02:31Z"}', timeNs: at('2024-08-21T00:02:31Z'), sourceType: 'custom:generic' },
      ],
      problems: [],
    });
  });

  it('takes the time from @svc.datetime, then @scnr.datetime, then timestamp, nested or flat', () => {
    const time = (line: string) => readDataset(line, 'RawJson').events[0]?.timeNs;
    expect(time('{"@svc":{"datetime":"2024-01-01T00:00:01Z"},"@scnr.datetime":"2024-01-01T00:00:02Z","timestamp":"2024-01-01T00:00:03Z"}')).toBe(at('2024-01-01T00:00:01Z'));
    expect(time('{"@scnr":{"datetime":"2024-01-01T00:00:02Z"},"timestamp":"2024-01-01T00:00:03Z"}')).toBe(at('2024-01-01T00:00:02Z'));
    expect(time('{"@scnr.datetime":"2024-01-01T00:00:02.123456789Z"}')).toBe(at('2024-01-01T00:00:02.123456789Z'));
    expect(time('{"timestamp":"2024-01-01T02:00:03+02:00"}')).toBe(at('2024-01-01T00:00:03Z'));
  });

  it('takes the source type from @svc, @scnr or %ingest, nested or flat', () => {
    const type = (fields: string) => readDataset(`{"timestamp":"2024-01-01T00:00:00Z",${fields}}`, 'LegacyFlatten').events[0]?.sourceType;
    expect(type('"%ingest.source_type":"aws:cloudtrail"')).toBe('aws:cloudtrail');
    expect(type('"@scnr.source_type":"1password"')).toBe('1password');
    expect(type('"@scnr":{"source_type":"okta"}')).toBe('okta');
    expect(type('"x":1')).toBe('custom:generic');
  });

  it('refuses nested values only in FlatTable', () => {
    const line = '{"@scnr.datetime":"2024-01-01T00:00:00Z","a":[1]}';
    expect(readDataset(line, 'RawJson').problems).toEqual([]);
    expect(readDataset(line, 'FlatTable').problems).toEqual([
      { line: 1, column: 1, message: 'FlatTable events are flat column maps: "a" holds an array; write its columns as "a.x" keys or use dataset_format: RawJson' },
    ]);
  });

  it('reports each bad line with its line and column, and goes on', () => {
    const { events, problems } = readDataset(
      '{"timestamp":"2024-01-01T00:00:00Z"}\n  not json\n"text"\n{"timestamp":5}\n{"timestamp":"2024-01-01T00:00:00Z","@scnr.source_type":3}',
      'LegacyFlatten',
    );
    expect(events).toHaveLength(1);
    expect(problems.map((p) => [p.line, p.column, p.message.split(':')[0]])).toEqual([
      [2, 3, 'invalid JSON'],
      [3, 1, 'an event must be a JSON object, got "text"'],
      [4, 1, 'timestamp must be an RFC 3339 time such as "2026-05-15T00'],
      [5, 1, '@scnr.source_type must be a string, got 3'],
    ]);
  });
});
