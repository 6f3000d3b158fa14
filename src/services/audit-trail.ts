import { newId, type Clock } from '../core/index.js';
import type { Store } from '../store/index.js';
import { describeActor, type Actor } from './actor.js';

/** Records mutations in the store's audit outbox; the maintenance loop ships them to `_audit`. */
export class AuditTrail {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  /** Appends one entry. Details must never hold secrets (keys, integration keys, URLs with credentials). */
  async record(tenantId: string, actor: Actor, action: string, target: string | null, details: Record<string, unknown> = {}): Promise<void> {
    await this.store.audit.append({ id: newId(), tenantId, at: this.clock.nowMs(), actor: describeActor(actor), action, target, details });
  }
}
