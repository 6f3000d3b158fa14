import { messageOf, type Logger } from '../core/index.js';
import type { PendingDetection, Store } from '../store/index.js';
import type { WorkLeases } from './work-leases.js';

/** Writes detection events into the tenant's `_detections` index (the composition root wires ingest). */
export type WriteDetections = (tenantId: string, events: readonly Record<string, unknown>[]) => Promise<void>;

/** Detection events written to the engine per insert. */
const detectionBatch = 2000;
/** How long one process may ship before another may take over (renewed every batch). */
export const shipperLeaseMs = 20_000;
const shipperLease = 'detections:shipper';

/**
 * Moves committed detections from the store's outbox into `_detections`, oldest first, in
 * batches, one run at a time (a call during a run makes it go round once more). Across the
 * processes of a shared store only the holder of the shipper lease ships, so no two read the
 * same rows and write them twice. A failed write leaves them queued for the next call.
 */
export class DetectionShipper {
  private shipping: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    private readonly store: Pick<Store, 'detectionState'>,
    private readonly writeDetections: WriteDetections,
    private readonly leases: WorkLeases,
    private readonly logger: Logger,
  ) {}

  ship(): Promise<void> {
    if (this.shipping) {
      this.again = true;
      return this.shipping;
    }
    this.shipping = this.run()
      .catch((error: unknown) => this.logger.error({ err: messageOf(error) }, 'writing detections to _detections failed; they stay queued'))
      .finally(() => {
        this.shipping = null;
      });
    return this.shipping;
  }

  /** Stops after the batch in progress and waits for it. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.shipping;
  }

  private async run(): Promise<void> {
    do {
      this.again = false;
      for (;;) {
        // Another process ships now: what is queued here is its to write.
        if (this.stopped || !(await this.leases.claim(shipperLease, shipperLeaseMs))) return;
        const batch = await this.store.detectionState.unshippedDetections(detectionBatch);
        if (batch.length === 0) break;
        for (const [tenantId, detections] of byTenant(batch)) {
          await this.writeDetections(
            tenantId,
            detections.map((d) => d.event),
          );
          await this.store.detectionState.markDetectionsShipped(detections.map((d) => d.id));
        }
        if (batch.length < detectionBatch) break;
      }
    } while (this.again && !this.stopped);
    await this.leases.release(shipperLease);
  }
}

function byTenant(batch: readonly PendingDetection[]): Map<string, PendingDetection[]> {
  const groups = new Map<string, PendingDetection[]>();
  for (const detection of batch) {
    const list = groups.get(detection.tenantId);
    if (list === undefined) groups.set(detection.tenantId, [detection]);
    else list.push(detection);
  }
  return groups;
}
