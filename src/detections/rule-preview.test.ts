import { describe, expect, it } from 'vitest';
import { ManualClock } from '../core/index.js';
import type { RuleWindow } from './evaluate-window.js';
import { countPreviewWindows, previewRule, previewWindows, type PreviewWindowResult } from './rule-preview.js';
import type { QueryRows, ResultRow } from './run-query.js';
import { ruleRecord } from './testing/rule-fixtures.js';

const minute = 60_000;
const t0 = Date.parse('2026-11-21T12:00:00Z');

const event = (s: number, columns: Record<string, string | number | null>): ResultRow => ({ rowId: { t: String(BigInt(t0) * 1_000_000n), s: String(s) }, columns });

/** Each window's rows, identified as the compiler identifies an event filter's (the rules here are). */
async function* answers(windows: readonly RuleWindow[], rowsOf: (w: RuleWindow, i: number) => Omit<QueryRows, 'identity'>): AsyncGenerator<PreviewWindowResult> {
  for (const [i, window] of windows.entries()) yield { window, result: { identity: { kind: 'event' }, ...rowsOf(window, i) } };
}

function deps(maxListed = 500) {
  let n = 0;
  return { clock: new ManualClock(t0 + 3_600_000), newId: () => `id-${++n}`, maxRows: 10_000, maxListed };
}

describe('previewWindows', () => {
  it('lists the windows ending on multiples of the frequency in (from, to], oldest first, each time_range_s long', () => {
    const rule = { timeRangeS: 300, runFrequencyS: 120 };
    expect(previewWindows(rule, t0, t0 + 6 * minute)).toEqual([
      { startMs: t0 - 3 * minute, endMs: t0 + 2 * minute },
      { startMs: t0 - minute, endMs: t0 + 4 * minute },
      { startMs: t0 + minute, endMs: t0 + 6 * minute },
    ]);
    expect(previewWindows(rule, t0 + 30_000, t0 + 2 * minute + 1)).toEqual([{ startMs: t0 - 3 * minute, endMs: t0 + 2 * minute }]);
    expect(previewWindows(rule, t0, t0 + minute)).toEqual([]);
    for (const [from, to] of [
      [t0, t0 + 6 * minute],
      [t0 + 30_000, t0 + 2 * minute + 1],
      [t0, t0 + minute],
      [t0 - 7 * 86_400_000, t0],
    ]) {
      expect(countPreviewWindows(rule, from!, to!)).toBe(previewWindows(rule, from!, to!).length);
    }
  });
});

describe('previewRule', () => {
  const windows = previewWindows({ timeRangeS: 300, runFrequencyS: 60 }, t0, t0 + 10 * minute);

  it('lists the windows that alert, newest first, with their rows, and counts every window evaluated', async () => {
    const rows = (i: number): Omit<QueryRows, 'identity'> =>
      i === 2 || i === 8 ? { columns: ['@svc.datetime', 'user'], rows: [event(i, { user: `u${i}` })] } : { columns: [], rows: [] };
    const preview = await previewRule(
      ruleRecord(),
      answers(windows, (_, i) => rows(i)),
      deps(),
    );
    expect(preview).toMatchObject({ windowsEvaluated: 10, windowsAlerted: 2, truncated: false });
    expect(preview.windows.map((w) => [w.window.endMs, w.rowCount, w.alerts, w.suppressed, w.rows])).toEqual([
      [t0 + 9 * minute, 1, 1, 0, [{ user: 'u8' }]],
      [t0 + 3 * minute, 1, 1, 0, [{ user: 'u2' }]],
    ]);
    expect(preview.windows[0]?.columns).toEqual(['@svc.datetime', 'user']);
  });

  it('debounces a row an overlapping earlier window of the preview alerted, as the scheduler does', async () => {
    // The same event is in five overlapping windows: only the first alerts.
    const same = { columns: ['user'], rows: [event(1, { user: 'a' })] };
    const preview = await previewRule(
      ruleRecord(),
      answers(windows.slice(0, 5), () => same),
      deps(),
    );
    expect(preview.windowsAlerted).toBe(1);
    const off = await previewRule(
      ruleRecord({ debounce: false }),
      answers(windows.slice(0, 5), () => same),
      deps(),
    );
    expect(off.windowsAlerted).toBe(5);
  });

  it('applies dedup within the preview: a key sent within dedup_window_s is suppressed, and such windows are listed', async () => {
    const rule = ruleRecord({
      debounce: false,
      dedupWindowS: 180,
      alertTemplate: { info: [{ label: 'User', value: '{{user}}', useForDedup: true }], actions: [] },
    });
    const preview = await previewRule(
      rule,
      answers(windows.slice(0, 5), (_, i) => ({ columns: ['user'], rows: [event(i, { user: 'a' })] })),
      deps(),
    );
    // Sent at windows 0 and 3 (3 minutes later); 1, 2 and 4 are suppressed.
    expect([...preview.windows].reverse().map((w) => [w.alerts, w.suppressed])).toEqual([
      [1, 0],
      [0, 1],
      [0, 1],
      [1, 0],
      [0, 1],
    ]);
  });

  it('makes one alert per row with alert_per_row and lists the rows the alerts carry after debounce', async () => {
    const rule = ruleRecord({ alertPerRow: true });
    const first = { columns: ['user'], rows: [event(1, { user: 'a' }), event(2, { user: 'b' })] };
    const second = { columns: ['user'], rows: [event(2, { user: 'b' }), event(3, { user: 'c' })] };
    const preview = await previewRule(
      rule,
      answers(windows.slice(0, 2), (_, i) => (i === 0 ? first : second)),
      deps(),
    );
    expect(preview.windows.map((w) => [w.alerts, w.debouncedRows, w.rowCount, w.rows])).toEqual([
      [1, 1, 2, [{ user: 'c' }]],
      [2, 0, 2, [{ user: 'a' }, { user: 'b' }]],
    ]);
  });

  it('keeps the newest max_windows alerting windows and says the list is truncated', async () => {
    const preview = await previewRule(
      ruleRecord({ debounce: false }),
      answers(windows, (_, i) => ({ columns: ['n'], rows: [event(i, { n: i })] })),
      deps(3),
    );
    expect(preview).toMatchObject({ windowsEvaluated: 10, windowsAlerted: 10, truncated: true });
    expect(preview.windows.map((w) => w.rows[0]?.n)).toEqual([9, 8, 7]);
  });
});
