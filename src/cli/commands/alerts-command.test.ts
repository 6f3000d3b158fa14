import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Services } from '../../services/index.js';
import { newId } from '../../core/index.js';
import { sampleAlert } from '../../domain/testing/index.js';
import { createSqliteStore } from '../../store/sqlite/index.js';
import { aRule } from '../../store/testing/store-fixtures.js';
import { runVigil } from '../testing/run-vigil.js';
import { storeOnlyServices } from '../testing/store-only-services.js';

// `vigil alerts` works on the store alone, beside a running server whose worker sends re-queued alerts.
const t = Date.parse('2026-11-21T12:00:30Z');
let services: Services;
let alertId: string;
let deliveryId: string;

beforeEach(async () => {
  const store = await createSqliteStore(':memory:');
  await store.migrate();
  services = storeOnlyServices(store, t + 60_000);
  await services.tenants.ensure('acme');
  const rule = aRule('acme', { name: 'admin policy attached' });
  await store.rules.insert(rule);
  alertId = newId();
  deliveryId = newId();
  const message = sampleAlert({ id: alertId, detectionRuleId: rule.id });
  await store.detectionState.commitWindow({
    tenantId: 'acme',
    ruleId: rule.id,
    windowEndMs: t - 30_000,
    expectedCursorMs: null,
    ranAtMs: t,
    identities: [],
    forgetIdentitiesUpToMs: 0,
    sentDedupKeys: [],
    detections: [],
    lastAlertedAtMs: t,
    alerts: [
      {
        alert: {
          id: alertId,
          tenantId: 'acme',
          ruleId: rule.id,
          ruleName: rule.name,
          severity: 'High',
          windowStartMs: t - 330_000,
          windowEndMs: t - 30_000,
          status: 'pending',
          dedupKey: null,
          payload: message as any,
          createdAt: t,
          updatedAt: t,
        },
        deliveries: [
          {
            id: deliveryId,
            alertId,
            tenantId: 'acme',
            sinkId: 'sink-1',
            sinkType: 'Webhook',
            status: 'pending',
            attempts: 0,
            nextAttemptAt: t,
            queuedAt: t,
            lastError: null,
            lastHttpStatus: null,
            deliveredAt: null,
            createdAt: t,
            updatedAt: t,
          },
        ],
      },
    ],
  });
  await store.alerts.recordAttempt(
    deliveryId,
    {
      attempt: { id: newId(), deliveryId, alertId, at: t + 100, outcome: 'permanent', httpStatus: 410, latencyMs: 12, error: 'HTTP 410: gone' },
      status: 'failed',
      nextAttemptAt: t,
    },
    t + 100,
  );
});
afterEach(async () => services.store.close());

const vigil = (argv: string[]) => runVigil(argv, { openServices: async () => ({ services, close: async () => {} }) });

describe('vigil alerts', () => {
  it("list shows the tenant's alerts with their deliveries", async () => {
    const listed = await vigil(['alerts', 'list', '--tenant', 'acme']);
    expect(listed.status).toBe(0);
    expect(listed.out).toContain(alertId);
    expect(listed.out).toContain('failed');
    expect(listed.out).toContain('Webhook:failed');
    expect(JSON.parse((await vigil(['alerts', 'list', '--tenant', 'acme', '--json'])).out)).toEqual([
      expect.objectContaining({
        id: alertId,
        status: 'failed',
        deliveries: [expect.objectContaining({ event_sink_id: 'sink-1', status: 'failed', attempt_count: 1, last_error: 'HTTP 410: gone' })],
      }),
    ]);
    expect((await vigil(['alerts', 'list', '--tenant', 'acme', '--status', 'delivered'])).out).toBe('tenant acme has no alerts with status delivered\n');
    expect((await vigil(['alerts', 'list', '--tenant', 'acme', '--status', 'bogus'])).status).toBe(2);
    expect((await vigil(['alerts', 'list', '--tenant', 'globex'])).out).toBe('tenant globex has no alerts\n');
  });

  it('show prints the alert and every attempt', async () => {
    const shown = await vigil(['alerts', 'show', alertId, '--tenant', 'acme']);
    expect(shown.status).toBe(0);
    expect(shown.out).toContain('rule:         admin policy attached');
    expect(shown.out).toContain('Principal:    arn:aws:iam::1:user/a');
    expect(shown.out).toMatch(/sink-1 +Webhook +2026-11-21T12:00:30\.100Z +permanent +410 +12ms +HTTP 410: gone/);
    const json = JSON.parse((await vigil(['alerts', 'show', alertId, '--tenant', 'acme', '--json'])).out);
    expect(json.deliveries[0].attempts).toEqual([{ at: '2026-11-21T12:00:30.100Z', outcome: 'permanent', http_status: 410, latency_ms: 12, error: 'HTTP 410: gone' }]);
    expect((await vigil(['alerts', 'show', alertId, '--tenant', 'globex'])).status).toBe(1);
  });

  it('resend re-queues the deliveries and records who did it', async () => {
    const resent = await vigil(['alerts', 'resend', alertId, '--tenant', 'acme']);
    expect(resent).toMatchObject({ status: 0, out: `re-queued 1 delivery of alert ${alertId}; the server sends them\n` });
    expect(await services.store.alerts.deliveries(alertId)).toEqual([expect.objectContaining({ status: 'pending', nextAttemptAt: t + 60_000, queuedAt: t + 60_000 })]);
    expect((await services.store.alerts.get('acme', alertId))?.status).toBe('pending');
    const audit = await services.store.audit.listUnshipped(100);
    expect(audit.at(-1)).toMatchObject({ action: 'alert.resend', target: alertId, actor: 'cli', details: { deliveries: 1 } });
  });
});
