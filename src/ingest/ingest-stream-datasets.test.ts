import { createReadStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ingestStream } from './ingest-stream.js';
import type { IngestTarget } from './ingest-types.js';
import { aTarget, datasetsSkipReason, sampleDatasetsDir } from './testing/ingest-fixtures.js';
import { memoryDeps, type StoredRow } from './testing/memory-event-writer.js';

/**
 * Real public datasets (read-only, see ../shared/datasets/README.md) ingested end to end through
 * the gzip path: every line must be accepted and every event must find its documented time.
 */
const describeDatasets = sampleDatasetsDir === null ? describe.skip : describe;

function datasetPath(name: string): string {
  return join(sampleDatasetsDir ?? '', name);
}

async function ingestDataset(name: string, target: Partial<IngestTarget> = {}) {
  const deps = memoryDeps();
  const summary = await ingestStream(createReadStream(datasetPath(name)), aTarget(target), deps);
  const lines = gunzipSync(readFileSync(datasetPath(name)))
    .toString('utf8')
    .split('\n')
    .filter((l) => l !== '');
  return { summary, rows: deps.writer.rows, lines };
}

function countBy(rows: StoredRow[], key: (row: StoredRow) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const row of rows) counts[key(row)] = (counts[key(row)] ?? 0) + 1;
  return counts;
}

/** Nanoseconds of an ISO time with at most millisecond precision, via Date (an independent oracle). */
const isoNs = (iso: string): string => String(BigInt(Date.parse(iso)) * 1_000_000n);

describeDatasets(`sample datasets${datasetsSkipReason}`, () => {
  it.each([
    ['cloud/otrf-aws-cloudtrail-ec2-proxy-s3-exfiltration.ndjson.gz', {}, 103, { '@timestamp': 103 }],
    ['cloud/otrf-aws-s3-honeybucket-alerts.ndjson.gz', { timestampFields: ['Event DateTime'] }, 301, { 'Event DateTime': 301 }],
    ['cloud/otrf-goldensaml-adfs-mailaccess.ndjson.gz', { timestampFields: ['TimeGenerated', 'Timestamp', 'timestamp'] }, 52, { TimeGenerated: 43, Timestamp: 9 }],
    ['linux/elastic-examples-auth-log.ndjson.gz', {}, 7121, { timestamp: 7121 }],
    ['linux/otrf-linux-auditd-atomic.ndjson.gz', {}, 18, { timestamp: 18 }],
    ['linux/otrf-log4shell-host-logs.ndjson.gz', {}, 674, { TimeGenerated: 674 }],
    ['network/otrf-apt29-zeek.ndjson.gz', {}, 4918, { ts: 4918 }],
    ['web/elastic-examples-apache-access-10k.ndjson.gz', {}, 10_000, { timestamp: 10_000 }],
  ])('%s: every line ingested, every event timed by its field', async (name, target, count, byField) => {
    const { summary, rows, lines } = await ingestDataset(name, target);
    expect(summary).toMatchObject({ ingested: count, rejected: 0, gzip: true, format: 'ndjson' });
    expect(countBy(rows, (r) => r.tsField)).toEqual(byField);
    expect(rows.map((r) => r.rawJson)).toEqual(lines);
  });

  it('times Apache access events exactly from their ISO timestamp', async () => {
    const { rows } = await ingestDataset('web/elastic-examples-apache-access-10k.ndjson.gz');
    for (const row of rows) expect(row.tsNs).toBe(isoNs((JSON.parse(row.rawJson) as { timestamp: string }).timestamp));
  });

  it('times Zeek events exactly from fractional epoch seconds', async () => {
    const { rows } = await ingestDataset('network/otrf-apt29-zeek.ndjson.gz');
    for (const row of rows) {
      const ts = /"ts":([0-9.]+)/.exec(row.rawJson)?.[1] ?? '';
      const [whole = '', fraction = ''] = ts.split('.');
      expect(row.tsNs).toBe(String(BigInt(whole) * 1_000_000_000n + BigInt(fraction.padEnd(9, '0'))));
    }
  });

  it('reads every Panther fixture shape; events without a known time get ingest time', async () => {
    const { summary, rows } = await ingestDataset('panther/panther-rule-test-events.ndjson.gz', {
      timestampFields: ['p_event_time', 'eventTime', 'published', 'created_at', '@timestamp', 'timestamp', 'time', 'id.time', 'requestReceivedTimestamp'],
    });
    expect(summary).toMatchObject({ ingested: 3003, rejected: 0 });
    const timed = rows.filter((r) => r.tsField !== '').length;
    expect(timed).toBeGreaterThan(1500);
    expect(rows.filter((r) => r.tsField === '').every((r) => r.tsNs === String(BigInt(Date.UTC(2024, 2, 1, 12)) * 1_000_000n))).toBe(true);
  });

  it('reads the start of the Windows set with Keywords kept exact', async () => {
    const deps = memoryDeps();
    async function* firstMegabytes(): AsyncGenerator<Buffer> {
      let taken = 0;
      for await (const chunk of createReadStream(datasetPath('windows/otrf-windows-atomic-host.ndjson.gz'))) {
        yield chunk as Buffer;
        taken += (chunk as Buffer).length;
        if (taken > 400_000) return; // a gzip cut short: the complete lines before are kept
      }
    }
    const error = await ingestStream(firstMegabytes(), aTarget(), deps).catch((e: unknown) => e);
    expect(String(error)).toMatch(/gzip stream is corrupt .* unexpected end of file; the \d+ events before the damage were ingested/);
    const rows = deps.writer.rows;
    expect(rows.length).toBeGreaterThan(500);
    expect(rows.every((r) => r.tsField === '@timestamp' || r.tsField === 'TimeCreated' || r.tsField === '')).toBe(true);
    const keywords = rows.map((r) => (r.attrs as { Keywords?: unknown }).Keywords).filter((k) => k !== undefined);
    expect(keywords).toContain('-9223372036854775808');
    expect(keywords.every((k) => typeof k === 'string' || Number.isSafeInteger(k))).toBe(true);
  });
});
