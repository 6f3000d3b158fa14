/**
 * An event search whose text-index tokens leave few rows runs as one statement over the whole
 * range; one that leaves more than `selectiveReadRows` goes on in time slices after the engine
 * refuses the statement. Both ways give the same rows. A slice not expected to fill its limit
 * runs without the engine's top-K filtering.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, silentLogger } from '../core/index.js';
import { ChdbEngine } from '../engine/chdb/index.js';
import { eventWriter } from '../ingest/testing/ingest-fixtures.js';
import { SearchService } from './search-service.js';

const dir = mkdtempSync(join(tmpdir(), 'vigil-selective-'));
const engine = new ChdbEngine({ path: dir, poolSize: 2 });
const clock = new ManualClock(Date.parse('2026-11-21T12:00:00Z'));
const indexes = [{ id: 'i-logs', name: 'logs', system: false }];
const base = Date.parse('2026-11-21T00:00:00Z');
const range = { startNs: BigInt(base) * 1_000_000n, endNs: BigInt(base + 86_400_000) * 1_000_000n };

beforeAll(async () => {
  await engine.init();
  // 20,000 events over the day: every one says `common`, every 2,000th also `rare`, every 100th `dozens`.
  const text = (n: number) => (n % 2000 === 7 ? 'common rare' : n % 100 === 3 ? 'common dozens' : 'common');
  const events = Array.from({ length: 20_000 }, (_, n) => ({ ts: new Date(base + n * 4000).toISOString(), n, text: text(n) }));
  await eventWriter(engine, clock)('i-logs', events);
}, 60_000);

afterAll(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Runs the search with the given limit and records the statements it issued, and for each event
 * statement whether it ran with the engine's top-K filtering turned off.
 */
async function search(text: string, selectiveReadRows: number, order: 'asc' | 'desc' = 'desc', maxRows = 25) {
  const statements: string[] = [];
  const withoutTopK: boolean[] = [];
  const query = engine.query.bind(engine);
  const queryEvents = engine.queryEvents.bind(engine);
  const spy = Object.create(engine) as ChdbEngine;
  spy.query = (sql, options) => {
    statements.push(sql);
    return query(sql, options);
  };
  spy.queryEvents = (sql, answer, options) => {
    statements.push(sql);
    withoutTopK.push(options?.settings?.['use_top_k_dynamic_filtering'] === 0);
    return queryEvents(sql, answer, options);
  };
  const service = new SearchService(spy, async () => indexes, clock, silentLogger, {
    blockingTimeoutS: 60,
    resultTtlS: 60,
    maxConcurrent: 4,
    maxConcurrentPerTenant: 4,
    selectiveReadRows,
  });
  const result = await service.run('acme', text, range, { maxRows, order });
  return { ns: result.rows.map((row) => row.columns.n), rows: result.rows.map((row) => row.columns), statements, withoutTopK };
}

describe('selective event searches', () => {
  it('run as one statement when the text index leaves few rows to read', async () => {
    const { ns, statements } = await search('rare', 100_000);
    expect(ns).toEqual([18007, 16007, 14007, 12007, 10007, 8007, 6007, 4007, 2007, 7]);
    expect(statements).toHaveLength(1);
    expect(statements[0]).not.toContain('event_minutes');
  });

  it('go on in slices when the engine refuses to read that many rows, with the same rows', async () => {
    for (const order of ['desc', 'asc'] as const) {
      const whole = await search('common', 100_000, order);
      const sliced = await search('common', 1000, order);
      expect(sliced.ns).toEqual(whole.ns);
      expect(sliced.ns).toHaveLength(25);
      expect(sliced.statements.some((sql) => sql.includes('event_minutes'))).toBe(true);
      expect(whole.statements).toHaveLength(1);
    }
    const rare = await search('rare', 1000);
    expect(rare.ns).toEqual([18007, 16007, 14007, 12007, 10007, 8007, 6007, 4007, 2007, 7]);
    expect(rare.statements.length).toBeGreaterThan(2);
  });

  it('never try one statement without text-index tokens', async () => {
    const { ns, statements } = await search('n > 19990', 100_000);
    expect(ns).toEqual([19999, 19998, 19997, 19996, 19995, 19994, 19993, 19992, 19991]);
    expect(statements.some((sql) => sql.includes('event_minutes'))).toBe(true);
  });

  it('turn the engine top-K filtering off for the slices not expected to fill their limit', async () => {
    // `rare`: 5 matches in the newest 10,000 events say the rest holds about 5, under its limit.
    const sparse = await search('rare', 1000);
    expect(sparse.ns).toHaveLength(10);
    expect(sparse.withoutTopK).toEqual([false, false, true]); // refused whole-range try, first slice, the rest
    // `dozens`: 100 in the newest 10,000 events say the rest holds about 100, over the 51 its limit asks.
    const dense = await search('dozens', 1000, 'desc', 150);
    expect(dense.ns).toHaveLength(150);
    expect(dense.withoutTopK).toEqual([false, false, false]);
  });

  it('look up parts of words in a statement over the whole range: aggregations', async () => {
    const { rows, statements } = await search('*ozen* | count', 100_000);
    expect(statements.some((sql) => sql.includes("like(replaceAll(lower(search_text), '_', 'Z'), '%ozen%')"))).toBe(true);
    expect(rows).toEqual([{ '@q.count': 200 }]);
  });
});
