import { defaultRange, formatRange, parseRange, type TimeRange, type TimeZoneChoice } from './time-range.js';

/**
 * What a search is: the one state the search page's URL mirrors, so a link reproduces it. The key
 * and the tenant's secrets never appear here.
 */
export interface SearchParams {
  readonly query: string;
  readonly range: TimeRange;
  /** The index searched and described in the sidebar; null for every index of the tenant. */
  readonly index: string | null;
  /** Columns shown for events instead of the summary line; empty for the summary. */
  readonly columns: readonly string[];
  readonly maxRows: number;
  readonly zone: TimeZoneChoice;
}

export const rowLimits = [100, 1000, 10_000, 100_000] as const;

export const defaultParams: SearchParams = {
  query: '',
  range: defaultRange,
  index: null,
  columns: [],
  maxRows: 1000,
  zone: 'utc',
};

/** The query string of `/search` for these parameters; defaults are left out to keep links short. */
export function paramsToSearch(params: SearchParams): string {
  const out = new URLSearchParams();
  if (params.query) out.set('q', params.query);
  out.set('range', formatRange(params.range));
  if (params.index) out.set('index', params.index);
  if (params.columns.length > 0) out.set('cols', params.columns.join(','));
  if (params.maxRows !== defaultParams.maxRows) out.set('rows', String(params.maxRows));
  if (params.zone !== defaultParams.zone) out.set('tz', params.zone);
  return `?${out.toString()}`;
}

/** Reads a `/search` query string; anything missing or unreadable takes its default. */
export function paramsFromSearch(search: string): SearchParams {
  const given = new URLSearchParams(search);
  const rows = Number(given.get('rows'));
  const cols = given.get('cols');
  return {
    query: given.get('q') ?? '',
    range: parseRange(given.get('range') ?? '') ?? defaultRange,
    index: given.get('index') || null,
    // Column names may hold commas only in backticks, which the chooser never produces.
    columns: cols ? cols.split(',').filter((c) => c.length > 0) : [],
    maxRows: (rowLimits as readonly number[]).includes(rows) ? rows : defaultParams.maxRows,
    zone: given.get('tz') === 'local' ? 'local' : 'utc',
  };
}

/** What decides a search's results: query, range, index and row limit (columns and zone only change how they show). */
export function searchKey(params: SearchParams): string {
  return JSON.stringify([params.query, formatRange(params.range), params.index, params.maxRows]);
}
