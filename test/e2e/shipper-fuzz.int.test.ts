/**
 * Each shipper endpoint fuzzed a little with a fixed seed (reproducible): bodies mixing good
 * records with malformed ones, and garbage. Never a 5xx, always the protocol's own shape, and
 * every good record of an accepted request stored exactly once.
 */
import fc from 'fast-check';
import snappy from 'snappyjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openShipperServer, type ShipperServer } from '../support/shipper-server.js';

const seed = 20_261_127;
const numRuns = 12;

let s: ShipperServer;
/** Markers of good records the server accepted, each to be stored once. */
const accepted: string[] = [];
let counter = 0;

beforeAll(async () => {
  s = await openShipperServer();
  await s.createIndex('fuzz');
}, 120_000);
afterAll(async () => s?.close());

const marker = (): string => `m${++counter}`;

/**
 * Text that is not a JSON object and holds no newline: a malformed record. (A lone surrogate
 * escape, `{"a":"\ud800"}`, fails the engine's whole batch today: that is fixed at the root of
 * ingest for every path, issue 20 item 1, and belongs in this list once it is.)
 */
const junk = fc.oneof(
  fc.string({ maxLength: 40 }).map((t) => t.replace(/[\r\n]/g, ' ')),
  fc.constantFrom('{', '{"a":', '{"a":1', '[1,2', 'null', '"str"', '{"a":1}}', '\u0000\u0001', '{"deep":' + '['.repeat(200)),
);

async function post(path: string, body: string | Uint8Array, headers: Record<string, string>): Promise<Response> {
  const r = await fetch(`${s.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${s.key}`, ...headers }, body });
  expect(r.status, `${path} answered ${r.status}`).toBeLessThan(500);
  return r;
}

describe('shipper endpoints under fuzzing (seed 20261127)', () => {
  it('Elasticsearch _bulk: per-item answers, good items stored', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(fc.constant(null), junk), { minLength: 1, maxLength: 8 }), async (items) => {
        const good: string[] = [];
        const lines = items.flatMap((item) => {
          if (item !== null) return ['{"index":{"_index":"fuzz"}}', item.trim() === '' ? 'x' : item];
          const m = marker();
          good.push(m);
          return ['{"index":{"_index":"fuzz"}}', JSON.stringify({ m })];
        });
        const r = await post('/_bulk', lines.join('\n') + '\n', { 'content-type': 'application/x-ndjson' });
        expect(r.status).toBe(200);
        const answer = (await r.json()) as { items: { index: { status: number } }[] };
        expect(answer.items).toHaveLength(items.length);
        // good items are created; a malformed one is refused (400) or, if it is an object after all, created
        answer.items.forEach((result, at) => expect(items[at] === null ? [201] : [201, 400]).toContain(result.index.status));
        accepted.push(...good);
      }),
      { seed, numRuns },
    );
  });

  it('Splunk HEC: good events stored around malformed ones, HEC codes otherwise', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(fc.constant(null), junk), { minLength: 1, maxLength: 8 }), async (items) => {
        const good: string[] = [];
        const body = items
          .map((item) => {
            if (item !== null) return item;
            const m = marker();
            good.push(m);
            return JSON.stringify({ event: { m }, index: 'fuzz' });
          })
          .join('\n');
        const r = await post('/services/collector/event', body, { authorization: `Splunk ${s.key}` });
        const answer = (await r.json()) as { code: number };
        expect(typeof answer.code).toBe('number');
        if (answer.code !== 9) accepted.push(...good); // 9: server busy, nothing acknowledged
      }),
      { seed, numRuns },
    );
  });

  it('OTLP: garbage protobuf and JSON refused with 400, structured bodies stored', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), fc.string({ maxLength: 100 }), fc.jsonValue({ maxDepth: 4 }), async (bytes, text, value) => {
        const garbage = await post('/v1/logs', bytes, { 'content-type': 'application/x-protobuf' });
        expect([200, 400]).toContain(garbage.status);
        const json = await post('/v1/logs', text, { 'content-type': 'application/json' });
        expect([200, 400]).toContain(json.status);
        const m = marker();
        const body = { resourceLogs: [{ scopeLogs: [{ logRecords: [{ body: toAnyValue(value), attributes: [{ key: 'm', value: { stringValue: m } }, { key: 'vigil.index', value: { stringValue: 'fuzz' } }] }] }] }] };
        const r = await post('/v1/logs', JSON.stringify(body), { 'content-type': 'application/json' });
        expect(r.status).toBe(200);
        const answer = (await r.json()) as { partialSuccess?: unknown };
        if (answer.partialSuccess === undefined) accepted.push(`attributes:${m}`);
      }),
      { seed, numRuns },
    );
  });

  it('Loki: malformed entries refused by number, good ones stored; garbage protobuf refused', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(fc.constant(null), fc.jsonValue({ maxDepth: 2 })), { minLength: 1, maxLength: 6 }), fc.uint8Array({ maxLength: 100 }), async (values, bytes) => {
        const good: string[] = [];
        const entries = values.map((value) => {
          if (value !== null) return value;
          const m = marker();
          good.push(m);
          return [String(1_775_030_400_000_000_000n + BigInt(counter)), m];
        });
        const r = await post('/loki/api/v1/push', JSON.stringify({ streams: [{ stream: { vigil_index: 'fuzz', kind: 'loki' }, values: entries }] }), { 'content-type': 'application/json' });
        expect([204, 400]).toContain(r.status);
        accepted.push(...good.map((m) => `message:${m}`));
        const pb = await post('/loki/api/v1/push', Buffer.from(snappy.compress(bytes)), { 'content-type': 'application/x-protobuf' });
        expect([204, 400]).toContain(pb.status);
      }),
      { seed, numRuns },
    );
  });

  it('stored every accepted good record exactly once', async () => {
    const rows = await s.query('@index = fuzz | stats count() as n by m');
    const byAttribute = await s.query('@index = fuzz | stats count() as n by attributes.m');
    const byMessage = await s.query('@index = fuzz kind = loki | stats count() as n by message');
    const stored = new Map<string, number>();
    for (const row of rows) if (row['m'] !== null && row['m'] !== undefined) stored.set(String(row['m']), Number(row['n']));
    for (const row of byAttribute) if (row['attributes.m'] != null) stored.set(`attributes:${String(row['attributes.m'])}`, Number(row['n']));
    for (const row of byMessage) if (/^m\d+$/.test(String(row['message']))) stored.set(`message:${String(row['message'])}`, Number(row['n']));
    for (const m of accepted) expect(stored.get(m), m).toBe(1);
    expect(accepted.length).toBeGreaterThan(40);
  });
});

/** A JSON value as an OTLP AnyValue. */
function toAnyValue(value: unknown): unknown {
  if (value === null) return {};
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (typeof value === 'number') return Number.isInteger(value) ? { intValue: String(value) } : { doubleValue: value };
  if (Array.isArray(value)) return { arrayValue: { values: value.map(toAnyValue) } };
  return { kvlistValue: { values: Object.entries(value as object).map(([key, v]) => ({ key, value: toAnyValue(v) })) } };
}
