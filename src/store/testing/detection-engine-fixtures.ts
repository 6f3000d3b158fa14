import { newId } from '../../core/index.js';
import { sampleAlert } from '../../domain/testing/index.js';
import type { AlertDeliveryRecord, AlertRecord } from '../records.js';
import type { WindowCommit } from '../store.js';

/** An alert of a rule with a small payload. */
export function anAlert(tenantId: string, ruleId: string, overrides: Partial<AlertRecord> = {}): AlertRecord {
  return {
    id: newId(),
    tenantId,
    ruleId,
    ruleName: 'admin policy attached',
    severity: 'High',
    windowStartMs: 1_700_000_000_000 - 300_000,
    windowEndMs: 1_700_000_000_000,
    status: 'pending',
    dedupKey: null,
    payload: sampleAlert({
      id: 'x',
      name: 'admin policy attached',
      resultsTable: { columns: ['userIdentity.arn', 'n'], rows: [{ 'userIdentity.arn': 'arn:a', n: 1 }], totalRowCount: 1 },
    }),
    createdAt: 1_700_000_030_000,
    updatedAt: 1_700_000_030_000,
    ...overrides,
  };
}

/** A pending delivery of an alert to a sink, due at once. */
export function aDelivery(alert: AlertRecord, sinkId: string, overrides: Partial<AlertDeliveryRecord> = {}): AlertDeliveryRecord {
  return {
    id: newId(),
    alertId: alert.id,
    tenantId: alert.tenantId,
    sinkId,
    sinkType: 'Webhook',
    status: 'pending',
    attempts: 0,
    nextAttemptAt: alert.createdAt,
    queuedAt: alert.createdAt,
    lastError: null,
    lastHttpStatus: null,
    deliveredAt: null,
    createdAt: alert.createdAt,
    updatedAt: alert.createdAt,
    ...overrides,
  };
}

/** A window commit that writes nothing but the cursor. */
export function aCommit(tenantId: string, ruleId: string, windowEndMs: number, expectedCursorMs: number | null, overrides: Partial<WindowCommit> = {}): WindowCommit {
  return {
    tenantId,
    ruleId,
    windowEndMs,
    expectedCursorMs,
    ranAtMs: windowEndMs + 30_000,
    identities: [],
    forgetIdentitiesUpToMs: windowEndMs - 600_000,
    sentDedupKeys: [],
    alerts: [],
    lastAlertedAtMs: null,
    detections: [],
    ...overrides,
  };
}
