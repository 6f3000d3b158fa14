/**
 * A rule's query over many windows (rule preview) gives each window exactly what the scheduler's
 * own window query (`runOnce`) gives it, on the real engine, with far fewer statements than
 * windows: one count, then chunks of events shared out, and alone only the windows that hold
 * more than `maxRows` events, or that an aggregation's filter matches.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, silentLogger } from '../core/index.js';
import { ChdbEngine } from '../engine/chdb/index.js';
import { eventWriter } from '../ingest/testing/ingest-fixtures.js';
import { FieldCatalogCache } from './field-catalog-cache.js';
import { planQuery } from './plan-query.js';
import { ruleWindowResults, type MinuteWindow } from './rule-windows.js';
import { SearchService } from './search-service.js';

const dir = mkdtempSync(join(tmpdir(), 'vigil-rule-windows-'));
const engine = new ChdbEngine({ path: dir, poolSize: 2 });
const clock = new ManualClock(Date.parse('2026-11-21T12:00:00Z'));
const indexes = [{ id: 'i-auth', name: 'auth', system: false }];
const base = Date.parse('2026-11-21T08:00:00Z');
const minute = 60_000;
const search = new SearchService(engine, async () => indexes, clock, silentLogger);

// An hour; minute m holds m % 7 events (none in every seventh minute), spread over the minute.
beforeAll(async () => {
  await engine.init();
  const events: Record<string, unknown>[] = [];
  for (let m = 0; m < 60; m++) {
    for (let k = 0; k < m % 7; k++) {
      const n = events.length;
      events.push({ ts: new Date(base + m * minute + k * 7_000).toISOString(), n, user: ['alice', 'bob', 'carol'][n % 3], action: n % 2 === 0 ? 'login' : 'logout' });
    }
  }
  await eventWriter(engine, clock)('i-auth', events);
}, 60_000);

afterAll(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

function windowsOf(rangeS: number, frequencyS: number, fromMs: number, toMs: number): MinuteWindow[] {
  const windows: MinuteWindow[] = [];
  for (let end = fromMs + frequencyS * 1000; end <= toMs; end += frequencyS * 1000) windows.push({ startMs: end - rangeS * 1000, endMs: end });
  return windows;
}

/** Reads the windows' results at once and checks every `sample`-th against that window run alone (runOnce). */
async function compare(text: string, windows: readonly MinuteWindow[], maxRows: number, chunkRows: number, sample = 1) {
  const span = { startNs: BigInt(windows[0]!.startMs) * 1_000_000n, endNs: BigInt(windows.at(-1)!.endMs) * 1_000_000n };
  const plan = await planQuery({ tenant: 'acme', text, indexes, ...span, order: 'asc', limit: maxRows }, new FieldCatalogCache(engine, clock));
  const statements = { count: 0, chunk: 0, window: 0, grouped: 0 };
  const got = [];
  for await (const { window, rows } of ruleWindowResults(
    { engine, tenant: 'acme', plan, maxRows, chunkRows, signal: new AbortController().signal, onStatement: (kind) => statements[kind]++ },
    windows,
  )) {
    got.push({ window, columns: rows.columns, rows: rows.rows });
  }
  const sampled = got.filter((_, i) => i % sample === 0);
  const expected = [];
  for (const { window } of sampled) {
    const alone = await search.windows.runOnce('acme', text, { startNs: BigInt(window.startMs) * 1_000_000n, endNs: BigInt(window.endMs) * 1_000_000n }, maxRows);
    expected.push({ window, columns: alone.columns, rows: alone.rows });
  }
  expect(sampled).toEqual(expected);
  return { statements, results: got };
}

describe('rule windows', () => {
  const everyMinute = windowsOf(300, 60, base, base + 60 * minute);

  it('filters: one count and a few chunks for 60 overlapping windows, identical to each window alone', async () => {
    const { statements, results } = await compare('action: login', everyMinute, 1000, 20, 2);
    expect(results.filter((r) => r.rows.length > 0).length).toBeGreaterThan(50);
    expect(statements.count).toBe(1);
    expect(statements.window).toBe(0);
    // About 90 events, read once in chunks of about 20 (a chunk always reaches its window's end).
    expect(statements.chunk).toBeGreaterThan(2);
    expect(statements.chunk).toBeLessThan(12);
  });

  it('windows holding more than maxRows events run alone, capped as the scheduler caps them', async () => {
    const { statements, results } = await compare('*', everyMinute, 12, 40, 5);
    expect(results.some((r) => r.rows.length === 12)).toBe(true);
    expect(statements.window).toBeGreaterThan(0);
    expect(statements.window).toBeLessThan(everyMinute.length);
  });

  it('row-wise commands (where, eval, rename, table) are applied per event, and tumbling windows work alike', async () => {
    await compare('action: login | where n > 60 | eval twice = n * 2 | rename user as who', everyMinute, 1000, 25, 6);
    await compare('user: alice | table n, user', windowsOf(120, 120, base, base + 60 * minute), 1000, 10, 3);
  });

  it('aggregations read their windows in grouped statements; the windows they take no event in share one statement', async () => {
    const grouped = await compare('action: logout | stats count() as c by user', everyMinute, 1000, 40, 7);
    expect(grouped.results.filter((r) => r.rows.length > 0).length).toBeLessThan(everyMinute.length);
    expect(grouped.statements).toEqual({ count: 1, chunk: 0, window: 1, grouped: 1 });
    const one = await compare('n = 10 | count', everyMinute, 1000, 40, 3);
    expect(one.results.filter((r) => r.rows[0]?.columns['@q.count'] === 1)).toHaveLength(5);
    expect(one.statements).toEqual({ count: 1, chunk: 0, window: 1, grouped: 1 });
    const none = await compare('user: nobody | count', everyMinute, 1000, 40, 20);
    expect(none.results.map((r) => r.rows.map((row) => row.columns['@q.count']))).toEqual(everyMinute.map(() => [0]));
    expect(none.statements).toEqual({ count: 1, chunk: 0, window: 1, grouped: 0 });
  });

  it('a where before the aggregation decides which windows take events; thresholds, heads and tables apply per window', async () => {
    // Windows whose events the where drops entirely count 0, as each window alone does.
    await compare('* | where n > 100 | count', everyMinute, 1000, 40, 4);
    await compare('* | stats count() as c by user | where c >= 3 | table user', everyMinute, 1000, 40, 6);
    await compare('action: logout | head 2', windowsOf(60, 60, base, base + 20 * minute), 1000, 40, 2);
    await compare('* | table n, user | tail 2', everyMinute, 1000, 40, 8);
    const capped = await compare('* | head 10', everyMinute, 4, 40, 8);
    expect(capped.results.some((r) => r.rows.length === 4)).toBe(true);
    await compare('* | groupbycount user | head 1 | stats count() as top', windowsOf(180, 120, base, base + 60 * minute), 1000, 40, 2);
  });

  it('through the search service, planned over the windows’ span', async () => {
    const windows = everyMinute.slice(0, 6);
    const got = [];
    for await (const { rows } of search.windows.ruleWindows('acme', 'user: bob', windows, 1000, new AbortController().signal)) got.push(rows.rows.map((r) => r.columns.n));
    const expected = [];
    for (const w of windows)
      expected.push(
        (await search.windows.runOnce('acme', 'user: bob', { startNs: BigInt(w.startMs) * 1_000_000n, endNs: BigInt(w.endMs) * 1_000_000n }, 1000)).rows.map((r) => r.columns.n),
      );
    expect(got).toEqual(expected);
  });
});
