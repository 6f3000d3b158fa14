import type { Clock } from '../core/index.js';
import type { Engine } from '../engine/index.js';
import { ingestStream, type IngestSummary, type IngestTarget } from '../ingest/index.js';
import type { Store } from '../store/index.js';

/** What writing the service's own records as events needs. */
export interface SystemEventDeps {
  readonly engine: Pick<Engine, 'eventEncoder' | 'insertEvents'>;
  readonly store: { readonly tenants: Pick<Store['tenants'], 'reserveSequence'> };
  readonly clock: Clock;
  /** Told the tenant before its events are written; the result is called after, however it ended. */
  readonly writingEvents: (tenantId: string) => () => void;
}

/**
 * Writes records the service makes itself (audit entries, detections) as events of a system
 * index (`target`), through the same ingest path as users' events. The one place such writes happen, so
 * none can forget to tell the search service, whose aggregations must not trust the field
 * catalog's types while a write is under way.
 */
export async function writeSystemEvents(deps: SystemEventDeps, target: IngestTarget, records: readonly object[]): Promise<IngestSummary> {
  const { tenantId } = target;
  const ended = deps.writingEvents(tenantId);
  try {
    return await ingestStream(
      [records.map((record) => JSON.stringify(record)).join('\n')],
      target,
      { engine: deps.engine, reserveSequence: (count) => deps.store.tenants.reserveSequence(tenantId, count), clock: deps.clock },
      { format: 'ndjson' },
    );
  } finally {
    ended(); // a failed write may have written some batches
  }
}
