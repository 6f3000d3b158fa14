/**
 * Follows the table through the pipeline and reports references to columns a stage does not
 * have. Straight after the filter the table holds raw events, whose columns are open-ended, so
 * only later stages (after an aggregation or `table`) are checked strictly.
 */
import { assertNever, ErrorCodes, errorDiagnostic, type Diagnostic } from '../../core/index.js';
import type { AggregationCall, ColumnName, Command, LookupCommand, Query, Scalar } from '../ast.js';
import { outputColumns, statsColumnName } from '../output-columns.js';
import { columnNameMatcher, isEveryColumn, plainColumnName } from '../column-names.js';
import { forEachFilterColumn } from './filter-columns.js';

/** The count column groupbycount and stats always give (D21). */
const countColumn = '@q.count';

type Shape = { readonly kind: 'events' } | { readonly kind: 'table'; readonly columns: readonly string[]; readonly after: string };

/**
 * Checks every stage; `expandRaw` is told about wildcard names used while the table holds events.
 * `lookupColumns` gives the columns of each lookup command's table (checkLookups resolved them).
 */
export function checkPipeline(query: Query, expandRaw: (column: ColumnName) => void, lookupColumns: (command: LookupCommand) => readonly string[] = () => []): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  let shape = { kind: 'events' } as Shape;
  const report = (message: string, column: ColumnName | AggregationCall | Scalar): void => {
    diagnostics.push(errorDiagnostic(ErrorCodes.queryAnalysis, message, { span: column.span }));
  };
  const need = (column: ColumnName): void => {
    if (shape.kind === 'events') {
      expandRaw(column);
      return;
    }
    const { columns, after } = shape;
    const name = plainColumnName(column);
    if (name === null) {
      if (!isEveryColumn(column) && !columns.some(columnNameMatcher(column))) {
        report(`no column matches '${describe(column)}' after '${after}' (columns: ${columns.join(', ')})`, column);
      }
      return;
    }
    if (!columns.includes(name)) report(`column '${name}' does not exist after '${after}' (columns: ${columns.join(', ')})`, column);
  };
  const plain = (column: ColumnName, role: string): string | null => {
    const name = plainColumnName(column);
    if (name === null) report(`${role} cannot be a wildcard name: '${describe(column)}'`, column);
    return name;
  };

  // Grouping columns and aggregation arguments name one column each: no wildcards.
  const needOne =
    (role: string) =>
    (column: ColumnName): void => {
      if (plain(column, role) !== null) need(column);
    };

  for (const command of query.pipeline) {
    const columnsBefore = shape.kind === 'table' ? shape.columns : null;
    switch (command.kind) {
      case 'aggregate':
        checkCall(command.call, needOne('an aggregation argument'), report, false);
        break;
      case 'groupbycount':
        command.columns.forEach(needOne('a grouping column'));
        for (const column of command.columns) {
          if (plainColumnName(column) === countColumn) report(`grouping by '${countColumn}' would give the groups and their counts one name; rename it first`, column);
        }
        break;
      case 'stats': {
        command.by.forEach(needOne('a grouping column'));
        const by = command.by.map(plainColumnName);
        // Each output column holds one thing (D21): a name given twice would lose a value.
        const named = new Map<string, string>(by.flatMap((name) => (name === null ? [] : [[name, 'a by column'] as const])));
        named.set(countColumn, 'the count stats always gives');
        for (const item of command.items) {
          if (item.kind === 'statsAggregation') {
            checkCall(item.call, needOne('an aggregation argument'), report, true);
            if (item.alias !== null) plain(item.alias, 'an alias');
            const name = statsColumnName(item);
            const taken = named.get(name);
            // the same call twice without an alias gives the same value under the same name
            if (taken !== undefined && !(item.alias === null && taken === name)) {
              report(`stats would name two columns '${name}' (it is already ${taken === name ? 'an aggregation' : taken}); give this one another alias`, item.alias ?? item.call);
            }
            named.set(name, item.alias === null ? name : 'an alias');
          } else if (!by.includes(plainColumnName(item.column))) {
            report(`'${describe(item.column)}' is not an aggregation; a bare column in stats must be one of its 'by' columns`, item.column);
          }
        }
        break;
      }
      case 'eval':
        for (const assignment of command.assignments) {
          forEachScalarColumn(assignment.expr, need);
          const name = plain(assignment.column, 'an eval target');
          // later assignments of the same eval may use this column
          const current: Shape = shape;
          if (name !== null && current.kind === 'table' && !current.columns.includes(name)) {
            shape = { kind: 'table', columns: [...current.columns, name], after: current.after };
          }
        }
        break;
      case 'where':
        if (shape.kind === 'table') {
          const { after } = shape;
          visitIndexFilters(command, (span) =>
            diagnostics.push(errorDiagnostic(ErrorCodes.queryAnalysis, `@index selects events, but after '${after}' the table holds no events`, { span })),
          );
        }
        forEachFilterColumn(command.filter, need);
        break;
      case 'table':
        command.columns.forEach((column) => plain(column, 'a table column'));
        break;
      case 'rename':
        for (const rename of command.renames) {
          need(rename.from);
          plain(rename.from, 'a renamed column');
          plain(rename.to, 'a new column name');
        }
        break;
      case 'head':
      case 'tail':
        break;
      case 'lookup': {
        const field = command.field ?? command.key;
        if (plain(field, 'the column a lookup matches') !== null) need(field);
        break;
      }
      default:
        assertNever(command);
    }
    const produced = outputColumns(command, columnsBefore, lookupColumns);
    if (produced !== null) shape = { kind: 'table', columns: produced, after: commandName(command) };
  }
  return diagnostics;
}

function checkCall(call: AggregationCall, need: (column: ColumnName) => void, report: (message: string, node: AggregationCall) => void, insideStats: boolean): void {
  call.args.forEach(need);
  if (insideStats && (call.fn === 'max' || call.fn === 'min') && call.args.length > 1) {
    report(`${call.fn} inside stats takes one column; for a tuple use the ${call.fn} command`, call);
  }
}

function forEachScalarColumn(expr: Scalar, visit: (column: ColumnName) => void): void {
  switch (expr.kind) {
    case 'literal':
      return;
    case 'columnRef':
      visit(expr.column);
      return;
    case 'unary':
      forEachScalarColumn(expr.operand, visit);
      return;
    case 'binary':
      forEachScalarColumn(expr.left, visit);
      forEachScalarColumn(expr.right, visit);
      return;
    case 'scalarCall':
      for (const arg of expr.args) forEachScalarColumn(arg, visit);
      return;
    default:
      assertNever(expr);
  }
}

function visitIndexFilters(command: { filter: import('../ast.js').Filter }, found: (span: import('../../core/index.js').Span) => void): void {
  const walk = (filter: import('../ast.js').Filter): void => {
    if (filter.kind === 'index') found(filter.span);
    else if (filter.kind === 'and' || filter.kind === 'or') filter.operands.forEach(walk);
    else if (filter.kind === 'not') walk(filter.operand);
  };
  walk(command.filter);
}

function commandName(command: Command): string {
  return command.kind === 'aggregate' ? command.call.fn : command.kind;
}

function describe(column: ColumnName): string {
  return column.parts.map((part) => (part.kind === 'text' ? part.text : part.kind === 'star' ? '*' : '**')).join('');
}
