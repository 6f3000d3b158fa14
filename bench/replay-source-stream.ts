import { GzipLineReader } from './gzip-line-reader.js';
import { ReplayLineRewriter } from './replay-line-rewriter.js';
import type { ReplaySource } from './replay-sources.js';

/**
 * Longest pause between consecutive seed events that the replay keeps. Seeds are concatenations
 * of recordings made months or years apart; capping the gaps stops one such jump from eating an
 * epoch's whole time slice, while the ordinary inter-arrival gaps keep their proportions.
 */
const maxGapMs = 5 * 60_000;

/** What one pass over a seed learns: its size and its length in capped ("replay") time. */
export interface SeedProfile {
  readonly events: number;
  readonly timedEvents: number;
  readonly replayMs: number;
}

/** One output event with the time the merge orders by. */
export interface ReplayEvent {
  readonly ms: number;
  readonly line: string;
}

/**
 * Replay time of a seed read in file order: advances by each gap to the next timed event,
 * clamped to [0, maxGapMs]. It never goes back, so output time follows the seed's file order
 * (within-seed order is preserved exactly, even where the seed's own clock jumps backwards).
 */
class ReplayTimeline {
  private previousMs: number | null = null;
  private elapsed = 0;

  advance(timeMs: number | null): number {
    if (timeMs !== null) {
      if (this.previousMs !== null) this.elapsed += Math.min(Math.max(timeMs - this.previousMs, 0), maxGapMs);
      this.previousMs = timeMs;
    }
    return this.elapsed;
  }
}

/** Reads the seed once to size it; the replay needs its length before laying out epochs. */
export async function profileSeed(path: string, source: ReplaySource): Promise<SeedProfile> {
  const rewriter = new ReplayLineRewriter(source);
  const timeline = new ReplayTimeline();
  const reader = new GzipLineReader(path);
  let events = 0;
  let timedEvents = 0;
  let replayMs = 0;
  for (let text = await reader.next(); text !== null; text = await reader.next()) {
    const { timeMs } = rewriter.scan(text);
    events++;
    if (timeMs !== null) timedEvents++;
    replayMs = timeline.advance(timeMs);
  }
  return { events, timedEvents, replayMs };
}

export interface SourceReplayPlan {
  readonly path: string;
  readonly source: ReplaySource;
  readonly profile: SeedProfile;
  readonly epochs: number;
  /** The window the epochs tile: [startMs, endMs). */
  readonly startMs: number;
  readonly endMs: number;
}

/**
 * The seed replayed `epochs` times. Epoch k covers the k-th equal slice of the window; inside it
 * an event sits at the slice start plus its replay time, scaled so the seed fills the slice.
 * Output times never decrease, so several sources can be merged by time.
 */
export async function* replaySource(plan: SourceReplayPlan): AsyncGenerator<ReplayEvent> {
  const rewriter = new ReplayLineRewriter(plan.source);
  const sliceMs = (plan.endMs - plan.startMs) / plan.epochs;
  // One gap of headroom: the last event of an epoch stays before the next epoch's first.
  const scale = sliceMs / (plan.profile.replayMs + maxGapMs);
  for (let epoch = 0; epoch < plan.epochs; epoch++) {
    const sliceStart = plan.startMs + epoch * sliceMs;
    const timeline = new ReplayTimeline();
    const reader = new GzipLineReader(plan.path);
    for (let text = await reader.next(); text !== null; text = await reader.next()) {
      const line = rewriter.scan(text);
      const ms = Math.floor(sliceStart + timeline.advance(line.timeMs) * scale);
      const deltaMs = line.timeMs === null ? 0 : Math.round(ms - line.timeMs);
      yield { ms, line: rewriter.render(line, deltaMs, epoch) };
    }
  }
}
