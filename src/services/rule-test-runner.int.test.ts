import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, silentLogger, systemClock } from '../core/index.js';
import { readRuleFile, type RuleDefinition } from '../detections/index.js';
import { ChdbEngine } from '../engine/chdb/index.js';
import { RuleTestRunner, scratchTenantPrefix } from './rule-test-runner.js';

// Rule tests on the real engine (E15), never a stand-in: one chDB engine for the whole file.
const path = mkdtempSync(join(tmpdir(), 'vigil-rule-tests-'));
let engine: ChdbEngine;
let runner: RuleTestRunner;

beforeAll(async () => {
  engine = new ChdbEngine({ path, poolSize: 2 });
  await engine.init();
  runner = new RuleTestRunner(engine, systemClock, silentLogger);
});
afterAll(async () => {
  await engine?.close();
  rmSync(path, { recursive: true, force: true });
});

/** A checked definition from a query, a schedule and test lines (`tests:` items). */
function rule(query: string, tests: string[], schedule = 'time_range_s: 300\nrun_frequency_s: 60'): RuleDefinition {
  const text = [`name: r`, `description: d`, `query_text: '${query}'`, schedule, 'tests:', ...tests].join('\n');
  const check = readRuleFile(text);
  if (check.definition === null) throw new Error(JSON.stringify(check.diagnostics));
  return check.definition;
}

/** One test item: its events (one per line), now and expectation. */
const test = (name: string, events: string[], expected: boolean, now?: string, format?: string): string =>
  [
    `  - name: ${name}`,
    ...(now ? [`    now_timestamp: "${now}"`] : []),
    ...(format ? [`    dataset_format: ${format}`] : []),
    '    dataset_inline: |',
    ...events.map((e) => `      ${e}`),
    `    expected_detection_result: ${expected}`,
  ].join('\n');

describe('RuleTestRunner', () => {
  it('passes when the query returns a row in [now - time_range_s, now) exactly when expected', async () => {
    const results = await runner.runAll(
      rule('eventName: Login', [
        test('inside', ['{"timestamp":"2026-05-15T00:02:59.999Z","eventName":"Login"}'], true, '2026-05-15T00:03:00Z'),
        // now is exclusive: an event at now is not in the window.
        test('at now', ['{"timestamp":"2026-05-15T00:03:00Z","eventName":"Login"}'], false, '2026-05-15T00:03:00Z'),
        // the start is inclusive; now_timestamp 00:02:30 rounds up to 00:03:00.
        test('at the start', ['{"timestamp":"2026-05-14T23:58:00Z","eventName":"Login"}'], true, '2026-05-15T00:02:30Z'),
        test('before the start', ['{"timestamp":"2026-05-14T23:57:59Z","eventName":"Login"}'], false, '2026-05-15T00:02:30Z'),
        test('wrong expectation', ['{"timestamp":"2026-05-15T00:02:00Z","eventName":"Logout"}'], true, '2026-05-15T00:03:00Z'),
      ]),
    );
    expect(results.map((r) => [r.name, r.status, r.detectionResult])).toEqual([
      ['inside', 'Passed', true],
      ['at now', 'Passed', false],
      ['at the start', 'Passed', true],
      ['before the start', 'Passed', false],
      ['wrong expectation', 'Failed', false],
    ]);
    expect(results[0]).toMatchObject({ rowCount: 1, rows: [expect.objectContaining({ eventName: 'Login' })] });
  });

  it('defaults now to just after the latest event, on a run_frequency_s boundary', async () => {
    const [result] = await runner.runAll(
      rule('* | count', [test('t', ['{"timestamp":"2024-01-01T00:00:00.000Z","message":"x"}'], true)], 'time_range_s: 3600\nrun_frequency_s: 600'),
    );
    expect(result).toMatchObject({ status: 'Passed', rows: [{ '@q.count': 1 }] });
    expect(result?.window.endNs).toBe(BigInt(Date.parse('2024-01-01T00:10:00Z')) * 1_000_000n);
  });

  it('reads the time and source type from @scnr fields, flat or nested, and aggregations see them', async () => {
    const results = await runner.runAll(
      rule('@scnr.source_type="aws:cloudtrail" | stats count() as n, min(@scnr.datetime) as first by eventName', [
        test(
          'raw',
          [
            '{"@scnr":{"datetime":"2026-05-15T00:02:30Z","source_type":"aws:cloudtrail"},"eventName":"A"}',
            '{"@scnr.datetime":"2026-05-15T00:02:40Z","%ingest.source_type":"aws:cloudtrail","eventName":"A"}',
            '{"@scnr.datetime":"2026-05-15T00:02:50Z","@scnr.source_type":"okta","eventName":"A"}',
          ],
          true,
          '2026-05-15T00:03:00Z',
          'RawJson',
        ),
      ]),
    );
    expect(results[0]).toMatchObject({ status: 'Passed', rows: [{ eventName: 'A', n: 2, first: '2026-05-15T00:02:30.000000000Z' }] });
  });

  it('loads the dataset into the indexes the query names, by name or by id', async () => {
    const results = await runner.runAll(
      rule('@index=(web app) x | count | where @q.count == 1', [test('once', ['{"timestamp":"2026-05-15T00:02:00Z","m":"x"}'], true, '2026-05-15T00:03:00Z')]),
    );
    expect(results[0]?.status).toBe('Passed');
    const byId = await runner.runAll(
      rule('@index={ 00000000-0000-0000-0000-000000000000 | "_detections" } tags[*]:c', [
        test('t', ['{"timestamp":"2026-05-15T00:02:00Z","tags":["c"]}'], true, '2026-05-15T00:03:00Z'),
      ]),
    );
    expect(byId[0]?.status).toBe('Passed');
  });

  it('keeps each test to its own scratch tenant and deletes its events afterwards', async () => {
    await runner.runAll(
      rule('x', [
        test('a', ['{"timestamp":"2026-05-15T00:02:00Z","m":"x"}'], true, '2026-05-15T00:03:00Z'),
        test('b', ['{"timestamp":"2026-05-15T00:02:00Z","m":"y"}'], false, '2026-05-15T00:03:00Z'),
      ]),
    );
    await runner.settled();
    const left = await engine.query<{ n: string }>(`SELECT count() AS n FROM logs WHERE startsWith(tenant, '${scratchTenantPrefix}')`);
    expect(Number(left.rows[0]?.n)).toBe(0);
  });

  it('sweeps the events of tests whose process stopped before deleting them, once they are an hour old', async () => {
    await runner.settled();
    const scratchTenants = async (): Promise<Set<string>> => new Set((await engine.indexesWithEvents(scratchTenantPrefix)).map((index) => index.tenant));
    const madeAt = Date.UTC(2020, 0, 1, 8, 0, 0); // before any test of this file made its tenant
    // A runner that does not delete its events stands for a process killed before it did.
    const interrupted = (nowMs: number) => new RuleTestRunner(engine, new ManualClock(nowMs), silentLogger, { deleteScratchEvents: false });
    const oneTest = rule('x', [test('a', ['{"timestamp":"2026-05-15T00:02:00Z","m":"x"}'], true, '2026-05-15T00:03:00Z')]);
    const before = await scratchTenants();
    await interrupted(madeAt).runAll(oneTest);
    const withOld = await scratchTenants();
    await interrupted(madeAt + 30 * 60_000).runAll(oneTest);
    const young = [...(await scratchTenants())].filter((tenant) => !withOld.has(tenant));
    expect(withOld.size).toBe(before.size + 1);
    expect(young).toHaveLength(1);

    const sweeper = (nowMs: number) => new RuleTestRunner(engine, new ManualClock(nowMs), silentLogger);
    expect(await sweeper(madeAt + 59 * 60_000).sweepLeftovers()).toBe(0);
    expect(await sweeper(madeAt + 61 * 60_000).sweepLeftovers()).toBe(1);
    expect(await scratchTenants()).toEqual(new Set([...before, ...young]));
    expect(await sweeper(madeAt + 91 * 60_000).sweepLeftovers()).toBe(1);
    expect(await scratchTenants()).toEqual(before);
  });
});
