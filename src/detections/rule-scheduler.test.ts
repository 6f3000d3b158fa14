import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock, newId, silentLogger } from '../core/index.js';
import type { DetectionRuleRecord, Store } from '../store/index.js';
import { createSqliteStore } from '../store/sqlite/index.js';
import { RuleScheduler, defaultSchedulerSettings, type SchedulerSettings } from './rule-scheduler.js';
import type { QueryRows, RunQuery, WindowQuery } from './run-query.js';
import { ruleRecord } from './testing/rule-fixtures.js';

const minute = 60_000;
const t = Date.parse('2026-11-21T12:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString().slice(11, 16);

let store: Store;
let clock: ManualClock;
let queries: WindowQuery[];
let detections: Record<string, unknown>[];
let answer: (query: WindowQuery) => Promise<QueryRows>;

const oneRow: QueryRows = { columns: ['user'], rows: [{ rowId: null, columns: { user: 'a' } }], identity: { kind: 'event' } };
const noRows: QueryRows = { columns: [], rows: [], identity: { kind: 'event' } };

beforeEach(async () => {
  store = await createSqliteStore(':memory:');
  await store.migrate();
  await store.tenants.ensure('acme', t);
  clock = new ManualClock(t + 30_000);
  queries = [];
  detections = [];
  answer = async () => noRows;
});
afterEach(async () => store.close());

function scheduler(settings: Partial<SchedulerSettings> = {}): RuleScheduler {
  const runQuery: RunQuery = (query) => {
    queries.push(query);
    return answer(query);
  };
  return new RuleScheduler(
    { store, clock, runQuery, writeDetections: async (_tenant, events) => void detections.push(...events), logger: silentLogger },
    { ...defaultSchedulerSettings, ...settings },
  );
}

async function addRule(overrides: Partial<DetectionRuleRecord> = {}): Promise<DetectionRuleRecord> {
  const rule = ruleRecord({ id: newId(), createdAt: t, updatedAt: t, ...overrides });
  await store.rules.insert(rule);
  return rule;
}

/** The window ends the rule's queries covered, as HH:MM. */
const endsOf = (ruleText = 'eventName: ConsoleLogin') => queries.filter((q) => q.queryText === ruleText).map((q) => iso(Number(q.endNs / 1_000_000n)));

describe('RuleScheduler: windows and cursors (E1-E3)', () => {
  it('backfills the most recent settled window of a new rule, then one window per run frequency after the settle delay', async () => {
    const rule = await addRule();
    const s = scheduler();
    expect(await s.runDue()).toEqual({ windows: 1, failures: 0 });
    expect(queries[0]).toMatchObject({ tenantId: 'acme', startNs: BigInt(t - 300_000) * 1_000_000n, endNs: BigInt(t) * 1_000_000n });
    clock.advance(minute - 1);
    expect((await s.runDue()).windows).toBe(0);
    clock.advance(1);
    expect((await s.runDue()).windows).toBe(1);
    expect(endsOf()).toEqual(['12:00', '12:01']);
    expect((await store.detectionState.getState(rule.id))?.cursorMs).toBe(t + minute);
  });

  it('catches up every missed window in order after downtime, and a new scheduler resumes from the stored cursor', async () => {
    await addRule();
    await scheduler().runDue();
    clock.advance(10 * minute);
    await scheduler().runDue(); // a new process over the same store
    expect(endsOf()).toEqual(['12:00', '12:01', '12:02', '12:03', '12:04', '12:05', '12:06', '12:07', '12:08', '12:09', '12:10']);
  });

  it('records windows older than the catch-up horizon as a gap and evaluates the rest', async () => {
    const rule = await addRule();
    await scheduler({ catchUpHorizonMs: 5 * minute }).runDue();
    clock.advance(20 * minute);
    await scheduler({ catchUpHorizonMs: 5 * minute }).runDue();
    // At 12:20:30 with a 5-minute horizon, windows ending before 12:15:30 are too old.
    expect(endsOf()).toEqual(['12:00', '12:16', '12:17', '12:18', '12:19', '12:20']);
    expect(await store.detectionState.getState(rule.id)).toMatchObject({ gapStartMs: t, gapEndMs: t + 15 * minute, skippedWindows: 15, cursorMs: t + 20 * minute });
  });

  it("evaluates windows ending on multiples of the run frequency over the rule's time range", async () => {
    await addRule({ runFrequencyS: 300, timeRangeS: 900 });
    clock.set(t + 14 * minute);
    const s = scheduler();
    await s.runDue();
    clock.advance(10 * minute);
    await s.runDue();
    expect(queries.map((q) => [iso(Number(q.startNs / 1_000_000n)), iso(Number(q.endNs / 1_000_000n))])).toEqual([
      ['11:55', '12:10'],
      ['12:00', '12:15'],
      ['12:05', '12:20'],
    ]);
  });

  it('never runs a Paused rule, and a re-activated rule evaluates only the latest window', async () => {
    const rule = await addRule({ enabledStateOverride: 'Paused' });
    const s = scheduler();
    clock.advance(5 * minute);
    expect(await s.runDue()).toEqual({ windows: 0, failures: 0 });
    await store.rules.update('acme', rule.id, { enabledStateOverride: 'Active' }, clock.nowMs());
    await s.runDue();
    await store.rules.update('acme', rule.id, { enabledStateOverride: 'Paused' }, clock.nowMs());
    clock.advance(30 * minute);
    expect((await s.runDue()).windows).toBe(0);
    await store.rules.update('acme', rule.id, { enabledStateOverride: 'Active' }, clock.nowMs());
    await store.detectionState.resetCursor('acme', rule.id); // what DetectionRuleService does on re-activation
    await s.runDue();
    expect(endsOf()).toEqual(['12:05', '12:35']);
  });

  it('applies a rule change from the next window on', async () => {
    const rule = await addRule();
    const s = scheduler();
    await s.runDue();
    await store.rules.update('acme', rule.id, { queryText: 'eventName: Other', timeRangeS: 120 }, clock.nowMs());
    clock.advance(minute);
    await s.runDue();
    expect(queries.map((q) => [q.queryText, Number(q.endNs - q.startNs) / 1e6])).toEqual([
      ['eventName: ConsoleLogin', 300_000],
      ['eventName: Other', 120_000],
    ]);
  });
});

describe('RuleScheduler: what a window produces (E4, E7, E13)', () => {
  it("writes detections and queues one outbox row per sink for an Active rule, in the cursor's transaction", async () => {
    const sinks = [newId(), newId()];
    for (const id of sinks)
      await store.sinks.insert({
        id,
        tenantId: 'acme',
        name: id,
        description: '',
        type: 'Webhook',
        config: { url: 'https://x.example.com' },
        sealedSecrets: null,
        chatIntegrationId: null,
        createdAt: t,
        updatedAt: t,
      });
    const rule = await addRule({ eventSinkIds: sinks });
    answer = async () => oneRow;
    await scheduler().runDue();
    expect(detections).toHaveLength(1);
    const { items } = await store.alerts.list('acme', { pageSize: 10 });
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ ruleId: rule.id, status: 'pending', windowEndMs: t });
    expect((await store.alerts.deliveries(items[0]!.id)).map((d) => d.sinkId)).toEqual(sinks);
    expect((await store.rules.get('acme', rule.id))?.lastAlertedAt).toBe(t + 30_000);
  });

  it('records an alert of a rule without sinks as no_sinks, and sends nothing for a Staging rule', async () => {
    const active = await addRule();
    const staging = await addRule({ enabledStateOverride: 'Staging', queryText: 'staging' });
    answer = async () => oneRow;
    await scheduler().runDue();
    expect(detections.map((d) => [d.detection_rule_id, d.staging])).toEqual(
      expect.arrayContaining([
        [active.id, 'false'],
        [staging.id, 'true'],
      ]),
    );
    const { items } = await store.alerts.list('acme', { pageSize: 10 });
    expect(items.map((a) => [a.ruleId, a.status])).toEqual([[active.id, 'no_sinks']]);
    expect((await store.rules.get('acme', staging.id))?.lastAlertedAt).toBeNull();
  });
});

describe('RuleScheduler: failures, time-outs and fairness', () => {
  it('keeps detections queued while _detections cannot be written, without holding the windows back', async () => {
    await addRule();
    answer = async () => oneRow;
    let engineUp = false;
    const runQuery: RunQuery = (query) => answer(query);
    const s = new RuleScheduler(
      {
        store,
        clock,
        runQuery,
        writeDetections: async (_tenant, events) => {
          if (!engineUp) throw new Error('engine unavailable');
          detections.push(...events);
        },
        logger: silentLogger,
      },
      defaultSchedulerSettings,
    );
    await s.runDue();
    clock.advance(minute);
    await s.runDue();
    expect(detections).toEqual([]);
    expect(await store.detectionState.unshippedDetections(10)).toHaveLength(2);
    engineUp = true;
    await s.runDue();
    expect(detections.map((d) => (d as any).detected_in_time_range.end)).toEqual(['2026-11-21T12:00:00.000000000Z', '2026-11-21T12:01:00.000000000Z']);
    expect(await store.detectionState.unshippedDetections(10)).toEqual([]);
  });

  it('keeps the cursor when a run fails and evaluates the same window again after a back-off', async () => {
    const rule = await addRule();
    let fail = true;
    answer = async () => {
      if (fail) throw new Error('engine unavailable');
      return noRows;
    };
    const s = scheduler();
    expect(await s.runDue()).toEqual({ windows: 0, failures: 1 });
    expect(await store.detectionState.getState(rule.id)).toMatchObject({ cursorMs: null, lastError: 'engine unavailable', consecutiveFailures: 1 });
    expect((await s.runDue()).failures).toBe(0); // backing off
    fail = false;
    clock.advance(2000);
    expect(await s.runDue()).toEqual({ windows: 1, failures: 0 });
    expect(endsOf()).toEqual(['12:00', '12:00', '12:00'].slice(0, queries.length));
    expect(await store.detectionState.getState(rule.id)).toMatchObject({ cursorMs: t, lastError: null, consecutiveFailures: 0 });
  });

  it('cancels a query past the rule time-out without holding up other rules', async () => {
    const slow = await addRule({ queryText: 'slow' });
    await addRule({ queryText: 'fast' });
    let cancelled = false;
    answer = (query) =>
      query.queryText === 'slow'
        ? new Promise((_, reject) =>
            query.signal?.addEventListener('abort', () => {
              cancelled = true;
              reject(new Error('cancelled'));
            }),
          )
        : Promise.resolve(noRows);
    clock.advance(4 * minute);
    const s = scheduler({ ruleTimeoutMs: 200, maxConcurrentRuns: 2 });
    await s.runDue();
    expect(cancelled).toBe(true);
    expect(endsOf('fast')).toEqual(['12:04']);
    expect(await store.detectionState.getState(slow.id)).toMatchObject({ cursorMs: null, lastError: 'the query did not finish within 200 ms' });
  });

  it('takes rules in turn, one window each, so a long backlog does not starve others', async () => {
    await addRule({ queryText: 'a', createdAt: t });
    await addRule({ queryText: 'b', createdAt: t + 1 });
    const s = scheduler({ maxConcurrentRuns: 1 });
    await s.runDue();
    clock.advance(3 * minute);
    queries = [];
    await s.runDue();
    expect(queries.map((q) => `${q.queryText}@${iso(Number(q.endNs / 1_000_000n))}`)).toEqual(['a@12:01', 'b@12:01', 'a@12:02', 'b@12:02', 'a@12:03', 'b@12:03']);
  });

  it('start() runs due windows on its own and stop() waits for them', async () => {
    await addRule();
    const s = scheduler({ tickIntervalMs: 20 });
    s.start();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await s.stop();
    expect(endsOf()).toEqual(['12:00']);
  });
});
