import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../core/index.js';
import { ChdbEngine } from '../engine/chdb/index.js';
import { sequenceCounter } from '../ingest/testing/ingest-fixtures.js';
import { writeSystemEvents, type SystemEventDeps } from './system-events.js';

const path = mkdtempSync(join(tmpdir(), 'vigil-system-events-'));
const engine = new ChdbEngine({ path, poolSize: 1 });
const nextSequence = sequenceCounter();
const tenants = { reserveSequence: (_tenantId: string, count: number): Promise<bigint> => nextSequence(count) };

beforeAll(async () => {
  await engine.init();
});

afterAll(async () => {
  await engine.close();
  rmSync(path, { recursive: true, force: true });
});

async function stored(tenant: string): Promise<{ ts: string; source_type: string; raw: string }[]> {
  const result = await engine.query<{ ts: string; source_type: string; raw: string }>(
    `SELECT toString(ts) AS ts, source_type, raw FROM logs WHERE tenant = '${tenant}' ORDER BY seq`,
  );
  return result.rows;
}

describe('writeSystemEvents', () => {
  it('writes the records as events of the target, telling the tenant before the write and after it', async () => {
    const seen: string[] = [];
    const deps: SystemEventDeps = {
      engine,
      store: { tenants },
      clock: new ManualClock(Date.UTC(2026, 10, 26, 8, 0, 0)),
      writingEvents: (tenant) => {
        seen.push(`writing ${tenant}`);
        return () => seen.push(`ended ${tenant}`);
      },
    };
    const summary = await writeSystemEvents(deps, { tenantId: 'acme', indexId: 'audit-1', timestampFields: ['when'], sourceType: 'vigil:audit' }, [
      { when: '2026-11-25T10:00:00Z', action: 'key.create' },
      { when: '2026-11-25T10:00:01Z', action: 'key.revoke', details: { name: 'ci "bot"' } },
    ]);
    expect(summary.ingested).toBe(2);
    expect(seen).toEqual(['writing acme', 'ended acme']);
    const rows = await stored('acme');
    expect(rows.map((r) => [r.ts, r.source_type, JSON.parse(r.raw).action])).toEqual([
      ['2026-11-25 10:00:00.000000000', 'vigil:audit', 'key.create'],
      ['2026-11-25 10:00:01.000000000', 'vigil:audit', 'key.revoke'],
    ]);
    expect(JSON.parse(rows[1]!.raw).details).toEqual({ name: 'ci "bot"' });
  });

  it('ends the write it announced when the engine refuses it, and passes the failure on', async () => {
    const seen: string[] = [];
    const failing = {
      eventEncoder: engine.eventEncoder.bind(engine),
      insertEvents: () => Promise.reject(new Error('disk full')),
    };
    const deps: SystemEventDeps = {
      engine: failing,
      store: { tenants },
      clock: new ManualClock(Date.UTC(2026, 10, 26, 8, 0, 0)),
      writingEvents: (tenant) => {
        seen.push(`writing ${tenant}`);
        return () => seen.push(`ended ${tenant}`);
      },
    };
    await expect(
      writeSystemEvents(deps, { tenantId: 'globex', indexId: 'det-1', timestampFields: ['timestamp'], sourceType: 'vigil:detection' }, [{ timestamp: '2026-11-25T10:00:00Z' }]),
    ).rejects.toThrow('inserting a batch of events');
    expect(seen).toEqual(['writing globex', 'ended globex']);
    expect(await stored('globex')).toEqual([]);
  });
});
