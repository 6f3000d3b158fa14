import type { ColumnName, Command, EvalAssignment, NumberValue, Rename } from '../ast.js';
import { closestName } from '../../core/index.js';
import { isAggregationFunction, parseAggregationCall, parseStats } from './parse-aggregation.js';
import { atListEnd, parseColumnList, parseColumnName } from './parse-column-name.js';
import { parseFilter } from './parse-filter.js';
import { parseLookup } from './parse-lookup.js';
import { checkExpressionEnd, parseScalarExpr } from './parse-scalar.js';
import { numberFromToken } from './parse-value.js';
import type { ParserState } from './parser-state.js';
import { isKeyword, isSymbol, type Token } from '../token.js';

const commandNames = [
  ...['count', 'groupbycount', 'countdistinct', 'stats', 'max', 'min', 'avg', 'sum', 'percentile', 'var'],
  ...['eval', 'where', 'table', 'rename', 'head', 'tail', 'lookup'],
];

/** Commands other query languages have, with what to write here instead. */
const missingCommands: Readonly<Record<string, string>> = {
  sort: 'there is no sort: groupbycount sorts by count, stats by its group values',
  order: 'there is no sort: groupbycount sorts by count, stats by its group values',
  dedup: 'to list distinct values write groupbycount(col) or stats by col',
  distinct: 'to list distinct values write groupbycount(col) or stats by col',
  uniq: 'to list distinct values write groupbycount(col) or stats by col',
  top: 'for the most frequent values write groupbycount(col) | head n',
  limit: 'to keep the first rows write head n',
  take: 'to keep the first rows write head n',
  fields: 'to keep some columns write table(a, b)',
  project: 'to keep some columns write table(a, b)',
  select: 'to keep some columns write table(a, b)',
  search: "write the filter before the first '|', or use where",
  filter: 'to filter rows write where',
};

/** Reads `| command | command ...` to the end of the text; a bad stage is reported and skipped. */
export function parsePipeline(state: ParserState): Command[] {
  const commands: Command[] = [];
  while (state.eat('|')) {
    const command = parseCommand(state);
    if (command) {
      commands.push(command);
      const next = state.peek();
      const name = command.kind === 'aggregate' ? command.call.fn : command.kind;
      if (!state.atStageEnd()) state.error(`unexpected '${next.text}' after ${name}`, next.span, "start the next command with '|'");
    }
    // A command that failed was reported where it failed; the rest of its stage is noise.
    state.skipToStageEnd();
  }
  return commands;
}

function parseCommand(state: ParserState): Command | null {
  const name = state.peek();
  if (name.kind !== 'word') {
    if (name.kind === 'eof') state.errorAtNext("expected a command after '|'", "remove the trailing '|'");
    else if (isSymbol(name, '|')) state.errorAtNext("expected a command after '|'", "remove one '|'");
    else if (name.kind !== 'invalid') state.errorAtNext("expected a command after '|'", `the commands are ${commandNames.join(', ')}`);
    return null;
  }
  state.next();
  const start = name.span.start.offset;
  switch (name.text) {
    case 'stats':
      return parseStats(state, name);
    case 'groupbycount': {
      const columns = parseColumns(state, 'groupbycount');
      return columns && { kind: 'groupbycount', columns, span: state.spanFrom(start) };
    }
    case 'eval':
      return parseEval(state, name);
    case 'lookup':
      return parseLookup(state, name);
    case 'where': {
      if (state.atStageEnd()) {
        state.errorAtNext("expected a filter after 'where'", 'write where col > 5');
        return null;
      }
      const filter = parseFilter(state, { inWhere: true });
      return filter && { kind: 'where', filter, span: state.spanFrom(start) };
    }
    case 'table': {
      const columns = parseColumns(state, 'table');
      return columns && { kind: 'table', columns, span: state.spanFrom(start) };
    }
    case 'rename': {
      const renames = parseArguments(state, 'rename', parseRenames);
      return renames && { kind: 'rename', renames, span: state.spanFrom(start) };
    }
    case 'head':
    case 'tail': {
      const count = parseRowCount(state, name.text);
      return count === undefined ? null : { kind: name.text, count, span: state.spanFrom(start) };
    }
    default: {
      if (!isAggregationFunction(name.text)) return reportUnknownCommand(state, name);
      const call = parseAggregationCall(state, name, name.text, true);
      return call && { kind: 'aggregate', call, span: state.spanFrom(start) };
    }
  }
}

function reportUnknownCommand(state: ParserState, name: Token): null {
  const lower = name.text.toLowerCase();
  const known = commandNames.includes(lower) ? `commands are written in lower case: ${lower}` : undefined;
  const missing = missingCommands[lower];
  const closest = closestName(name.text, commandNames);
  const hint = known ?? missing ?? `${closest ? `did you mean ${closest}? ` : ''}the commands are ${commandNames.join(', ')}`;
  state.error(`unknown command '${name.text}'`, name.span, hint);
  return null;
}

/**
 * Runs `inner` on the arguments, in parentheses or up to the end of the stage (D20), and checks
 * that nothing follows them. Returns null after reporting a problem.
 */
function parseArguments<T>(state: ParserState, command: string, inner: (state: ParserState) => T | null): T | null {
  const open = state.peek();
  const parenthesized = state.eat('(');
  const result = inner(state);
  if (result === null) return null;
  if (parenthesized && !state.eat(')')) {
    if (atListEnd(state)) state.error("'(' is never closed", open.span, "add the matching ')'");
    else state.errorAtNext("expected ',' or ')'", "separate the arguments with ','");
    return null;
  }
  if (!state.atStageEnd()) {
    const list = !parenthesized && command !== 'head' && command !== 'tail';
    const hint = list ? "separate the arguments with ','" : "start the next command with '|'";
    state.errorAtNext(`expected ${list ? "',' or '|'" : "'|'"} after the arguments of ${command}`, hint);
    return null;
  }
  return result;
}

function parseColumns(state: ParserState, command: string): ColumnName[] | null {
  return parseArguments(state, command, (s) => parseColumnList(s, 'pipeline', `in ${command}`));
}

function parseRenames(state: ParserState): Rename[] | null {
  const renames: Rename[] = [];
  do {
    const from = parseColumnName(state, 'pipeline', renames.length === 0 ? 'in rename' : "after ','");
    if (!from) return null;
    if (!isKeyword(state.peek(), 'as')) {
      state.errorAtNext("expected 'as' after the column to rename", 'write rename(old as new)');
      return null;
    }
    state.next();
    const to = parseColumnName(state, 'pipeline', "after 'as'");
    if (!to) return null;
    renames.push({ kind: 'renameItem', from, to, span: state.spanFrom(from.span.start.offset) });
  } while (state.eat(','));
  return renames;
}

function parseEval(state: ParserState, name: Token): Command | null {
  const assignments = parseArguments(state, 'eval', parseAssignments);
  return assignments && { kind: 'eval', assignments, span: state.spanFrom(name.span.start.offset) };
}

function parseAssignments(state: ParserState): EvalAssignment[] | null {
  const assignments: EvalAssignment[] = [];
  do {
    const column = parseColumnName(state, 'pipeline', assignments.length === 0 ? 'in eval' : "after ','");
    if (!column) return null;
    if (!state.eat('=')) {
      state.errorAtNext("expected '=' after the column name", 'write eval col = expression');
      return null;
    }
    const expr = parseScalarExpr(state);
    if (!expr || !checkExpressionEnd(state, [',', ')', '|'])) return null;
    assignments.push({ kind: 'assignment', column, expr, span: state.spanFrom(column.span.start.offset) });
  } while (state.eat(',', 'scalar'));
  return assignments;
}

/** `head [n]` / `tail [n]`: n is an integer from 1 to 10,000 (D25); undefined after a problem. */
function parseRowCount(state: ParserState, command: string): NumberValue | null | undefined {
  const count = parseArguments(state, command, (s): { value: NumberValue | null } | null => {
    if (atListEnd(s)) return { value: null };
    const token = s.peek();
    if (token.kind !== 'number') {
      s.errorAtNext(`expected a number of rows after ${command}`, `write ${command} 10`);
      return null;
    }
    const value = numberFromToken(s.next());
    if (!Number.isInteger(value.value) || value.value < 1 || value.value > 10_000) {
      s.error(`${command} takes a whole number of rows from 1 to 10000`, token.span, `write ${command} 10`);
    }
    return { value };
  });
  return count === null ? undefined : count.value;
}
