import type { AlertMessage, EventSinkType } from '../domain/index.js';
import type { DeliveryOutcome } from './delivery-outcome.js';

/**
 * A destination for alerts. `send` makes one attempt and never throws for a failed delivery: it
 * classifies the outcome instead, so the delivery worker decides about retries without knowing
 * the receiver's protocol.
 */
export interface Sink {
  readonly type: EventSinkType;
  send(alert: AlertMessage, signal?: AbortSignal): Promise<DeliveryOutcome>;
}
