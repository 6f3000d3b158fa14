/** The scheduler's timing settings (detections.md E1, E2). */
export interface WindowTiming {
  /** A window ending at `end` is evaluated at `end + settleDelayMs`, so ingest can catch up. */
  readonly settleDelayMs: number;
  /** Missed windows older than this are skipped and recorded as a gap instead of evaluated. */
  readonly catchUpHorizonMs: number;
}

/** What a rule has to do now: maybe skip a gap, then evaluate the window ending at `nextEndMs`. */
export interface WindowPlan {
  /** Windows ending in `(fromMs, toMs]` are too old to catch up: the cursor moves to `toMs`. */
  readonly gap: { readonly fromMs: number; readonly toMs: number; readonly windows: number } | null;
  /** The end of the next window to evaluate, or null when none is due. */
  readonly nextEndMs: number | null;
  /** Windows due now, the next one included (the rule's backlog). */
  readonly dueWindows: number;
}

/**
 * Plans a rule's next step (E1-E3). Windows end on multiples of the run frequency since the epoch
 * and are due `settleDelayMs` after they end. A rule without a cursor (new, or re-activated)
 * evaluates only the most recent due window (E3); otherwise every window after the cursor is due
 * in order (E2), except those ending before `now - catchUpHorizonMs`, which become a gap.
 */
export function planWindows(cursorMs: number | null, runFrequencyS: number, nowMs: number, timing: WindowTiming): WindowPlan {
  const f = runFrequencyS * 1000;
  const latestEnd = Math.floor((nowMs - timing.settleDelayMs) / f) * f;
  if (cursorMs === null) return { gap: null, nextEndMs: latestEnd, dueWindows: 1 };
  if (cursorMs >= latestEnd) return { gap: null, nextEndMs: null, dueWindows: 0 };
  // The first window end after the cursor (the cursor need not be a multiple of f if f changed).
  let nextEnd = (Math.floor(cursorMs / f) + 1) * f;
  let gap: WindowPlan['gap'] = null;
  const oldestAllowed = Math.min(Math.ceil((nowMs - timing.catchUpHorizonMs) / f) * f, latestEnd);
  if (nextEnd < oldestAllowed) {
    gap = { fromMs: cursorMs, toMs: oldestAllowed - f, windows: (oldestAllowed - nextEnd) / f };
    nextEnd = oldestAllowed;
  }
  return { gap, nextEndMs: nextEnd, dueWindows: (latestEnd - nextEnd) / f + 1 };
}
