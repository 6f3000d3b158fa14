import fc from 'fast-check';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { IngestError } from '../core/index.js';
import { ingestStream } from './ingest-stream.js';
import type { IngestOptions } from './ingest-types.js';
import { aTarget, byteStream, cutBytes } from './testing/ingest-fixtures.js';
import { memoryDeps } from './testing/memory-event-writer.js';

const ingestNs = String(BigInt(Date.UTC(2024, 2, 1, 12, 0, 0)) * 1_000_000n);

async function ingest(text: string, options: IngestOptions = {}, chunk: { size?: number; gzip?: boolean } = {}) {
  const deps = memoryDeps();
  const summary = await ingestStream(byteStream(text, chunk), aTarget(), deps, options);
  return { summary, rows: deps.writer.rows, deps };
}

describe('ingestStream', () => {
  describe('NDJSON', () => {
    it('writes one row per object line, raw text exactly as received', async () => {
      const lines = ['{"@timestamp":"2020-06-10T02:50:56.537Z","EventID":1}', '{ "msg" : "spaced"  }'];
      const text = lines.join('\n') + '\n';
      const { summary, rows } = await ingest(text);
      // the second line has no time field: it is the one stamped with the ingest time
      expect(summary).toEqual({ ingested: 2, rejected: 0, withoutTime: 1, errors: [], bytes: text.length, format: 'ndjson', gzip: false });
      expect(rows.map((r) => r.rawJson)).toEqual(lines);
      expect(rows[0]).toMatchObject({ tenant: 'acme', indexId: 'idx_test', sourceType: 'custom:generic', tsField: '@timestamp', tsNs: '1591757456537000000' });
      expect(rows[1]).toMatchObject({ tsField: '', tsNs: ingestNs });
      expect(JSON.stringify(rows[1]?.attrs)).toBe('{"msg":"spaced"}');
    });

    it('skips blank lines, tolerates CRLF and a byte order mark, and numbers lines of the input', async () => {
      const { summary, rows } = await ingest('\uFEFF{"a":1}\r\n\r\n   \n{"a":2}\r\nnot json\r\n{"a":3}');
      expect(rows.map((r) => r.rawJson)).toEqual(['{"a":1}', '{"a":2}', '{"a":3}']);
      expect(summary.errors).toEqual([{ line: 5, error: 'invalid JSON: unexpected token "o" at column 2' }]);
    });

    it('rejects bad lines with a reason and keeps going', async () => {
      const text = ['{"ok":1}', '{"a":1,', '[1,2]', '"text"', '{"a":1} trailing', 'null', '{"ok":2}'].join('\n');
      const { summary, rows } = await ingest(text);
      expect(summary.ingested).toBe(2);
      expect(summary.rejected).toBe(5);
      expect(summary.errors).toEqual([
        { line: 2, error: 'invalid JSON: unexpected end of input at column 8' },
        { line: 3, error: 'expected a JSON object, got an array' },
        { line: 4, error: 'expected a JSON object, got a string' },
        { line: 5, error: 'invalid JSON: unexpected data after the JSON value at column 9' },
        { line: 6, error: 'expected a JSON object, got null' },
      ]);
      expect(rows.map((r) => r.rawJson)).toEqual(['{"ok":1}', '{"ok":2}']);
    });

    it('keeps the first maxReportedErrors errors and counts them all', async () => {
      const text = Array.from({ length: 150 }, (_, i) => (i % 3 === 0 ? `{"n":${i}}` : 'oops')).join('\n');
      const { summary } = await ingest(text);
      expect(summary.rejected).toBe(100);
      expect(summary.errors).toHaveLength(100);
      const few = await ingest(text, { maxReportedErrors: 2 });
      expect(few.summary.errors.map((e) => e.line)).toEqual([2, 3]);
      expect(few.summary.rejected).toBe(100);
    });

    it('keeps integers beyond 2^53 exactly, in attrs and in raw', async () => {
      const line = '{"Keywords":-9223372036854775808,"EventID":4624}';
      const { rows } = await ingest(line);
      expect(rows[0]).toMatchObject({ rawJson: line });
      expect(JSON.stringify(rows[0]?.attrs)).toBe('{"Keywords":"-9223372036854775808","EventID":4624}');
    });

    it('expands a CloudTrail Records line into its records', async () => {
      const records = [{ eventTime: '2020-09-14T00:44:20Z', eventName: 'GetObject' }, 'junk', { eventTime: '2020-09-14T00:44:21Z' }];
      const { summary, rows } = await ingest(`{"x":0}\n${JSON.stringify({ Records: records })}\n`);
      expect(summary).toMatchObject({ ingested: 3, rejected: 1, format: 'cloudtrail' });
      expect(summary.errors).toEqual([{ line: 2, error: 'Records[1]: expected a JSON object, got a string' }]);
      expect(rows.slice(1).map((r) => [r.rawJson, r.tsField])).toEqual([
        [JSON.stringify(records[0]), 'eventTime'],
        [JSON.stringify(records[2]), 'eventTime'],
      ]);
    });

    it('treats Records as an ordinary key when it is not the only one', async () => {
      const { rows } = await ingest('{"Records":[{"a":1}],"other":true}');
      expect(rows.map((r) => JSON.stringify(r.attrs))).toEqual(['{"Records[0].a":1,"other":"true"}']);
    });

    it('reports a truncated first line and reads the rest as NDJSON', async () => {
      const { summary, rows } = await ingest('{"a":"cut\n{"b":2}\n{"c":3}\n');
      expect(summary).toMatchObject({ ingested: 2, rejected: 1, format: 'ndjson' });
      expect(summary.errors).toEqual([{ line: 1, error: 'invalid JSON: unterminated string at column 6' }]);
      expect(rows.map((r) => r.rawJson)).toEqual(['{"b":2}', '{"c":3}']);
    });

    it('reports a lone incomplete line as a bad line', async () => {
      const { summary } = await ingest('{"a":');
      expect(summary).toMatchObject({ ingested: 0, rejected: 1, errors: [{ line: 1, error: 'invalid JSON: unexpected end of input at column 6' }] });
    });
  });

  describe('JSON documents', () => {
    it('reads a JSON array, one event per element, rejecting non-objects by position', async () => {
      const { summary, rows } = await ingest('[\n  {"a": 1},\n  2,\n  {"b": {"c": null}}\n]\n');
      expect(summary).toMatchObject({ ingested: 2, rejected: 1, format: 'json-array' });
      expect(summary.errors).toEqual([{ line: 2, error: 'expected a JSON object, got a number' }]);
      expect(rows.map((r) => [r.rawJson, JSON.stringify(r.attrs), r.nullPaths])).toEqual([
        ['{"a":1}', '{"a":1}', []],
        ['{"b":{"c":null}}', '{}', ['b.c']],
      ]);
    });

    it('reads a one-line array', async () => {
      expect((await ingest('[{"a":1},{"a":2}]')).summary).toMatchObject({ ingested: 2, format: 'json-array' });
    });

    it('reads a pretty-printed CloudTrail file', async () => {
      const file = JSON.stringify({ Records: [{ eventTime: '2021-01-01T00:00:00Z', n: 12345678901234567890 }, { eventTime: '2021-01-02T00:00:00Z' }] }, null, 2);
      const { summary, rows } = await ingest(file.replace('1234567890123456', '12345678901234567890'));
      expect(summary).toMatchObject({ ingested: 2, rejected: 0, format: 'cloudtrail' });
      expect(rows.map((r) => r.tsField)).toEqual(['eventTime', 'eventTime']);
    });

    it('reads a pretty-printed single object as one event', async () => {
      const { summary, rows } = await ingest('{\n  "user": {"name": "ana"},\n  "ok": true\n}\n');
      expect(summary).toMatchObject({ ingested: 1, format: 'json-document' });
      expect(rows[0]).toMatchObject({ rawJson: '{"user":{"name":"ana"},"ok":true}' });
      expect(JSON.stringify(rows[0]?.attrs)).toBe('{"user.name":"ana","ok":"true"}');
    });

    it('reads several pretty objects one after another (jq output)', async () => {
      const { summary } = await ingest('{\n  "a": 1\n}\n{\n  "a": 2\n}\n');
      expect(summary).toMatchObject({ ingested: 2, format: 'json-document' });
    });

    it('keeps exact digits of big integers in a document', async () => {
      const { rows } = await ingest('[\n{"id": 18446744073709551615}\n]');
      expect(JSON.stringify(rows[0]?.attrs)).toBe('{"id":"18446744073709551615"}');
    });

    it('refuses a broken document as a whole, naming the line and column', async () => {
      const deps = memoryDeps();
      const run = ingestStream(byteStream('[\n  {"a": 1},\n  {"b": ]\n]'), aTarget(), deps);
      await expect(run).rejects.toThrow(new IngestError('invalid JSON document: unexpected token "]" at line 3 column 9'));
      expect(deps.writer.rows).toEqual([]);
    });

    it('treats a bracketed log line as text, not as a broken array', async () => {
      const { summary, rows } = await ingest('[Sun Dec 04 04:47:44 2005] [notice] ok\n[Sun Dec 04 04:47:45 2005] [error] no\n');
      expect(summary).toMatchObject({ ingested: 2, format: 'text' });
      expect(rows[0]?.rawJson).toBe('{"message":"[Sun Dec 04 04:47:44 2005] [notice] ok"}');
    });
  });

  describe('plain text', () => {
    it('makes each non-blank line a {"message": line} event', async () => {
      const { summary, rows } = await ingest('Mar 27 13:06:56 host sshd[1]: a "quoted" word\r\n\n  \nsecond\n');
      expect(summary).toMatchObject({ ingested: 2, rejected: 0, format: 'text' });
      expect(rows.map((r) => r.rawJson)).toEqual(['{"message":"Mar 27 13:06:56 host sshd[1]: a \\"quoted\\" word"}', '{"message":"second"}']);
      expect(rows.map((r) => JSON.stringify(r.attrs))).toEqual(rows.map((r) => r.rawJson));
    });

    it('keeps later JSON-looking lines as text', async () => {
      const { rows } = await ingest('hello\n{"a":1}\n');
      expect(rows.map((r) => JSON.stringify(r.attrs))).toEqual(['{"message":"hello"}', '{"message":"{\\"a\\":1}"}']);
    });
  });

  describe('event time', () => {
    it('reads TimeCreated and the other names of the shared datasets by default, after the first eight', async () => {
      const lines = [
        '{"TimeCreated":"2020-09-21T18:02:16.127Z","EventID":4688}',
        '{"Event DateTime":"2021-02-18 12:00:00","a":1}',
        '{"created_at":1588205198000,"action":"repo.create"}',
        '{"id":{"time":"2022-01-01T00:00:00Z"}}',
        '{"TimeCreated":"2020-09-21T18:02:16Z","@timestamp":"2021-01-01T00:00:00Z"}',
        '{"no":"time"}',
      ];
      const { summary, rows } = await ingest(lines.join('\n'));
      expect(rows.map((r) => r.tsField)).toEqual(['TimeCreated', 'Event DateTime', 'created_at', 'id.time', '@timestamp', '']);
      expect(rows[0]?.tsNs).toBe(String(BigInt(Date.parse('2020-09-21T18:02:16.127Z')) * 1_000_000n));
      expect(summary).toMatchObject({ ingested: 6, withoutTime: 1 });
    });

    it('counts only written events among those without a time', async () => {
      const { summary } = await ingest('{"a":1}\nnot json\n{"b":2}\n{"time":"2024-01-01T00:00:00Z"}\n', { format: 'ndjson' });
      expect(summary).toMatchObject({ ingested: 3, rejected: 1, withoutTime: 2 });
    });
  });

  describe("format: 'text'", () => {
    it('reads every line as a message, even lines that are JSON objects', async () => {
      const { summary, rows } = await ingest('{"a":1}\nplain line\n', { format: 'text' });
      expect(summary).toMatchObject({ ingested: 2, rejected: 0, format: 'text' });
      expect(rows.map((r) => r.rawJson)).toEqual(['{"message":"{\\"a\\":1}"}', '{"message":"plain line"}']);
    });
  });

  describe("format: 'ndjson' (no guessing)", () => {
    it('requires every line to be an object and still expands Records lines', async () => {
      const text = 'plain text\n[{"a":1}]\n{"Records":[{"a":2}]}\n{\n';
      const { summary, rows } = await ingest(text, { format: 'ndjson' });
      expect(summary).toMatchObject({ ingested: 1, rejected: 3, format: 'cloudtrail' });
      expect(summary.errors).toEqual([
        { line: 1, error: 'invalid JSON: unexpected token "p" at column 1' },
        { line: 2, error: 'expected a JSON object, got an array' },
        { line: 4, error: 'invalid JSON: unexpected end of input at column 2' },
      ]);
      expect(rows.map((r) => r.rawJson)).toEqual(['{"a":2}']);
    });

    it('still recognises gzip', async () => {
      expect((await ingest('{"a":1}\n', { format: 'ndjson' }, { gzip: true })).summary).toMatchObject({ ingested: 1, gzip: true });
    });
  });

  it('reads gzip input and reports decoded bytes', async () => {
    const text = '{"a":1}\n'.repeat(1000);
    const { summary } = await ingest(text, {}, { gzip: true, size: 7 });
    expect(summary).toMatchObject({ ingested: 1000, bytes: text.length, gzip: true });
  });

  it('reads nothing from empty input', async () => {
    expect((await ingest('')).summary).toEqual({ ingested: 0, rejected: 0, withoutTime: 0, errors: [], bytes: 0, format: 'ndjson', gzip: false });
    expect((await ingest('\n \n')).summary).toMatchObject({ ingested: 0, rejected: 0 });
  });

  it('uses the default source type when the target has none', async () => {
    const deps = memoryDeps();
    await ingestStream(['{"a":1}'], aTarget({ sourceType: '' }), deps);
    expect(deps.writer.rows[0]?.sourceType).toBe('custom:generic');
  });

  describe('batching', () => {
    it('numbers events in input order across batches, one reservation per batch', async () => {
      const text = Array.from({ length: 10 }, (_, i) => `{"n":${i}}`).join('\n');
      const { deps, rows } = await ingest(text, { batchRows: 4 });
      expect(deps.writer.batches.map((b) => b.length)).toEqual([4, 4, 2]);
      expect(deps.reservations).toEqual([4, 4, 2]);
      expect(rows.map((r) => [r.seq, r.rawJson])).toEqual(Array.from({ length: 10 }, (_, i) => [String(i + 1), `{"n":${i}}`]));
    });

    it('flushes inside a large document', async () => {
      const text = JSON.stringify(Array.from({ length: 25 }, (_, i) => ({ n: i })));
      const { deps } = await ingest(text, { batchRows: 10 });
      expect(deps.writer.batches.map((b) => b.length)).toEqual([10, 10, 5]);
    });

    it('keeps one insert in flight while the next batch is parsed', async () => {
      const deps = memoryDeps();
      deps.writer.delayMs = 2;
      const text = Array.from({ length: 200 }, (_, i) => `{"n":${i}}`).join('\n');
      const summary = await ingestStream(byteStream(text, { size: 50 }), aTarget(), deps, { batchRows: 7 });
      expect(summary.ingested).toBe(200);
      expect(deps.writer.maxInFlight).toBe(1);
    });
  });

  describe('chunk boundaries', () => {
    const lineArb = fc.oneof(
      fc.constantFrom('{"a":1}', '{"é":"ключ 🚀"}', '{"k":-9223372036854775808}', '', '  ', 'bad', '{"Records":[{"r":1},{"r":2}]}', '[1]'),
      fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify({ v })),
    );
    const input = fc
      .tuple(fc.array(lineArb, { minLength: 1, maxLength: 12 }), fc.constantFrom('\n', '\r\n'), fc.boolean())
      .map(([lines, eol, finalEol]) => lines.join(eol) + (finalEol ? eol : ''));

    it('gives the same rows and summary however the bytes are cut, plain or gzipped', async () => {
      await fc.assert(
        fc.asyncProperty(input, fc.array(fc.nat({ max: 400 }), { maxLength: 10 }), fc.boolean(), async (text, offsets, gzip) => {
          const whole = await ingest(text, { format: 'ndjson' });
          const deps = memoryDeps();
          const bytes = gzip ? gzipSync(text) : Buffer.from(text);
          const summary = await ingestStream(cutBytes(bytes, offsets), aTarget(), deps, { format: 'ndjson' });
          expect({ ...summary, gzip: false }).toEqual(whole.summary);
          expect(deps.writer.rows).toEqual(whole.rows);
        }),
        { numRuns: 150 },
      );
    });
  });
});
