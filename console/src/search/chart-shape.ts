import type { Row } from '../api/types.js';

/** How an aggregation's table can be drawn, when its shape fits a chart. */
export type ChartShape =
  { readonly kind: 'bars'; readonly labels: readonly string[]; readonly value: string } | { readonly kind: 'time'; readonly time: string; readonly value: string } | null;

const maxBars = 50;
const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

const isNumber = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v);

/**
 * A time chart when one column holds times and the last numeric column a value (counts per hour);
 * bars when at most 50 rows pair labels with a numeric value (`groupbycount`, `stats … by`);
 * nothing for one-row results or tables without a number.
 */
export function chartShape(columns: readonly string[], rows: readonly Row[]): ChartShape {
  if (rows.length < 2) return null;
  const numeric = columns.filter((c) => rows.every((r) => isNumber(r[c])));
  if (numeric.length === 0) return null;
  const value = numeric.includes('@q.count') ? '@q.count' : numeric[numeric.length - 1]!;
  const time = columns.find((c) => rows.every((r) => typeof r[c] === 'string' && rfc3339.test(r[c] as string)));
  if (time) return { kind: 'time', time, value };
  const labels = columns.filter((c) => c !== value && !numeric.includes(c));
  if (labels.length === 0 || rows.length > maxBars) return null;
  return { kind: 'bars', labels, value };
}
