/** The reference meaning of `lookup` (docs/query-language.md, "Lookup tables"). */
import { QueryAnalysisError } from '../../core/index.js';
import type { LookupCommand } from '../ast.js';
import { lookupField, lookupKey, lookupOutputs } from '../lookup-outputs.js';
import { cellOf } from './eval-table.js';
import { withCell } from './evaluate-row-command.js';
import type { PipelineTable } from './pipeline-table.js';
import { valueText } from './value-text.js';

/** A lookup table's data as the evaluator is given it: the header, then every row in file order. */
export interface LookupTableData {
  readonly columns: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

/**
 * Each row takes the output cells of the first table row (file order) whose key cell is the text
 * of the row's field, or null in each output when none is (a missing or null field matches none).
 */
export function evaluateLookup(command: LookupCommand, table: PipelineTable, data: LookupTableData | undefined): PipelineTable {
  if (data === undefined) throw new QueryAnalysisError(`unknown lookup table '${command.table.name}'`, { span: command.table.span });
  const keyAt = data.columns.indexOf(lookupKey(command));
  const outputs = lookupOutputs(command, data.columns).map((o) => ({ name: o.name, at: data.columns.indexOf(o.column) }));
  const first = new Map<string, readonly string[]>();
  for (const row of data.rows) {
    const key = row[keyAt] ?? '';
    if (!first.has(key)) first.set(key, row);
  }
  const field = lookupField(command);
  const rows = table.rows.map((row) => {
    const value = cellOf(row, field);
    const match = value === undefined || value === null ? undefined : first.get(valueText(value));
    return outputs.reduce((r, o) => withCell(r, o.name, match === undefined ? null : (match[o.at] ?? '')), row);
  });
  const names = outputs.map((o) => o.name);
  const columns = table.columns && [...table.columns, ...names.filter((n, i) => !table.columns?.includes(n) && names.indexOf(n) === i)];
  return { ...table, rows, columns };
}
