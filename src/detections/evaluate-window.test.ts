import { describe, expect, it } from 'vitest';
import { ManualClock } from '../core/index.js';
import { alertTableRows, evaluateWindow, type RuleWindow } from './evaluate-window.js';
import type { QueryRows, ResultRow, RunQuery, WindowQuery } from './run-query.js';
import { InMemoryRuleMemory } from './in-memory-rule-memory.js';
import { identityOf, ruleRecord } from './testing/rule-fixtures.js';

const minute = 60_000;
const t0 = Date.parse('2026-11-21T12:00:00Z');
const windowEnding = (endMs: number, rangeS = 300): RuleWindow => ({ startMs: endMs - rangeS * 1000, endMs });

/** Raw-event rows with row ids, or table rows without, as the search service returns them. */
const event = (s: number, columns: Record<string, string | number | null>): ResultRow => ({ rowId: { t: String(BigInt(t0) * 1_000_000n), s: String(s) }, columns });
const tableRow = (columns: Record<string, string | number | null>): ResultRow => ({ rowId: null, columns });

/** Answers each window's query with rows, and the identity its compiler gives them. */
function harness(answer: (query: WindowQuery) => Omit<QueryRows, 'identity'>) {
  const clock = new ManualClock(t0 + 30_000);
  const memory = new InMemoryRuleMemory();
  const queries: WindowQuery[] = [];
  let n = 0;
  const runQuery: RunQuery = async (query) => {
    queries.push(query);
    return { identity: identityOf(query.queryText), ...answer(query) };
  };
  const deps = { runQuery, memory, clock, newId: () => `id-${++n}`, maxRows: 10_000 };
  return { clock, memory, queries, deps };
}

describe('evaluateWindow: detections and alerts (E4, E7)', () => {
  it('runs the query over [end - time_range_s, end) and finds nothing in an empty result', async () => {
    const h = harness(() => ({ columns: [], rows: [] }));
    const result = await evaluateWindow(ruleRecord(), false, windowEnding(t0), h.deps);
    expect(h.queries).toEqual([
      { tenantId: 'acme', queryText: 'eventName: ConsoleLogin', startNs: BigInt(t0 - 300_000) * 1_000_000n, endNs: BigInt(t0) * 1_000_000n, maxRows: 10_000 },
    ]);
    expect(result).toMatchObject({ rowCount: 0, detections: [], alerts: [] });
  });

  it('writes one detection and builds one alert carrying the table cut to 100 rows with the true count', async () => {
    const rows = Array.from({ length: 250 }, (_, i) => event(i, { user: `u${i}` }));
    const h = harness(() => ({ columns: ['@svc.datetime', 'user'], rows }));
    const rule = ruleRecord({ alertTemplate: { info: [{ label: 'User', value: '{{user}}', useForDedup: false }], actions: [] } });
    const result = await evaluateWindow(rule, false, windowEnding(t0), h.deps);
    expect(result.detections).toHaveLength(1);
    expect(result.alerts).toHaveLength(1);
    const alert = result.alerts[0]!;
    expect(alert.suppressed).toBe(false);
    expect(alert.message).toMatchObject({
      id: 'id-1',
      detectionRuleId: 'rule-1',
      severity: 'High',
      severityId: 4,
      staging: false,
      window: { start: '2026-11-21T11:55:00.000000000Z', end: '2026-11-21T12:00:00.000000000Z' },
      timestampNs: String(BigInt(t0 + 30_000) * 1_000_000n),
      info: [{ label: 'User', value: 'u0' }],
      templated: true,
    });
    expect(alert.message.resultsTable.rows).toHaveLength(alertTableRows);
    expect(alert.message.resultsTable.totalRowCount).toBe(250);
    expect(result.detections[0]).toMatchObject({ id: 'id-1', staging: 'false', timestamp: '2026-11-21T12:00:30.000000000Z', results_table: { total_row_count: 250 } });
    expect(result.identities).toHaveLength(250);
  });

  it('makes one detection and one alert per row with alert_per_row', async () => {
    const h = harness(() => ({ columns: ['user', '@q.count'], rows: [tableRow({ user: 'a', '@q.count': 2 }), tableRow({ user: 'b', '@q.count': 5 })] }));
    const rule = ruleRecord({ alertPerRow: true, queryText: 'x | groupbycount(user)' });
    const result = await evaluateWindow(rule, false, windowEnding(t0), h.deps);
    expect(result.detections.map((d) => (d as any).results_table.rows)).toEqual([[{ user: 'a', '@q.count': 2 }], [{ user: 'b', '@q.count': 5 }]]);
    expect(result.alerts.map((a) => [a.message.id, a.message.resultsTable.rows, a.message.resultsTable.totalRowCount])).toEqual([
      ['id-1', [{ user: 'a', '@q.count': 2 }], 1],
      ['id-2', [{ user: 'b', '@q.count': 5 }], 1],
    ]);
  });

  it('writes detections of a Staging rule but builds no alert', async () => {
    const h = harness(() => ({ columns: ['user'], rows: [event(1, { user: 'a' })] }));
    const result = await evaluateWindow(ruleRecord({ enabledStateOverride: 'Staging' }), true, windowEnding(t0), h.deps);
    expect(result.detections).toHaveLength(1);
    expect(result.detections[0]).toMatchObject({ staging: 'true' });
    expect(result.alerts).toEqual([]);
  });
});

describe('evaluateWindow: debounce over overlapping windows (E5)', () => {
  async function run(rule: ReturnType<typeof ruleRecord>, h: ReturnType<typeof harness>, endMs: number) {
    const result = await evaluateWindow(rule, false, windowEnding(endMs, rule.timeRangeS), h.deps);
    h.memory.record(rule.id, result);
    return result;
  }

  it('drops raw events already alerted by an overlapping window, and alerts only the new ones', async () => {
    let rows = [event(1, { user: 'a' })];
    const h = harness(() => ({ columns: ['user'], rows }));
    const rule = ruleRecord();
    expect((await run(rule, h, t0)).alerts).toHaveLength(1);
    rows = [event(1, { user: 'a' }), event(2, { user: 'b' })];
    const second = await run(rule, h, t0 + minute);
    expect(second.detections).toHaveLength(1);
    expect(second.alerts.map((a) => a.message.resultsTable.rows)).toEqual([[{ user: 'b' }]]);
    expect(second.debouncedRows).toBe(1);
    const third = await run(rule, h, t0 + 2 * minute);
    expect(third.alerts).toEqual([]);
    expect(third.detections).toHaveLength(1);
  });

  it('identifies grouped rows by their group columns and ungrouped aggregations by the rule', async () => {
    let rows = [tableRow({ user: 'a', '@q.count': 3 })];
    const h = harness(() => ({ columns: ['user', '@q.count'], rows }));
    const grouped = ruleRecord({ id: 'grouped', queryText: 'x | stats count() by user | where @q.count > 2' });
    expect((await run(grouped, h, t0)).alerts).toHaveLength(1);
    rows = [tableRow({ user: 'a', '@q.count': 4 }), tableRow({ user: 'b', '@q.count': 3 })];
    expect((await run(grouped, h, t0 + minute)).alerts.map((a) => a.message.resultsTable.rows)).toEqual([[{ user: 'b', '@q.count': 3 }]]);

    const counted = ruleRecord({ id: 'counted', queryText: 'x | count | where @q.count > 2' });
    rows = [tableRow({ '@q.count': 3 })];
    expect((await run(counted, h, t0)).alerts).toHaveLength(1);
    rows = [tableRow({ '@q.count': 9 })];
    expect((await run(counted, h, t0 + 4 * minute)).alerts).toHaveLength(0); // still overlapping
    expect((await run(counted, h, t0 + 5 * minute)).alerts).toHaveLength(1); // [t0, t0+5m) no longer overlaps [t0-5m, t0)
  });

  it('alerts every run when debounce is off', async () => {
    const h = harness(() => ({ columns: ['user'], rows: [event(1, { user: 'a' })] }));
    const rule = ruleRecord({ debounce: false });
    for (let i = 0; i < 3; i++) expect((await run(rule, h, t0 + i * minute)).alerts).toHaveLength(1);
  });
});

describe('evaluateWindow: dedup (E6)', () => {
  const template = (dedup: boolean) => ({ info: [{ label: 'User', value: '{{user}}', useForDedup: dedup }], actions: [] });

  async function run(rule: ReturnType<typeof ruleRecord>, h: ReturnType<typeof harness>, endMs: number) {
    const result = await evaluateWindow(rule, false, windowEnding(endMs, rule.timeRangeS), h.deps);
    h.memory.record(rule.id, result);
    return result.alerts.map((a) => (a.suppressed ? 'suppressed' : 'sent'));
  }

  it('suppresses an alert whose key was sent within dedup_window_s, and sends it again after', async () => {
    let s = 0;
    const h = harness(() => ({ columns: ['user'], rows: [event(++s, { user: 'a' })] }));
    const rule = ruleRecord({ dedupWindowS: 180, alertTemplate: template(true) });
    expect(await run(rule, h, t0)).toEqual(['sent']);
    expect(await run(rule, h, t0 + minute)).toEqual(['suppressed']);
    expect(await run(rule, h, t0 + 2 * minute)).toEqual(['suppressed']);
    expect(await run(rule, h, t0 + 3 * minute)).toEqual(['sent']); // 180 s after the first send
    expect(await run(rule, h, t0 + 4 * minute)).toEqual(['suppressed']); // anchored at the last send
  });

  it('uses the run frequency as the default window: consecutive runs send, duplicates within one run do not', async () => {
    let s = 0;
    const h = harness(() => ({ columns: ['user'], rows: [event(++s, { user: 'a' }), event(++s, { user: 'a' }), event(++s, { user: 'b' })] }));
    const rule = ruleRecord({ alertPerRow: true, alertTemplate: template(true) });
    expect(await run(rule, h, t0)).toEqual(['sent', 'suppressed', 'sent']);
    expect(await run(rule, h, t0 + minute)).toEqual(['sent', 'suppressed', 'sent']);
  });

  it('has no dedup without use_for_dedup items', async () => {
    let s = 0;
    const h = harness(() => ({ columns: ['user'], rows: [event(++s, { user: 'a' })] }));
    const rule = ruleRecord({ dedupWindowS: 3600, alertTemplate: template(false) });
    expect(await run(rule, h, t0)).toEqual(['sent']);
    expect(await run(rule, h, t0 + minute)).toEqual(['sent']);
  });
});
