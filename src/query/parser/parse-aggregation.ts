import type { AggregationCall, AggregationFunction, ColumnName, NumberValue, StatsCommand, StatsItem } from '../ast.js';
import { atListEnd, isColumnToken, parseColumnList, parseColumnName } from './parse-column-name.js';
import { numberFromToken } from './parse-value.js';
import type { ParserState } from './parser-state.js';
import { isKeyword, type Token } from '../token.js';

export const aggregationFunctions: readonly AggregationFunction[] = ['count', 'countdistinct', 'max', 'min', 'avg', 'sum', 'percentile', 'var'];

export function isAggregationFunction(name: string): name is AggregationFunction {
  return (aggregationFunctions as readonly string[]).includes(name);
}

/**
 * Reads an aggregation call after its name: `fn(args)`, or `fn args` up to the end of the stage
 * when `parensOptional` (a standalone command, D20). Checks the arity: `count` takes nothing,
 * `countdistinct`, `max`, `min` one column or more, `avg`, `sum`, `var` exactly one, and
 * `percentile` a rank from 0 to 100 then one column. Returns null after reporting a problem.
 */
export function parseAggregationCall(state: ParserState, name: Token, fn: AggregationFunction, parensOptional: boolean): AggregationCall | null {
  const start = name.span.start.offset;
  const open = state.peek();
  const parenthesized = state.eat('(');
  if (!parenthesized && !parensOptional) {
    state.errorAtNext(`expected '(' after '${fn}'`, `write ${fn}(${fn === 'count' ? '' : 'col'})`);
    return null;
  }
  let rank: NumberValue | null = null;
  let args: ColumnName[] = [];
  if (fn === 'percentile') {
    rank = parseRank(state);
    if (!rank) return null;
    if (!state.eat(',')) {
      state.errorAtNext("expected ',' after the percentile rank", 'write percentile(99, col)');
      return null;
    }
  }
  if (!atListEnd(state) || fn === 'percentile') {
    const list = parseColumnList(state, 'pipeline', `in ${fn}`);
    if (!list) return null;
    args = list;
  }
  if (parenthesized && !state.eat(')')) {
    if (atListEnd(state)) state.error("'(' is never closed", open.span, "add the matching ')'");
    else state.errorAtNext("expected ',' or ')'", "separate columns with ','");
    return null;
  }
  if (!parenthesized && !state.atStageEnd()) {
    state.errorAtNext("expected ',' or '|'", "separate columns with ','");
    return null;
  }
  // A wrong number of arguments is reported but the call kept, so parsing carries on normally.
  const call: AggregationCall = { kind: 'call', fn, args, rank, span: state.spanFrom(start) };
  checkArity(state, call);
  return call;
}

function parseRank(state: ParserState): NumberValue | null {
  const token = state.peek();
  if (token.kind !== 'number') {
    state.errorAtNext('percentile needs a rank from 0 to 100 first', 'write percentile(99, col)');
    return null;
  }
  const rank = numberFromToken(state.next());
  if (rank.value < 0 || rank.value > 100) state.error('the percentile rank must be from 0 to 100', token.span, 'write percentile(99.9, col)');
  return rank;
}

function checkArity(state: ParserState, call: AggregationCall): boolean {
  const n = call.args.length;
  switch (call.fn) {
    case 'count':
      return n === 0 || fail(state, call, 'count takes no arguments', countHint);
    case 'countdistinct':
    case 'max':
    case 'min':
      return n >= 1 || fail(state, call, `${call.fn} needs at least one column`, `write ${call.fn}(col)`);
    case 'avg':
    case 'sum':
    case 'var':
      if (n === 1) return true;
      return fail(state, call, `${call.fn} takes exactly one column`, n === 0 ? `write ${call.fn}(col)` : `for several columns write stats ${separately(call)}`);
    case 'percentile':
      return n === 1 || fail(state, call, 'percentile takes a rank and exactly one column', 'write percentile(99, col)');
  }
}

const countHint = 'count distinct values with countdistinct(col), or per value with groupbycount(col)';

/** `avg(c1), avg(c2)`: what to write instead of `avg(c1, c2)`. */
function separately(call: AggregationCall): string {
  return call.args.map((_, i) => `${call.fn}(c${i + 1})`).join(', ');
}

function fail(state: ParserState, call: AggregationCall, message: string, hint: string): false {
  state.error(message, call.span, hint);
  return false;
}

/**
 * `stats [item, ...] [by col, ...]`, also written `stats(items) by cols`. An item is an
 * aggregation call, which needs its parentheses here, with an optional `as` alias, or a bare
 * column that names a group column (a bare aggregation name would be ambiguous, so it is refused).
 */
export function parseStats(state: ParserState, name: Token): StatsCommand | null {
  const start = name.span.start.offset;
  const open = state.peek();
  const parenthesized = state.eat('(');
  let items: StatsItem[] = [];
  let by: ColumnName[] = [];
  if (!atListEnd(state) && !isKeyword(state.peek(), 'by')) {
    const list = parseStatsItems(state);
    if (!list) return null;
    items = list;
  }
  if (isKeyword(state.peek(), 'by')) {
    const list = parseBy(state);
    if (!list) return null;
    by = list;
  }
  if (parenthesized) {
    if (!state.eat(')')) {
      state.error("'(' is never closed", open.span, "add the matching ')'");
      return null;
    }
    if (by.length === 0 && isKeyword(state.peek(), 'by')) {
      const list = parseBy(state);
      if (!list) return null;
      by = list;
    }
  }
  if (!state.atStageEnd()) {
    state.errorAtNext("expected ',', 'by' or '|'", "separate stats items with ','");
    return null;
  }
  return { kind: 'stats', items, by, span: state.spanFrom(start) };
}

function parseBy(state: ParserState): ColumnName[] | null {
  state.next();
  return parseColumnList(state, 'pipeline', "after 'by'");
}

function parseStatsItems(state: ParserState): StatsItem[] | null {
  const items: StatsItem[] = [];
  for (;;) {
    const item = parseStatsItem(state);
    if (!item) return null;
    items.push(item);
    if (!state.eat(',')) return items;
  }
}

function parseStatsItem(state: ParserState): StatsItem | null {
  const token = state.peek();
  const start = token.span.start.offset;
  const calls = token.kind === 'word' && isAggregationFunction(token.text);
  if (token.kind === 'word' && (calls || state.peekSecond().text === '(') && isColumnToken(token, 'pipeline')) {
    state.next();
    if (!calls) {
      state.error(`unknown aggregation '${token.text}'`, token.span, `stats takes ${aggregationFunctions.map((f) => `${f}()`).join(', ')}`);
      return null;
    }
    const call = parseAggregationCall(state, token, token.text as AggregationFunction, false);
    if (!call) return null;
    let alias: ColumnName | null = null;
    if (isKeyword(state.peek(), 'as')) {
      state.next();
      alias = parseColumnName(state, 'pipeline', "after 'as'");
      if (!alias) return null;
    }
    return { kind: 'statsAggregation', call, alias, span: state.spanFrom(start) };
  }
  const column = parseColumnName(state, 'pipeline', 'in stats');
  if (!column) return null;
  if (isKeyword(state.peek(), 'as')) {
    state.errorAtNext('a group column takes no alias', 'rename it after stats: | rename(a as b)');
    return null;
  }
  return { kind: 'statsGroupColumn', column, span: state.spanFrom(start) };
}
