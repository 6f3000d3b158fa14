/**
 * When the delivery worker tries again (detections.md E13): exponential back-off from 1 s doubling
 * to 5 min with ±20 % jitter, or what the receiver's `Retry-After` asked for (at least 1 s), and no
 * attempt past the give-up horizon (default 24 h).
 */
export interface RetryPolicy {
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  /** Each delay is scaled by a random factor in [1 - jitter, 1 + jitter]. */
  readonly jitter: number;
  /** Attempts stop once the next one would fall this long after the delivery was queued. */
  readonly giveUpAfterMs: number;
}

export const defaultRetryPolicy: RetryPolicy = { initialDelayMs: 1000, maxDelayMs: 300_000, jitter: 0.2, giveUpAfterMs: 86_400_000 };

/** The wait before the next attempt after `failedAttempts` failures (1 for the first). `random` is in [0, 1). */
export function retryDelayMs(policy: RetryPolicy, failedAttempts: number, retryAfterMs: number | null, random: () => number): number {
  if (retryAfterMs !== null) return Math.max(retryAfterMs, policy.initialDelayMs);
  const exponent = Math.min(Math.max(failedAttempts - 1, 0), 40);
  const base = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** exponent);
  return Math.round(base * (1 + policy.jitter * (2 * random() - 1)));
}
