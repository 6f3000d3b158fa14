/** The commands that keep the table's rows as rows: eval, where, table, rename, head, tail. */
import { assertNever, QueryAnalysisError } from '../../core/index.js';
import type { EvalCommand, HeadCommand, RenameCommand, TableCommand, TailCommand, WhereCommand } from '../ast.js';
import { cellOf, cellOrNull, newRow, type Row } from './eval-table.js';
import { evaluateFilter } from './evaluate-filter.js';
import { evaluateScalar, toTableValue } from './evaluate-scalar.js';
import { distinctColumns, type PipelineTable } from './pipeline-table.js';
import { plainColumnName } from './resolve-column-name.js';

export type RowCommand = EvalCommand | WhereCommand | TableCommand | RenameCommand | HeadCommand | TailCommand;

/** Runs a row command. A raw-event table stays raw (its columns follow its rows) except after `table`. */
export function evaluateRowCommand(command: RowCommand, table: PipelineTable): PipelineTable {
  switch (command.kind) {
    case 'eval':
      return command.assignments.reduce((t, assignment) => {
        const name = plainColumnName(assignment.column, 'eval');
        // Assignments apply left to right, so a later one sees the columns of earlier ones.
        const rows = t.rows.map((row) => withCell(row, name, toTableValue(evaluateScalar(assignment.expr, row))));
        return { ...t, rows, columns: t.columns && (t.columns.includes(name) ? t.columns : [...t.columns, name]) };
      }, table);
    case 'where': {
      const searchColumns = table.aggregated ? 'allColumns' : 'userColumns';
      return { ...table, rows: table.rows.filter((row) => evaluateFilter(command.filter, row, { searchColumns })) };
    }
    case 'table': {
      const columns = distinctColumns(command.columns.map((c) => plainColumnName(c, 'table')));
      const rows = table.rows.map((row) => newRow(columns.map((name) => [name, cellOrNull(row, name)] as const)));
      return { ...table, columns, rows };
    }
    case 'rename':
      // Renames apply left to right: `rename(a as b, b as c)` ends with `c` holding a's values.
      return command.renames.reduce((t, item) => {
        const from = plainColumnName(item.from, 'rename');
        const to = plainColumnName(item.to, 'rename');
        return { ...t, rows: t.rows.map((row) => renameCell(row, from, to)), columns: t.columns && renameColumn(t.columns, from, to) };
      }, table);
    case 'head':
      return { ...table, rows: table.rows.slice(0, rowLimit(command)) };
    case 'tail': {
      const n = rowLimit(command);
      return { ...table, rows: table.rows.slice(Math.max(0, table.rows.length - n)) };
    }
    default:
      return assertNever(command, 'row command');
  }
}

/** A copy of the row with `name` set: in place when present, else appended. */
export function withCell(row: Row, name: string, value: Row[string]): Row {
  const copy = newRow(Object.entries(row));
  copy[name] = value ?? null;
  return copy;
}

/**
 * `from` renamed to `to` in one row, taking from's place and replacing any `to`. A row without
 * `from` gets `to` = null (in to's place if it had one, else appended).
 */
function renameCell(row: Row, from: string, to: string): Row {
  const value = cellOf(row, from);
  if (value === undefined) return withCell(row, to, null);
  return newRow(
    Object.keys(row).flatMap((name): Array<readonly [string, Row[string]]> => {
      if (name === from) return [[to, value]];
      return name === to ? [] : [[name, row[name] ?? null]];
    }),
  );
}

/** The same rename on a fixed column list. */
function renameColumn(columns: readonly string[], from: string, to: string): string[] {
  if (!columns.includes(from)) return columns.includes(to) ? [...columns] : [...columns, to];
  return columns.flatMap((name) => (name === from ? [to] : name === to ? [] : [name]));
}

// The default is 10; 1 ≤ n ≤ 10,000 is the analyzer's to enforce, checked here as a bug guard.
function rowLimit(command: HeadCommand | TailCommand): number {
  const n = command.count?.value ?? 10;
  if (!Number.isInteger(n) || n < 1 || n > 10_000) {
    throw new QueryAnalysisError(`${command.kind} takes a whole number from 1 to 10000, not ${command.count?.text}`, {
      span: command.span,
    });
  }
  return n;
}
