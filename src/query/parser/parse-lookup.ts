/**
 * `lookup TABLE KEY [as FIELD] [output COL [as NAME], ...]`, with or without parentheses around
 * the arguments (D20). `output` is a keyword only where this command expects it: a column of that
 * name is written in backticks there.
 */
import type { ColumnName, Command, LookupOutput, LookupTableRef } from '../ast.js';
import { parseColumnName } from './parse-column-name.js';
import type { ParserState } from './parser-state.js';
import { isKeyword, type Token } from '../token.js';

const usage = 'write lookup TABLE KEY [as FIELD] [output COL [as NAME], ...]';

export function parseLookup(state: ParserState, name: Token): Command | null {
  const open = state.peek();
  const parenthesized = state.eat('(');
  const table = parseTableRef(state);
  if (!table) return null;
  const key = parseColumnName(state, 'pipeline', 'after the lookup table: the column of the table to match');
  if (!key) return null;
  let field: ColumnName | null = null;
  if (isKeyword(state.peek(), 'as')) {
    state.next();
    field = parseColumnName(state, 'pipeline', "after 'as': the column of the rows to match");
    if (!field) return null;
  }
  let outputs: LookupOutput[] | null = null;
  if (isKeyword(state.peek(), 'output')) {
    state.next();
    outputs = parseOutputs(state);
    if (!outputs) return null;
  }
  if (parenthesized && !state.eat(')')) {
    if (state.atStageEnd()) state.error("'(' is never closed", open.span, "add the matching ')'");
    else state.errorAtNext(`expected ')' after the arguments of lookup`, usage);
    return null;
  }
  if (!state.atStageEnd()) {
    state.errorAtNext(`expected 'as', 'output' or '|' after the arguments of lookup`, usage);
    return null;
  }
  return { kind: 'lookup', table, key, field, outputs, span: state.spanFrom(name.span.start.offset) };
}

function parseTableRef(state: ParserState): LookupTableRef | null {
  const token = state.peek();
  const quoted = token.kind === 'single' || token.kind === 'double';
  if ((token.kind === 'word' || quoted) && token.segments.length === 1 && token.segments[0] !== '') {
    state.next();
    return { kind: 'lookupTable', name: token.segments[0] as string, span: token.span };
  }
  state.errorAtNext("expected the name of a lookup table after 'lookup'", usage);
  return null;
}

function parseOutputs(state: ParserState): LookupOutput[] | null {
  const outputs: LookupOutput[] = [];
  do {
    const column = parseColumnName(state, 'pipeline', outputs.length === 0 ? "after 'output'" : "after ','");
    if (!column) return null;
    let alias: ColumnName | null = null;
    if (isKeyword(state.peek(), 'as')) {
      state.next();
      alias = parseColumnName(state, 'pipeline', "after 'as'");
      if (!alias) return null;
    }
    outputs.push({ kind: 'lookupOutput', column, alias, span: state.spanFrom(column.span.start.offset) });
  } while (state.eat(','));
  return outputs;
}
