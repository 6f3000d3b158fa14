import { messageOf } from '../api/api-error.js';
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { IndexFields, IndexObject } from '../api/types.js';
import type { VigilClient } from '../api/vigil-client.js';
import { navigate, useLocation } from '../app/navigation.js';
import { useSession } from '../app/session-context.js';
import { maxBucketsFor } from './histogram-series.js';
import { queryHistoryStore } from './query-history.js';
import { allTimeSpan, combineFields, combineStats, indexesInScope, type ScopeStats } from './search-scope.js';
import { paramsFromSearch, paramsToSearch, searchKey, type SearchParams } from './search-params.js';
import { idleRun, type SearchRun } from './search-run.js';
import { SearchRunner } from './search-runner.js';
import { resolveRange, type ResolvedRange } from './time-range.js';

/**
 * The search page's one state: the search (mirrored by the URL, which is its source), the text
 * being typed, the run's results, and what the searched indexes hold (stats, fields).
 */
export function useSearchPage() {
  const { client, tenantId } = useSession();
  const location = useLocation();
  const params = useMemo(() => paramsFromSearch(location.search), [location.search]);
  const [draft, setDraft] = useState(params.query);
  const [run, setRun] = useState<SearchRun>(idleRun);
  const [indexes, setIndexes] = useState<IndexObject[] | null>(null);
  const [scopeStats, setScopeStats] = useState<ScopeStats | null>(null);
  const [fields, setFields] = useState<IndexFields | null>(null);
  const [fieldsError, setFieldsError] = useState<string | null>(null);
  const [reruns, setReruns] = useState(0);
  const [searched, setSearched] = useState<ResolvedRange | null>(null);
  const history = useMemo(() => queryHistoryStore(localStorage, tenantId), [tenantId]);
  const [recent, setRecent] = useState<string[]>(() => history.read());
  const chartWidth = useRef(900);
  const runner = useMemo(() => new SearchRunner(client, setRun), [client]);

  useEffect(() => () => runner.dispose(), [runner]);
  useEffect(() => setDraft(params.query), [params.query]);

  useEffect(() => {
    client.listIndexes().then(setIndexes, () => setIndexes([]));
  }, [client]);

  // Every change of what is searched (not of how it is shown: columns, time zone) or an explicit
  // re-run starts it anew; a relative or absolute
  // range starts at once, "all time" first asks the indexes for the span they hold.
  useEffect(() => {
    if (params.range.kind === 'all' && indexes === null) return;
    let live = true;
    void (async () => {
      const stats = params.range.kind === 'all' ? await statsOf(client, indexesInScope(indexes ?? [], params.index)) : null;
      if (!live) return;
      const range = resolveRange(params.range, new Date(), stats ? allTimeSpan(stats) : null);
      runner.start(params, range, maxBucketsFor(chartWidth.current));
      setSearched(range);
    })();
    return () => {
      live = false;
    };
  }, [searchKey(params), reruns, params.range.kind === 'all' ? indexes : null]);

  // What the searched indexes hold: the sidebar's fields over the searched range, and their
  // stats for the empty-range notice.
  useEffect(() => {
    if (indexes === null || searched === null) return;
    let live = true;
    const scope = indexesInScope(indexes, params.index);
    const interval = { start: searched.start.toISOString(), end: searched.end.toISOString() };
    Promise.all(scope.map((i) => client.indexFields(i.id, interval)))
      .then((lists) => live && (setFields(combineFields(lists)), setFieldsError(null)))
      .catch((e: unknown) => live && (setFields(null), setFieldsError(messageOf(e))));
    void statsOf(client, scope).then((s) => live && setScopeStats(s));
    return () => {
      live = false;
    };
  }, [indexes, searched]);

  /** Changes the search: a new URL (a history entry), which runs it. */
  const change = useCallback((next: Partial<SearchParams>) => navigate(`/search${paramsToSearch({ ...params, ...next })}`), [params]);

  /** Runs the typed query (again, when unchanged). */
  const submit = useCallback(() => {
    setRecent(history.add(draft));
    if (draft === params.query) setReruns((n) => n + 1);
    else change({ query: draft });
  }, [draft, params, change, history]);

  return {
    params,
    draft,
    setDraft,
    run,
    indexes: indexes ?? [],
    scopeStats,
    fields,
    fieldsError,
    recent,
    change,
    submit,
    cancel: () => runner.cancel(),
    setChartWidth: (width: number) => (chartWidth.current = width),
  };
}

export type SearchPageState = ReturnType<typeof useSearchPage>;

/** The stats of these indexes added up; null when they cannot be had. */
function statsOf(client: VigilClient, scope: readonly IndexObject[]): Promise<ScopeStats | null> {
  return Promise.all(scope.map((i) => client.indexStats(i.id)))
    .then(combineStats)
    .catch(() => null);
}
