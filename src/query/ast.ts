/**
 * The query language's syntax tree (docs/query-language.md). Nodes are readonly, tagged by
 * `kind` and carry the `span` of the text they came from; every pass switches on `kind` and ends
 * in `assertNever`, so a new node kind does not compile until each pass handles it.
 *
 * The tree records what was written, not what it means: aliases such as `@scnr.x` stay as typed
 * and `@index` names are unresolved; the analyzer gives them meaning.
 */
import type { Span } from '../core/index.js';

/** A whole query: a filter over events, then zero or more pipeline commands. */
export interface Query {
  readonly kind: 'query';
  /** An empty query and `*` both parse to a wildcard-only text term (match everything). */
  readonly filter: Filter;
  readonly pipeline: readonly Command[];
  readonly span: Span;
}

// ---------------------------------------------------------------------------------------------
// Filters

export type Filter = AndFilter | OrFilter | NotFilter | TextFilter | MatchFilter | CompareFilter | IndexFilter;

/** Two or more filters that must all hold (explicit `and` or juxtaposition: the same node). */
export interface AndFilter {
  readonly kind: 'and';
  readonly operands: readonly Filter[];
  readonly span: Span;
}

export interface OrFilter {
  readonly kind: 'or';
  readonly operands: readonly Filter[];
  readonly span: Span;
}

export interface NotFilter {
  readonly kind: 'not';
  readonly operand: Filter;
  readonly span: Span;
}

/** A free-text term: matches when any user column's value contains it (D13). */
export interface TextFilter {
  readonly kind: 'text';
  readonly value: Value;
  readonly span: Span;
}

/** `col: v` (contains) or `col = v` (whole value); `v` may be a value group (D14, D15). */
export interface MatchFilter {
  readonly kind: 'match';
  readonly column: ColumnName;
  readonly op: MatchOperator;
  readonly value: ValueExpr;
  readonly span: Span;
}

export type MatchOperator = ':' | '=';

/**
 * `col < 5` and friends (D17). `==` and `!=` occur only inside `where` (D24); in the main filter
 * the parser rejects them with a hint.
 */
export interface CompareFilter {
  readonly kind: 'compare';
  readonly column: ColumnName;
  readonly op: CompareOperator;
  readonly value: Value;
  readonly span: Span;
}

export type CompareOperator = '<' | '<=' | '>' | '>=' | '==' | '!=';

/** `@index=name`, `@index={uuid | "name"}`, `@index=(a b)` (D18): the event's index is one of these. */
export interface IndexFilter {
  readonly kind: 'index';
  readonly targets: readonly IndexTarget[];
  readonly span: Span;
}

/** One index named in an `@index` selector: by name, by id, or both (`{uuid | "name"}`). */
export interface IndexTarget {
  readonly kind: 'indexTarget';
  readonly name: string | null;
  readonly id: string | null;
  readonly span: Span;
}

// ---------------------------------------------------------------------------------------------
// Values

/** What may follow `col:` / `col =`: one value, or a parenthesized group of them (D15). */
export type ValueExpr = Value | ValueAnd | ValueOr | ValueNot;

export interface ValueAnd {
  readonly kind: 'valueAnd';
  readonly operands: readonly ValueExpr[];
  readonly span: Span;
}

/** Juxtaposed values inside a group mean `or` (D15), so they parse to this node too. */
export interface ValueOr {
  readonly kind: 'valueOr';
  readonly operands: readonly ValueExpr[];
  readonly span: Span;
}

export interface ValueNot {
  readonly kind: 'valueNot';
  readonly operand: ValueExpr;
  readonly span: Span;
}

export type Value = StringValue | NumberValue;

export type StringQuote = 'bare' | 'single' | 'double';

/**
 * A text value with its wildcards. `segments` are the unescaped literal pieces with one `*`
 * between each neighbouring pair: `app-*` is `['app-', '']`, `*` alone is `['', '']`, and
 * `a\*b` (a literal asterisk) is `['a*b']`.
 */
export interface StringValue {
  readonly kind: 'string';
  readonly quote: StringQuote;
  readonly segments: readonly string[];
  readonly span: Span;
}

/** A number literal `-?digits[.digits][e[+-]digits]` (D8); `text` is exactly as written. */
export interface NumberValue {
  readonly kind: 'number';
  readonly text: string;
  readonly value: number;
  readonly span: Span;
}

// ---------------------------------------------------------------------------------------------
// Column names

/**
 * A column name as written, bare or in backticks, split at its wildcards (D16): `*` matches any
 * characters except `.`, `[` and `]`; `**` matches any characters. A name without wildcards is
 * one `text` part.
 */
export interface ColumnName {
  readonly kind: 'column';
  readonly quote: 'bare' | 'backtick';
  readonly parts: readonly NamePart[];
  readonly span: Span;
}

export type NamePart = { readonly kind: 'text'; readonly text: string } | { readonly kind: 'star' } | { readonly kind: 'globstar' };

// ---------------------------------------------------------------------------------------------
// Pipeline

export type Command = AggregateCommand | GroupByCountCommand | StatsCommand | EvalCommand | WhereCommand | TableCommand | RenameCommand | HeadCommand | TailCommand | LookupCommand;

export type AggregationFunction = 'count' | 'countdistinct' | 'max' | 'min' | 'avg' | 'sum' | 'percentile' | 'var';

/**
 * One aggregation call: `count()`, `countdistinct(a, b)`, `max(a)`, `percentile(99.9, a)`.
 * `rank` is set only for `percentile`.
 */
export interface AggregationCall {
  readonly kind: 'call';
  readonly fn: AggregationFunction;
  readonly args: readonly ColumnName[];
  readonly rank: NumberValue | null;
  readonly span: Span;
}

/** A standalone aggregation command: `count`, `countdistinct x`, `max(a, b)`, `var(x)`, ... */
export interface AggregateCommand {
  readonly kind: 'aggregate';
  readonly call: AggregationCall;
  readonly span: Span;
}

export interface GroupByCountCommand {
  readonly kind: 'groupbycount';
  readonly columns: readonly ColumnName[];
  readonly span: Span;
}

/** `stats f [as a], ... by g, ...`; the item list and the `by` list may each be empty. */
export interface StatsCommand {
  readonly kind: 'stats';
  readonly items: readonly StatsItem[];
  readonly by: readonly ColumnName[];
  readonly span: Span;
}

/**
 * A `stats` item: an aggregation with an optional alias, or a bare column that must be one of
 * the `by` columns (the form `stats count() as n, user by user` of the public examples; it adds
 * no column of its own).
 */
export type StatsItem = StatsAggregation | StatsGroupColumn;

export interface StatsAggregation {
  readonly kind: 'statsAggregation';
  readonly call: AggregationCall;
  readonly alias: ColumnName | null;
  readonly span: Span;
}

export interface StatsGroupColumn {
  readonly kind: 'statsGroupColumn';
  readonly column: ColumnName;
  readonly span: Span;
}

export interface EvalCommand {
  readonly kind: 'eval';
  readonly assignments: readonly EvalAssignment[];
  readonly span: Span;
}

export interface EvalAssignment {
  readonly kind: 'assignment';
  readonly column: ColumnName;
  readonly expr: Scalar;
  readonly span: Span;
}

/** `where <filter>` over the current table's columns (D24). */
export interface WhereCommand {
  readonly kind: 'where';
  readonly filter: Filter;
  readonly span: Span;
}

export interface TableCommand {
  readonly kind: 'table';
  readonly columns: readonly ColumnName[];
  readonly span: Span;
}

export interface RenameCommand {
  readonly kind: 'rename';
  readonly renames: readonly Rename[];
  readonly span: Span;
}

export interface Rename {
  readonly kind: 'renameItem';
  readonly from: ColumnName;
  readonly to: ColumnName;
  readonly span: Span;
}

/** `head [n]`; `count` is null when omitted (the default, 10, is applied by meaning, not syntax). */
export interface HeadCommand {
  readonly kind: 'head';
  readonly count: NumberValue | null;
  readonly span: Span;
}

export interface TailCommand {
  readonly kind: 'tail';
  readonly count: NumberValue | null;
  readonly span: Span;
}

/**
 * `lookup TABLE KEY [as FIELD] [output COL [as NAME], ...]` (docs/query-language.md, "Lookup
 * tables"): each row takes the output columns of the first row of the tenant's lookup table
 * `TABLE` whose column `KEY` holds the text of the row's `FIELD` (default: a column named `KEY`).
 * `outputs` null means every column of the table but `KEY`.
 */
export interface LookupCommand {
  readonly kind: 'lookup';
  readonly table: LookupTableRef;
  readonly key: ColumnName;
  readonly field: ColumnName | null;
  readonly outputs: readonly LookupOutput[] | null;
  readonly span: Span;
}

/** A lookup table as a query names it: by its name (bare, or quoted when it must be). */
export interface LookupTableRef {
  readonly kind: 'lookupTable';
  readonly name: string;
  readonly span: Span;
}

/** One output column: a column of the lookup table, written to the row as itself or as `alias`. */
export interface LookupOutput {
  readonly kind: 'lookupOutput';
  readonly column: ColumnName;
  readonly alias: ColumnName | null;
  readonly span: Span;
}

// ---------------------------------------------------------------------------------------------
// Scalar expressions (eval, alert templates; section 6.3 and D26)

export type Scalar = ScalarLiteral | ScalarColumn | ScalarUnary | ScalarBinary | ScalarCall;

export interface ScalarLiteral {
  readonly kind: 'literal';
  /** Numbers keep their written text in `text` so printing round-trips. */
  readonly value: number | string | boolean | null;
  readonly text: string | null;
  readonly span: Span;
}

export interface ScalarColumn {
  readonly kind: 'columnRef';
  readonly column: ColumnName;
  readonly span: Span;
}

export interface ScalarUnary {
  readonly kind: 'unary';
  readonly op: '-' | 'not';
  readonly operand: Scalar;
  readonly span: Span;
}

export type ScalarBinaryOperator = '+' | '-' | '*' | '/' | '==' | '!=' | '<' | '<=' | '>' | '>=' | 'and' | 'or';

export interface ScalarBinary {
  readonly kind: 'binary';
  readonly op: ScalarBinaryOperator;
  readonly left: Scalar;
  readonly right: Scalar;
  readonly span: Span;
}

/** A function call; `name` may be dotted (`math.abs`). Unknown names are an analysis error. */
export interface ScalarCall {
  readonly kind: 'scalarCall';
  readonly name: string;
  readonly args: readonly Scalar[];
  readonly span: Span;
}

/** The scalar functions of D26 and how many arguments each takes (`max` null = any number ≥ min). */
export const scalarFunctions: Readonly<Record<string, { readonly min: number; readonly max: number | null }>> = {
  if: { min: 3, max: 3 },
  coalesce: { min: 1, max: null },
  'math.abs': { min: 1, max: 1 },
  'math.round': { min: 1, max: 1 },
  'math.floor': { min: 1, max: 1 },
  'math.ceil': { min: 1, max: 1 },
  lower: { min: 1, max: 1 },
  upper: { min: 1, max: 1 },
  len: { min: 1, max: 1 },
  concat: { min: 1, max: null },
};
