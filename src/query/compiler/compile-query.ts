/**
 * Compiles an analyzed query to one ClickHouse statement over `logs`: the tenant, the indexes in
 * scope and the time range always bound the scan. The first command reads `logs` directly; each
 * later one wraps the previous stage as a subquery (stage-input.ts). The result says how to read the rows back (raw events or a table).
 */
import { assertNever, sqlInteger, sqlString, sqlTimestampNs } from '../../core/index.js';
import type { AnalyzedQuery } from '../analyzer/analyze-query.js';
import type { Command } from '../ast.js';
import { plainColumnName } from '../column-names.js';
import { AliasMaker, compileAggregate, compileGroupByCount, compileStats } from './compile-aggregation.js';
import { compileFilter, type FilterContext, type PredicatePlan } from './compile-filter.js';
import { compileScalar } from './compile-scalar.js';
import { resolveColumn, storedEventsEnv, type RawColumnOp, type SqlEnv, type TableColumn } from './sql-env.js';
import { scalarToValue } from './sql-value.js';
import { filtered, fromClause, stage, type StageInput } from './stage-input.js';
import { rowBoundConditions, type RowPosition } from './row-bounds.js';
import { rowIdentityPlan, type RowIdentityPlan } from './row-identity.js';
import { compileLookup } from './compile-lookup.js';

export interface CompileOptions {
  readonly tenant: string;
  /** Time range `[startNs, endNs)` of event times, in nanoseconds. */
  readonly startNs: bigint;
  readonly endNs: bigint;
  /** Event results (raw, or shaped by row-wise commands): oldest first (`asc`, the language's order) or newest first. */
  readonly order?: 'asc' | 'desc';
  /** Event results: at most this many rows. Aggregated tables ignore both. */
  readonly limit?: number;
  /**
   * False leaves the time range out of the statement (default true). Only for a range known to
   * hold every event of the scope (Engine.writtenTimeSpan): it then selects nothing, and leaving
   * it out spares reading and comparing each event's time.
   */
  readonly timeBounded?: boolean;
  /**
   * Also prefilter terms over all values by the parts of words they hold (`*mimikatz*`), which
   * have no whole word for the index to look up. The index answers such a lookup by scanning its
   * dictionary, about 20 ms per merged weekly part whatever the range, so it pays only for
   * statements that read many events: over a week a rare part of a word took 23 ms instead of
   * 1.2 s, over an hour 23 ms instead of 33 ms (docs/search.md).
   */
  readonly partialWords?: boolean;
  /** Only events strictly after / before these positions (row-bounds.ts); kept even when `timeBounded` is false. */
  readonly after?: RowPosition;
  readonly before?: RowPosition;
}

/** How to read the statement's rows back. */
export type CompiledOutput =
  | {
      readonly kind: 'events';
      /** Columns set or removed by eval/rename, replayed on each decoded event in order. */
      readonly ops: readonly RawColumnOp[];
      /** The statement's result columns in order: `eventRowAliases`, then the ops' value pairs. */
      readonly columns: readonly string[];
      /** What identifies each row for a rule's debounce: always `event`. */
      readonly identity: RowIdentityPlan;
    }
  | {
      readonly kind: 'table';
      readonly columns: readonly TableColumn[];
      /**
       * What identifies each row for a rule's debounce. `event`: the rows are events shaped by
       * `table`, and each also carries `row_time_ns` and `row_seq`.
       */
      readonly identity: RowIdentityPlan;
    };

export interface CompiledQuery {
  readonly sql: string;
  /** Engine settings the statement needs; the executor passes them with the query. */
  readonly settings: Readonly<Record<string, number>>;
  readonly output: CompiledOutput;
  /** Each exact predicate and the index that prefilters it, for `--explain`. */
  readonly plans: readonly PredicatePlan[];
}

// Int64 results (counts, sums) must print as numbers: quoted, they would read back as strings.
export const querySettings = { output_format_json_quote_64bit_integers: 0 } as const;

// What a raw-event statement selects of each event, by the name search's decodeRows reads it;
// `row_raw` holds the event's stored JSON text.
const eventRowSelect = [
  ['toString(toUnixTimestamp64Nano(ts))', 'row_time_ns'],
  ['toString(seq)', 'row_seq'],
  ['idx', 'row_index_id'],
  ['source_type', 'row_source_type'],
  ['raw', 'row_raw'],
] as const;

/** What a raw-event statement selects of each event (`expr AS name`). */
export const eventRowColumns = eventRowSelect.map(([expr, name]) => `${expr} AS ${name}`);

/** The names of `eventRowColumns`, in order: the first columns of every raw-event answer. */
export const eventRowAliases = eventRowSelect.map(([, name]) => name);

/** Default and maximum row counts of `head` / `tail` (D25). */
export const defaultHeadRows = 10;

/** A query's filter and commands compiled into the stage that yields their rows, before any ordering or limit. */
export interface CompiledStages {
  readonly input: StageInput;
  readonly env: SqlEnv;
  readonly plans: readonly PredicatePlan[];
}

/** Stages being compiled: what the next command reads, and what the statement shares. */
export interface StageState {
  readonly input: StageInput;
  readonly env: SqlEnv;
  readonly ctx: FilterContext;
  readonly aliases: AliasMaker;
  /** The tenant the statement reads (lookup tables are the tenant's). */
  readonly tenant: string;
}

/** The first stage: the scan's bounds and the query's filter over `logs`. */
export function beginStages(analyzed: AnalyzedQuery, options: CompileOptions): StageState {
  const indexNames = new Map(analyzed.scope.map((index) => [index.id, index.name]));
  const ctx: FilterContext = { analyzed, indexNames, plans: [], partialWords: options.partialWords === true };
  const bounds = scanBounds(analyzed, options);
  const stored = storedEventsEnv(analyzed);
  const filter = compileFilter(analyzed.query.filter, stored, ctx);
  return {
    input: { kind: 'logs', where: `${bounds.join(' AND ')}${filter === '1' ? '' : ` AND ${filter}`}` },
    env: stored,
    ctx,
    aliases: new AliasMaker(),
    tenant: options.tenant,
  };
}

/** The stages after these commands, one per command. */
export function continueStages(state: StageState, commands: readonly Command[]): StageState {
  let { input, env } = state;
  for (const command of commands) {
    const next = compileCommand(command, input, env, state.ctx, state.aliases, state.tenant);
    input = next.input;
    env = next.env;
  }
  return { ...state, input, env };
}

/**
 * Compiles the filter and `commands` (by default the query's whole pipeline) into the stage
 * that yields their rows: the scan's bounds and filter over `logs`, then one stage per command.
 */
export function compileStages(analyzed: AnalyzedQuery, options: CompileOptions, commands: readonly Command[] = analyzed.query.pipeline): CompiledStages {
  const { input, env, ctx } = continueStages(beginStages(analyzed, options), commands);
  return { input, env, plans: ctx.plans };
}

/** Compiles a checked query into a ClickHouse statement. */
export function compileQuery(analyzed: AnalyzedQuery, options: CompileOptions): CompiledQuery {
  const { input, env, plans } = compileStages(analyzed, options);
  return finalStatement(input, env, options, plans, rowIdentityPlan(analyzed.query.pipeline));
}

/**
 * The statement selecting what a query's last stage yields, in order: events (raw) or a table.
 * With a partition column (compileWindowedQuery) it is selected too, leads the order, and the
 * limit applies per partition.
 */
export function finalStatement(
  input: StageInput,
  env: SqlEnv,
  options: Pick<CompileOptions, 'order' | 'limit'>,
  plans: readonly PredicatePlan[],
  identity: RowIdentityPlan,
): CompiledQuery {
  const p = env.partition;
  const limitOf = (limit: number): string => ` LIMIT ${sqlInteger(limit)}${p === undefined ? '' : ` BY ${p}`}`;
  if (env.mode === 'events') {
    const dir = options.order === 'desc' ? 'DESC' : 'ASC';
    const extra = [...new Set(env.ops.flatMap((op) => (op.kind === 'set' ? [op.s, op.n] : [])))];
    const select = [...eventRowColumns, ...extra, ...(p === undefined ? [] : [p])];
    const limit = options.limit === undefined ? '' : limitOf(options.limit);
    return {
      sql: `SELECT ${select.join(', ')} FROM ${fromClause(input)} ORDER BY ${p === undefined ? '' : `${p}, `}ts ${dir}, seq ${dir}${limit}`,
      settings: querySettings,
      // The partition is an answer column too: event answers carry only the columns listed.
      output: { kind: 'events', ops: env.ops, columns: [...eventRowAliases, ...extra, ...(p === undefined ? [] : [p])], identity },
      plans: uniquePlans(plans),
    };
  }
  const select = env.columns.flatMap((c) => [c.s, c.n]);
  const order = p === undefined ? env.order : env.order.slice(1);
  if (env.fromEvents) {
    const [ts, seq] = order as [string, string];
    select.push(`toString(toUnixTimestamp64Nano(${ts})) AS row_time_ns`, `toString(${seq}) AS row_seq`);
  }
  if (p !== undefined) select.push(p);
  // Events shaped by `table` keep their time order, so the caller's order and limit apply.
  const dir = env.fromEvents && options.order === 'desc' ? ' DESC' : '';
  const limit = env.fromEvents && options.limit !== undefined ? limitOf(options.limit) : '';
  return {
    sql: `SELECT ${[...new Set(select)].join(', ')} FROM ${fromClause(input)} ORDER BY ${[...(p === undefined ? [] : [p]), ...order.map((o) => o + dir)].join(', ')}${limit}`,
    settings: querySettings,
    output: { kind: 'table', columns: env.columns, identity },
    plans: uniquePlans(plans),
  };
}

function compileCommand(command: Command, from: StageInput, env: SqlEnv, ctx: FilterContext, aliases: AliasMaker, tenant: string): { input: StageInput; env: SqlEnv } {
  const { indexNames } = ctx;
  const staged = (result: { sql: string; env: SqlEnv }): { input: StageInput; env: SqlEnv } => ({ input: stage(result.sql), env: result.env });
  switch (command.kind) {
    case 'aggregate':
      return staged(compileAggregate(command.call, from, env, indexNames, aliases));
    case 'groupbycount':
      return staged(compileGroupByCount(command, from, env, indexNames, aliases));
    case 'stats':
      return staged(compileStats(command, from, env, indexNames, aliases));
    case 'where':
      return { input: filtered(from, compileFilter(command.filter, env, ctx)), env };
    case 'head':
    case 'tail': {
      const n = command.count === null ? defaultHeadRows : command.count.value;
      const dir = command.kind === 'head' ? 'ASC' : 'DESC';
      // Per partition when there is one (its column leads a table's order already).
      const p = env.partition;
      const order = env.mode === 'events' ? [...(p === undefined ? [] : [p]), `ts ${dir}`, `seq ${dir}`] : env.order.map((o) => `${o} ${dir}`);
      const select = p !== undefined && from.arrayJoin !== undefined ? `*, ${p}` : '*';
      const by = p === undefined ? '' : ` BY ${p}`;
      return { input: stage(`SELECT ${select} FROM ${fromClause(from)} ORDER BY ${order.join(', ')} LIMIT ${sqlInteger(n)}${by}`), env };
    }
    case 'eval': {
      // One SELECT level for the whole command: an assignment that reads an earlier one names its
      // alias, which ClickHouse resolves within the same SELECT list. A level per assignment made
      // 100 assignments exceed the engine's parser depth (a 500 before).
      let current = env;
      const items: string[] = [];
      for (const assignment of command.assignments) {
        const name = plainColumnName(assignment.column) ?? '';
        const value = scalarToValue(compileScalar(assignment.expr, current, indexNames));
        const next = setColumn(current, name, value, aliases);
        items.push(...next.items);
        current = next.env;
      }
      return { input: withColumns(from, items), env: current };
    }
    case 'lookup': {
      // Like eval: one SELECT level; every output is computed from the table before the command.
      let current = env;
      const items: string[] = [];
      for (const { name, value } of compileLookup(command, env, ctx.analyzed, tenant, indexNames)) {
        const next = setColumn(current, name, value, aliases);
        items.push(...next.items);
        current = next.env;
      }
      return { input: withColumns(from, items), env: current };
    }
    case 'rename': {
      let current = env;
      const items: string[] = [];
      for (const rename of command.renames) {
        const from_ = plainColumnName(rename.from) ?? '';
        const to = plainColumnName(rename.to) ?? '';
        const value = resolveColumn(current, from_, indexNames).value;
        const next = setColumn(current, to, value, aliases, from_ === to ? undefined : from_);
        items.push(...next.items);
        current = next.env;
      }
      return { input: withColumns(from, items), env: current };
    }
    case 'table': {
      const prefix = aliases.stage();
      const names = [...new Set(command.columns.map((c) => plainColumnName(c) ?? ''))];
      const items: string[] = [];
      const columns = names.map((name, i) => {
        const value = resolveColumn(env, name, indexNames).value;
        items.push(`${value.s} AS ${prefix}_${i}_s`, `${value.n} AS ${prefix}_${i}_n`);
        return { name, s: `${prefix}_${i}_s`, n: `${prefix}_${i}_n` };
      });
      const p = env.partition;
      const partition = p === undefined ? [] : [p];
      // A table's order leads with its partition already; events keep theirs by name.
      const order = env.mode === 'events' ? [...partition, `ts AS ${prefix}_ts`, `seq AS ${prefix}_seq`] : env.order;
      const sql = `SELECT ${[...items, ...order].join(', ')} FROM ${fromClause(from)}`;
      const fromEvents = env.mode === 'events' || env.fromEvents === true;
      const nextOrder = env.mode === 'events' ? [...partition, `${prefix}_ts`, `${prefix}_seq`] : env.order;
      return { input: stage(sql), env: { mode: 'table', columns, order: nextOrder, fromEvents, ...(p === undefined ? {} : { partition: p }) } };
    }
    default:
      return assertNever(command);
  }
}

/** A stage reading `from` with every column it has plus `items` (`expr AS alias`), or `from` itself when none. */
function withColumns(from: StageInput, items: readonly string[]): StageInput {
  return items.length === 0 ? from : stage(`SELECT *, ${items.join(', ')} FROM ${fromClause(from)}`);
}

/**
 * Adds (or replaces) column `name` with `value`, materialized as two new SQL columns (`items`,
 * for the stage's SELECT list); with `removed`, that column goes away (rename). Table order and
 * earlier columns are kept.
 */
function setColumn(env: SqlEnv, name: string, value: { s: string; n: string }, aliases: AliasMaker, removed?: string): { items: string[]; env: SqlEnv } {
  const prefix = aliases.stage();
  const s = `${prefix}_s`;
  const n = `${prefix}_n`;
  const items = [`CAST(${value.s}, 'Nullable(String)') AS ${s}`, `CAST(${value.n}, 'Nullable(Float64)') AS ${n}`];
  if (env.mode === 'events') {
    const overrides = new Map(env.overrides);
    overrides.set(name, { s, n });
    const ops: RawColumnOp[] = [...env.ops, { kind: 'set', name, s, n }];
    if (removed !== undefined) {
      overrides.set(removed, 'deleted');
      ops.push({ kind: 'delete', name: removed });
    }
    return { items, env: { ...env, overrides, ops } };
  }
  let columns = env.columns.filter((c) => c.name !== removed);
  const at = columns.findIndex((c) => c.name === (removed ?? name));
  const position = removed !== undefined ? env.columns.findIndex((c) => c.name === removed) : at;
  const replacement = { name, s, n };
  columns = columns.filter((c) => c.name !== name);
  if (removed !== undefined && position !== -1) {
    const before = env.columns.slice(0, position).filter((c) => c.name !== name).length;
    columns.splice(before, 0, replacement);
  } else if (at !== -1) {
    columns.splice(at, 0, replacement);
  } else {
    columns.push(replacement);
  }
  return {
    items,
    env: { mode: 'table', columns, order: env.order, ...(env.fromEvents ? { fromEvents: true } : {}), ...(env.partition === undefined ? {} : { partition: env.partition }) },
  };
}

// A wildcard name expands to one predicate per column; the plan lists each filter once.
function uniquePlans(plans: readonly PredicatePlan[]): PredicatePlan[] {
  const seen = new Set<string>();
  return plans.filter((p) => {
    const key = `${p.source}\u0000${p.index}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * True when the query's result is events in time order whichever part of the range it covers:
 * only row-wise commands follow the filter. Such queries can run in time slices; `head`, `tail`
 * and aggregations need the whole range at once.
 */
export function isSliceable(query: import('../ast.js').Query): boolean {
  return query.pipeline.every((c) => c.kind === 'eval' || c.kind === 'where' || c.kind === 'rename' || c.kind === 'table' || c.kind === 'lookup');
}

/** The conditions every statement of a query scans under: tenant, indexes in scope, time range. */
function scanBounds(analyzed: AnalyzedQuery, options: CompileOptions): string[] {
  const scope = [`tenant = ${sqlString(options.tenant)}`, scopeCondition(analyzed), ...rowBoundConditions(options.after, options.before)];
  if (options.timeBounded === false) return scope;
  return [...scope, `ts >= ${sqlTimestampNs(options.startNs)}`, `ts < ${sqlTimestampNs(options.endNs)}`];
}

/** The indexes in the query's scope (none: no rows). */
export function scopeCondition(analyzed: AnalyzedQuery): string {
  return analyzed.scope.length === 0 ? '0' : `idx IN (${analyzed.scope.map((i) => sqlString(i.id)).join(', ')})`;
}

/**
 * About how many events of the query's scope fall in each `widthNs` bucket of the range (bucket
 * i starts at startNs + i·widthNs), ignoring the filter. It reads the per-minute counts of
 * `event_minutes`, so it is cheap whatever the range holds; a minute counts wholly in the bucket
 * its start falls in (the first, partial minute in bucket 0). The search only sizes its time
 * slices from it, and the slices cover the range whatever the counts say.
 */
export function compileTimeHistogram(analyzed: AnalyzedQuery, options: { tenant: string; startNs: bigint; endNs: bigint }, widthNs: bigint): string {
  const minuteNs = 'toInt64(toUnixTimestamp(minute)) * 1000000000';
  const bucket = `greatest(intDiv(${minuteNs} - ${sqlInteger(options.startNs)}, ${sqlInteger(widthNs)}), 0)`;
  const where = [
    `tenant = ${sqlString(options.tenant)}`,
    scopeCondition(analyzed),
    `minute >= toStartOfMinute(toDateTime(${sqlTimestampNs(options.startNs)}, 'UTC'))`,
    `minute < toDateTime(${sqlTimestampNs(options.endNs)}, 'UTC')`,
  ];
  return `SELECT toUInt32(${bucket}) AS bucket, sum(rows) AS rows FROM event_minutes WHERE ${where.join(' AND ')} GROUP BY bucket`;
}
