import { createHash } from 'node:crypto';
import { formatRfc3339Ns, type Clock } from '../core/index.js';
import type { AlertMessage } from '../domain/index.js';
import type { DetectionRuleRecord } from '../store/index.js';
import { detectionEvent } from './detection-event.js';
import { renderAlertTemplate } from './render-template.js';
import { rowIdentity } from './row-identity.js';
import type { ResultRow, RunQuery } from './run-query.js';
import { severityIds } from './severity.js';

/** A rule's window `[startMs, endMs)` of event time; `endMs` is a multiple of the run frequency (E1). */
export interface RuleWindow {
  readonly startMs: number;
  readonly endMs: number;
}

/** What the evaluator remembers of earlier windows: the store answers, the evaluator decides. */
export interface RuleMemory {
  /** Identities of rows the rule alerted in windows ending after `afterWindowEndMs` (E5). */
  alertedIdentities(ruleId: string, afterWindowEndMs: number): Promise<ReadonlySet<string>>;
  /** For the keys sent before, the end of the window whose alert sent them last (E6). */
  lastSent(ruleId: string, keys: readonly string[]): Promise<ReadonlyMap<string, number>>;
}

export interface EvaluationDeps {
  readonly runQuery: RunQuery;
  readonly memory: RuleMemory;
  readonly clock: Clock;
  readonly newId: () => string;
  /** Raw-event rows a window reads at most. */
  readonly maxRows: number;
  readonly signal?: AbortSignal;
}

/** An alert the run produced; `suppressed` ones are recorded, never sent (E6). */
export interface PlannedAlert {
  readonly message: AlertMessage;
  readonly dedupKey: string | null;
  readonly suppressed: boolean;
}

/** Everything one window's run decided, for the scheduler to store in one transaction. */
export interface WindowEvaluation {
  readonly window: RuleWindow;
  readonly firedAtMs: number;
  /** Rows the query returned; a detection when at least one (E4). */
  readonly rowCount: number;
  /** `_detections` events, for Active and Staging rules. */
  readonly detections: readonly Record<string, unknown>[];
  /** Alerts, for Active rules only. */
  readonly alerts: readonly PlannedAlert[];
  /** Identities of the rows the alerts carry: debounce remembers them with the window's end. */
  readonly identities: readonly string[];
  /** Rows left out because an overlapping window already alerted them. */
  readonly debouncedRows: number;
}

/** Rows an alert's table and a detection event carry at most (E7); `total_row_count` keeps the true count. */
export const alertTableRows = 100;

/**
 * Evaluates one window of a rule (detections.md E4-E7): runs the query, turns a non-empty result
 * into `_detections` events, and for an Active rule into alerts, after debounce (rows alerted in
 * an overlapping window are dropped) and dedup (alerts whose dedup key was sent within
 * `dedup_window_s` are suppressed). Pure over its arguments: the query, the memory and the clock
 * are injected, and nothing is written.
 */
export async function evaluateWindow(rule: DetectionRuleRecord, staging: boolean, window: RuleWindow, deps: EvaluationDeps): Promise<WindowEvaluation> {
  const result = await deps.runQuery({
    tenantId: rule.tenantId,
    queryText: rule.queryText,
    startNs: BigInt(window.startMs) * 1_000_000n,
    endNs: BigInt(window.endMs) * 1_000_000n,
    maxRows: deps.maxRows,
    ...(deps.signal ? { signal: deps.signal } : {}),
  });
  const firedAtMs = deps.clock.nowMs();
  const empty: WindowEvaluation = { window, firedAtMs, rowCount: result.rows.length, detections: [], alerts: [], identities: [], debouncedRows: 0 };
  if (result.rows.length === 0) return empty;

  const base = (id: string, rows: readonly ResultRow[]): AlertMessage => alertMessage(rule, staging, window, firedAtMs, id, result.columns, rows);
  const detectionIds = rule.alertPerRow ? result.rows.map(() => deps.newId()) : [deps.newId()];
  const detections = rule.alertPerRow
    ? result.rows.map((row, i) => detectionEvent(base(detectionIds[i] as string, [row])))
    : [detectionEvent(base(detectionIds[0] as string, result.rows))];
  if (staging) return { ...empty, detections };

  // Debounce (E5): drop rows an overlapping window (one ending after this one's start) alerted.
  const identities = result.rows.map((row) => rowIdentity(result.identity, row));
  const alerted = rule.debounce ? await deps.memory.alertedIdentities(rule.id, window.startMs) : new Set<string>();
  const kept = result.rows.map((row, i) => ({ row, i, identity: identities[i] as string })).filter((r) => !alerted.has(r.identity));
  if (kept.length === 0) return { ...empty, detections, debouncedRows: result.rows.length };

  const drafts = rule.alertPerRow
    ? kept.map((r) => base(detectionIds[r.i] as string, [r.row]))
    : [
        base(
          detectionIds[0] as string,
          kept.map((r) => r.row),
        ),
      ];
  const rendered = drafts.map((draft) => {
    const template = renderAlertTemplate(rule.alertTemplate, draft);
    const message: AlertMessage = { ...draft, info: template.info.map(({ label, value }) => ({ label, value })), actions: template.actions };
    return { message, dedupKey: dedupKeyOf(rule.id, template.info) };
  });

  // Dedup (E6): a key sent within the dedup window, by an earlier window or earlier in this run, is suppressed.
  const keys = [...new Set(rendered.flatMap((r) => (r.dedupKey === null ? [] : [r.dedupKey])))];
  const lastSent = new Map(keys.length === 0 ? [] : await deps.memory.lastSent(rule.id, keys));
  const dedupWindowMs = (rule.dedupWindowS ?? rule.runFrequencyS) * 1000;
  const alerts = rendered.map(({ message, dedupKey }): PlannedAlert => {
    if (dedupKey === null) return { message, dedupKey, suppressed: false };
    const last = lastSent.get(dedupKey);
    const suppressed = last !== undefined && window.endMs - last < dedupWindowMs;
    if (!suppressed) lastSent.set(dedupKey, window.endMs);
    return { message, dedupKey, suppressed };
  });
  return { ...empty, detections, alerts, identities: [...new Set(kept.map((r) => r.identity))], debouncedRows: result.rows.length - kept.length };
}

/** The alert object before its template is rendered. */
function alertMessage(
  rule: DetectionRuleRecord,
  staging: boolean,
  window: RuleWindow,
  firedAtMs: number,
  id: string,
  columns: readonly string[],
  rows: readonly ResultRow[],
): AlertMessage {
  return {
    id,
    detectionRuleId: rule.id,
    tenantId: rule.tenantId,
    name: rule.name,
    description: rule.description,
    queryText: rule.queryText,
    severity: rule.severity,
    severityId: severityIds[rule.severity],
    tags: rule.tags,
    window: { start: formatRfc3339Ns(BigInt(window.startMs) * 1_000_000n), end: formatRfc3339Ns(BigInt(window.endMs) * 1_000_000n) },
    timestampNs: String(BigInt(firedAtMs) * 1_000_000n),
    staging,
    resultsTable: { columns, rows: rows.slice(0, alertTableRows).map((r) => r.columns), totalRowCount: rows.length },
    info: [],
    actions: [],
    templated: rule.alertTemplate !== null,
  };
}

/** The rule id and the rendered values of the `use_for_dedup` items, in order, hashed; null without such items (E6). */
function dedupKeyOf(ruleId: string, info: readonly { readonly value: string; readonly useForDedup: boolean }[]): string | null {
  const values = info.filter((item) => item.useForDedup).map((item) => item.value);
  if (values.length === 0) return null;
  return createHash('sha256')
    .update(JSON.stringify([ruleId, ...values]))
    .digest('base64url')
    .slice(0, 32);
}
