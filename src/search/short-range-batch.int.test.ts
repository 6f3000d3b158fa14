/**
 * Rule windows of one batch key share one statement (runShortRangeBatch), and each gets the rows
 * it would get alone; when the shared statement fails, each runs alone, so one query's failure
 * stays its own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineError, ManualClock, silentLogger } from '../core/index.js';
import { ChdbEngine } from '../engine/chdb/index.js';
import { eventWriter } from '../ingest/testing/ingest-fixtures.js';
import type { QueryResult } from './query-result.js';
import { SearchService } from './search-service.js';

const dir = mkdtempSync(join(tmpdir(), 'vigil-short-batch-'));
const engine = new ChdbEngine({ path: dir, poolSize: 2 });
const clock = new ManualClock(Date.parse('2026-11-21T12:00:00Z'));
const indexes = [{ id: 'i-auth', name: 'auth', system: false }];
const base = Date.parse('2026-11-21T10:00:00Z');
const minute = { startNs: BigInt(base) * 1_000_000n, endNs: BigInt(base + 60_000) * 1_000_000n };
const texts = ['user: alice action: login', 'user: bob', 'action: logout'];

beforeAll(async () => {
  await engine.init();
  const events = Array.from({ length: 60 }, (_, n) => ({
    ts: new Date(base + n * 1000).toISOString(),
    n,
    user: ['alice', 'bob', 'carol'][n % 3],
    action: n % 2 === 0 ? 'login' : 'logout',
  }));
  await eventWriter(engine, clock)('i-auth', events);
}, 60_000);

afterAll(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A search service over the engine, whose statements fail when `fails` says so. */
function serviceFailing(fails: (sql: string) => boolean) {
  const statements: string[] = [];
  const spy = Object.create(engine) as ChdbEngine;
  const guard = <T>(sql: string, run: () => Promise<T>): Promise<T> => {
    statements.push(sql);
    return fails(sql) ? Promise.reject(new EngineError('the engine refused this statement')) : run();
  };
  spy.query = (sql, options) => guard(sql, () => engine.query(sql, options));
  spy.queryEvents = (sql, answer, options) => guard(sql, () => engine.queryEvents(sql, answer, options));
  return { service: new SearchService(spy, async () => indexes, clock, silentLogger), statements };
}

const ns = (result: QueryResult | Error) => (result instanceof Error ? result : result.rows.map((row) => row.columns.n));

describe('rule windows batched in one statement', () => {
  it('give each query exactly the rows it gets alone, from one statement', async () => {
    const { service, statements } = serviceFailing(() => false);
    const prepared = await Promise.all(texts.map((text) => service.windows.prepare({ tenantId: 'acme', queryText: text, ...minute, maxRows: 100 })));
    expect(new Set(prepared.map((q) => q.batchKey)).size).toBe(1);
    const alone = await Promise.all(prepared.map((q) => service.windows.runAlone(q)));
    statements.length = 0;
    const batched = await service.windows.runBatch(prepared);
    expect(statements).toHaveLength(1);
    expect(batched.map(ns)).toEqual(alone.map(ns));
    expect(ns(batched[0] as QueryResult)).toEqual([0, 6, 12, 18, 24, 30, 36, 42, 48, 54]);
  });

  it('run alone when the shared statement fails, and a query that fails alone fails by itself', async () => {
    const { service, statements } = serviceFailing((sql) => sql.includes('batch_member') || sql.includes("'logout'"));
    const prepared = await Promise.all(texts.map((text) => service.windows.prepare({ tenantId: 'acme', queryText: text, ...minute, maxRows: 100 })));
    const results = await service.windows.runBatch(prepared);
    expect(statements).toHaveLength(4); // the shared statement, then each query alone
    expect(ns(results[0] as QueryResult)).toEqual([0, 6, 12, 18, 24, 30, 36, 42, 48, 54]);
    expect(ns(results[1] as QueryResult)).toHaveLength(20);
    expect(results[2]).toBeInstanceOf(EngineError);
  });

  it('do not retry alone once cancelled', async () => {
    const { service, statements } = serviceFailing((sql) => sql.includes('batch_member'));
    const prepared = await Promise.all(texts.map((text) => service.windows.prepare({ tenantId: 'acme', queryText: text, ...minute, maxRows: 100 })));
    const controller = new AbortController();
    controller.abort();
    await expect(service.windows.runBatch(prepared, controller.signal)).rejects.toThrow();
    expect(statements).toHaveLength(1);
  });
});
