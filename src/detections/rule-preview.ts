/**
 * Rule preview over history: every window of a past range evaluated as the scheduler evaluates
 * an Active rule's window (evaluateWindow: debounce, dedup, alert_per_row, templates), oldest
 * first, with the memory of earlier windows held here and nothing written anywhere. The window
 * results come from the caller, which may read them however is cheapest (search's rule windows).
 */
import type { Clock } from '../core/index.js';
import type { TableValue } from '../query/index.js';
import type { DetectionRuleRecord } from '../store/index.js';
import { alertTableRows, evaluateWindow, type RuleWindow } from './evaluate-window.js';
import { InMemoryRuleMemory } from './in-memory-rule-memory.js';
import type { QueryRows } from './run-query.js';

/** The most windows one preview evaluates. */
export const maxPreviewWindows = 100_000;

/** One window's query result, in window order. */
export interface PreviewWindowResult {
  readonly window: RuleWindow;
  readonly result: QueryRows;
}

/** A window that would have alerted. */
export interface PreviewedWindow {
  readonly window: RuleWindow;
  /** Rows the query returned. */
  readonly rowCount: number;
  /** Rows dropped because an overlapping earlier window alerted them (E5). */
  readonly debouncedRows: number;
  /** Alerts that would be sent, and those dedup would suppress (E6). */
  readonly alerts: number;
  readonly suppressed: number;
  readonly columns: readonly string[];
  /** The rows the alerts carry, at most `alertTableRows`. */
  readonly rows: readonly Readonly<Record<string, TableValue>>[];
}

export interface RulePreview {
  readonly windowsEvaluated: number;
  readonly windowsAlerted: number;
  /** The windows that produced an alert, newest first, at most `maxListed`. */
  readonly windows: readonly PreviewedWindow[];
  /** More windows alerted than are listed. */
  readonly truncated: boolean;
}

export interface PreviewDeps {
  readonly clock: Clock;
  readonly newId: () => string;
  /** Raw-event rows a window reads at most (the scheduler's `maxRows`): the results must obey it. */
  readonly maxRows: number;
  /** Windows listed at most. */
  readonly maxListed: number;
}

/**
 * The windows of a rule whose end is a multiple of its run frequency in `(fromMs, toMs]`, oldest
 * first: the runs the scheduler would have made in that period (E1). Each covers
 * `[end - time_range_s, end)`, so the first ones reach back before `fromMs`.
 */
export function previewWindows(rule: Pick<DetectionRuleRecord, 'timeRangeS' | 'runFrequencyS'>, fromMs: number, toMs: number): RuleWindow[] {
  const f = rule.runFrequencyS * 1000;
  const windows: RuleWindow[] = [];
  for (let end = (Math.floor(fromMs / f) + 1) * f; end <= toMs; end += f) windows.push({ startMs: end - rule.timeRangeS * 1000, endMs: end });
  return windows;
}

/** How many windows `previewWindows` gives, without listing them. */
export function countPreviewWindows(rule: Pick<DetectionRuleRecord, 'runFrequencyS'>, fromMs: number, toMs: number): number {
  const f = rule.runFrequencyS * 1000;
  return Math.max(0, Math.floor(toMs / f) - Math.floor(fromMs / f));
}

/** Evaluates every window's result in order, as an Active rule's windows are, and keeps the ones that alert. */
export async function previewRule(rule: DetectionRuleRecord, results: AsyncIterable<PreviewWindowResult>, deps: PreviewDeps): Promise<RulePreview> {
  const memory = new InMemoryRuleMemory();
  const listed: PreviewedWindow[] = [];
  let evaluated = 0;
  let alerted = 0;
  for await (const { window, result } of results) {
    const evaluation = await evaluateWindow(rule, false, window, { runQuery: async () => result, memory, clock: deps.clock, newId: deps.newId, maxRows: deps.maxRows });
    memory.record(rule.id, evaluation);
    evaluated++;
    if (evaluation.alerts.length === 0) continue;
    alerted++;
    const suppressed = evaluation.alerts.filter((a) => a.suppressed).length;
    const carried = evaluation.alerts.flatMap((a) => a.message.resultsTable.rows);
    listed.push({
      window,
      rowCount: evaluation.rowCount,
      debouncedRows: evaluation.debouncedRows,
      alerts: evaluation.alerts.length - suppressed,
      suppressed,
      columns: evaluation.alerts[0]?.message.resultsTable.columns ?? [],
      rows: carried.slice(0, alertTableRows),
    });
    if (listed.length > deps.maxListed) listed.shift();
  }
  return { windowsEvaluated: evaluated, windowsAlerted: alerted, windows: listed.reverse(), truncated: alerted > listed.length };
}
