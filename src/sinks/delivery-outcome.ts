/**
 * What one delivery attempt came to (detections.md E13): delivered; retryable (the worker tries
 * again after a back-off, or after `retryAfterMs` when the receiver said so); or permanent (the
 * same request can never succeed: a bad key, an unknown channel, a refused destination).
 */
export type DeliveryOutcome =
  | { readonly kind: 'delivered'; readonly httpStatus: number | null; readonly latencyMs: number }
  | { readonly kind: 'retryable'; readonly httpStatus: number | null; readonly latencyMs: number; readonly error: string; readonly retryAfterMs: number | null }
  | { readonly kind: 'permanent'; readonly httpStatus: number | null; readonly latencyMs: number; readonly error: string };

export type DeliveryOutcomeKind = DeliveryOutcome['kind'];

export const delivered = (httpStatus: number | null, latencyMs: number): DeliveryOutcome => ({ kind: 'delivered', httpStatus, latencyMs });

export const retryable = (httpStatus: number | null, latencyMs: number, error: string, retryAfterMs: number | null = null): DeliveryOutcome => ({
  kind: 'retryable',
  httpStatus,
  latencyMs,
  error,
  retryAfterMs,
});

export const permanent = (httpStatus: number | null, latencyMs: number, error: string): DeliveryOutcome => ({ kind: 'permanent', httpStatus, latencyMs, error });
