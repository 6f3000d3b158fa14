import type { AlertDeliveryRecord, AlertRecord, DetectionRuleRecord, EventSinkRecord, NewAlert, WindowCommit } from '../store/index.js';
import type { WindowEvaluation } from './evaluate-window.js';

/**
 * Turns a window's evaluation into the one store write of the run (E13): the cursor, the debounce
 * and dedup memory, each alert with one outbox row per sink of the rule (none when suppressed),
 * `last_alerted_at` when the rule alerted (E7, whatever the delivery outcome), and the window's
 * `_detections` events, queued for the shipper.
 */
export function windowCommit(
  rule: DetectionRuleRecord,
  evaluation: WindowEvaluation,
  expectedCursorMs: number | null,
  sinks: readonly Pick<EventSinkRecord, 'id' | 'type'>[],
  newId: () => string,
): WindowCommit {
  const at = evaluation.firedAtMs;
  const alerts = evaluation.alerts.map((planned): NewAlert => {
    const status = planned.suppressed ? 'suppressed' : sinks.length === 0 ? 'no_sinks' : 'pending';
    const alert: AlertRecord = {
      id: planned.message.id,
      tenantId: rule.tenantId,
      ruleId: rule.id,
      ruleName: rule.name,
      severity: rule.severity,
      windowStartMs: evaluation.window.startMs,
      windowEndMs: evaluation.window.endMs,
      status,
      dedupKey: planned.dedupKey,
      payload: planned.message,
      createdAt: at,
      updatedAt: at,
    };
    // Sorted ids list an alert's deliveries (by creation time, then id) in the rule's sink order.
    const ids = sinks.map(() => newId()).sort();
    const deliveries =
      status !== 'pending'
        ? []
        : sinks.map((sink, i): AlertDeliveryRecord => ({
            id: ids[i] as string,
            alertId: alert.id,
            tenantId: rule.tenantId,
            sinkId: sink.id,
            sinkType: sink.type,
            status: 'pending',
            attempts: 0,
            nextAttemptAt: at,
            queuedAt: at,
            lastError: null,
            lastHttpStatus: null,
            deliveredAt: null,
            createdAt: at,
            updatedAt: at,
          }));
    return { alert, deliveries };
  });
  return {
    tenantId: rule.tenantId,
    ruleId: rule.id,
    windowEndMs: evaluation.window.endMs,
    expectedCursorMs,
    ranAtMs: at,
    identities: evaluation.identities,
    // Later windows start after this one does, so memory of windows ending by its start cannot overlap them.
    forgetIdentitiesUpToMs: evaluation.window.startMs,
    sentDedupKeys: evaluation.alerts.flatMap((a) => (a.dedupKey !== null && !a.suppressed ? [a.dedupKey] : [])),
    alerts,
    lastAlertedAtMs: evaluation.alerts.length > 0 ? at : null,
    detections: evaluation.detections.map((event) => ({ id: String(event.id), tenantId: rule.tenantId, at, event })),
  };
}
