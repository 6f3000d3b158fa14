import type { Row, TextDiagnostic } from '../api/types.js';
import type { HistogramSeries } from './histogram-series.js';
import type { ResolvedRange } from './time-range.js';

/** One problem of the query, placed in the user's text (0-based offsets, end exclusive). */
export interface QueryProblem {
  readonly from: number;
  readonly to: number;
  readonly message: string;
}

/** A search's results as they arrive: what the search page shows. */
export interface SearchRun {
  readonly status: 'idle' | 'running' | 'completed' | 'failed' | 'cancelled';
  readonly range: ResolvedRange | null;
  readonly columns: readonly string[];
  readonly rows: readonly Row[];
  readonly bytesScanned: number;
  readonly truncated: boolean;
  readonly error: string | null;
  readonly problems: readonly QueryProblem[];
  readonly startedAt: number;
  readonly finishedAt: number | null;
  readonly histogram: HistogramState;
}

export interface HistogramState {
  readonly status: 'idle' | 'running' | 'completed' | 'failed' | 'cancelled' | 'unavailable';
  readonly series: HistogramSeries | null;
  readonly error: string | null;
}

export const idleRun: SearchRun = {
  status: 'idle',
  range: null,
  columns: [],
  rows: [],
  bytesScanned: 0,
  truncated: false,
  error: null,
  problems: [],
  startedAt: 0,
  finishedAt: null,
  histogram: { status: 'idle', series: null, error: null },
};

/** Events carry their time in `@svc.datetime`; tables of aggregations do not. */
export function isEventTable(columns: readonly string[]): boolean {
  return columns.includes('@svc.datetime');
}

/** The API's diagnostics placed in the user's text through `toUserOffset` (the sent text may be wrapped). */
export function problemsOf(diagnostics: readonly TextDiagnostic[], toUserOffset: (line: number, column: number) => number, textLength: number): QueryProblem[] {
  return diagnostics.map((d) => {
    const from = toUserOffset(d.line, d.column);
    let to = toUserOffset(d.end_line, d.end_column);
    if (to <= from) to = Math.min(from + 1, textLength);
    return { from, to: Math.max(to, from), message: d.hint ? `${d.message} (${d.hint})` : d.message };
  });
}

/** Newest first by event time (`@svc.time_ns` is an integer string; equal lengths compare as text). */
export function newestFirst(rows: readonly Row[]): readonly Row[] {
  const key = (row: Row): string => String(row['@svc.time_ns'] ?? '').padStart(24, '0');
  // The server scans newest first already: check in one pass before paying for a sort.
  let sorted = true;
  for (let i = 1; i < rows.length && sorted; i++) sorted = key(rows[i - 1]!) >= key(rows[i]!);
  if (sorted) return rows;
  return [...rows].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka < kb ? 1 : ka > kb ? -1 : 0;
  });
}
