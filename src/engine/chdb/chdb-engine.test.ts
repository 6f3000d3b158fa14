import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EngineError, ErrorCodes } from '../../core/index.js';
import { describeEngineContract } from '../testing/engine-contract.js';
import { anEvent, eventually, insert, ns, slowQuery, storedValues, uniqueTenant } from '../testing/engine-fixtures.js';
import { ChdbEngine } from './chdb-engine.js';

// chDB binds one data directory per process; vitest runs each file in its own process, so this
// file owns one temporary directory for all its engines.
const path = mkdtempSync(join(tmpdir(), 'vigil-chdb-engine-'));

afterAll(() => {
  rmSync(path, { recursive: true, force: true });
});

describeEngineContract('chdb', async () => new ChdbEngine({ path, poolSize: 2 }));

describe('chdb engine', () => {
  it('cancels and aborts even when every pooled session is busy', async () => {
    const engine = new ChdbEngine({ path, poolSize: 1 });
    try {
      const first = engine.query(slowQuery, { tag: 'busy-first', maxExecutionTimeS: 50 }).catch((e: unknown) => e);
      const waiting = new AbortController();
      // Queued behind `first` for the only session: aborting it must not wait for that session.
      const queued = engine.query('SELECT 1', { signal: waiting.signal }).catch((e: unknown) => e);
      await eventually(async () => expect(await engine.runningQuery('busy-first')).not.toBeNull());
      waiting.abort();
      expect(await queued).toMatchObject({ code: ErrorCodes.engineCancelled });
      await engine.cancel('busy-first');
      expect(await first).toMatchObject({ code: ErrorCodes.engineCancelled });
      // The session came back to the pool.
      await expect(engine.query('SELECT 1 AS one')).resolves.toMatchObject({ rows: [{ one: 1 }] });
    } finally {
      await engine.close();
    }
  });

  it('writes batches that arrive while inserts are in flight in fewer inserts, every event kept', async () => {
    class CountedInserts extends ChdbEngine {
      inserts = 0;
      protected override insertBlock(chunks: readonly Uint8Array[]): Promise<void> {
        this.inserts++;
        return super.insertBlock(chunks);
      }
    }
    const engine = new CountedInserts({ path, poolSize: 2 });
    try {
      await engine.init();
      const tenant = uniqueTenant();
      await insert(engine, [anEvent({ tenant })]); // the index's field maps are read once, before
      const before = engine.inserts;
      await Promise.all(Array.from({ length: 8 }, (_, i) => insert(engine, [anEvent({ tenant, attrs: { batch: i } }), anEvent({ tenant, attrs: { batch: i } })])));
      expect(engine.inserts - before).toBeLessThan(8);
      // Read from a slot or the rest maps, whichever the batch's field map gave `batch`.
      const batches = (await storedValues(engine, tenant, ['batch'])).flatMap(([value]) => (typeof value?.n === 'number' ? [value.n] : []));
      expect(batches.sort((a, b) => a - b)).toEqual(Array.from({ length: 8 }, (_, i) => [i, i]).flat());
    } finally {
      await engine.close();
    }
  });

  it('writes time extent rows in whole minutes, and only for a batch reaching out of what the table holds', async () => {
    class CountedExtents extends ChdbEngine {
      extentInserts = 0;
      override exec(sql: string, options?: Parameters<ChdbEngine['exec']>[1]): Promise<void> {
        if (sql.startsWith('INSERT INTO time_extents')) this.extentInserts++;
        return super.exec(sql, options);
      }
    }
    const engine = new CountedExtents({ path, poolSize: 2 });
    try {
      await engine.init();
      const tenant = uniqueTenant();
      const at = (time: string) => anEvent({ tenant, tsNs: ns(`2024-05-01T${time}Z`) });
      await insert(engine, [at('10:00:10'), at('10:59:50')]);
      // Later than any event yet, but within the minutes the table's row holds: no row.
      await insert(engine, [at('10:59:55')]);
      await insert(engine, [at('10:00:10'), at('10:30:00')]);
      expect(engine.extentInserts).toBe(1);
      await insert(engine, [at('10:30:00'), at('12:00:30')]);
      expect(engine.extentInserts).toBe(2);
      // The table holds every event's time, in whole minutes, as a restart would read it.
      const table = await engine.query<{ lo: string; hi: string }>(
        `SELECT toString(min(min_ts)) AS lo, toString(max(max_ts)) AS hi FROM time_extents WHERE tenant = '${tenant}' AND idx = 'main'`,
      );
      expect(table.rows).toEqual([{ lo: '2024-05-01 10:00:00.000000000', hi: '2024-05-01 12:01:00.000000000' }]);
    } finally {
      await engine.close();
    }
  });

  it('opens nothing until first used, and a never-used engine closes cleanly', async () => {
    const engine = new ChdbEngine({ path: join(path, 'never-opened') });
    await engine.close();
    expect(existsSync(join(path, 'never-opened'))).toBe(false);
  });

  it('after retention, starts the written time span at the cutoff, keeping the events inserted since', async () => {
    // The embedded engine is its store's only writer, so it may narrow the span (docs/engine.md).
    const engine = new ChdbEngine({ path, poolSize: 2 });
    try {
      const tenant = uniqueTenant();
      await insert(engine, [anEvent({ tenant, tsNs: ns('2024-05-01T00:00:00Z') }), anEvent({ tenant, tsNs: ns('2024-05-20T00:00:00Z') })]);
      await engine.deleteEventsBefore(tenant, 'main', ns('2024-05-10T00:00:00Z'));
      expect(await engine.writtenTimeSpan(tenant, ['main'])).toEqual({ minTsNs: ns('2024-05-10T00:00:00Z'), maxTsNs: ns('2024-05-20T00:00:00Z') });
      await insert(engine, [anEvent({ tenant, tsNs: ns('2024-04-01T00:00:00Z') })]);
      expect(await engine.writtenTimeSpan(tenant, ['main'])).toEqual({ minTsNs: ns('2024-04-01T00:00:00Z'), maxTsNs: ns('2024-05-20T00:00:00Z') });
    } finally {
      await engine.close();
    }
  });

  it('a closed engine refuses work as unavailable', async () => {
    const engine = new ChdbEngine({ path });
    await engine.ping();
    await engine.close();
    const error = await engine.ping().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe(ErrorCodes.unavailable);
  });
});
