/**
 * A query's prefilter: a necessary condition for its event filter that the text index can answer
 * (its tokens, and the `@index` filters), with every exact test left out. Whatever the filter
 * matches, the prefilter matches too, so a scan may keep only rows the prefilter holds for.
 */
import type { AnalyzedQuery } from '../analyzer/analyze-query.js';
import { compileFilter } from './compile-filter.js';
import { storedEventsEnv } from './sql-env.js';

/** The prefilter of the query's event filter (`1` when it has none); `tokensOnly` leaves `@index` filters out. */
export function compilePrefilter(analyzed: AnalyzedQuery, options: { tokensOnly?: boolean } = {}): string {
  const indexNames = new Map(analyzed.scope.map((index) => [index.id, index.name]));
  return compileFilter(analyzed.query.filter, storedEventsEnv(analyzed), { analyzed, indexNames, plans: [], prefilterOnly: true, tokensOnly: options.tokensOnly === true });
}

/** Whether every event the query's filter matches must hold some text-index token (the index can narrow the scan). */
export function narrowsByTextIndex(analyzed: AnalyzedQuery): boolean {
  return compilePrefilter(analyzed, { tokensOnly: true }) !== '1';
}
