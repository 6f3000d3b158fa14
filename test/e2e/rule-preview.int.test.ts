/**
 * Rule preview over history (`POST /v1/detection_rule_preview`) against the real scheduler:
 * rules made through the API run window after window on a hand-moved clock over the real engine,
 * and the preview of the same rules over the same windows, afterwards, gives the same verdicts,
 * window by window: which windows alert, how many alerts, which dedup suppresses, and the rows
 * they carry (debounce, dedup and alert_per_row included). It writes nothing: no alert, cursor
 * or `_detections` event appears. And every bad request is a 400 naming its field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runVigil } from '../../src/cli/testing/run-vigil.js';
import { iso, isoNs, minute, openDetectionHarness, type DetectionHarness } from '../support/detection-harness.js';

const base = Date.parse('2026-11-21T12:00:00Z');
const first = base - 15 * minute; // every rule's first window ends at or just before it
let d: DetectionHarness;
let key: string;

// Twenty minutes of logins before `base`: alice every third minute, bob twice every fifth, carol's other events every seventh.
function history(): Record<string, unknown>[] {
  const events: Record<string, unknown>[] = [];
  for (let m = 0; m < 20; m++) {
    const at = base - 20 * minute + m * minute;
    if (m % 3 === 0) events.push({ '@timestamp': iso(at + 10_000), eventName: 'ConsoleLogin', user: 'alice' });
    if (m % 5 === 0) events.push({ '@timestamp': iso(at + 20_000), eventName: 'ConsoleLogin', user: 'bob' }, { '@timestamp': iso(at + 40_000), eventName: 'ConsoleLogin', user: 'bob' });
    if (m % 7 === 0) events.push({ '@timestamp': iso(at + 30_000), eventName: 'Other', user: 'carol' });
  }
  return events;
}

const rules: Record<string, Record<string, unknown>> = {
  filter: { query_text: '@index=logs eventName: ConsoleLogin' },
  perUserDedup: {
    query_text: '@index=logs eventName: ConsoleLogin | stats count() as n by user | where n >= 2',
    alert_per_row: true,
    debounce: false,
    dedup_window_s: 180,
    alert_template: { info: [{ label: 'User', value: '{{user}}', use_for_dedup: true }] },
  },
  countEveryWindow: { query_text: '@index=logs eventName: ConsoleLogin | count', time_range_s: 120, debounce: false },
  bobPerRow: { query_text: '@index=logs eventName: ConsoleLogin | where user == "bob"', time_range_s: 180, alert_per_row: true },
  tumbling: { query_text: '@index=logs user: carol', time_range_s: 120, run_frequency_s: 120 },
};
const ids: Record<string, string> = {};

beforeAll(async () => {
  d = await openDetectionHarness(first + 30_000);
  key = await d.tenant('pv');
  await d.ingest('pv', history());
  for (const [name, body] of Object.entries(rules)) ids[name] = await d.rule(key, { tenant_id: 'pv', name, ...body });
  await d.run(); // each rule's most recent window
  d.clock.set(base + 30_000);
  await d.run(); // every window after it, in order
}, 120_000);
afterAll(async () => d?.close());

/** Per window end: alerts sent, suppressed, and the rows they carry (sorted). */
type Verdicts = Record<string, { alerts: number; suppressed: number; rows: string[] }>;

async function schedulerVerdicts(ruleId: string): Promise<Verdicts> {
  const { items } = await d.h.runtime.services.store.alerts.list('pv', { pageSize: 1000, ruleId });
  const out: Verdicts = {};
  for (const alert of items) {
    const v = (out[isoNs(alert.windowEndMs)] ??= { alerts: 0, suppressed: 0, rows: [] });
    if (alert.status === 'suppressed') v.suppressed++;
    else v.alerts++;
    v.rows.push(...(alert.payload as any).resultsTable.rows.map((r: unknown) => JSON.stringify(r)));
  }
  for (const v of Object.values(out)) v.rows.sort();
  return out;
}

function previewVerdicts(body: any): Verdicts {
  const out: Verdicts = {};
  for (const w of body.windows) out[w.end_time] = { alerts: w.alerts, suppressed: w.suppressed, rows: w.rows.map((r: unknown) => JSON.stringify(r)).sort() };
  return out;
}

const preview = (body: Record<string, unknown>) => d.h.call('POST', '/v1/detection_rule_preview', key, { tenant_id: 'pv', end_time: iso(base), ...body });

describe('preview equals the scheduler', () => {
  it.each(Object.keys(rules))('%s: the same windows alert, with the same alerts, suppressions and rows', async (name) => {
    const ruleId = ids[name] as string;
    const expected = await schedulerVerdicts(ruleId);
    const frequency = ((rules[name]?.run_frequency_s as number | undefined) ?? 60) * 1000;
    const firstEnd = Math.floor(first / frequency) * frequency;
    const r = await preview({ rule_id: ruleId, start_time: iso(firstEnd - 1000) });
    expect(r.status).toBe(200);
    expect(r.body.windows_evaluated).toBe((base - firstEnd) / frequency + 1);
    expect(Object.keys(expected).length).toBeGreaterThan(0);
    expect(Object.keys(expected).length).toBeLessThanOrEqual(r.body.windows_evaluated);
    expect(previewVerdicts(r.body)).toEqual(expected);
    expect(r.body.windows_alerted).toBe(Object.keys(expected).length);
    // Newest first.
    const ends = r.body.windows.map((w: any) => w.end_time);
    expect([...ends].sort().reverse()).toEqual(ends);
  });

  it('the cases tell debounce, dedup and empty windows apart', async () => {
    const dedup = await schedulerVerdicts(ids.perUserDedup as string);
    expect(Object.values(dedup).some((v) => v.suppressed > 0)).toBe(true);
    const everyWindow = await schedulerVerdicts(ids.countEveryWindow as string);
    expect(Object.values(everyWindow).some((v) => v.rows.includes('{"@q.count":0}'))).toBe(true);
  });
});

describe('preview writes nothing', () => {
  it('leaves alerts, cursors and _detections as they were, and previews a rule whatever its state', async () => {
    const services = d.h.runtime.services;
    const alertsBefore = (await services.store.alerts.list('pv', { pageSize: 1000 })).items.length;
    const stateBefore = await services.store.detectionState.getState(ids.filter as string);
    const detections = async () => (await d.h.call('POST', '/v1/blocking_query', key, { tenant_id: 'pv', query: '@index=_detections | count', start_time: '2026-01-01T00:00:00Z', end_time: '2027-01-01T00:00:00Z' })).body.results.rows[0].columns['@q.count'];
    const detectionsBefore = await detections();
    await d.h.call('PUT', `/v1/detection_rule/${ids.filter}`, key, { id: ids.filter, enabled_state_override: 'Paused' });
    const r = await preview({ rule_id: ids.filter, start_time: iso(base - 20 * minute) });
    expect(r.status).toBe(200);
    expect(r.body.windows_alerted).toBeGreaterThan(0);
    expect((await services.store.alerts.list('pv', { pageSize: 1000 })).items.length).toBe(alertsBefore);
    expect((await services.store.detectionState.getState(ids.filter as string))?.cursorMs).toBe(stateBefore?.cursorMs);
    expect(await detections()).toBe(detectionsBefore);
  });
});

describe('unsaved rules and rule files', () => {
  it('previews unsaved fields and a rule file like the stored rule they describe', async () => {
    const stored = await preview({ rule_id: ids.bobPerRow, start_time: iso(base - 20 * minute) });
    const unsaved = await preview({ rule: { query_text: rules.bobPerRow!.query_text, time_range_s: 180, run_frequency_s: 60, alert_per_row: true }, start_time: iso(base - 20 * minute) });
    expect(previewVerdicts(unsaved.body)).toEqual(previewVerdicts(stored.body));
    const yaml = [
      'name: bob logins',
      'description: bob logged in',
      'enabled: Staging',
      'severity: Low',
      `query_text: '${String(rules.bobPerRow!.query_text).replaceAll("'", "''")}'`,
      'time_range_s: 180',
      'run_frequency_s: 60',
      'alert_per_row: true',
    ].join('\n');
    const file = await preview({ rule_yaml: yaml, start_time: iso(base - 20 * minute) });
    expect(file.status).toBe(200);
    expect(previewVerdicts(file.body)).toEqual(previewVerdicts(stored.body));
  });

  it('GET /v1/detection_rule/{id}/yaml gives the stored rule as a file that validates and previews alike', async () => {
    const file = await d.h.app.inject({ method: 'GET', url: `/v1/detection_rule/${ids.perUserDedup}/yaml`, headers: { authorization: `Bearer ${key}` } });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toMatch(/^application\/yaml/);
    expect(file.body).toContain('dedup_window_s: 180');
    const check = await d.h.app.inject({ method: 'POST', url: '/v1/detection_rule_yaml/validate?tenant_id=pv', headers: { authorization: `Bearer ${key}`, 'content-type': 'text/yaml' }, payload: file.body });
    expect(check.json()).toMatchObject({ is_valid: true, error: null });
    const stored = await preview({ rule_id: ids.perUserDedup, start_time: iso(base - 20 * minute) });
    const fromFile = await preview({ rule_yaml: file.body, start_time: iso(base - 20 * minute) });
    expect(previewVerdicts(fromFile.body)).toEqual(previewVerdicts(stored.body));
    const elsewhere = await d.h.keyFor('elsewhere');
    expect((await d.h.app.inject({ method: 'GET', url: `/v1/detection_rule/${ids.perUserDedup}/yaml`, headers: { authorization: `Bearer ${elsewhere}` } })).statusCode).toBe(404);
  });

  it('lists at most max_windows, newest first, and says when it cut the list', async () => {
    const r = await preview({ rule: { query_text: '@index=logs eventName: ConsoleLogin | count', time_range_s: 120, run_frequency_s: 60, debounce: false }, start_time: iso(base - 20 * minute), max_windows: 3 });
    expect(r.body).toMatchObject({ windows_evaluated: 20, windows_alerted: 20, truncated: true });
    expect(r.body.windows.map((w: any) => w.end_time)).toEqual([isoNs(base), isoNs(base - minute), isoNs(base - 2 * minute)]);
    expect(r.body.windows[0]).toMatchObject({ start_time: isoNs(base - 2 * minute), column_ordering: ['@q.count'], n_rows: 1, debounced_rows: 0 });
  });
});

describe('vigil rules preview', () => {
  const argv = (...more: string[]) => ['rules', 'preview', ...more, '--tenant', 'pv', '--from', iso(base - 20 * minute), '--to', iso(base)];
  const inProcess = { openServices: async () => ({ services: d.h.runtime.services, close: async () => {} }), nowMs: () => d.clock.nowMs() };

  it('prints in process what the API answers, as JSON or a table', async () => {
    const api = await preview({ rule_id: ids.bobPerRow, start_time: iso(base - 20 * minute) });
    const json = await runVigil(argv(ids.bobPerRow as string, '--json'), inProcess);
    expect(json).toMatchObject({ status: 0, err: '' });
    expect(previewVerdicts(JSON.parse(json.out))).toEqual(previewVerdicts(api.body));
    const table = await runVigil(argv(ids.bobPerRow as string), inProcess);
    expect(table.out.split('\n')[0]).toBe(`20 windows evaluated, ${api.body.windows_alerted} would have alerted`);
    expect(table.out).toContain('WINDOW END');
  });

  it('asks the running server when it holds the engine, with a rule file too', async () => {
    // Listening until the harness closes the app.
    const url = await d.h.app.listen({ port: 0, host: '127.0.0.1' });
    {
      const viaServer = {
        loadConfig: () => ({ cliApiUrl: null, cliApiKey: key, dataDir: '/busy' }) as never,
        openServices: async () => Promise.reject(new Error('busy')),
        isDataDirBusy: () => true,
        runningServer: () => ({ url, pid: 1 }),
        nowMs: () => d.clock.nowMs(),
      };
      const api = await preview({ rule_id: ids.tumbling, start_time: iso(base - 20 * minute) });
      const json = await runVigil(argv(ids.tumbling as string, '--json'), viaServer);
      expect(json.status).toBe(0);
      expect(previewVerdicts(JSON.parse(json.out))).toEqual(previewVerdicts(api.body));
      const bad = await runVigil(argv('not-a-rule'), viaServer);
      expect(bad).toMatchObject({ status: 1, err: expect.stringMatching(/404/) });
    }
  });

  it('refuses an id and a file together, or neither', async () => {
    expect(await runVigil(['rules', 'preview', '--tenant', 'pv'], inProcess)).toMatchObject({ status: 2, err: expect.stringMatching(/rule id or -f FILE/) });
  });
});

describe('bad requests', () => {
  const rule = { query_text: '@index=logs x', time_range_s: 300, run_frequency_s: 60 };
  it.each([
    [{ start_time: iso(base - minute) }, /exactly one of rule_id, rule and rule_yaml/],
    [{ start_time: iso(base - minute), rule_id: 'x', rule }, /exactly one/],
    [{ start_time: iso(base - minute), rule: { ...rule, time_range_s: 90 } }, /rule\.time_range_s/],
    [{ start_time: iso(base - minute), rule: { ...rule, run_frequency_s: 600 } }, /rule\.run_frequency_s/],
    [{ start_time: iso(base - minute), rule: { ...rule, query_text: '@index=nosuch x' } }, /rule\.query_text.*nosuch/],
    [{ start_time: iso(base - minute), rule: { ...rule, surprise: 1 } }, /unknown field surprise/],
    [{ start_time: iso(base - minute), rule_yaml: 'name: [' }, /.+/],
    [{ start_time: '2020-01-01T00:00:00Z', rule }, /start_time.*windows/],
    [{ start_time: iso(base + minute), rule }, /start_time must be before end_time/],
    [{ start_time: iso(base - minute), rule, max_windows: 501 }, /max_windows/],
  ])('%j answers 400', async (body, message) => {
    const r = await preview(body);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(message);
  });

  it('another tenant’s rule is 404, another tenant 403', async () => {
    const otherKey = await d.h.keyFor('elsewhere');
    const r = await d.h.call('POST', '/v1/detection_rule_preview', otherKey, { rule_id: ids.filter, start_time: iso(base - minute), end_time: iso(base) });
    expect(r.status).toBe(404);
    expect((await d.h.call('POST', '/v1/detection_rule_preview', otherKey, { tenant_id: 'pv', rule_id: ids.filter, start_time: iso(base - minute), end_time: iso(base) })).status).toBe(403);
  });
});
