/**
 * Resolves each `lookup` command's table among the tenant's lookup tables and checks that the
 * columns it names are the table's (docs/query-language.md, "Lookup tables"). Every problem is
 * reported at once, with its span and the nearest known name.
 */
import { closestName, ErrorCodes, errorDiagnostic, type Diagnostic } from '../../core/index.js';
import type { ColumnName, LookupCommand, Query } from '../ast.js';
import { plainColumnName } from '../column-names.js';
import { lookupOutputs, type LookupTableInfo } from '../lookup-outputs.js';

export interface LookupResolution {
  readonly lookups: ReadonlyMap<LookupCommand, LookupTableInfo>;
  readonly diagnostics: readonly Diagnostic[];
}

/** `tables` undefined: the caller has none to offer (a rule's tests run in a tenant of their own). */
export function checkLookups(query: Query, tables: readonly LookupTableInfo[] | undefined): LookupResolution {
  const lookups = new Map<LookupCommand, LookupTableInfo>();
  const diagnostics: Diagnostic[] = [];
  const report = (message: string, span: ColumnName['span'], hint?: string): void => {
    diagnostics.push(errorDiagnostic(ErrorCodes.queryAnalysis, message, { span, ...(hint ? { hint } : {}) }));
  };
  for (const command of query.pipeline) {
    if (command.kind !== 'lookup') continue;
    const name = command.table.name;
    if (tables === undefined) {
      report(`lookup tables cannot be used here: no tenant's lookup tables are available (rule tests run apart from every tenant)`, command.table.span);
      continue;
    }
    const table = tables.find((t) => t.name === name);
    if (table === undefined) {
      const near = closestName(
        name,
        tables.map((t) => t.name),
      );
      report(
        `unknown lookup table '${name}'`,
        command.table.span,
        near ? `did you mean ${near}?` : tables.length === 0 ? 'the tenant has no lookup tables: upload one first' : undefined,
      );
      continue;
    }
    lookups.set(command, table);
    const inTable = (column: ColumnName, role: string): void => {
      const columnName = plainColumnName(column);
      if (columnName === null) report(`${role} cannot be a wildcard name`, column.span);
      else if (!table.columns.includes(columnName)) {
        const near = closestName(columnName, table.columns);
        report(`lookup table '${name}' has no column '${columnName}' (columns: ${table.columns.join(', ')})`, column.span, near ? `did you mean ${near}?` : undefined);
      }
    };
    inTable(command.key, 'the key of a lookup');
    for (const output of command.outputs ?? []) {
      inTable(output.column, 'an output of a lookup');
      if (output.alias !== null && plainColumnName(output.alias) === null) report('an output name cannot be a wildcard name', output.alias.span);
    }
    const seen = new Set<string>();
    for (const [i, output] of lookupOutputs(command, table.columns).entries()) {
      if (seen.has(output.name)) report(`lookup would write column '${output.name}' twice; give one of them another name with as`, command.outputs?.[i]?.span ?? command.span);
      seen.add(output.name);
    }
  }
  return { lookups, diagnostics };
}
