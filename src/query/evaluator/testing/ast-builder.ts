/**
 * Terse builders of query syntax trees for the evaluator's tests, with dummy spans. In builder
 * text `*` is a wildcard and `\*` a literal asterisk, as in the language.
 */
import type { Span } from '../../../core/index.js';
import type {
  AggregationCall,
  AggregationFunction,
  ColumnName,
  Command,
  CompareOperator,
  Filter,
  IndexTarget,
  MatchOperator,
  NamePart,
  NumberValue,
  Query,
  Scalar,
  ScalarBinaryOperator,
  StatsItem,
  StringQuote,
  StringValue,
  Value,
  ValueExpr,
} from '../../ast.js';

const position = { line: 1, column: 1, offset: 0 };
export const span: Span = { start: position, end: position };

/** A query; no filter means `*` (every event). */
export function query(filter: Filter = text('*'), ...pipeline: Command[]): Query {
  return { kind: 'query', filter, pipeline, span };
}

// --- values -----------------------------------------------------------------------------------

function splitWildcards(written: string): string[] {
  const segments = [''];
  for (let i = 0; i < written.length; i++) {
    const c = written[i] ?? '';
    if (c === '\\' && written[i + 1] === '*') {
      segments[segments.length - 1] += '*';
      i++;
    } else if (c === '*') segments.push('');
    else segments[segments.length - 1] += c;
  }
  return segments;
}

export function str(written: string, quote: StringQuote): StringValue {
  return { kind: 'string', quote, segments: splitWildcards(written), span };
}
export const bare = (written: string): StringValue => str(written, 'bare');
export const single = (written: string): StringValue => str(written, 'single');
export const double = (written: string): StringValue => str(written, 'double');

export function num(written: string | number): NumberValue {
  const t = String(written);
  return { kind: 'number', text: t, value: Number(t), span };
}

/** A string is a bare term, a number a number literal. */
function toValue(v: Value | string | number): Value {
  return typeof v === 'string' ? bare(v) : typeof v === 'number' ? num(v) : v;
}

export const vand = (...operands: Array<ValueExpr | string | number>): ValueExpr => ({
  kind: 'valueAnd',
  operands: operands.map(toValueExpr),
  span,
});
export const vor = (...operands: Array<ValueExpr | string | number>): ValueExpr => ({
  kind: 'valueOr',
  operands: operands.map(toValueExpr),
  span,
});
export const vnot = (operand: ValueExpr | string | number): ValueExpr => ({
  kind: 'valueNot',
  operand: toValueExpr(operand),
  span,
});
function toValueExpr(v: ValueExpr | string | number): ValueExpr {
  return typeof v === 'string' || typeof v === 'number' ? toValue(v) : v;
}

/** A column name: `*` a star, `**` a globstar, `\*` a literal asterisk. */
export function col(written: string): ColumnName {
  const parts: NamePart[] = [];
  const pieces = splitWildcards(written);
  pieces.forEach((piece, i) => {
    if (i > 0) {
      // Two stars with nothing between them are one globstar.
      if (pieces[i - 1] === '' && i >= 2 && parts[parts.length - 1]?.kind === 'star') parts[parts.length - 1] = { kind: 'globstar' };
      else parts.push({ kind: 'star' });
    }
    if (piece !== '') parts.push({ kind: 'text', text: piece });
  });
  return { kind: 'column', quote: 'bare', parts, span };
}

// --- filters ----------------------------------------------------------------------------------

export const text = (v: Value | string | number): Filter => ({ kind: 'text', value: toValue(v), span });
export const match = (column: string, op: MatchOperator, value: ValueExpr | string | number): Filter => ({
  kind: 'match',
  column: col(column),
  op,
  value: toValueExpr(value),
  span,
});
export const compare = (column: string, op: CompareOperator, value: Value | string | number): Filter => ({
  kind: 'compare',
  column: col(column),
  op,
  value: toValue(value),
  span,
});
export const and = (...operands: Filter[]): Filter => ({ kind: 'and', operands, span });
export const or = (...operands: Filter[]): Filter => ({ kind: 'or', operands, span });
export const not = (operand: Filter): Filter => ({ kind: 'not', operand, span });

/** `@index=…`: a string is a name; `{ id, name }` the braced form. */
export function index(...targets: Array<string | { id?: string; name?: string }>): Filter {
  const list: IndexTarget[] = targets.map((t) =>
    typeof t === 'string' ? { kind: 'indexTarget', name: t, id: null, span } : { kind: 'indexTarget', name: t.name ?? null, id: t.id ?? null, span },
  );
  return { kind: 'index', targets: list, span };
}

// --- commands ---------------------------------------------------------------------------------

export function call(fn: AggregationFunction, ...args: string[]): AggregationCall {
  if (fn === 'percentile') {
    const [rank = '50', ...columns] = args;
    return { kind: 'call', fn, args: columns.map(col), rank: num(rank), span };
  }
  return { kind: 'call', fn, args: args.map(col), rank: null, span };
}
export const aggregate = (fn: AggregationFunction, ...args: string[]): Command => ({
  kind: 'aggregate',
  call: call(fn, ...args),
  span,
});
export const groupbycount = (...columns: string[]): Command => ({ kind: 'groupbycount', columns: columns.map(col), span });
export const item = (c: AggregationCall, alias?: string): StatsItem => ({
  kind: 'statsAggregation',
  call: c,
  alias: alias === undefined ? null : col(alias),
  span,
});
export const groupItem = (column: string): StatsItem => ({ kind: 'statsGroupColumn', column: col(column), span });
export const stats = (items: StatsItem[], by: string[] = []): Command => ({ kind: 'stats', items, by: by.map(col), span });
export const evalCommand = (...assignments: Array<[string, Scalar]>): Command => ({
  kind: 'eval',
  assignments: assignments.map(([name, expr]) => ({ kind: 'assignment', column: col(name), expr, span })),
  span,
});
export const where = (filter: Filter): Command => ({ kind: 'where', filter, span });
export const table = (...columns: string[]): Command => ({ kind: 'table', columns: columns.map(col), span });
export const rename = (...pairs: Array<[string, string]>): Command => ({
  kind: 'rename',
  renames: pairs.map(([from, to]) => ({ kind: 'renameItem', from: col(from), to: col(to), span })),
  span,
});
export const head = (n?: number): Command => ({ kind: 'head', count: n === undefined ? null : num(n), span });
export const tail = (n?: number): Command => ({ kind: 'tail', count: n === undefined ? null : num(n), span });

// --- scalars ----------------------------------------------------------------------------------

export const lit = (value: number | string | boolean | null): Scalar => ({
  kind: 'literal',
  value,
  text: typeof value === 'number' ? String(value) : null,
  span,
});
export const ref = (name: string): Scalar => ({ kind: 'columnRef', column: col(name), span });
export const neg = (operand: Scalar): Scalar => ({ kind: 'unary', op: '-', operand, span });
export const snot = (operand: Scalar): Scalar => ({ kind: 'unary', op: 'not', operand, span });
export const bin = (left: Scalar, op: ScalarBinaryOperator, right: Scalar): Scalar => ({
  kind: 'binary',
  op,
  left,
  right,
  span,
});
export const fn = (name: string, ...args: Scalar[]): Scalar => ({ kind: 'scalarCall', name, args, span });
