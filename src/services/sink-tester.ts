import { formatRfc3339Ns, newId, type Clock } from '../core/index.js';
import type { AlertMessage } from '../domain/index.js';
import type { DeliveryOutcome, Sink } from '../detections/index.js';
import type { EventSinkRecord } from '../store/index.js';
import type { Actor } from './actor.js';
import type { AuditTrail } from './audit-trail.js';
import type { EventSinkService } from './event-sink-service.js';

/** Finds the Sink a stored sink sends through now (null: it, or its chat integration, is gone). */
export type SinkLookup = (tenantId: string, sinkId: string) => Promise<Sink | null>;

/** The rule id a test alert carries: no rule has it. */
export const testAlertRuleId = '00000000-0000-0000-0000-000000000000';

/**
 * Sends a clearly marked test alert to a sink now, once, through the same sender, destination
 * policy and time limit as real alerts (`POST /v1/event_sink/{id}/test`, `vigil sinks test`).
 * Nothing is stored but the audit entry.
 */
export class SinkTester {
  constructor(
    private readonly sinks: EventSinkService,
    private readonly lookup: SinkLookup,
    private readonly audit: AuditTrail,
    private readonly clock: Clock,
  ) {}

  async test(id: string, canSeeTenant: (tenantId: string) => boolean, actor: Actor): Promise<DeliveryOutcome> {
    const record = await this.sinks.find(id, canSeeTenant);
    const sink = await this.lookup(record.tenantId, record.id);
    const outcome: DeliveryOutcome =
      sink === null
        ? { kind: 'permanent', httpStatus: null, latencyMs: 0, error: 'the sink’s chat integration or key no longer exists' }
        : await sink.send(testAlert(record, this.clock.nowMs()));
    await this.audit.record(record.tenantId, actor, 'event_sink.test', record.id, { name: record.name, type: record.type, outcome: outcome.kind, http_status: outcome.httpStatus });
    return outcome;
  }
}

/** The test alert: every field says it is a test, and no rule fired. */
export function testAlert(sink: EventSinkRecord, nowMs: number): AlertMessage {
  const nowNs = BigInt(nowMs) * 1_000_000n;
  return {
    id: newId(),
    detectionRuleId: testAlertRuleId,
    tenantId: sink.tenantId,
    name: '[TEST] Vigil test alert',
    description: `A test alert sent from Vigil to check the event sink ${JSON.stringify(sink.name)}. No detection rule fired; nothing needs doing.`,
    queryText: '',
    severity: 'Informational',
    severityId: 1,
    tags: ['vigil.test'],
    window: { start: formatRfc3339Ns(nowNs - 60_000_000_000n), end: formatRfc3339Ns(nowNs) },
    timestampNs: String(nowNs),
    staging: false,
    resultsTable: { columns: ['message', 'event_sink'], rows: [{ message: 'test alert from Vigil', event_sink: sink.name }], totalRowCount: 1 },
    info: [],
    actions: [],
    templated: false,
  };
}
