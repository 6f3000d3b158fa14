import { parseRfc3339Ns } from '../../core/index.js';
import { indexTargetsOf, parseQueryOrThrow, type IndexInfo, type IndexTarget } from '../../query/index.js';

/** A test's window of event time, `[startNs, endNs)`. */
export interface TestWindow {
  readonly startNs: bigint;
  readonly endNs: bigint;
}

const nsPerSecond = 1_000_000_000n;

/**
 * The window a rule test evaluates (E15): `now` is `now_timestamp` rounded up to the next
 * multiple of `run_frequency_s` since the epoch (a time already on one stays), the window
 * `[now - time_range_s, now)`. Without `now_timestamp`, `now` is the first such boundary after
 * the latest event, so that event is inside the half-open window; with no event either, the
 * window ends at the epoch's first boundary.
 */
export function testWindow(schedule: { readonly runFrequencyS: number; readonly timeRangeS: number }, nowTimestamp: string | null, eventTimesNs: readonly bigint[]): TestWindow {
  const step = BigInt(schedule.runFrequencyS) * nsPerSecond;
  const given = nowTimestamp === null ? null : parseRfc3339Ns(nowTimestamp);
  let endNs: bigint;
  if (given !== null) endNs = ceilTo(given, step);
  else if (eventTimesNs.length > 0) endNs = ceilTo(eventTimesNs.reduce((a, b) => (b > a ? b : a)) + 1n, step);
  else endNs = step;
  return { startNs: endNs - BigInt(schedule.timeRangeS) * nsPerSecond, endNs };
}

/** The smallest multiple of `step` at or after `t` (for negative times too). */
function ceilTo(t: bigint, step: bigint): bigint {
  const remainder = ((t % step) + step) % step;
  return remainder === 0n ? t : t + (step - remainder);
}

/** The id of the index a test's events are loaded into when its query names no index id. */
export const testIndexId = 'rule-test';

/**
 * The indexes a test's query sees, and those its dataset is loaded into. A test has one dataset,
 * so every index the query names by name is that dataset (one index, `rule-test`, under each
 * name: a query over two of them does not see an event twice); an index named by id (`{uuid |
 * "name"}`) keeps its id and gets its own copy. A query that names none reads the one user index
 * `rule-test`.
 */
export function testIndexes(targets: readonly IndexTarget[]): { indexes: IndexInfo[]; loadInto: string[] } {
  if (targets.length === 0) return { indexes: [{ id: testIndexId, name: testIndexId, system: false }], loadInto: [testIndexId] };
  const indexes = new Map<string, IndexInfo>();
  for (const target of targets) {
    const id = target.id ?? testIndexId;
    const name = target.name ?? target.id ?? testIndexId;
    indexes.set(`${id}\u0000${name}`, { id, name, system: name.startsWith('_') });
  }
  const list = [...indexes.values()];
  return { indexes: list, loadInto: [...new Set(list.map((index) => index.id))] };
}

/** `testIndexes` of a query's text (QuerySyntaxError when it does not parse). */
export function testIndexesOf(queryText: string): { indexes: IndexInfo[]; loadInto: string[] } {
  return testIndexes(indexTargetsOf(parseQueryOrThrow(queryText)));
}
