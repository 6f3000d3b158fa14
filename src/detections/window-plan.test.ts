import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planWindows } from './window-plan.js';

const minute = 60_000;
const hour = 60 * minute;
const t = Date.parse('2026-11-21T12:00:00Z');
const timing = { settleDelayMs: 30_000, catchUpHorizonMs: 24 * hour };

describe('planWindows (E1-E3)', () => {
  it('backfills only the most recent settled window for a rule without a cursor', () => {
    expect(planWindows(null, 60, t + 29_999, timing)).toEqual({ gap: null, nextEndMs: t - minute, dueWindows: 1 });
    expect(planWindows(null, 60, t + 30_000, timing)).toEqual({ gap: null, nextEndMs: t, dueWindows: 1 });
    expect(planWindows(null, 300, t + 4 * minute, timing)).toEqual({ gap: null, nextEndMs: t, dueWindows: 1 });
  });

  it('waits for the settle delay after a window ends', () => {
    expect(planWindows(t, 60, t + minute + 29_999, timing).nextEndMs).toBeNull();
    expect(planWindows(t, 60, t + minute + 30_000, timing)).toEqual({ gap: null, nextEndMs: t + minute, dueWindows: 1 });
  });

  it('catches up every missed window in order', () => {
    expect(planWindows(t, 60, t + 10 * minute + 30_000, timing)).toEqual({ gap: null, nextEndMs: t + minute, dueWindows: 10 });
    expect(planWindows(t, 300, t + 10 * minute + 30_000, timing)).toEqual({ gap: null, nextEndMs: t + 5 * minute, dueWindows: 2 });
  });

  it('records windows older than the horizon as a gap and resumes at the horizon', () => {
    const now = t + 30 * hour + 30_000;
    expect(planWindows(t, 60, now, timing)).toEqual({
      gap: { fromMs: t, toMs: t + 6 * hour, windows: 6 * 60 },
      nextEndMs: t + 6 * hour + minute,
      dueWindows: 24 * 60,
    });
  });

  it('realigns to the new frequency when it changed', () => {
    expect(planWindows(t + 2 * minute, 300, t + 5 * minute + 30_000, timing)).toEqual({ gap: null, nextEndMs: t + 5 * minute, dueWindows: 1 });
  });

  it('never skips or repeats a window: the ends visited are exactly the multiples after the cursor, within the horizon', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 0, max: 3 * 24 * 60 }), fc.integer({ min: 0, max: 59_999 }), (freqMinutes, elapsedMinutes, extraMs) => {
        const f = freqMinutes * minute;
        const cursor = Math.floor(t / f) * f;
        const now = cursor + elapsedMinutes * minute + extraMs;
        let c = cursor;
        const seen: number[] = [];
        let skipped = 0;
        for (;;) {
          const plan = planWindows(c, freqMinutes * 60, now, timing);
          if (plan.gap) {
            expect(plan.gap.fromMs).toBe(c);
            skipped += plan.gap.windows;
            c = plan.gap.toMs;
          }
          if (plan.nextEndMs === null) break;
          expect(plan.nextEndMs).toBeGreaterThan(c);
          expect(plan.nextEndMs % f).toBe(0);
          seen.push(plan.nextEndMs);
          c = plan.nextEndMs;
        }
        const latest = Math.floor((now - timing.settleDelayMs) / f) * f;
        expect(skipped + seen.length).toBe(Math.max(0, (latest - cursor) / f));
        for (const end of seen) expect(end).toBeGreaterThanOrEqual(now - timing.catchUpHorizonMs - f);
      }),
      { numRuns: 300 },
    );
  });
});
