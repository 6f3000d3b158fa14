/**
 * Compiles the aggregating commands (count, groupbycount, countdistinct, stats, max, min, avg,
 * sum, percentile, var) exactly (D21-D23): exact distinct counts, nearest-rank percentiles,
 * our value order for max/min and for sorting groups.
 */
import { assertNever } from '../../core/index.js';
import type { AggregationCall, ColumnName, GroupByCountCommand, StatsCommand } from '../ast.js';
import { plainColumnName } from '../column-names.js';
import { aggregateColumns, statsColumnName } from '../output-columns.js';
import { fromClause, type StageInput } from './stage-input.js';
import { resolveColumn, type SqlEnv, type TableColumn, type TableEnv } from './sql-env.js';
import { finiteOrNull, numericValue, valueSortKey } from './sql-value.js';

export interface StageSql {
  readonly sql: string;
  readonly env: TableEnv;
}

interface Pair {
  readonly s: string;
  readonly n: string;
}

/** Builds aliases unique within one statement: `q3_c0_s`, `q3_c0_n`, ... */
export class AliasMaker {
  private next = 0;
  stage(): string {
    return `q${this.next++}`;
  }
}

function pairOf(column: ColumnName, env: SqlEnv, indexNames: ReadonlyMap<string, string>): Pair {
  const name = plainColumnName(column);
  return name === null ? { s: 'NULL', n: 'NULL' } : resolveColumn(env, name, indexNames).value;
}

const allNull = (pairs: readonly Pair[]): string => pairs.map((p) => `(${p.s}) IS NULL AND (${p.n}) IS NULL`).join(' AND ');

/** SQL select items computing one aggregation call; returns the item list and its output pairs. */
function callItems(call: AggregationCall, args: readonly Pair[], prefix: string): { items: string[]; outputs: Pair[] } {
  const out = (i: number) => ({ s: `${prefix}_${i}_s`, n: `${prefix}_${i}_n` });
  const numeric = (): string => numericValue(args[0] as Pair);
  // Tables hold finite numbers only: an overflowing sum or variance is null, as in the evaluator.
  const numberItem = (expr: string): { items: string[]; outputs: Pair[] } => ({
    items: [`CAST(NULL, 'Nullable(String)') AS ${prefix}_0_s`, `${finiteOrNull(expr)} AS ${prefix}_0_n`],
    outputs: [out(0)],
  });
  switch (call.fn) {
    case 'count':
      return numberItem('count()');
    case 'countdistinct': {
      const tuple = `tuple(${args.flatMap((p) => [p.s, p.n]).join(', ')})`;
      return numberItem(`uniqExactIf(${tuple}, NOT (${allNull(args)}))`);
    }
    case 'max':
    case 'min': {
      const values = `tuple(${args.flatMap((p) => [p.s, p.n]).join(', ')})`;
      const keys = `tuple(${args.map((p) => valueSortKey(p, call.fn === 'min')).join(', ')})`;
      const picked = `${prefix}_tuple`;
      const items = [`${call.fn === 'max' ? 'argMax' : 'argMin'}(${values}, ${keys}) AS ${picked}`];
      args.forEach((_, i) => {
        items.push(`tupleElement(${picked}, ${2 * i + 1}) AS ${prefix}_${i}_s`, `tupleElement(${picked}, ${2 * i + 2}) AS ${prefix}_${i}_n`);
      });
      return { items, outputs: args.map((_, i) => out(i)) };
    }
    case 'avg':
      return numberItem(`avg(${numeric()})`);
    case 'sum':
      return numberItem(`sum(${numeric()})`);
    case 'var':
      return numberItem(`if(count(${numeric()}) >= 2, varSamp(${numeric()}), NULL)`);
    case 'percentile': {
      // Nearest rank: the value at position max(1, ceil(p / 100 * N)) of the sorted values,
      // in exact integer arithmetic (in floating point 99.9 / 100 * 1000 is 999.0000000000001).
      const { numerator, denominator } = decimalFraction(call.rank?.text ?? '50');
      const x = numeric();
      const d = denominator * 100n;
      const rank = `greatest(1, intDiv(toUInt256(${numerator.toString()}) * count(${x}) + ${(d - 1n).toString()}, ${d.toString()}))`;
      return numberItem(`if(count(${x}) = 0, NULL, arrayElement(arraySort(groupArray(${x})), toUInt64(${rank})))`);
    }
    default:
      return assertNever(call.fn);
  }
}

/** The exact value of a decimal literal (`99.9`, `1e2`) as numerator / denominator. */
export function decimalFraction(text: string): { numerator: bigint; denominator: bigint } {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  // eslint-disable-next-line no-restricted-syntax -- internal invariant: the lexer accepted the literal
  if (match === null) throw new Error(`not a decimal literal: ${text}`);
  const [, sign = '', whole = '0', fraction = '', exponentText = '0'] = match;
  let numerator = BigInt(sign + whole + fraction);
  let denominator = 10n ** BigInt(fraction.length);
  const exponent = Number(exponentText);
  if (exponent >= 0) numerator *= 10n ** BigInt(exponent);
  else denominator *= 10n ** BigInt(-exponent);
  return { numerator, denominator };
}

/**
 * How an aggregation keeps its input's partition (compileWindowedQuery): the column is selected
 * and grouped by, leads the order, and numbers rows within each partition.
 */
function partitioning(env: SqlEnv): { select: string; groupBy: string[]; over: string; env: { order: string[]; partition?: string } } {
  const p = env.partition;
  return p === undefined
    ? { select: '', groupBy: [], over: '', env: { order: [] } }
    : { select: `, ${p}`, groupBy: [p], over: `PARTITION BY ${p} `, env: { order: [p], partition: p } };
}

/** An ungrouped aggregation: one row (per partition). */
function oneRow(items: readonly string[], from: StageInput, env: SqlEnv, prefix: string, columns: TableColumn[]): StageSql {
  const part = partitioning(env);
  const groupBy = part.groupBy.length === 0 ? '' : ` GROUP BY ${part.groupBy.join(', ')}`;
  return {
    sql: `SELECT ${items.join(', ')}${part.select}, 1 AS ${prefix}_ord FROM ${fromClause(from)}${groupBy}`,
    env: { mode: 'table', columns, ...part.env, order: [...part.env.order, `${prefix}_ord`] },
  };
}

/** A standalone aggregation command: one row. */
export function compileAggregate(call: AggregationCall, from: StageInput, env: SqlEnv, indexNames: ReadonlyMap<string, string>, aliases: AliasMaker): StageSql {
  const prefix = aliases.stage();
  const { items, outputs } = callItems(
    call,
    call.args.map((c) => pairOf(c, env, indexNames)),
    prefix,
  );
  const columns = aggregateColumns(call).map((name, i) => ({ name, ...(outputs[i] as Pair) }));
  return oneRow(items, from, env, prefix, columns);
}

/** `groupbycount`: most frequent first, ties by the group values ascending (D21). */
export function compileGroupByCount(command: GroupByCountCommand, from: StageInput, env: SqlEnv, indexNames: ReadonlyMap<string, string>, aliases: AliasMaker): StageSql {
  const prefix = aliases.stage();
  const names = [...new Set(command.columns.map((c) => plainColumnName(c) ?? ''))];
  const groups = names.map((name) => resolveColumn(env, name, indexNames).value);
  const groupItems = groups.flatMap((g, i) => [`${g.s} AS ${prefix}_g${i}_s`, `${g.n} AS ${prefix}_g${i}_n`]);
  const groupPairs = groups.map((_, i) => ({ s: `${prefix}_g${i}_s`, n: `${prefix}_g${i}_n` }));
  const count = `${prefix}_count_n`;
  const order = [`${count} DESC`, ...groupPairs.map((p) => valueSortKey(p))].join(', ');
  const part = partitioning(env);
  const groupBy = [...groupPairs.flatMap((p) => [p.s, p.n]), ...part.groupBy].join(', ');
  const inner = `SELECT ${groupItems.join(', ')}${part.select}, toFloat64(count()) AS ${count} FROM ${fromClause(from)} GROUP BY ${groupBy}`;
  const sql = `SELECT *, CAST(NULL, 'Nullable(String)') AS ${prefix}_count_s, row_number() OVER (${part.over}ORDER BY ${order}) AS ${prefix}_ord FROM (${inner})`;
  const columns: TableColumn[] = [...names.map((name, i) => ({ name, ...(groupPairs[i] as Pair) })), { name: '@q.count', s: `${prefix}_count_s`, n: count }];
  return { sql, env: { mode: 'table', columns, ...part.env, order: [...part.env.order, `${prefix}_ord`] } };
}

/** `stats f… by g…`: groups, `@q.count`, then one column per aggregation; groups ascending. */
export function compileStats(command: StatsCommand, from: StageInput, env: SqlEnv, indexNames: ReadonlyMap<string, string>, aliases: AliasMaker): StageSql {
  const prefix = aliases.stage();
  // A column named twice in `by` groups once (the first occurrence names it).
  const byNames = [...new Set(command.by.map((c) => plainColumnName(c) ?? ''))];
  const groups = byNames.map((name) => resolveColumn(env, name, indexNames).value);
  const groupPairs = groups.map((_, i) => ({ s: `${prefix}_g${i}_s`, n: `${prefix}_g${i}_n` }));
  const items = groups.flatMap((g, i) => [`${g.s} AS ${prefix}_g${i}_s`, `${g.n} AS ${prefix}_g${i}_n`]);
  items.push(`CAST(NULL, 'Nullable(String)') AS ${prefix}_count_s`, `toFloat64(count()) AS ${prefix}_count_n`);
  const columns: TableColumn[] = [...byNames.map((name, i) => ({ name, ...(groupPairs[i] as Pair) })), { name: '@q.count', s: `${prefix}_count_s`, n: `${prefix}_count_n` }];
  command.items.forEach((item, k) => {
    if (item.kind !== 'statsAggregation') return;
    const name = statsColumnName(item);
    if (columns.some((c) => c.name === name)) return;
    const call = callItems(
      item.call,
      item.call.args.map((c) => pairOf(c, env, indexNames)),
      `${prefix}_a${k}`,
    );
    items.push(...call.items);
    columns.push({ name, ...(call.outputs[0] as Pair) });
  });
  if (groups.length === 0) return oneRow(items, from, env, prefix, columns);
  const part = partitioning(env);
  const inner = `SELECT ${items.join(', ')}${part.select} FROM ${fromClause(from)} GROUP BY ${[...groupPairs.flatMap((p) => [p.s, p.n]), ...part.groupBy].join(', ')}`;
  const order = groupPairs.map((p) => valueSortKey(p)).join(', ');
  const sql = `SELECT *, row_number() OVER (${part.over}ORDER BY ${order}) AS ${prefix}_ord FROM (${inner})`;
  return { sql, env: { mode: 'table', columns, ...part.env, order: [...part.env.order, `${prefix}_ord`] } };
}
