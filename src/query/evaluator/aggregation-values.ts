/**
 * One aggregation call over a list of rows (docs "Pipeline" and its details): the standalone
 * commands and each `stats` item both use it, so they cannot drift apart.
 */
import { assertNever, QueryAnalysisError } from '../../core/index.js';
import type { AggregationCall, NumberValue } from '../ast.js';
import { compareForMin, compareTableValues, compareTuples, tupleKey } from './compare-table-values.js';
import { cellOrNull, type Row, type TableValue } from './eval-table.js';
import { plainColumnName } from './resolve-column-name.js';
import { numericValue } from './value-text.js';

/** The call's result over `rows`, one value per output column. A missing column reads as null. */
export function aggregationValues(call: AggregationCall, rows: readonly Row[]): TableValue[] {
  const names = call.args.map((arg) => plainColumnName(arg, call.fn));
  const tuples = rows.map((row) => names.map((name) => cellOrNull(row, name)));
  switch (call.fn) {
    case 'count':
      // The row count; arguments, if any were written, do not change it.
      return [rows.length];
    case 'countdistinct': {
      const counted = tuples.filter((t) => t.some((v) => v !== null));
      return [new Set(counted.map(tupleKey)).size];
    }
    case 'max':
    case 'min':
      return extremeTuple(call, tuples);
    case 'avg':
    case 'sum':
    case 'var':
    case 'percentile': {
      const result = numericAggregation(call, tuples.map((t) => numericValue(t[0] ?? null)).filter(isNumber));
      // Tables hold finite numbers only, as for scalar arithmetic: an overflowed sum is null.
      return [result !== null && Number.isFinite(result) ? result : null];
    }
    default:
      return assertNever(call.fn, 'aggregation function');
  }
}

function isNumber(v: number | null): v is number {
  return v !== null;
}

// Tuples compare element by element; `max` orders null < numbers < strings, `min` the same but
// with null as the greatest. No rows gives a tuple of nulls.
function extremeTuple(call: AggregationCall, tuples: readonly TableValue[][]): TableValue[] {
  if (call.args.length === 0) throw new QueryAnalysisError(`${call.fn} needs a column`, { span: call.span });
  const isBetter =
    call.fn === 'max'
      ? (t: TableValue[], best: TableValue[]) => compareTuples(t, best, compareTableValues) > 0
      : (t: TableValue[], best: TableValue[]) => compareTuples(t, best, compareForMin) < 0;
  let best: TableValue[] | null = null;
  for (const t of tuples) if (best === null || isBetter(t, best)) best = t;
  return best ?? call.args.map(() => null);
}

/** avg, sum, var and percentile over the values that are numbers or decimal strings; none gives null. */
function numericAggregation(call: AggregationCall, values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sum = values.reduce((a, b) => a + b, 0);
  switch (call.fn) {
    case 'sum':
      return sum;
    case 'avg':
      return sum / values.length;
    case 'var': {
      // Sample variance (n − 1), which needs two values.
      if (values.length < 2) return null;
      const mean = sum / values.length;
      return values.reduce((acc, v) => acc + (v - mean) ** 2, 0) / (values.length - 1);
    }
    case 'percentile': {
      if (call.rank === null) throw new QueryAnalysisError('percentile needs a rank', { span: call.span });
      const sorted = [...values].sort((a, b) => a - b);
      return sorted[nearestRank(call.rank, sorted.length) - 1] ?? null;
    }
    default:
      // eslint-disable-next-line no-restricted-syntax -- internal invariant: the analyzer checked the function
      throw new Error(`${call.fn} is not a numeric aggregation`);
  }
}

/**
 * Nearest rank of percentile p among n sorted values: max(1, ceil(p/100 × n)). Computed exactly
 * from the decimal text of p with bigints, because in floating point 99.9 / 100 × 1000 is
 * 999.0000000000001 and its ceiling 1000, not 999.
 */
export function nearestRank(p: NumberValue, n: number): number {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(p.text);
  if (m === null) throw new QueryAnalysisError(`percentile rank ${p.text} is not a number`, { span: p.span });
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = m;
  // p = numerator / denominator exactly.
  const scale = Number(exponent) - fraction.length;
  const digits = BigInt(`${sign}${whole}${fraction}`);
  const numerator = scale >= 0 ? digits * 10n ** BigInt(scale) : digits;
  const denominator = scale >= 0 ? 1n : 10n ** BigInt(-scale);
  if (numerator < 0n || numerator > 100n * denominator) {
    throw new QueryAnalysisError(`percentile rank ${p.text} is outside 0 to 100`, { span: p.span });
  }
  const scaled = numerator * BigInt(n);
  const divisor = 100n * denominator;
  const ceiling = (scaled + divisor - 1n) / divisor; // both non-negative
  return Math.max(1, Number(ceiling));
}
