import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { IndexFields, IndexObject } from '../api/types.js';
import { navigate, useLocation } from '../app/navigation.js';
import { useSession } from '../app/session-context.js';
import { maxBucketsFor } from './histogram-series.js';
import { queryHistoryStore } from './query-history.js';
import { allTimeSpan, combineFields, combineStats, indexesInScope, type ScopeStats } from './search-scope.js';
import { paramsFromSearch, paramsToSearch, type SearchParams } from './search-params.js';
import { idleRun, type SearchRun } from './search-run.js';
import { SearchRunner } from './search-runner.js';
import { resolveRange } from './time-range.js';

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
  const history = useMemo(() => queryHistoryStore(localStorage, tenantId), [tenantId]);
  const [recent, setRecent] = useState<string[]>(() => history.read());
  const chartWidth = useRef(900);
  const runner = useMemo(() => new SearchRunner(client, setRun), [client]);

  useEffect(() => () => runner.dispose(), [runner]);
  useEffect(() => setDraft(params.query), [params.query]);

  useEffect(() => {
    client.listIndexes().then(setIndexes, () => setIndexes([]));
  }, [client]);

  // Every change of the search (URL) or an explicit re-run starts it anew.
  useEffect(() => {
    if (indexes === null) return;
    let live = true;
    const scope = indexesInScope(indexes, params.index);
    const statsPromise = Promise.all(scope.map((i) => client.indexStats(i.id)))
      .then(combineStats)
      .catch(() => null);
    void (async () => {
      const stats = params.range.kind === 'all' ? await statsPromise : null;
      if (!live) return;
      const range = resolveRange(params.range, new Date(), stats ? allTimeSpan(stats) : null);
      runner.start(params, range, maxBucketsFor(chartWidth.current));
      const interval = { start: range.start.toISOString(), end: range.end.toISOString() };
      Promise.all(scope.map((i) => client.indexFields(i.id, interval)))
        .then((lists) => live && (setFields(combineFields(lists)), setFieldsError(null)))
        .catch((e: unknown) => live && (setFields(null), setFieldsError(e instanceof Error ? e.message : String(e))));
    })();
    statsPromise.then((s) => live && setScopeStats(s));
    return () => {
      live = false;
    };
  }, [location.search, reruns, indexes]);

  /** Changes the search: a new URL (a history entry), which runs it. */
  const change = useCallback(
    (next: Partial<SearchParams>) => navigate(`/search${paramsToSearch({ ...params, ...next })}`),
    [params],
  );

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
