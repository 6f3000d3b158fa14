/**
 * What a `lookup` command reads and writes, shared by the analyzer, the compiler and the
 * evaluator so that all three agree (docs/query-language.md, "Lookup tables").
 */
import type { LookupCommand } from './ast.js';
import { plainColumnName } from './column-names.js';

/** A tenant's lookup table as a query sees it: its columns, and the version of its rows in the engine. */
export interface LookupTableInfo {
  readonly id: string;
  readonly name: string;
  /** The header's column names, in file order. */
  readonly columns: readonly string[];
  /** Which rows of the engine's `lookup_rows` are the table's current data. */
  readonly version: string;
}

/** One column a lookup writes: the lookup table's `column`, into the row's column `name`. */
export interface LookupOutputColumn {
  readonly column: string;
  readonly name: string;
}

/** The lookup table's column the rows are matched on. */
export function lookupKey(command: LookupCommand): string {
  return plainColumnName(command.key) ?? '';
}

/** The row column whose value is looked up: `as FIELD`, else the key's own name. */
export function lookupField(command: LookupCommand): string {
  return plainColumnName(command.field ?? command.key) ?? '';
}

/** The columns a lookup writes, in order: those after `output`, else every table column but the key. */
export function lookupOutputs(command: LookupCommand, tableColumns: readonly string[]): LookupOutputColumn[] {
  if (command.outputs === null) {
    const key = lookupKey(command);
    return tableColumns.filter((c) => c !== key).map((c) => ({ column: c, name: c }));
  }
  return command.outputs.map((o) => ({ column: plainColumnName(o.column) ?? '', name: plainColumnName(o.alias ?? o.column) ?? '' }));
}
