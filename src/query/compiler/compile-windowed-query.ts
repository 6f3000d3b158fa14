/**
 * One statement for a query over many windows of the same length (rule preview): each event is
 * repeated once per window that holds it (`ARRAY JOIN`), numbered by the window's index, and
 * every command from the first that is not row-wise (an aggregation, `head`, `tail`) on works
 * per window: aggregations group by the index too, `head`/`tail` and limits apply per index,
 * orders lead with it. Each window's rows are then what the query alone over that window gives,
 * except that a window whose events do not reach that first command has no rows at all, where
 * the query alone might give one (`count` over nothing is 0): the caller tells those apart.
 */
import { sqlInteger } from '../../core/index.js';
import type { AnalyzedQuery } from '../analyzer/analyze-query.js';
import type { Command } from '../ast.js';
import { beginStages, continueStages, finalStatement, type CompiledQuery } from './compile-query.js';
import { fannedOut } from './stage-input.js';
import { rowIdentityPlan } from './row-identity.js';

/** Windows `k = 0 … count − 1`, window k covering `[firstEndNs + k·frequencyNs − rangeNs, firstEndNs + k·frequencyNs)`. */
export interface WindowSeries {
  readonly firstEndNs: bigint;
  readonly frequencyNs: bigint;
  readonly rangeNs: bigint;
  readonly count: number;
}

/** The column holding a row's window index. */
export const windowIndexColumn = 'window_index';

export interface WindowedOptions {
  readonly tenant: string;
  readonly windows: WindowSeries;
  /** Event results: at most this many rows per window, earliest first. */
  readonly limit?: number;
  readonly partialWords?: boolean;
}

const rowWise = (command: Command): boolean =>
  command.kind === 'eval' || command.kind === 'where' || command.kind === 'rename' || command.kind === 'table' || command.kind === 'lookup';

/** The commands before the first one that is not row-wise: what a window's events go through before it. */
export function rowWisePrefix(pipeline: readonly Command[]): readonly Command[] {
  const at = pipeline.findIndex((command) => !rowWise(command));
  return at === -1 ? pipeline : pipeline.slice(0, at);
}

/** Compiles the query over every window of the series at once; null when its pipeline is row-wise only (nothing to do per window). */
export function compileWindowedQuery(analyzed: AnalyzedQuery, options: WindowedOptions): CompiledQuery | null {
  const { pipeline } = analyzed.query;
  const prefix = rowWisePrefix(pipeline);
  if (prefix.length === pipeline.length) return null;
  const w = options.windows;
  // eslint-disable-next-line no-restricted-syntax -- internal invariant: the window plan builds the series
  if (w.count < 1 || w.frequencyNs <= 0n || w.rangeNs < w.frequencyNs) throw new Error('a window series needs windows at least as long as their spacing');
  const startNs = w.firstEndNs - w.rangeNs;
  const endNs = w.firstEndNs + BigInt(w.count - 1) * w.frequencyNs;
  const state = continueStages(beginStages(analyzed, { tenant: options.tenant, startNs, endNs, partialWords: options.partialWords === true }), prefix);
  // The windows holding an event at offset d from the first start: k with k·f <= d < k·f + r.
  // The lower bound is shifted by m whole spacings so that intDiv never sees a negative number.
  const ts = state.env.mode === 'events' ? 'ts' : (state.env.order[0] as string);
  const d = `(toUnixTimestamp64Nano(${ts}) - ${sqlInteger(startNs)})`;
  const f = sqlInteger(w.frequencyNs);
  const m = (w.rangeNs + w.frequencyNs - 1n) / w.frequencyNs;
  const lo = `greatest(intDiv(${d} - ${sqlInteger(w.rangeNs)} + ${sqlInteger(m * w.frequencyNs)}, ${f}) - ${sqlInteger(m - 1n)}, 0)`;
  const hi = `least(intDiv(${d}, ${f}), ${sqlInteger(w.count - 1)})`;
  const windowsOf = `range(toUInt64(${lo}), toUInt64(greatest(${hi} + 1, ${lo})))`;
  // A table's order leads with the window, as the commands after expect.
  const env =
    state.env.mode === 'table' ? { ...state.env, partition: windowIndexColumn, order: [windowIndexColumn, ...state.env.order] } : { ...state.env, partition: windowIndexColumn };
  const fanned = { ...state, input: fannedOut(state.input, windowsOf, windowIndexColumn), env };
  const done = continueStages(fanned, pipeline.slice(prefix.length));
  const order = { order: 'asc' as const, ...(options.limit === undefined ? {} : { limit: options.limit }) };
  return finalStatement(done.input, done.env, order, done.ctx.plans, rowIdentityPlan(pipeline));
}
