/**
 * The rest maps in buckets (schema v11): inserts write plain maps, merges write them in buckets by
 * key hash, and a search on a field kept in a rest map finds the same events before and after.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, silentLogger } from '../core/index.js';
import { ChdbEngine } from '../engine/chdb/index.js';
import { eventWriter } from '../ingest/testing/ingest-fixtures.js';
import { SearchService } from './search-service.js';

const dir = mkdtempSync(join(tmpdir(), 'vigil-buckets-'));
const clock = new ManualClock(Date.parse('2026-11-21T12:00:00Z'));
const indexes = [{ id: 'i-win', name: 'win', system: false }];
const base = Date.parse('2026-11-21T00:00:00Z');
const range = { startNs: BigInt(base) * 1_000_000n, endNs: BigInt(base + 86_400_000) * 1_000_000n };
let engine: ChdbEngine;

/** 400 events of one shape, and in 2 of them fields rare enough (0.5 %) to stay in the rest maps. */
function events(batch: number): Record<string, unknown>[] {
  return Array.from({ length: 400 }, (_, i) => ({
    ts: new Date(base + batch * 3_600_000 + i * 1000).toISOString(),
    EventID: 4688,
    Computer: `host-${i % 7}`,
    ...(i === 17 ? { CommandLine: `powershell.exe -enc batch${batch}`, ParentPid: 4100 + batch } : {}),
    ...(i === 300 ? { CommandLine: 'cmd.exe /c whoami' } : {}),
  }));
}

async function paths(text: string): Promise<string[]> {
  const service = new SearchService(engine, async () => indexes, clock, silentLogger);
  const result = await service.run('acme', text, range, { maxRows: 100 });
  return result.rows.map((row) => String(row.columns.CommandLine)).sort();
}

async function restSubstreams(): Promise<string[][]> {
  const { rows } = await engine.query<{ substreams: string[] }>(
    "SELECT substreams FROM system.parts_columns WHERE database = currentDatabase() AND table = 'logs' AND active AND column = 'rest_s'",
  );
  return rows.map((row) => row.substreams);
}

beforeAll(async () => {
  engine = new ChdbEngine({ path: dir, poolSize: 2 });
  await engine.init();
  const write = eventWriter(engine, clock);
  for (const batch of [1, 2]) expect((await write('i-win', events(batch))).ingested).toBe(400);
}, 60_000);

afterAll(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('rest maps in buckets', () => {
  it('keeps the rare fields in the rest maps, not in slots', async () => {
    const layout = await engine.fieldLayout('acme', ['i-win']);
    expect(layout.slots.has('EventID')).toBe(true);
    expect(layout.slots.has('CommandLine')).toBe(false);
    expect(layout.slots.has('ParentPid')).toBe(false);
  });

  it('inserts write plain maps; a merge writes buckets, and searches on rest fields answer the same', async () => {
    const before = await restSubstreams();
    expect(before.length).toBeGreaterThan(0);
    for (const substreams of before) expect(substreams).not.toContain('rest_s.buckets_info');
    const queries = ['CommandLine: powershell', "CommandLine: 'cmd.exe'", 'ParentPid > 4101', 'CommandLine: * EventID: 4688'];
    const answers = await Promise.all(queries.map(paths));
    expect(answers).toEqual([
      ['powershell.exe -enc batch1', 'powershell.exe -enc batch2'],
      ['cmd.exe /c whoami', 'cmd.exe /c whoami'],
      ['powershell.exe -enc batch2'],
      ['cmd.exe /c whoami', 'cmd.exe /c whoami', 'powershell.exe -enc batch1', 'powershell.exe -enc batch2'],
    ]);

    await engine.optimize();
    const after = await restSubstreams();
    expect(after).toHaveLength(1);
    expect(after[0]).toContain('rest_s.buckets_info');
    expect(after[0]).toContain('rest_s.15.size0');
    expect(await Promise.all(queries.map(paths))).toEqual(answers);
  });
});
