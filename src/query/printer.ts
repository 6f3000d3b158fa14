import { assertNever } from '../core/index.js';
import type { AggregationCall, ColumnName, Command, Filter, IndexTarget, Query, Scalar, StatsItem, ValueExpr } from './ast.js';
import { canPrintBareName, printColumn, printDoubleQuoted, printPlainText, printScalarString, printValue, type NameContext } from './print-literal.js';

/**
 * Canonical query text: one line, single spaces, explicit `and` / `or`, parentheses only where
 * precedence needs them, `col: v` / `col = v`, commands as `groupbycount(a, b)`, `head 5`,
 * `stats count() as n by a`. Quoting is kept as written (a double-quoted term stays
 * case-sensitive, a backtick name stays in backticks), so `parseQuery(printQuery(q))` gives `q`
 * back for every tree the parser can produce.
 */
export function printQuery(query: Query): string {
  return [printFilter(query.filter), ...query.pipeline.map(printCommand)].join(' | ');
}

/** Canonical text of a filter (see `printQuery`). */
export function printFilter(filter: Filter): string {
  return filterText(filter, 'filter');
}

/** Canonical text of a scalar expression, with the fewest parentheses that keep its shape. */
export function printScalar(scalar: Scalar): string {
  return scalarText(scalar).text;
}

/**
 * The canonical text of an aggregation call, `max(elapsed_ms)`, `percentile(99.9, x)`,
 * `count()`: the default name of a `stats` column (D21). Names print bare whenever they can,
 * however they were written, so the column's name does not depend on quoting.
 */
export function printAggregationCall(call: AggregationCall): string {
  return callText(call, (c) => printColumnName(c));
}

/** A column name as query text: bare when it can be (in any command), else in backticks (D6). */
export function printColumnName(column: ColumnName): string {
  return printColumn({ ...column, quote: 'bare' }, 'pipeline');
}

/**
 * A column name as text that reads back as the same column in a filter, `where` and any command
 * alike: bare when it can be in each, else in backticks. For names a query is built around.
 */
export function printColumnAnywhere(column: ColumnName): string {
  const bare = (['filter', 'pipeline', 'statsItem'] as const).every((context) => canPrintBareName(column.parts, context));
  return printColumn({ ...column, quote: bare ? 'bare' : 'backtick' }, 'filter');
}

function callText(call: AggregationCall, column: (c: ColumnName) => string): string {
  const args = call.args.map(column);
  if (call.rank) args.unshift(call.rank.text);
  return `${call.fn}(${args.join(', ')})`;
}

/** Binding strength: a child binds looser than its parent needs parentheses. */
const filterPrecedence = { or: 1, and: 2, not: 3, atom: 4 } as const;

function filterLevel(filter: Filter): number {
  return filter.kind === 'or' || filter.kind === 'and' || filter.kind === 'not' ? filterPrecedence[filter.kind] : filterPrecedence.atom;
}

function filterText(filter: Filter, context: NameContext): string {
  const child = (f: Filter, min: number): string => (filterLevel(f) < min ? `(${filterText(f, context)})` : filterText(f, context));
  switch (filter.kind) {
    case 'or':
      return filter.operands.map((f) => child(f, filterPrecedence.and)).join(' or ');
    case 'and':
      return filter.operands.map((f) => child(f, filterPrecedence.not)).join(' and ');
    case 'not':
      return `not ${child(filter.operand, filterPrecedence.not)}`;
    case 'text':
      return printValue(filter.value);
    case 'match': {
      const column = printColumn(filter.column, context);
      const value = filter.value.kind === 'string' || filter.value.kind === 'number' ? printValue(filter.value) : `(${valueText(filter.value)})`;
      return filter.op === ':' ? `${column}: ${value}` : `${column} = ${value}`;
    }
    case 'compare':
      return `${printColumn(filter.column, context)} ${filter.op} ${printValue(filter.value)}`;
    case 'index': {
      const targets = filter.targets.map(indexTargetText);
      return `@index=${targets.length === 1 ? (targets[0] ?? '') : `(${targets.join(' or ')})`}`;
    }
    default:
      return assertNever(filter, 'filter');
  }
}

function indexTargetText(target: IndexTarget): string {
  if (target.id === null) return printPlainText(target.name ?? '');
  const id = target.id.replaceAll('*', '\\*');
  return target.name === null ? `{${id}}` : `{${id} | ${printDoubleQuoted(target.name)}}`;
}

function valueLevel(value: ValueExpr): number {
  switch (value.kind) {
    case 'valueOr':
      return filterPrecedence.or;
    case 'valueAnd':
      return filterPrecedence.and;
    case 'valueNot':
      return filterPrecedence.not;
    default:
      return filterPrecedence.atom;
  }
}

function valueText(value: ValueExpr): string {
  const child = (v: ValueExpr, min: number): string => (valueLevel(v) < min ? `(${valueText(v)})` : valueText(v));
  switch (value.kind) {
    case 'valueOr':
      return value.operands.map((v) => child(v, filterPrecedence.and)).join(' or ');
    case 'valueAnd':
      return value.operands.map((v) => child(v, filterPrecedence.not)).join(' and ');
    case 'valueNot':
      return `not ${child(value.operand, filterPrecedence.not)}`;
    case 'string':
    case 'number':
      return printValue(value);
    default:
      return assertNever(value, 'value');
  }
}

function printCommand(command: Command): string {
  const columns = (list: readonly ColumnName[]): string => list.map((c) => printColumn(c, 'pipeline')).join(', ');
  switch (command.kind) {
    case 'aggregate': {
      const call = command.call;
      return call.fn === 'count' && call.args.length === 0 ? 'count' : callText(call, (c) => printColumn(c, 'pipeline'));
    }
    case 'groupbycount':
      return `groupbycount(${columns(command.columns)})`;
    case 'stats': {
      const items = command.items.map(statsItemText).join(', ');
      const by = command.by.length > 0 ? `by ${columns(command.by)}` : '';
      return ['stats', items, by].filter((s) => s !== '').join(' ');
    }
    case 'eval':
      return `eval ${command.assignments.map((a) => `${printColumn(a.column, 'pipeline')} = ${printScalar(a.expr)}`).join(', ')}`;
    case 'where':
      return `where ${filterText(command.filter, 'filter')}`;
    case 'table':
      return `table(${columns(command.columns)})`;
    case 'rename':
      return `rename(${command.renames.map((r) => `${printColumn(r.from, 'pipeline')} as ${printColumn(r.to, 'pipeline')}`).join(', ')})`;
    case 'head':
    case 'tail':
      return command.count ? `${command.kind} ${command.count.text}` : command.kind;
    default:
      return assertNever(command, 'command');
  }
}

function statsItemText(item: StatsItem): string {
  switch (item.kind) {
    case 'statsAggregation': {
      const call = callText(item.call, (c) => printColumn(c, 'pipeline'));
      return item.alias ? `${call} as ${printColumn(item.alias, 'pipeline')}` : call;
    }
    case 'statsGroupColumn':
      return printColumn(item.column, 'statsItem');
    default:
      return assertNever(item, 'stats item');
  }
}

/** Scalar binding strength, loosest first (D26); unary operators bind tighter than all binaries. */
const scalarPrecedence: Readonly<Record<string, number>> = {
  or: 1,
  and: 2,
  '==': 3,
  '!=': 3,
  '<': 3,
  '<=': 3,
  '>': 3,
  '>=': 3,
  '+': 4,
  '-': 4,
  '*': 5,
  '/': 5,
};
const unaryLevel = 6;
const atomLevel = 7;

function scalarText(scalar: Scalar): { text: string; level: number } {
  switch (scalar.kind) {
    case 'literal':
      return { text: literalText(scalar.value, scalar.text), level: atomLevel };
    case 'columnRef':
      return { text: printColumn(scalar.column, 'scalar'), level: atomLevel };
    case 'unary': {
      const operand = scalarText(scalar.operand);
      // `-1` would read back as a negative literal, so a negated number keeps its parentheses.
      const isNumber = scalar.operand.kind === 'literal' && typeof scalar.operand.value === 'number' && !operand.text.startsWith('-');
      const wrapped = operand.level < unaryLevel || (scalar.op === '-' && isNumber) ? `(${operand.text})` : operand.text;
      return { text: scalar.op === '-' ? `-${wrapped}` : `not ${wrapped}`, level: unaryLevel };
    }
    case 'binary': {
      const level = scalarPrecedence[scalar.op] ?? atomLevel;
      const left = scalarText(scalar.left);
      const right = scalarText(scalar.right);
      const leftText = left.level < level ? `(${left.text})` : left.text;
      const rightText = right.level <= level ? `(${right.text})` : right.text;
      return { text: `${leftText} ${scalar.op} ${rightText}`, level };
    }
    case 'scalarCall':
      return { text: `${scalar.name}(${scalar.args.map(printScalar).join(', ')})`, level: atomLevel };
    default:
      return assertNever(scalar, 'scalar');
  }
}

function literalText(value: string | number | boolean | null, text: string | null): string {
  if (typeof value === 'number') return text ?? String(value);
  if (typeof value === 'string') return printScalarString(value);
  return value === null ? 'null' : String(value);
}
