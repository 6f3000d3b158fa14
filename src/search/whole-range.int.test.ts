/**
 * An aggregation over a range that holds every event written to its scope runs without time
 * bounds (QueryRun.runWhole), with the same result; an insert outside the range that lands while
 * the statement runs makes it run again, bounded.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, silentLogger } from '../core/index.js';
import { ChdbEngine } from '../engine/chdb/index.js';
import { eventWriter } from '../ingest/testing/ingest-fixtures.js';
import { SearchService } from './search-service.js';

const dir = mkdtempSync(join(tmpdir(), 'vigil-whole-range-'));
const engine = new ChdbEngine({ path: dir, poolSize: 2 });
const clock = new ManualClock(Date.parse('2026-11-21T12:00:00Z'));
const indexes = [
  { id: 'i-web', name: 'web', system: false },
  { id: 'i-other', name: 'other', system: false },
];
const base = Date.parse('2026-11-21T00:00:00Z');
const dayNs = (ms: number) => BigInt(ms) * 1_000_000n;
const day = { startNs: dayNs(base), endNs: dayNs(base + 86_400_000) };
/** From the day before to the end of the day: every event of both indexes. */
const twoDays = { startNs: dayNs(base - 86_400_000), endNs: day.endNs };
const ingest = eventWriter(engine, clock);
/** What `* | groupbycount status` answers over every event of both indexes. */
const everyStatus = [
  { status: 200, '@q.count': 75 },
  { status: 500, '@q.count': 25 },
  { status: 404, '@q.count': 1 },
];

beforeAll(async () => {
  await engine.init();
  // 100 events over the morning: status 200 for n % 4 != 0, else 500.
  await ingest(
    'i-web',
    Array.from({ length: 100 }, (_, n) => ({ ts: new Date(base + n * 60_000).toISOString(), n, status: n % 4 === 0 ? 500 : 200 })),
  );
  // Another index holds an event the day before: in the tenant, outside web's span.
  await ingest('i-other', [{ ts: new Date(base - 3_600_000).toISOString(), status: 404 }]);
}, 60_000);

afterAll(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs a query and records its statements over `logs`; `during` runs before the first of them. */
async function run(text: string, range: { startNs: bigint; endNs: bigint }, during?: () => Promise<unknown>) {
  const statements: string[] = [];
  const query = engine.query.bind(engine);
  const spy = Object.create(engine) as ChdbEngine;
  spy.query = async (sql, options) => {
    if (sql.includes('FROM logs')) {
      if (statements.length === 0) await during?.();
      statements.push(sql);
    }
    return query(sql, options);
  };
  const service = new SearchService(spy, async () => indexes, clock, silentLogger);
  const result = await service.run('acme', text, range, { maxRows: 100 });
  return { rows: result.rows.map((row) => row.columns), statements };
}

describe('aggregations over a range that holds every event of their scope', () => {
  it('leave the time bounds out, with the same counts', async () => {
    const whole = await run('* | groupbycount status', twoDays);
    expect(whole.rows).toEqual(everyStatus);
    expect(whole.statements).toHaveLength(1);
    expect(whole.statements[0]).not.toContain('ts >=');
    // `@index=` confines the scope to web, whose events the day holds.
    const web = await run('@index=web | groupbycount status', day);
    expect(web.rows).toEqual(everyStatus.slice(0, 2));
    expect(web.statements[0]).not.toContain('ts >=');
  });

  it('keep them when the range leaves out events of the scope: here, those of another index, or of the afternoon', async () => {
    const both = await run('* | count', day);
    expect(both.rows).toEqual([{ '@q.count': 100 }]);
    expect(both.statements[0]).toContain('ts >=');
    const morning = await run('* | count', { startNs: dayNs(base - 86_400_000), endNs: dayNs(base + 40 * 60_000) });
    expect(morning.rows).toEqual([{ '@q.count': 41 }]);
    expect(morning.statements[0]).toContain('ts >=');
  });

  it('run again bounded when an insert outside the range lands while the statement runs', async () => {
    const late = () => ingest('i-web', [{ ts: new Date(base + 86_400_000 + 1000).toISOString(), status: 500 }]);
    const raced = await run('* | groupbycount status', twoDays, late);
    expect(raced.rows).toEqual(everyStatus);
    expect(raced.statements).toHaveLength(2);
    expect(raced.statements[0]).not.toContain('ts >=');
    expect(raced.statements[1]).toContain('ts >=');
    // The span now reaches past the range: the next aggregation over it is bounded at once.
    const next = await run('* | count', twoDays);
    expect(next.rows).toEqual([{ '@q.count': 101 }]);
    expect(next.statements).toHaveLength(1);
    expect(next.statements[0]).toContain('ts >=');
  });
});
